//! How the `execl` and `spawn` applets stage and run a dynamically linked twin of the C program
//! (`crate::exec_image` is the table of the twins; their sources are `programs/`).
//!
//! C's execl and spawn are small programs linked against the host's C library: every exec runs
//! the dynamic loader (mapping libc, relocating, binding symbols, libc's start-up) and every fork
//! copies a process that has libc mapped. Our static image does none of that, and would score
//! 3-5x C's Execl Throughput and 1.6-2x its Process Creation. So by default each applet writes
//! the twin whose loader this host has into a private directory, checks once that it runs, and
//! times it, with C's argv protocol; where none can run it times the static image and says why.
//! The applet prints one `IMAGE|<kind>|<detail>` line first (`crate::protocol::image`), which
//! the driver records and Run ignores.
//!
//! `UB_EXEC_IMAGE` chooses: `auto` (the default), `dynamic` (a twin or an error: exit 2 when
//! this host has no loader for one, exit 1 when one is there but fails), `dynamic-glibc` and
//! `dynamic-musl` (that family only), `static`.
//!
//! Staging: a directory made by mkdtemp (0700) in `$UB_TMPDIR`, else `$TMPDIR`, else /tmp, the
//! image created in it O_EXCL|O_NOFOLLOW as `execl` or `spawn` (so its argv[0] reads as C's),
//! both removed when the run ends, also on SIGINT, SIGTERM, SIGHUP and SIGQUIT. Where the
//! directory cannot hold or execute it (full, read-only, mounted noexec), the image goes into a
//! memfd run as `/proc/self/fd/N`; so does it where another user could swap the directory (the
//! tmp directory, or one above it, writable by others without the sticky bit, or theirs). The
//! applet stays the twin's parent while it runs, to clean up and to pass on its exit status.

use crate::error::{reason, Error, Result};
use crate::exec_image::{self, Request, Twin};
use crate::protocol;
use crate::sys::{self, fd::Fd, proc::Fork};
use std::ffi::{CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};

/// The image an applet is to time.
pub enum Image {
    /// This binary, with the reason no twin runs.
    Static(String),
    /// A staged twin that ran its check.
    Dynamic(Staged),
}

/// Chooses and stages the image for `program` as `UB_EXEC_IMAGE` asks. Bad input (an unknown
/// value; `dynamic` where this host has no loader for any twin) is a usage error; a twin that is
/// asked for and fails is a failure; under `auto` both fall back to the static image.
pub fn prepare(program: &str) -> Result<Image> {
    let req = exec_image::request().map_err(Error::usage)?;
    // From here a stopping signal only records itself, so that what is staged can be removed.
    for sig in STOPPING {
        let _ = sys::signal::on_signal(sig, pass_on);
    }
    let chosen = choose(program, req);
    if let sig @ 1.. = CAUGHT.load(Ordering::Relaxed) {
        drop(chosen);
        die_of(sig);
    }
    if !matches!(chosen, Ok(Image::Dynamic(_))) {
        for sig in STOPPING {
            let _ = sys::signal::default(sig);
        }
    }
    chosen
}

fn choose(program: &str, req: Request) -> Result<Image> {
    let usable = match exec_image::candidates(program, req) {
        Ok(v) => v,
        Err(msg) if req == Request::Auto || req == Request::Static => return Ok(Image::Static(msg)),
        Err(msg) => return Err(Error::usage(msg)),
    };
    let mut why = Vec::new();
    for twin in usable {
        match stage(twin) {
            Ok(s) => return Ok(Image::Dynamic(s)),
            Err(e) => why.push(format!("{}: {e}", twin.libc)),
        }
    }
    let msg = format!("no dynamic {program} image runs here ({})", why.join("; "));
    if req == Request::Auto {
        Ok(Image::Static(msg))
    } else {
        Err(Error::failed(msg))
    }
}

/// Prints the `IMAGE|static|<reason>` line for an applet that falls back.
pub fn announce_static(reason: &str) {
    let _ = sys::fd::write_all(2, protocol::image("static", reason).as_bytes());
}

/// A twin written where it can be executed.
pub struct Staged {
    twin: &'static Twin,
    /// The path to exec (and, for execl, to re-exec).
    path: CString,
    /// The private directory and its file, removed on drop; None for a memfd.
    dir: Option<PathBuf>,
    /// The memfd, kept open for the twin to inherit; None for a file.
    _memfd: Option<Fd>,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_file(dir.join(self.twin.program));
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn tmpdir() -> PathBuf {
    ["UB_TMPDIR", "TMPDIR"]
        .iter()
        .filter_map(std::env::var_os)
        .find(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp"))
}

/// Writes `twin` into a private directory, else a memfd, and checks that it runs.
fn stage(twin: &'static Twin) -> std::result::Result<Staged, String> {
    let bytes = twin.image().ok_or_else(|| "the embedded image is damaged".to_string())?;
    // Why each place failed, the directory's then the memfd's.
    let mut why = Vec::new();
    for memfd in [false, true] {
        let staged = if memfd { stage_memfd(twin, &bytes) } else { stage_file(twin, &bytes) };
        why.push(match staged {
            Ok(s) => match check(&s) {
                Ok(()) => return Ok(s),
                Err(Check::Exec(e)) if memfd => format!("cannot execute it from a memfd: {e}"),
                Err(Check::Exec(e)) => format!("cannot execute it in {}: {e}", tmpdir().display()),
                Err(Check::Ran(e)) => return Err(e),
            },
            Err(e) => e,
        });
    }
    Err(why.join("; "))
}

fn stage_file(twin: &'static Twin, bytes: &[u8]) -> std::result::Result<Staged, String> {
    let base = tmpdir();
    // The twin is executed by path: where another user could swap its directory for their
    // own, it goes into a memfd instead.
    if let Some(why) = sys::dir::swappable(&base) {
        return Err(format!("not staged in {}: {why}", base.display()));
    }
    let template = base.join("unixbench-twin-XXXXXX");
    let dir = sys::fd::mkdtemp(template.as_os_str())
        .map_err(|e| format!("cannot make a directory in {}: {}", base.display(), reason(&e)))?;
    let path = dir.join(twin.program);
    let path_c = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| "a NUL byte in the tmp dir's path".to_string())?;
    // Staged owns the directory from here, so every early return below removes it.
    let staged = Staged { twin, path: path_c, dir: Some(dir), _memfd: None };
    let mut fd = sys::fd::open_file(&path, sys::fd::Open::Create(0o700))
        .map_err(|e| format!("cannot create {}", reason(&e)))?;
    std::io::Write::write_all(&mut fd, bytes)
        .map_err(|e| format!("cannot write {}: {}", path.display(), reason(&e)))?;
    // Closed before any exec: a file still open for writing cannot be executed (ETXTBSY).
    drop(fd);
    Ok(staged)
}

fn stage_memfd(twin: &'static Twin, bytes: &[u8]) -> std::result::Result<Staged, String> {
    let name = CString::new(twin.program).expect("program names hold no NUL");
    let fd = sys::fd::memfd(&name).map_err(|e| failure("no memfd", &e))?;
    sys::fd::write_all(fd.raw(), bytes).map_err(|e| failure("cannot fill a memfd", &e))?;
    let path = format!("/proc/self/fd/{}", fd.raw());
    if std::fs::metadata(&path).is_err() {
        return Err("no /proc to execute a memfd through".into());
    }
    Ok(Staged { twin, path: CString::new(path).expect("no NUL"), dir: None, _memfd: Some(fd) })
}

enum Check {
    /// The kernel would not execute the file (noexec, permissions): another place may work.
    Exec(String),
    /// It ran and failed (a loader that does not fit, a missing library): it will not work.
    Ran(String),
}

/// Exit status of the check's child when exec itself failed.
const EXEC_FAILED: i32 = 126;

/// Runs the twin once with arguments that make it print a COUNT line and exit at once.
fn check(s: &Staged) -> std::result::Result<(), Check> {
    let now = sys::clock::time().to_string();
    // spawn takes the first of execl's.
    let execl = [OsStr::new("0"), OsStr::new("0"), OsStr::new("0"), OsStr::new(&now)];
    let args = if s.twin.program == "execl" { &execl[..] } else { &execl[..1] };
    let argv = s.argv(args).map_err(|e| Check::Ran(reason(&e)))?;
    let (r, w) = sys::fd::pipe_cloexec().map_err(|e| Check::Ran(failure("pipe", &e)))?;
    let pid = match sys::proc::fork().map_err(|e| Check::Ran(failure("fork", &e)))? {
        Fork::Child => {
            let _ = sys::fd::dup2(w.raw(), 1);
            let _ = sys::fd::dup2(w.raw(), 2);
            let e = sys::proc::execv(&s.path, &argv);
            let _ = sys::fd::write_all(2, failure("exec", &e).as_bytes());
            sys::proc::exit_now(EXEC_FAILED)
        }
        Fork::Parent(pid) => pid,
    };
    drop(w);
    let mut out = Vec::new();
    let mut buf = [0u8; 512];
    // The check prints one line and exits; a twin that hangs is killed after 10 s.
    let mut poll = [sys::fd::poll_in(r.raw())];
    while out.len() < 4096 {
        match sys::fd::poll(&mut poll, 10_000) {
            Ok(0) => {
                let _ = sys::proc::kill(pid, libc::SIGKILL);
                break;
            }
            Ok(_) => match sys::fd::read(r.raw(), &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    let status = sys::proc::waitpid(pid).map(|(_, s)| s).unwrap_or(-1);
    let text = String::from_utf8_lossy(&out);
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("").trim();
    let code = match (sys::proc::exited(status), first.strip_prefix("exec: ")) {
        (Some(0), _) if out.windows(6).any(|w| w == b"COUNT|") => return Ok(()),
        (Some(EXEC_FAILED), Some(e)) => return Err(Check::Exec(e.to_string())),
        (Some(code), _) => code,
        (None, _) => return Err(Check::Ran(format!("its check was killed by signal {}", status & 0x7f))),
    };
    let sep = if first.is_empty() { "" } else { ": " };
    Err(Check::Ran(format!("its check exited with status {code}{sep}{first}")))
}

/// What failed, and the system's reason.
fn failure(what: &str, e: &std::io::Error) -> String {
    format!("{what}: {}", reason(e))
}

/// The twin's pid while it runs, for the handler that passes signals on.
static CHILD: AtomicI32 = AtomicI32::new(0);
static CAUGHT: AtomicI32 = AtomicI32::new(0);

extern "C" fn pass_on(sig: libc::c_int) {
    CAUGHT.store(sig, Ordering::Relaxed);
    let pid = CHILD.load(Ordering::Relaxed);
    if pid > 0 {
        let _ = sys::proc::kill(pid, sig);
    }
}

/// The signals that stop a run and after which the staged image must still be removed.
const STOPPING: [i32; 4] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT];

impl Staged {
    /// Its path as argv[0], then `args`.
    fn argv(&self, args: &[&OsStr]) -> std::io::Result<sys::proc::Argv> {
        sys::proc::Argv::new(
            std::iter::once(OsStr::from_bytes(self.path.as_bytes())).chain(args.iter().copied()),
        )
    }

    /// Runs the twin with `args` after its path as argv[0], waits for it, removes the staged
    /// image and ends as the twin ended: its exit status, or its fatal signal.
    pub fn run(self, args: &[&OsStr]) -> Result {
        let memfd = if self.dir.is_some() { "" } else { " (memfd)" };
        let detail = format!("{}{memfd}", self.twin.loader);
        let _ = sys::fd::write_all(
            2,
            protocol::image(&format!("dynamic-{}", self.twin.libc), &detail).as_bytes(),
        );
        let argv = self.argv(args).map_err(|e| Error::failed(reason(&e)))?;
        // A child the twin forked when a signal killed it (spawn's) becomes ours, not init's,
        // and is reaped below: none outlives this applet.
        let _ = sys::proc::become_subreaper();
        let pid = match sys::proc::fork() {
            Ok(Fork::Child) => {
                let e = sys::proc::execv(&self.path, &argv);
                let msg = format!(
                    "{}: cannot execute {}: {}\n",
                    self.twin.program,
                    OsStr::from_bytes(self.path.as_bytes()).to_string_lossy(),
                    reason(&e)
                );
                let _ = sys::fd::write_all(2, msg.as_bytes());
                sys::proc::exit_now(1)
            }
            Ok(Fork::Parent(pid)) => pid,
            Err(e) => return Err(Error::failed_with(2, failure("Fork failed", &e))),
        };
        CHILD.store(pid, Ordering::Relaxed);
        // A signal that came before CHILD was set has not reached the twin yet.
        if let sig @ 1.. = CAUGHT.load(Ordering::Relaxed) {
            let _ = sys::proc::kill(pid, sig);
        }
        let status = sys::proc::waitpid(pid).map(|(_, s)| s);
        CHILD.store(0, Ordering::Relaxed);
        while sys::proc::wait_any().is_ok() {}
        drop(self);
        let status = status.map_err(|e| Error::failed(failure("wait failed", &e)))?;
        match sys::proc::exited(status) {
            Some(0) => Ok(()),
            Some(code) => Err(Error::Exit(code)),
            // Die of the same signal, as the twin did, so our parent sees what Run would.
            None => die_of(status & 0x7f),
        }
    }
}

/// Ends this process by `sig`, its default action restored.
fn die_of(sig: i32) -> ! {
    let _ = sys::signal::default(sig);
    sys::signal::raise(sig);
    sys::proc::exit_now(128 + sig)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_twins_are_whole_and_name_their_loader() {
        // armv6 (also "arm") carries none; armv7 does.
        let armv7 = cfg!(all(target_arch = "arm", target_feature = "v7"));
        if matches!(std::env::consts::ARCH, "x86_64" | "aarch64" | "riscv64" | "powerpc64") || armv7 {
            for p in ["execl", "spawn"] {
                for l in ["glibc", "musl"] {
                    assert!(
                        exec_image::TWINS.iter().any(|t| t.program == p && t.libc == l),
                        "no {p} twin for {l}"
                    );
                }
            }
        }
        for t in exec_image::TWINS {
            let img = t.image().expect("unpacks");
            assert_eq!(img.len(), t.size);
            assert_eq!(crate::elf::interpreter(&img).as_deref(), Some(t.loader));
        }
    }

    /// The glibc twins must load on glibc 2.17 (CentOS 7): every version they need is at most
    /// GLIBC_2.17, as `readelf -V` (binutils, which the build needs anyway) lists them. Where
    /// glibc's port is younger, on its first: 2.4 on armv7 (EABI), 2.27 on riscv64.
    #[test]
    fn glibc_twins_need_nothing_newer_than_2_17() {
        let oldest = match std::env::consts::ARCH {
            "arm" => (2, 4),
            "riscv64" => (2, 27),
            _ => (2, 17),
        };
        let dir = std::env::temp_dir().join(format!("ub-twin-versions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut checked = 0;
        for t in exec_image::TWINS.iter().filter(|t| t.libc == "glibc") {
            let path = dir.join(format!("{}-{}", t.program, t.libc));
            std::fs::write(&path, t.image().unwrap()).unwrap();
            let out = std::process::Command::new("readelf")
                .arg("-V")
                .arg(&path)
                .output()
                .expect("readelf (binutils)");
            let text = String::from_utf8_lossy(&out.stdout);
            let needs: Vec<(u32, u32)> = text
                .split_whitespace()
                .filter_map(|w| w.strip_prefix("GLIBC_"))
                .map(|v| {
                    let mut n = v.split('.').map(|x| x.parse::<u32>().unwrap());
                    (n.next().unwrap(), n.next().unwrap())
                })
                .collect();
            assert!(!needs.is_empty(), "{}: no GLIBC version needs in\n{text}", t.program);
            assert!(needs.iter().all(|&v| v <= oldest), "{}: needs {needs:?}\n{text}", t.program);
            checked += 1;
        }
        std::fs::remove_dir_all(&dir).unwrap();
        if matches!(std::env::consts::ARCH, "x86_64" | "aarch64" | "riscv64" | "powerpc64")
            || cfg!(all(target_arch = "arm", target_feature = "v7"))
        {
            assert_eq!(checked, 2);
        }
    }
}
