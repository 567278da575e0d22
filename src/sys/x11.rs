//! Xlib and GLX, hand-declared, for the graphics kernels (feature `graphics`).
