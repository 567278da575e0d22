//! The applet table: every program this binary can be, declared once. Dispatch, `--list`,
//! `--install` and `--help` come from [`APPLETS`]; the README's table of programs is written by
//! hand, and a test (`dispatch::`) checks that it names every applet.
//!
//! An applet is entered with its full argv, argv[0] being its own name, however it was invoked
//! (`./pipe 10` through a link or `unixbench pipe 10`), so both forms parse the same way.

use crate::error::Result;
use crate::kernels;
use std::ffi::OsString;

/// Every applet has this entry signature: its argv (argv[0] = applet name) in, success or an
/// [`crate::error::Error`] carrying the exit status out.
pub type Entry = fn(Vec<OsString>) -> Result;

/// One program of the multicall binary.
pub struct Applet {
    /// The name it answers to, as the UnixBench program is called.
    pub name: &'static str,
    /// Its arguments, as in a usage line after the name.
    pub args: &'static str,
    /// What it measures, one line.
    pub about: &'static str,
    /// The function that runs it.
    pub entry: Entry,
}

/// `Run`: the driver with Run's command line, whatever its first word (`./Run fstime -c 2`).
/// Through a link named `Run`, its directories are beside the link as it was invoked (argv[0]
/// as given, not the applet name), as Run's are beside it; `unixbench Run ...` keeps the
/// driver's usual ones, never the binary's own directory.
fn run_driver(mut argv: Vec<OsString>) -> Result {
    argv.remove(0);
    driver::main_as_invoked(argv)
}

/// The programs' names, as `--install`, `--dropin` and the completions list them.
pub fn names() -> Vec<&'static str> {
    APPLETS.iter().map(|a| a.name).collect()
}

/// All applets, in the order `--list` prints them.
pub static APPLETS: &[Applet] = &[
    Applet {
        name: "dhry2reg",
        args: "DURATION",
        about: "Dhrystone 2.1 (register variables)",
        entry: kernels::dhry::main,
    },
    Applet {
        name: "dhry2",
        args: "DURATION",
        about: "Dhrystone 2.1 (without register)",
        entry: kernels::dhry::main,
    },
    Applet {
        name: "whetstone-double",
        args: "[SECONDS]",
        about: "Double-precision Whetstone (MWIPS): calibrates, then runs about SECONDS (10)",
        entry: kernels::whets::main,
    },
    Applet {
        name: "syscall",
        args: "DURATION [mix|close|getpid|exec]",
        about: "System call overhead",
        entry: kernels::syscall::main,
    },
    Applet {
        name: "pipe",
        args: "DURATION",
        about: "Pipe throughput: 512-byte write and read on one pipe",
        entry: kernels::pipe::main,
    },
    Applet {
        name: "context1",
        args: "DURATION",
        about: "Pipe-based context switching between two processes",
        entry: kernels::context::main,
    },
    Applet {
        name: "spawn",
        args: "DURATION",
        about: "Process creation: fork, exit, wait",
        entry: kernels::spawn::main,
    },
    Applet {
        name: "execl",
        args: "DURATION",
        about: "Execl throughput: the program re-executes itself",
        entry: kernels::execl::main,
    },
    Applet {
        name: "fstime",
        args: "[-c|-r|-w] [-b BUFSIZE] [-m MAX_BLOCKS] [-t SECONDS] [-d DIR] [-s SETTLE]",
        about: "File write, read and copy throughput (-s: settle pauses and priming phases, 2 s)",
        entry: kernels::fstime::main,
    },
    Applet {
        name: "arithoh",
        args: "DURATION",
        about: "Arithmetic loop overhead",
        entry: kernels::arith::main,
    },
    Applet {
        name: "register",
        args: "DURATION",
        about: "Arithmetic test (register int)",
        entry: kernels::arith::main,
    },
    Applet { name: "short", args: "DURATION", about: "Arithmetic test (short)", entry: kernels::arith::main },
    Applet { name: "int", args: "DURATION", about: "Arithmetic test (int)", entry: kernels::arith::main },
    Applet { name: "long", args: "DURATION", about: "Arithmetic test (long)", entry: kernels::arith::main },
    Applet { name: "float", args: "DURATION", about: "Arithmetic test (float)", entry: kernels::arith::main },
    Applet {
        name: "double",
        args: "DURATION",
        about: "Arithmetic test (double)",
        entry: kernels::arith::main,
    },
    Applet {
        name: "hanoi",
        args: "DURATION [DISKS]",
        about: "Recursion: Tower of Hanoi",
        entry: kernels::hanoi::main,
    },
    Applet {
        name: "lmbench",
        args: "[-s] [--only SECTION,...] [--json FILE] [--dir DIR] | --summary FILE...",
        about: "lmbench's latency and bandwidth summary table for this host",
        entry: lmbench::main,
    },
    Applet {
        name: "looper",
        args: "[-i FILE] DURATION COMMAND [ARGS...]",
        about: "Runs a command over and over (shell, C, dc, grep tests); -i: FILE on each run's stdin",
        entry: kernels::looper::main,
    },
    Applet {
        name: "Run",
        args: "[OPTIONS] [TEST|GROUP ...]",
        about: "The driver, as UnixBench's ./Run: every word is Run's, a test name first too",
        entry: run_driver,
    },
    Applet {
        name: "workdir",
        args: "DIR [TEST [SECONDS]]",
        about: "Writes the shell, C, dc and grep tests' files into DIR; prints TEST's command line",
        entry: driver::hosttools::workdir_main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-rects",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: rectangles (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-lines",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: lines (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-circle",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: circles (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-ellipse",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: ellipses (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-shapes",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: polygons (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-aashapes",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: aa polygons (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-polys",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: complex polygons (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-text",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: text (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-blit",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: images and blits (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "2d-window",
        args: "[REPEAT [SECONDS]]",
        about: "2D graphics: windows (four x11perf workloads, scored as gfx-x11)",
        entry: kernels::gfx::main,
    },
    #[cfg(feature = "graphics")]
    Applet {
        name: "ubgears",
        args: "[-time SECONDS] [-v]",
        about: "3D graphics: gears (GLX), frames per second",
        entry: kernels::ubgears::main,
    },
];

/// The applet called `name`, if any. A build without the `graphics` feature still knows the
/// graphics applets' names, to say so ([`WITHOUT_GRAPHICS`]) rather than "unknown program".
pub fn find(name: &str) -> Option<&'static Applet> {
    APPLETS.iter().find(|a| a.name == name).or_else(|| without_graphics(name))
}

/// Exit status 2 and the line a user of a default build sees for a graphics applet.
#[cfg_attr(feature = "graphics", allow(dead_code))]
pub const WITHOUT_GRAPHICS: &str =
    "this binary was built without graphics (build unixbench-graphics: make graphics)";

/// The graphics applets of a build without them: the programs of the catalogue's graphics
/// tests, each refusing with [`WITHOUT_GRAPHICS`].
#[cfg(not(feature = "graphics"))]
fn without_graphics(name: &str) -> Option<&'static Applet> {
    fn refuse(_: Vec<OsString>) -> Result {
        Err(crate::error::Error::usage(WITHOUT_GRAPHICS))
    }
    let name = base::suite::graphics_programs().find(|p| *p == name)?;
    // Dispatch looks a name up at most twice a process: leaking the stub is simpler than a cache.
    Some(Box::leak(Box::new(Applet { name, args: "", about: "needs a build with graphics", entry: refuse })))
}

#[cfg(feature = "graphics")]
fn without_graphics(_name: &str) -> Option<&'static Applet> {
    None
}

/// The usage line of an applet.
pub fn usage(a: &Applet) -> String {
    if a.args.is_empty() {
        format!("Usage: {}\n{}\n", a.name, a.about)
    } else {
        format!("Usage: {} {}\n{}\n", a.name, a.args, a.about)
    }
}
