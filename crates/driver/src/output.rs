//! Where the driver's words go: the console (Run's progress on stdout, our own progress and
//! failures on stderr) and the result files (`<base>`, `.html`, `.log`, `.json`, `.csv`).
//!
//! Every string of a report or log comes from the exporters, pure functions of the model: whole
//! documents through `report::render`, the console's pieces from `report::text` and the log's
//! from `report::log`.
//! Measuring code never formats.

use super::options::{Environment, Format, JsonOut, Verbosity};
use crate::fmt::duration;
use crate::model::{Noise, Run, TestResult};
use crate::sys::{self, dir::Dir};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io::{self, Write};
use std::os::unix::io::{AsRawFd, RawFd};
use std::path::{Path, PathBuf};

/// The console: progress as Run prints it, our own progress on stderr, failures.
pub struct Console {
    /// The name our stderr lines begin with ([`note`]).
    program: &'static str,
    verbosity: Verbosity,
    /// Progress goes to stderr (when stdout carries a machine-readable document).
    progress_on_stderr: bool,
    /// How our progress (which test of how many, which pass, the time left) is shown.
    live: Live,
    /// Run's progress is shown on the terminal of the live line: it is written a whole line at
    /// a time ([`Console::pending`]), so that the live line always has a line of its own.
    shares_terminal: bool,
    /// Run's progress since its last newline, held back while it shares the terminal.
    pending: String,
    /// The live text now on the terminal, redrawn after whatever is written over it.
    status: Option<String>,
    /// Where the run is: tests begun, of how many (set by [`Console::plan`]).
    at: usize,
    of: usize,
    /// The tests begun, in order (copies, message): a second visit shows its test's place.
    begun: Vec<(usize, &'static str)>,
    /// The test shown: its place in the run, its copies, its name, whether a second visit.
    current: Current,
    /// In a run in rounds, the round under way (0 before the first) and the rounds expected.
    round: Option<(usize, Expected)>,
    /// The first error writing to stdout (full, closed, a broken pipe): reported at the end.
    pub stdout_error: Option<io::Error>,
}

/// The rounds a copy count is expected to take: a quick run's estimate, a ceiling said `~7`,
/// or the exact count of the others.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Expected {
    pub rounds: usize,
    pub exact: bool,
}

impl Expected {
    /// `7` or `~7`.
    fn words(self) -> String {
        format!("{}{}", if self.exact { "" } else { "~" }, self.rounds)
    }
}

#[derive(Debug, Clone, Default)]
struct Current {
    place: usize,
    copies: usize,
    message: &'static str,
    again: bool,
}

/// How our progress is shown.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Live {
    /// `-q`: not at all.
    Off,
    /// Stderr is a terminal that moves its cursor: one line, rewritten in place, never wider
    /// than the terminal.
    Line,
    /// No terminal (a file, a pipe, a CI log): a plain line when each test starts and ends,
    /// or, in rounds, the copy count's plan and a line per round.
    Plain,
}

/// The width assumed for a terminal that does not say its own (a serial console's).
const DEFAULT_COLUMNS: usize = 80;

impl Console {
    pub fn new(program: &'static str, verbosity: Verbosity, format: Format) -> Console {
        let progress_on_stderr = format != Format::Text;
        // A terminal that cannot move its cursor gets plain lines, as a pipe does.
        let dumb = dumb_terminal();
        let live = match (verbosity, sys::fd::isatty(2) && !dumb) {
            (Verbosity::Quiet, _) => Live::Off,
            (_, true) => Live::Line,
            (_, false) => Live::Plain,
        };
        // Run's progress on a terminal is taken to be on the live line's.
        let shares_terminal = live == Live::Line && (progress_on_stderr || sys::fd::isatty(1));
        Console {
            program,
            verbosity,
            progress_on_stderr,
            live,
            shares_terminal,
            pending: String::new(),
            status: None,
            at: 0,
            of: 0,
            begun: Vec::new(),
            current: Current::default(),
            round: None,
            stdout_error: None,
        }
    }

    /// The number of tests the run will begin (each test at each copy count), for `[7/24]`.
    pub fn plan(&mut self, tests: usize) {
        self.of = tests;
    }

    fn quiet(&self) -> bool {
        self.verbosity == Verbosity::Quiet
    }

    /// Progress text, where Run prints it (stdout), flushed at once, or, on the live line's
    /// terminal, as each of its lines is whole; the live text is drawn again after it, so that
    /// neither breaks the other.
    fn progress(&mut self, s: &str) {
        if self.quiet() {
            return;
        }
        let whole = if self.shares_terminal {
            self.pending.push_str(s);
            let Some(end) = self.pending.rfind('\n') else { return };
            let rest = self.pending.split_off(end + 1);
            std::mem::replace(&mut self.pending, rest)
        } else {
            s.to_string()
        };
        self.clear_status();
        self.write_progress(whole.as_bytes());
        self.draw_status();
    }

    /// Writes Run's progress to its stream.
    fn write_progress(&mut self, b: &[u8]) {
        if self.progress_on_stderr {
            err(b);
        } else {
            self.out(b);
        }
    }

    /// Writes what Run's progress holds back (a line not yet ended), before the report.
    fn flush_pending(&mut self) {
        if !self.pending.is_empty() {
            let held = std::mem::take(&mut self.pending);
            self.clear_status();
            self.write_progress(held.as_bytes());
        }
    }

    /// Writes to stdout unbuffered (through the descriptor, so that a closed stdout is an error
    /// too, which std's stdout hides), keeping the first error; after one, stdout is given up.
    fn out(&mut self, b: &[u8]) {
        if self.stdout_error.is_none() {
            if let Err(e) = crate::error::write_console(1, b) {
                self.stdout_error = Some(e);
            }
        }
    }

    /// Erases the live line from the terminal (it stays in `status`, to be drawn again).
    fn clear_status(&mut self) {
        if self.live == Live::Line && self.status.is_some() {
            err(b"\r\x1b[K");
        }
    }

    fn draw_status(&mut self) {
        let Some(text) = &self.status else { return };
        if self.live != Live::Line {
            return;
        }
        // One column short of the width: a line that wraps cannot be rewritten in place, and
        // some terminals wrap on the last column.
        let width = sys::fd::columns(2).unwrap_or(DEFAULT_COLUMNS).saturating_sub(1);
        let s = format!("\r{}\x1b[K", fit(text, width));
        err(s.as_bytes());
    }

    /// Shows `text` as the live progress (terminal), or says it in a line of its own (no
    /// terminal, where `plain` is true: only as a test starts and ends).
    fn show(&mut self, text: String, plain: bool) {
        match self.live {
            Live::Off => {}
            Live::Plain if plain => {
                err(format!("{text}\n").as_bytes());
            }
            Live::Plain => {}
            // Drawn over the last: a carriage return, then erased to the end of the line.
            Live::Line => {
                self.status = Some(text);
                self.draw_status();
            }
        }
    }

    /// One line of our own on stderr (`unixbench: ...`), the live line erased before it and
    /// drawn again after it.
    pub fn note(&mut self, msg: &str) {
        self.clear_status();
        note(self.program, msg);
        self.draw_status();
    }

    /// `[7/24] Pipe Throughput, 2 copies` (`, again` on a second visit): the test shown, where
    /// it stands in the run.
    fn where_(&self) -> String {
        let c = &self.current;
        let again = if c.again { ", again" } else { "" };
        format!("[{}/{}] {}, {}{again}", c.place, self.of.max(self.at), c.message, copies_word(c.copies))
    }

    /// `<where_>: <what>, <left> left`: the live text of the test shown, `left` being the
    /// estimated time left of the whole run.
    fn live(&self, what: &str, left: f64) -> String {
        format!("{}: {what}, {} left", self.where_(), duration(left))
    }

    /// The place in the run of the test begun last at `copies` copies named `message` (the
    /// one shown again), else the last test's.
    fn place_of(&self, copies: usize, message: &str) -> usize {
        self.begun.iter().rposition(|&(c, m)| c == copies && m == message).map_or(self.at, |i| i + 1)
    }

    /// The banner, the directories block and (verbose) the test list.
    pub fn start(&mut self, run: &Run) {
        let release = base::version::Semantics::of_version(&run.version).release();
        self.progress(&report::text::logo(base::version::NUMBER, release));
        // The run model records no results directory for a run that saves nothing (--no-save).
        let results = match run.settings.resultdir.as_str() {
            "" => "not saved (--no-save)",
            dir => dir,
        };
        self.progress(&report::text::directories(&run.settings.tmpdir, results));
        if self.verbosity == Verbosity::Verbose {
            self.progress(&format!("\nTests to run: {}\n", run.settings.tests.join(", ")));
        }
    }

    /// Before the standard index begins on a terminal (the better part of an hour): how long
    /// it will take, and the ways out.
    pub fn forewarn(&mut self, estimate: f64, quick: f64) {
        if self.live == Live::Line {
            self.note(&format!(
                "the standard index takes about {}; Ctrl-C stops it and keeps a report of the \
                 tests done; --quick estimates it in about {}",
                duration(estimate),
                duration(quick)
            ));
        }
    }

    /// Verbose: before each copy count.
    pub fn run_with(&mut self, copies: usize) {
        if self.verbosity == Verbosity::Verbose {
            self.progress(&format!("Run with {}\n", copies_word(copies)));
        }
    }

    /// A test begins; `left` is the estimated time left of the whole run.
    pub fn test(&mut self, copies: usize, message: &'static str, left: f64) {
        self.begin(copies, message);
        // Said before Run's line begins, so that a log holding both streams keeps it whole.
        self.show(self.live("starts", left), true);
        self.progress(&report::text::progress_test(copies, message));
    }

    /// A test is measured again after the others at its copy count (a quick run's second
    /// visit), shown at its place in the run; `left` is the estimated time left of the whole
    /// run.
    pub fn again(&mut self, copies: usize, message: &'static str, left: f64) {
        self.current = Current { place: self.place_of(copies, message), copies, message, again: true };
        self.show(self.live("measured again", left), true);
        self.progress(&report::text::progress_again(copies, message));
    }

    /// The rounds of a copy count are about to begin: `tests` tests at `copies` copies in `of`
    /// rounds, in a quick run's `budget` (else with `left` seconds of the run left). Said in a
    /// line of its own without a terminal.
    pub fn rounds_plan(&mut self, tests: usize, copies: usize, of: Expected, budget: Option<f64>, left: f64) {
        self.round = Some((0, of));
        let (before, secs, after) = match budget {
            Some(b) => ("budget ", b, ""),
            None => ("", left, " left"),
        };
        let tests = crate::fmt::number(Some(tests), "test", "tests");
        let at = copies_word(copies);
        let text = format!("{tests} at {at} in {} rounds, {before}{}{after}", of.words(), duration(secs));
        self.show(text, true);
    }

    /// Round `round` begins, of the rounds now expected.
    pub fn round_begins(&mut self, round: usize, of: Expected) {
        self.round = Some((round, of));
    }

    /// A pass of the round under way is about to start: `[round 4 of ~7] fsdisk (File Copy
    /// 4096 bufsize 8000 maxblocks), 1 copy, 3 min left`, the test by its catalogue `name`
    /// and its message; `left` is the estimated time left of the whole run.
    pub fn round(&mut self, name: &str, copies: usize, message: &str, left: f64) {
        let Some((round, of)) = self.round else { return };
        let text = format!(
            "[round {round} of {}] {name} ({message}), {}, {} left",
            of.words(),
            copies_word(copies),
            duration(left)
        );
        self.show(text, false);
    }

    /// Round `round` is over, `of` the rounds now expected (exact once it was the last): `round
    /// 3 of ~7: 24 passes, 2 disturbed, 3 min left`, the passes it ran, how many of them were
    /// disturbed, and the estimated time left of the whole run. Said in a line of its own
    /// without a terminal.
    pub fn round_end(&mut self, round: usize, of: Expected, passes: (usize, usize), left: f64) {
        self.round = Some((round, of));
        let text = format!(
            "round {round} of {}: {}, {} disturbed, {} left",
            of.words(),
            crate::fmt::number(Some(passes.0), "pass", "passes"),
            passes.1,
            duration(left)
        );
        self.show(text, true);
    }

    /// A quick run's second visits begin, `tests` tests due (a visit whose part of the seconds
    /// held back would not pay for a pass is not made); `left` is the estimated time left of the
    /// whole run.
    pub fn again_begins(&mut self, tests: usize, left: f64) {
        let tests = crate::fmt::number(Some(tests), "test", "tests");
        self.show(format!("measuring up to {tests} again, {} left", duration(left)), true);
    }

    /// Counts a test begun (run, failed to start, or skipped).
    pub fn begin(&mut self, copies: usize, message: &'static str) {
        self.at += 1;
        self.begun.push((copies, message));
        self.current = Current { place: self.at, copies, message, again: false };
    }

    /// Pass `number` of `of` (of at most `of`, where the test may stop sooner) is about to
    /// start; `left` is the estimated time left of the whole run.
    pub fn pass(&mut self, number: usize, of: usize, at_most: bool, left: f64) {
        let text = self.pass_text(number, of, at_most, left);
        self.show(text, false);
        self.progress(&report::text::progress_pass(number));
    }

    /// `[7/24] Pipe Throughput, 2 copies: pass 3 of 10, 12 min left`.
    fn pass_text(&self, number: usize, of: usize, at_most: bool, left: f64) -> String {
        let at_most = if at_most { "at most " } else { "" };
        self.live(&format!("pass {number} of {at_most}{of}"), left)
    }
    /// Verbose: the command of a pass.
    pub fn command(&mut self, command: &str, copies: usize) {
        if self.verbosity == Verbosity::Verbose {
            self.progress(&format!("\nCOMMAND: \"{command}\"\nCOPIES: \"{copies}\"\n"));
        }
    }

    /// The test begun last has ended; `left` is the estimated time left of the whole run. In
    /// rounds every test ends at once, after the last round, whose line stays.
    pub fn test_end(&mut self, left: f64) {
        self.progress(report::text::PROGRESS_END);
        if self.round.is_none() {
            self.show(self.live("done", left), true);
        }
    }

    /// Verbose: what else the host did during the pass just run.
    pub fn noise(&mut self, n: Option<&Noise>) {
        if self.verbosity == Verbosity::Verbose {
            let line = n.map_or("  noise: not measured (no /proc)".into(), report::view::noise_line);
            self.progress(&format!("{line}\n"));
        }
    }

    /// Verbose: the statistics of a scored test's kept passes, after its passes (in a run with
    /// rounds, once they are done: `stats::of_result`).
    pub fn stats(&mut self, r: &TestResult) {
        if self.verbosity == Verbosity::Verbose {
            if let Some(line) = stats_line(r) {
                self.progress(&line);
            }
        }
    }

    /// A signal stopped the test begun last: its line ends, and the live text goes.
    pub fn test_stopped(&mut self) {
        self.progress(report::text::PROGRESS_END);
        self.clear_status();
        self.status = None;
    }

    pub fn skipped(&mut self, copies: usize, message: &'static str, reason: &str) {
        self.begin(copies, message);
        self.progress(&format!("\n{copies} x {message}  skipped: {reason}\n"));
        let text = format!("{}: skipped", self.where_());
        self.show(text, true);
    }

    /// A test found it cannot run after it started (a graphics test with no display): ends its
    /// progress line with the reason.
    pub fn skipped_now(&mut self, reason: &str) {
        self.progress(&format!("  skipped: {reason}\n"));
    }

    /// A test run in rounds, once its rounds are over: Run's line for it, `1 x Pipe Throughput
    /// 1 2 3`, with the number of every pass it ran, or its reason for being skipped (a run's
    /// stdout holds each test's line, as C's does, never a blank one in its stead). Its end is
    /// `test_end`'s, but for a skipped test.
    pub fn rounds_line(&mut self, copies: usize, message: &str, passes: usize, skipped: Option<&str>) {
        let mut line = report::text::progress_test(copies, message);
        match skipped {
            Some(why) => line += &format!(" skipped: {why}\n"),
            None => line.extend((1..=passes).map(report::text::progress_pass)),
        }
        self.progress(&line);
    }

    /// A failed test: Run's abort lines on stderr (the word `aborting` kept: wrappers grep it),
    /// though the run goes on.
    pub fn failed(&mut self, message: &str, error: &str) {
        self.clear_status();
        err(format!("\n{ABORT_RULE}\nRun: \"{message}\": {error}; aborting\n").as_bytes());
    }

    /// The final print: the report after a rule of `=` (Run's), or the machine-readable
    /// document, ending stdout as C's report ends it (a pipe's `tail` takes the score); then
    /// the run summed up on stderr, the busy host's line when it disturbed a test, `saved`
    /// saying where the files went.
    pub fn finish(&mut self, run: &Run, format: Format, saved: &str) {
        self.flush_pending();
        self.clear_status();
        self.status = None;
        let mut doc = if format == Format::Text && sys::fd::isatty(1) {
            person_report(run)
        } else {
            report::render(format, run)
        };
        if format == Format::Text && !self.quiet() {
            doc = report::text::console_rule() + &doc;
        }
        self.out(doc.as_bytes());
        note(self.program, &report::view::summary(run));
        if let Some(busy) = report::view::busy_line(run) {
            note(self.program, &busy);
        }
        note(self.program, saved);
    }
}

/// A terminal that cannot move its cursor nor show bold: TERM=dumb, or none named (a serial
/// console, an editor's shell buffer).
fn dumb_terminal() -> bool {
    std::env::var_os("TERM").map_or(true, |t| t.is_empty() || t == "dumb")
}

/// The report as a person reads it on the terminal stdout is (the file keeps the classic
/// one): its notes within the terminal's width, the index in bold unless `NO_COLOR` is set
/// (no-color.org) or the terminal cannot show it.
fn person_report(run: &Run) -> String {
    let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
    let dumb = dumb_terminal();
    let width = sys::fd::columns(1).unwrap_or(DEFAULT_COLUMNS).clamp(40, 100);
    report::text::for_person(run, crate::fmt::local, width, !set("NO_COLOR") && !dumb)
}

/// `  kept passes 7, min .., median .., max .., geomean .., cv 0.52%, 95% interval lo - hi
/// (-a% / +b%)`.
fn stats_line(r: &TestResult) -> Option<String> {
    let st = crate::stats::of_result(r)?;
    let f1 = crate::fmt::f1;
    let cv = st.cv.map_or("---".to_string(), |c| format!("{:.2}%", 100.0 * c));
    Some(format!(
        "  kept passes {}, min {}, median {}, max {}, geomean {}, cv {cv}, 95% interval {}\n",
        st.n,
        f1(st.min),
        f1(st.median),
        f1(st.max),
        f1(st.geomean),
        report::view::interval(st.ci95, st.geomean)
    ))
}

/// The rule above Run's abort lines: 46 stars.
const ABORT_RULE: &str = "**********************************************";

/// `1 copy`, `N copies`.
fn copies_word(n: usize) -> String {
    crate::fmt::number(Some(n), "copy", "copies")
}

/// `text` within `width` characters, its end (from its last `, `: the time left) kept. The
/// test's name (after the place's `] `, up to the first `, `) is shortened first, its head kept
/// and `...` ending it; a message in parentheses in it (a round's) goes before the rest, left out
/// where fewer than [`MIN_NAME`] characters of it would stay. What still runs over is cut just
/// before the end. (The live texts are ASCII: tests' names and numbers.)
fn fit(text: &str, width: usize) -> String {
    let mut s = text.to_string();
    if s.len() > width && s.is_ascii() {
        let at = s.find("] ").map_or(0, |i| i + 2);
        let mut end = s[at..].find(", ").map_or(s.len(), |i| at + i);
        if let Some(open) = s[at..end].find(" (").filter(|_| s[..end].ends_with(')')) {
            let open = at + open;
            if end - open - 3 >= s.len() - width + 3 + MIN_NAME {
                shorten(&mut s, open + 2..end - 1, width);
                return s;
            }
            s.replace_range(open..end, "");
            end = open;
        }
        shorten(&mut s, at..end, width);
        let over = s.len().saturating_sub(width);
        if over > 0 {
            let tail = s.rfind(", ").unwrap_or(s.len());
            s.replace_range(tail - (over + 3).min(tail)..tail, "...");
        }
    }
    while s.len() > width {
        s.pop();
    }
    s
}

/// The text at `span` in `s` shortened by what `s` runs over `width` (to `...` at most), its
/// head kept, blanks trimmed, and `...` ending it.
fn shorten(s: &mut String, span: std::ops::Range<usize>, width: usize) {
    let over = s.len().saturating_sub(width);
    if over > 0 && span.len() > 3 {
        let kept = (span.end - span.start).saturating_sub(over + 3);
        let kept = s[span.start..span.start + kept].trim_end().len();
        s.replace_range(span.start + kept..span.end, "...");
    }
}

/// The fewest characters of a test's name the live line keeps when it shortens it.
const MIN_NAME: usize = 8;

/// The result files of a run.
pub struct Files {
    /// `<dir>/<hostname>-<YYYY-MM-DD>-<NN>` (or `<dir>/$UB_OUTPUT_FILE_NAME`).
    pub base: PathBuf,
    /// The results directory, held by descriptor from the set's creation to its last write:
    /// every file of the set is made and replaced relative to it, never through its path.
    dir: Dir,
    log: File,
    csv: bool,
    /// Where the JSON goes, when asked for (`--json`, `UB_OUTPUT_JSON=true`).
    pub json: Option<PathBuf>,
    /// The first error writing the log, reported at the end.
    log_error: Option<io::Error>,
}

/// The extensions of the files beside the report: the result set is the report and these.
const EXTS: [&str; 4] = ["html", "log", "json", "csv"];

/// Creates `path` for writing, failing if anything (a file, a planted symbolic link, a FIFO) is
/// there, and never blocking (`sys::fd::open_file`).
fn create_new(path: &Path) -> io::Result<File> {
    sys::fd::open_file(path, sys::fd::Open::Create(0o644))
}

/// What a result set is to hold.
struct Set<'a> {
    json: Option<&'a JsonOut>,
    csv: bool,
}

impl Set<'_> {
    /// The paths of the set named `base`: the report first, then [`EXTS`]' files it holds.
    fn paths(&self, base: &Path) -> Vec<PathBuf> {
        let beside = matches!(self.json, Some(JsonOut::Beside));
        let mut v = vec![base.to_path_buf()];
        for e in EXTS {
            if (self.csv || e != "csv") && (beside || e != "json") {
                v.push(with_ext(base, e));
            }
        }
        v
    }

    /// Where the JSON goes for the set named `base`.
    fn json_at(&self, base: &Path) -> Option<PathBuf> {
        match self.json {
            Some(JsonOut::Beside) => Some(with_ext(base, "json")),
            Some(JsonOut::File(p)) => Some(p.clone()),
            None => None,
        }
    }
}

impl Files {
    /// Claims the first `<host>-<date>-NN` in `dir` whose whole result set (the report, .html,
    /// .log and, when asked, .json and .csv) is free, creating each file `O_EXCL|O_NOFOLLOW`, so
    /// two runs never pick the same name and no planted link is followed; opens the .log. The
    /// set is what Run writes: a `.json` only when `json` asks for one.
    /// `env` says whether a .csv is written and the base name, if one is set. An error names
    /// the path that failed.
    pub fn create(
        dir: &Path,
        hostname: &str,
        date: &str,
        json: Option<&JsonOut>,
        env: &Environment,
    ) -> io::Result<Files> {
        let set = Set { json, csv: env.csv };
        let held = Dir::open(dir)?;
        match &env.file_name {
            Some(name) => Files::fixed(held, dir.join(name), &set),
            None => Files::numbered(held, hostname, date, &set),
        }
    }

    /// The set of `UB_OUTPUT_FILE_NAME`: its log never truncated, as Run's (it grows run after
    /// run), and held locked for the run, so that a second run given the same name at the same
    /// time refuses rather than interleaving its log and replacing this run's report.
    fn fixed(dir: Dir, base: PathBuf, set: &Set) -> io::Result<Files> {
        // The report and its companions are replaced by rename (a planted link goes, its target
        // stays); what rename would replace but must not (a FIFO, a directory) is refused now.
        for p in set.paths(&base).iter().chain(set.json_at(&base).iter()) {
            replaceable(p)?;
        }
        let log_path = with_ext(&base, "log");
        let log = dir
            .append(name_of(&log_path))
            .map_err(|e| io::Error::new(e.kind(), format!("cannot open {e}")))?;
        sys::fd::lock_exclusive(&log).map_err(|e| match e.kind() {
            io::ErrorKind::WouldBlock => io::Error::other(format!(
                "{} is in use by another run given the same UB_OUTPUT_FILE_NAME: one run at a time",
                log_path.display()
            )),
            _ => io::Error::new(e.kind(), format!("cannot lock {}: {e}", log_path.display())),
        })?;
        let json = set.json_at(&base);
        Ok(Files { base, dir, log, csv: set.csv, json, log_error: None })
    }

    /// The first free numbered set in `dir`.
    fn numbered(dir: Dir, hostname: &str, date: &str, set: &Set) -> io::Result<Files> {
        for n in 1..=9999 {
            let base = dir.path().join(format!("{hostname}-{date}-{n:02}"));
            if let Some(log) = claim(&dir, &set.paths(&base))? {
                let json = set.json_at(&base);
                return Ok(Files { base, dir, log, csv: set.csv, json, log_error: None });
            }
        }
        Err(io::Error::other(format!(
            "every run number from 01 to 9999 is taken in {}",
            dir.path().display()
        )))
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

    /// (Re)writes the report, HTML and, when asked, JSON and CSV from the run so far, each whole
    /// or not at all ([`write_atomic`]); returns one message per file that could not be written.
    pub fn write_reports(&self, run: &Run) -> Vec<String> {
        let mut lost = Vec::new();
        if !self.dir.still_at_its_path() {
            lost.push(format!(
                "the results directory {} is no longer the one this run made its files in (renamed \
                 or replaced): they are written into that one still, never through what is there now",
                self.dir.path().display()
            ));
        }
        let mut write = |p: PathBuf, s: String| {
            // The set's own files are replaced in the held directory; a --json FILE elsewhere
            // by its path, as the user named it.
            let in_set = p.parent() == Some(self.dir.path());
            let done = if in_set {
                write_atomic_in(&self.dir, name_of(&p), s.as_bytes())
            } else {
                write_atomic(&p, s.as_bytes())
            };
            if let Err(e) = done {
                lost.push(format!("cannot write {}: {e}", p.display()));
            }
        };
        write(self.base.clone(), report::render(Format::Text, run));
        write(with_ext(&self.base, "html"), report::render(Format::Html, run));
        if let Some(p) = &self.json {
            write(p.clone(), report::render(Format::Json, run));
        }
        if self.csv {
            write(with_ext(&self.base, "csv"), report::render(Format::Csv, run));
        }
        lost
    }

    /// Whether the set holds a `.csv` (UB_OUTPUT_CSV=true).
    pub fn csv_written(&self) -> bool {
        self.csv
    }

    /// The first error writing the log, if any.
    pub fn log_error(&self) -> Option<&io::Error> {
        self.log_error.as_ref()
    }
}

/// Writes `path` whole or not at all: into a new `.<name>.tmp<pid>-<k>` beside it (created
/// `O_EXCL|O_NOFOLLOW`), then renamed over it. A crash, a full disk or a planted link leaves the
/// previous version (or nothing) at `path`, never a half-written file; rename replaces a
/// planted link itself, never its target.
pub fn write_atomic(path: &Path, data: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let pid = sys::proc::getpid();
    for k in 0..100 {
        let tmp = dir.join(format!(".{name}.tmp{pid}-{k}"));
        let mut f = match create_new(&tmp) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            other => other?,
        };
        let done = f.write_all(data).and_then(|()| std::fs::rename(&tmp, path));
        if done.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        return done;
    }
    Err(io::Error::other("no free temporary name"))
}

/// [`write_atomic`] of the file `name` in the held directory `dir`: the temporary file made
/// and renamed relative to it.
fn write_atomic_in(dir: &Dir, name: &OsStr, data: &[u8]) -> io::Result<()> {
    let pid = sys::proc::getpid();
    for k in 0..100 {
        let mut tmp = OsString::from(".");
        tmp.push(name);
        tmp.push(format!(".tmp{pid}-{k}"));
        let mut f = match dir.create(&tmp, 0o644) {
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            other => other?,
        };
        let done = f.write_all(data).and_then(|()| dir.rename(&tmp, name));
        if done.is_err() {
            let _ = dir.unlink(&tmp);
        }
        return done;
    }
    Err(io::Error::other("no free temporary name"))
}

/// The last component of a path of the set.
fn name_of(p: &Path) -> &OsStr {
    p.file_name().unwrap_or_default()
}

/// `<base>.<ext>` (the base may contain dots: the host name).
pub fn with_ext(base: &Path, ext: &str) -> PathBuf {
    let mut s = base.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Creates every file of a set (the report, then [`EXTS`]' order, so `[2]` is the .log) and
/// returns its .log; None when a name is taken (what was made goes again); an error naming the
/// path that could not be created.
fn claim(dir: &Dir, names: &[PathBuf]) -> io::Result<Option<File>> {
    let mut log = None;
    for (i, p) in names.iter().enumerate() {
        match dir.create(name_of(p), 0o644) {
            Ok(f) if i == 2 => log = Some(f),
            Ok(_) => {}
            Err(e) => {
                names[..i].iter().for_each(|p| drop(dir.unlink(name_of(p))));
                if e.kind() == io::ErrorKind::AlreadyExists {
                    return Ok(None);
                }
                return Err(io::Error::new(e.kind(), format!("cannot create {e}")));
            }
        }
    }
    Ok(log)
}

/// Whether `path` may be replaced by a rename: absent, a regular file or a link (the link
/// replaced, never followed); anything else is an error naming it.
pub fn replaceable(path: &Path) -> io::Result<()> {
    let ft = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io::Error::new(e.kind(), format!("cannot inspect {}: {e}", path.display()))),
        Ok(m) => m.file_type(),
    };
    if ft.is_file() || ft.is_symlink() {
        return Ok(());
    }
    let what = if ft.is_dir() { "a directory" } else { "a FIFO, device or socket" };
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} is {what}, not a file the run may replace", path.display()),
    ))
}

/// Sinks for the log that may be absent (`--no-save`).
pub fn log(files: &mut Option<Files>, s: &str) {
    if let Some(f) = files {
        f.log(s);
    }
}

/// One line on stderr, `<program>: <msg>` (`unixbench`, or `Run` through its link, as the
/// dispatcher prefixes its errors); a stderr that cannot be written is no reason to stop.
pub fn note(program: &str, msg: &str) {
    err(format!("{program}: {}\n", crate::args::escaped(msg)).as_bytes());
}

/// Our words on stderr, which never hold up a stop (`error::write_console`); a stderr that
/// cannot be written is no reason to stop.
fn err(b: &[u8]) {
    let _ = crate::error::write_console(2, b);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pass;

    #[test]
    fn the_live_text_names_the_test_the_pass_and_the_time_left() {
        let mut c = Console { live: Live::Line, ..Console::new("unixbench", Verbosity::Quiet, Format::Json) };
        c.plan(24);
        for _ in 0..6 {
            c.begin(1, "Other");
        }
        c.begin(2, "Pipe Throughput");
        assert_eq!(
            c.pass_text(3, 10, false, 700.0),
            "[7/24] Pipe Throughput, 2 copies: pass 3 of 10, 12 min left"
        );
        // A quick test may stop sooner.
        assert_eq!(
            c.pass_text(1, 10, true, 45.0),
            "[7/24] Pipe Throughput, 2 copies: pass 1 of at most 10, 45 s left"
        );
        c.begin(1, "Execl Throughput");
        assert_eq!(c.where_(), "[8/24] Execl Throughput, 1 copy");
        // A second visit shows its test's place, not the last test's.
        c.again(2, "Pipe Throughput", 30.0);
        assert_eq!(
            c.pass_text(4, 6, true, 30.0),
            "[7/24] Pipe Throughput, 2 copies, again: pass 4 of at most 6, 30 s left"
        );
    }

    #[test]
    fn the_live_text_fits_the_width_shortening_the_name_first_and_keeping_the_time_left() {
        let name = "Dhrystone 2 using register variables";
        let text = format!("[13/24] {name}, 1 copy, again: pass 4 of at most 6, 2 min left");
        assert_eq!(fit(&text, 200), text);
        let cut = fit(&text, 79);
        assert!(cut.len() <= 79 && cut.len() > 75, "{cut}");
        assert!(cut.starts_with("[13/24] Dhrystone 2 using") && cut.ends_with(", 2 min left"), "{cut}");
        assert!(cut.contains("..."), "{cut}");
        // 50 columns: the name shortened, then, where that is not enough, what comes before
        // the time left.
        let standard = format!("[13/24] {name}, 1 copy: pass 4 of 10, 2 min left");
        assert_eq!(fit(&standard, 49), "[13/24] Dhry..., 1 copy: pass 4 of 10, 2 min left");
        for width in [49, 20] {
            let cut = fit(&text, width);
            assert!(cut.len() == width && cut.ends_with(", 2 min left"), "{width}: {cut}");
        }
        assert_eq!(fit(&text, 5).len(), 5, "narrower than the time left itself: cut at the width");
    }

    #[test]
    fn a_round_s_live_text_says_the_rounds_expected_and_its_line_what_the_round_ran() {
        let mut c = Console { live: Live::Line, ..Console::new("unixbench", Verbosity::Quiet, Format::Json) };
        let about = |rounds| Expected { rounds, exact: false };
        c.rounds_plan(24, 1, about(7), Some(300.0), 900.0);
        assert_eq!(c.status.as_deref(), Some("24 tests at 1 copy in ~7 rounds, budget 5 min"));
        c.round_begins(4, about(7));
        let message = "File Copy 4096 bufsize 8000 maxblocks";
        c.round("fsdisk", 1, message, 180.0);
        let text = c.status.clone().unwrap();
        assert_eq!(text, format!("[round 4 of ~7] fsdisk ({message}), 1 copy, 3 min left"));
        // Narrower: the message shortened, then left out; the catalogue's name, the copies and
        // the time left stay.
        assert_eq!(
            fit(&text, 79),
            "[round 4 of ~7] fsdisk (File Copy 4096 bufsize 8000 max...), 1 copy, 3 min left"
        );
        assert_eq!(fit(&text, 62), "[round 4 of ~7] fsdisk (File Copy 4096...), 1 copy, 3 min left");
        assert_eq!(fit(&text, 49), "[round 4 of ~7] fsdisk, 1 copy, 3 min left");
        let long =
            "[round 12 of ~40] fsbuffer-w (File Write 256 bufsize 500 maxblocks), 16 copies, 12 min left";
        assert_eq!(fit(long, 49), "[round 12 of ~40] fsbu..., 16 copies, 12 min left");
        // The last round's line says it was the last; a test's end in rounds shows nothing.
        c.round_end(4, Expected { rounds: 4, exact: true }, (24, 2), 170.0);
        let line = "round 4 of 4: 24 passes, 2 disturbed, 3 min left";
        assert_eq!(c.status.as_deref(), Some(line));
        c.test_end(100.0);
        assert_eq!(c.status.as_deref(), Some(line));
        // A run in rounds that is not quick knows its rounds, and has no budget.
        c.rounds_plan(3, 2, Expected { rounds: 10, exact: true }, None, 400.0);
        assert_eq!(c.status.as_deref(), Some("3 tests at 2 copies in 10 rounds, 7 min left"));
    }

    #[test]
    fn verbose_stats_line() {
        // Rates 100, 110, 121 kept, 50 dropped: geomean 110, cv 0.0952, the trimmed mean's
        // interval (50 winsorized to 100; src/stats.rs).
        let pass = |count: f64| Pass { count, time: 1.0, timebase: 1.0, ..Pass::default() };
        let r = TestResult {
            passes: vec![pass(100.0), pass(110.0), pass(121.0), pass(50.0)],
            kept: vec![0, 1, 2],
            ..TestResult::default()
        };
        assert_eq!(
            stats_line(&r).unwrap(),
            "  kept passes 3, min 100.0, median 110.0, max 121.0, geomean 110.0, cv 9.52%, 95% interval 81.8 - 148.0 (-25.7% / +34.5%)\n"
        );
        assert!(stats_line(&TestResult::default()).is_none());
    }
}
