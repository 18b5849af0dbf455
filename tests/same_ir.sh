#!/bin/sh
# same_ir.sh PROGRAM - runs a test program three times, each in a process
# of its own, with the kernel cache off and CPUCL_DUMP_IR=1, and fails
# unless every run printed the same optimised IR: a compile must not
# depend on where the heap put things (regions.c once cloned a region's
# blocks in the order of their addresses, and O3 then made different code
# of the same kernel from one run to the next, up to 8x slower).
set -u
first=
for run in 1 2 3; do
    sum=$(CPUCL_DUMP_IR=1 CPUCL_CACHE=0 "$1" 2>&1 >/dev/null | md5sum) || exit 1
    if [ -z "$first" ]; then
        first=$sum
    elif [ "$sum" != "$first" ]; then
        echo "run $run printed other IR than run 1" >&2
        exit 1
    fi
done
echo "3 runs, the same IR"
