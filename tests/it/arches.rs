//! The binaries of the CPUs this machine can only emulate (armv7, armv6, riscv64, s390x, mipsel,
//! mips, ppc64le: the ones `make ARCH` builds on the pinned nightly), run under qemu-user: each is static and within
//! 1 MiB less 32 KiB, every applet that needs no X prints its protocol lines, and a short index runs through
//! the driver. `make test` and `make test-arches` pass the binaries in `UNIXBENCH_ARCHES`, one
//! `NAME:QEMU:CPU:PATH` entry per binary, space-separated. Nothing measured here is a figure of
//! anything: the CPU is emulated.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Arch {
    name: String,
    qemu: String,
    cpu: String,
    bin: PathBuf,
}

impl Arch {
    /// `BIN ARGS` under qemu-user, with the CPU set for it and for every program it execs
    /// (binfmt_misc runs those through qemu too, which reads QEMU_CPU).
    fn ub(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.qemu);
        c.arg("-cpu").arg(&self.cpu).arg(&self.bin).args(args).env("QEMU_CPU", &self.cpu);
        c
    }
}

/// The binaries `UNIXBENCH_ARCHES` names; unset, a skip (which fails under make test). Set, it
/// must name at least one: an empty list would pass every test here with nothing run.
fn arches() -> Vec<Arch> {
    let Some(v) = std::env::var_os("UNIXBENCH_ARCHES") else {
        skip("arches", "UNIXBENCH_ARCHES not set (make test sets it)");
        return Vec::new();
    };
    let v = v.to_string_lossy();
    entries(&v)
        .unwrap_or_else(|e| panic!("UNIXBENCH_ARCHES: {e}"))
        .into_iter()
        .map(|[name, qemu, cpu, path]| {
            let bin = std::path::absolute(path).unwrap();
            assert!(bin.is_file(), "{name}: {} is not built", bin.display());
            Arch { name: name.into(), qemu: qemu.into(), cpu: cpu.into(), bin }
        })
        .collect()
}

/// The `NAME:QEMU:CPU:PATH` entries of a value of `UNIXBENCH_ARCHES`, space-separated; an error
/// for an entry of another shape, or for a value that names none.
fn entries(v: &str) -> Result<Vec<[&str; 4]>, String> {
    let mut out = Vec::new();
    for e in v.split_whitespace() {
        let f: Vec<&str> = e.splitn(4, ':').collect();
        match f[..] {
            [name, qemu, cpu, path] if f.iter().all(|x| !x.is_empty()) => out.push([name, qemu, cpu, path]),
            _ => return Err(format!("entry {e:?} is not NAME:QEMU:CPU:PATH")),
        }
    }
    if out.is_empty() {
        return Err(format!("{v:?} names no binary (NAME:QEMU:CPU:PATH ...), so nothing would be tested"));
    }
    Ok(out)
}

/// An empty or blank list fails rather than passing with nothing run, and so does a malformed
/// entry; a well-formed list is read entry by entry.
#[test]
fn an_empty_arches_list_is_refused() {
    for v in ["", " ", " \t\n "] {
        assert!(entries(v).unwrap_err().contains("names no binary"), "{v:?}");
    }
    assert!(entries("armv7:qemu-arm-static:cortex-a7").unwrap_err().contains("NAME:QEMU:CPU:PATH"));
    assert!(entries("armv7::cortex-a7:x").is_err());
    let two = entries(" armv7:qemu-arm-static:cortex-a7:a  s390x:qemu-s390x-static:max:b/c:d ").unwrap();
    assert_eq!(
        two,
        [["armv7", "qemu-arm-static", "cortex-a7", "a"], ["s390x", "qemu-s390x-static", "max", "b/c:d"]]
    );
}

/// Whether binfmt_misc runs this CPU's programs through qemu: the driver and execl exec the
/// binary itself, which the kernel can only do then. `make test-deps` registers them.
fn binfmt(a: &Arch) -> bool {
    let entry = a.qemu.trim_end_matches("-static");
    Path::new("/proc/sys/fs/binfmt_misc").join(entry).exists()
}

/// A field of `n` bytes at `off` in the ELF's byte order.
fn field(elf: &[u8], off: usize, n: usize) -> u64 {
    let b = &elf[off..off + n];
    if elf[5] == 2 {
        b.iter().fold(0, |v, &x| v << 8 | u64::from(x))
    } else {
        b.iter().rev().fold(0, |v, &x| v << 8 | u64::from(x))
    }
}

/// The bytes a CPU's binary may hold: 1 MiB with 32 KiB to spare, room for the next feature,
/// and 128 KiB on x86_64 (docs/SIZE.md). s390x, whose code is the least dense, is held where it
/// stands until its code shrinks ("Over the goal" there). os_kernels.rs holds x86_64 and i686
/// to theirs, rigs.rs aarch64.
pub fn bound(cpu: &str) -> usize {
    match cpu {
        "x86_64" => (1 << 20) - (128 << 10),
        "s390x" => S390X_BOUND,
        _ => (1 << 20) - (32 << 10),
    }
}

/// s390x's bound until it meets the others' (docs/SIZE.md, "Over the goal").
const S390X_BOUND: usize = 1 << 20;

#[test]
fn each_binary_is_static_and_within_its_bound() {
    for a in arches() {
        let elf = std::fs::read(&a.bin).unwrap();
        assert!(elf.len() <= bound(&a.name), "{}: {} bytes, more than {}", a.name, elf.len(), bound(&a.name));
        assert_eq!(&elf[..4], b"\x7fELF", "{}", a.name);
        let wide = elf[4] == 2;
        let (phoff, phentsize, phnum) = if wide {
            (field(&elf, 0x20, 8), field(&elf, 0x36, 2), field(&elf, 0x38, 2))
        } else {
            (field(&elf, 0x1c, 4), field(&elf, 0x2a, 2), field(&elf, 0x2c, 2))
        };
        assert!(phnum > 0, "{}", a.name);
        for i in 0..phnum {
            let p_type = field(&elf, (phoff + i * phentsize) as usize, 4);
            assert_ne!(p_type, 3, "{}: PT_INTERP: the binary is dynamically linked", a.name);
            assert_ne!(p_type, 2, "{}: PT_DYNAMIC: the binary is not plain static", a.name);
        }
        // The machine and byte order each name says: a mix-up of targets cannot pass.
        let (class, data, machine) = match a.name.as_str() {
            "armv7" | "armv6" => (1, 1, 40),
            "riscv64" => (2, 1, 243),
            "s390x" => (2, 2, 22),
            "mipsel" => (1, 1, 8),
            "mips" => (1, 2, 8),
            "ppc64le" => (2, 1, 21),
            other => panic!("no ELF identity known for {other}"),
        };
        assert_eq!((elf[4], elf[5], field(&elf, 0x12, 2)), (class, data, machine), "{}", a.name);
        eprintln!("{}: {} bytes, static", a.name, elf.len());
    }
}

/// `--version` names the target the binary was built for, and the binary runs at all.
#[test]
fn each_binary_names_its_target() {
    for a in arches() {
        let o = run(&mut a.ub(&["--version"]));
        assert!(o.status.success(), "{}: {}", a.name, stderr(&o));
        let triple = match a.name.as_str() {
            "armv7" => "armv7-unknown-linux-musleabihf",
            "armv6" => "arm-unknown-linux-musleabihf",
            "riscv64" => "riscv64gc-unknown-linux-musl",
            "s390x" => "s390x-unknown-linux-musl",
            "mipsel" => "mipsel-unknown-linux-musl",
            "mips" => "mips-unknown-linux-musl",
            "ppc64le" => "powerpc64le-unknown-linux-musl",
            other => panic!("no target known for {other}"),
        };
        assert!(stdout(&o).contains(triple), "{}: {}", a.name, stdout(&o));
    }
}

/// Every applet that needs no X display, run once briefly: it exits 0 and prints COUNT lines
/// with positive counts (Dhrystone and Whetstone check their own results and fail otherwise).
#[test]
fn each_binary_runs_every_kernel_under_qemu() {
    for a in arches() {
        let dir = Scratch::new(&format!("arch-{}", a.name));
        let d = dir.path().to_str().unwrap();
        let o = run(&mut a.ub(&["--list"]));
        assert!(o.status.success(), "{}: {}", a.name, stderr(&o));
        let listed: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        let mut kernels: Vec<Vec<&str>> = vec![
            vec!["dhry2reg", "1"],
            vec!["dhry2", "1"],
            vec!["whetstone-double", "1"],
            vec!["syscall", "1"],
            vec!["syscall", "1", "getpid"],
            vec!["pipe", "1"],
            vec!["context1", "1"],
            vec!["spawn", "1"],
            vec!["fstime", "-c", "-t", "1", "-s", "0.1", "-b", "1024", "-m", "500", "-d", d],
            vec!["fstime", "-w", "-t", "1", "-s", "0.1", "-b", "256", "-m", "500", "-d", d],
            vec!["fstime", "-r", "-t", "1", "-s", "0.1", "-b", "4096", "-m", "500", "-d", d],
            vec!["arithoh", "1"],
            vec!["register", "1"],
            vec!["short", "1"],
            vec!["int", "1"],
            vec!["long", "1"],
            vec!["float", "1"],
            vec!["double", "1"],
            vec!["hanoi", "1"],
            vec!["looper", "1", "/bin/true"],
        ];
        if binfmt(&a) {
            kernels.push(vec!["execl", "1"]);
            kernels.push(vec!["syscall", "1", "exec"]);
        } else {
            // What execs another program runs it through binfmt_misc, which a container's
            // kernel may refuse to register.
            skip_on_this_host(
                "binfmt_misc",
                &format!("{}: execl and syscall exec", a.name),
                &format!("no binfmt_misc entry for {}", a.qemu),
            );
        }
        let mut seen: Vec<&str> = Vec::new();
        for k in &kernels {
            let o = run(a.ub(k).current_dir(dir.path()).env("TMPDIR", dir.path()).env_remove("UB_TMPDIR"));
            let err = stderr(&o);
            assert!(o.status.success(), "{} {k:?}: {:?}\n{err}", a.name, o.status);
            let c = counts(&err);
            assert!(!c.is_empty() && c.iter().all(|(n, _, _)| *n > 0.0), "{} {k:?}: {err}", a.name);
            eprintln!(
                "{} (emulated, not a benchmark): {} -> {}",
                a.name,
                k.join(" "),
                err.trim().replace('\n', " ")
            );
            seen.push(k[0]);
        }
        // lmbench's processor section, shortest mode: a table with its rows filled.
        let o =
            run(&mut a.ub(&["lmbench", "-s", "--only", "lat_syscall,lat_nullio,lat_siginstall", "--dir", d]));
        assert!(o.status.success(), "{} lmbench: {}", a.name, stderr(&o));
        assert!(stdout(&o).contains("null call"), "{} lmbench: {}", a.name, stdout(&o));
        seen.push("lmbench");
        // workdir writes the shell tests' files and names their command line.
        let o = run(&mut a.ub(&["workdir", d, "shell1"]));
        assert!(o.status.success() && !stdout(&o).trim().is_empty(), "{} workdir: {}", a.name, stderr(&o));
        seen.push("workdir");
        seen.push("Run"); // the driver: each_binary_runs_a_short_index_under_qemu
        for l in &listed {
            let l = l.as_str();
            let skipped_for_binfmt = !binfmt(&a) && l == "execl";
            assert!(seen.contains(&l) || skipped_for_binfmt, "{}: applet {l} is not exercised here", a.name);
        }
    }
}

/// The whole index, one copy, each test for a second, through the driver: every result line
/// is in the report.
#[test]
fn each_binary_runs_a_short_index_under_qemu() {
    for a in arches() {
        if !binfmt(&a) {
            skip_on_this_host(
                "binfmt_misc",
                &format!("{}: short index", a.name),
                &format!("no binfmt_misc entry for {}", a.qemu),
            );
            continue;
        }
        let dir = Scratch::new(&format!("arch-index-{}", a.name));
        let results = dir.path().join("results");
        let o = run(a
            .ub(&["-q", "-t", "1", "-i", "1", "-c", "1", "--results", results.to_str().unwrap(), "--tmpdir"])
            .arg(dir.path())
            .current_dir(dir.path()));
        let out = stdout(&o);
        assert!(o.status.success(), "{}: {:?}\n{out}\n{}", a.name, o.status, stderr(&o));
        for m in [
            "Dhrystone 2 using register variables",
            "Double-Precision Whetstone",
            "Execl Throughput",
            "File Copy 1024 bufsize 2000 maxblocks",
            "File Copy 256 bufsize 500 maxblocks",
            "File Copy 4096 bufsize 8000 maxblocks",
            "Pipe Throughput",
            "Pipe-based Context Switching",
            "Process Creation",
            "Shell Scripts (1 concurrent)",
            "Shell Scripts (8 concurrent)",
            "System Call Overhead",
        ] {
            assert!(
                out.lines().any(|l| l.starts_with(m) && l.contains("samples)")),
                "{}: {m}:\n{out}",
                a.name
            );
        }
        assert!(out.contains("System Benchmarks Index Score"), "{}:\n{out}", a.name);
        eprintln!("{} (emulated, not a benchmark):\n{out}", a.name);
    }
}

/// A twin's C library family, its loader, and the files its root needs (path in the root,
/// source on this host).
type TwinRoot = (&'static str, &'static str, Vec<(&'static str, PathBuf)>);

/// The twins of execl and spawn that armv7, riscv64 and ppc64le carry, each run through its own
/// C library's loader, in a root that holds only that loader and library (copied from Debian's
/// cross packages, and for riscv64's musl from the one the Makefile builds:
/// `UNIXBENCH_RISCV64_MUSL_SO`), under qemu-user through binfmt_misc.
#[test]
fn the_twins_run_under_qemu_on_their_own_c_library() {
    let Some(musl_rv) = std::env::var_os("UNIXBENCH_RISCV64_MUSL_SO").map(PathBuf::from) else {
        return skip("arch twins", "UNIXBENCH_RISCV64_MUSL_SO not set (make test sets it)");
    };
    if !crate::rigs::is_root() {
        return skip("arch twins", "needs root to chroot");
    }
    for a in arches() {
        // (family, loader, [(file in the root, its source)]); the glibc loaders look in /lib
        // and in the multiarch and lp64d directories.
        let twins: Vec<TwinRoot> = match a.name.as_str() {
            "armv7" => {
                let g = Path::new("/usr/arm-linux-gnueabihf/lib");
                vec![
                    (
                        "glibc",
                        "/lib/ld-linux-armhf.so.3",
                        vec![
                            ("lib/ld-linux-armhf.so.3", g.join("ld-linux-armhf.so.3")),
                            ("lib/libc.so.6", g.join("libc.so.6")),
                        ],
                    ),
                    (
                        "musl",
                        "/lib/ld-musl-armhf.so.1",
                        vec![("lib/ld-musl-armhf.so.1", "/usr/lib/arm-linux-musleabihf/libc.so".into())],
                    ),
                ]
            }
            "riscv64" => {
                let g = Path::new("/usr/riscv64-linux-gnu/lib");
                vec![
                    (
                        "glibc",
                        "/lib/ld-linux-riscv64-lp64d.so.1",
                        vec![
                            ("lib/ld-linux-riscv64-lp64d.so.1", g.join("ld-linux-riscv64-lp64d.so.1")),
                            ("lib/libc.so.6", g.join("libc.so.6")),
                            ("lib64/lp64d/libc.so.6", g.join("libc.so.6")),
                            ("lib/riscv64-linux-gnu/libc.so.6", g.join("libc.so.6")),
                        ],
                    ),
                    (
                        "musl",
                        "/lib/ld-musl-riscv64.so.1",
                        vec![("lib/ld-musl-riscv64.so.1", musl_rv.clone())],
                    ),
                ]
            }
            "ppc64le" => {
                let g = Path::new("/usr/powerpc64le-linux-gnu/lib");
                vec![
                    (
                        "glibc",
                        "/lib64/ld64.so.2",
                        vec![
                            ("lib64/ld64.so.2", g.join("ld64.so.2")),
                            ("lib64/libc.so.6", g.join("libc.so.6")),
                            ("lib/powerpc64le-linux-gnu/libc.so.6", g.join("libc.so.6")),
                        ],
                    ),
                    (
                        "musl",
                        "/lib/ld-musl-powerpc64le.so.1",
                        vec![(
                            "lib/ld-musl-powerpc64le.so.1",
                            "/usr/lib/powerpc64le-linux-musl/libc.so".into(),
                        )],
                    ),
                ]
            }
            _ => {
                // No twins: the applets say so and time the static image.
                let o = run(a.ub(&["spawn", "1"]).env_remove("UB_EXEC_IMAGE"));
                assert!(o.status.success(), "{}: {}", a.name, stderr(&o));
                assert!(
                    stderr(&o).starts_with("IMAGE|static|this build carries no dynamic spawn image"),
                    "{}: {}",
                    a.name,
                    stderr(&o)
                );
                continue;
            }
        };
        if !binfmt(&a) {
            let (what, why) = (format!("{} twins", a.name), format!("no binfmt_misc entry for {}", a.qemu));
            skip_on_this_host("binfmt_misc", &what, &why);
            continue;
        }
        for (family, loader, files) in twins {
            let root = Scratch::new(&format!("arch-twin-{}-{family}", a.name));
            for (to, from) in &files {
                let to = root.path().join(to);
                std::fs::create_dir_all(to.parent().unwrap()).unwrap();
                std::fs::copy(from, &to).unwrap_or_else(|e| panic!("{}: {}: {e}", a.name, from.display()));
            }
            std::fs::create_dir(root.path().join("tmp")).unwrap();
            std::fs::copy(&a.bin, root.path().join("unixbench")).unwrap();
            for program in ["execl", "spawn"] {
                let o = run(crate::rigs::chroot(root.path())
                    .args(["/unixbench", program, "1"])
                    .env("QEMU_CPU", &a.cpu)
                    .env("UB_EXEC_IMAGE", format!("dynamic-{family}"))
                    .env("TMPDIR", "/tmp")
                    .env_remove("UB_TMPDIR"));
                let err = stderr(&o);
                assert!(o.status.success(), "{} {family} {program}: {err}", a.name);
                assert!(err.starts_with(&format!("IMAGE|dynamic-{family}|{loader}\n")), "{}: {err}", a.name);
                assert!(counts(&err).len() == 1 && counts(&err)[0].0 > 0.0, "{}: {err}", a.name);
                eprintln!(
                    "{} {family} twin (emulated, not a benchmark): {program} 1 -> {}",
                    a.name,
                    err.trim()
                );
            }
            let left = std::fs::read_dir(root.path().join("tmp")).unwrap().count();
            assert_eq!(left, 0, "{} {family}: the staged twin is left in /tmp", a.name);
        }
    }
}
