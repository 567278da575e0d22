//! The processor clock, counted the way lmbench's `mhz` does: time a long chain of dependent
//! one-cycle operations. Each `add` needs the previous result, so the chain runs at one add per
//! cycle whatever the pipeline width, and the time per add is the cycle time.

/// Runs `hundreds` x 100 dependent register adds and returns the result (so it cannot be
/// dropped). None on architectures without an implementation here.
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
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64", target_arch = "x86")))]
    {
        let _ = (hundreds, seed);
        None
    }
}
