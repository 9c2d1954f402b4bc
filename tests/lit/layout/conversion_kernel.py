# RUN: %mytriton compile %s --kernel outer_kernel --signature '*fp32,*fp32,32' --emit ssa-layout | %FileCheck %s
# --emit ssa-layout of an outer product: v is loaded as a row slice of the
# product's layout; read as a column slice it needs a trip through shared
# memory (an explicit convert_layout, the one scratch buffer), while the
# arange o is recomputed in place.
# CHECK: %[[O:[0-9]+]] = arange {start=0, end=32} : vector<32 x i32>
# CHECK: %[[V:[0-9]+]] = load
# CHECK: %[[RC:[0-9]+]] = convert_layout %[[O]] {via=recompute} : vector<32 x i32>
# CHECK-NEXT: expand_dims %[[RC]] {axis=0} : block<1x32 x i32>
# CHECK: %[[CV:[0-9]+]] = convert_layout %[[V]] {via=shared} : vector<32 x f32>
# CHECK-NEXT: expand_dims %[[CV]] {axis=0} : block<1x32 x f32>
# CHECK: layouts:
# CHECK-NEXT: #0 blocked shape=[32, 32] spt=[1, 4] tpw=[4, 8] wpc=[4, 1] order=[1, 0]
# CHECK-NEXT: #1 blocked shape=[32, 32] spt=[1, 4] tpw=[4, 8] wpc=[4, 1] order=[1, 0] slice=1
# CHECK-NEXT: #2 blocked shape=[32, 32] spt=[1, 4] tpw=[4, 8] wpc=[4, 1] order=[1, 0] slice=0
# CHECK: values:
# CHECK: %[[RC]]: #2 axis contig=32 div=inf const=1
# CHECK: %[[CV]]: #2
# CHECK: dots:
# CHECK-NEXT: shared 128 bytes (budget 49152)
# CHECK-NEXT: mt_smem +0: convert_layout [1 x 32] f32 = 128 bytes
# CHECK-NOT: mt_smem
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def outer_kernel(X, OUT, BLOCK: tl.constexpr):
    o = tl.arange(0, BLOCK)
    v = tl.load(X + o)
    tl.store(OUT + o[:, None] * BLOCK + o[None, :], v[:, None] * v[None, :])
