//! Decimal to f64, correctly rounded (half to even), in little code: std's parser carries a
//! 10 KB table (Eisel-Lemire) that a few dozen parses of short numbers do not need. Short
//! inputs take Clinger's exact fast path; the rest divide exact big integers.

/// The powers of ten an f64 holds exactly; products and quotients with them round once.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19, 1e20, 1e21, 1e22,
];

/// Significant digits kept exactly. Every boundary between two roundings (a midpoint between
/// neighbouring doubles) has at most 767 significant digits, so the digits after these can only
/// break a tie, which one sticky bit does.
const MAX_DIGITS: usize = 800;

/// 4096 bits: 10^1124 (the largest divisor, see `magnitude`) times 2^64 fits.
const LIMBS: usize = 128;

/// The quotient's bits beyond its top one: 63 leaves at least 10 to round with.
const Q: i64 = 63;

/// An unsigned integer, little-endian u32 limbs, fixed size so nothing allocates.
#[derive(Clone)]
struct Big([u32; LIMBS]);

impl Big {
    fn new(v: u32) -> Big {
        let mut b = Big([0; LIMBS]);
        b.0[0] = v;
        b
    }

    /// self = self * m + add.
    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = add as u64;
        for x in self.0.iter_mut() {
            let t = *x as u64 * m as u64 + carry;
            *x = t as u32;
            carry = t >> 32;
        }
    }

    /// self *= base^n, in steps of base^chunk (which must fit a u32).
    fn mul_pow(&mut self, base: u32, chunk: i64, mut n: i64) {
        while n > 0 {
            let t = n.min(chunk);
            self.mul_add(base.pow(t as u32), 0);
            n -= t;
        }
    }

    fn bits(&self) -> i64 {
        let mut i = LIMBS;
        while i > 0 {
            i -= 1;
            if self.0[i] != 0 {
                return (i as i64 + 1) * 32 - self.0[i].leading_zeros() as i64;
            }
        }
        0
    }

    fn ge(&self, o: &Big) -> bool {
        let mut i = LIMBS;
        while i > 0 {
            i -= 1;
            if self.0[i] != o.0[i] {
                return self.0[i] > o.0[i];
            }
        }
        true
    }

    /// self -= o, for self >= o.
    fn sub(&mut self, o: &Big) {
        let mut borrow = false;
        for i in 0..LIMBS {
            let (x, b1) = self.0[i].overflowing_sub(o.0[i]);
            let (x, b2) = x.overflowing_sub(borrow as u32);
            self.0[i] = x;
            borrow = b1 | b2;
        }
    }
}

/// The f64 nearest to the decimal number `s` (ties to even), as `s.parse::<f64>().ok()` gives,
/// for `[+-]? (digits ('.' digits?)? | '.' digits) ([eE] [+-]? digits)?`; None for anything
/// else (std's inf, infinity and nan included). Overflow gives ±inf, underflow ±0.
pub fn parse_f64(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let neg = b.first() == Some(&b'-');
    let mut i = matches!(b.first(), Some(b'+' | b'-')) as usize;
    // The value is d * 10^e, plus something below 10^e if `sticky`.
    let mut d = Big::new(0);
    let (mut ndig, mut e, mut sticky, mut seen, mut frac) = (0, 0i64, false, false, false);
    while i < b.len() {
        let c = b[i];
        if c == b'.' && !frac {
            frac = true;
        } else if c.is_ascii_digit() {
            seen = true;
            let v = (c - b'0') as u32;
            if ndig == 0 && v == 0 {
                e -= frac as i64;
            } else if ndig < MAX_DIGITS {
                d.mul_add(10, v);
                ndig += 1;
                e -= frac as i64;
            } else {
                sticky |= v != 0;
                e += !frac as i64;
            }
        } else {
            break;
        }
        i += 1;
    }
    if !seen {
        return None;
    }
    if i < b.len() {
        e += exponent(&b[i..])?;
    }
    let m = magnitude(d, ndig as i64, e, sticky);
    Some(if neg { -m } else { m })
}

/// The value of `[eE] [+-]? digits`, clamped far beyond any finite result so it cannot overflow.
fn exponent(b: &[u8]) -> Option<i64> {
    if b[0] | 0x20 != b'e' {
        return None;
    }
    let neg = b.get(1) == Some(&b'-');
    let start = 1 + matches!(b.get(1), Some(b'+' | b'-')) as usize;
    if start == b.len() {
        return None;
    }
    let mut x = 0i64;
    for &c in &b[start..] {
        if !c.is_ascii_digit() {
            return None;
        }
        x = (x * 10 + (c - b'0') as i64).min(1 << 40);
    }
    Some(if neg { -x } else { x })
}

/// d * 10^e (d has `ndig` digits; `sticky`: the true value is a little more) as the nearest f64.
fn magnitude(mut d: Big, ndig: i64, e: i64, sticky: bool) -> f64 {
    // Below 10^-324 is under half the smallest subnormal; 10^309 and up overflow. This also
    // bounds the big integers below: 10^e < 10^309, 10^-e < 10^(324 + 800).
    if ndig == 0 || ndig + e <= -324 {
        return 0.0;
    }
    if ndig - 1 + e >= 309 {
        return f64::INFINITY;
    }
    let m = d.0[0] as u64 | (d.0[1] as u64) << 32;
    if !sticky && ndig <= 19 && m < 1 << 53 && (-22..=22).contains(&e) {
        let p = POW10[e.unsigned_abs() as usize];
        return if e < 0 { m as f64 / p } else { m as f64 * p };
    }
    let mut den = Big::new(1);
    if e >= 0 {
        d.mul_pow(10, 9, e);
    } else {
        den.mul_pow(10, 9, -e);
    }
    // Scale so the quotient d * 2^k / den has exactly Q + 1 or Q bits; den also takes the 2^Q
    // that the long division below divides back out.
    let k = den.bits() + Q - d.bits();
    d.mul_pow(2, 31, k.max(0));
    den.mul_pow(2, 31, Q + (-k).max(0));
    let mut q = 0u64;
    for _ in 0..=Q {
        q <<= 1;
        if d.ge(&den) {
            d.sub(&den);
            q |= 1;
        }
        d.mul_add(2, 0);
    }
    round(q, -k, sticky || d.bits() != 0)
}

/// q * 2^b (plus a little if `sticky`), q >= 2^62, rounded to the f64 grid: 53 bits, or fewer
/// where the subnormals' fixed unit 2^-1074 cuts in.
fn round(q: u64, b: i64, sticky: bool) -> f64 {
    let len = 64 - q.leading_zeros() as i64;
    let drop = (len - 53).max(-1074 - b);
    if drop > len {
        return 0.0; // under half the smallest subnormal
    }
    let mut mant = q.checked_shr(drop as u32).unwrap_or(0);
    let rem = q & (u64::MAX >> (64 - drop));
    let half = 1 << (drop - 1);
    if rem > half || rem == half && (sticky || mant & 1 == 1) {
        mant += 1;
    }
    // The biased exponent added to the 53-bit mantissa (hidden bit included) gives the bits:
    // a carry out of the mantissa, or into subnormal's hidden bit, lands in the exponent.
    let bits = (((b + drop + 1074) as u64) << 52) + mant;
    f64::from_bits(bits.min(f64::INFINITY.to_bits()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ours against std's, bit for bit (std's parse is the oracle here only).
    fn check(s: &str) {
        let want = s.parse::<f64>().ok().map(f64::to_bits);
        let got = parse_f64(s).map(f64::to_bits);
        assert_eq!(got, want, "{s:?}: got {:?}, std {:?}", parse_f64(s), s.parse::<f64>());
    }

    #[test]
    fn hand_picked() {
        let long = format!("{}.5e-10", "7".repeat(400));
        let tiny = format!("0.{}1", "0".repeat(350));
        // Past the 800 digits kept: a tie (2^53 + 1) broken, or not, by a far digit.
        let above = format!("9007199254740993.{}1", "0".repeat(900));
        let tie = format!("9007199254740993{}e-900", "0".repeat(900));
        let many = format!("0.{}e-300", "123456789".repeat(100));
        let cases = [
            "0",
            "-0",
            "0.0",
            "-0.0e5",
            "1",
            "1.5",
            "+3",
            ".5",
            "-.5",
            "+.5e1",
            "5.",
            "5.e1",
            "1e5",
            "1E-5",
            "123456789012345678",
            "0.1",
            "0.30000000000000004",
            "9007199254740993",
            "9007199254740995",
            "2.2250738585072011e-308",
            "2.2250738585072014e-308",
            "4.9e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "1e400",
            "-1e400",
            "1e-400",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "0e99999",
            &long,
            &tiny,
            &above,
            &tie,
            &many,
        ];
        for s in cases {
            check(s);
        }
        assert_eq!(parse_f64("-0").map(f64::to_bits), Some((-0.0f64).to_bits()));
        assert_eq!(parse_f64("2.4703282292062327e-324"), Some(0.0));
        assert_eq!(parse_f64("2.4703282292062328e-324"), Some(f64::from_bits(1)));
        assert_eq!(parse_f64("1.7976931348623159e308"), Some(f64::INFINITY));
        assert_eq!(parse_f64(&tiny), Some(1e-351));
    }

    #[test]
    fn rejects() {
        let bad = [
            "", "-", "+", ".", "-.", "e5", ".e5", "1e", "1e+", "1e-", "1.2.3", " 1", "1 ", "inf", "-inf",
            "infinity", "nan", "NaN", "0x10", "1_000", "1e5.0", "1e5e5", "--1", "+-1",
        ];
        for s in bad {
            assert_eq!(parse_f64(s), None, "{s:?}");
            assert!(s.parse::<f64>().is_err() || s.contains(['i', 'n', 'N']), "{s:?}");
        }
    }

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Random digits, maybe a point, maybe an exponent in -330..=330.
    fn digit_string(r: &mut Rng) -> String {
        let n = 1 + r.below(25) as usize;
        let mut s = String::new();
        if r.below(4) == 0 {
            s.push(if r.below(2) == 0 { '-' } else { '+' });
        }
        let point = r.below(n as u64 + 2) as usize;
        for i in 0..n {
            if i == point {
                s.push('.');
            }
            s.push((b'0' + r.below(10) as u8) as char);
        }
        if r.below(3) != 0 {
            s.push(if r.below(2) == 0 { 'e' } else { 'E' });
            s += &(r.below(661) as i64 - 330).to_string();
        }
        s
    }

    /// The sum of two non-negative decimals with the same number of fractional digits.
    fn add_decimal(a: &str, b: &str) -> String {
        let w = a.len().max(b.len());
        let (a, b) = (format!("{a:0>w$}"), format!("{b:0>w$}"));
        let mut out = Vec::new();
        let mut carry = 0;
        for (x, y) in a.bytes().rev().zip(b.bytes().rev()) {
            if x == b'.' {
                out.push(b'.');
                continue;
            }
            let v = x - b'0' + y - b'0' + carry;
            out.push(b'0' + v % 10);
            carry = v / 10;
        }
        if carry > 0 {
            out.push(b'1');
        }
        out.reverse();
        String::from_utf8(out).unwrap()
    }

    /// The exact midpoint between x = m * 2^e and its upper neighbour, m a 53-bit integer, in
    /// full decimal: x + 2^(e-1), both exact in f64 and printed exactly.
    fn midpoint(r: &mut Rng) -> String {
        let m = (1u64 << 52) | r.below(1 << 52);
        let e = r.below(2045) as i32 - 1073; // x from 2^-1021 up; 2^(e-1) still an f64
        let x = m as f64 * 2f64.powi(e.max(-1000)) * 2f64.powi((e + 1000).min(0));
        let h = 2f64.powi(e.max(-1000) - 1) * 2f64.powi((e + 1000).min(0));
        let p = (1 - e).max(0) as usize;
        add_decimal(&format!("{x:.p$}"), &format!("{h:.p$}"))
    }

    #[test]
    fn random_against_std() {
        // The other CPUs run these tests emulated, about 50 times slower (make test's qemu
        // phases): what differs there (a 32-bit usize, the byte order) shows in the first
        // thousands of cases.
        let cases = if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) { 200_000 } else { 10_000 };
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        let mut n = 0;
        for i in 0..cases {
            match i % 5 {
                0 | 1 => {
                    let x = f64::from_bits(r.next());
                    if x.is_nan() {
                        continue;
                    }
                    let prec = r.below(30) as usize;
                    check(&format!("{x}"));
                    check(&format!("{x:e}"));
                    check(&format!("{x:.prec$e}"));
                    if x.abs() < 1e30 {
                        check(&format!("{x:.prec$}"));
                    }
                }
                2 | 3 => check(&digit_string(&mut r)),
                _ => {
                    let s = midpoint(&mut r);
                    check(&s);
                    check(&format!("{s}0000001")); // just above: rounds up
                    check(&s[..s.len() - 1]); // just below: it ends in 5, rounds down
                }
            }
            n += 1;
        }
        assert!(n > cases * 95 / 100);
    }

    /// Midpoints in the subnormals and at the overflow threshold, each side of them.
    #[test]
    fn edges() {
        for bits in [0u64, 1, 2, 3, 0xF_FFFF_FFFF_FFFE, 0xF_FFFF_FFFF_FFFF, 0x7FEF_FFFF_FFFF_FFFF] {
            let x = f64::from_bits(bits);
            // 2^-1075 is no f64: halve 2^-1074's digits.
            let half = half_decimal(&format!("{:.1074}", f64::from_bits(1)));
            let s = if bits == 0x7FEF_FFFF_FFFF_FFFF {
                add_decimal(&format!("{x:.0}"), &format!("{:.0}", 2f64.powi(970)))
            } else {
                add_decimal(&format!("{x:.1075}"), &half)
            };
            check(&s);
            check(&format!("{s}1"));
            check(&s[..s.len() - 1]);
        }
    }

    /// Half of a decimal (one more fractional digit, so it is exact).
    fn half_decimal(a: &str) -> String {
        let mut out = String::new();
        let mut rem = 0;
        for c in format!("{a}0").bytes() {
            if c == b'.' {
                out.push('.');
                continue;
            }
            let v = rem * 10 + (c - b'0');
            out.push((b'0' + v / 2) as char);
            rem = v % 2;
        }
        out
    }
}
