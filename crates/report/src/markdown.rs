//! `--format md`: a table as GitHub-flavoured Markdown, for the report's and compare's.
//! Here, at the size of the exporters ("z"), rather than in base, which is built for speed.

/// A tab-separated table (a header line, then rows) as a GitHub-flavoured Markdown table: the
/// header, the separator, each row with as many cells; a `|` in a cell is escaped. The one
/// Markdown writer, so that the report's and compare's `--format md` agree.
pub fn table(tsv: &str) -> String {
    let mut o = String::new();
    for (i, l) in tsv.lines().enumerate() {
        if i > 0 && l.is_empty() {
            continue;
        }
        o.push('|');
        for c in l.split('\t') {
            o.push(' ');
            o += &escaped(c.trim());
            o += " |";
        }
        o.push('\n');
        // The header's separator.
        if i == 0 {
            o += "|";
            o += &"---|".repeat(l.split('\t').count());
            o.push('\n');
        }
    }
    o
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
