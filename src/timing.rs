//! The alarm deadline shared by the counting kernels, as UnixBench's `timeit.c` has it.
//!
//! `wake_me(seconds, report)` in C: SIGALRM after `seconds`; the handler prints the global loop
//! counter as a `COUNT|...` line and exits. Here [`report_on_alarm`] arms the same, and the timed
//! loop advances [`ITERATIONS`] with [`tick`]: a relaxed load and store, which compile to plain
//! memory accesses (no lock prefix), the cost of the C program's global `unsigned long` counter.

use crate::protocol;
use crate::sys;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// The loop counter the alarm handler reports.
pub static ITERATIONS: AtomicU64 = AtomicU64::new(0);

static TIMEBASE: AtomicU32 = AtomicU32::new(1);
static LABEL: AtomicUsize = AtomicUsize::new(0);
const LABELS: [&str; 3] = ["lps", "lpm", "fps"];

/// The unit a counting kernel reports.
#[derive(Debug, Clone, Copy)]
pub enum Unit {
    /// Loops per second: `COUNT|n|1|lps`.
    Lps,
    /// Loops per minute: `COUNT|n|60|lpm` (looper).
    Lpm,
}

/// Adds one to [`ITERATIONS`].
#[inline(always)]
pub fn tick() {
    ITERATIONS.store(ITERATIONS.load(Relaxed).wrapping_add(1), Relaxed);
}

/// The current count.
#[inline(always)]
pub fn count() -> u64 {
    ITERATIONS.load(Relaxed)
}

/// Sets the count (Dhrystone starts its Run_Index at 1).
pub fn set_count(n: u64) {
    ITERATIONS.store(n, Relaxed);
}

extern "C" fn report(_sig: libc::c_int) {
    let label = LABELS[LABEL.load(Relaxed)];
    protocol::emit(&protocol::count(ITERATIONS.load(Relaxed), TIMEBASE.load(Relaxed), label));
    sys::proc::exit_now(0);
}

/// Arms SIGALRM in `seconds`; when it fires, the current count is printed as a COUNT line on
/// stderr and the process exits 0, exactly as the C `report()` handlers do.
pub fn report_on_alarm(seconds: u32, unit: Unit) {
    let (tb, label) = match unit {
        Unit::Lps => (1, 0),
        Unit::Lpm => (60, 1),
    };
    TIMEBASE.store(tb, Relaxed);
    LABEL.store(label, Relaxed);
    sys::signal::on_signal(libc::SIGALRM, report).expect("sigaction(SIGALRM)");
    sys::signal::alarm(seconds);
}

/// Prints the current count as the SIGALRM handler would and exits 0. context1 ends this way
/// when its partner is gone (EOF or EPIPE), after cancelling its alarm, as the C code calls
/// `report()` directly.
pub fn report_and_exit() -> ! {
    report(libc::SIGALRM);
    unreachable!("report exits")
}

/// The stop flag of the phase-timed kernels (fstime's `sigalarm`): set by SIGALRM or by the
/// kernel itself when a call is interrupted.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn stop_count(_sig: libc::c_int) {
    STOP.store(true, Relaxed);
}

/// Clears the stop flag and arms SIGALRM in `seconds` to set it, with restartable system calls,
/// as fstime's `signal(SIGALRM, stop_count); alarm(t)` does.
pub fn flag_on_alarm(seconds: u32) {
    STOP.store(false, Relaxed);
    sys::signal::on_signal(libc::SIGALRM, stop_count).expect("sigaction(SIGALRM)");
    sys::signal::alarm(seconds);
}

/// Whether the phase's time is up (a plain load: the C flag is a plain `int`).
#[inline(always)]
pub fn stopped() -> bool {
    STOP.load(Relaxed)
}

/// Sets the stop flag, as fstime's loops call `stop_count()` after an interrupted call.
#[inline]
pub fn stop() {
    STOP.store(true, Relaxed);
}
