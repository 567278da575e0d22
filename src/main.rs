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

// base, in scope as `crate::sys`, `crate::timing`, ... as in every crate (ARCHITECTURE.md, "The map").
use base::{args, error, protocol, selfexe, sys, timing};
use driver::cli::{self, no_more};
use driver::{install, manual};

use std::ffi::{OsStr, OsString};
use std::path::Path;
use std::process::ExitCode;

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
        Some("--list") => (me, no_more(&argv).and_then(|()| cli::list(&applets::names()))),
        Some("--install") => (me, install::install(&argv[1..], &applets::names())),
        Some("--dropin") => (me, install::dropin(&argv[1..], &applets::names())),
        Some("--man") => (me, no_more(&argv).and_then(|()| error::print(&manual::man(cli::USAGE)))),
        Some("--completions") => (me, cli::completions(&argv, &applets::names())),
        Some("--version" | "-V" | "version") => {
            (me, no_more(&argv).and_then(|()| error::print(&base::version::full())))
        }
        Some("--help" | "-h" | "help") => (me, no_more(&argv).and_then(|()| error::print(&cli::help()))),
        Some("compare") => (me, compare::main(argv.split_off(1))),
        Some("ab") => (me, driver::ab::main(argv.split_off(1))),
        Some("run") => {
            argv.remove(0);
            (me, driver::main(argv))
        }
        Some(name) => match applets::find(name) {
            Some(a) => (a.name.to_string(), run_applet(a, argv).map_err(|e| cli::test_hint(e, name))),
            None if name.starts_with('-') || driver::knows(name) => (me, driver::main(argv)),
            None => (me, Err(cli::unknown_program(name, &applets::names()))),
        },
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
