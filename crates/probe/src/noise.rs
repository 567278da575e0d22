//! What else the host did while a pass ran: read just before the copies are forked and just
//! after the last is reaped, never while they run, from /proc/stat (busy and steal time of the
//! CPUs the copies may use: the driver's affinity mask, which they inherit), /proc/loadavg, the copies' resource usage (CPU time, involuntary context switches)
//! and /sys's current CPU frequencies. Where /proc cannot be read there is no figure, never a
//! made-up one.

use crate::json::decimal::parse_f64;
use crate::model::Noise;
use crate::sys;
use std::path::{Path, PathBuf};

/// Where to read: the host's /proc and /sys, or fixture trees in the tests.
pub struct Roots {
    pub proc: PathBuf,
    pub sys: PathBuf,
    /// The CPUs whose time counts; None: all of them.
    pub cpus: Option<Vec<usize>>,
}

impl Roots {
    pub fn host() -> Roots {
        Roots { proc: "/proc".into(), sys: "/sys".into(), cpus: sys::info::affinity() }
    }
}

/// The readings before a pass.
pub struct Before {
    stat: Stat,
    load: f64,
    children: (f64, u64),
    own: f64,
    wall: f64,
    throttled: Option<f64>,
    /// The driver's continues so far (`sys::signal::continues`): a stop of its own shows.
    continues: u32,
}

/// /proc/stat's first line, in seconds: busy (user, nice, system, irq, softirq) and steal, and
/// how many CPUs they are of.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Stat {
    busy: f64,
    steal: f64,
    cpus: usize,
}

/// Takes the readings before a pass; None where /proc/stat or the usage cannot be read.
pub fn before(r: &Roots) -> Option<Before> {
    Some(Before {
        stat: stat(r)?,
        load: load(r)?,
        children: sys::proc::children_usage().ok()?,
        own: sys::proc::own_usage().ok()?.0,
        throttled: throttled(r),
        continues: sys::signal::continues(),
        wall: sys::clock::monotonic(),
    })
}

/// The pass's noise, from the readings before it and now.
pub fn after(r: &Roots, b: Before) -> Option<Noise> {
    let wall = sys::clock::monotonic() - b.wall;
    let (stat_now, load_end) = (stat(r)?, load(r)?);
    let (cpu, involuntary) = sys::proc::children_usage().ok()?;
    let own = sys::proc::own_usage().ok()?.0;
    let copies_cpu = cpu - b.children.0;
    let busy = stat_now.busy - b.stat.busy;
    let steal = (stat_now.steal - b.stat.steal).max(0.0);
    Some(Noise {
        copies_cpu,
        steal,
        // Busy time is counted in ticks, so a small negative remainder is rounding.
        foreign: (busy - copies_cpu - (own - b.own)).max(0.0),
        load_start: b.load,
        load_end,
        involuntary: involuntary.saturating_sub(b.children.1),
        mhz: mhz(r),
        wall,
        idle: (wall * stat_now.cpus as f64 - busy - steal).max(0.0),
        throttled: b.throttled.zip(throttled(r)).map(|(a, z)| (z - a).max(0.0)),
        driver_stopped: sys::signal::continues() != b.continues,
    })
}

/// The seconds this process's cgroup and the groups above it were throttled by a CPU quota (the
/// most of any: a parent's quota holds back all below it), from cgroup v2's `cpu.stat`; None
/// where there is no such file.
fn throttled(r: &Roots) -> Option<f64> {
    let own = sys::fd::host_text(&r.proc.join("self/cgroup"))?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let mut dir = r.sys.join("fs/cgroup");
    let mut most: Option<f64> = None;
    for part in std::iter::once("").chain(path.split('/').filter(|p| !p.is_empty() && *p != "..")) {
        dir.push(part);
        let Some(text) = sys::fd::host_text(&dir.join("cpu.stat")) else { continue };
        if let Some(us) = parse_throttled(&text) {
            most = Some(most.map_or(us, |m: f64| m.max(us)));
        }
    }
    most
}

/// `throttled_usec` of a v2 `cpu.stat`, in seconds.
fn parse_throttled(text: &str) -> Option<f64> {
    let v = text.lines().find_map(|l| l.strip_prefix("throttled_usec "))?;
    Some(parse_f64(v.trim())? / 1e6)
}

fn stat(r: &Roots) -> Option<Stat> {
    let text = sys::fd::host_text(&r.proc.join("stat"))?;
    parse_stat(&text, sys::info::clock_ticks()?, r.cpus.as_deref())
}

/// The `cpu` line of /proc/stat, or the sum of the `cpuN` lines of `cpus`.
fn parse_stat(text: &str, ticks: f64, cpus: Option<&[usize]>) -> Option<Stat> {
    let wanted = |l: &str| match cpus {
        None => l.starts_with("cpu "),
        Some(c) => l
            .split_whitespace()
            .next()
            .and_then(|w| w.strip_prefix("cpu"))
            .and_then(|n| n.parse::<usize>().ok())
            .is_some_and(|n| c.contains(&n)),
    };
    let mut total: Option<Stat> = None;
    for line in text.lines().filter(|l| wanted(l)) {
        // user nice system idle iowait irq softirq steal (guest time is inside user already).
        let (mut busy, mut steal) = (0.0, 0.0);
        for (i, f) in line.split_whitespace().skip(1).enumerate() {
            let v = parse_f64(f)?;
            match i {
                0 | 1 | 2 | 5 | 6 => busy += v,
                7 => steal += v,
                _ => {}
            }
        }
        let t = total.get_or_insert(Stat { busy: 0.0, steal: 0.0, cpus: 0 });
        t.busy += busy / ticks;
        t.steal += steal / ticks;
        t.cpus += 1;
    }
    // The `cpu` line is all of them: the `cpuN` lines count them.
    if cpus.is_none() {
        let n = text.lines().filter(|l| l.starts_with("cpu") && !l.starts_with("cpu ")).count();
        total = total.map(|t| Stat { cpus: n.max(1), ..t });
    }
    total
}

fn load(r: &Roots) -> Option<f64> {
    parse_f64(sys::fd::host_text(&r.proc.join("loadavg"))?.split_whitespace().next()?)
}

/// The mean of the CPUs' `scaling_cur_freq` (kHz) in MHz, where cpufreq shows it.
fn mhz(r: &Roots) -> Option<f64> {
    let dir = r.sys.join("devices/system/cpu");
    let khz: Vec<f64> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix("cpu")?.parse::<u32>().ok()?;
            read_num(&dir.join(name).join("cpufreq/scaling_cur_freq"))
        })
        .collect();
    (!khz.is_empty()).then(|| khz.iter().sum::<f64>() / khz.len() as f64 / 1000.0)
}

fn read_num(p: &Path) -> Option<f64> {
    parse_f64(sys::fd::host_text(p)?.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_reads_busy_and_steal_in_seconds() {
        let text = "cpu  100 20 30 4000 50 6 4 40 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nintr 1\n";
        let s = parse_stat(text, 100.0, None).unwrap();
        assert_eq!(s, Stat { busy: 1.6, steal: 0.4, cpus: 1 });
        assert_eq!(
            parse_stat("cpu  1 2 3\n", 100.0, None),
            Some(Stat { busy: 0.06, steal: 0.0, cpus: 1 }),
            "old kernels"
        );
        assert_eq!(parse_stat("intr 1\n", 100.0, None), None);
        assert_eq!(parse_stat("cpu  x 2\n", 100.0, None), None);
        // Only the CPUs the copies may use.
        let two =
            "cpu  9 9 9 9 9 9 9 9\ncpu0 100 0 0 0 0 0 0 10\ncpu1 1 0 0 0 0 0 0 0\ncpu2 50 0 0 0 0 0 0 0\n";
        assert_eq!(parse_stat(two, 100.0, Some(&[0, 2])), Some(Stat { busy: 1.5, steal: 0.1, cpus: 2 }));
        assert_eq!(parse_stat(two, 100.0, None).unwrap().cpus, 3);
        assert_eq!(parse_stat(two, 100.0, Some(&[7])), None);
    }

    #[test]
    fn throttling_is_the_most_of_the_group_and_its_parents() {
        let d = std::env::temp_dir().join(format!("ub-throttle-{}", sys::proc::getpid()));
        std::fs::create_dir_all(d.join("proc/self")).unwrap();
        std::fs::write(d.join("proc/self/cgroup"), "0::/box/job\n").unwrap();
        for (dir, us) in [("", None), ("box", Some("2500000")), ("box/job", Some("1000"))] {
            let g = d.join("sys/fs/cgroup").join(dir);
            std::fs::create_dir_all(&g).unwrap();
            if let Some(us) = us {
                let text = format!("usage_usec 9\nnr_periods 4\nnr_throttled 2\nthrottled_usec {us}\n");
                std::fs::write(g.join("cpu.stat"), text).unwrap();
            }
        }
        let r = Roots { proc: d.join("proc"), sys: d.join("sys"), cpus: None };
        assert_eq!(throttled(&r), Some(2.5));
        std::fs::write(d.join("proc/self/cgroup"), "12:cpu,cpuacct:/box\n").unwrap();
        assert_eq!(throttled(&r), None, "cgroup v1: not read");
        assert_eq!(parse_throttled("usage_usec 1\n"), None);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn frequencies_and_load_come_from_the_trees_or_not_at_all() {
        let d = std::env::temp_dir().join(format!("ub-noise-{}", sys::proc::getpid()));
        for (cpu, khz) in [("cpu0", "2000000"), ("cpu1", "3000000")] {
            let f = d.join("sys/devices/system/cpu").join(cpu).join("cpufreq");
            std::fs::create_dir_all(&f).unwrap();
            std::fs::write(f.join("scaling_cur_freq"), khz).unwrap();
        }
        std::fs::create_dir_all(d.join("sys/devices/system/cpu/cpufreq")).unwrap();
        std::fs::create_dir_all(d.join("proc")).unwrap();
        std::fs::write(d.join("proc/loadavg"), "1.25 0.5 0.1 2/300 99\n").unwrap();
        let r = Roots { proc: d.join("proc"), sys: d.join("sys"), cpus: None };
        assert_eq!(mhz(&r), Some(2500.0));
        assert_eq!(load(&r), Some(1.25));
        // No /proc/stat: no noise at all.
        assert!(before(&r).is_none());
        let none = Roots { proc: d.join("none"), sys: d.join("none"), cpus: None };
        assert_eq!((mhz(&none), load(&none)), (None, None));
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// FIFOs planted for the files the reading opens: no noise, at once, never a wait.
    #[test]
    fn a_fifo_for_any_file_read_is_no_noise_without_waiting() {
        let d = std::env::temp_dir().join(format!("ub-noise-fifo-{}", sys::proc::getpid()));
        let freq = "sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq";
        for f in ["proc/stat", "proc/loadavg", "proc/self/cgroup", freq] {
            let p = d.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            sys::fd::mkfifo(&p).unwrap();
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let r = Roots { proc: d.join("proc"), sys: d.join("sys"), cpus: None };
        std::thread::spawn(move || {
            tx.send((before(&r).is_none(), load(&r), mhz(&r), throttled(&r))).unwrap()
        });
        // A bound on liveness, not a measure: a blocked open never returns at all.
        let got = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("the reading waited on a FIFO");
        std::fs::remove_dir_all(&d).unwrap();
        assert_eq!(got, (true, None, None, None));
    }

    #[test]
    fn a_pass_of_this_host_has_plausible_noise() {
        let r = Roots::host();
        let Some(b) = before(&r) else { return };
        let t0 = sys::clock::monotonic();
        let mut x = 0u64;
        while sys::clock::monotonic() - t0 < 0.05 {
            x = std::hint::black_box(x.wrapping_add(1));
        }
        let wall = sys::clock::monotonic() - t0;
        let n = after(&r, b).unwrap();
        // No child was reaped meanwhile: the copies' time is nothing, and what else ran is
        // bounded by what the CPUs had (a tick of slack for /proc/stat's resolution).
        assert_eq!(n.copies_cpu, 0.0, "{n:?}");
        let cpus = r.cpus.as_ref().map_or(1, |c| c.len()) as f64;
        assert!(n.foreign <= cpus * wall + 0.02 * cpus && n.steal <= cpus * wall + 0.02 * cpus, "{n:?}");
        assert!(n.load_start >= 0.0 && n.load_end >= 0.0);
        // The pass's wall time, and the CPUs' idle time within what they had.
        assert!(n.wall >= wall && n.wall < wall + 1.0, "{n:?}");
        assert!(n.idle >= 0.0 && n.idle <= cpus * n.wall + 0.02 * cpus, "{n:?}");
    }
}
