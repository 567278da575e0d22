//! `fstime [-c|-r|-w] [-b BUFSIZE] [-m MAX_BLOCKS] [-t SECONDS] [-d DIR] [-s SETTLE]`: port of
//! UnixBench 6.0's `fstime.c`, the File Write / Read / Copy tests (fstime, fsbuffer, fsdisk
//! variants).
//!
//! As C: two files `dummy0-<pid>` (f) and `dummy1-<pid>` (g) in DIR, made with mode 0600 and
//! reopened read-write; a buffer of BUFSIZE bytes holding `i & 0xff`; a file of MAX_BLOCKS KiB
//! (MAX_BLOCKS*1024/BUFSIZE buffers). Phases: `-w` writes for SECONDS; `-r` writes for 2 s, then
//! reads for SECONDS; `-c` (the default) writes 2 s, reads 2 s, then copies f to g for SECONDS.
//! Each phase first settles (sync, sleep 2, sync, sleep 2; the copy phase sleeps 1 the second
//! time), then runs until SIGALRM sets a flag (restartable calls, as glibc `signal()`), and
//! prints `Write done: N in S, score K` (Read/Copy) on stdout and `COUNT|K|0|KBps`, `TIME|S`
//! on stderr. Counting is C's, in 256-byte units: a full buffer counts BUFSIZE/256; the write
//! phase checks the flag only between whole file passes; reads tell EOF from errors by errno
//! (0 or EINVAL: rewind); an interrupted transfer gets fractional credit, in the copy phase
//! weighted by write_score/(read_score+write_score) from the priming phases. Score = counted /
//! (seconds * 4), truncated: KiB per second.
//!
//! Deviations (docs/FIDELITY.md): options are parsed strictly, and every bad one, an unknown
//! option or a missing value is one line and exit 2 (C: `atoi`, exit 2 for usage but 3 for a
//! range, and a misleading 256-1048576 buffer-size range in its message). A -1 return counts as
//! 0 bytes (C adds the unsigned wrap of -1, which only matters in the copy phase's EINTR branch
//! and cannot occur with restartable calls on files). Faults clean up: both files are removed on
//! any error, on SIGHUP/SIGINT/SIGQUIT/SIGTERM (the handler unlinks them, says so on stderr and
//! dies of the signal), and SIGXFSZ is ignored so that exceeding RLIMIT_FSIZE is a `File too
//! large` write error instead of a core dump. A directory that cannot be entered or written is
//! reported with its name (one that does not exist is a bad argument, exit 2). C's
//! `signal(SIGKILL, ...)` is dropped: SIGKILL cannot be caught. The files are created
//! `O_EXCL|O_NOFOLLOW` and read-write at once (C: `creat`, then `open`): a file or planted link
//! of either name in a shared directory is an error, never followed or truncated. Two
//! different mode flags (`-w -r`) are refused (C: the last wins). No arguments at all is refused
//! too (C: its defaults, about 25 s of writing, reading and copying in the current
//! directory): a program run by hand without a word should not quietly fill the directory it
//! was started in; the error says how the test of that name runs through the driver.
//!
//! Under `UB_SEMANTICS=5.1.3` the files are 5.1.3's `dummy0` and `dummy1`, which every copy
//! in DIR opens and truncates and all of them read and write at once
//! (docs/ORIGINAL.md, "5.1.3 semantics"); they must be regular files of this user, and are
//! never followed as links.
//!
//! Ours: `-s SETTLE` (seconds, fractions allowed, 0.01 to 60; default 2, which is C's program
//! exactly) replaces the 2 of the settles (`sync; sleep S; sync; sleep S`, the copy phase's last
//! sleep S/2) and the length of the `-r`/`-c` priming phases, so that `unixbench --quick` can
//! make file-test passes of a few seconds instead of ~16 s. Run and the standard driver never
//! pass it.

use crate::args;
use crate::error::{Error, Result};
use crate::kernels::reason;
use crate::protocol;
use crate::sys::{self, clock, fd, proc, signal};
use crate::timing;
use base::version::Semantics;
use std::ffi::{CString, OsString};
use std::io::{self, Write};
use std::os::unix::io::RawFd;
use std::sync::OnceLock;

const USAGE: &str = "usage: fstime [-c|-r|-w] [-b BUFSIZE] [-m MAX_BLOCKS] [-t SECONDS] [-d DIR] [-s SETTLE]";
/// C's settle pauses and priming phases, in seconds: the default of `-s`.
const SETTLE: f64 = base::suite::FSTIME_SETTLE;
const MAX_BUFSIZE: usize = 8192;
/// The counting unit, bytes (C's COUNTSIZE).
const COUNTSIZE: u64 = 256;
const HALFCOUNT: u64 = COUNTSIZE / 2;
/// Counting units per KiB (C's count_per_k).
const COUNT_PER_K: f64 = 4.0;

/// Which test runs last (and is therefore the one Run scores).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Test {
    Write,
    Read,
    Copy,
}

/// The command line.
#[derive(Debug, PartialEq)]
struct Options {
    test: Test,
    /// Bytes per read/write call, 256..=8192.
    bufsize: usize,
    /// File size in KiB, 1..=1048576.
    max_blocks: u64,
    /// Duration of the measured phase, 1..=3600 s.
    seconds: u32,
    /// Directories to enter, in order, before making the two files (C chdirs at each `-d`).
    dirs: Vec<OsString>,
    /// Seconds of each settle pause and of each priming phase (`-s`, ours), 0.01..=60.
    settle: f64,
}

fn parse(args: &[OsString]) -> Result<Options> {
    use lexopt::Arg::{Long, Short, Value};
    let mut o = Options {
        test: Test::Copy,
        bufsize: 1024,
        max_blocks: 2000,
        seconds: 10,
        dirs: Vec::new(),
        settle: SETTLE,
    };
    if args.len() < 2 {
        // C's defaults would write in the current directory for 25 s, unasked.
        return Err(Error::usage(format!(
            "no arguments: name the phase, the time and the directory as Run does (fstime -c -t 30 -d DIR); {USAGE}"
        )));
    }
    let mut p = lexopt::Parser::from_args(args.iter().skip(1).cloned());
    let mut mode: Option<char> = None;
    while let Some(arg) = p.next()? {
        if let Short(m @ ('c' | 'r' | 'w')) = arg {
            // C lets the last one win; two different modes are a mistake to say, not guess.
            match mode {
                Some(prev) if prev != m => {
                    return Err(Error::usage(format!("-{prev} and -{m} exclude each other: {USAGE}")))
                }
                _ => mode = Some(m),
            }
        }
        match arg {
            Short('c') => o.test = Test::Copy,
            Short('r') => o.test = Test::Read,
            Short('w') => o.test = Test::Write,
            Short('b') => o.bufsize = args::parse_uint("buffer size (-b)", &p.value()?, 256, 8192)? as usize,
            Short('m') => o.max_blocks = args::parse_uint("max blocks (-m)", &p.value()?, 1, 1 << 20)?,
            Short('t') => o.seconds = args::parse_uint("seconds (-t)", &p.value()?, 1, 3600)? as u32,
            Short('d') => o.dirs.push(p.value()?),
            Short('s') => o.settle = args::parse_seconds("settle (-s)", &p.value()?, 0.01, 60.0)?,
            Short(c) => return Err(Error::usage(format!("unknown option '-{c}': {USAGE}"))),
            Long(l) => return Err(Error::usage(format!("unknown option '--{l}': {USAGE}"))),
            Value(v) => {
                return Err(Error::usage(format!("unexpected argument '{}': {USAGE}", v.to_string_lossy())))
            }
        }
    }
    Ok(o)
}

/// The two file names, as C strings, for the signal handlers. Set before the files exist.
static FILES: OnceLock<[CString; 2]> = OnceLock::new();

/// Unlinks both files. Async-signal-safe: an atomic load and two `unlink` calls.
fn remove_files() {
    if let Some(files) = FILES.get() {
        for f in files {
            fd::unlink_c(f);
        }
    }
}

/// SIGHUP, SIGINT, SIGQUIT, SIGTERM: remove the files, say so, then die of the signal so the
/// parent sees how we ended (the signal is blocked in its handler and fires on return).
extern "C" fn on_fatal(sig: libc::c_int) {
    remove_files();
    let msg: &[u8] = match sig {
        libc::SIGHUP => b"fstime: hangup (SIGHUP); test files removed\n",
        libc::SIGINT => b"fstime: interrupted (SIGINT); test files removed\n",
        libc::SIGQUIT => b"fstime: quit (SIGQUIT); test files removed\n",
        _ => b"fstime: terminated (SIGTERM); test files removed\n",
    };
    let _ = fd::write_all(2, msg);
    let _ = signal::default(sig);
    signal::raise(sig);
}

pub fn main(args: Vec<OsString>) -> Result {
    let o = parse(&args)?;
    for d in &o.dirs {
        // A directory that is not there is a bad argument (exit 2), as any other.
        fd::chdir(d).map_err(|e| {
            let msg = format!("cannot use directory (-d) {}: {}", args::quoted(d), reason(&e));
            if matches!(e.raw_os_error(), Some(libc::ENOENT | libc::ENOTDIR)) {
                Error::usage(msg)
            } else {
                Error::failed(msg)
            }
        })?;
    }
    let semantics = Semantics::of_applet();
    let names = file_names(semantics);
    // Created O_EXCL|O_NOFOLLOW (a shared -d directory may hold a planted link of that name:
    // it is refused, never followed), before the handlers that remove them are armed, so that
    // only files of our own are ever removed. 5.1.3's copies share theirs.
    let files = match semantics {
        Semantics::V6 => create_files(&names)?,
        Semantics::V513 => open_shared(&names)?,
    };
    let c = |s: &String| CString::new(s.as_bytes()).expect("no NUL in a file name");
    let _ = FILES.set([c(&names[0]), c(&names[1])]);
    for sig in [libc::SIGHUP, libc::SIGINT, libc::SIGQUIT, libc::SIGTERM] {
        if let Err(e) = signal::on_signal(sig, on_fatal) {
            remove_files();
            return Err(Error::failed(format!("sigaction: {}", reason(&e))));
        }
    }
    let _ = signal::ignore(libc::SIGXFSZ);
    let result = run(&o, &files);
    remove_files();
    result
}

/// The two files' names: 6.0's are this process's own (`dummy0-<pid>`); 5.1.3's every copy
/// in the directory shares (docs/ORIGINAL.md, "5.1.3 semantics").
fn file_names(semantics: Semantics) -> [String; 2] {
    match semantics {
        Semantics::V6 => {
            let pid = proc::getpid();
            [format!("dummy0-{pid}"), format!("dummy1-{pid}")]
        }
        Semantics::V513 => ["dummy0".into(), "dummy1".into()],
    }
}

/// 5.1.3's files, shared by every copy in the directory: opened or created, truncated as C's
/// `creat` truncates them, and only when they are regular files of this user (never a link).
/// When the second cannot be, the first is removed, as every copy removes both at its end.
fn open_shared(names: &[String; 2]) -> Result<[fd::Fd; 2]> {
    use std::os::unix::io::IntoRawFd;
    let open = |n: &String| {
        fd::open_file(n.as_ref(), fd::Open::Shared(0o600))
            .and_then(|f| f.set_len(0).map(|()| fd::Fd::from_raw(f.into_raw_fd())))
            .map_err(|e| Error::failed(format!("cannot open the shared file {}", reason(&e))))
    };
    let f = open(&names[0])?;
    match open(&names[1]) {
        Ok(g) => Ok([f, g]),
        Err(e) => {
            let _ = std::fs::remove_file(&names[0]);
            Err(e)
        }
    }
}

/// Creates the two files, read-write, mode 0600 (C: `creat` then `open(O_RDWR)`), refusing a
/// name that exists. On a failure the one already made is removed.
fn create_files(names: &[String; 2]) -> Result<[fd::Fd; 2]> {
    let dir = || std::env::current_dir().map(|p| p.display().to_string()).unwrap_or_else(|_| ".".to_string());
    let create = |n: &String| {
        let flags = libc::O_RDWR | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW;
        fd::open(n.as_ref(), flags, 0o600)
            .map_err(|e| Error::failed(format!("cannot create {n} in {}: {}", dir(), reason(&e))))
    };
    let f = create(&names[0])?;
    match create(&names[1]) {
        Ok(g) => Ok([f, g]),
        Err(e) => {
            let _ = std::fs::remove_file(&names[0]);
            Err(e)
        }
    }
}

/// A buffer aligned as C's static array is (gcc aligns large arrays), so copies to and from the
/// page cache take the same path.
#[repr(C, align(64))]
struct Buf([u8; MAX_BUFSIZE]);

fn run(o: &Options, files: &[fd::Fd; 2]) -> Result {
    let mut buf = Buf([0; MAX_BUFSIZE]);
    for (i, b) in buf.0.iter_mut().enumerate().take(o.bufsize) {
        *b = (i & 0xff) as u8;
    }
    let mut p = Phases {
        f: files[0].raw(),
        g: files[1].raw(),
        buf: &mut buf.0[..o.bufsize],
        max_buffs: o.max_blocks * 1024 / o.bufsize as u64,
        count_per_buf: o.bufsize as u64 / COUNTSIZE,
        read_score: 1,
        write_score: 1,
        settle: o.settle,
    };
    let (prime, secs) = (o.settle, f64::from(o.seconds));
    match o.test {
        Test::Write => p.write(secs),
        Test::Read => p.write(prime).and_then(|()| p.read(secs)),
        Test::Copy => p.write(prime).and_then(|()| p.read(prime)).and_then(|()| p.copy(secs)),
    }
}

/// The state the C program keeps in globals.
struct Phases<'a> {
    f: RawFd,
    g: RawFd,
    buf: &'a mut [u8],
    max_buffs: u64,
    count_per_buf: u64,
    read_score: i64,
    write_score: i64,
    /// Seconds of a settle pause (`-s`).
    settle: f64,
}

/// sync, sleep `first`, sync, sleep `last` (C: 2 and 2, or 2 and 1 before the copy): let the
/// previous phase's dirty pages reach the disk.
fn settle(first: f64, last: f64) {
    fd::sync();
    pause(first);
    fd::sync();
    pause(last);
}

/// C's `sleep(n)`, to the nanosecond so that `-s` may be a fraction (musl's `sleep` is this
/// same `nanosleep`).
fn pause(secs: f64) {
    std::thread::sleep(std::time::Duration::from_secs_f64(secs));
}

/// Bytes a call transferred, for fractional credit: a -1 return counts as nothing.
fn got(ret: isize) -> u64 {
    ret.max(0) as u64
}

/// The error for a failed or short transfer, with C's perror wording `<op>: <reason>`.
fn io_error(op: &str, ret: isize, want: usize) -> Error {
    if ret < 0 {
        Error::failed(format!("{op}: {}", reason(&io::Error::last_os_error())))
    } else {
        Error::failed(format!("{op}: only {ret} of {want} bytes transferred (is the file system full?)"))
    }
}

/// Prints a phase's result lines and returns its score.
fn finish(what: &str, counted: u64, start: f64, end: f64) -> i64 {
    let secs = end - start;
    let score = (counted as f64 / (secs * COUNT_PER_K)) as i64;
    let _ = writeln!(io::stdout(), "{what} done: {counted} in {secs:.4}, score {score}");
    protocol::emit(&protocol::count(score.max(0) as u64, 0, "KBps"));
    protocol::emit(&protocol::time(secs, 1));
    score
}

impl Phases<'_> {
    fn write(&mut self, secs: f64) -> Result {
        let want = self.buf.len();
        let mut counted: u64 = 0;
        settle(self.settle, self.settle);
        timing::flag_after(secs);
        let start = clock::gettimeofday();
        while !timing::stopped() {
            for _ in 0..self.max_buffs {
                let ret = fd::write_raw(self.f, self.buf);
                if ret != want as isize {
                    if sys::errno() != libc::EINTR {
                        return Err(io_error("write", ret, want));
                    }
                    timing::stop();
                    counted += (got(ret) + HALFCOUNT) / COUNTSIZE;
                } else {
                    counted += self.count_per_buf;
                }
            }
            let _ = fd::seek_set(self.f, 0);
        }
        let end = clock::gettimeofday();
        self.write_score = finish("Write", counted, start, end);
        Ok(())
    }

    fn read(&mut self, secs: f64) -> Result {
        let want = self.buf.len();
        let mut counted: u64 = 0;
        settle(self.settle, self.settle);
        sys::set_errno(0);
        let _ = fd::seek_set(self.f, 0);
        timing::flag_after(secs);
        let start = clock::gettimeofday();
        while !timing::stopped() {
            let ret = fd::read_raw(self.f, self.buf);
            if ret != want as isize {
                match sys::errno() {
                    0 | libc::EINVAL => {
                        let _ = fd::seek_set(self.f, 0);
                        counted += (got(ret) + HALFCOUNT) / COUNTSIZE;
                    }
                    libc::EINTR => {
                        timing::stop();
                        counted += (got(ret) + HALFCOUNT) / COUNTSIZE;
                    }
                    _ => return Err(io_error("read", ret, want)),
                }
            } else {
                counted += self.count_per_buf;
            }
        }
        let end = clock::gettimeofday();
        self.read_score = finish("Read", counted, start, end);
        Ok(())
    }

    fn copy(&mut self, secs: f64) -> Result {
        let want = self.buf.len();
        let (ws, rs) = (self.write_score.max(0) as u64, self.read_score.max(0) as u64);
        // C divides by read_score + write_score, both at least 1 unless a priming phase scored 0.
        let weigh = |bytes: u64| bytes.wrapping_mul(ws).checked_div(rs + ws).unwrap_or(0);
        let mut counted: u64 = 0;
        settle(self.settle, self.settle / 2.0);
        sys::set_errno(0);
        let _ = fd::seek_set(self.f, 0);
        timing::flag_after(secs);
        let start = clock::gettimeofday();
        while !timing::stopped() {
            let ret = fd::read_raw(self.f, self.buf);
            if ret != want as isize {
                match sys::errno() {
                    0 | libc::EINVAL => {
                        let _ = fd::seek_set(self.f, 0);
                        let _ = fd::seek_set(self.g, 0);
                        continue;
                    }
                    libc::EINTR => {
                        counted += (weigh(got(ret)) + HALFCOUNT) / COUNTSIZE;
                        timing::stop();
                    }
                    _ => return Err(io_error("copy read", ret, want)),
                }
            } else {
                let ret = fd::write_raw(self.g, self.buf);
                if ret != want as isize {
                    if sys::errno() != libc::EINTR {
                        return Err(io_error("copy write", ret, want));
                    }
                    let done = got(ret);
                    counted += (done + weigh(want as u64 - done) + HALFCOUNT) / COUNTSIZE;
                    timing::stop();
                } else {
                    counted += self.count_per_buf;
                }
            }
        }
        let end = clock::gettimeofday();
        finish("Copy", counted, start, end);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        std::iter::once("fstime").chain(v.iter().copied()).map(OsString::from).collect()
    }

    #[test]
    fn defaults_are_cs_but_no_argument_at_all_is_refused() {
        let e = parse(&os(&[])).unwrap_err();
        assert!(e.message().is_some_and(|m| m.starts_with("no arguments: ")), "{e:?}");
        let o = parse(&os(&["-c"])).unwrap();
        assert_eq!(
            o,
            Options {
                test: Test::Copy,
                bufsize: 1024,
                max_blocks: 2000,
                seconds: 10,
                dirs: vec![],
                settle: 2.0
            }
        );
    }

    #[test]
    fn options_as_run_passes_them() {
        let o = parse(&os(&["-r", "-t", "30", "-d", "/x y", "-b", "4096", "-m", "8000"])).unwrap();
        assert_eq!(o.test, Test::Read);
        assert_eq!((o.bufsize, o.max_blocks, o.seconds), (4096, 8000, 30));
        assert_eq!(o.dirs, [OsString::from("/x y")]);
        assert_eq!(parse(&os(&["-d", "a", "-d", "b"])).unwrap().dirs, ["a", "b"]);
        assert_eq!(parse(&os(&["-w", "-b256"])).unwrap().bufsize, 256);
        // C lets the last mode flag win; two different ones are refused, the same twice is fine.
        let e = parse(&os(&["-w", "-c"])).unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().starts_with("-w and -c exclude each other"), "{e}");
        assert_eq!(parse(&os(&["-w", "-w"])).unwrap().test, Test::Write);
        assert_eq!(parse(&os(&["-m", "1048576", "-t", "3600"])).unwrap().max_blocks, 1 << 20);
    }

    #[test]
    fn settle_is_ours_and_may_be_a_fraction() {
        assert_eq!(parse(&os(&["-c", "-t", "2", "-s", "0.25"])).unwrap().settle, 0.25);
        assert_eq!(parse(&os(&["-s1"])).unwrap().settle, 1.0);
        assert_eq!(parse(&os(&["-s", "60"])).unwrap().settle, 60.0);
        assert_eq!(parse(&os(&["-w"])).unwrap().settle, 2.0, "C's settle without -s");
    }

    #[test]
    fn bad_options_name_the_option_and_the_range() {
        for (args, needle) in [
            (&["-b", "100"][..], "256 to 8192"),
            (&["-b", "8193"], "-b"),
            (&["-m", "0"], "1 to 1048576"),
            (&["-m", "1048577"], "-m"),
            (&["-t", "0"], "1 to 3600"),
            (&["-t", "4000"], "-t"),
            (&["-t", "-5"], "-t"),
            (&["-t", "ten"], "-t"),
            (&["-x"], "unknown option '-x'"),
            (&["--fast"], "unknown option '--fast'"),
            (&["-t"], "-t"),
            (&["-d"], "-d"),
            (&["oops"], "unexpected argument 'oops'"),
            (&["-s", "0"], "invalid settle (-s) '0'"),
            (&["-s", "-1"], "0.01 to 60"),
            (&["-s", "soon"], "-s"),
            (&["-s", "61"], "-s"),
            (&["-s", "nan"], "-s"),
            (&["-s"], "-s"),
        ] {
            let e = parse(&os(args)).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{args:?}");
            let msg = e.to_string();
            assert!(msg.contains(needle), "{args:?}: {msg}");
            assert!(!msg.contains('\n'), "{args:?}: {msg}");
        }
    }
}
