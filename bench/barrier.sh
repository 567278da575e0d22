#!/bin/sh
# Does the driver's start barrier move the 1- and 2-copy figures? Two driver binaries, taken
# turn about: NEW (with the barrier) and OLD (a build from before it, or any other driver).
#
#   sh bench/barrier.sh NEW OLD [ROUNDS] [SECS] [TESTS]
#
# Each round runs `BIN -q -c 1 -c 2 -i 3 -t SECS TESTS` with each binary (OLD first in odd
# rounds, NEW first in even ones, so background load hits both alike), saving its results JSON.
# ROUNDS defaults to 3, SECS to 10, TESTS to "pipe context1 spawn execl syscall dhry2reg".
# Then `NEW compare --format tsv` over every file gives each score; the table prints, per copy
# count and test, the median score of each side and NEW/OLD. Within the noise of the fidelity
# pairs (docs/FIDELITY.md) means the barrier leaves the figures alone.
#
# POSIX sh and awk.

set -u
[ $# -ge 2 ] && [ $# -le 5 ] || { echo "usage: sh bench/barrier.sh NEW OLD [ROUNDS] [SECS] [TESTS]" >&2; exit 2; }
NEW=$1
OLD=$2
ROUNDS=${3:-3}
SECS=${4:-10}
TESTS=${5:-pipe context1 spawn execl syscall dhry2reg}
for b in NEW OLD; do
    eval "p=\$$b"
    case $p in /*) ;; *) p=$(pwd)/$p ;; esac
    [ -x "$p" ] || { echo "barrier.sh: $p is not an executable file" >&2; exit 2; }
    eval "$b=\$p"
done
TMP=$(mktemp -d "${TMPDIR:-/tmp}/barrier.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT INT TERM

side() { # side NAME BIN ROUND
    "$2" -q -c 1 -c 2 -i 3 -t "$SECS" --results "$TMP/$1-$3" --tmpdir "$TMP" $TESTS >/dev/null ||
        echo "barrier.sh: a run of $1 failed" >&2
}
r=1
while [ "$r" -le "$ROUNDS" ]; do
    if [ $((r % 2)) = 1 ]; then side old "$OLD" "$r"; side new "$NEW" "$r"; else side new "$NEW" "$r"; side old "$OLD" "$r"; fi
    r=$((r + 1))
done
"$NEW" compare --format tsv "$TMP"/old-*/*.json "$TMP"/new-*/*.json | awk -F'\t' '
    NR == 1 { next }
    {
        s = ($4 ~ /\/new-/) ? "new" : "old"
        k = $1 "\t" $2
        if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
        n[k, s]++; v[k, s, n[k, s]] = $5
    }
    function median(k, s,    i, j, t, m) {
        m = n[k, s]
        for (i = 1; i <= m; i++) a[i] = v[k, s, i]
        for (i = 2; i <= m; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
    }
    END {
        printf "%-6s %-40s %14s %14s %8s\n", "copies", "test", "old", "new", "new/old"
        for (i = 1; i <= nk; i++) {
            k = keys[i]; split(k, f, "\t")
            o = median(k, "old"); w = median(k, "new")
            printf "%-6s %-40s %14.1f %14.1f %8.3f\n", f[1], f[2], o, w, (o > 0 ? w / o : 0)
        }
    }'
