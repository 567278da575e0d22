//! "Did you mean": the names closest to a word that names nothing, for the errors of an unknown
//! program, test, group or option. Closeness is the edit distance (insertions, deletions,
//! substitutions and swaps of two neighbours each count one), within a third of the word's
//! length, at least one; a name the word is a prefix of, or that starts with the same four
//! characters, also counts (`dhry` and `dhrystone2` for `dhry2reg`).

/// The names of `names` closest to `word`, best first, at most three.
pub fn closest<'a>(word: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    // Each caller's kind of iterator would be a copy of the whole search: one copy, of a list.
    closest_of(word, names.into_iter().collect())
}

#[inline(never)]
fn closest_of<'a>(word: &str, names: Vec<&'a str>) -> Vec<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    let w = word.trim_start_matches('-');
    let mut scored = Vec::new();
    for n in names {
        if n == word {
            continue;
        }
        let d = distance(word, n);
        // A shared start of four or more (`dhrystone2`, `dhry2reg`) is close too.
        let common = w.chars().zip(n.trim_start_matches('-').chars()).take_while(|(a, b)| a == b).count();
        let prefix = (word.len() >= 3 && n.starts_with(word)) || common >= 4;
        if d <= limit || prefix {
            scored.push((if prefix { d.min(limit) } else { d }, n));
        }
    }
    // The three least (distance, name), each past the one before: no sort for so few, and a
    // name listed twice is named once.
    let mut best: Vec<(usize, &str)> = Vec::new();
    while best.len() < 3 {
        // Past the last one picked (None, before the first, is less than any).
        let next = scored.iter().filter(|&s| best.last() < Some(s)).min();
        let Some(&next) = next else { break };
        best.push(next);
    }
    best.into_iter().map(|(_, n)| n).collect()
}

/// ` (did you mean a, b or c?)`, or nothing when no name is close.
pub fn did_you_mean(close: &[&str]) -> String {
    match close {
        [] => String::new(),
        [a] => format!(" (did you mean {a}?)"),
        [rest @ .., last] => format!(" (did you mean {} or {last}?)", rest.join(", ")),
    }
}

/// The optimal string alignment distance of `a` and `b`, by characters.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    // The table row by row in one vector: d(i, j) is at i * w + j; its first row and column
    // are i + j, the other of the two being 0.
    let w = b.len() + 1;
    let mut d = vec![0; (a.len() + 1) * w];
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            d[i * w + j] = if i == 0 || j == 0 {
                i + j
            } else {
                let cost = usize::from(a[i - 1] != b[j - 1]);
                let v = (d[(i - 1) * w + j] + 1).min(d[i * w + j - 1] + 1).min(d[(i - 1) * w + j - 1] + cost);
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    v.min(d[(i - 2) * w + j - 2] + 1)
                } else {
                    v
                }
            };
        }
    }
    d[a.len() * w + b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names_are_suggested_best_first() {
        let names = ["--quick", "--quiet-ish", "--results", "--json"];
        assert_eq!(closest("--quik", names), ["--quick"]);
        assert_eq!(closest("--jsno", names), ["--json"]);
        assert!(closest("--frobnicate", names).is_empty());
        assert_eq!(closest("dhrystone2", ["dhry2reg", "dhry2", "double"]), ["dhry2", "dhry2reg"]);
        assert_eq!(closest("dhry", ["dhry2reg", "dhry2", "pipe"]), ["dhry2", "dhry2reg"]);
        assert_eq!(closest("pipee", ["pipe", "spawn"]), ["pipe"]);
    }

    #[test]
    fn the_sentence_lists_them() {
        assert_eq!(did_you_mean(&[]), "");
        assert_eq!(did_you_mean(&["a"]), " (did you mean a?)");
        assert_eq!(did_you_mean(&["a", "b", "c"]), " (did you mean a, b or c?)");
    }
}
