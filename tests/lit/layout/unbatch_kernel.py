# RUN: %mytriton compile %s --kernel bmm_kernel --signature '*fp16,*fp16,*fp32,2,32,32,32' --arch sm_90 --emit ssa-layout | %FileCheck %s
# A batched tl.dot of [2, 32, 32] blocks, as unbatch.c slices it for the
# CUDA lowering: no value of rank 3 is left, each slice its own loads and
# pointers (slice b's batch offset a constant: row b of the arange), one
# tensor-core dot per slice, one store per slice.
# CHECK-NOT: x32x32 x
# CHECK: = dot %{{[0-9]+}}, %{{[0-9]+}}, none {input_precision=ieee} : block<32x32 x f32>
# CHECK: = dot %{{[0-9]+}}, %{{[0-9]+}}, none {input_precision=ieee} : block<32x32 x f32>
# CHECK-NOT: = dot
# CHECK: store
# CHECK: store
# CHECK-NOT: store
# CHECK: dots:
# CHECK-NEXT: %{{[0-9]+}}: single-stage mma-f16
# CHECK-NEXT: %{{[0-9]+}}: single-stage mma-f16
import mytriton as triton
import mytriton.language as tl


@triton.jit
def bmm_kernel(q, k, o, B: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    b = tl.arange(0, B)[:, None, None]
    qv = tl.load(q + b * M * K + tl.arange(0, M)[None, :, None] * K + tl.arange(0, K)[None, None, :])
    kv = tl.load(k + b * K * N + tl.arange(0, K)[None, :, None] * N + tl.arange(0, N)[None, None, :])
    r = tl.dot(qv, kv)
    tl.store(o + b * M * N + tl.arange(0, M)[None, :, None] * N + tl.arange(0, N)[None, None, :], r)
