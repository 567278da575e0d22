//! csv (being written)
