#!/bin/sh
# Fidelity of the graphics applets on one private Xvfb: each 2D workload against the system's
# x11perf with the same options, and ubgears against a C ubgears built from UnixBench's source.
# Runs alternate per workload (ours, x11perf, ours, x11perf, ...) so background load hits both
# alike; each line gives every round's ratio and their median.
#
#   sh bench/graphics.sh UNIXBENCH_GRAPHICS [C_UBGEARS|-] [REPEAT] [SECONDS] [ROUNDS] [GROUP...]
#
# REPEAT and SECONDS are x11perf's -repeat and -time (default 2 and 1: gfx-x11 reads the `trep`
# line, which needs REPEAT >= 2). ubgears runs -time 10 per round.
set -eu

ours=${1:?usage: graphics.sh UNIXBENCH_GRAPHICS [C_UBGEARS|-] [REPEAT] [SECONDS] [ROUNDS] [GROUP...]}
cub=${2:--}
repeat=${3:-2}
secs=${4:-1}
rounds=${5:-3}
[ "$repeat" -ge 2 ] || repeat=2
shift $(( $# < 5 ? $# : 5 ))
groups=${*:-rects lines circle ellipse shapes aashapes polys text blit window}

command -v x11perf >/dev/null || { echo "graphics.sh: x11perf not found (Debian: apt-get install x11-apps)" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "graphics.sh: Xvfb not found (Debian: apt-get install xvfb)" >&2; exit 2; }

n=70
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT INT TERM
export DISPLAY=":$n" LIBGL_ALWAYS_SOFTWARE=1
sleep 2

# The rate of the last "trep" line, as gfx-x11 keeps it.
trep() { sed -n 's/.*trep @ *[0-9.]* msec ( *\([0-9.]*\)\/sec).*/\1/p' | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
median() { tr ' ' '\n' | grep -v '^-*$' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

printf '%-18s %12s %12s  %-24s %s\n' workload ours x11perf "ratios (ours/x11perf)" median
for g in $groups; do
    for t in $("$ours" 2d-"$g" --list-workloads); do
        r=0 ratios= a= b=
        while [ "$r" -lt "$rounds" ]; do
            a=$("$ours" 2d-"$g" --test "$t" "$repeat" "$secs" 2>/dev/null | sed -n "s/^Test $t: \([0-9]*\) .*/\1/p")
            b=$(x11perf -repeat "$repeat" -subs 25 -time "$secs" -"$t" 2>/dev/null | trep)
            ratios="$ratios $(ratio "${a:-0}" "${b:-0}")"
            r=$((r + 1))
        done
        printf '%-18s %12s %12s  %-24s %s\n' "$t" "${a:-0}" "${b:-0}" "$ratios" "$(echo $ratios | median)"
    done
done

if [ "$cub" != - ]; then
    fps() { "$@" -time 10 2>&1 >/dev/null | awk -F'|' '/^COUNT/ { c = $2 } /^TIME/ { t = $2 } END { if (t > 0) printf "%.1f", c / t }'; }
    r=0 ratios= a= b=
    while [ "$r" -lt "$rounds" ]; do
        a=$(fps "$ours" ubgears)
        b=$(fps "$cub")
        ratios="$ratios $(ratio "${a:-0}" "${b:-0}")"
        r=$((r + 1))
    done
    printf '%-18s %12s %12s  %-24s %s\n' ubgears "$a" "$b" "$ratios" "$(echo $ratios | median)"
fi
