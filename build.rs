//! The top package's own build work: what `unixbench --version` says it was built as, the
//! target triple cargo builds for and the commit of the tree it was built from.
//!
//! The commit comes from git when the tree is a clone (else `unknown`, as in a source tarball),
//! with `-dirty` when tracked files differ from it; nothing of the machine that builds (its
//! paths, its clock) goes in, so two clean clones of one commit build the same bytes.

use std::process::Command;

fn main() {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=UNIXBENCH_TARGET={target}");
    println!("cargo:rustc-env=UNIXBENCH_COMMIT={}", commit());
    // The commit moves with HEAD and the index; a missing path only makes cargo look again.
    for p in [".git/HEAD", ".git/index", ".git/refs/heads", ".git/packed-refs"] {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}

fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git").args(args).output().ok()?;
    o.status.success().then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn commit() -> String {
    let Some(hash) = git(&["rev-parse", "--short=12", "HEAD"]).filter(|h| !h.is_empty()) else {
        return "unknown".into();
    };
    match git(&["status", "--porcelain", "--untracked-files=no"]) {
        Some(s) if !s.is_empty() => format!("{hash}-dirty"),
        _ => hash,
    }
}
