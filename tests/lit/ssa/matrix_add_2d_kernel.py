# RUN: %mytriton compile %s --kernel matrix_add_2d_kernel --signature '*fp32,*fp32,*fp32,i32,i32,16,32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matrix_add_2d_kernel(x, y, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)

    offs_m = pid_m * BM + tl.arange(0, BM)[:, None]
    offs_n = pid_n * BN + tl.arange(0, BN)[None, :]

    offsets = offs_m * N + offs_n
    mask = (offs_m < M) & (offs_n < N)

    lhs = tl.load(x + offsets, mask=mask, other=0.0)
    rhs = tl.load(y + offsets, mask=mask, other=0.0)

    tl.store(out + offsets, lhs + rhs, mask=mask)

# 2-D tiles: expand_dims + broadcasting give block<16x32> offsets and an 'and' mask.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = program_id {axis=1} : i32
# CHECK-NEXT: {{^}}%2 = mul %0, 16 : i32
# CHECK-NEXT: {{^}}%3 = arange {start=0, end=16} : vector<16 x i32>
# CHECK-NEXT: {{^}}%4 = expand_dims %3 {axis=1} : block<16x1 x i32>
# CHECK-NEXT: {{^}}%5 = add %2, %4 : block<16x1 x i32>
# CHECK-NEXT: {{^}}%6 = mul %1, 32 : i32
# CHECK-NEXT: {{^}}%7 = arange {start=0, end=32} : vector<32 x i32>
# CHECK-NEXT: {{^}}%8 = expand_dims %7 {axis=0} : block<1x32 x i32>
# CHECK-NEXT: {{^}}%9 = add %6, %8 : block<1x32 x i32>
# CHECK-NEXT: {{^}}%10 = mul %5, N : block<16x1 x i32>
# CHECK-NEXT: {{^}}%11 = add %10, %9 : block<16x32 x i32>
# CHECK-NEXT: {{^}}%12 = cmp_lt %5, M : block<16x1 x bool>
# CHECK-NEXT: {{^}}%13 = cmp_lt %9, N : block<1x32 x bool>
# CHECK-NEXT: {{^}}%14 = and %12, %13 : block<16x32 x bool>
# CHECK-NEXT: {{^}}%15 = addptr x, %11 : block<16x32 x ptr<f32>>
# CHECK-NEXT: {{^}}%16 = load %15, %14, 0.0 : block<16x32 x f32>
# CHECK-NEXT: {{^}}%17 = addptr y, %11 : block<16x32 x ptr<f32>>
# CHECK-NEXT: {{^}}%18 = load %17, %14, 0.0 : block<16x32 x f32>
# CHECK-NEXT: {{^}}%19 = addptr out, %11 : block<16x32 x ptr<f32>>
# CHECK-NEXT: {{^}}%20 = add %16, %18 : block<16x32 x f32>
# CHECK-NEXT: {{^}}store %19, %20, %14
# CHECK-NOT: {{[^[:space:]]}}
