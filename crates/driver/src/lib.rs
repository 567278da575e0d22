//! The driver: what UnixBench's Perl `Run` does. Parse the command line (`options`), make the
//! directories and the private work directory, then for each copy count run each test's passes
//! (`exec`: fork + exec of this binary's kernels, never in-process), turn samples into scores
//! (`score`, pure math) and write what the exporters make of the model (`output`). A failing
//! test is recorded and the run goes on; a signal stops it cleanly (`signals`).
//!
//! Invariants: nothing is created on disk before the command line and the directories are known
//! to be good; every copy is reaped and its process group killed (its orphans reaped too: the
//! driver is their subreaper) before its pass returns; the report files are rewritten after
//! every test, so a stopped run keeps what it measured.

pub(crate) use base::{args, error, fmt, model, protocol, selfexe, suite, sys};
pub(crate) use probe::{cpulimit, noise, sysinfo};
pub(crate) use scoring::{outcome, quick, score, stats};

pub mod exec;
pub mod host;
pub mod hosttools;
pub mod install;
pub mod manual;
pub mod options;
pub mod output;
pub mod passes;
pub mod plan;
pub mod policy;
pub mod signals;
pub mod workdir;

use crate::error::{Error, Result};
use crate::model::{CopyRun, Run, Settings, SystemInfo, TestResult};
use crate::suite::{Arg, Kind, Test};
use crate::workdir::WorkDir;
use base::version::{Semantics, SEMANTICS_VAR};
use options::{Options, Parsed};
use output::{Console, Files};
use passes::{InRounds, Prepared, Processes, Runner, Step};
use plan::{Estimate, Plan};
use policy::Policy;
use std::ffi::OsString;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use twin::exec_image;

/// Whether `name` is a test or group name the driver knows.
pub fn knows(name: &str) -> bool {
    options::knows(name)
}

/// Runs tests as `Run` does; `args` excludes the program name.
pub fn main(args: Vec<OsString>) -> Result {
    main_in(args, None)
}

/// The driver entered through a link named `Run` (`argv0`): as UnixBench's, its results and tmp
/// directories default to `results/` and `tmp/` beside it, made when missing.
pub fn main_as_run(argv0: &std::ffi::OsStr, args: Vec<OsString>) -> Result {
    let _ = output::PROGRAM.set("Run");
    main_in(args, Some(run_home(Path::new(argv0))))
}

/// The directory of the `Run` that was invoked as `argv0`, as Perl's FindBin finds it: the
/// directory part of the path, else the first PATH entry that holds it, else `.`.
fn run_home(argv0: &Path) -> PathBuf {
    let dir = match argv0.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d.to_path_buf(),
        None => std::env::var_os("PATH")
            .and_then(|p| std::env::split_paths(&p).find(|d| d.join(argv0).is_file()))
            .unwrap_or_else(|| PathBuf::from(".")),
    };
    // As FindBin's: the directory made absolute, `..` and links resolved.
    std::fs::canonicalize(&dir).or_else(|_| std::path::absolute(&dir)).unwrap_or(dir)
}

/// The driver, step by step: the command line, the directories and the host, the plan (or
/// just its description), the environment the copies inherit, the work and result
/// directories, then the run and its conclusion.
fn main_in(args: Vec<OsString>, home: Option<PathBuf>) -> Result {
    let mut opts = match options::parse(args)? {
        Parsed::Help => return crate::error::print(&options::help()),
        Parsed::Version => return crate::error::print(&base::version::full()),
        Parsed::Run(o) => *o,
    };
    // A file size limit must not kill the run: writing the log or a report then fails with
    // EFBIG, and says so. (A closed stdout, `unixbench | head`, is handled with the signals.)
    let _ = sys::signal::ignore(libc::SIGXFSZ);
    check_exec_image(&opts)?;
    export_semantics(opts.semantics());
    let exe = crate::selfexe::path().map_err(Error::failed)?;
    // Checks both directories; creates nothing (the results directory is made further down,
    // once the work directory exists).
    let dirs = Dirs::prepare(&opts, home.as_deref())?;
    check_json_file(&mut opts)?;
    let system = describe_host(&opts);
    let plan = Plan::resolve(&opts, system.cpu_limit.as_ref().map(|l| l.cpus))?;
    if opts.dry_run {
        return print_dry_run(&opts, &plan, &dirs);
    }
    export_environment(&opts, &dirs, &exe);
    // The kernels' orphans (context1's partner, spawn's children) become ours to reap at the end
    // of each pass (exec.rs), not init's: some inits reap only every few seconds, and a pass
    // waits until its process group is empty.
    let _ = sys::proc::become_subreaper();
    let watch =
        signals::Watch::install().map_err(|e| Error::failed(format!("cannot handle signals: {e}")))?;
    let (mut made_tmp, workdir, made_results) = make_directories(&dirs)?;
    let mut run = new_run(&opts, &plan, &dirs, system);
    let files = create_files(&opts, &dirs, &run, made_results)?;
    if files.is_some() {
        made_tmp.keep();
    }
    let margin = opts.env.watchdog_margin().unwrap_or(exec::WATCHDOG_MARGIN);
    let mut processes = Processes { watch: &watch, noise: run.settings.noise, margin };
    let mut runner = new_runner(&opts, &plan, &run, &exe, &mut processes, files);
    // The result set holds a report (marked incomplete) from the start, never an empty file.
    runner.save(&run);
    runner.console.plan(plan.copies.iter().map(|&c| plan.tests_at(c).count()).sum());
    runner.console.start(&run);
    if plan.is_full_index() {
        runner.console.forewarn(plan.estimate(), plan.quick_estimate());
    }
    note_memory_tmpdir(&plan, &opts, &dirs);
    let stopped_by = run_plan(&plan, &mut runner, &workdir, &mut run);
    run.interrupted = stopped_by.is_some();
    run.incomplete = false;
    runner.save(&run);
    runner.console.finish(&run, opts.format, &saved_where(runner.files.as_ref()));
    conclude(&run, runner, stopped_by)
}

/// What runs the plan's tests: its copies' processes, the console, the result files.
fn new_runner<'a>(
    opts: &Options,
    plan: &Plan,
    run: &Run,
    exe: &'a Path,
    exec: &'a mut Processes,
    files: Option<Files>,
) -> Runner<'a> {
    Runner {
        exe,
        exec,
        policy: plan.policy.clone(),
        console: Console::new(opts.verbosity, opts.format),
        files,
        estimate: Estimate { left: plan.estimate() },
        lost: Vec::new(),
        remeasure: run.settings.remeasure,
        semantics: plan.semantics,
        buffer: None,
    }
}

/// `--dry-run`: the plan, as text or (`--format json`) as JSON.
fn print_dry_run(opts: &Options, plan: &Plan, dirs: &Dirs) -> Result {
    crate::error::print(&match opts.format {
        options::Format::Json => dry_run_json(plan, dirs),
        _ => dry_run(plan, dirs),
    })
}

/// `--json=FILE` made absolute, and refused when it names a directory or an unusable one.
fn check_json_file(opts: &mut Options) -> Result<()> {
    if let Some(options::JsonOut::File(f)) = &mut opts.json {
        *f = absolute(f, "--json file", "--json")?;
        if f.is_dir() {
            return Err(Error::usage(format!("--json: {} is a directory", f.display())));
        }
        usable_dir(f.parent().unwrap_or(Path::new("/")), "directory of the --json file")?;
        output::replaceable(f).map_err(|e| Error::usage(format!("--json: {e}")))?;
    }
    Ok(())
}

/// The system block of the reports, with the CPUs this process may use.
fn describe_host(opts: &Options) -> SystemInfo {
    let mut system = crate::sysinfo::gather(opts.verbosity == options::Verbosity::Brief);
    let roots = crate::cpulimit::Roots { proc: Path::new("/proc"), sys: Path::new("/sys") };
    system.cpu_limit = crate::cpulimit::detect(&roots, sys::info::affinity().as_deref());
    if let Some(l) = system.cpu_limit.as_mut() {
        // The detail names cgroup paths, which are the host's strings (as gather's are).
        l.detail = crate::fmt::printable(&l.detail);
    }
    system
}

/// What `--dry-run` prints: the plan, and where the run would write.
fn dry_run(plan: &Plan, dirs: &Dirs) -> String {
    let to = dirs.results.as_ref().map_or("nowhere (--no-save)".into(), |r| r.display().to_string());
    let mut d = plan.describe();
    d += &format!("Results would go to {to}; the file tests would write in {}\n", dirs.tmp.display());
    d
}

/// `--dry-run --format json`: the plan for programs (`{"schema":"unixbench-plan",...}`).
fn dry_run_json(plan: &Plan, dirs: &Dirs) -> String {
    let mut j = base::json::Writer::pretty();
    j.begin_object();
    j.key("schema").string("unixbench-plan");
    j.key("schema_version").int(1);
    j.key("kind").string(&plan.kind());
    let layout = plan.lay_out();
    j.key("estimated_secs").number(layout.total().round());
    j.key("again_secs").number(layout.again.round());
    j.key("results_dir").opt_string(dirs.results.as_ref().map(|r| r.to_string_lossy()).as_deref());
    j.key("tmpdir").string(&dirs.tmp.to_string_lossy());
    j.key("tests").begin_array();
    for r in &layout.rows {
        j.begin_object();
        j.key("copies").int(r.copies as i64);
        j.key("test").string(r.test);
        j.key("passes").int(r.passes as i64);
        j.key("passes_at_least").int(r.min_passes as i64);
        j.key("passes_at_most").bool(r.min_passes < r.passes);
        j.key("pass_secs").number(r.secs);
        j.key("settle_secs").opt_number(r.settle);
        j.key("estimate_secs").number(r.estimate);
        j.end_object();
    }
    j.end_array();
    j.end_object();
    j.finish()
}

/// The environment every copy inherits.
fn export_environment(opts: &Options, dirs: &Dirs, exe: &Path) {
    // As Run: the tools of the shell tests see this locale, and the directories are exported.
    std::env::set_var("LANG", "en_US.utf8");
    std::env::set_var("UB_TMPDIR", &dirs.tmp);
    // Kernels run with argv[0] = their name; where /proc is missing this tells them (execl) where
    // their own file is.
    std::env::set_var(crate::selfexe::HINT_VAR, exe);
    if let Some(r) = &dirs.results {
        std::env::set_var("UB_RESULTDIR", r);
    }
    // The copies' exec image: the applets read `--exec-image` here.
    if let Some(v) = &opts.exec_image {
        std::env::set_var(exec_image::VAR, v);
    }
}

/// The tmp directory (beside Run, when it is made), the run's private work directory in it
/// (once the work directories of killed runs are gone) and the results directory; a warning
/// for either shared directory that others can write. Returns what was made.
fn make_directories(dirs: &Dirs) -> Result<(MadeDir, WorkDir, bool)> {
    // A tmp dir made beside Run goes again if the run stops before it starts, or writes no
    // files (--no-save); a run that saves leaves it, as Run does.
    let made_tmp = MadeDir(dirs.make_tmp()?.then(|| dirs.tmp.clone()));
    let swept = crate::workdir::sweep_stale(&dirs.tmp);
    if !swept.is_empty() {
        let names: Vec<String> = swept.iter().map(|p| p.display().to_string()).collect();
        output::note(&format!("removed the work directories of runs that were killed: {}", names.join(", ")));
    }
    let workdir = WorkDir::create(&dirs.tmp)
        .map_err(|e| Error::usage(format!("cannot make a work directory in {}: {e}", dirs.tmp.display())))?;
    let made_results = dirs.make_results()?;
    for (d, what) in [(Some(&dirs.tmp), "tmp directory"), (dirs.results.as_ref(), "results directory")] {
        if let Some((d, why)) = d.and_then(|d| Some((d, open_to_others(d)?))) {
            output::note(&format!(
                "warning: the {what} {} {why}: they can replace what this run writes there",
                d.display()
            ));
        }
    }
    Ok((made_tmp, workdir, made_results))
}

/// Whether disturbed passes are measured again: always in a quick run, which has the budget
/// for it and whose few passes a disturbed one would weigh on most; in the others when asked.
fn remeasures(opts: &Options, plan: &Plan) -> bool {
    opts.remeasure || plan.quick_budget().is_some()
}

/// The run model before its first test: the system, the settings the reports record.
fn new_run(opts: &Options, plan: &Plan, dirs: &Dirs, system: SystemInfo) -> Run {
    Run {
        version: report::version(opts.semantics()),
        build: base::version::build(),
        system,
        settings: Settings {
            tests: opts.tests.iter().map(|t| t.to_string()).collect(),
            copies: plan.copies.clone(),
            iterations: opts.iterations,
            duration: opts.duration,
            quick: plan.quick_budget(),
            // The host's noise is read around each pass unless UB_NOISE=off asks not to.
            noise: opts.env.noise(),
            remeasure: remeasures(opts, plan),
            seed: plan.rounds.then(|| opts.seed.unwrap_or_else(fresh_seed)),
            verbosity: opts.verbosity,
            tmpdir: dirs.tmp.display().to_string(),
            resultdir: dirs.results.as_ref().map(|r| r.display().to_string()).unwrap_or_default(),
        },
        runs: Vec::new(),
        interrupted: false,
        incomplete: true,
    }
}

/// The result set, unless `--no-save`; a results directory made for it goes again when the
/// set cannot be made.
fn create_files(opts: &Options, dirs: &Dirs, run: &Run, made_results: bool) -> Result<Option<Files>> {
    let Some(dir) = &dirs.results else { return Ok(None) };
    let host = crate::fmt::file_name_part(&run.system.hostname);
    Files::create(dir, &host, &today(), opts.json.as_ref(), &opts.env).map(Some).map_err(|e| {
        if made_results {
            let _ = std::fs::remove_dir(dir);
        }
        Error::usage(e.to_string())
    })
}

/// ./Run writes beside itself, usually on a disk: when the file tests will write to memory,
/// say why File Copy may be far higher.
fn note_memory_tmpdir(plan: &Plan, opts: &Options, dirs: &Dirs) {
    if plan.tests.iter().any(|t| t.name.starts_with("fs"))
        && opts.verbosity != options::Verbosity::Quiet
        && sys::fd::in_memory_fs(dirs.tmp.as_os_str())
    {
        output::note(&format!(
            "note: {} is in memory (tmpfs); the file tests will not measure a disk \
             (use --tmpdir DIR on a disk to compare with runs of UnixBench's ./Run)",
            dirs.tmp.display()
        ));
    }
}

/// Runs every (copies, test) of the plan into `run`, saving the report after each test.
/// Returns the signal that stopped it, if one did.
fn run_plan(plan: &Plan, runner: &mut Runner, workdir: &WorkDir, run: &mut Run) -> Option<i32> {
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
        if !revisit(runner, workdir, run) {
            return Some(runner.exec.caught().unwrap_or(libc::SIGINT));
        }
        run.runs.last_mut().unwrap().end = sys::clock::time();
    }
    None
}

/// The tests of the copy count begun last, in rounds: each round one pass of every test that
/// wants one (`Runner::wants_round`), in an order shuffled afresh from `rng`, logged. A quick
/// run's rounds go on until `quick::rounds_done` (its tests' shares and what it held back for
/// second visits are one budget), the others until every test has its passes. Each test is
/// scored after the last round, and the report saved. False when a signal stopped them: the
/// copy count's tests are then not reported, as a test stopped between passes is not.
fn run_rounds(
    plan: &Plan,
    runner: &mut Runner,
    workdir: &WorkDir,
    run: &mut Run,
    rng: &mut oorandom::Rand64,
) -> bool {
    let c = run.runs.last().unwrap().copies;
    let planned: Vec<&'static Test> = plan.tests_at(c).collect();
    let budgets = runner.policy.begin_rounds(&planned);
    let mut tests: Vec<InRounds> =
        planned.iter().zip(budgets).map(|(t, b)| runner.open_rounds(t, c, b)).collect();
    let budget: Option<f64> = tests.iter().map(|s| s.budget()).sum::<Option<f64>>();
    let budget = budget.map(|b| b + runner.policy.release_held().unwrap_or(0.0));
    let began = runner.exec.now();
    for round in 1.. {
        let mut order: Vec<usize> = (0..tests.len()).filter(|&i| runner.wants_round(&tests[i])).collect();
        if order.is_empty() {
            break;
        }
        shuffle(&mut order, rng);
        let names: Vec<&str> = order.iter().map(|&i| tests[i].test.name).collect();
        runner.log(&format!("** round {round}: {}\n", names.join(" ")));
        for i in order {
            if round_pass(runner, workdir, &mut tests[i], round) == Step::Interrupted {
                runner.interrupted();
                return false;
            }
        }
        let spent = runner.exec.now() - began;
        let running: Vec<&TestResult> = tests.iter().filter(|s| !s.out).map(|s| &s.r).collect();
        if budget.is_some_and(|b| quick::rounds_done(&running, round, spent, b)) {
            break;
        }
    }
    let cr = run.runs.last_mut().unwrap();
    cr.results = tests.into_iter().map(|s| runner.close_rounds(s)).collect();
    cr.index = score::index_blocks(&cr.results);
    cr.end = sys::clock::time();
    runner.save(run);
    true
}

/// One pass of `s` in `round`, with the work directory holding its files while it runs.
fn round_pass(runner: &mut Runner, workdir: &WorkDir, s: &mut InRounds, round: usize) -> Step {
    let t = s.test;
    match with_files(runner, workdir, t, |runner, p| runner.round_pass(s, &p, round)) {
        Ok(Ok(step)) => step,
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
fn shuffle(v: &mut [usize], rng: &mut oorandom::Rand64) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.rand_range(0..(i as u64 + 1)) as usize);
    }
}

/// A seed for the rounds' orders when `--seed` gives none: the clock's nanoseconds and the
/// process id, which differ from run to run.
fn fresh_seed() -> u64 {
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
fn revisit(runner: &mut Runner, workdir: &WorkDir, run: &mut Run) -> bool {
    let Some(mut pool) = runner.policy.release_held() else { return true };
    let policy = &runner.policy;
    let pass_secs = |r: &TestResult| suite::test(&r.name).map_or(0.0, |t| policy.pass_secs(t));
    let due = quick::due_again(&run.runs.last().unwrap().results, pass_secs);
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
    let visit = |runner: &mut Runner, p: Prepared| runner.revisit(t, &p, r, share);
    match with_files(runner, workdir, t, visit) {
        Ok(Ok(spent)) => spent,
        Ok(Err(_)) | Err(_) => Some(0.0),
    }
}

/// One test at `copies` copies. None when a signal stopped it.
fn run_test(runner: &mut Runner, workdir: &WorkDir, t: &'static Test, copies: usize) -> Option<TestResult> {
    let run = |runner: &mut Runner, p: Prepared| runner.run_passes(t, copies, &p);
    match with_files(runner, workdir, t, run) {
        Ok(Ok(r)) => r,
        Ok(Err(why)) => Some(runner.not_run(t, copies, None, Some(why))),
        Err(e) => Some(runner.not_run(t, copies, Some(e.to_string()), None)),
    }
}

/// `visit` of test `t` as prepared, with the work directory holding the files it reads while
/// it runs (and only then); why it is skipped when it cannot be prepared, or why its files
/// could not be provided.
fn with_files<R>(
    runner: &mut Runner,
    workdir: &WorkDir,
    t: &Test,
    visit: impl FnOnce(&mut Runner, Prepared) -> R,
) -> std::io::Result<std::result::Result<R, String>> {
    workdir.provide(t.name)?;
    let r = prepare(t, &runner.policy, runner.semantics, workdir).map(|p| visit(runner, p));
    workdir.release(t.name);
    Ok(r)
}

/// What a test runs under `policy`, or why it is skipped. Each kernel copy works in a
/// directory of its own, which the file tests' `-d WORKDIR` names for it (`exec::Command`),
/// but under 5.1.3's semantics in the one they all share, as 5.1.3's fstime copies shared
/// their files; the host tests in the work directory, where their scripts are.
fn prepare<'w>(
    t: &Test,
    policy: &Policy,
    semantics: Semantics,
    workdir: &'w WorkDir,
) -> std::result::Result<Prepared<'w>, String> {
    let secs = |s: u32| policy.secs(t, s);
    let words = |prog: &str, args: &[Arg]| kernel_argv(t, prog, args, policy, workdir.path());
    let cwd = workdir.dir();
    match t.kind {
        Kind::Kernel { prog, args } => {
            let own_dirs = semantics == Semantics::V6;
            Ok(Prepared { argv: words(prog, args), stdin: None, cwd, own_dirs })
        }
        Kind::Graphics { prog, args } if cfg!(feature = "graphics") => {
            Ok(Prepared { argv: words(prog, args), stdin: None, cwd, own_dirs: true })
        }
        Kind::Graphics { .. } => Err("this binary was built without graphics".into()),
        Kind::Host { secs: s } => {
            let h = host::command(t.name, workdir, secs(s))?;
            Ok(Prepared { argv: h.argv, stdin: h.stdin, cwd, own_dirs: false })
        }
    }
}

/// The exit status and the last word of a run that ended (or was stopped by `stopped_by`):
/// what could not be written where, and which tests failed, make it non-zero. A result is
/// never lost in silence.
fn conclude(run: &Run, mut runner: Runner, stopped_by: Option<i32>) -> Result {
    if let Some(e) = runner.files.as_ref().and_then(|f| f.log_error()) {
        runner.lost.push(format!(
            "the log {} is incomplete: {e}",
            output::with_ext(&runner.files.as_ref().unwrap().base, "log").display()
        ));
    }
    let saved =
        runner.files.as_ref().map(|f| format!("; results in {}", f.base.display())).unwrap_or_default();
    if let Some(e) = &runner.console.stdout_error {
        let rest = match &runner.files {
            Some(f) if runner.lost.is_empty() => format!("the results are in {}", f.base.display()),
            Some(_) => "the result files are incomplete too (above)".to_string(),
            None => "--no-save: these results are lost".to_string(),
        };
        runner.lost.push(format!("cannot write the report to stdout: {}; {rest}", crate::error::reason(e)));
    }
    if let Some(sig) = stopped_by {
        runner.lost.iter().for_each(|l| output::note(l));
        return Err(Error::failed_with(
            128 + sig,
            format!("stopped by {}: the report holds the tests that finished{saved}", signals::name(sig)),
        ));
    }
    let failed: Vec<String> = run
        .runs
        .iter()
        .flat_map(|cr| {
            cr.results
                .iter()
                .filter(|r| r.error.is_some())
                .map(move |r| format!("{} ({} x)", r.name, cr.copies))
        })
        .collect();
    if let Some((last, rest)) = runner.lost.split_last() {
        rest.iter().for_each(|l| output::note(l));
        let also =
            if failed.is_empty() { String::new() } else { format!(" (and {} test(s) failed)", failed.len()) };
        return Err(Error::failed(format!("{last}{also}")));
    }
    if !failed.is_empty() {
        return Err(Error::failed(format!(
            "{} test{} failed: {}{saved}",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" },
            failed.join(", ")
        )));
    }
    Ok(())
}

/// Where the run's files went, as its summary ends: `results in <base> (and .html, .log)`.
fn saved_where(files: Option<&Files>) -> String {
    let Some(f) = files else { return "no file written (--no-save)".to_string() };
    let mut also = vec![".html", ".log"];
    also.extend(f.csv_written().then_some(".csv"));
    let json = f.json.as_ref().map(|p| format!(", JSON in {}", p.display())).unwrap_or_default();
    format!("results in {} (and {}){json}", f.base.display(), also.join(", "))
}

/// The results and tmp directories, checked before anything runs. The tmp directory must exist
/// (a typo must not make the file tests measure another disk); the results directory is made
/// (0755, as Run; its last component only, as mkdir) by [`Dirs::make_results`], once
/// everything else is known to be good.
struct Dirs {
    /// None with `--no-save`.
    results: Option<PathBuf>,
    tmp: PathBuf,
    /// Whether `tmp` is the default beside `Run`, made when missing as Run makes it.
    make_tmp: bool,
    /// Say so when the results directory is made: one that was named (`--results`,
    /// `UB_RESULTDIR`), not Run's own `results/`.
    announce: bool,
}

impl Dirs {
    /// `home`: the directory of the `Run` link the driver was entered through, if it was.
    fn prepare(o: &Options, home: Option<&Path>) -> Result<Dirs> {
        let env = |v: &Option<PathBuf>, k: &'static str| v.clone().map(|v| (v, k));
        let beside = |d: &str| home.map(|h| (h.join(d), "the directory of Run"));
        let (tmp, from) = o
            .tmpdir
            .clone()
            .map(|t| (t, "--tmpdir"))
            .or_else(|| env(&o.env.tmpdir, "UB_TMPDIR"))
            .or_else(|| beside("tmp"))
            .or_else(|| env(&o.env.system_tmpdir, "TMPDIR"))
            .unwrap_or_else(|| ("/tmp".into(), "the default"));
        let make_tmp = home.is_some() && from == "the directory of Run";
        let tmp = absolute(&tmp, "tmp directory", from)?;
        if make_tmp {
            not_planted(&tmp)?;
        }
        if !tmp.exists() && !make_tmp {
            return Err(Error::usage(format!(
                "the tmp directory {} (from {from}) does not exist; it is not created: make it, or name another",
                tmp.display()
            )));
        }
        if tmp.exists() {
            usable_dir(&tmp, "tmp directory")?;
        }
        let mut announce = false;
        let results = if o.save {
            let (r, from) = o
                .results
                .clone()
                .map(|r| (r, "--results"))
                .or_else(|| env(&o.env.results, "UB_RESULTDIR"))
                .or_else(|| beside("results"))
                .unwrap_or_else(|| ("results".into(), "the default"));
            let r = absolute(&r, "results directory", from)?;
            if from == "the directory of Run" {
                not_planted(&r)?;
            }
            if r.exists() {
                usable_dir(&r, "results directory")?;
            } else if !r.parent().is_some_and(Path::is_dir) {
                // As mkdir: a typo in a parent must not make a tree somewhere unexpected.
                return Err(Error::usage(format!(
                    "the results directory {} (from {from}) cannot be made: its parent does not \
                     exist, and only the last component is made, as mkdir does",
                    r.display()
                )));
            }
            announce = from != "the default" && from != "the directory of Run";
            Some(r)
        } else {
            None
        };
        let announce = announce && o.verbosity != options::Verbosity::Quiet;
        Ok(Dirs { results, tmp, make_tmp, announce })
    }

    /// Makes the tmp directory beside `Run` if missing (0755, as Run); returns whether it did.
    fn make_tmp(&self) -> Result<bool> {
        let made = self.make_tmp && !self.tmp.exists();
        if made {
            std::fs::DirBuilder::new().mode(0o755).create(&self.tmp).map_err(|e| {
                Error::usage(format!("cannot create the tmp directory {}: {e}", self.tmp.display()))
            })?;
        }
        usable_dir(&self.tmp, "tmp directory").map(|()| made)
    }

    /// Makes the results directory if missing (0755, as Run) and checks it. Returns whether
    /// it was made here.
    fn make_results(&self) -> Result<bool> {
        let Some(r) = &self.results else { return Ok(false) };
        let made = !r.exists();
        if made {
            std::fs::DirBuilder::new().mode(0o755).create(r).map_err(|e| {
                Error::usage(format!("cannot create the results directory {}: {e}", r.display()))
            })?;
            if self.announce {
                output::note(&format!("made the results directory {}", r.display()));
            }
        }
        usable_dir(r, "results directory").map(|()| made)
    }
}

/// A directory this run made, removed (when empty) as the run ends unless kept.
struct MadeDir(Option<PathBuf>);

impl MadeDir {
    fn keep(&mut self) {
        self.0 = None;
    }
}

impl Drop for MadeDir {
    fn drop(&mut self) {
        if let Some(d) = &self.0 {
            let _ = std::fs::remove_dir(d);
        }
    }
}

pub use crate::sys::dir::open_to_others;

/// Refuses Run's own `results/` or `tmp/` when it is a link or belongs to another user (who
/// may have planted it there to have this run write elsewhere): named, left alone, exit 1.
fn not_planted(dir: &Path) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let Ok(m) = std::fs::symlink_metadata(dir) else { return Ok(()) };
    let why = if m.file_type().is_symlink() {
        "is a symbolic link".to_string()
    } else if m.uid() != sys::proc::geteuid() {
        format!("belongs to another user (uid {})", m.uid())
    } else {
        return Ok(());
    };
    Err(Error::failed(format!(
        "{} {why}: it is left alone and not written through (remove it, or name another directory)",
        dir.display()
    )))
}

/// The `names` that are files in a PATH directory other than `dir` and not `ours` (a link of
/// this binary's): `--install`'s check for names it would shadow. Here, built for size, rather
/// than beside `--install`, which is built for speed with dispatch.
#[inline(never)]
pub fn on_path_elsewhere<'a>(dir: &Path, names: &[&'a str], ours: &dyn Fn(&Path) -> bool) -> Vec<&'a str> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let here = std::fs::canonicalize(dir).ok();
    let others: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|p| p.is_absolute() && std::fs::canonicalize(p).ok() != here)
        .collect();
    let clash = |n: &&str| others.iter().any(|p| p.join(n).is_file() && !ours(&p.join(n)));
    names.iter().copied().filter(clash).collect()
}

/// `dir` made absolute (the tests run in another working directory); an empty one is refused.
fn absolute(dir: &Path, what: &str, from: &str) -> Result<PathBuf> {
    std::path::absolute(dir).map_err(|e| {
        Error::usage(format!("invalid {what} {} (from {from}): {e}", crate::args::quoted(dir.as_os_str())))
    })
}

/// Checks that `dir` is a writable directory.
fn usable_dir(dir: &Path, what: &str) -> Result {
    // Opened as a directory, never blocking on what a path there may be.
    if let Err(e) = sys::fd::open_file(dir, sys::fd::Open::Dir) {
        return Err(Error::usage(format!("the {what} is not a usable directory: {e}")));
    }
    if !sys::fd::writable(dir.as_os_str()) {
        return Err(Error::usage(format!("the {what} {} is not writable", dir.display())));
    }
    Ok(())
}

/// `YYYY-MM-DD`, local time.
fn today() -> String {
    let (_, tm) = sys::clock::local_now();
    format!("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday)
}

/// A kernel's argv under `policy`: `prog`, then its arguments with each standard duration
/// mapped to the one this run passes, `tmpdir` for the file tests' directory, and the words only
/// a short or quick run passes (none in a standard run: its argv is Run's).
fn kernel_argv(t: &Test, prog: &str, args: &[Arg], policy: &Policy, tmpdir: &Path) -> Vec<OsString> {
    let mut argv = vec![OsString::from(prog)];
    let settle = policy.fstime_settle();
    for a in args {
        match a {
            Arg::Lit(s) => argv.push(s.into()),
            Arg::Secs(s) => argv.push(policy.secs(t, *s).to_string().into()),
            Arg::TmpDir => argv.push(tmpdir.as_os_str().to_owned()),
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

/// The copies' semantics, through the environment the kernels and the shell scripts read:
/// `UB_SEMANTICS=5.1.3`, or none for 6.0's (whatever the driver's own environment said).
fn export_semantics(semantics: Semantics) {
    match semantics {
        Semantics::V513 => std::env::set_var(SEMANTICS_VAR, semantics.release()),
        Semantics::V6 => std::env::remove_var(SEMANTICS_VAR),
    }
}

/// Refuses, before anything is created, an exec image the copies could not honour: a bad
/// `UB_EXEC_IMAGE` in the environment, or `dynamic` where this host has no loader for a twin of
/// a test in the plan. A loader that is there but fails is found by the copies themselves.
fn check_exec_image(opts: &options::Options) -> Result<()> {
    let req = match &opts.exec_image {
        // Checked by the option's parser.
        Some(v) => exec_image::parse_request(v).unwrap_or(exec_image::Request::Auto),
        None => exec_image::request().map_err(Error::usage)?,
    };
    if let exec_image::Request::Dynamic(_) = req {
        for (program, _) in exec_image::PROGRAMS {
            if opts.tests.contains(&program) {
                exec_image::candidates(program, req)
                    .map_err(|e| Error::usage(format!("--exec-image: {e}")))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite;

    /// A test's argv as the standard driver (Run's durations, or `-t`) and a quick run build it.
    fn argv(name: &str, duration: Option<u32>, quick: bool) -> Vec<String> {
        let t = suite::test(name).unwrap();
        let Kind::Kernel { prog, args } = t.kind else { panic!("{name}") };
        let policy = match (quick, duration) {
            (true, _) => Policy::Quick(policy::Budget::new(1.0, 0.0, 1.0)),
            (false, Some(secs)) => Policy::Short { secs, iterations: None },
            (false, None) => Policy::Standard { iterations: None },
        };
        kernel_argv(t, prog, args, &policy, Path::new("/t"))
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_standard_run_passes_what_run_passes() {
        assert_eq!(argv("whetstone-double", None, false), ["whetstone-double"]);
        // A short run is not Run's: whetstone follows -t, fstime's settles shrink with it.
        assert_eq!(argv("whetstone-double", Some(1), false), ["whetstone-double", "1"]);
        assert_eq!(argv("dhry2reg", None, false), ["dhry2reg", "10"]);
        assert_eq!(
            argv("fstime", None, false),
            ["fstime", "-c", "-t", "30", "-d", "/t", "-b", "1024", "-m", "2000"]
        );
        assert_eq!(
            argv("fsdisk-r", Some(2), false),
            ["fstime", "-r", "-t", "2", "-d", "/t", "-b", "4096", "-m", "8000", "-s", "0.13"]
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
            ["fstime", "-c", "-t", "2", "-d", "/t", "-b", "1024", "-m", "2000", "-s", "0.25"]
        );
        assert_eq!(
            argv("fsbuffer-w", Some(7), true),
            ["fstime", "-w", "-t", "2", "-d", "/t", "-b", "256", "-m", "500", "-s", "0.25"]
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
