//! `whetstone-double`: Roy Longbottom's C/C++ Whetstone in double precision, as UnixBench builds
//! it (`-DDP -DGTODay -DUNIXBENCH`, docs/ORIGINAL.md, "whetstone-double").
//! `whetstone-double [SECONDS]`: the C program ignores its arguments and always aims at 10 s; this
//! one takes an optional target in whole seconds (default 10, what Run and our standard driver get,
//! since they pass nothing), which replaces only that target, so that `--quick` can make short
//! passes. Anything else is refused.
//!
//! Eight sections, each an outer loop of `xtra` passes around an inner loop of a fixed count
//! (x100 = 100): N1 array elements (run ten times longer than charged), N2 array as parameter,
//! N3 conditional jumps, N4 integer arithmetic, N5 sin/cos/atan, N6 procedure calls, N7 array
//! references, N8 exp/log/sqrt. Each section is timed by wall clock (`gettimeofday`, the
//! `GTODay` timer of UnixBench 6), and the times add up to `TimeUsed`. Calibration starts at
//! xtra = 1 and multiplies by 5 until a run takes more than 0.5 s (at most 10 runs); the measured
//! run uses xtra = SECONDS x xtra / TimeUsed, i.e. about SECONDS (10) s, and
//! MWIPS = xtra x 100 / (10 x TimeUsed) (that 10 is a unit, not the duration). Stdout carries the C program's text in its exact
//! printf formats; stderr gets `COUNT|%.3f|0|MWIPS` and `TIME|%.3f`.
//!
//! **Every operation is executed.** gcc -O3 -ffast-math deletes section N4 (its state never
//! changes: j, k, l = 1, 2, 3 forever) and reduces N3 to an empty loop; LLVM would do the same.
//! Here the loop-carried integers of N3 and N4 pass through [`opaque`] at the end of each inner
//! iteration, an empty `asm!` that costs no instruction but leaves the optimiser unable to know
//! the next iteration's values, so every statement of those sections runs. N7's three array
//! elements go through [`opaque_f64`] the same way: gcc inlines po() and does its three
//! assignments as register moves; LLVM would compute the section's result and drop the loop. The floating-point
//! sections need no barrier: without -ffast-math the compiler may not reorder or fold them.
//! The price is the opposite deviation: rustc keeps IEEE semantics, so where gcc -ffast-math
//! reassociates the sums of N1 and N2 and, in N8, folds `sqrt(exp(y))` into `exp(y / 2)` and
//! the division by t1 into a multiplication, this port computes what the source says (a
//! division by t2 = 2.0 is a multiplication by 0.5 in both: exact, so IEEE allows it). The
//! maths routines are the target libc's (musl in the static build). All of it is measured and
//! explained in docs/FIDELITY.md.
//!
//! **The code for the CPU.** The C program is built with `-march=native`, and GNU C contracts a
//! product and the sum it feeds into one fused multiply-add wherever the CPU has FMA. In N6 this
//! matters: p3 computes x = t * (x + y), then adds x twice, and gcc fuses the product into both
//! sums (x itself is never rounded), which shortens the chain each iteration waits on. Where the
//! CPU has FMA this port does the same ([`Variant::Fma`]: the sections compiled for FMA by
//! `sys::fma::run`, N6 fused, every other statement as in the baseline code); elsewhere, and
//! with `UB_EXEC_IMAGE=static`, nothing is fused. An `IMAGE|fma|...` or `IMAGE|baseline|<why>`
//! line, first on stderr, says which ran. gcc also contracts N2 (which that makes no faster on
//! Zen 4 and slower on Zen 5) and one statement of N5's last iteration; those stay unfused
//! (docs/FIDELITY.md, "CPU kernels").
//!
//! **5.1.3.** Under `UB_SEMANTICS=5.1.3` the sections are timed by user CPU time, as 5.1.3's
//! `-DUNIX` build timed them, and run the baseline code, since 5.1.3 was not built for the CPU
//! (docs/ORIGINAL.md, "5.1.3 semantics").
//!
//! **Self-check.** The check values of the first calibration run (xtra = 1) are the ones the C
//! program prints in its table; they are compared with the documented values (to 1e-9: the
//! last digits vary with compiler, flags and libm). The measured run must give N3 = 1, N4 = 12
//! and N7 = 3 exactly, whatever xtra, and the drifting values of the other sections must lie in
//! the range they keep for any pass count. A wrong value is an error, exit 1, and no MWIPS line.

use crate::args;
use crate::error::{Error, Result};
use crate::protocol;
use crate::sys;
use crate::sys::hint::{opaque, opaque_f64};
use base::version::Semantics;
use std::ffi::OsString;
use std::io::Write;
use twin::exec_image::Request;

/// The loop-count unit: every inner count is a multiple of it.
const X100: i64 = 100;
/// The measured run is scaled to last this many seconds by default (the UNIXBENCH build's fixed
/// value).
pub const DURATION: u32 = 10;

/// Section headings, exactly as the C program pads them.
const HEADINGS: [&str; 8] = [
    "N1 floating point",
    "N2 floating point",
    "N3 if then else  ",
    "N4 fixed point   ",
    "N5 sin,cos etc.  ",
    "N6 floating point",
    "N7 assignments   ",
    "N8 exp,sqrt etc. ",
];

/// Whether a section is rated in MFLOPS (`pout` type 1) or MOPS (type 2).
const FLOPS: [bool; 8] = [true, true, false, false, false, true, false, false];

/// The check values the C program prints (those of the first calibration run, xtra = 1), as
/// printed: 17 decimals.
#[allow(clippy::excessive_precision)]
pub const DOCUMENTED: [f64; 8] = [
    -1.12398255667391744,
    -1.12187079889287311,
    1.0,
    12.0,
    0.49902937281518261,
    0.99999987890767417,
    3.0,
    0.75100163018454191,
];

/// What one section reports: its check value, its operation count (C computes it in `float`),
/// and the seconds it is charged.
#[derive(Debug, Clone, Copy, Default)]
pub struct Section {
    pub check: f64,
    pub ops: f32,
    pub time: f64,
}

/// Which code runs the sections, as the `IMAGE|` line names it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Variant {
    /// Compiled for the CPU's FMA, N6's multiply-adds fused as gcc `-march=native` fuses them.
    Fma,
    /// The baseline code, nothing fused; why.
    Baseline(&'static str),
}

impl Variant {
    /// The FMA code where the CPU has it, unless `UB_EXEC_IMAGE=static` asks for this binary's
    /// baseline code (as it asks execl and spawn for this binary's image).
    pub fn choose(request: Request, semantics: Semantics) -> Variant {
        if request == Request::Static {
            return Variant::Baseline("UB_EXEC_IMAGE=static");
        }
        // 5.1.3 built without -march=native: gcc fused nothing.
        if semantics == Semantics::V513 {
            return Variant::Baseline("UB_SEMANTICS=5.1.3");
        }
        match sys::fma::missing() {
            None => Variant::Fma,
            Some(why) => Variant::Baseline(why),
        }
    }

    /// The `IMAGE|kind|detail` line that says which ran.
    pub fn image_line(self) -> String {
        match self {
            Variant::Fma => {
                protocol::image("fma", "N6 multiply-adds fused, as gcc -march=native compiles them")
            }
            Variant::Baseline(why) => protocol::image("baseline", why),
        }
    }
}

/// One call of C's `whetstones(xtra, x100, ...)`: the eight sections, with `clock` read around
/// each (`dtime()`), handing each finished section to `pout`, in the code `variant` names.
pub fn whetstones(
    xtra: i64,
    variant: Variant,
    clock: &mut dyn FnMut() -> f64,
    pout: &mut dyn FnMut(usize, Section),
) {
    if variant == Variant::Fma
        && sys::fma::run(
            #[inline(always)]
            || sections::<true>(xtra, clock, pout),
        )
        .is_some()
    {
        return;
    }
    sections::<false>(xtra, clock, pout);
}

/// The sections, with N6's multiply-adds fused when `FMA` (compiled for it by `sys::fma::run`).
#[inline(always)]
fn sections<const FMA: bool>(
    xtra: i64,
    clock: &mut dyn FnMut() -> f64,
    pout: &mut dyn FnMut(usize, Section),
) {
    let t0: f64 = 0.49999975;
    let mut t = t0;
    let t1: f64 = 0.50000025;
    let t2: f64 = 2.0;

    let n1 = 12 * X100;
    let n2 = 14 * X100;
    let n3 = 345 * X100;
    let n4 = 210 * X100;
    let n5 = 32 * X100;
    let n6 = 899 * X100;
    let n7 = 616 * X100;
    let n8 = 93 * X100;
    let n1mult = 10;
    let ops = |n: i64, per: i64| (n * per) as f32 * xtra as f32;

    // Section 1, array elements.
    let mut e1 = [1.0f64, -1.0, -1.0, -1.0];
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n1 * n1mult {
            e1[0] = (e1[0] + e1[1] + e1[2] - e1[3]) * t;
            e1[1] = (e1[0] + e1[1] - e1[2] + e1[3]) * t;
            e1[2] = (e1[0] - e1[1] + e1[2] + e1[3]) * t;
            e1[3] = (-e1[0] + e1[1] + e1[2] + e1[3]) * t;
        }
        t = 1.0 - t;
    }
    t = t0;
    let timeb = (clock() - timea) / n1mult as f64;
    pout(1, Section { check: e1[3], ops: ops(n1, 16), time: timeb });

    // Section 2, array as parameter.
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n2 {
            pa(&mut e1, t, t2);
        }
        t = 1.0 - t;
    }
    t = t0;
    let timeb = clock() - timea;
    pout(2, Section { check: e1[3], ops: ops(n2, 96), time: timeb });

    // Section 3, conditional jumps.
    let mut j: i64 = 1;
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n3 {
            j = if j == 1 { 2 } else { 3 };
            j = if j > 2 { 0 } else { 1 };
            j = if j < 1 { 1 } else { 0 };
            j = opaque(j);
        }
    }
    let timeb = clock() - timea;
    pout(3, Section { check: j as f64, ops: ops(n3, 3), time: timeb });

    // Section 4, integer arithmetic.
    let mut j: i64 = 1;
    let mut k: i64 = 2;
    let mut l: i64 = 3;
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n4 {
            j = j * (k - j) * (l - k);
            k = l * k - (l - j) * k;
            l = (l - k) * (k + j);
            e1[(l - 2) as usize] = (j + k + l) as f64;
            e1[(k - 2) as usize] = (j * k * l) as f64;
            j = opaque(j);
            k = opaque(k);
            l = opaque(l);
        }
    }
    let timeb = clock() - timea;
    let x = e1[0] + e1[1];
    pout(4, Section { check: x, ops: ops(n4, 15), time: timeb });

    // Section 5, trig functions.
    let mut x: f64 = 0.5;
    let mut y: f64 = 0.5;
    let timea = clock();
    for _ in 0..xtra {
        for _ in 1..n5 {
            x = t * (t2 * x.sin() * x.cos() / ((x + y).cos() + (x - y).cos() - 1.0)).atan();
            y = t * (t2 * y.sin() * y.cos() / ((x + y).cos() + (x - y).cos() - 1.0)).atan();
        }
        t = 1.0 - t;
    }
    t = t0;
    let timeb = clock() - timea;
    pout(5, Section { check: y, ops: ops(n5, 26), time: timeb });

    // Section 6, procedure calls.
    let mut x: f64 = 1.0;
    let mut y: f64 = 1.0;
    let mut z: f64 = 1.0;
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n6 {
            p3::<FMA>(&mut x, &mut y, &mut z, t, t1, t2);
        }
    }
    let timeb = clock() - timea;
    pout(6, Section { check: z, ops: ops(n6, 6), time: timeb });

    // Section 7, array references.
    let (j, k, l) = (0, 1, 2);
    e1[0] = 1.0;
    e1[1] = 2.0;
    e1[2] = 3.0;
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n7 {
            po(&mut e1, j, k, l);
            for e in &mut e1[..3] {
                *e = opaque_f64(*e);
            }
        }
    }
    let timeb = clock() - timea;
    pout(7, Section { check: e1[2], ops: ops(n7, 3), time: timeb });

    // Section 8, standard functions.
    let mut x: f64 = 0.75;
    let timea = clock();
    for _ in 0..xtra {
        for _ in 0..n8 {
            x = (x.ln() / t1).exp().sqrt();
        }
    }
    let timeb = clock() - timea;
    pout(8, Section { check: x, ops: ops(n8, 4), time: timeb });
}

#[inline]
fn pa(e: &mut [f64; 4], t: f64, t2: f64) {
    for _ in 0..6 {
        e[0] = (e[0] + e[1] + e[2] - e[3]) * t;
        e[1] = (e[0] + e[1] - e[2] + e[3]) * t;
        e[2] = (e[0] - e[1] + e[2] + e[3]) * t;
        e[3] = (-e[0] + e[1] + e[2] + e[3]) / t2;
    }
}

#[inline]
fn po(e1: &mut [f64; 4], j: usize, k: usize, l: usize) {
    e1[j] = e1[k];
    e1[k] = e1[l];
    e1[l] = e1[j];
}

#[inline]
fn p3<const FMA: bool>(x: &mut f64, y: &mut f64, z: &mut f64, t: f64, t1: f64, t2: f64) {
    *x = *y;
    *y = *z;
    let sum = *x + *y;
    *x = t * sum;
    // Both `x + y` below add that product: GNU C contracts each into one FMA where the CPU has
    // one (its default -ffp-contract=fast), and the product is rounded only as `x`.
    *y = t1 * mul_add::<FMA>(t, sum, *y);
    *z = mul_add::<FMA>(t, sum, *y) / t2;
}

/// `a * b + c`: fused (one rounding) when `FMA`, else as written (two roundings, as `x + y`
/// with `x = a * b` gives).
#[inline(always)]
fn mul_add<const FMA: bool>(a: f64, b: f64, c: f64) -> f64 {
    if FMA {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// Compares the first calibration run's check values with the documented ones.
pub fn check_documented(results: &[f64; 8]) -> std::result::Result<(), String> {
    for (i, (&is, &should)) in results.iter().zip(DOCUMENTED.iter()).enumerate() {
        let close = (is - should).abs() <= 1e-9 * should.abs(); // false for NaN
        if !close {
            return Err(format!("section N{} gave {is:.17} with xtra = 1, should be {should:.17}", i + 1));
        }
    }
    Ok(())
}

/// The values the measured run must give, for any pass count: exact for N3, N4, N7, the range
/// the drifting values stay in for the others (N6 and N8 move towards 1 as passes grow).
pub fn check_measured(checks: &[f64; 8]) -> std::result::Result<(), String> {
    const RANGES: [(f64, f64); 8] = [
        (-1.2, -1.0),
        (-1.2, -1.0),
        (1.0, 1.0),
        (12.0, 12.0),
        (0.45, 0.55),
        (0.0, 1.0),
        (3.0, 3.0),
        (0.75, 1.0),
    ];
    for (i, (&v, &(lo, hi))) in checks.iter().zip(RANGES.iter()).enumerate() {
        if !(lo..=hi).contains(&v) {
            let should = if lo == hi { format!("{lo:.1}") } else { format!("between {lo} and {hi}") };
            return Err(format!("section N{} gave {v:.17}, should be {should}", i + 1));
        }
    }
    Ok(())
}

/// The clock the sections are timed by: 6.0's wall clock (`-DGTODay`), or 5.1.3's user CPU
/// time (`-DUNIX`), under which N copies on fewer CPUs each count only their own share.
fn timer(semantics: Semantics) -> fn() -> f64 {
    match semantics {
        Semantics::V6 => sys::clock::gettimeofday,
        Semantics::V513 => sys::clock::user_cpu,
    }
}

/// The measured run's pass count, from the last calibration run's `xtra` and `time_used`, scaled
/// to last `duration` seconds: C's `(long)((SPDP)(duration * xtra) / TimeUsed)`, at least 1.
pub fn measured_xtra(duration: u32, xtra: i64, time_used: f64) -> i64 {
    let mut x = xtra;
    if time_used > 0.0 {
        x = ((i64::from(duration) * xtra) as f64 / time_used) as i64;
    }
    x.max(1)
}

/// Runs the whole program, its measured run aimed at `duration` seconds; `out` gets the C
/// program's stdout text.
fn bench(duration: u32, variant: Variant, out: &mut dyn Write) -> std::result::Result<(f64, f64), String> {
    let io = |e: std::io::Error| format!("cannot write to stdout: {e}");
    let mut clock = timer(Semantics::of_applet());
    let mut results = [0.0f64; 8];
    let mut xtra: i64 = 1;
    let mut count = 10;
    let mut calibrate = 1;
    let mut time_used;
    writeln!(out, "Calibrate").map_err(io)?;
    loop {
        time_used = 0.0;
        whetstones(xtra, variant, &mut clock, &mut |s, sec| {
            if calibrate == 1 {
                results[s - 1] = sec.check;
            }
            time_used += sec.time;
        });
        if calibrate == 1 {
            check_documented(&results)?;
        }
        writeln!(out, "{time_used:11.2} Seconds {:10.0}   Passes (x 100)", xtra as f64).map_err(io)?;
        out.flush().map_err(io)?;
        calibrate += 1;
        count -= 1;
        if time_used > 0.5 {
            count = 0;
        } else {
            xtra *= 5;
        }
        if count <= 0 {
            break;
        }
    }
    xtra = measured_xtra(duration, xtra, time_used);
    write!(out, "\nUse {xtra}  passes (x 100)\n").map_err(io)?;
    write!(out, "\n          Double Precision C/C++ Whetstone Benchmark\n").map_err(io)?;
    write!(out, "\nLoop content                  Result              MFLOPS      MOPS   Seconds\n\n")
        .map_err(io)?;
    out.flush().map_err(io)?;

    time_used = 0.0;
    let mut checks = [0.0f64; 8];
    let mut failed = None;
    whetstones(xtra, variant, &mut clock, &mut |s, sec| {
        checks[s - 1] = sec.check;
        time_used += sec.time;
        let rate = if sec.time > 0.0 { sec.ops as f64 / (1_000_000.0 * sec.time) } else { 0.0 };
        let line = if FLOPS[s - 1] {
            format!("{} {:24.17}     {rate:9.3}          {:9.3}\n", HEADINGS[s - 1], results[s - 1], sec.time)
        } else {
            format!("{} {:24.17}               {rate:9.3}{:9.3}\n", HEADINGS[s - 1], results[s - 1], sec.time)
        };
        if let Err(e) = out.write_all(line.as_bytes()).and_then(|_| out.flush()) {
            failed.get_or_insert(io(e));
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    check_measured(&checks)?;
    let mwips = if time_used > 0.0 { (xtra as f32 * X100 as f32) as f64 / (10.0 * time_used) } else { 0.0 };
    write!(out, "\nMWIPS            {mwips:39.3}{time_used:19.3}\n\n").map_err(io)?;
    out.flush().map_err(io)?;
    Ok((mwips, time_used))
}

/// The command line: `whetstone-double [SECONDS]`, the measured run's target duration.
fn parse(argv: &[OsString]) -> Result<u32> {
    match argv {
        [] | [_] => Ok(DURATION),
        [_, d] => args::parse_duration(d),
        [_, _, extra, ..] => Err(Error::usage(format!(
            "unexpected argument '{}': whetstone-double takes only a duration (default {DURATION} s)",
            extra.to_string_lossy()
        ))),
    }
}

pub fn main(argv: Vec<OsString>) -> Result {
    let duration = parse(&argv)?;
    let variant = Variant::choose(twin::exec_image::request().map_err(Error::usage)?, Semantics::of_applet());
    let _ = sys::fd::write_all(2, variant.image_line().as_bytes());
    let stdout = std::io::stdout();
    let (mwips, time_used) = bench(duration, variant, &mut stdout.lock())
        .map_err(|e| Error::failed(format!("self-check failed: {e}")))?;
    protocol::emit(&protocol::rate(mwips, 3, "MWIPS"));
    protocol::emit(&protocol::time(time_used, 3));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASELINE: Variant = Variant::Baseline("test");

    fn checks_of(xtra: i64, variant: Variant) -> [f64; 8] {
        let mut r = [0.0; 8];
        whetstones(xtra, variant, &mut || 0.0, &mut |s, sec| r[s - 1] = sec.check);
        r
    }

    fn checks(xtra: i64) -> [f64; 8] {
        checks_of(xtra, BASELINE)
    }

    fn assert_close(is: [f64; 8], should: [f64; 8]) {
        for i in 0..8 {
            let tol = 1e-12 * should[i].abs();
            assert!((is[i] - should[i]).abs() <= tol, "N{}: {:.17} vs C {:.17}", i + 1, is[i], should[i]);
        }
    }

    /// Values printed by the C program (whets.c, -DDP, gcc 12 -O2 without -ffast-math) for the
    /// same pass counts. gcc -O3 -ffast-math differs from these by a few 1e-14 (N2, N8).
    #[test]
    #[allow(clippy::excessive_precision)]
    fn check_values_match_the_c_program() {
        assert_close(
            checks(1),
            [
                -1.12398255667391900,
                -1.12187079889284425,
                1.0,
                12.0,
                0.49902937281518261,
                0.99999987890802811,
                3.0,
                0.75100163018458665,
            ],
        );
        assert_close(
            checks(3),
            [
                -1.12398255268560132,
                -1.12187079387493949,
                1.0,
                12.0,
                0.49902937237677930,
                0.99999985894622145,
                3.0,
                0.75299494026090452,
            ],
        );
    }

    /// N6 as gcc -O3 -march=native compiles it on a CPU with FMA (GNU C contracts by default;
    /// no -ffast-math): the C program's documented N6 check value, exactly, and for 3 passes
    /// the value that build prints. The other sections run the baseline code's statements and
    /// give its values, bit for bit.
    #[test]
    #[allow(clippy::excessive_precision)]
    fn the_fma_variant_fuses_n6_as_gcc_does_and_nothing_else() {
        if !sys::fma::available() {
            eprintln!("no FMA on this CPU: the variant cannot run here");
            return;
        }
        for (xtra, n6) in [(1, 0.99999987890767417), (3, 0.99999985894520138)] {
            let (fused, plain) = (checks_of(xtra, Variant::Fma), checks(xtra));
            assert_eq!(fused[5], n6, "N6 with xtra = {xtra}");
            assert_ne!(plain[5], n6, "the baseline does not fuse");
            for i in (0..8).filter(|&i| i != 5) {
                assert_eq!(fused[i].to_bits(), plain[i].to_bits(), "N{} with xtra = {xtra}", i + 1);
            }
            check_measured(&fused).unwrap();
        }
        check_documented(&checks_of(1, Variant::Fma)).unwrap();
        assert_eq!(checks_of(1, Variant::Fma)[5], DOCUMENTED[5], "the C program's own figure");
    }

    #[test]
    fn the_variant_is_the_fma_code_where_the_cpu_has_it_unless_static_is_asked_for() {
        let want = sys::fma::missing().map_or(Variant::Fma, Variant::Baseline);
        assert_eq!(Variant::choose(Request::Auto, Semantics::V6), want);
        assert_eq!(Variant::choose(Request::Dynamic(None), Semantics::V6), want);
        assert_eq!(
            Variant::choose(Request::Static, Semantics::V6),
            Variant::Baseline("UB_EXEC_IMAGE=static")
        );
        assert_eq!(Variant::choose(Request::Auto, Semantics::V513), Variant::Baseline("UB_SEMANTICS=5.1.3"));
        assert_eq!(
            Variant::Fma.image_line(),
            "IMAGE|fma|N6 multiply-adds fused, as gcc -march=native compiles them\n"
        );
        assert_eq!(
            Variant::Baseline("no FMA on this CPU").image_line(),
            "IMAGE|baseline|no FMA on this CPU\n"
        );
    }

    #[test]
    fn self_checks_accept_good_and_refuse_bad_values() {
        check_documented(&checks(1)).unwrap();
        check_measured(&checks(1)).unwrap();
        check_measured(&checks(7)).unwrap();
        let mut bad = checks(1);
        bad[3] = 0.0;
        assert_eq!(check_measured(&bad).unwrap_err(), "section N4 gave 0.00000000000000000, should be 12.0");
        bad = checks(1);
        bad[7] = f64::NAN;
        assert!(check_documented(&bad).unwrap_err().starts_with("section N8 gave NaN"));
        assert!(check_measured(&bad).is_err());
    }

    #[test]
    fn ops_and_time_follow_the_c_formulas() {
        let mut secs = [Section::default(); 8];
        let mut tick = 0.0;
        // A clock that advances 1 s per reading: every section is charged 1 s, N1 0.1 s.
        whetstones(
            2,
            BASELINE,
            &mut || {
                tick += 1.0;
                tick
            },
            &mut |s, sec| secs[s - 1] = sec,
        );
        assert_eq!(secs[0].time, 0.1);
        assert!(secs[1..].iter().all(|s| s.time == 1.0));
        assert_eq!(secs[0].ops, 1200.0 * 16.0 * 2.0);
        assert_eq!(secs[7].ops, 9300.0 * 4.0 * 2.0);
    }

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn an_optional_duration_defaults_to_the_c_programs_10_s() {
        assert_eq!(parse(&os(&["whetstone-double"])).unwrap(), 10);
        assert_eq!(parse(&os(&[])).unwrap(), 10);
        assert_eq!(parse(&os(&["whetstone-double", "2"])).unwrap(), 2);
        assert_eq!(parse(&os(&["whetstone-double", "10"])).unwrap(), 10);
    }

    #[test]
    fn bad_arguments_are_refused() {
        for (args, needle) in [
            (&["0"][..], "invalid duration '0'"),
            (&["-1"], "invalid duration '-1'"),
            (&["ten"], "invalid duration 'ten'"),
            (&["1.5"], "invalid duration '1.5'"),
            (&[""], "invalid duration ''"),
            (&["86401"], "invalid duration '86401'"),
            (&["2", "3"], "unexpected argument '3'"),
        ] {
            let argv: Vec<OsString> =
                std::iter::once("whetstone-double").chain(args.iter().copied()).map(OsString::from).collect();
            let e = main(argv).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}");
            let msg = e.to_string();
            assert!(msg.contains(needle) && !msg.contains('\n'), "{args:?}: {msg}");
        }
    }

    #[test]
    fn only_the_target_duration_scales_the_measured_run() {
        // The last calibration run: 125 x 100 passes in 0.8 s. 10 s: 1562 (C's truncation).
        assert_eq!(measured_xtra(10, 125, 0.8), 1562);
        assert_eq!(measured_xtra(1, 125, 0.8), 156);
        assert_eq!(measured_xtra(2, 125, 0.8), 312);
        // A calibration too slow for the target, or no time measured: at least 1, or unchanged.
        assert_eq!(measured_xtra(1, 1, 3.0), 1);
        assert_eq!(measured_xtra(1, 5, 0.0), 5);
    }
}
