//! The driver's command line: Run's `[-q|-b|-v] [-i N] [-c N ...] [TEST|GROUP ...]` plus our
//! own long options. Parsing creates nothing and touches no file: every bad word is refused here
//! with one line naming it and what is allowed (exit 2).

use crate::args::parse_uint;
use crate::error::{Error, Result};
use crate::suite;
use base::version::Semantics;
use std::ffi::{OsStr, OsString};
use std::fmt::Write;
use std::path::PathBuf;

const HELP_USAGE: &str = "Usage: unixbench [run] [OPTIONS] [TEST|GROUP ...]\n\n";

/// What a run does: the help's first paragraph and the manual's description.
pub const HELP_HEAD: &str = "\
Runs the tests as UnixBench's ./Run does: each test at 1 copy, then at one copy per CPU this
process may use (its affinity mask within its cgroup's cpuset and CPU quota), 10 passes (long
tests) or 3 (short), the worst third dropped, the geometric mean kept, and the index against
the SPARCstation 20-61 baselines. With no TEST, runs `index`.
";

const AB_USAGE: &str = "Usage: unixbench ab [ARM OPTIONS] [RUN OPTIONS] [TEST|GROUP ...]\n\n";

/// What `ab` does: its help's first paragraph and the manual's section.
pub const AB_HEAD: &str = "\
Compares two arms, A and B, on this host in one run: each is this binary unless an arm
option changes it. In rounds, every test in a shuffled order, one pass of each arm back to
back (AB, then BA), so that the host's wander hits both and cancels in their ratio; at least
4 rounds, then until every test's ratio is known within +-1% (--precision) or the budget
(twice a quick run's, or --quick=SECONDS) is spent. Prints whether B differs from A on the
index and on each test, with 95% intervals. With no TEST, runs `index`. Writes no results
directory: the report goes to stdout (--format), and --json=FILE keeps the JSON.
Example: unixbench ab --b-wrap 'nice -n 10' -c 1 index
";

const AB_TAIL: &str = "\
Not in ab: -t, --rounds, --no-rounds, --remeasure (a pair with a disturbed pass is
always measured again), --results, --no-save, --json without =FILE.
Exit status: 0 done, 1 a test failed in an arm, 2 bad command line, 128+N stopped by signal N.
";

pub const HELP_TAIL: &str = "\
Exit status: 0 all tests ran, 1 a test failed, 2 bad command line or unusable directory,
128+N stopped by signal N (every pass that finished is reported). A result that cannot be written
to a file or stdout is said on stderr, exit 1.
";

use base::options::{Arg, Command};
pub use base::options::{Spec, Takes, Values};
use base::version::SEMANTICS_NAMES;

/// One option of the driver's command line, declared once: its description (the option model
/// every command shares), where it belongs, and what it sets. Parsing, the error for an unknown
/// one, `run --help`, the top-level help's short list, the man page, the shells' completions
/// and docs/USAGE.md's options (a test checks it) all come from [`OPTIONS`].
pub struct Opt {
    pub spec: Spec,
    /// Where it belongs: Run's own options (the first section of the help), ours, or `ab`'s.
    pub section: Section,
    /// What it sets: the value, when it takes one; the option itself names it in errors and, for
    /// an arm's, says which arm.
    apply: fn(&mut Options, &Opt, Option<OsString>) -> Result<()>,
}

impl std::ops::Deref for Opt {
    type Target = Spec;
    fn deref(&self) -> &Spec {
        &self.spec
    }
}

impl Opt {
    /// How the top-level help writes it, shorter: an option that takes a value by its short
    /// form alone where it has one (`-t SECONDS`).
    pub fn brief_forms(&self) -> String {
        match (self.short, self.takes) {
            (Some(c), Takes::Value(v)) => format!("-{c} {v}"),
            _ => self.forms(),
        }
    }
}

/// The sections of the option table; `ab`'s come last in it, so that a run's table is the
/// entries before them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Run's own options.
    Run,
    /// Ours, for every run.
    Ours,
    /// `unixbench ab`'s alone: what one arm changes, and the precision its rounds aim at.
    Ab,
}

/// A run's command line: the options before `ab`'s, and tests and groups.
pub const RUN: Command = Command {
    name: "run",
    spec: |i| OPTIONS.get(i).filter(|o| o.section != Section::Ab).map(|o| &o.spec),
    hidden: ROUNDS_ALIASES,
    operands: Values::Tests,
};

/// `unixbench ab`'s: a run's and the arms'.
pub const AB: Command = Command {
    name: "ab",
    spec: |i| OPTIONS.get(i).map(|o| &o.spec),
    hidden: ROUNDS_ALIASES,
    operands: Values::Tests,
};

/// `--rounds` and `--no-rounds` by the names they shipped with, which still parse but are no
/// longer offered: the places of the two in [`OPTIONS`] (a test checks them).
const ROUNDS_ALIASES: &[(&str, usize)] = &[("interleave", 8), ("no-interleave", 9)];

/// The value of an option that takes one (the table guarantees it).
fn value(v: Option<OsString>) -> OsString {
    v.unwrap_or_default()
}

/// The value lists of `--format`, `--exec-image` and `--semantics`, from the tables that
/// parse them.
const FORMATS: &[&str] = &Format::NAMES;
const IMAGES: &[&str] = &twin::exec_image::NAMES;
const RELEASES: &[&str] = &SEMANTICS_NAMES;

/// Every option of the driver, in the order of `run --help`.
pub static OPTIONS: &[Opt] = &[
    Opt {
        spec: Spec {
            short: Some('q'),
            help: "quiet: print only the final report (no banner, no progress)",
            brief: Some("quiet: only the report"),
            ..Spec::NONE
        },
        section: Section::Run,
        apply: |o, _, _| {
            o.verbosity = Verbosity::Quiet;
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            short: Some('v'),
            help: "verbose: also the test list, each command and its copies",
            brief: Some("verbose: each command, the statistics"),
            ..Spec::NONE
        },
        section: Section::Run,
        apply: |o, _, _| {
            o.verbosity = Verbosity::Verbose;
            Ok(())
        },
    },
    Opt {
        spec: Spec { short: Some('b'), help: "brief: no CPU lines in the system block", ..Spec::NONE },
        section: Section::Run,
        apply: |o, _, _| {
            o.verbosity = Verbosity::Brief;
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            short: Some('i'),
            takes: Takes::Value(&"N"),
            help: "N passes for long tests, max(1, (N+1)/3) for short ones",
            brief: Some("N passes for long tests, (N+1)/3 for short ones"),
            ..Spec::NONE
        },
        section: Section::Run,
        apply: |o, _, v| {
            o.iterations =
                Some(parse_uint("-i (passes of long tests)", &value(v), 1, MAX_ITERATIONS)? as u32);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            short: Some('c'),
            takes: Takes::Value(&"N"),
            help: "run with N parallel copies (repeat for several runs: -c 1 -c 4)",
            brief: Some("one run with N parallel copies (repeat: -c 1 -c 4)"),
            ..Spec::NONE
        },
        section: Section::Run,
        apply: |o, _, v| {
            o.copies.push(parse_uint("-c (parallel copies)", &value(v), 1, MAX_COPIES)? as usize);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            short: Some('t'),
            long: Some("time"),
            takes: Takes::Value(&"SECONDS"),
            help: "a short run: every test runs SECONDS instead of its standard duration,\n\
                   Whetstone too; fstime's settles and priming shrink with it (2 s at 30 s,\n\
                   at least 0.1 s), and the settle between passes is a sync without the\n\
                   3 s sleep (not comparable with standard runs; the report says so)",
            brief: Some("a short run: every test SECONDS, shorter settles (not standard)"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            let max = crate::args::MAX_DURATION;
            o.duration = Some(parse_uint("--time (seconds per test)", &value(v), 1, max)? as u32);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("quick"),
            takes: Takes::Optional(&"SECONDS"),
            help: "a quick run: the same tests and copies, each pass shorter, each test\n\
                   3 passes, then stopped when its score's 95% interval is within +-1%\n\
                   or its share of the time budget is spent; the budget is just under a\n\
                   tenth of the standard run's time, or SECONDS for the whole run (at\n\
                   least what 3 passes of every test take: -n says); the report gives\n\
                   every test's interval and the index's",
            brief: Some("the same tests in about a tenth of the time, each with its interval"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            let what = "--quick (seconds for the whole run)";
            o.quick = Some(match v {
                None => Quick::Tenth,
                Some(v) => Quick::Seconds(parse_uint(what, &v, 1, crate::args::MAX_DURATION)? as u32),
            });
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("remeasure"),
            help: "measure a pass again when it was disturbed (steal, other processes,\n\
                   its copies stopped or throttled), at most 3 times per test; a quick\n\
                   run always does; a standard run stays standard, and its report\n\
                   says how many passes were measured again and why",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, _| {
            o.remeasure = true;
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("rounds"),
            help: "passes in rounds, one of every test per round in a shuffled order (a\n\
                   quick run's default); the index's interval is the rounds' spread",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, _| {
            o.rounds = Some(true);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("no-rounds"),
            help: "a quick run without rounds: each test's passes back to back",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, _| {
            o.rounds = Some(false);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("seed"),
            takes: Takes::Value(&"N"),
            help: "the seed of the rounds' orders, to repeat them; implies --rounds",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            o.seed = Some(parse_uint("--seed", &value(v), 0, MAX_SEED)?);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("results"),
            takes: Takes::Value(&"DIR"),
            values: Values::Dirs,
            help: "results directory (default: $UB_RESULTDIR, else ./results; through a\n\
                   link named Run, results/ beside it)",
            brief: Some("results directory (default ./results)"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            o.results = Some(value(v).into());
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("tmpdir"),
            takes: Takes::Value(&"DIR"),
            values: Values::Dirs,
            help: "where the file tests write (default: $UB_TMPDIR, else $TMPDIR, else\n\
                   /tmp; it must exist: it is never created; through a link named Run,\n\
                   tmp/ beside it, made as Run makes it); the run works in a private\n\
                   subdirectory and removes it",
            brief: Some("where the file tests write (default $UB_TMPDIR, $TMPDIR, /tmp)"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            o.tmpdir = Some(value(v).into());
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("format"),
            takes: Takes::Value(&"FORMAT"),
            values: Values::Words(&FORMATS),
            help: "what the final print on stdout is: text (the report, default), html,\n\
                   json, csv, tsv or md (the TSV's table in Markdown); progress then goes\n\
                   to stderr",
            brief: Some("the final print on stdout: text, html, json, csv, tsv or md"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            let v = value(v);
            o.format = v
                .to_str()
                .and_then(Format::named)
                .ok_or_else(|| not_one_of("--format", &v, &Format::NAMES))?;
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("json"),
            takes: Takes::Optional(&"FILE"),
            values: Values::Files,
            help: "also write the results JSON: beside the report, or FILE (as\n\
                   UB_OUTPUT_JSON=true does); results/ holds only what Run writes otherwise",
            brief: Some("also write the results JSON (beside the report, or FILE)"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            o.json = Some(match v {
                None => JsonOut::Beside,
                Some(v) if v.is_empty() => return Err(Error::usage("--json= needs a file name")),
                Some(v) => JsonOut::File(v.into()),
            });
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("no-save"),
            help: "write no files (no results directory, no log)",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, _| {
            o.save = false;
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            short: Some('n'),
            long: Some("dry-run"),
            help: "print the plan (tests, copies, passes, durations, settles) and its\n\
                   estimated time, and run nothing (as JSON with --format json)",
            brief: Some("print the plan and its estimated time; run nothing"),
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, _| {
            o.dry_run = true;
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("exec-image"),
            takes: Takes::Value(&"IMAGE"),
            values: Values::Words(&IMAGES),
            help: "the image Execl Throughput and Process Creation time: auto (default: the\n\
                   dynamically linked twin of the C program where this host has its\n\
                   loader, else this static binary), dynamic, dynamic-glibc, dynamic-musl,\n\
                   or static (not comparable with the C suite's figures; Whetstone then\n\
                   runs its baseline code, not the code for this CPU)",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            o.exec_image = Some(exec_image("--exec-image", &value(v))?);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("semantics"),
            takes: Takes::Value(&"RELEASE"),
            values: Values::Words(&RELEASES),
            help: "whose semantics the tests follow where UnixBench's releases give different\n\
                   figures: 6.0 (the default) or 5.1.3, that of most published scores (shared\n\
                   fstime files, at most 16 copies of the system tests, ...); every output\n\
                   names it, and the copies get it as UB_SEMANTICS",
            ..Spec::NONE
        },
        section: Section::Ours,
        apply: |o, _, v| {
            o.semantics = Some(semantics("--semantics", &value(v))?);
            Ok(())
        },
    },
    Opt {
        spec: Spec { short: Some('h'), long: Some("help"), help: "this help", ..Spec::NONE },
        section: Section::Ours,
        apply: |o, _, _| {
            o.asked = Some(Asked::Help);
            Ok(())
        },
    },
    Opt {
        spec: Spec { short: Some('V'), long: Some("version"), help: "the version", ..Spec::NONE },
        section: Section::Ours,
        apply: |o, _, _| {
            o.asked = Some(Asked::Version);
            Ok(())
        },
    },
    Opt {
        spec: Spec {
            long: Some("a-wrap"),
            takes: Takes::Value(&"CMD"),
            help: "arm A's copies run under this command line (split as the shell splits\n\
                   it, quotes kept, nothing expanded, no shell run): taskset -c 1, nice -n 5,\n\
                   cgexec -g cpu:half, a script of yours that ends in exec \"$@\"",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_wrap,
    },
    Opt {
        spec: Spec {
            long: Some("b-wrap"),
            takes: Takes::Value(&"CMD"),
            help: "as --a-wrap, for arm B",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_wrap,
    },
    Opt {
        spec: Spec {
            long: Some("a-bin"),
            takes: Takes::Value(&"PATH"),
            values: Values::Files,
            help: "arm A runs the kernels of another unixbench binary (an older build), or\n\
                   the programs of a built C UnixBench directory (its pgms/, with the\n\
                   command lines its Run gives each test)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_bin,
    },
    Opt {
        spec: Spec {
            long: Some("b-bin"),
            takes: Takes::Value(&"PATH"),
            values: Values::Files,
            help: "as --a-bin, for arm B",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_bin,
    },
    Opt {
        spec: Spec {
            long: Some("a-tmpdir"),
            takes: Takes::Value(&"DIR"),
            values: Values::Dirs,
            help: "where arm A's file tests write (default: --tmpdir's)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_tmpdir,
    },
    Opt {
        spec: Spec {
            long: Some("b-tmpdir"),
            takes: Takes::Value(&"DIR"),
            values: Values::Dirs,
            help: "where arm B's file tests write (default: --tmpdir's)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_tmpdir,
    },
    Opt {
        spec: Spec {
            long: Some("a-semantics"),
            takes: Takes::Value(&"RELEASE"),
            values: Values::Words(&RELEASES),
            help: "arm A's semantics, 6.0 or 5.1.3 (default: --semantics's)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_semantics,
    },
    Opt {
        spec: Spec {
            long: Some("b-semantics"),
            takes: Takes::Value(&"RELEASE"),
            values: Values::Words(&RELEASES),
            help: "arm B's semantics, 6.0 or 5.1.3 (default: --semantics's)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_semantics,
    },
    Opt {
        spec: Spec {
            long: Some("a-exec-image"),
            takes: Takes::Value(&"IMAGE"),
            values: Values::Words(&IMAGES),
            help: "arm A's --exec-image",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_exec_image,
    },
    Opt {
        spec: Spec {
            long: Some("b-exec-image"),
            takes: Takes::Value(&"IMAGE"),
            values: Values::Words(&IMAGES),
            help: "arm B's --exec-image",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_exec_image,
    },
    Opt {
        spec: Spec {
            long: Some("a-name"),
            takes: Takes::Value(&"NAME"),
            help: "arm A's label (default: A, or what the arm changes)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_name,
    },
    Opt {
        spec: Spec {
            long: Some("b-name"),
            takes: Takes::Value(&"NAME"),
            help: "arm B's label (default: B, or what the arm changes)",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: arm_name,
    },
    Opt {
        spec: Spec {
            long: Some("precision"),
            takes: Takes::Value(&"PCT"),
            help: "the rounds stop once every test's ratio interval is within +-PCT%\n\
                   (default 1), or the budget is spent",
            ..Spec::NONE
        },
        section: Section::Ab,
        apply: |o, _, v| {
            o.precision = Some(percent("--precision", &value(v))?);
            Ok(())
        },
    },
];

/// The error for a bad value, shown as every word of the command line is: `invalid WHAT
/// 'VALUE': WHY`, the value escaped on one line.
fn invalid(what: &str, v: &OsStr, why: &str) -> Error {
    Error::usage(format!("invalid {what} {}: {why}", crate::args::quoted(v)))
}

/// The error for a value that is none of `choices`.
fn not_one_of(what: &str, v: &OsStr, choices: &[&str]) -> Error {
    invalid(what, v, &["expected ", &base::options::one_of(choices)].concat())
}

/// An `--exec-image` word, or the error naming `what` and the choices.
fn exec_image(what: &str, v: &OsString) -> Result<String> {
    let s = v.to_str().filter(|s| twin::exec_image::parse_request(s).is_some());
    let s = s.ok_or_else(|| not_one_of(what, v, &twin::exec_image::NAMES))?;
    Ok(s.to_string())
}

/// A `--semantics` release, or the error naming `what` and the choices.
fn semantics(what: &str, v: &OsString) -> Result<Semantics> {
    v.to_str().and_then(Semantics::parse).ok_or_else(|| not_one_of(what, v, &SEMANTICS_NAMES))
}

/// `--precision`'s percent: from 0.1 to 50.
fn percent(what: &str, v: &OsString) -> Result<f64> {
    match base::json::decimal::parse_f64(v.to_string_lossy().trim().trim_end_matches('%')) {
        Some(p) if (0.1..=50.0).contains(&p) => Ok(p),
        _ => Err(invalid(what, v, "expected a percent from 0.1 to 50")),
    }
}

/// The arm an arm's option is for: `--b-...` is B's.
fn arm<'o>(o: &'o mut Options, opt: &Opt) -> &'o mut ArmOptions {
    &mut o.arms[usize::from(opt.long.is_some_and(|l| l.starts_with("b-")))]
}

/// `--a-wrap`'s command line, split into words; refused when it holds none or a quote is open.
fn arm_wrap(o: &mut Options, opt: &Opt, v: Option<OsString>) -> Result<()> {
    let (what, v) = (opt.name(), value(v));
    let line = v.to_str().ok_or_else(|| Error::usage(format!("invalid {what}: not valid UTF-8")))?;
    let words = crate::args::split_words(line).map_err(|why| invalid(&what, &v, why))?;
    if words.is_empty() {
        return Err(Error::usage(format!("{what} needs a command")));
    }
    arm(o, opt).wrap = Some(words);
    Ok(())
}

/// `--a-name`: a label of one line, not empty.
fn arm_name(o: &mut Options, opt: &Opt, v: Option<OsString>) -> Result<()> {
    let v = value(v);
    let s = v.to_string_lossy();
    if s.trim().is_empty() || s.chars().any(char::is_control) || s.chars().count() > 40 {
        return Err(invalid(&opt.name(), &v, "expected a label of 1 to 40 printable characters"));
    }
    arm(o, opt).name = Some(s.into_owned());
    Ok(())
}

/// `--a-bin`.
fn arm_bin(o: &mut Options, opt: &Opt, v: Option<OsString>) -> Result<()> {
    arm(o, opt).bin = Some(value(v).into());
    Ok(())
}

/// `--a-tmpdir`.
fn arm_tmpdir(o: &mut Options, opt: &Opt, v: Option<OsString>) -> Result<()> {
    arm(o, opt).tmpdir = Some(value(v).into());
    Ok(())
}

/// `--a-semantics`.
fn arm_semantics(o: &mut Options, opt: &Opt, v: Option<OsString>) -> Result<()> {
    arm(o, opt).semantics = Some(semantics(&opt.name(), &value(v))?);
    Ok(())
}

/// `--a-exec-image`.
fn arm_exec_image(o: &mut Options, opt: &Opt, v: Option<OsString>) -> Result<()> {
    arm(o, opt).exec_image = Some(exec_image(&opt.name(), &value(v))?);
    Ok(())
}

/// What one arm of `unixbench ab` changes; all None is this binary as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArmOptions {
    pub wrap: Option<Vec<String>>,
    pub bin: Option<PathBuf>,
    pub tmpdir: Option<PathBuf>,
    pub semantics: Option<Semantics>,
    pub exec_image: Option<String>,
    pub name: Option<String>,
}

/// The environment variables the driver reads, each declared once: `run --help` lists them,
/// and [`Environment::read`] is the one place that reads them.
pub static ENVIRONMENT: &[(&str, &str)] = &[
    ("UB_RESULTDIR", "the results directory, where --results does not say"),
    ("UB_TMPDIR", "where the file tests write, where --tmpdir does not say"),
    ("UB_OUTPUT_FILE_NAME", "the results' base name (a plain file name)"),
    ("UB_OUTPUT_CSV", "=true: also write a .csv"),
    ("UB_OUTPUT_JSON", "=true: also write a .json"),
    ("UB_NOISE", "=off: do not read the host's noise around each pass (on: the default)"),
    ("UB_WATCHDOG_MARGIN", "seconds a pass may run past 3 x its planned time (120)"),
    ("UB_SEMANTICS", "6.0 or 5.1.3, where --semantics does not say"),
];

/// What the environment says, read once when the command line is parsed.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Environment {
    /// `UB_RESULTDIR`, `UB_TMPDIR`: empty counts as unset.
    pub results: Option<PathBuf>,
    pub tmpdir: Option<PathBuf>,
    /// `UB_OUTPUT_FILE_NAME`: empty counts as unset.
    pub file_name: Option<OsString>,
    /// `UB_OUTPUT_CSV=true`.
    pub csv: bool,
    /// `UB_OUTPUT_JSON=true`.
    pub json: bool,
    /// `UB_NOISE`, as given: checked with the command line ([`noise_word`]); empty counts as unset.
    pub noise: Option<OsString>,
    /// `TMPDIR`, the last resort for the tmp directory.
    pub system_tmpdir: Option<PathBuf>,
    /// `UB_WATCHDOG_MARGIN`, as given: checked with the command line ([`watchdog_margin`]).
    pub watchdog: Option<OsString>,
    /// `UB_SEMANTICS`, as given: checked with the command line.
    pub semantics: Option<OsString>,
}

impl Environment {
    /// The process's environment.
    pub fn read() -> Environment {
        let set = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
        let is = |k: &str, v: &str| std::env::var_os(k).is_some_and(|x| x == v);
        Environment {
            results: set("UB_RESULTDIR").map(PathBuf::from),
            tmpdir: set("UB_TMPDIR").map(PathBuf::from),
            file_name: set("UB_OUTPUT_FILE_NAME"),
            csv: is("UB_OUTPUT_CSV", "true"),
            json: is("UB_OUTPUT_JSON", "true"),
            noise: set("UB_NOISE"),
            system_tmpdir: set("TMPDIR").map(PathBuf::from),
            watchdog: set("UB_WATCHDOG_MARGIN"),
            semantics: set("UB_SEMANTICS"),
        }
    }
}

/// `run --help`: the options and the environment from their tables, then every group and test
/// with one line on what it runs, from the test table.
pub fn help() -> String {
    let mut h = [HELP_USAGE, HELP_HEAD].concat();
    h += &options_help(&[("Run's options:", Section::Run, 16), ("Our options:", Section::Ours, 21)]);
    h += &tests_help();
    h.push('\n');
    h.push_str(HELP_TAIL);
    h
}

/// `ab --help`: what it does, the arms' options, then a run's.
pub fn ab_help() -> String {
    let mut h = [AB_USAGE, AB_HEAD].concat();
    h += &options_help(&[
        ("What an arm changes:", Section::Ab, 21),
        ("Run's options:", Section::Run, 16),
        ("Our options:", Section::Ours, 21),
    ]);
    h += &tests_help();
    h.push('\n');
    h.push_str(AB_TAIL);
    h
}

/// The options of `sections`, each under its title, each option's help lines beside its forms.
fn options_help(sections: &[(&str, Section, usize)]) -> String {
    let mut h = String::new();
    for &(title, section, width) in sections {
        let _ = write!(h, "\n{title}\n");
        for o in OPTIONS.iter().filter(|o| o.section == section) {
            base::options::help_lines(&mut h, o, width);
        }
    }
    h
}

/// Every group and test with one line on what it runs, and the environment.
fn tests_help() -> String {
    let mut h = String::from("\nGroups:\n");
    for (g, about) in suite::groups() {
        let _ = writeln!(h, "  {g:<18}{about}");
    }
    h.push_str("\nTests:\n");
    for t in suite::TESTS {
        let _ = writeln!(h, "  {:<18}{}", t.name, t.message);
    }
    h.push_str("\nEnvironment:\n");
    for (name, about) in ENVIRONMENT {
        let _ = writeln!(h, "  {name:<21}{about}");
    }
    h
}

/// The top-level help's lines for the options people reach for.
pub fn brief_help() -> String {
    let mut h = String::new();
    for o in OPTIONS {
        if let Some(b) = o.brief {
            let _ = writeln!(h, "  {:<20}{b}", o.brief_forms());
        }
    }
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
    /// `--semantics`, else `UB_SEMANTICS`, else 6.0's (settled once the line is read).
    pub semantics: Option<Semantics>,
    /// `--json[=FILE]` or `UB_OUTPUT_JSON=true`: the results JSON is written too.
    pub json: Option<JsonOut>,
    /// `-n`, `--dry-run`: print the plan and its estimated time, run nothing.
    pub dry_run: bool,
    /// `--remeasure`: a disturbed pass is measured again (a quick run's always are).
    pub remeasure: bool,
    /// `--rounds` (true) or `--no-rounds` (false): passes in rounds or not; None leaves
    /// the kind of run's default (rounds in a quick run).
    pub rounds: Option<bool>,
    /// `--seed N`: the rounds' orders (it implies rounds).
    pub seed: Option<u64>,
    /// `UB_WATCHDOG_MARGIN`'s seconds, None for the default (settled once the line is read).
    pub watchdog_margin: Option<f64>,
    /// Whether the host's noise is read around each pass: unless `UB_NOISE=off` (settled once
    /// the line is read).
    pub noise: bool,
    /// What the environment said.
    pub env: Environment,
    /// `unixbench ab`'s arms, A and B (empty in a run).
    pub arms: [ArmOptions; 2],
    /// `--precision PCT` (`ab`): the ratio intervals the rounds aim at.
    pub precision: Option<f64>,
    /// `--help` or `--version`, which end the parsing.
    asked: Option<Asked>,
}

impl Options {
    /// Whose semantics the run follows, as settled from `--semantics` and `UB_SEMANTICS`.
    pub fn semantics(&self) -> Semantics {
        self.semantics.unwrap_or_default()
    }
}

/// An option that ends the parsing with an answer of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    Help,
    Version,
}

/// Where the results JSON goes.
#[derive(Debug, Clone, PartialEq)]
pub enum JsonOut {
    /// Beside the report, `<base>.json`.
    Beside,
    /// This file.
    File(PathBuf),
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Run(Box<Options>),
    Help,
    Version,
}

pub use crate::model::MAX_COPIES;

/// The largest `--seed`: 53 bits, which a JSON number holds exactly.
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// The most passes `-i` accepts.
pub const MAX_ITERATIONS: u64 = 10_000;

/// The command line, read against the process's environment.
pub fn parse(args: Vec<OsString>) -> Result<Parsed> {
    parse_in(args, Environment::read())
}

/// The command line against `env`: each word through its entry of [`OPTIONS`] or as a test or
/// group, then the checks that take the whole line.
pub fn parse_in(args: Vec<OsString>, env: Environment) -> Result<Parsed> {
    parse_for(args, env, false)
}

/// `unixbench ab`'s command line: a run's, with the arms' options too.
pub fn parse_ab(args: Vec<OsString>) -> Result<Parsed> {
    parse_for(args, Environment::read(), true)
}

/// The command line against `env`, `ab`'s when `ab` (whose arm options a run refuses).
fn parse_for(args: Vec<OsString>, env: Environment, ab: bool) -> Result<Parsed> {
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
        semantics: None,
        json: None,
        dry_run: false,
        remeasure: false,
        rounds: None,
        seed: None,
        watchdog_margin: None,
        noise: true,
        env,
        arms: Default::default(),
        precision: None,
        asked: None,
    };
    let mut p = lexopt::Parser::from_args(args);
    let cmd = if ab { &AB } else { &RUN };
    // An option of an optional value given without one: the word after it may be its value
    // written apart (`--quick 30`), which the error for an unknown test then suggests attached.
    let mut bare = None;
    while let Some(arg) = base::options::next(&mut p, cmd)? {
        let (opt, v) = match arg {
            Arg::Operand(v) => {
                add_tests(&mut o, &v.to_string_lossy(), bare.take())?;
                continue;
            }
            Arg::Unknown(word) => return Err(unknown(&word, ab)),
            Arg::Opt(i, v) => (&OPTIONS[i], v),
        };
        bare = (v.is_none() && matches!(opt.takes, Takes::Optional(_))).then_some(opt);
        (opt.apply)(&mut o, opt, v)?;
        match o.asked {
            Some(Asked::Help) => return Ok(Parsed::Help),
            Some(Asked::Version) => return Ok(Parsed::Version),
            None => {}
        }
    }
    check_whole(o).map(|o| Parsed::Run(Box::new(o)))
}

/// The error for an option word the command does not take: in a run, one of `ab`'s is said
/// to be `ab`'s.
fn unknown(word: &str, ab: bool) -> Error {
    match OPTIONS.iter().find(|o| o.section == Section::Ab && o.is(word)) {
        Some(o) if !ab => Error::usage(format!("{} is an option of 'unixbench ab', not of a run", o.name())),
        _ => base::options::unknown(word, if ab { &AB } else { &RUN }),
    }
}

/// `UB_OUTPUT_FILE_NAME` is the results' base name in the results directory, nothing more: no
/// `/` (a path elsewhere, or `../..` out of the directory), not `.` or `..`, no control
/// character.
fn check_file_name(name: &OsString) -> Result<()> {
    let s = name.to_string_lossy();
    let bad = if s.contains('/') {
        Some("it must be a file name, without '/'")
    } else if s == "." || s == ".." {
        Some("it must name a file")
    } else if s.chars().any(char::is_control) {
        Some("it must not hold control characters")
    } else {
        None
    };
    bad.map_or(Ok(()), |why| Err(invalid("UB_OUTPUT_FILE_NAME", name, why)))
}

/// `UB_SEMANTICS`'s release (unset: 6.0's).
fn env_semantics(v: Option<&OsString>) -> Result<Semantics> {
    v.map_or(Ok(Semantics::default()), |v| semantics("UB_SEMANTICS", v))
}

/// `UB_WATCHDOG_MARGIN`'s seconds: a number from 1 to a day.
fn watchdog_margin(v: &OsString) -> Result<f64> {
    match base::json::decimal::parse_f64(v.to_string_lossy().trim()) {
        Some(m) if (1.0..=86_400.0).contains(&m) => Ok(m),
        _ => Err(invalid("UB_WATCHDOG_MARGIN", v, "it must be seconds, from 1 to 86400")),
    }
}

/// `UB_NOISE`'s words: `off`, or `on` (the default). Another is refused, as a misspelt `off`
/// would otherwise measure with the reading the user meant to turn off.
fn noise_word(v: &OsString) -> Result<bool> {
    match v.to_str() {
        Some("off") => Ok(false),
        Some("on") => Ok(true),
        _ => Err(invalid("UB_NOISE", v, "it must be off, or on (the default)")),
    }
}

/// A test or group word: its tests join the list. `after` is the option of an optional value
/// given without one just before it, whose value the word may have been meant as.
fn add_tests(o: &mut Options, name: &str, after: Option<&Opt>) -> Result<()> {
    match suite::expand(name) {
        Some(t) => {
            o.tests.extend(t);
            Ok(())
        }
        None => {
            let shown = crate::args::escaped(name);
            let hint = match after {
                // Both such options are long ones.
                Some(opt) => format!(" (did you mean --{}={shown}?)", opt.long.unwrap_or_default()),
                None => base::suggest::did_you_mean(&base::suggest::closest(name, test_and_group_names())),
            };
            // One short line: the lists are behind `--help`.
            Err(Error::usage(format!(
                "unknown test or group '{shown}'{hint}; 'unixbench run --help' lists them"
            )))
        }
    }
}

/// Every test's name, then every group's: one list for each caller's search or completion,
/// where an iterator of its own would copy the code that reads it.
pub fn test_and_group_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = suite::TESTS.iter().map(|t| t.name).collect();
    names.extend(suite::group_names());
    names
}

/// The checks and defaults that take the whole command line and the environment.
fn check_whole(mut o: Options) -> Result<Options> {
    if let Some(name) = &o.env.file_name {
        check_file_name(name)?;
    }
    o.watchdog_margin = o.env.watchdog.as_ref().map(watchdog_margin).transpose()?;
    if o.semantics.is_none() {
        o.semantics = Some(env_semantics(o.env.semantics.as_ref())?);
    }
    o.noise = o.env.noise.as_ref().map(noise_word).transpose()?.unwrap_or(true);
    if o.quick.is_some() && (o.duration.is_some() || o.iterations.is_some()) {
        return Err(Error::usage(format!(
            "--quick and {} exclude each other: a quick run chooses its own pass durations and counts",
            if o.duration.is_some() { "-t" } else { "-i" }
        )));
    }
    if o.seed.is_some() && o.rounds == Some(false) {
        return Err(Error::usage("--seed and --no-rounds exclude each other: the seed orders rounds"));
    }
    if o.json.is_none() && o.save && o.env.json {
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
    Ok(o)
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
            Parsed::Run(o) => Ok(*o),
            other => panic!("{other:?}"),
        }
    }

    /// One word for rounds: `--rounds`/`--no-rounds`, and the names they shipped with parse to
    /// the same, offered nowhere.
    #[test]
    fn rounds_by_their_name_and_by_the_old_one() {
        for (i, name) in [(8, "rounds"), (9, "no-rounds")] {
            assert_eq!(OPTIONS[ROUNDS_ALIASES[i - 8].1].spec.long, Some(name));
        }
        assert_eq!(run(&["--rounds", "pipe"]).unwrap().rounds, Some(true));
        assert_eq!(run(&["--interleave", "pipe"]).unwrap().rounds, Some(true));
        assert_eq!(run(&["--no-interleave", "pipe"]).unwrap().rounds, Some(false));
        assert!(!help().contains("interleave"), "{}", help());
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
        // A separate word is a test name, not the budget; the error suggests it attached, as it
        // does for the other option of an optional value, and for nothing else.
        for (args, said) in [
            (&["--quick", "300"][..], "unknown test or group '300' (did you mean --quick=300?)"),
            (&["--json", "out.json"], "unknown test or group 'out.json' (did you mean --json=out.json?)"),
            (&["--quick", "pipe", "300"], "unknown test or group '300'; "),
            (&["--quick=9", "300"], "unknown test or group '300'; "),
        ] {
            let e = run(args).unwrap_err();
            assert_eq!(e.exit_code(), 2);
            assert!(e.to_string().starts_with(said) && !e.to_string().contains('\n'), "{args:?}: {e}");
        }
        assert_eq!(run(&["--quick", "pipe"]).unwrap().tests, ["pipe"]);
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

    /// A value each kind of argument accepts, by the name the table gives it.
    fn sample(metavar: &str) -> &'static str {
        match metavar {
            "N" | "SECONDS" => "2",
            "DIR" => "d",
            "FORMAT" => "json",
            "FILE" => "f.json",
            "IMAGE" => "static",
            "RELEASE" => "5.1.3",
            "CMD" => "nice -n 5",
            "PATH" => "/bin/true",
            "NAME" => "old",
            "PCT" => "2",
            other => panic!("no sample value for {other}"),
        }
    }

    #[test]
    fn every_option_of_the_table_parses_in_each_of_its_forms() {
        for o in OPTIONS {
            let mut words: Vec<Vec<String>> = Vec::new();
            let names: Vec<String> = o
                .short
                .map(|c| format!("-{c}"))
                .into_iter()
                .chain(o.long.map(|l| format!("--{l}")))
                .collect();
            for n in &names {
                words.push(match o.takes {
                    Takes::Nothing => vec![n.clone()],
                    Takes::Value(m) => vec![n.clone(), sample(m).to_string()],
                    Takes::Optional(m) if n.starts_with("--") => vec![format!("{n}={}", sample(m))],
                    Takes::Optional(_) => vec![n.clone()],
                });
                if let Takes::Optional(_) = o.takes {
                    words.push(vec![n.clone()]);
                }
            }
            assert!(!words.is_empty(), "{} has no form", o.forms());
            for w in words {
                let args: Vec<OsString> = w.iter().map(OsString::from).collect();
                let ab = o.section == Section::Ab;
                let p = parse_for(args, Environment::default(), ab).unwrap_or_else(|e| panic!("{w:?}: {e}"));
                let default = parse_for(Vec::new(), Environment::default(), ab).unwrap();
                assert_ne!(p, default, "{w:?} changed nothing");
            }
        }
    }

    /// A run's table is the entries before ab's: they come last.
    #[test]
    fn abs_options_come_last() {
        let first_ab = OPTIONS.iter().position(|o| o.section == Section::Ab).unwrap();
        assert!(OPTIONS[first_ab..].iter().all(|o| o.section == Section::Ab));
        assert_eq!(RUN.specs().len(), first_ab);
        assert_eq!(AB.specs().len(), OPTIONS.len());
    }

    /// Every word a value list offers parses, and a word of none is refused naming the list:
    /// what the completions offer is what the parsing takes.
    #[test]
    fn every_offered_value_parses() {
        for o in OPTIONS {
            let Values::Words(words) = o.values else { continue };
            let ab = o.section == Section::Ab;
            for w in words.iter() {
                let args = vec![OsString::from(o.name()), OsString::from(*w)];
                parse_for(args, Environment::default(), ab)
                    .unwrap_or_else(|e| panic!("{} {w}: {e}", o.name()));
            }
            let e = parse_for(vec![o.name().into(), "nope".into()], Environment::default(), ab).unwrap_err();
            assert!(e.to_string().ends_with(&base::options::one_of(words)), "{e}");
        }
    }

    #[test]
    fn the_helps_and_the_errors_come_from_the_table() {
        let (run, ab, brief) = (help(), ab_help(), brief_help());
        for o in OPTIONS {
            let f = o.forms();
            // ab's help lists a run's options too; a run's lists none of ab's.
            let h = if o.section == Section::Ab { &ab } else { &run };
            assert!(ab.contains(&f), "{f}");
            assert_eq!(run.contains(&format!("  {f} ")), o.section != Section::Ab, "{f}");
            let first = o.help.lines().next().unwrap();
            assert!(h.lines().any(|l| l.trim_start().starts_with(&f) && l.contains(first)), "{f}");
            assert!(o.help.lines().all(|l| h.contains(l)), "{f}");
            if let Some(b) = o.brief {
                let f = o.brief_forms();
                assert!(brief.lines().any(|l| l.trim_start().starts_with(&f) && l.ends_with(b)), "{f}");
            }
        }
        for (name, about) in ENVIRONMENT {
            assert!(run.lines().any(|l| l.trim_start().starts_with(name) && l.ends_with(about)), "{name}");
        }
    }

    /// The usage reference (docs/USAGE.md, with the README) names every option and every
    /// environment variable of the driver.
    #[test]
    fn the_usage_reference_names_every_option_and_variable() {
        let readme = [include_str!("../../../README.md"), include_str!("../../../docs/USAGE.md")].concat();
        for o in OPTIONS {
            let named = o.long.is_some_and(|l| readme.contains(&format!("--{l}")))
                || o.short.is_some_and(|c| {
                    readme.contains(&format!("`-{c}")) || readme.contains(&format!(" -{c} "))
                });
            assert!(named, "docs/USAGE.md does not name {}", o.forms());
        }
        for (name, _) in ENVIRONMENT {
            assert!(readme.contains(name), "docs/USAGE.md does not name {name}");
        }
    }

    /// `--format`'s help lines, its short help and its error name every format of the report.
    #[test]
    fn the_format_option_names_every_format() {
        let o = OPTIONS.iter().find(|o| o.long == Some("format")).unwrap();
        let help = o.help.replace('\n', " ");
        let e = run(&["--format", "svg"]).unwrap_err().to_string();
        for (name, _) in Format::ALL {
            assert!(help.contains(name) && o.brief.unwrap().contains(name), "{name}");
            assert!(e.contains(name), "{e}");
        }
    }

    /// A bad value is shown as every word of the command line is: escaped, on one line.
    #[test]
    fn a_bad_format_or_exec_image_is_shown_on_one_line() {
        for opt in ["--format", "--exec-image"] {
            let e = run(&[opt, "sv\ng"]).unwrap_err().to_string();
            assert!(e.starts_with(&format!("invalid {opt} 'sv\\ng': expected ")), "{e}");
        }
    }

    #[test]
    fn a_near_miss_is_answered_with_the_closest_names() {
        let e = run(&["--quik"]).unwrap_err().to_string();
        assert!(e.starts_with("unknown option '--quik' (did you mean --quick?)"), "{e}");
        assert!(!e.contains("allowed:"), "{e}");
        let e = run(&["--frob"]).unwrap_err().to_string();
        assert_eq!(e, "unknown option '--frob'; every option: 'unixbench run --help'");
        let e = run(&["pipee"]).unwrap_err().to_string();
        assert!(e.starts_with("unknown test or group 'pipee' (did you mean pipe?)"), "{e}");
    }

    #[test]
    fn the_results_name_from_the_environment_is_a_plain_file_name() {
        for (name, ok) in [
            ("run1", true),
            ("a.b-c", true),
            ("../../x", false),
            ("/etc/x", false),
            ("..", false),
            (".", false),
            ("a\nb", false),
        ] {
            let env = Environment { file_name: Some(name.into()), ..Environment::default() };
            let r = parse_in(Vec::new(), env);
            assert_eq!(r.is_ok(), ok, "{name:?}");
            if let Err(e) = r {
                assert_eq!(e.exit_code(), 2);
                let m = e.to_string();
                assert!(m.starts_with("invalid UB_OUTPUT_FILE_NAME") && !m.contains('\n'), "{m}");
            }
        }
    }

    #[test]
    fn the_environment_is_read_into_the_options() {
        let env = Environment { json: true, ..Environment::default() };
        let o = match parse_in(Vec::new(), env).unwrap() {
            Parsed::Run(o) => *o,
            other => panic!("{other:?}"),
        };
        assert_eq!(o.json, Some(JsonOut::Beside));
    }

    #[test]
    fn knows_tests_and_groups() {
        for n in ["index", "pipe", "shell8", "load", "C", "gindex", "all", "2d-rects"] {
            assert!(knows(n), "{n}");
        }
        assert!(!knows("frobnicate"));
    }
}
