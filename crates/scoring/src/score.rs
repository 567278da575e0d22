//! Run's arithmetic, as pure functions: what one copy's stderr means (`readResults`), one pass
//! from its copies (`runOnePass`), a test's score from its passes (`combinePassResults`) and the
//! index blocks (`indexResults`):
//! docs/ORIGINAL.md, "Reading a copy", "Combining copies", "Passes and score" and "Index"; kept
//! exact, guards included (docs/ORIGINAL.md, "Semantics").
//!
//! Nothing here runs a process, reads a clock or prints: the tests below feed literal samples,
//! many of them taken from a real run of the C suite (its .log), and expect its scores.

use crate::model::{Category, CopyOutcome, IndexBlock, IndexRow, Pass, TestResult};
use crate::suite::Repeat;

/// Passes a test gets: 10 long / 3 short by default; with `-i n`, n long and
/// max(1, floor((n+1)/3)) short, as Run.
pub fn passes_for(repeat: Repeat, iterations: Option<u32>) -> usize {
    let (long, short) = match iterations {
        Some(n) if n > 0 => (n as usize, ((n as usize + 1) / 3).max(1)),
        _ => (10, 3),
    };
    match repeat {
        Repeat::Long => long,
        Repeat::Short => short,
    }
}

/// One pass from its copies (`runOnePass`): counts summed, times (TIME, else elapsed) and
/// elapsed averaged, timebase and label from copy 0. Call only with copies that have no error.
pub fn combine_copies(copies: Vec<CopyOutcome>) -> Pass {
    let n = copies.len().max(1) as f64;
    let count = copies.iter().map(|c| c.count.unwrap_or(0.0)).sum();
    // Perl's `TIME || elapsed`: a TIME of 0 falls back to elapsed too.
    let time = copies.iter().map(|c| c.time.filter(|&t| t != 0.0).unwrap_or(c.elapsed)).sum::<f64>() / n;
    let elapsed = copies.iter().map(|c| c.elapsed).sum::<f64>() / n;
    let timebase = copies.first().and_then(|c| c.timebase).unwrap_or(0.0);
    let label = copies.first().and_then(|c| c.label.clone()).unwrap_or_default();
    Pass { copies, count, time, elapsed, timebase, label, noise: None, round: None, start: None }
}

/// The passes' indices in ascending order of raw summed count; Run drops the first floor(P/3).
/// Stable, as Perl's mergesort: equal counts keep run order. The `.log` lists them in this order.
pub fn by_count(passes: &[Pass]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..passes.len()).collect();
    order.sort_by(|&a, &b| passes[a].count.total_cmp(&passes[b].count));
    order
}

/// The passes Run keeps, in run order: all but the floor(P/3) of lowest count. The one
/// drop-a-third: the score ([`combine_passes`]) and a quick run's stopping rule both use it.
pub fn kept_in_run_order(passes: &[Pass]) -> Vec<&Pass> {
    let mut keep = vec![true; passes.len()];
    for &i in &by_count(passes)[..passes.len() / 3] {
        keep[i] = false;
    }
    passes.iter().zip(keep).filter(|&(_, k)| k).map(|(p, _)| p).collect()
}

/// A test's figures from its passes (`combinePassResults`).
#[derive(Debug, Clone, PartialEq)]
pub struct Combined {
    /// Indices of the dropped passes (the lowest floor(P/3) counts), lowest count first.
    pub dumped: Vec<usize>,
    /// Indices of the kept passes, in ascending order of count (Run's log order).
    pub kept: Vec<usize>,
    /// Geometric mean of the kept per-pass rates.
    pub score: f64,
    /// Mean time of the kept passes.
    pub time: f64,
    /// The unit label (of the highest-count pass, as Run's loop leaves it).
    pub unit: String,
}

/// Drops the lowest floor(P/3) passes by raw summed count and takes the geometric mean of the
/// kept per-pass rates: count / (time / timebase) when timebase and time are positive, else the
/// count itself. A pass with count <= 0 adds no log term but still counts in the mean (master's
/// guard), so it acts as a rate of 1. None when there are no passes.
pub fn combine_passes(passes: &[Pass]) -> Option<Combined> {
    if passes.is_empty() {
        return None;
    }
    let order = by_count(passes);
    let (dumped, kept) = order.split_at(passes.len() / 3);
    let mut product = 0.0;
    let mut total_time = 0.0;
    for &i in kept {
        let p = &passes[i];
        let time = if p.time != 0.0 { p.time } else { p.elapsed };
        if p.count > 0.0 {
            product += if p.timebase > 0.0 && time > 0.0 {
                p.count.ln() - (time / p.timebase).ln()
            } else {
                p.count.ln()
            };
        }
        total_time += time;
    }
    let k = kept.len() as f64;
    Some(Combined {
        dumped: dumped.to_vec(),
        kept: kept.to_vec(),
        score: (product / k).exp(),
        time: total_time / k,
        unit: passes[*kept.last().unwrap()].label.clone(),
    })
}

/// Fills a test's kept passes, score, time and unit from its passes ([`combine_passes`]); false
/// when it has none. The driver scores a test so, and compare a log's test again.
pub fn score_result(r: &mut TestResult) -> bool {
    let Some(c) = combine_passes(&r.passes) else { return false };
    r.kept = c.kept;
    r.score = c.score;
    r.time = c.time;
    r.unit = c.unit;
    true
}

/// A test's index: 10 x score / baseline.
pub fn test_index(score: f64, baseline: f64) -> f64 {
    10.0 * score / baseline
}

/// The index blocks of one copy-count run (`indexResults`), in the fixed category order. A
/// category gets a block when at least one of its tests with a baseline produced a score. Its
/// rows are every test of the category that produced a score, sorted by log message, with `---`
/// (no baseline) where it has none. The score is the geometric mean of the indexes that have a
/// baseline; a ratio <= 1e-6 adds no log term but still counts (master's guard). Partial when
/// fewer tests were indexed than the category has baselines.
pub fn index_blocks(results: &[TestResult]) -> Vec<IndexBlock> {
    index_blocks_with(
        results,
        |name| crate::baselines::lookup(name).map(|b| b.score),
        |cat| crate::baselines::count_in(cat.key()),
    )
}

/// The results that have a score, sorted by message in byte order, as `Run` lists them.
pub fn ran(results: &[TestResult]) -> Vec<&TestResult> {
    let mut v: Vec<&TestResult> = Vec::new();
    for r in results.iter().filter(|r| r.ok()) {
        v.push(r);
    }
    by_message(&mut v);
    v
}

/// Sorts results by message in byte order, stably: the one such sort, shared by every list of
/// tests so that it is built once.
pub fn by_message(v: &mut [&TestResult]) {
    v.sort_by(|a, b| a.message.as_bytes().cmp(b.message.as_bytes()));
}

/// [`index_blocks`] with the baselines given as functions (for tests).
pub fn index_blocks_with(
    results: &[TestResult],
    baseline: impl Fn(&str) -> Option<f64>,
    baselines_in: impl Fn(Category) -> usize,
) -> Vec<IndexBlock> {
    let ran = ran(results);
    let mut blocks = Vec::new();
    for cat in Category::ALL {
        let mut rows = Vec::new();
        let (mut sum, mut indexed) = (0.0, 0usize);
        for r in ran.iter().filter(|r| r.category == Some(cat)) {
            let base = baseline(&r.name);
            let index = base.map(|b| test_index(r.score, b));
            if let Some(b) = base {
                let ratio = r.score / b;
                if ratio > 0.000001 {
                    sum += ratio.ln();
                }
                indexed += 1;
            }
            rows.push(IndexRow { message: r.message.clone(), baseline: base, score: r.score, index });
        }
        if indexed == 0 {
            continue;
        }
        blocks.push(IndexBlock {
            category: cat,
            rows,
            score: (sum / indexed as f64).exp() * 10.0,
            partial: indexed < baselines_in(cat),
        });
    }
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::parse_copy;

    /// A clean copy: count, timebase, TIME (if any), elapsed.
    fn copy(count: f64, timebase: f64, time: Option<f64>, elapsed: f64) -> CopyOutcome {
        CopyOutcome {
            count: Some(count),
            timebase: Some(timebase),
            label: Some("lps".into()),
            time,
            elapsed,
            ..Default::default()
        }
    }

    /// Passes of one copy each, from (COUNT0, COUNT1, TIME, elapsed) as a Run .log prints them.
    fn passes(rows: &[(f64, f64, Option<f64>, f64)]) -> Vec<Pass> {
        rows.iter().map(|&(c, tb, t, e)| combine_copies(vec![copy(c, tb, t, e)])).collect()
    }

    fn assert_close(got: f64, want: f64) {
        assert!(((got - want) / want).abs() < 1e-12, "got {got}, want {want}");
    }

    #[test]
    fn pass_counts_follow_run() {
        assert_eq!(passes_for(Repeat::Long, None), 10);
        assert_eq!(passes_for(Repeat::Short, None), 3);
        assert_eq!(passes_for(Repeat::Long, Some(1)), 1);
        assert_eq!(passes_for(Repeat::Short, Some(1)), 1);
        assert_eq!(passes_for(Repeat::Short, Some(5)), 2);
        assert_eq!(passes_for(Repeat::Short, Some(8)), 3);
        assert_eq!(passes_for(Repeat::Long, Some(0)), 10);
    }

    // Dhrystone 2, 1 copy, from the reference .log: 10 passes, 3 dumped; Run printed
    // score 78540503.4328753, time 10.0464941428571.
    #[test]
    fn reference_dhrystone_one_copy() {
        let p = passes(&[
            (780131628.0, 1.0, None, 10.002355),
            (800553506.0, 1.0, None, 10.009692),
            (804441019.0, 1.0, None, 10.008831),
            (319011682.0, 1.0, None, 10.005192),
            (796744497.0, 1.0, None, 10.295131),
            (801770841.0, 1.0, None, 10.002431),
            (800168360.0, 1.0, None, 10.005065),
            (741312199.0, 1.0, None, 10.001954),
            (697469629.0, 1.0, None, 10.002918),
            (643531794.0, 1.0, None, 10.002199),
        ]);
        let c = combine_passes(&p).unwrap();
        assert_eq!(c.dumped, vec![3, 9, 8]);
        assert_eq!(c.kept, vec![7, 0, 4, 6, 1, 5, 2]);
        assert!((c.score - 78540503.4328753).abs() < 1e-5, "{}", c.score);
        assert!((c.time - 10.0464941428571).abs() < 1e-12, "{}", c.time);
        assert_eq!(format!("{:.1}", c.score), "78540503.4");
    }

    // Whetstone, 1 copy: timebase 0 (the count is a rate) and TIME replaces elapsed.
    // Run: score 10246.7054634059, time 9.95571428571428.
    #[test]
    fn reference_whetstone_uses_time_and_rates() {
        let rows = [
            (8033.118, 9.615, 11.528895),
            (7963.490, 10.095, 12.038869),
            (8590.657, 9.534, 11.406751),
            (10083.269, 9.563, 11.220119),
            (10257.073, 9.790, 11.482361),
            (10303.953, 10.066, 11.737483),
            (10169.582, 10.216, 11.878265),
            (10290.341, 10.054, 11.740203),
            (10326.390, 9.984, 11.673032),
            (10298.636, 10.017, 11.683504),
        ];
        let p = passes(&rows.map(|(c, t, e)| (c, 0.0, Some(t), e)));
        let c = combine_passes(&p).unwrap();
        assert_close(c.score, 10246.7054634059);
        assert_close(c.time, 9.95571428571428);
    }

    // Execl, 2 copies: counts summed per pass, elapsed averaged. Run: score 4090.17250233164,
    // time 29.9869345; dumped the pass of 116332.
    #[test]
    fn reference_execl_two_copies() {
        let pass = |a: (f64, f64), b: (f64, f64)| {
            combine_copies(vec![copy(a.0, 1.0, None, a.1), copy(b.0, 1.0, None, b.1)])
        };
        let p = vec![
            pass((57845.0, 29.487303), (58487.0, 29.487098)),
            pass((61240.0, 29.986955), (61157.0, 29.987110)),
            pass((61336.0, 29.986569), (61571.0, 29.987104)),
        ];
        assert_eq!(p[0].count, 116332.0);
        let c = combine_passes(&p).unwrap();
        assert_eq!(c.dumped, vec![0]);
        assert_close(c.score, 4090.17250233164);
        assert_close(c.time, 29.9869345);
    }

    // File Copy 1024, 1 copy: the last COUNT/TIME pair of fstime's three phases. Run: score
    // 1117517.91894358, time 30 (TIME, not the 45 s elapsed).
    #[test]
    fn reference_fstime_from_stderr_text() {
        let err = "COUNT|1908006|0|KBps\nTIME|2.0\nCOUNT|2866270|0|KBps\nTIME|2.0\nCOUNT|1100080|0|KBps\nTIME|30.0\n";
        let c1 = parse_copy(err, 45.011613, 0, 22747);
        assert_eq!(c1.count, Some(1100080.0));
        assert_eq!(c1.time, Some(30.0));
        assert_eq!(c1.error, None);
        assert_eq!((c1.timebase, c1.label.as_deref(), c1.pid), (Some(0.0), Some("KBps"), 22747));
        let p = vec![
            combine_copies(vec![c1]),
            combine_copies(vec![copy(1134465.0, 0.0, Some(30.0), 45.013148)]),
            combine_copies(vec![copy(1100824.0, 0.0, Some(30.0), 45.010922)]),
        ];
        let c = combine_passes(&p).unwrap();
        assert_close(c.score, 1117517.91894358);
        assert_eq!(c.time, 30.0);
    }

    // Shell Scripts (1 concurrent): timebase 60 gives loops per minute. Run: 9466.65784498715.
    #[test]
    fn reference_shell1_per_minute() {
        let p = passes(&[
            (9400.0, 60.0, None, 60.002903),
            (9535.0, 60.0, None, 60.004722),
            (9323.0, 60.0, None, 60.006626),
        ]);
        let c = combine_passes(&p).unwrap();
        assert_close(c.score, 9466.65784498715);
        assert_close(c.time, 60.0038125);
    }

    // The 1-copy System index of the reference run, from Run's full-precision test scores:
    // 1433.1, full; and the rows' indexes as the report printed them.
    #[test]
    fn reference_system_index() {
        let scores = [
            ("dhry2reg", "Dhrystone 2 using register variables", 78540503.4328753),
            ("whetstone-double", "Double-Precision Whetstone", 10246.7054634059),
            ("execl", "Execl Throughput", 2114.67738547392),
            ("fstime", "File Copy 1024 bufsize 2000 maxblocks", 1117517.91894358),
            ("fsbuffer", "File Copy 256 bufsize 500 maxblocks", 289627.461443144),
            ("fsdisk", "File Copy 4096 bufsize 8000 maxblocks", 3183417.18726544),
            ("pipe", "Pipe Throughput", 2089013.92214313),
            ("context1", "Pipe-based Context Switching", 26010.2663935101),
            ("spawn", "Process Creation", 6781.82138980438),
            ("syscall", "System Call Overhead", 1718780.53038012),
            ("shell1", "Shell Scripts (1 concurrent)", 9466.65784498715),
            ("shell8", "Shell Scripts (8 concurrent)", 1791.92262678826),
        ];
        let results: Vec<TestResult> =
            scores.iter().map(|&(n, m, s)| result(n, m, Category::System, s)).collect();
        let blocks = index_blocks(&results);
        assert_eq!(blocks.len(), 1);
        let b = &blocks[0];
        assert!(!b.partial);
        assert_eq!(format!("{:.1}", b.score), "1433.1");
        let idx: Vec<String> = b.rows.iter().map(|r| format!("{:.1}", r.index.unwrap())).collect();
        assert_eq!(
            idx,
            [
                "6730.1", "1863.0", "491.8", "2822.0", "1750.0", "5488.7", "1679.3", "65.0", "538.2",
                "2232.7", "2986.5", "1145.9"
            ]
        );
        // Sorted by message, byte order: "Pipe Throughput" before "Pipe-based ...".
        assert_eq!(b.rows[6].message, "Pipe Throughput");
        assert_eq!(b.rows[9].message, "Shell Scripts (1 concurrent)");
    }

    fn result(name: &str, message: &str, cat: Category, score: f64) -> TestResult {
        TestResult {
            name: name.into(),
            message: message.into(),
            category: Some(cat),
            copies: 1,
            kept: vec![0],
            score,
            ..Default::default()
        }
    }

    #[test]
    fn drop_rule_keeps_the_highest_counts() {
        // 1 or 2 passes: nothing dropped; 3: one; 6: two; ties keep run order.
        let one = passes(&[(5.0, 0.0, None, 1.0)]);
        assert_eq!(combine_passes(&one).unwrap().kept, vec![0]);
        let two = passes(&[(5.0, 0.0, None, 1.0), (3.0, 0.0, None, 1.0)]);
        assert_eq!(combine_passes(&two).unwrap().dumped, Vec::<usize>::new());
        let six = passes(&[4.0, 2.0, 2.0, 9.0, 1.0, 7.0].map(|c| (c, 0.0, None, 1.0)));
        let c = combine_passes(&six).unwrap();
        assert_eq!(c.dumped, vec![4, 1]);
        assert_eq!(c.kept, vec![2, 0, 5, 3]);
        // Geometric mean of 2, 4, 7, 9.
        assert_close(c.score, (2.0f64 * 4.0 * 7.0 * 9.0).powf(0.25));
        assert!(combine_passes(&[]).is_none());
    }

    #[test]
    fn the_kept_passes_are_the_ones_the_score_keeps() {
        // Counts rank the passes one way, rates (count / time) the other: a quick run's rule
        // must watch the passes the score keeps, which Run picks by count.
        let p = passes(&[
            (100.0, 1.0, Some(1.0), 1.0),
            (90.0, 1.0, Some(0.5), 1.0),
            (80.0, 1.0, Some(0.25), 1.0),
        ]);
        let kept: Vec<f64> = kept_in_run_order(&p).iter().map(|p| p.count).collect();
        assert_eq!(kept, [100.0, 90.0]);
        let c = combine_passes(&p).unwrap();
        assert_eq!(c.dumped, [2]);
    }

    #[test]
    fn dropping_is_by_raw_count_not_rate() {
        // Pass 0 has the lower count but the higher rate; it is still the one dropped.
        let p = passes(&[(100.0, 1.0, None, 1.0), (150.0, 1.0, None, 10.0), (200.0, 1.0, None, 10.0)]);
        let c = combine_passes(&p).unwrap();
        assert_eq!(c.dumped, vec![0]);
        assert_close(c.score, (15.0f64 * 20.0).sqrt());
        assert_close(c.time, 10.0);
    }

    #[test]
    fn zero_counts_act_as_rate_one() {
        // Master's guard: a kept pass with count 0 adds no log term but counts in k.
        let p = passes(&[(0.0, 1.0, None, 2.0), (16.0, 1.0, None, 1.0)]);
        let c = combine_passes(&p).unwrap();
        assert_close(c.score, 4.0); // exp((0 + ln 16) / 2)
        let zeros = passes(&[(0.0, 1.0, None, 1.0), (0.0, 1.0, None, 1.0)]);
        assert_eq!(combine_passes(&zeros).unwrap().score, 1.0);
        // Time 0 with a timebase: the count itself is the rate.
        let p = passes(&[(50.0, 1.0, Some(0.0), 0.0)]);
        assert_close(combine_passes(&p).unwrap().score, 50.0);
    }

    #[test]
    fn copies_sum_counts_and_average_times() {
        let p = combine_copies(vec![copy(10.0, 1.0, Some(2.0), 3.0), copy(30.0, 60.0, None, 5.0)]);
        assert_eq!(p.count, 40.0);
        assert_eq!(p.time, 3.5); // (TIME 2 + elapsed 5) / 2
        assert_eq!(p.elapsed, 4.0);
        assert_eq!(p.timebase, 1.0); // copy 0's
    }

    #[test]
    fn index_guards_partial_and_missing_baselines() {
        let base = |n: &str| match n {
            "a" => Some(10.0),
            "b" => Some(100.0),
            "c" => Some(1e9),
            _ => None,
        };
        let count = |c: Category| if c == Category::System { 3 } else { 2 };
        // a: index 40, b: index 2.5 -> geometric mean sqrt(100) = 10; "n" has no baseline.
        let r = vec![
            result("a", "A", Category::System, 40.0),
            result("b", "B", Category::System, 25.0),
            result("n", "N", Category::System, 7.0),
        ];
        let blocks = index_blocks_with(&r, base, count);
        assert_eq!(blocks.len(), 1);
        assert!(blocks[0].partial);
        assert_close(blocks[0].score, 10.0);
        assert_eq!(
            blocks[0].rows[2],
            IndexRow { message: "N".into(), baseline: None, score: 7.0, index: None }
        );
        // c's ratio is below 1e-6: its row shows the tiny index, the mean treats it as 10.
        let r = vec![
            result("a", "A", Category::System, 40.0),
            result("b", "B", Category::System, 50.0),
            result("c", "C", Category::System, 1.0),
        ];
        let blocks = index_blocks_with(&r, base, count);
        assert!(!blocks[0].partial);
        // exp((ln 4 + ln 0.5 + nothing) / 3) x 10 = 10 x 2^(1/3).
        assert_close(blocks[0].score, 10.0 * 2f64.powf(1.0 / 3.0));
        assert_close(blocks[0].rows[2].index.unwrap(), 1e-8);
        // Only unbaselined tests of a category: no block at all; failed tests are left out.
        let mut failed = result("a", "A", Category::System, 40.0);
        failed.error = Some("boom".into());
        let r = vec![result("n", "N", Category::Misc, 7.0), failed];
        assert!(index_blocks_with(&r, base, count).is_empty());
    }
}
