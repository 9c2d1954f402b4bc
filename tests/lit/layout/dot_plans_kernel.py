# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,*i32,i32,i32,i32,64,64,16,0,False' --emit ssa-layout | %FileCheck %s
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32:16,*fp32:16,*fp32:16,*i32,i32:16,i32:16,i32:16,128,64,16,0,False' --emit ssa-layout | %FileCheck %s --check-prefix=HINT
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32:16,*fp32:16,*fp32:16,*i32,i32:16,i32:16,i32:16,128,128,16,0,False' --emit ssa-layout | %FileCheck %s --check-prefix=WIDE
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,*i32,i32,i32,i32,16,16,16,0,False' --num-warps 1 --emit ssa-layout | %FileCheck %s --check-prefix=SCALAR
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,*i32,i32,i32,i32,64,64,16,0,True' --emit ssa-layout | %FileCheck %s --check-prefix=TWO
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,*i32,i32,i32,i32,64,64,16,16,False' --emit ssa-layout | %FileCheck %s --check-prefix=SINGLE
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,*i32,i32,i32,i32,64,64,16,16,False' --num-stages 2 --emit ssa-layout | %FileCheck %s --check-prefix=SINGLE2
# RUN: %mytriton compile %s --kernel one_dot_kernel --signature '*fp32,*fp32,*fp32,32,32,16' --emit ssa-layout | %FileCheck %s --check-prefix=ONE
# RUN: %mytriton compile %s --kernel default_dot_kernel --signature '*fp32,*fp32,*fp32,32,32,16' --emit ssa-layout | %FileCheck %s --check-prefix=TF32
# The three dot plans of one K loop, chosen by constexprs: START = 0 and
# no store in the body is the canonical pipelined loop, STORE puts a store
# in the body (two stages), START != 0 makes it non-canonical (single
# stage).
#
# --emit ssa-layout of the canonical K loop: the dot plan is pipelined, its
# result (and the accumulator carried in place) sits in the dot's register
# tile, the operands' index vectors are recomputed in the operands' slices,
# and both tiles are double-buffered after an empty scratch.
# CHECK: %[[ACC:[0-9]+]] = for %[[K:[0-9]+]] in range(0, K, 16) iter_args(
# CHECK-NOT: {via=shared}
# CHECK: = convert_layout %{{[0-9]+}} {via=recompute} : vector<16 x i32>
# CHECK-NOT: {via=shared}
# CHECK: %[[DOT:[0-9]+]] = dot %{{[0-9]+}}, %{{[0-9]+}}, none {input_precision=ieee} : block<64x64 x f32>
# CHECK: layouts:
# CHECK-NEXT: #0 dot-tile shape=[64, 64] spt=[4, 4] tpw=[4, 8] wpc=[4, 1] order=[1, 0]
# CHECK: values:
# CHECK: dots:
# CHECK-NEXT: %[[DOT]]: pipelined loop %[[K]] tiled a-as-loaded min-blocks=5 in-place
# CHECK-NEXT: shared 18432 bytes (budget 49152)
# CHECK-NEXT: dot_lhs +0: dot [64 x 16] f32 pad 4 stages 2 = 10240 bytes
# CHECK-NEXT: dot_rhs +10240: dot [16 x 64] f32 stages 2 = 8192 bytes
#
# With 16-byte hints the operand pointers are contiguous, aligned and
# hinted (vector loads); 128 x 64 on 4 warps leaves 4 blocks per SM, and
# with 64 results a thread A is as loaded too (Triton's form and its 168
# registers); 128 x 128 on 4 warps, 128 results a thread, keeps A
# transposed.
# HINT: values:
# HINT: axis contig=16 div=16 const=1
# HINT: #{{[0-9]+}} axis contig=64 div=16 const=1 hinted
# HINT: dots:
# HINT-NEXT: pipelined loop %{{[0-9]+}} tiled a-as-loaded min-blocks=4 in-place
# HINT-NEXT: shared 28672 bytes
# HINT-NEXT: dot_lhs +0: dot [128 x 16] f32 pad 4 stages 2 = 20480 bytes
# WIDE: dots:
# WIDE-NEXT: pipelined loop %{{[0-9]+}} tiled min-blocks=2 in-place
# WIDE-NEXT: shared 33280 bytes
# WIDE-NEXT: dot_lhs +0: dot [16 x 128] f32 pad 4 stages 2 = 16896 bytes
#
# 16 x 16 on one warp: no register tile (the scalar form, A padded by
# one float), still pipelined.
# SCALAR: layouts:
# SCALAR-NOT: dot-tile
# SCALAR: dots:
# SCALAR-NEXT: pipelined loop %{{[0-9]+}} in-place
# SCALAR-NEXT: shared 4224 bytes
# SCALAR-NEXT: dot_lhs +0: dot [16 x 16] f32 pad 1 stages 2 = 2176 bytes
#
# --emit ssa-layout: a store in the K loop rules out pipelining; the
# canonical loop still gets the Version 18 two-stage plan.
# TWO: = for %[[K:[0-9]+]] in range(0, K, 16) iter_args(
# TWO: %[[DOT:[0-9]+]] = dot
# TWO: store T, %[[K]], none
# TWO: dots:
# TWO-NEXT: %[[DOT]]: two-stage loop %[[K]] tiled a-as-loaded min-blocks=5
# TWO-NEXT: shared 18432 bytes (budget 49152)
# TWO-NEXT: dot_lhs +0: dot [64 x 16] f32 pad 4 stages 2 = 10240 bytes
# TWO-NEXT: dot_rhs +10240: dot [16 x 64] f32 stages 2 = 8192 bytes
#
# --emit ssa-layout: a K loop that does not start at 0 is not canonical
# for the Version 18 plans, but the general software pipeline takes it
# (match_carried_pipeline: any start, a stage counter), three stages as
# Triton's default num_stages asks; two when the kernel asks for two.
# SINGLE: dots:
# SINGLE-NEXT: %{{[0-9]+}}: pipelined loop %{{[0-9]+}} tiled a-as-loaded min-blocks=5 in-place
# SINGLE-NEXT: shared 27648 bytes (budget 49152)
# SINGLE-NEXT: dot_lhs +0: dot [64 x 16] f32 pad 4 stages 3 = 15360 bytes
# SINGLE-NEXT: dot_rhs +15360: dot [16 x 64] f32 stages 3 = 12288 bytes
# SINGLE2: dots:
# SINGLE2-NEXT: %{{[0-9]+}}: pipelined loop %{{[0-9]+}} tiled a-as-loaded min-blocks=5 in-place
# SINGLE2-NEXT: shared 18432 bytes (budget 49152)
# SINGLE2-NEXT: dot_lhs +0: dot [64 x 16] f32 pad 4 stages 2 = 10240 bytes
# SINGLE2-NEXT: dot_rhs +10240: dot [16 x 64] f32 stages 2 = 8192 bytes
#
# A dot outside any loop, 32 x 32 on 4 warps: too few outputs per thread
# for the register tile.
# An f32 dot with no input_precision is "tf32", Triton's default: TF32
# tensor-core tiles with the mma accumulator (warps 2 x 2 over 32 x 32),
# A padded to a row stride of 4 mod 8 words and B of 8 mod 16.  The store
# converts the accumulator through shared memory to its pointers' layout
# of 16-byte groups, rows padded to 32 bytes mod 128 so that the warp's
# 8-byte pieces of 4 rows fill distinct banks.
# TF32: %[[D:[0-9]+]] = dot %{{[0-9]+}}, %{{[0-9]+}}, none {input_precision=tf32} : block<32x32 x f32>
# TF32: %[[C:[0-9]+]] = convert_layout %[[D]] {via=shared} : block<32x32 x f32>
# TF32-NEXT: store %{{[0-9]+}}, %[[C]], none
# TF32: layouts:
# TF32: mma shape=[32, 32] spt=[1, 2] tpw=[8, 4] wpc=[2, 2] order=[1, 0]
# TF32: blocked shape=[32, 32] spt=[1, 4] tpw=[4, 8] wpc=[4, 1] order=[1, 0]
# TF32: dots:
# TF32-NEXT: %[[D]]: single-stage mma-tf32{{$}}
# TF32-NEXT: shared 10240 bytes (budget 49152)
# TF32-NEXT: dot_lhs +5120: dot [32 x 16] f32 pad 4 = 2560 bytes
# TF32-NEXT: dot_rhs +7680: dot [16 x 32] f32 pad 8 = 2560 bytes
# TF32-NEXT: mt_smem +0: convert_layout [32 x 32] f32 pad 8 = 5120 bytes
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
def matmul_kernel(A, B, C, T, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  START: tl.constexpr, STORE: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(START, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :], mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision="ieee")
        if STORE:
            tl.store(T, k)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def one_dot_kernel(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    tl.store(C + rm[:, None] * BN + rn[None, :], tl.dot(a, b, input_precision="ieee"))


@triton.jit
def default_dot_kernel(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])
    b = tl.load(B + rk[:, None] * BN + rn[None, :])
    tl.store(C + rm[:, None] * BN + rn[None, :], tl.dot(a, b))
