#!/bin/sh
# The --dry-run estimate against the real wall time of three plans: a short run of the whole
# index (-t 1 -i 1), a quick run (--quick), a quick run of two tests at the smallest budget
# (three passes each) and a standard plan of two tests. Prints, per plan,
# the estimate, the measured time and their ratio, and the load average before and after.
#
#   sh bench/estimate.sh ./unixbench [COPIES]
set -eu
ub=${1:?usage: estimate.sh UNIXBENCH [COPIES]}
copies=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/tmp"
secs() {
    # "Estimated time: 4 min (262 s)" -> 262
    sed -n 's/^Estimated time: .*(\([0-9]*\) s)$/\1/p'
}
printf '%-28s %10s %10s %7s  %s\n' plan estimate measured ratio load
for plan in "-t 1 -i 1" "--quick" "--quick=7 syscall pipe" "pipe syscall"; do
    # shellcheck disable=SC2086
    est=$("$ub" -n -c "$copies" $plan | secs)
    load0=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$ub" -q -c "$copies" $plan --no-save --tmpdir "$work/tmp" > /dev/null
    t1=$(date +%s.%N)
    load1=$(cut -d' ' -f1 /proc/loadavg)
    awk -v p="$plan" -v e="$est" -v a="$t0" -v b="$t1" -v l0="$load0" -v l1="$load1" \
        'BEGIN { m = b - a; printf "%-28s %9.0fs %9.1fs %7.3f  %s -> %s\n", p, e, m, m / e, l0, l1 }'
done
