#!/bin/sh
# oom_sweep.sh SHIM WORKLOAD - runs WORKLOAD once for each allocation that
# cpucl's own code makes in it, that allocation failing (SHIM is
# fail_alloc.so, preloaded): every run must end on its own, neither
# crashing nor hanging (60 s) nor giving wrong values. Stops at the first
# run in which no allocation was left to fail. The kernel cache is off, so
# that every run compiles.
shim=$1
workload=$2
n=0
bad=0
while :; do
    out=$(FAIL_AT=$n CPUCL_CACHE=0 LD_PRELOAD=$shim timeout 60 "$workload" 2>&1)
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "allocation $n failing: exit status $rc (124: hung; 128+N: signal N)"
        echo "$out" | tail -3
        bad=$((bad + 1))
    fi
    case $out in
    *"failing allocation"*) n=$((n + 1)) ;;
    *) break ;;
    esac
done
echo "$n allocations failed one at a time: $bad runs crashed, hung or went wrong"
[ $bad -eq 0 ] && [ $n -gt 0 ]
