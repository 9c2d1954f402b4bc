# RUN: %mytriton compile %s --kernel annotated_carried_value_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def annotated_carried_value_kernel(out, n):
    acc: Any = 0

    for k in range(n):
        acc: Any = acc + k  # type: ignore[no-redef]

    tl.store(out, acc)

# An annotated assignment in a runtime loop carries 'acc' like a plain one.
# CHECK: {{^}}%3 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {
# CHECK-NEXT: {{^}}  %2 = add %1, %0 : i32
# CHECK-NEXT: {{^}}  yield %2
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}store out, %3, none
# CHECK-NOT: {{[^[:space:]]}}
