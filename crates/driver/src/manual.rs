//! `unixbench --man` and `unixbench --completions bash|zsh|fish`: the manual page unixbench(1)
//! and the shells' completions, generated from the option table ([`OPTIONS`]), the environment
//! table, the catalogue's tests and groups, the program names and the commands of dispatch, so
//! that none of them can disagree with `--help`. `make install` installs their output; a user
//! with the binary alone prints them. Here rather than beside dispatch: this crate is built for
//! size, and this is text.

use crate::options::{
    test_and_group_names, Opt, Section, Takes, Values, AB_HEAD, ENVIRONMENT, HELP_HEAD, HELP_TAIL, OPTIONS,
};
use crate::suite;

/// The words `unixbench` takes first besides options, tests, groups and programs (`dispatch`).
pub const COMMANDS: &[&str] = &[
    "run",
    "ab",
    "compare",
    "lmbench",
    "help",
    "version",
    "--list",
    "--install",
    "--dropin",
    "--man",
    "--completions",
];

/// The shells `--completions` writes for.
pub const SHELLS: &[&str] = &["bash", "zsh", "fish"];

/// Appends each part: one plain function for every piece of text here, where `format!` at each
/// site cost the binary twice the bytes (this is all text; the size is shared).
fn put(o: &mut String, parts: &[&str]) {
    for p in parts {
        o.push_str(p);
    }
}

/// The manual page, in roff's `man` macros; `usage` is the top-level help's list of commands.
// Never inlined into dispatch, which is built for speed: this is text, built for size.
#[inline(never)]
pub fn man(usage: &str) -> String {
    let mut m = String::new();
    let n = base::version::NUMBER;
    put(&mut m, &[".TH UNIXBENCH 1 \"\" \"unixbench ", n, "\" \"User Commands\"\n.nh\n.ad l\n"]);
    m += ".SH NAME\nunixbench \\- the BYTE UNIX Benchmarks in one static binary\n.SH SYNOPSIS\n.nf\n";
    // A usage a line, unfilled; what each does under COMMANDS, filled.
    for (usage, _) in usage.lines().filter_map(usage_of) {
        roff(&mut m, usage);
    }
    m += ".fi\n.SH DESCRIPTION\n";
    roff(&mut m, HELP_HEAD);
    m += ".SH COMMANDS\n";
    for line in usage.lines() {
        // A line that starts with a space would break the filled text.
        let (usage, about) = usage_of(line).unwrap_or(("", line.trim_start()));
        if !usage.is_empty() {
            m += ".TP\n";
            roff(&mut m, usage);
        }
        roff(&mut m, about);
    }
    // Titles in capitals as written: to_uppercase would bring Unicode's case tables in.
    let sections = [("RUN'S OPTIONS", Section::Run), ("OUR OPTIONS", Section::Ours), ("AB", Section::Ab)];
    for (title, section) in sections {
        put(&mut m, &[".SH \"", title, "\"\n"]);
        if section == Section::Ab {
            roff(&mut m, AB_HEAD);
        }
        for o in OPTIONS.iter().filter(|o| o.section == section) {
            m += ".TP\n";
            man_forms(&mut m, o);
            for l in o.help {
                roff(&mut m, l);
            }
        }
    }
    let mut tagged = |title: &str, rows: &mut dyn Iterator<Item = (&str, &str)>| {
        put(&mut m, &[".SH ", title, "\n"]);
        for (name, about) in rows {
            m += ".TP\n.B ";
            roff(&mut m, name);
            roff(&mut m, about);
        }
    };
    tagged("GROUPS", &mut suite::groups());
    tagged("TESTS", &mut suite::TESTS.iter().map(|t| (t.name, t.message)));
    tagged("ENVIRONMENT", &mut ENVIRONMENT.iter().copied());
    m += ".SH \"EXIT STATUS\"\n";
    roff(&mut m, HELP_TAIL);
    m += ".SH \"SEE ALSO\"\n\\fBunixbench compare \\-\\-help\\fR, \\fBunixbench lmbench \\-\\-help\\fR, \
          \\fBunixbench\\fR \\fIPROGRAM\\fR \\fB\\-\\-help\\fR, \\fBunixbench \\-\\-list\\fR\n";
    m
}

/// A line of the help's list of commands that starts a usage (after two spaces; the lines
/// indented further go on with what it does): the usage, and what it does from there.
fn usage_of(line: &str) -> Option<(&str, &str)> {
    let line = line.strip_prefix("  ").filter(|l| !l.starts_with(' '))?;
    Some(line.split_once("  ").map_or((line, ""), |(usage, about)| (usage, about.trim_start())))
}

/// An option's forms in the man page's fonts: `\fB\-t\fR, \fB\-\-time\fR \fISECONDS\fR`.
fn man_forms(m: &mut String, o: &Opt) {
    for (i, w) in o.words().iter().enumerate() {
        put(m, &[if i > 0 { ", \\fB" } else { "\\fB" }, &w.replace('-', "\\-"), "\\fR"]);
    }
    match o.takes {
        Takes::Nothing => {}
        Takes::Value(v) => put(m, &[" \\fI", v, "\\fR"]),
        Takes::Optional(v) => put(m, &["[=\\fI", v, "\\fR]"]),
    }
    m.push('\n');
}

/// Appends text made safe for roff: backslashes and minus signs escaped, no line read as a
/// request.
fn roff(m: &mut String, text: &str) {
    for line in text.lines() {
        if line.starts_with(['.', '\'']) {
            m.push_str("\\&");
        }
        for c in line.chars() {
            match c {
                '\\' => m.push_str("\\e"),
                '-' => m.push_str("\\-"),
                c => m.push(c),
            }
        }
        m.push('\n');
    }
}

/// The completion script for `shell`, or None for a shell we do not write for; `programs` are
/// the applets' names.
#[inline(never)]
pub fn completions(shell: &str, programs: &[&'static str]) -> Option<String> {
    let mut words = first_words();
    for p in programs {
        if !words.contains(p) {
            words.push(p);
        }
    }
    let words = words.join(" ");
    let mut s = String::new();
    match shell {
        "bash" => bash(&mut s, &words),
        "zsh" => zsh(&mut s, &words),
        "fish" => fish(&mut s, &words),
        _ => return None,
    }
    Some(s)
}

/// The words `unixbench` takes first that are neither options nor programs: the commands, then
/// every test and group.
pub fn first_words() -> Vec<&'static str> {
    let mut words: Vec<&str> = Vec::new();
    for c in COMMANDS.iter().filter(|c| !c.starts_with('-')) {
        words.push(c);
    }
    words.extend(test_and_group_names());
    words
}

/// Appends a shell's single-quoted word.
fn quoted(s: &mut String, w: &str) {
    s.push('\'');
    for c in w.chars() {
        match c {
            '\'' => s.push_str("'\\''"),
            c => s.push(c),
        }
    }
    s.push('\'');
}

/// The one line a completion shows for an option.
fn summary(o: &Opt) -> &'static str {
    o.brief.unwrap_or(o.help[0])
}

/// Appends what a shell offers for `o`'s value, in that shell's words: for a directory, for a
/// file, for one of the words the table names (between `before` and `after`, in single quotes
/// when `quote`), for anything else.
fn offer(s: &mut String, o: &Opt, [dirs, files, before, after, other]: [&str; 5], quote: bool) {
    match o.values() {
        Values::Dirs => *s += dirs,
        Values::Files => *s += files,
        Values::Words(w) => {
            *s += before;
            if quote {
                quoted(s, &w.join(" "));
            } else {
                *s += &w.join(" ");
            }
            *s += after;
        }
        _ => *s += other,
    }
}

fn bash(s: &mut String, words: &str) {
    *s += BASH_HEAD;
    let shells = SHELLS.join(" ");
    let cases = OPTIONS.iter().filter(|o| matches!(o.takes, Takes::Value(_)));
    for o in cases {
        put(s, &["        ", &o.words().join("|"), ") "]);
        let reply = |c| ["COMPREPLY=($(compgen ", c, " -- \"$cur\"))"].concat();
        let [dirs, files] = [reply("-d"), reply("-f")];
        offer(s, o, [&dirs, &files, "COMPREPLY=($(compgen -W ", " -- \"$cur\"))", ":"], true);
        *s += "; return ;;\n";
    }
    *s += "        --completions) ";
    compgen(s, &shells);
    *s += "; return ;;\n";
    *s += BASH_MIDDLE;
    for o in OPTIONS {
        for w in o.words() {
            put(s, &[&w, " "]);
        }
    }
    for c in COMMANDS.iter().filter(|c| c.starts_with('-')) {
        put(s, &[c, " "]);
    }
    *s += words;
    *s += BASH_TAIL;
}

/// `COMPREPLY=($(compgen -W 'WORDS' -- "$cur"))`.
fn compgen(s: &mut String, words: &str) {
    *s += "COMPREPLY=($(compgen -W ";
    quoted(s, words);
    *s += " -- \"$cur\"))";
}

/// The bash script around the option table's cases, then around the words.
const BASH_HEAD: &str = r#"# bash completion for unixbench (unixbench --completions bash)
_unixbench() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
"#;
const BASH_MIDDLE: &str = r#"        --install|--dropin) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ $COMP_CWORD -gt 1 && ${COMP_WORDS[1]} == compare ]]; then
        COMPREPLY=($(compgen -f -- "$cur")); return
    fi
    COMPREPLY=($(compgen -W '"#;
const BASH_TAIL: &str = r#"' -- "$cur"))
}
complete -o default -F _unixbench unixbench
"#;

fn zsh(s: &mut String, words: &str) {
    *s += "#compdef unixbench\n# zsh completion for unixbench (unixbench --completions zsh)\n_arguments -s \\\n";
    for o in OPTIONS {
        let about = summary(o).replace('[', "\\[").replace(']', "\\]");
        let (metavar, optional) = match o.takes {
            Takes::Nothing => ("", false),
            Takes::Value(v) => (v, false),
            Takes::Optional(v) => (v, true),
        };
        let mut action = String::new();
        offer(&mut action, o, ["_files -/", "_files", "(", ")", " "], false);
        for w in o.words() {
            let mut spec = String::new();
            put(
                &mut spec,
                &[if optional { "" } else { "*" }, &w, if optional { "=-[" } else { "[" }, &about, "]"],
            );
            if !metavar.is_empty() {
                put(&mut spec, &[":", metavar, ":", &action]);
            }
            *s += "  ";
            quoted(s, &spec);
            *s += " \\\n";
        }
    }
    for c in COMMANDS.iter().filter(|c| c.starts_with('-')) {
        let shells =
            if *c == "--completions" { [":shell:(", &SHELLS.join(" "), ")"].concat() } else { String::new() };
        *s += "  ";
        quoted(s, &[c, "[command]", &shells].concat());
        *s += " \\\n";
    }
    *s += "  ";
    quoted(s, &["*:command, test, group or program:(", words, ")"].concat());
    s.push('\n');
}

fn fish(s: &mut String, words: &str) {
    *s += "# fish completion for unixbench (unixbench --completions fish)\ncomplete -c unixbench -f\n";
    for o in OPTIONS {
        *s += "complete -c unixbench";
        if let Some(c) = o.short {
            *s += " -s ";
            s.push(c);
        }
        if let Some(l) = o.long {
            put(s, &[" -l ", l]);
        }
        // An optional value is attached (`--quick=300`): a separate word is a test.
        if matches!(o.takes, Takes::Value(_)) {
            offer(s, o, [" -x -a '(__fish_complete_directories)'", " -r -F", " -x -a ", "", " -x"], true);
        }
        *s += " -d ";
        quoted(s, summary(o));
        s.push('\n');
    }
    for c in COMMANDS.iter().filter_map(|c| c.strip_prefix("--")) {
        put(s, &["complete -c unixbench -l ", c]);
        if c == "completions" {
            *s += " -x -a ";
            quoted(s, &SHELLS.join(" "));
        }
        *s += " -d command\n";
    }
    *s += "complete -c unixbench -a ";
    quoted(s, words);
    *s += "\ncomplete -c unixbench -n '__fish_seen_subcommand_from compare' -F\n";
}
