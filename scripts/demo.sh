#!/usr/bin/env bash
# The main job: installs what is needed, builds cpucl, and runs OpenCL
# programs on it through the ICD loader without touching /etc: clinfo, then
# the shipped demo (vector add and matrix multiply checked on the host).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh" "$top/build"
export OCL_ICD_VENDORS="$top/build/vendors/cpucl.icd"
echo "== clinfo (through the ICD loader) =="
clinfo
echo
echo "== demo =="
"$top/build/examples/cpucl_demo"
