//! Sockets on loopback, for the lmbench latency and bandwidth kernels, and `select(2)`.
//!
//! Every address here is 127.0.0.1: servers bind it (never INADDR_ANY, unlike lmbench's
//! servers) on a port the kernel picks, so nothing listens beyond this host and two runs never
//! collide on a fixed port. All descriptors are close-on-exec and owned ([`Fd`]).

use super::fd::Fd;
use super::{cvt, cvt_r};
use std::io;
use std::os::unix::io::RawFd;

fn loopback(port: u16) -> libc::sockaddr_in {
    // SAFETY: sockaddr_in is plain data; all-zero is a valid value.
    let mut a: libc::sockaddr_in = unsafe { std::mem::zeroed() };
    a.sin_family = libc::AF_INET as libc::sa_family_t;
    a.sin_port = port.to_be();
    a.sin_addr = libc::in_addr { s_addr: u32::from_be_bytes([127, 0, 0, 1]).to_be() };
    a
}

const SIN_LEN: libc::socklen_t = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;

fn socket(kind: i32) -> io::Result<Fd> {
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::socket(libc::AF_INET, kind | libc::SOCK_CLOEXEC, 0) }).map(Fd::from_raw)
}

fn set_int(fd: RawFd, level: i32, name: i32, v: i32) -> io::Result<()> {
    // SAFETY: &v points to an int of the size passed.
    cvt(unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            (&v as *const i32).cast(),
            std::mem::size_of::<i32>() as libc::socklen_t,
        )
    })
    .map(drop)
}

/// `SO_REUSEADDR` on: lmbench sets it on its servers and on lat_connect's clients.
pub fn set_reuseaddr(fd: RawFd) -> io::Result<()> {
    set_int(fd, libc::SOL_SOCKET, libc::SO_REUSEADDR, 1)
}

/// Asks for `bytes` of receive (`rcv`) and/or send buffer, halving until the kernel accepts,
/// as lmbench's `sock_optimize` does for its bandwidth sockets.
pub fn set_buffers(fd: RawFd, bytes: i32, rcv: bool, snd: bool) {
    for (on, name) in [(rcv, libc::SO_RCVBUF), (snd, libc::SO_SNDBUF)] {
        let mut b = bytes;
        while on && b > 0 && set_int(fd, libc::SOL_SOCKET, name, b).is_err() {
            b >>= 1;
        }
    }
}

fn bind_loopback(fd: &Fd) -> io::Result<u16> {
    let a = loopback(0);
    // SAFETY: a is a valid sockaddr_in of the length passed.
    cvt(unsafe { libc::bind(fd.raw(), (&a as *const libc::sockaddr_in).cast(), SIN_LEN) })?;
    let mut got = loopback(0);
    let mut len = SIN_LEN;
    // SAFETY: got has room for len bytes; len is updated by the kernel.
    cvt(unsafe { libc::getsockname(fd.raw(), (&mut got as *mut libc::sockaddr_in).cast(), &mut len) })?;
    Ok(u16::from_be(got.sin_port))
}

/// A TCP socket listening on 127.0.0.1, on a port the kernel picks, with lmbench's listen
/// backlog of 100: (socket, port).
pub fn tcp_listen() -> io::Result<(Fd, u16)> {
    tcp_listen_backlog(100)
}

/// As [`tcp_listen`] with a given backlog (the kernel caps it at somaxconn).
pub fn tcp_listen_backlog(backlog: i32) -> io::Result<(Fd, u16)> {
    let s = socket(libc::SOCK_STREAM)?;
    set_reuseaddr(s.raw())?;
    let port = bind_loopback(&s)?;
    // SAFETY: no pointers involved.
    cvt(unsafe { libc::listen(s.raw(), backlog) })?;
    Ok((s, port))
}

/// A new TCP socket, not yet connected (so options can be set before [`connect`]).
pub fn tcp_socket() -> io::Result<Fd> {
    socket(libc::SOCK_STREAM)
}

/// `connect(2)` to 127.0.0.1:`port`, retried on EINTR.
pub fn connect(fd: &Fd, port: u16) -> io::Result<()> {
    let a = loopback(port);
    // SAFETY: a is a valid sockaddr_in of the length passed.
    cvt_r(|| unsafe { libc::connect(fd.raw(), (&a as *const libc::sockaddr_in).cast(), SIN_LEN) }).map(drop)
}

/// A TCP connection to 127.0.0.1:`port`.
pub fn tcp_connect(port: u16) -> io::Result<Fd> {
    let s = tcp_socket()?;
    connect(&s, port)?;
    Ok(s)
}

/// `accept(2)`, retried on EINTR; the new socket is close-on-exec.
pub fn accept(listener: &Fd) -> io::Result<Fd> {
    // SAFETY: null address pointers are allowed.
    cvt_r(|| unsafe {
        libc::accept4(listener.raw(), std::ptr::null_mut(), std::ptr::null_mut(), libc::SOCK_CLOEXEC)
    })
    .map(Fd::from_raw)
}

/// A UDP socket bound to 127.0.0.1 on a port the kernel picks: (socket, port).
pub fn udp_bind() -> io::Result<(Fd, u16)> {
    let s = socket(libc::SOCK_DGRAM)?;
    let port = bind_loopback(&s)?;
    Ok((s, port))
}

/// A UDP socket connected to 127.0.0.1:`port`, so plain read/write exchange datagrams.
pub fn udp_connect(port: u16) -> io::Result<Fd> {
    let s = socket(libc::SOCK_DGRAM)?;
    connect(&s, port)?;
    Ok(s)
}

/// Where a datagram came from, to answer it with [`send_to`].
#[derive(Clone, Copy)]
pub struct Peer(libc::sockaddr_in);

/// `recvfrom(2)`: (bytes, sender). Retried on EINTR.
pub fn recv_from(fd: &Fd, buf: &mut [u8]) -> io::Result<(usize, Peer)> {
    let mut a = loopback(0);
    let mut len = SIN_LEN;
    // SAFETY: buf is writable for its length; a has room for len bytes.
    let n = cvt_r(|| unsafe {
        libc::recvfrom(
            fd.raw(),
            buf.as_mut_ptr().cast(),
            buf.len(),
            0,
            (&mut a as *mut libc::sockaddr_in).cast(),
            &mut len,
        )
    })?;
    Ok((n as usize, Peer(a)))
}

/// `sendto(2)`.
pub fn send_to(fd: &Fd, buf: &[u8], to: &Peer) -> io::Result<usize> {
    // SAFETY: buf is readable for its length; to.0 is a valid sockaddr_in.
    cvt(unsafe {
        libc::sendto(
            fd.raw(),
            buf.as_ptr().cast(),
            buf.len(),
            0,
            (&to.0 as *const libc::sockaddr_in).cast(),
            SIN_LEN,
        )
    })
    .map(|n| n as usize)
}

/// `SO_RCVTIMEO`: a blocking read on `fd` fails with EAGAIN after `secs`, so a lost datagram
/// or a dead peer cannot hang a benchmark.
pub fn set_recv_timeout(fd: RawFd, secs: i64) -> io::Result<()> {
    let tv = libc::timeval { tv_sec: secs as _, tv_usec: 0 };
    // SAFETY: &tv points to a timeval of the size passed.
    cvt(unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_RCVTIMEO,
            (&tv as *const libc::timeval).cast(),
            std::mem::size_of::<libc::timeval>() as libc::socklen_t,
        )
    })
    .map(drop)
}

/// `socketpair(AF_UNIX, SOCK_STREAM)`, close-on-exec.
pub fn unix_pair() -> io::Result<(Fd, Fd)> {
    let mut sv = [0 as libc::c_int; 2];
    // SAFETY: sv has room for the two descriptors.
    cvt(unsafe {
        libc::socketpair(libc::AF_UNIX, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0, sv.as_mut_ptr())
    })?;
    Ok((Fd::from_raw(sv[0]), Fd::from_raw(sv[1])))
}

/// A descriptor set for `select(2)`.
#[derive(Clone, Copy)]
pub struct FdSet(libc::fd_set);

impl FdSet {
    /// The empty set.
    pub fn new() -> FdSet {
        // SAFETY: fd_set is plain data; FD_ZERO initialises it.
        unsafe {
            let mut s: libc::fd_set = std::mem::zeroed();
            libc::FD_ZERO(&mut s);
            FdSet(s)
        }
    }
    /// Adds `fd`, which must be below FD_SETSIZE (checked).
    pub fn insert(&mut self, fd: RawFd) -> io::Result<()> {
        if !(0..libc::FD_SETSIZE as RawFd).contains(&fd) {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "descriptor beyond FD_SETSIZE"));
        }
        // SAFETY: fd is within the set's range.
        unsafe { libc::FD_SET(fd, &mut self.0) };
        Ok(())
    }
}

impl Default for FdSet {
    fn default() -> Self {
        FdSet::new()
    }
}

/// `select(nfds, NULL, &write_set, NULL, {0, 0})` on a copy of `set`: lmbench's lat_select
/// polls for writability with a zero timeout. Returns the ready count.
#[inline]
pub fn select_write_poll(nfds: i32, set: &FdSet) -> io::Result<i32> {
    let mut w = *set;
    let mut tv = libc::timeval { tv_sec: 0, tv_usec: 0 };
    // SAFETY: w and tv are valid for the call; nfds is at most FD_SETSIZE by the caller's sets.
    cvt(unsafe {
        libc::select(
            nfds.min(libc::FD_SETSIZE as i32),
            std::ptr::null_mut(),
            &mut w.0,
            std::ptr::null_mut(),
            &mut tv,
        )
    })
}
