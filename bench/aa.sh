#!/bin/sh
# A/A test of compare's marks: on one host, quick runs with rounds and quick runs without
# (`--no-rounds`), alternating, then every pair of runs within each series through
# `unixbench compare`. Identical runs should seldom be marked different (`*`), and a run's
# index interval should hold the series' median.
#
#   sh bench/aa.sh UNIXBENCH [RUNS [TESTS...]]
#
# Defaults: 10 runs of each series, of the index (`index`). Environment:
#   COPIES=N        the copy count of every run (default 1)
#   QUICK_ARGS      the runs' budget (default `--quick`)
#   GAP=SECONDS     a pause after each pair of runs, to spread the series over an hour or
#                   more (default 0)
#   KEEP=DIR        keep every run's results directory (report, log, JSON) as DIR/SERIES-N
#                   and its TSV beside it (default: a temporary directory, removed)
#   STANDARD=1      one standard run (Run's passes, `-c COPIES`) in the middle of the series:
#                   each series' median index against it, and how many intervals hold it
#   SETTLE_LOAD, SETTLE_MAX   as bench/settle.sh: wait for a previous run's load to fall
#
# `sh bench/aa.sh ./unixbench 2 syscall pipe` with QUICK_ARGS=--quick=8 checks the script
# itself in a minute.
#
# Per series it prints: the share of pairs marked different, for the index and per test; the
# share of runs whose index interval holds the series' median index, with the 95% Wilson
# interval of that count; the median half-width of the index interval; how far the host's
# speed moved between rounds as the runs reported it (median, min-max; rounds only); and the
# median wall seconds per run.
set -eu
ub=${1:?usage: aa.sh UNIXBENCH [RUNS [TESTS...]]}
n=${2:-10}
[ $# -ge 2 ] && shift 2 || shift $#
[ $# -gt 0 ] || set -- index
copies=${COPIES:-1}
quick=${QUICK_ARGS:---quick}
if [ -n "${KEEP:-}" ]; then
    work=$KEEP
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT INT TERM
fi
mkdir -p "$work/tmp"
tab=$(printf '\t')
: > "$work/time"

. "$(dirname "$0")/settle.sh"

# Run $2 of series $1 (rounds|flat): its results directory, its TSV, its wall seconds.
one() {
    series=$1 i=$2
    shift 2
    flag=
    [ "$series" = flat ] && flag=--no-rounds
    settle aa.sh "$series $i" >&2
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086 # flag is one word or none
    "$ub" -q -c "$copies" "$quick" $flag --tmpdir "$work/tmp" --results "$work/$series-$i" --json \
        --format tsv "$@" > "$work/$series-$i.tsv"
    t1=$(date +%s.%N)
    echo "$series$tab$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >> "$work/time"
}

# The standard run: its results directory and TSV, as the quick runs'.
standard() {
    settle aa.sh standard >&2
    t0=$(date +%s.%N)
    "$ub" -q -c "$copies" --tmpdir "$work/tmp" --results "$work/standard" --json --format tsv "$@" \
        > "$work/standard.tsv"
    t1=$(date +%s.%N)
    echo "standard$tab$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" >> "$work/time"
}

i=1
while [ "$i" -le "$n" ]; do
    [ "${STANDARD:-0}" = 1 ] && [ "$i" = $(((n + 1) / 2)) ] && standard "$@"
    # Alternate which series runs first, so neither always follows the other.
    if [ $((i % 2)) = 1 ]; then one rounds "$i" "$@"; one flat "$i" "$@"; else one flat "$i" "$@"; one rounds "$i" "$@"; fi
    [ "$i" -lt "$n" ] && sleep "${GAP:-0}"
    i=$((i + 1))
done

# The JSON of run $2 of series $1.
json() { ls "$work/$1-$2"/*.json; }

for series in rounds flat; do
    echo "== $series: $n runs, -c $copies $quick$([ "$series" = flat ] && echo ' --no-rounds')"
    # Every pair through compare: the second file's rows, test and overlap (yes/no).
    : > "$work/$series.pairs"
    a=1
    while [ "$a" -lt "$n" ]; do
        b=$((a + 1))
        while [ "$b" -le "$n" ]; do
            "$ub" compare --format tsv "$(json "$series" "$a")" "$(json "$series" "$b")" |
                awk -F'\t' 'NR > 1 && $3 == 2 { print $2 "\t" $9 }' >> "$work/$series.pairs"
            b=$((b + 1))
        done
        a=$((a + 1))
    done
    awk -F'\t' '{ n[$1]++; if ($2 == "no") d[$1]++ }
        END { for (t in n) printf "  marked different: %-40s %3d of %3d pairs (%.0f%%)\n", t, d[t], n[t], 100 * d[t] / n[t] }' \
        "$work/$series.pairs" | sort
    # Each run's own index figure and interval (its TSV's index lines): the series' median,
    # how many intervals hold it, with the Wilson interval, and the median half-width.
    for f in "$work/$series"-*.tsv; do
        awk -F'\t' '$2 ~ /^index:/ && $12 != "-" { print $2 "\t" $9 "\t" $12 "\t" $13 }' "$f"
    done | sort -s -t"$tab" -k1,1 > "$work/$series.index"
    for ix in $(cut -f1 "$work/$series.index" | sort -u); do
        grep "^$ix$tab" "$work/$series.index" | sort -t"$tab" -k2,2g | awk -F'\t' -v ix="$ix" '
            { v[NR] = $2; lo[NR] = $3; hi[NR] = $4; h[NR] = ($4 - $3) / 2 / $2 }
            END {
                m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                for (i = 1; i <= NR; i++) k += (lo[i] <= m && m <= hi[i])
                z = 1.959964; c = (k + z * z / 2) / (NR + z * z)
                w = z * sqrt(k * (NR - k) / NR + z * z / 4) / (NR + z * z)
                for (i = 2; i <= NR; i++) for (j = i; j > 1 && h[j - 1] > h[j]; j--) { t = h[j]; h[j] = h[j - 1]; h[j - 1] = t }
                hw = (NR % 2) ? h[(NR + 1) / 2] : (h[NR / 2] + h[NR / 2 + 1]) / 2
                printf "  %s: median %.1f; intervals holding it %d of %d (%.0f%%, Wilson 95%% %.0f-%.0f%%); median half-width %.1f%%\n",
                    ix, m, k, NR, 100 * k / NR, 100 * (c - w), 100 * (c + w), 100 * hw }'
    done
    # Against the standard run: the series' median index over its, and the intervals holding it.
    if [ -s "$work/standard.tsv" ]; then
        awk -F'\t' '$2 ~ /^index:/ { print $2 "\t" $9 }' "$work/standard.tsv" | while IFS="$tab" read -r ix std; do
            grep "^$ix$tab" "$work/$series.index" | sort -t"$tab" -k2,2g | awk -F'\t' -v ix="$ix" -v s="$std" '
                { v[NR] = $2; k += ($3 <= s && s <= $4) }
                END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                    printf "  %s against the standard run'"'"'s %.1f: median %+.1f%%, intervals holding it %d of %d\n",
                        ix, s, 100 * (m / s - 1), k, NR }'
        done
    fi
    # How far the host moved between rounds, as each run of rounds said (per copy count).
    for i in $(seq "$n"); do
        sed -n 's/.*"host_moved": \([0-9.e+-]*\).*/\1/p' "$(json "$series" "$i")"
    done | sort -g | awk '{ v[NR] = $1 } END {
        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        if (NR) printf "  host moved between rounds: median %.1f%%, %.1f-%.1f%%\n", 100 * m, 100 * v[1], 100 * v[NR]
        else print "  host moved between rounds: not seen (no rounds)" }'
    grep "^$series$tab" "$work/time" | cut -f2 | sort -g |
        awk '{ v[NR] = $1 } END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "  wall seconds per run: median %.0f (%.0f-%.0f)\n", m, v[1], v[NR] }'
done
if grep -q "^standard$tab" "$work/time"; then
    echo "== standard: 1 run, -c $copies: $(grep "^standard$tab" "$work/time" | cut -f2 | awk '{ printf "%.0f", $1 }') wall seconds"
fi
