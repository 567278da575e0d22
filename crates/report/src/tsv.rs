//! A tab-separated table for shell pipelines and spreadsheets: a header line, then per copy count
//! (as run) one line per test result in report order (sorted by message; tests without a score
//! last, in run order), then one line per index block (test `index:<category key>`, in the
//! report's order).
//!
//! Columns ([`HEADER`]): the copy count, the test's name and title (its report line's name), its
//! score and unit, the seconds of a pass and the passes kept (the report's `(10.0 s, 7 samples)`),
//! its baseline and index. An index block's line has its score in `index` alone. Then, added at
//! the end so that readers by position keep their columns: the kind of run (`standard`, `quick`,
//! `short`), whether the test (an index: one of its tests) was `disturbed` (`yes`/`no`), and its
//! 95% interval (`ci95_low`, `ci95_high`), so that a pipeline reading only this table cannot take
//! a quick or disturbed figure for a standard clean one. Figures are `%.1f` as in the text
//! report. A missing value (a test with no baseline, or no score because it failed or was
//! skipped, or no interval) is `-`, so that every line has thirteen non-empty fields and `cut`,
//! `awk` and `read` split it alike. Tabs and line breaks inside a field become spaces.

use super::fmt;
use super::view::{baseline_index, ordered_index, score_title, scored, unscored_reason};
use crate::model::{Category, CopyRun, Run, TestResult};
use crate::stats::{self, Interval};
use std::fmt::Write as _;

pub const HEADER: &str = "copies\ttest\ttitle\tscore\tunit\tseconds_per_pass\tkept_passes\tbaseline\tindex\t\
                          kind\tdisturbed\tci95_low\tci95_high\n";

fn clean(s: &str) -> String {
    let s: String = s.chars().map(|c| if c == '\t' || c == '\n' || c == '\r' { ' ' } else { c }).collect();
    if s.is_empty() {
        "-".to_string()
    } else {
        s
    }
}

fn opt(v: Option<f64>) -> String {
    v.map(fmt::f1).unwrap_or_else(|| "-".to_string())
}

/// The columns after Run's, ending the line: the kind of run, the disturbed flag, the interval.
fn verdict(s: &mut String, run: &Run, disturbed: bool, ci: Option<Interval>) {
    let yes = if disturbed { "yes" } else { "no" };
    let _ =
        writeln!(s, "{}\t{yes}\t{}\t{}", run.kind().name(), opt(ci.map(|c| c.low)), opt(ci.map(|c| c.high)));
}

fn line(s: &mut String, run: &Run, cr: &CopyRun, r: &TestResult) {
    let ok = r.ok();
    let (base, index) = if ok { baseline_index(cr, &r.message) } else { (None, None) };
    let _ = write!(
        s,
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t",
        cr.copies,
        clean(&r.name),
        clean(&r.message),
        opt(ok.then_some(r.score)),
        clean(&r.unit),
        opt(ok.then_some(r.time)),
        if ok { r.kept.len().to_string() } else { "-".to_string() },
        opt(base),
        opt(index),
    );
    verdict(s, run, ok && r.disturbed(), stats::of_result(r).and_then(|s| s.ci95));
}

/// The results of a category.
fn in_category(cr: &CopyRun, c: Category) -> impl Iterator<Item = &TestResult> {
    cr.results.iter().filter(move |r| r.category == Some(c))
}

/// The whole table.
pub fn render(run: &Run) -> String {
    let mut s = String::from(HEADER);
    for cr in &run.runs {
        for r in scored(cr) {
            line(&mut s, run, cr, r);
        }
        for r in cr.results.iter().filter(|r| unscored_reason(r).is_some()) {
            line(&mut s, run, cr, r);
        }
        for b in ordered_index(cr) {
            let (key, title) = (b.category.key(), score_title(b));
            let disturbed = in_category(cr, b.category).any(|r| r.ok() && r.disturbed());
            let _ = write!(s, "{}\tindex:{key}\t{title}\t-\t-\t-\t-\t-\t{}\t", cr.copies, fmt::f1(b.score));
            verdict(&mut s, run, disturbed, stats::index_interval(b, &cr.results));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn troubled_run() {
        let want = "copies\ttest\ttitle\tscore\tunit\tseconds_per_pass\tkept_passes\tbaseline\tindex\tkind\tdisturbed\tci95_low\tci95_high
1\tdhry2reg\tDhrystone 2 using register variables\t12345678901234.5\tlps\t2.0\t2\t116700.0\t1057898706.1\tshort\tno\t-\t-
1\tgrep\tGrep a large file (system's grep)\t48834.0\tlpm\t2.0\t2\t25.0\t19533.6\tshort\tno\t-\t-
1\thanoi\tRecursion Test -- Tower of Hanoi, a message far too long for its column\t981597.6\tlps\t2.0\t2\t-\t-\tshort\tno\t-\t-
1\texecl\tExecl Throughput\t-\tlps\t-\t-\t-\t-\tshort\tno\t-\t-
1\tC\tC Compiler Throughput\t-\tlpm\t-\t-\t-\t-\tshort\tno\t-\t-
1\tindex:system\tSystem Benchmarks Index Score (Partial Only)\t-\t-\t-\t-\t-\t1057898706.1\tshort\tno\t1057898706.1\t1057898706.1
1\tindex:misc\tNon-Index Benchmarks Index Score (Partial Only)\t-\t-\t-\t-\t-\t19533.6\tshort\tno\t19531.8\t19535.4
";
        // Run's nine columns first, unchanged: a reader by position finds them where they were.
        assert_eq!(render(&fixture::troubled()), want);
    }

    #[test]
    fn reference_run_has_a_line_per_result() {
        let s = render(&fixture::reference());
        // 12 tests and the System index at each of 1 and 2 copies.
        assert_eq!(s.lines().count(), 1 + 26);
        assert!(s.contains(
            "\n2\tsyscall\tSystem Call Overhead\t3412695.8\tlps\t10.0\t7\t15000.0\t2275.1\tstandard\tno\t"
        ));
        // After each copy count's tests, its index block, as the report's score line gives it.
        assert!(s.contains("\n1\tsyscall\tSystem Call Overhead\t1718780.5\tlps\t10.0\t7\t15000.0\t1145.9\tstandard\tno\t"), "{s}");
        assert!(
            s.contains(
                "\n1\tindex:system\tSystem Benchmarks Index Score\t-\t-\t-\t-\t-\t1433.1\tstandard\tno\t"
            ),
            "{s}"
        );
        assert!(
            s.lines()
                .last()
                .unwrap()
                .starts_with("2\tindex:system\tSystem Benchmarks Index Score\t-\t-\t-\t-\t-\t3209.6\t"),
            "{s}"
        );
        assert!(s.lines().all(|l| l.split('\t').count() == 13 && l.split('\t').all(|f| !f.is_empty())));
    }

    #[test]
    fn a_quick_or_disturbed_figure_says_so_in_its_row() {
        let run = fixture::quick_with_pipe_disturbed();
        let s = render(&run);
        let row = |start: &str| {
            s.lines()
                .find(|l| l.starts_with(start))
                .unwrap()
                .split('\t')
                .skip(9)
                .take(2)
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(row("1\tpipe\t"), "quick yes");
        assert_eq!(row("1\tsyscall\t"), "quick no");
        assert_eq!(row("1\tindex:system\t"), "quick yes", "an index holding a disturbed test");
    }
}
