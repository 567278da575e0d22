//! Argument helpers shared by the kernels: strict number parsing with errors that name the
//! argument and say what is allowed.
//!
//! The C programs parse with `atoi`, so `pipe abc` silently runs for 0 seconds. We refuse such
//! input with exit 2 instead (docs/FIDELITY.md lists this as a deliberate difference).

use crate::error::{Error, Result};
use std::ffi::OsString;

/// The longest duration any kernel accepts, in seconds (one day). Far above any real use and
/// far below where `alarm()` or the counters could overflow.
pub const MAX_DURATION: u64 = 86_400;

/// An argument as error messages show it: in single quotes, so that an empty one reads `''`,
/// with its control characters escaped (`\n`, `\t`, `\x1b`), so that the error stays one line
/// and a terminal shows what was typed rather than obeys it.
pub fn quoted(value: &std::ffi::OsStr) -> String {
    format!("'{}'", escaped(&value.to_string_lossy()))
}

/// `s` as [`quoted`] shows it: [`crate::fmt::printable`], the one home of that rule.
pub use crate::fmt::printable as escaped;

/// Parses an unsigned integer argument in `min..=max`. `what` names the argument in errors,
/// e.g. `duration`.
pub fn parse_uint(what: &str, value: &OsString, min: u64, max: u64) -> Result<u64> {
    let s = value.to_str().ok_or_else(|| Error::usage(format!("invalid {what}: not valid UTF-8")))?;
    match s.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        // A blank one shows as '', whatever blanks it was.
        _ => {
            let shown = if s.trim().is_empty() { String::new() } else { escaped(s) };
            Err(Error::usage(format!(
                "invalid {what} '{shown}': expected a whole number from {min} to {max}"
            )))
        }
    }
}

/// Parses a number of seconds that need not be whole (`0.25`), in `min..=max`. `what` names the
/// argument in errors. Infinities and NaN are refused with the rest.
pub fn parse_seconds(what: &str, value: &OsString, min: f64, max: f64) -> Result<f64> {
    let s = value.to_str().ok_or_else(|| Error::usage(format!("invalid {what}: not valid UTF-8")))?;
    match json::decimal::parse_f64(s.trim()) {
        Some(v) if v.is_finite() && (min..=max).contains(&v) => Ok(v),
        _ => Err(Error::usage(format!(
            "invalid {what} '{s}': expected a number of seconds from {min} to {max}"
        ))),
    }
}

/// Parses a duration in whole seconds, 1 to [`MAX_DURATION`].
pub fn parse_duration(value: &OsString) -> Result<u32> {
    parse_uint("duration", value, 1, MAX_DURATION).map(|v| v as u32)
}

/// The usual kernel command line `NAME DURATION`: returns the duration, refusing anything else.
pub fn duration_only(args: &[OsString]) -> Result<u32> {
    match args {
        [_, d] => parse_duration(d),
        [_] => Err(Error::usage("missing duration: expected a whole number of seconds, 1 or more")),
        [_, _, extra, ..] => Err(Error::usage(format!(
            "unexpected argument '{}': expected only a duration",
            extra.to_string_lossy()
        ))),
        [] => Err(Error::usage("missing duration")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_arguments_keep_to_one_line() {
        assert_eq!(quoted("".as_ref()), "''");
        assert_eq!(quoted("a\nb\t\u{1b}[2J".as_ref()), "'a\\nb\\t\\x1b[2J'");
    }

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn durations() {
        assert_eq!(duration_only(&os(&["pipe", "10"])).unwrap(), 10);
        assert_eq!(duration_only(&os(&["pipe", " 3 "])).unwrap(), 3);
        for bad in ["0", "-1", "abc", "", "1.5", "86401", "99999999999999999999999"] {
            let e = duration_only(&os(&["pipe", bad])).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
            assert!(e.to_string().contains("duration"), "{bad}: {e}");
        }
        assert!(duration_only(&os(&["pipe"])).unwrap_err().to_string().contains("missing duration"));
        assert!(duration_only(&os(&["pipe", "1", "2"])).unwrap_err().to_string().contains("'2'"));
    }

    #[test]
    fn seconds_with_a_fraction() {
        let secs = |v: &str| parse_seconds("settle (-s)", &OsString::from(v), 0.01, 60.0);
        assert_eq!(secs("0.25").unwrap(), 0.25);
        assert_eq!(secs("2").unwrap(), 2.0);
        assert_eq!(secs(" 60 ").unwrap(), 60.0);
        assert_eq!(secs("0.01").unwrap(), 0.01);
        for bad in ["0", "-1", "0.001", "60.5", "abc", "", "inf", "NaN", "1,5"] {
            let e = secs(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
            let msg = e.to_string();
            assert!(msg.contains(&format!("invalid settle (-s) '{bad}'")), "{bad}: {msg}");
            assert!(msg.contains("from 0.01 to 60"), "{bad}: {msg}");
        }
    }
}

/// A command line split into words as a POSIX shell splits one: blanks separate words, single
/// quotes keep everything, double quotes keep everything but a backslash before `"`, `\`, `$`
/// or `` ` ``, a backslash outside quotes keeps the next character. Nothing is expanded (`$HOME`,
/// `*` and `~` stay as they are) and no shell runs. An unclosed quote or a trailing backslash is
/// refused with the reason.
pub fn split_words(line: &str) -> std::result::Result<Vec<String>, &'static str> {
    let (mut words, mut word, mut in_word) = (Vec::new(), String::new(), false);
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                }
                in_word = false;
                continue;
            }
            '\'' => loop {
                match chars.next().ok_or("a single quote is not closed")? {
                    '\'' => break,
                    c => word.push(c),
                }
            },
            '"' => loop {
                match chars.next().ok_or("a double quote is not closed")? {
                    '"' => break,
                    '\\' => match chars.next().ok_or("a double quote is not closed")? {
                        c @ ('"' | '\\' | '$' | '`') => word.push(c),
                        '\n' => {}
                        c => word.extend(['\\', c]),
                    },
                    c => word.push(c),
                }
            },
            '\\' => match chars.next().ok_or("it ends in a backslash")? {
                '\n' => {}
                c => word.push(c),
            },
            c => word.push(c),
        }
        in_word = true;
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod split_tests {
    use super::*;

    #[test]
    fn words_split_as_the_shell_splits_them_and_nothing_is_expanded() {
        let w = |s| split_words(s).unwrap();
        assert_eq!(w("taskset -c 1"), ["taskset", "-c", "1"]);
        assert_eq!(w("  nice\t-n  5 "), ["nice", "-n", "5"]);
        assert_eq!(w(r#"sh -c 'exec "$@"' x"#), ["sh", "-c", r#"exec "$@""#, "x"]);
        assert_eq!(w(r#"a "b c" d\ e "f\"g\\h\x" '' """#), ["a", "b c", "d e", r#"f"g\h\x"#, "", ""]);
        assert_eq!(w("echo $HOME ~ *"), ["echo", "$HOME", "~", "*"]);
        assert_eq!(w("a'b'\"c\"d"), ["abcd"]);
        assert!(w("").is_empty());
        assert_eq!(split_words("a 'b"), Err("a single quote is not closed"));
        assert_eq!(split_words("a \"b"), Err("a double quote is not closed"));
        assert_eq!(split_words("a\\"), Err("it ends in a backslash"));
    }
}
