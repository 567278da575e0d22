//! Where the driver's words go: the console (Run's progress on stdout, our time-left hint and
//! failures on stderr) and the result files (`<base>`, `.html`, `.log`, `.json`, `.csv`).
//!
//! Every string of a report or log comes from the exporters, pure functions of the model; the
//! calls to them are all in [`fmt`], so that hooking in a new exporter is a change of one line
//! there. Measuring code never formats.

use super::model::{Run, TestResult};
use super::options::{Format, Verbosity};
use crate::sys;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::io::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};

/// The exporters' entry points, as the driver calls them.
pub mod fmt {
    use crate::driver::model::{Pass, Run, TestResult};

    /// The logo and the banner printed before the tests.
    pub fn banner(run: &Run) -> String {
        format!("\n   BYTE UNIX Benchmarks (Version {})\n\n", run.version)
    }
    /// The "Use directories for:" block.
    pub fn directories(run: &Run) -> String {
        let rule = "-".repeat(78);
        format!(
            "{rule}\n   Use directories for:\n      * File I/O tests (named fs***) = {}\n      * Results                      = {}\n{rule}\n\n",
            run.settings.tmpdir, run.settings.resultdir
        )
    }
    /// The text report (the results file without extension, and the console's final print).
    pub fn text(run: &Run) -> String {
        fallback::text(run)
    }
    pub fn html(run: &Run) -> String {
        format!("<html><body><pre>\n{}</pre></body></html>\n", fallback::text(run))
    }
    pub fn json(run: &Run) -> String {
        fallback::json(run)
    }
    pub fn csv(run: &Run) -> String {
        fallback::csv(run)
    }
    pub fn tsv(run: &Run) -> String {
        fallback::tsv(run)
    }
    /// The log's lines before a test's first pass.
    pub fn log_test_header(message: &str, copies: usize, command: &str) -> String {
        let what = if copies == 1 { "1 copy".to_string() } else { format!("{copies} copies") };
        format!("\n{}\n{message} -- {what}\n==> {command}\n\n", "#".repeat(56))
    }
    /// Before a pass (its programs' stdout follows).
    pub fn log_pass_header(number: usize) -> String {
        format!("#### Pass {number}\n\n")
    }
    /// After a pass: every copy's fields.
    pub fn log_pass(pass: &[crate::driver::model::CopyOutcome]) -> String {
        let mut s = String::from("\n");
        for c in pass {
            for (k, v) in &c.fields {
                s.push_str(&format!("# {k}: {v}\n"));
            }
            s.push('\n');
        }
        s
    }
    /// After the last pass: the dropped and kept counts and the result.
    pub fn log_summary(r: &TestResult) -> String {
        fallback::log_summary(r)
    }
    /// When a run is stopped by a signal in the middle of a test.
    pub fn log_interrupted(signal: &str) -> String {
        format!("\n>>>> interrupted by {signal}\n\n")
    }

    #[allow(dead_code)]
    fn _uses(_: &Pass) {}

    /// Stand-ins until the report exporters land: Run's layouts, enough to read a run.
    mod fallback {
        use crate::driver::model::{Run, TestResult};
        use std::fmt::Write;

        fn sorted(results: &[TestResult]) -> Vec<&TestResult> {
            let mut v: Vec<&TestResult> = results.iter().filter(|r| r.ok()).collect();
            v.sort_by(|a, b| a.message.as_bytes().cmp(b.message.as_bytes()));
            v
        }

        pub fn text(run: &Run) -> String {
            let mut s = format!("   BYTE UNIX Benchmarks (Version {})\n\n", run.version);
            let _ = writeln!(s, "   System: {}: {}\n", run.system.hostname, run.system.system);
            for cr in &run.runs {
                let _ = writeln!(s, "{}", "-".repeat(72));
                let cpus = match run.system.cpu_count {
                    Some(1) => "1 CPU".to_string(),
                    Some(n) => format!("{n} CPUs"),
                    None => "unknown CPUs".to_string(),
                };
                let copies = if cr.copies == 1 {
                    "1 parallel copy".to_string()
                } else {
                    format!("{} parallel copies", cr.copies)
                };
                let _ = writeln!(s, "Benchmark Run: {} - {}", cr.start, cr.end);
                let _ = writeln!(s, "{cpus} in system; running {copies} of tests\n");
                for r in sorted(&cr.results) {
                    let _ = writeln!(
                        s,
                        "{:<40} {:>12.1} {:<5} ({:.1} s, {} samples)",
                        r.message,
                        r.score,
                        r.unit,
                        r.time,
                        r.kept.len()
                    );
                }
                for r in cr.results.iter().filter(|r| !r.ok()) {
                    if let Some(e) = &r.error {
                        let _ = writeln!(s, "{:<40} FAILED: {}", r.message, e.replace('\n', "; "));
                    } else if let Some(k) = &r.skipped {
                        let _ = writeln!(s, "{:<40} skipped: {k}", r.message);
                    }
                }
                let _ = writeln!(s);
                for b in &cr.index {
                    let head = format!(
                        "{} {}",
                        b.category.display(),
                        if b.partial { "Partial Index" } else { "Index Values" }
                    );
                    let _ = writeln!(s, "{:<40} {:>12} {:>12} {:>8}", head, "BASELINE", "RESULT", "INDEX");
                    for row in &b.rows {
                        match (row.baseline, row.index) {
                            (Some(base), Some(i)) => {
                                let _ = writeln!(
                                    s,
                                    "{:<40} {:>12.1} {:>12.1} {:>8.1}",
                                    row.message, base, row.score, i
                                );
                            }
                            _ => {
                                let _ = writeln!(
                                    s,
                                    "{:<40} {:>12} {:>12.1} {:>8}",
                                    row.message, "---", row.score, "---"
                                );
                            }
                        }
                    }
                    let _ = writeln!(s, "{:<40} {:>12} {:>12} {:>8}", "", "", "", "========");
                    let title = format!(
                        "{} Index Score{}",
                        b.category.display(),
                        if b.partial { " (Partial Only)" } else { "" }
                    );
                    let _ = writeln!(s, "{:<66} {:>8.1}\n", title, b.score);
                }
            }
            if run.interrupted {
                let _ = writeln!(s, "The run was interrupted: only the tests that finished are reported.");
            }
            s
        }

        pub fn json(run: &Run) -> String {
            let q = |t: &str| {
                format!("\"{}\"", t.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n"))
            };
            let mut runs = Vec::new();
            for cr in &run.runs {
                let mut tests = Vec::new();
                for r in &cr.results {
                    let status = if r.ok() {
                        "ok"
                    } else if r.error.is_some() {
                        "failed"
                    } else {
                        "skipped"
                    };
                    tests.push(format!(
                        "{{\"name\":{},\"message\":{},\"status\":\"{status}\",\"score\":{},\"unit\":{},\"samples\":{},\"error\":{}}}",
                        q(&r.name),
                        q(&r.message),
                        if r.ok() { format!("{}", r.score) } else { "null".into() },
                        q(&r.unit),
                        r.kept.len(),
                        r.error.as_deref().map(q).unwrap_or_else(|| "null".into())
                    ));
                }
                let idx: Vec<String> = cr
                    .index
                    .iter()
                    .map(|b| {
                        format!(
                            "{{\"category\":\"{}\",\"score\":{},\"partial\":{}}}",
                            b.category.key(),
                            b.score,
                            b.partial
                        )
                    })
                    .collect();
                runs.push(format!(
                    "{{\"copies\":{},\"tests\":[{}],\"index\":[{}]}}",
                    cr.copies,
                    tests.join(","),
                    idx.join(",")
                ));
            }
            format!("{{\"interrupted\":{},\"runs\":[{}]}}\n", run.interrupted, runs.join(","))
        }

        pub fn csv(run: &Run) -> String {
            let Some(first) = run.runs.first() else { return String::new() };
            let list = sorted(&first.results);
            let mut s = String::from("Concurrency");
            for r in &list {
                let _ = write!(s, ",{}", r.message);
            }
            s.push('\n');
            for cr in &run.runs {
                let _ = write!(s, "{}", cr.copies);
                for r in sorted(&cr.results) {
                    let _ = write!(s, ",{:.1}", r.score);
                }
                s.push('\n');
            }
            s
        }

        pub fn tsv(run: &Run) -> String {
            let mut s = String::from("copies\ttest\tmessage\tscore\tunit\ttime\tsamples\tbaseline\tindex\n");
            for cr in &run.runs {
                for r in sorted(&cr.results) {
                    let base = crate::baselines::lookup(&r.name).map(|b| b.score);
                    let _ = writeln!(
                        s,
                        "{}\t{}\t{}\t{:.1}\t{}\t{:.1}\t{}\t{}\t{}",
                        cr.copies,
                        r.name,
                        r.message,
                        r.score,
                        r.unit,
                        r.time,
                        r.kept.len(),
                        base.map(|b| format!("{b:.1}")).unwrap_or_else(|| "-".into()),
                        base.map(|b| format!("{:.1}", 10.0 * r.score / b)).unwrap_or_else(|| "-".into())
                    );
                }
            }
            s
        }

        pub fn log_summary(r: &TestResult) -> String {
            let mut s = String::new();
            let mut order: Vec<usize> = r.dumped.iter().chain(r.kept.iter()).copied().collect();
            if order.is_empty() {
                order = (0..r.passes.len()).collect();
            }
            for (n, &i) in order.iter().enumerate() {
                let tag = if n < r.dumped.len() { "*Dump score:" } else { "Count score:" };
                let _ = writeln!(s, "{tag} {:>12.1}", r.passes[i].count);
            }
            if r.copies == 1 {
                s.push_str("\n>>>> Results of 1 copy\n");
            } else {
                let _ = write!(s, "\n>>>> Sum of {} copies\n", r.copies);
            }
            let _ = write!(
                s,
                ">>>> score: {}\n>>>> time: {}\n>>>> iterations: {}\n\n",
                r.score,
                r.time,
                r.kept.len()
            );
            s
        }
    }
}

/// The console: progress as Run prints it, the time-left hint, failures.
pub struct Console {
    verbosity: Verbosity,
    /// Progress goes to stderr (when stdout carries a machine-readable document).
    progress_on_stderr: bool,
    /// Show the time-left hint on stderr (stderr is a terminal).
    hint: bool,
    /// Whether stdout and stderr are the same terminal (the hint then sits at the end of the
    /// progress line; else it has a line of its own on stderr).
    hint_inline: bool,
    hint_shown: bool,
}

impl Console {
    pub fn new(verbosity: Verbosity, format: Format) -> Console {
        let progress_on_stderr = format != Format::Text;
        let tty_err = sys::fd::isatty(2);
        let tty_out = sys::fd::isatty(1);
        Console {
            verbosity,
            progress_on_stderr,
            hint: tty_err && verbosity != Verbosity::Quiet,
            hint_inline: tty_out && tty_err && !progress_on_stderr,
            hint_shown: false,
        }
    }

    fn quiet(&self) -> bool {
        self.verbosity == Verbosity::Quiet
    }

    /// Progress text, where Run prints it (stdout), flushed at once.
    fn progress(&mut self, s: &str) {
        if self.quiet() {
            return;
        }
        self.clear_hint();
        if self.progress_on_stderr {
            let _ = io::stderr().write_all(s.as_bytes());
        } else {
            let mut out = io::stdout().lock();
            let _ = out.write_all(s.as_bytes());
            let _ = out.flush();
        }
    }

    fn clear_hint(&mut self) {
        if self.hint_shown {
            let _ = io::stderr().write_all(if self.hint_inline { b"\x1b[K" } else { b"\r\x1b[K" });
            self.hint_shown = false;
        }
    }

    /// The banner, the directories block and (verbose) the test list.
    pub fn start(&mut self, run: &Run) {
        self.progress(&fmt::banner(run));
        self.progress(&fmt::directories(run));
        if self.verbosity == Verbosity::Verbose {
            self.progress(&format!("\nTests to run: {}\n", run.settings.tests.join(", ")));
        }
    }

    /// Verbose: before each copy count.
    pub fn run_with(&mut self, copies: usize) {
        if self.verbosity == Verbosity::Verbose {
            let what = if copies == 1 { "1 copy".to_string() } else { format!("{copies} copies") };
            self.progress(&format!("Run with {what}\n"));
        }
    }

    pub fn test(&mut self, copies: usize, message: &str) {
        self.progress(&format!("\n{copies} x {message} "));
    }

    /// A pass is about to start; `left` is the estimated time left of the whole run.
    pub fn pass(&mut self, number: usize, left: f64) {
        self.progress(&format!(" {number}"));
        if self.hint && !self.quiet() {
            let text = format!("  (about {} left)", human(left));
            let s = if self.hint_inline {
                format!("\x1b[s{text}\x1b[u")
            } else {
                format!("\r{}\x1b[K", text.trim_start())
            };
            let _ = io::stderr().write_all(s.as_bytes());
            self.hint_shown = true;
        }
    }

    /// Verbose: the command of a pass.
    pub fn command(&mut self, command: &str, copies: usize) {
        if self.verbosity == Verbosity::Verbose {
            self.progress(&format!("\nCOMMAND: \"{command}\"\nCOPIES: \"{copies}\"\n"));
        }
    }

    pub fn test_end(&mut self) {
        self.progress("\n");
    }

    /// Verbose: the statistics of a scored test's kept samples, after its passes.
    pub fn stats(&mut self, r: &TestResult) {
        if self.verbosity == Verbosity::Verbose {
            if let Some(line) = stats_line(r) {
                self.progress(&line);
            }
        }
    }

    pub fn skipped(&mut self, copies: usize, message: &str, reason: &str) {
        self.progress(&format!("\n{copies} x {message}  skipped: {reason}\n"));
    }

    /// A failed test: Run's abort lines on stderr (the word `aborting` kept: wrappers grep it),
    /// though the run goes on.
    pub fn failed(&mut self, message: &str, error: &str) {
        self.clear_hint();
        let _ = io::stdout().flush();
        let _ = write!(io::stderr(), "\n{}\nRun: \"{message}\": {error}; aborting\n", "*".repeat(46));
    }

    /// The final print: the report after a rule of `=` (Run's), or the machine-readable document.
    pub fn finish(&mut self, run: &Run, format: Format) {
        self.clear_hint();
        let doc = match format {
            Format::Text if self.quiet() => fmt::text(run),
            Format::Text => format!("\n{}\n{}", "=".repeat(72), fmt::text(run)),
            Format::Json => fmt::json(run),
            Format::Csv => fmt::csv(run),
            Format::Tsv => fmt::tsv(run),
        };
        let mut out = io::stdout().lock();
        let _ = out.write_all(doc.as_bytes());
        let _ = out.flush();
    }
}

/// `  n 7, min .., median .., max .., geomean .., cv 0.52%, 95% interval lo - hi (-a% / +b%)`.
fn stats_line(r: &TestResult) -> Option<String> {
    let st = crate::stats::of_result(r)?;
    let f1 = crate::report::fmt::f1;
    let cv = st.cv.map_or("---".to_string(), |c| format!("{:.2}%", 100.0 * c));
    Some(format!(
        "  n {}, min {}, median {}, max {}, geomean {}, cv {cv}, 95% interval {}\n",
        st.n,
        f1(st.min),
        f1(st.median),
        f1(st.max),
        f1(st.geomean),
        crate::report::text::interval(st.ci95, st.geomean)
    ))
}

/// `27 min`, `45 s`, `2 h 05 min`.
fn human(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s < 90 {
        format!("{s} s")
    } else if s < 5400 {
        format!("{} min", (s + 30) / 60)
    } else {
        format!("{} h {:02} min", s / 3600, (s % 3600 + 30) / 60)
    }
}

/// The result files of a run.
pub struct Files {
    /// `<dir>/<hostname>-<YYYY-MM-DD>-<NN>` (or `<dir>/$UB_OUTPUT_FILE_NAME`).
    pub base: PathBuf,
    log: File,
    csv: bool,
    /// The first error writing the log, reported at the end.
    log_error: Option<io::Error>,
}

impl Files {
    /// Claims the first free `<host>-<date>-NN` in `dir` (creating the base file, so two runs
    /// never pick the same name) and opens the .log for appending.
    pub fn create(dir: &Path, hostname: &str, date: &str) -> io::Result<Files> {
        let base = match std::env::var_os("UB_OUTPUT_FILE_NAME").filter(|n| !n.is_empty()) {
            Some(name) => {
                let b = dir.join(name);
                File::create(&b)?;
                b
            }
            None => {
                let mut n = 1;
                loop {
                    let b = dir.join(format!("{hostname}-{date}-{n:02}"));
                    match OpenOptions::new().write(true).create_new(true).open(&b) {
                        Ok(_) => break b,
                        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
                        Err(e) => return Err(e),
                    }
                }
            }
        };
        // Never truncated, as Run's: a UB_OUTPUT_FILE_NAME log grows run after run.
        let log = OpenOptions::new().append(true).create(true).mode(0o644).open(with_ext(&base, "log"))?;
        let csv = std::env::var("UB_OUTPUT_CSV").is_ok_and(|v| v == "true");
        Ok(Files { base, log, csv, log_error: None })
    }

    /// Appends to the .log.
    pub fn log(&mut self, s: &str) {
        if let Err(e) = self.log.write_all(s.as_bytes()) {
            self.log_error.get_or_insert(e);
        }
    }

    /// The .log's descriptor, for the programs' stdout.
    pub fn log_fd(&self) -> RawFd {
        self.log.as_raw_fd()
    }

    /// (Re)writes the report, HTML, JSON and, when asked, CSV from the run so far.
    pub fn write_reports(&self, run: &Run) -> io::Result<()> {
        let write = |p: PathBuf, s: String| {
            std::fs::write(&p, s)
                .map_err(|e| io::Error::new(e.kind(), format!("cannot write {}: {e}", p.display())))
        };
        write(self.base.clone(), fmt::text(run))?;
        write(with_ext(&self.base, "html"), fmt::html(run))?;
        write(with_ext(&self.base, "json"), fmt::json(run))?;
        if self.csv {
            write(with_ext(&self.base, "csv"), fmt::csv(run))?;
        }
        Ok(())
    }

    /// The first error writing the log, if any.
    pub fn log_error(&self) -> Option<&io::Error> {
        self.log_error.as_ref()
    }
}

/// `<base>.<ext>` (the base may contain dots: the host name).
pub fn with_ext(base: &Path, ext: &str) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Sinks for the log that may be absent (`--no-save`).
pub fn log(files: &mut Option<Files>, s: &str) {
    if let Some(f) = files {
        f.log(s);
    }
}

#[allow(dead_code)]
fn _uses(_: &TestResult) {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::model::Pass;

    #[test]
    fn verbose_stats_line() {
        // Rates 100, 110, 121: geomean 110, cv 0.0952, interval 110·e^∓0.23676 (src/stats.rs).
        let pass = |count: f64| Pass { count, time: 1.0, timebase: 1.0, ..Pass::default() };
        let r = TestResult {
            passes: vec![pass(100.0), pass(110.0), pass(121.0), pass(50.0)],
            kept: vec![0, 1, 2],
            ..TestResult::default()
        };
        assert_eq!(
            stats_line(&r).unwrap(),
            "  n 3, min 100.0, median 110.0, max 121.0, geomean 110.0, cv 9.52%, 95% interval 86.8 - 139.4 (-21.1% / +26.7%)\n"
        );
        assert!(stats_line(&TestResult::default()).is_none());
    }
}
