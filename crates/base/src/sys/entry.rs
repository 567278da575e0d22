//! The program's entry and end without std's runtime: the arguments the C runtime hands to
//! `main`, and the exit.
//!
//! The binary defines the C `main` itself (`#![no_main]`, docs/SIZE.md): std's runtime entry
//! would set up what the tool does not use (a stack-overflow handler on an alternate signal
//! stack, the main thread's name) and store argv for `std::env::args_os`, which on musl only it
//! fills. So argv comes from here, as the C runtime passed it; and the end is [`exit`], which
//! does what std's return from `main` does that the tool needs.

use std::ffi::{c_char, c_int, CStr, OsStr, OsString};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;

/// The `argv` the C runtime passes to `main`. Its field is private and it has no constructor:
/// the only one is the C runtime's, received as `main`'s parameter.
#[repr(transparent)]
pub struct Argv(*const *const c_char);

/// The command line, each argument's bytes as the C runtime gave them.
pub fn args(argc: c_int, argv: Argv) -> Vec<OsString> {
    let n = usize::try_from(argc).unwrap_or(0);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        // SAFETY: the only Argv is the one the C runtime passed to main: argc pointers to
        // NUL-terminated strings that live as long as the process, then a null one.
        let arg = unsafe { *argv.0.add(i) };
        // A program may have moved arguments it handled to the end as nulls (as std notes).
        if arg.is_null() {
            break;
        }
        // SAFETY: a non-null pointer of that array: a NUL-terminated string, never freed.
        let arg = unsafe { CStr::from_ptr(arg) };
        out.push(OsStr::from_bytes(arg.to_bytes()).to_os_string());
    }
    out
}

/// Ends the program with status `code`: what std's stdout holds is written out, then the C
/// library's `exit`. (std's `process::exit` would also undo its runtime's set-up, which never
/// ran here, and its code for that is 4 KB.)
pub fn exit(code: c_int) -> ! {
    // A stdout that fails now has nobody left to tell, as for std's own flush at exit.
    let _ = std::io::stdout().flush();
    // SAFETY: exit runs the C library's exit handlers and ends the process; no Rust state is
    // used after it.
    unsafe { libc::exit(code) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_taken_as_given_up_to_argc() {
        let strings = [&b"unixbench\0"[..], b"-c\0", b"\xff\xfe\0", b"left out\0"];
        let mut ptrs: Vec<*const c_char> = strings.iter().map(|s| s.as_ptr().cast()).collect();
        ptrs.push(std::ptr::null());
        let got = args(3, Argv(ptrs.as_ptr()));
        let want: Vec<&[u8]> = vec![b"unixbench", b"-c", b"\xff\xfe"];
        assert_eq!(got.iter().map(|a| a.as_bytes()).collect::<Vec<_>>(), want);
        assert!(args(0, Argv(ptrs.as_ptr())).is_empty());
    }

    #[test]
    fn a_null_argument_ends_the_list() {
        let ptrs = [c"a".as_ptr(), std::ptr::null(), c"b".as_ptr()];
        assert_eq!(args(3, Argv(ptrs.as_ptr())), vec![OsString::from("a")]);
    }
}
