# RUN: %mytriton compile %s --kernel transpose_kernel --signature '*fp32,*fp32,i32,i32,64,64' --emit cpu | %FileCheck %s
# A tiled transpose: the load runs row-major (its pointer steps by one
# element along dim 1), the store with dim 0 innermost, the dim its
# pointer steps through memory contiguously along.
# CHECK: for (int mt_i0 = 0; mt_i0 < 64; mt_i0++) {
# CHECK-NEXT: for (int mt_i1 = 0; mt_i1 < 64; mt_i1++) {
# CHECK-NEXT: v24[mt_i0 * 64 + mt_i1] =
# CHECK: for (int mt_i1 = 0; mt_i1 < 64; mt_i1++) {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 64; mt_i0++) {
# CHECK-NEXT: if ({{.*}} = v24[mt_i0 * 64 + mt_i1];
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :], mask=mask)
    tl.store(out_ptr + rn[None, :] * M + rm[:, None], x, mask=mask)
