//! The dynamically linked twin of UnixBench's `execl` (Execl Throughput), for the `execl`
//! applet to time (src/kernels/execl.rs). A `no_std` program whose `main` the C runtime's start
//! files and `__libc_start_main` call, linked against the host's C library as C's execl is, with
//! its 8 KiB BSS array and the imports of its never-run big.c (`libc::big`).
//!
//! Protocol, as C's: `execl DURATION` starts a chain (the path re-executed is argv[0], never
//! `$UB_BINDIR`); each image of the chain gets `0 DURATION ITER START`, adds one to ITER and
//! re-executes itself until `time()` says DURATION has passed, then prints
//! `COUNT|<images>|1|lps` on stderr and exits 0. The applet starts the chain in the second form.

#![no_std]
#![no_main]

mod libc;

use core::ffi::c_ulong;

/// C's `bss[8*1024]`: it makes the image's data segment as large as C's.
#[used]
static mut BSS: [u8; 8 * 1024] = [0; 8 * 1024];

fn run(args: libc::Args) -> ! {
    if args.len() < 2 {
        libc::print_str(c"Usage: %s duration\n", args.get(0));
        libc::exit_with(1);
    }
    let path = args.get(0);
    let (duration, dur_str, iter, start) = match libc::atoi(args.get(1)) {
        d if d > 0 => (d, args.get(1), 0, libc::now() as c_ulong),
        _ if args.len() < 5 => {
            libc::print_str(c"Usage: %s 0 duration iteration start\n", path);
            libc::exit_with(1);
        }
        _ => {
            let iter = libc::atoi(args.get(3)) as c_ulong;
            (libc::atoi(args.get(2)), args.get(2), iter, libc::scan_ulong(args.get(4)))
        }
    };
    let iter = iter + 1;
    let (mut count_buf, mut start_buf) = ([0; 24], [0; 24]);
    let count_str = libc::format_ulong(&mut count_buf, iter);
    let start_str = libc::format_ulong(&mut start_buf, start);
    // time_t is a long: 32 bits on the 32-bit CPUs, so the difference is taken in 64.
    if i64::from(libc::now()) - start as i64 >= i64::from(duration) {
        libc::print_count(iter);
        libc::exit_with(0);
    }
    libc::exec5(path, c"0", dur_str, count_str, start_str);
    libc::print_ulong_str(c"Exec failed at iteration %lu: %s\n", iter, libc::last_error());
    libc::exit_with(1)
}
