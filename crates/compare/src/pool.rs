//! `compare --pool`: several runs of one host judged together. One run's 95% interval says how
//! well its own passes agree; it cannot see the host's speed wander from one run to the next,
//! which on a VM can be several times wider (docs/FIDELITY.md, "Quick runs against standard
//! ones"). Pooled, a test's figure is the geometric mean of the runs' scores and its interval
//! comes from their spread (log scale, Student t over the runs), so it holds that wander as far
//! as the runs' span reaches. An index score is pooled from the runs' index scores, not
//! propagated from the pooled tests': the wander moves every test of a run together, so the
//! tests' spreads are not independent.

use super::source::{category_of, kinds, ByName, Source};
use super::table::{self, Cell, Comparison, Row, Table};
use crate::json::Writer;
use crate::model::Category;
use crate::stats::{self, Interval, Stats};
use base::version::Semantics;
use report::markdown::{Readers, Sink};
use std::fmt::Write as _;

/// Several runs of one host lined up by copy count, each row pooled.
pub struct Pool<'s> {
    cmp: Comparison<'s>,
    /// Seconds from the earliest run's start to the latest's; None when a file's date is
    /// unknown, or the dates mix UTC and a text report's local time.
    span: Option<i64>,
    /// Each table's rows pooled, as `cmp.tables` and their rows are ordered.
    pooled: Vec<Vec<Pooled>>,
}

/// One row pooled over the runs that have it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Pooled {
    /// The statistics of the runs' scores: their geometric mean, its interval, the lowest and
    /// highest. None when they were not pooled.
    stats: Option<Stats>,
    runs: usize,
    /// In how many of the runs it was disturbed.
    disturbed: usize,
    not_pooled: Option<NotPooled>,
}

/// Why a row's scores were not pooled: what a pool of them would hide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotPooled {
    /// execl or spawn timed this static binary in one run and a dynamically linked program in
    /// another: figures of two programs.
    Images,
    /// A run scored 0. Run's geometric mean counts such a pass as 1 to go on; a pool would be
    /// off by the whole run.
    Zero,
    /// An index whose runs scored different tests.
    Tests,
}

impl NotPooled {
    /// The TSV's and JSON's word for it.
    fn key(self) -> &'static str {
        match self {
            NotPooled::Images => "images differ",
            NotPooled::Zero => "a score of 0",
            NotPooled::Tests => "tests differ",
        }
    }
    /// The legend's line for it.
    fn legend(self) -> &'static str {
        match self {
            NotPooled::Images => {
                "!: not pooled: the runs timed different exec images (this static binary and a \
                 dynamically linked program), or an index holds such a test.\n"
            }
            NotPooled::Zero => {
                "!: not pooled: a run scored 0, which a geometric mean cannot hold, or an index holds such \
                 a test.\n"
            }
            NotPooled::Tests => "!: not pooled: the runs' index scores cover different tests.\n",
        }
    }
}

/// Lines the runs up by copy count and pools each row. Err names the file that is not of the
/// first file's host, repeats a run, or cannot be lined up, and why.
pub fn pool(sources: &[Source]) -> Result<Pool<'_>, (String, String)> {
    one_host(sources)?;
    one_semantics(sources)?;
    each_run_once(sources)?;
    let span = span(sources);
    let cmp = table::compare(sources)?;
    let pooled = cmp.tables.iter().map(pool_table).collect();
    Ok(Pool { cmp, span, pooled })
}

/// The host a pool is of: its name, CPU model and CPU count as the system block gives them.
fn identity(s: &Source) -> String {
    format!("{}, {}, {}", s.host.name, s.host.cpu, crate::fmt::number(s.host.cpus, "CPU", "CPUs"))
}

/// Err for the first file that names no host or not the first file's: the wander a pool measures
/// is one host's.
fn one_host(sources: &[Source]) -> Result<(), (String, String)> {
    let refuse =
        |s: &Source, why: String| Err((s.file.clone(), format!("{why}: --pool judges one host's runs")));
    if let Some(s) = sources.iter().find(|s| s.host.name == "unknown" || s.host.name.is_empty()) {
        return refuse(s, "it names no host".into());
    }
    let first = identity(&sources[0]);
    match sources.iter().find(|s| identity(s) != first) {
        None => Ok(()),
        Some(s) => refuse(s, format!("its host ({}) is not the first file's ({first})", identity(s))),
    }
}

/// Err for the first file whose runs followed other semantics than the first file's (5.1.3's
/// against 6.0.0's): their figures differ by more than a host's wander.
fn one_semantics(sources: &[Source]) -> Result<(), (String, String)> {
    let release = |s: &Source| Semantics::of_version(&s.version).release();
    let first = release(&sources[0]);
    match sources.iter().find(|s| release(s) != first) {
        None => Ok(()),
        Some(s) => Err((
            s.file.clone(),
            format!(
                "its runs follow UnixBench {}'s semantics, the first file's {first}'s: --pool pools \
                 runs of one semantics",
                release(s)
            ),
        )),
    }
}

/// Err for a file holding a run already given (the same file twice, or a report and its JSON):
/// counted twice, it would narrow the interval.
/// Each file is looked up among those before it, not compared with each (10,000 files in
/// n log n): by its start, and by its tests with its first score's unit, where scores equal
/// within [`same_scores`]'s tolerance fall in units that far apart at most.
fn each_run_once(sources: &[Source]) -> Result<(), (String, String)> {
    let all: Vec<Vec<(usize, &str, f64)>> = sources.iter().map(scores).collect();
    let starts = ByName::new(&mut sources.iter().map(|s| s.date.as_str()));
    let keys: Vec<String> = all.iter().map(|s| run_key(s, unit(s))).collect();
    let scored = ByName::new(&mut keys.iter().map(String::as_str));
    for (i, b) in sources.iter().enumerate() {
        let mut twin = starts.get(&b.date).filter(|&a| a < i && b.date != "unknown");
        let first = all[i].first().map_or(0.0, |x| x.2);
        let near = (0.05 + 1e-12 * first.abs()).ceil() as i64 + 1;
        for k in unit(&all[i]) - near..=unit(&all[i]) + near {
            if twin.is_none() && !all[i].is_empty() {
                let key = run_key(&all[i], k);
                twin = scored.all(&key).take_while(|&a| a < i).find(|&a| same_scores(&all[a], &all[i]));
            }
        }
        if let Some(a) = twin {
            let a = &sources[a].file;
            return Err((b.file.clone(), format!("the same run as {a}: a pool counts each run once")));
        }
    }
    Ok(())
}

/// A run's first score in whole units.
fn unit(s: &[(usize, &str, f64)]) -> i64 {
    s.first().map_or(0.0, |x| x.2).round() as i64
}

/// A run's tests (copies, name) and `unit` as one string to look up (the sort `ByName` holds
/// costs the binary less than a map would); a false match is ruled out by `same_scores`.
fn run_key(s: &[(usize, &str, f64)], unit: i64) -> String {
    let mut k = String::new();
    for (n, name, _) in s {
        let _ = writeln!(k, "{n} {name}");
    }
    let _ = write!(k, "{unit}");
    k
}

/// The same score for every test at every copy count (to the 0.1 a text report prints: two
/// runs never agree that far on every test).
fn same_scores(sa: &[(usize, &str, f64)], sb: &[(usize, &str, f64)]) -> bool {
    let equal = |x: &(usize, &str, f64), y: &(usize, &str, f64)| {
        (x.0, x.1) == (y.0, y.1) && (x.2 - y.2).abs() <= 0.05 + 1e-12 * x.2.abs()
    };
    !sa.is_empty() && sa.len() == sb.len() && sa.iter().zip(sb).all(|(x, y)| equal(x, y))
}

/// Every test's score, with its copy count and name, in that order (two runs of one copy count,
/// which `table::compare` refuses, one after the other). By the two sorts the crate has already
/// (`(usize, usize)`, `(&str, usize)`) rather than a third: an insertion in place, which it was,
/// is quadratic (100,000 tests took 12 s).
fn scores(s: &Source) -> Vec<(usize, &str, f64)> {
    let mut runs: Vec<(usize, usize)> = s.runs.iter().enumerate().map(|(k, r)| (r.copies, k)).collect();
    runs.sort_unstable();
    let mut v = Vec::new();
    for (copies, k) in runs {
        let tests = &s.runs[k].tests;
        let mut names: Vec<(&str, usize)> =
            tests.iter().enumerate().map(|(i, t)| (t.message.as_str(), i)).collect();
        names.sort_unstable();
        v.extend(names.into_iter().map(|(name, i)| (copies, name, tests[i].score)));
    }
    v
}

/// Seconds from the earliest start to the latest.
fn span(sources: &[Source]) -> Option<i64> {
    let (_, utc) = crate::fmt::parse_iso(&sources.first()?.date)?;
    let (mut min, mut max) = (i64::MAX, i64::MIN);
    for s in sources {
        let (t, z) = crate::fmt::parse_iso(&s.date)?;
        if z != utc {
            return None;
        }
        (min, max) = (min.min(t), max.max(t));
    }
    Some(max - min)
}

/// A table's rows pooled: the tests, then each index from the runs' index scores.
fn pool_table(t: &Table) -> Vec<Pooled> {
    let mut out: Vec<Pooled> = t.rows.iter().map(|r| pool_row(r, None)).collect();
    for (k, r) in t.rows.iter().enumerate().filter(|(_, r)| r.index_score) {
        if let Some(why) = index_not_pooled(t, r, &out) {
            out[k] = pool_row(r, Some(why));
        }
    }
    out
}

/// Why the runs' index scores are not one figure measured again: they cover different tests, or
/// a test that does not pool. None when they pool.
fn index_not_pooled(t: &Table, index: &Row, pooled: &[Pooled]) -> Option<NotPooled> {
    let mut cells = index.cells.iter().flatten();
    let first = cells.next()?.covers;
    if cells.any(|c| c.covers != first) {
        return Some(NotPooled::Tests);
    }
    let c = Category::ALL.into_iter().find(|&c| table::index_title(c) == index.name)?;
    let own = |r: &Row| !r.index_score && category_of(&r.name) == Some(c) && table::in_index(&r.name);
    t.rows.iter().zip(pooled).filter(|(r, _)| own(r)).find_map(|(_, p)| p.not_pooled)
}

/// A row pooled over the runs that have it, unless `not_pooled` or its own cells say why not.
fn pool_row(r: &Row, not_pooled: Option<NotPooled>) -> Pooled {
    let cells: Vec<&Cell> = r.cells.iter().flatten().collect();
    let images: Vec<_> = cells.iter().filter_map(|c| c.image).collect();
    let not_pooled = not_pooled.or_else(|| {
        if images.windows(2).any(|w| w[0] != w[1]) {
            Some(NotPooled::Images)
        } else if cells.iter().any(|c| c.score <= 0.0) {
            Some(NotPooled::Zero)
        } else {
            None
        }
    });
    let scores: Vec<f64> = cells.iter().map(|c| c.score).collect();
    Pooled {
        stats: if not_pooled.is_none() { stats::describe(&scores) } else { None },
        runs: cells.len(),
        disturbed: cells.iter().filter(|c| c.disturbed).count(),
        not_pooled,
    }
}

/// The pool as text: the runs, one table per copy count, the notes, the legend.
pub fn text(p: &Pool) -> String {
    let c = &p.cmp;
    let span =
        p.span.map_or("unknown (a date is missing or unreadable, or UTC and local dates mix)".into(), |s| {
            crate::fmt::duration(s as f64)
        });
    let first = format!(
        "Runs pooled: {}, of host {}; from the first start to the last: {span}",
        c.sources.len(),
        identity(&c.sources[0])
    );
    let mut o = table::sources_list(&first, c.sources);
    if let Some(w) = span_warning(p.span) {
        let _ = writeln!(o, "** warning: {w}");
    }
    for (t, pooled) in c.tables.iter().zip(&p.pooled) {
        o += &table_text(t, pooled);
    }
    o += &table::notes_text(c);
    o += &legend(p);
    o
}

/// One copy count's table: a line per row, its runs, the pooled figure and its interval, the
/// lowest and highest run; then the run farthest from the others on the index.
fn table_text(t: &Table, pooled: &[Pooled]) -> String {
    let ci = |p: &Pooled| {
        let s = p.stats.as_ref();
        s.and_then(|s| Some(table::sides(s.geomean, s.ci95.as_ref()?))).unwrap_or_else(|| "---".into())
    };
    // The interval column as wide as its widest cell, 9 at least.
    let w = pooled.iter().map(|p| ci(p).len()).fold(9, usize::max);
    let mut o = format!(
        "\n{:<40} {:>5} {:>12} {:>w$}   {:>12} {:>12}\n",
        table::table_title(t.copies),
        "runs",
        "pooled",
        "95%",
        "lowest",
        "highest"
    );
    let mut gap = false;
    for (r, p) in t.rows.iter().zip(pooled) {
        if r.index_score && !gap {
            o.push('\n');
            gap = true;
        }
        let s = p.stats.as_ref();
        // Both marks can apply: a row not pooled may still have been disturbed.
        let flags = [(p.not_pooled.is_some(), "!"), (p.disturbed > 0, "d")];
        let flags: String = flags.iter().filter(|f| f.0).map(|f| f.1).collect();
        let line = format!(
            "{:<40} {:>5} {:>12} {:>w$}{flags:<2} {:>12} {:>12}",
            r.name,
            p.runs,
            table::figure(s.map(|s| s.geomean)),
            ci(p),
            table::figure(s.map(|s| s.min)),
            table::figure(s.map(|s| s.max))
        );
        let _ = writeln!(o, "{}", line.trim_end());
    }
    if let Some(f) = farthest(t, pooled) {
        let without = f.without.map_or(String::new(), |(score, ci)| {
            format!("; without it the index is {} {}", table::figure(Some(score)), table::sides(score, &ci))
        });
        let _ = writeln!(
            o,
            "\n[{}] is the run farthest from the others on the index: {} {} their mean{without}.",
            f.run + 1,
            table::percent(f.off.abs(), 1, 7),
            if f.off < 0.0 { "below" } else { "above" },
        );
    }
    o
}

/// The run that widens a pool's interval on the index most: the one farthest from the
/// others' geometric mean (log scale), which the others' interval then leaves out.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Farthest {
    /// The file, 0-based.
    run: usize,
    /// Its index over the others' geometric mean, less 100%.
    off: f64,
    /// The others pooled, where their interval is narrower than the pool's (of fewer runs,
    /// Student's t may make it wider): their geometric mean and its interval.
    without: Option<(f64, Interval)>,
}

/// The farthest run on a table's headline index, for three runs or more (of two, each is as
/// far from the other); None where the index did not pool.
fn farthest(t: &Table, pooled: &[Pooled]) -> Option<Farthest> {
    let k = table::headline_at(t)?;
    let all = pooled[k].stats?.ci95?;
    let scores: Vec<f64> = t.rows[k].cells.iter().flatten().map(|c| c.score).collect();
    if scores.len() < 3 {
        return None;
    }
    // Each run's index over the others' geometric mean, on the log scale.
    let logs: Vec<f64> = scores.iter().map(|x| x.ln()).collect();
    let sum: f64 = logs.iter().sum();
    let n = logs.len() as f64;
    let mut far = (0, 0.0f64);
    for (i, l) in logs.iter().enumerate() {
        let off = l - (sum - l) / (n - 1.0);
        if off.abs() > far.1.abs() {
            far = (i, off);
        }
    }
    let mut rest = scores.clone();
    rest.remove(far.0);
    let rest = stats::describe(&rest)?;
    let without = rest.ci95.filter(|ci| ci.log_half < all.log_half).map(|ci| (rest.geomean, ci));
    // The place among the runs that have the index is the file's where every run has it.
    let run = t.rows[k].cells.iter().enumerate().filter(|c| c.1.is_some()).nth(far.0)?.0;
    Some(Farthest { run, off: 100.0 * far.1.exp_m1(), without })
}

/// The line that says when a pool's runs span less than an hour: its interval holds the host's
/// wander over that span only.
fn span_warning(span: Option<i64>) -> Option<String> {
    let s = span.filter(|&s| s < 3600)?;
    Some(format!(
        "the runs span {}: the interval holds the host's wander over that time only; runs spread over an hour or more hold more of it",
        crate::fmt::duration(s as f64)
    ))
}

/// What the columns and marks mean, the marks that appear.
fn legend(p: &Pool) -> String {
    let mut o = String::from(
        "\npooled: the geometric mean of the runs' scores; an index score's, of the runs' index scores.\n\
         95%: its 95% interval (log scale, Student t over the runs) as percentages of it, +-x% where \
         its two sides agree, else each side; from the runs' spread, it holds the host's wander between \
         them, which one run's interval cannot see, over the time they span.\n",
    );
    let any = |f: &dyn Fn(&Pooled) -> bool| p.pooled.iter().any(|t| t.iter().any(f));
    if any(&|x| x.disturbed > 0) {
        o.push_str("d: disturbed in at least one of the runs: not fit to publish.\n");
    }
    for why in [NotPooled::Images, NotPooled::Zero, NotPooled::Tests] {
        if any(&|x| x.not_pooled == Some(why)) {
            o.push_str(why.legend());
        }
    }
    o
}

/// The pool as TSV, or as Markdown: one line per row.
pub fn tsv(p: &Pool, readers: Readers) -> String {
    let kind = kinds(p.cmp.sources).join("+");
    let span = p.span.map_or(String::new(), |s| s.to_string());
    let mut o = Sink::new(
        readers,
        "copies\ttest\truns\tscore\tci95_low\tci95_high\tmin\tmax\tcv\tspan_s\tkind\tdisturbed_runs\tnot_pooled",
    );
    for (t, pooled) in p.cmp.tables.iter().zip(&p.pooled) {
        for (r, x) in t.rows.iter().zip(pooled) {
            let s = x.stats.as_ref();
            let ci = s.and_then(|s| s.ci95);
            o.cell(&t.copies.to_string());
            o.cell(&readers.text(&r.name));
            o.cell(&x.runs.to_string());
            o.cell(&readers.figure(s.map(|s| s.geomean)));
            o.cell(&readers.figure(ci.map(|i| i.low)));
            o.cell(&readers.figure(ci.map(|i| i.high)));
            o.cell(&readers.figure(s.map(|s| s.min)));
            o.cell(&readers.figure(s.map(|s| s.max)));
            o.cell(&readers.ratio(s.and_then(|s| s.cv)));
            o.cell(&span);
            o.cell(&kind);
            o.cell(&x.disturbed.to_string());
            o.cell(x.not_pooled.map_or("", NotPooled::key));
            o.end();
        }
    }
    o.finish()
}

/// The pool as JSON (compact).
pub fn json(p: &Pool) -> String {
    let c = &p.cmp;
    let mut j = Writer::compact();
    table::json_head(&mut j, "unixbench-pool", c.sources);
    j.key("span_seconds").opt_int(p.span);
    j.key("span_warning");
    match span_warning(p.span) {
        Some(w) => j.string(&w),
        None => j.null(),
    };
    j.key("tables").begin_array();
    for (t, pooled) in c.tables.iter().zip(&p.pooled) {
        j.begin_object().key("copies").int(t.copies as i64).key("rows").begin_array();
        for (r, x) in t.rows.iter().zip(pooled) {
            row_json(&mut j, r, x);
        }
        j.end_array();
        j.key("farthest");
        match farthest(t, pooled) {
            Some(f) => {
                j.begin_object().key("run").int(f.run as i64 + 1).key("off_pct").number(f.off);
                j.key("without_ci95_low").opt_number(f.without.map(|w| w.1.low));
                j.key("without_ci95_high").opt_number(f.without.map(|w| w.1.high));
                j.end_object()
            }
            None => j.null(),
        };
        j.end_object();
    }
    j.end_array();
    table::not_compared_json(&mut j, c);
    j.end_object();
    j.finish()
}

/// A row pooled: its test, how many runs, the pooled figure, its interval and the runs' range.
fn row_json(j: &mut Writer, r: &Row, x: &Pooled) {
    let s = x.stats.as_ref();
    let ci = s.and_then(|s| s.ci95);
    j.begin_object();
    j.key("test").string(&r.name);
    j.key("index_score").bool(r.index_score);
    j.key("runs").int(x.runs as i64);
    j.key("score").opt_number(s.map(|s| s.geomean));
    j.key("ci95_low").opt_number(ci.map(|i| i.low));
    j.key("ci95_high").opt_number(ci.map(|i| i.high));
    j.key("min").opt_number(s.map(|s| s.min));
    j.key("max").opt_number(s.map(|s| s.max));
    j.key("cv").opt_number(s.and_then(|s| s.cv));
    j.key("disturbed_runs").int(x.disturbed as i64);
    j.key("not_pooled");
    match x.not_pooled {
        Some(why) => j.string(why.key()),
        None => j.null(),
    };
    j.end_object();
}

#[cfg(test)]
mod tests {
    use super::super::load;
    use super::super::source::Image;
    use super::*;

    fn row(cells: &[(f64, bool, Option<Image>)]) -> Row {
        Row {
            name: "Pipe Throughput".into(),
            index_score: false,
            cells: cells
                .iter()
                .map(|&(score, disturbed, image)| {
                    Some(Cell { score, ci: None, image, disturbed, covers: Default::default() })
                })
                .collect(),
        }
    }

    #[test]
    fn a_row_pools_the_runs_scores_on_the_log_scale() {
        // Each run 10% over the one before: logs a step of ln 1.1 apart, so the geometric mean
        // is the middle run and the half-width is t(0.975, 2) ln(1.1) / sqrt(3).
        let p = pool_row(&row(&[(100.0, false, None), (110.0, true, None), (121.0, false, None)]), None);
        let s = p.stats.unwrap();
        assert!((s.geomean - 110.0).abs() < 1e-9, "{s:?}");
        let half = 4.30265272975 * 1.1f64.ln() / 3f64.sqrt();
        let ci = s.ci95.unwrap();
        assert!((ci.log_half - half).abs() < 1e-9 && (ci.low - 110.0 * (-half).exp()).abs() < 1e-6, "{ci:?}");
        assert_eq!((s.min, s.max, p.runs, p.disturbed, p.not_pooled), (100.0, 121.0, 3, 1, None));
    }

    #[test]
    fn a_row_pools_the_runs_that_have_it_and_not_two_images_or_a_zero() {
        let mut r = row(&[(100.0, false, None), (110.0, false, None)]);
        r.cells.push(None);
        assert_eq!(pool_row(&r, None).runs, 2);
        let one = pool_row(&row(&[(100.0, false, None)]), None);
        let s = one.stats.unwrap();
        assert!(one.runs == 1 && (s.geomean - 100.0).abs() < 1e-9 && s.ci95.is_none(), "{one:?}");
        let (st, dy) = (Some(Image::Static), Some(Image::Dynamic));
        let mixed = pool_row(&row(&[(100.0, false, st), (110.0, false, dy)]), None);
        assert_eq!((mixed.stats, mixed.not_pooled, mixed.runs), (None, Some(NotPooled::Images), 2));
        assert!(pool_row(&row(&[(100.0, false, dy), (110.0, false, dy)]), None).stats.is_some());
        // Run's geometric mean would count the 0 as 1 and pool to 10.
        let zero = pool_row(&row(&[(100.0, false, None), (0.0, false, None)]), None);
        assert_eq!((zero.stats, zero.not_pooled), (None, Some(NotPooled::Zero)));
    }

    /// A text report of host `host` that started at `start`, with System Call Overhead's score
    /// and the index score given (Pipe Throughput too when `pipe`).
    fn report(host: &str, start: &str, score: f64, index: f64, pipe: bool) -> String {
        let (pipe_line, pipe_row) = if pipe {
            (
                "Pipe Throughput                             1000000.0 lps   (10.0 s, 7 samples)\n",
                "Pipe Throughput                               12440.0    1000000.0    803.9\n",
            )
        } else {
            ("", "")
        };
        format!(
            "   BYTE UNIX Benchmarks (Version 5.1.3)\n\n   System: {host}: Debian\n   OS: GNU/Linux -- 6.1.0 -- #1\n   \
             Machine: x86_64 (unknown)\n   CPU 0: AMD EPYC (5192.2 bogomips)\n\n\
             Benchmark Run: Mon Nov 30 2026 {start} - 23:59:00\n2 CPUs in system; running 1 parallel copy of tests\n\n\
             {pipe_line}System Call Overhead                        {score:.1} lps   (10.0 s, 7 samples)\n\n\
             System Benchmarks Index Values               BASELINE       RESULT    INDEX\n{pipe_row}\
             System Call Overhead                          15000.0    {score:.1}    666.7\n\
             ========\nSystem Benchmarks Index Score (Partial Only)                          {index:.1}\n"
        )
    }

    fn source(file: &str, host: &str, start: &str, score: f64, index: f64) -> Source {
        load::load(file, &report(host, start, score, index, false)).unwrap()
    }

    #[test]
    fn an_index_pools_the_runs_index_scores_and_the_span_is_first_start_to_last() {
        // The index scores agree though the test's scores do not: the index row pools them.
        let runs = [
            source("a.txt", "vm", "10:00:00", 1000000.0, 500.0),
            source("b.txt", "vm", "11:30:00", 1100000.0, 500.0),
            source("c.txt", "vm", "10:45:00", 1210000.0, 500.0),
        ];
        let p = pool(&runs).unwrap();
        assert_eq!(p.span, Some(5400));
        assert_eq!(p.cmp.tables[0].rows[1].name, "System Benchmarks Index Score");
        let index = p.pooled[0][1].stats.unwrap();
        assert!((index.geomean - 500.0).abs() < 1e-9 && index.ci95.unwrap().log_half < 1e-12, "{index:?}");
        assert!((p.pooled[0][0].stats.unwrap().geomean - 1100000.0).abs() < 1e-6);
        let t = text(&p);
        let first =
            "Runs pooled: 3, of host vm, AMD EPYC, 2 CPUs; from the first start to the last: 1 h 30 min\n";
        assert!(t.starts_with(first), "{t}");
    }

    #[test]
    fn an_index_over_different_tests_is_not_pooled() {
        let two = load::load("b.txt", &report("vm", "11:00:00", 1100000.0, 700.0, true)).unwrap();
        let runs = [source("a.txt", "vm", "10:00:00", 1000000.0, 500.0), two];
        let p = pool(&runs).unwrap();
        let names: Vec<&str> = p.cmp.tables[0].rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["Pipe Throughput", "System Call Overhead", "System Benchmarks Index Score"]);
        let [pipe, syscall, index] = p.pooled[0][..] else { panic!("{:?}", p.pooled) };
        assert_eq!((pipe.runs, pipe.not_pooled, syscall.not_pooled), (1, None, None));
        assert_eq!((index.stats, index.not_pooled), (None, Some(NotPooled::Tests)));
        assert!(
            text(&p).contains("!: not pooled: the runs' index scores cover different tests"),
            "{}",
            text(&p)
        );
    }

    /// A table of System Call Overhead (in the index), Shell Scripts (16 concurrent) (no
    /// baseline, so not in it) and the index, one column per run; None where a run lacks it.
    fn table(syscall: &[f64], shell16: &[Option<f64>]) -> Table {
        let cells = |xs: Vec<Option<f64>>| -> Vec<Option<Cell>> {
            xs.into_iter()
                .map(|x| {
                    x.map(|score| Cell {
                        score,
                        ci: None,
                        image: None,
                        disturbed: false,
                        covers: Default::default(),
                    })
                })
                .collect()
        };
        let row = |name: &str, index_score, xs| Row { name: name.into(), index_score, cells: cells(xs) };
        let index: Vec<Option<f64>> = syscall.iter().map(|x| Some(x / 1500.0)).collect();
        Table {
            copies: 1,
            rows: vec![
                row("Shell Scripts (16 concurrent)", false, shell16.to_vec()),
                row("System Call Overhead", false, syscall.iter().map(|&x| Some(x)).collect()),
                row("System Benchmarks Index Score", true, index),
            ],
        }
    }

    #[test]
    fn an_index_pools_over_its_own_tests_and_not_over_a_test_that_does_not_pool() {
        // A test outside the index, in two runs of three, leaves the index to pool.
        let p = pool_table(&table(&[1e6, 1.1e6, 1.2e6], &[Some(900.0), None, Some(950.0)]));
        assert_eq!((p[0].runs, p[2].not_pooled, p[2].runs), (2, None, 3));
        assert!(p[2].stats.is_some());
        // One of its tests scored 0: the index says why it does not pool.
        let p = pool_table(&table(&[1e6, 0.0, 1.2e6], &[None, None, None]));
        assert_eq!(
            (p[1].not_pooled, p[2].not_pooled, p[2].stats),
            (Some(NotPooled::Zero), Some(NotPooled::Zero), None)
        );
    }

    #[test]
    fn runs_of_another_host_none_or_one_run_twice_are_refused_naming_the_file() {
        let a = || source("a.txt", "vm", "10:00:00", 1000000.0, 500.0);
        let e = pool(&[a(), source("b.txt", "other", "11:00:00", 1000000.0, 500.0)]).err().unwrap();
        assert_eq!(
            e,
            (
                "b.txt".to_string(),
                "its host (other, AMD EPYC, 2 CPUs) is not the first file's (vm, AMD EPYC, 2 CPUs): \
                 --pool judges one host's runs"
                    .to_string()
            )
        );
        let mut nameless = source("b.txt", "vm", "11:00:00", 1000000.0, 500.0);
        nameless.host.name = "unknown".into();
        let e = pool(&[a(), nameless]).err().unwrap();
        assert_eq!(e.1, "it names no host: --pool judges one host's runs");
        let e = pool(&[a(), source("c.txt", "vm", "12:00:00", 2000000.0, 600.0), a()]).err().unwrap();
        assert_eq!(
            e,
            ("a.txt".to_string(), "the same run as a.txt: a pool counts each run once".to_string())
        );
        // Another start, the same scores (a report and its JSON, one in local time, one in UTC).
        let e = pool(&[a(), source("b.txt", "vm", "11:00:00", 1000000.0, 500.0)]).err().unwrap();
        assert_eq!(e.0, "b.txt");
        // Equal to the 0.1 a report prints across a unit's edge, and far apart in between.
        let c = || source("c.txt", "vm", "13:00:00", 1000.49, 600.0);
        let d = source("d.txt", "vm", "14:00:00", 1000.53, 600.0);
        assert_eq!(pool(&[c(), source("x.txt", "vm", "12:00:00", 7.0, 9.0), d]).err().unwrap().0, "d.txt");
        let far = source("e.txt", "vm", "15:00:00", 1000.6, 600.0);
        assert!(pool(&[c(), far]).is_ok());
    }

    #[test]
    fn a_span_needs_every_date_and_one_kind_of_date() {
        let mut a = source("a.txt", "vm", "10:00:00", 1000000.0, 500.0);
        let b = source("b.txt", "vm", "11:00:00", 1000000.0, 500.0);
        assert_eq!(span(&[a.clone(), b.clone()]), Some(3600));
        a.date = "2026-11-30T10:00:00Z".into();
        assert_eq!(span(&[a.clone(), b.clone()]), None, "UTC and a local time");
        a.date = "unknown".into();
        assert_eq!(span(&[a, b]), None);
    }
}
