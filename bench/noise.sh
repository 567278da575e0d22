#!/bin/sh
# Reading the host's noise around each pass must move no figure: the driver's scores with the
# reading (the default) and without it (UB_NOISE=off), in alternating rounds.
#
#   sh bench/noise.sh ./unixbench [ROUNDS] [TESTS...]
#
# Each round runs `-c 1 -i 3 -t 5 TESTS` once each way (the order alternates by round) and
# takes every test's score from the report's index block (message, baseline, result, index).
# Prints per test the median score each way, their ratio (with/without), the per-round range,
# and the load average before and after.
set -eu
ub=${1:?usage: noise.sh UNIXBENCH [ROUNDS] [TESTS...]}
rounds=${2:-3}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- dhry2reg syscall pipe context1 spawn execl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/tmp"
one() { # $1: on|off, $2: round, then the tests
    way=$1 round=$2
    shift 2
    UB_NOISE=$way "$ub" -q -c 1 -i 3 -t 5 --no-save --tmpdir "$work/tmp" "$@" |
        awk -v way="$way" -v r="$round" '/BASELINE +RESULT +INDEX/ { on = 1; next }
            on && NF >= 4 && $(NF) ~ /^[0-9.]+$/ && $(NF-1) ~ /^[0-9.]+$/ {
                m = $1; for (i = 2; i <= NF - 3; i++) m = m " " $i; print way "\t" r "\t" m "\t" $(NF-1) }
            /^ +=+$/ { on = 0 }'
}
load0=$(cut -d' ' -f1 /proc/loadavg)
r=1
while [ "$r" -le "$rounds" ]; do
    shift_args="$*"
    if [ $((r % 2)) -eq 1 ]; then
        one on "$r" $shift_args >> "$work/s"; one off "$r" $shift_args >> "$work/s"
    else
        one off "$r" $shift_args >> "$work/s"; one on "$r" $shift_args >> "$work/s"
    fi
    r=$((r + 1))
done
load1=$(cut -d' ' -f1 /proc/loadavg)
sort -t "$(printf '\t')" -k3,3 -k2,2n "$work/s" | awk -F'\t' -v l0="$load0" -v l1="$load1" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    { key = $3; if (!(key in seen)) { seen[key] = 1; order[++k] = key }
      v[key, $1, $2] = $4; if ($2 > rmax) rmax = $2 }
    END { printf "%-40s %14s %14s %7s  %s\n", "test", "with", "without", "ratio", "per round"
        for (i = 1; i <= k; i++) { t = order[i]; n = 0; lo = 1e9; hi = 0
            for (r = 1; r <= rmax; r++) if ((t, "on", r) in v && (t, "off", r) in v) {
                n++; a[n] = v[t, "on", r]; b[n] = v[t, "off", r]; q = a[n] / b[n]
                if (q < lo) lo = q; if (q > hi) hi = q }
            if (n == 0) continue
            ma = median(a, n); mb = median(b, n)
            printf "%-40s %14.1f %14.1f %7.3f  %.3f-%.3f\n", t, ma, mb, ma / mb, lo, hi }
        printf "load %s -> %s\n", l0, l1 }'
