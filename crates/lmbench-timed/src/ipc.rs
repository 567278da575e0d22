//! The "*Local* Communication" columns, latencies and bandwidths: lat_pipe, lat_unix, lat_udp,
//! lat_tcp, lat_connect, bw_pipe, bw_unix, bw_tcp. The peer is a forked child; network
//! kernels use 127.0.0.1 only, on a port the kernel picks, and every socket read has a
//! 15 s timeout (lmbench's lat_udp alarm) so a lost peer ends the figure instead of the run.
//!
//! Deviation: lmbench's network servers are separate daemons (`lat_tcp -s`) bound to
//! INADDR_ANY on fixed ports; here each figure forks its own server on loopback.

use super::child::{exact, Child};
use super::harness::{time_io, Harness, Pick};
use super::valloc::PageBuf;
use crate::sys;
use crate::sys::fd::Fd;
use std::io;

const TIMEOUT_S: i64 = 15;
/// lmbench's XFERSIZE: every bandwidth test moves data in 64 KiB reads and writes.
pub const XFER: usize = 64 * 1024;
/// bw_pipe and bw_unix move 10 MiB per iteration.
const BW_BYTES: usize = 10 * 1024 * 1024;
/// bw_tcp's largest message in the lmbench script, the one getsummary reports (-m 10M).
const TCP_MSG: usize = 10 * 1024 * 1024;
/// lmbench's SOCKBUF: bandwidth sockets ask for 1 MiB buffers.
const SOCKBUF: i32 = 1024 * 1024;

/// A one-byte ping-pong on (w, r) against an echoing peer, per round trip in us.
fn ping_pong(h: &Harness, w: &Fd, r: &Fd, size: usize, what: &str) -> io::Result<f64> {
    let mut buf = vec![0u8; size];
    // One round first, so the peer is known to be up.
    exact(sys::fd::write(w.raw(), &buf), size, what)?;
    exact(sys::fd::read(r.raw(), &mut buf), size, what)?;
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                exact(sys::fd::write(w.raw(), &buf), size, what)?;
                exact(sys::fd::read(r.raw(), &mut buf), size, what)?;
            }
            Ok(())
        })
    })?;
    Ok(s.per_iter())
}

/// Echoes `size`-byte messages from `r` to `w` until either side fails.
fn echo(r: i32, w: i32, size: usize) -> i32 {
    let mut buf = vec![0u8; size];
    loop {
        match sys::fd::read(r, &mut buf) {
            Ok(n) if n > 0 => {
                if sys::fd::write_all(w, &buf[..n]).is_err() {
                    return 1;
                }
            }
            _ => return 0,
        }
    }
}

/// lat_pipe: one byte there and back through two pipes.
#[inline(never)] // timed: see lib.rs
pub fn lat_pipe(h: &Harness) -> io::Result<f64> {
    let (r1, w1) = sys::fd::pipe_cloexec()?;
    let (r2, w2) = sys::fd::pipe_cloexec()?;
    let peer = Child::spawn(|| echo(r1.raw(), w2.raw(), 1))?;
    let r = ping_pong(h, &w1, &r2, 1, "pipe");
    drop(peer);
    r
}

/// lat_unix: one byte there and back on an AF_UNIX stream socketpair.
#[inline(never)] // timed: see lib.rs
pub fn lat_unix(h: &Harness) -> io::Result<f64> {
    let (a, b) = sys::net::unix_pair()?;
    sys::net::set_recv_timeout(b.raw(), TIMEOUT_S)?;
    let peer = Child::spawn(|| echo(a.raw(), a.raw(), 1))?;
    let r = ping_pong(h, &b, &b, 1, "AF_UNIX socket");
    drop(peer);
    r
}

/// lat_tcp: a 1-byte message there and back on a loopback TCP connection.
#[inline(never)] // timed: see lib.rs
pub fn lat_tcp(h: &Harness) -> io::Result<f64> {
    let (listener, port) = sys::net::tcp_listen()?;
    let server = Child::spawn(|| match sys::net::accept(&listener) {
        Ok(s) => echo(s.raw(), s.raw(), 1),
        Err(_) => 1,
    })?;
    drop(listener);
    let sock = sys::net::tcp_connect(port)?;
    sys::net::set_recv_timeout(sock.raw(), TIMEOUT_S)?;
    let r = ping_pong(h, &sock, &sock, 1, "TCP");
    drop(sock);
    drop(server);
    r
}

/// lat_udp: a 4-byte datagram there and back on loopback (lmbench's minimum message).
#[inline(never)] // timed: see lib.rs
pub fn lat_udp(h: &Harness) -> io::Result<f64> {
    let (server_sock, port) = sys::net::udp_bind()?;
    let server = Child::spawn(|| {
        let mut buf = [0u8; 64];
        loop {
            match sys::net::recv_from(&server_sock, &mut buf) {
                Ok((n, peer)) => {
                    if sys::net::send_to(&server_sock, &buf[..n], &peer).is_err() {
                        return 1;
                    }
                }
                Err(_) => return 1,
            }
        }
    })?;
    drop(server_sock);
    let sock = sys::net::udp_connect(port)?;
    sys::net::set_recv_timeout(sock.raw(), TIMEOUT_S)?;
    let r = ping_pong(h, &sock, &sock, 4, "UDP");
    drop(sock);
    drop(server);
    r
}

/// lat_connect: connect to a loopback listener and close, the server accepting and closing.
/// Deviation: a listen backlog of 4096 where lmbench asks for 100. When the server process
/// waits for a CPU (any busy machine), a short queue overflows within a few milliseconds, the
/// kernel drops SYNs and each dropped one costs the client a 1 s retry; lmbench then reports
/// milliseconds per connection. With the longer queue the figure is the connection's cost.
#[inline(never)] // timed: see lib.rs
pub fn lat_connect(h: &Harness) -> io::Result<f64> {
    let (listener, port) = sys::net::tcp_listen_backlog(4096)?;
    // As lmbench's server: wait for the client's close, then close, so the client's side is the
    // one left in TIME_WAIT.
    let server = Child::spawn(|| loop {
        let Ok(s) = sys::net::accept(&listener) else { return 1 };
        let mut b = [0u8; 1];
        let _ = sys::fd::read(s.raw(), &mut b);
    })?;
    // A busy server lets its listen queue overflow; the kernel then drops SYNs and the client
    // retries after a second. Bound the interval rather than wait through thousands of those.
    let limit = (20.0 * h.enough).max(2e6);
    let s = h.run(Pick::Median, |n| {
        let t0 = super::harness::now_us();
        time_io(|| {
            for _ in 0..n {
                let s = sys::net::tcp_socket()?;
                sys::net::set_reuseaddr(s.raw())?;
                sys::net::connect(&s, port)?;
                if super::harness::now_us() - t0 > limit {
                    return Err(io::Error::other(
                        "connections stalled: the server's listen queue overflowed (SYN retries)",
                    ));
                }
            }
            Ok(())
        })
    });
    drop(listener);
    drop(server);
    Ok(s?.per_iter())
}

fn mb_per_s(bytes: usize, per_iter_us: f64) -> f64 {
    bytes as f64 / per_iter_us
}

/// Reads exactly `todo` bytes from `fd` in reads of at most `chunk`.
#[inline]
fn drain(fd: &Fd, buf: &mut [u8], chunk: usize, todo: usize, what: &str) -> io::Result<()> {
    let mut done = 0;
    while done < todo {
        let want = chunk.min(buf.len());
        match sys::fd::read(fd.raw(), &mut buf[..want]) {
            Ok(0) => return Err(io::Error::other(format!("{what}: the writer went away"))),
            Ok(n) => done += n,
            Err(e) => return Err(io::Error::new(e.kind(), format!("{what}: {e}"))),
        }
    }
    Ok(())
}

/// bw_pipe: a child writes 64 KiB blocks without pause; the parent reads 10 MiB per iteration
/// into a buffer offset 128 bytes from a page boundary. MB/s (10^6 bytes).
#[inline(never)] // timed: see lib.rs
pub fn bw_pipe(h: &Harness) -> io::Result<f64> {
    let (r, w) = sys::fd::pipe_cloexec()?;
    let writer = Child::spawn(|| {
        // Out of memory here, it is out of memory for the reader too, which says so.
        let Ok(wbuf) = PageBuf::<u8>::new(XFER, 0) else { return 1 };
        let buf = wbuf.get();
        loop {
            if sys::fd::write_all(w.raw(), buf).is_err() {
                return 0;
            }
        }
    })?;
    drop(w);
    // lmbench's reader buffer is off page alignment by 128 bytes on purpose.
    let mut rbuf = PageBuf::<u8>::new(XFER, 128)?;
    let buf = rbuf.get_mut();
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                drain(&r, buf, XFER, BW_BYTES, "pipe")?;
            }
            Ok(())
        })
    });
    drop(r);
    drop(writer);
    Ok(mb_per_s(BW_BYTES, s?.per_iter()))
}

/// bw_unix: per iteration the parent asks for 10 MiB on a control pipe and reads it from an
/// AF_UNIX stream socket in 64 KiB reads.
#[inline(never)] // timed: see lib.rs
pub fn bw_unix(h: &Harness) -> io::Result<f64> {
    let (a, b) = sys::net::unix_pair()?;
    let (cr, cw) = sys::fd::pipe_cloexec()?;
    sys::net::set_recv_timeout(b.raw(), TIMEOUT_S)?;
    let writer = Child::spawn(|| {
        // Out of memory here, it is out of memory for the reader too, which says so.
        let Ok(wbuf) = PageBuf::<u8>::new(XFER, 0) else { return 1 };
        let buf = wbuf.get();
        let mut todo = [0u8; 8];
        loop {
            if sys::fd::read(cr.raw(), &mut todo).ok() != Some(8) {
                return 0;
            }
            let mut left = u64::from_ne_bytes(todo) as usize;
            while left > 0 {
                let k = left.min(XFER);
                match sys::fd::write(a.raw(), &buf[..k]) {
                    Ok(n) if n > 0 => left -= n,
                    _ => return 1,
                }
            }
        }
    })?;
    drop(a);
    drop(cr);
    let mut rbuf = PageBuf::<u8>::new(XFER, 0)?;
    let buf = rbuf.get_mut();
    let order = (BW_BYTES as u64).to_ne_bytes();
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                exact(sys::fd::write(cw.raw(), &order), 8, "control pipe")?;
                drain(&b, buf, XFER, BW_BYTES, "AF_UNIX socket")?;
            }
            Ok(())
        })
    });
    drop(cw);
    drop(b);
    drop(writer);
    Ok(mb_per_s(BW_BYTES, s?.per_iter()))
}

/// bw_tcp -m 10M: a server writes 10 MiB messages without pause on a loopback connection with
/// 1 MiB socket buffers; the client reads 10 MiB per iteration. A few unrecorded iterations
/// first stand in for lmbench's warm-up of the connection.
#[inline(never)] // timed: see lib.rs
pub fn bw_tcp(h: &Harness) -> io::Result<f64> {
    let (listener, port) = sys::net::tcp_listen()?;
    sys::net::set_buffers(listener.raw(), SOCKBUF, false, true);
    let server = Child::spawn(|| {
        let Ok(s) = sys::net::accept(&listener) else { return 1 };
        sys::net::set_buffers(s.raw(), SOCKBUF, false, true);
        let Ok(buf) = PageBuf::<u8>::new(TCP_MSG, 0) else { return 1 };
        loop {
            if sys::fd::write_all(s.raw(), buf.get()).is_err() {
                return 0;
            }
        }
    })?;
    drop(listener);
    let sock = sys::net::tcp_socket()?;
    sys::net::set_buffers(sock.raw(), SOCKBUF, true, true);
    sys::net::set_reuseaddr(sock.raw())?;
    sys::net::connect(&sock, port)?;
    sys::net::set_recv_timeout(sock.raw(), TIMEOUT_S)?;
    let mut rbuf = PageBuf::<u8>::new(TCP_MSG, 0)?;
    let buf = rbuf.get_mut();
    for _ in 0..3 {
        drain(&sock, buf, TCP_MSG, TCP_MSG, "TCP")?;
    }
    let s = h.run(Pick::Median, |n| {
        time_io(|| {
            for _ in 0..n {
                drain(&sock, buf, TCP_MSG, TCP_MSG, "TCP")?;
            }
            Ok(())
        })
    });
    drop(sock);
    drop(server);
    Ok(mb_per_s(TCP_MSG, s?.per_iter()))
}
