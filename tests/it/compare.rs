//! `unixbench compare`: fixed results JSON, our text report and a real C UnixBench report
//! (tests/fixtures/compare/), against literal expected tables; and every kind of bad input.

use crate::common::*;
use std::path::PathBuf;

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare")
}

/// `unixbench compare ARGS...` run in the fixtures directory, so file names print bare.
fn compare(args: &[&str]) -> std::process::Output {
    let mut c = ub(["compare"]);
    c.args(args).current_dir(fixtures());
    run(&mut c)
}

#[track_caller]
fn assert_prints(args: &[&str], expected: &str) {
    let o = compare(args);
    assert_eq!(stderr(&o), "", "stderr of compare {args:?}");
    assert!(o.status.success(), "compare {args:?}: {:?}", o.status);
    let got = stdout(&o);
    if got != expected {
        for (i, (g, e)) in got.lines().zip(expected.lines()).enumerate() {
            assert_eq!(g, e, "compare {args:?}: first difference on line {}", i + 1);
        }
        assert_eq!(got, expected, "compare {args:?}");
    }
}

const SCALING_C: &str = r#"Scaling of c-unixbench.txt (standard run): 1 copy against 2 copies

Test                                         1 copy    2 copies      Gain
---------------------------------------- ----------- ----------- --------
Dhrystone 2 using register variables         6730.1     13711.4      104%
Double-Precision Whetstone                   1863.0      3689.9       98%
Execl Throughput                              491.8       951.2       93%
File Copy 1024 bufsize 2000 maxblocks        2822.0      5502.1       95%
File Copy 256 bufsize 500 maxblocks          1750.0      3411.6       95%
File Copy 4096 bufsize 8000 maxblocks        5488.7     11074.4      102%
Pipe Throughput                              1679.3      3230.1       92%
Pipe-based Context Switching                   65.0      1175.0     1708%
Process Creation                              538.2      1199.2      123%
Shell Scripts (1 concurrent)                 2232.7      3757.9       68%
Shell Scripts (8 concurrent)                 2986.5      3070.2        3%
System Call Overhead                         1145.9      2275.1       99%
---------------------------------------- ----------- ----------- --------
System Benchmarks Index Score                1433.1      3209.6      124%

Values are test indexes (10 x score / baseline), as in the UnixBench README.
Gain: the N-copy value over the 1-copy value, less 100%.
"#;

const THREE_WAY: &str = r#"Runs compared:
  [1] a.json: unixbench results JSON, version 6.0.0-compatible; unixbench 0.1.0, standard run
      host vm, CPU AMD EPYC, 2 CPUs, kernel 6.18.44, date 2026-11-29T00:05:42Z
  [2] b.json: unixbench results JSON, version 6.0.0-compatible; unixbench 0.1.0, static image run
      host other, CPU unknown, 1 CPU, kernel unknown, date 2026-11-29T02:40:00Z
  [3] c-unixbench.txt: text report, version 6.0.0, standard run
      host vm, CPU AMD EPYC, 2 CPUs, kernel 6.18.44-fc-v657, date 2026-11-30T00:05:42
** warning: comparing runs of different kinds (standard, static image): their figures are not comparable

1 parallel copy                                   [1]        95%           [2]        95%   vs [1]           [3]        95%   vs [1]
Dhrystone 2 using register variables       78540503.4 -0.7/+0.6%     79995833.1 -3.8/+4.0%    101.9%     78540503.4        ---    100.0%?
Double-Precision Whetstone                        ---                       ---                  ---        10246.7        ---       ---
Execl Throughput                                  ---                       ---                  ---         2114.7        ---       ---
File Copy 1024 bufsize 2000 maxblocks             ---                       ---                  ---      1117517.9        ---       ---
File Copy 256 bufsize 500 maxblocks               ---                       ---                  ---       289627.5        ---       ---
File Copy 4096 bufsize 8000 maxblocks             ---                       ---                  ---      3183417.2        ---       ---
Pipe Throughput                             2089013.9 -0.4/+0.5%      2504995.0        ---    119.9%?     2089013.9        ---    100.0%?
Pipe-based Context Switching                      ---                       ---                  ---        26010.3        ---       ---
Process Creation                                  ---                    6900.0        ---       ---         6781.8        ---       ---
Shell Scripts (1 concurrent)                      ---                       ---                  ---         9466.7        ---       ---
Shell Scripts (8 concurrent)                      ---                       ---                  ---         1791.9        ---       ---
System Call Overhead                              ---                       ---                  ---      1718780.5        ---       ---

System Benchmarks Index Score                  3361.8     +-0.4%         1962.5        ---       ---!        1433.1        ---       ---!

[2] against [1]: not comparable on the index: it covers 3 tests where [1]'s covers 2 tests
[3] against [1]: not comparable on the index: it covers 12 tests where [1]'s covers 2 tests

Partial index in [1], [2]: not every index test ran, so index scores may cover different tests.

Not compared: 2 copies (only in [1], [3]).

vs [1]: the score as a percentage of [1]'s score.
95%: the score's 95% interval, as percentages of the score: +-x% where its two sides agree, else each side.
*: a difference is shown: the 95% interval of the ratio (Welch's test on the log ratio) excludes 100%.
?: an interval is unknown (a text report has none; fewer than three kept passes give none of use).
!: on an index score: the two cover different tests (a partial index): not comparable.
Intervals unknown for [3]: text reports carry none.
Index intervals are propagated from the tests' on the log scale, assuming the tests are independent.
No rounds in [1], [2]: passes ran back to back, so the intervals may miss the host's wander and mark differences that are not real.
"#;

const TSV_AB: &str = r#"copies	test	run	file	score	ci95_low	ci95_high	vs_first_pct	overlap	kind	disturbed	ratio_ci95_low	ratio_ci95_high	detectable_pct	marked
1	Dhrystone 2 using register variables	1	a.json	78540503.4	78000000	79000000			standard	no				
1	Dhrystone 2 using register variables	2	b.json	79995833.1	76941396.42850919	83171525.51184852	101.85	yes	static image	no	0.984584532391415	1.0536451232829422	4.45	no
1	Pipe Throughput	1	a.json	2089013.9	2080000	2100000			standard	no				
1	Pipe Throughput	2	b.json	2504995			119.91	unknown	static image	no				unknown
1	Process Creation	1	a.json						standard					
1	Process Creation	2	b.json	6900					static image	no				
1	System Benchmarks Index Score	1	a.json	3361.8	3348.435831581553	3375.2175070537087			standard	no				
1	System Benchmarks Index Score	2	b.json	1962.5				tests differ	static image	no				unknown
"#;

const SCALING_JSON_A: &str = r#"{"schema":"unixbench-scaling","schema_version":1,"file":"a.json","run_kind":"standard","copies":[1,2],"rows":[{"test":"Dhrystone 2 using register variables","kind":"index","values":[6730.1,13711.4],"gain_pct":[null,103.73],"disturbed":[false,false]},{"test":"Pipe Throughput","kind":"index","values":[1679.3,3230.1],"gain_pct":[null,92.35],"disturbed":[false,false]},{"test":"System Benchmarks Index Score","kind":"index_score","values":[3361.8,6655],"gain_pct":[null,97.96],"disturbed":[false,false]}]}
"#;

const OURS_VS_C: &str = r#"Runs compared:
  [1] ours.txt: text report, version 6.0.0-compatible; unixbench 0.1.0, standard run
      host other, CPU unknown, 1 CPU, kernel 6.18.44, date 2026-11-30T02:00:00
  [2] c-unixbench.txt: text report, version 6.0.0, standard run
      host vm, CPU AMD EPYC, 2 CPUs, kernel 6.18.44-fc-v657, date 2026-11-30T00:05:42

1 parallel copy                                   [1]     95%           [2]     95%   vs [1]
Dhrystone 2 using register variables       79995833.1     ---     78540503.4     ---     98.2%?
Double-Precision Whetstone                        ---                10246.7     ---       ---
Execl Throughput                                  ---                 2114.7     ---       ---
File Copy 1024 bufsize 2000 maxblocks             ---              1117517.9     ---       ---
File Copy 256 bufsize 500 maxblocks               ---               289627.5     ---       ---
File Copy 4096 bufsize 8000 maxblocks             ---              3183417.2     ---       ---
Pipe Throughput                             2504995.0     ---      2089013.9     ---     83.4%?
Pipe-based Context Switching                      ---                26010.3     ---       ---
Process Creation                               6900.0     ---         6781.8     ---     98.3%?
Recursion Test -- Tower of Hanoi             990000.0     ---            ---               ---
Shell Scripts (1 concurrent)                      ---                 9466.7     ---       ---
Shell Scripts (8 concurrent)                      ---                 1791.9     ---       ---
System Call Overhead                              ---              1718780.5     ---       ---

System Benchmarks Index Score                  1962.5     ---         1433.1     ---       ---!

[2] against [1]: not comparable on the index: it covers 12 tests where [1]'s covers 3 tests

Partial index in [1]: not every index test ran, so index scores may cover different tests.

Not compared: 2 copies (only in [2]).

vs [1]: the score as a percentage of [1]'s score.
95%: the score's 95% interval, as percentages of the score: +-x% where its two sides agree, else each side.
*: a difference is shown: the 95% interval of the ratio (Welch's test on the log ratio) excludes 100%.
?: an interval is unknown (a text report has none; fewer than three kept passes give none of use).
!: on an index score: the two cover different tests (a partial index): not comparable.
Intervals unknown for [1], [2]: text reports carry none.
Index intervals are propagated from the tests' on the log scale, assuming the tests are independent.
"#;

const QUICK_TXT_JSON: &str = r#"Runs compared:
  [1] quick.txt: text report, version 6.0.0-compatible; unixbench 0.1.0, quick run
      host vm, CPU unknown, 2 CPUs, kernel 6.18.44-fc-v857, date 2026-11-30T02:50:59
  [2] quick.json: unixbench results JSON, version 6.0.0-compatible; unixbench 0.1.0, quick run
      host vm, CPU unknown, 2 CPUs, kernel 6.18.44-fc-v857, date 2026-11-30T02:50:59Z

1 parallel copy                                   [1]        95%           [2]        95%   vs [1]
Dhrystone 2 using register variables       21618447.9        ---     21618447.9 -6.9/+7.4%    100.0%?
Double-Precision Whetstone                     2366.8        ---         2366.8        ---    100.0%?
System Call Overhead                         313255.1        ---       313255.1 -4.7/+4.9%    100.0%?

System Benchmarks Index Score                   550.1        ---          550.1        ---    100.0%?

[2] against [1]: no test on the index: an interval is unknown

2 parallel copies                                 [1]        95%           [2]        95%   vs [1]
Dhrystone 2 using register variables       24344325.6        ---     24344325.6 -3.0/+3.1%    100.0%?
Double-Precision Whetstone                     2470.5        ---         2470.5        ---    100.0%?
System Call Overhead                         325406.5        ---       325406.5 -2.7/+2.8%    100.0%?

System Benchmarks Index Score                   588.0        ---          588.0        ---    100.0%?

[2] against [1]: no test on the index: an interval is unknown

Partial index in [1], [2]: not every index test ran, so index scores may cover different tests.

vs [1]: the score as a percentage of [1]'s score.
95%: the score's 95% interval, as percentages of the score: +-x% where its two sides agree, else each side.
*: a difference is shown: the 95% interval of the ratio (Welch's test on the log ratio) excludes 100%.
?: an interval is unknown (a text report has none; fewer than three kept passes give none of use).
Intervals unknown for [1]: text reports carry none.
Index intervals are propagated from the tests' on the log scale, assuming the tests are independent.
No rounds in [2]: passes ran back to back, so the intervals may miss the host's wander and mark differences that are not real.
"#;

#[test]
fn our_quick_run_as_text_and_as_json() {
    // Our own report of a quick run: its `** ` lines (intervals, notes) are skipped, and both
    // files say it was a quick run; the text has no intervals, so every mark is `?`.
    assert_prints(&["quick.txt", "quick.json"], QUICK_TXT_JSON);
    // The JSON's intervals come from its "stats" objects: the same figures as the text's notes
    // (`** dhry2reg: 20137569.7 - 23208227.1`).
    let o = compare(&["--format", "tsv", "quick.json", "a.json"]);
    let out = stdout(&o);
    let dhry = out.lines().find(|l| l.starts_with("1\tDhrystone 2 using register variables\t1\t")).unwrap();
    let f: Vec<&str> = dhry.split('\t').collect();
    let (lo, hi): (f64, f64) = (f[5].parse().unwrap(), f[6].parse().unwrap());
    assert_eq!(
        (format!("{lo:.1}"), format!("{hi:.1}")),
        ("20137569.7".to_string(), "23208227.1".to_string())
    );
}

#[test]
fn runs_of_different_kinds_warn_in_one_line() {
    // A quick run against a standard one: one warning before the tables, in text, JSON and
    // HTML; TSV stays a table. Two standard runs: none.
    let warning = "comparing runs of different kinds (quick, standard): their figures are not comparable";
    let text = stdout(&compare(&["quick.json", "a.json"]));
    assert_eq!(text.matches("warning").count(), 1, "{text}");
    let (head, tables) = text.split_once("\n\n").unwrap();
    assert!(head.ends_with(&format!("\n** warning: {warning}")), "{head}");
    assert!(tables.starts_with("1 parallel copy "), "{tables}");
    let json = stdout(&compare(&["--format", "json", "quick.json", "a.json"]));
    assert!(json.contains(&format!("\"warning\":\"{warning}\",")), "{json}");
    assert!(json.contains("\"run_kind\":\"quick\",\"hostname\":\"vm\""), "{json}");
    let html = stdout(&compare(&["--format", "html", "quick.json", "a.json"]));
    assert!(html.contains(&format!("<b>Warning:</b> {warning}.</p>")), "{html}");
    assert!(html.contains("<td data-label=\"run\">quick</td>"), "{html}");
    assert!(html.contains("<td data-label=\"date\">2026-11-30T02:50:59Z</td>"), "{html}");
    assert!(!stdout(&compare(&["--format", "tsv", "quick.json", "a.json"])).contains("warning"));
    for files in [&["a.json", "c-unixbench.txt"], &["ours.txt", "c-unixbench.txt"]] {
        let text = stdout(&compare(files));
        assert!(text.contains(", standard run\n") && !text.contains("warning"), "{text}");
        let json = stdout(&compare(&["--format", "json", files[0], files[1]]));
        assert!(json.contains("\"warning\":null,"), "{json}");
        assert!(!stdout(&compare(&["--format", "html", files[0], files[1]])).contains("Warning"));
    }
}

#[test]
fn scaling_table_of_a_c_unixbench_report() {
    // The README's table (test, single, multi, gain) from the measured 1- and 2-copy report.
    assert_prints(&["c-unixbench.txt"], SCALING_C);
}

#[test]
fn three_runs_of_three_kinds() {
    // a.json and b.json carry intervals: Dhrystone's overlap, Pipe's do not (*); the C report
    // has none (?); b.json's failed Execl is missing, its one-sample Process Creation has no
    // interval, so neither has its index.
    assert_prints(&["a.json", "b.json", "c-unixbench.txt"], THREE_WAY);
}

#[test]
fn our_text_report_against_the_c_one() {
    assert_prints(&["ours.txt", "c-unixbench.txt"], OURS_VS_C);
}

#[test]
fn tsv_and_json_formats() {
    assert_prints(&["--format", "tsv", "a.json", "b.json"], TSV_AB);
    assert_prints(&["--format", "json", "a.json"], SCALING_JSON_A);
    // The scaling TSV carries the kind of run and the disturbed mark as the JSON does.
    let tsv = stdout(&compare(&["--format", "tsv", "a.json"]));
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("test\tkind\tcopies\tvalue\tgain_pct\trun_kind\tdisturbed"));
    assert_eq!(lines.next(), Some("Dhrystone 2 using register variables\tindex\t1\t6730.1\t\tstandard\tno"));
    assert_prints(&["--format=json", "a.json"], SCALING_JSON_A);
    // Intervals computed from b.json's passes (no "stats" object there), as the run gives them:
    // the trimmed mean's (Dhrystone's four passes keep 8.0e7, 8.1e7, 7.9e7), none of use for
    // Pipe's two kept passes.
    let o = compare(&["--format", "json", "a.json", "b.json"]);
    let out = stdout(&o);
    assert!(out.starts_with("{\"schema\":\"unixbench-compare\",\"schema_version\":1,"), "{out}");
    assert!(out.contains("\"ci95_low\":76941396.428"), "{out}");
    assert!(out.contains("\"vs_first_pct\":119.91,\"overlap\":null"), "{out}");
    assert!(out.contains("\"not_compared\":[{\"copies\":2,\"runs\":[1]}]"), "{out}");
}

/// Each command line refused in one line on stderr naming the problem, exit 2, nothing printed.
fn assert_refused(cases: &[(&[&str], &str)]) {
    for (args, needle) in cases {
        let o = compare(args);
        assert_usage_error(&o, needle);
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}

#[test]
fn bad_input_is_one_line_naming_the_file() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["truncated.json", "a.json"],
            "truncated.json: not valid JSON: line 16, column 40: a string that never ends (truncated file?)",
        ),
        (&["other.json", "a.json"], "other.json: a JSON file, but not unixbench results"),
        (&["notes.txt", "a.json"], "notes.txt: not a results file of a known kind"),
        (
            &["no-index.txt", "a.json"],
            "no-index.txt: line 14: the 1-copy run has no index block (truncated report?)",
        ),
        (
            &["truncated-index.txt", "a.json"],
            "truncated-index.txt: line 35: the index block of the 1-copy run has no score line",
        ),
        (
            &["b.json", "c2-only.txt"],
            "c2-only.txt: its runs (copies: 2) line up with none of b.json's (copies: 1)",
        ),
        (&["b.json"], "b.json: holds only a 1-copy run"),
        (&["c2-only.txt"], "c2-only.txt: holds no 1-copy run to scale from (copies: 2)"),
        (&["missing.json", "a.json"], "missing.json: cannot read: No such file or directory"),
        (&["--format", "xml", "a.json"], "invalid --format 'xml': expected text, tsv, json, html or md"),
        (&[], "no files given"),
        (&["--bogus", "a.json"], "unknown option '--bogus'"),
        (&["--pol", "a.json"], "unknown option '--pol' (did you mean --pool?)"),
    ];
    assert_refused(cases);
}

const POOL_TEXT: &str = r#"Runs pooled: 3, of host vm, AMD EPYC, 2 CPUs; from the first start to the last: 60 min
  [1] pool-1.json: unixbench results JSON, version 6.0.0-compatible; unixbench 0.1.0, quick run
      host vm, CPU AMD EPYC, 2 CPUs, kernel 6.18.44, date 2026-11-29T00:05:42Z
  [2] pool-2.json: unixbench results JSON, version 6.0.0-compatible; unixbench 0.1.0, quick run
      host vm, CPU AMD EPYC, 2 CPUs, kernel 6.18.44, date 2026-11-29T00:35:42Z
  [3] pool-3.json: unixbench results JSON, version 6.0.0-compatible; unixbench 0.1.0, quick run
      host vm, CPU AMD EPYC, 2 CPUs, kernel 6.18.44, date 2026-11-29T01:05:42Z

1 parallel copy                           runs       pooled          95%         lowest      highest
Dhrystone 2 using register variables         3   88000000.0 -21.1/+26.7%     80000000.0   96800000.0
Pipe Throughput                              3    2100000.0 -11.4/+12.9%d     2000000.0    2205000.0

System Benchmarks Index Score                3       3567.8 -16.4/+19.6%d        3319.8       3834.4

[3] is the run farthest from the others on the index: 11.4% above their mean.

Partial index in [1], [2], [3]: not every index test ran, so index scores may cover different tests.

pooled: the geometric mean of the runs' scores; an index score's, of the runs' index scores.
95%: its 95% interval (log scale, Student t over the runs) as percentages of it, +-x% where its two sides agree, else each side; from the runs' spread, it holds the host's wander between them, which one run's interval cannot see, over the time they span.
d: disturbed in at least one of the runs: not fit to publish.
"#;

/// Three quick runs of one host, half an hour apart, each 10% (Dhrystone) and 5% (Pipe) over
/// the one before, Pipe disturbed in the second: each row is the geometric mean of the runs,
/// its interval exp(mean ln ± t(0.975, 2)·s/√3) over the runs, in every format.
#[test]
fn a_pool_of_one_hosts_runs() {
    let files = ["pool-1.json", "pool-2.json", "pool-3.json"];
    assert_prints(&["--pool", files[0], files[1], files[2]], POOL_TEXT);
    let tsv = stdout(&compare(&["--pool", "--format", "tsv", files[0], files[1], files[2]]));
    let lines: Vec<Vec<&str>> = tsv.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(
        lines[0].join(" "),
        "copies test runs score ci95_low ci95_high min max cv span_s kind disturbed_runs not_pooled"
    );
    assert_eq!(lines.len(), 4, "{tsv}");
    let close = |got: &str, want: f64| (got.parse::<f64>().unwrap() / want - 1.0).abs() < 1e-9;
    // Python's statistics over the same figures: the geometric mean, the bounds and the CV.
    let want = [
        (
            "Dhrystone 2 using register variables",
            88000000.0,
            69447647.99835931,
            111508455.98374979,
            0.09520212239630653,
            "0",
        ),
        ("Pipe Throughput", 2100000.0, 1860296.4522471705, 2370589.9103730903, 0.048775652068776466, "1"),
        (
            "System Benchmarks Index Score",
            3567.822822508486,
            2983.0998095104155,
            4267.15849474093,
            0.07200783939519137,
            "1",
        ),
    ];
    for (l, (test, score, low, high, cv, disturbed)) in lines[1..].iter().zip(want) {
        assert_eq!(
            (l[0], l[1], l[2], l[9], l[10], l[11], l[12]),
            ("1", test, "3", "3600", "quick", disturbed, ""),
            "{l:?}"
        );
        assert!(close(l[3], score) && close(l[4], low) && close(l[5], high) && close(l[8], cv), "{l:?}");
    }
    let json = stdout(&compare(&["--pool", "--format", "json", files[0], files[1], files[2]]));
    assert!(json.starts_with("{\"schema\":\"unixbench-pool\",\"schema_version\":1,\"warning\":null,\"runs\":[{\"run\":1,\"file\":\"pool-1.json\""), "{json}");
    assert!(
        json.contains("}],\"span_seconds\":3600,\"span_warning\":null,\"tables\":[{\"copies\":1,"),
        "{json}"
    );
    let pipe = json.split("{\"test\":\"Pipe Throughput\",\"index_score\":false,\"runs\":3,\"score\":").nth(1);
    assert!(pipe.is_some_and(|p| close(p.split(',').next().unwrap(), 2100000.0)), "{json}");
    assert!(json.contains("\"min\":2000000,\"max\":2205000,"), "{json}");
    assert!(json.contains("\"disturbed_runs\":1,\"not_pooled\":null}"), "{json}");
    assert!(json.ends_with("\"not_compared\":[]}\n"), "{json}");
}

/// A pool is of two runs or more of one host, printed as text, TSV or JSON.
#[test]
fn a_pool_refuses_what_it_cannot_judge() {
    let cases: &[(&[&str], &str)] = &[
        (&["--pool", "pool-1.json"], "compare: --pool needs two runs or more"),
        (&["--pool", "results/*.json"], "compare: results/*.json: cannot read"),
        (
            &["--pool", "pool-1.json", "pool-2.json", "pool-1.json"],
            "compare: pool-1.json: the same run as pool-1.json: a pool counts each run once",
        ),
        (&["--pool", "quick.json", "quick.txt"], "compare: quick.txt: the same run as quick.json"),
        (&["--pool", "pool-1.json", "b.json"], "compare: b.json: its host (other, unknown, 1 CPU) is not the first file's (vm, AMD EPYC, 2 CPUs): --pool judges one host's runs"),
        (&["--pool", "--hosts", "pool-1.json", "pool-2.json"], "compare: --pool and --hosts exclude each other"),
        (&["--pool", "--format", "html", "pool-1.json", "pool-2.json"], "compare: --pool prints text, tsv, json or md, not html"),
    ];
    assert_refused(cases);
    // Runs of different kinds pool, with the warning compare gives.
    let o = compare(&["--pool", "a.json", "pool-2.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("** warning: comparing runs of different kinds (standard, quick)"),
        "{}",
        stdout(&o)
    );
}

/// A file name is shown as the driver shows a word of its command line: its control
/// characters escaped, so that the error stays one line.
#[test]
fn a_file_name_with_a_newline_is_shown_escaped_on_one_line() {
    let o = compare(&["missing\n.json", "a.json"]);
    assert_usage_error(&o, "compare: missing\\n.json: cannot read");
}

#[test]
fn help_names_the_formats() {
    let o = compare(&["--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("--format text|tsv|json"));
}

/// The help opens with its examples (after the usage), and each runs: its files, in order,
/// stand for three runs of one host.
#[test]
fn help_opens_with_examples_that_run() {
    let help = stdout(&compare(&["--help"]));
    let mut blocks = help.split("\n\n");
    assert!(blocks.next().is_some_and(|b| b.starts_with("Usage: ")), "{help}");
    let examples: Vec<&str> = blocks.next().unwrap().lines().collect();
    assert_eq!(examples[0], "Examples:", "{help}");
    assert!((2..=3).contains(&(examples.len() - 1)), "{help}");
    for example in &examples[1..] {
        let command = example.split(" # ").next().unwrap();
        let mut words: Vec<&str> = command.split_whitespace().collect();
        assert_eq!(words.drain(..2).collect::<Vec<_>>(), ["unixbench", "compare"], "{example}");
        let mut files = ["pool-1.json", "pool-2.json", "pool-3.json"].into_iter();
        let args: Vec<&str> =
            words.iter().map(|w| if w.starts_with('-') { w } else { files.next().unwrap() }).collect();
        let o = compare(&args);
        assert!(o.status.success(), "{example}: {}", stderr(&o));
    }
}

/// A file given twice, by its name again or by another path to it, is said in one line on
/// stderr, and the tables follow (a pool refuses it: `a_pool_refuses_what_it_cannot_judge`);
/// --hosts over one host's runs suggests --pool. Other files, other hosts: nothing is said.
#[test]
fn a_file_given_twice_or_one_hosts_runs_are_said_in_a_line() {
    let s = Scratch::new("cmp-twice");
    std::fs::copy(fixtures().join("a.json"), s.path().join("x.json")).unwrap();
    std::os::unix::fs::symlink("x.json", s.path().join("y.json")).unwrap();
    std::fs::copy(fixtures().join("b.json"), s.path().join("b.json")).unwrap();
    let one_host = "compare: every file is a run of one host: --pool judges one host's runs together\n";
    for (args, said) in [
        (&["x.json", "b.json", "x.json"][..], "compare: x.json is given twice: it is compared with itself\n"),
        (&["x.json", "y.json"], "compare: y.json is x.json again: it is compared with itself\n"),
        (
            &["--hosts", "x.json", "x.json"],
            &format!("compare: x.json is given twice: its host is listed twice\n{one_host}"),
        ),
        (&["--hosts", "b.json", "x.json"], ""),
        (&["x.json", "b.json"], ""),
    ] {
        let o = run(ub(["compare"]).args(args).current_dir(s.path()));
        assert_eq!((o.status.code(), stderr(&o).as_str()), (Some(0), said), "{args:?}");
        assert!(!stdout(&o).is_empty(), "{args:?}");
    }
    let o = compare(&["--hosts", "--format", "tsv", "pool-1.json", "pool-2.json"]);
    assert_eq!((o.status.code(), stderr(&o)), (Some(0), one_host.to_string()));
}

/// Real short runs, each saved as the driver saves it (report, `.html`, `.log`): `compare` given
/// a report with its `.log` beside it prints the same tables as given the run's JSON, in every
/// format, full-precision scores, intervals, marks and the quick tag included; the only
/// difference is the file named and its kind.
#[test]
fn a_report_with_its_log_compares_as_its_json() {
    let s = Scratch::new("cmplog");
    // "a" at 1 and 2 copies, "b" at 1 with execl on the static image, "q" a quick run; 4
    // passes (three kept, the fewest whose interval is of use) give pipe and syscall
    // intervals, execl's one pass none (but its image).
    let plans: [(&str, &[&str], &str); 3] = [
        ("a", &["-t", "1", "-i", "4", "-c", "1", "-c", "2"], "auto"),
        ("b", &["-t", "1", "-i", "4", "-c", "1"], "static"),
        ("q", &["--quick=13", "-c", "1"], "auto"),
    ];
    for (dir, args, image) in plans {
        let results = s.path().join(dir);
        let mut c = ub(args);
        c.args(["--format", "json", "pipe", "syscall", "execl", "--results"]).arg(&results);
        c.arg("--tmpdir").arg(s.path()).current_dir(s.path()).env("UB_EXEC_IMAGE", image);
        // The report's date is in local time, the JSON's in UTC: one zone makes them one.
        c.env("TZ", "UTC");
        let o = run(&mut c);
        assert!(o.status.success(), "{dir}: {}", stderr(&o));
        let names: Vec<String> = std::fs::read_dir(&results)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let report = names.iter().find(|n| !n.contains('.')).expect("a text report").clone();
        for ext in [".html", ".log"] {
            assert!(names.contains(&format!("{report}{ext}")), "{dir}: {names:?}");
        }
        // Every reader moves to ./r in its directory; the JSON is the one on stdout, which is
        // the one the run saves when it saves one.
        std::fs::rename(results.join(&report), results.join("r")).unwrap();
        std::fs::rename(results.join(format!("{report}.log")), results.join("r.log")).unwrap();
        let json = results.join(format!("{report}.json"));
        if let Ok(saved) = std::fs::read_to_string(&json) {
            assert_eq!(saved, stdout(&o), "{dir}: the saved JSON is stdout's");
        }
        std::fs::write(results.join("r.json"), o.stdout).unwrap();
    }
    let compare = |format: &str, files: &[&str]| {
        let o = run(ub(["compare", "--format", format]).args(files).current_dir(s.path()));
        assert!(o.status.success(), "compare {files:?}: {}", stderr(&o));
        (stdout(&o), stderr(&o))
    };
    for files in [&["a/r"][..], &["b/r", "a/r"], &["q/r", "a/r"], &["q/r", "b/r", "a/r"]] {
        let jsons: Vec<String> = files.iter().map(|f| format!("{f}.json")).collect();
        let jsons: Vec<&str> = jsons.iter().map(String::as_str).collect();
        for format in ["text", "tsv", "json"] {
            let (from_log, err) = compare(format, files);
            assert_eq!(err, "", "compare {files:?}");
            let (from_json, _) = compare(format, &jsons);
            let from_json = from_json
                .replace("r.json", "r")
                .replace("unixbench results JSON", "text report and its log")
                .replace("\"kind\":\"json\"", "\"kind\":\"text\"")
                // The JSON's date is marked UTC; the report's is a local time, without a zone.
                .replace("Z\n", "\n")
                .replace("Z\",\"runs\"", "\",\"runs\"")
                .replace("Z\",\"rounds\"", "\",\"rounds\"")
                .replace("Z\"}", "\"}");
            assert_eq!(from_log, from_json, "compare --format {format} {files:?}");
        }
    }
    // What the tables hold came from the logs: intervals (so no "unknown" legend for text),
    // marks, the exec images and the quick tag.
    let (text, _) = compare("text", &["q/r", "b/r", "a/r"]);
    assert!(text.contains("  [1] q/r: text report and its log, version "), "{text}");
    assert!(text.contains(", quick run\n      host "), "{text}");
    assert!(text.contains("\n  [2] b/r: text report and its log, version "), "{text}");
    // b ran execl on the static image, a with -t: short runs, both, and q a quick one.
    assert!(text.contains(", short run\n      host ") && !text.contains("standard run"), "{text}");
    assert!(text.contains("** warning: comparing runs of different kinds (quick, short): "), "{text}");
    assert!(!text.contains("Intervals unknown"), "{text}");
    let (tsv, _) = compare("tsv", &["b/r", "a/r"]);
    let pipe = tsv.lines().find(|l| l.starts_with("1\tPipe Throughput\t2\t")).unwrap();
    let f: Vec<&str> = pipe.split('\t').collect();
    assert!(f[5].parse::<f64>().unwrap() > 0.0 && f[6].parse::<f64>().unwrap() > 0.0, "{pipe}");
    assert!(["yes", "no"].contains(&f[8]), "{pipe}");

    // A log that is not its report's is left out with one line, and the report read alone; so
    // is a directory where the log would be.
    let one = |dir: &str, log: Option<&str>| {
        let d = s.path().join(dir);
        std::fs::create_dir(&d).unwrap();
        std::fs::copy(s.path().join("q/r"), d.join("r")).unwrap();
        match log {
            Some(from) => drop(std::fs::copy(s.path().join(from), d.join("r.log")).unwrap()),
            None => std::fs::create_dir(d.join("r.log")).unwrap(),
        }
    };
    one("x", Some("a/r.log"));
    one("y", None);
    std::fs::create_dir(s.path().join("z")).unwrap();
    std::fs::copy(s.path().join("q/r"), s.path().join("z/r")).unwrap();
    let (alone, err) = compare("text", &["z/r", "a/r"]);
    assert_eq!(err, "");
    assert!(alone.contains("  [1] z/r: text report, version "), "{alone}");
    for (dir, why) in [("x", "its copy counts are not the report's"), ("y", "a directory")] {
        let (out, err) = compare("text", &[&format!("{dir}/r"), "a/r"]);
        assert_eq!(out, alone.replace("z/r", &format!("{dir}/r")));
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("compare: {dir}/r.log: ignored: ")) && err.contains(why), "{err}");
    }
}

/// The C UnixBench's report with its own log beside it (tests/fixtures/compare/c-unixbench.log,
/// the log of c-unixbench.txt): the log's passes, scored as Run scores them, give back the
/// log's own scores, the interval of every test of ten passes (of the 3-pass tests', two kept,
/// none of use) and the index's.
#[test]
fn the_c_suites_report_with_its_log() {
    let s = Scratch::new("cmplog-c");
    std::fs::copy(fixtures().join("c-unixbench.txt"), s.path().join("c")).unwrap();
    std::fs::copy(fixtures().join("c-unixbench.log"), s.path().join("c.log")).unwrap();
    let o = run(ub(["compare", "--format", "tsv", "c", "c"]).current_dir(s.path()));
    assert!(o.status.success(), "{}", stderr(&o));
    // The file against itself, for its figures in full; the log is read without a word.
    assert_eq!(stderr(&o), "compare: c is given twice: it is compared with itself\n");
    let tsv = stdout(&o);
    let rows: Vec<Vec<&str>> = tsv.lines().skip(1).map(|l| l.split('\t').collect()).collect();
    // 12 tests and the index, at 1 and 2 copies, for each of the two runs.
    assert_eq!(rows.len(), 2 * 13 * 2, "{tsv}");
    let short = ["Execl", "File Copy", "Process Creation", "Shell Scripts"];
    for r in &rows {
        let score: f64 = r[4].parse().unwrap();
        if short.iter().any(|s| r[1].starts_with(s)) {
            assert_eq!((r[5], r[6]), ("", ""), "{r:?}");
            continue;
        }
        let (lo, hi): (f64, f64) = (r[5].parse().unwrap(), r[6].parse().unwrap());
        assert!(lo < score && score < hi, "{r:?}");
        if r[2] == "2" {
            assert_eq!((r[7], r[8], r[14]), ("100", "yes", "no"), "{r:?}");
        }
    }
    // To the 15 digits of the log's `>>>> score: 78540503.4328753` and `160012088.764291`.
    let score = |copies: &str| {
        let r =
            rows.iter().find(|r| r[0] == copies && r[1] == "Dhrystone 2 using register variables").unwrap();
        format!("{:.14e}", r[4].parse::<f64>().unwrap())
    };
    assert_eq!(score("1"), format!("{:.14e}", 78540503.4328753));
    assert_eq!(score("2"), format!("{:.14e}", 160012088.764291));
}

/// A disturbed test and the kind of run, in every format of `compare`: the text's `d` and
/// legend, the TSV's last columns, the JSON's `disturbed`, the HTML's files table; and a text
/// report's `** disturbed:` line read as the JSON's flag.
#[test]
fn a_disturbed_figure_and_the_kind_of_run_in_every_format() {
    let s = Scratch::new("cmp-disturbed");
    let a = std::fs::read_to_string(fixtures().join("a.json")).unwrap();
    // pipe at 1 copy disturbed (the first of its two results).
    let d = a.replacen(
        "\"name\": \"pipe\", \"message\": \"Pipe Throughput\",",
        "\"name\": \"pipe\", \"message\": \"Pipe Throughput\", \"disturbed\": true,",
        1,
    );
    assert_ne!(a, d);
    std::fs::write(s.path().join("d.json"), d).unwrap();
    std::fs::copy(fixtures().join("quick.json"), s.path().join("quick.json")).unwrap();
    let cmp = |args: &[&str]| {
        let o = run(ub(["compare"]).args(args).current_dir(s.path()));
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let text = cmp(&["d.json", "quick.json"]);
    let pipe = text.lines().find(|l| l.starts_with("Pipe Throughput ")).unwrap();
    assert!(pipe.contains(" -0.4/+0.5%d"), "{pipe}");
    assert!(
        text.lines().any(|l| l.starts_with("System Benchmarks Index Score ") && l.contains("%d")),
        "{text}"
    );
    assert!(text.contains("\nd: disturbed ("), "{text}");
    assert!(text.contains(", quick run\n"), "{text}");
    let tsv = cmp(&["--format", "tsv", "d.json", "quick.json"]);
    assert!(tsv.starts_with(
        "copies\ttest\trun\tfile\tscore\tci95_low\tci95_high\tvs_first_pct\toverlap\tkind\tdisturbed\t"
    ));
    let row = tsv.lines().find(|l| l.starts_with("1\tPipe Throughput\t1\t")).unwrap();
    assert!(row.contains("\tstandard\tyes\t"), "{row}");
    let row = tsv.lines().find(|l| l.starts_with("1\tSystem Call Overhead\t2\t")).unwrap();
    assert!(row.contains("\tquick\tno\t"), "{row}");
    let json = cmp(&["--format", "json", "d.json", "quick.json"]);
    assert!(json.contains("\"marked\":null,\"disturbed\":true}"), "{json}");
    assert!(json.contains("\"run_kind\":\"quick\""), "{json}");
    let html = cmp(&["--format", "html", "d.json", "quick.json"]);
    assert!(
        html.contains("<th align=left>disturbed</th>")
            && html.contains("<td data-label=\"disturbed\">Pipe Throughput (1)</td>"),
        "{html}"
    );
    assert!(html.contains("<td data-label=\"disturbed\">none</td>"), "{html}");
    // The scaling table of the one file: its kind of run, and the disturbed figure marked.
    let scaling = cmp(&["d.json"]);
    assert!(scaling.starts_with("Scaling of d.json (standard run): 1 copy against 2 copies\n"), "{scaling}");
    let pipe = scaling.lines().find(|l| l.starts_with("Pipe Throughput ")).unwrap();
    assert!(pipe.contains("1679.3d "), "{pipe}");
    assert!(scaling.contains("\nd: disturbed ("), "{scaling}");
    let json = cmp(&["--format", "json", "d.json"]);
    assert!(
        json.contains("\"run_kind\":\"standard\"") && json.contains("\"disturbed\":[true,false]"),
        "{json}"
    );
}

/// What compare's pages and pool say reads as their tables do (issue 53 item 6): a disturbed
/// N-copy figure's `d` beside it in the scaling table; the page's index bars outlined where the
/// table says `d`, its N-copy legend only where there are N copies, the kernel named as such
/// and the table against [1] with each file's interval; Markdown's figures to 0.1 as the
/// text's; a pool of runs minutes apart warned, its run farthest from the others named.
#[test]
fn pages_and_pool_read_as_their_tables() {
    let s = Scratch::new("cmp-pages");
    let a = std::fs::read_to_string(fixtures().join("a.json")).unwrap();
    // pipe at 2 copies disturbed (the second of its two results).
    let tag = "\"name\": \"pipe\", \"message\": \"Pipe Throughput\",";
    let at = a.rfind(tag).unwrap() + tag.len();
    let d = format!("{} \"disturbed\": true,{}", &a[..at], &a[at..]);
    std::fs::write(s.path().join("d.json"), &d).unwrap();
    for f in ["a.json", "b.json", "quick.json", "pool-1.json", "pool-2.json", "pool-3.json"] {
        std::fs::copy(fixtures().join(f), s.path().join(f)).unwrap();
    }
    let cmp = |args: &[&str]| {
        let o = run(ub(["compare"]).args(args).current_dir(s.path()));
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let scaling = cmp(&["d.json"]);
    let pipe = scaling.lines().find(|l| l.starts_with("Pipe Throughput ")).unwrap();
    assert!(pipe.contains(" 3230.1d ") && !pipe.ends_with('d'), "{pipe}");

    let page = cmp(&["--format", "html", "d.json", "a.json"]);
    let charts = &page[page.find("<div class=\"charts\">").unwrap()..];
    let index = &charts[charts.find("aria-label=\"System Benchmarks Index Score\"").unwrap()..];
    let index = &index[..index.find("</svg>").unwrap()];
    // d.json's 2-copy bar, where the table says d.
    assert_eq!(index.matches(" d\" x=").count(), 1, "{index}");
    assert!(page.contains("more copies (the count is in the bar&#39;s label)"), "{page}");
    assert!(page.contains("<th align=left>kernel</th>") && !page.contains("OS release"), "{page}");
    let against = &page[page.find("<h3>Against [1]: 1 parallel copy</h3>").unwrap()..];
    let against = &against[..against.find("</table>").unwrap()];
    assert!(against.contains("<tt>3361.8 +-0.4%</tt>"), "each file's interval: {against}");
    let one = cmp(&["--format", "html", "b.json", "b.json"]);
    assert!(one.contains("</svg>1 copy</span>") && !one.contains("more copies"), "a 1-copy compare: {one}");

    // Markdown's figures to 0.1, as the text's (and the run's Markdown) print them.
    let md = cmp(&["--format", "md", "a.json", "b.json"]);
    let rows: Vec<Vec<&str>> = md.lines().skip(2).map(|l| l.split(" | ").collect()).collect();
    assert_eq!(rows.len(), 8, "{md}");
    for r in &rows {
        for cell in &r[4..7] {
            let decimals = cell.trim().split_once('.').map_or(0, |(_, f)| f.len());
            assert!(decimals <= 1, "{cell:?} in {r:?}");
        }
    }
    assert!(md.contains("| 79995833.1 | 76941396.4 | 83171525.5 | 101.9 |"), "{md}");

    // Three runs two minutes apart: the span said, and the run that widens the interval named.
    for (k, f) in ["pool-1.json", "pool-2.json", "pool-3.json"].iter().enumerate() {
        let text = std::fs::read_to_string(s.path().join(f)).unwrap();
        let start = text.split("\"start\": ").nth(1).unwrap().split(',').next().unwrap().to_string();
        let moved =
            text.replace(&format!("\"start\": {start}"), &format!("\"start\": {}", 1795910742 + 60 * k));
        std::fs::write(s.path().join(format!("near-{k}.json")), moved).unwrap();
    }
    let pool = cmp(&["--pool", "near-0.json", "near-1.json", "near-2.json"]);
    assert!(
        pool.contains(
            "\n** warning: the runs span 2 min: the interval holds the host's wander over that time only"
        ),
        "{pool}"
    );
    assert!(
        pool.contains("\n[3] is the run farthest from the others on the index: 11.4% above their mean."),
        "{pool}"
    );
    assert!(!cmp(&["--pool", "pool-1.json", "pool-2.json", "pool-3.json"]).contains("** warning"));
    let json = cmp(&["--pool", "--format", "json", "near-0.json", "near-1.json", "near-2.json"]);
    assert!(
        json.contains("\"span_warning\":\"the runs span 2 min") && json.contains("\"farthest\":{\"run\":3,"),
        "{json}"
    );
}

// ---- What a file says is data; numbers at both ends; bounded work ------------------------------

/// A results JSON of one 1-copy run: `host` as its host name and CPU model, `tests` as
/// (name, score), each with an interval of +-1%.
fn results_json(host: &str, start: u64, tests: &[(&str, f64)]) -> String {
    let q = |s: &str| {
        let mut o = String::from("\"");
        for c in s.chars() {
            match c {
                '"' | '\\' => o.extend(['\\', c]),
                c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
                c => o.push(c),
            }
        }
        o + "\""
    };
    let results: Vec<String> = tests
        .iter()
        .map(|(m, s)| {
            format!(
                "{{\"message\":{},\"score\":{s:e},\"unit\":\"lps\",\"stats\":{{\"ci95_low\":{:e},\"ci95_high\":{:e}}}}}",
                q(m),
                s * 0.99,
                s * 1.01
            )
        })
        .collect();
    format!(
        "{{\"schema\":\"unixbench-results\",\"schema_version\":2,\"version\":\"6.0.0\",\"kind\":\"standard\",\
         \"system\":{{\"hostname\":{h},\"machine\":\"x86_64\",\"os_release\":{h},\"cpu_count\":2,\
         \"cpus\":[{{\"model\":{h}}}]}},\"runs\":[{{\"copies\":1,\"start\":{start},\"results\":[{}]}}]}}",
        results.join(","),
        h = q(host)
    )
}

/// Characters that must never reach the output raw: the other C0 controls, DEL, C1, the
/// bidirectional overrides and isolates, the zero-width ones.
fn hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

const HOST_ESCAPED: &str = "\\x1b]0;owned\\x07\\u{202e}web\\u{200b}1\\u{feff}\\x7f\\x9b2J";

/// Every output of compare (each format, --pool, --hosts) of files whose names, hosts and tests
/// carry escape sequences, bidi overrides, zero-width characters and formulas: printed as data.
#[test]
fn what_a_file_says_is_printed_as_data_in_every_format() {
    let dir = Scratch::new("cmp-data");
    let host = "=HYPERLINK(\"x\")\u{1b}]0;owned\u{7}\u{202e}web\u{200b}1\u{feff}\u{7f}\u{9b}2J";
    let tests = [("Pipe Throughput", 100.0), ("@SUM(A1)\u{1b}[2J\u{2066}", 5.0), ("-2+3\r\n", 7.0)];
    let a = dir.path().join("a\u{1b}]0;t\u{7}\u{202e}.json");
    let b = dir.path().join("+b\u{200b}.json");
    std::fs::write(&a, results_json(host, 1_796_083_200, &tests)).unwrap();
    let again = tests.map(|(m, s)| (m, s * 1.01));
    std::fs::write(&b, results_json(host, 1_796_090_000, &again)).unwrap();
    let runs: &[&[&str]] = &[
        &["--format", "text"],
        &["--format", "tsv"],
        &["--format", "json"],
        &["--format", "html"],
        &["--pool", "--format", "text"],
        &["--pool", "--format", "tsv"],
        &["--pool", "--format", "json"],
        &["--hosts", "--format", "text"],
        &["--hosts", "--format", "tsv"],
        &["--hosts", "--format", "html"],
    ];
    for args in runs {
        let names = [a.file_name().unwrap(), b.file_name().unwrap()];
        let o = run(ub(["compare"]).args(*args).args(names).current_dir(dir.path()));
        assert!(o.status.success(), "compare {args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(!out.chars().any(hidden), "compare {args:?} printed a hidden character raw:\n{out:?}");
        // Nor on stderr (here --hosts' line on one host's runs).
        assert!(!stderr(&o).chars().any(hidden), "compare {args:?}: {:?}", stderr(&o));
        // The text names hosts and files; of the TSVs, --hosts' both, compare's the files,
        // --pool's neither.
        let file = "\\x1b]0;t\\x07\\u{202e}.json";
        let marks = match (args.contains(&"text"), args.contains(&"tsv"), args[0]) {
            (true, _, _) | (_, true, "--hosts") => vec![HOST_ESCAPED, file],
            (_, true, "--format") => vec![file],
            _ => vec![],
        };
        for mark in marks {
            assert!(out.contains(mark), "compare {args:?} shows {mark} escaped:\n{out}");
        }
        if args.contains(&"tsv") {
            for cell in out.lines().flat_map(|l| l.split('\t')) {
                let formula = cell.starts_with(['=', '+', '-', '@']);
                assert!(!formula || cell.parse::<f64>().is_ok(), "compare {args:?}: a formula cell {cell:?}");
            }
            let quoted = if args[0] == "--hosts" { "\t'=HYPERLINK" } else { "\t'@SUM(A1)" };
            assert!(out.contains(quoted), "compare {args:?} quotes a formula:\n{out}");
            assert!(args[0] == "--pool" || out.contains("\t'+b\\u{200b}.json"), "compare {args:?}:\n{out}");
        }
    }
}

/// Scores at both ends of what a file may hold (1e-300 against 1e14, below the bound of 1e15)
/// keep every table's columns: no 300-digit figure, no `inf%`, no `+-inf%` in --pool.
#[test]
fn numbers_at_both_ends_keep_the_columns() {
    let dir = Scratch::new("cmp-ends");
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    let ends = [("Pipe Throughput", 1e-300), ("Execl Throughput", 1e14), ("System Call Overhead", 0.0)];
    let back = [("Pipe Throughput", 1e14), ("Execl Throughput", 1e-300), ("System Call Overhead", 5e-324)];
    std::fs::write(&a, results_json("h", 1_796_083_200, &ends)).unwrap();
    std::fs::write(&b, results_json("h", 1_796_090_000, &back)).unwrap();
    for args in [&["--format", "text"][..], &["--pool"], &["--format", "tsv"], &["--pool", "--format", "tsv"]]
    {
        let o = run(ub(["compare"]).args(args).args(["a.json", "b.json"]).current_dir(dir.path()));
        assert!(o.status.success(), "compare {args:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            !out.contains("inf") && !out.contains("NaN") && !out.contains("nan"),
            "compare {args:?}:\n{out}"
        );
        for w in out.split(['\t', ' ', '\n']) {
            assert!(w.len() <= 30, "compare {args:?}: a cell of {} characters: {w}", w.len());
        }
        if args.contains(&"tsv") {
            continue;
        }
        // The rows of a table line up with its head: the test name in 40 columns, then cells
        // right-aligned to the head's columns, a row's marks (d, *) past them.
        let lines: Vec<&str> = out.lines().collect();
        let head = lines.iter().position(|l| l.starts_with("1 parallel copy")).unwrap();
        let width = lines[head].len();
        for l in lines[head + 1..].iter().take_while(|l| !l.is_empty()) {
            assert!(
                l.len() <= width + 3,
                "compare {args:?}: a row wider than its head:\n{}\n{l}",
                lines[head]
            );
        }
    }
}

/// Waits for `child` at most ten minutes (a guard against a hang, not a timing: the run takes a
/// few seconds), killing it past that.
fn wait_guarded(mut child: std::process::Child, what: &str) -> std::process::Output {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("{what} took more than ten minutes");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    child.wait_with_output().unwrap()
}

/// `unixbench compare ARGS` under a limit of `mib` MiB of address space (`ulimit -v`): its exit
/// status, stdout and stderr, through files of `dir` (a pipe nobody reads while waiting fills).
fn compare_within(dir: &Scratch, mib: u64, args: &[&std::ffi::OsStr]) -> (Option<i32>, String, String) {
    let (out, err) = (dir.path().join("stdout"), dir.path().join("stderr"));
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(format!("ulimit -v {}; exec \"$0\" compare \"$@\"", mib << 10)).arg(bin()).args(args);
    c.stdout(std::fs::File::create(&out).unwrap()).stderr(std::fs::File::create(&err).unwrap());
    let status = wait_guarded(c.spawn().unwrap(), "compare").status;
    (status.code(), std::fs::read_to_string(&out).unwrap(), std::fs::read_to_string(&err).unwrap())
}

/// Two runs of 100,000 tests each are compared and pooled in linear time (it was quadratic)
/// within 384 MiB of address space; a file of 60 MiB that is nothing but values is refused in
/// one line before compare holds more than its bound, not killed.
#[test]
fn a_large_input_is_read_in_bounded_time_and_memory() {
    let dir = Scratch::new("cmp-large");
    let names: Vec<String> = (0..100_000).map(|i| format!("test {i}")).collect();
    let tests: Vec<(&str, f64)> =
        names.iter().enumerate().map(|(i, n)| (n.as_str(), 1.0 + i as f64)).collect();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    std::fs::write(&a, results_json("h", 1_796_083_200, &tests)).unwrap();
    let again: Vec<(&str, f64)> = tests.iter().map(|&(m, s)| (m, s * 1.01)).collect();
    std::fs::write(&b, results_json("h", 1_796_090_000, &again)).unwrap();
    for pool in [false, true] {
        let mut args = vec![std::ffi::OsStr::new("--format"), "tsv".as_ref(), a.as_os_str(), b.as_os_str()];
        if pool {
            args.insert(0, "--pool".as_ref());
        }
        let (status, out, err) = compare_within(&dir, 384, &args);
        assert_eq!(status, Some(0), "compare {args:?}: {err}");
        let rows = if pool { 100_000 } else { 200_000 };
        assert_eq!(out.lines().count(), rows + 1, "compare {args:?}: a line per test and run");
    }
    let values = dir.path().join("values.json");
    std::fs::write(&values, format!("[{}0]", "0,".repeat(30 << 20))).unwrap();
    let (status, out, err) = compare_within(&dir, 384, &[values.as_os_str(), a.as_os_str()]);
    assert_eq!((status, out.as_str(), err.lines().count()), (Some(2), "", 1), "{err}");
    assert!(
        err.contains("holds more JSON values than compare reads (they would take over 128 MiB)"),
        "{err}"
    );
    // A file that can be read but not held as values within the memory left: one line, exit
    // 2, never an abort.
    for (mib, len) in [(64, 58 << 20), (56, 40 << 20)] {
        let big = dir.path().join("big.json");
        std::fs::write(&big, format!("[{}0]", "0,".repeat(len / 2))).unwrap();
        let (status, out, err) = compare_within(&dir, mib, &[big.as_os_str(), a.as_os_str()]);
        assert_eq!((status, out.as_str(), err.lines().count()), (Some(2), "", 1), "{mib} MiB: {err}");
        assert!(err.contains("a memory limit?"), "{err}");
    }
}

// ---- The test on a difference, and the verdict in words ---------------------------------------

/// A results JSON of one 1-copy run of Dhrystone whose index is `index` with the interval
/// index/1.01 to index·1.01 on `df` degrees of freedom, as the run and its test write them;
/// the test `disturbed` or not.
fn indexed_json(start: u64, index: f64, df: f64, disturbed: bool) -> String {
    let s = index / 10.0 * 116700.0;
    format!(
        "{{\"schema\":\"unixbench-results\",\"schema_version\":2,\"version\":\"6.0.0\",\"kind\":\"standard\",\
         \"system\":{{\"hostname\":\"vm\",\"machine\":\"x86_64\",\"os_release\":\"6.18\",\"cpu_count\":2,\
         \"cpus\":[{{\"model\":\"EPYC\"}}]}},\"runs\":[{{\"copies\":1,\"start\":{start},\"results\":[\
         {{\"message\":\"Dhrystone 2 using register variables\",\"score\":{s},\"unit\":\"lps\",\
         \"disturbed\":{disturbed},\"stats\":{{\"ci95_low\":{},\"ci95_high\":{},\"ci95_df\":{df}}}}}],\
         \"index\":[{{\"category\":\"system\",\"score\":{index},\"partial\":false,\"ci95_low\":{},\
         \"ci95_high\":{},\"ci95_df\":{df},\"rows\":[{{\"message\":\"Dhrystone 2 using register variables\",\
         \"baseline\":116700,\"score\":{s},\"index\":{index}}}]}}]}}]}}",
        s / 1.01,
        s * 1.01,
        index / 1.01,
        index * 1.01
    )
}

#[test]
fn a_difference_is_tested_on_the_ratio_and_said_in_words_in_every_format() {
    let s = Scratch::new("cmp-verdict");
    let put = |name: &str, index: f64, disturbed: bool| {
        std::fs::write(s.path().join(name), indexed_json(1795910742, index, 8.0, disturbed)).unwrap()
    };
    put("base.json", 1000.0, false);
    put("slow.json", 900.0, false);
    put("close.json", 1005.0, false);
    put("busy.json", 900.0, true);
    let cmp = |args: &[&str]| {
        let o = run(ub(["compare"]).args(args).current_dir(s.path()));
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    // Each ±1% on 8 degrees of freedom: the log ratio's standard error is √2·ln(1.01)/t(8), on
    // 16 degrees of freedom; 10% slower is marked, with the ratio's interval 88.8% to 91.2%.
    let text = cmp(&["base.json", "slow.json", "close.json"]);
    let index = text.lines().find(|l| l.starts_with("System Benchmarks Index Score")).unwrap();
    assert!(index.contains(" 90.0%*") && index.ends_with(" 100.5%"), "{index}");
    assert!(text.contains("\n[2] is 10.0% \u{b1} 1.2% slower than [1] on the index\n"), "{text}");
    // 0.5% is within what these two runs can show: not marked, and the smallest difference
    // they could have shown (80% power) is said, with what to do for a sharper answer.
    assert!(
        text.contains(
            "\n[3] against [1]: no difference shown on the index; these two runs cannot show one below 1.8% \
             (for a sharper answer, compare --pool over three runs or more of each"
        ),
        "{text}"
    );
    assert!(text.contains("\n*: a difference is shown: the 95% interval of the ratio"), "{text}");
    // A marked difference beside a disturbed run says the difference may be that other work.
    let busy = cmp(&["base.json", "busy.json"]);
    assert!(
        busy.contains("[2] is 10.0% \u{b1} 1.2% slower than [1] on the index; a run was disturbed (d), so the difference may be that other work"),
        "{busy}"
    );
    // The TSV: the present columns, then the ratio's interval, the detectable difference and
    // the mark; overlap keeps its meaning (these intervals do not overlap, 1005's do).
    let tsv = cmp(&["--format", "tsv", "base.json", "slow.json", "close.json"]);
    assert!(tsv.starts_with(
        "copies\ttest\trun\tfile\tscore\tci95_low\tci95_high\tvs_first_pct\toverlap\tkind\tdisturbed\t\
         ratio_ci95_low\tratio_ci95_high\tdetectable_pct\tmarked\n"
    ));
    let row = |run: &str| {
        let l = tsv
            .lines()
            .find(|l| l.starts_with(&format!("1\tSystem Benchmarks Index Score\t{run}\t")))
            .unwrap();
        l.split('\t').map(str::to_string).collect::<Vec<_>>()
    };
    let (slow, close) = (row("2"), row("3"));
    assert_eq!((slow[8].as_str(), slow[14].as_str()), ("no", "yes"), "{slow:?}");
    assert_eq!((close[8].as_str(), close[14].as_str()), ("yes", "no"), "{close:?}");
    let num = |v: &str| v.parse::<f64>().unwrap();
    assert!((num(&slow[11]) - 0.8884).abs() < 5e-4 && (num(&slow[12]) - 0.9117).abs() < 5e-4, "{slow:?}");
    assert!((num(&close[13]) - 1.84).abs() < 0.01, "{close:?}");
    assert_eq!(row("1")[14], "");
    // JSON: the same per value, and the verdicts.
    let json = cmp(&["--format", "json", "base.json", "slow.json", "close.json"]);
    assert!(json.contains("\"marked\":true") && json.contains("\"marked\":false"), "{json}");
    assert!(json.contains("\"detectable_pct\":1.84"), "{json}");
    assert!(
        json.contains("\"verdicts\":[{\"run\":2,\"test\":\"System Benchmarks Index Score\",\"marked\":true,\"text\":\"[2] is 10.0% \u{b1} 1.2% slower"),
        "{json}"
    );
    // HTML and Markdown say the same.
    let html = cmp(&["--format", "html", "base.json", "slow.json", "close.json"]);
    assert!(
        html.contains(
            "<p class=\"verdict marked\">[2] is 10.0% \u{b1} 1.2% slower than [1] on the index</p>"
        ),
        "{html}"
    );
    assert!(html.contains("<p class=\"verdict\">[3] against [1]: no difference shown"), "{html}");
    assert!(html.contains("<tt>90.0%* (88.8-91.2%)</tt>"), "the ratio's interval: {html}");
    let md = cmp(&["--format", "md", "base.json", "slow.json"]);
    assert!(md.lines().next().unwrap().contains("| detectable_pct | marked |"), "{md}");
}

/// A file that holds a test twice in one run is refused naming it (one of the two would weigh
/// twice); a run without tests shows no index, whatever index block its file holds.
#[test]
fn a_test_twice_is_said_and_a_run_without_tests_has_no_index() {
    let dir = Scratch::new("cmp-twice");
    let a = dir.path().join("a.json");
    let twice = dir.path().join("twice.json");
    let empty = dir.path().join("empty.json");
    std::fs::write(&a, results_json("h", 1_796_083_200, &[("Pipe Throughput", 1e6)])).unwrap();
    let two = [("Pipe Throughput", 1e6), ("Pipe Throughput", 2e6)];
    std::fs::write(&twice, results_json("h", 1_796_090_000, &two)).unwrap();
    let o = run(ub(["compare"]).arg(&a).arg(&twice));
    assert_usage_error(
        &o,
        "twice.json: the 1-copy run holds 'Pipe Throughput' twice: a run holds each test once",
    );
    let no_tests = results_json("h", 1_796_090_000, &[])
        .replace("\"results\":[]", "\"results\":[],\"index\":[{\"category\":\"system\",\"score\":500.0}]");
    std::fs::write(&empty, no_tests).unwrap();
    let o = run(ub(["compare", "--format", "tsv"]).arg(&a).arg(&empty));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("500.0") && !out.contains("\t500\t"), "{out}");
}
