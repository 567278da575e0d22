//! One pass: N copies of a kernel started together, each a fork + exec of this binary with
//! argv[0] = the applet name (never an in-process call: the exec boundary is what keeps the
//! applets and the old Perl driver interchangeable). Each copy runs in its own process group
//! with cwd = the work directory, stdin from /dev/null (or the test's input file), stdout
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
//! Waiting is one poll loop over every copy's stderr plus the signal self-pipe, with a deadline:
//! a signal or an overdue copy gets every copy's process group SIGTERM, then SIGKILL, and every
//! copy is reaped before this returns. No copy or grandchild outlives the pass.

use super::signals::Watch;
use crate::model::CopyOutcome;
use crate::sys::{self, fd::Fd, proc::Fork};
use std::ffi::{CString, OsStr, OsString};
use std::io;
use std::os::unix::io::RawFd;
use std::path::Path;

/// What to start for each copy.
pub struct Command<'a> {
    /// This binary.
    pub exe: &'a Path,
    /// argv, argv[0] being the applet name.
    pub argv: &'a [OsString],
    /// The working directory.
    pub cwd: &'a Path,
    /// Whether each copy runs in a directory of its own, `copy-<n>` in `cwd`, made before the
    /// pass and removed whole after it, and an argv word that names `cwd` names that directory
    /// instead (fstime's `-d`): a kernel's scratch files are then its own, and none outlives
    /// its copy, even one that had to be killed.
    pub own_dirs: bool,
    /// A file to read stdin from; /dev/null when None.
    pub stdin: Option<&'a Path>,
    /// Where stdout goes (the .log, opened for append), or /dev/null when None.
    pub stdout: Option<RawFd>,
    /// Longest a pass may take before its copies are killed, in seconds.
    pub deadline: f64,
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
    output: Vec<u8>,
}

/// What every copy's child does between fork and exec.
struct Child<'a> {
    exe: &'a CString,
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
fn null_output(scratch: &Path) -> io::Result<Fd> {
    if let Ok(fd) = sys::fd::open(OsStr::new("/dev/null"), libc::O_WRONLY, 0) {
        return Ok(fd);
    }
    let path = scratch.join(format!(".unixbench-discard-{}", sys::proc::getpid()));
    let fd = sys::fd::open(path.as_os_str(), libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL, 0o600)?;
    let _ = std::fs::remove_file(&path);
    Ok(fd)
}

/// Runs one pass of `copies` copies of `cmd`.
pub fn run_pass(cmd: &Command, copies: usize, watch: &Watch) -> io::Result<Outcome> {
    let mut dirs = CopyDirs::make(cmd, copies)?;
    let outcome = run_in(cmd, copies, watch, &dirs)?;
    // A directory that cannot go would be in the next pass's way: the test fails, saying so.
    dirs.remove()?;
    Ok(outcome)
}

/// The working directory and argv of each copy, and the directories made for the pass (removed
/// on drop).
struct CopyDirs {
    cwds: Vec<CString>,
    argvs: Vec<sys::proc::Argv>,
    made: Vec<std::path::PathBuf>,
}

impl CopyDirs {
    fn make(cmd: &Command, copies: usize) -> io::Result<CopyDirs> {
        use std::os::unix::fs::DirBuilderExt;
        let c = |p: &Path| {
            CString::new(p.as_os_str().as_encoded_bytes()).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidInput, "work directory path holds a NUL byte")
            })
        };
        let mut d = CopyDirs { cwds: Vec::new(), argvs: Vec::new(), made: Vec::new() };
        if !cmd.own_dirs {
            d.cwds.push(c(cmd.cwd)?);
            d.argvs.push(sys::proc::Argv::new(cmd.argv)?);
            return Ok(d);
        }
        for i in 1..=copies {
            let p = cmd.cwd.join(format!("copy-{i}"));
            std::fs::DirBuilder::new().mode(0o700).create(&p).map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!("cannot make the directory of copy {i}, {}: {e}", p.display()),
                )
            })?;
            d.made.push(p.clone());
            d.cwds.push(c(&p)?);
            let own =
                cmd.argv.iter().map(|w| if Path::new(w) == cmd.cwd { p.as_os_str() } else { w.as_os_str() });
            d.argvs.push(sys::proc::Argv::new(own)?);
        }
        Ok(d)
    }

    /// Copy `copy`'s working directory and argv.
    fn of(&self, copy: usize) -> (&CString, &sys::proc::Argv) {
        let i = copy.min(self.cwds.len() - 1);
        (&self.cwds[i], &self.argvs[i])
    }

    /// Removes the copies' directories whole, every one it can; the first that cannot go is
    /// the error.
    fn remove(&mut self) -> io::Result<()> {
        let mut first = Ok(());
        for p in std::mem::take(&mut self.made) {
            if let Err(e) = std::fs::remove_dir_all(&p) {
                if first.is_ok() {
                    first = Err(io::Error::new(
                        e.kind(),
                        format!("cannot remove the directory of a copy, {}: {e}", p.display()),
                    ));
                }
            }
        }
        first
    }
}

impl Drop for CopyDirs {
    /// On the way out of a pass that failed: what can go, goes.
    fn drop(&mut self) {
        for p in &self.made {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

fn run_in(cmd: &Command, copies: usize, watch: &Watch, dirs: &CopyDirs) -> io::Result<Outcome> {
    let exe = CString::new(cmd.exe.as_os_str().as_encoded_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "program path holds a NUL byte"))?;
    let stdin = match cmd.stdin {
        Some(p) => sys::fd::open(p.as_os_str(), libc::O_RDONLY, 0)
            .map_err(|e| io::Error::new(e.kind(), format!("cannot open {}: {e}", p.display())))?,
        None => null_input()?,
    };
    let null_out;
    let stdout = match cmd.stdout {
        Some(fd) => fd,
        None => {
            null_out = null_output(cmd.cwd)?;
            null_out.raw()
        }
    };
    let failed_exec = format!("unixbench: cannot execute {}: errno ", cmd.exe.display()).into_bytes();
    room_for(copies)?;
    let (gate_rd, gate_wr) = sys::fd::pipe_cloexec()?;
    let (stamps_rd, stamps_wr) = sys::fd::pipe_cloexec()?;
    let child = Child {
        exe: &exe,
        stdin: stdin.raw(),
        stdout,
        failed_exec: &failed_exec,
        gate: (gate_rd.raw(), gate_wr.raw()),
        stamps: stamps_wr.raw(),
    };

    let mut running: Vec<CopyProcess> = Vec::with_capacity(copies);
    for i in 0..copies {
        match spawn(&child, i as u32, dirs.of(i)) {
            Ok(c) => running.push(c),
            Err(e) => {
                kill_all(&running, libc::SIGKILL);
                reap(&mut running);
                // fork's EAGAIN is most often the process limit: say what it is.
                let limit = match sys::proc::get_rlimit(sys::proc::RLIMIT_NPROC) {
                    Ok((soft, _)) if e.raw_os_error() == Some(libc::EAGAIN) => {
                        format!("; the process limit is {soft} (ulimit -u)")
                    }
                    _ => String::new(),
                };
                let e =
                    io::Error::new(e.kind(), format!("cannot start copy {} of {copies}: {e}{limit}", i + 1));
                return Err(e);
            }
        }
    }
    drop((stdin, gate_rd, stamps_wr));
    // The release: with the gate's last write end closed, every copy's read returns.
    let started = sys::clock::monotonic();
    drop(gate_wr);

    let mut stamps = Some(stamps_rd);
    let mut killed_at: Option<f64> = None;
    let mut interrupted = None;
    let mut overdue = false;
    let mut buf = vec![0u8; STAMP * 680];
    // The copies whose stderr is open and their poll entries (then the stamps pipe's, while
    // open, and the signal pipe's), rebuilt only when one closes.
    let mut open: Vec<usize> = (0..running.len()).collect();
    let mut fds: Vec<sys::fd::PollFd> = Vec::with_capacity(copies + 2);
    let mut dirty = true;
    loop {
        if dirty {
            open.retain(|&i| running[i].stderr.is_some());
            fds.clear();
            fds.extend(open.iter().map(|&i| sys::fd::poll_in(running[i].stderr.as_ref().unwrap().raw())));
            fds.extend(stamps.iter().map(|s| sys::fd::poll_in(s.raw())));
            fds.push(sys::fd::poll_in(watch.fd()));
            dirty = false;
        }
        if open.is_empty() {
            break;
        }
        let now = sys::clock::monotonic();
        if interrupted.is_none() {
            interrupted = watch.caught();
            if interrupted.is_some() {
                kill_all(&running, libc::SIGTERM);
                killed_at = Some(now);
            }
        }
        if killed_at.is_none() && now - started > cmd.deadline {
            overdue = true;
            kill_all(&running, libc::SIGTERM);
            killed_at = Some(now);
        }
        // Copies that ignore SIGTERM (or whose grandchildren keep stderr open) get SIGKILL.
        let timeout = match killed_at {
            Some(t) if now - t >= 3.0 => {
                kill_all(&running, libc::SIGKILL);
                500
            }
            Some(t) => ((3.0 - (now - t)) * 1000.0).ceil() as i32,
            None => ((cmd.deadline - (now - started)) * 1000.0).ceil().clamp(1.0, 60_000.0) as i32,
        };
        for f in fds.iter_mut() {
            f.revents = 0;
        }
        match sys::fd::poll(&mut fds, timeout) {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
        for (k, &i) in open.iter().enumerate() {
            if fds[k].revents == 0 {
                continue;
            }
            let c = &mut running[i];
            let fd = c.stderr.as_ref().unwrap().raw();
            match sys::fd::read(fd, &mut buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(0) | Err(_) => {
                    c.elapsed = Some(sys::clock::monotonic() - started);
                    c.stderr = None;
                    dirty = true;
                }
                Ok(n) => crate::outcome::hold(&mut c.output, &buf[..n]),
            }
        }
        if let Some(s) = stamps.as_ref().filter(|_| fds[open.len()].revents != 0) {
            // Stamps are written whole and read in whole multiples of their size.
            match sys::fd::read(s.raw(), &mut buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(0) | Err(_) => {
                    stamps = None;
                    dirty = true;
                }
                Ok(n) => take_stamps(&buf[..n], &mut running),
            }
        }
    }
    // The last copies' stamps may still be unread. Every copy has exec'd or exited by now (its
    // stderr reached EOF), so every write end is closed: this read ends at EOF, never blocks.
    if let Some(s) = stamps {
        loop {
            match sys::fd::read(s.raw(), &mut buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Ok(0) | Err(_) => break,
                Ok(n) => take_stamps(&buf[..n], &mut running),
            }
        }
    }
    let statuses = reap(&mut running);
    if interrupted.is_some() {
        return Ok(Outcome::Interrupted);
    }
    let outcomes = running
        .iter()
        .zip(statuses)
        .map(|(c, status)| {
            let text = explain_errno(&String::from_utf8_lossy(&c.output));
            let mut o = crate::outcome::parse_copy(&text, c.elapsed.unwrap_or(0.0), status, c.pid);
            o.started = c.started.map(|t| t - started);
            if overdue {
                let msg = format!("did not finish within {:.0} s, so every copy was killed", cmd.deadline);
                o.error = Some(msg);
            }
            o
        })
        .collect();
    Ok(Outcome::Done(outcomes))
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
fn spawn(child: &Child, index: u32, (cwd, argv): (&CString, &sys::proc::Argv)) -> io::Result<CopyProcess> {
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
                if let Err(e) = sys::fd::chdir_c(cwd) {
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
                let e = sys::proc::execv(child.exe, argv);
                report_child_error(child.failed_exec, e);
            }
            sys::proc::exit_now(127)
        }
        Fork::Parent(pid) => {
            // Also from the parent, so the group exists before any kill(-pid) (either may win).
            let _ = sys::proc::setpgid(pid, pid);
            drop(err_wr);
            Ok(CopyProcess { pid, stderr: Some(err_rd), elapsed: None, started: None, output: Vec::new() })
        }
    }
}

/// The child writes `errno N` (it may not allocate); the parent spells it out.
fn explain_errno(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_prefix("unixbench: ").and_then(|_| l.rsplit_once(": errno ")) {
            Some((head, n)) => match n.parse::<i32>() {
                Ok(n) => format!("{head}: {}\n", io::Error::from_raw_os_error(n)),
                Err(_) => format!("{l}\n"),
            },
            None => format!("{l}\n"),
        })
        .collect()
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

    fn sh(script: &str) -> Vec<OsString> {
        ["sh", "-c", script].iter().map(OsString::from).collect()
    }

    fn run(argv: &[OsString], copies: usize, deadline: f64) -> Vec<CopyOutcome> {
        let watch = Watch::install().unwrap();
        let cmd = Command {
            exe: Path::new("/bin/sh"),
            argv,
            cwd: Path::new("/"),
            own_dirs: false,
            stdin: None,
            stdout: None,
            deadline,
        };
        match run_pass(&cmd, copies, &watch).unwrap() {
            Outcome::Done(o) => o,
            Outcome::Interrupted => panic!("interrupted"),
        }
    }

    #[test]
    fn copies_run_together_and_report_on_stderr() {
        let t0 = sys::clock::monotonic();
        let o = run(&sh("sleep 1; echo 'COUNT|5|1|lps' >&2; echo 'TIME|0.5' >&2"), 3, 60.0);
        assert!(sys::clock::monotonic() - t0 < 2.5, "the copies ran one after another");
        assert_eq!(o.len(), 3);
        for c in &o {
            assert_eq!((c.count, c.time, c.error.as_deref()), (Some(5.0), Some(0.5), None));
            assert!(c.elapsed >= 1.0 && c.elapsed < 2.5, "{}", c.elapsed);
            assert!(c.pid > 0);
            // Every copy passed the gate, and none before the release (after the last fork).
            assert!(c.started.is_some_and(|s| s >= 0.0), "{:?}", c.started);
        }
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
        let argv = sh("true");
        let cmd = Command {
            exe: Path::new("/nonexistent/unixbench"),
            argv: &argv,
            cwd: Path::new("/"),
            own_dirs: false,
            stdin: None,
            stdout: None,
            deadline: 60.0,
        };
        let Outcome::Done(o) = run_pass(&cmd, 1, &watch).unwrap() else { panic!() };
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
        assert!(sys::clock::monotonic() - t0 < 10.0);
        assert!(o[0].error.as_deref().unwrap().contains("did not finish within"), "{:?}", o[0].error);
    }

    #[test]
    fn each_copy_works_in_its_own_directory_which_goes_with_it() {
        let watch = Watch::install().unwrap();
        let work = std::env::temp_dir().join(format!("ub-own-dirs-{}", sys::proc::getpid()));
        std::fs::create_dir(&work).unwrap();
        // Each copy leaves a file behind, and the second is killed with it still open. The word
        // naming the work directory names each copy's own.
        let mut argv = sh("echo x > scratch; pwd >&2; echo \"$1\" >&2; echo 'COUNT|1|1|lps' >&2");
        argv.extend([OsString::from("sh"), work.clone().into_os_string()]);
        let cmd = Command {
            exe: Path::new("/bin/sh"),
            argv: &argv,
            cwd: &work,
            own_dirs: true,
            stdin: None,
            stdout: None,
            deadline: 60.0,
        };
        let Outcome::Done(o) = run_pass(&cmd, 2, &watch).unwrap() else { panic!() };
        let dirs: Vec<&str> = o.iter().map(|c| c.error.as_deref().unwrap()).collect();
        let own = |n: u32| work.join(format!("copy-{n}")).to_str().unwrap().to_string();
        assert_eq!(dirs, [format!("{}\n{}", own(1), own(1)), format!("{}\n{}", own(2), own(2))]);
        let killed = sh("echo x > scratch; sleep 30");
        let cmd = Command { argv: &killed, deadline: 0.5, ..cmd };
        let Outcome::Done(o) = run_pass(&cmd, 2, &watch).unwrap() else { panic!() };
        assert!(o[0].error.as_deref().unwrap().contains("did not finish within"));
        assert_eq!(std::fs::read_dir(&work).unwrap().count(), 0, "no copy's directory is left");
        std::fs::remove_dir(&work).unwrap();
    }
}
