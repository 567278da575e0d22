//! The OS kernels (syscall, pipe, context1, spawn, execl, fstime): their protocol lines, their
//! refusals of bad input, and how fstime cleans up after faults.

use crate::common::*;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Asserts a successful run whose stderr is exactly `n` lines `COUNT|<count>|1|lps`, each with a
/// count > 0, and whose stdout is empty. Returns the counts. execl's and spawn's `IMAGE|` line
/// (which image they timed; tests/it/twin.rs checks it) is not a count and is left out.
fn assert_lps(o: &Output, n: usize) -> Vec<u64> {
    let err = stderr(o);
    assert!(o.status.success(), "status {:?}, stderr {err:?}", o.status);
    assert_eq!(stdout(o), "", "stdout");
    assert!(err.lines().filter(|l| l.starts_with("IMAGE|")).count() <= 1, "stderr {err:?}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("IMAGE|")).collect();
    assert_eq!(lines.len(), n, "stderr {err:?}");
    lines
        .iter()
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            assert_eq!((f.len(), f[0], f[2], f[3]), (4, "COUNT", "1", "lps"), "line {l:?}");
            let c: u64 = f[1].parse().unwrap();
            assert!(c > 0, "count in {l:?}");
            c
        })
        .collect()
}

#[test]
fn syscall_modes_count_for_one_second() {
    for mode in [None, Some("mix"), Some("close"), Some("getpid"), Some("exec")] {
        let mut c = ub(["syscall", "1"]);
        c.args(mode);
        assert_lps(&run(&mut c), 1);
    }
}

#[test]
fn pipe_and_spawn_count_for_one_second() {
    assert_lps(&run(&mut ub(["pipe", "1"])), 1);
    assert_lps(&run(&mut ub(["spawn", "1"])), 1);
}

#[test]
fn context1_prints_parent_then_child_count() {
    let c = assert_lps(&run(&mut ub(["context1", "1"])), 2);
    assert!(c[1] == c[0] || c[1] == c[0] + 1, "child's count follows the parent's: {c:?}");
}

#[test]
fn execl_counts_images_executed() {
    for image in ["auto", "static"] {
        let c = assert_lps(&run(ub(["execl", "2"]).env("UB_EXEC_IMAGE", image)), 1);
        assert!(c[0] > 1, "the program re-executed itself ({image}): {c:?}");
    }
}

/// Without /proc (a chroot, a rescue shell), execl finds its file from argv[0] or PATH.
#[test]
fn execl_works_without_proc() {
    let script = "umount -l /proc || exit 77; exec \"$0\" execl 2";
    // The twin (staged in a directory, no memfd without /proc) and the static chain, which
    // must find its own file without /proc.
    for image in ["auto", "static"] {
        let o = Command::new("unshare")
            .args(["--mount", "--propagation", "private", "sh", "-c", script])
            .arg(bin())
            .env("UB_EXEC_IMAGE", image)
            .output();
        match o {
            Ok(o) if o.status.code() != Some(77) && !stderr(&o).starts_with("unshare:") => {
                assert!(assert_lps(&o, 1)[0] > 1, "{image}");
            }
            _ => skip("execl without /proc", "cannot hide /proc here (needs root and unshare)"),
        }
    }
}

#[test]
fn symlink_and_subcommand_forms_agree() {
    let dir = Scratch::new("oslink");
    let link = dir.path().join("pipe");
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    assert_lps(&run(Command::new(&link).arg("1")), 1);
    assert_lps(&run(&mut ub(["pipe", "1"])), 1);
    // Through a link named execl too: the re-executed image must land in execl again.
    let link = dir.path().join("execl");
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    assert!(assert_lps(&run(Command::new(&link).arg("2")), 1)[0] > 1);
    assert!(assert_lps(&run(Command::new(&link).arg("2").env("UB_EXEC_IMAGE", "static")), 1)[0] > 1);
}

#[test]
fn bad_durations_and_modes_are_usage_errors() {
    for k in ["syscall", "pipe", "context1", "spawn", "execl"] {
        assert_usage_error(&run(&mut ub([k])), "missing duration");
        for bad in ["0", "-3", "ten", "99999999999999999999"] {
            assert_usage_error(&run(&mut ub([k, bad])), "duration");
        }
    }
    assert_usage_error(&run(&mut ub(["syscall", "1", "fork"])), "mix, close, getpid or exec");
}

#[test]
fn fstime_bad_options_are_usage_errors() {
    for (args, needle) in [
        (&["-b", "100"][..], "-b"),
        (&["-m", "0"], "-m"),
        (&["-t", "0"], "-t"),
        (&["-t", "4000"], "1 to 3600"),
        (&["-x"], "unknown option '-x'"),
        (&["-w", "-t"], "missing argument for option '-t'"),
    ] {
        let dir = Scratch::new("fsbad");
        let o = run(ub(["fstime"]).args(args).current_dir(dir.path()));
        assert_usage_error(&o, needle);
        assert!(dir.entries().is_empty());
    }
}

/// Asserts fstime's stdout and stderr for the phases named (e.g. ["Write", "Read"]), the
/// priming ones lasting `prime` seconds and the last 1 s.
fn assert_fstime_phases(o: &Output, phases: &[&str], prime: f64) {
    let (out, err) = (stdout(o), stderr(o));
    assert!(o.status.success(), "status {:?}, stderr {err:?}", o.status);
    let out: Vec<&str> = out.lines().collect();
    let err: Vec<&str> = err.lines().collect();
    assert_eq!(out.len(), phases.len(), "stdout {out:?}");
    assert_eq!(err.len(), 2 * phases.len(), "stderr {err:?}");
    for (i, phase) in phases.iter().enumerate() {
        // `Write done: 15048000 in 2.0003, score 1880754`
        let w: Vec<&str> = out[i].split([' ', ',']).filter(|s| !s.is_empty()).collect();
        assert_eq!((w.len(), w[0], w[1], w[3], w[5]), (7, *phase, "done:", "in", "score"), "{out:?}");
        assert!(out[i].contains(", score "), "{out:?}");
        let counted: u64 = w[2].parse().unwrap();
        assert_eq!(w[4].split('.').nth(1).map(str::len), Some(4), "%.4f in {out:?}");
        let score: u64 = w[6].parse().unwrap();
        assert!(counted > 0 && score > 0, "{out:?}");
        assert_eq!(err[2 * i], format!("COUNT|{score}|0|KBps"));
        let t = err[2 * i + 1].strip_prefix("TIME|").expect("TIME line");
        assert_eq!(t.split('.').nth(1).map(str::len), Some(1), "%.1f in {err:?}");
        let t: f64 = t.parse().unwrap();
        let want = if i + 1 == phases.len() { 1.0 } else { prime };
        assert!(t >= want - 0.05, "phase time {t} for {phase}");
    }
}

/// Runs fstime for 1 s with a 500 KiB file in a scratch directory and checks its output.
fn fstime_for_one_second(flag: &str, phases: &[&str]) {
    let dir = Scratch::new("fs");
    let o = run(ub(["fstime", flag, "-t", "1", "-b", "1024", "-m", "500", "-d"]).arg(dir.path()));
    assert_fstime_phases(&o, phases, 2.0);
    assert!(dir.entries().is_empty(), "left behind: {:?}", dir.entries());
}

#[test]
fn fstime_write() {
    fstime_for_one_second("-w", &["Write"]);
}

#[test]
fn fstime_read_after_priming_write() {
    fstime_for_one_second("-r", &["Write", "Read"]);
}

#[test]
fn fstime_copy_after_priming_write_and_read() {
    fstime_for_one_second("-c", &["Write", "Read", "Copy"]);
}

/// `-s` (ours, what `--quick` passes): shorter pauses and priming phases, the same three phases
/// and lines, and no file left behind.
#[test]
fn fstime_copy_with_a_short_settle() {
    let dir = Scratch::new("fs-settle");
    let args = ["fstime", "-c", "-t", "1", "-s", "0.3", "-b", "256", "-m", "500", "-d"];
    let o = run(ub(args).arg(dir.path()));
    assert_fstime_phases(&o, &["Write", "Read", "Copy"], 0.3);
    assert!(dir.entries().is_empty(), "left behind: {:?}", dir.entries());
}

#[test]
fn fstime_removes_its_files_when_interrupted() {
    for sig in ["INT", "TERM"] {
        let dir = Scratch::new("fssig");
        let child = ub(["fstime", "-w", "-t", "10", "-d"])
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        assert_eq!(dir.entries().len(), 2, "both files exist mid-run");
        let k = Command::new("kill").arg(format!("-{sig}")).arg(child.id().to_string()).status().unwrap();
        assert!(k.success());
        let o = child.wait_with_output().unwrap();
        assert!(!o.status.success());
        assert!(stderr(&o).contains(&format!("SIG{sig}")), "{}", stderr(&o));
        assert!(dir.entries().is_empty(), "left behind after SIG{sig}: {:?}", dir.entries());
    }
}

#[test]
fn fstime_reports_a_missing_directory() {
    let dir = Scratch::new("fsmissing");
    let missing = dir.path().join("nope");
    let o = run(ub(["fstime", "-w", "-t", "1", "-d"]).arg(&missing));
    // A bad argument: exit 2, as every other.
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("nope") && stderr(&o).contains("No such file"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1);
}

/// Runs `cmd` as an unprivileged user: directly if we are not root, through setpriv as nobody
/// if we are root (root ignores permissions and RLIMIT_NPROC). None when that is impossible.
fn unprivileged(args: &[&str]) -> Option<Command> {
    let root = Command::new("id").arg("-u").output().ok().map(|o| stdout(&o).trim() == "0")?;
    if !root {
        let mut c = Command::new(args[0]);
        c.args(&args[1..]);
        return Some(c);
    }
    let ok = Command::new("setpriv").arg("--help").stdout(Stdio::null()).status().is_ok_and(|s| s.success());
    if !ok {
        return None;
    }
    let mut c = Command::new("setpriv");
    c.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).args(args);
    Some(c)
}

#[test]
fn fstime_reports_a_read_only_directory() {
    let dir = Scratch::new("fsro");
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
    let b = bin();
    let args = [b.to_str().unwrap(), "fstime", "-w", "-t", "1", "-d", ro.to_str().unwrap()];
    let Some(mut c) = unprivileged(&args) else {
        return skip(
            "fstime read-only",
            "running as root without setpriv, so no unprivileged user to test with",
        );
    };
    let o = {
        let _turn = NOBODY.lock().unwrap_or_else(|e| e.into_inner());
        run(&mut c)
    };
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("cannot create") && stderr(&o).contains("Permission denied"),
        "{}",
        stderr(&o)
    );
    assert!(std::fs::read_dir(&ro).unwrap().next().is_none());
}

#[test]
fn fstime_on_a_full_file_system_fails_cleanly() {
    let root = Command::new("id").arg("-u").output().map(|o| stdout(&o).trim() == "0").unwrap_or(false);
    if !root {
        return skip("fstime full", "mounting a small tmpfs needs root");
    }
    let dir = Scratch::new("fsfull");
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let m = Command::new("mount").args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"]).arg(&mnt).status();
    if !m.is_ok_and(|s| s.success()) {
        return skip("fstime full", "cannot mount a tmpfs here");
    }
    let o = run(ub(["fstime", "-w", "-t", "1", "-m", "4096", "-d"]).arg(&mnt));
    let left: Vec<_> = std::fs::read_dir(&mnt).unwrap().collect();
    let _ = Command::new("umount").arg(&mnt).status();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("write: "), "{}", stderr(&o));
    assert!(stderr(&o).contains("No space left") || stderr(&o).contains("full"), "{}", stderr(&o));
    assert!(left.is_empty(), "left behind on the full file system");
}

#[test]
fn fstime_over_the_file_size_limit_fails_cleanly() {
    let dir = Scratch::new("fsxfsz");
    let o = run(Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 100 && exec \"$0\" fstime -w -t 1 -m 2000 -d \"$1\"")
        .arg(bin())
        .arg(dir.path()));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("File too large"), "{}", stderr(&o));
    assert!(dir.entries().is_empty());
}

#[test]
fn fork_failure_names_the_iteration() {
    let b = bin();
    if Command::new("prlimit").arg("--version").stdout(Stdio::null()).status().is_err() {
        return skip("fork failure", "no prlimit to lower RLIMIT_NPROC with (Debian: util-linux)");
    }
    for (args, needle) in [
        (&["spawn", "3"][..], "Fork failed at iteration 0"),
        (&["syscall", "3", "exec"], "fork failed at iteration 0"),
    ] {
        let mut full = vec!["prlimit", "--nproc=1", b.to_str().unwrap()];
        full.extend_from_slice(args);
        let Some(mut c) = unprivileged(&full) else {
            return skip("fork failure", "running as root without setpriv; root ignores RLIMIT_NPROC");
        };
        let o = {
            let _turn = NOBODY.lock().unwrap_or_else(|e| e.into_inner());
            run(&mut c)
        };
        assert!(!o.status.success());
        assert!(stderr(&o).contains(needle), "{}", stderr(&o));
        assert!(stderr(&o).contains("Resource temporarily unavailable"), "{}", stderr(&o));
    }
}

/// The static binary users copy around has no PT_INTERP (it needs no dynamic loader) and stays
/// within its bound (`arches::bound`; docs/SIZE.md says how it is kept there).
#[test]
fn release_binary_is_static() {
    let Some(path) = std::env::var_os("UNIXBENCH_BIN") else {
        return skip("release binary", "UNIXBENCH_BIN not set (the debug build is dynamic)");
    };
    let elf = std::fs::read(Path::new(&path)).unwrap();
    let bound = crate::arches::bound(if elf.get(4) == Some(&1) { "i686" } else { "x86_64" });
    assert!(elf.len() <= bound, "the binary is {} bytes, more than {bound}", elf.len());
    assert_eq!(&elf[..4], b"\x7fELF");
    // std's decimal parser stays out (every f64 is read by json::decimal): its first entry of
    // powers of five, 5^-342's 128 bits, would be the start of a 10 KB table (docs/SIZE.md).
    let le = elf[5] == 1;
    let first: Vec<u8> = [0xeef4_53d6_923b_d65a_u64, 0x113f_aa29_06a1_3b3f]
        .iter()
        .flat_map(|w| if le { w.to_le_bytes() } else { w.to_be_bytes() })
        .collect();
    assert!(!elf.windows(16).any(|w| w == first), "std's f64 parser (its power-of-five table) is linked");
    // 64-bit, or 32-bit for the i686 build (`make test` runs this on both).
    let wide = elf[4] == 2;
    assert!(wide || elf[4] == 1, "ELF class {}", elf[4]);
    let u = |off: usize, n: usize| -> u64 {
        let b = &elf[off..off + n];
        let mut v = 0u64;
        for i in 0..n {
            let byte = if le { b[n - 1 - i] } else { b[i] };
            v = (v << 8) | u64::from(byte);
        }
        v
    };
    let (phoff, phentsize, phnum) = if wide {
        (u(0x20, 8) as usize, u(0x36, 2) as usize, u(0x38, 2) as usize)
    } else {
        assert_eq!(u(0x12, 2), 3, "a 32-bit ELF is the i386 build");
        (u(0x1c, 4) as usize, u(0x2a, 2) as usize, u(0x2c, 2) as usize)
    };
    assert!(phnum > 0);
    for i in 0..phnum {
        let p_type = u(phoff + i * phentsize, 4);
        assert_ne!(p_type, 3, "PT_INTERP found: the binary is dynamically linked");
    }
}
