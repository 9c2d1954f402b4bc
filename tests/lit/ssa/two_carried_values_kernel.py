# RUN: %mytriton compile %s --kernel two_carried_values_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def two_carried_values_kernel(out, n):
    first = 0
    second = 1

    for k in range(n):
        first = first + k
        second = second + first

    tl.store(out, first + second)

# Two carried values, yielded in source order; the second uses the first's new value.
# CHECK: {{^}}%5, %6 = for %0 in range(0, n, 1) iter_args(%1 = 0, %2 = 1) : i32, i32 {
# CHECK-NEXT: {{^}}  %3 = add %1, %0 : i32
# CHECK-NEXT: {{^}}  %4 = add %2, %3 : i32
# CHECK-NEXT: {{^}}  yield %3, %4
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}%7 = add %5, %6 : i32
# CHECK-NEXT: {{^}}store out, %7, none
# CHECK-NOT: {{[^[:space:]]}}
