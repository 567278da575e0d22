//! `execl DURATION`: port of UnixBench's `execl.c`, "Execl Throughput".
//!
//! The program re-executes itself until `time()` (whole seconds) says DURATION has passed, then
//! prints `COUNT|n|1|lps`, n being the number of images executed, the first included. State
//! travels in argv as in C: a re-executed image gets `0 DURATION ITER START_TIME` after the
//! program name (C: `<path> 0 <duration> <iter> <start_time>`). Because of the 1-second clock a
//! run lasts between DURATION-1 and DURATION seconds; execl prints no TIME line, so Run divides
//! by the wall time it measured itself.
//!
//! The image: C finds itself as `$UB_BINDIR/execl`; we never read UB_BINDIR but use our own file
//! (`crate::selfexe::path()`: /proc/self/exe, else an absolute argv[0], else a PATH search). The
//! re-exec's argv[0] is that absolute path, so a re-executed image again knows its file from
//! argv[0] alone, as C's does, and needs no /proc. When the file is not itself called `execl`,
//! the subcommand form `<path> execl 0 ...` makes dispatch land here again.
//!
//! The image timed: C's execl is a dynamically linked image, enlarged on purpose with big.c and
//! an 8 KiB BSS array, so every exec runs the dynamic loader. By default the first invocation
//! therefore hands the chain to the dynamically linked twin of that program
//! (`twin::stage`, built from crates/twin/programs/execl.rs), with the same argv protocol; the
//! static chain below runs where no twin can (`UB_EXEC_IMAGE=static`, no loader, a twin that
//! fails its check), and then scores several times C's figure (docs/FIDELITY.md).
//! Also: the arguments are parsed strictly (C: `atoi`), and `Exec failed at iteration N` carries
//! its reason on the same line.

use crate::args;
use crate::error::{Error, Result};
use crate::kernels::reason;
use crate::protocol;
use crate::selfexe;
use crate::sys::{clock, proc};
use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use twin::stage;

/// Where this image is in the chain of executions.
#[derive(Debug, PartialEq)]
struct State {
    duration: u32,
    /// Images executed before this one.
    iter: u64,
    /// `time()` at the first image; None when this is the first.
    start: Option<i64>,
}

fn parse(args: &[OsString]) -> Result<State> {
    match args {
        [_, zero, dur, iter, start] if zero == "0" => Ok(State {
            duration: args::parse_duration(dur)?,
            iter: args::parse_uint("iteration count", iter, 0, u64::MAX / 2)?,
            start: Some(args::parse_uint("start time", start, 0, i64::MAX as u64)? as i64),
        }),
        _ => Ok(State { duration: args::duration_only(args)?, iter: 0, start: None }),
    }
}

/// The file to execute: argv[0] when a previous image of the chain put our absolute path
/// there, else a fresh search.
fn image(state: &State) -> Result<PathBuf> {
    if state.start.is_some() {
        if let Some(a) = selfexe::argv0().filter(|a| a.as_bytes().starts_with(b"/")) {
            return Ok(PathBuf::from(a));
        }
    }
    selfexe::path().map_err(Error::failed)
}

pub fn main(args: Vec<OsString>) -> Result {
    let state = parse(&args)?;
    if state.start.is_none() {
        match stage::prepare("execl")? {
            stage::Image::Dynamic(t) => {
                let (dur, start) = (state.duration.to_string(), clock::time().to_string());
                return t.run(&[OsStr::new("0"), OsStr::new(&dur), OsStr::new("0"), OsStr::new(&start)]);
            }
            stage::Image::Static(why) => stage::announce_static(&why),
        }
    }
    let path = image(&state)?;
    let start = state.start.unwrap_or_else(clock::time);
    let iter = state.iter + 1;
    if clock::time() - start >= i64::from(state.duration) {
        protocol::emit(&protocol::count(iter, 1, "lps"));
        return Ok(());
    }
    let (dur, it, st) = (state.duration.to_string(), iter.to_string(), start.to_string());
    let named_execl = path.file_name() == Some(OsStr::new("execl"));
    let mut argv: Vec<&OsStr> = vec![path.as_os_str()];
    if !named_execl {
        argv.push(OsStr::new("execl"));
    }
    argv.extend([OsStr::new("0"), OsStr::new(&dur), OsStr::new(&it), OsStr::new(&st)]);
    let fail = |e: std::io::Error| Error::failed(format!("Exec failed at iteration {iter}: {}", reason(&e)));
    let cpath = CString::new(path.as_os_str().as_bytes()).map_err(|e| fail(e.into()))?;
    let argv = proc::Argv::new(argv).map_err(fail)?;
    Err(fail(proc::execv(&cpath, &argv)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn first_and_chained_invocations() {
        assert_eq!(parse(&os(&["execl", "30"])).unwrap(), State { duration: 30, iter: 0, start: None });
        assert_eq!(
            parse(&os(&["execl", "0", "30", "17", "1700000000"])).unwrap(),
            State { duration: 30, iter: 17, start: Some(1700000000) }
        );
        for bad in
            [&["execl", "0"][..], &["execl", "0", "30", "x", "1"], &["execl", "0", "30", "1"], &["execl"]]
        {
            assert_eq!(parse(&os(bad)).unwrap_err().exit_code(), 2, "{bad:?}");
        }
    }
}
