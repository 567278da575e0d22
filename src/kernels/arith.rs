//! `arithoh`, `register`, `short`, `int`, `long`, `float`, `double` DURATION: UnixBench's
//! `arith.c`, one source built once per `datum` type (docs/ORIGINAL.md, "arith").
//!
//! The timed loop increments the counter **before** the work, so the count includes the loop in
//! progress, then calls `result = dumb_stuff(result)`. `dumb_stuff` sums i*i/(i*i-1) for
//! i = 2..=101 in the datum type (integer division for the integer types, so each term is 1) and
//! returns `(int)(x + y + z)`: 10402 for every type (float and double: 10402.74... truncated).
//! The C types' semantics are kept: `short` arithmetic is done in `int` and stored back with
//! truncation, `register` is `int` (the keyword is a hint gcc ignores), `long` is 64 bits.
//! `arithoh` has an empty loop and returns 0: it measures the loop overhead, the counter
//! increment alone.
//!
//! **Never an empty loop.** gcc -O3 sees that the result of `dumb_stuff` is never used and
//! deletes the arithmetic, leaving an empty 100-iteration loop per call (so `int` and `double`
//! give the same figure). This port does the arithmetic: the loop's first index goes through
//! [`opaque`] (no instruction, but the optimiser cannot know it, so it can neither fold the sum
//! nor hoist the call out of the timed loop), and the result is checked at the end. `arithoh`
//! keeps the loop's shape and nothing more, as gcc's does. docs/FIDELITY.md gives the figures.
//!
//! **End of the run.** As in dhry: the alarm raises a flag, the loop reads it once per
//! iteration after the work, and the kernel then checks `result` (10402, or 0 for arithoh)
//! before printing `COUNT|iter|1|lps`. The C program prints at the alarm instant, counting the
//! loop in progress; finishing that loop first gives the same number. In arithoh, whose loop is
//! nothing but the increment, the flag test is two of the loop's six instructions; its cost
//! is lost in a larger effect, where the loop lands relative to 64-byte lines, which moves the
//! C program's figure by 2x between builds too (docs/FIDELITY.md).

use crate::args;
use crate::error::{Error, Result};
use crate::protocol;
use crate::sys::hint::opaque;
use crate::timing::{self, Deadline};
use std::ffi::OsString;

/// `dumb_stuff` for one datum type.
pub type DumbStuff = fn(i32) -> i32;

/// What `dumb_stuff` returns when it did its work: 101 + 10201 + 100 (+ 0.74 for float types,
/// dropped by the `(int)` cast).
pub const EXPECTED: i32 = 10402;

/// The first index of the sum, unknown to the optimiser (see the module comment).
#[inline(always)]
fn first() -> i64 {
    opaque(2)
}

/// `-Darithoh`: the loop with an empty body; returns 0.
#[inline(always)]
pub fn dumb_stuff_oh(_i: i32) -> i32 {
    0
}

macro_rules! integer_dumb_stuff {
    ($name:ident, $t:ty, $promoted:ty) => {
        /// `dumb_stuff` with an integer `datum`: the arithmetic is done in the type C promotes
        /// it to (`int`, or `long` itself), wrapping, with integer division, and truncated when
        /// stored back into the datum.
        #[inline(always)]
        pub fn $name(_i: i32) -> i32 {
            let (mut x, mut y, mut z): ($t, $t, $t) = (0, 0, 0);
            let mut i = first() as i32;
            while i <= 101 {
                x = i as $t;
                y = (x as $promoted).wrapping_mul(x as $promoted) as $t;
                z = (z as $promoted).wrapping_add((y as $promoted) / (y as $promoted).wrapping_sub(1)) as $t;
                i += 1;
            }
            (x as $promoted).wrapping_add(y as $promoted).wrapping_add(z as $promoted) as i32
        }
    };
}

macro_rules! float_dumb_stuff {
    ($name:ident, $t:ty) => {
        /// `dumb_stuff` with a floating `datum`: `x = i` converts, `y - 1` is done in the type,
        /// and the sum is truncated by the `(int)` of the return.
        #[inline(always)]
        pub fn $name(_i: i32) -> i32 {
            let (mut x, mut y, mut z): ($t, $t, $t) = (0.0, 0.0, 0.0);
            let mut i = first() as i32;
            while i <= 101 {
                x = i as $t;
                y = x * x;
                z += y / (y - 1.0);
                i += 1;
            }
            (x + y + z) as i32
        }
    };
}

integer_dumb_stuff!(dumb_stuff_short, i16, i32);
integer_dumb_stuff!(dumb_stuff_int, i32, i32);
integer_dumb_stuff!(dumb_stuff_long, i64, i64);
float_dumb_stuff!(dumb_stuff_float, f32);
float_dumb_stuff!(dumb_stuff_double, f64);

/// The `dumb_stuff` of each program name and the result it must return.
pub fn variant(name: &str) -> Option<(DumbStuff, i32)> {
    Some(match name {
        "arithoh" => (dumb_stuff_oh, 0),
        "register" | "int" => (dumb_stuff_int, EXPECTED),
        "short" => (dumb_stuff_short, EXPECTED),
        "long" => (dumb_stuff_long, EXPECTED),
        "float" => (dumb_stuff_float, EXPECTED),
        "double" => (dumb_stuff_double, EXPECTED),
        _ => return None,
    })
}

/// The timed loop of `main`: `++iter; result = dumb_stuff(result);` until `d` expires. Generic
/// over the function so that each program gets its own loop with `dumb_stuff` inlined, as gcc
/// inlines it.
#[inline(always)]
pub fn run<D: Deadline>(d: &mut D, mut dumb_stuff: impl FnMut(i32) -> i32) -> i32 {
    let mut result = 0;
    loop {
        d.tick();
        result = dumb_stuff(result);
        if d.expired() {
            return result;
        }
    }
}

#[inline(never)]
fn timed(dumb_stuff: impl Fn(i32) -> i32) -> i32 {
    run(&mut timing::Alarm, dumb_stuff)
}

pub fn main(argv: Vec<OsString>) -> Result {
    let name = argv[0].to_string_lossy().into_owned();
    let (_, expected) =
        variant(&name).ok_or_else(|| Error::usage(format!("unknown arith variant '{name}'")))?;
    let duration = args::duration_only(&argv)?;
    timing::stop_on_alarm(duration);
    // One monomorphised loop per type, each with its dumb_stuff inlined.
    let result = match name.as_str() {
        "arithoh" => timed(dumb_stuff_oh),
        "short" => timed(dumb_stuff_short),
        "long" => timed(dumb_stuff_long),
        "float" => timed(dumb_stuff_float),
        "double" => timed(dumb_stuff_double),
        _ => timed(dumb_stuff_int),
    };
    if result != expected {
        return Err(Error::failed(format!(
            "self-check failed: dumb_stuff returned {result}, should be {expected}"
        )));
    }
    protocol::emit(&protocol::count(timing::count(), 1, "lps"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::Loops;

    #[test]
    fn every_type_returns_what_c_returns() {
        for name in ["register", "short", "int", "long", "float", "double"] {
            let (f, expected) = variant(name).unwrap();
            assert_eq!(f(0), 10402, "{name}");
            assert_eq!(expected, 10402);
        }
        let (oh, zero) = variant("arithoh").unwrap();
        assert_eq!((oh(3), zero), (0, 0));
        assert_eq!(dumb_stuff_oh(7), 0);
        assert!(variant("char").is_none());
    }

    #[test]
    fn float_types_keep_the_fraction_until_the_cast() {
        // z = 100 + sum 1/(i*i-1) = 100.74..., so x + y + z = 10402.74 before (int).
        let z: f64 = (2..=101).map(|i| (i * i) as f64 / ((i * i) as f64 - 1.0)).sum();
        assert!((z - 100.7401).abs() < 1e-3, "{z}");
        assert_eq!(dumb_stuff_double(0), (101.0 + 10201.0 + z) as i32);
    }

    #[test]
    fn the_counter_includes_the_loop_in_progress() {
        let mut d = Loops { n: 0, until: 5 };
        let mut calls = 0;
        let r = run(&mut d, |i| {
            calls += 1;
            dumb_stuff_int(i)
        });
        assert_eq!((r, d.n, calls), (10402, 5, 5));
    }

    #[test]
    fn bad_arguments_are_usage_errors() {
        for bad in [vec!["int"], vec!["int", "0"], vec!["double", "ten"], vec!["short", "-1"]] {
            let e = main(bad.iter().map(OsString::from).collect()).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad:?}");
            assert!(e.to_string().contains("duration"), "{bad:?}: {e}");
        }
    }
}
