# RUN: %mytriton compile %s --kernel trans_kernel --signature '*fp32,*fp32,16,64' --emit cuda | %FileCheck %s
# The CUDA C of x.T (a shape op): the result is held in the loaded [16, 64]
# block's layout with its dims swapped, so the trans copies registers;
# where the store needs the [64, 16] result in its own layout, one
# conversion: every thread writes its elements down the columns of a
# scratch whose rows are 17 words apart (distinct banks), a barrier, each
# thread reads the store's slots, a barrier.
# CHECK: __shared__ __align__(16) long long mt_smem[544];
# CHECK: float v[[V:[0-9]+]][8];
# CHECK: v[[V]][mt_e] = (*v{{[0-9]+}}[(mt_e / 4) * 4 + (mt_e % 4)]);
# CHECK: float v[[T:[0-9]+]][8];
# CHECK-NEXT: v[[T]][0] = v[[V]][0];
# CHECK-NEXT: v[[T]][1] = v[[V]][4];
# CHECK: ((float*)mt_smem)[(mt_b2_0 + (mt_e / 2)) * 17 + (mt_b2_1 + (mt_e % 2) * 8)] = v[[T]][mt_e];
# CHECK: __syncthreads();
# CHECK-NEXT: float mt_cv[[C:[0-9]+]][8];
# CHECK: mt_cv[[C]][mt_e] = ((float*)mt_smem)[(mt_b1_0 + (mt_e / 4) * 32) * 17 + (mt_b1_1 + (mt_e % 4))];
# CHECK: __syncthreads();
# CHECK: *v{{[0-9]+}}[mt_e] = mt_cv[[C]][(mt_e / 4) * 4 + (mt_e % 4)];
import mytriton as triton
import mytriton.language as tl


@triton.jit
def trans_kernel(X, OUT, R: tl.constexpr, C: tl.constexpr):
    v = tl.load(X + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :])
    tl.store(OUT + tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :], v.T)
