//! Reading a file within bounds: a regular file of at most [`MAX_INPUT`] bytes, and what is read
//! from it held to what a real run can give (figures below [`MAX_FIGURE`], strings cut at
//! [`MAX_TEXT`] characters).

use crate::source::Source;
use crate::stats::Interval;

/// The bound of every score and index read: no machine's figure comes near it (the fastest
/// test, Dhrystone, gives about 10^9 lps a core, so 10^12 for a thousand cores), and below it
/// every figure prints as the short number the tables are laid out for.
pub const MAX_FIGURE: f64 = 1e15;

/// The most characters of a string read (a version, a host's names, a test's name and unit)
/// that are printed: far above any real one, short enough to keep a table a table.
pub const MAX_TEXT: usize = crate::fmt::MAX_HOST_TEXT;

/// Holds `src` to what a real run can give: every score, index and interval finite, not
/// negative and below [`MAX_FIGURE`], else the error names the first that is not; every string
/// cut at [`MAX_TEXT`] characters; no test twice in one run (a run keeps a test's last result,
/// so a file that holds two was put together by hand, and one of them would weigh twice); no
/// index for a run without tests. Returns the names of the fields cut.
pub fn bounded(src: &mut Source) -> Result<Vec<&'static str>, String> {
    for r in &mut src.runs {
        if r.tests.is_empty() {
            r.index.clear();
        }
        // A test's name whose first place is not its own is there twice.
        let names = crate::source::ByName::tests(&r.tests);
        if let Some((_, t)) = r.tests.iter().enumerate().find(|(k, t)| names.get(&t.message) != Some(*k)) {
            return Err(format!(
                "the {}-copy run holds '{}' twice: a run holds each test once",
                r.copies,
                crate::args::escaped(&crate::fmt::cut_chars(&t.message, MAX_TEXT))
            ));
        }
    }
    for r in &src.runs {
        // Each one's score, index (an index score has none) and interval, those it has.
        let figures = |score: f64, index: Option<f64>, ci: Option<Interval>| {
            [Some(score), index, ci.map(|c| c.low), ci.map(|c| c.high)]
        };
        let tests = r.tests.iter().map(|t| (t.message.as_str(), figures(t.score, t.index, t.ci)));
        let index = r.index.iter().map(|i| (i.category.display(), figures(i.score, None, i.ci)));
        for (what, figures) in tests.chain(index) {
            let beyond = |x: &f64| !(x.is_finite() && (0.0..MAX_FIGURE).contains(x));
            if let Some(x) = figures.into_iter().flatten().find(beyond) {
                return Err(format!(
                    "the {}-copy run's '{}' reads {}, beyond any machine's figures (the bound is 1e15)",
                    r.copies,
                    crate::args::escaped(&crate::fmt::cut_chars(what, MAX_TEXT)),
                    crate::json::exponent(x, None)
                ));
            }
        }
    }
    Ok(cut_strings(src))
}

/// Cuts every string of `src` at [`MAX_TEXT`] characters and makes it and the file's name
/// [`printable`](crate::fmt::printable) (a newline would break a table's line, an escape sequence
/// would reach the terminal): every format prints them from here. Returns the names of those cut.
fn cut_strings(src: &mut Source) -> Vec<&'static str> {
    let mut cut_names = Vec::new();
    src.file = crate::fmt::printable(&src.file);
    let mut hold = |name: &'static str, s: &mut String| {
        if s.chars().count() > MAX_TEXT {
            *s = crate::fmt::cut_chars(s, MAX_TEXT);
            if !cut_names.contains(&name) {
                cut_names.push(name);
            }
        }
        *s = crate::fmt::printable(s);
    };
    hold("version", &mut src.version);
    hold("date", &mut src.date);
    hold("host name", &mut src.host.name);
    hold("machine", &mut src.host.machine);
    hold("OS release", &mut src.host.os_release);
    hold("CPU model", &mut src.host.cpu);
    for r in &mut src.runs {
        for t in &mut r.tests {
            hold("test name", &mut t.message);
            hold("unit", &mut t.unit);
        }
    }
    cut_names
}

/// The largest input read: far above any results file, far below what would exhaust memory.
pub const MAX_INPUT: u64 = 64 << 20;

/// The most memory a JSON file's values may take once read (`json::Limits`): a results file
/// takes far less, since its copies' figures are not kept; a file made of nothing but values
/// is refused before compare holds more than this besides the file's bytes.
pub const MAX_TREE: usize = 128 << 20;

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
    // All of it at once, or a memory limit (`ulimit -v`) said in a line, never an abort.
    bytes.try_reserve_exact(m.len() as usize + 1).map_err(|_| {
        format!("{} bytes: more than the memory left to read them (a memory limit?)", m.len())
    })?;
    // The cap holds even for a file that grows while it is read.
    f.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {}", io_reason(&e)))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("larger than the {} MiB compare reads", MAX_INPUT >> 20));
    }
    Ok(bytes)
}

/// Whether the memory left holds what reading a file of `len` bytes may take: a quarter of
/// its size and 8 MiB more (its values, the model, the tables), at most the reader's bound
/// ([`MAX_TREE`]). Tried, then given back: under a memory limit (`ulimit -v`) a file
/// that would not fit is refused in one line, where an allocation failing halfway would abort.
pub fn room_to_read(len: usize) -> std::result::Result<(), String> {
    let want = (len / 4 + (8 << 20)).min(MAX_TREE);
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(want)
        .map_err(|_| format!("{len} bytes: more than the memory left to read them (a memory limit?)"))
}

/// An I/O error's reason without Rust's `(os error N)` suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}
