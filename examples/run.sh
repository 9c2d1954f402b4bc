#!/bin/sh
# Runs every example program built under $1/examples; fails if any fails.
set -e
dir=${1:-build}/examples
status=0
for prog in vector_add softmax matmul; do
    "$dir/$prog" || status=1
done
exit $status
