# RUN: %mytriton compile %s --kernel matmul_2d_kernel --signature '*fp32,*fp32,*fp32,i32,i32,3,4,8' --emit ssa | %FileCheck --strict-whitespace %s
# Unoptimised SSA of matmul_2d_kernel (compare ssa/matmul_2d_kernel.py):
# fold removes 'add %16, 0' (k = 0); CSE merges the per-iteration masks
# (%20/%21, %32/%33, %44/%45) into the store mask's operands %12/%13 and the
# re-created 'offs_m * K' (%28, %40) into %16; 'mul 0, N' and 'mul 1, N'
# (left constants) stay.  Every op is emitted at its source position.
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matmul_2d_kernel(
    a,
    b,
    c,
    M,
    N,
    K: tl.constexpr,
    BM: tl.constexpr,
    BN: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]

    c_offsets = offs_m * N + offs_n
    c_mask = (offs_m < M) & (offs_n < N)

    acc = tl.zeros((BM, BN), tl.float32)

    for k in tl.static_range(0, K):
        a_offsets = offs_m * K + k
        b_offsets = k * N + offs_n

        a_mask = offs_m < M
        b_mask = offs_n < N

        a_values = tl.load(a + a_offsets, mask=a_mask, other=0.0)
        b_values = tl.load(b + b_offsets, mask=b_mask, other=0.0)

        acc = acc + a_values * b_values

    tl.store(c + c_offsets, acc, mask=c_mask)

# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = program_id {axis=1} : i32
# CHECK-NEXT: {{^}}%2 = mul %0, 4 : i32
# CHECK-NEXT: {{^}}%3 = arange {start=0, end=4} : vector<4 x i32>
# CHECK-NEXT: {{^}}%4 = expand_dims %3 {axis=1} : block<4x1 x i32>
# CHECK-NEXT: {{^}}%5 = add %2, %4 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%6 = mul %1, 8 : i32
# CHECK-NEXT: {{^}}%7 = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%8 = expand_dims %7 {axis=0} : block<1x8 x i32>
# CHECK-NEXT: {{^}}%9 = add %6, %8 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%10 = mul %5, N : block<4x1 x i32>
# CHECK-NEXT: {{^}}%11 = add %10, %9 : block<4x8 x i32>
# CHECK-NEXT: {{^}}%12 = cmp_lt %5, M : block<4x1 x bool>
# CHECK-NEXT: {{^}}%13 = cmp_lt %9, N : block<1x8 x bool>
# CHECK-NEXT: {{^}}%14 = and %12, %13 : block<4x8 x bool>
# CHECK-NEXT: {{^}}%15 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>
# CHECK-NEXT: {{^}}%16 = mul %5, 3 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%17 = add %16, 0 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%18 = mul 0, N : i32
# CHECK-NEXT: {{^}}%19 = add %18, %9 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%20 = cmp_lt %5, M : block<4x1 x bool>
# CHECK-NEXT: {{^}}%21 = cmp_lt %9, N : block<1x8 x bool>
# CHECK-NEXT: {{^}}%22 = addptr a, %17 : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}%23 = load %22, %20, 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}%24 = addptr b, %19 : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}%25 = load %24, %21, 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}%26 = mul %23, %25 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%27 = add %15, %26 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%28 = mul %5, 3 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%29 = add %28, 1 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%30 = mul 1, N : i32
# CHECK-NEXT: {{^}}%31 = add %30, %9 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%32 = cmp_lt %5, M : block<4x1 x bool>
# CHECK-NEXT: {{^}}%33 = cmp_lt %9, N : block<1x8 x bool>
# CHECK-NEXT: {{^}}%34 = addptr a, %29 : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}%35 = load %34, %32, 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}%36 = addptr b, %31 : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}%37 = load %36, %33, 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}%38 = mul %35, %37 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%39 = add %27, %38 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%40 = mul %5, 3 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%41 = add %40, 2 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%42 = mul 2, N : i32
# CHECK-NEXT: {{^}}%43 = add %42, %9 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%44 = cmp_lt %5, M : block<4x1 x bool>
# CHECK-NEXT: {{^}}%45 = cmp_lt %9, N : block<1x8 x bool>
# CHECK-NEXT: {{^}}%46 = addptr a, %41 : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}%47 = load %46, %44, 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}%48 = addptr b, %43 : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}%49 = load %48, %45, 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}%50 = mul %47, %49 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%51 = add %39, %50 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%52 = addptr c, %11 : block<4x8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %52, %51, %14
# CHECK-NOT: {{[^[:space:]]}}
