//! `--semantics 5.1.3` (`UB_SEMANTICS=5.1.3` for the applets): each difference from 6.0.0's
//! semantics shown where it acts, and every output naming the semantics
//! (docs/ORIGINAL.md, "5.1.3 semantics").

use crate::common::*;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `unixbench ARGS` as an applet under 5.1.3's semantics, or 6.0.0's (the variable removed).
fn applet(args: &[&str], v513: bool) -> Command {
    let mut c = ub(args);
    if v513 {
        c.env("UB_SEMANTICS", "5.1.3");
    } else {
        c.env_remove("UB_SEMANTICS");
    }
    c
}

/// Every name seen in `dir` while `children` run, polled until all of them have exited.
fn names_while_running(dir: &Path, mut children: Vec<Child>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    loop {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            seen.insert(e.file_name().to_string_lossy().into_owned());
        }
        if children.iter_mut().all(|c| c.try_wait().unwrap().is_some()) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    for mut c in children {
        assert!(c.wait().unwrap().success(), "an fstime copy failed");
    }
    seen
}

/// Two fstime copies in one directory: 5.1.3's share `dummy0` and `dummy1`; 6.0's each make
/// their own pair, named after their pids.
#[test]
fn fstime_copies_share_one_pair_of_files_under_5_1_3_only() {
    for v513 in [true, false] {
        let dir = Scratch::new(if v513 { "sem-fs513" } else { "sem-fs6" });
        let d = dir.path().to_str().unwrap();
        let copy = || {
            applet(&["fstime", "-w", "-t", "1", "-d", d, "-b", "1024", "-m", "100", "-s", "0.2"], v513)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        };
        let seen = names_while_running(dir.path(), vec![copy(), copy()]);
        if v513 {
            assert_eq!(seen, BTreeSet::from(["dummy0".to_string(), "dummy1".to_string()]));
        } else {
            assert_eq!(seen.len(), 4, "{seen:?}");
            assert!(seen.iter().all(|n| n.starts_with("dummy0-") || n.starts_with("dummy1-")), "{seen:?}");
        }
        assert_eq!(dir.entries(), Vec::<String>::new(), "no file left");
    }
}

/// 5.1.3's files are shared, not taken over: a link of that name is refused, not followed.
#[test]
fn a_link_in_place_of_the_shared_file_is_refused() {
    let dir = Scratch::new("sem-link");
    let target = dir.path().join("target");
    std::fs::write(&target, "keep").unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join("dummy0")).unwrap();
    let d = dir.path().to_str().unwrap();
    let o = run(&mut applet(&["fstime", "-w", "-t", "1", "-d", d, "-m", "10", "-s", "0.1"], true));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("dummy0: a symbolic link, which is not followed"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
    // The second refused: the first, made already, does not stay behind.
    std::fs::remove_file(dir.path().join("dummy0")).unwrap();
    std::os::unix::fs::symlink(&target, dir.path().join("dummy1")).unwrap();
    let o = run(&mut applet(&["fstime", "-w", "-t", "1", "-d", d, "-m", "10", "-s", "0.1"], true));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("dummy1: a symbolic link"), "{}", stderr(&o));
    assert!(!dir.path().join("dummy0").exists(), "dummy0 left behind");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
}

/// Under 5.1.3 multi.sh counts its instances with `expr`, one run per instance; 6.0's uses the
/// shell's arithmetic. A logging `expr` first in PATH counts them.
#[test]
fn multi_sh_counts_with_expr_under_5_1_3_only() {
    let tools = ["sort", "od", "grep", "tee", "wc", "rm", "expr"];
    let which = |p: &str| {
        Command::new("sh")
            .args(["-c", &format!("command -v {p}")])
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    if let Some(t) = tools.iter().find(|t| which(t).is_none()) {
        return skip("multi_sh_counts_with_expr_under_5_1_3_only", &format!("no '{t}' in PATH"));
    }
    let real = String::from_utf8(which("expr").unwrap().stdout).unwrap();
    for v513 in [true, false] {
        let wd = Scratch::new("sem-multi");
        let bin = Scratch::new("sem-expr");
        assert!(run(&mut ub([std::ffi::OsStr::new("workdir"), wd.path().as_os_str()])).status.success());
        let log = bin.path().join("calls");
        let wrapper = bin.path().join("expr");
        std::fs::write(
            &wrapper,
            format!("#!/bin/sh\necho \"$*\" >> '{}'\nexec {} \"$@\"\n", log.display(), real.trim()),
        )
        .unwrap();
        std::fs::set_permissions(&wrapper, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        let path = format!("{}:{}", bin.path().display(), std::env::var("PATH").unwrap_or_default());
        let mut c = Command::new("/bin/sh");
        c.arg(wd.path().join("multi.sh")).arg("3").current_dir(wd.path()).env("PATH", path);
        if v513 {
            c.env("UB_SEMANTICS", "5.1.3");
        } else {
            c.env_remove("UB_SEMANTICS");
        }
        let o = run(&mut c);
        assert!(o.status.success(), "multi.sh: {}", stderr(&o));
        let calls = std::fs::read_to_string(&log).unwrap_or_default();
        let want = if v513 { "1 + 1\n2 + 1\n3 + 1\n" } else { "" };
        assert_eq!(calls, want, "expr calls (5.1.3: {v513})");
        // Every tst.sh found its input and removed its files.
        let mut left = wd.entries();
        left.retain(|n| {
            !["cctest.c", "dc.dat", "large.txt", "multi.sh", "sort.src", "tst.sh"].contains(&n.as_str())
        });
        assert_eq!(left, Vec::<String>::new());
    }
}

/// The pipes (by inode: a descriptor and its dup are one) a process held open while it ran,
/// read from /proc.
fn pipes_seen(mut child: Child) -> usize {
    let fds = format!("/proc/{}/fd", child.id());
    let mut seen = BTreeSet::new();
    while child.try_wait().unwrap().is_none() {
        for e in std::fs::read_dir(&fds).into_iter().flatten().flatten() {
            let link = std::fs::read_link(e.path()).map(|l| l.to_string_lossy().into_owned());
            seen.extend(link.ok().filter(|l| l.starts_with("pipe:")));
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    seen.len()
}

/// syscall's close test dups 6.0's private pipe, or under 5.1.3 fd 0, the caller's stdin:
/// with stdin, stdout and stderr not pipes, 6.0's copy holds one pipe more than 5.1.3's (both
/// hold whatever pipes they inherit).
#[test]
fn syscall_dups_its_own_pipe_or_under_5_1_3_the_callers_stdin() {
    if !Path::new("/proc/self/fd").is_dir() {
        return skip("syscall_dups_its_own_pipe_or_under_5_1_3_the_callers_stdin", "no /proc");
    }
    let pipes = |v513| {
        let child = applet(&["syscall", "1", "close"], v513)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        pipes_seen(child)
    };
    assert_eq!(pipes(false), pipes(true) + 1);
}

/// context1: 6.0's child prints its own COUNT after the parent's; 5.1.3's ends silently.
#[test]
fn context1_prints_one_count_under_5_1_3() {
    for (v513, want) in [(true, 1), (false, 2)] {
        let o = run(&mut applet(&["context1", "1"], v513));
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(counts(&stderr(&o)).len(), want, "5.1.3: {v513}: {}", stderr(&o));
    }
}

/// Whetstone under 5.1.3 runs the baseline code, as 5.1.3 was built without -march=native.
#[test]
fn whetstone_runs_its_baseline_code_under_5_1_3() {
    let o = run(&mut applet(&["whetstone-double", "1"], true));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().next(), Some("IMAGE|baseline|UB_SEMANTICS=5.1.3"));
    assert_eq!(counts(&stderr(&o)).len(), 1);
}

/// Asked for 16 and 17 copies, 5.1.3 runs the system tests at 16 only; 6.0 at both. (The
/// default count on 17 CPUs, 16, is `plan::tests`.)
#[test]
fn the_system_tests_stop_at_16_copies_under_5_1_3() {
    let plan = |extra: &[&str]| {
        let mut args = vec!["--dry-run", "-c", "16", "-c", "17"];
        args.extend(extra);
        args.push("pipe");
        let o = run(ub(&args).env_remove("UB_SEMANTICS"));
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let rows = |p: &str| p.lines().filter(|l| l.split_whitespace().nth(1) == Some("pipe")).count();
    let p513 = plan(&["--semantics", "5.1.3"]);
    assert!(
        p513.starts_with(
            "Plan: a standard run (Run's durations, passes and settles), under UnixBench 5.1.3's semantics\n"
        ),
        "{p513}"
    );
    assert_eq!(rows(&p513), 1, "{p513}");
    assert!(p513.contains("      16  pipe"), "{p513}");
    let p6 = plan(&[]);
    assert!(!p6.contains("semantics"), "{p6}");
    assert_eq!(rows(&p6), 2, "{p6}");
}

#[test]
fn a_bad_semantics_is_one_line() {
    assert_usage_error(
        &run(ub(["--semantics", "5.2", "-n"]).env_remove("UB_SEMANTICS")),
        "--semantics '5.2'",
    );
    assert_usage_error(&run(ub(["-n"]).env("UB_SEMANTICS", "5")), "UB_SEMANTICS '5'");
}

/// A short 2-copy run of the file test under 5.1.3: its copies share their files and pass, and
/// the banner, the HTML, the JSON and the log all name the semantics.
#[test]
fn every_output_names_the_semantics() {
    let r = Scratch::new("sem-run");
    let tmp = Scratch::new("sem-tmp");
    let o = run(ub([
        "--semantics",
        "5.1.3",
        "-t",
        "1",
        "-i",
        "1",
        "-c",
        "2",
        "-q",
        "--json",
        "--results",
        r.path().to_str().unwrap(),
        "--tmpdir",
        tmp.path().to_str().unwrap(),
        "fsbuffer-w",
    ])
    .env_remove("UB_SEMANTICS"));
    assert!(o.status.success(), "{}", stderr(&o));
    let banner = "BYTE UNIX Benchmarks (Version 5.1.3-compatible; unixbench ";
    assert!(stdout(&o).contains(banner), "{}", stdout(&o));
    let read = |ext: &str| {
        let e = r.entries().into_iter().find(|n| n.ends_with(ext)).unwrap();
        std::fs::read_to_string(r.path().join(e)).unwrap()
    };
    let html = read(".html");
    assert!(html.contains(banner));
    assert!(html.contains("<p><b>UnixBench 5.1.3&#39;s semantics</b> (--semantics 5.1.3)"), "{html}");
    assert!(read(".json").contains("\"version\": \"5.1.3-compatible; unixbench "));
    let log = read(".log");
    assert!(log.contains("\n==> UB_SEMANTICS=5.1.3 fstime -w "), "{log}");
    assert!(!log.contains("dummy0-"), "{log}");
    let report = r.entries().into_iter().find(|n| !n.contains('.')).unwrap();
    assert!(std::fs::read_to_string(r.path().join(report)).unwrap().starts_with(&format!("   {banner}")));
    assert_eq!(tmp.entries(), Vec::<String>::new(), "no file left in the tmp dir");
}

/// The copies are given the run's semantics as they start, whatever the driver's own
/// environment says: `--semantics 6.0` under `UB_SEMANTICS=5.1.3` gives them none, so
/// Whetstone runs the code of 6.0's build, not 5.1.3's baseline.
#[test]
fn the_copies_get_the_runs_semantics_not_the_drivers_environment() {
    let r = Scratch::new("sem-env");
    let results = r.path().to_str().unwrap();
    for (flag, baseline) in [("6.0", false), ("5.1.3", true)] {
        let o = run(ub(["--semantics", flag, "-t", "1", "-i", "1", "-c", "1", "-q", "--results", results])
            .arg("whetstone-double")
            .env("UB_SEMANTICS", "5.1.3"));
        assert!(o.status.success(), "{}", stderr(&o));
        let logs: Vec<String> = r.entries().into_iter().filter(|n| n.ends_with(".log")).collect();
        let log = std::fs::read_to_string(r.path().join(logs.last().unwrap())).unwrap();
        let image = log.lines().find(|l| l.starts_with("# IMAGE0: ")).unwrap_or_else(|| panic!("{log}"));
        assert_eq!(image == "# IMAGE0: baseline", baseline, "--semantics {flag}: {image}");
        for f in r.entries() {
            std::fs::remove_file(r.path().join(f)).unwrap();
        }
    }
}

fn fixture(name: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare").join(name);
    std::fs::read_to_string(p).unwrap()
}

/// `compare` warns when its files mix the semantics, a C 5.1.3 report's `Version 5.1.3`
/// among them; `--pool` refuses them in one line, exit 2.
#[test]
fn compare_warns_and_pool_refuses_when_the_semantics_are_mixed() {
    let dir = Scratch::new("sem-cmp");
    let put = |name: &str, text: String| {
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let c6 = fixture("c-unixbench.txt");
    let c513 = put("c513.txt", c6.replacen("(Version 6.0.0)", "(Version 5.1.3)", 1));
    let c6 = put("c6.txt", c6);
    let o = run(&mut ub(["compare", &c513, &c6]));
    assert!(o.status.success(), "{}", stderr(&o));
    let warning = "** warning: comparing runs of different semantics (UnixBench 5.1.3, 6.0.0): their figures are not comparable\n";
    assert!(stdout(&o).contains(warning), "{}", stdout(&o));
    let c6b = put("c6b.txt", fixture("c-unixbench.txt"));
    let o = run(&mut ub(["compare", &c6, &c6b]));
    assert!(!stdout(&o).contains("semantics"), "{}", stdout(&o));

    let p1 = fixture("pool-1.json");
    assert!(p1.contains("\"version\": \"6.0.0-compatible; "), "the fixture's version");
    let p1_513 = put(
        "p1.json",
        p1.replacen("\"version\": \"6.0.0-compatible; ", "\"version\": \"5.1.3-compatible; ", 1),
    );
    let p2 = put("p2.json", fixture("pool-2.json"));
    let o = run(&mut ub(["compare", "--pool", &p1_513, &p2]));
    assert_usage_error(&o, "p2.json: its runs follow UnixBench 6.0.0's semantics, the first file's 5.1.3's");
}
