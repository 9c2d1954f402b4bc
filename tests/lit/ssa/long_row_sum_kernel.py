# RUN: %mytriton compile %s --kernel long_row_sum_kernel --signature '*fp32,*fp32,10,4' --emit ssa-opt | %FileCheck --strict-whitespace %s
# RUN: %mytriton compile %s --kernel long_row_sum_kernel --signature '*fp32,*fp32,10,4' --emit ssa-opt | %FileCheck %s --check-prefix=NOLOOP
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

# The static_range loop is unrolled at compile time (three chunks, no 'for'); CSE merges the re-created 'x + row_start'; left-constant '0 + lanes' and '0.0 + values' are not identities and stay.
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
# CHECK-NEXT: {{^}}%11 = addptr %5, %9 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%12 = load %11, %10, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%13 = add %8, %12 : vector<4 x f32>
# CHECK-NEXT: {{^}}%14 = add 8, %1 : vector<4 x i32>
# CHECK-NEXT: {{^}}%15 = cmp_lt %14, 10 : vector<4 x bool>
# CHECK-NEXT: {{^}}%16 = addptr %5, %14 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}%17 = load %16, %15, 0.0 : vector<4 x f32>
# CHECK-NEXT: {{^}}%18 = add %13, %17 : vector<4 x f32>
# CHECK-NEXT: {{^}}%19 = sum %18 {axis=0} : f32
# CHECK-NEXT: {{^}}%20 = cmp_lt %1, 1 : vector<4 x bool>
# CHECK-NEXT: {{^}}%21 = addptr out, %0 : ptr<f32>
# CHECK-NEXT: {{^}}store %21, %19, %20
# CHECK-NOT: {{[^[:space:]]}}

# Nothing loop-like reaches the IR, and the 'x + row_start' pointer is built once.
# NOLOOP-NOT: for
# NOLOOP-NOT: yield
# NOLOOP: addptr x, %2 : ptr<f32>
# NOLOOP-NOT: addptr x,
