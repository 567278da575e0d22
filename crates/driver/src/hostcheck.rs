//! The host tests' programs checked once per run, before their first timed pass and never
//! inside it: that `dc` prints the square root of 2 to 99 places, that `grep -c` counts the
//! lines it should, that the C compiler writes an executable, and that the shell test's `sort`
//! and `grep` sort and count `sort.src`. A program of that name that does less (a stub ahead in
//! PATH, a wrapper that exits at once) would otherwise be timed as the real one and score many
//! times its figure without a word. C's suite runs whatever it finds and does not check
//! (docs/ORIGINAL.md, "Quirks we fix").

use crate::hosttools::{c_compiler, find_program};
use crate::sys::proc::{run_within, Argv, ChildIo};
use crate::workdir::{WorkDir, CC_SOURCE, DC_INPUT, GREP_INPUT};
use std::ffi::CString;
use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

/// What dc prints for `dc.dat` (`99 k 2 v p`): the square root of 2 truncated to 99 places.
const SQRT_2: &str =
    "1.414213562373095048801688724209698078569671875376948073176679737990732478462107038850387534327641572";

/// The seconds a check may take: a compile on a slow board, a sort of 8 KB.
const CHECK_SECS: f64 = 60.0;

/// Which check test `name` needs, if any: the three shell tests share one.
fn key(name: &str) -> Option<&'static str> {
    match name {
        "shell1" | "shell8" | "shell16" => Some("shell"),
        "C" => Some("C"),
        "dc" => Some("dc"),
        "grep" => Some("grep"),
        _ => None,
    }
}

/// Checks the programs test `name` runs, in `wd` (which holds its files), the first time a run
/// needs them; a check passed is not made again. Err as for [`check`].
pub fn once(name: &str, wd: &WorkDir) -> io::Result<()> {
    match key(name) {
        Some(k) if !wd.checked(k) => check(k, wd).map(|()| wd.set_checked(k)),
        _ => Ok(()),
    }
}

/// Checks the programs behind check `key` in `wd`, which holds the test's files. A program
/// that is missing passes: the test is then skipped, saying so. Err names the program, what it
/// gave and what was expected.
fn check(key: &str, wd: &WorkDir) -> io::Result<()> {
    match key {
        "dc" => dc(wd),
        "grep" => grep_count(wd, GREP_INPUT, "gimp"),
        "C" => compiler(wd),
        "shell" => sort(wd).and_then(|()| grep_count(wd, "sort.src", "the")),
        _ => Ok(()),
    }
}

fn dc(wd: &WorkDir) -> io::Result<()> {
    let input = wd.dir().read(DC_INPUT.as_ref())?;
    let Some((out, _)) = run(wd, "dc", &["dc"], Some(&input))? else { return Ok(()) };
    // dc breaks a long number into lines of 70 characters, each ending in a backslash.
    let digits = out.replace("\\\n", "");
    expect("dc", digits.trim() == SQRT_2, &out, "the square root of 2 to 99 places")
}

/// `grep -c WORD FILE` in `wd` against the count of the file's lines holding WORD.
fn grep_count(wd: &WorkDir, file: &str, word: &str) -> io::Result<()> {
    let data = read(wd, file)?;
    let Some((out, _)) = run(wd, "grep", &["grep", "-c", word, file], None)? else { return Ok(()) };
    let holding = |l: &[u8]| l.windows(word.len()).any(|w| w == word.as_bytes());
    let want = data.split(|&b| b == b'\n').filter(|l| holding(l)).count();
    let what = format!("{want} (the lines of {file} holding '{word}')");
    expect("grep", out.trim() == want.to_string(), &out, &what)
}

/// The compiler builds `cctest.c` into `a.out`, an ELF executable, which is then removed.
fn compiler(wd: &WorkDir) -> io::Result<()> {
    let Some(cc) = c_compiler() else { return Ok(()) };
    let _ = wd.dir().unlink("a.out".as_ref());
    let Some((_, status)) = run(wd, cc, &[cc, CC_SOURCE], None)? else { return Ok(()) };
    let built = read(wd, "a.out");
    let _ = wd.dir().unlink("a.out".as_ref());
    let exited = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let elf = built.as_ref().is_ok_and(|b| b.starts_with(b"\x7fELF"));
    let got = format!(
        "exit status {}, {}",
        exited.map_or("none".into(), |s| s.to_string()),
        if elf {
            "an ELF a.out"
        } else if built.is_ok() {
            "an a.out that is not ELF"
        } else {
            "no a.out"
        }
    );
    expect(cc, exited == Some(0) && elf, &got, "exit status 0 and an ELF a.out")
}

/// The shell test's `sort` gives back `sort.src`'s lines, in another order.
fn sort(wd: &WorkDir) -> io::Result<()> {
    let source = String::from_utf8_lossy(&read(wd, "sort.src")?).into_owned();
    let input = wd.dir().read("sort.src".as_ref())?;
    let Some((out, _)) = run(wd, "sort", &["sort"], Some(&input))? else { return Ok(()) };
    let (mut got, mut want): (Vec<&str>, Vec<&str>) = (out.lines().collect(), source.lines().collect());
    let reordered = got != want;
    got.sort_unstable();
    want.sort_unstable();
    expect("sort", reordered && got == want, &out, "sort.src's lines sorted")
}

/// The whole of `name` in `wd`.
fn read(wd: &WorkDir, name: &str) -> io::Result<Vec<u8>> {
    let mut data = Vec::new();
    io::Read::read_to_end(&mut wd.dir().read(name.as_ref())?, &mut data)?;
    Ok(data)
}

/// What `program` (found as execvp finds it) prints with `argv` in `wd`, stdin `input` or
/// /dev/null, and its raw wait status; None when there is no such program.
fn run(
    wd: &WorkDir,
    program: &str,
    argv: &[&str],
    input: Option<&File>,
) -> io::Result<Option<(String, i32)>> {
    let Some(path) = find_program(program) else { return Ok(None) };
    let path = CString::new(path.into_os_string().into_encoded_bytes())?;
    let io = ChildIo { stdin: input.map(AsRawFd::as_raw_fd), cwd: Some(wd.dir().raw()) };
    let (out, status) = run_within(&path, &Argv::new(argv)?, io, CHECK_SECS, 1 << 16)?;
    Ok(Some((String::from_utf8_lossy(&out).into_owned(), status)))
}

/// Ok when `ok`, else the error naming `program`, the start of what it gave and `want`.
fn expect(program: &str, ok: bool, got: &str, want: &str) -> io::Result<()> {
    if ok {
        return Ok(());
    }
    let got: String = got.trim().chars().take(60).map(|c| if c.is_control() { ' ' } else { c }).collect();
    let path = find_program(program).map_or(program.to_string(), |p| p.display().to_string());
    Err(io::Error::other(format!(
        "{path} is not the program this test times: it gave '{got}' where {want} was expected"
    )))
}
