"""tl.philox and tl.philox_impl (issue 9): Philox on any counter, bit for
bit: 32-bit counters (c2 and c3 nonzero, an int32 seed split into two key
words), 64-bit counters (the uint64 constants, the seed as the low key word
and a (1,) block of 0 as the high one), philox_impl on uint32 words with
n_rounds=6.  Results are uint32/uint64 stored into int64 (wrapping the
uint64 ones)."""
import torch
import triton
import triton.language as tl

BLOCK = 32


@triton.jit
def philox_ops(seed, out32, out64, impl, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a, b, c, d = tl.philox(seed, offs, offs * 7 + 1, offs ^ 0x55, -offs)
    tl.store(out32 + 0 * BLOCK + offs, a)
    tl.store(out32 + 1 * BLOCK + offs, b)
    tl.store(out32 + 2 * BLOCK + offs, c)
    tl.store(out32 + 3 * BLOCK + offs, d)
    w = offs.to(tl.int64) * 0x1_0000_0003
    e, f, g, h = tl.philox(seed, w, w + 1, w * 3, -w)
    tl.store(out64 + 0 * BLOCK + offs, e)
    tl.store(out64 + 1 * BLOCK + offs, f)
    tl.store(out64 + 2 * BLOCK + offs, g)
    tl.store(out64 + 3 * BLOCK + offs, h)
    u = offs.to(tl.uint32)
    k0 = (offs * 0 + seed).to(tl.uint32)
    p, q, r, s = tl.philox_impl(u, u * 3, u + 9, u ^ 0xF0F0, k0, k0 + 1, n_rounds=6)
    tl.store(impl + 0 * BLOCK + offs, p)
    tl.store(impl + 1 * BLOCK + offs, q)
    tl.store(impl + 2 * BLOCK + offs, r)
    tl.store(impl + 3 * BLOCK + offs, s)


def run(device):
    out = {}
    for name, seed in (("s3", 3), ("neg", -100)):
        res = {k: torch.zeros(4 * BLOCK, dtype=torch.int64, device=device)
               for k in ("out32", "out64", "impl")}
        philox_ops[(1,)](seed, *res.values(), BLOCK=BLOCK)
        out.update({f"{name}_{k}": v for k, v in res.items()})
    return out
