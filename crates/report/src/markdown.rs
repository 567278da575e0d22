//! `--format md`: a table as GitHub-flavoured Markdown, for the report's and compare's.
//! Here, at the size of the exporters ("z"), rather than in base, which is built for speed.

/// A tab-separated table (a header line, then rows) as a GitHub-flavoured Markdown table: the
/// header, the separator, each row with as many cells; a `|` in a cell is escaped. The one
/// Markdown writer, so that the report's and compare's `--format md` agree.
pub fn table(tsv: &str) -> String {
    let row = |l: &str| {
        let cells: Vec<String> = l.split('\t').map(|c| c.trim().replace('|', "\\|")).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut lines = tsv.lines();
    let Some(head) = lines.next() else { return String::new() };
    let mut o = row(head);
    o += &format!("|{}\n", "---|".repeat(head.split('\t').count()));
    for l in lines.filter(|l| !l.is_empty()) {
        o += &row(l);
    }
    o
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
}
