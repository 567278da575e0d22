//! Dispatch: argv[0] and subcommand forms, --list, --install, --help, unknown names.

use crate::common::*;

#[test]
fn list_prints_every_applet_one_per_line() {
    let o = run(&mut ub(["--list"]));
    assert!(o.status.success());
    let names: Vec<String> = stdout(&o).lines().map(String::from).collect();
    for k in [
        "dhry2reg",
        "whetstone-double",
        "syscall",
        "pipe",
        "context1",
        "spawn",
        "execl",
        "fstime",
        "looper",
        "hanoi",
    ] {
        assert!(names.iter().any(|n| n == k), "{k} missing from --list: {names:?}");
    }
}

#[test]
fn unknown_program_is_a_usage_error() {
    let o = run(&mut ub(["frobnicate"]));
    assert_usage_error(&o, "unknown program 'frobnicate'");
    assert!(stderr(&o).starts_with("unixbench: "));
}

#[test]
fn version_and_help() {
    let o = run(&mut ub(["--version"]));
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("unixbench "));
    // It names the target triple it was built for (the x86 builds are musl, the debug build
    // the host's).
    let target = stdout(&o).trim_end().rsplit(" for ").next().unwrap_or_default().to_string();
    assert!(target.contains("-linux-") && target.split('-').count() >= 3, "{}", stdout(&o));
    assert!(target.starts_with(std::env::consts::ARCH) || target.starts_with("i686"), "{target}");
    let o = run(&mut ub(["--help"]));
    assert!(o.status.success());
    assert!(stdout(&o).contains("--install"));
    let o = run(&mut ub(["pipe", "--help"]));
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("Usage: pipe DURATION"));
}

#[test]
fn install_makes_working_symlinks_and_hard_links() {
    for (flag, tag) in [(Some("-s"), "sym"), (None, "hard")] {
        let dir = Scratch::new(&format!("install-{tag}"));
        let mut c = ub(["--install"]);
        if let Some(f) = flag {
            c.arg(f);
        }
        c.arg(dir.path());
        let o = run(&mut c);
        assert!(o.status.success(), "{}", stderr(&o));
        let list = stdout(&run(&mut ub(["--list"])));
        assert_eq!(dir.entries().len(), list.lines().count());
        let meta = std::fs::symlink_metadata(dir.path().join("pipe")).unwrap();
        assert_eq!(meta.file_type().is_symlink(), flag.is_some());
        // The link runs its applet: `./pipe --help` prints pipe's usage.
        let o = run(std::process::Command::new(dir.path().join("pipe")).arg("--help"));
        assert!(stdout(&o).starts_with("Usage: pipe DURATION"), "{}", stdout(&o));
    }
}

#[test]
fn install_refuses_a_missing_directory() {
    let o = run(&mut ub(["--install", "-s", "/nonexistent/dir"]));
    assert_usage_error(&o, "not a directory");
}

#[test]
fn leading_dash_in_argv0_is_dropped() {
    // A login-shell style argv[0] ("-pipe") still names the applet.
    use std::os::unix::process::CommandExt;
    let o = run(std::process::Command::new(bin()).arg0("-pipe").arg("--help"));
    assert!(stdout(&o).starts_with("Usage: pipe DURATION"), "{}", stdout(&o));
}

/// The README's table of programs names every applet the binary lists, so the docs follow the
/// applet table.
#[test]
fn readme_names_every_applet() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table: String = readme.lines().filter(|l| l.starts_with("| `")).collect::<Vec<_>>().join("\n");
    let list = stdout(&run(&mut ub(["--list"])));
    let missing: Vec<&str> = list.lines().filter(|n| !table.contains(&format!("`{n}`"))).collect();
    assert!(missing.is_empty(), "README's programs table lacks {missing:?}");
}
