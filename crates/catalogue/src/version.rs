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

/// Whose semantics a run follows where the two releases give different figures
/// (docs/ORIGINAL.md, "5.1.3 semantics"): 6.0.0's by default, 5.1.3's when asked, because most
/// published scores were made by 5.1.3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Semantics {
    #[default]
    V6,
    V513,
}

/// The variable the applets read and the driver sets for its copies (`--semantics`), so that
/// UnixBench's own Perl `Run` can drive the applets with either.
pub const SEMANTICS_VAR: &str = "UB_SEMANTICS";
/// The releases by the names `--semantics` and `UB_SEMANTICS` take (`6.0.0` and empty are
/// 6.0's too, offered by no list).
pub const SEMANTICS: [(&str, Semantics); 2] = [("6.0", Semantics::V6), ("5.1.3", Semantics::V513)];
/// Their names, for help, errors and completions.
pub const SEMANTICS_NAMES: [&str; 2] = [SEMANTICS[0].0, SEMANTICS[1].0];

impl Semantics {
    /// A value of `--semantics` or `UB_SEMANTICS` (empty: the default).
    pub fn parse(v: &str) -> Option<Semantics> {
        match v {
            "" | "6.0.0" => Some(Semantics::V6),
            _ => SEMANTICS.iter().find(|(n, _)| *n == v).map(|&(_, s)| s),
        }
    }

    /// The choice in the environment, or a message naming the bad value.
    pub fn from_env() -> Result<Semantics, String> {
        let v = std::env::var_os(SEMANTICS_VAR).unwrap_or_default();
        v.to_str().and_then(Semantics::parse).ok_or_else(|| {
            format!("{SEMANTICS_VAR}='{}': not one of {}", v.to_string_lossy(), SEMANTICS_NAMES.join(", "))
        })
    }

    /// The applets' view: the environment's choice, the default when it is bad (a kernel run
    /// by hand should not fail on it; the driver refuses a bad value before any copy starts).
    pub fn of_applet() -> Semantics {
        Semantics::from_env().unwrap_or_default()
    }

    /// The UnixBench release, as its banner names it.
    pub fn release(self) -> &'static str {
        match self {
            Semantics::V6 => "6.0.0",
            Semantics::V513 => "5.1.3",
        }
    }

    /// The version string of the banner and the reports, e.g. `5.1.3-compatible; unixbench 0.1.0`.
    pub fn report(self) -> String {
        match self {
            Semantics::V6 => REPORT.to_string(),
            Semantics::V513 => format!("{}-compatible; {TOOL}", self.release()),
        }
    }

    /// The semantics of a report whose banner says `Version <version>` (ours or C's): 5.x
    /// releases are 5.1.3's (`5.1.3`, `5.1.3-compatible; ...`), anything else 6.0.0's.
    pub fn of_version(version: &str) -> Semantics {
        if version.trim_start().starts_with("5.") {
            Semantics::V513
        } else {
            Semantics::V6
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_by_name_and_by_banner() {
        assert_eq!(Semantics::parse(""), Some(Semantics::V6));
        assert_eq!(Semantics::parse("6.0"), Some(Semantics::V6));
        assert_eq!(Semantics::parse("5.1.3"), Some(Semantics::V513));
        assert_eq!(Semantics::parse("5"), None);
        assert_eq!(Semantics::V6.report(), REPORT);
        assert!(Semantics::V513.report().starts_with("5.1.3-compatible; unixbench "));
        for (v, s) in [
            ("5.1.3", Semantics::V513),
            ("5.1.3-compatible; unixbench 0.1.0", Semantics::V513),
            ("5.1.2", Semantics::V513),
            ("6.0.0", Semantics::V6),
            ("6.0.0-compatible; unixbench 0.1.0", Semantics::V6),
            ("unknown", Semantics::V6),
        ] {
            assert_eq!(Semantics::of_version(v), s, "{v}");
        }
    }
}
