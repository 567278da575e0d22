//! What the system under test is: the header of every report
//! (docs/ORIGINAL.md, "System information"), gathered without running a single external command.
//!
//! `Run` asked `hostname`, `uname`, `locale`, `who`, `uptime` and /proc/cpuinfo. We read the
//! same facts from their sources: uname(2); /etc/os-release for the distribution's name (which
//! `Run` ignored); the locale directories for the Language line; /proc/cpuinfo, /proc/uptime and
//! /proc/loadavg; and utmp, read as a file (musl has no utmp API). A source that is missing
//! (no /proc in a chroot, no utmp in a container) gives `unknown`, never an error on the console.
//! Each source is parsed in a module of its own (`osrelease`, `locale`, `cpuinfo`, `uptime`,
//! `utmp`) by pure functions over text and bytes, tested with fixtures; this one gathers them.

use crate::cpuinfo::parse_cpuinfo;
use crate::fmt;
use crate::locale::{language, locale_installed};
use crate::model::SystemInfo;
use crate::osrelease::os_release_name;
use crate::uptime::{read_loadavg, read_uptime, uptime_line};
use crate::utmp::parse_utmp;
use std::path::Path;

const UNKNOWN: &str = "unknown";

/// Gathers the system block. `brief` (`-b`) skips the CPU details, as `Run` does.
pub fn gather(brief: bool) -> SystemInfo {
    as_data(gather_under(Path::new("/"), brief))
}

/// Strings of the system are data: no control character reaches a report (the HTML and JSON
/// writers escape the rest; the results file name is made of file_name_part), and none holds
/// more than [`fmt::MAX_HOST_TEXT`] characters, cut as compare cuts what it reads (a 4 KB
/// PRETTY_NAME would flood every report). The CPU flags are our own words, only made printable.
fn as_data(mut s: SystemInfo) -> SystemInfo {
    let p = |v: &str| fmt::printable(&fmt::cut_chars(v, fmt::MAX_HOST_TEXT));
    for v in [
        &mut s.hostname,
        &mut s.os,
        &mut s.os_release,
        &mut s.os_version,
        &mut s.machine,
        &mut s.system,
        &mut s.language,
        &mut s.uptime,
        &mut s.runlevel,
    ] {
        *v = p(v);
    }
    for c in &mut s.cpus {
        c.model = p(&c.model);
        c.flags = fmt::printable(&c.flags);
    }
    s
}

/// [`gather`] with every file read under `root` (tests point it at a bare directory to see
/// what a chroot without /proc gets). uname(2) and the environment are the process's own.
pub fn gather_under(root: &Path, brief: bool) -> SystemInfo {
    let at = |p: &str| root.join(p.trim_start_matches('/'));
    let u = crate::sys::info::uname().ok();
    let field = |f: fn(&crate::sys::info::Uname) -> &String| {
        u.as_ref().map(f).filter(|s| !s.is_empty()).cloned().unwrap_or_else(|| UNKNOWN.to_string())
    };
    let sysname = field(|u| &u.sysname);
    // `uname -o` prints GNU/Linux for Linux (coreutils); every Run report says so.
    let os = if sysname == "Linux" { "GNU/Linux".to_string() } else { sysname };
    let machine = field(|u| &u.machine);
    let system = ["/etc/os-release", "/usr/lib/os-release"]
        .iter()
        .find_map(|p| crate::sys::fd::host_text(&at(p)))
        .and_then(|t| os_release_name(&t))
        .unwrap_or_else(|| os.clone());
    let cpus = if brief {
        Vec::new()
    } else {
        crate::sys::fd::host_text(&at("/proc/cpuinfo"))
            .map(|t| parse_cpuinfo(&t, &machine))
            .unwrap_or_default()
    };
    let cpu_count = crate::sys::info::cpus_online().or((!cpus.is_empty()).then_some(cpus.len()));
    let utmp = ["/var/run/utmp", "/run/utmp"]
        .iter()
        .find_map(|p| crate::sys::fd::read_file(&at(p), crate::sys::fd::HOST_FILE_MAX).ok())
        .map(|b| parse_utmp(&b));
    let users = utmp.as_ref().map_or(0, |u| u.users);
    let uptime = match (read_uptime(&at("/proc/uptime")), read_loadavg(&at("/proc/loadavg"))) {
        (Some(up), Some(load)) => uptime_line(&fmt::local(crate::sys::clock::time()), up, load, users),
        _ => UNKNOWN.to_string(),
    };
    let runlevel = utmp.and_then(|u| u.runlevel).map_or_else(|| UNKNOWN.to_string(), |c| c.to_string());
    SystemInfo {
        hostname: field(|u| &u.nodename),
        os,
        os_release: field(|u| &u.release),
        os_version: field(|u| &u.version),
        machine,
        platform: UNKNOWN.to_string(),
        system,
        language: language(&|k| std::env::var(k).ok(), &|n| locale_installed(&at("/usr/lib/locale"), n)),
        cpus,
        cpu_count,
        cpu_limit: None,
        graphics: None,
        uptime,
        runlevel,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpuinfo::tests::X86;
    use crate::utmp::tests::record;
    use crate::utmp::{RUN_LVL, USER_PROCESS};

    /// A root with none of the files (a chroot without /proc, a container without utmp):
    /// `unknown` everywhere a file was needed, and nothing printed.
    #[test]
    fn missing_sources_give_unknown() {
        let dir = std::env::temp_dir().join(format!("ub-sysinfo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let s = gather_under(&dir, false);
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(s.cpus.is_empty());
        assert_eq!((s.uptime.as_str(), s.runlevel.as_str()), ("unknown", "unknown"));
        assert_eq!(s.system, s.os);
        // No locale directory: every locale but the built-in ones is missing.
        assert_eq!(s.language, language(&|k| std::env::var(k).ok(), &|_| false));
        // A fake root with files: they are read from there.
        let dir = std::env::temp_dir().join(format!("ub-sysinfo-full-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("proc")).unwrap();
        std::fs::create_dir_all(dir.join("etc")).unwrap();
        std::fs::create_dir_all(dir.join("run")).unwrap();
        std::fs::write(dir.join("proc/cpuinfo"), X86).unwrap();
        std::fs::write(dir.join("proc/uptime"), "90061.5 100.0\n").unwrap();
        std::fs::write(dir.join("proc/loadavg"), "0.50 0.25 0.10 1/100 42\n").unwrap();
        std::fs::write(dir.join("etc/os-release"), "PRETTY_NAME=\"Test OS 1\"\n").unwrap();
        let mut utmp = record(RUN_LVL, i32::from(b'3'), "runlevel");
        utmp.extend(record(USER_PROCESS, 9, "root"));
        std::fs::write(dir.join("run/utmp"), utmp).unwrap();
        let s = gather_under(&dir, false);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(s.cpus.len(), 2);
        assert_eq!(s.system, "Test OS 1");
        assert_eq!(s.runlevel, "3");
        assert!(
            s.uptime.ends_with(" up 1 day,  1:01,  1 user,  load average: 0.50, 0.25, 0.10"),
            "{}",
            s.uptime
        );
    }

    /// A FIFO (or anything but a regular file) planted at every file the block reads: read as
    /// unknown at once, never waited on.
    #[test]
    fn a_fifo_for_any_host_file_reads_as_unknown_without_waiting() {
        let dir = std::env::temp_dir().join(format!("ub-sysinfo-fifo-{}", std::process::id()));
        let files = [
            "etc/os-release",
            "usr/lib/os-release",
            "proc/cpuinfo",
            "proc/uptime",
            "proc/loadavg",
            "var/run/utmp",
            "run/utmp",
            "usr/lib/locale/locale-archive",
        ];
        for f in files {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            crate::sys::fd::mkfifo(&p).unwrap();
        }
        let (tx, rx) = std::sync::mpsc::channel();
        let root = dir.clone();
        std::thread::spawn(move || tx.send(gather_under(&root, false)).unwrap());
        // A bound on liveness, not a measure: a blocked open never returns at all.
        let s = rx.recv_timeout(std::time::Duration::from_secs(20)).expect("gather waited on a FIFO");
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(s.cpus.is_empty());
        assert_eq!((s.uptime.as_str(), s.runlevel.as_str()), ("unknown", "unknown"));
        assert_eq!(s.system, s.os);
    }

    /// A host string of any length reaches the reports cut at 100 characters, `...` saying so.
    #[test]
    fn long_host_strings_are_cut() {
        let mut s = gather_under(Path::new("/nonexistent"), false);
        s.system = "x".repeat(4096);
        s.hostname = format!("{}\u{1b}[2J", "h".repeat(99));
        s.cpus = vec![crate::model::Cpu { model: "m".repeat(101), bogomips: 1.0, flags: "f".repeat(150) }];
        let s = as_data(s);
        assert_eq!(s.system, format!("{}...", "x".repeat(100)));
        assert_eq!(s.hostname, format!("{}\\x1b...", "h".repeat(99)));
        assert_eq!(s.cpus[0].model, format!("{}...", "m".repeat(100)));
        assert_eq!(s.cpus[0].flags.len(), 150);
    }

    #[test]
    fn gather_never_fails() {
        let s = gather(false);
        for v in
            [&s.hostname, &s.os, &s.os_release, &s.machine, &s.platform, &s.system, &s.uptime, &s.runlevel]
        {
            assert!(!v.is_empty());
        }
        assert!(s.language.contains("(charmap=\""));
        assert!(gather(true).cpus.is_empty());
    }
}
