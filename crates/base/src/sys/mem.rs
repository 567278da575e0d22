//! Memory: file and anonymous mappings, protection changes, the protection-fault loop, volatile
//! loads and stores, and pointer chasing, for the lmbench VM and memory kernels.
//!
//! Volatile accesses keep every 4-byte load and store of lmbench's unrolled loops as one
//! machine access, as the C compiler emits them at lmbench's `-O`: without them the optimiser
//! would turn the copy loop into a `memcpy` call and vectorise the sums, measuring something
//! else.

use super::cvt;
use super::signal::Count64;
use std::io;
use std::os::unix::io::RawFd;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// The page size (`sysconf(_SC_PAGESIZE)`), 4096 if unknown.
pub fn page_size() -> usize {
    // SAFETY: no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if n > 0 {
        n as usize
    } else {
        4096
    }
}

/// A mapping, unmapped on drop.
pub struct Mapping {
    ptr: *mut u8,
    len: usize,
}

impl Mapping {
    /// `mmap(NULL, len, prot, MAP_SHARED, fd, 0)`: `write` adds PROT_WRITE to PROT_READ.
    #[inline]
    pub fn file_shared(fd: RawFd, len: usize, write: bool) -> io::Result<Mapping> {
        let prot = if write { libc::PROT_READ | libc::PROT_WRITE } else { libc::PROT_READ };
        Self::map(len, prot, libc::MAP_SHARED, fd)
    }

    /// Private anonymous memory with protection `prot` (PROT_* bits).
    pub fn anonymous(len: usize, prot: i32) -> io::Result<Mapping> {
        Self::map(len, prot, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1)
    }

    #[inline]
    fn map(len: usize, prot: i32, flags: i32, fd: RawFd) -> io::Result<Mapping> {
        if len == 0 {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty mapping"));
        }
        // SAFETY: a NULL hint lets the kernel choose the address; the result is checked.
        let p = unsafe { libc::mmap(std::ptr::null_mut(), len, prot, flags, fd, 0) };
        if p == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        Ok(Mapping { ptr: p.cast(), len })
    }

    /// Length in bytes.
    #[allow(clippy::len_without_is_empty)] // Never empty: `map` refuses a zero length.
    pub fn len(&self) -> usize {
        self.len
    }

    /// `msync(MS_INVALIDATE)`: drops the cached translations, so the next touch of each page
    /// faults again (lat_pagefault).
    #[inline]
    pub fn invalidate(&self) -> io::Result<()> {
        // SAFETY: ptr/len describe a live mapping of ours.
        cvt(unsafe { libc::msync(self.ptr.cast(), self.len, libc::MS_INVALIDATE) }).map(drop)
    }

    /// Writes `value` to one byte every `step` bytes of the first `upto` bytes, in place. The
    /// mapping must be writable (else SIGSEGV, as in C); `upto` is clamped to the length.
    #[inline]
    pub fn write_every(&mut self, step: usize, upto: usize, value: u8) {
        let end = upto.min(self.len);
        let mut off = 0;
        while off < end {
            // SAFETY: off < len, inside the mapping.
            unsafe { std::ptr::write_volatile(self.ptr.add(off), value) };
            off += step.max(1);
        }
    }

    /// Reads the byte at each offset (each below the length; others are skipped) and returns
    /// their sum: one load, so one fault, per page touched.
    #[inline]
    pub fn read_at(&self, offsets: &[usize]) -> u32 {
        let mut sum = 0u32;
        for &off in offsets {
            if off < self.len {
                // SAFETY: off < len, inside a readable mapping.
                sum = sum.wrapping_add(unsafe { std::ptr::read_volatile(self.ptr.add(off)) } as u32);
            }
        }
        sum
    }

    /// The mapping as bytes. Only for readable mappings of files this process does not write
    /// to concurrently.
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: ptr/len describe a live readable mapping; the borrow ties it to self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    /// The address of the first byte (for the protection-fault loop).
    fn addr(&self) -> usize {
        self.ptr as usize
    }
}

impl Drop for Mapping {
    fn drop(&mut self) {
        // SAFETY: ptr/len came from a successful mmap and are unmapped once.
        unsafe { libc::munmap(self.ptr.cast(), self.len) };
    }
}

static FAULT_PAGE: AtomicUsize = AtomicUsize::new(0);
static FAULT_LEN: AtomicUsize = AtomicUsize::new(0);
static FAULTS: Count64 = Count64::new(0);
static FAULT_TARGET: Count64 = Count64::new(0);

extern "C" fn on_fault(_sig: libc::c_int) {
    let n = FAULTS.load() + 1;
    FAULTS.store(n);
    if n >= FAULT_TARGET.load() {
        // Let the faulting store complete: returning from the handler restarts it.
        // SAFETY: the page is our live anonymous mapping; mprotect is async-signal-safe.
        unsafe {
            libc::mprotect(
                FAULT_PAGE.load(Relaxed) as *mut libc::c_void,
                FAULT_LEN.load(Relaxed),
                libc::PROT_READ | libc::PROT_WRITE,
            )
        };
    }
}

/// Takes `n` protection faults: a store into a read-only page whose SIGSEGV handler returns,
/// so the store faults again, until the n-th fault makes the page writable (lmbench's
/// `lat_sig prot`, which re-enters its timing loop from the handler instead). The previous
/// SIGSEGV/SIGBUS actions are restored before returning.
pub fn protection_faults(n: u64) -> io::Result<()> {
    let page = Mapping::anonymous(page_size(), libc::PROT_READ)?;
    FAULT_PAGE.store(page.addr(), Relaxed);
    FAULT_LEN.store(page.len(), Relaxed);
    FAULTS.store(0);
    FAULT_TARGET.store(n.max(1));
    // SAFETY: sa is zeroed then filled; old_* receive the previous actions and are restored.
    unsafe {
        let mut sa: libc::sigaction = std::mem::zeroed();
        sa.sa_sigaction = on_fault as *const () as usize as libc::sighandler_t;
        libc::sigemptyset(&mut sa.sa_mask);
        let mut old_segv: libc::sigaction = std::mem::zeroed();
        let mut old_bus: libc::sigaction = std::mem::zeroed();
        cvt(libc::sigaction(libc::SIGSEGV, &sa, &mut old_segv))?;
        cvt(libc::sigaction(libc::SIGBUS, &sa, &mut old_bus))?;
        std::ptr::write_volatile(page.ptr, 1);
        libc::sigaction(libc::SIGSEGV, &old_segv, std::ptr::null_mut());
        libc::sigaction(libc::SIGBUS, &old_bus, std::ptr::null_mut());
    }
    Ok(())
}

/// One load that the optimiser keeps as written.
#[inline(always)]
pub fn vload<T: Copy>(x: &T) -> T {
    // SAFETY: a reference is valid for reads.
    unsafe { std::ptr::read_volatile(x) }
}

/// One store that the optimiser keeps as written.
#[inline(always)]
pub fn vstore<T: Copy>(x: &mut T, v: T) {
    // SAFETY: a unique reference is valid for writes.
    unsafe { std::ptr::write_volatile(x, v) }
}

/// lmbench's `bread`: loads every aligned 8-byte word of `bytes` once (and any unaligned
/// head and tail byte by byte) and returns their sum.
#[inline]
pub fn bread(bytes: &[u8]) -> i64 {
    // SAFETY: i64 has no invalid bit patterns; align_to only views the aligned middle as words.
    let (head, words, tail) = unsafe { bytes.align_to::<i64>() };
    let mut sum = 0i64;
    // As lmbench's C: blocks of 128 loads in straight-line code (one chained sum each), then
    // blocks of 16, then single words.
    let mut blocks = words.chunks_exact(128);
    for b in &mut blocks {
        sum = sum.wrapping_add(chain(b));
    }
    let mut blocks = blocks.remainder().chunks_exact(16);
    for b in &mut blocks {
        sum = sum.wrapping_add(chain(b));
    }
    for w in blocks.remainder() {
        sum = sum.wrapping_add(vload(w));
    }
    for b in head.iter().chain(tail) {
        sum = sum.wrapping_add(i64::from(*b));
    }
    sum
}

/// p[0] + p[1] + ... + p[len - 1], one load each, in order (a block of [`bread`]).
#[inline(always)]
fn chain(b: &[i64]) -> i64 {
    let mut s = vload(&b[0]);
    for w in &b[1..] {
        s = s.wrapping_add(vload(w));
    }
    s
}

/// A ring of pointers through a buffer, one every `stride` bytes, each word holding the
/// address of the next (lmbench's `stride_initialize`): walking it is a chain of dependent
/// loads, each as long as the memory level the ring fits in.
pub struct Ring {
    words: Vec<usize>,
    cursor: usize,
}

/// `n` copies of `v`, or an `OutOfMemory` error saying how much could not be had, where `vec!`
/// would abort the process: a memory limit (`ulimit -v`) is a fault to report, not a crash.
pub fn try_vec<T: Clone>(n: usize, v: T) -> std::io::Result<Vec<T>> {
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| out_of_memory(n.saturating_mul(std::mem::size_of::<T>())))?;
    out.resize(n, v);
    Ok(out)
}

/// The error of an allocation of `bytes` that failed.
pub fn out_of_memory(bytes: usize) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::OutOfMemory,
        format!("cannot allocate {} MiB: out of memory (a memory limit?)", bytes.div_ceil(1 << 20)),
    )
}

impl Ring {
    /// A ring over `range` bytes with `stride` bytes between pointers (both rounded to words;
    /// stride at least one word, range at least one stride).
    pub fn new(range: usize, stride: usize) -> std::io::Result<Ring> {
        let w = std::mem::size_of::<usize>();
        let step = (stride / w).max(1);
        let n = (range / w).max(step);
        // Start on a page boundary, as lmbench's buffer does.
        let page = page_size();
        let mut words = try_vec(n + page / w, 0usize)?;
        let skew = words.as_ptr() as usize % page;
        let first = if skew == 0 { 0 } else { (page - skew) / w };
        let base = words.as_ptr() as usize + first * w;
        let mut i = 0;
        while i + step < n {
            words[first + i] = base + (i + step) * w;
            i += step;
        }
        words[first + i] = base;
        Ok(Ring { words, cursor: base })
    }

    /// A ring over `range` bytes (rounded down to words, at least one) whose pointers are the
    /// `links` given, each (from, to) a pair of byte offsets into it: the word at `from` holds
    /// the address of the word at `to` (lmbench's `thrash_initialize` builds its random order
    /// so). The walk starts at offset `start`. Every word not linked points to the first, so
    /// that whatever the links, every word holds an address inside the buffer.
    ///
    /// Panics on an offset that is not word-aligned or not inside the range.
    pub fn with_links(
        range: usize,
        start: usize,
        links: impl IntoIterator<Item = (usize, usize)>,
    ) -> std::io::Result<Ring> {
        let w = std::mem::size_of::<usize>();
        let n = (range / w).max(1);
        let page = page_size();
        let mut words = try_vec(n + page / w, 0usize)?;
        let skew = words.as_ptr() as usize % page;
        let first = if skew == 0 { 0 } else { (page - skew) / w };
        let base = words.as_ptr() as usize + first * w;
        let index = |off: usize| {
            assert!(off % w == 0 && off / w < n, "ring offset {off} outside {range} bytes or unaligned");
            off / w
        };
        for x in &mut words[first..first + n] {
            *x = base;
        }
        for (from, to) in links {
            words[first + index(from)] = base + index(to) * w;
        }
        let cursor = base + index(start) * w;
        Ok(Ring { words, cursor })
    }

    /// Follows `hundreds` x 100 pointers and returns where it stopped (also kept for the next
    /// walk).
    #[inline(never)]
    pub fn walk(&mut self, hundreds: u64) -> usize {
        let mut p = self.cursor as *const usize;
        for _ in 0..hundreds {
            macro_rules! ten {
                () => {
                    // SAFETY: every word of the ring holds the address of a word of the same
                    // live buffer, and p starts at one.
                    unsafe {
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                        p = *p as *const usize;
                    }
                };
            }
            ten!();
            ten!();
            ten!();
            ten!();
            ten!();
            ten!();
            ten!();
            ten!();
            ten!();
            ten!();
        }
        self.cursor = p as usize;
        debug_assert!(self.words.as_ptr() as usize <= self.cursor);
        self.cursor
    }

    /// `n` loop iterations of one dependent load each (half of lmbench's loop-overhead probe).
    #[inline(never)]
    pub fn walk1(&mut self, n: u64) -> usize {
        let mut p = self.cursor as *const usize;
        for _ in 0..n {
            // SAFETY: as in walk.
            p = unsafe { *p as *const usize };
        }
        self.cursor = p as usize;
        self.cursor
    }

    /// `n` loop iterations of two dependent loads each (the other half).
    #[inline(never)]
    pub fn walk2(&mut self, n: u64) -> usize {
        let mut p = self.cursor as *const usize;
        for _ in 0..n {
            // SAFETY: as in walk.
            unsafe {
                p = *p as *const usize;
                p = *p as *const usize;
            }
        }
        self.cursor = p as usize;
        self.cursor
    }
}
