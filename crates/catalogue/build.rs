//! Turns `baselines.txt` into a Rust table (`$OUT_DIR/baselines.rs`) that `src/baselines/mod.rs`
//! includes. A malformed line fails the build with `baselines.txt:<line>: <problem>`, so a typo
//! can never ship as a silently missing baseline.

#[path = "src/baselines/parse.rs"]
mod parse;

use std::{env, fs, path::Path, process};

fn main() {
    println!("cargo:rerun-if-changed=../../baselines.txt");
    println!("cargo:rerun-if-changed=src/baselines/parse.rs");
    let text = fs::read_to_string("../../baselines.txt").unwrap_or_else(|e| {
        eprintln!("error: baselines.txt: cannot read: {e}");
        process::exit(1)
    });
    let rows = parse::parse(&text).unwrap_or_else(|(line, msg)| {
        eprintln!("error: baselines.txt:{line}: {msg}");
        process::exit(1)
    });
    let mut out = String::from("&[\n");
    for r in rows {
        out.push_str(&format!(
            "    Baseline {{ test: {:?}, category: {:?}, unit: {:?}, score: {:?} }},\n",
            r.test, r.category, r.unit, r.score
        ));
    }
    out.push_str("]\n");
    fs::write(Path::new(&env::var("OUT_DIR").unwrap()).join("baselines.rs"), out).unwrap();
}
