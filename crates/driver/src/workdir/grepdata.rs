//! The grep test's input, generated: 10 000 lines of made-up `strace` output of a GIMP start-up
//! (`open("/usr/lib/gimp/2.0/plug-ins/blur", O_RDONLY) = 3` and the like), with the statistics
//! of the original suite's `large.txt` (docs/ORIGINAL.md, "Data files"): [`BYTES`] bytes, [`LINES`]
//! lines, [`WORDS`] words as `wc` counts them, and exactly [`MATCHES`] lines containing `gimp`.
//!
//! Generated rather than embedded so the binary does not carry 700 KB. The generator is
//! deterministic (a fixed-seed PCG), so every run on every machine writes the same bytes; the
//! unit tests pin the statistics and a checksum. How: the lines that mention `gimp` are drawn at
//! fixed positions first; each other line is the best of three random candidates for keeping
//! the running word and byte totals on course; the last [`TAIL`] lines (a program writing
//! messages to stderr) absorb the exact remainder, their padding before `=` as strace aligns it.

use std::fmt::Write as _;

/// Size of the file in bytes.
pub const BYTES: usize = 708_495;
/// Number of lines.
pub const LINES: usize = 10_000;
/// Number of words, as `wc` counts them (runs of non-blanks).
pub const WORDS: usize = 61_664;
/// Number of lines containing `gimp`: what `grep -c gimp` prints.
pub const MATCHES: usize = 1_032;

/// Lines at the end that absorb the remaining words and bytes exactly.
const TAIL: usize = 8;
/// Word and byte budget of each tail line, aimed at while steering the others.
const TAIL_WORDS: usize = 8;
const TAIL_BYTES: usize = 72;

const SEED: u64 = 0x5eed_9e1f_2007;

const PLUGINS: &[&str] = &[
    "blur",
    "bumpmap",
    "cml-explorer",
    "curve-bend",
    "decompose",
    "despeckle",
    "emboss",
    "file-png",
    "file-jpeg",
    "file-gif-load",
    "file-tiff-save",
    "gradient-map",
    "lens-flare",
    "noise-rgb",
    "ripple",
    "sharpen",
    "sparkle",
    "tile",
    "unsharp-mask",
    "warp",
    "wind",
    "script-fu",
    "print",
    "screenshot",
    "sample-colorize",
    "film",
    "mosaic",
    "newsprint",
    "sinus",
    "van-gogh-lic",
];
const DATA_DIRS: &[(&str, &str)] = &[
    ("brushes", ".gbr"),
    ("patterns", ".pat"),
    ("palettes", ".gpl"),
    ("gradients", ".ggr"),
    ("scripts", ".scm"),
    ("themes/Default", ".rc"),
];
const DATA_NAMES: &[&str] = &[
    "Circle-11",
    "Circle-Fuzzy-19",
    "Galaxy",
    "Pepper",
    "Sponge-01",
    "Stone",
    "Wood",
    "Blues",
    "Bright-Cubes",
    "Cool-Metal",
    "Ember",
    "Leaves",
    "Nature",
    "Plasma",
    "Royal",
    "Sky",
    "Tan",
    "Warm-Colors",
    "Web",
    "Grayscale",
    "Marble",
    "Crack",
    "Dunes",
    "Slate",
    "Paper",
];
const HOME_FILES: &[&str] = &[
    "gimprc",
    "pluginrc",
    "sessionrc",
    "devicerc",
    "menurc",
    "toolrc",
    "templaterc",
    "parasiterc",
    "controllerrc",
    "contextrc",
    "gtkrc",
    "unitrc",
];
const LIBS: &[&str] = &[
    "c.so.6",
    "m.so.6",
    "dl.so.2",
    "pthread.so.0",
    "glib-2.0.so.0",
    "gobject-2.0.so.0",
    "gmodule-2.0.so.0",
    "gtk-x11-2.0.so.0",
    "gdk-x11-2.0.so.0",
    "pango-1.0.so.0",
    "pangocairo-1.0.so.0",
    "cairo.so.2",
    "fontconfig.so.1",
    "freetype.so.6",
    "png12.so.0",
    "jpeg.so.62",
    "tiff.so.4",
    "z.so.1",
    "X11.so.6",
    "Xext.so.6",
    "Xrender.so.1",
    "Xft.so.2",
    "Xcursor.so.1",
    "Xi.so.6",
    "Xrandr.so.2",
    "expat.so.1",
    "art_lgpl_2.so.2",
    "atk-1.0.so.0",
];
const LIB_DIRS: &[&str] =
    &["/lib/", "/usr/lib/", "/lib/tls/i686/cmov/", "/usr/lib/i686/cmov/", "/usr/local/lib/"];
const FONTS: &[&str] = &[
    "DejaVuSans.ttf",
    "DejaVuSans-Bold.ttf",
    "DejaVuSerif.ttf",
    "DejaVuSansMono.ttf",
    "LiberationSans-Regular.ttf",
    "FreeSans.ttf",
    "FreeMono.ttf",
    "n019003l.pfb",
    "c059013l.pfb",
];
const FONT_DIRS: &[&str] = &[
    "/usr/share/fonts/truetype/ttf-dejavu/",
    "/usr/share/fonts/truetype/freefont/",
    "/usr/share/fonts/type1/gsfonts/",
];
const ETC_FILES: &[&str] = &[
    "/etc/ld.so.cache",
    "/etc/ld.so.preload",
    "/etc/fonts/fonts.conf",
    "/etc/gtk-2.0/gtkrc",
    "/etc/gtk-2.0/gdk-pixbuf.loaders",
    "/etc/pango/pango.modules",
    "/etc/passwd",
    "/etc/nsswitch.conf",
    "/etc/localtime",
    "/etc/X11/Xcursors/whiteglass",
    "/usr/share/X11/locale/locale.alias",
    "/usr/lib/locale/locale-archive",
    "/usr/share/locale/locale.alias",
    "/proc/meminfo",
    "/dev/urandom",
    "/tmp/.X11-unix/X0",
];
const LANGS: &[&str] = &["en_GB", "en", "de", "fr", "C"];
const MO_FILES: &[&str] = &["gtk20.mo", "gtk20-properties.mo", "glib20.mo", "atk10.mo", "libc.mo"];
const MO_GIMP: &[&str] = &["gimp20.mo", "gimp20-libgimp.mo", "gimp20-std-plug-ins.mo", "gimp20-script-fu.mo"];
const TAIL_WORDS_LIST: &[&str] = &[
    "loading",
    "module",
    "query",
    "plug-in",
    "done",
    "cache",
    "fonts",
    "scanning",
    "directory",
    "colour",
    "profile",
    "brush",
    "pattern",
    "palette",
    "gradient",
    "ok",
    "initialising",
    "interpreter",
    "tool",
    "options",
    "restored",
    "session",
    "display",
    "ready",
];

/// The other calls' choices: mmap2's protections and flags, rt_sigaction's signals.
const MMAP_PROTS: &[&str] = &["PROT_READ", "PROT_READ|PROT_EXEC", "PROT_READ|PROT_WRITE"];
const MMAP_FLAGS: &[&str] =
    &["MAP_PRIVATE", "MAP_PRIVATE|MAP_DENYWRITE", "MAP_PRIVATE|MAP_FIXED|MAP_DENYWRITE"];
const SIGNALS: &[&str] = &["SIGPIPE", "SIGCHLD", "SIGINT", "SIGTERM", "SIGHUP", "SIGSEGV"];

/// A PCG stream and the choices the line templates make from it.
struct Gen {
    rng: oorandom::Rand32,
}

impl Gen {
    fn below(&mut self, n: usize) -> usize {
        self.rng.rand_range(0..n as u32) as usize
    }
    fn pick<'a>(&mut self, v: &[&'a str]) -> &'a str {
        v[self.below(v.len())]
    }
    fn hex(&mut self, base: u32) -> String {
        format!("0x{:x}", base.wrapping_add(self.rng.rand_u32() & 0x00ff_f000))
    }

    /// A file name with "gimp" in it (`gimp`) or certainly without (`!gimp`).
    fn path(&mut self, gimp: bool) -> String {
        if gimp {
            match self.below(6) {
                0 | 1 => format!("/usr/lib/gimp/2.0/plug-ins/{}", self.pick(PLUGINS)),
                2 => {
                    let (d, ext) = DATA_DIRS[self.below(DATA_DIRS.len())];
                    format!("/usr/share/gimp/2.0/{d}/{}{ext}", self.pick(DATA_NAMES))
                }
                3 => format!("/home/user/.gimp-2.2/{}", self.pick(HOME_FILES)),
                4 => format!(
                    "/usr/lib/gimp/2.0/modules/libcolor-selector-{}.so",
                    self.pick(&["cmyk", "water", "wheel"])
                ),
                _ => format!("/usr/share/locale/{}/LC_MESSAGES/{}", self.pick(LANGS), self.pick(MO_GIMP)),
            }
        } else {
            match self.below(5) {
                0 | 1 => format!("{}lib{}", self.pick(LIB_DIRS), self.pick(LIBS)),
                2 => format!("{}{}", self.pick(FONT_DIRS), self.pick(FONTS)),
                3 => format!("/usr/share/locale/{}/LC_MESSAGES/{}", self.pick(LANGS), self.pick(MO_FILES)),
                _ => self.pick(ETC_FILES).to_string(),
            }
        }
    }

    /// One strace line, without its newline. A `gimp` line names a GIMP file; any other line
    /// holds no "gimp" anywhere.
    fn line(&mut self, gimp: bool) -> String {
        // A gimp line is one of the five calls that name a file.
        let kind = self.below(if gimp { 5 } else { 17 });
        let mut call = String::new();
        let ret =
            if kind < 5 { self.file_call(kind, gimp, &mut call) } else { self.other_call(kind, &mut call) };
        strace(&call, &ret, 0)
    }

    /// A call naming a file (kinds 0 to 4), written to `call`, and its result.
    fn file_call(&mut self, kind: usize, gimp: bool, call: &mut String) -> String {
        let enoent = "-1 ENOENT (No such file or directory)";
        match kind {
            0 => {
                let p = self.path(gimp);
                let ok = self.below(3) != 0;
                let _ = write!(call, "open(\"{p}\", O_RDONLY)");
                if ok {
                    format!("{}", 3 + self.below(4))
                } else {
                    enoent.into()
                }
            }
            1 => {
                let _ = write!(call, "stat64(\"{}\", {})", self.path(gimp), self.hex(0xbf80_0000));
                enoent.into()
            }
            2 => {
                let size = 1024 + self.below(400_000);
                let mode = self.pick(&["0644", "0755", "0600"]);
                let p = self.path(gimp);
                let _ = write!(call, "stat64(\"{p}\", {{st_mode=S_IFREG|{mode}, st_size={size}, ...}})");
                "0".into()
            }
            3 => {
                let ok = self.below(2) == 0;
                let _ = write!(call, "access(\"{}\", R_OK)", self.path(gimp));
                if ok {
                    "0".into()
                } else {
                    enoent.into()
                }
            }
            _ => {
                let p = self.path(gimp);
                // The directory of the file, unless that would lose the line's "gimp".
                let d = p.rsplit_once('/').map_or(p.as_str(), |(d, _)| d);
                let p = if gimp && !d.contains("gimp") { p.as_str() } else { d };
                let _ = write!(call, "open(\"{p}\", O_RDONLY|O_NONBLOCK|O_LARGEFILE|O_DIRECTORY)");
                format!("{}", 3 + self.below(4))
            }
        }
    }

    /// A call naming no file (kinds 5 to 16), written to `call`, and its result.
    fn other_call(&mut self, kind: usize, call: &mut String) -> String {
        let fd = |g: &mut Gen| 3 + g.below(3);
        let _ = match kind {
            5 => {
                let _ = write!(
                    call,
                    "read({}, \"\\177ELF\\1\\1\\1\\0\\0\\0\\0\\0\\0\\0\\0\\0\\3\\0\\3\\0\\1\\0\\0\\0\"..., 512)",
                    fd(self)
                );
                return "512".into();
            }
            6 => {
                let size = 4096 + self.below(2_000_000);
                write!(call, "fstat64({}, {{st_mode=S_IFREG|0644, st_size={size}, ...}})", fd(self))
            }
            7 => {
                let len = 4096 * (1 + self.below(300));
                let (prot, flags) = (self.pick(MMAP_PROTS), self.pick(MMAP_FLAGS));
                let _ = write!(call, "mmap2(NULL, {len}, {prot}, {flags}, {}, 0)", fd(self));
                return self.hex(0xb700_0000);
            }
            8 => write!(call, "close({})", 3 + self.below(4)),
            9 => write!(call, "mprotect({}, 4096, PROT_READ)", self.hex(0xb7f0_0000)),
            10 => write!(call, "munmap({}, {})", self.hex(0xb7f0_0000), 4096 * (1 + self.below(40))),
            11 => {
                let b = self.hex(0x0820_0000);
                let _ = write!(call, "brk({b})");
                return b;
            }
            12 => {
                let n = 2 + self.below(60);
                let _ = write!(call, "getdents64({}, /* {n} entries */, 4096)", fd(self));
                return format!("{}", n * 28 + self.below(28));
            }
            13 => write!(
                call,
                "gettimeofday({{1170{:06}, {:06}}}, NULL)",
                self.below(999_999),
                self.below(999_999)
            ),
            14 => {
                let sig = self.pick(SIGNALS);
                write!(
                    call,
                    "rt_sigaction({sig}, {{{}, [], SA_RESTART}}, {{SIG_DFL}}, 8)",
                    self.hex(0x0805_0000)
                )
            }
            15 => {
                let n = 4 * (1 + self.below(16));
                let _ = write!(call, "write(3, \"\\22\\0\\7\\0\\1\\0\\340\\1\"..., {n})");
                return format!("{n}");
            }
            _ => {
                call.push_str("poll([{fd=3, events=POLLIN}], 1, 0)");
                return "0 (Timeout)".into();
            }
        };
        "0".into()
    }
}

/// strace's layout: the call, padded to column 39, then ` = result`; `extra` more blanks.
fn strace(call: &str, ret: &str, extra: usize) -> String {
    format!("{call:<39}{:extra$} = {ret}", "")
}

/// Words as `wc -w` counts them: runs of characters that are not white space.
pub fn words(s: &[u8]) -> usize {
    s.split(|b| b.is_ascii_whitespace()).filter(|w| !w.is_empty()).count()
}

/// The whole file.
pub fn generate() -> Vec<u8> {
    let mut g = Gen { rng: oorandom::Rand32::new(SEED) };
    let body = LINES - TAIL;
    // Which body lines mention gimp: a fixed-seed sample of exactly MATCHES positions.
    let mut gimp = vec![false; body];
    let mut chosen = 0;
    while chosen < MATCHES {
        let i = g.below(body);
        if !gimp[i] {
            gimp[i] = true;
            chosen += 1;
        }
    }
    let body_words = (WORDS - TAIL * TAIL_WORDS) as f64;
    let body_bytes = (BYTES - TAIL * TAIL_BYTES) as f64;
    let mut out = Vec::with_capacity(BYTES);
    let mut w = 0usize;
    for (i, &is_gimp) in gimp.iter().enumerate() {
        // Best of three candidates for the running totals' course, words and bytes alike.
        let goal = (i + 1) as f64 / body as f64;
        let (tw, tb) = (body_words * goal, body_bytes * goal);
        let cost = |l: &String| {
            let dw = (w + words(l.as_bytes())) as f64 - tw;
            let db = (out.len() + l.len() + 1) as f64 - tb;
            (dw / 6.2).abs() + (db / 71.0).abs()
        };
        let best =
            (0..3).map(|_| g.line(is_gimp)).min_by(|a, b| cost(a).total_cmp(&cost(b))).unwrap_or_default();
        w += words(best.as_bytes());
        out.extend_from_slice(best.as_bytes());
        out.push(b'\n');
    }
    for k in (1..=TAIL).rev() {
        // This line's share of what is left; the last line takes all of it.
        let want_words = (WORDS - w) / k;
        let want_bytes = (BYTES - out.len()) / k;
        let text: Vec<&str> = (0..want_words - 4).map(|_| g.pick(TAIL_WORDS_LIST)).collect();
        let text = text.join(" ");
        let call = format!("write(2, \"{text}\\n\", {})", text.len() + 1);
        let ret = format!("{}", text.len() + 1);
        let plain = strace(&call, &ret, 0).len() + 1;
        assert!(plain <= want_bytes, "grep text generator: tail line too long ({plain} > {want_bytes})");
        let line = strace(&call, &ret, want_bytes - plain);
        w += words(line.as_bytes());
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV-1a, 64 bits: enough to tell one generated text from another.
    fn fnv(data: &[u8]) -> u64 {
        data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
    }

    #[test]
    fn has_the_statistics_of_the_original() {
        let t = generate();
        assert_eq!(t.len(), BYTES);
        assert_eq!(t.iter().filter(|&&b| b == b'\n').count(), LINES);
        assert_eq!(words(&t), WORDS);
        let text = std::str::from_utf8(&t).expect("ASCII");
        assert!(text.is_ascii());
        assert_eq!(text.lines().filter(|l| l.contains("gimp")).count(), MATCHES);
        assert!(text.ends_with('\n'));
    }

    #[test]
    fn is_the_same_on_every_run() {
        let a = fnv(&generate());
        assert_eq!(a, fnv(&generate()));
        // Pinned: a change here changes the grep test's input, and so its figure.
        assert_eq!(a, 0x6500_26f3_231c_7883, "checksum {a:#x}");
    }
}
