"""Kernels of bench/batched_dot.py, compiled from this same text by Triton
and by mytriton: a batched tl.dot of rank-3 blocks, [BB, BM, K] x [BB, K,
BN] per program (test_core's test_dot3d kernel, with a K loop)."""
import triton
import triton.language as tl


@triton.jit
def bmm3d(q_ptr, k_ptr, o_ptr, K, sqb, sqm, sqk, skb, skk, skn, sob, som, son,
          BB: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pb = tl.program_id(2) * BB
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    rb = pb + tl.arange(0, BB)
    rm = pm + tl.arange(0, BM)
    rn = pn + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BB, BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        q = tl.load(q_ptr + rb[:, None, None] * sqb + rm[None, :, None] * sqm +
                    (k0 + rk)[None, None, :] * sqk)
        kv = tl.load(k_ptr + rb[:, None, None] * skb + (k0 + rk)[None, :, None] * skk +
                     rn[None, None, :] * skn)
        acc += tl.dot(q, kv)
    tl.store(o_ptr + rb[:, None, None] * sob + rm[None, :, None] * som + rn[None, None, :] * son,
             acc.to(o_ptr.dtype.element_ty))
