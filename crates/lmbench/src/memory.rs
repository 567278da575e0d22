//! The memory columns: bw_mem (frd, fwr, bcopy, fcp), lat_mem_rd (stride 128, the summary's
//! L1, L2 and main-memory points) and the clock estimate.
//!
//! The bandwidth loops keep lmbench's shape: 4-byte words in blocks of 128 (512 bytes), every
//! load and store a single volatile access, so the optimiser neither vectorises the sum nor
//! turns the hand copy into `memcpy` (lmbench's C, built with `-O`, does neither). "bcopy
//! (libc)" is the C library's memcpy through `copy_from_slice` (musl's in the static build,
//! where lmbench calls glibc's).

use super::harness::{timed, Harness, Pick};
use super::valloc::PageBuf;
use crate::sys;
use crate::sys::mem::{vload, vstore};
use std::hint::black_box;
use std::io;

/// Repeats `$body` with `$i` bound to each constant 0..128 in order: lmbench's 128 DOIT lines,
/// unrolled by hand so the code does not depend on the optimiser's unrolling limits.
macro_rules! seq128 {
    ($i:ident => $body:expr) => {
        seq128!(@16 $i => $body, 0);
        seq128!(@16 $i => $body, 16);
        seq128!(@16 $i => $body, 32);
        seq128!(@16 $i => $body, 48);
        seq128!(@16 $i => $body, 64);
        seq128!(@16 $i => $body, 80);
        seq128!(@16 $i => $body, 96);
        seq128!(@16 $i => $body, 112);
    };
    (@16 $i:ident => $body:expr, $b:expr) => {
        seq128!(@4 $i => $body, $b);
        seq128!(@4 $i => $body, $b + 4);
        seq128!(@4 $i => $body, $b + 8);
        seq128!(@4 $i => $body, $b + 12);
    };
    (@4 $i:ident => $body:expr, $b:expr) => {{
        { let $i = $b; $body; }
        { let $i = $b + 1; $body; }
        { let $i = $b + 2; $body; }
        { let $i = $b + 3; $body; }
    }};
}

/// 4-byte words per 512-byte block.
const BLOCK: usize = 128;

/// A page-aligned buffer of `bytes` (whole 512-byte blocks), as bw_mem's valloc and bzero.
fn words(bytes: usize) -> PageBuf<i32> {
    PageBuf::new((bytes / 512).max(1) * BLOCK, 0)
}

fn mb_per_s(bytes: usize, per_iter_us: f64) -> f64 {
    bytes as f64 / per_iter_us
}

/// `vload(&b[i0]) + vload(&b[i1]) + ...`, wrapping, for the listed indices.
macro_rules! sum_block {
    ($b:expr; $($i:literal)*) => { 0i32 $(.wrapping_add(vload(&$b[$i])))* };
}

/// bw_mem SIZE frd: read and sum every word. MB/s.
#[inline(never)] // timed: see lib.rs
pub fn read(h: &Harness, bytes: usize) -> io::Result<f64> {
    let buf = words(bytes);
    let buf = buf.get();
    let s = h.run(Pick::Median, |n| {
        Ok(timed(|| {
            let mut sum = 0i32;
            for _ in 0..n {
                // The block's 128 loads spelled out, as lmbench's C spells them: a loop the
                // compiler is left to unroll is unrolled by 8 in this crate (docs/FIDELITY.md).
                for block in buf.chunks_exact(BLOCK) {
                    let s = sum_block!(block;
                        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
                        31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58
                        59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86
                        87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110
                        111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127);
                    // As C's `sum += p[0] + ... + p[124]`: one chain per block, which the next
                    // block's can overlap; left to itself the compiler would make all one chain.
                    sum = sum.wrapping_add(black_box(s));
                }
            }
            black_box(sum)
        })
        .0)
    })?;
    Ok(mb_per_s(buf.len() * 4, s.per_iter()))
}

/// bw_mem SIZE fwr: store to every word. MB/s.
#[inline(never)] // timed: see lib.rs
pub fn write(h: &Harness, bytes: usize) -> io::Result<f64> {
    let mut buf = words(bytes);
    let buf = buf.get_mut();
    let len = buf.len() * 4;
    let s = h.run(Pick::Median, |n| {
        Ok(timed(|| {
            for _ in 0..n {
                for block in buf.chunks_exact_mut(BLOCK) {
                    // lmbench's fwr is one chained assignment, p[0] = p[1] = ... = p[127] = 1,
                    // which gcc stores last word first: each block is written downwards.
                    for w in block.iter_mut().rev() {
                        vstore(w, 1);
                    }
                }
            }
            black_box(&buf);
        })
        .0)
    })?;
    Ok(mb_per_s(len, s.per_iter()))
}

/// bw_mem SIZE bcopy: the C library's copy of the whole buffer. MB/s.
#[inline(never)] // timed: see lib.rs
pub fn bcopy_libc(h: &Harness, bytes: usize) -> io::Result<f64> {
    let src = words(bytes);
    let src = src.get();
    let mut dst = words(bytes);
    let dst = dst.get_mut();
    let s = h.run(Pick::Median, |n| {
        Ok(timed(|| {
            for _ in 0..n {
                dst.copy_from_slice(black_box(src));
                black_box(&dst);
            }
        })
        .0)
    })?;
    Ok(mb_per_s(src.len() * 4, s.per_iter()))
}

/// bw_mem SIZE fcp: copy word by word, unrolled by blocks. MB/s.
#[inline(never)] // timed: see lib.rs
pub fn bcopy_hand(h: &Harness, bytes: usize) -> io::Result<f64> {
    let src = words(bytes);
    let src = src.get();
    let mut dst = words(bytes);
    let dst = dst.get_mut();
    let s = h.run(Pick::Median, |n| {
        Ok(timed(|| {
            for _ in 0..n {
                for (d, s) in dst.chunks_exact_mut(BLOCK).zip(src.chunks_exact(BLOCK)) {
                    copy_block(d, s);
                }
            }
            black_box(&dst);
        })
        .0)
    })?;
    Ok(mb_per_s(src.len() * 4, s.per_iter()))
}

/// One 512-byte block of fcp, `dst[i] = p[i]` for i in 0..128 as straight-line code (a load
/// and a store per word, no loop counter), the shape gcc gives lmbench's 128 DOIT lines.
#[inline(always)]
fn copy_block(d: &mut [i32], s: &[i32]) {
    let (Ok(d), Ok(s)) = (<&mut [i32; BLOCK]>::try_from(d), <&[i32; BLOCK]>::try_from(s)) else {
        return;
    };
    seq128!(i => vstore(&mut d[i], vload(&s[i])));
}

/// lat_mem_rd's stride for the summary's points, bytes.
pub const STRIDE: usize = 128;

/// lat_mem_rd LEN STRIDE at one range: nanoseconds per dependent load, the fastest sample
/// (lmbench's `save_minimum`) over intervals of at least 100 ms.
#[inline(never)] // timed: see lib.rs
pub fn load_latency(h: &Harness, range: usize, stride: usize) -> io::Result<f64> {
    let mut ring = sys::mem::Ring::new(range, stride);
    let hundreds = (range / (stride * 100) + 1) as u64;
    let count = 100 * hundreds;
    let mh = Harness { enough: h.enough.max(100_000.0).min(h.enough * 10.0), ..*h };
    let s = mh.run(Pick::Minimum, |n| Ok(timed(|| black_box(ring.walk(n * hundreds))).0))?;
    Ok(1000.0 * s.usecs / (count * s.n) as f64)
}

/// The clock in MHz: one dependent add per cycle.
#[inline(never)] // timed: see lib.rs
pub fn mhz(h: &Harness) -> io::Result<f64> {
    let s = h.run(Pick::Minimum, |n| {
        let (us, r) = timed(|| sys::cpu::add_chain(n, 3));
        match r {
            Some(v) => {
                black_box(v);
                Ok(us)
            }
            None => Err(io::Error::new(io::ErrorKind::Unsupported, "no clock estimate for this processor")),
        }
    })?;
    Ok(100.0 / (s.usecs / s.n as f64))
}

/// The data and unified cache sizes the system reports for cpu0, by level (bytes), from
/// /sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}.
pub fn cache_sizes() -> Vec<(u32, usize)> {
    let mut out = Vec::new();
    let base = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    let Ok(dir) = std::fs::read_dir(base) else { return out };
    for e in dir.flatten() {
        let p = e.path();
        let read = |f: &str| std::fs::read_to_string(p.join(f)).map(|s| s.trim().to_string()).ok();
        let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size")) else {
            continue;
        };
        if kind == "Instruction" {
            continue;
        }
        if let (Ok(l), Some(sz)) = (level.parse::<u32>(), parse_size(&size)) {
            out.push((l, sz));
        }
    }
    crate::sort::sort_by(&mut out, |a, b| a.cmp(b));
    out
}

/// "48K", "1024K", "32M", "512" -> bytes.
pub fn parse_size(s: &str) -> Option<usize> {
    let s = s.trim();
    let (num, mult) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1024),
        'M' | 'm' => (&s[..s.len() - 1], 1024 * 1024),
        'G' | 'g' => (&s[..s.len() - 1], 1024 * 1024 * 1024),
        _ => (s, 1),
    };
    // checked: "4G" does not fit a 32-bit usize (the i686 build), and must not wrap to 0.
    num.parse::<usize>().ok().filter(|&v| v > 0).and_then(|v| v.checked_mul(mult))
}

/// Where the summary's three latency points are measured, bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Points {
    pub l1: usize,
    pub l2: usize,
    pub main: usize,
    /// Whether they came from the reported cache sizes (else lmbench's fixed points).
    pub from_caches: bool,
}

/// Half of L1 (well inside it), half of L2 (past L1, inside L2), and `main` bytes. Without
/// reported sizes the L1 and L2 figures come from [`sweep`]; these points (getsummary's own,
/// 1 KiB and 128 KiB) are then the last resort should the sweep fail.
pub fn points(caches: &[(u32, usize)], main: usize) -> Points {
    let level = |l| caches.iter().find(|c| c.0 == l).map(|c| c.1);
    match (level(1), level(2)) {
        (Some(l1), Some(l2)) if l2 > l1 => Points { l1: l1 / 2, l2: l2 / 2, main, from_caches: true },
        _ => Points { l1: 1024, l2: 128 * 1024, main, from_caches: false },
    }
}

/// Without reported cache sizes: lat_mem_rd's sweep, sizes doubling from 2 KiB to `main`.
/// L1 is the latency at 2 KiB; L2 the latency one size past the first step up of more than
/// 30 percent (inside the next level). Returns (l1 ns, l2 ns, the L2 size).
#[inline(never)] // timed: see lib.rs
pub fn sweep(h: &Harness, main: usize) -> io::Result<(f64, f64, usize)> {
    let mut sizes = Vec::new();
    let mut s = 2048;
    while s < main {
        sizes.push(s);
        s *= 2;
    }
    let lat = sizes.iter().map(|&s| load_latency(h, s, STRIDE)).collect::<io::Result<Vec<f64>>>()?;
    let l1 = lat[0];
    let j = lat.iter().position(|&v| v > 1.3 * l1).map_or(lat.len() - 1, |j| (j + 1).min(lat.len() - 1));
    Ok((l1, lat[j], sizes[j]))
}

/// The range for the main-memory point and the bandwidth buffers: at least 8 MiB (lmbench's
/// default MB), and at least twice the largest cache, so it is memory and not cache.
pub fn main_size(caches: &[(u32, usize)]) -> usize {
    let largest = caches.iter().map(|c| c.1).max().unwrap_or(0);
    (2 * largest).max(8 << 20).next_power_of_two()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_finds_two_levels() {
        let h = Harness::new(2000.0, 3);
        let (l1, l2, size) = sweep(&h, 1 << 20).unwrap();
        assert!(l1 > 0.0 && l1 < 100.0 && l2 > 0.0 && l2 < 1000.0, "{l1} {l2}");
        assert!((2048..1 << 20).contains(&size));
    }

    #[test]
    fn buffers_are_whole_blocks() {
        assert_eq!(words(1 << 16).get().len() * 4, 1 << 16);
        assert_eq!(words(1000).get().len() * 4, 512);
    }

    #[test]
    fn bread_sums_every_word_in_blocks_of_128_16_and_1() {
        // 128 + 2 x 16 + 3 words, plus a byte tail: every block size and the remainder.
        let words: Vec<i64> = (1..=163).collect();
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_ne_bytes()).collect();
        bytes.push(7);
        let want: i64 = words.iter().sum::<i64>() + 7;
        // malloc returns 16-byte aligned blocks, so every word is an aligned load.
        assert_eq!(sys::mem::bread(&bytes), want);
    }

    #[test]
    fn the_hand_copy_copies_every_word() {
        let src: Vec<i32> = (0..BLOCK as i32).collect();
        let mut dst = vec![0i32; BLOCK];
        copy_block(&mut dst, &src);
        assert_eq!(dst, src);
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("48K"), Some(48 * 1024));
        assert_eq!(parse_size("32M\n"), Some(32 << 20));
        assert_eq!(parse_size("512"), Some(512));
        assert_eq!(parse_size("x"), None);
        assert_eq!(parse_size("0K"), None);
        // Past a 32-bit usize (the i686 build) a size is refused, not wrapped.
        assert_eq!(parse_size("4G"), 4usize.checked_mul(1 << 30));
    }

    #[test]
    fn points_follow_the_caches_or_fall_back() {
        let c = [(1, 48 << 10), (2, 1 << 20), (3, 32 << 20)];
        assert_eq!(
            points(&c, main_size(&c)),
            Points { l1: 24 << 10, l2: 512 << 10, main: 64 << 20, from_caches: true }
        );
        assert_eq!(
            points(&[], main_size(&[])),
            Points { l1: 1024, l2: 128 << 10, main: 8 << 20, from_caches: false }
        );
    }
}
