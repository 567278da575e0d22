//! `syscall DURATION [mix|close|getpid|exec]`: port of UnixBench 6.0's `syscall.c`, the
//! "System Call Overhead" (mix) and "Exec System Call Overhead" (exec) tests.
//!
//! As the C master: the mode is picked by the first character of the second argument (so `m`,
//! `mumble` and `mix` all mean mix); mix and close `dup`/`close` a private descriptor (the read
//! end of a pipe whose write end is closed, C's `create_fd()`), mix calls the raw `SYS_getpid`
//! (no libc cache), `getuid` and `umask(022)`; exec forks, the child runs `/bin/true` and the
//! parent waits for it. SIGALRM prints `COUNT|n|1|lps` and exits. Under `UB_SEMANTICS=5.1.3`
//! mix and close `dup` fd 0 as 5.1.3 did, the stdin every copy shares.
//!
//! Deviations: a mode whose first character is none of m, c, g, e is a usage error (exit 2)
//! where C exits 9 silently; the duration is parsed strictly (C: `atoi`); a failed fork names the
//! iteration and the reason. The exec child resets SIGPIPE and the signal mask before `execv`
//! (two extra system calls in the child, next to an exec of hundreds of microseconds).

use crate::args;
use crate::error::{Error, Result};
use crate::kernels::{child_die, reason};
use crate::sys::{fd, proc};
use crate::timing::{self, tick, Unit};
use base::version::Semantics;
use std::ffi::{CString, OsString};
use std::os::unix::io::RawFd;

/// What each loop iteration does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Mix,
    Close,
    Getpid,
    Exec,
}

fn parse(args: &[OsString]) -> Result<(u32, Mode)> {
    let (dur, mode) = match args {
        [_, d] => (d, None),
        [_, d, m] => (d, Some(m)),
        [_] | [] => {
            return Err(Error::usage("missing duration: usage: syscall DURATION [mix|close|getpid|exec]"))
        }
        [_, _, _, extra, ..] => {
            return Err(Error::usage(format!(
                "unexpected argument '{}': usage: syscall DURATION [mix|close|getpid|exec]",
                extra.to_string_lossy()
            )))
        }
    };
    let duration = args::parse_duration(dur)?;
    let mode = match mode.map(|m| m.as_encoded_bytes().first().copied()) {
        None => Mode::Mix,
        Some(Some(b'm')) => Mode::Mix,
        Some(Some(b'c')) => Mode::Close,
        Some(Some(b'g')) => Mode::Getpid,
        Some(Some(b'e')) => Mode::Exec,
        Some(_) => {
            return Err(Error::usage(format!(
                "unknown test '{}': expected mix, close, getpid or exec",
                mode.map(|m| m.to_string_lossy()).unwrap_or_default()
            )))
        }
    };
    Ok((duration, mode))
}

/// C's `create_fd()`: a descriptor private to this process, cheap to `dup`.
fn create_fd() -> Result<fd::Fd> {
    let (r, w) = fd::pipe().map_err(|e| Error::failed(format!("pipe: {}", reason(&e))))?;
    drop(w);
    Ok(r)
}

/// The descriptor mix and close `dup`: 6.0's private one (and its owner), or under 5.1.3's
/// semantics the caller's stdin, fd 0, which every copy shares
/// (docs/ORIGINAL.md, "5.1.3 semantics").
fn descriptor(semantics: Semantics) -> Result<(Option<fd::Fd>, RawFd)> {
    match semantics {
        Semantics::V6 => create_fd().map(|owner| {
            let fd = owner.raw();
            (Some(owner), fd)
        }),
        Semantics::V513 => Ok((None, 0)),
    }
}

pub fn main(args: Vec<OsString>) -> Result {
    let (duration, mode) = parse(&args)?;
    match mode {
        Mode::Mix => {
            let (_owner, fd) = descriptor(Semantics::of_applet())?;
            timing::report_on_alarm(duration, Unit::Lps);
            loop {
                let _ = fd::dup(fd).and_then(fd::close);
                proc::getpid_raw();
                proc::getuid();
                fd::umask(0o022);
                tick();
            }
        }
        Mode::Close => {
            let (_owner, fd) = descriptor(Semantics::of_applet())?;
            timing::report_on_alarm(duration, Unit::Lps);
            loop {
                let _ = fd::dup(fd).and_then(fd::close);
                tick();
            }
        }
        Mode::Getpid => {
            timing::report_on_alarm(duration, Unit::Lps);
            loop {
                proc::getpid_raw();
                tick();
            }
        }
        Mode::Exec => exec_loop(duration),
    }
}

/// fork; the child execs `/bin/true`; the parent waits. Argument vectors are built before the
/// loop so the timed iterations do not allocate.
fn exec_loop(duration: u32) -> Result {
    let path = CString::new("/bin/true").expect("no NUL");
    let argv = proc::Argv::new(["/bin/true"]).expect("no NUL");
    timing::report_on_alarm(duration, Unit::Lps);
    loop {
        match proc::fork() {
            Ok(proc::Fork::Child) => {
                let e = proc::execv(&path, &argv);
                child_die("syscall", &format!("exec /bin/true failed: {}", reason(&e)), 1);
            }
            Ok(proc::Fork::Parent(pid)) => {
                if let Err(e) = proc::waitpid(pid) {
                    return Err(Error::failed(format!("waitpid failed: {}", reason(&e))));
                }
            }
            Err(e) => {
                return Err(Error::failed(format!(
                    "fork failed at iteration {}: {}",
                    timing::count(),
                    reason(&e)
                )))
            }
        }
        tick();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn modes_by_first_character() {
        assert_eq!(parse(&os(&["syscall", "5"])).unwrap(), (5, Mode::Mix));
        assert_eq!(parse(&os(&["syscall", "5", "mix"])).unwrap().1, Mode::Mix);
        assert_eq!(parse(&os(&["syscall", "5", "close"])).unwrap().1, Mode::Close);
        assert_eq!(parse(&os(&["syscall", "5", "g"])).unwrap().1, Mode::Getpid);
        assert_eq!(parse(&os(&["syscall", "5", "exec"])).unwrap().1, Mode::Exec);
        for bad in [&["syscall", "5", "fork"][..], &["syscall", "5", ""], &["syscall", "0"], &["syscall"]] {
            assert_eq!(parse(&os(bad)).unwrap_err().exit_code(), 2, "{bad:?}");
        }
        assert!(parse(&os(&["syscall", "5", "x"]))
            .unwrap_err()
            .to_string()
            .contains("mix, close, getpid or exec"));
    }
}
