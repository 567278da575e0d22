#!/bin/sh
# Power and false alarms of `compare`, with real differences planted: quick runs of arm a (one
# CPU, no quota) and of one arm per quota (the same CPU under a CPU quota of Q% of it, as a
# container's `--cpus=0.9`), taking turns, then every pair of runs through `unixbench compare`.
#
#   sh bench/quota.sh UNIXBENCH [RUNS [TESTS...]]        (as root: it makes cgroups)
#
# Defaults: 4 runs of each arm, of the index. Environment:
#   QUOTAS="90 95"  the quotas in percent of one CPU, an arm each (default 90)
#   CPU=N           the CPU every arm is pinned to (default 1)
#   COPIES=N        copies (default 1); QUICK_ARGS the runs' budget (default --quick)
#   KEEP=DIR        keep every run's results (DIR/ARM-N) and the compare TSVs
#   REUSE=1         with KEEP: run nothing, judge the runs kept there again (with this
#                   UNIXBENCH's statistics: each run is read from its report and log)
#
# The quotas are set through cgroup v2's cpu.max where the cpu controller is there, else
# cgroup v1's cpu.cfs_quota_us; the first line says which.
#
# It prints, for the index: the share of identical pairs (two runs of one arm) marked
# different; per quota arm, the share of its pairs with arm a marked, the median ratio and the
# median smallest detectable difference compare stated; and per run its index interval's
# half-width beside what its arm's spread calls for (t·s·√(1 + 1/n) over the arm's runs: a
# new run's 95% range) and whether it holds the arm's median.
set -eu
ub=${1:?usage: quota.sh UNIXBENCH [RUNS [TESTS...]]}
n=${2:-4}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- index
tests=$*
quotas=${QUOTAS:-90}
cpu=${CPU:-1}
copies=${COPIES:-1}
quick=${QUICK_ARGS:---quick}
case $ub in /*) ;; *) ub=$(pwd)/$ub ;; esac
if [ -n "${KEEP:-}" ]; then
    work=$KEEP
    mkdir -p "$work"
else
    work=$(mktemp -d)
fi
mkdir -p "$work/tmp"

. "$(dirname "$0")/quota-groups.sh"
# shellcheck disable=SC2086 # the quotas are words
quota_groups ub-quota-$$ $quotas
arms=a
for q in $quotas; do arms="$arms b$q"; done
echo "cgroup v$v: arms $arms, each pinned to CPU $cpu, $n runs each, $copies copy, $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
cleanup() {
    # shellcheck disable=SC2086
    remove_quota_groups ub-quota-$$ $quotas
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM

# Run $2 of arm $1.
one() {
    arm=$1 i=$2
    shift 2
    set -- taskset -c "$cpu" "$ub" -q -c "$copies" "$quick" --tmpdir "$work/tmp" --results "$work/$arm-$i" --json "$@"
    case $arm in
        a) "$@" > /dev/null ;;
        *) sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$root/ub-quota-$$-${arm#b}" "$@" > /dev/null ;;
    esac
    echo "$(date -u +%H:%M:%S) $arm-$i done" >&2
}

# Each round of runs in another order (the arms rotated), so that no arm always follows another.
i=1
[ "${REUSE:-0}" = 1 ] && i=$((n + 1))
while [ "$i" -le "$n" ]; do
    set -- $arms
    k=1
    while [ "$k" -lt "$i" ]; do first=$1; shift; set -- "$@" "$first"; k=$((k + 1)); done
    # shellcheck disable=SC2086 # the tests are words
    for arm in "$@"; do one "$arm" "$i" $tests; done
    i=$((i + 1))
done

# A run's text report, which compare reads with its log beside it: the passes scored again by
# this binary's statistics, as the run's JSON would give them.
report() { ls "$work/$1"/* | grep -v '\.[a-z]*$' | head -1; }
# The index row of `compare X Y --format tsv`: Y's ratio to X, the mark, the detectable difference.
pair() {
    "$ub" compare --format tsv "$(report "$1")" "$(report "$2")" > "$work/cmp-$1-$2.tsv"
    awk -F'\t' -v c="$copies" '$1 == c && $2 == "System Benchmarks Index Score" && $3 == 2 {
        print $8 / 100, $15, $14 }' "$work/cmp-$1-$2.tsv"
}
: > "$work/same"
for x in $arms; do
    i=1
    while [ "$i" -le "$n" ]; do
        j=$((i + 1))
        while [ "$j" -le "$n" ]; do pair "$x-$i" "$x-$j" >> "$work/same"; j=$((j + 1)); done
        i=$((i + 1))
    done
done
awk '{ m += ($2 == "yes") } END { printf "identical pairs marked different: %d of %d\n", m, NR }' "$work/same"
for q in $quotas; do
    : > "$work/apart-$q"
    i=1
    while [ "$i" -le "$n" ]; do
        j=1
        while [ "$j" -le "$n" ]; do pair "a-$i" "b$q-$j" >> "$work/apart-$q"; j=$((j + 1)); done
        i=$((i + 1))
    done
    m=$(awk '$2 == "yes"' "$work/apart-$q" | wc -l)
    r=$(sort -n "$work/apart-$q" | awk '{ r[NR] = $1 } END { printf "%.3f", r[int((NR + 1) / 2)] }')
    d=$(sort -k3 -n "$work/apart-$q" | awk '{ d[NR] = $3 } END { printf "%.1f", d[int((NR + 1) / 2)] }')
    echo "quota $q%: a against b$q marked in $m of $((n * n)) pairs; median ratio $r; median detectable difference stated $d%"
done

# Each run's index and interval (its report and log, as compare reads them), against its arm's
# spread and median.
for x in $arms; do
    i=1
    while [ "$i" -le "$n" ]; do
        r=$(report "$x-$i")
        "$ub" compare --format tsv "$r" "$r" | awk -F'\t' -v c="$copies" -v a="$x" -v i="$i" \
            '$1 == c && $2 == "System Benchmarks Index Score" && $3 == 1 { print a, i, $5, $6, $7 }'
        i=$((i + 1))
    done
done > "$work/runs"
awk '
    { arm[NR] = $1; idx[NR] = $2; s[NR] = $3; lo[NR] = $4; hi[NR] = $5; n[$1]++; l = log($3); sum[$1] += l; sq[$1] += l * l }
    END {
        t[2] = 12.706; t[3] = 4.303; t[4] = 3.182; t[5] = 2.776; t[6] = 2.571; t[7] = 2.447; t[8] = 2.365; t[9] = 2.306; t[10] = 2.262
        for (a in n) { m = sum[a] / n[a]; var = (sq[a] - n[a] * m * m) / (n[a] - 1); sd[a] = sqrt(var > 0 ? var : 0)
            tt = (n[a] in t) ? t[n[a]] : 2.0; calls[a] = 100 * (exp(tt * sd[a] * sqrt(1 + 1 / n[a])) - 1) }
        for (k = 1; k <= NR; k++) {
            a = arm[k]; j = 0
            for (q = 1; q <= NR; q++) if (arm[q] == a) v[++j] = s[q]
            for (p = 1; p <= j; p++) for (q = p + 1; q <= j; q++) if (v[q] < v[p]) { x = v[p]; v[p] = v[q]; v[q] = x }
            med = (j % 2) ? v[(j + 1) / 2] : sqrt(v[j / 2] * v[j / 2 + 1])
            half = 100 * (sqrt(hi[k] / lo[k]) - 1); holds = (lo[k] <= med && med <= hi[k])
            held += holds; wide += (half <= 2 * calls[a])
            printf "  %s-%s: index %.1f, interval +-%.1f%%, its arm calls for +-%.1f%%, holds the arm median: %s\n",
                a, idx[k], s[k], half, calls[a], holds ? "yes" : "no"
        }
        printf "intervals holding their arm median: %d of %d; at most twice the width the arm calls for: %d of %d\n", held, NR, wide, NR
    }' "$work/runs"
