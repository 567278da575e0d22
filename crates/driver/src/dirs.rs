//! The run's directories: where the results and the tmp directory are (beside `Run` when the
//! driver was called as `Run`), checked before anything is made, then made with the private
//! work directory in the tmp directory.

use crate::error::{Error, Result};
use crate::options::Options;
use crate::sys::{self, dir::open_to_others, dir::swappable};
use crate::workdir::WorkDir;
use crate::{options, output};
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};

/// The directory of the `Run` link this process was invoked through ([`run_home`]); None
/// when argv[0] names no `Run`.
pub(crate) fn invoked_run_home() -> Option<PathBuf> {
    let invoked = crate::selfexe::argv0()?;
    let argv0 = Path::new(invoked);
    argv0.file_name().is_some_and(|n| n == "Run").then(|| run_home(argv0))
}

/// The directory of the `Run` that was invoked as `argv0`, as the shell found it: the
/// directory part of the path, else the first PATH entry holding an executable regular file of
/// that name (as execvp searches: a file there that may not be executed is passed over), else `.`.
pub(crate) fn run_home(argv0: &Path) -> PathBuf {
    let runnable = |p: &Path| p.is_file() && sys::fd::executable(p.as_os_str());
    let dir = match argv0.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => std::env::var_os("PATH")
            .and_then(|p| std::env::split_paths(&p).find(|d| runnable(&d.join(argv0))))
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    // As FindBin's: the directory made absolute, `..` and links resolved.
    std::fs::canonicalize(&dir).or_else(|_| crate::selfexe::absolute(&dir)).unwrap_or(dir)
}

/// The tmp directory (beside Run, when it is made), the run's private work directory in it
/// (once the work directories of killed runs are gone) and the results directory; a warning
/// for either shared directory that others can write. Returns what was made.
pub(crate) fn make_directories(dirs: &Dirs) -> Result<(MadeDir, WorkDir, bool)> {
    // A tmp dir made beside Run goes again if the run stops before it starts, or writes no
    // files (--no-save); a run that saves leaves it, as Run does.
    let made_tmp = MadeDir(dirs.make_tmp()?.then(|| dirs.tmp.clone()));
    let swept = crate::workdir::sweep_stale(&dirs.tmp);
    if !swept.is_empty() {
        let names: Vec<String> = swept.iter().map(|p| p.display().to_string()).collect();
        output::note(
            dirs.program,
            &format!("removed the work directories of runs that were killed: {}", names.join(", ")),
        );
    }
    let workdir = WorkDir::create(&dirs.tmp)
        .map_err(|e| Error::usage(format!("cannot make a work directory in {}: {e}", dirs.tmp.display())))?;
    let made_results = dirs.make_results()?;
    for (d, what) in [(Some(&dirs.tmp), "tmp directory"), (dirs.results.as_ref(), "results directory")] {
        if let Some((d, why)) = d.and_then(|d| Some((d, open_to_others(d)?))) {
            output::note(
                dirs.program,
                &format!(
                    "warning: the {what} {} {why}: they can replace what this run writes there",
                    d.display()
                ),
            );
        } else if let Some(why) = d.and_then(|d| swappable(d.parent()?)) {
            // A directory above: its owner can rename this one away and put another in its
            // place. The run writes on into the one it made its files in (held by descriptor).
            output::note(
                dirs.program,
                &format!("warning: above the {what}, {why}: they can swap the directory for another"),
            );
        }
    }
    Ok((made_tmp, workdir, made_results))
}

/// The results and tmp directories, checked before anything runs. The tmp directory must exist
/// (a typo must not make the file tests measure another disk); the results directory is made
/// (0755, as Run; its last component only, as mkdir) by [`Dirs::make_results`], once
/// everything else is known to be good.
pub(crate) struct Dirs {
    /// None with `--no-save`.
    pub results: Option<PathBuf>,
    pub tmp: PathBuf,
    /// Whether `tmp` is the default beside `Run`, made when missing as Run makes it.
    make_tmp: bool,
    /// Say so when the results directory is made: one that was named (`--results`,
    /// `UB_RESULTDIR`), not Run's own `results/`.
    announce: bool,
    /// The name our stderr lines begin with: `Run` when entered through its link, else
    /// `unixbench`.
    pub program: &'static str,
}

impl Dirs {
    /// `home`: the directory of the `Run` link the driver was entered through, if it was.
    pub fn prepare(o: &Options, home: Option<&Path>) -> Result<Dirs> {
        let beside = |d: &str| home.map(|h| h.join(d));
        let (tmp, from) = first_set(&mut [
            (o.tmpdir.clone(), "--tmpdir"),
            (o.env.tmpdir.clone(), "UB_TMPDIR"),
            (beside("tmp"), BESIDE_RUN),
            (o.env.system_tmpdir.clone(), "TMPDIR"),
            (Some("/tmp".into()), "the default"),
        ]);
        let make_tmp = home.is_some() && from == BESIDE_RUN;
        let tmp = absolute(&tmp, "tmp directory", from)?;
        if make_tmp {
            not_planted(&tmp)?;
        }
        if !tmp.exists() && !make_tmp {
            return Err(Error::usage(format!(
                "the tmp directory {} (from {from}) does not exist; it is not created: make it, or name another",
                tmp.display()
            )));
        }
        if tmp.exists() {
            usable_dir(&tmp, "tmp directory")?;
        }
        let mut announce = false;
        let results = if o.save {
            let (r, from) = first_set(&mut [
                (o.results.clone(), "--results"),
                (o.env.results.clone(), "UB_RESULTDIR"),
                (beside("results"), BESIDE_RUN),
                (Some("results".into()), "the default"),
            ]);
            let r = absolute(&r, "results directory", from)?;
            if from == BESIDE_RUN {
                not_planted(&r)?;
            }
            if r.exists() {
                usable_dir(&r, "results directory")?;
            } else if !r.parent().is_some_and(Path::is_dir) {
                // As mkdir: a typo in a parent must not make a tree somewhere unexpected.
                return Err(Error::usage(format!(
                    "the results directory {} (from {from}) cannot be made: its parent does not \
                     exist, and only the last component is made, as mkdir does",
                    r.display()
                )));
            }
            announce = from != "the default" && from != BESIDE_RUN;
            Some(r)
        } else {
            None
        };
        let announce = announce && o.verbosity != options::Verbosity::Quiet;
        let program = if home.is_some() { "Run" } else { "unixbench" };
        Ok(Dirs { results, tmp, make_tmp, announce, program })
    }

    /// Makes the tmp directory beside `Run` if missing (0755, as Run); returns whether it did.
    fn make_tmp(&self) -> Result<bool> {
        make_dir(&self.tmp, self.make_tmp, "tmp directory", None)
    }

    /// Makes the results directory if missing (0755, as Run) and checks it. Returns whether
    /// it was made here.
    fn make_results(&self) -> Result<bool> {
        let Some(r) = &self.results else { return Ok(false) };
        make_dir(r, true, "results directory", self.announce.then_some(self.program))
    }
}

/// Makes `dir` (0755, as Run) when `make` says so and it is missing, saying so on stderr as
/// `announce` (the program's name) when given; then checks it. Returns whether it was made.
fn make_dir(dir: &Path, make: bool, what: &str, announce: Option<&str>) -> Result<bool> {
    let made = make && !dir.exists();
    if made {
        std::fs::DirBuilder::new()
            .mode(0o755)
            .create(dir)
            .map_err(|e| Error::usage(format!("cannot create the {what} {}: {e}", dir.display())))?;
        if let Some(program) = announce {
            output::note(program, &format!("made the {what} {}", dir.display()));
        }
    }
    usable_dir(dir, what).map(|()| made)
}

/// Where a directory beside `Run` comes from, as its messages name it.
const BESIDE_RUN: &str = "the directory of Run";

/// The first directory set among `choices`, and what set it.
fn first_set(choices: &mut [(Option<PathBuf>, &'static str)]) -> (PathBuf, &'static str) {
    choices.iter_mut().find_map(|(v, from)| Some((v.take()?, *from))).unwrap_or_default()
}

/// A directory this run made, removed (when empty) as the run ends unless kept.
pub(crate) struct MadeDir(Option<PathBuf>);

impl MadeDir {
    pub fn keep(&mut self) {
        self.0 = None;
    }
}

impl Drop for MadeDir {
    fn drop(&mut self) {
        if let Some(d) = &self.0 {
            let _ = std::fs::remove_dir(d);
        }
    }
}

/// Refuses Run's own `results/` or `tmp/` when it is a link or belongs to another user (who
/// may have planted it there to have this run write elsewhere): named, left alone, exit 1.
fn not_planted(dir: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let Ok(m) = std::fs::symlink_metadata(dir) else { return Ok(()) };
    let why = if m.file_type().is_symlink() {
        "is a symbolic link".to_string()
    } else if m.uid() != sys::proc::geteuid() {
        format!("belongs to another user (uid {})", m.uid())
    } else {
        return Ok(());
    };
    Err(Error::failed(format!(
        "{} {why}: it is left alone and not written through (remove it, or name another directory)",
        dir.display()
    )))
}

/// The `names` that are files in a PATH directory other than `dir` and not `ours` (a link of
/// this binary's): `--install`'s check for names it would shadow. Here, built for size, rather
/// than beside `--install`, which is built for speed with dispatch.
#[inline(never)]
pub fn on_path_elsewhere<'a>(dir: &Path, names: &[&'a str], ours: &dyn Fn(&Path) -> bool) -> Vec<&'a str> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let here = std::fs::canonicalize(dir).ok();
    let mut others = Vec::new();
    for p in std::env::split_paths(&path) {
        if p.is_absolute() && std::fs::canonicalize(&p).ok() != here {
            others.push(p);
        }
    }
    let mut clash = Vec::new();
    for &n in names {
        if others.iter().any(|p| p.join(n).is_file() && !ours(&p.join(n))) {
            clash.push(n);
        }
    }
    clash
}

/// `dir` made absolute (the tests run in another working directory); an empty one is refused.
pub(crate) fn absolute(dir: &Path, what: &str, from: &str) -> Result<PathBuf> {
    crate::selfexe::absolute(dir).map_err(|e| {
        Error::usage(format!("invalid {what} {} (from {from}): {e}", crate::args::quoted(dir.as_os_str())))
    })
}

/// Checks that `dir` is a writable directory.
pub(crate) fn usable_dir(dir: &Path, what: &str) -> Result {
    // Opened as a directory, never blocking on what a path there may be.
    if let Err(e) = sys::fd::open_file(dir, sys::fd::Open::Dir) {
        return Err(Error::usage(format!("the {what} is not a usable directory: {e}")));
    }
    if !sys::fd::writable(dir.as_os_str()) {
        return Err(Error::usage(format!("the {what} {} is not writable", dir.display())));
    }
    Ok(())
}
