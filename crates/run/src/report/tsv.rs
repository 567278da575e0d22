//! A tab-separated table for shell pipelines: a header line, then one line per test result of
//! every copy count, in report order (copy counts as run, tests sorted by message; tests without
//! a score last, in run order).
//!
//! Columns: `pass_copies test message score unit time samples baseline index`. Figures are
//! `%.1f` as in the text report. A missing value (a test with no baseline, or no score because it
//! failed or was skipped) is `-`, so that every line has nine non-empty fields and `cut`, `awk`
//! and `read` split it alike. Tabs and line breaks inside a field become spaces.

use super::fmt;
use super::view::{scored, unscored_reason};
use crate::model::{CopyRun, Run, TestResult};

pub const HEADER: &str = "pass_copies\ttest\tmessage\tscore\tunit\ttime\tsamples\tbaseline\tindex\n";

fn clean(s: &str) -> String {
    let s: String = s.chars().map(|c| if c == '\t' || c == '\n' || c == '\r' { ' ' } else { c }).collect();
    if s.is_empty() {
        "-".to_string()
    } else {
        s
    }
}

/// The baseline and index of a test's row in the copy run's index blocks, if any.
pub fn baseline_index(cr: &CopyRun, message: &str) -> (Option<f64>, Option<f64>) {
    cr.index
        .iter()
        .flat_map(|b| b.rows.iter())
        .find(|row| row.message == message)
        .map(|row| (row.baseline, row.index))
        .unwrap_or((None, None))
}

fn line(cr: &CopyRun, r: &TestResult) -> String {
    let opt = |v: Option<f64>| v.map(fmt::f1).unwrap_or_else(|| "-".to_string());
    let ok = r.ok();
    let (base, index) = if ok { baseline_index(cr, &r.message) } else { (None, None) };
    format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
        cr.copies,
        clean(&r.name),
        clean(&r.message),
        opt(ok.then_some(r.score)),
        clean(&r.unit),
        opt(ok.then_some(r.time)),
        if ok { r.kept.len().to_string() } else { "-".to_string() },
        opt(base),
        opt(index)
    )
}

/// The whole table.
pub fn render(run: &Run) -> String {
    let mut s = String::from(HEADER);
    for cr in &run.runs {
        for r in scored(cr) {
            s += &line(cr, r);
        }
        for r in cr.results.iter().filter(|r| unscored_reason(r).is_some()) {
            s += &line(cr, r);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::fixture;

    #[test]
    fn troubled_run() {
        let want = "pass_copies\ttest\tmessage\tscore\tunit\ttime\tsamples\tbaseline\tindex
1\tdhry2reg\tDhrystone 2 using register variables\t12345678901234.5\tlps\t2.0\t2\t116700.0\t1057898706.1
1\tgrep\tGrep a large file (system's grep)\t48834.0\tlpm\t2.0\t2\t25.0\t19533.6
1\thanoi\tRecursion Test -- Tower of Hanoi, a message far too long for its column\t981597.6\tlps\t2.0\t2\t-\t-
1\texecl\tExecl Throughput\t-\tlps\t-\t-\t-\t-
1\tC\tC Compiler Throughput\t-\tlpm\t-\t-\t-\t-
";
        assert_eq!(render(&fixture::troubled()), want);
    }

    #[test]
    fn reference_run_has_a_line_per_result() {
        let s = render(&fixture::reference());
        assert_eq!(s.lines().count(), 1 + 24);
        assert!(s.contains("\n2\tsyscall\tSystem Call Overhead\t3412695.8\tlps\t10.0\t7\t15000.0\t2275.1\n"));
        assert!(s.lines().all(|l| l.split('\t').count() == 9));
    }
}
