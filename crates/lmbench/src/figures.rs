//! The one table of lmbench's figures: each figure's key (getsummary's variable name, and the
//! name in the JSON file and in `--only`), the section that measures it (`--only`'s, and the
//! help's), its column (title and width in lmbench 3's summary table) and how it is measured
//! (the lmbench program it ports, and the [`How`] the measuring code dispatches on). Selection,
//! measuring, the table, its footnotes, the help and the JSON all read it; nothing else names a
//! figure's section or column.

/// The sections of `--only`, in the order they are measured and printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Proc,
    Ctx,
    Lat,
    Fs,
    Bw,
    Mem,
}

impl Section {
    pub const ALL: [Section; 6] =
        [Section::Proc, Section::Ctx, Section::Lat, Section::Fs, Section::Bw, Section::Mem];

    /// Each section's name, in [`Section::ALL`]'s order: what `--only` takes and a shell offers.
    pub const NAMES: &'static [&'static str] = &["proc", "ctx", "lat", "fs", "bw", "mem"];

    pub fn name(self) -> &'static str {
        Section::NAMES[self as usize]
    }

    /// What the section's columns are, for the help.
    pub fn about(self) -> &'static str {
        match self {
            Section::Proc => "processor and processes, microseconds",
            Section::Ctx => "context switches, microseconds",
            Section::Lat => "local communication latencies, microseconds (127.0.0.1 only)",
            Section::Fs => "file and VM system latencies, microseconds",
            Section::Bw => "local communication and memory bandwidths, MB/s (10^6 bytes)",
            Section::Mem => "the clock (MHz) and memory load latencies, nanoseconds",
        }
    }

    pub fn by_name(name: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How a figure is measured: one variant per measuring method, which `command` matches on
/// (so a figure without a method does not compile). Its numbers, as the figure's width, are
/// bytes: the table is data in the binary, 56 bytes a figure where `usize`s made it 88.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum How {
    Mhz,
    NullCall,
    NullIo,
    Stat,
    OpenClose,
    SelectTcp,
    SigInstall,
    SigCatch,
    ForkExit,
    ForkExec,
    ForkShell,
    /// `lat_ctx -s KB N`: N processes passing a token, each touching KB kilobytes.
    Ctx {
        kb: u8,
        procs: u8,
    },
    LatPipe,
    LatUnix,
    LatUdp,
    LatTcp,
    LatConnect,
    /// `lat_fs`'s create and delete rates of files of KB kilobytes, measured together.
    FsCreate(u8),
    FsDelete(u8),
    Mmap,
    ProtFault,
    PageFault,
    SelectFile,
    BwPipe,
    BwUnix,
    BwTcp,
    BwReread,
    BwMmap,
    BcopyLibc,
    BcopyHand,
    MemRead,
    MemWrite,
    LatL1,
    LatL2,
    LatMem,
    /// lmbench 3's random-order chase, `lat_mem_rd -t`, at the main-memory point.
    LatMemRand,
}

/// One figure of the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Figure {
    pub key: &'static str,
    pub section: Section,
    /// Its column's title in the table (the two header lines joined), also the footnotes'.
    pub title: &'static str,
    /// Its cell's width in its section's table (lmbench's `num` width).
    pub width: u8,
    pub how: How,
    /// What it measures, in lmbench's terms: the program and arguments it ports, and what one
    /// iteration is (the help and the footnotes print it).
    pub what: &'static str,
}

const fn fig(
    key: &'static str,
    section: Section,
    title: &'static str,
    width: u8,
    how: How,
    what: &'static str,
) -> Figure {
    Figure { key, section, title, width, how, what }
}

use How::*;
use Section::{Bw, Ctx as CtxS, Fs, Lat, Mem, Proc};

/// Every figure this tool measures, in the order of the table's columns within each section.
#[rustfmt::skip] // a table: one row per figure
pub const FIGURES: &[Figure] = &[
    fig("lat_syscall", Proc, "null call", 4, NullCall, "lat_syscall null: getppid()"),
    fig("lat_nullio", Proc, "null I/O", 4, NullIo, "lat_syscall read, write: a byte of /dev/zero, /dev/null"),
    fig("lat_stat", Proc, "stat", 4, Stat, "lat_syscall stat: stat() of a file"),
    fig("lat_openclose", Proc, "open clos", 4, OpenClose, "lat_syscall open: open() and close() of a file"),
    fig("lat_tcp_select", Proc, "slct TCP", 4, SelectTcp, "lat_select -n 100 tcp: select() on 100 TCP sockets"),
    fig("lat_siginstall", Proc, "sig inst", 4, SigInstall, "lat_sig install: installing a signal handler"),
    fig("lat_sigcatch", Proc, "sig hndl", 4, SigCatch, "lat_sig catch: sending and catching a signal"),
    fig("lat_nullproc", Proc, "fork proc", 4, ForkExit, "lat_proc fork: fork() and the child's exit"),
    fig("lat_simpleproc", Proc, "exec proc", 4, ForkExec, "lat_proc exec: fork() and execve() of a program"),
    fig("lat_shproc", Proc, "sh proc", 4, ForkShell, "lat_proc shell: fork() and /bin/sh -c a program"),
    fig("lat_ctx0_2", CtxS, "2p/0K ctxsw", 6, Ctx { kb: 0, procs: 2 }, "lat_ctx -s 0 2: a switch, 2 processes"),
    fig("lat_ctx16_2", CtxS, "2p/16K ctxsw", 6, Ctx { kb: 16, procs: 2 }, "lat_ctx -s 16 2: 2 touching 16 KB"),
    fig("lat_ctx64_2", CtxS, "2p/64K ctxsw", 6, Ctx { kb: 64, procs: 2 }, "lat_ctx -s 64 2: 2 touching 64 KB"),
    fig("lat_ctx16_8", CtxS, "8p/16K ctxsw", 6, Ctx { kb: 16, procs: 8 }, "lat_ctx -s 16 8: 8 touching 16 KB"),
    fig("lat_ctx64_8", CtxS, "8p/64K ctxsw", 6, Ctx { kb: 64, procs: 8 }, "lat_ctx -s 64 8: 8 touching 64 KB"),
    fig("lat_ctx16_16", CtxS, "16p/16K ctxsw", 7, Ctx { kb: 16, procs: 16 }, "lat_ctx -s 16 16: 16 touching 16 KB"),
    fig("lat_ctx64_16", CtxS, "16p/64K ctxsw", 7, Ctx { kb: 64, procs: 16 }, "lat_ctx -s 64 16: 16 touching 64 KB"),
    fig("lat_pipe", Lat, "Pipe", 5, LatPipe, "lat_pipe: a byte's round trip through two pipes"),
    fig("lat_unix", Lat, "AF UNIX", 4, LatUnix, "lat_unix: a round trip through an AF_UNIX socket pair"),
    fig("lat_udp_local", Lat, "UDP", 5, LatUdp, "lat_udp: a UDP packet's round trip"),
    fig("lat_tcp_local", Lat, "TCP", 5, LatTcp, "lat_tcp: a byte's round trip over TCP"),
    fig("lat_tcp_connect_local", Lat, "TCP conn", 4, LatConnect, "lat_connect: a TCP connection made and closed"),
    fig("fs_create_0k", Fs, "0K File Create", 6, FsCreate(0), "lat_fs 0k: creating an empty file"),
    fig("fs_delete_0k", Fs, "0K File Delete", 6, FsDelete(0), "lat_fs 0k: deleting an empty file"),
    fig("fs_create_10k", Fs, "10K File Create", 6, FsCreate(10), "lat_fs 10k: creating a 10 KB file"),
    fig("fs_delete_10k", Fs, "10K File Delete", 6, FsDelete(10), "lat_fs 10k: deleting a 10 KB file"),
    fig("lat_mappings", Fs, "Mmap Latency", 7, Mmap, "lat_mmap: mapping and unmapping a file"),
    fig("lat_protfault", Fs, "Prot Fault", 5, ProtFault, "lat_sig prot: a protection fault, less a signal's catch"),
    fig("lat_pagefault", Fs, "Page Fault", 7, PageFault, "lat_pagefault: faulting in a page of a mapped file"),
    fig("lat_fd_select", Fs, "100fd selct", 5, SelectFile, "lat_select -n 100 file: select() on 100 file fds"),
    fig("bw_pipe", Bw, "Pipe", 4, BwPipe, "bw_pipe: 10 MB in 64 KB reads through a pipe"),
    fig("bw_unix", Bw, "AF UNIX", 4, BwUnix, "bw_unix: 10 MB in 64 KB reads, AF_UNIX socket pair"),
    fig("bw_tcp_local", Bw, "TCP", 4, BwTcp, "bw_tcp -m 10M: 10 MB messages over loopback TCP"),
    fig("bw_reread", Bw, "File reread", 6, BwReread, "bw_file_rd io_only: read() of a cached file, summed"),
    fig("bw_mmap", Bw, "Mmap reread", 6, BwMmap, "bw_mmap_rd mmap_only: a mapped cached file, summed"),
    fig("bw_bcopy_libc", Bw, "Bcopy (libc)", 6, BcopyLibc, "bw_mem bcopy: the C library's memcpy"),
    fig("bw_bcopy_unrolled", Bw, "Bcopy (hand)", 6, BcopyHand, "bw_mem fcp: a copy word by word, unrolled"),
    fig("bw_mem_rdsum", Bw, "Mem read", 4, MemRead, "bw_mem frd: every word read and summed"),
    fig("bw_mem_wr", Bw, "Mem write", 5, MemWrite, "bw_mem fwr: every word written"),
    fig("mhz", Mem, "Mhz", 4, Mhz, "the clock: a chain of dependent adds (lmbench's mhz)"),
    fig("lat_l1", Mem, "L1 $", 6, LatL1, "lat_mem_rd, stride 128: a dependent load inside L1"),
    fig("lat_l2", Mem, "L2 $", 6, LatL2, "lat_mem_rd, stride 128: a dependent load inside L2"),
    fig("lat_mem", Mem, "Main mem", 6, LatMem, "lat_mem_rd, stride 128: a dependent load past the caches"),
    fig("lat_mem_rand", Mem, "Rand mem", 6, LatMemRand, "lat_mem_rd -t, stride 16: the same in random order"),
];

/// The figure named `key`.
pub fn figure(key: &str) -> Option<&'static Figure> {
    FIGURES.iter().find(|f| f.key == key)
}

/// The figures of one section, in column order.
pub fn of(section: Section) -> impl Iterator<Item = &'static Figure> {
    FIGURES.iter().filter(move |f| f.section == section)
}

/// The help's list of sections and their figures, generated from the table.
pub fn help() -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    // The table lists each section's figures together, in the sections' order.
    let mut last = None;
    for f in FIGURES {
        if last != Some(f.section) {
            last = Some(f.section);
            let _ = writeln!(o, "    {:<5} {}", f.section.name(), f.section.about());
        }
        let _ = writeln!(o, "      {:<21} {:<15} {}", f.key, f.title, f.what);
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_unique_and_sections_in_order() {
        for (i, f) in FIGURES.iter().enumerate() {
            assert!(FIGURES[..i].iter().all(|g| g.key != f.key), "{} twice", f.key);
            assert!(Section::by_name(f.key).is_none(), "{} is also a section's name", f.key);
        }
        // Sections are contiguous, in Section::ALL's order (the table's columns follow them).
        let order: Vec<usize> =
            FIGURES.iter().map(|f| Section::ALL.iter().position(|s| *s == f.section).unwrap()).collect();
        assert!(order.windows(2).all(|w| w[0] <= w[1]), "{order:?}");
        assert_eq!(Section::by_name("mem"), Some(Section::Mem));
    }

    #[test]
    fn help_names_every_figure_under_its_section() {
        let h = help();
        for f in FIGURES {
            let line = h.lines().find(|l| l.trim_start().starts_with(&format!("{} ", f.key))).unwrap();
            assert!(line.contains(f.title) && line.contains(f.what), "{line}");
            let section =
                h[..h.find(line).unwrap()].lines().rfind(|l| !l.starts_with("      ")).unwrap().trim_start();
            assert!(section.starts_with(f.section.name()), "{} under {section}", f.key);
        }
    }
}
