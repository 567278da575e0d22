#!/bin/sh
# Fidelity benchmark: our kernels against the C UnixBench programs, side by side.
#
#   sh bench/fidelity.sh UB CDIR [ROUNDS]
#
# UB is our binary; CDIR is a C UnixBench directory whose pgms/ was built by its own Makefile
# (it must also hold testdir/; tmp/ is made if missing). ROUNDS defaults to 3.
#
# Pairs come from bench/pairs/*.pairs, one per line (blank lines and `#` comments skipped):
#
#   label | ours args | C command
#   pipe  | pipe 10   | pgms/pipe 10
#
# Both sides run with cwd CDIR/testdir and UB_BINDIR=CDIR/pgms exported, as Run runs them; ours
# runs as `UB <ours args>`. In the C command, a word starting with `pgms/` means CDIR/pgms/...;
# both command strings are evaluated by sh, so quotes and $CDIR / $UB_BINDIR work. Use `../tmp`
# for scratch files (CDIR/tmp, Run's default UB_TMPDIR).
#
# Per pair, ROUNDS rounds alternate the two sides (ours first in odd rounds, C first in even
# ones) so background load hits both alike. Each run is scored as Run scores one copy of one
# pass: the last COUNT line wins (fstime's final phase, context1's child), the time is the TIME
# line if there is one, else the wall time measured here; rate = count / (time / timebase), or
# the count itself when the timebase is 0. The table gives each side's median, the ratio of the
# medians (ours/C) and the range of the per-round ratios.
#
# POSIX sh and awk, plus `date +%s.%N` for wall time (GNU date; elsewhere %N is not expanded and
# the wall time, used only by programs that print no TIME line, loses its fraction).

set -u

usage() {
    echo "usage: sh bench/fidelity.sh UB CDIR [ROUNDS]" >&2
    exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
UB=$1
CDIR=$2
ROUNDS=${3:-3}
case $ROUNDS in '' | *[!0-9]* | 0) echo "fidelity.sh: ROUNDS must be a whole number, 1 or more" >&2; exit 2 ;; esac
case $UB in /*) ;; *) UB=$(pwd)/$UB ;; esac
case $CDIR in /*) ;; *) CDIR=$(pwd)/$CDIR ;; esac
[ -x "$UB" ] || { echo "fidelity.sh: $UB is not an executable file" >&2; exit 2; }
[ -d "$CDIR/pgms" ] && [ -d "$CDIR/testdir" ] ||
    { echo "fidelity.sh: $CDIR has no pgms/ and testdir/ (build the C UnixBench with its Makefile)" >&2; exit 2; }
mkdir -p "$CDIR/tmp"

HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/fidelity.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
UB_BINDIR=$CDIR/pgms
export UB UB_BINDIR CDIR

now() { date +%s.%N; }

# Runs one command line (evaluated by sh in CDIR/testdir) and prints its Run-style rate, or
# FAIL when it exits non-zero or prints no COUNT line.
measure() {
    start=$(now)
    (cd "$CDIR/testdir" && eval "$1") </dev/null >/dev/null 2>"$TMP/err"
    status=$?
    end=$(now)
    if [ $status -ne 0 ]; then
        echo "fidelity.sh: '$1' exited with status $status: $(head -c 300 "$TMP/err")" >&2
        echo FAIL
        return
    fi
    awk -F'|' -v start="$start" -v end="$end" '
        $1 == "COUNT" && NF >= 4 { count = $2; tb = $3 }
        $1 == "TIME" && NF == 2 { t = $2 }
        END {
            if (count == "") { print "FAIL"; exit }
            time = (t != "") ? t : end - start
            if (tb > 0 && time > 0) printf "%.6f\n", count / (time / tb)
            else printf "%.6f\n", count
        }' "$TMP/err"
}

trim() { printf '%s' "$1" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//'; }

printf '%-22s %16s %16s %8s  %s\n' "test" "ours (median)" "C (median)" "ours/C" "per-round ratio"
for pairs in "$HERE"/pairs/*.pairs; do
    [ -f "$pairs" ] || continue
    while IFS= read -r line || [ -n "$line" ]; do
        case $(trim "$line") in '' | '#'*) continue ;; esac
        label=$(trim "${line%%|*}")
        rest=${line#*|}
        ours=$(trim "${rest%%|*}")
        c=$(trim "${rest#*|}")
        c=$(printf '%s' "$c" | sed "s#^pgms/#$CDIR/pgms/#; s#\([[:space:]]\)pgms/#\1$CDIR/pgms/#g")
        : >"$TMP/rounds"
        r=1
        while [ $r -le "$ROUNDS" ]; do
            if [ $((r % 2)) -eq 1 ]; then
                a=$(measure "\"\$UB\" $ours")
                b=$(measure "$c")
            else
                b=$(measure "$c")
                a=$(measure "\"\$UB\" $ours")
            fi
            echo "$label: round $r/$ROUNDS ours $a C $b" >&2
            echo "$a $b" >>"$TMP/rounds"
            r=$((r + 1))
        done
        awk -v label="$label" '
            function median(v, n,   i, j, x) {
                for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
                return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            }
            $1 == "FAIL" || $2 == "FAIL" { fail = 1; next }
            { n++; a[n] = $1; b[n] = $2; q = ($2 > 0) ? $1 / $2 : 0
              if (n == 1 || q < lo) lo = q; if (n == 1 || q > hi) hi = q }
            END {
                if (n == 0) { printf "%-22s %16s %16s %8s  %s\n", label, "FAIL", "FAIL", "-", "-"; exit }
                ma = median(a, n); mb = median(b, n)
                printf "%-22s %16.1f %16.1f %8.3f  %.3f-%.3f%s\n", label, ma, mb, (mb > 0 ? ma / mb : 0), lo, hi,
                    fail ? " (some rounds failed)" : ""
            }' "$TMP/rounds"
    done <"$pairs"
done
