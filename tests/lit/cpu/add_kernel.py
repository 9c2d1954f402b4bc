# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,1024' --emit cpu | %FileCheck %s
# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,1024' --backend cpu --emit cpu | %FileCheck %s
# The cpu backend's C of a masked add: one function per program, the index
# arithmetic (offsets, mask) fused into every loop as text, the address's
# offset exact in long long (contiguous, so the C compiler vectorises), the
# mask's compare as the wrapping i32 the GPU computes.  Both loads are
# fused into the store's loop where the loaded bytes lie wholly before or
# after the stored ones (or start at or after them) and the whole block is
# in bounds (the offsets' first and last element, not wrapping): there no
# element reads or writes under the mask.  Otherwise they are read into a
# tile first (in the scratch frame), the add computed there, then stored.
# CHECK: static void mt_cpu_kernel(mt_host_thread *mt_self, float * v1, float * v2, float * v3, int v4) {
# CHECK-NEXT: char *mt_frame = (char *)mt_self->ops->scratch(mt_self->worker, 4096ull);
# CHECK: float *const v18 = (float *)(mt_frame + 0);
# CHECK: int v5 = (int)mt_self->block_idx.x;
# CHECK: int v7 = ((int)(((unsigned)v5) * ((unsigned)1024)));
# CHECK: if (((uintptr_t)(((v1 + (((long long)v7 + (long long)(1023))))) + 1) <= (uintptr_t)(((v3 + (((long long)v7 + (long long)(0)))))) || (uintptr_t)(((v1 + (((long long)v7 + (long long)(0)))))) >= (uintptr_t)(((v3 + (((long long)v7 + (long long)(0))))))) && ((uintptr_t)(((v2 + {{.*}} && ((((int)(((unsigned)v7) + ((unsigned)(0))))) <= (((int)(((unsigned)v7) + ((unsigned)(1023))))) && (((int)(((unsigned)v7) + ((unsigned)(1023))))) < v4)) {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: *((v3 + (((long long)v7 + (long long)(mt_i0))))) = (((*((v1 + (((long long)v7 + (long long)(mt_i0)))))) + (((*((v2 + (((long long)v7 + (long long)(mt_i0)))))) * 2.0f))));
# CHECK-NEXT: }
# CHECK-NEXT: } else {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v18[mt_i0] = (((((((int)(((unsigned)v7) + ((unsigned)(mt_i0))))) < v4)) ? *((v1 + (((long long)v7 + (long long)(mt_i0))))) : 0.0f) + {{.*}}
# CHECK-NEXT: }
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: if ({{.*}} < v4))) *((v3 + (((long long)v7 + (long long)(mt_i0))))) = v18[mt_i0];
# CHECK-NEXT: }
# CHECK-NEXT: }
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y * 2.0, mask=mask)
