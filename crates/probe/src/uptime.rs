//! The uptime line: /proc/uptime and /proc/loadavg, worded as procps' `uptime` words them.

use crate::fmt::{self, Tm};
use crate::json::decimal::parse_f64;
use std::path::Path;

/// Seconds since boot, the first field of /proc/uptime.
pub fn read_uptime(p: &Path) -> Option<f64> {
    let t = crate::sys::fd::host_text(p)?;
    parse_f64(t.split_whitespace().next()?)
}

/// The 1, 5 and 15 minute load averages, the first fields of /proc/loadavg.
pub fn read_loadavg(p: &Path) -> Option<[f64; 3]> {
    let t = crate::sys::fd::host_text(p)?;
    let mut it = t.split_whitespace().map(parse_f64);
    Some([it.next()??, it.next()??, it.next()??])
}

/// The line `uptime` (procps-ng 4.0) prints, without its leading space as `Run` trimmed it:
/// `HH:MM:SS up [D day[s], ](H:MM|M min),  N user[s],  load average: a, b, c`.
pub fn uptime_line(now: &Tm, up_secs: f64, load: [f64; 3], users: usize) -> String {
    let up = up_secs.max(0.0) as u64;
    let (days, hours, mins) = (up / 86_400, up / 3600 % 24, up / 60 % 60);
    let mut s = format!("{} up ", fmt::hms(now));
    if days > 0 {
        s += &format!("{days} {}, ", if days > 1 { "days" } else { "day" });
    }
    if hours > 0 {
        s += &format!("{hours:2}:{mins:02}, ");
    } else {
        s += &format!("{mins} min, ");
    }
    s += &format!("{users:2} {},  ", if users > 1 { "users" } else { "user" });
    s += &format!(
        "load average: {}, {}, {}",
        fmt::fixed(load[0], 2),
        fmt::fixed(load[1], 2),
        fmt::fixed(load[2], 2)
    );
    s
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uptime_lines() {
        let now = Tm { hour: 0, min: 5, sec: 42, ..Tm::default() };
        let l = [1.51, 0.62, 0.23];
        assert_eq!(
            uptime_line(&now, 342.7, l, 0),
            "00:05:42 up 5 min,  0 user,  load average: 1.51, 0.62, 0.23"
        );
        assert_eq!(
            uptime_line(&now, 3.0 * 86400.0 + 3900.0, [0.0, 0.005, 12.345], 2),
            "00:05:42 up 3 days,  1:05,  2 users,  load average: 0.00, 0.01, 12.35"
        );
        assert_eq!(
            uptime_line(&now, 86400.0 + 11.0 * 3600.0 + 60.0 * 59.0, l, 1),
            "00:05:42 up 1 day, 11:59,  1 user,  load average: 1.51, 0.62, 0.23"
        );
        assert_eq!(
            uptime_line(&now, 86400.0 + 120.0, l, 12),
            "00:05:42 up 1 day, 2 min, 12 users,  load average: 1.51, 0.62, 0.23"
        );
    }
}
