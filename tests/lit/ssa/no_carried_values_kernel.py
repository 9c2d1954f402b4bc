# RUN: %mytriton compile %s --kernel no_carried_values_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def no_carried_values_kernel(out, n):
    for k in range(n):
        tl.store(out + k, k)

# A loop that carries nothing has no results, no iter_args and a bare yield; the i32 index is stored into an f32 pointer.
# CHECK: {{^}}for %0 in range(0, n, 1) {
# CHECK-NEXT: {{^}}  %1 = addptr out, %0 : ptr<f32>
# CHECK-NEXT: {{^}}  store %1, %0, none
# CHECK-NEXT: {{^}}  yield
# CHECK-NEXT: {{^}}}
# CHECK-NOT: {{[^[:space:]]}}
