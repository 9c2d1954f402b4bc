# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,*i32,i32,i32,i32,64,64,16' --emit ssa-layout | %FileCheck %s
# --emit ssa-layout: a store in the K loop rules out pipelining; the
# canonical loop still gets the Version 18 two-stage plan.
# CHECK: = for %[[K:[0-9]+]] in range(0, K, 16) iter_args(
# CHECK: %[[DOT:[0-9]+]] = dot
# CHECK: store T, %[[K]], none
# CHECK: dots:
# CHECK-NEXT: %[[DOT]]: two-stage loop %[[K]] tiled min-blocks=5
# CHECK-NEXT: shared 16896 bytes (budget 49152)
# CHECK-NEXT: dot_lhs +0: dot [16 x 64] f32 pad 4 stages 2 = 8704 bytes
# CHECK-NEXT: dot_rhs +8704: dot [16 x 64] f32 stages 2 = 8192 bytes
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matmul_kernel(A, B, C, T, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
        tl.store(T, k)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
