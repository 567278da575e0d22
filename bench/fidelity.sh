#!/bin/sh
# Fidelity benchmark: our kernels against the C UnixBench programs, side by side.
#
#   sh bench/fidelity.sh UB CDIR [ROUNDS]
#
# UB is our binary; CDIR is a C UnixBench directory whose pgms/ was built by its own Makefile
# (it must also hold testdir/; tmp/ is made if missing). ROUNDS defaults to 5: on a shared VM
# two or three rounds cannot tell a 5% deviation from noise.
#
# Pairs come from bench/pairs/*.pairs, one per line (blank lines and `#` comments skipped):
#
#   label | ours args | C command [| band]
#   pipe  | pipe 10   | pgms/pipe 10
#
# The band is the ratio range the pair is expected to fall in, `0.90-1.10` say; the default is
# 0.95-1.05 (BAND=LO-HI in the environment changes the default).
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
# medians (ours/C), the range of the per-round ratios, its spread (highest over lowest), the
# verdict and the load average (1 min) before and after the pair's rounds. The verdict:
# `within` when every round's ratio lies in the band, `outside` when none does, else
# `undecided` when the spread is wider than the band (the noise hides the answer), else what
# the median says.
#
# ONLY="label label ..." in the environment restricts the run to those pairs.
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
ROUNDS=${3:-5}
BAND=${BAND:-0.95-1.05}
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
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }

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

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $ROUNDS rounds, load average (1/5/15 min) $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
printf '%-22s %14s %14s %7s  %-13s %6s  %-9s %-9s %s\n' "test" "ours (median)" "C (median)" \
    "ours/C" "per round" "spread" "band" "verdict" "load"
for pairs in "$HERE"/pairs/*.pairs; do
    [ -f "$pairs" ] || continue
    while IFS= read -r line || [ -n "$line" ]; do
        case $(trim "$line") in '' | '#'*) continue ;; esac
        label=$(trim "${line%%|*}")
        if [ -n "${ONLY:-}" ]; then
            case " $ONLY " in *" $label "*) ;; *) continue ;; esac
        fi
        rest=${line#*|}
        ours=$(trim "${rest%%|*}")
        rest=${rest#*|}
        c=$(trim "${rest%%|*}")
        band=$BAND
        case $rest in *'|'*) band=$(trim "${rest#*|}") ;; esac
        load0=$(load)
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
        awk -v label="$label" -v band="$band" -v load0="$load0" -v load1="$(load)" '
            function median(v, n,   i, j, x) {
                for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
                return (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
            }
            $1 == "FAIL" || $2 == "FAIL" { fail = 1; next }
            { n++; a[n] = $1; b[n] = $2; q = ($2 > 0) ? $1 / $2 : 0
              if (n == 1 || q < lo) lo = q; if (n == 1 || q > hi) hi = q }
            END {
                if (n == 0) { printf "%-22s %14s %14s %7s\n", label, "FAIL", "FAIL", "-"; exit }
                ma = median(a, n); mb = median(b, n); r = (mb > 0 ? ma / mb : 0)
                split(band, bl, "-"); blo = bl[1] + 0; bhi = bl[2] + 0
                spread = (lo > 0) ? hi / lo : 0
                if (lo >= blo && hi <= bhi) v = "within"
                else if (hi < blo || lo > bhi) v = "outside"
                else if (spread > bhi / blo) v = "undecided"
                else v = (r >= blo && r <= bhi) ? "within" : "outside"
                printf "%-22s %14.1f %14.1f %7.3f  %.3f-%.3f %6.3f  %-9s %-9s %s-%s%s\n", label, ma, mb, r, lo, hi,
                    spread, band, v, load0, load1, fail ? " (some rounds failed)" : ""
            }' "$TMP/rounds"
    done <"$pairs"
done
