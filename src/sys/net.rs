//! Sockets on loopback, for the lmbench latency and bandwidth kernels.
