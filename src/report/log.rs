//! log (being written)
