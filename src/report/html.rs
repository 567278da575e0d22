//! html (being written)
