#!/bin/sh
# How close a quick run comes to a standard one on this host, and how often its 95% intervals
# hold the standard figure: standard and quick runs of the same tests, alternating.
#
#   sh bench/quick.sh UNIXBENCH [STANDARD_RUNS [QUICK_RUNS [TESTS...]]]
#
# Defaults: 2 standard and 10 quick runs of the index (`index`). Environment:
#   COPIES=N         the copy count of every run (default 1)
#   HOG=1            a busy loop on every CPU for the middle third of each quick run (from
#                    its `-n` estimate), as neighbours stealing CPU; the run itself is not
#                    pinned (pinning it to one CPU would time a one-CPU machine: its pipe,
#                    context1 and shell8 figures change by 2-6 times); the standard runs
#                    stay alone, as the reference
#   STANDARD_ARGS    more arguments of the standard runs (default none: Run's durations);
#                    `-t 1 -i 3` makes a check of the script itself in seconds
#   QUICK_ARGS       the quick runs' budget (default `--quick`)
#   KEEP=DIR         save every run's figures and wall time in DIR (made if missing), and
#                    its results directory (report, log, JSON) as DIR/KIND-ROUND, which
#                    `unixbench compare` reads (bench/pool.sh pools the quick ones)
#   SETTLE_LOAD=L    before each run, wait until the 1-minute load average is under L (default
#                    1), at most SETTLE_MAX seconds (default 600): a run started in the tail
#                    of the previous run's 8-shell test (load 7-9) is slowed where others
#                    are not; each run's starting load is printed on stderr
#   REF=DIR          take the standard figures from an earlier run's KEEP=DIR and run no
#                    standard run (STANDARD_RUNS is ignored): a hog series against the quiet
#                    series' reference, in a third of the time
#
# Rounds alternate which kind runs first. From each run's TSV (`--format tsv`: the score, or
# an index line's index, and its interval) it prints per test and index: the median standard
# figure, the median quick one and their ratio, the spread of the quick figures (min-max, as
# ratios to the standard), and in how many quick runs the 95% interval held the standard
# figure, and in how many the run marked the test disturbed (its TSV's `disturbed`: a pass it
# kept was disturbed, even after measuring again); then each kind's median wall time and their
# ratio, and the load before and after. KEEP also keeps each run's TSV (`quick-3.tsv`, say).
set -eu
ub=${1:?usage: quick.sh UNIXBENCH [STANDARD_RUNS [QUICK_RUNS [TESTS...]]]}
nstd=${2:-2}
nquick=${3:-10}
[ $# -ge 3 ] && shift 3 || shift $#
[ $# -gt 0 ] || set -- index
copies=${COPIES:-1}
quick=${QUICK_ARGS:---quick}
work=$(mktemp -d)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
mkdir "$work/tmp"
tab=$(printf '\t')
: > "$work/s"
: > "$work/time"
if [ -n "${REF:-}" ]; then
    grep "^std$tab" "$REF/s" >> "$work/s"
    grep "^std$tab" "$REF/time" >> "$work/time"
    nstd=0
fi

. "$(dirname "$0")/settle.sh"

# A run of kind $1 (std|quick) in round $2: its TSV lines tagged with kind and round, and its
# wall seconds in $work/time.
one() {
    kind=$1 round=$2
    shift 2
    # With KEEP, each run's results directory (report, log, JSON) is kept as DIR/KIND-ROUND.
    if [ -n "${KEEP:-}" ]; then
        set -- "--results=$KEEP/$kind-$round" --json "$@"
    else
        set -- --no-save "$@"
    fi
    if [ "$kind" = std ]; then
        # shellcheck disable=SC2086 # STANDARD_ARGS is words
        set -- -q -c "$copies" ${STANDARD_ARGS:-} --tmpdir "$work/tmp" --format tsv "$@"
    else
        set -- -q -c "$copies" "$quick" --tmpdir "$work/tmp" --format tsv "$@"
    fi
    settle quick.sh "$kind $round" >&2
    if [ "$kind" = quick ] && [ "${HOG:-}" = 1 ]; then
        est=$("$ub" -n "$@" | sed -n 's/^Estimated time: .*(\([0-9]*\) s)$/\1/p; s/^Estimated time: \([0-9]*\) s$/\1/p')
        third=$(( ${est:-30} / 3 + 1 ))
        # Each loop ends by its own timeout, a third of the estimate after it starts.
        ( sleep "$third"; c=0
          while [ "$c" -lt "$(nproc)" ]; do
              timeout "$third" taskset -c "$c" sh -c 'while :; do :; done' &
              c=$((c + 1))
          done
          wait ) &
        hog=$!
    fi
    t0=$(date +%s.%N)
    "$ub" "$@" > "$work/out"
    t1=$(date +%s.%N)
    if [ -n "$hog" ]; then
        kill "$hog" 2>/dev/null || true
        wait "$hog" 2>/dev/null || true
        hog=
    fi
    echo "$kind$tab$round$tab$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >> "$work/time"
    # copies test title score unit secs kept baseline index kind disturbed ci95_low ci95_high
    awk -F'\t' -v k="$kind" -v r="$round" 'NR > 1 {
        v = ($2 ~ /^index:/) ? $9 : $4
        if (v != "-") print k "\t" r "\t" $1 " " $2 "\t" v "\t" $12 "\t" $13 "\t" $11 }' "$work/out" >> "$work/s"
    [ -z "${KEEP:-}" ] || cp "$work/out" "$KEEP/$kind-$round.tsv"
}

[ -z "${KEEP:-}" ] || mkdir -p "$KEEP"
load0=$(load)
max=$(( nstd > nquick ? nstd : nquick ))
r=1
while [ "$r" -le "$max" ]; do
    if [ $((r % 2)) -eq 1 ]; then
        [ "$r" -le "$nstd" ] && one std "$r" "$@"
        [ "$r" -le "$nquick" ] && one quick "$r" "$@"
    else
        [ "$r" -le "$nquick" ] && one quick "$r" "$@"
        [ "$r" -le "$nstd" ] && one std "$r" "$@"
    fi
    r=$((r + 1))
done
load1=$(load)
[ -z "${KEEP:-}" ] || cp "$work/s" "$work/time" "$KEEP/"

awk -F'\t' -v l0="$load0" -v l1="$load1" -v hog="${HOG:-0}" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    FILENAME ~ /time$/ { nt[$1]++; tm[$1, nt[$1]] = $3; next }
    { key = $3; if (!(key in seen)) { seen[key] = 1; order[++k] = key }
      n[key, $1]++; i = n[key, $1]; v[key, $1, i] = $4; lo[key, $1, i] = $5; hi[key, $1, i] = $6
      if ($1 == "quick" && $7 == "yes") dist[key]++ }
    END {
        printf "%-48s %13s %13s %7s %15s %6s %9s\n", "copies test", "standard", "quick", "ratio", "spread", "held", "disturbed"
        for (x = 1; x <= k; x++) { t = order[x]; ns = n[t, "std"]; nq = n[t, "quick"]
            if (ns == 0 || nq == 0) continue
            for (i = 1; i <= ns; i++) a[i] = v[t, "std", i]
            s = median(a, ns); held = 0; mn = 1e300; mx = 0
            for (i = 1; i <= nq; i++) { b[i] = v[t, "quick", i]; q = b[i] / s
                if (q < mn) mn = q; if (q > mx) mx = q
                if (lo[t, "quick", i] != "-" && lo[t, "quick", i] <= s && s <= hi[t, "quick", i]) held++ }
            m = median(b, nq)
            printf "%-48s %13.1f %13.1f %7.4f %7.4f-%.4f %3d/%d %7d/%d\n", t, s, m, m / s, mn, mx, held, nq, dist[t], nq }
        for (i = 1; i <= nt["std"]; i++) a[i] = tm["std", i]
        for (i = 1; i <= nt["quick"]; i++) b[i] = tm["quick", i]
        ts = nt["std"] ? median(a, nt["std"]) : 0; tq = nt["quick"] ? median(b, nt["quick"]) : 0
        printf "time: standard %.0f s, quick %.0f s (%.3f of it)%s\n", ts, tq, ts ? tq / ts : 0,
            hog == 1 ? "; a busy loop on every CPU for a third of each quick run" : ""
        printf "load %s -> %s\n", l0, l1 }' "$work/time" "$work/s"
