//! The CPU kernels as Run sees them: Dhrystone, Whetstone, the arith family and Hanoi print
//! exactly their protocol lines on stderr (and Whetstone its C table on stdout), and refuse bad
//! arguments with one line and exit status 2. How fast they run is measured, not tested:
//! bench/orderings.sh prints the orderings their loops imply (each arith variant slower than
//! arithoh, Hanoi's 3 disks faster than 10, Dhrystone over 1000 loops a second).

use crate::common::*;
use std::process::{Child, Output, Stdio};

fn spawn(args: &[&str]) -> Child {
    ub(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary runs")
}

/// Asserts a counting kernel's whole output: exit 0, nothing on stdout, and on stderr the one
/// line `COUNT|<n>|1|lps` with n a positive integer.
fn assert_lps(name: &str, o: &Output) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(0), "{name}: exit status; stderr: {err}");
    assert_eq!(stdout(o), "", "{name}: stdout");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{name}: one line on stderr: {err:?}");
    assert!(err.ends_with('\n'));
    let f: Vec<&str> = lines[0].split('|').collect();
    assert_eq!((f.len(), f[0], f[2], f[3]), (4, "COUNT", "1", "lps"), "{name}: {err:?}");
    assert!(f[1].bytes().all(|b| b.is_ascii_digit()), "{name}: %ld count: {err:?}");
    let n: u64 = f[1].parse().unwrap();
    assert!(n > 0, "{name}: count {n}");
}

#[test]
fn dhrystone_prints_one_count_line() {
    let kids: Vec<(&str, Child)> = ["dhry2reg", "dhry2"].iter().map(|&k| (k, spawn(&[k, "1"]))).collect();
    for (k, c) in kids {
        assert_lps(k, &c.wait_with_output().unwrap());
    }
}

#[test]
fn arith_family_prints_one_count_line_each() {
    let names = ["arithoh", "register", "short", "int", "long", "float", "double"];
    let kids: Vec<(&str, Child)> = names.iter().map(|&k| (k, spawn(&[k, "1"]))).collect();
    for (k, c) in kids {
        assert_lps(k, &c.wait_with_output().unwrap());
    }
}

#[test]
fn hanoi_prints_one_count_line() {
    let default = spawn(&["hanoi", "1"]);
    let three = spawn(&["hanoi", "1", "3"]);
    assert_lps("hanoi 1", &default.wait_with_output().unwrap());
    assert_lps("hanoi 1 3", &three.wait_with_output().unwrap());
}

/// Parses a right-aligned fixed-width number field.
fn field(line: &str, from: usize, width: usize) -> f64 {
    let s = &line[from..from + width];
    s.trim().parse().unwrap_or_else(|_| panic!("number in {s:?} of {line:?}"))
}

#[test]
#[allow(clippy::excessive_precision)] // the values as the C program prints them
fn whetstone_prints_the_c_layout_and_protocol() {
    // A 1 s measured run (the argument is ours; the C program always aims at 10 s): the same
    // layout, lines and protocol, only fewer passes.
    let o = run(&mut ub(["whetstone-double", "1"]));
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "stderr: {err}");

    // stderr: the variant's IMAGE line, COUNT|%.3f|0|MWIPS then TIME|%.3f, nothing else.
    let e: Vec<&str> = err.lines().collect();
    assert_eq!(e.len(), 3, "{err:?}");
    assert_eq!(e[0], expected_whetstone_image(), "{err:?}");
    let mwips = e[1].strip_prefix("COUNT|").and_then(|s| s.strip_suffix("|0|MWIPS")).expect("COUNT line");
    let time = e[2].strip_prefix("TIME|").expect("TIME line");
    for v in [mwips, time] {
        let (_, frac) = v.split_once('.').expect("%.3f");
        assert_eq!(frac.len(), 3, "{v}");
    }
    let (mwips, time): (f64, f64) = (mwips.parse().unwrap(), time.parse().unwrap());
    // No bound on the time: it is wall time, and a load that slowed the calibration makes the
    // measured run shorter than the 1 s aimed at.
    assert!(mwips > 0.0 && time > 0.0, "{mwips} {time}");

    // stdout: the C program's text, line by line.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Calibrate");
    let mut i = 1;
    let mut passes = 1.0;
    let mut last = (0.0, 0.0);
    while lines[i].len() == 47 {
        // "%11.2f Seconds %10.0f   Passes (x 100)"
        assert_eq!(&lines[i][11..20], " Seconds ", "{:?}", lines[i]);
        assert_eq!(&lines[i][30..], "   Passes (x 100)", "{:?}", lines[i]);
        last = (field(lines[i], 0, 11), field(lines[i], 20, 10));
        assert_eq!(last.1, passes, "calibration multiplies by 5");
        passes *= 5.0;
        i += 1;
    }
    assert!((2..=11).contains(&i), "1 to 10 calibration lines");
    // The rule, whatever the CPU's speed: calibration ends at the first run over 0.5 s, or
    // after the tenth (the seconds printed to 0.01: 0.50 may be either side).
    let secs_of = |l: &str| field(l, 0, 11);
    assert!(lines[1..i - 1].iter().all(|l| secs_of(l) <= 0.5), "{:?}", &lines[1..i]);
    assert_eq!(lines[i], "");
    let xtra: u64 = lines[i + 1]
        .strip_prefix("Use ")
        .and_then(|s| s.strip_suffix("  passes (x 100)"))
        .expect("Use N  passes line")
        .parse()
        .unwrap();
    assert!(xtra >= 1);
    // The measured run is scaled from the last calibration run to 1 s, not 10: xtra = 1 x its
    // passes / its seconds (printed to 0.01 s, hence the tolerance).
    let (secs, calibrated) = last;
    assert!(secs >= 0.5 || i == 11, "calibration ends past 0.5 s or after 10 runs: {secs}");
    let want = calibrated / secs;
    assert!((xtra as f64 - want).abs() <= want * 0.02 + 1.0, "Use {xtra} after {calibrated} in {secs} s");
    assert_eq!(
        &lines[i + 2..i + 7],
        [
            "",
            "          Double Precision C/C++ Whetstone Benchmark",
            "",
            "Loop content                  Result              MFLOPS      MOPS   Seconds",
            "",
        ]
    );
    let headings = [
        "N1 floating point",
        "N2 floating point",
        "N3 if then else  ",
        "N4 fixed point   ",
        "N5 sin,cos etc.  ",
        "N6 floating point",
        "N7 assignments   ",
        "N8 exp,sqrt etc. ",
    ];
    let documented = [
        -1.12398255667391744,
        -1.12187079889287311,
        1.0,
        12.0,
        0.49902937281518261,
        0.99999987890767417,
        3.0,
        0.75100163018454191,
    ];
    let mut total = 0.0;
    for (s, heading) in headings.iter().enumerate() {
        let l = lines[i + 7 + s];
        assert_eq!(l.len(), 75, "{l:?}");
        assert_eq!(&l[..18], format!("{heading} "));
        let result = field(l, 18, 24);
        assert!((result - documented[s]).abs() <= 1e-9, "{l:?}");
        assert_eq!(l[18..42].split_once('.').unwrap().1.len(), 17, "%24.17f: {l:?}");
        if [0, 1, 5].contains(&s) {
            // " %9.3f          %9.3f"
            assert_eq!(&l[42..47], "     ", "{l:?}");
            field(l, 47, 9);
            assert_eq!(&l[56..66], "          ", "{l:?}");
        } else {
            // "           %9.3f%9.3f"
            assert_eq!(&l[42..57], "               ", "{l:?}");
            field(l, 57, 9);
        }
        total += field(l, 66, 9);
    }
    let m = i + 15;
    assert_eq!(lines[m], "");
    assert!(lines[m + 1].starts_with("MWIPS            ") && lines[m + 1].len() == 75, "{:?}", lines[m + 1]);
    assert_eq!(field(lines[m + 1], 17, 39), mwips);
    assert_eq!(field(lines[m + 1], 56, 19), time);
    assert_eq!(&lines[m + 2..], [""], "then one blank line: {out:?}");
    assert!(out.ends_with("\n\n"));
    // The section times add up to TimeUsed (each printed to 3 decimals).
    assert!((total - time).abs() < 0.01, "{total} vs {time}");
    // MWIPS = xtra x 100 / (10 x TimeUsed).
    assert!((mwips - xtra as f64 * 100.0 / (10.0 * time)).abs() / mwips < 1e-3, "{mwips} {xtra} {time}");
}

/// Whetstone's IMAGE line on this host: the FMA code where /proc/cpuinfo lists FMA (x86) or on
/// aarch64, else the baseline code and why.
fn expected_whetstone_image() -> &'static str {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags = cpuinfo.lines().find(|l| l.starts_with("flags")).unwrap_or("");
    match std::env::consts::ARCH {
        "x86" | "x86_64" if !flags.split_whitespace().any(|f| f == "fma") => {
            "IMAGE|baseline|no FMA on this CPU"
        }
        "x86" | "x86_64" | "aarch64" => {
            "IMAGE|fma|N6 multiply-adds fused, as gcc -march=native compiles them"
        }
        _ => "IMAGE|baseline|no FMA code for this architecture",
    }
}

#[test]
#[allow(clippy::excessive_precision)] // the value as the C program prints it
fn whetstone_runs_its_baseline_code_when_asked_for_the_static_image_and_says_so() {
    let o = run(ub(["whetstone-double", "1"]).env("UB_EXEC_IMAGE", "static"));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "stderr: {err}");
    let e: Vec<&str> = err.lines().collect();
    assert_eq!(e.len(), 3, "{err:?}");
    assert_eq!(e[0], "IMAGE|baseline|UB_EXEC_IMAGE=static");
    assert!(e[1].starts_with("COUNT|") && e[1].ends_with("|0|MWIPS"), "{err:?}");
    // Its check values are the baseline's, which the C program built without FMA prints.
    let n6 = stdout(&o).lines().find(|l| l.starts_with("N6 ")).map(|l| field(l, 18, 24));
    assert_eq!(n6, Some(0.99999987890802811), "{}", stdout(&o));

    let o = run(ub(["whetstone-double", "1"]).env("UB_EXEC_IMAGE", "fast"));
    assert_usage_error(&o, "UB_EXEC_IMAGE='fast'");
    assert_eq!(stdout(&o), "", "nothing measured");
}

/// The x86 binary on an emulated CPU without FMA and on one with it, whatever this host's CPU
/// is: the baseline code and its reason, or the FMA code, each with its own N6 check value (the
/// C program's built without and with FMA).
#[test]
#[allow(clippy::excessive_precision)] // the values as the C programs print them
fn on_a_cpu_without_fma_whetstone_runs_its_baseline_code_and_says_so() {
    use crate::rigs::{have, skip};
    // The binary under test is the x86-64 one or, in make test-i686, the 32-bit one (ELF class 1).
    let elf = std::fs::read(bin()).unwrap();
    let qemu = if elf.get(4) == Some(&1) { "qemu-i386-static" } else { "qemu-x86_64-static" };
    if std::env::consts::ARCH != "x86_64" || !have(qemu) {
        return skip("fma", &format!("needs an x86_64 host and {qemu} (Debian: qemu-user-static)"));
    }
    for (cpu, image, n6) in [
        ("Nehalem", "IMAGE|baseline|no FMA on this CPU", 0.99999987890802811),
        ("max", "IMAGE|fma|N6 multiply-adds fused, as gcc -march=native compiles them", 0.99999987890767417),
    ] {
        let o = run(std::process::Command::new(qemu)
            .args(["-cpu", cpu])
            .arg(bin())
            .args(["whetstone-double", "1"])
            .env_remove("UB_EXEC_IMAGE"));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{cpu}: {err}");
        // qemu-i386 warns first of the 64-bit features of a 64-bit CPU model it leaves out.
        assert_eq!(err.lines().find(|l| !l.starts_with("qemu-")), Some(image), "{cpu}: {err}");
        let got = stdout(&o).lines().find(|l| l.starts_with("N6 ")).map(|l| field(l, 18, 24));
        assert_eq!(got, Some(n6), "{cpu}: {}", stdout(&o));
    }
}

#[test]
fn the_driver_records_whetstones_variant_in_the_json_log_and_html() {
    let dir = Scratch::new("whetvariant");
    let results = dir.path().join("results");
    let o = run(ub(["-q", "-c", "1", "-i", "1", "-t", "1", "--json", "--results"])
        .arg(&results)
        .arg("--tmpdir")
        .arg(dir.path())
        .arg("whetstone-double"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("static image"), "a variant is not the static image: {}", stdout(&o));
    let file = |ext: &str| {
        let e = std::fs::read_dir(&results).unwrap().map(|e| e.unwrap().path());
        let p: Vec<_> = e.filter(|p| p.extension().is_some_and(|x| x == ext)).collect();
        std::fs::read_to_string(&p[0]).unwrap()
    };
    let (_, kind, detail) = {
        let mut f = expected_whetstone_image().splitn(3, '|');
        (f.next().unwrap(), f.next().unwrap(), f.next().unwrap())
    };
    let json = file("json");
    assert!(json.contains("\"exec_image\": {\n"), "{json}");
    assert!(
        json.contains(&format!("\"kind\": \"{kind}\","))
            && json.contains(&format!("\"detail\": \"{detail}\"")),
        "{json}"
    );
    assert!(!json.contains("Double-Precision Whetstone timed this static binary"), "{json}");
    let log = file("log");
    assert!(log.contains(&format!("# IMAGE0: {kind}\n# IMAGE1: {detail}\n")), "{log}");
    let html = file("html");
    assert!(html.contains(&format!("<b>Double-Precision Whetstone</b>: {kind} (")), "{html}");
}

#[test]
fn bad_arguments_are_refused_with_status_2() {
    let cases: [(&[&str], &str); 12] = [
        (&["dhry2reg"], "missing duration"),
        (&["dhry2", "0"], "duration"),
        (&["dhry2reg", "ten"], "duration"),
        (&["int", "-5"], "duration"),
        (&["arithoh"], "missing duration"),
        (&["double", "1", "2"], "'2'"),
        (&["hanoi", "1", "0"], "disks"),
        (&["hanoi", "1", "31"], "disks"),
        (&["hanoi", "x", "3"], "duration"),
        (&["whetstone-double", "0"], "invalid duration '0'"),
        (&["whetstone-double", "1.5"], "duration"),
        (&["whetstone-double", "1", "2"], "unexpected argument '2'"),
    ];
    for (args, needle) in cases {
        let o = run(&mut ub(args));
        assert_usage_error(&o, needle);
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}
