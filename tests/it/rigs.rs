//! Rigs for the systems this tool is for and the faults it must survive: a BusyBox root without
//! /proc, the aarch64 binary under emulation, an unprivileged user, low process limits, signals
//! at random moments. Rigs that need root (chroot, mounts, other users) print one line saying
//! they were skipped when the tests do not run as root.

use crate::common::*;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The twelve result lines of a full index block.
const INDEX_MESSAGES: [&str; 12] = [
    "Dhrystone 2 using register variables",
    "Double-Precision Whetstone",
    "Execl Throughput",
    "File Copy 1024 bufsize 2000 maxblocks",
    "File Copy 256 bufsize 500 maxblocks",
    "File Copy 4096 bufsize 8000 maxblocks",
    "Pipe Throughput",
    "Pipe-based Context Switching",
    "Process Creation",
    "Shell Scripts (1 concurrent)",
    "Shell Scripts (8 concurrent)",
    "System Call Overhead",
];

pub(crate) fn is_root() -> bool {
    // /proc/self belongs to the effective user of the process that looks at it.
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

#[track_caller]
pub(crate) fn skip(rig: &str, why: &str) {
    crate::common::skip(&format!("rig {rig}"), why);
}

/// The host program `program`, found in PATH (or the sbin directories root's PATH may lack).
pub(crate) fn host(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

pub(crate) fn have(program: &str) -> bool {
    host(program).is_some()
}

/// `chroot ROOT`, by absolute path: the child's PATH is the root's, not ours.
pub(crate) fn chroot(root: &Path) -> Command {
    let mut c = Command::new(host("chroot").expect("chroot"));
    c.arg(root);
    c
}

/// Every test of the index produced a figure in every `Benchmark Run:` block of the report.
fn assert_full_index(report: &str, blocks: usize) {
    assert_eq!(report.matches("Benchmark Run:").count(), blocks, "{report}");
    for m in INDEX_MESSAGES {
        let rows = report.lines().filter(|l| l.starts_with(m) && l.contains("samples)")).count();
        assert_eq!(rows, blocks, "{m}: result lines in\n{report}");
    }
    assert_eq!(report.matches("System Benchmarks Index Score  ").count(), blocks, "{report}");
    assert!(!report.contains("Partial"), "{report}");
}

/// The one report (no extension) in `dir`, and the names of every file there.
pub(crate) fn report_in(dir: &Path) -> (String, Vec<String>) {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let base = names.iter().find(|n| !n.contains('.')).unwrap_or_else(|| panic!("no report in {names:?}"));
    (std::fs::read_to_string(dir.join(base)).unwrap(), names)
}

/// A directory holding only a static BusyBox and its applet links, /tmp, /dev/null and the
/// binary under test: a rescue system's root, without /proc.
pub(crate) fn busybox_root(tag: &str) -> Option<Scratch> {
    if std::env::var_os("UNIXBENCH_BIN").is_none() {
        // cargo's debug build is dynamically linked and cannot run in a root without libc.
        eprintln!("rig busybox root: needs the static binary (UNIXBENCH_BIN; make test sets it)");
        return None;
    }
    let busybox =
        ["/bin/busybox", "/usr/bin/busybox"].into_iter().map(PathBuf::from).find(|p| p.is_file())?;
    let root = Scratch::new(tag);
    for d in ["bin", "tmp", "dev"] {
        std::fs::create_dir(root.path().join(d)).unwrap();
    }
    std::fs::copy(&busybox, root.path().join("bin/busybox")).unwrap();
    std::fs::copy(bin(), root.path().join("unixbench")).unwrap();
    let st =
        Command::new("chroot").arg(root.path()).args(["/bin/busybox", "--install", "-s", "/bin"]).status();
    assert!(st.unwrap().success(), "busybox --install in the root");
    // Background jobs of any /bin/sh read /dev/null; a real minimal system has it.
    let st = Command::new("mknod")
        .args(["-m", "666"])
        .arg(root.path().join("dev/null"))
        .args(["c", "1", "3"])
        .status();
    assert!(st.unwrap().success(), "mknod /dev/null");
    Some(root)
}

#[test]
fn busybox_root_without_proc_runs_the_whole_index() {
    if !is_root() {
        return skip("busybox root", "needs root for chroot");
    }
    let Some(root) = busybox_root("bbroot") else {
        return skip("busybox root", "no static busybox (Debian: busybox-static)");
    };
    let o = run(chroot(root.path())
        .args([
            "/unixbench",
            "-i",
            "1",
            "-t",
            "1",
            "--json",
            "--results",
            "/tmp/results",
            "--tmpdir",
            "/tmp",
            "index",
        ])
        .env_clear()
        .env("PATH", "/bin"));
    assert!(o.status.success(), "status {:?}\n{}", o.status, stderr(&o));
    let (report, files) = report_in(&root.path().join("tmp/results"));
    let blocks = report.matches("Benchmark Run:").count();
    assert!(blocks >= 1);
    assert_full_index(&report, blocks);
    assert_eq!(files.len(), 4, "report, .html, .log, .json: {files:?}");
    let json =
        std::fs::read_to_string(root.path().join("tmp/results").join(format!("{}.json", files[0]))).unwrap();
    assert!(json.contains("\"interrupted\": false"), "{json}");
    // Nothing is left in /tmp but the results.
    let left: Vec<_> =
        std::fs::read_dir(root.path().join("tmp")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, [std::ffi::OsString::from("results")]);
}

#[test]
fn busybox_root_without_sh_skips_the_shell_tests() {
    if !is_root() {
        return skip("busybox root without /bin/sh", "needs root for chroot");
    }
    let Some(root) = busybox_root("bbnosh") else {
        return skip("busybox root without /bin/sh", "no static busybox (Debian: busybox-static)");
    };
    std::fs::remove_file(root.path().join("bin/sh")).unwrap();
    let o = run(chroot(root.path())
        .args(["/unixbench", "-q", "-i", "1", "-t", "1", "-c", "1", "--results", "/tmp/results"])
        .args(["--tmpdir", "/tmp", "shell1", "pipe"])
        .env_clear()
        .env("PATH", "/bin"));
    let out = stdout(&o);
    assert!(o.status.success(), "a skipped test is not a failure: {:?}\n{}", o.status, stderr(&o));
    assert!(out.contains("Pipe Throughput"), "{out}");
    assert!(!out.lines().any(|l| l.starts_with("Shell Scripts (1 concurrent)")), "{out}");
    assert!(out.contains("shell1") && out.contains("/bin/sh"), "the skip names the missing program: {out}");
}

/// The aarch64 binary, built by `make aarch64`; `make test` passes its path.
fn aarch64_bin() -> Option<PathBuf> {
    std::env::var_os("UNIXBENCH_AARCH64_BIN").map(PathBuf::from).filter(|p| p.is_file())
}

#[test]
fn aarch64_binary_is_within_1_mib_less_32_kib() {
    let Some(arm) = aarch64_bin() else {
        return skip("aarch64", "UNIXBENCH_AARCH64_BIN not set (make test sets it)");
    };
    let len = std::fs::read(&arm).unwrap().len();
    assert!(
        len <= crate::arches::bound("aarch64"),
        "the aarch64 binary is {len} bytes, more than 1 MiB less 32 KiB"
    );
}

#[test]
fn aarch64_binary_runs_its_kernels_under_emulation() {
    let Some(arm) = aarch64_bin() else {
        return skip("aarch64", "UNIXBENCH_AARCH64_BIN not set (make test sets it)");
    };
    if !have("qemu-aarch64-static") {
        return skip("aarch64", "no qemu-aarch64-static (Debian: qemu-user-static)");
    }
    let qemu = |args: &[&str]| run(Command::new("qemu-aarch64-static").arg(&arm).args(args));
    for k in [
        ["pipe", "1"],
        ["syscall", "1"],
        ["spawn", "1"],
        ["context1", "1"],
        ["dhry2reg", "1"],
        ["hanoi", "1"],
    ] {
        let o = qemu(&k);
        assert!(o.status.success(), "{k:?}: {}", stderr(&o));
        let c = counts(&stderr(&o));
        assert!(!c.is_empty() && c.iter().all(|(n, _, _)| *n > 0.0), "{k:?}: {}", stderr(&o));
        eprintln!("aarch64 (emulated, not a benchmark): {} {} -> {}", k[0], k[1], stderr(&o).trim());
    }
    if !Path::new("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists() {
        // make test registers the entry; a container's kernel may refuse it.
        return crate::common::skip_on_this_host(
            "binfmt_misc",
            "rig aarch64 driver",
            "binfmt_misc has no qemu-aarch64 entry, so emulated kernels cannot be exec'd",
        );
    }
    let dir = Scratch::new("arm");
    let o = run(Command::new("qemu-aarch64-static")
        .arg(&arm)
        .args(["-q", "-i", "1", "-t", "1", "-c", "1", "--results"])
        .arg(dir.path().join("results"))
        .arg("--tmpdir")
        .arg(dir.path())
        .args(["dhry2reg", "pipe", "spawn", "syscall"])
        .current_dir(dir.path()));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for m in [
        "Dhrystone 2 using register variables",
        "Pipe Throughput",
        "Process Creation",
        "System Call Overhead",
    ] {
        assert!(out.lines().any(|l| l.starts_with(m) && l.contains("samples)")), "{m}:\n{out}");
    }
    eprintln!("aarch64 (emulated, not a benchmark):\n{out}");
}

/// Runs `unixbench ARGS` as the unprivileged user `nobody` through setpriv, in `dir`, under
/// the resource limits in `limits` (prlimit options such as `--nproc=2`).
fn as_nobody(dir: &Path, limits: &[&str], args: &[&str]) -> Output {
    let exe = dir.join("unixbench");
    if !exe.exists() {
        std::fs::copy(bin(), &exe).unwrap();
    }
    run(Command::new(host("setpriv").unwrap())
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(host("prlimit").unwrap())
        .args(limits)
        .arg("--")
        .arg(&exe)
        .args(args)
        .current_dir(dir)
        .env("HOME", dir))
}

/// A scratch directory owned by nobody.
fn nobody_dir(tag: &str) -> Scratch {
    let d = Scratch::new(tag);
    let st = Command::new("chown").args(["-R", "65534:65534"]).arg(d.path()).status().unwrap();
    assert!(st.success());
    std::fs::set_permissions(d.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    d
}

#[test]
fn an_unprivileged_user_runs_the_short_index() {
    if !is_root() || !have("setpriv") || !have("prlimit") {
        return skip("not root", "needs root and setpriv to become another user");
    }
    let _turn = NOBODY.lock().unwrap_or_else(|e| e.into_inner());
    let d = nobody_dir("nobody");
    let o = as_nobody(
        d.path(),
        &[],
        &["-q", "-i", "1", "-t", "1", "-c", "1", "--json", "--tmpdir", ".", "index"],
    );
    assert!(o.status.success(), "{:?}\n{}", o.status, stderr(&o));
    assert_full_index(&stdout(&o), 1);
    let (report, files) = report_in(&d.path().join("results"));
    assert_full_index(&report, 1);
    assert_eq!(files.len(), 4, "{files:?}");
    // Only the binary and the results are left.
    assert_eq!(d.entries(), ["results", "unixbench"]);
}

#[test]
fn a_low_process_limit_fails_the_forking_tests_and_nothing_else() {
    if !is_root() || !have("setpriv") || !have("prlimit") {
        return skip("RLIMIT_NPROC", "root ignores RLIMIT_NPROC; needs root and setpriv to become nobody");
    }
    let _turn = NOBODY.lock().unwrap_or_else(|e| e.into_inner());
    let d = nobody_dir("nproc");
    // Two processes for nobody: the driver and one copy. A copy that forks cannot.
    let o = as_nobody(
        d.path(),
        &["--nproc=2:2"],
        &["-i", "1", "-t", "1", "-c", "1", "--json", "--tmpdir", ".", "spawn", "execl", "shell8", "pipe"],
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "failed tests make exit 1\n{out}\n{err}");
    assert!(out.lines().any(|l| l.starts_with("Pipe Throughput") && l.contains("samples)")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("** spawn: failed") && l.contains("Fork failed")), "{out}");
    assert!(out.lines().any(|l| l.starts_with("** shell8: failed")), "{out}");
    assert!(err.contains("aborting"), "wrappers look for the word: {err}");
    let (_, files) = report_in(&d.path().join("results"));
    let json = std::fs::read_to_string(d.path().join("results").join(format!("{}.json", files[0]))).unwrap();
    assert!(json.contains("Fork failed"), "the JSON names the reason");
    assert_eq!(d.entries(), ["results", "unixbench"], "nothing left behind");
}

#[test]
fn an_unwritable_results_dir_stops_before_anything_runs_and_a_missing_tmp_dir_is_refused() {
    let d = Scratch::new("dirs");
    let file = d.path().join("plainfile");
    std::fs::write(&file, "x").unwrap();
    let o = run(ub(["-i", "1", "-t", "1", "-c", "1", "--results"]).arg(file.join("results")).arg("pipe"));
    assert_usage_error(&o, "results");
    assert_eq!(d.entries(), ["plainfile"]);
    // Unlike Run, a missing tmp dir is never created (a typo would measure another disk): one
    // line naming it and where it came from, and nothing made, not even the results directory.
    let tmp = d.path().join("missing");
    let o = run(ub(["-q", "-i", "1", "-t", "1", "-c", "1", "--tmpdir"])
        .arg(&tmp)
        .arg("--results")
        .arg(d.path().join("results"))
        .arg("pipe")
        .current_dir(d.path()));
    assert_usage_error(&o, "--tmpdir");
    assert!(stderr(&o).contains(&*tmp.to_string_lossy()), "{}", stderr(&o));
    assert_eq!(d.entries(), ["plainfile"]);
    // An existing one is left as it was found: empty.
    std::fs::create_dir(&tmp).unwrap();
    let o = run(ub(["-q", "-i", "1", "-t", "1", "-c", "1", "--tmpdir"])
        .arg(&tmp)
        .arg("--results")
        .arg(d.path().join("results"))
        .arg("pipe")
        .current_dir(d.path()));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(&tmp).unwrap().count(), 0);
}

/// The live processes whose environment holds `tag`.
pub(crate) fn tagged(tag: &str) -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let env = std::fs::read(e.path().join("environ")).unwrap_or_default();
        let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
        if env.split(|&b| b == 0).any(|kv| kv == tag.as_bytes()) && !stat.contains(") Z ") {
            v.push(pid);
        }
    }
    v
}

#[test]
fn signals_at_random_moments_lose_nothing_and_leave_nothing() {
    // A small LCG: deterministic "random" moments, different per seed.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    for seed in 0..4u64 {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407 + seed);
        let delay_ms = 300 + (state >> 33) % 5000;
        let (sig, code) = if seed % 2 == 0 { ("-INT", 130) } else { ("-TERM", 143) };
        let d = Scratch::new(&format!("sig{seed}"));
        std::fs::create_dir(d.path().join("tmp")).unwrap();
        let tag = format!("UB_RIG_TAG=sig-{}-{seed}", std::process::id());
        let (k, v) = tag.split_once('=').unwrap();
        let child = ub(["-i", "1", "-t", "1", "-c", "2", "--json", "--results"])
            .arg(d.path().join("results"))
            .arg("--tmpdir")
            .arg(d.path().join("tmp"))
            .args(["pipe", "spawn", "fstime", "shell1", "syscall"])
            .current_dir(d.path())
            .env(k, v)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = Command::new("kill").args([sig, &child.id().to_string()]).status();
        let o = child.wait_with_output().unwrap();
        let out = stdout(&o);
        // It may have finished before the signal; otherwise it says it was interrupted.
        if o.status.code() != Some(0) {
            assert_eq!(
                o.status.code(),
                Some(code),
                "seed {seed} {sig} at {delay_ms} ms:\n{out}\n{}",
                stderr(&o)
            );
            let (report, files) = report_in(&d.path().join("results"));
            assert!(report.contains("interrupted"), "seed {seed}: report marked interrupted:\n{report}");
            let json = files.iter().find(|f| f.ends_with(".json")).expect("a JSON file");
            let json = std::fs::read_to_string(d.path().join("results").join(json)).unwrap();
            assert!(json.contains("\"interrupted\": true"), "seed {seed}");
            // Every result line printed before the signal is in the saved report.
            for l in report.lines().filter(|l| l.contains("samples)")) {
                assert!(json.contains(l.split("  ").next().unwrap()), "seed {seed}: {l} missing from JSON");
            }
        }
        let end = Instant::now() + Duration::from_secs(5);
        while !tagged(&tag).is_empty() && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(tagged(&tag).is_empty(), "seed {seed}: processes left: {:?}", tagged(&tag));
        let left: Vec<_> = std::fs::read_dir(d.path().join("tmp"))
            .map(|r| r.map(|e| e.unwrap().file_name()).collect())
            .unwrap_or_default();
        assert!(left.is_empty(), "seed {seed}: left in the tmp dir: {left:?}");
    }
}

/// The twins' rigs: a root with only musl's loader, a root with no loader, a loader that is
/// there but fails, a noexec tmp dir.
mod twins {
    use super::*;
    use crate::twin::image_line;

    fn applet(root: &Path, program: &str, request: Option<&str>) -> Output {
        let mut c = chroot(root);
        c.args(["/unixbench", program, "1"]).env_clear().env("PATH", "/bin").env("TMPDIR", "/tmp");
        if let Some(r) = request {
            c.env("UB_EXEC_IMAGE", r);
        }
        run(&mut c)
    }

    fn tmp_is_empty(root: &Path) {
        let left: Vec<_> =
            std::fs::read_dir(root.join("tmp")).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert!(left.is_empty(), "left in /tmp: {left:?}");
    }

    #[test]
    fn a_root_with_musls_loader_runs_the_musl_twin() {
        if !is_root() {
            return skip("musl root", "needs root for chroot");
        }
        let musl = Path::new("/lib/ld-musl-x86_64.so.1");
        if std::env::consts::ARCH != "x86_64" || !musl.exists() {
            return skip("musl root", "no /lib/ld-musl-x86_64.so.1 (Debian: musl)");
        }
        let Some(root) = busybox_root("muslroot") else {
            return skip("musl root", "no static busybox (Debian: busybox-static)");
        };
        std::fs::create_dir(root.path().join("lib")).unwrap();
        std::fs::copy(musl, root.path().join("lib/ld-musl-x86_64.so.1")).unwrap();
        for program in ["execl", "spawn"] {
            let o = applet(root.path(), program, None);
            let err = stderr(&o);
            assert!(o.status.success(), "{program}: {err}");
            assert_eq!(
                image_line(&err),
                Some(("dynamic-musl".into(), "/lib/ld-musl-x86_64.so.1".into())),
                "{err}"
            );
            assert!(counts(&err).iter().all(|c| c.0 > 0.0) && counts(&err).len() == 1, "{err}");
        }
        tmp_is_empty(root.path());
    }

    #[test]
    fn a_root_without_a_loader_falls_back_to_the_static_image_and_says_so() {
        if !is_root() {
            return skip("no-loader root", "needs root for chroot");
        }
        let Some(root) = busybox_root("noloader") else {
            return skip("no-loader root", "no static busybox (Debian: busybox-static)");
        };
        let o = applet(root.path(), "execl", None);
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        let (kind, why) = image_line(&err).expect("an IMAGE line");
        assert_eq!(kind, "static");
        assert!(why.starts_with("no C library loader on this host (") && why.contains("missing"), "{why}");
        // Asked for a twin where none can load: bad input, one line, exit 2, nothing made.
        for program in ["execl", "spawn"] {
            let o = applet(root.path(), program, Some("dynamic"));
            assert_usage_error(&o, "no C library loader on this host");
        }
        let o = run(chroot(root.path())
            .args(["/unixbench", "-t", "1", "-i", "1", "--exec-image", "dynamic", "execl"])
            .current_dir("/")
            .env_clear()
            .env("PATH", "/bin"));
        assert_usage_error(&o, "--exec-image: no C library loader on this host");
        assert!(!root.path().join("results").exists());
        tmp_is_empty(root.path());
        // The driver's report and JSON say what was timed.
        let o = run(chroot(root.path())
            .args([
                "/unixbench",
                "-q",
                "-c",
                "1",
                "-i",
                "1",
                "-t",
                "1",
                "--json",
                "--results",
                "/tmp/results",
            ])
            .args(["--tmpdir", "/tmp", "execl", "spawn"])
            .env_clear()
            .env("PATH", "/bin"));
        assert!(o.status.success(), "{}", stderr(&o));
        let (report, files) = report_in(&root.path().join("tmp/results"));
        assert!(
            report.contains("** execl and spawn ran on the static image (no C library loader"),
            "{report}"
        );
        let json =
            std::fs::read_to_string(root.path().join("tmp/results").join(format!("{}.json", files[0])))
                .unwrap();
        assert_eq!(json.matches("\"kind\": \"static\"").count(), 2, "{json}");
    }

    #[test]
    fn a_loader_that_is_there_but_fails_falls_back_or_fails_the_test() {
        if !is_root() {
            return skip("failing loader", "needs root for chroot");
        }
        if std::env::consts::ARCH != "x86_64" {
            return skip("failing loader", "the rig plants an x86_64 loader path");
        }
        let Some(root) = busybox_root("badloader") else {
            return skip("failing loader", "no static busybox (Debian: busybox-static)");
        };
        // A file where glibc's loader should be that cannot load anything: busybox itself,
        // which, run as an interpreter, finds no applet and exits non-zero.
        std::fs::create_dir(root.path().join("lib64")).unwrap();
        std::fs::copy(root.path().join("bin/busybox"), root.path().join("lib64/ld-linux-x86-64.so.2"))
            .unwrap();
        let o = applet(root.path(), "spawn", None);
        let err = stderr(&o);
        assert!(o.status.success(), "{err}");
        let (kind, why) = image_line(&err).expect("an IMAGE line");
        assert_eq!(kind, "static", "{err}");
        assert!(why.starts_with("no dynamic spawn image runs here (glibc: its check "), "{why}");
        let o = applet(root.path(), "execl", Some("dynamic-glibc"));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("execl: no dynamic execl image runs here (glibc: "), "{err}");
        tmp_is_empty(root.path());
    }

    #[test]
    fn a_noexec_tmp_dir_takes_the_memfd_path() {
        if !is_root() {
            return skip("noexec tmp", "needs root to mount a tmpfs");
        }
        let dir = Scratch::new("noexec");
        let mnt = dir.path().join("mnt");
        std::fs::create_dir(&mnt).unwrap();
        let st =
            Command::new("mount").args(["-t", "tmpfs", "-o", "noexec,size=1m", "tmpfs"]).arg(&mnt).status();
        assert!(st.unwrap().success(), "mount tmpfs noexec");
        let outcome = std::panic::catch_unwind(|| {
            for program in ["execl", "spawn"] {
                let o = run(ub([program, "1"])
                    .env("TMPDIR", &mnt)
                    .env_remove("UB_TMPDIR")
                    .env_remove("UB_EXEC_IMAGE"));
                let err = stderr(&o);
                assert!(o.status.success(), "{err}");
                let (kind, detail) = image_line(&err).expect("an IMAGE line");
                assert!(kind.starts_with("dynamic-") && detail.ends_with(" (memfd)"), "{err}");
                assert!(counts(&err).len() == 1 && counts(&err)[0].0 > 0.0, "{err}");
                let left: Vec<_> = std::fs::read_dir(&mnt).unwrap().collect();
                assert!(left.is_empty(), "left on the noexec mount: {left:?}");
            }
        });
        let _ = Command::new("umount").arg(&mnt).status();
        outcome.unwrap();
    }

    #[test]
    fn the_aarch64_twins_run_under_emulation() {
        let Some(arm) = aarch64_bin() else {
            return skip("aarch64 twins", "UNIXBENCH_AARCH64_BIN not set (make test sets it)");
        };
        if !have("qemu-aarch64-static") {
            return skip("aarch64 twins", "no qemu-aarch64-static (Debian: qemu-user-static)");
        }
        if !Path::new("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists() {
            // make test registers the entry; a container's kernel may refuse it.
            return crate::common::skip_on_this_host(
                "binfmt_misc",
                "rig aarch64 twins",
                "no binfmt_misc entry to exec the twin",
            );
        }
        for (family, loader) in
            [("glibc", "/lib/ld-linux-aarch64.so.1"), ("musl", "/lib/ld-musl-aarch64.so.1")]
        {
            if !Path::new(loader).exists() {
                skip("aarch64 twins", &format!("no {loader} (make test installs arm64's {family})"));
                continue;
            }
            let tmp = Scratch::new("armtwin");
            for program in ["execl", "spawn"] {
                let o = run(Command::new("qemu-aarch64-static")
                    .arg(&arm)
                    .args([program, "1"])
                    .env("UB_EXEC_IMAGE", format!("dynamic-{family}"))
                    .env("TMPDIR", tmp.path())
                    .env_remove("UB_TMPDIR"));
                let err = stderr(&o);
                assert!(o.status.success(), "{family} {program}: {err}");
                assert_eq!(
                    image_line(&err),
                    Some((format!("dynamic-{family}"), loader.to_string())),
                    "{err}"
                );
                assert!(counts(&err).len() == 1 && counts(&err)[0].0 > 0.0, "{err}");
                eprintln!("aarch64 {family} twin (emulated, not a benchmark): {program} 1 -> {}", err.trim());
            }
            assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
        }
    }
}

#[test]
fn copies_beyond_the_process_limit_fail_the_pass_saying_what_the_limit_is() {
    if !is_root() || !have("setpriv") || !have("prlimit") {
        return skip(
            "RLIMIT_NPROC copies",
            "root ignores RLIMIT_NPROC; needs root and setpriv to become another user",
        );
    }
    // RLIMIT_NPROC counts every process of the real user, on the whole machine: a user id of
    // this test's own (no account needed), so that no other process of nobody's counts.
    let uid = (61_000 + std::process::id() % 4000).to_string();
    let d = Scratch::new("nproc-copies");
    std::fs::copy(bin(), d.path().join("unixbench")).unwrap();
    let st = Command::new("chown").args(["-R", &format!("{uid}:{uid}")]).arg(d.path()).status().unwrap();
    assert!(st.success());
    // Three processes: the driver and two copies; four copies are refused before any starts.
    let o = run(Command::new(host("setpriv").unwrap())
        .args([format!("--reuid={uid}"), format!("--regid={uid}"), "--clear-groups".into(), "--".into()])
        .arg(host("prlimit").unwrap())
        .args(["--nproc=3:3", "--"])
        .arg(d.path().join("unixbench"))
        .args(["-q", "-i", "1", "-t", "1", "-c", "4", "--tmpdir", ".", "pipe"])
        .current_dir(d.path())
        .env("HOME", d.path()));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}\n{}", stderr(&o));
    assert!(
        out.contains(
            "** pipe: failed: 4 copies need as many processes, but the process limit is 3 (ulimit -u)"
        ),
        "{out}"
    );
    assert_eq!(d.entries(), ["results", "unixbench"], "nothing left behind");
}
