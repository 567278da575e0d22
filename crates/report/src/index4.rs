//! UnixBench 4.0's index block: the eleven tests 4.0 scored, each result against its baseline,
//! and the FINAL SCORE, laid out as 4.0's report printed it, so that figures measured today
//! can sit beside the 4.0 results people published in the 1990s.
//!
//! 4.0 joined its baseline file with the run's results (both sorted by test name), printed a row
//! per test found in both, and took the geometric mean of result/baseline over those rows, times
//! 10. Ten of its baselines are the ones 5.x still uses (`baselines.txt`); the eleventh test, the
//! double-precision arithmetic loop, left the index in 5.0 and its baseline lives here.
//! Pure: scores in, text out; no measuring.

use crate::baselines;
use std::fmt::Write as _;

/// The eleven 4.0 index tests, in 4.0's report order: the `index4` group of the catalogue.
pub use crate::suite::INDEX4_TESTS;

/// 4.0's baseline for "Arithmetic Test (type = double)" (SPARCstation 20-61, lps).
pub const DOUBLE_BASELINE: f64 = 29820.0;

/// How 4.0's report names a test, by driver test name: the catalogue's message, but for the
/// double arithmetic loop, whose message 5.0 shortened.
pub fn display_name(test: &str) -> Option<&'static str> {
    match test {
        "double" => Some("Arithmetic Test (type = double)"),
        t if INDEX4_TESTS.contains(&t) => crate::suite::test(t).map(|t| t.message),
        _ => None,
    }
}

/// 4.0's baseline of an index test.
pub fn baseline(test: &str) -> Option<f64> {
    if test == "double" {
        return Some(DOUBLE_BASELINE);
    }
    if !INDEX4_TESTS.contains(&test) {
        return None;
    }
    baselines::lookup(test).map(|b| b.score)
}

/// One row of the block.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The driver's test name.
    pub test: &'static str,
    /// 4.0's name for it.
    pub name: &'static str,
    /// The baseline score.
    pub baseline: f64,
    /// This run's score, in the test's unit.
    pub result: f64,
    /// 10 x result / baseline.
    pub index: f64,
}

/// The computed block: a row per index test that has a score, and the final score.
#[derive(Debug, Clone, PartialEq)]
pub struct Index4 {
    pub rows: Vec<Row>,
    /// 10 x the geometric mean of result/baseline over the rows; None when no row. A row whose
    /// result is not positive makes it 0, as log(0) did in 4.0's awk.
    pub final_score: Option<f64>,
}

/// Computes the block from per-test scores (driver test name -> score). Tests outside the
/// eleven are ignored; index tests without a score are left out, as 4.0's join left them out.
pub fn compute(scores: &[(&str, f64)]) -> Index4 {
    let mut rows = Vec::new();
    for &test in INDEX4_TESTS {
        let Some(&(_, result)) = scores.iter().find(|(t, _)| *t == test) else { continue };
        let (Some(name), Some(base)) = (display_name(test), baseline(test)) else { continue };
        rows.push(Row { test, name, baseline: base, result, index: 10.0 * result / base });
    }
    let final_score = if rows.is_empty() {
        None
    } else if rows.iter().any(|r| r.result <= 0.0 || !r.result.is_finite()) {
        Some(0.0)
    } else {
        let mean_log = rows.iter().map(|r| (r.result / r.baseline).ln()).sum::<f64>() / rows.len() as f64;
        Some(10.0 * mean_log.exp())
    };
    Index4 { rows, final_score }
}

/// The block as 4.0 printed it: a blank line, the "INDEX VALUES" title, the column heads, a
/// blank line, a row per test, the rule and the FINAL SCORE line.
pub fn format(block: &Index4) -> String {
    let mut s = format!(
        "\n                     INDEX VALUES            \nTEST{:40}BASELINE     RESULT      INDEX\n\n",
        ""
    );
    for r in &block.rows {
        let _ = writeln!(s, "{:<40}  {:10.1} {:10.1} {:10.1}", r.name, r.baseline, r.result, r.index);
    }
    let _ = writeln!(s, "              {:30}                     =========", "");
    if let Some(f) = block.final_score {
        let _ = writeln!(s, "     FINAL SCORE      {:30}  {:20.1}", "", f);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The RESULT columns of the five UnixBench 4.0 reports in the published comparison, in
    /// INDEX4_TESTS order, with the INDEX column and FINAL SCORE printed there.
    const REPORTS: &[([f64; 11], [f64; 11], f64)] = &[
        (
            [52816.5, 320194.7, 228.9, 26404.0, 12077.0, 30985.0, 78503.4, 16497.7, 906.2, 83.0, 51661.8],
            [17.7, 27.4, 53.2, 66.7, 73.0, 53.4, 63.1, 41.2, 71.9, 138.3, 34.4],
            50.9,
        ),
        (
            [52828.0, 321748.4, 236.8, 23807.0, 10030.0, 30463.0, 57406.8, 13050.2, 1107.8, 86.3, 36945.6],
            [17.7, 27.6, 55.1, 60.1, 60.6, 52.5, 46.1, 32.6, 87.9, 143.8, 24.6],
            46.9,
        ),
        (
            [52429.5, 319332.9, 260.1, 31529.0, 17348.0, 34234.0, 114065.9, 50020.3, 2579.7, 59.0, 96996.5],
            [17.6, 27.4, 60.5, 79.6, 104.8, 59.0, 91.7, 125.1, 204.7, 98.3, 64.7],
            70.5,
        ),
        (
            [52757.8, 321394.1, 259.0, 28903.0, 14033.0, 33552.0, 81685.9, 37619.2, 2500.8, 58.7, 62173.5],
            [17.7, 27.5, 60.2, 73.0, 84.8, 57.8, 65.7, 94.0, 198.5, 97.8, 41.4],
            62.0,
        ),
        (
            [34514.4, 258164.4, 75.3, 1317.0, 2143.0, 1260.0, 37144.8, 11952.6, 331.2, 16.0, 41970.2],
            [11.6, 22.1, 17.5, 3.3, 12.9, 2.2, 29.9, 29.9, 26.3, 26.7, 28.0],
            14.8,
        ),
    ];

    fn scores(results: &[f64; 11]) -> Vec<(&'static str, f64)> {
        INDEX4_TESTS.iter().copied().zip(results.iter().copied()).collect()
    }

    #[test]
    fn reproduces_the_published_4_0_indexes_and_final_scores() {
        for (results, indexes, final_score) in REPORTS {
            let block = compute(&scores(results));
            assert_eq!(block.rows.len(), 11);
            for (row, want) in block.rows.iter().zip(indexes) {
                assert_eq!(format!("{:.1}", row.index), format!("{want:.1}"), "{}", row.name);
            }
            assert_eq!(format!("{:.1}", block.final_score.unwrap()), format!("{final_score:.1}"));
        }
    }

    #[test]
    fn baselines_are_4_0s() {
        let want = [29820.0, 116700.0, 43.0, 3960.0, 1655.0, 5800.0, 12440.0, 4000.0, 126.0, 6.0, 15000.0];
        for (t, b) in INDEX4_TESTS.iter().zip(want) {
            assert_eq!(baseline(t), Some(b), "{t}");
        }
        assert_eq!(baseline("shell1"), None);
        assert_eq!(baseline("whetstone-double"), None);
    }

    #[test]
    fn layout_is_4_0s() {
        let text = format(&compute(&scores(&REPORTS[0].0)));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "");
        assert_eq!(lines[1], "                     INDEX VALUES            ");
        assert_eq!(lines[2], "TEST                                        BASELINE     RESULT      INDEX");
        assert_eq!(lines[3], "");
        assert_eq!(lines[4], "Arithmetic Test (type = double)              29820.0    52816.5       17.7");
        assert_eq!(lines[13], "Shell Scripts (8 concurrent)                     6.0       83.0      138.3");
        assert_eq!(lines[15], "                                                                 =========");
        assert_eq!(lines[16], "     FINAL SCORE                                                      50.9");
        assert_eq!(lines.len(), 17);
    }

    #[test]
    fn missing_tests_are_left_out_and_unknown_ignored() {
        let block = compute(&[("pipe", 12440.0), ("syscall", 15000.0), ("hanoi", 5.0)]);
        assert_eq!(block.rows.len(), 2);
        assert_eq!(block.final_score, Some(10.0));
        assert_eq!(compute(&[]).final_score, None);
        assert_eq!(compute(&[("pipe", 0.0), ("syscall", 15000.0)]).final_score, Some(0.0));
    }
}
