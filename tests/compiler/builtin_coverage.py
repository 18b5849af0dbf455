#!/usr/bin/env python3
"""builtin_coverage.py - which builtins of clang's opencl-c.h the library lacks.

Lists the mangled names of every function opencl-c.h declares for a device
with cpucl's extensions (OpenCL C 1.2 and 2.0), and every function the built
library bitcode defines, and prints the declared-but-undefined ones grouped
by name. Kernels calling those fail to build ("... is not provided by cpucl
yet"); the list is the library's to-do.

Usage: builtin_coverage.py <library.bc> [clang-19] [llvm-nm-19]
"""
import collections, json, re, subprocess, sys

bitcode = sys.argv[1]
clang = sys.argv[2] if len(sys.argv) > 2 else "clang-19"
nm = sys.argv[3] if len(sys.argv) > 3 else "llvm-nm-19"
resource = subprocess.run([clang, "-print-resource-dir"], capture_output=True,
                          text=True).stdout.strip() + "/include"
extensions = ("cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics "
              "cl_khr_global_int32_extended_atomics cl_khr_local_int32_base_atomics "
              "cl_khr_local_int32_extended_atomics cl_khr_int64_base_atomics "
              "cl_khr_int64_extended_atomics cl_khr_fp64 cl_khr_fp16").split()
# extensions whose macros opencl-c-base.h defines for SPIR only (build.c's
# HEADER_EXTENSIONS), and the OpenCL C 3.0 feature macros it -D's
header_extensions = ("cl_khr_extended_bit_ops cl_khr_integer_dot_product "
                     "cl_khr_subgroup_extended_types cl_khr_subgroup_non_uniform_vote "
                     "cl_khr_subgroup_ballot cl_khr_subgroup_non_uniform_arithmetic "
                     "cl_khr_subgroup_shuffle cl_khr_subgroup_shuffle_relative "
                     "cl_khr_subgroup_clustered_reduce cl_khr_subgroup_rotate").split()
features = ["__opencl_c_integer_dot_product_input_4x8bit",
            "__opencl_c_integer_dot_product_input_4x8bit_packed"]

def declared(std):
    args = [clang, "-cc1", "-triple", "x86_64-unknown-linux-gnu", "-target-cpu", "x86-64-v4",
            "-ffake-address-space-map", "-faddress-space-map-mangling=yes",
            "-internal-isystem", resource, "-finclude-default-header", "-cl-std=" + std,
            "-cl-ext=-all," + ",".join("+" + e for e in extensions + header_extensions +
                                       ["cl_khr_subgroups"]),
            *["-D%s=1" % m for m in header_extensions + features],
            "-ast-dump=json", "-x", "cl", "/dev/null"]
    ast = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
    return {n["mangledName"] for n in ast["inner"]
            if n.get("kind") == "FunctionDecl" and "mangledName" in n}

defined = set()
for line in subprocess.run([nm, "--defined-only", bitcode], capture_output=True, text=True,
                           check=True).stdout.splitlines():
    parts = line.split()
    if len(parts) >= 3 and parts[1] in "TtWw":
        defined.add(parts[2])

def plain(name):
    m = re.match(r"_Z(\d+)", name)
    return name[len(m.group(0)):len(m.group(0)) + int(m.group(1))] if m else name

total_missing = 0
for std in ("CL1.2", "CL2.0"):
    names = declared(std)
    missing = sorted(n for n in names if n not in defined)
    total_missing += len(missing)
    groups = collections.Counter(plain(n) for n in missing)
    print(f"{std}: {len(names)} declared, {len(names) - len(missing)} defined, "
          f"{len(missing)} missing")
    for name, count in sorted(groups.items()):
        print(f"  {name} ({count})")
sys.exit(0)
