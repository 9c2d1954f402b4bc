# RUN: %mytriton compile %s --kernel permute4_kernel --signature '*i32:16,*i32:16' --num-warps 8 --emit cuda | %FileCheck %s
# A rank-4 permute is a chain of rank-3 reshapes and transposes no layout
# holds (cuda_shape.c): the gather composes their index maps.  Each map
# reads its input's flat index once per dim, so the composition binds every
# step to a local of the element loop instead of substituting its text,
# which grew the index exponentially (14 MB of C for this kernel, minutes
# of compile time).
# CHECK: __syncthreads();
# CHECK: for (int mt_e = 0; mt_e < 8; ++mt_e)
# CHECK-NEXT: { int [[F0:mt_f[0-9]+]] = mt_b1_0 * 1024 + (mt_b1_1 + (mt_e / 4) * 512 + mt_e % 4); int {{mt_f[0-9]+}} = (([[F0]] / 1024 * 8 + ([[F0]] / 128) % 8) * 2 + ([[F0]] / 64) % 2) * 64 + [[F0]] % 64;
# CHECK-SAME: int [[F9:mt_f[0-9]+]] = ({{mt_f[0-9]+}} / 512 * 8 + ({{mt_f[0-9]+}} / 64) % 8) * 64 + {{mt_f[0-9]+}} % 64; v{{[0-9]+}}[mt_e] = ((int*)mt_smem)[(([[F9]] / 1024 * 2 + ([[F9]] / 512) % 2) * 8 + ([[F9]] / 64) % 8) * 64 + [[F9]] % 64]; }
# CHECK: __syncthreads();
import mytriton as triton
import mytriton.language as tl


@triton.jit
def permute4_kernel(In, Out):
    offs = tl.arange(0, 2048)
    v = tl.load(In + offs).reshape(2, 2, 8, 64).permute((2, 1, 3, 0))
    tl.store(Out + offs, v.reshape(2048))
