//! The cold code of `unixbench`: the driver (`Run`'s plan, passes and copies), the exporters,
//! `compare`, the statistics, and the host tests' work directory. Built for size
//! (`opt-level = "z"`, Cargo.toml): none of it is timed, and none of it needs size tricks by hand.
//!
//! It imports only from `unixbench-base` (below it), never from the binary above; within the
//! crate, modules import only modules of a lower layer (`tests/it/tidy.rs` checks both). The
//! bottom layer's modules are in scope as `crate::sys`, `crate::model`, ... as if they were here.

pub(crate) use base::{args, baselines, error, json, model, protocol, selfexe, suite, sys};

pub mod compare;
pub mod cpulimit;
pub mod driver;
pub mod hosttools;
pub mod lmbench;
pub mod outcome;
pub mod quick;
pub mod report;
pub mod score;
pub mod stats;
pub mod workdir;
