//! The `lmbench` applet: lmbench 3's summary figures for this host, measured the lmbench way and
//! printed in its summary table. [`command`] parses the options and measures each figure of
//! the one table of figures ([`figures`]: key, section, column, how it is measured), by the
//! loops and the harness of `lmbench-timed`, the crate beside this one; [`table`] prints
//! lmbench's table and footnotes, [`results`] writes the results file and reads it back for
//! `--summary`.
//!
//! Two crates rather than one only for the optimisation level (Cargo.toml): the timed loops at
//! opt-level 3, this cold code for size.

pub(crate) use base::{error, fmt, json, selfexe, sys};
pub(crate) use lmbench_timed::{ctx, harness, ipc, memory, procs, vm};

pub mod command;
pub mod figures;
pub mod results;
pub mod table;

pub use command::{main, COMMAND};
