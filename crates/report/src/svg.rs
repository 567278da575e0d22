//! The pictures of the HTML pages (the report, `compare --format html`): inline SVG, no script,
//! no external file, so a page opens offline and prints. A chart is a list of groups (a test, or
//! an index score), each its own small `<svg>` with one bar per series (a copy count, or a file
//! at a copy count): the index as a bar, its 95% interval (`stats`) as a whisker, the value and
//! the gain over 1 copy beside it, and the disturbed ones marked. All groups of a chart share
//! one scale, since all are indexes against the same baseline. The SVGs scale by their viewBox;
//! the CSS lays them out in as many columns as the width holds, one on a phone.
//!
//! And what both pages share besides: the head with its style, and the escaping.

use super::fmt;
use super::view::score_title;
use crate::model::{Run, TestResult};
use crate::stats::{self, Interval};
use std::fmt::Write as _;

const STYLE: &str = "  <style type=\"text/css\">
    .kind.notstd {
      border: 3px solid #b00;
      padding: 0.4em 1em;
      margin: 1em 0;
    }
    .notstd {
      color: #b00;
    }
    table {
      margin: 1em 1em 1em 0;
      background: #f9f9f9;
      border: 1px #aaaaaa solid;
      border-collapse: collapse;
    }

    table th, table td {
      border: 1px #aaaaaa solid;
      padding: 0.2em;
    }

    table th {
      background: #f2f2f2;
      text-align: center;
    }
";

/// The document up to `<body>`: the title (escaped already), the tables' and charts' style.
pub fn head(title: &str) -> String {
    let mut s = String::from(
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"\n\"http://www.w3.org/TR/html4/loose.dtd\">\n<html>\n<head>\n  <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n  <meta name=\"keywords\" content=\"linux, benchmarks, benchmarking\">\n",
    );
    let _ = writeln!(s, "  <title>{title}</title>");
    s += "  <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    s += STYLE;
    s += CSS;
    s += "  </style>\n</head>\n<body>\n";
    s
}

/// Escapes text for element content and double-quoted attributes.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// One bar: a value with its interval, its gain over the 1-copy value, and whether the test was
/// disturbed while it ran.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bar {
    pub value: f64,
    pub ci: Option<Interval>,
    /// Percent, as the scaling table's: 100 × (N-copy value / 1-copy value − 1).
    pub gain: Option<f64>,
    pub disturbed: bool,
}

/// A test or an index score: one bar per series, None where that series lacks it.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub name: String,
    pub bars: Vec<Option<Bar>>,
}

/// Groups drawn to one scale; `series` labels the bars of every group, each with its colour
/// (0: 1 copy, 1: more copies).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Chart {
    pub series: Vec<(String, usize)>,
    pub groups: Vec<Group>,
}

/// The gain of `v` over `base` in percent (the scaling table's column); None without both.
pub fn gain(base: Option<f64>, v: Option<f64>) -> Option<f64> {
    match (base, v) {
        (Some(b), Some(v)) if b != 0.0 => Some(100.0 * (v / b - 1.0)),
        _ => None,
    }
}

/// The chart's style, and the page's at phone width and on paper.
pub const CSS: &str = "    .charts { display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; }
    .charts svg { flex: 0 1 25em; min-width: 0; height: auto; }
    .charts text { font: 13px sans-serif; }
    .charts .t { font-weight: bold; }
    .charts .l { text-anchor: end; }
    .c0 { fill: #9ecae1; } .c1 { fill: #3182bd; } .d { fill: #e6550d; }
    .ci { stroke: #000; stroke-width: 1.5; fill: none; }
    table.wide { display: block; overflow-x: auto; width: fit-content; max-width: 100%; }
    table.wide td { white-space: nowrap; }
    @media (max-width: 40em) {
      body { margin: 0.5em; }
      h2 { font-size: 1.25em; }
      table { font-size: 80%; margin-right: 0; display: block; overflow-x: auto; width: fit-content; max-width: 100%; }
    }
    @page { size: A4; margin: 15mm; }
    @media print {
      body { font-size: 10pt; }
      table.wide td { white-space: normal; }
      .charts svg { flex-basis: 48%; break-inside: avoid; }
      table, h4 { break-inside: avoid; }
    }
";

/// The viewBox's width, the x where bars start, their longest length, a series' row height.
const W: f64 = 400.0;
const X0: f64 = 104.0;
const LEN: f64 = 170.0;
const ROW: f64 = 18.0;

/// A whisker reaching past twice its bar's value does not stretch the scale; it runs off the
/// edge instead (two samples give t = 12.7, and such an interval would flatten every bar).
fn reach(b: &Bar) -> f64 {
    b.ci.map_or(b.value, |c| c.high.min(2.0 * b.value)).max(b.value)
}

/// The chart as a `<div>` of SVGs, one per group, then the legend. Empty for no groups.
pub fn render(c: &Chart) -> String {
    if c.groups.is_empty() {
        return String::new();
    }
    let mut bars = c.groups.iter().flat_map(|g| g.bars.iter().flatten());
    let top = bars.clone().map(reach).fold(0.0, f64::max);
    let x = |v: f64| X0 + if top > 0.0 { (v.max(0.0) / top).min(1.0) * LEN } else { 0.0 };
    let mut s = String::from("<div class=\"charts\">\n");
    for g in &c.groups {
        let name = escape(&g.name);
        // The word is in the title, where it has room; the bar is orange.
        let mark = if g.bars.iter().flatten().any(|b| b.disturbed) { " \u{2014} disturbed" } else { "" };
        let h = 22.0 + ROW * g.bars.len() as f64;
        let _ = writeln!(
            s,
            "<svg viewBox=\"0 0 {W} {h}\" role=\"img\" aria-label=\"{name}\"><text class=\"t\" x=\"0\" y=\"14\">{name}{mark}</text>"
        );
        for (i, (bar, (label, colour))) in g.bars.iter().zip(&c.series).enumerate() {
            let y = 20.0 + ROW * i as f64;
            let _ =
                write!(s, "<text class=\"l\" x=\"{}\" y=\"{}\">{}</text>", X0 - 4.0, y + 11.0, escape(label));
            let Some(b) = bar else {
                let _ = writeln!(s, "<text x=\"{X0}\" y=\"{}\">not run</text>", y + 11.0);
                continue;
            };
            let class = if b.disturbed { "d".to_string() } else { format!("c{colour}") };
            let _ = write!(
                s,
                "<rect class=\"{class}\" x=\"{X0}\" y=\"{}\" width=\"{:.1}\" height=\"12\"/>",
                y + 1.0,
                x(b.value) - X0
            );
            if let Some(ci) = b.ci {
                // A whisker cut at the edge has no cap there.
                let (lo, hi, cy) = (x(ci.low), x(ci.high), y + 7.0);
                let cap = if ci.high > top { String::new() } else { format!("M{hi:.1} {}v8", cy - 4.0) };
                let _ =
                    write!(s, "<path class=\"ci\" d=\"M{lo:.1} {cy}H{hi:.1}M{lo:.1} {}v8{cap}\"/>", cy - 4.0);
            }
            let mut v = fmt::f1(b.value);
            if let Some(g) = b.gain {
                let _ = write!(v, " {g:+.0}%");
            }
            let end = b.ci.map_or(b.value, |c| c.high.max(b.value));
            let _ = writeln!(s, "<text x=\"{:.1}\" y=\"{}\">{v}</text>", x(end) + 5.0, y + 11.0);
        }
        s += "</svg>\n";
    }
    s += "</div>\n<p class=\"note\">Bars: the index (10 &times; score / baseline) at each copy count; \
          whiskers: its 95% interval (none from a single sample; cut at the edge where it runs \
          beyond); +N%: the gain of N copies over 1 copy, as in the UnixBench README's scaling table.";
    if bars.any(|b| b.disturbed) {
        s += " <b>Disturbed</b> (orange): other work took CPU from the test's copies while it ran.";
    }
    s += "</p>\n\n";
    s
}

/// One figure to draw: the bar of series `series` in the group named `group`. Groups are
/// ordered by `key`, then by name.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub series: usize,
    pub key: usize,
    pub group: String,
    pub value: f64,
    pub ci: Option<Interval>,
    pub disturbed: bool,
}

/// The chart of `points`: a group per name, a bar per series, each with its gain over the
/// same group's bar in the series `base` names for it (the 1-copy run of the same file).
pub fn chart(series: Vec<(String, usize)>, base: &[Option<usize>], points: &[Point]) -> Chart {
    let mut names: Vec<(usize, &str)> = points.iter().map(|p| (p.key, p.group.as_str())).collect();
    names.sort();
    names.dedup();
    let find =
        |s: usize, n: (usize, &str)| points.iter().find(|p| p.series == s && (p.key, p.group.as_str()) == n);
    let groups = names
        .into_iter()
        .map(|n| Group {
            name: n.1.to_string(),
            bars: (0..series.len())
                .map(|s| {
                    let p = find(s, n)?;
                    let one = base.get(s).copied().flatten().and_then(|b| find(b, n));
                    Some(Bar {
                        value: p.value,
                        ci: p.ci,
                        gain: gain(one.map(|o| o.value), Some(p.value)),
                        disturbed: p.disturbed,
                    })
                })
                .collect(),
        })
        .collect();
    Chart { series, groups }
}

/// The report's chart: a group per test with an index (in category order, then the report's),
/// a bar per copy count, then a group per index score. `disturbed` says which results the noise
/// measurement marked.
pub fn of_run(run: &Run, disturbed: &dyn Fn(&TestResult) -> bool) -> Chart {
    let one = run.runs.iter().position(|cr| cr.copies == 1);
    let base: Vec<Option<usize>> = run.runs.iter().map(|cr| one.filter(|_| cr.copies != 1)).collect();
    let mut points = Vec::new();
    for (series, cr) in run.runs.iter().enumerate() {
        for b in &cr.index {
            let cat = b.category as usize;
            let mut tests = Vec::new();
            for row in &b.rows {
                let Some(r) = cr.results.iter().find(|r| r.message == row.message && r.ok()) else {
                    continue;
                };
                tests.push(r);
                let Some(value) = row.index else { continue };
                let ci = stats::of_result(r).and_then(|s| s.ci95);
                let group = row.message.clone();
                let (ci, disturbed) = (ci.map(|c| Interval::around(value, c.log_half)), disturbed(r));
                points.push(Point { series, key: cat, group, value, ci, disturbed });
            }
            let (ci, disturbed) = (stats::index_interval(b, &cr.results), tests.into_iter().any(disturbed));
            points.push(Point {
                series,
                key: 10 + cat,
                group: score_title(b),
                value: b.score,
                ci,
                disturbed,
            });
        }
    }
    let series = run.runs.iter().map(|cr| (copies_text(cr.copies), usize::from(cr.copies != 1))).collect();
    chart(series, &base, &points)
}

/// `1 copy`, `N copies`.
pub fn copies_text(n: usize) -> String {
    fmt::number(Some(n), "copy", "copies")
}

/// The report's section: a heading, the chart, the legend; empty when no test has an index.
pub fn section(run: &Run, disturbed: &dyn Fn(&TestResult) -> bool) -> String {
    let c = of_run(run, disturbed);
    if c.groups.is_empty() {
        return String::new();
    }
    format!("<h3>Index at each copy count</h3>\n{}", render(&c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn a_bar_and_a_whisker_per_test_and_copy_count() {
        let run = fixture::reference();
        let s = section(&run, &|_| false);
        // Twelve index tests and the index score, each at 1 and 2 copies.
        assert_eq!(s.matches("<svg ").count(), 13, "{s}");
        assert_eq!(s.matches("<rect ").count(), 26);
        assert_eq!(s.matches("<path class=\"ci\"").count(), 26);
        assert_eq!(s.matches("<rect class=\"c0\"").count(), 13);
        assert_eq!(s.matches("<rect class=\"c1\"").count(), 13);
        assert_eq!(s.matches("</svg>").count(), 13);
        assert!(!s.contains("class=\"d\"") && !s.contains("Disturbed"));
        // Dhrystone: 6730.1 at 1 copy, 13711.4 at 2, a gain of 104%, as the scaling table has it.
        let dhry = s.split("<svg ").find(|g| g.contains(">Dhrystone 2 using register variables<")).unwrap();
        assert!(dhry.contains(">1 copy</text>") && dhry.contains(">2 copies</text>"), "{dhry}");
        assert!(dhry.contains(">6730.1</text>") && dhry.contains(">13711.4 +104%</text>"), "{dhry}");
        let last = s.split("<svg ").last().unwrap();
        assert!(last
            .starts_with("viewBox=\"0 0 400 58\" role=\"img\" aria-label=\"System Benchmarks Index Score\""));
        assert!(last.contains(">1433.1</text>") && last.contains(">3209.6 +124%</text>"), "{last}");
        // The longest bar is the largest reach: Dhrystone's 2-copy bar or a whisker's end.
        assert!(s.contains("width=\"170.0\"") || s.contains("H274.0"), "{s}");
    }

    #[test]
    fn the_disturbed_are_marked_with_their_index() {
        let run = fixture::reference();
        let s = section(&run, &|r| r.name == "pipe" && r.copies == 2);
        assert_eq!(s.matches("<rect class=\"d\"").count(), 2, "the test and its index score");
        assert_eq!(s.matches(" \u{2014} disturbed</text>").count(), 2);
        let pipe = s.split("<svg ").find(|g| g.contains(">Pipe Throughput \u{2014} disturbed<")).unwrap();
        assert!(pipe.contains("<rect class=\"c0\""), "1 copy is not marked: {pipe}");
        assert!(s.contains("<b>Disturbed</b> (orange)"));
    }

    #[test]
    fn no_whisker_without_an_interval_and_missing_bars_say_so() {
        let c = Chart {
            series: vec![("1 copy".into(), 0), ("<b>".into(), 1)],
            groups: vec![Group {
                name: "a & \"b\" <c>".into(),
                bars: vec![Some(Bar { value: 5.0, ci: None, gain: None, disturbed: false }), None],
            }],
        };
        let s = render(&c);
        assert_eq!((s.matches("<rect ").count(), s.matches("class=\"ci\"").count()), (1, 0), "{s}");
        assert!(s.contains(">not run</text>"));
        assert!(s.contains("aria-label=\"a &amp; &quot;b&quot; &lt;c&gt;\""), "{s}");
        assert!(s.contains(">a &amp; &quot;b&quot; &lt;c&gt;</text>") && s.contains(">&lt;b&gt;</text>"));
        assert!(!s.contains("<b>\"") && !s.contains("<c>"));
        assert_eq!(render(&Chart::default()), "");
    }

    #[test]
    fn a_wide_interval_runs_off_the_edge_without_stretching_the_scale() {
        let bar = |value: f64, ci: Option<Interval>| Some(Bar { value, ci, gain: None, disturbed: false });
        let c = Chart {
            series: vec![("1 copy".into(), 0)],
            groups: vec![
                Group { name: "a".into(), bars: vec![bar(100.0, Some(Interval::around(100.0, 3.0)))] },
                Group { name: "b".into(), bars: vec![bar(150.0, None)] },
            ],
        };
        let s = render(&c);
        // The scale ends at 200 (twice a's value): a's bar is half the length, b's three quarters.
        assert!(s.contains("width=\"85.0\"") && s.contains("width=\"127.5\""), "{s}");
        // a's whisker is cut at the edge (x = 104 + 170) and has no cap there.
        assert!(s.contains("H274.0M"), "{s}");
        assert!(!s.contains("M274.0 "), "{s}");
    }

    #[test]
    fn a_run_without_an_index_has_no_chart() {
        let mut run = fixture::troubled();
        for cr in &mut run.runs {
            cr.index.clear();
        }
        assert_eq!(section(&run, &|_| false), "");
        // The troubled run: Dhrystone and grep have indexes (one copy count: no gain).
        let s = section(&fixture::troubled(), &|_| false);
        assert_eq!(s.matches("<svg ").count(), 4, "two tests, two index scores: {s}");
        assert!(!s.contains("%</text>"), "{s}");
        assert!(s.contains("Non-Index Benchmarks Index Score (Partial Only)"));
        assert!(s.contains(">Grep a large file (system&#39;s grep)</text>"));
    }
}
