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

    /// The names of [`Format::ALL`] as the error of a bad `--format` lists them.
    pub const CHOICES: &'static str = "text, html, json, csv, tsv or md";

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

    #[test]
    fn the_choices_name_every_format_once() {
        let names: Vec<&str> = Format::ALL.iter().map(|(n, _)| *n).collect();
        let (last, first) = names.split_last().unwrap();
        assert_eq!(Format::CHOICES, format!("{} or {last}", first.join(", ")));
        for (n, f) in Format::ALL {
            assert_eq!(Format::named(n), Some(f));
            assert_eq!(Format::ALL.iter().filter(|(_, g)| *g == f).count(), 1, "{n}");
        }
        assert_eq!(Format::named("svg"), None);
    }
}
