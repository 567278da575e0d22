//! The bottom layer of `unixbench` after `json`: the plain data (the catalogue of tests and
//! groups, the baselines, the run model, the version) and the words around it (number and date
//! formatting, argument parsing, the option model every command line is declared in, the error type, suggestions for a mistyped name, this binary's
//! path). Nothing here is timed, so it is built for size (Cargo.toml); `base`, built for speed
//! around the kernels' timed loops, re-exports every module under its own name.
//!
//! Nothing here imports from another crate of the workspace; within the crate, modules import
//! only modules of a lower layer (`tests/it/tidy.rs` checks both).

pub mod args;
pub mod baselines;
pub mod error;
pub mod fmt;
pub mod model;
pub mod options;
pub mod selfexe;
pub mod suggest;
pub mod suite;
pub mod version;
