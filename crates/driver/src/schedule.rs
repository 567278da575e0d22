//! The order of a run: every test at each copy count, back to back as Run runs them or in
//! rounds (one pass of every test per round, in a shuffled order), then a quick run's second
//! visits; what each test runs (its command line in the work directory).

use crate::exec::Prepared;
use crate::model::{CopyRun, Run, TestResult};
use crate::output::Expected;
use crate::passes::{InRounds, Runner, Step};
use crate::plan::Plan;
use crate::policy::Policy;
use crate::suite::{Arg, Kind, Test};
use crate::workdir::WorkDir;
use crate::{hosttools, options, quick, score, signals, suite, sys};
use base::version::Semantics;
use std::ffi::OsString;

/// Runs every (copies, test) of the plan into `run`, saving the report after each test.
/// Returns the signal that stopped it, if one did.
pub(crate) fn run_plan(plan: &Plan, runner: &mut Runner, workdir: &WorkDir, run: &mut Run) -> Option<i32> {
    let mut rng = run.settings.seed.map(|s| oorandom::Rand64::new(u128::from(s)));
    if let Some(seed) = run.settings.seed {
        runner.log(&format!(
            "** rounds, seed {seed}: each round one pass of every test, in a shuffled order\n"
        ));
    }
    for &c in &plan.copies {
        runner.console.run_with(c);
        let now = sys::clock::time();
        run.runs.push(CopyRun { copies: c, start: now, end: now, ..Default::default() });
        if let Some(rng) = rng.as_mut() {
            if !run_rounds(plan, runner, workdir, run, rng) {
                return Some(runner.exec.caught().unwrap_or(libc::SIGINT));
            }
            continue;
        }
        for t in plan.tests_at(c) {
            let result = run_test(runner, workdir, t, c);
            let cr = run.runs.last_mut().unwrap();
            cr.end = sys::clock::time();
            let Some(r) = result else {
                return Some(runner.exec.caught().unwrap_or(libc::SIGINT));
            };
            // As Run: a test named twice keeps its last result.
            cr.results.retain(|x| x.name != r.name);
            cr.results.push(r);
            cr.index = score::index_blocks(&cr.results);
            runner.save(run);
        }
        if !second_visits(runner, workdir, run) {
            return Some(runner.exec.caught().unwrap_or(libc::SIGINT));
        }
        run.runs.last_mut().unwrap().end = sys::clock::time();
    }
    None
}

/// The tests of the copy count begun last, in rounds: each round one pass of every test that
/// wants one (`Runner::wants_round`), in an order shuffled afresh from `rng`, logged; the
/// console says the plan, the round under way of how many, and each round's end. A quick
/// run's rounds go on until `quick::rounds_done` (its tests' shares and what it held back for
/// second visits are one budget), the others until every test has its passes. Each test is
/// scored after the last round, and the report saved. False when a signal stopped them: each
/// test then keeps the passes of the rounds it finished (a test with none is reported as not
/// run), so a stop loses nothing measured.
fn run_rounds(
    plan: &Plan,
    runner: &mut Runner,
    workdir: &WorkDir,
    run: &mut Run,
    rng: &mut oorandom::Rand64,
) -> bool {
    let c = run.runs.last().unwrap().copies;
    let planned = plan.tests_at(c);
    let budgets = runner.policy.begin_rounds(&planned);
    let mut tests: Vec<InRounds> =
        planned.iter().zip(budgets).map(|(t, b)| runner.open_rounds(t, c, b)).collect();
    let budget = rounds_budget(runner, &tests);
    let began = runner.exec.now();
    let of = expected(runner, &tests, budget, 0, 0.0);
    runner.console.rounds_plan(tests.len(), c, of, budget, runner.estimate.left);
    let mut stopped = false;
    'rounds: for round in 1.. {
        let mut order = wanting_a_round(runner, &tests);
        if order.is_empty() {
            break;
        }
        shuffle(&mut order, rng);
        let of = expected(runner, &tests, budget, round - 1, runner.exec.now() - began);
        begin_round(runner, &tests, &order, round, of);
        for i in order {
            if round_pass(runner, workdir, &mut tests[i], round) == Step::Interrupted {
                stopped = true;
                break 'rounds;
            }
        }
        let spent = runner.exec.now() - began;
        let running = still_in(&tests);
        let done = budget.is_some_and(|b| quick::rounds_done(&running, round, spent, b));
        round_end(runner, &tests, budget, spent, round, done);
        if done {
            break;
        }
    }
    // Stopped or done, every test keeps the passes it finished, scored as passes are.
    if stopped {
        keep_what_was_measured(runner, &mut tests);
    }
    let cr = run.runs.last_mut().unwrap();
    cr.results = tests.into_iter().map(|s| runner.close_rounds(s)).collect();
    // Each test's statistics, once its rounds are done.
    for r in &cr.results {
        runner.console.stats(r);
    }
    cr.index = score::index_blocks(&cr.results);
    cr.end = sys::clock::time();
    if stopped {
        runner.interrupted();
    }
    runner.save(run);
    !stopped
}

/// Round `round` begins, its tests in `order`: logged, and said of the rounds expected (`of`).
fn begin_round(runner: &mut Runner, tests: &[InRounds], order: &[usize], round: usize, of: Expected) {
    let mut line = format!("** round {round}:");
    for &i in order {
        line.push(' ');
        line.push_str(tests[i].test.name);
    }
    line.push('\n');
    runner.log(&line);
    runner.console.round_begins(round, of);
}

/// The rounds a copy count is expected to take, `done` of them run in `spent` seconds: a quick
/// run's estimate from its `budget` (`quick::rounds_expected`, a round first estimated as its
/// tests' passes), the others' exactly, the most passes a test gets (one more round for each
/// disturbed pass measured again, the round under way never passed).
fn expected(runner: &Runner, tests: &[InRounds], budget: Option<f64>, done: usize, spent: f64) -> Expected {
    let (mut most, mut round_secs) = (done + 1, 0.0);
    for s in tests {
        most = most.max(runner.policy.passes(s.test));
        round_secs += runner.policy.pass_secs(s.test);
    }
    match budget {
        Some(b) => Expected { rounds: quick::rounds_expected(done, spent, b, round_secs), exact: false },
        None => Expected { rounds: most, exact: true },
    }
}

/// Round `round` said over, `spent` seconds into the rounds of a quick run's `budget`: the
/// passes it ran, how many were disturbed (set aside or not), the rounds now expected, exactly
/// `round` when it was the last (`done`, or no test wants another); a quick run's time left
/// follows its budget.
fn round_end(
    runner: &mut Runner,
    tests: &[InRounds],
    budget: Option<f64>,
    spent: f64,
    round: usize,
    done: bool,
) {
    let of = if done || !tests.iter().any(|s| runner.wants_round(s)) {
        Expected { rounds: round, exact: true }
    } else {
        expected(runner, tests, budget, round, spent)
    };
    let (mut passes, mut disturbed) = (0, 0);
    for r in tests.iter().map(|s| &s.r) {
        for p in &r.passes {
            if p.round == Some(round) {
                passes += 1;
                disturbed += usize::from(r.pass_disturbance(p).is_some());
            }
        }
        for x in &r.replaced {
            if x.pass.round == Some(round) {
                (passes, disturbed) = (passes + 1, disturbed + 1);
            }
        }
    }
    runner.estimate.follow(runner.policy.budget_left(spent));
    runner.console.round_end(round, of, (passes, disturbed), runner.estimate.left);
}

/// The tests (by index) that want another round.
fn wanting_a_round(runner: &Runner, tests: &[InRounds]) -> Vec<usize> {
    let mut order = Vec::new();
    for (i, s) in tests.iter().enumerate() {
        if runner.wants_round(s) {
            order.push(i);
        }
    }
    order
}

/// The results of the tests still in the rounds.
fn still_in(tests: &[InRounds]) -> Vec<&TestResult> {
    let mut running = Vec::new();
    for s in tests.iter().filter(|s| !s.out) {
        running.push(&s.r);
    }
    running
}

/// A quick run's one budget for its rounds: every test's share, then what the run held back
/// for second visits; None in the other runs, whose tests have no share.
fn rounds_budget(runner: &mut Runner, tests: &[InRounds]) -> Option<f64> {
    let mut budget = Some(0.0);
    for s in tests {
        budget = budget.zip(s.budget()).map(|(a, b)| a + b);
    }
    budget.map(|b| b + runner.policy.release_held().unwrap_or(0.0))
}

/// After a stop during rounds: a test with no pass kept gets back the passes set aside as
/// disturbed, waiting for rounds that will not come (the report says they were disturbed);
/// one with none at all is said stopped before its first pass.
fn keep_what_was_measured(runner: &Runner, tests: &mut [InRounds]) {
    let sig = signals::name(runner.exec.caught().unwrap_or(libc::SIGINT));
    for s in tests.iter_mut().filter(|s| s.r.passes.is_empty() && s.r.skipped.is_none()) {
        // In the order they ran: the earliest left each time (no two share a number).
        let mut back = std::mem::take(&mut s.r.replaced);
        while let Some(k) = (0..back.len()).min_by_key(|&k| back[k].number) {
            s.r.passes.push(back.remove(k).pass);
        }
        if s.r.passes.is_empty() {
            s.r.error.get_or_insert_with(|| format!("stopped by {sig} before its first pass"));
        }
    }
}

/// One pass of `s` in `round`, with the work directory holding its files while it runs.
fn round_pass(runner: &mut Runner, workdir: &WorkDir, s: &mut InRounds, round: usize) -> Step {
    match with_files(runner, workdir, s.test) {
        Ok(Ok((p, _files))) => runner.round_pass(s, &p, round),
        Ok(Err(why)) => {
            runner.out_of_rounds(s, None, Some(why));
            Step::Skipped
        }
        Err(e) => {
            runner.out_of_rounds(s, Some(e.to_string()), None);
            Step::Stop
        }
    }
}

/// Fisher-Yates, from `rng`: the same seed gives the same orders.
pub(crate) fn shuffle(v: &mut [usize], rng: &mut oorandom::Rand64) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.rand_range(0..(i as u64 + 1)) as usize);
    }
}

/// A seed for the rounds' orders when `--seed` gives none: the clock's nanoseconds and the
/// process id, which differ from run to run.
pub(crate) fn fresh_seed() -> u64 {
    let t = sys::clock::gettimeofday();
    // 53 bits: the results JSON keeps it as a number, which readers hold as a double.
    ((t.fract() * 1e9) as u64 ^ (t as u64) << 20 ^ u64::from(std::process::id()) << 30) & options::MAX_SEED
}

/// A quick run's second visits, once every test at a copy count has run: the seconds held back
/// from their shares (`Policy::release_held`) go to the tests `quick::due_again` names, each
/// measured again (`Runner::revisit`) in turn: first what setting aside its disturbed passes
/// costs to each test that has them, as far as the seconds go, then the rest to the tests whose
/// interval is loose, in proportion to their three passes' seconds (`quick::share_again`).
/// False when a signal stopped one.
fn second_visits(runner: &mut Runner, workdir: &WorkDir, run: &mut Run) -> bool {
    let Some(mut pool) = runner.policy.release_held() else { return true };
    let policy = &runner.policy;
    let pass_secs = |r: &TestResult| suite::test(&r.name).map_or(0.0, |t| policy.pass_secs(t));
    let due = quick::due_again(&run.runs.last().unwrap().results, pass_secs);
    if !due.is_empty() && pool > 0.0 {
        runner.console.again_begins(due.len(), runner.estimate.left);
    }
    let mut weights: f64 = due.iter().filter(|d| d.is_loose()).map(|d| d.weight).sum();
    for d in due {
        let cr = run.runs.last_mut().unwrap();
        let Some(t) = suite::test(&cr.results[d.index].name) else { continue };
        let share = quick::share_again(pool, &d, weights);
        if d.is_loose() {
            weights -= d.weight;
        }
        let spent = revisit_test(runner, workdir, t, &mut cr.results[d.index], share);
        cr.end = sys::clock::time();
        let Some(spent) = spent else { return false };
        pool -= spent;
        cr.index = score::index_blocks(&cr.results);
        runner.save(run);
    }
    true
}

/// Test `t`'s second visit, `r` its result so far, in `share` seconds: none when they would
/// not pay for a pass, or its files cannot be provided again. The seconds it took; None when
/// a signal stopped it.
fn revisit_test(
    runner: &mut Runner,
    workdir: &WorkDir,
    t: &Test,
    r: &mut TestResult,
    share: f64,
) -> Option<f64> {
    if share < runner.policy.pass_secs(t) {
        return Some(0.0);
    }
    match with_files(runner, workdir, t) {
        Ok(Ok((p, _files))) => runner.revisit(t, &p, r, share),
        Ok(Err(_)) | Err(_) => Some(0.0),
    }
}

/// One test at `copies` copies. None when a signal stopped it.
fn run_test(runner: &mut Runner, workdir: &WorkDir, t: &'static Test, copies: usize) -> Option<TestResult> {
    match with_files(runner, workdir, t) {
        Ok(Ok((p, _files))) => runner.run_passes(t, copies, &p),
        Ok(Err(why)) => Some(runner.not_run(t, copies, None, Some(why))),
        Err(e) => Some(runner.not_run(t, copies, Some(e.to_string()), None)),
    }
}

/// A test's files in the work directory, removed when this is dropped.
struct Files<'w>(&'w WorkDir, &'static str);

impl Drop for Files<'_> {
    fn drop(&mut self) {
        self.0.release(self.1);
    }
}

/// Test `t` as prepared, with the work directory holding the files it reads while the
/// returned [`Files`] live (and only then); why it is skipped when it cannot be prepared, or why
/// its files could not be provided.
fn with_files<'w>(
    runner: &Runner,
    workdir: &'w WorkDir,
    t: &Test,
) -> std::io::Result<std::result::Result<(Prepared<'w>, Files<'w>), String>> {
    workdir.provide(t.name)?;
    let files = Files(workdir, t.name);
    // A test that will run has its host programs checked first; one skipped, not.
    Ok(match prepare(t, &runner.policy, runner.semantics, workdir) {
        Ok(p) => {
            crate::hostcheck::once(t.name, workdir)?;
            Ok((p, files))
        }
        Err(why) => Err(why),
    })
}

/// What a test runs under `policy`, or why it is skipped. Each kernel copy works in a
/// directory of its own, which the file tests' `-d WORKDIR` names for it (`exec::Command`),
/// but under 5.1.3's semantics in the one they all share, as 5.1.3's fstime copies shared
/// their files; the host tests in the work directory, where their scripts are.
pub(crate) fn prepare<'w>(
    t: &Test,
    policy: &Policy,
    semantics: Semantics,
    workdir: &'w WorkDir,
) -> std::result::Result<Prepared<'w>, String> {
    let secs = |s: u32| policy.secs(t, s);
    let words = |prog: &str, args: &[Arg]| kernel_argv(t, prog, args, policy);
    let cwd = workdir.dir();
    match t.kind {
        Kind::Kernel { prog, args } => {
            let own_dirs = semantics == Semantics::V6;
            Ok(Prepared { argv: words(prog, args), cwd, own_dirs, planned: None })
        }
        Kind::Graphics { prog, args } if cfg!(feature = "graphics") => {
            Ok(Prepared { argv: words(prog, args), cwd, own_dirs: true, planned: None })
        }
        Kind::Graphics { .. } => Err("this binary was built without graphics".into()),
        Kind::Host { secs: s } => {
            let argv = hosttools::host_test(t.name, workdir, secs(s)).map_err(|skip| skip.0)?;
            Ok(Prepared { argv, cwd, own_dirs: false, planned: None })
        }
    }
}

/// A kernel's argv under `policy`: `prog`, then its arguments with each standard duration
/// mapped to the one this run passes, `.` for the file tests' directory (the copy's working
/// directory), and the words only a short or quick run passes (none in a standard run: its
/// argv is Run's).
pub(crate) fn kernel_argv(t: &Test, prog: &str, args: &[Arg], policy: &Policy) -> Vec<OsString> {
    let mut argv = vec![OsString::from(prog)];
    let settle = policy.fstime_settle();
    for a in args {
        match a {
            Arg::Lit(s) => argv.push(s.into()),
            Arg::Secs(s) => argv.push(policy.secs(t, *s).to_string().into()),
            Arg::TmpDir => argv.push(".".into()),
            Arg::ShortSecs(s) if settle.is_some() => argv.push(policy.secs(t, *s).to_string().into()),
            Arg::ShortSettle => {
                if let Some(x) = settle {
                    let x = format!("{x:.2}");
                    argv.extend(["-s".into(), x.trim_end_matches('0').trim_end_matches('.').into()]);
                }
            }
            Arg::ShortSecs(_) => {}
        }
    }
    argv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{policy, suite};

    /// A test's argv as the standard driver (Run's durations, or `-t`) and a quick run build it.
    fn argv(name: &str, duration: Option<u32>, quick: bool) -> Vec<String> {
        let t = suite::test(name).unwrap();
        let Kind::Kernel { prog, args } = t.kind else { panic!("{name}") };
        let policy = match (quick, duration) {
            (true, _) => Policy::Quick(policy::Budget::new(1.0, 0.0, 1.0)),
            (false, Some(secs)) => Policy::Short { secs, iterations: None },
            (false, None) => Policy::Standard { iterations: None },
        };
        kernel_argv(t, prog, args, &policy).iter().map(|w| w.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn a_standard_run_passes_what_run_passes() {
        assert_eq!(argv("whetstone-double", None, false), ["whetstone-double"]);
        // A short run is not Run's: whetstone follows -t, fstime's settles shrink with it.
        assert_eq!(argv("whetstone-double", Some(1), false), ["whetstone-double", "1"]);
        assert_eq!(argv("dhry2reg", None, false), ["dhry2reg", "10"]);
        assert_eq!(
            argv("fstime", None, false),
            ["fstime", "-c", "-t", "30", "-d", ".", "-b", "1024", "-m", "2000"]
        );
        assert_eq!(
            argv("fsdisk-r", Some(2), false),
            ["fstime", "-r", "-t", "2", "-d", ".", "-b", "4096", "-m", "8000", "-s", "0.13"]
        );
        for t in suite::TESTS {
            if let Kind::Kernel { .. } = t.kind {
                let words = argv(t.name, None, false);
                assert!(!words.contains(&"-s".to_string()), "{}: {words:?}", t.name);
            }
        }
    }

    #[test]
    fn a_quick_run_shortens_whetstone_and_the_file_tests_settles() {
        assert_eq!(argv("whetstone-double", None, true), ["whetstone-double", "1"]);
        assert_eq!(
            argv("fstime", None, true),
            ["fstime", "-c", "-t", "2", "-d", ".", "-b", "1024", "-m", "2000", "-s", "0.25"]
        );
        assert_eq!(
            argv("fsbuffer-w", Some(7), true),
            ["fstime", "-w", "-t", "2", "-d", ".", "-b", "256", "-m", "500", "-s", "0.25"]
        );
        assert_eq!(argv("pipe", None, true), ["pipe", "1"]);
        assert_eq!(argv("context1", None, true), ["context1", "3"], "its own floor");
        // fstime settles itself; the host-tool tests get the driver's short settle.
        let q = Policy::Quick(policy::Budget::new(1.0, 0.0, 1.0));
        let settles = |name| q.settle(suite::test(name).unwrap()) != policy::Settle::NONE;
        assert!(!settles("fsdisk"));
        assert!(settles("shell8"));
        assert!(!settles("whetstone-double"));
    }
}
