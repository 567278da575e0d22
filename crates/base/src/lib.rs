//! The measuring layer of `unixbench`: the primitives the kernels and the driver share (`sys`,
//! the protocol, the alarm deadline), over the plain data of `catalogue` (the catalogue of tests
//! and groups, the baselines, the run model, formatting, argument parsing, errors), which it
//! re-exports under the same names, so that the crates above name all of it through `base`.
//!
//! Nothing here imports from the crates above it (everything but `json` and `catalogue`); within
//! the crate, modules import only modules of a lower layer (`tests/it/tidy.rs` checks both).
//! Built at opt-level 3: the kernels' timed loops call `sys` and `timing`. What they do not call
//! is `catalogue`'s, built for size (Cargo.toml).

pub use catalogue::{args, baselines, model, options, selfexe, suggest, suite, version};
/// The error type, and writing to the console (which waits on `sys`'s descriptors).
pub mod error;
/// Formatting, and local time (the C library's, through `sys`).
pub mod fmt;
/// The JSON reader: a crate of its own only to be built for size (Cargo.toml).
pub use ::json;
pub mod protocol;
pub mod sys;
pub mod timing;
