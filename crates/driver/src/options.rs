//! The driver's command line: Run's `[-q|-b|-v] [-i N] [-c N ...] [TEST|GROUP ...]` plus our
//! own long options. Parsing creates nothing and touches no file: every bad word is refused here
//! with one line naming it and what is allowed (exit 2).

use crate::args::parse_uint;
use crate::error::{Error, Result};
use crate::suite;
use std::ffi::OsString;
use std::path::PathBuf;

const HELP_HEAD: &str = "\
Usage: unixbench [run] [OPTIONS] [TEST|GROUP ...]

Runs the tests as UnixBench's ./Run does: each test at 1 copy, then at one copy per CPU this
process may use (its affinity mask within its cgroup's cpuset and CPU quota), 10 passes (long
tests) or 3 (short), the worst third dropped, the geometric mean kept, and the index against
the SPARCstation 20-61 baselines. With no TEST, runs `index`.

Run's options:
  -q              quiet: print only the final report (no banner, no progress)
  -v              verbose: also the test list, each command and its copies
  -b              brief: no CPU lines in the system block
  -i N            N passes for long tests, max(1, (N+1)/3) for short ones
  -c N            run with N parallel copies (repeat for several runs: -c 1 -c 4)

Our options:
  -t, --time SECONDS   a short run: every test runs SECONDS instead of its standard duration,
                       Whetstone too; fstime's settles and priming shrink with it (2 s at 30 s,
                       at least 0.1 s), and the settle between passes is a sync without the
                       3 s sleep (not comparable with standard runs; the report says so)
  --quick[=SECONDS]    a quick run: the same tests and copies, each pass shorter, each test
                       stopped when its score's 95% interval is within +-1% or its share of
                       the time budget is spent; the budget is just under a tenth of the
                       standard run's time, or SECONDS for the whole run; the report gives
                       every test's interval and the index's
  --results DIR        results directory (default: $UB_RESULTDIR, else ./results; through a
                       link named Run, results/ beside it)
  --tmpdir DIR         where the file tests write (default: $UB_TMPDIR, else $TMPDIR, else
                       /tmp; it must exist: it is never created; through a link named Run,
                       tmp/ beside it, made as Run makes it); the run works in a private
                       subdirectory and removes it
  --format FORMAT      what the final print on stdout is: text (the report, default), html,
                       json, csv or tsv; progress then goes to stderr
  --json[=FILE]        also write the results JSON: beside the report, or FILE (as
                       UB_OUTPUT_JSON=true does); results/ holds only what Run writes otherwise
  --no-save            write no files (no results directory, no log)
  -n, --dry-run        print the plan (tests, copies, passes, durations, settles) and its
                       estimated time, and run nothing
  --exec-image IMAGE   the image Execl Throughput and Process Creation time: auto (default: the
                       dynamically linked twin of the C program where this host has its
                       loader, else this static binary), dynamic, dynamic-glibc, dynamic-musl,
                       or static (not comparable with the C suite's figures)
  -h, --help           this help
  -V, --version        the version

";

const HELP_TAIL: &str = "\
Environment: UB_RESULTDIR, UB_TMPDIR, UB_OUTPUT_FILE_NAME (the results' base name),
UB_OUTPUT_CSV=true (also write a .csv), UB_OUTPUT_JSON=true (also write a .json), UB_NOISE=off
(do not read the host's noise around each pass). Exit status: 0 all tests ran, 1 a test failed,
2 bad command line or unusable directory, 128+N stopped by signal N (the finished tests are
reported). A result that cannot be written to a file or stdout is said on stderr, exit 1.
";

/// `run --help`: the options, then every group and test with one line on what it runs, from
/// the test table.
pub fn help() -> String {
    let mut h = String::from(HELP_HEAD);
    h.push_str("Groups:\n");
    for (g, about) in suite::groups() {
        h.push_str(&format!("  {g:<18}{about}\n"));
    }
    h.push_str("\nTests:\n");
    for t in suite::TESTS {
        h.push_str(&format!("  {:<18}{}\n", t.name, t.message));
    }
    h.push('\n');
    h.push_str(HELP_TAIL);
    h
}

/// How much the console shows: part of the run model, which records it.
pub use crate::model::Verbosity;

/// What the final print on stdout is.
pub use report::Format;

/// `--quick`'s time budget for the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quick {
    /// Just under a tenth of the standard run's estimated time (`quick::DEFAULT_FRACTION`).
    Tenth,
    /// `--quick=SECONDS`.
    Seconds(u32),
}

/// A parsed command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub verbosity: Verbosity,
    pub iterations: Option<u32>,
    /// Copy counts in order; empty means the defaults (1, then the CPUs).
    pub copies: Vec<usize>,
    /// The expanded test list (never empty).
    pub tests: Vec<&'static str>,
    pub duration: Option<u32>,
    pub quick: Option<Quick>,
    pub results: Option<PathBuf>,
    pub tmpdir: Option<PathBuf>,
    pub format: Format,
    pub save: bool,
    /// `--exec-image`: passed to the copies as `UB_EXEC_IMAGE`; None leaves the environment's.
    pub exec_image: Option<String>,
    /// `--json[=FILE]` or `UB_OUTPUT_JSON=true`: the results JSON is written too.
    pub json: Option<JsonOut>,
    /// `-n`, `--dry-run`: print the plan and its estimated time, run nothing.
    pub dry_run: bool,
}

/// Where the results JSON goes.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonOut {
    /// Beside the report, `<base>.json`.
    Beside,
    /// This file.
    File(PathBuf),
}

/// Every option, short and long, for the message about an unknown one.
const ALLOWED: &str = "-q -v -b -i N -c N -t SECONDS -n -h -V, --time=SECONDS --quick[=SECONDS] \
    --results DIR --tmpdir DIR --format FORMAT --json[=FILE] --no-save --exec-image IMAGE \
    --dry-run --help --version";

/// What the command line asks for.
#[derive(Debug, PartialEq)]
pub enum Parsed {
    Run(Options),
    Help,
    Version,
}

pub use crate::model::MAX_COPIES;

/// The most passes `-i` accepts.
pub const MAX_ITERATIONS: u64 = 10_000;

pub fn parse(args: Vec<OsString>) -> Result<Parsed> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut o = Options {
        verbosity: Verbosity::Normal,
        iterations: None,
        copies: Vec::new(),
        tests: Vec::new(),
        duration: None,
        quick: None,
        results: None,
        tmpdir: None,
        format: Format::Text,
        save: true,
        exec_image: None,
        json: None,
        dry_run: false,
    };
    let need = |p: &mut lexopt::Parser, opt: &str| -> Result<OsString> {
        p.value().map_err(|_| Error::usage(format!("option {opt} needs a value")))
    };
    while let Some(arg) = p.next().map_err(|e| Error::usage(e.to_string()))? {
        match arg {
            Short('q') => o.verbosity = Verbosity::Quiet,
            Short('v') => o.verbosity = Verbosity::Verbose,
            Short('b') => o.verbosity = Verbosity::Brief,
            Short('i') => {
                let v = need(&mut p, "-i")?;
                o.iterations = Some(parse_uint("-i (passes of long tests)", &v, 1, MAX_ITERATIONS)? as u32);
            }
            Short('c') => {
                let v = need(&mut p, "-c")?;
                o.copies.push(parse_uint("-c (parallel copies)", &v, 1, MAX_COPIES)? as usize);
            }
            Short('t') | Long("time") => {
                let v = need(&mut p, "--time")?;
                o.duration =
                    Some(parse_uint("--time (seconds per test)", &v, 1, crate::args::MAX_DURATION)? as u32);
            }
            Long("quick") => {
                o.quick = Some(match p.optional_value() {
                    None => Quick::Tenth,
                    Some(v) => Quick::Seconds(parse_uint(
                        "--quick (seconds for the whole run)",
                        &v,
                        1,
                        crate::args::MAX_DURATION,
                    )? as u32),
                })
            }
            Long("results") => o.results = Some(need(&mut p, "--results")?.into()),
            Long("tmpdir") => o.tmpdir = Some(need(&mut p, "--tmpdir")?.into()),
            Long("format") => {
                let v = need(&mut p, "--format")?;
                o.format = match v.to_str().and_then(Format::named) {
                    Some(f) => f,
                    None => {
                        return Err(Error::usage(format!(
                            "invalid --format '{}': expected text, html, json, csv or tsv",
                            v.to_string_lossy()
                        )))
                    }
                }
            }
            Long("no-save") => o.save = false,
            Long("json") => {
                o.json = Some(match p.optional_value() {
                    None => JsonOut::Beside,
                    Some(v) if v.is_empty() => return Err(Error::usage("--json= needs a file name")),
                    Some(v) => JsonOut::File(v.into()),
                })
            }
            Short('n') | Long("dry-run") => o.dry_run = true,
            Long("exec-image") => {
                let v = need(&mut p, "--exec-image")?;
                match v.to_str().filter(|s| twin::image::parse_request(s).is_some()) {
                    Some(s) => o.exec_image = Some(s.to_string()),
                    None => {
                        return Err(Error::usage(format!(
                            "invalid --exec-image '{}': expected {}",
                            v.to_string_lossy(),
                            twin::image::CHOICES
                        )))
                    }
                }
            }
            Short('h') | Long("help") => return Ok(Parsed::Help),
            Short('V') | Long("version") => return Ok(Parsed::Version),
            Value(v) => {
                let name = v.to_string_lossy();
                match suite::expand(&name) {
                    Some(t) => o.tests.extend(t),
                    None => {
                        return Err(Error::usage(format!(
                        "unknown test or group '{name}' (groups: {}; 'unixbench run --help' lists the tests)",
                        suite::group_names().collect::<Vec<_>>().join(", ")
                    )))
                    }
                }
            }
            Short(c) => {
                return Err(Error::usage(format!(
                    "unknown option '-{c}' (allowed: {ALLOWED}; see 'unixbench run --help')"
                )))
            }
            Long(l) => {
                return Err(Error::usage(format!(
                    "unknown option '--{l}' (allowed: {ALLOWED}; see 'unixbench run --help')"
                )))
            }
        }
    }
    if o.quick.is_some() && (o.duration.is_some() || o.iterations.is_some()) {
        return Err(Error::usage(format!(
            "--quick and {} exclude each other: a quick run chooses its own pass durations and counts",
            if o.duration.is_some() { "-t" } else { "-i" }
        )));
    }
    if o.json.is_none() && o.save && std::env::var("UB_OUTPUT_JSON").is_ok_and(|v| v == "true") {
        o.json = Some(JsonOut::Beside);
    }
    if !o.save && o.json.is_some() {
        return Err(Error::usage(
            "--no-save and --json exclude each other: --no-save writes no file (--format json prints it)",
        ));
    }
    if o.tests.is_empty() {
        o.tests = suite::expand("index").unwrap();
    }
    Ok(Parsed::Run(o))
}

/// Whether `name` is a test or group the driver knows.
pub fn knows(name: &str) -> bool {
    suite::expand(name).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Options> {
        match parse(args.iter().map(OsString::from).collect())? {
            Parsed::Run(o) => Ok(o),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn defaults_to_the_index() {
        let o = run(&[]).unwrap();
        assert_eq!(o.tests.len(), 12);
        assert_eq!(o.tests[0], "dhry2reg");
        assert!(o.copies.is_empty());
        assert_eq!(o.verbosity, Verbosity::Normal);
        assert!(o.save);
    }

    #[test]
    fn runs_command_line() {
        let o =
            run(&["-q", "-i", "3", "-c", "1", "-c", "4", "pipe", "load", "-t", "2", "--no-save"]).unwrap();
        assert_eq!(o.verbosity, Verbosity::Quiet);
        assert_eq!(o.iterations, Some(3));
        assert_eq!(o.copies, vec![1, 4]);
        assert_eq!(o.tests, vec!["pipe", "shell1", "shell8", "shell16"]);
        assert_eq!(o.duration, Some(2));
        assert!(!o.save);
        let o = run(&["-c2", "--time=5", "--format", "json", "--results", "r", "--tmpdir", "t"]).unwrap();
        assert_eq!((o.copies, o.duration, o.format), (vec![2], Some(5), Format::Json));
        assert_eq!(o.results, Some(PathBuf::from("r")));
        assert_eq!(parse(vec!["--help".into()]).unwrap(), Parsed::Help);
        assert_eq!(parse(vec!["-V".into()]).unwrap(), Parsed::Version);
    }

    #[test]
    fn quick_takes_an_optional_budget() {
        assert_eq!(run(&[]).unwrap().quick, None);
        assert_eq!(run(&["--quick"]).unwrap().quick, Some(Quick::Tenth));
        assert_eq!(run(&["--quick=300", "pipe"]).unwrap().quick, Some(Quick::Seconds(300)));
        // A separate word is a test name, not the budget.
        assert!(run(&["--quick", "300"]).unwrap_err().to_string().contains("unknown test or group '300'"));
        for (args, needle) in [
            (&["--quick=0"][..], "--quick (seconds for the whole run)"),
            (&["--quick=x"], "--quick (seconds for the whole run)"),
            (&["--quick", "-t", "2"], "--quick and -t exclude each other"),
            (&["-i", "3", "--quick"], "--quick and -i exclude each other"),
        ] {
            let e = run(args).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().contains(needle), "{args:?}: {e}");
        }
    }

    #[test]
    fn bad_input_names_the_argument() {
        for (args, needle) in [
            (&["nope"][..], "unknown test or group 'nope'"),
            (&["-c", "0"], "invalid -c (parallel copies) '0'"),
            (&["-c", "-1"], "'-1'"),
            (&["-c", "abc"], "'abc'"),
            (&["-c"], "-c needs a value"),
            (&["-i", "x"], "invalid -i"),
            (&["-t", "0"], "invalid --time"),
            (&["-x"], "unknown option '-x'"),
            (&["--frob"], "unknown option '--frob'"),
            (&["--format", "xml"], "invalid --format 'xml'"),
        ] {
            let e = run(args).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}");
            assert!(e.to_string().contains(needle), "{args:?}: {e}");
            assert!(!e.to_string().contains('\n'), "{args:?}: one line");
        }
    }

    #[test]
    fn help_names_every_test_and_group_of_the_table() {
        let h = help();
        for t in suite::TESTS {
            assert!(
                h.lines().any(|l| l.split_whitespace().next() == Some(t.name) && l.contains(t.message)),
                "{}",
                t.name
            );
        }
        for g in suite::group_names() {
            assert!(h.lines().any(|l| l.split_whitespace().next() == Some(g)), "{g}");
        }
    }

    #[test]
    fn knows_tests_and_groups() {
        for n in ["index", "pipe", "shell8", "load", "C", "gindex", "all", "2d-rects"] {
            assert!(knows(n), "{n}");
        }
        assert!(!knows("frobnicate"));
    }
}
