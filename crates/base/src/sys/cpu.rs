//! The processor clock, counted the way lmbench's `mhz` does: time a long chain of dependent
//! one-cycle operations. Each `add` needs the previous result, so the chain runs at one add per
//! cycle whatever the pipeline width, and the time per add is the cycle time.

/// Runs `hundreds` x 100 dependent register adds and returns the result (so it cannot be
/// dropped). None on architectures without an implementation here (each CPU's add is its own
/// instruction; there is no portable chain the compiler would not fold).
#[inline(never)]
pub fn add_chain(hundreds: u64, seed: u64) -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        let mut a = seed;
        let b = seed | 1;
        for _ in 0..hundreds {
            // SAFETY: register-only arithmetic; no memory, stack or flags contract beyond the
            // default (flags are clobbered, which asm! assumes unless preserves_flags).
            unsafe {
                std::arch::asm!(
                    ".rept 100",
                    "add {a}, {b}",
                    ".endr",
                    a = inout(reg) a,
                    b = in(reg) b,
                    options(nomem, nostack),
                );
            }
        }
        Some(a)
    }
    #[cfg(target_arch = "aarch64")]
    {
        let mut a = seed;
        let b = seed | 1;
        for _ in 0..hundreds {
            // SAFETY: register-only arithmetic, as above.
            unsafe {
                std::arch::asm!(
                    ".rept 100",
                    "add {a}, {a}, {b}",
                    ".endr",
                    a = inout(reg) a,
                    b = in(reg) b,
                    options(nomem, nostack),
                );
            }
        }
        Some(a)
    }
    #[cfg(target_arch = "x86")]
    {
        // 32-bit registers: the chain is the same one-cycle add; the result is widened.
        let mut a = seed as u32;
        let b = (seed as u32) | 1;
        for _ in 0..hundreds {
            // SAFETY: register-only arithmetic, as above.
            unsafe {
                std::arch::asm!(
                    ".rept 100",
                    "add {a}, {b}",
                    ".endr",
                    a = inout(reg) a,
                    b = in(reg) b,
                    options(nomem, nostack),
                );
            }
        }
        Some(u64::from(a))
    }
    #[cfg(any(target_arch = "arm", target_arch = "riscv64", target_arch = "s390x"))]
    {
        // The register's width: 32 bits on arm (the result is widened), 64 elsewhere. One add
        // of two registers into the first: `add` on arm and riscv64, `agr` on s390x.
        #[cfg(target_pointer_width = "32")]
        let (mut a, b) = (seed as u32, (seed as u32) | 1);
        #[cfg(target_pointer_width = "64")]
        let (mut a, b) = (seed, seed | 1);
        for _ in 0..hundreds {
            // SAFETY: register-only arithmetic, as above.
            unsafe {
                #[cfg(any(target_arch = "arm", target_arch = "riscv64"))]
                std::arch::asm!(
                    ".rept 100",
                    "add {a}, {a}, {b}",
                    ".endr",
                    a = inout(reg) a,
                    b = in(reg) b,
                    options(nomem, nostack),
                );
                #[cfg(target_arch = "s390x")]
                std::arch::asm!(
                    ".rept 100",
                    "agr {a}, {b}",
                    ".endr",
                    a = inout(reg) a,
                    b = in(reg) b,
                    options(nomem, nostack),
                );
            }
        }
        #[allow(clippy::useless_conversion)]
        Some(u64::from(a))
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        target_arch = "aarch64",
        target_arch = "x86",
        target_arch = "arm",
        target_arch = "riscv64",
        target_arch = "s390x"
    )))]
    {
        let _ = (hundreds, seed);
        None
    }
}
