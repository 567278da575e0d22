//! A directory held by descriptor: once opened (and, for a private one, checked), everything
//! done in it (create, read, execute from, remove) goes relative to the descriptor with
//! `O_NOFOLLOW`, never again through a path that whoever owns a parent could rename or replace
//! with a link.

use super::fd::{self, Fd, Open};
use super::{cvt, cvt_r};
use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::io::RawFd;
use std::path::{Path, PathBuf};

/// An open directory and the path it was opened by (for messages only).
#[derive(Debug)]
pub struct Dir {
    fd: Fd,
    path: PathBuf,
}

/// Flags of every open here: never blocking, never inherited by an exec.
const BASE: i32 = libc::O_NONBLOCK | libc::O_CLOEXEC;
const DIR_FLAGS: i32 = libc::O_RDONLY | libc::O_DIRECTORY | BASE;

fn name_c(name: &OsStr) -> io::Result<CString> {
    CString::new(name.as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a file name holds a NUL byte"))
}

/// `fstat(2)` on an open descriptor.
fn fstat(fd: RawFd) -> io::Result<libc::stat> {
    // SAFETY: st is plain data the kernel fills; fd is open.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        cvt(libc::fstat(fd, &mut st))?;
        Ok(st)
    }
}

/// `fchdir(2)`: no allocation, so a forked child of a threaded process may call it.
pub fn fchdir(fd: RawFd) -> io::Result<()> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::fchdir(fd) }).map(drop)
}

impl Dir {
    /// Opens an existing directory the user named (a link there is followed, as `cd` would).
    pub fn open(path: &Path) -> io::Result<Dir> {
        let fd = fd::open(path.as_os_str(), DIR_FLAGS, 0)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {}", path.display(), fd::reason(&e))))?;
        Ok(Dir { fd, path: path.to_path_buf() })
    }

    /// Opens `path` as a private directory: not a link, a directory of this user (the effective
    /// one) that nobody else may enter (mode 0700). Checked on the descriptor, so what was
    /// checked is what is used.
    pub fn open_private(path: &Path) -> io::Result<Dir> {
        let named =
            |e: io::Error| io::Error::new(e.kind(), format!("{}: {}", path.display(), fd::reason(&e)));
        let fd = fd::open(path.as_os_str(), DIR_FLAGS | libc::O_NOFOLLOW, 0).map_err(named)?;
        let d = Dir { fd, path: path.to_path_buf() };
        d.check_private().map_err(named)?;
        Ok(d)
    }

    fn check_private(&self) -> io::Result<()> {
        let st = fstat(self.fd.raw())?;
        // SAFETY: geteuid cannot fail.
        let me = unsafe { libc::geteuid() };
        let private = st.st_mode & libc::S_IFMT == libc::S_IFDIR && st.st_mode & 0o777 == 0o700;
        if st.st_uid != me || !private {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "not a private directory of this user (owner {}, mode {:o})",
                    st.st_uid,
                    st.st_mode & 0o7777
                ),
            ));
        }
        Ok(())
    }

    /// The raw descriptor, still owned by `self` (for `fchdir` in a forked child).
    pub fn raw(&self) -> RawFd {
        self.fd.raw()
    }

    /// The path it was opened by; it may no longer lead here.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `openat(2)` of `name` relative to this directory, never following a link there; an
    /// error names the path.
    #[inline(never)]
    fn at(&self, name: &OsStr, flags: i32, mode: u32) -> io::Result<Fd> {
        let c = name_c(name)?;
        // SAFETY: c is a valid NUL-terminated string; the descriptor is open.
        cvt_r(|| unsafe {
            libc::openat(self.fd.raw(), c.as_ptr(), flags | BASE | libc::O_NOFOLLOW, mode as libc::c_uint)
        })
        .map(Fd::from_raw)
        .map_err(|e| self.named(name, e))
    }

    /// `e` as an error of `name` inside this directory.
    #[cold]
    #[inline(never)]
    fn named(&self, name: &OsStr, e: io::Error) -> io::Error {
        let why = match e.raw_os_error() {
            Some(libc::ELOOP) => "a symbolic link, which is not followed".to_string(),
            _ => fd::reason(&e),
        };
        io::Error::new(e.kind(), format!("{}: {why}", self.path.join(name).display()))
    }

    /// The directory `name` here, opened without following a link and checked private.
    fn private_at(&self, name: &OsStr) -> io::Result<Dir> {
        let d = Dir { fd: self.at(name, libc::O_RDONLY | libc::O_DIRECTORY, 0)?, path: self.path.join(name) };
        d.check_private().map_err(|e| self.named(name, e))?;
        Ok(d)
    }

    /// Makes the private directory `name` (0700) in this one and opens it, checked.
    pub fn make_private(&self, name: &OsStr) -> io::Result<Dir> {
        let c = name_c(name)?;
        // SAFETY: c is a valid NUL-terminated string; the descriptor is open.
        cvt(unsafe { libc::mkdirat(self.fd.raw(), c.as_ptr(), 0o700) }).map_err(|e| self.named(name, e))?;
        self.private_at(name)
    }

    /// Opens the directory `name` in this one as private (see [`Dir::open_private`]).
    pub fn open_private_at(&self, name: &OsStr) -> io::Result<Dir> {
        self.private_at(name)
    }

    /// The regular file `name` here, opened with `flags` (and `mode` when created), checked
    /// as `how` wants on the descriptor, then blocking.
    fn file_at(&self, name: &OsStr, flags: i32, how: Open) -> io::Result<std::fs::File> {
        let mode = if let Open::Create(m) = how { Some(m) } else { None };
        let fd = self.at(name, flags, if how == Open::Append { 0o644 } else { mode.unwrap_or(0) })?;
        let checked = fd::check_kind(&fd, how).and_then(|()| fd::blocking(&fd));
        // SAFETY: no pointers involved; fd is open. A new file's mode is set explicitly: the
        // umask must not take bits away.
        let chmod = |m: u32| cvt(unsafe { libc::fchmod(fd.raw(), m as libc::mode_t) }).map(drop);
        checked.and_then(|()| mode.map_or(Ok(()), chmod)).map_err(|e| self.named(name, e))?;
        Ok(fd.into_file())
    }

    /// Creates the new regular file `name` (`O_EXCL|O_NOFOLLOW`) with `mode`, set explicitly so
    /// that the umask cannot take bits away, open for writing.
    pub fn create(&self, name: &OsStr, mode: u32) -> io::Result<std::fs::File> {
        self.file_at(name, libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL, Open::Create(mode))
    }

    /// Opens the regular file `name` of this user for appending, not through a link, created
    /// (0644) when absent.
    pub fn append(&self, name: &OsStr) -> io::Result<std::fs::File> {
        self.file_at(name, libc::O_WRONLY | libc::O_APPEND | libc::O_CREAT, Open::Append)
    }

    /// `renameat(2)` of `from` to `to`, both here: `to` is replaced whole (a link there is
    /// replaced, never followed).
    pub fn rename(&self, from: &OsStr, to: &OsStr) -> io::Result<()> {
        let (f, t) = (name_c(from)?, name_c(to)?);
        // SAFETY: both are valid NUL-terminated strings; the descriptor is open.
        cvt(unsafe { libc::renameat(self.fd.raw(), f.as_ptr(), self.fd.raw(), t.as_ptr()) })
            .map(drop)
            .map_err(|e| self.named(to, e))
    }

    /// Whether the path it was opened by still leads to this directory (not renamed away, nor
    /// replaced by another or a link elsewhere).
    pub fn still_at_its_path(&self) -> bool {
        let Ok(here) = fstat(self.fd.raw()) else { return false };
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(&self.path).is_ok_and(|m| m.dev() == here.st_dev && m.ino() == here.st_ino)
    }

    /// Opens the regular file `name` for reading, not through a link.
    pub fn read(&self, name: &OsStr) -> io::Result<std::fs::File> {
        self.file_at(name, libc::O_RDONLY, Open::Read)
    }

    /// Whether this process may execute `name` here (`faccessat(X_OK)`: false on a `noexec`
    /// file system too).
    pub fn executable(&self, name: &OsStr) -> bool {
        let Ok(c) = name_c(name) else { return false };
        // SAFETY: c is a valid NUL-terminated string; the descriptor is open.
        unsafe { libc::faccessat(self.fd.raw(), c.as_ptr(), libc::X_OK, 0) == 0 }
    }

    /// The names in this directory but `.` and `..`.
    pub fn names(&self) -> io::Result<Vec<CString>> {
        // fdopendir takes the descriptor it is given: a duplicate, which closedir closes.
        // SAFETY: no pointers involved; the descriptor is open.
        let dup = cvt(unsafe { libc::fcntl(self.fd.raw(), libc::F_DUPFD_CLOEXEC, 0) })?;
        // SAFETY: dup is an open directory descriptor that the DIR stream owns from here.
        let dirp = unsafe { libc::fdopendir(dup) };
        if dirp.is_null() {
            let e = io::Error::last_os_error();
            let _ = fd::close(dup);
            return Err(e);
        }
        let mut names = Vec::new();
        // SAFETY: dirp is a valid stream until closedir; each entry's d_name is a NUL-terminated
        // string valid until the next readdir, copied before it; rewinddir starts from the top
        // (the duplicate shares the offset of an earlier listing).
        unsafe {
            libc::rewinddir(dirp);
            loop {
                let e = libc::readdir(dirp);
                if e.is_null() {
                    break;
                }
                let n = CStr::from_ptr((*e).d_name.as_ptr());
                if n.to_bytes() != b"." && n.to_bytes() != b".." {
                    names.push(n.to_owned());
                }
            }
            libc::closedir(dirp);
        }
        Ok(names)
    }

    /// `unlinkat(2)` of `name` here: a file or link goes (a link's target is untouched); a
    /// directory is an error.
    pub fn unlink(&self, name: &OsStr) -> io::Result<()> {
        self.unlink_at(name, 0)
    }

    /// `unlinkat(AT_REMOVEDIR)`: removes the empty directory `name` here.
    pub fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
        self.unlink_at(name, libc::AT_REMOVEDIR)
    }

    #[inline(never)]
    fn unlink_at(&self, name: &OsStr, flags: i32) -> io::Result<()> {
        let c = name_c(name)?;
        // SAFETY: c is a valid NUL-terminated string; the descriptor is open.
        cvt(unsafe { libc::unlinkat(self.fd.raw(), c.as_ptr(), flags) })
            .map(drop)
            .map_err(|e| self.named(name, e))
    }

    /// Removes `name` here, a directory with all it holds: each level is entered by descriptor
    /// without following a link, so nothing outside this directory is ever removed.
    pub fn remove_all(&self, name: &OsStr) -> io::Result<()> {
        if self.unlink(name).is_ok() {
            return Ok(());
        }
        let sub =
            Dir { fd: self.at(name, libc::O_RDONLY | libc::O_DIRECTORY, 0)?, path: self.path.join(name) };
        sub.clear()?;
        self.remove_dir(name)
    }

    /// Removes everything in this directory, every entry it can; the first failure is the error.
    pub fn clear(&self) -> io::Result<()> {
        let mut first = Ok(());
        for n in self.names()? {
            if let Err(e) = self.remove_all(OsStr::from_bytes(n.to_bytes())) {
                first = first.and(Err(e));
            }
        }
        first
    }
}

/// Why another user may replace files in `dir`, if one may: it is writable by all without the
/// sticky bit, or it belongs to another user (root aside, who may do anything anyway).
pub fn open_to_others(dir: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(dir).ok()?;
    if m.mode() & 0o1002 == 0o002 {
        return Some("is writable by other users and not sticky".into());
    }
    let uid = m.uid();
    (uid != 0 && uid != super::proc::geteuid()).then(|| format!("belongs to another user (uid {uid})"))
}

/// Why another user could swap what is made under `dir` for their own, if one could: `dir` or
/// a directory above it is open to others ([`open_to_others`]).
pub fn swappable(dir: &Path) -> Option<String> {
    let dir = std::fs::canonicalize(dir).ok()?;
    dir.ancestors().find_map(|d| open_to_others(d).map(|why| format!("{} {why}", d.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_anyone_may_write_without_the_sticky_bit_is_swappable() {
        use std::os::unix::fs::PermissionsExt;
        let top = std::env::temp_dir().join(format!("ub-swap-{}", std::process::id()));
        let below = top.join("below");
        std::fs::create_dir_all(&below).unwrap();
        std::fs::set_permissions(&top, std::fs::Permissions::from_mode(0o777)).unwrap();
        let why = swappable(&below);
        std::fs::set_permissions(&top, std::fs::Permissions::from_mode(0o1777)).unwrap();
        let sticky = swappable(&below);
        std::fs::remove_dir_all(&top).unwrap();
        assert!(why.is_some_and(|w| w.ends_with("is writable by other users and not sticky")));
        assert_eq!(sticky, None);
    }

    #[test]
    fn nothing_outside_is_followed_or_removed() {
        let top = std::env::temp_dir().join(format!("ub-dir-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        std::fs::create_dir(&top).unwrap();
        let outside = top.join("outside");
        std::fs::create_dir(&outside).unwrap();
        std::fs::write(outside.join("keep"), "x").unwrap();
        let d = Dir::open(&top).unwrap().make_private(OsStr::new("private")).unwrap();
        // A link planted inside: creating through it fails, removing takes the link only.
        std::os::unix::fs::symlink(&outside, top.join("private/link")).unwrap();
        let e = d.create(OsStr::new("link"), 0o644).unwrap_err().to_string();
        assert!(e.ends_with("link: File exists"), "{e}");
        std::os::unix::fs::symlink(outside.join("keep"), top.join("private/f")).unwrap();
        assert!(d.read(OsStr::new("f")).unwrap_err().to_string().contains("symbolic link"));
        let sub = d.make_private(OsStr::new("sub")).unwrap();
        std::io::Write::write_all(&mut sub.create(OsStr::new("x"), 0o600).unwrap(), b"y").unwrap();
        assert!(d.executable(OsStr::new("sub")));
        // Swapped for a link after it was opened: the descriptor still reaches the original.
        std::fs::rename(top.join("private"), top.join("moved")).unwrap();
        std::os::unix::fs::symlink(&outside, top.join("private")).unwrap();
        d.clear().unwrap();
        assert!(std::fs::read_dir(top.join("moved")).unwrap().next().is_none());
        assert_eq!(std::fs::read_to_string(outside.join("keep")).unwrap(), "x");
        assert!(Dir::open_private(&top.join("private")).is_err(), "a link is not private");
        assert!(Dir::open_private(&outside).unwrap_err().to_string().contains("not a private directory"));
        std::fs::remove_dir_all(&top).unwrap();
    }
}
