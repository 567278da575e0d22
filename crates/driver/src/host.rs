//! The tests that run host programs (shell1/8/16, C, dc, grep, sysexec): their command lines
//! come from `crate::hosttools`, their scripts and data from the work directory. A missing
//! program (no `cc`, no `dc`, no /bin/sh) skips the test with a one-line reason.

use crate::workdir::WorkDir;
use std::ffi::OsString;
use std::path::PathBuf;

/// How to run one host test: argv (argv[0] = an applet of this binary: `looper`, `syscall`) and
/// the file its stdin reads, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct HostCommand {
    pub argv: Vec<OsString>,
    pub stdin: Option<PathBuf>,
}

/// The command of host test `name` running for `secs` seconds, or why it is skipped (without
/// the word "skipped", which the console and the report add).
pub fn command(name: &str, wd: &WorkDir, secs: u32) -> Result<HostCommand, String> {
    match crate::hosttools::host_test(name, wd, secs) {
        // dc reads its input through looper's -i, so no test needs a stdin of its own.
        Ok(argv) => Ok(HostCommand { argv, stdin: None }),
        Err(skip) => Err(skip.0.strip_prefix("skipped: ").unwrap_or(&skip.0).to_string()),
    }
}
