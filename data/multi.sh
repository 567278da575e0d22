#!/bin/sh
# unixbench shell-script test, launcher: `multi.sh N` starts N copies of
# tst.sh in the background, each on the sort input, and waits for all of them.
# Temporary files land in the current directory; the scripts and the input
# are found beside this file.
#
# MULTI_SH_WORK_FACTOR=K (K > 1) makes every copy work on K concatenated
# copies of the input, a file made afresh by each run of this script.
case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
copies=${1:-1}
# UB_SEMANTICS=5.1.3: UnixBench 5.1.3's loop, which counts with expr (a program
# started per copy) and knows no work factor; tst.sh then reads ./sort.src.
case ${UB_SEMANTICS-} in
5.1.3)
	i=1
	while [ $i -le "$copies" ]; do
		/bin/sh "$here/tst.sh" &
		i=`expr $i + 1`
	done
	wait
	exit
esac
input=$here/sort.src
factor=${MULTI_SH_WORK_FACTOR:-1}
if [ "$factor" -gt 1 ]; then
	big=sort.src-alt.$$
	: > "$big"
	k=0
	while [ $k -lt "$factor" ]; do
		cat "$input" >> "$big"
		k=$((k + 1))
	done
	input=$big
fi
i=0
while [ $i -lt "$copies" ]; do
	/bin/sh "$here/tst.sh" "$input" &
	i=$((i + 1))
done
wait
if [ "$factor" -gt 1 ]; then
	rm "$input"
fi
