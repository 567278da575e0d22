//! The one version string: what `--version` prints, for the binary and the driver alike.

/// What `--version` prints.
pub const LINE: &str =
    concat!("unixbench ", env!("CARGO_PKG_VERSION"), " (BYTE UNIX Benchmarks 6.0.0-compatible)\n");

/// The tool and its version, as files that record what made them say it: `unixbench 0.1.0`.
pub const TOOL: &str = concat!("unixbench ", env!("CARGO_PKG_VERSION"));
