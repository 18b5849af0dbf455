#!/usr/bin/env bash
# The test suite: installs what is needed, builds cpucl optimised and with
# AddressSanitizer + UndefinedBehaviorSanitizer, and runs every test in both
# builds, through the ICD loader and linked directly.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"

status=0
run() {
    local dir=$1
    shift
    echo "== build $dir =="
    "$top/scripts/build.sh" "$top/$dir" "$@"
    echo "== ctest $dir =="
    ctest --test-dir "$top/$dir" --output-on-failure -j 2 || status=1
}
run build
run build-asan -DCPUCL_SANITIZE=ON
exit $status
