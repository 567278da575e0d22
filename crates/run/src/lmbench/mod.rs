//! `lmbench`: lmbench's latency and bandwidth summary for this host, measured the lmbench way
//! and printed in the layout of lmbench 3's summary table; `--summary FILE...` puts several
//! saved runs side by side, a row per host, as lmbench's getsummary does.
//!
//! Each column ports one lmbench program (named in the submodule that measures it) with its
//! parameters; [`harness`] is lmbench's timing method. A column that cannot be measured here
//! (no loopback, no /bin/sh, a refused socket) is left blank, as lmbench leaves a missing
//! figure, and a note under the table says why. Nothing leaves this host: sockets are on
//! 127.0.0.1 only. Scratch files live in a private directory removed on every path, and
//! helper processes are killed and reaped by their guards.

//!
//! This is the cold half: it parses the options, chooses the figures, runs them and prints the
//! table and the JSON. The loops it times and lmbench's harness are `lmbench_kernels`, a crate
//! built at opt-level 3 as the kernels are, while this one is built for size.

mod json;
mod table;

use lmbench_kernels::{ctx, harness, ipc, memory, procs, vm};

use crate::error::{Error, Result};
use crate::sys;
use harness::{Harness, INTERRUPTED, MEDIUM, SHORT};
use json::{from_json, to_json};
use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;
use table::HostResults;

const HELP: &str = "\
Usage: lmbench [-s|--short] [--only SECTION[,SECTION...]] [--json FILE] [--dir DIR]
       lmbench --summary FILE...
Measures lmbench's summary figures for this host and prints them in lmbench 3's summary table.

  -s, --short     the shortest mode: 3 samples of 5 ms intervals per figure, 8 MiB buffers
                  (a smoke test; the default takes 11 samples of 100 ms intervals, and of
                  1 s or 2 s for the pipe, UDP, TCP and AF_UNIX figures, as lmbench does)
  --only LIST     measure only these sections (or single figures, by their JSON names),
                  comma-separated:
                    proc  null call, null I/O, stat, open/close, select on 100 TCP fds,
                          signal install and handler, fork+exit, fork+exec, fork+sh -c
                    ctx   context switches: 2p/0K, 2p/16K, 2p/64K, 8p/16K ... 16p/64K
                    lat   pipe, AF_UNIX, UDP, TCP, TCP connect latencies (127.0.0.1 only)
                    fs    0K/10K file create and delete, mmap, protection and page faults,
                          select on 100 file fds
                    bw    pipe, AF_UNIX, TCP, file and mmap reread, bcopy, memory read/write
                    mem   clock estimate, L1, L2 and main memory load latency
  --json FILE     also write the figures to FILE (JSON, schema \"unixbench-lmbench\" 1)
  --dir DIR       make scratch files under DIR (default: $TMPDIR, else /tmp)
  --summary FILE...  print one table with a row per saved results file

Figures are those of lmbench 3's table: latencies in microseconds, bandwidths in MB/s
(10^6 bytes), memory latencies in nanoseconds. Memory latency is measured with a 128-byte
stride at half the L1 and half the L2 size the system reports and at twice the largest
cache (at least 8 MiB); where no sizes are reported, L1 and L2 come from a sweep of sizes.
";

const SECTIONS: &[&str] = &["proc", "ctx", "lat", "fs", "bw", "mem"];

#[derive(Debug, Default)]
struct Opts {
    short: bool,
    only: Option<Vec<String>>,
    json: Option<PathBuf>,
    dir: Option<PathBuf>,
    summary: Vec<PathBuf>,
    hello: bool,
}

/// Parses the full argv (argv[0] included, as lexopt expects).
fn parse(args: Vec<OsString>) -> Result<Opts> {
    use lexopt::prelude::*;
    let mut o = Opts::default();
    let mut p = lexopt::Parser::from_iter(args);
    let mut summary = false;
    while let Some(arg) = p.next()? {
        match arg {
            Short('s') | Long("short") | Long("quick") => o.short = true,
            Long("only") => {
                let v = p.value()?.string().map_err(|_| Error::usage("--only: not valid UTF-8"))?;
                let mut list = Vec::new();
                for s in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                    if !SECTIONS.contains(&s) && !table::FIGURES.iter().any(|f| f.0 == s) {
                        return Err(Error::usage(format!(
                            "unknown section '{s}' (sections: {}; or a figure name of the JSON file)",
                            SECTIONS.join(", ")
                        )));
                    }
                    list.push(s.to_string());
                }
                if list.is_empty() {
                    return Err(Error::usage("--only: no section named"));
                }
                o.only = Some(list);
            }
            Long("json") | Long("save") => o.json = Some(p.value()?.into()),
            Long("dir") => o.dir = Some(p.value()?.into()),
            Long("summary") => summary = true,
            Long("hello") => o.hello = true,
            Value(v) if summary => o.summary.push(v.into()),
            Long("help") | Short('h') => {
                crate::error::print(HELP)?;
                return Err(Error::Exit(0));
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    if summary && o.summary.is_empty() {
        return Err(Error::usage("--summary: name at least one results file"));
    }
    if summary && (o.short || o.only.is_some() || o.json.is_some()) {
        return Err(Error::usage("--summary prints saved results; it takes no measuring options"));
    }
    Ok(o)
}

/// Entry point of the `lmbench` applet.
pub fn main(args: Vec<OsString>) -> Result {
    let opts = match parse(args) {
        Err(Error::Exit(0)) => return Ok(()),
        r => r?,
    };
    if opts.hello {
        // The program lat_proc's exec and shell columns start: it only says hello.
        let _ = sys::fd::write(1, b"Hello world\n");
        return Ok(());
    }
    if !opts.summary.is_empty() {
        return summary(&opts.summary);
    }
    measure_all(&opts)
}

fn summary(files: &[PathBuf]) -> Result {
    let mut hosts = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f)
            .map_err(|e| Error::usage(format!("--summary: cannot read '{}': {e}", f.display())))?;
        hosts.push(from_json(&text).map_err(|e| Error::usage(format!("--summary: '{}': {e}", f.display())))?);
    }
    let mut out = table::render(&hosts);
    out.push_str(&table::footnotes(&hosts));
    print_out(&out)
}

fn print_out(s: &str) -> Result {
    let mut o = std::io::stdout().lock();
    match o.write_all(s.as_bytes()).and_then(|()| o.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::failed(format!("cannot write the table: {e}"))),
        Ok(()) => Ok(()),
    }
}

extern "C" fn on_interrupt(_sig: libc::c_int) {
    INTERRUPTED.store(true, Relaxed);
}

/// The private scratch directory, removed with everything in it when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// What the measuring needs beyond the harness.
struct Run {
    h: Harness,
    dir: PathBuf,
    me: Option<PathBuf>,
    points: memory::Points,
    /// The size of the scratch file, the bandwidth buffers and the main-memory point.
    mb: usize,
    data_file: Option<PathBuf>,
    small_file: PathBuf,
    res: HostResults,
    verbose: bool,
    /// Sections and figure names to measure; None for all.
    only: Option<Vec<String>>,
}

impl Run {
    /// Measures one figure, recording its value or why there is none.
    ///
    /// Generic only in this shim; the checks and the recording are one function each, not a
    /// copy per figure.
    #[inline]
    fn fig(&mut self, key: &str, f: impl FnOnce(&mut Run) -> std::io::Result<f64>) -> Option<f64> {
        match self.to_measure(key) {
            Ok(()) => {
                let r = f(self);
                self.record(key, r)
            }
            Err(v) => v,
        }
    }

    /// Ok to measure `key`; else what `fig` returns without measuring (its earlier value, or
    /// None when interrupted or not selected).
    #[inline(never)]
    fn to_measure(&self, key: &str) -> std::result::Result<(), Option<f64>> {
        if INTERRUPTED.load(Relaxed) {
            return Err(None);
        }
        if let Some(v) = self.res.figures.get(key) {
            return Err(Some(*v));
        }
        if !self.selected(key) {
            return Err(None);
        }
        if self.verbose {
            let _ = writeln!(std::io::stderr(), "lmbench: {key}");
        }
        Ok(())
    }

    #[inline(never)]
    fn record(&mut self, key: &str, r: std::io::Result<f64>) -> Option<f64> {
        match r {
            Ok(v) if v.is_finite() && v > 0.0 => {
                self.res.figures.insert(key.to_string(), v);
                self.res.notes.remove(key);
                Some(v)
            }
            Ok(v) => {
                self.res.note(key, format!("not measured: no positive figure ({v})"));
                None
            }
            Err(e) if INTERRUPTED.load(Relaxed) => {
                let _ = e;
                None
            }
            Err(e) => {
                self.res.note(key, format!("not measured: {e}"));
                None
            }
        }
    }

    /// Whether `key` is to be measured: its section or itself is in --only (or no --only).
    #[inline(never)] // asked for every figure
    fn selected(&self, key: &str) -> bool {
        let section = table::FIGURES.iter().find(|f| f.0 == key).map_or("", |f| f.1);
        self.only.as_ref().map_or(true, |l| l.iter().any(|x| x == key || x == section))
    }

    fn data_file(&mut self) -> std::io::Result<PathBuf> {
        if let Some(p) = &self.data_file {
            return Ok(p.clone());
        }
        let p = self.dir.join("XXX");
        vm::make_file(&p, self.mb)?;
        self.data_file = Some(p.clone());
        Ok(p)
    }

    fn me(&self) -> std::io::Result<PathBuf> {
        self.me.clone().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::NotFound, "cannot find this program's own file")
        })
    }
}

fn host_results() -> HostResults {
    let u = sys::info::uname().unwrap_or_default();
    let name = if u.nodename.is_empty() { "unknown".to_string() } else { u.nodename };
    HostResults { host: name, os: format!("{} {}", u.sysname, u.release), ..Default::default() }
}

fn measure_all(opts: &Opts) -> Result {
    let (enough, tries) = if opts.short { (5_000.0, 3) } else { (100_000.0, 11) };
    let caches = memory::cache_sizes();
    let mb = if opts.short { 8 << 20 } else { memory::main_size(&caches) };
    let points = memory::points(&caches, mb);
    let parent = opts
        .dir
        .clone()
        .or_else(|| std::env::var_os("TMPDIR").map(PathBuf::from))
        .unwrap_or_else(|| "/tmp".into());
    if !parent.is_dir() {
        return Err(Error::usage(format!("--dir: '{}' is not a directory", parent.display())));
    }
    if let Some(j) = &opts.json {
        // Fail now, not after minutes of measuring.
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(j)
            .map_err(|e| Error::failed(format!("--json: cannot write '{}': {e}", j.display())))?;
    }
    let dir = sys::fd::mkdtemp(parent.join("lmbench-XXXXXX").as_os_str()).map_err(|e| {
        Error::failed(format!("cannot make a scratch directory in '{}': {e}", parent.display()))
    })?;
    let scratch = Scratch(dir.clone());
    let small_file = dir.join("statfile");
    std::fs::write(&small_file, b"lmb")
        .map_err(|e| Error::failed(format!("cannot write a scratch file: {e}")))?;
    let _ = sys::signal::on_signal(libc::SIGINT, on_interrupt);
    let _ = sys::signal::on_signal(libc::SIGTERM, on_interrupt);

    let mut run = Run {
        h: Harness { floors: !opts.short, ..Harness::new(enough, tries) },
        dir,
        me: crate::selfexe::path().ok(),
        points,
        mb,
        data_file: None,
        small_file,
        res: host_results(),
        verbose: sys::fd::isatty(2),
        only: opts.only.clone(),
    };
    let want = |s: &str| {
        opts.only
            .as_ref()
            .map_or(true, |l| l.iter().any(|x| x == s || table::FIGURES.iter().any(|f| f.0 == x && f.1 == s)))
    };
    if want("proc") {
        proc_section(&mut run);
    }
    if want("ctx") {
        ctx_section(&mut run);
    }
    if want("lat") {
        lat_section(&mut run);
    }
    if want("fs") {
        fs_section(&mut run);
    }
    if want("bw") {
        bw_section(&mut run);
    }
    if want("mem") {
        mem_section(&mut run);
    }
    drop(scratch);

    let hosts = [run.res.clone()];
    let mut out = table::render(&hosts);
    out.push_str(&table::footnotes(&hosts));
    print_out(&out)?;
    if let Some(j) = &opts.json {
        std::fs::write(j, to_json(&run))
            .map_err(|e| Error::failed(format!("--json: cannot write '{}': {e}", j.display())))?;
    }
    if INTERRUPTED.load(Relaxed) {
        return Err(Error::failed_with(130, "interrupted; the figures measured so far are shown"));
    }
    Ok(())
}

fn proc_section(r: &mut Run) {
    r.fig("mhz", |r| memory::mhz(&r.h));
    r.fig("lat_syscall", |r| procs::null_call(&r.h));
    r.fig("lat_nullio", |r| procs::null_io(&r.h));
    r.fig("lat_stat", |r| procs::stat(&r.h, &r.small_file));
    r.fig("lat_openclose", |r| procs::open_close(&r.h, &r.small_file));
    r.fig("lat_tcp_select", |r| procs::select_tcp(&r.h));
    r.fig("lat_siginstall", |r| procs::sig_install(&r.h));
    r.fig("lat_sigcatch", |r| procs::sig_catch(&r.h));
    r.fig("lat_nullproc", |r| procs::fork_exit(&r.h));
    r.fig("lat_simpleproc", |r| procs::fork_exec(&r.h, &r.me()?));
    r.fig("lat_shproc", |r| procs::fork_shell(&r.h, &r.me()?));
}

fn ctx_section(r: &mut Run) {
    ctx_size(r, 0, &[2]);
    ctx_size(r, 16, &[2, 8, 16]);
    ctx_size(r, 64, &[2, 8, 16]);
}

/// One `lat_ctx -s KB N...` run: the overhead for the largest N, then each N.
fn ctx_size(r: &mut Run, kb: usize, procs: &[usize]) {
    let keys: Vec<String> = procs.iter().map(|p| format!("lat_ctx{kb}_{p}")).collect();
    if keys.iter().all(|k| r.res.figures.contains_key(k) || !r.selected(k)) || INTERRUPTED.load(Relaxed) {
        return;
    }
    let max = procs.iter().copied().max().unwrap_or(2);
    match ctx::overhead(&r.h, max, kb) {
        Ok(ovr) => {
            r.res.notes.remove(&format!("lat_ctx{kb}_overhead"));
            for (p, key) in procs.iter().zip(&keys) {
                r.fig(key, |r| ctx::ctx(&r.h, *p, kb, ovr));
            }
        }
        Err(e) => {
            for key in keys {
                r.res.note(&key, format!("not measured: the ring overhead: {e}"));
            }
        }
    }
}

fn lat_section(r: &mut Run) {
    ctx_size(r, 0, &[2]);
    r.fig("lat_pipe", |r| ipc::lat_pipe(&r.h.at_least(SHORT)));
    r.fig("lat_unix", |r| ipc::lat_unix(&r.h));
    r.fig("lat_udp_local", |r| ipc::lat_udp(&r.h.at_least(SHORT)));
    r.fig("lat_tcp_local", |r| ipc::lat_tcp(&r.h.at_least(MEDIUM)));
    r.fig("lat_tcp_connect_local", |r| ipc::lat_connect(&r.h));
}

fn fs_section(r: &mut Run) {
    for (kb, create, delete) in [(0, "fs_create_0k", "fs_delete_0k"), (10, "fs_create_10k", "fs_delete_10k")]
    {
        if INTERRUPTED.load(Relaxed) {
            return;
        }
        if !r.selected(create) && !r.selected(delete) {
            continue;
        }
        match vm::fs_create_delete(&r.h, &r.dir, kb * 1024) {
            Ok((c, d)) => {
                r.fig(create, |_| Ok(c));
                r.fig(delete, |_| Ok(d));
            }
            Err(e) if !INTERRUPTED.load(Relaxed) => {
                r.res.note(create, format!("not measured: {e}"));
                r.res.note(delete, format!("not measured: {e}"));
            }
            Err(_) => {}
        }
    }
    r.fig("lat_mappings", |r| {
        let f = r.data_file()?;
        vm::lat_mmap(&r.h, &f, r.mb)
    });
    r.fig("lat_protfault", |r| {
        let catch = match r.res.figures.get("lat_sigcatch") {
            Some(c) => *c,
            None => procs::sig_catch(&r.h)?,
        };
        procs::prot_fault(&r.h, catch)
    });
    r.fig("lat_pagefault", |r| {
        let f = r.data_file()?;
        vm::lat_pagefault(&r.h, &f)
    });
    r.fig("lat_fd_select", |r| procs::select_file(&r.h, &r.small_file));
}

fn bw_section(r: &mut Run) {
    r.fig("bw_pipe", |r| ipc::bw_pipe(&r.h.at_least(MEDIUM)));
    r.fig("bw_unix", |r| ipc::bw_unix(&r.h.at_least(MEDIUM)));
    r.fig("bw_tcp_local", |r| ipc::bw_tcp(&r.h));
    r.fig("bw_reread", |r| {
        let f = r.data_file()?;
        vm::bw_file_reread(&r.h, &f, r.mb)
    });
    r.fig("bw_mmap", |r| {
        let f = r.data_file()?;
        vm::bw_mmap_reread(&r.h, &f, r.mb)
    });
    // lmbench runs the copies at half its largest size and the rest at the largest.
    r.fig("bw_bcopy_libc", |r| memory::bcopy_libc(&r.h, r.mb / 2));
    r.fig("bw_bcopy_unrolled", |r| memory::bcopy_hand(&r.h, r.mb / 2));
    r.fig("bw_mem_rdsum", |r| memory::read(&r.h, r.mb));
    r.fig("bw_mem_wr", |r| memory::write(&r.h, r.mb));
}

fn mem_section(r: &mut Run) {
    r.fig("mhz", |r| memory::mhz(&r.h));
    let p = r.points;
    if !p.from_caches && (r.selected("lat_l1") || r.selected("lat_l2")) && !INTERRUPTED.load(Relaxed) {
        match memory::sweep(&r.h, p.main) {
            Ok((l1, l2, l2_size)) => {
                r.points.l1 = 2048;
                r.points.l2 = l2_size;
                r.fig("lat_l1", |_| Ok(l1));
                r.fig("lat_l2", |_| Ok(l2));
            }
            Err(e) => {
                r.res.note("lat_l1", format!("not measured: {e}"));
                r.res.note("lat_l2", format!("not measured: {e}"));
            }
        }
    }
    r.fig("lat_l1", |r| memory::load_latency(&r.h, p.l1, memory::STRIDE));
    r.fig("lat_l2", |r| memory::load_latency(&r.h, p.l2, memory::STRIDE));
    r.fig("lat_mem", |r| memory::load_latency(&r.h, p.main, memory::STRIDE));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        std::iter::once("lmbench").chain(v.iter().copied()).map(OsString::from).collect()
    }

    #[test]
    fn options() {
        let o = parse(os(&["-s", "--only", "proc,mem", "--json", "x.json"])).unwrap();
        assert!(o.short);
        assert_eq!(o.only.unwrap(), vec!["proc", "mem"]);
        assert_eq!(parse(os(&["--only", "disk"])).unwrap_err().exit_code(), 2);
        assert_eq!(parse(os(&["--only", "lat_pipe,mem"])).unwrap().only.unwrap(), vec!["lat_pipe", "mem"]);
        assert_eq!(parse(os(&["--bogus"])).unwrap_err().exit_code(), 2);
        assert_eq!(parse(os(&["--summary"])).unwrap_err().exit_code(), 2);
        assert_eq!(parse(os(&["--summary", "a", "b"])).unwrap().summary.len(), 2);
        assert_eq!(parse(os(&["extra"])).unwrap_err().exit_code(), 2);
    }

    #[test]
    fn json_round_trip() {
        let mut res = host_results();
        res.figures.insert("lat_syscall".into(), 0.116);
        res.notes.insert("lat_udp_local".into(), "not measured: \"refused\"".into());
        let run = Run {
            h: Harness { enough: 1.0, tries: 1, t_overhead: 0.0, l_overhead: 0.0, floors: false },
            dir: PathBuf::from("/nonexistent"),
            me: None,
            points: memory::points(&[], 8 << 20),
            mb: 8 << 20,
            data_file: None,
            small_file: PathBuf::new(),
            res: res.clone(),
            verbose: false,
            only: None,
        };
        let text = to_json(&run);
        assert!(text.starts_with("{\n  \"schema\": \"unixbench-lmbench\",\n  \"schema_version\": 1,"));
        assert_eq!(from_json(&text).unwrap(), res);
        assert!(from_json("{\"schema\": \"other\"}").is_err());
        assert!(from_json("{\"schema\": \"unixbench-lmbench\", \"schema_version\": 2}").is_err());
    }
}
