//! `unixbench`: the BYTE UNIX Benchmarks as one multicall binary.
//!
//! Dispatch, BusyBox-style: the basename of argv[0] (a leading `-` dropped) names an applet ->
//! run it, under that name in the process table. Otherwise the first argument names an applet
//! or a command (`--list`, `--install`, `--dropin`, `--man`, `--completions`, `--version`,
//! `--help`, `help`, `version`, `run`, `compare`); anything else that looks like Run's command
//! line (an option or a test or group name, or nothing at all) goes to the driver. This is the
//! one place that prints an error and maps it to the exit status.

mod applets;
mod kernels;

// base, in scope as `crate::sys`, `crate::timing`, ... as in every crate (ARCHITECTURE.md, "Crates").
use base::{args, error, protocol, selfexe, sys, timing};
use driver::{install, manual};

use error::Error;
use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::ExitCode;

const HELP: &str = "\
unixbench: the BYTE UNIX Benchmarks (UnixBench 6.0.0-compatible) in one static binary

Usage:
";

/// The commands, which the manual's synopsis shows too.
const USAGE: &str = "\
  unixbench [OPTIONS] [TEST|GROUP ...]   run tests as UnixBench's ./Run does (the index by
                                         default: about 28 minutes per copy count)
  unixbench run [OPTIONS] [TEST|GROUP ...]
                                         the same, for test names that are also program names
  Run [OPTIONS] [TEST|GROUP ...]         the same, through a link named Run: every word is
                                         Run's, and results/ and tmp/ are beside the link
  unixbench compare [--format F] FILE... compare results (reports, logs, JSON; ours or C's)
  unixbench lmbench [-s] [--only ...]    lmbench's latency and bandwidth table for this host
  unixbench PROGRAM [ARGS...]            run one kernel (the programs: --list)
  PROGRAM [ARGS...]                      the same, through a link named PROGRAM
  unixbench --list                       print the program names
  unixbench --install [-s] DIR           make a link per program in DIR (symbolic with -s)
  unixbench --dropin DIR                 make DIR a UnixBench directory for wrapper scripts:
                                         Run, pgms/ (every program), results/, tmp/
  unixbench help | version               this help, the version (also --help, -h, --version)
  unixbench --man | --completions SHELL  the manual page unixbench(1); bash, zsh or fish's
                                         completions (make install installs both)
";

const HELP_OPTIONS: &str = "
The options people reach for (all of them: unixbench run --help):
";

const HELP_END: &str = "\n\
`PROGRAM --help` (or -h) prints one program's usage; `compare --help`, `lmbench --help` theirs.
";

fn main() -> ExitCode {
    // The C programs start with SIGPIPE at its default; Rust's runtime ignores it. Restore it so
    // kernels and their children behave as the originals, and `unixbench --list | head` is quiet.
    let _ = sys::signal::default(libc::SIGPIPE);
    // A closed stdout must stay an error to write to, not become the first file opened.
    let _ = sys::fd::reserve_std_fds();
    base::version::set_build(base::version::Build {
        target: env!("UNIXBENCH_TARGET"),
        commit: env!("UNIXBENCH_COMMIT"),
    });
    let mut argv: Vec<OsString> = std::env::args_os().collect();
    if argv.is_empty() {
        argv.push(OsString::from("unixbench"));
    }
    selfexe::set_argv0(argv[0].clone());
    let (who, result) = dispatch(argv);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(msg) = e.message() {
                // One line whatever a name in it holds (a path, a file's string); never held
                // up by a stderr nobody reads once a stop has begun.
                let _ = error::write_console(2, format!("{who}: {}\n", args::escaped(msg)).as_bytes());
            }
            ExitCode::from(e.exit_code().clamp(0, 255) as u8)
        }
    }
}

/// Returns the name to prefix an error with, and the outcome.
fn dispatch(mut argv: Vec<OsString>) -> (String, error::Result) {
    let base = Path::new(&argv[0]).file_name().map(OsStr::to_string_lossy).unwrap_or_default().into_owned();
    let base = base.trim_start_matches('-');
    if let Some(a) = applets::find(base) {
        // The process table's name is the executable's file name (`unixbench`); a copy the
        // driver runs as `pipe` shows as `pipe` in ps, top and pgrep, as C's program does.
        sys::proc::set_name(a.name);
        return (a.name.to_string(), run_applet(a, argv));
    }
    argv.remove(0);
    let first = argv.first().map(|a| a.to_string_lossy().into_owned());
    let me = "unixbench".to_string();
    match first.as_deref() {
        None => (me, driver::main(argv)),
        Some("--list") => (me, no_more(&argv).and_then(|()| list())),
        Some("--install") => (me, install::install(&argv[1..], &applets::names())),
        Some("--dropin") => (me, install::dropin(&argv[1..], &applets::names())),
        Some("--man") => (me, no_more(&argv).and_then(|()| error::print(&manual::man(USAGE)))),
        Some("--completions") => (me, completions(&argv)),
        Some("--version" | "-V" | "version") => {
            (me, no_more(&argv).and_then(|()| error::print(&base::version::full())))
        }
        Some("--help" | "-h" | "help") => (me, no_more(&argv).and_then(|()| error::print(&help()))),
        Some("compare") => (me, compare::main(argv.split_off(1))),
        Some("run") => {
            argv.remove(0);
            (me, driver::main(argv))
        }
        Some(name) => match applets::find(name) {
            Some(a) => (a.name.to_string(), run_applet(a, argv).map_err(|e| test_hint(e, name))),
            None if name.starts_with('-') || driver::knows(name) => (me, driver::main(argv)),
            None => (me, Err(unknown_program(name))),
        },
    }
}

/// The error for a word that names no program, command, test or group: the closest names that
/// do, and where each kind is listed.
fn unknown_program(name: &str) -> Error {
    let names = applets::APPLETS
        .iter()
        .map(|a| a.name)
        .chain(manual::COMMANDS.iter().copied().filter(|c| !c.starts_with('-')))
        .chain(base::suite::TESTS.iter().map(|t| t.name))
        .chain(base::suite::group_names());
    let close = base::suggest::closest(name, names);
    Error::usage(format!(
        "unknown program '{}'{} (programs: 'unixbench --list'; tests and groups: 'unixbench run --help')",
        args::escaped(name),
        base::suggest::did_you_mean(&close)
    ))
}

/// A program given no arguments that refuses to run without them, where a test of that name
/// exists: the error says how that test is run through the driver.
fn test_hint(e: Error, name: &str) -> Error {
    match (e.exit_code(), e.message(), base::suite::test(name)) {
        (2, Some(m), Some(_)) if !m.contains("unixbench run") => Error::usage(format!(
            "{m} (this is the program {name}; the test of that name runs with: unixbench run {name})"
        )),
        _ => e,
    }
}

fn run_applet(a: &applets::Applet, mut argv: Vec<OsString>) -> error::Result {
    argv[0] = OsString::from(a.name);
    // lmbench and Run document their own options; the kernels take the C programs' only.
    if !matches!(a.name, "lmbench" | "Run")
        && matches!(argv.get(1).and_then(|s| s.to_str()), Some("--help" | "-h"))
    {
        return error::print(&applets::usage(a));
    }
    (a.entry)(argv)
}

fn list() -> error::Result {
    let mut out = String::new();
    for a in applets::APPLETS {
        out.push_str(a.name);
        out.push('\n');
    }
    error::print(&out)
}

/// `--list`, `--version` and `--help` take nothing after them: one line naming what follows.
fn no_more(argv: &[OsString]) -> error::Result {
    match argv.get(1) {
        None => Ok(()),
        Some(a) => Err(Error::usage(format!(
            "unexpected argument {} after {}",
            args::quoted(a),
            argv[0].to_string_lossy()
        ))),
    }
}

/// `--completions SHELL`: the script for one shell.
fn completions(argv: &[OsString]) -> error::Result {
    let shell = argv.get(1).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let programs = applets::names();
    match manual::completions(&shell, &programs) {
        Some(script) => no_more(&argv[1..]).and_then(|()| error::print(&script)),
        None => Err(Error::usage(format!(
            "--completions needs a shell: {} (got '{}')",
            manual::SHELLS.join(", "),
            args::escaped(&shell)
        ))),
    }
}

/// The top-level help: the commands, the options people reach for (from the driver's table of
/// options), the pointers to the rest.
fn help() -> String {
    format!("{HELP}{USAGE}{HELP_OPTIONS}{}{HELP_END}", driver::options::brief_help())
}
