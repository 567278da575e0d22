//! What the system under test is: the header of every report
//! (docs/ORIGINAL.md, "System information"), gathered without running a single external command.
//!
//! `Run` asked `hostname`, `uname`, `locale`, `who`, `uptime` and /proc/cpuinfo. We read the
//! same facts from their sources: uname(2); /etc/os-release for the distribution's name (which
//! `Run` ignored); the locale directories for the Language line; /proc/cpuinfo, /proc/uptime and
//! /proc/loadavg; and utmp, read as a file (musl has no utmp API). A source that is missing
//! (no /proc in a chroot, no utmp in a container) gives `unknown`, never an error on the console.
//! Parsing is done by pure functions over text and bytes, tested with fixtures.

use super::fmt::{self, Tm};
use crate::model::{Cpu, SystemInfo};
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

const UNKNOWN: &str = "unknown";

/// Gathers the system block. `brief` (`-b`) skips the CPU details, as `Run` does.
pub fn gather(brief: bool) -> SystemInfo {
    let mut s = gather_under(Path::new("/"), brief);
    // Strings of the system are data: no control character reaches a report (the HTML and
    // JSON writers escape the rest; the results file name is made of file_name_part).
    let p = fmt::printable;
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
        c.flags = p(&c.flags);
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
        .find_map(|p| std::fs::read_to_string(at(p)).ok())
        .and_then(|t| os_release_name(&t))
        .unwrap_or_else(|| os.clone());
    let cpus = if brief {
        Vec::new()
    } else {
        std::fs::read_to_string(at("/proc/cpuinfo")).map(|t| parse_cpuinfo(&t, &machine)).unwrap_or_default()
    };
    let cpu_count = crate::sys::info::cpus_online().or((!cpus.is_empty()).then_some(cpus.len()));
    let utmp =
        ["/var/run/utmp", "/run/utmp"].iter().find_map(|p| std::fs::read(at(p)).ok()).map(|b| parse_utmp(&b));
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

/// PRETTY_NAME of an os-release file (shell-quoted value), or NAME if it has none.
pub fn os_release_name(text: &str) -> Option<String> {
    let get = |key: &str| {
        text.lines().find_map(|l| {
            let (k, v) = l.trim().split_once('=')?;
            (k.trim() == key).then(|| unquote(v.trim())).filter(|v| !v.is_empty())
        })
    };
    get("PRETTY_NAME").or_else(|| get("NAME"))
}

fn unquote(v: &str) -> String {
    let b = v.as_bytes();
    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
        let inner = &v[1..v.len() - 1];
        if b[0] == b'\'' {
            return inner.to_string();
        }
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else {
                out.push(c);
            }
        }
        out
    } else {
        v.to_string()
    }
}

// ---- Language ------------------------------------------------------------------------------

/// The Language line's value, `<LANG> (charmap="<set>", collate="<set>")`, as `Run` built it from
/// `printenv LANG` and `locale -k`. Without `locale`, the character set is what glibc would load:
/// the locale named by LC_ALL, else LC_CTYPE (LC_COLLATE for collate), else LANG; when that
/// locale is installed, the set its name says (`.utf8`/`.UTF-8` -> UTF-8, `.iso88591` ->
/// ISO-8859-1, no codeset -> ISO-8859-1), else glibc's fallback to C, ANSI_X3.4-1968.
pub fn language(env: &dyn Fn(&str) -> Option<String>, installed: &dyn Fn(&str) -> bool) -> String {
    let nonempty = |k: &str| env(k).filter(|v| !v.is_empty());
    let lang = nonempty("LANG");
    let effective = |cat: &str| nonempty("LC_ALL").or_else(|| nonempty(cat)).or_else(|| lang.clone());
    let charmap = charmap(effective("LC_CTYPE").as_deref(), installed);
    let collate = charmap_of_collate(effective("LC_COLLATE").as_deref(), installed);
    format!("{} (charmap=\"{}\", collate=\"{}\")", lang.as_deref().unwrap_or(UNKNOWN), charmap, collate)
}

fn charmap_of_collate(name: Option<&str>, installed: &dyn Fn(&str) -> bool) -> String {
    charmap(name, installed)
}

/// glibc's `_nl_normalize_codeset`: alphanumerics lower-cased; all digits get `iso` in front.
pub fn normalize_codeset(cs: &str) -> String {
    let s: String = cs.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) {
        format!("iso{s}")
    } else {
        s
    }
}

/// The character set glibc would report for locale `name`.
pub fn charmap(name: Option<&str>, installed: &dyn Fn(&str) -> bool) -> String {
    const C: &str = "ANSI_X3.4-1968";
    let Some(name) = name else { return C.to_string() };
    let (base, modifier) = match name.split_once('@') {
        Some((b, m)) => (b, Some(m)),
        None => (name, None),
    };
    let (lang, codeset) = match base.split_once('.') {
        Some((l, c)) => (l, Some(c)),
        None => (base, None),
    };
    let norm = codeset.map(normalize_codeset);
    if lang == "C" || lang == "POSIX" {
        // glibc 2.35 and later know C.UTF-8 without any file.
        return if norm.as_deref() == Some("utf8") { "UTF-8".to_string() } else { C.to_string() };
    }
    let with = |cs: Option<&str>| {
        let mut n = lang.to_string();
        if let Some(cs) = cs {
            n.push('.');
            n.push_str(cs);
        }
        if let Some(m) = modifier {
            n.push('@');
            n.push_str(m);
        }
        n
    };
    let found = installed(name) || norm.as_deref().is_some_and(|n| installed(&with(Some(n))));
    if !found {
        return C.to_string();
    }
    match norm.as_deref() {
        None => "ISO-8859-1".to_string(),
        Some("utf8") => "UTF-8".to_string(),
        Some(n) if n.starts_with("iso8859") => format!("ISO-8859-{}", &n[7..]),
        Some(_) => codeset.unwrap_or_default().to_ascii_uppercase(),
    }
}

/// Whether glibc has locale `name`: a directory in `dir` (/usr/lib/locale), or an entry of
/// its locale-archive.
pub fn locale_installed(dir: &Path, name: &str) -> bool {
    if name.contains('/') {
        return false;
    }
    if dir.join(name).join("LC_CTYPE").exists() {
        return true;
    }
    std::fs::File::open(dir.join("locale-archive"))
        .ok()
        .and_then(|mut f| archive_names(&mut f))
        .is_some_and(|names| names.iter().any(|n| n == name))
}

/// The locale names in a glibc locale-archive (`struct locarhead`, then the name hash table of
/// `{hashval, name_offset, locrec_offset}` entries; a name is a NUL-terminated string at its
/// offset). None if the file is not an archive of this machine's byte order.
pub fn archive_names<F: Read + Seek>(f: &mut F) -> Option<Vec<String>> {
    const MAGIC: u32 = 0xde02_0109;
    let mut head = [0u8; 32];
    f.read_exact(&mut head).ok()?;
    let word = |b: &[u8], i: usize| u32::from_ne_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]]);
    if word(&head, 0) != MAGIC {
        return None;
    }
    let (hash_off, hash_size) = (word(&head, 2), word(&head, 4).min(1 << 20));
    let (str_off, str_used) = (word(&head, 5), word(&head, 6).min(16 << 20));
    let mut table = vec![0u8; hash_size as usize * 12];
    f.seek(SeekFrom::Start(u64::from(hash_off))).ok()?;
    f.read_exact(&mut table).ok()?;
    let mut strings = vec![0u8; str_used as usize];
    f.seek(SeekFrom::Start(u64::from(str_off))).ok()?;
    f.read_exact(&mut strings).ok()?;
    let mut names = Vec::new();
    for e in table.chunks_exact(12) {
        let (name_off, rec_off) = (word(e, 1), word(e, 2));
        if name_off == 0 || rec_off == 0 || name_off < str_off {
            continue;
        }
        let start = (name_off - str_off) as usize;
        if let Some(rest) = strings.get(start..) {
            let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            names.push(String::from_utf8_lossy(&rest[..end]).into_owned());
        }
    }
    Some(names)
}

// ---- CPUs ----------------------------------------------------------------------------------

/// x86 flags `Run` describes, and how.
const X86_FLAGS: [(&str, &str); 14] = [
    ("pae", "Physical Address Ext"),
    ("sep", "SYSENTER/SYSEXIT"),
    ("syscall", "SYSCALL/SYSRET"),
    ("mmx", "MMX"),
    ("mmxext", "AMD MMX"),
    ("cxmmx", "Cyrix MMX"),
    ("xmm", "Streaming SIMD"),
    ("xmm2", "Streaming SIMD-2"),
    ("xmm3", "Streaming SIMD-3"),
    ("ht", "Hyper-Threading"),
    ("ia64", "IA-64 processor"),
    ("lm", "x86-64"),
    ("vmx", "Intel virtualization"),
    ("svm", "AMD virtualization"),
];

/// The flag description: the known flags, in the byte order of their tokens, named and joined.
pub fn flag_names(flags: &str) -> String {
    let mut tokens: Vec<&str> = flags.split_whitespace().collect();
    tokens.sort();
    let names: Vec<&str> =
        tokens.iter().filter_map(|t| X86_FLAGS.iter().find(|(k, _)| k == t).map(|(_, v)| *v)).collect();
    names.join(", ")
}

/// ARM implementer codes (the `CPU implementer` field of arm64 /proc/cpuinfo).
const ARM_IMPLEMENTERS: [(&str, &str); 11] = [
    ("0x41", "ARM"),
    ("0x42", "Broadcom"),
    ("0x43", "Cavium"),
    ("0x46", "FUJITSU"),
    ("0x48", "HiSilicon"),
    ("0x4e", "NVIDIA"),
    ("0x50", "APM"),
    ("0x51", "Qualcomm"),
    ("0x61", "Apple"),
    ("0x6d", "Microsoft"),
    ("0xc0", "Ampere"),
];

/// Part numbers per implementer name, spelled as the reports have always spelled them.
const ARM_PARTS: &[(&str, &[(&str, &str)])] = &[
    (
        "ARM",
        &[
            ("0xd00", "Foundation"),
            ("0xd03", "Cortex-A53"),
            ("0xd04", "Cortex-A35"),
            ("0xd05", "Cortex-A55"),
            ("0xd07", "Cortex-A57"),
            ("0xd08", "Cortex-A72"),
            ("0xd09", "Cortex-A73"),
            ("0xd0a", "Cortex-A75"),
            ("0xd0b", "Cortex-A76"),
            ("0xd0c", "Neoverse-N1"),
            ("0xd0d", "Cortex-A77"),
            ("0xd0f", "AEMv8"),
            ("0xd40", "Neoverse-V1"),
            ("0xd41", "Cortex-A78"),
            ("0xd42", "Cortex-A78AE"),
            ("0xd44", "Cortex-X1"),
            ("0xd46", "Cortex-A510"),
            ("0xd47", "Cortex-A710"),
            ("0xd48", "Cortex-X2"),
            ("0xd49", "Neoverse-N2"),
            ("0xd4b", "Cortex-A78C"),
            ("0xd4c", "Cortex-X1C"),
            ("0xd4d", "Cortex-A715"),
            ("0xd4e", "Cortex-X3"),
            ("0xd4f", "Neoverse-V2"),
            ("0xd80", "Cortex-A520"),
            ("0xd81", "Cortex-A720"),
            ("0xd82", "Cortex-X4"),
            ("0xd84", "Neoverse-V3"),
            ("0xd85", "Cortex-X925"),
            ("0xd87", "Cortex-A725"),
            ("0xd8e", "Neoverse-N3"),
        ],
    ),
    ("APM", &[("0x000", "X-Gene")]),
    (
        "Cavium",
        &[
            ("0x0a1", "ThunderX"),
            ("0x0a2", "ThunderX-81XX"),
            ("0x0a3", "ThunderX-83XX"),
            ("0x0af", "ThunderX2"),
            ("0x0b1", "OcteonTX2-98XX"),
            ("0x0b2", "OcteonTX2-96XX"),
            ("0x0b3", "OcteonTX2-95XX"),
            ("0x0b4", "OcteonTX2-95XXN"),
            ("0x0b5", "OcteonTX2-95XXMM"),
            ("0x0b6", "OcteonTX2-95XXO"),
        ],
    ),
    ("Broadcom", &[("0x100", "Brahma-B53"), ("0x516", "Vulcan")]),
    (
        "Qualcomm",
        &[
            ("0x200", "Kryo"),
            ("0xc00", "Falkor"),
            ("0x800", "Falkor-V1/Kryo-2XX-Gold"),
            ("0x801", "Kryo-2XX-Silver"),
            ("0x803", "Kryo-3XX-Silver"),
            ("0x804", "Kryo-4XX-Gold"),
            ("0x805", "Kryo-4XX-Silver"),
        ],
    ),
    ("NVIDIA", &[("0x003", "Denver"), ("0x004", "Carmel")]),
    ("FUJITSU", &[("0x001", "A64FX")]),
    ("HiSilicon", &[("0xd01", "TaiShan-v110")]),
    (
        "Apple",
        &[
            ("0x022", "Icestorm-M1"),
            ("0x023", "Firestorm-M1"),
            ("0x024", "Icestorm-M1-Pro"),
            ("0x025", "Firestorm-M1-Pro"),
            ("0x028", "Icestorm-M1-Max"),
            ("0x029", "Firestorm-M1-Max"),
            ("0x032", "Blizzard-M2"),
            ("0x033", "Avalanche-M2"),
            ("0x034", "Blizzard-M2-Pro"),
            ("0x035", "Avalanche-M2-Pro"),
            ("0x038", "Blizzard-M2-Max"),
            ("0x039", "Avalanche-M2-Max"),
        ],
    ),
    ("Ampere", &[("0xac3", "Ampere-1"), ("0xac4", "Ampere-1a")]),
    ("Microsoft", &[("0xd49", "Azure-Cobalt-100")]),
];

/// The implementer's name, or `CPU implementer <id>`.
pub fn arm_implementer(id: &str) -> String {
    ARM_IMPLEMENTERS
        .iter()
        .find(|(k, _)| *k == id)
        .map_or_else(|| format!("CPU implementer {id}"), |(_, v)| v.to_string())
}

/// The part's name for an implementer name, or `CPU part <id>`.
pub fn arm_part(implementer: &str, id: &str) -> String {
    ARM_PARTS
        .iter()
        .find(|(k, _)| *k == implementer)
        .and_then(|(_, parts)| parts.iter().find(|(k, _)| *k == id))
        .map_or_else(|| format!("CPU part {id}"), |(_, v)| v.to_string())
}

/// Perl's truth of a string: empty and "0" are false.
fn perl_true(s: &str) -> bool {
    !s.is_empty() && s != "0"
}

fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut spaces = 0;
    for c in s.chars() {
        if c == ' ' {
            spaces += 1;
            continue;
        }
        if spaces > 0 {
            out.push(' ');
        }
        spaces = 0;
        out.push(c);
    }
    if spaces > 0 {
        out.push(' ');
    }
    out
}

/// Parses /proc/cpuinfo as `Run` does (docs/ORIGINAL.md, "System information"): each line split at
/// colons with their surrounding blanks, lines with a false field or value skipped; `processor`
/// selects the CPU; on aarch64 the implementer and part codes name the model, `Features` the flags;
/// elsewhere `model name`, `bogomips` and `flags` (described by [`flag_names`]).
pub fn parse_cpuinfo(text: &str, machine: &str) -> Vec<Cpu> {
    let mut cpus: Vec<Cpu> = Vec::new();
    let mut cur = 0usize;
    let mut implementer = String::new();
    let arm = machine == "aarch64";
    for (field, val) in text.lines().filter_map(cpuinfo_field) {
        if field == "processor" {
            cur = val.parse().unwrap_or(cur);
        } else if arm {
            arm_field(&mut cpus, cur, &mut implementer, field, val);
        } else {
            other_field(&mut cpus, cur, field, val);
        }
    }
    cpus
}

/// Perl's split(/[ \t]*:[ \t]*/): the field, and the value up to any next colon; None when
/// either is false to Perl.
fn cpuinfo_field(line: &str) -> Option<(&str, &str)> {
    let mut parts = line.split(':');
    let field = parts.next().unwrap_or("").trim_end_matches([' ', '\t']);
    let val = parts.next().unwrap_or("").trim_start_matches([' ', '\t']).trim_end_matches([' ', '\t']);
    (perl_true(field) && perl_true(val)).then_some((field, val))
}

/// CPU `cur`, the list grown to hold it: only a field that sets something adds a CPU.
fn cpu_at(cpus: &mut Vec<Cpu>, cur: usize) -> &mut Cpu {
    if cpus.len() <= cur {
        cpus.resize(cur + 1, Cpu::default());
    }
    &mut cpus[cur]
}

/// An aarch64 field: the implementer and part codes name the model.
fn arm_field(cpus: &mut Vec<Cpu>, cur: usize, implementer: &mut String, field: &str, val: &str) {
    match field {
        "CPU implementer" => {
            *implementer = arm_implementer(&collapse_spaces(val));
            cpu_at(cpus, cur).model = implementer.clone();
        }
        "CPU part" if !implementer.is_empty() => {
            cpu_at(cpus, cur).model = format!("{implementer} {}", arm_part(implementer, val));
        }
        "BogoMIPS" => cpu_at(cpus, cur).bogomips = perl_float(val),
        "Features" => cpu_at(cpus, cur).flags = format!("CPU Features: {val}"),
        _ => {}
    }
}

/// A field of any other machine's cpuinfo.
fn other_field(cpus: &mut Vec<Cpu>, cur: usize, field: &str, val: &str) {
    match field {
        "model name" => cpu_at(cpus, cur).model = collapse_spaces(val),
        "bogomips" | "BogoMIPS" => cpu_at(cpus, cur).bogomips = perl_float(val),
        "flags" => cpu_at(cpus, cur).flags = flag_names(val),
        _ => {}
    }
}

/// Perl's numeric value of a string: its leading number, else 0.
fn perl_float(s: &str) -> f64 {
    let s = s.trim_start();
    let end = s
        .char_indices()
        .take_while(|&(i, c)| c.is_ascii_digit() || c == '.' || (i == 0 && (c == '-' || c == '+')))
        .last()
        .map_or(0, |(i, c)| i + c.len_utf8());
    s[..end].parse().unwrap_or(0.0)
}

// ---- Uptime, load, users, runlevel -----------------------------------------------------------

fn read_uptime(p: &Path) -> Option<f64> {
    let t = std::fs::read_to_string(p).ok()?;
    t.split_whitespace().next()?.parse().ok()
}

fn read_loadavg(p: &Path) -> Option<[f64; 3]> {
    let t = std::fs::read_to_string(p).ok()?;
    let mut it = t.split_whitespace().map(|w| w.parse::<f64>().ok());
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

/// What utmp says: logged-in users and the current runlevel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Utmp {
    pub users: usize,
    pub runlevel: Option<char>,
}

/// The size of a glibc `struct utmp` on Linux (x86_64, aarch64, i386, arm and the other
/// architectures that keep 32-bit times in it). Its first fields, the only ones read here:
/// `ut_type` (i16) at 0, `ut_pid` (i32) at 4, `ut_user` (32 bytes) at 44.
pub const UTMP_RECORD: usize = 384;
const RUN_LVL: i16 = 1;
const USER_PROCESS: i16 = 7;

/// Parses a utmp file: USER_PROCESS records with a user name are users (as `who | wc -l` and
/// `uptime` count them); the last RUN_LVL record's pid holds the runlevel in its low byte (what
/// `runlevel` and `who -r` print). A file that is not a whole number of records is not trusted.
pub fn parse_utmp(bytes: &[u8]) -> Utmp {
    let mut u = Utmp::default();
    if bytes.len() % UTMP_RECORD != 0 {
        return u;
    }
    for r in bytes.chunks_exact(UTMP_RECORD) {
        let ty = i16::from_ne_bytes([r[0], r[1]]);
        let pid = i32::from_ne_bytes([r[4], r[5], r[6], r[7]]);
        if ty == USER_PROCESS && r[44] != 0 {
            u.users += 1;
        } else if ty == RUN_LVL {
            let c = (pid & 0xff) as u8;
            u.runlevel = c.is_ascii_graphic().then_some(c as char);
        }
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    const X86: &str = "processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model name\t: AMD EPYC  7B13   64-Core Processor
cpu MHz\t\t: 2450.000
flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl svm
bogomips\t: 4900.00
address sizes\t: 48 bits physical, 48 bits virtual

processor\t: 1
vendor_id\t: AuthenticAMD
model name\t: AMD EPYC  7B13   64-Core Processor
flags\t\t: fpu pae sep mmx ht lm
bogomips\t: 5192.25

";

    const ARM64: &str = "processor\t: 0
BogoMIPS\t: 50.00
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x3
CPU part\t: 0xd0c
CPU revision\t: 1

processor\t: 1
BogoMIPS\t: 50.00
Features\t: fp asimd
CPU implementer\t: 0x6d
CPU architecture: 8
CPU variant\t: 0x0
CPU part\t: 0xd49
CPU revision\t: 0

processor\t: 2
BogoMIPS\t: 2.00
Features\t: fp
CPU implementer\t: 0x99
CPU part\t: 0x123
";

    #[test]
    fn x86_cpuinfo() {
        let cpus = parse_cpuinfo(X86, "x86_64");
        assert_eq!(cpus.len(), 2);
        assert_eq!(cpus[0].model, "AMD EPYC 7B13 64-Core Processor");
        assert_eq!(cpus[0].bogomips, 4900.0);
        assert_eq!(
            cpus[0].flags,
            "Hyper-Threading, x86-64, MMX, AMD MMX, Physical Address Ext, SYSENTER/SYSEXIT, AMD virtualization, SYSCALL/SYSRET"
        );
        assert_eq!(cpus[1].flags, "Hyper-Threading, x86-64, MMX, Physical Address Ext, SYSENTER/SYSEXIT");
        assert_eq!(fmt::f1(cpus[1].bogomips), "5192.2");
        // The x86 parser finds nothing in an arm64 file, and the reverse.
        assert!(parse_cpuinfo(ARM64, "x86_64").iter().all(|c| c.model.is_empty()));
        assert!(parse_cpuinfo(X86, "aarch64").iter().all(|c| c.model.is_empty()));
        assert!(parse_cpuinfo("", "x86_64").is_empty());
    }

    #[test]
    fn aarch64_cpuinfo() {
        let cpus = parse_cpuinfo(ARM64, "aarch64");
        assert_eq!(cpus.len(), 3);
        assert_eq!(cpus[0].model, "ARM Neoverse-N1");
        assert_eq!(cpus[0].bogomips, 50.0);
        assert!(cpus[0].flags.starts_with("CPU Features: fp asimd evtstrm aes"));
        assert_eq!(cpus[1].model, "Microsoft Azure-Cobalt-100");
        assert_eq!(cpus[1].flags, "CPU Features: fp asimd");
        assert_eq!(cpus[2].model, "CPU implementer 0x99 CPU part 0x123");
        assert_eq!(arm_part("Ampere", "0xac3"), "Ampere-1");
        assert_eq!(arm_part("ARM", "0xd84"), "Neoverse-V3");
        assert_eq!(arm_implementer("0xc0"), "Ampere");
    }

    #[test]
    fn os_release() {
        let t = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n";
        assert_eq!(os_release_name(t).as_deref(), Some("Debian GNU/Linux 12 (bookworm)"));
        assert_eq!(os_release_name("NAME=Alpine\n").as_deref(), Some("Alpine"));
        assert_eq!(os_release_name("PRETTY_NAME='It''s'\n").as_deref(), Some("It''s"));
        assert_eq!(os_release_name("PRETTY_NAME=\"A \\\"q\\\" \\$x\"\n").as_deref(), Some("A \"q\" $x"));
        assert_eq!(os_release_name("ID=x\nPRETTY_NAME=\n"), None);
    }

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

    fn record(ty: i16, pid: i32, user: &str) -> Vec<u8> {
        let mut r = vec![0u8; UTMP_RECORD];
        r[0..2].copy_from_slice(&ty.to_ne_bytes());
        r[4..8].copy_from_slice(&pid.to_ne_bytes());
        r[44..44 + user.len()].copy_from_slice(user.as_bytes());
        r
    }

    #[test]
    fn utmp_records() {
        let mut b = record(2, 0, "reboot"); // BOOT_TIME
        b.extend(record(RUN_LVL, i32::from(b'N') << 8 | i32::from(b'5'), "runlevel"));
        b.extend(record(USER_PROCESS, 1234, "alice"));
        b.extend(record(USER_PROCESS, 1235, "bob"));
        b.extend(record(USER_PROCESS, 1236, "")); // no user: not counted
        b.extend(record(8, 1237, "carol")); // DEAD_PROCESS
        b.extend(record(6, 1238, "LOGIN")); // LOGIN_PROCESS
        assert_eq!(parse_utmp(&b), Utmp { users: 2, runlevel: Some('5') });
        assert_eq!(parse_utmp(&[]), Utmp::default());
        // A torn or foreign file is ignored rather than misread.
        assert_eq!(parse_utmp(&b[..500]), Utmp::default());
    }

    #[test]
    fn language_line() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        let none = |_: &str| false;
        let only = |n: &'static str| move |x: &str| x == n;
        assert_eq!(
            language(&env(&[("LANG", "en_US.utf8")]), &none),
            "en_US.utf8 (charmap=\"ANSI_X3.4-1968\", collate=\"ANSI_X3.4-1968\")"
        );
        assert_eq!(
            language(&env(&[("LANG", "en_US.utf8")]), &only("en_US.utf8")),
            "en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")"
        );
        // Installed under the normalised name.
        assert_eq!(
            language(&env(&[("LANG", "en_US.UTF-8")]), &only("en_US.utf8")),
            "en_US.UTF-8 (charmap=\"UTF-8\", collate=\"UTF-8\")"
        );
        // LC_ALL wins over LANG; LC_COLLATE only over LANG.
        assert_eq!(
            language(
                &env(&[("LANG", "en_US.utf8"), ("LC_COLLATE", "C"), ("LC_ALL", "")]),
                &only("en_US.utf8")
            ),
            "en_US.utf8 (charmap=\"UTF-8\", collate=\"ANSI_X3.4-1968\")"
        );
        assert_eq!(
            language(&env(&[("LANG", "en_US.utf8"), ("LC_ALL", "C.UTF-8")]), &none),
            "en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")"
        );
        assert_eq!(
            language(&env(&[]), &none),
            "unknown (charmap=\"ANSI_X3.4-1968\", collate=\"ANSI_X3.4-1968\")"
        );
        assert_eq!(charmap(Some("de_DE"), &only("de_DE")), "ISO-8859-1");
        assert_eq!(charmap(Some("de_DE.ISO-8859-15@euro"), &only("de_DE.iso885915@euro")), "ISO-8859-15");
        assert_eq!(normalize_codeset("8859-1"), "iso88591");
    }

    #[test]
    fn locale_archive_names() {
        // A small archive: header, a 3-slot hash table (one empty slot), then the strings.
        let strings = b"C.utf8\0en_US.utf8\0";
        let (hash_off, str_off) = (64u32, 64u32 + 36);
        let mut b = vec![0u8; 64];
        for (i, w) in
            [0xde02_0109u32, 1, hash_off, 2, 3, str_off, strings.len() as u32, 100].iter().enumerate()
        {
            b[i * 4..i * 4 + 4].copy_from_slice(&w.to_ne_bytes());
        }
        for (name_off, rec) in [(str_off, 500u32), (0, 0), (str_off + 7, 600)] {
            for w in [7u32, name_off, rec] {
                b.extend(w.to_ne_bytes());
            }
        }
        b.extend(strings);
        let names = archive_names(&mut Cursor::new(&b)).unwrap();
        assert_eq!(names, ["C.utf8", "en_US.utf8"]);
        b[0] ^= 0xff;
        assert_eq!(archive_names(&mut Cursor::new(&b)), None);
        assert_eq!(archive_names(&mut Cursor::new(&b[..10])), None);
    }

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
