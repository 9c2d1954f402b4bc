# RUN: %mytriton compile %s --kernel smem_one_array_kernel --signature '*fp16,*fp16,*fp16' --arch sm_90 --num-warps 8 --emit cuda | %FileCheck %s
# The epilogue's conversion scratch (128 x 128 f16, 34816 bytes) lies over
# the dead dot tiles (18944 bytes): the plan needs 34816 bytes, within the
# static budget, but three separate arrays would need 53760, past it
# (ptxas: "too much shared data").  So the arrays are one static array
# and pointers into it at the planned offsets.
# CHECK-NOT: float dot_lhs[
# CHECK: __shared__ __align__(16) long long mt_smem_pool[4352];
# CHECK-NEXT: long long *const mt_smem = mt_smem_pool;
# CHECK-NEXT: float *const dot_lhs = (float *)((char *)mt_smem_pool + 0);
# CHECK-NEXT: float *const dot_rhs = (float *)((char *)mt_smem_pool + 10240);
import mytriton as triton
import mytriton.language as tl


@triton.jit
def smem_one_array_kernel(a_ptr, b_ptr, c_ptr):
    rm = tl.arange(0, 128)
    rk = tl.arange(0, 32)
    a = tl.load(a_ptr + rm[:, None] * 32 + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * 128 + rm[None, :])
    c = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + rm[:, None] * 128 + rm[None, :], c)
