//! The driver: what UnixBench's Perl `Run` does (being built).

pub mod model;

use crate::error::{Error, Result};
use std::ffi::OsString;

/// Whether `name` is a test or group name the driver knows.
pub fn knows(name: &str) -> bool {
    name == "index"
}

/// Runs tests as `Run` does; `args` excludes the program name.
pub fn main(_args: Vec<OsString>) -> Result {
    Err(Error::failed("the driver is not implemented yet"))
}
