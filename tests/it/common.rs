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
    assert!(!no_skip(), "{what}: cannot run, and make test needs it to: {why}");
    say(&format!("{what}: skipped: {why}"));
}

/// The rigs that `make test` may find missing, each with why no recipe of the Makefile can
/// provide it: facts of the host's kernel or hardware. Any other rig fails under
/// UNIXBENCH_NO_SKIP; the table is printed once a run, when one of these skips.
pub const OPTIONAL_RIGS: [(&str, &str); 4] = [
    (
        "binfmt_misc",
        "qemu-user runs what an emulated program execs only through a binfmt_misc entry, which \
         make test registers but a container's kernel may refuse",
    ),
    (
        "cgroup v1",
        "a kernel that mounts only the unified hierarchy (cgroup v2) has no v1 cpu or cpuset \
         controllers for a test to make a group in",
    ),
    ("2 CPUs", "a limit of one CPU changes nothing on a machine of one"),
    (
        "no CPU quota",
        "a host that runs the tests under a CPU quota (a CI container's) has no unlimited group",
    ),
];

/// A skip that UNIXBENCH_NO_SKIP allows only for a rig of [`OPTIONAL_RIGS`], named by `rig`:
/// what the test needs is a fact of the host that no recipe of the Makefile can provide. The
/// line says `WHAT: skipped on this host: WHY`.
#[track_caller]
pub fn skip_on_this_host(rig: &str, what: &str, why: &str) {
    let optional = OPTIONAL_RIGS.iter().any(|&(r, _)| r == rig);
    assert!(
        optional || !no_skip(),
        "{what}: cannot run, and make test needs it to: {why} (rig {rig:?} is not among \
         common::OPTIONAL_RIGS)"
    );
    say(&format!("{what}: skipped on this host: {why}"));
    static TABLE: std::sync::Once = std::sync::Once::new();
    TABLE.call_once(|| {
        say("the rigs make test lets skip (tests/it/common.rs, OPTIONAL_RIGS):");
        for (r, reason) in OPTIONAL_RIGS {
            say(&format!("  {r}: {reason}"));
        }
    });
}

/// Whether `make test` runs us (UNIXBENCH_NO_SKIP), where no rig may be missing but the
/// optional ones.
fn no_skip() -> bool {
    std::env::var_os("UNIXBENCH_NO_SKIP").is_some()
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

/// Runs `c` with its stderr (and its stdout too, when `both`) on a new pseudo-terminal of 80
/// columns and 24 rows, a serial console's; returns what the terminal received and the exit
/// status.
pub fn on_a_terminal(c: std::process::Command, both: bool) -> (String, Option<i32>) {
    on_a_terminal_until(c, both, None, 80)
}

/// [`on_a_terminal`], `columns` wide, sending SIGINT to the run once the terminal has received
/// `stop`.
pub fn on_a_terminal_until(
    mut c: std::process::Command,
    both: bool,
    stop: Option<&str>,
    columns: u16,
) -> (String, Option<i32>) {
    // A terminal that moves its cursor, whatever the harness's TERM, unless the test names one.
    if !c.get_envs().any(|(k, _)| k == "TERM") {
        c.env("TERM", "xterm");
    }
    let (master, slave) = base::sys::fd::openpty().expect("a pseudo-terminal");
    base::sys::fd::set_window(master.raw(), columns, 24).expect("a window size");
    let tty = || std::fs::OpenOptions::new().read(true).write(true).open(&slave).unwrap();
    c.stdin(std::process::Stdio::null()).stderr(tty());
    c.stdout(if both { std::process::Stdio::from(tty()) } else { std::process::Stdio::null() });
    let mut child = c.spawn().unwrap();
    drop(c);
    // The master is read while the run goes on: a terminal's buffer is small.
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let into = seen.clone();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        // Reading ends (EIO) once every holder of the slave has closed it.
        while let Ok(n @ 1..) = base::sys::fd::read(master.raw(), &mut buf) {
            into.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    if let Some(stop) = stop {
        let t0 = std::time::Instant::now();
        while !String::from_utf8_lossy(&seen.lock().unwrap()).contains(stop) {
            assert!(t0.elapsed().as_secs() < 60, "{stop:?} never came");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        base::sys::proc::kill(child.id() as i32, libc::SIGINT).unwrap();
    }
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let out = seen.lock().unwrap().clone();
    (String::from_utf8_lossy(&out).into_owned(), status.code())
}

/// The lines a terminal `width` columns wide shows once it has received `out`: a carriage
/// return goes back to the line's start, a newline to a new line, `ESC[K` erases to the line's
/// end, bold takes no place, and any other escape sequence fails the test (the live line uses
/// no other). A line
/// longer than the width is one the terminal wrapped.
pub fn screen(out: &str) -> Vec<String> {
    let (mut lines, mut col) = (vec![Vec::<char>::new()], 0);
    let mut chars = out.chars();
    while let Some(c) = chars.next() {
        let line = lines.last_mut().unwrap();
        match c {
            '\r' => col = 0,
            '\n' => {
                lines.push(Vec::new());
                col = 0;
            }
            '\x1b' => {
                let seq: String = chars.by_ref().take(2).collect();
                // Bold and its end (`ESC[1m`, `ESC[0m`: the index in a person's report) take no
                // place on the screen.
                if seq == "[1" || seq == "[0" {
                    assert_eq!(chars.next(), Some('m'), "{out:?}");
                    continue;
                }
                assert_eq!(seq, "[K", "an escape the live line does not use: {out:?}");
                line.truncate(col);
            }
            c if col < line.len() => {
                line[col] = c;
                col += 1;
            }
            c => {
                line.push(c);
                col += 1;
            }
        }
    }
    lines.into_iter().map(|l| l.into_iter().collect()).collect()
}

/// The pids of the processes whose parent is `parent` and whose argv[0] is `name` (the stop
/// tests' copies, to stop one).
pub fn copies_named(parent: u32, name: &str) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The fields after the command's closing bracket: state, then the parent's pid.
            let ppid = stat.rsplit_once(") ").and_then(|(_, r)| r.split(' ').nth(1)?.parse::<u32>().ok());
            let argv0 = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            ppid == Some(parent) && argv0.split(|&b| b == 0).next() == Some(name.as_bytes())
        })
        .collect()
}
