# RUN: %mytriton compile %s --kernel empty_kernel --signature '*fp32,i32,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def empty_kernel(out, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    values = tl.empty((BLOCK,), tl.float32)
    tl.store(out + offsets, values, mask=mask)

# tl.empty is kept (never folded or merged); its contents are undefined.
# CHECK: {{^}}%0 = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%1 = cmp_lt %0, n : vector<8 x bool>
# CHECK-NEXT: {{^}}%2 = empty {shape=(8,), dtype=f32} : vector<8 x f32>
# CHECK-NEXT: {{^}}%3 = addptr out, %0 : vector<8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %3, %2, %1
# CHECK-NOT: {{[^[:space:]]}}
