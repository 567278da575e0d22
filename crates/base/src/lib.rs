//! The bottom layer of `unixbench`: the plain data (the catalogue of tests and groups, the
//! baselines, the run model) and the measuring primitives the kernels and the driver share
//! (`sys`, the protocol, the alarm deadline, argument parsing, errors).
//!
//! Nothing here imports from the crates above it (everything but `json`); within the
//! crate, modules import only modules of a lower layer (`tests/it/tidy.rs` checks both).
//! Built at opt-level 3: the kernels' timed loops call `sys` and `timing`.

pub mod args;
pub mod baselines;
pub mod error;
pub mod fmt;
/// The JSON reader: a crate of its own only to be built for size (Cargo.toml).
pub use ::json;
pub mod model;
pub mod protocol;
pub mod selfexe;
pub mod suggest;
pub mod suite;
pub mod sys;
pub mod timing;
pub mod version;
