//! The results file: a small JSON document of our own schema, written here with the tool's
//! JSON writer and read back (`--summary`) with its reader (`crate::json`, no dependency).
//!
//! ```json
//! {"schema": "unixbench-lmbench", "schema_version": 1,
//!  "host": {"name": "box", "os": "Linux 6.1.0", "machine": "x86_64", "version": "#1 SMP ..."},
//!  "params": {"buffer_bytes": 67108864, "date": "2026-12-01T12:24:05Z", "enough_us": 100000,
//!             "l1_point_bytes", "l2_point_bytes", "loop_overhead_us", "main_point_bytes",
//!             "points_from_caches", "rand_stride_bytes": 16, "short": false,
//!             "stride_bytes": 128, "time": 1796127845, "timer_overhead_us",
//!             "tool": "unixbench 0.1.0", "tries": 11},
//!  "figures": {"lat_syscall": 0.1160, ...},
//!  "notes": {"lat_udp_local": "not measured: ..."}}
//! ```
//! Figures are in the units of the summary table (microseconds, MB/s, nanoseconds, MHz), keyed
//! as the figures table keys them (`figures.rs`); a figure that could not be measured is absent
//! from "figures" and has an entry in "notes" (a note may also qualify a figure that is there).
//! `short` is true for a run in the short mode (`-s`), a smoke test; `date` is `time` in UTC.

use crate::harness::Harness;
use crate::json::{Value, Writer};
use crate::{fmt, memory, sys, table::HostResults};

/// Parses a JSON text; Err names the line and column of the problem.
pub fn parse(text: &str) -> Result<Value, String> {
    crate::json::parse(text).map_err(|e| e.to_string())
}

/// The results file of a run: its figures and notes (`res`), and the parameters they were
/// measured with (the harness's, the memory points, the buffers' size in MB).
pub(crate) fn to_json(res: &HostResults, h: &Harness, points: &memory::Points, mb: usize) -> String {
    let u = sys::info::uname().unwrap_or_default();
    let now = sys::clock::time();
    let mut j = Writer::pretty();
    j.begin_object();
    j.key("schema").string("unixbench-lmbench");
    j.key("schema_version").int(1);
    // Members in key order, as the reader's sorted maps write them back.
    j.key("host").begin_object();
    j.key("machine").string(&u.machine);
    j.key("name").string(&res.host);
    j.key("os").string(&res.os);
    j.key("version").string(&u.version);
    j.end_object();
    j.key("params").begin_object();
    j.key("buffer_bytes").int(mb as i64);
    j.key("date").string(&crate::fmt::iso_utc(now));
    j.key("enough_us").number(h.enough);
    j.key("l1_point_bytes").int(points.l1 as i64);
    j.key("l2_point_bytes").int(points.l2 as i64);
    j.key("loop_overhead_us").number(h.l_overhead);
    j.key("main_point_bytes").int(points.main as i64);
    j.key("points_from_caches").bool(points.from_caches);
    j.key("rand_stride_bytes").int(memory::RAND_STRIDE as i64);
    j.key("short").bool(res.short);
    j.key("stride_bytes").int(memory::STRIDE as i64);
    j.key("time").int(now);
    j.key("timer_overhead_us").number(h.t_overhead);
    j.key("tool").string(base::version::TOOL);
    j.key("tries").int(h.tries as i64);
    j.end_object();
    j.key("figures").begin_object();
    for (k, v) in res.figures.iter() {
        j.key(k).number(*v);
    }
    j.end_object();
    j.key("notes").begin_object();
    for (k, v) in res.notes.iter() {
        j.key(k).string(v);
    }
    j.end_object();
    j.end_object();
    j.finish()
}

pub(crate) fn from_json(text: &str) -> std::result::Result<HostResults, String> {
    let v = parse(text)?;
    if v.get("schema").and_then(Value::as_str) != Some("unixbench-lmbench") {
        return Err("not an lmbench results file (schema is not \"unixbench-lmbench\")".into());
    }
    let version = v.get("schema_version").and_then(Value::as_f64);
    if version != Some(1.0) {
        return Err(match version {
            Some(v) => format!("unsupported schema_version {v} (this version reads 1)"),
            None => "unsupported schema_version none (this version reads 1)".into(),
        });
    }
    let host = v.get("host");
    // What a file says is data: nothing of it may reach the terminal as a control sequence.
    let s =
        |k: &str| fmt::printable(host.and_then(|h| h.get(k)).and_then(Value::as_str).unwrap_or("unknown"));
    let short = v.get("params").and_then(|p| p.get("short")).and_then(Value::as_bool) == Some(true);
    let mut res = HostResults { host: s("name"), os: s("os"), short, ..Default::default() };
    for (k, val) in v.get("figures").map(Value::members).unwrap_or(&[]) {
        if let Some(n) = val.as_f64() {
            res.figures.insert(fmt::printable(k), n);
        }
    }
    for (k, val) in v.get("notes").map(Value::members).unwrap_or(&[]) {
        if let Some(n) = val.as_str() {
            res.note(&fmt::printable(k), fmt::printable(n));
        }
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::quote;

    #[test]
    fn round_trip() {
        let v = parse(r#" {"a": [1, -2.5e3, true, null], "b": {"c": "x\"y\u00e9"}} "#).unwrap();
        assert_eq!(
            v.get("a"),
            Some(&Value::Array(vec![
                Value::Number(1.0),
                Value::Number(-2500.0),
                Value::Bool(true),
                Value::Null
            ]))
        );
        assert_eq!(v.get("b").and_then(|b| b.get("c")).and_then(Value::as_str), Some("x\"yé"));
        assert_eq!(parse(&quote("a\"b\\c\n")).unwrap(), Value::String("a\"b\\c\n".into()));
    }

    #[test]
    fn what_a_file_says_reaches_the_terminal_as_data() {
        let text = r#"{"schema": "unixbench-lmbench", "schema_version": 1,
            "host": {"name": "a\u001b]0;owned\u0007b", "os": "L\u202einux\u001b[2J"},
            "figures": {"lat_syscall\u001b[H": 0.1}, "notes": {"lat_udp": "x\u200by\n"}}"#;
        let res = from_json(text).unwrap();
        assert_eq!(res.host, "a\\x1b]0;owned\\x07b");
        assert_eq!(res.os, "L\\u{202e}inux\\x1b[2J");
        assert!(res.figures.contains_key("lat_syscall\\x1b[H"));
        let notes: Vec<&String> = res.notes.values().collect();
        assert_eq!(notes, ["x\\u{200b}y\\n"]);
    }

    #[test]
    fn errors_name_the_place() {
        assert!(parse("{\"a\" 1}").is_err());
        assert!(parse("[1,").is_err());
        assert!(parse("{} x").is_err());
    }
}
