//! `lmbench`: every column measured in the shortest mode, the table's layout, `--summary` of
//! saved runs, bad input, and cleanup of scratch files on success and on interruption.

use crate::common::{assert_usage_error, run, stderr, stdout, ub, Scratch};
use std::process::Stdio;
use std::time::Duration;

/// Plausible ranges (wide: these catch a wrong unit or a kernel that does nothing, not speed).
const RANGES: &[(&str, f64, f64)] = &[
    ("mhz", 100.0, 10_000.0),
    ("lat_syscall", 0.01, 10.0),
    ("lat_nullio", 0.01, 50.0),
    ("lat_stat", 0.05, 200.0),
    ("lat_openclose", 0.1, 500.0),
    ("lat_tcp_select", 0.1, 1000.0),
    ("lat_siginstall", 0.01, 50.0),
    ("lat_sigcatch", 0.05, 200.0),
    ("lat_nullproc", 5.0, 50_000.0),
    ("lat_simpleproc", 10.0, 100_000.0),
    ("lat_shproc", 20.0, 200_000.0),
    ("lat_pipe", 0.3, 20_000.0),
    ("lat_unix", 0.3, 20_000.0),
    ("lat_udp_local", 0.5, 20_000.0),
    ("lat_tcp_local", 0.5, 20_000.0),
    ("lat_tcp_connect_local", 1.0, 100_000.0),
    ("fs_create_0k", 0.1, 100_000.0),
    ("fs_delete_0k", 0.1, 100_000.0),
    ("fs_create_10k", 0.1, 100_000.0),
    ("fs_delete_10k", 0.1, 100_000.0),
    ("lat_mappings", 0.5, 1_000_000.0),
    ("lat_pagefault", 0.001, 1000.0),
    ("lat_fd_select", 0.1, 1000.0),
    ("bw_pipe", 10.0, 1e7),
    ("bw_unix", 10.0, 1e7),
    ("bw_tcp_local", 10.0, 1e7),
    ("bw_reread", 10.0, 1e7),
    ("bw_mmap", 10.0, 1e7),
    ("bw_bcopy_libc", 10.0, 1e7),
    ("bw_bcopy_unrolled", 10.0, 1e7),
    ("bw_mem_rdsum", 10.0, 1e7),
    ("bw_mem_wr", 10.0, 1e7),
    ("lat_l1", 0.05, 50.0),
    ("lat_l2", 0.1, 200.0),
    ("lat_mem", 0.5, 2000.0),
];

/// The context-switch columns: on a busy two-CPU machine a ring can take no longer than its
/// own overhead, and lmbench then prints no figure; that must be said in a note.
const CTX: &[&str] = &[
    "lat_ctx0_2",
    "lat_ctx16_2",
    "lat_ctx64_2",
    "lat_ctx16_8",
    "lat_ctx64_8",
    "lat_ctx16_16",
    "lat_ctx64_16",
];

/// lat_sig prot reports a protection fault less the cost of catching a signal; when the two are
/// equal within the noise lmbench prints nothing, and so do we, with a note.
const PROT: (&str, f64, f64) = ("lat_protfault", 0.001, 1000.0);

/// A figure of a saved results file, by plain text search (the file's layout is ours).
fn figure(json: &str, key: &str) -> Option<f64> {
    let figs = &json[json.find("\"figures\"")?..];
    let figs = &figs[..figs.find('}')?];
    let at = figs.find(&format!("\"{key}\": "))? + key.len() + 4;
    figs[at..].split([',', '\n']).next()?.trim().parse().ok()
}

#[test]
fn short_run_measures_every_column_prints_the_table_and_saves_it() {
    let dir = Scratch::new("lmbench");
    let json = dir.path().join("a.json");
    let o = run(ub(["lmbench", "--short", "--json"]).arg(&json).arg("--dir").arg(dir.path()));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    for head in [
        "Processor, Processes - times in microseconds - smaller is better",
        "Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  ",
        "Context switching - times in microseconds - smaller is better",
        "Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K",
        "*Local* Communication latencies in microseconds - smaller is better",
        "Host                 OS 2p/0K  Pipe AF     UDP   TCP TCP",
        "File & VM system latencies in microseconds - smaller is better",
        "*Local* Communication bandwidths in MB/s - bigger is better",
        "Memory latencies in nanoseconds - smaller is better",
        "  RPC/UDP, RPC/TCP: not measured: Sun RPC is not part of this tool.",
    ] {
        assert!(out.lines().any(|l| l == head), "missing {head:?} in\n{out}");
    }
    // lmbench's lines that do not apply here are left out; progress went to stderr.
    for gone in ["Alpha software", "WARNING", "check graphs", "RPC/   "] {
        assert!(!out.contains(gone), "{gone:?} in\n{out}");
    }
    let err = stderr(&o);
    assert!(err.contains("figures in 6 sections (the short mode)"), "{err}");
    assert!(err.contains("lmbench: [1/6] proc: ") && err.contains("lmbench: [6/6] mem: "), "{err}");
    assert!(err.contains(" left\n"), "the time left: {err}");
    // Each data row is as wide as its section's ruler (lmbench's fixed columns).
    let lines: Vec<&str> = out.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("--------- ") && !l.contains("   ---   ") {
            let row = lines[i + 1];
            assert_eq!(row.len(), l.len(), "row {row:?} under ruler {l:?}");
        }
    }
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"schema\": \"unixbench-lmbench\""));
    for &(key, lo, hi) in RANGES {
        let v = figure(&text, key).unwrap_or_else(|| panic!("{key} not measured:\n{text}"));
        assert!(v.is_finite() && v >= lo && v <= hi, "{key} = {v}, expected {lo}..{hi}");
    }
    for key in CTX {
        match figure(&text, key) {
            Some(v) => assert!(v > 0.0 && v < 100_000.0, "{key} = {v}"),
            None => assert!(
                text.contains(&format!("\"{key}\": \"not measured: the ring took no longer")),
                "{key}: {text}"
            ),
        }
    }
    match figure(&text, PROT.0) {
        Some(v) => assert!(v >= PROT.1 && v <= PROT.2, "{} = {v}", PROT.0),
        None => assert!(text.contains("\"lat_protfault\": \"not measured: no positive figure"), "{text}"),
    }
    assert_eq!(dir.entries(), vec!["a.json"], "scratch files left behind");

    // --summary of two saved runs: a row per host in every section.
    let other = dir.path().join("b.json");
    let renamed = text.replacen(&format!("\"name\": {}", quoted_name(&text)), "\"name\": \"otherhost\"", 1);
    std::fs::write(&other, renamed).unwrap();
    let o = run(ub(["lmbench", "--summary"]).arg(&json).arg(&other));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    let rows = |host: &str| s.lines().filter(|l| l.starts_with(&format!("{:<9.9} ", host))).count();
    assert_eq!(rows("otherhost"), 6, "{s}");
    assert_eq!(rows(&unquote(&quoted_name(&text))), 6, "{s}");
}

fn quoted_name(json: &str) -> String {
    let at = json.find("\"name\": ").unwrap() + 8;
    json[at..].split([',', '\n']).next().unwrap().trim().to_string()
}

fn unquote(s: &str) -> String {
    s.trim_matches('"').to_string()
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    assert_usage_error(&run(&mut ub(["lmbench", "--only", "proc,disk"])), "unknown --only name 'disk'");
    assert_usage_error(&run(&mut ub(["lmbench", "--frobnicate"])), "frobnicate");
    assert_usage_error(&run(&mut ub(["lmbench", "--summary"])), "option --summary needs a value (FILE)");
    assert_usage_error(&run(&mut ub(["lmbench", "--summary", "/nonexistent/x.json"])), "cannot read");
    let dir = Scratch::new("lmbench-bad");
    let f = dir.path().join("x.json");
    std::fs::write(&f, "{\"schema\": \"something-else\"}").unwrap();
    assert_usage_error(&run(ub(["lmbench", "--summary"]).arg(&f)), "not an lmbench results file");
    assert_usage_error(&run(ub(["lmbench", "--dir"]).arg(dir.path().join("missing"))), "not a directory");
}

#[test]
fn an_interrupted_run_removes_its_scratch_files_and_shows_what_it_has() {
    let dir = Scratch::new("lmbench-int");
    let child = ub(["lmbench", "--only", "fs,bw"])
        .arg("--dir")
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let _ = std::process::Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "stderr: {}", stderr(&o));
    assert!(stderr(&o).contains("interrupted"));
    assert!(stdout(&o).contains("L M B E N C H"));
    assert!(dir.entries().is_empty(), "left behind: {:?}", dir.entries());
}

/// A member of the saved file's "params", as its JSON text.
fn param<'a>(json: &'a str, key: &str) -> &'a str {
    let at =
        json.find(&format!("\"{key}\": ")).unwrap_or_else(|| panic!("no {key} in {json}")) + key.len() + 4;
    json[at..].split([',', '\n']).next().unwrap().trim()
}

/// The largest data or unified cache that cpu0's sysfs reports, bytes.
fn largest_cache() -> Option<u64> {
    let dir = std::fs::read_dir("/sys/devices/system/cpu/cpu0/cache").ok()?;
    dir.flatten()
        .filter(|e| std::fs::read_to_string(e.path().join("type")).is_ok_and(|t| t.trim() != "Instruction"))
        .filter_map(|e| std::fs::read_to_string(e.path().join("size")).ok())
        .filter_map(|s| {
            let s = s.trim();
            let (n, m) = match s.strip_suffix('K') {
                Some(n) => (n, 1 << 10),
                None => s.strip_suffix('M').map_or((s, 1), |n| (n, 1 << 20)),
            };
            n.parse::<u64>().ok().map(|n| n * m)
        })
        .max()
}

/// Seconds since the Epoch of an ISO 8601 UTC time, `2026-12-01T12:24:05Z` (days from civil).
fn epoch(iso: &str) -> i64 {
    let n = |r: std::ops::Range<usize>| iso[r].parse::<i64>().unwrap();
    assert!(iso.len() == 20 && iso.ends_with('Z') && &iso[10..11] == "T", "{iso}");
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let doe = (y - era * 400) * 365 + (y - era * 400) / 4 - (y - era * 400) / 100 + doy;
    (era * 146_097 + doe - 719_468) * 86_400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19)
}

#[test]
fn a_short_memory_run_says_so_and_measures_memory_past_the_caches_in_order_and_at_random() {
    let dir = Scratch::new("lmbench-mem");
    let json = dir.path().join("m.json");
    let o = run(ub(["lmbench", "-s", "--only", "mem", "--json"]).arg(&json).arg("--dir").arg(dir.path()));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l.starts_with("SHORT RUN (-s): ") && l.contains("smoke test")), "{out}");
    // Only the memory section, and its clock with it: the help names the clock under "mem".
    assert!(!out.contains("Processor, Processes"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let ruler = lines.iter().position(|l| l.starts_with("--------- -------------   ---")).unwrap();
    let row = lines[ruler + 1];
    let saved = || std::fs::read_to_string(&json).unwrap_or_default();
    assert!(row[25..29].trim().parse::<u32>().is_ok_and(|mhz| mhz > 0), "no clock in {row:?}: {}", saved());
    assert!(row[51..62].trim().parse::<f64>().is_ok(), "no Rand mem in {row:?}");
    assert!(out.contains("\n  Rand mem        lat_mem_rd -t, stride 16"), "{out}");

    let text = std::fs::read_to_string(&json).unwrap();
    assert_eq!(param(&text, "short"), "true");
    let version = stdout(&run(&mut ub(["--version"])));
    let tool = version.split(" (").next().unwrap();
    assert_eq!(param(&text, "tool"), format!("\"{tool}\""));
    let date = param(&text, "date").trim_matches('"');
    assert_eq!(epoch(date), param(&text, "time").parse::<i64>().unwrap(), "{date}");
    let (mem, rand) = (figure(&text, "lat_mem").unwrap(), figure(&text, "lat_mem_rand").unwrap());
    assert!(rand > mem && rand < 10_000.0, "Rand mem {rand} ns against Main mem {mem} ns");
    assert!(figure(&text, "mhz").is_some(), "{text}");
    let main: u64 = param(&text, "main_point_bytes").parse().unwrap();
    match largest_cache() {
        Some(c) => assert!(main > c, "main memory measured on {main} bytes, the largest cache is {c}"),
        None => assert!(text.contains("\"lat_mem\": \"measured at 8 MiB"), "{text}"),
    }
    // A saved short run still says so side by side with others.
    let o = run(ub(["lmbench", "--summary"]).arg(&json));
    assert!(stdout(&o).lines().any(|l| l.starts_with("SHORT RUN (-s): ")), "{}", stdout(&o));
}

/// The help opens with how long a run takes, what a busy host does to it, in a line, and two
/// or three examples.
#[test]
fn help_opens_with_the_time_the_busy_host_and_examples() {
    let help = stdout(&run(&mut ub(["lmbench", "--help"])));
    let (head, _) = help.split_once("\n\n  -s, --short").unwrap_or_else(|| panic!("{help}"));
    let (about, examples) = head.split_once("\n\nExamples:\n").unwrap_or_else(|| panic!("{help}"));
    assert!(about.lines().any(|l| l.contains("takes about") && l.contains("minutes")), "{about}");
    assert!(about.lines().any(|l| l.contains("busy host") && l.contains("steal")), "{about}");
    let examples: Vec<&str> = examples.lines().collect();
    assert!((2..=3).contains(&examples.len()), "{help}");
    assert!(examples.iter().all(|e| e.starts_with("  unixbench lmbench ")), "{help}");
}

#[test]
fn help_names_and_explains_every_figure() {
    let o = run(&mut ub(["lmbench", "--help"]));
    assert_eq!(o.status.code(), Some(0));
    let help = stdout(&o);
    for key in RANGES.iter().map(|r| r.0).chain(CTX.iter().copied()).chain([PROT.0, "lat_mem_rand"]) {
        let line =
            help.lines().find(|l| l.trim_start().starts_with(&format!("{key} "))).unwrap_or_else(|| {
                panic!("{key} not in\n{help}");
            });
        // The name, the column's title, then the lmbench program it ports.
        assert!(line.split_whitespace().count() >= 4, "{line}");
    }
    for (title, program) in
        [("slct TCP", "lat_select"), ("sig hndl", "lat_sig"), ("Rand mem", "lat_mem_rd -t")]
    {
        assert!(help.lines().any(|l| l.contains(title) && l.contains(program)), "{title}: {help}");
    }
}

/// `--summary` of a results file whose host, OS and notes carry an OSC title sequence, a clear
/// screen, bidi overrides and zero-width characters, and whose figures sit at both ends of what
/// f64 holds: the strings are printed escaped, every row stays within its section's rule, and a
/// file name with a control character is shown escaped in the one line of an error.
#[test]
fn a_summary_prints_what_a_file_says_as_data_in_its_columns() {
    let dir = Scratch::new("lmbench-data");
    let f = dir.path().join("r.json");
    let text = r#"{"schema": "unixbench-lmbench", "schema_version": 1,
        "host": {"name": "a\u001b]0;owned\u0007b", "os": "L\u202einux\u001b[2J\u009b"},
        "figures": {"mhz": 1e300, "lat_syscall": 1e-300, "lat_pipe": 1e300, "bw_pipe": 5e-324,
                    "lat_ctx2_0k": 1.5, "lat_udp\u001b[H": 2},
        "notes": {"lat_tcp": "x\u200by\u2066\n\u007f"}}"#;
    std::fs::write(&f, text).unwrap();
    let o = run(ub(["lmbench", "--summary"]).arg(&f));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s = stdout(&o);
    let hidden = |c: char| {
        (c.is_control() && c != '\n')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
    };
    assert!(!s.chars().any(hidden), "a hidden character printed raw:\n{s:?}");
    assert!(s.contains("a\\x1b]0;o") && s.contains("x\\u{200b}y\\u{2066}\\n\\x7f"), "{s}");
    let lines: Vec<&str> = s.lines().collect();
    for (k, rule) in lines.iter().enumerate().filter(|(_, l)| l.starts_with("--------- ")) {
        for row in lines[k + 1..].iter().take_while(|l| !l.is_empty()) {
            assert!(row.trim_end().len() <= rule.len(), "a row past its rule:\n{rule}\n{row}");
        }
    }
    assert!(!s.contains("inf") && !s.contains("e-3\n"), "{s}");
    let named = dir.path().join("\u{1b}[2J\u{202e}.json");
    std::fs::write(&named, "{}").unwrap();
    assert_usage_error(&run(ub(["lmbench", "--summary"]).arg(&named)), "\\x1b[2J\\u{202e}.json");
}
