#!/bin/sh
# tests/aot/run.sh DIR: the ahead-of-time tests (make test-aot), run
# against the installation in DIR/prefix (make install PREFIX=DIR/prefix):
#   1. examples/aot through the installed files: jit_demo via pkg-config
#      (run on the host backend), aot_demo-gpu built with cc -Werror alone
#      (not run: no GPU here) and with no link-time CUDA dependency,
#      aot_demo-host run against C references and bad-argument checks;
#   2. the GPU files also under -std=c99 -pedantic and clang when present.
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

echo "test-aot: all passed"
