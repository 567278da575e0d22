//! How many CPUs this process may really use: the default copy count of the N-copy pass.
//!
//! Run counted the CPUs in /proc/cpuinfo; the affinity mask is better, but a container limited
//! by a CPU quota (Docker `--cpus`, Kubernetes limits) still sees every host CPU there, and N
//! copies throttled to a quota measure the throttling. The limit is the tightest of:
//! - the affinity mask (`sched_getaffinity`), intersected with
//! - the cgroup's effective cpuset (v2 `cpuset.cpus.effective`, v1 `cpuset.effective_cpus`, or
//!   `cpuset.cpus` on kernels without it), and
//! - the cgroup CPU quota, rounded up (v2 `cpu.max`, v1 `cpu.cfs_quota_us`/`cpu.cfs_period_us`),
//!   the smallest of the group's and every ancestor's up to the hierarchy's root.
//!
//! Everything is read through [`Roots`], so tests hand the reader fixture trees of v1 and v2
//! layouts; a file that is missing or unreadable is no limit (no /proc in a chroot: affinity).
//!
//! What it finds is plain data of the run model (`model::CpuLimit`), which the exporters print.

use crate::model::{cpus_text, CpuLimit, LimitedBy};
use std::path::{Path, PathBuf};

/// Where the reader finds /proc and /sys.
pub struct Roots<'a> {
    pub proc: &'a Path,
    pub sys: &'a Path,
}

/// A quota found in one group: `quota / period` CPUs.
struct Quota {
    quota: u64,
    period: u64,
    what: String,
}

impl Quota {
    /// Whether this quota allows fewer CPUs than `than` (any, when there is none).
    fn tighter(&self, than: &Option<Quota>) -> bool {
        than.as_ref().map_or(true, |t| {
            u128::from(self.quota) * u128::from(t.period) < u128::from(t.quota) * u128::from(self.period)
        })
    }
}

/// The limit for this process. `affinity` is the affinity mask's CPUs (None if unknown).
pub fn detect(roots: &Roots, affinity: Option<&[usize]>) -> Option<CpuLimit> {
    let cgroups = crate::sys::fd::host_text(&roots.proc.join("self/cgroup")).unwrap_or_default();
    let mounts = crate::sys::fd::host_text(&roots.proc.join("self/mountinfo")).unwrap_or_default();
    let mounts = parse_mountinfo(&mounts);
    let mut cpuset: Option<(Vec<usize>, String, bool)> = None;
    let mut quota: Option<Quota> = None;
    for (version, controllers, path) in cgroups.lines().filter_map(cgroup_line) {
        for m in &mounts {
            let (dir, rel) = match m.joins(version, controllers, path) {
                Some(x) => x,
                None => continue,
            };
            let dir = roots.remap(&dir);
            if let Some(found) = group_cpuset(&dir, &rel, version) {
                if cpuset.as_ref().map_or(true, |c| found.0.len() < c.0.len()) {
                    cpuset = Some(found);
                }
            }
            if let Some(q) = group_quota(&dir, &rel, version).filter(|q| q.tighter(&quota)) {
                quota = Some(q);
            }
        }
    }
    decide(affinity, cpuset, quota)
}

/// The tightest of the three. A cpuset decides when the mask holds CPUs outside it, or when it
/// narrows the CPUs (smaller than its hierarchy root's) and the mask is exactly it; a quota
/// when it is tighter still.
fn decide(
    affinity: Option<&[usize]>,
    cpuset: Option<(Vec<usize>, String, bool)>,
    quota: Option<Quota>,
) -> Option<CpuLimit> {
    let mut best: Option<CpuLimit> = affinity.filter(|a| !a.is_empty()).map(|a| CpuLimit {
        cpus: a.len(),
        by: LimitedBy::Affinity,
        detail: format!("{} in the affinity mask", cpus_text(a.len())),
    });
    if let Some((set, what, narrowed)) = cpuset {
        // A mask equal to a narrowed cpuset is the cpuset's doing (the kernel sets it so).
        let mask_is_set = narrowed && affinity == Some(&set[..]);
        let mut both = set;
        if let Some(a) = affinity.filter(|a| !a.is_empty()) {
            both.retain(|c| a.contains(c));
        }
        let tighter = best.as_ref().map_or(true, |b| both.len() < b.cpus || mask_is_set);
        if !both.is_empty() && tighter {
            best = Some(CpuLimit { cpus: both.len(), by: LimitedBy::Cpuset, detail: what });
        }
    }
    if let Some(q) = quota {
        let cpus = q.quota.div_ceil(q.period).max(1) as usize;
        if best.as_ref().map_or(true, |b| cpus < b.cpus) {
            let detail = format!("{} ({:.2} CPUs)", q.what, q.quota as f64 / q.period as f64);
            best = Some(CpuLimit { cpus, by: LimitedBy::Quota, detail });
        }
    }
    best
}

/// A line of /proc/self/cgroup: (2 for the unified hierarchy else 1, controllers, path).
fn cgroup_line(line: &str) -> Option<(u8, &str, &str)> {
    let (id, rest) = line.split_once(':')?;
    let (controllers, path) = rest.split_once(':')?;
    let version = if id == "0" && controllers.is_empty() { 2 } else { 1 };
    Some((version, controllers, path))
}

/// A cgroup file system of /proc/self/mountinfo.
#[derive(Debug, PartialEq)]
struct Mount {
    version: u8,
    /// The group mounted there (not `/` when a container sees a bind mount of its own group).
    root: String,
    point: String,
    /// v1: the super options (the controllers among them).
    options: String,
}

impl Mount {
    /// The mount's directory and the group's path below it, when the mount holds the group of
    /// the /proc/self/cgroup line (`version`, `controllers`, `path`).
    fn joins(&self, version: u8, controllers: &str, path: &str) -> Option<(String, String)> {
        if self.version != version {
            return None;
        }
        if version == 1 {
            let has = |c: &str| self.options.split(',').any(|o| o == c);
            let wanted = controllers.split(',').any(|c| (c == "cpu" || c == "cpuset") && has(c));
            if !wanted {
                return None;
            }
        }
        // A path outside the mount's root (a cgroup namespace shows `/..`) reads the mount's top.
        let root = self.root.trim_end_matches('/');
        let rel = match path.strip_prefix(root) {
            Some(r) if r.is_empty() || r.starts_with('/') => r,
            _ if root.is_empty() => path,
            _ => "",
        };
        let rel = if rel.split('/').any(|p| p == "..") { "" } else { rel };
        Some((self.point.clone(), rel.trim_start_matches('/').to_string()))
    }
}

/// The cgroup and cgroup2 mounts of a mountinfo text (`id parent dev root point opts [tags] -
/// fstype source superopts`, spaces in paths escaped as `\040`).
fn parse_mountinfo(text: &str) -> Vec<Mount> {
    let mut mounts = Vec::new();
    for l in text.lines() {
        mounts.extend(mount(l));
    }
    mounts
}

/// One line of mountinfo, if it is a cgroup or cgroup2 mount.
fn mount(l: &str) -> Option<Mount> {
    // Paths have their spaces escaped: the fields are the words, the optional ones ended by `-`.
    let mut w = l.split(' ');
    let root = unescape(w.nth(3)?);
    let point = unescape(w.next()?);
    let mut t = w.skip_while(|&f| f != "-").skip(1);
    let version = match t.next()? {
        "cgroup2" => 2,
        "cgroup" => 1,
        _ => return None,
    };
    let options = t.nth(1).unwrap_or("").to_string();
    Some(Mount { version, root, point, options })
}

fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let oct =
            b.get(i + 1..i + 4).filter(|d| b[i] == b'\\' && d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match oct {
            Some(d) => {
                out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
                i += 4;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

impl Roots<'_> {
    /// A mount point read under these roots: `/sys/...` under `sys`, `/proc/...` under `proc`.
    fn remap(&self, point: &str) -> PathBuf {
        if let Some(rest) = point.strip_prefix("/sys/").or((point == "/sys").then_some("")) {
            self.sys.join(rest)
        } else if let Some(rest) = point.strip_prefix("/proc/") {
            self.proc.join(rest)
        } else {
            PathBuf::from(point)
        }
    }
}

/// The groups from `rel` up to the mount's top, innermost first.
fn ancestors(dir: &Path, rel: &str) -> Vec<(PathBuf, String)> {
    let mut v = Vec::new();
    let mut rel = rel.trim_matches('/').to_string();
    loop {
        v.push((dir.join(&rel), format!("/{rel}")));
        match rel.rfind('/') {
            Some(at) => rel.truncate(at),
            None if !rel.is_empty() => rel.clear(),
            None => break,
        }
    }
    v
}

fn read(p: &Path) -> Option<String> {
    crate::sys::fd::host_text(p).map(|s| s.trim().to_string())
}

/// The innermost cpuset file of the group's line of ancestors, what it was, and whether it is
/// narrower than the hierarchy root's.
fn group_cpuset(dir: &Path, rel: &str, version: u8) -> Option<(Vec<usize>, String, bool)> {
    let names: &[&str] =
        if version == 2 { &["cpuset.cpus.effective"] } else { &["cpuset.effective_cpus", "cpuset.cpus"] };
    let find = |g: &Path| names.iter().find_map(|n| Some((*n, parse_cpu_list(&read(&g.join(n))?)?)));
    let groups = ancestors(dir, rel);
    let (at, (name, set)) = groups.iter().find_map(|(g, r)| Some((r, find(g)?)))?;
    let top = find(&groups.last()?.0).map(|(_, s)| s);
    let narrowed = top.is_some_and(|t| set.len() < t.len());
    Some((set.clone(), format!("{name} {} in {at}", list_text(&set)), narrowed))
}

/// The tightest quota of the group's line of ancestors.
fn group_quota(dir: &Path, rel: &str, version: u8) -> Option<Quota> {
    let mut best: Option<Quota> = None;
    for (g, at) in ancestors(dir, rel) {
        let q = if version == 2 {
            read(&g.join("cpu.max")).and_then(|t| {
                let (q, p) = t.split_once(' ')?;
                Some((q.parse().ok()?, p.parse().ok()?, format!("cpu.max {t} in {at}")))
            })
        } else {
            let q: Option<i64> = read(&g.join("cpu.cfs_quota_us")).and_then(|t| t.parse().ok());
            let p: Option<u64> = read(&g.join("cpu.cfs_period_us")).and_then(|t| t.parse().ok());
            match (q, p) {
                (Some(q), Some(p)) if q > 0 => {
                    Some((q as u64, p, format!("cpu.cfs_quota_us {q} per cpu.cfs_period_us {p} in {at}")))
                }
                _ => None,
            }
        };
        if let Some((quota, period, what)) = q.filter(|&(q, p, _)| q > 0 && p > 0) {
            let q = Quota { quota, period, what };
            if q.tighter(&best) {
                best = Some(q);
            }
        }
    }
    best
}

/// A kernel CPU list (`0-3,8,10-11`); None if malformed. An empty list is an empty set.
pub fn parse_cpu_list(text: &str) -> Option<Vec<usize>> {
    let mut v = Vec::new();
    for part in text.trim().split(',').filter(|p| !p.is_empty()) {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        if b < a || b - a > 1 << 16 {
            return None;
        }
        v.extend(a..=b);
    }
    Some(v)
}

/// A CPU set as the kernel writes it: `0-3,8`.
fn list_text(set: &[usize]) -> String {
    let mut s = String::new();
    let mut i = 0;
    while i < set.len() {
        let mut j = i;
        while j + 1 < set.len() && set[j + 1] == set[j] + 1 {
            j += 1;
        }
        if !s.is_empty() {
            s.push(',');
        }
        s += &if j > i { format!("{}-{}", set[i], set[j]) } else { set[i].to_string() };
        i = j + 1;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixture tree: `files` are (path under the tree, contents).
    struct Tree(PathBuf);
    impl Tree {
        fn new(tag: &str, files: &[(&str, &str)]) -> Tree {
            let p = std::env::temp_dir().join(format!("ub-cpulimit-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&p);
            for (f, text) in files {
                let path = p.join(f);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, text).unwrap();
            }
            Tree(p)
        }
        fn limit(&self, affinity: &[usize]) -> Option<CpuLimit> {
            let (proc, sys) = (self.0.join("proc"), self.0.join("sys"));
            detect(&Roots { proc: &proc, sys: &sys }, Some(affinity))
        }
    }
    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    const V2_MOUNT: &str = "30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n";
    const FOUR: [usize; 4] = [0, 1, 2, 3];

    #[test]
    fn cpu_lists_parse_as_the_kernel_writes_them() {
        assert_eq!(parse_cpu_list("0-3,8,10-11\n"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_cpu_list(""), Some(vec![]));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list("x"), None);
        assert_eq!(list_text(&[0, 1, 2, 3, 8, 10, 11]), "0-3,8,10-11");
    }

    #[test]
    fn v2_nested_quotas_take_the_tightest_rounded_up() {
        let t = Tree::new(
            "v2q",
            &[
                ("proc/self/cgroup", "0::/kube/pod/c1\n"),
                ("proc/self/mountinfo", V2_MOUNT),
                ("sys/fs/cgroup/cpu.max", "max 100000\n"),
                ("sys/fs/cgroup/kube/cpu.max", "max 100000\n"),
                ("sys/fs/cgroup/kube/pod/cpu.max", "150000 100000\n"),
                ("sys/fs/cgroup/kube/pod/c1/cpu.max", "300000 100000\n"),
            ],
        );
        let l = t.limit(&FOUR).unwrap();
        assert_eq!((l.cpus, l.by), (2, LimitedBy::Quota));
        assert_eq!(l.detail, "cpu.max 150000 100000 in /kube/pod (1.50 CPUs)");
        // A quota wider than the CPUs leaves them in charge.
        assert_eq!(t.limit(&[0]).unwrap().by, LimitedBy::Affinity);
    }

    #[test]
    fn v2_effective_cpuset_of_the_nearest_group_that_has_one() {
        let t = Tree::new(
            "v2s",
            &[
                ("proc/self/cgroup", "0::/box/inner\n"),
                ("proc/self/mountinfo", V2_MOUNT),
                ("sys/fs/cgroup/cpuset.cpus.effective", "0-3\n"),
                ("sys/fs/cgroup/box/cpuset.cpus.effective", "1,3\n"),
                ("sys/fs/cgroup/box/cpu.max", "max 100000\n"),
            ],
        );
        let l = t.limit(&FOUR).unwrap();
        assert_eq!(
            (l.cpus, l.by, l.detail.as_str()),
            (2, LimitedBy::Cpuset, "cpuset.cpus.effective 1,3 in /box")
        );
        // Intersected with the affinity mask.
        assert_eq!(t.limit(&[0, 1]).unwrap().cpus, 1);
        // The mask alone narrower than the cpuset: the mask decided.
        let l = t.limit(&[3]).unwrap();
        assert_eq!((l.cpus, l.by), (1, LimitedBy::Affinity));
    }

    #[test]
    fn no_limit_is_the_affinity_mask() {
        let t = Tree::new(
            "none",
            &[
                ("proc/self/cgroup", "0::/\n"),
                ("proc/self/mountinfo", V2_MOUNT),
                ("sys/fs/cgroup/cpuset.cpus.effective", "0-3\n"),
            ],
        );
        let l = t.limit(&FOUR).unwrap();
        assert_eq!(
            (l.cpus, l.by, l.detail.as_str()),
            (4, LimitedBy::Affinity, "4 CPUs in the affinity mask")
        );
        // No /proc at all (a bare chroot): still the mask.
        let bare = Tree::new("bare", &[]);
        assert_eq!(bare.limit(&FOUR).unwrap().by, LimitedBy::Affinity);
    }

    #[test]
    fn v1_quota_and_cpuset_walk_up_and_follow_the_mount_root() {
        // A container that sees its own group bind-mounted at the top of each hierarchy.
        let mounts = "32 31 0:29 /docker/ab /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n\
                      34 31 0:31 /docker/ab /sys/fs/cgroup/cpuset rw - cgroup cgroup rw,cpuset\n\
                      35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
        let t = Tree::new(
            "v1",
            &[
                (
                    "proc/self/cgroup",
                    "4:memory:/docker/ab\n3:cpuset:/docker/ab/x\n2:cpu,cpuacct:/docker/ab/x\n",
                ),
                ("proc/self/mountinfo", mounts),
                ("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "250000\n"),
                ("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n"),
                ("sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_quota_us", "-1\n"),
                ("sys/fs/cgroup/cpu,cpuacct/x/cpu.cfs_period_us", "100000\n"),
                ("sys/fs/cgroup/cpuset/cpuset.cpus", "0-3\n"),
                ("sys/fs/cgroup/cpuset/x/cpuset.cpus", "0-2\n"),
            ],
        );
        let l = t.limit(&FOUR).unwrap();
        assert_eq!((l.cpus, l.by), (3, LimitedBy::Cpuset), "{l:?}");
        assert_eq!(l.detail, "cpuset.cpus 0-2 in /x");
        let l = t.limit(&[0, 1, 2]).unwrap();
        assert_eq!((l.cpus, l.by), (3, LimitedBy::Cpuset), "the cpuset made the mask: it decided");
        std::fs::write(t.0.join("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us"), "150000\n").unwrap();
        let l = t.limit(&FOUR).unwrap();
        assert_eq!((l.cpus, l.by), (2, LimitedBy::Quota));
        assert_eq!(l.detail, "cpu.cfs_quota_us 150000 per cpu.cfs_period_us 100000 in / (1.50 CPUs)");
    }

    #[test]
    fn mountinfo_escapes_and_namespaced_paths() {
        let m = parse_mountinfo("1 2 0:3 / /sys/fs/my\\040cg rw shared:1 - cgroup2 none rw\n");
        assert_eq!(m[0].point, "/sys/fs/my cg");
        assert_eq!(m[0].joins(2, "", "/../../a").unwrap().1, "");
        assert_eq!(m[0].joins(1, "cpu", "/a"), None);
    }
}
