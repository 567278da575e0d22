#!/bin/sh
# `unixbench compare` over many results files: its wall time, as a fleet's comparison needs it.
#
#   sh bench/compare.sh UB [FILES] [ROUNDS]
#
# Makes one results JSON with a short real run (`UB -q -c 1 -t 1 -i 1 syscall pipe`), copies it
# FILES times (default 500) under distinct host names, then times ROUNDS (default 5) runs of
# `UB compare FILE...` and of `UB compare --hosts FILE...` (the fleet table) over all of them
# (output discarded) and prints each round's seconds and the median. The files are alike but for the host name: compare reads and parses each in full
# either way, which is what is timed.
#
# POSIX sh and awk, `date +%s.%N` (GNU date).

set -u
[ $# -ge 1 ] && [ $# -le 3 ] || { echo "usage: sh bench/compare.sh UB [FILES] [ROUNDS]" >&2; exit 2; }
UB=$1
FILES=${2:-500}
ROUNDS=${3:-5}
case $UB in /*) ;; *) UB=$(pwd)/$UB ;; esac
[ -x "$UB" ] || { echo "compare.sh: $UB is not an executable file" >&2; exit 2; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/compare.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

"$UB" -q -c 1 -t 1 -i 1 --results "$TMP/seed" --tmpdir "$TMP" syscall pipe >/dev/null ||
    { echo "compare.sh: the seed run failed" >&2; exit 1; }
seed=$(ls "$TMP"/seed/*.json)
mkdir "$TMP/fleet"
i=1
while [ "$i" -le "$FILES" ]; do
    sed "s/\"hostname\": \"[^\"]*\"/\"hostname\": \"host$i\"/" "$seed" >"$TMP/fleet/host$i.json"
    i=$((i + 1))
done
for mode in "" --hosts; do
    echo "compare $mode over $FILES files of $(wc -c <"$seed") bytes each"
    r=1
    while [ "$r" -le "$ROUNDS" ]; do
        t0=$(date +%s.%N)
        "$UB" compare $mode "$TMP"/fleet/*.json >/dev/null || { echo "compare.sh: compare failed" >&2; exit 1; }
        t1=$(date +%s.%N)
        awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
        r=$((r + 1))
    done | sort -n | awk '{ v[NR] = $1; printf "round: %s s\n", $1 } END { printf "median: %s s\n", v[int((NR + 1) / 2)] }'
done
