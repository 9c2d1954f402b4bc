# RUN: %mytriton compile %s --kernel nested_runtime_loops_kernel --signature '*fp32,i32' --emit cuda | %FileCheck %s
# CUDA C of nested runtime loops (stable properties only): each carried value
# is a variable initialised before its loop and assigned at the end of the
# body; the scalar result is stored by thread 0 only.
# CHECK: {{^}}extern "C" __global__ void __launch_bounds__(128) nested_runtime_loops_kernel(float* out, int n) {
# CHECK: int v[[PID:[0-9]+]] = (int)blockIdx.x;
# CHECK: {{^}}#line 34 "{{.*}}nested_runtime_loops_kernel.py"
# CHECK-NEXT: int v[[ACC:[0-9]+]] = 0;
# CHECK-NEXT: for (int v[[I:[0-9]+]] = 0; v[[I]] < n; ++v[[I]]) {
# CHECK-NEXT: {{^}}#line 35 "{{.*}}nested_runtime_loops_kernel.py"
# CHECK-NEXT: int v[[INNER:[0-9]+]] = v[[ACC]];
# CHECK-NEXT: for (int v[[J:[0-9]+]] = 0; v[[J]] < n; ++v[[J]]) {
# CHECK-NEXT: {{^}}#line 36 "{{.*}}nested_runtime_loops_kernel.py"
# CHECK-NEXT: int v[[A:[0-9]+]] = ((int)(((unsigned)v[[INNER]]) + ((unsigned)v[[PID]])));
# CHECK-NEXT: int v[[B:[0-9]+]] = ((int)(((unsigned)v[[A]]) + ((unsigned)v[[I]])));
# CHECK-NEXT: int v[[C:[0-9]+]] = ((int)(((unsigned)v[[B]]) + ((unsigned)v[[J]])));
# CHECK-NEXT: v[[INNER]] = v[[C]];
# CHECK-NEXT: }
# CHECK-NEXT: v[[ACC]] = v[[INNER]];
# CHECK-NEXT: }
# CHECK: if (threadIdx.x == 0) *v{{[0-9]+}} = ((float)v[[ACC]]);
# CHECK-NEXT: {{^}}}
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
