//! The detailed `.log` file (docs/ORIGINAL.md, "Log"), as `Run` appends to it while a test runs: a
//! header per test, a header per pass, the programs' stdout (appended by the driver between the
//! pass header and footer), each copy's parsed fields, the dropped and kept passes, and the
//! summary. Numbers print as Perl prints them: `%.15g` for computed values, `%f` for elapsed.

use super::fmt::{self, perl_num};
use crate::model::{CopyOutcome, Disturbance, Pass, TestResult};
use std::fmt::Write as _;

/// Written when a test starts: a rule of 56 `#`, `<message> -- <n> copy|copies`, and the
/// `==> <command>` line followed by an empty line.
pub fn test_header(message: &str, copies: usize, command: &str) -> String {
    header(message, copies, "", command)
}

fn header(message: &str, copies: usize, tag: &str, command: &str) -> String {
    format!(
        "\n{}\n{} -- {}{tag}\n==> {}\n\n",
        "#".repeat(56),
        message,
        fmt::number(Some(copies), "copy", "copies"),
        command
    )
}

/// Written when a quick run measures a test again after the other tests at its copy count:
/// the test's header with ` (again)` after its copies. Its passes are numbered on from the
/// first visit's, and `compare` reading the log adds them to that visit's.
pub fn test_again_header(message: &str, copies: usize, command: &str) -> String {
    header(message, copies, super::view::AGAIN, command)
}

/// Written when a second visit stops before its end (a copy failed, a program found it cannot
/// run now): the test's first figure stands, and `compare` reading the log leaves the section out.
pub fn again_abandoned(why: &str) -> String {
    format!(
        "\n>>>> error: measuring again stopped: {}; the first figure stands\n\n",
        super::view::one_line(why)
    )
}

/// Written before pass `i` (from 1) runs; the programs' stdout follows it.
pub fn pass_header(i: usize) -> String {
    format!("#### Pass {i}\n\n")
}

/// Written when pass `i` (from 1), disturbed, is left out of the score to be measured again;
/// `compare` reading the log leaves it out too.
pub fn replaced(i: usize, why: Disturbance) -> String {
    format!("#### Replaced: pass {i} ({}), measured again\n\n", why.word())
}

/// Written after a pass: an empty line, then per copy its fields as `# <key>: <value>` in
/// Perl's sorted key order (COUNT0, COUNT1, COUNT2, ERROR, IMAGE0, IMAGE1, TIME, elapsed, pid,
/// status) and an
/// empty line.
pub fn pass_footer(pass: &Pass) -> String {
    let mut s = copies_footer(&pass.copies);
    // After the copies' fields, on a line of its own that no reader of fields takes for one.
    if let Some(n) = &pass.noise {
        let line = super::view::noise_line(n);
        let _ = writeln!(s, "#### Noise:{}\n", line.strip_prefix("  noise:").unwrap_or(&line));
    }
    s
}

/// [`pass_footer`] from the copies alone.
pub fn copies_footer(copies: &[CopyOutcome]) -> String {
    let mut s = String::from("\n");
    for c in copies {
        copy_fields(&mut s, c);
        s.push('\n');
    }
    s
}

/// A copy's `# key: value` lines, from its parsed values (numbers in Perl's `%.15g`, which gives
/// back the programs' integer counts digit for digit).
fn copy_fields(s: &mut String, c: &CopyOutcome) {
    if let Some(v) = c.count {
        let _ = writeln!(s, "# COUNT0: {}", perl_num(v));
    }
    if let Some(v) = c.timebase {
        let _ = writeln!(s, "# COUNT1: {}", perl_num(v));
    }
    if let Some(v) = &c.label {
        let _ = writeln!(s, "# COUNT2: {v}");
    }
    if let Some(e) = &c.error {
        let _ = writeln!(s, "# ERROR: {e}");
    }
    if let Some(i) = &c.image {
        let _ = write!(s, "# IMAGE0: {}\n# IMAGE1: {}\n", i.kind, i.detail);
    }
    if let Some(v) = c.time {
        let _ = writeln!(s, "# TIME: {}", perl_num(v));
    }
    let _ = writeln!(s, "# elapsed: {}", fmt::fixed(c.elapsed, 6));
    if c.pid != 0 {
        let _ = writeln!(s, "# pid: {}", c.pid);
    }
    let _ = writeln!(s, "# status: {}", c.status);
}

/// Written when a test ends: every pass by raw count, lowest first, as `*Dump score:` (dropped)
/// or `Count score:` (kept), then the `>>>>` summary and an empty line. A test without a score
/// says why on a `>>>> error:` or `>>>> skipped:` line instead of score, time and iterations.
pub fn summary(r: &TestResult) -> String {
    let mut s = String::new();
    for i in crate::score::by_count(&r.passes) {
        let tag = if r.kept.contains(&i) { "Count score:" } else { "*Dump score:" };
        let _ = writeln!(s, "{tag} {:>12}", fmt::f1(r.passes[i].count));
    }
    if r.copies == 1 {
        s.push_str("\n>>>> Results of 1 copy\n");
    } else {
        let _ = write!(s, "\n>>>> Sum of {} copies\n", r.copies);
    }
    if let Some(e) = &r.error {
        let _ = writeln!(s, ">>>> error: {}", super::view::one_line(e));
    } else if let Some(why) = &r.skipped {
        let _ = writeln!(s, ">>>> skipped: {}", super::view::one_line(why));
    } else if r.kept.is_empty() {
        s.push_str(">>>> error: no measured results\n");
    } else {
        let _ = write!(
            s,
            ">>>> score: {}\n>>>> time: {}\n>>>> iterations: {}\n>>>> passes: {}\n",
            perl_num(r.score),
            perl_num(r.time),
            super::view::pass_count(r).kept,
            super::view::passes_text(r)
        );
    }
    s.push('\n');
    s
}

/// When a run is stopped by a signal in the middle of a test.
pub fn interrupted(signal: &str) -> String {
    format!("\n>>>> interrupted by {signal}\n\n")
}

/// A whole test's section of the log, without the programs' stdout (which the driver appends
/// as the passes run): what a driver that logs after the fact writes (`compare`'s tests do).
pub fn test_section(r: &TestResult) -> String {
    let mut s = test_header(&r.message, r.copies, &r.command);
    for (i, p) in r.passes.iter().enumerate() {
        s += &pass_header(i + 1);
        s += &pass_footer(p);
    }
    s += &summary(r);
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::model::CopyOutcome;

    /// The first test of the reference log, from its figures.
    #[test]
    fn reference_dhrystone_section() {
        let counts = [
            780131628.0,
            800553506.0,
            804441019.0,
            319011682.0,
            796744497.0,
            801770841.0,
            800168360.0,
            741312199.0,
            697469629.0,
            643531794.0,
        ];
        let elapsed = [
            10.002355, 10.009692, 10.008831, 10.005192, 10.295131, 10.002431, 10.005065, 10.001954,
            10.002918, 10.002199,
        ];
        let pids = [30566, 30693, 30754, 30775, 30798, 31846, 8042, 8105, 15419, 29486];
        let passes: Vec<Pass> = (0..10)
            .map(|i| Pass {
                copies: vec![CopyOutcome {
                    count: Some(counts[i]),
                    timebase: Some(1.0),
                    label: Some("lps".into()),
                    time: None,
                    elapsed: elapsed[i],
                    status: 0,
                    error: None,
                    pid: pids[i],
                    image: None,
                    started: None,
                }],
                count: counts[i],
                time: elapsed[i],
                elapsed: elapsed[i],
                timebase: 1.0,
                label: "lps".into(),
                noise: None,
                round: None,
                start: None,
            })
            .collect();
        let r = TestResult {
            name: "dhry2reg".into(),
            message: "Dhrystone 2 using register variables".into(),
            category: None,
            command: "\"UnixBench/pgms/dhry2reg\" 10 2>&1 >> \"UnixBench/results/vm-2026-11-30-01.log\""
                .into(),
            copies: 1,
            passes,
            kept: vec![0, 1, 2, 4, 5, 6, 7],
            score: 78540503.4328753,
            unit: "lps".into(),
            time: 10.0464941428571,
            error: None,
            skipped: None,
            busy: false,
            replaced: Vec::new(),
        };
        let mut want = String::from(
            "
########################################################
Dhrystone 2 using register variables -- 1 copy
==> \"UnixBench/pgms/dhry2reg\" 10 2>&1 >> \"UnixBench/results/vm-2026-11-30-01.log\"

",
        );
        for i in 0..10 {
            want += &format!(
                "#### Pass {}\n\n\n# COUNT0: {}\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: {:.6}\n# pid: {}\n# status: 0\n\n",
                i + 1,
                counts[i] as u64,
                elapsed[i],
                pids[i]
            );
        }
        want += "*Dump score:  319011682.0
*Dump score:  643531794.0
*Dump score:  697469629.0
Count score:  741312199.0
Count score:  780131628.0
Count score:  796744497.0
Count score:  800168360.0
Count score:  800553506.0
Count score:  801770841.0
Count score:  804441019.0

>>>> Results of 1 copy
>>>> score: 78540503.4328753
>>>> time: 10.0464941428571
>>>> iterations: 7
>>>> passes: 10 passes, 7 kept

";
        assert_eq!(test_section(&r), want);
        // The same bytes as the reference log's first section.
        assert!(want.contains(
            "# COUNT0: 780131628\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: 10.002355\n# pid: 30566\n"
        ));
    }

    #[test]
    fn copies_fields_and_failures() {
        let run = fixture::troubled();
        let execl = &run.runs[0].results[2];
        let mut pass = execl.passes[0].clone();
        pass.copies[0].error = Some("command returned status 256".into());
        pass.copies[0].status = 256;
        pass.copies[0].time = Some(2.5);
        pass.copies[0].pid = 0;
        assert_eq!(
            pass_footer(&pass),
            "\n# COUNT0: 0\n# COUNT1: 1\n# COUNT2: lps\n# ERROR: command returned status 256\n# TIME: 2.5\n# elapsed: 2.000125\n# status: 256\n\n"
        );
        assert_eq!(
            summary(execl),
            "*Dump score:          0.0\n*Dump score:          1.0\n*Dump score:          2.0\n\n>>>> Results of 1 copy\n>>>> error: command returned status 256 / execl: <cannot exec> & \"quoted\"\n\n"
        );
        let cc = &run.runs[0].results[4];
        assert_eq!(
            summary(cc),
            "\n>>>> Results of 1 copy\n>>>> skipped: no C compiler (cc or gcc) on this host\n\n"
        );
        let two = &fixture::reference().runs[1].results[0];
        assert_eq!(
            test_header(&two.message, 2, "cmd"),
            format!("\n{}\nSystem Call Overhead -- 2 copies\n==> cmd\n\n", "#".repeat(56))
        );
        assert!(summary(two).contains(
            "\n>>>> Sum of 2 copies\n>>>> score: 3412695.8\n>>>> time: 10\n>>>> iterations: 7\n>>>> passes: 10 passes, 7 kept\n\n"
        ));
    }
}
