//! The one version: ours, and the UnixBench whose semantics we follow. Every string that names
//! either is made here.

/// Our version number.
pub const NUMBER: &str = env!("CARGO_PKG_VERSION");

/// What `--version` prints.
pub const LINE: &str =
    concat!("unixbench ", env!("CARGO_PKG_VERSION"), " (BYTE UNIX Benchmarks 6.0.0-compatible)\n");

/// The version the reports and results files record: UnixBench's, then ours.
pub const REPORT: &str = concat!("6.0.0-compatible; unixbench ", env!("CARGO_PKG_VERSION"));

/// The tool and its version, as files that record what made them say it: `unixbench 0.1.0`.
pub const TOOL: &str = concat!("unixbench ", env!("CARGO_PKG_VERSION"));

/// What this binary was built as: the target triple and the commit of its tree, which the top
/// package's build script finds (`--version` and the results JSON say them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Build {
    pub target: &'static str,
    pub commit: &'static str,
}

impl Default for Build {
    fn default() -> Build {
        Build { target: "unknown", commit: "unknown" }
    }
}

impl Build {
    /// `built for x86_64-unknown-linux-musl from commit 0123456789ab`.
    pub fn line(&self) -> String {
        format!("built for {} from commit {}", self.target, self.commit)
    }
}

/// The build, set once as the binary starts (only the top package knows it); the default
/// before.
static BUILD: std::sync::OnceLock<Build> = std::sync::OnceLock::new();

pub fn set_build(b: Build) {
    let _ = BUILD.set(b);
}

pub fn build() -> Build {
    BUILD.get().copied().unwrap_or_default()
}

/// What `--version` prints: the version line, then what this binary was built as.
pub fn full() -> String {
    format!("{LINE}{}\n", build().line())
}
