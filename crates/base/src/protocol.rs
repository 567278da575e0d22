//! The only writer and reader of the result protocol that UnixBench programs speak on stderr:
//! `COUNT|<score>|<timebase>|<label>`, `TIME|<seconds>`, `ERROR|<message>`
//! (docs/ORIGINAL.md, "Protocol"), and our `IMAGE|<kind>|<detail>`, which Run stores and ignores.
//! The skip rule is here too ([`verdict`]); a copy's whole stderr is read into its outcome, line
//! by line through [`parse`], by `scoring::outcome` (cold code, built for size).
//!
//! Writers format into a caller's stack buffer with no allocation, so a SIGALRM handler can
//! print its line as the C `report()` does. Number formats follow the C printf formats: `%ld`,
//! `%lu` for counts, `%.1f` / `%.3f` for rates and times.

use crate::model::CopyOutcome;
use std::fmt::Write as _;

/// A fixed buffer that `core::fmt` can write into without allocating.
pub struct LineBuf {
    buf: [u8; 128],
    len: usize,
}

impl Default for LineBuf {
    fn default() -> Self {
        LineBuf { buf: [0; 128], len: 0 }
    }
}

impl LineBuf {
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl std::fmt::Write for LineBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        if end > self.buf.len() {
            return Err(std::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// `COUNT|%lu|<timebase>|<label>\n`: a loop count. Timebase 1 means per second, 60 per minute.
pub fn count(n: u64, timebase: u32, label: &str) -> LineBuf {
    let mut b = LineBuf::default();
    let _ = writeln!(b, "COUNT|{n}|{timebase}|{label}");
    b
}

/// `COUNT|%.<prec>f|0|<label>\n`: a rate already divided by time (timebase 0).
pub fn rate(v: f64, prec: usize, label: &str) -> LineBuf {
    let mut b = LineBuf::default();
    let _ = writeln!(b, "COUNT|{v:.prec$}|0|{label}");
    b
}

/// `TIME|%.<prec>f\n`.
pub fn time(secs: f64, prec: usize) -> LineBuf {
    let mut b = LineBuf::default();
    let _ = writeln!(b, "TIME|{secs:.prec$}");
    b
}

/// Writes a protocol line to stderr in one `write(2)`, so lines from parallel copies and from
/// the two processes of context1 never interleave. Async-signal-safe.
pub fn emit(line: &LineBuf) {
    let _ = crate::sys::fd::write_all(2, line.as_bytes());
}

/// `IMAGE|<kind>|<detail>\n`: which image the execl and spawn applets timed (`dynamic-glibc`,
/// `dynamic-musl` with the loader's path, or `static` with the reason), or which code Whetstone
/// ran (`fma` with what it is, or `baseline` with the reason). Run stores it as the
/// fields IMAGE0 and IMAGE1 and ignores it for scoring. A `|` or line break in `detail` would
/// change the line's fields, so each becomes a space.
pub fn image(kind: &str, detail: &str) -> String {
    let detail: String = detail.chars().map(|c| if c == '|' || c.is_control() { ' ' } else { c }).collect();
    format!("IMAGE|{kind}|{detail}\n")
}

/// One parsed stderr line of a kernel, as Run's helper sees it
/// (docs/ORIGINAL.md, "Reading a copy").
#[derive(Debug, Clone, PartialEq)]
pub enum Line {
    /// `COUNT|score|timebase|label` (Run takes a count without its label too).
    Count { score: f64, timebase: f64, label: Option<String> },
    /// `TIME|seconds`.
    Time(f64),
    /// `ERROR|message`.
    Error(String),
    /// `IMAGE|kind|detail`: the image execl or spawn ran, or Whetstone's code (see [`image`]).
    Image { kind: String, detail: String },
    /// Any other `FIELD|value...` line: Run stores it as a field and ignores it for scoring.
    Other(String),
    /// A line with no `|`: Run collects it as error text.
    Stray(String),
}

/// Parses one stderr line (without its newline).
pub fn parse(line: &str) -> Line {
    let mut parts = line.split('|');
    let field = parts.next().unwrap_or("");
    let mut rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        return Line::Stray(line.to_string());
    }
    // Perl's split, which Run's helper uses, drops trailing empty fields.
    while rest.len() > 1 && rest.last() == Some(&"") {
        rest.pop();
    }
    let num = |s: &str| crate::json::decimal::parse_f64(s.trim());
    match (field, rest.as_slice()) {
        ("COUNT", [s, tb, label @ ..]) => match (num(s), num(tb)) {
            (Some(score), Some(timebase)) => {
                Line::Count { score, timebase, label: label.first().map(|l| l.to_string()) }
            }
            _ => Line::Stray(line.to_string()),
        },
        ("TIME", [t]) => num(t).map(Line::Time).unwrap_or_else(|| Line::Stray(line.to_string())),
        ("ERROR", _) => Line::Error(rest.join("|")),
        ("IMAGE", [kind, detail, ..]) => Line::Image { kind: kind.to_string(), detail: detail.to_string() },
        _ => Line::Other(line.to_string()),
    }
}

/// What one copy comes to, as the driver must act on it.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict<'a> {
    /// A clean run with a COUNT: its figures go into the pass.
    Scored,
    /// An error (its text): the test fails.
    Failed(&'a str),
    /// The program cannot run on this host (no X display, say), and said so by exiting 3 with
    /// a `<program>: skipped: <why>` line: the test is skipped, not failed. The reason.
    Skipped(&'a str),
}

/// The exit status by which a program says it was skipped.
pub const SKIPPED_STATUS: i32 = 3;

/// The verdict on a copy that `scoring::outcome::parse_copy` read.
pub fn verdict(o: &CopyOutcome) -> Verdict<'_> {
    let Some(e) = o.error.as_deref() else { return Verdict::Scored };
    let exit3 = libc::WIFEXITED(o.status) && libc::WEXITSTATUS(o.status) == SKIPPED_STATUS;
    match e.find("skipped: ") {
        Some(at) if exit3 => Verdict::Skipped(e[at + "skipped: ".len()..].lines().next().unwrap_or("")),
        _ => Verdict::Failed(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(b: LineBuf) -> String {
        String::from_utf8(b.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn formats_match_c_printf() {
        assert_eq!(s(count(157163532, 1, "lps")), "COUNT|157163532|1|lps\n");
        assert_eq!(s(count(269, 60, "lpm")), "COUNT|269|60|lpm\n");
        assert_eq!(s(rate(10315.1194, 3, "MWIPS")), "COUNT|10315.119|0|MWIPS\n");
        assert_eq!(s(rate(12.25, 1, "score")), "COUNT|12.2|0|score\n");
        assert_eq!(s(time(9.954, 3)), "TIME|9.954\n");
        assert_eq!(s(time(2.0003, 1)), "TIME|2.0\n");
        assert_eq!(s(count(u64::MAX, 1, "lps")), "COUNT|18446744073709551615|1|lps\n");
    }

    #[test]
    fn parses_run_fields() {
        assert_eq!(
            parse("COUNT|1880754|0|KBps"),
            Line::Count { score: 1880754.0, timebase: 0.0, label: Some("KBps".into()) }
        );
        assert_eq!(parse("TIME|2.0"), Line::Time(2.0));
        assert_eq!(parse("ERROR|disk full"), Line::Error("disk full".into()));
        assert_eq!(parse("sh: 1: dc: not found"), Line::Stray("sh: 1: dc: not found".into()));
        assert_eq!(parse("pid|42"), Line::Other("pid|42".into()));
        assert_eq!(parse("COUNT|x|1|lps"), Line::Stray("COUNT|x|1|lps".into()));
        assert_eq!(
            parse("IMAGE|dynamic-glibc|/lib64/ld-linux-x86-64.so.2"),
            Line::Image { kind: "dynamic-glibc".into(), detail: "/lib64/ld-linux-x86-64.so.2".into() }
        );
        assert_eq!(image("static", "no loader|here\n"), "IMAGE|static|no loader here \n");
    }
}
