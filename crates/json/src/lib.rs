//! JSON without serde: a small reader (RFC 8259) for `unixbench compare` and lmbench's
//! `--summary`, and the one writer ([`Writer`], below the reader) of every JSON the tool writes.
//! Values keep object members in file order; numbers are f64. Errors name the line and column
//! (1-based, columns counted in characters) of the offending byte.

use std::fmt::{self, Write};

/// Decimal text to f64, correctly rounded, without std's parser and its 10 KB table.
pub mod decimal;

/// A parsed JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Value>),
    /// Members in file order; a repeated key keeps both (lookups find the first).
    Object(Vec<(String, Value)>),
}

impl Value {
    /// The member `key` of an object; None for a missing key or a non-object.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
    /// The members of an object in file order; empty for a non-object.
    pub fn members(&self) -> &[(String, Value)] {
        match self {
            Value::Object(m) => m,
            _ => &[],
        }
    }
}

/// Why a text is not JSON, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct ParseError {
    pub line: usize,
    pub column: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.msg)
    }
}

/// Nesting deeper than this is refused rather than risking the stack.
const MAX_DEPTH: usize = 200;

/// Parses one JSON text (surrounding whitespace allowed, nothing else).
pub fn parse(text: &str) -> Result<Value, ParseError> {
    parse_within(text, &Limits { memory: usize::MAX, skip: &[] })
}

/// What [`parse_within`] holds a parse to.
pub struct Limits<'a> {
    /// The most bytes the values read may take in memory, counted as [`cost`] counts them.
    pub memory: usize,
    /// Members whose value, when an array or an object, the reader checks but does not keep
    /// (it reads as `null`): what its caller never looks at.
    pub skip: &'a [&'a str],
}

/// The error's `msg` when the values would take more than [`Limits::memory`].
pub const TOO_BIG: &str = "its values take more memory than the reader allows";

/// [`parse`] within `limits`: the tree kept never takes more than `limits.memory` bytes (a
/// [`TOO_BIG`] error instead), and the members named in `limits.skip` are not kept.
pub fn parse_within(text: &str, limits: &Limits) -> Result<Value, ParseError> {
    let mut p = Parser {
        s: text.as_bytes(),
        text,
        i: 0,
        depth: 0,
        left: limits.memory,
        skip: limits.skip,
        skipping: 0,
    };
    p.ws();
    let v = p.value()?;
    p.ws();
    if p.i < p.s.len() {
        return Err(p.err("unexpected text after the JSON value"));
    }
    Ok(v)
}

/// The bytes a value kept costs, besides its contents: its slot, and an allocation's overhead
/// (a string's text and a container's items count on their own).
const COST: usize = std::mem::size_of::<Value>() + 16;

struct Parser<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: usize,
    /// The bytes the values kept may still take.
    left: usize,
    skip: &'a [&'a str],
    /// How deep inside members that are not kept the reader is.
    skipping: usize,
}

impl Parser<'_> {
    fn err(&self, msg: &str) -> ParseError {
        self.err_at(self.i, msg)
    }

    fn err_at(&self, at: usize, msg: &str) -> ParseError {
        let before = &self.text[..floor_char(self.text, at)];
        let line = before.matches('\n').count() + 1;
        let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        ParseError { line, column, msg: msg.to_string() }
    }

    fn eof(&self, what: &str) -> ParseError {
        self.err(&format!("unexpected end of input in {what} (truncated file?)"))
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
            self.i += 1;
        }
    }

    /// Counts `bytes` more kept, unless skipping; a [`TOO_BIG`] error past the limit.
    fn charge(&mut self, bytes: usize) -> Result<(), ParseError> {
        if self.skipping > 0 {
            return Ok(());
        }
        match self.left.checked_sub(bytes) {
            Some(left) => {
                self.left = left;
                Ok(())
            }
            None => Err(self.err(TOO_BIG)),
        }
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        self.charge(COST)?;
        match self.s.get(self.i) {
            None => Err(self.eof("a value")),
            Some(&b @ (b'{' | b'[')) => self.nested(b == b'{'),
            Some(b'"') => {
                let s = self.string()?;
                self.charge(s.len())?;
                Ok(Value::String(s))
            }
            Some(b't') => self.word("true", Value::Bool(true)),
            Some(b'f') => self.word("false", Value::Bool(false)),
            Some(b'n') => self.word("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err(&format!("expected a value, found {}", self.found()))),
        }
    }

    fn found(&self) -> String {
        match self.text[floor_char(self.text, self.i)..].chars().next() {
            Some(c) if c.is_control() => format!("U+{:04X}", u32::from(c)),
            Some(c) => format!("'{c}'"),
            None => "the end of input".into(),
        }
    }

    fn nested(&mut self, object: bool) -> Result<Value, ParseError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.err(&format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        self.depth += 1;
        let v = self.container(object);
        self.depth -= 1;
        v
    }

    fn word(&mut self, w: &str, v: Value) -> Result<Value, ParseError> {
        let end = self.i + w.len();
        if self.s.len() >= end && &self.s[self.i..end] == w.as_bytes() {
            self.i = end;
            Ok(v)
        } else if w.as_bytes().starts_with(&self.s[self.i..]) {
            self.i = self.s.len();
            Err(self.eof("a literal"))
        } else {
            Err(self.err(&format!("expected a value, found {}", self.found())))
        }
    }

    /// An object or an array, from its opening bracket: one loop for both, an object's items
    /// each with a member name before it.
    fn container(&mut self, object: bool) -> Result<Value, ParseError> {
        let (close, what) = if object { (b'}', "an object") } else { (b']', "an array") };
        self.i += 1;
        let (mut members, mut items) = (Vec::new(), Vec::new());
        self.ws();
        let mut more = self.s.get(self.i) != Some(&close);
        if !more {
            self.i += 1;
        }
        while more {
            self.ws();
            let key = if object { self.member_name()? } else { String::new() };
            let skip = object
                && matches!(self.s.get(self.i), Some(b'[' | b'{'))
                && self.skip.contains(&key.as_str());
            self.skipping += usize::from(skip);
            let v = self.value();
            self.skipping -= usize::from(skip);
            let v = if skip { v.map(|_| Value::Null)? } else { v? };
            if self.skipping == 0 {
                if object {
                    members.push((key, v));
                } else {
                    items.push(v);
                }
            }
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(&c) if c == close => {
                    self.i += 1;
                    more = false;
                }
                None => return Err(self.eof(what)),
                Some(_) => {
                    let found = self.found();
                    return Err(
                        self.err(&format!("expected ',' or '{}' in {what}, found {found}", close as char))
                    );
                }
            }
        }
        members.shrink_to_fit();
        items.shrink_to_fit();
        Ok(if object { Value::Object(members) } else { Value::Array(items) })
    }

    /// An object's member name and the ':' after it, the cursor on what follows.
    fn member_name(&mut self) -> Result<String, ParseError> {
        match self.s.get(self.i) {
            Some(b'"') => {}
            None => return Err(self.eof("an object")),
            Some(_) => {
                return Err(self.err(&format!("expected a member name in quotes, found {}", self.found())))
            }
        }
        let key = self.string()?;
        self.charge(key.len() + COST)?;
        self.ws();
        match self.s.get(self.i) {
            Some(b':') => self.i += 1,
            None => return Err(self.eof("an object")),
            Some(_) => {
                return Err(self.err(&format!("expected ':' after a member name, found {}", self.found())))
            }
        }
        self.ws();
        Ok(key)
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let Some(digits) = self.s.get(self.i..self.i + 4) else {
            self.i = self.s.len();
            return Err(self.eof("a \\u escape"));
        };
        let mut v = 0;
        for &b in digits {
            let Some(d) = char::from(b).to_digit(16) else {
                return Err(self.err("expected four hex digits after \\u"));
            };
            v = v * 16 + d;
        }
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let run = self.i;
            while let Some(&b) = self.s.get(self.i) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.text[run..self.i]);
            match self.s.get(self.i) {
                None => return Err(self.err_at(open, "a string that never ends (truncated file?)")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(_) => return Err(self.err("a raw control character in a string (write it as \\u00XX)")),
            }
        }
    }

    /// The character of the escape at the backslash under the cursor, the cursor past it.
    fn escape(&mut self) -> Result<char, ParseError> {
        let esc = self.i;
        self.i += 1;
        let c = match self.s.get(self.i) {
            None => return Err(self.eof("a string")),
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => self.unicode_escape(esc)?,
            Some(_) => return Err(self.err(&format!("unknown escape \\{}", self.found().trim_matches('\'')))),
        };
        self.i += 1;
        Ok(c)
    }

    /// A `\uXXXX` escape, or a surrogate pair of two, that began at `esc`; the cursor is left
    /// on its last digit.
    fn unicode_escape(&mut self, esc: usize) -> Result<char, ParseError> {
        let unpaired = "a high surrogate \\u escape without its low half";
        self.i += 1;
        let hi = self.hex4()?;
        self.i -= 1;
        let code = if (0xD800..0xDC00).contains(&hi) {
            if self.s.get(self.i + 1..self.i + 3) != Some(b"\\u") {
                return Err(self.err_at(esc, unpaired));
            }
            self.i += 3;
            let lo = self.hex4()?;
            self.i -= 1;
            if !(0xDC00..0xE000).contains(&lo) {
                return Err(self.err_at(esc, unpaired));
            }
            0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
        } else {
            hi
        };
        char::from_u32(code).ok_or_else(|| self.err_at(esc, "a lone low surrogate \\u escape"))
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.i;
        let digits = |p: &mut Self| {
            let from = p.i;
            while let Some(b'0'..=b'9') = p.s.get(p.i) {
                p.i += 1;
            }
            p.i - from
        };
        if self.s.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        match self.s.get(self.i) {
            Some(b'0') => self.i += 1,
            Some(b'1'..=b'9') => {
                digits(self);
            }
            None => return Err(self.eof("a number")),
            Some(_) => return Err(self.err(&format!("expected a digit, found {}", self.found()))),
        }
        if self.s.get(self.i) == Some(&b'.') {
            self.i += 1;
            if digits(self) == 0 {
                return Err(self.check_eof("a number", "expected a digit after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.s.get(self.i) {
            self.i += 1;
            if let Some(b'+' | b'-') = self.s.get(self.i) {
                self.i += 1;
            }
            if digits(self) == 0 {
                return Err(self.check_eof("a number", "expected a digit in the exponent"));
            }
        }
        let n = decimal::parse_f64(&self.text[start..self.i])
            .ok_or_else(|| self.err_at(start, "a malformed number"))?;
        if !n.is_finite() {
            return Err(self.err_at(start, "a number too large for a double"));
        }
        Ok(Value::Number(n))
    }

    fn check_eof(&self, what: &str, msg: &str) -> ParseError {
        if self.i >= self.s.len() {
            self.eof(what)
        } else {
            self.err(&format!("{msg}, found {}", self.found()))
        }
    }
}

/// The largest char boundary ≤ `i` (error positions may point inside a multi-byte character).
fn floor_char(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

// ---- Writing -----------------------------------------------------------------------------------

// The one JSON writer of the tool: every JSON it writes (the results file, `compare`'s and the
// scaling table's, lmbench's results) is built by `Writer`, and strings are escaped in one
// place (`Writer::push_str_lit`), as RFC 8259 asks and a little more: the control characters, DEL,
// and U+2028/U+2029 (which JavaScript once did not allow in a string) as `\uXXXX`.
//
// Numbers are in Rust's shortest round-trip form, never with an exponent; a non-finite number
// is `null` (JSON has no NaN or infinity). Two layouts: pretty (two-space indents, one member
// per line, `"key": value`), which reads and diffs well, and compact (no whitespace at all).

/// A JSON writer. Call `key` before each member of an object; values in arrays need no key.
/// Misuse (a key in an array, unbalanced ends) gives malformed text, caught by the tests of
/// whoever misuses it.
pub struct Writer {
    out: String,
    /// Per open container: whether it has a member yet.
    stack: Vec<bool>,
    /// A key was just written: the next value goes on its line.
    after_key: bool,
    pretty: bool,
}

impl Writer {
    /// Indented by two spaces, one member per line.
    pub fn pretty() -> Writer {
        Writer { out: String::new(), stack: Vec::new(), after_key: false, pretty: true }
    }

    /// No whitespace between tokens.
    pub fn compact() -> Writer {
        Writer { pretty: false, ..Writer::pretty() }
    }

    /// The text, with a final newline.
    pub fn finish(mut self) -> String {
        self.out.push('\n');
        self.out
    }

    /// The text as written so far, without a final newline (a single value, say).
    pub fn into_string(self) -> String {
        self.out
    }

    fn newline(&mut self) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..self.stack.len() {
                self.out.push_str("  ");
            }
        }
    }

    /// Before any value or key: the separator and indentation of a new member.
    fn member(&mut self) {
        if self.after_key {
            self.after_key = false;
            return;
        }
        if let Some(has) = self.stack.last_mut() {
            let first = !*has;
            *has = true;
            if !first {
                self.out.push(',');
            }
            self.newline();
        }
    }

    pub fn key(&mut self, k: &str) -> &mut Self {
        self.member();
        self.push_str_lit(k);
        self.out.push_str(if self.pretty { ": " } else { ":" });
        self.after_key = true;
        self
    }

    pub fn begin_object(&mut self) -> &mut Self {
        self.open('{')
    }

    pub fn end_object(&mut self) -> &mut Self {
        self.close('}')
    }

    pub fn begin_array(&mut self) -> &mut Self {
        self.open('[')
    }

    pub fn end_array(&mut self) -> &mut Self {
        self.close(']')
    }

    fn open(&mut self, c: char) -> &mut Self {
        self.member();
        self.out.push(c);
        self.stack.push(false);
        self
    }

    fn close(&mut self, c: char) -> &mut Self {
        if self.stack.pop() == Some(true) {
            self.newline();
        }
        self.out.push(c);
        self
    }

    pub fn string(&mut self, s: &str) -> &mut Self {
        self.member();
        self.push_str_lit(s);
        self
    }

    pub fn opt_string(&mut self, s: Option<&str>) -> &mut Self {
        match s {
            Some(s) => self.string(s),
            None => self.null(),
        }
    }

    pub fn number(&mut self, v: f64) -> &mut Self {
        if !v.is_finite() {
            return self.null();
        }
        // Display and LowerExp give the shortest text that reads back as v, both valid JSON;
        // the exponent only where JavaScript writes one too, before Display would print dozens of
        // digits.
        let a = v.abs();
        self.member();
        if a != 0.0 && !(1e-6..1e21).contains(&a) {
            self.out.push_str(&exponent(v, None));
        } else {
            let _ = write!(self.out, "{v}");
        }
        self
    }

    pub fn opt_number(&mut self, v: Option<f64>) -> &mut Self {
        match v {
            Some(v) => self.number(v),
            None => self.null(),
        }
    }

    pub fn int(&mut self, v: i64) -> &mut Self {
        self.member();
        let _ = write!(self.out, "{v}");
        self
    }

    pub fn opt_int(&mut self, v: Option<i64>) -> &mut Self {
        match v {
            Some(v) => self.int(v),
            None => self.null(),
        }
    }

    pub fn bool(&mut self, v: bool) -> &mut Self {
        self.raw(if v { "true" } else { "false" })
    }

    pub fn null(&mut self) -> &mut Self {
        self.raw("null")
    }

    /// A value already in JSON form (a literal or a number).
    fn raw(&mut self, text: &str) -> &mut Self {
        self.member();
        self.out.push_str(text);
        self
    }

    /// The escaper: the only one in the tool.
    fn push_str_lit(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                '\u{8}' => self.out.push_str("\\b"),
                '\u{c}' => self.out.push_str("\\f"),
                c if (c as u32) < 0x20 || c == '\u{7f}' || c == '\u{2028}' || c == '\u{2029}' => {
                    let _ = write!(self.out, "\\u{:04x}", c as u32);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }
}

/// `s` as a JSON string literal (quotes included), escaped by [`Writer`].
pub fn quote(s: &str) -> String {
    let mut w = Writer::compact();
    w.string(s);
    w.into_string()
}

/// A number as [`Writer`] writes it: `null` for NaN and infinities, else Rust's shortest
/// round-trip form.
pub fn number(x: f64) -> String {
    let mut w = Writer::compact();
    w.number(x);
    w.into_string()
}

/// `v` as `format!("{v:e}")` writes it (`1.5e300`, `-2e-7`), or with `prec` decimals as
/// `format!("{v:.prec$e}")` does (rounded as it rounds: to nearest, ties to even, on the exact
/// value), made from Display's digits: LowerExp's code (2 KB) is then not in the binary.
pub fn exponent(v: f64, prec: Option<usize>) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    // Display's shortest digits, which are LowerExp's, or every digit: any finite f64 is exact
    // in 1074 decimals.
    let plain = match prec {
        None => format!("{}", v.abs()),
        Some(_) => format!("{:.1074}", v.abs()),
    };
    let point = plain.find('.').unwrap_or(plain.len());
    let digits = plain.replace('.', "").into_bytes();
    let first = digits.iter().position(|&b| b != b'0');
    let mut exp = first.map_or(0, |f| point as i64 - 1 - f as i64);
    let first = first.unwrap_or(digits.len() - 1);
    let mut kept = match prec {
        None => {
            let last = digits.iter().rposition(|&b| b != b'0').unwrap_or(first);
            digits[first..=last].to_vec()
        }
        Some(p) if first + p < digits.len() => digits[first..=first + p].to_vec(),
        Some(p) => vec![b'0'; p + 1],
    };
    let rest = digits.get(first + kept.len()..).filter(|_| prec.is_some()).unwrap_or(&[]);
    let up = match rest.first() {
        Some(b'6'..=b'9') => true,
        Some(b'5') => rest[1..].iter().any(|&b| b != b'0') || kept[kept.len() - 1] % 2 == 1,
        _ => false,
    };
    if up {
        let mut k = kept.len();
        while k > 0 && kept[k - 1] == b'9' {
            kept[k - 1] = b'0';
            k -= 1;
        }
        if k == 0 {
            // 9.99 up to 10.0: one digit more before the point.
            kept.insert(0, b'1');
            kept.pop();
            exp += 1;
        } else {
            kept[k - 1] += 1;
        }
    }
    let mut out = String::from(if v.is_sign_negative() { "-" } else { "" });
    out.push(kept[0] as char);
    if kept.len() > 1 {
        out.push('.');
        out.push_str(std::str::from_utf8(&kept[1..]).unwrap_or(""));
    }
    let _ = write!(out, "e{exp}");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exponent_form_is_lower_exp_s() {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        let mut values =
            vec![0.0, -0.0, 1.0, -1.0, 10.0, 0.1, 1e21, 1e-7, 5e-324, f64::MAX, f64::MIN_POSITIVE];
        values.extend([0.125, 2.5, 9.995, 9.5, 1e23, -1234.5, 99999.0]);
        values.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 123456789.0, 1.5e300, -2.5e-300]);
        for _ in 0..5_000 {
            // xorshift64: bit patterns of every exponent and sign.
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(f64::from_bits(x));
        }
        for k in 0..5_000 {
            // Short decimals: ties among them.
            values.push(k as f64 / [1.0, 8.0, 1000.0, 1e7][k % 4]);
        }
        for v in values {
            assert_eq!(exponent(v, None), format!("{v:e}"), "{:#x}", v.to_bits());
            for prec in 0..18 {
                assert_eq!(exponent(v, Some(prec)), format!("{v:.prec$e}"), "{v:e} {prec}");
            }
        }
    }

    #[test]
    fn numbers_at_both_ends_are_short() {
        for (v, want) in [
            (1e-300, "1e-300"),
            (1e300, "1e300"),
            (-2.5e21, "-2.5e21"),
            (2.5e20, "250000000000000000000"),
            (0.001, "0.001"),
            (1e15, "1000000000000000"),
        ] {
            assert_eq!(number(v), want);
            assert_eq!(parse(want).unwrap(), Value::Number(v));
        }
    }

    #[test]
    fn a_parse_within_limits_keeps_what_is_asked_and_no_more() {
        let text = r#"{"copies": 2, "passes": [{"copies": [1, {"a": "b"}], "noise": {"x": 1}, "count": 3}]}"#;
        let v = parse_within(text, &Limits { memory: 1 << 20, skip: &["copies", "noise"] }).unwrap();
        assert_eq!(v.get("copies"), Some(&Value::Number(2.0)), "a number under a skipped name is kept");
        let pass = &v.get("passes").and_then(Value::as_array).unwrap()[0];
        assert_eq!((pass.get("copies"), pass.get("noise")), (Some(&Value::Null), Some(&Value::Null)));
        assert_eq!(pass.get("count"), Some(&Value::Number(3.0)));
        let bad = r#"{"copies": [1, }"#;
        assert!(parse_within(bad, &Limits { memory: 1 << 20, skip: &["copies"] }).is_err(), "still checked");
        let many = format!("[{}0]", "0,".repeat(1000));
        let e = parse_within(&many, &Limits { memory: 1000 * COST, skip: &[] }).unwrap_err();
        assert_eq!(e.msg, TOO_BIG);
        assert!(parse_within(&many, &Limits { memory: 1002 * COST, skip: &[] }).is_ok());
    }

    fn err(text: &str) -> (usize, usize, String) {
        let e = parse(text).unwrap_err();
        (e.line, e.column, e.msg)
    }

    #[test]
    fn values() {
        let v = parse(r#" {"a": [1, -2.5e2, 0.125, true, false, null], "b": {"c": "x"}, "a": 3} "#).unwrap();
        assert_eq!(
            v.get("a").unwrap(),
            &Value::Array(vec![
                Value::Number(1.0),
                Value::Number(-250.0),
                Value::Number(0.125),
                Value::Bool(true),
                Value::Bool(false),
                Value::Null
            ])
        );
        assert_eq!(v.get("b").and_then(|b| b.get("c")).and_then(Value::as_str), Some("x"));
        assert!(v.get("zz").is_none());
        assert_eq!(parse("[]").unwrap(), Value::Array(vec![]));
        assert_eq!(parse("{}").unwrap(), Value::Object(vec![]));
        assert_eq!(parse("-0").unwrap(), Value::Number(-0.0));
        assert_eq!(parse("1E+2").unwrap(), Value::Number(100.0));
    }

    #[test]
    fn strings_and_escapes() {
        let v = parse(r#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00 é""#).unwrap();
        assert_eq!(v, Value::String("a\"b\\c/d\u{8}\u{c}\n\r\té😀 é".into()));
        let s = "quote \" back \\ nl \n tab \t bell \u{7} é";
        assert_eq!(parse(&quote(s)).unwrap(), Value::String(s.into()));
        assert_eq!(quote("\u{1}"), "\"\\u0001\"");
        assert_eq!(number(1.5), "1.5");
        assert_eq!(number(f64::NAN), "null");
        assert_eq!(number(78540503.4), "78540503.4");
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(err("{\"a\": 1,\n  \"b\": }"), (2, 8, "expected a value, found '}'".into()));
        assert_eq!(err("[1 2]"), (1, 4, "expected ',' or ']' in an array, found '2'".into()));
        assert_eq!(err("{\"a\" 1}"), (1, 6, "expected ':' after a member name, found '1'".into()));
        assert_eq!(err("{1: 2}"), (1, 2, "expected a member name in quotes, found '1'".into()));
        assert_eq!(err("[1] x"), (1, 5, "unexpected text after the JSON value".into()));
        assert_eq!(err("01"), (1, 2, "unexpected text after the JSON value".into()));
        assert_eq!(err("[1.]"), (1, 4, "expected a digit after '.', found ']'".into()));
        assert_eq!(err("\"\\x\""), (1, 3, "unknown escape \\x".into()));
        assert_eq!(
            err("\"a\tb\""),
            (1, 3, "a raw control character in a string (write it as \\u00XX)".into())
        );
        assert_eq!(err("\"\\ud800x\""), (1, 2, "a high surrogate \\u escape without its low half".into()));
        assert_eq!(err("\"\\udc00\""), (1, 2, "a lone low surrogate \\u escape".into()));
        assert_eq!(err("\"\\u12g4\""), (1, 4, "expected four hex digits after \\u".into()));
        assert_eq!(err("é x"), (1, 1, "expected a value, found 'é'".into()));
        assert_eq!(err("1e999"), (1, 1, "a number too large for a double".into()));
        assert_eq!(err("tru e"), (1, 1, "expected a value, found 't'".into()));
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(err(&deep).2, format!("nesting deeper than {MAX_DEPTH} levels"));
    }

    #[test]
    fn truncated_input_says_so() {
        for (text, line, col) in [
            ("", 1, 1),
            ("{\"runs\": [", 1, 11),
            ("{\"runs\": [1,\n", 2, 1),
            ("{\"a\"", 1, 5),
            ("{\"a\":", 1, 6),
            ("{\"a\": 1", 1, 8),
            ("[tr", 1, 4),
            ("[-", 1, 3),
            ("[1.", 1, 4),
            ("[1e", 1, 4),
            ("\"\\u12", 1, 6),
        ] {
            let (l, c, msg) = err(text);
            assert!(msg.contains("truncated"), "{text:?}: {msg}");
            assert_eq!((l, c), (line, col), "{text:?}: {msg}");
        }
        let (l, c, msg) = err("{\"a\": \"abc");
        assert_eq!((l, c), (1, 7));
        assert_eq!(msg, "a string that never ends (truncated file?)");
    }

    #[test]
    fn writer_escapes_and_nests() {
        let mut j = Writer::pretty();
        j.begin_object();
        j.key("s").string("a\"b\\c\nd\te\u{1}\u{7f}é\u{2028}");
        j.key("n").number(0.1);
        j.key("big").number(1e21);
        j.key("nan").number(f64::NAN);
        j.key("inf").number(f64::NEG_INFINITY);
        j.key("i").int(-3);
        j.key("empty").begin_array().end_array();
        j.key("eo").begin_object().end_object();
        j.key("a").begin_array();
        j.bool(true).null();
        j.begin_object().key("k\"").opt_string(None).end_object();
        j.end_array();
        j.end_object();
        let want = r#"{
  "s": "a\"b\\c\nd\te\u0001\u007fé\u2028",
  "n": 0.1,
  "big": 1e21,
  "nan": null,
  "inf": null,
  "i": -3,
  "empty": [],
  "eo": {},
  "a": [
    true,
    null,
    {
      "k\"": null
    }
  ]
}
"#;
        assert_eq!(j.finish(), want);
    }

    #[test]
    fn every_control_character_is_escaped_and_reads_back() {
        let all: String = (0u8..0x20).map(char::from).chain(['\u{7f}', '\u{2028}', '\u{2029}']).collect();
        let mut j = Writer::compact();
        j.string(&all);
        let text = j.into_string();
        assert!(text.chars().all(|c| (' '..='~').contains(&c)), "{text}");
        assert!(text.starts_with(r#""\u0000\u0001"#), "{text}");
        assert!(text.contains(r#"\u0007\b\t\n\u000b\f\r\u000e"#), "{text}");
        assert!(text.ends_with(r#"\u001f\u007f\u2028\u2029""#), "{text}");
        assert_eq!(parse(&text).unwrap(), Value::String(all));
    }

    #[test]
    fn non_finite_numbers_are_null_and_others_round_trip() {
        let mut j = Writer::compact();
        j.begin_array();
        for v in
            [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, -0.0, 5e-324, 1.7976931348623157e308, 78540503.4]
        {
            j.number(v);
        }
        j.opt_number(None).opt_int(Some(-7)).opt_int(None).end_array();
        let text = j.finish();
        assert!(text.starts_with("[null,null,null,-0,5e-324,1.7976931348623157e308,"), "{text}");
        assert!(text.ends_with(",78540503.4,null,-7,null]\n"), "{text}");
        let back = parse(&text).unwrap();
        let back = back.as_array().unwrap();
        assert_eq!(back[4], Value::Number(5e-324));
        assert_eq!(back[5], Value::Number(f64::MAX));
    }

    #[test]
    fn compact_and_pretty_write_the_same_document() {
        let doc = |mut j: Writer| {
            j.begin_object().key("a").begin_array().int(1).string("x").end_array();
            j.key("o").begin_object().key("b").bool(false).key("e").begin_object().end_object();
            j.end_object().key("z").null().end_object();
            j.finish()
        };
        let compact = doc(Writer::compact());
        assert_eq!(compact, "{\"a\":[1,\"x\"],\"o\":{\"b\":false,\"e\":{}},\"z\":null}\n");
        let pretty = doc(Writer::pretty());
        assert_eq!(
            pretty,
            "{\n  \"a\": [\n    1,\n    \"x\"\n  ],\n  \"o\": {\n    \"b\": false,\n    \"e\": {}\n  },\n  \
             \"z\": null\n}\n"
        );
        assert_eq!(parse(&compact).unwrap(), parse(&pretty).unwrap());
    }
}
