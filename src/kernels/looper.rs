//! (being ported)

use crate::error::{Error, Result};
use std::ffi::OsString;

pub fn main(_args: Vec<OsString>) -> Result {
    Err(Error::failed("not implemented yet"))
}
