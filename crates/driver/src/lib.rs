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

pub mod ab;
pub mod cli;
mod csuite;
pub mod dirs;
mod dryrun;
pub mod exec;
mod hostcheck;
pub mod hosttools;
pub mod install;
pub mod manual;
pub mod options;
pub mod output;
pub mod passes;
pub mod plan;
pub mod policy;
mod schedule;
mod setup;
pub mod signals;
pub mod workdir;

use crate::error::{Error, Result};
use crate::model::Run;
use base::version::{Semantics, SEMANTICS_VAR};
use dirs::{invoked_run_home, make_directories, Dirs};
use dryrun::print_dry_run;
use options::{Options, Parsed};
use output::{Console, Files};
use passes::{Processes, Runner};
use plan::{Estimate, Plan};
use schedule::run_plan;
use setup::{check_json_file, describe_host, new_run};
use std::ffi::OsString;
use std::path::Path;
use twin::exec_image;

/// Whether `name` is a test or group name the driver knows.
pub fn knows(name: &str) -> bool {
    options::knows(name)
}

/// Runs tests as `Run` does; `args` excludes the program name.
pub fn main(args: Vec<OsString>) -> Result {
    main_in(args, false)
}

/// The driver as this process was invoked: through a link named `Run` its results and tmp
/// directories default, as UnixBench's, to `results/` and `tmp/` beside it, made when missing;
/// else as [`main`]. (The link is looked at in `main_in`, so callers hold one small call.)
pub fn main_as_invoked(args: Vec<OsString>) -> Result {
    main_in(args, true)
}

/// The driver, step by step: the command line, the directories and the host, the plan (or
/// just its description), the environment the copies inherit, the work and result
/// directories, then the run and its conclusion.
fn main_in(args: Vec<OsString>, as_invoked: bool) -> Result {
    let mut opts = match options::parse(args)? {
        Parsed::Help => return crate::error::print(&options::help()),
        Parsed::Version => return crate::error::print(&base::version::full()),
        Parsed::Run(o) => *o,
    };
    // A file size limit must not kill the run: writing the log or a report then fails with
    // EFBIG, and says so. (A closed stdout, `unixbench | head`, is handled with the signals.)
    let _ = sys::signal::ignore(libc::SIGXFSZ);
    check_exec_image(&opts)?;
    let exe = crate::selfexe::path().map_err(Error::failed)?;
    // Checks both directories; creates nothing (the results directory is made further down,
    // once the work directory exists).
    let home = as_invoked.then(invoked_run_home).flatten();
    let dirs = Dirs::prepare(&opts, home.as_deref())?;
    check_json_file(&mut opts)?;
    let system = describe_host(&opts);
    let plan = Plan::resolve(&opts, system.cpu_limit.as_ref().map(|l| l.cpus))?;
    if opts.dry_run {
        return print_dry_run(&opts, &plan, &dirs);
    }
    let launch = exec::Launch { env: copies_environment(&opts, &dirs, &exe), ..exec::Launch::default() };
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
    let margin = opts.watchdog_margin.unwrap_or(exec::WATCHDOG_MARGIN);
    let mut processes = Processes { watch: &watch, noise: run.settings.noise, margin };
    let mut runner = new_runner(&opts, &plan, &run, (&exe, dirs.program, &launch), &mut processes, files);
    // The result set holds a report (marked incomplete) from the start, never an empty file.
    runner.save(&run);
    runner.console.plan(plan.copies.iter().map(|&c| plan.tests_at(c).len()).sum());
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
    end_run(&run, runner, stopped_by)
}

/// What runs the plan's tests: its copies' processes, the console, the result files.
fn new_runner<'a>(
    opts: &Options,
    plan: &Plan,
    run: &Run,
    (exe, program, launch): (&'a Path, &'static str, &'a exec::Launch),
    exec: &'a mut Processes,
    files: Option<Files>,
) -> Runner<'a> {
    Runner {
        exe,
        launch,
        exec,
        policy: plan.policy.clone(),
        console: Console::new(program, opts.verbosity, opts.format),
        files,
        estimate: Estimate { left: plan.estimate() },
        lost: Vec::new(),
        remeasure: run.settings.remeasure,
        semantics: plan.semantics,
        buffer: None,
    }
}

/// What the copies find in their environment beyond the driver's, given them as they are
/// started (the driver's own is left as it is): as Run, the locale the shell tests' tools see
/// and the directories; where their own file is, for execl where /proc is missing (kernels run
/// with argv[0] = their name); the exec image `--exec-image` asked for; and the semantics,
/// `UB_SEMANTICS=5.1.3`, or none for 6.0's (whatever the driver's own environment said).
fn copies_environment(opts: &Options, dirs: &Dirs, exe: &Path) -> Vec<(OsString, Option<OsString>)> {
    let semantics = opts.semantics();
    let mut env: Vec<(OsString, Option<OsString>)> = vec![
        ("LANG".into(), Some("en_US.utf8".into())),
        ("UB_TMPDIR".into(), Some(dirs.tmp.clone().into())),
        (crate::selfexe::HINT_VAR.into(), Some(exe.into())),
        (SEMANTICS_VAR.into(), (semantics == Semantics::V513).then(|| semantics.release().into())),
    ];
    if let Some(r) = &dirs.results {
        env.push(("UB_RESULTDIR".into(), Some(r.clone().into())));
    }
    if let Some(v) = &opts.exec_image {
        env.push((exec_image::VAR.into(), Some(v.into())));
    }
    env
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
        output::note(
            dirs.program,
            &format!(
                "note: {} is in memory (tmpfs); the file tests will not measure a disk \
             (use --tmpdir DIR on a disk to compare with runs of UnixBench's ./Run)",
                dirs.tmp.display()
            ),
        );
    }
}

/// The exit status and the last word of a run that ended (or was stopped by `stopped_by`):
/// what could not be written where, and which tests failed, make it non-zero. A result is
/// never lost in silence.
fn end_run(run: &Run, mut runner: Runner, stopped_by: Option<i32>) -> Result {
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
    // Every loss is said; the last one is the error, unless a signal's stop is.
    let last = if stopped_by.is_some() { None } else { runner.lost.pop() };
    for l in &runner.lost {
        runner.console.note(l);
    }
    if let Some(sig) = stopped_by {
        return Err(Error::failed_with(
            128 + sig,
            format!("stopped by {}: the report holds every pass that finished{saved}", signals::name(sig)),
        ));
    }
    let mut failed = Vec::new();
    for cr in &run.runs {
        for r in cr.results.iter().filter(|r| r.error.is_some()) {
            failed.push(format!("{} ({} x)", r.name, cr.copies));
        }
    }
    if let Some(last) = last {
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
    let csv = if f.csv_written() { ", .csv" } else { "" };
    let json = f.json.as_ref().map(|p| format!(", JSON in {}", p.display())).unwrap_or_default();
    format!("results in {} (and .html, .log{csv}){json}", f.base.display())
}

/// `YYYY-MM-DD`, local time.
fn today() -> String {
    let (_, tm) = sys::clock::local_now();
    format!("{:04}-{:02}-{:02}", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday)
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
