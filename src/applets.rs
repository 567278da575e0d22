//! The applet table: every program this binary can be, declared once. Dispatch, `--list`,
//! `--install`, `--help` and the README's kernel table all come from [`APPLETS`].
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
        args: "",
        about: "Double-precision Whetstone (MWIPS), about 10 s",
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
        args: "[-c|-r|-w] [-b BUFSIZE] [-m MAX_BLOCKS] [-t SECONDS] [-d DIR]",
        about: "File write, read and copy throughput",
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
        entry: kernels::lmbench::main,
    },
    Applet {
        name: "looper",
        args: "[-i FILE] DURATION COMMAND [ARGS...]",
        about: "Runs a command over and over (shell, C, dc, grep tests); -i: FILE on each run's stdin",
        entry: kernels::looper::main,
    },
    Applet {
        name: "workdir",
        args: "DIR [TEST [SECONDS]]",
        about: "Writes the shell, C, dc and grep tests' files into DIR; prints TEST's command line",
        entry: crate::workdir::main,
    },
];

/// The applet called `name`, if any.
pub fn find(name: &str) -> Option<&'static Applet> {
    APPLETS.iter().find(|a| a.name == name)
}

/// The usage line of an applet.
pub fn usage(a: &Applet) -> String {
    if a.args.is_empty() {
        format!("Usage: {}\n{}\n", a.name, a.about)
    } else {
        format!("Usage: {} {}\n{}\n", a.name, a.args, a.about)
    }
}
