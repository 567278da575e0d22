//! The dynamically linked twins of execl and spawn: which image the applets time, what the
//! driver records of it, and how bad requests are refused. Rigs that need root (a chroot, a
//! noexec mount) are in rigs.rs.

use crate::common::*;
use std::path::Path;

/// The IMAGE line of a kernel's stderr, as (kind, detail).
pub fn image_line(err: &str) -> Option<(String, String)> {
    err.lines().find_map(|l| {
        let f: Vec<&str> = l.split('|').collect();
        (f.len() == 3 && f[0] == "IMAGE").then(|| (f[1].to_string(), f[2].to_string()))
    })
}

/// Runs `program 1` with TMPDIR in a scratch dir and the given UB_EXEC_IMAGE; returns the image
/// line and the count, and checks that the scratch dir is left empty.
fn run_applet(program: &str, request: Option<&str>) -> ((String, String), f64) {
    let tmp = Scratch::new("twin");
    let mut c = ub([program, "1"]);
    c.env("TMPDIR", tmp.path()).env_remove("UB_TMPDIR").env_remove("UB_EXEC_IMAGE");
    if let Some(r) = request {
        c.env("UB_EXEC_IMAGE", r);
    }
    let o = run(&mut c);
    let err = stderr(&o);
    assert!(o.status.success(), "{program} {request:?}: {err}");
    let image = image_line(&err).unwrap_or_else(|| panic!("no IMAGE line: {err}"));
    let c = counts(&err);
    assert_eq!(c.len(), 1, "{err}");
    assert!(c[0].0 > 0.0 && c[0].1 == 1 && c[0].2 == "lps", "{err}");
    assert!(tmp.entries().is_empty(), "left behind: {:?}", tmp.entries());
    (image, c[0].0)
}

#[test]
fn execl_and_spawn_time_the_twin_of_this_hosts_c_library() {
    for program in ["execl", "spawn"] {
        let ((kind, loader), _) = run_applet(program, None);
        if Path::new("/lib64/ld-linux-x86-64.so.2").exists() && std::env::consts::ARCH == "x86_64" {
            // This host's /bin/sh is glibc's: that family goes first.
            assert_eq!((kind.as_str(), loader.as_str()), ("dynamic-glibc", "/lib64/ld-linux-x86-64.so.2"));
        } else {
            assert!(kind.starts_with("dynamic-") || kind == "static", "{kind}");
        }
    }
}

#[test]
fn every_c_library_family_runs_where_its_loader_is() {
    let loaders = [("glibc", "/lib64/ld-linux-x86-64.so.2"), ("musl", "/lib/ld-musl-x86_64.so.1")];
    for (family, loader) in loaders {
        if std::env::consts::ARCH != "x86_64" || !Path::new(loader).exists() {
            skip(&format!("twin {family}"), &format!("no {loader} (make test installs Debian's musl)"));
            continue;
        }
        for program in ["execl", "spawn"] {
            let request = format!("dynamic-{family}");
            let ((kind, detail), n) = run_applet(program, Some(&request));
            assert_eq!((kind.as_str(), detail.as_str()), (request.as_str(), loader));
            eprintln!("twin {family} {program}: {n} in 1 s (not a benchmark)");
        }
    }
    let ((kind, why), _) = run_applet("execl", Some("static"));
    assert_eq!((kind.as_str(), why.as_str()), ("static", "UB_EXEC_IMAGE=static"));
}

#[test]
fn through_a_link_named_after_the_program_as_runs_perl_run() {
    let dir = Scratch::new("twinlink");
    let link = dir.path().join("execl");
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    let o = run(std::process::Command::new(&link).arg("1").env("TMPDIR", dir.path()).env_remove("UB_TMPDIR"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(image_line(&stderr(&o)).is_some() && counts(&stderr(&o)).len() == 1, "{}", stderr(&o));
    assert_eq!(dir.entries(), ["execl"]);
}

#[test]
fn the_driver_records_the_image_in_the_json_log_and_html() {
    let dir = Scratch::new("twindrv");
    let results = dir.path().join("results");
    let o = run(ub(["-q", "-c", "1", "-i", "1", "-t", "1", "--json", "--results"])
        .arg(&results)
        .arg("--tmpdir")
        .arg(dir.path())
        .args(["execl", "spawn"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("static image"), "{}", stdout(&o));
    let file = |ext: &str| {
        let e = std::fs::read_dir(&results).unwrap().map(|e| e.unwrap().path());
        let p: Vec<_> = e.filter(|p| p.extension().is_some_and(|x| x == ext)).collect();
        std::fs::read_to_string(&p[0]).unwrap()
    };
    let json = file("json");
    assert_eq!(json.matches("\"exec_image\": {").count(), 2, "{json}");
    assert_eq!(json.matches("\"kind\": \"dynamic-").count(), 2, "{json}");
    assert_eq!(json.matches("\"loader\": \"/").count(), 2, "{json}");
    let log = file("log");
    assert_eq!(log.matches("# IMAGE0: dynamic-").count(), 2, "{log}");
    let html = file("html");
    assert!(html.contains("Image timed:") && html.contains("<b>Execl Throughput</b>: dynamic-"), "{html}");

    let o = short_json_run("static", dir.path(), &["execl", "spawn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json = stdout(&o);
    assert_eq!(json.matches("\"kind\": \"static\"").count(), 2, "{json}");
    assert_eq!(json.matches("\"reason\": \"UB_EXEC_IMAGE=static\"").count(), 2, "{json}");
    let o = run(ub(["-q", "-c", "1", "-i", "1", "-t", "1", "--no-save", "--exec-image", "static"])
        .arg("--tmpdir")
        .arg(dir.path())
        .args(["execl", "spawn"]));
    let report = stdout(&o);
    let note = "** execl and spawn ran on the static image (UB_EXEC_IMAGE=static): not comparable with the C suite's figures";
    assert_eq!(report.matches(note).count(), 1, "{report}");
}

#[test]
fn a_bad_exec_image_is_refused_before_anything_is_created() {
    let dir = Scratch::new("twinbad");
    let o = run(ub(["--exec-image", "fast", "execl"]).current_dir(dir.path()));
    assert_usage_error(
        &o,
        "invalid --exec-image 'fast': expected auto, dynamic, dynamic-glibc, dynamic-musl or static",
    );
    let o = run(ub(["-t", "1", "execl"]).current_dir(dir.path()).env("UB_EXEC_IMAGE", "fast"));
    assert_usage_error(&o, "UB_EXEC_IMAGE='fast': not one of");
    assert!(dir.entries().is_empty(), "{:?}", dir.entries());
    for program in ["execl", "spawn"] {
        let o = run(ub([program, "1"]).env("UB_EXEC_IMAGE", "fast").env("TMPDIR", dir.path()));
        assert_usage_error(&o, "UB_EXEC_IMAGE='fast'");
    }
    assert!(dir.entries().is_empty(), "{:?}", dir.entries());
}

#[test]
fn compare_flags_a_row_whose_two_sides_timed_different_images() {
    let dir = Scratch::new("twincmp");
    let save = |image: &str| {
        let o = short_json_run(image, dir.path(), &["execl", "syscall"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let path = dir.path().join(format!("{image}.json"));
        std::fs::write(&path, o.stdout).unwrap();
        path
    };
    let (stat, auto) = (save("static"), save("auto"));
    let o = run(ub(["compare"]).arg(&stat).arg(&auto));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let row =
        |name: &str| out.lines().find(|l| l.starts_with(name)).unwrap_or_else(|| panic!("{out}")).to_string();
    if !row("Execl Throughput").ends_with('!') {
        // Only where a twin ran: on a host without a loader both sides are static.
        assert!(std::fs::read_to_string(&auto).unwrap().contains("\"kind\": \"static\""), "{out}");
        return;
    }
    assert!(!row("System Call Overhead").ends_with('!'), "{out}");
    assert!(out.contains("\n!: the two timed different exec images"), "{out}");
    // The same file on both sides: no flag.
    let o = run(ub(["compare"]).arg(&auto).arg(&auto));
    assert!(!stdout(&o).contains('!'), "{}", stdout(&o));
}

#[test]
fn a_signal_during_the_run_leaves_no_twin_and_no_process() {
    use std::os::unix::process::ExitStatusExt;
    for (program, sig) in [("execl", libc_sig::TERM), ("spawn", libc_sig::INT)] {
        let tmp = Scratch::new("twinsig");
        let mut child = ub([program, "20"])
            .env("TMPDIR", tmp.path())
            .env_remove("UB_TMPDIR")
            .env_remove("UB_EXEC_IMAGE")
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Until the twin is staged and running (its directory appears).
        let t0 = std::time::Instant::now();
        while tmp.entries().is_empty() && t0.elapsed().as_secs() < 10 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        std::thread::sleep(std::time::Duration::from_millis(300));
        let staged = !tmp.entries().is_empty();
        assert!(std::process::Command::new("kill")
            .arg(format!("-{sig}"))
            .arg(child.id().to_string())
            .status()
            .unwrap()
            .success());
        let st = child.wait().unwrap();
        assert!(st.signal().is_some() || st.code().is_some_and(|c| c > 128), "{program}: {st:?}");
        assert!(tmp.entries().is_empty(), "{program}: left {:?}", tmp.entries());
        // Nothing still runs from the staged directory.
        let needle = tmp.path().to_string_lossy().into_owned();
        let stray: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| std::fs::read(e.unwrap().path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&needle))
            .collect();
        assert!(stray.is_empty(), "{program}: still running: {stray:?}");
        if !staged {
            eprintln!("twin signal: {program} ran no twin here; checked the static image's cleanup only");
        }
    }
}

/// Signal names for `kill -NAME`.
mod libc_sig {
    pub const TERM: &str = "TERM";
    pub const INT: &str = "INT";
}

/// A one-pass, one-second, one-copy run of `tests` with `--exec-image image`, its results
/// JSON on stdout and nothing saved.
fn short_json_run(image: &str, tmp: &Path, tests: &[&str]) -> std::process::Output {
    run(ub(["-q", "-c", "1", "-i", "1", "-t", "1", "--no-save", "--format", "json", "--exec-image", image])
        .arg("--tmpdir")
        .arg(tmp)
        .args(tests))
}
