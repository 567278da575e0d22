//! Reading the files `compare` lines up: our results JSON (`read_json`), and text reports in
//! the classic layout, ours or the C UnixBench's (`read_text`), with the run's `.log` when it
//! sits beside the report (`super::log`). All become the same small model (`source`); the file
//! is read within bounds by `files`. This module chooses the reader.

use crate::read_json::from_json;
use crate::read_text::from_text;
use crate::source::Source;

/// Reads and recognises a file. Errors are one line without the file name (the caller adds it).
pub fn load(file: &str, text: &str) -> Result<Source, String> {
    let t = text.trim_start();
    let src = if t.starts_with('{') || t.starts_with('[') {
        from_json(file, text)?
    } else if text.lines().any(|l| l.starts_with("Benchmark Run:")) {
        from_text(file, text)?
    } else {
        return Err("not a results file of a known kind (neither our results JSON nor a UnixBench \
                    text report with a 'Benchmark Run:' block)"
            .into());
    };
    if src.runs.is_empty() {
        return Err("holds no run".into());
    }
    Ok(src)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::kinds_warning;

    #[test]
    fn the_unixbench_4_block_is_passed_over() {
        use report::index4;
        let block = |scores: &[(&str, f64)]| index4::format(&index4::compute(scores));
        let report = "BYTE UNIX Benchmarks (Version 6.0.0)\nBenchmark Run: x\n1 CPU in system; running 1 parallel copy of tests\n\nPipe Throughput  10.0 lps   (10.0 s, 2 samples)\n\nSystem Benchmarks Partial Index  BASELINE  RESULT  INDEX\nPipe Throughput  12440.0  10.0  0.0\n  ========\nSystem Benchmarks Index Score (Partial Only)  10.0\n\n";
        let plain = load("r", report).unwrap();
        for scores in [&[("dhry2reg", 79995833.1), ("pipe", 10.0)][..], &[]] {
            let b = block(scores);
            assert!(b.contains("INDEX VALUES") && b.contains("=========\n"), "{b}");
            assert_eq!(load("r", &format!("{report}{b}\n")).unwrap(), plain);
        }
    }

    #[test]
    fn a_disturbed_test_is_read_from_the_report_s_note_and_the_json_s_flag() {
        let report = |note: &str| {
            format!(
                "Benchmark Run: Tue Dec 01 2026 12:00:00 - 12:00:06\n\
                 2 CPUs in system; running 1 parallel copy of tests\n\n\
                 Pipe Throughput  10.0 lps   (10.0 s, 2 samples)\n\n\
                 System Benchmarks Partial Index  BASELINE  RESULT  INDEX\n\
                 Pipe Throughput  12440.0  10.0  0.0\n  ========\n\
                 System Benchmarks Index Score (Partial Only)  10.0\n\n{note}"
            )
        };
        let flag = |note: &str| load("r", &report(note)).unwrap().runs[0].tests[0].disturbed;
        assert!(flag(
            "** disturbed: pipe (steal 0.0% and other processes 9.0% of its copies' CPU time, over 5%)\n"
        ));
        assert!(!flag(""));
        assert!(!flag("** disturbed: syscall (stopped: ...)\n"), "another test's");
        let json = |d: &str| {
            let text = format!(
                "{{\"schema\":\"unixbench-results\",\"schema_version\":2,\"runs\":[{{\"copies\":1,\
                 \"results\":[{{\"message\":\"Pipe Throughput\",\"score\":1,{d}\"unit\":\"lps\"}}]}}]}}"
            );
            load("f", &text).unwrap().runs[0].tests[0].disturbed
        };
        assert!(json("\"disturbed\":true,") && !json("\"disturbed\":false,") && !json(""));
    }

    #[test]
    fn the_kind_of_run_and_its_date() {
        // Schema 1: the kind from the settings, as `Run::not_standard` decides it; the date from
        // the first run's start. Schema 2: its `kind`.
        let json = |top: &str, settings: &str, msg: &str, image: &str| {
            format!(
                "{{\"schema\":\"unixbench-results\",\"schema_version\":1,{top}\"settings\":{{{settings}}},\
                 \"runs\":[{{\"copies\":1,\"start\":1796083200,\"results\":[{{\"message\":\"{msg}\",\
                 \"score\":1,{image}\"unit\":\"lps\"}}]}}]}}"
            )
        };
        let dynamic = "\"exec_image\":{\"kind\":\"dynamic-glibc\"},";
        let kind = |top: &str, settings: &str, msg: &str, image: &str| {
            load("f", &json(top, settings, msg, image)).unwrap().run_kind().name()
        };
        assert_eq!(kind("", "\"quick\":null,\"duration\":null", "Pipe Throughput", ""), "standard");
        assert_eq!(kind("", "\"iterations\":10", "Pipe Throughput", ""), "standard");
        assert_eq!(kind("", "\"quick\":335.6", "Pipe Throughput", ""), "quick");
        assert_eq!(kind("", "\"duration\":2", "Pipe Throughput", ""), "short");
        assert_eq!(kind("", "\"iterations\":3", "Pipe Throughput", ""), "short");
        assert_eq!(kind("", "", "Execl Throughput", dynamic), "standard");
        assert_eq!(kind("", "", "Execl Throughput", ""), "static image", "no exec_image: the static image");
        assert_eq!(kind("\"kind\":\"quick\",", "\"quick\":true", "Pipe Throughput", ""), "quick");
        assert_eq!(kind("\"kind\":\"short\",", "", "Pipe Throughput", ""), "short");
        let src = load("f", &json("", "", "Pipe Throughput", "")).unwrap();
        assert_eq!(src.date, "2026-12-01T00:00:00Z");

        // A text report: its notes, and the start of its first block in the host's local time.
        let report = |note: &str| {
            format!(
                "{note}Benchmark Run: Tue Dec 01 2026 12:00:00 - 12:00:06\n\
                 2 CPUs in system; running 1 parallel copy of tests\n\n\
                 Pipe Throughput  10.0 lps   (10.0 s, 2 samples)\n\n\
                 System Benchmarks Partial Index  BASELINE  RESULT  INDEX\n\
                 Pipe Throughput  12440.0  10.0  0.0\n  ========\n\
                 System Benchmarks Index Score (Partial Only)  10.0\n"
            )
        };
        let text = |note: &str| load("r", &report(note)).unwrap();
        assert_eq!(text("").run_kind().name(), "standard");
        assert_eq!(text("").date, "2026-12-01T12:00:00");
        assert_eq!(text("** Quick run (--quick, 8 s budget): shorter passes\n\n").run_kind().name(), "quick");
        assert_eq!(text("** Durations set with -t 1: each test ran 1 s\n\n").run_kind().name(), "short");
        // The note as the report words it today.
        let settings = crate::model::Settings { duration: Some(2), ..Default::default() };
        let n = report::view::duration_note(&settings).unwrap();
        assert_eq!(text(&format!("** {} {}\n\n", n.lead, n.rest)).run_kind().name(), "short");

        // One warning for files of different kinds, none for files of one kind.
        let (std, quick) = (text(""), text("** Quick run (--quick, 8 s budget)\n\n"));
        assert_eq!(kinds_warning(&[std.clone(), std.clone()]), None);
        assert_eq!(
            kinds_warning(&[std.clone(), quick.clone(), std]).as_deref(),
            Some("comparing runs of different kinds (standard, quick): their figures are not comparable")
        );
    }
}
