//! `hanoi DURATION [DISKS]`: UnixBench's `hanoi.c` (docs/ORIGINAL.md, "hanoi"), the recursive Tower
//! of Hanoi.
//!
//! `mov(n, f, t)` moves n disks from peg f to peg t through the other peg (6 - f - t): a disk
//! move is `num[f]--, num[t]++`. One loop is `mov(disks, 1, 3)`: 2^disks - 1 moves. The peg
//! counts are never reset between loops, as in C, so after k loops peg 1 holds
//! disks - k x disks, peg 2 holds 0 and peg 3 holds k x disks (C `int`, wrapping). Disks: 10 by
//! default; 1 to 30 accepted (the C program recurses forever on 0 or less, and 31 disks would
//! take minutes per loop). The count is of completed loops: `COUNT|%ld|1|lps`.
//!
//! **End of the run.** The alarm raises a flag; the loop reads it after each completed `mov`
//! (one relaxed load per 2^disks - 1 moves), then the tower counts are checked against the
//! count of loops and the figure is printed, or an error if they are wrong. The C handler
//! prints at the alarm instant, when the interrupted loop is not counted yet; here it
//! completes and is counted: one loop more in millions. With many disks a loop is long (30
//! disks: about 2^30 moves, seconds), and the run overruns the duration by up to one loop.

use crate::args;
use crate::error::{Error, Result};
use crate::protocol;
use crate::timing::{self, Deadline};
use std::ffi::OsString;

/// Disks per loop unless the second argument says otherwise.
pub const DEFAULT_DISKS: u64 = 10;
/// The most disks accepted.
pub const MAX_DISKS: u64 = 30;

/// C's `int num[4]`: disks on pegs 1, 2 and 3 (index 0 unused).
pub type Pegs = [i32; 4];

/// C's `mov(n, f, t)`.
pub fn mov(num: &mut Pegs, n: i32, f: usize, t: usize) {
    if n == 1 {
        num[f] = num[f].wrapping_sub(1);
        num[t] = num[t].wrapping_add(1);
        return;
    }
    let o = 6 - (f + t);
    mov(num, n - 1, f, o);
    mov(num, 1, f, t);
    mov(num, n - 1, o, t);
}

/// The timed loop: `mov(disks, 1, 3); iter++;` until `d` expires.
pub fn run<D: Deadline>(d: &mut D, num: &mut Pegs, disks: i32) {
    loop {
        mov(num, disks, 1, 3);
        d.tick();
        if d.expired() {
            return;
        }
    }
}

/// The disks on each peg, as `[a, b, c]`.
fn pegs(p: &[i32]) -> String {
    format!("[{}]", p.iter().map(i32::to_string).collect::<Vec<_>>().join(", "))
}

/// The peg counts after `loops` loops of `disks` disks, starting from all disks on peg 1.
pub fn expected(disks: i32, loops: u64) -> Pegs {
    let moved = (loops as i32).wrapping_mul(disks);
    [0, disks.wrapping_sub(moved), 0, moved]
}

pub fn main(argv: Vec<OsString>) -> Result {
    let (duration, disks) = match &argv[..] {
        [_] | [] => {
            return Err(Error::usage("missing duration: expected a whole number of seconds, 1 or more"))
        }
        [_, d] => (args::parse_duration(d)?, DEFAULT_DISKS),
        [_, d, n] => (args::parse_duration(d)?, args::parse_uint("disks", n, 1, MAX_DISKS)?),
        [_, _, _, extra, ..] => {
            return Err(Error::usage(format!(
                "unexpected argument '{}': expected a duration and a number of disks",
                extra.to_string_lossy()
            )))
        }
    };
    let disks = disks as i32;
    let mut num: Pegs = [0, disks, 0, 0];
    timing::stop_on_alarm(duration);
    run(&mut timing::Alarm, &mut num, disks);
    let loops = timing::count();
    let should = expected(disks, loops);
    if num != should {
        return Err(Error::failed(format!(
            "self-check failed: pegs hold {} after {loops} loops of {disks} disks, should be {}",
            pegs(&num[1..]),
            pegs(&should[1..])
        )));
    }
    protocol::emit(&protocol::count(loops, 1, "lps"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::Loops;

    #[test]
    fn one_loop_moves_every_disk_to_peg_3() {
        for disks in 1..=12 {
            let mut num = [0, disks, 0, 0];
            mov(&mut num, disks, 1, 3);
            assert_eq!(num, [0, 0, 0, disks], "{disks} disks");
        }
    }

    #[test]
    fn counts_accumulate_over_loops_as_in_c() {
        for (disks, loops) in [(10, 1u64), (10, 7), (3, 1000), (1, 5)] {
            let mut num = [0, disks, 0, 0];
            let mut d = Loops { n: 0, until: loops };
            run(&mut d, &mut num, disks);
            assert_eq!(d.n, loops);
            assert_eq!(num, expected(disks, loops));
            assert_eq!(num[1] + num[3], disks);
            assert_eq!(num[3], loops as i32 * disks);
        }
        // C's int wraps after 2^31 disks moved; so does the check.
        assert_eq!(expected(10, 300_000_000)[3], 3_000_000_000u32 as i32);
    }

    #[test]
    fn bad_arguments_are_usage_errors() {
        let cases = [
            (vec!["hanoi"], "duration"),
            (vec!["hanoi", "0"], "duration"),
            (vec!["hanoi", "x"], "duration"),
            (vec!["hanoi", "1", "0"], "disks"),
            (vec!["hanoi", "1", "31"], "disks"),
            (vec!["hanoi", "1", "-2"], "disks"),
            (vec!["hanoi", "1", "2", "3"], "'3'"),
        ];
        for (bad, needle) in cases {
            let e = main(bad.iter().map(OsString::from).collect()).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}");
            assert!(e.to_string().contains(needle), "{bad:?}: {e}");
        }
    }
}
