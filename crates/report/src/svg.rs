//! The pictures of the HTML pages (the report, `compare --format html`): inline SVG, no script,
//! no external file, so a page opens offline and prints. A chart is a list of groups (a test, or
//! an index score), each its own small `<svg>` with one bar per series (a copy count, or a file
//! at a copy count): the index as a bar, its 95% interval (`stats`) as a whisker, the value and
//! the gain over 1 copy beside it, and the disturbed ones marked. All groups of a chart share
//! one scale, since all are indexes against the same baseline. The SVGs scale by their viewBox;
//! the CSS lays them out in as many columns as the width holds, one on a phone.
//!
//! And the escaping both pages use.

use super::fmt;
use super::view::score_title;
use crate::model::{Run, TestResult};
use crate::stats::{self, Interval};
use std::fmt::Write as _;

/// Escapes text for element content and double-quoted attributes.
pub fn escape(s: &str) -> String {
    Esc(s).to_string()
}

/// Text as [`escape`] gives it, written straight into what is being formatted.
pub struct Esc<'a>(pub &'a str);

impl std::fmt::Display for Esc<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&#39;")?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
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

/// Groups drawn on labelled axes. `series` labels the bars of every group, each with its colour
/// (0: 1 copy, 1: more copies), and `legend` says what each colour stands for. With `shared`,
/// one axis for every group (one measure of several hosts); else each group has its own, since
/// the tests' indexes span two orders of magnitude and one axis would leave slivers.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Chart {
    pub series: Vec<(String, usize)>,
    pub legend: Vec<(usize, String)>,
    pub groups: Vec<Group>,
    pub shared: bool,
}

/// The gain of `v` over `base` in percent (the scaling table's column); None without both.
pub fn gain(base: Option<f64>, v: Option<f64>) -> Option<f64> {
    match (base, v) {
        (Some(b), Some(v)) if b != 0.0 => Some(100.0 * (v / b - 1.0)),
        _ => None,
    }
}

/// A gain as the charts print it, `+104%` or `-16%`; `±0%` for what rounds to nothing, never
/// `-0%`.
pub fn gain_text(g: f64) -> String {
    let r = g.round();
    if r == 0.0 {
        "\u{b1}0%".to_string()
    } else {
        format!("{r:+.0}%")
    }
}

/// The chart's style, and the page's at phone width and on paper (the tables' at phone width is
/// `html`'s).
pub const CSS: &str = "    .charts { display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; }
    .charts svg { flex: 0 1 25em; min-width: 0; height: auto; }
    .charts text { font: 13px sans-serif; }
    .charts .t { font-weight: bold; }
    .charts .l { text-anchor: end; }
    .charts .tick { font-size: 11px; text-anchor: middle; fill: #555; }
    .axis path { stroke: #777; } .axis .grid { stroke: #e2e2e2; }
    .c0 { fill: #9ecae1; } .c1 { fill: #3182bd; }
    .d { stroke: #e6550d; stroke-width: 3; stroke-dasharray: 4 2; }
    .ci { stroke: #000; stroke-width: 1.5; fill: none; }
    .legend span { display: inline-block; margin-right: 1.2em; }
    .legend svg { vertical-align: middle; margin-right: 0.3em; }
    @media (max-width: 40em) {
      body { margin: 0.5em; }
      h2 { font-size: 1.25em; }
    }
    @page { size: A4; margin: 15mm; }
    @media print {
      body { font-size: 10pt; }
      .charts svg { flex-basis: 48%; break-inside: avoid; }
      table, h4 { break-inside: avoid; }
    }
";

/// The viewBox's width, the x where bars start (their labels end left of it), the axis's
/// length, the x of the values' column, a series' row height.
const W: f64 = 400.0;
const X0: f64 = 100.0;
const LEN: f64 = 190.0;
const XV: f64 = X0 + LEN + 8.0;
const ROW: f64 = 18.0;

/// An axis from 0 to `end`, ticked every `step` (1, 2, 2.5 or 5 times a power of ten).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axis {
    pub end: f64,
    pub step: f64,
}

impl Axis {
    /// The axis of bars up to `max`, in two to four steps: its end is the first tick at or above
    /// `max`, so the longest bar is over half of it. Intervals play no part.
    pub fn to(max: f64) -> Axis {
        if !(max > 0.0 && max.is_finite()) {
            return Axis { end: 1.0, step: 0.25 };
        }
        let raw = max / 4.0;
        let mag = 10f64.powf(raw.log10().floor());
        let step =
            [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
        Axis { end: (max / step - 1e-9).ceil().max(1.0) * step, step }
    }

    fn x(&self, v: f64) -> f64 {
        X0 + (v.max(0.0) / self.end).min(1.0) * LEN
    }

    fn ticks(&self) -> Vec<f64> {
        let n = (self.end / self.step).round() as usize;
        (0..=n).map(|i| i as f64 * self.step).collect()
    }
}

/// A tick's label, short enough for its place: `2.5k`, `10M`, in the unit the axis's end calls
/// for.
pub fn tick_label(v: f64, end: f64) -> String {
    let (div, unit) = match end {
        e if e >= 1e9 => (1e9, "G"),
        e if e >= 1e6 => (1e6, "M"),
        e if e >= 1e4 => (1e3, "k"),
        _ => (1.0, ""),
    };
    if v == 0.0 {
        return "0".to_string();
    }
    let s = format!("{:.2}", v / div);
    format!("{}{unit}", s.trim_end_matches('0').trim_end_matches('.'))
}

/// The chart as its legend, a `<div>` of SVGs (one per group, each with its axis), and a note
/// on what the figures are. Empty for no groups.
pub fn render(c: &Chart) -> String {
    if c.groups.is_empty() {
        return String::new();
    }
    let longest = |g: &Group| g.bars.iter().flatten().map(|b| b.value).fold(0.0, f64::max);
    let page = Axis::to(c.groups.iter().map(longest).fold(0.0, f64::max));
    let (mut body, mut cut) = (String::from("<div class=\"charts\">\n"), false);
    for g in &c.groups {
        let axis = if c.shared { page } else { Axis::to(longest(g)) };
        cut |= g.bars.iter().flatten().any(|b| b.ci.is_some_and(|ci| ci.high > axis.end));
        group(&mut body, g, &c.series, axis);
    }
    body += "</div>\n";
    let disturbed = c.groups.iter().flat_map(|g| g.bars.iter().flatten()).any(|b| b.disturbed);
    let mut s = legend(c, disturbed, cut);
    s += &body;
    note(&mut s, c.shared);
    s
}

/// One group's `<svg>`: its title, its axis, a row per series.
fn group(s: &mut String, g: &Group, series: &[(String, usize)], axis: Axis) {
    let name = Esc(&g.name);
    // The word is in the title, where it has room; the bar is outlined in orange.
    let mark = if g.bars.iter().flatten().any(|b| b.disturbed) { " \u{2014} disturbed" } else { "" };
    let base = 20.0 + ROW * g.bars.len() as f64 + 2.0;
    let h = base + 18.0;
    let _ = writeln!(
        s,
        "<svg viewBox=\"0 0 {W} {h}\" role=\"img\" aria-label=\"{name}\"><text class=\"t\" x=\"0\" y=\"14\">{name}{mark}</text>"
    );
    axis_svg(s, axis, 20.0, base);
    for (i, (bar, (label, colour))) in g.bars.iter().zip(series).enumerate() {
        bar_svg(s, bar.as_ref(), label, *colour, 20.0 + ROW * i as f64, axis);
    }
    *s += "</svg>\n";
}

/// The axis along the bottom, its ticks labelled, and a faint line up from each tick.
fn axis_svg(s: &mut String, a: Axis, top: f64, y: f64) {
    *s += "<g class=\"axis\">";
    for v in a.ticks() {
        let x = a.x(v);
        let _ = write!(
            s,
            "<path class=\"grid\" d=\"M{x:.1} {top}V{y}\"/><path d=\"M{x:.1} {y}v4\"/><text class=\"tick\" x=\"{x:.1}\" y=\"{}\">{}</text>",
            y + 15.0,
            tick_label(v, a.end)
        );
    }
    let _ = writeln!(s, "<path class=\"line\" d=\"M{X0} {y}H{:.1}\"/></g>", X0 + LEN);
}

/// One series' row: its label, the bar, the whisker, and the value (with the gain) in the
/// column right of the axis, where no whisker reaches.
fn bar_svg(s: &mut String, bar: Option<&Bar>, label: &str, colour: usize, y: f64, a: Axis) {
    let _ = write!(
        s,
        "<g class=\"bar\"><text class=\"l\" x=\"{}\" y=\"{}\">{}</text>",
        X0 - 4.0,
        y + 11.0,
        Esc(label)
    );
    let Some(b) = bar else {
        let _ = writeln!(s, "<text x=\"{X0}\" y=\"{}\">not run</text></g>", y + 11.0);
        return;
    };
    // The copy count's colour stays; a disturbed bar is outlined besides.
    let outlined = if b.disturbed { " d" } else { "" };
    let _ = write!(
        s,
        "<rect class=\"c{colour}{outlined}\" x=\"{X0}\" y=\"{}\" width=\"{:.1}\" height=\"12\"/>",
        y + 1.0,
        a.x(b.value) - X0
    );
    if let Some(ci) = b.ci {
        whisker(s, ci, y + 7.0, a);
    }
    let _ = write!(s, "<text class=\"v\" x=\"{XV}\" y=\"{}\">{}", y + 11.0, fmt::f1(b.value));
    if let Some(g) = b.gain {
        let _ = write!(s, " {}", gain_text(g));
    }
    *s += "</text></g>\n";
}

/// The whisker of an interval, capped at both ends; an end beyond the axis is cut there and
/// marked with an arrowhead.
fn whisker(s: &mut String, ci: Interval, cy: f64, a: Axis) {
    let (lo, hi) = (a.x(ci.low), a.x(ci.high));
    let _ = write!(s, "<path class=\"ci\" d=\"M{lo:.1} {cy}H{hi:.1}M{lo:.1} {}v8", cy - 4.0);
    if ci.high > a.end {
        let _ = write!(s, "M{:.1} {}l5 4l-5 4", hi - 5.0, cy - 4.0);
    } else {
        let _ = write!(s, "M{hi:.1} {}v8", cy - 4.0);
    }
    *s += "\"/>";
}

/// Every mark of the chart and what it stands for: the colours of the series, the orange
/// outline of a disturbed test's bar, the whisker, and its arrowhead when one was cut.
fn legend(c: &Chart, disturbed: bool, cut: bool) -> String {
    let key = |s: &mut String, w: u32, shape: std::fmt::Arguments, text: &dyn std::fmt::Display| {
        let _ = writeln!(
            s,
            "<span><svg width=\"{w}\" height=\"12\" aria-hidden=\"true\">{shape}</svg>{text}</span>"
        );
    };
    let mut s = String::from("<p class=\"legend\">");
    for (colour, text) in &c.legend {
        key(&mut s, 12, format_args!("<rect class=\"c{colour}\" width=\"12\" height=\"12\"/>"), &Esc(text));
    }
    if disturbed {
        let outlined = format_args!("<rect class=\"c0 d\" x=\"1.5\" y=\"1.5\" width=\"9\" height=\"9\"/>");
        key(&mut s, 12, outlined, &"disturbed (outlined): other work took CPU from the test&#39;s copies");
    }
    key(&mut s, 24, format_args!("<path class=\"ci\" d=\"M2 6H22M2 2v8M22 2v8\"/>"), &"95% interval");
    if cut {
        let arrow = format_args!("<path class=\"ci\" d=\"M2 6H22M2 2v8M17 2l5 4l-5 4\"/>");
        key(&mut s, 24, arrow, &"interval beyond the axis");
    }
    s += "</p>\n";
    s
}

/// What the bars, axes, values and whiskers are.
fn note(s: &mut String, shared: bool) {
    let axes = if shared { "one axis for every chart" } else { "each chart on its own axis" };
    let _ = write!(
        s,
        "<p class=\"note\">Bars: the index (10 &times; score / baseline), {axes}, its value on the right; \
         +N%: the gain of N copies over 1 copy, as in the UnixBench README&#39;s scaling table. \
         Whiskers: the 95% interval of the passes&#39; scores (none from a single pass); they never set \
         the axis, and one that runs beyond it is cut at its end.</p>\n\n"
    );
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
    Chart { legend: legend_of(&series), series, groups, shared: false }
}

/// Each colour with the labels of the series drawn in it (`2 copies`, or `2 copies, 4 copies`).
fn legend_of(series: &[(String, usize)]) -> Vec<(usize, String)> {
    let mut legend = Vec::new();
    // The colours in order, each once: they are the few classes of the CSS (c0, c1), so
    // counting up to the highest finds them without a sort.
    for c in 0..=series.iter().map(|s| s.1).max().unwrap_or(0) {
        let mut labels = String::new();
        for (label, _) in series.iter().filter(|s| s.1 == c) {
            if !labels.is_empty() {
                labels += ", ";
            }
            labels += label;
        }
        if !labels.is_empty() {
            legend.push((c, labels));
        }
    }
    legend
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
                let (ci, disturbed) = (ci.map(|c| c.recentred(value)), disturbed(r));
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

    /// The charts of a section, without its legend.
    fn charts(s: &str) -> &str {
        let from = s.find("<div class=\"charts\">").expect("the charts");
        &s[from..from + s[from..].find("</div>").unwrap()]
    }

    #[test]
    fn a_bar_and_a_whisker_per_test_and_copy_count() {
        let run = fixture::reference();
        let s = section(&run, &|_| false);
        let c = charts(&s);
        // Twelve index tests and the index score, each at 1 and 2 copies; a whisker where a test
        // keeps three passes or more (Run's 10-pass tests: five of twelve) and on each index.
        assert_eq!(c.matches("<svg ").count(), 13, "{s}");
        assert_eq!(c.matches("<rect ").count(), 26);
        assert_eq!(c.matches("<path class=\"ci\"").count(), 12);
        assert_eq!(c.matches("<rect class=\"c0\"").count(), 13);
        assert_eq!(c.matches("<rect class=\"c1\"").count(), 13);
        assert_eq!(c.matches("</svg>").count(), 13);
        assert_eq!(c.matches("<g class=\"axis\">").count(), 13, "an axis each");
        assert!(!s.contains("class=\"d\"") && !s.contains("disturbed"));
        // Dhrystone: 6730.1 at 1 copy, 13711.4 at 2, a gain of 104%, as the scaling table has it,
        // on an axis to 15k: the longer bar is 13711.4 / 15000 of its 190 units.
        let dhry = c.split("<svg ").find(|g| g.contains(">Dhrystone 2 using register variables<")).unwrap();
        assert!(dhry.contains(">1 copy</text>") && dhry.contains(">2 copies</text>"), "{dhry}");
        assert!(dhry.contains(">6730.1</text>") && dhry.contains(">13711.4 +104%</text>"), "{dhry}");
        let ticks: Vec<&str> = dhry
            .split("<text class=\"tick\"")
            .skip(1)
            .map(|t| &t[t.find('>').unwrap() + 1..t.find('<').unwrap()])
            .collect();
        assert_eq!(ticks, ["0", "5k", "10k", "15k"], "{dhry}");
        assert!(dhry.contains("width=\"173.7\""), "{dhry}");
        let last = c.split("<svg ").last().unwrap();
        assert!(last
            .starts_with("viewBox=\"0 0 400 76\" role=\"img\" aria-label=\"System Benchmarks Index Score\""));
        assert!(last.contains(">1433.1</text>") && last.contains(">3209.6 +124%</text>"), "{last}");
        assert!(last.contains(">4000</text>"), "{last}");
        // The legend names both colours and the whisker.
        let legend = &s[..s.find("<div class=\"charts\">").unwrap()];
        assert!(
            legend.contains("<rect class=\"c0\" width=\"12\" height=\"12\"/></svg>1 copy</span>"),
            "{legend}"
        );
        assert!(
            legend.contains("<rect class=\"c1\" width=\"12\" height=\"12\"/></svg>2 copies</span>"),
            "{legend}"
        );
        assert!(legend.contains("95% interval") && !legend.contains("beyond the axis"), "{legend}");
    }

    #[test]
    fn the_disturbed_are_marked_with_their_index() {
        let run = fixture::reference();
        let s = section(&run, &|r| r.name == "pipe" && r.copies == 2);
        // The 2-copy colour kept, outlined: the test and its index score, and the legend's key.
        assert_eq!(s.matches("<rect class=\"c1 d\"").count(), 2, "the test, its index score");
        assert_eq!(s.matches("<rect class=\"c0 d\"").count(), 1, "the legend");
        assert_eq!(s.matches(" \u{2014} disturbed</text>").count(), 2);
        let pipe = s.split("<svg ").find(|g| g.contains(">Pipe Throughput \u{2014} disturbed<")).unwrap();
        assert!(pipe.contains("<rect class=\"c0\""), "1 copy is not marked: {pipe}");
        assert!(s.contains("</svg>disturbed (outlined): other work took CPU"), "in the legend");
    }

    #[test]
    fn no_whisker_without_an_interval_and_missing_bars_say_so() {
        let c = Chart {
            series: vec![("1 copy".into(), 0), ("<b>".into(), 1)],
            groups: vec![Group {
                name: "a & \"b\" <c>".into(),
                bars: vec![Some(Bar { value: 5.0, ci: None, gain: None, disturbed: false }), None],
            }],
            ..Chart::default()
        };
        let s = render(&c);
        let ch = charts(&s);
        assert_eq!((ch.matches("<rect ").count(), ch.matches("class=\"ci\"").count()), (1, 0), "{s}");
        assert!(s.contains(">not run</text>"));
        assert!(s.contains("aria-label=\"a &amp; &quot;b&quot; &lt;c&gt;\""), "{s}");
        assert!(s.contains(">a &amp; &quot;b&quot; &lt;c&gt;</text>") && s.contains(">&lt;b&gt;</text>"));
        assert!(!s.contains("<b>\"") && !s.contains("<c>"));
        assert_eq!(render(&Chart::default()), "");
    }

    fn bar(value: f64, ci: Option<Interval>) -> Option<Bar> {
        Some(Bar { value, ci, gain: None, disturbed: false })
    }

    #[test]
    fn a_wide_interval_is_cut_at_the_axis_and_marked_and_never_sets_it() {
        let c = Chart {
            series: vec![("1 copy".into(), 0)],
            groups: vec![
                Group {
                    name: "a".into(),
                    bars: vec![bar(100.0, Some(Interval::of(100.0, 3.0, f64::INFINITY)))],
                },
                Group { name: "b".into(), bars: vec![bar(150.0, None)] },
            ],
            ..Chart::default()
        };
        let s = render(&c);
        // Each on its own axis, which its bar ends: both bars are full length.
        assert_eq!(s.matches("width=\"190.0\"").count(), 2, "{s}");
        // a's whisker runs from 100 e^-3 to the axis's end (x = 100 + 190), an arrowhead there.
        assert!(s.contains("H290.0M") && s.contains("M285.0 23l5 4l-5 4"), "{s}");
        assert!(s.contains("interval beyond the axis"), "the arrowhead is in the legend: {s}");
        // The value stays in its column, whatever the whisker.
        assert!(s.contains("<text class=\"v\" x=\"298\" y=\"31\">100.0</text>"), "{s}");
        // On one shared axis, to 150: a's bar is two thirds of b's.
        let s = render(&Chart { shared: true, ..c });
        assert!(s.contains("width=\"126.7\"") && s.contains("width=\"190.0\""), "{s}");
    }

    #[test]
    fn axes_end_on_a_round_tick_past_the_longest_bar() {
        assert_eq!(Axis::to(13711.4), Axis { end: 15000.0, step: 5000.0 });
        assert_eq!(Axis::to(200.0), Axis { end: 200.0, step: 50.0 });
        assert_eq!(Axis::to(0.0), Axis { end: 1.0, step: 0.25 });
        // The longest bar is always over half the axis, in two to four steps.
        let mut v = 0.013;
        while v < 1e12 {
            let a = Axis::to(v);
            assert!(v <= a.end && v > a.end / 2.0, "{v}: {a:?}");
            assert!((2..=5).contains(&a.ticks().len()), "{v}: {a:?}");
            v *= 1.37;
        }
        let labels: Vec<String> = [0.0, 2500.0, 12500.0].iter().map(|&t| tick_label(t, 12500.0)).collect();
        assert_eq!(labels, ["0", "2.5k", "12.5k"]);
        assert_eq!(
            (tick_label(1.5e9, 2e9), tick_label(250.0, 1000.0), tick_label(0.25, 1.0)),
            ("1.5G".into(), "250".into(), "0.25".into())
        );
    }

    #[test]
    fn a_gain_that_rounds_to_nothing_has_no_sign() {
        assert_eq!(gain_text(-0.4), "\u{b1}0%");
        assert_eq!(gain_text(0.3), "\u{b1}0%");
        assert_eq!(gain_text(-16.2), "-16%");
        assert_eq!(gain_text(104.4), "+104%");
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
        assert_eq!(charts(&s).matches("<svg ").count(), 4, "two tests, two index scores: {s}");
        assert!(!s.contains("%</text>"), "{s}");
        assert!(s.contains("Non-Index Benchmarks Index Score (Partial Only)"));
        assert!(s.contains(">Grep a large file (system&#39;s grep)</text>"));
    }
}
