//! Signals: the alarm that times every UnixBench kernel, handlers, masks.
//!
//! UnixBench's `wake_me()` installs a handler with glibc's BSD-semantics `signal()`: the handler
//! stays installed and interrupted system calls restart. [`on_signal`] does the same with
//! `sigaction(SA_RESTART)`; [`on_signal_interrupting`] leaves SA_RESTART off, for loops (fstime)
//! that must see EINTR.

use super::cvt;
use std::io;

/// A signal handler: a plain function taking the signal number. It may only do async-signal-safe
/// work: atomics, `write`, `unlink`, `_exit`.
pub type Handler = extern "C" fn(libc::c_int);

fn install(sig: i32, action: libc::sighandler_t, flags: i32) -> io::Result<()> {
    // SAFETY: sa is fully initialised (zeroed, then set); the handler is a valid extern "C" fn
    // or SIG_DFL/SIG_IGN.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = action;
        sa.sa_flags = flags;
        libc::sigemptyset(&mut sa.sa_mask);
        cvt(libc::sigaction(sig, &sa, std::ptr::null_mut())).map(drop)
    }
}

/// Installs `handler` for `sig` with restartable system calls (glibc `signal()` semantics).
pub fn on_signal(sig: i32, handler: Handler) -> io::Result<()> {
    install(sig, handler as usize as libc::sighandler_t, libc::SA_RESTART)
}

/// Installs `handler` for `sig` without SA_RESTART: blocking calls fail with EINTR.
pub fn on_signal_interrupting(sig: i32, handler: Handler) -> io::Result<()> {
    install(sig, handler as usize as libc::sighandler_t, 0)
}

/// A handler that also gets the signal's `siginfo_t` (installed with SA_SIGINFO).
pub type InfoHandler = extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void);

/// Installs an SA_SIGINFO `handler` for `sig` without SA_RESTART.
pub fn on_signal_info_interrupting(sig: i32, handler: InfoHandler) -> io::Result<()> {
    install(sig, handler as usize as libc::sighandler_t, libc::SA_SIGINFO)
}

/// Who sent a signal: the `si_pid` of the `siginfo_t` an SA_SIGINFO handler got (0 if none).
/// Linux puts the writer's own pid there for the SIGPIPE of a write to a broken pipe.
/// Async-signal-safe. Only for the pointer an SA_SIGINFO handler was given, which is why a
/// public function may take it raw (the lint cannot know the contract).
#[allow(clippy::not_unsafe_ptr_arg_deref)]
pub fn sender(info: *const libc::siginfo_t) -> i32 {
    if info.is_null() {
        return 0;
    }
    // SAFETY: a non-null pointer is the siginfo_t the kernel passed to the running handler.
    unsafe { (*info).si_pid() }
}

/// Restores the default action of `sig`.
pub fn default(sig: i32) -> io::Result<()> {
    install(sig, libc::SIG_DFL, 0)
}

/// Ignores `sig`.
pub fn ignore(sig: i32) -> io::Result<()> {
    install(sig, libc::SIG_IGN, 0)
}

/// `alarm(2)`: SIGALRM after `secs` seconds (0 cancels). Returns the seconds left of a previous
/// alarm. Not inherited across fork, which context1's end-of-test logic depends on.
pub fn alarm(secs: u32) -> u32 {
    // SAFETY: no preconditions.
    unsafe { libc::alarm(secs) }
}

/// `setitimer(ITIMER_REAL)`: SIGALRM once, after `secs` seconds, to the microsecond (alarm's
/// resolution is a whole second). musl's `alarm(n)` is this very call with `n` seconds, so a whole
/// number of seconds times exactly as `alarm` does. A value under 1 µs is rounded up to 1 µs,
/// since a zero timer would never fire.
pub fn alarm_after(secs: f64) {
    let us = (secs.max(0.0) * 1e6).round().max(1.0) as i64;
    let it = libc::itimerval {
        it_interval: libc::timeval { tv_sec: 0, tv_usec: 0 },
        it_value: libc::timeval { tv_sec: (us / 1_000_000) as _, tv_usec: (us % 1_000_000) as _ },
    };
    // SAFETY: `it` is a fully initialised itimerval; the old value is not asked for (null).
    unsafe { libc::setitimer(libc::ITIMER_REAL, &it, std::ptr::null_mut()) };
}

/// Before exec: SIGPIPE back to default (Rust's runtime ignores it) and an empty signal mask, so
/// the new image starts as it would from a shell. Async-signal-safe, callable after fork.
pub fn reset_for_exec() {
    // SAFETY: set is initialised by sigemptyset before use; the calls take valid pointers.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    }
}

/// `raise(3)`.
pub fn raise(sig: i32) {
    // SAFETY: no preconditions.
    unsafe { libc::raise(sig) };
}

/// Signal names: the one table, for the driver's messages and a copy's wait status.
const NAMES: [(i32, &str); 26] = [
    (libc::SIGHUP, "SIGHUP"),
    (libc::SIGINT, "SIGINT"),
    (libc::SIGQUIT, "SIGQUIT"),
    (libc::SIGILL, "SIGILL"),
    (libc::SIGTRAP, "SIGTRAP"),
    (libc::SIGABRT, "SIGABRT"),
    (libc::SIGBUS, "SIGBUS"),
    (libc::SIGFPE, "SIGFPE"),
    (libc::SIGKILL, "SIGKILL"),
    (libc::SIGUSR1, "SIGUSR1"),
    (libc::SIGSEGV, "SIGSEGV"),
    (libc::SIGUSR2, "SIGUSR2"),
    (libc::SIGPIPE, "SIGPIPE"),
    (libc::SIGALRM, "SIGALRM"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGCHLD, "SIGCHLD"),
    (libc::SIGCONT, "SIGCONT"),
    (libc::SIGSTOP, "SIGSTOP"),
    (libc::SIGTSTP, "SIGTSTP"),
    (libc::SIGXCPU, "SIGXCPU"),
    (libc::SIGXFSZ, "SIGXFSZ"),
    (libc::SIGVTALRM, "SIGVTALRM"),
    (libc::SIGPROF, "SIGPROF"),
    (libc::SIGIO, "SIGIO"),
    (libc::SIGPWR, "SIGPWR"),
    (libc::SIGSYS, "SIGSYS"),
];

/// The name of signal `sig` (`SIGTERM`), if it is a standard one.
pub fn name(sig: i32) -> Option<&'static str> {
    NAMES.iter().find(|&&(s, _)| s == sig).map(|&(_, n)| n)
}
