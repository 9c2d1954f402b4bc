# RUN: %mytriton compile %s --kernel nested_pointer_kernel --signature '*fp32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def nested_pointer_kernel(out):
    tl.store(out + 1 + 2, 1.0)

# 'out + 1 + 2' is two addptrs (pointer arithmetic is not reassociated).
# CHECK: {{^}}%0 = addptr out, 1 : ptr<f32>
# CHECK-NEXT: {{^}}%1 = addptr %0, 2 : ptr<f32>
# CHECK-NEXT: {{^}}store %1, 1.0, none
# CHECK-NOT: {{[^[:space:]]}}
