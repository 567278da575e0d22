//! Number, date and word formatting shared by the exporters, written to give the bytes that
//! Perl's `printf`/`strftime` gave in UnixBench's `Run`.
//!
//! Rust's `{:.N}` rounds the exact binary value half-to-even, as glibc's `%.Nf` does, so finite
//! numbers go through it unchanged; only infinities and NaN are spelled the C way here. Dates
//! are formatted from a broken-down [`Tm`] with English names, as `strftime` does in the C locale.

/// A broken-down time, as `struct tm` but plain (month 0-11, weekday 0 = Sunday).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tm {
    pub year: i32,
    pub mon: u32,
    pub mday: u32,
    pub wday: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
}

/// Turns seconds since the Epoch into a broken-down time. Reports use `base::fmt::local` (local time is the C library's, read through `sys`); tests use
/// [`utc`] so that their expected text does not depend on the machine's time zone, and so does
/// lmbench's results file, whose date is UTC.
pub type Zone = fn(i64) -> Tm;

/// UTC, computed without libc (days-from-civil inverted).
pub fn utc(t: i64) -> Tm {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    // 1970-01-01 was a Thursday.
    let wday = (days + 4).rem_euclid(7) as u32;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let mday = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let mon = if mp < 10 { mp + 2 } else { mp - 10 } as u32;
    let year = (yoe + era * 400 + i64::from(mon < 2)) as i32;
    Tm {
        year,
        mon,
        mday,
        wday,
        hour: (secs / 3600) as u32,
        min: (secs / 60 % 60) as u32,
        sec: (secs % 60) as u32,
    }
}

const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
pub const MONTHS: [&str; 12] =
    ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/// `strftime("%a %b %d %Y")`, e.g. `Mon Nov 30 2026`.
pub fn date(tm: &Tm) -> String {
    format!("{} {} {:02} {}", DAYS[tm.wday as usize % 7], MONTHS[tm.mon as usize % 12], tm.mday, tm.year)
}

/// `strftime("%H:%M:%S")`.
pub fn hms(tm: &Tm) -> String {
    format!("{:02}:{:02}:{:02}", tm.hour, tm.min, tm.sec)
}

/// `t` (seconds since the Epoch) as an ISO 8601 date and time in UTC: `2026-12-01T12:37:50Z`.
/// The one such formatter: the results JSON, lmbench's and compare use it.
pub fn iso_utc(t: i64) -> String {
    let tm = utc(t);
    // `Tm::mon` counts from 0, as `struct tm` does.
    format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.year, tm.mon + 1, tm.mday, tm.hour, tm.min, tm.sec)
}

/// [`iso_utc`]'s text read back: `2026-12-01T12:37:50Z` as seconds since the Epoch and true; the
/// same without the `Z` (a text report's start, in its host's zone, which the report does not
/// give) as the seconds it would be in UTC and false, so that two such times can still be
/// subtracted (an hour off across a change to or from summer time). None for anything else.
pub fn parse_iso(s: &str) -> Option<(i64, bool)> {
    let (s, utc) = s.strip_suffix('Z').map_or((s, false), |s| (s, true));
    let (date, time) = s.split_once('T')?;
    let [y, m, d] = fields(date, '-', [4, 2, 2])?;
    let [h, mi, sec] = fields(time, ':', [2, 2, 2])?;
    let in_month = (1..=12).contains(&m) && (1..=days_in_month(y, m)).contains(&d);
    if !in_month || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    Some((days_from_civil(y, m, d) * 86_400 + h * 3600 + mi * 60 + sec, utc))
}

/// Three numbers of exactly `lens` digits between `sep`s.
fn fields(s: &str, sep: char, lens: [usize; 3]) -> Option<[i64; 3]> {
    let mut out = [0; 3];
    let mut parts = s.split(sep);
    for (o, len) in out.iter_mut().zip(lens) {
        let f = parts.next()?;
        if f.len() != len || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = f.parse().ok()?;
    }
    parts.next().is_none().then_some(out)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar ([`utc`]'s inverse).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// `strftime("%Y-%m-%d")`, the date in result file names.
#[cfg(test)]
pub fn ymd(tm: &Tm) -> String {
    format!("{:04}-{:02}-{:02}", tm.year, tm.mon + 1, tm.mday)
}

/// A duration as people say it: `45 s`, `27 min`, `2 h 05 min`.
pub fn duration(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s < 90 {
        format!("{s} s")
    } else if s < 5400 {
        format!("{} min", (s + 30) / 60)
    } else {
        // Rounded to the minute first, so that 1 h 59 min 40 s reads 2 h 00 min, not 1 h 60 min.
        let min = (s + 30) / 60;
        format!("{} h {:02} min", min / 60, min % 60)
    }
}

/// C's `%.<prec>f`: Rust's rounding for finite values, `inf`/`-inf`/`nan`/`-nan` otherwise.
pub fn fixed(v: f64, prec: usize) -> String {
    if v.is_nan() {
        if v.is_sign_negative() { "-nan" } else { "nan" }.to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-inf" } else { "inf" }.to_string()
    } else {
        format!("{v:.prec$}")
    }
}

/// `%.1f`, the precision of every figure in the reports.
pub fn f1(v: f64) -> String {
    fixed(v, 1)
}

/// `v` to `prec` decimals for a table's column of `width` characters: as `{:.prec}` when that
/// fits and does not show a value other than 0 as 0; else in scientific notation as short as it
/// must be (`1.2e15`, `1e-300`); an infinity as `>1e308` or `<-1e308`, NaN as `nan`. So a
/// figure at either end of what f64 holds keeps the table's columns.
pub fn compact(v: f64, prec: usize, width: usize) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { ">1e308" } else { "<-1e308" }.into();
    }
    let fixed = format!("{v:.prec$}");
    let vanishes = v != 0.0 && v.abs() < 0.5 * 10f64.powi(-(prec as i32));
    if fixed.len() <= width && !vanishes {
        return fixed;
    }
    // The most decimals, of two down to none, that fit; none when nothing does.
    let mut p = 2;
    loop {
        let sci = json::exponent(v, Some(p));
        if sci.len() <= width || p == 0 {
            return sci;
        }
        p -= 1;
    }
}

/// C's `%.<prec>g`.
pub fn general(v: f64, prec: usize) -> String {
    if !v.is_finite() {
        return fixed(v, 0);
    }
    let p = prec.max(1);
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    // Round to p significant digits first: the exponent of the rounded value decides the style.
    let sci = json::exponent(v, Some(p - 1));
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if exp < -4 || exp >= p as i32 {
        let mant = strip_zeros(mant);
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mant}e{sign}{:02}", exp.unsigned_abs())
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        strip_zeros(&format!("{v:.decimals$}")).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// How Perl prints a floating-point number in string context (`%.15g`).
pub fn perl_num(v: f64) -> String {
    if v.is_nan() {
        "NaN".to_string()
    } else if v.is_infinite() {
        if v < 0.0 { "-Inf" } else { "Inf" }.to_string()
    } else {
        general(v, 15)
    }
}

/// Run's `number()`: `"%d %s"` with the singular for 1 and the plural otherwise, or
/// `unknown <plural>` when the count is unknown.
pub fn number(n: Option<usize>, what: &str, plural: &str) -> String {
    match n {
        None => format!("unknown {plural}"),
        Some(1) => format!("1 {what}"),
        Some(n) => format!("{n} {plural}"),
    }
}

/// A host string as part of a file name: anything but ASCII letters, digits, `.`, `_` and `-`
/// becomes `_`, and so does a leading `.`, so no host name makes a path, a hidden file or `..`.
pub fn file_name_part(s: &str) -> String {
    let keep = |b: u8| b.is_ascii_alphanumeric() || b"._-".contains(&b);
    let mut out: String = s.bytes().map(|b| if keep(b) { char::from(b) } else { '_' }).collect();
    // Nor a hidden file, nor one a shell tool would take for an option (`rm -host-...`).
    if out.starts_with('.') || out.starts_with('-') {
        out.replace_range(..1, "_");
    }
    if out.is_empty() {
        out.push_str("unknown");
    }
    out
}

/// A string read from the system, a file or the command line made printable as data: the one
/// home of that rule, used wherever such a string enters what is printed. Every control
/// character (C0, DEL, C1: a newline that could fake a report line, an escape sequence that a
/// terminal would obey) is escaped (`\n`, `\t`, `\r`, `\x1b`), and so is every character that is
/// there to be unseen: the bidirectional overrides and isolates (which make a terminal show text
/// in another order than it reads) and the zero-width ones (which make two names look the same),
/// as `\u{202e}`. Applied twice it changes nothing more.
pub fn printable(s: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        let _ = match c {
            '\n' => out.write_str("\\n"),
            '\t' => out.write_str("\\t"),
            '\r' => out.write_str("\\r"),
            c if c.is_control() => write!(out, "\\x{:02x}", c as u32),
            c if is_unseen(c) => write!(out, "\\u{{{:x}}}", c as u32),
            c => out.write_char(c),
        };
    }
    out
}

/// Unicode's format characters that hide or reorder text: U+061C, U+200B-U+200F,
/// U+202A-U+202E, U+2060-U+2069 and U+FEFF.
fn is_unseen(c: char) -> bool {
    matches!(c, '\u{061c}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// A text cell of a TSV or CSV made [`printable`] (so a tab or line break cannot split it), and
/// not taken for a formula by a spreadsheet: one that starts with `=`, `+`, `-` or `@` gets a
/// `'` before it, as OWASP's advice on CSV injection says. Only for text: a number's cell
/// (`-3.2`) is written as it is.
pub fn text_cell(s: &str) -> String {
    let s = printable(s);
    if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s
    }
}

/// The most characters a string of the host (its name, system, OS, CPU model) keeps in every
/// output: the system block and compare cut longer ones with [`cut_chars`].
pub const MAX_HOST_TEXT: usize = 100;

/// `s` cut at `n` characters, `...` ending a cut one.
pub fn cut_chars(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}

/// `text`'s words in lines of at most `width` columns (a longer word alone on its line), the
/// first begun with `first`, the rest with `rest`; each line ends in a newline.
pub fn wrapped(text: &str, width: usize, first: &str, rest: &str) -> String {
    // Written straight into the text, the current line's width counted as it grows.
    let mut s = String::from(first);
    let mut cols = first.chars().count();
    let mut bare = true;
    for w in text.split_whitespace() {
        let n = w.chars().count();
        if !bare && cols + 1 + n > width {
            s.push('\n');
            s += rest;
            cols = rest.chars().count();
            bare = true;
        }
        if !bare {
            s.push(' ');
            cols += 1;
        }
        s += w;
        cols += n;
        bare = false;
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_strings_are_data() {
        assert_eq!(file_name_part("a/b<c>\nd"), "a_b_c__d");
        assert_eq!(file_name_part("..x"), "_.x");
        assert_eq!(file_name_part("-rf"), "_rf");
        assert_eq!(file_name_part(""), "unknown");
        assert_eq!(file_name_part("web-1.example_x"), "web-1.example_x");
        assert_eq!(printable("a\nb\x1b[2Jc\t\u{7f}\u{9b}"), "a\\nb\\x1b[2Jc\\t\\x7f\\x9b");
        assert_eq!(
            printable("web\u{202e}1\u{200b}x\u{2066}\u{feff}é"),
            "web\\u{202e}1\\u{200b}x\\u{2066}\\u{feff}é"
        );
        let once = printable("a\u{1b}]0;x\u{7}");
        assert_eq!(printable(&once), once);
        assert_eq!(text_cell("=1+2"), "'=1+2");
        for s in ["+1", "-rf", "@SUM(A1)"] {
            assert_eq!(text_cell(s), format!("'{s}"));
        }
        assert_eq!(text_cell("\t=x"), "\\t=x", "a tab is escaped, so the cell starts with a backslash");
        assert_eq!(text_cell("web-1"), "web-1");
    }

    #[test]
    fn wrapped_lines_keep_within_their_width() {
        let w = wrapped("one two three four", 9, "", "  ");
        assert_eq!(w, "one two\n  three\n  four\n");
        assert_eq!(wrapped("a verylongword b", 5, "> ", "> "), "> a\n> verylongword\n> b\n");
        assert!(wrapped("é é é é", 3, "", "").lines().all(|l| l.chars().count() <= 3));
    }

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(duration(-3.0), "0 s");
        assert_eq!(duration(89.4), "89 s");
        assert_eq!(duration(90.0), "2 min");
        assert_eq!(duration(700.0), "12 min");
        assert_eq!(duration(5400.0), "1 h 30 min");
        assert_eq!(duration(7190.0), "2 h 00 min");
    }

    #[test]
    fn fixed_rounds_like_glibc() {
        // Values checked against glibc printf("%.1f").
        let cases = [
            (0.25, "0.2"),
            (0.35, "0.3"),
            (0.05, "0.1"),
            (0.15, "0.1"),
            (0.45, "0.5"),
            (1.25, "1.2"),
            (3.75, "3.8"),
            (-0.25, "-0.2"),
            (-0.0, "-0.0"),
            (99.95, "100.0"),
            (12345678901234.5, "12345678901234.5"),
            (1e21, "1000000000000000000000.0"),
            (f64::INFINITY, "inf"),
            (f64::NEG_INFINITY, "-inf"),
            (f64::NAN, "nan"),
        ];
        for (v, want) in cases {
            assert_eq!(f1(v), want, "{v}");
        }
    }

    #[test]
    fn compact_numbers_keep_their_column() {
        assert_eq!(compact(1234.56, 1, 12), "1234.6");
        assert_eq!(compact(0.0, 1, 12), "0.0");
        assert_eq!(compact(-3.25, 1, 8), "-3.2");
        assert_eq!(compact(1e-300, 1, 12), "1.00e-300");
        assert_eq!(compact(1e300, 1, 12), "1.00e300");
        assert_eq!(compact(123456789012345.6, 1, 12), "1.23e14");
        assert_eq!(compact(1e302, 1, 5), "1e302");
        assert_eq!(compact(f64::INFINITY, 1, 7), ">1e308");
        assert_eq!(compact(f64::NEG_INFINITY, 1, 7), "<-1e308");
        for v in [1e-300, 5e-324, 1e300, f64::MAX, 0.04, 99999.94] {
            assert!(compact(v, 1, 7).len() <= 7, "{v}: {}", compact(v, 1, 7));
        }
    }

    #[test]
    fn perl_numbers_are_15_significant_digits() {
        assert_eq!(perl_num(78540503.4328753), "78540503.4328753");
        assert_eq!(perl_num(10.046494142857143), "10.0464941428571");
        assert_eq!(perl_num(7.0), "7");
        assert_eq!(perl_num(0.1), "0.1");
        assert_eq!(perl_num(1e20), "1e+20");
        assert_eq!(perl_num(123456789012345678.0), "1.23456789012346e+17");
        assert_eq!(perl_num(0.0001), "0.0001");
        assert_eq!(perl_num(0.00001234), "1.234e-05");
        assert_eq!(perl_num(999999999999999.9), "1e+15");
        assert_eq!(perl_num(-2.5), "-2.5");
        assert_eq!(perl_num(0.0), "0");
        assert_eq!(general(100000.0, 6), "100000");
        assert_eq!(general(1000000.0, 6), "1e+06");
    }

    #[test]
    fn iso_dates_read_back() {
        for t in [0, 59, 951_782_400, 1_795_910_742, 4_102_444_799, -86_400] {
            assert_eq!(parse_iso(&iso_utc(t)), Some((t, true)), "{t}");
        }
        assert_eq!(parse_iso("2026-11-30T00:05:42"), Some((1_795_910_742 + 86_400, false)));
        assert_eq!(parse_iso("2024-02-29T00:00:00Z").map(|t| t.0), Some(1_709_164_800));
        for bad in [
            "",
            "unknown",
            "2026-11-30",
            "2026-13-01T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2026-04-31T00:00:00",
            "2026-11-30T24:00:00",
            "26-11-30T00:00:00",
            "2026-11-30T00:00:00:00",
        ] {
            assert_eq!(parse_iso(bad), None, "{bad}");
        }
    }

    #[test]
    fn dates_are_english_and_zero_padded() {
        // 2026-11-30 00:05:42 UTC, a Monday.
        let tm = utc(1_795_997_142);
        assert_eq!(date(&tm), "Mon Nov 30 2026");
        assert_eq!(hms(&tm), "00:05:42");
        assert_eq!(ymd(&tm), "2026-11-30");
        let tm = utc(0);
        assert_eq!((date(&tm), hms(&tm)), ("Thu Jan 01 1970".to_string(), "00:00:00".to_string()));
        let tm = utc(951_825_600); // 2000-02-29 12:00:00, a leap day
        assert_eq!(date(&tm), "Tue Feb 29 2000");
        let tm = utc(-1);
        assert_eq!((date(&tm), hms(&tm)), ("Wed Dec 31 1969".to_string(), "23:59:59".to_string()));
    }

    #[test]
    fn number_pluralises_as_run_does() {
        assert_eq!(number(Some(1), "CPU", "CPUs"), "1 CPU");
        assert_eq!(number(Some(2), "CPU", "CPUs"), "2 CPUs");
        assert_eq!(number(Some(0), "CPU", "CPUs"), "0 CPUs");
        assert_eq!(number(None, "CPU", "CPUs"), "unknown CPUs");
        assert_eq!(number(Some(1), "parallel copy", "parallel copies"), "1 parallel copy");
    }
}
