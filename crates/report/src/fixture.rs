//! Hand-built runs for the exporters' tests: the figures of a real C UnixBench report (index,
//! 1 and 2 copies, on a 2-CPU machine), and a small run with failures, overflowing numbers and
//! long names.

use crate::model::*;

/// (name, message, unit, repeat-class time, samples, baseline)
const TESTS: [(&str, &str, &str, f64, usize, f64); 12] = [
    ("dhry2reg", "Dhrystone 2 using register variables", "lps", 10.0, 7, 116700.0),
    ("whetstone-double", "Double-Precision Whetstone", "MWIPS", 10.0, 7, 55.0),
    ("execl", "Execl Throughput", "lps", 30.0, 2, 43.0),
    ("fstime", "File Copy 1024 bufsize 2000 maxblocks", "KBps", 30.0, 2, 3960.0),
    ("fsbuffer", "File Copy 256 bufsize 500 maxblocks", "KBps", 30.0, 2, 1655.0),
    ("fsdisk", "File Copy 4096 bufsize 8000 maxblocks", "KBps", 30.0, 2, 5800.0),
    ("pipe", "Pipe Throughput", "lps", 10.0, 7, 12440.0),
    ("context1", "Pipe-based Context Switching", "lps", 10.0, 7, 4000.0),
    ("spawn", "Process Creation", "lps", 30.0, 2, 126.0),
    ("shell1", "Shell Scripts (1 concurrent)", "lpm", 60.0, 2, 42.4),
    ("shell8", "Shell Scripts (8 concurrent)", "lpm", 60.0, 2, 6.0),
    ("syscall", "System Call Overhead", "lps", 10.0, 7, 15000.0),
];

/// (score, index) per test, 1 copy then 2 copies, as the reference report prints them.
const C1: [(f64, f64); 12] = [
    (78540503.4, 6730.1),
    (10246.7, 1863.0),
    (2114.7, 491.8),
    (1117517.9, 2822.0),
    (289627.5, 1750.0),
    (3183417.2, 5488.7),
    (2089013.9, 1679.3),
    (26010.3, 65.0),
    (6781.8, 538.2),
    (9466.7, 2232.7),
    (1791.9, 2986.5),
    (1718780.5, 1145.9),
];
const C2: [(f64, f64); 12] = [
    (160012088.8, 13711.4),
    (20294.4, 3689.9),
    (4090.2, 951.2),
    (2178820.9, 5502.1),
    (564614.4, 3411.6),
    (6423164.2, 11074.4),
    (4018242.6, 3230.1),
    (469991.0, 1175.0),
    (15109.8, 1199.2),
    (15933.3, 3757.9),
    (1842.1, 3070.2),
    (3412695.8, 2275.1),
];

pub const START1: i64 = 1_795_997_142; // Mon Nov 30 2026 00:05:42 UTC
pub const END1: i64 = START1 + 1676;
pub const END2: i64 = END1 + 1676;

/// A result with `samples` kept passes of one copy each; pass counts make the kept ones the
/// highest, as Run's dropping leaves them.
pub fn result(
    name: &str,
    message: &str,
    copies: usize,
    score: f64,
    unit: &str,
    time: f64,
    samples: usize,
) -> TestResult {
    let npasses = if samples == 7 { 10 } else { 3 };
    let ndump = npasses / 3;
    let passes: Vec<Pass> = (0..npasses)
        .map(|i| {
            // Passes 0..ndump are the low ones.
            let count = if i < ndump { score * 0.5 } else { score * time } + i as f64;
            Pass {
                copies: (0..copies)
                    .map(|c| CopyOutcome {
                        count: Some(count / copies as f64),
                        timebase: Some(1.0),
                        label: Some(unit.to_string()),
                        time: None,
                        elapsed: time + 0.000125,
                        status: 0,
                        error: None,
                        pid: 1000 + (i * copies + c) as i32,
                        image: None,
                        started: None,
                    })
                    .collect(),
                count,
                time: time + 0.000125,
                elapsed: time + 0.000125,
                timebase: 1.0,
                label: unit.to_string(),
                noise: None,
                round: None,
                start: None,
            }
        })
        .collect();
    TestResult {
        name: name.to_string(),
        message: message.to_string(),
        category: Some(Category::System),
        command: format!("\"/opt/ub/pgms/{name}\" 10 2>&1 >> \"/opt/ub/results/host.log\""),
        copies,
        kept: (ndump..npasses).collect(),
        passes,
        score,
        unit: unit.to_string(),
        time,
        error: None,
        skipped: None,
        busy: false,
        replaced: Vec::new(),
    }
}

fn copy_run(copies: usize, start: i64, end: i64, figures: &[(f64, f64); 12], index: f64) -> CopyRun {
    // Run order: the index group's order, which is not the report's sorted order.
    let order = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    let results = order
        .iter()
        .rev()
        .map(|&i| {
            let (name, msg, unit, time, samples, _) = TESTS[i];
            result(name, msg, copies, figures[i].0, unit, time, samples)
        })
        .collect();
    let rows = (0..12)
        .map(|i| IndexRow {
            message: TESTS[i].1.to_string(),
            baseline: Some(TESTS[i].5),
            score: figures[i].0,
            index: Some(figures[i].1),
        })
        .collect();
    CopyRun {
        copies,
        start,
        end,
        results,
        index: vec![IndexBlock { category: Category::System, rows, score: index, partial: false }],
    }
}

pub fn system() -> SystemInfo {
    let cpu = Cpu {
        model: "AMD EPYC".to_string(),
        bogomips: 5192.25,
        flags:
            "Hyper-Threading, x86-64, MMX, AMD MMX, Physical Address Ext, SYSENTER/SYSEXIT, SYSCALL/SYSRET"
                .to_string(),
    };
    SystemInfo {
        hostname: "vm".to_string(),
        os: "GNU/Linux".to_string(),
        os_release: "6.18.44-fc-v657".to_string(),
        os_version: "#1 SMP PREEMPT_DYNAMIC @0".to_string(),
        machine: "x86_64".to_string(),
        platform: "unknown".to_string(),
        system: "Debian GNU/Linux 12 (bookworm)".to_string(),
        language: "en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")".to_string(),
        cpus: vec![cpu.clone(), cpu],
        cpu_count: Some(2),
        cpu_limit: None,
        graphics: None,
        uptime: "00:05:42 up 5 min,  0 user,  load average: 1.51, 0.62, 0.23".to_string(),
        runlevel: "5".to_string(),
    }
}

/// The reference run: index, 1 and 2 copies.
pub fn reference() -> Run {
    Run {
        version: "6.0.0-compatible; unixbench 0.1.0".to_string(),
        build: Default::default(),
        system: system(),
        settings: Settings {
            tests: vec!["index".to_string()],
            copies: vec![1, 2],
            iterations: None,
            duration: None,
            quick: None,
            noise: false,
            remeasure: false,
            seed: None,
            verbosity: Verbosity::Normal,
            tmpdir: "/opt/ub/tmp".to_string(),
            resultdir: "/opt/ub/results".to_string(),
        },
        runs: vec![copy_run(1, START1, END1, &C1, 1433.1), copy_run(2, END1, END2, &C2, 3209.6)],
        interrupted: false,
        incomplete: false,
    }
}

/// The reference run with noise read around every pass: quiet but for Pipe Throughput at 2
/// copies, whose copies other processes outran (685.9% of their CPU time); no CPU frequency known.
pub fn noisy() -> Run {
    let mut run = reference();
    run.settings.noise = true;
    for r in run.runs.iter_mut().flat_map(|cr| &mut cr.results) {
        let foreign = if r.name == "pipe" && r.copies == 2 { 68.59 } else { 0.1 };
        for p in &mut r.passes {
            p.noise = Some(Noise {
                copies_cpu: 10.0,
                steal: 0.0,
                foreign,
                load_start: 1.0,
                load_end: 1.5,
                involuntary: 12,
                mhz: None,
                wall: 10.0,
                idle: 0.0,
                throttled: None,
                driver_stopped: false,
            });
        }
    }
    run
}

/// The reference run beside a CPU hog on a VM: every pass lost 6% of its copies' CPU time to
/// steal and 40 times that to other processes (one pass of Dhrystone at 2 copies 6.859 times
/// the copies' own), the load up to 14.2.
pub fn beside_a_hog() -> Run {
    let mut run = reference();
    run.settings.noise = true;
    for r in run.runs.iter_mut().flat_map(|cr| &mut cr.results) {
        let hogged = r.name == "dhry2reg" && r.copies == 2;
        for (i, p) in r.passes.iter_mut().enumerate() {
            let foreign = if hogged && i == 0 { 68.59 } else { 24.0 };
            let load_end = if hogged && i == 0 { 14.2 } else { 12.0 };
            p.noise = Some(Noise {
                copies_cpu: 10.0,
                steal: 0.6,
                foreign,
                load_start: 11.0,
                load_end,
                wall: 10.0,
                ..Default::default()
            });
        }
    }
    run
}

/// The reference run as a quick one, its Pipe Throughput passes disturbed (other processes took
/// half of the copies' CPU time).
pub fn quick_with_pipe_disturbed() -> Run {
    let mut run = reference();
    run.settings.quick = Some(100.0);
    for r in run.runs.iter_mut().flat_map(|cr| &mut cr.results).filter(|r| r.name == "pipe") {
        for p in &mut r.passes {
            p.noise = Some(Noise { copies_cpu: 1.0, foreign: 0.5, ..Default::default() });
        }
    }
    run
}

/// A run that goes wrong: a failed test, a skipped one, figures too wide for their fields, a
/// message longer than its column, a test without baseline, a partial Non-Index block, `-t`,
/// an unknown CPU count, and an interrupt.
pub fn troubled() -> Run {
    let [long, grep, execl, dhry, cc] = troubled_results();
    // Misc block given first: exporters must still print System first.
    let index = vec![troubled_misc_block(&grep, &long), troubled_system_block(&dhry)];
    Run {
        version: "6.0.0-compatible; unixbench 0.1.0".to_string(),
        build: Default::default(),
        system: troubled_system(),
        settings: Settings {
            tests: vec!["dhry2reg".into(), "hanoi".into(), "grep".into(), "execl".into(), "C".into()],
            copies: vec![1],
            iterations: Some(3),
            duration: Some(2),
            verbosity: Verbosity::Normal,
            tmpdir: "/t".to_string(),
            resultdir: "/r".to_string(),
            ..Settings::default()
        },
        runs: vec![CopyRun {
            copies: 1,
            start: START1,
            end: START1 + 75,
            results: vec![long, grep, execl, dhry, cc],
            index,
        }],
        interrupted: true,
        incomplete: false,
    }
}

/// The troubled run's results: a message too long and a test without baseline (hanoi), grep,
/// a failed execl, a figure too wide (dhry2reg) and a skipped C.
fn troubled_results() -> [TestResult; 5] {
    let mut dhry =
        result("dhry2reg", "Dhrystone 2 using register variables", 1, 12345678901234.5, "lps", 2.0, 2);
    dhry.time = 2.04;
    let mut long = result(
        "hanoi",
        "Recursion Test -- Tower of Hanoi, a message far too long for its column",
        1,
        981597.55,
        "lps",
        2.0,
        2,
    );
    long.category = Some(Category::Misc);
    let mut grep = result("grep", "Grep a large file (system's grep)", 1, 48834.0, "lpm", 2.0, 2);
    grep.category = Some(Category::Misc);
    let mut execl = result("execl", "Execl Throughput", 1, 0.0, "lps", 2.0, 2);
    execl.error = Some("command returned status 256\nexecl: <cannot exec> & \"quoted\"".to_string());
    execl.kept.clear();
    let mut cc = result("C", "C Compiler Throughput", 1, 0.0, "lpm", 2.0, 2);
    cc.skipped = Some("no C compiler (cc or gcc) on this host".to_string());
    cc.passes.clear();
    cc.kept.clear();
    [long, grep, execl, dhry, cc]
}

/// A partial System block: dhry2reg alone.
fn troubled_system_block(dhry: &TestResult) -> IndexBlock {
    IndexBlock {
        category: Category::System,
        rows: vec![IndexRow {
            message: dhry.message.clone(),
            baseline: Some(116700.0),
            score: dhry.score,
            index: Some(1057898706.1),
        }],
        score: 1057898706.1,
        partial: true,
    }
}

/// A partial Misc block: grep, and hanoi without a baseline.
fn troubled_misc_block(grep: &TestResult, long: &TestResult) -> IndexBlock {
    IndexBlock {
        category: Category::Misc,
        rows: vec![
            IndexRow {
                message: grep.message.clone(),
                baseline: Some(25.0),
                score: 48834.0,
                index: Some(19533.6),
            },
            IndexRow { message: long.message.clone(), baseline: None, score: long.score, index: None },
        ],
        score: 19533.6,
        partial: true,
    }
}

/// The system block with no CPU count and a host name that needs escaping.
fn troubled_system() -> SystemInfo {
    let mut sys = system();
    sys.cpu_count = None;
    sys.cpus.clear();
    sys.hostname = "h<&>".to_string();
    sys.runlevel = "unknown".to_string();
    sys
}
