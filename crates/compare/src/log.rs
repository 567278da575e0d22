//! A text report's `.log` (docs/ORIGINAL.md, "Log"), read when it sits beside the report as the
//! driver writes it (`<report>.log`): every pass's copies, with their `# COUNT0:`, `# TIME:`,
//! `# elapsed:` ... fields. From them the same functions that scored the run give back each
//! test's full-precision score, its kept passes and so its 95% interval, its exec image, the
//! index scores and their intervals: what the results JSON gives `compare`, so that a run saved
//! without its JSON loses nothing there.
//!
//! The report stays the authority: a log is used only when its tests and scores are the
//! report's (to the report's rounding), and otherwise left out with a one-line note on stderr.
//! A C UnixBench log reads the same way (it has no `IMAGE` fields: the report's reading of the
//! image stays).

use super::files::read_capped;
use super::source::{self, FileKind, Index, Source};
use crate::model::{CopyOutcome, ExecImage, Pass, TestResult};
use crate::score;
use std::ffi::OsStr;
use std::io::Write as _;

/// Reads `<path>.log` when `src` is a text report and the log is there, and fills in from it what
/// the report rounds or lacks. A log that cannot be read or does not match is left out, with a
/// note on stderr; a missing one silently.
pub fn attach(src: &mut Source, path: &OsStr) {
    if src.kind != FileKind::Text {
        return;
    }
    let mut log = path.to_os_string();
    log.push(".log");
    if std::fs::symlink_metadata(&log).is_err() {
        return;
    }
    // Lossy: the programs' stdout in it may be in any encoding; the fields are ASCII.
    let read = read_capped(&log).and_then(|b| apply(src, &String::from_utf8_lossy(&b)));
    if let Err(why) = read {
        let _ = writeln!(std::io::stderr(), "compare: {}.log: ignored: {why}", src.file);
    }
}

/// One test's section of a log: its header's message and copies, each pass's copies, and
/// whether its summary gave a score.
#[derive(Default)]
struct Section {
    message: String,
    copies: usize,
    passes: Vec<Vec<CopyOutcome>>,
    /// The numbers (from 1) of the passes measured again, out of the score.
    replaced: Vec<usize>,
    scored: bool,
    /// A quick run's second visit: the index of the test's first section.
    again_of: Option<usize>,
    /// In a run with rounds, the rounds its passes ran in, in order (from the log's
    /// `** round N: test ...` lines).
    rounds: Vec<usize>,
}

/// The rounds of a run with rounds as its log lists them before the copy count's sections:
/// each round's tests' names, as its line gives them (separated by spaces).
#[derive(Default)]
struct RoundLines {
    rounds: Vec<(usize, String)>,
    /// A section came after the last round line: the next round line begins a copy count.
    stale: bool,
}

impl RoundLines {
    /// Reads `** round N: a b c`; false for any other line.
    fn read(&mut self, l: &str) -> bool {
        let Some((n, names)) = l.strip_prefix("** round ").and_then(|r| r.split_once(": ")) else {
            return false;
        };
        let Ok(n) = n.parse() else { return false };
        if std::mem::take(&mut self.stale) {
            self.rounds.clear();
        }
        self.rounds.push((n, names.to_string()));
        true
    }

    /// The rounds test `message` took part in, in order.
    fn of(&mut self, message: &str) -> Vec<usize> {
        self.stale = true;
        let Some(t) = crate::suite::TESTS.iter().find(|t| t.message == message) else { return Vec::new() };
        self.rounds
            .iter()
            .filter(|(_, names)| names.split(' ').any(|n| n == t.name))
            .map(|(k, _)| *k)
            .collect()
    }
}

/// `<message> -- 1 copy` / `<message> -- N copies`, the line after a section's rule, and
/// whether it ends ` (again)`: a quick run's second visit to the test, whose passes go on from
/// its first's (`report::log::test_again_header`).
fn section_header(l: &str) -> Option<(&str, usize, bool)> {
    let (message, n) = l.rsplit_once(" -- ")?;
    let (n, again) = n.strip_suffix(report::view::AGAIN).map_or((n, false), |n| (n, true));
    let (n, word) = n.split_once(' ')?;
    matches!(word, "copy" | "copies").then_some(())?;
    Some((message, n.parse().ok().filter(|&n| n > 0)?, again))
}

/// Sets a copy's field from its `# key: value` line; false when `key` is not a copy field.
fn set_field(c: &mut CopyOutcome, key: &str, v: &str) -> bool {
    let num = || base::json::decimal::parse_f64(v.trim());
    match key {
        "COUNT0" => c.count = num(),
        "COUNT1" => c.timebase = num(),
        "COUNT2" => c.label = Some(v.to_string()),
        "ERROR" => c.error = Some(v.to_string()),
        "IMAGE0" | "IMAGE1" => {
            let i = c.image.get_or_insert(ExecImage { kind: String::new(), detail: String::new() });
            *if key == "IMAGE0" { &mut i.kind } else { &mut i.detail } = v.into();
        }
        "TIME" => c.time = num(),
        // What the driver itself adds is never anything but a number: a line that says
        // otherwise is a program's stdout.
        "elapsed" => return num().map(|e| c.elapsed = e).is_some(),
        "pid" => return v.parse().map(|p| c.pid = p).is_ok(),
        "status" => return v.parse().map(|s| c.status = s).is_ok(),
        _ => return false,
    }
    true
}

/// The sections of a log, in order. A copy's fields run from its first `# key:` line to its
/// `# status:` line; any other line (the programs' stdout) drops a copy begun above it.
fn sections(text: &str) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut copy: Option<CopyOutcome> = None;
    let mut rounds = RoundLines::default();
    let mut lines = text.lines().peekable();
    while let Some(l) = lines.next() {
        if rounds.read(l) {
            continue;
        }
        if l.len() == 56 && l.bytes().all(|b| b == b'#') {
            if let Some((message, copies, again)) = lines.peek().and_then(|h| section_header(h)) {
                let first = |s: &Section| s.message == message && s.copies == copies && s.again_of.is_none();
                let again_of = if again { out.iter().rposition(first) } else { None };
                let rounds = rounds.of(message);
                out.push(Section {
                    message: message.to_string(),
                    copies,
                    again_of,
                    rounds,
                    ..Section::default()
                });
                lines.next();
                copy = None;
                continue;
            }
        }
        let Some(s) = out.last_mut() else { continue };
        if l.starts_with("#### Pass ") {
            s.passes.push(Vec::new());
            copy = None;
        } else if let Some(n) = replaced_pass(l) {
            s.replaced.push(n);
            copy = None;
        } else if let Some((key, v)) = l.strip_prefix("# ").and_then(|f| f.split_once(':')) {
            let c = copy.get_or_insert_with(CopyOutcome::default);
            if !set_field(c, key, v.strip_prefix(' ').unwrap_or(v)) {
                copy = None;
            } else if key == "status" {
                if let (Some(p), Some(c)) = (s.passes.last_mut(), copy.take()) {
                    p.push(c);
                }
            }
        } else {
            copy = None;
            // `>>>> score:` for a scored test; `>>>> error:`, `skipped:`, `interrupted by`.
            if l.starts_with(">>>> score: ") {
                s.scored = true;
            } else if [">>>> error", ">>>> skipped", ">>>> interrupted"].iter().any(|p| l.starts_with(p)) {
                s.scored = false;
            }
        }
    }
    merge_again(out)
}

/// The sections, each second visit that ended with a score added to its test's first (its
/// passes number on from the first's); one that did not (stopped, failed: the run kept the
/// first figure) left out.
fn merge_again(mut out: Vec<Section>) -> Vec<Section> {
    for k in 0..out.len() {
        let (Some(i), true) = (out[k].again_of, out[k].scored) else { continue };
        let (passes, replaced) = (std::mem::take(&mut out[k].passes), std::mem::take(&mut out[k].replaced));
        out[i].passes.extend(passes);
        out[i].replaced.extend(replaced);
    }
    out.retain(|s| s.again_of.is_none());
    out
}

/// The number of the pass a `#### Replaced: pass N (why), measured again` line names.
fn replaced_pass(l: &str) -> Option<usize> {
    l.strip_prefix("#### Replaced: pass ")?.split(' ').next()?.parse().ok()
}

/// A scored section as the driver would have scored it: its passes combined from their copies,
/// the lowest third dropped, the geometric mean of the rest (`crate::score`).
fn result(s: Section) -> Option<TestResult> {
    if !s.scored || s.passes.iter().any(|p| p.is_empty() || p.iter().any(|c| c.error.is_some())) {
        return None;
    }
    let mut passes = Vec::new();
    for (n, p) in (1..).zip(s.passes) {
        if !s.replaced.contains(&n) {
            passes.push(Pass { round: s.rounds.get(n - 1).copied(), ..score::combine_copies(p) });
        }
    }
    let test = crate::suite::TESTS.iter().find(|t| t.message == s.message);
    let mut r = TestResult {
        name: test.map_or(s.message.clone(), |t| t.name.to_string()),
        category: test.map(|t| t.category),
        message: s.message,
        copies: s.copies,
        passes,
        ..TestResult::default()
    };
    score::score_result(&mut r).then_some(r)
}

/// The log's runs: (copies, scored results), a run being the sections of one copy count in a
/// row, as the driver (and Run) run every test at one count before the next. A test run twice
/// keeps its last result, as in the report.
fn runs(text: &str) -> Vec<(usize, Vec<TestResult>)> {
    let mut out: Vec<(usize, Vec<TestResult>)> = Vec::new();
    for s in sections(text) {
        if out.last().map(|(n, _)| *n) != Some(s.copies) {
            out.push((s.copies, Vec::new()));
        }
        let results = &mut out.last_mut().unwrap().1;
        if let Some(r) = result(s) {
            results.retain(|x| x.message != r.message);
            results.push(r);
        }
    }
    out
}

/// An interval as the JSON would give it back (its two ends and its degrees of freedom), so
/// that a report with its log and the run's JSON compare to the same bits.
fn through_ends(c: crate::stats::Interval) -> Option<crate::stats::Interval> {
    crate::stats::Interval::from_ends(c.low, c.high, Some(c.df).filter(|d| d.is_finite()))
}

/// Whether a recomputed figure is the one the report prints (`%.1f`), allowing for a log that
/// kept elapsed times a little coarser than the scoring did.
fn same(report: f64, log: f64) -> bool {
    (report - log).abs() <= 0.05 + 1e-6 * report.abs()
}

/// Replaces the report's runs by the log's figures, or says why the log does not match.
fn apply(src: &mut Source, text: &str) -> Result<(), String> {
    let logged = runs(text);
    if logged.len() != src.runs.len() || logged.iter().zip(&src.runs).any(|((n, _), r)| *n != r.copies) {
        return Err("its copy counts are not the report's".into());
    }
    let mut runs = Vec::new();
    for ((copies, results), run) in logged.into_iter().zip(&src.runs) {
        runs.push(run_of(copies, &results, run)?);
    }
    src.runs = runs;
    src.kind = FileKind::TextLog;
    Ok(())
}

/// One run from the log's results, checked against the report's run of the same copy count.
fn run_of(
    copies: usize,
    results: &[TestResult],
    report: &source::CopyRun,
) -> Result<source::CopyRun, String> {
    let differs = |what: &str| format!("its {copies}-copy run differs from the report's in {what}");
    // Results are one per message: as many as the report's, each the report's, are the same.
    if results.len() != report.tests.len() {
        return Err(differs("its tests"));
    }
    // In the log's order, which is the run's, as the JSON lists them.
    let mut tests = Vec::new();
    let by_name = source::ByName::tests(&report.tests);
    for r in results {
        let t = by_name.get(&r.message).map(|k| &report.tests[k]).filter(|t| same(t.score, r.score));
        let Some(t) = t else { return Err(differs(&r.message)) };
        let stats = crate::stats::of_result(r);
        let image = r.exec_image().map(|i| source::image_of(Some(&i.kind)));
        tests.push(source::TestResult {
            message: t.message.clone(),
            score: r.score,
            unit: r.unit.clone(),
            index: None,
            ci: stats.and_then(|s| s.ci95).and_then(through_ends),
            image: if source::times_an_image(&t.message) { image.or(t.image) } else { None },
            disturbed: t.disturbed,
        });
    }
    let blocks = score::index_blocks(results);
    let mut index = Vec::new();
    for x in &report.index {
        let b = blocks.iter().find(|b| b.category == x.category).filter(|b| same(x.score, b.score));
        let Some(b) = b.filter(|b| b.partial == x.partial) else { return Err(differs("its index scores")) };
        for row in &b.rows {
            if let Some(t) = tests.iter_mut().find(|t| t.message == row.message) {
                t.index = row.index;
            }
        }
        // As the run's JSON gives it (through its two ends and degrees of freedom).
        let ci = crate::stats::index_interval(b, results).and_then(through_ends);
        index.push(Index { category: b.category, score: b.score, partial: b.partial, ci });
    }
    if blocks.len() != report.index.len() {
        return Err(differs("its index scores"));
    }
    Ok(source::CopyRun { copies, tests, index })
}

#[cfg(test)]
mod tests {
    use super::super::load;
    use super::*;
    use crate::model::{self, CopyRun, Cpu, Settings, SystemInfo};
    use scoring::outcome::parse_copy;

    const REPORT: &str = "   BYTE UNIX Benchmarks (Version 6.0.0-compatible; unixbench 0.1.0)

   System: box: GNU/Linux
   OS: GNU/Linux -- 6.1.0 -- #1 SMP
   Machine: x86_64 (unknown)
   Language: C
   CPU 0: CPU X (4000.0 bogomips)
          x86-64
   12:00:00 up 1 day; runlevel 5

** Quick run (--quick, 8 s budget): shorter passes, each test stopped when the 95% interval of its score was within +-1% or its share of the budget was spent; the intervals follow each block.

------------------------------------------------------------------------
Benchmark Run: Tue Dec 01 2026 12:00:00 - 12:00:06
2 CPUs in system; running 1 parallel copy of tests

Execl Throughput                                214.9 lps   (1.0 s, 2 samples)
System Call Overhead                        1153689.7 lps   (1.0 s, 2 samples)

System Benchmarks Partial Index              BASELINE       RESULT    INDEX
Execl Throughput                                 43.0        214.9     50.0
System Call Overhead                          15000.0    1153689.7    769.1
                                                                   ========
System Benchmarks Index Score (Partial Only)                          196.1

** 95% intervals (geometric mean, log scale, Student's t):
";

    /// Three passes of syscall (1.0e6, 1.1e6, 1.21e6 per second) and of execl (200, 210, 220,
    /// on the dynamic twin), with the programs' stdout where Run's log has it.
    const LOG: &str = "
########################################################
System Call Overhead -- 1 copy
==> syscall 1 mix

#### Pass 1


# COUNT0: 1000000
# COUNT1: 1
# COUNT2: lps
# elapsed: 1.000000
# pid: 10
# status: 0

#### Pass 2

# status: 0 (stdout, which looks like a field but is no copy's)

# COUNT0: 1100000
# COUNT1: 1
# COUNT2: lps
# elapsed: 1.000000
# pid: 11
# status: 0

#### Pass 3


# COUNT0: 1210000
# COUNT1: 1
# COUNT2: lps
# TIME: 1
# elapsed: 1.000123
# pid: 12
# status: 0

*Dump score:    1000000.0
Count score:    1100000.0
Count score:    1210000.0

>>>> Results of 1 copy
>>>> score: 1153689.73298717
>>>> time: 1
>>>> iterations: 2


########################################################
Execl Throughput -- 1 copy
==> execl 1

#### Pass 1


# COUNT0: 220
# COUNT1: 1
# COUNT2: lps
# IMAGE0: dynamic-glibc
# IMAGE1: /lib64/ld-linux-x86-64.so.2
# elapsed: 1.000000
# pid: 20
# status: 0

#### Pass 2


# COUNT0: 200
# COUNT1: 1
# COUNT2: lps
# IMAGE0: dynamic-glibc
# IMAGE1: /lib64/ld-linux-x86-64.so.2
# elapsed: 1.000000
# pid: 21
# status: 0

#### Pass 3


# COUNT0: 210
# COUNT1: 1
# COUNT2: lps
# IMAGE0: dynamic-glibc
# IMAGE1: /lib64/ld-linux-x86-64.so.2
# elapsed: 1.000000
# pid: 22
# status: 0

*Dump score:        200.0
Count score:        210.0
Count score:        220.0

>>>> Results of 1 copy
>>>> score: 214.941852602047
>>>> time: 1
>>>> iterations: 2

";

    #[track_caller]
    fn close(a: f64, b: f64) {
        assert!((a - b).abs() <= 1e-12 * b.abs(), "{a} != {b}");
    }

    #[test]
    fn a_literal_report_and_its_log() {
        let mut src = load::load("r", REPORT).unwrap();
        assert_eq!((src.kind, src.quick), (FileKind::Text, true));
        assert_eq!(src.runs[0].tests[1].ci, None);
        apply(&mut src, LOG).unwrap();
        assert_eq!((src.kind, src.quick, src.runs.len()), (FileKind::TextLog, true, 1));
        let run = &src.runs[0];
        assert_eq!(run.copies, 1);
        // In the log's order.
        let (syscall, execl) = (&run.tests[0], &run.tests[1]);
        // The kept passes: the two highest counts; TIME (1) stands for elapsed where given.
        let (s, e) = ((1.1e6f64 * 1.21e6).sqrt(), (210.0f64 * 220.0).sqrt());
        assert_eq!(
            (execl.message.as_str(), syscall.message.as_str()),
            ("Execl Throughput", "System Call Overhead")
        );
        close(syscall.score, s);
        close(execl.score, e);
        assert_eq!((execl.unit.as_str(), syscall.unit.as_str()), ("lps", "lps"));
        close(syscall.index.unwrap(), 10.0 * s / 15000.0);
        close(execl.index.unwrap(), 10.0 * e / 43.0);
        // Two kept passes each: no interval of use, as the JSON gives none.
        assert!(syscall.ci.is_none() && execl.ci.is_none());
        assert_eq!((execl.image, syscall.image), (Some(source::Image::Dynamic), None));
        let ix = &run.index[0];
        assert_eq!((ix.category, ix.partial), (model::Category::System, true));
        close(ix.score, 10.0 * ((s / 15000.0).ln() / 2.0 + (e / 43.0).ln() / 2.0).exp());
        // The index's, propagated from the two tests' standard errors, each on one degree of
        // freedom, as the JSON gives it.
        let ci = ix.ci.unwrap();
        assert!(ci.low < ix.score && ix.score < ci.high && (1.0..=2.0).contains(&ci.df), "{ci:?}");
    }

    #[test]
    fn a_test_measured_again_later_reads_as_one_test() {
        // Syscall's first pass, disturbed, set aside when the test is visited again after
        // execl, and a fourth pass of the same count run: the score is the report's still.
        let again = "\n########################################################\n\
            System Call Overhead -- 1 copy (again)\n==> syscall 1 mix\n\n\
            #### Replaced: pass 1 (other processes), measured again\n\n#### Pass 4\n\n\
            # COUNT0: 1000000\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: 1.000000\n# pid: 13\n# status: 0\n\n\
            >>>> Results of 1 copy\n>>>> score: 1153689.73298717\n\n";
        let log = format!("{LOG}{again}");
        let s = sections(&log);
        assert_eq!(s.len(), 2, "one section per test");
        assert_eq!((s[0].passes.len(), s[0].replaced.as_slice(), s[0].scored), (4, &[1][..], true));
        let mut src = load::load("r", REPORT).unwrap();
        apply(&mut src, &log).unwrap();
        close(src.runs[0].tests[0].score, (1.1e6f64 * 1.21e6).sqrt());
        // A second visit stopped (a signal, a failed copy) is left out: the run kept the first.
        for end in [">>>> interrupted by SIGINT", ">>>> error: measuring again stopped: disk full"] {
            let stopped = again.replace(">>>> Results of 1 copy\n>>>> score: 1153689.73298717", end);
            let s = sections(&format!("{LOG}{stopped}"));
            assert_eq!((s.len(), s[0].passes.len(), s[0].replaced.len(), s[0].scored), (2, 3, 0, true));
        }
        assert_eq!(section_header("Pipe Throughput -- 2 copies (again)"), Some(("Pipe Throughput", 2, true)));
        assert_eq!(section_header("Pipe Throughput -- 2 copies"), Some(("Pipe Throughput", 2, false)));
    }

    #[test]
    fn a_pass_measured_again_is_left_out_as_the_run_left_it_out() {
        // A fourth syscall pass, first, disturbed and measured again: renumbered, the log reads
        // as the report still.
        let extra = "#### Pass 1\n\n# COUNT0: 9000000\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: 1.000000\n# pid: 9\n# status: 0\n\n\
                     #### Replaced: pass 1 (stopped), measured again\n\n";
        let log = LOG.replacen("#### Pass 3", "#### Pass 4", 1).replacen("#### Pass 2", "#### Pass 3", 1);
        let log = log.replacen("#### Pass 1", "#### Pass 2", 1).replacen(
            "#### Pass 2",
            &format!("{extra}#### Pass 2"),
            1,
        );
        let mut src = load::load("r", REPORT).unwrap();
        apply(&mut src, &log).unwrap();
        close(src.runs[0].tests[0].score, (1.1e6f64 * 1.21e6).sqrt());
        assert_eq!(replaced_pass("#### Replaced: pass 12 (other processes), measured again"), Some(12));
    }

    #[test]
    fn a_log_that_is_not_the_reports_is_left_out() {
        let fresh = || load::load("r", REPORT).unwrap();
        let cases = [
            (
                LOG.replace("# COUNT0: 1210000", "# COUNT0: 1310000"),
                "1-copy run differs from the report's in System Call Overhead",
            ),
            (
                LOG.replace("Execl Throughput -- 1 copy", "Execl Throughput -- 2 copies"),
                "its copy counts are not the report's",
            ),
            (LOG.replace("Execl Throughput -- 1", "Process Creation -- 1"), "in Process Creation"),
            (
                LOG[..LOG.find("#### Pass 3\n\n\n# COUNT0: 210").unwrap()].to_string()
                    + "\n>>>> interrupted by SIGINT\n",
                "in its tests",
            ),
            (LOG.replace(">>>> score: 214", ">>>> skipped: x"), "in its tests"),
            (LOG.replace("# status: 0\n\n*Dump", "\n*Dump"), "in its tests"),
            (String::new(), "its copy counts are not the report's"),
            ("COUNT|1|1|lps\n".repeat(3), "its copy counts"),
        ];
        for (log, why) in cases {
            let mut src = fresh();
            let e = apply(&mut src, &log).expect_err(why);
            assert!(e.contains(why), "{e}");
            assert_eq!(src, fresh(), "a log left out changes nothing");
        }
        let mut src = load::load("r", &REPORT.replace("196.1", "196.3")).unwrap();
        assert!(apply(&mut src, LOG).unwrap_err().ends_with("in its index scores"));
        // A log whose execl ran on the static image says so, whatever the report inferred.
        let mut src = fresh();
        apply(&mut src, &LOG.replace("dynamic-glibc", "static")).unwrap();
        assert_eq!(src.runs[0].tests[1].image, Some(source::Image::Static));
    }

    #[test]
    fn the_c_suites_log_reads_as_ours() {
        // The first section of the C suite's reference log (report/log.rs has all its figures).
        let counts = [780131628u64, 800553506, 804441019, 319011682, 796744497, 801770841, 800168360];
        let mut log =
            format!("\n{}\nDhrystone 2 using register variables -- 1 copy\n==> x\n\n", "#".repeat(56));
        for (i, c) in counts.iter().enumerate() {
            log += &format!(
                "#### Pass {}\n\n\n# COUNT0: {c}\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: 10.00{i}355\n# pid: 1\n# status: 0\n\n",
                i + 1
            );
        }
        log += "\n>>>> Results of 1 copy\n>>>> score: 1\n>>>> time: 10\n>>>> iterations: 5\n\n";
        let r = runs(&log);
        assert_eq!(r.len(), 1);
        let (copies, results) = &r[0];
        assert_eq!((*copies, results.len()), (1, 1));
        let t = &results[0];
        assert_eq!((t.name.as_str(), t.category), ("dhry2reg", Some(model::Category::System)));
        assert_eq!((t.passes.len(), t.kept.len(), t.passes[4].elapsed), (7, 5, 10.004355));
        assert_eq!(t.passes[0].copies[0].pid, 1);
        assert!(t.exec_image().is_none());
    }

    /// A run through the driver's own scoring, written as its report, log and JSON: the report
    /// and log load as the JSON does, field for field.
    #[test]
    fn report_and_log_give_what_the_json_gives() {
        let copy = |stderr: &str, elapsed: f64| parse_copy(stderr, elapsed, 0, 7);
        let test = |name: &str, copies: usize, rows: &[(&str, f64)]| {
            let t = crate::suite::test(name).unwrap();
            let passes: Vec<_> = rows
                .iter()
                .map(|&(e, el)| {
                    score::combine_copies((0..copies).map(|k| copy(e, el + k as f64 * 1e-3)).collect())
                })
                .collect();
            let mut r = TestResult {
                name: name.into(),
                message: t.message.into(),
                category: Some(t.category),
                command: format!("{name} 1"),
                copies,
                passes,
                ..TestResult::default()
            };
            assert!(score::score_result(&mut r));
            r
        };
        let mut run = model::Run {
            version: "6.0.0-compatible; unixbench 0.1.0".into(),
            build: Default::default(),
            system: SystemInfo {
                hostname: "box".into(),
                os: "GNU/Linux".into(),
                os_release: "6.1.0".into(),
                machine: "x86_64".into(),
                system: "Debian".into(),
                cpus: vec![Cpu { model: "CPU X".into(), bogomips: 4000.0, flags: "x86-64".into() }],
                cpu_count: Some(2),
                ..SystemInfo::default()
            },
            settings: Settings { quick: Some(8.0), ..Settings::default() },
            ..model::Run::default()
        };
        let img = "IMAGE|dynamic-musl|/lib/ld-musl-x86_64.so.1\n";
        for copies in [1, 2] {
            let results = vec![
                test(
                    "syscall",
                    copies,
                    &[
                        ("COUNT|1000003|1|lps\n", 1.000_013_7),
                        ("COUNT|1200007|1|lps\n", 1.000_2),
                        ("COUNT|1100001|1|lps\n", 0.999_91),
                        ("COUNT|1150001|1|lps\n", 1.000_1),
                    ],
                ),
                test(
                    "whetstone-double",
                    copies,
                    &[
                        ("COUNT|3001.234|0|MWIPS\nTIME|9.954\n", 10.0),
                        ("COUNT|3011.5|0|MWIPS\nTIME|10.012\n", 10.0),
                        ("COUNT|3005.5|0|MWIPS\nTIME|10.002\n", 10.0),
                        ("COUNT|2999.5|0|MWIPS\nTIME|9.992\n", 10.0),
                    ],
                ),
                test(
                    "execl",
                    copies,
                    &[
                        (&format!("COUNT|2001|1|lps\n{img}"), 1.001),
                        (&format!("COUNT|2101|1|lps\n{img}"), 1.002),
                        (&format!("COUNT|2051|1|lps\n{img}"), 1.003),
                        (&format!("COUNT|2071|1|lps\n{img}"), 1.001),
                    ],
                ),
                test("pipe", copies, &[("COUNT|5000|1|lps\n", 1.5)]),
            ];
            let index = score::index_blocks(&results);
            run.runs.push(CopyRun { copies, start: 0, end: 1, results, index });
        }
        let report = report::text::report_in(&run, crate::fmt::utc);
        let log: String = run.runs.iter().flat_map(|cr| &cr.results).map(report::log::test_section).collect();
        let json = load::load("r", &report::json::render(&run)).unwrap();
        let mut text = load::load("r", &report).unwrap();
        apply(&mut text, &log).unwrap();
        assert_eq!(text.kind, FileKind::TextLog);
        text.kind = FileKind::Json;
        // The report's date is the host's local time, here UTC, which the JSON marks with `Z`.
        text.date.push('Z');
        assert_eq!(text, json);
        // The intervals are there to compare: pipe's one pass gives none, the others do.
        let t = &json.runs[1].tests;
        assert_eq!(t.iter().map(|t| t.ci.is_some()).collect::<Vec<_>>(), [true, true, true, false]);
        assert_eq!(t[2].image, Some(source::Image::Dynamic));
    }
}
