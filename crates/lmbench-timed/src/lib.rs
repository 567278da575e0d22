//! The measuring half of lmbench (the applet is the crate `lmbench`, beside this one):
//! lmbench's timing harness ([`harness`], its `benchmp`) and, one module per group of lmbench
//! programs, the loops it times ([`memory`], [`ipc`], [`ctx`], [`procs`], [`vm`]), with their
//! page-aligned buffers ([`valloc`]) and helper processes ([`child`]).
//!
//! A crate of its own because it is built at opt-level 3, as the kernels are, while the applet
//! around it is built for size. The entry points the applet calls are `#[inline(never)]`: with
//! link-time optimisation a function called from one place would otherwise be inlined into its
//! caller, and its timed loop compiled for size with it.

pub(crate) use base::sys;

pub mod child;
pub mod ctx;
pub mod harness;
pub mod ipc;
pub mod memory;
pub mod procs;
pub mod valloc;
pub mod vm;
