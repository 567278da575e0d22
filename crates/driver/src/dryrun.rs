//! `--dry-run`: the plan and where the run would write, as text or JSON, and nothing run.

use crate::dirs::Dirs;
use crate::error::Result;
use crate::options;
use crate::options::Options;
use crate::plan::Plan;
use std::fmt::Write;

/// `--dry-run`: the plan, as text or (`--format json`) as JSON.
pub(crate) fn print_dry_run(opts: &Options, plan: &Plan, dirs: &Dirs) -> Result {
    crate::error::print(&match opts.format {
        options::Format::Json => dry_run_json(plan, dirs),
        _ => dry_run(plan, dirs),
    })
}

/// What `--dry-run` prints: the plan, and where the run would write.
fn dry_run(plan: &Plan, dirs: &Dirs) -> String {
    let to = dirs.results.as_ref().map_or("nowhere (--no-save)".into(), |r| r.display().to_string());
    let mut d = plan.describe();
    let _ = writeln!(d, "Results would go to {to}; the file tests would write in {}", dirs.tmp.display());
    d
}

/// `--dry-run --format json`: the plan for programs (`{"schema":"unixbench-plan",...}`).
fn dry_run_json(plan: &Plan, dirs: &Dirs) -> String {
    let mut j = base::json::Writer::pretty();
    j.begin_object();
    j.key("schema").string("unixbench-plan");
    j.key("schema_version").int(1);
    j.key("kind").string(&plan.kind_in_words());
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
