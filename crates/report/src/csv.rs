//! The CSV summary (docs/ORIGINAL.md, "CSV"; `UB_OUTPUT_CSV=true`): `Concurrency,<message>,...`
//! then one row per copy count, `<copies>,<score %.1f>,...`.
//!
//! Unlike `Run`, whose header came from the first copy count's tests (so columns slid when a
//! later count ran other tests, e.g. graphics skipped above 1 copy), the header is the union of
//! every copy count's scored tests, sorted by message as the report sorts them, and a copy count
//! without a test leaves its cell empty. When every count ran the same tests, as in a default
//! run, those columns are Run's bytes. After them, a column per index block, named by its
//! score line (`System Benchmarks Index Score`, with ` (Partial Only)` when a count's block is
//! partial), in the report's order: what Run's CSV lacked, and a reader that finds columns by
//! name, or takes the first ones, reads the tests as before. Last, the verdict of each figure,
//! so that a spreadsheet of this file alone cannot take a quick or disturbed figure for a
//! standard clean one: `Kind` (`standard`, `quick`, `short`), then per test and per index
//! column, in the same order, `<name> disturbed` (`yes`/`no`; an index: one of its tests),
//! `<name> 95% low` and `<name> 95% high` (its interval; empty where it has none). Write the
//! whole file again after each copy count.

use super::fmt;
use super::view::{score_title, scored};
use crate::model::{Category, CopyRun, Run};
use crate::stats::{self, Interval};

/// A field, quoted as RFC 4180 asks only when it holds a comma, a quote or a line break (no
/// UnixBench message does, so classic output stays unquoted).
fn field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The column names: every scored test's message, in byte order, once.
pub fn columns(run: &Run) -> Vec<String> {
    let mut all = Vec::new();
    for cr in &run.runs {
        all.extend(scored(cr));
    }
    crate::score::by_message(&mut all);
    let mut cols: Vec<String> = Vec::new();
    for r in all {
        if cols.last() != Some(&r.message) {
            cols.push(r.message.clone());
        }
    }
    cols
}

/// The index columns: each category with a block at any copy count, in the report's order, and
/// its title (partial if any count's block is).
fn index_columns(run: &Run) -> Vec<(Category, String)> {
    let mut cols = Vec::new();
    for cat in Category::ALL {
        let blocks = run.runs.iter().flat_map(|cr| &cr.index).filter(|b| b.category == cat);
        // The title of a partial block if there is one, else of any.
        if let Some(b) = blocks.reduce(|a, b| if a.partial { a } else { b }) {
            cols.push((cat, score_title(b)));
        }
    }
    cols
}

/// The whole CSV file.
pub fn render(run: &Run) -> String {
    let cols = columns(run);
    let index = index_columns(run);
    let mut names: Vec<String> = cols.clone();
    names.extend(index.iter().map(|(_, t)| t.clone()));
    let mut head = names.clone();
    head.push("Kind".to_string());
    for n in &names {
        head.extend([format!("{n} disturbed"), format!("{n} 95% low"), format!("{n} 95% high")]);
    }
    let mut s = String::from("Concurrency");
    for c in &head {
        s.push(',');
        s += &field(c);
    }
    s.push('\n');
    for cr in &run.runs {
        s += &row(run, cr, &cols, &index);
    }
    s
}

/// A copy count's figures, then its verdicts: what a cell of a test or index column says.
struct Figure {
    score: f64,
    disturbed: bool,
    ci: Option<Interval>,
}

/// One copy count's row: its scores, the kind of run, each figure's verdict.
fn row(run: &Run, cr: &CopyRun, cols: &[String], index: &[(Category, String)]) -> String {
    let results = scored(cr);
    let mut figures: Vec<Option<Figure>> = Vec::new();
    for c in cols {
        figures.push(results.iter().find(|r| &r.message == c).map(|r| Figure {
            score: r.score,
            disturbed: r.disturbed(),
            ci: stats::of_result(r).and_then(|s| s.ci95),
        }));
    }
    for (c, _) in index {
        figures.push(cr.index.iter().find(|b| b.category == *c).map(|b| Figure {
            score: b.score,
            disturbed: results.iter().any(|r| r.category == Some(*c) && r.disturbed()),
            ci: stats::index_interval(b, &cr.results),
        }));
    }
    let mut s = cr.copies.to_string();
    for f in &figures {
        s.push(',');
        s += &f.as_ref().map_or(String::new(), |f| fmt::f1(f.score));
    }
    s.push(',');
    s += run.kind().name();
    for f in &figures {
        let yes = |f: &Figure| if f.disturbed { "yes" } else { "no" }.to_string();
        let end = |e: fn(&Interval) -> f64| {
            f.as_ref().and_then(|f| f.ci.as_ref().map(e)).map_or(String::new(), fmt::f1)
        };
        s += &format!(",{},{},{}", f.as_ref().map_or(String::new(), yes), end(|i| i.low), end(|i| i.high));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn reference_run() {
        let want = "Concurrency,Dhrystone 2 using register variables,Double-Precision Whetstone,Execl Throughput,\
File Copy 1024 bufsize 2000 maxblocks,File Copy 256 bufsize 500 maxblocks,File Copy 4096 bufsize 8000 maxblocks,\
Pipe Throughput,Pipe-based Context Switching,Process Creation,Shell Scripts (1 concurrent),\
Shell Scripts (8 concurrent),System Call Overhead,System Benchmarks Index Score
1,78540503.4,10246.7,2114.7,1117517.9,289627.5,3183417.2,2089013.9,26010.3,6781.8,9466.7,1791.9,1718780.5,1433.1
2,160012088.8,20294.4,4090.2,2178820.9,564614.4,6423164.2,4018242.6,469991.0,15109.8,15933.3,1842.1,3412695.8,3209.6
";
        let got = render(&fixture::reference());
        starts_as_run_s(&got, want);
        // Then the verdicts: the kind, and per test and index its flag and interval.
        let first = got.lines().nth(1).unwrap();
        assert!(first.contains(",1433.1,standard,no,78539522.0,78539522.5,no,"), "{first}");
        assert!(first.ends_with(",no,1433.1,1433.1"), "{first}");
        assert!(got.lines().next().unwrap().ends_with(",System Benchmarks Index Score 95% high"));
        let n = got.lines().next().unwrap().split(',').count();
        assert_eq!(n, 1 + 13 + 1 + 3 * 13);
        assert!(got.lines().all(|l| l.split(',').count() == n));
    }

    #[test]
    fn a_quick_or_disturbed_figure_says_so() {
        let run = fixture::quick_with_pipe_disturbed();
        let got = render(&run);
        let head: Vec<&str> = got.lines().next().unwrap().split(',').collect();
        let row: Vec<&str> = got.lines().nth(1).unwrap().split(',').collect();
        let at = |name: &str| row[head.iter().position(|h| *h == name).unwrap()];
        assert_eq!(at("Kind"), "quick");
        assert_eq!(at("Pipe Throughput disturbed"), "yes");
        assert_eq!(at("System Call Overhead disturbed"), "no");
        assert_eq!(at("System Benchmarks Index Score disturbed"), "yes");
    }

    /// Each line of `got` is Run's line, then more columns.
    #[track_caller]
    fn starts_as_run_s(got: &str, want: &str) {
        assert_eq!(got.lines().count(), want.lines().count(), "{got}");
        for (g, w) in got.lines().zip(want.lines()) {
            assert!(g.starts_with(&format!("{w},")), "{g}\n{w}");
        }
    }

    #[test]
    fn columns_stay_aligned_when_copy_counts_ran_other_tests() {
        let mut run = fixture::troubled();
        let mut second = run.runs[0].clone();
        second.copies = 4;
        // The 4-copy run lacks grep, and has a test the 1-copy run lacks.
        second.results.retain(|r| r.name != "grep");
        let mut extra = second.results[0].clone();
        extra.message = "A \"quoted\", odd name".into();
        extra.score = 0.05;
        second.results.push(extra);
        run.runs.push(second);
        // The index columns: the 4-copy run has no misc block (no grep), and its system block
        // is whole (where the 1-copy one was partial): the column is named partial all the same.
        run.runs[1].index.retain(|b| b.category != Category::Misc);
        run.runs[1].index[0].partial = false;
        run.runs[1].index[0].score = 2.0;
        let want = "Concurrency,\"A \"\"quoted\"\", odd name\",Dhrystone 2 using register variables,\
Grep a large file (system's grep),Recursion Test -- Tower of Hanoi, a message far too long for its column,\
System Benchmarks Index Score (Partial Only),Non-Index Benchmarks Index Score (Partial Only)
1,,12345678901234.5,48834.0,981597.6,1057898706.1,19533.6
4,0.1,12345678901234.5,,981597.6,2.0,
";
        // The long message has a comma: it is quoted too.
        let want = want.replace(
            "Recursion Test -- Tower of Hanoi, a message far too long for its column",
            "\"Recursion Test -- Tower of Hanoi, a message far too long for its column\"",
        );
        let got = render(&run);
        starts_as_run_s(&got, &want);
        // A copy count without a test has no verdict for it either.
        assert!(got.ends_with(",no,2.0,2.0,,,\n"), "{got}");
    }
}
