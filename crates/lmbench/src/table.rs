//! The summary table in lmbench 3's layout (its `getsummary` script): the same section titles,
//! column heads, widths and number formats, one row per host. Pure: results in, text out.
//!
//! Figure keys are getsummary's variable names, in the units of its table: microseconds for
//! latencies (the file create and delete columns too, where lmbench stores rates and divides),
//! MB/s for bandwidths, nanoseconds for memory latencies, MHz for the clock. Which section of
//! the table prints a figure, and in what width, is the figures table's (`figures.rs`); the
//! blocks below add only getsummary's headers and its few repeats and blank columns.

use crate::figures::{self, Section};
use std::fmt::Write as _;

/// One host's figures, as measured or read back from a results file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostResults {
    /// Host name (the first column, 9 characters).
    pub host: String,
    /// "sysname release", e.g. "Linux 6.1.0-13" (13 characters shown).
    pub os: String,
    /// Figure key -> value, for what was measured.
    pub figures: Keyed<f64>,
    /// Figure key -> why it has no value (or what to know about the one it has).
    pub notes: Notes,
    /// Measured in the short mode (`-s`): a smoke test, not figures to compare.
    pub short: bool,
}

/// Why figures have no value, by key, in key order.
pub type Notes = Keyed<String>;

/// Values by key, in key order: sorted lists, since a host has a few dozen figures at most and a
/// map type would cost the binary its own code for each value type (4 KB for one); the keys in
/// a list of their own, so that one search serves every value type.
#[derive(Debug, Clone, PartialEq)]
pub struct Keyed<V> {
    keys: Vec<String>,
    values: Vec<V>,
}

impl<V> Default for Keyed<V> {
    fn default() -> Self {
        Keyed { keys: Vec::new(), values: Vec::new() }
    }
}

/// Where `key` is among the sorted `keys`, or where it would go.
fn find(keys: &[String], key: &str) -> Result<usize, usize> {
    keys.binary_search_by(|k| k.as_str().cmp(key))
}

impl<V> Keyed<V> {
    fn find(&self, key: &str) -> Result<usize, usize> {
        find(&self.keys, key)
    }

    /// Sets `key`'s value, replacing any it had.
    pub fn insert(&mut self, key: String, value: V) {
        match self.find(&key) {
            Ok(i) => self.values[i] = value,
            Err(i) => {
                self.keys.insert(i, key);
                self.values.insert(i, value);
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.values[i])
    }

    pub fn remove(&mut self, key: &str) {
        if let Ok(i) = self.find(key) {
            self.keys.remove(i);
            self.values.remove(i);
        }
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// (key, value), in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &V)> {
        self.keys.iter().zip(&self.values)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.values.iter()
    }
}

impl HostResults {
    /// Records why `key` has no figure.
    pub fn note(&mut self, key: &str, why: String) {
        self.notes.insert(key.to_string(), why);
    }

    /// `key`'s figure, or -1 when it has none (a cell the helpers below leave blank).
    fn get(&self, key: &str) -> f64 {
        self.figures.get(key).copied().filter(|v| v.is_finite()).unwrap_or(-1.0)
    }
}

/// Columns of lmbench's layout this tool never measures, with the footnote for them.
pub const NEVER: &[(&str, &str)] = &[("RPC/UDP, RPC/TCP", "not measured: Sun RPC is not part of this tool")];

/// lmbench's `num`: a positive value in `len` characters, in K or M above ten thousand or ten
/// million; nothing measured, or not positive, prints `len` blanks. Where getsummary would cut
/// digits off (a value at either end of what a file can hold), the shortest C `%e` form that
/// fits, or `#`s where none does.
pub fn num(val: f64, len: usize) -> String {
    if val.is_nan() || val <= 0.0 {
        return " ".repeat(len);
    }
    if val >= 1e6 * 10f64.powi(len as i32 - 1) || val < 0.001 {
        return sci(val, len);
    }
    // One decimal from ten up, in M or K from ten million or ten thousand; below ten, as many
    // decimals as the width holds.
    let (v, unit) = if val >= 10e6 {
        (val / 1e6, "M")
    } else if val >= 10e3 {
        (val / 1e3, "K")
    } else {
        (val, "")
    };
    let prec = if val >= 10.0 { 1 } else { len.saturating_sub(2) };
    // Right-aligned and cut to the width, as C's `%W.Ws`.
    let w = len - unit.len();
    format!("{:>w$}{unit}", cut(&format!("{v:.prec$}"), w))
}

/// C's `%.Ne` (the exponent signed, at least two digits) in `len` characters: getsummary's
/// precision, `len` - 6, or less where the exponent takes three digits; `#`s where even no
/// decimals do not fit.
fn sci(val: f64, len: usize) -> String {
    if !val.is_finite() {
        return "#".repeat(len);
    }
    let c_e = |prec: usize| {
        let e = crate::json::exponent(val, Some(prec));
        let (m, x) = e.split_once('e').unwrap_or((&e, "0"));
        let (sign, x) = x.strip_prefix('-').map_or(('+', x), |x| ('-', x));
        format!("{m}e{sign}{x:0>2}")
    };
    for prec in (0..=len.saturating_sub(6)).rev() {
        let s = c_e(prec);
        if s.len() <= len {
            return format!("{s:>len$}");
        }
    }
    "#".repeat(len)
}

/// lmbench's `inum`: a whole number right-aligned in `len`, blanks when not positive, `#`s
/// when it has more digits than `len`.
pub fn inum(val: f64, len: usize) -> String {
    if val.is_nan() || val <= 0.0 {
        " ".repeat(len)
    } else if val >= 10f64.powi(len as i32) {
        "#".repeat(len)
    } else {
        format!("{:>len$}", val as i64)
    }
}

/// `s` cut to `w` characters (C's `%.Ws`).
fn cut(s: &str, w: usize) -> &str {
    s.char_indices().nth(w).map_or(s, |(i, _)| &s[..i])
}

fn any(hosts: &[HostResults], keys: &[&str]) -> bool {
    hosts.iter().any(|h| has(h, keys))
}
fn has(h: &HostResults, keys: &[&str]) -> bool {
    keys.iter().any(|k| h.get(k) > 0.0)
}

/// A row's host and OS, getsummary's `%-9.9s %13.13s`.
fn lead(h: &HostResults, o: &mut String) {
    let _ = write!(o, "{:<9} {:>13} ", cut(&h.host, 9), cut(&h.os, 13));
}

/// A section of the printed table, in getsummary's layout.
struct Block {
    section: Section,
    /// The title, rulers and column heads, as getsummary prints them.
    head: &'static str,
    /// A figure of another section that getsummary prints first in this one, in this width.
    lead_with: Option<(&'static str, usize)>,
    /// Figures that do not make the section or a host's row appear (getsummary's `resultsq`
    /// lists leave them out).
    silent: &'static [&'static str],
}

const BLOCKS: &[Block] = &[
    Block {
        section: Section::Proc,
        head: concat!(
            "\nProcessor, Processes - times in microseconds - smaller is better\n",
            "------------------------------------------------------------------------------\n",
            "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  \n",
            "                             call  I/O stat clos TCP  inst hndl proc proc proc\n",
            "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----\n",
        ),
        lead_with: Some(("mhz", 4)),
        silent: &["mhz"],
    },
    Block {
        section: Section::Ctx,
        head: concat!(
            "\nContext switching - times in microseconds - smaller is better\n",
            "-------------------------------------------------------------------------\n",
            "Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K\n",
            "                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw\n",
            "--------- ------------- ------ ------ ------ ------ ------ ------- -------\n",
        ),
        lead_with: None,
        silent: &[],
    },
    Block {
        section: Section::Lat,
        head: concat!(
            "\n*Local* Communication latencies in microseconds - smaller is better\n",
            "---------------------------------------------------------------------\n",
            // lmbench's RPC/UDP and RPC/TCP columns are left out (see NEVER); every other
            // column keeps its width and order.
            "Host                 OS 2p/0K  Pipe AF     UDP   TCP TCP\n",
            "                        ctxsw       UNIX             conn\n",
            "--------- ------------- ----- ----- ---- ----- ----- ----\n",
        ),
        lead_with: Some(("lat_ctx0_2", 5)),
        silent: &[],
    },
    Block {
        section: Section::Fs,
        head: concat!(
            "\nFile & VM system latencies in microseconds - smaller is better\n",
            "-------------------------------------------------------------------------------\n",
            "Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd\n",
            "                        Create Delete Create Delete Latency Fault  Fault  selct\n",
            "--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----\n",
        ),
        lead_with: None,
        silent: &["lat_fd_select"],
    },
    Block {
        section: Section::Bw,
        head: concat!(
            "\n*Local* Communication bandwidths in MB/s - bigger is better\n",
            "-----------------------------------------------------------------------------\n",
            "Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem\n",
            "                             UNIX      reread reread (libc) (hand) read write\n",
            "--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----\n",
        ),
        lead_with: None,
        silent: &["bw_mmap"],
    },
];

/// A cell: a figure's key and width.
type Cell = (&'static str, usize);

impl Block {
    /// The cells after the host and OS, left to right.
    fn cells(&self) -> Vec<Cell> {
        let mut v: Vec<Cell> = self.lead_with.into_iter().collect();
        v.extend(figures::of(self.section).map(|f| (f.key, f.width.into())));
        v
    }

    fn render(&self, hosts: &[HostResults], o: &mut String) {
        let cells = self.cells();
        // A host's row shows where a figure of the section, not a silent one, has a value.
        let shows = |h: &HostResults| cells.iter().any(|&(k, _)| !self.silent.contains(&k) && h.get(k) > 0.0);
        // The head before the first row: a section without rows is left out.
        let mut head = self.head;
        for h in hosts.iter().filter(|h| shows(h)) {
            o.push_str(std::mem::take(&mut head));
            lead(h, o);
            for (i, &(k, w)) in cells.iter().enumerate() {
                if i > 0 {
                    o.push(' ');
                }
                o.push_str(&cell(h, k, w));
            }
            o.push('\n');
        }
    }
}

/// One cell as getsummary prints it: the clock as `%4.0f`, every other figure by `num`.
fn cell(h: &HostResults, key: &str, w: usize) -> String {
    let v = h.get(key);
    if key == "mhz" {
        // getsummary's `%4.0f`, `#`s beyond it.
        if v >= 1e4 {
            "#".repeat(w)
        } else if v > 0.0 {
            format!("{v:4.0}")
        } else {
            " ".repeat(w)
        }
    } else {
        num(v, w)
    }
}

/// The whole summary for `hosts`, lmbench 3's banner and sections; sections where no host has
/// a figure are left out, as getsummary leaves them out.
pub fn render(hosts: &[HostResults]) -> String {
    let mut o = String::from(concat!(
        "\n                 L M B E N C H  3 . 0   S U M M A R Y\n",
        "                 ------------------------------------\n",
    ));
    // lmbench's "(Alpha software, do not distribute)" line is left out: this is not lmbench.
    if hosts.iter().any(|h| h.short) {
        o.push_str(
            "SHORT RUN (-s): 3 samples of 5 ms intervals per figure, a smoke test, not figures to compare",
        );
        if hosts.len() > 1 {
            // The short runs' hosts, as " (a, b)".
            let mut sep = " (";
            for h in hosts.iter().filter(|h| h.short) {
                o.push_str(sep);
                o.push_str(&h.host);
                sep = ", ";
            }
            o.push(')');
        }
        o.push_str(".\n");
    }
    for b in BLOCKS {
        b.render(hosts, &mut o);
    }
    memory_block(hosts, &mut o);
    o
}

/// The memory section, whose row getsummary formats apart: the clock as `%4d`, "Bad mhz?" where
/// there is no L1 figure, and its guesses at the caches.
fn memory_block(hosts: &[HostResults], o: &mut String) {
    let keys = ["lat_l1", "lat_l2", "lat_mem"];
    if !any(hosts, &keys) {
        return;
    }
    // lmbench's "(WARNING - may not be correct, check graphs)" is left out: there are no
    // graphs; the Guesses column only where a row has a guess.
    let guesses = hosts.iter().filter(|h| has(h, &keys)).any(|h| {
        let l1 = h.get("lat_l1");
        l1 < 0.0 || !cache_guess(l1, h.get("lat_l2"), h.get("lat_mem")).is_empty()
    });
    let (head, rule) = if guesses { ("    Guesses", "    -------") } else { ("", "") };
    o.push_str(concat!(
        "\nMemory latencies in nanoseconds - smaller is better\n",
        "------------------------------------------------------------------------------\n",
    ));
    let _ = write!(
        o,
        "Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem{head}\n\
         --------- -------------   ---   ----   ----    --------    --------{rule}\n"
    );
    for h in hosts.iter().filter(|h| has(h, &keys)) {
        lead(h, o);
        let _ = write!(o, " {}", inum(h.get("mhz"), 4));
        let (l1, l2, mem) = (h.get("lat_l1"), h.get("lat_l2"), h.get("lat_mem"));
        if l1 < 0.0 {
            o.push_str("     -      -           -    Bad mhz?");
        } else {
            let rand = num(h.get("lat_mem_rand"), 6);
            let _ = write!(
                o,
                " {} {} {} {rand:>11}{}",
                num(l1, 6),
                num(l2, 6),
                num(mem, 6),
                cache_guess(l1, l2, mem)
            );
        }
        o.push('\n');
    }
}

/// getsummary's `same`: within 20 percent of the larger.
fn same(a: f64, b: f64) -> bool {
    let (hi, lo) = if a > b { (a, b) } else { (b, a) };
    hi > 0.0 && (hi - lo) / hi * 100.0 <= 20.0
}

/// getsummary's `check_caches`: a guess printed after the memory row.
fn cache_guess(l1: f64, l2: f64, mem: f64) -> &'static str {
    if !same(l1, l2) && same(l2, mem) {
        "    No L2 cache?"
    } else if same(l1, l2) {
        "    No L1 cache?"
    } else {
        ""
    }
}

/// The footnotes under the table, added to `o`: what each column shown measures; then the
/// columns never measured, and each host's figures that could not be measured and why.
pub fn footnotes(hosts: &[HostResults], o: &mut String) {
    // What the columns shown are: lmbench's programs behind them (`lmbench --help` lists all).
    o.push_str("\nColumns:\n");
    for f in figures::FIGURES {
        if hosts.iter().any(|h| h.figures.contains_key(f.key) || h.notes.contains_key(f.key)) {
            let _ = writeln!(o, "  {:<15} {}", f.title, f.what);
        }
    }
    o.push_str("\nNotes:\n");
    for (cols, why) in NEVER {
        let _ = writeln!(o, "  {cols}: {why}.");
    }
    for h in hosts {
        for (key, why) in h.notes.iter() {
            let title = figures::figure(key).map_or(key.as_str(), |f| f.title);
            let (host, sep) = if hosts.len() > 1 { (h.host.as_str(), " ") } else { ("", "") };
            let _ = writeln!(o, "  {host}{sep}{title} ({key}): {why}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::FIGURES;

    #[test]
    fn num_formats_as_getsummary() {
        assert_eq!(num(0.1160, 4), "0.12");
        assert_eq!(num(1.44, 4), "1.44");
        assert_eq!(num(147.86, 4), "147.");
        assert_eq!(num(1145.86, 4), "1145");
        assert_eq!(num(23.36, 6), "  23.4");
        assert_eq!(num(10.74, 7), "   10.7");
        assert_eq!(num(101963.27, 4), "102K");
        assert_eq!(num(0.0005, 7), "5.0e-04");
        assert_eq!(num(1.30946, 7), "1.30946");
        assert_eq!(num(5434.11, 4), "5434");
        assert_eq!(num(61287.15, 6), " 61.3K");
        assert_eq!(num(12_000_000.0, 6), " 12.0M");
        assert_eq!(num(0.9, 6), "0.9000");
        assert_eq!(num(-1.0, 5), "     ");
        assert_eq!(num(f64::NAN, 5), "     ");
        assert_eq!(inum(2596.1, 4), "2596");
        assert_eq!(inum(-1.0, 4), "    ");
        // Both ends of what a file can hold keep the column.
        assert_eq!(num(1e-300, 7), " 1e-300");
        assert_eq!(num(1e-300, 8), "1.0e-300");
        assert_eq!(num(1e-300, 4), "####");
        assert_eq!(num(1e300, 6), "1e+300");
        assert_eq!(num(1e300, 4), "####");
        assert_eq!(num(f64::INFINITY, 5), "#####");
        assert_eq!(num(9_999e6, 5), "9999M", "the largest M that fits");
        assert_eq!(inum(1e300, 4), "####");
        assert_eq!(inum(9999.0, 4), "9999");
    }

    fn host(name: &str) -> HostResults {
        let mut h =
            HostResults { host: name.into(), os: "Linux 6.18.44-fc-v657".into(), ..Default::default() };
        for (k, v) in [
            ("mhz", 2596.0),
            ("lat_syscall", 0.116),
            ("lat_nullio", 0.1438),
            ("lat_stat", 0.7197),
            ("lat_openclose", 1.44),
            ("lat_siginstall", 0.155),
            ("lat_sigcatch", 1.5115),
            ("lat_nullproc", 147.86),
            ("lat_simpleproc", 573.5),
            ("lat_shproc", 1145.86),
            ("lat_ctx0_2", 23.36),
            ("lat_ctx16_2", 22.89),
            ("lat_ctx16_8", 10.72),
            ("lat_ctx16_16", 10.74),
            ("lat_pipe", 42.36),
            ("lat_unix", 41.33),
            ("lat_udp_local", 51.88),
            ("lat_tcp_local", 54.71),
            ("bw_pipe", 1828.1),
            ("bw_unix", 5434.11),
            ("bw_mem_rdsum", 101963.27),
            ("lat_l1", 0.956),
            ("lat_l2", 3.113),
            ("lat_mem", 7.063),
        ] {
            h.figures.insert(k.into(), v);
        }
        h
    }

    #[test]
    fn rows_have_lmbench_widths() {
        let text = render(&[host("hostname-longer"), host("b")]);
        let lines: Vec<&str> = text.lines().collect();
        let proc_row = lines.iter().find(|l| l.starts_with("hostname- Linux 6.18.44 2596")).unwrap();
        assert_eq!(
            *proc_row,
            "hostname- Linux 6.18.44 2596 0.12 0.14 0.72 1.44      0.15 1.51 147. 573. 1145"
        );
        for want in [
            "b         Linux 6.18.44   23.4   22.9          10.7           10.7        ",
            "b         Linux 6.18.44  23.4  42.4 41.3  51.9  54.7     ",
            "b         Linux 6.18.44 1828 5434                                  102K      ",
            "b         Linux 6.18.44  2596 0.9560 3.1130 7.0630            ",
        ] {
            assert!(lines.contains(&want), "{want:?} not in\n{text}");
        }
        assert!(!text.contains("File & VM"), "a section with no figures is left out");
        for head in [
            "Processor, Processes - times in microseconds - smaller is better",
            "Context switching - times in microseconds - smaller is better",
            "*Local* Communication latencies in microseconds - smaller is better",
            "*Local* Communication bandwidths in MB/s - bigger is better",
            "Memory latencies in nanoseconds - smaller is better",
        ] {
            assert!(lines.contains(&head), "{head}");
        }
        // Every data row of a section is as wide as its ruler.
        for (i, l) in lines.iter().enumerate() {
            // (The memory section's ruler is narrower than its rows in lmbench too.)
            if l.starts_with("--------- ") && !l.contains("   ---   ") {
                for row in lines[i + 1..].iter().take_while(|r| !r.is_empty()) {
                    assert_eq!(row.len(), l.len(), "{row:?} vs ruler {l:?}");
                }
            }
        }
    }

    #[test]
    fn the_lines_that_do_not_apply_are_left_out() {
        let text = render(&[host("a")]);
        for gone in ["Alpha software", "WARNING", "check graphs", "RPC/", "Guesses"] {
            assert!(!text.contains(gone), "{gone:?} in\n{text}");
        }
        // A row with a guess brings the Guesses column.
        let mut h = host("a");
        h.figures.insert("lat_l2".into(), 6.9);
        let text = render(&[h]);
        assert!(text.contains("    Rand mem    Guesses\n") && text.contains("No L2 cache?"), "{text}");
    }

    #[test]
    fn cache_guess_as_getsummary() {
        assert_eq!(cache_guess(1.0, 3.0, 80.0), "");
        assert_eq!(cache_guess(1.0, 1.1, 80.0), "    No L1 cache?");
        assert_eq!(cache_guess(1.0, 70.0, 80.0), "    No L2 cache?");
    }

    /// The words of `line` that overlap the columns `span` (whole words, though a header may
    /// stretch over two columns, as "0K File" does).
    fn words_over(line: &str, span: std::ops::Range<usize>) -> Vec<&str> {
        let mut out = Vec::new();
        let mut at = 0;
        for w in line.split(' ') {
            let (a, b) = (at, at + w.len());
            if !w.is_empty() && a < span.end && b > span.start {
                out.push(w);
            }
            at = b + 1;
        }
        out
    }

    #[test]
    fn every_figure_is_printed_in_its_column() {
        let all = |v: f64| {
            let mut h = HostResults { host: "h".into(), os: "Linux 6.1".into(), ..Default::default() };
            for f in FIGURES {
                h.figures.insert(f.key.into(), v);
            }
            h
        };
        let base = render(&[all(1.0)]);
        for f in FIGURES {
            let mut h = all(1.0);
            h.figures.insert(f.key.into(), 7.25);
            let text = render(&[h]);
            let (old, new): (Vec<&str>, Vec<&str>) = (base.lines().collect(), text.lines().collect());
            assert_eq!(old.len(), new.len());
            let mut seen = Vec::new();
            for (i, (a, b)) in old.iter().zip(&new).enumerate() {
                // (A head may change too: the Guesses column comes and goes with the guesses.)
                if a == b || !b.starts_with("h ") {
                    continue;
                }
                // The cell that changed: the word of the new line at the first difference
                // (the memory row's guess after it may change too).
                let (a, b) = (a.as_bytes(), b.as_bytes());
                let at = (0..b.len()).find(|&c| a.get(c) != Some(&b[c])).unwrap();
                let start = (0..at).rev().find(|&c| b[c] == b' ').map_or(0, |c| c + 1);
                let span = start..(at..b.len()).find(|&c| b[c] == b' ').unwrap_or(b.len());
                let ruler = new[..i].iter().rposition(|l| l.starts_with("--------- ")).unwrap();
                let section = new[..ruler].iter().rev().find(|l| l.ends_with("is better")).unwrap();
                seen.push(*section);
                if new[ruler].contains("   ---   ") {
                    // The memory section's rulers do not line up with its cells, nor its titles
                    // quite (in lmbench too: "Main mem" stands 5 columns right of its cells):
                    // each cell overlaps its title, and no other.
                    let head = new[ruler - 1];
                    let over: Vec<&str> = words_over(head, span.clone());
                    let title: Vec<&str> = f.title.split(' ').collect();
                    assert!(
                        !over.is_empty() && over.iter().all(|w| title.contains(w)),
                        "{}: {head:?} at {span:?}",
                        f.key
                    );
                    continue;
                }
                // Elsewhere the cell lies in one column of the ruler, under its title.
                let r = new[ruler].as_bytes();
                let start = (0..span.start).rev().find(|&c| r[c] == b' ').map_or(0, |c| c + 1);
                let end = (span.end..r.len()).find(|&c| r[c] == b' ').unwrap_or(r.len());
                assert!(r[start..end].iter().all(|&c| c == b'-'), "{}: {span:?} off the ruler", f.key);
                let words: Vec<&str> =
                    new[ruler - 2..ruler].iter().flat_map(|l| words_over(l, start..end)).collect();
                let title: Vec<&str> = f.title.split(' ').collect();
                assert!(
                    !words.is_empty()
                        && words.iter().all(|w| title.contains(w))
                        && words.last() == title.last(),
                    "{}: column {words:?}, title {:?}",
                    f.key,
                    f.title
                );
            }
            let own = match f.section {
                Section::Proc => "Processor, Processes",
                Section::Ctx => "Context switching",
                Section::Lat => "*Local* Communication latencies",
                Section::Fs => "File & VM system",
                Section::Bw => "*Local* Communication bandwidths",
                Section::Mem => "Memory latencies",
            };
            assert!(seen.iter().any(|s| s.starts_with(own)), "{} not printed in {own}: {seen:?}", f.key);
        }
    }

    #[test]
    fn a_short_run_says_so_and_the_footnotes_explain_its_columns() {
        let mut a = host("a");
        assert!(!render(&[a.clone()]).contains("SHORT RUN"));
        a.short = true;
        let one = render(&[a.clone()]);
        assert!(
            one.contains("\nSHORT RUN (-s): 3 samples of 5 ms intervals per figure, a smoke test"),
            "{one}"
        );
        assert!(render(&[a.clone(), host("b")]).contains("not figures to compare (a).\n"));
        let mut notes = String::new();
        footnotes(&[a], &mut notes);
        assert!(notes.starts_with("\nColumns:\n  null call       lat_syscall null: getppid()\n"), "{notes}");
        assert!(notes.contains("\n  Main mem        lat_mem_rd, stride 128"), "{notes}");
        // Only the columns with a figure (or a note) are explained.
        assert!(!notes.contains("Rand mem") && !notes.contains("lat_fs"), "{notes}");
    }
}
