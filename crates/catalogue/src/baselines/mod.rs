//! The index baselines of `baselines.txt`, compiled in by build.rs. The driver divides a test's
//! score by its baseline and multiplies by 10 to get the test's index (docs/ORIGINAL.md, "Index").

#[allow(dead_code)] // `Row` and `CATEGORIES` are used by build.rs and the tests.
mod parse;

/// One test's reference score on "George", the SPARCstation 20-61 (index 10.0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Baseline {
    /// The driver's test name, e.g. `dhry2reg`.
    pub test: &'static str,
    /// `system`, `2d`, `3d` or `misc`.
    pub category: &'static str,
    /// The unit the test reports, e.g. `lps`.
    pub unit: &'static str,
    /// The reference score.
    pub score: f64,
}

/// Every baseline, in file order.
pub static BASELINES: &[Baseline] = include!(concat!(env!("OUT_DIR"), "/baselines.rs"));

/// The baseline of `test`, if it has one.
pub fn lookup(test: &str) -> Option<&'static Baseline> {
    BASELINES.iter().find(|b| b.test == test)
}

/// How many tests of `category` have a baseline: a category index is "full" only when all ran.
pub fn count_in(category: &str) -> usize {
    BASELINES.iter().filter(|b| b.category == category).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_table_matches_spec() {
        assert_eq!(BASELINES.len(), 21);
        assert_eq!(lookup("dhry2reg").unwrap().score, 116700.0);
        assert_eq!(lookup("shell1").unwrap().score, 42.4);
        assert_eq!(lookup("sysexec").unwrap().category, "misc");
        assert!(lookup("hanoi").is_none());
        assert_eq!((count_in("system"), count_in("2d"), count_in("3d"), count_in("misc")), (12, 6, 1, 2));
    }

    #[test]
    fn parser_accepts_comments_and_blank_lines() {
        let rows = parse::parse("# head\n\n  pipe system lps 12440  # tail — em dash\n").unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].test, "pipe");
        assert_eq!(rows[0].score, 12440.0);
    }

    #[test]
    fn parser_names_the_bad_line() {
        let cases = [
            ("pipe system lps\n", 1, "expected 4 fields"),
            ("\n\npipe sys lps 1\n", 3, "unknown category 'sys'"),
            ("pipe system lps x\n", 1, "'x' is not a number"),
            ("pipe system lps -3\n", 1, "must be a positive number"),
            ("pipe system lps 1\npipe system lps 2\n", 2, "listed twice"),
            ("pi/pe system lps 1\n", 1, "may hold only"),
        ];
        for (text, line, what) in cases {
            let (n, msg) = parse::parse(text).unwrap_err();
            assert_eq!(n, line, "{text:?}");
            assert!(msg.contains(what), "{text:?}: {msg}");
        }
    }
}
