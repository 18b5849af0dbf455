#!/usr/bin/env bash
# The test suite: installs what is needed, builds cpucl optimised and with
# AddressSanitizer + UndefinedBehaviorSanitizer, and runs every test in both
# builds, through the ICD loader and linked directly; then a ThreadSanitizer
# build runs the tests where host threads, workers and fibers meet.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"

status=0
# run DIR [CMAKE_OPTION ...] [-- CTEST_OPTION ...]
run() {
    local dir=$1
    shift
    local cmake_args=() ctest_args=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        cmake_args+=("$1")
        shift
    done
    [ $# -gt 0 ] && shift && ctest_args=("$@")
    echo "== build $dir =="
    "$top/scripts/build.sh" "$top/$dir" "${cmake_args[@]}"
    echo "== ctest $dir =="
    ctest --test-dir "$top/$dir" --output-on-failure -j 2 "${ctest_args[@]}" || status=1
}
run build
run build-asan -DCPUCL_SANITIZE=ON
# ThreadSanitizer: the API from many threads, the event graph, builds on
# other threads, the kernel cache, and kernels whose work-items meet
# (barriers, fibers, atomics, collectives, pipes, device-side enqueue) and
# semaphores (their waits completed from event callbacks) and command-buffers
# (a run's commands started by the run's own completion)
run build-tsan -DCPUCL_TSAN=ON -- -R 'threads|events|async_build|program_cache|context_queue|native_kernel|sub_devices|generic|barriers|collectives|subgroup|atomics|pipes|device_enqueue|printf|semaphores|command_buffer|mutable_dispatch|launch_copies_background|fork'
exit $status
