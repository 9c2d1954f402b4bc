# RUN: %mytriton compile %s --kernel tile_kernel --signature '*fp32,i32,32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def tile_kernel(out, n, TILE_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * TILE_SIZE + tl.arange(0, TILE_SIZE)
    tl.store(out + offsets, 1.0, mask=offsets < n)

# Mask given inline as a store keyword: the store's operands are evaluated in call order.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = mul %0, 32 : i32
# CHECK-NEXT: {{^}}%2 = arange {start=0, end=32} : vector<32 x i32>
# CHECK-NEXT: {{^}}%3 = add %1, %2 : vector<32 x i32>
# CHECK-NEXT: {{^}}%4 = addptr out, %3 : vector<32 x ptr<f32>>
# CHECK-NEXT: {{^}}%5 = cmp_lt %3, n : vector<32 x bool>
# CHECK-NEXT: {{^}}store %4, 1.0, %5
# CHECK-NOT: {{[^[:space:]]}}
