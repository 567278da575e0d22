//! Past one small box: the driver inside a real cgroup v1 group with a CPU quota or a one-CPU
//! cpuset (the default copies follow the limit and the report says why), and many copies at
//! once (started together by the driver's start barrier, within the open-file limits). The v2
//! layouts are unit-tested on fixture trees (`crates/probe/src/cpulimit.rs`); this machine's
//! unified hierarchy has no controllers. Rigs that need root say they were skipped otherwise.

use crate::common::*;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::process::Command;

#[track_caller]
pub(crate) fn skip(rig: &str, why: &str) {
    crate::common::skip(&format!("rig {rig}"), why);
}

fn is_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// The mount point of the cgroup v1 hierarchy that has `controller`, and this process's group
/// in it.
fn v1_group(controller: &str) -> Option<(PathBuf, String)> {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    let point = mounts.lines().find_map(|l| {
        let (head, tail) = l.split_once(" - ")?;
        let mut t = tail.split(' ');
        let opts = (t.next()? == "cgroup").then(|| t.nth(1))??;
        opts.split(',').any(|o| o == controller).then(|| PathBuf::from(head.split(' ').nth(4).unwrap()))
    })?;
    let groups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = groups.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, ctl, path) = (f.next()?, f.next()?, f.next()?);
        ctl.split(',').any(|c| c == controller).then(|| path.to_string())
    })?;
    Some((point, path))
}

/// A child group of ours in a v1 hierarchy, removed on drop (its processes have exited by then).
struct Group(PathBuf);

impl Group {
    fn new(controller: &str, tag: &str) -> Option<Group> {
        let (point, mine) = v1_group(controller)?;
        let dir =
            point.join(mine.trim_start_matches('/')).join(format!("ub-it-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir(&dir);
        std::fs::create_dir(&dir).ok()?;
        Some(Group(dir))
    }
    fn set(&self, file: &str, value: &str) {
        std::fs::write(self.0.join(file), value).unwrap_or_else(|e| panic!("{file} = {value}: {e}"));
    }
    /// `unixbench ARGS` started inside the group.
    fn run(&self, s: &Scratch, args: &[&str]) -> std::process::Output {
        let procs = self.0.join("cgroup.procs");
        // The driver does not make its tmp dir (a missing one is bad input).
        std::fs::create_dir_all(s.path().join("tmp")).unwrap();
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg("echo $$ > \"$0\" && exec \"$@\"").arg(&procs).arg(bin()).args(args);
        c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path().join("tmp"));
        c.current_dir(s.path());
        for v in ["UB_RESULTDIR", "UB_TMPDIR", "UB_OUTPUT_FILE_NAME", "UB_OUTPUT_CSV"] {
            c.env_remove(v);
        }
        run(c.env("UB_OUTPUT_JSON", "true"))
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// The report and the JSON of the one run saved in `<s>/results`.
fn saved(s: &Scratch) -> (String, String) {
    let dir = s.path().join("results");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    names.sort();
    let text = names.iter().find(|p| p.extension().is_none()).expect("a report");
    let json = names.iter().find(|p| p.extension().is_some_and(|e| e == "json")).expect("a JSON file");
    (std::fs::read_to_string(text).unwrap(), std::fs::read_to_string(json).unwrap())
}

/// The copy counts of a report's `Benchmark Run:` blocks.
fn copy_counts(report: &str) -> Vec<usize> {
    report
        .lines()
        .filter_map(|l| l.split_once(" in system; running ")?.1.split(' ').next()?.parse().ok())
        .collect()
}

/// The CPUs of our affinity mask, as `nproc` counts them (no cgroup involved).
fn affinity_cpus() -> usize {
    let o = Command::new("nproc").output().expect("nproc");
    String::from_utf8_lossy(&o.stdout).trim().parse().unwrap()
}

fn ready(rig: &str, controller: &str) -> bool {
    if !is_root() {
        skip(rig, "not root (making a cgroup needs it)");
        return false;
    }
    if v1_group(controller).is_none() {
        // A fact of the host's kernel: a unified hierarchy has no v1 controllers to make.
        crate::common::skip_on_this_host(
            "cgroup v1",
            &format!("rig {rig}"),
            &format!("no cgroup v1 hierarchy with the {controller} controller"),
        );
        return false;
    }
    if affinity_cpus() < 2 {
        crate::common::skip_on_this_host(
            "2 CPUs",
            &format!("rig {rig}"),
            "fewer than 2 CPUs: a limit of one changes nothing",
        );
        return false;
    }
    true
}

const SHORT: [&str; 6] = ["-q", "-i", "1", "-t", "1", "syscall"];

#[test]
fn a_cpu_quota_of_one_cpu_makes_one_copy_and_says_why() {
    if !ready("cgroup-quota", "cpu") {
        return;
    }
    let g = Group::new("cpu", "quota").expect("a child cpu group");
    g.set("cpu.cfs_period_us", "100000");
    g.set("cpu.cfs_quota_us", "100000");
    let s = Scratch::new("cg-quota");
    let o = g.run(&s, &SHORT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (report, json) = saved(&s);
    assert_eq!(copy_counts(&report), [1], "{report}");
    let name = g.0.file_name().unwrap().to_string_lossy().into_owned();
    let line = format!(
        "   CPU limit: 1 CPU (cgroup cpu quota: cpu.cfs_quota_us 100000 per cpu.cfs_period_us 100000 in \
         {}/{name} (1.00 CPUs))\n",
        v1_group("cpu").unwrap().1.trim_end_matches('/')
    );
    assert!(report.contains(&line), "{report}");
    assert!(json.contains("\"by\": \"cgroup cpu quota\""), "{json}");
    // -c still wins.
    let s = Scratch::new("cg-quota-c");
    let o = g.run(&s, &["-c", "2", "-q", "-i", "1", "-t", "1", "syscall"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(copy_counts(&saved(&s).0), [2]);
}

#[test]
fn a_one_cpu_cpuset_makes_one_copy_and_says_why() {
    if !ready("cgroup-cpuset", "cpuset") {
        return;
    }
    let g = Group::new("cpuset", "set").expect("a child cpuset group");
    // A v1 cpuset takes no task until it has memory nodes; the parent's will do.
    let parent = g.0.parent().unwrap();
    let mems = std::fs::read_to_string(parent.join("cpuset.mems")).unwrap();
    g.set("cpuset.mems", mems.trim());
    let first = std::fs::read_to_string(parent.join("cpuset.cpus")).unwrap();
    let cpu = first.trim().split([',', '-']).next().unwrap().to_string();
    g.set("cpuset.cpus", &cpu);
    let s = Scratch::new("cg-set");
    let o = g.run(&s, &SHORT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (report, json) = saved(&s);
    assert_eq!(copy_counts(&report), [1], "{report}");
    assert!(report.contains("   CPU limit: 1 CPU (cgroup cpuset: cpuset."), "{report}");
    assert!(report.contains(&format!(" {cpu} in ")), "{report}");
    assert!(json.contains("\"by\": \"cgroup cpuset\""), "{json}");
}

#[test]
fn a_group_without_limits_changes_nothing() {
    if !ready("cgroup-none", "cpu") {
        return;
    }
    let (point, mine) = v1_group("cpu").unwrap();
    let ours = point.join(mine.trim_start_matches('/'));
    let quota = std::fs::read_to_string(ours.join("cpu.cfs_quota_us")).unwrap_or_default();
    if quota.trim() != "-1" {
        return crate::common::skip_on_this_host(
            "no CPU quota",
            "rig cgroup-none",
            "the tests already run under a CPU quota",
        );
    }
    let g = Group::new("cpu", "none").expect("a child cpu group");
    let s = Scratch::new("cg-none");
    let o = g.run(&s, &SHORT);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (report, json) = saved(&s);
    assert_eq!(copy_counts(&report), [1, affinity_cpus()], "{report}");
    assert!(!report.contains("CPU limit"), "{report}");
    assert!(json.contains("\"by\": \"affinity\""), "{json}");
}

/// The `"key": number` values of a JSON text, in order (the layout is ours: one per line).
fn numbers(json: &str, key: &str) -> Vec<f64> {
    let pat = format!("\"{key}\": ");
    json.lines().filter_map(|l| l.trim().strip_prefix(&pat)?.trim_end_matches(',').parse().ok()).collect()
}

/// The stated skew for this test: 256 CPU-bound copies on a busy 2-CPU machine that runs other
/// tests at the same time (docs/FIDELITY.md records what a quiet one measures).
const SKEW_256: f64 = 10.0;

#[test]
fn two_hundred_fifty_six_copies_start_together_and_run_clean() {
    let o =
        run(&mut ub(["-q", "-c", "256", "-i", "1", "-t", "1", "--no-save", "--format", "json", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json = stdout(&o);
    let started = numbers(&json, "started");
    assert_eq!(started.len(), 256, "every copy's start is known");
    // None passed the gate before the release, whatever the machine's speed.
    assert!(started.iter().all(|&s| s >= 0.0), "{started:?}");
    let skew = numbers(&json, "start_skew");
    assert_eq!(skew.len(), 1, "{json}");
    assert!(skew[0] < SKEW_256, "start skew {} s", skew[0]);
    let counts = numbers(&json, "count");
    assert!(counts.len() > 256 && counts.iter().all(|&c| c > 0.0), "{json}");
}

#[test]
fn open_file_limits_are_raised_or_the_pass_says_how_many_copies_they_allow() {
    if !std::path::Path::new("/usr/bin/prlimit").exists() {
        return skip("RLIMIT_NOFILE", "no prlimit (Debian: util-linux)");
    }
    let under = |limit: &str| {
        let mut c = Command::new("/usr/bin/prlimit");
        c.arg(format!("--nofile={limit}")).arg(bin());
        c.args(["-q", "-c", "200", "-i", "1", "-t", "1", "--no-save", "syscall"]);
        run(&mut c)
    };
    // A soft limit below the copies' needs is raised toward the hard one.
    let o = under("100:4096");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("running 200 parallel copies of tests"), "{}", stdout(&o));
    // A hard limit below them fails the pass, saying how many copies it allows.
    let o = under("100:100");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let line = "200 copies need 264 open files, but the limit is 100 (ulimit -Hn): the limits allow \
                at most 36 copies";
    assert!(stdout(&o).contains(line), "{}", stdout(&o));
}
