# RUN: %mytriton compile %s --kernel nonzero_range_kernel --signature '*fp32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def nonzero_range_kernel(out):
    offsets = tl.arange(4, 8)
    tl.store(out + offsets, 1.0)

# arange with a nonzero start.
# CHECK: {{^}}%0 = arange {start=4, end=8} : vector<4 x i32>
# CHECK-NEXT: {{^}}%1 = addptr out, %0 : vector<4 x ptr<f32>>
# CHECK-NEXT: {{^}}store %1, 1.0, none
# CHECK-NOT: {{[^[:space:]]}}
