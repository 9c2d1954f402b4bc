# RUN: %mytriton compile %s --kernel matmul_2d_kernel --signature '*fp32,*fp32,*fp32,i32,i32,3,4,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
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

# Static K loop unrolled three times; '[:, None]'/'[None, :]' are expand_dims; 'offs_m * K + 0' folds to the mul, 'mul 0, N' (left constant) stays; masks are CSE'd with the store mask operands.
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
# CHECK-NEXT: {{^}}%17 = mul 0, N : i32
# CHECK-NEXT: {{^}}%18 = add %17, %9 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%19 = addptr a, %16 : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}%20 = load %19, %12, 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}%21 = addptr b, %18 : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}%22 = load %21, %13, 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}%23 = mul %20, %22 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%24 = add %15, %23 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%25 = add %16, 1 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%26 = mul 1, N : i32
# CHECK-NEXT: {{^}}%27 = add %26, %9 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%28 = addptr a, %25 : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}%29 = load %28, %12, 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}%30 = addptr b, %27 : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}%31 = load %30, %13, 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}%32 = mul %29, %31 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%33 = add %24, %32 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%34 = add %16, 2 : block<4x1 x i32>
# CHECK-NEXT: {{^}}%35 = mul 2, N : i32
# CHECK-NEXT: {{^}}%36 = add %35, %9 : block<1x8 x i32>
# CHECK-NEXT: {{^}}%37 = addptr a, %34 : block<4x1 x ptr<f32>>
# CHECK-NEXT: {{^}}%38 = load %37, %12, 0.0 : block<4x1 x f32>
# CHECK-NEXT: {{^}}%39 = addptr b, %36 : block<1x8 x ptr<f32>>
# CHECK-NEXT: {{^}}%40 = load %39, %13, 0.0 : block<1x8 x f32>
# CHECK-NEXT: {{^}}%41 = mul %38, %40 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%42 = add %33, %41 : block<4x8 x f32>
# CHECK-NEXT: {{^}}%43 = addptr c, %11 : block<4x8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %43, %42, %14
# CHECK-NOT: {{[^[:space:]]}}
