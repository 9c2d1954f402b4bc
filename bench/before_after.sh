#!/bin/sh
# The benchmark before and after a change, in one lease on the GPU machine.
# Here: git archive BASE_REV | tar -x -C .base   (.base ignored, carried)
# There: sh bench/before_after.sh .base
# Builds both trees and runs bench/bench.py for each (Triton and PyTorch
# are timed beside mytriton in both runs); tables go to $OUT/before and
# $OUT/after.
BASE=${1:?usage: sh bench/before_after.sh BASE_TREE}
OUT=${OUT:-/tmp/mt-out}
PY=$(command -v python3)
export MYTRITON_CACHE_DIR=/tmp/mt-cache PYTHONUNBUFFERED=1
for side in before after; do
  dir=$([ $side = before ] && echo "$BASE" || echo .)
  (cd "$dir" && make -j16 PYTHON="$PY" all > "$OUT/build-$side.log" 2>&1) || { tail -20 "$OUT/build-$side.log"; exit 1; }
  mkdir -p "$OUT/$side"
  echo "== $side"
  (cd "$dir" && OUT="$OUT/$side" PYTHONPATH=python:$PYTHONPATH "$PY" bench/bench.py 2>&1 | tail -8)
done
