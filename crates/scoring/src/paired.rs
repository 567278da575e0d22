//! Two arms measured side by side (`unixbench ab`): in each round every test ran one pass of
//! arm A and one of arm B back to back, so the host's wander within the round hits both. Each
//! round then gives one log ratio of B over A per test; their mean and Student's t over the
//! rounds give the ratio and its 95% interval, with nothing of the host's slower drift in them
//! (it moves A and B alike). An index's ratio is taken the same way from each round's mean log
//! ratio over the index's tests, which is the log of the round's index of B over A's.

use crate::model::{CopyRun, TestResult};

use crate::stats::{pass_rate, t_quantile};

/// The fewest rounds whose ratios a verdict stands on: with three, t on two degrees of freedom
/// (4.3) makes an interval of little use, as a test's with three passes.
pub const MIN_ROUNDS: usize = 4;

/// B over A on one figure, from the rounds' paired log ratios.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Paired {
    /// exp of the mean log ratio: the geometric mean of the rounds' ratios.
    pub ratio: f64,
    /// The ratio's 95% interval.
    pub low: f64,
    pub high: f64,
    /// The interval excludes 1: a difference is shown.
    pub marked: bool,
    /// The smallest difference (0.05 for 5%) that rounds as spread as these would show 80% of
    /// the time: (t(0.975) + t(0.80))·s/√n on the log scale.
    pub detectable: f64,
    /// The interval's half-width on the log scale (0.01 is about ±1%).
    pub log_half: f64,
    /// Rounds paired.
    pub rounds: usize,
}

/// The ratio and its interval from the rounds' log ratios (B over A). None below two rounds or
/// for a ratio that is not finite.
pub fn of_log_ratios(d: &[f64]) -> Option<Paired> {
    let n = d.len();
    if n < 2 || d.iter().any(|x| !x.is_finite()) {
        return None;
    }
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let se = (var / n as f64).sqrt();
    let df = (n - 1) as f64;
    let t = t_quantile(0.975, df);
    let p = Paired {
        ratio: mean.exp(),
        low: (mean - t * se).exp(),
        high: (mean + t * se).exp(),
        marked: mean.abs() > t * se,
        detectable: ((t + t_quantile(0.8, df)) * se).exp_m1(),
        log_half: t * se,
        rounds: n,
    };
    [p.ratio, p.low, p.high, p.detectable].iter().all(|x| x.is_finite()).then_some(p)
}

/// Each round's log ratio of `b`'s pass over `a`'s, by round number, for the rounds where
/// both kept a pass (a pass set aside as disturbed is in neither's `passes`).
pub fn round_ratios(a: &TestResult, b: &TestResult) -> Vec<(usize, f64)> {
    round_logs(a, b).into_iter().map(|(k, d, _)| (k, d)).collect()
}

/// [`round_ratios`], each with A's log rate in the round (of its last pass there).
fn round_logs(a: &TestResult, b: &TestResult) -> Vec<(usize, f64, f64)> {
    let by_round = |r: &TestResult| -> Vec<(usize, f64)> {
        let mut v = Vec::new();
        for p in &r.passes {
            if let Some(k) = p.round {
                v.push((k, pass_rate(p)));
            }
        }
        v
    };
    let last = |v: &[(usize, f64)], round: usize| Some(v.iter().rev().find(|(k, _)| *k == round)?.1);
    let (rates_a, bs) = (by_round(a), by_round(b));
    let mut v: Vec<(usize, f64, f64)> = Vec::new();
    // Round by round, in order; a round measured twice (the pair taken again) keeps its last.
    let mut next = rates_a.iter().map(|x| x.0).min();
    while let Some(round) = next {
        let ra = rates_a.iter().rev().find(|&&(k, ra)| k == round && ra > 0.0);
        if let (Some(&(_, ra)), Some(rb)) = (ra, last(&bs, round).filter(|&rb| rb > 0.0)) {
            v.push((round, (rb / ra).ln(), last(&rates_a, round).unwrap_or(ra).ln()));
        }
        next = rates_a.iter().map(|x| x.0).filter(|&k| k > round).min();
    }
    v
}

/// One test's (or index's) row: B over A at one copy count.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The test's name (`pipe`), or the index block's category key (`system`) for an index.
    pub name: String,
    /// The report's row name, or the index's (`System Benchmarks Index Score`, with ` (Partial
    /// Only)` when it covers fewer tests than its category has, or than either arm ran).
    pub message: String,
    pub is_index: bool,
    /// Each arm's figure over the paired rounds (the geometric mean of its passes in them; an
    /// index's from its tests' so), so that B over A is their ratio; None with no pair.
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub paired: Option<Paired>,
    /// Why an arm has no figure: `failed: ...`, `skipped: ...` (A's, B's), or for an index,
    /// which of its tests no round paired.
    pub a_why: Option<String>,
    pub b_why: Option<String>,
}

/// A test's rounds: each round's log ratio and the two arms' log rates in it.
struct Rounds<'r> {
    message: &'r str,
    name: &'r str,
    /// (round, log ratio, A's log rate).
    logs: Vec<(usize, f64, f64)>,
}

/// The rows of one copy count: every test both arms ran, then each index block of A's, over
/// its tests that were paired, its rounds those where every one of them was.
pub fn rows(a: &CopyRun, b: &CopyRun) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut paired_tests: Vec<Rounds> = Vec::new();
    for ra in &a.results {
        let Some(rb) = b.results.iter().find(|r| r.name == ra.name) else { continue };
        let logs = round_logs(ra, rb);
        let d: Vec<f64> = logs.iter().map(|x| x.1).collect();
        let (la, lb) = means(&logs);
        rows.push(Row {
            name: ra.name.clone(),
            message: ra.message.clone(),
            is_index: false,
            a: la.map(f64::exp),
            b: lb.map(f64::exp),
            paired: of_log_ratios(&d),
            a_why: unscored(ra),
            b_why: unscored(rb),
        });
        if !logs.is_empty() {
            paired_tests.push(Rounds { message: &ra.message, name: &ra.name, logs });
        }
    }
    for block in &a.index {
        rows.extend(index_row(block, b, &paired_tests));
    }
    rows
}

/// The mean log rate of A and of B over `logs`' rounds.
fn means(logs: &[(usize, f64, f64)]) -> (Option<f64>, Option<f64>) {
    if logs.is_empty() {
        return (None, None);
    }
    let n = logs.len() as f64;
    let la = logs.iter().map(|x| x.2).sum::<f64>() / n;
    (Some(la), Some(la + logs.iter().map(|x| x.1).sum::<f64>() / n))
}

/// Why a test of an arm has no score, if it has none.
fn unscored(r: &TestResult) -> Option<String> {
    match (&r.error, &r.skipped) {
        (Some(e), _) => Some(format!("failed: {e}")),
        (None, Some(why)) => Some(format!("skipped: {why}")),
        _ => None,
    }
}

/// The row of index `block` of A's: over those of its tests with a baseline that were paired
/// (B's block of that category must exist), each arm's index from its tests' paired figures.
fn index_row(block: &crate::model::IndexBlock, b: &CopyRun, paired: &[Rounds]) -> Option<Row> {
    let other = b.index.iter().find(|x| x.category == block.category)?;
    let mut indexed: Vec<&str> = Vec::new();
    for r in block.rows.iter().filter(|r| r.index.is_some()) {
        indexed.push(&r.message);
    }
    let mut tests: Vec<&Rounds> = Vec::new();
    for t in paired.iter().filter(|t| indexed.contains(&t.message)) {
        tests.push(t);
    }
    let mut missing: Vec<&str> = Vec::new();
    for m in indexed.iter().filter(|m| !tests.iter().any(|t| t.message == **m)) {
        missing.push(m);
    }
    let partial = block.partial || other.partial || !missing.is_empty();
    // An index is 10 times the geometric mean of its tests' scores over their baselines.
    // Sums start at -0.0, as `Sum` does, so every figure is its bits as before.
    let figure = |arm: usize| -> Option<f64> {
        let mut sum = -0.0;
        for t in &tests {
            let (la, lb) = means(&t.logs);
            sum += [la?, lb?][arm] - crate::baselines::lookup(t.name)?.score.ln();
        }
        (!tests.is_empty()).then(|| 10.0 * (sum / tests.len() as f64).exp())
    };
    let unpaired = (!missing.is_empty()).then(|| format!("not paired in any round: {}", missing.join(", ")));
    Some(Row {
        name: block.category.key().to_string(),
        message: format!(
            "{} Index Score{}",
            block.category.display(),
            if partial { " (Partial Only)" } else { "" }
        ),
        is_index: true,
        a: figure(0),
        b: figure(1),
        paired: of_log_ratios(&index_round_ratios(&tests)),
        a_why: unpaired.clone(),
        b_why: unpaired,
    })
}

/// Each round's mean log ratio over `tests`, for the rounds in which every one was paired.
fn index_round_ratios(tests: &[&Rounds]) -> Vec<f64> {
    let mut v = Vec::new();
    let Some(first) = tests.first() else { return v };
    'round: for &(round, ..) in &first.logs {
        let mut sum = -0.0;
        for t in tests {
            let Some(x) = t.logs.iter().find(|x| x.0 == round) else { continue 'round };
            sum += x.1;
        }
        v.push(sum / tests.len() as f64);
    }
    v
}

/// Whether every row's interval is within ±`precision` (0.01 for 1%) after enough rounds: the
/// rounds may stop. A row with no interval yet keeps them going.
pub fn precise(rows: &[Row], precision: f64) -> bool {
    let within = (1.0 + precision).ln();
    rows.iter()
        .filter(|r| r.a.is_some() && r.b.is_some())
        .all(|r| r.paired.is_some_and(|p| p.rounds >= MIN_ROUNDS && p.log_half <= within))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Category, Pass};

    fn rows_of(a: &CopyRun, b: &CopyRun) -> Vec<Row> {
        rows(a, b)
    }

    /// Normal deviates (Box-Muller) from a seeded generator.
    struct Normal(oorandom::Rand64);
    impl Normal {
        fn next(&mut self) -> f64 {
            let u = 1.0 - self.0.rand_float();
            let v = self.0.rand_float();
            (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
        }
    }

    fn result(name: &str, rates: &[(usize, f64)]) -> TestResult {
        let t = crate::suite::test(name).unwrap();
        let passes = rates
            .iter()
            .map(|&(round, r)| Pass {
                count: r,
                time: 1.0,
                timebase: 1.0,
                round: Some(round),
                ..Pass::default()
            })
            .collect();
        let mut r = TestResult {
            name: name.into(),
            message: t.message.into(),
            category: Some(Category::System),
            passes,
            ..TestResult::default()
        };
        crate::score::score_result(&mut r);
        r
    }

    #[test]
    fn a_known_ratio_under_a_drift_is_found_and_the_drift_cancels() {
        // The host slows by a third over the rounds; B is 10% slower than A within each round.
        let rounds: Vec<(usize, f64, f64)> =
            (1..=8).map(|k| (k, 1000.0 / (1.0 + 0.07 * k as f64), 900.0 / (1.0 + 0.07 * k as f64))).collect();
        let a = result("pipe", &rounds.iter().map(|&(k, x, _)| (k, x)).collect::<Vec<_>>());
        let b = result("pipe", &rounds.iter().map(|&(k, _, y)| (k, y)).collect::<Vec<_>>());
        let d: Vec<f64> = round_ratios(&a, &b).iter().map(|&(_, x)| x).collect();
        let p = of_log_ratios(&d).unwrap();
        assert!((p.ratio - 0.9).abs() < 1e-12, "{p:?}");
        assert!(p.marked && p.log_half < 1e-9, "{p:?}");
        // The arms' own figures spread by a third: two runs compared apart would see no 10%.
        assert!(
            a.passes.iter().map(pass_rate).fold(0.0, f64::max)
                > 1.4 * a.passes.iter().map(pass_rate).fold(f64::MAX, f64::min)
        );
    }

    #[test]
    fn rounds_pair_by_number_and_a_round_measured_again_keeps_its_last() {
        let a = result("pipe", &[(1, 100.0), (2, 100.0), (3, 100.0)]);
        let b = result("pipe", &[(1, 50.0), (1, 110.0), (3, 90.0), (4, 80.0)]);
        let d = round_ratios(&a, &b);
        assert_eq!(d.iter().map(|&(k, _)| k).collect::<Vec<_>>(), [1, 3]);
        assert!((d[0].1 - 1.1f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_paired_interval_holds_its_95_and_its_power_is_what_it_says() {
        // 4000 simulated ab runs of 4 to 12 rounds: a round's log ratio is the true one plus
        // noise of 1-3%, on top of a host that wanders by 10% between rounds (cancelled).
        let mut z = Normal(oorandom::Rand64::new(7));
        let (mut covered, mut runs, mut marked_at_detectable, mut tried) = (0, 0, 0, 0);
        for run in 0..4000 {
            let n = 4 + run % 9;
            let sd = 0.01 + 0.02 * (run % 5) as f64 / 4.0;
            let truth = -0.05;
            let d: Vec<f64> = (0..n)
                .map(|_| {
                    let host = 0.1 * z.next();
                    (truth + host + sd * z.next()) - host
                })
                .collect();
            let p = of_log_ratios(&d).unwrap();
            runs += 1;
            covered += usize::from(p.low <= truth.exp() && truth.exp() <= p.high);
            // A true difference as large as the detectable one is marked about 80% of the time.
            let shifted: Vec<f64> = d.iter().map(|x| x - truth + (1.0 + p.detectable).ln()).collect();
            tried += 1;
            marked_at_detectable += usize::from(of_log_ratios(&shifted).unwrap().marked);
        }
        let coverage = covered as f64 / runs as f64;
        assert!((0.935..=0.965).contains(&coverage), "coverage {coverage}");
        let power = marked_at_detectable as f64 / tried as f64;
        assert!(power > 0.75, "power at the detectable difference {power}");
    }

    #[test]
    fn each_arm_s_figure_is_over_the_paired_rounds_so_b_over_a_is_their_ratio() {
        let a = vec![
            result("pipe", &[(1, 100.0), (2, 120.0), (3, 90.0)]),
            result("syscall", &[(1, 10.0), (2, 11.0), (3, 9.0)]),
        ];
        let mut b = vec![
            result("pipe", &[(1, 95.0), (2, 110.0), (3, 86.0)]),
            result("syscall", &[(1, 9.0), (2, 10.5), (3, 8.0)]),
        ];
        let run = |r: Vec<TestResult>| CopyRun {
            copies: 1,
            index: crate::score::index_blocks(&r),
            results: r,
            ..Default::default()
        };
        let rows = rows(&run(a.clone()), &run(b.clone()));
        for r in &rows {
            let p = r.paired.unwrap();
            assert!((r.b.unwrap() / r.a.unwrap() - p.ratio).abs() < 1e-12, "{r:?}");
        }
        let index = rows.iter().find(|r| r.is_index).unwrap();
        assert_eq!(index.message, "System Benchmarks Index Score (Partial Only)");
        // B's syscall failed: the index stands on pipe alone, and says which test it lacks.
        b[1] = TestResult { error: Some("copy 1 of 1: killed".into()), ..b[1].clone() };
        b[1].passes.clear();
        let rows = rows_of(&run(a), &run(b));
        let syscall = &rows[1];
        assert_eq!((syscall.a, syscall.b_why.as_deref()), (None, Some("failed: copy 1 of 1: killed")));
        let index = rows.iter().find(|r| r.is_index).unwrap();
        assert_eq!(index.a_why.as_deref(), Some("not paired in any round: System Call Overhead"));
        assert!((index.paired.unwrap().ratio - rows[0].paired.unwrap().ratio).abs() < 1e-12);
    }

    #[test]
    fn the_index_takes_the_rounds_where_every_test_was_paired() {
        let a = vec![
            result("pipe", &[(1, 100.0), (2, 100.0), (3, 100.0)]),
            result("syscall", &[(1, 10.0), (2, 10.0), (3, 10.0)]),
        ];
        let b = vec![
            result("pipe", &[(1, 90.0), (2, 91.0), (3, 89.0)]),
            result("syscall", &[(1, 10.0), (3, 10.0)]),
        ];
        let (ca, cb) = (
            CopyRun { copies: 1, index: crate::score::index_blocks(&a), results: a, ..Default::default() },
            CopyRun { copies: 1, index: crate::score::index_blocks(&b), results: b, ..Default::default() },
        );
        let rows = rows(&ca, &cb);
        let index = rows.iter().find(|r| r.is_index).unwrap();
        let p = index.paired.unwrap();
        assert_eq!(p.rounds, 2);
        let expect = ((0.9f64.ln() + 0.89f64.ln()) / 2.0 / 2.0).exp();
        assert!((p.ratio - expect).abs() < 1e-12, "{p:?} {expect}");
        assert!(!precise(&rows, 0.01), "two rounds are too few");
    }
}
