//! `pipe DURATION`: port of UnixBench's `pipe.c`, "Pipe Throughput".
//!
//! One process, one pipe: each iteration writes a 512-byte buffer into the pipe and reads 512
//! bytes back, then counts. SIGALRM prints `COUNT|n|1|lps` and exits. No context switch is
//! involved; this measures the pipe's system-call path.
//!
//! Deviations: the duration is parsed strictly (C: `atoi`). The buffer is zeroed (C sends
//! uninitialised stack bytes; the content does not matter to the kernel). A failed write or read
//! prints C's `write failed, error N` / `read failed, error N` line and exits 1, where C prints
//! the line and carries on (so it would print it millions of times; Run aborts on it either way).
//! A short transfer or EINTR is ignored, as in C.

use crate::args;
use crate::error::{Error, Result};
use crate::sys::{self, fd};
use crate::timing::{self, tick, Unit};
use std::ffi::OsString;

pub fn main(args: Vec<OsString>) -> Result {
    let duration = args::duration_only(&args)?;
    let (r, w) = fd::pipe().map_err(|e| Error::failed(format!("pipe: {}", super::reason(&e))))?;
    let (rd, wr) = (r.raw(), w.raw());
    let mut buf = [0u8; 512];
    timing::report_on_alarm(duration, Unit::Lps);
    loop {
        if fd::write_raw(wr, &buf) != 512 {
            let e = sys::errno();
            if e != libc::EINTR && e != 0 {
                return Err(Error::Failed { code: 1, msg: format!("write failed, error {e}") });
            }
        }
        if fd::read_raw(rd, &mut buf) != 512 {
            let e = sys::errno();
            if e != libc::EINTR && e != 0 {
                return Err(Error::Failed { code: 1, msg: format!("read failed, error {e}") });
            }
        }
        tick();
    }
}
