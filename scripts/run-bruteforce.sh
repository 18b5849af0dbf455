#!/usr/bin/env bash
# run-bruteforce.sh — the CTS's math test (test_bruteforce) of an
# already-built Khronos OpenCL CTS, one run per function and precision,
# against cpucl (or any ICD), with a table line per function as it ends:
# result, worst error in ulps (and the relaxed-math variant's), seconds.
#
#   scripts/run-bruteforce.sh CTS_BUILD_DIR ICD_FILE PRECISION function ...
#
#   PRECISION  float, double or half; test_bruteforce's -d, -f and -g switch
#              the other two off (and -r the relaxed-math float runs, which
#              belong to float).
#   function   as test_bruteforce names them (sin, half_sin, add, ...);
#              "all" for every one it lists.
#
# Environment: BF_WIMPY=1  the quick mode (-w) instead of the full one
#              BF_LOGS     log folder (default /tmp/cpucl-bruteforce-logs),
#                          one <function>_<precision>.log each
#
# The full mode takes minutes to an hour a function on a small machine
# (README: the figures so far); run it in the background, e.g. under nohup.
# Exit status: 0 when every run passed.
set -u

usage="usage: $0 CTS_BUILD_DIR ICD_FILE float|double|half function ..."
[ $# -ge 4 ] || { echo "$usage" >&2; exit 2; }
cts=$1 icd=$2 precision=$3
shift 3
binary=$(find "$cts" -type f -perm -u+x -name test_bruteforce | head -n 1)
[ -n "$binary" ] || { echo "no test_bruteforce below $cts" >&2; exit 2; }
[ -e "$icd" ] || { echo "no such ICD file: $icd" >&2; exit 2; }
icd=$(realpath "$icd")

case $precision in
float) flags=(-d -g) ;;
double) flags=(-f -g -r) ;;
half) flags=(-d -f -r) ;;
*) echo "$usage" >&2; exit 2 ;;
esac
[ "${BF_WIMPY:-0}" = 1 ] && flags+=(-w)

functions=("$@")
if [ "${functions[0]}" = all ]; then
    mapfile -t functions < <("$binary" --list 2>&1 | tr -d '[:blank:]' | grep -v '^$')
fi

logs=${BF_LOGS:-/tmp/cpucl-bruteforce-logs}
mkdir -p "$logs"

printf '%-18s %-7s %-7s %-22s %8s\n' function type result "worst ulps (relaxed)" seconds
failed=0
for fn in "${functions[@]}"; do
    log=$logs/${fn}_$precision.log
    start=$(date +%s)
    OCL_ICD_VENDORS=$icd "$binary" "${flags[@]}" "$fn" >"$log" 2>&1
    status=$?
    seconds=$(($(date +%s) - start))
    # the harness's result lines: "  1:   sin fp32  rlx.....passed   2.00 @ ...",
    # "Wimp pass" in the quick mode; relational functions print no error
    # and remquo "{ 0.00, 0}", so the number is optional
    # (the harness may print a note inside one, fma's "Test Error: not all
    # special cases tested!", and the progress dots and result go on in the
    # next line: such a line is joined to its result line first)
    result_re='(Wimp pass|passed|FAILED)([[:space:]]+\{?[[:space:]]*[0-9.]+)?'
    lines=$(awk '/^ +[0-9]+:/ { if (held) print held; held = $0; next }
                 held && /^\.*(passed|FAILED)/ { print held $0; held = ""; next }
                 END { if (held) print held }' "$log")
    plain=$(echo "$lines" | grep -v ' rlx' | grep -oE "$result_re" | head -n 1)
    relaxed=$(echo "$lines" | grep ' rlx' | grep -oE "$result_re" | head -n 1)
    result=passed
    if [ "$status" -ne 0 ] || grep -qE '^ +[0-9]+:.*FAILED' "$log" ||
        { [ -n "$plain" ] && [[ $plain == FAILED* ]]; }; then
        result=FAILED
        failed=1
    elif [ -z "$plain" ] && ! { grep -qx "$precision" "$log" && grep -qx "$fn passed" "$log"; }; then
        # (math_edge_cases prints no numbered line: a line naming the
        # precision when its table ran, then "math_edge_cases passed")
        result=skipped # no variant of the function for this precision
    fi
    number() { echo "$1" | grep -oE '[0-9.]+$'; }
    ulps=$(number "$plain")
    [ -n "$relaxed" ] && ulps="${ulps:--} ($(number "$relaxed"))"
    printf '%-18s %-7s %-7s %-22s %8s\n' "$fn" "$precision" "$result" "${ulps:--}" "$seconds"
done
exit $failed
