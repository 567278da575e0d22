//! Reports: pure functions from results to text. No measuring here.

#[allow(dead_code)] // Until the driver's `index4` group calls it.
pub mod index4;
