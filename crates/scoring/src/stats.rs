//! Statistics of a test's kept per-pass rates, and the interval of an index.
//!
//! Run reports one number per test: the geometric mean of the kept per-pass rates. This module
//! says how far that number can be trusted: n, min, median, max, geometric mean, coefficient of
//! variation, and a 95% confidence interval of the score. Because the score is a geometric mean,
//! the interval is computed on the log scale (mean of ln(rate) ± t(0.975, n−1)·s/√n, then
//! exponentiated), so it is asymmetric around the score and never goes below zero.
//!
//! A category index is a geometric mean of test indexes. In a run with rounds (each round one
//! pass of every test) each round gives an index, and the index's interval is the spread of
//! those (log scale, Student t over the rounds): it sees the host's wander between rounds.
//! One run's window cannot see how far the host's speed drifts between runs, so an interval of
//! a run with rounds also allows for a wander between runs as wide as its rounds': [`wander`].
//! Without rounds it is propagated on the log scale under the assumption that the tests are
//! independent: the variance of the mean of k logs is the sum of their variances over k², which
//! cannot see a wander that moves every test together. Pure math only: exporters and `compare` call it,
//! the driver's `--quick` stopping rule (src/quick.rs) builds on it.

use crate::model::{IndexBlock, Pass, TestResult};

/// The summary of one test's kept samples (the `"stats"` object of the results JSON).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stats {
    /// Number of samples (kept passes).
    pub n: usize,
    pub min: f64,
    /// The middle sample; the mean of the two middle ones when n is even.
    pub median: f64,
    pub max: f64,
    /// Geometric mean, computed as Run computes a score (a rate ≤ 0 adds nothing to the log sum
    /// but still counts), so it equals the reported score.
    pub geomean: f64,
    /// Coefficient of variation: the sample standard deviation (n−1) over the arithmetic mean.
    /// None when n < 2 or the mean is 0.
    pub cv: Option<f64>,
    /// The 95% confidence interval of the score; in a run with rounds, with the host's
    /// [`wander`] added ([`of_result`]). None when n < 2 or a sample is ≤ 0.
    pub ci95: Option<Interval>,
}

/// A 95% confidence interval, kept with its half-width on the log scale so it can be propagated.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
    /// t·s/√n of ln(rate): the interval is centre·exp(±log_half).
    pub log_half: f64,
}

impl Interval {
    /// The interval around `centre` whose log half-width is `log_half`.
    pub fn around(centre: f64, log_half: f64) -> Interval {
        Interval { low: centre * (-log_half).exp(), high: centre * log_half.exp(), log_half }
    }
    /// The larger relative distance from `centre` to either end: 0.01 means "within ±1%".
    pub fn relative_half_width(&self, centre: f64) -> f64 {
        if centre <= 0.0 {
            return f64::INFINITY;
        }
        (self.high / centre - 1.0).max(1.0 - self.low / centre)
    }
    /// Whether two intervals share at least one point.
    pub fn overlaps(&self, other: &Interval) -> bool {
        self.low <= other.high && other.low <= self.high
    }
}

/// Student t quantiles t(0.975, df) for df = 1..=30, computed to 12 digits.
const T975: [f64; 30] = [
    12.7062047362,
    4.30265272975,
    3.18244630528,
    2.7764451052,
    2.57058183564,
    2.44691185114,
    2.36462425159,
    2.3060041352,
    2.2621571628,
    2.22813885199,
    2.20098516009,
    2.17881282967,
    2.16036865646,
    2.14478668792,
    2.13144954556,
    2.11990529922,
    2.10981557783,
    2.10092204024,
    2.09302405441,
    2.08596344727,
    2.07961384473,
    2.0738730679,
    2.06865761042,
    2.06389856163,
    2.05953855275,
    2.05552943864,
    2.05183051648,
    2.0484071418,
    2.04522964213,
    2.0422724563,
];

/// The 0.975 quantile of Student's t with `df` degrees of freedom (df ≥ 1): the table above,
/// then the Cornish-Fisher expansion around the normal quantile, which is within 3e-8 of the
/// exact value from df = 31 on.
pub fn t975(df: usize) -> f64 {
    assert!(df >= 1, "t975 needs at least one degree of freedom");
    if df <= T975.len() {
        return T975[df - 1];
    }
    let z = 1.959_963_984_540_054_f64;
    let d = df as f64;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    let g1 = (z3 + z) / 4.0;
    let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
    let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
    let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
    z + g1 / d + g2 / (d * d) + g3 / (d * d * d) + g4 / (d * d * d * d)
}

/// Run's geometric mean: exp(Σ ln(x) / n), where a value ≤ 0 adds nothing but still counts
/// (UnixBench 6.0.0's guard). 0 for no values.
pub fn geomean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let sum: f64 = xs.iter().filter(|&&x| x > 0.0).map(|x| x.ln()).sum();
    (sum / xs.len() as f64).exp()
}

/// Arithmetic mean and sample standard deviation (n−1); the deviation is None when n < 2.
fn mean_sd(xs: &[f64]) -> (f64, Option<f64>) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, None);
    }
    let ss: f64 = xs.iter().map(|x| (x - mean) * (x - mean)).sum();
    (mean, Some((ss / (n - 1.0)).sqrt()))
}

/// The 95% interval of the geometric mean of `xs` (log scale, Student t). None when n < 2 or a
/// value is ≤ 0 (its log is undefined).
pub fn ci95(xs: &[f64]) -> Option<Interval> {
    if xs.len() < 2 || xs.iter().any(|&x| x <= 0.0 || !x.is_finite()) {
        return None;
    }
    let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
    let (m, s) = mean_sd(&logs);
    let half = t975(xs.len() - 1) * s? / (xs.len() as f64).sqrt();
    Some(Interval::around(m.exp(), half))
}

/// Summarises samples (the kept per-pass rates). None for no samples.
pub fn describe(xs: &[f64]) -> Option<Stats> {
    if xs.is_empty() {
        return None;
    }
    let mut sorted = xs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
    let (mean, sd) = mean_sd(xs);
    let cv = sd.filter(|_| mean != 0.0).map(|s| s / mean.abs());
    Some(Stats { n, min: sorted[0], median, max: sorted[n - 1], geomean: geomean(xs), cv, ci95: ci95(xs) })
}

/// The rate one pass contributes to the score, as Run computes it: count / (time / timebase)
/// when both are positive, else the count itself.
pub fn pass_rate(p: &Pass) -> f64 {
    if p.timebase > 0.0 && p.time > 0.0 {
        p.count / (p.time / p.timebase)
    } else {
        p.count
    }
}

/// The kept per-pass rates of a test, in run order.
pub fn kept_rates(r: &TestResult) -> Vec<f64> {
    r.kept.iter().filter_map(|&i| r.passes.get(i)).map(pass_rate).collect()
}

/// The statistics of a test result of a copy count whose results are `run`; None when it
/// produced no score. In a run with rounds its interval allows for the host's [`wander`] too.
pub fn of_result(r: &TestResult, run: &[TestResult]) -> Option<Stats> {
    if !r.ok() {
        return None;
    }
    let mut st = describe(&kept_rates(r))?;
    if let (Some(ci), Some(w)) = (st.ci95, wander(&round_factors(run, &|_| true))) {
        st.ci95 = Some(Interval::around(st.geomean, ci.log_half.hypot(w)));
    }
    Some(st)
}

/// The interval of a geometric mean of k values (a category index over its test indexes), each
/// given with its own interval's log half-width. Under independence the variance of the mean of
/// k logs is Σ var_i / k²; each test's half-width already carries its own t factor, so the
/// combined half-width is √(Σ h_i²) / k (conservative where tests have few samples). None when
/// there are no values or one of them has no interval.
pub fn propagate(parts: &[(f64, Option<f64>)]) -> Option<Interval> {
    if parts.is_empty() || parts.iter().any(|&(v, h)| h.is_none() || v <= 0.0) {
        return None;
    }
    let k = parts.len() as f64;
    let centre = (parts.iter().map(|(v, _)| v.ln()).sum::<f64>() / k).exp();
    let var: f64 = parts.iter().map(|(_, h)| h.unwrap().powi(2)).sum();
    Some(Interval::around(centre, var.sqrt() / k))
}

/// How far each round of a run with rounds found the host's speed, in round order: per round,
/// the geometric mean over the scored tests `only` admits of each pass's rate relative to its
/// test's geometric mean over all its rounds (a test missing from a round, its pass measured
/// again, is left out of that round's mean). Empty for passes without rounds.
pub fn round_factors(results: &[TestResult], only: &dyn Fn(&TestResult) -> bool) -> Vec<f64> {
    // (round, sum of log ratios, tests)
    let mut rounds: Vec<(usize, f64, usize)> = Vec::new();
    for r in results.iter().filter(|r| r.ok() && only(r)) {
        let rated: Vec<(usize, f64)> = r
            .passes
            .iter()
            .filter_map(|p| Some((p.round?, pass_rate(p))))
            .filter(|&(_, x)| x > 0.0 && x.is_finite())
            .collect();
        let centre = rated.iter().map(|(_, x)| x.ln()).sum::<f64>() / rated.len().max(1) as f64;
        for (k, x) in rated.iter().filter(|_| rated.len() >= 2) {
            match rounds.iter_mut().find(|e| e.0 == *k) {
                Some(e) => (e.1, e.2) = (e.1 + x.ln() - centre, e.2 + 1),
                None => rounds.push((*k, x.ln() - centre, 1)),
            }
        }
    }
    rounds.sort_by_key(|e| e.0);
    rounds.iter().map(|&(_, sum, n)| (sum / n as f64).exp()).collect()
}

/// The interval of an index of rounds whose speeds were `factors` ([`round_factors`]), around
/// `centre`: the spread of the rounds' indexes on the log scale, Student t over the rounds, with
/// the host's [`wander`] between runs added; t·s·√(1 + 1/R) in all. None for fewer than two
/// rounds.
pub fn rounds_interval(centre: f64, factors: &[f64]) -> Option<Interval> {
    let (ci, w) = (ci95(factors)?, wander(factors)?);
    Some(Interval::around(centre, ci.log_half.hypot(w)))
}

/// How far, on the log scale, the host's wander can put one run's figure from another's, as a
/// 95% half-width: t(0.975, R−1)·s, s the spread of the `factors` of R rounds. A run samples
/// the host's speed in its own window of minutes; rounds show how far that speed moves within
/// a window, and the assumption is that it moves as far between windows, which one run cannot
/// see. Without it identical quick runs an hour apart on a drifting VM were marked different in
/// 29% of pairs (docs/FIDELITY.md, "A/A"). None for fewer than two rounds.
pub fn wander(factors: &[f64]) -> Option<f64> {
    ci95(factors).map(|c| c.log_half * (factors.len() as f64).sqrt())
}

/// How far the host's speed moved between rounds: the fastest round over the slowest, less 1
/// (0.13 for 13%). None for fewer than two rounds.
pub fn moved(factors: &[f64]) -> Option<f64> {
    let (lo, hi) = factors.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &f| (lo.min(f), hi.max(f)));
    (factors.len() >= 2).then(|| hi / lo - 1.0)
}

/// The interval of an index block: in a run with rounds, from the spread of the rounds'
/// indexes ([`rounds_interval`]), which sees the host's wander between them; else propagated
/// from its rows with an index, each with the interval of the test of that message in
/// `results`. None when a row's test has no interval.
pub fn index_interval(b: &IndexBlock, results: &[TestResult]) -> Option<Interval> {
    let in_block = |r: &TestResult| b.rows.iter().any(|row| row.index.is_some() && row.message == r.message);
    let factors = round_factors(results, &in_block);
    if factors.len() >= 2 {
        return rounds_interval(b.score, &factors);
    }
    propagated_interval(b, results)
}

/// The interval of an index block propagated from its tests' (independence assumed).
fn propagated_interval(b: &IndexBlock, results: &[TestResult]) -> Option<Interval> {
    let parts: Vec<(f64, Option<f64>)> = b
        .rows
        .iter()
        .filter_map(|row| row.index.map(|ix| (ix, row)))
        .map(|(ix, row)| {
            let half = results
                .iter()
                .find(|r| r.message == row.message)
                .and_then(|r| of_result(r, results))
                .and_then(|s| s.ci95)
                .map(|c| c.log_half);
            (ix, half)
        })
        .collect();
    // Centred on the block's own score (the same geometric mean, as Run rounds nothing here).
    propagate(&parts).map(|i| Interval::around(b.score, i.log_half))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[track_caller]
    fn assert_close(a: f64, b: f64) {
        assert!(close(a, b, 1e-9), "{a} != {b}");
    }

    #[test]
    fn t_quantiles_match_the_table_and_the_expansion() {
        assert_eq!(t975(1), 12.7062047362);
        assert_eq!(t975(6), 2.44691185114);
        assert_eq!(t975(30), 2.0422724563);
        // Exact values (12 digits) beyond the table.
        assert!(close(t975(31), 2.0395134464, 3e-8));
        assert!(close(t975(40), 2.02107539031, 3e-8));
        assert!(close(t975(100), 1.98397151852, 1e-9));
        assert!(close(t975(1000), 1.96233908083, 1e-9));
    }

    #[test]
    fn describe_odd_sample() {
        // Hand computation for 100, 110, 121 (a geometric sequence, ratio 1.1):
        //   geomean = 110; ln values = ln 110 + {−ln 1.1, 0, +ln 1.1};
        //   s(ln) = ln 1.1 = 0.0953101798043249; half = t(2)·s/√3
        //         = 4.30265272975 · 0.0953101798043249 / 1.7320508075688772 = 0.2367636119656...;
        //   mean = 110.333..., s = √((10.333² + 0.333² + 10.667²)/2) = 10.5039675044;
        //   cv = s / mean = 0.0952021224
        let s = describe(&[110.0, 121.0, 100.0]).unwrap();
        assert_eq!((s.n, s.min, s.median, s.max), (3, 100.0, 110.0, 121.0));
        assert_close(s.geomean, 110.0);
        let cv = s.cv.unwrap();
        assert!(close(cv, 10.503967504392486 / 110.33333333333333, 1e-12), "{cv}");
        let ci = s.ci95.unwrap();
        let half = 4.30265272975 * 0.0953101798043249 / 3f64.sqrt();
        assert_close(ci.log_half, half);
        assert_close(ci.log_half, 0.2367636119657);
        assert_close(ci.low, 110.0 * (-half).exp());
        assert_close(ci.low, 86.80955999795);
        assert_close(ci.high, 139.38556997969);
    }

    #[test]
    fn describe_even_sample_and_single() {
        // 2 and 8: geomean 4, median 5, ln spread s = ln 4 / √2 = 0.98025814346;
        // half = t(1)·s/√2 = 12.7062047362 · ln 4 / 2 = 8.80726999; cv = 4.2426406871/5.
        let s = describe(&[8.0, 2.0]).unwrap();
        assert_eq!((s.n, s.min, s.median, s.max), (2, 2.0, 5.0, 8.0));
        assert_close(s.geomean, 4.0);
        assert_close(s.cv.unwrap(), 0.848528137423857);
        assert_close(s.ci95.unwrap().log_half, 12.7062047362 * 4f64.ln() / 2.0);
        let one = describe(&[42.0]).unwrap();
        assert_eq!((one.n, one.median, one.cv, one.ci95), (1, 42.0, None, None));
        assert_close(one.geomean, 42.0);
        assert!(describe(&[]).is_none());
    }

    #[test]
    fn geomean_follows_runs_zero_guard() {
        // A zero pass adds nothing to the log sum but counts: exp((ln 4 + 0)/2) = 2.
        assert_close(geomean(&[4.0, 0.0]), 2.0);
        assert_eq!(geomean(&[]), 0.0);
        assert!(ci95(&[4.0, 0.0]).is_none());
    }

    #[test]
    fn identical_samples_give_a_zero_width_interval() {
        let s = describe(&[5.0, 5.0, 5.0, 5.0]).unwrap();
        let ci = s.ci95.unwrap();
        assert_eq!(ci.log_half, 0.0);
        assert_close(ci.low, 5.0);
        assert_close(ci.high, 5.0);
        assert_eq!(s.cv, Some(0.0));
        assert!(ci.relative_half_width(s.geomean) < 1e-15);
    }

    #[test]
    fn propagated_index_interval() {
        // Indexes 100 and 400, log half-widths 0.03 and 0.04: centre √(100·400) = 200,
        // half = √(0.03² + 0.04²)/2 = 0.025, interval 200·e^∓0.025 = 195.0619824, 205.0630241
        let i = propagate(&[(100.0, Some(0.03)), (400.0, Some(0.04))]).unwrap();
        assert_close(i.log_half, 0.025);
        assert_close(i.low, 195.06198240567);
        assert_close(i.high, 205.06302410489);
        assert!(propagate(&[(100.0, Some(0.03)), (400.0, None)]).is_none());
        assert!(propagate(&[]).is_none());
    }

    #[test]
    fn index_interval_of_a_block() {
        use crate::model::{Category, IndexRow};
        let pass = |count: f64| Pass { count, time: 1.0, timebase: 1.0, ..Pass::default() };
        let result = |message: &str, counts: &[f64]| TestResult {
            message: message.into(),
            passes: counts.iter().map(|&c| pass(c)).collect(),
            kept: (0..counts.len()).collect(),
            ..TestResult::default()
        };
        // Test a: rates 100 and 121; test b: 400 twice (zero width); test c: one sample.
        let results = vec![result("a", &[100.0, 121.0]), result("b", &[400.0, 400.0]), result("c", &[5.0])];
        let row =
            |m: &str, index: Option<f64>| IndexRow { message: m.into(), baseline: None, score: 0.0, index };
        let block = IndexBlock {
            category: Category::System,
            rows: vec![row("a", Some(10.0)), row("b", Some(40.0)), row("c", None)],
            score: 20.0,
            partial: false,
        };
        // a: ln values differ by ln 1.21 = 2 ln 1.1, so s = √2·ln 1.1 and half = t(1)·s/√2
        // = 12.7062047362 · ln 1.1 = 1.21103...; b: 0. Index half = √(1.211² + 0)/2.
        let i = index_interval(&block, &results).unwrap();
        assert_close(i.log_half, 12.7062047362 * 1.1f64.ln() / 2.0);
        assert_close(i.low, 20.0 * (-i.log_half).exp());
        // A test with one sample has no interval, and neither has the index then.
        let block = IndexBlock { rows: vec![row("a", Some(10.0)), row("c", Some(40.0))], ..block };
        assert!(index_interval(&block, &results).is_none());
    }

    #[test]
    fn an_index_of_rounds_takes_its_interval_from_the_rounds_spread() {
        use crate::model::{Category, IndexRow};
        // Two tests, four rounds; the host ran 10% faster in rounds 2 and 4 than in 1 and 3,
        // and each test's own passes agree exactly within a round.
        let pass = |count: f64, round| Pass {
            count,
            time: 1.0,
            timebase: 1.0,
            round: Some(round),
            ..Pass::default()
        };
        let speed = [1.0, 1.1, 1.0, 1.1];
        let result = |message: &str, base: f64| TestResult {
            message: message.into(),
            passes: (0..4).map(|k| pass(base * speed[k], k + 1)).collect(),
            kept: (0..4).collect(),
            ..TestResult::default()
        };
        let results = vec![result("a", 100.0), result("b", 400.0)];
        let f = round_factors(&results, &|_| true);
        let g = 1.1f64.sqrt();
        for (x, want) in f.iter().zip([1.0 / g, g, 1.0 / g, g]) {
            assert_close(*x, want);
        }
        assert_close(moved(&f).unwrap(), 0.1);
        // ln factors: ±ln(1.1)/2, s = ln(1.1)/2 · √(4/3); half = t(3) · s / 2.
        let row = |m: &str| IndexRow { message: m.into(), baseline: None, score: 0.0, index: Some(10.0) };
        let block = IndexBlock {
            category: Category::System,
            rows: vec![row("a"), row("b")],
            score: 20.0,
            partial: false,
        };
        let i = index_interval(&block, &results).unwrap();
        let s = 1.1f64.ln() / 2.0 * (4.0f64 / 3.0).sqrt();
        assert_close(wander(&f).unwrap(), 3.18244630528 * s);
        assert_close(i.log_half, 3.18244630528 * s * (1.0f64 + 1.0 / 4.0).sqrt());
        assert_close(i.low, 20.0 * (-i.log_half).exp());
        // Each test alone has no spread within a round: propagated, its interval would be
        // t(3)·s/2 per test over √2, narrower than the rounds'; without rounds it is that.
        let flat: Vec<TestResult> = results
            .iter()
            .map(|r| TestResult {
                passes: r.passes.iter().map(|p| Pass { round: None, ..p.clone() }).collect(),
                ..r.clone()
            })
            .collect();
        let p = index_interval(&block, &flat).unwrap();
        assert!(p.log_half < i.log_half, "{} {}", p.log_half, i.log_half);
        assert!(round_factors(&flat, &|_| true).is_empty() && moved(&[1.0]).is_none());
        // A test's own interval is its passes' spread with the wander added; without rounds,
        // its passes' spread alone.
        let own = describe(&kept_rates(&results[0])).unwrap().ci95.unwrap().log_half;
        let with = of_result(&results[0], &results).unwrap().ci95.unwrap();
        assert_close(with.log_half, own.hypot(wander(&f).unwrap()));
        let alone = of_result(&flat[0], &flat).unwrap().ci95.unwrap();
        assert_close(alone.log_half, own);
    }

    #[test]
    fn interval_helpers() {
        let a = Interval { low: 1.0, high: 2.0, log_half: 0.0 };
        let b = Interval { low: 2.0, high: 3.0, log_half: 0.0 };
        let c = Interval { low: 2.5, high: 3.0, log_half: 0.0 };
        assert!(a.overlaps(&b) && b.overlaps(&a));
        assert!(!a.overlaps(&c) && !c.overlaps(&a));
        let i = Interval::around(100.0, 0.01f64.ln_1p());
        assert!(close(i.relative_half_width(100.0), 0.01, 1e-12));
    }

    #[test]
    fn rates_of_a_result_follow_run() {
        let pass = |count: f64, time: f64, timebase: f64| Pass { count, time, timebase, ..Pass::default() };
        // lpm: 120 loops in 60 s at timebase 60 -> 120 lpm; a rate (timebase 0) is taken as is.
        assert_eq!(pass_rate(&pass(120.0, 60.0, 60.0)), 120.0);
        assert_eq!(pass_rate(&pass(500.0, 30.0, 1.0)), 500.0 / 30.0);
        assert_eq!(pass_rate(&pass(9801.4, 10.5, 0.0)), 9801.4);
        let r = TestResult {
            passes: vec![pass(10.0, 1.0, 1.0), pass(40.0, 1.0, 1.0), pass(20.0, 2.0, 1.0)],
            kept: vec![1, 2],
            ..TestResult::default()
        };
        assert_eq!(kept_rates(&r), vec![40.0, 10.0]);
        let s = of_result(&r, std::slice::from_ref(&r)).unwrap();
        assert_close(s.geomean, 20.0);
        let failed = TestResult { error: Some("boom".into()), ..r };
        assert!(of_result(&failed, &[]).is_none());
    }
}
