//! Integration tests: the built binary, driven as a user would drive it.
//!
//! The binary under test is `$UNIXBENCH_BIN` when set (`make test` points it at the static
//! release build, the one users copy) and cargo's debug build otherwise.

mod common;
mod dispatch;
mod lmbench;
mod tidy;
