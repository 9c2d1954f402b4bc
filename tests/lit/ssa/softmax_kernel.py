# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32,*fp32,i32,8' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    offsets = row * n_cols + cols
    mask = cols < n_cols

    values = tl.load(
        x + offsets,
        mask=mask,
        other=float("-inf"),
    )

    row_max = tl.max(values)
    numerators = tl.exp(values - row_max)
    denominator = tl.sum(numerators)
    probabilities = numerators / denominator

    tl.store(out + offsets, probabilities, mask=mask)

# Row softmax: max -> sub -> exp -> sum -> div; the loaded row is used by both
# the max and the sub, the exp by both the sum and the div.
# CHECK: {{^}}%[[ROW:[0-9]+]] = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%[[COLS:[0-9]+]] = arange {start=0, end=8} : vector<8 x i32>
# CHECK-NEXT: {{^}}%[[RS:[0-9]+]] = mul %[[ROW]], n_cols : i32
# CHECK-NEXT: {{^}}%[[OFFS:[0-9]+]] = add %[[RS]], %[[COLS]] : vector<8 x i32>
# CHECK-NEXT: {{^}}%[[MASK:[0-9]+]] = cmp_lt %[[COLS]], n_cols : vector<8 x bool>
# CHECK-NEXT: {{^}}%[[XP:[0-9]+]] = addptr x, %[[OFFS]] : vector<8 x ptr<f32>>
# CHECK-NEXT: {{^}}%[[V:[0-9]+]] = load %[[XP]], %[[MASK]], -inf : vector<8 x f32>
# CHECK-NEXT: {{^}}%[[MAX:[0-9]+]] = max %[[V]] {axis=0} : f32
# CHECK-NEXT: {{^}}%[[SH:[0-9]+]] = sub %[[V]], %[[MAX]] : vector<8 x f32>
# CHECK-NEXT: {{^}}%[[E:[0-9]+]] = exp %[[SH]] : vector<8 x f32>
# CHECK-NEXT: {{^}}%[[DEN:[0-9]+]] = sum %[[E]] {axis=0} : f32
# CHECK-NEXT: {{^}}%[[P:[0-9]+]] = div %[[E]], %[[DEN]] : vector<8 x f32>
# CHECK-NEXT: {{^}}%[[OP:[0-9]+]] = addptr out, %[[OFFS]] : vector<8 x ptr<f32>>
# CHECK-NEXT: {{^}}store %[[OP]], %[[P]], %[[MASK]]
# CHECK-NOT: {{[^[:space:]]}}
