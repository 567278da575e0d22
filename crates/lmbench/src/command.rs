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
//! table and the JSON. The loops it times and lmbench's harness are `lmbench-timed`, a crate
//! built at opt-level 3 as the kernels are, while this one is built for size.

use crate::{ctx, harness, ipc, memory, procs, vm};

use crate::error::{Error, Result};
use crate::figures::{self, Figure, How, Section};
use crate::results::{from_json, to_json};
use crate::sys;
use crate::table;
use crate::table::HostResults;
use base::options::{self, Arg, Command, Spec, Takes, Values};
use harness::{Harness, INTERRUPTED, MEDIUM, SHORT};
use std::ffi::OsString;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;

const USAGE: &str = "\
Usage: lmbench [-s|--short] [--only SECTION[,SECTION...]] [--json FILE] [--dir DIR]
       lmbench --summary FILE...
Measures lmbench's summary figures for this host and prints them in lmbench 3's summary table.
A run takes about 5 minutes (-s: seconds).
A busy host skews the figures: stop other work; under steal, run at another time or host.

Examples:
  unixbench lmbench -s                        # a smoke test, in seconds
  unixbench lmbench --json a.json             # the whole table, kept as JSON too
  unixbench lmbench --summary a.json b.json   # saved runs side by side, a row each

";

/// The help after the options.
const ABOUT: &str = "
Figures are those of lmbench 3's table: latencies in microseconds, bandwidths in MB/s
(10^6 bytes), memory latencies in nanoseconds. Memory latency is measured with a 128-byte
stride at half the L1 and half the L2 size the system reports and at twice the largest
cache (at least 8 MiB, in the short mode too); where no sizes are reported, L1 and L2 come
from a sweep of sizes. \"Main mem\" walks that buffer in order, which a prefetcher can follow;
\"Rand mem\" walks it in lmbench's random order, a new page each load (lat_mem_rd -t), which
is the latency of memory itself.
";

/// lmbench's options, declared once: parsing, the help's option lines, the suggestion for a
/// misspelt one, the man page and the completions come from here.
static OPTIONS: &[Spec] = &[
    Spec {
        short: Some('s'),
        long: Some("short"),
        help: "the shortest mode: 3 samples of 5 ms intervals per figure, 8 MiB\n\
               bandwidth buffers (a smoke test, and its table says so; the default takes\n\
               11 samples of 100 ms intervals, and of 1 s or 2 s for the pipe, UDP, TCP\n\
               and AF_UNIX figures, as lmbench does)",
        ..Spec::NONE
    },
    Spec {
        long: Some("only"),
        takes: Takes::Value(&"LIST"),
        // The sections; a figure's own name is taken too, but a shell offers the six.
        values: Values::Words(&figures::Section::NAMES),
        help: "measure only these sections, or single figures by their JSON names,\n\
               comma-separated; the sections, and each figure's name, column and program:",
        ..Spec::NONE
    },
    Spec {
        long: Some("json"),
        takes: Takes::Value(&"FILE"),
        values: Values::Files,
        help: "also write the figures to FILE (JSON, schema \"unixbench-lmbench\" 1)",
        ..Spec::NONE
    },
    Spec {
        long: Some("dir"),
        takes: Takes::Value(&"DIR"),
        values: Values::Dirs,
        help: "make scratch files under DIR (default: $TMPDIR, else /tmp)",
        ..Spec::NONE
    },
    Spec {
        long: Some("summary"),
        takes: Takes::Value(&"FILE"),
        values: Values::Files,
        help: "print one table with a row per saved results file: FILE and those after it",
        ..Spec::NONE
    },
    Spec { short: Some('h'), long: Some("help"), help: "this help", ..Spec::NONE },
    // lat_proc's program: an entry of a hidden name alone.
    Spec::NONE,
];

/// lmbench's command line: its options, and the files after `--summary`.
pub const COMMAND: Command = Command {
    name: "lmbench",
    spec: |i| OPTIONS.get(i),
    // The names `--short` and `--json` once had, and `--hello`: lat_proc's program, no option
    // of a user's.
    hidden: &[("quick", 0), ("save", 2), ("hello", 6)],
    operands: Values::Files,
};

/// `lmbench --help`: the options from their table, `--only`'s followed by the sections and
/// their figures from the figures table.
fn help() -> String {
    let mut h = USAGE.to_string();
    for o in OPTIONS {
        options::help_lines(&mut h, o, 16);
        if o.long == Some("only") {
            h += &figures::help();
        }
    }
    h + ABOUT
}
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
    let mut o = Opts::default();
    let mut p = lexopt::Parser::from_iter(args);
    let mut summary = false;
    while let Some(arg) = options::next(&mut p, &COMMAND)? {
        let (name, v) = match arg {
            Arg::Opt(i, v) => (OPTIONS[i].long, v),
            Arg::Operand(v) if summary => {
                o.summary.push(v.into());
                continue;
            }
            Arg::Operand(v) => {
                return Err(Error::usage(format!("unexpected argument {}", base::args::quoted(&v))))
            }
            Arg::Unknown(w) => return Err(options::unknown(&w, &COMMAND)),
        };
        let v = v.unwrap_or_default();
        match name {
            Some("short") => o.short = true,
            Some("only") => o.only = Some(only(v)?),
            Some("json") => o.json = Some(v.into()),
            Some("dir") => o.dir = Some(v.into()),
            Some("summary") => {
                summary = true;
                o.summary.push(v.into());
            }
            None => o.hello = true,
            Some(_) => {
                crate::error::print(&help())?;
                return Err(Error::Exit(0));
            }
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

/// `--only`'s list: each a section or a figure.
fn only(v: OsString) -> Result<Vec<String>> {
    let v = v.into_string().map_err(|_| Error::usage("--only: not valid UTF-8"))?;
    let mut list = Vec::new();
    for s in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        // Every section has figures: a name is known if a figure or its section has it.
        if !figures::FIGURES.iter().any(|f| f.key == s || f.section.name() == s) {
            return Err(unknown_section(s));
        }
        list.push(s.to_string());
    }
    if list.is_empty() {
        return Err(Error::usage("--only: no section named"));
    }
    Ok(list)
}

/// A word of `--only` that names no section or figure: the closest names, on one short line
/// (the list is behind `--help`).
fn unknown_section(s: &str) -> Error {
    // Each figure's name and its section's: a section named again is one name to `closest`.
    let mut names = Vec::new();
    for f in figures::FIGURES {
        names.push(f.key);
        names.push(f.section.name());
    }
    Error::usage(format!(
        "unknown --only name '{}'{}; see lmbench --help",
        base::args::escaped(s),
        base::suggest::did_you_mean(&base::suggest::closest(s, names))
    ))
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
    measure_all(opts)
}

/// `--json FILE` opened at the start (fail now, not after minutes of measuring), never
/// following a planted link nor blocking on a FIFO, and only a regular file of this user.
fn open_json(j: &std::path::Path) -> Result<std::fs::File> {
    sys::fd::open_file(j, sys::fd::Open::Append)
        .map_err(|e| Error::failed(format!("--json: cannot write {e}")))
}

/// A `--summary` file, read without blocking and at most [`MAX_SUMMARY`] bytes.
fn read_summary(f: &std::path::Path) -> Result<String> {
    use std::io::Read;
    let mut text = String::new();
    // The open's errors name the file; a read's are named here.
    let file = sys::fd::open_file(f, sys::fd::Open::Read)
        .map_err(|e| Error::usage(format!("--summary: cannot read {e}")))?;
    file.take(MAX_SUMMARY)
        .read_to_string(&mut text)
        .map_err(|e| Error::usage(format!("--summary: cannot read {}: {e}", f.display())))?;
    Ok(text)
}

/// The most of a `--summary` file read: far above any results file of ours.
const MAX_SUMMARY: u64 = 16 << 20;

fn summary(files: &[PathBuf]) -> Result {
    let mut hosts = Vec::new();
    for f in files {
        let text = read_summary(f)?;
        hosts.push(from_json(&text).map_err(|e| Error::usage(format!("--summary: '{}': {e}", f.display())))?);
    }
    show(&hosts)
}

/// The table and its footnotes on stdout.
fn show(hosts: &[HostResults]) -> Result {
    let mut out = table::render(hosts);
    table::footnotes(hosts, &mut out);
    crate::error::print_table(&out)
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
struct Session {
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
    /// The first figure that could not have its memory, and why: nothing more is measured (the
    /// next figures want as much or more), and lmbench ends saying so.
    out_of_memory: Option<String>,
}

impl Session {
    /// Whether to measure `f`: not when interrupted, out of memory, measured already or not
    /// selected.
    fn to_measure(&self, f: &Figure) -> bool {
        let key = f.key;
        if INTERRUPTED.load(Relaxed)
            || self.out_of_memory.is_some()
            || self.res.figures.contains_key(key)
            || !self.selected(f)
        {
            return false;
        }
        if self.verbose {
            note(format_args!("{key}"));
        }
        true
    }

    fn record(&mut self, key: &str, r: std::io::Result<f64>) -> Option<f64> {
        let why = match r {
            Ok(v) if v.is_finite() && v > 0.0 => {
                self.res.figures.insert(key.to_string(), v);
                self.res.notes.remove(key);
                return Some(v);
            }
            Ok(v) => format!("no positive figure ({v})"),
            Err(_) if INTERRUPTED.load(Relaxed) => return None,
            Err(e) if e.kind() == std::io::ErrorKind::OutOfMemory => {
                self.out_of_memory = Some(format!("{key}: {e}"));
                return None;
            }
            Err(e) => e.to_string(),
        };
        self.res.note(key, format!("not measured: {why}"));
        None
    }

    /// Whether `f` is to be measured: its section or itself is in --only (or no --only).
    fn selected(&self, f: &Figure) -> bool {
        self.only.as_ref().map_or(true, |l| l.iter().any(|x| x == f.key || x == f.section.name()))
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

fn measure_all(mut opts: Opts) -> Result {
    let caches = memory::cache_sizes();
    // The main-memory point is past the largest cache the system reports, in the short mode
    // too (an 8 MiB ring would be inside many L3 caches); only the bandwidth buffers shrink.
    let main = memory::main_size(&caches);
    let parent = scratch_parent(opts.dir.take())?;
    // Fail now, not after minutes of measuring; the file is written through this descriptor.
    let json_out = opts.json.as_deref().map(open_json).transpose()?;
    let (scratch, small_file) = make_scratch(&parent)?;
    let _ = sys::signal::on_signal(libc::SIGINT, on_interrupt);
    let _ = sys::signal::on_signal(libc::SIGTERM, on_interrupt);
    let mut run = session(&mut opts, &caches, main, scratch.0.clone(), small_file);
    measure_figures(&mut run);
    drop(scratch);
    if caches.is_empty() {
        note_no_cache_sizes(&mut run, main);
    }
    print_results(&opts, &run, json_out)?;
    if let Some(why) = run.out_of_memory {
        return Err(Error::failed(format!("{why}; the figures measured so far are shown")));
    }
    if INTERRUPTED.load(Relaxed) {
        return Err(Error::failed_with(130, "interrupted; the figures measured so far are shown"));
    }
    Ok(())
}

/// `--dir`, else `$TMPDIR`, else /tmp: it must be a directory no other user can swap.
fn scratch_parent(dir: Option<PathBuf>) -> Result<PathBuf> {
    let parent =
        dir.or_else(|| std::env::var_os("TMPDIR").map(PathBuf::from)).unwrap_or_else(|| "/tmp".into());
    if !parent.is_dir() {
        return Err(Error::usage(format!("--dir: '{}' is not a directory", parent.display())));
    }
    // The scratch files are reached by path: another user must not be able to swap them.
    if let Some(why) = sys::dir::swappable(&parent) {
        return Err(Error::usage(format!("--dir: {why}, so its scratch files could be swapped")));
    }
    Ok(parent)
}

/// The private scratch directory under `parent` and the small file the stat figures use.
fn make_scratch(parent: &std::path::Path) -> Result<(Scratch, PathBuf)> {
    let dir = sys::fd::mkdtemp(parent.join("lmbench-XXXXXX").as_os_str()).map_err(|e| {
        Error::failed(format!("cannot make a scratch directory in '{}': {e}", parent.display()))
    })?;
    let scratch = Scratch(dir.clone());
    let small_file = dir.join("statfile");
    sys::fd::open_file(&small_file, sys::fd::Open::Create(0o644))
        .and_then(|mut f| std::io::Write::write_all(&mut f, b"lmb"))
        .map_err(|e| Error::failed(format!("cannot write a scratch file: {e}")))?;
    Ok((scratch, small_file))
}

/// The harness and the sizes of the mode `opts` asks for (its `--only` list taken), nothing
/// measured yet.
fn session(
    opts: &mut Opts,
    caches: &[(u32, usize)],
    main: usize,
    dir: PathBuf,
    small_file: PathBuf,
) -> Session {
    let (enough, tries) = if opts.short { (5_000.0, 3) } else { (100_000.0, 11) };
    Session {
        h: Harness { floors: !opts.short, ..Harness::new(enough, tries) },
        dir,
        me: crate::selfexe::path().ok(),
        points: memory::points(caches, main),
        mb: if opts.short { 8 << 20 } else { main },
        data_file: None,
        small_file,
        res: HostResults { short: opts.short, ..host_results() },
        verbose: sys::fd::isatty(2),
        only: opts.only.take(),
        out_of_memory: None,
    }
}

/// Without reported cache sizes, the memory latencies may be a cache's: their notes say so.
fn note_no_cache_sizes(run: &mut Session, main: usize) {
    let why = format!(
        "measured at {} MiB, lmbench's default: this system reports no cache sizes, so this may be a \
         cache's latency",
        main >> 20
    );
    for key in ["lat_mem", "lat_mem_rand"] {
        if run.res.figures.contains_key(key) {
            run.res.note(key, why.clone());
        }
    }
}

/// The table on stdout, then the JSON file if asked for.
fn print_results(opts: &Opts, run: &Session, json_out: Option<std::fs::File>) -> Result {
    show(std::slice::from_ref(&run.res))?;
    if let Some((mut f, j)) = json_out.zip(opts.json.as_ref()) {
        // Through the descriptor checked at the start: the path is never opened again.
        let text = to_json(&run.res, &run.h, &run.points, run.mb);
        f.set_len(0)
            .and_then(|()| f.write_all(text.as_bytes()))
            .map_err(|e| Error::failed(format!("--json: cannot write '{}': {e}", j.display())))?;
    }
    Ok(())
}

/// The interval floor lmbench gives a figure's program (bench.h's SHORT or MEDIUM), if any.
fn floor(how: How) -> f64 {
    match how {
        How::LatPipe | How::LatUdp => SHORT,
        How::LatTcp | How::BwPipe | How::BwUnix => MEDIUM,
        _ => 0.0,
    }
}

/// The seconds of a figure's timed intervals: its samples times its interval.
fn intervals(h: &Harness, f: &Figure) -> f64 {
    let h = h.at_least(floor(f.how));
    h.tries as f64 * h.enough / 1e6
}

/// What lmbench says on stderr as it goes: the whole at the start, then each section as it
/// begins, with the time left. Figures take longer than their timed intervals (calibration,
/// setup, buffers), by a factor the run so far measures; before any figure, only the intervals
/// are known, and the start says so.
struct Progress {
    /// The number of sections selected, and of those begun (figures come section by section).
    sections: usize,
    begun_sections: usize,
    /// The sum of the selected figures' intervals, and of those begun.
    total: f64,
    begun: f64,
    /// The section being measured, and when the run started.
    current: Option<Section>,
    start: f64,
    h: Harness,
}

impl Progress {
    fn new(run: &Session) -> Progress {
        let mut p = Progress {
            sections: 0,
            begun_sections: 0,
            total: 0.0,
            begun: 0.0,
            current: None,
            start: 0.0,
            h: run.h,
        };
        // One pass: the table lists each section's figures together, in the sections' order.
        let (mut chosen, mut last) = (0, None);
        for f in figures::FIGURES {
            if run.selected(f) {
                chosen += 1;
                p.total += intervals(&run.h, f);
                if last != Some(f.section) {
                    last = Some(f.section);
                    p.sections += 1;
                }
            }
        }
        let mode = if run.res.short { " (the short mode)" } else { "" };
        note(format_args!(
            "{chosen} figures in {} sections{mode}; their timed intervals alone take {}, the whole longer \
             (setup, calibration): each section's line says about how long is left",
            p.sections,
            crate::fmt::duration(p.total)
        ));
        p.start = sys::clock::monotonic();
        p
    }

    /// Figure `f` is next: a line when it begins a section.
    fn figure(&mut self, f: &Figure) {
        if self.current != Some(f.section) {
            self.current = Some(f.section);
            self.begun_sections += 1;
            let spent = sys::clock::monotonic() - self.start;
            let left = if self.begun > 0.0 {
                format!(
                    ", about {} left",
                    crate::fmt::duration(spent / self.begun * (self.total - self.begun))
                )
            } else {
                String::new()
            };
            note(format_args!(
                "[{}/{}] {}: {}{left}",
                self.begun_sections,
                self.sections,
                f.section.name(),
                f.section.about()
            ));
        }
        self.begun += intervals(&self.h, f);
    }
}

/// One line on stderr, `lmbench: <msg>`.
fn note(msg: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr(), "lmbench: {msg}");
}

/// Measures every selected figure in the table's order, saying each section as it begins.
fn measure_figures(run: &mut Session) {
    let mut joint = Joint::default();
    let mut progress = Progress::new(run);
    for f in figures::FIGURES {
        if run.selected(f) && !INTERRUPTED.load(Relaxed) {
            progress.figure(f);
        }
        if run.to_measure(f) {
            let r = how(run, &mut joint, f);
            run.record(f.key, r);
        }
    }
}

/// What several figures share, measured once for all of them: lat_ctx's ring overhead per
/// working-set size, lat_fs's create and delete rates per file size, and the sweep of sizes
/// that finds L1 and L2 where the system reports no cache sizes.
#[derive(Default)]
struct Joint {
    ctx_overhead: Shared<f64>,
    fs: Shared<(f64, f64)>,
    sweep: Option<std::result::Result<(f64, f64), String>>,
}

/// Results by size (KB): a value, or why there is none.
type Shared<T> = Vec<(usize, std::result::Result<T, String>)>;

/// The shared result for `at`, measured by `f` the first time.
fn shared<T: Copy>(
    cache: &mut Shared<T>,
    at: usize,
    f: impl FnOnce() -> std::io::Result<T>,
) -> std::io::Result<T> {
    if let Some((_, r)) = cache.iter().find(|c| c.0 == at) {
        return r.clone().map_err(std::io::Error::other);
    }
    let r = f();
    if !INTERRUPTED.load(Relaxed) {
        cache.push((at, r.as_ref().map(|v| *v).map_err(|e| e.to_string())));
    }
    r
}

/// Measures one figure as its table entry says.
fn how(r: &mut Session, j: &mut Joint, f: &Figure) -> std::io::Result<f64> {
    // Each figure's harness, with its program's floor (most have none, and it is unchanged).
    let h = &r.h.at_least(floor(f.how));
    let (p, mb) = (r.points, r.mb);
    match f.how {
        How::Mhz => memory::mhz(h),
        How::NullCall => procs::null_call(h),
        How::NullIo => procs::null_io(h),
        How::Stat => procs::stat(h, &r.small_file),
        How::OpenClose => procs::open_close(h, &r.small_file),
        How::SelectTcp => procs::select_tcp(h),
        How::SigInstall => procs::sig_install(h),
        How::SigCatch => procs::sig_catch(h),
        How::ForkExit => procs::fork_exit(h),
        How::ForkExec | How::ForkShell => {
            let me = &r.me()?;
            if f.how == How::ForkExec {
                procs::fork_exec(h, me)
            } else {
                procs::fork_shell(h, me)
            }
        }
        How::Ctx { kb, procs } => ctx_figure(r, j, kb, procs),
        How::LatPipe => ipc::lat_pipe(h),
        How::LatUnix => ipc::lat_unix(h),
        How::LatUdp => ipc::lat_udp(h),
        How::LatTcp => ipc::lat_tcp(h),
        How::LatConnect => ipc::lat_connect(h),
        How::FsCreate(kb) | How::FsDelete(kb) => {
            let kb = usize::from(kb);
            let (create, delete) = shared(&mut j.fs, kb, || vm::fs_create_delete(h, &r.dir, kb * 1024))?;
            Ok(if matches!(f.how, How::FsCreate(_)) { create } else { delete })
        }
        How::Mmap | How::PageFault | How::BwReread | How::BwMmap => {
            let file = &r.data_file()?;
            match f.how {
                How::Mmap => vm::lat_mmap(h, file, mb),
                How::PageFault => vm::lat_pagefault(h, file),
                How::BwReread => vm::bw_file_reread(h, file, mb),
                _ => vm::bw_mmap_reread(h, file, mb),
            }
        }
        How::ProtFault => prot_fault(r),
        How::SelectFile => procs::select_file(h, &r.small_file),
        How::BwPipe => ipc::bw_pipe(h),
        How::BwUnix => ipc::bw_unix(h),
        How::BwTcp => ipc::bw_tcp(h),
        // lmbench runs the copies at half its largest size and the rest at the largest.
        How::BcopyLibc => memory::bcopy_libc(h, mb / 2),
        How::BcopyHand => memory::bcopy_hand(h, mb / 2),
        How::MemRead => memory::read(h, mb),
        How::MemWrite => memory::write(h, mb),
        How::LatL1 => cache_latency(r, j, true),
        How::LatL2 => cache_latency(r, j, false),
        How::LatMem => memory::load_latency(h, p.main, memory::STRIDE),
        How::LatMemRand => memory::random_latency(h, p.main),
    }
}

/// One `lat_ctx -s KB N...` run: the ring overhead for the largest N, then each N.
fn ctx_figure(r: &mut Session, j: &mut Joint, kb: u8, procs: u8) -> std::io::Result<f64> {
    let mut max = procs;
    for f in figures::FIGURES {
        if let How::Ctx { kb: k, procs: n } = f.how {
            if k == kb {
                max = max.max(n);
            }
        }
    }
    let (kb, max, procs) = (usize::from(kb), usize::from(max), usize::from(procs));
    let ovr = shared(&mut j.ctx_overhead, kb, || ctx::overhead(&r.h, max, kb))
        .map_err(|e| std::io::Error::other(format!("the ring overhead: {e}")))?;
    ctx::ctx(&r.h, procs, kb, ovr)
}

/// lat_sig prot, less the signal catch figure (measured now if the table has none yet).
fn prot_fault(r: &Session) -> std::io::Result<f64> {
    let catch = match r.res.figures.get("lat_sigcatch") {
        Some(c) => *c,
        None => procs::sig_catch(&r.h)?,
    };
    procs::prot_fault(&r.h, catch)
}

/// The L1 (`l1`) or L2 load latency.
fn cache_latency(r: &mut Session, j: &mut Joint, l1: bool) -> std::io::Result<f64> {
    let p = r.points;
    if !p.from_caches {
        // Without reported sizes, the sweep finds both levels; should it fail, the fixed
        // points below are the last resort.
        let sweep = j.sweep.get_or_insert_with(|| match memory::sweep(&r.h, p.main) {
            Ok((l1, l2, l2_size)) => {
                r.points.l1 = 2048;
                r.points.l2 = l2_size;
                Ok((l1, l2))
            }
            Err(e) => Err(e.to_string()),
        });
        if let Ok((a, b)) = sweep {
            return Ok(if l1 { *a } else { *b });
        }
    }
    memory::load_latency(&r.h, if l1 { p.l1 } else { p.l2 }, memory::STRIDE)
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

    /// `--quick` and `--save`, the names `--short` and `--json` once had, still parse; neither
    /// help nor the table's visible names offer them.
    #[test]
    fn old_names_parse_and_are_not_offered() {
        let o = parse(os(&["--quick", "--save", "x.json"])).unwrap();
        assert!(o.short);
        assert_eq!(o.json, Some(PathBuf::from("x.json")));
        assert!(parse(os(&["--hello"])).unwrap().hello);
        let h = help();
        for old in ["--quick", "--save", "--hello"] {
            assert!(!h.contains(old), "{old}");
            assert!(COMMAND.specs().iter().all(|s| !s.words().iter().any(|w| w == old)), "{old}");
        }
        assert!(
            h.contains("\n  -s, --short     the shortest mode")
                && h.contains("\n  --json FILE     also write")
        );
        let e = parse(os(&["--sav"])).unwrap_err().to_string();
        assert!(e.starts_with("unknown option '--sav'") && !e.contains("--save"), "{e}");
    }

    #[test]
    fn json_round_trip() {
        let mut res = host_results();
        res.figures.insert("lat_syscall".into(), 0.116);
        res.notes.insert("lat_udp_local".into(), "not measured: \"refused\"".into());
        let run = Session { res: res.clone(), ..selecting(None) };
        let text = to_json(&run.res, &run.h, &run.points, run.mb);
        assert!(text.starts_with("{\n  \"schema\": \"unixbench-lmbench\",\n  \"schema_version\": 1,"));
        assert_eq!(from_json(&text).unwrap(), res);
        assert!(from_json("{\"schema\": \"other\"}").is_err());
        assert!(from_json("{\"schema\": \"unixbench-lmbench\", \"schema_version\": 2}").is_err());
    }

    /// A run that measures nothing, selecting as `--only LIST` would.
    fn selecting(only: Option<&[&str]>) -> Session {
        Session {
            h: Harness { enough: 1.0, tries: 1, t_overhead: 0.0, l_overhead: 0.0, floors: false },
            dir: PathBuf::from("/nonexistent"),
            me: None,
            points: memory::points(&[], 8 << 20),
            mb: 8 << 20,
            data_file: None,
            small_file: PathBuf::new(),
            res: host_results(),
            verbose: false,
            only: only.map(|l| l.iter().map(|s| s.to_string()).collect()),
            out_of_memory: None,
        }
    }

    #[test]
    fn every_figure_is_measured_by_its_section() {
        // The measuring loop measures what `selected` picks: for `--only SECTION`, the
        // section's figures (those the help lists under it), and nothing else.
        for s in figures::Section::ALL {
            let r = selecting(Some(&[s.name()]));
            let picked: Vec<&str> =
                figures::FIGURES.iter().filter(|f| r.selected(f)).map(|f| f.key).collect();
            let own: Vec<&str> = figures::of(s).map(|f| f.key).collect();
            assert_eq!(picked, own, "--only {}", s.name());
            assert!(!own.is_empty());
        }
        let r = selecting(Some(&["lat_pipe", "bw_pipe"]));
        let picked: Vec<&str> = figures::FIGURES.iter().filter(|f| r.selected(f)).map(|f| f.key).collect();
        assert_eq!(picked, ["lat_pipe", "bw_pipe"]);
        assert!(figures::FIGURES.iter().all(|f| selecting(None).selected(f)));
    }
}
