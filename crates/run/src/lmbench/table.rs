//! The summary table in lmbench 3's layout (its `getsummary` script): the same section titles,
//! column heads, widths and number formats, one row per host. Pure: results in, text out.
//!
//! Figure keys are getsummary's variable names, in the units of its table: microseconds for
//! latencies (the file create and delete columns too, where lmbench stores rates and divides),
//! MB/s for bandwidths, nanoseconds for memory latencies, MHz for the clock.

use std::collections::BTreeMap;

/// One host's figures, as measured or read back from a results file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostResults {
    /// Host name (the first column, 9 characters).
    pub host: String,
    /// "sysname release", e.g. "Linux 6.1.0-13" (13 characters shown).
    pub os: String,
    /// Figure key -> value, for what was measured.
    pub figures: BTreeMap<String, f64>,
    /// Figure key -> why it has no value.
    pub notes: BTreeMap<String, String>,
}

impl HostResults {
    /// Records why `key` has no figure. Out of line: called from many places, and each inlined
    /// map insertion is large.
    #[inline(never)]
    pub fn note(&mut self, key: &str, why: String) {
        self.notes.insert(key.to_string(), why);
    }

    // Out of line, like the other cell helpers below: render asks for every cell of every
    // section, and inlined copies of these cost tens of KB of the static binary.
    #[inline(never)]
    fn get(&self, key: &str) -> f64 {
        self.figures.get(key).copied().filter(|v| v.is_finite()).unwrap_or(-1.0)
    }
}

/// Every figure this tool measures, by section: (key, section, column title).
pub const FIGURES: &[(&str, &str, &str)] = &[
    ("mhz", "proc", "Mhz"),
    ("lat_syscall", "proc", "null call"),
    ("lat_nullio", "proc", "null I/O"),
    ("lat_stat", "proc", "stat"),
    ("lat_openclose", "proc", "open clos"),
    ("lat_tcp_select", "proc", "slct TCP"),
    ("lat_siginstall", "proc", "sig inst"),
    ("lat_sigcatch", "proc", "sig hndl"),
    ("lat_nullproc", "proc", "fork proc"),
    ("lat_simpleproc", "proc", "exec proc"),
    ("lat_shproc", "proc", "sh proc"),
    ("lat_ctx0_2", "ctx", "2p/0K ctxsw"),
    ("lat_ctx16_2", "ctx", "2p/16K ctxsw"),
    ("lat_ctx64_2", "ctx", "2p/64K ctxsw"),
    ("lat_ctx16_8", "ctx", "8p/16K ctxsw"),
    ("lat_ctx64_8", "ctx", "8p/64K ctxsw"),
    ("lat_ctx16_16", "ctx", "16p/16K ctxsw"),
    ("lat_ctx64_16", "ctx", "16p/64K ctxsw"),
    ("lat_pipe", "lat", "Pipe"),
    ("lat_unix", "lat", "AF UNIX"),
    ("lat_udp_local", "lat", "UDP"),
    ("lat_tcp_local", "lat", "TCP"),
    ("lat_tcp_connect_local", "lat", "TCP conn"),
    ("fs_create_0k", "fs", "0K File Create"),
    ("fs_delete_0k", "fs", "0K File Delete"),
    ("fs_create_10k", "fs", "10K File Create"),
    ("fs_delete_10k", "fs", "10K File Delete"),
    ("lat_mappings", "fs", "Mmap Latency"),
    ("lat_protfault", "fs", "Prot Fault"),
    ("lat_pagefault", "fs", "Page Fault"),
    ("lat_fd_select", "fs", "100fd selct"),
    ("bw_pipe", "bw", "Pipe"),
    ("bw_unix", "bw", "AF UNIX"),
    ("bw_tcp_local", "bw", "TCP"),
    ("bw_reread", "bw", "File reread"),
    ("bw_mmap", "bw", "Mmap reread"),
    ("bw_bcopy_libc", "bw", "Bcopy (libc)"),
    ("bw_bcopy_unrolled", "bw", "Bcopy (hand)"),
    ("bw_mem_rdsum", "bw", "Mem read"),
    ("bw_mem_wr", "bw", "Mem write"),
    ("lat_l1", "mem", "L1 $"),
    ("lat_l2", "mem", "L2 $"),
    ("lat_mem", "mem", "Main mem"),
];

/// Columns of lmbench's layout this tool never measures, with the footnote for them.
pub const NEVER: &[(&str, &str)] = &[
    ("RPC/UDP, RPC/TCP", "not measured: Sun RPC is not part of this tool"),
    ("Rand mem", "not measured: lmbench's random-stride run (lat_mem_rd -t) is not part of this tool"),
];

/// lmbench's `num`: a positive value in `len` characters, in K or M above ten thousand or ten
/// million; nothing measured, or not positive, prints `len` blanks.
#[inline(never)]
pub fn num(val: f64, len: usize) -> String {
    if val.is_nan() || val <= 0.0 {
        return " ".repeat(len);
    }
    let clip = |s: String, w: usize| -> String {
        let s: String = s.chars().take(w).collect();
        format!("{s:>w$}")
    };
    if val >= 10e6 {
        format!("{}M", clip(format!("{:.1}", val / 1e6), len - 1))
    } else if val >= 10e3 {
        format!("{}K", clip(format!("{:.1}", val / 1e3), len - 1))
    } else if val >= 10.0 {
        clip(format!("{val:.1}"), len)
    } else if val < 0.001 {
        // C's %e: the exponent signed and at least two digits.
        let e = format!("{val:.prec$e}", prec = len.saturating_sub(6));
        let (m, x) = e.split_once('e').unwrap_or((&e, "0"));
        let x: i32 = x.parse().unwrap_or(0);
        clip(format!("{m}e{}{:02}", if x < 0 { '-' } else { '+' }, x.abs()), len)
    } else {
        clip(format!("{val:.prec$}", prec = len.saturating_sub(2)), len)
    }
}

/// lmbench's `inum`: a whole number right-aligned in `len`, blanks when not positive.
#[inline(never)]
pub fn inum(val: f64, len: usize) -> String {
    if val.is_nan() || val <= 0.0 {
        " ".repeat(len)
    } else {
        format!("{:>len$}", val as i64)
    }
}

/// `%-W.Ws`: left-aligned, cut to W.
#[inline(never)]
fn left(s: &str, w: usize) -> String {
    let s: String = s.chars().take(w).collect();
    format!("{s:<w$}")
}
/// `%W.Ws`: right-aligned, cut to W.
#[inline(never)]
fn right(s: &str, w: usize) -> String {
    let s: String = s.chars().take(w).collect();
    format!("{s:>w$}")
}

#[inline(never)]
fn any(hosts: &[HostResults], keys: &[&str]) -> bool {
    hosts.iter().any(|h| has(h, keys))
}
#[inline(never)]
fn has(h: &HostResults, keys: &[&str]) -> bool {
    keys.iter().any(|k| h.get(k) > 0.0)
}

/// A host's row: its lead, then each cell (key, width) as lmbench's `num`, one space apart.
/// A key with no figure (or "-" for a column nobody measures) prints blanks.
#[inline(never)]
fn row(h: &HostResults, cells: &[(&str, usize)]) -> String {
    let mut s = lead(h);
    for (i, (k, w)) in cells.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&num(h.get(k), *w));
    }
    s.push('\n');
    s
}

#[inline(never)]
fn lead(h: &HostResults) -> String {
    format!("{} {} ", left(&h.host, 9), right(&h.os, 13))
}

/// The whole summary for `hosts`, lmbench 3's banner and sections; sections where no host has
/// a figure are left out, as getsummary leaves them out.
pub fn render(hosts: &[HostResults]) -> String {
    let mut o = String::new();
    o.push_str("\n                 L M B E N C H  3 . 0   S U M M A R Y\n");
    o.push_str("                 ------------------------------------\n");
    o.push_str("\t\t (Alpha software, do not distribute)\n\n");

    let keys = [
        "lat_syscall",
        "lat_nullio",
        "lat_stat",
        "lat_openclose",
        "lat_tcp_select",
        "lat_siginstall",
        "lat_sigcatch",
        "lat_nullproc",
        "lat_simpleproc",
        "lat_shproc",
    ];
    if any(hosts, &keys) {
        o.push_str(concat!(
            "\nProcessor, Processes - times in microseconds - smaller is better\n",
            "------------------------------------------------------------------------------\n",
            "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  \n",
            "                             call  I/O stat clos TCP  inst hndl proc proc proc\n",
            "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----\n",
        ));
        for h in hosts.iter().filter(|h| has(h, &keys)) {
            let mhz = h.get("mhz");
            o.push_str(&lead(h));
            o.push_str(&if mhz > 0.0 { format!("{mhz:4.0}") } else { "    ".to_string() });
            for k in keys {
                o.push(' ');
                o.push_str(&num(h.get(k), 4));
            }
            o.push('\n');
        }
    }

    let keys = [
        "lat_ctx0_2",
        "lat_ctx16_2",
        "lat_ctx64_2",
        "lat_ctx16_8",
        "lat_ctx64_8",
        "lat_ctx16_16",
        "lat_ctx64_16",
    ];
    if any(hosts, &keys) {
        o.push_str(concat!(
            "\nContext switching - times in microseconds - smaller is better\n",
            "-------------------------------------------------------------------------\n",
            "Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K\n",
            "                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw\n",
            "--------- ------------- ------ ------ ------ ------ ------ ------- -------\n",
        ));
        for h in hosts.iter().filter(|h| has(h, &keys)) {
            o.push_str(&row(
                h,
                &[
                    ("lat_ctx0_2", 6),
                    ("lat_ctx16_2", 6),
                    ("lat_ctx64_2", 6),
                    ("lat_ctx16_8", 6),
                    ("lat_ctx64_8", 6),
                    ("lat_ctx16_16", 7),
                    ("lat_ctx64_16", 7),
                ],
            ));
        }
    }

    let keys =
        ["lat_ctx0_2", "lat_pipe", "lat_unix", "lat_udp_local", "lat_tcp_local", "lat_tcp_connect_local"];
    if any(hosts, &keys) {
        o.push_str(concat!(
            "\n*Local* Communication latencies in microseconds - smaller is better\n",
            "---------------------------------------------------------------------\n",
            "Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP\n",
            "                        ctxsw       UNIX         UDP         TCP conn\n",
            "--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----\n",
        ));
        for h in hosts.iter().filter(|h| has(h, &keys)) {
            o.push_str(&row(
                h,
                &[
                    ("lat_ctx0_2", 5),
                    ("lat_pipe", 5),
                    ("lat_unix", 4),
                    ("lat_udp_local", 5),
                    ("-", 5),
                    ("lat_tcp_local", 5),
                    ("-", 5),
                    ("lat_tcp_connect_local", 4),
                ],
            ));
        }
    }

    let keys = [
        "fs_create_0k",
        "fs_delete_0k",
        "fs_create_10k",
        "fs_delete_10k",
        "lat_mappings",
        "lat_protfault",
        "lat_pagefault",
    ];
    if any(hosts, &keys) {
        o.push_str(concat!(
            "\nFile & VM system latencies in microseconds - smaller is better\n",
            "-------------------------------------------------------------------------------\n",
            "Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd\n",
            "                        Create Delete Create Delete Latency Fault  Fault  selct\n",
            "--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----\n",
        ));
        for h in hosts.iter().filter(|h| has(h, &keys)) {
            o.push_str(&row(
                h,
                &[
                    ("fs_create_0k", 6),
                    ("fs_delete_0k", 6),
                    ("fs_create_10k", 6),
                    ("fs_delete_10k", 6),
                    ("lat_mappings", 7),
                    ("lat_protfault", 5),
                    ("lat_pagefault", 7),
                    ("lat_fd_select", 5),
                ],
            ));
        }
    }

    let keys = [
        "bw_pipe",
        "bw_unix",
        "bw_tcp_local",
        "bw_reread",
        "bw_bcopy_libc",
        "bw_bcopy_unrolled",
        "bw_mem_rdsum",
        "bw_mem_wr",
    ];
    if any(hosts, &keys) {
        o.push_str(concat!(
            "\n*Local* Communication bandwidths in MB/s - bigger is better\n",
            "-----------------------------------------------------------------------------\n",
            "Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem\n",
            "                             UNIX      reread reread (libc) (hand) read write\n",
            "--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----\n",
        ));
        for h in hosts.iter().filter(|h| has(h, &keys)) {
            o.push_str(&row(
                h,
                &[
                    ("bw_pipe", 4),
                    ("bw_unix", 4),
                    ("bw_tcp_local", 4),
                    ("bw_reread", 6),
                    ("bw_mmap", 6),
                    ("bw_bcopy_libc", 6),
                    ("bw_bcopy_unrolled", 6),
                    ("bw_mem_rdsum", 4),
                    ("bw_mem_wr", 5),
                ],
            ));
        }
    }

    let keys = ["lat_l1", "lat_l2", "lat_mem"];
    if any(hosts, &keys) {
        o.push_str(concat!(
            "\nMemory latencies in nanoseconds - smaller is better\n",
            "    (WARNING - may not be correct, check graphs)\n",
            "------------------------------------------------------------------------------\n",
            "Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses\n",
            "--------- -------------   ---   ----   ----    --------    --------    -------\n",
        ));
        for h in hosts.iter().filter(|h| has(h, &keys)) {
            let mhz = h.get("mhz");
            o.push_str(&format!("{} {}  {}", left(&h.host, 9), right(&h.os, 13), inum(mhz, 4)));
            let (l1, l2, mem) = (h.get("lat_l1"), h.get("lat_l2"), h.get("lat_mem"));
            if l1 < 0.0 {
                o.push_str(&format!("{:>6} {:>6} {:>11}    {}", "-", "-", "-", "Bad mhz?"));
            } else {
                o.push_str(&format!(
                    " {} {} {} {}",
                    num(l1, 6),
                    num(l2, 6),
                    num(mem, 6),
                    right(&num(-1.0, 6), 11)
                ));
                o.push_str(cache_guess(l1, l2, mem));
            }
            o.push('\n');
        }
    }
    o
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

/// The footnotes under the table: the columns never measured, then each host's figures that
/// could not be measured and why.
pub fn footnotes(hosts: &[HostResults]) -> String {
    let mut o = String::from("\nNotes:\n");
    for (cols, why) in NEVER {
        o.push_str(&format!("  {cols}: {why}.\n"));
    }
    for h in hosts {
        for (key, why) in &h.notes {
            let title = FIGURES.iter().find(|f| f.0 == key).map(|f| f.2).unwrap_or(key);
            if hosts.len() > 1 {
                o.push_str(&format!("  {} {title} ({key}): {why}\n", h.host));
            } else {
                o.push_str(&format!("  {title} ({key}): {why}\n"));
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

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
            "b         Linux 6.18.44  23.4  42.4 41.3  51.9        54.7           ",
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
    fn cache_guess_as_getsummary() {
        assert_eq!(cache_guess(1.0, 3.0, 80.0), "");
        assert_eq!(cache_guess(1.0, 1.1, 80.0), "    No L1 cache?");
        assert_eq!(cache_guess(1.0, 70.0, 80.0), "    No L2 cache?");
    }
}
