//! The "File & VM system latencies" columns and the file/mmap reread bandwidths: lat_fs
//! (0 KiB and 10 KiB create and delete), lat_mmap, lat_pagefault, bw_file_rd io_only and
//! bw_mmap_rd mmap_only. All files live in the run's private scratch directory.

use super::harness::{time_io, timed, Harness, Pick};
use super::ipc::XFER;
use crate::sys;
use crate::sys::fd::Fd;
use std::ffi::CString;
use std::hint::black_box;
use std::io;
use std::path::{Path, PathBuf};

/// lat_fs keeps at most this many entries per directory, nesting directories beyond.
const PER_DIR: u64 = 100;

/// The names of `n` files for one lat_fs interval, in a fresh tree under `dir`: at most 100
/// files per leaf directory, directories nested as deep as needed.
struct FileSet {
    root: PathBuf,
    names: Vec<CString>,
}

impl FileSet {
    fn new(dir: &Path, n: u64, serial: u64) -> io::Result<FileSet> {
        let root = dir.join(format!("lat_fs_{serial}"));
        std::fs::create_dir(&root)?;
        let mut depth = 0;
        let mut leaves = n.div_ceil(PER_DIR);
        while leaves > 1 {
            leaves = leaves.div_ceil(PER_DIR);
            depth += 1;
        }
        let mut names = Vec::with_capacity(n as usize);
        for i in 0..n {
            let mut p = root.clone();
            let mut q = i / PER_DIR;
            let mut parts = Vec::with_capacity(depth);
            for _ in 0..depth {
                parts.push(q % PER_DIR);
                q /= PER_DIR;
            }
            for d in parts.iter().rev() {
                p.push(d.to_string());
            }
            if i % PER_DIR == 0 {
                std::fs::create_dir_all(&p)?;
            }
            p.push((i % PER_DIR).to_string());
            names.push(CString::new(p.into_os_string().into_encoded_bytes()).map_err(io::Error::other)?);
        }
        Ok(FileSet { root, names })
    }

    /// lmbench's mkfile: creat(0666), `size` bytes in writes of up to 128 KiB, close. Files
    /// are made in reverse order, as lmbench's loop counts down.
    fn create_all(&self, size: usize, block: &[u8]) -> io::Result<()> {
        for name in self.names.iter().rev() {
            let fd = sys::fd::open_c(name, libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC, 0o666)?;
            let mut left = size;
            while left > 0 {
                let k = left.min(block.len());
                sys::fd::write(fd.raw(), &block[..k])?;
                left -= k;
            }
        }
        Ok(())
    }

    fn delete_all(&self) -> io::Result<()> {
        for name in self.names.iter().rev() {
            sys::fd::unlink_cstr(name)?;
        }
        Ok(())
    }
}

impl Drop for FileSet {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// lat_fs for one file size: (create, delete) in microseconds per file.
#[inline(never)] // timed: see lib.rs
pub fn fs_create_delete(h: &Harness, dir: &Path, size: usize) -> io::Result<(f64, f64)> {
    let block = vec![1u8; 128 * 1024];
    let mut serial = 0;
    let create = h.run(Pick::Median, |n| {
        serial += 1;
        let set = FileSet::new(dir, n, serial)?;
        let t = time_io(|| set.create_all(size, &block))?;
        set.delete_all()?;
        Ok(t)
    })?;
    let delete = h.run(Pick::Median, |n| {
        serial += 1;
        let set = FileSet::new(dir, n, serial)?;
        set.create_all(size, &block)?;
        time_io(|| set.delete_all())
    })?;
    Ok((create.per_iter(), delete.per_iter()))
}

/// Makes the scratch file the mapping and reread tests share: `bytes` of data, synced.
pub fn make_file(path: &Path, bytes: usize) -> io::Result<()> {
    let fd = sys::fd::open(path.as_os_str(), libc::O_RDWR | libc::O_CREAT | libc::O_TRUNC, 0o600)?;
    let block = vec![0u8; 1 << 20];
    let mut left = bytes;
    while left > 0 {
        let k = left.min(block.len());
        sys::fd::write_all(fd.raw(), &block[..k])?;
        left -= k;
    }
    sys::fd::sync();
    Ok(())
}

fn open_rw(path: &Path) -> io::Result<Fd> {
    sys::fd::open(path.as_os_str(), libc::O_RDWR, 0)
}

/// lat_mmap SIZE FILE: map `size` bytes shared read-write, store one byte every 16 KiB over the
/// first tenth, unmap. Microseconds per mapping.
#[inline(never)] // timed: see lib.rs
pub fn lat_mmap(h: &Harness, file: &Path, size: usize) -> io::Result<f64> {
    let fd = open_rw(file)?;
    let value = (size & 0xff) as u8;
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                let mut m = sys::mem::Mapping::file_shared(fd.raw(), size, true)?;
                m.write_every(16 << 10, size / 10, value);
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

/// lat_pagefault FILE: touch every page of a shared read-only mapping in a random order, then
/// remap and invalidate, less the cost of the remap and invalidate alone. Microseconds per page.
#[inline(never)] // timed: see lib.rs
pub fn lat_pagefault(h: &Harness, file: &Path) -> io::Result<f64> {
    let fd = sys::fd::open(file.as_os_str(), libc::O_RDONLY, 0)?;
    let page = sys::mem::page_size();
    let size = std::fs::metadata(file)?.len() as usize / page * page;
    if size < 1 << 20 {
        return Err(io::Error::other("the scratch file is under 1 MiB"));
    }
    let mut offsets: Vec<usize> = (0..size / page).map(|i| i * page).collect();
    let mut rng = oorandom::Rand64::new(u128::from(sys::proc::getpid() as u32));
    for i in (1..offsets.len()).rev() {
        let j = rng.rand_range(0..(i as u64 + 1)) as usize;
        offsets.swap(i, j);
    }
    let remap = |m: &mut sys::mem::Mapping| -> io::Result<()> {
        *m = sys::mem::Mapping::file_shared(fd.raw(), size, false)?;
        m.invalidate()
    };
    let mut m = sys::mem::Mapping::file_shared(fd.raw(), size, false)?;
    m.invalidate()?;
    let only_map = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                remap(&mut m)?;
            }
            Ok(())
        })
    })?;
    let with_faults = h.run(Pick::Median, |n| {
        time_io(|| {
            let mut sum = 0u32;
            for _ in 0..n {
                sum = sum.wrapping_add(m.read_at(&offsets));
                remap(&mut m)?;
            }
            black_box(sum);
            Ok(())
        })
    })?;
    let per_iter = with_faults.per_iter() - only_map.per_iter();
    Ok((per_iter / offsets.len() as f64).max(0.0))
}

/// bw_file_rd SIZE io_only FILE: seek to 0, read `size` bytes in 64 KiB reads, summing each
/// block as it arrives. MB/s.
#[inline(never)] // timed: see lib.rs
pub fn bw_file_reread(h: &Harness, file: &Path, size: usize) -> io::Result<f64> {
    let fd = sys::fd::open(file.as_os_str(), libc::O_RDONLY, 0)?;
    let mut buf = vec![0u8; XFER];
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            let mut sum = 0i64;
            for _ in 0..n {
                sys::fd::seek_set(fd.raw(), 0)?;
                let mut left = size;
                while left > 0 {
                    let k = left.min(XFER);
                    let got = sys::fd::read(fd.raw(), &mut buf[..k])?;
                    if got == 0 {
                        break;
                    }
                    sum = sum.wrapping_add(sys::mem::bread(&buf[..k]));
                    left -= k;
                }
            }
            black_box(sum);
            Ok(())
        })
    })?;
    Ok(size as f64 / s.per_iter())
}

/// bw_mmap_rd SIZE mmap_only FILE: map once, then sum all `size` bytes per iteration. MB/s.
#[inline(never)] // timed: see lib.rs
pub fn bw_mmap_reread(h: &Harness, file: &Path, size: usize) -> io::Result<f64> {
    let fd = sys::fd::open(file.as_os_str(), libc::O_RDONLY, 0)?;
    let m = sys::mem::Mapping::file_shared(fd.raw(), size, false)?;
    let bytes = m.bytes();
    let s = h.run(Pick::Median, |n| {
        Ok(timed(|| {
            let mut sum = 0i64;
            for _ in 0..n {
                sum = sum.wrapping_add(sys::mem::bread(bytes));
            }
            black_box(sum)
        })
        .0)
    })?;
    Ok(size as f64 / s.per_iter())
}
