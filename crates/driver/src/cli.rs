//! The top-level command line's words: the help (and `help NAME`), the errors for a word that
//! names nothing, `--list` and `--completions`. Dispatch itself stays in the binary, beside the
//! applet table; this is cold code, built for size, handed the programs' names.

use crate::error::{self, Error};
use crate::{args, manual};
use std::ffi::OsString;

pub const HELP: &str = "\
unixbench: the BYTE UNIX Benchmarks (UnixBench 6.0.0-compatible) in one static binary

Usage:
";

/// The commands: each usage, then what it does from the 42nd column, beside it or, when the
/// usage is too long, under it. The manual's SYNOPSIS has the usages, a line each, and its
/// COMMANDS each with what it does. (No `\` after the quote: it would eat the first indent.)
pub const USAGE: &str =
    "  unixbench [OPTIONS] [TEST|GROUP ...]   run tests as UnixBench's ./Run does (the index by
                                         default: about 28 minutes per copy count)
  unixbench run [OPTIONS] [TEST|GROUP ...]
                                         the same, for test names that are also program names
  Run [OPTIONS] [TEST|GROUP ...]         the same, through a link named Run: every word is
                                         Run's, and results/ and tmp/ are beside the link
  unixbench ab [--b-wrap CMD|--b-bin PATH|...] [OPTIONS] [TEST|GROUP ...]
                                         A against B on this host in the same rounds, each
                                         ratio with its 95% interval (ab --help)
  unixbench compare [--format F] FILE...
                                         compare results (reports, logs, JSON; ours or C's)
  unixbench lmbench [-s] [--only ...]    lmbench's latency and bandwidth table for this host
  unixbench PROGRAM [ARGS...]            run one kernel (the programs: --list)
  PROGRAM [ARGS...]                      the same, through a link named PROGRAM
  unixbench --list                       print the program names
  unixbench --install [-s] DIR           make a link per program in DIR (symbolic with -s)
  unixbench --dropin DIR                 make DIR a UnixBench directory for wrapper scripts:
                                         Run, pgms/ (every program), results/, tmp/
  unixbench help [NAME] | version        this help (also --help, -h), or what NAME --help
                                         prints; the version (also --version)
  unixbench --man | --completions SHELL  the manual page unixbench(1); bash, zsh or fish's
                                         completions (make install installs both)
";

pub const HELP_OPTIONS: &str = "
The options people reach for (all of them: unixbench run --help):
";

pub const HELP_END: &str = "\n\
`PROGRAM --help` (or -h) prints one program's usage; `ab --help`, `compare --help`, `lmbench --help` theirs.
";

/// The error for a word that names no program, command, test or group: the closest names that
/// do, and where each kind is listed.
pub fn unknown_program(name: &str, programs: &[&'static str]) -> Error {
    let mut names = programs.to_vec();
    names.extend(manual::first_words());
    let close = base::suggest::closest(name, names);
    Error::usage(format!(
        "unknown program '{}'{} (programs: 'unixbench --list'; tests and groups: 'unixbench run --help')",
        args::escaped(name),
        base::suggest::did_you_mean(&close)
    ))
}

/// A program given no arguments that refuses to run without them, where a test of that name
/// exists: the error says how that test is run through the driver.
pub fn test_hint(e: Error, name: &str) -> Error {
    match (e.exit_code(), e.message(), base::suite::test(name)) {
        (2, Some(m), Some(_)) if !m.contains("unixbench run") => Error::usage(format!(
            "{m} (this is the program {name}; the test of that name runs with: unixbench run {name})"
        )),
        _ => e,
    }
}

pub fn list(programs: &[&str]) -> error::Result {
    let mut out = String::new();
    for name in programs {
        out.push_str(name);
        out.push('\n');
    }
    error::print(&out)
}

/// `--list`, `--version` and `--help` take nothing after them: one line naming what follows.
pub fn no_more(argv: &[OsString]) -> error::Result {
    match argv.get(1) {
        None => Ok(()),
        Some(a) => Err(Error::usage(format!(
            "unexpected argument {} after {}",
            args::quoted(a),
            argv[0].to_string_lossy()
        ))),
    }
}

/// `--completions SHELL`: the script for one shell, for every command of `commands`.
pub fn completions(
    argv: &[OsString],
    programs: &[&'static str],
    commands: &[&base::options::Command],
) -> error::Result {
    let shell = argv.get(1).map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    match manual::completions(&shell, programs, commands) {
        Some(script) => no_more(&argv[1..]).and_then(|()| error::print(&script)),
        None => Err(Error::usage(format!(
            "--completions needs a shell: {} (got '{}')",
            manual::SHELLS.join(", "),
            args::escaped(&shell)
        ))),
    }
}

/// `help NAME` made `NAME --help`, which prints a command's, a program's, a test's or a group's
/// help, and names in one line what names nothing; but `help help`, `help version` and an
/// option after `help` are left to [`help_for`].
pub fn help_argv(argv: &mut [OsString]) {
    if let [help, name] = argv {
        let name = name.to_str().unwrap_or("-");
        if matches!(help.to_str(), Some("help" | "--help" | "-h"))
            && !name.starts_with('-')
            && !matches!(name, "help" | "version")
        {
            argv.swap(0, 1);
            argv[1] = OsString::from("--help");
        }
    }
}

/// `help` and `help NAME` where NAME is left to it ([`help_argv`]): the top-level help, which is
/// theirs; one line for a word after NAME.
pub fn help_for(argv: &[OsString]) -> error::Result<String> {
    no_more(argv.get(1..).unwrap_or_default()).map(|()| help())
}

/// The top-level help: the commands, the options people reach for (from the driver's table of
/// options), the pointers to the rest.
pub fn help() -> String {
    format!("{HELP}{USAGE}{HELP_OPTIONS}{}{HELP_END}", crate::options::brief_help())
}
