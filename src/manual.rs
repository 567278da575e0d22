//! `unixbench --man` and `unixbench --completions bash|zsh|fish`: the manual page unixbench(1)
//! and the shells' completions, generated from the driver's option table (`OPTIONS`), its
//! environment table, the catalogue's tests and groups, the applet table and the commands of
//! dispatch, so that none of them can disagree with `--help`. `make install` installs their
//! output; a user with the binary alone prints them.

use crate::applets::APPLETS;
use base::suite;
use driver::options::{Opt, Takes, Values, ENVIRONMENT, HELP_HEAD, HELP_TAIL, OPTIONS};

/// The words `unixbench` takes first besides options, tests, groups and programs (`dispatch`).
pub const COMMANDS: &[&str] = &[
    "run",
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

/// The manual page, in roff's `man` macros; `usage` is the top-level help's list of commands.
pub fn man(usage: &str) -> String {
    let mut m = format!(
        ".TH UNIXBENCH 1 \"\" \"unixbench {}\" \"User Commands\"\n.nh\n.ad l\n",
        base::version::NUMBER
    );
    m += ".SH NAME\nunixbench \\- the BYTE UNIX Benchmarks in one static binary\n";
    m += &format!(".SH SYNOPSIS\n.nf\n{}.fi\n", roff(usage));
    let description = HELP_HEAD.split_once("\n\n").map_or(HELP_HEAD, |(_, d)| d);
    m += &format!(".SH DESCRIPTION\n{}", roff(description));
    // Titles in capitals as written: to_uppercase would bring Unicode's case tables in.
    for (title, run) in [("RUN'S OPTIONS", true), ("OUR OPTIONS", false)] {
        m += &format!(".SH \"{title}\"\n");
        for o in OPTIONS.iter().filter(|o| o.run == run) {
            m += &format!(".TP\n{}\n{}", man_forms(o), roff(&o.about()));
        }
    }
    let tagged = |title: &str, rows: &mut dyn Iterator<Item = (&str, &str)>| {
        let mut s = format!(".SH {title}\n");
        for (name, about) in rows {
            s += &format!(".TP\n.B {}{}", roff(name), roff(about));
        }
        s
    };
    m += &tagged("GROUPS", &mut suite::groups());
    m += &tagged("TESTS", &mut suite::TESTS.iter().map(|t| (t.name, t.message)));
    m += &tagged("ENVIRONMENT", &mut ENVIRONMENT.iter().copied());
    m += &format!(".SH \"EXIT STATUS\"\n{}", roff(HELP_TAIL));
    m += ".SH \"SEE ALSO\"\n\\fBunixbench compare \\-\\-help\\fR, \\fBunixbench lmbench \\-\\-help\\fR, \
          \\fBunixbench\\fR \\fIPROGRAM\\fR \\fB\\-\\-help\\fR, \\fBunixbench \\-\\-list\\fR\n";
    m
}

/// An option's forms in the man page's fonts: `\fB\-t\fR, \fB\-\-time\fR \fISECONDS\fR`.
fn man_forms(o: &Opt) -> String {
    let words: Vec<String> = o.words().map(|w| format!("\\fB{}\\fR", w.replace('-', "\\-"))).collect();
    let value = match o.takes {
        Takes::Nothing => String::new(),
        Takes::Value(v) => format!(" \\fI{v}\\fR"),
        Takes::Optional(v) => format!("[=\\fI{v}\\fR]"),
    };
    words.join(", ") + &value
}

/// Text made safe for roff: backslashes and minus signs escaped, no line read as a request.
fn roff(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let l = line.replace('\\', "\\e").replace('-', "\\-");
        if l.starts_with(['.', '\'']) {
            out.push_str("\\&");
        }
        out += &l;
        out.push('\n');
    }
    out
}

/// The completion script for `shell`, or None for a shell we do not write for.
pub fn completions(shell: &str) -> Option<String> {
    match shell {
        "bash" => Some(bash()),
        "zsh" => Some(zsh()),
        "fish" => Some(fish()),
        _ => None,
    }
}

/// What the first word may be besides an option: a command, a test, a group or a program.
fn words() -> Vec<&'static str> {
    let mut w: Vec<&str> = COMMANDS.iter().copied().filter(|c| !c.starts_with('-')).collect();
    w.extend(suite::TESTS.iter().map(|t| t.name).chain(suite::group_names()));
    w.extend(APPLETS.iter().map(|a| a.name));
    w.sort_unstable();
    w.dedup();
    w
}

/// Every option word and the dashed commands.
fn dashed() -> Vec<String> {
    let mut d: Vec<String> = OPTIONS.iter().flat_map(Opt::words).collect();
    d.extend(COMMANDS.iter().filter(|c| c.starts_with('-')).map(|c| c.to_string()));
    d
}

/// A shell's single-quoted word.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The one line a completion shows for an option.
fn summary(o: &Opt) -> &'static str {
    o.brief.unwrap_or(o.help[0])
}

fn bash() -> String {
    let mut cases = String::new();
    for o in OPTIONS.iter().filter(|o| matches!(o.takes, Takes::Value(_))) {
        let names = o.words().collect::<Vec<_>>().join("|");
        let reply = match o.values() {
            Values::Dirs => "COMPREPLY=($(compgen -d -- \"$cur\"))".to_string(),
            Values::Files => "COMPREPLY=($(compgen -f -- \"$cur\"))".to_string(),
            Values::Words(w) => format!("COMPREPLY=($(compgen -W {} -- \"$cur\"))", quoted(&w.join(" "))),
            Values::None | Values::Any => ":".to_string(),
        };
        cases += &format!("        {names}) {reply}; return ;;\n");
    }
    cases += &format!(
        "        --completions) COMPREPLY=($(compgen -W {} -- \"$cur\")); return ;;\n",
        quoted(&SHELLS.join(" "))
    );
    let all = [dashed().join(" "), words().join(" ")].join(" ");
    BASH.replace("@CASES@", &cases).replace("@WORDS@", &quoted(&all))
}

/// The bash script around the option table's cases (`@CASES@`) and the words (`@WORDS@`).
const BASH: &str = r#"# bash completion for unixbench (unixbench --completions bash)
_unixbench() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
@CASES@        --install|--dropin) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    if [[ $COMP_CWORD -gt 1 && ${COMP_WORDS[1]} == compare ]]; then
        COMPREPLY=($(compgen -f -- "$cur")); return
    fi
    COMPREPLY=($(compgen -W @WORDS@ -- "$cur"))
}
complete -o default -F _unixbench unixbench
"#;

fn zsh() -> String {
    let mut specs = String::new();
    for o in OPTIONS {
        let about = summary(o).replace('[', "\\[").replace(']', "\\]");
        let value = |v: &str| match o.values() {
            Values::Dirs => format!(":{v}:_files -/"),
            Values::Files => format!(":{v}:_files"),
            Values::Words(w) => format!(":{v}:({})", w.join(" ")),
            Values::None | Values::Any => format!(":{v}: "),
        };
        for w in o.words() {
            let spec = match o.takes {
                Takes::Nothing => format!("*{w}[{about}]"),
                Takes::Value(v) => format!("*{w}[{about}]{}", value(v)),
                Takes::Optional(v) => format!("{w}=-[{about}]{}", value(v)),
            };
            specs += &format!("  {} \\\n", quoted(&spec));
        }
    }
    for c in COMMANDS.iter().filter(|c| c.starts_with('-')) {
        let value =
            if *c == "--completions" { format!(":shell:({})", SHELLS.join(" ")) } else { String::new() };
        specs += &format!("  {} \\\n", quoted(&format!("{c}[command]{value}")));
    }
    format!(
        "#compdef unixbench\n# zsh completion for unixbench (unixbench --completions zsh)\n\
         _arguments -s \\\n{specs}  {}\n",
        quoted(&format!("*:command, test, group or program:({})", words().join(" ")))
    )
}

fn fish() -> String {
    let mut s = "# fish completion for unixbench (unixbench --completions fish)\ncomplete -c unixbench -f\n"
        .to_string();
    for o in OPTIONS {
        let mut line = "complete -c unixbench".to_string();
        if let Some(c) = o.short {
            line += &format!(" -s {c}");
        }
        if let Some(l) = o.long {
            line += &format!(" -l {l}");
        }
        // An optional value is attached (`--quick=300`): a separate word is a test.
        let values = if matches!(o.takes, Takes::Value(_)) { o.values() } else { Values::None };
        line += &match values {
            Values::None => String::new(),
            Values::Any => " -x".to_string(),
            Values::Dirs => " -x -a '(__fish_complete_directories)'".to_string(),
            Values::Files => " -r -F".to_string(),
            Values::Words(w) => format!(" -x -a {}", quoted(&w.join(" "))),
        };
        s += &format!("{line} -d {}\n", quoted(summary(o)));
    }
    for c in COMMANDS.iter().filter(|c| c.starts_with("--")) {
        let value = if *c == "--completions" {
            format!(" -x -a {}", quoted(&SHELLS.join(" ")))
        } else {
            String::new()
        };
        s += &format!("complete -c unixbench -l {}{value} -d command\n", &c[2..]);
    }
    s += &format!("complete -c unixbench -a {}\n", quoted(&words().join(" ")));
    s += "complete -c unixbench -n '__fish_seen_subcommand_from compare' -F\n";
    s
}
