//! The unwinder of a binary that never unwinds.
//!
//! The static release binary is built with `panic = "abort"`: nothing raises an exception, so
//! nothing unwinds. std still refers to the unwinder's entry points: its landing pads call
//! `_Unwind_Resume`, its personality routine reads a frame's context, and its default panic hook
//! walks the stack with `_Unwind_Backtrace` when `RUST_BACKTRACE` is set, then resolves each
//! frame's name from the binary's debug information. Those references alone link libunwind
//! (52 KB) and std's symbolizer (gimli, addr2line, a demangler and an inflater: 170 KB), though
//! in a stripped binary the symbolizer has no names to find.
//!
//! Defined here, the entry points win over libunwind's archive, which then stays out of the
//! link; and since link-time optimisation sees that this `_Unwind_Backtrace` never calls its
//! callback, the symbolizer behind it is dead code and goes too. A panic prints its message and
//! aborts as before; with `RUST_BACKTRACE` set, its backtrace is empty. The rest can only be
//! reached while unwinding, so they abort.
//!
//! Only for an aborting build on musl (the static binary): tests unwind, and a glibc build
//! (graphics) takes its unwinder from the C library.

use std::ffi::{c_int, c_void};

/// `_Unwind_Reason_Code`'s `_URC_END_OF_STACK`: the walk found no more frames.
const END_OF_STACK: c_int = 5;

type TraceFn = extern "C" fn(*mut c_void, *mut c_void) -> c_int;

/// Walks no frames: the stack has none to show.
#[unsafe(no_mangle)]
pub extern "C" fn _Unwind_Backtrace(_trace: TraceFn, _arg: *mut c_void) -> c_int {
    END_OF_STACK
}

/// Continues an unwind: there is never one to continue.
#[unsafe(no_mangle)]
pub extern "C" fn _Unwind_Resume(_exception: *mut c_void) -> ! {
    std::process::abort()
}

/// Defines entry points that read or change a frame's context. Only a frame being walked or
/// unwound has one, and here none ever is.
macro_rules! unreachable_in_frame {
    ($($name:ident($($arg:ident: $ty:ty),*) -> $ret:ty;)*) => {$(
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(_context: *mut c_void $(, $arg: $ty)*) -> $ret {
            $(let _ = $arg;)*
            std::process::abort()
        }
    )*};
}

unreachable_in_frame! {
    _Unwind_GetIP() -> usize;
    _Unwind_GetIPInfo(ip_before: *mut c_int) -> usize;
    _Unwind_GetLanguageSpecificData() -> *mut c_void;
    _Unwind_GetRegionStart() -> usize;
    _Unwind_GetTextRelBase() -> usize;
    _Unwind_GetDataRelBase() -> usize;
    _Unwind_SetGR(index: c_int, value: usize) -> ();
    _Unwind_SetIP(value: usize) -> ();
}

/// ARM's EHABI names a personality routine in each function's unwind table entry (.ARM.exidx),
/// and the linker resolves the ones the C library's and libgcc's entries name; gcc's C
/// personality stands in C code that has cleanups. Nothing unwinds, so none is ever called.
#[cfg(target_arch = "arm")]
mod arm {
    use std::ffi::{c_int, c_void};

    macro_rules! personality {
        ($($name:ident)*) => {$(
            #[unsafe(no_mangle)]
            pub extern "C" fn $name(_state: c_int, _exception: *mut c_void, _context: *mut c_void) -> c_int {
                std::process::abort()
            }
        )*};
    }
    personality! { __aeabi_unwind_cpp_pr0 __aeabi_unwind_cpp_pr1 __aeabi_unwind_cpp_pr2 }
}

/// gcc's personality routine for C, named by the C library's objects built with cleanups (and
/// by libgcc's); nothing unwinds, so it is never called.
#[unsafe(no_mangle)]
pub extern "C" fn __gcc_personality_v0(
    _version: c_int,
    _actions: c_int,
    _class: u64,
    _exception: *mut c_void,
    _context: *mut c_void,
) -> c_int {
    std::process::abort()
}
