//! `compare --format html`: one page for several files (hosts or runs). Each file has one label,
//! `[k]` by its place on the command line (as the text comparison numbers files), used in the
//! table, the charts and the key alike. A table of the files sorted by System Benchmarks Index
//! Score, each with its host and kind of run (a column per entry of [`COLUMNS`]), then the
//! report's chart (`report::svg`) with a bar per file and copy count, each test on its own axis;
//! for more files than a chart can hold, or with `--hosts`, a chart of each host's index score
//! instead, all on one axis.

use super::fleet::{self, Row};
use super::source::{FileKind, Source, TestResult};
use crate::fmt::number;
use crate::model::Category;
use report::page::{cell, head, head_row};
use report::svg::{self, escape, Chart, Point};
use std::fmt::Write as _;

/// The most files whose bars a per-test chart holds (two copy counts each).
pub const MAX_CHART_FILES: usize = 8;

/// The page. `disturbed` says which tests the noise measurement marked.
pub fn page(sources: &[Source], hosts: bool, disturbed: &dyn Fn(&TestResult) -> bool) -> String {
    let title = format!("unixbench compare: {}", number(Some(sources.len()), "file", "files"));
    let mut s = head(&escape(&title));
    let _ = writeln!(s, "<h2>{}</h2>", escape(&title));
    if let Some(w) = super::source::kinds_warning(sources) {
        let _ = writeln!(s, "<p class=\"note\"><b>Warning:</b> {}.</p>", escape(&w));
    }
    s += &table(sources);
    s += &against_first(sources);
    let per_test = !hosts && sources.len() <= MAX_CHART_FILES;
    if per_test {
        s += "<h3>Index at each copy count</h3>\n";
        s += &files_key(sources);
        s += &svg::render(&per_test_chart(sources, disturbed));
    } else {
        if !hosts {
            let _ = writeln!(
                s,
                "<p class=\"note\">Per-test charts are drawn for up to {MAX_CHART_FILES} files; these are {}.</p>",
                sources.len()
            );
        }
        s += "<h3>System Benchmarks Index Score per host</h3>\n";
        s += &svg::render(&hosts_chart(sources));
    }
    s += "</body>\n</html>\n";
    s
}

/// The label of the file at `i` (0-based) on the command line.
fn key(i: usize) -> String {
    format!("[{}]", i + 1)
}

/// A column of the files' table: its head, whether it is right-aligned, and its cell for a
/// file's row (None: unknown, shown `---`). Adding a column is adding an entry.
struct Column {
    head: &'static str,
    right: bool,
    cell: fn(&Row, usize) -> Option<String>,
}

const COLUMNS: &[Column] = &[
    Column { head: "file", right: false, cell: |_, k| Some(key(k)) },
    Column { head: "host", right: false, cell: |r, _| Some(r.src.host.name.clone()) },
    Column { head: "run", right: false, cell: |r, _| Some(r.src.run_kind().name().to_string()) },
    Column { head: "1 copy", right: true, cell: |r, _| r.one.map(|v| format!("{v:.1}")) },
    Column { head: "N copies", right: true, cell: |r, _| r.many.map(|(n, v)| format!("{v:.1} ({n})")) },
    Column { head: "machine", right: false, cell: |r, _| Some(r.src.host.machine.clone()) },
    Column { head: "CPUs", right: true, cell: |r, _| r.src.host.cpus.map(|n| n.to_string()) },
    // The system block's `OS: name -- release -- version`: the release is the kernel's.
    Column { head: "kernel", right: false, cell: |r, _| Some(r.src.host.os_release.clone()) },
    Column { head: "CPU", right: false, cell: |r, _| Some(r.src.host.cpu.clone()) },
    Column { head: "date", right: false, cell: |r, _| Some(r.src.date.clone()) },
    Column {
        head: "version",
        right: false,
        cell: |r, _| Some(format!("{} ({})", r.src.version, format_of(r.src))),
    },
    Column { head: "path", right: false, cell: |r, _| Some(r.src.file.clone()) },
    Column { head: "disturbed", right: false, cell: |r, _| Some(disturbed_tests(r.src)) },
];

fn format_of(src: &Source) -> &'static str {
    if src.kind == FileKind::Json {
        "JSON"
    } else {
        "text"
    }
}

/// The place on the command line of the file of `r`.
fn place(sources: &[Source], r: &Row) -> usize {
    sources.iter().position(|x| std::ptr::eq(x, r.src)).unwrap_or(0)
}

/// The files, a row each, sorted by System Benchmarks Index Score at 1 copy, highest first.
/// On a phone the rows stack, each cell named.
fn table(sources: &[Source]) -> String {
    let mut s = String::from(
        "<h3>Files, by System Benchmarks Index Score at 1 copy</h3>\n<p><table class=\"stack\">\n",
    );
    let heads: Vec<(&str, bool)> = COLUMNS.iter().map(|c| (c.head, c.right)).collect();
    head_row(&mut s, &heads);
    for r in fleet::rows(sources) {
        let k = place(sources, &r);
        s += "<tr>\n";
        for c in COLUMNS {
            cell(&mut s, c.head, c.right, &escape((c.cell)(&r, k).as_deref().unwrap_or("---")));
        }
        s += "</tr>\n";
    }
    s += "</table></p>\n<p class=\"note\">file: the file&#39;s label in the charts, by its place on the \
          command line; run: its kind (standard, quick, or short: -t, -i or a static image); N copies: \
          the index at the file&#39;s largest copy count, the count in parentheses.</p>\n\n";
    s
}

/// Each file's figures against the first file's, at each copy count they all have: each file's
/// score with its 95% interval and `d` for a disturbed figure, and for each file after the
/// first, its score as a percentage of the first's, its mark (`*` a difference shown, `?`
/// unknown, `!` not comparable) and the ratio's 95% interval; the text table's, in a page's
/// cells; then the verdicts in words.
fn against_first(sources: &[Source]) -> String {
    let Some(c) = super::table::compare(sources).ok().filter(|_| sources.len() > 1) else {
        return String::new();
    };
    let mut s = String::new();
    let mut heads: Vec<String> = vec!["test".into(), key(0)];
    for k in 1..sources.len() {
        heads.push(key(k));
        heads.push(format!("{} vs [1]", key(k)));
    }
    let cols: Vec<(&str, bool)> = heads.iter().enumerate().map(|(i, h)| (h.as_str(), i > 0)).collect();
    for t in &c.tables {
        let _ = write!(
            s,
            "<h3>Against [1]: {}</h3>\n<p><table class=\"stack\">\n",
            super::table::table_title(t.copies)
        );
        head_row(&mut s, &cols);
        for r in &t.rows {
            s += "<tr>\n";
            cell(&mut s, "test", false, &escape(&r.name));
            for (k, x) in r.cells.iter().enumerate() {
                // heads: test, [1], then [k] and [k] vs [1] for each other file.
                cell(&mut s, &heads[if k == 0 { 1 } else { 2 * k }], true, &score_cell(x));
                if k > 0 {
                    cell(&mut s, &heads[2 * k + 1], true, &ratio_cell(&r.cells[0], x));
                }
            }
            s += "</tr>\n";
        }
        s += "</table></p>\n";
        for v in super::table::verdicts(t) {
            let class = if v.marked { "verdict marked" } else { "verdict" };
            let _ = writeln!(s, "<p class=\"{class}\">{}</p>", escape(&v.text));
        }
    }
    let _ = write!(
        s,
        "<p class=\"note\">Each file&#39;s score with its 95% interval as percentages of it (+-x% where its two sides agree). vs [1]: the score as a percentage of [1]&#39;s, with the ratio&#39;s 95% interval; *: a difference is shown (that interval, by Welch&#39;s test on the log ratio, excludes 100%); ?: an interval is unknown; !: not comparable (other exec images, or index scores over different tests); d: disturbed. {}</p>\n\n",
        escape(&super::table::intervals_note(sources)).replace('\n', " ")
    );
    s
}

/// A file's score in the table against the first: the figure, its interval and `d`.
fn score_cell(x: &Option<super::table::Cell>) -> String {
    let Some(x) = x else { return "---".into() };
    let ci = x.ci.as_ref().map_or(String::new(), |ci| format!(" {}", super::table::sides(x.score, ci)));
    let d = if x.disturbed { " d" } else { "" };
    format!("<tt>{}{}{d}</tt>", escape(&super::table::figure(Some(x.score))), escape(&ci))
}

/// A file's score against the first's: the percentage, its mark and the ratio's interval where
/// it was tested.
fn ratio_cell(first: &Option<super::table::Cell>, x: &Option<super::table::Cell>) -> String {
    let ci = super::table::mark(first, x)
        .and_then(super::table::Mark::difference)
        .map_or(String::new(), |d| format!(" ({:.1}-{:.1}%)", 100.0 * d.low, 100.0 * d.high));
    let vs = super::table::vs_first(first, x);
    format!("<tt>{}{ci}</tt>", escape(vs.trim_end()))
}

/// Which file each label of the charts is, with its host and kind of run.
fn files_key(sources: &[Source]) -> String {
    let items: Vec<String> = sources
        .iter()
        .enumerate()
        .map(|(k, src)| {
            format!(
                "<b>{}</b> {}, {} run ({})",
                key(k),
                escape(&src.host.name),
                src.run_kind().name(),
                escape(&src.file)
            )
        })
        .collect();
    format!("<p class=\"note\">Files: {}.</p>\n", items.join("; "))
}

/// The tests the file's run found disturbed, by copy count (`pipe (2)`), or `none`.
fn disturbed_tests(src: &Source) -> String {
    let mut names = Vec::new();
    for r in &src.runs {
        for t in r.tests.iter().filter(|t| t.disturbed) {
            names.push(format!("{} ({})", t.message, r.copies));
        }
    }
    if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    }
}

/// A group per test with an index in any file (in report order), a bar per file and copy count,
/// then a group per category's index score.
fn per_test_chart(sources: &[Source], disturbed: &dyn Fn(&TestResult) -> bool) -> Chart {
    let (mut series, mut base, mut points) = (Vec::new(), Vec::new(), Vec::new());
    for (k, src) in sources.iter().enumerate() {
        let one = src.runs.iter().position(|r| r.copies == 1).map(|i| series.len() + i);
        for r in &src.runs {
            let s = series.len();
            series.push((format!("{} {}", key(k), svg::copies_text(r.copies)), usize::from(r.copies != 1)));
            base.push(one.filter(|_| r.copies != 1));
            for t in &r.tests {
                let Some(value) = t.index else { continue };
                let ci = t.ci.map(|c| c.recentred(value));
                points.push(Point {
                    series: s,
                    key: 0,
                    group: t.message.clone(),
                    value,
                    ci,
                    disturbed: disturbed(t),
                });
            }
            for i in &r.index {
                let group = format!("{} Index Score", i.category.display());
                let key = 10 + i.category as usize;
                // Outlined as its disturbed tests are, where the table says d.
                let of = |t: &&TestResult| super::source::category_of(&t.message) == Some(i.category);
                let disturbed = r.tests.iter().filter(of).any(disturbed);
                points.push(Point { series: s, key, group, value: i.score, ci: i.ci, disturbed });
            }
        }
    }
    let mut legend = vec![(0, "1 copy".to_string())];
    if series.iter().any(|s| s.1 == 1) {
        legend.push((1, "more copies (the count is in the bar's label)".to_string()));
    }
    Chart { legend, ..svg::chart(series, &base, &points) }
}

/// A group per file in the table's order, labelled with the file's label and host: its System
/// Benchmarks Index Score at 1 copy and at its largest copy count, all on one axis.
fn hosts_chart(sources: &[Source]) -> Chart {
    let mut points = Vec::new();
    for (i, r) in fleet::rows(sources).iter().enumerate() {
        let group = format!("{} {}", key(place(sources, r)), r.src.host.name);
        for (series, copies) in [(0, Some(1)), (1, r.many.map(|m| m.0))] {
            let run = r.src.runs.iter().rev().find(|x| Some(x.copies) == copies);
            let Some(ix) = run.and_then(|x| x.index.iter().find(|b| b.category == Category::System)) else {
                continue;
            };
            points.push(Point {
                series,
                key: i,
                group: group.clone(),
                value: ix.score,
                ci: ix.ci,
                disturbed: r.disturbed[series],
            });
        }
    }
    let series = vec![(svg::copies_text(1), 0), ("N copies".to_string(), 1)];
    let mut legend = vec![(0, "1 copy".to_string())];
    if points.iter().any(|p| p.series == 1) {
        legend.push((1, "N copies: the file's largest copy count".to_string()));
    }
    Chart { legend, shared: true, ..svg::chart(series, &[None, Some(0)], &points) }
}

#[cfg(test)]
mod tests {
    use super::super::load;
    use super::*;

    fn json(host: &str, scale: f64) -> String {
        let result = |msg: &str, score: f64, index: f64| {
            format!(
                "{{\"message\":\"{msg}\",\"score\":{score},\"unit\":\"lps\",\"index\":{index},\
                 \"stats\":{{\"ci95_low\":{},\"ci95_high\":{}}}}}",
                score * 0.95,
                score * 1.05
            )
        };
        let run = |copies: usize, k: f64| {
            format!(
                "{{\"copies\":{copies},\"start\":1796083200,\"results\":[{},{}],\"index\":[{{\"category\":\"system\",\"score\":{},\
                 \"rows\":[{{\"message\":\"Pipe Throughput\",\"index\":{}}},{{\"message\":\"A <b> & c\",\"index\":{}}}]}}]}}",
                result("Pipe Throughput", 1000.0 * k, 100.0 * k),
                result("A <b> & c", 2000.0 * k, 400.0 * k),
                200.0 * k,
                100.0 * k,
                400.0 * k
            )
        };
        format!(
            "{{\"schema\":\"unixbench-results\",\"schema_version\":1,\"version\":\"x\",\
             \"system\":{{\"hostname\":\"{host}\",\"cpu_count\":2}},\"runs\":[{},{}]}}",
            run(1, scale),
            run(2, 2.0 * scale)
        )
    }

    fn sources(n: usize) -> Vec<Source> {
        (0..n)
            .map(|i| load::load(&format!("h{i}.json"), &json(&format!("h<{i}>"), 1.0 + i as f64)).unwrap())
            .collect()
    }

    /// The charts of a page, without their legend.
    fn charts(p: &str) -> &str {
        let from = p.find("<div class=\"charts\">").expect("the charts");
        &p[from..from + p[from..].find("</div>").unwrap()]
    }

    /// The labels `[k]` in `s`, in order.
    fn labels(s: &str) -> Vec<&str> {
        s.match_indices('[')
            .filter_map(|(i, _)| {
                let end = i + s[i..].find(']')? + 1;
                s[i + 1..end - 1].bytes().all(|b| b.is_ascii_digit()).then(|| &s[i..end])
            })
            .collect()
    }

    #[test]
    fn a_bar_per_file_copy_count_and_test_with_whiskers() {
        let srcs = sources(3);
        let p = page(&srcs, false, &|_| false);
        let c = charts(&p);
        // Two tests and the index score; three files at 1 and 2 copies.
        assert_eq!(c.matches("<svg ").count(), 3, "{p}");
        assert_eq!(c.matches("<rect ").count(), 18);
        assert_eq!(c.matches("<path class=\"ci\"").count(), 18);
        assert!(c.contains(">[3] 2 copies</text>"), "{p}");
        // h2 (scale 3): Pipe's index 300 at 1 copy, 600 at 2 (a gain of 100%).
        assert!(c.contains(">300.0</text>") && c.contains(">600.0 +100%</text>"), "{p}");
        // The table: highest index first, each file with its label; every string escaped.
        let files = p.split("</table>").next().unwrap();
        let rows: Vec<&str> = files.split("<tr>\n").skip(1).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].starts_with("   <td data-label=\"file\">[3]</td>\n   <td data-label=\"host\">h&lt;2&gt;</td>\n   <td data-label=\"run\">standard</td>\n"), "{}", rows[0]);
        assert!(rows[0].contains("<td data-label=\"path\">h2.json</td>"), "{}", rows[0]);
        assert!(p.contains(">A &lt;b&gt; &amp; c</text>") && !p.contains("<b> &"));
        assert!(p.starts_with("<!DOCTYPE HTML") && p.ends_with("</body>\n</html>\n"));
        assert!(p.contains("<title>unixbench compare: 3 files</title>"));
        assert!(rows[0].contains("<td data-label=\"date\">2026-12-01T00:00:00Z</td>"), "{}", rows[0]);
        assert!(rows[0].contains("<td data-label=\"version\">x (JSON)</td>"), "{}", rows[0]);
        // Every column headed; no rank beside the labels.
        let head = &p[p.find("<tr class=\"head\">").unwrap()..p.find("<tr>\n").unwrap()];
        assert_eq!(head.matches("<th ").count(), COLUMNS.len());
        assert_eq!(rows[0].matches("<td ").count(), COLUMNS.len());
        assert!(!head.contains(">#<") && !head.contains("></th>"), "{head}");
        // Light and dark blue explained, and each label is the same file everywhere: the table's,
        // the key's, the charts'.
        assert!(
            p.contains("</svg>1 copy</span>")
                && p.contains("</svg>more copies (the count is in the bar&#39;s label)</span>"),
            "{p}"
        );
        assert!(p.contains("Files: <b>[1]</b> h&lt;0&gt;, standard run (h0.json); <b>[2]</b> h&lt;1&gt;, standard run (h1.json); <b>[3]</b> h&lt;2&gt;, standard run (h2.json).</p>"), "{p}");
        for (row, (k, file)) in rows.iter().zip([("[3]", "h2"), ("[2]", "h1"), ("[1]", "h0")]) {
            assert!(
                row.contains(&format!(">{k}</td>")) && row.contains(&format!(">{file}.json</td>")),
                "{row}"
            );
        }
        let mut used = labels(c);
        used.dedup();
        assert_eq!(used, ["[1]", "[2]", "[3]"].repeat(3), "{c}");
        assert!(!labels(&p).is_empty() && labels(&p).iter().all(|l| ["[1]", "[2]", "[3]"].contains(l)));
        let mut mixed = srcs.clone();
        mixed[1].quick = true;
        let m = page(&mixed, false, &|_| false);
        assert!(m.contains("<p class=\"note\"><b>Warning:</b> comparing runs of different kinds (standard, quick): their figures are not comparable.</p>"), "{m}");
        assert!(
            m.contains("<td data-label=\"run\">quick</td>")
                && m.contains("<b>[2]</b> h&lt;1&gt;, quick run (h1.json)")
        );
        assert!(!p.contains("Warning"));
        let d = page(&srcs, false, &|t| t.message == "Pipe Throughput");
        // Pipe's six bars and the six of the index it is in, as the table marks both d.
        assert_eq!(charts(&d).matches(" d\" x=").count(), 12, "outlined, their colours kept");
    }

    #[test]
    fn many_hosts_get_the_index_per_host_on_one_axis() {
        let srcs = sources(MAX_CHART_FILES + 1);
        let p = page(&srcs, false, &|_| false);
        assert!(p.contains("Per-test charts are drawn for up to 8 files; these are 9."));
        let c = charts(&p);
        assert_eq!(c.matches("<svg ").count(), 9, "a group per host");
        assert_eq!(c.matches("<rect ").count(), 18);
        // Sorted: the highest index first, named by its label and host.
        let first = c.split("<svg ").nth(1).unwrap();
        assert!(first.contains(">[9] h&lt;8&gt;</text>"), "{first}");
        assert!(first.contains(">1800.0</text>") && first.contains(">3600.0 +100%</text>"), "{first}");
        // One axis for all, to 4000: h0's 200 at 1 copy is a twentieth of it.
        assert_eq!(c.matches(">4000</text>").count(), 9, "{c}");
        assert!(c.contains("width=\"9.5\""), "{c}");
        assert!(p.contains("</svg>N copies: the file&#39;s largest copy count</span>"), "{p}");
        let h = page(&sources(2), true, &|_| false);
        assert_eq!(charts(&h).matches("<svg ").count(), 2);
        assert!(!h.contains("Per-test"));
        assert!(page(&sources(1), false, &|_| false).contains("<title>unixbench compare: 1 file</title>"));
    }
}
