//! Packs the host tests' data files (`data/` at the workspace root: the shell test's scripts
//! and sort input, dc's input, the C compiler test's source) into one stream, as twin's build
//! packs the twins' images and with its coder: 14 KB of text kept in 8 (docs/SIZE.md).
//! `src/workdir.rs` unpacks it when a work directory is written.

#[allow(dead_code)] // the build's half of the coder: `unpack` is the applets'
#[path = "../twin/src/lz.rs"]
mod lz;

use std::{env, fs, path::Path};

/// The files, in the order they are packed; `workdir::FILES` names them with their modes.
const DATA: [&str; 5] = ["multi.sh", "tst.sh", "sort.src", "dc.dat", "cctest.c"];

fn main() {
    let out = env::var("OUT_DIR").unwrap();
    let mut all = Vec::new();
    let mut sizes = String::new();
    for name in DATA {
        let path = Path::new("../../data").join(name);
        println!("cargo:rerun-if-changed={}", path.display());
        let bytes = fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        sizes += &format!("    (\"{name}\", {}),\n", bytes.len());
        all.extend(bytes);
    }
    println!("cargo:rerun-if-changed=../twin/src/lz.rs");
    fs::write(Path::new(&out).join("data.lz"), lz::pack(&all)).unwrap();
    let table = format!("/// Each packed file's name and length, in the stream's order.\nconst PACKED_FILES: &[(&str, usize)] = &[\n{sizes}];\n");
    fs::write(Path::new(&out).join("data.rs"), table).unwrap();
}
