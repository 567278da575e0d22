//! The tests that run host tools under `looper` (shell1/8/16, C, dc, grep): their command lines
//! and input files come from the work directory, which writes the scripts and data. A missing
//! tool (no `cc`, no `dc`, no /bin/sh) skips the test with a one-line reason.
//!
//! Integration point: [`command`] is the one call site; the shell-test work provides the
//! real lookup in `crate::workdir`.

use crate::workdir::WorkDir;
use std::ffi::OsString;
use std::path::PathBuf;

/// How to run one host test: argv (argv[0] = an applet of this binary, normally `looper`) and
/// the file its stdin reads, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct HostCommand {
    pub argv: Vec<OsString>,
    pub stdin: Option<PathBuf>,
}

/// The command of host test `name` running for `secs` seconds, or why it is skipped.
pub fn command(name: &str, _wd: &WorkDir, _secs: u32) -> Result<HostCommand, String> {
    Err(format!("the '{name}' test's scripts and data are not part of this build yet"))
}
