//! sysinfo (being written)
