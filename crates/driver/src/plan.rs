//! The plan of a run: which tests, at which copy counts, under which [`Policy`], decided once
//! from the command line and the CPUs this process may use, before anything runs.

use super::options::{Options, Quick};
use super::policy::{standard_secs, Budget, Policy};
use crate::error::Error;
use crate::model::Category;
use crate::quick;
use crate::suite::{self, Test};
use base::version::Semantics;
use std::fmt::Write;

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub tests: Vec<&'static Test>,
    /// The copy counts, in order.
    pub copies: Vec<usize>,
    pub policy: Policy,
    /// Whose semantics the run follows: 5.1.3's cap the system and misc tests' copies.
    pub semantics: Semantics,
    /// The seconds the plan is estimated to take: its passes x (settle + nominal duration), or
    /// a quick run's budget.
    pub secs: f64,
    /// The standard time of the plan's tests, which a quick run's budget is shared out by.
    pub standard: f64,
    /// Whether the passes run in rounds (`--rounds`, `--seed`; a quick run's default).
    pub rounds: bool,
}

impl Plan {
    /// The plan `o` asks for. `cpus` is what this process may use (`cpulimit`), for Run's
    /// default copies: 1, then one per CPU. A `--quick` budget too small for every test's
    /// `quick::MIN_PASSES` is refused, naming the smallest that is enough.
    pub fn resolve(o: &Options, cpus: Option<usize>) -> Result<Plan, Error> {
        let semantics = o.semantics();
        let copies = if o.copies.is_empty() {
            let mut c = vec![1];
            c.extend(cpus.map(|n| default_copies(n, semantics)).filter(|&n| n > 1));
            c
        } else {
            o.copies.clone()
        };
        let tests =
            o.tests.iter().map(|t| suite::test(t).expect("options expand only known tests")).collect();
        let policy = match o.duration {
            Some(secs) => Policy::Short { secs, iterations: o.iterations },
            None => Policy::Standard { iterations: o.iterations },
        };
        let rounds = o.rounds.unwrap_or(o.quick.is_some() || o.seed.is_some());
        let mut plan = Plan { tests, copies, policy, semantics, secs: 0.0, standard: 0.0, rounds };
        plan.standard = plan.entries().iter().map(|(_, t)| standard_secs(t)).sum();
        plan.secs = plan.entries().iter().map(|(_, t)| plan.policy.test_secs(t)).sum();
        if let Some(q) = o.quick {
            plan.go_quick(q)?;
        }
        Ok(plan)
    }

    /// Makes this a quick run of budget `q`, shared out test by test as the run goes; the
    /// default budget is raised to the smallest one where that is more.
    fn go_quick(&mut self, q: Quick) -> Result<(), Error> {
        let quick = Policy::Quick(Budget::new(0.0, 0.0, self.standard));
        let floor = quick::min_budget(self.entries().iter().map(|(_, t)| quick.pass_secs(t)));
        // Whole seconds, up: a budget of that many seconds is enough.
        let min = floor.ceil();
        let total = match q {
            Quick::Tenth => (quick::DEFAULT_FRACTION * self.standard).max(min),
            Quick::Seconds(s) if f64::from(s) < min => {
                return Err(Error::usage(format!(
                    "--quick={s}: too small a budget for this plan; every test needs {} passes, \
                     so at least --quick={min}",
                    quick::MIN_PASSES
                )))
            }
            Quick::Seconds(s) => f64::from(s),
        };
        self.policy = Policy::Quick(Budget::new(total, floor, self.standard));
        self.secs = total;
        Ok(())
    }

    /// Each (copies, test) the plan runs, in order: every test at the first copy count, then
    /// at the next. The graphics tests run at one copy only (Run's maxCopies), and under 5.1.3's
    /// semantics the others at 16 at most. A list, as [`Plan::tests_at`]'s.
    pub fn entries(&self) -> Vec<(usize, &'static Test)> {
        let mut v = Vec::new();
        for &c in &self.copies {
            for t in self.tests_at(c) {
                v.push((c, t));
            }
        }
        v
    }

    /// The tests that run at `copies` copies, in order: a list, not an iterator, whose every
    /// caller's chain of adapters would be code of its own.
    pub fn tests_at(&self, copies: usize) -> Vec<&'static Test> {
        self.tests.iter().copied().filter(|t| fits(t, copies, self.semantics)).collect()
    }

    /// Whether this is UnixBench's full run: the standard index (every test of the `index`
    /// group, Run's durations and passes), which takes the better part of an hour.
    pub fn is_full_index(&self) -> bool {
        let index = suite::expand("index").unwrap_or_default();
        self.policy == Policy::Standard { iterations: None }
            && index.iter().all(|name| self.tests.iter().any(|t| t.name == *name))
    }

    /// The seconds a quick run of this plan would take: `--quick`'s default budget, which
    /// for the index is far above three passes of each test.
    pub fn quick_estimate(&self) -> f64 {
        quick::DEFAULT_FRACTION * self.standard
    }

    /// The quick budget, when this is a quick run.
    pub fn quick_budget(&self) -> Option<f64> {
        matches!(self.policy, Policy::Quick(_)).then_some(self.secs)
    }
}

/// One (copies, test) of a plan as `--dry-run` shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub copies: usize,
    pub test: &'static str,
    /// Its passes: at least `min_passes` and at most `passes` (a quick test stops when its
    /// interval is tight enough or its share of the budget is spent).
    pub min_passes: usize,
    pub passes: usize,
    /// The seconds of one pass, and of the settle before it (None: no sync, no sleep).
    pub secs: f64,
    pub settle: Option<f64>,
    /// The test's estimated seconds.
    pub estimate: f64,
}

/// A plan laid out as `--dry-run` shows it: its rows, and the seconds a quick run holds back
/// from their shares to measure tests again at the end of each copy count
/// (`Policy::release_held`; none in other runs).
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub rows: Vec<Row>,
    pub again: f64,
}

impl Layout {
    /// The estimated seconds of the whole plan: its rows and the second visits.
    pub fn total(&self) -> f64 {
        self.rows.iter().map(|r| r.estimate).sum::<f64>() + self.again
    }
}

impl Plan {
    /// The kind of run, in words.
    pub fn kind_in_words(&self) -> String {
        match &self.policy {
            Policy::Standard { iterations: None } => {
                "a standard run (Run's durations, passes and settles)".into()
            }
            Policy::Standard { iterations: Some(n) } => format!("a standard run with -i {n}"),
            Policy::Short { secs, .. } => {
                format!("a short run: -t {secs}, not comparable with standard runs")
            }
            Policy::Quick(_) => format!(
                "a quick run: each test runs {} passes, then stops when its interval is within \
                 +-{}% or its share of the {:.0} s budget is spent",
                quick::MIN_PASSES,
                quick::TARGET * 100.0,
                self.secs
            ),
        }
    }

    /// Each (copies, test) with its passes, durations, settle and estimate, and the seconds
    /// held for second visits. A quick run's tests are estimated as the run shares its budget
    /// out: each the passes its share pays for (fewer if its interval is tight sooner), what it
    /// leaves going to the tests after it.
    pub fn lay_out(&self) -> Layout {
        let mut policy = self.policy.clone();
        let (mut rows, mut again) = (Vec::new(), 0.0);
        for &c in &self.copies {
            for t in self.tests_at(c) {
                let settle = policy.settle(t);
                let secs = policy.nominal_secs(t);
                let (min_passes, passes, estimate) = expect(&mut policy, t);
                let settle = settle.sync.then(|| settle.secs());
                rows.push(Row { copies: c, test: t.name, min_passes, passes, secs, settle, estimate });
            }
            let held = policy.release_held().unwrap_or(0.0);
            policy.end(held);
            again += held;
        }
        Layout { rows, again }
    }

    /// The estimated seconds of the whole plan.
    pub fn estimate(&self) -> f64 {
        self.lay_out().total()
    }

    /// What `--dry-run` prints: the kind of run, then per copy count and test its passes, the
    /// seconds of each and its settle, its estimated time, and the estimated time of the whole.
    pub fn describe(&self) -> String {
        let under = match self.semantics {
            Semantics::V6 => String::new(),
            v => format!(", under UnixBench {}'s semantics", v.release()),
        };
        let mut s = format!(
            "Plan: {}{under}\n\n  copies  test               passes  seconds  settle  estimate\n",
            self.kind_in_words()
        );
        let layout = self.lay_out();
        for r in &layout.rows {
            let passes = if r.min_passes < r.passes {
                format!("{}-{}", r.min_passes, r.passes)
            } else {
                r.passes.to_string()
            };
            let settle = r.settle.map_or("-".into(), |x| format!("{x:.1} s"));
            let est = crate::fmt::duration(r.estimate);
            let _ = writeln!(
                s,
                "  {:>6}  {:<17}  {passes:>6}  {:>7.0}  {settle:>6}  {est}",
                r.copies, r.test, r.secs
            );
        }
        if layout.again > 0.0 {
            let _ = writeln!(
                s,
                "  then, at each copy count, the tests disturbed or not yet within +-{}% measured \
                 again: {} in all",
                quick::TARGET * 100.0,
                crate::fmt::duration(layout.again)
            );
        }
        let total = layout.total();
        let human = crate::fmt::duration(total);
        // The seconds in brackets only where the words rounded them.
        let exact = format!("{total:.0} s");
        let _ = if human == exact {
            writeln!(s, "\nEstimated time: {human}")
        } else {
            writeln!(s, "\nEstimated time: {human} ({exact})")
        };
        s
    }
}

/// The passes test `t` gets under `policy` (a quick one's as a range: it may stop once its
/// interval is tight) and their estimated seconds; a quick test's share taken out of the budget.
fn expect(policy: &mut Policy, t: &Test) -> (usize, usize, f64) {
    let Some(share) = policy.begin(t) else {
        let n = policy.passes(t);
        return (n, n, policy.test_secs(t));
    };
    let n = policy.planned_passes(t, Some(share));
    let secs = n as f64 * policy.pass_secs(t);
    policy.end(secs);
    (quick::MIN_PASSES.min(n), n, secs)
}

/// Whether test `t` runs at `copies` copies: the graphics tests are single-copy only; under
/// 5.1.3's semantics the others leave out every count above 16, as 5.1.3's Run did.
pub fn fits(t: &Test, copies: usize, semantics: Semantics) -> bool {
    max_copies(t.category, semantics).map_or(true, |m| copies <= m)
}

/// 5.1.3's `maxCopies` of the system and misc categories (docs/ORIGINAL.md, "Categories").
pub const V513_MAX_COPIES: usize = 16;

/// A category's copy limit (Run's maxCopies).
fn max_copies(c: Category, semantics: Semantics) -> Option<usize> {
    match (c, semantics) {
        (Category::TwoD | Category::ThreeD, _) => Some(1),
        (Category::System | Category::Misc, Semantics::V6) => None,
        (Category::System | Category::Misc, Semantics::V513) => Some(V513_MAX_COPIES),
    }
}

/// The default multi-copy count on `cpus` CPUs: one per CPU, and under 5.1.3's semantics at
/// most 16, the most 5.1.3 runs its system tests at (its own default on a larger host ran
/// none of them: an empty block, no figure to place the host by).
fn default_copies(cpus: usize, semantics: Semantics) -> usize {
    match semantics {
        Semantics::V6 => cpus,
        Semantics::V513 => cpus.min(V513_MAX_COPIES),
    }
}

/// The time-left hint: the planned seconds not yet spent. A pass spends its share; a test that
/// stops early gives back the passes it will not run; a quick run follows its budget.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    pub left: f64,
}

impl Estimate {
    pub fn spend(&mut self, secs: f64) {
        self.left -= secs;
    }

    /// A quick run: what its budget has left, if it is one.
    pub fn follow(&mut self, budget_left: Option<f64>) {
        if let Some(b) = budget_left {
            self.left = b;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{self, Parsed};
    use crate::policy::standard_secs;

    fn plan(args: &[&str], cpus: Option<usize>) -> Plan {
        match options::parse(args.iter().map(Into::into).collect()).unwrap() {
            Parsed::Run(o) => Plan::resolve(&o, cpus).unwrap(),
            _ => panic!(),
        }
    }

    #[test]
    fn copies_default_to_one_then_the_cpus() {
        assert_eq!(plan(&[], Some(4)).copies, [1, 4]);
        assert_eq!(plan(&[], Some(1)).copies, [1]);
        assert_eq!(plan(&[], None).copies, [1]);
        assert_eq!(plan(&["-c", "3", "-c", "1"], Some(8)).copies, [3, 1]);
    }

    #[test]
    fn the_standard_index_takes_run_s_time() {
        // The index at 1 copy: about 28 minutes (docs/ORIGINAL.md, "Run time").
        let p = plan(&["-c", "1"], None);
        assert_eq!(p.policy, Policy::Standard { iterations: None });
        let by_hand: f64 = p.tests.iter().map(|t| standard_secs(t)).sum();
        assert_eq!(p.secs, by_hand);
        assert!((1600.0..1800.0).contains(&p.secs), "{}", p.secs);
        let q = plan(&["-c", "1", "--quick"], None);
        assert_eq!(q.quick_budget(), Some(quick::DEFAULT_FRACTION * p.secs));
        let s = plan(&["-c", "1", "-t", "1", "-i", "1"], None);
        assert_eq!(s.policy, Policy::Short { secs: 1, iterations: Some(1) });
        assert!(s.secs < p.secs / 10.0, "{}", s.secs);
    }

    #[test]
    fn a_dry_run_describes_every_entry_and_the_total() {
        let p = plan(&["-c", "1", "-c", "2", "pipe", "shell8"], None);
        let d = p.describe();
        assert!(d.starts_with("Plan: a standard run"), "{d}");
        assert_eq!(d.lines().filter(|l| l.contains(" pipe ") || l.contains(" shell8 ")).count(), 4, "{d}");
        assert!(d.contains("       1  pipe                   10       10   3.0 s  2 min"), "{d}");
        // pipe 10 x 13 s and shell8 3 x 63 s, twice: 638 s.
        assert!(d.ends_with("Estimated time: 11 min (638 s)\n"), "{d}");
        let q = plan(&["--quick=60", "pipe"], None).describe();
        assert!(
            q.contains("60 s budget") && q.contains("  3-30  ") && q.ends_with("Estimated time: 60 s\n"),
            "{q}"
        );
        // Half of what pipe's share gives beyond its three passes is held back to measure it
        // again: (60 - 3 x 1.05) / 2.
        assert!(
            q.contains("\n  then, at each copy count, the tests disturbed or not yet within +-1% measured again: 28 s in all\n"),
            "{q}"
        );
    }

    fn refusal(args: &[&str]) -> String {
        match options::parse(args.iter().map(Into::into).collect()).unwrap() {
            Parsed::Run(o) => Plan::resolve(&o, Some(2)).unwrap_err().to_string(),
            _ => panic!(),
        }
    }

    #[test]
    fn a_quick_budget_below_three_passes_of_every_test_is_refused() {
        // The index at 1 and 2 copies: 24 tests, each 3 quick passes and their settles.
        let p = plan(&["--quick=1000"], Some(2));
        let Policy::Quick(b) = p.policy else { panic!() };
        let by_hand: f64 = p.entries().iter().map(|(_, t)| 3.0 * p.policy.pass_secs(t)).sum();
        assert!((b.floor - by_hand).abs() < 1e-9, "{} {by_hand}", b.floor);
        let min = by_hand.ceil();
        assert!((150.0..400.0).contains(&min), "{min}");
        let e = refusal(&["--quick=10"]);
        assert_eq!(
            e,
            format!("--quick=10: too small a budget for this plan; every test needs 3 passes, so at least --quick={min}")
        );
        assert!(refusal(&[&format!("--quick={}", min - 1.0)]).contains(&format!("--quick={min}")));
        assert!(Plan::resolve(&run_opts(&[&format!("--quick={min}")]), Some(2)).is_ok());
        // The default budget is never below it: 2d-rects's 40 s pass cannot be shortened, and a
        // tenth of its standard 129 s would not pay for one.
        assert_eq!(plan(&["--quick", "2d-rects"], None).secs, (3.0 * (40.0 + quick::PASS_COST)).ceil());
        assert_eq!(plan(&["--quick", "pipe"], None).secs, quick::DEFAULT_FRACTION * 130.0);
        // Every test's share of the smallest budget pays for its three passes, and the dry run
        // estimates the whole budget.
        let d = plan(&[&format!("--quick={min}")], Some(2)).describe();
        assert_eq!(
            d.lines().filter(|l| l.starts_with("       ") && l.contains("       3  ")).count(),
            24,
            "{d}"
        );
    }

    fn run_opts(args: &[&str]) -> Options {
        match options::parse(args.iter().map(Into::into).collect()).unwrap() {
            Parsed::Run(o) => *o,
            _ => panic!(),
        }
    }

    #[test]
    fn graphics_run_at_one_copy_only() {
        let p = plan(&["-c", "1", "-c", "2", "2d-rects", "pipe"], None);
        let e: Vec<(usize, &str)> = p.entries().iter().map(|&(c, t)| (c, t.name)).collect();
        assert_eq!(e, [(1, "2d-rects"), (1, "pipe"), (2, "pipe")]);
        assert!(fits(suite::test("pipe").unwrap(), 1000, Semantics::V6));
        assert_eq!(max_copies(Category::TwoD, Semantics::V6), Some(1));
        assert_eq!(max_copies(Category::System, Semantics::V6), None);
    }

    #[test]
    fn under_5_1_3_the_system_and_misc_tests_run_at_16_copies_at_most() {
        // 17 CPUs visible: 6.0 runs 17 copies, 5.1.3 16.
        assert_eq!(plan(&[], Some(17)).copies, [1, 17]);
        assert_eq!(plan(&["--semantics", "5.1.3"], Some(17)).copies, [1, 16]);
        assert_eq!(plan(&["--semantics", "5.1.3"], Some(8)).copies, [1, 8]);
        // Asked for 17, 5.1.3 leaves every system and misc test out of that count, as its Run did.
        let p = plan(&["--semantics", "5.1.3", "-c", "16", "-c", "17", "pipe", "arithoh"], None);
        let e: Vec<(usize, &str)> = p.entries().iter().map(|&(c, t)| (c, t.name)).collect();
        assert_eq!(e, [(16, "pipe"), (16, "arithoh")]);
        let p = plan(&["-c", "17", "pipe"], None);
        assert_eq!(p.entries().len(), 1);
    }
}
