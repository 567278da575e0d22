//! One pass: N copies of a kernel started together, each a fork + exec of this binary with
//! argv[0] = the applet name (never an in-process call: the exec boundary is what keeps the
//! applets and the old Perl driver interchangeable). Each copy runs in its own process group
//! with cwd = the work directory, entered by descriptor (`fchdir`), stdin from /dev/null (or the test's input file), stdout
//! appended to the .log and stderr into a pipe that the driver reads.
//!
//! The start barrier, as lmbench's `benchmp` starts its parallel copies: every copy is forked
//! and set up, then blocks reading the gate pipe, between fork and exec; once all are ready
//! the driver closes the gate's write end and every copy execs at once. So hundreds of copies
//! measure the same interval rather than the first running alone while the last is forked;
//! the kernels see nothing of it (the protocol is unchanged). Each copy writes the time it
//! passed the gate to the stamps pipe, whence the pass's start skew. A copy's elapsed time runs
//! from the release until its stderr reaches EOF.
//!
//! Waiting is one poll loop over every copy's stderr plus the signal self-pipe, with a
//! watchdog: a signal, or a pass past its limit (`WATCHDOG_FACTOR` times its planned time plus a
//! margin), gets every copy's process group SIGTERM and SIGCONT, then SIGKILL, and every copy is
//! reaped before this returns; the overrun pass fails with the reason (a copy stopped, and by
//! which signal, or how long no copy said anything). No copy or grandchild outlives the pass.

use super::signals::Watch;
use crate::model::CopyOutcome;
use crate::outcome::Said;
use crate::sys::{self, dir::Dir, fd::Fd, proc::Fork};
use std::ffi::{CString, OsStr, OsString};
use std::fmt::Write as _;
use std::io;
use std::os::unix::io::RawFd;
use std::path::{Path, PathBuf};

/// What a test runs, as the schedule prepares it once for all its passes.
pub struct Prepared<'w> {
    /// argv, argv[0] being the applet name.
    pub argv: Vec<OsString>,
    /// The working directory, held by descriptor.
    pub cwd: &'w Dir,
    /// Whether each copy runs in a directory of its own, `copy-<n>` in `cwd`, made before the
    /// pass and removed whole after it (both through descriptors): a kernel's scratch files
    /// (fstime's `-d .`) are then its own, and none outlives its copy, even one that had to be
    /// killed.
    pub own_dirs: bool,
    /// The seconds a pass is planned to last when the program's own differ from what the run's
    /// policy gives the test (a C UnixBench program's fixed durations), for the watchdog.
    pub planned: Option<f64>,
}

/// How each copy is started beyond its argv: under a wrapper command, with its environment
/// changed (an arm of `unixbench ab`). The default starts the program as it is, in the driver's
/// environment.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// A command the copy runs under (`--a-wrap`): the wrapper's path, found before the run,
    /// then its words (its own name first).
    pub wrap: Option<(PathBuf, Vec<OsString>)>,
    /// Variables set (Some) or removed (None) in the copies' environment alone.
    pub env: Vec<(OsString, Option<OsString>)>,
    /// The program is argv[0], a path (a C UnixBench program, as C's Run execs it), not the
    /// command's `exe`.
    pub argv0_is_program: bool,
}

impl Launch {
    /// The program as it is, in the driver's environment.
    pub const NONE: Launch = Launch { wrap: None, env: Vec::new(), argv0_is_program: false };

    /// The program a copy runs: argv[0] or `exe`.
    fn target<'a>(&self, exe: &'a Path, argv: &'a [OsString]) -> &'a Path {
        match argv.first() {
            Some(p) if self.argv0_is_program => Path::new(p),
            _ => exe,
        }
    }

    /// What is exec'd: the wrapper, else the program.
    fn program<'a>(&'a self, exe: &'a Path, argv: &'a [OsString]) -> &'a Path {
        self.wrap.as_ref().map_or_else(|| self.target(exe, argv), |(w, _)| w.as_path())
    }

    /// The copy's argv for a program `exe` prepared as `argv`: under a wrapper its words, then
    /// the program by path and its arguments (an applet of a unixbench binary is then its
    /// first argument, `unixbench pipe 10`, as argv[0] can no longer name it).
    pub fn argv(&self, exe: &Path, argv: &[OsString]) -> Vec<OsString> {
        let Some((_, words)) = &self.wrap else { return argv.to_vec() };
        let mut v = words.clone();
        if !self.argv0_is_program {
            v.push(exe.as_os_str().to_os_string());
        }
        v.extend(argv.iter().cloned());
        v
    }

    /// The copies' environment as `NAME=value` words, when it differs from the driver's.
    fn environment(&self) -> io::Result<Option<sys::proc::Argv>> {
        if self.env.is_empty() {
            return Ok(None);
        }
        // The driver's variables the launch leaves alone, then those it sets.
        let kept = std::env::vars_os().filter(|(k, _)| !self.env.iter().any(|(n, _)| n == k));
        let set = self.env.iter().filter_map(|(k, v)| Some((k.clone(), v.clone()?)));
        let mut words = Vec::new();
        for (mut w, v) in kept.chain(set) {
            w.push("=");
            w.push(v);
            words.push(w);
        }
        sys::proc::Argv::new(words).map(Some)
    }
}

/// [`Launch::NONE`], to lend.
pub static AS_IT_IS: Launch = Launch::NONE;

/// What to start for each copy in one pass: the test as prepared, and what the pass adds.
pub struct Command<'a> {
    /// The program: this binary, or an arm's.
    pub exe: &'a Path,
    pub launch: &'a Launch,
    pub test: &'a Prepared<'a>,
    /// Where stdout goes (the .log, opened for append), or /dev/null when None.
    pub stdout: Option<RawFd>,
    /// The pass's planned seconds (its nominal duration), whence the watchdog's limit.
    pub planned: f64,
    /// Whether the test is slow by nature ([`slow_by_nature`]): its margin is longer.
    pub slow: bool,
}

/// The watchdog: a pass may run [`WATCHDOG_FACTOR`] times its planned time plus a margin
/// (`UB_WATCHDOG_MARGIN`, [`WATCHDOG_MARGIN`] seconds unless set; [`WATCHDOG_SLOW`] times that
/// for the tests slow by nature) before its copies are killed and the test fails with the
/// reason. A copy stopped and continued within that time is no failure.
pub const WATCHDOG_FACTOR: f64 = 3.0;
/// The watchdog's margin unless `UB_WATCHDOG_MARGIN` sets it, in seconds.
pub const WATCHDOG_MARGIN: f64 = 120.0;
/// How many margins the tests slow by nature get.
pub const WATCHDOG_SLOW: f64 = 3.0;

/// The tests whose passes run long past their nominal time on a busy host: the shell and host
/// tests (many processes, a compiler) and those with a phase outside their timed one (fstime's
/// priming, whetstone's calibration: `overhead`).
pub fn slow_by_nature(t: &crate::suite::Test) -> bool {
    matches!(t.kind, crate::suite::Kind::Host { .. }) || t.overhead > 0
}

impl Command<'_> {
    /// The watchdog's limit for a pass of this command, in seconds.
    fn limit(&self, margin: f64) -> f64 {
        WATCHDOG_FACTOR * self.planned + margin * if self.slow { WATCHDOG_SLOW } else { 1.0 }
    }
}

/// How a pass ended.
pub enum Outcome {
    /// Every copy ran to the end (each may still carry an error).
    Done(Vec<CopyOutcome>),
    /// A signal arrived (`signals::caught` says which); the copies were killed.
    Interrupted,
}

/// One running copy: its process, its stderr pipe and what it has printed so far.
struct CopyProcess {
    pid: i32,
    stderr: Option<Fd>,
    elapsed: Option<f64>,
    /// When it passed the gate (monotonic seconds), from its stamp.
    started: Option<f64>,
    /// What it has said on stderr so far.
    said: Said,
    /// When it last wrote to stderr (or was started), monotonic seconds.
    heard: f64,
    /// The signal that stopped it and since when, while it is stopped.
    stopped: Option<(i32, f64)>,
}

/// What every copy's child does between fork and exec.
struct Child<'a> {
    exe: &'a CString,
    env: Option<&'a sys::proc::Argv>,
    stdin: RawFd,
    stdout: RawFd,
    failed_exec: &'a [u8],
    /// The gate pipe: read end, write end (which each child closes at once).
    gate: (RawFd, RawFd),
    /// The write end of the stamps pipe.
    stamps: RawFd,
}

/// A stamp: the copy's index (u32) and the monotonic time it passed the gate (f64 bits), in
/// native byte order. Smaller than PIPE_BUF, so concurrent writes never interleave.
const STAMP: usize = 12;

/// Open files the driver needs besides one per copy (its stderr pipe): its own (std streams,
/// the log, the signal pipe) and the pass's gate and stamps pipes, with room to spare.
const FD_RESERVE: u64 = 64;

/// Makes room for `copies` stderr pipes under RLIMIT_NOFILE: raises the soft limit toward the
/// hard one when needed, and otherwise says how many copies the limits allow.
fn room_for(copies: usize) -> io::Result<()> {
    let need = copies as u64 + FD_RESERVE;
    let Ok((soft, hard)) = sys::proc::get_rlimit(sys::proc::RLIMIT_NOFILE) else { return Ok(()) };
    if soft >= need || (hard >= need && sys::proc::set_rlimit(sys::proc::RLIMIT_NOFILE, need, hard).is_ok()) {
        return Ok(());
    }
    Err(io::Error::other(format!(
        "{copies} copies need {need} open files, but the limit is {hard} (ulimit -Hn): the limits \
         allow at most {} copies",
        hard.saturating_sub(FD_RESERVE)
    )))
}

/// Every limit a pass of `copies` copies can hit, checked before the first copy's directory is
/// made: open files (raising the soft limit if it must), processes, and the inodes of the
/// copies' directories.
fn check_limits(cmd: &Command, copies: usize) -> io::Result<()> {
    room_for(copies)?;
    if let Ok((soft, _)) = sys::proc::get_rlimit(sys::proc::RLIMIT_NPROC) {
        if copies as u64 >= soft {
            return Err(io::Error::other(format!(
                "{copies} copies need as many processes, but the process limit is {soft} (ulimit -u)"
            )));
        }
    }
    let free = if cmd.test.own_dirs { sys::fd::free_inodes(cmd.test.cwd.path().as_os_str()) } else { None };
    match free {
        Some(free) if (copies as u64) > free => Err(io::Error::other(format!(
            "{copies} copies need a directory each in {}, but its file system has {free} inodes free",
            cmd.test.cwd.path().display()
        ))),
        _ => Ok(()),
    }
}

/// Stdin for copies that read nothing: /dev/null, or, where a bare chroot has no /dev, the read
/// end of an empty pipe whose write end is closed (reads see EOF at once, as from /dev/null).
fn null_input() -> io::Result<Fd> {
    match sys::fd::open(OsStr::new("/dev/null"), libc::O_RDONLY, 0) {
        Ok(fd) => Ok(fd),
        Err(_) => sys::fd::pipe_cloexec().map(|(r, _w)| r),
    }
}

/// Stdout for copies whose output is not kept: /dev/null, or, without /dev, an already
/// unlinked file in `scratch` (a pipe would need a reader, and a closed one raises SIGPIPE).
fn null_output(scratch: &Dir) -> io::Result<Fd> {
    if let Ok(fd) = sys::fd::open(OsStr::new("/dev/null"), libc::O_WRONLY, 0) {
        return Ok(fd);
    }
    let name = OsString::from(format!(".unixbench-discard-{}", sys::proc::getpid()));
    let f = scratch.create(&name, 0o600)?;
    let _ = scratch.unlink(&name);
    Ok(Fd::from_raw(std::os::unix::io::IntoRawFd::into_raw_fd(f)))
}

/// Runs one pass of `copies` copies of `cmd`, its watchdog's margin `margin` seconds.
pub fn run_pass(cmd: &Command, copies: usize, watch: &Watch, margin: f64) -> io::Result<Outcome> {
    check_limits(cmd, copies)?;
    let mut dirs = CopyDirs::make(cmd, copies)?;
    let outcome = run_in(cmd, copies, watch, &dirs, cmd.limit(margin))?;
    // A directory that cannot go would be in the next pass's way: the test fails, saying so.
    dirs.remove()?;
    Ok(outcome)
}

/// The copies' argv, and the directories made for the pass in `parent` (removed on drop).
struct CopyDirs<'a> {
    parent: &'a Dir,
    argv: sys::proc::Argv,
    made: Vec<OsString>,
}

impl<'a> CopyDirs<'a> {
    fn make(cmd: &Command<'a>, copies: usize) -> io::Result<CopyDirs<'a>> {
        let argv = sys::proc::Argv::new(cmd.launch.argv(cmd.exe, &cmd.test.argv))?;
        let mut d = CopyDirs { parent: cmd.test.cwd, argv, made: Vec::new() };
        if !cmd.test.own_dirs {
            return Ok(d);
        }
        for i in 1..=copies {
            let name = OsString::from(format!("copy-{i}"));
            cmd.test.cwd.make_private(&name).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot make the directory of copy {i}, {e}"))
            })?;
            d.made.push(name);
        }
        Ok(d)
    }

    /// Copy `copy`'s argv and working directory: its own, opened (and checked) for its fork
    /// and closed after it, so that a pass holds no descriptor per copy; else `parent`.
    fn of(&self, copy: usize) -> io::Result<(Option<Dir>, &sys::proc::Argv)> {
        let own = self.made.get(copy).map(|name| self.parent.open_private_at(name)).transpose()?;
        Ok((own, &self.argv))
    }

    /// Removes the copies' directories whole, every one it can; the first that cannot go is
    /// the error.
    fn remove(&mut self) -> io::Result<()> {
        let mut first = Ok(());
        for name in std::mem::take(&mut self.made) {
            if let Err(e) = self.parent.remove_all(&name) {
                if first.is_ok() {
                    first =
                        Err(io::Error::new(e.kind(), format!("cannot remove the directory of a copy, {e}")));
                }
            }
        }
        first
    }
}

impl Drop for CopyDirs<'_> {
    /// On the way out of a pass that failed: what can go, goes.
    fn drop(&mut self) {
        for name in &self.made {
            let _ = self.parent.remove_all(name);
        }
    }
}

/// The pass proper: the copies' stdio, their start, the wait with its watchdog (`limit`
/// seconds), the outcomes.
fn run_in(cmd: &Command, copies: usize, watch: &Watch, dirs: &CopyDirs, limit: f64) -> io::Result<Outcome> {
    let io = Stdio::open(cmd)?;
    let (running, stamps, started) = start(&io, copies, dirs)?;
    let mut w = Waiting {
        running,
        stamps,
        started,
        limit,
        killed_at: None,
        interrupted: false,
        overdue: None,
        looked: started,
    };
    let waited = w.wait(watch);
    if waited.is_err() {
        // The wait itself failed: no copy is waited for to its end.
        kill_all(&w.running, libc::SIGKILL);
    }
    w.drain_stamps();
    let statuses = reap(&mut w.running);
    waited?;
    if w.interrupted {
        return Ok(Outcome::Interrupted);
    }
    Ok(Outcome::Done(w.outcomes(statuses)))
}

/// The copies' program, stdin (/dev/null) and stdout, opened once for the pass.
struct Stdio {
    exe: CString,
    /// The copies' environment, when not the driver's.
    env: Option<sys::proc::Argv>,
    stdin: Fd,
    /// The descriptor `stdout` names when the output is discarded, held open for the pass.
    _discard: Option<Fd>,
    stdout: RawFd,
    failed_exec: Vec<u8>,
}

impl Stdio {
    fn open(cmd: &Command) -> io::Result<Stdio> {
        let program = cmd.launch.program(cmd.exe, &cmd.test.argv);
        let exe = CString::new(program.as_os_str().as_encoded_bytes())
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "program path holds a NUL byte"))?;
        let env = cmd.launch.environment()?;
        let stdin = null_input()?;
        let discard = if cmd.stdout.is_none() { Some(null_output(cmd.test.cwd)?) } else { None };
        let stdout = cmd.stdout.or(discard.as_ref().map(Fd::raw)).unwrap_or(1);
        let failed_exec = format!("unixbench: cannot execute {}: errno ", program.display()).into_bytes();
        Ok(Stdio { exe, env, stdin, _discard: discard, stdout, failed_exec })
    }
}

/// Forks every copy, each held at the gate, then releases them all at once. Returns the
/// copies, the stamps pipe's read end and the release time; a copy that cannot be forked ends
/// the ones started, and the error says why.
fn start(io: &Stdio, copies: usize, dirs: &CopyDirs) -> io::Result<(Vec<CopyProcess>, Option<Fd>, f64)> {
    let (gate_rd, gate_wr) = sys::fd::pipe_cloexec()?;
    let (stamps_rd, stamps_wr) = sys::fd::pipe_cloexec()?;
    let child = Child {
        exe: &io.exe,
        env: io.env.as_ref(),
        stdin: io.stdin.raw(),
        stdout: io.stdout,
        failed_exec: &io.failed_exec,
        gate: (gate_rd.raw(), gate_wr.raw()),
        stamps: stamps_wr.raw(),
    };
    let mut running: Vec<CopyProcess> = Vec::with_capacity(copies);
    for i in 0..copies {
        let spawned = dirs.of(i).and_then(|(own, argv)| {
            spawn(&child, i as u32, (own.as_ref().map_or(dirs.parent.raw(), Dir::raw), argv))
        });
        match spawned {
            Ok(c) => running.push(c),
            Err(e) => {
                kill_all(&running, libc::SIGKILL);
                reap(&mut running);
                return Err(cannot_start(e, i, copies));
            }
        }
    }
    drop((gate_rd, stamps_wr));
    // The release: with the gate's last write end closed, every copy's read returns.
    let started = sys::clock::monotonic();
    drop(gate_wr);
    running.iter_mut().for_each(|c| c.heard = started);
    Ok((running, Some(stamps_rd), started))
}

/// Why copy `i` could not start; fork's EAGAIN is most often the process limit: it is named.
fn cannot_start(e: io::Error, i: usize, copies: usize) -> io::Error {
    let limit = match sys::proc::get_rlimit(sys::proc::RLIMIT_NPROC) {
        Ok((soft, _)) if e.raw_os_error() == Some(libc::EAGAIN) => {
            format!("; the process limit is {soft} (ulimit -u)")
        }
        _ => String::new(),
    };
    io::Error::new(e.kind(), format!("cannot start copy {} of {copies}: {e}{limit}", i + 1))
}

/// The wait for a pass's copies: until every copy's stderr reaches EOF, a signal arrives, or
/// the watchdog's limit passes.
struct Waiting {
    running: Vec<CopyProcess>,
    stamps: Option<Fd>,
    started: f64,
    limit: f64,
    killed_at: Option<f64>,
    interrupted: bool,
    /// The watchdog's reason, once it fired.
    overdue: Option<String>,
    /// When the copies' stops were last looked at.
    looked: f64,
}

/// How often, at most, a running pass looks at its copies' stops, in milliseconds.
const LOOK_MS: i32 = 1000;

impl Waiting {
    /// The poll loop over every copy's stderr, the stamps pipe and the signal pipe.
    fn wait(&mut self, watch: &Watch) -> io::Result<()> {
        let mut buf = vec![0u8; STAMP * 680];
        // The copies whose stderr is open; the poll set is rebuilt only when one closes.
        let mut open: Vec<usize> = Vec::new();
        let mut fds: Vec<sys::fd::PollFd> = Vec::with_capacity(self.running.len() + 2);
        let mut dirty = true;
        loop {
            if dirty {
                self.poll_set(&mut open, &mut fds, watch);
                dirty = false;
            }
            if open.is_empty() {
                return Ok(());
            }
            let timeout = self.watchdog(watch);
            fds.iter_mut().for_each(|f| f.revents = 0);
            match sys::fd::poll(&mut fds, timeout) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
            dirty = self.read_ready(&open, &fds, &mut buf);
            self.look_at_stops();
        }
    }

    /// The poll entries: each open stderr, then the stamps pipe's while open, then the signals'.
    fn poll_set(&self, open: &mut Vec<usize>, fds: &mut Vec<sys::fd::PollFd>, watch: &Watch) {
        open.clear();
        fds.clear();
        for (i, c) in self.running.iter().enumerate() {
            if let Some(e) = &c.stderr {
                open.push(i);
                fds.push(sys::fd::poll_in(e.raw()));
            }
        }
        if let Some(s) = &self.stamps {
            fds.push(sys::fd::poll_in(s.raw()));
        }
        fds.push(sys::fd::poll_in(watch.fd()));
    }

    /// A signal or the watchdog's limit ends the pass: SIGTERM (with SIGCONT, for a stopped
    /// copy), then SIGKILL 3 s on for copies that ignore it (or whose grandchildren keep stderr
    /// open). Returns how long the next poll may wait.
    fn watchdog(&mut self, watch: &Watch) -> i32 {
        let now = sys::clock::monotonic();
        if self.killed_at.is_none() {
            self.interrupted = watch.caught().is_some();
            if self.interrupted {
                self.terminate(now);
            } else if now - self.started > self.limit {
                self.overdue = Some(self.reason(now));
                self.terminate(now);
            }
        }
        match self.killed_at {
            Some(t) if now - t >= 3.0 => {
                kill_all(&self.running, libc::SIGKILL);
                500
            }
            Some(t) => ((3.0 - (now - t)) * 1000.0).ceil() as i32,
            None => ((self.limit - (now - self.started)) * 1000.0).ceil().clamp(1.0, LOOK_MS as f64) as i32,
        }
    }

    fn terminate(&mut self, now: f64) {
        kill_all(&self.running, libc::SIGTERM);
        kill_all(&self.running, libc::SIGCONT);
        self.killed_at = Some(now);
    }

    /// Why the pass overran: the first copy still running that is stopped (and since when),
    /// else the one silent longest.
    fn reason(&self, now: f64) -> String {
        let mut quiet = 0.0f64;
        for (i, c) in self.running.iter().enumerate().filter(|(_, c)| c.stderr.is_some()) {
            if let Some((sig, since)) = c.stopped {
                let name = sys::proc::stop_signal_name(sig);
                return format!("copy {} stopped ({name}) for {:.0} s", i + 1, now - since);
            }
            quiet = quiet.max(now - c.heard);
        }
        format!("no output for {quiet:.0} s")
    }

    /// Reads each ready stderr (EOF: the copy's elapsed time) and the stamps. Returns whether a
    /// pipe closed, so that the poll set must be rebuilt.
    fn read_ready(&mut self, open: &[usize], fds: &[sys::fd::PollFd], buf: &mut [u8]) -> bool {
        let mut closed = false;
        for (&i, fd) in open.iter().zip(fds) {
            if fd.revents == 0 {
                continue;
            }
            let c = &mut self.running[i];
            match sys::fd::read(c.stderr.as_ref().unwrap().raw(), buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(0) | Err(_) => {
                    c.elapsed = Some(sys::clock::monotonic() - self.started);
                    c.stderr = None;
                    closed = true;
                }
                Ok(n) => {
                    c.said.take(&buf[..n]);
                    c.heard = sys::clock::monotonic();
                }
            }
        }
        if self.stamps.is_some() && fds[open.len()].revents != 0 {
            closed |= self.read_stamps(buf) == Some(true);
        }
        closed
    }

    /// One read of the stamps pipe (stamps are written whole and read in whole multiples of
    /// their size): Some(true) at its end (it is closed then), Some(false) after stamps, None
    /// when interrupted or the pipe is gone.
    fn read_stamps(&mut self, buf: &mut [u8]) -> Option<bool> {
        let n = match sys::fd::read(self.stamps.as_ref()?.raw(), buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return None,
            Ok(n) if n > 0 => n,
            _ => {
                self.stamps = None;
                return Some(true);
            }
        };
        take_stamps(&buf[..n], &mut self.running);
        Some(false)
    }

    /// Notes each running copy's stops and continues (the copy, not its children: those show as
    /// silence), once a second at most: a pass of many copies ending wakes the loop once per
    /// copy, and the copies still measuring must not pay a look at every other each time.
    fn look_at_stops(&mut self) {
        let now = sys::clock::monotonic();
        if now - self.looked < f64::from(LOOK_MS) / 1000.0 {
            return;
        }
        self.looked = now;
        for c in self.running.iter_mut().filter(|c| c.stderr.is_some()) {
            while let Ok(Some(change)) = sys::proc::stop_change(c.pid) {
                c.stopped = match change {
                    sys::proc::StopChange::Stopped(sig) => Some(c.stopped.unwrap_or((sig, now))),
                    sys::proc::StopChange::Continued => None,
                };
            }
        }
    }

    /// The last copies' stamps may still be unread. Every copy has exec'd or exited by now (its
    /// stderr reached EOF), so every write end is closed: this read ends at EOF, never blocks.
    fn drain_stamps(&mut self) {
        let mut buf = vec![0u8; STAMP * 680];
        while self.stamps.is_some() {
            self.read_stamps(&mut buf);
        }
    }

    /// Each copy's outcome, read from its stderr and exit status; an overrun pass fails every
    /// copy with the watchdog's reason.
    fn outcomes(self, statuses: Vec<i32>) -> Vec<CopyOutcome> {
        let overdue = self
            .overdue
            .as_ref()
            .map(|why| format!("{why}: did not finish within {:.0} s, so every copy was killed", self.limit));
        self.running
            .into_iter()
            .zip(statuses)
            .map(|(c, status)| {
                let mut o = c.said.finish(c.elapsed.unwrap_or(0.0), status, c.pid);
                o.error = o.error.map(|e| explain_errno(&e));
                o.started = c.started.map(|t| t - self.started);
                if let Some(msg) = &overdue {
                    o.error = Some(msg.clone());
                }
                o
            })
            .collect()
    }
}

/// Records the start of each copy whose stamp is in `bytes` (whole stamps).
fn take_stamps(bytes: &[u8], running: &mut [CopyProcess]) {
    for rec in bytes.chunks_exact(STAMP) {
        let i = u32::from_ne_bytes(rec[..4].try_into().unwrap()) as usize;
        let t = f64::from_bits(u64::from_ne_bytes(rec[4..].try_into().unwrap()));
        if let Some(c) = running.get_mut(i) {
            c.started = Some(t);
        }
    }
}

/// Forks copy `index`: set up, then held at the gate until the release, then exec'd.
fn spawn(child: &Child, index: u32, (cwd, argv): (RawFd, &sys::proc::Argv)) -> io::Result<CopyProcess> {
    let (err_rd, err_wr) = sys::fd::pipe_cloexec()?;
    let driver = sys::proc::getpid();
    match sys::proc::fork()? {
        Fork::Child => {
            // Only async-signal-safe calls from here to exec: no allocation (the unit tests
            // fork from a threaded process).
            let _ = sys::proc::setpgid(0, 0);
            if !sys::proc::die_with_parent(driver) {
                sys::proc::exit_now(127);
            }
            // The driver ignores SIGXFSZ; an ignored signal stays ignored across exec.
            let _ = sys::signal::default(libc::SIGXFSZ);
            let ok = sys::fd::dup2(err_wr.raw(), 2).is_ok()
                && sys::fd::dup2(child.stdin, 0).is_ok()
                && sys::fd::dup2(child.stdout, 1).is_ok();
            if ok {
                if let Err(e) = sys::dir::fchdir(cwd) {
                    report_child_error(b"unixbench: cannot enter the work directory: errno ", e);
                    sys::proc::exit_now(127);
                }
                // The gate: EOF once the driver, and every other copy, closed its write end.
                let _ = sys::fd::close(child.gate.1);
                let mut b = [0u8; 1];
                while let Err(e) = sys::fd::read(child.gate.0, &mut b) {
                    if e.kind() != io::ErrorKind::Interrupted {
                        break;
                    }
                }
                let mut stamp = [0u8; STAMP];
                stamp[..4].copy_from_slice(&index.to_ne_bytes());
                stamp[4..].copy_from_slice(&sys::clock::monotonic().to_bits().to_ne_bytes());
                let _ = sys::fd::write_all(child.stamps, &stamp);
                let e = match child.env {
                    Some(env) => sys::proc::execve(child.exe, argv, env),
                    None => sys::proc::execv(child.exe, argv),
                };
                report_child_error(child.failed_exec, e);
            }
            sys::proc::exit_now(127)
        }
        Fork::Parent(pid) => {
            // Also from the parent, so the group exists before any kill(-pid) (either may win).
            let _ = sys::proc::setpgid(pid, pid);
            drop(err_wr);
            Ok(CopyProcess {
                pid,
                stderr: Some(err_rd),
                elapsed: None,
                started: None,
                said: Said::default(),
                heard: 0.0,
                stopped: None,
            })
        }
    }
}

/// The child writes `errno N` (it may not allocate); the parent spells it out.
fn explain_errno(text: &str) -> String {
    let mut out = String::new();
    for (i, l) in text.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let errno = l.strip_prefix("unixbench: ").and_then(|_| l.rsplit_once(": errno "));
        match errno.and_then(|(head, n)| Some((head, n.parse::<i32>().ok()?))) {
            Some((head, n)) => {
                let _ = write!(out, "{head}: {}", io::Error::from_raw_os_error(n));
            }
            None => out.push_str(l),
        }
    }
    out
}

/// `<prefix><errno>\n` on stderr, formatted without allocating.
fn report_child_error(prefix: &[u8], e: io::Error) {
    let mut digits = [0u8; 12];
    let mut n = e.raw_os_error().unwrap_or(0).unsigned_abs();
    let mut at = digits.len() - 1;
    digits[at] = b'\n';
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let _ = sys::fd::write_all(2, prefix);
    let _ = sys::fd::write_all(2, &digits[at..]);
}

fn kill_all(copies: &[CopyProcess], sig: i32) {
    for c in copies {
        let _ = sys::proc::kill(-c.pid, sig);
    }
}

/// Waits for every copy, kills whatever is left in its process group (a looper's in-flight
/// child, a background job of a shell script), then reaps it. The copy stays a zombie until the
/// group is killed, so the group's id cannot have been reused by then. Returns the raw wait
/// statuses.
fn reap(copies: &mut [CopyProcess]) -> Vec<i32> {
    let statuses = copies
        .iter()
        .map(|c| {
            let _ = sys::proc::wait_exited_keep(c.pid);
            let _ = sys::proc::kill(-c.pid, libc::SIGKILL);
            sys::proc::waitpid(c.pid).map(|(_, s)| s).unwrap_or(-1)
        })
        .collect();
    // SIGKILL is delivered asynchronously: wait until the groups are empty (signal 0 finds no
    // one), so that no straggler writes into the work directory after the pass returns. A
    // killed grandchild (context1's partner, spawn's last child) stays in its group as a zombie
    // until reaped: the driver is their subreaper (`driver::main`), so it reaps them here,
    // instead of waiting for an init that may reap orphans only every few seconds.
    let end = sys::clock::monotonic() + 5.0;
    for c in copies.iter() {
        loop {
            sys::proc::reap_group_nohang(c.pid);
            if sys::proc::kill(-c.pid, 0).is_err() || sys::clock::monotonic() >= end {
                break;
            }
            let _ = sys::fd::poll(&mut [], 5);
        }
    }
    statuses
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `/`, held open for the tests' lifetime.
    fn root() -> &'static Dir {
        Box::leak(Box::new(Dir::open(Path::new("/")).unwrap()))
    }

    fn sh(script: &str) -> Vec<OsString> {
        ["sh", "-c", script].iter().map(OsString::from).collect()
    }

    fn run(argv: &[OsString], copies: usize, margin: f64) -> Vec<CopyOutcome> {
        let watch = Watch::install().unwrap();
        let test = Prepared { argv: argv.to_vec(), cwd: root(), own_dirs: false, planned: None };
        let cmd = Command {
            exe: Path::new("/bin/sh"),
            launch: &AS_IT_IS,
            test: &test,
            stdout: None,
            planned: 0.0,
            slow: false,
        };
        match run_pass(&cmd, copies, &watch, margin).unwrap() {
            Outcome::Done(o) => o,
            Outcome::Interrupted => panic!("interrupted"),
        }
    }

    #[test]
    fn copies_run_together_and_report_on_stderr() {
        let t0 = sys::clock::monotonic();
        let o = run(&sh("sleep 1; echo 'COUNT|5|1|lps' >&2; echo 'TIME|0.5' >&2"), 3, 60.0);
        let took = sys::clock::monotonic() - t0;
        assert_eq!(o.len(), 3);
        // Together: the pass took less than its copies' times added up, as one after another
        // would. A relation, not a bound, so a loaded machine cannot fail it.
        let serial: f64 = o.iter().map(|c| c.elapsed).sum();
        assert!(took < serial, "the copies ran one after another: {took} s, {serial} s added up");
        for c in &o {
            assert_eq!((c.count, c.time, c.error.as_deref()), (Some(5.0), Some(0.5), None));
            assert!(c.elapsed >= 1.0, "{}", c.elapsed);
            assert!(c.pid > 0);
            // Every copy passed the gate, and none before the release (after the last fork).
            assert!(c.started.is_some_and(|s| s >= 0.0), "{:?}", c.started);
        }
    }

    #[test]
    fn a_launch_wraps_the_copies_and_changes_their_environment_alone() {
        let watch = Watch::install().unwrap();
        // argv[0] is the program's path, as a C program's is: the wrapper runs it as it is.
        let script = "echo \"COUNT|$AB_TEST_X|1|${HOME:-none}\" >&2";
        let argv = ["/bin/sh", "-c", script].map(OsString::from).to_vec();
        let test = Prepared { argv, cwd: root(), own_dirs: false, planned: None };
        let launch = Launch {
            // `env` runs the rest of its words: the program by path, then its arguments.
            wrap: Some((PathBuf::from("/usr/bin/env"), vec!["env".into(), "AB_TEST_Y=1".into()])),
            env: vec![("AB_TEST_X".into(), Some("7".into())), ("HOME".into(), None)],
            argv0_is_program: true,
        };
        let wrapped = launch.argv(Path::new("/bin/sh"), &test.argv);
        assert_eq!(wrapped[..4], ["env", "AB_TEST_Y=1", "/bin/sh", "-c"].map(OsString::from));
        // An applet of a unixbench binary is named by its first argument under a wrapper.
        let launch = Launch { argv0_is_program: false, ..launch };
        let applet = launch.argv(Path::new("/bin/ub"), &["pipe".into(), "10".into()]);
        assert_eq!(applet, ["env", "AB_TEST_Y=1", "/bin/ub", "pipe", "10"].map(OsString::from));
        let launch = Launch { argv0_is_program: true, ..launch };
        let cmd = Command {
            exe: Path::new("/nonexistent"),
            launch: &launch,
            test: &test,
            stdout: None,
            planned: 0.0,
            slow: false,
        };
        let Outcome::Done(o) = run_pass(&cmd, 1, &watch, 60.0).unwrap() else { panic!() };
        assert_eq!(o[0].count, Some(7.0), "{o:?}");
        assert_eq!(o[0].label.as_deref(), Some("none"), "{o:?}");
        assert!(std::env::var_os("AB_TEST_X").is_none());
    }

    #[test]
    fn every_copy_of_many_reports_its_start() {
        let o = run(&sh("echo 'COUNT|1|1|lps' >&2"), 40, 60.0);
        assert_eq!(o.len(), 40);
        assert!(o.iter().all(|c| c.error.is_none() && c.started.is_some_and(|s| s >= 0.0)), "{o:?}");
        let pass = crate::score::combine_copies(o);
        assert!(pass.start_skew().is_some_and(|s| s >= 0.0));
    }

    #[test]
    fn a_failed_exec_is_spelled_out() {
        let watch = Watch::install().unwrap();
        let test = Prepared { argv: sh("true"), cwd: root(), own_dirs: false, planned: None };
        let cmd = Command {
            exe: Path::new("/nonexistent/unixbench"),
            launch: &AS_IT_IS,
            test: &test,
            stdout: None,
            planned: 0.0,
            slow: false,
        };
        let Outcome::Done(o) = run_pass(&cmd, 1, &watch, 60.0).unwrap() else { panic!() };
        assert_eq!(
            o[0].error.as_deref(),
            Some("unixbench: cannot execute /nonexistent/unixbench: No such file or directory (os error 2)")
        );
    }

    #[test]
    fn stray_stderr_and_exit_status_are_errors() {
        let o = run(&sh("echo 'COUNT|5|1|lps' >&2; echo oops >&2; exit 3"), 1, 60.0);
        assert_eq!(o[0].error.as_deref(), Some("oops"));
        assert_eq!(sys::proc::exited(o[0].status), Some(3));
    }

    #[test]
    fn an_overdue_pass_is_killed_with_its_grandchildren() {
        // The background sleep holds the stderr pipe too: it must be killed, not waited for.
        let t0 = sys::clock::monotonic();
        let o = run(&sh("sleep 30 & sleep 30"), 1, 0.5);
        assert!(sys::clock::monotonic() - t0 < 30.0, "the sleeps were waited for");
        assert!(o[0].error.as_deref().unwrap().contains("did not finish within"), "{:?}", o[0].error);
    }

    #[test]
    fn the_watchdog_names_a_stopped_copy_and_spares_one_continued_in_time() {
        let o = run(&sh("kill -STOP $$; echo 'COUNT|1|1|lps' >&2"), 1, 1.5);
        let e = o[0].error.as_deref().unwrap();
        assert!(e.starts_with("copy 1 stopped (SIGSTOP) for "), "{e}");
        assert!(e.contains("did not finish within 2 s"), "{e}");
        let o = run(&sh("(sleep 0.3; kill -CONT $$) & kill -STOP $$; echo 'COUNT|1|1|lps' >&2"), 1, 30.0);
        assert_eq!(o[0].error, None);
        let o = run(&sh("sleep 30"), 1, 1.0);
        let e = o[0].error.as_deref().unwrap();
        assert!(e.starts_with("no output for ") && e.contains(" s: did not finish within 1 s"), "{e}");
    }

    #[test]
    fn the_tests_slow_by_nature_get_three_margins() {
        let slow = |n: &str| slow_by_nature(crate::suite::test(n).unwrap());
        assert!(slow("shell1") && slow("C") && slow("fsbuffer") && slow("whetstone-double"));
        assert!(!slow("dhry2reg") && !slow("syscall") && !slow("pipe"));
        let test = Prepared { argv: sh("true"), cwd: root(), own_dirs: false, planned: None };
        let cmd = |slow| Command {
            exe: Path::new("/bin/sh"),
            launch: &AS_IT_IS,
            test: &test,
            stdout: None,
            planned: 10.0,
            slow,
        };
        assert_eq!(cmd(false).limit(120.0), 150.0);
        assert_eq!(cmd(true).limit(120.0), 390.0);
    }

    #[test]
    fn each_copy_works_in_its_own_directory_which_goes_with_it() {
        let watch = Watch::install().unwrap();
        let work = std::env::temp_dir().join(format!("ub-own-dirs-{}", sys::proc::getpid()));
        std::fs::create_dir(&work).unwrap();
        // Each copy leaves a file behind, and the second is killed with it still open.
        let held = Dir::open(&work).unwrap();
        let argv = sh("echo x > scratch; pwd >&2; echo 'COUNT|1|1|lps' >&2");
        let test = Prepared { argv, cwd: &held, own_dirs: true, planned: None };
        let cmd = Command {
            exe: Path::new("/bin/sh"),
            launch: &AS_IT_IS,
            test: &test,
            stdout: None,
            planned: 0.0,
            slow: false,
        };
        let Outcome::Done(o) = run_pass(&cmd, 2, &watch, 60.0).unwrap() else { panic!() };
        let dirs: Vec<&str> = o.iter().map(|c| c.error.as_deref().unwrap()).collect();
        let own = |n: u32| work.join(format!("copy-{n}")).to_str().unwrap().to_string();
        assert_eq!(dirs, [own(1), own(2)]);
        let killed = Prepared { argv: sh("echo x > scratch; sleep 30"), ..test };
        let cmd = Command { test: &killed, ..cmd };
        let Outcome::Done(o) = run_pass(&cmd, 2, &watch, 0.5).unwrap() else { panic!() };
        assert!(o[0].error.as_deref().unwrap().contains("did not finish within"));
        assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0, "no copy's directory is left");
        std::fs::remove_dir(&work).unwrap();
    }
}
