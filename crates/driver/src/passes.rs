//! One test's passes, as Run's loop: settle, run the copies, read them, and after the last pass
//! score the test. What a pass runs on is behind [`Executor`]: the real one forks the copies
//! (`exec`), and the tests below feed canned copy outcomes, so the loop, the policies and the
//! scoring are checked without a process.

use super::exec::{self, Command, Outcome, Prepared};
use super::noise;
use super::output::{self, Console, Files};
use super::plan::Estimate;
use super::policy::{Policy, Settle};
use super::signals::{self, Watch};
use crate::model::{CopyOutcome, Noise, Replaced, Run, TestResult, MAX_REMEASURED};
use crate::protocol::{self, Verdict};
use crate::quick;
use crate::score;
use crate::suite::{self, Test};
use crate::sys;
use base::version::{Semantics, SEMANTICS_VAR};
use std::ffi::OsString;
use std::io;
use std::path::Path;

/// What the pass loop needs of the world.
pub trait Executor {
    /// Settles as `s` says; false if a signal came first.
    fn settle(&mut self, s: Settle) -> bool;
    /// Runs one pass of `copies` copies of `cmd`; with it, what else the host did meanwhile.
    fn pass(&mut self, cmd: &Command, copies: usize) -> io::Result<(Outcome, Option<Noise>)>;
    /// The signal caught, if any.
    fn caught(&self) -> Option<i32>;
    /// Monotonic seconds.
    fn now(&self) -> f64;
}

/// The real executor: processes, the host's clock, the driver's signal watch.
pub struct Processes<'a> {
    pub watch: &'a Watch,
    /// Whether to read the host's noise around each pass (`UB_NOISE=off` says no, to check that
    /// reading it moves no figure).
    pub noise: bool,
    /// The watchdog's margin, in seconds (`UB_WATCHDOG_MARGIN`).
    pub margin: f64,
}

impl Executor for Processes<'_> {
    fn settle(&mut self, s: Settle) -> bool {
        if s.sync {
            sys::fd::sync();
        }
        for (i, &secs) in s.sleeps.iter().enumerate() {
            if i > 0 && s.sync {
                sys::fd::sync();
            }
            if !self.watch.sleep(secs) {
                return false;
            }
        }
        self.watch.caught().is_none()
    }

    fn pass(&mut self, cmd: &Command, copies: usize) -> io::Result<(Outcome, Option<Noise>)> {
        let roots = noise::Roots::host();
        let before = if self.noise { noise::before(&roots) } else { None };
        let o = exec::run_pass(cmd, copies, self.watch, self.margin)?;
        Ok((o, before.and_then(|b| noise::after(&roots, b))))
    }

    fn caught(&self) -> Option<i32> {
        self.watch.caught()
    }

    fn now(&self) -> f64 {
        sys::clock::monotonic()
    }
}

/// Runs the tests of a plan, holding what every pass needs.
pub struct Runner<'a> {
    pub exe: &'a Path,
    /// How the copies start beyond their argv (an arm's wrapper and environment).
    pub launch: &'a exec::Launch,
    pub exec: &'a mut dyn Executor,
    pub policy: Policy,
    pub console: Console,
    pub files: Option<Files>,
    pub estimate: Estimate,
    /// What could not be saved (a message per file), reported at the end.
    pub lost: Vec<String>,
    /// Whether a disturbed pass is measured again (`--remeasure`, a quick run).
    pub remeasure: bool,
    /// Whose semantics the copies follow: under 5.1.3's, each test's command names it.
    pub semantics: Semantics,
    /// In a run with rounds, where the log's lines go while a test's pass runs: its section,
    /// written whole once its rounds end, so that the log keeps Run's layout.
    pub buffer: Option<String>,
}

/// A test between its rounds: its result so far, its log section, and what it has spent of
/// its budget (a quick run's share).
pub struct InRounds {
    pub test: &'static Test,
    pub r: TestResult,
    log: String,
    budget: Option<f64>,
    pub spent: f64,
    /// It failed or was skipped: no more rounds.
    pub out: bool,
}

impl InRounds {
    /// Its share of a quick run's budget; None in another run.
    pub fn budget(&self) -> Option<f64> {
        self.budget
    }
}

/// How a pass leaves its test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// On to the next pass.
    Next,
    /// No more passes: the test failed, or the copies could not run.
    Stop,
    /// A copy said the test cannot run on this host.
    Skipped,
    /// A signal stopped the run.
    Interrupted,
}

/// What is left of a test's plan after a pass: its passes and the seconds of each.
#[derive(Clone, Copy)]
struct Remaining {
    passes: usize,
    secs: f64,
    /// The test may stop before them (a quick run's).
    at_most: bool,
    /// The pass is one of a round: the console shows the round, not the pass.
    in_round: bool,
}

impl<'a> Runner<'a> {
    pub fn log(&mut self, s: &str) {
        match &mut self.buffer {
            Some(b) => b.push_str(s),
            None => output::log(&mut self.files, s),
        }
    }

    /// Rewrites the report files from the run so far. A file that cannot be written is said
    /// at once (once per file) and again at the end; its last complete version stays.
    pub fn save(&mut self, run: &Run) {
        if let Some(f) = &self.files {
            for e in f.write_reports(run) {
                if !self.lost.contains(&e) {
                    self.console.note(&format!("warning: {e}; the report still goes to stdout"));
                    self.lost.push(e);
                }
            }
        }
    }

    fn result(t: &Test, copies: usize) -> TestResult {
        TestResult {
            name: t.name.to_string(),
            message: t.message.to_string(),
            category: Some(t.category),
            copies,
            busy: suite::BUSY.contains(&t.name),
            ..Default::default()
        }
    }

    /// A test that cannot start: its files could not be written (too little room, a file size
    /// limit) and it fails with the reason, or it cannot run on this host (a missing program)
    /// and is skipped. Alone: the run goes on.
    pub fn not_run(
        &mut self,
        t: &Test,
        copies: usize,
        failed: Option<String>,
        skipped: Option<String>,
    ) -> TestResult {
        let mut r = Self::result(t, copies);
        match (&failed, &skipped) {
            (Some(e), _) => {
                self.console.test(copies, t.message, self.estimate.left);
                self.console.test_end(self.estimate.left);
                self.console.failed(t.message, e);
            }
            (None, Some(why)) => self.console.skipped(copies, t.message, why),
            (None, None) => {}
        }
        // A test not run gives back its planned time; a quick one its share of the budget, and
        // its floor, which would otherwise stay owed and shrink every later second visit.
        if self.policy.begin(t).is_none() {
            self.estimate.spend(self.policy.test_secs(t));
        }
        r.error = failed;
        r.skipped = skipped;
        let s = report::log::test_header(t.message, copies, "(not run)") + &report::log::summary(&r);
        self.log(&s);
        r
    }

    /// Every pass of one test at `copies` copies. None when a signal stopped it. A disturbed
    /// pass measured again makes room for one more.
    pub fn run_passes(&mut self, t: &Test, copies: usize, p: &Prepared) -> Option<TestResult> {
        let mut r = Self::result(t, copies);
        // A quick test runs until its interval is tight or its share of the budget is spent.
        let budget = self.policy.begin(t);
        r.command = self.command_line(p);
        self.console.test(copies, t.message, self.estimate.left);
        let header = report::log::test_header(t.message, copies, &r.command);
        self.log(&header);
        let cmd = self.command(t, p);
        let began = self.exec.now();
        let (npasses, per_pass) = (self.policy.passes(t), self.policy.pass_secs(t));
        let planned = self.policy.planned_passes(t, budget);
        for i in 1.. {
            if r.passes.len() >= npasses {
                break;
            }
            // Pass i of the planned passes, one more for each measured again.
            let of = (planned + r.replaced.len()).max(i);
            let left =
                Remaining { passes: of - i, secs: per_pass, at_most: budget.is_some(), in_round: false };
            match self.pass(t, &cmd, i, left, &mut r) {
                Step::Next => {}
                Step::Stop => break,
                Step::Skipped => return self.skipped(r, began),
                Step::Interrupted => return self.interrupted(),
            }
            let spent = self.exec.now() - began;
            self.replace_disturbed(&mut r, spent, Some(spent / i as f64), budget, MAX_REMEASURED);
            if let Some(b) = budget {
                self.estimate.follow(self.policy.budget_left(spent));
                if self.policy.should_stop(&r.passes, spent, Some(b)) {
                    break;
                }
            }
        }
        let r = self.conclude(t, r, began);
        self.console.stats(&r);
        Some(r)
    }

    /// A quick run's second visit to test `t`, once every test at its copy count has run: `r`
    /// as the first visit left it, `share` seconds of what the run held back. Its disturbed
    /// passes are left out while the share has room for passes in their place (the share
    /// bounds how many, not [`MAX_REMEASURED`]: the disturbance outlasted the first visit), and
    /// passes are run, numbered on from the first visit's, until none disturbed is left in the
    /// score and its interval is tight, or the share is spent (the score keeps three passes at
    /// least and `quick::MAX_PASSES` at most, as on the first visit). Returns the seconds it
    /// took; None when a signal stopped it. A visit that does not finish leaves `r` as the
    /// first visit left it.
    pub fn revisit(&mut self, t: &Test, p: &Prepared, r: &mut TestResult, share: f64) -> Option<f64> {
        let first_visit = r.clone();
        self.console.again(r.copies, t.message, self.estimate.left);
        self.log(&report::log::test_again_header(t.message, r.copies, &r.command));
        let cmd = self.command(t, p);
        let (began, estimate) = (self.exec.now(), self.policy.pass_secs(t));
        let first = r.passes.len() + r.replaced.len() + 1;
        for i in first.. {
            let spent = self.exec.now() - began;
            let cost = if i > first { spent / (i - first) as f64 } else { estimate };
            self.replace_disturbed(r, spent, Some(cost), Some(share), usize::MAX);
            if again_done(r, spent, cost, share) {
                break;
            }
            let fits = ((share - spent) / cost - 1.0).floor().max(0.0) as usize;
            let left = Remaining { passes: fits, secs: cost, at_most: true, in_round: false };
            let why = match self.pass(t, &cmd, i, left, r) {
                Step::Next => continue,
                Step::Interrupted => {
                    *r = first_visit;
                    self.interrupted();
                    return None;
                }
                // A copy failed, or found it cannot run now (its display gone): what the first
                // visit measured stands.
                Step::Stop => r.error.take().unwrap_or_default(),
                Step::Skipped => r.skipped.take().unwrap_or_default(),
            };
            *r = first_visit;
            return Some(self.abandon_again(t, &why, began));
        }
        let spent = self.exec.now() - began;
        *r = self.conclude(t, std::mem::take(r), began);
        self.console.stats(r);
        Some(spent)
    }

    /// What the log's `==>` line and the JSON say the copies ran: under 5.1.3's semantics,
    /// named first.
    fn command_line(&self, p: &Prepared) -> String {
        let words = display(&p.argv);
        match self.semantics {
            Semantics::V513 => format!("{SEMANTICS_VAR}={} {words}", self.semantics.release()),
            Semantics::V6 => words,
        }
    }

    /// Test `t` at `copies` copies, before its first round: its result, and `budget`, its share
    /// of a quick run's (`Policy::begin_rounds`).
    pub fn open_rounds(&mut self, t: &'static Test, copies: usize, budget: Option<f64>) -> InRounds {
        self.console.begin(copies, t.message);
        let r = Self::result(t, copies);
        InRounds { test: t, r, log: String::new(), budget, spent: 0.0, out: false }
    }

    /// Whether `s` takes part in the next round: in a quick run while it runs at all (the
    /// rounds stop together), else while it has fewer scored passes than its kind of run gives.
    pub fn wants_round(&self, s: &InRounds) -> bool {
        !s.out && (s.budget.is_some() || s.r.passes.len() < self.policy.passes(s.test))
    }

    /// One pass of `s` in round `round`, as `p` prepared it: the pass numbered on over every
    /// pass the test ran, its round and start recorded, and a disturbed pass in its score set
    /// aside while its share (or `MAX_REMEASURED`) has room, for a later round to replace.
    pub fn round_pass(&mut self, s: &mut InRounds, p: &Prepared, round: usize) -> Step {
        let t = s.test;
        if s.r.command.is_empty() {
            s.r.command = self.command_line(p);
            s.log = report::log::test_header(t.message, s.r.copies, &s.r.command);
        }
        self.buffer = Some(std::mem::take(&mut s.log));
        // Numbered as the test's every other output counts its passes.
        let number = s.r.passes.len() + s.r.replaced.len() + 1;
        self.console.round(t.name, s.r.copies, t.message, self.estimate.left);
        let cmd = self.command(t, p);
        let (began, start, before) = (self.exec.now(), sys::clock::gettimeofday(), s.r.passes.len());
        let left = Remaining { passes: 0, secs: self.policy.pass_secs(t), at_most: false, in_round: true };
        let step = self.pass(t, &cmd, number, left, &mut s.r);
        s.spent += self.exec.now() - began;
        if s.r.passes.len() > before {
            let last = s.r.passes.last_mut().unwrap();
            (last.round, last.start) = (Some(round), Some(start));
        }
        let limit = if s.budget.is_some() { usize::MAX } else { MAX_REMEASURED };
        let cost = s.spent / number as f64;
        self.replace_disturbed(&mut s.r, s.spent, Some(cost), s.budget, limit);
        s.log = self.buffer.take().unwrap_or_default();
        s.out = step != Step::Next;
        step
    }

    /// A test that cannot take part in a round: its files could not be written (`failed`), or
    /// it cannot run on this host (`skipped`). No more rounds for it; the others go on.
    pub fn out_of_rounds(&mut self, s: &mut InRounds, failed: Option<String>, skipped: Option<String>) {
        let (t, copies) = (s.test, s.r.copies);
        if let Some(e) = &failed {
            self.console.failed(t.message, e);
        }
        (s.r.error, s.r.skipped, s.out) = (failed, skipped, true);
        if s.r.command.is_empty() {
            s.log = report::log::test_header(t.message, copies, "(not run)");
        }
    }

    /// After its last round: `s` scored (or failed, or skipped), its log section written whole,
    /// its time paid out of the budget.
    pub fn close_rounds(&mut self, s: InRounds) -> TestResult {
        let (t, r) = (s.test, s.r);
        self.log(&s.log);
        let ran = r.passes.len() + r.replaced.len();
        self.console.rounds_line(r.copies, t.message, ran, r.skipped.as_deref());
        if r.skipped.is_some() || r.passes.is_empty() {
            self.log(&report::log::summary(&r));
            self.pay(s.spent);
            if r.skipped.is_none() {
                self.console.test_end(self.estimate.left);
            }
            return r;
        }
        self.conclude(t, r, self.exec.now() - s.spent)
    }

    /// A second visit that could not finish, its test's first figure standing: said on the
    /// console and in the log (`compare` then reads the first visit alone), its time paid.
    /// Returns the seconds it took.
    fn abandon_again(&mut self, t: &Test, why: &str, began: f64) -> f64 {
        let spent = self.exec.now() - began;
        self.pay(spent);
        self.console.test_end(self.estimate.left);
        self.console
            .note(&format!("warning: {}: measuring again stopped ({why}); its first figure stands", t.name));
        self.log(&report::log::again_abandoned(why));
        spent
    }

    /// When disturbed passes are measured again: moves each of `r`'s scored passes that was
    /// disturbed out of its score, logged with its number and why, while the test has had
    /// fewer than `limit` and, having spent `spent` of a quick test's `budget` on passes of
    /// `cost` seconds, room for the passes it then needs. The pass loop runs another in its
    /// place.
    fn replace_disturbed(
        &mut self,
        r: &mut TestResult,
        spent: f64,
        cost: Option<f64>,
        budget: Option<f64>,
        limit: usize,
    ) {
        let room = |r: &TestResult, p: &Policy| p.room_to_remeasure(spent, cost, r.passes.len(), budget);
        while self.remeasure && r.replaced.len() < limit && room(r, &self.policy) {
            let found = r.passes.iter().enumerate().find_map(|(k, p)| Some((k, r.pass_disturbance(p)?)));
            let Some((k, why)) = found else { return };
            let number = r.scored_numbers()[k];
            let pass = r.passes.remove(k);
            self.log(&report::log::replaced(number, why));
            r.replaced.push(Replaced { pass, why, number });
        }
    }

    /// Pass `i` of test `t` into `r`: the settle, the copies, their outcome read. `left` is what
    /// the plan gives back when the test stops here.
    fn pass(&mut self, t: &Test, cmd: &Command, i: usize, left: Remaining, r: &mut TestResult) -> Step {
        self.log(&report::log::pass_header(i));
        if !self.exec.settle(self.policy.settle(t)) {
            return Step::Interrupted;
        }
        if !left.in_round {
            self.console.pass(i, i + left.passes, left.at_most, self.estimate.left);
        }
        self.console.command(&r.command, r.copies);
        let outcome = self.exec.pass(cmd, r.copies);
        // This pass is spent; a test that stops here gives back the passes it will not run.
        self.estimate.spend(left.secs);
        let unrun = left.passes as f64 * left.secs;
        let (outcomes, noise) = match outcome {
            Err(e) => {
                self.estimate.spend(unrun);
                r.error = Some(e.to_string());
                return Step::Stop;
            }
            Ok((Outcome::Interrupted, _)) => return Step::Interrupted,
            Ok((Outcome::Done(o), noise)) => (o, noise),
        };
        match first_not_scored(&outcomes) {
            Some((_, Verdict::Skipped(why))) => {
                let why = why.to_string();
                self.console.skipped_now(&why);
                self.estimate.spend(unrun);
                r.skipped = Some(why);
                Step::Skipped
            }
            Some((k, Verdict::Failed(e))) => {
                let copies = r.copies;
                let e = if copies > 1 { format!("copy {} of {copies}: {e}", k + 1) } else { e.to_string() };
                self.keep_pass(outcomes, noise, r);
                self.estimate.spend(unrun);
                r.error = Some(e);
                Step::Stop
            }
            _ => {
                self.console.noise(noise.as_ref());
                self.keep_pass(outcomes, noise, r);
                Step::Next
            }
        }
    }

    /// The copies' outcomes as one pass of `r`, logged.
    fn keep_pass(&mut self, outcomes: Vec<CopyOutcome>, noise: Option<Noise>, r: &mut TestResult) {
        let mut pass = score::combine_copies(outcomes);
        pass.noise = noise;
        self.log(&report::log::pass_footer(&pass));
        r.passes.push(pass);
    }

    /// A test whose copy said it cannot run here: what it took out of the budget paid back.
    fn skipped(&mut self, r: TestResult, began: f64) -> Option<TestResult> {
        self.pay(self.exec.now() - began);
        self.log(&report::log::summary(&r));
        Some(r)
    }

    /// After the last pass (or the failed one): the budget settled, the test scored, logged and
    /// shown.
    fn conclude(&mut self, t: &Test, mut r: TestResult, began: f64) -> TestResult {
        // The hint shows what is left.
        self.pay(self.exec.now() - began);
        self.console.test_end(self.estimate.left);
        if let Some(e) = &r.error {
            self.console.failed(t.message, e);
            self.log(&report::log::summary(&r));
            return r;
        }
        score::score_result(&mut r);
        self.log(&report::log::summary(&r));
        r
    }

    /// The command a pass of `t` runs, as `p` prepared it; its stdout to the log.
    fn command<'c>(&self, t: &Test, p: &'c Prepared) -> Command<'c>
    where
        'a: 'c,
    {
        Command {
            exe: self.exe,
            launch: self.launch,
            test: p,
            stdout: self.files.as_ref().map(|f| f.log_fd()),
            planned: p.planned.unwrap_or_else(|| self.policy.nominal_secs(t)),
            slow: exec::slow_by_nature(t),
        }
    }

    /// A test's time paid, `spent` seconds of it: a quick test pays what it took out of the
    /// budget, and the estimate follows what is left.
    fn pay(&mut self, spent: f64) {
        let left = self.policy.end(spent);
        self.estimate.follow(left);
    }

    pub fn interrupted(&mut self) -> Option<TestResult> {
        let sig = self.exec.caught().unwrap_or(libc::SIGINT);
        self.console.test_stopped();
        self.log(&report::log::interrupted(signals::name(sig)));
        None
    }
}

/// Whether a second visit is done: its score holds no disturbed pass and its interval is
/// tight, or it has three passes and another of `cost` seconds would overrun its `share`
/// (`spent` of it gone), or it has `quick::MAX_PASSES`. Below three it goes on whatever the
/// share, as a first visit does: the tests after it pay for the overrun.
fn again_done(r: &TestResult, spent: f64, cost: f64, share: f64) -> bool {
    let n = r.passes.len();
    let clean = !r.passes.iter().any(|p| r.pass_disturbance(p).is_some());
    let tight = n >= quick::MIN_PASSES && quick::converged(&r.passes, quick::TARGET);
    n >= quick::MAX_PASSES || n >= quick::MIN_PASSES && spent + cost > share || clean && tight
}

/// The first copy that was not scored, with its index and verdict.
fn first_not_scored(outcomes: &[CopyOutcome]) -> Option<(usize, Verdict<'_>)> {
    outcomes.iter().map(protocol::verdict).enumerate().find(|(_, v)| *v != Verdict::Scored)
}

/// A command as the log's `==>` line and `-v` show it.
pub fn display(argv: &[OsString]) -> String {
    let mut out = String::new();
    for (i, a) in argv.iter().enumerate() {
        let s = a.to_string_lossy();
        let plain = !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+".contains(&b));
        let quote = if plain { "" } else { "\"" };
        out += if i > 0 { " " } else { "" };
        out += quote;
        out += &s;
        out += quote;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{Format, Verbosity};
    use crate::policy::Budget;
    use crate::suite;
    use std::collections::VecDeque;

    /// A fake world: each pass takes `cost` seconds of a fake clock and gives the next canned
    /// outcome (copy stderr texts and exit statuses); settles are counted.
    struct Canned {
        passes: VecDeque<io::Result<Outcome>>,
        clock: f64,
        cost: f64,
        settles: Vec<Settle>,
        signal: Option<i32>,
        noise: Option<Noise>,
        /// Each pass's noise, in turn, before `noise` for the rest.
        noises: VecDeque<Noise>,
    }

    impl Canned {
        fn new(cost: f64) -> Canned {
            Canned {
                passes: VecDeque::new(),
                clock: 0.0,
                cost,
                settles: Vec::new(),
                signal: None,
                noise: None,
                noises: VecDeque::new(),
            }
        }

        /// A pass whose copies printed these stderrs and exited with these statuses.
        fn then(mut self, copies: &[(&str, i32)]) -> Canned {
            let o =
                copies.iter().map(|&(err, st)| crate::outcome::parse_copy(err, self.cost, st, 1)).collect();
            self.passes.push_back(Ok(Outcome::Done(o)));
            self
        }

        fn counting(mut self, counts: &[f64]) -> Canned {
            for c in counts {
                self = self.then(&[(&format!("COUNT|{c}|1|lps\nTIME|1\n"), 0)]);
            }
            self
        }
    }

    impl Executor for Canned {
        fn settle(&mut self, s: Settle) -> bool {
            self.settles.push(s);
            self.signal.is_none()
        }
        fn pass(&mut self, _: &Command, _: usize) -> io::Result<(Outcome, Option<Noise>)> {
            self.clock += self.cost;
            let o = self.passes.pop_front().expect("the loop asked for more passes than the test has")?;
            Ok((o, self.noises.pop_front().or(self.noise)))
        }
        fn caught(&self) -> Option<i32> {
            self.signal
        }
        fn now(&self) -> f64 {
            self.clock
        }
    }

    fn run(exec: &mut Canned, policy: Policy, test: &str, copies: usize) -> (Option<TestResult>, Policy) {
        run_with(exec, policy, test, copies, false)
    }

    fn run_with(
        exec: &mut Canned,
        policy: Policy,
        test: &str,
        copies: usize,
        remeasure: bool,
    ) -> (Option<TestResult>, Policy) {
        let mut r = runner(exec, policy, remeasure);
        let t = suite::test(test).unwrap();
        let res = r.run_passes(t, copies, &prepared());
        (res, r.policy)
    }

    /// A runner over a fake world, quiet, with nowhere to save.
    fn runner(exec: &mut Canned, policy: Policy, remeasure: bool) -> Runner<'_> {
        Runner {
            exe: Path::new("/unused"),
            launch: &exec::AS_IT_IS,
            exec,
            policy,
            console: Console::new("unixbench", Verbosity::Quiet, Format::Json),
            files: None,
            estimate: Estimate { left: 1000.0 },
            lost: Vec::new(),
            remeasure,
            semantics: Semantics::V6,
            buffer: None,
        }
    }

    /// What the fake passes run: pipe, which they never start.
    fn prepared() -> Prepared<'static> {
        let cwd = Box::leak(Box::new(crate::sys::dir::Dir::open(Path::new("/")).unwrap()));
        Prepared { argv: vec!["pipe".into(), "10".into()], cwd, own_dirs: false, planned: None }
    }

    const STANDARD: Policy = Policy::Standard { iterations: None };

    #[test]
    fn a_standard_test_runs_all_its_passes_with_run_s_settle_and_score() {
        let counts = [10.0, 30.0, 20.0, 50.0, 40.0, 60.0, 70.0, 90.0, 80.0, 100.0];
        let mut ex = Canned::new(1.0).counting(&counts);
        let (r, _) = run(&mut ex, STANDARD, "pipe", 1);
        let r = r.unwrap();
        assert_eq!(r.passes.len(), 10);
        assert!(ex.passes.is_empty());
        assert_eq!(ex.settles.len(), 10);
        assert!(ex.settles.iter().all(|s| s.sync && s.secs() == 3.0));
        // The lowest three (10, 20, 30) dropped; the geometric mean of the rest.
        let kept: Vec<f64> = r.kept.iter().map(|&i| r.passes[i].count).collect();
        assert_eq!(kept, [40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0]);
        let g = (40.0f64 * 50.0 * 60.0 * 70.0 * 80.0 * 90.0 * 100.0).powf(1.0 / 7.0);
        assert!((r.score - g).abs() < 1e-9, "{}", r.score);
        assert!(r.error.is_none() && r.skipped.is_none());
    }

    #[test]
    fn a_short_run_syncs_only_and_counts_passes_as_run() {
        let mut ex = Canned::new(1.0).counting(&[1.0, 2.0, 3.0]);
        let (r, _) = run(&mut ex, Policy::Short { secs: 1, iterations: Some(8) }, "shell8", 1);
        // -i 8: a short test gets (8 + 1) / 3 = 3 passes.
        assert_eq!(r.unwrap().passes.len(), 3);
        assert!(ex.settles.iter().all(|s| s.sync && s.sleeps.is_empty()));
    }

    #[test]
    fn a_failed_copy_stops_the_test_and_names_itself() {
        let mut ex =
            Canned::new(1.0).counting(&[5.0]).then(&[("COUNT|5|1|lps\n", 0), ("ERROR|disk full\n", 1 << 8)]);
        let (r, _) = run(&mut ex, STANDARD, "pipe", 2);
        let r = r.unwrap();
        assert_eq!(r.error.as_deref(), Some("copy 2 of 2: disk full"));
        assert_eq!(r.passes.len(), 2, "the failed pass is logged with the others");
        assert!(!r.ok());
        let mut ex = Canned::new(1.0);
        ex.passes.push_back(Err(io::Error::other("cannot start copy 1 of 1")));
        let (r, _) = run(&mut ex, STANDARD, "pipe", 1);
        assert_eq!(r.unwrap().error.as_deref(), Some("cannot start copy 1 of 1"));
    }

    #[test]
    fn a_program_that_says_skipped_skips_the_test() {
        let mut ex =
            Canned::new(0.1).then(&[("2d-rects: skipped: no X display (DISPLAY is unset)\n", 3 << 8)]);
        let (r, _) = run(&mut ex, Policy::Standard { iterations: Some(3) }, "2d-rects", 1);
        let r = r.unwrap();
        assert_eq!(r.skipped.as_deref(), Some("no X display (DISPLAY is unset)"));
        assert!(r.error.is_none() && r.passes.is_empty());
    }

    #[test]
    fn a_signal_stops_the_test_without_a_result() {
        let mut ex = Canned::new(1.0).counting(&[1.0]);
        ex.signal = Some(libc::SIGTERM);
        assert!(run(&mut ex, STANDARD, "pipe", 1).0.is_none());
        let mut ex = Canned::new(1.0);
        ex.passes.push_back(Ok(Outcome::Interrupted));
        assert!(run(&mut ex, STANDARD, "pipe", 1).0.is_none());
    }

    #[test]
    fn a_quick_test_stops_when_its_interval_is_tight_and_pays_its_budget() {
        // Identical passes converge at the fourth (three kept, the fewest with an interval of
        // use); pipe's share is all of a 100 s budget.
        let mut ex = Canned::new(2.0).counting(&[7.0; 10]);
        let w = crate::policy::standard_secs(suite::test("pipe").unwrap());
        let f = Policy::Quick(Budget::new(0.0, 0.0, w)).test_secs(suite::test("pipe").unwrap());
        let (r, policy) = run(&mut ex, Policy::Quick(Budget::new(100.0, f, w)), "pipe", 1);
        assert_eq!(r.unwrap().passes.len(), 4);
        assert_eq!(policy, Policy::Quick(Budget { held: (100.0 - f) / 2.0, ..Budget::new(92.0, 0.0, 0.0) }));
        assert!(ex.settles.iter().all(|s| *s == Settle::NONE), "pipe writes no files");
        // Noisy passes in a small budget: it stops where another pass would overrun.
        let mut ex = Canned::new(2.0).counting(&[1.0, 9.0, 3.0, 7.0, 2.0, 8.0]);
        let (r, _) = run(&mut ex, Policy::Quick(Budget::new(7.0, f, w)), "pipe", 1);
        assert_eq!(r.unwrap().passes.len(), 3);
    }

    #[test]
    fn each_pass_keeps_its_noise_and_a_test_is_disturbed_past_five_percent() {
        let mut ex = Canned::new(1.0).counting(&[5.0, 5.0, 5.0]);
        let quiet = Noise { copies_cpu: 1.0, steal: 0.01, foreign: 0.02, ..Default::default() };
        ex.noise = Some(quiet);
        let (r, _) = run(&mut ex, Policy::Standard { iterations: Some(3) }, "pipe", 1);
        let r = r.unwrap();
        assert!(r.passes.iter().all(|p| p.noise == Some(quiet)));
        assert_eq!(r.noise().unwrap().copies_cpu, 3.0);
        assert!(!r.disturbed());
        let mut ex = Canned::new(1.0).counting(&[5.0, 5.0, 5.0]);
        ex.noise = Some(Noise { copies_cpu: 1.0, foreign: 0.5, ..Default::default() });
        assert!(run(&mut ex, Policy::Standard { iterations: Some(3) }, "pipe", 1).0.unwrap().disturbed());
        // Without /proc: no figure, and not disturbed.
        let mut ex = Canned::new(1.0).counting(&[5.0]);
        let (r, _) = run(&mut ex, Policy::Standard { iterations: Some(1) }, "pipe", 1);
        assert!(r.as_ref().unwrap().noise().is_none() && !r.unwrap().disturbed());
    }

    #[test]
    fn a_cpu_bound_copy_stopped_on_a_run_s_only_pass_is_stopped() {
        // Half of a 4 s pass stopped on 2 CPUs: 2 s of the copy's CPU, 6 s idle.
        let stopped = Noise { copies_cpu: 2.0, wall: 4.0, idle: 6.0, ..Default::default() };
        let mut ex = Canned::new(4.0).counting(&[5.0]);
        ex.noise = Some(stopped);
        let r = run(&mut ex, Policy::Standard { iterations: Some(1) }, "syscall", 1).0.unwrap();
        assert_eq!(r.passes.len(), 1);
        assert_eq!(r.disturbance(), Some(crate::model::Disturbance::Stopped));
        // context1's two processes wait on each other: its idle CPUs are no stop by themselves.
        let mut ex = Canned::new(4.0).counting(&[5.0]);
        ex.noise = Some(stopped);
        let r = run(&mut ex, Policy::Standard { iterations: Some(1) }, "context1", 1).0.unwrap();
        assert_eq!(r.disturbance(), None);
    }

    #[test]
    fn a_disturbed_pass_is_measured_again_when_asked_and_at_most_three_times() {
        let quiet = Noise { copies_cpu: 1.0, wall: 1.0, idle: 1.0, ..Default::default() };
        let busy = Noise { foreign: 0.5, ..quiet };
        let stopped = Noise { copies_cpu: 0.5, idle: 1.5, ..quiet };
        let i3 = Policy::Standard { iterations: Some(3) };
        let canned = |noises: &[Noise]| {
            let mut ex = Canned::new(1.0).counting(&[5.0; 10]);
            ex.noises = noises.iter().copied().collect();
            ex
        };
        // Asked: the busy pass and the stopped one are measured again, and the three passes
        // scored are the quiet ones.
        let mut ex = canned(&[quiet, busy, quiet, stopped, quiet]);
        let r = run_with(&mut ex, i3.clone(), "pipe", 1, true).0.unwrap();
        assert_eq!((r.passes.len(), r.replaced.len()), (3, 2));
        let why: Vec<&str> = r.replaced.iter().map(|p| p.why.word()).collect();
        assert_eq!(why, ["other processes", "stopped"]);
        assert!(r.passes.iter().all(|p| p.noise == Some(quiet)) && !r.disturbed());
        // Not asked: the three passes as they came, the test disturbed.
        let r = run_with(&mut canned(&[quiet, busy, quiet]), i3.clone(), "pipe", 1, false).0.unwrap();
        assert!(r.replaced.is_empty() && r.disturbed());
        // A host disturbed throughout: three passes measured again, then the test is disturbed.
        let mut ex = canned(&[busy; 6]);
        let r = run_with(&mut ex, i3, "pipe", 1, true).0.unwrap();
        assert_eq!((r.passes.len(), r.replaced.len()), (3, MAX_REMEASURED));
        assert!(r.disturbed());
        // A quick run's passes (four: three kept, the fewest with an interval of use) are
        // undisturbed ones, while its share has room.
        let w = crate::policy::standard_secs(suite::test("pipe").unwrap());
        let q = Policy::Quick(Budget::new(100.0, 0.0, w));
        let r = run_with(&mut canned(&[busy, quiet, quiet, quiet, quiet]), q, "pipe", 1, true).0.unwrap();
        assert_eq!((r.passes.len(), r.replaced.len()), (4, 1));
        // A share of three passes has no room: the disturbed pass stays, and says so.
        let f = Policy::Quick(Budget::new(0.0, 0.0, w)).test_secs(suite::test("pipe").unwrap());
        let q = Policy::Quick(Budget::new(f, f, w));
        let r = run_with(&mut canned(&[quiet, quiet, busy]), q, "pipe", 1, true).0.unwrap();
        assert_eq!((r.passes.len(), r.replaced.len()), (3, 0));
        assert!(r.disturbed());
    }

    #[test]
    fn a_test_disturbed_past_its_share_is_measured_again_on_its_second_visit() {
        let quiet = Noise { copies_cpu: 1.0, wall: 1.0, idle: 1.0, ..Default::default() };
        let busy = Noise { foreign: 0.5, ..quiet };
        let pipe = suite::test("pipe").unwrap();
        let w = crate::policy::standard_secs(pipe);
        let f = Policy::Quick(Budget::new(0.0, 0.0, w)).test_secs(pipe);
        let mut ex = Canned::new(1.0).counting(&[5.0; 8]);
        ex.noises = [busy, busy, busy, quiet, busy, quiet, quiet, quiet].into_iter().collect();
        let mut runner = Runner {
            exe: Path::new("/unused"),
            launch: &exec::AS_IT_IS,
            exec: &mut ex,
            // A share of three passes: no room to measure one again on the first visit.
            policy: Policy::Quick(Budget::new(f, f, w)),
            console: Console::new("unixbench", Verbosity::Quiet, Format::Json),
            files: None,
            estimate: Estimate { left: 1000.0 },
            lost: Vec::new(),
            remeasure: true,
            semantics: Semantics::V6,
            buffer: None,
        };
        let p = prepared();
        let mut r = runner.run_passes(pipe, 1, &p).unwrap();
        assert!(r.disturbed() && r.replaced.is_empty());
        // The second visit, 10 s: the three set aside, one busy pass more set aside, and the
        // score's passes quiet ones, numbered on from the first visit's: four, since three
        // keep two, which give no interval of use.
        assert_eq!(runner.revisit(pipe, &p, &mut r, 10.0), Some(5.0));
        assert_eq!((r.passes.len(), r.replaced.len()), (4, 4));
        assert!(!r.disturbed() && r.score > 0.0, "scored again");
        assert_eq!(r.replaced.iter().map(|x| x.number).collect::<Vec<_>>(), [1, 2, 3, 5]);
        assert_eq!(r.scored_numbers(), [4, 6, 7, 8]);
        // A test neither disturbed nor loose is left as it is; a share of less than a pass
        // runs none.
        assert_eq!(runner.revisit(pipe, &p, &mut r, 100.0), Some(0.0));
        assert_eq!(r.passes.len(), 4);
        let (mut loose, _) = run(&mut Canned::new(1.0).counting(&[1.0, 9.0, 3.0]), STANDARD_3, "pipe", 1);
        let before = loose.clone().unwrap();
        assert_eq!(runner.revisit(pipe, &p, loose.as_mut().unwrap(), 0.5), Some(0.0));
        assert_eq!(loose.unwrap().passes, before.passes);
        drop(runner);
        assert!(ex.passes.is_empty());
    }

    #[test]
    fn a_loose_test_gets_passes_on_its_second_visit_until_its_interval_is_tight() {
        let pipe = suite::test("pipe").unwrap();
        let (r, _) = run(&mut Canned::new(1.0).counting(&[1.0, 9.0, 3.0]), STANDARD_3, "pipe", 1);
        let mut r = r.unwrap();
        let mut ex = Canned::new(1.0).counting(&[9.0; 10]);
        let mut runner = runner(&mut ex, Policy::Quick(Budget::new(100.0, 0.0, 1.0)), true);
        let p = prepared();
        // Three passes of 9 more: 1 and 3 dropped, the four 9s kept, tight (after two, the 3
        // was still kept).
        assert_eq!(runner.revisit(pipe, &p, &mut r, 50.0), Some(3.0));
        assert_eq!((r.passes.len(), r.kept.len()), (6, 4));
        assert!((r.score - 9.0).abs() < 1e-9, "{}", r.score);
    }

    #[test]
    fn a_second_visit_keeps_three_passes_and_a_failed_one_leaves_the_first_figure() {
        let quiet = Noise { copies_cpu: 1.0, wall: 1.0, idle: 1.0, ..Default::default() };
        let busy = Noise { foreign: 0.5, ..quiet };
        let pipe = suite::test("pipe").unwrap();
        let disturbed = || {
            let mut ex = Canned::new(1.0).counting(&[5.0; 3]);
            ex.noise = Some(busy);
            run_with(&mut ex, STANDARD_3, "pipe", 1, false).0.unwrap()
        };
        // Three set aside by the estimate (3 x 1.05 s in 3.2 s), then passes of 2 s: the share
        // is overrun rather than the score left with fewer than three.
        let mut ex = Canned::new(2.0).counting(&[5.0; 3]);
        ex.noise = Some(quiet);
        let mut runner = runner(&mut ex, Policy::Quick(Budget::new(100.0, 0.0, 1.0)), true);
        let p = prepared();
        let mut r = disturbed();
        assert_eq!(runner.revisit(pipe, &p, &mut r, 3.2), Some(6.0));
        assert_eq!((r.passes.len(), r.replaced.len()), (3, 3));
        assert!(!r.disturbed());
        drop(runner);
        // A copy that fails on the second visit: the test keeps its first figure, no error.
        let mut ex = Canned::new(1.0).then(&[("ERROR|disk full\n", 1 << 8)]);
        let mut runner = self::runner(&mut ex, Policy::Quick(Budget::new(100.0, 0.0, 1.0)), true);
        let (first, mut r) = (disturbed(), disturbed());
        assert_eq!(runner.revisit(pipe, &p, &mut r, 10.0), Some(1.0));
        assert_eq!(r, first);
    }

    const STANDARD_3: Policy = Policy::Standard { iterations: Some(3) };

    #[test]
    fn command_display_quotes_only_when_needed() {
        let argv: Vec<OsString> = ["looper", "30", "dc"].iter().map(OsString::from).collect();
        assert_eq!(display(&argv), "looper 30 dc");
        let argv: Vec<OsString> = ["fstime", "-d", "/a b"].iter().map(OsString::from).collect();
        assert_eq!(display(&argv), "fstime -d \"/a b\"");
    }
}
