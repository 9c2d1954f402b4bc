# RUN: %mytriton compile %s --kernel row_kernel --signature '*fp32:16,*fp32:16,i32:16,i32:16,4096' --num-warps 8 --emit cuda | %FileCheck %s
# RUN: %mytriton compile %s --kernel row_kernel --signature '*fp32:16,*fp32:16,i32:16,i32,4096' --num-warps 8 --emit cuda | %FileCheck %s --check-prefix=RAGGED
# RUN: %mytriton compile %s --kernel tile_kernel --signature '*fp16:16,*fp16:16,i32,i32:16,32,64' --emit cuda | %FileCheck %s --check-prefix=TILE
# `cols < n` with n a multiple of 16 is one value over each group of 4
# consecutive columns (axis.c gives the comparison constancy 16), as
# Triton's vector accesses take one predicate: the group tests its first
# element only, and no per-element fallback is left.  A load is Triton's
# predicated one (mt_ld_pred: zeros where the group is off, no branch), a
# group that is off then takes the load's `other`; a store is Triton's
# predicated one too (mt_st_pred: a group that is off stores nothing).
# The mask itself is computed once a group too (constant_run):
# CHECK: for (int mt_g = 0; mt_g < 16; mt_g += 4) {
# CHECK-NEXT: const int mt_e = mt_g;
# CHECK-NEXT: v[[MASK:[0-9]+]][mt_g] = (v{{[0-9]+}}[mt_e] < n_cols);
# CHECK-NEXT: #pragma unroll
# CHECK-NEXT: for (int mt_k = 1; mt_k < 4; ++mt_k)
# CHECK-NEXT: v[[MASK]][mt_g + mt_k] = v[[MASK]][mt_g];
# CHECK: for (int mt_g = 0; mt_g < 16; mt_g += 4) {
# CHECK-NEXT: const int mt_e = mt_g;
# CHECK-NEXT: float4 mt_q = mt_ld_pred((const float4*)(v{{[0-9]+}}[mt_e]), v[[MASK]][mt_e]);
# CHECK: if (!(v[[MASK]][mt_e])) {
# CHECK-NEXT: #pragma unroll
# CHECK-NEXT: for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
# CHECK-NEXT: v{{[0-9]+}}[mt_e] = (-__int_as_float(0x7f800000));
# CHECK-NEXT: }
# CHECK-NOT: mt_all
# CHECK: mt_st_pred((float4*)(v{{[0-9]+}}[mt_e]), make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]), v[[MASK]][mt_e]);
# CHECK-NEXT: }
# CHECK-NEXT: }
# CHECK-NOT: else
# CHECK: }
# Without the hint on n a group may be partly masked: every element's mask
# is tested and a partial group takes the per-element path.
# RAGGED: v[[MASK:[0-9]+]][mt_e] = (v{{[0-9]+}}[mt_e] < n_cols);
# RAGGED: mt_all = mt_all && v[[MASK]][mt_e];
# RAGGED: } else {
# RAGGED: mt_h = v{{[0-9]+}}[mt_e];
# RAGGED: = (v[[MASK]][mt_e] ? (*(mt_h + (mt_e - mt_g))) : (-__int_as_float(0x7f800000)));
# RAGGED: if (v[[MASK]][mt_e]) *(mt_h + (mt_e - mt_g)) = v{{[0-9]+}}[mt_e];
# A 2-D mask: the row test is constant along the last dim, and `&` keeps
# the columns' constancy 16 (fp16: groups of 8 halves, 16 bytes).
# TILE: for (int mt_g = 0; mt_g < 16; mt_g += 8) {
# TILE-NEXT: const int mt_e = mt_g;
# TILE-NEXT: v[[TMASK:[0-9]+]][mt_g] = (v{{[0-9]+}}[(mt_e / 8)] & v{{[0-9]+}}[(mt_e % 8)]);
# TILE: for (int mt_g = 0; mt_g < 16; mt_g += 8) {
# TILE-NEXT: const int mt_e = mt_g;
# TILE-NEXT: uint4 mt_q = mt_ld_pred((const uint4*)(v{{[0-9]+}}[(mt_e / 8) * 8 + (mt_e % 8)]), v{{[0-9]+}}[(mt_e / 8) * 8 + (mt_e % 8)]);
# TILE-NOT: if (!(
# TILE: v{{[0-9]+}}[mt_g + 7] = (unsigned short)(mt_q.w >> 16);
# TILE-NEXT: }
# TILE-NOT: } else {
import mytriton as triton
import mytriton.language as tl


@triton.jit
def row_kernel(out, x, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=mask, other=-float('inf'))
    tl.store(out + row * stride + cols, v * 2.0, mask=mask)


@triton.jit
def tile_kernel(out, x, m, n, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    v = tl.load(x + offs, mask=mask, other=0.0)
    tl.store(out + offs, v + 1.0, mask=mask)
