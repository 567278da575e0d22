//! Which image the `execl` and `spawn` applets time: the dynamically linked twins this binary
//! carries (built from `programs/` by the build script), what `UB_EXEC_IMAGE` asks for, and
//! which twins this host can load. Plain data and lookups; staging and running a twin is
//! `crate::stage`'s, and the driver asks here before a run whether a `--exec-image` it was given
//! can be honoured.

use std::ffi::OsStr;

/// One embedded twin.
pub struct Twin {
    /// `execl` or `spawn`.
    pub program: &'static str,
    /// `glibc` or `musl`.
    pub libc: &'static str,
    /// Its PT_INTERP, read from the image at build time.
    pub loader: &'static str,
    /// Where its bytes are in the unpacked stream of every twin, and how many.
    pub offset: usize,
    pub size: usize,
}

/// The twins built for this binary's architecture (none where the build has none).
pub static TWINS: &[Twin] = include!(concat!(env!("OUT_DIR"), "/twins.rs"));

/// Every twin's image, one after the other, packed by `lz::pack`.
static PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/twins.lz"));

impl Twin {
    /// The ELF image, or None if the embedded stream is damaged.
    pub fn image(&self) -> Option<Vec<u8>> {
        let all = crate::lz::unpack(PACKED)?;
        all.get(self.offset..self.offset.checked_add(self.size)?).map(<[u8]>::to_vec)
    }
}

/// The programs that time an exec image, with the report name of their test.
pub const PROGRAMS: [(&str, &str); 2] = [("execl", "Execl Throughput"), ("spawn", "Process Creation")];

/// What `UB_EXEC_IMAGE` (the driver's `--exec-image`) asks for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Request {
    /// A twin where one runs, else the static image (the default).
    Auto,
    /// A twin, of this C library family if given, or an error.
    Dynamic(Option<&'static str>),
    /// This static binary.
    Static,
}

/// The variable the applets read and the driver sets for its copies.
pub const VAR: &str = "UB_EXEC_IMAGE";
/// The requests by the names it takes (empty is `auto` too, offered by no list).
pub const REQUESTS: [(&str, Request); 5] = [
    ("auto", Request::Auto),
    ("dynamic", Request::Dynamic(None)),
    ("dynamic-glibc", Request::Dynamic(Some("glibc"))),
    ("dynamic-musl", Request::Dynamic(Some("musl"))),
    ("static", Request::Static),
];

/// Their names, for help, errors and completions.
pub const NAMES: [&str; 5] = base::options::names(&REQUESTS);

pub fn parse_request(v: &str) -> Option<Request> {
    match v {
        "" => Some(Request::Auto),
        _ => REQUESTS.iter().find(|(n, _)| *n == v).map(|&(_, r)| r),
    }
}

/// The request in the environment, or a message naming the bad value.
pub fn request() -> Result<Request, String> {
    let v = std::env::var_os(VAR).unwrap_or_default();
    v.to_str()
        .and_then(parse_request)
        .ok_or_else(|| format!("{VAR}='{}': not one of {}", v.to_string_lossy(), NAMES.join(", ")))
}

/// The twins of `program` that `req` allows and whose loader this host has, the family of the
/// host's /bin/sh first (a C build there would link against it); or why there is none.
pub fn candidates(program: &str, req: Request) -> Result<Vec<&'static Twin>, String> {
    let family = match req {
        Request::Static => return Err(format!("{VAR}=static")),
        Request::Dynamic(f) => f,
        Request::Auto => None,
    };
    // The twins built for `program` and `family`, by whether this host has their loader.
    let (mut usable, mut missing) = (Vec::new(), Vec::new());
    for t in TWINS.iter().filter(|t| t.program == program && family.map_or(true, |f| t.libc == f)) {
        if crate::sys::fd::executable(OsStr::new(t.loader)) {
            usable.push(t);
        } else {
            missing.push(t.loader);
        }
    }
    if usable.is_empty() && missing.is_empty() {
        return Err(format!(
            "this build carries no dynamic {program} image{}{} for {}",
            if family.is_some() { " for " } else { "" },
            family.unwrap_or_default(),
            std::env::consts::ARCH
        ));
    }
    if usable.is_empty() {
        return Err(format!("no C library loader on this host ({} missing)", missing.join(", ")));
    }
    // The program headers and the interpreter's name lie at the start of the file.
    let head = crate::sys::fd::read_file(std::path::Path::new("/bin/sh"), 64 << 10).ok();
    if let Some(sh) = head.and_then(|b| crate::elf::interpreter(&b)) {
        if let Some(i) = usable.iter().position(|t| t.loader == sh) {
            usable[..=i].rotate_right(1);
        }
    }
    Ok(usable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests() {
        assert_eq!(parse_request(""), Some(Request::Auto));
        assert_eq!(parse_request("auto"), Some(Request::Auto));
        assert_eq!(parse_request("dynamic"), Some(Request::Dynamic(None)));
        assert_eq!(parse_request("dynamic-musl"), Some(Request::Dynamic(Some("musl"))));
        assert_eq!(parse_request("static"), Some(Request::Static));
        assert_eq!(parse_request("Static"), None);
        for c in NAMES {
            assert!(parse_request(c).is_some(), "{c}");
        }
    }
}
