//! Clocks. The C programs use gettimeofday (fstime, whetstone) and time() (execl); Run uses
//! Time::HiRes wall time. CLOCK_MONOTONIC is used where only a difference matters and the C code
//! is not being mirrored.

/// Seconds since the Epoch as a float, from `gettimeofday(2)` (microsecond resolution).
#[inline]
pub fn gettimeofday() -> f64 {
    let mut tv = libc::timeval { tv_sec: 0, tv_usec: 0 };
    // SAFETY: tv is a valid out-pointer; a null timezone is allowed.
    unsafe { libc::gettimeofday(&mut tv, std::ptr::null_mut()) };
    tv.tv_sec as f64 + tv.tv_usec as f64 / 1e6
}

/// This process's user CPU seconds (`getrusage(RUSAGE_SELF)`'s `ru_utime`): the clock of
/// UnixBench 5.1.3's Whetstone, built `-DUNIX`.
pub fn user_cpu() -> f64 {
    // SAFETY: rusage is plain data that getrusage fills through a valid out-pointer.
    let u = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    u.ru_utime.tv_sec as f64 + u.ru_utime.tv_usec as f64 * 1.0e-06
}

/// Whole seconds since the Epoch, `time(2)`.
#[inline]
pub fn time() -> i64 {
    // SAFETY: a null argument is allowed.
    unsafe { libc::time(std::ptr::null_mut()) as i64 }
}

/// CLOCK_MONOTONIC in seconds.
#[inline]
pub fn monotonic() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

/// Seconds since the Epoch and the local broken-down time, for report dates.
pub fn local_now() -> (i64, libc::tm) {
    let t = time();
    (t, local_time(t))
}

/// `localtime_r(3)`.
pub fn local_time(t: i64) -> libc::tm {
    let tt = t as _;
    // SAFETY: tm is plain data, zero is a valid value; localtime_r fills it.
    unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        libc::localtime_r(&tt, &mut tm);
        tm
    }
}
