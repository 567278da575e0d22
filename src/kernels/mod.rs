//! One file per UnixBench program family. Each file begins with what it ports and how it
//! deviates; each exposes `main(argv) -> Result` for the applet table. Kernels print only the
//! protocol (through `crate::protocol`) and their C program's free-form stdout.

pub mod arith;
pub mod context;
pub mod dhry;
pub mod execl;
pub mod fstime;
pub mod hanoi;
pub mod lmbench;
pub mod looper;
pub mod pipe;
pub mod spawn;
pub mod syscall;
pub mod whets;
