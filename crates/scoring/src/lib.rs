//! Scoring: what a run's copies said, turned into figures. A copy's outcome read from its
//! stderr ([`outcome`]), `Run`'s arithmetic ([`score`]: a pass from its copies, a test from its
//! passes, the index blocks), the statistics of a test's passes ([`stats`]) and the quick run's
//! stopping rule ([`quick`]). All of it is pure functions of the run model: the driver calls it
//! as passes end, `compare` to score a log again. A crate of its own so that both stand on it
//! without standing on each other; built for size with the rest of the cold code.

pub(crate) use base::{baselines, model, protocol, suite, sys};

pub mod outcome;
pub mod paired;
pub mod quick;
pub mod score;
pub mod stats;
