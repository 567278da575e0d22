//! Enough of Rust's lexical grammar for tidy's checks to see source as the compiler does:
//! comments and literals are no code, a path is read whole however a `use` groups it, and the
//! items compiled for tests only can be set aside. No macro is expanded: what a macro call
//! builds is seen as the tokens written in it.

/// What a token is. Numbers are `Ident`s (`0x1F`, `1e3`: nothing here needs them apart);
/// `::` is two `Punct(':')`; a lifetime is `Punct('\'')` and its name.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Ident(String),
    Punct(char),
    /// A string, character or byte literal's text between its quotes, escapes as written.
    Lit(String),
}

/// A token and the line it starts on, from 1.
#[derive(Clone, Debug)]
pub struct Token {
    pub line: usize,
    pub tok: Tok,
}

impl Token {
    pub fn is(&self, word: &str) -> bool {
        matches!(&self.tok, Tok::Ident(w) if w == word)
    }
    pub fn is_punct(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }
    fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(w) => Some(w),
            _ => None,
        }
    }
}

/// The source as tokens, comments (nested block comments and doc comments too) left out.
pub fn tokens(src: &str) -> Vec<Token> {
    let s: Vec<char> = src.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    while i < s.len() {
        let (c, start) = (s[i], line);
        let at = |k: usize| s.get(i + k).copied().unwrap_or('\0');
        let next = if c == '\n' {
            line += 1;
            i + 1
        } else if c.is_whitespace() {
            i + 1
        } else if c == '/' && at(1) == '/' {
            s[i..].iter().position(|&d| d == '\n').map_or(s.len(), |n| i + n)
        } else if c == '/' && at(1) == '*' {
            block_comment(&s, i, &mut line)
        } else if c == '"' {
            let end = quoted(&s, i + 1, '"', &mut line);
            out.push(lit(&s, i + 1, end, start));
            end
        } else if c == '\'' {
            char_or_lifetime(&s, i, &mut out, line)
        } else if c.is_alphanumeric() || c == '_' {
            word(&s, i, &mut out, &mut line)
        } else {
            out.push(Token { line, tok: Tok::Punct(c) });
            i + 1
        };
        i = next;
    }
    out
}

/// Past a block comment opening at `i`, nested ones within it.
fn block_comment(s: &[char], mut i: usize, line: &mut usize) -> usize {
    let mut depth = 0;
    while i < s.len() {
        match (s[i], s.get(i + 1).copied()) {
            ('/', Some('*')) => (depth, i) = (depth + 1, i + 2),
            ('*', Some('/')) => (depth, i) = (depth - 1, i + 2),
            (c, _) => {
                *line += usize::from(c == '\n');
                i += 1;
            }
        }
        if depth == 0 {
            break;
        }
    }
    i
}

/// Past a literal's closing `close`, its contents starting at `i`; a backslash escapes the
/// character after it.
fn quoted(s: &[char], mut i: usize, close: char, line: &mut usize) -> usize {
    while i < s.len() && s[i] != close {
        if s[i] == '\\' {
            i += 1;
        }
        *line += usize::from(s.get(i) == Some(&'\n'));
        i += 1;
    }
    (i + 1).min(s.len())
}

/// A literal's token: the text from `from` to the closing quote before `end`.
fn lit(s: &[char], from: usize, end: usize, line: usize) -> Token {
    Token { line, tok: Tok::Lit(s[from..end.saturating_sub(1).max(from)].iter().collect()) }
}

/// At a `'`: a character literal (`'x'`, `'\n'`, `'\u{1F600}'`) or a lifetime or label
/// (`'a`, whose name the caller reads next).
fn char_or_lifetime(s: &[char], i: usize, out: &mut Vec<Token>, line: usize) -> usize {
    let is_char = s.get(i + 1) == Some(&'\\') || s.get(i + 2) == Some(&'\'');
    if !is_char {
        out.push(Token { line, tok: Tok::Punct('\'') });
        return i + 1;
    }
    let mut l = line;
    let end = quoted(s, i + 1, '\'', &mut l);
    out.push(lit(s, i + 1, end, line));
    end
}

/// At a word: an identifier or number, a raw identifier (`r#type`), or the prefix of a literal
/// (`b"..."`, `b'x'`, `r"..."`, `r#"..."#`, `br"..."`, `c"..."`).
fn word(s: &[char], i: usize, out: &mut Vec<Token>, line: &mut usize) -> usize {
    let end = i + s[i..].iter().position(|&c| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len() - i);
    let w: String = s[i..end].iter().collect();
    let after = s.get(end).copied();
    let start = *line;
    if matches!(w.as_str(), "r" | "br" | "cr") && matches!(after, Some('"' | '#')) {
        let hashes = s[end..].iter().take_while(|&&c| c == '#').count();
        if s.get(end + hashes) == Some(&'"') {
            let body = end + hashes + 1;
            let close: Vec<char> = format!("\"{}", "#".repeat(hashes)).chars().collect();
            let stop = (body..s.len()).find(|&k| s[k..].starts_with(&close)).unwrap_or(s.len());
            *line += s[body..stop].iter().filter(|&&c| c == '\n').count();
            out.push(Token { line: start, tok: Tok::Lit(s[body..stop].iter().collect()) });
            return (stop + close.len()).min(s.len());
        }
        if w == "r" && hashes == 1 {
            // A raw identifier: the word after `r#`.
            return word(s, end + 1, out, line);
        }
    }
    if matches!(w.as_str(), "b" | "c") && after == Some('"') {
        let stop = quoted(s, end + 1, '"', line);
        out.push(lit(s, end + 1, stop, start));
        return stop;
    }
    if w == "b" && after == Some('\'') {
        return char_or_lifetime(s, end, out, start);
    }
    out.push(Token { line: start, tok: Tok::Ident(w) });
    end
}

/// The index of the token that closes the bracket opening at `open` (`{`, `(` or `[`), or the
/// last token's when it is never closed.
pub fn closing(toks: &[Token], open: usize) -> usize {
    let (o, c) = match toks[open].tok {
        Tok::Punct('(') => ('(', ')'),
        Tok::Punct('[') => ('[', ']'),
        _ => ('{', '}'),
    };
    let mut depth = 0;
    for (k, t) in toks.iter().enumerate().skip(open) {
        if t.is_punct(o) {
            depth += 1;
        } else if t.is_punct(c) {
            depth -= 1;
            if depth == 0 {
                return k;
            }
        }
    }
    toks.len() - 1
}

/// The tokens without the items compiled for tests only: each `#[cfg(test)]` and the item it
/// governs (a module, a function, an import...), to the item's closing brace or semicolon.
pub fn without_test_items(toks: &[Token]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        if !is_cfg_test(&toks[i..]) {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        // Past the attribute, then to the first `;`, `,` or `{...}` outside brackets, or to
        // the `}` that closes what holds the item (a struct's last field), which stays.
        let mut k = closing(toks, i + 1) + 1;
        while k < toks.len() {
            let t = &toks[k];
            if t.is_punct('(') || t.is_punct('[') {
                k = closing(toks, k);
            } else if t.is_punct('{') {
                k = closing(toks, k);
                break;
            } else if t.is_punct(';') || t.is_punct(',') {
                break;
            } else if t.is_punct('}') {
                k -= 1;
                break;
            }
            k += 1;
        }
        i = k + 1;
    }
    out
}

/// Whether the tokens open with `#[cfg(test)]`.
fn is_cfg_test(t: &[Token]) -> bool {
    t.len() >= 7
        && t[0].is_punct('#')
        && t[1].is_punct('[')
        && t[2].is("cfg")
        && t[3].is_punct('(')
        && t[4].is("test")
        && t[5].is_punct(')')
        && t[6].is_punct(']')
}

/// A path as written, its segments and the line that names it: `std::fs::File::open` is
/// `["std", "fs", "File", "open"]`, and a leading `::` an empty first segment. A `use` is
/// read as the paths it brings in, each group and `self` spelt out (`use a::{b, c::{self, d}}`
/// is `a::b`, `a::c` and `a::c::d`), a glob as a last segment `*`, and a rename (`as x`) as
/// the path it renames, with its `alias`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub line: usize,
    pub segments: Vec<String>,
    pub alias: Option<String>,
}

impl Path {
    /// Whether `run` appear in the path, one after the other.
    pub fn contains(&self, run: &[&str]) -> bool {
        self.segments.windows(run.len()).any(|w| w.iter().zip(run).all(|(a, b)| a == b))
    }
}

/// Every path of the tokens, `use` trees spelt out (see [`Path`]), and a path of two segments
/// or more that opens with a name a `use ... as` gave opening with the path it renames instead
/// (`use std::fs as f; f::read` is `std::fs::read`), wherever in the file the `use` stands.
pub fn paths(toks: &[Token]) -> Vec<Path> {
    let mut all = written_paths(toks);
    let renames: Vec<Path> = all.iter().filter(|p| p.alias.is_some()).cloned().collect();
    for p in all.iter_mut().filter(|p| p.alias.is_none() && p.segments.len() > 1) {
        let renamed = renames.iter().find(|r| r.alias.as_deref() == p.segments.first().map(String::as_str));
        if let Some(r) = renamed {
            p.segments = r.segments.iter().chain(&p.segments[1..]).cloned().collect();
        }
    }
    all
}

/// The paths as written, `use` trees spelt out.
fn written_paths(toks: &[Token]) -> Vec<Path> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let sep = |k: usize| k + 1 < toks.len() && toks[k].is_punct(':') && toks[k + 1].is_punct(':');
        // An import (not `impl Trait + use<'a>`, which captures lifetimes).
        if toks[i].is("use") && !toks.get(i + 1).is_some_and(|t| t.is_punct('<')) {
            let end = (i..toks.len()).find(|&k| toks[k].is_punct(';')).unwrap_or(toks.len());
            use_tree(&toks[i + 1..end], &[], &mut out);
            i = end + 1;
            continue;
        }
        let leading = sep(i) && !(i > 0 && toks[i - 1].ident().is_some());
        if toks[i].ident().is_none() && !leading {
            i += 1;
            continue;
        }
        let (line, mut segments) = (toks[i].line, Vec::new());
        if leading {
            segments.push(String::new());
            i += 2;
        }
        while let Some(w) = toks.get(i).and_then(Token::ident) {
            segments.push(w.to_string());
            if !sep(i + 1) {
                break;
            }
            i += 3;
        }
        out.push(Path { line, segments, alias: None });
        i += 1;
    }
    out
}

/// The paths a `use` tree brings in, under `prefix`.
fn use_tree(toks: &[Token], prefix: &[String], out: &mut Vec<Path>) {
    let Some(first) = toks.first() else { return };
    let (mut segments, mut alias) = (prefix.to_vec(), None);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.is_punct('{') {
            let end = closing(toks, i);
            for part in split_top_level(&toks[i + 1..end]) {
                use_tree(part, &segments, out);
            }
            return;
        }
        match &t.tok {
            Tok::Ident(w) if w == "as" => {
                alias = toks.get(i + 1).and_then(Token::ident).map(str::to_string);
                break;
            }
            Tok::Ident(w) if w == "self" => {}
            Tok::Ident(w) => segments.push(w.clone()),
            Tok::Punct('*') => segments.push("*".into()),
            Tok::Punct(':') if i == 0 => segments.push(String::new()),
            _ => {}
        }
        i += if t.is_punct(':') { 2 } else { 1 };
    }
    out.push(Path { line: first.line, segments, alias });
}

/// The comma-separated parts of a group, commas inside inner groups kept.
fn split_top_level(toks: &[Token]) -> Vec<&[Token]> {
    let (mut parts, mut from, mut depth) = (Vec::new(), 0, 0);
    for (k, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => depth -= 1,
            Tok::Punct(',') if depth == 0 => {
                parts.push(&toks[from..k]);
                from = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[from..]);
    parts.retain(|p| !p.is_empty());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<String> {
        tokens(src)
            .into_iter()
            .map(|t| match t.tok {
                Tok::Ident(w) => w,
                Tok::Punct(c) => c.to_string(),
                Tok::Lit(l) => format!("<{l}>"),
            })
            .collect()
    }

    /// Comments and literals hide nothing and show nothing: `//` in a string ends no line,
    /// a word in a comment or a string is no code, and each token keeps its line.
    #[test]
    fn comments_and_literals_are_not_code() {
        let src =
            "let u = \"http://x\"; unsafe { f() }\n/* unsafe /* nested */ unsafe */ g('x', '\\'', b'\"')\n\
                   // unsafe\nlet r = r#\"a \" unsafe\n\"#; h::<'a>(c\"z\", br\"q\")";
        let w = words(src);
        assert_eq!(w.iter().filter(|w| *w == "unsafe").count(), 1, "{w:?}");
        assert!(w.contains(&"<http://x>".to_string()) && w.contains(&"<\\'>".to_string()), "{w:?}");
        assert!(w.contains(&"<a \" unsafe\n>".to_string()), "{w:?}");
        let t = tokens(src);
        let line_of = |word: &str| t.iter().find(|t| t.is(word)).unwrap().line;
        assert_eq!((line_of("unsafe"), line_of("g"), line_of("h"), line_of("a")), (1, 2, 5, 5));
        assert_eq!(words("r#type x"), ["type", "x"]);
    }

    /// A path is read whole, a `use` tree spelt out path by path.
    #[test]
    fn paths_are_read_whole() {
        let p = |src: &str| -> Vec<String> {
            paths(&tokens(src)).into_iter().map(|p| p.segments.join("::")).collect()
        };
        assert_eq!(p("std::fs::File::options().write(true)"), ["std::fs::File::options", "write", "true"]);
        // A rename is read through: `c::x` is `a::b::x` wherever the `use` stands.
        assert_eq!(p("c::x(); use a::{b as c, d}; d::y()"), ["a::b::x", "a::b", "a::d", "d::y"]);
        assert_eq!(paths(&tokens("use a::b as c;"))[0].alias.as_deref(), Some("c"));
        assert_eq!(
            p("use std::{fs::{self, read as r, File}, io::*};\n::std::fs::write(x)"),
            ["std::fs", "std::fs::read", "std::fs::File", "std::io::*", "::std::fs::write", "x"]
        );
        assert_eq!(p("pub use crate::{\n    a,\n    b::C,\n};"), ["pub", "crate::a", "crate::b::C"]);
        // Each path on the line that names it.
        let q = paths(&tokens("x\n\nuse a::{\nb,\nc};"));
        assert_eq!(q.iter().map(|p| p.line).collect::<Vec<_>>(), [1, 4, 5]);
    }

    /// `#[cfg(test)]` takes its item with it, whatever the item; what follows stays.
    #[test]
    fn test_items_are_set_aside() {
        let src = "a();\n#[cfg(test)]\nmod tests { fn t() { std::fs::read(x); } }\nb();\n\
                   #[cfg(test)]\nconst X: [u8; 2] = [1; 2];\n#[cfg(test)]\nuse std::fs;\nc();\n\
                   struct S { d: u8, #[cfg(test)] e: u8 }";
        let kept: Vec<String> = without_test_items(&tokens(src))
            .into_iter()
            .filter_map(|t| t.ident().map(str::to_string))
            .collect();
        assert_eq!(kept, ["a", "b", "c", "struct", "S", "d", "u8"]);
    }
}
