//! Optimisation barriers for the CPU kernels: a value the compiler must treat as unknown.
//!
//! The C kernels rely on gcc's view stopping at a compilation unit; whole-program LLVM sees
//! everything and would fold work that the benchmark exists to measure (Whetstone's integer
//! sections, the arith loops). `std::hint::black_box` stops that, but it passes the value through
//! a stack slot, adding a store and a load on the loop's dependency chain: work the C code does
//! not do. [`opaque`] is an empty `asm!` that takes the value in a register and hands it back
//! "changed": no instruction is emitted, yet the optimiser can neither know the result nor hoist
//! or delete the statement (it is not `pure`).

/// Returns `x`, unknown to the optimiser, at no run-time cost.
#[inline(always)]
pub fn opaque(mut x: i64) -> i64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: the template is empty: it reads and writes only the register holding `x`, touches
    // no memory and no stack, and leaves flags as they are.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) x, options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        x = std::hint::black_box(x);
    }
    x
}

/// [`opaque`] for a double: the value stays in its floating-point register.
#[inline(always)]
pub fn opaque_f64(mut x: f64) -> f64 {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: as in `opaque`: an empty template on one register.
    unsafe {
        std::arch::asm!("/* {0} */", inout(xmm_reg) x, options(nomem, nostack, preserves_flags));
    }
    #[cfg(target_arch = "aarch64")]
    // SAFETY: as in `opaque`: an empty template on one register.
    unsafe {
        std::arch::asm!("/* {0:d} */", inout(vreg) x, options(nomem, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        x = std::hint::black_box(x);
    }
    x
}

/// Returns `r`, with the optimiser made to believe that the reference was handed to code it
/// cannot see (as C passes a pointer to a function in another compilation unit): it no longer
/// knows where the result points, so it cannot assume what the pointee holds.
#[inline(always)]
pub fn opaque_ref<T>(r: &T) -> &T {
    #[allow(unused_mut)]
    let mut p = r as *const T;
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    // SAFETY: the template is empty: the register keeps the address it was given, so `p` is
    // still `r`; `readonly` declares that the unseen code may read memory, as a callee would.
    unsafe {
        std::arch::asm!("/* {0} */", inout(reg) p, options(readonly, nostack, preserves_flags));
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        p = std::hint::black_box(p);
    }
    // SAFETY: `p` is the address of `r`, valid for the lifetime of `r` and only read.
    unsafe { &*p }
}

#[cfg(test)]
mod tests {
    #[test]
    fn opaque_is_the_identity() {
        for v in [0, 1, -1, i64::MAX, i64::MIN] {
            assert_eq!(super::opaque(v), v);
        }
        assert_eq!(super::opaque_f64(-0.75), -0.75);
        assert!(super::opaque_f64(f64::NAN).is_nan());
        let a = [1u8, 2, 3];
        assert!(std::ptr::eq(super::opaque_ref(&a), &a));
    }
}
