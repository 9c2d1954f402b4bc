# RUN: %mytriton compile %s --kernel naive_matmul_kernel --signature '*fp32,*fp32,*fp32,i32,3,4' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def naive_matmul_kernel(a, b, c, n_cols, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)

    cols = col_block * BLOCK + tl.arange(0, BLOCK)

    mask = cols < n_cols
    accumulator: Any = 0.0

    a_row_start = row * K

    for k in tl.static_range(0, K):
        a_value = tl.load(a + a_row_start + k)

        b_offsets = k * n_cols + cols
        b_values = tl.load(
            b + b_offsets,
            mask=mask,
            other=0.0,
        )

        accumulator = accumulator + a_value * b_values

    c_offsets = row * n_cols + cols

    tl.store(
        c + c_offsets,
        accumulator,
        mask=mask,
    )

# Unrolled static K loop with scalar unmasked loads; 'addptr %7, 0' and 'mul 0, n_cols' are not identities and stay.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = program_id {axis=1} : i32
# CHECK-NEXT: {{^}}%2 = mul %1, 4 : i32
# CHECK-NEXT: {{^}}%3 = arange {start=0, end=4} : vector<4 x i32>
# CHECK-NEXT: {{^}}%4 = add %2, %3 : vector<4 x i32>
# CHECK-NEXT: {{^}}%5 = cmp_lt %4, n_cols : vector<4 x bool>
# CHECK-NEXT: {{^}}%6 = mul %0, 3 : i32
# CHECK-NEXT: {{^}}%7 = addptr a, %6 : ptr<f32>
# CHECK-NEXT: {{^}}%8 = addptr %7, 0 : ptr<f32>
# CHECK-NEXT: {{^}}%9 = load %8, none, none : f32
# CHECK-NEXT: {{^}}%10 = mul 0, n_cols : i32
# CHECK-NEXT: {{^}}%11 = add %10, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%12 = addptr b, %11 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%13 = load %12, %5, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%14 = mul %9, %13 : vector<4 x f32>
# CHECK-NEXT: {{^}}%15 = add 0.0, %14 : vector<4 x f32>
# CHECK-NEXT: {{^}}%16 = addptr %7, 1 : ptr<f32>
# CHECK-NEXT: {{^}}%17 = load %16, none, none : f32
# CHECK-NEXT: {{^}}%18 = mul 1, n_cols : i32
# CHECK-NEXT: {{^}}%19 = add %18, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%20 = addptr b, %19 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%21 = load %20, %5, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%22 = mul %17, %21 : vector<4 x f32>
# CHECK-NEXT: {{^}}%23 = add %15, %22 : vector<4 x f32>
# CHECK-NEXT: {{^}}%24 = addptr %7, 2 : ptr<f32>
# CHECK-NEXT: {{^}}%25 = load %24, none, none : f32
# CHECK-NEXT: {{^}}%26 = mul 2, n_cols : i32
# CHECK-NEXT: {{^}}%27 = add %26, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%28 = addptr b, %27 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%29 = load %28, %5, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%30 = mul %25, %29 : vector<4 x f32>
# CHECK-NEXT: {{^}}%31 = add %23, %30 : vector<4 x f32>
# CHECK-NEXT: {{^}}%32 = mul %0, n_cols : i32
# CHECK-NEXT: {{^}}%33 = add %32, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%34 = addptr c, %33 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}store %34, %31, %5
# CHECK-NOT: {{[^[:space:]]}}
