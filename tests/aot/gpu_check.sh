#!/bin/sh
# tests/aot/gpu_check.sh: the ahead-of-time files on a GPU (issue 13's
# done-criteria; run from the repository root on the GPU machine):
#   - builds the library and the CLI, installs them into a temporary
#     prefix, and builds examples/aot: the AOT vector add, softmax and
#     matmul for sm_90 (cubin) and for sm_80 only (so an sm_90 device runs
#     the embedded PTX through the driver's JIT), with cc alone, and the
#     JIT route (jit_demo, through the library);
#   - runs aot_demo (no Python, no compiler at run time): results against
#     C references, bad arguments -> MT_ERR_ARG, and its own memory map
#     free of NVRTC and libmytriton;
#   - checks under LD_DEBUG=libs that no NVRTC library is ever loaded, and
#     with ldd that the program links no CUDA or mytriton library;
#   - runs jit_demo on the GPU and compares its results with the AOT
#     program's byte for byte (same CUDA C, same NVRTC, same cubin).
# Prints one line per check and a summary; exits non-zero on any failure.
# GPU_CHECK_BUILD_ONLY=1 stops after building (for machines without a GPU).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d "${TMPDIR:-/tmp}/mytriton-gpu-check-XXXXXX")
P=$T/prefix
export MYTRITON_CACHE_DIR="$T/cache" LD_LIBRARY_PATH="$P/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
failed=0
passed=0
check() { # name, then the command; its output goes to $T/<name>.log
    name=$1
    shift
    if "$@" >"$T/$name.log" 2>&1; then
        echo "PASS  $name"
        passed=$((passed + 1))
    else
        echo "FAIL  $name (log below)"
        sed 's/^/      /' "$T/$name.log" | tail -30
        failed=$((failed + 1))
    fi
}

build() {
    make -C "$ROOT" -j"$(nproc)" all && make -C "$ROOT" -s install PREFIX="$P" || return 1
    make -C "$ROOT/examples/aot" OUT="$T/sm90" ARCH=sm_90 MYTRITON="$P/bin/mytriton" \
        MT_CFLAGS="-I$P/include" MT_LIBS="-L$P/lib -lmytriton" jit aot-gpu &&
        make -C "$ROOT/examples/aot" OUT="$T/sm80" ARCH=sm_80 MYTRITON="$P/bin/mytriton" \
            MT_CFLAGS="-I$P/include" MT_LIBS="-L$P/lib -lmytriton" aot-gpu
}
check build build
if [ "$failed" -ne 0 ] || [ "${GPU_CHECK_BUILD_ONLY:-0}" = 1 ]; then
    echo "gpu_check: $passed passed, $failed failed (build only: ${GPU_CHECK_BUILD_ONLY:-0})"
    rm -rf "$T"
    [ "$failed" -eq 0 ]
    exit $?
fi

mkdir -p "$T/dump"
cd "$ROOT/examples/aot" || exit 1
no_link_deps() { ! ldd "$1" | grep -E 'libcuda|nvrtc|mytriton|libcudart'; }
check aot-links-nothing no_link_deps "$T/sm90/aot_demo-gpu"
run_aot() { AOT_DUMP="$T/dump" LD_DEBUG=libs LD_DEBUG_OUTPUT="$T/ld" "$T/sm90/aot_demo-gpu"; }
check aot-sm90-run run_aot
no_nvrtc() { # every library the dynamic loader initialised or looked for
    cat "$T"/ld.* >"$T/ld_debug.log" || return 1
    grep -q 'calling init:.*libcuda' "$T/ld_debug.log" || { echo "libcuda never loaded?"; return 1; }
    ! grep -i 'nvrtc' "$T/ld_debug.log"
}
check aot-no-nvrtc-ld-debug no_nvrtc
check aot-sm80-ptx-on-sm90 "$T/sm80/aot_demo-gpu"
run_jit() { MYTRITON_BACKEND=cuda AOT_DUMP="$T/dump" "$T/sm90/jit_demo" kernels.py; }
check jit-run run_jit
for k in add softmax matmul; do
    check "aot-equals-jit-$k" cmp "$T/dump/aot-gpu.$k.bin" "$T/dump/jit-gpu.$k.bin"
done
echo "gpu_check: $passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then
    rm -rf "$T"
else
    echo "gpu_check: logs and results kept in $T"
fi
[ "$failed" -eq 0 ]
