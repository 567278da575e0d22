//! The one error type (`catalogue::error`, whose items this module re-exports), and writing to
//! the console, which waits on the descriptors of `sys` and so lives here, above it.

pub use catalogue::error::*;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering::SeqCst};
use std::sync::OnceLock;

/// Writes `s` to stdout through its descriptor: a full, closed or broken stdout is a failure
/// that says so, never a panic (as std's `print!` on a full disk) nor silence (std's stdout
/// hides a closed descriptor).
pub fn print(s: &str) -> Result {
    write_stdout(s, false)
}

/// Writes a table to stdout as [`print`] does, except that a reader that has stopped reading
/// (a closed pipe: `| head`) is not an error: it had what it wanted.
pub fn print_table(s: &str) -> Result {
    write_stdout(s, true)
}

fn write_stdout(s: &str, closed_ok: bool) -> Result {
    match write_console(1, s.as_bytes()) {
        Err(e) if closed_ok && e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r.map_err(|e| Error::failed(format!("cannot write to stdout: {}", reason(&e)))),
    }
}

/// The read end of the self-pipe a stop signal writes to, while the driver watches signals
/// (-1 otherwise): a console write waits on it as well as on its descriptor.
static STOP_WAKE: AtomicI32 = AtomicI32::new(-1);
/// A stop signal arrived: console writes now wait [`STOP_GRACE`] in all, then are abandoned.
static STOPPING: AtomicBool = AtomicBool::new(false);
/// When the grace ends (CLOCK_MONOTONIC seconds; unset until the first write after the stop).
/// Set by writers, never by the handler, so a lock is fine: 32-bit MIPS has no 64-bit atomic.
static GIVE_UP_AT: OnceLock<f64> = OnceLock::new();
/// How long, in all, the console may hold up a stop: a reader that takes nothing in that time
/// (a pipe nobody reads, a terminal stopped with Ctrl-S) loses the rest.
const STOP_GRACE: f64 = 1.0;

/// Names the descriptor that becomes readable when a stop signal arrives (-1: none any more).
pub fn wake_console_on(fd: std::os::unix::io::RawFd) {
    STOP_WAKE.store(fd, SeqCst);
}

/// Says that a stop signal arrived. Async-signal-safe: the driver's handler calls it.
pub fn console_stopping() {
    STOPPING.store(true, SeqCst);
}

/// Writes all of `buf` to the console (`fd` 1 or 2) so that it never keeps a stop from
/// stopping: while the driver watches signals, a write that would block waits on the signal
/// too, and after a stop the console gets [`STOP_GRACE`] in all before what is left is
/// abandoned (an error, `TimedOut`). Otherwise as `write_all`.
pub fn write_console(fd: std::os::unix::io::RawFd, mut buf: &[u8]) -> io::Result<()> {
    use crate::sys::fd;
    while !buf.is_empty() {
        let watched = wait_writable(fd)?;
        // No more than a pipe takes at once once poll says it has room: the write cannot block.
        let n = if watched { buf.len().min(fd::PIPE_BUF) } else { buf.len() };
        match fd::write(fd, &buf[..n]) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => buf = &buf[n..],
            // EAGAIN (a console left non-blocking) waits in poll, where poll is used.
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if watched && e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Returns once `fd` takes a write without blocking (or has an error to report), waking for a
/// stop signal; after a stop, fails once the grace is spent. False when nothing watches for a
/// stop: then it returns at once, and the write may block as any program's.
fn wait_writable(fd: std::os::unix::io::RawFd) -> io::Result<bool> {
    use crate::sys::fd as sfd;
    let wake = STOP_WAKE.load(SeqCst);
    if wake < 0 && !STOPPING.load(SeqCst) {
        return Ok(false);
    }
    loop {
        let stopping = STOPPING.load(SeqCst);
        let timeout = if stopping { grace_left_ms() } else { -1 };
        // A descriptor of -1 is ignored by poll: after a stop only the console is waited for.
        let mut fds = [sfd::poll_out(fd), sfd::poll_in(if stopping { -1 } else { wake })];
        match sfd::poll(&mut fds, timeout) {
            Ok(_) if fds[0].revents != 0 => return Ok(true),
            Ok(_) if stopping && timeout == 0 => {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "abandoned: the reader took nothing for a second after the stop",
                ))
            }
            // A signal (EINTR, or the self-pipe): look again, now stopping.
            _ => {}
        }
    }
}

/// The milliseconds left of the stop's grace, which starts at the first call.
fn grace_left_ms() -> i32 {
    let now = crate::sys::clock::monotonic();
    let left = *GIVE_UP_AT.get_or_init(|| now + STOP_GRACE) - now;
    (left * 1000.0).ceil().clamp(0.0, 1000.0 * STOP_GRACE) as i32
}
