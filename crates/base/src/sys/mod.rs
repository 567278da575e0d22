//! The only place in the crate where `unsafe` appears: thin, documented wrappers over libc.
//!
//! Each wrapper does one system call (or one libc routine), returns `io::Result` where the call
//! can fail, and carries a `// SAFETY:` note. Kernels and the driver call these, never libc.
//! Wrappers that the timed loops use are `#[inline]` so that a loop iteration costs what the C
//! program's does: one call into libc, no allocation, no locking. (The raw reads and writes of
//! the static builds are that one call without musl under it: `fd::raw`.)
//!
//! Submodules by area: `entry` (the arguments `main` is given), `fd` (descriptors and files),
//! `dir` (a directory held by descriptor), `proc` (fork, exec, wait, limits), `signal` (alarm,
//! handlers, masks), `clock` (time), `info` (uname, CPUs, utmp, paths), `hint` (optimisation
//! barriers for the CPU kernels), `fma` (code compiled for the CPU's fused multiply-add, chosen
//! at run time); with the `graphics` feature, `x11` (Xlib, Render, Xft) and `gl` (GLX, OpenGL
//! 1.x).

// The body of an unsafe fn is no unsafe block: each unsafe operation in one is a block of its
// own, with its SAFETY note (tests/it/tidy.rs).
#![deny(unsafe_op_in_unsafe_fn)]

pub mod clock;
pub mod cpu;
pub mod dir;
pub mod entry;
pub mod fd;
pub mod fma;
#[cfg(feature = "graphics")]
pub mod gl;
pub mod hint;
pub mod info;
pub mod mem;
pub mod net;
pub mod proc;
pub mod signal;
#[cfg(all(panic = "abort", target_env = "musl"))]
pub mod unwind;
#[cfg(feature = "graphics")]
pub mod x11;

use std::io;

/// Turns a `-1` return into the thread's `errno` as an `io::Error` (std's `cvt`).
#[inline]
pub(crate) fn cvt<T: IsMinusOne>(t: T) -> io::Result<T> {
    if t.is_minus_one() {
        Err(io::Error::last_os_error())
    } else {
        Ok(t)
    }
}

/// Retries a call while it fails with EINTR (std's `cvt_r`).
#[inline]
pub(crate) fn cvt_r<T: IsMinusOne>(mut f: impl FnMut() -> T) -> io::Result<T> {
    loop {
        match cvt(f()) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

pub(crate) trait IsMinusOne {
    fn is_minus_one(&self) -> bool;
}
macro_rules! impl_minus_one {
    ($($t:ty)*) => { $(impl IsMinusOne for $t { #[inline] fn is_minus_one(&self) -> bool { *self == -1 } })* };
}
impl_minus_one! { i32 i64 isize }

/// The current thread's errno value (0 when none is set).
#[inline]
pub fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Sets errno, as the C fstime does before its read loops (it tells EOF from errors by errno).
#[inline]
pub fn set_errno(v: i32) {
    // SAFETY: __errno_location returns the calling thread's errno slot, always valid.
    unsafe { *libc::__errno_location() = v }
}
