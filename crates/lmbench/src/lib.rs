//! The measuring half of the `lmbench` applet: lmbench's timing harness ([`harness`], its
//! `benchmp`) and, one module per group of lmbench programs, the loops it times, with their
//! page-aligned buffers ([`valloc`]) and helper processes ([`child`]). Built at opt-level 3 like
//! the binary's kernels. The other half, which chooses the figures, runs these and prints
//! lmbench's table and JSON, is cold code: `run::lmbench`, built for size.
//!
//! The entry points the cold half calls are `#[inline(never)]`: with link-time optimisation a
//! function called from one place would otherwise be inlined into its caller, and its timed
//! loop compiled for size with it.

pub(crate) use base::sys;

pub mod child;
pub mod ctx;
pub mod harness;
pub mod ipc;
pub mod memory;
pub mod procs;
pub mod valloc;
pub mod vm;
