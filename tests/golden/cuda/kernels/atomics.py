import triton
import triton.language as tl


@triton.jit
def atomics_kernel(counter, h, b, f, u, q, d, s, c, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    ticket = tl.atomic_add(counter, 1)
    tl.atomic_add(h + offs, tl.load(h + offs), mask=offs < ticket)
    tl.atomic_add(b + offs, tl.load(b + offs), sem="relaxed")
    tl.store(f + offs, tl.atomic_max(f + offs, tl.load(f + offs)))
    tl.atomic_min(u + offs, tl.load(u + offs), scope="cta")
    x = tl.atomic_and(q + offs, 12, sem="acquire", scope="sys")
    x = tl.atomic_or(q + offs, x, sem="release")
    tl.atomic_xor(q + offs, x)
    tl.atomic_xchg(d + offs, 1.5)
    tl.atomic_cas(s + offs, 0, 1)
    tl.store(c, tl.atomic_cas(c + 1, 2.0, 3.0))
