//! `compare --pool`: several runs of one host judged together. One run's 95% interval says how
//! well its own passes agree; it cannot see the host's speed wander from one run to the next,
//! which on a VM can be several times wider (docs/FIDELITY.md, "Quick runs against standard
//! ones"). Pooled, a test's figure is the geometric mean of the runs' scores and its interval
//! comes from their spread (log scale, Student t over the runs), so it holds that wander as far
//! as the runs' span reaches. An index score is pooled from the runs' index scores, not
//! propagated from the pooled tests': the wander moves every test of a run together, and the
//! tests' intervals are not independent.

use super::load::{kinds_warning, Source};
use super::table::{self, Cell, Comparison, Row, Table};
use crate::json::Writer;
use crate::stats::{self, Stats};
use std::fmt::Write as _;

/// Several runs of one host lined up by copy count.
pub struct Pool {
    pub cmp: Comparison,
    /// Seconds from the earliest run's start to the latest's; None when a file's date is
    /// unknown, or the dates mix UTC and a text report's local time.
    pub span: Option<i64>,
}

/// One row pooled over the runs that have it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pooled {
    /// The statistics of the runs' scores (their geometric mean, the interval of it, the lowest
    /// and highest); None when the runs timed different exec images, which do not pool.
    pub stats: Option<Stats>,
    pub runs: usize,
    /// In how many of the runs it was disturbed.
    pub disturbed: usize,
    pub images_differ: bool,
}

/// Lines the runs up by copy count. Err names the file that is not of the first file's host, or
/// that cannot be lined up, and why.
pub fn pool(sources: Vec<Source>) -> Result<Pool, (String, String)> {
    one_host(&sources)?;
    let span = span(&sources);
    Ok(Pool { cmp: table::compare(sources)?, span })
}

/// The host a pool is of: its name, CPU model and CPU count as the system block gives them.
fn identity(s: &Source) -> String {
    format!("{}, {}, {}", s.host.name, s.host.cpu, crate::fmt::number(s.host.cpus, "CPU", "CPUs"))
}

/// Err for the first file whose host is not the first file's.
fn one_host(sources: &[Source]) -> Result<(), (String, String)> {
    let first = identity(&sources[0]);
    match sources.iter().find(|s| identity(s) != first) {
        None => Ok(()),
        Some(s) => Err((
            s.file.clone(),
            format!(
                "its host ({}) is not the first file's ({first}): --pool judges one host's runs",
                identity(s)
            ),
        )),
    }
}

/// Seconds from the earliest start to the latest.
fn span(sources: &[Source]) -> Option<i64> {
    let dates = sources.iter().map(|s| crate::fmt::parse_iso(&s.date)).collect::<Option<Vec<_>>>()?;
    if dates.iter().any(|d| d.1 != dates[0].1) {
        return None;
    }
    let (min, max) = (dates.iter().map(|d| d.0).min()?, dates.iter().map(|d| d.0).max()?);
    Some(max - min)
}

/// A row pooled: the statistics of the scores of the runs that have it.
pub fn pooled(r: &Row) -> Pooled {
    let cells: Vec<&Cell> = r.cells.iter().flatten().collect();
    let images: Vec<_> = cells.iter().filter_map(|c| c.image).collect();
    let images_differ = images.windows(2).any(|w| w[0] != w[1]);
    let scores: Vec<f64> = cells.iter().map(|c| c.score).collect();
    Pooled {
        stats: if images_differ { None } else { stats::describe(&scores) },
        runs: cells.len(),
        disturbed: cells.iter().filter(|c| c.disturbed).count(),
        images_differ,
    }
}

/// The pool as text: the runs, one table per copy count, the notes, the legend.
pub fn text(p: &Pool) -> String {
    let c = &p.cmp;
    let span = p.span.map_or("unknown (a date is missing, or UTC and local dates mix)".into(), |s| {
        crate::fmt::duration(s as f64)
    });
    let mut o = format!(
        "Runs pooled: {}, of host {}; from the first start to the last: {span}\n",
        c.sources.len(),
        identity(&c.sources[0])
    );
    for (i, s) in c.sources.iter().enumerate() {
        let _ = writeln!(o, "{}", table::source_line(i, s));
    }
    if let Some(w) = kinds_warning(&c.sources) {
        let _ = writeln!(o, "** warning: {w}");
    }
    for t in &c.tables {
        o += &table_text(t);
    }
    o += &table::notes_text(c);
    o += &legend(c);
    o
}

/// One copy count's table: a line per row, its runs, the pooled figure and its interval, the
/// lowest and highest run.
fn table_text(t: &Table) -> String {
    let mut o = format!(
        "\n{:<40} {:>5} {:>12} {:>8}  {:>12} {:>12}\n",
        table::table_title(t.copies),
        "runs",
        "pooled",
        "95%",
        "lowest",
        "highest"
    );
    let mut gap = false;
    for r in &t.rows {
        if r.index_score && !gap {
            o.push('\n');
            gap = true;
        }
        let p = pooled(r);
        let fig = |v: Option<f64>| v.map_or("---".to_string(), |v| format!("{v:.1}"));
        let s = p.stats.as_ref();
        let ci = s.and_then(|s| s.ci95.as_ref()).map_or("---".to_string(), table::half_width);
        let flag = if p.images_differ {
            '!'
        } else if p.disturbed > 0 {
            'd'
        } else {
            ' '
        };
        let line = format!(
            "{:<40} {:>5} {:>12} {ci:>8}{flag} {:>12} {:>12}",
            r.name,
            p.runs,
            fig(s.map(|s| s.geomean)),
            fig(s.map(|s| s.min)),
            fig(s.map(|s| s.max))
        );
        let _ = writeln!(o, "{}", line.trim_end());
    }
    o
}

/// What the columns and marks mean, the marks that appear.
fn legend(c: &Comparison) -> String {
    let mut o = String::from(
        "\npooled: the geometric mean of the runs' scores; an index score's, of the runs' index scores.\n\
         95%: the half-width of its 95% interval (log scale, Student t over the runs), from the runs' spread: \
         it holds the host's wander between them, which one run's interval cannot see, over the time they span.\n",
    );
    let rows: Vec<Pooled> = c.tables.iter().flat_map(|t| &t.rows).map(pooled).collect();
    if rows.iter().any(|p| p.disturbed > 0) {
        o.push_str("d: disturbed in at least one of the runs: not fit to publish.\n");
    }
    if rows.iter().any(|p| p.images_differ) {
        o.push_str("!: the runs timed different exec images (this static binary and a dynamically linked program): not pooled.\n");
    }
    o
}

/// The kinds of run pooled, as one word each, joined by `+`: `quick`, `quick+standard`.
fn kinds(sources: &[Source]) -> String {
    let mut k: Vec<&str> = sources.iter().map(|s| s.run_kind().name()).collect();
    k.sort_unstable();
    k.dedup();
    k.join("+")
}

/// The pool as TSV: one line per row.
pub fn tsv(p: &Pool) -> String {
    let kind = kinds(&p.cmp.sources);
    let mut o = String::from(
        "copies\ttest\truns\tscore\tci95_low\tci95_high\tmin\tmax\tcv\tspan_s\tkind\tdisturbed_runs\n",
    );
    for t in &p.cmp.tables {
        for r in &t.rows {
            let x = pooled(r);
            let s = x.stats.as_ref();
            let ci = s.and_then(|s| s.ci95);
            let _ = writeln!(
                o,
                "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{kind}\t{}",
                t.copies,
                r.name,
                x.runs,
                table::opt(s.map(|s| s.geomean)),
                table::opt(ci.map(|i| i.low)),
                table::opt(ci.map(|i| i.high)),
                table::opt(s.map(|s| s.min)),
                table::opt(s.map(|s| s.max)),
                table::opt(s.and_then(|s| s.cv)),
                p.span.map_or(String::new(), |s| s.to_string()),
                x.disturbed
            );
        }
    }
    o
}

/// The pool as JSON (compact).
pub fn json(p: &Pool) -> String {
    let c = &p.cmp;
    let mut j = Writer::compact();
    j.begin_object();
    j.key("schema").string("unixbench-pool");
    j.key("schema_version").int(1);
    j.key("warning");
    match kinds_warning(&c.sources) {
        Some(w) => j.string(&w),
        None => j.null(),
    };
    j.key("span_seconds").opt_int(p.span);
    j.key("runs").begin_array();
    for (i, s) in c.sources.iter().enumerate() {
        table::source_json(&mut j, i, s);
    }
    j.end_array();
    j.key("tables").begin_array();
    for t in &c.tables {
        j.begin_object().key("copies").int(t.copies as i64).key("rows").begin_array();
        for r in &t.rows {
            row_json(&mut j, r);
        }
        j.end_array().end_object();
    }
    j.end_array();
    table::not_compared_json(&mut j, c);
    j.end_object();
    j.finish()
}

/// A row pooled: its test, how many runs, the pooled figure, its interval and the runs' range.
fn row_json(j: &mut Writer, r: &Row) {
    let x = pooled(r);
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
    j.key("images_differ").bool(x.images_differ);
    j.end_object();
}

#[cfg(test)]
mod tests {
    use super::super::load::{self, Image};
    use super::*;

    fn row(cells: &[(f64, bool, Option<Image>)]) -> Row {
        Row {
            name: "Pipe Throughput".into(),
            index_score: false,
            cells: cells
                .iter()
                .map(|&(score, disturbed, image)| Some(Cell { score, ci: None, image, disturbed }))
                .collect(),
        }
    }

    #[test]
    fn a_row_pools_the_runs_scores_on_the_log_scale() {
        // Each run 10% over the one before: logs a step of ln 1.1 apart, so the geometric mean
        // is the middle run and the half-width is t(0.975, 2) ln(1.1) / sqrt(3).
        let p = pooled(&row(&[(100.0, false, None), (110.0, true, None), (121.0, false, None)]));
        let s = p.stats.unwrap();
        assert!((s.geomean - 110.0).abs() < 1e-9, "{s:?}");
        let half = 4.30265272975 * 1.1f64.ln() / 3f64.sqrt();
        let ci = s.ci95.unwrap();
        assert!((ci.log_half - half).abs() < 1e-9 && (ci.low - 110.0 * (-half).exp()).abs() < 1e-6, "{ci:?}");
        assert_eq!((s.min, s.max, p.runs, p.disturbed, p.images_differ), (100.0, 121.0, 3, 1, false));
    }

    #[test]
    fn a_row_lacking_in_a_run_pools_the_others_and_images_that_differ_do_not_pool() {
        let mut r = row(&[(100.0, false, None), (110.0, false, None)]);
        r.cells.push(None);
        assert_eq!(pooled(&r).runs, 2);
        let one = pooled(&row(&[(100.0, false, None)]));
        let s = one.stats.unwrap();
        assert!(one.runs == 1 && (s.geomean - 100.0).abs() < 1e-9 && s.ci95.is_none(), "{one:?}");
        let mixed =
            pooled(&row(&[(100.0, false, Some(Image::Static)), (110.0, false, Some(Image::Dynamic))]));
        assert_eq!((mixed.stats, mixed.images_differ), (None, true));
        let same =
            pooled(&row(&[(100.0, false, Some(Image::Dynamic)), (110.0, false, Some(Image::Dynamic))]));
        assert!(same.stats.is_some() && !same.images_differ);
    }

    fn report(host: &str, start: &str, score: f64, index: f64) -> String {
        format!(
            "   BYTE UNIX Benchmarks (Version 5.1.3)\n\n   System: {host}: Debian\n   OS: GNU/Linux -- 6.1.0 -- #1\n   \
             Machine: x86_64 (unknown)\n   CPU 0: AMD EPYC (5192.2 bogomips)\n\n\
             Benchmark Run: Mon Nov 30 2026 {start} - 23:59:00\n2 CPUs in system; running 1 parallel copy of tests\n\n\
             System Call Overhead                        {score:.1} lps   (10.0 s, 7 samples)\n\n\
             System Benchmarks Index Values               BASELINE       RESULT    INDEX\n\
             System Call Overhead                          15000.0    {score:.1}    666.7\n\
             ========\nSystem Benchmarks Index Score (Partial Only)                          {index:.1}\n"
        )
    }

    fn source(file: &str, host: &str, start: &str, score: f64, index: f64) -> Source {
        load::load(file, &report(host, start, score, index)).unwrap()
    }

    #[test]
    fn an_index_pools_the_runs_index_scores_and_the_span_is_first_start_to_last() {
        // The index scores agree though the test's scores do not: the index row pools them.
        let p = pool(vec![
            source("a.txt", "vm", "10:00:00", 1000000.0, 500.0),
            source("b.txt", "vm", "11:30:00", 1100000.0, 500.0),
            source("c.txt", "vm", "10:45:00", 1210000.0, 500.0),
        ])
        .unwrap();
        assert_eq!(p.span, Some(5400));
        let rows = &p.cmp.tables[0].rows;
        assert_eq!(rows[1].name, "System Benchmarks Index Score");
        let index = pooled(&rows[1]).stats.unwrap();
        assert!((index.geomean - 500.0).abs() < 1e-9 && index.ci95.unwrap().log_half < 1e-12, "{index:?}");
        assert!((pooled(&rows[0]).stats.unwrap().geomean - 1100000.0).abs() < 1e-6);
        let t = text(&p);
        assert!(t.starts_with("Runs pooled: 3, of host vm, AMD EPYC, 2 CPUs; from the first start to the last: 1 h 30 min\n"), "{t}");
    }

    #[test]
    fn runs_of_another_host_are_refused_naming_the_file() {
        let e = pool(vec![
            source("a.txt", "vm", "10:00:00", 1000000.0, 500.0),
            source("b.txt", "other", "11:00:00", 1000000.0, 500.0),
        ])
        .err()
        .unwrap();
        assert_eq!(e.0, "b.txt");
        assert_eq!(
            e.1,
            "its host (other, AMD EPYC, 2 CPUs) is not the first file's (vm, AMD EPYC, 2 CPUs): --pool judges one host's runs"
        );
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
