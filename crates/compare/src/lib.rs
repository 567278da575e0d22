//! `unixbench compare A B [C ...]`: lines up runs from our results JSON and from text reports
//! (ours or the C UnixBench's) by copy count, and prints one table per copy count: each test's
//! score per run, its ratio to the first run, and a mark where the test on their difference
//! shows one (`stats::difference`), then a verdict in words on the index.
//! Given one file with a 1-copy and an N-copy run, prints the UnixBench README's scaling table.
//!
//! With `--pool`, several runs of one host are judged together (`pool`).
//!
//! Reading files is `load` (choosing `read_json` or `read_text`, into `source`'s model, within
//! `files`' bounds), building and printing the tables is `table`; this file is the
//! command line and the errors (one line naming the file and the problem, exit 2).

pub(crate) use base::{args, baselines, error, fmt, json, model, suite, sys};
pub(crate) use scoring::{score, stats};

mod files;
mod fleet;
mod html;
mod load;
mod log;
mod pool;
mod read_json;
mod read_text;
mod source;
mod table;

use crate::error::{Error, Result};
use base::options::{self, Arg, Command, Spec, Takes, Values};
use report::markdown::Readers;
use report::Format;
use std::ffi::OsString;
use std::io::Write as _;

const HELP_USAGE: &str = "\
Usage: unixbench compare [--format text|tsv|json|html|md] [--hosts | --pool] FILE [FILE ...]

Examples:
  unixbench compare old.json new.json            # new against old, test by test
  unixbench compare --pool a.json b.json c.json  # three runs of one host, pooled
  unixbench compare --hosts fleet/*.json         # a fleet: a row per host

Options:
";

const HELP: &str = "
Lines up the runs of results files by copy count and prints one table per copy count: each
test's score per file, the ratio to the first file in percent, and a mark (*) where a difference
is shown: the 95% interval of the ratio (the two runs' standard errors combined, Welch's test on
the log scale) excludes 100%. Under each table, a line per file in words on the index: how much
faster or slower than the first it is (with a warning where either run was disturbed), or that
no difference was shown and the smallest difference these two runs could have shown (at 80%
power). tsv and json add the ratio's interval (ratio_ci95_low, ratio_ci95_high), that smallest
difference (detectable_pct) and the mark (marked); overlap says whether the two intervals
overlap, which two different figures can. A FILE is a results JSON of unixbench or a text report in
UnixBench's classic layout (of unixbench or of the C UnixBench; these carry no intervals, but
the run's log, FILE.log beside it, does: when it is there and matches, it is read too).
The list of files gives each one's host, CPU, kernel, date, version and kind of run (standard,
quick or short: -t, -i or a static image for execl or spawn), and warns when the kinds differ.

Given one FILE holding a 1-copy and an N-copy run, prints the scaling table of the UnixBench
README: each test's index at 1 and at N copies, and the gain.

With --hosts (a fleet's results, one file per host), prints one table with a row per file:
the host as its system block names it (name, machine, CPUs, kernel, CPU model), its System
Benchmarks Index Score at 1 copy and at its largest copy count (d where a test of it was
disturbed), sorted by the first, highest first, and its kind of run (text, tsv or html).

With --pool (two runs of one host at least; three or more, spread over an hour or more, for an
interval of use), prints one table per copy count: each test's and index's figure pooled over the
runs (the geometric mean of their scores; an index's, of their index scores), its 95% interval
from the runs' spread, the lowest and highest run, d where a run found it disturbed and ! where
the runs do not pool (two exec images, a score of 0, an index over different tests or holding
such a test); tsv and json add the coefficient of variation, in how many runs it was disturbed,
why not pooled, the kinds of run and the span (text, tsv or json). One run's interval says how
well its own passes agree; the pool's also holds the host's wander from run to run, as far as the
runs' span reaches. Two runs give an interval, but wide (Student t of 1 degree of freedom is
12.7, against 4.3 for three runs).

With --format html, prints a page with no script or external file: the files sorted by that
index, each labelled [k] by its place on the command line, with its host and kind of run, and a
chart of each test's index per file and copy count, with its 95% interval and the gain over
1 copy (for more than 8 files, or with --hosts, each host's index score instead).

With --format md, prints the table tsv prints as a GitHub-flavoured Markdown table, its figures
to 0.1 as the text prints them.

A FILE must be a regular file of at most 64 MiB (results files are a few KB), and a JSON one's
values must fit in 128 MiB of memory (each copy's figures, which compare does not use, are not
kept). Its scores and indexes must be finite and below 1e15 (no machine comes near); a string
longer than 100 characters (a version, a host's names, a test's) is cut there, and a line on
stderr says so. Control characters, bidi overrides and zero-width characters in what a file
says and in file names are shown escaped (\\x1b, \\u{202e}); a TSV text cell that starts
with = + - or @ gets a ' before it. A figure too long for its column is written in scientific
notation (1.00e-300, 2e-299%), one beyond what a double holds as >1e308%.
";

/// The formats compare prints, of the run's (`report::Format`): every one but CSV.
const FORMATS: &[&str] = &["text", "tsv", "json", "html", "md"];

/// compare's options, declared once: parsing, the help's option lines, the suggestion for a
/// misspelt one, the man page and the completions come from here.
static OPTIONS: &[Spec] = &[
    Spec {
        long: Some("format"),
        takes: Takes::Value(&"FORMAT"),
        values: Values::Words(&FORMATS),
        help: "what is printed: text (the default), tsv, json, html or md",
        ..Spec::NONE
    },
    Spec { long: Some("hosts"), help: "a fleet's results, one file per host: a row each", ..Spec::NONE },
    Spec { long: Some("pool"), help: "several runs of one host, judged together", ..Spec::NONE },
    Spec { short: Some('h'), long: Some("help"), help: "this help", ..Spec::NONE },
];

/// compare's command line: its options, and files.
pub const COMMAND: Command =
    Command { name: "compare", spec: |i| OPTIONS.get(i), hidden: &[], operands: Values::Files };

/// `compare --help`: the usage and examples, the options from their table, then the prose.
fn help() -> String {
    let mut h = HELP_USAGE.to_string();
    for o in OPTIONS {
        options::help_lines(&mut h, o, 17);
    }
    h + HELP
}

fn parse_format(v: &str) -> Result<Format> {
    Format::named(v).filter(|_| FORMATS.contains(&v)).ok_or_else(|| {
        Error::usage(format!(
            "compare: invalid --format '{}': expected {}",
            crate::args::escaped(v),
            options::one_of(FORMATS)
        ))
    })
}

/// What the command line asks for.
struct Args {
    format: Format,
    hosts: bool,
    pool: bool,
    files: Vec<OsString>,
}

/// The file to read for `f`: an arm of an `ab` run's JSON is named `FILE#a` or `FILE#b`
/// (`read_json` picks the arm), where no file has that name.
fn ab_file(f: &OsString) -> &std::ffi::OsStr {
    let b = f.as_encoded_bytes();
    let arm = b.len() > 2 && matches!(&b[b.len() - 2..], b"#a" | b"#b" | b"#A" | b"#B");
    if arm && !std::path::Path::new(f).exists() {
        std::path::Path::new(f).to_str().map_or(f.as_os_str(), |s| std::ffi::OsStr::new(&s[..s.len() - 2]))
    } else {
        f
    }
}

/// One file read, its log beside it, and held to the bounds of a real run: a figure beyond them
/// is an error, a string cut is said in one line naming the file.
fn read_source(f: &OsString) -> Result<source::Source> {
    let name = if f.is_empty() { "''".to_string() } else { f.to_string_lossy().into_owned() };
    let bad = |msg: String| Error::usage(format!("compare: {}: {msg}", crate::args::escaped(&name)));
    if let Some((file, arm)) = name.rsplit_once('#') {
        if !std::path::Path::new(f).exists() && std::path::Path::new(file).is_file() && ab_file(f) == f {
            return Err(bad(format!("no arm '#{arm}': an ab file's arms are FILE#a and FILE#b")));
        }
    }
    let bytes = files::read_capped(ab_file(f)).map_err(bad)?;
    let text =
        String::from_utf8(bytes).map_err(|_| bad("not a results file of a known kind (not text)".into()))?;
    files::room_to_read(text.len()).map_err(bad)?;
    let mut src = load::load(&name, &text).map_err(bad)?;
    log::attach(&mut src, f);
    let cut = files::bounded(&mut src).map_err(bad)?;
    if !cut.is_empty() {
        let _ = writeln!(
            std::io::stderr(),
            "compare: {}: {} cut at {} characters",
            crate::args::escaped(&name),
            cut.join(", "),
            files::MAX_TEXT
        );
    }
    Ok(src)
}

/// `args` excludes the word `compare`.
pub fn main(args: Vec<OsString>) -> Result {
    let Some(args) = parse_args(args)? else {
        return crate::error::print(&help());
    };
    let sources = load_all(&args.files)?;
    let out = if args.pool {
        render_pool(args.format, sources)?
    } else {
        say_repeats(&args.files, args.hosts);
        if args.hosts {
            one_host_note(&sources);
        }
        render(args.format, args.hosts, sources)?
    };
    crate::error::print_table(&out)
}

/// A line on stderr: what the output holds that the command line may not have meant.
fn say(what: &str) {
    let _ = writeln!(std::io::stderr(), "compare: {what}");
}

/// `--hosts` over runs of one host: a line pointing to `--pool`, which judges them.
fn one_host_note(sources: &[source::Source]) {
    if sources.len() > 1 && sources.iter().all(|s| s.host == sources[0].host) {
        say("every file is a run of one host: --pool judges one host's runs together");
    }
}

/// Each file given again, by the same name or another (the same device and inode), said in a
/// line: the output is still right, but one column or row is the other again. (`--pool`
/// refuses it: a run counted twice would narrow the interval.) An ab file's two arms are two
/// runs. Each file against those before it: 10,000 files, more than a table can show, take
/// well under a second.
fn say_repeats(files: &[OsString], hosts: bool) {
    use std::os::unix::fs::MetadataExt as _;
    let mut ids = Vec::new();
    for (j, f) in files.iter().enumerate() {
        // The arm's letter, or 0.
        let arm = f.as_encoded_bytes()[ab_file(f).len()..].last().map_or(0, |b| b | 0x20);
        // Inode 0 is no file's: one that cannot be looked at again is no repeat.
        let id = std::fs::metadata(ab_file(f)).map_or((0, 0, 0), |m| (m.dev(), m.ino(), arm));
        if let Some(i) = ids.iter().position(|&x| x == id && id.1 != 0) {
            let name = |k: usize| crate::args::escaped(&files[k].to_string_lossy());
            let again = if files[i] == files[j] { "given twice".into() } else { name(i) + " again" };
            let so = if hosts { "its host is listed twice" } else { "it is compared with itself" };
            say(&format!("{} is {again}: {so}", name(j)));
        }
        ids.push(id);
    }
}

/// The options and files, or None when help was asked for.
fn parse_args(args: Vec<OsString>) -> Result<Option<Args>> {
    let mut p = lexopt::Parser::from_args(args);
    let mut a = Args { format: Format::Text, hosts: false, pool: false, files: Vec::new() };
    let said = |e: Error| Error::usage(format!("compare: {}", e.message().unwrap_or_default()));
    while let Some(arg) = options::next(&mut p, &COMMAND).map_err(said)? {
        match arg {
            Arg::Opt(i, v) => match OPTIONS[i].long {
                Some("format") => a.format = parse_format(&v.unwrap_or_default().to_string_lossy())?,
                Some("hosts") => a.hosts = true,
                Some("pool") => a.pool = true,
                _ => return Ok(None),
            },
            Arg::Operand(v) => a.files.push(v),
            Arg::Unknown(w) => return Err(said(options::unknown(&w, &COMMAND))),
        }
    }
    if a.files.is_empty() {
        return Err(Error::usage(
            "compare: no files given (usage: unixbench compare [--format F] [--hosts | --pool] FILE ...)",
        ));
    }
    if a.pool && a.hosts {
        return Err(Error::usage("compare: --pool and --hosts exclude each other"));
    }
    if a.pool && a.format == Format::Html {
        return Err(Error::usage("compare: --pool prints text, tsv, json or md, not html"));
    }
    Ok(Some(a))
}

/// Each file read and held to its bounds ([`read_source`]); the first bad one is the error.
fn load_all(files: &[OsString]) -> Result<Vec<source::Source>> {
    files.iter().map(read_source).collect()
}

/// Several runs of one host pooled ([`pool`]); the files are read first, so that a name that
/// matched no file is named as such.
fn render_pool(format: Format, sources: Vec<source::Source>) -> Result<String> {
    if sources.len() < 2 {
        return Err(Error::usage(
            "compare: --pool needs two runs or more (one run's own interval is in its report)",
        ));
    }
    let p = pool::pool(&sources).map_err(|(f, m)| Error::usage(format!("compare: {f}: {m}")))?;
    Ok(match format {
        Format::Text => pool::text(&p),
        Format::Tsv | Format::Markdown => pool::tsv(&p, readers(format)),
        Format::Json => pool::json(&p),
        Format::Html | Format::Csv => unreachable!("refused with the arguments"),
    })
}

/// Whom a table is for: Markdown's readers are people, TSV's programs.
fn readers(format: Format) -> Readers {
    if format == Format::Markdown {
        Readers::People
    } else {
        Readers::Programs
    }
}

/// The page, the fleet table, the scaling table of one file or the comparison of several.
fn render(format: Format, hosts: bool, sources: Vec<source::Source>) -> Result<String> {
    if format == Format::Html {
        return Ok(html::page(&sources, hosts, &|t| t.disturbed));
    }
    if hosts {
        return match format {
            Format::Text => Ok(fleet::text(&sources)),
            Format::Tsv | Format::Markdown => Ok(fleet::tsv(&sources, readers(format))),
            Format::Json => Err(Error::usage("compare: --hosts prints text, tsv, md or html, not json")),
            Format::Html | Format::Csv => unreachable!("the page above, or refused with the arguments"),
        };
    }
    if sources.len() == 1 {
        let s = table::scaling(&sources[0])
            .map_err(|m| Error::usage(format!("compare: {}: {m}", sources[0].file)))?;
        return Ok(match format {
            Format::Text => table::scaling_text(&s),
            Format::Tsv | Format::Markdown => table::scaling_tsv(&s, readers(format)),
            Format::Json => table::scaling_json(&s),
            Format::Html | Format::Csv => unreachable!("the page above, or refused with the arguments"),
        });
    }
    let c = table::compare(&sources).map_err(|(f, m)| Error::usage(format!("compare: {f}: {m}")))?;
    Ok(match format {
        Format::Text => table::text(&c),
        Format::Tsv | Format::Markdown => table::tsv(&c, readers(format)),
        Format::Json => table::json(&c),
        Format::Html | Format::Csv => unreachable!("the page above, or refused with the arguments"),
    })
}
