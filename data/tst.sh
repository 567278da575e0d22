#!/bin/sh
# unixbench shell-script test, one copy: `tst.sh INPUT` sorts INPUT, sorts an
# octal dump of the result numerically, and counts the lines holding "the",
# through a tee, then removes its four files. Each file is named after this
# shell's pid, so parallel copies in one directory do not collide. Without
# INPUT (UnixBench 5.1.3's way) it reads sort.src in the current directory.
sort < "${1:-sort.src}" > sort.$$
od sort.$$ | sort -n -k 1 > od.$$
grep the sort.$$ | tee grep.$$ | wc > wc.$$
rm sort.$$ grep.$$ od.$$ wc.$$
