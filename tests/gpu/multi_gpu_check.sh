#!/bin/sh
# tests/gpu/multi_gpu_check.sh: issue 14's check on a GPU machine, one
# command from the repository root (any number of GPUs, one included):
#
#   1. build;
#   2. the GPU subset of the pytest suite (tests whose id names cuda or gpu,
#      and tests/py/test_multi_device.py) with CUDA tensors on cuda:0;
#   3. with 2+ GPUs, the same on cuda:1 (MYTRITON_TEST_DEVICE=cuda:1);
#   4. the threaded launch test across every GPU (two threads on cuda:0
#      with one GPU);
#   5. examples/ddp_layernorm.py under torchrun, one process per GPU,
#      NCCL, its losses checked against torch's own ops.
#
# Logs go to $OUT (default /tmp/mt-out); each step prints its last lines.
# Exits non-zero when any step failed.  NVLink multicast stays off (the
# device machines' rule): NCCL_NVLS_ENABLE=0 and its companions.
cd "$(dirname "$0")/../.." || exit 1
OUT=${OUT:-/tmp/mt-out}
mkdir -p "$OUT"
PY=${PYTHON:-$(command -v python3)}
export MYTRITON_CACHE_DIR=${MYTRITON_CACHE_DIR:-/tmp/mt-cache} PYTHONUNBUFFERED=1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
fail=0

step() { # step NAME COMMAND...: runs it, logs to $OUT/NAME.log
    name=$1
    shift
    start=$(date +%s)
    if "$@" > "$OUT/$name.log" 2>&1; then status=ok; else status=FAILED; fail=1; fi
    echo "== $name: $status ($(($(date +%s) - start)) s)"
    tail -n 6 "$OUT/$name.log"
}

make -j"$(nproc)" PYTHON="$PY" all > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
NGPU=$("$PY" -c 'import torch; print(torch.cuda.device_count())') || exit 1
echo "== build ok; $NGPU GPU(s)"
[ "$NGPU" -ge 1 ] || { echo "no GPU: nothing to check"; exit 1; }

SUBSET="cuda or gpu or multi_device"
# about 830 tests a device: spread over 8 workers where pytest-xdist exists
XDIST=""
"$PY" -c 'import xdist' 2>/dev/null && XDIST="-n 8"
step pytest-cuda0 env MYTRITON_REQUIRE_CUDA=1 MYTRITON_TEST_DEVICE=cuda:0 \
    "$PY" -m pytest -q $XDIST tests/py -k "$SUBSET"
if [ "$NGPU" -ge 2 ]; then
    step pytest-cuda1 env MYTRITON_REQUIRE_CUDA=1 MYTRITON_TEST_DEVICE=cuda:1 \
        "$PY" -m pytest -q $XDIST tests/py -k "$SUBSET"
else
    echo "== pytest-cuda1: not run (one GPU)"
fi
step threads env MYTRITON_REQUIRE_CUDA=1 \
    "$PY" -m pytest -q tests/py/test_multi_device.py -k "gpu_threads or every_device"
step ddp "$PY" -m torch.distributed.run --standalone --nproc_per_node="$NGPU" \
    examples/ddp_layernorm.py --device cuda
echo "== multi_gpu_check: $([ $fail = 0 ] && echo passed || echo FAILED) on $NGPU GPU(s)"
exit $fail
