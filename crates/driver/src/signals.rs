//! Every terminating signal that can be caught (Ctrl-C, Ctrl-\, SIGTERM, SIGHUP, SIGUSR1/2,
//! SIGALRM, a SIGPIPE sent by another process, ...: [`SIGNALS`]) during a run: the handler only
//! records it and writes a byte into a self-pipe. Everything that waits (the settle between
//! passes, reading the copies' stderr) polls that pipe too, so a signal wakes it at once with no
//! race between "check the flag" and "block"; the console's writes too (`error::write_console`),
//! so that a reader that takes nothing never holds up a stop. The driver then kills the copies'
//! process groups, removes temp files, writes the report of the finished tests and exits 128 +
//! the signal number.

use crate::sys::{self, fd::Fd};
use std::io;
use std::os::unix::io::RawFd;
use std::sync::atomic::{AtomicI32, Ordering};

static CAUGHT: AtomicI32 = AtomicI32::new(0);
static WAKE_WR: AtomicI32 = AtomicI32::new(-1);

/// Every signal whose default action ends the process and that can be caught (the driver sets
/// no timer of its own, so SIGALRM, SIGVTALRM and SIGPROF come from someone else; SIGXCPU from
/// RLIMIT_CPU), but the real-time ones.
const SIGNALS: [i32; 13] = [
    libc::SIGINT,
    libc::SIGTERM,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGPIPE,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGIO,
    libc::SIGPWR,
];

/// The driver's pid, to tell the SIGPIPE of its own write to a closed stdout (the write fails
/// with EPIPE and is reported: the run goes on and saves its files) from one sent by kill.
static ME: AtomicI32 = AtomicI32::new(0);

fn on_signal(sig: i32, sender: i32) {
    if sig == libc::SIGPIPE && sender == ME.load(Ordering::SeqCst) {
        return;
    }
    // The first signal decides the exit status.
    let _ = CAUGHT.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
    // Before the wake-up: a console write it wakes must find the stop said.
    crate::error::console_stopping();
    let fd = WAKE_WR.load(Ordering::SeqCst);
    if fd >= 0 {
        // Non-blocking: a full pipe already holds a wake-up.
        let _ = sys::fd::write_raw(fd, &[1]);
    }
}

/// The installed handlers and their self-pipe. Dropping it restores the default actions.
pub struct Watch {
    rd: Fd,
    _wr: Fd,
}

impl Watch {
    /// Installs the handlers (without SA_RESTART, so blocking calls return EINTR).
    pub fn install() -> io::Result<Watch> {
        let (rd, wr) = sys::fd::pipe_cloexec()?;
        sys::fd::set_nonblocking(rd.raw())?;
        sys::fd::set_nonblocking(wr.raw())?;
        WAKE_WR.store(wr.raw(), Ordering::SeqCst);
        crate::error::wake_console_on(rd.raw());
        ME.store(sys::proc::getpid(), Ordering::SeqCst);
        for s in SIGNALS {
            sys::signal::on_signal_with_sender_interrupting(s, on_signal)?;
        }
        // A stop of the driver (Ctrl-Z, SIGSTOP) is then told from the pass it falls in.
        sys::signal::count_continues()?;
        Ok(Watch { rd, _wr: wr })
    }

    /// The descriptor that becomes readable when a signal arrives.
    pub fn fd(&self) -> RawFd {
        self.rd.raw()
    }

    /// The signal caught, if any.
    pub fn caught(&self) -> Option<i32> {
        caught()
    }

    /// Sleeps `secs` seconds unless a signal arrives first. Returns false if one did.
    pub fn sleep(&self, secs: f64) -> bool {
        let end = sys::clock::monotonic() + secs;
        loop {
            if self.caught().is_some() {
                return false;
            }
            let left = end - sys::clock::monotonic();
            if left <= 0.0 {
                return true;
            }
            let mut fds = [sys::fd::poll_in(self.fd())];
            let _ = sys::fd::poll(&mut fds, (left * 1000.0).ceil() as i32);
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        WAKE_WR.store(-1, Ordering::SeqCst);
        crate::error::wake_console_on(-1);
        for s in SIGNALS.into_iter().chain([libc::SIGCONT]) {
            let _ = sys::signal::default(s);
        }
    }
}

/// The signal caught, if any.
pub fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

/// The name of a signal the driver handles.
pub fn name(sig: i32) -> &'static str {
    sys::signal::name(sig).unwrap_or("a signal")
}
