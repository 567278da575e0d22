//! The Language line: the locale the environment names, and the character set glibc would give
//! it, from the locale directories and their locale-archive (no `locale` command).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// What the line says for an unset LANG, as every field of the system block says it.
const UNKNOWN: &str = "unknown";

/// The Language line's value, `<LANG> (charmap="<set>", collate="<set>")`, as `Run` built it from
/// `printenv LANG` and `locale -k`. Without `locale`, the character set is what glibc would load:
/// the locale named by LC_ALL, else LC_CTYPE (LC_COLLATE for collate), else LANG; when that
/// locale is installed, the set its name says (`.utf8`/`.UTF-8` -> UTF-8, `.iso88591` ->
/// ISO-8859-1, no codeset -> ISO-8859-1), else glibc's fallback to C, ANSI_X3.4-1968.
pub fn language(env: &dyn Fn(&str) -> Option<String>, installed: &dyn Fn(&str) -> bool) -> String {
    let nonempty = |k: &str| env(k).filter(|v| !v.is_empty());
    let lang = nonempty("LANG");
    let effective = |cat: &str| nonempty("LC_ALL").or_else(|| nonempty(cat)).or_else(|| lang.clone());
    let charmap = charmap(effective("LC_CTYPE").as_deref(), installed);
    let collate = charmap_of_collate(effective("LC_COLLATE").as_deref(), installed);
    format!("{} (charmap=\"{}\", collate=\"{}\")", lang.as_deref().unwrap_or(UNKNOWN), charmap, collate)
}

fn charmap_of_collate(name: Option<&str>, installed: &dyn Fn(&str) -> bool) -> String {
    charmap(name, installed)
}

/// glibc's `_nl_normalize_codeset`: alphanumerics lower-cased; all digits get `iso` in front.
pub fn normalize_codeset(cs: &str) -> String {
    let s: String = cs.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect();
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) {
        format!("iso{s}")
    } else {
        s
    }
}

/// The character set glibc would report for locale `name`.
pub fn charmap(name: Option<&str>, installed: &dyn Fn(&str) -> bool) -> String {
    const C: &str = "ANSI_X3.4-1968";
    let Some(name) = name else { return C.to_string() };
    let (base, modifier) = match name.split_once('@') {
        Some((b, m)) => (b, Some(m)),
        None => (name, None),
    };
    let (lang, codeset) = match base.split_once('.') {
        Some((l, c)) => (l, Some(c)),
        None => (base, None),
    };
    let norm = codeset.map(normalize_codeset);
    if lang == "C" || lang == "POSIX" {
        // glibc 2.35 and later know C.UTF-8 without any file.
        return if norm.as_deref() == Some("utf8") { "UTF-8".to_string() } else { C.to_string() };
    }
    let with = |cs: Option<&str>| {
        let mut n = lang.to_string();
        if let Some(cs) = cs {
            n.push('.');
            n.push_str(cs);
        }
        if let Some(m) = modifier {
            n.push('@');
            n.push_str(m);
        }
        n
    };
    let found = installed(name) || norm.as_deref().is_some_and(|n| installed(&with(Some(n))));
    if !found {
        return C.to_string();
    }
    match norm.as_deref() {
        None => "ISO-8859-1".to_string(),
        Some("utf8") => "UTF-8".to_string(),
        Some(n) if n.starts_with("iso8859") => format!("ISO-8859-{}", &n[7..]),
        Some(_) => codeset.unwrap_or_default().to_ascii_uppercase(),
    }
}

/// Whether glibc has locale `name`: a directory in `dir` (/usr/lib/locale), or an entry of
/// its locale-archive.
pub fn locale_installed(dir: &Path, name: &str) -> bool {
    if name.contains('/') {
        return false;
    }
    if dir.join(name).join("LC_CTYPE").exists() {
        return true;
    }
    crate::sys::fd::open_file(&dir.join("locale-archive"), crate::sys::fd::Open::Read)
        .ok()
        .and_then(|mut f| archive_names(&mut f))
        .is_some_and(|names| names.iter().any(|n| n == name))
}

/// The locale names in a glibc locale-archive (`struct locarhead`, then the name hash table of
/// `{hashval, name_offset, locrec_offset}` entries; a name is a NUL-terminated string at its
/// offset). None if the file is not an archive of this machine's byte order.
pub fn archive_names<F: Read + Seek>(f: &mut F) -> Option<Vec<String>> {
    const MAGIC: u32 = 0xde02_0109;
    let mut head = [0u8; 32];
    f.read_exact(&mut head).ok()?;
    let word = |b: &[u8], i: usize| u32::from_ne_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]]);
    if word(&head, 0) != MAGIC {
        return None;
    }
    let (hash_off, hash_size) = (word(&head, 2), word(&head, 4).min(1 << 20));
    let (str_off, str_used) = (word(&head, 5), word(&head, 6).min(16 << 20));
    let mut table = vec![0u8; hash_size as usize * 12];
    f.seek(SeekFrom::Start(u64::from(hash_off))).ok()?;
    f.read_exact(&mut table).ok()?;
    let mut strings = vec![0u8; str_used as usize];
    f.seek(SeekFrom::Start(u64::from(str_off))).ok()?;
    f.read_exact(&mut strings).ok()?;
    let mut names = Vec::new();
    for e in table.chunks_exact(12) {
        let (name_off, rec_off) = (word(e, 1), word(e, 2));
        if name_off == 0 || rec_off == 0 || name_off < str_off {
            continue;
        }
        let start = (name_off - str_off) as usize;
        if let Some(rest) = strings.get(start..) {
            let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
            names.push(String::from_utf8_lossy(&rest[..end]).into_owned());
        }
    }
    Some(names)
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn language_line() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        let none = |_: &str| false;
        let only = |n: &'static str| move |x: &str| x == n;
        assert_eq!(
            language(&env(&[("LANG", "en_US.utf8")]), &none),
            "en_US.utf8 (charmap=\"ANSI_X3.4-1968\", collate=\"ANSI_X3.4-1968\")"
        );
        assert_eq!(
            language(&env(&[("LANG", "en_US.utf8")]), &only("en_US.utf8")),
            "en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")"
        );
        // Installed under the normalised name.
        assert_eq!(
            language(&env(&[("LANG", "en_US.UTF-8")]), &only("en_US.utf8")),
            "en_US.UTF-8 (charmap=\"UTF-8\", collate=\"UTF-8\")"
        );
        // LC_ALL wins over LANG; LC_COLLATE only over LANG.
        assert_eq!(
            language(
                &env(&[("LANG", "en_US.utf8"), ("LC_COLLATE", "C"), ("LC_ALL", "")]),
                &only("en_US.utf8")
            ),
            "en_US.utf8 (charmap=\"UTF-8\", collate=\"ANSI_X3.4-1968\")"
        );
        assert_eq!(
            language(&env(&[("LANG", "en_US.utf8"), ("LC_ALL", "C.UTF-8")]), &none),
            "en_US.utf8 (charmap=\"UTF-8\", collate=\"UTF-8\")"
        );
        assert_eq!(
            language(&env(&[]), &none),
            "unknown (charmap=\"ANSI_X3.4-1968\", collate=\"ANSI_X3.4-1968\")"
        );
        assert_eq!(charmap(Some("de_DE"), &only("de_DE")), "ISO-8859-1");
        assert_eq!(charmap(Some("de_DE.ISO-8859-15@euro"), &only("de_DE.iso885915@euro")), "ISO-8859-15");
        assert_eq!(normalize_codeset("8859-1"), "iso88591");
    }

    #[test]
    fn locale_archive_names() {
        // A small archive: header, a 3-slot hash table (one empty slot), then the strings.
        let strings = b"C.utf8\0en_US.utf8\0";
        let (hash_off, str_off) = (64u32, 64u32 + 36);
        let mut b = vec![0u8; 64];
        for (i, w) in
            [0xde02_0109u32, 1, hash_off, 2, 3, str_off, strings.len() as u32, 100].iter().enumerate()
        {
            b[i * 4..i * 4 + 4].copy_from_slice(&w.to_ne_bytes());
        }
        for (name_off, rec) in [(str_off, 500u32), (0, 0), (str_off + 7, 600)] {
            for w in [7u32, name_off, rec] {
                b.extend(w.to_ne_bytes());
            }
        }
        b.extend(strings);
        let names = archive_names(&mut Cursor::new(&b)).unwrap();
        assert_eq!(names, ["C.utf8", "en_US.utf8"]);
        b[0] ^= 0xff;
        assert_eq!(archive_names(&mut Cursor::new(&b)), None);
        assert_eq!(archive_names(&mut Cursor::new(&b[..10])), None);
    }
}
