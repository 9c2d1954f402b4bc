# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,i32,i32,i32,64,64,16' --emit ssa-layout | %FileCheck %s
# RUN: %mytriton compile %s --kernel one_dot_kernel --signature '*fp32,*fp32,*fp32,32,32,16' --emit ssa-layout | %FileCheck %s --check-prefix=ONE
# --emit ssa-layout: a K loop that does not start at 0 is not canonical:
# single stage, one copy of each tile.
# CHECK: dots:
# CHECK-NEXT: %{{[0-9]+}}: single-stage tiled min-blocks=5
# CHECK-NEXT: shared 8448 bytes (budget 49152)
# CHECK-NEXT: dot_lhs +0: dot [16 x 64] f32 pad 4 = 4352 bytes
# CHECK-NEXT: dot_rhs +4352: dot [16 x 64] f32 = 4096 bytes
#
# A dot outside any loop, 32 x 32 on 4 warps: too few outputs per thread
# for the register tile.
# ONE: %[[D:[0-9]+]] = dot
# ONE: layouts:
# ONE-NOT: dot-tile
# ONE: dots:
# ONE-NEXT: %[[D]]: single-stage{{$}}
# ONE-NEXT: shared 4224 bytes (budget 49152)
# ONE-NEXT: dot_lhs +0: dot [32 x 16] f32 pad 1 = 2176 bytes
# ONE-NEXT: dot_rhs +2176: dot [16 x 32] f32 = 2048 bytes
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matmul_kernel(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(BK, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def one_dot_kernel(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    tl.store(C + rm[:, None] * BN + rn[None, :], tl.dot(a, b))
