#!/usr/bin/env bash
# Runs test binaries of an already-built Khronos OpenCL CTS against cpucl and
# prints a pass/fail table (sub-tests passed / failed / skipped per binary).
#
#   scripts/run-cts.sh CTS_BUILD_DIR [ICD] [test_binary ...]
#
# ICD is an .icd file or a folder of them for OCL_ICD_VENDORS (default: this
# checkout's build/vendors/cpucl.icd). Test binaries default to the
# foundation set; "all" runs every test_* binary found. Each binary runs with
# a time limit (CTS_TIMEOUT seconds, default 1800); logs go to CTS_LOGS
# (default /tmp/cpucl-cts-logs). The CTS itself is not part of cpucl: build it
# from KhronosGroup/OpenCL-CTS outside this tree.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cts=${1:?usage: run-cts.sh CTS_BUILD_DIR [ICD] [test_binary ...]}
shift
icd=${1:-$top/build/vendors/cpucl.icd}
icd=$(realpath "$icd")
[ $# -gt 0 ] && shift
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(test_computeinfo test_api test_basic)
logs=${CTS_LOGS:-/tmp/cpucl-cts-logs}
limit=${CTS_TIMEOUT:-1800}
mkdir -p "$logs"

if [ "${tests[0]}" = all ]; then
    mapfile -t tests < <(find "$cts" -type f -perm -u+x -name 'test_*' -printf '%f\n' | sort -u)
fi

printf '%-32s %7s %7s %8s %6s %8s\n' binary passed failed skipped exit seconds
total_pass=0
total_fail=0
for name in "${tests[@]}"; do
    binary=$(find "$cts" -type f -perm -u+x -name "$name" | head -n 1)
    if [ -z "$binary" ]; then
        printf '%-32s %s\n' "$name" "not built"
        continue
    fi
    log=$logs/$name.log
    start=$(date +%s)
    # The CTS finds its data files relative to the binary's folder.
    (cd "$(dirname "$binary")" && OCL_ICD_VENDORS=$icd timeout "$limit" "$binary") >"$log" 2>&1
    status=$?
    seconds=$(($(date +%s) - start))
    # Sub-test result lines of the harness: "<name> passed", "<name> FAILED",
    # "<name> test not supported".
    passed=$(grep -cE '^[A-Za-z0-9_]+ passed$' "$log")
    failed=$(grep -cE '^[A-Za-z0-9_]+ FAILED$' "$log")
    skipped=$(grep -cE '^[A-Za-z0-9_]+ test (not supported|currently not implemented)$' "$log")
    [ "$status" -eq 124 ] && status=timeout
    printf '%-32s %7d %7d %8d %6s %8d\n' "$name" "$passed" "$failed" "$skipped" "$status" "$seconds"
    total_pass=$((total_pass + passed))
    total_fail=$((total_fail + failed))
done
echo "sub-tests: $total_pass passed, $total_fail failed (logs in $logs)"
