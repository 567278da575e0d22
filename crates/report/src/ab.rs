//! `unixbench ab`'s outputs: two arms measured in the same rounds ([`AbRun`]), B over A on
//! each test and index with its paired interval (`scoring::paired`). First a line per copy
//! count in words, then a table; the same rows as TSV, CSV, Markdown, JSON (with each arm as a
//! whole results document, so `compare` reads either) and HTML (with a chart of each ratio
//! and its interval against a line at 1). Every output says what each arm changed.

use crate::model::Run;
use crate::svg::{copies_text, Esc};
use crate::{fmt, Format};
use base::json::Writer;
use scoring::paired::{self, Paired, Row};
use std::fmt::Write as _;

/// One arm: its label, what it changes (none: this binary as it is), what it measured.
#[derive(Debug, Clone, Default)]
pub struct Arm {
    pub name: String,
    /// Each change in words, e.g. `runs under: taskset -c 1`.
    pub changes: Vec<String>,
    pub run: Run,
}

/// A whole `ab` run.
#[derive(Debug, Clone, Default)]
pub struct AbRun {
    pub arms: [Arm; 2],
    /// The rounds' orders' seed (`--seed` repeats them).
    pub seed: u64,
    /// The precision the rounds aimed at (0.01 for ±1%).
    pub precision: f64,
    /// A signal stopped the rounds: the report holds the rounds that finished.
    pub interrupted: bool,
}

/// The rows of each copy count both arms ran.
pub fn copy_rows(ab: &AbRun) -> Vec<(usize, Vec<Row>)> {
    let [a, b] = &ab.arms;
    let mut rows = Vec::new();
    for ca in &a.run.runs {
        if let Some(cb) = b.run.runs.iter().find(|c| c.copies == ca.copies) {
            rows.push((ca.copies, paired::rows(ca, cb)));
        }
    }
    rows
}

/// `ab` as a document of `format`.
pub fn render(format: Format, ab: &AbRun) -> String {
    match format {
        Format::Text => text(ab),
        Format::Tsv => separated(ab, '\t'),
        Format::Csv => separated(ab, ','),
        Format::Markdown => markdown(ab),
        Format::Json => json(ab),
        Format::Html => html(ab),
    }
}

/// The arms, the verdicts and the notes as paragraphs, then the rows as a table.
fn markdown(ab: &AbRun) -> String {
    let mut s = String::new();
    let mut lines = arms_lines(ab);
    lines.extend(verdicts(ab));
    lines.extend(notes(ab));
    for l in lines {
        let _ = writeln!(s, "{}  ", crate::markdown::escaped(&l));
    }
    s.push('\n');
    s + &crate::markdown::table(&separated(ab, '\t'))
}

/// A percent of a ratio's distance from 1, `9.8`.
fn pct(x: f64) -> String {
    format!("{:.1}", x * 100.0)
}

/// The verdict on one figure in words, as hyperfine's summary says it: `B is 9.8% slower than
/// A on the index (95%: 8.9% to 10.7%), 8 rounds`, or `no difference shown between B and A on
/// the index: within +-2.1% (8 rounds)`.
pub fn verdict(ab: &AbRun, what: &str, p: &Paired) -> String {
    let (a, b) = (&ab.arms[0].name, &ab.arms[1].name);
    let rounds = fmt::number(Some(p.rounds), "round", "rounds");
    if !p.marked {
        let within = (p.high - 1.0).max(1.0 - p.low);
        return format!(
            "no difference shown between {b} and {a} on {what}: within +-{}% ({rounds})",
            pct(within)
        );
    }
    let (word, d, near, far) = if p.ratio < 1.0 {
        ("slower", 1.0 - p.ratio, 1.0 - p.high, 1.0 - p.low)
    } else {
        ("faster", p.ratio - 1.0, p.low - 1.0, p.high - 1.0)
    };
    format!("{b} is {}% {word} than {a} on {what} (95%: {}% to {}%), {rounds}", pct(d), pct(near), pct(far))
}

/// One line per copy count on its index (or, with no index ratio, why, and how many tests
/// differ).
pub fn verdicts(ab: &AbRun) -> Vec<String> {
    let mut v = Vec::new();
    for (copies, rows) in copy_rows(ab) {
        let head = copies_text(copies);
        let index =
            rows.iter().find(|r| r.is_index && r.name == "system").or(rows.iter().find(|r| r.is_index));
        match index.and_then(|r| Some((r, r.paired?))) {
            Some((r, p)) => {
                let partial = if r.message.ends_with("(Partial Only)") { "partial " } else { "" };
                let what = match r.name.as_str() {
                    "system" => format!("the {partial}index"),
                    other => format!("the {partial}{other} index"),
                };
                v.push(format!("{head}: {}", verdict(ab, &what, &p)));
            }
            None => {
                let tests = rows.iter().filter(|r| !r.is_index && r.paired.is_some());
                let marked = tests.clone().filter(|r| r.paired.is_some_and(|p| p.marked)).count();
                let why = match index {
                    None => "no index test ran in both arms".to_string(),
                    Some(r) => {
                        r.a_why.clone().unwrap_or_else(|| "fewer than two rounds paired its tests".into())
                    }
                };
                v.push(format!(
                    "{head}: no index ratio ({why}); {} differs from {} on {marked} of {} tests",
                    label(ab, 1),
                    label(ab, 0),
                    tests.count()
                ));
            }
        }
    }
    if ab.interrupted {
        v.push("interrupted: these are the rounds that finished".to_string());
    }
    v
}

/// Arm `k` as a sentence names it: `B`, or `B (nice -n 5)`.
pub fn label(ab: &AbRun, k: usize) -> String {
    let key = ["A", "B"][k];
    let name = &ab.arms[k].name;
    if name == key {
        key.to_string()
    } else {
        format!("{key} ({name})")
    }
}

/// What else a reader must know of the rows: why a figure is missing, which pairs were
/// measured again or stayed disturbed.
pub fn notes(ab: &AbRun) -> Vec<String> {
    let mut v = Vec::new();
    for (copies, rows) in copy_rows(ab) {
        for r in &rows {
            let whys = [&r.a_why, &r.b_why];
            if r.is_index {
                if let Some(w) = &r.a_why {
                    v.push(format!("{}, {}: {w}", r.name, copies_text(copies)));
                }
                continue;
            }
            for (k, why) in whys.iter().enumerate() {
                if let Some(w) = why {
                    v.push(format!("{} in {}, {}: {w}", r.name, label(ab, k), copies_text(copies)));
                }
            }
        }
    }
    let again: usize = ab.arms[0].run.runs.iter().flat_map(|c| &c.results).map(|r| r.replaced.len()).sum();
    let busy = disturbed_pairs(ab);
    if again > 0 || busy > 0 {
        v.push(format!(
            "{again} pair{} measured again, a pass disturbed (steal, other processes); {busy} pair{} kept \
             still disturbed{}",
            if again == 1 { " was" } else { "s were" },
            if busy == 1 { " was" } else { "s were" },
            if busy > 0 { ": other work shared the host; stop it for a sharper answer" } else { "" }
        ));
    }
    v
}

/// The rounds of either arm whose kept pass was disturbed by steal or other processes.
fn disturbed_pairs(ab: &AbRun) -> usize {
    let mut n = 0;
    let [a, b] = &ab.arms;
    for (ca, cb) in a.run.runs.iter().zip(&b.run.runs) {
        for ra in &ca.results {
            let rb = cb.results.iter().find(|r| r.name == ra.name);
            let busy = |r: &crate::model::TestResult, round: usize| {
                r.passes.iter().filter(|p| p.round == Some(round)).any(|p| {
                    matches!(
                        r.pass_disturbance(p),
                        Some(crate::model::Disturbance::Steal | crate::model::Disturbance::Others)
                    )
                })
            };
            for k in ra.passes.iter().filter_map(|p| p.round) {
                n += usize::from(busy(ra, k) || rb.is_some_and(|rb| busy(rb, k)));
            }
        }
    }
    n
}

/// What each arm is, one line each: `A: this binary as it is`, `B (nice): runs under: nice -n 5`.
pub fn arms_lines(ab: &AbRun) -> Vec<String> {
    ab.arms
        .iter()
        .enumerate()
        .map(|(k, arm)| {
            let label = label(ab, k);
            let what = if arm.changes.is_empty() {
                "this binary as it is".to_string()
            } else {
                arm.changes.join("; ")
            };
            format!("{label}: {what}")
        })
        .collect()
}

/// The interval as the table prints it, `0.891-0.907`.
fn interval(p: Option<Paired>) -> String {
    p.map_or_else(|| "-".into(), |p| format!("{:.3}-{:.3}", p.low, p.high))
}

fn figure(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), fmt::f1)
}

/// The text report: the arms, the verdicts, then per copy count the table (each test by its
/// name, within 80 columns), then the notes.
pub fn text(ab: &AbRun) -> String {
    let mut s = String::from("unixbench ab: B over A, measured in the same rounds\n");
    for l in arms_lines(ab) {
        let _ = writeln!(s, "  {l}");
    }
    s.push('\n');
    for l in verdicts(ab) {
        s += &fmt::wrapped(&l, 80, "", "  ");
    }
    let (na, nb) = (&ab.arms[0].name, &ab.arms[1].name);
    let mut marked = false;
    for (copies, rows) in copy_rows(ab) {
        let _ = write!(
            s,
            "\n{:<18}{:>12} {:>12}{:>7}  {:<12} {:>6} {:>6}\n",
            copies_text(copies),
            cut(na, 12),
            cut(nb, 12),
            "B/A",
            "95% interval",
            "seen",
            "rounds"
        );
        for r in &rows {
            let p = r.paired;
            let mark = if p.is_some_and(|p| p.marked) { "*" } else { "" };
            marked |= !mark.is_empty();
            let name = match (r.is_index, r.message.ends_with("(Partial Only)")) {
                (true, true) => format!("{} (partial)", index_name(r)),
                (true, false) => index_name(r),
                _ => r.name.clone(),
            };
            let _ = writeln!(
                s,
                "{:<18}{:>12} {:>12}{:>6}{mark:1}  {:<12} {:>6} {:>6}",
                cut(&name, 17),
                figure(r.a),
                figure(r.b),
                p.map_or_else(|| "-".into(), |p| format!("{:.3}", p.ratio)),
                interval(p),
                p.map_or_else(|| "-".into(), |p| format!("{}%", pct(p.detectable))),
                p.map_or(0, |p| p.rounds)
            );
        }
    }
    s.push('\n');
    for n in notes(ab) {
        s += &fmt::wrapped(&n, 80, "** ", "   ");
    }
    let mark = if marked { "* the ratio's 95% interval excludes 1. " } else { "" };
    let key = format!(
        "{mark}seen: the smallest difference these rounds would show 80% of the time. A and B ran \
         side by side in each round, so the host's wander between rounds cancels in B/A; each arm's \
         figure is over the rounds paired."
    );
    s + &fmt::wrapped(&key, 80, "", "")
}

/// An index row's name in the text table: `index`, `index 2d`.
fn index_name(r: &Row) -> String {
    if r.name == "system" {
        "index".into()
    } else {
        format!("index {}", r.name)
    }
}

/// A name cut to `n` characters for a column.
fn cut(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 3).collect::<String>() + "..."
    }
}

/// The TSV's and CSV's columns.
pub const COLUMNS: [&str; 15] = [
    "copies",
    "test",
    "title",
    "a",
    "b",
    "ratio",
    "ratio_ci95_low",
    "ratio_ci95_high",
    "marked",
    "detectable_pct",
    "rounds",
    "a_arm",
    "b_arm",
    "interrupted",
    "note",
];

/// A row's test column: the test's name, `index:<category key>` for an index (as the report's
/// TSV names its index lines).
fn test_key(r: &Row) -> String {
    if r.is_index {
        format!("index:{}", r.name)
    } else {
        r.name.clone()
    }
}

/// The header and a line per row, fields separated by `sep` (a field holding it, or a quote,
/// quoted as CSV quotes; tabs and line breaks in a TSV field become spaces).
pub fn separated(ab: &AbRun, sep: char) -> String {
    let field = |v: String| -> String {
        if sep == '\t' {
            v.chars().map(|c| if matches!(c, '\t' | '\n' | '\r') { ' ' } else { c }).collect()
        } else if v.contains([sep, '"', '\n', '\r']) {
            format!("\"{}\"", v.replace('"', "\"\""))
        } else {
            v
        }
    };
    let num = |v: Option<f64>, f: fn(f64) -> String| v.map_or_else(|| "-".to_string(), f);
    let arms = arms_lines(ab);
    let mut s = COLUMNS.join(&sep.to_string());
    s.push('\n');
    for (copies, rows) in copy_rows(ab) {
        for r in rows {
            let p = r.paired;
            let cells = [
                copies.to_string(),
                field(test_key(&r)),
                field(r.message.clone()),
                num(r.a, fmt::f1),
                num(r.b, fmt::f1),
                num(p.map(|p| p.ratio), |x| format!("{x:.4}")),
                num(p.map(|p| p.low), |x| format!("{x:.4}")),
                num(p.map(|p| p.high), |x| format!("{x:.4}")),
                p.map_or("-", |p| if p.marked { "yes" } else { "no" }).to_string(),
                num(p.map(|p| p.detectable), pct),
                p.map_or(0, |p| p.rounds).to_string(),
                field(arms[0].clone()),
                field(arms[1].clone()),
                (if ab.interrupted { "yes" } else { "no" }).to_string(),
                field(row_note(&r).unwrap_or_else(|| "-".into())),
            ];
            s += &cells.join(&sep.to_string());
            s.push('\n');
        }
    }
    s
}

/// Why a row lacks a figure, in one cell: `B: skipped: ...`.
fn row_note(r: &Row) -> Option<String> {
    if r.is_index {
        return r.a_why.clone();
    }
    let mut note = String::new();
    for (k, w) in [("A", &r.a_why), ("B", &r.b_why)] {
        if let Some(w) = w {
            let sep = if note.is_empty() { "" } else { "; " };
            let _ = write!(note, "{sep}{k}: {w}");
        }
    }
    (!note.is_empty()).then_some(note)
}

/// The JSON: the arms (each with its whole results document), the paired rows, the verdicts.
pub fn json(ab: &AbRun) -> String {
    let mut j = Writer::pretty();
    j.begin_object();
    j.key("schema").string("unixbench-ab");
    j.key("schema_version").int(1);
    j.key("seed").int(ab.seed as i64);
    j.key("precision_pct").number(ab.precision * 100.0);
    j.key("interrupted").bool(ab.interrupted);
    j.key("verdicts").begin_array();
    for v in verdicts(ab) {
        j.string(&v);
    }
    j.end_array();
    j.key("notes").begin_array();
    for n in notes(ab) {
        j.string(&n);
    }
    j.end_array();
    j.key("arms").begin_array();
    for (key, arm) in ["A", "B"].iter().zip(&ab.arms) {
        j.begin_object().key("arm").string(key).key("name").string(&arm.name);
        j.key("changes").begin_array();
        for c in &arm.changes {
            j.string(c);
        }
        j.end_array();
        j.key("run");
        crate::json::write(&mut j, &arm.run);
        j.end_object();
    }
    j.end_array();
    j.key("paired").begin_array();
    for (copies, rows) in copy_rows(ab) {
        for r in rows {
            let p = r.paired;
            j.begin_object().key("copies").int(copies as i64).key("test").string(&test_key(&r));
            j.key("title").string(&r.message).key("a").opt_number(r.a).key("b").opt_number(r.b);
            j.key("ratio").opt_number(p.map(|p| p.ratio));
            j.key("ratio_ci95_low").opt_number(p.map(|p| p.low));
            j.key("ratio_ci95_high").opt_number(p.map(|p| p.high));
            match p {
                Some(p) => j.key("marked").bool(p.marked),
                None => j.key("marked").null(),
            };
            j.key("detectable_pct").opt_number(p.map(|p| p.detectable * 100.0));
            j.key("rounds").int(p.map_or(0, |p| p.rounds) as i64);
            j.key("note").opt_string(row_note(&r).as_deref());
            j.end_object();
        }
    }
    j.end_array();
    j.end_object();
    j.finish()
}

/// The page: the arms, the verdicts, per copy count a chart of the ratios and the table.
pub fn html(ab: &AbRun) -> String {
    let mut s = crate::page::head("unixbench ab");
    s += "<h2>unixbench ab: B over A, measured in the same rounds</h2>\n<ul>\n";
    for l in arms_lines(ab) {
        let _ = writeln!(s, "<li>{}</li>", Esc(&l));
    }
    s += "</ul>\n<div class=\"verdict\">\n";
    for l in verdicts(ab) {
        let _ = writeln!(s, "<p>{}</p>", Esc(&l));
    }
    s += "</div>\n";
    let heads: [(&str, bool); 7] = [
        ("Test", false),
        ("A", true),
        ("B", true),
        ("B/A", true),
        ("95% interval", true),
        ("Smallest seen", true),
        ("Rounds", true),
    ];
    for (copies, rows) in copy_rows(ab) {
        let _ = writeln!(s, "<h3>{}</h3>", copies_text(copies));
        s += &chart(&rows);
        s += "<table class=\"stack\">\n";
        crate::page::head_row(&mut s, &heads);
        for r in &rows {
            let p = r.paired;
            let (b, b_end) = if r.is_index { ("<b>", "</b>") } else { ("", "") };
            let cells = [
                format!("{b}{}{b_end}", Esc(&r.message)),
                figure(r.a),
                figure(r.b),
                p.map_or_else(
                    || "-".into(),
                    |p| format!("{:.3}{}", p.ratio, if p.marked { " *" } else { "" }),
                ),
                interval(p),
                p.map_or_else(|| "-".into(), |p| format!("{}%", pct(p.detectable))),
                p.map_or(0, |p| p.rounds).to_string(),
            ];
            s += "<tr>\n";
            for (c, (h, right)) in cells.iter().zip(heads) {
                crate::page::cell(&mut s, h, right, c);
            }
            s += "</tr>\n";
        }
        s += "</table>\n";
    }
    for n in notes(ab) {
        let _ = writeln!(s, "<p>{}</p>", Esc(&n));
    }
    s += "<p>* the ratio's 95% interval excludes 1. Smallest seen: the smallest difference these \
          rounds would show 80% of the time. Each arm's figure is over the rounds paired.</p>\n";
    s += &crate::html::footer();
    s
}

/// Each row's ratio as a dot, its interval as a bar, against a line at 1.
fn chart(rows: &[Row]) -> String {
    let mut shown: Vec<(&Row, Paired)> = Vec::new();
    for r in rows {
        if let Some(p) = r.paired {
            shown.push((r, p));
        }
    }
    if shown.is_empty() {
        return String::new();
    }
    let lo = shown.iter().map(|(_, p)| p.low).fold(1.0, f64::min);
    let hi = shown.iter().map(|(_, p)| p.high).fold(1.0, f64::max);
    let pad = ((hi - lo) * 0.08).max(0.005);
    let (lo, hi) = (lo - pad, hi + pad);
    let (left, width, row_h) = (300.0, 360.0, 18.0);
    let x = |v: f64| left + (v - lo) / (hi - lo) * width;
    let height = row_h * shown.len() as f64 + 30.0;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100%\" viewBox=\"0 0 {} {height}\" role=\"img\" \
         aria-label=\"B over A, each with its 95% interval\">\n",
        left + width + 20.0
    );
    let one = x(1.0);
    let _ = writeln!(s, "<line x1=\"{one:.1}\" y1=\"0\" x2=\"{one:.1}\" y2=\"{:.1}\" stroke=\"#777\" stroke-dasharray=\"4 3\"/>", height - 24.0);
    let _ = writeln!(
        s,
        "<text x=\"{one:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"middle\">1 (no difference)</text>",
        height - 8.0
    );
    for (i, (r, p)) in shown.iter().enumerate() {
        let y = row_h * i as f64 + row_h / 2.0 + 2.0;
        let colour = if p.marked { "#b00" } else { "#357" };
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\"{}>{}</text>",
            left - 8.0,
            y + 4.0,
            if r.is_index { " font-weight=\"bold\"" } else { "" },
            Esc(&cut(&r.message, 44))
        );
        let _ = writeln!(s, "<line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{colour}\" stroke-width=\"3\"/>", x(p.low), x(p.high));
        let _ = writeln!(s, "<circle cx=\"{:.1}\" cy=\"{y:.1}\" r=\"4\" fill=\"{colour}\"><title>{:.3} ({:.3}-{:.3})</title></circle>", x(p.ratio), p.ratio, p.low, p.high);
    }
    s += "</svg>\n";
    s
}
