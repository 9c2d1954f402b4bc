# RUN: %mytriton compile %s --kernel dot_int8_kernel --signature '*i8,*i8,*i32,64' --arch sm_90 --emit cuda | %FileCheck %s
# An int8 tl.dot on tensor cores: int8 tiles (dot_lhs_b, dot_rhs_b), B
# written transposed ([BN][BK]: element (k, n) at row n), fragments by
# ldmatrix with 16-byte k steps, mma.sync m16n8k32 .satfinite on sm_80+;
# elsewhere the same tiles through integer FMAs modulo 2^32 (B read at
# (n, k)).
# CHECK: signed char *const dot_lhs_b = (signed char *)dot_lhs;
# CHECK-NEXT: signed char *const dot_rhs_b = (signed char *)dot_rhs;
# CHECK: dot_rhs_b[({{.*}}) * 80 + (
# CHECK: for (int mt_kk = 0; mt_kk < 64; mt_kk += 32) {
# CHECK: mt_ldsm4(&dot_lhs_b[{{.*}}(mt_kk + (mt_lane >> 4) * 16)], mt_ra[mt_i]);
# CHECK: mt_mma_s8(&v{{[0-9]+}}[2 * mt_i * 8 + 2 * mt_j]
# CHECK: #else
# CHECK: v{{[0-9]+}}[mt_e] = (int)((unsigned)v{{[0-9]+}}[mt_e] + (unsigned)(((int)dot_lhs_b[{{.*}}]) * ((int)dot_rhs_b[{{.*}} * 80 + dot_k])));
import mytriton as triton
import mytriton.language as tl


@triton.jit
def dot_int8_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b))
