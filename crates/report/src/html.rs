//! The HTML report (docs/ORIGINAL.md, "HTML report"), in `Run`'s structure: a head with the title
//! and table style, the system table, then per copy count a heading, its time span and one table
//! per category (in the fixed order System, 2D, 3D, Non-Index), then a footer. Every interpolated
//! string is HTML-escaped. What `Run` never had to say (failed or skipped tests, `-t`, an
//! interrupt) is a `<p class="note">` paragraph.

use super::fmt::{self, Zone};
use super::page::{cell, head, head_row, RUN_HEAD};
use super::svg::{escape, Esc};
use super::view::{
    disturbed_verdict, duration_note, interval, passes_text, score_title, scored, static_image_note,
    status_note, unscored_reason, NOT_COMPARABLE,
};
use crate::model::{Category, CopyRun, Noise, Run, SystemInfo, TestResult, Verbosity};
use std::fmt::Write as _;

/// The whole HTML report; `now` dates the title.
pub fn render(run: &Run, now: i64, zone: Zone) -> String {
    let mut s = header(run, now, zone);
    s += &super::svg::section(run, &TestResult::disturbed);
    for cr in &run.runs {
        s += &block_of(run, cr, zone);
        stats_table(&mut s, cr);
        noise_table(&mut s, cr, run.settings.noise);
    }
    s += &footer();
    s
}

/// Everything before the first copy count: head, title, version, system table.
pub fn header(run: &Run, now: i64, zone: Zone) -> String {
    let sys = &run.system;
    let title =
        escape(&format!("Benchmark of {} / {} on {}", sys.hostname, sys.system, fmt::date(&zone(now))));
    let mut s = head(&title);
    let _ = writeln!(s, "<h2>{title}</h2>");
    s += &headline(run);
    let _ = write!(s, "<p><b>BYTE UNIX Benchmarks (Version {})</b></p>\n\n", Esc(&run.version));
    s += &verdict_box(run);
    system_table(&mut s, sys, run.settings.verbosity == Verbosity::Brief);
    let notes = [
        super::view::rounds_settings_note(&run.settings),
        duration_note(&run.settings),
        super::view::remeasure_note(&run.settings),
    ];
    // Each note as the page shows it: its lead in bold.
    for n in notes.iter().flatten() {
        let _ = write!(s, "<p class=\"note\"><b>{}</b> {}</p>\n\n", Esc(&n.lead), Esc(&n.rest));
    }
    s
}

fn system_table(s: &mut String, sys: &SystemInfo, brief: bool) {
    *s += "<h3>Test System Information</h3>\n<p><table>\n<tr>\n";
    let row = |s: &mut String, name: &str, value: std::fmt::Arguments| {
        let _ = write!(s, "   <td><b>{name}:</b></td>\n   <td colspan=2>{value}</td>\n");
    };
    row(s, "System", format_args!("{}: {}", Esc(&sys.hostname), Esc(&sys.system)));
    *s += "</tr><tr>\n";
    row(s, "OS", format_args!("{} -- {} -- {}", Esc(&sys.os), Esc(&sys.os_release), Esc(&sys.os_version)));
    *s += "</tr><tr>\n";
    row(s, "Machine", format_args!("{}: {}", Esc(&sys.machine), Esc(&sys.platform)));
    *s += "</tr><tr>\n";
    row(s, "Language", format_args!("{}", Esc(&sys.language)));
    *s += "</tr>\n";
    if sys.cpus.is_empty() {
        if !brief {
            *s += "<tr>\n   <td><b>CPUs:</b></td>\n   <td colspan=2>no details available</td>\n</tr>\n";
        }
    } else {
        for (i, cpu) in sys.cpus.iter().enumerate() {
            *s += "<tr>\n";
            if i == 0 {
                let _ = writeln!(s, "   <td rowspan={}><b>CPUs:</b></td>", sys.cpus.len());
            }
            let _ = write!(
                s,
                "   <td><b>{i}:</b></td>\n   <td>{} ({} bogomips)<br/>\n       {}</td>\n</tr>\n",
                Esc(&cpu.model),
                fmt::f1(cpu.bogomips),
                Esc(&cpu.flags)
            );
        }
    }
    if let Some(l) = sys.cpu_limit.as_ref().and_then(|l| l.cgroup_line()) {
        *s += "<tr>\n";
        row(s, "CPU limit", format_args!("{}", Esc(&l)));
        *s += "</tr>\n";
    }
    if let Some(g) = sys.graphics.as_deref().filter(|g| !g.is_empty()) {
        *s += "<tr>\n";
        row(s, "Graphics", format_args!("{}", Esc(g)));
        *s += "</tr>\n";
    }
    *s += "<tr>\n";
    row(s, "Uptime", format_args!("{}; runlevel {}", Esc(&sys.uptime), Esc(&sys.runlevel)));
    *s += "</tr>\n</table></p>\n\n";
}

/// The result first, in large figures under the title: each copy count's index
/// (`view::headline`), then the run in one line (`view::summary`). Nothing before a test has
/// an index.
pub fn headline(run: &Run) -> String {
    let open = "<div class=\"headline\">\n";
    let mut s = String::from(open);
    for cr in &run.runs {
        if let Some(b) = super::view::headline(cr) {
            let copies = super::svg::copies_text(cr.copies);
            let _ = writeln!(
                s,
                "<div><span class=\"big\">{}</span> {}, {copies}</div>",
                fmt::f1(b.score),
                score_title(b)
            );
        }
    }
    if s.len() == open.len() {
        return String::new();
    }
    let _ = write!(s, "<p>{}</p>\n</div>\n\n", Esc(&super::view::summary(run)));
    s
}

/// The run's verdict, in a framed box above the system table where no reader misses it: the kind
/// of run (every reason when it is not standard), whether the noise measurement found tests
/// disturbed (and which), and whether the run stopped early or is still going. The frame is red
/// when any of these keeps the figures from being published as a standard run's.
pub fn verdict_box(run: &Run) -> String {
    let why = run.not_standard();
    let mut s = match super::view::not_standard_note(run) {
        None => String::from("<b>A standard run.</b>\n"),
        Some(n) => {
            let mut s = format!("<b>{} {NOT_COMPARABLE}</b>\n<ul>", Esc(&n.lead));
            for w in &why {
                let _ = write!(s, "<li>{}</li>", Esc(w));
            }
            s + "</ul>\n"
        }
    };
    if base::version::Semantics::of_version(&run.version) == base::version::Semantics::V513 {
        s += "<p><b>UnixBench 5.1.3&#39;s semantics</b> (--semantics 5.1.3): comparable with 5.1.3&#39;s \
              scores, not with 6.0.0&#39;s.</p>\n";
    }
    let disturbed = disturbed_verdict(run);
    noise_verdict(&mut s, run, disturbed.as_deref());
    let status = status_note(run);
    if let Some(n) = &status {
        let _ = writeln!(s, "<p><b>{}</b> {}</p>", Esc(&n.lead), Esc(&n.rest));
    }
    let bad = !why.is_empty() || disturbed.is_some() || status.is_some();
    format!("<div class=\"verdict{}\">{s}</div>\n\n", if bad { " bad" } else { "" })
}

/// The noise measurement's part of the verdict: the disturbed tests, each once with its copy
/// counts, and the busy host's line; or that none was, or why that is not known.
fn noise_verdict(s: &mut String, run: &Run, disturbed: Option<&str>) {
    let mut results: Vec<(&CopyRun, &TestResult)> = Vec::new();
    for cr in &run.runs {
        for r in cr.results.iter().filter(|r| r.ok()) {
            results.push((cr, r));
        }
    }
    if let Some(v) = disturbed {
        let mut listed: Vec<(&str, Vec<usize>)> = Vec::new();
        for (cr, r) in results.iter().filter(|(_, r)| r.disturbed()) {
            match listed.iter_mut().find(|(m, _)| *m == r.message) {
                Some((_, copies)) => copies.push(cr.copies),
                None => listed.push((&r.message, vec![cr.copies])),
            }
        }
        let _ = write!(s, "<p><b>{v}</b> Disturbed:</p>\n<ul class=\"disturbed\">");
        for (message, copies) in &listed {
            let _ = write!(s, "<li>{} ({})</li>", Esc(message), super::view::copies_list(copies));
        }
        *s += "</ul>\n";
        if let Some(b) = super::view::busy_line(run) {
            let _ = writeln!(s, "<p><b>{}</b></p>", Esc(&b));
        }
        return;
    }
    let line = if results.is_empty() {
        "No test finished."
    } else if !run.settings.noise {
        "Noise not read (UB_NOISE=off): no test here is known to be undisturbed."
    } else if results.iter().any(|(_, r)| r.noise().is_none()) {
        "Noise not measured (/proc/stat or the copies&#39; resource usage could not be read): no test \
         here is known to be undisturbed."
    } else {
        let _ = writeln!(
            s,
            "<p>No test was disturbed: other work took at most {:.0}% of each test&#39;s copies&#39; CPU time.</p>",
            100.0 * crate::model::DISTURBED
        );
        return;
    };
    let _ = writeln!(s, "<p>{line}</p>");
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
        category_table(&mut s, cr, cat, tag);
    }
    // Each list a note of lines, each line after a break.
    let mut images = String::new();
    let mut unscored = String::new();
    for r in &cr.results {
        if let Some(i) = r.exec_image() {
            let _ =
                write!(images, "<br/>\n<b>{}</b>: {} ({})", Esc(&r.message), Esc(&i.kind), Esc(&i.detail));
        }
        if let Some(why) = unscored_reason(r) {
            let _ = write!(unscored, "<br/>\n<b>{}</b>: {}", Esc(&r.name), Esc(&why));
        }
    }
    if !images.is_empty() {
        let _ = write!(s, "<p class=\"note\">Image timed:{images}</p>\n\n");
    }
    if let Some(note) = static_image_note(cr) {
        let _ = writeln!(s, "<p class=\"note\"><b>Note:</b> {}.</p>\n", Esc(&note));
    }
    if !unscored.is_empty() {
        let _ = write!(s, "<p class=\"note\">Not scored:{unscored}</p>\n\n");
    }
    s
}

fn category_table(s: &mut String, cr: &CopyRun, cat: Category, tag: Option<&str>) {
    let results: Vec<_> =
        scored(cr).into_iter().filter(|r| r.category.unwrap_or(Category::Misc) == cat).collect();
    if results.is_empty() {
        return;
    }
    let block = cr.index.iter().find(|b| b.category == cat);
    let warn = match block {
        None => " \u{2014} no index results available",
        Some(b) if b.partial => {
            " \u{2014} not all index tests were run; only a partial index score is available"
        }
        Some(_) => "",
    };
    let _ = write!(s, "<h4>{}{}</h4>\n<p><table width=\"100%\">\n<tr>\n", cat.display(), warn);
    for (h, right) in RUN_HEAD {
        let _ = writeln!(s, "   <th align={}>{h}</th>", if right { "right" } else { "left" });
    }
    *s += "</tr>\n";
    for r in results {
        let _ = write!(
            s,
            "<tr>\n   <td><b>{}</b></td>\n   <td align=right><tt>{}</tt></td>\n   <td align=left><tt>{}</tt></td>\n   \
             <td align=right><tt>{} s</tt></td>\n   <td align=right><tt>{}</tt></td>\n",
            Esc(&r.message),
            fmt::f1(r.score),
            Esc(&r.unit),
            fmt::f1(r.time),
            r.kept.len()
        );
        let row = block.and_then(|b| b.rows.iter().find(|row| row.message == r.message));
        if let Some((Some(base), Some(index))) = row.map(|row| (row.baseline, row.index)) {
            let _ = write!(
                s,
                "   <td align=right><tt>{}</tt></td>\n   <td align=right><tt>{}</tt></td>\n",
                fmt::f1(base),
                fmt::f1(index)
            );
        }
        *s += "</tr>\n";
    }
    if let Some(b) = block {
        let _ = write!(s, "<tr>\n   <td colspan=6><b>{}:</b>", score_title(b));
        if let Some(k) = tag {
            let _ = write!(s, " <span class=\"notstd\">(a {k} run: not standard)</span>");
        }
        let _ = write!(s, "</td>\n   <td align=right><b><tt>{}</tt></b></td>\n</tr>\n", fmt::f1(b.score));
    }
    *s += "</table></p>\n\n";
}

const STATS_HEAD: [(&str, bool); 8] = [
    ("Test", false),
    ("Passes", true),
    ("Min", true),
    ("Median", true),
    ("Max", true),
    ("Geometric mean", true),
    ("CV", true),
    ("95% interval", true),
];

/// The statistics of each scored test's kept passes, and each index's propagated interval:
/// after each copy count's block, onto `s`.
pub fn stats_table(s: &mut String, cr: &CopyRun) {
    let results = scored(cr);
    if results.is_empty() {
        return;
    }
    *s += "<h4>Statistics of the kept passes</h4>\n<p><table class=\"stack\" width=\"100%\">\n";
    head_row(s, &STATS_HEAD);
    for r in results {
        let Some(st) = crate::stats::of_result(r) else { continue };
        let cv = st.cv.map_or("---".to_string(), |c| format!("{:.2}%", 100.0 * c));
        let cells = [
            format!("<b>{}</b>", escape(&r.message)),
            passes_text(r),
            fmt::f1(st.min),
            fmt::f1(st.median),
            fmt::f1(st.max),
            fmt::f1(st.geomean),
            cv,
            interval(st.ci95, st.geomean),
        ];
        *s += "<tr>\n";
        for (i, (c, (h, right))) in cells.iter().zip(STATS_HEAD).enumerate() {
            cell(s, h, right, &if i == 0 { c.clone() } else { format!("<tt>{c}</tt>") });
        }
        *s += "</tr>\n";
    }
    for b in super::view::ordered_index(cr) {
        let ci = crate::stats::index_interval(b, &cr.results);
        let _ = write!(s, "<tr>\n   <td colspan=7><b>{}:</b></td>\n", score_title(b));
        cell(s, STATS_HEAD[7].0, true, &format!("<tt>{}</tt>", interval(ci, b.score)));
        *s += "</tr>\n";
    }
    *s += "</table></p>\n<p class=\"note\">Passes: those the score is made of (a disturbed pass \
          measured again is not one of them), and of them those kept (Run drops the worst third, \
          rounded down), which Run&#39;s table above heads <i>Iters.</i>; the statistics are of the \
          kept passes. Intervals: 95%, of the score as Run keeps the passes (a trimmed mean: the \
          dropped passes winsorized), on the log scale with Student&#39;s t; none below three kept \
          passes, where the interval is of no use (two give t = 12.7). ";
    match super::view::rounds(cr) {
        Some(_) => {
            let wander = escape(super::view::WANDER);
            let _ = write!(s, "An index&#39;s interval is the spread of the rounds&#39; indexes, and {wander}.");
        }
        None => *s += "An index&#39;s interval is propagated from its tests&#39; intervals, assuming the tests are independent.",
    }
    let _ = write!(s, "</p>\n<p class=\"note\"><b>{}.</b></p>\n\n", escape(&super::view::rounds_note(cr)));
    if let Some(w) = super::view::wander_warning(cr) {
        let _ = write!(s, "<p class=\"note\"><b>{}.</b></p>\n\n", escape(&w));
    }
}

/// What else the host did while each scored test ran, summed over its passes: steal time and
/// other processes' CPU as shares of the copies' CPU time, the load at its first pass's start and
/// last pass's end, the copies' involuntary switches, the CPU frequency (a column only where
/// some test has one); the disturbed marked. Written onto `s`.
pub fn noise_table(s: &mut String, cr: &CopyRun, tried: bool) {
    let results = scored(cr);
    if results.is_empty() {
        return;
    }
    let mut measured = Vec::new();
    for r in &results {
        if let Some(n) = r.noise() {
            measured.push((r, n));
        }
    }
    if measured.is_empty() && !tried {
        *s += "<p class=\"note\">Noise: not read (UB_NOISE=off, or a run that did not record it).</p>\n\n";
        return;
    }
    if measured.is_empty() {
        *s += "<p class=\"note\">Noise: not measured (/proc/stat or the copies' resource usage could not be read).</p>\n\n";
        return;
    }
    let mhz = measured.iter().any(|(_, n)| n.mhz.is_some());
    let mut heads = vec![
        ("Test", false),
        ("Steal", true),
        ("Other processes", true),
        ("Load", true),
        ("Involuntary switches", true),
        ("MHz", true),
        ("Disturbed", false),
    ];
    if !mhz {
        heads.remove(5);
    }
    *s += "<h4>Noise: what else the host did</h4>\n<p><table class=\"stack\" width=\"100%\">\n";
    head_row(s, &heads);
    for (r, n) in &measured {
        let mut cells = vec![
            format!("<b>{}</b>", escape(&r.message)),
            format!("<tt>{:.1}%</tt>", 100.0 * n.steal_share()),
            format!("<tt>{:.1}%</tt>", 100.0 * n.foreign_share()),
            format!("<tt>{:.2} &rarr; {:.2}</tt>", n.load_start, n.load_end),
            format!("<tt>{}</tt>", n.involuntary),
            format!("<tt>{}</tt>", n.mhz.map_or("---".to_string(), |m| format!("{m:.0}"))),
            verdict_cell(r),
        ];
        if !mhz {
            cells.remove(5);
        }
        *s += "<tr>\n";
        for (c, (h, right)) in cells.iter().zip(&heads) {
            cell(s, h, *right, c);
        }
        *s += "</tr>\n";
    }
    *s += "</table></p>\n";
    noise_note(s, &measured, mhz);
}

/// What the noise table's shares are, why one can pass 100%, and where the MHz went, onto `s`.
fn noise_note(s: &mut String, measured: &[(&&TestResult, Noise)], mhz: bool) {
    let _ = write!(
        s,
        "<p class=\"note\">Steal and other processes: CPU time taken from the copies, as a share of the \
         copies&#39; own CPU time, read from /proc/stat around each pass (never during it). A test is \
         disturbed above {:.0}%.",
        100.0 * crate::model::DISTURBED
    );
    if measured.iter().any(|(_, n)| n.steal_share() > 1.0 || n.foreign_share() > 1.0) {
        *s += " A share above 100%: other work used more CPU time than the copies themselves, as when the \
              copies mostly wait (on a pipe, on their children) or the host is busy.";
    }
    if !mhz {
        *s += " MHz: the CPU frequency is not known on this host (no cpufreq in /sys), so it is left out.";
    }
    *s += "</p>\n\n";
}
/// A test's verdict in the noise table: `disturbed` and why, and the passes measured again, or
/// `no`.
fn verdict_cell(r: &TestResult) -> String {
    let mut v: Vec<String> =
        r.disturbance().map(|d| format!("<b>disturbed</b> ({})", d.word())).into_iter().collect();
    v.extend(super::view::replaced_note(r).map(|n| escape(&n)));
    if v.is_empty() {
        return "no".to_string();
    }
    v.join("; ")
}

/// The end of the document: the disclaimer, the closing tags. (The verdict and the run's status
/// are in the box at the top.)
pub fn footer() -> String {
    let mut s = String::new();
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
                r.replaced =
                    vec![Replaced { pass: r.passes[0].clone(), why: Disturbance::Stopped, number: 1 }];
            }
        }
        let mut t = String::new();
        noise_table(&mut t, &run.runs[0], true);
        assert!(t.contains("<td data-label=\"Disturbed\"><b>disturbed</b> (other processes)</td>"), "{t}");
        assert!(t.contains("<td data-label=\"Disturbed\">1 pass measured again: stopped</td>"), "{t}");
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
        let standard = verdict_box(&run);
        assert!(standard.starts_with("<div class=\"verdict\"><b>A standard run.</b>"), "{standard}");
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
<div class=\"headline\">
<div><span class=\"big\">1433.1</span> System Benchmarks Index Score, 1 copy</div>
<div><span class=\"big\">3209.6</span> System Benchmarks Index Score, 2 copies</div>
<p>index 1433.1 at 1 copy, 3209.6 at 2 copies; a standard run; noise not read</p>
</div>

<p><b>BYTE UNIX Benchmarks (Version 6.0.0-compatible; unixbench 0.1.0)</b></p>

<div class=\"verdict\"><b>A standard run.</b>
<p>Noise not read (UB_NOISE=off): no test here is known to be undisturbed.</p>
</div>

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
        let mut t = String::new();
        stats_table(&mut t, &run.runs[0]);
        assert!(t.starts_with("<h4>Statistics of the kept passes</h4>\n"), "{t}");
        assert_eq!(t.matches("<tr>\n   <td data-label=\"Test\"><b>").count(), 12);
        // Every column headed, and each cell named for a phone's stacked rows.
        let heads = "<tr class=\"head\">\n   <th align=left>Test</th>\n   <th align=right>Passes</th>\n   <th align=right>Min</th>\n   <th align=right>Median</th>\n   <th align=right>Max</th>\n   <th align=right>Geometric mean</th>\n   <th align=right>CV</th>\n   <th align=right>95% interval</th>\n</tr>\n";
        assert!(t.contains(heads), "{t}");
        // The fixture's seven kept Dhrystone passes.
        let dhry = run.runs[0].results.iter().find(|r| r.name == "dhry2reg").unwrap();
        let st = crate::stats::of_result(dhry).unwrap();
        let row = format!(
            "<tr>\n   <td data-label=\"Test\"><b>Dhrystone 2 using register variables</b></td>\n   <td align=right data-label=\"Passes\"><tt>10 passes, 7 kept</tt></td>\n   <td align=right data-label=\"Min\"><tt>{}</tt></td>",
            fmt::f1(st.min)
        );
        assert!(t.contains(&row), "{t}");
        assert!(t.contains("<td colspan=7><b>System Benchmarks Index Score:</b></td>\n   <td align=right data-label=\"95% interval\"><tt>"));
        assert!(t.contains("which Run&#39;s table above heads <i>Iters.</i>"), "the one name explained: {t}");
        assert!(render(&run, fixture::START1, fmt::utc).contains(&t));
        // `low - high (-a% / +b%)`.
        let ci = crate::stats::Interval::from_ends(100.0 / 1.01, 101.0, None).unwrap();
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
        let v = verdict_box(&run);
        assert!(
            v.starts_with("<div class=\"verdict bad\">") && v.contains("<p><b>Run interrupted:</b>"),
            "{v}"
        );
        assert!(!footer().contains("interrupted"));
        let h = header(&run, fixture::START1, fmt::utc);
        assert!(h.contains("<td colspan=2>no details available</td>"));
        assert!(h.ends_with("these scores are not comparable with standard runs.</p>\n\n"));
    }

    #[test]
    fn the_verdict_is_in_the_box_at_the_top() {
        let h = render(&fixture::noisy(), fixture::START1, fmt::utc);
        let top = &h[..h.find("<h3>Test System Information</h3>").unwrap()];
        let b = &top[top.find("<div class=\"verdict bad\">").expect("a red frame above the system table")..];
        let verdict = "<p><b>1 of 12 tests was disturbed, at 2 copies; not fit to publish.</b> Disturbed:</p>\n\
                       <ul class=\"disturbed\"><li>Pipe Throughput (2 copies)</li></ul>\n\
                       <p><b>busy host: other processes used up to 6.9 times the tests&#39; CPU time (load 1.5 on \
                       2 CPUs); stop the other work and run again</b></p>\n</div>";
        assert!(b.contains("<b>A standard run.</b>") && b.contains(verdict), "{b}");
        assert_eq!(h.matches("not fit to publish").count(), 1, "said once, at the top");
        // A quiet run: a grey frame that says so.
        let mut quiet = fixture::noisy();
        for p in quiet.runs.iter_mut().flat_map(|cr| &mut cr.results).flat_map(|r| &mut r.passes) {
            p.noise.as_mut().unwrap().foreign = 0.1;
        }
        let v = verdict_box(&quiet);
        assert!(v.starts_with("<div class=\"verdict\"><b>A standard run.</b>"), "{v}");
        assert!(v.contains("<p>No test was disturbed: other work took at most 5% of each test"), "{v}");
        // Noise that could not be read leaves no test known to be undisturbed.
        quiet.runs[0].results[0].passes[0].noise = None;
        assert!(verdict_box(&quiet).contains("<p>Noise not measured ("), "{}", verdict_box(&quiet));
    }

    #[test]
    fn the_noise_table_heads_every_column_and_explains_its_shares() {
        let run = fixture::noisy();
        let mut t = String::new();
        noise_table(&mut t, &run.runs[1], true);
        let head = &t[t.find("<tr class=\"head\">").unwrap()..];
        let head = &head[..head.find("</tr>").unwrap()];
        assert!(!head.contains("></th>") && head.contains(">Disturbed</th>"), "{head}");
        assert!(!head.contains("MHz"), "no frequency known anywhere: no column: {head}");
        assert_eq!(t.matches("<td ").count(), 12 * 6, "a cell per column: {t}");
        assert!(t.contains("<td align=right data-label=\"Other processes\"><tt>685.9%</tt></td>"), "{t}");
        assert!(t.contains("<td data-label=\"Disturbed\"><b>disturbed</b> (other processes)</td>"), "{t}");
        assert!(t.contains("A share above 100%: other work used more CPU time than the copies"), "{t}");
        assert!(t.contains("MHz: the CPU frequency is not known on this host"), "{t}");
        // At 1 copy no share passes 100%; a frequency known for one test brings the column.
        let mut one = run.runs[0].clone();
        one.results[0].passes[0].noise.as_mut().unwrap().mhz = Some(2400.0);
        let mut t = String::new();
        noise_table(&mut t, &one, true);
        assert!(!t.contains("A share above 100%") && !t.contains("MHz: the CPU"), "{t}");
        assert!(t.contains(">MHz</th>") && t.contains("<tt>2400</tt>") && t.contains("<tt>---</tt>"), "{t}");
        assert_eq!(t.matches("<td ").count(), 12 * 7, "{t}");
    }

    #[test]
    fn on_a_phone_runs_tables_stack_with_their_columns_named() {
        let h = head("t");
        let css = &h[h.find("@media (max-width: 40em) {\n      table {").expect("the tables' phone style")..];
        assert!(css.contains("table[width] tr:first-child { display: none; }"), "{css}");
        for (i, name) in ["Score", "Unit", "Time", "Iters.", "Baseline", "Index"].iter().enumerate() {
            let rule =
                format!("td:nth-child({}):not([colspan] ~ td)::before {{ content: \"{name}: \";", i + 2);
            assert!(css.contains(&rule), "{rule}: {css}");
        }
        assert!(css.contains("table.stack td[data-label]::before { content: attr(data-label)"), "{css}");
    }
}
