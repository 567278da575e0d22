//! Faults and attacks (issue classes of "hold under faults"): planted links in shared
//! directories, too little room, a missing tmp dir, results that cannot be written, a missing
//! /dev/null, SIGKILL, hostile host names, hostile compare inputs, a dead context1 partner, and
//! the last bad command lines. The rigs that need root (mounts, chroot, namespaces) say they
//! were skipped when the tests do not run as root.

use crate::common::*;
use crate::rigs::{busybox_root, chroot, have, host, is_root, report_in, skip, tagged};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `unixbench -i 1 -t 1 -c 1 ARGS --results <s>/results --tmpdir <s>/tmp` (the tmp dir made
/// here), cwd = the scratch dir, without the environment that names files.
fn short_run(s: &Scratch, args: &[&str]) -> Command {
    std::fs::create_dir_all(s.path().join("tmp")).unwrap();
    let mut c = ub(["-i", "1", "-t", "1", "-c", "1"]);
    c.args(args);
    c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path().join("tmp"));
    c.current_dir(s.path());
    for v in ["UB_RESULTDIR", "UB_TMPDIR", "UB_OUTPUT_FILE_NAME", "UB_OUTPUT_CSV", "TMPDIR"] {
        c.env_remove(v);
    }
    // These tests check the results JSON too, which Run's set does not hold unless asked.
    c.env("UB_OUTPUT_JSON", "true");
    c
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// The driver's `<host>-<date>` prefix of result names on this machine.
fn result_prefix() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    let host: String = host
        .trim_end_matches('\n')
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || "._-".contains(c) { c } else { '_' })
        .collect();
    let date = Command::new("date").arg("+%Y-%m-%d").output().unwrap();
    format!("{host}-{}", String::from_utf8_lossy(&date.stdout).trim())
}

/// A result line of a report, by its message.
fn has_result(report: &str, message: &str) -> bool {
    report.lines().any(|l| l.starts_with(message) && l.contains("samples)"))
}

fn no_panic(o: &Output) {
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
    assert_ne!(o.status.code(), None, "died of a signal: {:?} {}", o.status, stderr(o));
}

// ---- 1. planted links ----------------------------------------------------------------------

#[test]
fn a_planted_link_at_any_name_of_the_result_set_is_never_followed() {
    let s = Scratch::new("flt-links");
    let results = s.path().join("results");
    std::fs::create_dir(&results).unwrap();
    let target = s.path().join("precious");
    std::fs::write(&target, "keep me\n").unwrap();
    // One link per run number, each at another name of the set: 01's report, 02's .html, 03's
    // .log, 04's .json, 05's .csv (written with UB_OUTPUT_CSV=true); and a dangling one at 06.
    let p = result_prefix();
    let planted = [
        format!("{p}-01"),
        format!("{p}-02.html"),
        format!("{p}-03.log"),
        format!("{p}-04.json"),
        format!("{p}-05.csv"),
    ];
    for name in &planted {
        std::os::unix::fs::symlink(&target, results.join(name)).unwrap();
    }
    std::os::unix::fs::symlink(s.path().join("nothing-here"), results.join(format!("{p}-06"))).unwrap();
    let o = run(short_run(&s, &["-q", "syscall"]).env("UB_OUTPUT_CSV", "true"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n", "the link's target is untouched");
    assert!(!s.path().join("nothing-here").exists(), "a dangling link is not followed either");
    let mut want: Vec<String> = planted.to_vec();
    want.push(format!("{p}-06"));
    for ext in ["", ".csv", ".html", ".json", ".log"] {
        want.push(format!("{p}-07{ext}"));
    }
    want.sort();
    assert_eq!(names(&results), want, "run 07 is the first whose whole set is free");
    let report = std::fs::read_to_string(results.join(format!("{p}-07"))).unwrap();
    assert!(has_result(&report, "System Call Overhead"), "{report}");
    for name in &planted {
        assert!(std::fs::symlink_metadata(results.join(name)).unwrap().file_type().is_symlink());
    }
}

#[test]
fn a_fixed_result_name_replaces_a_planted_report_link_and_refuses_a_log_link() {
    let s = Scratch::new("flt-fixed");
    let results = s.path().join("results");
    std::fs::create_dir(&results).unwrap();
    let target = s.path().join("precious");
    std::fs::write(&target, "keep me\n").unwrap();
    // UB_OUTPUT_FILE_NAME: the report is replaced whole (the link itself, never its target).
    std::os::unix::fs::symlink(&target, results.join("mine")).unwrap();
    let o = run(short_run(&s, &["-q", "syscall"]).env("UB_OUTPUT_FILE_NAME", "mine"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
    assert!(!std::fs::symlink_metadata(results.join("mine")).unwrap().file_type().is_symlink());
    assert!(has_result(&std::fs::read_to_string(results.join("mine")).unwrap(), "System Call Overhead"));
    // Its .log grows run after run, as Run's; a link there is refused before anything runs.
    std::fs::remove_file(results.join("mine.log")).unwrap();
    std::os::unix::fs::symlink(&target, results.join("mine.log")).unwrap();
    let o = run(short_run(&s, &["-q", "syscall"]).env("UB_OUTPUT_FILE_NAME", "mine"));
    assert_usage_error(&o, "mine.log: a symbolic link, which is not followed");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
}

#[test]
fn fstime_never_follows_a_planted_link_in_its_directory() {
    let s = Scratch::new("flt-fstime");
    let target = s.path().join("precious");
    std::fs::write(&target, "keep me\n").unwrap();
    // exec keeps the shell's pid, so the link has the name fstime's file will have.
    for n in ["0", "1"] {
        let o = run(Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("ln -s \"$1\" dummy{n}-$$ && exec \"$0\" fstime -w -t 1 -s 0.01 -m 10 -d .",))
            .arg(bin())
            .arg(&target)
            .current_dir(s.path()));
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("cannot create dummy{n}-")) && err.contains("exists"), "{err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
        // The link is left as found, and no file of fstime's is left.
        let left = names(s.path());
        assert_eq!(left.len(), 2, "{left:?}");
        std::fs::remove_file(s.path().join(left.iter().find(|n| n.starts_with("dummy")).unwrap())).unwrap();
    }
}

#[test]
fn a_results_or_tmp_dir_open_to_all_without_the_sticky_bit_gets_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let s = Scratch::new("flt-perm");
    std::fs::create_dir_all(s.path().join("tmp")).unwrap();
    std::fs::create_dir_all(s.path().join("results")).unwrap();
    let mode = |p: &str, m: u32| {
        std::fs::set_permissions(s.path().join(p), std::fs::Permissions::from_mode(m)).unwrap()
    };
    mode("tmp", 0o777);
    mode("results", 0o1777);
    let o = run(&mut short_run(&s, &["-q", "syscall"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let warned: Vec<&str> = err.lines().filter(|l| l.contains("writable by other users")).collect();
    assert_eq!(warned.len(), 1, "{}", stderr(&o));
    assert!(
        warned[0].contains("tmp directory") && warned[0].contains(&*s.path().join("tmp").to_string_lossy())
    );
}

// ---- 2. a little room --------------------------------------------------------------------

/// Mounts a tmpfs of `size` on `dir` (root only); unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Tmpfs {
        Tmpfs::mount_with(dir, &format!("size={size},mode=0755"))
    }

    /// Mounts a tmpfs with mount options `opts`.
    fn mount_with(dir: &Path, opts: &str) -> Tmpfs {
        std::fs::create_dir_all(dir).unwrap();
        let st = Command::new(host("mount").unwrap())
            .args(["-t", "tmpfs", "-o", opts, "tmpfs"])
            .arg(dir)
            .status()
            .unwrap();
        assert!(st.success(), "mount tmpfs");
        Tmpfs(dir.to_path_buf())
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new(host("umount").unwrap()).arg(&self.0).status();
    }
}

#[test]
fn a_small_tmp_dir_fails_only_the_tests_that_need_its_room() {
    if !is_root() {
        return skip("small tmpfs", "needs root to mount a tmpfs");
    }
    let s = Scratch::new("flt-tmpfs");
    let _fs = Tmpfs::mount(&s.path().join("tmp"), "400k");
    // fsbuffer-w writes a 500 KB file, grep needs its 700 KB text: neither fits; syscall needs
    // no room at all.
    let o = run(&mut short_run(&s, &["syscall", "fsbuffer-w", "grep"]));
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(has_result(&out, "System Call Overhead"), "{out}");
    assert!(out.contains("** fsbuffer-w: failed: ") && out.contains("No space left"), "{out}");
    assert!(out.contains("** grep: failed: cannot write ") && out.contains("large.txt"), "{out}");
    assert_eq!(names(&s.path().join("tmp")), Vec::<String>::new(), "nothing left behind");
}

#[test]
fn a_small_file_size_limit_fails_only_the_tests_that_need_the_room() {
    // 200 blocks of 512 bytes (sh's ulimit -f unit): the reports fit, the grep text and a
    // 500 KB file do not.
    let s = Scratch::new("flt-fsize");
    std::fs::create_dir(s.path().join("tmp")).unwrap();
    let mut c = Command::new("/bin/sh");
    c.arg("-c").arg("ulimit -f 200 && exec \"$0\" \"$@\"").arg(bin());
    c.args(["-i", "1", "-t", "1", "-c", "1", "syscall", "fsbuffer-w", "grep"]);
    c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path().join("tmp"));
    c.current_dir(s.path()).env_remove("UB_OUTPUT_FILE_NAME").env_remove("UB_OUTPUT_CSV");
    c.env("UB_OUTPUT_JSON", "true");
    let o = run(&mut c);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(has_result(&out, "System Call Overhead"), "{out}");
    assert!(out.contains("** fsbuffer-w: failed: "), "{out}");
    assert!(out.contains("** grep: failed: cannot write ") && out.contains("File too large"), "{out}");
    assert_eq!(names(&s.path().join("tmp")), Vec::<String>::new(), "nothing left behind");
    let (report, _) = report_in(&s.path().join("results"));
    assert!(has_result(&report, "System Call Overhead"), "{report}");
}

// ---- 3. a missing tmp dir ------------------------------------------------------------------

#[test]
fn a_missing_tmp_dir_is_named_with_its_source_and_nothing_is_created() {
    let s = Scratch::new("flt-notmp");
    let missing = s.path().join("typo");
    for (how, needle) in [("--tmpdir", "--tmpdir"), ("UB_TMPDIR", "UB_TMPDIR"), ("TMPDIR", "TMPDIR")] {
        let mut c = ub(["-q", "-i", "1", "-t", "1", "-c", "1", "syscall"]);
        c.current_dir(s.path());
        for v in ["UB_RESULTDIR", "UB_TMPDIR", "TMPDIR"] {
            c.env_remove(v);
        }
        match how {
            "--tmpdir" => c.arg("--tmpdir").arg(&missing),
            var => c.env(var, &missing),
        };
        let o = run(&mut c);
        assert_usage_error(&o, needle);
        assert!(stderr(&o).contains(&*missing.to_string_lossy()), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
        assert_eq!(s.entries(), Vec::<String>::new(), "{how}: nothing created, not even ./results");
    }
}

// ---- 4. no result lost in silence ------------------------------------------------------------

#[test]
fn stdout_full_or_closed_is_reported_and_the_files_still_hold_the_results() {
    for how in ["full", "closed"] {
        let s = Scratch::new(&format!("flt-out-{how}"));
        let mut c = short_run(&s, &["-q", "syscall"]);
        let o = if how == "full" {
            c.stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap());
            run(&mut c)
        } else {
            // The shell closes stdout, then execs the driver.
            let mut sh = Command::new("/bin/sh");
            sh.arg("-c").arg("exec \"$@\" >&-").arg("sh").arg(c.get_program()).args(c.get_args());
            sh.current_dir(s.path());
            for (k, v) in c.get_envs() {
                match v {
                    Some(v) => sh.env(k, v),
                    None => sh.env_remove(k),
                };
            }
            run(&mut sh)
        };
        no_panic(&o);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{how}: {err}");
        assert!(err.contains("cannot write the report to stdout") && err.contains("results are in"), "{err}");
        let (report, files) = report_in(&s.path().join("results"));
        assert!(has_result(&report, "System Call Overhead"), "{how}: {report}");
        assert_eq!(files.len(), 4, "{files:?}");
        assert!(!report.contains("** Incomplete"), "{report}");
    }
    // A reader that goes away (`unixbench | head -c 10`): the run goes on and saves its files.
    let s = Scratch::new("flt-out-pipe");
    let mut child =
        short_run(&s, &["syscall"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = [0u8; 10];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot write the report to stdout: Broken pipe"), "{}", stderr(&o));
    let (report, _) = report_in(&s.path().join("results"));
    assert!(has_result(&report, "System Call Overhead"), "{report}");
    // --no-save: nowhere else to go, and it says so.
    let s = Scratch::new("flt-out-nosave");
    let o = run(short_run(&s, &["-q", "--no-save", "syscall"])
        .stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap()));
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-save: these results are lost"), "{}", stderr(&o));
}

#[test]
fn a_results_disk_that_fills_during_the_run_is_reported_and_stdout_has_the_report() {
    if !is_root() {
        return skip("full results disk", "needs root to mount a tmpfs");
    }
    let s = Scratch::new("flt-resfull");
    let results = s.path().join("results");
    let _fs = Tmpfs::mount(&results, "64k");
    let child = short_run(&s, &["-q", "syscall", "pipe"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Once the run has claimed its files, fill the disk.
    let end = Instant::now() + Duration::from_secs(10);
    while names(&results).len() < 4 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = Command::new("dd")
        .arg("if=/dev/zero")
        .arg(format!("of={}", results.join("fill").display()))
        .arg("bs=4k")
        .stderr(Stdio::null())
        .status();
    let o = child.wait_with_output().unwrap();
    no_panic(&o);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot write ") && err.contains("No space left"), "{err}");
    assert!(has_result(&out, "System Call Overhead") && has_result(&out, "Pipe Throughput"), "{out}");
    // Each file is whole: a complete earlier version, never a truncated one, and no temp file.
    for n in names(&results) {
        assert!(!n.starts_with('.'), "a temporary file is left: {n}");
        if n.ends_with(".json") {
            let j = std::fs::read_to_string(results.join(&n)).unwrap();
            assert!(j.trim_end().ends_with('}'), "{n} is cut: {j}");
        }
    }
}

#[test]
fn help_and_version_to_a_full_stdout_fail_without_a_panic() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["run", "--help"],
        &["pipe", "--help"],
        &["compare", "--help"],
        &["--list"],
    ] {
        let o = run(ub(args).stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap()));
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("cannot write to stdout: No space left"), "{args:?}: {}", stderr(&o));
    }
    let s = Scratch::new("flt-wd-full");
    let o = run(ub(["workdir"])
        .arg(s.path())
        .arg("grep")
        .stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap()));
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
}

/// compare's and lmbench's tables: a full or a closed stdout fails, saying so, as every other
/// write to stdout does (std's stdout would take a closed one for success).
#[test]
fn tables_to_a_full_or_closed_stdout_fail_without_a_panic() {
    let s = Scratch::new("flt-tables");
    let saved = s.path().join("lm.json");
    std::fs::write(
        &saved,
        r#"{"schema": "unixbench-lmbench", "schema_version": 1, "host": {"name": "h", "os": "Linux 6"},
            "figures": {"lat_syscall": 0.1}}"#,
    )
    .unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    let tables: [Vec<PathBuf>; 2] = [
        vec!["compare".into(), fixtures.join("a.json"), fixtures.join("b.json")],
        vec!["lmbench".into(), "--summary".into(), saved],
    ];
    for args in &tables {
        let o = run(ub(args).stdout(std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap()));
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("cannot write to stdout: No space left"), "{args:?}: {}", stderr(&o));
        let c = ub(args);
        let mut sh = Command::new("/bin/sh");
        sh.arg("-c").arg("exec \"$@\" >&-").arg("sh").arg(c.get_program()).args(c.get_args());
        let o = run(&mut sh);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("cannot write to stdout: Bad file descriptor"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

// ---- 5. no /dev/null -------------------------------------------------------------------------

#[test]
fn a_root_without_dev_null_skips_the_shell_tests_in_one_line_each() {
    if !is_root() {
        return skip("busybox root without /dev/null", "needs root for chroot");
    }
    let Some(root) = busybox_root("flt-nonull") else {
        return skip("busybox root without /dev/null", "no static busybox (Debian: busybox-static)");
    };
    std::fs::remove_file(root.path().join("dev/null")).unwrap();
    let o = run(chroot(root.path())
        .args(["/unixbench", "-q", "-i", "1", "-t", "1", "-c", "1", "--results", "/tmp/results"])
        .args(["--tmpdir", "/tmp", "shell1", "shell8", "pipe"])
        .env_clear()
        .env("PATH", "/bin"));
    let out = stdout(&o);
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert!(has_result(&out, "Pipe Throughput"), "{out}");
    let skips: Vec<&str> = out.lines().filter(|l| l.contains("skipped: no /dev/null")).collect();
    assert_eq!(skips.len(), 2, "{out}");
    let (report, _) = report_in(&root.path().join("tmp/results"));
    assert!(report.len() < 8000, "the report stays small: {} bytes", report.len());
}

// ---- 6. signals and SIGKILL ------------------------------------------------------------------

#[test]
fn every_catchable_terminating_signal_stops_the_run_cleanly() {
    for (sig, num) in [("USR1", 10), ("USR2", 12), ("PIPE", 13), ("ALRM", 14), ("HUP", 1), ("XCPU", 24)] {
        let s = Scratch::new(&format!("flt-sig{sig}"));
        let child = short_run(&s, &["-t", "5", "pipe", "syscall"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        let _ = Command::new("kill").arg(format!("-{sig}")).arg(child.id().to_string()).status();
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(128 + num), "SIG{sig}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("stopped by SIG{sig}")), "{}", stderr(&o));
        let (report, _) = report_in(&s.path().join("results"));
        assert!(report.contains("** Run interrupted"), "SIG{sig}: {report}");
        assert_eq!(names(&s.path().join("tmp")), Vec::<String>::new(), "SIG{sig}");
    }
}

#[test]
fn a_run_killed_by_sigkill_is_cleaned_up_by_the_next_and_its_report_says_incomplete() {
    let s = Scratch::new("flt-kill9");
    let tmp = s.path().join("tmp");
    let mut child = short_run(&s, &["-q", "syscall", "pipe", "spawn"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the first test has been saved, then kill -9 while the next runs.
    let results = s.path().join("results");
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        let (report, _) =
            if names(&results).len() >= 4 { report_in(&results) } else { (String::new(), vec![]) };
        if has_result(&report, "System Call Overhead") || Instant::now() > end {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let left = names(&tmp);
    assert_eq!(left.len(), 1, "the killed run's work directory: {left:?}");
    let (report, _) = report_in(&results);
    assert!(report.contains("** Incomplete"), "{report}");
    assert!(has_result(&report, "System Call Overhead"), "{report}");
    // The next run removes it and says so in one line.
    let o = run(&mut short_run(&s, &["-q", "syscall"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let said: Vec<&str> = err.lines().filter(|l| l.contains(&left[0])).collect();
    assert_eq!(said.len(), 1, "{}", stderr(&o));
    assert_eq!(names(&tmp), Vec::<String>::new());
}

// ---- 7. hostile host names -------------------------------------------------------------------

#[test]
fn a_fifo_in_place_of_a_host_file_reads_as_unknown_and_never_blocks() {
    if !is_root() || !have("unshare") || !have("mount") {
        return skip("FIFO host files", "needs root, unshare and mount for a private mount namespace");
    }
    let s = Scratch::new("flt-host-fifo");
    let fifo = s.path().join("fifo");
    mkfifo(&fifo);
    // In a mount namespace of its own, the FIFO over every host file there is (os-release, utmp,
    // /proc's files for the system block and the noise reading).
    let script = "for p in /etc/os-release /usr/lib/os-release /run/utmp /var/run/utmp /proc/cpuinfo \
                  /proc/uptime /proc/loadavg /proc/stat; do \
                  [ -e \"$p\" ] && { mount --bind \"$0\" \"$p\" || exit 99; }; done; exec \"$@\"";
    let mut c = Command::new(host("unshare").unwrap());
    c.args(["-m", "/bin/sh", "-c", script]).arg(&fifo).arg(bin());
    c.args(["-i", "1", "-t", "1", "-c", "1", "syscall", "--results"]).arg(s.path().join("results"));
    std::fs::create_dir(s.path().join("tmp")).unwrap();
    c.arg("--tmpdir").arg(s.path().join("tmp")).current_dir(s.path()).env_remove("UB_OUTPUT_FILE_NAME");
    let o = wait_bounded(spawn(&mut c), 60, "a run with FIFOs for host files");
    assert!(o.status.success(), "{:?} {}", o.status, stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("   System: ") && l.ends_with(": GNU/Linux")), "{out}");
    assert!(out.contains("   CPU: no details available"), "{out}");
    assert!(out.contains("   unknown; runlevel unknown\n"), "{out}");
    assert!(has_result(&out, "System Call Overhead"), "{out}");
}

#[test]
fn a_hostile_hostname_is_data_in_every_file() {
    if !is_root() || !have("unshare") {
        return skip("hostile hostname", "needs root and unshare for a private UTS namespace");
    }
    let Some(busybox) =
        ["/bin/busybox", "/usr/bin/busybox"].into_iter().map(PathBuf::from).find(|p| p.is_file())
    else {
        return skip("hostile hostname", "no busybox to set a host name with a newline");
    };
    let s = Scratch::new("flt-host");
    std::fs::create_dir(s.path().join("tmp")).unwrap();
    let o = run(Command::new(host("unshare").unwrap())
        .args(["-u", "/bin/sh", "-c"])
        .arg("\"$0\" hostname \"$(printf '../x/<b>evil\\nFAKE')\" && exec \"$@\"")
        .arg(&busybox)
        .arg(bin())
        .args(["-i", "1", "-t", "1", "-c", "1", "syscall", "--results"])
        .arg(s.path().join("results"))
        .arg("--tmpdir")
        .arg(s.path().join("tmp"))
        .current_dir(s.path())
        .env_remove("UB_OUTPUT_FILE_NAME")
        .env("UB_OUTPUT_JSON", "true"));
    assert!(o.status.success(), "{}", stderr(&o));
    // The line break is shown escaped (`\n`), as every control character is.
    let files = names(&s.path().join("results"));
    assert_eq!(files.len(), 4, "{files:?}");
    for f in &files {
        assert!(f.starts_with("_._x__b_evil_nFAKE-"), "{f}");
    }
    let base = s.path().join("results").join(
        files.iter().find(|f| !f.contains(".html") && !f.contains(".json") && !f.contains(".log")).unwrap(),
    );
    let report = std::fs::read_to_string(&base).unwrap();
    assert!(report.contains("   System: ../x/<b>evil\\nFAKE: "), "{report}");
    assert!(!report.lines().any(|l| l.starts_with("FAKE")), "{report}");
    let html = std::fs::read_to_string(format!("{}.html", base.display())).unwrap();
    assert!(html.contains("../x/&lt;b&gt;evil\\nFAKE") && !html.contains("<b>evil"), "{html}");
    let json = std::fs::read_to_string(format!("{}.json", base.display())).unwrap();
    assert!(json.contains("\"hostname\": \"../x/<b>evil\\\\nFAKE\""), "{json}");
    assert!(stdout(&o).contains("   System: ../x/<b>evil\\nFAKE: "));
}

// ---- 8. compare's inputs ---------------------------------------------------------------------

#[test]
fn compare_refuses_what_it_cannot_hold() {
    let s = Scratch::new("flt-cmp");
    let big = s.path().join("big.json");
    std::fs::File::create(&big).unwrap().set_len(65 << 20).unwrap();
    let fifo = s.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for (file, needle) in [
        (big.clone(), "larger than the 64 MiB"),
        (PathBuf::from("/dev/zero"), "not a regular file"),
        (fifo, "not a regular file"),
        (s.path().to_path_buf(), "a directory"),
    ] {
        let o = run(ub(["compare"]).arg(&file));
        assert_usage_error(&o, needle);
    }
    let o = run(&mut ub(["compare", ""]));
    assert_usage_error(&o, "compare: '': ");
    let o = run(&mut ub(["compare", "--help"]));
    assert!(stdout(&o).contains("64 MiB"), "the cap is stated in --help");
    // Numbers beyond what their field can hold.
    for (field, value) in [("copies", "1e300"), ("score", "1e999")] {
        let j = format!(
            "{{\"schema\": \"unixbench-results\", \"schema_version\": 1, \"runs\": [{{\"copies\": {c}, \
             \"results\": [{{\"message\": \"Pipe Throughput\", \"score\": {sc}}}]}}]}}",
            c = if field == "copies" { value } else { "1" },
            sc = if field == "score" { value } else { "5" },
        );
        let f = s.path().join(format!("{field}.json"));
        std::fs::write(&f, j).unwrap();
        let o = run(ub(["compare"]).arg(&f).arg(&f));
        // A score beyond a double is refused by the JSON reader; copies beyond -c's range here.
        let needle =
            if field == "copies" { "\"copies\" is beyond what the field can hold" } else { "too large" };
        assert_usage_error(&o, needle);
    }
}

// ---- 9. a dead context1 partner --------------------------------------------------------------

#[test]
fn a_killed_context1_partner_fails_the_copy() {
    let child = ub(["context1", "10"]).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let children = format!("/proc/{0}/task/{0}/children", child.id());
    let end = Instant::now() + Duration::from_secs(10);
    let partner = loop {
        let c = std::fs::read_to_string(&children).unwrap_or_default();
        if let Some(p) = c.split_whitespace().next() {
            break p.to_string();
        }
        assert!(Instant::now() < end, "no partner process");
        std::thread::sleep(Duration::from_millis(10));
    };
    std::thread::sleep(Duration::from_millis(300));
    let _ = Command::new("kill").args(["-KILL", &partner]).status();
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("context1: the partner process was killed by signal 9"), "{err}");
    assert!(!err.contains("COUNT|"), "no sample: {err}");
}

// ---- 10. the remaining bad command lines -----------------------------------------------------

#[test]
fn the_last_bad_command_lines_are_one_line_and_exit_2() {
    let s = Scratch::new("flt-bad");
    for (args, needle) in [
        (&["--list", "x"][..], "'x'"),
        (&["--version", "x"], "'x'"),
        (&["--help", "extra"], "'extra'"),
        (&["fstime", "-d", "/nonexistent-ub-dir", "-t", "1"], "'/nonexistent-ub-dir'"),
        (&["fstime", "-w", "-r"], "-w and -r"),
        (&["run", "--results", "", "syscall"], "''"),
        (&["run", "--tmpdir", "", "syscall"], "''"),
    ] {
        let o = run(ub(args).current_dir(s.path()).env_remove("UB_TMPDIR").env_remove("TMPDIR"));
        assert_usage_error(&o, needle);
        assert_eq!(s.entries(), Vec::<String>::new(), "{args:?}");
    }
    let o = run(&mut ub(["looper", "1", "/nonexistent-ub-cmd"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("looper: ") && stderr(&o).contains("No such file"), "{}", stderr(&o));
    // A kernel's argument is data: a newline in it is escaped, and the error stays one line.
    let o = run(&mut ub(["looper", "1", "/nonexistent-ub\nFAKE"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("/nonexistent-ub\\nFAKE"), "{}", stderr(&o));
}

#[test]
fn install_twice_replaces_its_own_links_and_skips_anything_else() {
    let s = Scratch::new("flt-install");
    for symbolic in [true, false] {
        let dir = s.path().join(if symbolic { "sym" } else { "hard" });
        std::fs::create_dir(&dir).unwrap();
        let install = || {
            let mut c = ub(["--install"]);
            if symbolic {
                c.arg("-s");
            }
            run(c.arg(&dir))
        };
        for _ in 0..2 {
            let o = install();
            assert!(o.status.success(), "{}", stderr(&o));
        }
        assert!(dir.join("pipe").exists());
        std::fs::remove_file(dir.join("pipe")).unwrap();
        std::fs::remove_file(dir.join("syscall")).unwrap();
        std::fs::write(dir.join("pipe"), "mine\n").unwrap();
        // What is in the way is skipped with a line and exit status 1; the rest is linked.
        let o = install();
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.lines().next().unwrap().contains(&format!("skipped {}", dir.join("pipe").display())),
            "{err}"
        );
        assert!(err.lines().last().unwrap().contains("1 name was in the way"), "{err}");
        assert_eq!(std::fs::read_to_string(dir.join("pipe")).unwrap(), "mine\n");
        assert!(
            dir.join("syscall").exists() && stdout(&o).contains(&dir.join("syscall").display().to_string())
        );
    }
}

#[test]
fn a_result_name_from_the_environment_cannot_leave_the_results_directory() {
    for name in ["../../escaped", "/tmp/elsewhere-by-name", "..", "two\nlines"] {
        let s = Scratch::new("flt-name");
        let o = run(short_run(&s, &["-q", "syscall"]).env("UB_OUTPUT_FILE_NAME", name));
        assert_usage_error(&o, "invalid UB_OUTPUT_FILE_NAME");
        // Nothing was made: no results directory, nothing beside or above the scratch.
        assert!(!s.path().join("results").exists(), "{name:?}");
        assert!(!s.path().parent().unwrap().join("escaped").exists());
    }
}

// ---- 11. round three: nothing blocks, nothing escapes, nothing waits for ever ---------------

fn mkfifo(p: &Path) {
    assert!(Command::new("mkfifo").arg(p).status().unwrap().success(), "mkfifo {}", p.display());
}

/// Waits for `child` at most `secs` seconds, a bound on liveness (not a measure): a child
/// still running then is killed and the test fails, saying `what` hung.
fn wait_bounded(mut child: std::process::Child, secs: u64, what: &str) -> Output {
    let end = Instant::now() + Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > end {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn spawn(c: &mut Command) -> std::process::Child {
    c.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
}

#[test]
fn a_fifo_at_any_result_path_is_refused_and_sigterm_ends_the_run() {
    let s = Scratch::new("flt-fifo");
    let results = s.path().join("results");
    std::fs::create_dir(&results).unwrap();
    let json = s.path().join("out.json");
    for planted in ["x", "x.html", "x.log", "x.json", "x.csv", "--json"] {
        let path = if planted == "--json" { json.clone() } else { results.join(planted) };
        mkfifo(&path);
        let mut c = short_run(&s, &["-q", "syscall"]);
        c.env("UB_OUTPUT_FILE_NAME", "x").env("UB_OUTPUT_CSV", "true");
        if planted == "--json" {
            c.arg(format!("--json={}", json.display()));
        }
        let o = wait_bounded(spawn(&mut c), 30, planted);
        assert_usage_error(&o, &path.display().to_string());
        let kept = std::fs::symlink_metadata(&path).unwrap().file_type();
        assert!(std::os::unix::fs::FileTypeExt::is_fifo(&kept), "{planted}: the FIFO is left as it was");
        std::fs::remove_file(&path).unwrap();
        assert_eq!(names(&results), Vec::<String>::new(), "{planted}: nothing was created");
    }
    // At a numbered name a FIFO is a name taken: the run takes the next number, never waiting.
    let p = result_prefix();
    for planted in [format!("{p}-01.log"), format!("{p}-02")] {
        mkfifo(&results.join(planted));
    }
    let mut c = short_run(&s, &["-q", "syscall"]);
    let o = wait_bounded(spawn(c.env("UB_OUTPUT_CSV", "true")), 60, "a run beside FIFOs");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(has_result(&std::fs::read_to_string(results.join(format!("{p}-03"))).unwrap(), "System Call"));
    names(&results).iter().for_each(|n| std::fs::remove_file(results.join(n)).unwrap());
    // SIGTERM once the driver catches it (or has ended): the run ends, never held in an open.
    mkfifo(&results.join("x.log"));
    let mut c = short_run(&s, &["-q", "syscall"]);
    let mut child = spawn(c.env("UB_OUTPUT_FILE_NAME", "x"));
    while !catches_term(child.id()) && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
    let o = wait_bounded(child, 30, "the run after SIGTERM");
    no_panic(&o);
    assert!(matches!(o.status.code(), Some(2 | 143)), "{:?} {}", o.status, stderr(&o));
}

/// Whether process `pid` has its SIGTERM handler installed (`SigCgt` in /proc).
fn catches_term(pid: u32) -> bool {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let mask = status.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim).unwrap_or("0");
    u64::from_str_radix(mask, 16).unwrap_or(0) & (1 << (15 - 1)) != 0
}

/// What the kernel says process `pid` sleeps in (`/proc/PID/wchan`).
fn wchan(pid: u32) -> String {
    std::fs::read_to_string(format!("/proc/{pid}/wchan")).unwrap_or_default()
}

#[test]
fn sigterm_ends_a_run_whose_stderr_nobody_reads() {
    // Our words on stderr; under -q the report on stdout is all there is.
    for quiet in [false, true] {
        let s = Scratch::new("flt-full-console");
        let fifo = s.path().join("console");
        mkfifo(&fifo);
        // The reader end, held open and never read; then the pipe filled to the brim by a
        // writer that stays blocked in it.
        let _reader = std::fs::OpenOptions::new().read(true).write(true).open(&fifo).unwrap();
        let writer = || std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
        let mut filler = Command::new("cat").arg("/dev/zero").stdout(writer()).spawn().unwrap();
        let end = Instant::now() + Duration::from_secs(20);
        while !wchan(filler.id()).contains("pipe_write") {
            assert!(Instant::now() < end, "the pipe never filled");
            std::thread::sleep(Duration::from_millis(5));
        }
        let tag = format!("UB_IT_TAG=full-console-{quiet}-{}", std::process::id());
        let (k, v) = tag.split_once('=').unwrap();
        let mut c = short_run(&s, if quiet { &["-q", "syscall", "pipe"] } else { &["syscall", "pipe"] });
        c.env(k, v).stdin(Stdio::null());
        let (out, err) = if quiet {
            (writer(), Stdio::null())
        } else {
            (std::fs::File::create("/dev/null").unwrap(), writer().into())
        };
        let mut child = c.stdout(out).stderr(err).spawn().unwrap();
        while !catches_term(child.id()) && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(5));
        }
        // Let it reach its first words, where it blocks (its stop path writes there too).
        std::thread::sleep(Duration::from_millis(300));
        let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
        let o = wait_bounded(child, 20, &format!("a run stopped with its console full (-q: {quiet})"));
        let _ = filler.kill();
        let _ = filler.wait();
        assert_eq!(o.status.code(), Some(143), "{:?}", o.status);
        assert_eq!(names(&s.path().join("tmp")), Vec::<String>::new(), "the work directory is removed");
        assert!(tagged(&tag).is_empty(), "stray processes: {:?}", tagged(&tag));
        let report =
            names(&s.path().join("results")).into_iter().find(|n| !n.contains('.')).expect("a report");
        let text = std::fs::read_to_string(s.path().join("results").join(report)).unwrap();
        assert!(text.contains("Benchmark Run: "), "the report is kept: {text}");
    }
}

#[test]
fn lmbench_under_a_memory_limit_says_so_in_one_line_and_leaves_nothing() {
    let s = Scratch::new("flt-lmb-ulimit");
    // 8 MiB of address space in all: the main-memory ring alone is at least that.
    let o = run(Command::new("sh")
        .args(["-c", "ulimit -v 8192 && exec \"$@\"", "sh"])
        .arg(bin())
        .args(["lmbench", "--short", "--only", "lat_mem", "--dir"])
        .arg(s.path()));
    no_panic(&o);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().filter(|l| l.contains("out of memory")).count(), 1, "{err}");
    assert!(!err.contains("memory allocation of"), "{err}");
    assert_eq!(s.entries(), Vec::<String>::new(), "the scratch directory is removed");
}

#[test]
fn compare_under_a_memory_limit_says_so_in_one_line() {
    let s = Scratch::new("flt-cmp-ulimit");
    let big = s.path().join("big.json");
    std::fs::write(&big, vec![b' '; 20 << 20]).unwrap();
    // 16 MiB of address space in all: the file's 20 MiB cannot be had.
    let o = run(Command::new("sh")
        .args(["-c", "ulimit -v 16384 && exec \"$@\"", "sh"])
        .arg(bin())
        .arg("compare")
        .args([&big, &big]));
    no_panic(&o);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a memory limit?"), "{err}");
}

#[test]
fn lmbench_never_follows_a_link_nor_waits_on_a_fifo_at_its_json() {
    let s = Scratch::new("flt-lmb-json");
    let target = s.path().join("precious");
    std::fs::write(&target, "keep me\n").unwrap();
    let link = s.path().join("link.json");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let fifo = s.path().join("fifo.json");
    mkfifo(&fifo);
    for (file, needle) in [(&link, "a symbolic link, which is not followed"), (&fifo, "FIFO")] {
        let mut c = ub(["lmbench", "--short", "--only", "lat_syscall", "--json"]);
        let o = wait_bounded(spawn(c.arg(file).arg("--dir").arg(s.path())), 30, "lmbench --json");
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains(&*file.to_string_lossy()) && err.contains(needle), "{err}");
    }
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep me\n");
}

/// The children of process `pid`, from /proc.
fn children_of(pid: u32) -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(child) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse().ok());
        if ppid == Some(pid) {
            v.push(child);
        }
    }
    v
}

/// Starts `c` and sends its first child (the pass's copy) `sig`; returns the run and the copy.
fn signal_the_copy(c: &mut Command, sig: &str) -> (std::process::Child, u32) {
    let child = spawn(c);
    let end = Instant::now() + Duration::from_secs(30);
    let copy = loop {
        if let Some(&p) = children_of(child.id()).first() {
            break p;
        }
        assert!(Instant::now() < end, "no copy started");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert!(Command::new("kill").arg(sig).arg(copy.to_string()).status().unwrap().success());
    (child, copy)
}

#[test]
fn a_stopped_copy_is_ended_by_the_watchdog_with_its_reason_and_nothing_is_left() {
    let s = Scratch::new("flt-stop");
    let (child, copy) = signal_the_copy(short_run(&s, &["syscall"]).env("UB_WATCHDOG_MARGIN", "2"), "-STOP");
    let o = wait_bounded(child, 60, "a run with a stopped copy");
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert!(out.contains("** syscall: failed: copy 1 stopped (SIGSTOP) for "), "{out}");
    assert!(out.contains("did not finish within 5 s, so every copy was killed"), "{out}");
    assert!(err.contains("aborting"), "{err}");
    assert!(!Path::new(&format!("/proc/{copy}")).exists(), "the stopped copy is gone");
    assert_eq!(names(&s.path().join("tmp")), Vec::<String>::new(), "nothing left behind");
    // Stopped and continued well within the margin: no failure.
    let (child, copy) = signal_the_copy(short_run(&s, &["syscall"]).env("UB_WATCHDOG_MARGIN", "60"), "-STOP");
    std::thread::sleep(Duration::from_millis(300));
    assert!(Command::new("kill").arg("-CONT").arg(copy.to_string()).status().unwrap().success());
    let o = wait_bounded(child, 60, "a run with a copy stopped and continued");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(has_result(&stdout(&o), "System Call Overhead"), "{}", stdout(&o));
    // The margin is checked like any other input.
    let o = run(short_run(&s, &["syscall"]).env("UB_WATCHDOG_MARGIN", "soon"));
    assert_usage_error(&o, "invalid UB_WATCHDOG_MARGIN 'soon'");
}

#[test]
fn ub_noise_is_off_or_on_and_nothing_else() {
    let s = Scratch::new("flt-noise-word");
    for bad in ["of", "OFF", "0", "off\nFAKE"] {
        let o = run(short_run(&s, &["syscall"]).env("UB_NOISE", bad));
        assert_usage_error(&o, "invalid UB_NOISE '");
        assert_eq!(names(&s.path().join("tmp")), Vec::<String>::new(), "{bad}: nothing made");
        assert!(!s.path().join("results").exists(), "{bad}: nothing made");
    }
    let o = run(short_run(&s, &["--dry-run", "syscall"]).env("UB_NOISE", "on"));
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn compare_holds_figures_to_a_physical_bound_and_cuts_long_strings() {
    let s = Scratch::new("flt-bounds");
    let json = |version: &str, score: &str, index: &str| {
        format!(
            "{{\"schema\": \"unixbench-results\", \"schema_version\": 1, \"version\": \"{version}\", \
             \"runs\": [{{\"copies\": 1, \"results\": [{{\"message\": \"Pipe Throughput\", \"score\": {score}, \
             \"index\": {index}}}]}}]}}"
        )
    };
    for (name, text) in [("score.json", json("6.0", "1e308", "5")), ("index.json", json("6.0", "5", "1e23"))]
    {
        let f = s.path().join(name);
        std::fs::write(&f, text).unwrap();
        let o = run(ub(["compare"]).arg(&f).arg(&f));
        assert_usage_error(&o, "beyond any machine's figures (the bound is 1e15)");
        assert!(stderr(&o).contains(name), "{}", stderr(&o));
    }
    // A text report's score, the C suite's own.
    let c = std::fs::read_to_string(fixture("c-unixbench.txt")).unwrap();
    let f = s.path().join("huge.txt");
    std::fs::write(&f, c.replace("78540503.4 lps", "1e308 lps")).unwrap();
    let o = run(ub(["compare"]).arg(&f).arg(&f));
    assert_usage_error(&o, "'Dhrystone 2 using register variables' reads 1e308");
    // A 1 MB version string: cut, and said once.
    let f = s.path().join("long.json");
    std::fs::write(&f, json(&"v".repeat(1 << 20), "5", "5")).unwrap();
    let o = run(ub(["compare"]).arg(&f).arg(&f));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().filter(|l| l.contains("version cut at 100 characters")).count(), 2);
    assert!(stderr(&o).contains("long.json"));
    assert!(stdout(&o).len() < 10_000, "{} bytes", stdout(&o).len());
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare").join(name)
}

#[test]
fn every_limit_of_a_pass_is_checked_before_any_directory_is_made() {
    if !is_root() {
        return skip("inode-poor tmpfs", "needs root to mount a tmpfs");
    }
    let s = Scratch::new("flt-limits");
    // Room for 40 directories: a pass that made its copies' first would fail at the 40th.
    let _fs = Tmpfs::mount_with(&s.path().join("tmp"), "size=1m,nr_inodes=40,mode=0755");
    for (limit, needle) in [
        ("", "inodes free"),
        ("ulimit -n 64; ", "open files, but the limit is 64"),
        ("ulimit -u 50; ", "the process limit is 50"),
    ] {
        let c = short_run(&s, &["-q", "-c", "100", "syscall"]);
        let argv: Vec<String> = std::iter::once(c.get_program())
            .chain(c.get_args())
            .map(|a| format!("'{}'", a.to_string_lossy()))
            .collect();
        // bash: dash's ulimit has no -u.
        let Some(bash) = host("bash") else { return skip("process limit", "needs bash for ulimit -u") };
        let mut sh = Command::new(bash);
        sh.arg("-c").arg(format!("{limit}exec {}", argv.join(" "))).current_dir(s.path());
        for (k, v) in c.get_envs() {
            match v {
                Some(v) => sh.env(k, v),
                None => sh.env_remove(k),
            };
        }
        let o = run(&mut sh);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{out}\n{}", stderr(&o));
        assert!(out.contains("** syscall: failed: ") && out.contains(needle), "{limit}: {out}");
        assert!(!out.contains("cannot make the directory"), "{out}");
    }
}

#[test]
fn a_second_run_given_the_same_result_name_refuses_while_the_first_writes() {
    let s = Scratch::new("flt-twice");
    let results = s.path().join("results");
    let mut first = ub(["-q", "-i", "3", "-t", "2", "syscall", "--results"]);
    first.arg(&results).arg("--tmpdir").arg(s.path().join("tmp")).env("UB_OUTPUT_FILE_NAME", "x");
    std::fs::create_dir_all(s.path().join("tmp")).unwrap();
    let child = spawn(&mut first);
    let end = Instant::now() + Duration::from_secs(30);
    while !results.join("x").exists() {
        assert!(Instant::now() < end, "the first run made no report");
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = run(short_run(&s, &["-q", "syscall"]).env("UB_OUTPUT_FILE_NAME", "x"));
    assert_usage_error(&o, "in use by another run given the same UB_OUTPUT_FILE_NAME");
    let o = wait_bounded(child, 120, "the first run");
    assert!(o.status.success(), "{}", stderr(&o));
    let report = std::fs::read_to_string(results.join("x")).unwrap();
    assert!(has_result(&report, "System Call Overhead"), "{report}");
}

#[test]
fn a_path_with_a_newline_is_shown_escaped_in_one_line() {
    let s = Scratch::new("flt-nl-path");
    let odd = s.path().join("no\nsuch");
    for args in [
        vec!["-q".into(), "syscall".into(), "--tmpdir".into(), odd.clone().into_os_string()],
        vec!["compare".into(), odd.clone().into_os_string()],
        vec!["--install".into(), odd.clone().into_os_string()],
        vec!["lmbench".into(), "--summary".into(), odd.clone().into_os_string()],
    ] {
        let o = run(ub(&args).current_dir(s.path()));
        assert_usage_error(&o, "no\\nsuch");
    }
    assert_eq!(s.entries(), Vec::<String>::new(), "nothing was made");
}
