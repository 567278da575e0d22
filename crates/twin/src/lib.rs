//! The dynamically linked twins of C's `execl` and `spawn`, which the two applets time instead
//! of this static binary so that every exec runs the host's dynamic loader and every fork copies
//! a process with the C library mapped, as the C programs' do (docs/FIDELITY.md).
//!
//! `programs/` holds the twins' own `no_std` sources; `build.rs` compiles and links them per C
//! library family and packs them into the binary. `elf` reads ELF images, `lz` packs them, `exec_image` is
//! the table of what this binary carries and what `UB_EXEC_IMAGE` asks for, `stage` writes a
//! twin where it can run, checks it and runs it. Cold code, built for size like the driver; it
//! imports only from `base` (below it), and the kernels and the driver call it.

pub(crate) use base::{error, protocol, sys};

pub mod elf;
pub mod exec_image;
pub mod lz;
pub mod stage;
