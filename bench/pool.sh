#!/bin/sh
# How often a pool of quick runs holds the standard figure: every set of K quick runs of a
# bench/quick.sh series (KEEP=DIR) pooled with `unixbench compare --pool`, its pooled figures
# and 95% intervals set against the median of the series' standard runs.
#
#   sh bench/pool.sh UNIXBENCH DIR [K]
#
# DIR is a quick.sh KEEP directory (std-N/ and quick-N/ each hold a run's results JSON); K is
# the runs per pool (default 3). One run's interval sees only its own passes; a pool's comes from
# the spread between its runs, so it holds the host's wander as far as their span reaches. The
# table says so by span: per test and index, for the pools whose first and last run started less
# than SPAN minutes apart (default 30) and for the rest, how many pools' intervals held the
# standard median, the median ratio pooled/standard, and the median half-width of the interval.
set -eu
ub=${1:?usage: pool.sh UNIXBENCH DIR [K]}
dir=${2:?usage: pool.sh UNIXBENCH DIR [K]}
k=${3:-3}
span=${SPAN:-30}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# The runs' JSON in round order.
runs() { for d in "$dir/$1"-*/; do [ -d "$d" ] && echo "${d%/}"; done | sort -t- -k2 -n | while read -r d; do
    ls "$d"/*.json; done; }
runs std > "$work/std"
runs quick > "$work/quick"
nq=$(wc -l < "$work/quick")
[ -s "$work/std" ] || { echo "pool.sh: no standard run's JSON in $dir (std-N/)" >&2; exit 2; }
[ "$nq" -ge "$k" ] || { echo "pool.sh: $nq quick runs in $dir, fewer than K = $k" >&2; exit 2; }

# The standard median per copy count and test, from compare's TSV (a line per test and run).
# shellcheck disable=SC2046 # one file name per line, no spaces
"$ub" compare --format tsv $(cat "$work/std") > "$work/std.tsv"

# Every K-subset of the quick runs, as line numbers of $work/quick.
awk -v n="$nq" -v k="$k" 'BEGIN {
    for (i = 1; i <= k; i++) c[i] = i
    while (1) {
        s = c[1]; for (i = 2; i <= k; i++) s = s " " c[i]; print s
        i = k; while (i >= 1 && c[i] == n - k + i) i--
        if (i < 1) break
        c[i]++; for (j = i + 1; j <= k; j++) c[j] = c[j - 1] + 1 } }' > "$work/sets"

p=0
while read -r set; do
    p=$((p + 1))
    files=
    for i in $set; do files="$files $(sed -n "${i}p" "$work/quick")"; done
    # shellcheck disable=SC2086 # file names without spaces
    "$ub" compare --pool --format tsv $files |
        awk -F'\t' -v p="$p" -v set="$set" 'NR > 1 { print p "\t" set "\t" $10 "\t" $1 " " $2 "\t" $4 "\t" $5 "\t" $6 }'
done < "$work/sets" > "$work/pools"

awk -F'\t' -v span="$span" -v k="$k" -v nq="$nq" '
    function median(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    FILENAME ~ /std.tsv$/ { if (FNR > 1 && $5 != "") { key = $1 " " $2; ns[key]++; sv[key, ns[key]] = $5 }; next }
    { key = $4; if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
      b = ($3 != "" && $3 < span * 60) ? "short" : "long"
      if ($3 == "") b = "unknown"
      n[key, b]++; i = n[key, b]; v[key, b, i] = $5; lo[key, b, i] = $6; hi[key, b, i] = $7 }
    END {
        printf "pools of %d of the %d quick runs, by the span from their first start to their last\n", k, nq
        printf "%-62s  %-23s  %s\n", "", "span < " span " min", "span >= " span " min"
        printf "%-48s %13s  %6s %8s %7s  %6s %8s %7s\n", "copies test", "standard",
            "held", "ratio", "+-", "held", "ratio", "+-"
        for (x = 1; x <= nk; x++) { t = order[x]
            if (!ns[t]) continue
            for (i = 1; i <= ns[t]; i++) a[i] = sv[t, i]
            s = median(a, ns[t]); line = sprintf("%-48s %13.1f", t, s)
            split("short long", bs, " ")
            for (y = 1; y <= 2; y++) { bb = bs[y]; m = n[t, bb]; held = 0
                for (i = 1; i <= m; i++) {
                    r[i] = v[t, bb, i] / s
                    w[i] = (lo[t, bb, i] != "") ? 100 * (hi[t, bb, i] / v[t, bb, i] - 1) : 0
                    if (lo[t, bb, i] != "" && lo[t, bb, i] <= s && s <= hi[t, bb, i]) held++ }
                line = line sprintf("  %6s %8s %7s", m ? held "/" m : "-",
                    m ? sprintf("%.4f", median(r, m)) : "-", m ? sprintf("%.1f%%", median(w, m)) : "-") }
            print line }
        printf "ratio: the median of pooled/standard; +-: the median upper half-width of the pools%s intervals\n", "\047" }' \
    "$work/std.tsv" "$work/pools"
