#!/bin/sh
# Fidelity of the graphics applets: each 2D workload against the system's x11perf with the same
# options, and ubgears against the C ubgears, on one private Xvfb. Each round runs our group,
# then x11perf on each of its workloads (then the next round), so load drifts hit both alike.
#
#   sh bench/graphics.sh UNIXBENCH_GRAPHICS [C_UBGEARS] [REPEAT] [SECONDS] [ROUNDS] [GROUPS...]
#
# Prints one line per workload: name, our rate, x11perf's rate, ratio (ours / x11perf), and for
# ubgears the fps of each. REPEAT and SECONDS default to 1 and 1 with x11perf's -repeat/-time
# semantics (x11perf needs REPEAT >= 2 to print the trep line gfx-x11 reads: 2 is used when 1
# is asked). C_UBGEARS is a path to the C program, or '-' to skip it.
set -eu

ours=${1:?usage: graphics.sh UNIXBENCH_GRAPHICS [C_UBGEARS] [REPEAT] [SECONDS] [ROUNDS] [GROUPS...]}
cub=${2:--}
repeat=${3:-2}
secs=${4:-1}
rounds=${5:-1}
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

out=$(mktemp)
# The rate of the last "trep" line, as gfx-x11 keeps it.
trep() { sed -n 's/.*trep @ *[0-9.]* msec ( *\([0-9.]*\)\/sec).*/\1/p' | tail -n 1; }

printf '%-20s %14s %14s %7s\n' workload ours x11perf ratio
for g in $groups; do
    r=0
    while [ "$r" -lt "$rounds" ]; do
        "$ours" 2d-"$g" "$repeat" "$secs" >"$out" 2>/dev/null || true
        for t in $(sed -n 's/^Test \([^:]*\):.*/\1/p' "$out"); do
            a=$(sed -n "s/^Test $t: \([0-9]*\) .*/\1/p" "$out")
            b=$(x11perf -repeat "$repeat" -subs 25 -time "$secs" -"$t" 2>/dev/null | trep)
            printf '%-20s %14s %14s %7s\n' "$t" "$a" "${b:-0}" \
                "$(awk -v a="$a" -v b="${b:-0}" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }')"
        done
        r=$((r + 1))
    done
done

if [ "$cub" != - ]; then
    r=0
    while [ "$r" -lt "$rounds" ]; do
        a=$("$ours" ubgears -time 10 2>&1 >/dev/null | awk -F'|' '/^COUNT/ { c = $2 } /^TIME/ { t = $2 } END { printf "%.1f", c / t }')
        b=$("$cub" -time 10 2>&1 >/dev/null | awk -F'|' '/^COUNT/ { c = $2 } /^TIME/ { t = $2 } END { printf "%.1f", c / t }')
        printf '%-20s %14s %14s %7s\n' ubgears "$a" "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')"
        r=$((r + 1))
    done
fi
rm -f "$out"
