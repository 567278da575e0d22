#!/bin/sh
# Our `lmbench` figures against lmbench's own programs, figure by figure, alternating runs
# (ours, lmbench's, ours, ...) so that background load hits both alike.
#
#   sh bench/lmbench.sh UNIXBENCH LMBENCH_BIN_DIR [ROUNDS] [FIGURE...]
#
# LMBENCH_BIN_DIR holds lmbench's built programs (its bin/<arch>/ after `make build`). Both
# sides use 100 ms intervals (ENOUGH=100000 for lmbench, our default) and 11 samples. Prints
# one line per figure: name, our median, lmbench's median, ratio ours/lmbench, and the
# max/min spread of each side over the rounds. Latencies are microseconds (nanoseconds for the
# memory points), bandwidths MB/s: for a bandwidth a ratio above 1 means we measured faster,
# for a latency slower.
#
# lat_proc's exec and shell tests run lmbench's `hello` from the fixed path lat_proc.c
# compiles in (/tmp/hello); this script copies it there and removes it afterwards. The network
# servers lmbench needs are started on loopback and stopped with their -S option.
set -u
UB=${1:?usage: lmbench.sh UNIXBENCH LMBENCH_BIN_DIR [ROUNDS] [FIGURE...]}
L=${2:?usage: lmbench.sh UNIXBENCH LMBENCH_BIN_DIR [ROUNDS] [FIGURE...]}
ROUNDS=${3:-3}
shift 3 2>/dev/null || shift $#
[ -x "$L/lat_syscall" ] || { echo "lmbench.sh: no lmbench programs in $L" >&2; exit 2; }
[ -x "$UB" ] || { echo "lmbench.sh: $UB is not executable" >&2; exit 2; }

export ENOUGH=100000
# Without these each lmbench program spends seconds measuring its clock and loop overheads
# before it starts; lmbench's config-run exports them too, from its timing_o and loop_o
# programs (which give 0 and about 1e-5 us on current machines). Override them if you like.
export TIMING_O="${TIMING_O:-0}" LOOP_O="${LOOP_O:-0}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lmbench-bench-XXXXXX") || exit 1
HELLO=/tmp/hello
trap 'rm -rf "$WORK"; rm -f "$HELLO"' EXIT
trap 'exit 130' INT TERM
cp "$L/hello" "$HELLO"
echo lmb > "$WORK/statfile"
# Our sizes, read back from our own JSON so both sides measure the same points. Not with -s:
# the short mode uses 8 MiB buffers, and lmbench then ran at 8 MiB (inside the L3 cache)
# against our 64 MiB, which made every bandwidth and the mapping figures disagree.
"$UB" lmbench --only lat_l1 --json "$WORK/p.json" >/dev/null || exit 1
param() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$WORK/p.json"; }
MB=$(param buffer_bytes); L1=$(param l1_point_bytes); L2=$(param l2_point_bytes)
MAIN=$(param main_point_bytes)
MBK=$((MB / 1024)); HALFK=$((MB / 2048))
# The file lat_mmap, lat_pagefault, bw_file_rd and bw_mmap_rd read is written again just before
# each of them, as ours writes its own just before: on kernels with large page-cache folios a
# file that has been out of the cache and faulted back in small folios costs lat_pagefault
# 8x more per page (0.32 against 0.04 us measured), and a long run ages the file.
fresh() { rm -f "$WORK/XXX"; dd if=/dev/zero of="$WORK/XXX" bs=1M count=$((MB / 1048576)) 2>/dev/null; sync; }
fresh
mkdir "$WORK/fsdir"

ours() { # FIGURE -> value
    "$UB" lmbench --only "$1" --dir "$WORK" --json "$WORK/o.json" >/dev/null 2>&1
    sed -n "/\"figures\"/,/}/s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$WORK/o.json"
}
field() { awk -v f="$1" -v p="$2" '$0 ~ p { v = $f } END { if (v != "") print v }'; }
theirs() { # FIGURE -> value, from lmbench's own output
    case $1 in
    lat_syscall) "$L/lat_syscall" null 2>&1 | field 3 "Simple syscall" ;;
    lat_nullio)
        r=$("$L/lat_syscall" read 2>&1 | field 3 "Simple read")
        w=$("$L/lat_syscall" write 2>&1 | field 3 "Simple write")
        echo "$r $w" | awk '{ print ($1 + $2) / 2 }' ;;
    lat_stat) "$L/lat_syscall" stat "$WORK/statfile" 2>&1 | field 3 "Simple stat" ;;
    lat_openclose) "$L/lat_syscall" open "$WORK/statfile" 2>&1 | field 3 "Simple open" ;;
    lat_tcp_select) "$L/lat_select" -n 100 tcp 2>&1 | field 6 "Select on" ;;
    lat_fd_select) (cd "$WORK" && "$L/lat_select" -n 100 file 2>&1 | field 5 "Select on") ;;
    lat_siginstall) "$L/lat_sig" install 2>&1 | field 4 "installation" ;;
    lat_sigcatch) "$L/lat_sig" catch 2>&1 | field 4 "overhead" ;;
    lat_protfault) "$L/lat_sig" prot "$WORK/statfile" 2>&1 | field 3 "Protection fault" ;;
    lat_nullproc) "$L/lat_proc" fork 2>&1 | field 3 "fork.exit" ;;
    lat_simpleproc) "$L/lat_proc" exec 2>&1 | field 3 "fork.execve" ;;
    lat_shproc) "$L/lat_proc" shell 2>&1 | field 4 "bin.sh" ;;
    lat_ctx0_2) "$L/lat_ctx" -s 0 2 2>&1 | field 2 "^2 " ;;
    lat_ctx16_2) "$L/lat_ctx" -s 16 2 8 16 2>&1 | field 2 "^2 " ;;
    lat_ctx16_8) "$L/lat_ctx" -s 16 2 8 16 2>&1 | field 2 "^8 " ;;
    lat_ctx16_16) "$L/lat_ctx" -s 16 2 8 16 2>&1 | field 2 "^16 " ;;
    lat_ctx64_2) "$L/lat_ctx" -s 64 2 8 16 2>&1 | field 2 "^2 " ;;
    lat_ctx64_8) "$L/lat_ctx" -s 64 2 8 16 2>&1 | field 2 "^8 " ;;
    lat_ctx64_16) "$L/lat_ctx" -s 64 2 8 16 2>&1 | field 2 "^16 " ;;
    lat_pipe) "$L/lat_pipe" 2>&1 | field 3 "Pipe latency" ;;
    lat_unix) "$L/lat_unix" 2>&1 | field 5 "AF_UNIX" ;;
    lat_udp_local | lat_tcp_local | lat_tcp_connect_local)
        p=$(echo "$1" | sed 's/_local//; s/lat_tcp_connect/lat_connect/')
        "$L/$p" -s </dev/null >/dev/null 2>&1; sleep 0.2
        case $p in lat_connect) "$L/$p" 127.0.0.1 2>&1 | field 6 "connection cost" ;;
                   *) "$L/$p" 127.0.0.1 2>&1 | field 5 "latency using" ;; esac
        "$L/$p" -S 127.0.0.1 >/dev/null 2>&1 ;;
    fs_create_0k | fs_delete_0k | fs_create_10k | fs_delete_10k)
        # lat_fs -s 0 means "every size" (0k, 1k, 4k, 10k); take the row of ours.
        s=${1#fs_*_}; col=3; case $1 in fs_delete*) col=4 ;; esac
        "$L/lat_fs" -s "$s" "$WORK/fsdir" 2>&1 | awk -v c=$col -v want="$s" '$1 == want && $c > 0 { print 1e6 / $c }' ;;
    lat_mappings) fresh; "$L/lat_mmap" "${MBK}k" "$WORK/XXX" 2>&1 | field 2 "^[0-9]" ;;
    lat_pagefault) fresh; "$L/lat_pagefault" "$WORK/XXX" 2>&1 | field 4 "Pagefaults" ;;
    bw_pipe) "$L/bw_pipe" 2>&1 | field 3 "Pipe bandwidth" ;;
    bw_unix) "$L/bw_unix" 2>&1 | field 5 "AF_UNIX" ;;
    bw_tcp_local)
        "$L/bw_tcp" -s </dev/null >/dev/null 2>&1; sleep 0.2
        "$L/bw_tcp" -W 1000000 -m 10M 127.0.0.1 2>&1 | field 2 "^[0-9]"
        "$L/bw_tcp" -S 127.0.0.1 >/dev/null 2>&1 ;;
    bw_reread) fresh; "$L/bw_file_rd" "${MBK}k" io_only "$WORK/XXX" 2>&1 | field 2 "^[0-9]" ;;
    bw_mmap) fresh; "$L/bw_mmap_rd" "${MBK}k" mmap_only "$WORK/XXX" 2>&1 | field 2 "^[0-9]" ;;
    bw_bcopy_libc) "$L/bw_mem" "${HALFK}k" bcopy 2>&1 | field 2 "^[0-9]" ;;
    bw_bcopy_unrolled) "$L/bw_mem" "${HALFK}k" fcp 2>&1 | field 2 "^[0-9]" ;;
    bw_mem_rdsum) "$L/bw_mem" "${MBK}k" frd 2>&1 | field 2 "^[0-9]" ;;
    bw_mem_wr) "$L/bw_mem" "${MBK}k" fwr 2>&1 | field 2 "^[0-9]" ;;
    mhz) "$L/mhz" 2>&1 | field 1 "MHz" ;;
    lat_l1 | lat_l2 | lat_mem | lat_mem_rand)
        # lat_mem_rd sweeps from 512 bytes to LEN MB; take the point at our size. The random
        # run is lmbench's script's `lat_mem_rd -t $MB 16`, whose sweep takes many minutes.
        case $1 in lat_l1) b=$L1 ;; lat_l2) b=$L2 ;; *) b=$MAIN ;; esac
        mb=$(( (b + 1048575) / 1048576 ))
        case $1 in lat_mem_rand) set -- -t "$mb" 16 ;; *) set -- "$mb" 128 ;; esac
        "$L/lat_mem_rd" -N 11 "$@" 2>&1 | awk -v want="$b" '
            $1 ~ /^[0-9.]+$/ { d = $1 * 1048576 - want; if (d < 0) d = -d; if (best == "" || d < bd) { bd = d; best = $2 } }
            END { print best }' ;;
    *) echo "lmbench.sh: no lmbench command for $1" >&2 ;;
    esac
}

FIGS=${*:-"lat_syscall lat_nullio lat_stat lat_openclose lat_tcp_select lat_siginstall lat_sigcatch
  lat_nullproc lat_simpleproc lat_shproc lat_ctx0_2 lat_ctx16_2 lat_ctx16_8 lat_ctx16_16 lat_ctx64_2
  lat_ctx64_8 lat_ctx64_16 lat_pipe lat_unix lat_udp_local lat_tcp_local lat_tcp_connect_local
  fs_create_0k fs_delete_0k fs_create_10k fs_delete_10k lat_mappings lat_protfault lat_pagefault
  lat_fd_select bw_pipe bw_unix bw_tcp_local bw_reread bw_mmap bw_bcopy_libc bw_bcopy_unrolled
  bw_mem_rdsum bw_mem_wr mhz lat_l1 lat_l2 lat_mem lat_mem_rand"}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print ""; else if (NR % 2) printf "%.4g\n", v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
spread() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { if (lo > 0) printf "%.2f", hi / lo; else print "-" }'; }

printf '%-22s %12s %12s %7s %7s %7s\n' figure ours lmbench ratio "s.ours" "s.lmb"
for f in $FIGS; do
    : > "$WORK/a"; : > "$WORK/b"
    i=0
    while [ $i -lt "$ROUNDS" ]; do
        v=$(ours "$f"); [ -n "$v" ] && echo "$v" >> "$WORK/a"
        v=$(theirs "$f"); [ -n "$v" ] && echo "$v" >> "$WORK/b"
        i=$((i + 1))
    done
    a=$(median < "$WORK/a"); b=$(median < "$WORK/b")
    r=$(echo "$a $b" | awk '$1 > 0 && $2 > 0 { printf "%.3f", $1 / $2; exit } { print "-" }')
    printf '%-22s %12s %12s %7s %7s %7s\n' "$f" "${a:--}" "${b:--}" "$r" "$(spread < "$WORK/a")" "$(spread < "$WORK/b")"
done
