//! The tables `compare` prints, built from loaded files and rendered as text, TSV or JSON. Pure
//! functions from data to text, tested against literal output.

use super::source::{category_of, kinds_warning, yes_no, ByName, FileKind, Image, Source};
use crate::json::Writer;
use crate::model::Category;
use crate::stats::{self, Difference, Interval};
use report::markdown::{Readers, Sink};
use std::fmt::Write as _;

/// One run's figure in a row: the score and its interval, if known.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    pub score: f64,
    pub ci: Option<Interval>,
    /// execl's and spawn's: the kind of image timed.
    pub image: Option<Image>,
    /// The test was disturbed; an index score, one of its tests was.
    pub disturbed: bool,
    /// An index score's tests, as this run has them; a test's cell covers none.
    pub covers: Covers,
}

/// The tests an index score is the geometric mean of: how many, and a fingerprint of their
/// names, so that two runs' indexes over different tests are told apart without a list each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Covers {
    pub tests: usize,
    pub fingerprint: u64,
}

impl Covers {
    /// The tests of `names` (FNV-1a over each name and a separator).
    fn of<'a>(names: impl Iterator<Item = &'a str>) -> Covers {
        let mut c = Covers { tests: 0, fingerprint: 0xcbf2_9ce4_8422_2325 };
        for n in names {
            c.tests += 1;
            for b in n.bytes().chain([0]) {
                c.fingerprint = (c.fingerprint ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
        }
        c
    }
}

/// What the test on a run's figure against the first run's shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mark {
    /// The ratio's 95% interval holds 1: no difference shown.
    Same(Difference),
    /// The ratio's 95% interval excludes 1 (Welch's test on the log ratio).
    Differs(Difference),
    /// One of the intervals is unknown.
    Unknown,
    /// The two timed different exec images (static against dynamic): not comparable at all.
    Images,
    /// Two index scores over different tests (a partial index against a whole one): not
    /// comparable either.
    Tests,
}

impl Mark {
    fn of(first: &Cell, other: &Cell) -> Mark {
        if images_differ(first, other) {
            return Mark::Images;
        }
        if first.covers != other.covers {
            return Mark::Tests;
        }
        let (Some(a), Some(b)) = (first.ci, other.ci) else { return Mark::Unknown };
        match stats::difference(first.score, &a, other.score, &b) {
            Some(d) if d.marked => Mark::Differs(d),
            Some(d) => Mark::Same(d),
            None => Mark::Unknown,
        }
    }
    fn symbol(self) -> char {
        match self {
            Mark::Same(_) => ' ',
            Mark::Differs(_) => '*',
            Mark::Unknown => '?',
            Mark::Images | Mark::Tests => '!',
        }
    }
    /// The difference tested, where there was one.
    pub fn difference(self) -> Option<Difference> {
        match self {
            Mark::Same(d) | Mark::Differs(d) => Some(d),
            _ => None,
        }
    }
}

/// Whether the two timed different exec images (static against dynamic).
fn images_differ(first: &Cell, other: &Cell) -> bool {
    matches!((first.image, other.image), (Some(a), Some(b)) if a != b)
}

/// The TSV's and JSON's `overlap` of a file's cell against the first's: whether the two 95%
/// intervals overlap (the mark is the test on the difference, which overlapping intervals can
/// still pass). None for the first file's cell or a missing one; `Err` says why the two are not
/// comparable (other exec images, other tests).
fn overlap(
    first: &Option<Cell>,
    other: &Option<Cell>,
    j: usize,
) -> Option<Result<Option<bool>, &'static str>> {
    let (a, b) = (first.as_ref()?, other.as_ref().filter(|_| j > 0)?);
    if images_differ(a, b) {
        return Some(Err("images differ"));
    }
    if a.covers != b.covers {
        return Some(Err("tests differ"));
    }
    Some(Ok(a.ci.zip(b.ci).map(|(x, y)| x.overlaps(&y))))
}

/// A row: a test, or a category's index score.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub name: String,
    pub index_score: bool,
    /// One cell per run; None where the run has no such test.
    pub cells: Vec<Option<Cell>>,
}

/// The table of one copy count.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub copies: usize,
    pub rows: Vec<Row>,
}

/// Several files lined up by copy count.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison<'s> {
    pub sources: &'s [Source],
    pub tables: Vec<Table>,
    /// Copy counts that not every file has, with the 0-based indexes of the files that have them.
    pub not_compared: Vec<(usize, Vec<usize>)>,
}

fn copies_text(n: usize) -> String {
    if n == 1 {
        "1 copy".into()
    } else {
        format!("{n} copies")
    }
}

fn list(ns: &[usize]) -> String {
    ns.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", ")
}

/// Index-score row name of a category.
pub(super) fn index_title(c: Category) -> String {
    format!("{} Index Score", c.display())
}

/// Rows for one copy count: the union of the tests in report order (byte order of the message),
/// then the index scores in category order.
fn rows_for(runs: &[&super::source::CopyRun]) -> Vec<Row> {
    let mut all = Vec::new();
    for r in runs {
        all.extend(r.tests.iter().map(|t| t.message.as_str()));
    }
    let names = ByName::new(&mut all.into_iter()).names();
    let by_name: Vec<ByName> = runs.iter().map(|r| ByName::tests(&r.tests)).collect();
    let mut rows: Vec<Row> = names
        .into_iter()
        .map(|name| Row {
            name: name.to_string(),
            index_score: false,
            cells: by_name
                .iter()
                .zip(runs)
                .map(|(tests, r)| {
                    tests.get(name).map(|k| &r.tests[k]).map(|t| Cell {
                        score: t.score,
                        ci: t.ci,
                        image: t.image,
                        disturbed: t.disturbed,
                        covers: Covers::default(),
                    })
                })
                .collect(),
        })
        .collect();
    for c in Category::ALL {
        // The tests of the index that each run has, among the rows so far (the tests).
        let tests: Vec<&Row> =
            rows.iter().filter(|r| category_of(&r.name) == Some(c) && in_index(&r.name)).collect();
        let covers =
            |j: usize| Covers::of(tests.iter().filter(|r| r.cells[j].is_some()).map(|r| r.name.as_str()));
        let cells: Vec<Option<Cell>> = runs
            .iter()
            .enumerate()
            .map(|(j, r)| {
                r.index.iter().find(|i| i.category == c).map(|i| Cell {
                    score: i.score,
                    ci: i.ci,
                    image: None,
                    disturbed: r.index_disturbed(c),
                    covers: covers(j),
                })
            })
            .collect();
        if cells.iter().any(Option::is_some) {
            rows.push(Row { name: index_title(c), index_score: true, cells });
        }
    }
    rows
}

/// Whether the test of report line `message` counts in its category's index: it has a baseline.
pub(super) fn in_index(message: &str) -> bool {
    let test = crate::suite::TESTS.iter().find(|t| t.message == message);
    test.is_some_and(|t| crate::baselines::lookup(t.name).is_some())
}

/// Lines the files up by copy count. Err names the file that cannot be lined up and why.
pub fn compare(sources: &[Source]) -> Result<Comparison<'_>, (String, String)> {
    // Each file's copy counts sorted, with their runs: files of many runs line up in n log n.
    let mut by_copies: Vec<Vec<(usize, usize)>> = Vec::new();
    for s in sources {
        let mut runs: Vec<(usize, usize)> = s.runs.iter().enumerate().map(|(k, r)| (r.copies, k)).collect();
        runs.sort_unstable();
        if let Some(w) = runs.windows(2).find(|w| w[0].0 == w[1].0) {
            let why = format!("holds two {}-copy runs, which cannot be lined up", w[0].0);
            return Err((s.file.clone(), why));
        }
        by_copies.push(runs);
    }
    let run_of = |i: usize, n: usize| {
        let runs = &by_copies[i];
        runs.binary_search_by_key(&n, |r| r.0).ok().map(|at| &sources[i].runs[runs[at].1])
    };
    let mut counts = Vec::new();
    for s in sources {
        counts.extend(s.runs.iter().map(|r| r.copies));
    }
    let all = first_appearances(&counts);
    let (common, not_common): (Vec<usize>, Vec<usize>) =
        all.into_iter().partition(|&n| (0..sources.len()).all(|i| run_of(i, n).is_some()));
    if common.is_empty() {
        return Err(nothing_in_common(sources));
    }
    let tables = common
        .iter()
        .map(|&n| {
            let runs: Vec<&super::source::CopyRun> =
                (0..sources.len()).filter_map(|i| run_of(i, n)).collect();
            Table { copies: n, rows: rows_for(&runs) }
        })
        .collect();
    let not_compared = not_common
        .into_iter()
        .map(|n| (n, (0..sources.len()).filter(|&i| run_of(i, n).is_some()).collect()))
        .collect();
    Ok(Comparison { sources, tables, not_compared })
}

/// A cell against the first file's: its score as a percentage of the first's, and the mark
/// its interval earns against the first's (`119.9%*`).
pub(super) fn vs_first(first: &Option<Cell>, other: &Option<Cell>) -> String {
    let pct = ratio(first, other).map_or("---".to_string(), |p| percent(p, 1, 7));
    format!("{pct}{}", mark(first, other).map_or(' ', Mark::symbol))
}

/// Each copy count once, in the order first seen.
fn first_appearances(counts: &[usize]) -> Vec<usize> {
    let mut seen: Vec<(usize, usize)> = counts.iter().enumerate().map(|(k, &n)| (n, k)).collect();
    seen.sort_unstable();
    seen.dedup_by_key(|x| x.0);
    // (place, count) pairs sorted as above: one sort's code serves both.
    let mut by_place: Vec<(usize, usize)> = seen.into_iter().map(|(n, k)| (k, n)).collect();
    by_place.sort_unstable();
    by_place.into_iter().map(|x| x.1).collect()
}

/// The error for files whose copy counts have none in common: the first file that shares none
/// with the first file's.
fn nothing_in_common(sources: &[Source]) -> (String, String) {
    let first = &sources[0];
    let mut mine: Vec<usize> = first.runs.iter().map(|r| r.copies).collect();
    mine.sort_unstable();
    let shares = |s: &Source| s.runs.iter().any(|r| mine.binary_search(&r.copies).is_ok());
    let odd = sources.iter().find(|s| !shares(s)).unwrap_or(&sources[1]);
    let counts = |s: &Source| list(&s.runs.iter().map(|r| r.copies).collect::<Vec<_>>());
    let why = format!(
        "its runs (copies: {}) line up with none of {}'s (copies: {})",
        counts(odd),
        first.file,
        counts(first)
    );
    (odd.file.clone(), why)
}

/// `other`'s score as a percentage of `first`'s; None where either is missing, the first is 0,
/// or they are index scores over different tests.
fn ratio(first: &Option<Cell>, other: &Option<Cell>) -> Option<f64> {
    match (first, other) {
        (Some(a), Some(b)) if a.score != 0.0 && a.covers == b.covers => Some(100.0 * b.score / a.score),
        _ => None,
    }
}

pub(super) fn mark(first: &Option<Cell>, other: &Option<Cell>) -> Option<Mark> {
    Some(Mark::of(first.as_ref()?, other.as_ref()?))
}

/// A file's two lines in the list: what it is and what kind of run, then whose run and when.
pub(super) fn source_line(i: usize, s: &Source) -> String {
    let h = &s.host;
    let cpus = crate::fmt::number(h.cpus, "CPU", "CPUs");
    format!(
        "  [{}] {}: {}, version {}, {} run\n      host {}, CPU {}, {cpus}, kernel {}, date {}",
        i + 1,
        s.file,
        s.kind.describe(),
        s.version,
        s.run_kind().name(),
        h.name,
        h.cpu,
        h.os_release,
        s.date
    )
}

/// The comparison as text: a source list, one table per copy count, the notes, the legend.
pub fn text(c: &Comparison) -> String {
    let mut o = sources_list("Runs compared:", c.sources);
    for t in &c.tables {
        o += &table_text(t);
    }
    o += &notes_text(c);
    if c.sources.len() > 1 {
        o += &legend_text(c);
    }
    o
}

/// The list of files under its first line, and the warning when their kinds of run differ.
pub(super) fn sources_list(first_line: &str, sources: &[Source]) -> String {
    let mut o = format!("{first_line}\n");
    for (i, s) in sources.iter().enumerate() {
        let _ = writeln!(o, "{}", source_line(i, s));
    }
    if let Some(w) = kinds_warning(sources) {
        let _ = writeln!(o, "** warning: {w}");
    }
    o
}

/// One copy count's table: a line per row, each file's score with its interval's half-width
/// (`d` after it when disturbed), and after the first file's, the ratio to it and its mark.
fn table_text(t: &Table) -> String {
    // The interval column as wide as its widest cell, 7 at least.
    let w = t
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().flatten())
        .map(|x| interval_text(x).len())
        .fold(7, usize::max);
    let mut head = format!("\n{:<40} {:>12} {:>w$}", table_title(t.copies), "[1]", "95%");
    for j in 1..t.rows.first().map_or(1, |r| r.cells.len()) {
        let _ = write!(head, "  {:>12} {:>w$} {:>8}", format!("[{}]", j + 1), "95%", "vs [1]");
    }
    let mut o = format!("{}\n", head.trim_end());
    let mut gap = false;
    for r in &t.rows {
        if r.index_score && !gap {
            o.push('\n');
            gap = true;
        }
        let mut line = format!("{:<40}", r.name);
        for (j, cell) in r.cells.iter().enumerate() {
            if j > 0 {
                line.push(' ');
            }
            line += &cell_text(cell, w);
            if j > 0 {
                let _ = write!(line, " {:>9}", vs_first(&r.cells[0], cell));
            }
        }
        o.push_str(line.trim_end());
        o.push('\n');
    }
    let verdicts = verdicts(t);
    if !verdicts.is_empty() {
        o.push('\n');
    }
    for v in verdicts {
        let _ = writeln!(o, "{}", v.text);
    }
    o
}

/// A file's figure against the first's on a table's headline index, in words.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The file, 0-based (1 or more).
    pub run: usize,
    /// The row judged: the System Benchmarks Index Score, else the first index score.
    pub row: String,
    /// Whether a difference is shown.
    pub marked: bool,
    pub text: String,
}

/// The row a table's verdicts speak of: the System Benchmarks Index Score, else its first
/// index score; None for a table without one.
fn headline(t: &Table) -> Option<&Row> {
    headline_at(t).map(|k| &t.rows[k])
}

/// [`headline`]'s place in the table's rows.
pub(super) fn headline_at(t: &Table) -> Option<usize> {
    let system = index_title(Category::System);
    t.rows
        .iter()
        .position(|r| r.index_score && r.name == system)
        .or_else(|| t.rows.iter().position(|r| r.index_score))
}

/// What to do for a sharper answer than two runs gave.
pub const SHARPER: &str =
    "for a sharper answer, compare --pool over three runs or more of each, spread over an hour, or longer runs (more rounds)";

/// One line for each file after the first on a table's headline index: how much faster or
/// slower than the first it is, with the 95% interval's half-width, and a warning where either
/// run was disturbed; or that no difference was shown, and the smallest these two runs could
/// have shown; or why there was no test.
pub fn verdicts(t: &Table) -> Vec<Verdict> {
    let Some(row) = headline(t) else { return Vec::new() };
    let on =
        if row.name == index_title(Category::System) { "the index".to_string() } else { row.name.clone() };
    let mut out = Vec::new();
    for j in 1..row.cells.len() {
        let (first, other) = (&row.cells[0], &row.cells[j]);
        let Some(m) = mark(first, other) else { continue };
        let busy = |c: &Option<Cell>| c.is_some_and(|c| c.disturbed);
        let mut text = format!("[{}] ", j + 1);
        let _ = match m {
            Mark::Differs(d) => write!(
                text,
                "is {:.1}% \u{b1} {:.1}% {} than [1] on {on}{}",
                100.0 * (d.ratio - 1.0).abs(),
                100.0 * (d.high - d.low) / 2.0,
                if d.ratio < 1.0 { "slower" } else { "faster" },
                match (busy(first), busy(other)) {
                    (false, false) => "",
                    _ => "; a run was disturbed (d), so the difference may be that other work",
                }
            ),
            Mark::Same(d) => write!(
                text,
                "against [1]: no difference shown on {on}; these two runs cannot show one below {:.1}% ({SHARPER})",
                100.0 * d.detectable
            ),
            Mark::Unknown => write!(text, "against [1]: no test on {on}: an interval is unknown"),
            Mark::Images => write!(text, "against [1]: not comparable on {on}: other exec images"),
            Mark::Tests => write!(
                text,
                "against [1]: not comparable on {on}: it covers {} where [1]'s covers {}",
                crate::fmt::number(other.map(|c| c.covers.tests), "test", "tests"),
                crate::fmt::number(first.map(|c| c.covers.tests), "test", "tests"),
            ),
        };
        out.push(Verdict { run: j, row: row.name.clone(), marked: matches!(m, Mark::Differs(_)), text });
    }
    out
}

/// The title of a copy count's table: `1 parallel copy`, `2 parallel copies`.
pub(super) fn table_title(copies: usize) -> String {
    if copies == 1 {
        "1 parallel copy".to_string()
    } else {
        format!("{copies} parallel copies")
    }
}

/// A figure as the reports print it, to 0.1, in at most 12 characters (`1.23e14` beyond, see
/// `fmt::compact`); `---` for none.
pub(super) fn figure(v: Option<f64>) -> String {
    v.map_or("---".to_string(), |v| crate::fmt::compact(v, 1, 12))
}

/// A percentage to `prec` decimals, the number in at most `width` characters (`1e302%` beyond).
pub(super) fn percent(p: f64, prec: usize, width: usize) -> String {
    format!("{}%", crate::fmt::compact(p, prec, width))
}

/// An interval as percentages of `score`: `+-2.1%` where its two sides round alike, else each
/// side, `-65.1/+186.9%` (an interval of the log scale is wider above than below, and a wide
/// one far wider); each number in at most 5 characters, `>1e308%` beyond what f64 holds.
pub(super) fn sides(score: f64, ci: &Interval) -> String {
    let (below, above) = if score > 0.0 && score.is_finite() {
        (100.0 * (ci.low / score - 1.0), 100.0 * (ci.high / score - 1.0))
    } else {
        // No score to measure from: the interval's own half-width.
        let h = 100.0 * ci.log_half.exp_m1();
        (-h, h)
    };
    let side = |p: f64| crate::fmt::compact(p, 1, 5);
    if !above.is_finite() {
        percent(above, 1, 5)
    } else if side(-below) == side(above) {
        format!("+-{}%", side(above))
    } else {
        let signed = |p: f64| if p < 0.0 { side(p) } else { format!("+{}", side(p)) };
        format!("{}/{}%", signed(below), signed(above))
    }
}

/// A file's score in a row, its interval as [`sides`] gives it in `width` characters, and `d`
/// when disturbed; `---` where it has none.
fn cell_text(cell: &Option<Cell>, width: usize) -> String {
    let Some(x) = cell else { return format!(" {:>12} {:>width$} ", "---", "") };
    let ci = interval_text(x);
    format!(" {:>12} {ci:>width$}{}", figure(Some(x.score)), if x.disturbed { 'd' } else { ' ' })
}

/// A cell's interval, or `---`.
fn interval_text(x: &Cell) -> String {
    x.ci.as_ref().map_or("---".to_string(), |ci| sides(x.score, ci))
}

/// What the tables leave out: partial indexes, copy counts not in every file.
pub(super) fn notes_text(c: &Comparison) -> String {
    let mut o = String::new();
    let partial = labels(c.sources, |s| s.runs.iter().any(|r| r.index.iter().any(|x| x.partial)));
    if !partial.is_empty() {
        let _ = writeln!(
            o,
            "\nPartial index in {}: not every index test ran, so index scores may cover different tests.",
            partial
        );
    }
    for (n, which) in &c.not_compared {
        let names = labels_at(&mut which.iter().copied());
        let _ = writeln!(o, "\nNot compared: {} (only in {names}).", copies_text(*n));
    }
    o
}

/// The legend of the marks, those that appear.
fn legend_text(c: &Comparison) -> String {
    let mut o = String::from("\nvs [1]: the score as a percentage of [1]'s score.\n");
    o.push_str("95%: the score's 95% interval, as percentages of the score: +-x% where its two sides agree, else each side.\n");
    o.push_str("*: a difference is shown: the 95% interval of the ratio (Welch's test on the log ratio) excludes 100%.\n");
    o.push_str("?: an interval is unknown (a text report has none; fewer than three kept passes give none of use).\n");
    let (mut images, mut tests, mut disturbed) = (false, false, false);
    for t in &c.tables {
        for r in &t.rows {
            for x in r.cells.iter().skip(1) {
                images |= mark(&r.cells[0], x) == Some(Mark::Images);
                tests |= mark(&r.cells[0], x) == Some(Mark::Tests);
            }
            disturbed |= r.cells.iter().flatten().any(|x| x.disturbed);
        }
    }
    if images {
        o.push_str("!: the two timed different exec images (this static binary against a dynamically linked program): not comparable.\n");
    }
    if tests {
        o.push_str(
            "!: on an index score: the two cover different tests (a partial index): not comparable.\n",
        );
    }
    if disturbed {
        o.push_str("d: disturbed (steal, other processes, a stop or a CPU quota took its time): not fit to publish.\n");
    }
    let text = labels(c.sources, |s| s.kind == FileKind::Text);
    if !text.is_empty() {
        let _ = writeln!(o, "Intervals unknown for {text}: text reports carry none.");
    }
    o.push_str(&intervals_note(c.sources));
    o
}

/// The labels of the files `pick` picks, as the list names them (`[1], [3]`); empty for none.
fn labels(sources: &[Source], pick: fn(&Source) -> bool) -> String {
    labels_at(&mut (0..sources.len()).filter(|&i| pick(&sources[i])))
}

/// The labels of the files at these places (from 0).
fn labels_at(places: &mut dyn Iterator<Item = usize>) -> String {
    let all: Vec<String> = places.map(|i| format!("[{}]", i + 1)).collect();
    all.join(", ")
}

/// Where the index intervals come from, and which files' intervals may miss the host's
/// wander: those whose passes did not run in rounds.
pub(super) fn intervals_note(sources: &[Source]) -> String {
    let without = labels(sources, |s| !s.rounds && s.kind != FileKind::Text);
    let mut o = String::from(if sources.iter().any(|s| s.rounds) {
        "Index intervals: the spread of the rounds' indexes where a run had rounds (holding the host's wander between them, not a drift slower than a run), else propagated from the tests'.\n"
    } else {
        "Index intervals are propagated from the tests' on the log scale, assuming the tests are independent.\n"
    });
    if !without.is_empty() {
        let _ = writeln!(
            o,
            "No rounds in {}: passes ran back to back, so the intervals may miss the host's wander and mark differences that are not real.",
            without
        );
    }
    o
}

fn pct(x: Option<f64>) -> Option<f64> {
    x.map(|p| (p * 100.0).round() / 100.0)
}

/// The comparison as TSV, or as Markdown: one line per table row and run.
pub fn tsv(c: &Comparison, readers: Readers) -> String {
    let mut o = Sink::new(
        readers,
        "copies\ttest\trun\tfile\tscore\tci95_low\tci95_high\tvs_first_pct\toverlap\tkind\tdisturbed\t\
         ratio_ci95_low\tratio_ci95_high\tdetectable_pct\tmarked",
    );
    // Once per file: a run's kind looks at all its tests.
    let kinds: Vec<&str> = c.sources.iter().map(|s| s.run_kind().name()).collect();
    for t in &c.tables {
        for r in &t.rows {
            for (j, cell) in r.cells.iter().enumerate() {
                let m = if j == 0 { None } else { mark(&r.cells[0], cell) };
                let vs = if j == 0 { None } else { ratio(&r.cells[0], cell) };
                let overlap = match overlap(&r.cells[0], cell, j) {
                    Some(Err(why)) => why,
                    Some(Ok(Some(true))) => "yes",
                    Some(Ok(Some(false))) => "no",
                    Some(Ok(None)) => "unknown",
                    None => "",
                };
                let d = m.and_then(Mark::difference);
                let marked = match m {
                    Some(Mark::Differs(_)) => "yes",
                    Some(Mark::Same(_)) => "no",
                    Some(_) => "unknown",
                    None => "",
                };
                o.cell(&t.copies.to_string());
                o.cell(&readers.text(&r.name));
                o.cell(&(j + 1).to_string());
                o.cell(&readers.text(&c.sources[j].file));
                o.cell(&readers.figure(cell.map(|x| x.score)));
                o.cell(&readers.figure(cell.and_then(|x| x.ci).map(|i| i.low)));
                o.cell(&readers.figure(cell.and_then(|x| x.ci).map(|i| i.high)));
                o.cell(&readers.pct(vs));
                o.cell(overlap);
                o.cell(kinds[j]);
                o.cell(yes_no(cell.map(|x| x.disturbed)));
                o.cell(&readers.ratio(d.map(|d| d.low)));
                o.cell(&readers.ratio(d.map(|d| d.high)));
                o.cell(&readers.pct(d.map(|d| 100.0 * d.detectable)));
                o.cell(marked);
                o.end();
            }
        }
    }
    o.finish()
}

/// The comparison as JSON (compact).
pub fn json(c: &Comparison) -> String {
    let mut j = Writer::compact();
    json_head(&mut j, "unixbench-compare", c.sources);
    j.key("tables").begin_array();
    for t in &c.tables {
        j.begin_object();
        j.key("copies").int(t.copies as i64);
        j.key("rows").begin_array();
        for r in &t.rows {
            row_json(&mut j, r);
        }
        j.end_array();
        j.key("verdicts").begin_array();
        for v in verdicts(t) {
            j.begin_object();
            j.key("run").int(v.run as i64 + 1);
            j.key("test").string(&v.row);
            j.key("marked").bool(v.marked);
            j.key("text").string(&v.text);
            j.end_object();
        }
        j.end_array().end_object();
    }
    j.end_array();
    not_compared_json(&mut j, c);
    j.end_object();
    j.finish()
}

/// A JSON's opening: its schema, the warning when the kinds of run differ, and the files.
pub(super) fn json_head(j: &mut Writer, schema: &str, sources: &[Source]) {
    j.begin_object();
    j.key("schema").string(schema);
    j.key("schema_version").int(1);
    j.key("warning");
    match kinds_warning(sources) {
        Some(w) => j.string(&w),
        None => j.null(),
    };
    j.key("runs").begin_array();
    for (i, s) in sources.iter().enumerate() {
        source_json(j, i, s);
    }
    j.end_array();
}

/// The copy counts not in every file, and the files (1-based) that have them.
pub(super) fn not_compared_json(j: &mut Writer, c: &Comparison) {
    j.key("not_compared").begin_array();
    for (n, which) in &c.not_compared {
        j.begin_object().key("copies").int(*n as i64).key("runs").begin_array();
        for i in which {
            j.int(*i as i64 + 1);
        }
        j.end_array().end_object();
    }
    j.end_array();
}

/// A file compared: what it is, its kind of run, whose run and when.
fn source_json(j: &mut Writer, i: usize, s: &Source) {
    let h = &s.host;
    j.begin_object();
    j.key("run").int(i as i64 + 1);
    j.key("file").string(&s.file);
    j.key("kind").string(if s.kind == FileKind::Json { "json" } else { "text" });
    j.key("version").string(&s.version);
    j.key("quick").bool(s.quick);
    j.key("run_kind").string(s.run_kind().name());
    j.key("hostname").string(&h.name);
    j.key("cpu").string(&h.cpu);
    j.key("cpu_count").opt_int(h.cpus.map(|n| n as i64));
    j.key("os_release").string(&h.os_release);
    j.key("date").string(&s.date);
    // Without rounds its intervals may miss the host's wander between tests.
    j.key("rounds").bool(s.rounds);
    j.end_object();
}

/// A row: its test, and each file's value with its interval, ratio, overlap, the test on the
/// difference (the ratio's interval, the smallest detectable difference, the mark) and
/// whether it was disturbed.
fn row_json(j: &mut Writer, r: &Row) {
    j.begin_object();
    j.key("test").string(&r.name);
    j.key("index_score").bool(r.index_score);
    j.key("values").begin_array();
    for (k, cell) in r.cells.iter().enumerate() {
        j.begin_object();
        j.key("score").opt_number(cell.map(|x| x.score));
        j.key("ci95_low").opt_number(cell.and_then(|x| x.ci).map(|i| i.low));
        j.key("ci95_high").opt_number(cell.and_then(|x| x.ci).map(|i| i.high));
        j.key("vs_first_pct").opt_number(if k == 0 { None } else { pct(ratio(&r.cells[0], cell)) });
        let m = if k == 0 { None } else { mark(&r.cells[0], cell) };
        j.key("overlap");
        match overlap(&r.cells[0], cell, k) {
            Some(Err(why)) => j.string(why),
            Some(Ok(Some(o))) => j.bool(o),
            Some(Ok(None)) | None => j.null(),
        };
        let d = m.and_then(Mark::difference);
        j.key("ratio_ci95_low").opt_number(d.map(|d| d.low));
        j.key("ratio_ci95_high").opt_number(d.map(|d| d.high));
        j.key("detectable_pct").opt_number(pct(d.map(|d| 100.0 * d.detectable)));
        j.key("marked");
        match m {
            Some(Mark::Differs(_)) => j.bool(true),
            Some(Mark::Same(_)) => j.bool(false),
            _ => j.null(),
        };
        j.key("disturbed");
        match cell {
            Some(x) => j.bool(x.disturbed),
            None => j.null(),
        };
        j.end_object();
    }
    j.end_array().end_object();
}

// ---- Scaling -------------------------------------------------------------------------------

/// The README's scaling table of one file: each test at 1 copy and at N copies, and the gain.
#[derive(Debug, Clone, PartialEq)]
pub struct Scaling {
    pub file: String,
    /// 1, then the other copy counts in file order.
    pub copies: Vec<usize>,
    pub rows: Vec<ScaleRow>,
    /// The kind of run (standard, quick, short, static image), as the two-file compare says it.
    pub run_kind: &'static str,
}

/// What a scaling row's values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// The test's index (10 × score / baseline), as in the README's table.
    Index,
    /// The raw score, for a test without a baseline.
    Score,
    /// A category's index score.
    IndexScore,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ScaleRow {
    pub name: String,
    pub kind: ValueKind,
    /// One per copy count; None where that run lacks the test.
    pub values: Vec<Option<f64>>,
    /// One per copy count: the run found the test (an index score: one of its tests) disturbed.
    pub disturbed: Vec<bool>,
}

/// Builds the scaling table of a file holding a 1-copy run and at least one N-copy run.
pub fn scaling(s: &Source) -> Result<Scaling, String> {
    let single = s.runs.iter().find(|r| r.copies == 1);
    let counts: Vec<usize> = s.runs.iter().map(|r| r.copies).collect();
    let Some(single) = single else {
        return Err(format!(
            "holds no 1-copy run to scale from (copies: {}); give a second file to compare with",
            list(&counts)
        ));
    };
    let mut runs = vec![single];
    for r in &s.runs {
        if r.copies != 1 {
            if runs.iter().any(|x| x.copies == r.copies) {
                return Err(format!("holds two {}-copy runs, which cannot be lined up", r.copies));
            }
            runs.push(r);
        }
    }
    if runs.len() < 2 {
        return Err("holds only a 1-copy run; give a second file to compare with, or a file with \
                    1-copy and N-copy runs"
            .into());
    }
    let table = rows_for(&runs);
    let rows = table
        .into_iter()
        .map(|r| {
            let tests: Vec<Option<&super::source::TestResult>> =
                runs.iter().map(|run| run.tests.iter().find(|t| t.message == r.name)).collect();
            let indexed = !r.index_score && tests.iter().all(|t| t.map_or(true, |t| t.index.is_some()));
            let (kind, values) = if r.index_score {
                (ValueKind::IndexScore, r.cells.iter().map(|c| c.map(|c| c.score)).collect())
            } else if indexed {
                (ValueKind::Index, tests.iter().map(|t| t.and_then(|t| t.index)).collect())
            } else {
                (ValueKind::Score, r.cells.iter().map(|c| c.map(|c| c.score)).collect())
            };
            let disturbed = r.cells.iter().map(|c| c.is_some_and(|c| c.disturbed)).collect();
            ScaleRow { name: r.name, kind, values, disturbed }
        })
        .collect();
    let copies = runs.iter().map(|r| r.copies).collect();
    Ok(Scaling { file: s.file.clone(), copies, rows, run_kind: s.run_kind().name() })
}

fn gain(base: Option<f64>, v: Option<f64>) -> Option<f64> {
    match (base, v) {
        (Some(b), Some(v)) if b != 0.0 => Some(100.0 * (v / b - 1.0)),
        _ => None,
    }
}

/// The scaling table as text, in the shape of the UnixBench README's.
pub fn scaling_text(s: &Scaling) -> String {
    let multi = &s.copies[1..];
    let mut o = format!(
        "Scaling of {} ({} run): 1 copy against {}\n\n",
        s.file,
        s.run_kind,
        multi.iter().map(|&n| copies_text(n)).collect::<Vec<_>>().join(", ")
    );
    let gain_head = |n: usize| if multi.len() == 1 { "Gain".to_string() } else { format!("Gain {n}") };
    // Each value's column has a place after it for `d`, where the run found it disturbed.
    let mut head = format!("{:<40} {:>10} ", "Test", "1 copy");
    let mut rule = format!("{} {}", "-".repeat(40), "-".repeat(11));
    for &n in multi {
        let _ = write!(head, " {:>10}  {:>8}", copies_text(n), gain_head(n));
        let _ = write!(rule, " {} {}", "-".repeat(11), "-".repeat(8));
    }
    let _ = writeln!(o, "{}\n{rule}", head.trim_end());
    let mut ruled = false;
    for r in &s.rows {
        if r.kind == ValueKind::IndexScore && !ruled {
            let _ = writeln!(o, "{rule}");
            ruled = true;
        }
        let d = |k: usize| if r.disturbed[k] { 'd' } else { ' ' };
        let mut line = format!("{:<40} {:>10}{}", r.name, figure(r.values[0]), d(0));
        for (k, v) in r.values.iter().enumerate().skip(1) {
            let g = gain(r.values[0], *v).map_or("---".to_string(), |g| percent(g, 0, 7));
            let _ = write!(line, " {:>10}{} {g:>8}", figure(*v), d(k));
        }
        let _ = writeln!(o, "{}", line.trim_end());
    }
    o.push_str("\nValues are test indexes (10 x score / baseline), as in the UnixBench README");
    if s.rows.iter().any(|r| r.kind == ValueKind::Score) {
        o.push_str("; tests without a baseline show their scores");
    }
    o.push_str(".\nGain: the N-copy value over the 1-copy value, less 100%.\n");
    if s.rows.iter().any(|r| r.disturbed.contains(&true)) {
        o.push_str("d: disturbed (steal, other processes, a stop or a CPU quota took its time): not fit to publish.\n");
    }
    o
}

fn kind_name(k: ValueKind) -> &'static str {
    match k {
        ValueKind::Index => "index",
        ValueKind::Score => "score",
        ValueKind::IndexScore => "index_score",
    }
}

/// The scaling table as TSV, or as Markdown: one line per row and copy count; the kind of run
/// and the disturbed mark come last, as compare's TSV has them.
pub fn scaling_tsv(s: &Scaling, readers: Readers) -> String {
    let mut o = Sink::new(readers, "test\tkind\tcopies\tvalue\tgain_pct\trun_kind\tdisturbed");
    for r in &s.rows {
        for (j, v) in r.values.iter().enumerate() {
            let g = if j == 0 { None } else { gain(r.values[0], *v) };
            o.cell(&readers.text(&r.name));
            o.cell(kind_name(r.kind));
            o.cell(&s.copies[j].to_string());
            o.cell(&readers.figure(*v));
            o.cell(&readers.pct(g));
            o.cell(s.run_kind);
            o.cell(yes_no(v.map(|_| r.disturbed[j])));
            o.end();
        }
    }
    o.finish()
}

/// The scaling table as JSON (compact).
pub fn scaling_json(s: &Scaling) -> String {
    let mut j = Writer::compact();
    j.begin_object();
    j.key("schema").string("unixbench-scaling");
    j.key("schema_version").int(1);
    j.key("file").string(&s.file);
    j.key("run_kind").string(s.run_kind);
    j.key("copies").begin_array();
    for n in &s.copies {
        j.int(*n as i64);
    }
    j.end_array();
    j.key("rows").begin_array();
    for r in &s.rows {
        j.begin_object();
        j.key("test").string(&r.name);
        j.key("kind").string(kind_name(r.kind));
        j.key("values").begin_array();
        for v in &r.values {
            j.opt_number(*v);
        }
        j.end_array();
        j.key("gain_pct").begin_array();
        for (k, v) in r.values.iter().enumerate() {
            j.opt_number(if k == 0 { None } else { pct(gain(r.values[0], *v)) });
        }
        j.end_array();
        j.key("disturbed").begin_array();
        for d in &r.disturbed {
            j.bool(*d);
        }
        j.end_array().end_object();
    }
    j.end_array().end_object();
    j.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 95% interval of the log scale is wider above its centre than below: where the two
    /// sides round alike it reads `+-`, else each side, never `+-` its upper side alone.
    #[test]
    fn an_interval_reads_as_its_two_sides() {
        let ci = |score: f64, half: f64| Interval::of(score, half / 1.96, f64::INFINITY);
        assert_eq!(sides(100.0, &ci(100.0, 0.02)), "+-2.0%");
        assert_eq!(sides(100.0, &ci(100.0, 1.05)), "-65.0/+185.8%");
        // Off its centre (a score of the passes' mean, an interval of their logs').
        let off = Interval::from_ends(78000000.0, 79000000.0, None).unwrap();
        assert_eq!(sides(78540503.4, &off), "-0.7/+0.6%");
        let above = Interval::from_ends(101.0, 110.0, None).unwrap();
        assert_eq!(sides(100.0, &above), "+1.0/+10.0%");
        assert_eq!(sides(100.0, &ci(100.0, 800.0)), ">1e308%");
    }

    /// Two index scores over different tests are not compared: no ratio, a mark of their own,
    /// and a verdict that says how many tests each covers.
    #[test]
    fn indexes_over_different_tests_are_not_compared() {
        let cell = |score: f64, tests: &[&str]| {
            Some(Cell {
                score,
                ci: Interval::from_ends(score * 0.99, score * 1.01, None),
                image: None,
                disturbed: false,
                covers: Covers::of(tests.iter().copied()),
            })
        };
        let (two, three) = (["Pipe Throughput", "Dhrystone"], ["Pipe Throughput", "Dhrystone", "Execl"]);
        let row = |b: Option<Cell>| Row {
            name: index_title(Category::System),
            index_score: true,
            cells: vec![cell(100.0, &two), b],
        };
        let t = Table { copies: 1, rows: vec![row(cell(50.0, &three))] };
        assert_eq!(mark(&t.rows[0].cells[0], &t.rows[0].cells[1]), Some(Mark::Tests));
        assert_eq!(vs_first(&t.rows[0].cells[0], &t.rows[0].cells[1]), "---!");
        let v = verdicts(&t);
        assert_eq!(
            v[0].text,
            "[2] against [1]: not comparable on the index: it covers 3 tests where [1]'s covers 2 tests"
        );
        // The same tests in another order are the same index.
        let same = Table { copies: 1, rows: vec![row(cell(50.0, &["Pipe Throughput", "Dhrystone"]))] };
        assert!(matches!(mark(&same.rows[0].cells[0], &same.rows[0].cells[1]), Some(Mark::Differs(_))));
        assert_ne!(Covers::of(["ab", "c"].into_iter()), Covers::of(["a", "bc"].into_iter()));
    }
}
