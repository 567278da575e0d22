//! The CPU lines: /proc/cpuinfo parsed as `Run` parsed it, with the x86 flags it describes
//! and the ARM implementer and part tables that name an aarch64 core.

use crate::json::decimal::parse_f64;
use crate::model::Cpu;

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
    parse_f64(&s[..end]).unwrap_or(0.0)
}
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::fmt;

    pub(crate) const X86: &str = "processor\t: 0
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
}
