# tl.gather through the shared scratch (cuda_shape.c): src's owners store
# it, a barrier, each slot reads at its index (held where the result is),
# wrapped into the dim so no read leaves the scratch; the MLIR backend
# refuses it with a located error.
# RUN: %mytriton compile %s --kernel k --signature '*fp32,*i32,*fp32,4,8' --emit cuda | %FileCheck %s
# RUN: %not %mytriton compile %s --kernel k --signature '*fp32,*i32,*fp32,4,8' --emit mlir 2>&1 | %FileCheck %s --check-prefix=MLIR
import mytriton as triton
import mytriton.language as tl


@triton.jit
def k(src_ptr, idx_ptr, out_ptr, N: tl.constexpr, M: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, N)[:, None] * 4 + tl.arange(0, 4)[None, :])
    idx = tl.load(idx_ptr + tl.arange(0, M)[:, None] * 4 + tl.arange(0, 4)[None, :])
    out = tl.gather(src, idx, 0)
    tl.store(out_ptr + tl.arange(0, M)[:, None] * 4 + tl.arange(0, 4)[None, :], out)
# CHECK: ((float*)mt_smem)[(mt_b0_0 & 3) * 4 + (mt_b0_1 & 3)] = v{{[0-9]+}}[mt_e];
# CHECK-NEXT: __syncthreads();
# CHECK: = ((float*)mt_smem)[(int)(v[[IDX:[0-9]+]][mt_e] & 3) * 4 + (mt_b0_1 & 3)];
# CHECK-NEXT: __syncthreads();
# MLIR: gather.py:15:11: error: MLIR backend does not run tl.gather
