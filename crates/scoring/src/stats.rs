//! Statistics of a test's passes, the interval of an index, and the test on a difference.
//!
//! Run reports one number per test: the geometric mean of the passes it keeps (the worst third
//! dropped). This module says how far that number can be trusted: n, min, median, max,
//! geometric mean, coefficient of variation, and a 95% confidence interval of the score, on the
//! log scale (so it is asymmetric around the score and never goes below zero).
//!
//! The interval is that of a trimmed mean ([`trimmed_ci95`]): the dropped passes winsorized,
//! the standard error of the kept mean from that, Student's t over the kept passes less one.
//! Treating the kept passes as a plain sample would make it too narrow (simulated coverage
//! 90-94%); this holds 94-96% on average over four to twenty passes (the unit tests simulate
//! it). Two kept passes give one degree of
//! freedom (t = 12.7) and no interval of use: none is given.
//!
//! A category index is a geometric mean of test indexes. In a run with rounds (each round one
//! pass of every test) each round gives an index, and the index's interval is the spread of
//! those over the rounds: it holds the host's wander between rounds, averaged over the run as
//! the index averages it, and no more. How much of that spread is the host rather than the
//! passes' own noise is [`host_wander`], which the reports give but which is not added again:
//! measured, identical quick runs agreed within 3% where their rounds moved 10-23% (and the
//! host itself, net of noise, 3-8%), so a run's level is its rounds' mean, not one more draw of
//! them. A drift slower than a run stays beyond one run (docs/FIDELITY.md). Without rounds an
//! index's interval is propagated from its tests', which cannot see a wander that moves every
//! test together.
//!
//! Every interval keeps its standard error and degrees of freedom, so that two runs' figures
//! can be tested against each other ([`Difference`]: Welch's test on the log ratio). Pure math
//! only: exporters and `compare` call it, the driver's `--quick` stopping rule (src/quick.rs)
//! builds on it.

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
    /// The 95% confidence interval of the score; for a test's passes the trimmed mean's
    /// ([`of_result`]). None when there are too few samples for one of use ([`USEFUL_KEPT`]) or
    /// a sample is ≤ 0.
    pub ci95: Option<Interval>,
}

/// A 95% confidence interval on the log scale, with the standard error and degrees of freedom
/// it was made of, so that it can be propagated and two of them tested against each other.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
    /// t(0.975, df)·se of ln(score): the interval is centre·exp(±log_half).
    pub log_half: f64,
    /// The standard error of ln(score).
    pub log_se: f64,
    /// The degrees of freedom of `log_se` (Satterthwaite's where parts combine, so not always
    /// whole; infinite where unknown, as in a file that does not say).
    pub df: f64,
}

impl Interval {
    /// The 95% interval around `centre` of standard error `log_se` (log scale) on `df`
    /// degrees of freedom.
    pub fn of(centre: f64, log_se: f64, df: f64) -> Interval {
        let log_half = t_quantile(0.975, df) * log_se;
        Interval { low: centre * (-log_half).exp(), high: centre * log_half.exp(), log_half, log_se, df }
    }
    /// The same interval moved to another centre (a test's index rather than its score).
    pub fn recentred(&self, centre: f64) -> Interval {
        Interval::of(centre, self.log_se, self.df)
    }
    /// An interval from its two ends, as a file keeps it, with its degrees of freedom where the
    /// file says them (infinite where not: the standard error is then the largest the ends
    /// allow). None for ends that are not an interval.
    pub fn from_ends(low: f64, high: f64, df: Option<f64>) -> Option<Interval> {
        let log_half = (high / low).ln() / 2.0;
        if !(low > 0.0 && high >= low && log_half.is_finite()) {
            return None;
        }
        let df = df.filter(|d| *d >= 1.0).unwrap_or(f64::INFINITY);
        Some(Interval { low, high, log_half, log_se: log_half / t_quantile(0.975, df), df })
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

/// The fewest kept passes whose interval is of use: two give one degree of freedom, t = 12.7,
/// and an interval of -98.6% / +7255% that says nothing. A quick run gives a test with fewer
/// another pass before it tightens one that has its interval (`quick::due_again`).
pub const USEFUL_KEPT: usize = 3;

/// The small-sample factor on a trimmed mean's standard error, 1 + [`SMALL_SAMPLE`]/h for h
/// kept passes: the winsorized variance understates the spread of a one-sided trimmed mean of
/// few passes (normal log rates, simulated: its t interval held 92-94% for 4-30 passes). With
/// it the interval holds 94-96% on average from 4 passes to 20 (`trimmed_interval_holds_its_95`).
pub const SMALL_SAMPLE: f64 = 0.4;

/// The small-sample factor for two kept passes of three, where 1 + [`SMALL_SAMPLE`]/h falls
/// short: the trimmed mean's spread over the mean winsorized standard error, simulated on
/// normal log rates.
const TWO_KEPT: f64 = 1.45;

// ---- Student's t -------------------------------------------------------------------------

/// ln Γ(x) for x ≥ 0.5, all that Student's t asks for (Lanczos, g = 7, 9 terms; about 15
/// digits).
fn ln_gamma(x: f64) -> f64 {
    const G: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = G[1..].iter().enumerate().fold(G[0], |s, (i, g)| s + g / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The continued fraction of the regularized incomplete beta function (modified Lentz).
fn beta_fraction(a: f64, b: f64, x: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let (mut c, mut d) = (1.0, 1.0 / guard(1.0 - (a + b) * x / (a + 1.0)));
    let mut h = d;
    for m in 1..=1000 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        h *= d * c;
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The regularized incomplete beta function I_x(a, b).
fn incomplete_beta(a: f64, b: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(a, b, x) / a
    } else {
        1.0 - front * beta_fraction(b, a, 1.0 - x) / b
    }
}

/// P(T > t) for Student's t with `df` degrees of freedom, t ≥ 0.
fn t_upper(t: f64, df: f64) -> f64 {
    0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
}

/// The `p` quantile (0.5 < p < 1) of Student's t with `df` ≥ 1 degrees of freedom, not
/// necessarily whole (Welch's and Satterthwaite's are not), infinite for the normal
/// distribution's. The two levels used, 97.5% (an interval) and 80% (the power of a test),
/// take short cuts where they are exact to 3e-8: a table for whole df up to 30 (97.5%), the
/// Cornish-Fisher expansion past 30; the rest is the root of the upper tail, by bisection (some
/// 15 µs), which compare reading thousands of files would otherwise pay per interval.
pub fn t_quantile(p: f64, df: f64) -> f64 {
    let df = df.max(1.0);
    if p == 0.975 && df <= 30.0 && df.fract() == 0.0 {
        return T975[df as usize - 1];
    }
    let z = match p {
        0.975 => 1.959_963_984_540_054,
        0.8 => 0.841_621_233_572_914_3,
        _ => return bisect_quantile(p, df),
    };
    if df > 30.0 {
        cornish_fisher(z, df)
    } else {
        bisect_quantile(p, df)
    }
}

/// Student t quantiles t(0.975, df) for df = 1..=30, to 12 digits.
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

/// The Cornish-Fisher expansion of Student's t quantile around the normal quantile `z`:
/// z + g1/df + ... + g4/df⁴, within 3e-8 from df = 31 on; `z` itself for an infinite `df`.
fn cornish_fisher(z: f64, df: f64) -> f64 {
    let d = 1.0 / df;
    let (z3, z5, z7, z9) = (z.powi(3), z.powi(5), z.powi(7), z.powi(9));
    let g1 = (z3 + z) / 4.0;
    let g2 = (5.0 * z5 + 16.0 * z3 + 3.0 * z) / 96.0;
    let g3 = (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / 384.0;
    let g4 = (79.0 * z9 + 776.0 * z7 + 1482.0 * z5 - 1920.0 * z3 - 945.0 * z) / 92160.0;
    z + d * (g1 + d * (g2 + d * (g3 + d * g4)))
}

/// t(p, df) as the root of its upper tail, by bisection.
fn bisect_quantile(p: f64, df: f64) -> f64 {
    let tail = 1.0 - p;
    let mut hi = 1.0;
    while t_upper(hi, df) > tail {
        hi *= 2.0;
    }
    let mut lo = 0.0;
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if t_upper(mid, df) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-13 * hi {
            break;
        }
    }
    (lo + hi) / 2.0
}

/// The degrees of freedom of a sum of variances `parts` (each with its own), by
/// Satterthwaite's formula; infinite where every part's is, or where the sum is 0.
pub fn satterthwaite(parts: &[(f64, f64)]) -> f64 {
    let total: f64 = parts.iter().map(|p| p.0).sum();
    let denom: f64 = parts.iter().filter(|p| p.1.is_finite()).map(|p| p.0 * p.0 / p.1).sum();
    if total <= 0.0 || denom <= 0.0 {
        return f64::INFINITY;
    }
    total * total / denom
}

// ---- A test's interval ---------------------------------------------------------------------

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

fn positive(x: f64) -> bool {
    x > 0.0 && x.is_finite()
}

/// The 95% interval of the geometric mean of `xs` taken as a plain sample (log scale, Student
/// t): several runs' scores pooled, each run one value. None when n < 2 or a value is ≤ 0.
pub fn ci95(xs: &[f64]) -> Option<Interval> {
    if xs.len() < 2 || !xs.iter().all(|&x| positive(x)) {
        return None;
    }
    let logs: Vec<f64> = xs.iter().map(|x| x.ln()).collect();
    let (m, s) = mean_sd(&logs);
    Some(Interval::of(m.exp(), s? / (xs.len() as f64).sqrt(), (xs.len() - 1) as f64))
}

/// The 95% interval of a score that keeps the passes `kept` (indexes) of the rates `all` and
/// drops the others, Run's worst third: a one-sided trimmed mean of the logs. The dropped
/// passes are winsorized (set to the lowest kept log), and the kept mean's standard error is
/// s_w·√n / h for n passes and h kept (Tukey and McLaughlin's, one-sided), times the small-sample
/// factor 1 + [`SMALL_SAMPLE`]/h, on h − 1 degrees of freedom. None below two kept passes, or
/// when a kept rate is ≤ 0. Two kept passes give an interval of no use to print (a test's
/// statistics leave it out, [`of_result`]), but their standard error still counts in an index
/// propagated from its tests: Run's standard run keeps two of three passes for six of its
/// twelve index tests.
pub fn trimmed_ci95(all: &[f64], kept: &[usize]) -> Option<Interval> {
    let mut logs = Vec::new();
    for &i in kept {
        logs.push(all.get(i).copied().filter(|&x| positive(x))?.ln());
    }
    if logs.len() < 2 {
        return None;
    }
    let floor = logs.iter().copied().fold(f64::INFINITY, f64::min);
    let mut winsorized = logs.clone();
    winsorized.resize(all.len().max(logs.len()), floor);
    let (n, h) = (winsorized.len() as f64, logs.len() as f64);
    let s_w = mean_sd(&winsorized).1?;
    // Nothing dropped (one or two passes): a plain sample's standard error.
    let factor = if n == h {
        1.0
    } else if h < 3.0 {
        TWO_KEPT
    } else {
        1.0 + SMALL_SAMPLE / h
    };
    let se = s_w * n.sqrt() / h * factor;
    let centre = (logs.iter().sum::<f64>() / h).exp();
    Some(Interval::of(centre, se, h - 1.0))
}

/// Summarises samples (the kept per-pass rates), with the plain interval of [`ci95`]; a test's
/// statistics are [`of_result`]'s. None for no samples.
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
    let mut rates = Vec::new();
    for p in r.kept.iter().filter_map(|&i| r.passes.get(i)) {
        rates.push(pass_rate(p));
    }
    rates
}

/// The interval of the score that `passes` give, kept as Run keeps them ([`trimmed_ci95`]).
pub fn passes_ci95(passes: &[Pass]) -> Option<Interval> {
    let rates: Vec<f64> = passes.iter().map(pass_rate).collect();
    trimmed_ci95(&rates, &crate::score::combine_passes(passes)?.kept)
}

/// The statistics of a test result; None when it produced no score. Its interval is its
/// passes' trimmed mean's ([`trimmed_ci95`]); in a run with rounds its passes span the rounds,
/// so it holds the host's wander between them.
pub fn of_result(r: &TestResult) -> Option<Stats> {
    if !r.ok() {
        return None;
    }
    let mut st = describe(&kept_rates(r))?;
    st.ci95 = test_interval(r).filter(|_| st.n >= USEFUL_KEPT);
    Some(st)
}

/// A scored test's interval as [`of_result`] gives it, but also for two kept passes, whose
/// standard error an index propagates.
fn test_interval(r: &TestResult) -> Option<Interval> {
    let rates: Vec<f64> = r.passes.iter().map(pass_rate).collect();
    trimmed_ci95(&rates, &r.kept)
}

/// The interval of a geometric mean of k values (a category index over its test indexes),
/// each given with its own interval: under independence the variance of the mean of k logs is
/// Σ se_i² / k², on Satterthwaite's degrees of freedom. None when there are no values or one
/// of them has no interval.
pub fn propagate(parts: &[(f64, Option<Interval>)]) -> Option<Interval> {
    if parts.is_empty() || parts.iter().any(|(v, ci)| ci.is_none() || !positive(*v)) {
        return None;
    }
    let k = parts.len() as f64;
    let centre = (parts.iter().map(|(v, _)| v.ln()).sum::<f64>() / k).exp();
    let mut vars: Vec<(f64, f64)> = Vec::new();
    for c in parts.iter().filter_map(|p| p.1) {
        vars.push(((c.log_se / k).powi(2), c.df));
    }
    let var: f64 = vars.iter().map(|v| v.0).sum();
    Some(Interval::of(centre, var.sqrt(), satterthwaite(&vars)))
}

// ---- Rounds --------------------------------------------------------------------------------

/// A run's passes laid out by test and round: each round's speed factor (log scale, relative
/// to each test's mean over its rounds) and how many tests it averages, and the passes' own
/// noise, what is left of each log rate once its test and its round are taken out.
struct RoundTable {
    /// (round, ln factor, tests), in round order.
    rounds: Vec<(usize, f64, usize)>,
    /// The residuals' sum of squares and its degrees of freedom (N − tests − rounds + 1).
    resid_ss: f64,
    resid_df: f64,
}

/// The round table of the scored tests `only` admits, each with two rounded passes or more
/// (a test missing from a round, its pass measured again, is left out of that round's mean).
fn round_table(results: &[TestResult], only: &dyn Fn(&TestResult) -> bool) -> RoundTable {
    // (round, log rate less its test's mean)
    let mut cells: Vec<(usize, f64)> = Vec::new();
    let mut tests = 0;
    for r in results.iter().filter(|r| r.ok() && only(r)) {
        let from = cells.len();
        cells
            .extend(r.passes.iter().filter_map(|p| Some((p.round?, pass_rate(p)))).filter(|c| positive(c.1)));
        let mine = &mut cells[from..];
        mine.iter_mut().for_each(|c| c.1 = c.1.ln());
        let centre = mine.iter().map(|c| c.1).sum::<f64>() / mine.len() as f64;
        mine.iter_mut().for_each(|c| c.1 -= centre);
        if mine.len() < 2 {
            cells.truncate(from);
        } else {
            tests += 1;
        }
    }
    // Grouped by round through a sort, so that a log of many rounds takes n log n.
    let mut by_round = cells.clone();
    by_round.sort_unstable_by_key(|c| c.0);
    let mut rounds: Vec<(usize, f64, usize)> = Vec::new();
    for &(k, y) in &by_round {
        match rounds.last_mut() {
            Some(e) if e.0 == k => (e.1, e.2) = (e.1 + y, e.2 + 1),
            _ => rounds.push((k, y, 1)),
        }
    }
    rounds.iter_mut().for_each(|e| e.1 /= e.2 as f64);
    let factor = |k: usize| rounds.binary_search_by(|e| e.0.cmp(&k)).map_or(0.0, |i| rounds[i].1);
    let resid_ss = cells.iter().map(|&(k, y)| (y - factor(k)).powi(2)).sum();
    let resid_df = (cells.len() + 1) as f64 - tests as f64 - rounds.len() as f64;
    RoundTable { rounds, resid_ss, resid_df }
}

/// How far each round of a run with rounds found the host's speed, in round order: per round,
/// the geometric mean over the scored tests `only` admits of each pass's rate relative to its
/// test's geometric mean over all its rounds. Empty for passes without rounds.
pub fn round_factors(results: &[TestResult], only: &dyn Fn(&TestResult) -> bool) -> Vec<f64> {
    round_table(results, only).rounds.iter().map(|e| e.1.exp()).collect()
}

/// The host's own wander between rounds: the standard deviation of its speed from round to
/// round on the log scale, net of the passes' noise, with the degrees of freedom of the
/// rounds' spread it comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wander {
    pub sd: f64,
    pub df: f64,
}

/// The host's [`Wander`] in a run with rounds: the variance of the rounds' factors less what
/// the passes' own noise puts in them (each factor averages k_r tests' residuals, so σ_e²/k_r;
/// σ_e² from the residuals of tests and rounds taken out), at least 0: a random-effects
/// analysis of variance. Where there are too few cells to see the noise, the whole spread is
/// taken as wander. None for fewer than two rounds. The reports give it beside the rounds'
/// spread, which is mostly the noise of short passes on a steady host and mostly the host on
/// a wandering one; no interval adds it, since the rounds' spread already holds it.
pub fn host_wander(results: &[TestResult], only: &dyn Fn(&TestResult) -> bool) -> Option<Wander> {
    let t = round_table(results, only);
    let logs: Vec<f64> = t.rounds.iter().map(|e| e.1).collect();
    let spread = mean_sd(&logs).1?;
    let noise = if t.resid_df >= 1.0 {
        let per_round: f64 = t.rounds.iter().map(|e| 1.0 / e.2 as f64).sum::<f64>() / t.rounds.len() as f64;
        t.resid_ss / t.resid_df * per_round
    } else {
        0.0
    };
    let var = (spread * spread - noise).max(0.0);
    Some(Wander { sd: var.sqrt(), df: (logs.len() - 1) as f64 })
}

/// The interval of an index of rounds whose speeds were `factors` ([`round_factors`]), around
/// `centre`: the standard error of the mean of the rounds' log indexes (their spread over √R),
/// on R − 1 degrees of freedom. None for fewer than two rounds.
pub fn rounds_interval(centre: f64, factors: &[f64]) -> Option<Interval> {
    Some(ci95(factors)?.recentred(centre))
}

/// How far the rounds' indexes spread: the fastest round over the slowest, less 1 (0.13 for
/// 13%): the host's wander and the passes' noise together. None for fewer than two rounds.
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
    let mut parts: Vec<(f64, Option<Interval>)> = Vec::new();
    for row in &b.rows {
        if let Some(ix) = row.index {
            let ci = results.iter().find(|r| r.message == row.message && r.ok()).and_then(test_interval);
            parts.push((ix, ci));
        }
    }
    // Centred on the block's own score (the same geometric mean, as Run rounds nothing here).
    propagate(&parts).map(|i| i.recentred(b.score))
}

// ---- Two runs ------------------------------------------------------------------------------

/// One figure (a test's score, an index) of two runs, tested against each other: Welch's test
/// on the difference of their logs, the two standard errors combined on Satterthwaite's
/// degrees of freedom.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    /// The second figure over the first.
    pub ratio: f64,
    /// The ratio's 95% interval.
    pub low: f64,
    pub high: f64,
    /// The interval excludes 1: a difference is shown.
    pub marked: bool,
    /// The smallest difference (0.05 for 5%) that these two runs' standard errors would show
    /// 80% of the time: (t(0.975) + t(0.80))·se of the log ratio.
    pub detectable: f64,
}

/// The difference between figure `b` and figure `a`, each with its interval. None when there
/// is nothing to test: a figure not positive, two intervals of no width (identical passes, or
/// a file that says so: any difference would be marked), or figures too far apart for a double.
pub fn difference(a: f64, ia: &Interval, b: f64, ib: &Interval) -> Option<Difference> {
    let se = ia.log_se.hypot(ib.log_se);
    if !positive(a) || !positive(b) || !positive(se) {
        return None;
    }
    let df = satterthwaite(&[(ia.log_se.powi(2), ia.df), (ib.log_se.powi(2), ib.df)]);
    let (d, t) = ((b / a).ln(), t_quantile(0.975, df));
    let d = Difference {
        ratio: b / a,
        low: (d - t * se).exp(),
        high: (d + t * se).exp(),
        marked: d.abs() > t * se,
        detectable: ((t + t_quantile(0.8, df)) * se).exp_m1(),
    };
    [d.ratio, d.low, d.high, d.detectable].iter().all(|x| x.is_finite()).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Category, IndexRow};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[track_caller]
    fn assert_close(a: f64, b: f64) {
        assert!(close(a, b, 1e-9), "{a} != {b}");
    }

    /// Normal deviates (Box-Muller) from a seeded generator.
    struct Normal(oorandom::Rand64);
    impl Normal {
        fn new(seed: u128) -> Self {
            Normal(oorandom::Rand64::new(seed))
        }
        fn next(&mut self) -> f64 {
            let u = 1.0 - self.0.rand_float();
            let v = self.0.rand_float();
            (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        }
    }

    fn pass(rate: f64, round: Option<usize>) -> Pass {
        Pass { count: rate, time: 1.0, timebase: 1.0, round, ..Pass::default() }
    }

    /// A test result of these passes, kept as Run keeps them.
    fn scored(message: &str, passes: Vec<Pass>) -> TestResult {
        let mut r = TestResult { message: message.into(), passes, ..TestResult::default() };
        assert!(crate::score::score_result(&mut r));
        r
    }

    #[test]
    fn t_quantiles_match_published_values() {
        // Exact values to 12 digits, whole and fractional degrees of freedom, 97.5% and 80%.
        for (p, df, want) in [
            (0.975, 1.0, 12.7062047362),
            (0.975, 2.0, 4.30265272975),
            (0.975, 6.0, 2.44691185114),
            (0.975, 30.0, 2.0422724563),
            (0.975, 100.0, 1.98397151852),
            (0.975, 1000.0, 1.96233908082),
            (0.975, 5000.0, 1.96043865),
            (0.975, f64::INFINITY, 1.95996398454),
            (0.975, 2.5, 3.57465484200),
            (0.8, 1.0, 1.37638192047),
            (0.8, 5.0, 0.919543780239),
            (0.8, f64::INFINITY, 0.841621233573),
        ] {
            let got = t_quantile(p, df);
            assert!(close(got, want, 1e-7), "t({p}, {df}) = {got}, want {want}");
        }
        // The short cuts agree with the bisection: the table, and the expansion past 30.
        for df in 1..=30 {
            assert!(close(T975[df - 1], bisect_quantile(0.975, df as f64), 1e-10), "{df}");
        }
        for df in [31.0, 33.3, 60.0, 500.0] {
            for p in [0.975, 0.8] {
                assert!(close(t_quantile(p, df), bisect_quantile(p, df), 3e-8), "t({p}, {df})");
            }
        }
    }

    #[test]
    fn describe_odd_sample() {
        // Hand computation for 100, 110, 121 (a geometric sequence, ratio 1.1):
        //   geomean = 110; ln values = ln 110 + {−ln 1.1, 0, +ln 1.1};
        //   s(ln) = ln 1.1 = 0.0953101798043249; half = t(2)·s/√3 = 0.2367636119656...;
        //   mean = 110.333..., s = √((10.333² + 0.333² + 10.667²)/2) = 10.5039675044;
        //   cv = s / mean = 0.0952021224
        let s = describe(&[110.0, 121.0, 100.0]).unwrap();
        assert_eq!((s.n, s.min, s.median, s.max), (3, 100.0, 110.0, 121.0));
        assert_close(s.geomean, 110.0);
        let cv = s.cv.unwrap();
        assert!(close(cv, 10.503967504392486 / 110.33333333333333, 1e-12), "{cv}");
        let ci = s.ci95.unwrap();
        assert!(close(ci.log_half, 0.2367636119657, 1e-9), "{}", ci.log_half);
        assert_eq!(ci.df, 2.0);
        assert_close(ci.log_se, 0.0953101798043249 / 3f64.sqrt());
        assert!(close(ci.low, 86.80955999795, 1e-9) && close(ci.high, 139.38556997969, 1e-9), "{ci:?}");
    }

    #[test]
    fn describe_even_sample_and_single() {
        // 2 and 8: geomean 4, median 5, cv 4.2426406871/5; the plain interval t(1)·ln 4 / 2.
        let s = describe(&[8.0, 2.0]).unwrap();
        assert_eq!((s.n, s.min, s.median, s.max), (2, 2.0, 5.0, 8.0));
        assert_close(s.geomean, 4.0);
        assert_close(s.cv.unwrap(), 0.848528137423857);
        assert!(close(s.ci95.unwrap().log_half, 12.7062047362 * 4f64.ln() / 2.0, 1e-9));
        let one = describe(&[42.0]).unwrap();
        assert_eq!((one.n, one.median, one.cv, one.ci95), (1, 42.0, None, None));
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
    fn a_trimmed_interval_winsorizes_the_dropped_passes() {
        // Passes 80, 100, 110, 121 (by count): 80 dropped, 100 110 121 kept (logs ln 110 +
        // {−ln 1.1, 0, +ln 1.1}); winsorized: 100, 100, 110, 121.
        let all = [110.0, 80.0, 121.0, 100.0];
        let ci = trimmed_ci95(&all, &[0, 2, 3]).unwrap();
        let w: Vec<f64> = [100.0f64, 100.0, 110.0, 121.0].iter().map(|x| x.ln()).collect();
        let s_w = mean_sd(&w).1.unwrap();
        let se = s_w * 2.0 / 3.0 * (1.0 + SMALL_SAMPLE / 3.0);
        assert_close(ci.log_se, se);
        assert_eq!(ci.df, 2.0);
        assert!(close(ci.log_half, 4.30265272975 * se, 1e-9));
        assert_close(ci.low * ci.high, 110.0 * 110.0);
        // Two kept passes (of three) give no interval of use; identical passes a zero width.
        let two = trimmed_ci95(&[1.0, 2.0, 3.0], &[1, 2]).unwrap();
        assert_eq!(two.df, 1.0);
        assert!(trimmed_ci95(&[1.0, 2.0], &[1]).is_none());
        assert_eq!(trimmed_ci95(&[5.0; 6], &[0, 1, 2, 3]).unwrap().log_half, 0.0);
        assert!(trimmed_ci95(&[5.0, 0.0, 5.0, 5.0], &[0, 1, 2]).is_none());
    }

    /// How often the interval of `n` simulated passes (normal log rates of spread 1, with a
    /// tenth of them slowed by `slow` when given) holds the expected trimmed mean, over
    /// `draws` runs; and the same for the kept passes taken as a plain sample.
    fn coverage(n: usize, slow: f64, draws: usize, rng: &mut Normal) -> (f64, f64) {
        let mut runs = Vec::new();
        for _ in 0..draws {
            let logs: Vec<f64> = (0..n)
                .map(|_| {
                    let hit = rng.0.rand_float() < 0.1;
                    rng.next() - if hit { slow } else { 0.0 }
                })
                .collect();
            let passes: Vec<Pass> = logs.iter().map(|y| pass(y.exp(), None)).collect();
            let r = scored("t", passes);
            let plain = ci95(&kept_rates(&r)).unwrap();
            runs.push((r.score.ln(), passes_ci95(&r.passes).unwrap(), plain));
        }
        let target = runs.iter().map(|r| r.0).sum::<f64>() / draws as f64;
        let holds = |ci: &Interval| ci.low.ln() <= target && target <= ci.high.ln();
        let trimmed = runs.iter().filter(|r| holds(&r.1)).count() as f64 / draws as f64;
        let plain = runs.iter().filter(|r| holds(&r.2)).count() as f64 / draws as f64;
        (trimmed, plain)
    }

    #[test]
    fn trimmed_interval_holds_its_95() {
        let mut rng = Normal::new(50);
        let (mut all, mut plain_all) = (0.0, 0.0);
        let ns = [4, 5, 6, 7, 8, 10, 12, 16, 20];
        for n in ns {
            let (trimmed, plain) = coverage(n, 0.0, 6000, &mut rng);
            assert!((0.935..=0.965).contains(&trimmed), "{n} passes: {trimmed}");
            let (skewed, _) = coverage(n, 4.0, 3000, &mut rng);
            assert!((0.935..=0.97).contains(&skewed), "{n} passes, a tenth slowed: {skewed}");
            (all, plain_all) = (all + trimmed, plain_all + plain);
        }
        let (all, plain_all) = (all / ns.len() as f64, plain_all / ns.len() as f64);
        assert!((0.94..=0.96).contains(&all), "{all}");
        // The kept passes taken as a plain sample hold less: what this interval mends.
        assert!(plain_all < 0.935, "{plain_all}");
    }

    #[test]
    fn propagated_index_interval() {
        // Indexes 100 and 400, standard errors 0.03 and 0.04 on 4 and 9 degrees of freedom:
        // centre 200, se = √(0.03² + 0.04²)/2 = 0.025; df = 0.025⁴·16 / (0.03⁴/4 + 0.04⁴/9).
        let a = Interval::of(100.0, 0.03, 4.0);
        let b = Interval::of(400.0, 0.04, 9.0);
        let i = propagate(&[(100.0, Some(a)), (400.0, Some(b))]).unwrap();
        assert_close(i.log_se, 0.025);
        let df = (0.0009f64 + 0.0016).powi(2) / (0.0009f64.powi(2) / 4.0 + 0.0016f64.powi(2) / 9.0);
        assert_close(i.df, df);
        assert_close(i.low * i.high, 200.0 * 200.0);
        assert!(propagate(&[(100.0, Some(a)), (400.0, None)]).is_none());
        assert!(propagate(&[]).is_none());
    }

    fn block(rows: &[(&str, Option<f64>)]) -> IndexBlock {
        let row = |(m, index): &(&str, Option<f64>)| IndexRow {
            message: m.to_string(),
            baseline: None,
            score: 0.0,
            index: *index,
        };
        IndexBlock {
            category: Category::System,
            rows: rows.iter().map(row).collect(),
            score: 20.0,
            partial: false,
        }
    }

    #[test]
    fn index_interval_of_a_block() {
        let flat = |m: &str, rates: &[f64]| scored(m, rates.iter().map(|&x| pass(x, None)).collect());
        // a: four passes, three kept; b: four identical; c: three passes, two kept (none of use).
        let results = vec![
            flat("a", &[100.0, 110.0, 90.0, 121.0]),
            flat("b", &[400.0; 4]),
            flat("c", &[5.0, 6.0, 7.0]),
        ];
        let i = index_interval(&block(&[("a", Some(10.0)), ("b", Some(40.0))]), &results).unwrap();
        let a = of_result(&results[0]).unwrap().ci95.unwrap();
        assert_close(i.log_se, a.log_se / 2.0);
        assert_close(i.df, a.df);
        assert_close(i.low * i.high, 400.0);
        // A test with no interval of use shows none, but its standard error counts in the
        // index (on its one degree of freedom); a test with one pass leaves the index without.
        assert!(of_result(&results[2]).unwrap().ci95.is_none());
        let c = passes_ci95(&results[2].passes).unwrap();
        let i = index_interval(&block(&[("a", Some(10.0)), ("c", Some(40.0))]), &results).unwrap();
        assert_close(i.log_se, a.log_se.hypot(c.log_se) / 2.0);
        let one = flat("d", &[5.0]);
        let results = vec![results[0].clone(), one];
        assert!(index_interval(&block(&[("a", Some(10.0)), ("d", Some(40.0))]), &results).is_none());
    }

    /// A run of `tests` tests over `rounds` rounds: each pass's log rate is its test's level,
    /// the host's speed in that round (`host`, cycled) and its own noise of spread `noise`.
    fn rounds_run(
        tests: usize,
        rounds: usize,
        host: &[f64],
        noise: f64,
        rng: &mut Normal,
    ) -> Vec<TestResult> {
        (0..tests)
            .map(|t| {
                let passes = (0..rounds)
                    .map(|k| {
                        pass(
                            100.0 * (t + 1) as f64 * host[k % host.len()] * (noise * rng.next()).exp(),
                            Some(k + 1),
                        )
                    })
                    .collect();
                scored(&format!("t{t}"), passes)
            })
            .collect()
    }

    fn system_block(results: &[TestResult]) -> IndexBlock {
        let rows: Vec<IndexRow> = results
            .iter()
            .map(|r| IndexRow {
                message: r.message.clone(),
                baseline: None,
                score: r.score,
                index: Some(r.score),
            })
            .collect();
        let score = geomean(&results.iter().map(|r| r.score).collect::<Vec<_>>());
        IndexBlock { category: Category::System, rows, score, partial: false }
    }

    #[test]
    fn rounds_of_noisy_passes_on_a_steady_host_give_a_narrow_index_interval() {
        // Twelve tests, five rounds, passes 4% apart, a host that holds its speed: the rounds'
        // indexes spread with the passes' noise over twelve tests (about 1.2%), and the run's
        // interval stays near that, not the ±13% that counting the noise as wander gave.
        let mut rng = Normal::new(51);
        let mut runs = Vec::new();
        for _ in 0..400 {
            let results = rounds_run(12, 5, &[1.0], 0.04, &mut rng);
            let b = system_block(&results);
            runs.push((b.score.ln(), index_interval(&b, &results).unwrap()));
        }
        // What the index is on this host at five passes (the worst dropped lifts it a little).
        let truth = runs.iter().map(|r| r.0).sum::<f64>() / runs.len() as f64;
        let holds = runs.iter().filter(|(_, ci)| ci.low.ln() <= truth && truth <= ci.high.ln()).count();
        let mut halves: Vec<f64> = runs.iter().map(|(c, ci)| ci.relative_half_width(c.exp())).collect();
        halves.sort_by(f64::total_cmp);
        let median = halves[halves.len() / 2];
        assert!(median < 0.025, "median half-width {median}");
        assert!(holds >= 376, "{holds} of 400 hold the host's index");
        // The host's own wander, net of the noise, is small.
        let results = rounds_run(12, 5, &[1.0], 0.04, &mut rng);
        assert!(host_wander(&results, &|_| true).unwrap().sd < 0.015);
    }

    #[test]
    fn rounds_on_a_host_that_moves_give_an_interval_that_covers_it() {
        // The host runs 10% faster in every other round; passes 1% apart. The rounds' spread
        // is the host's (its wander, net of the passes' noise, is about half of ln 1.1), and the
        // interval holds the run's level, the host's mean speed, as wide as that spread calls
        // for over six rounds.
        let mut rng = Normal::new(52);
        let results = rounds_run(12, 6, &[1.0, 1.1], 0.01, &mut rng);
        let f = round_factors(&results, &|_| true);
        assert!(close(moved(&f).unwrap(), 0.1, 0.1), "{f:?}");
        let w = host_wander(&results, &|_| true).unwrap();
        let sd = 1.1f64.ln() / 2.0 * (6.0f64 / 5.0).sqrt();
        assert!(close(w.sd, sd, 0.1), "{w:?}");
        let b = system_block(&results);
        let ci = index_interval(&b, &results).unwrap();
        let mean: f64 = (1..=12).map(|t| (100.0 * t as f64).ln()).sum::<f64>() / 12.0 + 1.1f64.ln() / 2.0;
        assert!(ci.low.ln() < mean && mean < ci.high.ln(), "{ci:?} around {}", b.score);
        assert!(close(ci.log_se, sd / 6f64.sqrt(), 0.1) && ci.df == 5.0, "{ci:?}");
        // A test's interval is its passes' (which span the rounds), with rounds or without.
        let own = passes_ci95(&results[0].passes).unwrap();
        assert_close(of_result(&results[0]).unwrap().ci95.unwrap().log_se, own.log_se);
        let flat: Vec<TestResult> = results
            .iter()
            .map(|r| TestResult {
                passes: r.passes.iter().map(|p| Pass { round: None, ..p.clone() }).collect(),
                ..r.clone()
            })
            .collect();
        assert!(round_factors(&flat, &|_| true).is_empty() && host_wander(&flat, &|_| true).is_none());
        assert_close(of_result(&flat[0]).unwrap().ci95.unwrap().log_se, own.log_se);
    }

    #[test]
    fn an_index_of_rounds_holds_its_95_on_a_host_that_wanders_from_round_to_round() {
        // Twelve tests, five rounds, passes 3% apart, the host's speed in each round drawn
        // afresh (±5%): over 400 runs, the interval holds the index the host gives on average.
        let mut rng = Normal::new(53);
        let mut runs = Vec::new();
        for _ in 0..400 {
            let host: Vec<f64> = (0..5).map(|_| (0.05 * rng.next()).exp()).collect();
            let results = rounds_run(12, 5, &host, 0.03, &mut rng);
            let b = system_block(&results);
            runs.push((b.score.ln(), index_interval(&b, &results).unwrap()));
        }
        let truth = runs.iter().map(|r| r.0).sum::<f64>() / runs.len() as f64;
        let holds = runs.iter().filter(|(_, ci)| ci.low.ln() <= truth && truth <= ci.high.ln()).count();
        assert!((376..=392).contains(&holds), "{holds} of 400");
    }

    #[test]
    fn many_rounds_are_laid_out_in_n_log_n() {
        // A log may name a round per pass, numbered as it likes: two tests over 100,000 rounds
        // (ten billion steps, looked up one by one), numbered backwards and far apart.
        let passes = |scale: f64| -> Vec<Pass> {
            (0..100_000usize)
                .map(|k| pass(scale * (1.0 + (k % 7) as f64 / 100.0), Some(usize::MAX - k)))
                .collect()
        };
        let results = vec![scored("a", passes(100.0)), scored("b", passes(400.0))];
        assert_eq!(round_factors(&results, &|_| true).len(), 100_000);
        assert!(host_wander(&results, &|_| true).is_some());
    }

    #[test]
    fn a_difference_is_marked_when_its_interval_excludes_one() {
        // 100 and 110, each ±2% (se 0.02/t(∞)... on 8 degrees of freedom): se of the log ratio
        // √2·0.01, df = 16; ln 1.1 = 0.0953 against t(16)·0.01414 = 0.030: marked.
        let a = Interval::of(100.0, 0.01, 8.0);
        let b = Interval::of(110.0, 0.01, 8.0);
        let d = difference(100.0, &a, 110.0, &b).unwrap();
        assert!(d.marked);
        assert_close(d.ratio, 1.1);
        let half = t_quantile(0.975, 16.0) * 0.02f64.sqrt() / 10.0;
        assert_close(d.low, (1.1f64.ln() - half).exp());
        assert_close(d.high, (1.1f64.ln() + half).exp());
        let detect = ((t_quantile(0.975, 16.0) + t_quantile(0.8, 16.0)) * 0.02f64.sqrt() / 10.0).exp_m1();
        assert_close(d.detectable, detect);
        // Within the noise: 100 against 102 is not marked, and the detectable difference says
        // how large one must be.
        let c = Interval::of(102.0, 0.01, 8.0);
        let e = difference(100.0, &a, 102.0, &c).unwrap();
        assert!(!e.marked && e.low < 1.0 && e.high > 1.0 && e.detectable > 0.02);
        assert!(difference(0.0, &a, 1.0, &b).is_none());
        // Nothing to test between two intervals of no width, nor between figures a double
        // cannot hold the ratio or the interval of.
        let flat = Interval::from_ends(100.0, 100.0, Some(4.0)).unwrap();
        assert!(difference(100.0, &flat, 100.0001, &flat).is_none());
        assert!(Interval::from_ends(1e-300, 1e14, None).is_none(), "ends whose ratio overflows");
        let (lo, hi) = (Interval::of(1e-300, 0.01, 4.0), Interval::of(1e300, 0.01, 4.0));
        assert!(difference(1e-300, &lo, 1e300, &hi).is_none(), "a ratio past a double");
        // Overlapping intervals can still differ: the test is on the difference.
        let (x, y) = (Interval::of(100.0, 0.02, 30.0), Interval::of(106.0, 0.02, 30.0));
        assert!(x.overlaps(&y) && difference(100.0, &x, 106.0, &y).unwrap().marked);
    }

    #[test]
    fn a_file_interval_keeps_its_ends() {
        let i = Interval::from_ends(90.0, 110.0, Some(4.0)).unwrap();
        assert_eq!((i.low, i.high, i.df), (90.0, 110.0, 4.0));
        assert_close(i.log_half, (110.0f64 / 90.0).ln() / 2.0);
        assert_close(i.log_se, i.log_half / t_quantile(0.975, 4.0));
        assert_eq!(Interval::from_ends(90.0, 110.0, None).unwrap().df, f64::INFINITY);
        assert!(
            Interval::from_ends(0.0, 1.0, None).is_none() && Interval::from_ends(2.0, 1.0, None).is_none()
        );
        let r = i.recentred(50.0);
        assert!(close(r.low * r.high, 2500.0, 1e-12) && r.df == 4.0);
    }

    #[test]
    fn interval_helpers() {
        let a = Interval::from_ends(1.0, 2.0, None).unwrap();
        let b = Interval::from_ends(2.0, 3.0, None).unwrap();
        let c = Interval::from_ends(2.5, 3.0, None).unwrap();
        assert!(a.overlaps(&b) && b.overlaps(&a));
        assert!(!a.overlaps(&c) && !c.overlaps(&a));
        let i = Interval::of(100.0, 0.01f64.ln_1p() / t_quantile(0.975, 5.0), 5.0);
        assert!(close(i.relative_half_width(100.0), 0.01, 1e-9));
    }

    #[test]
    fn rates_of_a_result_follow_run() {
        let p = |count: f64, time: f64, timebase: f64| Pass { count, time, timebase, ..Pass::default() };
        // lpm: 120 loops in 60 s at timebase 60 -> 120 lpm; a rate (timebase 0) is taken as is.
        assert_eq!(pass_rate(&p(120.0, 60.0, 60.0)), 120.0);
        assert_eq!(pass_rate(&p(500.0, 30.0, 1.0)), 500.0 / 30.0);
        assert_eq!(pass_rate(&p(9801.4, 10.5, 0.0)), 9801.4);
        let r = TestResult {
            passes: vec![p(10.0, 1.0, 1.0), p(40.0, 1.0, 1.0), p(20.0, 2.0, 1.0)],
            kept: vec![1, 2],
            ..TestResult::default()
        };
        assert_eq!(kept_rates(&r), vec![40.0, 10.0]);
        let s = of_result(&r).unwrap();
        assert_close(s.geomean, 20.0);
        // Two kept passes: a score, no interval.
        assert!(s.ci95.is_none());
        let failed = TestResult { error: Some("boom".into()), ..r };
        assert!(of_result(&failed).is_none());
    }
}
