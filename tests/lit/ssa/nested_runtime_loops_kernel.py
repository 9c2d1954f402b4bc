# RUN: %mytriton compile %s --kernel nested_runtime_loops_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def nested_runtime_loops_kernel(out, n):
    offset = tl.program_id(0)
    acc: Any = 0

    for i in range(n):
        for j in range(n):
            acc = acc + offset + i + j

    tl.store(out + offset, acc)

# Loop in loop: the inner loop's init is the outer carried argument; its result is the outer yield.
# CHECK: {{^}}%0 = program_id {axis=0} : i32
# CHECK-NEXT: {{^}}%9 = for %1 in range(0, n, 1) iter_args(%2 = 0) : i32 {
# CHECK-NEXT: {{^}}  %8 = for %3 in range(0, n, 1) iter_args(%4 = %2) : i32 {
# CHECK-NEXT: {{^}}    %5 = add %4, %0 : i32
# CHECK-NEXT: {{^}}    %6 = add %5, %1 : i32
# CHECK-NEXT: {{^}}    %7 = add %6, %3 : i32
# CHECK-NEXT: {{^}}    yield %7
# CHECK-NEXT: {{^}}  }
# CHECK-NEXT: {{^}}  yield %8
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}%10 = addptr out, %0 : ptr<f32>
# CHECK-NEXT: {{^}}store %10, %9, none
# CHECK-NOT: {{[^[:space:]]}}
