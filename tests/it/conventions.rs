//! A Unix tool's conventions: the manual page and the shells' completions, generated from the
//! option table; `--format md` as Markdown tables; short error lines; `--install`'s hints.

use crate::common::*;
use driver::options::OPTIONS;
use std::path::{Path, PathBuf};
use std::process::Command;

fn printed(args: &[&str]) -> String {
    let o = run(&mut ub(args));
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Every option word of the table (`-t`, `--time`).
fn option_words() -> Vec<String> {
    OPTIONS.iter().flat_map(|o| o.words()).collect()
}

#[test]
fn the_man_page_and_completions_name_every_option_of_the_table() {
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
