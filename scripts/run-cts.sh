#!/usr/bin/env bash
# run-cts.sh — run test binaries of an already-built Khronos OpenCL CTS
# against cpucl (or any ICD) and print a pass/fail table per binary.
#
#   scripts/run-cts.sh CTS_BUILD_DIR [ICD_FILE_OR_DIR] [test_binary[:sub,sub] ...]
#
#   CTS_BUILD_DIR    the CTS build folder; binaries are found anywhere below it
#                    (e.g. test_conformance/basic/test_basic).
#   ICD_FILE_OR_DIR  an .icd file, or a folder of them, given to the ICD loader
#                    as OCL_ICD_VENDORS (default: build/vendors of this
#                    checkout). Recognised as an ICD when it names an existing
#                    folder or ends in .icd; otherwise it is taken as a binary.
#   test_binary      default: test_basic test_api test_computeinfo.
#                    "all" runs every test_* binary found. A ":a,b" suffix runs
#                    only the named sub-tests, e.g. test_api:min_max_image_2d_width
#
# Environment: CTS_TIMEOUT  seconds per binary (default 1800)
#              CTS_LOGS     log folder (default /tmp/cpucl-cts-logs)
#
# Counts come from the harness's JSON results file (CL_CONFORMANCE_RESULTS_FILENAME)
# when the binary got as far as writing it; otherwise (crash, time limit) from
# the harness's per-sub-test lines in the log ("<name> passed",
# "<name> FAILED", "<name> test not supported", ...), so partial runs still
# count. The "note" column gives the harness's summary line ("PASSED 42 of 42
# tests.", "FAILED 3 of 45 tests.") or the sub-test a crashed run was in.
# Exit status: 0 when every binary ran to the end with no failed sub-test.
#
# The CTS itself is not part of cpucl: build it from KhronosGroup/OpenCL-CTS
# outside this tree.
set -u

usage="usage: $0 CTS_BUILD_DIR [ICD_FILE_OR_DIR] [test_binary[:sub,sub] ...]"
top=$(cd "$(dirname "$0")/.." && pwd)

[ $# -ge 1 ] || { echo "$usage" >&2; exit 2; }
cts=$1
shift
[ -d "$cts" ] || { echo "no such CTS build folder: $cts" >&2; exit 2; }

icd=$top/build/vendors
if [ $# -ge 1 ] && { [ -d "$1" ] || [[ $1 == *.icd ]]; }; then
    icd=$1
    shift
fi
[ -e "$icd" ] || { echo "no such ICD file or folder: $icd" >&2; exit 2; }
icd=$(realpath "$icd")

tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=(test_basic test_api test_computeinfo)
if [ "${tests[0]}" = all ]; then
    mapfile -t tests < <(find "$cts" -type f -perm -u+x -name 'test_*' \
                             ! -name '*.*' -printf '%f\n' | sort -u)
fi

logs=${CTS_LOGS:-/tmp/cpucl-cts-logs}
limit=${CTS_TIMEOUT:-1800}
mkdir -p "$logs"
logs=$(realpath "$logs")

# Line-buffer the binaries' stdout so a crash loses no result line.
linebuf=()
command -v stdbuf >/dev/null && linebuf=(stdbuf -oL -eL)

# status_text STATUS: "0", "1", "timeout", "SIGSEGV", ...
status_text() {
    local s=$1
    if [ "$timed_out" = yes ]; then
        echo timeout
    elif [ "$s" -gt 128 ] && [ "$s" -lt 160 ]; then
        echo "SIG$(kill -l $((s - 128)) 2>/dev/null || echo $((s - 128)))"
    else
        echo "$s"
    fi
}

# count_json FILE RESULT: number of sub-tests with that result in a JSON file.
count_json() { grep -cE "^[[:space:]]*\"[^\"]+\": \"$2\"" "$1"; }

# count_log FILE KIND: number of harness result lines of that kind in a log.
count_log() {
    case $2 in
        pass) grep -cE '^[^ ]+ passed$' "$1" ;;
        fail) grep -cE '^[^ ]+ FAILED$' "$1" ;;
        skip) grep -cE '^([^ ]+ test (not supported|currently not implemented)|[^ ]+ skipped \(requires at least .*\)|Subtest [^ ]+ tests is not supported .*)$' "$1" ;;
    esac
}

# last_started FILE: the sub-test a run was in when it stopped, if any.
last_started() {
    local name
    name=$(grep -E '^[^ ]+\.\.\.$' "$1" | tail -n 1 | sed 's/\.\.\.$//')
    [ -n "$name" ] || return 0
    grep -qE "^$name (passed|FAILED|test not supported|test currently not implemented|skipped)" "$1" \
        || echo "$name"
}

row='%-34s %7s %7s %8s %8s %8s  %s\n'
printf "$row" binary passed failed skipped exit seconds note
all_ok=yes
total_pass=0 total_fail=0 total_skip=0
for spec in "${tests[@]}"; do
    name=${spec%%:*}
    subtests=()
    [[ $spec == *:* ]] && IFS=, read -r -a subtests <<<"${spec#*:}"

    binary=$(find "$cts" -type f -perm -u+x -name "$name" | sort | head -n 1)
    if [ -z "$binary" ]; then
        printf "$row" "$name" - - - - - "not built"
        all_ok=no
        continue
    fi

    log=$logs/$name.log
    json=$logs/$name.json
    rm -f "$json"
    start=$(date +%s)
    # The CTS finds its data files (e.g. spirv_new's spirv_bin) relative to
    # the working folder: run from the binary's folder.
    # (The outer braces send bash's own "Segmentation fault" report to the log.)
    {
        (
            cd "$(dirname "$binary")" &&
            OCL_ICD_VENDORS=$icd CL_CONFORMANCE_RESULTS_FILENAME=$json \
                exec timeout -k 30 "$limit" "${linebuf[@]}" "$binary" "${subtests[@]}"
        ) </dev/null
        status=$?
    } >"$log" 2>&1
    seconds=$(($(date +%s) - start))
    timed_out=no
    # timeout(1) answers 124, or 137 when the binary needed SIGKILL.
    { [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; } && [ "$seconds" -ge "$limit" ] && timed_out=yes

    if [ -s "$json" ]; then
        passed=$(count_json "$json" pass)
        failed=$(count_json "$json" fail)
        skipped=$(count_json "$json" skip)
    else
        passed=$(count_log "$log" pass)
        failed=$(count_log "$log" fail)
        skipped=$(count_log "$log" skip)
    fi

    note=$(grep -E '^(PASSED|FAILED|SKIPPED) ([0-9]+ of [0-9]+ )?tests?\.$' "$log" | tail -n 1)
    if [ "$status" -gt 128 ] || [ "$timed_out" = yes ]; then
        current=$(last_started "$log")
        note="stopped${current:+ in $current}"
    fi
    [ -z "$note" ] && [ "$status" -ne 0 ] && note=$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c1-60)

    printf "$row" "$name" "$passed" "$failed" "$skipped" "$(status_text "$status")" "$seconds" "$note"
    total_pass=$((total_pass + passed))
    total_fail=$((total_fail + failed))
    total_skip=$((total_skip + skipped))
    { [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; } && all_ok=no
done
printf "$row" total "$total_pass" "$total_fail" "$total_skip" "" "" "logs in $logs"
[ "$all_ok" = yes ]
