#!/bin/sh
# Fidelity of the graphics applets: each 2D workload against the system's x11perf with the same
# options, and ubgears against a C ubgears built from UnixBench's source. On a shared, loaded
# machine sequential runs differ by far more than the programs do, so each round runs ours and
# theirs at the same time, each on its own identical private Xvfb (the displays swap every
# round): whatever load comes hits both alike. Each line gives every round's ratio (ours /
# theirs) and their median.
#
# Rates under load scatter widely, so a second, load-proof check runs both with the same fixed
# rep count (x11perf's -reps, our --reps) and compares the CPU time each X server spent: equal
# server work for equal objects is what makes the rates equal on a quiet machine.
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

tmp=$(mktemp -d)
# Xvfb -displayfd picks a free display number itself and writes it to the descriptor.
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$tmp/d1" >/dev/null 2>&1 &
x1=$!
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$tmp/d2" >/dev/null 2>&1 &
x2=$!
trap 'kill $x1 $x2 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM
i=0
while [ ! -s "$tmp/d1" ] || [ ! -s "$tmp/d2" ]; do
    i=$((i + 1))
    [ "$i" -le 100 ] || { echo "graphics.sh: Xvfb did not start" >&2; exit 1; }
    sleep 0.1
done
d1=$(cat "$tmp/d1") d2=$(cat "$tmp/d2")
export LIBGL_ALWAYS_SOFTWARE=1

# The rate of the last "trep" line, as gfx-x11 keeps it.
trep() { sed -n 's/.*trep @ *[0-9.]* msec ( *\([0-9.]*\)\/sec).*/\1/p' | tail -n 1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
median() { tr ' ' '\n' | grep -v '^-*$' | sort -n | awk '{ v[NR] = $1 } END { if (NR) print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2); else print "-" }'; }

round=0
pair() { # pair OURS_CMD THEIRS_CMD: both at once, on displays swapped every round
    round=$((round + 1))
    if [ $((round % 2)) = 0 ]; then da=$d1 db=$d2 pa_x=$x1 pb_x=$x2; else da=$d2 db=$d1 pa_x=$x2 pb_x=$x1; fi
    ca=$(cpu $pa_x) cb=$(cpu $pb_x)
    DISPLAY=":$da" sh -c "$1" >"$tmp/a" 2>&1 &
    pa=$!
    DISPLAY=":$db" sh -c "$2" >"$tmp/b" 2>&1 &
    pb=$!
    wait $pa $pb || true
    ca=$(( $(cpu $pa_x) - ca )) cb=$(( $(cpu $pb_x) - cb ))
}
# CPU time (clock ticks) an X server has used.
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
printf '%-18s %10s %10s  %-22s %6s  %-22s %6s\n' workload ours x11perf "rate ratios" median "server-cpu ratios" median
for g in $groups; do
    "$ours" 2d-"$g" --list-workloads | while read -r t objects; do
        r=0 ratios= cratios= a= b= n=
        while [ "$r" -lt "$rounds" ]; do
            pair "'$ours' 2d-$g --test $t $repeat $secs" "x11perf -repeat $repeat -subs 25 -time $secs -$t"
            a=$(sed -n "s/^Test $t: \([0-9]*\) .*/\1/p" "$tmp/a")
            b=$(trep <"$tmp/b")
            ratios="$ratios $(ratio "${a:-0}" "${b:-0}")"
            [ -n "$n" ] || n=$(sed -n 's/^ *\([0-9]*\) reps @.*/\1/p' "$tmp/a" | head -n 1)
            r=$((r + 1))
        done
        reps=$(( ${n:-0} / objects / 2 / secs ))
        [ "$reps" -ge 1 ] || reps=1
        r=0
        while [ "$r" -lt "$rounds" ]; do
            pair "'$ours' 2d-$g --test $t --reps $reps $repeat $secs" "x11perf -repeat $repeat -subs 25 -reps $reps -$t"
            cratios="$cratios $(ratio "$ca" "$cb")"
            r=$((r + 1))
        done
        printf '%-18s %10s %10s  %-22s %6s  %-22s %6s\n' "$t" "${a:-0}" "${b:-0}" "$ratios" \
            "$(echo $ratios | median)" "$cratios" "$(echo $cratios | median)"
    done
done

if [ "$cub" != - ]; then
    fps() { awk -F'|' '/^COUNT/ { c = $2 } /^TIME/ { t = $2 } END { if (t > 0) printf "%.1f", c / t }' "$1"; }
    r=0 ratios= a= b=
    while [ "$r" -lt "$rounds" ]; do
        pair "'$ours' ubgears -time 10" "'$cub' -time 10"
        a=$(fps "$tmp/a")
        b=$(fps "$tmp/b")
        ratios="$ratios $(ratio "${a:-0}" "${b:-0}")"
        r=$((r + 1))
    done
    printf '%-18s %10s %10s  %-22s %6s\n' ubgears "$a" "$b" "$ratios" "$(echo $ratios | median)"
fi
