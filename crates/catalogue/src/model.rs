//! The results of a run as plain data: what the driver measures and every exporter (text report,
//! HTML, log, CSV, TSV, JSON) reads. Measuring never formats; exporters never measure.

/// A test category (docs/ORIGINAL.md, "Categories"), in the fixed order the report prints their
/// blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Category {
    System,
    TwoD,
    ThreeD,
    Misc,
}

impl Category {
    /// The key used in baselines.txt and the JSON (`system`, `2d`, `3d`, `misc`).
    pub fn key(self) -> &'static str {
        match self {
            Category::System => "system",
            Category::TwoD => "2d",
            Category::ThreeD => "3d",
            Category::Misc => "misc",
        }
    }
    /// The display name of the report's blocks.
    pub fn display(self) -> &'static str {
        match self {
            Category::System => "System Benchmarks",
            Category::TwoD => "2D Graphics Benchmarks",
            Category::ThreeD => "3D Graphics Benchmarks",
            Category::Misc => "Non-Index Benchmarks",
        }
    }
    pub const ALL: [Category; 4] = [Category::System, Category::TwoD, Category::ThreeD, Category::Misc];
}

/// How much the console shows (Run's verbosity levels); the results JSON records the number.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Verbosity {
    /// Also the default of an empty `Settings`, as the level 0 of a default number was.
    #[default]
    Quiet = 0,
    Normal = 1,
    Verbose = 2,
    Brief = 3,
}

impl Verbosity {
    /// The level as Run numbers it: 0 quiet, 1 normal, 2 verbose, 3 brief.
    pub fn level(self) -> u8 {
        self as u8
    }
}

/// What one copy of a test printed and how it ended, in one pass (Run's per-copy hash).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CopyOutcome {
    /// `COUNT0` of the last COUNT line (the last one wins, as in Run).
    pub count: Option<f64>,
    /// `COUNT1`: the timebase (0 = already a rate, 1 = per second, 60 = per minute).
    pub timebase: Option<f64>,
    /// `COUNT2`: the label, e.g. `lps`.
    pub label: Option<String>,
    /// `TIME`, when the program printed one.
    pub time: Option<f64>,
    /// Wall seconds from start until its stderr reached EOF.
    pub elapsed: f64,
    /// The raw wait status.
    pub status: i32,
    /// Error text: ERROR lines, stray stderr lines, a non-zero status, a signal. None if clean.
    pub error: Option<String>,
    /// The process id of the copy (the log's `# pid:` line); 0 when unknown.
    pub pid: i32,
    /// The image it timed, from its `IMAGE|` line (execl and spawn only).
    pub image: Option<ExecImage>,
    /// Seconds from the pass's release (the start barrier) until the copy exec'd its program;
    /// None when not known (a loaded report, or the copy never got there).
    pub started: Option<f64>,
}

/// Which image an execl or spawn copy timed (`twin::exec_image`), or which variant of its code
/// Whetstone ran.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecImage {
    /// `dynamic-glibc`, `dynamic-musl` or `static`; Whetstone's `fma` or `baseline`.
    pub kind: String,
    /// The loader's path for a dynamic image (` (memfd)` after it when run from one), the reason
    /// for the static one; what the variant is, or why the baseline ran.
    pub detail: String,
}

impl ExecImage {
    pub fn is_static(&self) -> bool {
        self.kind == "static"
    }

    /// What `detail` is, as the JSON names it: `loader`, `reason` or (a variant's) `detail`.
    pub fn detail_name(&self) -> &'static str {
        if self.is_static() {
            "reason"
        } else if self.kind.starts_with("dynamic") {
            "loader"
        } else {
            "detail"
        }
    }
}

/// The most copies a run may have (`-c`, a results file's `copies`): far beyond any machine,
/// below where fork or pipes run out.
pub const MAX_COPIES: u64 = 65_536;

/// One pass of a test: N copies started together, combined as `runOnePass` does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pass {
    pub copies: Vec<CopyOutcome>,
    /// Sum of the copies' counts.
    pub count: f64,
    /// Mean over copies of TIME if present, else elapsed.
    pub time: f64,
    /// Mean of elapsed.
    pub elapsed: f64,
    /// Timebase and label of copy 0.
    pub timebase: f64,
    pub label: String,
    /// What else the host did while the pass ran; None where /proc could not say.
    pub noise: Option<Noise>,
    /// The round it ran in (from 1), in a run with rounds; None in one without.
    pub round: Option<usize>,
    /// When it started, seconds since the Epoch; None where not known (a loaded report).
    pub start: Option<f64>,
}

/// What took CPU from a pass's copies, read around the pass (never inside it) from /proc and
/// the copies' resource usage: the measure of whether a figure is fit to publish.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Noise {
    /// CPU seconds the copies used (user + system, their descendants included).
    pub copies_cpu: f64,
    /// CPU seconds the hypervisor gave to others while the pass ran (steal time, all CPUs).
    pub steal: f64,
    /// CPU seconds that other processes of this host used meanwhile: busy time less the
    /// copies' and the driver's.
    pub foreign: f64,
    /// The 1-minute load average at the start and at the end.
    pub load_start: f64,
    pub load_end: f64,
    /// Involuntary context switches of the copies.
    pub involuntary: u64,
    /// The mean current CPU frequency in MHz at the end, where /sys shows it.
    pub mhz: Option<f64>,
    /// The pass's wall seconds, from the readings before it to those after.
    pub wall: f64,
    /// CPU seconds of those CPUs that nothing used: neither busy nor stolen (idle, waiting for
    /// I/O, or time the guest never saw, as when its VM was paused).
    pub idle: f64,
    /// Seconds the copies' cgroup was held back by its CPU quota (cgroup v2 `cpu.stat`
    /// `throttled_usec`); None where there is no such file.
    pub throttled: Option<f64>,
    /// Whether the driver itself was stopped and continued while the pass ran (SIGSTOP,
    /// Ctrl-Z): its readings then span the stop, whatever the copies did meanwhile.
    pub driver_stopped: bool,
}

/// Why a pass, or a test, was disturbed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disturbance {
    /// The hypervisor gave the CPUs to other guests.
    Steal,
    /// Other processes of this host took CPU time.
    Others,
    /// The copies got far less CPU than the pass's wall time with nothing else to blame: they
    /// were stopped (SIGSTOP, a paused VM); or the driver itself was stopped during the pass.
    Stopped,
    /// The cgroup's CPU quota held the copies back.
    Throttled,
}

impl Disturbance {
    /// The word every output uses.
    pub fn word(self) -> &'static str {
        match self {
            Disturbance::Steal => "steal",
            Disturbance::Others => "other processes",
            Disturbance::Stopped => "stopped",
            Disturbance::Throttled => "throttled",
        }
    }
}

/// The most passes of a test measured again: a host disturbed throughout gets its test measured
/// this many passes longer, then the test is reported disturbed.
pub const MAX_REMEASURED: usize = 3;

/// A pass is stopped when the CPUs sat idle, beyond what the test's least idle pass left idle,
/// for more than this share of its copies' CPU time. Higher than [`DISTURBED`]: a test's
/// passes leave a little more or less idle time by themselves (the file tests' waits, the
/// context switch's ping-pong), a stop leaves the whole of it.
pub const STOPPED: f64 = 0.25;

impl Noise {
    /// Steal time, as a share of the copies' CPU time.
    pub fn steal_share(&self) -> f64 {
        share(self.steal, self.copies_cpu)
    }

    /// Other processes' CPU time, as a share of the copies'.
    pub fn foreign_share(&self) -> f64 {
        share(self.foreign, self.copies_cpu)
    }

    /// This noise and `other`'s, summed (loads: the first start, the last end; frequency: the
    /// last known).
    pub fn add(&self, other: &Noise) -> Noise {
        Noise {
            copies_cpu: self.copies_cpu + other.copies_cpu,
            steal: self.steal + other.steal,
            foreign: self.foreign + other.foreign,
            load_start: self.load_start,
            load_end: other.load_end,
            involuntary: self.involuntary + other.involuntary,
            mhz: other.mhz.or(self.mhz),
            wall: self.wall + other.wall,
            idle: self.idle + other.idle,
            throttled: match (self.throttled, other.throttled) {
                (Some(a), Some(b)) => Some(a + b),
                (a, b) => a.or(b),
            },
            driver_stopped: self.driver_stopped || other.driver_stopped,
        }
    }

    /// Whether `copies` copies that keep their CPUs busy by themselves (a CPU-bound test) were
    /// stopped, judged by this pass alone: their CPU time fell short of `copies` x the wall time
    /// by more than [`STOPPED`] of it, and the CPUs sat idle that long, with nothing else to
    /// blame. More copies than CPUs leave none idle, so they are never judged stopped here.
    pub fn stopped_alone(&self, copies: usize) -> bool {
        let short = self.wall * copies as f64 - self.copies_cpu;
        self.disturbance(f64::INFINITY).is_none() && share(short.min(self.idle), self.copies_cpu) > STOPPED
    }

    /// The CPUs' idle seconds per second of the pass.
    pub fn idle_rate(&self) -> f64 {
        share(self.idle, self.wall)
    }

    /// Which of steal and other processes took more CPU time: the one to name when either
    /// passed [`DISTURBED`], whatever the other did.
    pub fn busier(&self) -> Disturbance {
        if self.steal >= self.foreign {
            Disturbance::Steal
        } else {
            Disturbance::Others
        }
    }

    /// Why this pass was disturbed, if it was: a stop of the driver itself, the quota's
    /// throttling, steal or other processes past [`DISTURBED`] of the copies' CPU time (the
    /// larger named), or idle CPUs past [`STOPPED`] of it beyond `idle_rate`, the idle rate of
    /// the test's least idle pass.
    pub fn disturbance(&self, idle_rate: f64) -> Option<Disturbance> {
        let stopped = share(self.idle - self.wall * idle_rate, self.copies_cpu);
        if self.driver_stopped {
            Some(Disturbance::Stopped)
        } else if share(self.throttled.unwrap_or(0.0), self.copies_cpu) > DISTURBED {
            Some(Disturbance::Throttled)
        } else if self.steal_share().max(self.foreign_share()) > DISTURBED {
            Some(self.busier())
        } else if stopped > STOPPED {
            Some(Disturbance::Stopped)
        } else {
            None
        }
    }
}

fn share(part: f64, whole: f64) -> f64 {
    if whole > 0.0 {
        part / whole
    } else {
        0.0
    }
}

/// A test is disturbed when steal time or other processes took more than this share of its
/// copies' CPU time.
pub const DISTURBED: f64 = 0.05;

impl Pass {
    /// The start skew: seconds from the first copy's start to the last's, when every copy's
    /// start is known.
    pub fn start_skew(&self) -> Option<f64> {
        let s: Option<Vec<f64>> = self.copies.iter().map(|c| c.started).collect();
        let s = s.filter(|s| !s.is_empty())?;
        let (lo, hi) = s.iter().fold((f64::MAX, f64::MIN), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        Some(hi - lo)
    }
}

/// The combined result of one test at one copy count.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TestResult {
    /// The driver's test name, e.g. `dhry2reg`.
    pub name: String,
    /// The log message, e.g. `Dhrystone 2 using register variables`: the report's row name.
    pub message: String,
    pub category: Option<Category>,
    /// The command line that was run, as the log's `==>` line shows it.
    pub command: String,
    /// Copies run in parallel.
    pub copies: usize,
    /// Every pass, in run order.
    pub passes: Vec<Pass>,
    /// Indices into `passes` of the kept passes (the lowest floor(P/3) counts dropped), in
    /// ascending order of count, as Run's log lists them.
    pub kept: Vec<usize>,
    /// Geometric mean of the kept per-pass rates.
    pub score: f64,
    /// The unit label (`lps`, `KBps`, ...).
    pub unit: String,
    /// Mean time of the kept passes.
    pub time: f64,
    /// Why the test failed (its copies' errors), if it did; then it has no score.
    pub error: Option<String>,
    /// Why the test was skipped (a missing host program, no display), if it was.
    pub skipped: Option<String>,
    /// Whether its copies keep their CPUs busy by themselves (a CPU-bound test): then a pass
    /// whose copies idled was stopped, even with no pass that ran alone to judge it by.
    pub busy: bool,
    /// The passes measured again, in run order, each with why: kept out of the score.
    pub replaced: Vec<Replaced>,
}

/// A pass that was disturbed and measured again.
#[derive(Debug, Clone, PartialEq)]
pub struct Replaced {
    pub pass: Pass,
    pub why: Disturbance,
    /// Its number in the log's `#### Pass N` (from 1, over every pass the test ran).
    pub number: usize,
}

impl TestResult {
    /// The noise of all its passes, summed; None when a pass has none (no /proc).
    pub fn noise(&self) -> Option<Noise> {
        let mut it = self.passes.iter().map(|p| p.noise);
        let first = it.next()??;
        it.try_fold(first, |acc, n| Some(acc.add(&n?)))
    }

    /// Whether its passes were disturbed ([`TestResult::disturbance`]).
    pub fn disturbed(&self) -> bool {
        self.disturbance().is_some()
    }

    /// Why its scored passes were disturbed, if they were: over them all, the quota's
    /// throttling, steal time or other processes past [`DISTURBED`] of its copies' CPU time;
    /// else the first pass that was stopped or throttled.
    pub fn disturbance(&self) -> Option<Disturbance> {
        let n = self.noise()?;
        // Summed over passes, idle time says nothing (an infinite rate excuses all of it): a
        // stop is judged pass by pass.
        match n.disturbance(f64::INFINITY) {
            Some(d) => Some(d),
            None => self.passes.iter().find_map(|p| {
                self.pass_disturbance(p)
                    .filter(|d| matches!(d, Disturbance::Stopped | Disturbance::Throttled))
            }),
        }
    }

    /// Why pass `p` was disturbed, judged against this test's passes (the replaced ones too).
    pub fn pass_disturbance(&self, p: &Pass) -> Option<Disturbance> {
        let n = p.noise?;
        let alone = self.busy && n.stopped_alone(p.copies.len());
        n.disturbance(self.least_idle_rate()).or(alone.then_some(Disturbance::Stopped))
    }

    /// The idle rate of its least idle pass that nothing else ran beside: what the test leaves
    /// idle by itself. A pass that steal, other processes or the quota took from leaves less
    /// idle (a busy loop fills the CPU the copies leave), and would make every pass alone look
    /// stopped beside it. Infinite when no pass ran alone: no stop can then be told.
    fn least_idle_rate(&self) -> f64 {
        let all = self.passes.iter().chain(self.replaced.iter().map(|r| &r.pass));
        let alone = all.filter_map(|p| p.noise).filter(|n| n.disturbance(f64::INFINITY).is_none());
        alone.map(|n| n.idle_rate()).fold(f64::INFINITY, f64::min)
    }

    /// The log's number of each scored pass (`#### Pass N`): every pass run is numbered in run
    /// order, the replaced ones out of the score.
    pub fn scored_numbers(&self) -> Vec<usize> {
        let mut numbers = Vec::new();
        for n in 1..=self.passes.len() + self.replaced.len() {
            if !self.replaced.iter().any(|r| r.number == n) {
                numbers.push(n);
            }
        }
        numbers
    }

    /// Whether the test produced a score.
    pub fn ok(&self) -> bool {
        self.error.is_none() && self.skipped.is_none() && !self.kept.is_empty()
    }

    /// The image its copies timed: the first one any copy named. Every copy of a run makes the
    /// same choice unless the host changed under it, in which case the static one is the one
    /// to name, since it is the one that makes the figure incomparable.
    pub fn exec_image(&self) -> Option<&ExecImage> {
        let mut first = None;
        for image in self.passes.iter().flat_map(|p| &p.copies).filter_map(|c| c.image.as_ref()) {
            match first {
                None => first = Some(image),
                Some(_) if image.is_static() => return Some(image),
                Some(_) => {}
            }
        }
        first
    }
}

/// One row of an index block.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRow {
    pub message: String,
    /// None: the test has no baseline (printed as `---`).
    pub baseline: Option<f64>,
    pub score: f64,
    /// 10 x score / baseline.
    pub index: Option<f64>,
}

/// The index block of one category (docs/ORIGINAL.md, "Index block").
#[derive(Debug, Clone, PartialEq)]
pub struct IndexBlock {
    pub category: Category,
    /// Rows in the report's sorted order.
    pub rows: Vec<IndexRow>,
    /// Geometric mean of the indexes of the tests that ran and have a baseline.
    pub score: f64,
    /// Not every baselined test of the category ran.
    pub partial: bool,
}

/// Everything measured at one copy count (one `Benchmark Run:` block).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CopyRun {
    pub copies: usize,
    /// Local time (seconds since the Epoch) when the tests started and ended.
    pub start: i64,
    pub end: i64,
    /// Results in run order. Reports sort by message.
    pub results: Vec<TestResult>,
    /// Index blocks, in Category::ALL order; only categories with an indexed test.
    pub index: Vec<IndexBlock>,
}

/// One CPU of the system block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cpu {
    pub model: String,
    pub bogomips: f64,
    /// The flag description (`Hyper-Threading, x86-64, MMX, ...`), may be empty.
    pub flags: String,
}

/// Which limit decided the CPUs this process may use (`probe::cpulimit` finds it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitedBy {
    Affinity,
    Cpuset,
    Quota,
}

impl LimitedBy {
    /// The name the JSON and the system block use.
    pub fn name(self) -> &'static str {
        match self {
            LimitedBy::Affinity => "affinity",
            LimitedBy::Cpuset => "cgroup cpuset",
            LimitedBy::Quota => "cgroup cpu quota",
        }
    }
}

/// The CPUs this process may use and what decided it (`probe::cpulimit` finds it).
#[derive(Debug, Clone, PartialEq)]
pub struct CpuLimit {
    pub cpus: usize,
    pub by: LimitedBy,
    /// What the deciding limit was, e.g. `cpu.max 150000 100000 in /box (1.50 CPUs)`.
    pub detail: String,
}

impl CpuLimit {
    /// The system block's `CPU limit` value, when a cgroup limit is below the affinity mask's
    /// CPUs (without one, the block is as it always was): `1 CPU (cgroup cpu quota: ...)`.
    pub fn cgroup_line(&self) -> Option<String> {
        (self.by != LimitedBy::Affinity)
            .then(|| format!("{} ({}: {})", cpus_text(self.cpus), self.by.name(), self.detail))
    }
}

/// `1 CPU`, `4 CPUs`.
pub fn cpus_text(n: usize) -> String {
    format!("{n} CPU{}", if n == 1 { "" } else { "s" })
}

/// The system block of the report (docs/ORIGINAL.md, "Report header" and "System information").
/// Unknown values are `unknown`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SystemInfo {
    pub hostname: String,
    /// `uname -o`-like name, e.g. `GNU/Linux`.
    pub os: String,
    pub os_release: String,
    pub os_version: String,
    pub machine: String,
    pub platform: String,
    /// The distribution's name (PRETTY_NAME of /etc/os-release), else `os`.
    pub system: String,
    /// The Language line's value: `en_US.utf8 (charmap="UTF-8", collate="UTF-8")`.
    pub language: String,
    /// Per-CPU details; empty when unknown (the report then says `CPU: no details available`).
    pub cpus: Vec<Cpu>,
    /// CPUs in the system, for the `N CPUs in system` line; None prints `unknown CPUs`.
    pub cpu_count: Option<usize>,
    /// The CPUs this process may use and which limit decided (`probe::cpulimit`); None when
    /// not looked at (a loaded report).
    pub cpu_limit: Option<CpuLimit>,
    pub graphics: Option<String>,
    /// The uptime line (` 12:00:00 up 3 days, ...,  load average: ...`).
    pub uptime: String,
    pub runlevel: String,
}

/// How the run was asked for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Settings {
    /// The expanded test list.
    pub tests: Vec<String>,
    /// Copy counts, in order.
    pub copies: Vec<usize>,
    /// `-i`, if given.
    pub iterations: Option<u32>,
    /// `-t`, if given: every test's duration in seconds (the run is then not standard).
    pub duration: Option<u32>,
    /// `--quick`: the whole run's time budget in seconds (passes shortened, their number decided
    /// as the run goes); None for a standard run.
    pub quick: Option<f64>,
    /// Whether the driver read the host's noise around each pass (false with `UB_NOISE=off`,
    /// and in a run loaded from a file that does not say).
    pub noise: bool,
    /// Whether a disturbed pass was measured again (`--remeasure`, and every quick run).
    pub remeasure: bool,
    /// The seed of the rounds' shuffled orders, in a run with rounds (every quick run, and a
    /// standard one with `--rounds`); None in one without.
    pub seed: Option<u64>,
    pub verbosity: Verbosity,
    pub tmpdir: String,
    pub resultdir: String,
}

/// What kind of run a result set is: the one notion of "standard" every output states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// Run's durations, pass counts and settles, and the C programs' images for execl and spawn.
    Standard,
    /// `--quick`.
    Quick,
    /// `-t` or `-i`: shorter or fewer passes.
    Short,
    /// Run's durations and passes, but execl or spawn timed this static binary.
    StaticImage,
}

impl RunKind {
    pub fn name(self) -> &'static str {
        match self {
            RunKind::Standard => "standard",
            RunKind::Quick => "quick",
            RunKind::Short => "short",
            RunKind::StaticImage => "static image",
        }
    }
}

impl Run {
    /// Why this run is not a standard one, one phrase per reason; empty for a standard run.
    pub fn not_standard(&self) -> Vec<String> {
        let st = &self.settings;
        let mut why = Vec::new();
        if let Some(b) = st.quick {
            why.push(format!("a quick run (--quick, {b:.0} s budget): shorter passes, stopped early"));
        }
        if let Some(d) = st.duration {
            why.push(format!("durations set with -t {d}, with shorter settles"));
        }
        if let Some(n) = st.iterations.filter(|&n| n != 10) {
            why.push(format!("-i {n}: other pass counts than Run's 10 and 3"));
        }
        let mut results = self.runs.iter().flat_map(|cr| &cr.results);
        if let Some(r) = results.find(|r| r.exec_image().is_some_and(ExecImage::is_static)) {
            why.push(format!("{} timed this static binary, not the dynamically linked C program", r.message));
        }
        why
    }

    /// The kind of run, from [`Run::not_standard`]'s reasons.
    pub fn kind(&self) -> RunKind {
        let st = &self.settings;
        if st.quick.is_some() {
            RunKind::Quick
        } else if st.duration.is_some() || st.iterations.is_some_and(|n| n != 10) {
            RunKind::Short
        } else if self.not_standard().is_empty() {
            RunKind::Standard
        } else {
            RunKind::StaticImage
        }
    }
}

/// A whole run: what the text report, the HTML, the log and the JSON describe.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    /// The banner's version string, e.g. `6.0.0-compatible; unixbench 0.1.0`.
    pub version: String,
    /// What the binary that ran was built as (its target and commit).
    pub build: crate::version::Build,
    pub system: SystemInfo,
    pub settings: Settings,
    pub runs: Vec<CopyRun>,
    /// Stopped by SIGINT or SIGTERM before the end.
    pub interrupted: bool,
    /// Saved while the run was still going: the driver rewrites the report after every test, so
    /// a run killed by SIGKILL (which cannot save at the end) leaves a report that says so.
    pub incomplete: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1 s pass of one copy on a 2-CPU host, its copies' CPU `cpu`, the CPUs idle for `idle`.
    fn pass(cpu: f64, idle: f64, foreign: f64) -> Pass {
        let noise = Noise { copies_cpu: cpu, foreign, wall: 1.0, idle, ..Default::default() };
        Pass { count: 1.0, noise: Some(noise), ..Default::default() }
    }

    fn test(passes: Vec<Pass>) -> TestResult {
        TestResult { passes, kept: vec![0], ..Default::default() }
    }

    #[test]
    fn a_pass_whose_cpus_sat_idle_was_stopped_and_one_that_shared_them_was_not() {
        // One copy leaves one CPU of two idle by itself: 1 s idle per second.
        let quiet = test(vec![pass(1.0, 1.0, 0.0), pass(0.99, 1.01, 0.0)]);
        assert_eq!(quiet.disturbance(), None);
        // Stopped for half a pass: half its CPU, the other half idle too.
        let mut t = test(vec![pass(1.0, 1.0, 0.0), pass(0.5, 1.5, 0.0), pass(1.0, 1.0, 0.0)]);
        assert_eq!(t.pass_disturbance(&t.passes[1]), Some(Disturbance::Stopped));
        assert_eq!(t.pass_disturbance(&t.passes[0]), None);
        assert_eq!(t.disturbance(), Some(Disturbance::Stopped));
        // The same half a pass taken by another process: its time, not a stop.
        t.passes[1] = pass(0.5, 1.0, 0.5);
        assert_eq!(t.pass_disturbance(&t.passes[1]), Some(Disturbance::Others));
        assert_eq!(t.disturbance(), Some(Disturbance::Others));
        // A quota's throttling names itself, before the idle time it leaves.
        let mut p = pass(0.5, 1.5, 0.0);
        p.noise.as_mut().unwrap().throttled = Some(0.4);
        let t = test(vec![pass(1.0, 1.0, 0.0), p]);
        assert_eq!(t.disturbance(), Some(Disturbance::Throttled));
        // A stopped pass replaced is judged no more, but still sets what idle is usual.
        let mut t = test(vec![pass(1.0, 1.0, 0.0)]);
        t.replaced.push(Replaced { pass: pass(0.5, 1.5, 0.0), why: Disturbance::Stopped, number: 2 });
        assert_eq!(t.scored_numbers(), [1]);
        assert_eq!(t.disturbance(), None);
        assert_eq!(Disturbance::Others.word(), "other processes");
        // A 1-copy pass beside busy loops on both CPUs leaves none idle: the passes alone,
        // which leave the other CPU idle, are not stopped beside it.
        let mut t = test(vec![pass(1.0, 1.0, 0.0), pass(1.0, 1.0, 0.0)]);
        t.replaced.push(Replaced { pass: pass(0.5, 0.0, 1.5), why: Disturbance::Others, number: 1 });
        assert_eq!(t.pass_disturbance(&t.passes[0]), None);
        assert_eq!(t.disturbance(), None);
    }

    #[test]
    fn steal_and_other_processes_both_past_the_threshold_name_the_larger() {
        // Steal just past 5%, other processes 40 times more: the cause is other processes.
        let mut p = pass(1.0, 0.0, 2.4);
        p.noise.as_mut().unwrap().steal = 0.06;
        assert_eq!(test(vec![p.clone()]).disturbance(), Some(Disturbance::Others));
        // The other way round: steal.
        let n = p.noise.as_mut().unwrap();
        (n.steal, n.foreign) = (0.3, 0.1);
        assert_eq!(test(vec![p]).disturbance(), Some(Disturbance::Steal));
    }

    #[test]
    fn a_cpu_bound_test_stopped_on_its_only_pass_is_stopped() {
        // One copy stopped for 2 s of a 4 s pass on 2 CPUs: 2 s of CPU, 6 s idle.
        let mut p = pass(2.0, 6.0, 0.0);
        let n = p.noise.as_mut().unwrap();
        n.wall = 4.0;
        p.copies = vec![CopyOutcome::default()];
        let mut t = test(vec![p.clone()]);
        assert_eq!(t.disturbance(), None, "a test that may idle by itself is not judged alone");
        t.busy = true;
        assert_eq!(t.disturbance(), Some(Disturbance::Stopped));
        // Its quiet pass: the copy's CPU all of the wall time; more copies than CPUs: none idle.
        let mut q = pass(3.95, 4.05, 0.0);
        q.noise.as_mut().unwrap().wall = 4.0;
        q.copies = p.copies.clone();
        assert_eq!(TestResult { busy: true, ..test(vec![q]) }.disturbance(), None);
        let mut four = pass(8.0, 0.0, 0.0);
        four.noise.as_mut().unwrap().wall = 4.0;
        four.copies = vec![CopyOutcome::default(); 4];
        assert_eq!(TestResult { busy: true, ..test(vec![four]) }.disturbance(), None);
    }
}
