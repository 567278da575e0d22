//! The option model every command line is declared in (the driver's `run` and `ab`, `compare`,
//! `lmbench`): an option's names, what it takes, its help, the values a shell may offer. From a
//! command's table come its parsing ([`next`]), the help's option lines ([`help_lines`]), the
//! suggestion for a misspelt option ([`unknown`]); the driver's manual makes the man page and
//! the completions from every command's table. Nothing here is generic: one copy of each serves
//! every command.

use crate::error::{Error, Result};
use std::ffi::OsString;
use std::fmt::Write as _;

/// How an option takes its argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    Nothing,
    /// A value, `-c N`, `--results DIR` or `--results=DIR`. (Each name through a reference,
    /// not its own fat pointer: eight bytes less in every option of every table.)
    Value(&'static &'static str),
    /// An optional value, attached: `--quick` or `--quick=SECONDS`.
    Optional(&'static &'static str),
}

/// What a shell's completion offers for an option's value or a command's operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Values {
    /// A number or any word (or no value at all): nothing to offer.
    Any,
    Dirs,
    Files,
    /// One of these words (through a reference to the list, not the list's own fat pointer:
    /// eight bytes less in every option of every table).
    Words(&'static &'static [&'static str]),
    /// The tests and groups this binary can run.
    Tests,
}

/// One option, declared once, as every command's table holds it.
#[derive(Debug)]
pub struct Spec {
    pub short: Option<char>,
    pub long: Option<&'static str>,
    pub takes: Takes,
    /// What a shell offers for its value.
    pub values: Values,
    /// Its lines in the command's help (one string, not a list of them: a list costs the
    /// binary 16 bytes a line).
    pub help: &'static str,
    /// Its line in the top-level help, for the options people reach for; else what a
    /// completion says of it, before its help's first sentence.
    pub brief: Option<&'static str>,
}

impl Spec {
    /// An option of nothing, to fill the fields an entry does not name.
    pub const NONE: Spec =
        Spec { short: None, long: None, takes: Takes::Nothing, values: Values::Any, help: "", brief: None };

    /// Each word that names it in help and completions: `-t`, `--time`.
    pub fn words(&self) -> Vec<String> {
        let mut w = Vec::new();
        if let Some(c) = self.short {
            w.push(format!("-{c}"));
        }
        if let Some(l) = self.long {
            w.push(format!("--{l}"));
        }
        w
    }

    /// Whether the option word `word` (`-c`, `--time`) names it.
    pub fn is(&self, word: &str) -> bool {
        self.words().iter().any(|w| w == word)
    }

    /// How the help writes it: `-t, --time SECONDS`, `--quick[=SECONDS]`, `-c N`.
    pub fn forms(&self) -> String {
        let f = self.words().join(", ");
        match self.takes {
            Takes::Nothing => f,
            Takes::Value(v) => [&f, " ", v].concat(),
            Takes::Optional(v) => [&f, "[=", v, "]"].concat(),
        }
    }

    /// How errors name it: the long form where it has one.
    pub fn name(&self) -> String {
        self.long.map_or_else(|| format!("-{}", self.short.unwrap_or('?')), |l| format!("--{l}"))
    }

    /// One line on what it does, whole, for the completions: the brief line, else its help up
    /// to the end of the first sentence (a `.` or `;` ending a word outside parentheses).
    pub fn about(&self) -> String {
        if let Some(b) = self.brief {
            return b.to_string();
        }
        let all = self.help.replace('\n', " ");
        let mut depth = 0;
        for (i, c) in all.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                '.' | ';' if depth == 0 && all[i + 1..].starts_with(' ') => return all[..i].to_string(),
                _ => {}
            }
        }
        all
    }
}

/// A command line's table: its name (as `unixbench NAME --help` names it), its options, its
/// hidden names, and what its operands are. `spec` gives the option at an index, None past the
/// last: a table of entries that hold a [`Spec`] and more (the driver's) is read through it
/// without a copy.
pub struct Command {
    pub name: &'static str,
    pub spec: fn(usize) -> Option<&'static Spec>,
    /// Long names that are parsed as the option at that index but offered by no help or
    /// completion: names an option once had. (Here rather than in each [`Spec`]: two options
    /// have one, and a field of every entry costs the binary more than this list.)
    pub hidden: &'static [(&'static str, usize)],
    pub operands: Values,
}

impl Command {
    /// Every option, in the table's order.
    pub fn specs(&self) -> Vec<&'static Spec> {
        let mut all = Vec::new();
        while let Some(s) = (self.spec)(all.len()) {
            all.push(s);
        }
        all
    }

    /// The option `word` names, by a visible name or a hidden one, and its index.
    pub fn find(&self, word: &str) -> Option<(usize, &'static Spec)> {
        let hidden = self.hidden.iter().find(|(h, _)| word.strip_prefix("--") == Some(h));
        let i = hidden.map(|&(_, i)| i).or_else(|| self.specs().iter().position(|s| s.is(word)))?;
        Some((i, (self.spec)(i)?))
    }
}

/// A word of a command line, as [`next`] reads it.
#[derive(Debug, PartialEq)]
pub enum Arg {
    /// The option at this index of the table, with its value where it takes one.
    Opt(usize, Option<OsString>),
    Operand(OsString),
    /// An option word the table does not have.
    Unknown(String),
}

/// The next word of `p` against `cmd`'s table: an option with its value read as the table
/// says, an operand, or an option it does not know; None at the end.
pub fn next(p: &mut lexopt::Parser, cmd: &Command) -> Result<Option<Arg>> {
    let word = match p.next().map_err(|e| Error::usage(e.to_string()))? {
        None => return Ok(None),
        Some(lexopt::Arg::Value(v)) => return Ok(Some(Arg::Operand(v))),
        Some(lexopt::Arg::Short(c)) => format!("-{c}"),
        Some(lexopt::Arg::Long(l)) => format!("--{l}"),
    };
    let Some((i, spec)) = cmd.find(&word) else { return Ok(Some(Arg::Unknown(word))) };
    let v = match spec.takes {
        Takes::Nothing => None,
        Takes::Value(what) => {
            let missing = |_| Error::usage(format!("option {} needs a value ({what})", spec.name()));
            Some(p.value().map_err(missing)?)
        }
        Takes::Optional(_) => p.optional_value(),
    };
    Ok(Some(Arg::Opt(i, v)))
}

/// The error for an option word `cmd` does not take: the closest it does, on one short line
/// (the list is behind `--help`).
pub fn unknown(word: &str, cmd: &Command) -> Error {
    let mut names = Vec::new();
    for s in cmd.specs() {
        names.extend(s.words());
    }
    let close = crate::suggest::closest(word, names.iter().map(String::as_str));
    Error::usage(format!(
        "unknown option '{}'{}; every option: 'unixbench {} --help'",
        crate::args::escaped(word),
        crate::suggest::did_you_mean(&close),
        cmd.name
    ))
}

/// Appends `s`'s help lines, the first beside its forms, in a column `width` wide (or two
/// spaces after forms that are wider); an option of hidden names alone has none.
pub fn help_lines(h: &mut String, s: &Spec, width: usize) {
    let forms = s.forms();
    if s.short.is_none() && s.long.is_none() {
        return;
    }
    let pad = if forms.len() < width { width } else { forms.len() + 2 };
    for (i, line) in s.help.lines().enumerate() {
        let head = if i == 0 { forms.as_str() } else { "" };
        let _ = writeln!(h, "  {head:<pad$}{line}");
    }
}

/// `a, b or c`: the words of a value list as an error says what it expected.
pub fn one_of(words: &[&str]) -> String {
    match words {
        [rest @ .., last] if !rest.is_empty() => [&rest.join(", "), " or ", last].concat(),
        _ => words.concat(),
    }
}

/// The names of a table of named values, `[("text", Format::Text), ...]`, in its order: the
/// list a shell offers, derived from the table that parses them.
pub const fn names<T: Copy, const N: usize>(table: &[(&'static str, T); N]) -> [&'static str; N] {
    let mut n = [""; N];
    let mut i = 0;
    while i < N {
        n[i] = table[i].0;
        i += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    static TABLE: &[Spec] = &[
        Spec { short: Some('s'), long: Some("short"), help: "short", ..Spec::NONE },
        Spec {
            long: Some("format"),
            takes: Takes::Value(&"FORMAT"),
            values: Values::Words(&(&["text", "tsv"] as &[&str])),
            help: "what is printed: text (the default;\na table) or tsv; progress on stderr",
            ..Spec::NONE
        },
        Spec { long: Some("json"), takes: Takes::Optional(&"FILE"), help: "also JSON", ..Spec::NONE },
        Spec::NONE,
    ];

    const CMD: Command = Command {
        name: "test",
        spec: |i| TABLE.get(i),
        hidden: &[("quick", 0), ("hello", 3)],
        operands: Values::Files,
    };

    fn parse(words: &[&str]) -> Result<Vec<Arg>> {
        let mut p = lexopt::Parser::from_args(words.iter().map(OsString::from));
        let mut all = Vec::new();
        while let Some(a) = next(&mut p, &CMD)? {
            all.push(a);
        }
        Ok(all)
    }

    #[test]
    fn each_word_is_read_as_the_table_says() {
        let got = parse(&["-s", "--quick", "--format", "tsv", "--json", "f", "--json=g", "--hello", "--x"]);
        assert_eq!(
            got.unwrap(),
            [
                Arg::Opt(0, None),
                Arg::Opt(0, None),
                Arg::Opt(1, Some("tsv".into())),
                Arg::Opt(2, None),
                Arg::Operand("f".into()),
                Arg::Opt(2, Some("g".into())),
                Arg::Opt(3, None),
                Arg::Unknown("--x".into()),
            ]
        );
        assert_eq!(parse(&["--format"]).unwrap_err().to_string(), "option --format needs a value (FORMAT)");
    }

    #[test]
    fn a_misspelt_option_gets_the_closest_visible_names() {
        let e = unknown("--shrot", &CMD).to_string();
        assert_eq!(
            e,
            "unknown option '--shrot' (did you mean --short?); every option: 'unixbench test --help'"
        );
        // Hidden names are parsed, never suggested.
        assert!(!unknown("--hell", &CMD).to_string().contains("hello"));
        assert!(!unknown("--quic", &CMD).to_string().contains("--quick"));
    }

    #[test]
    fn help_offers_no_hidden_name() {
        let mut h = String::new();
        for s in TABLE {
            help_lines(&mut h, s, 16);
        }
        assert_eq!(
            h,
            "  -s, --short     short\n  --format FORMAT what is printed: text (the default;\n                  \
             a table) or tsv; progress on stderr\n  --json[=FILE]   also JSON\n"
        );
        assert!(!h.contains("quick") && !h.contains("hello"));
    }

    #[test]
    fn about_is_a_whole_sentence() {
        assert_eq!(TABLE[1].about(), "what is printed: text (the default; a table) or tsv");
        assert_eq!(TABLE[0].about(), "short");
        let b = Spec { brief: Some("brief"), help: "long. help", ..Spec::NONE };
        assert_eq!(b.about(), "brief");
        assert_eq!(Spec { help: "a 1.5 b. c", ..Spec::NONE }.about(), "a 1.5 b");
    }

    #[test]
    fn value_lists_read_as_errors_say_them_and_come_from_their_tables() {
        assert_eq!(one_of(&["a", "b", "c"]), "a, b or c");
        assert_eq!(one_of(&["a"]), "a");
        const T: [(&str, u8); 2] = [("x", 1), ("y", 2)];
        assert_eq!(names(&T), ["x", "y"]);
    }
}
