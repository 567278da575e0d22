//! Old kernels: the static binary as a 3.2 kernel would run it. A seccomp filter answers ENOSYS
//! to every system call added after 3.2 (the fixture lists each with its kernel version) and
//! EINVAL to the newer prctl options; the kernels and a short index must still run clean, each
//! newer call having a fallback. The filter is installed by a small test helper
//! (tests/fixtures/oldkernel/enosys.py, on Debian's libseccomp bindings, python3-seccomp, which
//! `make test` installs); without it, or with cargo's dynamically linked debug build (glibc
//! itself calls newer system calls), these tests say they were skipped.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/oldkernel");
const PYTHON: &str = "/usr/bin/python3";

fn fixture() -> PathBuf {
    Path::new(DIR).join("syscalls-after-3.2.tsv")
}

#[track_caller]
fn skip(why: &str) {
    crate::common::skip("rig old kernel", why);
}

/// `COMMAND ARGS` under the 3.2 filter, or None (with a line saying why) where it cannot be.
fn as_on_3_2(program: &Path) -> Option<Command> {
    if !cfg!(target_arch = "x86_64") {
        // make test's host is x86_64: it builds the x86_64 binary and runs it.
        skip("the fixture's system call numbers are x86_64's, and this host is not");
        return None;
    }
    let ok = Command::new(PYTHON).args(["-c", "import seccomp"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        skip("no libseccomp bindings for /usr/bin/python3 (Debian: python3-seccomp)");
        return None;
    }
    let mut c = Command::new(PYTHON);
    c.arg(Path::new(DIR).join("enosys.py")).arg(fixture()).arg(program);
    Some(c)
}

/// The static binary; None (with a line) for cargo's dynamically linked debug build.
fn static_bin() -> Option<PathBuf> {
    if std::env::var_os("UNIXBENCH_BIN").is_none() {
        skip("needs the static binary (UNIXBENCH_BIN; make test sets it)");
        return None;
    }
    Some(bin())
}

#[test]
fn the_fixture_agrees_with_libseccomp_and_the_filter_bites() {
    let Some(mut probe) = as_on_3_2(Path::new(PYTHON)) else { return };
    let o = run(Command::new(PYTHON).arg(Path::new(DIR).join("enosys.py")).arg("--check").arg(fixture()));
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    // The versions are in order of number within each era, and every line parses.
    let text = std::fs::read_to_string(fixture()).unwrap();
    let rows: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    assert!(rows.len() > 60 && rows.iter().all(|r| r.len() == 3), "{text}");
    for r in &rows {
        let v: Vec<u32> = r[0].split('.').map(|p| p.parse().unwrap()).collect();
        assert!(v.as_slice() > [3, 2].as_slice(), "{r:?} is not newer than 3.2");
    }
    for name in
        ["statx", "getrandom", "memfd_create", "copy_file_range", "clone3", "pidfd_open", "close_range"]
    {
        assert!(rows.iter().any(|r| r[1] == name), "{name} is missing from the fixture");
    }
    // Under the filter a newer call fails with ENOSYS, and the filter is there (Seccomp: 2).
    let o = run(probe.args([
        "-c",
        "import os\ntry:\n os.memfd_create('x')\nexcept OSError as e:\n print(e.errno)\n\
         print(open('/proc/self/status').read().split('Seccomp:')[1].split()[0])",
    ]));
    assert_eq!(stdout(&o).split_whitespace().collect::<Vec<_>>(), ["38", "2"], "{}", stderr(&o));
}

#[test]
fn the_kernels_run_as_on_3_2() {
    let Some(exe) = static_bin() else { return };
    let Some(_) = as_on_3_2(&exe) else { return };
    let dir = Scratch::new("old-kernels");
    let d = dir.path().to_str().unwrap();
    for k in [
        &["dhry2reg", "1"][..],
        &["whetstone-double", "1"],
        &["syscall", "1"],
        &["syscall", "1", "exec"],
        &["pipe", "1"],
        &["context1", "1"],
        &["spawn", "1"],
        &["execl", "1"],
        &["hanoi", "1"],
        &["arithoh", "1"],
        &["fstime", "-c", "-t", "1", "-d", d, "-b", "1024", "-m", "500", "-s", "0.1"],
    ] {
        let o = run(as_on_3_2(&exe).unwrap().args(k).current_dir(dir.path()));
        assert!(o.status.success(), "{k:?}: {}", stderr(&o));
        let c = counts(&stderr(&o));
        assert!(!c.is_empty() && c.iter().all(|(n, _, _)| *n > 0.0), "{k:?}: {}", stderr(&o));
    }
    let json = dir.path().join("lm.json");
    let o =
        run(as_on_3_2(&exe).unwrap().args(["lmbench", "--short", "--json"]).arg(&json).arg("--dir").arg(d));
    assert!(o.status.success(), "lmbench: {}", stderr(&o));
    assert!(stdout(&o).contains("Processor, Processes - times in microseconds"), "{}", stdout(&o));
}

#[test]
fn a_short_index_runs_as_on_3_2() {
    let Some(exe) = static_bin() else { return };
    let Some(mut c) = as_on_3_2(&exe) else { return };
    let dir = Scratch::new("old-index");
    let o = run(c
        .args(["-q", "-i", "1", "-t", "1", "-c", "1", "--results"])
        .arg(dir.path().join("results"))
        .arg("--tmpdir")
        .arg(dir.path())
        .arg("index")
        .current_dir(dir.path()));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().filter(|l| l.contains("samples)")).count(), 12, "{out}");
    assert!(out.contains("System Benchmarks Index Score"), "{out}");
    assert!(!out.contains("Partial"), "{out}");
}
