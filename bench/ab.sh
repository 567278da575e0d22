#!/bin/sh
# `unixbench ab`'s false alarms and power on this host, with real differences planted: RUNS ab
# runs with identical arms (both pinned to one CPU), then RUNS ab runs per quota Q in QUOTAS
# with arm B under a CPU quota of Q% of that CPU (as a container's `--cpus=0.9`), all in turn;
# with CDIR set, one ab run of this binary against a built C UnixBench directory's programs.
#
#   sh bench/ab.sh UNIXBENCH [RUNS [TESTS...]]        (as root: it makes cgroups)
#
# Defaults: 10 runs of each arm, of the index. Environment:
#   QUOTAS="90 95"  the quotas in percent of one CPU, a set of runs each (default "90 95")
#   CPU=N           the CPU both arms are pinned to (default 1)
#   COPIES=N        copies (default 1); AB_ARGS more of ab's options (e.g. --quick=240)
#   CDIR=DIR        a built C UnixBench directory (its Run, pgms/, testdir/): one run against it
#   KEEP=DIR        keep every run's TSV and JSON there
#
# The quotas are set through cgroup v2's cpu.max where the cpu controller is there, else
# cgroup v1's cpu.cfs_quota_us; the first line says which.
#
# It prints, per set: the runs whose index ratio was marked, the median index ratio, the median
# half-width of its interval, the median smallest detectable difference, the median rounds and
# seconds; then, per test, in how many runs its ratio was marked in each set.
set -eu
ub=${1:?usage: ab.sh UNIXBENCH [RUNS [TESTS...]]}
n=${2:-10}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- index
tests=$*
quotas=${QUOTAS:-90 95}
cpu=${CPU:-1}
copies=${COPIES:-1}
extra=${AB_ARGS:-}
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
quota_groups ub-ab-$$ $quotas
sets=same
for q in $quotas; do
    # The wrapper of arm B: into the quota's group, then the copy's own command.
    printf '#!/bin/sh\necho $$ > %s/cgroup.procs && exec "$@"\n' "$root/ub-ab-$$-$q" > "$work/quota-$q"
    chmod +x "$work/quota-$q"
    sets="$sets q$q"
done
echo "cgroup v$v: sets $sets, both arms pinned to CPU $cpu, $n runs each, $copies copy, tests: $tests;" \
    "$(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg)"
cleanup() {
    # shellcheck disable=SC2086
    remove_quota_groups ub-ab-$$ $quotas
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT INT TERM

# Run $2 of set $1: its TSV, and its seconds in $work/secs.
one() {
    set_=$1 i=$2
    case $set_ in
        same) b="taskset -c $cpu" ;;
        q*) b="$work/quota-${set_#q} taskset -c $cpu" ;;
    esac
    t0=$(date +%s)
    # shellcheck disable=SC2086 # the tests and extra options are words
    "$ub" ab -q -c "$copies" --tmpdir "$work/tmp" --a-wrap "taskset -c $cpu" --b-wrap "$b" $extra \
        --format tsv --json="$work/$set_-$i.json" $tests > "$work/$set_-$i.tsv"
    echo "$set_ $i $(($(date +%s) - t0))" >> "$work/secs"
    echo "$(date -u +%H:%M:%S) $set_-$i done" >&2
}

: > "$work/secs"
i=1
while [ "$i" -le "$n" ]; do
    # shellcheck disable=SC2086
    for s in $sets; do one "$s" "$i"; done
    i=$((i + 1))
done

# Medians of column $2 of the index rows of set $1's TSVs.
median() {
    for f in "$work/$1"-*.tsv; do awk -F'\t' -v c="$copies" '$1 == c && $2 == "index:system"' "$f"; done |
        awk -F'\t' -v k="$2" '{ print $k }' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
for s in $sets; do
    marked=$(cat "$work/$s"-*.tsv | awk -F'\t' -v c="$copies" '$1 == c && $2 == "index:system" && $9 == "yes"' | wc -l)
    half=$(for f in "$work/$s"-*.tsv; do awk -F'\t' -v c="$copies" '$1 == c && $2 == "index:system" {
        printf "%.2f\n", 100 * ($8 - $7) / 2 / $6 }' "$f"; done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    secs=$(awk -v s="$s" '$1 == s { print $3 }' "$work/secs" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    echo "$s: index marked in $marked of $n runs; median ratio $(median "$s" 6), +-$half%," \
        "detectable $(median "$s" 10)%, $(median "$s" 11) rounds, $secs s"
done
printf '%-44s' "test: runs marked in"
for s in $sets; do printf '%8s' "$s"; done
echo
cat "$work/same-1.tsv" | awk -F'\t' -v c="$copies" 'NR > 1 && $1 == c { print $2 "\t" $3 }' | while IFS='	' read -r t title; do
    printf '%-44s' "$title"
    for s in $sets; do
        printf '%8s' "$(cat "$work/$s"-*.tsv | awk -F'\t' -v c="$copies" -v t="$t" '$1 == c && $2 == t && $9 == "yes"' | wc -l)"
    done
    echo
done

if [ -n "${CDIR:-}" ]; then
    echo "against C UnixBench's programs in $CDIR, $(date -u +%H:%M) UTC, load $(cut -d' ' -f1-3 /proc/loadavg):"
    # shellcheck disable=SC2086
    "$ub" ab -q -c "$copies" --tmpdir "$work/tmp" --a-wrap "taskset -c $cpu" --b-wrap "taskset -c $cpu" \
        --b-bin "$CDIR" $extra --json="$work/c.json" $tests
fi
