# RUN: %mytriton compile %s --kernel leaky_relu_kernel --signature '*fp32,*fp32,i32,fp32,256' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def leaky_relu_kernel(x, out, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)

    mask = offs < n

    a = tl.load(x + offs, mask=mask, other=0.0)

    b = tl.where(a < 0.0, alpha * a, a)

    tl.store(out + offs, b, mask=mask)

# tl.where lowers to select; the runtime f32 'alpha' stays a parameter operand.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%1 = mul %0, 256 : i32
# CHECK-NEXT: {{^}}%2 = arange {start=0, end=256} : vector<256 x i32>
# CHECK-NEXT: {{^}}%3 = add %1, %2 : vector<256 x i32>
# CHECK-NEXT: {{^}}%4 = cmp_lt %3, n : vector<256 x bool>
# CHECK-NEXT: {{^}}%5 = addptr x, %3 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%6 = load %5, %4, 0.0 : vector<256 x f32>
# CHECK-NEXT: {{^}}%7 = cmp_lt %6, 0.0 : vector<256 x bool>
# CHECK-NEXT: {{^}}%8 = mul alpha, %6 : vector<256 x f32>
# CHECK-NEXT: {{^}}%9 = select %7, %8, %6 : vector<256 x f32>
# CHECK-NEXT: {{^}}%10 = addptr out, %3 : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}store %10, %9, %4
# CHECK-NOT: {{[^[:space:]]}}
