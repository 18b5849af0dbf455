#!/usr/bin/env bash
# run-apps.sh — run applications' own OpenCL tests and benchmarks on cpucl
# (or any ICD) and print one line per test: what ran, its result, seconds.
#
#   scripts/run-apps.sh [ICD_FILE] [app ...]
#
#   ICD_FILE  given to the ICD loader as OCL_ICD_VENDORS (default:
#             build/vendors/cpucl.icd of this checkout)
#   app       clblast   every CLBlast test binary (Debian: clblast-tests):
#                       test cases passed / failed / skipped
#             hashcat   hashcat's benchmark of a few hash modes (Debian:
#                       hashcat; each mode runs its kernels' self-test first,
#                       a wrong result stops it) and a mask attack that must
#                       find a known MD5 password
#             ffmpeg    ffmpeg's OpenCL filters on a test pattern (Debian:
#                       ffmpeg), 20 frames each, frames' checksum
#             pyopencl  PyOpenCL's test suite (Debian: python3-pyopencl,
#                       python3-pytest; the tests are not packaged: set
#                       PYOPENCL_TESTS to the test/ folder of PyOpenCL's
#                       source of the installed version)
#             opencv    OpenCV's OpenCL paths (Debian: python3-opencv):
#                       56 image and matrix operations and 4 reductions
#                       against OpenCV's CPU path (scripts/opencv-check.py)
#             piglit    piglit's OpenCL profile (Debian: piglit): about
#                       700 API and program tests; each test that does
#                       not pass gets a line, then the counts
#             default: all six
#
# Every application keeps caches (hashcat's kernels, cpucl's and PoCL's
# builds): they go to a temporary folder that the run removes, so each
# build is a first build. Logs: APPS_LOGS (default /tmp/cpucl-apps-logs).
# Exit status: 0 when nothing failed. docs/applications.md has the results
# so far, beside PoCL's.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
icd=$here/build/vendors/cpucl.icd
if [ $# -gt 0 ] && [ -e "$1" ]; then
    icd=$(realpath "$1")
    shift
fi
apps=("$@")
[ ${#apps[@]} -gt 0 ] || apps=(clblast hashcat ffmpeg pyopencl opencv piglit)
logs=${APPS_LOGS:-/tmp/cpucl-apps-logs}
mkdir -p "$logs"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export OCL_ICD_VENDORS=$icd CPUCL_CACHE_DIR=$scratch/cache POCL_CACHE_DIR=$scratch/cache
export XDG_CACHE_HOME=$scratch/xdg
failed=0

line() { printf '%-10s %-34s %-40s %6s\n' "$@"; }
line app test result seconds
missing() { line "$1" - "not installed: $2" -; }

# CLBlast's summary lines of one outcome in a log, summed, without their
# colour codes
clblast_count() {
    sed 's/\x1b\[[0-9;]*m//g' "$1" | grep -E "^ +[0-9]+ test\(s\) $2" |
        awk '{s += $1} END {print s + 0}'
}

run_clblast() {
    local tests
    tests=$(ls /usr/bin/clblast_test_* 2>/dev/null) || { missing clblast clblast-tests; return; }
    for t in $tests; do
        local name start log p f k rc
        name=$(basename "$t")
        log=$logs/$name.log
        start=$(date +%s)
        timeout 1200 "$t" >"$log" 2>&1
        rc=$?
        p=$(clblast_count "$log" passed) f=$(clblast_count "$log" failed)
        k=$(clblast_count "$log" skipped)
        line clblast "${name#clblast_test_}" "rc $rc: $p passed, $f failed, $k skipped" \
            $(($(date +%s) - start))
        [ "$f" = 0 ] && [ $rc = 0 ] || failed=1
    done
}

run_hashcat() {
    command -v hashcat >/dev/null || { missing hashcat hashcat; return; }
    # hashcat keeps its kernel cache below $HOME/.cache (XDG_CACHE_HOME)
    for m in 0 100 1400 1700 500 3200 1000 22000 13100 1800; do
        local log=$logs/hashcat_$m.log start rc speed
        start=$(date +%s)
        timeout 900 hashcat -b -m $m --force >"$log" 2>&1
        rc=$?
        speed=$(grep -E '^Speed.#1' "$log" | sed 's/Speed.#1\.*: *//; s/ @.*//')
        line hashcat "benchmark -m $m" "rc $rc: ${speed:-no speed}" $(($(date +%s) - start))
        [ $rc = 0 ] && [ -n "$speed" ] || failed=1
    done
    local hash start rc found
    hash=$(printf zebra7 | md5sum | cut -d' ' -f1)
    start=$(date +%s)
    timeout 900 hashcat -m 0 -a 3 --potfile-disable --force -o "$scratch/found" "$hash" \
        '?l?l?l?l?l?d' >"$logs/hashcat_crack.log" 2>&1
    rc=$?
    found=$(cut -d: -f2 "$scratch/found" 2>/dev/null)
    line hashcat "mask attack, md5(zebra7)" "rc $rc: found '${found}'" $(($(date +%s) - start))
    [ "$found" = zebra7 ] || failed=1
}

run_ffmpeg() {
    command -v ffmpeg >/dev/null || { missing ffmpeg ffmpeg; return; }
    local up="format=yuv420p,hwupload" down="hwdownload,format=yuv420p"
    local -a filters=(
        "avgblur $up,avgblur_opencl=sizeX=5,$down"
        "boxblur $up,boxblur_opencl=luma_radius=4,$down"
        "convolution $up,convolution_opencl=0 1 0 1 -4 1 0 1 0:0 1 0 1 -4 1 0 1 0:0 1 0 1 -4 1 0 1 0:0 1 0 1 -4 1 0 1 0,$down"
        "dilation $up,dilation_opencl,$down"
        "erosion $up,erosion_opencl,$down"
        "sobel $up,sobel_opencl,$down"
        "prewitt $up,prewitt_opencl,$down"
        "roberts $up,roberts_opencl,$down"
        "unsharp $up,unsharp_opencl=lx=5:ly=5:la=1.5,$down"
        "nlmeans $up,nlmeans_opencl=s=3,$down"
        "transpose $up,transpose_opencl=dir=clock,$down"
        "pad $up,pad_opencl=w=1344:h=768:x=32:y=24,$down"
        "colorkey format=rgba,hwupload,colorkey_opencl=color=0x000000:similarity=0.3,hwdownload,format=rgba"
        "deshake $up,deshake_opencl,$down"
        "tonemap format=p010,setparams=color_trc=smpte2084:color_primaries=bt2020:colorspace=bt2020nc,hwupload,tonemap_opencl=tonemap=hable:format=nv12:t=bt709:p=bt709:m=bt709,hwdownload,format=nv12"
    )
    for entry in "${filters[@]}"; do
        local name=${entry%% *} chain=${entry#* } log start rc sum
        log=$logs/ffmpeg_$name.log
        start=$(date +%s)
        timeout 900 ffmpeg -hide_banner -loglevel error -init_hw_device opencl=ocl:0.0 \
            -filter_hw_device ocl -f lavfi -i testsrc2=size=1280x720:rate=25 -frames:v 20 \
            -vf "$chain" -f framemd5 "$scratch/$name.md5" >"$log" 2>&1
        rc=$?
        sum=$(grep -v '^#' "$scratch/$name.md5" 2>/dev/null | md5sum | cut -c1-8)
        line ffmpeg "${name}_opencl" "rc $rc: frames' checksum $sum" $(($(date +%s) - start))
        [ $rc = 0 ] || failed=1
    done
}

run_pyopencl() {
    local dir=${PYOPENCL_TESTS:-}
    [ -n "$dir" ] && [ -d "$dir" ] || { missing pyopencl "PYOPENCL_TESTS (PyOpenCL's test/)"; return; }
    local log=$logs/pyopencl.log start rc summary
    start=$(date +%s)
    (cd "$dir" && timeout 3600 /usr/bin/python3 -m pytest -q -p no:cacheprovider .) >"$log" 2>&1
    rc=$?
    summary=$(tail -n 1 "$log" | sed 's/ in [0-9.]*s.*//; s/=//g')
    line pyopencl "test suite" "rc $rc: $summary" $(($(date +%s) - start))
    [ $rc = 0 ] || failed=1
}

run_opencv() {
    /usr/bin/python3 -c 'import cv2' 2>/dev/null || { missing opencv python3-opencv; return; }
    local log=$logs/opencv.log start rc
    start=$(date +%s)
    # the device by its platform's name; OpenCV's own program cache off
    OPENCV_OPENCL_DEVICE="$(platform_name):CPU:" OPENCV_OPENCL_CACHE_ENABLE=false \
        timeout 1800 /usr/bin/python3 "$here/scripts/opencv-check.py" >"$log" 2>&1
    rc=$?
    grep -E ' (ok  |FAIL) ' "$log" | while read -r name; do
        line opencv "$(echo "$name" | cut -c1-22 | sed 's/ *$//')" \
            "$(echo "$name" | cut -c24- | sed 's/  */ /g')" -
    done
    line opencv "all operations" "rc $rc: $(tail -n 1 "$log")" $(($(date +%s) - start))
    [ $rc = 0 ] || failed=1
}

run_piglit() {
    command -v piglit >/dev/null || { missing piglit piglit; return; }
    local log=$logs/piglit.log start rc
    start=$(date +%s)
    rm -rf "$scratch/piglit"
    timeout 3600 piglit run cl -c -j "$(nproc)" "$scratch/piglit" >"$log" 2>&1
    rc=$?
    piglit summary console "$scratch/piglit" >"$logs/piglit-summary.txt" 2>&1
    grep -E ': (fail|crash|timeout|warn|incomplete)$' "$logs/piglit-summary.txt" |
        while read -r name; do
            line piglit "$(echo "${name%: *}" | cut -c1-34)" "${name##*: }" -
        done
    local counts
    counts=$(grep -E '^ *(pass|fail|crash|skip|timeout): ' "$logs/piglit-summary.txt" |
        awk '{printf "%s%s %s", sep, $1, $2; sep = ", "}')
    line piglit "cl profile" "rc $rc: $counts" $(($(date +%s) - start))
    grep -qE '^ *(fail|crash|timeout): +[1-9]' "$logs/piglit-summary.txt" && failed=1
}

# The name of the platform the ICD file gives (OpenCV picks its device by
# it): cpucl's, unless the file names another library.
platform_name() {
    case $(cat "$icd" 2>/dev/null) in
    *pocl*) echo "Portable Computing Language" ;;
    *) echo cpucl ;;
    esac
}

for app in "${apps[@]}"; do
    case $app in
    clblast | hashcat | ffmpeg | pyopencl | opencv | piglit) run_$app ;;
    *) echo "unknown app: $app" >&2; exit 2 ;;
    esac
done
exit $failed
