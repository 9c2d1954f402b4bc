# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32,*fp32,i32,1024' --emit ssa-layout | %FileCheck %s
# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32:16,*fp32:16,i32:16,1024' --emit ssa-layout | %FileCheck %s --check-prefix=VEC
# RUN: %mytriton compile %s --kernel col_sum_kernel --signature '*fp32,*fp32,64,64' --num-warps 8 --emit ssa-layout | %FileCheck %s --check-prefix=COL
# RUN: %mytriton compile %s --kernel carry_kernel --signature '*fp32,*fp32,*fp32,i32' --emit ssa-layout | %FileCheck %s --check-prefix=CARRY
# --emit ssa-layout of a softmax row: both reductions run over 4 warps,
# each with a [1 x 4] partials buffer in the shared scratch; nothing is
# converted.
# CHECK: %[[M:[0-9]+]] = max %{{[0-9]+}} {axis=0} : f32
# CHECK: %[[S:[0-9]+]] = sum %{{[0-9]+}} {axis=0} : f32
# CHECK: layouts:
# CHECK-NEXT: #0 blocked shape=[1024] spt=[4] tpw=[32] wpc=[4] order=[0]
# CHECK-NEXT: values:
# CHECK-NOT: convert_layout
# CHECK: dots:
# CHECK-NEXT: shared 16 bytes (budget 49152)
# CHECK-NEXT: mt_smem +0: max [1 x 4] f32 = 16 bytes
# CHECK-NEXT: mt_smem +0: sum [1 x 4] f32 = 16 bytes
#
# Vector access: the row pointers are contiguous over the whole row,
# 16-byte aligned and hinted.
# VEC: values:
# VEC: %{{[0-9]+}}: #0 axis contig=1024 div=16 const=1 hinted
# VEC: %{{[0-9]+}}: #0 axis contig=1024 div=16 const=1 hinted
#
# A column sum over 8 warps: the result is a slice of the operand's layout
# (slice=0), so the store, which reads it as the other slice, converts it
# through shared memory; the row max lands where the store wants it.
# COL: %[[SUM:[0-9]+]] = sum %{{[0-9]+}} {axis=0} : vector<64 x f32>
# COL-NEXT: %[[CV:[0-9]+]] = convert_layout %[[SUM]] {via=shared} : vector<64 x f32>
# COL-NEXT: store %{{[0-9]+}}, %[[CV]], none
# COL: %[[MAX:[0-9]+]] = max %{{[0-9]+}} {axis=1} : vector<64 x f32>
# COL-NEXT: store %{{[0-9]+}}, %[[MAX]], none
# COL: #3 blocked shape=[64, 64] spt=[1, 4] tpw=[2, 16] wpc=[8, 1] order=[1, 0] slice=0
# COL: %[[SUM]]: #3
# COL-NEXT: %[[CV]]: #1
# COL: %[[MAX]]: #1
# COL: dots:
# COL-NEXT: shared 2048 bytes (budget 49152)
# COL-NEXT: mt_smem +0: sum [64 x 8] f32 = 2048 bytes
# COL-NEXT: mt_smem +0: convert_layout [1 x 64] f32 = 256 bytes
#
# A carried block first linked to another layout (the store before the
# loop): the yielded sum is converted at the end of the body.
# CARRY: = for %{{[0-9]+}} in range(0, N, 1) iter_args(
# CARRY: %[[SUM:[0-9]+]] = sum %{{[0-9]+}} {axis=0} : vector<32 x f32>
# CARRY-NEXT: %[[Y:[0-9]+]] = convert_layout %[[SUM]] {via=shared} : vector<32 x f32>
# CARRY-NEXT: yield %[[Y]]
# CARRY: %[[Y]]: #{{[0-9]+}}
# CARRY: shared 512 bytes (budget 49152)
# CARRY-NEXT: mt_smem +0: sum [32 x 4] f32 = 512 bytes
# CARRY-NEXT: mt_smem +0: convert_layout [1 x 32] f32 = 128 bytes
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def softmax_kernel(X, Y, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    o = tl.arange(0, BLOCK)
    x = tl.load(X + row * N + o, mask=o < N, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(Y + row * N + o, e / tl.sum(e, axis=0), mask=o < N)


@triton.jit
def col_sum_kernel(X, Y, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    x = tl.load(X + rm[:, None] * BN + rn[None, :])
    tl.store(Y + rn, tl.sum(x, axis=0))
    tl.store(Y + BN + rm, tl.max(x, axis=1))


@triton.jit
def carry_kernel(X, Y, Z, N):
    acc = tl.zeros((32,), tl.float32)
    tl.store(Z + tl.arange(0, 32)[:, None] * 8 + tl.arange(0, 8)[None, :], acc[:, None] + tl.zeros((32, 8), tl.float32))
    for i in range(0, N, 1):
        x = tl.load(X + i * 512 + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])
        acc = tl.sum(x, axis=0)
    tl.store(Y + tl.arange(0, 32), acc)
