# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --emit ssa-opt | %FileCheck --strict-whitespace %s
# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --emit ssa-opt | %FileCheck %s --check-prefix=NUM
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)

    mask = offs < n

    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)

    tl.store(out + offs, a + b, mask=mask)

# Masked elementwise add.  The mask is computed where it is written (before
# the loads), each load follows its addptr, and the store's pointer operand
# is evaluated before its value (call argument order).
# CHECK: {{^}}%[[PID:[0-9]+]] = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%[[BASE:[0-9]+]] = mul %[[PID]], 256 : i32
# CHECK-NEXT: {{^}}%[[LANES:[0-9]+]] = arange {start=0, end=256} : vector<256 x i32>
# CHECK-NEXT: {{^}}%[[OFFS:[0-9]+]] = add %[[BASE]], %[[LANES]] : vector<256 x i32>
# CHECK-NEXT: {{^}}%[[MASK:[0-9]+]] = cmp_lt %[[OFFS]], n : vector<256 x bool>
# CHECK-NEXT: {{^}}%[[XP:[0-9]+]] = addptr x, %[[OFFS]] : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%[[A:[0-9]+]] = load %[[XP]], %[[MASK]], 0.0 : vector<256 x f32>
# CHECK-NEXT: {{^}}%[[YP:[0-9]+]] = addptr y, %[[OFFS]] : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%[[B:[0-9]+]] = load %[[YP]], %[[MASK]], 0.0 : vector<256 x f32>
# CHECK-NEXT: {{^}}%[[OP:[0-9]+]] = addptr out, %[[OFFS]] : vector<256 x ptr<f32>>
# CHECK-NEXT: {{^}}%[[SUM:[0-9]+]] = add %[[A]], %[[B]] : vector<256 x f32>
# CHECK-NEXT: {{^}}store %[[OP]], %[[SUM]], %[[MASK]]
# CHECK-NOT: {{[^[:space:]]}}

# Values are renumbered without gaps.
# NUM: {{^}}%0 = program_id
# NUM: {{^}}%10 = add %6, %8
