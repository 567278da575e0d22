//! Tidy checks on the source tree itself: invariants that review would otherwise have to catch.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// `unsafe` lives in src/sys only: kernels and the driver call its thin, documented wrappers.
#[test]
fn unsafe_only_in_sys() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| !p.starts_with(root.join("src/sys")))
        .filter(|p| {
            std::fs::read_to_string(p).unwrap().lines().any(|l| {
                let code = l.split("//").next().unwrap_or("");
                code.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "unsafe")
            })
        })
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .collect();
    assert!(offenders.is_empty(), "unsafe outside src/sys: {offenders:?}");
}

/// Every unsafe block in src/sys says why it is sound.
#[test]
fn every_unsafe_block_has_a_safety_note() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/sys"), &mut files);
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let code = l.split("//").next().unwrap_or("");
            if code.contains("unsafe {") || code.contains("unsafe{") {
                let window = &lines[i.saturating_sub(4)..=i];
                assert!(
                    window.iter().any(|w| w.contains("SAFETY")),
                    "{}:{}: unsafe block without a SAFETY note nearby",
                    p.display(),
                    i + 1
                );
            }
        }
    }
}

/// Only the three allowed dependencies.
#[test]
fn dependencies_are_libc_lexopt_oorandom() {
    let toml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let deps: Vec<&str> = toml
        .split("[dependencies]")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter_map(|l| l.split('=').next().map(str::trim))
        .filter(|n| !n.is_empty() && !n.starts_with('#'))
        .collect();
    assert_eq!(deps, ["libc", "lexopt", "oorandom"]);
}

/// The twins of execl and spawn (twin/) are programs of their own, started by the C runtime:
/// their `unsafe` lives in twin/libc.rs only, each block with its SAFETY note.
#[test]
fn twin_unsafe_only_in_its_libc_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("twin"), &mut files);
    assert!(files.len() >= 3, "twin/ holds {files:?}");
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let code = l.split("//").next().unwrap_or("");
            if !code.split(|c: char| !c.is_alphanumeric() && c != '_').any(|w| w == "unsafe") {
                continue;
            }
            assert!(p.ends_with("twin/libc.rs"), "{}:{}: unsafe outside twin/libc.rs", p.display(), i + 1);
            if code.contains("unsafe {") {
                let window = &lines[i.saturating_sub(4)..=i];
                assert!(
                    window.iter().any(|w| w.contains("SAFETY")),
                    "{}:{}: no SAFETY note",
                    p.display(),
                    i + 1
                );
            }
        }
    }
}
