//! File descriptors: pipes, reads and writes, files, directories.

use super::{cvt, cvt_r};
use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::RawFd;

/// An owned descriptor, closed on drop.
#[derive(Debug)]
pub struct Fd(RawFd);

impl Fd {
    /// Takes ownership of a raw descriptor (one this process opened and nothing else owns).
    pub fn from_raw(fd: RawFd) -> Fd {
        Fd(fd)
    }
    /// The raw number, still owned by `self`.
    #[inline]
    pub fn raw(&self) -> RawFd {
        self.0
    }
}

impl Drop for Fd {
    fn drop(&mut self) {
        // SAFETY: we own the descriptor; a failed close leaves nothing to do.
        unsafe { libc::close(self.0) };
    }
}

/// Makes each of descriptors 0, 1 and 2 that the caller closed fail as a closed one would: a
/// read-only /dev/null there, on which a write fails with EBADF (without /dev/null, the read end
/// of a pipe whose write end is closed), so that no file opened later lands on it. std's
/// runtime, which this binary does without (`sys::entry`) but a Rust program that runs it may
/// not, opens /dev/null read-write on a closed standard descriptor before `main`, which makes
/// writes to a closed stdout vanish: a read-write /dev/null there is taken for that and
/// replaced the same way. Returns which were closed.
pub fn reserve_std_fds() -> [bool; 3] {
    let mut closed = [false; 3];
    // The closed ones first, lowest first: an open takes the lowest free descriptor, so each
    // lands on the one being filled, and nothing opened below can land on a standard one.
    for (fd, c) in closed.iter_mut().enumerate() {
        // SAFETY: F_GETFL takes no pointer.
        *c = unsafe { libc::fcntl(fd as RawFd, libc::F_GETFL) } == -1;
        if *c {
            fill_lowest();
        }
    }
    let null_rdev = |fd: RawFd| -> Option<u64> {
        // SAFETY: st is plain data the kernel fills; no other pointer is involved.
        unsafe {
            let mut st: libc::stat = std::mem::zeroed();
            (libc::fstat(fd, &mut st) == 0 && st.st_mode & libc::S_IFMT == libc::S_IFCHR)
                .then_some(st.st_rdev as u64)
        }
    };
    let Some(dev_null) = open(OsStr::new("/dev/null"), libc::O_RDONLY, 0).ok() else { return closed };
    let null = null_rdev(dev_null.0);
    for (fd, c) in closed.iter_mut().enumerate() {
        let fd = fd as RawFd;
        // SAFETY: F_GETFL takes no pointer.
        let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        if fl & libc::O_ACCMODE == libc::O_RDWR && null.is_some() && null_rdev(fd) == null {
            *c = true;
            let _ = dup2(dev_null.0, fd);
        }
    }
    closed
}

/// Fills the lowest free descriptor with a read-only /dev/null, or else the read end of a pipe
/// whose write end is closed; either is left open across exec, as a standard descriptor is.
fn fill_lowest() {
    // SAFETY: the path is a NUL-terminated literal.
    if unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY) } != -1 {
        return;
    }
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds has room for the two descriptors pipe writes.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } == 0 {
        // The read end took the free descriptor; the write end goes, and with it its slot,
        // should that be a standard one still to fill.
        // SAFETY: fds[1] was just opened and nothing else holds it.
        unsafe { libc::close(fds[1]) };
    }
}

/// Whether descriptor `fd` is open for writing (a closed standard descriptor is, after
/// [`reserve_std_fds`], a read-only /dev/null).
pub fn open_for_writing(fd: RawFd) -> bool {
    // SAFETY: F_GETFL takes no pointer.
    let fl = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    fl != -1 && fl & libc::O_ACCMODE != libc::O_RDONLY
}

/// `pipe(2)`: returns (read end, write end). Not close-on-exec: the C programs' pipes are not.
pub fn pipe() -> io::Result<(Fd, Fd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: fds has room for the two descriptors pipe writes.
    cvt(unsafe { libc::pipe(fds.as_mut_ptr()) })?;
    Ok((Fd(fds[0]), Fd(fds[1])))
}

/// `pipe2(O_CLOEXEC)`: a pipe whose ends do not leak into exec'd programs.
pub fn pipe_cloexec() -> io::Result<(Fd, Fd)> {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: as for pipe().
    cvt(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    Ok((Fd(fds[0]), Fd(fds[1])))
}

/// One `read(2)`, not retried: the kernels count what a single call returned, as the C code does.
#[inline]
pub fn read(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: buf is valid for buf.len() bytes of writes.
    cvt(unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) }).map(|n| n as usize)
}

/// Raw `read(2)` result (-1 on error, errno set), for loops that must see the C return value.
#[inline]
pub fn read_raw(fd: RawFd, buf: &mut [u8]) -> isize {
    // SAFETY: buf is valid for buf.len() bytes of writes.
    unsafe { raw::read(fd, buf.as_mut_ptr().cast(), buf.len()) }
}

/// One `write(2)`, not retried: ping-pong kernels check what a single call wrote, as the C
/// code does.
#[inline]
pub fn write(fd: RawFd, buf: &[u8]) -> io::Result<usize> {
    // SAFETY: buf is valid for buf.len() bytes of reads.
    cvt(unsafe { libc::write(fd, buf.as_ptr().cast(), buf.len()) }).map(|n| n as usize)
}

/// Raw `write(2)` result (-1 on error, errno set).
#[inline]
pub fn write_raw(fd: RawFd, buf: &[u8]) -> isize {
    // SAFETY: buf is valid for buf.len() bytes of reads.
    unsafe { raw::write(fd, buf.as_ptr().cast(), buf.len()) }
}

/// How the raw reads and writes of the timed loops (pipe, context1, fstime) reach the kernel:
/// as one call that makes the system call and returns, which is what glibc's `read` and
/// `write` are to the C programs. musl's go three calls deep through its cancellation
/// machinery, and that costs more than its few dozen instructions suggest: C's pipe.c linked
/// statically with musl reads 0.971 of the same program on glibc (ours read 0.956), and with
/// one call, as here, 1.017 (docs/FIDELITY.md, "Pipe Throughput and the C library's call
/// depth"). The static builds on x86_64 and aarch64 use it; elsewhere the C library is called.
#[cfg(all(target_env = "musl", any(target_arch = "x86_64", target_arch = "aarch64")))]
mod raw {
    use std::ffi::c_void;
    use std::os::unix::io::RawFd;

    /// `read(2)`, as libc's: the count, or -1 with errno set.
    ///
    /// # Safety
    /// `buf` must be valid for `len` bytes of writes.
    #[inline(never)]
    pub unsafe fn read(fd: RawFd, buf: *mut c_void, len: usize) -> isize {
        // SAFETY: the caller's promise is the system call's requirement.
        unsafe { syscall3(libc::SYS_read, fd, buf as usize, len) }
    }

    /// `write(2)`, as libc's: the count, or -1 with errno set.
    ///
    /// # Safety
    /// `buf` must be valid for `len` bytes of reads.
    #[inline(never)]
    pub unsafe fn write(fd: RawFd, buf: *const c_void, len: usize) -> isize {
        // SAFETY: the caller's promise is the system call's requirement.
        unsafe { syscall3(libc::SYS_write, fd, buf as usize, len) }
    }

    /// System call `nr` with three arguments, inlined into `read` and `write` so that each is
    /// the one call.
    ///
    /// # Safety
    /// `ptr` and `len` must be valid for what call `nr` does with them.
    #[inline(always)]
    unsafe fn syscall3(nr: libc::c_long, fd: RawFd, ptr: usize, len: usize) -> isize {
        let r: isize;
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the kernel's x86_64 convention: number in rax, arguments in rdi, rsi and rdx,
        // result in rax; the instruction overwrites rcx and r11. The asm may read and write
        // memory (no `nomem`), as the call does; the caller vouches for the buffer.
        unsafe {
            std::arch::asm!("syscall", inlateout("rax") nr as isize => r, in("rdi") fd as isize,
                in("rsi") ptr, in("rdx") len, lateout("rcx") _, lateout("r11") _,
                options(nostack));
        }
        #[cfg(target_arch = "aarch64")]
        // SAFETY: the kernel's aarch64 convention: number in x8, arguments in x0-x2, result in
        // x0. As above for memory and the buffer.
        unsafe {
            std::arch::asm!("svc 0", in("x8") nr, inlateout("x0") fd as isize => r, in("x1") ptr,
                in("x2") len, options(nostack));
        }
        // On failure the kernel returns -errno, in -4095..-1.
        if (-4095..0).contains(&r) {
            super::super::set_errno(-r as i32);
            return -1;
        }
        r
    }
}
#[cfg(not(all(target_env = "musl", any(target_arch = "x86_64", target_arch = "aarch64"))))]
use libc as raw;

/// Writes all of `buf`, retrying on EINTR and short writes. Async-signal-safe (no allocation),
/// so signal handlers use it to print their COUNT line.
pub fn write_all(fd: RawFd, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        let n = cvt_r(|| write_raw(fd, buf))?;
        if n == 0 {
            return Err(io::ErrorKind::WriteZero.into());
        }
        buf = &buf[n as usize..];
    }
    Ok(())
}

/// `close(2)`.
#[inline]
pub fn close(fd: RawFd) -> io::Result<()> {
    // SAFETY: closing an fd number has no memory-safety preconditions.
    cvt(unsafe { libc::close(fd) }).map(drop)
}

/// `dup(2)`, returning the raw new descriptor.
#[inline]
pub fn dup(fd: RawFd) -> io::Result<RawFd> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::dup(fd) })
}

/// `dup2(2)`.
pub fn dup2(fd: RawFd, to: RawFd) -> io::Result<()> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::dup2(fd, to) }).map(drop)
}

/// `lseek(fd, off, SEEK_SET)`.
#[inline]
#[allow(clippy::unnecessary_cast)] // off_t is not i64 on every target libc supports.
pub fn seek_set(fd: RawFd, off: i64) -> io::Result<i64> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::lseek(fd, off as libc::off_t, libc::SEEK_SET) }).map(|o| o as i64)
}

pub(crate) fn cstr(s: &OsStr) -> io::Result<CString> {
    CString::new(s.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte"))
}

/// `open(2)` with flags and mode; O_CLOEXEC is added.
pub fn open(path: &OsStr, flags: i32, mode: u32) -> io::Result<Fd> {
    let p = cstr(path)?;
    // SAFETY: p is a valid NUL-terminated string.
    cvt_r(|| unsafe { libc::open(p.as_ptr(), flags | libc::O_CLOEXEC, mode as libc::c_uint) }).map(Fd)
}

/// `unlink(2)` on a C string, async-signal-safe (for cleanup in signal handlers).
pub fn unlink_c(path: &CStr) -> bool {
    // SAFETY: path is a valid NUL-terminated string.
    unsafe { libc::unlink(path.as_ptr()) == 0 }
}

/// `chdir(2)`.
pub fn chdir(path: &OsStr) -> io::Result<()> {
    let p = cstr(path)?;
    // SAFETY: p is a valid NUL-terminated string.
    cvt(unsafe { libc::chdir(p.as_ptr()) }).map(drop)
}

/// `chdir(2)` on a C string: no allocation, so a forked child of a threaded process may call it.
pub fn chdir_c(path: &CStr) -> io::Result<()> {
    // SAFETY: path is a valid NUL-terminated string.
    cvt(unsafe { libc::chdir(path.as_ptr()) }).map(drop)
}

/// `sync(2)`: the C fstime and Run both settle the page cache between phases with it.
pub fn sync() {
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe { libc::sync() }
}

/// `mkdtemp(3)`: makes a private directory from `template` (which must end in `XXXXXX`).
pub fn mkdtemp(template: &OsStr) -> io::Result<std::path::PathBuf> {
    let mut buf = cstr(template)?.into_bytes_with_nul();
    // SAFETY: buf is a writable NUL-terminated string that mkdtemp rewrites in place.
    let p = unsafe { libc::mkdtemp(buf.as_mut_ptr().cast()) };
    if p.is_null() {
        return Err(io::Error::last_os_error());
    }
    buf.pop();
    Ok(std::path::PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(buf)))
}

/// `isatty(3)`.
pub fn isatty(fd: RawFd) -> bool {
    // SAFETY: no pointers involved.
    unsafe { libc::isatty(fd) == 1 }
}

/// The width of the terminal on `fd` (`TIOCGWINSZ`), when it is one that says.
pub fn columns(fd: RawFd) -> Option<usize> {
    // SAFETY: ws is plain data the kernel fills; no other pointer is involved.
    let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one winsize into ws.
    let r = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut ws) };
    (r == 0 && ws.ws_col > 0).then_some(usize::from(ws.ws_col))
}

/// Sets the size of the terminal on `fd` (`TIOCSWINSZ`), as a terminal window does.
pub fn set_window(fd: RawFd, columns: u16, rows: u16) -> io::Result<()> {
    let ws = libc::winsize { ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0 };
    // SAFETY: TIOCSWINSZ reads one winsize from ws, which outlives the call.
    cvt(unsafe { libc::ioctl(fd, libc::TIOCSWINSZ, &ws) }).map(drop)
}

/// Whether descriptors `a` and `b` are open on one file (the same device and inode), as stdout
/// and stderr are under `2>&1` or on one terminal.
pub fn same_file(a: RawFd, b: RawFd) -> bool {
    let id = |fd: RawFd| {
        // SAFETY: st is plain data the kernel fills; no other pointer is involved.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: fstat writes one stat into st.
        (unsafe { libc::fstat(fd, &mut st) } == 0).then_some((st.st_dev, st.st_ino))
    };
    id(a).is_some_and(|x| id(b) == Some(x))
}

/// A new pseudo-terminal (`posix_openpt`, `grantpt`, `unlockpt`): its master, and the path of
/// its slave to open as a program's terminal.
pub fn openpty() -> io::Result<(Fd, std::path::PathBuf)> {
    // SAFETY: no pointers involved.
    let master = Fd(cvt(unsafe { libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC) })?);
    // SAFETY: master is an open pty master.
    cvt(unsafe { libc::grantpt(master.0) })?;
    // SAFETY: likewise.
    cvt(unsafe { libc::unlockpt(master.0) })?;
    let mut buf = [0u8; 128];
    // SAFETY: buf is writable for its length, which is passed.
    let r = unsafe { libc::ptsname_r(master.0, buf.as_mut_ptr().cast(), buf.len()) };
    if r != 0 {
        return Err(io::Error::from_raw_os_error(r));
    }
    let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Ok((master, std::path::PathBuf::from(OsStr::from_bytes(&buf[..len]))))
}

/// `mkfifo(3)` with mode 0600 (the tests plant FIFOs where files are read; no process is
/// spawned to do it, which would count as the children's time in the noise reading).
pub fn mkfifo(path: &std::path::Path) -> io::Result<()> {
    let p = cstr(path.as_os_str())?;
    // SAFETY: p is a valid NUL-terminated string.
    cvt(unsafe { libc::mkfifo(p.as_ptr(), 0o600) }).map(drop)
}

/// `access(path, W_OK)`: whether this process may write into `path`.
pub fn writable(path: &OsStr) -> bool {
    match cstr(path) {
        // SAFETY: p is a valid NUL-terminated string.
        Ok(p) => unsafe { libc::access(p.as_ptr(), libc::W_OK) == 0 },
        Err(_) => false,
    }
}

/// `umask(2)`: sets the mask, returns the old one.
#[inline]
pub fn umask(mask: u32) -> u32 {
    // SAFETY: no pointers involved.
    unsafe { libc::umask(mask as libc::mode_t) as u32 }
}

/// `open(2)` on a prepared C string, O_CLOEXEC added: no allocation, for timed open/close loops.
#[inline]
pub fn open_c(path: &CStr, flags: i32, mode: u32) -> io::Result<Fd> {
    // SAFETY: path is a valid NUL-terminated string.
    cvt_r(|| unsafe { libc::open(path.as_ptr(), flags | libc::O_CLOEXEC, mode as libc::c_uint) }).map(Fd)
}

/// `stat(2)` on a prepared C string, the result discarded (lmbench's lat_syscall stat).
#[inline]
pub fn stat_c(path: &CStr) -> io::Result<()> {
    // SAFETY: st is plain data the kernel fills; path is NUL-terminated.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        cvt(libc::stat(path.as_ptr(), &mut st)).map(drop)
    }
}

/// `unlink(2)` on a prepared C string.
#[inline]
pub fn unlink_cstr(path: &CStr) -> io::Result<()> {
    // SAFETY: path is a valid NUL-terminated string.
    cvt(unsafe { libc::unlink(path.as_ptr()) }).map(drop)
}

/// One entry of a [`poll`] set: a descriptor and the events wanted (`libc::POLLIN`, ...).
pub type PollFd = libc::pollfd;

/// A poll entry waiting for input on `fd`.
pub fn poll_in(fd: RawFd) -> PollFd {
    libc::pollfd { fd, events: libc::POLLIN, revents: 0 }
}

/// A poll entry waiting until `fd` takes a write.
pub fn poll_out(fd: RawFd) -> PollFd {
    libc::pollfd { fd, events: libc::POLLOUT, revents: 0 }
}

/// What a pipe takes in one write once poll says it has room (`PIPE_BUF`).
pub const PIPE_BUF: usize = libc::PIPE_BUF;

/// `poll(2)`: waits until an entry is ready or `timeout_ms` passes (-1: no limit). Returns the
/// number of ready entries. Not retried on EINTR: a caught signal is what callers wait for.
pub fn poll(fds: &mut [PollFd], timeout_ms: i32) -> io::Result<usize> {
    // SAFETY: fds is a valid, writable array of fds.len() pollfd structs.
    cvt(unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) }).map(|n| n as usize)
}

/// Sets O_NONBLOCK on a descriptor.
pub fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: F_GETFL/F_SETFL take no pointers.
    unsafe {
        let flags = cvt(libc::fcntl(fd, libc::F_GETFL))?;
        cvt(libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK)).map(drop)
    }
}

/// `access(path, X_OK)`: whether this process may execute `path`. On Linux this is false on a
/// file system mounted `noexec`, which is how a script's directory is tested before exec.
pub fn executable(path: &OsStr) -> bool {
    match cstr(path) {
        // SAFETY: p is a valid NUL-terminated string.
        Ok(p) => unsafe { libc::access(p.as_ptr(), libc::X_OK) == 0 },
        Err(_) => false,
    }
}

/// Whether `path` lies on a file system held in memory (tmpfs or ramfs, per `statfs(2)`).
pub fn in_memory_fs(path: &OsStr) -> bool {
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    const RAMFS_MAGIC: i64 = 0x8584_58f6;
    let Ok(p) = cstr(path) else { return false };
    // SAFETY: st is plain data, zero is a valid value; p is a valid NUL-terminated string.
    unsafe {
        let mut st: libc::statfs = std::mem::zeroed();
        if libc::statfs(p.as_ptr(), &mut st) != 0 {
            return false;
        }
        matches!(st.f_type as i64, TMPFS_MAGIC | RAMFS_MAGIC)
    }
}

/// The inodes still free to this user on `path`'s file system (`statvfs(3)`'s `f_favail`); None
/// where it cannot be read or the file system counts no inodes (`f_files` 0: btrfs, some
/// network file systems).
pub fn free_inodes(path: &OsStr) -> Option<u64> {
    let p = cstr(path).ok()?;
    // SAFETY: st is plain data, zero is a valid value; p is a valid NUL-terminated string.
    unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(p.as_ptr(), &mut st) != 0 || st.f_files == 0 {
            return None;
        }
        Some(st.f_favail as u64)
    }
}

/// `memfd_create(2)` without MFD_CLOEXEC: an anonymous file that an exec'd image can reach again
/// through `/proc/self/fd/N` (execl's chain re-executes its own path). Linux 3.17 and later;
/// older kernels answer ENOSYS.
pub fn memfd(name: &CStr) -> io::Result<Fd> {
    // SAFETY: name is a valid NUL-terminated string.
    cvt(unsafe { libc::memfd_create(name.as_ptr(), 0) }).map(Fd)
}

/// What [`open_file`] opens a path as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    /// An existing regular file, read. A link the user named is followed: reading through it
    /// writes nothing, and the file it reaches must still be a regular file.
    Read,
    /// A new regular file, created here with this mode (`O_EXCL`), written.
    Create(u32),
    /// A regular file of this user, appended to, created with mode 0644 if absent.
    Append,
    /// An existing directory (a link the user named is followed, as for reading).
    Dir,
    /// A regular file of this user, read and written, opened by every process that names it
    /// (created with this mode if absent): UnixBench 5.1.3's shared files.
    Shared(u32),
}

/// Opens `path` so that the open can never block and no planted link is followed: always
/// `O_NONBLOCK` (a FIFO without a peer, a device that waits, answer at once), `O_NOFOLLOW`
/// wherever the file is written, `O_EXCL` for a new file; then `fstat` on the descriptor
/// itself: a regular file (a directory for [`Open::Dir`]), and one of this user, single-linked,
/// when it is written. O_NONBLOCK is then cleared, so that reads and writes block as usual.
/// An error names `path`.
pub fn open_file(path: &std::path::Path, how: Open) -> io::Result<std::fs::File> {
    let base = libc::O_NONBLOCK | libc::O_CLOEXEC;
    let (flags, mode) = match how {
        Open::Read => (libc::O_RDONLY, 0),
        Open::Create(mode) => (libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW, mode),
        Open::Append => (libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT | libc::O_NOFOLLOW, 0o644),
        Open::Dir => (libc::O_RDONLY | libc::O_DIRECTORY, 0),
        Open::Shared(mode) => (libc::O_RDWR | libc::O_CREAT | libc::O_NOFOLLOW, mode),
    };
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {}", path.display(), reason(&e)));
    let fd = open(path.as_os_str(), base | flags, mode).map_err(|e| {
        // What the flags make the kernel answer, in the words of what is there.
        let said = match e.raw_os_error() {
            Some(libc::ELOOP) if flags & libc::O_NOFOLLOW != 0 => "a symbolic link, which is not followed",
            Some(libc::ENXIO) => "a FIFO or device with nothing at its other end",
            _ => return named(e),
        };
        io::Error::new(io::ErrorKind::InvalidInput, format!("{}: {said}", path.display()))
    })?;
    check_kind(&fd, how).map_err(named)?;
    blocking(&fd).map_err(named)?;
    Ok(fd.into_file())
}

/// Clears O_NONBLOCK, which the checked opens set only so that the open itself cannot block.
pub(crate) fn blocking(fd: &Fd) -> io::Result<()> {
    // SAFETY: F_GETFL/F_SETFL take no pointers; fd is open.
    unsafe {
        let fl = cvt(libc::fcntl(fd.0, libc::F_GETFL))?;
        cvt(libc::fcntl(fd.0, libc::F_SETFL, fl & !libc::O_NONBLOCK)).map(drop)
    }
}

/// At most `cap` bytes of the regular file at `path`, opened by [`open_file`]: a FIFO, a device
/// or a directory planted there is an error at once, never a wait. For the host's files (the
/// system block's, the noise reading's) and anything else read whole.
pub fn read_file(path: &std::path::Path, cap: u64) -> io::Result<Vec<u8>> {
    let mut v = Vec::new();
    io::Read::read_to_end(&mut io::Read::take(open_file(path, Open::Read)?, cap), &mut v)?;
    Ok(v)
}

/// [`read_file`] as text; bytes that are not UTF-8 are an error, as for `fs::read_to_string`.
pub fn read_text(path: &std::path::Path, cap: u64) -> io::Result<String> {
    String::from_utf8(read_file(path, cap)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// The most a host file may hold to be read: far beyond any real one (a /proc/cpuinfo of 1024
/// CPUs is 1.5 MB), so that a planted huge file cannot take the memory.
pub const HOST_FILE_MAX: u64 = 16 << 20;

/// A host file's text, read by [`read_text`] within [`HOST_FILE_MAX`]; None for whatever
/// cannot be read (missing, not a regular file, too odd), which the caller reports as unknown.
pub fn host_text(path: &std::path::Path) -> Option<String> {
    read_text(path, HOST_FILE_MAX).ok()
}

/// The kind and owner `how` wants, read from the open descriptor (not the path, which a
/// stranger may change between the two).
pub(crate) fn check_kind(fd: &Fd, how: Open) -> io::Result<()> {
    // SAFETY: st is plain data the kernel fills; fd is open.
    let st = unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        cvt(libc::fstat(fd.0, &mut st))?;
        st
    };
    let kind = st.st_mode & libc::S_IFMT;
    let want = if how == Open::Dir { libc::S_IFDIR } else { libc::S_IFREG };
    if kind != want {
        let what = match (kind, want) {
            (libc::S_IFDIR, _) => "a directory",
            (libc::S_IFIFO, _) => "a FIFO",
            (libc::S_IFCHR | libc::S_IFBLK, _) => "a device",
            (libc::S_IFSOCK, _) => "a socket",
            (_, libc::S_IFDIR) => "not a directory",
            _ => "not a regular file",
        };
        return Err(io::Error::new(io::ErrorKind::InvalidInput, what));
    }
    let written = matches!(how, Open::Create(_) | Open::Append | Open::Shared(_));
    // SAFETY: geteuid cannot fail.
    if written && (st.st_uid != unsafe { libc::geteuid() } || st.st_nlink != 1) {
        return Err(io::Error::new(io::ErrorKind::PermissionDenied, "not a file of this user alone"));
    }
    Ok(())
}

/// `flock(LOCK_EX|LOCK_NB)`: takes the open file's exclusive lock, or fails with
/// `WouldBlock` at once when another open file holds it. The lock goes with the last
/// descriptor of the open file.
pub fn lock_exclusive(f: &std::fs::File) -> io::Result<()> {
    let fd = std::os::unix::io::AsRawFd::as_raw_fd(f);
    // SAFETY: no pointers involved.
    cvt_r(|| unsafe { libc::flock(fd, libc::LOCK_EX | libc::LOCK_NB) }).map(drop)
}

/// An I/O error's reason without Rust's ` (os error N)` suffix.
pub(crate) fn reason(e: &io::Error) -> String {
    let s = e.to_string();
    s.find(" (os error").map_or(s.clone(), |i| s[..i].to_string())
}

impl Fd {
    /// The descriptor as a `File`, which then owns it.
    pub fn into_file(self) -> std::fs::File {
        let fd = self.0;
        std::mem::forget(self);
        // SAFETY: fd is open and owned by self, whose drop was just skipped: the File is its
        // only owner.
        unsafe { <std::fs::File as std::os::unix::io::FromRawFd>::from_raw_fd(fd) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ub-open-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir(&d).unwrap();
        d
    }

    #[test]
    fn a_fifo_is_refused_at_once_and_named() {
        let d = scratch("fifo");
        let p = d.join("f");
        mkfifo(&p).unwrap();
        for how in [Open::Read, Open::Append, Open::Create(0o644), Open::Dir, Open::Shared(0o600)] {
            let e = open_file(&p, how).unwrap_err().to_string();
            assert!(e.starts_with(&format!("{}: ", p.display())), "{how:?}: {e}");
        }
        assert!(open_file(&p, Open::Read).unwrap_err().to_string().ends_with(": a FIFO"));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn writes_never_follow_a_link_and_creation_is_exclusive() {
        let d = scratch("link");
        let target = d.join("target");
        std::fs::write(&target, "keep").unwrap();
        let link = d.join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = open_file(&link, Open::Append).unwrap_err().to_string();
        assert!(e.ends_with("link: a symbolic link, which is not followed"), "{e}");
        assert!(open_file(&link, Open::Create(0o644)).is_err());
        assert!(open_file(&target, Open::Create(0o644)).is_err(), "an existing file is not new");
        // A second name of the same file (a hard link) is not this user's file alone.
        std::fs::hard_link(&target, d.join("hard")).unwrap();
        assert!(open_file(&d.join("hard"), Open::Append).is_err());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        // Reading a link the user named is allowed; blocking I/O is back after the open.
        use std::io::{Read, Write};
        let mut s = String::new();
        open_file(&link, Open::Read).unwrap().read_to_string(&mut s).unwrap();
        assert_eq!(s, "keep");
        let mut f = open_file(&d.join("new"), Open::Create(0o600)).unwrap();
        f.write_all(b"x").unwrap();
        // SAFETY: F_GETFL takes no pointer.
        let fl = unsafe { libc::fcntl(std::os::unix::io::AsRawFd::as_raw_fd(&f), libc::F_GETFL) };
        assert_eq!(fl & libc::O_NONBLOCK, 0);
        assert!(open_file(&d, Open::Dir).is_ok());
        assert!(open_file(&target, Open::Dir).unwrap_err().to_string().ends_with("Not a directory"));
        assert!(open_file(&d, Open::Read).unwrap_err().to_string().ends_with("a directory"));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
