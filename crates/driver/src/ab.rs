//! `unixbench ab`: two arms, A and B, measured in the same rounds on this host. Each arm is
//! this binary unless its options change it (a wrapper command, another unixbench binary or a
//! built C UnixBench directory, its own tmp directory, semantics or exec image). Each round
//! takes every test in a shuffled order, and for each test one pass of each arm back to back,
//! the arm that goes first alternating from round to round (AB, BA), so that the host's wander
//! hits both and a steady drift cancels; a pair with a disturbed pass is measured again. The
//! rounds go on past `paired::MIN_ROUNDS` until every ratio's interval is within
//! `--precision`, or the budget (twice a quick run's) is spent; `-i N` fixes them at N.
//! What it prints is `report::ab`'s; it writes no results directory.

use crate::csuite::{self, runnable};
use crate::dirs::{absolute, make_directories, usable_dir, Dirs};
use crate::error::{Error, Result};
use crate::exec::{Launch, Prepared};
use crate::model::{CopyRun, Run, TestResult};
use crate::options::{ArmOptions, JsonOut, Options, Parsed, Quick, Verbosity};
use crate::output::Console;
use crate::passes::{InRounds, Processes, Runner, Step};
use crate::plan::{Estimate, Plan};
use crate::suite::{Kind, Test};
use crate::sys::dir::Dir;
use crate::workdir::WorkDir;
use crate::{exec, fmt, output, schedule, score, selfexe, signals, sys};
use base::version::{Semantics, SEMANTICS_VAR};
use report::ab::{AbRun, Arm};
use scoring::paired;
use std::ffi::OsString;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// The precision the rounds aim at unless `--precision` says: ±1%.
pub const PRECISION: f64 = 0.01;

/// What one arm runs: its label and changes, the program, how its copies start.
struct ArmSetup {
    name: String,
    changes: Vec<String>,
    /// This binary, another unixbench binary, or (with `c_suite`) unused.
    exe: PathBuf,
    launch: Launch,
    semantics: Semantics,
    tmp: PathBuf,
    /// The C UnixBench directory whose programs this arm runs, and its `testdir/`, held.
    c_suite: Option<(csuite::CSuite, Dir)>,
}

impl ArmSetup {
    /// The seconds a pass of `t` takes in this arm under `policy`: a C program's own where it
    /// keeps a duration of its own (whetstone's 10 s, fstime's settles).
    fn pass_secs(&self, t: &Test, policy: &crate::policy::Policy) -> f64 {
        let own = self.c_suite.as_ref().and_then(|(s, _)| s.command(t, policy).ok());
        match own {
            Some(c) => policy.pass_secs(t) - policy.nominal_secs(t) + c.nominal,
            None => policy.pass_secs(t),
        }
    }
}

/// The seconds of a round at `copies` copies: a pass of each test in each arm.
fn round_secs(plan: &Plan, arms: &[ArmSetup; 2], copies: usize) -> f64 {
    plan.tests_at(copies).iter().map(|t| arms.iter().map(|a| a.pass_secs(t, &plan.policy)).sum::<f64>()).sum()
}

/// `unixbench ab ...`; `args` excludes `ab`.
pub fn main(args: Vec<OsString>) -> Result {
    let mut opts = match crate::options::parse_ab(args)? {
        Parsed::Help => return crate::error::print(&crate::options::ab_help()),
        Parsed::Version => return crate::error::print(&base::version::full()),
        Parsed::Run(o) => *o,
    };
    refuse_run_only(&opts)?;
    if !opts.dry_run && !sys::fd::open_for_writing(1) && !matches!(opts.json, Some(JsonOut::File(_))) {
        // The report's one home would be lost after minutes of rounds.
        return Err(Error::usage(
            "stdout is closed: the report would be lost (give it a file, or --json=FILE)",
        ));
    }
    let rounds_fixed = opts.iterations.take().map(|n| n as usize);
    if rounds_fixed.is_some_and(|n| n < 2) {
        return Err(Error::usage("-i: ab needs 2 rounds at least (4 for an interval of use)"));
    }
    opts.quick.get_or_insert(Quick::Tenth);
    opts.save = false;
    let _ = sys::signal::ignore(libc::SIGXFSZ);
    let exe = selfexe::path().map_err(Error::failed)?;
    let dirs = Dirs::prepare(&opts, None)?;
    crate::setup::check_json_file(&mut opts)?;
    check_labels(&opts)?;
    let mut arms = [set_up_arm(&opts, 0, &exe, &dirs.tmp)?, set_up_arm(&opts, 1, &exe, &dirs.tmp)?];
    if arms[0].name == arms[1].name || arms[0].name == "B" || arms[1].name == "A" {
        // Two arms of one label could not be told apart in a verdict.
        arms[0].name = "A".into();
        arms[1].name = "B".into();
    }
    let system = crate::setup::describe_host(&opts);
    let plan = Plan::resolve(&opts, system.cpu_limit.as_ref().map(|l| l.cpus))?;
    let budget = match opts.quick {
        Some(Quick::Seconds(s)) => f64::from(s),
        _ => 2.0 * plan.quick_budget().unwrap_or(0.0),
    };
    let precision = opts.precision.map_or(PRECISION, |p| p / 100.0);
    let least: f64 =
        plan.copies.iter().map(|&c| paired::MIN_ROUNDS as f64 * round_secs(&plan, &arms, c)).sum();
    if let (Some(Quick::Seconds(s)), None) = (opts.quick, rounds_fixed) {
        if f64::from(s) < least {
            return Err(Error::usage(format!(
                "--quick={s}: too small a budget for ab: {} rounds of these tests in both arms take \
                 about {least:.0} s, so at least --quick={}",
                paired::MIN_ROUNDS,
                least.ceil()
            )));
        }
    }
    if opts.dry_run {
        let json = opts.format == crate::options::Format::Json;
        return crate::error::print(&describe_plan(&plan, &arms, budget, rounds_fixed, json));
    }
    let bounds = Bounds { budget, precision, fixed: rounds_fixed };
    run_arms(&opts, &plan, &dirs, arms, &system, bounds)
}

/// When the rounds stop: the budget in seconds, the precision aimed at, or `-i`'s count.
struct Bounds {
    budget: f64,
    precision: f64,
    fixed: Option<usize>,
}

/// The arms' rounds, from their work directories to the report and the exit status.
fn run_arms(
    opts: &Options,
    plan: &Plan,
    dirs: &Dirs,
    arms: [ArmSetup; 2],
    system: &crate::model::SystemInfo,
    bounds: Bounds,
) -> Result {
    let _ = sys::proc::become_subreaper();
    let watch =
        signals::Watch::install().map_err(|e| Error::failed(format!("cannot handle signals: {e}")))?;
    let (_made_tmp, common, _) = make_directories(dirs)?;
    let mut own: Vec<Option<WorkDir>> = Vec::new();
    for a in &arms {
        let made = (a.tmp != dirs.tmp).then(|| WorkDir::create(&a.tmp)).transpose();
        own.push(made.map_err(|e| Error::usage(format!("cannot make a work directory: {e}")))?);
    }
    let workdirs = [own[0].as_ref().unwrap_or(&common), own[1].as_ref().unwrap_or(&common)];
    let seed = opts.seed.unwrap_or_else(schedule::fresh_seed);
    let run_of = |a| arm_run(opts, plan, dirs, system, a, seed);
    let mut runs = [run_of(&arms[0]), run_of(&arms[1])];
    let margin = opts.watchdog_margin.unwrap_or(exec::WATCHDOG_MARGIN);
    let mut processes = [0, 1].map(|_| Processes { watch: &watch, noise: opts.noise, margin });
    let [pa, pb] = &mut processes;
    let mut runners = [runner(&arms[0], plan, pa), runner(&arms[1], plan, pb)];
    let rounds = Rounds { plan, arms: &arms, workdirs, bounds: &bounds, verbosity: opts.verbosity };
    let stopped_by = rounds.run(&mut runners, &mut runs, seed);
    let arm = |a: &ArmSetup, run: Run| Arm { name: a.name.clone(), changes: a.changes.clone(), run };
    let [ra, rb] = runs;
    let ab = AbRun {
        arms: [arm(&arms[0], ra), arm(&arms[1], rb)],
        seed,
        precision: bounds.precision,
        interrupted: stopped_by.is_some(),
    };
    finish(&ab, opts, stopped_by)
}

/// Labels that would make a verdict read wrong: both arms named alike, or each the other's
/// letter.
fn check_labels(o: &Options) -> Result<()> {
    let [a, b] = [&o.arms[0].name, &o.arms[1].name];
    if a.is_some() && a == b {
        return Err(Error::usage("--a-name and --b-name are the same: the arms could not be told apart"));
    }
    if a.as_deref() == Some("B") || b.as_deref() == Some("A") {
        return Err(Error::usage("--a-name B or --b-name A: B/A would read backwards"));
    }
    Ok(())
}

/// The options of a run that `ab` has no use for, refused with the reason.
fn refuse_run_only(o: &Options) -> Result<()> {
    let why = if o.duration.is_some() {
        Some("-t: ab's passes are a quick run's; --quick=SECONDS sets its budget")
    } else if o.rounds.is_some() {
        Some("--rounds and --no-rounds: ab always runs in rounds")
    } else if o.remeasure {
        Some("--remeasure: ab always measures a disturbed pair again")
    } else if o.results.is_some() || !o.save {
        Some("--results and --no-save: ab writes no results directory (its report goes to stdout)")
    } else if o.json == Some(JsonOut::Beside) {
        Some("--json needs =FILE in ab, which writes no results directory")
    } else {
        None
    };
    why.map_or(Ok(()), |w| Err(Error::usage(format!("not in ab: {w}"))))
}

/// Arm `i` (0 for A) as its options and the run's say; `exe` is this binary, `tmp` the run's
/// tmp directory.
fn set_up_arm(o: &Options, i: usize, exe: &Path, tmp: &Path) -> Result<ArmSetup> {
    let a: &ArmOptions = &o.arms[i];
    let key = ["a", "b"][i];
    // Each change in words, and in a word or two for a label.
    let mut changes: Vec<(String, String)> = Vec::new();
    let mut launch = Launch::default();
    if let Some(words) = &a.wrap {
        let path = find_program(&words[0])
            .ok_or_else(|| Error::usage(format!("--{key}-wrap: no program '{}' found", words[0])))?;
        launch.wrap = Some((path, words.iter().map(OsString::from).collect()));
        let line = shell_line(words);
        // The label: the wrapper's program by its file name, then its words.
        let mut short = words.clone();
        short[0] = words[0].rsplit('/').next().unwrap_or(&words[0]).to_string();
        changes.push((format!("runs under: {line}"), cut_label(&shell_line(&short))));
    }
    let (program, c_suite) = match &a.bin {
        Some(bin) => programs(bin, key, &mut launch, &mut changes)?,
        None => (exe.to_path_buf(), None),
    };
    let tmp = match &a.tmpdir {
        Some(t) => {
            let t = absolute(t, "tmp directory", &format!("--{key}-tmpdir"))?;
            usable_dir(&t, &format!("--{key}-tmpdir directory"))?;
            changes.push((format!("tmp directory: {}", t.display()), t.display().to_string()));
            t
        }
        None => tmp.to_path_buf(),
    };
    // A C suite's own release is its semantics, unless the arm says otherwise.
    let c_release = c_suite.as_ref().and_then(|(s, _)| s.version()).and_then(Semantics::parse);
    let semantics = a.semantics.or(c_release).unwrap_or(o.semantics());
    if a.semantics.is_some() {
        changes.push((format!("semantics: {}", semantics.release()), semantics.release().to_string()));
    }
    if let Some(i) = &a.exec_image {
        changes.push((format!("exec image: {i}"), i.clone()));
    }
    let image = a.exec_image.as_ref().or(o.exec_image.as_ref());
    launch.env.extend(environment(&program, &tmp, semantics, image));
    let name = a.name.clone().unwrap_or_else(|| match &changes[..] {
        [(_, short)] => short.clone(),
        _ => ["A", "B"][i].to_string(),
    });
    let changes = changes.into_iter().map(|(long, _)| long).collect();
    Ok(ArmSetup { name, changes, exe: program, launch, semantics, tmp, c_suite })
}

/// `--a-bin PATH`'s programs: a built C UnixBench directory's (with its `testdir/`, held), or
/// another unixbench binary's kernels; the change said in `changes`.
fn programs(
    bin: &Path,
    key: &str,
    launch: &mut Launch,
    changes: &mut Vec<(String, String)>,
) -> Result<(PathBuf, Option<(csuite::CSuite, Dir)>)> {
    let bin = absolute(bin, "program", &format!("--{key}-bin"))?;
    if !bin.is_dir() {
        // A link named for an applet (`--install -s`) leads to the binary itself.
        let bin = std::fs::canonicalize(&bin).unwrap_or(bin);
        if !runnable(&bin) {
            return Err(Error::usage(format!("--{key}-bin: {} is not an executable file", bin.display())));
        }
        if !is_unixbench(&bin) {
            return Err(Error::usage(format!(
                "--{key}-bin: {} is not a unixbench binary (its --version does not say so), nor a \
                 built C UnixBench directory",
                bin.display()
            )));
        }
        let short = bin.file_name().map_or("bin".into(), |n| n.to_string_lossy().into_owned());
        changes.push((format!("the kernels of: {}", bin.display()), short));
        return Ok((bin, None));
    }
    let s = csuite::CSuite::open(&bin).map_err(|e| Error::usage(format!("--{key}-bin: {e}")))?;
    let testdir = Dir::open(s.testdir())
        .map_err(|e| Error::usage(format!("--{key}-bin: cannot open {}: {e}", s.testdir().display())))?;
    launch.env.extend(s.environment().into_iter().map(|(k, v)| (k, Some(v))));
    launch.argv0_is_program = true;
    let release = s.version().map(|v| format!(" {v}")).unwrap_or_default();
    changes.push((format!("C UnixBench{release}'s programs in: {}", s.root().display()), "C".into()));
    Ok((bin, Some((s, testdir))))
}

/// What an arm's copies find in their environment, as a run's find it in theirs: Run's
/// locale, where their program is, the tmp directory, the semantics (set, or removed for
/// 6.0's), the exec image.
fn environment(
    program: &Path,
    tmp: &Path,
    semantics: Semantics,
    image: Option<&String>,
) -> Vec<(OsString, Option<OsString>)> {
    let v513 = semantics == Semantics::V513;
    let mut env = vec![
        ("LANG".into(), Some("en_US.utf8".into())),
        (selfexe::HINT_VAR.into(), Some(program.into())),
        ("UB_TMPDIR".into(), Some(tmp.into())),
        (SEMANTICS_VAR.into(), v513.then(|| semantics.release().into())),
    ];
    env.extend(image.map(|i| (twin::exec_image::VAR.into(), Some(i.into()))));
    env
}

/// Words as a shell would take them back: a word with a blank, a quote or another character
/// the shell reads quoted in single quotes.
fn shell_line(words: &[String]) -> String {
    let quote = |w: &String| {
        let plain = !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%".contains(c));
        if plain {
            w.clone()
        } else {
            format!("'{}'", w.replace('\'', "'\\''"))
        }
    };
    words.iter().map(quote).collect::<Vec<_>>().join(" ")
}

/// A label of at most 24 characters.
fn cut_label(s: &str) -> String {
    if s.chars().count() <= 24 {
        s.to_string()
    } else {
        s.chars().take(21).collect::<String>() + "..."
    }
}

/// A wrapper's program: a path as it is, else the first executable of that name in PATH.
fn find_program(name: &str) -> Option<PathBuf> {
    // Made absolute: the copies start in the work directory, not in ours.
    let found = if name.contains('/') {
        Some(PathBuf::from(name)).filter(|p| runnable(p))
    } else {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path).map(|d| d.join(name)).find(|p| runnable(p))
    };
    found.and_then(|p| crate::selfexe::absolute(&p).ok())
}

/// Whether `bin` is a unixbench binary: its `--version` says so within a few seconds. Its
/// applets are then reached by name as its first argument, as under a wrapper.
fn is_unixbench(bin: &Path) -> bool {
    let path = std::ffi::CString::new(bin.as_os_str().as_encoded_bytes());
    let (Ok(path), Ok(argv)) = (path, sys::proc::Argv::new([bin.as_os_str(), "--version".as_ref()])) else {
        return false;
    };
    sys::proc::output_within(&path, &argv, 5.0, 64).is_ok_and(|o| o.starts_with(b"unixbench "))
}

/// An arm's run model before its first round: the run's, with the arm's tmp directory and
/// semantics.
fn arm_run(
    o: &Options,
    plan: &Plan,
    dirs: &Dirs,
    system: &crate::model::SystemInfo,
    a: &ArmSetup,
    seed: u64,
) -> Run {
    let mut run = crate::setup::new_run(o, plan, dirs, system.clone());
    run.version = report::version(a.semantics);
    run.settings.tmpdir = a.tmp.display().to_string();
    run.settings.seed = Some(seed);
    run.settings.remeasure = true;
    run
}

/// An arm's runner: its program and launch, quiet (ab shows its own progress), saving nothing.
fn runner<'a, 'w: 'a>(a: &'a ArmSetup, plan: &Plan, exec: &'a mut Processes<'w>) -> Runner<'a> {
    Runner {
        exe: &a.exe,
        launch: &a.launch,
        exec,
        policy: plan.policy.clone(),
        console: Console::new("unixbench", Verbosity::Quiet, crate::options::Format::Text),
        files: None,
        estimate: Estimate { left: 0.0 },
        lost: Vec::new(),
        // ab sets a disturbed pair aside itself, both passes at once.
        remeasure: false,
        semantics: a.semantics,
        buffer: None,
    }
}

/// The rounds of a whole `ab` run, and what decides when they stop.
struct Rounds<'a> {
    plan: &'a Plan,
    arms: &'a [ArmSetup; 2],
    workdirs: [&'a WorkDir; 2],
    bounds: &'a Bounds,
    verbosity: Verbosity,
}

impl Rounds<'_> {
    /// Every copy count's rounds into the arms' runs. The signal that stopped them, if one did:
    /// the runs then hold the rounds that finished.
    fn run(&self, runners: &mut [Runner; 2], runs: &mut [Run; 2], seed: u64) -> Option<i32> {
        let mut rng = oorandom::Rand64::new(u128::from(seed));
        let copies = &self.plan.copies;
        let share = self.bounds.budget / copies.len() as f64;
        for &c in copies {
            let stopped = self.at_copies(c, share, runners, runs, &mut rng);
            if stopped.is_some() {
                return stopped;
            }
        }
        None
    }

    /// The rounds at `c` copies, in `budget` seconds.
    fn at_copies(
        &self,
        c: usize,
        budget: f64,
        runners: &mut [Runner; 2],
        runs: &mut [Run; 2],
        rng: &mut oorandom::Rand64,
    ) -> Option<i32> {
        let tests = self.plan.tests_at(c);
        let now = sys::clock::time();
        for run in runs.iter_mut() {
            run.runs.push(CopyRun { copies: c, start: now, end: now, ..Default::default() });
        }
        let mut states: Vec<[InRounds; 2]> =
            tests.iter().map(|t| [0, 1].map(|k| runners[k].open_rounds(t, c, None))).collect();
        let planned_round = round_secs(self.plan, self.arms, c);
        let began = sys::clock::monotonic();
        let mut stopped = None;
        for round in 1.. {
            let mut order = in_both(&states);
            if order.is_empty() {
                break;
            }
            schedule::shuffle(&mut order, rng);
            for i in order {
                if let Err(sig) = self.pair(runners, &mut states[i], round) {
                    stopped = Some(sig);
                    break;
                }
            }
            if stopped.is_some() {
                break;
            }
            let spent = sys::clock::monotonic() - began;
            let rows = paired::rows(&so_far(&states, 0, c), &so_far(&states, 1, c));
            self.progress(c, round, &rows, budget - spent);
            // Room for another round: as long as the rounds so far took, or as planned.
            let next = planned_round.max(spent / round as f64);
            if self.done(round, &rows, spent + next > budget) {
                break;
            }
        }
        let mut results: [Vec<TestResult>; 2] = Default::default();
        for [a, b] in states {
            results[0].push(runners[0].close_rounds(a));
            results[1].push(runners[1].close_rounds(b));
        }
        for (run, results) in runs.iter_mut().zip(results) {
            let cr = run.runs.last_mut().unwrap();
            cr.results = results;
            cr.index = score::index_blocks(&cr.results);
            cr.end = sys::clock::time();
            run.incomplete = false;
            run.interrupted = stopped.is_some();
        }
        stopped
    }

    /// Whether the rounds stop after `round`: `-i`'s count reached, else past the minimum
    /// every ratio within the precision, or no room in the budget for another round.
    fn done(&self, round: usize, rows: &[paired::Row], over_budget: bool) -> bool {
        match self.bounds.fixed {
            Some(n) => round >= n,
            None => {
                round >= paired::MIN_ROUNDS && (over_budget || paired::precise(rows, self.bounds.precision))
            }
        }
    }

    /// One pair of passes of test `s` in `round`, A first in odd rounds, B first in even
    /// ones; measured once more when either pass was disturbed. Err with the signal that
    /// stopped it.
    fn pair(
        &self,
        runners: &mut [Runner; 2],
        s: &mut [InRounds; 2],
        round: usize,
    ) -> std::result::Result<(), i32> {
        let order = if round % 2 == 1 { [0, 1] } else { [1, 0] };
        for attempt in 0..2 {
            for k in order {
                if s[k].out {
                    return Ok(());
                }
                if self.arm_pass(k, &mut runners[k], &mut s[k], round) == Step::Interrupted {
                    return Err(runners[k].exec.caught().unwrap_or(libc::SIGINT));
                }
            }
            let why = s.iter().find_map(|x| disturbed_in(&x.r, round));
            match why {
                Some(why) if attempt == 0 => s.iter_mut().for_each(|x| set_aside(&mut x.r, round, why)),
                _ => break,
            }
        }
        Ok(())
    }

    /// One pass of arm `k` of test `s`, with the work directory holding the test's files.
    fn arm_pass(&self, k: usize, runner: &mut Runner, s: &mut InRounds, round: usize) -> Step {
        let (t, wd) = (s.test, self.workdirs[k]);
        if let Err(e) = wd.provide(t.name) {
            runner.out_of_rounds(s, Some(e.to_string()), None);
            return Step::Stop;
        }
        let step = match prepare(&self.arms[k], t, &runner.policy, wd) {
            Ok(p) => match crate::hostcheck::once(t.name, wd) {
                Ok(()) => runner.round_pass(s, &p, round),
                Err(e) => {
                    runner.out_of_rounds(s, Some(e.to_string()), None);
                    Step::Stop
                }
            },
            Err(why) => {
                runner.out_of_rounds(s, None, Some(why));
                Step::Skipped
            }
        };
        wd.release(t.name);
        step
    }

    /// One line per round on stderr (unless -q): the round, the index's ratio so far, the
    /// seconds left of the budget.
    fn progress(&self, c: usize, round: usize, rows: &[paired::Row], left: f64) {
        if self.verbosity == Verbosity::Quiet {
            return;
        }
        let mut line = format!("{c} cop{} round {round} done", if c == 1 { "y," } else { "ies," });
        if let Some(p) = rows.iter().find(|r| r.is_index).and_then(|r| r.paired) {
            let _ = write!(line, ", B/A on the index {:.3} (95%: {:.3} to {:.3})", p.ratio, p.low, p.high);
        }
        if self.bounds.fixed.is_none() {
            let _ = write!(line, ", {:.0} s of the budget left", left.max(0.0));
        }
        output::note("unixbench ab", &line);
    }
}

/// The tests (by index) still in the rounds of both arms.
fn in_both(states: &[[InRounds; 2]]) -> Vec<usize> {
    let mut order = Vec::new();
    for (i, s) in states.iter().enumerate() {
        if !s.iter().any(|s| s.out) {
            order.push(i);
        }
    }
    order
}

/// What arm `a` runs for test `t` under `policy`: a C UnixBench program, else this or another
/// unixbench binary's kernel as a run prepares it; or why the arm cannot run it.
fn prepare<'w>(
    a: &'w ArmSetup,
    t: &Test,
    policy: &crate::policy::Policy,
    wd: &'w WorkDir,
) -> std::result::Result<Prepared<'w>, String> {
    match &a.c_suite {
        Some((s, testdir)) => {
            let c = s.command(t, policy)?;
            if c.stdin.is_some() {
                return Err("the C arm does not feed each copy its own input file (dc.dat)".into());
            }
            let (cwd, own_dirs) = match c.cwd {
                Some(_) => (testdir, false),
                None => (wd.dir(), matches!(t.kind, Kind::Kernel { .. })),
            };
            Ok(Prepared { argv: c.argv, cwd, own_dirs, planned: Some(c.nominal) })
        }
        None => schedule::prepare(t, policy, a.semantics, wd),
    }
}

/// Arm `k`'s results so far at `c` copies, scored, for the rounds' stopping rule.
fn so_far(states: &[[InRounds; 2]], k: usize, c: usize) -> CopyRun {
    let results: Vec<TestResult> = states
        .iter()
        .map(|s| {
            let mut r = s[k].r.clone();
            if !s[k].out && !r.passes.is_empty() {
                score::score_result(&mut r);
            }
            r
        })
        .collect();
    CopyRun { copies: c, index: score::index_blocks(&results), results, ..Default::default() }
}

/// Why `r`'s pass of `round` was disturbed by something outside the arms, if it was: steal,
/// other processes, or a stop of ab itself. (Throttling and the copies' stops are not: an arm
/// under a quota or a wrapper that holds its copies back measures just that.)
fn disturbed_in(r: &TestResult, round: usize) -> Option<crate::model::Disturbance> {
    use crate::model::Disturbance::{Others, Steal};
    let p = r.passes.iter().rev().find(|p| p.round == Some(round))?;
    let ours = p.noise.is_some_and(|n| n.driver_stopped);
    r.pass_disturbance(p).filter(|d| matches!(d, Steal | Others) || ours)
}

/// Moves `r`'s pass of `round` out of its score, `why` it goes: its pair is measured again.
fn set_aside(r: &mut TestResult, round: usize, why: crate::model::Disturbance) {
    let Some(k) = r.passes.iter().rposition(|p| p.round == Some(round)) else { return };
    let number = r.scored_numbers()[k];
    let pass = r.passes.remove(k);
    r.replaced.push(crate::model::Replaced { pass, why, number });
}

/// `-n`: the arms, the tests and copy counts, a round's time, the rounds' bounds.
fn describe_plan(plan: &Plan, arms: &[ArmSetup; 2], budget: f64, fixed: Option<usize>, json: bool) -> String {
    let share = budget / plan.copies.len() as f64;
    let each: Vec<(usize, Vec<&str>, f64)> = plan
        .copies
        .iter()
        .map(|&c| (c, plan.tests_at(c).iter().map(|t| t.name).collect(), round_secs(plan, arms, c)))
        .collect();
    if json {
        return plan_json(arms, &each, share, fixed);
    }
    let mut s = String::from("unixbench ab: the plan\n");
    for (key, a) in ["A", "B"].iter().zip(arms) {
        let what =
            if a.changes.is_empty() { "this binary as it is".to_string() } else { a.changes.join("; ") };
        let _ = if a.name == *key {
            writeln!(s, "  {key}: {what}")
        } else {
            writeln!(s, "  {key} ({}): {what}", a.name)
        };
    }
    for (c, names, round) in each {
        let _ = writeln!(s, "{c} cop{}:", if c == 1 { "y" } else { "ies" });
        s += &fmt::wrapped(&names.join(" "), 76, "    ", "    ");
        let _ = writeln!(s, "  a round (a pass of each test in each arm): about {round:.0} s");
        let _ = match fixed {
            Some(n) => writeln!(s, "  {n} rounds: about {:.0} s", n as f64 * round),
            None => {
                let most = (share / round).floor().max(paired::MIN_ROUNDS as f64);
                write!(
                    s,
                    "  at least {} rounds (about {:.0} s), then until every ratio is within the\n  \
                     precision or the budget's {share:.0} s are spent (at most about {most:.0} rounds)\n",
                    paired::MIN_ROUNDS,
                    paired::MIN_ROUNDS as f64 * round
                )
            }
        };
    }
    s
}

/// `-n --format json`: the arms, and per copy count its tests, a round's seconds, the rounds'
/// bounds.
fn plan_json(
    arms: &[ArmSetup; 2],
    each: &[(usize, Vec<&str>, f64)],
    share: f64,
    fixed: Option<usize>,
) -> String {
    let mut j = base::json::Writer::pretty();
    j.begin_object().key("arms").begin_array();
    for (key, a) in ["A", "B"].iter().zip(arms) {
        j.begin_object().key("arm").string(key).key("name").string(&a.name).key("changes").begin_array();
        for c in &a.changes {
            j.string(c);
        }
        j.end_array().end_object();
    }
    j.end_array().key("copy_counts").begin_array();
    for (c, names, round) in each {
        j.begin_object().key("copies").int(*c as i64).key("tests").begin_array();
        for n in names {
            j.string(n);
        }
        j.end_array().key("round_secs").number(*round);
        j.key("min_rounds").int(fixed.unwrap_or(paired::MIN_ROUNDS) as i64);
        j.key("max_rounds").opt_int(fixed.map(|n| n as i64));
        j.key("budget_secs").opt_number(fixed.is_none().then_some(share));
        j.end_object();
    }
    j.end_array().end_object();
    j.finish()
}

/// The report on stdout in the asked format, the JSON file if asked; the exit status.
fn finish(ab: &AbRun, opts: &Options, stopped_by: Option<i32>) -> Result {
    if let Some(JsonOut::File(f)) = &opts.json {
        output::write_atomic(f, report::ab::json(ab).as_bytes())
            .map_err(|e| Error::failed(format!("cannot write {}: {e}", f.display())))?;
    }
    crate::error::print(&report::ab::render(opts.format, ab))?;
    if let Some(sig) = stopped_by {
        return Err(Error::failed_with(
            128 + sig,
            format!("stopped by {}: the report holds the rounds that finished", signals::name(sig)),
        ));
    }
    let mut failed: Vec<String> = Vec::new();
    for (k, a) in ab.arms.iter().enumerate() {
        let arm = report::ab::label(ab, k);
        for r in a.run.runs.iter().flat_map(|cr| &cr.results).filter(|r| r.error.is_some()) {
            failed.push(format!("{} in {arm}", r.name));
        }
    }
    if !failed.is_empty() {
        return Err(Error::failed(format!("failed: {}", failed.join(", "))));
    }
    Ok(())
}
