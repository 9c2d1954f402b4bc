# RUN: %mytriton compile %s --kernel interleave_kernel --signature '*fp32,*fp32,*fp32,4,32' --emit ssa-layout | %FileCheck %s
# tl.interleave of 2-D blocks: join makes a [4, 32, 2] block, which no
# layout holds (the backend holds rank 2 at most); the reshape that reads
# it reads through it to join's operands.  The loads' [4, 32] group and
# the store's [4, 64] group stay apart (their index vectors are converted
# by recomputation), and in them the thread that stores out[r, 2c] and
# out[r, 2c + 1] holds A[r, c] and B[r, c]: no scratch buffer at all.
# CHECK: %[[A:[0-9]+]] = load %{{[0-9]+}}, none, none : block<4x32 x f32>
# CHECK: %[[B:[0-9]+]] = load %{{[0-9]+}}, none, none : block<4x32 x f32>
# CHECK-NEXT: %[[J:[0-9]+]] = join %[[A]], %[[B]] : block<4x32x2 x f32>
# CHECK-NEXT: %[[R:[0-9]+]] = reshape %[[J]] : block<4x64 x f32>
# CHECK: values:
# CHECK-NOT: %[[J]]: #
# CHECK: %[[R]]: #1
# CHECK: shared 0 bytes (budget 49152)
# CHECK-NOT: mt_smem
import mytriton as triton
import mytriton.language as tl


@triton.jit
def interleave_kernel(A, B, OUT, R: tl.constexpr, C: tl.constexpr):
    offs = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    i = tl.interleave(tl.load(A + offs), tl.load(B + offs))
    tl.store(OUT + tl.arange(0, R)[:, None] * (2 * C) + tl.arange(0, 2 * C)[None, :], i)
