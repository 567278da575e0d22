//! What one copy's whole stderr and exit status come to: its [`CopyOutcome`], read as the
//! copy writes, each line parsed once into a `protocol::Line` ([`Said`];
//! docs/ORIGINAL.md, "Reading a copy"); `protocol::verdict` then says whether it scored,
//! failed or was skipped. Apart from `base::protocol` only for size: this is cold code,
//! built with the driver.

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

/// The longest line of a copy's stderr held: a protocol line is far shorter, and a copy that
/// prints without a newline (a tool in a loop) must not fill the memory.
const MAX_LINE: usize = 4096;

/// What a copy has said on stderr so far, each line parsed once as it arrives
/// (docs/ORIGINAL.md, "Reading a copy"): the fields Run would keep (the last of each wins), the
/// error text, and a count of the stray lines. Only the first stray lines are kept, so a copy
/// (or a host without /dev/null) that prints without end holds little memory.
#[derive(Debug, Default)]
pub struct Said {
    /// The line not yet ended.
    partial: Vec<u8>,
    count: Option<f64>,
    timebase: Option<f64>,
    label: Option<String>,
    time: Option<f64>,
    image: Option<ExecImage>,
    error: Option<String>,
    stray: usize,
}

impl Said {
    /// Takes more of the copy's stderr, reading every line it ends.
    pub fn take(&mut self, mut bytes: &[u8]) {
        while let Some(nl) = bytes.iter().position(|&b| b == b'\n') {
            self.hold(&bytes[..nl]);
            let line = std::mem::take(&mut self.partial);
            self.line(&String::from_utf8_lossy(&line));
            bytes = &bytes[nl + 1..];
        }
        self.hold(bytes);
    }

    /// Holds the start of a line, cut at [`MAX_LINE`] bytes.
    fn hold(&mut self, bytes: &[u8]) {
        let room = MAX_LINE.saturating_sub(self.partial.len());
        self.partial.extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// One line, as Run's helper reads it: a field, an error, or stray text.
    fn line(&mut self, line: &str) {
        match parse(line) {
            Line::Count { score, timebase, label } => {
                self.count = Some(score);
                self.timebase = Some(timebase);
                self.label = label.or(self.label.take());
            }
            Line::Time(t) => self.time = Some(t),
            Line::Image { kind, detail } => self.image = Some(ExecImage { kind, detail }),
            Line::Error(msg) => self.error = Some(msg),
            Line::Other(_) => {}
            Line::Stray(_) if self.stray >= MAX_STRAY_LINES => self.stray += 1,
            Line::Stray(text) => {
                self.stray += 1;
                add_error(&mut self.error, if text.is_empty() { "(an empty line)" } else { &text })
            }
        }
    }

    /// The copy's outcome, once its stderr is closed: its elapsed wall time (until its stderr
    /// reached EOF), raw wait status and pid. Stricter than Run in one way: a clean exit with no
    /// COUNT line is an error too (Run would count it as 0).
    pub fn finish(mut self, elapsed: f64, status: i32, pid: i32) -> CopyOutcome {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.line(&String::from_utf8_lossy(&line));
        }
        if self.stray > MAX_STRAY_LINES {
            add_error(&mut self.error, &format!("(and {} more lines)", self.stray - MAX_STRAY_LINES));
        }
        if self.error.is_none() && status != 0 {
            self.error = Some(describe_status(status));
        }
        if self.error.is_none() && self.count.is_none() {
            self.error = Some("the program printed no result (no COUNT line on its stderr)".into());
        }
        CopyOutcome {
            count: self.count,
            timebase: self.timebase,
            label: self.label,
            time: self.time,
            // Run reads `elapsed|%f`: whole microseconds, as the log prints it (`# elapsed: %f`),
            // so that a log gives back every pass's figures exactly (compare reads them there).
            elapsed: (elapsed * 1e6).round() / 1e6,
            status,
            error: self.error,
            pid,
            image: self.image,
            started: None,
        }
    }
}

/// One copy's outcome from everything it wrote on stderr (see [`Said`]).
pub fn parse_copy(stderr: &str, elapsed: f64, status: i32, pid: i32) -> CopyOutcome {
    let mut said = Said::default();
    said.take(stderr.as_bytes());
    said.finish(elapsed, status, pid)
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

    impl Said {
        /// The bytes it holds: the line not yet ended and the error text.
        fn held(&self) -> usize {
            self.partial.len() + self.error.as_ref().map_or(0, String::len)
        }
    }

    #[test]
    fn a_copy_printing_without_end_is_held_in_little_memory_and_still_counted() {
        let mut said = Said::default();
        let line = b"sh: 1: cannot open /dev/null: No such file\n";
        let n = 3_000_000 / line.len();
        for i in 0..n {
            said.take(line);
            if i == 7 {
                said.take(b"COUNT|1|60|lpm\n");
            }
        }
        said.take(b"COUNT|42|60|lpm\nTIME|1.0\n");
        assert!(said.held() <= MAX_STRAY_LINES * line.len(), "{} bytes held", said.held());
        let c = said.finish(1.0, 0, 1);
        assert_eq!((c.count, c.time), (Some(42.0), Some(1.0)));
        let e = c.error.unwrap();
        assert!(e.ends_with(&format!("(and {} more lines)", n - MAX_STRAY_LINES)), "{e}");
        assert_eq!(e.lines().count(), MAX_STRAY_LINES + 1);
    }

    #[test]
    fn a_line_without_end_is_not_held_whole() {
        let mut said = Said::default();
        for _ in 0..1024 {
            said.take(&[b'x'; 4096]);
        }
        assert!(said.held() <= MAX_LINE, "{} bytes held", said.held());
        said.take(b"\nCOUNT|3|1|lps\n");
        assert!(said.held() <= MAX_LINE, "{} bytes held", said.held());
        let c = said.finish(1.0, 0, 1);
        assert_eq!(c.count, Some(3.0));
        assert_eq!(c.error.as_deref().map(str::len), Some(MAX_LINE), "the stray text is still an error, cut");
    }

    #[test]
    fn lines_split_across_reads_are_read_whole() {
        let mut said = Said::default();
        for piece in ["COU", "NT|5|6", "0|lpm\nTI", "ME|2.5\nIMAGE|static|no loader", ""] {
            said.take(piece.as_bytes());
        }
        let c = said.finish(1.0, 0, 1);
        assert_eq!(
            (c.count, c.timebase, c.label.as_deref(), c.time),
            (Some(5.0), Some(60.0), Some("lpm"), Some(2.5))
        );
        assert_eq!(c.image.map(|i| (i.kind, i.detail)), Some(("static".into(), "no loader".into())));
        assert_eq!(c.error, None);
    }

    #[test]
    fn each_field_is_the_last_given_as_run_keeps_them() {
        // A later COUNT without a label keeps the earlier label (Run's COUNT2 stays).
        let c = parse_copy("COUNT|5|60|lpm\nCOUNT|7|1\n", 1.0, 0, 1);
        assert_eq!((c.count, c.timebase, c.label.as_deref()), (Some(7.0), Some(1.0), Some("lpm")));
        // Perl's split drops trailing empty fields: `COUNT|5|` is the field COUNT, not a count.
        let c = parse_copy("COUNT|5|\n", 1.0, 0, 1);
        assert!(c.count.is_none() && c.error.unwrap().contains("no COUNT line"));
        // Fields Run stores and does not score are no error.
        let c = parse_copy("FOO|bar\nCOUNT|1|1|lps\n", 1.0, 0, 1);
        assert_eq!((c.count, c.error), (Some(1.0), None));
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
