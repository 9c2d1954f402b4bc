import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x, y, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(y + o, tl.cumsum(tl.load(x + o), axis=0))


@triton.jit
def cumprod_rows_kernel(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)[:, None]
    c = tl.arange(0, N)[None, :]
    tl.store(y + r * N + c, tl.cumprod(tl.load(x + r * N + c), 1, reverse=True))


@triton.jit
def argmax_rows_kernel(x, y, M: tl.constexpr, N: tl.constexpr):
    r = tl.arange(0, M)
    c = tl.arange(0, N)
    tl.store(y + r, tl.argmax(tl.load(x + r[:, None] * N + c[None, :]), axis=1))


@triton.jit
def _affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def affine_scan_kernel(a, b, y, N: tl.constexpr):
    o = tl.arange(0, N)
    _, h = tl.associative_scan((tl.load(a + o), tl.load(b + o)), 0, _affine, reverse=True)
    tl.store(y + o, h)
