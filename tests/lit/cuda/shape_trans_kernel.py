# RUN: %mytriton compile %s --kernel trans_kernel --signature '*fp32,*fp32,16,64' --emit cuda | %FileCheck %s
# The CUDA C of x.T (a shape op): the loaded [16, 64] block's owners store
# it row-major into the scratch, a barrier, each thread reads the slots of
# the [64, 16] result's own layout from the transposed index, a barrier.
# CHECK: __shared__ __align__(16) long long mt_smem[512];
# CHECK: float v[[V:[0-9]+]][8];
# CHECK: v[[V]][mt_e] = (*v{{[0-9]+}}[(mt_e / 4) * 4 + (mt_e % 4)]);
# CHECK: ((float*)mt_smem)[(mt_b0_0 + (mt_e / 4) * 8) * 64 + (mt_b0_1 + (mt_e % 4))] = v[[V]][mt_e];
# CHECK-NEXT: __syncthreads();
# CHECK-NEXT: float v[[T:[0-9]+]][8];
# CHECK-NEXT: #pragma unroll
# CHECK-NEXT: for (int mt_e = 0; mt_e < 8; ++mt_e)
# CHECK-NEXT: v[[T]][mt_e] = ((float*)mt_smem)[(mt_b1_1 + (mt_e % 4)) * 64 + (mt_b1_0 + (mt_e / 4) * 32)];
# CHECK-NEXT: __syncthreads();
# CHECK: *v{{[0-9]+}}[mt_e] = v[[T]][(mt_e / 4) * 4 + (mt_e % 4)];
import mytriton as triton
import mytriton.language as tl


@triton.jit
def trans_kernel(X, OUT, R: tl.constexpr, C: tl.constexpr):
    v = tl.load(X + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(OUT + tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :], v.T)
