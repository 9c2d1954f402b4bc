# RUN: %mytriton compile %s --kernel f16_out_kernel --signature '*fp16:16,*fp16:16,*fp16:16,64' --arch sm_90 --num-warps 4 --emit cuda | %FileCheck %s
# A f16 dot result converted to the store's layout through shared memory:
# each pair of halves is written as one word built by shifts and ORs, the
# form the f32x2 -> f16x2 conversion's word folds back into, where a
# byte-array cast cost a shift and a byte permute a pair (64 PRMT in the
# 128 x 256 wgmma epilogue).  The read side is one vector load.
# CHECK: const unsigned mt_p = mt_f32x2_to_f16x2(mt_pr[0], mt_pr[1]);
# CHECK: *(unsigned *)&((unsigned short*)mt_smem)[{{.*}}] = ((unsigned)(unsigned short)v{{[0-9]+}}[mt_e + 0] | (unsigned)(unsigned short)v{{[0-9]+}}[mt_e + 1] << 16);
# CHECK-NOT: __align__(16) unsigned short mt_run[2] =
# CHECK: __syncthreads();
# CHECK: *(uint4 *)mt_run = *(const uint4 *)&((unsigned short*)mt_smem)
import mytriton as triton
import mytriton.language as tl


@triton.jit
def f16_out_kernel(a_ptr, b_ptr, c_ptr, B: tl.constexpr):
    r = tl.arange(0, B)
    a = tl.load(a_ptr + r[:, None] * B + r[None, :])
    b = tl.load(b_ptr + r[:, None] * B + r[None, :])
    c = tl.dot(a, b).to(tl.float16)
    tl.store(c_ptr + r[:, None] * B + r[None, :], c)
