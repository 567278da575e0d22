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

/// Every file under `dir`, recursively.
fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The section titles of docs/ORIGINAL.md: its headings, outside code blocks, without the `#`s.
fn original_titles(doc: &str) -> Vec<&str> {
    let mut in_code = false;
    let mut titles = Vec::new();
    for l in doc.lines() {
        if l.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && l.starts_with('#') {
            titles.push(l.trim_start_matches('#').trim());
        }
    }
    titles
}

/// The titles a reference names, from the text after its comma: `"A"`, `"A" and "B"`,
/// `"A", "B" and "C"`; None when the text does not start with a quoted title.
fn cited_titles(mut rest: &str) -> Option<Vec<&str>> {
    let mut titles = Vec::new();
    loop {
        let body = rest.strip_prefix('"')?;
        let end = body.find('"')?;
        titles.push(&body[..end]);
        rest = &body[end + 1..];
        match [", \"", " and \""].iter().find(|sep| rest.starts_with(**sep)) {
            Some(sep) => rest = &rest[sep.len() - 1..],
            None => return Some(titles),
        }
    }
}

/// What the code says about the original suite is cited from the repository's own account of it,
/// docs/ORIGINAL.md: no file names the notes this project started from (they are not in the
/// repository), and every reference into the page, written `docs/ORIGINAL.md, "Tests"` on one
/// line, names a heading it has, so a renamed section cannot leave a reference dangling.
#[test]
fn references_to_the_original_point_into_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/ORIGINAL.md")).unwrap();
    let titles = original_titles(&doc);
    for (i, t) in titles.iter().enumerate() {
        assert!(!titles[i + 1..].contains(t), "docs/ORIGINAL.md has two sections titled {t:?}");
    }
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "bench", "docs", "data"] {
        if root.join(dir).is_dir() {
            all_files(&root.join(dir), &mut files);
        }
    }
    for f in ["README.md", "ARCHITECTURE.md", "Makefile", "build.rs", "Cargo.toml", "baselines.txt"] {
        if root.join(f).is_file() {
            files.push(root.join(f));
        }
    }
    // Spelt in pieces, so that this file does not match itself.
    let outside = [concat!("SPEC", ".md"), concat!("DECISIONS", ".md")];
    let needle = concat!("ORIGINAL", ".md,");
    let mut bad = Vec::new();
    let mut cited = 0;
    for p in &files {
        // Binary files (none is expected, but a stray build product may be) hold no references.
        let Ok(text) = std::fs::read_to_string(p) else { continue };
        let name = p.strip_prefix(root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            let at = format!("{name}:{}", n + 1);
            for o in outside {
                if line.contains(o) {
                    bad.push(format!("{at}: cites {o}, which is not in the repository"));
                }
            }
            for (i, _) in line.match_indices(needle) {
                match cited_titles(line[i + needle.len()..].trim_start_matches(' ')) {
                    None => bad.push(format!("{at}: a reference must read {needle} \"Title\" on one line")),
                    Some(ts) => {
                        for t in ts {
                            cited += 1;
                            if !titles.contains(&t) {
                                bad.push(format!("{at}: docs/ORIGINAL.md has no section {t:?}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The walk found the code's references at all (a wrong root would pass vacuously).
    assert!(cited >= 40, "only {cited} references to docs/ORIGINAL.md found");
}

/// docs/ORIGINAL.md's table of the original's baselines and `baselines.txt`, which the binary is
/// built from, hold the same tests, categories, units and figures.
#[test]
fn original_baselines_match_baselines_txt() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/ORIGINAL.md")).unwrap();
    let section = doc.split("\n## Baselines\n").nth(1).unwrap().split("\n## ").next().unwrap();
    let mut from_doc: Vec<(String, String, String, f64)> = section
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("| test ") && !l.starts_with("|---"))
        .map(|l| {
            let c: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            (c[0].to_string(), c[1].to_string(), c[2].to_string(), c[3].parse().unwrap())
        })
        .collect();
    let txt = std::fs::read_to_string(root.join("baselines.txt")).unwrap();
    let mut from_txt: Vec<(String, String, String, f64)> = txt
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            (c[0].to_string(), c[1].to_string(), c[2].to_string(), c[3].parse().unwrap())
        })
        .collect();
    from_doc.sort_by(|a, b| a.0.cmp(&b.0));
    from_txt.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(from_doc.len(), 21);
    assert_eq!(from_doc, from_txt);
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
