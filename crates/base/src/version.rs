//! The one version: ours, and the UnixBench whose semantics we follow. Every string that names
//! either is made here.

/// Our version number.
pub const NUMBER: &str = env!("CARGO_PKG_VERSION");

/// What `--version` prints, naming the target the binary was built for (one binary per CPU
/// and C library: which one a host has is the first question about it).
pub const LINE: &str = concat!(
    "unixbench ",
    env!("CARGO_PKG_VERSION"),
    " (BYTE UNIX Benchmarks 6.0.0-compatible) for ",
    env!("UNIXBENCH_TARGET"),
    "\n"
);

/// The version the reports and results files record: UnixBench's, then ours.
pub const REPORT: &str = concat!("6.0.0-compatible; unixbench ", env!("CARGO_PKG_VERSION"));

/// The tool and its version, as files that record what made them say it: `unixbench 0.1.0`.
pub const TOOL: &str = concat!("unixbench ", env!("CARGO_PKG_VERSION"));
