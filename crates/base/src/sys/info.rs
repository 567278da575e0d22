//! What the host is: uname, CPUs this process may use, the path of our own image.

use std::ffi::CStr;
use std::io;

/// The fields of `uname(2)`.
#[derive(Debug, Clone, Default)]
pub struct Uname {
    pub sysname: String,
    pub nodename: String,
    pub release: String,
    pub version: String,
    pub machine: String,
}

/// `uname(2)`.
pub fn uname() -> io::Result<Uname> {
    // SAFETY: u is plain data; uname fills every field with a NUL-terminated string.
    unsafe {
        let mut u: libc::utsname = std::mem::zeroed();
        super::cvt(libc::uname(&mut u))?;
        let f = |b: &[libc::c_char]| CStr::from_ptr(b.as_ptr()).to_string_lossy().into_owned();
        Ok(Uname {
            sysname: f(&u.sysname),
            nodename: f(&u.nodename),
            release: f(&u.release),
            version: f(&u.version),
            machine: f(&u.machine),
        })
    }
}

/// The CPUs of this process's affinity mask (`sched_getaffinity`), in order, or None if unknown.
pub fn affinity() -> Option<Vec<usize>> {
    // SAFETY: set is plain data; sched_getaffinity writes at most size_of(cpu_set_t) bytes, and
    // CPU_ISSET reads bit i < CPU_SETSIZE of it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let v: Vec<usize> = (0..libc::CPU_SETSIZE as usize).filter(|&i| libc::CPU_ISSET(i, &set)).collect();
        (!v.is_empty()).then_some(v)
    }
}

/// Online CPUs in the system (`sysconf(_SC_NPROCESSORS_ONLN)`), or None.
pub fn cpus_online() -> Option<usize> {
    // SAFETY: no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    (n > 0).then_some(n as usize)
}

/// Clock ticks per second of /proc/stat's counters (`sysconf(_SC_CLK_TCK)`), or None.
pub fn clock_ticks() -> Option<f64> {
    // SAFETY: no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    (n > 0).then_some(n as f64)
}
