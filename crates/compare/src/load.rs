//! Reading the files `compare` lines up: our results JSON, and text reports in the classic
//! layout (ours, or the C UnixBench's), with the run's `.log` when it sits beside the report
//! (`super::log`). All become the same small model: per copy count, each test's score with its
//! 95% interval when the file has one, and each category's index score.

use crate::json::{self, Value};
use crate::model::{Category, RunKind};
use crate::stats::{self, Interval};

/// What kind of file a run came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Our results JSON: intervals known where a test kept 2 samples or more.
    Json,
    /// A classic text report (ours or the C UnixBench's): no intervals.
    Text,
    /// A text report with its `.log`: every pass's samples, so the JSON's figures and intervals.
    TextLog,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Json => "unixbench results JSON",
            Kind::Text => "text report",
            Kind::TextLog => "text report and its log",
        }
    }
}

/// One file, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    /// The file name as given on the command line.
    pub file: String,
    pub kind: Kind,
    /// The version the file names (the banner's `Version ...`, or the JSON's `version`).
    pub version: String,
    /// Whether the file says the run was a quick one (the JSON's settings, the text's note).
    pub quick: bool,
    /// Whether it says durations or pass counts were not Run's (`-t`, `-i`), or schema 2's
    /// `kind` says `short`. A static image for execl or spawn makes a run short too: that one
    /// the tests' images say ([`Source::run_kind`]), since a `.log` can tell it.
    pub short: bool,
    /// When the first copy count started: ISO 8601, in UTC (`Z`) from the JSON, in the run
    /// host's local time (no zone) from a text report; `unknown` where the file does not say.
    pub date: String,
    /// One entry per copy count, in file order.
    pub runs: Vec<Run>,
    /// Who ran it, from the system block (`unknown` where the file does not say).
    pub host: Host,
}

impl Source {
    /// The kind of run, as `Run::kind` decides it for the run that wrote the file.
    pub fn run_kind(&self) -> RunKind {
        let on_static = || self.runs.iter().flat_map(|r| &r.tests).any(|t| t.image == Some(Image::Static));
        if self.quick {
            RunKind::Quick
        } else if self.short {
            RunKind::Short
        } else if on_static() {
            RunKind::StaticImage
        } else {
            RunKind::Standard
        }
    }
}

/// The kinds of run of the files (standard, quick, short, static image), each once, in the order
/// the files first show them.
pub fn kinds(sources: &[Source]) -> Vec<&'static str> {
    let mut kinds: Vec<&str> = Vec::new();
    for k in sources.iter().map(|s| s.run_kind().name()) {
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    kinds
}

/// The warning for files of different kinds of run (standard, quick, short), whose figures are
/// not comparable; None when they are all of one kind.
pub fn kinds_warning(sources: &[Source]) -> Option<String> {
    let kinds = kinds(sources);
    (kinds.len() > 1).then(|| {
        format!("comparing runs of different kinds ({}): their figures are not comparable", kinds.join(", "))
    })
}

/// A host's identity, as its system block gives it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Host {
    pub name: String,
    pub machine: String,
    pub os_release: String,
    /// CPUs in the system, as the `N CPUs in system` line counts them.
    pub cpus: Option<usize>,
    /// The model of the first CPU.
    pub cpu: String,
}

/// Everything measured at one copy count.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub copies: usize,
    pub tests: Vec<Test>,
    pub index: Vec<Index>,
}

/// One test's result.
#[derive(Debug, Clone, PartialEq)]
pub struct Test {
    /// The report's row name (the log message): what lines tests up across files.
    pub message: String,
    pub score: f64,
    pub unit: String,
    /// The test's index (10 × score / baseline), when it has a baseline.
    pub index: Option<f64>,
    pub ci: Option<Interval>,
    /// For execl and spawn: whether they timed this static binary or a dynamically linked
    /// program (ours or the C suite's). None where the file does not say.
    pub image: Option<Image>,
    /// Whether the run found it disturbed (the JSON's `disturbed`, the report's
    /// `** disturbed:` line).
    pub disturbed: bool,
}

/// The kind of image an execl or spawn figure was timed on (`crate::exec_image`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Image {
    Static,
    Dynamic,
}

/// Whether `message` is the report name of a test that times an exec image.
pub(super) fn times_an_image(message: &str) -> bool {
    twin::image::PROGRAMS.iter().any(|(_, m)| *m == message)
}

/// One category's index score.
#[derive(Debug, Clone, PartialEq)]
pub struct Index {
    pub category: Category,
    pub score: f64,
    pub partial: bool,
    /// Propagated from the tests' intervals; None when one of them is unknown.
    pub ci: Option<Interval>,
}

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

/// The category whose report name is `display` (`System Benchmarks`, ...).
fn category_named(display: &str) -> Option<Category> {
    Category::ALL.into_iter().find(|c| c.display() == display)
}

fn category_keyed(key: &str) -> Option<Category> {
    Category::ALL.into_iter().find(|c| c.key() == key)
}

// ---- JSON ----------------------------------------------------------------------------------

fn from_json(file: &str, text: &str) -> Result<Source, String> {
    let v = json::parse(text).map_err(|e| format!("not valid JSON: {e}"))?;
    if v.get("schema").and_then(Value::as_str) != Some("unixbench-results") {
        return Err("a JSON file, but not unixbench results (no \"schema\": \"unixbench-results\")".into());
    }
    match v.get("schema_version").and_then(Value::as_f64) {
        Some(1.0 | 2.0) => {}
        Some(n) => return Err(format!("results schema version {n} is not one this unixbench reads (1, 2)")),
        None => return Err("results without a \"schema_version\"".into()),
    }
    let runs = v.get("runs").and_then(Value::as_array).ok_or("results without a \"runs\" list")?;
    let mut out = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        out.push(json_run(r).map_err(|e| format!("runs[{i}]: {e}"))?);
    }
    let settings = v.get("settings");
    let set = |k: &str| settings.and_then(|s| s.get(k)).filter(|x| !x.is_null());
    // Schema 2 names the kind; for schema 1, what `Run::not_standard` reads from the settings.
    let (quick, short) = match v.get("kind").and_then(Value::as_str) {
        Some(k) => (k == "quick", k == "short"),
        None => (
            set("quick").is_some_and(|q| q.as_bool() != Some(false)),
            set("duration").is_some() || set("iterations").is_some_and(|n| n.as_f64() != Some(10.0)),
        ),
    };
    let start = runs.first().and_then(|r| opt_num(r, "start")).filter(|t| t.is_finite());
    // The first run's start, which both schemas have; schema 2's `date` is the same instant.
    let date = match (start, v.get("date").and_then(Value::as_str)) {
        (Some(t), _) => crate::fmt::iso_utc(t as i64),
        (None, Some(d)) => d.to_string(),
        (None, None) => "unknown".into(),
    };
    Ok(Source {
        file: file.to_string(),
        kind: Kind::Json,
        version: v.get("version").and_then(Value::as_str).unwrap_or("unknown").to_string(),
        quick,
        short,
        date,
        runs: out,
        host: json_host(v.get("system")),
    })
}

fn json_host(s: Option<&Value>) -> Host {
    let text = |k: &str| s.and_then(|s| s.get(k)).and_then(Value::as_str).unwrap_or("unknown").to_string();
    let cpu = s.and_then(|s| s.get("cpus")).and_then(Value::as_array).and_then(|c| c.first());
    Host {
        name: text("hostname"),
        machine: text("machine"),
        os_release: text("os_release"),
        cpus: s.and_then(|s| opt_num(s, "cpu_count")).map(|n| n as usize),
        cpu: cpu.and_then(|c| c.get("model")).and_then(Value::as_str).unwrap_or("unknown").to_string(),
    }
}

fn num(v: &Value, key: &str) -> Result<f64, String> {
    let n =
        v.get(key).and_then(Value::as_f64).ok_or_else(|| format!("\"{key}\" is missing or not a number"))?;
    finite(n, key)
}

/// A number that overflowed to an infinity when read (`1e400`) is refused, not computed with.
fn finite(n: f64, key: &str) -> Result<f64, String> {
    if n.is_finite() {
        Ok(n)
    } else {
        Err(format!("\"{key}\" is beyond what the field can hold"))
    }
}

fn opt_num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

fn text_of<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| format!("\"{key}\" is missing or not a string"))
}

fn json_run(r: &Value) -> Result<Run, String> {
    let copies = num(r, "copies")?;
    if copies < 1.0 || copies.fract() != 0.0 {
        return Err(format!("\"copies\" is {copies}, not a positive whole number"));
    }
    let most = crate::model::MAX_COPIES as f64;
    if copies > most {
        return Err(format!("\"copies\" is beyond what the field can hold (at most {most})"));
    }
    let results = r.get("results").and_then(Value::as_array).ok_or("\"results\" is missing or not a list")?;
    let mut tests = Vec::new();
    for (i, t) in results.iter().enumerate() {
        let failed =
            t.get("error").is_some_and(|e| !e.is_null()) || t.get("skipped").is_some_and(|e| !e.is_null());
        let Some(score) = opt_num(t, "score").filter(|_| !failed) else { continue };
        let score = finite(score, "score").map_err(|e| format!("results[{i}]: {e}"))?;
        let message = text_of(t, "message").map_err(|e| format!("results[{i}]: {e}"))?.to_string();
        let ci = json_interval(t);
        // Files written before the twins existed have no exec_image: they timed the static one.
        let image = times_an_image(&message)
            .then(|| image_of(t.get("exec_image").and_then(|e| e.get("kind")).and_then(Value::as_str)));
        tests.push(Test {
            message,
            score,
            unit: t.get("unit").and_then(Value::as_str).unwrap_or("").to_string(),
            index: opt_num(t, "index"),
            ci,
            image,
            disturbed: t.get("disturbed").and_then(Value::as_bool).unwrap_or(false),
        });
    }
    let mut index = Vec::new();
    for (i, b) in r.get("index").and_then(Value::as_array).unwrap_or(&[]).iter().enumerate() {
        let key = text_of(b, "category").map_err(|e| format!("index[{i}]: {e}"))?;
        let category =
            category_keyed(key).ok_or_else(|| format!("index[{i}]: unknown category \"{key}\""))?;
        let score = num(b, "score").map_err(|e| format!("index[{i}]: {e}"))?;
        let rows: Vec<_> = b
            .get("rows")
            .and_then(Value::as_array)
            .unwrap_or(&[])
            .iter()
            .filter_map(|row| {
                Some((opt_num(row, "index")?, row.get("message").and_then(Value::as_str).unwrap_or("")))
            })
            .collect();
        index.push(Index {
            category,
            score,
            partial: b.get("partial").and_then(Value::as_bool).unwrap_or(false),
            ci: index_ci(score, &rows, &tests),
        });
    }
    Ok(Run { copies: copies as usize, tests, index })
}

/// The kind of image an `exec_image` kind names (`dynamic-glibc`, ...); a file without one was
/// written before the twins existed, and timed the static image.
pub(super) fn image_of(kind: Option<&str>) -> Image {
    match kind {
        Some(k) if k.starts_with("dynamic") => Image::Dynamic,
        _ => Image::Static,
    }
}

/// An interval from its two ends, as the results JSON keeps it (`ci95_low`, `ci95_high`); the
/// log path goes through here too, so that both give the same bits.
pub(super) fn from_ends(lo: f64, hi: f64) -> Option<Interval> {
    if lo <= 0.0 || hi < lo {
        return None;
    }
    Some(Interval { low: lo, high: hi, log_half: (hi / lo).ln() / 2.0 })
}

/// An index's interval, from the intervals of the tests it is the geometric mean of: its rows
/// with an index, as (index, message), each with the interval of the test of that message.
pub(super) fn index_ci(score: f64, rows: &[(f64, &str)], tests: &[Test]) -> Option<Interval> {
    let parts: Vec<(f64, Option<f64>)> = rows
        .iter()
        .map(|&(ix, msg)| {
            (ix, tests.iter().find(|t| t.message == msg).and_then(|t| t.ci).map(|c| c.log_half))
        })
        .collect();
    stats::propagate(&parts).map(|c| Interval::around(score, c.log_half))
}

/// A result's interval: its `stats` object when present, else computed from its kept passes.
fn json_interval(t: &Value) -> Option<Interval> {
    if let Some(s) = t.get("stats") {
        return from_ends(opt_num(s, "ci95_low")?, opt_num(s, "ci95_high")?);
    }
    let rates: Vec<f64> = t
        .get("passes")?
        .as_array()?
        .iter()
        .filter(|p| p.get("kept").and_then(Value::as_bool) == Some(true))
        .map(|p| {
            let (count, time, tb) = (
                opt_num(p, "count").unwrap_or(0.0),
                opt_num(p, "time").unwrap_or(0.0),
                opt_num(p, "timebase").unwrap_or(0.0),
            );
            if tb > 0.0 && time > 0.0 {
                count / (time / tb)
            } else {
                count
            }
        })
        .collect();
    stats::ci95(&rates)
}

// ---- Text reports --------------------------------------------------------------------------

/// Parses the classic report layout (docs/ORIGINAL.md, "Text report"): `Benchmark Run:` blocks,
/// each with its `N CPUs in system; running M parallel copies of tests` line, result lines, and
/// index blocks. Lines outside blocks (the header, a console's progress lines) are ignored.
fn from_text(file: &str, text: &str) -> Result<Source, String> {
    let lines: Vec<&str> = text.lines().collect();
    let version = lines
        .iter()
        .find_map(|l| l.trim_start().strip_prefix("BYTE UNIX Benchmarks (Version "))
        .map(|v| v.trim_end().trim_end_matches(')').to_string())
        .unwrap_or_else(|| "unknown".into());
    let starts: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("Benchmark Run:")).collect();
    let mut runs = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        let mut run = text_block(&lines, start, end)?;
        mark_disturbed(&mut run.tests, &lines[start..end]);
        runs.push(run);
    }
    // The notes `report::text` writes for a quick run and for `-t`; a report without them (the
    // C suite's too) ran Run's durations. (`-i` has no note: a text report cannot tell it.)
    let note = |lead: &str| lines.iter().any(|l| l.strip_prefix("** ").is_some_and(|n| n.starts_with(lead)));
    let (quick, short) = (note(report::view::QUICK_LEAD), note(report::view::SHORT_LEAD));
    let date = starts.first().and_then(|&i| text_date(lines[i])).unwrap_or_else(|| "unknown".into());
    let host = text_host(&lines);
    Ok(Source { file: file.to_string(), kind: Kind::Text, version, quick, short, date, runs, host })
}

/// `Benchmark Run: Mon Nov 30 2026 00:05:42 - 00:33:38` -> `2026-11-30T00:05:42`, the start in
/// the run host's local time, whose zone the report does not give.
fn text_date(l: &str) -> Option<String> {
    let w: Vec<&str> = l.strip_prefix("Benchmark Run: ")?.split_whitespace().collect();
    let [_, mon, day, year, hms, ..] = w[..] else { return None };
    let mon = crate::fmt::MONTHS.iter().position(|m| *m == mon)? + 1;
    let (day, year): (u32, u32) = (day.parse().ok()?, year.parse().ok()?);
    let ok = hms.len() == 8 && hms.split(':').all(|f| f.len() == 2 && f.parse::<u8>().is_ok());
    ok.then(|| format!("{year:04}-{mon:02}-{day:02}T{hms}"))
}

/// The identity in a text report's system block: `   System: NAME: distro`, `   OS: os --
/// release -- version`, `   Machine: arch (platform)`, `   CPU 0: model (N bogomips)`, and the
/// first `N CPUs in system` line.
fn text_host(lines: &[&str]) -> Host {
    let field = |key: &str| lines.iter().find_map(|l| l.strip_prefix("   ")?.strip_prefix(key));
    let or_unknown =
        |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).unwrap_or("unknown").to_string();
    Host {
        name: or_unknown(field("System: ").map(|s| s.split_once(": ").map_or(s, |(n, _)| n))),
        machine: or_unknown(field("Machine: ").map(|s| s.split(" (").next().unwrap_or(s))),
        os_release: or_unknown(field("OS: ").and_then(|s| s.split(" -- ").nth(1))),
        cpus: lines
            .iter()
            .find_map(|l| l.split_once(" in system; running ")?.0.split(' ').next()?.parse().ok()),
        cpu: or_unknown(field("CPU 0: ").map(|s| s.rsplit_once(" (").map_or(s, |(m, _)| m))),
    }
}

fn at(line: usize, msg: impl std::fmt::Display) -> String {
    format!("line {}: {msg}", line + 1)
}

/// The copy count of a `N CPUs in system; running M parallel copies of tests` line.
fn copies_line(l: &str) -> Option<usize> {
    let rest = l.split_once(" in system; running ")?.1;
    let (n, tail) = rest.split_once(' ')?;
    matches!(tail, "parallel copy of tests" | "parallel copies of tests").then_some(())?;
    n.parse().ok().filter(|&n| n > 0)
}

/// `%-40s %12.1f %-5s (%.1f s, %d samples)` -> (message, score, unit).
fn result_line(l: &str) -> Option<(String, f64, String)> {
    let l = l.trim_end();
    let open = l.rfind(" (")?;
    let inner = l[open + 2..].strip_suffix(" samples)")?;
    let (time, samples) = inner.split_once(" s, ")?;
    time.parse::<f64>().ok()?;
    samples.parse::<u64>().ok()?;
    let (rest, unit) = last_word(&l[..open])?;
    let (message, score) = last_word(rest)?;
    let score: f64 = score.parse().ok()?;
    (!message.is_empty() && !unit.is_empty()).then(|| (message.to_string(), score, unit.to_string()))
}

/// Splits the last blank-separated word off `s`: (what comes before, trimmed; the word).
fn last_word(s: &str) -> Option<(&str, &str)> {
    let (rest, word) = s.trim_end().rsplit_once(' ')?;
    Some((rest.trim_end(), word))
}

/// An index row: `message baseline score index`, `---` for a missing baseline and index.
fn index_row(l: &str) -> Option<(String, Option<f64>)> {
    let (rest, index) = last_word(l)?;
    let (rest, score) = last_word(rest)?;
    let (message, base) = last_word(rest)?;
    score.parse::<f64>().ok()?;
    let index = match (base, index) {
        ("---", "---") => None,
        _ => {
            base.parse::<f64>().ok()?;
            Some(index.parse::<f64>().ok()?)
        }
    };
    (!message.is_empty()).then(|| (message.to_string(), index))
}

/// Marks the tests a block's `** disturbed: <test> (...)` notes name (by the name that runs
/// them, as every note does).
fn mark_disturbed(tests: &mut [Test], block: &[&str]) {
    let named: Vec<&str> = block
        .iter()
        .filter_map(|l| l.strip_prefix("** disturbed: ")?.split_once(" (").map(|(n, _)| n))
        .collect();
    for t in tests.iter_mut() {
        let name = crate::suite::TESTS.iter().find(|x| x.message == t.message).map(|x| x.name);
        t.disturbed = name.is_some_and(|n| named.contains(&n));
    }
}

fn text_block(lines: &[&str], start: usize, end: usize) -> Result<Run, String> {
    let mut i = start + 1;
    while i < end && lines[i].trim().is_empty() {
        i += 1;
    }
    let copies = lines.get(i).filter(|_| i < end).and_then(|l| copies_line(l)).ok_or_else(|| {
        at(start, "'Benchmark Run:' is not followed by the '... running N parallel copies of tests' line")
    })?;
    let mut b = Block::default();
    for (j, l) in lines.iter().enumerate().take(end).skip(i + 1) {
        if !b.line(j, l)? {
            break;
        }
    }
    b.mark_images();
    if b.in_index {
        return Err(at(
            end.saturating_sub(1),
            format!("the index block of the {copies}-copy run has no score line (truncated report?)"),
        ));
    }
    if b.index.is_empty() {
        return Err(at(start, format!("the {copies}-copy run has no index block (truncated report?)")));
    }
    Ok(Run { copies, tests: b.tests, index: b.index })
}

/// A `Benchmark Run:` block as it is read, line by line.
#[derive(Default)]
struct Block {
    tests: Vec<Test>,
    index: Vec<Index>,
    /// The rows of the index block being read, until its score line.
    rows: Vec<(String, Option<f64>)>,
    in_index: bool,
    /// Inside UnixBench 4.0's block of an `index4` run.
    in_index4: bool,
    /// The tests a note says ran on the static image.
    on_static: Vec<String>,
}

impl Block {
    /// Reads line `j`, `l`; false at the end of the block.
    fn line(&mut self, j: usize, l: &str) -> Result<bool, String> {
        let t = l.trim();
        // `** ` lines are our notes (failed or skipped tests, a quick run's intervals), which no
        // classic line resembles.
        if let Some((names, _)) =
            l.strip_prefix("** ").and_then(|n| n.split_once(" ran on the static image ("))
        {
            self.on_static.extend(names.split(" and ").map(str::to_string));
        }
        if t.is_empty() || t.chars().all(|c| c == '-') || l.starts_with("** ") || self.in_index4_block(t) {
            return Ok(true);
        }
        if t.ends_with(" INDEX") && t.contains(" BASELINE ") {
            self.in_index = true;
            self.rows.clear();
            return Ok(true);
        }
        if self.in_index {
            return self.index_line(j, l, t).map(|()| true);
        }
        // The console's closing rule and the end of a report: leave the block.
        if t.chars().all(|c| c == '=') {
            return Ok(false);
        }
        let (message, score, unit) =
            result_line(l).ok_or_else(|| at(j, format!("not a result line: '{t}'")))?;
        self.tests.push(Test { message, score, unit, index: None, ci: None, image: None, disturbed: false });
        Ok(true)
    }

    /// Whether `t` belongs to the UnixBench 4.0 block of an `index4` run (report/index4.rs),
    /// which compare does not line up: from its `INDEX VALUES` title to its rule, then its
    /// `FINAL SCORE` line.
    fn in_index4_block(&mut self, t: &str) -> bool {
        if t == "INDEX VALUES" || self.in_index4 {
            self.in_index4 = !t.starts_with('=');
            return true;
        }
        t.starts_with("FINAL SCORE ")
    }

    /// A line of an index block: a row, its rule, or the score line that ends it (and gives
    /// the block's rows to their tests).
    fn index_line(&mut self, j: usize, l: &str, t: &str) -> Result<(), String> {
        if t == "========" {
            return Ok(());
        }
        if let Some((title, value)) = t.rsplit_once(' ') {
            let title = title.trim_end();
            let (title, partial) = match title.strip_suffix(" (Partial Only)") {
                Some(t) => (t, true),
                None => (title, false),
            };
            if let Some(name) = title.strip_suffix(" Index Score") {
                let category =
                    category_named(name).ok_or_else(|| at(j, format!("unknown index category '{name}'")))?;
                let score = value.parse().map_err(|_| at(j, format!("'{value}' is not a number")))?;
                for (m, ix) in self.rows.drain(..) {
                    if let Some(t) = self.tests.iter_mut().find(|t| t.message == m) {
                        t.index = ix;
                    }
                }
                self.index.push(Index { category, score, partial, ci: None });
                self.in_index = false;
                return Ok(());
            }
        }
        let row = index_row(l).ok_or_else(|| at(j, format!("not an index row: '{t}'")))?;
        self.rows.push(row);
        Ok(())
    }

    /// execl and spawn timed a dynamic program (the C suite's, or our twin) unless a note says
    /// they ran on the static image.
    fn mark_images(&mut self) {
        for t in self.tests.iter_mut().filter(|t| times_an_image(&t.message)) {
            let name = twin::image::PROGRAMS.iter().find(|(_, m)| *m == t.message).map(|(n, _)| *n);
            let noted = name.is_some_and(|n| self.on_static.iter().any(|s| s == n));
            t.image = Some(if noted { Image::Static } else { Image::Dynamic });
        }
    }
}

/// The bound of every score and index read: no machine's figure comes near it (the fastest
/// test, Dhrystone, gives about 10^9 lps a core, so 10^12 for a thousand cores), and below it
/// every figure prints as the short number the tables are laid out for.
pub const MAX_FIGURE: f64 = 1e15;

/// The most characters of a string read (a version, a host's names, a test's name and unit)
/// that are printed: far above any real one, short enough to keep a table a table.
pub const MAX_TEXT: usize = 100;

/// Holds `src` to what a real run can give: every score, index and interval finite, not
/// negative and below [`MAX_FIGURE`], else the error names the first that is not; every string
/// cut at [`MAX_TEXT`] characters. Returns the names of the fields cut.
pub fn bounded(src: &mut Source) -> Result<Vec<&'static str>, String> {
    for r in &src.runs {
        let ci = |c: &Option<Interval>| c.map_or(vec![], |c| vec![c.low, c.high]);
        let tests = r.tests.iter().map(|t| {
            (t.message.as_str(), [vec![t.score], t.index.into_iter().collect(), ci(&t.ci)].concat())
        });
        let index = r.index.iter().map(|i| (i.category.display(), [vec![i.score], ci(&i.ci)].concat()));
        for (what, figures) in tests.chain(index) {
            if let Some(x) = figures.into_iter().find(|x| !(x.is_finite() && (0.0..MAX_FIGURE).contains(x))) {
                return Err(format!(
                    "the {}-copy run's '{}' reads {x:e}, beyond any machine's figures (the bound is 1e15)",
                    r.copies,
                    crate::args::escaped(&cut(what, MAX_TEXT))
                ));
            }
        }
    }
    Ok(cut_strings(src))
}

/// Cuts every string of `src` at [`MAX_TEXT`] characters, its control characters made `?` (a
/// newline would break a table's line); returns the names of those cut.
fn cut_strings(src: &mut Source) -> Vec<&'static str> {
    let mut cut_names = Vec::new();
    let mut hold = |name: &'static str, s: &mut String| {
        if s.chars().any(char::is_control) {
            *s = crate::fmt::printable(s);
        }
        if s.chars().count() > MAX_TEXT {
            *s = cut(s, MAX_TEXT);
            if !cut_names.contains(&name) {
                cut_names.push(name);
            }
        }
    };
    hold("version", &mut src.version);
    hold("date", &mut src.date);
    hold("host name", &mut src.host.name);
    hold("machine", &mut src.host.machine);
    hold("OS release", &mut src.host.os_release);
    hold("CPU model", &mut src.host.cpu);
    for t in src.runs.iter_mut().flat_map(|r| r.tests.iter_mut()) {
        hold("test name", &mut t.message);
        hold("unit", &mut t.unit);
    }
    cut_names
}

/// `s` cut at `n` characters, `...` ending a cut one.
fn cut(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((at, _)) => format!("{}...", &s[..at]),
        None => s.to_string(),
    }
}

/// The largest input read: far above any results file, far below what would exhaust memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// Reads `path` if it is a regular file of at most [`MAX_INPUT`] bytes, opened by
/// `sys::fd::open_file`: a FIFO without a writer is refused rather than waited for.
pub fn read_capped(path: &std::ffi::OsStr) -> std::result::Result<Vec<u8>, String> {
    use std::io::Read;
    let f =
        crate::sys::fd::open_file(std::path::Path::new(path), crate::sys::fd::Open::Read).map_err(|e| {
            // The caller names the file: the reason alone.
            let full = io_reason(&e);
            let reason = full.strip_prefix(&format!("{}: ", path.to_string_lossy())).unwrap_or(&full);
            match (e.kind(), reason) {
                (_, "a directory") => "a directory: compare reads results files".to_string(),
                (std::io::ErrorKind::InvalidInput, r) => {
                    format!("not a regular file ({r}): compare reads results files")
                }
                (_, r) => format!("cannot read: {r}"),
            }
        })?;
    let m = f.metadata().map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    if m.len() > MAX_INPUT {
        return Err(format!("{} bytes: larger than the {} MiB compare reads", m.len(), MAX_INPUT >> 20));
    }
    let mut bytes = Vec::new();
    // The cap holds even for a file that grows while it is read.
    f.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("larger than the {} MiB compare reads", MAX_INPUT >> 20));
    }
    Ok(bytes)
}

/// An I/O error's reason without Rust's `(os error N)` suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_lines() {
        assert_eq!(
            result_line("Dhrystone 2 using register variables      160012088.8 lps   (10.0 s, 7 samples)"),
            Some(("Dhrystone 2 using register variables".into(), 160012088.8, "lps".into()))
        );
        assert_eq!(
            result_line("A message that is longer than forty characters wide 1.0 KBps  (30.0 s, 2 samples)"),
            Some(("A message that is longer than forty characters wide".into(), 1.0, "KBps".into()))
        );
        assert_eq!(result_line("1 x Dhrystone 2 using register variables  1 2 3"), None);
        assert_eq!(copies_line("2 CPUs in system; running 1 parallel copy of tests"), Some(1));
        assert_eq!(copies_line("unknown CPUs in system; running 16 parallel copies of tests"), Some(16));
        assert_eq!(copies_line("2 CPUs in system; running 0 parallel copies of tests"), None);
        assert_eq!(
            index_row("Shell Scripts (16 concurrent)                     ---       1234.5      ---"),
            Some(("Shell Scripts (16 concurrent)".into(), None))
        );
        assert_eq!(
            index_row("Dhrystone 2 using register variables         116700.0  160012088.8  13711.4"),
            Some(("Dhrystone 2 using register variables".into(), Some(13711.4)))
        );
        assert_eq!(index_row("Pipe Throughput 12440.0 x 1.0"), None);
    }

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
        assert_eq!(text_date("Benchmark Run: Tue Dec 01 2026 12:0:00 - 12:00:06"), None);

        // One warning for files of different kinds, none for files of one kind.
        let (std, quick) = (text(""), text("** Quick run (--quick, 8 s budget)\n\n"));
        assert_eq!(kinds_warning(&[std.clone(), std.clone()]), None);
        assert_eq!(
            kinds_warning(&[std.clone(), quick.clone(), std]).as_deref(),
            Some("comparing runs of different kinds (standard, quick): their figures are not comparable")
        );
    }
}
