# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,i32,i32,i32,64,64,32,"ieee"' --emit cpu | %FileCheck %s
# RUN: %mytriton compile %s --kernel matmul_kernel --signature '*fp32,*fp32,*fp32,i32,i32,i32,64,64,32,'\''tf32'\''' --emit cpu | %FileCheck %s --check-prefix=TF32
# A K loop of acc = tl.dot(a, b, acc): the accumulator is the loop's
# carried tile, which the dot updates in place (nothing else reads it), so
# the loop copies nothing; the product is mt_cpu_dot_f32's micro-kernel on
# the two loaded tiles.  With tf32 operands each is rounded into a copy.
# CHECK: float *const v22 = (float *)(mt_frame + 0);
# CHECK: v22[mt_i0 * 64 + mt_i1] = (0.0f);
# CHECK: for (unsigned mt_k1 = 0; mt_k1 < mt_trip0; ++mt_k1) {
# CHECK: v29[mt_i0 * 32 + mt_i1] = *(
# CHECK: v36[mt_i0 * 64 + mt_i1] = *(
# CHECK: mt_cpu_dot_f32(64, 64, 32, v29, 32, v36, 64, v22, 64);
# CHECK-NEXT: }
# CHECK: = v22[mt_i0 * 64 + mt_i1];
# TF32: mt_dot{{[0-9]+}}[mt_i0 * 32 + mt_i1] = mt_tf32(v29[mt_i0 * 32 + mt_i1]);
# TF32: mt_cpu_dot_f32(64, 64, 32, mt_dot{{[0-9]+}}, 32, mt_dot{{[0-9]+}}, 64, v22, 64);
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr, PREC: tl.constexpr = "ieee"):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)
