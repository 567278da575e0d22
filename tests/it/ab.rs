//! `unixbench ab`: two arms in the same rounds, B over A with its paired interval, in every
//! format; the arms' options; the ABBA order and its seed.

use crate::common::*;
use base::json::{self, Value};
use std::os::unix::fs::PermissionsExt;

/// `ab ARGS` with short rounds: one copy, `-i` rounds, quiet, JSON into the scratch directory.
/// Returns the output and the JSON.
fn ab(s: &Scratch, args: &[&str]) -> (std::process::Output, Value) {
    let file = s.path().join("ab.json");
    let _ = std::fs::remove_file(&file);
    let mut c = ub(["ab", "-q", "-c", "1", "--tmpdir"]);
    c.arg(s.path()).arg(format!("--json={}", file.display())).args(args);
    let o = run(&mut c);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    (o, json::parse(&text).unwrap_or_else(|e| panic!("{e:?}: {text}")))
}

fn num(v: &Value, k: &str) -> f64 {
    v.get(k).and_then(Value::as_f64).unwrap_or_else(|| panic!("{k} in {v:?}"))
}

/// Each (round, start) of arm `k`'s passes of test `name`.
fn starts(v: &Value, k: usize, name: &str) -> Vec<(usize, f64)> {
    let run = v.get("arms").unwrap().as_array().unwrap()[k].get("run").unwrap();
    let results = run.get("runs").unwrap().as_array().unwrap()[0].get("results").unwrap();
    let r = results.as_array().unwrap().iter().find(|r| r.get("name").and_then(Value::as_str) == Some(name));
    let passes = r.unwrap().get("passes").unwrap().as_array().unwrap();
    passes.iter().map(|p| (num(p, "round") as usize, num(p, "start"))).collect()
}

#[test]
fn two_arms_run_side_by_side_abba_and_every_output_holds_the_paired_ratio() {
    let s = Scratch::new("ab-two");
    // A wrapper named by a relative path runs from wherever the copies start.
    let wrapper = s.path().join("wrap.sh");
    std::fs::write(&wrapper, "#!/bin/sh\nshift\nexec env UB_AB_TEST=1 \"$@\"\n").unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = s.path().join("ab.json");
    let mut c = ub([
        "ab",
        "-q",
        "-c",
        "1",
        "--b-wrap",
        "./wrap.sh 'a b'",
        "--seed",
        "11",
        "-i",
        "4",
        "syscall",
        "pipe",
    ]);
    c.arg(format!("--json={}", file.display())).arg("--tmpdir").arg(s.path()).current_dir(s.path());
    let o = run(&mut c);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json::parse(&std::fs::read_to_string(&file).unwrap()).unwrap();
    // The text: the arms, a verdict per copy count, the table.
    let text = stdout(&o);
    assert!(text.contains("B (wrap.sh 'a b'): runs under: ./wrap.sh 'a b'"), "{text}");
    assert!(text.contains("\n1 copy: ") && text.contains(" A on the partial index"), "{text}");
    assert!(text.contains("\nsyscall ") && text.contains("95% interval"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
    // The ABBA order: A first in odd rounds, B first in even ones, every round paired.
    for name in ["syscall", "pipe"] {
        let (a, b) = (starts(&v, 0, name), starts(&v, 1, name));
        assert_eq!(a.iter().map(|x| x.0).collect::<Vec<_>>(), [1, 2, 3, 4], "{name}: {a:?}");
        for ((round, ta), (rb, tb)) in a.iter().zip(&b) {
            assert_eq!(round, rb);
            assert_eq!(ta < tb, round % 2 == 1, "{name} round {round}: A at {ta}, B at {tb}");
        }
    }
    // The JSON: each arm a whole results document, the paired rows, the verdicts.
    assert_eq!(v.get("schema").and_then(Value::as_str), Some("unixbench-ab"));
    let rows = v.get("paired").unwrap().as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r.get("test").and_then(Value::as_str).unwrap()).collect();
    assert_eq!(names, ["syscall", "pipe", "index:system"]);
    for r in rows {
        let (ratio, low, high) = (num(r, "ratio"), num(r, "ratio_ci95_low"), num(r, "ratio_ci95_high"));
        assert!(low < ratio && ratio < high, "{r:?}");
        assert_eq!(num(r, "rounds"), 4.0);
        assert_eq!(r.get("marked").and_then(Value::as_bool), Some(low > 1.0 || high < 1.0));
        assert!(num(r, "detectable_pct") > 0.0);
    }
    // compare reads either arm of the JSON.
    let file = s.path().join("ab.json");
    let c = run(&mut ub([
        "compare".as_ref(),
        format!("{}#a", file.display()).as_ref(),
        format!("{}#b", file.display()).as_ref() as &std::ffi::OsStr,
    ]));
    // The two arms of one file are two runs, not a file given twice.
    assert_eq!((c.status.code(), stderr(&c).as_str()), (Some(0), ""));
    assert!(stdout(&c).contains("Pipe Throughput"), "{}", stdout(&c));
    let whole = run(&mut ub(["compare".as_ref(), file.as_os_str()]));
    assert_usage_error(&whole, "name one as FILE#a or FILE#b");
    let third = run(ub(["compare".as_ref(), format!("{}#c", file.display()).as_ref() as &std::ffi::OsStr])
        .arg(format!("{}#a", file.display())));
    assert_usage_error(&third, "no arm '#c': an ab file's arms are FILE#a and FILE#b");
}

#[test]
fn the_seed_repeats_the_rounds_orders() {
    let s = Scratch::new("ab-seed");
    let order = |v: &Value| {
        // Each round's tests by the start of their A pass.
        let mut all: Vec<(usize, f64, &str)> = ["syscall", "pipe", "arithoh"]
            .iter()
            .flat_map(|n| starts(v, 0, n).into_iter().map(move |(r, t)| (r, t, *n)))
            .collect();
        all.sort_by(|x, y| (x.0, x.1).partial_cmp(&(y.0, y.1)).unwrap());
        all.into_iter().map(|x| x.2.to_string()).collect::<Vec<_>>()
    };
    let args = ["--seed", "42", "-i", "2", "syscall", "pipe", "arithoh"];
    let (_, first) = ab(&s, &args);
    let (_, again) = ab(&s, &args);
    assert_eq!(order(&first), order(&again));
    assert_eq!(num(&first, "seed"), 42.0);
}

#[test]
fn every_format_carries_the_same_rows() {
    let s = Scratch::new("ab-formats");
    let mut outs = Vec::new();
    for f in ["tsv", "csv", "md", "html"] {
        let (o, _) = ab(&s, &["--format", f, "-i", "2", "syscall"]);
        outs.push(stdout(&o));
    }
    let tsv = &outs[0];
    assert_eq!(
        tsv.lines().next(),
        Some(
            "copies\ttest\ttitle\ta\tb\tratio\tratio_ci95_low\tratio_ci95_high\tmarked\tdetectable_pct\trounds\t\
             a_arm\tb_arm\tinterrupted\tnote"
        )
    );
    let row: Vec<&str> = tsv.lines().nth(1).unwrap().split('\t').collect();
    assert_eq!((row[0], row[1], row[10]), ("1", "syscall", "2"), "{tsv}");
    assert_eq!(
        (row[11], row[12], row[13], row[14]),
        ("A: this binary as it is", "B: this binary as it is", "no", "-")
    );
    assert!(matches!(row[8], "yes" | "no"), "{tsv}");
    assert!(outs[1].starts_with("copies,test,title,a,b,ratio,"), "{}", outs[1]);
    assert!(outs[2].contains("\n| copies | test |") && outs[2].contains("| syscall |"), "{}", outs[2]);
    let html = &outs[3];
    assert!(
        html.contains("<svg") && html.contains("1 (no difference)") && html.contains("System Call Overhead")
    );
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn an_arm_runs_another_unixbench_binary_in_its_own_tmpdir_and_semantics() {
    let s = Scratch::new("ab-bin");
    let other = s.path().join("old-unixbench");
    std::fs::copy(bin(), &other).unwrap();
    let tmp_b = s.path().join("tmp-b");
    std::fs::create_dir(&tmp_b).unwrap();
    let (o, v) = ab(
        &s,
        &[
            "--b-bin",
            other.to_str().unwrap(),
            "--b-tmpdir",
            tmp_b.to_str().unwrap(),
            "--b-semantics",
            "5.1.3",
            "--a-name",
            "new",
            "-i",
            "2",
            "syscall",
        ],
    );
    let text = stdout(&o);
    assert!(text.contains("A (new): this binary as it is"), "{text}");
    assert!(text.contains("the kernels of: ") && text.contains("semantics: 5.1.3"), "{text}");
    let arms = v.get("arms").unwrap().as_array().unwrap();
    let b = arms[1].get("run").unwrap();
    assert!(b.get("version").and_then(Value::as_str).unwrap().starts_with("5.1.3"), "{b:?}");
    let settings = b.get("settings").unwrap();
    assert_eq!(settings.get("tmpdir").and_then(Value::as_str), tmp_b.to_str());
    let cmd = |arm: &Value| {
        let r = &arm.get("run").unwrap().get("runs").unwrap().as_array().unwrap()[0];
        r.get("results").unwrap().as_array().unwrap()[0]
            .get("command")
            .and_then(Value::as_str)
            .unwrap()
            .to_string()
    };
    assert!(cmd(&arms[1]).starts_with("UB_SEMANTICS=5.1.3 "), "{}", cmd(&arms[1]));
    assert!(!cmd(&arms[0]).contains("UB_SEMANTICS"), "{}", cmd(&arms[0]));
    // Nothing left in either tmp directory.
    assert!(std::fs::read_dir(&tmp_b).unwrap().next().is_none());
}

#[test]
fn bad_arm_options_are_refused_with_one_line() {
    let bad: &[(&[&str], &str)] = &[
        (&["ab", "--a-wrap", ""], "--a-wrap needs a command"),
        (&["ab", "--b-wrap", "nice 'x"], "a single quote is not closed"),
        (&["ab", "--b-wrap", "no-such-wrapper-program"], "no program 'no-such-wrapper-program' found"),
        (&["ab", "--b-bin", "/nonexistent/ub"], "--b-bin"),
        (&["ab", "--a-semantics", "5.0"], "invalid --a-semantics"),
        (&["ab", "--b-exec-image", "x"], "invalid --b-exec-image"),
        (&["ab", "--precision", "0"], "invalid --precision"),
        (&["ab", "--a-name", ""], "invalid --a-name"),
        (&["ab", "-t", "2"], "not in ab: -t"),
        (&["ab", "--no-interleave"], "not in ab"),
        (&["ab", "--json"], "--json needs =FILE"),
        (&["ab", "--results", "/tmp"], "not in ab"),
        (&["ab", "-i", "1"], "ab needs 2 rounds at least"),
        (&["ab", "-c", "1", "--quick=6", "pipe"], "too small a budget for ab"),
        (&["ab", "--a-name", "x", "--b-name", "x"], "the arms could not be told apart"),
        (&["ab", "--b-name", "A"], "B/A would read backwards"),
        (&["ab", "--b-bin", "/bin/true"], "is not a unixbench binary"),
        (&["--b-wrap", "nice"], "an option of 'unixbench ab'"),
        (&["run", "--precision", "2"], "an option of 'unixbench ab'"),
    ];
    for (args, needle) in bad {
        let o = run(&mut ub(*args));
        assert_usage_error(&o, needle);
    }
    // A closed stdout would lose the report after the rounds: refused before them.
    let c = ub(["ab", "-i", "2", "syscall"]);
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c").arg("exec \"$@\" >&-").arg("sh").arg(c.get_program()).args(c.get_args());
    assert_usage_error(&run(&mut sh), "stdout is closed");
}

#[test]
fn the_plan_names_the_arms_and_the_rounds_time() {
    let o = run(&mut ub(["ab", "-n", "-c", "1", "--b-wrap", "nice -n 5", "pipe"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("B (nice -n 5): runs under: nice -n 5"), "{out}");
    assert!(out.contains("at least 4 rounds"), "{out}");
    let help = stdout(&run(&mut ub(["ab", "--help"])));
    for w in ["--a-wrap CMD", "--b-bin PATH", "--precision PCT", "Run's options:"] {
        assert!(help.contains(w), "{w}: {help}");
    }
}

/// A directory laid out as a built C UnixBench: `Run`, `pgms/` whose programs are scripts that
/// report known counts (and what they were given), `testdir/`.
fn c_suite(s: &Scratch) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let root = s.path().join("UnixBench");
    for d in ["pgms", "testdir"] {
        std::fs::create_dir_all(root.join(d)).unwrap();
    }
    std::fs::write(root.join("Run"), "#!/usr/bin/perl -w\nmy $version = \"6.0.0\";\n").unwrap();
    // syscall counts 5000 in its 1 s; pipe records its argv, its directory and UB_BINDIR.
    let programs = [
        ("syscall", "sleep 1; echo 'COUNT|5000|1|lps' >&2; echo 'TIME|1.0' >&2"),
        ("pipe", "echo \"$0 $* in $PWD with $UB_BINDIR\" >> \"$UB_BINDIR/../seen\"; echo 'COUNT|300|1|lps' >&2; echo 'TIME|1.0' >&2"),
    ];
    for (name, body) in programs {
        let p = root.join("pgms").join(name);
        std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    root
}

#[test]
fn an_arm_runs_a_c_unixbench_directory_s_programs_with_run_s_command_lines() {
    let s = Scratch::new("ab-c");
    let c = c_suite(&s);
    let (o, v) = ab(&s, &["--b-bin", c.to_str().unwrap(), "-i", "2", "syscall", "pipe", "dhry2reg"]);
    let text = stdout(&o);
    assert!(text.contains("B (C): C UnixBench 6.0.0's programs in: "), "{text}");
    let rows = v.get("paired").unwrap().as_array().unwrap();
    let row = |t: &str| rows.iter().find(|r| r.get("test").and_then(Value::as_str) == Some(t)).unwrap();
    // The C programs' counts are B's figures.
    assert!((num(row("syscall"), "b") - 5000.0).abs() < 1e-6, "{:?}", row("syscall"));
    assert!((num(row("pipe"), "b") - 300.0).abs() < 1e-6, "{:?}", row("pipe"));
    // A program the directory lacks: B skips the test, A's figure stands, no ratio.
    let dhry = row("dhry2reg");
    assert!(dhry.get("b").unwrap().is_null() && dhry.get("ratio").unwrap().is_null(), "{dhry:?}");
    let b = &v.get("arms").unwrap().as_array().unwrap()[1];
    let results = b.get("run").unwrap().get("runs").unwrap().as_array().unwrap()[0].get("results").unwrap();
    let skipped = results
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r.get("name").and_then(Value::as_str) == Some("dhry2reg"));
    assert!(
        skipped.unwrap().get("skipped").and_then(Value::as_str).unwrap().contains("not built"),
        "{skipped:?}"
    );
    // pipe ran as C's Run runs it: its path as argv[0], the duration word, UB_BINDIR set, in
    // a copy's own directory of the work directory.
    let seen = std::fs::read_to_string(c.join("seen")).unwrap();
    let pgms = c.join("pgms").canonicalize().unwrap();
    let first = seen.lines().next().unwrap();
    assert!(first.starts_with(&format!("{}/pipe 1 in ", pgms.display())), "{seen}");
    assert!(first.ends_with(&format!("with {}", pgms.display())) && first.contains("/copy-1 "), "{seen}");
    // A pass a round, or two where the pair was measured again (a script that sleeps looks
    // stopped to a test whose copies keep their CPUs busy).
    assert!((2..=4).contains(&seen.lines().count()), "{seen}");
}
