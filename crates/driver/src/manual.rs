//! `unixbench --man` and `unixbench --completions bash|zsh|fish`: the manual page unixbench(1)
//! and the shells' completions, generated from every command's option table (the driver's
//! [`OPTIONS`], and compare's and lmbench's, which dispatch hands in), the environment
//! table, the catalogue's tests and groups, the program names and the commands of dispatch, so
//! that none of them can disagree with `--help`. `make install` installs their output; a user
//! with the binary alone prints them. Here rather than beside dispatch: this crate is built for
//! size, and this is text.

use crate::options::{
    test_and_group_names, Section, Spec, Takes, Values, AB_HEAD, ENVIRONMENT, HELP_HEAD, HELP_TAIL, OPTIONS,
};
use crate::suite;
use base::options::Command;

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
pub fn man(usage: &str, others: &[&Command]) -> String {
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
            man_entry(&mut m, o);
        }
    }
    for c in others {
        put(&mut m, &[".SH \"", &c.name.to_ascii_uppercase(), "'S OPTIONS\"\n"]);
        for o in c.specs().into_iter().filter(|o| o.short.is_some() || o.long.is_some()) {
            man_entry(&mut m, o);
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

/// An option's entry: its forms in the man page's fonts (`\fB\-t\fR, \fB\-\-time\fR
/// \fISECONDS\fR`), then its help.
fn man_entry(m: &mut String, o: &Spec) {
    *m += ".TP\n";
    for (i, w) in o.words().iter().enumerate() {
        put(m, &[if i > 0 { ", \\fB" } else { "\\fB" }, &w.replace('-', "\\-"), "\\fR"]);
    }
    match o.takes {
        Takes::Nothing => {}
        Takes::Value(v) => put(m, &[" \\fI", v, "\\fR"]),
        Takes::Optional(v) => put(m, &["[=\\fI", v, "\\fR]"]),
    }
    m.push('\n');
    roff(m, o.help);
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

/// The completion script for `shell`, or None for a shell we do not write for. `programs` are
/// the applets' names; `commands` every command's table, the run's first: what follows the
/// first word completes as the command it names; a line that names none, or `run`, as a run,
/// whose completions also offer the commands and the other first words.
#[inline(never)]
pub fn completions(shell: &str, programs: &[&'static str], commands: &[&Command]) -> Option<String> {
    let mut words = first_words();
    for p in programs {
        if !words.contains(p) {
            words.push(p);
        }
    }
    let words = words.join(" ");
    let mut s = String::new();
    match shell {
        "bash" => bash(&mut s, &words, commands),
        "zsh" => zsh(&mut s, &words, commands),
        "fish" => fish(&mut s, &words, commands),
        _ => return None,
    }
    Some(s)
}

/// The words `unixbench` takes first that are neither options nor programs: the commands, then
/// every test and group this binary runs.
pub fn first_words() -> Vec<&'static str> {
    let mut words: Vec<&str> = Vec::new();
    for c in COMMANDS.iter().filter(|c| !c.starts_with('-')) {
        words.push(c);
    }
    words.extend(runnable_tests());
    words
}

/// The tests and groups this binary can run: a graphics test, or a group made of them, only in
/// a graphics build.
pub fn runnable_tests() -> Vec<&'static str> {
    let graphics = |t: &str| suite::test(t).is_some_and(|t| matches!(t.kind, suite::Kind::Graphics { .. }));
    let mut names = test_and_group_names();
    if !cfg!(feature = "graphics") {
        names.retain(|n| *n == "all" || !suite::expand(n).unwrap_or_default().iter().any(|t| graphics(t)));
    }
    names
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

/// The words a shell offers for `values`, space-separated: a list's, or the tests'.
fn value_words(values: Values) -> String {
    match values {
        Values::Words(w) => w.join(" "),
        Values::Tests => runnable_tests().join(" "),
        _ => String::new(),
    }
}

/// Appends what a shell offers for `values`, in that shell's words: for a directory, for a
/// file, for words (between `before` and `after`, in single quotes when `quote`), for anything
/// else.
fn offer(s: &mut String, values: Values, [dirs, files, before, after, other]: [&str; 5], quote: bool) {
    match values {
        Values::Dirs => *s += dirs,
        Values::Files => *s += files,
        Values::Words(_) | Values::Tests => {
            *s += before;
            let w = value_words(values);
            if quote {
                quoted(s, &w);
            } else {
                *s += &w;
            }
            *s += after;
        }
        Values::Any => *s += other,
    }
}

/// Each option word of `specs` (`-t --time ...`), space-separated.
fn option_words(specs: &[&Spec]) -> String {
    let mut w = String::new();
    for o in specs {
        for x in o.words() {
            put(&mut w, &[&x, " "]);
        }
    }
    w
}

fn bash(s: &mut String, words: &str, commands: &[&Command]) {
    *s += BASH_HEAD;
    let mut body = String::new();
    for (i, c) in commands.iter().enumerate() {
        let specs = c.specs();
        put(s, &[if i == 0 { "" } else { "|" }, c.name]);
        put(&mut body, &["    ", c.name, ")\n        case $prev in\n"]);
        for o in specs.iter().filter(|o| matches!(o.takes, Takes::Value(_))) {
            put(&mut body, &["            ", &o.words().join("|"), ") "]);
            let offers = [BASH_DIRS, BASH_FILES, "COMPREPLY=($(compgen -W ", " -- \"$cur\"))", ":"];
            offer(&mut body, o.values, offers, true);
            body += "; return ;;\n";
        }
        let mut w = option_words(&specs);
        // The run's: also the commands, and the words that may come first.
        if i == 0 {
            body += "            --completions) ";
            compgen(&mut body, &SHELLS.join(" "));
            put(&mut body, &["; return ;;\n            --install|--dropin) ", BASH_DIRS, "; return ;;\n"]);
            for c in COMMANDS.iter().filter(|c| c.starts_with('-')) {
                put(&mut w, &[c, " "]);
            }
            w += words;
        } else {
            w += &value_words(c.operands);
        }
        body += "        esac\n        local w=";
        quoted(&mut body, &w);
        if c.operands == Values::Files {
            put(&mut body, &["\n        [[ $cur == -* ]] || { ", BASH_FILES, "; return; }"]);
        }
        body += "\n        COMPREPLY=($(compgen -W \"$w\" -- \"$cur\")) ;;\n";
    }
    put(s, &[BASH_WHICH, &body, BASH_TAIL]);
}

/// What bash offers for a directory, and for a file.
const BASH_DIRS: &str = "COMPREPLY=($(compgen -d -- \"$cur\"))";
const BASH_FILES: &str = "COMPREPLY=($(compgen -f -- \"$cur\"))";

/// `COMPREPLY=($(compgen -W 'WORDS' -- "$cur"))`.
fn compgen(s: &mut String, words: &str) {
    *s += "COMPREPLY=($(compgen -W ";
    quoted(s, words);
    *s += " -- \"$cur\"))";
}

/// The bash script around the commands' cases: the command is the first word where it names
/// one, else a run (or the first word itself).
const BASH_HEAD: &str = r#"# bash completion for unixbench (unixbench --completions bash)
_unixbench() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd=run
    if [[ $COMP_CWORD -gt 1 ]]; then
        case ${COMP_WORDS[1]} in "#;
const BASH_WHICH: &str = r#") cmd=${COMP_WORDS[1]} ;; esac
    fi
    case $cmd in
"#;
const BASH_TAIL: &str = r#"    esac
}
complete -o default -F _unixbench unixbench
"#;

/// Appends a zsh `_arguments` spec for each option of `specs`.
fn zsh_specs(s: &mut String, specs: &[&Spec]) {
    for o in specs {
        let about = o.about().replace('[', "\\[").replace(']', "\\]");
        let (metavar, optional) = match o.takes {
            Takes::Nothing => ("", false),
            Takes::Value(v) => (*v, false),
            Takes::Optional(v) => (*v, true),
        };
        let mut action = String::new();
        offer(&mut action, o.values, ["_files -/", "_files", "(", ")", " "], false);
        for w in o.words() {
            let mut spec = String::new();
            put(
                &mut spec,
                &[if optional { "" } else { "*" }, &w, if optional { "=-[" } else { "[" }, &about, "]"],
            );
            if !metavar.is_empty() {
                put(&mut spec, &[":", metavar, ":", &action]);
            }
            *s += " \\\n    ";
            quoted(s, &spec);
        }
    }
}

fn zsh(s: &mut String, words: &str, commands: &[&Command]) {
    *s += "#compdef unixbench\n# zsh completion for unixbench (unixbench --completions zsh)\n\
           local cmd=run\nif (( CURRENT > 2 )); then\n  case $words[2] in\n  ";
    let mut body = String::new();
    for (i, c) in commands.iter().enumerate() {
        put(s, &[if i == 0 { "" } else { "|" }, c.name]);
        put(&mut body, &[c.name, ")\n  _arguments -s"]);
        zsh_specs(&mut body, &c.specs());
        body += " \\\n    ";
        // The run's: also the commands, and the words that may come first.
        if i == 0 {
            for c in COMMANDS.iter().filter(|c| c.starts_with('-')) {
                let shells = if *c == "--completions" {
                    [":shell:(", &SHELLS.join(" "), ")"].concat()
                } else {
                    String::new()
                };
                quoted(&mut body, &[c, "[command]", &shells].concat());
                body += " \\\n    ";
            }
            quoted(&mut body, &["*:command, test, group or program:(", words, ")"].concat());
        } else if c.operands == Values::Files {
            body += "'*:file:_files'";
        } else {
            quoted(&mut body, &["*:test or group:(", &value_words(c.operands), ")"].concat());
        }
        body += " ;;\n";
    }
    put(
        s,
        &[") cmd=$words[2]; shift words; (( CURRENT-- )) ;;\n  esac\nfi\ncase $cmd in\n", &body, "esac\n"],
    );
}

fn fish(s: &mut String, words: &str, commands: &[&Command]) {
    *s += "# fish completion for unixbench (unixbench --completions fish)\n\
           function __unixbench_cmd\n    set -l w (commandline -opc)\n    \
           if set -q w[2]; and contains -- $w[2]";
    for c in commands {
        put(s, &[" ", c.name]);
    }
    *s += "\n        echo $w[2]\n    else\n        echo run\n    end\nend\ncomplete -c unixbench -f\n";
    for c in commands {
        // Its lines apply after its name, the run's also where no command was named.
        let when = ["complete -c unixbench -n 'test (__unixbench_cmd) = ", c.name, "'"].concat();
        for o in c.specs().into_iter().filter(|o| o.short.is_some() || o.long.is_some()) {
            *s += &when;
            if let Some(c) = o.short {
                *s += " -s ";
                s.push(c);
            }
            if let Some(l) = o.long {
                put(s, &[" -l ", l]);
            }
            // An optional value is attached (`--quick=300`): a separate word is an operand.
            if matches!(o.takes, Takes::Value(_)) {
                let options = [" -x -a '(__fish_complete_directories)'", " -r -F", " -x -a ", "", " -x"];
                offer(s, o.values, options, true);
            }
            *s += " -d ";
            quoted(s, &o.about());
            s.push('\n');
        }
        *s += &when;
        offer(s, c.operands, ["", " -F", " -a ", "", ""], true);
        s.push('\n');
    }
    for c in COMMANDS.iter().filter_map(|c| c.strip_prefix("--")) {
        put(s, &["complete -c unixbench -n 'test (__unixbench_cmd) = run' -l ", c]);
        if c == "completions" {
            *s += " -x -a ";
            quoted(s, &SHELLS.join(" "));
        }
        *s += " -d command\n";
    }
    *s += "complete -c unixbench -n 'test (__unixbench_cmd) = run' -a ";
    quoted(s, words);
    s.push('\n');
}
