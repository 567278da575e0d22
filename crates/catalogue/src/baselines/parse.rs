//! The parser of `baselines.txt`, shared by `build.rs` (which compiles the table into the binary)
//! and the unit tests. Kept free of crate imports so that build.rs can include it by path.

/// The categories a baseline may belong to, in the order the report prints their blocks.
pub const CATEGORIES: [&str; 4] = ["system", "2d", "3d", "misc"];

/// One parsed line of `baselines.txt`.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub test: String,
    pub category: String,
    pub unit: String,
    pub score: f64,
}

/// Parses the whole file. On failure returns the 1-based line number and the problem.
pub fn parse(text: &str) -> Result<Vec<Row>, (usize, String)> {
    let mut rows: Vec<Row> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() != 4 {
            return Err((
                n,
                format!("expected 4 fields (test category unit baseline), found {}", fields.len()),
            ));
        }
        let (test, category, unit, value) = (fields[0], fields[1], fields[2], fields[3]);
        if !test.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err((n, format!("test name '{test}' may hold only letters, digits, '-' and '_'")));
        }
        if !CATEGORIES.contains(&category) {
            return Err((
                n,
                format!("unknown category '{category}' (expected one of {})", CATEGORIES.join(", ")),
            ));
        }
        let score: f64 = value.parse().map_err(|_| (n, format!("baseline '{value}' is not a number")))?;
        if !(score.is_finite() && score > 0.0) {
            return Err((n, format!("baseline '{value}' must be a positive number")));
        }
        if rows.iter().any(|r| r.test == test) {
            return Err((n, format!("test '{test}' is listed twice")));
        }
        rows.push(Row { test: test.into(), category: category.into(), unit: unit.into(), score });
    }
    Ok(rows)
}
