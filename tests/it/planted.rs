//! What another user plants cannot steer a run: a work directory swapped for a link while the
//! shell test runs (nothing foreign is run, nothing outside is removed), links planted in a
//! drop-in (`pgms`, `results`, `tmp`: named, left alone, exit 1), a drop-in of another user
//! (a warning).

use crate::common::*;
use crate::rigs::{have, is_root};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

/// The uid of another user: nobody's.
const OTHER: u32 = 65534;

fn chown(p: &Path, uid: u32) {
    std::os::unix::fs::chown(p, Some(uid), Some(uid)).unwrap();
}

fn mode(p: &Path, m: u32) {
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(m)).unwrap();
}

/// The files of `dir` with their contents, sorted.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap_or_default())
        })
        .collect();
    v.sort();
    v
}

/// Waits (polling, never asserting on time) until a work directory in `tmp` holds the shell
/// test's launcher, and returns its name; None if the run ended first.
fn work_dir_in_use(tmp: &Path, child: &mut std::process::Child) -> Option<std::ffi::OsString> {
    loop {
        let found = std::fs::read_dir(tmp).unwrap().flatten().find(|e| {
            e.file_name().to_string_lossy().starts_with("unixbench-") && e.path().join("multi.sh").is_file()
        });
        if let Some(e) = found {
            return Some(e.file_name());
        }
        if child.try_wait().unwrap().is_some() {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

#[test]
fn a_swapped_work_directory_runs_nothing_foreign_and_removes_nothing_outside() {
    if !is_root() {
        return skip("swapped work directory", "needs root to make a tmp directory of another user");
    }
    if !["sort", "od", "grep", "tee", "wc", "rm"].iter().all(|p| have(p)) {
        return skip("swapped work directory", "the shell test's programs are not on PATH");
    }
    let s = Scratch::new("planted-swap");
    // The tmp directory of another user, who may rename what is in it.
    let tmp = s.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    chown(&tmp, OTHER);
    mode(&tmp, 0o777);
    // The decoy: a launcher of theirs, and files named as the run's work files.
    let decoy = s.path().join("decoy");
    let marker = s.path().join("marker");
    std::fs::create_dir(&decoy).unwrap();
    std::fs::write(decoy.join("multi.sh"), format!("#!/bin/sh\ntouch '{}'\n", marker.display())).unwrap();
    mode(&decoy.join("multi.sh"), 0o755);
    for f in ["tst.sh", "sort.src", ".unixbench-run", "large.txt"] {
        std::fs::write(decoy.join(f), "theirs\n").unwrap();
    }
    let before = contents(&decoy);
    let mut child = ub(["-q", "--no-save", "-i", "1", "-t", "3", "--tmpdir"])
        .arg(&tmp)
        .arg("shell1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let name = work_dir_in_use(&tmp, &mut child).expect("the shell test ran in a work directory");
    // The swap: the run's directory renamed away, a link to the decoy in its place.
    std::fs::rename(tmp.join(&name), tmp.join("moved")).unwrap();
    std::os::unix::fs::symlink(&decoy, tmp.join(&name)).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    assert!(!marker.exists(), "the planted launcher ran");
    assert_eq!(contents(&decoy), before, "the decoy's files were touched");
    // The run's own directory, wherever it was moved, was emptied through its descriptor.
    assert_eq!(contents(&tmp.join("moved")), [], "the work files were not removed");
}

/// `--dropin DIR` with `DIR/NAME` a link to `target`.
fn dropin_with_link(s: &Scratch, name: &str) -> (std::path::PathBuf, std::process::Output) {
    let d = s.path().join(format!("ub-{name}"));
    let target = s.path().join(format!("target-{name}"));
    std::fs::create_dir_all(&target).unwrap();
    std::fs::create_dir(&d).unwrap();
    std::os::unix::fs::symlink(&target, d.join(name)).unwrap();
    let o = run(ub(["--dropin"]).arg(&d));
    (target, o)
}

#[test]
fn planted_dropin_links_are_named_and_never_written_through() {
    let s = Scratch::new("planted-dropin");
    for name in ["pgms", "results", "tmp"] {
        let (target, o) = dropin_with_link(&s, name);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {err}");
        let named: Vec<&str> = err.lines().filter(|l| l.contains("skipped ")).collect();
        assert_eq!(named.len(), 1, "{name}: {err}");
        assert!(named[0].contains(&format!("/{name}: it is a symbolic link")), "{err}");
        assert!(std::fs::read_dir(&target).unwrap().next().is_none(), "{name}: written through the link");
    }
    // Without pgms/, Run is still made, a copy of the binary.
    let run_file = s.path().join("ub-pgms").join("Run");
    assert!(std::fs::symlink_metadata(&run_file).unwrap().is_file());
    // Run itself will not write through a planted results/ or tmp/ either: one line, exit 1.
    for name in ["results", "tmp"] {
        let d = s.path().join(format!("ub-{name}"));
        let mut c = Command::new(d.join("Run"));
        c.args(["-q", "-i", "1", "-t", "1", "syscall"]).current_dir(&d);
        for v in ["UB_RESULTDIR", "UB_TMPDIR", "TMPDIR"] {
            c.env_remove(v);
        }
        let o = run(&mut c);
        let err = stderr(&o);
        assert_eq!((o.status.code(), err.lines().count()), (Some(1), 1), "{name}: {err}");
        assert!(err.contains(&format!("/{name} is a symbolic link")), "{err}");
        let target = s.path().join(format!("target-{name}"));
        assert!(std::fs::read_dir(&target).unwrap().next().is_none(), "{name}: Run wrote through it");
    }
}

#[test]
fn a_dropin_of_another_user_warns_and_its_directories_are_left_alone() {
    if !is_root() {
        return skip("drop-in of another user", "needs root to give a directory to another user");
    }
    let s = Scratch::new("planted-owner");
    let d = s.path().join("UnixBench");
    std::fs::create_dir(&d).unwrap();
    chown(&d, OTHER);
    std::fs::create_dir(d.join("tmp")).unwrap();
    chown(&d.join("tmp"), OTHER);
    let o = run(ub(["--dropin"]).arg(&d));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    let warned: Vec<&str> = err.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(warned.len(), 1, "{err}");
    assert!(warned[0].contains(&format!("belongs to another user (uid {OTHER})")), "{err}");
    assert!(err.contains(&format!("/tmp: it belongs to another user (uid {OTHER})")), "{err}");
    assert!(std::fs::read_dir(d.join("tmp")).unwrap().next().is_none());
}

#[test]
fn an_empty_dropin_directory_is_a_usage_error() {
    let s = Scratch::new("planted-empty");
    let o = run(ub(["--dropin", ""]).current_dir(s.path()));
    assert_usage_error(&o, "--dropin: '' is not a directory name");
    assert_eq!(s.entries(), Vec::<String>::new());
}
