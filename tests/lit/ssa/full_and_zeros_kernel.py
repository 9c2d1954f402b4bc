# RUN: %mytriton compile %s --kernel full_and_zeros_kernel --signature '*fp32,i32,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def full_and_zeros_kernel(out, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.zeros((BLOCK,), tl.float32)
    values = values + tl.full([BLOCK], 2.5, tl.float32)
    tl.store(out + offsets, values, mask=mask)

# Block constructors are never folded, even when all-constant.
# CHECK: {{^}}%0 = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%1 = cmp_lt %0, n : vector<8 x bool>
# CHECK-NEXT: {{^}}%2 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>
# CHECK-NEXT: {{^}}%3 = full 2.5 {shape=(8,), dtype=f32} : vector<8 x f32>
# CHECK-NEXT: {{^}}%4 = add %2, %3 : vector<8 x f32>
# CHECK-NEXT: {{^}}%5 = addptr out, %0 : vector<8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %5, %4, %1
# CHECK-NOT: {{[^[:space:]]}}
