#!/bin/sh
# Many copies: the driver's peak memory and the start skew of its passes, per copy count.
#
#   sh bench/copies.sh UB [COUNTS] [TESTS]
#
# UB is our binary. COUNTS defaults to "64 256 1024", TESTS to "pipe spawn shell8". Each run is
# `UB -q -c N -t 1 -i 1 --no-save --format json TEST`, after a 1-copy run of the same test as the
# baseline. Per run the table gives:
#   rss_kb      the driver's peak resident set (VmHWM of /proc/PID/status, sampled every 20 ms
#               while it runs; the peak only grows, so the last sample is the run's)
#   kb_per_copy (rss_kb - the 1-copy run's) / (N - 1)
#   skew_s      the largest start skew of the run's passes: seconds from the first copy passing
#               the driver's start barrier to the last (the JSON's start_skew)
#   wall_s      the run's wall time
# A machine with fewer CPUs than copies shares them out, so there the skew measures the
# oversubscription as much as the barrier: read it against N / CPUs.
#
# POSIX sh and awk, /proc, and `date +%s.%N` (GNU date).

set -u
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: sh bench/copies.sh UB [COUNTS] [TESTS]" >&2; exit 2; }
UB=$1
COUNTS=${2:-64 256 1024}
TESTS=${3:-pipe spawn shell8}
case $UB in /*) ;; *) UB=$(pwd)/$UB ;; esac
[ -x "$UB" ] || { echo "copies.sh: $UB is not an executable file" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/copies.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

# run N TEST: prints "rss_kb skew_s wall_s status".
run() {
    t0=$(date +%s.%N)
    "$UB" -q -c "$1" -t 1 -i 1 --no-save --format json --tmpdir "$TMP" "$2" >"$TMP/out.json" 2>"$TMP/err" &
    pid=$!
    hwm=0
    while [ -r "/proc/$pid/status" ]; do
        v=$(awk '$1 == "VmHWM:" { print $2 }' "/proc/$pid/status" 2>/dev/null)
        [ -n "$v" ] && hwm=$v
        sleep 0.02
    done
    wait "$pid"
    st=$?
    t1=$(date +%s.%N)
    skew=$(awk -F': ' '/"start_skew"/ { v = $2 + 0; if (v > m) m = v } END { printf "%.3f", m }' "$TMP/out.json")
    echo "$hwm $skew $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') $st"
}

printf '%-8s %6s %8s %11s %8s %7s\n' test copies rss_kb kb_per_copy skew_s wall_s
for t in $TESTS; do
    set -- $(run 1 "$t")
    base=$1
    printf '%-8s %6s %8s %11s %8s %7s\n' "$t" 1 "$1" - "$2" "$3"
    for n in $COUNTS; do
        set -- $(run "$n" "$t")
        [ "$4" = 0 ] || { echo "copies.sh: $t at $n copies failed:" >&2; cat "$TMP/err" >&2; }
        per=$(awk -v r="$1" -v b="$base" -v n="$n" 'BEGIN { printf "%.2f", (r - b) / (n - 1) }')
        printf '%-8s %6s %8s %11s %8s %7s\n' "$t" "$n" "$1" "$per" "$2" "$3"
    done
done
