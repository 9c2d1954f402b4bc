# RUN: %mytriton compile %s --kernel store_between --signature '*fp32,*fp32,*fp32,32' --emit cpu | %FileCheck %s
# A load read by two stores: the first store may overwrite what the load
# read (q may be p), so the load becomes a tile before it, and both stores
# read the tile; the second store's address check has no fused load left.
# CHECK: float *const v6 = (float *)(mt_frame + 0);
# CHECK: for (int mt_i0 = 0; mt_i0 < 32; mt_i0++) {
# CHECK-NEXT: v6[mt_i0] = *((v1 + (mt_i0)));
# CHECK-NEXT: }
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 32; mt_i0++) {
# CHECK-NEXT: *((v2 + (mt_i0))) = ((v6[mt_i0] * 3.0f));
# CHECK-NEXT: }
# CHECK-NOT: uintptr_t
# CHECK: for (int mt_i0 = 0; mt_i0 < 32; mt_i0++) {
# CHECK-NEXT: *((v3 + (mt_i0))) = ((v6[mt_i0] + 1.0f));
import triton
import triton.language as tl


@triton.jit
def store_between(p, q, r, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(p + offs)
    tl.store(q + offs, x * 3.0)
    tl.store(r + offs, x + 1.0)
