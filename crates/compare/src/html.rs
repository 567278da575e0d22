//! `compare --format html`: one page for several files (hosts or runs). A table of the files
//! sorted by System Benchmarks Index Score (`fleet`'s rows, with each file's key `[k]`), then the
//! report's chart (`report::svg`) with a bar per file and copy count; for more files than a
//! chart can hold, or with `--hosts`, a chart of each host's index score instead.

use super::fleet;
use super::load::{Kind, Source, Test};
use crate::fmt::number;
use crate::model::Category;
use crate::stats::Interval;
use report::html::head;
use report::svg::escape;
use report::svg::{self, Chart, Point};
use std::fmt::Write as _;

/// The most files whose bars a per-test chart holds (two copy counts each).
pub const MAX_CHART_FILES: usize = 8;

/// The page. `disturbed` says which tests the noise measurement marked.
pub fn page(sources: &[Source], hosts: bool, disturbed: &dyn Fn(&Test) -> bool) -> String {
    let title = format!("unixbench compare: {}", number(Some(sources.len()), "file", "files"));
    let mut s = head(&escape(&title));
    let _ = writeln!(s, "<h2>{}</h2>", escape(&title));
    if let Some(w) = super::load::kinds_warning(sources) {
        let _ = writeln!(s, "<p class=\"note\"><b>Warning:</b> {}.</p>", escape(&w));
    }
    s += &table(sources);
    let per_test = !hosts && sources.len() <= MAX_CHART_FILES;
    if per_test {
        s += "<h3>Index at each copy count</h3>\n";
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

/// The key of the file at `i` (0-based), as the text comparison numbers files.
fn key(i: usize) -> String {
    format!("[{}]", i + 1)
}

/// The files, a row each, sorted by System Benchmarks Index Score at 1 copy, highest first.
fn table(sources: &[Source]) -> String {
    let mut s = String::from(
        "<h3>Files, by System Benchmarks Index Score at 1 copy</h3>\n<p><table class=\"wide\">\n<tr>",
    );
    for (h, right) in fleet::HEAD {
        let _ = write!(s, "<th align={}>{}</th>", if right { "right" } else { "left" }, escape(h));
    }
    s += "<th align=left>date</th><th align=left>run</th><th align=left>version</th><th align=left>disturbed</th></tr>\n";
    for (i, r) in fleet::rows(sources).iter().enumerate() {
        let k = sources.iter().position(|x| std::ptr::eq(x, r.src)).unwrap_or(0);
        let mut c = fleet::cells(i, r);
        c[8] = Some(format!("{} {}", key(k), r.src.file));
        s += "<tr>";
        for (cell, (_, right)) in c.iter().zip(fleet::HEAD) {
            let cell = cell.as_deref().unwrap_or("---");
            let _ = write!(s, "<td{}>{}</td>", if right { " align=right" } else { "" }, escape(cell));
        }
        let kind = if r.src.kind == Kind::Json { "JSON" } else { "text" };
        let (date, run) = (escape(&r.src.date), r.src.run_kind().name());
        let version = escape(&format!("{} ({kind})", r.src.version));
        let _ =
            writeln!(s, "<td>{date}</td><td>{run}</td><td>{version}</td><td>{}</td></tr>", disturbed(r.src));
    }
    s += "</table></p>\n<p class=\"note\">N copies: the index at the file's largest copy count, in brackets.</p>\n\n";
    s
}

/// The tests the file's run found disturbed, by copy count (`pipe (2)`), or `none`.
fn disturbed(src: &Source) -> String {
    let names: Vec<String> = src
        .runs
        .iter()
        .flat_map(|r| {
            r.tests.iter().filter(|t| t.disturbed).map(move |t| format!("{} ({})", t.message, r.copies))
        })
        .collect();
    if names.is_empty() {
        "none".to_string()
    } else {
        escape(&names.join(", "))
    }
}

/// A group per test with an index in any file (in report order), a bar per file and copy count,
/// then a group per category's index score.
fn per_test_chart(sources: &[Source], disturbed: &dyn Fn(&Test) -> bool) -> Chart {
    let (mut series, mut base, mut points) = (Vec::new(), Vec::new(), Vec::new());
    for (k, src) in sources.iter().enumerate() {
        let one = src.runs.iter().position(|r| r.copies == 1).map(|i| series.len() + i);
        for r in &src.runs {
            let s = series.len();
            let label = svg::copies_text(r.copies);
            series.push((
                if sources.len() > 1 { format!("{} {label}", key(k)) } else { label },
                usize::from(r.copies != 1),
            ));
            base.push(one.filter(|_| r.copies != 1));
            for t in &r.tests {
                let Some(value) = t.index else { continue };
                let ci = t.ci.map(|c| Interval::around(value, c.log_half));
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
                points.push(Point { series: s, key, group, value: i.score, ci: i.ci, disturbed: false });
            }
        }
    }
    svg::chart(series, &base, &points)
}

/// A group per file in the table's order, its System Benchmarks Index Score at 1 copy and at
/// its largest copy count.
fn hosts_chart(sources: &[Source]) -> Chart {
    let mut points = Vec::new();
    for (i, r) in fleet::rows(sources).iter().enumerate() {
        let k = sources.iter().position(|x| std::ptr::eq(x, r.src)).unwrap_or(0);
        let group = format!("#{} {} {}", i + 1, key(k), r.src.host.name);
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
                disturbed: false,
            });
        }
    }
    svg::chart(vec![(svg::copies_text(1), 0), ("N copies".to_string(), 1)], &[None, Some(0)], &points)
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

    #[test]
    fn a_bar_per_file_copy_count_and_test_with_whiskers() {
        let srcs = sources(3);
        let p = page(&srcs, false, &|_| false);
        // Two tests and the index score; three files at 1 and 2 copies.
        assert_eq!(p.matches("<svg ").count(), 3, "{p}");
        assert_eq!(p.matches("<rect ").count(), 18);
        assert_eq!(p.matches("<path class=\"ci\"").count(), 18);
        assert!(p.contains(">[3] 2 copies</text>"), "{p}");
        // h2 (scale 3): Pipe's index 300 at 1 copy, 600 at 2 (a gain of 100%).
        assert!(p.contains(">300.0</text>") && p.contains(">600.0 +100%</text>"), "{p}");
        // The table: highest index first, each file with its key; every string escaped.
        let rows: Vec<&str> = p.lines().filter(|l| l.starts_with("<tr><td")).collect();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].starts_with("<tr><td align=right>1</td><td>h&lt;2&gt;</td>"), "{}", rows[0]);
        assert!(rows[0].contains("<td>[3] h2.json</td>"), "{}", rows[0]);
        assert!(p.contains(">A &lt;b&gt; &amp; c</text>") && !p.contains("<b> &"));
        assert!(p.starts_with("<!DOCTYPE HTML") && p.ends_with("</body>\n</html>\n"));
        assert!(p.contains("<title>unixbench compare: 3 files</title>"));
        // Each file's date and kind of run; no warning for files of one kind.
        assert!(
            rows[0].contains("<td>2026-12-01T00:00:00Z</td><td>standard</td><td>x (JSON)</td>"),
            "{}",
            rows[0]
        );
        assert!(!p.contains("Warning"));
        let mut mixed = srcs.clone();
        mixed[1].quick = true;
        let m = page(&mixed, false, &|_| false);
        assert!(m.contains("<p class=\"note\"><b>Warning:</b> comparing runs of different kinds (standard, quick): their figures are not comparable.</p>"), "{m}");
        assert!(m.contains("<td>quick</td>"));
        let d = page(&srcs, false, &|t| t.message == "Pipe Throughput");
        assert_eq!(d.matches("<rect class=\"d\"").count(), 6);
    }

    #[test]
    fn many_hosts_get_the_index_per_host() {
        let srcs = sources(MAX_CHART_FILES + 1);
        let p = page(&srcs, false, &|_| false);
        assert!(p.contains("Per-test charts are drawn for up to 8 files; these are 9."));
        assert_eq!(p.matches("<svg ").count(), 9, "a group per host");
        assert_eq!(p.matches("<rect ").count(), 18);
        // Sorted: the highest index first.
        let first = p.split("<svg ").nth(1).unwrap();
        assert!(first.contains(">#1 [9] h&lt;8&gt;</text>"), "{first}");
        assert!(first.contains(">1800.0</text>") && first.contains(">3600.0 +100%</text>"), "{first}");
        let h = page(&sources(2), true, &|_| false);
        assert_eq!(h.matches("<svg ").count(), 2);
        assert!(!h.contains("Per-test"));
        assert!(page(&sources(1), false, &|_| false).contains("<title>unixbench compare: 1 file</title>"));
    }
}
