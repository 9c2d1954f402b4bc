# RUN: %mytriton compile %s --kernel interleave_kernel --signature '*fp32,*fp32,*fp32,4,32' --emit ssa-layout | %FileCheck %s
# tl.interleave of 2-D blocks: join makes a [4, 32, 2] block, which no
# layout holds (the backend holds rank 2 at most); the reshape that reads
# it reads through it to join's operands, so the one scratch buffer is the
# reshape's, as large as both loads, and join has none.
# CHECK: %[[A:[0-9]+]] = load %{{[0-9]+}}, none, none : block<4x32 x f32>
# CHECK: %[[B:[0-9]+]] = load %{{[0-9]+}}, none, none : block<4x32 x f32>
# CHECK-NEXT: %[[J:[0-9]+]] = join %[[A]], %[[B]] : block<4x32x2 x f32>
# CHECK-NEXT: %[[R:[0-9]+]] = reshape %[[J]] : block<4x64 x f32>
# CHECK: values:
# CHECK-NOT: %[[J]]: #
# CHECK: %[[R]]: #0
# CHECK: shared 1024 bytes (budget 49152)
# CHECK-NEXT: mt_smem +0: reshape [1 x 256] f32 = 1024 bytes
# CHECK-NOT: join
import mytriton as triton
import mytriton.language as tl


@triton.jit
def interleave_kernel(A, B, OUT, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    i = tl.interleave(tl.load(A + offs), tl.load(B + offs))
    tl.store(OUT + tl.arange(0, R)[:, None] * (2 * C) + tl.arange(0, 2 * C)[None, :], i)
