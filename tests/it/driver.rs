//! The driver (bare `unixbench`, `unixbench run ...`): short real runs (`-i 1 -t 1`) of fast
//! kernels in a scratch directory, the files they leave, Run's scoring as seen through the report
//! and the log, a copy killed mid-run, Ctrl-C, and bad command lines.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `unixbench ARGS --results <scratch>/results --tmpdir <scratch>/tmp`, cwd = the scratch dir.
/// The tmp dir is made here: the driver never makes one.
fn driver(s: &Scratch, args: &[&str]) -> Command {
    std::fs::create_dir_all(s.path().join("tmp")).unwrap();
    let mut c = ub(args);
    c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path().join("tmp"));
    c.current_dir(s.path());
    for v in ["UB_RESULTDIR", "UB_TMPDIR", "UB_OUTPUT_FILE_NAME", "UB_OUTPUT_CSV"] {
        c.env_remove(v);
    }
    // These tests read the results JSON too, which Run's set does not hold unless asked.
    c.env("UB_OUTPUT_JSON", "true");
    c
}

/// The files in `<scratch>/results`, sorted.
fn results(s: &Scratch) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(s.path().join("results"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// The path of the result file with this extension ("" for the report).
fn result_file(s: &Scratch, ext: &str) -> PathBuf {
    let name = results(s)
        .into_iter()
        .find(|n| {
            if ext.is_empty() {
                !n.contains('.') || n.ends_with(char::is_numeric)
            } else {
                n.ends_with(ext)
            }
        })
        .unwrap_or_else(|| panic!("no {ext:?} file in {:?}", results(s)));
    s.path().join("results").join(name)
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The tmp dir holds nothing once the run is over (work directory and fstime files removed).
fn assert_tmp_clean(s: &Scratch) {
    let tmp = s.path().join("tmp");
    let left: Vec<_> =
        std::fs::read_dir(&tmp).map(|d| d.map(|e| e.unwrap().file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "left in the tmp dir: {left:?}");
}

/// A result line of the report: (score, unit, samples).
fn result_line(report: &str, message: &str) -> Vec<(f64, String, u32)> {
    report
        .lines()
        .filter(|l| l.starts_with(message) && l.contains(" samples)"))
        .map(|l| {
            let rest = l[40..].split_whitespace().collect::<Vec<_>>();
            let samples = rest[rest.len() - 2].parse().unwrap();
            (rest[0].parse().unwrap(), rest[1].to_string(), samples)
        })
        .collect()
}

/// The per-copy `# COUNT0:` and `# elapsed:` values of the passes of one test in the log.
fn log_samples(log: &str, header: &str) -> Vec<(f64, f64)> {
    let start = log.find(header).unwrap_or_else(|| panic!("{header:?} not in the log"));
    let section = &log[start..];
    let end = section.find(">>>> ").unwrap();
    let mut out = Vec::new();
    let mut count = None;
    for l in section[..end].lines() {
        if let Some(v) = l.strip_prefix("# COUNT0: ") {
            count = Some(v.parse().unwrap());
        }
        if let Some(v) = l.strip_prefix("# elapsed: ") {
            out.push((count.take().unwrap(), v.parse().unwrap()));
        }
    }
    out
}

#[test]
fn short_run_scores_as_run_and_writes_the_files() {
    let s = Scratch::new("drv-run");
    let o = run(&mut driver(&s, &["run", "-i", "1", "-t", "1", "-c", "1", "-c", "2", "pipe", "syscall"]));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    // Run's banner names the results directory; Run's progress, then the report after a rule
    // of '='.
    let results_line =
        format!("\n      * Results                      = {}\n", s.path().join("results").display());
    assert!(out.contains(&results_line), "{out}");
    assert!(out.contains("\n1 x Pipe Throughput  1\n"), "{out}");
    assert!(out.contains("\n2 x System Call Overhead  1\n"), "{out}");
    assert!(out.contains(&format!("\n{}\n", "=".repeat(72))), "{out}");
    let names = results(&s);
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names[0].ends_with("-01"), "{names:?}");
    for ext in [".html", ".json", ".log"] {
        assert!(names.iter().any(|n| n == &format!("{}{ext}", names[0])), "{ext} missing: {names:?}");
    }
    let report = read(&result_file(&s, ""));
    assert!(report.contains("running 1 parallel copy of tests"), "{report}");
    assert!(report.contains("running 2 parallel copies of tests"), "{report}");
    assert!(report.contains("System Benchmarks Partial Index"), "{report}");
    assert!(report.contains("System Benchmarks Index Score (Partial Only)"), "{report}");

    // The report's scores follow from the log's samples: one pass, timebase 1, so the score is
    // the summed count over the mean elapsed time.
    let log = read(&result_file(&s, ".log"));
    for (copies, header) in [(1, "Pipe Throughput -- 1 copy"), (2, "Pipe Throughput -- 2 copies")] {
        let samples = log_samples(&log, header);
        assert_eq!(samples.len(), copies, "{header}");
        let count: f64 = samples.iter().map(|s| s.0).sum();
        let elapsed: f64 = samples.iter().map(|s| s.1).sum::<f64>() / copies as f64;
        let want = count / elapsed;
        let (score, unit, kept) = result_line(&report, "Pipe Throughput")[copies - 1].clone();
        assert_eq!((unit.as_str(), kept), ("lps", 1));
        assert!((score - want).abs() <= 0.05 + want * 1e-6, "{header}: report {score}, log gives {want}");
    }
    assert!(log.contains("#### Pass 1\n"), "{log}");
    assert!(log.contains(">>>> Sum of 2 copies\n"), "{log}");
    assert_tmp_clean(&s);

    // A second run takes the next number.
    let o = run(&mut driver(&s, &["-q", "-i", "1", "-t", "1", "-c", "1", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(results(&s).iter().any(|n| n.ends_with("-02")), "{:?}", results(&s));
    // -q: only the report, no banner, no progress.
    let out = stdout(&o);
    assert!(!out.contains("Use directories for"), "{out}");
    assert!(!out.contains("1 x System Call Overhead"), "{out}");
    assert!(out.contains("System Call Overhead"), "{out}");
}

#[test]
fn verbose_shows_tests_and_commands() {
    let s = Scratch::new("drv-verbose");
    let o = run(&mut driver(&s, &["-v", "-i", "1", "-t", "1", "-c", "1", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Tests to run: syscall\n"), "{out}");
    assert!(out.contains("Run with 1 copy\n"), "{out}");
    assert!(out.contains("COMMAND: \"syscall 1\"\nCOPIES: \"1\"\n"), "{out}");
}

#[test]
fn environment_names_the_files() {
    let s = Scratch::new("drv-env");
    let o = run(driver(&s, &["-q", "-i", "1", "-t", "1", "-c", "1", "syscall"])
        .env("UB_OUTPUT_FILE_NAME", "mine")
        .env("UB_OUTPUT_CSV", "true"));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(results(&s), ["mine", "mine.csv", "mine.html", "mine.json", "mine.log"]);
    let csv = read(&s.path().join("results/mine.csv"));
    // Run's columns first; the kind of run and each figure's verdict after them.
    let head = "Concurrency,System Call Overhead,System Benchmarks Index Score (Partial Only),Kind,";
    assert!(csv.starts_with(head), "{csv}");
}

#[test]
fn machine_readable_stdout_and_no_save() {
    let s = Scratch::new("drv-format");
    let o =
        run(&mut driver(&s, &["--no-save", "--format", "tsv", "-i", "1", "-t", "1", "-c", "1", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].starts_with("1\tsyscall\tSystem Call Overhead\t"), "{out}");
    assert!(lines[2].starts_with("1\tindex:system\tSystem Benchmarks Index Score (Partial Only)\t"), "{out}");
    // The progress went to stderr, and nothing was saved, as the banner says.
    assert!(stderr(&o).contains("1 x System Call Overhead  1"), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("\n      * Results                      = not saved (--no-save)\n"),
        "{}",
        stderr(&o)
    );
    assert!(!s.path().join("results").exists());
    let o = run(&mut driver(
        &s,
        &["--no-save", "--format", "json", "-q", "-i", "1", "-t", "1", "-c", "1", "syscall"],
    ));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(stdout(&o).trim_start().starts_with('{'), "{}", stdout(&o));
    // -q: no progress; the summary alone.
    let summary = "unixbench: partial index 0.0 at 1 copy; a short run, not standard; no test disturbed\n"
        .replace("0.0", &index_of(&stdout(&o)))
        .replace("no test disturbed", disturbed_words(&stdout(&o)));
    let busy = busy_line_of(&stdout(&o));
    assert_eq!(stderr(&o), format!("{summary}{busy}unixbench: no file written (--no-save)\n"));
}

/// The first `"score"` of a JSON's summary, as the text prints it (one decimal).
fn index_of(json: &str) -> String {
    let summary = &json[json.find("\"summary\": {").expect("a summary")..];
    let score = &summary[summary.find("\"score\": ").unwrap() + 9..];
    let score: f64 = score[..score.find([',', '\n']).unwrap()].parse().unwrap();
    format!("{score:.1}")
}

/// How the summary words the disturbed tests of a JSON of one test at one copy count (a busy
/// machine disturbs it now and then).
fn disturbed_words(json: &str) -> &'static str {
    match json.matches("\"disturbed\": true").count() {
        0 => "no test disturbed",
        _ => "the only test disturbed, at 1 copy",
    }
}

/// The console's busy host line after the summary, as a JSON's summary has it, or nothing when
/// the host disturbed no test.
fn busy_line_of(json: &str) -> String {
    let Some(i) = json.find("\"busy_host\": {") else { return String::new() };
    let text = &json[i..];
    let text = &text[text.find("\"text\": \"").unwrap() + 9..];
    format!("unixbench: {}\n", &text[..text.find('"').unwrap()])
}

/// The run ends with its summary: the index at each copy count, the kind of run, the disturbed
/// tests, where the files went, on stderr; stdout ends as C's does, with the report's last
/// line, with and without -q. The JSON carries the same summary and what `--version` says the
/// binary was built as.
#[test]
fn the_run_ends_with_its_summary_with_and_without_q() {
    let s = Scratch::new("drv-summary");
    let o = run(&mut driver(&s, &["-i", "1", "-t", "1", "-c", "1", "-c", "2", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let json = read(&result_file(&s, ".json"));
    let base = result_file(&s, "");
    let (out, err) = (stdout(&o), stderr(&o));
    let summary = &json[json.find("\"text\": \"").unwrap() + 9..];
    let summary = &summary[..summary.find('"').unwrap()];
    assert!(summary.starts_with("partial index ") && summary.contains(" at 1 copy, "), "{summary}");
    assert!(summary.contains(" at 2 copies; a short run, not standard; "), "{summary}");
    let saved = format!("results in {} (and .html, .log), JSON in {}", base.display(), base.display());
    let last = read(&base).lines().last().unwrap().to_string();
    assert!(out.ends_with(&format!("{last}\n")) && !out.contains("Summary"), "{out}");
    let busy = busy_line_of(&json);
    assert!(err.ends_with(&format!("unixbench: {summary}\n{busy}unixbench: {saved}.json\n")), "{err}");
    // Not in the report's file, which stays the report.
    assert!(!read(&base).contains("** Summary:"));
    // The JSON: each copy count's index, the kind, the disturbed count; the build.
    for want in [
        "\"kind\": \"short\"",
        "\"copies\": 2,\n        \"title\": \"System Benchmarks Index Score (Partial Only)\"",
        "\"disturbed\": ",
    ] {
        assert!(json.contains(want), "{want}: {json}");
    }
    let version = stdout(&run(&mut ub(["--version"])));
    let built = version.lines().nth(1).unwrap();
    let (target, commit) = built.strip_prefix("built for ").unwrap().split_once(" from commit ").unwrap();
    assert!(
        json.contains(&format!(
            "\"build\": {{\n    \"target\": \"{target}\",\n    \"commit\": \"{commit}\"\n  }}"
        )),
        "{json}"
    );

    // -q: the report alone on stdout; the summary on stderr.
    let o = run(&mut driver(&s, &["-q", "-i", "1", "-t", "1", "-c", "1", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let (out, err) = (stdout(&o), stderr(&o));
    let second = results(&s).into_iter().rfind(|n| !n.contains('.')).unwrap();
    let last = read(&s.path().join("results").join(second)).lines().last().unwrap().to_string();
    assert!(out.ends_with(&format!("{last}\n")) && !out.contains("Summary"), "{out}");
    // Between them, on a busy machine, the busy host's line.
    let lines: Vec<&str> = err.lines().filter(|l| !l.starts_with("unixbench: busy host: ")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("unixbench: partial index ") && lines[0].contains(" at 1 copy; a short run"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("unixbench: results in ") && lines[1].contains("-02 (and .html, .log)"),
        "{err}"
    );
}

/// `-i 1` without `-t`: Run's durations, fewer passes; the text report says it is not a
/// standard run on a `** ` line, in the words of the HTML's box, and `compare` reads it so.
#[test]
fn a_run_with_fewer_passes_says_so_in_the_text_report() {
    let s = Scratch::new("drv-i1");
    let o = run(&mut driver(&s, &["-i", "1", "-c", "1", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    let report = read(&result_file(&s, ""));
    let note = "** Not a standard run (short): -i 1: other pass counts than Run's 10 and 3; not comparable with standard runs.\n";
    assert!(report.contains(note), "{report}");
    assert!(stdout(&o).contains(note));
    assert!(
        read(&result_file(&s, ".html")).contains("<li>-i 1: other pass counts than Run&#39;s 10 and 3</li>")
    );
    let o = run(ub(["compare", "--format", "tsv"]).arg(result_file(&s, "")).arg(result_file(&s, "")));
    assert!(stdout(&o).lines().skip(1).all(|l| l.contains("\tshort\t")), "{}", stdout(&o));
}

#[test]
fn graphics_tests_are_skipped_without_graphics() {
    if ub(["--list"]).output().map(|o| stdout(&o).lines().any(|l| l == "2d-rects")).unwrap_or(false) {
        return; // a graphics build runs them instead
    }
    let s = Scratch::new("drv-gfx");
    let o = run(&mut driver(&s, &["-i", "1", "-t", "1", "-c", "1", "2d-rects"]));
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert!(stdout(&o).contains("skipped: this binary was built without graphics"), "{}", stdout(&o));
}

/// Pids of live processes whose environment holds `tag` (our copies and their children).
fn tagged(tag: &str) -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        if let Ok(env) = std::fs::read(e.path().join("environ")) {
            if env.split(|&b| b == 0).any(|kv| kv == tag.as_bytes()) {
                // Zombies still show; they are gone once reaped, so only count the living.
                let stat = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
                if !stat.contains(") Z ") {
                    v.push(pid);
                }
            }
        }
    }
    v
}

fn wait_for(what: &str, secs: u64, mut f: impl FnMut() -> bool) {
    let end = Instant::now() + Duration::from_secs(secs);
    while !f() {
        assert!(Instant::now() < end, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(pid: impl std::fmt::Display, sig: &str) {
    let st = Command::new("kill").args([sig, &pid.to_string()]).status().unwrap();
    assert!(st.success(), "kill {sig} {pid}");
}

fn finish(child: std::process::Child) -> Output {
    child.wait_with_output().unwrap()
}

#[test]
fn a_killed_copy_fails_its_test_and_the_run_goes_on() {
    let s = Scratch::new("drv-kill");
    let tag = format!("UB_IT_TAG=kill-{}", std::process::id());
    let (k, v) = tag.split_once('=').unwrap();
    let child = driver(&s, &["-i", "1", "-t", "3", "-c", "1", "pipe", "syscall"])
        .env(k, v)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    let mut victim = Vec::new();
    wait_for("the pipe copy", 30, || {
        victim = copies_named(me, "pipe");
        !victim.is_empty()
    });
    kill(victim[0], "-KILL");
    let o = finish(child);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains(&format!("\n{}\n", "*".repeat(46))), "{err}");
    assert!(
        err.contains(
            "Run: \"Pipe Throughput\": command returned status 9 (killed by signal 9, SIGKILL); aborting"
        ),
        "{err}"
    );
    assert!(err.lines().last().unwrap().contains("1 test failed: pipe"), "{err}");
    // The next test ran and is in the report and its index; the JSON names the failure.
    let report = read(&result_file(&s, ""));
    assert_eq!(result_line(&report, "System Call Overhead").len(), 1, "{report}");
    assert!(report.contains("System Benchmarks Partial Index"), "{report}");
    let json = read(&result_file(&s, ".json"));
    assert!(json.contains("killed by signal 9"), "{json}");
    assert!(tagged(&tag).is_empty(), "stray processes: {:?}", tagged(&tag));
    assert_tmp_clean(&s);
}

/// The copies show in the process table under their program's name, as the C suite's do
/// (`ps -o comm`, `pgrep pipe`), and their command line starts with it.
#[test]
fn copies_are_named_after_their_program() {
    let s = Scratch::new("drv-comm");
    let mut child = driver(&s, &["-q", "-i", "1", "-t", "3", "-c", "2", "pipe"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let me = child.id();
    let mut copies = Vec::new();
    wait_for("the two pipe copies", 30, || {
        copies = copies_named(me, "pipe");
        copies.len() == 2
    });
    // Between exec and the name's setting the comm is still the file's: wait for the name.
    let mut named = 0;
    for pid in copies {
        let comm = || std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
        wait_for("the copy's name", 30, || comm().is_empty() || comm() == "pipe\n");
        named += usize::from(comm() == "pipe\n");
    }
    assert!(named > 0, "no copy showed as pipe in /proc/PID/comm");
    assert!(child.wait().unwrap().success());
}

#[test]
fn sigint_stops_cleanly_and_keeps_finished_results() {
    let s = Scratch::new("drv-int");
    let tag = format!("UB_IT_TAG=int-{}", std::process::id());
    let (k, v) = tag.split_once('=').unwrap();
    let child = driver(&s, &["-i", "1", "-t", "1", "-c", "2", "syscall", "pipe", "pipe"])
        .env(k, v)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    // Once the second test's copies run, the first one's result is in.
    wait_for("the pipe copies", 30, || copies_named(me, "pipe").len() == 2);
    kill(me, "-INT");
    let o = finish(child);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(130), "stderr: {err}");
    assert!(err.contains("stopped by SIGINT"), "{err}");
    let report = read(&result_file(&s, ""));
    assert_eq!(result_line(&report, "System Call Overhead").len(), 1, "{report}");
    assert!(result_line(&report, "Pipe Throughput").is_empty(), "{report}");
    assert!(stdout(&o).contains("System Call Overhead"), "the final report is printed");
    let log = read(&result_file(&s, ".log"));
    assert!(log.contains("interrupted by SIGINT"), "{log}");
    let json = read(&result_file(&s, ".json"));
    assert!(json.contains("\"interrupted\": true"), "{json}");
    assert!(tagged(&tag).is_empty(), "stray processes: {:?}", tagged(&tag));
    assert_tmp_clean(&s);
}

#[test]
fn a_stop_during_rounds_keeps_every_pass_finished_in_every_file() {
    // A run in rounds (--rounds, and a quick run's) stopped by INT, TERM or HUP once its
    // first round is done: each test keeps the passes it finished, scored, in every file.
    let runs: [(&[&str], &str, i32); 3] = [
        (&["--rounds", "-t", "1", "-i", "6"], "-INT", 130),
        (&["--quick"], "-TERM", 143),
        (&["--rounds", "-t", "1", "-i", "6"], "-HUP", 129),
    ];
    for (kind, sig, code) in runs {
        let s = Scratch::new("drv-stop-rounds");
        let mut args = kind.to_vec();
        args.extend(["--json", "-c", "1", "syscall", "pipe"]);
        let child = driver(&s, &args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let me = child.id();
        // Each test's pass of round 1 done: a third copy has started.
        let mut seen = std::collections::BTreeSet::new();
        wait_for("a second round", 60, || {
            seen.extend(copies_named(me, "syscall").into_iter().chain(copies_named(me, "pipe")));
            seen.len() >= 3
        });
        kill(me, sig);
        let o = finish(child);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{kind:?} {sig}: {err}");
        let report = read(&result_file(&s, ""));
        for test in ["System Call Overhead", "Pipe Throughput"] {
            assert_eq!(result_line(&report, test).len(), 1, "{kind:?} {sig}: {test}: {report}");
        }
        let json = read(&result_file(&s, ".json"));
        assert!(json.contains("\"interrupted\": true"), "{json}");
        let v = base::json::parse(&json).unwrap();
        let results = v.get("runs").unwrap().as_array().unwrap()[0].get("results").unwrap();
        for r in results.as_array().unwrap() {
            let passes = r.get("passes").unwrap().as_array().unwrap();
            assert!(!passes.is_empty(), "{kind:?} {sig}: {r:?}");
            assert!(passes.iter().all(|p| p.get("round").and_then(|x| x.as_f64()).is_some()), "{r:?}");
        }
        let html = read(&result_file(&s, ".html"));
        assert!(html.contains("Pipe Throughput"), "{kind:?} {sig}");
        assert_tmp_clean(&s);
    }
}

#[test]
fn a_results_directory_swapped_for_a_link_mid_run_is_never_written_through() {
    let s = Scratch::new("drv-swap");
    let child = driver(&s, &["-i", "1", "-t", "1", "-c", "1", "syscall", "pipe"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (results, moved, elsewhere) =
        (s.path().join("results"), s.path().join("moved"), s.path().join("elsewhere"));
    std::fs::create_dir(&elsewhere).unwrap();
    // Once the run's files are there, another user's rename and link, as the attack.
    wait_for("the result set", 30, || std::fs::read_dir(&results).is_ok_and(|mut d| d.next().is_some()));
    std::fs::rename(&results, &moved).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &results).unwrap();
    let o = finish(child);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("is no longer the one this run made its files in"), "{err}");
    assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none(), "written through the link");
    // The set was finished in the directory it was made in.
    let report = std::fs::read_dir(&moved)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_none())
        .unwrap();
    let text = read(&report);
    assert!(!result_line(&text, "Pipe Throughput").is_empty(), "{text}");
}

#[test]
fn bad_command_lines_exit_2_and_create_nothing() {
    let s = Scratch::new("drv-bad");
    for (args, needle) in [
        (&["run", "nosuchtest"][..], "unknown test or group 'nosuchtest'"),
        (&["-c", "0"], "-c (parallel copies) '0'"),
        (&["-c", "-1"], "-c (parallel copies) '-1'"),
        (&["-c", "abc"], "-c (parallel copies) 'abc'"),
        (&["-i", "x"], "-i (passes of long tests) 'x'"),
        (&["-t", "0"], "--time (seconds per test) '0'"),
        (&["-x"], "unknown option '-x'"),
        (&["--frobnicate"], "unknown option '--frobnicate'"),
        (&["run", "--format", "xml"], "invalid --format 'xml'"),
    ] {
        let mut c = ub(args);
        c.current_dir(s.path()).env("UB_TMPDIR", s.path().join("tmp"));
        let o = run(&mut c);
        assert_usage_error(&o, needle);
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert!(s.entries().is_empty(), "{args:?} created {:?}", s.entries());
    }
    // A results directory that cannot be made: one line before anything runs.
    std::fs::write(s.path().join("file"), "x").unwrap();
    let o = run(ub(["-i", "1", "-t", "1", "syscall", "--results"])
        .arg(s.path().join("file/sub"))
        .current_dir(s.path()));
    assert_usage_error(&o, "results directory");
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn test_names_reach_the_driver_and_applet_names_win() {
    // `pipe` alone is the applet (a usage error for it), `run pipe` the driver.
    let o = run(&mut ub(["pipe"]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("pipe: "), "{}", stderr(&o));
    let o = run(&mut ub(["run", "--help"]));
    assert!(o.status.success());
    assert!(stdout(&o).contains("--tmpdir"), "{}", stdout(&o));
    let o = run(&mut ub(["index", "--help"]));
    assert!(stdout(&o).contains("--tmpdir"), "{}", stdout(&o));
}

#[test]
fn a_full_disk_fails_the_file_test_and_the_run_goes_on() {
    // A file size limit of 1.2 MB (2.4 MB where sh counts KiB): fsdisk-w's 32 MB file cannot
    // be written (EFBIG), while the work directory's data (0.7 MB), the log and the reports
    // stay below it.
    let s = Scratch::new("drv-fsize");
    std::fs::create_dir(s.path().join("tmp")).unwrap();
    let mut c = Command::new("/bin/sh");
    c.arg("-c").arg("ulimit -f 2400 && exec \"$0\" \"$@\"").arg(bin());
    c.args(["-i", "1", "-t", "1", "-c", "1", "fsdisk-w", "syscall"]);
    c.arg("--results").arg(s.path().join("results")).arg("--tmpdir").arg(s.path().join("tmp"));
    c.current_dir(s.path()).env_remove("UB_OUTPUT_FILE_NAME");
    let o = run(&mut c);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "stderr: {err}");
    assert!(err.contains("Run: \"File Write 4096 bufsize 8000 maxblocks\": "), "{err}");
    assert!(err.contains("; aborting\n"), "{err}");
    let report = read(&result_file(&s, ""));
    assert!(report.contains("** fsdisk-w: failed: "), "{report}");
    assert_eq!(result_line(&report, "System Call Overhead").len(), 1, "{report}");
    assert_tmp_clean(&s);
}

#[test]
fn sigint_during_the_shell_test_leaves_no_script_running() {
    let s = Scratch::new("drv-int-shell");
    let tag = format!("UB_IT_TAG=shell-{}", std::process::id());
    let (k, v) = tag.split_once('=').unwrap();
    let child = driver(&s, &["-i", "1", "-t", "5", "-c", "2", "shell8"])
        .env(k, v)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    wait_for("the looper copies", 30, || copies_named(me, "looper").len() == 2);
    // Let the scripts get going: background tst.sh jobs, sort, od, grep.
    std::thread::sleep(Duration::from_millis(1500));
    kill(me, "-INT");
    let o = finish(child);
    let out = stdout(&o);
    if out.contains("skipped: ") {
        return skip("interrupted shell test", "this host lacks /bin/sh or a tool the scripts run");
    }
    assert_eq!(o.status.code(), Some(130), "stderr: {}", stderr(&o));
    assert!(tagged(&tag).is_empty(), "stray processes: {:?}", tagged(&tag));
    assert_tmp_clean(&s);
}

#[test]
fn sigterm_stops_with_143_and_brief_mode_drops_the_cpu_lines() {
    let s = Scratch::new("drv-term");
    let child = driver(&s, &["-b", "-i", "1", "-t", "1", "-c", "1", "syscall", "pipe"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let me = child.id();
    wait_for("the pipe copy", 30, || copies_named(me, "pipe").len() == 1);
    kill(me, "-TERM");
    let o = finish(child);
    assert_eq!(o.status.code(), Some(143), "stderr: {}", stderr(&o));
    assert!(stderr(&o).contains("stopped by SIGTERM"), "{}", stderr(&o));
    let report = read(&result_file(&s, ""));
    assert_eq!(result_line(&report, "System Call Overhead").len(), 1, "{report}");
    // -b: Run's brief mode prints no CPU lines, not even "no details available".
    assert!(report.contains("   Language: "), "{report}");
    assert!(!report.lines().any(|l| l.starts_with("   CPU")), "{report}");
    assert_tmp_clean(&s);
}

#[test]
fn copies_do_not_outlive_a_killed_driver() {
    let s = Scratch::new("drv-kill9");
    let tag = format!("UB_IT_TAG=kill9-{}", std::process::id());
    let (k, v) = tag.split_once('=').unwrap();
    let child = driver(&s, &["-i", "1", "-t", "60", "-c", "2", "pipe"])
        .env(k, v)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let me = child.id();
    wait_for("the pipe copies", 30, || copies_named(me, "pipe").len() == 2);
    kill(me, "-KILL");
    let _ = finish(child);
    // The kernel kills each copy when its parent dies (and pipe's own child follows).
    wait_for("the copies to die with the driver", 3, || tagged(&tag).is_empty());
}

#[test]
fn a_named_results_directory_is_made_as_mkdir_makes_it_and_said() {
    let s = Scratch::new("results-mkdir");
    let o = run(&mut driver(&s, &["-c", "1", "-t", "1", "-i", "1", "syscall"]));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let made = format!("made the results directory {}", s.path().join("results").display());
    assert!(stderr(&o).lines().any(|l| l.ends_with(&made)), "{}", stderr(&o));
    // There now: nothing more to say; -q says nothing either way.
    let o = run(&mut driver(&s, &["-c", "1", "-t", "1", "-i", "1", "syscall"]));
    assert!(!stderr(&o).contains("made the results"), "{}", stderr(&o));
    let deeper = s.path().join("a").join("b");
    let o = run(ub(["-q", "-c", "1", "-t", "1", "-i", "1", "--tmpdir"])
        .arg(s.path())
        .arg("--results")
        .arg(&deeper)
        .arg("syscall"));
    assert_eq!(o.status.code(), Some(2));
    assert!(!s.path().join("a").exists(), "no parent made");
}
