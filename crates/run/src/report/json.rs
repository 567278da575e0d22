//! The run as JSON, for programs: `{"schema":"unixbench-results","schema_version":1,...}`, with
//! every figure at full precision (the text report rounds to one decimal).
//!
//! A small hand-written writer ([`Json`]) builds the text: objects and arrays, strings escaped as
//! RFC 8259 asks, numbers in Rust's shortest round-trip form, and `null` for a missing value or
//! a non-finite number (JSON has no NaN or infinity). Output is indented by two spaces, one
//! member per line, so that it also reads well and diffs well.

use super::text::score_title;
use super::tsv::baseline_index;
use crate::model::{CopyOutcome, CopyRun, IndexBlock, Pass, Run, SystemInfo, TestResult};

/// An indenting JSON writer. Call `key` before each member of an object; values in arrays
/// need no key. Misuse (a key in an array, unbalanced ends) gives malformed text, caught by the
/// tests of whoever misuses it.
#[derive(Default)]
pub struct Json {
    out: String,
    /// Per open container: whether it has a member yet.
    stack: Vec<bool>,
    /// A key was just written: the next value goes on its line.
    after_key: bool,
}

impl Json {
    pub fn new() -> Json {
        Json::default()
    }

    /// The text, with a final newline.
    pub fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }

    fn newline(&mut self) {
        self.out.push('\n');
        for _ in 0..self.stack.len() {
            self.out.push_str("  ");
        }
    }

    /// Before any value or key: the separator and indentation of a new member.
    fn member(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if let Some(has) = self.stack.last_mut() {
            let first = !*has;
            *has = true;
            if !first {
                self.out.push(',');
            }
            self.newline();
        }
    }

    pub fn key(&mut self, k: &str) -> &mut Self {
        self.member();
        self.push_str_lit(k);
        self.out.push_str(": ");
        self.after_key = true;
        self
    }

    pub fn begin_object(&mut self) -> &mut Self {
        self.member();
        self.out.push('{');
        self.stack.push(false);
        self
    }

    pub fn end_object(&mut self) -> &mut Self {
        self.close('}')
    }

    pub fn begin_array(&mut self) -> &mut Self {
        self.member();
        self.out.push('[');
        self.stack.push(false);
        self
    }

    pub fn end_array(&mut self) -> &mut Self {
        self.close(']')
    }

    fn close(&mut self, c: char) -> &mut Self {
        if self.stack.pop() == Some(true) {
            self.newline();
        }
        self.out.push(c);
        self
    }

    pub fn string(&mut self, s: &str) -> &mut Self {
        self.member();
        self.push_str_lit(s);
        self
    }

    pub fn opt_string(&mut self, s: Option<&str>) -> &mut Self {
        match s {
            Some(s) => self.string(s),
            None => self.null(),
        }
    }

    pub fn number(&mut self, v: f64) -> &mut Self {
        if !v.is_finite() {
            return self.null();
        }
        self.member();
        // Display gives the shortest text that reads back as v, never an exponent: valid JSON.
        self.out.push_str(&format!("{v}"));
        self
    }

    pub fn opt_number(&mut self, v: Option<f64>) -> &mut Self {
        match v {
            Some(v) => self.number(v),
            None => self.null(),
        }
    }

    pub fn int(&mut self, v: i64) -> &mut Self {
        self.member();
        self.out.push_str(&v.to_string());
        self
    }

    pub fn opt_int(&mut self, v: Option<i64>) -> &mut Self {
        match v {
            Some(v) => self.int(v),
            None => self.null(),
        }
    }

    pub fn bool(&mut self, v: bool) -> &mut Self {
        self.member();
        self.out.push_str(if v { "true" } else { "false" });
        self
    }

    pub fn null(&mut self) -> &mut Self {
        self.member();
        self.out.push_str("null");
        self
    }

    fn push_str_lit(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{2028}' || c == '\u{2029}' => {
                    self.out.push_str(&format!("\\u{:04x}", c as u32));
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

/// The whole run as a JSON document.
pub fn render(run: &Run) -> String {
    let mut j = Json::new();
    j.begin_object();
    j.key("schema").string("unixbench-results");
    j.key("schema_version").int(1);
    j.key("version").string(&run.version);
    j.key("interrupted").bool(run.interrupted);
    j.key("incomplete").bool(run.incomplete);
    j.key("system");
    system(&mut j, &run.system);
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
    j.key("quick").opt_number(st.quick);
    j.key("verbosity").int(i64::from(st.verbosity.level()));
    j.key("tmpdir").string(&st.tmpdir);
    j.key("resultdir").string(&st.resultdir);
    j.end_object();
    j.key("runs").begin_array();
    for cr in &run.runs {
        copy_run(&mut j, cr);
    }
    j.end_array();
    j.end_object();
    j.finish()
}

fn system(j: &mut Json, s: &SystemInfo) {
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

fn copy_run(j: &mut Json, cr: &CopyRun) {
    j.begin_object();
    j.key("copies").int(cr.copies as i64);
    j.key("start").int(cr.start);
    j.key("end").int(cr.end);
    j.key("results").begin_array();
    for r in &cr.results {
        result(j, cr, r);
    }
    j.end_array();
    j.key("index").begin_array();
    for b in super::text::ordered_index(cr) {
        index_block(j, b, cr);
    }
    j.end_array();
    j.end_object();
}

fn result(j: &mut Json, cr: &CopyRun, r: &TestResult) {
    let ok = r.ok();
    let (baseline, index) = if ok { baseline_index(cr, &r.message) } else { (None, None) };
    j.begin_object();
    j.key("name").string(&r.name);
    j.key("message").string(&r.message);
    j.key("category").opt_string(r.category.map(|c| c.key()));
    j.key("command").string(&r.command);
    j.key("copies").int(r.copies as i64);
    j.key("score").opt_number(ok.then_some(r.score));
    j.key("unit").string(&r.unit);
    j.key("time").opt_number(ok.then_some(r.time));
    j.key("samples").int(r.kept.len() as i64);
    j.key("baseline").opt_number(baseline);
    j.key("index").opt_number(index);
    j.key("error").opt_string(r.error.as_deref());
    j.key("skipped").opt_string(r.skipped.as_deref());
    if let Some(i) = r.exec_image() {
        j.key("exec_image").begin_object();
        j.key("kind").string(&i.kind);
        j.key(if i.is_static() { "reason" } else { "loader" }).string(&i.detail);
        j.end_object();
    }
    j.key("passes").begin_array();
    for (i, p) in r.passes.iter().enumerate() {
        pass(j, p, r.kept.contains(&i));
    }
    j.end_array();
    j.key("stats");
    stats(j, r);
    j.end_object();
}

/// The statistics of the kept per-pass rates (src/stats.rs), or null for a test without score.
fn stats(j: &mut Json, r: &TestResult) {
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
    j.key("ci95_low").opt_number(s.ci95.map(|c| c.low));
    j.key("ci95_high").opt_number(s.ci95.map(|c| c.high));
    j.end_object();
}

fn pass(j: &mut Json, p: &Pass, kept: bool) {
    j.begin_object();
    j.key("count").number(p.count);
    j.key("time").number(p.time);
    j.key("elapsed").number(p.elapsed);
    j.key("timebase").number(p.timebase);
    j.key("label").string(&p.label);
    j.key("kept").bool(kept);
    if let Some(s) = p.start_skew() {
        j.key("start_skew").number(s);
    }
    j.key("copies").begin_array();
    for c in &p.copies {
        copy(j, c);
    }
    j.end_array();
    j.end_object();
}

fn copy(j: &mut Json, c: &CopyOutcome) {
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

fn index_block(j: &mut Json, b: &IndexBlock, cr: &CopyRun) {
    // The index's interval, propagated from its tests' (independence assumed).
    let ci = crate::stats::index_interval(b, &cr.results);
    j.begin_object();
    j.key("category").string(b.category.key());
    j.key("title").string(&score_title(b));
    j.key("score").number(b.score);
    j.key("partial").bool(b.partial);
    j.key("ci95_low").opt_number(ci.map(|c| c.low));
    j.key("ci95_high").opt_number(ci.map(|c| c.high));
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
    use crate::model::*;
    use crate::report::fixture;

    #[test]
    fn writer_escapes_and_nests() {
        let mut j = Json::new();
        j.begin_object();
        j.key("s").string("a\"b\\c\nd\te\u{1}\u{7f}é\u{2028}");
        j.key("n").number(0.1);
        j.key("big").number(1e21);
        j.key("nan").number(f64::NAN);
        j.key("inf").number(f64::NEG_INFINITY);
        j.key("i").int(-3);
        j.key("empty").begin_array().end_array();
        j.key("eo").begin_object().end_object();
        j.key("a").begin_array();
        j.bool(true).null();
        j.begin_object().key("k\"").opt_string(None).end_object();
        j.end_array();
        j.end_object();
        let want = r#"{
  "s": "a\"b\\c\nd\te\u0001\u007fé\u2028",
  "n": 0.1,
  "big": 1000000000000000000000,
  "nan": null,
  "inf": null,
  "i": -3,
  "empty": [],
  "eo": {},
  "a": [
    true,
    null,
    {
      "k\"": null
    }
  ]
}
"#;
        assert_eq!(j.finish(), want);
    }

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
  "schema_version": 1,
  "version": "6.0.0-compatible; unixbench 0.1.0",
  "interrupted": true,
  "incomplete": false,
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
    "quick": null,
    "verbosity": 1,
    "tmpdir": "/t",
    "resultdir": "/r"
  },
  "runs": [
    {
      "copies": 1,
      "start": 1795997142,
      "end": 1795997217,
      "results": [
        {
          "name": "execl",
          "message": "Execl Throughput",
          "category": null,
          "command": "\"/b/execl\"  2>&1 > /dev/null",
          "copies": 1,
          "score": null,
          "unit": "lps",
          "time": null,
          "samples": 0,
          "baseline": null,
          "index": null,
          "error": "command returned status 256\nexecl: <cannot exec> & \"quoted\"",
          "skipped": null,
          "passes": [],
          "stats": null
        },
        {
          "name": "dhry2reg",
          "message": "Dhrystone 2 using register variables",
          "category": "system",
          "command": "\"/opt/ub/pgms/dhry2reg\" 10 2>&1 >> \"/opt/ub/results/host.log\"",
          "copies": 1,
          "score": 12345678901234.5,
          "unit": "lps",
          "time": 2.04,
          "samples": 2,
          "baseline": 116700,
          "index": 1057898706.1,
          "error": null,
          "skipped": null,
          "passes": [
            {
              "count": 6172839450617.25,
              "time": 2.000125,
              "elapsed": 2.000125,
              "timebase": 1,
              "label": "lps",
              "kept": false,
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
          "stats": null
        },
        {
          "name": "C",
          "message": "C Compiler Throughput",
          "category": "system",
          "command": "\"/opt/ub/pgms/C\" 10 2>&1 >> \"/opt/ub/results/host.log\"",
          "copies": 1,
          "score": null,
          "unit": "lpm",
          "time": null,
          "samples": 0,
          "baseline": null,
          "index": null,
          "error": null,
          "skipped": "no C compiler (cc or gcc) on this host",
          "passes": [],
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
        let doc = crate::json::parse(&render(&run)).unwrap();
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
    fn reference_run_has_every_result() {
        let s = render(&fixture::reference());
        assert_eq!(s.matches("\"message\": \"Pipe Throughput\"").count(), 4);
        assert_eq!(s.matches("\"title\": \"System Benchmarks Index Score\"").count(), 2);
        assert!(s.contains("\"score\": 3209.6"));
    }
}
