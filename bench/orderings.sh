#!/bin/sh
# The orderings of speed the CPU kernels' loops imply, measured (the tests check only what the
# kernels print, never how fast they run):
#   - every arith variant is slower than arithoh, the bare loop (each adds 100 divisions a loop);
#   - Hanoi with 3 disks loops faster than with its default 10 (7 moves a loop against 1023);
#   - Dhrystone does over 1000 loops a second, even in a debug build.
#
#   sh bench/orderings.sh UB [SECONDS [ROUNDS]]
#
# UB is our binary (a debug build too). Each kernel runs alone for SECONDS (default 2), ROUNDS
# times (default 3), the kernels in turn within a round. Prints per kernel the median loops per
# second and the per-round range, the load average before and after, then each ordering with
# the medians it compared and whether it held. Exits 0 either way: this is a measurement.
#
# POSIX sh and awk.

set -eu
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: sh bench/orderings.sh UB [SECONDS [ROUNDS]]" >&2; exit 2; }
ub=$1
secs=${2:-2}
rounds=${3:-3}
work=$(mktemp -d "${TMPDIR:-/tmp}/orderings.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
# Each kernel as LABEL:PROGRAM[:ARGUMENT], the argument after the duration.
kernels="arithoh:arithoh register:register short:short int:int long:long float:float double:double
hanoi-10:hanoi hanoi-3:hanoi:3 dhry2reg:dhry2reg dhry2:dhry2"
load0=$(cut -d' ' -f1 /proc/loadavg)
r=1
while [ "$r" -le "$rounds" ]; do
    for k in $kernels; do
        label=${k%%:*} rest=${k#*:}
        prog=${rest%%:*} extra=
        [ "$rest" = "$prog" ] || extra=${rest#*:}
        # shellcheck disable=SC2086
        count=$("$ub" "$prog" "$secs" $extra 2>&1 >/dev/null | sed -n 's/^COUNT|\([0-9]*\)|.*/\1/p')
        [ -n "$count" ] || { echo "orderings.sh: $prog printed no COUNT line" >&2; exit 1; }
        printf '%s\t%s\t%s\n' "$label" "$r" "$count" >> "$work/counts"
    done
    r=$((r + 1))
done
load1=$(cut -d' ' -f1 /proc/loadavg)
awk -F'\t' -v secs="$secs" -v l0="$load0" -v l1="$load1" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    { if (!($1 in n)) order[++k] = $1; v[$1, ++n[$1]] = $3 / secs }
    function said(what, a, b, held) {
        printf "%-44s %12.0f %12.0f  %s\n", what, a, b, held ? "held" : "did not hold"; return held }
    END {
        printf "%-10s %14s  %s\n", "kernel", "loops/s", "per round"
        for (i = 1; i <= k; i++) { t = order[i]; lo = 1e300; hi = 0
            for (j = 1; j <= n[t]; j++) { a[j] = v[t, j]; if (a[j] < lo) lo = a[j]; if (a[j] > hi) hi = a[j] }
            m[t] = median(a, n[t]); printf "%-10s %14.0f  %.0f-%.0f\n", t, m[t], lo, hi }
        printf "load average %s -> %s\n\n%-44s %12s %12s\n", l0, l1, "ordering", "left", "right"
        split("register short int long float double", vs, " ")
        for (i = 1; i <= 6; i++) said(vs[i] " slower than arithoh", m[vs[i]], m["arithoh"], m[vs[i]] < m["arithoh"])
        said("hanoi 3 disks faster than 10", m["hanoi-3"], m["hanoi-10"], m["hanoi-3"] > m["hanoi-10"])
        said("dhry2reg over 1000 loops/s", m["dhry2reg"], 1000, m["dhry2reg"] > 1000)
        said("dhry2 over 1000 loops/s", m["dhry2"], 1000, m["dhry2"] > 1000)
    }' "$work/counts"
