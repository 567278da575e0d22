//! The model `compare` reads every file into, whatever its kind: per copy count, each test's
//! score with its 95% interval when the file has one, and each category's index score; with the
//! file's kind, its kind of run and its host. Also what the readers share: which tests time an
//! exec image, and the intervals of a result's two ends and of an index.

use crate::model::{Category, RunKind};
use crate::stats::{self, Interval};
use base::version::Semantics;

/// What kind of file a run came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Our results JSON: intervals known where a test kept 2 samples or more.
    Json,
    /// A classic text report (ours or the C UnixBench's): no intervals.
    Text,
    /// A text report with its `.log`: every pass's samples, so the JSON's figures and intervals.
    TextLog,
}

impl FileKind {
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Json => "unixbench results JSON",
            FileKind::Text => "text report",
            FileKind::TextLog => "text report and its log",
        }
    }
}

/// One file, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The file name as given on the command line.
    pub file: String,
    pub kind: FileKind,
    /// The version the file names (the banner's `Version ...`, or the JSON's `version`).
    pub version: String,
    /// Whether the file says the run was a quick one (the JSON's settings, the text's note).
    pub quick: bool,
    /// Whether it says durations or pass counts were not Run's (`-t`, `-i`), or schema 2's
    /// `kind` says `short`. A static image for execl or spawn makes a run short too: that one
    /// the tests' images say ([`Source::run_kind`]), since a `.log` can tell it.
    pub short: bool,
    /// When the first copy count started: ISO 8601, in UTC (`Z`) from the JSON, in the run
    /// host's local time (no zone) from a text report; `unknown` where the file does not say.
    pub date: String,
    /// Whether its passes ran in rounds, so that its intervals see the host's wander between
    /// them (the JSON's `settings.rounds`, the text's `** Rounds` note).
    pub rounds: bool,
    /// One entry per copy count, in file order.
    pub runs: Vec<CopyRun>,
    /// Who ran it, from the system block (`unknown` where the file does not say).
    pub host: Host,
}

impl Source {
    /// The kind of run, as `Run::kind` decides it for the run that wrote the file.
    pub fn run_kind(&self) -> RunKind {
        let on_static = || self.runs.iter().any(|r| r.tests.iter().any(|t| t.image == Some(Image::Static)));
        if self.quick {
            RunKind::Quick
        } else if self.short {
            RunKind::Short
        } else if on_static() {
            RunKind::StaticImage
        } else {
            RunKind::Standard
        }
    }
}

/// The kinds of run of the files (standard, quick, short, static image), each once, in the order
/// the files first show them.
pub fn kinds(sources: &[Source]) -> Vec<&'static str> {
    each_once(sources, |s| s.run_kind().name())
}

/// What `of` says of each file, each once, in the order the files first say it.
fn each_once(sources: &[Source], of: fn(&Source) -> &'static str) -> Vec<&'static str> {
    let mut all: Vec<&str> = Vec::new();
    for s in sources {
        if !all.contains(&of(s)) {
            all.push(of(s));
        }
    }
    all
}

/// The UnixBench releases whose semantics the files' runs followed (`6.0.0`, `5.1.3`), as
/// their versions name them (a C report's `Version 5.1.3` too), each once, in the order the
/// files first show them.
pub fn semantics(sources: &[Source]) -> Vec<&'static str> {
    each_once(sources, |s| Semantics::of_version(&s.version).release())
}

/// The warning for files of different kinds of run (standard, quick, short) or of different
/// semantics (6.0.0's, 5.1.3's), whose figures are not comparable; None when they are all of
/// one kind and one semantics.
pub fn kinds_warning(sources: &[Source]) -> Option<String> {
    let (kinds, semantics) = (kinds(sources), semantics(sources));
    let mut w = Vec::new();
    if kinds.len() > 1 {
        w.push(format!("comparing runs of different kinds ({})", kinds.join(", ")));
    }
    if semantics.len() > 1 {
        w.push(format!("comparing runs of different semantics (UnixBench {})", semantics.join(", ")));
    }
    (!w.is_empty()).then(|| format!("{}: their figures are not comparable", w.join(" and ")))
}

/// The category of the test whose report line is `message`.
pub(super) fn category_of(message: &str) -> Option<Category> {
    crate::suite::TESTS.iter().find(|t| t.message == message).map(|t| t.category)
}

/// A host's identity, as its system block gives it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Host {
    pub name: String,
    pub machine: String,
    pub os_release: String,
    /// CPUs in the system, as the `N CPUs in system` line counts them.
    pub cpus: Option<usize>,
    /// The model of the first CPU.
    pub cpu: String,
}

/// Everything measured at one copy count.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyRun {
    pub copies: usize,
    pub tests: Vec<TestResult>,
    pub index: Vec<Index>,
}

impl CopyRun {
    /// Whether a test of category `c`'s index was disturbed, which marks the index.
    pub fn index_disturbed(&self, c: Category) -> bool {
        self.tests.iter().any(|t| t.disturbed && category_of(&t.message) == Some(c))
    }
}

/// A TSV cell for a flag: `yes` or `no`, empty where the value is unknown.
pub(super) fn yes_no(flag: Option<bool>) -> &'static str {
    match flag {
        Some(true) => "yes",
        Some(false) => "no",
        None => "",
    }
}

/// One test's result.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    /// The report's row name (the log message): what lines tests up across files.
    pub message: String,
    pub score: f64,
    pub unit: String,
    /// The test's index (10 × score / baseline), when it has a baseline.
    pub index: Option<f64>,
    pub ci: Option<Interval>,
    /// For execl and spawn: whether they timed this static binary or a dynamically linked
    /// program (ours or the C suite's). None where the file does not say.
    pub image: Option<Image>,
    /// Whether the run found it disturbed (the JSON's `disturbed`, the report's
    /// `** disturbed:` line).
    pub disturbed: bool,
}

/// The kind of image an execl or spawn figure was timed on (`crate::exec_image`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Image {
    Static,
    Dynamic,
}

/// Whether `message` is the report name of a test that times an exec image.
pub(super) fn times_an_image(message: &str) -> bool {
    twin::exec_image::PROGRAMS.iter().any(|(_, m)| *m == message)
}

/// One category's index score.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    pub category: Category,
    pub score: f64,
    pub partial: bool,
    /// Propagated from the tests' intervals; None when one of them is unknown.
    pub ci: Option<Interval>,
}

/// The kind of image an `exec_image` kind names (`dynamic-glibc`, ...); a file without one was
/// written before the twins existed, and timed the static image.
pub(super) fn image_of(kind: Option<&str>) -> Image {
    match kind {
        Some(k) if k.starts_with("dynamic") => Image::Dynamic,
        _ => Image::Static,
    }
}

/// An index's interval, from the intervals of the tests it is the geometric mean of: its rows
/// with an index, as (index, message), each with the interval of the test of that message.
pub(super) fn index_ci(score: f64, rows: &[(f64, &str)], tests: &[TestResult]) -> Option<Interval> {
    let by_name = ByName::tests(tests);
    let ci = |msg: &str| by_name.get(msg).and_then(|k| tests[k].ci);
    let parts: Vec<(f64, Option<Interval>)> = rows.iter().map(|&(ix, msg)| (ix, ci(msg))).collect();
    stats::propagate(&parts).map(|c| c.recentred(score))
}

/// Names looked up rather than searched for, so that lining up a file of many tests takes
/// n log n, not n x n: each name with its place in the list it came from, sorted. (Sorting
/// costs the binary less than a HashMap would.)
pub(super) struct ByName<'a>(Vec<(&'a str, usize)>);

impl<'a> ByName<'a> {
    /// A `dyn` iterator: one copy of the sort for every kind of list.
    pub fn new(names: &mut dyn Iterator<Item = &'a str>) -> Self {
        let mut v: Vec<(&str, usize)> = names.enumerate().map(|(k, n)| (n, k)).collect();
        v.sort_unstable();
        ByName(v)
    }

    /// The tests' messages.
    pub fn tests(tests: &'a [TestResult]) -> Self {
        Self::new(&mut tests.iter().map(|t| t.message.as_str()))
    }

    /// Each name once, in order.
    pub fn names(&self) -> Vec<&'a str> {
        let mut v: Vec<&str> = self.0.iter().map(|x| x.0).collect();
        v.dedup();
        v
    }

    /// The place of the first of `name`, if any.
    pub fn get(&self, name: &str) -> Option<usize> {
        self.all(name).next()
    }

    /// The places of every `name`, in order.
    pub fn all<'s>(&'s self, name: &'s str) -> impl Iterator<Item = usize> + 's {
        let at = self.0.partition_point(|(n, _)| *n < name);
        self.0[at..].iter().take_while(move |(n, _)| *n == name).map(|(_, k)| *k)
    }
}
