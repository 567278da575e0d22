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
        "Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP",
        "File & VM system latencies in microseconds - smaller is better",
        "*Local* Communication bandwidths in MB/s - bigger is better",
        "Memory latencies in nanoseconds - smaller is better",
        "  RPC/UDP, RPC/TCP: not measured: Sun RPC is not part of this tool.",
    ] {
        assert!(out.lines().any(|l| l == head), "missing {head:?} in\n{out}");
    }
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
    assert_usage_error(&run(&mut ub(["lmbench", "--only", "proc,disk"])), "unknown section 'disk'");
    assert_usage_error(&run(&mut ub(["lmbench", "--frobnicate"])), "frobnicate");
    assert_usage_error(&run(&mut ub(["lmbench", "--summary"])), "at least one results file");
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
