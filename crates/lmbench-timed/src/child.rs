//! Helper processes (echo servers, ring members, data sources): forked, and always killed and
//! reaped when their guard drops, on success, error and interrupt alike.

use crate::sys;
use std::io;

/// A forked helper; dropping it sends SIGKILL and waits for it.
pub struct Child {
    pid: i32,
}

impl Child {
    /// Forks; the child runs `body` and exits with its status (1 if it panics), never
    /// returning into the caller.
    pub fn spawn(body: impl FnOnce() -> i32) -> io::Result<Child> {
        match sys::proc::fork()? {
            sys::proc::Fork::Child => {
                let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body)).unwrap_or(1);
                sys::proc::exit_now(code)
            }
            sys::proc::Fork::Parent(pid) => Ok(Child { pid }),
        }
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        let _ = sys::proc::kill(self.pid, libc::SIGKILL);
        let _ = sys::proc::waitpid(self.pid);
    }
}

/// Fails with a message naming `what` unless `got == want` (a short read or write in a
/// ping-pong means the peer is gone).
#[inline]
pub fn exact(got: io::Result<usize>, want: usize, what: &str) -> io::Result<()> {
    match got {
        Ok(n) if n == want => Ok(()),
        Ok(n) => Err(io::Error::other(format!("{what}: {n} bytes instead of {want}"))),
        Err(e) => Err(io::Error::new(e.kind(), format!("{what}: {e}"))),
    }
}
