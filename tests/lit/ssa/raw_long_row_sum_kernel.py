# RUN: %mytriton compile %s --kernel long_row_sum_kernel --signature '*fp32,*fp32,10,4' --emit ssa | %FileCheck --strict-whitespace %s
# Unoptimised SSA of long_row_sum_kernel (compare ssa/long_row_sum_kernel.py):
# each unrolled chunk re-creates 'x + row_start' (%11, %17), which CSE merges
# into %5; nothing else is removed.
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def long_row_sum_kernel(x, out, N_COLS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)

    row_start = row * N_COLS
    partial: Any = 0.0

    for start in tl.static_range(0, N_COLS, BLOCK):
        cols = start + lanes
        mask = cols < N_COLS

        values = tl.load(x + row_start + cols, mask=mask, other=0.0)

        partial = partial + values

    total = tl.sum(partial)
    first_lane = lanes < 1

    tl.store(out + row, total, mask=first_lane)

# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = arange {start=0, end=4} : vector<4 x i32>
# CHECK-NEXT: {{^}}%2 = mul %0, 10 : i32
# CHECK-NEXT: {{^}}%3 = add 0, %1 : vector<4 x i32>
# CHECK-NEXT: {{^}}%4 = cmp_lt %3, 10 : vector<4 x bool>
# CHECK-NEXT: {{^}}%5 = addptr x, %2 : ptr<f32>
# CHECK-NEXT: {{^}}%6 = addptr %5, %3 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%7 = load %6, %4, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%8 = add 0.0, %7 : vector<4 x f32>
# CHECK-NEXT: {{^}}%9 = add 4, %1 : vector<4 x i32>
# CHECK-NEXT: {{^}}%10 = cmp_lt %9, 10 : vector<4 x bool>
# CHECK-NEXT: {{^}}%11 = addptr x, %2 : ptr<f32>
# CHECK-NEXT: {{^}}%12 = addptr %11, %9 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%13 = load %12, %10, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%14 = add %8, %13 : vector<4 x f32>
# CHECK-NEXT: {{^}}%15 = add 8, %1 : vector<4 x i32>
# CHECK-NEXT: {{^}}%16 = cmp_lt %15, 10 : vector<4 x bool>
# CHECK-NEXT: {{^}}%17 = addptr x, %2 : ptr<f32>
# CHECK-NEXT: {{^}}%18 = addptr %17, %15 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%19 = load %18, %16, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%20 = add %14, %19 : vector<4 x f32>
# CHECK-NEXT: {{^}}%21 = sum %20 {axis=0} : f32
# CHECK-NEXT: {{^}}%22 = cmp_lt %1, 1 : vector<4 x bool>
# CHECK-NEXT: {{^}}%23 = addptr out, %0 : ptr<f32>
# CHECK-NEXT: {{^}}store %23, %21, %22
# CHECK-NOT: {{[^[:space:]]}}
