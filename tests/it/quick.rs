//! `--quick`: a short quick run of two cheap tests, its report's `** ` lines, its JSON's
//! statistics, and its results read back by `unixbench compare`.

use crate::common::*;

#[test]
fn a_quick_run_reports_its_intervals_and_compare_reads_it() {
    let s = Scratch::new("quick");
    let results = s.path().join("results");
    let mut c = ub(["--quick=8", "-c", "1", "syscall", "pipe", "--json"]);
    c.arg("--results").arg(&results).arg("--tmpdir").arg(s.path()).current_dir(s.path());
    let o = run(&mut c);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("** Quick run (--quick, 8 s budget): shorter passes"), "{out}");
    // Each test's interval (or, with one pass, its absence) and the index's, on `** ` lines.
    for name in ["syscall", "pipe"] {
        let line =
            out.lines().find(|l| l.starts_with(&format!("** {name}: "))).unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains(" pass"), "{line}");
    }
    assert!(out.lines().any(|l| l.starts_with("** index system: ")), "{out}");
    // Each test's Run line, with the passes it ran, once its rounds are over; no blank line in
    // its stead; stdout ends with the report, as C's.
    for m in ["System Call Overhead", "Pipe Throughput"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("1 x {m}  1 2 3")))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(
            line[line.find("  ").unwrap()..].split_whitespace().all(|n| n.parse::<usize>().is_ok()),
            "{line}"
        );
    }
    let first = out.find("\n1 x ").unwrap();
    let progress = &out[first..out.find("\n=====").unwrap()];
    assert!(!progress.contains("\n\n\n"), "{progress}");
    let report =
        std::fs::read_dir(&results).unwrap().map(|e| e.unwrap().path()).find(|p| p.extension().is_none());
    let last = std::fs::read_to_string(report.unwrap()).unwrap().lines().last().unwrap().to_string();
    assert!(out.ends_with(&format!("{last}\n")), "{out}");
    // The classic result lines keep their shape: 1 s passes.
    let line = out.lines().find(|l| l.starts_with("System Call Overhead ")).unwrap();
    assert!(line.contains(" lps   (1.0 s, ") || line.contains(" lps   (1.1 s, "), "{line}");

    let mut names: Vec<String> = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let json = names.iter().find(|n| n.ends_with(".json")).expect("a .json result");
    let doc = std::fs::read_to_string(results.join(json)).unwrap();
    // Schema 2: quick as a flag, its budget apart.
    assert!(doc.contains("\"quick\": true") && doc.contains("\"quick_budget\": 8"), "{doc}");
    assert_eq!(doc.matches("\"stats\": {").count(), 2, "{doc}");
    assert!(doc.contains("\"ci95_low\": "), "{doc}");

    // compare: the one file has a single copy count, so it asks for a second one; given the
    // JSON and the text report of the same run, every ratio is 100% (to the text's rounding).
    let alone = run(ub(["compare"]).arg(results.join(json)));
    assert_usage_error(&alone, "holds only a 1-copy run");
    let text = names.iter().find(|n| !n.contains('.')).expect("a text report");
    let o = run(ub(["compare", "--format", "tsv"]).arg(results.join(json)).arg(results.join(text)));
    assert!(o.status.success(), "{}", stderr(&o));
    let tsv = stdout(&o);
    let rows: Vec<&str> = tsv.lines().filter(|l| l.split('\t').nth(2) == Some("2")).collect();
    assert_eq!(rows.len(), 3, "two tests and the index: {tsv}");
    for r in rows {
        let pct: f64 = r.split('\t').nth(7).unwrap().parse().unwrap();
        assert!((pct - 100.0).abs() < 0.1, "{r}");
    }
}

/// The seconds of `Estimated time: ...` in a dry run's last lines.
fn estimated_secs(dry: &str) -> f64 {
    let line = dry.lines().find(|l| l.starts_with("Estimated time: ")).unwrap_or_else(|| panic!("{dry}"));
    let secs = line.rsplit_once('(').map_or(line, |(_, s)| s);
    let secs = secs.trim_start_matches("Estimated time: ").trim_end_matches(')').trim_end_matches(" s");
    secs.parse().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn a_budget_below_three_passes_of_every_test_is_refused_naming_the_least() {
    let s = Scratch::new("quick-min");
    let mut c = ub(["--quick=3", "-c", "1", "-c", "2", "syscall", "pipe"]);
    c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path()).current_dir(s.path());
    let o = run(&mut c);
    // 2 tests at 2 copy counts, 3 passes of 1.05 s each.
    assert_usage_error(
        &o,
        "--quick=3: too small a budget for this plan; every test needs 3 passes, so at least --quick=13",
    );
    assert!(s.entries().is_empty(), "nothing created: {:?}", s.entries());
    let o = run(&mut ub(["-n", "--quick=13", "-c", "1", "-c", "2", "syscall", "pipe"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let dry = stdout(&o);
    assert_eq!(dry.lines().filter(|l| l.contains(" syscall ") || l.contains(" pipe ")).count(), 4, "{dry}");
    assert!(dry.lines().filter(|l| l.contains(" pipe ")).all(|l| l.contains("   3   ")), "{dry}");
}

/// The dry run's estimate against the run itself, at the smallest budget: every test gets its
/// three passes and no more. (How close the estimate comes to the wall time is measured by
/// bench/estimate.sh, not asserted here, where a loaded machine would fail it.)
#[test]
fn the_dry_run_estimates_what_a_quick_run_takes() {
    let args = ["--quick=7", "-c", "1", "syscall", "pipe"];
    let o = run(ub(["-n"]).args(args));
    assert!(o.status.success(), "{}", stderr(&o));
    let est = estimated_secs(&stdout(&o));
    assert!((6.0..=7.0).contains(&est), "{est}");
    let s = Scratch::new("quick-estimate");
    let mut c = ub(args);
    c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path()).current_dir(s.path());
    let o = run(c.arg("-q"));
    assert!(o.status.success(), "{}", stderr(&o));
    let log = std::fs::read_dir(s.path().join("results"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "log"))
        .unwrap();
    let log = std::fs::read_to_string(log).unwrap();
    assert_eq!(log.matches("#### Pass ").count(), 6, "three passes each: {log}");
}

/// A quick run's TSV on stdout and its CSV beside the report say, on every row, that it was a
/// quick run, whether each figure was disturbed, and its interval: after Run's columns.
#[test]
fn a_quick_run_s_tsv_and_csv_say_what_kind_of_figure_each_is() {
    let s = Scratch::new("quick-tsv");
    let results = s.path().join("results");
    // A budget for four passes: three kept, the fewest whose interval is of use.
    let mut c = ub(["--quick=8", "-c", "1", "syscall", "--format", "tsv"]);
    c.arg("--results").arg(&results).arg("--tmpdir").arg(s.path()).current_dir(s.path());
    let o = run(c.env("UB_OUTPUT_CSV", "true"));
    assert!(o.status.success(), "{}", stderr(&o));
    let tsv = stdout(&o);
    let mut lines = tsv.lines();
    assert!(lines.next().unwrap().ends_with("\tindex\tkind\tdisturbed\tci95_low\tci95_high"), "{tsv}");
    for l in lines {
        let f: Vec<&str> = l.split('\t').collect();
        assert_eq!((f.len(), f[9]), (13, "quick"), "{l}");
        assert!(f[10] == "yes" || f[10] == "no", "{l}");
        assert!(
            f[11].parse::<f64>().is_ok() && f[12].parse::<f64>().is_ok(),
            "four passes give an interval: {l}"
        );
    }
    let csv = std::fs::read_dir(&results)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "csv"))
        .unwrap();
    let csv = std::fs::read_to_string(csv).unwrap();
    let (head, row) = csv.split_once('\n').unwrap();
    let head: Vec<&str> = head.split(',').collect();
    let row: Vec<&str> = row.trim_end().split(',').collect();
    assert_eq!(
        head[..3],
        ["Concurrency", "System Call Overhead", "System Benchmarks Index Score (Partial Only)"]
    );
    assert_eq!(row[head.iter().position(|h| *h == "Kind").unwrap()], "quick", "{csv}");
    assert_eq!(head.len(), row.len(), "{csv}");
}

/// One count of passes in every output of a quick run (`view::pass_count`): for each test, the
/// passes of its score and those kept, alike in the text report's interval line, the JSON, the
/// HTML's statistics and the log; the classic line's `samples` are the kept ones; the live
/// line numbers each pass run (those measured again too) up to no more than the plan's most, and
/// a second visit (a test loose or disturbed after its first) shows its own test's place.
#[test]
fn a_quick_run_counts_its_passes_alike_everywhere() {
    let s = Scratch::new("quick-passes");
    let results = s.path().join("results");
    // Back to back, where a test's passes and its second visit follow each other.
    let args = ["--quick=16", "--no-rounds", "-c", "1", "syscall", "pipe"];
    let plan = stdout(&run(ub(["-n"]).args(args)));
    let mut c = ub(args);
    c.args(["--json", "--results"]).arg(&results).arg("--tmpdir").arg(s.path()).current_dir(s.path());
    let (tty, code) = on_a_terminal(c, false);
    assert_eq!(code, Some(0), "{tty}");
    let file = |ext: &str| {
        let f = std::fs::read_dir(&results).unwrap().map(|e| e.unwrap().path());
        let mut f = f.filter(|p| p.extension().map_or(ext.is_empty(), |e| e == ext));
        std::fs::read_to_string(f.next().unwrap()).unwrap()
    };
    let (report, json, html, log) = (file(""), file("json"), file("html"), file("log"));
    for (place, name, message) in [(1, "syscall", "System Call Overhead"), (2, "pipe", "Pipe Throughput")] {
        let text = report.lines().find(|l| l.starts_with(&format!("** {name}: "))).unwrap();
        let words = text.rsplit_once("), ").unwrap().1;
        let (scored, kept) = words.split_once(" passes, ").unwrap_or_else(|| panic!("{text}"));
        let (scored, kept): (usize, usize) =
            (scored.parse().unwrap(), kept.trim_end_matches(" kept").parse().unwrap());
        let of = &json[json.find(&format!("\"name\": \"{name}\"")).unwrap()..];
        assert!(
            of.contains(&format!("\"scored_passes\": {scored},\n          \"kept_passes\": {kept},")),
            "{name}: {text}\n{of}"
        );
        assert!(
            html.contains(&format!(
                "<b>{message}</b></td>\n   <td align=right data-label=\"Passes\"><tt>{words}</tt>"
            )),
            "{words}: {html}"
        );
        // The log's last section of the test (a second visit's, when it had one) ends on it.
        assert!(
            log.rsplit(&format!("\n{message} -- 1 copy"))
                .next()
                .unwrap()
                .contains(&format!(">>>> passes: {words}\n")),
            "{log}"
        );
        let line = report.lines().find(|l| l.starts_with(message)).unwrap();
        assert!(line.ends_with(&format!(", {kept} samples)")), "{line}");
        // The live line: each pass run numbered, up to the scored and the replaced ones.
        let replaced = of[..of.find("\"stats\"").unwrap()].matches("\"why\": ").count();
        let at = format!("] {message}, 1 copy");
        let numbers: Vec<usize> = tty
            .split('\r')
            .filter(|l| l.contains(&at) && l.contains(": pass "))
            .map(|l| l.split(": pass ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(numbers.iter().max(), Some(&(scored + replaced)), "{name}: {tty:?}");
        let most: usize = plan
            .lines()
            .find(|l| l.contains(&format!(" {name} ")))
            .unwrap()
            .split_whitespace()
            .nth(2)
            .unwrap()
            .rsplit('-')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        // The first test's share is the plan's (a later one's grows with what those before it
        // left).
        let first = tty.split('\r').find(|l| l.contains(&at) && l.contains(": pass 1 of at most ")).unwrap();
        if place == 1 {
            assert!(first.contains(&format!(": pass 1 of at most {most}, ")), "the plan's {most}: {first:?}");
        }
        if log.contains(&format!("\n{message} -- 1 copy (again)\n")) {
            assert!(tty.contains(&format!("\r[{place}/2] {message}, 1 copy, again: pass ")), "{tty:?}");
        }
        assert!(!tty.contains(&format!("[{}/2] {message}", 3 - place)), "{tty:?}");
    }
}
