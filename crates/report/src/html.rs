//! The HTML report (docs/ORIGINAL.md, "HTML report"), in `Run`'s structure: a head with the title
//! and table style, the system table, then per copy count a heading, its time span and one table
//! per category (in the fixed order System, 2D, 3D, Non-Index), then a footer. Every interpolated
//! string is HTML-escaped. What `Run` never had to say (failed or skipped tests, `-t`, an
//! interrupt) is a `<p class="note">` paragraph.

use super::fmt::{self, Zone};
use super::svg::escape;
use super::view::{
    disturbed_verdict, duration_note, interval, score_title, scored, static_image_note, status_note,
    unscored_reason, Note,
};
use crate::model::{Category, CopyRun, Run, SystemInfo, TestResult, Verbosity};
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

/// The whole HTML report; `now` dates the title.
pub fn render(run: &Run, now: i64, zone: Zone) -> String {
    let mut s = header(run, now, zone);
    s += &super::svg::section(run, &TestResult::disturbed);
    for cr in &run.runs {
        s += &block_of(run, cr, zone);
        s += &stats_table(cr);
        s += &noise_table(cr, run.settings.noise);
    }
    s += &footer(run);
    s
}

/// The document up to `<body>`: the title (escaped already), the tables' and charts' style.
pub fn head(title: &str) -> String {
    let mut s = String::from(
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"\n\"http://www.w3.org/TR/html4/loose.dtd\">\n<html>\n<head>\n  <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n  <meta name=\"keywords\" content=\"linux, benchmarks, benchmarking\">\n",
    );
    let _ = writeln!(s, "  <title>{title}</title>");
    s += "  <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    s += STYLE;
    s += super::svg::CSS;
    s += "  </style>\n</head>\n<body>\n";
    s
}

/// Everything before the first copy count: head, title, version, system table.
pub fn header(run: &Run, now: i64, zone: Zone) -> String {
    let sys = &run.system;
    let title =
        escape(&format!("Benchmark of {} / {} on {}", sys.hostname, sys.system, fmt::date(&zone(now))));
    let mut s = head(&title);
    let _ = writeln!(s, "<h2>{title}</h2>");
    let _ = write!(s, "<p><b>BYTE UNIX Benchmarks (Version {})</b></p>\n\n", escape(&run.version));
    s += &kind_note(run);
    s += &system_table(sys, run.settings.verbosity == Verbosity::Brief);
    for n in [duration_note(&run.settings), super::view::remeasure_note(&run.settings)].iter().flatten() {
        s += &note_para(n);
    }
    s
}

/// A note as the page shows it: its lead in bold.
fn note_para(n: &Note) -> String {
    format!("<p class=\"note\"><b>{}</b> {}</p>\n\n", escape(&n.lead), escape(&n.rest))
}

fn system_table(sys: &SystemInfo, brief: bool) -> String {
    let mut s = String::from("<h3>Test System Information</h3>\n<p><table>\n<tr>\n");
    let row = |s: &mut String, name: &str, value: String| {
        let _ = write!(s, "   <td><b>{name}:</b></td>\n   <td colspan=2>{}</td>\n", escape(&value));
    };
    row(&mut s, "System", format!("{}: {}", sys.hostname, sys.system));
    s += "</tr><tr>\n";
    row(&mut s, "OS", format!("{} -- {} -- {}", sys.os, sys.os_release, sys.os_version));
    s += "</tr><tr>\n";
    row(&mut s, "Machine", format!("{}: {}", sys.machine, sys.platform));
    s += "</tr><tr>\n";
    row(&mut s, "Language", sys.language.clone());
    s += "</tr>\n";
    if sys.cpus.is_empty() {
        if !brief {
            s += "<tr>\n   <td><b>CPUs:</b></td>\n   <td colspan=2>no details available</td>\n</tr>\n";
        }
    } else {
        for (i, cpu) in sys.cpus.iter().enumerate() {
            s += "<tr>\n";
            if i == 0 {
                let _ = writeln!(s, "   <td rowspan={}><b>CPUs:</b></td>", sys.cpus.len());
            }
            let _ = writeln!(s, "   <td><b>{i}:</b></td>");
            let _ = writeln!(s, "   <td>{} ({} bogomips)<br/>", escape(&cpu.model), fmt::f1(cpu.bogomips));
            let _ = writeln!(s, "       {}</td>", escape(&cpu.flags));
            s += "</tr>\n";
        }
    }
    if let Some(l) = sys.cpu_limit.as_ref().and_then(|l| l.cgroup_line()) {
        s += "<tr>\n";
        row(&mut s, "CPU limit", l);
        s += "</tr>\n";
    }
    if let Some(g) = sys.graphics.as_deref().filter(|g| !g.is_empty()) {
        s += "<tr>\n";
        row(&mut s, "Graphics", g.to_string());
        s += "</tr>\n";
    }
    s += "<tr>\n";
    row(&mut s, "Uptime", format!("{}; runlevel {}", sys.uptime, sys.runlevel));
    s += "</tr>\n</table></p>\n\n";
    s
}

/// What kind of run this is, where a reader cannot miss it: a run that is not standard gets a
/// framed box with every reason (`Run::not_standard`); a standard one, as Run's page, nothing.
pub fn kind_note(run: &Run) -> String {
    let why = run.not_standard();
    if why.is_empty() {
        return String::new();
    }
    let items: Vec<String> = why.iter().map(|w| format!("<li>{}</li>", escape(w))).collect();
    format!(
        "<div class=\"kind notstd\"><b>Not a standard run ({}): not comparable with standard runs.</b>\n<ul>{}</ul></div>\n\n",
        run.kind().name(),
        items.join("")
    )
}

/// [`block`] of one of `run`'s copy counts, each index score tagged when the run is not standard.
pub fn block_of(run: &Run, cr: &CopyRun, zone: Zone) -> String {
    let tag = (!run.not_standard().is_empty()).then(|| run.kind().name());
    block_tagged(&run.system, cr, zone, tag)
}

/// One copy count: heading, time span, a table per category with results, notes.
pub fn block(sys: &SystemInfo, cr: &CopyRun, zone: Zone) -> String {
    block_tagged(sys, cr, zone, None)
}

fn block_tagged(sys: &SystemInfo, cr: &CopyRun, zone: Zone, tag: Option<&str>) -> String {
    let secs = (cr.end - cr.start).max(0);
    let mut s = String::from("<p><hr/></p>\n");
    let _ = writeln!(
        s,
        "<h3>Benchmark Run: {}; {}</h3>",
        fmt::number(sys.cpu_count, "CPU", "CPUs"),
        fmt::number(Some(cr.copies), "parallel process", "parallel processes")
    );
    let _ = write!(
        s,
        "<p>Time: {} - {}; {}m {:02}s</p>\n\n",
        fmt::hms(&zone(cr.start)),
        fmt::hms(&zone(cr.end)),
        secs / 60,
        secs % 60
    );
    for cat in Category::ALL {
        s += &category_table(cr, cat, tag);
    }
    let images: Vec<String> = cr
        .results
        .iter()
        .filter_map(|r| {
            r.exec_image().map(|i| {
                format!("<b>{}</b>: {} ({})", escape(&r.message), escape(&i.kind), escape(&i.detail))
            })
        })
        .collect();
    if !images.is_empty() {
        let _ = write!(s, "<p class=\"note\">Image timed:<br/>\n{}</p>\n\n", images.join("<br/>\n"));
    }
    if let Some(note) = static_image_note(cr) {
        let _ = writeln!(s, "<p class=\"note\"><b>Note:</b> {}.</p>\n", escape(&note));
    }
    let notes: Vec<String> = cr
        .results
        .iter()
        .filter_map(|r| unscored_reason(r).map(|why| format!("<b>{}</b>: {}", escape(&r.name), escape(&why))))
        .collect();
    if !notes.is_empty() {
        let _ = write!(s, "<p class=\"note\">Not scored:<br/>\n{}</p>\n\n", notes.join("<br/>\n"));
    }
    s
}

fn category_table(cr: &CopyRun, cat: Category, tag: Option<&str>) -> String {
    let results: Vec<_> =
        scored(cr).into_iter().filter(|r| r.category.unwrap_or(Category::Misc) == cat).collect();
    if results.is_empty() {
        return String::new();
    }
    let block = cr.index.iter().find(|b| b.category == cat);
    let warn = match block {
        None => " \u{2014} no index results available",
        Some(b) if b.partial => {
            " \u{2014} not all index tests were run; only a partial index score is available"
        }
        Some(_) => "",
    };
    let mut s = String::new();
    let _ = writeln!(s, "<h4>{}{}</h4>", cat.display(), warn);
    s += "<p><table width=\"100%\">\n<tr>\n   <th align=left>Test</th>\n   <th align=right>Score</th>\n   <th align=left>Unit</th>\n   <th align=right>Time</th>\n   <th align=right>Iters.</th>\n   <th align=right>Baseline</th>\n   <th align=right>Index</th>\n</tr>\n";
    for r in results {
        s += "<tr>\n";
        let _ = writeln!(s, "   <td><b>{}</b></td>", escape(&r.message));
        let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", fmt::f1(r.score));
        let _ = writeln!(s, "   <td align=left><tt>{}</tt></td>", escape(&r.unit));
        let _ = writeln!(s, "   <td align=right><tt>{} s</tt></td>", fmt::f1(r.time));
        let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", r.kept.len());
        let row = block.and_then(|b| b.rows.iter().find(|row| row.message == r.message));
        if let Some((Some(base), Some(index))) = row.map(|row| (row.baseline, row.index)) {
            let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", fmt::f1(base));
            let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", fmt::f1(index));
        }
        s += "</tr>\n";
    }
    if let Some(b) = block {
        let _ = write!(
            s,
            "<tr>\n   <td colspan=6><b>{}:</b>{}</td>\n   <td align=right><b><tt>{}</tt></b></td>\n</tr>\n",
            score_title(b),
            tag.map(|k| format!(" <span class=\"notstd\">(a {k} run: not standard)</span>"))
                .unwrap_or_default(),
            fmt::f1(b.score)
        );
    }
    s += "</table></p>\n\n";
    s
}

/// The statistics of each scored test's kept samples, and each index's propagated interval:
/// after each copy count's block.
pub fn stats_table(cr: &CopyRun) -> String {
    let results = scored(cr);
    if results.is_empty() {
        return String::new();
    }
    let mut s = String::from("<h4>Statistics of the kept samples</h4>\n<p><table width=\"100%\">\n<tr>\n   <th align=left>Test</th>\n   <th align=right>n</th>\n   <th align=right>Min</th>\n   <th align=right>Median</th>\n   <th align=right>Max</th>\n   <th align=right>Geometric mean</th>\n   <th align=right>CV</th>\n   <th align=right>95% interval</th>\n</tr>\n");
    for r in results {
        let Some(st) = crate::stats::of_result(r) else { continue };
        s += "<tr>\n";
        let _ = writeln!(s, "   <td><b>{}</b></td>", escape(&r.message));
        let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", st.n);
        for v in [st.min, st.median, st.max, st.geomean] {
            let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", fmt::f1(v));
        }
        let cv = st.cv.map_or("---".to_string(), |c| format!("{:.2}%", 100.0 * c));
        let _ = writeln!(s, "   <td align=right><tt>{cv}</tt></td>");
        let _ = writeln!(s, "   <td align=right><tt>{}</tt></td>", interval(st.ci95, st.geomean));
        s += "</tr>\n";
    }
    for b in super::view::ordered_index(cr) {
        let ci = crate::stats::index_interval(b, &cr.results);
        let _ = write!(
            s,
            "<tr>\n   <td colspan=7><b>{}:</b></td>\n   <td align=right><tt>{}</tt></td>\n</tr>\n",
            score_title(b),
            interval(ci, b.score)
        );
    }
    s += "</table></p>\n<p class=\"note\">Intervals: 95%, of the geometric mean, on the log scale with Student's t; none with one sample. An index's interval is propagated from its tests' intervals, assuming the tests are independent.</p>\n\n";
    s
}

/// What else the host did while each scored test ran, summed over its passes: steal time and
/// other processes' CPU as shares of the copies' CPU time, the load at its first pass's start and
/// last pass's end, the copies' involuntary switches, the CPU frequency; the disturbed marked.
pub fn noise_table(cr: &CopyRun, tried: bool) -> String {
    let results = scored(cr);
    if results.is_empty() {
        return String::new();
    }
    let measured: Vec<_> = results.iter().filter_map(|r| Some((r, r.noise()?))).collect();
    if measured.is_empty() && !tried {
        return "<p class=\"note\">Noise: not read (UB_NOISE=off, or a run that did not record it).</p>\n\n"
            .into();
    }
    if measured.is_empty() {
        return "<p class=\"note\">Noise: not measured (/proc/stat or the copies' resource usage could not be read).</p>\n\n".into();
    }
    let mut s = String::from("<h4>Noise: what else the host did</h4>\n<p><table width=\"100%\">\n<tr>\n   <th align=left>Test</th>\n   <th align=right>Steal</th>\n   <th align=right>Other processes</th>\n   <th align=right>Load</th>\n   <th align=right>Involuntary switches</th>\n   <th align=right>MHz</th>\n   <th align=left></th>\n</tr>\n");
    for (r, n) in measured {
        let mhz = n.mhz.map_or("---".to_string(), |m| format!("{m:.0}"));
        let _ = write!(
            s,
            "<tr>\n   <td><b>{}</b></td>\n   <td align=right><tt>{:.1}%</tt></td>\n   <td align=right><tt>{:.1}%</tt></td>\n   <td align=right><tt>{:.2} &rarr; {:.2}</tt></td>\n   <td align=right><tt>{}</tt></td>\n   <td align=right><tt>{mhz}</tt></td>\n   <td>{}</td>\n</tr>\n",
            escape(&r.message),
            100.0 * n.steal_share(),
            100.0 * n.foreign_share(),
            n.load_start,
            n.load_end,
            n.involuntary,
            verdict_cell(r)
        );
    }
    let _ = write!(
        s,
        "</table></p>\n<p class=\"note\">Steal and other processes: CPU time taken from the copies, as a share of the copies' own CPU time, read from /proc/stat around each pass (never during it). A test is disturbed above {:.0}%.</p>\n\n",
        100.0 * crate::model::DISTURBED
    );
    s
}

/// A test's verdict in the noise table: `disturbed` and why, and the passes measured again.
fn verdict_cell(r: &TestResult) -> String {
    let mut v: Vec<String> =
        r.disturbance().map(|d| format!("<b>disturbed</b> ({})", d.word())).into_iter().collect();
    v.extend(super::view::replaced_note(r).map(|n| escape(&n)));
    v.join("; ")
}

/// The end of the document: a note when the run was interrupted, the disclaimer, the closing
/// tags.
pub fn footer(run: &Run) -> String {
    let mut s = String::new();
    if let Some(v) = disturbed_verdict(run) {
        let _ = write!(s, "<p class=\"note\"><b>{v}</b></p>\n\n");
    }
    if let Some(n) = status_note(run) {
        s += &note_para(&n);
    }
    s += "<p><hr/></p>
<div><b>No Warranties:</b> These results are provided \"as is\", without warranty of any kind,
express or implied, including the warranties of merchantability, fitness for a particular purpose
and non-infringement. The authors are not liable for any claim, damages or other liability arising
from the use of this information. Names and trademarks belong to their owners.</div>
</body>
</html>
";
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn the_noise_table_says_why_a_test_was_disturbed_and_what_was_measured_again() {
        use crate::model::{Disturbance, Noise, Replaced};
        let mut run = fixture::reference();
        let quiet = Noise { copies_cpu: 1.0, wall: 1.0, idle: 1.0, ..Default::default() };
        for r in run.runs.iter_mut().flat_map(|cr| &mut cr.results) {
            let foreign = if r.name == "pipe" { 0.5 } else { 0.0 };
            for p in &mut r.passes {
                p.noise = Some(Noise { foreign, ..quiet });
            }
            if r.name == "syscall" {
                r.replaced = vec![Replaced { pass: r.passes[0].clone(), why: Disturbance::Stopped }];
            }
        }
        let t = noise_table(&run.runs[0], true);
        assert!(t.contains("<td><b>disturbed</b> (other processes)</td>"), "{t}");
        assert!(t.contains("<td>1 pass measured again: stopped</td>"), "{t}");
    }

    #[test]
    fn escapes_everything_interpolated() {
        assert_eq!(escape("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
        let run = fixture::troubled();
        let h = render(&run, fixture::START1, fmt::utc);
        assert!(h.contains(
            "<title>Benchmark of h&lt;&amp;&gt; / Debian GNU/Linux 12 (bookworm) on Mon Nov 30 2026</title>"
        ));
        assert!(h.contains("<td><b>Grep a large file (system&#39;s grep)</b></td>"));
        assert!(h.contains("<b>execl</b>: failed: command returned status 256 / execl: &lt;cannot exec&gt; &amp; &quot;quoted&quot;"));
        assert!(!h.contains("<cannot"));
    }

    #[test]
    fn a_run_that_is_not_standard_says_so_at_the_top_and_beside_each_index() {
        let mut run = fixture::reference();
        assert_eq!(kind_note(&run), "");
        run.settings.quick = Some(120.0);
        let h = render(&run, fixture::START1, fmt::utc);
        let top = h.find("Not a standard run (quick)").expect("the box");
        assert!(top < h.find("Test System Information").unwrap(), "above the system table");
        assert!(h.contains("<li>a quick run (--quick, 120 s budget): shorter passes, stopped early</li>"));
        let tags = h.matches("(a quick run: not standard)").count();
        assert_eq!(tags, run.runs.iter().map(|cr| cr.index.len()).sum::<usize>(), "beside each index score");
    }

    #[test]
    fn reference_header_and_first_block() {
        let run = fixture::reference();
        let h = header(&run, fixture::START1, fmt::utc);
        let want_head = "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"
\"http://www.w3.org/TR/html4/loose.dtd\">
<html>
<head>
  <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">
  <meta name=\"keywords\" content=\"linux, benchmarks, benchmarking\">
  <title>Benchmark of vm / Debian GNU/Linux 12 (bookworm) on Mon Nov 30 2026</title>
";
        assert!(h.starts_with(want_head), "{h}");
        let want_tail = "<h2>Benchmark of vm / Debian GNU/Linux 12 (bookworm) on Mon Nov 30 2026</h2>
<p><b>BYTE UNIX Benchmarks (Version 6.0.0-compatible; unixbench 0.1.0)</b></p>

<h3>Test System Information</h3>
<p><table>
<tr>
   <td><b>System:</b></td>
   <td colspan=2>vm: Debian GNU/Linux 12 (bookworm)</td>
</tr><tr>
   <td><b>OS:</b></td>
   <td colspan=2>GNU/Linux -- 6.18.44-fc-v657 -- #1 SMP PREEMPT_DYNAMIC @0</td>
</tr><tr>
   <td><b>Machine:</b></td>
   <td colspan=2>x86_64: unknown</td>
</tr><tr>
   <td><b>Language:</b></td>
   <td colspan=2>en_US.utf8 (charmap=&quot;UTF-8&quot;, collate=&quot;UTF-8&quot;)</td>
</tr>
<tr>
   <td rowspan=2><b>CPUs:</b></td>
   <td><b>0:</b></td>
   <td>AMD EPYC (5192.2 bogomips)<br/>
       Hyper-Threading, x86-64, MMX, AMD MMX, Physical Address Ext, SYSENTER/SYSEXIT, SYSCALL/SYSRET</td>
</tr>
<tr>
   <td><b>1:</b></td>
   <td>AMD EPYC (5192.2 bogomips)<br/>
       Hyper-Threading, x86-64, MMX, AMD MMX, Physical Address Ext, SYSENTER/SYSEXIT, SYSCALL/SYSRET</td>
</tr>
<tr>
   <td><b>Uptime:</b></td>
   <td colspan=2>00:05:42 up 5 min,  0 user,  load average: 1.51, 0.62, 0.23; runlevel 5</td>
</tr>
</table></p>

";
        assert!(h.ends_with(want_tail), "{h}");
        let b = block(&run.system, &run.runs[0], fmt::utc);
        let want_block_start = "<p><hr/></p>
<h3>Benchmark Run: 2 CPUs; 1 parallel process</h3>
<p>Time: 00:05:42 - 00:33:38; 27m 56s</p>

<h4>System Benchmarks</h4>
<p><table width=\"100%\">
<tr>
   <th align=left>Test</th>
   <th align=right>Score</th>
   <th align=left>Unit</th>
   <th align=right>Time</th>
   <th align=right>Iters.</th>
   <th align=right>Baseline</th>
   <th align=right>Index</th>
</tr>
<tr>
   <td><b>Dhrystone 2 using register variables</b></td>
   <td align=right><tt>78540503.4</tt></td>
   <td align=left><tt>lps</tt></td>
   <td align=right><tt>10.0 s</tt></td>
   <td align=right><tt>7</tt></td>
   <td align=right><tt>116700.0</tt></td>
   <td align=right><tt>6730.1</tt></td>
</tr>
<tr>
   <td><b>Double-Precision Whetstone</b></td>
";
        assert!(b.starts_with(want_block_start), "{b}");
        let want_block_end = "<tr>
   <td><b>System Call Overhead</b></td>
   <td align=right><tt>1718780.5</tt></td>
   <td align=left><tt>lps</tt></td>
   <td align=right><tt>10.0 s</tt></td>
   <td align=right><tt>7</tt></td>
   <td align=right><tt>15000.0</tt></td>
   <td align=right><tt>1145.9</tt></td>
</tr>
<tr>
   <td colspan=6><b>System Benchmarks Index Score:</b></td>
   <td align=right><b><tt>1433.1</tt></b></td>
</tr>
</table></p>

";
        assert!(b.ends_with(want_block_end), "{b}");
        assert_eq!(b.matches("<tr>\n   <td><b>").count(), 12);
        assert!(render(&run, fixture::START1, fmt::utc).ends_with("</div>\n</body>\n</html>\n"));
    }

    #[test]
    fn statistics_table() {
        let run = fixture::reference();
        let t = stats_table(&run.runs[0]);
        assert!(t.starts_with("<h4>Statistics of the kept samples</h4>\n"), "{t}");
        assert_eq!(t.matches("<tr>\n   <td><b>").count(), 12);
        // The fixture's seven kept Dhrystone passes.
        let dhry = run.runs[0].results.iter().find(|r| r.name == "dhry2reg").unwrap();
        let st = crate::stats::of_result(dhry).unwrap();
        let row = format!(
            "<tr>\n   <td><b>Dhrystone 2 using register variables</b></td>\n   <td align=right><tt>7</tt></td>\n   <td align=right><tt>{}</tt></td>",
            fmt::f1(st.min)
        );
        assert!(t.contains(&row), "{t}");
        assert!(t.contains("<td colspan=7><b>System Benchmarks Index Score:</b></td>"));
        assert!(render(&run, fixture::START1, fmt::utc).contains(&t));
        // `low - high (-a% / +b%)`.
        let ci = crate::stats::Interval::around(100.0, 0.01f64.ln_1p());
        assert_eq!(interval(Some(ci), 100.0), "99.0 - 101.0 (-1.0% / +1.0%)");
        assert_eq!(interval(None, 100.0), "---");
    }

    #[test]
    fn troubled_block() {
        let run = fixture::troubled();
        let b = block(&run.system, &run.runs[0], fmt::utc);
        let want = "<p><hr/></p>
<h3>Benchmark Run: unknown CPUs; 1 parallel process</h3>
<p>Time: 00:05:42 - 00:06:57; 1m 15s</p>

<h4>System Benchmarks \u{2014} not all index tests were run; only a partial index score is available</h4>
<p><table width=\"100%\">
<tr>
   <th align=left>Test</th>
   <th align=right>Score</th>
   <th align=left>Unit</th>
   <th align=right>Time</th>
   <th align=right>Iters.</th>
   <th align=right>Baseline</th>
   <th align=right>Index</th>
</tr>
<tr>
   <td><b>Dhrystone 2 using register variables</b></td>
   <td align=right><tt>12345678901234.5</tt></td>
   <td align=left><tt>lps</tt></td>
   <td align=right><tt>2.0 s</tt></td>
   <td align=right><tt>2</tt></td>
   <td align=right><tt>116700.0</tt></td>
   <td align=right><tt>1057898706.1</tt></td>
</tr>
<tr>
   <td colspan=6><b>System Benchmarks Index Score (Partial Only):</b></td>
   <td align=right><b><tt>1057898706.1</tt></b></td>
</tr>
</table></p>

<h4>Non-Index Benchmarks \u{2014} not all index tests were run; only a partial index score is available</h4>
<p><table width=\"100%\">
<tr>
   <th align=left>Test</th>
   <th align=right>Score</th>
   <th align=left>Unit</th>
   <th align=right>Time</th>
   <th align=right>Iters.</th>
   <th align=right>Baseline</th>
   <th align=right>Index</th>
</tr>
<tr>
   <td><b>Grep a large file (system&#39;s grep)</b></td>
   <td align=right><tt>48834.0</tt></td>
   <td align=left><tt>lpm</tt></td>
   <td align=right><tt>2.0 s</tt></td>
   <td align=right><tt>2</tt></td>
   <td align=right><tt>25.0</tt></td>
   <td align=right><tt>19533.6</tt></td>
</tr>
<tr>
   <td><b>Recursion Test -- Tower of Hanoi, a message far too long for its column</b></td>
   <td align=right><tt>981597.6</tt></td>
   <td align=left><tt>lps</tt></td>
   <td align=right><tt>2.0 s</tt></td>
   <td align=right><tt>2</tt></td>
</tr>
<tr>
   <td colspan=6><b>Non-Index Benchmarks Index Score (Partial Only):</b></td>
   <td align=right><b><tt>19533.6</tt></b></td>
</tr>
</table></p>

<p class=\"note\">Not scored:<br/>
<b>execl</b>: failed: command returned status 256 / execl: &lt;cannot exec&gt; &amp; &quot;quoted&quot;<br/>
<b>C</b>: skipped: no C compiler (cc or gcc) on this host</p>

";
        assert_eq!(b, want);
        let f = footer(&run);
        assert!(f.starts_with("<p class=\"note\"><b>Run interrupted:</b>"));
        let h = header(&run, fixture::START1, fmt::utc);
        assert!(h.contains("<td colspan=2>no details available</td>"));
        assert!(h.ends_with("these scores are not comparable with standard runs.</p>\n\n"));
    }
}
