# RUN: %mytriton compile %s --kernel matrix_add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def matrix_add_kernel(x, y, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    col_block = tl.program_id(1)

    cols = col_block * BLOCK + tl.arange(0, BLOCK)

    offsets = row * n_cols + cols
    mask = cols < n_cols

    lhs = tl.load(x + offsets, mask=mask, other=0.0)
    rhs = tl.load(y + offsets, mask=mask, other=0.0)

    tl.store(out + offsets, lhs + rhs, mask=mask)

# program_id axis 1 for the column block.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = program_id {axis=1} : i32
# CHECK-NEXT: {{^}}%2 = mul %1, 256 : i32
# CHECK-NEXT: {{^}}%3 = arange {start=0, end=256} : vector<256 x i32>
# CHECK-NEXT: {{^}}%4 = add %2, %3 : vector<256 x i32>
# CHECK-NEXT: {{^}}%5 = mul %0, n_cols : i32
# CHECK-NEXT: {{^}}%6 = add %5, %4 : vector<256 x i32>
# CHECK-NEXT: {{^}}%7 = cmp_lt %4, n_cols : vector<256 x bool>
# CHECK-NEXT: {{^}}%8 = addptr x, %6 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%9 = load %8, %7, 0.0 : vector<256 x f32>
# CHECK-NEXT: {{^}}%10 = addptr y, %6 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%11 = load %10, %7, 0.0 : vector<256 x f32>
# CHECK-NEXT: {{^}}%12 = addptr out, %6 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%13 = add %9, %11 : vector<256 x f32>
# CHECK-NEXT: {{^}}store %12, %13, %7
# CHECK-NOT: {{[^[:space:]]}}
