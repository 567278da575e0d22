//! The alarm deadline shared by the counting kernels, as UnixBench's `timeit.c` has it.
//!
//! `wake_me(seconds, report)` in C: SIGALRM after `seconds`; the handler prints the global loop
//! counter as a `COUNT|...` line and exits. Here [`report_on_alarm`] arms the same, and the timed
//! loop advances [`ITERATIONS`] with [`tick`]: a relaxed load and store, which compile to plain
//! memory accesses (no lock prefix), the cost of the C program's global `unsigned long` counter.

use crate::protocol;
use crate::sys;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering::Relaxed};

/// The loop counter the alarm handler reports.
pub static ITERATIONS: sys::signal::Count64 = sys::signal::Count64::new(0);

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

/// Adds one to [`ITERATIONS`]: a load, an add and a store, as gcc compiles the C programs'
/// `++iter` on their global (or volatile) counter. Left alone, LLVM fuses the three into one
/// read-modify-write `inc` on memory, which the memory renaming of current x86 cores does not
/// cover: each increment then waits for the previous one's store, and arithoh, whose loop is
/// nothing but this increment, measured 2.8 times slower than the C program. The empty
/// [`sys::hint::opaque`] between the load and the add keeps them separate instructions.
#[inline(always)]
pub fn tick() {
    let n = sys::hint::opaque(ITERATIONS.load() as i64) as u64;
    ITERATIONS.store(n.wrapping_add(1));
}

/// The current count.
#[inline(always)]
pub fn count() -> u64 {
    ITERATIONS.load()
}

/// Sets the count (Dhrystone starts its Run_Index at 1).
pub fn set_count(n: u64) {
    ITERATIONS.store(n);
}

extern "C" fn report(_sig: libc::c_int) {
    let label = LABELS[LABEL.load(Relaxed)];
    protocol::emit(&protocol::count(ITERATIONS.load(), TIMEBASE.load(Relaxed), label));
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
    arm_flag();
    sys::signal::alarm(seconds);
}

/// Clears the stop flag and installs the handler that sets it.
fn arm_flag() {
    STOP.store(false, Relaxed);
    sys::signal::on_signal(libc::SIGALRM, stop_count).expect("sigaction(SIGALRM)");
}

/// [`flag_on_alarm`] for a phase of `seconds` that need not be whole (fstime's priming phases
/// under `-s`): the same flag, armed to the microsecond.
pub fn flag_after(seconds: f64) {
    arm_flag();
    sys::signal::alarm_after(seconds);
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

/// The same alarm for kernels that check their own result before printing (Dhrystone, arith,
/// Hanoi): the handler only raises the flag, the loop sees it at the end of the iteration in
/// progress, and the kernel verifies and prints the count itself.
pub fn stop_on_alarm(seconds: u32) {
    flag_on_alarm(seconds);
}

/// How a timed loop counts its iterations and learns that its time is up. Kernels are generic
/// over it, so the same loop runs against the alarm ([`Alarm`]) and, in unit tests, for a fixed
/// number of iterations ([`Loops`]); both compile to plain loads and stores.
pub trait Deadline {
    /// Adds one to the loop counter.
    fn tick(&mut self);
    /// The loop counter.
    fn count(&self) -> u64;
    /// Sets the loop counter.
    fn set_count(&mut self, n: u64);
    /// True once the loop must stop.
    fn expired(&self) -> bool;
}

/// The real deadline: the global [`ITERATIONS`] counter and the flag raised by the alarm of
/// [`stop_on_alarm`]. Checking it costs one relaxed load per iteration, a plain `mov` as the C
/// programs' reads of their volatile counter.
pub struct Alarm;

impl Deadline for Alarm {
    #[inline(always)]
    fn tick(&mut self) {
        tick();
    }
    #[inline(always)]
    fn count(&self) -> u64 {
        count()
    }
    #[inline(always)]
    fn set_count(&mut self, n: u64) {
        set_count(n);
    }
    #[inline(always)]
    fn expired(&self) -> bool {
        STOP.load(Relaxed)
    }
}

/// A deadline that expires when the counter reaches `until`: for tests that run a kernel a fixed
/// number of times. Not behind `cfg(test)`: the kernels' tests are in the crate above; the binary
/// never names it, so it costs the binary nothing.
pub struct Loops {
    /// The loop counter.
    pub n: u64,
    /// The count at which [`Deadline::expired`] turns true.
    pub until: u64,
}

impl Deadline for Loops {
    fn tick(&mut self) {
        self.n = self.n.wrapping_add(1);
    }
    fn count(&self) -> u64 {
        self.n
    }
    fn set_count(&mut self, n: u64) {
        self.n = n;
    }
    fn expired(&self) -> bool {
        self.n >= self.until
    }
}
