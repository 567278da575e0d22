//! What a run starts from, for a run and for `ab`'s arms alike: the host described, the run
//! model before its first test, the `--json` file checked.

use crate::dirs::{absolute, usable_dir, Dirs};
use crate::error::{Error, Result};
use crate::model::{Run, Settings, SystemInfo};
use crate::options::{self, Options};
use crate::output;
use crate::plan::Plan;
use crate::schedule::fresh_seed;
use crate::sys;
use std::path::Path;

/// `--json=FILE` made absolute, and refused when it names a directory or an unusable one.
pub(crate) fn check_json_file(opts: &mut Options) -> Result<()> {
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
pub(crate) fn describe_host(opts: &Options) -> SystemInfo {
    let mut system = crate::sysinfo::gather(opts.verbosity == options::Verbosity::Brief);
    let roots = crate::cpulimit::Roots { proc: Path::new("/proc"), sys: Path::new("/sys") };
    system.cpu_limit = crate::cpulimit::detect(&roots, sys::info::affinity().as_deref());
    if let Some(l) = system.cpu_limit.as_mut() {
        // The detail names cgroup paths, which are the host's strings (as gather's are).
        l.detail = crate::fmt::printable(&l.detail);
    }
    system
}

/// Whether disturbed passes are measured again: always in a quick run, which has the budget
/// for it and whose few passes a disturbed one would weigh on most; in the others when asked.
fn remeasures(opts: &Options, plan: &Plan) -> bool {
    opts.remeasure || plan.quick_budget().is_some()
}

/// The run model before its first test: the system, the settings the reports record.
pub(crate) fn new_run(opts: &Options, plan: &Plan, dirs: &Dirs, system: SystemInfo) -> Run {
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
            noise: opts.noise,
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
