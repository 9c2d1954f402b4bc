# RUN: %mytriton compile %s --kernel softmax_kernel --signature '*fp32,*fp32,i32,i32,1024' --emit cpu | %FileCheck %s
# A row softmax: the row's load is a tile (read by a reduction), with an
# unmasked loop for a row wholly in bounds; each reduction along the
# contiguous dim keeps 64 partials in lanes (four vectors, vectorisable
# without reassociating), combined pairwise; the subtraction is fused into
# the exp's loop; the division into the masked store.
# CHECK: float *const v12 = (float *)(mt_frame + 0);
# CHECK-NEXT: float *const v15 = (float *)(mt_frame + 4096);
# CHECK: if (((0) <= (1023) && (1023) < v4)) {
# CHECK-NEXT: for (int mt_i0 = 0; mt_i0 < 1024; mt_i0++) {
# CHECK-NEXT: v12[mt_i0] = *((v9 + (mt_i0)));
# CHECK: v12[mt_i0] = (((mt_i0) < v4)) ? *((v9 + (mt_i0))) : (-__int_as_float(0x7f800000));
# CHECK: float v13;
# CHECK: float mt_acc[64];
# CHECK-NEXT: for (int mt_l = 0; mt_l < 64; mt_l++) mt_acc[mt_l] = __int_as_float(0x7fc00000);
# CHECK-NEXT: for (int mt_k = 0; mt_k < 1024; mt_k += 64)
# CHECK-NEXT: for (int mt_l = 0; mt_l < 64; mt_l++)
# CHECK-NEXT: mt_acc[mt_l] = mt_fmaxnumf(mt_acc[mt_l], v12[(mt_k + mt_l)]);
# CHECK-NEXT: for (int mt_l = 0; mt_l < 32; mt_l++) mt_acc[mt_l] = mt_fmaxnumf(mt_acc[mt_l], mt_acc[mt_l + 32]);
# CHECK: for (int mt_l = 0; mt_l < 1; mt_l++) mt_acc[mt_l] = mt_fmaxnumf(mt_acc[mt_l], mt_acc[mt_l + 1]);
# CHECK-NEXT: v13 = mt_acc[0];
# CHECK: v15[mt_i0] = mt_expf(((v12[mt_i0] - v13)));
# CHECK: mt_acc[mt_l] = mt_acc[mt_l] + v15[(mt_k + mt_l)];
# CHECK: v19 = mt_acc[0];
# CHECK: if ((((mt_i0) < v4))) *((v17 + (mt_i0))) = (mt_divf(v15[mt_i0], v19));
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=mask)
