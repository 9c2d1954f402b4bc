# RUN: %mytriton compile %s --kernel row_sum_kernel --signature '*fp32,*fp32,i32,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def row_sum_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)

    offsets = row * n_cols + cols
    mask = cols < n_cols

    values = tl.load(x + offsets, mask=mask, other=0.0)

    total = tl.sum(values)

    first_lane = cols < 1

    tl.store(out + row, total, mask=first_lane)

# sum reduces to a scalar f32 stored by lane 0 through a scalar pointer.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%2 = mul %0, n_cols : i32
# CHECK-NEXT: {{^}}%3 = add %2, %1 : vector<8 x i32>
# CHECK-NEXT: {{^}}%4 = cmp_lt %1, n_cols : vector<8 x bool>
# CHECK-NEXT: {{^}}%5 = addptr x, %3 : vector<8 x ptr<f32>>
# CHECK-NEXT: {{^}}%6 = load %5, %4, 0.0 : vector<8 x f32>
# CHECK-NEXT: {{^}}%7 = sum %6 {axis=0} : f32
# CHECK-NEXT: {{^}}%8 = cmp_lt %1, 1 : vector<8 x bool>
# CHECK-NEXT: {{^}}%9 = addptr out, %0 : ptr<f32>
# CHECK-NEXT: {{^}}store %9, %7, %8
# CHECK-NOT: {{[^[:space:]]}}
