//! The Ansible playbook (contrib/ansible/) for real: two inventory hosts that are this machine
//! through the local connection, each with its own working folder, a short run on each, every
//! host's results fetched into one folder, and the closing `compare --hosts` table. `make test`
//! installs ansible-core from PyPI into a local virtualenv and passes its ansible-playbook in
//! UNIXBENCH_ANSIBLE_PLAYBOOK; without it, or without the static binary, this says it skipped.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn the_playbook_runs_two_hosts_fetches_their_results_and_compares_them() {
    let Some(playbook) = std::env::var_os("UNIXBENCH_ANSIBLE_PLAYBOOK").map(PathBuf::from) else {
        return skip("rig ansible", "UNIXBENCH_ANSIBLE_PLAYBOOK not set (make test sets it)");
    };
    if std::env::var_os("UNIXBENCH_BIN").is_none() {
        return skip("rig ansible", "needs the static binary (UNIXBENCH_BIN)");
    }
    let s = Scratch::new("fleet");
    let at = |p: &str| s.path().join(p);
    // The playbook picks the binary by file name: this machine's is `unixbench`.
    std::fs::create_dir(at("bin")).unwrap();
    std::fs::copy(bin(), at("bin/unixbench")).unwrap();
    let inventory = format!(
        "[bench]\nhost-a ansible_connection=local unixbench_remote_dir={a}\n\
         host-b ansible_connection=local unixbench_remote_dir={b}\n\n\
         [all:vars]\nansible_python_interpreter=/usr/bin/python3\n",
        a = at("a").display(),
        b = at("b").display()
    );
    std::fs::write(at("inventory"), inventory).unwrap();
    let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("contrib/ansible/unixbench.yml");
    let o = run(Command::new(&playbook)
        .arg("-i")
        .arg(at("inventory"))
        .arg(&book)
        .args(["-e", "unixbench_args='-q -t 1 -i 1 -c 1 syscall pipe'", "-e", "unixbench_poll=1"])
        .arg("-e")
        .arg(format!("unixbench_results={}", at("fleet").display()))
        .arg("-e")
        .arg(format!("unixbench_bin_dir={}", at("bin").display()))
        .env("ANSIBLE_HOME", at("ansible-home"))
        .env("ANSIBLE_LOCAL_TEMP", at("ansible-tmp"))
        .env("ANSIBLE_NOCOLOR", "1")
        .current_dir(s.path()));
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    for h in ["host-a", "host-b"] {
        let files: Vec<_> =
            std::fs::read_dir(at("fleet").join(h)).unwrap().map(|e| e.unwrap().path()).collect();
        assert_eq!(files.len(), 1, "{h}: {files:?}");
        let json = std::fs::read_to_string(&files[0]).unwrap();
        assert!(json.contains("\"System Call Overhead\""), "{json}");
    }
    let table = std::fs::read_to_string(at("fleet/compare.txt")).unwrap();
    let lines: Vec<&str> = table.lines().collect();
    assert_eq!(
        lines[0], "Hosts compared: 2, by System Benchmarks Index Score at 1 copy, highest first",
        "{table}"
    );
    assert!(lines[2].starts_with("#  host  machine  CPUs  kernel"), "{table}");
    let rows: Vec<&str> = lines.iter().copied().filter(|l| l.contains("/fleet/host-")).collect();
    assert_eq!(rows.len(), 2, "{table}");
    assert!(rows[0].starts_with("1  ") && rows[1].starts_with("2  "), "{table}");
    // The 1-copy index, the sort's key: before the N-copy column (`---`, or the index and its
    // copy count in parentheses), the kind of run and the file; `d` marks a disturbed one.
    let index = |row: &str| -> f64 {
        let w: Vec<&str> = row.split_whitespace().rev().skip(2).collect();
        let one = if w[0].starts_with('(') { w[2] } else { w[1] };
        one.trim_end_matches('d').parse().unwrap()
    };
    assert!(index(rows[0]) >= index(rows[1]), "sorted by index, highest first:\n{table}");
    // The table is shown in the play's output too.
    assert!(stdout(&o).contains("Hosts compared: 2"), "{}", stdout(&o));
}
