//! The twins' only `unsafe`: the C library's functions, declared as the C headers declare them,
//! and the few safe wrappers the two programs call. Every call goes through the PLT of a
//! dynamically linked image, so the loader binds each symbol on first use, as it does for C's
//! programs. The build compiles this file once per program with `--cfg twin="execl"` or
//! `twin="spawn"`, so that each image imports only what its C original does.

use core::ffi::{c_char, c_int, c_long, c_ulong, c_void, CStr};

extern "C" {
    static mut stderr: *mut c_void;
    fn fprintf(f: *mut c_void, fmt: *const c_char, ...) -> c_int;
    fn strtol(s: *const c_char, end: *mut *mut c_char, base: c_int) -> c_long;
    fn strerror(e: c_int) -> *const c_char;
    fn __errno_location() -> *mut c_int;
    fn exit(status: c_int) -> !;
}

/// C's entry point, which the C runtime's start files and `__libc_start_main` call: it hands
/// argv to the program's `run` (`crate::run`), which never returns.
#[no_mangle]
extern "C" fn main(argc: c_int, argv: *const *const c_char) -> c_int {
    crate::run(Args { argc, argv })
}

/// argv as C's `main` receives it: `argc` NUL-terminated strings that live until exit.
#[derive(Clone, Copy)]
pub struct Args {
    argc: c_int,
    argv: *const *const c_char,
}

impl Args {
    pub fn len(self) -> usize {
        self.argc.max(0) as usize
    }
    /// Argument `i`, or an empty string past the end.
    pub fn get(self, i: usize) -> &'static CStr {
        if i >= self.len() {
            return c"";
        }
        // SAFETY: only `main` makes an Args, from the runtime's argv; `i < argc`.
        unsafe { CStr::from_ptr(*self.argv.add(i)) }
    }
}

/// `atoi`, which glibc's headers compile to `strtol(s, NULL, 10)`.
pub fn atoi(s: &CStr) -> c_int {
    // SAFETY: `s` is NUL-terminated; a null end pointer is allowed.
    unsafe { strtol(s.as_ptr(), core::ptr::null_mut(), 10) as c_int }
}

/// The calling thread's errno, as text.
pub fn last_error() -> &'static CStr {
    // SAFETY: __errno_location never fails; strerror returns a string that lives until the
    // next strerror call, and the twins call it once before they exit.
    unsafe { CStr::from_ptr(strerror(*__errno_location())) }
}

/// `fprintf(stderr, "COUNT|%lu|1|lps\n", n)`.
pub fn print_count(n: c_ulong) {
    // SAFETY: one `%lu` of a c_ulong.
    unsafe { fprintf(stderr, c"COUNT|%lu|1|lps\n".as_ptr(), n) };
}

/// `fprintf(stderr, fmt, s)` for a format with one `%s`.
pub fn print_str(fmt: &CStr, s: &CStr) {
    // SAFETY: the callers' formats hold exactly one `%s`.
    unsafe { fprintf(stderr, fmt.as_ptr(), s.as_ptr()) };
}

/// `fprintf(stderr, fmt, n, s)` for a format with one `%lu` then one `%s`.
pub fn print_ulong_str(fmt: &CStr, n: c_ulong, s: &CStr) {
    // SAFETY: the callers' formats hold exactly `%lu` then `%s`.
    unsafe { fprintf(stderr, fmt.as_ptr(), n, s.as_ptr()) };
}

/// `exit`: flushes stdio and runs the C library's exit handlers, as C's programs end.
pub fn exit_with(status: c_int) -> ! {
    // SAFETY: exit never returns.
    unsafe { exit(status) }
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    exit_with(99)
}

#[cfg(twin = "execl")]
pub use chain::*;

/// What only `execl`'s chain calls.
#[cfg(twin = "execl")]
mod chain {
    use core::ffi::{c_char, c_int, c_long, c_ulong, CStr};

    extern "C" {
        fn sprintf(buf: *mut c_char, fmt: *const c_char, ...) -> c_int;
        fn sscanf(s: *const c_char, fmt: *const c_char, ...) -> c_int;
        fn time(t: *mut c_long) -> c_long;
        fn execl(path: *const c_char, arg0: *const c_char, ...) -> c_int;
    }

    /// `sscanf(s, "%lu", &v)`, the way C's execl reads its start time back.
    pub fn scan_ulong(s: &CStr) -> c_ulong {
        let mut v: c_ulong = 0;
        // SAFETY: one `%lu` conversion into a c_ulong.
        unsafe { sscanf(s.as_ptr(), c"%lu".as_ptr(), &mut v as *mut c_ulong) };
        v
    }

    /// `sprintf(buf, "%lu", v)`: the longest 64-bit value and its NUL take 21 of the 24 bytes.
    pub fn format_ulong(buf: &mut [c_char; 24], v: c_ulong) -> &CStr {
        // SAFETY: `%lu` writes at most 21 bytes; the result is NUL-terminated in `buf`.
        unsafe {
            sprintf(buf.as_mut_ptr(), c"%lu".as_ptr(), v);
            CStr::from_ptr(buf.as_ptr())
        }
    }

    /// `time(NULL)`.
    pub fn now() -> c_long {
        // SAFETY: time(NULL) writes nothing.
        unsafe { time(core::ptr::null_mut()) }
    }

    /// `execl(path, path, a, b, c, d, NULL)`: returns only on failure.
    pub fn exec5(path: &CStr, a: &CStr, b: &CStr, c: &CStr, d: &CStr) {
        // SAFETY: every argument is NUL-terminated and the list ends with a null pointer.
        unsafe {
            execl(
                path.as_ptr(),
                path.as_ptr(),
                a.as_ptr(),
                b.as_ptr(),
                c.as_ptr(),
                d.as_ptr(),
                core::ptr::null::<c_char>(),
            )
        };
    }
}

#[cfg(twin = "spawn")]
pub use forks::*;

/// What only `spawn`'s loop calls.
#[cfg(twin = "spawn")]
mod forks {
    use core::ffi::{c_char, c_int, c_void};

    extern "C" {
        static mut stderr: *mut c_void;
        fn fprintf(f: *mut c_void, fmt: *const c_char, ...) -> c_int;
        fn fork() -> c_int;
        fn wait(status: *mut c_int) -> c_int;
        fn signal(sig: c_int, h: Handler) -> usize;
        fn alarm(secs: u32) -> u32;
    }

    pub type Handler = extern "C" fn(c_int);
    const SIGALRM: c_int = 14;

    pub enum Forked {
        Child,
        Parent,
        Failed,
    }

    pub fn fork_once() -> Forked {
        // SAFETY: the twins are single-threaded; the child only calls exit.
        match unsafe { fork() } {
            0 => Forked::Child,
            p if p > 0 => Forked::Parent,
            _ => Forked::Failed,
        }
    }

    /// `wait(&status)`: the status of a child that ended, or None when wait failed.
    pub fn wait_child() -> Option<c_int> {
        let mut status = 0;
        // SAFETY: `status` is a valid out pointer.
        (unsafe { wait(&mut status) } >= 0).then_some(status)
    }

    /// `signal(SIGALRM, h); alarm(secs)`.
    pub fn on_alarm(h: Handler, secs: u32) {
        // SAFETY: the handler calls only fprintf and exit, as C's spawn's does.
        unsafe {
            signal(SIGALRM, h);
            alarm(secs);
        }
    }

    /// `fprintf(stderr, "Bad wait status: 0x%x\n", status)`.
    pub fn print_bad_status(status: c_int) {
        // SAFETY: one `%x` of a c_int.
        unsafe { fprintf(stderr, c"Bad wait status: 0x%x\n".as_ptr(), status) };
    }
}

/// C's execl links in big.c, a shell-script feeder that is never run (its `main` is renamed
/// away), so the C image carries and lazily binds some thirty more C library functions. The
/// twin carries the same imports through this routine, which nothing calls: the loader sets up
/// their PLT slots at every exec, as it does for C's image, and the image's size and shape stay
/// comparable. Only `execl` is built with it.
#[cfg(twin = "execl")]
pub mod big {
    use core::ffi::{c_char, c_int, c_long, c_uint, c_void};

    extern "C" {
        static mut stdin: *mut c_void;
        static mut stdout: *mut c_void;
        fn close(fd: c_int) -> c_int;
        fn creat(p: *const c_char, m: c_uint) -> c_int;
        fn dup(fd: c_int) -> c_int;
        fn execv(p: *const c_char, a: *const *const c_char) -> c_int;
        fn fflush(f: *mut c_void) -> c_int;
        fn fgets(b: *mut c_char, n: c_int, f: *mut c_void) -> *mut c_char;
        fn fputc(c: c_int, f: *mut c_void) -> c_int;
        fn fputs(s: *const c_char, f: *mut c_void) -> c_int;
        fn freopen(p: *const c_char, m: *const c_char, f: *mut c_void) -> *mut c_void;
        fn fwrite(b: *const c_void, s: usize, n: usize, f: *mut c_void) -> usize;
        fn getpid() -> c_int;
        fn kill(p: c_int, s: c_int) -> c_int;
        fn lseek(fd: c_int, o: c_long, w: c_int) -> c_long;
        fn malloc(n: usize) -> *mut c_void;
        fn open(p: *const c_char, f: c_int, ...) -> c_int;
        fn pause() -> c_int;
        fn perror(s: *const c_char);
        fn pipe(fds: *mut c_int) -> c_int;
        fn rand() -> c_int;
        fn read(fd: c_int, b: *mut c_void, n: usize) -> isize;
        fn realloc(p: *mut c_void, n: usize) -> *mut c_void;
        fn srand(s: c_uint);
        fn strncpy(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char;
        fn write(fd: c_int, b: *const c_void, n: usize) -> isize;
        fn getenv(n: *const c_char) -> *mut c_char;
    }

    /// Never called; see the module's comment.
    extern "C" fn unused() {
        let mut line = [0 as c_char; 128];
        let mut fds = [0 as c_int; 2];
        // SAFETY: never executed; every pointer passed is valid all the same.
        unsafe {
            srand(getpid() as c_uint);
            let p = malloc(line.len());
            let p = realloc(p, 2 * line.len());
            if pipe(fds.as_mut_ptr()) == 0 && dup(fds[0]) >= 0 {
                let f = freopen(c"/dev/null".as_ptr(), c"r".as_ptr(), stdin);
                if !fgets(line.as_mut_ptr(), line.len() as c_int, f).is_null() {
                    let _ = write(fds[1], line.as_ptr().cast(), 1);
                    let _ = read(fds[0], p, 1);
                }
                let fd = open(c"/dev/null".as_ptr(), 0);
                let _ = lseek(fd, 0, 0);
                let _ = close(creat(c"/dev/null".as_ptr(), 0o600));
                let _ = fputc(rand(), stdout);
                let _ = fputs(strncpy(line.as_mut_ptr(), getenv(c"HOME".as_ptr()), 8), stdout);
                let _ = fwrite(line.as_ptr().cast(), 1, 1, stdout);
                let _ = fflush(stdout);
                perror(c"".as_ptr());
                let argv = [c"sh".as_ptr(), core::ptr::null()];
                if kill(0, 0) < 0 {
                    let _ = pause();
                    let _ = execv(argv[0], argv.as_ptr());
                }
            }
        }
    }

    /// Keeps `unused` (and so its imports) in the image.
    #[used]
    pub static BIG_IMPORTS: extern "C" fn() = unused;
}
