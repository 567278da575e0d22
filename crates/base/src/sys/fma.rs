//! Code compiled for the CPU's fused multiply-add, chosen at run time. The C suite's Makefile
//! builds its programs with `-march=native`, and GNU C contracts `a * b + c` into one FMA
//! instruction wherever the CPU has one; this binary targets its architecture's baseline, which on
//! x86-64 has none. A kernel that fuses where gcc fuses runs its timed code through [`run`], which
//! compiles it for FMA when the CPU has it (docs/FIDELITY.md, "CPU kernels").

/// Whether this CPU can run [`run`]'s FMA code: x86-64 with FMA (and the AVX state it needs,
/// which the detection checks with the OS); every aarch64 CPU (FMA is in its baseline).
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        true
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// Runs `f` compiled with the FMA instructions enabled, so that its `f64::mul_add` is one
/// instruction; None, without running it, where [`available`] is false. `f` is compiled so only
/// where it is inlined here: a closure that calls an `#[inline(always)]` function.
#[inline(always)]
pub fn run<R>(f: impl FnOnce() -> R) -> Option<R> {
    if !available() {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `available` found FMA on this CPU, the one feature `x86_fma` is compiled for.
        Some(unsafe { x86_fma(f) })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Some(f())
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
#[inline(never)]
unsafe fn x86_fma<R>(f: impl FnOnce() -> R) -> R {
    f()
}
