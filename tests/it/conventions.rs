//! A Unix tool's conventions: the manual page and the shells' completions, generated from the
//! option table; `--format md` as Markdown tables; short error lines; `--install`'s hints.

use crate::common::*;
use base::options::Command as Table;
use std::path::{Path, PathBuf};
use std::process::Command;

fn printed(args: &[&str]) -> String {
    let o = run(&mut ub(args));
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Every command's table, the run's and ab's in one.
const TABLES: [&Table; 3] = [&driver::options::AB, &compare::COMMAND, &lmbench::COMMAND];

/// Every option word of every command's table (`-t`, `--time`).
fn option_words() -> Vec<String> {
    TABLES.iter().flat_map(|t| t.specs()).flat_map(|o| o.words()).collect()
}

#[test]
fn the_man_page_and_completions_name_every_option_of_the_tables() {
    let man = printed(&["--man"]);
    let (bash, zsh, fish) = (
        printed(&["--completions", "bash"]),
        printed(&["--completions", "zsh"]),
        printed(&["--completions", "fish"]),
    );
    for w in option_words() {
        assert!(man.contains(&format!("\\fB{}\\fR", w.replace('-', "\\-"))), "man: {w}");
        assert!(bash.split([' ', '\'', '|', ')']).any(|t| t == w), "bash: {w}");
        assert!(zsh.contains(&format!("'*{w}[")) || zsh.contains(&format!("'{w}=-[")), "zsh: {w}");
        let fish_form = match w.strip_prefix("--") {
            Some(l) => format!(" -l {l}"),
            None => format!(" -s {}", &w[1..]),
        };
        assert!(fish.contains(&fish_form), "fish: {w}");
    }
    for word in ["index", "dhry2reg", "compare", "run"] {
        for (shell, script) in [("bash", &bash), ("zsh", &zsh), ("fish", &fish)] {
            assert!(script.split([' ', '\'', '(', ')']).any(|t| t == word), "{shell}: {word}");
        }
    }
    let o = run(&mut ub(["--completions", "tcsh"]));
    assert_usage_error(&o, "--completions needs a shell: bash, zsh, fish");
}

/// The page rendered as a reader sees it, by man (or groff where man is missing).
fn rendered(page: &Path) -> Option<String> {
    let o = if which("man") {
        Command::new("man").arg("-l").arg(page).env("MANPAGER", "cat").env("MANWIDTH", "80").output()
    } else if which("groff") {
        Command::new("groff").args(["-man", "-Tutf8"]).arg(page).output()
    } else {
        return None;
    };
    let o = o.unwrap();
    assert!(o.status.success(), "rendering the man page: {}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    // Bold by overstrike, and the typographic minus some devices use, as plain text.
    let text = stdout(&o).replace(['\u{2212}', '\u{2010}'], "-");
    let mut plain = String::new();
    for c in text.chars() {
        if c == '\u{8}' {
            plain.pop();
        } else {
            plain.push(c);
        }
    }
    Some(plain)
}

fn which(tool: &str) -> bool {
    Command::new("sh").arg("-c").arg(format!("command -v {tool}")).output().is_ok_and(|o| o.status.success())
}

#[test]
fn man_renders_the_page_with_every_option() {
    let s = Scratch::new("man");
    let page = s.path().join("unixbench.1");
    std::fs::write(&page, printed(&["--man"])).unwrap();
    let Some(text) = rendered(&page) else {
        return skip("man page rendering", "neither man nor groff on PATH (make test installs man-db)");
    };
    for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "ENVIRONMENT", "EXIT STATUS"] {
        assert!(text.lines().any(|l| l.trim() == section), "{section}: {text}");
    }
    for w in option_words() {
        assert!(text.split(|c: char| c.is_whitespace() || c == ',' || c == '[').any(|t| t == w), "{w}");
    }
    assert!(text.contains("UB_RESULTDIR"), "{text}");
}

/// man at 80 columns (MANWIDTH=80) wraps the page within them, and its SYNOPSIS has each
/// command's usage on a line of its own.
#[test]
fn the_man_page_fits_80_columns_a_usage_a_line() {
    if !which("man") {
        return skip("man page width", "no man on PATH (make test installs man-db)");
    }
    let s = Scratch::new("man80");
    let page = s.path().join("unixbench.1");
    std::fs::write(&page, printed(&["--man"])).unwrap();
    let text = rendered(&page).unwrap();
    let wide: Vec<&str> = text.lines().filter(|l| l.chars().count() > 80).collect();
    assert!(wide.is_empty(), "lines over 80 columns:\n{}", wide.join("\n"));
    let synopsis = text.split("\nSYNOPSIS\n").nth(1).and_then(|t| t.split("\n\n").next()).unwrap();
    let lines: Vec<&str> = synopsis.lines().map(str::trim).collect();
    // Each command of the help, whose list starts a usage a line at its third column.
    let usages: Vec<&str> = driver::cli::USAGE
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .collect();
    let usages: Vec<&str> = usages.iter().filter_map(|u| u.split("  ").next()).collect();
    assert_eq!(lines, usages, "{text}");
    // What each does, under COMMANDS.
    let commands = text.split("\nCOMMANDS\n").nth(1).unwrap();
    assert!(commands.contains("\n       unixbench help [NAME] | version\n              this help"), "{text}");
}

/// `SHELL -n FILE` (fish: `--no-execute`) reads the script without running it.
fn parses(shell: &str, flag: &str, script: &str) {
    if !which(shell) {
        return skip(
            &format!("{shell} completion syntax"),
            &format!("no {shell} on PATH (make test installs it)"),
        );
    }
    let s = Scratch::new(&format!("compl-{shell}"));
    let f = s.path().join("script");
    std::fs::write(&f, script).unwrap();
    let o = Command::new(shell).arg(flag).arg(&f).output().unwrap();
    assert!(o.status.success() && o.stderr.is_empty(), "{shell} {flag}: {}", stderr(&o));
}

/// What bash's completion offers for the last of `words` (the word being completed), through
/// the script's own function, as bash calls it on a TAB.
fn bash_offers(script: &Path, words: &[&str]) -> Vec<String> {
    let call = format!(
        "source '{}'; COMP_WORDS=(unixbench{}); COMP_CWORD={}; _unixbench; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        words.iter().map(|w| format!(" '{w}'")).collect::<String>(),
        words.len()
    );
    let o = Command::new("bash").arg("-c").arg(&call).current_dir(script.parent().unwrap()).output().unwrap();
    assert!(o.status.success(), "{call}: {}", stderr(&o));
    stdout(&o).lines().map(String::from).collect()
}

/// What fish's completion offers for the line, by `complete -C`, without descriptions.
fn fish_offers(script: &Path, line: &str) -> Vec<String> {
    let call = format!("source '{}'; complete -C 'unixbench {line}'", script.display());
    let o = Command::new("fish").arg("-c").arg(&call).current_dir(script.parent().unwrap()).output().unwrap();
    assert!(o.status.success(), "{call}: {}", stderr(&o));
    stdout(&o).lines().map(|l| l.split('\t').next().unwrap().to_string()).collect()
}

/// Whether this binary is a graphics build: it has the graphics programs.
fn graphics_build() -> bool {
    printed(&["--list"]).lines().any(|l| l == "ubgears")
}

/// The completions of each shell, per subcommand: after `compare`, compare's options and not a
/// run's; enumerated values from their tables (compare's --format without csv, --semantics its
/// releases and no file); a graphics test only from a graphics build; no hidden alias.
#[test]
fn completions_know_each_subcommand_and_its_values() {
    let s = Scratch::new("compl-sub");
    let (bash, fish) = (s.path().join("bash"), s.path().join("fish"));
    std::fs::write(&bash, printed(&["--completions", "bash"])).unwrap();
    std::fs::write(&fish, printed(&["--completions", "fish"])).unwrap();
    std::fs::write(s.path().join("results.json"), "{}").unwrap();
    let graphics = graphics_build();
    for shell in ["bash", "fish"] {
        if !which(shell) {
            skip(&format!("{shell} completions"), &format!("no {shell} on PATH (make test installs it)"));
            continue;
        }
        let offers = |line: &str| {
            let words: Vec<&str> = line.split(' ').collect();
            let got = if shell == "bash" { bash_offers(&bash, &words) } else { fish_offers(&fish, line) };
            got.into_iter().collect::<std::collections::BTreeSet<String>>()
        };
        let set =
            |w: &[&str]| w.iter().map(|w| w.to_string()).collect::<std::collections::BTreeSet<String>>();
        let compare = offers("compare --");
        assert_eq!(compare, set(&["--format", "--hosts", "--pool", "--help"]), "{shell}");
        assert_eq!(offers("--semantics "), set(&["6.0", "5.1.3"]), "{shell}");
        assert_eq!(offers("ab --a-semantics "), set(&["6.0", "5.1.3"]), "{shell}");
        assert_eq!(offers("compare --format "), set(&["text", "tsv", "json", "html", "md"]), "{shell}");
        assert_eq!(offers("--format "), set(&["text", "html", "json", "csv", "tsv", "md"]), "{shell}");
        assert_eq!(offers("--exec-image dynamic-"), set(&["dynamic-glibc", "dynamic-musl"]), "{shell}");
        assert_eq!(offers("--completions "), set(&["bash", "zsh", "fish"]), "{shell}");
        let lmbench = offers("lmbench --");
        assert_eq!(lmbench, set(&["--short", "--only", "--json", "--dir", "--summary", "--help"]), "{shell}");
        assert!(offers("lmbench --s").iter().all(|w| w != "--save"), "{shell}: a hidden alias offered");
        assert_eq!(offers("lmbench --only "), set(&["proc", "ctx", "lat", "fs", "bw", "mem"]), "{shell}");
        // ab's options after ab, with a run's; a run's only.
        let ab = offers("ab --");
        assert!(ab.contains("--b-wrap") && ab.contains("--quick"), "{shell}: {ab:?}");
        assert!(!offers("run --").contains("--b-wrap"), "{shell}");
        assert!(offers("compare res").contains("results.json"), "{shell}");
        // The tests of this build, and no other.
        let tests = offers("run ");
        assert!(tests.contains("dhry2reg") && tests.contains("index"), "{shell}: {tests:?}");
        for g in ["2d-rects", "ubgears", "graphics", "gindex"] {
            assert_eq!(tests.contains(g), graphics, "{shell}: {g} (a graphics build: {graphics})");
        }
    }
}

/// zsh's completion: the script run with `_arguments` standing in as a function that prints
/// the specs it is given, for a line's words, as zsh's completion system would run it.
#[test]
fn zsh_completions_hand_each_subcommand_its_own_specs() {
    if !which("zsh") {
        return skip("zsh completions", "no zsh on PATH (make test installs it)");
    }
    let s = Scratch::new("compl-zsh");
    let script = s.path().join("_unixbench");
    std::fs::write(&script, printed(&["--completions", "zsh"])).unwrap();
    let specs = |line: &[&str]| -> String {
        let call = format!(
            "_arguments() {{ print -rl -- \"$@\" }}; words=(unixbench {}); CURRENT=${{#words}}; source '{}'",
            line.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" "),
            script.display()
        );
        let o = Command::new("zsh").arg("-fc").arg(&call).output().unwrap();
        assert!(o.status.success(), "{call}: {}", stderr(&o));
        stdout(&o)
    };
    let compare = specs(&["compare", "--"]);
    assert!(compare
        .lines()
        .any(|l| l.starts_with("*--format[") && l.ends_with(":FORMAT:(text tsv json html md)")));
    assert!(compare.contains("*--pool[") && compare.contains("*:file:_files"), "{compare}");
    assert!(!compare.contains("--quick") && !compare.contains("csv"), "{compare}");
    let run = specs(&["--semantics", ""]);
    assert!(
        run.lines().any(|l| l.starts_with("*--semantics[") && l.ends_with(":RELEASE:(6.0 5.1.3)")),
        "{run}"
    );
    assert!(run.contains("--completions[command]:shell:(bash zsh fish)"), "{run}");
    let lmbench = specs(&["lmbench", "-"]);
    assert!(lmbench.contains("*--short[") && !lmbench.contains("--quick") && !lmbench.contains("--save"));
    assert!(!lmbench.contains("--hello") && !lmbench.contains("--results"), "{lmbench}");
    let ab = specs(&["ab", "--"]);
    assert!(ab.contains("*--b-wrap[") && ab.contains("*--results[") && !ab.contains("--list["), "{ab}");
    assert_eq!(specs(&["run", ""]).contains("ubgears"), graphics_build());
    // Descriptions are whole: none ends inside parentheses or on a comma.
    for l in specs(&[""]).lines().filter(|l| l.starts_with(['*', '-']) && l.contains('[')) {
        let about = &l[l.find('[').unwrap() + 1..l.rfind(']').unwrap()];
        assert_eq!(about.matches('(').count(), about.matches(')').count(), "{l}");
        assert!(!about.ends_with(','), "{l}");
    }
}

#[test]
fn the_completion_scripts_parse() {
    parses("bash", "-n", &printed(&["--completions", "bash"]));
    parses("zsh", "-n", &printed(&["--completions", "zsh"]));
    parses("fish", "--no-execute", &printed(&["--completions", "fish"]));
}

/// Every table of `md` (its lines starting `|`): a header, a separator of as many columns, and
/// rows of as many cells, a `|` inside a cell escaped. Returns the tables' header rows.
fn markdown_tables(md: &str) -> Vec<String> {
    let cells = |l: &str| -> usize {
        let inner = l.strip_prefix('|').and_then(|l| l.strip_suffix('|')).unwrap_or_else(|| panic!("{l}"));
        inner.replace("\\|", "").split('|').count()
    };
    let mut heads = Vec::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        if !lines[i].starts_with('|') {
            i += 1;
            continue;
        }
        let n = cells(lines[i]);
        let sep = lines.get(i + 1).copied().unwrap_or_default();
        assert_eq!(cells(sep), n, "separator of {:?}", lines[i]);
        assert!(sep.chars().all(|c| "|-: ".contains(c)), "separator {sep:?}");
        heads.push(lines[i].to_string());
        i += 2;
        while i < lines.len() && lines[i].starts_with('|') {
            assert_eq!(cells(lines[i]), n, "row {:?} under {:?}", lines[i], heads.last());
            i += 1;
        }
    }
    assert!(!heads.is_empty(), "no table in {md}");
    heads
}

#[test]
fn format_md_prints_markdown_tables_for_a_report() {
    let s = Scratch::new("md");
    let o = run(ub(["--no-save", "--format", "md", "-q", "-i", "1", "-t", "1", "-c", "1", "syscall"])
        .env("UB_TMPDIR", s.path()));
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    let heads = markdown_tables(&md);
    assert!(heads[0].starts_with("| copies | test |"), "{md}");
    assert!(md.lines().any(|l| l.contains("| syscall |")), "{md}");
}

#[test]
fn format_md_prints_markdown_tables_for_compare() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/compare");
    for args in [
        &["a.json", "b.json"][..],
        &["c-unixbench.txt"],
        &["--hosts", "a.json", "b.json"],
        &["--pool", "pool-1.json", "pool-2.json", "pool-3.json"],
    ] {
        let o = run(ub(["compare", "--format", "md"]).args(args).current_dir(&dir));
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        markdown_tables(&stdout(&o));
    }
}

#[test]
fn an_unknown_test_or_option_is_one_short_line() {
    for (args, needle) in [
        (&["run", "pipee"][..], "unknown test or group 'pipee' (did you mean pipe?)"),
        (&["run", "frobnicate-every-test"], "unknown test or group 'frobnicate-every-test'"),
        (&["--frobnicate"], "unknown option '--frobnicate'"),
        (&["lmbench", "--only", "lat_pipee"], "(did you mean lat_pipe"),
        (&["lmbench", "--jsno", "x"], "unknown option '--jsno' (did you mean --json?)"),
        (&["compare", "--format", "xml", "a"], "invalid --format 'xml'"),
    ] {
        let o = run(&mut ub(args));
        assert_usage_error(&o, needle);
        let line = stderr(&o);
        assert!(line.trim_end().chars().count() < 120, "{args:?}: {} chars: {line}", line.len());
    }
}

#[test]
fn install_into_a_missing_directory_says_how_to_make_it() {
    let s = Scratch::new("inst-missing");
    let dir = s.path().join("bin");
    let o = run(ub(["--install"]).arg(&dir));
    assert_usage_error(&o, &format!("mkdir -p '{}'", dir.display()));
    assert!(!dir.exists());
}

#[test]
fn install_warns_of_names_already_commands_on_path() {
    let s = Scratch::new("inst-shadow");
    let (dir, other) = (s.path().join("bin"), s.path().join("other"));
    std::fs::create_dir(&dir).unwrap();
    std::fs::create_dir(&other).unwrap();
    for name in ["pipe", "int"] {
        let f = other.join(name);
        std::fs::write(&f, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&f, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    }
    let path = format!("{}:{}", other.display(), dir.display());
    let o = run(ub(["--install", "-s"]).arg(&dir).env("PATH", &path));
    assert!(o.status.success(), "{}", stderr(&o));
    let warning: Vec<String> =
        stderr(&o).lines().filter(|l| l.contains("warning")).map(String::from).collect();
    assert_eq!(warning.len(), 1, "{warning:?}");
    assert!(warning[0].contains("pipe") && warning[0].contains("int"), "{}", warning[0]);
    assert!(!warning[0].contains("dhry2reg"), "{}", warning[0]);
    // Without a clash, no warning.
    let o = run(ub(["--install", "-s"]).arg(&dir).env("PATH", dir.as_os_str()));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}
