//! Processes: fork, exec, wait, exit, process groups, resource limits.

use super::{cvt, cvt_r, fd::cstr};
use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::RawFd;

/// The result of `fork(2)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fork {
    /// In the child. It must exec or call [`exit_now`], never return into the parent's logic.
    Child,
    /// In the parent, with the child's pid.
    Parent(i32),
}

/// `fork(2)`. The crate is single-threaded wherever it forks, so the child may do anything the
/// parent could until it execs or exits.
#[inline]
pub fn fork() -> io::Result<Fork> {
    // SAFETY: fork has no memory-safety preconditions in a single-threaded process.
    let pid = cvt(unsafe { libc::fork() })?;
    Ok(if pid == 0 { Fork::Child } else { Fork::Parent(pid) })
}

/// `_exit(2)`: ends the process at once, without running atexit handlers or flushing stdio
/// buffers inherited from the parent. The only way a forked child may end.
#[inline]
pub fn exit_now(code: i32) -> ! {
    // SAFETY: _exit never returns and touches no Rust state.
    unsafe { libc::_exit(code) }
}

/// `waitpid(pid, &status, 0)`, retried on EINTR. Returns (pid, raw wait status).
#[inline]
pub fn waitpid(pid: i32) -> io::Result<(i32, i32)> {
    let mut status = 0;
    // SAFETY: status is a valid out-pointer.
    let p = cvt_r(|| unsafe { libc::waitpid(pid, &mut status, 0) })?;
    Ok((p, status))
}

/// Waits until child `pid` has ended but leaves it unreaped (`waitid(WEXITED | WNOWAIT)`), so
/// its pid, and the process group named after it, cannot be reused while the caller still
/// signals that group. Retried on EINTR.
pub fn wait_exited_keep(pid: i32) -> io::Result<()> {
    // SAFETY: info is plain data, zero is a valid value; waitid writes into it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: info is a valid out-pointer.
    cvt_r(|| unsafe {
        libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, libc::WEXITED | libc::WNOWAIT)
    })
    .map(drop)
}

/// A child's change between running and stopped, as `waitid` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopChange {
    /// Stopped by this signal (SIGSTOP, SIGTSTP, ...).
    Stopped(i32),
    Continued,
}

/// The last stop or continue of child `pid` not yet reported, without waiting
/// (`waitid(WSTOPPED | WCONTINUED | WNOHANG)`); None when there is none. An exit is never
/// reported nor reaped here (no `WEXITED`), so the child stays for [`waitpid`].
pub fn stop_change(pid: i32) -> io::Result<Option<StopChange>> {
    // SAFETY: info is plain data, zero is a valid value; waitid writes into it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WSTOPPED | libc::WCONTINUED | libc::WNOHANG;
    // SAFETY: info is a valid out-pointer.
    cvt_r(|| unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) })?;
    // SAFETY: waitid filled info for a child's state change (si_pid 0: none happened).
    let (who, status) = unsafe { (info.si_pid(), info.si_status()) };
    Ok(match info.si_code {
        _ if who == 0 => None,
        libc::CLD_STOPPED | libc::CLD_TRAPPED => Some(StopChange::Stopped(status)),
        libc::CLD_CONTINUED => Some(StopChange::Continued),
        _ => None,
    })
}

/// The name of a stopping signal (`SIGSTOP`), or `signal N`.
pub fn stop_signal_name(sig: i32) -> String {
    match sig {
        libc::SIGSTOP => "SIGSTOP".into(),
        libc::SIGTSTP => "SIGTSTP".into(),
        libc::SIGTTIN => "SIGTTIN".into(),
        libc::SIGTTOU => "SIGTTOU".into(),
        libc::SIGTRAP => "SIGTRAP".into(),
        n => format!("signal {n}"),
    }
}

/// Reaps, without blocking, every ended child whose process group is `pgid`
/// (`waitpid(-pgid, WNOHANG)` until none is left). Returns how many were reaped.
pub fn reap_group_nohang(pgid: i32) -> usize {
    let mut n = 0;
    loop {
        let mut status = 0;
        // SAFETY: status is a valid out-pointer; WNOHANG never blocks.
        let p = unsafe { libc::waitpid(-pgid, &mut status, libc::WNOHANG) };
        if p <= 0 {
            return n;
        }
        n += 1;
    }
}

/// Makes the calling process a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`): descendants
/// orphaned by their parent's exit become its children instead of init's, so it can reap them
/// itself. Not inherited across fork. Returns false where the kernel refuses (before 3.4).
pub fn become_subreaper() -> bool {
    // SAFETY: PR_SET_CHILD_SUBREAPER takes an integer flag.
    unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) == 0 }
}

/// Names the calling process in the process table (`prctl(PR_SET_NAME)`, what `ps -o comm`,
/// `top` and `pgrep` show), cut to the kernel's 15 bytes. Best effort: a failure changes only
/// what ps shows.
pub fn set_name(name: &str) {
    let mut buf = [0u8; 16];
    let n = name.len().min(15);
    buf[..n].copy_from_slice(&name.as_bytes()[..n]);
    // SAFETY: buf is a NUL-terminated string of at most 16 bytes, which PR_SET_NAME reads.
    unsafe { libc::prctl(libc::PR_SET_NAME, buf.as_ptr() as libc::c_ulong, 0, 0, 0) };
}

/// `wait(2)`: any child. Returns (pid, raw wait status). Not retried: callers decide on EINTR.
#[inline]
pub fn wait_any() -> io::Result<(i32, i32)> {
    let mut status = 0;
    // SAFETY: status is a valid out-pointer.
    let p = cvt(unsafe { libc::wait(&mut status) })?;
    Ok((p, status))
}

/// The resource usage of this process's reaped children and their descendants
/// (`getrusage(RUSAGE_CHILDREN)`): CPU seconds (user + system) and involuntary context
/// switches.
pub fn children_usage() -> io::Result<(f64, u64)> {
    usage(libc::RUSAGE_CHILDREN)
}

/// This process's own usage, as [`children_usage`].
pub fn own_usage() -> io::Result<(f64, u64)> {
    usage(libc::RUSAGE_SELF)
}

fn usage(who: i32) -> io::Result<(f64, u64)> {
    // SAFETY: rusage is plain data; getrusage fills it.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: u is a valid out-pointer.
    cvt(unsafe { libc::getrusage(who, &mut u) })?;
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Ok((secs(u.ru_utime) + secs(u.ru_stime), u.ru_nivcsw as u64))
}

/// Wait status decoding, as the W* macros do.
pub fn exited(status: i32) -> Option<i32> {
    if libc::WIFEXITED(status) {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    }
}
/// Arguments ready for `execv`: owned C strings plus the NULL-terminated pointer array. Build it
/// before fork so the child does not allocate.
pub struct Argv {
    _strings: Vec<CString>,
    ptrs: Vec<*const libc::c_char>,
}

impl Argv {
    pub fn new<I, S>(args: I) -> io::Result<Argv>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let strings = args.into_iter().map(|a| cstr(a.as_ref())).collect::<io::Result<Vec<_>>>()?;
        let mut ptrs: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        ptrs.push(std::ptr::null());
        Ok(Argv { _strings: strings, ptrs })
    }
}

/// `execv(2)`: replaces the process image with `path`. Returns only on failure. Restores SIGPIPE
/// to default and clears the signal mask first, as std's Command does, so that shell pipelines
/// and tools in the new image behave as they would under a shell.
pub fn execv(path: &CString, argv: &Argv) -> io::Error {
    super::signal::reset_for_exec();
    // SAFETY: path and every argv pointer are valid NUL-terminated strings kept alive by argv;
    // the array is NULL-terminated.
    unsafe { libc::execv(path.as_ptr(), argv.ptrs.as_ptr()) };
    io::Error::last_os_error()
}

/// `execve(2)`: as [`execv`], with the environment `env` (`NAME=value` words) instead of the
/// process's own.
pub fn execve(path: &CString, argv: &Argv, env: &Argv) -> io::Error {
    super::signal::reset_for_exec();
    // SAFETY: path and every pointer of argv and env are valid NUL-terminated strings kept
    // alive by them; both arrays are NULL-terminated.
    unsafe { libc::execve(path.as_ptr(), argv.ptrs.as_ptr(), env.ptrs.as_ptr()) };
    io::Error::last_os_error()
}

/// `execvp(3)`: as [`execv`] but searches PATH for `file` when it holds no '/'.
pub fn execvp(file: &CString, argv: &Argv) -> io::Error {
    super::signal::reset_for_exec();
    // SAFETY: as for execv.
    unsafe { libc::execvp(file.as_ptr(), argv.ptrs.as_ptr()) };
    io::Error::last_os_error()
}

/// What [`run_within`] gives a program besides its argv: its stdin (else /dev/null) and the
/// directory it starts in (else ours), both by descriptor.
#[derive(Clone, Copy, Default)]
pub struct ChildIo {
    pub stdin: Option<RawFd>,
    pub cwd: Option<RawFd>,
}

/// What `path`, run with `argv` (stdin and stderr on /dev/null), writes to its stdout within
/// `secs` seconds, at most `cap` bytes; then it is killed if still running, and reaped. For a
/// short question to another program (`--version`) without std's process machinery.
pub fn output_within(path: &CString, argv: &Argv, secs: f64, cap: usize) -> io::Result<Vec<u8>> {
    run_within(path, argv, ChildIo::default(), secs, cap).map(|(out, _)| out)
}

/// As [`output_within`], with `io`'s stdin and working directory, and the raw wait status
/// (a program killed at the deadline or at `cap` bytes ends by SIGKILL).
pub fn run_within(
    path: &CString,
    argv: &Argv,
    io: ChildIo,
    secs: f64,
    cap: usize,
) -> io::Result<(Vec<u8>, i32)> {
    use super::fd;
    let (r, w) = fd::pipe_cloexec()?;
    // Without /dev/null (a rescue root): stdin an empty pipe, stderr left as ours.
    let null = fd::open(OsStr::new("/dev/null"), libc::O_RDWR | libc::O_CLOEXEC, 0).ok();
    let (empty, _) = fd::pipe_cloexec()?;
    let pid = match fork()? {
        Fork::Child => {
            let stdin = io.stdin.or(null.as_ref().map(|n| n.raw())).unwrap_or(empty.raw());
            let ready = fd::dup2(stdin, 0)
                .and_then(|_| fd::dup2(w.raw(), 1))
                .and_then(|_| null.as_ref().map_or(Ok(()), |n| fd::dup2(n.raw(), 2)))
                .and_then(|_| io.cwd.map_or(Ok(()), super::dir::fchdir));
            if ready.is_ok() {
                let _ = execv(path, argv);
            }
            exit_now(127)
        }
        Fork::Parent(pid) => pid,
    };
    drop((w, null, empty));
    let deadline = super::clock::monotonic() + secs;
    let (mut out, mut buf) = (Vec::new(), [0u8; 256]);
    while out.len() < cap {
        let left = deadline - super::clock::monotonic();
        let mut p = [fd::poll_in(r.raw())];
        if left <= 0.0 || fd::poll(&mut p, (left * 1000.0).ceil() as i32).is_ok_and(|n| n == 0) {
            let _ = kill(pid, libc::SIGKILL);
            break;
        }
        match fd::read(r.raw(), &mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n.min(cap - out.len())]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    if out.len() >= cap {
        let _ = kill(pid, libc::SIGKILL);
    }
    Ok((out, wait_until(pid, deadline)?))
}

/// `pid`'s raw wait status, once it ends: killed if it is still running at `deadline` (a
/// program that closed its stdout need not have ended).
fn wait_until(pid: i32, deadline: f64) -> io::Result<i32> {
    loop {
        let mut status = 0;
        // SAFETY: status is a valid out-pointer; WNOHANG never blocks.
        let p = cvt_r(|| unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) })?;
        if p == pid {
            return Ok(status);
        }
        if super::clock::monotonic() >= deadline {
            let _ = kill(pid, libc::SIGKILL);
            return waitpid(pid).map(|(_, status)| status);
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// `getpid(2)` through libc (musl does not cache it).
#[inline]
pub fn getpid() -> i32 {
    // SAFETY: no preconditions.
    unsafe { libc::getpid() }
}

/// The raw `getpid` system call, `syscall(SYS_getpid)`, as UnixBench 6.0's syscall test uses.
#[inline]
pub fn getpid_raw() -> i64 {
    // SAFETY: SYS_getpid takes no arguments.
    unsafe { libc::syscall(libc::SYS_getpid) as i64 }
}

/// `getuid(2)`.
#[inline]
pub fn getuid() -> u32 {
    // SAFETY: no preconditions.
    unsafe { libc::getuid() }
}

/// `geteuid(2)`.
pub fn geteuid() -> u32 {
    // SAFETY: no preconditions.
    unsafe { libc::geteuid() }
}

/// `kill(2)`. A negative pid names a process group.
pub fn kill(pid: i32, sig: i32) -> io::Result<()> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::kill(pid, sig) }).map(drop)
}

/// `setpgid(pid, pgid)`.
pub fn setpgid(pid: i32, pgid: i32) -> io::Result<()> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::setpgid(pid, pgid) }).map(drop)
}

/// `setrlimit(2)` on one resource, soft and hard limit alike.
pub fn set_rlimit(resource: i32, soft: u64, hard: u64) -> io::Result<()> {
    let lim = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
    // SAFETY: lim is a valid rlimit. The resource type differs between libcs; cast to its type.
    cvt(unsafe { libc::setrlimit(resource as _, &lim) }).map(drop)
}

/// Asks the kernel to SIGKILL the calling process when its parent dies
/// (`prctl(PR_SET_PDEATHSIG)`); returns false if the parent `parent` is already gone. Called
/// in a forked child before exec, so no copy outlives a driver that was itself SIGKILLed.
pub fn die_with_parent(parent: i32) -> bool {
    // SAFETY: PR_SET_PDEATHSIG takes an integer signal number; getppid has no preconditions.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0);
        libc::getppid() == parent
    }
}

/// RLIMIT_NOFILE as the resource number these wrappers take (its type differs between libcs).
#[allow(clippy::unnecessary_cast)]
pub const RLIMIT_NOFILE: i32 = libc::RLIMIT_NOFILE as i32;
/// RLIMIT_NPROC, likewise.
#[allow(clippy::unnecessary_cast)]
pub const RLIMIT_NPROC: i32 = libc::RLIMIT_NPROC as i32;

/// `getrlimit(2)`: (soft, hard) limits of one resource.
#[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every target libc supports.
pub fn get_rlimit(resource: i32) -> io::Result<(u64, u64)> {
    let mut lim = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: lim is a valid out-pointer. The resource type differs between libcs.
    cvt(unsafe { libc::getrlimit(resource as _, &mut lim) })?;
    Ok((lim.rlim_cur as u64, lim.rlim_max as u64))
}

/// `getppid(2)`: lmbench's "null" system call.
#[inline]
pub fn getppid() -> i32 {
    // SAFETY: no preconditions.
    unsafe { libc::getppid() }
}

/// `execve(2)` with an empty environment, as lmbench's lat_proc exec does. Returns only on
/// failure; resets signals first as [`execv`] does.
pub fn execve_noenv(path: &CString, argv: &Argv) -> io::Error {
    super::signal::reset_for_exec();
    let env: [*const libc::c_char; 1] = [std::ptr::null()];
    // SAFETY: path and argv are valid NUL-terminated strings kept alive by argv; both arrays
    // are NULL-terminated.
    unsafe { libc::execve(path.as_ptr(), argv.ptrs.as_ptr(), env.as_ptr()) };
    io::Error::last_os_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a program prints is read; one that does not end in time is killed, and reaped.
    #[test]
    fn output_within_reads_and_bounds() {
        let sh = CString::new("/bin/sh").unwrap();
        let say = Argv::new(["sh", "-c", "echo unixbench 1; echo more"]).unwrap();
        assert_eq!(output_within(&sh, &say, 10.0, 64).unwrap(), b"unixbench 1\nmore\n");
        assert_eq!(output_within(&sh, &say, 10.0, 4).unwrap(), b"unix");
        let slow = Argv::new(["sh", "-c", "exec sleep 30"]).unwrap();
        let t = crate::sys::clock::monotonic();
        assert_eq!(output_within(&sh, &slow, 0.3, 64).unwrap(), b"");
        assert!(crate::sys::clock::monotonic() - t < 10.0, "killed at its time, not waited for");
        // One that closes its stdout and lives on is killed at its time too.
        let quiet = Argv::new(["sh", "-c", "exec >&-; sleep 30"]).unwrap();
        let (out, status) = run_within(&sh, &quiet, ChildIo::default(), 0.3, 64).unwrap();
        assert_eq!((out.len(), libc::WIFSIGNALED(status)), (0, true));
    }

    /// The program reads the given stdin in the given directory; its exit status comes back.
    #[test]
    fn run_within_gives_stdin_directory_and_status() {
        let dir = std::env::temp_dir().join(format!("ub-run-within-{}", getpid()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("in"), "3\n1\n2\n").unwrap();
        let input =
            crate::sys::fd::open(dir.join("in").as_os_str(), libc::O_RDONLY | libc::O_CLOEXEC, 0).unwrap();
        let cwd = crate::sys::fd::open(dir.as_os_str(), libc::O_RDONLY | libc::O_CLOEXEC, 0).unwrap();
        let io = ChildIo { stdin: Some(input.raw()), cwd: Some(cwd.raw()) };
        let sh = CString::new("/bin/sh").unwrap();
        let argv = Argv::new(["sh", "-c", "cat; ls; exit 3"]).unwrap();
        let (out, status) = run_within(&sh, &argv, io, 10.0, 64).unwrap();
        assert_eq!(out, b"3\n1\n2\nin\n");
        assert_eq!((libc::WIFEXITED(status), libc::WEXITSTATUS(status)), (true, 3));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
