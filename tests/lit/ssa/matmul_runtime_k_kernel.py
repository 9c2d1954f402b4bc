# RUN: %mytriton compile %s --kernel matmul_runtime_k_kernel --signature '*fp32,*fp32,*fp32,i32,i32,i32,4,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matmul_runtime_k_kernel(
    a,
    b,
    c,
    M,
    N,
    K,
    BM: tl.constexpr,
    BN: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]

    c_offsets = offs_m * N + offs_n
    c_mask = (offs_m < M) & (offs_n < N)

    acc = tl.zeros((BM, BN), tl.float32)  # acc = c_offsets * 0.0

    for k in range(K):
        a_offsets = offs_m * K + k
        b_offsets = k * N + offs_n

        a_values = tl.load(a + a_offsets, mask=offs_m < M, other=0.0)
        b_values = tl.load(b + b_offsets, mask=offs_n < N, other=0.0)

        acc = acc + a_values * b_values

    tl.store(c + c_offsets, acc, mask=c_mask)

# Runtime K: the accumulator is carried through one 'for'.  Inside the body,
# CSE reuses the enclosing scope's masks (%12, %13) instead of recomputing
# them; the loop-invariant 'offs_m * K' stays in the body (no hoisting).
# CHECK: {{^}}%[[PIDM:[0-9]+]] = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%[[PIDN:[0-9]+]] = program_id {axis=1} : i32
# CHECK-NEXT: {{^}}%[[T2:[0-9]+]] = mul %[[PIDM]], 4 : i32
# CHECK-NEXT: {{^}}%[[AR4:[0-9]+]] = arange {start=0, end=4} : vector<4 x i32>
# CHECK-NEXT: {{^}}%[[COL4:[0-9]+]] = expand_dims %[[AR4]] {axis=1} : block<4x1 x i32>
# CHECK-NEXT: {{^}}%[[OFFM:[0-9]+]] = add %[[T2]], %[[COL4]] : block<4x1 x i32>
# CHECK-NEXT: {{^}}%[[T6:[0-9]+]] = mul %[[PIDN]], 8 : i32
# CHECK-NEXT: {{^}}%[[AR8:[0-9]+]] = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%[[ROW8:[0-9]+]] = expand_dims %[[AR8]] {axis=0} : block<1x8 x i32>
# CHECK-NEXT: {{^}}%[[OFFN:[0-9]+]] = add %[[T6]], %[[ROW8]] : block<1x8 x i32>
# CHECK-NEXT: {{^}}%[[T10:[0-9]+]] = mul %[[OFFM]], N : block<4x1 x i32>
# CHECK-NEXT: {{^}}%[[COFF:[0-9]+]] = add %[[T10]], %[[OFFN]] : block<4x8 x i32>
# CHECK-NEXT: {{^}}%[[MM:[0-9]+]] = cmp_lt %[[OFFM]], M : block<4x1 x bool>
# CHECK-NEXT: {{^}}%[[MN:[0-9]+]] = cmp_lt %[[OFFN]], N : block<1x8 x bool>
# CHECK-NEXT: {{^}}%[[CMASK:[0-9]+]] = and %[[MM]], %[[MN]] : block<4x8 x bool>
# CHECK-NEXT: {{^}}%[[ZERO:[0-9]+]] = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>
# CHECK-NEXT: {{^}}%[[RES:[0-9]+]] = for %[[K:[0-9]+]] in range(0, K, 1) iter_args(%[[ACC:[0-9]+]] = %[[ZERO]]) : block<4x8 x f32> {
# CHECK-NEXT: {{^}}  %[[B1:[0-9]+]] = mul %[[OFFM]], K : block<4x1 x i32>
# CHECK-NEXT: {{^}}  %[[AOFF:[0-9]+]] = add %[[B1]], %[[K]] : block<4x1 x i32>
# CHECK-NEXT: {{^}}  %[[B3:[0-9]+]] = mul %[[K]], N : i32
# CHECK-NEXT: {{^}}  %[[BOFF:[0-9]+]] = add %[[B3]], %[[OFFN]] : block<1x8 x i32>
# CHECK-NEXT: {{^}}  %[[AP:[0-9]+]] = addptr a, %[[AOFF]] : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}  %[[AV:[0-9]+]] = load %[[AP]], %[[MM]], 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}  %[[BP:[0-9]+]] = addptr b, %[[BOFF]] : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}  %[[BV:[0-9]+]] = load %[[BP]], %[[MN]], 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}  %[[PROD:[0-9]+]] = mul %[[AV]], %[[BV]] : block<4x8 x f32>
# CHECK-NEXT: {{^}}  %[[NEXT:[0-9]+]] = add %[[ACC]], %[[PROD]] : block<4x8 x f32>
# CHECK-NEXT: {{^}}  yield %[[NEXT]]
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}%[[CP:[0-9]+]] = addptr c, %[[COFF]] : block<4x8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %[[CP]], %[[RES]], %[[CMASK]]
# CHECK-NOT: {{[^[:space:]]}}
