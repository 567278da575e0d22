//! The tests as UnixBench's `Run` knows them (docs/ORIGINAL.md, "Tests" and "Groups"): name,
//! program and arguments, log message (the report's row name), category, repeat class, and the
//! named groups.
//!
//! A test runs one of three ways: a kernel of this binary with fixed arguments (dhry2reg, pipe,
//! fstime, ...), a host tool under `looper` whose command line and data come from the work
//! directory (shell1/8/16, C, dc, grep), or a graphics applet that only exists when the binary
//! was built with the `graphics` feature. Durations are data here so that `-t` can override them.

use crate::model::Category;

/// How many passes a test gets by default: 10 for long tests, 3 for short ones
/// (docs/ORIGINAL.md, "Passes and score").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repeat {
    Long,
    Short,
}

/// One word of a kernel's command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// A fixed word.
    Lit(&'static str),
    /// The test's duration in seconds: this default unless `-t` overrides it.
    Secs(u32),
    /// The directory for the file tests' scratch files: the copy's working directory (the
    /// work directory, or the copy's own in it), so the word is `.`.
    TmpDir,
    /// A short or quick run only: the test's duration, for a program whose standard command line
    /// has none (whetstone-double: Run passes nothing, and the program then aims at the C
    /// program's 10 s, this standard duration). A standard run passes no word for it.
    ShortSecs(u32),
    /// A short or quick run only: fstime's `-s SETTLE`, shortening the settles and priming
    /// phases inside the program. A standard run passes no word for it.
    ShortSettle,
}

/// How a test is started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An applet of this binary, `prog args...`.
    Kernel { prog: &'static str, args: &'static [Arg] },
    /// A host program run for `secs` seconds (by `looper`, or `syscall` for sysexec); the command
    /// line comes from the driver's `host` module, and the test is skipped when the program is missing.
    Host { secs: u32 },
    /// A graphics applet, present only in a binary built with the `graphics` feature.
    Graphics { prog: &'static str, args: &'static [Arg] },
}

/// One test of the catalogue.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Test {
    /// The name on the command line and in baselines.txt, e.g. `dhry2reg`.
    pub name: &'static str,
    /// The log message: the report's row name, byte for byte as UnixBench prints it.
    pub message: &'static str,
    pub category: Category,
    pub repeat: Repeat,
    pub kind: Kind,
    /// Wall seconds one pass takes beyond its duration (fstime's priming phases, whetstone's
    /// calibration, x11perf's repetitions): only for the time-left estimate.
    pub overhead: u32,
    /// The fewest seconds a quick pass lasts (`quick::pass_seconds`): 1, or more for a test
    /// whose figure a pass as short as a twentieth of its standard one biases.
    pub quick_min: u32,
}

/// The tests whose copies keep their CPUs busy by themselves (one process each, never waiting):
/// a pass of theirs whose copies got far less CPU than its wall time while CPUs sat idle was
/// stopped (`model::TestResult::busy`). Not context1, spawn or the file and host tests, whose
/// processes wait on each other or the disk.
pub const BUSY: &[&str] = &[
    "dhry2reg",
    "whetstone-double",
    "syscall",
    "pipe",
    "execl",
    "arithoh",
    "short",
    "int",
    "long",
    "float",
    "double",
    "hanoi",
];

/// fstime's settle pauses and priming phases, in seconds: the C program's, the default of its
/// `-s` (ours), which short and quick runs pass shorter (`Arg::ShortSettle`).
pub const FSTIME_SETTLE: f64 = 2.0;

/// Run's settle before each pass: `sync; sleep 1; sync; sleep 2` (seconds of each sleep).
pub const RUN_SETTLE: [f64; 2] = [1.0, 2.0];

impl Test {
    /// The nominal duration of one pass in seconds, `duration` overriding the default.
    pub fn nominal_secs(&self, duration: Option<u32>) -> u32 {
        let own = match self.kind {
            Kind::Host { secs } => Some(secs),
            Kind::Kernel { args, .. } | Kind::Graphics { args, .. } => args.iter().find_map(|a| match a {
                Arg::Secs(s) | Arg::ShortSecs(s) => Some(*s),
                _ => None,
            }),
        };
        match own {
            Some(s) => duration.unwrap_or(s) + self.overhead,
            // No duration argument (whetstone-double, the 2D tests): -t does not change it.
            None => self.overhead,
        }
    }
}

use Arg::{Lit, Secs, ShortSecs, ShortSettle, TmpDir};
use Category::{Misc, System, ThreeD, TwoD};
use Repeat::{Long, Short};

const fn kernel(
    name: &'static str,
    message: &'static str,
    category: Category,
    repeat: Repeat,
    prog: &'static str,
    args: &'static [Arg],
) -> Test {
    Test { name, message, category, repeat, kind: Kind::Kernel { prog, args }, overhead: 0, quick_min: 1 }
}

const fn fstime(name: &'static str, message: &'static str, args: &'static [Arg], overhead: u32) -> Test {
    Test {
        name,
        message,
        category: System,
        repeat: Short,
        kind: Kind::Kernel { prog: "fstime", args },
        overhead,
        quick_min: 1,
    }
}

const fn host(name: &'static str, message: &'static str, category: Category, secs: u32) -> Test {
    Test { name, message, category, repeat: Short, kind: Kind::Host { secs }, overhead: 0, quick_min: 1 }
}

const fn gfx2d(name: &'static str, message: &'static str) -> Test {
    const ARGS: &[Arg] = &[Lit("3"), Lit("2")];
    // Four x11perf tests, each 3 repetitions of 2 s after its own calibration.
    Test {
        name,
        message,
        category: TwoD,
        repeat: Short,
        kind: Kind::Graphics { prog: name, args: ARGS },
        overhead: 40,
        quick_min: 1,
    }
}

macro_rules! fs_args {
    ($mode:literal, $b:literal, $m:literal) => {
        &[
            Lit($mode),
            Lit("-t"),
            Secs(30),
            Lit("-d"),
            TmpDir,
            Lit("-b"),
            Lit($b),
            Lit("-m"),
            Lit($m),
            ShortSettle,
        ]
    };
}

/// Every test, in the order `all` runs them (docs/ORIGINAL.md, "Tests": that order, not Perl's hash
/// order).
pub static TESTS: &[Test] = &[
    kernel("dhry2reg", "Dhrystone 2 using register variables", System, Long, "dhry2reg", &[Secs(10)]),
    Test {
        // Its calibration: about a second (1.0 s at -t 1, 1.9 s at 10 s, measured).
        overhead: 1,
        ..kernel(
            "whetstone-double",
            "Double-Precision Whetstone",
            System,
            Long,
            "whetstone-double",
            &[ShortSecs(10)],
        )
    },
    kernel("syscall", "System Call Overhead", System, Long, "syscall", &[Secs(10)]),
    Test {
        // Its two processes start on one CPU and pass the token several times faster there
        // until the scheduler parts them: a 1 s pass read 8% over a 10 s one, a 3 s pass 4%
        // (docs/FIDELITY.md, "context1's floor").
        quick_min: 3,
        ..kernel("context1", "Pipe-based Context Switching", System, Long, "context1", &[Secs(10)])
    },
    kernel("pipe", "Pipe Throughput", System, Long, "pipe", &[Secs(10)]),
    kernel("spawn", "Process Creation", System, Short, "spawn", &[Secs(30)]),
    kernel("execl", "Execl Throughput", System, Short, "execl", &[Secs(30)]),
    fstime("fstime-w", "File Write 1024 bufsize 2000 maxblocks", fs_args!("-w", "1024", "2000"), 4),
    fstime("fstime-r", "File Read 1024 bufsize 2000 maxblocks", fs_args!("-r", "1024", "2000"), 10),
    fstime("fstime", "File Copy 1024 bufsize 2000 maxblocks", fs_args!("-c", "1024", "2000"), 15),
    fstime("fsbuffer-w", "File Write 256 bufsize 500 maxblocks", fs_args!("-w", "256", "500"), 4),
    fstime("fsbuffer-r", "File Read 256 bufsize 500 maxblocks", fs_args!("-r", "256", "500"), 10),
    fstime("fsbuffer", "File Copy 256 bufsize 500 maxblocks", fs_args!("-c", "256", "500"), 15),
    fstime("fsdisk-w", "File Write 4096 bufsize 8000 maxblocks", fs_args!("-w", "4096", "8000"), 4),
    fstime("fsdisk-r", "File Read 4096 bufsize 8000 maxblocks", fs_args!("-r", "4096", "8000"), 10),
    fstime("fsdisk", "File Copy 4096 bufsize 8000 maxblocks", fs_args!("-c", "4096", "8000"), 15),
    host("shell1", "Shell Scripts (1 concurrent)", System, 60),
    host("shell8", "Shell Scripts (8 concurrent)", System, 60),
    host("shell16", "Shell Scripts (16 concurrent)", System, 60),
    gfx2d("2d-rects", "2D graphics: rectangles"),
    gfx2d("2d-lines", "2D graphics: lines"),
    gfx2d("2d-circle", "2D graphics: circles"),
    gfx2d("2d-ellipse", "2D graphics: ellipses"),
    gfx2d("2d-shapes", "2D graphics: polygons"),
    gfx2d("2d-aashapes", "2D graphics: aa polygons"),
    gfx2d("2d-polys", "2D graphics: complex polygons"),
    gfx2d("2d-text", "2D graphics: text"),
    gfx2d("2d-blit", "2D graphics: images and blits"),
    gfx2d("2d-window", "2D graphics: windows"),
    Test {
        name: "ubgears",
        message: "3D graphics: gears",
        category: ThreeD,
        repeat: Short,
        kind: Kind::Graphics { prog: "ubgears", args: &[Lit("-time"), Secs(20), Lit("-v")] },
        overhead: 5,
        quick_min: 1,
    },
    host("C", "C Compiler Throughput (gcc)", Misc, 60),
    kernel("arithoh", "Arithoh", Misc, Short, "arithoh", &[Secs(10)]),
    kernel("short", "Arithmetic Test (short)", Misc, Short, "short", &[Secs(10)]),
    kernel("int", "Arithmetic Test (int)", Misc, Short, "int", &[Secs(10)]),
    kernel("long", "Arithmetic Test (long)", Misc, Short, "long", &[Secs(10)]),
    kernel("float", "Arithmetic Test (float)", Misc, Short, "float", &[Secs(10)]),
    kernel("double", "Arithmetic Test (double)", Misc, Short, "double", &[Secs(10)]),
    host("dc", "Dc: sqrt(2) to 99 decimal places", Misc, 30),
    kernel("hanoi", "Recursion Test -- Tower of Hanoi", Misc, Short, "hanoi", &[Secs(20)]),
    host("grep", "Grep a large file (system's grep)", Misc, 30),
    // `syscall 10 exec` execs /bin/true: a host program, so hosttools builds it (or skips).
    Test { repeat: Long, ..host("sysexec", "Exec System Call Overhead", Misc, 10) },
];

/// The programs of the graphics tests: the applets of a build with the `graphics` feature.
pub fn graphics_programs() -> impl Iterator<Item = &'static str> {
    TESTS.iter().filter_map(|t| match t.kind {
        Kind::Graphics { prog, .. } => Some(prog),
        _ => None,
    })
}

/// The tests that run host programs (the shell scripts, the C compiler, dc, grep, sysexec).
pub fn host_tests() -> impl Iterator<Item = &'static str> {
    TESTS.iter().filter(|t| matches!(t.kind, Kind::Host { .. })).map(|t| t.name)
}

/// The test called `name`.
pub fn test(name: &str) -> Option<&'static Test> {
    TESTS.iter().find(|t| t.name == name)
}

const INDEX: &[&str] = &[
    "dhry2reg",
    "whetstone-double",
    "execl",
    "fstime",
    "fsbuffer",
    "fsdisk",
    "pipe",
    "context1",
    "spawn",
    "syscall",
    "shell1",
    "shell8",
];
const OLDSYSTEM: &[&str] = &["execl", "fstime", "fsbuffer", "fsdisk", "pipe", "context1", "spawn", "syscall"];
const SHELL: &[&str] = &["shell1", "shell8", "shell16"];
const FS: &[&str] = &[
    "fstime-w",
    "fstime-r",
    "fstime",
    "fsbuffer-w",
    "fsbuffer-r",
    "fsbuffer",
    "fsdisk-w",
    "fsdisk-r",
    "fsdisk",
];
const ARITHMETIC: &[&str] = &["arithoh", "short", "int", "long", "float", "double", "whetstone-double"];
const GRAPHICS: &[&str] =
    &["2d-rects", "2d-ellipse", "2d-aashapes", "2d-text", "2d-blit", "2d-window", "ubgears"];

/// The named groups (docs/ORIGINAL.md, "Groups" and "Quirks we fix": `load` runs the shell tests as
/// USAGE says). Each is a list of parts: test names or other groups.
static GROUPS: &[(&str, &str, &[&[&str]])] = &[
    ("index", "the System Benchmarks Index (the default)", &[INDEX]),
    ("oldsystem", "the system tests without the shell scripts", &[OLDSYSTEM]),
    ("system", "the system tests", &[OLDSYSTEM, SHELL]),
    ("fs", "every file copy: write, read, copy at three buffer sizes", &[FS]),
    ("arithmetic", "the arithmetic loops and Whetstone", &[ARITHMETIC]),
    ("speed", "arithmetic, then the system tests", &[ARITHMETIC, OLDSYSTEM, SHELL]),
    ("shell", "the shell scripts at 1, 8 and 16 concurrent", &[SHELL]),
    ("load", "the same as shell", &[SHELL]),
    ("misc", "compiling, dc and the Tower of Hanoi", &[&["C", "dc", "hanoi"]]),
    ("dhry", "Dhrystone", &[&["dhry2reg"]]),
    ("dhrystone", "Dhrystone", &[&["dhry2reg"]]),
    ("whets", "Whetstone", &[&["whetstone-double"]]),
    ("whetstone", "Whetstone", &[&["whetstone-double"]]),
    ("graphics", "the 2D and 3D tests (a build with graphics and an X display)", &[GRAPHICS]),
    ("gindex", "the index and the graphics index", &[INDEX, GRAPHICS]),
    // UnixBench 4.0's eleven index tests; the report adds 4.0's block (report/index4.rs).
    ("index4", "UnixBench 4.0's eleven index tests, and its index", &[INDEX4_TESTS]),
];

/// The driver's names of the eleven UnixBench 4.0 index tests, in 4.0's report order.
pub const INDEX4_TESTS: &[&str] = &[
    "double", "dhry2reg", "execl", "fstime", "fsbuffer", "fsdisk", "pipe", "context1", "spawn", "shell8",
    "syscall",
];

/// Expands a test or group name into test names, in order; None if the name is unknown.
pub fn expand(name: &str) -> Option<Vec<&'static str>> {
    let mut names = Vec::new();
    if name == "all" {
        for t in TESTS {
            names.push(t.name);
        }
    } else if let Some((_, _, parts)) = GROUPS.iter().find(|(g, _, _)| *g == name) {
        for p in *parts {
            names.extend_from_slice(p);
        }
    } else {
        names.push(test(name)?.name);
    }
    Some(names)
}

/// Every group name, for error messages.
pub fn group_names() -> impl Iterator<Item = &'static str> {
    groups().map(|(g, _)| g)
}

/// Every group with one line on what it runs, `all` last.
pub fn groups() -> impl Iterator<Item = (&'static str, &'static str)> {
    GROUPS.iter().map(|&(g, about, _)| (g, about)).chain(std::iter::once(("all", "every test")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_has_every_test_once() {
        assert_eq!(TESTS.len(), 41);
        for (i, t) in TESTS.iter().enumerate() {
            assert!(TESTS[i + 1..].iter().all(|u| u.name != t.name && u.message != t.message), "{}", t.name);
        }
    }

    #[test]
    fn groups_name_known_tests() {
        for g in group_names() {
            for t in expand(g).unwrap() {
                assert!(test(t).is_some(), "group {g} names unknown test {t}");
            }
        }
        assert_eq!(expand("index").unwrap().len(), 12);
        assert_eq!(expand("load").unwrap(), vec!["shell1", "shell8", "shell16"]);
        assert_eq!(expand("system").unwrap().len(), 11);
        assert_eq!(expand("pipe").unwrap(), vec!["pipe"]);
        assert!(expand("nope").is_none());
    }

    #[test]
    fn every_baseline_is_a_test_of_its_category() {
        for b in crate::baselines::BASELINES {
            let t = test(b.test).unwrap_or_else(|| panic!("baseline for unknown test {}", b.test));
            assert_eq!(t.category.key(), b.category, "{}", b.test);
        }
    }

    /// The index is one list: the tests the `index` group runs are the system tests with a
    /// baseline, whose count decides whether the System index is complete, and the graphics
    /// index's are the 2D and 3D ones. A test added to one list and not the other fails here.
    #[test]
    fn index_groups_are_the_baselines_of_their_categories() {
        let of = |cats: &[&str]| {
            let mut v: Vec<&str> = crate::baselines::BASELINES
                .iter()
                .filter(|b| cats.contains(&b.category))
                .map(|b| b.test)
                .collect();
            v.sort_unstable();
            v
        };
        let sorted = |l: &[&'static str]| {
            let mut v = l.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(INDEX), of(&["system"]));
        assert_eq!(sorted(GRAPHICS), of(&["2d", "3d"]));
    }

    #[test]
    fn nominal_durations() {
        assert_eq!(test("dhry2reg").unwrap().nominal_secs(None), 10);
        assert_eq!(test("dhry2reg").unwrap().nominal_secs(Some(2)), 2);
        assert_eq!(test("fstime").unwrap().nominal_secs(None), 45);
        assert_eq!(test("shell8").unwrap().nominal_secs(Some(1)), 1);
        assert_eq!(test("whetstone-double").unwrap().nominal_secs(None), 11);
        // A short run passes whetstone its duration too: its calibration, then that.
        assert_eq!(test("whetstone-double").unwrap().nominal_secs(Some(1)), 2);
    }
}
