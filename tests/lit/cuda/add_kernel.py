# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --emit cuda | %FileCheck %s
# CUDA C of the masked add (stable properties only): the signature with
# runtime parameters only (the constexpr BLOCK is gone), #line directives
# pointing at the source, masked loads with the 0.0f fallback, a masked store.
# CHECK: {{^}}extern "C" __global__ void __launch_bounds__(128) add_kernel(float* x, float* y, float* out, int n) {
# CHECK: {{^}}#line 27 "{{.*}}add_kernel.py"
# CHECK-NEXT: = (int)blockIdx.x;
# CHECK: {{^}}#line 30 "{{.*}}add_kernel.py"
# CHECK: < n);
# CHECK: {{^}}#line 32 "{{.*}}add_kernel.py"
# CHECK: (x + v{{[0-9]+}}[mt_e]);
# CHECK: = (v[[MASK:[0-9]+]][mt_e] ? (*v{{[0-9]+}}[mt_e]) : 0.0f);
# CHECK: {{^}}#line 33 "{{.*}}add_kernel.py"
# CHECK: = (v[[MASK]][mt_e] ? (*v{{[0-9]+}}[mt_e]) : 0.0f);
# CHECK: {{^}}#line 35 "{{.*}}add_kernel.py"
# CHECK: if (v[[MASK]][mt_e]) *v{{[0-9]+}}[mt_e] = v{{[0-9]+}}[mt_e];
# CHECK-NEXT: {{^}}}
# CHECK-NOT: {{[^[:space:]]}}
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
