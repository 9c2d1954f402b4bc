# RUN: %mytriton compile %s --kernel shape_ops_kernel --signature '*fp32,*fp32,*fp32,8,32' --emit ssa-layout | %FileCheck %s
# RUN: %mytriton compile %s --kernel shape_ops_kernel --signature '*fp32,*fp32,*fp32,8,32' --emit ssa-layout | %FileCheck %s --check-prefix=NOSHARED
# NOSHARED-COUNT-1: via=shared
# NOSHARED-NOT: via=shared
# --emit ssa-layout of the shape ops: each result has a layout of its own,
# the operands are read where they are (no convert_layout before a shape
# op), and each op that moves data has one scratch buffer of its operands'
# total size.  The transpose is held in its operand's layout with the dims
# swapped (order [0, 1]: no data moves); its store's offsets have a
# [32, 8] row layout, so the one conversion through shared memory is the
# store's (rows padded by one word).
# CHECK: %[[V:[0-9]+]] = load %{{[0-9]+}}, none, none : block<8x32 x f32>
# CHECK-NEXT: %[[T:[0-9]+]] = trans %[[V]] : block<32x8 x f32>
# CHECK: %[[C:[0-9]+]] = convert_layout %[[T]] {via=shared} : block<32x8 x f32>
# CHECK-NEXT: store %{{[0-9]+}}, %[[C]], none
# CHECK: %[[Y:[0-9]+]] = load %{{[0-9]+}}, none, none : vector<32 x f32>
# CHECK-NEXT: %[[Y2:[0-9]+]] = mul %[[Y]], 2.0 : vector<32 x f32>
# CHECK-NEXT: %[[J:[0-9]+]] = join %[[Y]], %[[Y2]] : block<32x2 x f32>
# CHECK-NEXT: %[[LO:[0-9]+]] = split %[[J]] {index=0} : vector<32 x f32>
# CHECK-NEXT: %[[HI:[0-9]+]] = split %[[J]] {index=1} : vector<32 x f32>
# CHECK: %[[S:[0-9]+]] = add %[[LO]], %[[HI]] : vector<32 x f32>
# CHECK-NEXT: %[[F:[0-9]+]] = flip %[[S]] {axis=0} : vector<32 x f32>
# CHECK: layouts:
# CHECK-NEXT: #0 blocked shape=[8, 32] spt=[1, 2] tpw=[2, 16] wpc=[4, 1] order=[1, 0]
# CHECK-NEXT: #1 blocked shape=[32, 8] spt=[2, 1] tpw=[16, 2] wpc=[1, 4] order=[0, 1]
# CHECK-NEXT: #2 blocked shape=[32, 8] spt=[1, 2] tpw=[8, 4] wpc=[4, 1] order=[1, 0]
# CHECK-NEXT: #3 blocked shape=[32, 2] spt=[1, 1] tpw=[16, 2] wpc=[2, 2] order=[1, 0]
# CHECK: #6 blocked shape=[32] spt=[1] tpw=[32] wpc=[4] order=[0]
# CHECK: values:
# CHECK: %[[V]]: #0
# CHECK-NEXT: %[[T]]: #1
# CHECK: %[[C]]: #2
# CHECK: %[[J]]: #3
# CHECK-NEXT: %[[LO]]: #6
# CHECK-NEXT: %[[HI]]: #6
# CHECK: shared 1152 bytes (budget 49152)
# CHECK-NEXT: mt_smem +0: convert_layout [32 x 8] f32 pad 1 = 1152 bytes
# CHECK-NEXT: mt_smem +0: join [1 x 64] f32 = 256 bytes
# CHECK-NEXT: mt_smem +0: split [1 x 64] f32 = 256 bytes
# CHECK-NEXT: mt_smem +0: split [1 x 64] f32 = 256 bytes
# CHECK-NEXT: mt_smem +0: flip [1 x 32] f32 = 128 bytes
import mytriton as triton
import mytriton.language as tl


@triton.jit
def shape_ops_kernel(X, Y, OUT, R: tl.constexpr, C: tl.constexpr):
    rows = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    v = tl.load(X + rows)
    t = tl.trans(v)
    cols = tl.arange(0, C)[:, None] * R + tl.arange(0, R)[None, :]
    tl.store(OUT + cols, t)
    y = tl.load(Y + tl.arange(0, C))
    lo, hi = tl.split(tl.join(y, y * 2))
    tl.store(OUT + tl.arange(0, C), tl.flip(lo + hi, 0))
