//! The report as a user's script sees it: a short real run's text report parsed the classic way
//! (fixed columns, line shapes), its system block gathered from this host, and the HTML, JSON
//! and TSV documents of the same run agreeing with it.

use crate::common::*;

fn short_run(s: &Scratch, extra: &[&str], format: &str) -> String {
    let mut c = ub(["run", "-q", "-i", "1", "-t", "1", "-c", "1", "--no-save", "--format", format]);
    c.args(extra).arg("syscall").current_dir(s.path());
    let o = run(&mut c);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    stdout(&o)
}

#[test]
fn text_report_has_run_shapes_and_this_hosts_system_block() {
    let s = Scratch::new("report-text");
    let out = short_run(&s, &[], "text");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("   BYTE UNIX Benchmarks (Version 6.0.0-compatible; unixbench "), "{out}");
    assert_eq!(lines[1], "");
    for (i, prefix) in ["   System: ", "   OS: ", "   Machine: ", "   Language: "].iter().enumerate() {
        assert!(lines[2 + i].starts_with(prefix), "{out}");
    }
    assert!(lines[5].contains(" (charmap=\""), "{out}");
    assert!(out.contains("   CPU 0: ") || out.contains("   CPU: no details available"), "{out}");
    let up = lines.iter().find(|l| l.contains("; runlevel ")).expect("uptime line");
    assert!(up.contains(" up ") && up.contains("load average: ") || up.starts_with("   unknown;"), "{up}");
    assert!(out.contains("\n** Durations set with -t 1: "), "{out}");
    assert!(out.contains(&format!("\n{}\nBenchmark Run: ", "-".repeat(72))), "{out}");
    // The result line, read by columns as the old scripts read it.
    let r = lines.iter().find(|l| l.starts_with("System Call Overhead")).expect("result line");
    assert_eq!(&r[40..41], " ");
    assert!(r[41..53].trim().parse::<f64>().is_ok(), "{r}");
    assert_eq!(&r[53..60], " lps   ");
    assert!(r.ends_with(" s, 1 samples)"), "{r}");
    let score = lines.iter().find(|l| l.starts_with("System Benchmarks Index Score (Partial Only)")).unwrap();
    assert_eq!(score.len(), 75, "{score}");
    assert!(score[66..].trim().parse::<f64>().is_ok());
}

#[test]
fn brief_mode_has_no_cpu_lines() {
    let s = Scratch::new("report-brief");
    let out = short_run(&s, &["-b"], "text");
    assert!(!out.contains("   CPU"), "{out}");
}

#[test]
fn machine_readable_documents_agree_with_the_report() {
    let s = Scratch::new("report-docs");
    let json = short_run(&s, &[], "json");
    assert!(
        json.starts_with("{\n  \"schema\": \"unixbench-results\",\n  \"schema_version\": 2,\n"),
        "{json}"
    );
    assert!(json.contains("\"name\": \"syscall\""), "{json}");
    assert!(json.contains("\"title\": \"System Benchmarks Index Score (Partial Only)\""), "{json}");
    let tsv = short_run(&s, &[], "tsv");
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(
        lines[0],
        "copies\ttest\ttitle\tscore\tunit\tseconds_per_pass\tkept_passes\tbaseline\tindex\tkind\tdisturbed\tci95_low\tci95_high"
    );
    let f: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(
        (f[0], f[1], f[2], f[4], f[6], f[7]),
        ("1", "syscall", "System Call Overhead", "lps", "1", "15000.0")
    );
    // The index block's line: its score in the index column, as the report's score line has it.
    let ix: Vec<&str> = lines.last().unwrap().split('\t').collect();
    assert_eq!(
        ix[..8],
        ["1", "index:system", "System Benchmarks Index Score (Partial Only)", "-", "-", "-", "-", "-"]
    );
    assert_eq!(ix[8], format!("{:.1}", f[8].parse::<f64>().unwrap()), "one test: its index is the block's");
}
