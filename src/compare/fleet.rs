//! `compare --hosts`: a fleet's results in one table, a row per file (a host), sorted by the
//! System Benchmarks Index Score at 1 copy, highest first (then by the N-copy index). Each row
//! names the host as its system block does, so files fetched from many hosts line up with
//! their identities. Built for hundreds of files: one pass over the sources, one sort.

use super::load::Source;
use crate::driver::model::Category;

/// One host's row.
struct Row<'a> {
    src: &'a Source,
    one: Option<f64>,
    /// The index at the file's largest copy count above 1, and that count.
    many: Option<(usize, f64)>,
}

fn system_index(src: &Source, copies: usize) -> Option<f64> {
    let run = src.runs.iter().rev().find(|r| r.copies == copies)?;
    run.index.iter().find(|b| b.category == Category::System).map(|b| b.score)
}

fn rows(sources: &[Source]) -> Vec<Row<'_>> {
    let mut rows: Vec<Row> = sources
        .iter()
        .map(|src| {
            let n = src.runs.iter().map(|r| r.copies).filter(|&c| c > 1).max();
            Row { src, one: system_index(src, 1), many: n.and_then(|n| Some((n, system_index(src, n)?))) }
        })
        .collect();
    let key = |r: &Row| (r.one.unwrap_or(-1.0), r.many.map_or(-1.0, |m| m.1));
    crate::sort::sort_by(&mut rows, |a, b| key(b).partial_cmp(&key(a)).unwrap_or(std::cmp::Ordering::Equal));
    rows
}

const HEAD: [&str; 9] = ["#", "host", "machine", "CPUs", "OS release", "CPU", "1 copy", "N copies", "file"];

fn cells(i: usize, r: &Row) -> [String; 9] {
    let h = &r.src.host;
    [
        (i + 1).to_string(),
        h.name.clone(),
        h.machine.clone(),
        h.cpus.map_or_else(|| "unknown".into(), |n| n.to_string()),
        h.os_release.clone(),
        h.cpu.clone(),
        r.one.map_or_else(|| "---".into(), |v| format!("{v:.1}")),
        r.many.map_or_else(|| "---".into(), |(n, v)| format!("{v:.1} ({n})")),
        r.src.file.clone(),
    ]
}

/// The table as text: columns as wide as their widest cell, numbers right-aligned.
pub fn text(sources: &[Source]) -> String {
    let rows = rows(sources);
    let table: Vec<[String; 9]> = rows.iter().enumerate().map(|(i, r)| cells(i, r)).collect();
    let mut width = HEAD.map(|h| h.chars().count());
    for row in &table {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let right = [true, false, false, true, false, false, true, true, false];
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (k, c) in cells.iter().enumerate() {
            let pad = " ".repeat(width[k] - c.chars().count());
            if k > 0 {
                s.push_str("  ");
            }
            if right[k] {
                s.push_str(&pad);
                s.push_str(c);
            } else {
                s.push_str(c);
                if k + 1 < cells.len() {
                    s.push_str(&pad);
                }
            }
        }
        s.push('\n');
        s
    };
    let mut s = format!(
        "Hosts compared: {}, by System Benchmarks Index Score at 1 copy, highest first\n\n",
        sources.len()
    );
    s += &line(&HEAD.map(String::from));
    for row in &table {
        s += &line(row);
    }
    s += "\nN copies: the index at the file's largest copy count, in brackets; ---: not run.\n";
    s
}

/// The table as TSV: one header line, then a row per host; an unknown index is empty.
pub fn tsv(sources: &[Source]) -> String {
    let mut s =
        String::from("rank\thost\tmachine\tcpus\tos_release\tcpu\tindex_1\tcopies_n\tindex_n\tfile\n");
    for (i, r) in rows(sources).iter().enumerate() {
        let h = &r.src.host;
        let clean = |t: &str| t.replace(['\t', '\n'], " ");
        s += &format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            i + 1,
            clean(&h.name),
            clean(&h.machine),
            h.cpus.map(|n| n.to_string()).unwrap_or_default(),
            clean(&h.os_release),
            clean(&h.cpu),
            r.one.map(|v| v.to_string()).unwrap_or_default(),
            r.many.map(|m| m.0.to_string()).unwrap_or_default(),
            r.many.map(|m| m.1.to_string()).unwrap_or_default(),
            clean(&r.src.file),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::load;
    use super::*;

    fn report(host: &str, one: f64, two: f64) -> String {
        format!(
            "   BYTE UNIX Benchmarks (Version 5.1.3)\n\n   System: {host}: Debian\n   OS: GNU/Linux -- 6.1.0 -- #1\n   \
             Machine: x86_64 (unknown)\n   CPU 0: AMD EPYC (5192.2 bogomips)\n\n\
             Benchmark Run: Mon Nov 30 2026 10:00:00 - 10:30:00\n2 CPUs in system; running 1 parallel copy of tests\n\n\
             System Call Overhead                        1000000.0 lps   (10.0 s, 7 samples)\n\n\
             System Benchmarks Index Values               BASELINE       RESULT    INDEX\n\
             System Call Overhead                          15000.0    1000000.0    666.7\n\
             ========\nSystem Benchmarks Index Score (Partial Only)                          {one:.1}\n\n\
             Benchmark Run: Mon Nov 30 2026 10:30:00 - 11:00:00\n2 CPUs in system; running 2 parallel copies of tests\n\n\
             System Call Overhead                        2000000.0 lps   (10.0 s, 7 samples)\n\n\
             System Benchmarks Index Values               BASELINE       RESULT    INDEX\n\
             System Call Overhead                          15000.0    2000000.0   1333.3\n\
             ========\nSystem Benchmarks Index Score (Partial Only)                          {two:.1}\n"
        )
    }

    #[test]
    fn a_row_per_host_sorted_by_index_with_identities() {
        let srcs: Vec<Source> = [("slow", 100.0, 150.0), ("fast", 900.0, 1700.0), ("mid", 500.0, 900.0)]
            .iter()
            .map(|(h, a, b)| load::load(&format!("{h}.txt"), &report(h, *a, *b)).unwrap())
            .collect();
        assert_eq!(srcs[0].host.name, "slow");
        assert_eq!((srcs[0].host.cpus, srcs[0].host.cpu.as_str()), (Some(2), "AMD EPYC"));
        let t = text(&srcs);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "Hosts compared: 3, by System Benchmarks Index Score at 1 copy, highest first");
        assert_eq!(lines[2], "#  host  machine  CPUs  OS release  CPU       1 copy    N copies  file");
        assert_eq!(lines[3], "1  fast  x86_64      2  6.1.0       AMD EPYC   900.0  1700.0 (2)  fast.txt");
        assert_eq!(lines[5], "3  slow  x86_64      2  6.1.0       AMD EPYC   100.0   150.0 (2)  slow.txt");
        let tsv = tsv(&srcs);
        assert_eq!(tsv.lines().nth(2).unwrap(), "2\tmid\tx86_64\t2\t6.1.0\tAMD EPYC\t500\t2\t900\tmid.txt");
    }
}
