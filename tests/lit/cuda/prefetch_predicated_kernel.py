# RUN: %mytriton compile %s --kernel mm_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32:16,64,64,32' --arch sm_90 --num-warps 4 --num-stages 3 --emit cuda | %FileCheck %s
# RUN: %mytriton compile %s --kernel mm_kernel --signature '*fp16:16,*fp16:16,*fp16:16,i32,64,64,32' --arch sm_90 --num-warps 4 --num-stages 3 --emit cuda | %FileCheck %s --check-prefix=RAGGED
# The pipelined K loop's prefetch of tile t + 2, with both tiles written by
# cp.async alone (K a multiple of 16: one mask a 16-byte group), is issued
# by every thread every iteration, as Triton issues it: past the last tile
# the copies are predicated off (src-size 0 reads nothing and zero-fills a
# stage no one reads), not branched around, so that ptxas may schedule the
# prefetch's address arithmetic among the dot's instructions.  The loop
# then drains those copies.
# CHECK: const bool mt_more = mt_t + 2u < mt_trips;
# CHECK-NOT: if (mt_more)
# CHECK: mt_cp_async16(&dot_lhs_h[mt_s], mt_sa_lhs + (unsigned)mt_s * 2u, {{.*}}, mt_more && v{{[0-9]+}}[{{.*}}]);
# CHECK: mt_cp_async16(&dot_rhs_h[mt_s], mt_sa_rhs + (unsigned)mt_s * 2u, {{.*}}, mt_more && v{{[0-9]+}}[{{.*}}]);
# CHECK-NOT: if (mt_more)
# CHECK: mt_cp_async_commit();
# CHECK: }
# CHECK-NEXT: mt_cp_async_wait_group(0);
# Without the hint on K a group may be cut by the mask and take the
# element-wise path, which is no copy: the prefetch stays behind the branch.
# RAGGED: if (mt_more) {
import mytriton as triton
import mytriton.language as tl


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc.to(tl.float16))
