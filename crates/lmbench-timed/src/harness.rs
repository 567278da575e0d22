//! lmbench's timing method (`benchmp` and `BENCH_INNER` in its lib_timing.c), in-process.
//!
//! A kernel is a closure that runs `n` iterations and returns the microseconds they took, with
//! any per-interval setup and cleanup outside its own timed region. The harness starts at one
//! iteration and grows the count (x8 while an interval is under 150 us, then in proportion)
//! until an interval lasts between 0.99 and 1.2 times "enough"; every interval longer than
//! 0.95 x enough is a sample. From each sample it subtracts the timer overhead (one clock read)
//! and the loop overhead (per iteration), and reports the median of the samples ordered by time
//! per iteration, as lmbench's `save_median` does (or the minimum, for memory latency).
//!
//! Deviation: lmbench runs each benchmark in a forked child and times with gettimeofday (1 us
//! resolution); here the kernel runs in this process and is timed with CLOCK_MONOTONIC (ns).

use crate::sys;
use std::hint::black_box;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

/// Set by the SIGINT/SIGTERM handler: the harness stops between intervals, so every guard
/// unwinds (children killed, sockets closed, temp files removed).
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Microseconds on the monotonic clock.
#[inline]
pub fn now_us() -> f64 {
    sys::clock::monotonic() * 1e6
}

/// Times `f` once: (microseconds, its result).
#[inline]
pub fn timed<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t0 = now_us();
    let r = f();
    (now_us() - t0, r)
}

/// Times a fallible `f`: its microseconds, or its error.
#[inline]
pub fn time_io(f: impl FnOnce() -> io::Result<()>) -> io::Result<f64> {
    let (us, r) = timed(f);
    r.map(|()| us)
}

/// The median (or minimum) interval: `usecs` for `n` iterations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub usecs: f64,
    pub n: u64,
}

impl Sample {
    /// Microseconds per iteration.
    pub fn per_iter(&self) -> f64 {
        self.usecs / self.n as f64
    }
}

/// How long and how often to measure.
#[derive(Debug, Clone, Copy)]
pub struct Harness {
    /// The length of one timed interval, microseconds (lmbench's ENOUGH).
    pub enough: f64,
    /// Samples per figure (lmbench's TRIES, 11).
    pub tries: usize,
    /// Cost of one clock read, microseconds, subtracted once per interval.
    pub t_overhead: f64,
    /// Cost of one empty loop iteration, microseconds, subtracted per iteration.
    pub l_overhead: f64,
    /// Whether [`Harness::at_least`] lengthens intervals: off in the short (smoke-test) mode.
    pub floors: bool,
}

/// lmbench's floors on the interval (bench.h's SHORT and MEDIUM), microseconds. benchmp takes
/// the longer of ENOUGH and the floor a benchmark passes: 1 s for lat_pipe and lat_udp, 2 s for
/// lat_tcp, bw_pipe and bw_unix. Those figures depend on how two processes share the CPUs, and
/// an interval of seconds averages over many scheduling decisions where 100 ms sees a few. (The
/// 10% AF_UNIX bandwidth gap once put down to this was the buffers' alignment: see valloc.rs.)
pub const SHORT: f64 = 1_000_000.0;
pub const MEDIUM: f64 = 2_000_000.0;

/// Which sample to report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    Median,
    Minimum,
}

/// The most intervals one figure may take before it is given up (a kernel whose time per
/// iteration never settles).
const MAX_INTERVALS: usize = 400;

impl Harness {
    /// A harness with the given interval and sample count; measures its own overheads.
    pub fn new(enough_us: f64, tries: usize) -> Harness {
        let mut h = Harness {
            enough: enough_us,
            tries: tries.max(1),
            t_overhead: 0.0,
            l_overhead: 0.0,
            floors: true,
        };
        h.t_overhead = timer_overhead();
        h.l_overhead = loop_overhead(&h);
        h
    }

    /// This harness with intervals of at least `floor` microseconds, as benchmp's
    /// `get_enough(floor)`; unchanged where floors are off.
    pub fn at_least(&self, floor: f64) -> Harness {
        Harness { enough: if self.floors { self.enough.max(floor) } else { self.enough }, ..*self }
    }

    /// Measures a kernel; see the module comment. Errors from the kernel end the figure.
    ///
    /// Only this shim is generic: the calibration loop below is one function that calls the
    /// kernel through a pointer once per interval, as lmbench's benchmp calls
    /// `benchmark(iterations, cookie)`; the kernel's own loop over its `n` iterations stays a
    /// direct, inlined loop inside the closure.
    #[inline]
    pub fn run(&self, pick: Pick, mut interval: impl FnMut(u64) -> io::Result<f64>) -> io::Result<Sample> {
        self.run_dyn(pick, &mut interval)
    }

    #[inline(never)]
    fn run_dyn(&self, pick: Pick, interval: &mut dyn FnMut(u64) -> io::Result<f64>) -> io::Result<Sample> {
        let enough = self.enough;
        let mut n: u64 = 1;
        let mut samples: Vec<Sample> = Vec::with_capacity(self.tries);
        let mut intervals = 0;
        while samples.len() < self.tries {
            if INTERRUPTED.load(Relaxed) {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
            }
            intervals += 1;
            if intervals > MAX_INTERVALS {
                return Err(io::Error::other("the time per iteration never settled"));
            }
            let raw = interval(n)?;
            let t = (raw - self.t_overhead - n as f64 * self.l_overhead).max(0.0);
            if t > 0.95 * enough {
                samples.push(Sample { usecs: t, n });
            }
            if t < 0.99 * enough || t > 1.2 * enough {
                if t > 150.0 {
                    n = (n as f64 / t * 1.1 * enough) as u64 + 1;
                } else {
                    n <<= 3;
                    if n > 1 << 27 {
                        return Err(io::Error::other("too fast to time"));
                    }
                }
            }
        }
        Ok(pick_sample(&mut samples, pick))
    }
}

/// lmbench's ordering (slowest per iteration first) and its median: the middle sample, or for
/// an even count the averages of the two middle ones' times and counts. Minimum: the fastest.
pub fn pick_sample(samples: &mut [Sample], pick: Pick) -> Sample {
    samples.sort_by(|a, b| b.per_iter().total_cmp(&a.per_iter()));
    let k = samples.len();
    match (pick, k) {
        (_, 0) => Sample { usecs: 0.0, n: 1 },
        (Pick::Minimum, _) => samples[k - 1],
        (Pick::Median, _) if k % 2 == 1 => samples[k / 2],
        (Pick::Median, _) => {
            let (a, b) = (samples[k / 2], samples[k / 2 - 1]);
            Sample { usecs: (a.usecs + b.usecs) / 2.0, n: (a.n + b.n) / 2 }
        }
    }
}

/// The cost of one clock read: the fastest of 11 runs of 10000 reads.
fn timer_overhead() -> f64 {
    (0..11)
        .map(|_| {
            let (us, _) = timed(|| {
                for _ in 0..10_000 {
                    black_box(now_us());
                }
            });
            us / 10_000.0
        })
        .fold(f64::INFINITY, f64::min)
}

/// lmbench's `l_overhead`: a loop doing one dependent load per iteration against one doing
/// two; the loop's own cost is 2 x t1 - t2 (never below zero). Two loads cannot take less
/// than one: a pair where they do had its one-load loop preempted (a short interval stretched
/// past "enough" by another process counts as a sample), and its overhead, hundreds of ns,
/// would be subtracted from every figure and zero the fast ones. Such a pair is measured
/// again, up to three times, and then nothing is subtracted.
fn loop_overhead(h: &Harness) -> f64 {
    let Ok(mut ring) = sys::mem::Ring::new(64, 64) else { return 0.0 };
    let quick = Harness { enough: h.enough.min(20_000.0), tries: 3, l_overhead: 0.0, ..*h };
    for _ in 0..3 {
        let one = quick.run(Pick::Minimum, |n| Ok(timed(|| black_box(ring.walk1(n))).0));
        let two = quick.run(Pick::Minimum, |n| Ok(timed(|| black_box(ring.walk2(n))).0));
        let (Ok(a), Ok(b)) = (one, two) else { return 0.0 };
        if let Some(o) = overhead_of(a.per_iter(), b.per_iter()) {
            return o;
        }
    }
    0.0
}

/// The loop overhead from one load's and two loads' time per iteration, or None where the
/// two cannot both be right (one load as slow as two).
fn overhead_of(one: f64, two: f64) -> Option<f64> {
    (one < two).then(|| (2.0 * one - two).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(usecs: f64, n: u64) -> Sample {
        Sample { usecs, n }
    }

    #[test]
    fn median_and_minimum_as_lmbench() {
        let mut v = vec![s(10.0, 1), s(30.0, 1), s(20.0, 1)];
        assert_eq!(pick_sample(&mut v, Pick::Median), s(20.0, 1));
        assert_eq!(pick_sample(&mut v, Pick::Minimum), s(10.0, 1));
        let mut v = vec![s(10.0, 2), s(40.0, 2), s(20.0, 2), s(30.0, 4)];
        // per iteration: 5, 20, 10, 7.5 -> ordered 20, 10, 7.5, 5; middle two 10 (20/2), 7.5 (30/4)
        assert_eq!(pick_sample(&mut v, Pick::Median), s(25.0, 3));
    }

    #[test]
    fn calibrates_until_an_interval_is_long_enough() {
        let h = Harness { enough: 2000.0, tries: 3, t_overhead: 0.0, l_overhead: 0.0, floors: true };
        let mut counts = Vec::new();
        let got = h
            .run(Pick::Median, |n| {
                counts.push(n);
                Ok(n as f64 * 0.5)
            })
            .unwrap();
        assert!((got.per_iter() - 0.5).abs() < 1e-9);
        assert!(got.usecs > 0.95 * 2000.0 && got.usecs < 1.2 * 2000.0, "{got:?}");
        assert_eq!(&counts[..4], &[1, 8, 64, 512]);
    }

    #[test]
    fn floors_lengthen_intervals_except_in_the_short_mode() {
        let h = Harness { enough: 100_000.0, tries: 11, t_overhead: 0.0, l_overhead: 0.0, floors: true };
        assert_eq!(h.at_least(MEDIUM).enough, MEDIUM);
        assert_eq!(h.at_least(SHORT).enough, SHORT);
        assert_eq!(h.at_least(1000.0).enough, 100_000.0);
        let short = Harness { enough: 5000.0, floors: false, ..h };
        assert_eq!(short.at_least(MEDIUM).enough, 5000.0);
        // Nothing else changes.
        assert_eq!(h.at_least(MEDIUM).tries, 11);
    }

    #[test]
    fn a_preempted_one_load_loop_gives_no_overhead() {
        assert!(overhead_of(1.0, 1.8).is_some_and(|o| (o - 0.2).abs() < 1e-12));
        assert_eq!(overhead_of(1.0, 2.5), Some(0.0));
        // One load at 300 ns against two at 2 ns: the one-load loop was preempted.
        assert_eq!(overhead_of(300.0, 2.0), None);
        assert_eq!(overhead_of(2.0, 2.0), None);
    }

    #[test]
    fn gives_up_on_a_kernel_that_takes_no_time() {
        let h = Harness { enough: 1000.0, tries: 3, t_overhead: 0.0, l_overhead: 0.0, floors: true };
        assert!(h.run(Pick::Median, |_| Ok(0.0)).is_err());
    }
}
