//! What one copy's whole stderr and exit status come to: its [`CopyOutcome`], read line by line
//! through `protocol::parse` (docs/ORIGINAL.md, "Reading a copy"); `protocol::verdict` then
//! says whether it scored, failed or was skipped. Apart from `base::protocol` only for size:
//! this is cold code, built with the driver.

use crate::model::{CopyOutcome, ExecImage};
use crate::protocol::{parse, Line};

/// Describes a raw wait status for an error message.
pub fn describe_status(status: i32) -> String {
    if libc::WIFEXITED(status) {
        format!("command returned status {status} (exit code {})", libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        let name = match crate::sys::signal::name(sig) {
            Some(n) if sig == libc::SIGXFSZ => format!(", {n}: file size limit exceeded"),
            Some(n) => format!(", {n}"),
            None => String::new(),
        };
        format!("command returned status {status} (killed by signal {sig}{name})")
    } else {
        format!("command returned status {status}")
    }
}

/// The most lines of a copy's stray stderr kept in its error.
pub const MAX_STRAY_LINES: usize = 5;

/// How much of a copy's stderr is held before [`hold`] compacts it.
const MAX_HELD: usize = 1 << 20;

/// The field by which [`hold`] tells [`parse_copy`] how many stray lines it dropped.
const DROPPED: &str = "UB_STRAY_DROPPED";

/// Appends `more` of a copy's stderr to `held`. Past [`MAX_HELD`] bytes, the complete lines held
/// are compacted: every protocol line stays, the stray ones beyond the first few are dropped and
/// counted in a `UB_STRAY_DROPPED|n` line, so that a copy printing without end (a host without
/// /dev/null, a tool in a loop) holds little memory and [`parse_copy`] still counts them.
pub fn hold(held: &mut Vec<u8>, more: &[u8]) {
    held.extend_from_slice(more);
    if held.len() <= MAX_HELD {
        return;
    }
    let cut = held.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = String::from_utf8_lossy(&held[..cut]).into_owned();
    let (mut kept, mut stray, mut dropped) = (String::new(), 0usize, 0usize);
    for line in text.lines() {
        if matches!(parse(line), Line::Stray(_)) {
            if stray == MAX_STRAY_LINES {
                dropped += 1;
                continue;
            }
            stray += 1;
        } else if let Some(n) = line.strip_prefix(DROPPED).and_then(|r| r.strip_prefix('|')) {
            // An earlier compaction's count, merged into this one's.
            dropped += n.parse::<usize>().unwrap_or(0);
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    // A line without end (no newline in half the buffer) is dropped so far, and counted.
    let tail = &held[cut..];
    let endless = tail.len() > MAX_HELD / 2;
    dropped += usize::from(endless);
    if dropped > 0 {
        kept.push_str(&format!("{DROPPED}|{dropped}\n"));
    }
    let mut rest = kept.into_bytes();
    if !endless {
        rest.extend_from_slice(tail);
    }
    *held = rest;
}

/// One copy's outcome from everything it wrote on stderr, its elapsed wall time (until its
/// stderr reached EOF), its raw wait status and pid, as Run's helper and `readResults` see it:
/// `FIELD|v` lines become fields (the last one wins), `FIELD|a|b|c` become FIELD0.., a line
/// without `|` is error text, a non-zero status is an error. Stricter than Run in one way: a
/// clean exit with no COUNT line is an error too (Run would count it as 0).
pub fn parse_copy(stderr: &str, elapsed: f64, status: i32, pid: i32) -> CopyOutcome {
    let Said { fields, mut error, mut stray } = read_stderr(stderr);
    // Lines that `hold` dropped while the copy ran.
    stray += fields
        .iter()
        .filter(|(f, _)| f == DROPPED)
        .filter_map(|(_, v)| v.parse::<usize>().ok())
        .sum::<usize>();
    if stray > MAX_STRAY_LINES {
        add_error(&mut error, &format!("(and {} more lines)", stray - MAX_STRAY_LINES));
    }
    let get = |k: &str| fields.iter().rev().find(|(f, _)| f == k).map(|(_, v)| v);
    let num = |k: &str| get(k).and_then(|v| v.trim().parse::<f64>().ok());
    let count = num("COUNT0");
    if error.is_none() && status != 0 {
        error = Some(describe_status(status));
    }
    if error.is_none() && count.is_none() {
        error = Some("the program printed no result (no COUNT line on its stderr)".into());
    }
    CopyOutcome {
        count,
        timebase: num("COUNT1"),
        label: get("COUNT2").cloned(),
        time: num("TIME"),
        // Run reads `elapsed|%f`: whole microseconds, as the log prints it (`# elapsed: %f`),
        // so that a log gives back every pass's figures exactly (compare reads them there).
        elapsed: (elapsed * 1e6).round() / 1e6,
        status,
        error,
        pid,
        image: get("IMAGE0")
            .map(|kind| ExecImage { kind: kind.clone(), detail: get("IMAGE1").cloned().unwrap_or_default() }),
        started: None,
    }
}

/// What a copy's stderr says, line by line.
struct Said {
    /// A few fields per copy, in the order printed; looked up from the end, so the last wins.
    fields: Vec<(String, String)>,
    error: Option<String>,
    /// Lines that are not protocol. Only the first are kept, as error text: a copy (or a host
    /// without /dev/null) that prints thousands of lines cannot flood the report.
    stray: usize,
}

fn read_stderr(stderr: &str) -> Said {
    let mut said = Said { fields: Vec::new(), error: None, stray: 0 };
    for line in stderr.lines() {
        match parse(line) {
            Line::Stray(_) if said.stray >= MAX_STRAY_LINES => said.stray += 1,
            Line::Stray(text) => {
                said.stray += 1;
                add_error(&mut said.error, if text.is_empty() { "(an empty line)" } else { &text })
            }
            Line::Error(msg) => said.error = Some(msg),
            _ => push_fields(&mut said.fields, line),
        }
    }
    said
}

/// `FIELD|v` is one field, `FIELD|a|b|c` are FIELD0, FIELD1...
fn push_fields(fields: &mut Vec<(String, String)>, line: &str) {
    // Perl's split drops trailing empty fields.
    let mut parts: Vec<&str> = line.split('|').collect();
    while parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    match parts.as_slice() {
        [field, value] => {
            fields.push((field.to_string(), value.to_string()));
        }
        [field, values @ ..] => {
            for (i, v) in values.iter().enumerate() {
                fields.push((format!("{field}{i}"), v.to_string()));
            }
        }
        [] => {}
    }
}

/// Error text on a line of its own after any already there.
fn add_error(e: &mut Option<String>, text: &str) {
    match e {
        Some(s) => {
            s.push('\n');
            s.push_str(text);
        }
        None => *e = Some(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{verdict, Verdict};

    #[test]
    fn a_copy_printing_without_end_is_held_in_little_memory_and_still_counted() {
        let mut held = Vec::new();
        let line = b"sh: 1: cannot open /dev/null: No such file\n";
        let n = 3 * MAX_HELD / line.len();
        for i in 0..n {
            hold(&mut held, line);
            if i == 7 {
                hold(&mut held, b"COUNT|1|60|lpm\n");
            }
        }
        hold(&mut held, b"COUNT|42|60|lpm\nTIME|1.0\n");
        assert!(held.len() <= MAX_HELD + line.len(), "{} bytes held", held.len());
        let c = parse_copy(&String::from_utf8(held).unwrap(), 1.0, 0, 1);
        assert_eq!((c.count, c.time), (Some(42.0), Some(1.0)));
        let e = c.error.unwrap();
        assert!(e.ends_with(&format!("(and {} more lines)", n - MAX_STRAY_LINES)), "{e}");
        assert_eq!(e.lines().count(), MAX_STRAY_LINES + 1);
    }

    #[test]
    fn a_line_without_end_is_not_held_whole() {
        let mut held = Vec::new();
        for _ in 0..4 * MAX_HELD / 4096 {
            hold(&mut held, &[b'x'; 4096]);
        }
        assert!(held.len() <= MAX_HELD + 4096, "{} bytes held", held.len());
        hold(&mut held, b"\nCOUNT|3|1|lps\n");
        let c = parse_copy(&String::from_utf8_lossy(&held), 1.0, 0, 1);
        assert_eq!(c.count, Some(3.0));
        assert!(c.error.is_some(), "the stray text is still an error");
    }

    #[test]
    fn a_flood_of_stray_lines_is_kept_to_its_first_lines_and_a_count() {
        let mut err: String = (0..5000).map(|i| format!("sh: cannot open /dev/null {i}\n")).collect();
        err.push_str("COUNT|5|60|lpm\n");
        let c = parse_copy(&err, 1.0, 0, 1);
        let e = c.error.unwrap();
        assert_eq!(e.lines().count(), MAX_STRAY_LINES + 1, "{e}");
        assert!(e.starts_with("sh: cannot open /dev/null 0\n"), "{e}");
        assert!(e.ends_with("\n(and 4995 more lines)"), "{e}");
        assert_eq!(c.count, Some(5.0), "protocol lines after the flood are still read");
    }

    #[test]
    fn parse_copy_errors() {
        // Stray text is an error, joined by newlines; context1's two COUNT lines: the last wins.
        let c = parse_copy("COUNT|5|1|lps\nCOUNT|7|1|lps\n", 1.0, 0, 1);
        assert_eq!((c.count, c.error), (Some(7.0), None));
        let c = parse_copy("warning: x\nCOUNT|5|1|lps\nsh: dc: not found\n", 1.0, 0, 1);
        assert_eq!(c.error.as_deref(), Some("warning: x\nsh: dc: not found"));
        let c = parse_copy("ERROR|disk full\n", 1.0, 256, 1);
        assert_eq!(c.error.as_deref(), Some("disk full"));
        let c = parse_copy("", 1.0, 256, 1);
        assert_eq!(c.error.as_deref(), Some("command returned status 256 (exit code 1)"));
        let c = parse_copy("", 1.0, 9, 1);
        assert_eq!(c.error.as_deref(), Some("command returned status 9 (killed by signal 9, SIGKILL)"));
        let c = parse_copy("", 1.0, 0, 1);
        assert!(c.error.unwrap().contains("no COUNT line"));
        let c = parse_copy("COUNT|abc|1|lps\n", 1.0, 0, 1);
        assert_eq!(c.error.as_deref(), Some("COUNT|abc|1|lps"));
    }

    #[test]
    fn a_copy_is_scored_failed_or_skipped() {
        let o = parse_copy("COUNT|5|1|lps\n", 1.0, 0, 1);
        assert_eq!(verdict(&o), Verdict::Scored);
        let err = "2d-rects: skipped: no X display (DISPLAY is unset)\n";
        assert_eq!(
            verdict(&parse_copy(err, 0.01, 3 << 8, 7)),
            Verdict::Skipped("no X display (DISPLAY is unset)")
        );
        // Another exit status: a failure as any other.
        let o = parse_copy(err, 0.01, 1 << 8, 7);
        assert_eq!(verdict(&o), Verdict::Failed("2d-rects: skipped: no X display (DISPLAY is unset)"));
        let o = parse_copy("ERROR|disk full\n", 1.0, 3 << 8, 1);
        assert_eq!(verdict(&o), Verdict::Failed("disk full"));
    }

    #[test]
    fn elapsed_is_whole_microseconds_as_run_and_the_log_keep_it() {
        let c = parse_copy("COUNT|5|1|lps\n", 10.002_355_499_9, 0, 1);
        assert_eq!(c.elapsed, 10.002355);
        // What the log prints reads back as the same number.
        assert_eq!(format!("{:.6}", c.elapsed).parse::<f64>(), Ok(c.elapsed));
    }
}
