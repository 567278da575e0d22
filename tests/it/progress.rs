//! Progress on stderr as a person sees it: on a terminal (a pseudo-terminal here) one live line
//! of which test of how many, which pass and the time left; without one a plain line as each
//! test starts and ends; nothing with `-q`.

use crate::common::*;
use std::process::{Command, Stdio};

/// `unixbench -t 1 -i 2 -c 1 ARGS pipe syscall`, saving nothing, in a scratch directory.
fn short_run(s: &Scratch, args: &[&str]) -> Command {
    let mut c = ub(["-t", "1", "-i", "2", "-c", "1", "--no-save", "--tmpdir"]);
    c.arg(s.path()).args(args).args(["pipe", "syscall"]).current_dir(s.path());
    c
}

/// Runs `c` with its stderr (and its stdout too, when `both`) on a new pseudo-terminal;
/// returns what the terminal received and the exit status.
fn on_a_terminal(mut c: Command, both: bool) -> (String, Option<i32>) {
    let (master, slave) = base::sys::fd::openpty().expect("a pseudo-terminal");
    let tty = || std::fs::OpenOptions::new().read(true).write(true).open(&slave).unwrap();
    c.stdin(Stdio::null()).stderr(tty());
    c.stdout(if both { Stdio::from(tty()) } else { Stdio::null() });
    let mut child = c.spawn().unwrap();
    drop(c);
    // The master is read while the run goes on: a terminal's buffer is small.
    let reader = std::thread::spawn(move || {
        let (mut out, mut buf) = (Vec::new(), [0u8; 4096]);
        // Reading ends (EIO) once every holder of the slave has closed it.
        while let Ok(n @ 1..) = base::sys::fd::read(master.raw(), &mut buf) {
            out.extend_from_slice(&buf[..n]);
        }
        out
    });
    let status = child.wait().unwrap();
    let out = reader.join().unwrap();
    (String::from_utf8_lossy(&out).into_owned(), status.code())
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
    // -q: silent as ever.
    let o = run(&mut short_run(&s, &["-q"]));
    assert_eq!(o.status.code(), Some(0));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
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
    assert!(after.contains("\x1b[s  [1/2] pass 1 of 2, "), "redrawn after -v's lines: {tty:?}");
    // Run's progress on the same terminal: the live text sits at the end of Run's line.
    let (tty, _) = on_a_terminal(short_run(&s, &[]), true);
    assert!(tty.contains("1 x Pipe Throughput \x1b[s  [1/2] Pipe Throughput, 1 copy: starts, "), "{tty:?}");
    assert!(tty.contains("\x1b[K 1\x1b[s  [1/2] pass 1 of 2, "), "{tty:?}");
    let (tty, code) = on_a_terminal(short_run(&s, &["-q"]), false);
    assert_eq!(code, Some(0));
    assert!(tty.is_empty(), "-q: {tty:?}");
}
