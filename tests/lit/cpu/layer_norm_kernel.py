# RUN: %mytriton compile %s --kernel layer_norm_fwd --signature '*fp32,*fp32,*fp32,*fp32,*fp32,*fp32,i32,i32,fp32,1024' --emit cpu | %FileCheck %s
# Triton's tutorial 05 (layer-norm forward): each load is read in its
# reader's loop, no tile of its own.  The running sums update their carried
# tiles in place (no copy back per iteration) with the load fused in, a
# block wholly in bounds without the mask (the where on the same mask
# folded too); the normalising pass's three loads are fused into the store,
# checked at run time against the stored bytes (Y may be X: starting at or
# after the store's first byte passes), with tiles the fallback.
# CHECK: char *mt_frame = (char *)mt_self->ops->scratch(mt_self->worker, 12288ull);
# CHECK: float *const v20 = (float *)(mt_frame + 0);
# CHECK-NEXT: float *const v34 = (float *)(mt_frame + 4096);
# CHECK-NEXT: float *const v67 = (float *)(mt_frame + 8192);
# CHECK: for (unsigned mt_k1 = 0; mt_k1 < mt_trip0; ++mt_k1) {
# CHECK: if (((((int)(((unsigned)v18) + ((unsigned)(0))))) <= (((int)(((unsigned)v18) + ((unsigned)(1023))))) && (((int)(((unsigned)v18) + ((unsigned)(1023))))) < v8)) {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v20[mt_i0] = (v20[mt_i0] + (*((v14 + (((long long)v18 + (long long)(mt_i0)))))));
# CHECK-NEXT: }
# CHECK-NEXT: } else {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v20[mt_i0] = (v20[mt_i0] + ((((((int)(((unsigned)v18) + ((unsigned)(mt_i0))))) < v8)) ? *((v14 + (((long long)v18 + (long long)(mt_i0))))) : 0.0f));
# CHECK-NEXT: }
# CHECK-NEXT: }
# CHECK-NEXT: }
# CHECK: for (unsigned mt_k3 = 0; mt_k3 < mt_trip2; ++mt_k3) {
# CHECK: if ({{.*}} < v8)) {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v34[mt_i0] = (v34[mt_i0] + ((((((*((v14 + (((long long)v32 + (long long)(mt_i0)))))) - v30))) * ((((*((v14 + (((long long)v32 + (long long)(mt_i0)))))) - v30))))));
# CHECK-NEXT: }
# CHECK-NEXT: } else {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v34[mt_i0] = (v34[mt_i0] + {{.*}} ? *((v14 + (((long long)v32 + (long long)(mt_i0))))) : 0.0f) - v30)) : 0.0f)) * {{.*}}
# CHECK: for (unsigned mt_k5 = 0; mt_k5 < mt_trip4; ++mt_k5) {
# CHECK: if (((uintptr_t)(((v14 + (((long long)v54 + (long long)(1023))))) + 1) <= (uintptr_t)(((v12 + (((long long)v54 + (long long)(0)))))) || (uintptr_t)(((v14 + (((long long)v54 + (long long)(0)))))) >= (uintptr_t)(((v12 + (((long long)v54 + (long long)(0))))))) && ((uintptr_t)(((v3 + {{.*}} && ((uintptr_t)(((v4 + {{.*}} < v8)) {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: *((v12 + (((long long)v54 + (long long)(mt_i0))))) = (((((((((*((v14 + (((long long)v54 + (long long)(mt_i0)))))) - v30)) * v51)) * (*((v3 + (((long long)v54 + (long long)(mt_i0)))))))) + (*((v4 + (((long long)v54 + (long long)(mt_i0))))))));
# CHECK-NEXT: }
# CHECK-NEXT: } else {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v67[mt_i0] = {{.*}} ? *((v14 + {{.*}}
# CHECK-NEXT: }
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: if ({{.*}} < v8))) *((v12 + (((long long)v54 + (long long)(mt_i0))))) = v67[mt_i0];
import triton
import triton.language as tl


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    # Triton's tutorial 05, forward
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)
