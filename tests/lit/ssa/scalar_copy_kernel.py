# RUN: %mytriton compile %s --kernel scalar_copy_kernel --signature '*fp32,*fp32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def scalar_copy_kernel(source, out):
    value = tl.load(source)
    tl.store(out, value)

# Scalar pointers: unmasked load and store.
# CHECK: {{^}}%0 = load source, none, none : f32
# CHECK-NEXT: {{^}}store out, %0, none
# CHECK-NOT: {{[^[:space:]]}}
