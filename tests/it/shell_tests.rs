//! looper and the tests it drives with the host's programs: the shell scripts (shell1/8/16),
//! the C compiler, dc and grep, with the files that the `workdir` applet writes.

use crate::common::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The files `workdir DIR` writes; nothing else may be left in DIR after a test.
const DATA_FILES: &[&str] = &["cctest.c", "dc.dat", "large.txt", "multi.sh", "sort.src", "tst.sh"];

fn workdir(tag: &str) -> Scratch {
    let dir = Scratch::new(tag);
    let o = run(&mut ub([std::ffi::OsStr::new("workdir"), dir.path().as_os_str()]));
    assert!(o.status.success(), "workdir: {}", stderr(&o));
    assert_eq!(stdout(&o), "");
    dir
}

fn has_program(name: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {name}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The one COUNT line of a looper run: its count, after checking the timebase and unit.
fn lpm_count(err: &str) -> u64 {
    let c = counts(err);
    assert_eq!(c.len(), 1, "one COUNT line: {err:?}");
    assert_eq!((c[0].1, c[0].2.as_str()), (60, "lpm"), "{err:?}");
    c[0].0 as u64
}

#[test]
fn looper_counts_runs_of_a_command_and_exits_0() {
    let o = run(&mut ub(["looper", "1", "true"]));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(lpm_count(&err) > 0);
    assert_eq!(err.lines().count(), 1, "{err:?}");
    assert_eq!(stdout(&o), "");
}

#[test]
fn looper_reports_a_command_that_does_not_exec() {
    let o = run(&mut ub(["looper", "1", "ub-no-such-command-x"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "looper: Command \"ub-no-such-command-x\" didn't exec: No such file or directory\n"
    );
}

#[test]
fn looper_reports_a_failing_command_by_its_wait_status() {
    let o = run(&mut ub(["looper", "1", "false"]));
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "Bad wait status: 0x100\n");
}

#[test]
fn looper_refuses_bad_command_lines() {
    assert_usage_error(&run(&mut ub(["looper"])), "missing duration");
    assert_usage_error(&run(&mut ub(["looper", "0", "true"])), "invalid duration '0'");
    assert_usage_error(&run(&mut ub(["looper", "ten", "true"])), "invalid duration 'ten'");
    assert_usage_error(&run(&mut ub(["looper", "5"])), "missing command");
    assert_usage_error(
        &run(&mut ub(["looper", "-i", "/nonexistent/in", "1", "cat"])),
        "cannot open input file",
    );
    assert_usage_error(&run(&mut ub(["looper", "-i", "/dev/stdin", "1", "cat"])), "not a regular file");
}

/// `-i FILE` gives every iteration the whole file, where a plain stdin redirection (the C
/// suite's dc test) gives it only to the first.
#[test]
fn looper_input_option_feeds_every_iteration() {
    let dir = Scratch::new("looper-i");
    let input = dir.path().join("in");
    std::fs::write(&input, "hello\n").unwrap();
    let outf = dir.path().join("out");
    let o = ub(["looper".as_ref(), "-i".as_ref(), input.as_os_str(), "1".as_ref(), "cat".as_ref()])
        .stdout(std::fs::File::create(&outf).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let n = lpm_count(&stderr(&o));
    let out = std::fs::read_to_string(&outf).unwrap();
    assert!(n > 1, "{n}");
    assert!(out.lines().all(|l| l == "hello"), "{out:?}");
    // The in-flight cat, if any, finished before output() saw EOF on stderr.
    assert!((n..=n + 1).contains(&(out.lines().count() as u64)), "{n} runs, output {out:?}");

    // The C form: stdin redirected once, shared by every child.
    let o = ub(["looper", "1", "cat"])
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(std::fs::File::create(&outf).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(lpm_count(&stderr(&o)) > 1);
    assert_eq!(std::fs::read_to_string(&outf).unwrap(), "hello\n");
}

#[test]
fn workdir_writes_the_data_files_with_the_originals_statistics() {
    let a = workdir("wd-a");
    assert_eq!(a.entries(), DATA_FILES);
    let large = std::fs::read(a.path().join("large.txt")).unwrap();
    let text = std::str::from_utf8(&large).unwrap();
    assert_eq!(large.len(), 708_495);
    assert_eq!(text.lines().count(), 10_000);
    assert_eq!(text.split_ascii_whitespace().count(), 61_664);
    assert_eq!(text.lines().filter(|l| l.contains("gimp")).count(), 1_032);
    let sort = std::fs::read_to_string(a.path().join("sort.src")).unwrap();
    assert_eq!((sort.len(), sort.lines().count(), sort.split_ascii_whitespace().count()), (8546, 362, 1200));
    assert_eq!(sort.lines().filter(|l| l.contains("the")).count(), 35);
    let b = workdir("wd-b");
    for f in DATA_FILES {
        assert_eq!(std::fs::read(a.path().join(f)).unwrap(), std::fs::read(b.path().join(f)).unwrap(), "{f}");
    }
    assert_usage_error(&run(&mut ub(["workdir"])), "missing directory");
    assert_usage_error(&run(&mut ub(["workdir", "/nonexistent/dir"])), "not a directory");
    assert_usage_error(&run(&mut ub(["workdir", "/tmp", "bogus"])), "unknown test 'bogus'");
}

#[test]
fn workdir_prints_each_tests_command_line() {
    let dir = workdir("wd-cmd");
    let d = dir.path().to_str().unwrap();
    let argv = |test: &str| {
        let o = run(&mut ub(["workdir", d, test]));
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    if has_program("sort") && has_program("od") && has_program("tee") {
        assert_eq!(argv("shell8"), "looper\n60\n./multi.sh\n8\n");
    }
    assert_eq!(argv("sysexec"), "syscall\n10\nexec\n");
    if has_program("grep") {
        assert_eq!(argv("grep"), "looper\n30\ngrep\n-c\ngimp\nlarge.txt\n");
    }
    let o = run(&mut ub(["workdir", d, "dc", "5"]));
    let expect = if has_program("dc") {
        "looper\n-i\ndc.dat\n5\ndc\n".to_string()
    } else {
        "skipped: no 'dc' program found in PATH\n".into()
    };
    assert_eq!(stdout(&o), expect);
}

#[test]
fn a_missing_program_gives_a_skip_line() {
    let dir = workdir("wd-skip");
    let empty = Scratch::new("empty-path");
    for (test, line) in [
        ("dc", "skipped: no 'dc' program found in PATH"),
        ("grep", "skipped: no 'grep' program found in PATH"),
        ("C", "skipped: no 'cc' or 'gcc' program found in PATH"),
        ("shell1", "skipped: no 'sort' program found in PATH"),
    ] {
        let o = run(ub([std::ffi::OsStr::new("workdir"), dir.path().as_os_str(), test.as_ref()])
            .env("PATH", empty.path()));
        assert!(o.status.success(), "{test}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("{line}\n"), "{test}");
    }
    assert_eq!(dir.entries(), DATA_FILES);
}

/// Pids of the live (not zombie) processes in process group `pgid`, from /proc.
fn group_members(pgid: u32) -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else { continue };
        // Fields after "(comm)": state, ppid, pgrp.
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() > 2 && f[2] == pgid.to_string() && f[0] != "Z" {
            v.push(pid);
        }
    }
    v
}

/// Waits up to `secs` for `done` to hold, polling.
fn eventually(secs: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

fn shell_tools_present() -> bool {
    ["sort", "od", "grep", "tee", "wc", "rm"].iter().all(|p| has_program(p)) && Path::new("/bin/sh").exists()
}

#[test]
fn shell1_runs_and_leaves_only_the_data_files() {
    if !shell_tools_present() {
        eprintln!("shell1 test not run: this host lacks a program of the shell test");
        return;
    }
    let dir = workdir("shell1");
    let multi = dir.path().join("multi.sh");
    let o = ub(["looper".as_ref(), "2".as_ref(), multi.as_os_str(), "1".as_ref()])
        .current_dir(dir.path())
        .env("LANG", "en_US.utf8")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(lpm_count(&err) > 0, "{err}");
    // output() returned at EOF on stderr, so the in-flight iteration has finished too.
    assert_eq!(dir.entries(), DATA_FILES);
}

#[test]
fn interrupted_shell8_leaves_no_files_and_no_processes() {
    if !shell_tools_present() {
        eprintln!("shell8 test not run: this host lacks a program of the shell test");
        return;
    }
    use std::os::unix::process::CommandExt;
    // A harness started in the background by a non-interactive shell has SIGINT ignored, and
    // looper (as the C one) would inherit that: the test is of Ctrl-C's default action.
    base::sys::signal::default(libc::SIGINT).unwrap();
    let dir = workdir("shell8-int");
    let multi = dir.path().join("multi.sh");
    let mut child = ub(["looper".as_ref(), "60".as_ref(), multi.as_os_str(), "8".as_ref()])
        .current_dir(dir.path())
        .process_group(0)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pgid = child.id();
    std::thread::sleep(Duration::from_secs(1));
    assert!(!group_members(pgid).is_empty());
    let k = Command::new("sh").args(["-c", &format!("kill -INT -{pgid}")]).status().unwrap();
    assert!(k.success());
    let status = child.wait().unwrap();
    assert!(!status.success(), "looper ends on SIGINT");
    // The tst.sh copies run as background jobs, which the shell starts with SIGINT ignored:
    // they finish their pipeline and remove their files.
    assert!(eventually(10, || group_members(pgid).is_empty()), "left running: {:?}", group_members(pgid));
    assert!(eventually(2, || dir.entries() == DATA_FILES), "left behind: {:?}", dir.entries());
}

#[test]
fn c_compiler_test_compiles_without_a_word_on_stderr() {
    let cc = ["cc", "gcc"].into_iter().find(|c| has_program(c));
    let Some(cc) = cc else {
        eprintln!("C test not run: no cc or gcc");
        return;
    };
    let dir = workdir("cc");
    let o = Command::new(cc)
        .args(["-Wall", "-Wextra", "-pedantic", "-c", "cctest.c"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(o.status.success() && o.stderr.is_empty(), "{cc}: {}", stderr(&o));
    let o = ub(["looper", "2", cc, "cctest.c"]).current_dir(dir.path()).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(lpm_count(&err) > 0);
    assert!(dir.path().join("a.out").is_file());
}

#[test]
fn dc_test_gets_its_input_every_time() {
    if !has_program("dc") {
        eprintln!("dc test not run: no dc");
        return;
    }
    let dir = workdir("dc");
    let d = dir.path().to_str().unwrap();
    let o = run(&mut ub(["workdir", d, "dc", "1"]));
    let argv: Vec<String> = stdout(&o).lines().map(String::from).collect();
    let o = ub(&argv).current_dir(dir.path()).output().unwrap();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let n = lpm_count(&err);
    let roots = stdout(&o).matches("1.41421356237309504880").count() as u64;
    assert!(n > 1 && (n..=n + 1).contains(&roots), "{n} runs, {roots} results");
}

#[test]
fn grep_test_counts_the_gimp_lines() {
    if !has_program("grep") {
        eprintln!("grep test not run: no grep");
        return;
    }
    let dir = workdir("grep");
    let d = dir.path().to_str().unwrap();
    let o = run(&mut ub(["workdir", d, "grep", "1"]));
    let argv: Vec<String> = stdout(&o).lines().map(String::from).collect();
    let o = ub(&argv).current_dir(dir.path()).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let n = lpm_count(&stderr(&o));
    let out = stdout(&o);
    assert!(n > 0 && out.lines().all(|l| l == "1032"), "{out:?}");
}

/// A program that is not the real one (a stub ahead in PATH) fails its test before any timed
/// pass, naming it; the host's own programs pass the same check.
#[test]
fn a_stub_program_fails_its_test_before_timing() {
    let fake = Scratch::new("fake-tools");
    for (name, body) in
        [("grep", "echo 1"), ("dc", "echo 1.4"), ("cc", "exit 0"), ("gcc", "exit 0"), ("sort", "exec cat")]
    {
        let p = fake.path().join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", fake.path().display(), std::env::var("PATH").unwrap_or_default());
    let args = ["--no-save", "-q", "-i", "1", "-t", "1", "-c", "1", "grep", "dc", "C", "shell1"];
    let o = run(ub(args).env("PATH", &path));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    for (test, stub) in [("grep", "grep"), ("dc", "dc"), ("C", "cc"), ("shell1", "sort")] {
        let line =
            format!("** {test}: failed: {}/{stub} is not the program this test times", fake.path().display());
        assert!(out.contains(&line), "{line}\n{out}");
    }
    assert!(
        out.contains("it gave '1' where 1032 (the lines of large.txt holding 'gimp') was expected"),
        "{out}"
    );
    let present: Vec<&str> = [("grep", "grep"), ("dc", "dc"), ("C", "cc"), ("shell1", "sort")]
        .into_iter()
        .filter(|(_, p)| has_program(p))
        .map(|(t, _)| t)
        .collect();
    let o = run(&mut ub(["--no-save", "-q", "-i", "1", "-t", "1", "-c", "1"].iter().chain(&present)));
    assert!(o.status.success() && !stdout(&o).contains("failed"), "{}{}", stdout(&o), stderr(&o));
}
