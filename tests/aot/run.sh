#!/bin/sh
# tests/aot/run.sh DIR: the ahead-of-time tests (make test-aot), run
# against the installation in DIR/prefix (make install PREFIX=DIR/prefix):
#   1. examples/aot through the installed files: jit_demo via pkg-config
#      (run on the host backend), aot_demo-gpu built with cc -Werror alone
#      (not run: no GPU here) and with no link-time CUDA dependency,
#      aot_demo-host run against C references and bad-argument checks;
#   2. the GPU files also under -std=c99 -pedantic and clang when present,
#      and vadd.c run against a stand-in driver (fake_cuda.c): the image
#      each device gets (cubin, or PTX for a newer one), the launch shape
#      and arguments, the context, failures as statuses;
#   3. the dispatcher: three specialisations, aot-link, link_test (every
#      branch), the GPU dispatcher compiled with -Werror, and aot-link's
#      refusals.
set -eu
T=$1
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
P=$T/prefix
export PATH="$P/bin:$PATH" PKG_CONFIG_PATH="$P/lib/pkgconfig" LD_LIBRARY_PATH="$P/lib"
fail() { echo "test-aot: FAILED: $*" >&2; exit 1; }

echo "== pkg-config: $(pkg-config --cflags --libs mytriton)"
pkg-config --exists mytriton || fail "mytriton.pc not found"

echo "== examples/aot against $P"
make -s -C "$ROOT/examples/aot" OUT="$T/ex" MYTRITON=mytriton all
(cd "$ROOT/examples/aot" && MYTRITON_BACKEND=host "$T/ex/jit_demo" kernels.py) || fail jit_demo
"$T/ex/aot_demo-host" || fail aot_demo-host
if ldd "$T/ex/aot_demo-gpu" | grep -E 'libcuda|nvrtc|mytriton|stdc\+\+'; then
    fail "aot_demo-gpu has a link-time dependency it must not have"
fi
echo "aot_demo-gpu: built with cc alone, no CUDA or mytriton library linked"
for f in "$T"/ex/gpu/*.c; do
    cc -std=c99 -Wall -Wextra -Werror -pedantic -c "$f" -o "$T/c99.o" || fail "c99: $f"
    if command -v clang >/dev/null 2>&1; then
        clang -std=c11 -Wall -Wextra -Werror -pedantic -c "$f" -o "$T/clang.o" || fail "clang: $f"
    fi
done

echo "== the GPU file against a stand-in driver (fake_cuda.c)"
F=$T/fake
mkdir -p "$F"
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC -o "$F/libcuda.so.1" "$ROOT/tests/aot/fake_cuda.c"
cc -std=c11 -Wall -Wextra -Werror -I"$T/ex/gpu" -o "$F/fake_test" "$ROOT/tests/aot/fake_test.c" \
    "$T/ex/gpu/vadd.c" -ldl
fake() { # SM MODE WANT...: runs fake_test, then finds each WANT line in the driver's log
    sm=$1 mode=$2
    shift 2
    rm -f "$F/log"
    LD_LIBRARY_PATH="$F" FAKE_CUDA_SM=$sm FAKE_CUDA_LOG="$F/log" \
        FAKE_CUDA_FAIL=$([ "$mode" = launchfail ] && echo launch) "$F/fake_test" "$mode" ||
        fail "fake_test on sm_$sm ($mode)"
    for want in "$@"; do
        grep -qx "$want" "$F/log" || fail "sm_$sm: no '$want' in the driver's log: $(cat "$F/log")"
    done
    echo "sm_$sm $mode: ok"
}
fake 90 ok "retain" "load cubin sm_90" "function add_kernel" \
    "launch 3 1 1 block 128 smem 0 p0 0x1000 p3 77" "launch 3 1 1 block 128 smem 0 p0 0x1000 p3 2049" \
    "unload" "release"
fake 86 ok "load cubin sm_80"
fake 120 ok "load ptx sm_90"
fake 75 noimage
fake 90 launchfail "load cubin sm_90"
fake 90 shared "retain" "unload"
if grep -q '^launch' "$F/log"; then fail "a refused launch reached the driver"; fi

echo "== aot-link"
L=$T/link
mkdir -p "$L/host" "$L/gpu"
K=$ROOT/tests/aot/stride.py
for v in host gpu; do
    if [ $v = host ]; then opt="--backend host"; else opt="--arch sm_90"; fi
    mytriton aot "$K" --kernel strided_add $opt -o "$L/$v/s16" \
        --signature "*fp32:16, *fp32:16, *fp32:16, i32:16, i32:1, 256"
    mytriton aot "$K" --kernel strided_add $opt -o "$L/$v/s1" \
        --signature "*fp32:16, *fp32:16, *fp32:16, i32, i32:1, 256"
    mytriton aot "$K" --kernel strided_add $opt -o "$L/$v/any" \
        --signature "*fp32, *fp32, *fp32, i32, i32, 256"
    # given least specific first: the dispatcher orders them itself
    mytriton aot-link "$L/$v/any.h" "$L/$v/s1.h" "$L/$v/s16.h" -o "$L/$v/strided_add"
    mytriton aot-link "$L/$v/s1.h" "$L/$v/s16.h" -o "$L/$v/strict"
done
cp "$L/host/strided_add.h" "$L/host/dispatch.h"
for s in s16 s1 any; do
    c++ -std=c++17 -O1 -fno-strict-aliasing $(pkg-config --cflags mytriton) -c "$L/host/$s.cpp" \
        -o "$L/host/$s.o"
done
cc -std=c11 -Wall -Wextra -Werror -I"$L/host" -o "$L/link_test" "$ROOT/tests/aot/link_test.c" \
    "$L/host/strided_add.c" "$L/host/strict.c" "$L/host/s16.o" "$L/host/s1.o" "$L/host/any.o" \
    $(pkg-config --libs mytriton) || fail "building link_test"
"$L/link_test" || fail link_test
for f in "$L"/gpu/*.c; do
    cc -std=c11 -Wall -Wextra -Werror -pedantic -I"$L/gpu" -c "$f" -o "$T/gpu.o" || fail "gpu: $f"
done

# refusals: other kernels, the same hints twice, not a generated header
if mytriton aot-link "$L/host/s16.h" "$T/ex/gpu/vadd.h" -o "$T/x" 2>"$T/err"; then
    fail "aot-link accepted two kernels"
fi
grep -q "not specialisations of one kernel" "$T/err" || fail "message: $(cat "$T/err")"
if mytriton aot-link "$L/host/s16.h" "$L/gpu/s16.h" -o "$T/x" 2>"$T/err"; then
    fail "aot-link accepted the same hints twice"
fi
grep -q "same hints" "$T/err" || fail "message: $(cat "$T/err")"
if mytriton aot-link "$ROOT/include/mytriton.h" -o "$T/x" 2>"$T/err"; then
    fail "aot-link accepted a header it did not write"
fi
grep -q "not a header written by" "$T/err" || fail "message: $(cat "$T/err")"
echo "test-aot: all passed"
