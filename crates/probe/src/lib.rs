//! The host probes: everything the tool reads about the machine it runs on, split by what they
//! read. [`sysinfo`] gathers the header of every report from uname(2) and one module per file:
//! [`osrelease`], [`locale`], [`cpuinfo`], [`uptime`] (with the load) and [`utmp`]; [`cpulimit`]
//! the CPUs this process may really use (affinity, cgroup cpuset and quota), the default N of
//! the N-copy pass; [`noise`] what else the host did around each pass (/proc/stat,
//! /proc/loadavg, the copies' rusage, /sys's frequencies). Each reads under given roots where it
//! can, so its unit tests hand it fixture trees; what it finds is plain data of `base::model`,
//! which the exporters print. Never an external command.

pub(crate) use base::{fmt, json, model, sys};

pub mod cpuinfo;
pub mod cpulimit;
pub mod locale;
pub mod noise;
pub mod osrelease;
pub mod sysinfo;
pub mod uptime;
pub mod utmp;
