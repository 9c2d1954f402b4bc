# RUN: %mytriton compile %s --kernel compile_only_kernel --signature '*fp32,*fp32,*fp32,i32,256' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def compile_only_kernel(x, y, out, n, TILE: tl.constexpr):
    offsets = tl.arange(0, TILE)
    mask = offsets < n
    x_values = tl.load(x + offsets, mask=mask)
    y_values = tl.load(y + offsets, mask=mask)
    tl.store(out + offsets, x_values + y_values, mask=mask)

# Loads without 'other' print 'none' as their fallback.
# CHECK: {{^}}%0 = arange {start=0, end=256} : vector<256 x i32>
# CHECK-NEXT: {{^}}%1 = cmp_lt %0, n : vector<256 x bool>
# CHECK-NEXT: {{^}}%2 = addptr x, %0 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%3 = load %2, %1, none : vector<256 x f32>
# CHECK-NEXT: {{^}}%4 = addptr y, %0 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%5 = load %4, %1, none : vector<256 x f32>
# CHECK-NEXT: {{^}}%6 = addptr out, %0 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%7 = add %3, %5 : vector<256 x f32>
# CHECK-NEXT: {{^}}store %6, %7, %1
# CHECK-NOT: {{[^[:space:]]}}
