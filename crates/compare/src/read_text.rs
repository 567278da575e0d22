//! Reading a text report in the classic layout (ours, or the C UnixBench's) into `compare`'s
//! model: its `Benchmark Run:` blocks, their result lines and index blocks, its notes (a quick
//! or short run, a disturbed test, a static image) and its system block. No intervals: those are
//! in the run's `.log`, which `log` reads.

use crate::json::decimal::parse_f64;
use crate::model::Category;
use crate::source::{times_an_image, CopyRun, FileKind, Host, Image, Index, Source, TestResult};

/// The category whose report name is `display` (`System Benchmarks`, ...).
fn category_named(display: &str) -> Option<Category> {
    Category::ALL.into_iter().find(|c| c.display() == display)
}

/// Parses the classic report layout (docs/ORIGINAL.md, "Text report"): `Benchmark Run:` blocks,
/// each with its `N CPUs in system; running M parallel copies of tests` line, result lines, and
/// index blocks. Lines outside blocks (the header, a console's progress lines) are ignored.
pub(super) fn from_text(file: &str, text: &str) -> Result<Source, String> {
    let lines: Vec<&str> = text.lines().collect();
    let version = lines
        .iter()
        .find_map(|l| l.trim_start().strip_prefix("BYTE UNIX Benchmarks (Version "))
        .map(|v| v.trim_end().trim_end_matches(')').to_string())
        .unwrap_or_else(|| "unknown".into());
    let mut starts = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("Benchmark Run:") {
            starts.push(i);
        }
    }
    let mut runs = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(lines.len());
        let mut run = text_block(&lines, start, end)?;
        mark_disturbed(&mut run.tests, &lines[start..end]);
        runs.push(run);
    }
    // The notes `report::text` writes for a quick run, for `-t` and for any run not standard
    // (`-i` too); a report without them (the C suite's too) ran Run's durations and passes.
    let note = |lead: &str| lines.iter().any(|l| l.strip_prefix("** ").is_some_and(|n| n.starts_with(lead)));
    let short_kind = format!("{} (short)", report::view::NOT_STANDARD_LEAD);
    let (quick, short) =
        (note(report::view::QUICK_LEAD), note(report::view::SHORT_LEAD) || note(&short_kind));
    let date = starts.first().and_then(|&i| text_date(lines[i])).unwrap_or_else(|| "unknown".into());
    let host = text_host(&lines);
    let rounds = note(report::view::ROUNDS_LEAD);
    Ok(Source {
        file: file.to_string(),
        kind: FileKind::Text,
        version,
        quick,
        short,
        rounds,
        date,
        runs,
        host,
    })
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
    parse_f64(time)?;
    samples.parse::<u64>().ok()?;
    let (rest, unit) = last_word(&l[..open])?;
    let (message, score) = last_word(rest)?;
    let score = parse_f64(score)?;
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
    parse_f64(score)?;
    let index = match (base, index) {
        ("---", "---") => None,
        _ => {
            parse_f64(base)?;
            Some(parse_f64(index)?)
        }
    };
    (!message.is_empty()).then(|| (message.to_string(), index))
}

/// Marks the tests a block's `** disturbed: <test> (...)` notes name (by the name that runs
/// them, as every note does).
fn mark_disturbed(tests: &mut [TestResult], block: &[&str]) {
    let noted = |name: &str| {
        block.iter().any(|l| {
            l.strip_prefix("** disturbed: ").and_then(|n| n.split_once(" (")).is_some_and(|(n, _)| n == name)
        })
    };
    for t in tests.iter_mut() {
        let name = crate::suite::TESTS.iter().find(|x| x.message == t.message).map(|x| x.name);
        t.disturbed = name.is_some_and(noted);
    }
}

fn text_block(lines: &[&str], start: usize, end: usize) -> Result<CopyRun, String> {
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
    Ok(CopyRun { copies, tests: b.tests, index: b.index })
}

/// A `Benchmark Run:` block as it is read, line by line.
#[derive(Default)]
struct Block {
    tests: Vec<TestResult>,
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
        // ` BASELINE ` inside: a word of its own, not the first (nor the last, INDEX).
        if t.ends_with(" INDEX") && t.split(' ').skip(1).any(|w| w == "BASELINE") {
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
        self.tests.push(TestResult {
            message,
            score,
            unit,
            index: None,
            ci: None,
            image: None,
            disturbed: false,
        });
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
                let score = parse_f64(value).ok_or_else(|| at(j, format!("'{value}' is not a number")))?;
                let at = crate::source::ByName::tests(&self.tests);
                let found: Vec<Option<usize>> = self.rows.iter().map(|(m, _)| at.get(m)).collect();
                for (k, (_, ix)) in found.into_iter().zip(self.rows.drain(..)) {
                    if let Some(k) = k {
                        self.tests[k].index = ix;
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
            let name = twin::exec_image::PROGRAMS.iter().find(|(_, m)| *m == t.message).map(|(n, _)| *n);
            let noted = name.is_some_and(|n| self.on_static.iter().any(|s| s == n));
            t.image = Some(if noted { Image::Static } else { Image::Dynamic });
        }
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
    fn a_banner_whose_time_is_not_hh_mm_ss_gives_no_date() {
        assert_eq!(text_date("Benchmark Run: Tue Dec 01 2026 12:0:00 - 12:00:06"), None);
    }
}
