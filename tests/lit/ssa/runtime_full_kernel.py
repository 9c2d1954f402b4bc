# RUN: %mytriton compile %s --kernel runtime_full_kernel --signature '*fp32,i32,fp32,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def runtime_full_kernel(out, n, value, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.full(BLOCK, value, tl.float32)
    tl.store(out + offsets, values, mask=mask)

# tl.full with a runtime fill value and an integer shape.
# CHECK: {{^}}%0 = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%1 = cmp_lt %0, n : vector<8 x bool>
# CHECK-NEXT: {{^}}%2 = full value {shape=(8,), dtype=f32} : vector<8 x f32>
# CHECK-NEXT: {{^}}%3 = addptr out, %0 : vector<8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %3, %2, %1
# CHECK-NOT: {{[^[:space:]]}}
