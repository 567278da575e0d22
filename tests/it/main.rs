//! Integration tests: the built binary, driven as a user would drive it.
//!
//! The binary under test is `$UNIXBENCH_BIN` when set (`make test` points it at the static
//! release build, the one users copy) and cargo's debug build otherwise.

mod ab;
mod arches;
mod bad_input;
mod charts;
mod common;
mod compare;
mod conventions;
mod cpu_kernels;
mod dispatch;
mod driver;
mod dropin;
mod faults;
mod fleet;
mod graphics;
mod limits;
mod lmbench;
mod noise;
mod oldkernel;
mod os_kernels;
mod planted;
mod progress;
mod quick;
mod report;
mod rigs;
mod rounds;
mod semantics;
mod shell_tests;
mod tidy;
mod twin;
