//! `looper [-i FILE] DURATION COMMAND [ARGS...]`: UnixBench's `looper.c`, the engine of the
//! shell-script, C compiler, dc and grep tests.
//!
//! Until SIGALRM after DURATION seconds: fork, the child `execvp`s COMMAND (exit 99 if it
//! cannot), the parent waits for it and counts one iteration. At the alarm it prints
//! `COUNT|<iterations>|60|lpm` on stderr and exits 0, leaving the in-flight child running, as
//! the C program does (docs/ORIGINAL.md, "looper and the shell scripts"): a caller that waits for EOF on the stderr pipe waits for it
//! too. The C program's messages and exit status 2 are kept: `Command "<cmd>" didn't exec` when
//! the child exits 99 (ours prefixed `looper: ` and followed by the reason, `: No such file or
//! directory`), `Bad wait status: 0x<status>` on any other non-zero status,
//! `Fork failed at iteration <n>` and `Reason: <error>` when fork fails.
//!
//! Deviations:
//! - Bad input (a missing, zero or non-numeric duration, a missing command) is one error line
//!   and exit 2; the C program prints a two-line usage text and exits 1, and `atoi` makes
//!   `looper abc true` a usage error too, but `looper 5x true` a 5-second run.
//! - `-i FILE` (ours, before the duration): every child gets FILE on its stdin, read from its
//!   start. The dc test needs it: in `looper 30 dc < dc.dat` all children share one file offset,
//!   so only the first dc sees the input (docs/ORIGINAL.md, "Quirks", item 5). The parent opens
//!   FILE once; each child makes it its stdin and rewinds it before exec, which costs one `dup2`
//!   and one `lseek` and never fails mid-run. FILE must be a regular (seekable) file. Without `-i`,
//!   the command line is the C program's, so UnixBench's Perl `Run` can drive this looper
//!   unchanged.
//! - The child resets SIGPIPE to its default and clears the signal mask before exec (the C
//!   program inherits both from a shell that has them so already).

use crate::args;
use crate::error::{Error, Result};
use crate::sys::fd::{self, Fd};
use crate::sys::proc::{self, Argv, Fork};
use crate::timing::{self, Unit};
use std::ffi::{CString, OsString};
use std::io::{self, Write};
use std::os::unix::ffi::OsStrExt;

/// The parsed command line.
#[derive(Debug, PartialEq)]
struct Options {
    /// `-i FILE`: the file every child reads on its stdin.
    input: Option<OsString>,
    /// Seconds until the alarm.
    duration: u32,
    /// The command and its arguments, as given.
    command: Vec<OsString>,
}

fn parse(argv: &[OsString]) -> Result<Options> {
    let mut rest = argv.get(1..).unwrap_or_default();
    let mut input = None;
    if rest.first().is_some_and(|a| a == "-i") {
        let file = rest.get(1).ok_or_else(|| Error::usage("option -i needs a FILE argument"))?;
        input = Some(file.clone());
        rest = &rest[2..];
    }
    let duration = match rest.first() {
        Some(d) => args::parse_duration(d)?,
        None => {
            return Err(Error::usage(
                "missing duration: usage is looper [-i FILE] DURATION COMMAND [ARGS...]",
            ))
        }
    };
    if rest.len() < 2 {
        return Err(Error::usage("missing command: usage is looper [-i FILE] DURATION COMMAND [ARGS...]"));
    }
    Ok(Options { input, duration, command: rest[1..].to_vec() })
}

/// An `io::Error` as `perror` prints it: the system's text without Rust's `(os error N)` tail.
fn reason(e: &io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Prints the C program's fatal message on stderr and leaves with status 2.
fn die(msg: std::fmt::Arguments) -> Error {
    let _ = io::stderr().write_fmt(msg);
    Error::Exit(2)
}

pub fn main(argv: Vec<OsString>) -> Result {
    let o = parse(&argv)?;
    let input = match &o.input {
        Some(path) => Some(open_input(path)?),
        None => None,
    };
    // Everything the child needs is built before the loop: it only dup2s, seeks and execs.
    let file = CString::new(o.command[0].as_bytes())
        .map_err(|_| Error::usage("invalid command: it contains a NUL byte"))?;
    let cargv = Argv::new(&o.command).map_err(|e| Error::usage(format!("invalid argument: {e}")))?;
    let input_fd = input.as_ref().map(Fd::raw);
    // A child that cannot exec writes its errno here (close-on-exec, so an exec'd command
    // never holds it), for the parent to say why.
    let (why_rd, why_wr) = fd::pipe_cloexec().map_err(|e| Error::failed(format!("pipe: {}", reason(&e))))?;
    fd::set_nonblocking(why_rd.raw()).map_err(|e| Error::failed(format!("pipe: {}", reason(&e))))?;

    timing::report_on_alarm(o.duration, Unit::Lpm);
    loop {
        match proc::fork() {
            Ok(Fork::Child) => {
                if let Some(fd) = input_fd {
                    // dup2 leaves the new descriptor 0 open across exec; the rewind gives this
                    // child the whole file (children run one after another, so the shared
                    // offset is never read by two at once).
                    if fd::dup2(fd, 0).is_err() || fd::seek_set(0, 0).is_err() {
                        proc::exit_now(99);
                    }
                }
                let e = proc::execvp(&file, &cargv);
                let _ = fd::write_raw(why_wr.raw(), &e.raw_os_error().unwrap_or(0).to_ne_bytes());
                proc::exit_now(99);
            }
            Ok(Fork::Parent(pid)) => {
                let status = match proc::waitpid(pid) {
                    Ok((_, status)) => status,
                    Err(e) => {
                        return Err(die(format_args!(
                            "Wait failed at iteration {}\nReason: {}\n",
                            timing::count(),
                            reason(&e)
                        )))
                    }
                };
                if status == 99 << 8 {
                    let mut errno = [0u8; 4];
                    let why = match fd::read(why_rd.raw(), &mut errno) {
                        Ok(4) => {
                            format!(": {}", reason(&io::Error::from_raw_os_error(i32::from_ne_bytes(errno))))
                        }
                        _ => String::new(),
                    };
                    // Escaped: the name is the caller's, and the message must stay one line.
                    return Err(die(format_args!(
                        "looper: Command \"{}\" didn't exec{why}\n",
                        args::escaped(&o.command[0].to_string_lossy())
                    )));
                } else if status != 0 {
                    return Err(die(format_args!("Bad wait status: 0x{status:x}\n")));
                }
                timing::tick();
            }
            Err(e) => {
                return Err(die(format_args!(
                    "Fork failed at iteration {}\nReason: {}\n",
                    timing::count(),
                    reason(&e)
                )))
            }
        }
    }
}

/// Opens `-i FILE` once, refusing what a child could not rewind.
fn open_input(path: &OsString) -> Result<Fd> {
    let shown = path.to_string_lossy();
    // Opened without blocking (a FIFO there is refused, not waited on), and checked on the
    // descriptor itself.
    let f = match fd::open_file(std::path::Path::new(path), fd::Open::Read) {
        Ok(f) => Some(Fd::from_raw(std::os::unix::io::IntoRawFd::into_raw_fd(f))),
        Err(e) if e.kind() == io::ErrorKind::InvalidInput => None,
        Err(e) => {
            let why = reason(&e);
            let why = why.rsplit_once(": ").map_or(why.as_str(), |(_, r)| r);
            return Err(Error::usage(format!("cannot open input file '{shown}': {why}")));
        }
    };
    match f {
        Some(f) if fd::seek_set(f.raw(), 0).is_ok() => Ok(f),
        _ => Err(Error::usage(format!("input file '{shown}' is not a regular file (it cannot be rewound)"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn plain_c_form_passes_options_through_to_the_command() {
        let o = parse(&os(&["looper", "30", "grep", "-c", "gimp", "large.txt"])).unwrap();
        assert_eq!(
            o,
            Options { input: None, duration: 30, command: os(&["grep", "-c", "gimp", "large.txt"]) }
        );
        let o = parse(&os(&["looper", "1", "-i", "x"])).unwrap();
        assert_eq!(o.command, os(&["-i", "x"]));
    }

    #[test]
    fn input_option_comes_before_the_duration() {
        let o = parse(&os(&["looper", "-i", "dc.dat", "30", "dc"])).unwrap();
        assert_eq!(o, Options { input: Some("dc.dat".into()), duration: 30, command: os(&["dc"]) });
    }

    #[test]
    fn bad_input_is_a_usage_error() {
        for (argv, needle) in [
            (&["looper"][..], "missing duration"),
            (&["looper", "0", "true"], "invalid duration '0'"),
            (&["looper", "abc", "true"], "invalid duration 'abc'"),
            (&["looper", "5"], "missing command"),
            (&["looper", "-i"], "-i needs a FILE"),
            (&["looper", "-i", "f"], "missing duration"),
        ] {
            let e = parse(&os(argv)).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{argv:?}");
            assert!(e.to_string().contains(needle), "{argv:?}: {e}");
        }
    }

    #[test]
    fn reason_reads_like_perror() {
        let e = io::Error::from_raw_os_error(libc::EAGAIN);
        assert!(!reason(&e).contains("os error"), "{}", reason(&e));
    }
}
