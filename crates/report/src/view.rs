//! The small view of a run that every exporter reads it through: which results have a score and
//! in what order, the index blocks in report order, the titles and the one-line reasons and
//! notes. The text report is one exporter among the others; none borrows another's helpers.

use super::fmt;
use crate::model::{
    Category, CopyRun, Disturbance, IndexBlock, Noise, Run, Settings, TestResult, DISTURBED, MAX_REMEASURED,
    STOPPED,
};
use std::fmt::Write as _;

/// The results that have a score, sorted by message in byte order, as `Run` lists them.
pub fn scored(cr: &CopyRun) -> Vec<&TestResult> {
    crate::score::ran(&cr.results)
}

/// The index blocks in the fixed category order (System, 2D, 3D, Non-Index).
pub fn ordered_index(cr: &CopyRun) -> Vec<&IndexBlock> {
    let mut v = Vec::new();
    for cat in Category::ALL {
        v.extend(cr.index.iter().filter(|b| b.category == cat));
    }
    v
}

/// When execl or spawn timed this static binary rather than the dynamically linked twin of the
/// C program (`twin::exec_image`), the sentence that says so, naming the tests by test name
/// (as the other notes do, so that no grep for a report name meets it) and the first reason.
pub fn static_image_note(cr: &CopyRun) -> Option<String> {
    let mut on_static: Vec<&TestResult> = Vec::new();
    for (name, _) in twin::exec_image::PROGRAMS {
        match cr.results.iter().find(|r| r.name == *name) {
            Some(r) if r.ok() && r.exec_image().is_some_and(|i| i.is_static()) => on_static.push(r),
            _ => {}
        }
    }
    let why = &on_static.first()?.exec_image()?.detail;
    let names: Vec<&str> = on_static.iter().map(|r| r.name.as_str()).collect();
    Some(format!(
        "{} ran on the static image ({why}): not comparable with the C suite's figures",
        names.join(" and ")
    ))
}

/// `low - high (-a% / +b%)`, or `---` when there is no interval.
pub fn interval(ci: Option<crate::stats::Interval>, centre: f64) -> String {
    match ci {
        Some(c) if centre > 0.0 => format!(
            "{} - {} (-{:.1}% / +{:.1}%)",
            fmt::f1(c.low),
            fmt::f1(c.high),
            100.0 * (1.0 - c.low / centre),
            100.0 * (c.high / centre - 1.0)
        ),
        _ => "---".to_string(),
    }
}

/// The title of a category's score line: `<name> Index Score[ (Partial Only)]`.
pub fn score_title(b: &IndexBlock) -> String {
    let mut t = format!("{} Index Score", b.category.display());
    if b.partial {
        t.push_str(" (Partial Only)");
    }
    t
}

/// Why a test of this block has no score, or None when it has one.
pub fn unscored_reason(r: &TestResult) -> Option<String> {
    if let Some(e) = &r.error {
        Some(format!("failed: {}", one_line(e)))
    } else if let Some(why) = &r.skipped {
        Some(format!("skipped: {}", one_line(why)))
    } else if r.kept.is_empty() {
        Some("failed: no measured results".to_string())
    } else {
        None
    }
}

/// One pass's noise, as `-v` and the log show it.
pub fn noise_line(n: &Noise) -> String {
    let mhz = n.mhz.map(|m| format!(", {m:.0} MHz")).unwrap_or_default();
    let throttled =
        n.throttled.filter(|&t| t > 0.0).map(|t| format!("; throttled {t:.2} s")).unwrap_or_default();
    format!(
        "  noise: steal {:.1}%, other processes {:.1}% of the copies' {:.2} s of CPU{}; load {:.2} -> {:.2}; \
         {} involuntary switches{mhz}; CPUs idle {:.2} s in {:.2} s{throttled}",
        100.0 * n.steal_share(),
        100.0 * n.foreign_share(),
        n.copies_cpu,
        past_whole(n),
        n.load_start,
        n.load_end,
        n.involuntary,
        n.idle,
        n.wall
    )
}

/// What a share of the copies' CPU time past 100% means, said after it (`; other processes used
/// 6.9 times the copies' own CPU time`), so that `685.9%` does not read as an error: other
/// processes (or the hypervisor) took more CPU time than the copies themselves got. Empty when
/// both shares are within 100%.
pub fn past_whole(n: &Noise) -> String {
    let (steal, others) = (n.steal_share(), n.foreign_share());
    if !(steal > 1.0 || others > 1.0) {
        return String::new();
    }
    let mut s = String::from("; ");
    if steal > 1.0 {
        let _ = write!(s, "steal was {steal:.1} times");
    }
    if steal > 1.0 && others > 1.0 {
        s += " and ";
    }
    if others > 1.0 {
        let _ = write!(s, "other processes used {others:.1} times");
    }
    s + " the copies' own CPU time"
}

/// Why a scored test was disturbed, in words (the text's `** disturbed:` line, the HTML's
/// notes), or None when it was not. Of steal and other processes, the cause is named first.
pub fn disturbed_reason(r: &TestResult) -> Option<String> {
    let d = r.disturbance()?;
    let n = r.noise()?;
    Some(match d {
        Disturbance::Steal | Disturbance::Others => {
            let mut two = [("steal", n.steal_share()), ("other processes", n.foreign_share())];
            if d == Disturbance::Others {
                two.swap(0, 1);
            }
            format!(
                "{} {:.1}% and {} {:.1}% of its copies' CPU time, over {:.0}%{}",
                two[0].0,
                100.0 * two[0].1,
                two[1].0,
                100.0 * two[1].1,
                100.0 * DISTURBED,
                past_whole(&n)
            )
        }
        Disturbance::Stopped if n.driver_stopped => {
            "stopped: the run itself was stopped (SIGSTOP, Ctrl-Z) during a pass".to_string()
        }
        Disturbance::Stopped => format!(
            "stopped: a pass's CPUs sat idle, with nothing else to run, past {:.0}% of its copies' CPU time",
            100.0 * STOPPED
        ),
        Disturbance::Throttled => format!(
            "throttled: its cgroup's CPU quota held its copies back {:.1} s",
            n.throttled.unwrap_or(0.0)
        ),
    })
}

/// The passes of a scored test that were measured again, and why, or None when none was:
/// `2 passes measured again: stopped, other processes`.
pub fn replaced_note(r: &TestResult) -> Option<String> {
    let first = r.replaced.first()?;
    let mut why: Vec<&str> = vec![first.why.word()];
    for w in r.replaced.iter().map(|p| p.why.word()) {
        if !why.contains(&w) {
            why.push(w);
        }
    }
    let n = r.replaced.len();
    Some(format!("{n} pass{} measured again: {}", if n == 1 { "" } else { "es" }, why.join(", ")))
}

/// The baseline and index of a test's row in the copy run's index blocks, if any.
pub fn baseline_index(cr: &CopyRun, message: &str) -> (Option<f64>, Option<f64>) {
    cr.index
        .iter()
        .flat_map(|b| b.rows.iter())
        .find(|row| row.message == message)
        .map(|row| (row.baseline, row.index))
        .unwrap_or((None, None))
}

/// A note of the report's end or head, worded once for every exporter: a lead (bold in HTML)
/// and the rest of the sentence. The text report prints it `** lead rest`.
pub struct Note {
    pub lead: String,
    pub rest: String,
}

/// What ends a log section's header when it is a quick run's second visit to the test
/// (`log::test_again_header`), which `compare` reading the log adds to the first.
pub const AGAIN: &str = " (again)";

/// The leads of the text report's notes on a quick run and on a `-t` run (before its
/// seconds): `compare` tells the kind of run of a text report by them.
pub const QUICK_LEAD: &str = "Quick run";
pub const SHORT_LEAD: &str = "Durations set with -t";
/// The lead of the note on a run with rounds (before its seed): `compare` tells by it that a
/// text report's intervals see the host's wander.
pub const ROUNDS_LEAD: &str = "Rounds";

/// The note of a run whose durations were set with `-t`.
pub fn duration_note(settings: &Settings) -> Option<Note> {
    let d = settings.duration?;
    Some(Note {
        lead: format!("{SHORT_LEAD} {d}:"),
        rest: format!(
            "each test ran {d} s instead of its standard 10, 30 or 60 s; these scores are not \
             comparable with standard runs."
        ),
    })
}

/// The note of a run that measured its disturbed passes again though not a quick run (which
/// always does, and says so in its own note): it stays standard, and says why.
pub fn remeasure_note(settings: &Settings) -> Option<Note> {
    if !settings.remeasure || settings.quick.is_some() {
        return None;
    }
    Some(Note {
        lead: "Disturbed passes measured again (--remeasure):".to_string(),
        rest: format!(
            "a pass that steal, other processes, a stop or the cgroup's CPU quota disturbed was left \
             out of its score and run again, at most {MAX_REMEASURED} times per test. Every scored pass \
             is one Run would have measured, at its duration, settle and count: the run is still \
             standard."
        ),
    })
}

/// How many scored results were disturbed: a test at each copy count counts once per copy count
/// (the JSON's `summary.disturbed`; the words say tests and copy counts, [`disturbed_tests`]).
pub fn disturbed_count(run: &Run) -> usize {
    run.runs.iter().flat_map(|cr| &cr.results).filter(|r| r.ok() && r.disturbed()).count()
}

/// The disturbed among a run's scored tests, told apart by name across copy counts.
#[derive(Debug, Clone, PartialEq)]
pub struct DisturbedTests {
    /// How many tests were disturbed at some copy count.
    pub tests: usize,
    /// `all 12 tests`, `5 of 12 tests`, `the only test`.
    pub which: String,
    /// `both copy counts`, `every copy count`, `1 copy`, `1 and 4 copies`.
    pub at: String,
}

/// The disturbed tests in words, or None when none was.
pub fn disturbed_tests(run: &Run) -> Option<DisturbedTests> {
    // Each scored test once, by name, and whether some copy count's run of it was disturbed.
    let mut names: Vec<(&str, bool)> = Vec::new();
    let (mut counts, mut at) = (0, Vec::new());
    for cr in &run.runs {
        let (mut scored, mut hit) = (false, false);
        for r in cr.results.iter().filter(|r| r.ok()) {
            let d = r.disturbed();
            match names.iter_mut().find(|t| t.0 == r.name) {
                Some(t) => t.1 |= d,
                None => names.push((&r.name, d)),
            }
            (scored, hit) = (true, hit || d);
        }
        counts += usize::from(scored);
        if hit {
            at.push(cr.copies);
        }
    }
    let (tests, of) = (names.iter().filter(|t| t.1).count(), names.len());
    let which = match tests {
        0 => return None,
        1 if of == 1 => "the only test".to_string(),
        n if n == of => format!("all {n} tests"),
        n => format!("{n} of {of} tests"),
    };
    let at = match counts {
        2 if at.len() == 2 => "both copy counts".to_string(),
        n if n > 2 && at.len() == n => "every copy count".to_string(),
        _ => copies_list(&at),
    };
    Some(DisturbedTests { tests, which, at })
}

/// Copy counts in words: `1 copy`, `2 copies`, `1 and 2 copies`, `1, 2 and 4 copies`.
pub fn copies_list(copies: &[usize]) -> String {
    let mut s = String::new();
    for (i, n) in copies.iter().enumerate() {
        if i > 0 {
            s += if i + 1 == copies.len() { " and " } else { ", " };
        }
        let _ = write!(s, "{n}");
    }
    s + if copies == [1] { " copy" } else { " copies" }
}

/// What a busy host took from a run: the larger of steal and other processes (by CPU seconds
/// over the scored passes), the most of a pass's copies' CPU time it took, the most the other
/// took, and the highest load read around a pass.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BusyHost {
    pub cause: Disturbance,
    /// The largest share of a pass's copies' CPU time (6.9: 6.9 times it).
    pub share: f64,
    pub other: f64,
    /// The highest 1-minute load average, at a pass's start or end.
    pub load: f64,
}

/// The busy host, when steal or other processes disturbed a scored test; None otherwise.
pub fn busy_host(run: &Run) -> Option<BusyHost> {
    // `total` sums the CPU seconds of each; the shares and the load are the most of one pass.
    let (mut total, mut steal, mut others, mut load, mut busy) =
        (Noise::default(), 0.0f64, 0.0f64, 0.0f64, false);
    for r in run.runs.iter().flat_map(|cr| &cr.results).filter(|r| r.ok()) {
        busy |= matches!(r.disturbance(), Some(Disturbance::Steal | Disturbance::Others));
        for n in r.passes.iter().filter_map(|p| p.noise) {
            (total.steal, total.foreign) = (total.steal + n.steal, total.foreign + n.foreign);
            steal = steal.max(n.steal_share());
            others = others.max(n.foreign_share());
            load = load.max(n.load_start).max(n.load_end);
        }
    }
    let cause = total.busier();
    let (share, other) = if cause == Disturbance::Steal { (steal, others) } else { (others, steal) };
    busy.then_some(BusyHost { cause, share, other, load })
}

/// The busy host's line, when there is one ([`BusyHost::line`]).
pub fn busy_line(run: &Run) -> Option<String> {
    busy_host(run).map(|b| b.line(run.system.cpu_count))
}

impl BusyHost {
    /// The busy host in one line, as the console, the report's notes, the HTML's verdict and
    /// the JSON's summary all say it: the cause that took more first, the most it took of a
    /// pass's copies' CPU time, the other cause when it too passed [`DISTURBED`], the load (on
    /// `cpus` CPUs, when known), what to do: `busy host: other processes used up to 6.9 times
    /// the tests' CPU time (load 14.2 on 2 CPUs); stop the other work and run again`.
    pub fn line(&self, cpus: Option<usize>) -> String {
        let (who, what, other, todo) = match self.cause {
            Disturbance::Steal => (
                "the hypervisor took",
                " as steal",
                "other processes",
                "run at another time or on another host",
            ),
            _ => ("other processes used", "", "steal", "stop the other work and run again"),
        };
        let mut s = format!("busy host: {who} up to {} the tests' CPU time{what}", up_to(self.share));
        if self.other > DISTURBED {
            let _ = write!(s, ", {other} up to {} it", up_to(self.other));
        }
        let _ = write!(s, " (load {:.1}", self.load);
        if let Some(n) = cpus {
            let _ = write!(s, " on {}", crate::model::cpus_text(n));
        }
        format!("{s}); {todo}")
    }
}

/// A share of the copies' CPU time as the busy line says it: `30% of`, `6.9 times`.
fn up_to(share: f64) -> String {
    if share > 1.0 {
        format!("{share:.1} times")
    } else {
        format!("{:.0}% of", 100.0 * share)
    }
}

/// What the intervals of a run with rounds hold, and what they cannot, as the notes say it.
pub const WANDER: &str = "every interval holds the host's wander between rounds, not a drift \
     slower than the run (pool runs spread over time for that: unixbench compare --pool)";

/// The note of a run with rounds (every quick run by default, a standard one with
/// `--rounds`): its seed, and for a standard run that it is still standard.
pub fn rounds_settings_note(settings: &Settings) -> Option<Note> {
    let seed = settings.seed?;
    let standard = if settings.quick.is_none() && settings.duration.is_none() {
        " Still standard: each pass has Run's duration, settle and count."
    } else {
        ""
    };
    Some(Note {
        lead: format!("{ROUNDS_LEAD} (seed {seed}):"),
        rest: format!(
            "one pass of every test per round, in a shuffled order (--seed {seed} repeats it); \
             each index's interval is the spread of the rounds' indexes, and {WANDER}.{standard}"
        ),
    })
}

/// The verdict on a run some of whose scored tests were disturbed: `All 12 tests were
/// disturbed, at both copy counts; not fit to publish.`
pub fn disturbed_verdict(run: &Run) -> Option<String> {
    let d = disturbed_tests(run)?;
    let mut v = format!(
        "{} {} disturbed, at {}; not fit to publish.",
        d.which,
        if d.tests == 1 { "was" } else { "were" },
        d.at
    );
    v[..1].make_ascii_uppercase();
    Some(v)
}

/// The note of a run saved while it was going, or stopped before its end.
pub fn status_note(run: &Run) -> Option<Note> {
    let (lead, rest) = if run.incomplete {
        ("Incomplete:", "saved while the run was going; a run that ends rewrites this report.")
    } else if run.interrupted {
        ("Run interrupted:", "the results above are incomplete, and copy counts not shown did not run.")
    } else {
        return None;
    };
    Some(Note { lead: lead.to_string(), rest: rest.to_string() })
}

/// A test's passes as every output counts them: `scored`, the passes its score is made of (the
/// passes it measured, less the disturbed ones set aside and measured again), and of them
/// `kept`, those left once Run drops the worst third: what Run's report calls `samples` and its
/// log `iterations`. The live line numbers each pass as it runs, set aside ones included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassCount {
    pub scored: usize,
    pub kept: usize,
}

pub fn pass_count(r: &TestResult) -> PassCount {
    PassCount { scored: r.passes.len(), kept: r.kept.len() }
}

/// `3 passes, 2 kept`: [`pass_count`] in words, as the text, the log and the HTML say it.
pub fn passes_text(r: &TestResult) -> String {
    let c = pass_count(r);
    format!("{}, {} kept", fmt::number(Some(c.scored), "pass", "passes"), c.kept)
}

/// The index a copy count is summed up by: its first block in report order (the System
/// Benchmarks Index when its tests ran).
pub fn headline(cr: &CopyRun) -> Option<&IndexBlock> {
    ordered_index(cr).into_iter().next()
}

/// The run in one line, as it ends on the console and in the summary of the JSON and the HTML:
/// the index at each copy count, the kind of run, the disturbed tests (`5 of 12 tests
/// disturbed, at 1 copy`), or that none finished:
/// `index 1520.3 at 1 copy, 2780.1 at 2 copies; a standard run; no test disturbed`. No
/// classic report's words (`Index Score`, a test's message), so no grep for them meets it.
pub fn summary(run: &Run) -> String {
    let mut s = String::new();
    for cr in &run.runs {
        let Some(b) = headline(cr) else { continue };
        if s.is_empty() {
            let what = if b.category == Category::System { "index" } else { b.category.key() };
            s = format!("{}{what} ", if b.partial { "partial " } else { "" });
        } else {
            s.push_str(", ");
        }
        let _ = write!(s, "{} at {}", fmt::f1(b.score), fmt::number(Some(cr.copies), "copy", "copies"));
    }
    if s.is_empty() {
        s.push_str("no index score");
    }
    match run.kind() {
        crate::model::RunKind::Standard => s.push_str("; a standard run; "),
        k => {
            let _ = write!(s, "; a {} run, not standard; ", k.name());
        }
    }
    let finished = run.runs.iter().any(|cr| cr.results.iter().any(TestResult::ok));
    match (finished, run.settings.noise, disturbed_tests(run)) {
        (false, ..) => s.push_str("no test finished"),
        (_, false, _) => s.push_str("noise not read"),
        (_, true, None) => s.push_str("no test disturbed"),
        (_, true, Some(d)) => {
            let _ = write!(s, "{} disturbed, at {}", d.which, d.at);
        }
    }
    if run.interrupted {
        s.push_str("; interrupted");
    }
    s
}

/// The lead of the note of a run that is not standard; `compare` tells a text report's kind
/// by it too.
pub const NOT_STANDARD_LEAD: &str = "Not a standard run";

/// What the note of a run that is not standard says after its reasons.
pub const NOT_COMPARABLE: &str = "not comparable with standard runs.";

/// The note of a run that is not standard, every reason of [`Run::not_standard`] in it: the
/// text report's first `** ` line, the head of the HTML's verdict box.
pub fn not_standard_note(run: &Run) -> Option<Note> {
    let why = run.not_standard();
    if why.is_empty() {
        return None;
    }
    Some(Note {
        lead: format!("{NOT_STANDARD_LEAD} ({}):", run.kind().name()),
        rest: format!("{}; {NOT_COMPARABLE}", why.join("; ")),
    })
}

/// A copy count's rounds: how many, how far their indexes spread (`stats::moved`, 0.13 for
/// 13%: the passes' noise and the host's wander together), and the host's own wander between
/// them, net of that noise (`stats::host_wander`, one standard deviation: 0.01 for ±1%).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rounds {
    pub count: usize,
    pub moved: Option<f64>,
    pub wander: Option<f64>,
}

/// The rounds of `cr`, when its passes ran in rounds.
pub fn rounds(cr: &CopyRun) -> Option<Rounds> {
    let mut count = None;
    for r in &cr.results {
        for p in &r.passes {
            count = count.max(p.round);
        }
    }
    let count = count?;
    let factors = crate::stats::round_factors(&cr.results, &|_| true);
    let wander = crate::stats::host_wander(&cr.results, &|_| true).map(|w| w.sd.exp_m1());
    Some(Rounds { count, moved: crate::stats::moved(&factors), wander })
}

/// What the intervals of `cr` can see, as a note: with rounds, how far the rounds' indexes
/// spread and how much of that was the host itself; without, that they cannot see its wander.
pub fn rounds_note(cr: &CopyRun) -> String {
    match rounds(cr) {
        // A round with passes measured again is still one round: nothing moved between rounds.
        Some(Rounds { count: 1, .. }) => "one round: no wander between rounds to see".into(),
        Some(Rounds { count, moved: Some(m), wander: Some(w) }) => format!(
            "the host's speed moved {:.1}% between rounds ({count} rounds); net of the passes' own \
             noise, the host's own wander was \u{b1}{:.1}%",
            m * 100.0,
            w * 100.0
        ),
        Some(r) => {
            format!("{} rounds, but no test scored in two of them: no wander between rounds to see", r.count)
        }
        None => "no rounds: passes back to back, so the intervals cannot see the host's speed wander; \
                 runs spread over time and pooled (unixbench compare --pool) can"
            .into(),
    }
}

/// How far a copy count's rounds may move (`Rounds::moved`, the fastest round's index over the
/// slowest's) before its index says little of the host.
pub const MOVED_TOO_FAR: f64 = 0.20;

/// The warning on a copy count whose rounds moved more than [`MOVED_TOO_FAR`], or None.
pub fn wander_warning(cr: &CopyRun) -> Option<String> {
    let m = rounds(cr)?.moved.filter(|&m| m > MOVED_TOO_FAR)?;
    Some(format!(
        "the host's speed moved {:.1}% between rounds, over {:.0}%: this index says little of the \
         host; run again on a quieter host",
        100.0 * m,
        100.0 * MOVED_TOO_FAR
    ))
}

/// One line of free text (an error that may span lines) for a line-oriented format.
pub fn one_line(s: &str) -> String {
    let mut out = String::new();
    for l in s.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !out.is_empty() {
            out += " / ";
        }
        out += l;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_round_moves_nothing_between_rounds_even_with_a_pass_measured_again() {
        use crate::model::{CopyRun, Pass, TestResult};
        let pass =
            |rate: f64| Pass { count: rate, time: 1.0, timebase: 1.0, round: Some(1), ..Pass::default() };
        let r = |name: &str, a: f64, b: f64| TestResult {
            name: name.into(),
            message: name.into(),
            passes: vec![pass(a), pass(b)],
            kept: vec![0, 1],
            score: (a * b).sqrt(),
            ..TestResult::default()
        };
        let cr = CopyRun {
            results: vec![r("pipe", 100.0, 150.0), r("syscall", 10.0, 12.0)],
            ..Default::default()
        };
        assert_eq!(rounds_note(&cr), "one round: no wander between rounds to see");
    }

    /// Two tests over two rounds, each round's passes at `a` then `b` times its rate.
    fn two_rounds(a: f64, b: f64) -> CopyRun {
        use crate::model::Pass;
        let pass = |rate: f64, round: usize| Pass {
            count: rate,
            time: 1.0,
            timebase: 1.0,
            round: Some(round),
            ..Pass::default()
        };
        let r = |name: &str, k: f64| TestResult {
            name: name.into(),
            message: name.into(),
            passes: vec![pass(a * k, 1), pass(b * k, 2)],
            kept: vec![0, 1],
            score: (a * b).sqrt() * k,
            ..TestResult::default()
        };
        CopyRun { results: vec![r("pipe", 100.0), r("syscall", 10.0)], ..Default::default() }
    }

    #[test]
    fn a_host_that_moved_past_a_fifth_between_rounds_is_warned_of() {
        let moved = two_rounds(1.0, 2.85);
        assert_eq!(
            wander_warning(&moved).as_deref(),
            Some(
                "the host's speed moved 185.0% between rounds, over 20%: this index says little of the \
                 host; run again on a quieter host"
            )
        );
        assert_eq!(wander_warning(&two_rounds(1.0, 1.15)), None, "15% is the host's usual wander");
        assert_eq!(wander_warning(&CopyRun::default()), None, "no rounds");
    }

    #[test]
    fn disturbed_tests_are_counted_by_test_and_copy_count() {
        let mut run = crate::fixture::noisy();
        let words = |run: &Run| disturbed_tests(run).map(|d| format!("{}, at {}", d.which, d.at));
        assert_eq!(words(&run).as_deref(), Some("1 of 12 tests, at 2 copies"));
        let all = crate::fixture::beside_a_hog();
        assert_eq!(words(&all).as_deref(), Some("all 12 tests, at both copy counts"));
        assert!(disturbed_verdict(&all).unwrap().starts_with("All 12 tests were disturbed, at both"));
        // Five tests at one copy of two; then a run of one test at one copy count.
        for r in all.runs[0].results.iter().take(5) {
            run.runs[0].results.iter_mut().find(|t| t.name == r.name).unwrap().passes = r.passes.clone();
        }
        run.runs[1].results.retain(|r| r.name != "pipe");
        assert_eq!(words(&run).as_deref(), Some("5 of 12 tests, at 1 copy"));
        assert!(summary(&run).ends_with("; a standard run; 5 of 12 tests disturbed, at 1 copy"));
        let mut one = all.clone();
        one.runs.truncate(1);
        one.runs[0].results.truncate(1);
        assert_eq!(words(&one).as_deref(), Some("the only test, at 1 copy"));
        assert_eq!(
            disturbed_verdict(&one).unwrap(),
            "The only test was disturbed, at 1 copy; not fit to publish."
        );
        assert_eq!(copies_list(&[1, 2, 4]), "1, 2 and 4 copies");
    }

    #[test]
    fn a_run_with_no_finished_test_says_so() {
        let mut run = crate::fixture::noisy();
        run.interrupted = true;
        for r in run.runs.iter_mut().flat_map(|cr| &mut cr.results) {
            r.kept.clear();
        }
        run.runs[1].results.clear();
        assert!(
            summary(&run).ends_with("; a standard run; no test finished; interrupted"),
            "{}",
            summary(&run)
        );
        run.runs.clear();
        assert_eq!(summary(&run), "no index score; a standard run; no test finished; interrupted");
    }

    #[test]
    fn a_host_whose_steal_took_more_says_to_run_elsewhere() {
        let mut run = crate::fixture::beside_a_hog();
        for n in run
            .runs
            .iter_mut()
            .flat_map(|cr| &mut cr.results)
            .flat_map(|r| &mut r.passes)
            .flat_map(|p| &mut p.noise)
        {
            (n.steal, n.foreign) = (3.0, 0.2);
        }
        run.system.cpu_count = None;
        assert_eq!(
            busy_line(&run).as_deref(),
            Some(
                "busy host: the hypervisor took up to 30% of the tests' CPU time as steal (load 14.2); run \
                 at another time or on another host"
            )
        );
        assert!(run.runs[0].results.iter().all(|r| r.disturbance() == Some(Disturbance::Steal)));
        // Noise not read: no busy host.
        assert_eq!(busy_line(&crate::fixture::reference()), None);
    }

    #[test]
    fn one_line_joins_lines() {
        assert_eq!(one_line("a\n\n  b \nc"), "a / b / c");
        assert_eq!(one_line("plain"), "plain");
    }
}
