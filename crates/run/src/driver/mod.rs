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

pub mod exec;
pub mod host;
pub mod options;
pub mod output;
pub mod score;
pub mod signals;

use crate::error::{Error, Result};
use crate::model::{Category, CopyRun, Run, Settings, TestResult};
use crate::quick;
use crate::suite::{self, Arg, Kind, Test};
use crate::sys;
use crate::workdir::WorkDir;
use options::{Options, Parsed, Quick};
use output::{Console, Files};
use std::ffi::OsString;
use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use twin::image as exec_image;

/// Whether `name` is a test or group name the driver knows.
pub fn knows(name: &str) -> bool {
    options::knows(name)
}

/// Runs tests as `Run` does; `args` excludes the program name.
pub fn main(args: Vec<OsString>) -> Result {
    let opts = match options::parse(args)? {
        Parsed::Help => return crate::error::print(options::HELP),
        Parsed::Version => return crate::error::print(base::version::LINE),
        Parsed::Run(o) => o,
    };
    // A file size limit must not kill the run: writing the log or a report then fails with
    // EFBIG, and says so. (A closed stdout, `unixbench | head`, is handled with the signals.)
    let _ = sys::signal::ignore(libc::SIGXFSZ);
    check_exec_image(&opts)?;
    let exe = crate::selfexe::path().map_err(Error::failed)?;
    // Checks both directories; creates nothing (the results directory is made further down,
    // once the work directory exists).
    let dirs = Dirs::prepare(&opts)?;
    // As Run: the tools of the shell tests see this locale, and the directories are exported.
    std::env::set_var("LANG", "en_US.utf8");
    std::env::set_var("UB_TMPDIR", &dirs.tmp);
    // Kernels run with argv[0] = their name; where /proc is missing this tells them (execl) where
    // their own file is.
    std::env::set_var(crate::selfexe::HINT_VAR, &exe);
    if let Some(r) = &dirs.results {
        std::env::set_var("UB_RESULTDIR", r);
    }
    // The kernels' orphans (context1's partner, spawn's children) become ours to reap at the end
    // of each pass (exec.rs), not init's: some inits reap only every few seconds, and a pass
    // waits until its process group is empty.
    let _ = sys::proc::become_subreaper();
    let watch =
        signals::Watch::install().map_err(|e| Error::failed(format!("cannot handle signals: {e}")))?;
    let swept = crate::workdir::sweep_stale(&dirs.tmp);
    if !swept.is_empty() {
        let names: Vec<String> = swept.iter().map(|p| p.display().to_string()).collect();
        note(&format!("removed the work directories of runs that were killed: {}", names.join(", ")));
    }
    let workdir = WorkDir::create(&dirs.tmp)
        .map_err(|e| Error::usage(format!("cannot make a work directory in {}: {e}", dirs.tmp.display())))?;
    let made_results = dirs.make_results()?;
    for (d, what) in [(Some(&dirs.tmp), "tmp directory"), (dirs.results.as_ref(), "results directory")] {
        if let Some(d) = d.filter(|d| open_to_others(d)) {
            note(&format!(
                "warning: the {what} {} is writable by other users and not sticky: they can \
                 replace what this run writes there",
                d.display()
            ));
        }
    }

    let mut system = crate::report::sysinfo::gather(opts.verbosity == options::Verbosity::Brief);
    let roots = crate::cpulimit::Roots { proc: Path::new("/proc"), sys: Path::new("/sys") };
    system.cpu_limit = crate::cpulimit::detect(&roots, sys::info::affinity().as_deref());
    if let Some(l) = system.cpu_limit.as_mut() {
        // The detail names cgroup paths, which are the host's strings (as gather's are).
        l.detail = crate::report::fmt::printable(&l.detail);
    }
    let copies = if opts.copies.is_empty() {
        // Run's default: 1, then the CPUs, here those this process may really use: the affinity
        // mask within the cgroup's cpuset, capped by its CPU quota (cpulimit.rs).
        let mut c = vec![1];
        if let Some(n) = system.cpu_limit.as_ref().map(|l| l.cpus).filter(|&n| n > 1) {
            c.push(n);
        }
        c
    } else {
        opts.copies.clone()
    };
    // --quick: the budget of the whole run, shared out test by test as the run goes.
    let standard = planned_secs(&opts, &copies);
    let quick_total = opts.quick.map(|q| match q {
        Quick::Tenth => quick::DEFAULT_FRACTION * standard,
        Quick::Seconds(s) => f64::from(s),
    });
    let mut run = Run {
        version: crate::report::version(),
        system,
        settings: Settings {
            tests: opts.tests.iter().map(|t| t.to_string()).collect(),
            copies: copies.clone(),
            iterations: opts.iterations,
            duration: opts.duration,
            quick: quick_total,
            verbosity: opts.verbosity,
            tmpdir: dirs.tmp.display().to_string(),
            resultdir: dirs.results.as_ref().map(|r| r.display().to_string()).unwrap_or_default(),
        },
        runs: Vec::new(),
        interrupted: false,
        incomplete: true,
    };
    let files = match &dirs.results {
        Some(dir) => Some(
            Files::create(dir, &crate::report::fmt::file_name_part(&run.system.hostname), &today()).map_err(
                |e| {
                    if made_results {
                        let _ = std::fs::remove_dir(dir);
                    }
                    Error::usage(format!("cannot create result files in {}: {e}", dir.display()))
                },
            )?,
        ),
        None => None,
    };

    let mut runner = Runner {
        opts: &opts,
        exe: &exe,
        workdir: &workdir,
        watch: &watch,
        console: Console::new(opts.verbosity, opts.format),
        files,
        left: quick_total.unwrap_or(standard),
        lost: Vec::new(),
        quick: quick_total.map(|total| QuickBudget { left: total, weight_left: standard }),
    };
    // The result set holds a report (marked incomplete) from the start, never an empty file.
    runner.save(&run);
    runner.console.start(&run);
    let file_tests = opts.tests.iter().any(|t| t.starts_with("fs"));
    if file_tests
        && opts.verbosity != options::Verbosity::Quiet
        && sys::fd::in_memory_fs(dirs.tmp.as_os_str())
    {
        // ./Run writes beside itself, usually on a disk: say why File Copy may be far higher.
        note(&format!(
            "note: {} is in memory (tmpfs); the file tests will not measure a disk \
             (use --tmpdir DIR on a disk to compare with runs of UnixBench's ./Run)",
            dirs.tmp.display()
        ));
    }
    let mut stopped_by = None;
    'copies: for &c in &copies {
        runner.console.run_with(c);
        let now = sys::clock::time();
        run.runs.push(CopyRun { copies: c, start: now, end: now, ..Default::default() });
        for name in &opts.tests {
            let t = suite::test(name).expect("options expand only known tests");
            if max_copies(t.category).is_some_and(|m| c > m) {
                continue;
            }
            let result = runner.run_test(t, c);
            let cr = run.runs.last_mut().unwrap();
            cr.end = sys::clock::time();
            match result {
                Some(r) => {
                    // As Run: a test named twice keeps its last result.
                    cr.results.retain(|x| x.name != r.name);
                    cr.results.push(r);
                    cr.index = score::index_blocks(&cr.results);
                    runner.save(&run);
                }
                None => {
                    stopped_by = runner.watch.caught().or(Some(libc::SIGINT));
                    break 'copies;
                }
            }
        }
        run.runs.last_mut().unwrap().end = sys::clock::time();
    }
    run.interrupted = stopped_by.is_some();
    run.incomplete = false;
    runner.save(&run);
    runner.console.finish(&run, opts.format);

    // What could not be written where is said here, after the run, and makes the exit status
    // non-zero: a result is never lost in silence.
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
        runner.lost.iter().for_each(|l| note(l));
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
        rest.iter().for_each(|l| note(l));
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

/// A category's copy limit (Run's maxCopies): the graphics tests run single-copy only.
fn max_copies(c: Category) -> Option<usize> {
    match c {
        Category::TwoD | Category::ThreeD => Some(1),
        Category::System | Category::Misc => None,
    }
}

/// One line on stderr, `unixbench: <msg>`; a stderr that cannot be written is no reason to stop.
#[inline(never)]
fn note(msg: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "unixbench: {msg}");
}

/// The results and tmp directories, checked before anything runs. The tmp directory must exist
/// (a typo must not make the file tests measure another disk); the results directory is made
/// (0755, as Run) by [`Dirs::make_results`], once everything else is known to be good.
struct Dirs {
    /// None with `--no-save`.
    results: Option<PathBuf>,
    tmp: PathBuf,
}

impl Dirs {
    fn prepare(o: &Options) -> Result<Dirs> {
        let env =
            |k: &'static str| std::env::var_os(k).filter(|v| !v.is_empty()).map(|v| (PathBuf::from(v), k));
        let (tmp, from) = o
            .tmpdir
            .clone()
            .map(|t| (t, "--tmpdir"))
            .or_else(|| env("UB_TMPDIR"))
            .or_else(|| env("TMPDIR"))
            .unwrap_or_else(|| ("/tmp".into(), "the default"));
        let tmp = absolute(&tmp, "tmp directory", from)?;
        if !tmp.exists() {
            return Err(Error::usage(format!(
                "the tmp directory {} (from {from}) does not exist; it is not created: make it, or name another",
                tmp.display()
            )));
        }
        usable_dir(&tmp, "tmp directory")?;
        let results = if o.save {
            let (r, from) = o
                .results
                .clone()
                .map(|r| (r, "--results"))
                .or_else(|| env("UB_RESULTDIR"))
                .unwrap_or_else(|| ("results".into(), "the default"));
            let r = absolute(&r, "results directory", from)?;
            if r.exists() {
                usable_dir(&r, "results directory")?;
            }
            Some(r)
        } else {
            None
        };
        Ok(Dirs { results, tmp })
    }

    /// Makes the results directory if missing (0755, as Run) and checks it. Returns whether
    /// it was made here.
    fn make_results(&self) -> Result<bool> {
        let Some(r) = &self.results else { return Ok(false) };
        let made = !r.exists();
        if made {
            std::fs::DirBuilder::new().recursive(true).mode(0o755).create(r).map_err(|e| {
                Error::usage(format!("cannot create the results directory {}: {e}", r.display()))
            })?;
        }
        usable_dir(r, "results directory").map(|()| made)
    }
}

/// Whether another user may replace files in `dir`: writable by all, without the sticky bit.
fn open_to_others(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o1002 == 0o002)
}

/// `dir` made absolute (the tests run in another working directory); an empty one is refused.
fn absolute(dir: &Path, what: &str, from: &str) -> Result<PathBuf> {
    std::path::absolute(dir).map_err(|e| {
        Error::usage(format!("invalid {what} {} (from {from}): {e}", crate::args::quoted(dir.as_os_str())))
    })
}

/// Checks that `dir` is a writable directory.
fn usable_dir(dir: &Path, what: &str) -> Result {
    if !dir.is_dir() {
        return Err(Error::usage(format!("the {what} {} is not a directory", dir.display())));
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

/// Seconds of the whole plan: passes x (settle + nominal duration), for the time-left hint.
fn planned_secs(o: &Options, copies: &[usize]) -> f64 {
    let mut total = 0.0;
    for &c in copies {
        for name in &o.tests {
            let t = suite::test(name).unwrap();
            if max_copies(t.category).is_some_and(|m| c > m) {
                continue;
            }
            total += score::passes_for(t.repeat, o.iterations) as f64 * pass_secs(o, t);
        }
    }
    total
}

fn pass_secs(o: &Options, t: &Test) -> f64 {
    settle_secs(o) + t.nominal_secs(o.duration) as f64
}

/// The settle before each pass: Run's `sync; sleep 1; sync; sleep 2`, or only the syncs when
/// `-t` asked for a short run.
fn settle_secs(o: &Options) -> f64 {
    if o.duration.is_some() {
        0.0
    } else {
        3.0
    }
}

/// What is left of a quick run's budget (seconds), and of the standard time of the tests not yet
/// run: each test gets its `quick::share` of it.
struct QuickBudget {
    left: f64,
    weight_left: f64,
}

/// Whether a quick run keeps a settle before a test's passes: the host-tool tests write files.
/// The file tests write files too, but fstime settles itself before each of its phases (a
/// quick run passes it `-s`, `quick::FSTIME_SETTLE`), so the driver's settle would be a second.
fn quick_settles(t: &Test) -> bool {
    matches!(t.kind, Kind::Host { .. })
}

/// A kernel's argv: `prog`, then its arguments with `secs` mapping each standard duration to
/// the one this run passes, `tmpdir` for the file tests' directory, and the words only a quick
/// run passes when `quick` (none otherwise: a standard run's argv is Run's).
fn kernel_argv(
    prog: &str,
    args: &[Arg],
    secs: &dyn Fn(u32) -> u32,
    quick: bool,
    tmpdir: &Path,
) -> Vec<OsString> {
    let mut argv = vec![OsString::from(prog)];
    for a in args {
        match a {
            Arg::Lit(s) => argv.push(s.into()),
            Arg::Secs(s) => argv.push(secs(*s).to_string().into()),
            Arg::TmpDir => argv.push(tmpdir.as_os_str().to_owned()),
            Arg::QuickSecs(s) if quick => argv.push(quick::pass_seconds(*s).to_string().into()),
            Arg::QuickSettle if quick => argv.extend(["-s".into(), quick::FSTIME_SETTLE.to_string().into()]),
            Arg::QuickSecs(_) | Arg::QuickSettle => {}
        }
    }
    argv
}

/// A standard test's estimated time: its passes x (settle + nominal duration).
fn standard_secs(t: &Test) -> f64 {
    quick::standard_cost(score::passes_for(t.repeat, None) as u32, t.nominal_secs(None) as f64)
}

/// Runs the tests of a plan, holding what every pass needs.
struct Runner<'a> {
    opts: &'a Options,
    exe: &'a Path,
    workdir: &'a WorkDir,
    watch: &'a signals::Watch,
    console: Console,
    files: Option<Files>,
    /// Planned seconds left, for the hint.
    left: f64,
    /// What could not be saved (a message per file), reported at the end.
    lost: Vec<String>,
    /// Set by --quick.
    quick: Option<QuickBudget>,
}

impl Runner<'_> {
    fn log(&mut self, s: &str) {
        output::log(&mut self.files, s);
    }

    /// Rewrites the report files from the run so far. A file that cannot be written is said
    /// at once (once per file) and again at the end; its last complete version stays.
    fn save(&mut self, run: &Run) {
        if let Some(f) = &self.files {
            for e in f.write_reports(run) {
                if !self.lost.contains(&e) {
                    note(&format!("warning: {e}; the report still goes to stdout"));
                    self.lost.push(e);
                }
            }
        }
    }

    /// The settle between passes; false if a signal came.
    fn settle(&self, t: &Test) -> bool {
        if self.quick.is_some() {
            // Only the host-tool tests get a settle, a short one (src/quick.rs).
            if quick_settles(t) {
                sys::fd::sync();
                if !self.watch.sleep(quick::settle_seconds(true)) {
                    return false;
                }
            }
            return self.watch.caught().is_none();
        }
        sys::fd::sync();
        if self.opts.duration.is_none() {
            if !self.watch.sleep(1.0) {
                return false;
            }
            sys::fd::sync();
            if !self.watch.sleep(2.0) {
                return false;
            }
        }
        self.watch.caught().is_none()
    }

    /// The argv and stdin of a test, or why it is skipped.
    fn command(&self, t: &Test) -> std::result::Result<(Vec<OsString>, Option<PathBuf>), String> {
        let quick = self.quick.is_some();
        let secs = |s: u32| if quick { quick::pass_seconds(s) } else { self.opts.duration.unwrap_or(s) };
        let words = |prog: &str, args: &[Arg]| kernel_argv(prog, args, &secs, quick, self.workdir.path());
        match t.kind {
            Kind::Kernel { prog, args } => Ok((words(prog, args), None)),
            Kind::Graphics { prog, args } if cfg!(feature = "graphics") => Ok((words(prog, args), None)),
            Kind::Graphics { .. } => Err("this binary was built without graphics".into()),
            Kind::Host { secs: s } => {
                let h = host::command(t.name, self.workdir, secs(s))?;
                Ok((h.argv, h.stdin))
            }
        }
    }

    /// Runs every pass of one test at `copies` copies, with the work directory holding the
    /// files it reads while it runs (and only then). None when a signal stopped it.
    fn run_test(&mut self, t: &Test, copies: usize) -> Option<TestResult> {
        if let Err(e) = self.workdir.provide(t.name) {
            return Some(self.cannot_start(t, copies, e.to_string()));
        }
        let r = self.run_passes(t, copies);
        self.workdir.release(t.name);
        r
    }

    /// A test whose files could not be written (too little room, a file size limit): it fails
    /// with the reason, alone; the run goes on.
    #[inline(never)]
    fn cannot_start(&mut self, t: &Test, copies: usize, e: String) -> TestResult {
        self.console.test(copies, t.message);
        self.console.test_end();
        self.console.failed(t.message, &e);
        let r = TestResult {
            name: t.name.to_string(),
            message: t.message.to_string(),
            category: Some(t.category),
            copies,
            error: Some(e),
            ..Default::default()
        };
        let s = output::fmt::log_test_header(t.message, copies, "(not run)") + &output::fmt::log_summary(&r);
        self.log(&s);
        r
    }

    /// The passes of [`Runner::run_test`].
    fn run_passes(&mut self, t: &Test, copies: usize) -> Option<TestResult> {
        let mut r = TestResult {
            name: t.name.to_string(),
            message: t.message.to_string(),
            category: Some(t.category),
            copies,
            ..Default::default()
        };
        let weight = standard_secs(t);
        // A quick test runs until its interval is tight or its share of the budget is spent.
        let budget = self.quick.as_ref().map(|q| quick::share(q.left, weight, q.weight_left));
        if let Some(q) = self.quick.as_mut() {
            q.weight_left -= weight;
        }
        let npasses = if budget.is_some() {
            quick::MAX_PASSES
        } else {
            score::passes_for(t.repeat, self.opts.iterations)
        };
        let per_pass = pass_secs(self.opts, t);
        let (argv, stdin) = match self.command(t) {
            Ok(c) => c,
            Err(reason) => {
                self.console.skipped(copies, t.message, &reason);
                if budget.is_none() {
                    self.left -= npasses as f64 * per_pass;
                }
                r.skipped = Some(reason);
                let s = output::fmt::log_test_header(t.message, copies, "(not run)")
                    + &output::fmt::log_summary(&r);
                self.log(&s);
                return Some(r);
            }
        };
        r.command = display(&argv, stdin.as_deref());
        self.console.test(copies, t.message);
        let header = output::fmt::log_test_header(t.message, copies, &r.command);
        self.log(&header);
        let cmd = exec::Command {
            exe: self.exe,
            argv: &argv,
            cwd: self.workdir.path(),
            stdin: stdin.as_deref(),
            stdout: self.files.as_ref().map(|f| f.log_fd()),
            deadline: 3.0 * t.nominal_secs(self.opts.duration) as f64 + 120.0,
        };
        let began = sys::clock::monotonic();
        for i in 1..=npasses {
            self.log(&output::fmt::log_pass_header(i));
            if !self.settle(t) {
                return self.interrupted();
            }
            self.console.pass(i, self.left);
            self.console.command(&r.command, copies);
            let outcome = exec::run_pass(&cmd, copies, self.watch, self.workdir.path());
            // This pass is spent; a test that stops here gives back the passes it will not run.
            self.left -= per_pass;
            let unrun = (npasses - i) as f64 * per_pass;
            match outcome {
                Err(e) => {
                    self.left -= unrun;
                    r.error = Some(e.to_string());
                    break;
                }
                Ok(exec::Outcome::Interrupted) => return self.interrupted(),
                Ok(exec::Outcome::Done(outcomes)) => {
                    if let Some(reason) = no_display(t, &outcomes) {
                        self.console.skipped_now(&reason);
                        self.left -= unrun;
                        if let Some(q) = self.quick.as_mut() {
                            q.left -= sys::clock::monotonic() - began;
                            self.left = q.left;
                        }
                        r.skipped = Some(reason);
                        self.log(&output::fmt::log_summary(&r));
                        return Some(r);
                    }
                    let failed =
                        outcomes.iter().enumerate().find_map(|(k, o)| o.error.clone().map(|e| (k, e)));
                    let pass = score::combine_copies(outcomes);
                    self.log(&output::fmt::log_pass(&pass));
                    r.passes.push(pass);
                    if let Some((k, e)) = failed {
                        self.left -= unrun;
                        r.error =
                            Some(if copies > 1 { format!("copy {} of {copies}: {e}", k + 1) } else { e });
                        break;
                    }
                }
            }
            if let (Some(budget), Some(q)) = (budget, self.quick.as_ref()) {
                let spent = sys::clock::monotonic() - began;
                self.left = q.left - spent;
                let rates: Vec<f64> = r.passes.iter().map(crate::stats::pass_rate).collect();
                if quick::should_stop(&rates, spent, budget) {
                    break;
                }
            }
        }
        // A quick test pays what it took out of the budget; the hint shows what is left.
        if let Some(q) = self.quick.as_mut() {
            q.left -= sys::clock::monotonic() - began;
            self.left = q.left;
        }
        self.console.test_end();
        if let Some(e) = &r.error {
            self.console.failed(t.message, e);
            self.log(&output::fmt::log_summary(&r));
            return Some(r);
        }
        if let Some(c) = score::combine_passes(&r.passes) {
            r.kept = c.kept;
            r.score = c.score;
            r.time = c.time;
            r.unit = c.unit;
        }
        self.log(&output::fmt::log_summary(&r));
        self.console.stats(&r);
        Some(r)
    }

    fn interrupted(&mut self) -> Option<TestResult> {
        let sig = self.watch.caught().unwrap_or(libc::SIGINT);
        self.console.test_end();
        self.log(&output::fmt::log_interrupted(signals::name(sig)));
        None
    }
}

/// A graphics applet that found no X display exits 3 with `<applet>: skipped: <why>` on stderr:
/// the test is skipped, not failed. Returns the reason.
fn no_display(t: &Test, outcomes: &[crate::model::CopyOutcome]) -> Option<String> {
    if !matches!(t.kind, Kind::Graphics { .. }) {
        return None;
    }
    outcomes.iter().find_map(|o| {
        let e = o.error.as_deref()?;
        let at = e.find("skipped: ")?;
        (sys::proc::exited(o.status) == Some(3))
            .then(|| e[at + "skipped: ".len()..].lines().next().unwrap_or("").to_string())
    })
}

/// A command as the log's `==>` line and `-v` show it.
fn display(argv: &[OsString], stdin: Option<&Path>) -> String {
    let quote = |s: &str| {
        if !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:,+".contains(&b)) {
            s.to_string()
        } else {
            format!("\"{s}\"")
        }
    };
    let mut s = argv.iter().map(|a| quote(&a.to_string_lossy())).collect::<Vec<_>>().join(" ");
    if let Some(p) = stdin {
        s.push_str(&format!(" < {}", quote(&p.to_string_lossy())));
    }
    s
}

/// Refuses, before anything is created, an exec image the copies could not honour: a bad
/// `UB_EXEC_IMAGE` in the environment, or `dynamic` where this host has no loader for a twin of
/// a test in the plan. A loader that is there but fails is found by the copies themselves.
/// The copies inherit the request through the environment.
fn check_exec_image(opts: &options::Options) -> Result<()> {
    if let Some(v) = &opts.exec_image {
        std::env::set_var(exec_image::VAR, v);
    }
    let req = exec_image::request().map_err(Error::usage)?;
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

    #[test]
    fn command_display_quotes_only_when_needed() {
        let argv: Vec<OsString> = ["looper", "30", "dc"].iter().map(OsString::from).collect();
        assert_eq!(display(&argv, Some(Path::new("/t/dc.dat"))), "looper 30 dc < /t/dc.dat");
        let argv: Vec<OsString> = ["fstime", "-d", "/a b"].iter().map(OsString::from).collect();
        assert_eq!(display(&argv, None), "fstime -d \"/a b\"");
    }

    #[test]
    fn a_graphics_test_without_display_is_skipped() {
        let gfx = suite::test("2d-rects").unwrap();
        let err = "2d-rects: skipped: no X display (DISPLAY is unset)\n";
        let o = vec![score::parse_copy(err, 0.01, 3 << 8, 7)];
        assert_eq!(no_display(gfx, &o).as_deref(), Some("no X display (DISPLAY is unset)"));
        // Another exit status, or a kernel that is not a graphics test: a failure as any other.
        assert_eq!(no_display(gfx, &[score::parse_copy(err, 0.01, 1 << 8, 7)]), None);
        assert_eq!(no_display(suite::test("pipe").unwrap(), &o), None);
    }

    /// A test's argv as the standard driver (Run's durations, or `-t`) and a quick run build it.
    fn argv(name: &str, duration: Option<u32>, quick: bool) -> Vec<String> {
        let Kind::Kernel { prog, args } = suite::test(name).unwrap().kind else { panic!("{name}") };
        let secs = |s: u32| if quick { quick::pass_seconds(s) } else { duration.unwrap_or(s) };
        kernel_argv(prog, args, &secs, quick, Path::new("/t"))
            .iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn a_standard_run_passes_what_run_passes() {
        assert_eq!(argv("whetstone-double", None, false), ["whetstone-double"]);
        assert_eq!(argv("whetstone-double", Some(1), false), ["whetstone-double"], "-t leaves it alone");
        assert_eq!(argv("dhry2reg", None, false), ["dhry2reg", "10"]);
        assert_eq!(
            argv("fstime", None, false),
            ["fstime", "-c", "-t", "30", "-d", "/t", "-b", "1024", "-m", "2000"]
        );
        assert_eq!(
            argv("fsdisk-r", Some(2), false),
            ["fstime", "-r", "-t", "2", "-d", "/t", "-b", "4096", "-m", "8000"]
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
        // fstime settles itself; the host-tool tests get the driver's short settle.
        assert!(!quick_settles(suite::test("fsdisk").unwrap()));
        assert!(quick_settles(suite::test("shell8").unwrap()));
        assert!(!quick_settles(suite::test("whetstone-double").unwrap()));
    }

    #[test]
    fn only_graphics_is_single_copy() {
        assert_eq!(max_copies(Category::TwoD), Some(1));
        assert_eq!(max_copies(Category::System), None);
    }
}
