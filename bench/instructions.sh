#!/bin/sh
# Instruction counts of our CPU kernels against the C programs, under callgrind (valgrind).
#
#   sh bench/instructions.sh UB CDIR [SECONDS]
#
# UB is our binary, CDIR a C UnixBench directory whose pgms/ holds dhry2reg and
# whetstone-double. SECONDS (default 3) is the Dhrystone duration; under valgrind the loop runs
# some 50 times slower, which changes how many loops fit in the alarm but not what one loop
# executes. Whetstone calibrates itself and runs about 10 s of valgrind time.
#
# Unlike a timing, an instruction count is exact whatever else the machine is doing, so this
# is the comparison to make on a loaded machine. It says what each program executes, not how
# fast: two loops of the same length can differ 2x in time (a dependency chain, a load that
# waits for a store). docs/FIDELITY.md ("CPU kernels") puts these counts next to CPU times.
#
# Output, per program and side: the total per Dhrystone loop (loops = the COUNT figure - 1)
# or per Whetstone pass of 100 loops (passes = the calibration passes + the measured ones),
# then each function with at least 0.5% of the instructions, per loop or per pass. Function
# names need symbols: the C build keeps them; for ours, build without stripping
# (CARGO_PROFILE_RELEASE_STRIP=false; stripping does not change the code). Inlined routines
# count in their caller; in ours Whetstone's calibration runs go to an inlined copy in `main`.
#
# Needs valgrind (callgrind_annotate included), POSIX sh and awk.

set -u

usage() {
    echo "usage: sh bench/instructions.sh UB CDIR [SECONDS]" >&2
    exit 2
}
[ $# -ge 2 ] && [ $# -le 3 ] || usage
UB=$1
CDIR=$2
SECS=${3:-3}
case $SECS in '' | *[!0-9]* | 0) echo "instructions.sh: SECONDS must be a whole number, 1 or more" >&2; exit 2 ;; esac
[ -x "$UB" ] || { echo "instructions.sh: $UB is not an executable file" >&2; exit 2; }
for p in dhry2reg whetstone-double; do
    [ -x "$CDIR/pgms/$p" ] || { echo "instructions.sh: $CDIR/pgms/$p is missing" >&2; exit 2; }
done
for t in valgrind callgrind_annotate; do
    command -v $t >/dev/null 2>&1 || { echo "instructions.sh: $t not found (install valgrind)" >&2; exit 2; }
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/instructions.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Runs one program under callgrind: $1 = tag, the rest = the command. Leaves $TMP/$tag.out
# (profile), .stdout and .stderr.
profile() {
    tag=$1
    shift
    valgrind --tool=callgrind --callgrind-out-file="$TMP/$tag.out" "$@" \
        >"$TMP/$tag.stdout" 2>"$TMP/$tag.stderr" </dev/null ||
        { echo "instructions.sh: '$*' failed under valgrind: $(tail -n 3 "$TMP/$tag.stderr")" >&2; return 1; }
}

# Prints the profile $1 divided by $2 units (loops or passes), labelled $3. callgrind_annotate
# lists a function once per source file it was inlined from; the lines are summed by function.
table() {
    callgrind_annotate --inclusive=no --threshold=100 "$1" 2>/dev/null | awk -v n="$2" -v label="$3" '
        /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 + 0; next }
        total > 0 && /^ *[0-9,]+ \(/ {
            v = $1; gsub(",", "", v)
            f = $0
            sub(/^ *[0-9,]+ \([ 0-9.%]*\) */, "", f)   # the count and its percentage
            sub(/ \[[^]]*\]$/, "", f)                   # the object file
            if (match(f, /^[^:]*:[^:]/)) f = substr(f, RLENGTH)   # the source file
            sub(/^unixbench::kernels::/, "", f)
            if (!(f in sum)) name[++k] = f
            sum[f] += v
        }
        END {
            printf "  %-44s %12.1f\n", label " total", total / n
            for (i = 2; i <= k; i++) {   # by count, largest first
                x = name[i]
                for (j = i - 1; j >= 1 && sum[name[j]] < sum[x]; j--) name[j + 1] = name[j]
                name[j + 1] = x
            }
            for (i = 1; i <= k; i++)
                if (sum[name[i]] >= total * 0.005) printf "    %-42s %12.1f\n", substr(name[i], 1, 42), sum[name[i]] / n
        }'
}

dhry() {
    tag=$1
    shift
    profile "$tag" "$@" "$SECS" || return
    loops=$(awk -F'|' '$1 == "COUNT" { c = $2 } END { print c - 1 }' "$TMP/$tag.stderr")
    [ "$loops" -gt 0 ] 2>/dev/null || { echo "instructions.sh: no COUNT line from $*" >&2; return; }
    table "$TMP/$tag.out" "$loops" "$tag, per loop ($loops loops)"
}

whets() {
    tag=$1
    shift
    profile "$tag" "$@" || return
    passes=$(awk '/Passes \(x 100\)/ { n += $3 } /^Use [0-9]+ +passes/ { n += $2 } END { print n + 0 }' "$TMP/$tag.stdout")
    [ "$passes" -gt 0 ] || { echo "instructions.sh: no pass counts in the output of $*" >&2; return; }
    table "$TMP/$tag.out" "$passes" "$tag, per pass ($passes passes)"
}

echo "dhry2reg: instructions per Dhrystone loop"
dhry "C" "$CDIR/pgms/dhry2reg"
dhry "ours" "$UB" dhry2reg
echo "whetstone-double: instructions per pass (x100 loops)"
whets "C" "$CDIR/pgms/whetstone-double"
whets "ours" "$UB" whetstone-double
