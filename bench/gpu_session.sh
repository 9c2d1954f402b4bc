#!/bin/sh
# One call on the GPU machine: build, run the pytest suite with CUDA tensors
# (and the host backend), the C examples on the GPU, and the benchmark.
# Logs go to $OUT.  Usage: sh bench/gpu_session.sh [--quick] [--no-tests]
OUT=${OUT:-/tmp/mt-out}
mkdir -p "$OUT"
PY=$(command -v python3)
export MYTRITON_CACHE_DIR=/tmp/mt-cache PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -j16 PYTHON="$PY" all build/examples-built > "$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log"; exit 1; }
echo "== build ok"
case " $* " in *" --no-tests "*) ;; *)
  MYTRITON_REQUIRE_CUDA=1 PYTHONPATH=python "$PY" -m pytest -q -x tests/py > "$OUT/pytest.log" 2>&1
  echo "== pytest rc=$?"; tail -15 "$OUT/pytest.log"
  sh examples/run.sh build 2>&1 | tee "$OUT/examples.log"
  MYTRITON_BACKEND=host sh examples/run.sh build 2>&1 | tail -5
esac
PYTHONPATH=python "$PY" bench/bench.py "$@" 2>&1 | tee "$OUT/bench.log" | tail -40
PYTHONPATH=python "$PY" bench/launch_overhead.py 2>&1 | tail -12
