//! The run as JSON, for programs: `{"schema":"unixbench-results","schema_version":1,...}`, with
//! every figure at full precision (the text report rounds to one decimal).
//!
//! The tool's one JSON writer (`json::Writer`, pretty) builds the text; `null` stands for a
//! missing value, as for a non-finite number.

use super::view::{baseline_index, score_title};
use crate::model::{CopyOutcome, CopyRun, IndexBlock, Pass, Run, SystemInfo, TestResult};
use base::json::Writer;

/// Every unit a test reports, and what it means.
pub const UNITS: [(&str, &str); 5] = [
    ("lps", "loops per second"),
    ("lpm", "loops per minute"),
    ("KBps", "kilobytes per second"),
    ("MWIPS", "millions of Whetstone instructions per second"),
    ("fps", "frames per second"),
];

/// The whole run as a JSON document.
pub fn render(run: &Run) -> String {
    let mut j = Writer::pretty();
    write(&mut j, run);
    j.finish()
}

/// The whole run as a JSON object into `j` (a document of its own, or an arm of `ab`'s).
pub fn write(j: &mut Writer, run: &Run) {
    j.begin_object();
    j.key("schema").string("unixbench-results");
    j.key("schema_version").int(2);
    j.key("version").string(&run.version);
    j.key("build").begin_object().key("target").string(run.build.target);
    j.key("commit").string(run.build.commit).end_object();
    j.key("summary");
    summary(j, run);
    j.key("interrupted").bool(run.interrupted);
    j.key("incomplete").bool(run.incomplete);
    let why = run.not_standard();
    j.key("standard").bool(why.is_empty());
    j.key("kind").string(run.kind().name());
    j.key("not_standard").begin_array();
    for w in &why {
        j.string(w);
    }
    j.end_array();
    j.key("date").string(&super::fmt::iso_utc(run.runs.first().map_or(0, |c| c.start)));
    j.key("units").begin_object();
    for (unit, what) in UNITS {
        j.key(unit).string(what);
    }
    j.end_object();
    j.key("system");
    system(j, &run.system);
    let st = &run.settings;
    j.key("settings").begin_object();
    j.key("tests").begin_array();
    for t in &st.tests {
        j.string(t);
    }
    j.end_array();
    j.key("copies").begin_array();
    for c in &st.copies {
        j.int(*c as i64);
    }
    j.end_array();
    j.key("iterations").opt_int(st.iterations.map(i64::from));
    j.key("duration").opt_int(st.duration.map(i64::from));
    j.key("quick").bool(st.quick.is_some());
    j.key("quick_budget").opt_number(st.quick);
    j.key("noise").bool(st.noise);
    j.key("remeasure").bool(st.remeasure);
    j.key("rounds").bool(st.seed.is_some());
    j.key("seed").opt_int(st.seed.map(|s| s as i64));
    j.key("verbosity").int(i64::from(st.verbosity.level()));
    j.key("tmpdir").string(&st.tmpdir);
    j.key("resultdir").string(&st.resultdir);
    j.end_object();
    j.key("runs").begin_array();
    for cr in &run.runs {
        copy_run(j, cr);
    }
    j.end_array();
    j.end_object();
}

/// The run in brief, as the console ends it (`view::summary`, its `text`): each copy count's
/// index (`view::headline`), the kind of run, how many results and tests were disturbed, and
/// the busy host (`view::busy_host`) or null.
fn summary(j: &mut Writer, run: &Run) {
    j.begin_object();
    j.key("text").string(&super::view::summary(run));
    j.key("kind").string(run.kind().name());
    j.key("disturbed").int(super::view::disturbed_count(run) as i64);
    j.key("disturbed_tests").int(super::view::disturbed_tests(run).map_or(0, |d| d.tests) as i64);
    j.key("busy_host");
    match super::view::busy_host(run) {
        Some(b) => {
            j.begin_object();
            j.key("text").string(&b.line(run.system.cpu_count));
            j.key("cause").string(b.cause.word());
            j.key("share").number(b.share);
            j.key("load").number(b.load);
            j.end_object();
        }
        None => {
            j.null();
        }
    }
    j.key("index").begin_array();
    for cr in &run.runs {
        j.begin_object();
        j.key("copies").int(cr.copies as i64);
        let b = super::view::headline(cr);
        j.key("title").opt_string(b.map(score_title).as_deref());
        j.key("score").opt_number(b.map(|b| b.score));
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

fn system(j: &mut Writer, s: &SystemInfo) {
    j.begin_object();
    j.key("hostname").string(&s.hostname);
    j.key("os").string(&s.os);
    j.key("os_release").string(&s.os_release);
    j.key("os_version").string(&s.os_version);
    j.key("machine").string(&s.machine);
    j.key("platform").string(&s.platform);
    j.key("system").string(&s.system);
    j.key("language").string(&s.language);
    j.key("cpu_count").opt_int(s.cpu_count.map(|n| n as i64));
    if let Some(l) = &s.cpu_limit {
        j.key("cpu_limit").begin_object();
        j.key("cpus").int(l.cpus as i64);
        j.key("by").string(l.by.name());
        j.key("detail").string(&l.detail);
        j.end_object();
    }
    j.key("cpus").begin_array();
    for c in &s.cpus {
        j.begin_object();
        j.key("model").string(&c.model);
        j.key("bogomips").number(c.bogomips);
        j.key("flags").string(&c.flags);
        j.end_object();
    }
    j.end_array();
    j.key("graphics").opt_string(s.graphics.as_deref());
    j.key("uptime").string(&s.uptime);
    j.key("runlevel").string(&s.runlevel);
    j.end_object();
}

fn copy_run(j: &mut Writer, cr: &CopyRun) {
    j.begin_object();
    j.key("copies").int(cr.copies as i64);
    j.key("start").int(cr.start);
    j.key("end").int(cr.end);
    j.key("start_iso").string(&super::fmt::iso_utc(cr.start));
    j.key("end_iso").string(&super::fmt::iso_utc(cr.end));
    // How many rounds, how far their indexes spread, and the host's own wander between them
    // net of the passes' noise (a standard deviation); null without rounds.
    j.key("rounds");
    match super::view::rounds(cr) {
        Some(r) => {
            j.begin_object();
            j.key("count").int(r.count as i64);
            j.key("host_moved").opt_number(r.moved);
            j.key("host_wander").opt_number(r.wander);
            j.end_object();
        }
        None => {
            j.null();
        }
    }
    j.key("results").begin_array();
    for r in &cr.results {
        result(j, cr, r);
    }
    j.end_array();
    j.key("index").begin_array();
    for b in super::view::ordered_index(cr) {
        index_block(j, b, cr);
    }
    j.end_array();
    j.end_object();
}

fn result(j: &mut Writer, cr: &CopyRun, r: &TestResult) {
    let ok = r.ok();
    let (baseline, index) = if ok { baseline_index(cr, &r.message) } else { (None, None) };
    j.begin_object();
    j.key("name").string(&r.name);
    j.key("message").string(&r.message);
    j.key("title").string(&r.message);
    j.key("category").opt_string(r.category.map(|c| c.key()));
    j.key("command").string(&r.command);
    j.key("copies").int(r.copies as i64);
    j.key("score").opt_number(ok.then_some(r.score));
    j.key("unit").string(&r.unit);
    j.key("time").opt_number(ok.then_some(r.time));
    // The passes of the score and those kept (`view::pass_count`): `samples` is the name
    // scripts read since schema 1 (the classic report's word), `kept_passes` the name every
    // other output uses.
    let count = super::view::pass_count(r);
    j.key("samples").int(count.kept as i64);
    j.key("scored_passes").int(count.scored as i64);
    j.key("kept_passes").int(count.kept as i64);
    j.key("baseline").opt_number(baseline);
    j.key("index").opt_number(index);
    j.key("error").opt_string(r.error.as_deref());
    j.key("skipped").opt_string(r.skipped.as_deref());
    j.key("disturbed").bool(r.disturbed());
    j.key("disturbance").opt_string(r.disturbance().map(|d| d.word()));
    if let Some(i) = r.exec_image() {
        j.key("exec_image").begin_object();
        j.key("kind").string(&i.kind);
        j.key(i.detail_name()).string(&i.detail);
        j.end_object();
    }
    j.key("passes").begin_array();
    for (i, p) in r.passes.iter().enumerate() {
        pass(j, p, r.kept.contains(&i));
    }
    j.end_array();
    j.key("replaced").begin_array();
    for p in &r.replaced {
        j.begin_object();
        j.key("why").string(p.why.word());
        j.key("number").int(p.number as i64);
        j.key("pass");
        pass(j, &p.pass, false);
        j.end_object();
    }
    j.end_array();
    j.key("stats");
    stats(j, r);
    j.end_object();
}

/// The statistics of the kept per-pass rates (src/stats.rs), or null for a test without score.
fn stats(j: &mut Writer, r: &TestResult) {
    let Some(s) = crate::stats::of_result(r) else {
        j.null();
        return;
    };
    j.begin_object();
    j.key("n").int(s.n as i64);
    j.key("min").number(s.min);
    j.key("median").number(s.median);
    j.key("max").number(s.max);
    j.key("geomean").number(s.geomean);
    j.key("cv").opt_number(s.cv);
    interval(j, s.ci95);
    j.end_object();
}

/// An interval's fields: its ends and degrees of freedom (null where infinite), or nulls.
fn interval(j: &mut Writer, ci: Option<crate::stats::Interval>) {
    j.key("ci95_low").opt_number(ci.map(|c| c.low));
    j.key("ci95_high").opt_number(ci.map(|c| c.high));
    j.key("ci95_df").opt_number(ci.map(|c| c.df).filter(|d| d.is_finite()));
}

fn pass(j: &mut Writer, p: &Pass, kept: bool) {
    j.begin_object();
    j.key("count").number(p.count);
    j.key("time").number(p.time);
    j.key("elapsed").number(p.elapsed);
    j.key("timebase").number(p.timebase);
    j.key("label").string(&p.label);
    j.key("kept").bool(kept);
    j.key("round").opt_int(p.round.map(|r| r as i64));
    j.key("start").opt_number(p.start);
    if let Some(s) = p.start_skew() {
        j.key("start_skew").number(s);
    }
    j.key("noise");
    match &p.noise {
        Some(n) => {
            j.begin_object();
            j.key("copies_cpu").number(n.copies_cpu);
            j.key("steal").number(n.steal);
            j.key("foreign").number(n.foreign);
            j.key("steal_share").number(n.steal_share());
            j.key("foreign_share").number(n.foreign_share());
            j.key("load_start").number(n.load_start);
            j.key("load_end").number(n.load_end);
            j.key("involuntary").int(n.involuntary as i64);
            j.key("mhz").opt_number(n.mhz);
            j.key("wall").number(n.wall);
            j.key("idle").number(n.idle);
            j.key("throttled").opt_number(n.throttled);
            j.key("driver_stopped").bool(n.driver_stopped);
            j.end_object();
        }
        None => {
            j.null();
        }
    }
    j.key("copies").begin_array();
    for c in &p.copies {
        copy(j, c);
    }
    j.end_array();
    j.end_object();
}

fn copy(j: &mut Writer, c: &CopyOutcome) {
    j.begin_object();
    j.key("count").opt_number(c.count);
    j.key("timebase").opt_number(c.timebase);
    j.key("label").opt_string(c.label.as_deref());
    j.key("time").opt_number(c.time);
    j.key("elapsed").number(c.elapsed);
    if let Some(s) = c.started {
        j.key("started").number(s);
    }
    j.key("status").int(i64::from(c.status));
    j.key("error").opt_string(c.error.as_deref());
    j.end_object();
}

fn index_block(j: &mut Writer, b: &IndexBlock, cr: &CopyRun) {
    // The index's interval: its rounds' spread, else propagated from its tests'.
    let ci = crate::stats::index_interval(b, &cr.results);
    j.begin_object();
    j.key("category").string(b.category.key());
    j.key("title").string(&score_title(b));
    j.key("score").number(b.score);
    j.key("partial").bool(b.partial);
    interval(j, ci);
    j.key("rows").begin_array();
    for row in &b.rows {
        j.begin_object();
        j.key("message").string(&row.message);
        j.key("baseline").opt_number(row.baseline);
        j.key("score").number(row.score);
        j.key("index").opt_number(row.index);
        j.end_object();
    }
    j.end_array();
    j.end_object();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture;
    use crate::model::*;

    #[test]
    fn troubled_run_document() {
        let mut run = fixture::troubled();
        // Keep the document short: one pass of one test, one failing test, one skipped.
        let cr = &mut run.runs[0];
        cr.results.retain(|r| r.name == "dhry2reg" || r.name == "execl" || r.name == "C");
        let by_name = |cr: &mut CopyRun, n: &str| cr.results.iter().position(|r| r.name == n).unwrap();
        let d = by_name(cr, "dhry2reg");
        cr.results[d].passes.truncate(1);
        cr.results[d].passes[0].copies[0].error = Some("tab\there".into());
        let e = by_name(cr, "execl");
        cr.results[e].passes.clear();
        cr.results[e].command = "\"/b/execl\"  2>&1 > /dev/null".into();
        cr.results[e].category = None;
        cr.index.retain(|b| b.category == Category::System);
        run.system.cpus = vec![Cpu {
            model: "ARM Neoverse-N1".into(),
            bogomips: 50.0,
            flags: "CPU Features: fp asimd".into(),
        }];
        run.system.graphics = Some("llvmpipe".into());
        let got = render(&run);
        let want = r##"{
  "schema": "unixbench-results",
  "schema_version": 2,
  "version": "6.0.0-compatible; unixbench 0.1.0",
  "build": {
    "target": "unknown",
    "commit": "unknown"
  },
  "summary": {
    "text": "partial index 1057898706.1 at 1 copy; a short run, not standard; noise not read; interrupted",
    "kind": "short",
    "disturbed": 0,
    "disturbed_tests": 0,
    "busy_host": null,
    "index": [
      {
        "copies": 1,
        "title": "System Benchmarks Index Score (Partial Only)",
        "score": 1057898706.1
      }
    ]
  },
  "interrupted": true,
  "incomplete": false,
  "standard": false,
  "kind": "short",
  "not_standard": [
    "durations set with -t 2, with shorter settles",
    "-i 3: other pass counts than Run's 10 and 3"
  ],
  "date": "2026-11-30T00:05:42Z",
  "units": {
    "lps": "loops per second",
    "lpm": "loops per minute",
    "KBps": "kilobytes per second",
    "MWIPS": "millions of Whetstone instructions per second",
    "fps": "frames per second"
  },
  "system": {
    "hostname": "h<&>",
    "os": "GNU/Linux",
    "os_release": "6.18.44-fc-v657",
    "os_version": "#1 SMP PREEMPT_DYNAMIC @0",
    "machine": "x86_64",
    "platform": "unknown",
    "system": "Debian GNU/Linux 12 (bookworm)",
    "language": "en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")",
    "cpu_count": null,
    "cpus": [
      {
        "model": "ARM Neoverse-N1",
        "bogomips": 50,
        "flags": "CPU Features: fp asimd"
      }
    ],
    "graphics": "llvmpipe",
    "uptime": "00:05:42 up 5 min,  0 user,  load average: 1.51, 0.62, 0.23",
    "runlevel": "unknown"
  },
  "settings": {
    "tests": [
      "dhry2reg",
      "hanoi",
      "grep",
      "execl",
      "C"
    ],
    "copies": [
      1
    ],
    "iterations": 3,
    "duration": 2,
    "quick": false,
    "quick_budget": null,
    "noise": false,
    "remeasure": false,
    "rounds": false,
    "seed": null,
    "verbosity": 1,
    "tmpdir": "/t",
    "resultdir": "/r"
  },
  "runs": [
    {
      "copies": 1,
      "start": 1795997142,
      "end": 1795997217,
      "start_iso": "2026-11-30T00:05:42Z",
      "end_iso": "2026-11-30T00:06:57Z",
      "rounds": null,
      "results": [
        {
          "name": "execl",
          "message": "Execl Throughput",
          "title": "Execl Throughput",
          "category": null,
          "command": "\"/b/execl\"  2>&1 > /dev/null",
          "copies": 1,
          "score": null,
          "unit": "lps",
          "time": null,
          "samples": 0,
          "scored_passes": 0,
          "kept_passes": 0,
          "baseline": null,
          "index": null,
          "error": "command returned status 256\nexecl: <cannot exec> & \"quoted\"",
          "skipped": null,
          "disturbed": false,
          "disturbance": null,
          "passes": [],
          "replaced": [],
          "stats": null
        },
        {
          "name": "dhry2reg",
          "message": "Dhrystone 2 using register variables",
          "title": "Dhrystone 2 using register variables",
          "category": "system",
          "command": "\"/opt/ub/pgms/dhry2reg\" 10 2>&1 >> \"/opt/ub/results/host.log\"",
          "copies": 1,
          "score": 12345678901234.5,
          "unit": "lps",
          "time": 2.04,
          "samples": 2,
          "scored_passes": 1,
          "kept_passes": 2,
          "baseline": 116700,
          "index": 1057898706.1,
          "error": null,
          "skipped": null,
          "disturbed": false,
          "disturbance": null,
          "passes": [
            {
              "count": 6172839450617.25,
              "time": 2.000125,
              "elapsed": 2.000125,
              "timebase": 1,
              "label": "lps",
              "kept": false,
              "round": null,
              "start": null,
              "noise": null,
              "copies": [
                {
                  "count": 6172839450617.25,
                  "timebase": 1,
                  "label": "lps",
                  "time": null,
                  "elapsed": 2.000125,
                  "status": 0,
                  "error": "tab\there"
                }
              ]
            }
          ],
          "replaced": [],
          "stats": null
        },
        {
          "name": "C",
          "message": "C Compiler Throughput",
          "title": "C Compiler Throughput",
          "category": "system",
          "command": "\"/opt/ub/pgms/C\" 10 2>&1 >> \"/opt/ub/results/host.log\"",
          "copies": 1,
          "score": null,
          "unit": "lpm",
          "time": null,
          "samples": 0,
          "scored_passes": 0,
          "kept_passes": 0,
          "baseline": null,
          "index": null,
          "error": null,
          "skipped": "no C compiler (cc or gcc) on this host",
          "disturbed": false,
          "disturbance": null,
          "passes": [],
          "replaced": [],
          "stats": null
        }
      ],
      "index": [
        {
          "category": "system",
          "title": "System Benchmarks Index Score (Partial Only)",
          "score": 1057898706.1,
          "partial": true,
          "ci95_low": null,
          "ci95_high": null,
          "ci95_df": null,
          "rows": [
            {
              "message": "Dhrystone 2 using register variables",
              "baseline": 116700,
              "score": 12345678901234.5,
              "index": 1057898706.1
            }
          ]
        }
      ]
    }
  ]
}
"##;
        assert_eq!(got, want);
    }

    #[test]
    fn stats_objects_read_back() {
        // Every scored result carries the statistics of its kept passes, and the index block
        // the interval propagated from them; our JSON reader reads them back.
        let run = fixture::reference();
        let doc = base::json::parse(&render(&run)).unwrap();
        let r0 = &doc.get("runs").unwrap().as_array().unwrap()[0];
        let results = r0.get("results").unwrap().as_array().unwrap();
        let dhry =
            results.iter().find(|r| r.get("name").and_then(|n| n.as_str()) == Some("dhry2reg")).unwrap();
        let st = dhry.get("stats").unwrap();
        let model = run.runs[0].results.iter().find(|r| r.name == "dhry2reg").unwrap();
        let want = crate::stats::of_result(model).unwrap();
        assert_eq!(st.get("n").and_then(|v| v.as_f64()), Some(want.n as f64));
        assert_eq!(st.get("geomean").and_then(|v| v.as_f64()), Some(want.geomean));
        assert_eq!(st.get("ci95_low").and_then(|v| v.as_f64()), want.ci95.map(|c| c.low));
        let block = &r0.get("index").unwrap().as_array().unwrap()[0];
        let ci = crate::stats::index_interval(&run.runs[0].index[0], &run.runs[0].results).unwrap();
        assert_eq!(block.get("ci95_high").and_then(|v| v.as_f64()), Some(ci.high));
        assert!(ci.low < block.get("score").unwrap().as_f64().unwrap());
    }

    #[test]
    fn an_image_or_variant_is_named_with_its_detail() {
        let mut run = fixture::reference();
        let images = [
            ("execl", "dynamic-glibc", "/lib64/ld-linux-x86-64.so.2"),
            ("spawn", "static", "UB_EXEC_IMAGE=static"),
        ];
        let variant = ("whetstone-double", "fma", "N6 multiply-adds fused");
        for cr in &mut run.runs {
            for (name, kind, detail) in images.into_iter().chain([variant]) {
                let r = cr.results.iter_mut().find(|r| r.name == name).unwrap();
                for c in r.passes.iter_mut().flat_map(|p| &mut p.copies) {
                    c.image = Some(crate::model::ExecImage { kind: kind.into(), detail: detail.into() });
                }
            }
        }
        let s = render(&run);
        let n = run.runs.len();
        assert_eq!(s.matches("\"loader\": \"/lib64/ld-linux-x86-64.so.2\"").count(), n, "{s}");
        assert_eq!(s.matches("\"reason\": \"UB_EXEC_IMAGE=static\"").count(), n, "{s}");
        assert_eq!(s.matches("\"kind\": \"fma\",\n").count(), n, "{s}");
        assert_eq!(s.matches("\"detail\": \"N6 multiply-adds fused\"").count(), n, "{s}");
    }

    #[test]
    fn reference_run_has_every_result() {
        let s = render(&fixture::reference());
        assert_eq!(s.matches("\"message\": \"Pipe Throughput\"").count(), 4);
        // Each copy count's index block, and the summary's.
        assert_eq!(s.matches("\"title\": \"System Benchmarks Index Score\"").count(), 4);
        assert!(s.contains(
            "\"text\": \"index 1433.1 at 1 copy, 3209.6 at 2 copies; a standard run; noise not read\""
        ));
        assert!(s.contains("\"score\": 3209.6"));
    }
}
