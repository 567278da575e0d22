//! Tidy checks on the source tree itself: invariants that review would otherwise have to catch.
//! The checks of code read it as tokens (`lex`): comments and literals are no code, and paths
//! are read whole, however a `use` groups them. Each says what it cannot see.

mod lex;

use lex::{closing, paths, tokens, without_test_items, Tok, Token};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The workspace's packages: the binary (the root) and every member under crates/.
fn package_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut dirs = vec![root.to_path_buf()];
    let mut members: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    members.sort();
    dirs.extend(members);
    dirs
}

/// Every Rust source file of every package (build scripts included).
fn all_rust_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in package_dirs() {
        rust_files(&dir.join("src"), &mut files);
        if dir.join("build.rs").exists() {
            files.push(dir.join("build.rs"));
        }
    }
    files
}

/// The one directory where `unsafe` may appear: the `sys` module of the bottom crate.
const SYS: &str = "crates/base/src/sys";

/// `unsafe` lives in the sys module only: kernels and the driver call its thin, documented
/// wrappers. The word as a token, wherever it stands (a block, a function, an impl); the tables
/// that build scripts generate and `include!` from OUT_DIR are not read (they are data, and
/// the build scripts that write them are).
#[test]
fn unsafe_only_in_sys() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = all_rust_files();
    assert!(files.iter().any(|p| p.starts_with(root.join(SYS))), "no sources under {SYS}");
    let offenders: Vec<String> = files
        .iter()
        .filter(|p| !p.starts_with(root.join(SYS)))
        .filter_map(|p| {
            let t = tokens(&std::fs::read_to_string(p).unwrap());
            let at = t.iter().find(|t| t.is("unsafe"))?.line;
            Some(format!("{}:{at}", p.strip_prefix(root).unwrap().display()))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "unsafe outside {SYS}: {offenders:?} (code generated into OUT_DIR is not read here)"
    );
}

/// Every file is opened through `sys::fd::open_file` (non-blocking, kind checked on the
/// descriptor, never following a link where it writes), so that nothing planted at a path can
/// block the tool or be written through: no other way to open a file outside `sys` and the
/// tests. The raw open (`fd::open`, `open_c`) is for the devices and the kernels' own files in
/// the private directories they made, opened with their C programs' flags, in these files only.
///
/// Read as paths, however written: `std::fs::File::create(`, `File::options()`,
/// `OpenOptions::new()`, `fs::write`, called, passed as a function or imported (whose bare call
/// the import names), through a `use ... as` rename too; a glob import of `fs` or `fd`, past
/// which a bare name could hide, is refused. It cannot see a type alias of `File` (`type F =
/// File; F::open`), nor a path a macro pastes together; the items compiled for tests only make
/// their fixtures as they like.
#[test]
fn every_file_is_opened_through_open_file() {
    const OTHER_OPENS: &[&[&str]] = &[
        &["File", "open"],
        &["File", "create"],
        &["File", "create_new"],
        &["File", "options"],
        &["OpenOptions"],
        &["fs", "read"],
        &["fs", "read_to_string"],
        &["fs", "write"],
        &["fs", "copy"],
    ];
    const RAW_OPENS: &[&[&str]] = &[&["fd", "open"], &["open_c"]];
    // Globbed, these would let a bare `open(` or `read(` through.
    const NO_GLOB: &[&str] = &["fs", "fd"];
    // /dev/null for the copies; fstime's and lmbench's own files and /dev/zero, timed as C's.
    const RAW_ALLOWED: &[&str] = &[
        "crates/driver/src/exec.rs",
        "src/kernels/fstime.rs",
        "crates/lmbench-timed/src/procs.rs",
        "crates/lmbench-timed/src/vm.rs",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut offenders = Vec::new();
    for p in all_rust_files().iter().filter(|p| !p.starts_with(root.join(SYS)) && !p.ends_with("build.rs")) {
        let name = p.strip_prefix(root).unwrap().display().to_string();
        let code = without_test_items(&tokens(&std::fs::read_to_string(p).unwrap()));
        for path in paths(&code) {
            let raw = !RAW_ALLOWED.contains(&name.as_str()) && RAW_OPENS.iter().any(|o| path.contains(o));
            let glob = NO_GLOB.iter().any(|&m| path.contains(&[m, "*"]));
            if raw || glob || OTHER_OPENS.iter().any(|o| path.contains(o)) {
                offenders.push(format!("{name}:{}: {}", path.line, path.segments.join("::")));
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "files opened past sys::fd::open_file (a type alias of File, or a path a macro pastes \
         together, would not show here): {offenders:#?}"
    );
}

/// Where `unsafe` in `text` lacks its note: a block (or an impl, a trait, an extern block)
/// without a `SAFETY` comment on its line or the four above, saying why it is sound; a
/// function without a `# Safety` section in its doc comment, saying what its callers must
/// hold. An `unsafe fn(...)` pointer type needs neither, nor an unsafe attribute
/// (`#[unsafe(no_mangle)]`), which its module's doc answers for. Returns `LINE: what`.
fn safety_problems(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let toks = tokens(text);
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate().filter(|(_, t)| t.is("unsafe")) {
        if k >= 2 && toks[k - 1].is_punct('[') && toks[k - 2].is_punct('#') {
            continue;
        }
        // `unsafe extern "C" fn name` is an unsafe function too.
        let mut f = k + 1;
        if toks.get(f).is_some_and(|t| t.is("extern")) {
            f += 1 + usize::from(matches!(toks.get(f + 1).map(|t| &t.tok), Some(Tok::Lit(_))));
        }
        let is_fn = toks.get(f).is_some_and(|t| t.is("fn"));
        let named = toks.get(f + 1).is_some_and(|t| matches!(t.tok, Tok::Ident(_)));
        let at = t.line;
        if is_fn && named {
            let mut doc = lines[..at - 1].iter().rev().take_while(|l| {
                let l = l.trim_start();
                l.starts_with("///") || l.starts_with("#[")
            });
            if !doc.any(|l| l.trim() == "/// # Safety") {
                out.push(format!("{at}: an unsafe fn without a `# Safety` section in its doc comment"));
            }
        } else if !is_fn && !lines[(at - 1).saturating_sub(4)..at].iter().any(|l| is_safety_note(l)) {
            out.push(format!("{at}: unsafe without a SAFETY note on its line or the four above"));
        }
    }
    out
}

/// Whether a line holds a `SAFETY` comment (a `//` comment that names it).
fn is_safety_note(line: &str) -> bool {
    line.split_once("//").is_some_and(|(_, comment)| comment.contains("SAFETY"))
}

/// Every unsafe block in the sys module says why it is sound, and every unsafe function what
/// its callers must hold. The body of an unsafe function is no unsafe block (edition 2021):
/// sys denies `unsafe_op_in_unsafe_fn`, so that each unsafe operation in one is a block of its
/// own, with its note.
#[test]
fn every_unsafe_block_has_a_safety_note() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = std::fs::read_to_string(root.join(SYS).join("mod.rs")).unwrap();
    assert!(
        code_text(&tokens(&module)).contains("#![deny(unsafe_op_in_unsafe_fn)]"),
        "{SYS}/mod.rs should deny unsafe_op_in_unsafe_fn"
    );
    let mut files = Vec::new();
    rust_files(&root.join(SYS), &mut files);
    assert!(!files.is_empty(), "no sources under {SYS}");
    let mut problems = Vec::new();
    for p in files {
        let name = p.strip_prefix(root).unwrap().display().to_string();
        problems.extend(
            safety_problems(&std::fs::read_to_string(&p).unwrap()).iter().map(|e| format!("{name}:{e}")),
        );
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The tokens written out without spaces, to find a construct however it is spaced.
fn code_text(toks: &[Token]) -> String {
    toks.iter()
        .map(|t| match &t.tok {
            Tok::Ident(w) => w.clone(),
            Tok::Punct(c) => c.to_string(),
            Tok::Lit(l) => format!("{l:?}"),
        })
        .collect()
}

/// Every file under `dir`, recursively.
fn all_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The section titles of docs/ORIGINAL.md: its headings, outside code blocks, without the `#`s.
fn original_titles(doc: &str) -> Vec<&str> {
    let mut in_code = false;
    let mut titles = Vec::new();
    for l in doc.lines() {
        if l.starts_with("```") {
            in_code = !in_code;
        } else if !in_code && l.starts_with('#') {
            titles.push(l.trim_start_matches('#').trim());
        }
    }
    titles
}

/// The titles a reference names, from the text after its comma: `"A"`, `"A" and "B"`,
/// `"A", "B" and "C"`; None when the text does not start with a quoted title.
fn cited_titles(mut rest: &str) -> Option<Vec<&str>> {
    let mut titles = Vec::new();
    loop {
        let body = rest.strip_prefix('"')?;
        let end = body.find('"')?;
        titles.push(&body[..end]);
        rest = &body[end + 1..];
        match [", \"", " and \""].iter().find(|sep| rest.starts_with(**sep)) {
            Some(sep) => rest = &rest[sep.len() - 1..],
            None => return Some(titles),
        }
    }
}

/// What the code says about the original suite is cited from the repository's own account of it,
/// docs/ORIGINAL.md: no file names the notes this project started from (they are not in the
/// repository), and every reference into the page, written `docs/ORIGINAL.md, "Tests"` on one
/// line, names a heading it has, so a renamed section cannot leave a reference dangling.
#[test]
fn references_to_the_original_point_into_docs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/ORIGINAL.md")).unwrap();
    let titles = original_titles(&doc);
    for (i, t) in titles.iter().enumerate() {
        assert!(!titles[i + 1..].contains(t), "docs/ORIGINAL.md has two sections titled {t:?}");
    }
    let files = cited_files(root);
    // Spelt in pieces, so that this file does not match itself.
    let outside = [concat!("SPEC", ".md"), concat!("DECISIONS", ".md")];
    let needle = concat!("ORIGINAL", ".md,");
    let mut bad = Vec::new();
    let mut cited = 0;
    for p in &files {
        // Binary files (none is expected, but a stray build product may be) hold no references.
        let Ok(text) = std::fs::read_to_string(p) else { continue };
        let name = p.strip_prefix(root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            let at = format!("{name}:{}", n + 1);
            for o in outside {
                if line.contains(o) {
                    bad.push(format!("{at}: cites {o}, which is not in the repository"));
                }
            }
            for (i, _) in line.match_indices(needle) {
                match cited_titles(line[i + needle.len()..].trim_start_matches(' ')) {
                    None => bad.push(format!("{at}: a reference must read {needle} \"Title\" on one line")),
                    Some(ts) => {
                        for t in ts {
                            cited += 1;
                            if !titles.contains(&t) {
                                bad.push(format!("{at}: docs/ORIGINAL.md has no section {t:?}"));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // The walk found the code's references at all (a wrong root would pass vacuously).
    assert!(cited >= 40, "only {cited} references to docs/ORIGINAL.md found");
}

/// docs/ORIGINAL.md's table of the original's baselines and `baselines.txt`, which the binary is
/// built from, hold the same tests, categories, units and figures.
#[test]
fn original_baselines_match_baselines_txt() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/ORIGINAL.md")).unwrap();
    let section = doc.split("\n## Baselines\n").nth(1).unwrap().split("\n## ").next().unwrap();
    let mut from_doc: Vec<(String, String, String, f64)> = section
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("| test ") && !l.starts_with("|---"))
        .map(|l| {
            let c: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
            (c[0].to_string(), c[1].to_string(), c[2].to_string(), c[3].parse().unwrap())
        })
        .collect();
    let txt = std::fs::read_to_string(root.join("baselines.txt")).unwrap();
    let mut from_txt: Vec<(String, String, String, f64)> = txt
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .filter(|l| !l.is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split_whitespace().collect();
            (c[0].to_string(), c[1].to_string(), c[2].to_string(), c[3].parse().unwrap())
        })
        .collect();
    from_doc.sort_by(|a, b| a.0.cmp(&b.0));
    from_txt.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(from_doc.len(), 21);
    assert_eq!(from_doc, from_txt);
}

/// The names in one dependency table (`[dependencies]`, `[dev-dependencies]`, ...) of a manifest,
/// each with whether it is a path dependency (a member of this workspace): the table's lines,
/// and the tables of their own (`[dependencies.NAME]`). Headers as Cargo writes them, each
/// alone on its line.
fn dependency_table(toml: &str, table: &str) -> Vec<(String, bool)> {
    let mut deps: Vec<(String, bool)> = match toml.split(&format!("\n[{table}]\n")).nth(1) {
        Some(body) => body
            .lines()
            .take_while(|l| !l.starts_with('['))
            .filter_map(|l| l.split_once('=').map(|(n, v)| (n.trim().to_string(), v.contains("path ="))))
            .filter(|(n, _)| !n.is_empty() && !n.starts_with('#'))
            .collect(),
        None => Vec::new(),
    };
    for section in toml.split(&format!("\n[{table}.")).skip(1) {
        let (name, body) = section.split_once("]\n").unwrap_or((section, ""));
        let body = body.split("\n[").next().unwrap_or("");
        deps.push((name.trim().to_string(), body.lines().any(|l| l.trim_start().starts_with("path ="))));
    }
    deps
}

/// Only the three allowed dependencies, in every package of the workspace; the packages depend
/// on each other by path only, and the workspace's members are exactly the crates under crates/.
#[test]
fn dependencies_are_libc_lexopt_oorandom() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = |dir: &Path| std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let toml = manifest(root);
    let deps: Vec<String> = dependency_table(&toml, "dependencies")
        .into_iter()
        .filter(|(_, path)| !path)
        .map(|(n, _)| n)
        .collect();
    assert_eq!(deps, ["libc", "lexopt", "oorandom"]);

    let members: Vec<String> = package_dirs()[1..]
        .iter()
        .map(|d| format!("\"{}\"", d.strip_prefix(root).unwrap().display()))
        .collect();
    let listed = toml.split("\nmembers = [").nth(1).and_then(|r| r.split(']').next()).unwrap_or("");
    // Listed bottom first (base, twin, run), found in name order: the same set.
    let mut listed: Vec<String> = listed.split(", ").map(str::to_string).collect();
    listed.sort();
    assert_eq!(listed, members, "workspace members");

    let mut names = Vec::new();
    for dir in package_dirs() {
        let toml = manifest(&dir);
        let name = toml.split("name = \"").nth(1).and_then(|r| r.split('"').next()).unwrap().to_string();
        for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
            for (dep, path) in dependency_table(&toml, table) {
                let allowed = ["libc", "lexopt", "oorandom"].contains(&dep.as_str()) || path;
                assert!(allowed, "{name}: [{table}] {dep} is not libc, lexopt, oorandom or a member");
            }
        }
        assert!(!toml.contains("[target."), "{name}: a target-specific dependency table escapes this check");
        names.push(name);
    }
    // A path dependency must name a member, not something outside the workspace.
    for dir in package_dirs() {
        for table in ["dependencies", "dev-dependencies", "build-dependencies"] {
            for (dep, path) in dependency_table(&manifest(&dir), table) {
                assert!(
                    !path || names.contains(&dep),
                    "{}: {dep} is a path outside the workspace",
                    dir.display()
                );
            }
        }
    }
}

/// A crate of the workspace: its source directory, the name the crates above use for it, and its
/// top-level modules in layers, bottom first (ARCHITECTURE.md, "The map").
struct Crate {
    dir: &'static str,
    name: &'static str,
    layers: &'static [&'static [&'static str]],
}

/// The crates, bottom first: each may depend only on crates before it (its Cargo.toml is checked
/// against this order), and inside each a top-level module may name (`crate::m`, `super::m`)
/// only modules of a lower layer of its own crate, or what the crate root brings in from below.
const CRATES: &[Crate] = &[
    // The decimal-to-double conversion under the reader that uses it.
    Crate { dir: "crates/json", name: "json", layers: &[&["decimal"]] },
    // Base's cold half, built for size: the plain data and the words around it.
    Crate {
        dir: "crates/catalogue",
        name: "catalogue",
        layers: &[
            // The version (and what the binary was built as), which the run model records.
            &["version"],
            // The plain data: the run model, the baselines, this binary's path.
            &["model", "baselines", "selfexe", "suggest"],
            // The catalogue: tests and groups (with their categories and baselines).
            &["suite"],
            // The error type and formatting, then argument parsing (through both), then the
            // option model (through it and `suggest`).
            &["error", "fmt"],
            &["args"],
            &["options"],
        ],
    },
    // The measuring layer, which re-exports catalogue's modules under their own names.
    Crate {
        dir: "crates/base",
        name: "base",
        layers: &[
            // Measuring: sys, then console writes and local time (through sys), the protocol,
            // the alarm deadline.
            &["sys"],
            &["error", "fmt"],
            &["protocol"],
            &["timing"],
        ],
    },
    // The twins of execl and spawn: ELF packing, the table, staging.
    Crate { dir: "crates/twin", name: "twin", layers: &[&["elf", "lz"], &["exec_image"], &["stage"]] },
    // lmbench's measuring half: its harness and the loops it times.
    Crate {
        dir: "crates/lmbench-timed",
        name: "lmbench_timed",
        layers: &[&["valloc", "child", "harness"], &["memory", "ipc", "ctx", "procs"], &["vm"]],
    },
    // A copy's outcome read from its stderr, then Run's arithmetic, statistics, quick's rule.
    Crate {
        dir: "crates/scoring",
        name: "scoring",
        layers: &[&["outcome"], &["score"], &["stats"], &["quick", "paired"]],
    },
    // What the host is and does, each probe on its own; the system block gathers its sources.
    Crate {
        dir: "crates/probe",
        name: "probe",
        layers: &[&["osrelease", "locale", "cpuinfo", "uptime", "utmp", "cpulimit", "noise"], &["sysinfo"]],
    },
    // The exporters, over the one view of the run they share.
    Crate {
        dir: "crates/report",
        name: "report",
        layers: &[
            &["fixture"],
            &["index4", "view", "markdown"],
            &["svg"],
            &["page"],
            &["text", "html", "json", "log", "csv", "tsv"],
            // `ab`'s outputs, which hold each arm's JSON and the page's footer.
            &["ab"],
        ],
    },
    // lmbench's applet: the table of figures, the summary table, the results file, the command.
    Crate {
        dir: "crates/lmbench",
        name: "lmbench",
        layers: &[&["figures"], &["table"], &["results"], &["command"]],
    },
    Crate {
        dir: "crates/driver",
        name: "driver",
        layers: &[
            // The host tests' work directory, then their command lines.
            &["workdir"],
            &["hosttools"],
            // Their programs checked before the first timed pass.
            &["hostcheck"],
            &["signals"],
            &["options"],
            // The manual page and the completions, from the option table.
            &["policy", "manual"],
            // A built C suite's command for a test under a policy (an arm of `ab`).
            &["csuite"],
            &["output"],
            // The run's directories, checked then made.
            &["dirs"],
            &["plan"],
            &["dryrun"],
            &["exec"],
            &["passes"],
            // The order of the tests: back to back or in rounds, then the second visits.
            &["schedule"],
            // What a run starts from: the host described, the run model, the JSON file checked.
            &["setup"],
            // Two arms in the same rounds.
            &["ab"],
            // The commands that place the binary (`--install`, `--dropin`); the top-level
            // command line's words.
            &["install", "cli"],
        ],
    },
    Crate {
        dir: "crates/compare",
        name: "compare",
        layers: &[
            // The model files are read into; the bounds on reading; the two readers; the choice.
            &["source"],
            &["files"],
            &["read_json", "read_text"],
            &["load"],
            &["log", "fleet"],
            // The HTML page shows the tables' ratios and marks.
            &["table"],
            &["html"],
            &["pool"],
        ],
    },
    // The binary: the kernels (measuring, though in the top crate), then the applet table.
    Crate { dir: ".", name: "unixbench", layers: &[&["kernels"], &["applets"]] },
];

/// The crates the kernels may name: the measuring ones. The cold crates above them are the
/// driver's and the reports'; a kernel that named one would no longer be a plain port.
const KERNELS_MAY_NAME: &[&str] = &["json", "base", "twin", "lmbench_timed"];

/// compare's pages and tables are exporters of their own: what they share with the report's
/// (the view, the charts, the page's head and escaping) lives below the report's exporters,
/// which compare names none of.
/// ARCHITECTURE.md's map stays true of the crates: its table has a row for every crate of the
/// workspace, in the order of `CRATES` (bottom first), and its count of them is right.
#[test]
fn the_architecture_names_every_crate_in_order() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let rows: Vec<&str> = doc
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split('`').next())
        .filter(|name| CRATES.iter().any(|c| c.name.replace('_', "-") == *name))
        .collect();
    let order: Vec<String> = CRATES.iter().map(|c| c.name.replace('_', "-")).collect();
    assert_eq!(rows, order, "ARCHITECTURE.md's table of crates, bottom first");
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "Eleven",
        "Twelve",
    ];
    let count = format!("{} crates make the binary", words[CRATES.len()]);
    assert!(doc.contains(&count), "ARCHITECTURE.md should say \"{count}\"");
    assert_eq!(package_dirs().len(), CRATES.len(), "a crate missing from CRATES");
    // Cargo.toml's comment over the workspace says the same count and names them in order.
    let toml = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let comment: String = toml
        .lines()
        .skip_while(|l| !l.contains("crates make one binary"))
        .take_while(|l| l.starts_with('#'))
        .collect::<Vec<_>>()
        .join(" ");
    let count = format!("{} crates make one binary", words[CRATES.len()]);
    assert!(comment.contains(&count), "Cargo.toml's comment should say \"{count}\": {comment}");
    let mut at = 0;
    for name in &order {
        let found = comment[at..].find(&format!(" {name}")).map(|i| at + i + 1);
        at = found.unwrap_or_else(|| panic!("Cargo.toml's comment lacks {name} after {at}: {comment}"));
    }
}

#[test]
fn compare_names_no_exporter_of_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let report = CRATES.iter().find(|c| c.name == "report").unwrap();
    // The exporters' layer, and `ab`'s above it.
    let at = report.layers.iter().position(|l| l.contains(&"html")).expect("the exporters' layer");
    let exporters: Vec<&str> = report.layers[at..].concat();
    let mut files = Vec::new();
    rust_files(&root.join("crates/compare/src"), &mut files);
    assert!(files.len() > 3, "compare's sources found");
    let mut named = Vec::new();
    for p in files {
        // Its tests may, to read back what they write.
        let code = without_test_items(&tokens(&std::fs::read_to_string(&p).unwrap()));
        for path in paths(&code) {
            if exporters.iter().any(|&e| path.contains(&["report", e])) {
                named.push(format!("{}:{}: {}", p.display(), path.line, path.segments.join("::")));
            }
        }
    }
    assert!(named.is_empty(), "compare names an exporter of report:\n{}", named.join("\n"));
}

#[test]
fn imports_point_down() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names: Vec<&str> = CRATES.iter().map(|c| c.name).collect();
    let mut problems = Vec::new();
    for (ci, c) in CRATES.iter().enumerate() {
        // Cargo.toml: every path dependency is a crate listed before this one.
        let toml = std::fs::read_to_string(root.join(c.dir).join("Cargo.toml")).unwrap();
        for (dep, _) in dependency_table(&toml, "dependencies") {
            let dep = dep.replace('-', "_");
            if let Some(di) = names.iter().position(|n| *n == dep) {
                if di >= ci {
                    problems.push(format!("{}/Cargo.toml: depends on {dep}, which is not below it", c.dir));
                }
            }
        }
        let layer = |m: &str| c.layers.iter().position(|l| l.contains(&m));
        let src = root.join(c.dir).join("src");
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for p in &files {
            let rel = p.strip_prefix(&src).unwrap();
            let first = rel.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
            let module = first.trim_end_matches(".rs").to_string();
            let here = format!("{}/src/{}", c.dir, rel.display());
            // The crate roots only declare modules and bring the layers below into scope.
            let own = if module == "lib" || module == "main" {
                None
            } else {
                match layer(&module) {
                    Some(l) => Some(l),
                    None => {
                        problems.push(format!("{here}: module '{module}' is in no layer of CRATES"));
                        continue;
                    }
                }
            };
            let toks = tokens(&std::fs::read_to_string(p).unwrap());
            for (line, krate, target) in named_modules(&toks, &names, rel.components().count() == 1) {
                let at = format!("{here}:{line}");
                if krate != "crate" {
                    let ki = names.iter().position(|k| *k == krate).unwrap();
                    if ki >= ci {
                        problems.push(format!("{at}: names {krate}, which is not below {}", c.name));
                    } else if module == "kernels" && !KERNELS_MAY_NAME.contains(&krate.as_str()) {
                        problems.push(format!("{at}: a kernel names {krate}, a cold crate"));
                    }
                    continue;
                }
                match layer(&target) {
                    Some(t) => {
                        if let Some(l) = own {
                            if target != module && t >= l {
                                problems.push(format!("{at}: {module} imports {target}, not below it"));
                            }
                        }
                    }
                    // Not a module of its own: one the crate root brings in from a crate below.
                    None => {
                        let below = CRATES[..ci]
                            .iter()
                            .any(|b| b.layers.iter().any(|l| l.contains(&target.as_str())));
                        if !below && !["json", "lmbench_timed"].contains(&target.as_str()) {
                            problems.push(format!("{at}: names unknown module '{target}'"));
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "imports that do not point down:\n{}", problems.join("\n"));
}

/// The top-level modules a file names, each with its line and the crate it names it through:
/// `crate` for `crate::m` and, in a top-level module's own file, `super::m` (which names the
/// crate root's `m` there, but a nested module's sibling elsewhere), else the crate name of
/// `report::m`. Read from the file's paths, so `use crate::{sys, error::Error}` names sys and
/// error, over as many lines as it takes.
fn named_modules(toks: &[Token], crates: &[&str], top_level: bool) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    for p in paths(toks) {
        let [first, second, ..] = &p.segments[..] else { continue };
        let krate = match first.as_str() {
            "crate" => "crate",
            // `super::super::` names a nested module's grandparent.
            "super" if top_level && second != "super" => "crate",
            k if crates.contains(&k) => k,
            _ => continue,
        };
        // A module's name is lower case; `base::VERSION_LINE` names an item of the root.
        if second.starts_with(|c: char| c.is_lowercase() || c == '_') && second != "self" {
            out.push((p.line, krate.to_string(), second.clone()));
        }
    }
    out
}

/// The twins of execl and spawn (crates/twin/programs/) are programs of their own, started by
/// the C runtime: their `unsafe` lives in their libc.rs only, each block with its SAFETY note.
#[test]
fn twin_unsafe_only_in_its_libc_module() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("crates/twin/programs"), &mut files);
    assert!(files.len() >= 3, "crates/twin/programs holds {files:?}");
    let mut problems = Vec::new();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        if p.ends_with("programs/libc.rs") {
            problems.extend(safety_problems(&text).iter().map(|e| format!("{}:{e}", p.display())));
        } else if let Some(t) = tokens(&text).iter().find(|t| t.is("unsafe")) {
            problems.push(format!("{}:{}: unsafe outside programs/libc.rs", p.display(), t.line));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The driver's environment variables are read in one place, `options::Environment::read`,
/// which its help and the README's list derive from. (The variables that carry a choice from
/// the driver to its copies, `UB_EXEC_IMAGE`, are read by the copies, in `twin::exec_image`.)
/// A read is `var("UB_...")`, `var_os("UB_...")` or options.rs's own `set("UB_...")` and
/// `is("UB_...", ...)`, as tokens. It cannot see a name that is not a literal at the call (a
/// constant, a string built), nor a walk of `std::env::vars()` (exec.rs's passes the
/// environment on to the copies).
#[test]
fn ub_variables_are_read_in_one_place() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let home = root.join("crates/driver/src/options.rs");
    let mut read_here = 0;
    let mut elsewhere = Vec::new();
    for p in all_rust_files() {
        let t = tokens(&std::fs::read_to_string(&p).unwrap());
        for w in t.windows(3) {
            let call = ["var_os", "var", "is", "set"].iter().any(|f| w[0].is(f)) && w[1].is_punct('(');
            if !(call && matches!(&w[2].tok, Tok::Lit(l) if l.starts_with("UB_"))) {
                continue;
            }
            if p == home {
                read_here += 1;
            } else {
                elsewhere.push(format!("{}:{}", p.strip_prefix(root).unwrap().display(), w[0].line));
            }
        }
    }
    assert!(read_here >= 6, "options.rs reads {read_here} UB_ variables");
    assert!(
        elsewhere.is_empty(),
        "UB_ variables read outside options.rs: {elsewhere:?} (a name that is not a literal at \
         the call, or a walk of env::vars(), would not show here)"
    );
}

/// The longest a function may be outside the kernels' ports: a screen, so that it reads as a
/// sequence of named steps.
const MAX_FN_LINES: usize = 60;

/// Where the limit does not apply: the ports of the C programs, whose shape is the original's
/// (the kernels, lmbench's timed loops, sys's measured CPU loops).
const PORTS: &[&str] = &["src/kernels", "crates/lmbench-timed", "crates/base/src/sys/cpu.rs"];

/// Every function's length in lines, from its `fn` to its closing brace, the items compiled
/// for tests only not counted (a function inside another counts in it, not on its own).
fn function_lengths(text: &str) -> Vec<(String, usize)> {
    let toks = without_test_items(&tokens(text));
    let mut out = Vec::new();
    let mut i = 0;
    while i + 1 < toks.len() {
        let (Tok::Ident(name), true) = (&toks[i + 1].tok, toks[i].is("fn")) else {
            i += 1;
            continue;
        };
        // The body: the first `{` past the signature's brackets; a `;` first ends a declaration.
        let mut k = i + 2;
        while k < toks.len() && !toks[k].is_punct('{') && !toks[k].is_punct(';') {
            if toks[k].is_punct('(') || toks[k].is_punct('[') {
                k = closing(&toks, k);
            }
            k += 1;
        }
        if toks.get(k).is_some_and(|t| t.is_punct('{')) {
            let end = closing(&toks, k);
            out.push((name.clone(), toks[end].line - toks[i].line + 1));
            k = end;
        }
        i = k + 1;
    }
    out
}

#[test]
fn no_function_outside_the_ports_is_longer_than_a_screen() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut seen, mut long) = (0, Vec::new());
    for p in all_rust_files() {
        let rel = p.strip_prefix(root).unwrap().display().to_string();
        if PORTS.iter().any(|e| rel.starts_with(e)) {
            continue;
        }
        for (name, n) in function_lengths(&std::fs::read_to_string(&p).unwrap()) {
            seen += 1;
            if n > MAX_FN_LINES {
                long.push(format!("{rel}: {name} is {n} lines"));
            }
        }
    }
    // The walk found the functions at all (a wrong root or parser would pass vacuously).
    assert!(seen > 500, "only {seen} functions found");
    assert!(long.is_empty(), "functions over {MAX_FN_LINES} lines:\n{}", long.join("\n"));
}

/// Every file of the tree a reference may sit in: sources, tests, docs, the build's files.
fn cited_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "bench", "docs", "data", ".cargo"] {
        if root.join(dir).is_dir() {
            all_files(&root.join(dir), &mut files);
        }
    }
    for f in
        ["README.md", "ARCHITECTURE.md", "Makefile", "arches.mk", "build.rs", "Cargo.toml", "baselines.txt"]
    {
        files.push(root.join(f));
    }
    files.retain(|p| p.is_file());
    files
}

/// A reference into ARCHITECTURE.md (its name, a comma and a section's title in double quotes,
/// on one line) names a heading it has, as references into docs/ORIGINAL.md do.
#[test]
fn references_to_the_architecture_name_its_headings() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let titles = original_titles(&doc);
    let needle = concat!("ARCHITECTURE", ".md,");
    let (mut bad, mut cited) = (Vec::new(), 0);
    for p in cited_files(root) {
        let Ok(text) = std::fs::read_to_string(&p) else { continue };
        let name = p.strip_prefix(root).unwrap().display().to_string();
        for (n, line) in text.lines().enumerate() {
            for (i, _) in line.match_indices(needle) {
                let ts = cited_titles(line[i + needle.len()..].trim_start_matches(' ')).unwrap_or_default();
                cited += ts.len();
                for t in ts.iter().filter(|t| !titles.contains(t)) {
                    bad.push(format!("{name}:{}: ARCHITECTURE.md has no section {t:?}", n + 1));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(cited >= 3, "only {cited} references to ARCHITECTURE.md found");
}

/// The paths ARCHITECTURE.md's code map names: each bullet opens with a directory (or a file),
/// and the backquoted `.rs` names in it are under that directory.
fn code_map_paths(doc: &str) -> Vec<String> {
    let start = doc.find("## Code map").expect("ARCHITECTURE.md has a Code map");
    let section = &doc[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut paths = Vec::new();
    let mut dir = String::new();
    for bullet in section.split("\n- ").skip(1) {
        let words: Vec<&str> = bullet.split('`').skip(1).step_by(2).collect();
        let Some(first) = words.first() else { continue };
        paths.push(first.to_string());
        if let Some((d, _)) = first.rsplit_once('/') {
            dir = format!("{d}/");
        }
        for w in &words[1..] {
            let rooted = ["src/", "crates/", "tests/", "bench/", "data/"].iter().any(|r| w.starts_with(r));
            if rooted && (w.ends_with(".rs") || w.ends_with('/')) {
                paths.push(w.to_string());
            } else if w.ends_with('/') {
                // A subdirectory: the names after it are in it (`sys/`: `fd.rs`, ...).
                dir = format!("{dir}{w}");
                paths.push(dir.clone());
            } else if w.ends_with(".rs") {
                paths.push(format!("{dir}{w}"));
            }
        }
    }
    paths
}

/// ARCHITECTURE.md's code map names only files that exist, and names every source file of every
/// crate (its `src/`), so that a file added or moved is placed on the map.
#[test]
fn the_code_map_names_every_source_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let named = code_map_paths(&doc);
    let missing: Vec<&String> = named.iter().filter(|p| !root.join(p.as_str()).exists()).collect();
    assert!(missing.is_empty(), "the code map names what does not exist: {missing:?}");
    let mut sources = Vec::new();
    for dir in package_dirs() {
        rust_files(&dir.join("src"), &mut sources);
    }
    let unnamed: Vec<String> = sources
        .iter()
        .map(|p| p.strip_prefix(root).unwrap().display().to_string())
        .filter(|p| !named.contains(p))
        .collect();
    assert!(unnamed.is_empty(), "the code map does not name {unnamed:?}");
}

/// The rigs tests skip on this host are the table's (`common::OPTIONAL_RIGS`), each named by a
/// literal at its call, and the table holds none that no test skips: a misspelt rig would
/// fail make test only on a host that lacks it, and a stale one would allow a skip nothing needs.
#[test]
fn optional_rigs_are_the_ones_tests_skip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("tests/it"), &mut files);
    let table: Vec<&str> = crate::common::OPTIONAL_RIGS.iter().map(|&(r, _)| r).collect();
    let (mut named, mut bad) = (Vec::new(), Vec::new());
    // common.rs defines the function; every other file may call it.
    for p in files.iter().filter(|p| !p.ends_with("common.rs")) {
        let t = tokens(&std::fs::read_to_string(p).unwrap());
        for w in t.windows(3).filter(|w| w[0].is("skip_on_this_host") && w[1].is_punct('(')) {
            match &w[2].tok {
                Tok::Lit(rig) if table.contains(&rig.as_str()) => named.push(rig.clone()),
                other => bad.push(format!("{}:{}: {other:?}", p.display(), w[0].line)),
            }
        }
    }
    assert!(bad.is_empty(), "a rig not among OPTIONAL_RIGS, or not named by a literal: {bad:?}");
    let stale: Vec<&str> = table.into_iter().filter(|r| !named.iter().any(|n| n == r)).collect();
    assert!(stale.is_empty(), "OPTIONAL_RIGS holds rigs no test skips: {stale:?}");
}
