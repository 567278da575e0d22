//! Code compiled for the CPU's fused multiply-add, chosen at run time. The C suite's Makefile
//! builds its programs with `-march=native`, and GNU C contracts `a * b + c` into one FMA
//! instruction wherever the CPU has one; this binary targets its architecture's baseline, which on
//! x86 has none. A kernel that fuses where gcc fuses runs its timed code through [`run`], which
//! compiles it for FMA when the CPU has it (docs/FIDELITY.md, "CPU kernels").

/// Why [`run`] cannot run FMA code here, or None when it can: on x86 and x86-64 when the CPU
/// has FMA (and the OS the AVX state it needs, which the detection checks), on aarch64 always
/// (FMA is in its baseline). Other architectures have no FMA code in this build.
pub fn missing() -> Option<&'static str> {
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        (!std::arch::is_x86_feature_detected!("fma")).then_some("no FMA on this CPU")
    }
    #[cfg(target_arch = "aarch64")]
    {
        None
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Some("no FMA code for this architecture")
    }
}

/// Whether [`run`] runs its FMA code here.
pub fn available() -> bool {
    missing().is_none()
}

/// Runs `f` compiled with the FMA instructions enabled, so that its `f64::mul_add` is one
/// instruction; None, without running it, where [`available`] is false. `f` is compiled so only
/// where it is inlined here, which the inliner may decline for a large body: make `f` a closure
/// marked `#[inline(always)]` that calls `#[inline(always)]` code (else its `mul_add` becomes a
/// call to the C library's `fma`).
#[inline(always)]
pub fn run<R>(f: impl FnOnce() -> R) -> Option<R> {
    if !available() {
        return None;
    }
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    {
        // SAFETY: `available` found FMA on this CPU, the one feature `x86_fma` is compiled for.
        Some(unsafe { x86_fma(f) })
    }
    #[cfg(not(any(target_arch = "x86", target_arch = "x86_64")))]
    {
        Some(f())
    }
}

/// `f`, compiled with the FMA instructions.
///
/// # Safety
/// The CPU must have FMA.
#[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
#[target_feature(enable = "fma")]
#[inline(never)]
unsafe fn x86_fma<R>(f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    /// 0.1 x 10 - 1 rounded once is the error of 0.1's representation, 2^-54; rounded twice, 0.
    #[test]
    fn run_runs_its_closure_exactly_where_fma_code_can_run() {
        let r = super::run(
            #[inline(always)]
            || 0.1f64.mul_add(10.0, -1.0),
        );
        match super::missing() {
            None => assert_eq!(r, Some(2f64.powi(-54))),
            Some(why) => assert!(r.is_none() && !why.is_empty(), "{why}"),
        }
        assert_eq!(super::available(), super::missing().is_none());
    }
}
