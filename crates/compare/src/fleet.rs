//! `compare --hosts`: a fleet's results in one table, a row per file (a host), sorted by the
//! System Benchmarks Index Score at 1 copy, highest first (then by the N-copy index). Each row
//! names the host as its system block does, so files fetched from many hosts line up with
//! their identities. Built for hundreds of files: one pass over the sources.

use super::source::Source;
use crate::model::Category;
use report::markdown::{Readers, Sink};
use std::fmt::Write as _;

/// One host's row.
pub(super) struct Row<'a> {
    pub src: &'a Source,
    pub one: Option<f64>,
    /// The index at the file's largest copy count above 1, and that count.
    pub many: Option<(usize, f64)>,
    /// Whether a test of the index at 1 copy, and at N copies, was disturbed.
    pub disturbed: [bool; 2],
}

fn system_index(src: &Source, copies: usize) -> Option<(f64, bool)> {
    let run = src.runs.iter().rev().find(|r| r.copies == copies)?;
    let score = run.index.iter().find(|b| b.category == Category::System)?.score;
    Some((score, run.index_disturbed(Category::System)))
}

pub(super) fn rows(sources: &[Source]) -> Vec<Row<'_>> {
    let key = |r: &Row| (r.one.unwrap_or(-1.0), r.many.map_or(-1.0, |m| m.1));
    let mut rows: Vec<Row> = Vec::with_capacity(sources.len());
    for src in sources {
        let n = src.runs.iter().map(|r| r.copies).filter(|&c| c > 1).max();
        let one = system_index(src, 1);
        let many = n.and_then(|n| Some((n, system_index(src, n)?)));
        let row = Row {
            src,
            one: one.map(|o| o.0),
            many: many.map(|(n, m)| (n, m.0)),
            disturbed: [one.is_some_and(|o| o.1), many.is_some_and(|m| m.1 .1)],
        };
        // Highest first, ties in file order: each row goes after those it does not beat (a
        // stable sort without a sort's code; total_cmp, as a NaN must not break the order).
        let k = key(&row);
        let at = rows.partition_point(|r| {
            let rk = key(r);
            rk.0.total_cmp(&k.0).then(rk.1.total_cmp(&k.1)).is_ge()
        });
        rows.insert(at, row);
    }
    rows
}

/// The text table's columns; those marked true are right-aligned.
/// The index columns' heads end in a space, where their cells have `d` for disturbed.
pub(super) const HEAD: [(&str, bool); 10] = [
    ("#", true),
    ("host", false),
    ("machine", false),
    ("CPUs", true),
    ("kernel", false),
    ("CPU", false),
    ("1 copy ", true),
    ("N copies ", true),
    ("run", false),
    ("file", false),
];

/// A row's cells: rank, the host's identity, the index at 1 copy, (N, the index at N copies),
/// each marked `d` when disturbed, the kind of run, the file. Unknowns are None.
pub(super) fn cells(i: usize, r: &Row) -> [Option<String>; 10] {
    let h = &r.src.host;
    let d = |k: usize| if r.disturbed[k] { 'd' } else { ' ' };
    [
        Some((i + 1).to_string()),
        Some(h.name.clone()),
        Some(h.machine.clone()),
        h.cpus.map(|n| n.to_string()),
        Some(h.os_release.clone()),
        Some(h.cpu.clone()),
        r.one.map(|v| format!("{}{}", crate::fmt::compact(v, 1, 12), d(0))),
        r.many.map(|(n, v)| format!("{} ({n}){}", crate::fmt::compact(v, 1, 12), d(1))),
        Some(r.src.run_kind().name().to_string()),
        Some(r.src.file.clone()),
    ]
}

/// The table as text: columns as wide as their widest cell.
pub fn text(sources: &[Source]) -> String {
    let mut table: Vec<Vec<String>> = vec![HEAD.iter().map(|h| h.0.to_string()).collect()];
    for (i, r) in rows(sources).iter().enumerate() {
        let unknown = |k: usize| if k == 3 { "unknown" } else { "---" };
        let mut row = Vec::new();
        for (k, c) in cells(i, r).into_iter().enumerate() {
            row.push(c.unwrap_or_else(|| unknown(k).into()));
        }
        table.push(row);
    }
    let mut s = format!(
        "Hosts compared: {}, by System Benchmarks Index Score at 1 copy, highest first\n\n",
        sources.len()
    );
    s += &layout(&table);
    s += "\nN copies: the index at the file's largest copy count, in brackets; ---: not run.\n";
    s += "run: the kind of run (standard, quick, or short: -t, -i or a static image).\n";
    if rows(sources).iter().any(|r| r.disturbed.contains(&true)) {
        s += "d: a test of the index was disturbed (steal, other processes, a stop or a CPU quota took its time).\n";
    }
    if let Some(w) = super::source::kinds_warning(sources) {
        s += &format!("** warning: {w}\n");
    }
    s
}

fn layout(table: &[Vec<String>]) -> String {
    let mut width = [0usize; HEAD.len()];
    for row in table {
        for (w, c) in width.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    for row in table {
        let mut line = String::new();
        for (k, c) in row.iter().enumerate() {
            let w = width[k];
            if HEAD[k].1 {
                let _ = write!(line, "{c:>w$}  ");
            } else {
                let _ = write!(line, "{c:<w$}  ");
            }
        }
        let _ = writeln!(s, "{}", line.trim_end());
    }
    s
}

/// The table as TSV, or as Markdown: one header line, then a row per host; an unknown is
/// empty, and N and the N-copy index are columns of their own.
pub fn tsv(sources: &[Source], readers: Readers) -> String {
    let mut o = Sink::new(
        readers,
        "rank\thost\tmachine\tcpus\tos_release\tcpu\tindex_1\tcopies_n\tindex_n\tfile\trun_kind\t\
         disturbed_1\tdisturbed_n",
    );
    let yes = |known: bool, d: bool| super::source::yes_no(known.then_some(d));
    for (i, r) in rows(sources).iter().enumerate() {
        let h = &r.src.host;
        // The columns added since the first TSV come last, so that older readers' columns stay.
        o.cell(&(i + 1).to_string());
        o.cell(&readers.text(&h.name));
        o.cell(&readers.text(&h.machine));
        o.cell(&h.cpus.map_or(String::new(), |n| n.to_string()));
        o.cell(&readers.text(&h.os_release));
        o.cell(&readers.text(&h.cpu));
        o.cell(&readers.figure(r.one));
        o.cell(&r.many.map_or(String::new(), |m| m.0.to_string()));
        o.cell(&readers.figure(r.many.map(|m| m.1)));
        o.cell(&readers.text(&r.src.file));
        o.cell(r.src.run_kind().name());
        o.cell(yes(r.one.is_some(), r.disturbed[0]));
        o.cell(yes(r.many.is_some(), r.disturbed[1]));
        o.end();
    }
    o.finish()
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
        let mut srcs: Vec<Source> = [("slow", 100.0, 150.0), ("fast", 900.0, 1700.0), ("mid", 500.0, 900.0)]
            .iter()
            .map(|(h, a, b)| load::load(&format!("{h}.txt"), &report(h, *a, *b)).unwrap())
            .collect();
        // mid: a quick run whose N-copy System Call Overhead was disturbed.
        srcs[2].quick = true;
        srcs[2].runs[1].tests[0].disturbed = true;
        assert_eq!(srcs[0].host.name, "slow");
        assert_eq!((srcs[0].host.cpus, srcs[0].host.cpu.as_str()), (Some(2), "AMD EPYC"));
        let t = text(&srcs);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "Hosts compared: 3, by System Benchmarks Index Score at 1 copy, highest first");
        assert_eq!(
            lines[2],
            "#  host  machine  CPUs  kernel  CPU       1 copy     N copies   run       file"
        );
        assert_eq!(
            lines[3],
            "1  fast  x86_64      2  6.1.0   AMD EPYC   900.0   1700.0 (2)   standard  fast.txt"
        );
        assert_eq!(
            lines[4],
            "2  mid   x86_64      2  6.1.0   AMD EPYC   500.0    900.0 (2)d  quick     mid.txt"
        );
        assert_eq!(
            lines[5],
            "3  slow  x86_64      2  6.1.0   AMD EPYC   100.0    150.0 (2)   standard  slow.txt"
        );
        assert!(t.contains("\nd: a test of the index was disturbed"), "{t}");
        assert!(t.ends_with("** warning: comparing runs of different kinds (standard, quick): their figures are not comparable\n"), "{t}");
        let tsv = tsv(&srcs, Readers::Programs);
        assert!(tsv.starts_with(
            "rank\thost\tmachine\tcpus\tos_release\tcpu\tindex_1\tcopies_n\tindex_n\tfile\trun_kind\t"
        ));
        assert_eq!(
            tsv.lines().nth(2).unwrap(),
            "2\tmid\tx86_64\t2\t6.1.0\tAMD EPYC\t500\t2\t900\tmid.txt\tquick\tno\tyes"
        );
        assert_eq!(
            tsv.lines().nth(1).unwrap(),
            "1\tfast\tx86_64\t2\t6.1.0\tAMD EPYC\t900\t2\t1700\tfast.txt\tstandard\tno\tno"
        );
    }
}
