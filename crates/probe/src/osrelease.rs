//! The distribution's name, from /etc/os-release (which `Run` ignored): the System line's
//! distro.

/// PRETTY_NAME of an os-release file (shell-quoted value), or NAME if it has none.
pub fn os_release_name(text: &str) -> Option<String> {
    let get = |key: &str| {
        text.lines().find_map(|l| {
            let (k, v) = l.trim().split_once('=')?;
            (k.trim() == key).then(|| unquote(v.trim())).filter(|v| !v.is_empty())
        })
    };
    get("PRETTY_NAME").or_else(|| get("NAME"))
}

fn unquote(v: &str) -> String {
    let b = v.as_bytes();
    if b.len() >= 2 && (b[0] == b'"' || b[0] == b'\'') && b[b.len() - 1] == b[0] {
        let inner = &v[1..v.len() - 1];
        if b[0] == b'\'' {
            return inner.to_string();
        }
        let mut out = String::new();
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                if let Some(n) = chars.next() {
                    out.push(n);
                }
            } else {
                out.push(c);
            }
        }
        out
    } else {
        v.to_string()
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_release() {
        let t = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n";
        assert_eq!(os_release_name(t).as_deref(), Some("Debian GNU/Linux 12 (bookworm)"));
        assert_eq!(os_release_name("NAME=Alpine\n").as_deref(), Some("Alpine"));
        assert_eq!(os_release_name("PRETTY_NAME='It''s'\n").as_deref(), Some("It''s"));
        assert_eq!(os_release_name("PRETTY_NAME=\"A \\\"q\\\" \\$x\"\n").as_deref(), Some("A \"q\" $x"));
        assert_eq!(os_release_name("ID=x\nPRETTY_NAME=\n"), None);
    }
}
