//! One file per UnixBench program family. Each file begins with what it ports and how it
//! deviates; each exposes `main(argv) -> Result` for the applet table. Kernels print only the
//! protocol (through `crate::protocol`) and their C program's free-form stdout.

pub mod arith;
pub mod context;
pub mod dhry;
pub mod execl;
pub mod fstime;
#[cfg(feature = "graphics")]
pub mod gfx;
pub mod hanoi;
pub mod looper;
pub mod pipe;
pub mod spawn;
pub mod syscall;
#[cfg(feature = "graphics")]
pub mod ubgears;
pub mod whets;

/// The text C's `perror` prints for an OS error: std's message without its " (os error N)" tail.
pub(crate) use crate::error::reason;

/// Ends a forked child that hit an error: one line `<applet>: <msg>` on stderr, then `_exit`.
/// A child never returns into `main` (that would run the parent's exit path a second time).
pub(crate) fn child_die(applet: &str, msg: &str, code: i32) -> ! {
    let line = format!("{applet}: {msg}\n");
    let _ = crate::sys::fd::write_all(2, line.as_bytes());
    crate::sys::proc::exit_now(code)
}
