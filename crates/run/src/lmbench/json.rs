//! The results file: a small JSON document of our own schema, written here and read back
//! with the project's JSON reader (`crate::json`, no dependency).
//!
//! ```json
//! {"schema": "unixbench-lmbench", "schema_version": 1,
//!  "host": {"name": "box", "os": "Linux 6.1.0", "machine": "x86_64"},
//!  "params": {"enough_us": 100000, "tries": 11, ...},
//!  "figures": {"lat_syscall": 0.1160, ...},
//!  "notes": {"lat_rpc_udp_local": "not measured: ..."}}
//! ```
//! Figures are in the units of the summary table (microseconds, MB/s, nanoseconds, MHz); a
//! figure that could not be measured is absent from "figures" and has an entry in "notes".

pub use crate::json::{number, quote, Value};

/// An object of members (name, JSON text) in the order given, one per line, indented by
/// `indent` spaces.
pub fn object_lines(members: &[(&str, String)], indent: usize) -> String {
    let pad = " ".repeat(indent);
    let body: Vec<String> = members.iter().map(|(k, v)| format!("{pad}  {}: {v}", quote(k))).collect();
    if body.is_empty() {
        "{}".to_string()
    } else {
        format!("{{\n{}\n{pad}}}", body.join(",\n"))
    }
}

/// Parses a JSON text; Err names the line and column of the problem.
pub fn parse(text: &str) -> Result<Value, String> {
    crate::json::parse(text).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn errors_name_the_place() {
        assert!(parse("{\"a\" 1}").is_err());
        assert!(parse("[1,").is_err());
        assert!(parse("{} x").is_err());
    }
}
