//! Putting the binary where programs and wrappers look for it: `--install [-s] DIR`, a link per
//! program as BusyBox's; `--dropin DIR`, a UnixBench-shaped directory (`Run`, `pgms/` with every
//! program, `results/`, `tmp/`) for the wrappers that drive `./Run` and check that shape first.
//!
//! Each reports what it made, one line each on stdout. A name already taken by something that is
//! not this binary's is left alone with a line on stderr, the rest is still made, and the status
//! is then 1.

use crate::error::{self, Error};
use crate::{args, selfexe};
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// What was made and what was in the way, reported as it goes.
#[derive(Default)]
struct Report {
    skipped: usize,
}

impl Report {
    fn made(&mut self, what: std::fmt::Arguments) -> error::Result {
        error::print(&format!("{what}\n"))
    }

    fn in_the_way(&mut self, path: &Path, cmd: &str) {
        self.left_alone(path, cmd, "it exists and is not this binary's; it is not replaced");
    }

    fn left_alone(&mut self, path: &Path, cmd: &str, why: &str) {
        self.skipped += 1;
        let _ = writeln!(std::io::stderr(), "unixbench: {cmd}: skipped {}: {why}", path.display());
    }

    /// Exit status 1 when anything was skipped, with the count.
    fn end(&self, cmd: &str) -> error::Result {
        match self.skipped {
            0 => Ok(()),
            n => Err(Error::failed(format!(
                "{cmd}: {n} name{} in the way (above); everything else is in place",
                if n == 1 { " was" } else { "s were" }
            ))),
        }
    }
}

/// `--install [-s] DIR`: one link per applet to this binary (symbolic with `-s`). A link of
/// ours from an earlier install is replaced.
pub fn install(args: &[OsString], programs: &[&str]) -> error::Result {
    let (symbolic, dir) = match args {
        [s, d] if s == "-s" => (true, d),
        [d] if d != "-s" => (false, d),
        _ => return Err(Error::usage("usage: unixbench --install [-s] DIR")),
    };
    let dir = Path::new(dir);
    // Opened as the tool opens every file: a FIFO or a device there never blocks it.
    if let Err(e) = crate::sys::fd::open_file(dir, crate::sys::fd::Open::Dir) {
        let q = args::quoted(dir.as_os_str());
        return Err(Error::usage(if e.kind() == std::io::ErrorKind::NotFound {
            format!("--install: {q} does not exist; make it first: mkdir -p {q}")
        } else {
            format!("--install: {q} is not a directory to install into: {e}")
        }));
    }
    warn_if_open(dir, "the links made there");
    let me = selfexe::path().map_err(Error::failed)?;
    warn_of_shadows(dir, &me, programs);
    let mut report = Report::default();
    for name in programs {
        let link = dir.join(name);
        match ours(&link, &me) {
            Some(false) => report.in_the_way(&link, "--install"),
            held => {
                if held == Some(true) {
                    let _ = std::fs::remove_file(&link);
                }
                let made = if symbolic {
                    std::os::unix::fs::symlink(&me, &link)
                } else {
                    std::fs::hard_link(&me, &link)
                };
                made.map_err(|e| cant("--install", &link, e))?;
                let how = if symbolic { "->" } else { "= (hard link)" };
                report.made(format_args!("{} {how} {}", link.display(), me.display()))?;
            }
        }
    }
    report.end("--install")
}

/// Whether `link` is this binary's (a symbolic link to `me`, or `me` itself by inode); None
/// when nothing is there.
fn ours(link: &Path, me: &Path) -> Option<bool> {
    let m = std::fs::symlink_metadata(link).ok()?;
    let target = std::fs::metadata(me).ok();
    Some(if m.file_type().is_symlink() {
        std::fs::read_link(link).is_ok_and(|t| t == me)
    } else {
        target.is_some_and(|t| t.dev() == m.dev() && t.ino() == m.ino())
    })
}

/// One line when names we add to `dir` are commands elsewhere on PATH (`int`, `pipe`, `Run`):
/// whichever comes first on PATH is the one a shell runs. A link of ours there is no clash.
fn warn_of_shadows(dir: &Path, me: &Path, programs: &[&str]) {
    let clash = crate::dirs::on_path_elsewhere(dir, programs, &|p| ours(p, me) == Some(true));
    if clash.is_empty() {
        return;
    }
    let shown = clash[..clash.len().min(6)].join(", ");
    let more = if clash.len() > 6 { format!(" and {} more", clash.len() - 6) } else { String::new() };
    let _ = writeln!(
        std::io::stderr(),
        "unixbench: warning: {shown}{more} are also commands on PATH; the first on PATH runs"
    );
}

fn warn_if_open(dir: &Path, what: &str) {
    if let Some(why) = crate::sys::dir::open_to_others(dir) {
        let _ = writeln!(
            std::io::stderr(),
            "unixbench: warning: {} {why}: they can replace {what}",
            dir.display()
        );
    }
}

/// The binary inside a drop-in directory, which `Run` is a hard link to and every program in
/// `pgms/` a symbolic link to.
const BINARY: &str = "unixbench";

/// `--dropin DIR`: DIR made (its last component only, as mkdir), then `pgms/unixbench` (a copy
/// of this binary, so that the directory stands alone), `pgms/PROGRAM` for every program, `Run`
/// (a hard link: a regular file, which `patch` and `sed -i` treat as one), `results/` and `tmp/`.
/// Run again, it brings the binary up to date and keeps what it made before. A `pgms/`,
/// `results/` or `tmp/` that is a link, not a directory, or another user's is left alone with
/// a line (nothing is written through it); without `pgms/`, `Run` is a copy of this binary.
pub fn dropin(args: &[OsString], programs: &[&str]) -> error::Result {
    let [dir] = args else { return Err(Error::usage("usage: unixbench --dropin DIR")) };
    let dir = Path::new(dir);
    check_dropin_dir(dir)?;
    let mut report = Report::default();
    if !dir.is_dir() {
        match make_dir(dir) {
            Ok(true) => report.made(format_args!("{}/", dir.display()))?,
            Ok(false) => {}
            Err(e) => return Err(cant("--dropin", dir, e)),
        }
    }
    warn_if_open(dir, "Run");
    let pgms_usable = make_subdirs(dir, &mut report)?;
    let pgms = dir.join("pgms");
    let run = dir.join("Run");
    if !pgms_usable {
        return dropin_run_alone(&run, report);
    }
    let binary = pgms.join(BINARY);
    // Run is ours when it is the binary in pgms/ (before that is replaced), a copy of it (what
    // `sed -i` leaves), or a link to one.
    let run_ours = match ours(&run, &binary) {
        Some(false) => {
            std::fs::read_link(&run).is_ok_and(|t| t.file_name().is_some_and(|n| n == BINARY))
                || same_bytes(&run, &binary)
        }
        held => held.unwrap_or(true),
    };
    copy_self(&binary).map_err(|e| cant("--dropin", &binary, e))?;
    report.made(format_args!("{} (a copy of this binary)", binary.display()))?;
    link_applets(&pgms, programs, &mut report)?;
    if run_ours {
        let _ = std::fs::remove_file(&run);
        std::fs::hard_link(&binary, &run)
            .or_else(|_| copy_whole(&binary, &run))
            .map_err(|e| cant("--dropin", &run, e))?;
        report.made(format_args!("{} = {} (hard link)", run.display(), binary.display()))?;
    } else {
        report.in_the_way(&run, "--dropin");
    }
    report.end("--dropin")
}

/// Each applet's link in `pgms/` to the binary beside it: made where missing, kept where it is
/// one, a name that is something else left in the way.
fn link_applets(pgms: &Path, programs: &[&str], report: &mut Report) -> error::Result {
    for name in programs.iter().filter(|&&n| n != "Run") {
        let link = pgms.join(name);
        match std::fs::read_link(&link) {
            Ok(t) if t == Path::new(BINARY) => {}
            Ok(_) => report.in_the_way(&link, "--dropin"),
            // Made, not looked at first: another --dropin of this directory may make it between.
            Err(_) => match std::os::unix::fs::symlink(BINARY, &link) {
                Ok(()) => report.made(format_args!("{} -> {BINARY}", link.display()))?,
                // Another --dropin made it first: the link it made is ours.
                Err(_) if std::fs::read_link(&link).is_ok_and(|t| t == Path::new(BINARY)) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    report.in_the_way(&link, "--dropin")
                }
                Err(e) => return Err(cant("--dropin", &link, e)),
            },
        }
    }
    Ok(())
}

/// Makes `pgms/`, `results/` and `tmp/` in `dir` where missing; one that is there but not a
/// directory of this user's is named and left alone. Returns whether `pgms/` can be written.
fn make_subdirs(dir: &Path, report: &mut Report) -> error::Result<bool> {
    let mut pgms = true;
    for name in ["pgms", "results", "tmp"] {
        let d = dir.join(name);
        match std::fs::symlink_metadata(&d) {
            Err(_) => {
                let made = make_dir(&d).map_err(|e| cant("--dropin", &d, e))?;
                if made {
                    report.made(format_args!("{}/", d.display()))?;
                }
            }
            Ok(m) => {
                if let Some(why) = not_our_dir(&m) {
                    let why = format!("{why}; it is left alone, nothing is written through it");
                    report.left_alone(&d, "--dropin", &why);
                    pgms &= name != "pgms";
                }
            }
        }
    }
    Ok(pgms)
}

/// Makes the directory `d` (0755); false when another process made it first (a concurrent
/// `--dropin` of the same directory), which is then checked as one found there.
fn make_dir(d: &Path) -> std::io::Result<bool> {
    match std::fs::DirBuilder::new().mode(0o755).create(d) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && d.is_dir() => Ok(false),
        Err(e) => Err(e),
    }
}

/// Why `m`, the metadata of a directory of the drop-in (not followed), is not one to write
/// into: a link (which could lead anywhere), not a directory, another user's.
fn not_our_dir(m: &std::fs::Metadata) -> Option<String> {
    if m.file_type().is_symlink() {
        Some("it is a symbolic link".into())
    } else if !m.is_dir() {
        Some("it is not a directory".into())
    } else {
        let me = crate::sys::proc::geteuid();
        (m.uid() != me).then(|| format!("it belongs to another user (uid {})", m.uid()))
    }
}

/// The drop-in without a usable `pgms/`: `Run` alone, a copy of this binary, unless something
/// not ours holds its name.
fn dropin_run_alone(run: &Path, mut report: Report) -> error::Result {
    let me = selfexe::path().map_err(Error::failed)?;
    let ours = std::fs::symlink_metadata(run).is_err() || same_bytes(run, &me);
    if ours {
        copy_self(run).map_err(|e| cant("--dropin", run, e))?;
        report.made(format_args!("{} (a copy of this binary)", run.display()))?;
    } else {
        report.in_the_way(run, "--dropin");
    }
    report.end("--dropin")
}

/// The error of `--install` or `--dropin` (`cmd`) for what it could not make.
fn cant(cmd: &str, what: &Path, e: std::io::Error) -> Error {
    Error::failed(format!("{cmd}: cannot create {}: {e}", what.display()))
}

/// Whether two regular files hold the same bytes.
fn same_bytes(a: &Path, b: &Path) -> bool {
    let len = |p: &Path| std::fs::symlink_metadata(p).ok().filter(|m| m.is_file()).map(|m| m.len());
    let read = |p: &Path| crate::sys::fd::read_file(p, 64 << 20).ok();
    len(a).is_some() && len(a) == len(b) && matches!((read(a), read(b)), (Some(x), Some(y)) if x == y)
}

/// DIR is a directory, or can be made with its last component alone.
fn check_dropin_dir(dir: &Path) -> error::Result {
    let shown = args::quoted(dir.as_os_str());
    if dir.as_os_str().is_empty() {
        return Err(Error::usage(format!("--dropin: {shown} is not a directory name")));
    }
    if dir.exists() && !dir.is_dir() {
        return Err(Error::usage(format!("--dropin: {shown} is not a directory")));
    }
    let parent = match dir.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => Path::new("/"),
    };
    if !dir.exists() && !parent.is_dir() {
        return Err(Error::usage(format!(
            "--dropin: {shown} cannot be made: its parent does not exist, and only the last component is \
             made, as mkdir does"
        )));
    }
    Ok(())
}

/// Writes this binary to `to` whole or not at all.
fn copy_self(to: &Path) -> std::io::Result<()> {
    copy_whole(&selfexe::path().map_err(std::io::Error::other)?, to)
}

/// Copies `from` to `to` whole or not at all: a new file beside it (created as every file is,
/// by `open_file`), then renamed over it.
fn copy_whole(from: &Path, to: &Path) -> std::io::Result<()> {
    use crate::sys::fd::{open_file, read_file, Open};
    let tmp: PathBuf = to.with_file_name(format!(".{BINARY}.tmp{}", std::process::id()));
    let mut out = open_file(&tmp, Open::Create(0o755))?;
    // Read whole (a binary of a few MB): no copy loop of its own to carry.
    let done = read_file(from, u64::MAX)
        .and_then(|b| out.write_all(&b))
        .and_then(|()| out.sync_all())
        .and_then(|()| std::fs::rename(&tmp, to));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
}
