//! `context1 DURATION`: port of UnixBench 6.0's `context1.c`, "Pipe-based Context Switching".
//!
//! Two processes and two pipes: the parent writes its 8-byte counter into p1 and reads the
//! child's echo from p2; the child reads from p1 and writes its own counter back. Each side
//! checks the value it got against its own counter (`Master/Slave sync error`, exit 2).
//!
//! The end, as in the C master: the alarm is armed before `fork`, and `alarm` is not inherited,
//! so only the parent's SIGALRM fires; its handler prints `COUNT|n|1|lps` and exits. The child
//! then sees EOF (or EPIPE, SIGPIPE being ignored), cancels its alarm and prints its own COUNT
//! line, n or n+1. Both lines appear, the child's last, and Run keeps the last one. Under
//! `UB_SEMANTICS=5.1.3` the child ends silently with status 1, as 5.1.3's did, and the
//! master's line is the only one. A child
//! that dies before the alarm (killed, out of memory) fails the copy with how it ended; C's
//! master would report the truncated count as a valid sample.
//!
//! No CPU pinning: the figure depends heavily on whether the scheduler puts the two processes on
//! one CPU or two (docs/FIDELITY.md). Deviations: the duration is parsed strictly; error lines
//! are prefixed `context1:`.

use crate::args;
use crate::error::{Error, Result};
use crate::kernels::{child_die, reason};
use crate::sys::{self, fd, proc, signal};
use crate::timing::{self, tick, Unit};
use base::version::Semantics;
use std::ffi::OsString;
use std::os::unix::io::RawFd;

/// What a failed transfer means, as the C code decides after `write`/`read` != 8.
enum Failure {
    /// The partner is gone: report the count and exit 0.
    Report,
    /// A real error: print `<side> <op> failed: <reason>` (C's perror) and exit 1.
    Error(String),
    /// A short transfer or EINTR: C exits 1 without a message.
    Silent,
}

fn classify(ret: isize, partner_gone: bool, what: &str) -> Failure {
    if partner_gone {
        return Failure::Report;
    }
    let e = sys::errno();
    if ret == -1 && e != 0 && e != libc::EINTR {
        Failure::Error(format!("{what} failed: {}", reason(&std::io::Error::from_raw_os_error(e))))
    } else {
        Failure::Silent
    }
}

/// The child's end. Under 5.1.3's semantics the partner gone is no report: 5.1.3's child
/// exits 1 without a word (or dies of SIGPIPE), so the master's COUNT is the one scored.
fn slave_end(f: Failure, semantics: Semantics) -> Error {
    match (f, semantics) {
        (Failure::Report, Semantics::V513) => proc::exit_now(1),
        (f, _) => fail(f, true),
    }
}

/// Leaves the process after a failed transfer. `child` processes end with `_exit`.
fn fail(f: Failure, child: bool) -> Error {
    match f {
        Failure::Report => {
            signal::alarm(0);
            timing::report_and_exit()
        }
        Failure::Error(msg) if child => child_die("context1", &msg, 1),
        Failure::Error(msg) => Error::failed(msg),
        Failure::Silent if child => proc::exit_now(1),
        Failure::Silent => Error::Exit(1),
    }
}

fn write_fail(ret: isize, what: &str) -> Failure {
    classify(ret, ret == -1 && sys::errno() == libc::EPIPE, what)
}

fn read_fail(ret: isize, what: &str) -> Failure {
    classify(ret, ret == 0, what)
}

pub fn main(args: Vec<OsString>) -> Result {
    let duration = args::duration_only(&args)?;
    timing::report_on_alarm(duration, Unit::Lps);
    signal::ignore(libc::SIGPIPE).map_err(|e| Error::failed(format!("sigaction: {}", reason(&e))))?;
    let pipes = fd::pipe().and_then(|p1| fd::pipe().map(|p2| (p1, p2)));
    let ((p1r, p1w), (p2r, p2w)) =
        pipes.map_err(|e| Error::failed(format!("pipe create failed: {}", reason(&e))))?;
    match proc::fork() {
        Ok(proc::Fork::Parent(child)) => {
            drop(p1r);
            drop(p2w);
            Err(master(p1w.raw(), p2r.raw(), child))
        }
        Ok(proc::Fork::Child) => {
            drop(p1w);
            drop(p2r);
            Err(slave(p1r.raw(), p2w.raw(), Semantics::of_applet()))
        }
        Err(e) => Err(Error::failed(format!("fork failed: {}", reason(&e)))),
    }
}

/// The parent's answer to a partner gone before the alarm: C reports the count so far as a
/// valid sample; we fail the copy, saying how the partner ended (the child never ends first
/// on its own: only the parent has the alarm).
fn partner_died(f: Failure, child: i32) -> Error {
    if !matches!(f, Failure::Report) {
        return fail(f, false);
    }
    signal::alarm(0);
    let how = match proc::waitpid(child) {
        Ok((_, s)) if libc::WIFSIGNALED(s) => format!("was killed by signal {}", libc::WTERMSIG(s)),
        Ok((_, s)) if libc::WIFEXITED(s) => format!("exited with status {}", libc::WEXITSTATUS(s)),
        _ => "ended".to_string(),
    };
    Error::failed(format!(
        "the partner process {how} after {} round trips, before the end of the test: no valid sample",
        timing::count()
    ))
}

/// The parent: write p1, read p2, check. Returns only on an error.
fn master(to: RawFd, from: RawFd, child: i32) -> Error {
    let mut check = [0u8; 8];
    loop {
        let iter = timing::count();
        let ret = fd::write_raw(to, &iter.to_ne_bytes());
        if ret != 8 {
            return partner_died(write_fail(ret, "master write"), child);
        }
        let ret = fd::read_raw(from, &mut check);
        if ret != 8 {
            return partner_died(read_fail(ret, "master read"), child);
        }
        let got = u64::from_ne_bytes(check);
        if got != iter {
            return Error::failed_with(2, format!("Master sync error: expect {iter}, got {got}"));
        }
        tick();
    }
}

/// The child: read p1, check, write p2. Never returns into `main`.
fn slave(from: RawFd, to: RawFd, semantics: Semantics) -> Error {
    let mut check = [0u8; 8];
    loop {
        let ret = fd::read_raw(from, &mut check);
        if ret != 8 {
            return slave_end(read_fail(ret, "slave read"), semantics);
        }
        let iter = timing::count();
        let got = u64::from_ne_bytes(check);
        if got != iter {
            child_die("context1", &format!("Slave sync error: expect {iter}, got {got}"), 2);
        }
        let ret = fd::write_raw(to, &iter.to_ne_bytes());
        if ret != 8 {
            return slave_end(write_fail(ret, "slave write"), semantics);
        }
        tick();
    }
}
