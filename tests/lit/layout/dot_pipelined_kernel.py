# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,i32,i32,i32,64,64,16' --emit ssa-layout | %FileCheck %s
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32:16,i32:16,i32:16,128,64,16' --emit ssa-layout | %FileCheck %s --check-prefix=HINT
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,i32,i32,i32,16,16,16' --num-warps 1 --emit ssa-layout | %FileCheck %s --check-prefix=SCALAR
# --emit ssa-layout of the canonical K loop: the dot plan is pipelined, its
# result (and the accumulator carried in place) sits in the dot's register
# tile, the operands' index vectors are recomputed in the operands' slices,
# and both tiles are double-buffered after an empty scratch.
# CHECK: %[[ACC:[0-9]+]] = for %[[K:[0-9]+]] in range(0, K, 16) iter_args(
# CHECK: = convert_layout %{{[0-9]+}} : vector<16 x i32>
# CHECK: %[[DOT:[0-9]+]] = dot %{{[0-9]+}}, %{{[0-9]+}}, none {input_precision=ieee} : block<64x64 x f32>
# CHECK: layouts:
# CHECK-NEXT: #0 dot-tile shape=[64, 64] spt=[4, 4] tpw=[4, 8] wpc=[4, 1] order=[1, 0]
# CHECK: values:
# CHECK: via recompute
# CHECK-NOT: via shared
# CHECK: dots:
# CHECK-NEXT: %[[DOT]]: pipelined loop %[[K]] tiled min-blocks=5 in-place
# CHECK-NEXT: shared 16896 bytes (budget 49152)
# CHECK-NEXT: dot_lhs +0: dot [16 x 64] f32 pad 4 stages 2 = 8704 bytes
# CHECK-NEXT: dot_rhs +8704: dot [16 x 64] f32 stages 2 = 8192 bytes
#
# With 16-byte hints the operand pointers are contiguous, aligned and
# hinted (vector loads); 128 x 64 on 4 warps leaves 4 blocks per SM.
# HINT: values:
# HINT: via recompute axis contig=16 div=16 const=1
# HINT: #{{[0-9]+}} axis contig=64 div=16 const=1 hinted
# HINT: dots:
# HINT-NEXT: pipelined loop %{{[0-9]+}} tiled min-blocks=4 in-place
# HINT-NEXT: shared 25088 bytes
# HINT-NEXT: dot_lhs +0: dot [16 x 128] f32 pad 4 stages 2 = 16896 bytes
#
# 16 x 16 on one warp: no register tile (the scalar form, A not
# transposed, padded by one float), still pipelined.
# SCALAR: layouts:
# SCALAR-NOT: dot-tile
# SCALAR: dots:
# SCALAR-NEXT: pipelined loop %{{[0-9]+}} in-place
# SCALAR-NEXT: shared 4224 bytes
# SCALAR-NEXT: dot_lhs +0: dot [16 x 16] f32 pad 1 stages 2 = 2176 bytes
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matmul_kernel(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
