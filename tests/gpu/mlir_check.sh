#!/bin/sh
# The MLIR backend's GPU check (issue 12), run on the GPU machine from the
# repository root after `make mlir-ptx-cache` filled build/mlir-cache
# elsewhere (this machine has no MLIR tools): builds, then runs
# tests/gpu/test_mlir_gpu.py (every kernel with backend=cuda and
# backend=mlir) with the PTX taken from that cache, MLIR tools disabled so
# that a miss fails instead of silently lowering, and a missing GPU fails
# instead of skipping.  Extra arguments go to pytest (-v, -k add).
set -eu
make -j"$(nproc)" all >/dev/null
test -d build/mlir-cache || { echo "no build/mlir-cache: run make mlir-ptx-cache first" >&2; exit 2; }
chmod -R go-w build/mlir-cache  # the cache trusts only what no one else can write
MYTRITON_CACHE_DIR="$PWD/build/mlir-cache" MYTRITON_MLIR_BIN=/nonexistent MYTRITON_REQUIRE_CUDA=1 \
  PYTHONPATH="$PWD/python" python3 -m pytest -q -p no:cacheprovider tests/gpu/test_mlir_gpu.py "$@"
