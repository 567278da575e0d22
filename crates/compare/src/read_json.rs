//! Reading our results JSON (schemas 1 and 2) into `compare`'s model: each run's results with
//! their intervals (the `stats` object, else the kept passes), its index with intervals
//! propagated from the tests', the kind of run from the `kind` or the settings, and the host.

use crate::files::MAX_TREE;
use crate::json::{self, Value};
use crate::model::Category;
use crate::source::{image_of, index_ci, times_an_image, CopyRun, FileKind, Host, Index, Source, TestResult};
use crate::stats::{self, Interval};

fn category_keyed(key: &str) -> Option<Category> {
    Category::ALL.into_iter().find(|c| c.key() == key)
}

pub(super) fn from_json(file: &str, text: &str) -> Result<Source, String> {
    // What compare never reads (each copy's figures, the noise, the passes replaced) is checked,
    // not kept, and the rest is held to MAX_TREE: a file's memory is bounded, not just its size.
    let limits = json::Limits { memory: MAX_TREE, skip: &["copies", "noise", "replaced"] };
    let v = json::parse_within(text, &limits).map_err(|e| match e.msg.as_str() {
        json::TOO_BIG => {
            format!("holds more JSON values than compare reads (they would take over {} MiB)", MAX_TREE >> 20)
        }
        _ => format!("not valid JSON: {e}"),
    })?;
    let v = match v.get("schema").and_then(Value::as_str) {
        Some("unixbench-ab") => ab_arm(file, &v)?,
        _ => &v,
    };
    if v.get("schema").and_then(Value::as_str) != Some("unixbench-results") {
        return Err("a JSON file, but not unixbench results (no \"schema\": \"unixbench-results\")".into());
    }
    match v.get("schema_version").and_then(Value::as_f64) {
        Some(1.0 | 2.0) => {}
        Some(n) => return Err(format!("results schema version {n} is not one this unixbench reads (1, 2)")),
        None => return Err("results without a \"schema_version\"".into()),
    }
    let runs = v.get("runs").and_then(Value::as_array).ok_or("results without a \"runs\" list")?;
    let mut out = Vec::new();
    for (i, r) in runs.iter().enumerate() {
        out.push(json_run(r).map_err(|e| format!("runs[{i}]: {e}"))?);
    }
    let settings = v.get("settings");
    let set = |k: &str| settings.and_then(|s| s.get(k)).filter(|x| !x.is_null());
    // Schema 2 names the kind; for schema 1, what `Run::not_standard` reads from the settings.
    let (quick, short) = match v.get("kind").and_then(Value::as_str) {
        Some(k) => (k == "quick", k == "short"),
        None => (
            set("quick").is_some_and(|q| q.as_bool() != Some(false)),
            set("duration").is_some() || set("iterations").is_some_and(|n| n.as_f64() != Some(10.0)),
        ),
    };
    let start = runs.first().and_then(|r| opt_num(r, "start")).filter(|t| t.is_finite());
    // The first run's start, which both schemas have; schema 2's `date` is the same instant.
    let date = match (start, v.get("date").and_then(Value::as_str)) {
        (Some(t), _) => crate::fmt::iso_utc(t as i64),
        (None, Some(d)) => d.to_string(),
        (None, None) => "unknown".into(),
    };
    Ok(Source {
        file: file.to_string(),
        kind: FileKind::Json,
        version: v.get("version").and_then(Value::as_str).unwrap_or("unknown").to_string(),
        quick,
        short,
        rounds: set("rounds").and_then(Value::as_bool).unwrap_or(false),
        date,
        runs: out,
        host: json_host(v.get("system")),
    })
}

/// The results of one arm of an `ab` run's JSON, named by the file's suffix: `FILE#a`, `FILE#b`.
fn ab_arm<'v>(file: &str, v: &'v Value) -> Result<&'v Value, String> {
    let k = match file.get(file.len().saturating_sub(2)..) {
        Some("#a" | "#A") => 0,
        Some("#b" | "#B") => 1,
        _ => return Err("an ab run's JSON, which holds two arms: name one as FILE#a or FILE#b".into()),
    };
    let arms = v.get("arms").and_then(Value::as_array).ok_or("an ab run's JSON without its \"arms\"")?;
    arms.get(k)
        .and_then(|a| a.get("run"))
        .ok_or_else(|| format!("an ab run's JSON without arm {}", ["A", "B"][k]))
}

fn json_host(s: Option<&Value>) -> Host {
    let text = |k: &str| s.and_then(|s| s.get(k)).and_then(Value::as_str).unwrap_or("unknown").to_string();
    let cpu = s.and_then(|s| s.get("cpus")).and_then(Value::as_array).and_then(|c| c.first());
    Host {
        name: text("hostname"),
        machine: text("machine"),
        os_release: text("os_release"),
        cpus: s.and_then(|s| opt_num(s, "cpu_count")).map(|n| n as usize),
        cpu: cpu.and_then(|c| c.get("model")).and_then(Value::as_str).unwrap_or("unknown").to_string(),
    }
}

fn num(v: &Value, key: &str) -> Result<f64, String> {
    let n =
        v.get(key).and_then(Value::as_f64).ok_or_else(|| format!("\"{key}\" is missing or not a number"))?;
    finite(n, key)
}

/// A number that overflowed to an infinity when read (`1e400`) is refused, not computed with.
fn finite(n: f64, key: &str) -> Result<f64, String> {
    if n.is_finite() {
        Ok(n)
    } else {
        Err(format!("\"{key}\" is beyond what the field can hold"))
    }
}

fn opt_num(v: &Value, key: &str) -> Option<f64> {
    v.get(key).and_then(Value::as_f64)
}

fn text_of<'a>(v: &'a Value, key: &str) -> Result<&'a str, String> {
    v.get(key).and_then(Value::as_str).ok_or_else(|| format!("\"{key}\" is missing or not a string"))
}

fn json_run(r: &Value) -> Result<CopyRun, String> {
    let copies = num(r, "copies")?;
    if copies < 1.0 || copies.fract() != 0.0 {
        return Err(format!("\"copies\" is {copies}, not a positive whole number"));
    }
    let most = crate::model::MAX_COPIES as f64;
    if copies > most {
        return Err(format!("\"copies\" is beyond what the field can hold (at most {most})"));
    }
    let results = r.get("results").and_then(Value::as_array).ok_or("\"results\" is missing or not a list")?;
    let mut tests = Vec::new();
    for (i, t) in results.iter().enumerate() {
        if let Some(test) = json_test(t).map_err(|e| format!("results[{i}]: {e}"))? {
            tests.push(test);
        }
    }
    let index = json_index(r, &tests)?;
    Ok(CopyRun { copies: copies as usize, tests, index })
}

/// A result, or None for one that failed or was skipped.
fn json_test(t: &Value) -> Result<Option<TestResult>, String> {
    let failed =
        t.get("error").is_some_and(|e| !e.is_null()) || t.get("skipped").is_some_and(|e| !e.is_null());
    let Some(score) = opt_num(t, "score").filter(|_| !failed) else { return Ok(None) };
    let score = finite(score, "score")?;
    let message = text_of(t, "message")?.to_string();
    let ci = json_interval(t);
    // Files written before the twins existed have no exec_image: they timed the static one.
    let image = times_an_image(&message)
        .then(|| image_of(t.get("exec_image").and_then(|e| e.get("kind")).and_then(Value::as_str)));
    Ok(Some(TestResult {
        message,
        score,
        unit: t.get("unit").and_then(Value::as_str).unwrap_or("").to_string(),
        index: opt_num(t, "index"),
        ci,
        image,
        disturbed: t.get("disturbed").and_then(Value::as_bool).unwrap_or(false),
    }))
}

/// A run's index blocks, each once, with its interval: the file's own, else propagated from
/// `tests`.
fn json_index(r: &Value, tests: &[TestResult]) -> Result<Vec<Index>, String> {
    let mut index = Vec::new();
    for (i, b) in r.get("index").and_then(Value::as_array).unwrap_or(&[]).iter().enumerate() {
        let x = json_block(b, &index, tests).map_err(|e| format!("index[{i}]: {e}"))?;
        index.push(x);
    }
    Ok(index)
}

/// An index block not among `seen`, with its interval.
fn json_block(b: &Value, seen: &[Index], tests: &[TestResult]) -> Result<Index, String> {
    let key = text_of(b, "category")?;
    let category = category_keyed(key).ok_or_else(|| format!("unknown category \"{key}\""))?;
    // Once each, as a run writes them: index_ci's look-ups are then linear in the tests.
    if seen.iter().any(|x| x.category == category) {
        return Err(format!("category \"{key}\" a second time"));
    }
    let score = num(b, "score")?;
    let mut rows = Vec::new();
    for row in b.get("rows").and_then(Value::as_array).unwrap_or(&[]) {
        if let Some(ix) = opt_num(row, "index") {
            rows.push((ix, row.get("message").and_then(Value::as_str).unwrap_or("")));
        }
    }
    // The file's own interval when it gives one (from its rounds, or propagated as here).
    let own = file_interval(b);
    Ok(Index {
        category,
        score,
        partial: b.get("partial").and_then(Value::as_bool).unwrap_or(false),
        ci: own.or_else(|| index_ci(score, &rows, tests)),
    })
}

/// The interval an object of the results JSON gives: `ci95_low` and `ci95_high`, with
/// `ci95_df` where the file has it (an older one does not: its standard error is then taken
/// as the largest its ends allow).
fn file_interval(o: &Value) -> Option<Interval> {
    Interval::from_ends(opt_num(o, "ci95_low")?, opt_num(o, "ci95_high")?, opt_num(o, "ci95_df"))
}

/// A result's interval: its `stats` object when present, else computed from its kept passes.
fn json_interval(t: &Value) -> Option<Interval> {
    if let Some(s) = t.get("stats") {
        return file_interval(s);
    }
    let passes = t.get("passes")?.as_array()?;
    let (mut kept, mut rates) = (Vec::new(), Vec::new());
    for (k, p) in passes.iter().enumerate() {
        if p.get("kept").and_then(Value::as_bool) == Some(true) {
            kept.push(k);
        }
        let (count, time, tb) = (
            opt_num(p, "count").unwrap_or(0.0),
            opt_num(p, "time").unwrap_or(0.0),
            opt_num(p, "timebase").unwrap_or(0.0),
        );
        rates.push(if tb > 0.0 && time > 0.0 { count / (time / tb) } else { count });
    }
    // As the run gives it: the trimmed mean's, none of use below three kept passes.
    stats::trimmed_ci95(&rates, &kept).filter(|_| kept.len() >= stats::USEFUL_KEPT)
}
