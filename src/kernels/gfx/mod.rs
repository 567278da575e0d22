//! The 2D graphics groups (`2d-rects` ... `2d-window`): UnixBench's `gfx-x11` and the parts of
//! `x11perf` it runs, drawn through Xlib in-process.
//!
//! `gfx-x11 <group> <reps> <time>` runs `x11perf -repeat <reps> -subs 25 -time <time> -<test>`
//! for each of its group's four tests, keeps the rate of the last `trep` line, scores it as
//! rate / reference x 1000 and prints the mean as `COUNT|%.1f|0|score`. Here `2d-<group>
//! [REPEAT [SECONDS]]` (defaults 3 and 2, what Run passes) does the same with x11perf's own
//! rules ([`harness`]): a 600x600 override-redirect window at (2, 2), the `HardwareSync`
//! round trip (a 1x1 `XGetImage`) around every timed pass with its calibrated cost
//! subtracted, calibration to 2-2.5 s then reps scaled to SECONDS and rounded up to one
//! significant digit, REPEAT timed passes, the `reps @ msec (/sec)` and `trep` lines with
//! rates rounded to 3 digits. Each workload ports its x11perf test: shapes, sizes, GC
//! settings and objects per request as `do_tests.c` defines them.
//!
//! Deviations: one calibration of the sync cost per group (x11perf, started once per test,
//! does it four times; the figure is the same quantity). Tiles and stipples are generated
//! patterns of x11perf's sizes (17x15, 216x208), not x11perf's bitmaps. A workload whose set-up
//! the server cannot provide (Xvfb's Render has no 4-bit alpha format for `aa4trap300`) prints
//! `skipped <test>: ...` and scores 0, where x11perf crashes and gfx-x11 fails the group.
//! With REPEAT 1 there is no `trep` line, so every rate is 0, as gfx-x11 reads it.
//!
//! Exit status: 0 after the COUNT line; 2 for a bad command line; 3 when there is no X display
//! (`DISPLAY` unset or the server refuses): one line on stderr containing `skipped: no X
//! display`, nothing on stdout, so a driver can skip the test. Hidden options for the tests:
//! `--reps N` fixes the reps per pass (x11perf's `-reps`, skipping calibration) and
//! `--verify` reads the window back after one fresh rep of each workload and fails (exit 1)
//! when nothing was drawn; `--list-workloads` prints the
//! group's x11perf test names with their objects per rep and `--test NAME` runs only that workload of the group (the fidelity
//! bench alternates it with x11perf's run of the same test).

mod aatraps;
mod arcs;
mod blt;
pub mod groups;
mod harness;
mod lines;
mod polys;
mod rects;
mod text;
mod windows;

use crate::args;
use crate::error::{Error, Result};
use crate::protocol;
use crate::sys::x11::Display;
use std::ffi::OsString;
use std::io::Write;

/// The exit status of a graphics applet that found no X display.
pub const NO_DISPLAY_EXIT: i32 = 3;

/// Opens $DISPLAY or returns the "skipped: no X display" error (exit 3).
pub fn open_display() -> Result<Display> {
    match std::env::var_os("DISPLAY") {
        None => Err(Error::failed_with(NO_DISPLAY_EXIT, "skipped: no X display (DISPLAY is unset)")),
        Some(name) => Display::open().ok_or_else(|| {
            Error::failed_with(
                NO_DISPLAY_EXIT,
                format!("skipped: no X display (cannot open display '{}')", name.to_string_lossy()),
            )
        }),
    }
}

/// Options of a 2D group applet.
struct Opts {
    repeat: u32,
    seconds: u32,
    fixed_reps: u64,
    verify: bool,
    only: Option<String>,
    list: bool,
}

fn parse(args: &[OsString]) -> Result<Opts> {
    let mut o = Opts { repeat: 3, seconds: 2, fixed_reps: 0, verify: false, only: None, list: false };
    let mut pos = 0;
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        match a.to_str() {
            Some("--verify") => o.verify = true,
            Some("--list-workloads") => o.list = true,
            Some("--test") => {
                let v = it.next().ok_or_else(|| Error::usage("--test needs a workload name"))?;
                o.only = Some(v.to_string_lossy().into_owned());
            }
            Some("--reps") => {
                let v = it.next().ok_or_else(|| Error::usage("--reps needs a number"))?;
                o.fixed_reps = args::parse_uint("reps", v, 1, 1_000_000_000)?;
            }
            _ if pos == 0 => {
                o.repeat = args::parse_uint("repeat count", a, 1, 1000)? as u32;
                pos += 1;
            }
            _ if pos == 1 => {
                o.seconds = args::parse_uint("seconds", a, 1, 3600)? as u32;
                pos += 1;
            }
            _ => {
                return Err(Error::usage(format!(
                    "unexpected argument '{}': expected [REPEAT [SECONDS]]",
                    a.to_string_lossy()
                )))
            }
        }
    }
    Ok(o)
}

/// Entry of every `2d-<group>` applet.
pub fn main(argv: Vec<OsString>) -> Result {
    let name = argv[0].to_string_lossy().into_owned();
    let group = groups::group(name.trim_start_matches("2d-"))
        .ok_or_else(|| Error::usage(format!("unknown 2D group '{name}'")))?;
    let o = parse(&argv)?;
    let tests: Vec<&str> = match &o.only {
        None => group.tests.to_vec(),
        Some(t) if group.tests.contains(&t.as_str()) => vec![t.as_str()],
        Some(t) => return Err(Error::usage(format!("--test: '{t}' is not a workload of {name}"))),
    };
    if o.list {
        for t in &tests {
            let spec = groups::spec(t).expect("group tests are in the table");
            let objects = if spec.kind == harness::Kind::Window { 25 } else { spec.parms.objects };
            println!("{t} {objects}");
        }
        return Ok(());
    }
    let d = open_display()?;
    let mut x = harness::X11Perf::new(d, o.repeat, o.seconds, o.fixed_reps, o.verify);
    let mut total = 0.0;
    for t in &tests {
        let spec = groups::spec(t).expect("group tests are in the table");
        let rate = x.process(spec)?;
        let score = rate / spec.reference * 1000.0;
        // gfx-x11 prints the rate with Perl's %d: truncated.
        println!("Test {}: {} --> {:.1}", spec.name, rate as i64, score);
        total += score;
    }
    x.finish();
    let _ = std::io::stdout().flush();
    protocol::emit(&protocol::rate(total / tests.len() as f64, 1, "score"));
    Ok(())
}
