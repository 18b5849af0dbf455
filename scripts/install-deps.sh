#!/usr/bin/env bash
# Installs the Debian 12 packages cpucl's build, tests and demo need.
# Safe to run again: apt-get skips what is already there. Needs root.
set -euo pipefail

packages=(
    build-essential cmake ninja-build pkg-config
    llvm-19-dev clang-19 libclang-19-dev libclang-cpp19-dev
    llvm-spirv-15
    opencl-c-headers ocl-icd-opencl-dev ocl-icd-libopencl1 clinfo
    libhwloc-dev libffi-dev zlib1g-dev libzstd-dev libsleef3
    libgl-dev libegl-dev libegl-mesa0 libgl1-mesa-dri libglx-mesa0 xvfb
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
