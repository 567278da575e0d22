//! The dynamically linked twin of UnixBench's `spawn` (Process Creation), for the `spawn`
//! applet to time (src/kernels/spawn.rs): a `no_std` program started by the C runtime and
//! linked against the host's C library as C's spawn is, so that every fork copies a process
//! that has the C library mapped.
//!
//! `spawn DURATION`: fork; the child calls `exit(0)`; the parent `wait()`s and checks the
//! status, until SIGALRM prints `COUNT|<forks>|1|lps` and exits. One deviation: a duration of
//! 0 or less prints `COUNT|0|1|lps` at once (C's `alarm(0)` would loop for ever); the applet uses
//! it to check that the image runs on this host.

#![no_std]
#![no_main]

mod libc;

use core::ffi::{c_int, c_ulong};
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Completed forks. Loads and stores only (no locked read-modify-write), like C's plain global.
static ITER: AtomicU64 = AtomicU64::new(0);

extern "C" fn report(_: c_int) {
    libc::print_count(ITER.load(Relaxed) as c_ulong);
    libc::exit_with(0);
}

fn run(args: libc::Args) -> ! {
    if args.len() < 2 {
        libc::print_str(c"Usage: %s duration\n", args.get(0));
        libc::exit_with(1);
    }
    let duration = libc::atoi(args.get(1));
    if duration <= 0 {
        libc::print_count(0);
        libc::exit_with(0);
    }
    libc::on_alarm(report, duration as u32);
    loop {
        match libc::fork_once() {
            libc::Forked::Child => libc::exit_with(0),
            libc::Forked::Parent => match libc::wait_child() {
                Some(0) => {}
                Some(status) => {
                    libc::print_bad_status(status);
                    libc::exit_with(2);
                }
                None => {
                    libc::print_ulong_str(
                        c"wait failed at iteration %lu: %s\n",
                        ITER.load(Relaxed) as c_ulong,
                        libc::last_error(),
                    );
                    libc::exit_with(2);
                }
            },
            libc::Forked::Failed => {
                libc::print_ulong_str(
                    c"Fork failed at iteration %lu: %s\n",
                    ITER.load(Relaxed) as c_ulong,
                    libc::last_error(),
                );
                libc::exit_with(2);
            }
        }
        ITER.store(ITER.load(Relaxed) + 1, Relaxed);
    }
}
