//! `unixbench`: the BYTE UNIX Benchmarks as one multicall binary.
//!
//! Dispatch, BusyBox-style: the basename of argv[0] (a leading `-` dropped) names an applet ->
//! run it, under that name in the process table. Otherwise the first argument names an applet
//! or a command (`--list`, `--install`, `--dropin`, `--man`, `--completions`, `--version`,
//! `--help`, `help`, `version`, `run`, `compare`; `help NAME` is `NAME --help`); anything else
//! that looks like Run's command line (an option or a test or group name, or nothing at all)
//! goes to the driver. This is the one place that prints an error and maps it to the exit
//! status.
//!
//! The binary is its own C `main`, without std's runtime entry (docs/SIZE.md): the arguments
//! come from `sys::entry`, and so does the end, which flushes stdout as std's return from `main`
//! would.

#![cfg_attr(not(test), no_main)]

mod applets;
mod kernels;

// base, in scope as `crate::sys`, `crate::timing`, ... as in every crate (ARCHITECTURE.md, "The map").
use base::{args, error, protocol, selfexe, sys, timing};
use driver::cli::{self, no_more};
use driver::{install, manual};

use std::ffi::{c_int, OsStr, OsString};
use std::path::Path;

/// The C `main`. (In this crate's tests the harness's `main` takes its place, as it would a
/// Rust `main`'s.)
#[cfg_attr(not(test), no_mangle)]
extern "C" fn main(argc: c_int, argv: sys::entry::Argv) -> c_int {
    // SIGPIPE at its default, as the C programs run, so that kernels and their children behave
    // as the originals and `unixbench --list | head` is quiet. std's runtime, which ignored it,
    // no longer runs, but the parent may have left it ignored.
    let _ = sys::signal::default(libc::SIGPIPE);
    // A closed stdout must stay an error to write to, not become the first file opened.
    let _ = sys::fd::reserve_std_fds();
    base::version::set_build(base::version::Build {
        target: env!("UNIXBENCH_TARGET"),
        commit: env!("UNIXBENCH_COMMIT"),
    });
    let mut argv = sys::entry::args(argc, argv);
    if argv.is_empty() {
        argv.push(OsString::from("unixbench"));
    }
    selfexe::set_argv0(argv[0].clone());
    let (who, result) = dispatch(argv);
    let code = match result {
        Ok(()) => 0,
        Err(e) => {
            if let Some(msg) = e.message() {
                // One line whatever a name in it holds (a path, a file's string); never held
                // up by a stderr nobody reads once a stop has begun.
                let _ = error::write_console(2, format!("{who}: {}\n", args::escaped(msg)).as_bytes());
            }
            e.exit_code().clamp(0, 255)
        }
    };
    sys::entry::exit(code)
}

/// What the command line asks for. Each kind is carried out in one place, [`dispatch`].
enum Do {
    /// Run an applet; with the test hint when it was named by the first argument.
    Applet(&'static applets::Applet, Vec<OsString>, bool),
    Driver(Vec<OsString>),
    /// Print a text to stdout.
    Print(error::Result<String>),
    Done(error::Result),
}

/// Returns the name to prefix an error with, and the outcome.
fn dispatch(argv: Vec<OsString>) -> (&'static str, error::Result) {
    let (who, what) = route(argv);
    let result = match what {
        Do::Applet(a, mut argv, hint) => {
            argv[0] = OsString::from(a.name);
            let r = (a.entry)(argv);
            if hint {
                r.map_err(|e| cli::test_hint(e, a.name))
            } else {
                r
            }
        }
        Do::Driver(argv) => driver::main(argv),
        Do::Print(text) => text.and_then(|t| error::print(&t)),
        Do::Done(r) => r,
    };
    (who, result)
}

fn route(mut argv: Vec<OsString>) -> (&'static str, Do) {
    let base = Path::new(&argv[0]).file_name().map(OsStr::to_string_lossy).unwrap_or_default().into_owned();
    let base = base.trim_start_matches('-');
    if let Some(a) = applets::find(base) {
        // The process table's name is the executable's file name (`unixbench`); a copy the
        // driver runs as `pipe` shows as `pipe` in ps, top and pgrep, as C's program does.
        sys::proc::set_name(a.name);
        return (a.name, applet(a, argv, false));
    }
    argv.remove(0);
    cli::help_argv(&mut argv);
    let first = argv.first().map(|a| a.to_string_lossy().into_owned());
    let names = applets::names();
    let then = |text: fn() -> String| Do::Print(no_more(&argv).map(|()| text()));
    let what = match first.as_deref() {
        None => Do::Driver(argv),
        Some("--list") => Do::Done(no_more(&argv).and_then(|()| cli::list(&names))),
        Some("--install") => Do::Done(install::install(&argv[1..], &names)),
        Some("--dropin") => Do::Done(install::dropin(&argv[1..], &names)),
        Some("--man") => then(|| manual::man(cli::USAGE, &COMMANDS[2..])),
        Some("--completions") => Do::Done(cli::completions(&argv, &names, &COMMANDS)),
        Some("--version" | "-V" | "version") => then(base::version::full),
        Some("--help" | "-h" | "help") => Do::Print(cli::help_for(&argv)),
        Some("compare") => Do::Done(compare::main(argv.split_off(1))),
        Some("ab") => Do::Done(driver::ab::main(argv.split_off(1))),
        Some("run") => Do::Driver(argv.split_off(1)),
        Some(name) => match applets::find(name) {
            Some(a) => return (a.name, applet(a, argv, true)),
            None if name.starts_with('-') || driver::knows(name) => Do::Driver(argv),
            None => Do::Done(Err(cli::unknown_program(name, &names))),
        },
    };
    ("unixbench", what)
}

/// Every command's option table, the run's first (the man page and the completions are made of
/// them; the driver, below compare, sees only its own).
const COMMANDS: [&base::options::Command; 4] =
    [&driver::options::RUN, &driver::options::AB, &compare::COMMAND, &lmbench::COMMAND];

fn applet(a: &'static applets::Applet, argv: Vec<OsString>, hint: bool) -> Do {
    // lmbench and Run document their own options; the kernels take the C programs' only.
    if !matches!(a.name, "lmbench" | "Run")
        && matches!(argv.get(1).and_then(|s| s.to_str()), Some("--help" | "-h"))
    {
        return Do::Print(Ok(applets::usage(a)));
    }
    Do::Applet(a, argv, hint)
}
