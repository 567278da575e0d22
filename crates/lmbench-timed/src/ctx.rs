//! The "Context switching" columns: lat_ctx. A token (one int) travels a ring of N processes
//! joined by pipes; each process sums its own working set of SIZE bytes (lmbench's `bread`)
//! before passing the token on. The ring overhead, one pipe write and read in one process
//! plus one pass over the working set, is measured first and subtracted:
//! ctx = time per trip / N - overhead.

use super::child::{exact, Child};
use super::harness::{time_io, Harness, Pick};
use crate::sys;
use crate::sys::fd::Fd;
use std::hint::black_box;
use std::io;

fn bread(data: &[u8]) -> i64 {
    sys::mem::bread(data)
}

/// A working set whose pages are really there: lmbench bzero()s its buffer, and a buffer
/// that was only allocated would read the kernel's shared zero page instead.
fn working_set(kbytes: usize) -> Vec<u8> {
    vec![1u8; kbytes * 1024]
}

fn write_token(fd: &Fd, msg: &[u8; 4]) -> io::Result<()> {
    exact(sys::fd::write(fd.raw(), msg), 4, "ring write")
}

fn read_token(fd: &Fd, msg: &mut [u8; 4]) -> io::Result<()> {
    exact(sys::fd::read(fd.raw(), msg), 4, "ring read")
}

/// The ring overhead per hop for `procs` pipes and a working set of `kbytes`, in us.
#[inline(never)] // timed: see lib.rs
pub fn overhead(h: &Harness, procs: usize, kbytes: usize) -> io::Result<f64> {
    let pipes = (0..procs).map(|_| sys::fd::pipe_cloexec()).collect::<io::Result<Vec<_>>>()?;
    let data = working_set(kbytes);
    let mut msg = [1u8; 4];
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            let mut i = 0;
            for _ in 0..n {
                write_token(&pipes[i].1, &msg)?;
                read_token(&pipes[i].0, &mut msg)?;
                i += 1;
                if i == procs {
                    i = 0;
                }
                black_box(bread(&data));
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

/// One context switch among `procs` processes with `kbytes` of working set each, in us, less
/// `ovr` (from [`overhead`]). Fails if the difference is not positive (lmbench prints nothing
/// then).
#[inline(never)] // timed: see lib.rs
pub fn ctx(h: &Harness, procs: usize, kbytes: usize, ovr: f64) -> io::Result<f64> {
    let procs = procs.max(2);
    let pipes = (0..procs).map(|_| sys::fd::pipe_cloexec()).collect::<io::Result<Vec<_>>>()?;
    let mut members = Vec::with_capacity(procs - 1);
    for i in 1..procs {
        let (rd, wr) = (pipes[i - 1].0.raw(), pipes[i].1.raw());
        members.push(Child::spawn(|| {
            let data = working_set(kbytes);
            let mut msg = [0u8; 4];
            loop {
                if sys::fd::read(rd, &mut msg).ok() != Some(4) {
                    return 1;
                }
                black_box(bread(&data));
                if sys::fd::write(wr, &msg).ok() != Some(4) {
                    return 1;
                }
            }
        })?);
    }
    let data = working_set(kbytes);
    let (first, last) = (&pipes[0].1, &pipes[procs - 1].0);
    let mut msg = [0u8; 4];
    // Once around, so every member is running and the token is in the ring.
    write_token(first, &msg)?;
    read_token(last, &mut msg)?;
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                write_token(first, &msg)?;
                read_token(last, &mut msg)?;
                black_box(bread(&data));
            }
            Ok(())
        })
    });
    drop(members);
    let t = s?.per_iter() / procs as f64 - ovr;
    if t > 0.0 {
        Ok(t)
    } else {
        Err(io::Error::other(format!("the ring took no longer than its overhead ({ovr:.2} us)")))
    }
}
