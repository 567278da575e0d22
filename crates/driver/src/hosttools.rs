//! The command lines of the tests that run the host's own programs: the shell-script tests
//! (`shell1`, `shell8`, `shell16`), the C compiler (`C`), `dc`, `grep`, and `sysexec` (which
//! execs `/bin/true`). [`host_test`] turns a test name and a [`WorkDir`] into the argv that the
//! driver runs, or a [`Skip`] saying which program this host lacks.
//!
//! How the driver uses it
//! (docs/ORIGINAL.md, "Tests", "looper and the shell scripts" and "Quirks we fix"):
//! 1. Make one `WorkDir::create(tmpdir)` for the run, before the first of these tests.
//! 2. Per test: `host_test(name, &wd, secs)`, `secs` from [`default_secs`] unless the user
//!    shortened the run. `Err(skip)`: print and log `skip` (one line, `skipped: no 'dc' program
//!    found in PATH`) and go on with the next test. `Ok(argv)`: exec this binary with that argv
//!    (argv[0] is the applet, `looper` or `syscall`), as for any other kernel, with the working
//!    directory set to `wd.dir()` by descriptor (`fchdir`): every file the argv names is named
//!    relative to it, so the directory is never reached again by its path (the scripts'
//!    temporary files, the compiler's `a.out` and object files land there) and `LANG=en_US.utf8` in the environment, as Run sets it. No
//!    stdin redirection is needed: the dc test's input is given with looper's `-i`.
//! 3. Read the kernel's stderr to EOF, not just until it exits: looper's in-flight iteration
//!    (a `multi.sh` and its copies) outlives looper and keeps the pipe open, and Run's elapsed
//!    time includes it (docs/ORIGINAL.md, "Reading a copy").
//! 4. Drop the `WorkDir` at the end of the run. On SIGINT/SIGTERM, `exec` sends each copy's
//!    process group (every test starts in one of its own) SIGTERM, then SIGKILL to what is
//!    still there, and waits until `kill(-pgid, 0)` fails with ESRCH before the directory
//!    goes: the shell runs `tst.sh` copies as background jobs, which POSIX shells start with
//!    SIGINT ignored, so a Ctrl-C alone does not stop them and they would write into a
//!    directory being removed.
//!
//! Each of these tests is the C suite's command with our own data files (see `workdir`):
//!
//! | test | argv |
//! |---|---|
//! | shellN | `looper SECS ./multi.sh N` (multi.sh exec'd through its `#!/bin/sh` line, as looper does with the C suite's multi.sh; `looper SECS /bin/sh ./multi.sh N` when the directory is on a `noexec` file system) |
//! | C | `looper SECS cc cctest.c` (`gcc` when there is no `cc`) |
//! | dc | `looper -i dc.dat SECS dc` (every iteration reads dc.dat: the original's fix) |
//! | grep | `looper SECS grep -c gimp large.txt` |
//! | sysexec | `syscall SECS exec` |

use crate::error::Error;
use crate::workdir::{WorkDir, CC_SOURCE, DC_INPUT, GREP_INPUT};
use std::ffi::OsString;
use std::fmt;
use std::path::{Path, PathBuf};

/// The programs the shell test's scripts run, besides `/bin/sh`.
pub(crate) const SHELL_TOOLS: &[&str] = &["sort", "od", "grep", "tee", "wc", "rm"];

/// Why a test cannot run on this host, e.g. `no 'dc' program found in PATH`: the console and
/// the log put it after `skipped: `.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skip(pub String);

impl fmt::Display for Skip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "skipped: {}", self.0)
    }
}

impl Skip {
    fn missing(program: &str) -> Skip {
        if program.starts_with('/') {
            Skip(format!("no '{program}' program found"))
        } else {
            Skip(format!("no '{program}' program found in PATH"))
        }
    }
}

/// The C suite's duration of host test `name`, in seconds, from the test table; `None` for
/// another name.
pub fn default_secs(name: &str) -> Option<u32> {
    match crate::suite::test(name)?.kind {
        crate::suite::Kind::Host { secs } => Some(secs),
        _ => None,
    }
}

/// The argv for test `name` (one of `suite::host_tests`) running for `secs` seconds with the files
/// of `wd`, or why it cannot run here. argv[0] is the applet of this binary to run (`looper`
/// or `syscall`); see the module documentation for the working directory, environment and
/// cleanup the driver provides. A name that is not one of them gives a `Skip`
/// saying so (a bug in the caller, reported rather than panicking).
pub fn host_test(name: &str, wd: &WorkDir, secs: u32) -> Result<Vec<OsString>, Skip> {
    let secs = &secs.to_string();
    let argv = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
    match name {
        "shell1" | "shell8" | "shell16" => {
            let copies = &name["shell".len()..];
            require("/bin/sh")?;
            for tool in SHELL_TOOLS {
                require(tool)?;
            }
            // Every background job of a POSIX shell opens /dev/null: without it each of the
            // thousands of iterations would fail with an error line.
            if !Path::new("/dev/null").exists() {
                return Err(Skip("no /dev/null (the shell's background jobs read it)".into()));
            }
            let multi = wd.multi_sh();
            if wd.multi_sh_executable() {
                Ok(argv(&["looper", secs, multi, copies]))
            } else {
                Ok(argv(&["looper", secs, "/bin/sh", multi, copies]))
            }
        }
        "C" => {
            let cc = c_compiler().ok_or_else(|| Skip("no 'cc' or 'gcc' program found in PATH".into()))?;
            Ok(argv(&["looper", secs, cc, CC_SOURCE]))
        }
        "dc" => {
            require("dc")?;
            Ok(argv(&["looper", "-i", DC_INPUT, secs, "dc"]))
        }
        "grep" => {
            require("grep")?;
            Ok(argv(&["looper", secs, "grep", "-c", "gimp", GREP_INPUT]))
        }
        "sysexec" => {
            require("/bin/true")?;
            Ok(argv(&["syscall", secs, "exec"]))
        }
        _ => Err(Skip(format!("'{name}' is not a host-tool test"))),
    }
}

/// The C compiler the C test runs: `cc` if found in PATH, else `gcc`. The report keeps the
/// C suite's test name, `C Compiler Throughput (gcc)`, whichever it is.
pub fn c_compiler() -> Option<&'static str> {
    ["cc", "gcc"].into_iter().find(|c| find_program(c).is_some())
}

pub(crate) fn require(program: &str) -> Result<PathBuf, Skip> {
    find_program(program).ok_or_else(|| Skip::missing(program))
}

/// Where `execvp` would find `program`: itself if it holds a `/`, else the first executable
/// file of that name in PATH (musl's default path when PATH is unset).
pub fn find_program(program: &str) -> Option<PathBuf> {
    let runnable = |p: &Path| p.is_file() && crate::sys::fd::executable(p.as_os_str());
    if program.contains('/') {
        let p = PathBuf::from(program);
        return runnable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/bin:/usr/bin".into());
    for dir in std::env::split_paths(&path) {
        // An empty entry is the working directory.
        let p = if dir.as_os_str().is_empty() { Path::new(".").join(program) } else { dir.join(program) };
        if runnable(&p) {
            return Some(p);
        }
    }
    None
}

/// The `workdir DIR [TEST [SECONDS]]` applet: writes the scripts and data files of the shell
/// and host-tool tests into DIR, an existing directory that is left in place, so they can be run
/// by hand or beside the C suite's. With TEST (shell1, shell8, shell16, C, dc, grep, sysexec) it
/// then prints the command the driver would run for it in DIR, one argument per line (the
/// first is the applet), for SECONDS or the test's default duration; or its one-line skip
/// reason when this host lacks a program the test needs. `cd DIR && looper 10 ./multi.sh 8` runs the shell
/// test by hand.
pub fn workdir_main(argv: Vec<OsString>) -> crate::error::Result {
    const USAGE: &str = "usage is workdir DIR [TEST [SECONDS]]";
    let (dir, test, secs) = match &argv[1..] {
        [d] => (d, None, None),
        [d, t] => (d, Some(t.to_string_lossy()), None),
        [d, t, s] => (d, Some(t.to_string_lossy()), Some(crate::args::parse_duration(s)?)),
        [] => return Err(Error::usage(format!("missing directory: {USAGE}"))),
        [_, _, _, extra, ..] => {
            return Err(Error::usage(format!("unexpected argument {}: {USAGE}", crate::args::quoted(extra))))
        }
    };
    let dir = Path::new(dir);
    let secs = match &test {
        None => 0,
        Some(t) => match secs.or_else(|| default_secs(t)) {
            Some(s) => s,
            None => {
                let mut names = Vec::new();
                for n in crate::suite::host_tests() {
                    names.push(n);
                }
                return Err(Error::usage(format!(
                    "unknown test '{}': expected one of {}",
                    crate::args::escaped(t),
                    names.join(", ")
                )));
            }
        },
    };
    if !dir.is_dir() {
        return Err(Error::usage(format!("{} is not a directory", crate::args::quoted(dir.as_os_str()))));
    }
    let wd = WorkDir::fill(dir).map_err(|e| Error::failed(e.to_string()))?;
    if let Some(t) = test {
        let mut out = String::new();
        match host_test(&t, &wd, secs) {
            Ok(v) => v.iter().for_each(|a| {
                out.push_str(&a.to_string_lossy());
                out.push('\n');
            }),
            // As Skip shows itself.
            Err(skip) => out = format!("skipped: {}\n", skip.0),
        }
        crate::error::print(&out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// The workdir applet shows a word of its command line as the driver does: one line.
    #[test]
    fn workdir_errors_show_the_words_escaped() {
        let os = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        let err = |v: &[&str]| workdir_main(os(v)).unwrap_err().to_string();
        assert!(err(&["workdir", "/", "gr\nep"]).starts_with("unknown test 'gr\\nep': "));
        assert!(err(&["workdir", "/", "grep", "1", "x\ny"]).starts_with("unexpected argument 'x\\ny': "));
        assert_eq!(err(&["workdir", "/nonexistent\n"]), "'/nonexistent\\n' is not a directory");
    }

    fn strings(v: &[OsString]) -> Vec<String> {
        v.iter().map(|s| s.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn shell_tests_exec_the_launcher_or_run_it_through_bin_sh() {
        if SHELL_TOOLS.iter().any(|t| find_program(t).is_none()) || find_program("/bin/sh").is_none() {
            return; // a host without the shell test's programs: the skip is tested end to end
        }
        let wd = WorkDir::create(&std::env::temp_dir()).unwrap();
        wd.provide("shell8").unwrap();
        let argv = strings(&host_test("shell8", &wd, 60).unwrap());
        assert_eq!(argv, ["looper", "60", "./multi.sh", "8"]);
        // Not executable, as on a noexec mount: the same single exec of /bin/sh, done by looper.
        let multi = wd.path().join("multi.sh");
        std::fs::set_permissions(multi, std::fs::Permissions::from_mode(0o644)).unwrap();
        let argv = strings(&host_test("shell16", &wd, 5).unwrap());
        assert_eq!(argv, ["looper", "5", "/bin/sh", "./multi.sh", "16"]);
    }

    #[test]
    fn durations_are_the_c_suites() {
        let names: Vec<_> = crate::suite::host_tests().collect();
        assert_eq!(names, ["shell1", "shell8", "shell16", "C", "dc", "grep", "sysexec"]);
        let d: Vec<_> = names.iter().map(|t| default_secs(t).unwrap()).collect();
        assert_eq!(d, [60, 60, 60, 60, 30, 30, 10]);
        assert_eq!(default_secs("pipe"), None);
    }

    #[test]
    fn skip_lines_name_the_missing_program() {
        assert_eq!(Skip::missing("dc").to_string(), "skipped: no 'dc' program found in PATH");
        assert_eq!(Skip::missing("/bin/sh").to_string(), "skipped: no '/bin/sh' program found");
        let wd = WorkDir::create(&std::env::temp_dir()).unwrap();
        assert_eq!(host_test("pipe", &wd, 1).unwrap_err().0, "'pipe' is not a host-tool test");
        assert_eq!(find_program("ub-no-such-program-x"), None);
    }
}
