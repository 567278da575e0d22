#!/bin/sh
# The whole index, back to back: C UnixBench's default `./Run` against ours, on one machine.
#
#   sh bench/index.sh UB CDIR [ROUNDS] [-- ARGS...]
#
# UB is our binary; CDIR a C UnixBench directory built by its own Makefile. Each round runs
# `./Run ARGS` in CDIR and `UB ARGS` (results and scratch files in a private directory), in
# alternating order (C first in odd rounds, ours first in even ones). ARGS default to none: the
# standard index at 1 copy and at one per CPU, about 30 minutes a suite on a 2-CPU machine.
# ROUNDS defaults to 1.
#
# Both reports have Run's layout; from each, per copy count, this takes every index line's
# index value and the System Benchmarks Index Score, then prints, per copy count and test, C's
# and our value (medians over the rounds), their ratio ours/C and the range of the per-round
# ratios, with the load average (1 min) before and after each suite's run. Each side's
# progress goes to DIR/round-N-{c,ours}.out and its report is copied there (DIR is printed
# first and kept).
#
# Before each suite it waits until the 1-minute load average is below SETTLE_LOAD (default 1)
# or SETTLE_MAX seconds (default 600) have passed, and prints the load the suite starts at: the
# 8-shell test at the end of a suite leaves a load of 7-9 that the 1-minute average takes
# minutes to lose, and a suite started in that tail is slowed where the other is not.
#
# POSIX sh and awk.

set -u
usage() {
    echo "usage: sh bench/index.sh UB CDIR [ROUNDS] [-- ARGS...]" >&2
    exit 2
}
[ $# -ge 2 ] || usage
UB=$1
CDIR=$2
shift 2
ROUNDS=1
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
    ROUNDS=$1
    shift
fi
if [ $# -gt 0 ]; then
    [ "$1" = "--" ] || usage
    shift
fi
case $ROUNDS in '' | *[!0-9]* | 0) echo "index.sh: ROUNDS must be a whole number, 1 or more" >&2; exit 2 ;; esac
case $UB in /*) ;; *) UB=$(pwd)/$UB ;; esac
case $CDIR in /*) ;; *) CDIR=$(pwd)/$CDIR ;; esac
[ -x "$UB" ] || { echo "index.sh: $UB is not an executable file" >&2; exit 2; }
[ -x "$CDIR/Run" ] && [ -d "$CDIR/pgms" ] ||
    { echo "index.sh: $CDIR has no Run and pgms/ (build the C UnixBench with its Makefile)" >&2; exit 2; }

OUT=$(mktemp -d "${TMPDIR:-/tmp}/index.XXXXXX") || exit 1
echo "index.sh: outputs in $OUT"
. "$(dirname "$0")/settle.sh"

# Prints "copies<TAB>title<TAB>index" per index line of a Run-layout report, and
# "copies<TAB>System Benchmarks Index Score<TAB>score".
scores() {
    awk '
        /running [0-9]+ parallel cop/ { for (i = 1; i <= NF; i++) if ($i == "running") c = $(i + 1) }
        /^System Benchmarks (Index Values|Partial Index)/ { on = 1; next }
        /^System Benchmarks Index Score/ { printf "%s\tSystem Benchmarks Index Score\t%s\n", c, $NF; on = 0; next }
        on && /^=+$/ { next }
        on && NF >= 4 {
            t = $1
            for (i = 2; i <= NF - 3; i++) t = t " " $i
            printf "%s\t%s\t%s\n", c, t, $NF
        }' "$1"
}

run_c() {
    r=$1
    shift
    settle index.sh "round $r, C"
    before=$(load)
    mark=$OUT/mark.$r
    : >"$mark"
    (cd "$CDIR" && ./Run "$@") >"$OUT/round-$r-c.out" 2>&1 || { echo "index.sh: C's Run failed (round $r)" >&2; exit 1; }
    rep=$(find "$CDIR/results" -maxdepth 1 -type f -newer "$mark" ! -name '*.*' | head -n 1)
    [ -n "$rep" ] || { echo "index.sh: C's Run wrote no report (round $r)" >&2; exit 1; }
    cp "$rep" "$OUT/round-$r-c.report"
    echo "round $r: C    load $before-$(load)" >>"$OUT/loads"
}

run_ours() {
    r=$1
    shift
    settle index.sh "round $r, ours"
    before=$(load)
    mkdir "$OUT/ours-$r" "$OUT/tmp-$r"
    "$UB" --results "$OUT/ours-$r" --tmpdir "$OUT/tmp-$r" "$@" >"$OUT/round-$r-ours.out" 2>&1 ||
        { echo "index.sh: our run failed (round $r)" >&2; exit 1; }
    rep=$(find "$OUT/ours-$r" -maxdepth 1 -type f ! -name '*.*' | head -n 1)
    [ -n "$rep" ] || { echo "index.sh: our run wrote no report (round $r)" >&2; exit 1; }
    cp "$rep" "$OUT/round-$r-ours.report"
    echo "round $r: ours load $before-$(load)" >>"$OUT/loads"
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
    if [ $((r % 2)) -eq 1 ]; then
        run_c "$r" "$@"
        run_ours "$r" "$@"
    else
        run_ours "$r" "$@"
        run_c "$r" "$@"
    fi
    scores "$OUT/round-$r-c.report" | sed "s/^/$r	c	/" >>"$OUT/scores"
    scores "$OUT/round-$r-ours.report" | sed "s/^/$r	ours	/" >>"$OUT/scores"
    r=$((r + 1))
done

cat "$OUT/loads"
awk -F '\t' '
    function median(s,    n, a, i, j, t) {
        n = split(s, a, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    {
        k = $3 SUBSEP $4
        if (!(k in seen)) { seen[k] = 1; order[++n] = k }
        v[$2, k] = v[$2, k] " " $5
        val[$1, $2, k] = $5
        rounds[$1] = 1
    }
    END {
        printf "| copies | test | C | ours | ours/C | per round |\n|---:|---|---:|---:|---:|---|\n"
        for (i = 1; i <= n; i++) {
            k = order[i]
            split(k, p, SUBSEP)
            lo = ""; hi = ""
            for (r in rounds) if (val[r, "c", k] + 0 > 0 && ((r, "ours", k) in val)) {
                q = val[r, "ours", k] / val[r, "c", k]
                if (lo == "" || q < lo) lo = q
                if (hi == "" || q > hi) hi = q
            }
            c = median(v["c", k]); o = median(v["ours", k])
            printf "| %s | %s | %s | %s | %s | %s |\n", p[1], p[2], c, o,
                (c > 0 ? sprintf("%.3f", o / c) : "-"), (lo == "" ? "-" : sprintf("%.3f-%.3f", lo, hi))
        }
    }' "$OUT/scores"
