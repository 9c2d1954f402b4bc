import mytriton as mt
from mytriton import language as tl

NEG = float("-inf")


@mt.jit
def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    """Row-wise softmax."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    values = tl.load(x + row * n_cols + cols, mask=mask, other=-float("inf"))
    m = tl.max(values)
    e = tl.exp(values - m)
    s = tl.sum(e)
    tl.store(out + row * n_cols + cols, e / s, mask=mask)
