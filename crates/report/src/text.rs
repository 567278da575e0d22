//! The text report and the console strings, byte for byte as UnixBench's `Run` writes them
//! (docs/ORIGINAL.md, "Console" and "Text report"). This layout is an interface: scripts written
//! over twenty years parse it.
//!
//! Classic lines keep their exact shapes. What `Run` never had to say (a failed or skipped test,
//! durations changed with `-t`, an interrupted run) goes on lines that start with `** `, placed
//! where no classic parser looks: after the index blocks of a `Benchmark Run:` block (failures
//! and skips, named by test name), after the system block of the header (`-t`), and at the end
//! of the report (interrupted). No classic line starts with `*`, and a failed or skipped test
//! has no result line and no index row, so a parser sees it exactly as a test that was not run.

use super::fmt::{self, Tm, Zone};
use super::view::{
    busy_line, disturbed_reason, disturbed_verdict, duration_note, interval, not_standard_note,
    ordered_index, passes_text, remeasure_note, replaced_note, rounds, rounds_note, rounds_settings_note,
    score_title, scored, static_image_note, status_note, unscored_reason, wander_warning, Note, QUICK_LEAD,
    ROUNDS_LEAD,
};
use crate::model::{Category, CopyRun, IndexBlock, Run, Settings, SystemInfo, TestResult, Verbosity};
use std::fmt::Write as _;

/// The ASCII-art "UNIX BENCH", in the style of `banner(1)`.
const ART: [&str; 6] = [
    "   #    #  #    #  #  #    #          #####   ######  #    #   ####   #    #",
    "   #    #  ##   #  #   #  #           #    #  #       ##   #  #    #  #    #",
    "   #    #  # #  #  #    ##            #####   #####   # #  #  #       ######",
    "   #    #  #  # #  #    ##            #    #  #       #  # #  #       #    #",
    "   #    #  #   ##  #   #  #           #    #  #       #   ##  #    #  #    #",
    "    ####   #    #  #  #    #          #####   ######  #    #   ####   #    #",
];

/// Two columns, the right one starting at column 39 as in UnixBench's logo.
fn two_col(left: &str, right: &str) -> String {
    format!("{left:<38}{right}\n")
}

/// The banner printed on the console before the run (UnixBench's `unixbench.logo`), with our
/// version lines. `pkg_version` is this crate's version, `release` the UnixBench whose
/// semantics the run follows (`6.0.0`, `5.1.3`).
pub fn logo(pkg_version: &str, release: &str) -> String {
    let mut s = String::from("\n");
    for l in ART {
        s.push_str(l);
        s.push('\n');
    }
    s.push('\n');
    s += &two_col(&format!("   Version {release}-compatible"), "Based on the Byte Magazine Unix Benchmark");
    s.push('\n');
    s += &two_col("   Multi-CPU version", "Version 5 revisions by Ian Smith,");
    s += &two_col("", "Sunnyvale, CA, USA");
    s += &two_col(&format!("   unixbench {pkg_version}"), "One static binary, kernels and driver");
    s.push('\n');
    s
}

/// The "Use directories for:" block printed after the logo (docs/ORIGINAL.md, "Console", step 2).
pub fn directories(tmpdir: &str, resultdir: &str) -> String {
    let rule = "-".repeat(78);
    format!(
        "{rule}\n   Use directories for:\n      * File I/O tests (named fs***) = {tmpdir}\n      * Results                      = {resultdir}\n{rule}\n\n"
    )
}

/// Printed on the console when a test starts: `\n<copies> x <message> `.
pub fn progress_test(copies: usize, message: &str) -> String {
    format!("\n{copies} x {message} ")
}

/// Printed on the console when a quick run measures a test again after the others at its copy
/// count; its passes number on. Not Run's line: a wrapper that counts `^N x <test>` lines
/// counts each test once.
pub fn progress_again(copies: usize, message: &str) -> String {
    format!("\nMeasured again: {copies} x {message} ")
}

/// Printed on the console just before each pass runs: ` <pass number>` (from 1).
pub fn progress_pass(pass: usize) -> String {
    format!(" {pass}")
}

/// Printed on the console when a test ends.
pub const PROGRESS_END: &str = "\n";

/// Printed on the console before the report itself: `\n` and a rule of 72 `=`.
pub fn console_rule() -> String {
    format!("\n{}\n", "=".repeat(72))
}

/// The whole text report: header, one block per copy count, footer.
pub fn report(run: &Run) -> String {
    report_in(run, fmt::local)
}

/// [`report`] with dates in the given zone.
pub fn report_in(run: &Run, zone: Zone) -> String {
    let mut s = header(run);
    for cr in &run.runs {
        s += &block_in(&run.system, cr, zone);
        if run.settings.quick.is_some() || run.settings.seed.is_some() {
            s += &quick_notes(cr);
        }
    }
    s += &footer(run);
    s
}

/// The report as a person reads it on a terminal; the file and a pipe get [`report`]'s, which
/// scripts read. The classic blocks as they are, but each note says in a line what it means for
/// the reader (the method is docs/REPORTS.md's and the HTML's): a quick run's that its figures
/// are not a standard run's, an interval's where the true index probably is, the disturbed
/// tests named in one line. Each `** ` line is wrapped at `width`, and the index scores stand
/// apart at the end, under a rule, in bold where `bold`. Dates in the given zone.
pub fn for_person(run: &Run, zone: Zone, width: usize, bold: bool) -> String {
    let mut s = String::new();
    // The header's notes wrapped, but a quick run's three (not standard, rounds, quick: the
    // method) said in one line, and the rounds' left to the index's line.
    let quick = run.settings.quick;
    let method = |l: &str| quick.is_some() || l[3..].starts_with(ROUNDS_LEAD);
    rewrapped(&mut s, &header(run), width, &method);
    if let Some(budget) = quick {
        let q = format!(
            "A quick run ({budget:.0} s budget): its passes are shorter than a standard run's, so its \
             figures are not comparable with a standard run's."
        );
        wrapped(&mut s, &q, width);
        s.push('\n');
    }
    for cr in &run.runs {
        s += &block_body(&run.system, cr, zone);
        let notes = person_notes(cr);
        for line in &notes {
            wrapped(&mut s, line, width);
        }
        if !notes.is_empty() {
            s.push('\n');
        }
    }
    let rule = "=".repeat(width.min(72));
    let (on, off) = if bold { ("\x1b[1m", "\x1b[0m") } else { ("", "") };
    let _ = writeln!(s, "{rule}");
    for cr in &run.runs {
        for b in ordered_index(cr) {
            let copies = fmt::number(Some(cr.copies), "copy", "copies");
            let _ = writeln!(s, "{on}{}: {} ({copies}){off}", score_title(b), fmt::f1(b.score));
        }
    }
    let _ = writeln!(s, "{rule}\n");
    rewrapped(&mut s, &footer(run), width, &|_| false);
    s
}

/// `text`'s lines onto `s`: each `** ` note [`wrapped`], but those `drop` picks left out, with
/// the blank line after them; every other line as it is.
fn rewrapped(s: &mut String, text: &str, width: usize, drop: &dyn Fn(&str) -> bool) {
    let mut dropped = false;
    for line in text.lines() {
        if let Some(note) = line.strip_prefix("** ") {
            dropped = drop(line);
            if !dropped {
                wrapped(s, note, width);
            }
        } else if !(dropped && line.is_empty()) {
            s.push_str(line);
            s.push('\n');
        }
    }
}

/// What a copy count's notes mean for a person, a line each: where each index probably is,
/// the warning of a host that moved too far, the tests disturbed and measured again.
fn person_notes(cr: &CopyRun) -> Vec<String> {
    let mut lines = Vec::new();
    for b in ordered_index(cr) {
        let Some(ci) = crate::stats::index_interval(b, &cr.results) else { continue };
        let over = rounds(cr).map_or(String::new(), |r| format!(" over {} rounds", r.count));
        let partial = if b.partial { "partial " } else { "" };
        let what = match b.category {
            Category::System => format!("{partial}index"),
            c => format!("{partial}{} index", c.display()),
        };
        let (low, high) = (fmt::f1(ci.low), fmt::f1(ci.high));
        let range = if low == high { low } else { format!("between {low} and {high}") };
        lines.push(format!("The true {what} is probably {range} (its 95% interval{over})."));
    }
    lines.extend(wander_warning(cr));
    let named = |pick: fn(&TestResult) -> bool| {
        let mut names = String::new();
        for r in scored(cr) {
            if pick(r) {
                names += if names.is_empty() { "" } else { ", " };
                names += &r.name;
            }
        }
        names
    };
    let disturbed = named(|r| disturbed_reason(r).is_some());
    if !disturbed.is_empty() {
        lines.push(format!("Disturbed: {disturbed} (other work took their time; the report file says how)."));
    }
    let again = named(|r| replaced_note(r).is_some());
    if !again.is_empty() {
        lines.push(format!("Measured again, a pass disturbed: {again}."));
    }
    lines
}

/// `text` as `** ` lines of at most `width` characters, wrapped between words, each further
/// line indented under the first's text.
fn wrapped(s: &mut String, text: &str, width: usize) {
    let mut line = String::from("**");
    for word in text.split(' ') {
        if line.len() > 3 && line.len() + 1 + word.len() > width {
            s.push_str(&line);
            s.push('\n');
            line = String::from("  ");
        }
        line.push(' ');
        line.push_str(word);
    }
    s.push_str(&line);
    s.push('\n');
}

/// The report's header: the banner line, the system block (docs/ORIGINAL.md, "Report header")
/// and, for a run that is not standard, a note saying why (every reason), then the notes on a
/// quick run, on durations changed with `-t`, on `--remeasure`.
pub fn header(run: &Run) -> String {
    let mut s = format!("   BYTE UNIX Benchmarks (Version {})\n\n", run.version);
    system_block(&mut s, &run.system, run.settings.verbosity == Verbosity::Brief);
    note_line(&mut s, not_standard_note(run));
    settings_note(&mut s, &run.settings);
    s
}

fn system_block(s: &mut String, sys: &SystemInfo, brief: bool) {
    let _ = write!(
        s,
        "   System: {}: {}\n   OS: {} -- {} -- {}\n   Machine: {} ({})\n   Language: {}\n",
        sys.hostname,
        sys.system,
        sys.os,
        sys.os_release,
        sys.os_version,
        sys.machine,
        sys.platform,
        sys.language
    );
    if sys.cpus.is_empty() {
        if !brief {
            s.push_str("   CPU: no details available\n");
        }
    } else {
        for (i, cpu) in sys.cpus.iter().enumerate() {
            let _ = write!(
                s,
                "   CPU {i}: {} ({} bogomips)\n          {}\n",
                cpu.model,
                fmt::f1(cpu.bogomips),
                cpu.flags
            );
        }
    }
    if let Some(l) = sys.cpu_limit.as_ref().and_then(|l| l.cgroup_line()) {
        let _ = writeln!(s, "   CPU limit: {l}");
    }
    if let Some(g) = sys.graphics.as_deref().filter(|g| !g.is_empty()) {
        let _ = writeln!(s, "   Graphics: {g}");
    }
    let _ = write!(s, "   {}; runlevel {}\n\n", sys.uptime, sys.runlevel);
}

fn settings_note(s: &mut String, settings: &Settings) {
    note_line(s, rounds_settings_note(settings));
    if let Some(budget) = settings.quick {
        let _ = write!(
            s,
            "** {QUICK_LEAD} (--quick, {budget:.0} s budget): shorter passes, each test stopped when the 95% \
             interval of its score was within +-1% or its share of the budget was spent, a \
             disturbed pass measured again; the intervals follow each block. With rounds they hold \
             the host's speed wandering between rounds; a drift slower than the run needs runs \
             spread over time, pooled (unixbench compare --pool).\n\n"
        );
        return;
    }
    note_line(s, duration_note(settings));
    note_line(s, remeasure_note(settings));
}

/// A note as the text report prints it: `** lead rest`, then a blank line; nothing for none.
fn note_line(s: &mut String, n: Option<Note>) {
    if let Some(n) = n {
        let _ = write!(s, "** {} {}\n\n", n.lead, n.rest);
    }
}

/// The end of the report: a note when the run was interrupted or is still going, and the verdict
/// on a run some of whose tests were disturbed, with the busy host's line; else nothing.
pub fn footer(run: &Run) -> String {
    let mut s = String::new();
    for line in [disturbed_verdict(run), busy_line(run)].iter().flatten() {
        let _ = write!(s, "** {line}\n\n");
    }
    // When the driver tried to read the host's noise and could not (no /proc/stat), the one line
    // that says so: then no test can be called disturbed, nor quiet.
    let missing = run.runs.iter().flat_map(|cr| &cr.results).any(|r| r.ok() && r.noise().is_none());
    if run.settings.noise && missing {
        s += "** Noise not measured: /proc/stat or the copies' resource usage could not be read, so no \
              test here is known to be undisturbed.\n\n";
    }
    note_line(&mut s, status_note(run));
    s
}

/// One `Benchmark Run:` block (docs/ORIGINAL.md, "Run block" and "Index block"), dates in the given
/// zone.
pub fn block_in(sys: &SystemInfo, cr: &CopyRun, zone: Zone) -> String {
    let mut s = block_body(sys, cr, zone);
    disturbed_notes(&mut s, cr);
    s
}

/// A block without its disturbed notes, which a person's report says shorter.
fn block_body(sys: &SystemInfo, cr: &CopyRun, zone: Zone) -> String {
    let (start, end): (Tm, Tm) = (zone(cr.start), zone(cr.end));
    let mut s = format!("{}\n", "-".repeat(72));
    let _ = writeln!(s, "Benchmark Run: {} {} - {}", fmt::date(&start), fmt::hms(&start), fmt::hms(&end));
    let _ = write!(
        s,
        "{} in system; running {} of tests\n\n",
        fmt::number(sys.cpu_count, "CPU", "CPUs"),
        fmt::number(Some(cr.copies), "parallel copy", "parallel copies")
    );
    for r in scored(cr) {
        result_line(&mut s, r);
    }
    s.push('\n');
    for b in ordered_index(cr) {
        index_block(&mut s, b);
    }
    s += &index4_block(cr);
    if let Some(note) = static_image_note(cr) {
        let _ = writeln!(s, "** {note}\n");
    }
    unscored_notes(&mut s, cr);
    s
}

/// `** disturbed: <test> (...)` for each scored test that was disturbed (`model::DISTURBED`),
/// `** replaced: <test> (...)` for each whose disturbed passes were measured again, then an
/// empty line; nothing otherwise.
fn disturbed_notes(s: &mut String, cr: &CopyRun) {
    let start = s.len();
    for r in scored(cr) {
        if let Some(what) = replaced_note(r) {
            let _ = writeln!(s, "** replaced: {} ({what})", r.name);
        }
        if let Some(why) = disturbed_reason(r) {
            let _ = writeln!(s, "** disturbed: {} ({why})", r.name);
        }
    }
    if s.len() > start {
        s.push('\n');
    }
}

/// UnixBench 4.0's INDEX VALUES block, after the usual blocks, when every one of its eleven
/// tests has a score in this copy run (the `index4` group), so a 4.0-era comparison needs no
/// second run. Empty otherwise: 4.0 had no partial index.
pub fn index4_block(cr: &CopyRun) -> String {
    use super::index4;
    let mut scores: Vec<(&str, f64)> = Vec::new();
    for r in cr.results.iter().filter(|r| r.ok()) {
        scores.push((&r.name, r.score));
    }
    if !index4::INDEX4_TESTS.iter().all(|t| scores.iter().any(|(n, _)| n == t)) {
        return String::new();
    }
    let mut s = index4::format(&index4::compute(&scores));
    s.push('\n');
    s
}

/// `%-40s %12.1f %-5s (%.1f s, %d samples)`.
pub fn result_line(s: &mut String, r: &TestResult) {
    let _ = writeln!(
        s,
        "{:<40} {:>12} {:<5} ({} s, {} samples)",
        r.message,
        fmt::f1(r.score),
        r.unit,
        fmt::f1(r.time),
        r.kept.len()
    );
}

/// One index block (docs/ORIGINAL.md, "Index block"), ending with its empty line.
pub fn index_block(s: &mut String, b: &IndexBlock) {
    let head =
        format!("{}{}", b.category.display(), if b.partial { " Partial Index" } else { " Index Values" });
    let _ = writeln!(s, "{:<40} {:>12} {:>12} {:>8}", head, "BASELINE", "RESULT", "INDEX");
    for row in &b.rows {
        match (row.baseline, row.index) {
            (Some(base), Some(index)) => {
                let _ = writeln!(
                    s,
                    "{:<40} {:>12} {:>12} {:>8}",
                    row.message,
                    fmt::f1(base),
                    fmt::f1(row.score),
                    fmt::f1(index)
                );
            }
            _ => {
                let _ =
                    writeln!(s, "{:<40} {:>12} {:>12} {:>8}", row.message, "---", fmt::f1(row.score), "---");
            }
        }
    }
    let _ = writeln!(s, "{:<40} {:>12} {:>12} {:>8}", "", "", "", "========");
    let _ = write!(s, "{:<66} {:>8}\n\n", score_title(b), fmt::f1(b.score));
}

/// A quick run's `** ` lines after a block: each scored test's 95% interval and pass count,
/// each index's interval propagated from them, what the rounds saw and, past
/// `view::MOVED_TOO_FAR`, the warning. Tests are named by test name, as the other notes.
pub fn quick_notes(cr: &CopyRun) -> String {
    let mut s = String::from("** 95% intervals (geometric mean, log scale, Student's t):\n");
    for r in scored(cr) {
        let Some(st) = crate::stats::of_result(r) else { continue };
        let what = match st.ci95 {
            Some(_) => interval(st.ci95, st.geomean),
            None if st.n == 2 => "no interval of use (two kept passes: t = 12.7)".to_string(),
            None => "no interval".to_string(),
        };
        let _ = writeln!(s, "** {}: {what}, {}", r.name, passes_text(r));
    }
    for b in ordered_index(cr) {
        let ci = crate::stats::index_interval(b, &cr.results);
        let from = match rounds(cr) {
            Some(r) => {
                format!("the spread of {} rounds' indexes, with the host's wander between them", r.count)
            }
            None => "propagated from the tests' (assumed independent)".to_string(),
        };
        let what = match ci {
            Some(_) => format!("{}, {from}", interval(ci, b.score)),
            None => "no interval (a test has none)".to_string(),
        };
        let _ = writeln!(s, "** index {}: {what}", b.category.key());
    }
    let _ = writeln!(s, "** {}", rounds_note(cr));
    if let Some(w) = wander_warning(cr) {
        let _ = writeln!(s, "** {w}");
    }
    s.push('\n');
    s
}

/// `** <test>: failed: <why>` / `** <test>: skipped: <why>` lines, in run order, then an empty
/// line; nothing when every test has a score. Tests are named by the name that runs them again
/// (`unixbench run execl`), not by message, so that a `grep "<message>"` finds no stray line.
fn unscored_notes(s: &mut String, cr: &CopyRun) {
    let start = s.len();
    for r in &cr.results {
        if let Some(why) = unscored_reason(r) {
            let _ = writeln!(s, "** {}: {}", r.name, why);
        }
    }
    if s.len() > start {
        s.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;

    #[test]
    fn noise_that_could_not_be_read_is_said_and_disturbed_tests_are_named() {
        let mut run = fixture::reference();
        assert!(!footer(&run).contains("Noise not measured"), "a run that did not try says nothing");
        run.settings.noise = true;
        assert!(footer(&run).starts_with("** Noise not measured: /proc/stat"), "{}", footer(&run));
        // Every pass measured, one test far past the threshold.
        for cr in &mut run.runs {
            for r in &mut cr.results {
                for p in &mut r.passes {
                    let foreign = if r.name == "pipe" { 0.5 } else { 0.0 };
                    p.noise = Some(crate::model::Noise { copies_cpu: 1.0, foreign, ..Default::default() });
                }
            }
        }
        let f = footer(&run);
        assert!(
            f.starts_with(
                "** 1 of 12 tests was disturbed, at both copy counts; not fit to publish.\n\n** busy host: "
            ) && !f.contains("Noise not"),
            "{f}"
        );
        let b = block_in(&run.system, &run.runs[0], fmt::utc);
        assert!(
            b.contains(
                "** disturbed: pipe (other processes 50.0% and steal 0.0% of its copies' CPU time, over 5%)"
            ),
            "{b}"
        );
        // Past 100%, the line says what that means.
        let mut busy = run.runs[0].clone();
        for r in &mut busy.results {
            for p in &mut r.passes {
                if let Some(n) = p.noise.as_mut() {
                    n.foreign = 6.859 * n.copies_cpu;
                }
            }
        }
        let busy = block_in(&run.system, &busy, fmt::utc);
        assert!(
            busy.contains("other processes 685.9% and steal 0.0% of its copies' CPU time, over 5%; other processes used 6.9 times the copies' own CPU time)"),
            "{busy}"
        );
        assert_eq!(b.matches("disturbed").count(), 1, "{b}");
    }

    #[test]
    fn stopped_passes_and_passes_measured_again_are_named_on_star_lines() {
        use crate::model::{Disturbance, Noise, Replaced};
        let mut run = fixture::reference();
        let quiet = Noise { copies_cpu: 1.0, wall: 1.0, idle: 1.0, ..Default::default() };
        for r in run.runs.iter_mut().flat_map(|cr| &mut cr.results) {
            for (i, p) in r.passes.iter_mut().enumerate() {
                let stopped = Noise { copies_cpu: 0.4, idle: 1.6, ..quiet };
                p.noise = Some(if r.name == "pipe" && i == 1 { stopped } else { quiet });
            }
            if r.name == "syscall" {
                let pass = r.passes[0].clone();
                r.replaced = vec![Replaced { pass: pass.clone(), why: Disturbance::Others, number: 1 }];
                r.replaced.push(Replaced { pass, why: Disturbance::Stopped, number: 2 });
            }
        }
        let classic = block_in(&fixture::reference().system, &fixture::reference().runs[0], fmt::utc);
        let b = block_in(&run.system, &run.runs[0], fmt::utc);
        assert!(b.contains("** disturbed: pipe (stopped: a pass's CPUs sat idle, with nothing else to run, past 25% of its copies' CPU time)\n"), "{b}");
        assert!(
            b.contains("** replaced: syscall (2 passes measured again: other processes, stopped)\n"),
            "{b}"
        );
        // Nothing else changed: the classic lines are the same lines.
        let stars = |t: &str| {
            t.lines().filter(|l| !l.starts_with("** ") && !l.is_empty()).map(String::from).collect::<Vec<_>>()
        };
        assert_eq!(stars(&b), stars(&classic));
        // A standard run that measured again says so, and stays standard.
        run.settings.remeasure = true;
        let h = header(&run);
        assert!(
            h.contains("** Disturbed passes measured again (--remeasure): ") && h.contains("still standard"),
            "{h}"
        );
    }

    #[test]
    fn a_person_reads_the_notes_for_what_they_mean_and_the_index_set_apart() {
        let mut quick = super::super::fixture::quick_with_pipe_disturbed();
        quick.settings.seed = Some(7);
        let file = report_in(&quick, fmt::utc);
        let person = for_person(&quick, fmt::utc, 80, true);
        // Every classic line is there as the file has it; the method's notes are not.
        let classic = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with("** ") && !l.starts_with("   ") && !l.is_empty())
                .map(String::from)
                .collect()
        };
        for l in classic(&file) {
            assert!(person.lines().any(|p| p == l), "{l:?} missing from:\n{person}");
        }
        assert!(
            !person.contains("95% intervals (geometric mean") && !person.contains("Rounds (seed"),
            "{person}"
        );
        assert!(
            person.contains("** A quick run (100 s budget): its passes are shorter than a standard run's,"),
            "{person}"
        );
        assert!(person.contains("** The true index is probably "), "{person}");
        assert!(person.contains("** Disturbed: pipe (other work took their time"), "{person}");
        // No line wider than the terminal but the classic ones, which keep their shape.
        let notes = &person[person.find("** A quick run").unwrap()..];
        for l in notes.lines().filter(|l| l.starts_with("**") || l.starts_with("   ")) {
            assert!(l.len() <= 80, "{l:?}");
        }
        // The index set apart at the end: a rule, then each copy count's score in bold.
        let at = person.find(&format!("{}\n\x1b[1mSystem Benchmarks Index Score: ", "=".repeat(72)));
        let end = &person[at.unwrap_or_else(|| panic!("{person}"))..];
        let scores: Vec<&str> = end.lines().filter(|l| l.starts_with('\x1b')).collect();
        assert_eq!(scores.len(), quick.runs.len(), "{end}");
        assert!(
            scores[0].ends_with(" (1 copy)\x1b[0m") && scores[1].ends_with(" (2 copies)\x1b[0m"),
            "{end}"
        );
        let plain = for_person(&quick, fmt::utc, 80, false);
        assert!(!plain.contains('\x1b') && plain.contains("\nSystem Benchmarks Index Score: "), "{plain}");
        // The file as it was.
        assert_eq!(file, report_in(&quick, fmt::utc));
    }

    #[test]
    fn quick_run_adds_only_star_lines() {
        // A quick run's report: the classic lines of the standard report, unchanged, plus `** `
        // lines (a header note, each block's intervals) that no classic parser matches.
        let standard = super::super::fixture::reference();
        let mut quick = standard.clone();
        quick.settings.quick = Some(336.0);
        let (a, b) = (report_in(&standard, fmt::utc), report_in(&quick, fmt::utc));
        let classic: Vec<&str> = b.lines().filter(|l| !l.starts_with("** ") && !l.is_empty()).collect();
        let plain: Vec<&str> = a.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(classic, plain);
        assert!(b.contains("** Quick run (--quick, 336 s budget): shorter passes"), "{b}");
        let notes = quick_notes(&quick.runs[0]);
        assert!(
            notes.starts_with("** 95% intervals (geometric mean, log scale, Student's t):\n** dhry2reg: "),
            "{notes}"
        );
        assert_eq!(
            notes.lines().count(),
            1 + 12 + 1 + 1 + 1,
            "heading, 12 tests, the index, rounds, a blank"
        );
        assert!(
            notes.contains("\n** no rounds: passes back to back, so the intervals cannot see"),
            "{notes}"
        );
        // Two kept passes: an interval of no use is not printed, and the line says why.
        assert!(
            notes.contains("\n** execl: no interval of use (two kept passes: t = 12.7), 3 passes, 2 kept\n"),
            "{notes}"
        );
        let dhry = quick.runs[0].results.iter().find(|r| r.name == "dhry2reg").unwrap();
        let st = crate::stats::of_result(dhry).unwrap();
        let line = format!("** dhry2reg: {}, 10 passes, 7 kept\n", interval(st.ci95, st.geomean));
        assert!(notes.contains(&line), "{notes}");
        assert!(notes.contains("** index system: "), "{notes}");
        assert!(notes.contains(", propagated from the tests' (assumed independent)\n"), "{notes}");
        assert!(notes.ends_with("\n\n"));
    }

    #[test]
    fn reference_blocks_byte_for_byte() {
        let run = fixture::reference();
        let mut got = String::new();
        for cr in &run.runs {
            got += &block_in(&run.system, cr, fmt::utc);
        }
        assert_eq!(got, include_str!("../../../tests/fixtures/report/index-c1-c2.txt"));
    }

    #[test]
    fn reference_header() {
        let run = fixture::reference();
        let want = "   BYTE UNIX Benchmarks (Version 6.0.0-compatible; unixbench 0.1.0)

   System: vm: Debian GNU/Linux 12 (bookworm)
   OS: GNU/Linux -- 6.18.44-fc-v657 -- #1 SMP PREEMPT_DYNAMIC @0
   Machine: x86_64 (unknown)
   Language: en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")
   CPU 0: AMD EPYC (5192.2 bogomips)
          Hyper-Threading, x86-64, MMX, AMD MMX, Physical Address Ext, SYSENTER/SYSEXIT, SYSCALL/SYSRET
   CPU 1: AMD EPYC (5192.2 bogomips)
          Hyper-Threading, x86-64, MMX, AMD MMX, Physical Address Ext, SYSENTER/SYSEXIT, SYSCALL/SYSRET
   00:05:42 up 5 min,  0 user,  load average: 1.51, 0.62, 0.23; runlevel 5

";
        assert_eq!(header(&run), want);
        // The whole report is the header, the blocks and an empty footer.
        let whole = report_in(&run, fmt::utc);
        assert_eq!(
            whole,
            format!("{want}{}", include_str!("../../../tests/fixtures/report/index-c1-c2.txt"))
        );
    }

    #[test]
    fn troubled_run() {
        let run = fixture::troubled();
        let want = "   BYTE UNIX Benchmarks (Version 6.0.0-compatible; unixbench 0.1.0)

   System: h<&>: Debian GNU/Linux 12 (bookworm)
   OS: GNU/Linux -- 6.18.44-fc-v657 -- #1 SMP PREEMPT_DYNAMIC @0
   Machine: x86_64 (unknown)
   Language: en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")
   CPU: no details available
   00:05:42 up 5 min,  0 user,  load average: 1.51, 0.62, 0.23; runlevel unknown

** Not a standard run (short): durations set with -t 2, with shorter settles; -i 3: other pass counts than Run's 10 and 3; not comparable with standard runs.

** Durations set with -t 2: each test ran 2 s instead of its standard 10, 30 or 60 s; these scores are not comparable with standard runs.

------------------------------------------------------------------------
Benchmark Run: Mon Nov 30 2026 00:05:42 - 00:06:57
unknown CPUs in system; running 1 parallel copy of tests

Dhrystone 2 using register variables     12345678901234.5 lps   (2.0 s, 2 samples)
Grep a large file (system's grep)             48834.0 lpm   (2.0 s, 2 samples)
Recursion Test -- Tower of Hanoi, a message far too long for its column     981597.6 lps   (2.0 s, 2 samples)

System Benchmarks Partial Index              BASELINE       RESULT    INDEX
Dhrystone 2 using register variables         116700.0 12345678901234.5 1057898706.1
                                                                   ========
System Benchmarks Index Score (Partial Only)                       1057898706.1

Non-Index Benchmarks Partial Index           BASELINE       RESULT    INDEX
Grep a large file (system's grep)                25.0      48834.0  19533.6
Recursion Test -- Tower of Hanoi, a message far too long for its column          ---     981597.6      ---
                                                                   ========
Non-Index Benchmarks Index Score (Partial Only)                     19533.6

** execl: failed: command returned status 256 / execl: <cannot exec> & \"quoted\"
** C: skipped: no C compiler (cc or gcc) on this host

** Run interrupted: the results above are incomplete, and copy counts not shown did not run.

";
        assert_eq!(report_in(&run, fmt::utc), want);
    }

    /// What a classic parser keys on: a result line (`... (x s, n samples)`), an index row or
    /// header, a score line. Every line of a troubled report is either one of Run's shapes or a
    /// `** ` note, and no note has a classic line's markers.
    #[test]
    fn notes_never_look_like_classic_lines() {
        let report = report_in(&fixture::troubled(), fmt::utc);
        let notes: Vec<&str> = report.lines().filter(|l| l.starts_with("** ")).collect();
        assert_eq!(notes.len(), 5, "{report}");
        for n in notes {
            for marker in [
                " samples)",
                "Index Score",
                "Index Values",
                "Partial Index",
                "BASELINE",
                "========",
                "Benchmark Run:",
            ] {
                assert!(!n.contains(marker), "{n:?} contains {marker:?}");
            }
            // A note never starts with a test's message, so `grep '^Execl Throughput'` misses it.
            assert!(!n.starts_with("** Execl") && !n.starts_with("** C Compiler"));
        }
        let classic = |l: &str| {
            l.is_empty()
                || l.starts_with("   ")
                || l.starts_with("Benchmark Run: ")
                || l.ends_with(" of tests")
                || l.ends_with(" samples)")
                || l.chars().all(|c| c == '-')
                || l.contains("BASELINE")
                || l.trim_start().starts_with("========")
                || l.contains("Index Score")
                || l.split_whitespace().count() >= 3
        };
        for l in report.lines().filter(|l| !l.starts_with("** ")) {
            assert!(classic(l), "unexpected line {l:?}");
        }
    }

    /// The reference run with execl and spawn marked as having timed `kind`.
    fn with_image(kind: &str, detail: &str) -> Run {
        let mut run = fixture::reference();
        for cr in &mut run.runs {
            for r in cr.results.iter_mut().filter(|r| r.name == "execl" || r.name == "spawn") {
                for c in r.passes.iter_mut().flat_map(|p| &mut p.copies) {
                    c.image = Some(crate::model::ExecImage { kind: kind.into(), detail: detail.into() });
                }
            }
        }
        run
    }

    #[test]
    fn a_static_exec_image_gets_one_note_after_the_index_block() {
        let plain = report_in(&fixture::reference(), fmt::utc);
        let dynamic = report_in(&with_image("dynamic-glibc", "/lib64/ld-linux-x86-64.so.2"), fmt::utc);
        assert_eq!(plain, dynamic, "a dynamic image changes nothing in the text report");
        let report = report_in(&with_image("static", "no C library loader on this host"), fmt::utc);
        let note = "** execl and spawn ran on the static image (no C library loader on this host): \
                    not comparable with the C suite's figures";
        assert_eq!(report.matches(note).count(), 2, "one per block:\n{report}");
        // Everything else is the plain report: the note and its blank line are all it adds, with
        // the header's note of a run not standard.
        let kind = "** Not a standard run (static image): Process Creation timed this static binary, \
                    not the dynamically linked C program; not comparable with standard runs.\n\n";
        assert_eq!(report.matches(kind).count(), 1, "{report}");
        let without: String = report.replace(&format!("{note}\n\n"), "").replace(kind, "");
        assert_eq!(without, plain);
        let before: Vec<&str> = report[..report.find(note).unwrap()].lines().rev().take(2).collect();
        assert!(
            before[0].is_empty() && before[1].starts_with("System Benchmarks Index Score "),
            "{before:?}"
        );
    }

    #[test]
    fn brief_mode_prints_no_cpu_line() {
        let mut run = fixture::troubled();
        run.settings.verbosity = Verbosity::Brief;
        assert!(!header(&run).contains("CPU"));
    }

    #[test]
    fn console_strings() {
        assert_eq!(
            progress_test(1, "Dhrystone 2 using register variables")
                + &progress_pass(1)
                + &progress_pass(2)
                + PROGRESS_END,
            "\n1 x Dhrystone 2 using register variables  1 2\n"
        );
        assert_eq!(
            progress_again(2, "Pipe Throughput") + &progress_pass(4) + PROGRESS_END,
            "\nMeasured again: 2 x Pipe Throughput  4\n"
        );
        assert_eq!(console_rule(), format!("\n{}\n", "=".repeat(72)));
        let want = "\
------------------------------------------------------------------------------
   Use directories for:
      * File I/O tests (named fs***) = /opt/ub/tmp
      * Results                      = /opt/ub/results
------------------------------------------------------------------------------

";
        assert_eq!(directories("/opt/ub/tmp", "/opt/ub/results"), want);
    }

    #[test]
    fn logo_layout() {
        let logo = logo("1.2.3", "6.0.0");
        let lines: Vec<&str> = logo.split('\n').collect();
        // A blank line, 6 art lines, a blank, the version line, a blank, 3 credit lines, a blank.
        assert_eq!(lines.len(), 15, "{logo}");
        assert_eq!(lines[0], "");
        assert!(lines[1..7].iter().all(|l| l.starts_with("   #") || l.starts_with("    #")));
        assert_eq!(
            lines[8],
            "   Version 6.0.0-compatible           Based on the Byte Magazine Unix Benchmark"
        );
        assert_eq!(&lines[12][..38], format!("{:<38}", "   unixbench 1.2.3"));
        for l in [8, 10, 11, 12] {
            assert_ne!(lines[l].as_bytes()[38], b' ', "right column starts at 39: {:?}", lines[l]);
            assert_eq!(lines[l].as_bytes()[37], b' ');
        }
        assert_eq!(lines[13], "");
        assert_eq!(lines[14], "");
    }
}

#[cfg(test)]
mod index4_tests {
    use super::*;

    fn scored(name: &str, score: f64) -> TestResult {
        TestResult { name: name.into(), message: name.into(), score, kept: vec![0], ..Default::default() }
    }

    /// The first UnixBench 4.0 report of the published comparison, through the report path.
    #[test]
    fn index4_block_appears_when_all_eleven_ran() {
        let results: [(&str, f64); 11] = [
            ("double", 52816.5),
            ("dhry2reg", 320194.7),
            ("execl", 228.9),
            ("fstime", 26404.0),
            ("fsbuffer", 12077.0),
            ("fsdisk", 30985.0),
            ("pipe", 78503.4),
            ("context1", 16497.7),
            ("spawn", 906.2),
            ("shell8", 83.0),
            ("syscall", 51661.8),
        ];
        let mut cr = CopyRun { copies: 1, ..Default::default() };
        cr.results = results.iter().map(|(n, s)| scored(n, *s)).collect();
        let block = index4_block(&cr);
        assert!(block.contains("Arithmetic Test (type = double)"), "{block}");
        assert!(block.trim_end().ends_with("50.9"), "{block}");
        cr.results.pop();
        assert_eq!(index4_block(&cr), "", "no block without all eleven");
    }
}
