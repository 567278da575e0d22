//! The "Processor, Processes" columns: lat_syscall (null, read, write, stat, open/close),
//! lat_select (100 TCP descriptors), lat_sig (install, catch), lat_proc (fork, exec, shell).
//!
//! Deviations: exec and shell run this binary (static) in its `lmbench --hello` mode, where
//! lmbench runs its small dynamically linked `hello`; a static image skips the dynamic loader.

use super::child::{exact, Child};
use super::harness::{time_io, timed, Harness, Pick};
use crate::sys;
use crate::sys::fd::Fd;
use std::ffi::CString;
use std::hint::black_box;
use std::io;
use std::path::Path;

/// lat_syscall null: getppid().
#[inline(never)] // timed: see lib.rs
pub fn null_call(h: &Harness) -> io::Result<f64> {
    let s = h.run(Pick::Median, |n| {
        Ok(timed(|| {
            for _ in 0..n {
                black_box(sys::proc::getppid());
            }
        })
        .0)
    })?;
    Ok(s.per_iter())
}

/// The "null I/O" column: the mean of lat_syscall read (1 byte of /dev/zero) and write (1 byte
/// to /dev/null), as getsummary averages them.
#[inline(never)] // timed: see lib.rs
pub fn null_io(h: &Harness) -> io::Result<f64> {
    let zero = sys::fd::open(std::ffi::OsStr::new("/dev/zero"), libc::O_RDONLY, 0)?;
    let null = sys::fd::open(std::ffi::OsStr::new("/dev/null"), libc::O_WRONLY, 0)?;
    let mut c = [0u8; 1];
    let read = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                exact(sys::fd::read(zero.raw(), &mut c), 1, "read /dev/zero")?;
            }
            Ok(())
        })
    })?;
    let write = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                exact(sys::fd::write(null.raw(), &c), 1, "write /dev/null")?;
            }
            Ok(())
        })
    })?;
    Ok((read.per_iter() + write.per_iter()) / 2.0)
}

fn cpath(p: &Path) -> io::Result<CString> {
    CString::new(p.as_os_str().as_encoded_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "path contains a NUL byte"))
}

/// lat_syscall stat FILE.
#[inline(never)] // timed: see lib.rs
pub fn stat(h: &Harness, file: &Path) -> io::Result<f64> {
    let p = cpath(file)?;
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                sys::fd::stat_c(&p)?;
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

/// lat_syscall open FILE: open(O_RDONLY) and close.
#[inline(never)] // timed: see lib.rs
pub fn open_close(h: &Harness, file: &Path) -> io::Result<f64> {
    let p = cpath(file)?;
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                drop(sys::fd::open_c(&p, libc::O_RDONLY, 0)?);
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

/// How many descriptors lat_select polls in the summary's columns.
pub const SELECT_FDS: i32 = 100;

/// lat_select -n 100 tcp: one loopback TCP connection dup'ed to 100 descriptors, then
/// select(100, NULL, &set, NULL, {0,0}) on them (descriptors numbered 100 and up fall outside
/// nfds, as in lmbench).
#[inline(never)] // timed: see lib.rs
pub fn select_tcp(h: &Harness) -> io::Result<f64> {
    let (listener, port) = sys::net::tcp_listen()?;
    let server = Child::spawn(|| loop {
        match sys::net::accept(&listener) {
            Ok(s) => {
                let mut b = [0u8; 1];
                let _ = sys::fd::read(s.raw(), &mut b);
            }
            Err(_) => return 1,
        }
    })?;
    let sock = sys::net::tcp_connect(port)?;
    let r = select_on(h, &sock);
    drop(sock);
    drop(server);
    r
}

/// lat_select -n 100 file: the same on a regular file's descriptors (the "100fd selct" column).
#[inline(never)] // timed: see lib.rs
pub fn select_file(h: &Harness, file: &Path) -> io::Result<f64> {
    let f = sys::fd::open(file.as_os_str(), libc::O_RDONLY, 0)?;
    select_on(h, &f)
}

fn select_on(h: &Harness, fd: &Fd) -> io::Result<f64> {
    let mut dups = Vec::with_capacity(SELECT_FDS as usize);
    let mut set = sys::net::FdSet::new();
    for _ in 0..SELECT_FDS {
        let d = Fd::from_raw(sys::fd::dup(fd.raw())?);
        set.insert(d.raw())?;
        dups.push(d);
    }
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                sys::net::select_write_poll(SELECT_FDS, &set)?;
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

extern "C" fn nothing(_sig: libc::c_int) {}

/// lat_sig install: sigaction(SIGUSR1) with a handler, flags 0.
#[inline(never)] // timed: see lib.rs
pub fn sig_install(h: &Harness) -> io::Result<f64> {
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                sys::signal::on_signal_interrupting(libc::SIGUSR1, nothing)?;
            }
            Ok(())
        })
    });
    let _ = sys::signal::default(libc::SIGUSR1);
    Ok(s?.per_iter())
}

/// lat_sig catch: kill(self, SIGUSR1) caught by an empty handler, less kill(self, 0).
#[inline(never)] // timed: see lib.rs
pub fn sig_catch(h: &Harness) -> io::Result<f64> {
    let me = sys::proc::getpid();
    let send = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 1..n {
                sys::proc::kill(me, 0)?;
            }
            Ok(())
        })
    })?;
    sys::signal::on_signal_interrupting(libc::SIGUSR1, nothing)?;
    let catch = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 1..n {
                sys::proc::kill(me, libc::SIGUSR1)?;
            }
            Ok(())
        })
    });
    let _ = sys::signal::default(libc::SIGUSR1);
    let catch = catch?;
    // lmbench's loops run n-1 sends; it divides by n all the same.
    Ok(((catch.usecs - send.usecs * catch.n as f64 / send.n as f64) / catch.n as f64).max(0.0))
}

/// lat_sig prot: a store into a read-only page, the SIGSEGV handler returning, less the cost
/// of catching a signal (lmbench assumes a protection fault's signal costs as much).
#[inline(never)] // timed: see lib.rs
pub fn prot_fault(h: &Harness, catch_us: f64) -> io::Result<f64> {
    let s = h.run(Pick::Median, |n| time_io(|| sys::mem::protection_faults(n)))?;
    Ok((s.per_iter() - catch_us).max(0.0))
}

/// lat_proc fork: fork, the child exits at once, the parent waits.
#[inline(never)] // timed: see lib.rs
pub fn fork_exit(h: &Harness) -> io::Result<f64> {
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                match sys::proc::fork()? {
                    sys::proc::Fork::Child => sys::proc::exit_now(1),
                    sys::proc::Fork::Parent(pid) => drop(sys::proc::waitpid(pid)?),
                }
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

/// lat_proc exec: fork, the child closes stdout and execve's the hello program with an empty
/// environment, the parent waits.
#[inline(never)] // timed: see lib.rs
pub fn fork_exec(h: &Harness, me: &Path) -> io::Result<f64> {
    let path = cpath(me)?;
    let argv = sys::proc::Argv::new(["unixbench", "lmbench", "--hello"])?;
    spawn_loop(h, || {
        let _ = sys::fd::close(1);
        sys::proc::execve_noenv(&path, &argv);
    })
}

/// lat_proc shell: fork, the child closes stdout and runs `/bin/sh -c HELLO`.
#[inline(never)] // timed: see lib.rs
pub fn fork_shell(h: &Harness, me: &Path) -> io::Result<f64> {
    if !Path::new("/bin/sh").exists() {
        return Err(io::Error::new(io::ErrorKind::NotFound, "no /bin/sh"));
    }
    let quoted = format!("'{}' lmbench --hello", me.to_string_lossy().replace('\'', r"'\''"));
    let sh = CString::new("/bin/sh").unwrap();
    let argv = sys::proc::Argv::new(["sh", "-c", quoted.as_str()])?;
    spawn_loop(h, || {
        let _ = sys::fd::close(1);
        sys::proc::execv(&sh, &argv);
    })
}

fn spawn_loop(h: &Harness, child: impl Fn()) -> io::Result<f64> {
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                match sys::proc::fork()? {
                    sys::proc::Fork::Child => {
                        child();
                        sys::proc::exit_now(1)
                    }
                    sys::proc::Fork::Parent(pid) => {
                        let (_, status) = sys::proc::waitpid(pid)?;
                        if sys::proc::exited(status) != Some(0) {
                            return Err(io::Error::other("the exec'd program failed"));
                        }
                    }
                }
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn null_call_is_plausible() {
        let h = Harness::new(2000.0, 3);
        let us = null_call(&h).unwrap();
        assert!(us > 0.005 && us < 10.0, "{us}");
    }
}
