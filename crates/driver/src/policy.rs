//! How a run spends its passes: the standard run (Run's durations, settles and pass counts), a
//! short run (`-t`) or a quick one (`--quick`). Each answers the same questions (a test's pass
//! duration, its settle, how many passes and when to stop), so the pass loop has no mode flags.
//! Scoring is the same in all three: Run's drop of the worst third (`crate::score`).

use crate::model::Pass;
use crate::quick;
use crate::score;
use crate::suite::{self, Arg, Kind, Test};

/// Which kind of run, with what it needs to decide.
#[derive(Debug, Clone, PartialEq)]
pub enum Policy {
    /// Run's: each test its standard duration, `sync; sleep 1; sync; sleep 2` before each pass,
    /// 10 or 3 passes (`-i` changes the counts).
    Standard { iterations: Option<u32> },
    /// `-t SECONDS`: every test that far, the settle only the syncs.
    Short { secs: u32, iterations: Option<u32> },
    /// `--quick`: shorter passes, each test run until its interval is tight or its share of the
    /// budget is spent.
    Quick(Budget),
}

/// What is left of a quick run's budget (seconds), of the floors (three passes' seconds) and of
/// the standard time of the tests not yet run: each test gets its `quick::share` of it.
pub use crate::quick::Budget;

/// The pause before a pass: sleeps, with a `sync` before each when `sync` (or alone, when
/// there are no sleeps): Run's is `sync; sleep 1; sync; sleep 2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settle {
    pub sync: bool,
    pub sleeps: &'static [f64],
}

impl Settle {
    pub const NONE: Settle = Settle { sync: false, sleeps: &[] };

    /// Its seconds, for the estimates.
    pub fn secs(&self) -> f64 {
        // A fold from +0.0: std's sum of nothing is -0.0, which would print as such.
        self.sleeps.iter().fold(0.0, |a, b| a + b)
    }
}

/// A quick run's settle for the tests that write files through the host's tools.
const QUICK_SETTLE: Settle = Settle { sync: true, sleeps: &[quick::HOST_SETTLE] };

impl Policy {
    /// The seconds test `t` runs per pass, for its standard duration `standard`.
    pub fn secs(&self, t: &Test, standard: u32) -> u32 {
        match self {
            Policy::Standard { .. } => standard,
            Policy::Short { secs, .. } => *secs,
            Policy::Quick(_) => quick::pass_seconds(standard, t.quick_min),
        }
    }

    /// fstime's `-s` (`Arg::ShortSettle`), or None in a standard run, whose argv is Run's: a
    /// quick run's fixed short settle, or a short run's scaled with its duration (2 s at 30 s,
    /// as Run's own, down to a tenth of a second).
    pub fn fstime_settle(&self) -> Option<f64> {
        match self {
            Policy::Standard { .. } => None,
            Policy::Short { secs, .. } => {
                Some((suite::FSTIME_SETTLE * f64::from(*secs) / 30.0).clamp(0.1, suite::FSTIME_SETTLE))
            }
            Policy::Quick(_) => Some(quick::FSTIME_SETTLE),
        }
    }

    /// The settle before each pass of `t`. A quick run keeps one only for the host-tool tests,
    /// which write files: the file tests write files too, but fstime settles itself before each
    /// of its phases (a quick run passes it `-s`), so the driver's would be a second.
    pub fn settle(&self, t: &Test) -> Settle {
        match self {
            Policy::Standard { .. } => Settle { sync: true, sleeps: &crate::suite::RUN_SETTLE },
            Policy::Short { .. } => Settle { sync: true, sleeps: &[] },
            Policy::Quick(_) if matches!(t.kind, Kind::Host { .. }) => QUICK_SETTLE,
            Policy::Quick(_) => Settle::NONE,
        }
    }

    /// The most passes `t` gets (a quick test may stop sooner: [`Policy::should_stop`]).
    pub fn passes(&self, t: &Test) -> usize {
        match self {
            Policy::Standard { iterations } | Policy::Short { iterations, .. } => {
                score::passes_for(t.repeat, *iterations)
            }
            Policy::Quick(_) => quick::MAX_PASSES,
        }
    }

    /// The passes `t` is planned to get, as the dry run, the live line and the report count
    /// them: a quick test's what its share of the budget (`budget`) pays for, the most it is
    /// expected to run; the others' all their passes.
    pub fn planned_passes(&self, t: &Test, budget: Option<f64>) -> usize {
        budget.map_or(self.passes(t), |b| quick::passes_in(b, self.pass_secs(t)))
    }

    /// A pass's nominal seconds. A short or quick fstime pass's overhead (its settles and
    /// priming) shrinks with its settle.
    pub fn nominal_secs(&self, t: &Test) -> f64 {
        let secs = match self {
            Policy::Standard { .. } => return f64::from(t.nominal_secs(None)),
            Policy::Short { secs, .. } => *secs,
            Policy::Quick(_) => self.secs(t, t.nominal_secs(None) - t.overhead),
        };
        let scale = match (t.kind, self.fstime_settle()) {
            (Kind::Kernel { args, .. }, Some(s)) if args.contains(&Arg::ShortSettle) => {
                s / suite::FSTIME_SETTLE
            }
            _ => 1.0,
        };
        f64::from(t.nominal_secs(Some(secs)) - t.overhead) + f64::from(t.overhead) * scale
    }

    /// A pass's estimated seconds: its settle, its nominal duration, and in a quick run what a
    /// pass costs beyond them (`quick::PASS_COST`), which its short passes cannot hide.
    pub fn pass_secs(&self, t: &Test) -> f64 {
        let cost = if matches!(self, Policy::Quick(_)) { quick::PASS_COST } else { 0.0 };
        self.settle(t).secs() + self.nominal_secs(t) + cost
    }

    /// The planned seconds of a test's passes; a quick test's floor, its `quick::MIN_PASSES`
    /// (its share of the budget is decided when it starts).
    pub fn test_secs(&self, t: &Test) -> f64 {
        match self {
            Policy::Quick(_) => quick::MIN_PASSES as f64 * self.pass_secs(t),
            p => p.passes(t) as f64 * p.pass_secs(t),
        }
    }

    /// Called as a test starts: its time budget, for a quick run (the test's share of what is
    /// left, less what the run holds back for measuring again: `quick::held_back`); None for
    /// the others, which run all their passes.
    pub fn begin(&mut self, t: &Test) -> Option<f64> {
        let floor = self.test_secs(t);
        let Policy::Quick(b) = self else { return None };
        let weight = standard_secs(t);
        let share = quick::share(*b, floor, weight);
        let held = quick::held_back(share, floor);
        b.weight -= weight;
        b.floor -= floor;
        b.held += held;
        Some(share - held)
    }

    /// Called as the rounds of `tests` start, all at once: each test's budget as [`Policy::begin`]
    /// gives it, but each share taken out of what the next one shares (as a test that ran
    /// before it would have paid it). None for each in the other runs.
    pub fn begin_rounds(&mut self, tests: &[&Test]) -> Vec<Option<f64>> {
        let left = match self {
            Policy::Quick(b) => b.left,
            _ => return vec![None; tests.len()],
        };
        let budgets: Vec<Option<f64>> = tests
            .iter()
            .map(|t| {
                let share = self.begin(t);
                if let (Policy::Quick(b), Some(s)) = (&mut *self, share) {
                    b.left -= s;
                }
                share
            })
            .collect();
        if let Policy::Quick(b) = self {
            b.left = left;
        }
        budgets
    }

    /// Called when every test at a copy count has run: the seconds a quick run held back from
    /// their shares, to measure again the tests `quick::due_again` names (no more than the
    /// budget has beyond the floors of the tests still to run); None for the other runs.
    pub fn release_held(&mut self) -> Option<f64> {
        let Policy::Quick(b) = self else { return None };
        let pool = b.held.min(b.left - b.floor).max(0.0);
        b.held = 0.0;
        Some(pool)
    }

    /// Whether a test stops after these passes, having spent `spent` seconds of `budget`.
    pub fn should_stop(&self, passes: &[Pass], spent: f64, budget: Option<f64>) -> bool {
        budget.is_some_and(|b| quick::should_stop(passes, spent, b))
    }

    /// Whether a test that has spent `spent` seconds, its passes costing `cost` each (None
    /// before it has a pass to judge by), `scored` of them still in its score, has room for one
    /// to be measured again: in its share of a quick run's budget (`budget`,
    /// `quick::room_to_replace`); always in the others, where
    /// [`crate::model::MAX_REMEASURED`] alone bounds it.
    pub fn room_to_remeasure(
        &self,
        spent: f64,
        cost: Option<f64>,
        scored: usize,
        budget: Option<f64>,
    ) -> bool {
        budget.map_or(true, |b| cost.is_some_and(|c| quick::room_to_replace(spent, c, scored, b)))
    }

    /// What a quick run's budget will have left once a test that has taken `spent` seconds so
    /// far pays for them; None for the other runs.
    pub fn budget_left(&self, spent: f64) -> Option<f64> {
        let Policy::Quick(b) = self else { return None };
        Some(b.left - spent)
    }

    /// Called as a test ends, having taken `spent` seconds: a quick test pays it out of the
    /// budget. Returns what the budget has left, for the time-left hint.
    pub fn end(&mut self, spent: f64) -> Option<f64> {
        let Policy::Quick(b) = self else { return None };
        b.left -= spent;
        Some(b.left)
    }
}

/// A test's standard time: Run's passes x (settle + nominal duration). A quick run shares out
/// its budget in proportion to it.
pub fn standard_secs(t: &Test) -> f64 {
    Policy::Standard { iterations: None }.test_secs(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite;

    fn t(name: &str) -> &'static Test {
        suite::test(name).unwrap()
    }

    #[test]
    fn each_policy_answers_for_its_run() {
        let std = Policy::Standard { iterations: None };
        let short = Policy::Short { secs: 2, iterations: Some(1) };
        let quick = Policy::Quick(Budget::new(100.0, 0.0, 200.0));
        let pipe = t("pipe");
        assert_eq!((std.secs(pipe, 10), short.secs(pipe, 10), quick.secs(pipe, 30)), (10, 2, 2));
        assert_eq!(quick.nominal_secs(t("context1")), 3.0, "context1's floor");
        assert_eq!((std.passes(t("pipe")), short.passes(t("pipe")), quick.passes(t("pipe"))), (10, 1, 100));
        assert_eq!(std.passes(t("shell8")), 3);
        assert_eq!(std.settle(t("pipe")).secs(), 3.0);
        assert_eq!(short.settle(t("pipe")), Settle { sync: true, sleeps: &[] });
        assert_eq!(quick.settle(t("pipe")), Settle::NONE);
        assert_eq!(quick.settle(t("shell8")).secs(), 0.5);
        assert!(!quick.settle(t("fsdisk")).sync, "fstime settles itself");
        assert_eq!((std.fstime_settle(), quick.fstime_settle()), (None, Some(0.25)));
        assert_eq!(Policy::Short { secs: 15, iterations: None }.fstime_settle(), Some(1.0));
        let one = Policy::Short { secs: 1, iterations: None };
        assert_eq!(one.fstime_settle(), Some(0.1), "at least a tenth of a second");
        // fstime's 15 s of settles and priming shrink with its settle: 1 + 15 x 0.1 / 2.
        assert_eq!(one.nominal_secs(t("fstime")), 1.75);
        assert_eq!(std.nominal_secs(t("fstime")), 45.0);
        assert_eq!(one.nominal_secs(t("whetstone-double")), 2.0, "whetstone follows -t");
        // The standard index at 1 copy: dhry2reg is 10 x (3 + 10) s, shell8 3 x (3 + 60) s.
        assert_eq!(standard_secs(t("dhry2reg")), 130.0);
        assert_eq!(standard_secs(t("shell8")), 189.0);
        assert_eq!(short.pass_secs(t("dhry2reg")), 2.0);
        // A quick pass: a twentieth of the standard duration, fstime's overhead shrunk with its
        // settle (15 x 0.25 / 2), and the cost of a pass.
        assert_eq!(quick.nominal_secs(t("dhry2reg")), 1.0);
        assert_eq!(quick.nominal_secs(t("fstime")), 2.0 + 1.875);
        assert_eq!(quick.nominal_secs(t("shell8")), 3.0);
        assert_eq!(quick.pass_secs(t("shell8")), 3.5 + quick::PASS_COST);
        assert_eq!(quick.test_secs(t("dhry2reg")), 3.0 * (1.0 + quick::PASS_COST), "its floor");
    }

    #[test]
    fn a_quick_run_shares_its_budget_and_pays_what_it_took() {
        let floor = 3.0 * (1.0 + quick::PASS_COST);
        let mut q = Policy::Quick(Budget::new(26.0 + 2.0 * floor, 2.0 * floor, 260.0));
        // dhry2reg weighs 130 of 260: its floor and half of the 26 s over the floors, of which
        // half is held back for measuring again.
        assert!((q.begin(t("dhry2reg")).unwrap() - (floor + 6.5)).abs() < 1e-9);
        let left = q.end(floor + 6.5).unwrap();
        assert!((left - (19.5 + floor)).abs() < 1e-9, "{left}");
        let Policy::Quick(b) = q else { panic!() };
        assert!((b.held - 6.5).abs() < 1e-9 && (b.floor, b.weight) == (floor, 130.0), "{b:?}");
        // The next test shares what is left less what is held: its floor and the 13 s over it,
        // half of that held.
        let s = q.begin(t("dhry2reg")).unwrap();
        assert!((s - (floor + 6.5)).abs() < 1e-9, "{s}");
        q.end(floor + 6.5);
        // At the end of the copy count the held seconds are let go, once.
        assert!((q.release_held().unwrap() - 13.0).abs() < 1e-9);
        assert_eq!(q.release_held(), Some(0.0));
        let mut s = Policy::Standard { iterations: None };
        assert_eq!((s.begin(t("pipe")), s.end(5.0), s.release_held()), (None, None, None));
        assert!(!s.should_stop(&[], 1e9, None), "a standard test runs all its passes");
        assert!(s.room_to_remeasure(1e9, None, 0, None), "MAX_REMEASURED alone bounds it");
        assert!(!q.room_to_remeasure(0.0, None, 3, Some(10.0)), "no pass to judge the cost by");
    }

    #[test]
    fn rounds_share_the_budget_among_their_tests_as_a_run_test_by_test_would() {
        let floor = 3.0 * (1.0 + quick::PASS_COST);
        let budget = || Policy::Quick(Budget::new(26.0 + 2.0 * floor, 2.0 * floor, 260.0));
        let mut q = budget();
        let b = q.begin_rounds(&[t("dhry2reg"), t("dhry2reg")]);
        // Each its floor and half of its half of the 26 s over the floors; the rest held.
        for s in &b {
            assert!((s.unwrap() - (floor + 6.5)).abs() < 1e-9, "{b:?}");
        }
        assert!((q.release_held().unwrap() - 13.0).abs() < 1e-9);
        let Policy::Quick(left) = q else { panic!() };
        assert_eq!(left.left, 26.0 + 2.0 * floor, "nothing paid before the rounds run");
        assert_eq!(Policy::Standard { iterations: None }.begin_rounds(&[t("pipe")]), [None]);
    }
}
