# RUN: %mytriton compile %s --kernel dot_f16_acc_kernel --signature '*fp16,*fp16,*fp16,64' --arch sm_90 --emit ssa-opt | %FileCheck --check-prefix=SSA %s
# RUN: %mytriton compile %s --kernel dot_f16_acc_kernel --signature '*fp16,*fp16,*fp16,64' --arch sm_90 --emit cuda | %FileCheck --check-prefix=CUDA %s
# out_dtype=float16 of f16 operands: the dot accumulates in f16 (an f16
# zeros accumulator, an f16 result, no cast), through mma.sync's f16
# accumulator on tensor cores (never wgmma, even on sm_90) and, in the
# FMA form, in f32 rounded into the f16 slots once.
import mytriton as triton
import mytriton.language as tl


@triton.jit
def dot_f16_acc_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    tl.store(c_ptr + r[:, None] * B + r[None, :], tl.dot(a, b, out_dtype=tl.float16))
# SSA: [[ACC:%[0-9]+]] = zeros {shape=(64, 64), dtype=f16} : block<64x64 x f16>
# SSA-NEXT: [[DOT:%[0-9]+]] = dot %{{[0-9]+}}, %{{[0-9]+}}, [[ACC]] {input_precision=ieee} : block<64x64 x f16>
# SSA-NOT: cast
# SSA: store %{{[0-9]+}}, [[DOT]], none
# CUDA-NOT: wgmma.mma_async
# CUDA: mt_mma_f16_f16acc(&v{{[0-9]+}}[2 * mt_i * 8 + 2 * mt_j]
# CUDA: mt_w[mt_e] = mt_f16_to_f32(v{{[0-9]+}}[mt_e]);
# CUDA: v{{[0-9]+}}[mt_e] = mt_f32_to_f16(mt_w[mt_e]);
