//! `spawn DURATION`: port of UnixBench's `spawn.c`, "Process Creation".
//!
//! Each iteration forks; the child `_exit(0)`s at once; the parent `wait()`s for it and checks
//! the status (`Bad wait status: 0x%x`, exit 2, as C). SIGALRM prints `COUNT|n|1|lps` and exits.
//!
//! The image timed: C's spawn is dynamically linked, so each fork copies a process with the C
//! library mapped. By default the applet runs the dynamically linked twin of that program
//! (`twin::stage`, built from crates/twin/programs/spawn.rs) with the same argument; the loop below,
//! in this static image, runs where no twin can and scores well above C (docs/FIDELITY.md).
//!
//! Deviations: the duration is parsed strictly (C: `atoi`). C's child calls `exit(0)`, which
//! flushes stdio buffers that are empty here; ours calls `_exit(0)`, the same system call. A
//! failed fork prints one line, `Fork failed at iteration N: <reason>` (C prints the reason on a
//! second line through perror), and exits 2 as C does. Nothing is left to reap: the iteration
//! that failed has no child and every earlier one was waited for.

use crate::args;
use crate::error::{Error, Result};
use crate::kernels::reason;
use crate::sys::proc;
use crate::timing::{self, tick, Unit};
use std::ffi::{OsStr, OsString};
use twin::stage;

pub fn main(args: Vec<OsString>) -> Result {
    let duration = args::duration_only(&args)?;
    match stage::prepare("spawn")? {
        stage::Image::Dynamic(t) => return t.run(&[OsStr::new(&duration.to_string())]),
        stage::Image::Static(why) => stage::announce_static(&why),
    }
    timing::report_on_alarm(duration, Unit::Lps);
    loop {
        match proc::fork() {
            Ok(proc::Fork::Child) => proc::exit_now(0),
            Ok(proc::Fork::Parent(_)) => {
                // C ignores wait's return and reads `status` regardless; a failed wait (no child
                // left, which cannot happen here) is reported instead of reading garbage.
                let status = loop {
                    match proc::wait_any() {
                        Ok((_, status)) => break status,
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                        Err(e) => return Err(Error::failed_with(2, format!("wait failed: {}", reason(&e)))),
                    }
                };
                if status != 0 {
                    return Err(Error::failed_with(2, format!("Bad wait status: 0x{status:x}")));
                }
            }
            Err(e) => {
                return Err(Error::failed_with(
                    2,
                    format!("Fork failed at iteration {}: {}", timing::count(), reason(&e)),
                ))
            }
        }
        tick();
    }
}
