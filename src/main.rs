//! `unixbench`: the BYTE UNIX Benchmarks as one multicall binary.
//!
//! Dispatch, BusyBox-style: the basename of argv[0] (a leading `-` dropped) names an applet ->
//! run it. Otherwise the first argument names an applet or a command (`--list`, `--install`,
//! `--version`, `--help`, `run`, `compare`); anything else that looks like Run's command line (an
//! option or a test or group name, or nothing at all) goes to the driver. This is the one place that
//! prints an error and maps it to the exit status.

mod applets;
mod args;
mod baselines;
mod compare;
mod cpulimit;
mod driver;
mod error;
mod hosttools;
mod json;
mod kernels;
mod protocol;
mod quick;
mod report;
mod selfexe;
mod sort;
#[allow(dead_code)] // Until the exporters call it.
mod stats;
mod suite;
mod sys;
mod timing;
mod workdir;

use error::Error;
use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

const HELP: &str = "\
unixbench: the BYTE UNIX Benchmarks (UnixBench 6.0.0-compatible) in one static binary

Usage:
  unixbench [-q|-b|-v] [-i N] [-c N ...] [TEST|GROUP ...]   run tests as UnixBench's ./Run does
  unixbench run [OPTIONS] [TEST|GROUP ...]                    the same, for test names that are
                                                              also program names (pipe, execl, ...)
  unixbench compare [--format F] FILE...                      compare results files (JSON or text
                                                              reports, ours or the C UnixBench's)
  unixbench PROGRAM [ARGS...]                                 run one kernel (see --list)
  PROGRAM [ARGS...]                                           the same, through a link named PROGRAM
  unixbench --list                                            print the program names
  unixbench --install [-s] DIR                                make a link per program in DIR
                                                              (symbolic with -s, hard otherwise)
  unixbench --version | --help | PROGRAM --help

With no arguments, runs the standard index. `unixbench run --help` lists the driver's options.
";

fn main() -> ExitCode {
    // The C programs start with SIGPIPE at its default; Rust's runtime ignores it. Restore it so
    // kernels and their children behave as the originals, and `unixbench --list | head` is quiet.
    let _ = sys::signal::default(libc::SIGPIPE);
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
                let _ = writeln!(std::io::stderr(), "{who}: {msg}");
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
        return (a.name.to_string(), run_applet(a, argv));
    }
    argv.remove(0);
    let first = argv.first().map(|a| a.to_string_lossy().into_owned());
    let me = "unixbench".to_string();
    match first.as_deref() {
        None => (me, driver::main(argv)),
        Some("--list") => (me, list()),
        Some("--install") => (me, install(&argv[1..])),
        Some("--version" | "-V") => {
            println!("unixbench {} (BYTE UNIX Benchmarks 6.0.0-compatible)", env!("CARGO_PKG_VERSION"));
            (me, Ok(()))
        }
        Some("--help" | "-h") => {
            print!("{HELP}");
            (me, Ok(()))
        }
        Some("compare") => (me, compare::main(argv.split_off(1))),
        Some("run") => {
            argv.remove(0);
            (me, driver::main(argv))
        }
        Some(name) => match applets::find(name) {
            Some(a) => (a.name.to_string(), run_applet(a, argv)),
            None if name.starts_with('-') || driver::knows(name) => (me, driver::main(argv)),
            None => (me, Err(Error::usage(format!("unknown program '{name}' (try 'unixbench --list')")))),
        },
    }
}

fn run_applet(a: &applets::Applet, mut argv: Vec<OsString>) -> error::Result {
    argv[0] = OsString::from(a.name);
    // lmbench documents its own options; the kernels take the C programs' arguments only.
    if a.name != "lmbench" && matches!(argv.get(1).and_then(|s| s.to_str()), Some("--help")) {
        print!("{}", applets::usage(a));
        return Ok(());
    }
    (a.entry)(argv)
}

fn list() -> error::Result {
    let mut out = std::io::stdout().lock();
    for a in applets::APPLETS {
        let _ = writeln!(out, "{}", a.name);
    }
    Ok(())
}

/// `--install [-s] DIR`: one link per applet, as BusyBox's `--install`.
fn install(args: &[OsString]) -> error::Result {
    let (symbolic, dir) = match args {
        [s, d] if s == "-s" => (true, d),
        [d] if d != "-s" => (false, d),
        _ => return Err(Error::usage("usage: unixbench --install [-s] DIR")),
    };
    let dir = Path::new(dir);
    if !dir.is_dir() {
        return Err(Error::usage(format!("--install: '{}' is not a directory", dir.display())));
    }
    let me = selfexe::path().map_err(Error::failed)?;
    for a in applets::APPLETS {
        let link = dir.join(a.name);
        let made =
            if symbolic { std::os::unix::fs::symlink(&me, &link) } else { std::fs::hard_link(&me, &link) };
        made.map_err(|e| Error::failed(format!("--install: cannot create {}: {e}", link.display())))?;
    }
    Ok(())
}
