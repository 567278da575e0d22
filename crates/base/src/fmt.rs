//! Number, date and word formatting (`catalogue::fmt`, whose items this module re-exports), and
//! local time, which is the C library's and so is read through `sys`.

pub use catalogue::fmt::*;

/// Local time, through `localtime_r(3)`.
pub fn local(t: i64) -> Tm {
    let tm = crate::sys::clock::local_time(t);
    Tm {
        year: tm.tm_year + 1900,
        mon: tm.tm_mon.clamp(0, 11) as u32,
        mday: tm.tm_mday.max(0) as u32,
        wday: tm.tm_wday.clamp(0, 6) as u32,
        hour: tm.tm_hour.max(0) as u32,
        min: tm.tm_min.max(0) as u32,
        sec: tm.tm_sec.max(0) as u32,
    }
}
