//! The C suite as an arm of `unixbench ab`: a built C UnixBench directory (its `Run`, the
//! programs `make` leaves in `pgms/`, the data in `testdir/`) and, for each test of our
//! catalogue, the command C's `Run` gives that test, with the durations our own kernels get, so
//! that both arms measure the same span on one host. The tests and programs are described in
//! docs/ORIGINAL.md, "Tests" and "looper and the shell scripts".
//!
//! `Run`'s test table is the same in 5.1.3 and 6.0.0 (every program, word and input file), so
//! one mapping serves both; [`CSuite::version`] says which `Run` the directory holds.
//!
//! | test | C's argv (BINDIR = `pgms/`, TESTDIR = `testdir/`) | cwd |
//! |---|---|---|
//! | dhry2reg, syscall, context1, pipe, arithoh, short, int, long, float, double | `BINDIR/PROG SECS` | the copy's |
//! | spawn, execl, hanoi | `BINDIR/PROG SECS` | the copy's |
//! | whetstone-double | `BINDIR/whetstone-double` | the copy's |
//! | fstime, fsbuffer, fsdisk (and -r, -w) | `BINDIR/fstime -c -t SECS -d . -b 1024 -m 2000` (as ours, without `-s`) | the copy's |
//! | shellN | `BINDIR/looper SECS BINDIR/multi.sh N` | TESTDIR |
//! | C | `BINDIR/looper SECS gcc cctest.c` | TESTDIR |
//! | dc | `BINDIR/looper SECS dc`, stdin `TESTDIR/dc.dat` | TESTDIR |
//! | grep | `BINDIR/looper SECS grep -c gimp large.txt` | TESTDIR |
//! | sysexec | `BINDIR/syscall SECS exec` | the copy's |
//! | 2d-*, ubgears | skipped: graphics | |
//!
//! What the caller provides, beyond exec'ing `exe` with `argv` (each copy, as for our arm):
//! - the environment [`CCommand::env`] adds: `UB_BINDIR` (C's execl re-execs `$UB_BINDIR/execl`
//!   and multi.sh runs `$UB_BINDIR/tst.sh`), `UB_TESTDIR`, and `LANG=en_US.utf8`, as `Run`
//!   exports them. `UB_TMPDIR` and `UB_RESULTDIR` are not set: no C program or script reads
//!   them (`Run` itself puts TMPDIR only into fstime's `-d` word, which is `.` here);
//! - the working directory [`CCommand::cwd`]: None is our work directory (each kernel copy's
//!   own), Some the C suite's `testdir/`, where `Run` runs every pass: multi.sh hands tst.sh
//!   `sort.src` by that bare name and the scripts write their files beside it. Run there, the
//!   host tests read C's own data, never our work directory's files of the same names;
//! - stdin [`CCommand::stdin`]: dc's `dc.dat`, opened for each copy on its own (Run's `< dc.dat`
//!   is each copy's shell's redirection: copies sharing one open file would share its offset);
//! - the watchdog's plan [`CCommand::nominal`]: C's whetstone-double always runs 10 s and C's
//!   fstime always settles 2 s, whatever our run's policy (see [`CSuite::command`]);
//! - after the C test, `Run` removes `cctest.o` and `a.out` from `testdir/`; the caller may do
//!   the same.
//!
//! What C's own programs then do is kept, as C's Run would meet it: a current gcc warns about
//! C's K&R `cctest.c` on stderr at every compile, and stray stderr fails the pass here as it
//! stops C's Run (docs/ORIGINAL.md, "Quirks", 4); every dc after a copy's first reads `dc.dat`
//! at its end.

use crate::hosttools::{self, SHELL_TOOLS};
use crate::policy::Policy;
use crate::suite::{Arg, Kind, Test};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The programs of C's `pgms/` a kernel test runs, named as the catalogue's kernels: any other
/// kernel is one the C suite has no program for.
const C_KERNELS: &[&str] = &[
    "dhry2reg",
    "whetstone-double",
    "syscall",
    "context1",
    "pipe",
    "spawn",
    "execl",
    "fstime",
    "arithoh",
    "short",
    "int",
    "long",
    "float",
    "double",
    "hanoi",
];

/// `Run`'s `$language`, which it puts in `LANG` before any test.
const RUN_LANG: &str = "en_US.utf8";

/// `Run`'s `$cCompiler`: the C test always runs `gcc`, found in PATH by looper.
const RUN_CC: &str = "gcc";

/// C's execl builds `$UB_BINDIR/execl` in a 256-byte buffer (`char path_str[256]` and
/// `sprintf`): a longer path overflows it.
const EXECL_PATH_MAX: usize = 255;

/// A built C UnixBench directory, checked.
#[derive(Debug, Clone)]
pub struct CSuite {
    root: PathBuf,
    pgms: PathBuf,
    testdir: PathBuf,
    version: Option<String>,
}

/// The program to exec and its argv (`argv[0]` the program's full path, as C's Run execs it: C's
/// execl re-execs `argv[0]`), and the environment the C programs and scripts read. See the
/// module documentation for what the caller does with each field.
#[derive(Debug, Clone, PartialEq)]
pub struct CCommand {
    pub exe: PathBuf,
    pub argv: Vec<OsString>,
    /// Variables set in each copy's environment, on top of the driver's.
    pub env: Vec<(OsString, OsString)>,
    /// The working directory: None for our work directory (a kernel copy's own), Some for C's
    /// `testdir/`, shared by the copies, where `Run` runs the host tests.
    pub cwd: Option<PathBuf>,
    /// The file each copy's stdin reads, opened for each copy (dc's `dc.dat`); None: as for
    /// our arm (/dev/null).
    pub stdin: Option<PathBuf>,
    /// The seconds one pass is planned to last (the duration word and the program's own
    /// settles or calibration), for the watchdog: not always our arm's (whetstone-double,
    /// fstime in a short or quick run).
    pub nominal: f64,
}

impl CSuite {
    /// Checks that `dir` is a built C UnixBench directory (its `Run`, `pgms/` with at least one
    /// built program, `testdir/`); the error is one line naming what is missing, for a usage
    /// error.
    pub fn open(dir: &Path) -> Result<CSuite, String> {
        let shown = crate::args::quoted(dir.as_os_str());
        if !dir.is_dir() {
            return Err(format!("{shown} is not a directory"));
        }
        let root = std::fs::canonicalize(dir).map_err(|e| format!("{shown}: {e}"))?;
        let not_c = |what: &str| format!("{shown} is not a built C UnixBench directory: {what}");
        if !root.join("Run").is_file() {
            return Err(not_c("it has no Run"));
        }
        let pgms = root.join("pgms");
        if !pgms.is_dir() {
            return Err(not_c("it has no pgms/"));
        }
        if !C_KERNELS.iter().chain(["looper"].iter()).any(|p| runnable(&pgms.join(p))) {
            return Err(not_c("its pgms/ holds no built program (make has not been run in it)"));
        }
        let testdir = root.join("testdir");
        if !testdir.is_dir() {
            return Err(not_c("it has no testdir/"));
        }
        let version = run_version(&root.join("Run"));
        Ok(CSuite { root, pgms, testdir, version })
    }

    /// The directory, made absolute.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Its `testdir/`, where the host tests run.
    pub fn testdir(&self) -> &Path {
        &self.testdir
    }

    /// The version its `Run` declares (`my $version = "6.0.0";`), e.g. `5.1.3` or `6.0.0`;
    /// None when it cannot be read. 5.1.3's `Run` ran no system or misc test above 16 copies.
    pub fn version(&self) -> Option<&str> {
        self.version.as_deref()
    }

    /// What one pass of test `t` runs in this suite under `policy` (the same durations our
    /// kernels get: `policy.secs(t, standard)`), or why this arm cannot run the test (a program
    /// not built, a graphics test, a test the C suite has no program for; one short line, it is
    /// shown as "skipped: ...").
    pub fn command(&self, t: &Test, policy: &Policy) -> Result<CCommand, String> {
        match t.kind {
            Kind::Kernel { prog, args } => self.kernel(t, prog, args, policy),
            Kind::Host { secs } => self.host(t, policy.secs(t, secs)),
            Kind::Graphics { .. } => Err("graphics tests are not run from the C suite".into()),
        }
    }

    /// A kernel test: C's program of the same name with our argv's words, less the words C's
    /// program does not take.
    fn kernel(&self, t: &Test, prog: &str, args: &[Arg], policy: &Policy) -> Result<CCommand, String> {
        if !C_KERNELS.contains(&prog) {
            return Err(format!("the C suite has no '{prog}' program"));
        }
        let exe = self.built(prog)?;
        if prog == "execl" && exe.as_os_str().len() > EXECL_PATH_MAX {
            return Err(format!("C's execl cannot hold a path over {EXECL_PATH_MAX} bytes"));
        }
        let mut argv = vec![exe.clone().into_os_string()];
        let mut secs = None;
        for a in args {
            match a {
                Arg::Lit(s) => argv.push(s.into()),
                Arg::Secs(s) => {
                    let s = policy.secs(t, *s);
                    secs = Some(s);
                    argv.push(s.to_string().into());
                }
                Arg::TmpDir => argv.push(".".into()),
                // whetstone-double built with -DUNIXBENCH never reads its argv: its duration
                // is fixed at 10 s (whets.c, `int duration = 10;`), so a short or quick pass
                // of it lasts 10 s here (`nominal`); Run passes it nothing.
                Arg::ShortSecs(_) => {}
                // C's fstime takes only -c -r -w -b -m -t -d: any other option is its usage
                // message and exit 2 (fstime.c's `default:` case). Its settles stay 2 s.
                Arg::ShortSettle => {}
            }
        }
        let nominal = f64::from(t.nominal_secs(secs));
        Ok(CCommand { exe, argv, env: self.environment(), cwd: None, stdin: None, nominal })
    }

    /// A host test, as `Run` starts it: `looper` in `testdir/` with the host's program and
    /// C's data, or `syscall SECS exec`.
    fn host(&self, t: &Test, secs: u32) -> Result<CCommand, String> {
        let looper = || self.built("looper");
        let (exe, words, stdin): (PathBuf, Vec<OsString>, Option<PathBuf>) = match t.name {
            "shell1" | "shell8" | "shell16" => {
                let exe = looper()?;
                let multi = self.shell_scripts()?;
                let copies = &t.name["shell".len()..];
                (exe, vec![multi.into_os_string(), copies.into()], None)
            }
            "C" => {
                require(RUN_CC)?;
                self.data("cctest.c")?;
                (looper()?, vec![RUN_CC.into(), "cctest.c".into()], None)
            }
            // C's looper has no -i (ours): every dc after the first reads the input at its end,
            // as in C's Run.
            "dc" => {
                require("dc")?;
                (looper()?, vec!["dc".into()], Some(self.data("dc.dat")?))
            }
            "grep" => {
                require("grep")?;
                self.data("large.txt")?;
                (looper()?, ["grep", "-c", "gimp", "large.txt"].map(OsString::from).to_vec(), None)
            }
            // `syscall SECS exec`, in the copy's own directory as a kernel.
            "sysexec" => {
                require("/bin/true")?;
                (self.built("syscall")?, vec!["exec".into()], None)
            }
            other => return Err(format!("the C suite has no '{other}' test")),
        };
        let mut argv = vec![exe.clone().into_os_string(), secs.to_string().into()];
        argv.extend(words);
        let nominal = f64::from(t.nominal_secs(Some(secs)));
        let cwd = (t.name != "sysexec").then(|| self.testdir.clone());
        Ok(CCommand { exe, argv, env: self.environment(), cwd, stdin, nominal })
    }

    /// C's `multi.sh`, checked with everything the shell tests run: looper execs it through its
    /// `#!` line (Run does not run it through `/bin/sh`), it runs `$UB_BINDIR/tst.sh` over
    /// `sort.src` in `testdir/` with our shell tests' tools.
    fn shell_scripts(&self) -> Result<PathBuf, String> {
        let multi = self.built("multi.sh")?;
        if !self.pgms.join("tst.sh").is_file() {
            return Err("C's pgms/tst.sh is missing".into());
        }
        self.data("sort.src")?;
        require("/bin/sh")?;
        SHELL_TOOLS.iter().try_for_each(|t| require(t).map(drop))?;
        Ok(multi)
    }

    /// `pgms/NAME`, when it is there and may be executed.
    fn built(&self, name: &str) -> Result<PathBuf, String> {
        let p = self.pgms.join(name);
        if runnable(&p) {
            Ok(p)
        } else if p.exists() {
            Err(format!("C's pgms/{name} is not executable"))
        } else {
            Err(format!("C's pgms/{name} is not built"))
        }
    }

    /// `testdir/NAME`, when it is there.
    fn data(&self, name: &str) -> Result<PathBuf, String> {
        let p = self.testdir.join(name);
        if p.is_file() {
            Ok(p)
        } else {
            Err(format!("C's testdir/{name} is missing"))
        }
    }

    /// What `Run` exports that the C programs and scripts read.
    pub fn environment(&self) -> Vec<(OsString, OsString)> {
        vec![
            ("UB_BINDIR".into(), self.pgms.clone().into_os_string()),
            ("UB_TESTDIR".into(), self.testdir.clone().into_os_string()),
            ("LANG".into(), RUN_LANG.into()),
        ]
    }
}

/// A regular file this process may execute.
pub(crate) fn runnable(p: &Path) -> bool {
    p.is_file() && crate::sys::fd::executable(p.as_os_str())
}

/// The host program a test runs, as our host tests require it: the same skip in both arms.
fn require(program: &str) -> Result<PathBuf, String> {
    hosttools::require(program).map_err(|skip| skip.0)
}

/// The version in `Run`'s `my $version = "X";` line.
fn run_version(run: &Path) -> Option<String> {
    let text = crate::sys::fd::read_file(run, 1 << 20).ok()?;
    let text = String::from_utf8_lossy(&text);
    let line = text.lines().find(|l| l.trim_start().starts_with("my $version"))?;
    let v = line.split('"').nth(1)?;
    (!v.is_empty() && v.len() < 32).then(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Budget;
    use crate::suite;
    use std::os::unix::fs::PermissionsExt;

    /// A C UnixBench directory under the temporary directory, removed when dropped: `Run`,
    /// `pgms/` with small scripts named as the programs that print a known COUNT line, and
    /// `testdir/` with the data files.
    struct Fixture(PathBuf);

    impl Fixture {
        fn new(tag: &str) -> Fixture {
            let root = std::env::temp_dir().join(format!("ub-csuite-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&root);
            for d in ["pgms", "testdir"] {
                std::fs::create_dir_all(root.join(d)).unwrap();
            }
            std::fs::write(root.join("Run"), "#!/usr/bin/perl -w\nmy $version = \"6.0.0\";\n").unwrap();
            let progs = C_KERNELS.iter().chain(["looper", "multi.sh", "tst.sh"].iter());
            for p in progs {
                Fixture::program(&root, p, "echo 'COUNT|42|1|lps' >&2");
            }
            for f in ["sort.src", "cctest.c", "dc.dat", "large.txt"] {
                std::fs::write(root.join("testdir").join(f), "data\n").unwrap();
            }
            Fixture(root)
        }

        fn program(root: &Path, name: &str, body: &str) {
            let p = root.join("pgms").join(name);
            std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }

        fn open(&self) -> CSuite {
            CSuite::open(&self.0).unwrap()
        }
    }

    impl Drop for Fixture {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn standard() -> Policy {
        Policy::Standard { iterations: None }
    }

    fn quick() -> Policy {
        Policy::Quick(Budget::new(1.0, 0.0, 1.0))
    }

    /// The command's argv with the suite's directory written `C/`.
    fn argv(c: &CSuite, name: &str, policy: &Policy) -> Vec<String> {
        let cmd = c.command(suite::test(name).unwrap(), policy).unwrap();
        assert_eq!(cmd.argv[0], cmd.exe.as_os_str(), "{name}: argv[0] is the program's path");
        let root = format!("{}/", c.root().display());
        cmd.argv.iter().map(|w| w.to_string_lossy().replace(&root, "C/")).collect()
    }

    #[test]
    fn open_refuses_what_is_not_a_built_c_suite() {
        let f = Fixture::new("open");
        let err = |p: &Path| CSuite::open(p).unwrap_err();
        let missing = f.0.join("nothing-here");
        assert!(err(&missing).ends_with("nothing-here' is not a directory"), "{}", err(&missing));
        for p in C_KERNELS.iter().chain(["looper"].iter()) {
            std::fs::remove_file(f.0.join("pgms").join(p)).unwrap();
        }
        assert!(err(&f.0).ends_with(": its pgms/ holds no built program (make has not been run in it)"));
        Fixture::program(&f.0, "pipe", "exit 0");
        let c = f.open();
        assert_eq!(c.version(), Some("6.0.0"));
        let skip = |name| c.command(suite::test(name).unwrap(), &standard()).unwrap_err();
        assert_eq!(skip("dhry2reg"), "C's pgms/dhry2reg is not built");
        assert_eq!(skip("shell8"), "C's pgms/looper is not built");
        assert_eq!(skip("2d-rects"), "graphics tests are not run from the C suite");
        std::fs::remove_dir_all(f.0.join("testdir")).unwrap();
        assert!(err(&f.0).ends_with("is not a built C UnixBench directory: it has no testdir/"));
        std::fs::remove_dir_all(f.0.join("pgms")).unwrap();
        assert!(err(&f.0).ends_with("is not a built C UnixBench directory: it has no pgms/"));
        std::fs::remove_file(f.0.join("Run")).unwrap();
        assert!(err(&f.0).ends_with("is not a built C UnixBench directory: it has no Run"));
    }

    #[test]
    fn kernels_run_cs_program_with_our_durations() {
        let f = Fixture::new("kernel");
        let c = f.open();
        assert_eq!(argv(&c, "dhry2reg", &standard()), ["C/pgms/dhry2reg", "10"]);
        assert_eq!(argv(&c, "dhry2reg", &quick()), ["C/pgms/dhry2reg", "1"]);
        assert_eq!(argv(&c, "execl", &Policy::Short { secs: 3, iterations: None }), ["C/pgms/execl", "3"]);
        assert_eq!(argv(&c, "context1", &quick()), ["C/pgms/context1", "3"], "our floor");
        // C's whetstone-double reads no argument: 10 s in every run.
        assert_eq!(argv(&c, "whetstone-double", &quick()), ["C/pgms/whetstone-double"]);
        let cmd = c.command(suite::test("whetstone-double").unwrap(), &quick()).unwrap();
        assert_eq!((cmd.nominal, cmd.cwd, cmd.stdin), (11.0, None, None));
        let env: Vec<_> =
            cmd.env.iter().map(|(k, v)| format!("{}={}", k.to_string_lossy(), v.to_string_lossy())).collect();
        let root = c.root().display().to_string();
        assert_eq!(
            env,
            [
                format!("UB_BINDIR={root}/pgms"),
                format!("UB_TESTDIR={root}/testdir"),
                "LANG=en_US.utf8".into()
            ]
        );
    }

    #[test]
    fn file_tests_keep_runs_words_and_drop_the_settle() {
        let f = Fixture::new("fstime");
        let c = f.open();
        let fs =
            |secs: &'static str| ["C/pgms/fstime", "-c", "-t", secs, "-d", ".", "-b", "1024", "-m", "2000"];
        assert_eq!(argv(&c, "fstime", &standard()), fs("30"));
        // Ours gets `-s 0.25` in a quick run; C's fstime would stop at it with its usage.
        assert_eq!(argv(&c, "fstime", &quick()), fs("2"));
        let cmd = c.command(suite::test("fsdisk-w").unwrap(), &quick()).unwrap();
        assert_eq!(cmd.nominal, 2.0 + 4.0, "C's settles are not shortened");
        assert_eq!(cmd.cwd, None, "the copy's own directory, the `.` of -d");
    }

    #[test]
    fn host_tests_run_under_cs_looper_in_its_testdir() {
        if SHELL_TOOLS.iter().chain(["/bin/sh", "/bin/true"].iter()).any(|t| hosttools::require(t).is_err()) {
            return; // a host without the shell test's programs: their skip is hosttools'
        }
        let f = Fixture::new("host");
        let c = f.open();
        assert_eq!(argv(&c, "shell8", &standard()), ["C/pgms/looper", "60", "C/pgms/multi.sh", "8"]);
        assert_eq!(argv(&c, "shell1", &quick()), ["C/pgms/looper", "3", "C/pgms/multi.sh", "1"]);
        let cmd = c.command(suite::test("shell16").unwrap(), &quick()).unwrap();
        assert_eq!(cmd.cwd.as_deref(), Some(c.root().join("testdir").as_path()));
        assert_eq!(argv(&c, "grep", &standard()), ["C/pgms/looper", "30", "grep", "-c", "gimp", "large.txt"]);
        assert_eq!(argv(&c, "sysexec", &standard()), ["C/pgms/syscall", "10", "exec"]);
        if hosttools::require("dc").is_ok() {
            let cmd = c.command(suite::test("dc").unwrap(), &standard()).unwrap();
            assert_eq!(cmd.stdin, Some(c.root().join("testdir/dc.dat")));
        }
        std::fs::remove_file(f.0.join("testdir/sort.src")).unwrap();
        let skip = c.command(suite::test("shell1").unwrap(), &standard()).unwrap_err();
        assert_eq!(skip, "C's testdir/sort.src is missing");
        std::fs::set_permissions(f.0.join("pgms/multi.sh"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let skip = c.command(suite::test("shell1").unwrap(), &standard()).unwrap_err();
        assert_eq!(skip, "C's pgms/multi.sh is not executable");
    }

    /// Runs `cmd` as the driver would: argv[0] as given, the environment added, in `cmd.cwd` or
    /// else `work`, stdin from `cmd.stdin` or else /dev/null. Its stderr.
    fn run(cmd: &CCommand, work: &Path) -> String {
        use std::os::unix::process::CommandExt;
        let stdin = match &cmd.stdin {
            Some(p) => std::fs::File::open(p).unwrap().into(),
            None => std::process::Stdio::null(),
        };
        let out = std::process::Command::new(&cmd.exe)
            .arg0(&cmd.argv[0])
            .args(&cmd.argv[1..])
            .envs(cmd.env.iter().map(|(k, v)| (k, v)))
            .current_dir(cmd.cwd.as_deref().unwrap_or(work))
            .stdin(stdin)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    #[test]
    fn a_command_runs_with_its_environment_directory_and_input() {
        let f = Fixture::new("run");
        Fixture::program(&f.0, "pipe", r#"echo "COUNT|$1|1|lps"; echo "$UB_BINDIR $LANG $PWD" >&2"#);
        Fixture::program(&f.0, "looper", r#"read -r l; echo "COUNT|$1|60|lpm $2 $l $PWD" >&2"#);
        std::fs::write(f.0.join("testdir/dc.dat"), "99\nk\n").unwrap();
        let c = f.open();
        let work = f.0.join("work");
        std::fs::create_dir(&work).unwrap();
        let cmd = c.command(suite::test("pipe").unwrap(), &quick()).unwrap();
        let root = c.root().display();
        assert_eq!(run(&cmd, &work), format!("{root}/pgms en_US.utf8 {}\n", work.display()));
        if hosttools::require("dc").is_ok() {
            let cmd = c.command(suite::test("dc").unwrap(), &standard()).unwrap();
            assert_eq!(run(&cmd, &work), format!("COUNT|30|60|lpm dc 99 {root}/testdir\n"));
        }
    }

    /// The real C suite, built in the directory `CSUITE_C_DIR` names: each command of a few
    /// tests run for 2 s, its COUNT and TIME lines shown (`cargo test -p driver csuite -- --ignored
    /// --nocapture`).
    #[test]
    #[ignore = "needs a built C UnixBench directory in CSUITE_C_DIR"]
    fn the_real_c_suite_counts() {
        let dir = PathBuf::from(std::env::var_os("CSUITE_C_DIR").expect("CSUITE_C_DIR"));
        let c = CSuite::open(&dir).unwrap();
        let work = std::env::temp_dir().join(format!("ub-csuite-real-{}", std::process::id()));
        std::fs::create_dir_all(&work).unwrap();
        let short = Policy::Short { secs: 2, iterations: None };
        let tests =
            ["dhry2reg", "whetstone-double", "execl", "fstime", "pipe", "shell1", "context1", "spawn"];
        let more = ["syscall", "sysexec", "hanoi", "double", "grep", "C", "dc", "fsbuffer-r", "shell8"];
        for name in tests.iter().chain(more.iter()) {
            match c.command(suite::test(name).unwrap(), &short) {
                Ok(cmd) => {
                    let said = run(&cmd, &work);
                    let (protocol, other): (Vec<&str>, Vec<&str>) =
                        said.lines().partition(|l| l.starts_with("COUNT|") || l.starts_with("TIME|"));
                    println!("{name}: {:?} -> {protocol:?} and {} other lines", cmd.argv, other.len());
                }
                Err(e) => println!("{name}: skipped: {e}"),
            }
        }
        let _ = std::fs::remove_dir_all(&work);
    }

    /// Every test of the catalogue gets C's Run's command line (Run's `%testParams`, the same in
    /// 5.1.3 and 6.0.0) in a standard run, or a skip for the graphics tests.
    #[test]
    fn a_standard_run_gives_runs_command_lines() {
        let f = Fixture::new("all");
        let c = f.open();
        for t in suite::TESTS {
            let words = match c.command(t, &standard()) {
                Ok(cmd) => cmd.argv[1..].iter().map(|w| w.to_string_lossy().into_owned()).collect::<Vec<_>>(),
                Err(e) => {
                    let host = matches!(t.kind, Kind::Host { .. });
                    assert!(matches!(t.kind, Kind::Graphics { .. }) || host && e.starts_with("no '"), "{e}");
                    continue;
                }
            };
            let line = words.join(" ").replace(&format!("{}/", c.root().display()), "");
            assert_eq!(line, runs_options(t.name), "{}", t.name);
        }
    }

    /// Run's `options` for `name`, its TMPDIR the copy's directory and BINDIR written away.
    fn runs_options(name: &str) -> String {
        let fs = |mode: &str, b: &str, m: &str| format!("{mode} -t 30 -d . -b {b} -m {m}");
        match name {
            "whetstone-double" => String::new(),
            "spawn" | "execl" => "30".into(),
            "hanoi" => "20".into(),
            "fstime-w" | "fstime-r" | "fstime" => fs(&mode_of(name), "1024", "2000"),
            "fsbuffer-w" | "fsbuffer-r" | "fsbuffer" => fs(&mode_of(name), "256", "500"),
            "fsdisk-w" | "fsdisk-r" | "fsdisk" => fs(&mode_of(name), "4096", "8000"),
            "shell1" | "shell8" | "shell16" => format!("60 pgms/multi.sh {}", &name[5..]),
            "C" => "60 gcc cctest.c".into(),
            "dc" => "30 dc".into(),
            "grep" => "30 grep -c gimp large.txt".into(),
            "sysexec" => "10 exec".into(),
            _ => "10".into(),
        }
    }

    fn mode_of(name: &str) -> String {
        match name.rsplit_once('-') {
            Some((_, m)) => format!("-{m}"),
            None => "-c".into(),
        }
    }
}
