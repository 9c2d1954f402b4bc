# RUN: %mytriton compile %s --kernel sigmoid_kernel --signature '*fp32,*fp32,i32,256' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def sigmoid_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)

    mask = offs < n

    a = tl.load(x + offs, mask=mask, other=0.0)

    b = 1.0 / (1.0 + tl.exp(-a))

    tl.store(out + offs, b, mask=mask)

# neg, exp and left-constant float ops (1.0 + x, 1.0 / x) that never fold.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = mul %0, 256 : i32
# CHECK-NEXT: {{^}}%2 = arange {start=0, end=256} : vector<256 x i32>
# CHECK-NEXT: {{^}}%3 = add %1, %2 : vector<256 x i32>
# CHECK-NEXT: {{^}}%4 = cmp_lt %3, n : vector<256 x bool>
# CHECK-NEXT: {{^}}%5 = addptr x, %3 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%6 = load %5, %4, 0.0 : vector<256 x f32>
# CHECK-NEXT: {{^}}%7 = neg %6 : vector<256 x f32>
# CHECK-NEXT: {{^}}%8 = exp %7 : vector<256 x f32>
# CHECK-NEXT: {{^}}%9 = add 1.0, %8 : vector<256 x f32>
# CHECK-NEXT: {{^}}%10 = div 1.0, %9 : vector<256 x f32>
# CHECK-NEXT: {{^}}%11 = addptr out, %3 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}store %11, %10, %4
# CHECK-NOT: {{[^[:space:]]}}
