#!/bin/sh
# Fidelity of the looper tests: our looper and data files against the C UnixBench's looper,
# scripts and data files, on this machine, with the same /bin/sh and the same tools.
#
#   sh bench/shell.sh UNIXBENCH CDIR [SECONDS] [ROUNDS] [TEST...]
#
# UNIXBENCH is our binary; CDIR is a built C UnixBench (its pgms/ and testdir/). TESTs are
# shell1 shell8 shell16 grep C (default: shell1 shell8); SECONDS defaults to 30, ROUNDS to 3.
# Each round runs, one after another (the order alternates between rounds, so background load
# hits all alike):
#   ours   our looper, our scripts, our data, in a directory written by `unixbench workdir`
#   C      the C looper, scripts and data, UB_BINDIR=CDIR/pgms, cwd a copy of CDIR/testdir
#          (Run uses testdir itself; the copy leaves CDIR untouched)
#   C+in   the C looper and scripts on our data (cwd = our directory): the input's own effect
# A score is Run's: iterations per minute of wall time until EOF on the test's stderr (which
# includes looper's in-flight iteration). With GNU time at /usr/bin/time, each run's CPU time
# per iteration (user + system of looper and the iterations it waited for) is measured too:
# a figure that other load on the machine disturbs far less than wall time. Prints each
# round, then per test the ratios ours/C and (C+in)/C of both (for CPU, as scores: the
# inverse ratio of the CPU times), as the mean over rounds and the range.
set -eu
[ $# -ge 2 ] || { echo "usage: sh bench/shell.sh UNIXBENCH CDIR [SECONDS] [ROUNDS] [TEST...]" >&2; exit 2; }
ub=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cdir=$(cd "$2" && pwd)
secs=${3:-30}
rounds=${4:-3}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
tests=${*:-shell1 shell8}
[ -x "$cdir/pgms/looper" ] && [ -f "$cdir/testdir/sort.src" ] || { echo "shell.sh: $cdir is not a built UnixBench" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/ub-shellbench-XXXXXX")
trap 'rm -rf "$work" "$work.c" "$work.out" "$work.time"' EXIT
trap 'exit 130' INT TERM
"$ub" workdir "$work"
ctest=$work.c
cp -R "$cdir/testdir" "$ctest"
export LANG=en_US.utf8 UB_BINDIR="$cdir/pgms"

# Command of a test for one side: ours, c, cin. Prints the argv (the driver's, for ours).
cmd() {
	side=$1 t=$2
	case $side in
	ours) "$ub" workdir "$work" "$t" "$secs" | tr '\n' ' ' ;;
	*)
		case $t in
		shell*) echo "$cdir/pgms/looper $secs $cdir/pgms/multi.sh ${t#shell}" ;;
		grep) echo "$cdir/pgms/looper $secs grep -c gimp large.txt" ;;
		C) echo "$cdir/pgms/looper $secs gcc cctest.c" ;;
		esac
		;;
	esac
}

# One measurement: prints iterations per minute of wall time to stderr EOF.
measure() {
	side=$1 t=$2
	case $side in
	ours) dir=$work run="$ub" ;;
	c) dir=$ctest run= ;;
	cin) dir=$work run= ;;
	esac
	c=$(cmd "$side" "$t")
	start=$(date +%s.%N)
	# shellcheck disable=SC2086 # word splitting of the command is intended
	# stdout to a file, as Run sends it to a pipe: GNU grep stops at its first match when its
	# output is /dev/null, which would change what the grep test measures.
	if [ -x /usr/bin/time ]; then
		err=$(cd "$dir" && /usr/bin/time -o "$work.time" -f '%U %S' $run $c 2>&1 >"$work.out")
	else
		err=$(cd "$dir" && $run $c 2>&1 >"$work.out")
		echo "0 0" > "$work.time"
	fi
	end=$(date +%s.%N)
	# The C test removes these after each pass; so do we.
	rm -f "$dir/a.out" "$dir/cctest.o"
	count=$(printf '%s\n' "$err" | sed -n 's/^COUNT|\([0-9]*\)|60|lpm$/\1/p')
	[ -n "$count" ] || { echo "shell.sh: $side $t failed: $err" >&2; exit 1; }
	echo "$count $start $end $(cat "$work.time")" |
		awk '{ printf "%.1f %.3f\n", $1 * 60 / ($3 - $2), ($4 + $5) * 1000 / $1 }'
}

results=$work/results
: > "$results"
r=1
while [ "$r" -le "$rounds" ]; do
	for t in $tests; do
		if [ $((r % 2)) -eq 1 ]; then order="ours c cin"; else order="cin c ours"; fi
		for side in $order; do
			v=$(measure "$side" "$t")
			echo "round $r  $t  $side  ${v% *} lpm  ${v#* } ms CPU/iteration"
			echo "$t $r $side $v" >> "$results"
		done
	done
	r=$((r + 1))
done
echo
echo "test      ours/C wall (min-max)   (C+in)/C wall (min-max)   ours/C CPU (min-max)    (C+in)/C CPU (min-max)"
for t in $tests; do
	awk -v t="$t" '
		function acc(k, x) { s[k] += x; if (!(k in lo) || x < lo[k]) lo[k] = x; if (!(k in hi) || x > hi[k]) hi[k] = x }
		$1 == t { w[$2, $3] = $4; c[$2, $3] = $5; if ($2 > n) n = $2 }
		END {
			for (i = 1; i <= n; i++) {
				acc(1, w[i, "ours"] / w[i, "c"]); acc(2, w[i, "cin"] / w[i, "c"])
				if (c[i, "ours"] > 0 && c[i, "cin"] > 0) { acc(3, c[i, "c"] / c[i, "ours"]); acc(4, c[i, "c"] / c[i, "cin"]) }
			}
			printf "%-8s", t
			for (k = 1; k <= 4; k++) if (k in s) printf "  %.3f (%.3f-%.3f)   ", s[k] / n, lo[k], hi[k]
			printf "\n"
		}' "$results"
done
