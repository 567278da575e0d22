//! Progress on stderr as a person sees it: on a terminal (a pseudo-terminal here) one live line
//! of which test of how many, which pass (or round) and the time left; without one a plain line
//! as each test starts and ends, or in rounds the plan and a line per round; nothing with `-q`.

use crate::common::*;
use std::process::Command;

/// `unixbench -t 1 -i 2 -c 1 ARGS pipe syscall`, saving nothing, in a scratch directory.
fn short_run(s: &Scratch, args: &[&str]) -> Command {
    let mut c = ub(["-t", "1", "-i", "2", "-c", "1", "--no-save", "--tmpdir"]);
    c.arg(s.path()).args(args).args(["pipe", "syscall"]).current_dir(s.path());
    c
}

#[test]
fn without_a_terminal_each_test_says_when_it_starts_and_ends_with_the_time_left() {
    let s = Scratch::new("progress-plain");
    let o = run(&mut short_run(&s, &[]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(lines.len(), 4, "{err}");
    assert!(lines[0].starts_with("[1/2] Pipe Throughput, 1 copy: starts, ") && lines[0].ends_with(" s left"));
    assert!(lines[1].starts_with("[1/2] Pipe Throughput, 1 copy: done, "), "{err}");
    assert!(lines[2].starts_with("[2/2] System Call Overhead, 1 copy: starts, "), "{err}");
    assert_eq!(lines[3], "[2/2] System Call Overhead, 1 copy: done, 0 s left");
    // No terminal: no escape sequence, no pass-by-pass line.
    assert!(!err.contains('\x1b') && !err.contains("pass 1"), "{err:?}");
    // -q: no progress, only the summary at the end (and the busy host's line, when the tests
    // beside this one kept the host busy).
    let o = run(&mut short_run(&s, &["-q"]));
    assert_eq!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert_eq!(err.lines().filter(|l| !is_busy_line(l)).count(), 2, "{err}");
    assert!(err.starts_with("unixbench: partial index "), "{err}");
}

#[test]
fn on_a_terminal_one_live_line_says_the_test_the_pass_and_the_time_left() {
    let s = Scratch::new("progress-tty");
    let (tty, code) = on_a_terminal(short_run(&s, &[]), false);
    assert_eq!(code, Some(0), "{tty}");
    // Rewritten in place: a carriage return, the text, the rest of the line erased.
    for want in [
        "\r[1/2] Pipe Throughput, 1 copy: pass 1 of 2, ",
        "\r[1/2] Pipe Throughput, 1 copy: pass 2 of 2, ",
        "\r[2/2] System Call Overhead, 1 copy: pass 2 of 2, ",
    ] {
        assert!(tty.contains(want), "{want:?} not in {tty:?}");
    }
    assert!(tty.contains(" left\x1b[K"), "{tty:?}");
    assert!(!tty.contains("starts,\r\n"), "no plain lines on a terminal: {tty:?}");
    // -v writes its lines over the live one, which is drawn again after them.
    let (tty, _) = on_a_terminal(short_run(&s, &["-v"]), true);
    let after = tty.split("COPIES: \"1\"").nth(1).unwrap_or_else(|| panic!("{tty:?}"));
    assert!(
        after.contains("\r[1/2] Pipe Throughput, 1 copy: pass 1 of 2, "),
        "redrawn after -v's lines: {tty:?}"
    );
    // Run's progress on the same terminal: each of its lines written whole, the live line
    // erased before it and drawn again after it.
    let (tty, _) = on_a_terminal(short_run(&s, &[]), true);
    assert!(tty.contains("\r\x1b[K1 x Pipe Throughput  1 2\r\n\r[1/2] Pipe Throughput, 1 copy: "), "{tty:?}");
    // A terminal that cannot move its cursor, or names none: plain lines, as for a pipe.
    for term in [Some("dumb"), None] {
        let mut c = short_run(&s, &[]);
        match term {
            Some(t) => c.env("TERM", t),
            None => c.env("TERM", ""),
        };
        let (tty, code) = on_a_terminal(c, false);
        assert_eq!(code, Some(0), "{tty}");
        assert!(!tty.contains('\x1b') && tty.contains(" starts, "), "TERM={term:?}: {tty:?}");
    }
    // -q: no live line; the summary alone.
    let (tty, code) = on_a_terminal(short_run(&s, &["-q"]), false);
    assert_eq!(code, Some(0));
    let ours = tty.lines().filter(|l| !is_busy_line(l)).count();
    assert!(tty.starts_with("unixbench: partial index ") && ours == 2, "-q: {tty:?}");
}

/// On a terminal the report reads for a person (issue 53 item 5): its index set apart at the
/// end under a rule, in bold unless NO_COLOR is set; piped, stdout is the file's report.
#[test]
fn on_a_terminal_the_report_sets_the_index_apart_in_bold() {
    let s = Scratch::new("progress-person");
    let rule = "=".repeat(72);
    let (tty, code) = on_a_terminal(short_run(&s, &["-q"]), true);
    assert_eq!(code, Some(0), "{tty}");
    let head = format!("{rule}\r\n\x1b[1mSystem Benchmarks Index Score (Partial Only): ");
    let at = tty.find(&head).unwrap_or_else(|| panic!("{tty:?}"));
    assert!(tty[at..].contains(" (1 copy)\x1b[0m\r\n"), "{tty:?}");
    assert!(
        tty.contains("\r\n** Durations set with -t 1") || tty.contains("\r\n** Not a standard run"),
        "{tty:?}"
    );
    let mut c = short_run(&s, &["-q"]);
    c.env("NO_COLOR", "1");
    let (plain, _) = on_a_terminal(c, true);
    assert!(!plain.contains("\x1b[1m"), "NO_COLOR: {plain:?}");
    assert!(
        plain.contains(&format!("{rule}\r\nSystem Benchmarks Index Score (Partial Only): ")),
        "{plain:?}"
    );
    // Piped, the report as the file has it, which scripts read.
    let o = run(&mut short_run(&s, &["-q"]));
    let out = stdout(&o);
    assert!(
        !out.contains(" (1 copy)") && out.contains("\nSystem Benchmarks Index Score (Partial Only)  "),
        "{out}"
    );
}

/// The busy host's line of a run's end, which a host kept busy by other tests adds.
fn is_busy_line(line: &str) -> bool {
    line.starts_with("unixbench: busy host: ")
}

/// On an 80-column terminal the live line fits (a long test name shortened, the pass and the
/// time left kept) and is rewritten in place: the screen holds no line wider than the terminal
/// and no fragment of an earlier live line, whether Run's progress shares the terminal or not,
/// and the live line is gone once the run ends.
#[test]
fn on_an_80_column_terminal_the_live_line_never_wraps_nor_leaves_fragments() {
    let s = Scratch::new("progress-80");
    for both in [true, false] {
        // Back to back, whose live line (with its place and pass numbers) is the longest.
        let mut c = ub(["--quick=8", "--no-rounds", "-c", "1", "--no-save", "--tmpdir"]);
        c.arg(s.path()).args(["dhry2reg", "syscall"]).current_dir(s.path());
        let (tty, code) = on_a_terminal(c, both);
        assert_eq!(code, Some(0), "{tty}");
        // The live line was drawn, its test's name shortened to fit.
        assert!(tty.contains("\r[1/2] Dhrystone 2 using"), "{tty:?}");
        assert!(tty.contains("...,"), "the name cut: {tty:?}");
        let lines = screen(&tty);
        // The report (after Run's rule) and our own lines may be long: the progress may not.
        let end = lines.iter().position(|l| l.starts_with("=====")).unwrap_or(lines.len());
        for l in lines[..end].iter().filter(|l| !l.starts_with("unixbench: ")) {
            assert!(l.chars().count() <= 80, "a line wider than the terminal: {l:?}\n{tty:?}");
            assert!(!l.starts_with('['), "a live line left behind: {l:?}\n{tty:?}");
            assert!(l.matches("left").count() <= 1 && !l.contains("lefteft"), "a fragment: {l:?}");
        }
        if both {
            assert!(
                lines.iter().any(|l| l.starts_with("1 x Dhrystone 2 using register variables  1 2 3")),
                "{lines:#?}"
            );
        }
    }
}

/// A run of the standard index started on a terminal says first how long it will take and
/// the ways out; stopped with Ctrl-C, it keeps what it measured and says so.
#[test]
fn the_standard_index_on_a_terminal_says_how_long_it_takes_first() {
    let s = Scratch::new("progress-full");
    let mut c = ub(["--no-save", "-c", "1", "--tmpdir"]);
    c.arg(s.path()).current_dir(s.path());
    let (tty, code) = on_a_terminal_until(c, false, Some("--quick estimates it"), 80);
    assert_eq!(code, Some(130), "{tty}");
    let first = tty.lines().find(|l| l.starts_with("unixbench: ")).unwrap_or_else(|| panic!("{tty:?}"));
    assert!(
        first.starts_with("unixbench: the standard index takes about ")
            && first.contains("Ctrl-C stops it and keeps a report of the tests done"),
        "{first}"
    );
    assert!(tty.contains("stopped by SIGINT"), "{tty:?}");
    // Not on a quick run, nor without a terminal.
    let o = run(&mut ub(["-n", "--quick"]));
    assert!(!stderr(&o).contains("takes about"), "{}", stderr(&o));
}

/// A quick run in rounds with its stderr in a file: its plan in one line, then one line per
/// round (as many as the log's rounds), the last saying it was the last; no live line, and no
/// test's end said once the rounds are over.
#[test]
fn a_quick_run_with_stderr_to_a_file_says_its_plan_then_a_line_per_round() {
    let s = Scratch::new("progress-rounds");
    let (file, results) = (s.path().join("stderr"), s.path().join("results"));
    let mut c = ub(["--quick=8", "-c", "1", "--results"]);
    c.arg(&results).arg("--tmpdir").arg(s.path()).args(["syscall", "pipe"]).current_dir(s.path());
    let code = c.stdout(std::process::Stdio::null()).stderr(std::fs::File::create(&file).unwrap()).status();
    let err = std::fs::read_to_string(&file).unwrap();
    assert_eq!(code.unwrap().code(), Some(0), "{err}");
    let mut lines = err.lines().filter(|l| !l.starts_with("unixbench: "));
    let plan = lines.next().unwrap_or_else(|| panic!("{err}"));
    assert!(plan.starts_with("2 tests at 1 copy in ~") && plan.contains(" rounds, budget "), "{plan}");
    let rounds: Vec<&str> = lines.collect();
    let mut files = std::fs::read_dir(&results).unwrap().map(|e| e.unwrap().path());
    let log = files.find(|p| p.extension().is_some_and(|e| e == "log")).unwrap();
    let log = std::fs::read_to_string(log).unwrap();
    assert_eq!(rounds.len(), log.matches("** round ").count(), "{err}\n{log}");
    for (k, line) in rounds.iter().enumerate() {
        let of = if k + 1 == rounds.len() { format!("of {}: ", k + 1) } else { "of ~".to_string() };
        assert!(line.starts_with(&format!("round {} {of}", k + 1)), "{line}\n{err}");
        assert!(
            line.contains(": 2 passes, ") && line.contains(" disturbed, ") && line.ends_with(" left"),
            "{line}"
        );
    }
    assert!(!err.contains('\x1b') && !err.lines().any(|l| l.starts_with('[')), "{err:?}");
}

/// The live line of a run in rounds, at 50 and 80 columns: the round of how many, the test by
/// its catalogue name (its message while there is room), its copies and the time left, never
/// wider than the terminal; and a standard run's at 50 columns keeps its time left too.
#[test]
fn the_live_line_at_50_and_80_columns_keeps_the_time_left() {
    let s = Scratch::new("progress-narrow");
    for columns in [50, 80] {
        let mut c = ub(["--quick=8", "-c", "1", "--no-save", "--tmpdir"]);
        c.arg(s.path()).args(["dhry2reg", "syscall"]).current_dir(s.path());
        let (tty, code) = on_a_terminal_until(c, false, None, columns);
        assert_eq!(code, Some(0), "{tty}");
        let live = live_texts(&tty, usize::from(columns));
        let rounds: Vec<&str> = live.iter().copied().filter(|l| l.starts_with("[round ")).collect();
        assert!(rounds.iter().any(|l| l.contains(" of ~")), "{tty:?}");
        let named =
            if columns == 80 { "] dhry2reg (Dhrystone 2 using register" } else { "] dhry2reg, 1 copy, " };
        assert!(rounds.iter().any(|l| l.contains(named)), "{columns}: {tty:?}");
        assert!(rounds.iter().all(|l| l.contains(", 1 copy, ")), "{tty:?}");
        assert!(live.iter().any(|l| l.starts_with("round ")), "a round's end: {tty:?}");
    }
    let mut c = ub(["-t", "1", "-i", "2", "-c", "1", "--no-save", "--tmpdir"]);
    c.arg(s.path()).args(["dhry2reg", "syscall"]).current_dir(s.path());
    let (tty, code) = on_a_terminal_until(c, false, None, 50);
    assert_eq!(code, Some(0), "{tty}");
    let live = live_texts(&tty, 50);
    assert!(
        live.iter().any(|l| l.starts_with("[1/2] Dhry") && l.contains("..., 1 copy: pass 2 of 2, ")),
        "{tty:?}"
    );
}

/// The live texts a terminal `columns` wide received (each drawn after a carriage return and
/// ending in an erase), each checked to fit it, and a test's or a round's to end with the time
/// left.
fn live_texts(tty: &str, columns: usize) -> Vec<&str> {
    let live: Vec<&str> =
        tty.split('\r').filter_map(|l| l.strip_suffix("\x1b[K")).filter(|l| !l.is_empty()).collect();
    assert!(!live.is_empty(), "{tty:?}");
    for l in &live {
        let timed = l.starts_with('[') || l.starts_with("round ");
        assert!(l.len() < columns && (!timed || l.ends_with(" left")), "{columns} columns: {l:?}");
    }
    live
}
