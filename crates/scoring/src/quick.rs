//! `--quick`: the same tests and copies as a standard run, each pass shorter, the number of
//! passes decided while running. A test stops when the 95% interval of its score is within ±1%,
//! or when its share of the time budget is spent. Everything here is a pure function of the
//! samples seen so far and the time spent, so the rule is tested with a fake sample source; the
//! driver's pass loop calls [`should_stop`] after each pass.
//!
//! The score of a quick test is computed exactly as a standard one (Run's drop of the lowest
//! third, geometric mean of the rest), so the interval the rule watches is the interval of the
//! very number the report prints, as its own passes give it.

use crate::model::{Pass, TestResult};
use crate::stats;

/// The interval half-width, relative to the score, at which a test has enough passes: ±1%.
pub const TARGET: f64 = 0.01;

/// The passes every quick test gets: 3 passes keep 2 samples, the fewest that give an interval
/// at all. Neither the interval nor the budget stops a test before them: the smallest budget a
/// run accepts pays for them (its `floor`, [`share`]).
pub const MIN_PASSES: usize = 3;

/// The most passes a quick test runs, whatever its budget.
pub const MAX_PASSES: usize = 100;

/// A quick run's default total budget, as a fraction of the standard run's estimated time: a bit
/// under a tenth, so that process start-up and a last pass that runs past its estimate still
/// leave the whole run within a tenth of a standard one.
pub const DEFAULT_FRACTION: f64 = 0.095;

/// The seconds a quick pass takes beyond its duration and settle: forking and reaping the
/// copies, reading their output and the noise around them. Standard passes hide it in their
/// settle's rounding; a 1 s quick pass cannot.
pub const PASS_COST: f64 = 0.05;

/// Whether the 95% interval of the score these passes give is within ±`target`: the interval
/// of the score as Run keeps the passes (`stats::passes_ci95`, a trimmed mean's).
pub fn converged(passes: &[Pass], target: f64) -> bool {
    match stats::passes_ci95(passes) {
        Some(ci) if has_interval(passes) => ci.relative_half_width(ci.low.sqrt() * ci.high.sqrt()) <= target,
        _ => false,
    }
}

/// Whether the passes' score has an interval of use: [`stats::USEFUL_KEPT`] kept passes.
pub fn has_interval(passes: &[Pass]) -> bool {
    passes.len() - passes.len() / 3 >= stats::USEFUL_KEPT
}

/// Whether a quick test should stop, given its passes so far (in run order), the
/// seconds it has spent (passes and settles) and its budget in seconds:
/// - never before [`MIN_PASSES`];
/// - when the budget is spent;
/// - after [`MIN_PASSES`], when the interval is within ±[`TARGET`];
/// - when another pass, at the mean cost of those so far, would overrun the budget.
pub fn should_stop(passes: &[Pass], spent: f64, budget: f64) -> bool {
    let n = passes.len();
    if n < MIN_PASSES {
        return false;
    }
    if spent >= budget {
        return true;
    }
    if converged(passes, TARGET) {
        return true;
    }
    !another_fits(spent, n, budget)
}

/// Whether a quick run's rounds at a copy count are done, after `rounds` rounds that took
/// `spent` seconds of its `budget` (its tests' shares and what was held back, together):
/// never before [`MIN_PASSES`] rounds; at [`MAX_PASSES`], or when the budget is spent, or
/// another round, at the mean cost of those so far, would overrun it; or when every test
/// (`tests`, those still running) has [`MIN_PASSES`] passes in its score, none disturbed, and
/// its interval within ±[`TARGET`]. This is the second visit's job done within the rounds: a
/// disturbed pass set aside is replaced by a later round.
pub fn rounds_done(tests: &[&TestResult], rounds: usize, spent: f64, budget: f64) -> bool {
    if rounds < MIN_PASSES {
        return false;
    }
    if rounds >= MAX_PASSES || !another_fits(spent, rounds, budget) {
        return true;
    }
    let settled = |r: &&TestResult| {
        let clean = !r.passes.iter().any(|p| r.pass_disturbance(p).is_some());
        r.passes.len() >= MIN_PASSES && clean && converged(&r.passes, TARGET)
    };
    tests.iter().all(settled)
}

/// The rounds a quick run's copy count is expected to take, `rounds` of them run in `spent`
/// seconds of its `budget`, a round estimated at `round_secs` before the first: as many as the
/// budget pays for at the mean cost of a round so far, where [`rounds_done`] stops them at the
/// latest (every test settled stops them sooner); at least [`MIN_PASSES`] and the round about
/// to start, at most [`MAX_PASSES`]. A ceiling, said `~N`, revised as the rounds' cost is known.
pub fn rounds_expected(rounds: usize, spent: f64, budget: f64, round_secs: f64) -> usize {
    let cost = if rounds == 0 { round_secs } else { spent / rounds as f64 };
    passes_in(budget, cost).max(rounds + 1).min(MAX_PASSES)
}

/// Whether another pass, at the mean cost of the `n` run so far (`spent` seconds), fits in
/// `budget`.
pub fn another_fits(spent: f64, n: usize, budget: f64) -> bool {
    n == 0 || spent + spent / n as f64 <= budget
}

/// Whether one of `scored` passes, disturbed, can be left out and measured again within
/// `budget`, `spent` seconds of it gone: the passes the test then still needs (enough for
/// [`MIN_PASSES`], one at least), at `cost` seconds each, fit in it. The three passes come first.
pub fn room_to_replace(spent: f64, cost: f64, scored: usize, budget: f64) -> bool {
    let needed = MIN_PASSES.saturating_sub(scored.saturating_sub(1)).max(1);
    spent + cost * needed as f64 <= budget
}

/// The part of each test's share beyond its [`MIN_PASSES`] that a quick run holds back, to
/// measure again, once every test at a copy count has run, the tests that a disturbance
/// outlasted or whose interval is not yet tight ([`due_again`]). A disturbance longer than a
/// test's share (a neighbour's minute-long job) leaves it nothing to re-measure in; later in the
/// run the host may be quiet again. Half: a CPU hog beside the copies for a third of a run at the
/// default budget disturbs about a third of the tests' passes, and what is held back pays for
/// their three passes again.
pub const HELD: f64 = 0.5;

/// What a quick test's `share` holds back ([`HELD`]) beyond its `floor`.
pub fn held_back(share: f64, floor: f64) -> f64 {
    (share - floor).max(0.0) * HELD
}

/// A test due a second visit ([`due_again`]): its index in the copy count's results, what
/// setting aside all its disturbed passes costs (`owed`, seconds; 0 when none is in its score)
/// and what measuring it again whole costs (`weight`, its [`MIN_PASSES`] passes' seconds:
/// context1's 3 s passes need three times pipe's 1 s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Due {
    pub index: usize,
    pub owed: f64,
    pub weight: f64,
}

impl Due {
    /// Whether it is due only for a loose interval: no disturbed pass is owed a replacement.
    pub fn is_loose(&self) -> bool {
        self.owed == 0.0
    }
}

/// What a test owed a second visit gets beyond its passes' seconds, in passes: a pass can take a
/// little longer than the estimate, and the visit must not stop one short of its last.
pub const OWED_MARGIN: f64 = 0.5;

/// The passes a second visit owes test `r`: one in place of each disturbed pass in its score,
/// and enough for [`MIN_PASSES`] clean ones; none when no pass in its score is disturbed.
pub fn owed_passes(r: &TestResult) -> usize {
    let disturbed = r.passes.iter().filter(|p| r.pass_disturbance(p).is_some()).count();
    if disturbed == 0 {
        return 0;
    }
    disturbed.max(MIN_PASSES.saturating_sub(r.passes.len() - disturbed))
}

/// The tests of one copy count to measure again, a pass of each costing `pass_secs` seconds:
/// first those with a disturbed pass still in their score, the cheapest to set right first (so
/// that what is held covers as many as it can), then those whose interval is not within
/// ±[`TARGET`], in run order, those with no interval of use yet ([`has_interval`]) first: a pass
/// that gives a test its interval is worth more than one that tightens another's. A test
/// without a score (failed, skipped) is not measured again.
pub fn due_again(results: &[TestResult], pass_secs: impl Fn(&TestResult) -> f64) -> Vec<Due> {
    let useful = |d: &Due| d.is_loose() && has_interval(&results[d.index].passes);
    let before = |a: &Due, b: &Due| {
        let order = a.is_loose().cmp(&b.is_loose()).then(useful(a).cmp(&useful(b)));
        order.then(a.owed.total_cmp(&b.owed)).is_le()
    };
    let mut due: Vec<Due> = Vec::new();
    for (index, r) in results.iter().enumerate().filter(|(_, r)| r.ok()) {
        let (owed, secs) = (owed_passes(r), pass_secs(r));
        let owed = if owed == 0 { 0.0 } else { (owed as f64 + OWED_MARGIN) * secs };
        if owed > 0.0 || owed == 0.0 && !converged(&r.passes, TARGET) {
            let d = Due { index, owed, weight: MIN_PASSES as f64 * secs };
            // Kept in order as it grows, each after those it ties with (stable): the loose in
            // run order after every disturbed one, those without an interval first. A few
            // dozen tests; this is smaller than std's sort.
            due.insert(due.partition_point(|e| before(e, &d)), d);
        }
    }
    due
}

/// Test `d`'s part of `pool`, the seconds still held for measuring again: what it is owed, as
/// far as the pool goes; or, once no test is owed, a part in proportion to its weight among
/// `weights`, the weights of the loose tests still due (its own included).
pub fn share_again(pool: f64, d: &Due, weights: f64) -> f64 {
    if pool <= 0.0 {
        return 0.0;
    }
    if !d.is_loose() {
        return pool.min(d.owed);
    }
    if weights <= 0.0 {
        return 0.0;
    }
    pool * (d.weight / weights).min(1.0)
}

/// A quick pass's duration for a test whose standard pass lasts `standard` seconds: a
/// twentieth, at least `min` seconds, the test's own floor (`Test::quick_min`: 1 s for most, so
/// 10 s tests run 1 s, 30 s tests 2 s, 60 s tests 3 s).
pub fn pass_seconds(standard: u32, min: u32) -> u32 {
    standard.div_ceil(20).max(min).max(1)
}

/// The settle before each quick pass of a test that writes files through the host's tools (the
/// driver's `policy` gives it to them): a `sync` and this pause. Run's is `sync; sleep 3` for
/// every test; a quick run drops it for tests that only compute or make system calls, and
/// fstime gets the same pause inside the program, before each phase: [`FSTIME_SETTLE`].
pub const HOST_SETTLE: f64 = 0.5;

/// fstime's own settle under `--quick` (its `-s`, ours): before each of its phases it syncs,
/// sleeps this, syncs and sleeps this again (half before the copy phase), and its `-r`/`-c`
/// priming phases last this long. Run's fstime pauses 2 + 2 s and primes for 2 s: a 2 s copy
/// pass took ~16 s, which the budget let run once. With 0.25 s a phase's settle is the 0.5 s
/// of [`HOST_SETTLE`] and a copy pass takes ~4 s, so the driver adds no settle of its own.
pub const FSTIME_SETTLE: f64 = 0.25;

/// What a quick run has left to share out, and among what: seconds of budget (`left`), the
/// [`MIN_PASSES`] passes' seconds of the tests not yet run (`floor`), and their standard time
/// (`weight`), the test about to start included; of `left`, `held` is held back ([`HELD`]) for
/// measuring again at the end of the copy count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    pub left: f64,
    pub floor: f64,
    pub weight: f64,
    pub held: f64,
}

impl Budget {
    /// A budget with nothing held back yet.
    pub fn new(left: f64, floor: f64, weight: f64) -> Budget {
        Budget { left, floor, weight, held: 0.0 }
    }
}

/// A test's share of what is left of the budget: its own floor (the seconds of its
/// [`MIN_PASSES`] passes), then of what the floors leave over, in proportion to its standard
/// time (`weight`). Each test so gets its three passes and the same fraction of its standard
/// time beyond them; a test that overran (a pass that cannot be shortened) is paid for by the
/// tests after it, first out of what is over and then out of their floors, in proportion.
pub fn share(l: Budget, floor: f64, weight: f64) -> f64 {
    let left = l.left - l.held;
    if left <= 0.0 {
        return 0.0;
    }
    if left < l.floor {
        return if l.floor > 0.0 { left * floor / l.floor } else { 0.0 };
    }
    let over = left - l.floor;
    let part = if l.weight > 0.0 && weight > 0.0 { over * (weight / l.weight).min(1.0) } else { 0.0 };
    floor + part
}

/// The smallest budget that gives every test its [`MIN_PASSES`] passes, from each test's
/// estimated seconds per quick pass (its settle included).
pub fn min_budget(pass_secs: impl IntoIterator<Item = f64>) -> f64 {
    pass_secs.into_iter().map(|s| MIN_PASSES as f64 * s).sum()
}

/// The passes a test can get from its share of the budget, its passes taking `pass_secs` each:
/// at least [`MIN_PASSES`], at most [`MAX_PASSES`].
pub fn passes_in(share: f64, pass_secs: f64) -> usize {
    let n = if pass_secs > 0.0 { (share / pass_secs + 1e-9).floor() as usize } else { MAX_PASSES };
    n.clamp(MIN_PASSES, MAX_PASSES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score;

    /// A fake sample source: rates around `centre` with relative noise of about `cv`
    /// (Irwin-Hall: the sum of 12 uniforms less 6 is close to a standard normal), reproducible.
    struct Fake {
        rng: oorandom::Rand64,
        centre: f64,
        cv: f64,
    }

    impl Fake {
        fn new(seed: u128, centre: f64, cv: f64) -> Fake {
            Fake { rng: oorandom::Rand64::new(seed), centre, cv }
        }
        fn next(&mut self) -> f64 {
            let z: f64 = (0..12).map(|_| self.rng.rand_float()).sum::<f64>() - 6.0;
            self.centre * (1.0 + self.cv * z)
        }
    }

    /// Passes of one copy each, one second long, whose rates are `rates`.
    fn ps(rates: &[f64]) -> Vec<Pass> {
        rates
            .iter()
            .map(|&r| Pass { count: r, time: 1.0, elapsed: 1.0, timebase: 1.0, ..Default::default() })
            .collect()
    }

    /// The kept rates of those passes.
    fn kept(rates: &[f64]) -> Vec<f64> {
        score::kept_in_run_order(&ps(rates)).into_iter().map(stats::pass_rate).collect()
    }

    /// Runs a test as the driver would: a pass costs `cost` seconds; returns the samples and
    /// the time spent when the rule stopped it.
    fn simulate(src: &mut Fake, cost: f64, budget: f64) -> (Vec<f64>, f64) {
        let (mut samples, mut spent) = (Vec::new(), 0.0);
        loop {
            samples.push(src.next());
            spent += cost;
            if should_stop(&ps(&samples), spent, budget) {
                return (samples, spent);
            }
            assert!(samples.len() < 10_000, "the rule never stopped");
        }
    }

    #[test]
    fn rounds_stop_after_three_when_every_test_is_tight_or_the_budget_is_spent() {
        let r = |rates: &[f64]| TestResult { passes: ps(rates), ..TestResult::default() };
        let (tight, loose) = (r(&[10.0, 10.0, 10.0, 10.0]), r(&[5.0, 10.0, 20.0]));
        assert!(!rounds_done(&[&tight], 2, 2.0, 100.0), "three rounds at least");
        assert!(rounds_done(&[&tight, &tight], 4, 6.0, 100.0), "every test tight");
        let bare = r(&[10.0, 10.0, 10.0]);
        assert!(!rounds_done(&[&bare], 3, 6.0, 100.0), "two kept passes: no interval yet");
        assert!(!rounds_done(&[&tight, &loose], 3, 6.0, 100.0), "one loose: on while it fits");
        assert!(rounds_done(&[&tight, &loose], 3, 6.0, 7.9), "another round of 2 s overruns");
        assert!(rounds_done(&[&loose], MAX_PASSES, 6.0, 1e9));
    }

    #[test]
    fn the_rounds_expected_are_those_the_budget_pays_for_and_rounds_done_stops_there() {
        // Before the first round, by the plan's estimate: 60 s of 8 s rounds pay for 7; after
        // two that took 10 s each, for 6.
        assert_eq!((rounds_expected(0, 0.0, 60.0, 8.0), rounds_expected(2, 20.0, 60.0, 8.0)), (7, 6));
        // Three at least, never fewer than the round about to start, a hundred at most.
        assert_eq!(rounds_expected(0, 0.0, 10.0, 8.0), MIN_PASSES);
        assert_eq!(rounds_expected(5, 60.0, 60.0, 8.0), 6);
        assert_eq!(rounds_expected(0, 0.0, 1e9, 1.0), MAX_PASSES);
        // A ceiling that holds: rounds of a steady cost, one test never settled, stop there.
        let loose = TestResult { passes: ps(&[5.0, 10.0, 20.0]), ..TestResult::default() };
        for (budget, cost) in [(60.0, 8.0), (100.0, 3.3), (9.0, 3.0), (1e9, 1.0)] {
            let n = rounds_expected(0, 0.0, budget, cost);
            let stop = (1..).find(|&r| rounds_done(&[&loose], r, r as f64 * cost, budget));
            assert_eq!(stop, Some(n), "{budget} s of {cost} s rounds");
        }
    }

    #[test]
    fn kept_drops_the_lowest_third_in_run_order() {
        // floor(7/3) = 2 dropped: the lowest two, 1.0 and 0.5.
        assert_eq!(kept(&[5.0, 1.0, 4.0, 2.0, 3.0, 6.0, 0.5]), vec![5.0, 4.0, 2.0, 3.0, 6.0]);
        assert_eq!(kept(&[3.0, 1.0, 2.0]), vec![3.0, 2.0]);
        assert_eq!(kept(&[7.0, 7.0]), vec![7.0, 7.0]);
        assert_eq!(kept(&[]), Vec::<f64>::new());
    }

    #[test]
    fn quiet_tests_stop_as_soon_as_the_interval_is_tight() {
        // 0.1% noise: 3 passes keep 2 samples whose interval (t = 12.7) is within ±1% only if
        // they agree to about 0.1%; a few more passes at most.
        let mut src = Fake::new(1, 1e6, 0.001);
        let (samples, spent) = simulate(&mut src, 1.0, 100.0);
        assert!((MIN_PASSES..=6).contains(&samples.len()), "{} passes", samples.len());
        assert!(spent < 10.0);
        assert!(converged(&ps(&samples), TARGET));
    }

    #[test]
    fn noisy_tests_stop_at_the_budget_without_overrunning() {
        // 5% noise never gets within ±1% in 20 passes: the budget stops it, exactly at 20 s of
        // 1 s passes, never past it.
        let mut src = Fake::new(7, 2000.0, 0.05);
        let (samples, spent) = simulate(&mut src, 1.0, 20.0);
        assert_eq!(samples.len(), 20);
        assert_eq!(spent, 20.0);
        assert!(!converged(&ps(&samples), TARGET));
        // 3 s passes in a 10 s budget: 3 passes (9 s); a 4th would reach 12 s.
        let (samples, spent) = simulate(&mut Fake::new(8, 2000.0, 0.05), 3.0, 10.0);
        assert_eq!((samples.len(), spent), (3, 9.0));
    }

    #[test]
    fn moderate_noise_converges_within_a_generous_budget() {
        // 1% noise: the kept samples' interval reaches ±1% after a handful of passes; check the
        // stop was for that reason (budget left) and that the rule did not stop earlier.
        for seed in 1..20 {
            let mut src = Fake::new(seed, 500.0, 0.01);
            let (samples, spent) = simulate(&mut src, 1.0, 1000.0);
            assert!(spent < 999.0, "seed {seed}: stopped by the budget");
            assert!(converged(&ps(&samples), TARGET), "seed {seed}");
            assert!(!converged(&ps(&samples[..samples.len() - 1]), TARGET) || samples.len() == MIN_PASSES);
            let g = stats::geomean(&kept(&samples));
            assert!((g / 500.0 - 1.0).abs() < 0.03, "seed {seed}: {g}");
        }
    }

    #[test]
    fn edge_cases() {
        assert!(!should_stop(&ps(&[]), 5.0, 1.0), "never stop without a sample");
        assert!(!should_stop(&ps(&[1.0, 2.0]), 9.0, 1.0), "nor before the third pass, whatever it took");
        assert!(should_stop(&ps(&[1.0, 2.0, 3.0]), 3.0, 3.0), "a spent budget stops");
        assert!(!should_stop(&ps(&[1.0, 3.0, 2.0]), 3.0, 5.0), "another 1 s pass fits in 5 s");
        assert!(should_stop(&ps(&[1.0, 3.0, 2.0]), 3.0, 3.9), "a fourth 1 s pass would overrun 3.9 s");
        // Identical samples converge once they have an interval of use (three kept), not before.
        assert!(!should_stop(&ps(&[9.0, 9.0, 9.0]), 3.0, 100.0));
        assert!(should_stop(&ps(&[9.0, 9.0, 9.0, 9.0]), 4.0, 100.0));
    }

    #[test]
    fn durations_settles_and_budgets() {
        let p = |s| pass_seconds(s, 1);
        assert_eq!((p(10), p(20), p(30), p(60)), (1, 1, 2, 3));
        assert_eq!((p(0), pass_seconds(0, 0)), (1, 1));
        assert_eq!((pass_seconds(10, 3), pass_seconds(100, 3)), (3, 5), "a floor, not a duration");
        // 60 s left for tests of standard times 10, 20, 30, whose floors are 3 s, 6 s and 3 s:
        // the first gets 3 s and 10/60 of the 48 s over, 11 s; if it took 17 s, the second
        // gets 6 s and 20/50 of the 34 s the floors leave over, 19.6 s; the last what is left.
        let l = Budget::new;
        assert_eq!(share(l(60.0, 12.0, 60.0), 3.0, 10.0), 11.0);
        assert!((share(l(43.0, 9.0, 50.0), 6.0, 20.0) - 19.6).abs() < 1e-9);
        assert_eq!(share(l(23.4, 3.0, 30.0), 3.0, 30.0), 23.4);
        // Less left than the floors: each floor in proportion.
        assert_eq!(share(l(6.0, 12.0, 60.0), 3.0, 10.0), 1.5);
        assert_eq!((share(l(-3.0, 1.0, 1.0), 1.0, 1.0), share(l(5.0, 0.0, 0.0), 0.0, 0.0)), (0.0, 0.0));
        assert_eq!(min_budget([1.0, 3.5, 2.0]), 19.5);
        assert_eq!((passes_in(11.0, 1.0), passes_in(1.0, 1.0), passes_in(1e6, 1.0)), (11, 3, 100));
        assert_eq!(passes_in(3.0 * 1.1, 1.1), 3, "a float's rounding costs no pass");
        assert!(another_fits(4.0, 2, 6.0) && !another_fits(4.0, 2, 5.9) && another_fits(0.0, 0, 0.0));
        // Three 1 s passes in 3.15 s: no room to replace the first, which would need three more.
        assert!(!room_to_replace(1.0, 1.0, 1, 3.15) && room_to_replace(1.0, 1.0, 1, 4.0));
        // With three scored in 3 s, a fourth fits in 4 s, not in 3.9 s.
        assert!(room_to_replace(3.0, 1.0, 3, 4.0) && !room_to_replace(3.0, 1.0, 3, 3.9));
        // Once one is out (2 scored of 3 run), replacing another needs two more passes.
        assert!(room_to_replace(3.0, 1.0, 2, 5.0) && !room_to_replace(3.0, 1.0, 2, 4.9));
    }

    #[test]
    fn half_of_what_a_share_gives_beyond_the_floor_is_held_back_for_measuring_again() {
        assert_eq!((held_back(11.0, 3.0), held_back(3.0, 3.0), held_back(2.0, 3.0)), (4.0, 0.0, 0.0));
        // What is held back is not shared out: 60 s with 8 held is 52 s to share.
        let l = Budget { held: 8.0, ..Budget::new(60.0, 12.0, 60.0) };
        assert!((share(l, 3.0, 10.0) - (3.0 + 40.0 / 6.0)).abs() < 1e-9);
        assert_eq!(share(Budget { held: 60.0, ..l }, 3.0, 10.0), 0.0);
        // Once no test is owed, the held seconds go to the loose tests due, by the seconds of
        // their three passes, among those still due.
        let loose = |weight| Due { index: 0, owed: 0.0, weight };
        assert_eq!(
            (share_again(12.0, &loose(10.0), 30.0), share_again(12.0, &loose(30.0), 30.0)),
            (4.0, 12.0)
        );
        assert_eq!((share_again(0.0, &loose(1.0), 1.0), share_again(5.0, &loose(1.0), 0.0)), (0.0, 0.0));
        // A test owed gets what it is owed, as far as the pool goes, whatever the weights.
        let owed = Due { owed: 7.0, ..loose(3.0) };
        assert_eq!((share_again(45.0, &owed, 3.0), share_again(5.0, &owed, 0.0)), (7.0, 5.0));
        assert_eq!(share_again(-1.0, &owed, 3.0), 0.0);
    }

    /// A pass's noise alone, and beside another process's half CPU.
    fn noises() -> (crate::model::Noise, crate::model::Noise) {
        let quiet = crate::model::Noise { copies_cpu: 1.0, wall: 1.0, idle: 1.0, ..Default::default() };
        (quiet, crate::model::Noise { foreign: 0.5, ..quiet })
    }

    #[test]
    fn disturbed_tests_are_due_again_before_loose_ones_and_tight_clean_ones_not_at_all() {
        let (quiet, busy) = noises();
        let test = |rates: &[f64], noise: crate::model::Noise| {
            let mut passes = ps(rates);
            passes.iter_mut().for_each(|p| p.noise = Some(noise));
            let mut r = TestResult { passes, ..Default::default() };
            score::score_result(&mut r);
            r
        };
        let tight = test(&[5.0, 5.0, 5.0, 5.0], quiet);
        let loose = test(&[1.0, 9.0, 3.0, 4.0], quiet);
        let disturbed = test(&[5.0, 5.0, 5.0], busy);
        let mut partly = test(&[5.0, 5.0, 5.0, 5.0], quiet);
        partly.passes[1].noise = Some(busy);
        let failed = TestResult { error: Some("disk full".into()), ..loose.clone() };
        let bare = test(&[5.0, 5.0, 5.0], quiet);
        let results = [tight, loose.clone(), failed, disturbed, loose, partly, bare];
        // Passes of 1 s: the test with one disturbed pass is owed 1.5 s and comes before the
        // one with three (3.5 s); the loose follow, owed nothing, the one with no interval yet
        // (two kept passes) first, then in run order.
        let due = due_again(&results, |_| 1.0);
        let at = |d: &[Due]| d.iter().map(|d| (d.index, d.owed)).collect::<Vec<_>>();
        assert_eq!(at(&due), [(5, 1.5), (3, 3.5), (6, 0.0), (1, 0.0), (4, 0.0)]);
        assert!(due.iter().all(|d| d.weight == 3.0));
        assert!(due_again(&[], |_| 1.0).is_empty());
    }

    #[test]
    fn a_second_visit_owes_a_pass_for_each_disturbed_one_and_three_clean_ones() {
        let (quiet, busy) = noises();
        let with = |noises: &[crate::model::Noise]| {
            let mut passes = ps(&vec![5.0; noises.len()]);
            passes.iter_mut().zip(noises).for_each(|(p, n)| p.noise = Some(*n));
            TestResult { passes, ..Default::default() }
        };
        assert_eq!(owed_passes(&with(&[quiet, quiet, quiet])), 0);
        assert_eq!(owed_passes(&with(&[busy, quiet, busy, quiet, quiet])), 2);
        // Two passes scored, one disturbed: two clean ones more make three.
        assert_eq!(owed_passes(&with(&[quiet, busy])), 2);
        assert_eq!(owed_passes(&with(&[busy; 4])), 4);
    }
}
