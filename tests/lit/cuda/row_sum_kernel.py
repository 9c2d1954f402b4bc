# RUN: %mytriton compile %s --kernel row_sum_kernel --signature '*fp32,*fp32,i32,8' --emit cuda | %FileCheck %s
# RUN: %mytriton compile %s --kernel row_sum_kernel --signature '*fp32,*fp32,i32,8' --emit cuda | %FileCheck %s --check-prefix=GUARD
# CUDA C of a row reduction (stable properties only): the masked load with
# fallback, owner-only accumulation, warp shuffles, a shared-memory exchange
# between warps fenced by __syncthreads (also after the read, so a later
# reduction cannot overwrite the slots early), and a single-thread store.
# CHECK: {{^}}extern "C" __global__ void __launch_bounds__(128) row_sum_kernel(float* x, float* out, int n_cols) {
# CHECK: __shared__
# CHECK: = (v{{[0-9]+}}[0] ? (*v{{[0-9]+}}[0]) : 0.0f);
# CHECK: {{^}}#line {{[0-9]+}} "{{.*}}row_sum_kernel.py"
# CHECK: if (mt_b0_0 + mt_s < 8)
# CHECK: __shfl_xor_sync(0xffffffffu, {{.*}}, 16);
# CHECK: __shfl_xor_sync(0xffffffffu, {{.*}}, 1);
# CHECK: __syncthreads();
# CHECK: __syncthreads();
# CHECK: {{^}}#line {{[0-9]+}} "{{.*}}row_sum_kernel.py"
# CHECK: float* v[[P:[0-9]+]] = mt_base_ptr(out + v{{[0-9]+}});
# CHECK-NEXT: #pragma unroll
# CHECK-NEXT: for (int mt_e = 0; mt_e < 1; ++mt_e)
# CHECK-NEXT: if (mt_b0_0 < 8 && v{{[0-9]+}}[0]) *v[[P]] = v{{[0-9]+}};
# CHECK-NEXT: {{^}}}
# CHECK-NOT: {{[^[:space:]]}}
# The store's lane mask (a per-thread array) must be indexed, not used as a
# bare array name, which is a non-null pointer and always true.
# GUARD: {{^}}#line {{[0-9]+}}
# GUARD-NOT: && v{{[0-9]+}})
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def row_sum_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)

    offsets = row * n_cols + cols
    mask = cols < n_cols

    values = tl.load(x + offsets, mask=mask, other=0.0)

    total = tl.sum(values)

    first_lane = cols < 1

    tl.store(out + row, total, mask=first_lane)
