//! A drop-in for `./Run`: a UnixBench-shaped directory (a `Run` link, `results/` and `tmp/`
//! beside it) driven the way wrapper scripts drive UnixBench, `--dry-run`, the results JSON on
//! request, and the help paths.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `<scratch>/UnixBench/Run`, a symbolic link to the binary under test.
fn unixbench_dir(s: &Scratch) -> PathBuf {
    let d = s.path().join("UnixBench");
    std::fs::create_dir(&d).unwrap();
    std::os::unix::fs::symlink(bin(), d.join("Run")).unwrap();
    d
}

/// `./Run ARGS` in `dir`, with none of the environment that would move its directories.
fn run_link(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new("./Run");
    c.args(args).current_dir(dir);
    for v in ["UB_RESULTDIR", "UB_TMPDIR", "UB_OUTPUT_FILE_NAME", "UB_OUTPUT_CSV", "UB_OUTPUT_JSON"] {
        c.env_remove(v);
    }
    c
}

/// The names in `dir`, sorted, or nothing if it does not exist.
fn names(dir: &Path) -> Vec<String> {
    let Ok(rd) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut v: Vec<String> = rd.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// The result set's extensions, as "" for the report, ".html", ...
fn extensions(dir: &Path) -> Vec<String> {
    names(dir).iter().map(|n| n.find('.').map_or(String::new(), |i| n[i..].to_string())).collect()
}

fn ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "stdout: {}\nstderr: {}", stdout(o), stderr(o));
}

/// The report rows of the index block, in order.
fn rows(report: &str) -> Vec<String> {
    report
        .lines()
        .skip_while(|l| {
            !(l.starts_with("System Benchmarks") && l.contains("Index") && l.contains("BASELINE"))
        })
        .skip(1)
        .take_while(|l| !l.starts_with("   "))
        .map(|l| l[..44].trim_end().to_string())
        .collect()
}

#[test]
fn a_test_name_first_is_runs_test_and_results_hold_runs_files() {
    let s = Scratch::new("dropin-run");
    let d = unixbench_dir(&s);
    // As wrappers call it: the test first, then Run's options.
    let o = run(&mut run_link(&d, &["syscall", "-c", "2", "-i", "1", "-t", "1"]));
    ok(&o);
    let out = stdout(&o);
    assert!(out.contains("running 2 parallel copies of tests"), "{out}");
    assert!(out.contains("System Call Overhead"), "{out}");
    // Beside Run: results/ with the report, .html and .log (what C's Run writes), tmp/ made.
    assert_eq!(extensions(&d.join("results")), ["", ".html", ".log"]);
    assert!(d.join("tmp").is_dir() && names(&d.join("tmp")).is_empty());
    let last = stderr(&o).lines().last().unwrap_or("").to_string();
    assert!(
        last.contains("results in ") && last.contains(&d.join("results").display().to_string()),
        "{last}"
    );

    // Several tests, then -q: the report alone, with a (partial) index of the three; UB_OUTPUT_CSV
    // adds a .csv.
    let o = run(run_link(&d, &["syscall", "pipe", "context1", "-q", "-c", "1", "-i", "1", "-t", "1"])
        .env("UB_OUTPUT_CSV", "true"));
    ok(&o);
    let out = stdout(&o);
    assert!(!out.contains("Based on the Byte Magazine Unix Benchmark"), "no banner with -q: {out}");
    assert_eq!(rows(&out), ["Pipe Throughput", "Pipe-based Context Switching", "System Call Overhead"]);
    // The run number ends the name's stem (the date before it may hold "-02" too).
    let second: Vec<String> = names(&d.join("results"))
        .into_iter()
        .filter(|n| n.split('.').next().unwrap().ends_with("-02"))
        .collect();
    let exts: Vec<&str> = second.iter().map(|n| n.find('.').map_or("", |i| &n[i..])).collect();
    assert_eq!(exts, ["", ".csv", ".html", ".log"], "{second:?}");
}

#[test]
fn run_found_through_path_or_a_relative_path_keeps_its_directories_beside_it() {
    let s = Scratch::new("dropin-path");
    let d = unixbench_dir(&s);
    let elsewhere = s.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let d = std::fs::canonicalize(&d).unwrap();
    let want = format!("Results would go to {}", d.join("results").display());
    // Ahead in PATH, a directory holding a `Run` that may not be executed: the shell passes it
    // over, and so must Run's home.
    let decoy = s.path().join("decoy");
    std::fs::create_dir(&decoy).unwrap();
    std::fs::write(decoy.join("Run"), "not a program\n").unwrap();
    let path = format!("{}:{}:{}", decoy.display(), d.display(), std::env::var("PATH").unwrap_or_default());
    for mut c in [Command::new("Run"), Command::new("../UnixBench/Run")] {
        c.args(["-n", "pipe"]).current_dir(&elsewhere).env("PATH", &path);
        for v in ["UB_RESULTDIR", "UB_TMPDIR"] {
            c.env_remove(v);
        }
        let o = run(&mut c);
        ok(&o);
        assert!(stdout(&o).contains(&want), "{c:?}: {}", stdout(&o));
    }
    // `unixbench Run` takes Run's command line but not the binary's directory for its own.
    let o = run(ub(["Run", "-n", "pipe"]).current_dir(&elsewhere).env_remove("UB_RESULTDIR"));
    ok(&o);
    assert!(stdout(&o).contains(&format!("Results would go to {}", elsewhere.join("results").display())));
}

#[test]
fn run_plans_through_the_link_create_nothing() {
    let s = Scratch::new("dropin-plan");
    let d = unixbench_dir(&s);
    let plan = |args: &[&str]| {
        let o = run(&mut run_link(&d, args));
        ok(&o);
        stdout(&o)
    };
    let entries = |p: &str| -> Vec<(usize, String)> {
        p.lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                Some((w.next()?.parse().ok()?, w.next()?.to_string()))
            })
            .collect()
    };
    // ./Run: the index at 1 copy, then at one per CPU; -c 1 -c 2: those two.
    let index: Vec<String> = entries(&plan(&["-n", "-c", "1"])).into_iter().map(|(_, t)| t).collect();
    assert_eq!(index.len(), 12, "{index:?}");
    assert_eq!(index[0], "dhry2reg");
    let two = entries(&plan(&["-n", "-c", "1", "-c", "2"]));
    assert_eq!(two.len(), 24);
    assert!(two[..12].iter().all(|(c, _)| *c == 1) && two[12..].iter().all(|(c, _)| *c == 2));
    assert!(plan(&["--dry-run"]).contains("Estimated time: "));
    assert_eq!(entries(&plan(&["-q", "-n", "-c", "1", "index"])).len(), 12);
    // gindex: the index and the graphics tests, these at one copy only.
    let g = entries(&plan(&["-n", "-c", "1", "-c", "2", "gindex"]));
    assert!(g.iter().any(|(c, t)| *c == 1 && t == "2d-rects"));
    assert!(!g.iter().any(|(c, t)| *c == 2 && t.starts_with("2d-")));
    // --format json: the same plan for programs.
    let j = plan(&["-n", "-c", "1", "-c", "2", "--format", "json", "pipe", "fstime"]);
    let v = base::json::parse(&j).unwrap_or_else(|e| panic!("{e:?}: {j}"));
    assert_eq!(v.get("schema").and_then(|s| s.as_str()), Some("unixbench-plan"), "{j}");
    let tests = v.get("tests").and_then(|t| t.as_array()).unwrap();
    let words = |t: &base::json::Value, k: &str| t.get(k).and_then(|x| x.as_f64());
    let got: Vec<(f64, &str)> = tests
        .iter()
        .map(|t| (words(t, "copies").unwrap(), t.get("test").unwrap().as_str().unwrap()))
        .collect();
    assert_eq!(got, [(1.0, "pipe"), (1.0, "fstime"), (2.0, "pipe"), (2.0, "fstime")]);
    assert_eq!(words(&tests[0], "passes"), Some(10.0));
    assert_eq!(words(&tests[1], "settle_secs"), Some(3.0), "{j}");
    assert!(words(&v, "estimated_secs").unwrap() > 100.0, "{j}");
    assert_eq!(names(&d), ["Run"], "a dry run makes no directory");
    // A short plan's estimate is a short run's.
    let p = plan(&["-n", "-t", "1", "-i", "1"]);
    let est = p.lines().find_map(|l| l.strip_prefix("Estimated time: ")).expect("an estimate");
    let secs: f64 = est.rsplit('(').next().and_then(|x| x.strip_suffix(" s)")).unwrap().parse().unwrap();
    assert!(p.contains("a short run: -t 1") && secs < 60.0, "{p}");
}

#[test]
fn gindex_without_graphics_skips_the_graphics_tests() {
    let s = Scratch::new("dropin-gfx");
    let d = unixbench_dir(&s);
    let o = run(&mut run_link(&d, &["2d-rects", "ubgears", "-c", "1", "-i", "1", "-t", "1"]));
    if stdout(&o).contains("2D graphics: rectangles  skipped: this binary was built without graphics") {
        ok(&o);
    } else {
        // A graphics build: the tests ran or found no display; neither fails the run, and
        // either way the report names the test.
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("2D graphics: rectangles"), "{}", stdout(&o));
    }
}

#[test]
fn the_json_is_written_when_asked() {
    let s = Scratch::new("dropin-json");
    let d = unixbench_dir(&s);
    let args = ["syscall", "-c", "1", "-i", "1", "-t", "1", "-q"];
    ok(&run(&mut run_link(&d, &args)));
    assert!(!extensions(&d.join("results")).contains(&".json".to_string()));
    let with = |extra: &[&str], env: Option<&str>| {
        let mut c = run_link(&d, &args);
        c.args(extra);
        if let Some(v) = env {
            c.env("UB_OUTPUT_JSON", v);
        }
        let o = run(&mut c);
        ok(&o);
        o
    };
    with(&["--json"], None);
    with(&[], Some("true"));
    let jsons: Vec<String> = names(&d.join("results")).into_iter().filter(|n| n.ends_with(".json")).collect();
    assert_eq!(jsons.len(), 2, "{jsons:?}");
    for j in &jsons {
        let text = std::fs::read_to_string(d.join("results").join(j)).unwrap();
        assert!(text.contains("\"unixbench-results\"") && text.contains("System Call Overhead"), "{text}");
    }
    let file = s.path().join("mine.json");
    with(&[&format!("--json={}", file.display())], None);
    assert!(std::fs::read_to_string(&file).unwrap().contains("\"unixbench-results\""));
    let o = run(&mut run_link(&d, &["--json", "--no-save", "syscall"]));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--no-save and --json exclude each other"), "{}", stderr(&o));
}

#[test]
fn every_help_path_exits_0_and_names_the_tests_of_the_table() {
    for args in [
        &["help"][..],
        &["version"],
        &["-h"],
        &["--help"],
        &["run", "-h"],
        &["pipe", "-h"],
        &["compare", "-h"],
    ] {
        let o = run(&mut ub(args));
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(!stdout(&o).is_empty(), "{args:?}");
    }
    let top = stdout(&run(&mut ub(["help"])));
    for word in
        ["--quick", "-t SECONDS", "--format", "--json", "--results", "--dry-run", "compare", "lmbench", "Run"]
    {
        assert!(top.contains(word), "the help names {word}: {top}");
    }
    // run --help lists every test of the table: those `all` plans.
    let s = Scratch::new("dropin-help");
    let d = unixbench_dir(&s);
    let o = run(&mut run_link(&d, &["--help"]));
    ok(&o);
    let help = stdout(&o);
    let all = stdout(&run(&mut run_link(&d, &["-n", "-c", "1", "all"])));
    let tests: Vec<&str> =
        all.lines().filter_map(|l| l.split_whitespace().nth(1).filter(|_| l.starts_with("  "))).collect();
    assert!(tests.len() > 30, "{all}");
    for t in tests.iter().filter(|t| **t != "test") {
        assert!(help.lines().any(|l| l.split_whitespace().next() == Some(t)), "run --help lists {t}");
    }
    // An unknown option is one short line pointing at the help that lists them all.
    let e = stderr(&run(&mut ub(["run", "--frob"])));
    assert_eq!(e, "unixbench: unknown option '--frob'; every option: 'unixbench run --help'\n");
}

/// Whether a program is on PATH.
fn have(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

#[test]
fn dropin_makes_the_directory_wrappers_check_for() {
    let s = Scratch::new("dropin-dir");
    let d = s.path().join("UnixBench");
    let o = run(ub(["--dropin"]).arg(&d));
    ok(&o);
    // As cloudharmony's run.php checks before it runs: pgms/ exists, results/ is writable.
    assert!(d.join("pgms").is_dir(), "{:?}", names(&d));
    assert!(base::sys::fd::writable(d.join("results").as_os_str()) && d.join("tmp").is_dir());
    assert_eq!(names(&d), ["Run", "pgms", "results", "tmp"]);
    // Run is a regular file (patch and sed -i take it as one), and pgms/ holds every program.
    assert!(std::fs::symlink_metadata(d.join("Run")).unwrap().is_file());
    let list = stdout(&run(&mut ub(["--list"])));
    for p in list.lines().filter(|p| *p != "Run") {
        let o = run(Command::new(d.join("pgms").join(p)).arg("--help"));
        assert!(o.status.success() && !stdout(&o).is_empty(), "pgms/{p} --help: {}", stderr(&o));
    }
    // A wrapper's run: the results land in results/, and nothing else is added beside Run.
    let o = run(&mut run_link(&d, &["syscall", "-c", "1", "-i", "1", "-t", "1", "-q"]));
    ok(&o);
    assert_eq!(extensions(&d.join("results")), ["", ".html", ".log"]);
    // STH's linux-bench `patch Run fix-limitation.patch` (Run's Perl source): the hunk fails,
    // patch says so and exits 1, and Run still runs; `sed -i` on Run leaves it working too.
    if have("patch") {
        std::fs::write(
            d.join("p.patch"),
            "--- Run\n+++ Run\n@@ -1,2 +1,2 @@\n-my $maxCopies = 16;\n+my $maxCopies = 0;\n \n",
        )
        .unwrap();
        let o = run(Command::new("patch").args(["Run", "p.patch"]).current_dir(&d));
        assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    } else {
        skip("dropin: the patch check", "no patch on PATH (Debian: patch)");
    }
    if have("sed") {
        ok(&run(Command::new("sed").args(["-i", "s/maxCopies/maxCopies/", "Run"]).current_dir(&d)));
    }
    let o = run(&mut run_link(&d, &["-n", "-c", "1", "pipe"]));
    ok(&o);
    // Made again: the binary brought up to date, Run (now a copy) kept as its own; a foreign
    // file in the way is left with a line and exit status 1.
    ok(&run(ub(["--dropin"]).arg(&d)));
    std::fs::remove_file(d.join("pgms").join("pipe")).unwrap();
    std::fs::write(d.join("pgms").join("pipe"), "mine\n").unwrap();
    let o = run(ub(["--dropin"]).arg(&d));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("skipped ") && stderr(&o).contains("pgms/pipe"), "{}", stderr(&o));
    // Only the last component is made, as mkdir.
    let o = run(ub(["--dropin"]).arg(s.path().join("no").join("such")));
    assert_eq!(o.status.code(), Some(2));
    assert!(!s.path().join("no").exists());
}

#[test]
fn concurrent_dropins_of_one_directory_all_succeed_and_leave_it_whole() {
    for round in 0..5 {
        let s = Scratch::new("dropin-race");
        let d = s.path().join(format!("UnixBench{round}"));
        let children: Vec<_> = (0..3)
            .map(|_| {
                ub(["--dropin".as_ref(), d.as_os_str()])
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for c in children {
            ok(&c.wait_with_output().unwrap());
        }
        for sub in ["pgms", "results", "tmp"] {
            assert!(d.join(sub).is_dir(), "{sub}");
        }
        assert_eq!(std::fs::read_link(d.join("pgms/looper")).unwrap(), Path::new("unixbench"));
        let o = run(Command::new(d.join("Run")).args(["-n", "pipe"]));
        ok(&o);
    }
}

/// `make install` into a DESTDIR and PREFIX with spaces: every path quoted, everything in place
/// (the release binary the Makefile built, not rebuilt: `-o unixbench`).
#[test]
fn make_install_quotes_its_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    if !root.join("unixbench").is_file() || Command::new("make").arg("--version").output().is_err() {
        return skip("make install", "no ./unixbench built by make, or no make");
    }
    let s = Scratch::new("make-install");
    let dest = s.path().join("a dest");
    let o = run(Command::new("make")
        .current_dir(root)
        .args(["-s", "-o", "unixbench", "install", "PREFIX=/opt/my ub", "LINKS=1"])
        .arg(format!("DESTDIR={}", dest.display())));
    ok(&o);
    let prefix = dest.join("opt/my ub");
    for f in [
        "bin/unixbench",
        "bin/pipe",
        "share/man/man1/unixbench.1",
        "share/bash-completion/completions/unixbench",
        "share/zsh/site-functions/_unixbench",
        "share/fish/vendor_completions.d/unixbench.fish",
    ] {
        assert!(prefix.join(f).exists(), "{f}: {}", stderr(&o));
    }
}
