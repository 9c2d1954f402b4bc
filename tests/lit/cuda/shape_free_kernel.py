# RUN: %mytriton compile %s --kernel free_kernel --signature '*fp32,*fp32,128' --emit ssa-layout | %FileCheck %s --check-prefix=LAYOUT
# RUN: %mytriton compile %s --kernel free_kernel --signature '*fp32,*fp32,128' --emit cuda | %FileCheck %s
# Shape ops that move no data (cuda_gather_free): every thread already
# holds what it needs.  The reshape of the loaded vector into [2, N/2] is
# the vector's own array (no code); join's [N, 2] result holds a[i] and
# b[i] in the thread that loaded both, so it is two register copies; split
# of that is register copies too.  No shared memory at all.
# LAYOUT: reshape
# LAYOUT: join
# LAYOUT: split
# LAYOUT: shared 0 bytes (budget 49152)
# LAYOUT-NOT: mt_smem
# CHECK-NOT: mt_smem
# CHECK: v[[J:[0-9]+]][0] = v[[A:[0-9]+]][0];
# CHECK-NEXT: v[[J]][1] = v[[B:[0-9]+]][0];
# CHECK: v[[LO:[0-9]+]][0] = v[[X:[0-9]+]][0];
# CHECK: v[[HI:[0-9]+]][0] = v[[X]][1];
# CHECK-NOT: {{^ *}}__syncthreads();{{$}}
import mytriton as triton
import mytriton.language as tl


@triton.jit
def free_kernel(X, OUT, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(X + i)
    b = tl.load(X + N + i)
    r = tl.reshape(a, 2, N // 2)
    tl.store(OUT + tl.arange(0, 2)[:, None] * (N // 2) + tl.arange(0, N // 2)[None, :], r)
    tl.store(OUT + N + i[:, None] * 2 + tl.arange(0, 2)[None, :], tl.join(a, b))
    x = tl.load(X + i[:, None] * 2 + tl.arange(0, 2)[None, :])
    lo, hi = tl.split(x)
    tl.store(OUT + 3 * N + i, lo - hi)
