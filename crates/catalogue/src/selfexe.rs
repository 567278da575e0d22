//! Where our own image is, for kernels and the driver that re-execute this binary.
//!
//! BusyBox's order: `/proc/self/exe`; where /proc is missing (a chroot, a rescue shell), the
//! path the driver exports to its kernels in [`HINT_VAR`] (they run with argv[0] = their applet
//! name, which names no file), then an absolute or relative argv[0] that names an existing file,
//! else a PATH search for argv[0]. UB_BINDIR is never consulted.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The environment variable in which the driver passes this binary's path to its kernels.
pub const HINT_VAR: &str = "UNIXBENCH_EXE";

static ARGV0: OnceLock<OsString> = OnceLock::new();

/// Records argv[0] at start-up (called once by `main`).
pub fn set_argv0(a: OsString) {
    let _ = ARGV0.set(a);
}

/// The path of the running binary, or an error naming everything that was tried.
pub fn path() -> Result<PathBuf, String> {
    if let Ok(p) = std::fs::read_link("/proc/self/exe") {
        if p.is_file() {
            return Ok(p);
        }
    }
    if let Some(p) = std::env::var_os(HINT_VAR).map(PathBuf::from) {
        if p.is_absolute() && p.is_file() {
            return Ok(p);
        }
    }
    let argv0 = ARGV0.get().cloned().unwrap_or_default();
    let a = Path::new(&argv0);
    if argv0.as_encoded_bytes().contains(&b'/') {
        if a.is_file() {
            return absolute(a).map_err(|e| e.to_string());
        }
    } else if !argv0.is_empty() {
        if let Some(path) = std::env::var_os("PATH") {
            for dir in std::env::split_paths(&path) {
                let c = dir.join(a);
                if c.is_file() {
                    return absolute(&c).map_err(|e| e.to_string());
                }
            }
        }
    }
    Err(format!(
        "cannot find this program's own file: /proc/self/exe is unreadable (is /proc mounted?), \
         and argv[0] '{}' is neither a path to it nor found in PATH",
        argv0.to_string_lossy()
    ))
}

/// `std::path::absolute` as it is on Unix: `p` on the current directory (on `/`, or on `//` as
/// POSIX lets a path begin), without its `.` components and repeated slashes, its `..` and a
/// trailing slash kept. Spelled out, since std's goes through `Path::components` and
/// `strip_prefix` (1.5 KB).
pub fn absolute(p: &Path) -> std::io::Result<PathBuf> {
    use std::os::unix::ffi::OsStringExt as _;
    let b = p.as_os_str().as_encoded_bytes();
    let mut out = match b {
        [] => {
            let why = "cannot make an empty path absolute";
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
        }
        [b'/', b'/', c, ..] if *c != b'/' => b"//".to_vec(),
        [b'/', b'/'] => b"//".to_vec(),
        [b'/', ..] => b"/".to_vec(),
        _ => std::env::current_dir()?.into_os_string().into_vec(),
    };
    for part in b.split(|&c| c == b'/') {
        if part.is_empty() || part == b"." {
            continue;
        }
        if !out.ends_with(b"/") {
            out.push(b'/');
        }
        out.extend_from_slice(part);
    }
    if b.ends_with(b"/") && !out.ends_with(b"/") {
        out.push(b'/');
    }
    Ok(PathBuf::from(OsString::from_vec(out)))
}

/// argv[0] as this process received it, if `main` recorded one.
pub fn argv0() -> Option<&'static OsString> {
    ARGV0.get()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_is_std_s() {
        let parts = ["", "/", "//", "///", ".", "..", "a", "b.c", "./", "../", "a/", "x//y", "/./", "..."];
        let mut paths = Vec::new();
        for a in parts {
            for b in parts {
                for c in parts {
                    paths.push(format!("{a}{b}{c}"));
                }
            }
        }
        for p in paths {
            let (mine, std) = (absolute(Path::new(&p)), std::path::absolute(&p));
            match (mine, std) {
                (Ok(m), Ok(s)) => assert_eq!(m.as_os_str(), s.as_os_str(), "{p:?}"),
                (Err(m), Err(s)) => assert_eq!((m.kind(), m.to_string()), (s.kind(), s.to_string())),
                (m, s) => panic!("{p:?}: {m:?} against {s:?}"),
            }
        }
    }
}
