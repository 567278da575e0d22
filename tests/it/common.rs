//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

/// The one way a test says it cannot run here, with one line naming what it lacked
/// (`WHAT: skipped: WHY`). `make test` sets UNIXBENCH_NO_SKIP, under which every rig is meant
/// to run: a skip there fails the test, naming what was missing, rather than passing untested.
#[track_caller]
pub fn skip(what: &str, why: &str) {
    assert!(
        std::env::var_os("UNIXBENCH_NO_SKIP").is_none(),
        "{what}: cannot run, and make test needs it to: {why}"
    );
    say(&format!("{what}: skipped: {why}"));
}

/// A skip that UNIXBENCH_NO_SKIP allows: what the test needs is a fact of the host that no
/// recipe of the Makefile can provide (a binfmt_misc entry the kernel refuses, a CPU feature).
/// Each caller says which.
pub fn skip_on_this_host(what: &str, why: &str) {
    say(&format!("{what}: skipped on this host: {why}"));
}

/// Straight to stderr, past the test harness's capture, which would hide a passing test's line.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The binary under test.
pub fn bin() -> PathBuf {
    match std::env::var_os("UNIXBENCH_BIN") {
        Some(p) => std::path::absolute(PathBuf::from(p)).unwrap(),
        None => PathBuf::from(env!("CARGO_BIN_EXE_unixbench")),
    }
}

/// `unixbench ARGS...`.
pub fn ub<I, S>(args: I) -> Command
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let mut c = Command::new(bin());
    c.args(args);
    c
}

/// Runs a command and returns its output.
pub fn run(c: &mut Command) -> Output {
    c.output().expect("the binary runs")
}

/// stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh scratch directory under the system tmp dir, removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(tag: &str) -> Scratch {
        let base = std::env::temp_dir();
        for i in 0.. {
            let p = base.join(format!("ub-it-{tag}-{}-{i}", std::process::id()));
            if std::fs::create_dir(&p).is_ok() {
                return Scratch(p);
            }
        }
        unreachable!()
    }
    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
    /// Names of the entries left in the directory, sorted.
    pub fn entries(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asserts a bad command line: exit status 2, nothing on stdout, exactly one line on stderr
/// that contains `needle`.
pub fn assert_usage_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "exit status; stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err:?}");
    assert!(err.contains(needle), "stderr {err:?} should mention {needle:?}");
}

/// Parses `COUNT|n|tb|label` lines of a kernel's stderr into (n, timebase, label).
pub fn counts(err: &str) -> Vec<(f64, u32, String)> {
    err.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            (f.len() == 4 && f[0] == "COUNT")
                .then(|| (f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].to_string()))
        })
        .collect()
}

/// RLIMIT_NPROC counts every process of the user, so the tests that run as nobody take turns:
/// hold this lock while such a process runs.
pub static NOBODY: std::sync::Mutex<()> = std::sync::Mutex::new(());
