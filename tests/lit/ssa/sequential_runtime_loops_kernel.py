# RUN: %mytriton compile %s --kernel sequential_runtime_loops_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def sequential_runtime_loops_kernel(out, n):
    acc = 0

    for i in range(n):
        acc = acc + i

    for j in range(n):
        acc = acc + j

    tl.store(out, acc)

# Two loops in sequence: the second's init is the first's result.
# CHECK: {{^}}%3 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {
# CHECK-NEXT: {{^}}  %2 = add %1, %0 : i32
# CHECK-NEXT: {{^}}  yield %2
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}%7 = for %4 in range(0, n, 1) iter_args(%5 = %3) : i32 {
# CHECK-NEXT: {{^}}  %6 = add %5, %4 : i32
# CHECK-NEXT: {{^}}  yield %6
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}store out, %7, none
# CHECK-NOT: {{[^[:space:]]}}
