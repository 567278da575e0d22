//! What the report's page and `compare`'s share: the head with its style, the CSS by which a
//! phone stacks the tables' rows, and the rows and cells of the tables of ours that do.

use super::svg::{Esc, CSS};
use std::fmt::Write as _;

const STYLE: &str = "  <style type=\"text/css\">
    .verdict {
      border: 3px solid #777;
      padding: 0.4em 1em;
      margin: 1em 0;
    }
    .verdict.bad {
      border-color: #b00;
    }
    .verdict p, .verdict ul {
      margin: 0.4em 0;
    }
    .headline {
      margin: 0.5em 0 1em;
    }
    .headline .big {
      font-size: 2.2em;
      font-weight: bold;
      margin-right: 0.2em;
    }
    .headline p {
      margin: 0.3em 0;
    }
    .notstd {
      color: #b00;
    }
    table {
      margin: 1em 1em 1em 0;
      background: #f9f9f9;
      border: 1px #aaaaaa solid;
      border-collapse: collapse;
    }

    table th, table td {
      border: 1px #aaaaaa solid;
      padding: 0.2em;
    }

    table th {
      background: #f2f2f2;
      text-align: center;
    }
";

/// The document up to `<body>`: the title (escaped already), the tables' and charts' style.
pub fn head(title: &str) -> String {
    let mut s = String::from(
        "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\"\n\"http://www.w3.org/TR/html4/loose.dtd\">\n<html>\n<head>\n  <meta http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n  <meta name=\"keywords\" content=\"linux, benchmarks, benchmarking\">\n",
    );
    let _ = writeln!(s, "  <title>{title}</title>");
    s += "  <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    s += STYLE;
    s += CSS;
    s += &phone_tables_css();
    s += "  </style>\n</head>\n<body>\n";
    s
}

/// Run's results table's columns, as its header row names them.
pub const RUN_HEAD: [(&str, bool); 7] = [
    ("Test", false),
    ("Score", true),
    ("Unit", false),
    ("Time", true),
    ("Iters.", true),
    ("Baseline", true),
    ("Index", true),
];

/// The part of [`phone_tables_css`] that names no column.
const PHONE_TABLES: &str = "    @media (max-width: 40em) {
      table { font-size: 80%; margin-right: 0; }
      th, td { padding: 0.1em; }
      table tt { white-space: nowrap; }
      table.stack, table[width], table.stack tbody, table[width] tbody { display: block; }
      table.stack tr:first-child, table[width] tr:first-child { display: none; }
      table.stack tr, table[width] tr { display: flex; flex-wrap: wrap; gap: 0 1em; border-bottom: 1px solid #aaa; padding: 0.2em; }
      table.stack td, table[width] td { border: 0; text-align: left; }
      table.stack td:first-child, table[width] td:first-child { flex-basis: 100%; font-weight: bold; }
      table.stack td[data-label]::before { content: attr(data-label) \": \"; font-weight: bold; }
      table.stack td:first-child::before { content: none; }
";

/// The tables at phone width (40em and less), where none may scroll sideways: ours
/// (`table.stack`) and Run's results tables (`table[width]`, the only others with a width) stack
/// their rows, each cell after its column's name. Ours carry the name (`data-label`); Run's
/// keep Run's markup, so theirs come from [`RUN_HEAD`] here.
fn phone_tables_css() -> String {
    let mut s = String::from(PHONE_TABLES);
    for (i, (h, _)) in RUN_HEAD.iter().enumerate().skip(1) {
        let _ = writeln!(
            s,
            "      table[width]:not(.stack) td:nth-child({}):not([colspan] ~ td)::before {{ content: \"{h}: \"; font-weight: bold; }}",
            i + 1
        );
    }
    s += "    }\n";
    s
}

/// The header row of a table of ours (not Run's), onto `s`: each column's name, right-aligned
/// where marked.
pub fn head_row(s: &mut String, heads: &[(&str, bool)]) {
    *s += "<tr class=\"head\">\n";
    for (h, right) in heads {
        let _ = writeln!(s, "   <th align={}>{}</th>", if *right { "right" } else { "left" }, Esc(h));
    }
    *s += "</tr>\n";
}

/// A cell of a table of ours onto `s`, `html` already escaped: it carries its column's name,
/// which a phone shows beside it when the rows stack (the CSS of `table.stack`).
pub fn cell(s: &mut String, head: &str, right: bool, html: &str) {
    let align = if right { " align=right" } else { "" };
    let _ = writeln!(s, "   <td{align} data-label=\"{}\">{html}</td>", Esc(head));
}
