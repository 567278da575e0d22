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
    // The second line says what the binary was built as: its target triple and commit.
    let built = stdout(&o).lines().nth(1).unwrap_or("").to_string();
    let (target, commit) =
        built.strip_prefix("built for ").and_then(|r| r.split_once(" from commit ")).unwrap();
    assert!(target.contains("-linux-") && !target.contains(' '), "{built}");
    assert!(
        commit == "unknown" || commit.trim_end_matches("-dirty").chars().all(|c| c.is_ascii_hexdigit()),
        "{built}"
    );
    let o = run(&mut ub(["--help"]));
    assert!(o.status.success());
    assert!(stdout(&o).contains("--install"));
    let o = run(&mut ub(["pipe", "--help"]));
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("Usage: pipe DURATION"));
}

/// `help NAME` prints what `NAME --help` prints, for a command, a program, a test or a group; the
/// top-level help for the other commands, whose help it is; one line for a name of nothing.
#[test]
fn help_name_prints_what_name_help_prints() {
    for name in ["compare", "ab", "run", "lmbench", "pipe", "Run", "shell8", "index"] {
        let help = run(&mut ub(["help", name]));
        let own = run(&mut ub([name, "--help"]));
        assert_eq!(help.status.code(), Some(0), "help {name}: {}", stderr(&help));
        assert_eq!(stdout(&help), stdout(&own), "help {name}");
        assert!(stdout(&help).starts_with("Usage: "), "help {name}: {}", stdout(&help));
    }
    let top = stdout(&run(&mut ub(["help"])));
    for args in [&["help", "version"][..], &["help", "--list"], &["--help", "help"], &["help", "-h"]] {
        let o = run(&mut ub(args));
        assert_eq!((o.status.code(), stdout(&o)), (Some(0), top.clone()), "{args:?}");
    }
    assert_eq!(stdout(&run(&mut ub(["-h", "compare"]))), stdout(&run(&mut ub(["compare", "--help"]))));
    assert_usage_error(
        &run(&mut ub(["help", "comapre"])),
        "unknown program 'comapre' (did you mean compare?)",
    );
    assert_usage_error(&run(&mut ub(["help", "compare", "ab"])), "unexpected argument 'ab' after compare");
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
        // A line per link made, naming it.
        let said = stdout(&o);
        assert_eq!(said.lines().count(), list.lines().count(), "{said}");
        assert!(list.lines().all(|n| said.contains(&format!("{} ", dir.path().join(n).display()))), "{said}");
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
    assert_usage_error(&o, "'/nonexistent/dir' does not exist; make it first: mkdir -p '/nonexistent/dir'");
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

/// The README opens with the three commands a person with only the binary needs, and each
/// works (the runs planned only, `-n`).
#[test]
fn the_readme_opens_with_three_working_commands() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let block: Vec<&str> =
        readme.split("```sh\n").nth(1).unwrap().split("```").next().unwrap().lines().collect();
    assert_eq!(block.len(), 3, "{block:?}");
    assert!(readme.find("```sh").unwrap() < readme.find("\n## ").unwrap(), "before any section");
    for line in block {
        let words: Vec<&str> = line.split('#').next().unwrap().split_whitespace().collect();
        assert_eq!(words[0], "./unixbench", "{line}");
        let mut args: Vec<&str> = words[1..].to_vec();
        if !args.contains(&"--help") {
            args.push("-n");
        }
        let o = run(&mut ub(&args));
        assert_eq!(o.status.code(), Some(0), "{line}: {}", stderr(&o));
    }
}

#[test]
fn a_near_miss_names_the_closest_program_test_or_option() {
    for (args, needle) in [
        (&["dhrystone2"][..], "unknown program 'dhrystone2' (did you mean dhrystone"),
        (&["fstimee"], "(did you mean fstime"),
        (&["run", "pipee"], "unknown test or group 'pipee' (did you mean pipe?)"),
        (&["--quik"], "unknown option '--quik' (did you mean --quick?)"),
    ] {
        let o = run(&mut ub(args));
        assert_usage_error(&o, needle);
    }
    // Where each kind is listed is one command away, named in the error.
    assert!(stderr(&run(&mut ub(["frobnicate"]))).contains("tests and groups: 'unixbench run --help'"));
    // A program that is also a test, named without its arguments: how to run the test.
    let o = run(&mut ub(["pipe"]));
    assert_usage_error(&o, "missing duration");
    assert!(stderr(&o).contains("unixbench run pipe"), "{}", stderr(&o));
    // fstime, whose options all have defaults, refuses to run with none (C's would write in the
    // current directory for 25 s) and says the same.
    let dir = Scratch::new("fstime-bare");
    let o = run(ub(["fstime"]).current_dir(dir.path()));
    assert_usage_error(&o, "unixbench run fstime");
    assert!(dir.entries().is_empty());
}

#[test]
fn install_into_a_directory_others_can_write_warns() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new("install-open");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let o = run(ub(["--install", "-s"]).arg(dir.path()));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning:") && stderr(&o).contains("writable by other users"),
        "{}",
        stderr(&o)
    );
    // Sticky, as /tmp is: no warning.
    let quiet = Scratch::new("install-sticky");
    std::fs::set_permissions(quiet.path(), std::fs::Permissions::from_mode(0o1777)).unwrap();
    let o = run(ub(["--install", "-s"]).arg(quiet.path()));
    assert!(o.status.success() && stderr(&o).is_empty(), "{}", stderr(&o));
}
