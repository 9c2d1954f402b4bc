# RUN: %mytriton compile %s --kernel dot_fp8_wgmma_kernel --signature '*fp8e4nv:16,*fp8e5:16,*fp32:16,i32:16,128,128,64' --arch sm_90 --num-warps 4 --num-stages 3 --emit cuda | %FileCheck %s
# fp8 tl.dot on Hopper's wgmma: the operands stay fp8 (dot_lhs_q,
# dot_rhs_q, byte tiles), both K-major in 64-byte swizzle atoms; B given
# K-major (b.T, stride 1 along K) is loaded by rows of the transposed
# block straight into its [BN][BK] tile by cp.async; per 32 bytes of K
# one wgmma m64n128k32 .e4m3.e5m2 per m64 block, B's descriptor K-major
# like A's, each an add of 16-byte units to the step's first descriptor; elsewhere the same tiles through FMAs on the fp8 values.
# CHECK: unsigned char *const dot_lhs_q = (unsigned char *)dot_lhs;
# CHECK-NEXT: unsigned char *const dot_rhs_q = (unsigned char *)dot_rhs;
# CHECK: mt_cp_async16(&dot_lhs_q[mt_s]
# CHECK: mt_cp_async16(&dot_rhs_q[mt_s]
# CHECK: const unsigned long long mt_da0 = mt_wgmma_desc(mt_sa_lhs + (unsigned)(dot_stage * 8192 + mt_wg * 8192) * 1, 16, 512, 2);
# CHECK-NEXT: const unsigned long long mt_db0 = mt_wgmma_desc(mt_sa_rhs + (unsigned)(dot_stage * 8192 + 0) * 1, 16, 512, 2);
# CHECK: for (int mt_kk = 0; mt_kk < 64; mt_kk += 32) {
# CHECK: const unsigned long long mt_da = mt_da0 + (unsigned)(((mt_kk / 64) * 8192 + 64 * mt_b * 64 + mt_kk % 64) * 1 / 16);
# CHECK-NEXT: const unsigned long long mt_db = mt_db0 + (unsigned)(((mt_kk / 64) * 8192 + mt_kk % 64) / 16);
# CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2 {
# CHECK-SAME: }, %64, %65, p, 1, 1;}"
# CHECK: #else
# CHECK: += mt_f8e4nv_to_f32(dot_lhs_q[{{.*}}]) * mt_f8e5_to_f32(dot_rhs_q[
import mytriton as triton
import mytriton.language as tl


@triton.jit
def dot_fp8_wgmma_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] + rn[None, :] * K
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)
