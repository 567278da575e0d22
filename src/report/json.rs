//! json (being written)
