//! Builds the dynamically linked twins of C's `execl` and `spawn` (`programs/execl.rs`,
//! `programs/spawn.rs`) for the target's architecture, one per C library family, and writes the
//! table and the packed images that `src/exec_image.rs` embeds (`$OUT_DIR/twins.rs`, `twins.lz`).
//!
//! Each twin is compiled by rustc as a `no_std` static library and linked by the C compiler
//! with the C library's own start files (Scrt1.o, crti.o, crtbeginS.o, ...) as a PIE, as
//! UnixBench's Makefile links the C programs. glibc twins are linked against a stub
//! `libc.so.6` whose symbols all carry the architecture's oldest version node (GLIBC_2.2.5 on
//! x86_64, GLIBC_2.17 on aarch64), so the image loads on every glibc from 2.17 on; the real
//! library on the build host would record `__libc_start_main@GLIBC_2.34`. musl has no symbol
//! versions. The images are stored one after the other in one stream packed by
//! `src/lz.rs`, which the applets use to unpack it.
//!
//! What the build needs, and the Makefile installs: rustup's `<arch>-unknown-linux-musl`
//! target (for `core`), the C compiler and binutils for the architecture, and Debian's `musl-dev`
//! for it. A missing piece fails the build with a line naming it.

#[path = "src/elf.rs"]
mod elf;
// The applets unpack what the build packs: each side uses its half of the file.
#[allow(dead_code)]
#[path = "src/lz.rs"]
mod lz;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::{env, fs};

struct Arch {
    /// rustc's target for compiling the twins' `no_std` code (only `core` is used).
    rust_target: &'static str,
    /// Prefix of the C compiler and binutils (`aarch64-linux-gnu-`), empty for the host's.
    tool_prefix: &'static str,
    /// glibc's first symbol version on this architecture.
    glibc_version: &'static str,
    /// Debian's musl-dev library directory (or, where Debian has none, the musl that the
    /// Makefile builds, named by `UNIXBENCH_TWIN_MUSL_LIB`) and the musl loader.
    musl_lib: String,
    musl_loader: &'static str,
}

/// The twins built for `target` (rustc's triple of the binary), if any.
fn arch(target: &str) -> Option<Arch> {
    let musl_lib = |debian: &str| env::var("UNIXBENCH_TWIN_MUSL_LIB").unwrap_or_else(|_| debian.to_string());
    let a = |rust_target, tool_prefix, glibc_version, musl_lib, musl_loader| {
        Some(Arch { rust_target, tool_prefix, glibc_version, musl_lib, musl_loader })
    };
    match target {
        "x86_64-unknown-linux-musl" | "x86_64-unknown-linux-gnu" => a(
            "x86_64-unknown-linux-musl",
            "",
            "GLIBC_2.2.5",
            "/usr/lib/x86_64-linux-musl".into(),
            "/lib/ld-musl-x86_64.so.1",
        ),
        "aarch64-unknown-linux-musl" | "aarch64-unknown-linux-gnu" => a(
            "aarch64-unknown-linux-musl",
            "aarch64-linux-gnu-",
            "GLIBC_2.17",
            "/usr/lib/aarch64-linux-musl".into(),
            "/lib/ld-musl-aarch64.so.1",
        ),
        // ARMv7 hard float: Raspberry Pi OS on a Pi 2 or later, Debian armhf, Alpine armv7.
        // glibc's armhf port starts at 2.4 (EABI).
        "armv7-unknown-linux-musleabihf" => a(
            "armv7-unknown-linux-musleabihf",
            "arm-linux-gnueabihf-",
            "GLIBC_2.4",
            musl_lib("/usr/lib/arm-linux-musleabihf"),
            "/lib/ld-musl-armhf.so.1",
        ),
        // glibc's riscv64 port starts at 2.27; Debian 12 has no riscv64 musl-dev, so the musl
        // is the one the Makefile builds.
        "riscv64gc-unknown-linux-musl" => a(
            "riscv64gc-unknown-linux-musl",
            "riscv64-linux-gnu-",
            "GLIBC_2.27",
            musl_lib("/usr/lib/riscv64-linux-musl"),
            "/lib/ld-musl-riscv64.so.1",
        ),
        // POWER8 and later, little-endian: glibc's ppc64le port starts at 2.17.
        "powerpc64le-unknown-linux-musl" => a(
            "powerpc64le-unknown-linux-musl",
            "powerpc64le-linux-gnu-",
            "GLIBC_2.17",
            musl_lib("/usr/lib/powerpc64le-linux-musl"),
            "/lib/ld-musl-powerpc64le.so.1",
        ),
        _ => None,
    }
}

const PROGRAMS: [&str; 2] = ["execl", "spawn"];
/// What the glibc stub exports as data rather than functions.
const DATA_SYMBOLS: [&str; 3] = ["stdin", "stdout", "stderr"];

fn fail(msg: String) -> ! {
    eprintln!("error: twin: {msg}");
    std::process::exit(1)
}

fn run(cmd: &mut Command, what: &str) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| {
        fail(format!("{what}: cannot run {:?}: {e} (`make` installs the build's tools)", cmd.get_program()))
    });
    if !out.status.success() {
        fail(format!("{what} failed ({}): {}", out.status, String::from_utf8_lossy(&out.stderr).trim()));
    }
    out.stdout
}

/// Writes `$OUT_DIR/twins.rs` and `twins.lz`: the embedded images for the target architecture
/// (none for an architecture without twins: the applets then run the static image and say so).
fn main() {
    for f in
        ["build.rs", "programs/libc.rs", "programs/execl.rs", "programs/spawn.rs", "src/elf.rs", "src/lz.rs"]
    {
        println!("cargo:rerun-if-changed={f}");
    }
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    println!("cargo:rerun-if-env-changed=UNIXBENCH_TWIN_MUSL_LIB");
    let target = env::var("TARGET").unwrap_or_default();
    let mut table = String::from("&[\n");
    let mut all = Vec::new();
    if let Some(a) = arch(&target) {
        let core = core_for(&a, &out);
        for program in PROGRAMS {
            let lib = compile(&a, program, &out, core.as_deref());
            for (libc, image) in
                [("glibc", link_glibc(&a, program, &lib, &out)), ("musl", link_musl(&a, program, &lib, &out))]
            {
                let bytes = fs::read(&image).unwrap_or_else(|e| fail(format!("{}: {e}", image.display())));
                let interp = elf::interpreter(&bytes)
                    .unwrap_or_else(|| fail(format!("{}: no PT_INTERP", image.display())));
                table.push_str(&format!(
                    "    Twin {{ program: {program:?}, libc: {libc:?}, loader: {interp:?}, offset: {}, size: {} }},\n",
                    all.len(),
                    bytes.len()
                ));
                all.extend_from_slice(&bytes);
            }
        }
    }
    table.push_str("]\n");
    fs::write(out.join("twins.rs"), table).unwrap();
    // One stream: the images share their start files, symbol tables and much of their code.
    fs::write(out.join("twins.lz"), lz::pack(&all)).unwrap();
}

/// The twin's Rust code as a static library (its own code plus the parts of `core` it uses).
fn compile(a: &Arch, program: &str, out: &Path, core: Option<&Path>) -> PathBuf {
    let lib = out.join(format!("libtwin-{program}.a"));
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let mut cmd = Command::new(rustc);
    if let Some(dir) = core {
        cmd.arg("-L").arg(dir);
    }
    if a.rust_target.starts_with("arm") {
        // ARM's unwind table entries name a personality routine that the C library's loader
        // does not export; nothing in a twin unwinds (panic=abort), so it gets none.
        cmd.args(["-C", "force-unwind-tables=no"]);
    }
    run(
        cmd.args(["--edition", "2021", "--crate-type", "staticlib", "--target", a.rust_target])
            .args([
                "-C",
                "panic=abort",
                "-C",
                "opt-level=2",
                "-C",
                "relocation-model=pic",
                // Calls into the C library through the PLT, bound lazily, as gcc compiles C's
                // programs: with full RELRO (rustc's default) rustc calls through the GOT, bound
                // at load, and then spawn's children never resolve `exit` on their first call,
                // which each child of C's spawn does (five page faults and 3-8% of a fork).
                "-C",
                "relro-level=partial",
                "-C",
                "debuginfo=0",
            ])
            .args(["--cfg", &format!("twin=\"{program}\"")])
            .arg(format!("programs/{program}.rs"))
            .arg("-o")
            .arg(&lib)
            .env_remove("CARGO_ENCODED_RUSTFLAGS"),
        &format!("compiling programs/{program}.rs for {}", a.rust_target),
    );
    lib
}

/// Where the twins' `core` is for a target that rustup serves no standard library for (the
/// targets built with `-Zbuild-std` on the nightly): built here from the toolchain's `rust-src`,
/// with an empty `compiler_builtins` (rustc asks for one in every `no_std` crate; the twins'
/// few intrinsics come from the C compiler's libgcc, which each link names). None where the
/// toolchain has the target's own.
fn core_for(a: &Arch, out: &Path) -> Option<PathBuf> {
    let rustc = env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let libdir = run(
        Command::new(&rustc).args(["--print", "target-libdir", "--target", a.rust_target]),
        "asking rustc for the target's library directory",
    );
    let libdir = PathBuf::from(String::from_utf8_lossy(&libdir).trim());
    let has_core = fs::read_dir(&libdir)
        .map(|d| d.flatten().any(|e| e.file_name().to_string_lossy().starts_with("libcore-")))
        .unwrap_or(false);
    if has_core {
        return None;
    }
    let sysroot = run(Command::new(&rustc).args(["--print", "sysroot"]), "asking rustc for its sysroot");
    let src = PathBuf::from(String::from_utf8_lossy(&sysroot).trim()).join("lib/rustlib/src/rust/library");
    let dir = out.join("twin-core");
    fs::create_dir_all(&dir).unwrap();
    let common = |cmd: &mut Command| {
        cmd.args([
            "--crate-type",
            "rlib",
            "--target",
            a.rust_target,
            "-C",
            "panic=abort",
            "-C",
            "opt-level=2",
        ])
        .args(["-C", "debuginfo=0", "-Z", "force-unstable-if-unmarked", "--out-dir"])
        .arg(&dir)
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    };
    let mut core = Command::new(&rustc);
    core.args(["--edition", "2024", "--crate-name", "core"]).arg(src.join("core/src/lib.rs"));
    common(&mut core);
    run(&mut core, &format!("building core for the twins from rust-src ({})", src.display()));
    let cb = dir.join("compiler_builtins.rs");
    fs::write(&cb, "#![feature(compiler_builtins)]\n#![compiler_builtins]\n#![no_std]\n").unwrap();
    let mut builtins = Command::new(&rustc);
    builtins.args(["--edition", "2021", "--crate-name", "compiler_builtins", "-L"]).arg(&dir).arg(&cb);
    common(&mut builtins);
    run(&mut builtins, "building the twins' empty compiler_builtins");
    Some(dir)
}

fn cc(a: &Arch) -> Command {
    Command::new(format!("{}gcc", a.tool_prefix))
}

fn gcc_file(a: &Arch, name: &str) -> String {
    let p = run(cc(a).arg(format!("-print-file-name={name}")), "locating the C compiler's files");
    String::from_utf8_lossy(&p).trim().to_string()
}

/// Links against glibc: first against the build host's library to learn the imports, then
/// against a stub that gives each of them the oldest version node.
fn link_glibc(a: &Arch, program: &str, lib: &Path, out: &Path) -> PathBuf {
    let probe = out.join(format!("{program}-glibc.probe"));
    run(
        cc(a).arg("-pie").arg("-o").arg(&probe).arg(lib),
        &format!("linking the {program} twin against glibc"),
    );
    let syms = run(
        Command::new(format!("{}nm", a.tool_prefix))
            .args(["-D", "--undefined-only", "--format=just-symbols"])
            .arg(&probe),
        "listing the twin's imports",
    );
    let imports: Vec<String> = String::from_utf8_lossy(&syms)
        .lines()
        .map(|s| s.split('@').next().unwrap_or("").to_string())
        .filter(|s| !s.is_empty() && !s.starts_with("_ITM_") && s != "__gmon_start__")
        .collect();
    let dir = out.join(format!("stub-{program}"));
    fs::create_dir_all(&dir).unwrap();
    let mut c = String::new();
    for s in &imports {
        if DATA_SYMBOLS.contains(&s.as_str()) {
            c.push_str(&format!("void *{s};\n"));
        } else {
            c.push_str(&format!("void {s}(void) {{}}\n"));
        }
    }
    fs::write(dir.join("stub.c"), c).unwrap();
    fs::write(
        dir.join("stub.map"),
        format!("{} {{ global: {}; local: *; }};\n", a.glibc_version, imports.join("; ")),
    )
    .unwrap();
    run(
        cc(a)
            .args(["-shared", "-nostdlib", "-fPIC", "-Wl,-soname,libc.so.6"])
            .arg(format!("-Wl,--version-script={}", dir.join("stub.map").display()))
            .arg("-o")
            .arg(dir.join("libc.so.6"))
            .arg(dir.join("stub.c")),
        "building the glibc version stub",
    );
    let image = out.join(format!("{program}-glibc"));
    run(
        cc(a).args(["-pie", "-s", "-nodefaultlibs", "-o"]).arg(&image).arg(lib).arg(dir.join("libc.so.6")),
        &format!("linking the {program} twin against the glibc stub"),
    );
    image
}

/// Links against musl with musl-gcc's recipe: musl's start files around the C compiler's.
fn link_musl(a: &Arch, program: &str, lib: &Path, out: &Path) -> PathBuf {
    let m = |f: &str| {
        let p = Path::new(&a.musl_lib).join(f);
        if !p.exists() {
            fail(format!("{} is missing (Debian's musl-dev for this architecture)", p.display()));
        }
        p
    };
    let image = out.join(format!("{program}-musl"));
    run(
        cc(a)
            .args(["-nostdlib", "-pie", "-s"])
            .arg(format!("-Wl,-dynamic-linker,{}", a.musl_loader))
            .arg(m("Scrt1.o"))
            .arg(m("crti.o"))
            .arg(gcc_file(a, "crtbeginS.o"))
            .arg(lib)
            // By name, not path: musl's libc.so has no soname, and its loader answers to
            // `libc.so` itself, wherever the host keeps it.
            .arg(format!("-L{}", m("libc.so").parent().unwrap().display()))
            .arg("-lc")
            .arg(gcc_file(a, "libgcc.a"))
            .arg(gcc_file(a, "crtendS.o"))
            .arg(m("crtn.o"))
            .arg("-o")
            .arg(&image),
        &format!("linking the {program} twin against musl"),
    );
    image
}
