//! Signals: the alarm that times every UnixBench kernel, handlers, masks.
//!
//! UnixBench's `wake_me()` installs a handler with glibc's BSD-semantics `signal()`: the handler
//! stays installed and interrupted system calls restart. [`on_signal`] does the same with
//! `sigaction(SA_RESTART)`; [`on_signal_interrupting`] leaves SA_RESTART off, for loops (fstime)
//! that must see EINTR.

use super::cvt;
use std::io;
use std::sync::atomic::AtomicPtr;
#[cfg(target_has_atomic = "64")]
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{Relaxed, SeqCst};
#[cfg(any(test, not(target_has_atomic = "64")))]
use std::sync::atomic::{compiler_fence, AtomicU32, AtomicUsize, Ordering::Acquire, Ordering::Release};

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

/// How many times this process was continued after a stop (SIGCONT), once
/// [`count_continues`] is on. 32 bits: every CPU has them, and a run is stopped far fewer times.
static CONTINUES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

extern "C" fn on_continue(_: libc::c_int) {
    CONTINUES.fetch_add(1, Relaxed);
}

/// Counts this process's continues from now on (a SIGCONT handler with SA_RESTART: it neither
/// stops a continue nor interrupts a call); [`default`] of SIGCONT stops counting.
pub fn count_continues() -> io::Result<()> {
    on_signal(libc::SIGCONT, on_continue)
}

/// The continues counted so far: a change between two readings means this process was stopped
/// (SIGSTOP, SIGTSTP, Ctrl-Z) and continued in between.
pub fn continues() -> u32 {
    CONTINUES.load(Relaxed)
}

/// A handler that is also told who sent the signal: the sender's pid (`si_pid`, 0 if none).
/// Linux puts the writer's own pid there for the SIGPIPE of a write to a broken pipe. As a
/// [`Handler`], it may only do async-signal-safe work.
pub type SenderHandler = fn(sig: i32, sender: i32);

/// The [`SenderHandler`] of this process (null: none installed).
static SENDER_HANDLER: AtomicPtr<()> = AtomicPtr::new(std::ptr::null_mut());

/// Installs `handler` for `sig` without SA_RESTART, told each signal's sender. The process has
/// one such handler: the last one installed serves every signal installed so.
pub fn on_signal_with_sender_interrupting(sig: i32, handler: SenderHandler) -> io::Result<()> {
    SENDER_HANDLER.store(handler as *mut (), SeqCst);
    install(sig, with_sender as *const () as usize as libc::sighandler_t, libc::SA_SIGINFO)
}

/// The SA_SIGINFO handler that [`on_signal_with_sender_interrupting`] installs: reads the
/// sender from the kernel's `siginfo_t` and calls the [`SenderHandler`]. Async-signal-safe.
extern "C" fn with_sender(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // SAFETY: this function is installed with SA_SIGINFO only, so `info` is the siginfo_t the
    // kernel passed to it, valid while it runs.
    let from = unsafe { sender(info) };
    let h = SENDER_HANDLER.load(SeqCst);
    if !h.is_null() {
        // SAFETY: only on_signal_with_sender_interrupting stores here, a SenderHandler.
        let h = unsafe { std::mem::transmute::<*mut (), SenderHandler>(h) };
        h(sig, from);
    }
}

/// Who sent a signal: the `si_pid` of a `siginfo_t` (0 for a null pointer).
///
/// # Safety
/// `info` is null or the `siginfo_t` the kernel passed to the SA_SIGINFO handler that is
/// running: it is read, so it must point at one.
unsafe fn sender(info: *const libc::siginfo_t) -> i32 {
    if info.is_null() {
        return 0;
    }
    // SAFETY: the caller's promise: a siginfo_t the kernel filled.
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

/// A 64-bit count that one thread advances and a signal handler on that thread reads: the
/// kernels' loop counter, which the SIGALRM handler reports, and the protection faults. One
/// `AtomicU64` where the CPU has 64-bit atomics (relaxed loads and stores are plain moves there);
/// 32-bit MIPS has none, and gets [`Halves`].
#[cfg(target_has_atomic = "64")]
pub type Count64 = Wide;
#[cfg(not(target_has_atomic = "64"))]
pub type Count64 = Halves;

/// [`Count64`] on one `AtomicU64`.
#[cfg(target_has_atomic = "64")]
pub struct Wide(AtomicU64);

#[cfg(target_has_atomic = "64")]
impl Wide {
    pub const fn new(n: u64) -> Self {
        Wide(AtomicU64::new(n))
    }

    #[inline(always)]
    pub fn load(&self) -> u64 {
        self.0.load(Relaxed)
    }

    #[inline(always)]
    pub fn store(&self, n: u64) {
        self.0.store(n, Relaxed)
    }
}

/// [`Count64`] as two copies of the value, each a pair of 32-bit halves, and which copy is
/// current. A handler interrupts the thread between any two of its stores, so a value must
/// never be half written where the handler reads: a store that keeps the high half changes
/// the current copy's low half (one store), any other writes the other copy whole and then
/// makes it current (one store).
#[cfg(any(test, not(target_has_atomic = "64")))]
pub struct Halves {
    copies: [[AtomicU32; 2]; 2],
    current: AtomicUsize,
}

#[cfg(any(test, not(target_has_atomic = "64")))]
impl Halves {
    pub const fn new(n: u64) -> Self {
        let (hi, lo) = ((n >> 32) as u32, n as u32);
        let copy = [AtomicU32::new(hi), AtomicU32::new(lo)];
        Halves { copies: [copy, [AtomicU32::new(0), AtomicU32::new(0)]], current: AtomicUsize::new(0) }
    }

    #[inline(always)]
    pub fn load(&self) -> u64 {
        let c = &self.copies[self.current.load(Relaxed) & 1];
        compiler_fence(Acquire);
        (u64::from(c[0].load(Relaxed)) << 32) | u64::from(c[1].load(Relaxed))
    }

    #[inline(always)]
    pub fn store(&self, n: u64) {
        let (hi, lo) = ((n >> 32) as u32, n as u32);
        let cur = self.current.load(Relaxed) & 1;
        if self.copies[cur][0].load(Relaxed) == hi {
            self.copies[cur][1].store(lo, Relaxed);
            return;
        }
        let next = &self.copies[cur ^ 1];
        next[0].store(hi, Relaxed);
        next[1].store(lo, Relaxed);
        // The handler must not see the switch before the copy it switches to.
        compiler_fence(Release);
        self.current.store(cur ^ 1, Relaxed);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Across the 32-bit boundary, both ways, and at the ends: the value read is the value stored.
    #[test]
    fn halves_hold_every_64_bit_value() {
        let c = Halves::new(u64::from(u32::MAX));
        assert_eq!(c.load(), 0xFFFF_FFFF);
        for n in [1 << 32, (1 << 32) + 1, 0xFFFF_FFFF, 0, u64::MAX, 7 << 40 | 5, 1, 1 << 63] {
            c.store(n);
            assert_eq!(c.load(), n);
        }
        assert_eq!(Halves::new(u64::MAX).load(), u64::MAX);
        let w = Count64::new(1 << 33);
        w.store(w.load() + 1);
        assert_eq!(w.load(), (1 << 33) + 1);
    }

    /// What a handler may be reading is never written in part: a store that changes the high
    /// half leaves the copy that was current as it was.
    #[test]
    fn a_carry_writes_the_other_copy() {
        let c = Halves::new(0xFFFF_FFFF);
        let before = c.current.load(Relaxed);
        c.store(1 << 32);
        assert_ne!(c.current.load(Relaxed), before);
        let old = &c.copies[before];
        assert_eq!((old[0].load(Relaxed), old[1].load(Relaxed)), (0, 0xFFFF_FFFF));
        c.store((1 << 32) + 9);
        assert_eq!(c.current.load(Relaxed), before ^ 1, "the low half alone is stored in place");
    }
}
