# RUN: %mytriton compile %s --kernel naive_matmul_kernel --signature '*fp32,*fp32,*fp32,i32,3,4' --emit ssa | %FileCheck --strict-whitespace %s
# Unoptimised SSA of naive_matmul_kernel (compare ssa/naive_matmul_kernel.py):
# the re-created 'a + a_row_start' of iterations 1 and 2 (%16, %25) is merged
# by CSE into %7; 'addptr %7, 0' and 'mul 0, n_cols' are not identities and
# stay in both stages.
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
# CHECK-NEXT: {{^}}%16 = addptr a, %6 : ptr<f32>
# CHECK-NEXT: {{^}}%17 = addptr %16, 1 : ptr<f32>
# CHECK-NEXT: {{^}}%18 = load %17, none, none : f32
# CHECK-NEXT: {{^}}%19 = mul 1, n_cols : i32
# CHECK-NEXT: {{^}}%20 = add %19, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%21 = addptr b, %20 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%22 = load %21, %5, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%23 = mul %18, %22 : vector<4 x f32>
# CHECK-NEXT: {{^}}%24 = add %15, %23 : vector<4 x f32>
# CHECK-NEXT: {{^}}%25 = addptr a, %6 : ptr<f32>
# CHECK-NEXT: {{^}}%26 = addptr %25, 2 : ptr<f32>
# CHECK-NEXT: {{^}}%27 = load %26, none, none : f32
# CHECK-NEXT: {{^}}%28 = mul 2, n_cols : i32
# CHECK-NEXT: {{^}}%29 = add %28, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%30 = addptr b, %29 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%31 = load %30, %5, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%32 = mul %27, %31 : vector<4 x f32>
# CHECK-NEXT: {{^}}%33 = add %24, %32 : vector<4 x f32>
# CHECK-NEXT: {{^}}%34 = mul %0, n_cols : i32
# CHECK-NEXT: {{^}}%35 = add %34, %4 : vector<4 x i32>
# CHECK-NEXT: {{^}}%36 = addptr c, %35 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}store %36, %33, %5
# CHECK-NOT: {{[^[:space:]]}}
