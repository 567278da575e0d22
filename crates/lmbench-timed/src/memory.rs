//! The memory columns: bw_mem (frd, fwr, bcopy, fcp), lat_mem_rd (stride 128, the summary's
//! L1, L2 and main-memory points), lat_mem_rd -t (its random order, the "Rand mem" column) and
//! the clock estimate.
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
fn words(bytes: usize) -> io::Result<PageBuf<i32>> {
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
    let buf = words(bytes)?;
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
    let mut buf = words(bytes)?;
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
    let src = words(bytes)?;
    let src = src.get();
    let mut dst = words(bytes)?;
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
    let src = words(bytes)?;
    let src = src.get();
    let mut dst = words(bytes)?;
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
    per_load(h, sys::mem::Ring::new(range, stride)?, range, stride)
}

/// The stride of lmbench's random run (its script's `lat_mem_rd -t $MB 16`), bytes.
pub const RAND_STRIDE: usize = 16;

/// lat_mem_rd -t LEN 16 at its largest range, `range`: nanoseconds per dependent load through
/// the random order of [`thrash_links`], timed as [`load_latency`] times the stride order.
#[inline(never)] // timed: see lib.rs
pub fn random_latency(h: &Harness, range: usize) -> io::Result<f64> {
    let page = sys::mem::page_size();
    let mut rand = LmRand::new();
    let (start, links) = thrash_links(range, RAND_STRIDE, page, &mut rand)?;
    let ring = sys::mem::Ring::with_links(range, start, links)?;
    per_load(h, ring, range, RAND_STRIDE)
}

/// lat_mem_rd's `loads`: `count` = 100 x (range / (stride x 100) + 1) loads an iteration.
fn per_load(h: &Harness, mut ring: sys::mem::Ring, range: usize, stride: usize) -> io::Result<f64> {
    let hundreds = (range / (stride * 100) + 1) as u64;
    let count = 100 * hundreds;
    let mh = Harness { enough: h.enough.max(100_000.0).min(h.enough * 10.0), ..*h };
    let s = mh.run(Pick::Minimum, |n| Ok(timed(|| black_box(ring.walk(n * hundreds))).0))?;
    Ok(1000.0 * s.usecs / (count * s.n) as f64)
}

/// C's `rand()` as lmbench's `permutation` calls it: 31-bit values, seeded from the process id
/// as `base_initialize`'s `srand(getpid())`. The generator is oorandom's, not the C library's
/// (lmbench takes whatever its C library has); the shuffle that uses it is lmbench's own.
pub struct LmRand(oorandom::Rand32);

impl LmRand {
    pub fn new() -> LmRand {
        LmRand::seeded(u64::from(std::process::id()))
    }
    pub fn seeded(seed: u64) -> LmRand {
        LmRand(oorandom::Rand32::new(seed))
    }
    fn rand(&mut self) -> usize {
        (self.0.rand_u32() >> 1) as usize
    }
}

impl Default for LmRand {
    fn default() -> LmRand {
        LmRand::new()
    }
}

/// lmbench's `permutation(max, scale)` (lib_timing.c): 0, scale, 2 x scale, ... shuffled by its
/// own recurrence, `r = (r << 1) ^ rand()` and a swap of `result[r % (i + 1)]` with
/// `result[i]` from the top down, r seeded from the process ids and two draws.
pub fn permutation(max: usize, scale: usize, rand: &mut LmRand) -> Vec<usize> {
    let mut result: Vec<usize> = (0..max).map(|i| i * scale).collect();
    let pid = std::process::id() as usize;
    let mut r = (pid << 6) ^ std::os::unix::process::parent_id() as usize ^ rand.rand() ^ (rand.rand() << 10);
    for i in (1..max).rev() {
        r = (r << 1) ^ rand.rand();
        result.swap(r % (i + 1), i);
    }
    result
}

/// lmbench's `words_initialize(max, scale)` (lib_mem.c): the order in which the words of a
/// page (or of the whole range) are used, i x scale with the bits of i reversed, "so as to
/// maximize the number of potential cache misses".
pub fn words_initialize(max: usize, scale: usize) -> Vec<usize> {
    let mut nbits = 0;
    let mut i = max >> 1;
    while i != 0 {
        i >>= 1;
        nbits += 1;
    }
    (0..max)
        .map(|i| {
            let mut w = 0;
            for j in 0..nbits {
                if i & (1 << j) != 0 {
                    w |= 1 << (nbits - j - 1);
                }
            }
            w * scale
        })
        .collect()
}

/// lmbench's `thrash_initialize` (lib_mem.c), lat_mem_rd -t's pointer chain over `range` bytes
/// at `line`-byte steps: (the start offset, the links (from, to) as byte offsets). For a range
/// of whole pages every load goes to another page, the pages in the order of [`permutation`]
/// and the words of each in the order of [`words_initialize`], shifted by one word a page so
/// that one lap of the pages uses each page's next word: "a TLB miss each page, and maximal
/// thrashing in the cache between the user data stream and the page table entries". Else the
/// words of the whole range in bit-reversed order (one lap of them all only when their count is
/// a power of two: lmbench's reversal drops the higher bits).
pub fn thrash_links(
    range: usize,
    line: usize,
    page: usize,
    rand: &mut LmRand,
) -> io::Result<(usize, Vec<(usize, usize)>)> {
    if range % page != 0 {
        let words = words_initialize(range / line, line);
        let mut links: Vec<(usize, usize)> = words.windows(2).map(|w| (w[0], w[1])).collect();
        links.push((words[words.len() - 1], 0));
        return Ok((0, links));
    }
    let npages = range / page;
    let pages = permutation(npages, page, rand);
    let nwords = page / line;
    let words = words_initialize(nwords, line);
    let mut links = Vec::new();
    let want = npages * nwords;
    links
        .try_reserve_exact(want)
        .map_err(|_| sys::mem::out_of_memory(want * std::mem::size_of::<(usize, usize)>()))?;
    for i in 0..npages - 1 {
        let (cpage, npage) = (pages[i], pages[i + 1]);
        for j in 0..nwords {
            links.push((cpage + words[(i + j) % nwords], npage + words[(i + j + 1) % nwords]));
        }
    }
    let i = npages - 1;
    let (cpage, npage) = (pages[i], pages[0]);
    for j in 0..nwords {
        links.push((cpage + words[(i + j) % nwords], npage + words[(j + 1) % nwords]));
    }
    Ok((pages[0], links))
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
        let read = |f: &str| crate::sys::fd::host_text(&p.join(f)).map(|s| s.trim().to_string());
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
    out.sort();
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

    /// Follows `links` from `start` until it comes back: the offsets visited, in order.
    fn lap(start: usize, links: &[(usize, usize)]) -> Vec<usize> {
        let next: std::collections::HashMap<usize, usize> = links.iter().copied().collect();
        let mut seen = vec![start];
        let mut at = next[&start];
        while at != start && seen.len() <= links.len() {
            seen.push(at);
            at = next[&at];
        }
        seen
    }

    #[test]
    fn words_are_used_in_bit_reversed_order() {
        assert_eq!(words_initialize(8, 16), [0, 64, 32, 96, 16, 80, 48, 112]);
        assert_eq!(words_initialize(1, 16), [0]);
    }

    #[test]
    fn permutation_shuffles_every_multiple_once() {
        let mut p = permutation(1000, 4096, &mut LmRand::seeded(7));
        assert_ne!(p, (0..1000).map(|i| i * 4096).collect::<Vec<_>>());
        p.sort_unstable();
        assert_eq!(p, (0..1000).map(|i| i * 4096).collect::<Vec<_>>());
    }

    #[test]
    fn the_random_chain_is_one_lap_of_every_word_a_new_page_each_load() {
        let (page, line) = (4096, 16);
        let range = 64 * page;
        let (start, links) = thrash_links(range, line, page, &mut LmRand::seeded(3)).unwrap();
        let order = lap(start, &links);
        assert_eq!(order.len(), range / line, "one cycle through every word");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..range / line).map(|i| i * line).collect::<Vec<_>>());
        assert!(order.windows(2).all(|w| w[0] / page != w[1] / page), "a page twice in a row");
        // Not the stride order: the pages come shuffled.
        assert!(order.windows(2).filter(|w| w[1] == w[0] + line).count() < order.len() / 100);
        // A range of part pages: the words of the whole range, bit-reversed (a full lap when
        // their count is a power of two, as in lmbench).
        let (start, links) = thrash_links(256, line, page, &mut LmRand::seeded(3)).unwrap();
        assert_eq!(
            lap(start, &links),
            [0, 128, 64, 192, 32, 160, 96, 224, 16, 144, 80, 208, 48, 176, 112, 240]
        );
    }

    #[test]
    fn a_ring_follows_its_links() {
        let w = std::mem::size_of::<usize>();
        let mut r =
            sys::mem::Ring::with_links(8 * w, 2 * w, [(2 * w, 5 * w), (5 * w, 0), (0, 2 * w)]).unwrap();
        let base = r.walk1(0) - 2 * w;
        assert_eq!(r.walk1(1), base + 5 * w);
        assert_eq!(r.walk1(1), base);
        assert_eq!(r.walk1(1), base + 2 * w);
        assert_eq!(r.walk1(3), base + 2 * w);
        // A word no link names points to the first.
        let mut lone = sys::mem::Ring::with_links(8 * w, 7 * w, []).unwrap();
        let b = lone.walk1(0) - 7 * w;
        assert_eq!(lone.walk1(1), b);
    }

    #[test]
    fn random_latency_measures_a_chase() {
        let h = Harness::new(2000.0, 3);
        let ns = random_latency(&h, 1 << 20).unwrap();
        assert!(ns > 0.1 && ns < 10_000.0, "{ns}");
    }

    #[test]
    fn buffers_are_whole_blocks() {
        assert_eq!(words(1 << 16).unwrap().get().len() * 4, 1 << 16);
        assert_eq!(words(1000).unwrap().get().len() * 4, 512);
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
