//! The bad-input table: malformed command lines across the driver and every kernel. Each must
//! give exactly one line on stderr, exit status 2, and write nothing to disk.

use crate::common::*;

/// (arguments after `unixbench`, a word the error line must contain)
const CASES: &[(&[&str], &str)] = &[
    // dispatch
    (&["frobnicate"], "unknown program"),
    (&["help", "frobnicate"], "unknown program 'frobnicate'"),
    (&["help", "pipe", "10"], "unexpected argument '10' after pipe"),
    (&["--install"], "--install"),
    (&["--install", "-s"], "--install"),
    // counting kernels: duration
    (&["pipe"], "duration"),
    (&["pipe", ""], "duration"),
    (&["pipe", "0"], "duration"),
    (&["pipe", "-1"], "duration"),
    (&["pipe", "abc"], "duration"),
    (&["pipe", "1.5"], "duration"),
    (&["pipe", "99999999999999999999999"], "duration"),
    (&["pipe", "10", "extra"], "extra"),
    (&["context1", "x"], "duration"),
    (&["spawn", "0"], "duration"),
    (&["execl", ""], "duration"),
    (&["dhry2reg", "-5"], "duration"),
    (&["dhry2", "ten"], "duration"),
    (&["arithoh", "0"], "duration"),
    (&["double"], "duration"),
    (&["hanoi", "1", "0"], "disk"),
    (&["hanoi", "1", "many"], "disk"),
    (&["hanoi", "nan"], "duration"),
    // syscall
    (&["syscall", "1", "fork"], "expected mix"),
    (&["syscall", "1", ""], "expected mix"),
    (&["syscall", "0", "mix"], "duration"),
    // fstime
    (&["fstime"], "unixbench run fstime"),
    (&["fstime", "-x"], "-x"),
    (&["fstime", "-b", "100"], "-b"),
    (&["fstime", "-b", "9000"], "-b"),
    (&["fstime", "-b"], "-b"),
    (&["fstime", "-m", "0"], "-m"),
    (&["fstime", "-m", "2000000"], "-m"),
    (&["fstime", "-t", "0"], "-t"),
    (&["fstime", "-t", "4000"], "-t"),
    (&["fstime", "-t", "abc"], "-t"),
    (&["fstime", "-d"], "-d"),
    (&["fstime", "-s", "0"], "-s"),
    (&["fstime", "-s", "-1"], "-s"),
    (&["fstime", "-s", "abc"], "-s"),
    (&["fstime", "-s"], "-s"),
    // whetstone-double: an optional duration, nothing else
    (&["whetstone-double", "0"], "duration"),
    (&["whetstone-double", "-1"], "duration"),
    (&["whetstone-double", "abc"], "duration"),
    (&["whetstone-double", "1", "extra"], "extra"),
    // looper
    (&["looper"], "duration"),
    (&["looper", "0", "true"], "duration"),
    (&["looper", "5"], "command"),
    (&["looper", "x", "true"], "duration"),
    // driver
    (&["run", "nosuchtest"], "nosuchtest"),
    (&["-c", "0", "dhry"], "-c"),
    (&["-c", "-1", "dhry"], "-c"),
    (&["-c", "abc", "dhry"], "-c"),
    (&["-c"], "-c"),
    (&["-i", "x", "dhry"], "-i"),
    (&["-t", "0", "dhry"], "-t"),
    (&["--frobnicate"], "--frobnicate"),
    // an optional value written apart is a test name: the error suggests it attached
    (&["--quick", "30"], "unknown test or group '30' (did you mean --quick=30?)"),
    (&["--json", "r.json", "pipe"], "(did you mean --json=r.json?)"),
    (&["--format", "xml", "dhry"], "xml"),
    (&["run", "-q", "index", "bogus"], "bogus"),
    (&["--results", "no/such/results", "-c", "1", "-t", "1", "-i", "1", "pipe"], "only the last component"),
    (&["-n", "--results", "no/such/results", "pipe"], "its parent does not exist"),
];

#[test]
fn every_malformed_command_line_is_one_line_and_exit_2() {
    assert!(CASES.len() >= 40);
    let dir = Scratch::new("badinput");
    let mut failures = Vec::new();
    for (args, needle) in CASES {
        let o = run(ub(*args).current_dir(dir.path()).env("UB_RESULTDIR", dir.path().join("results")));
        let err = stderr(&o);
        let ok = o.status.code() == Some(2) && err.lines().count() == 1 && err.contains(needle);
        if !ok {
            failures.push(format!("{args:?}: status {:?}, stderr {err:?}", o.status.code()));
        }
    }
    assert!(dir.entries().is_empty(), "bad input wrote files: {:?}", dir.entries());
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

#[test]
fn a_name_with_a_newline_is_shown_escaped_on_one_line() {
    for args in [&["run", "pi\npe"][..], &["pi\npe"], &["run", "--fr\nob"], &["-c", "1\n2"]] {
        let o = run(&mut ub(args));
        assert_usage_error(&o, "\\n");
    }
}
