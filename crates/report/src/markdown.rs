//! `--format md`: a table as GitHub-flavoured Markdown, for the report's and compare's; and
//! compare's tables written cell by cell as TSV or as Markdown from the same cells (`Sink`).
//! Here, at the size of the exporters ("z"), rather than in base, which is built for speed.

/// A tab-separated table (a header line, then rows) as a GitHub-flavoured Markdown table;
/// blank lines after the header are left out.
pub fn table(tsv: &str) -> String {
    let mut o = String::new();
    for (i, l) in tsv.lines().enumerate() {
        if i > 0 && l.is_empty() {
            continue;
        }
        o.push('|');
        for c in l.split('\t') {
            cell(&mut o, c);
        }
        o.push('\n');
        if i == 0 {
            separator(&mut o, l.split('\t').count());
        }
    }
    o
}

/// A cell of a row onto `o` (the row opened with `|`), [`escaped`], a `|` in it too. With
/// [`separator`], the one Markdown writer, so that the report's, ab's and compare's
/// `--format md` agree.
pub fn cell(o: &mut String, c: &str) {
    o.push(' ');
    *o += &escaped(c.trim());
    *o += " |";
}

/// The line under a header of `n` cells.
pub fn separator(o: &mut String, n: usize) {
    *o += "|";
    *o += &"---|".repeat(n);
    o.push('\n');
}

/// Whom a table's cells are written for: programs (TSV: every digit, and a text cell a
/// spreadsheet would take for a formula guarded) or people (Markdown: figures as the text
/// table prints them, to 0.1). Both are made from the same rows ([`grid`]), an empty cell
/// for what is unknown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Readers {
    Programs,
    People,
}

impl Readers {
    /// A figure: a score, an interval's end.
    pub fn figure(self, x: Option<f64>) -> String {
        match self {
            Readers::Programs => x.map_or(String::new(), base::json::number),
            Readers::People => x.map_or(String::new(), |v| crate::fmt::compact(v, 1, 12)),
        }
    }
    /// A percentage: to 0.01 for programs, 0.1 for people.
    pub fn pct(self, x: Option<f64>) -> String {
        match self {
            Readers::Programs => x.map_or(String::new(), |p| base::json::number((p * 100.0).round() / 100.0)),
            Readers::People => self.figure(x),
        }
    }
    /// A ratio: in full for programs, to 0.001 for people.
    pub fn ratio(self, x: Option<f64>) -> String {
        match self {
            Readers::Programs => x.map_or(String::new(), base::json::number),
            Readers::People => x.map_or(String::new(), |v| crate::fmt::compact(v, 3, 12)),
        }
    }
    /// A text: a host's or a file's name, a test's.
    pub fn text(self, s: &str) -> String {
        match self {
            Readers::Programs => crate::fmt::text_cell(s),
            Readers::People => crate::fmt::printable(s),
        }
    }
}

/// A table written cell by cell for its [`Readers`]: TSV lines, or a Markdown table.
pub struct Sink {
    pub readers: Readers,
    o: String,
    /// Cells written in the row so far.
    cells: usize,
}

impl Sink {
    /// A table whose header's names are `head`'s, tab-separated.
    pub fn new(readers: Readers, head: &str) -> Sink {
        let mut s = Sink { readers, o: String::new(), cells: 0 };
        for h in head.split('\t') {
            s.cell(h);
        }
        let n = s.cells;
        s.end();
        if readers == Readers::People {
            separator(&mut s.o, n);
        }
        s
    }
    pub fn cell(&mut self, c: &str) {
        match self.readers {
            Readers::Programs if self.cells > 0 => {
                self.o.push('\t');
                self.o += c;
            }
            Readers::Programs => self.o += c,
            Readers::People => {
                if self.cells == 0 {
                    self.o.push('|');
                }
                cell(&mut self.o, c);
            }
        }
        self.cells += 1;
    }
    /// The row's end.
    pub fn end(&mut self) {
        self.o.push('\n');
        self.cells = 0;
    }
    pub fn finish(self) -> String {
        self.o
    }
}

/// A cell's text as the text it is: every character that would start markup (a tag, an entity,
/// a link's text, emphasis, code, the cell's end) escaped with a backslash.
pub fn escaped(cell: &str) -> String {
    let chars: Vec<char> = cell.chars().collect();
    let mut s = String::with_capacity(cell.len());
    for (i, &c) in chars.iter().enumerate() {
        // An underscore inside a word (`ci95_low`) is no emphasis in GitHub's Markdown.
        let word = |k: Option<usize>| k.and_then(|k| chars.get(k)).is_some_and(|c| c.is_ascii_alphanumeric());
        let in_word = c == '_' && word(i.checked_sub(1)) && word(Some(i + 1));
        if !in_word && matches!(c, '<' | '>' | '&' | '[' | ']' | '|' | '`' | '*' | '_' | '\\') {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell holding `|` stays one cell.
    #[test]
    fn a_tsv_becomes_a_markdown_table() {
        let md = table("a\tb\n1|2\t\n");
        assert_eq!(md, "| a | b |\n|---|---|\n| 1\\|2 |  |\n");
    }

    /// A host's or a file's name reads as the text it is: no tag, link or emphasis.
    #[test]
    fn hostile_names_are_text() {
        let md = table("host\n<img src=x onerror=alert(1)>\n[c](javascript:x) *b* _i_ `c` &amp;\n");
        let rows: Vec<&str> = md.lines().skip(2).collect();
        assert_eq!(rows[0], "| \\<img src=x onerror=alert(1)\\> |");
        assert_eq!(rows[1], "| \\[c\\](javascript:x) \\*b\\* \\_i\\_ \\`c\\` \\&amp; |");
    }
}
