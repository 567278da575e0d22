//! Exporters and system information: everything the run shows a person or a program.
//!
//! Measuring never formats; exporters never measure. The driver fills the plain data of
//! `base::model` (a `Run` of `CopyRun`s of `TestResult`s) and renders it through [`render`],
//! whose exporters turn that data into text, all reading it through `view`: the classic text
//! report and console strings (`text`, byte for byte as UnixBench's `Run`), the HTML report
//! (`html`) and its charts (`svg`), the detailed log (`log`), CSV (`csv`), TSV (`tsv`, also
//! rendered as a Markdown table) and JSON (`json`). None of them reads a clock, a file or the environment except through an
//! explicit argument (a time zone, a date; `render` is the one that passes the clock's), so each
//! is tested against literal expected text. `sysinfo` is the one part that looks at the host, to
//! fill `SystemInfo`, from uname(2), /proc, /etc/os-release and utmp: never an external command.

pub(crate) use base::{baselines, fmt, model, suite, sys};
pub(crate) use scoring::{score, stats};

pub mod ab;
pub mod csv;
pub mod html;
pub mod index4;
pub mod json;
pub mod log;
pub mod markdown;
pub mod page;
pub mod svg;
pub mod text;
pub mod tsv;
pub mod view;

use crate::model::Run;

#[cfg(test)]
mod fixture;

/// The documents a run can be rendered as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// The classic report, byte for byte as Run's.
    Text,
    Html,
    Json,
    Csv,
    Tsv,
    /// GitHub-flavoured Markdown: the TSV's table, for posts and issues.
    Markdown,
}

impl Format {
    /// Every format by its `--format` name, the report first.
    pub const ALL: [(&'static str, Format); 6] = [
        ("text", Format::Text),
        ("html", Format::Html),
        ("json", Format::Json),
        ("csv", Format::Csv),
        ("tsv", Format::Tsv),
        ("md", Format::Markdown),
    ];

    /// The names of [`Format::ALL`], in its order: what a run's `--format` offers.
    pub const NAMES: [&'static str; 6] = base::options::names(&Self::ALL);

    /// By name, as `--format` takes it.
    pub fn named(name: &str) -> Option<Format> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|&(_, f)| f)
    }
}

/// The run as a document of `format`: the one entry the driver renders through. It supplies the
/// HTML's date from the clock and the local zone, so the exporters below stay pure.
pub fn render(format: Format, run: &Run) -> String {
    match format {
        Format::Text => text::report(run),
        Format::Html => html::render(run, crate::sys::clock::time(), fmt::local),
        Format::Json => json::render(run),
        Format::Csv => csv::render(run),
        Format::Tsv => tsv::render(run),
        Format::Markdown => markdown::table(&tsv::render(run)),
    }
}

/// The version string of the banner and the reports: the UnixBench whose semantics the run
/// follows, then our own (`6.0.0-compatible; unixbench X.Y.Z`, `5.1.3-compatible; ...`).
pub fn version(semantics: base::version::Semantics) -> String {
    semantics.report()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Beside a CPU hog on a VM, other processes took 40 times what steal took: every format
    /// names other processes as the cause, first, and says the busy host in the one line (the
    /// console prints `view::busy_line` too, checked in tests/it/noise.rs).
    #[test]
    fn a_run_beside_a_cpu_hog_names_other_processes_first_in_every_format() {
        let run = fixture::beside_a_hog();
        let line = "busy host: other processes used up to 6.9 times the tests' CPU time, steal up to 6% \
                    of it (load 14.2 on 2 CPUs); stop the other work and run again";
        assert_eq!(view::busy_line(&run).as_deref(), Some(line));
        let text = text::report_in(&run, fmt::utc);
        let end = "** All 12 tests were disturbed, at both copy counts; not fit to publish.\n\n";
        assert!(text.ends_with(&format!("{end}** {line}\n\n")), "{text}");
        let disturbed: Vec<&str> = text.lines().filter(|l| l.starts_with("** disturbed: ")).collect();
        assert_eq!(disturbed.len(), 24, "{text}");
        let first =
            |l: &&str| l.contains(" (other processes ") && l.contains("% and steal 6.0% of its copies'");
        assert!(disturbed.iter().all(first), "{text}");
        let html = html::render(&run, fixture::START1, fmt::utc);
        let top = &html[..html.find("Test System Information").unwrap()];
        assert!(top.contains(&format!("<p><b>{}</b></p>", svg::escape(line))), "{top}");
        assert_eq!(top.matches("<li>").count(), 12, "each test once: {top}");
        assert!(top.contains("<li>Pipe Throughput (1 and 2 copies)</li>"), "{top}");
        assert_eq!(html.matches("<b>disturbed</b> (other processes)").count(), 24, "{html}");
        assert!(!html.contains("(steal)</td>"), "{html}");
        let json = json::render(&run);
        assert_eq!(json.matches("\"disturbance\": \"other processes\"").count(), 24, "{json}");
        let doc = base::json::parse(&json).unwrap();
        let busy = doc.get("summary").and_then(|s| s.get("busy_host")).unwrap();
        assert_eq!(busy.get("text").and_then(|t| t.as_str()), Some(line));
        assert_eq!(busy.get("cause").and_then(|t| t.as_str()), Some("other processes"));
        assert_eq!(busy.get("share").and_then(|t| t.as_f64()), Some(68.59 / 10.0));
        assert_eq!(busy.get("load").and_then(|t| t.as_f64()), Some(14.2));
        let summary = doc.get("summary").unwrap();
        assert_eq!(summary.get("disturbed").and_then(|t| t.as_f64()), Some(24.0));
        assert_eq!(summary.get("disturbed_tests").and_then(|t| t.as_f64()), Some(12.0));
        assert!(
            view::summary(&run).ends_with("; a standard run; all 12 tests disturbed, at both copy counts")
        );
    }

    #[test]
    fn the_choices_name_every_format_once() {
        assert_eq!(Format::NAMES, ["text", "html", "json", "csv", "tsv", "md"]);
        for (n, f) in Format::ALL {
            assert_eq!(Format::named(n), Some(f));
            assert_eq!(Format::ALL.iter().filter(|(_, g)| *g == f).count(), 1, "{n}");
        }
        assert_eq!(Format::named("svg"), None);
    }
}
