"""Debug mode that passes: tl.device_assert (with a mask), an assert
statement, and the integer overflow checks of + - * in a kernel compiled
with @triton.jit(debug=True) and launched with debug=True; the results are
those of the same kernel outside debug mode."""
import torch
import triton
import triton.language as tl


@triton.jit(debug=True)
def checked(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0)
    tl.device_assert(x >= -1000, "x too small")
    tl.device_assert(x < 0, "masked out", mask=x < -5000)
    s = tl.sum(x, axis=0)
    assert s < 1000000, "sum too big"
    tl.store(Y + offs, x * 3 - s + 7, mask=offs < n)


@triton.jit
def unchecked(X, Y, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0)
    tl.device_assert(x < -1000000, "never checked")
    s = tl.sum(x, axis=0)
    tl.store(Y + offs, x * 3 - s + 7, mask=offs < n)


def run(device):
    x = (torch.arange(100, dtype=torch.int32) * 9 - 400).to(device)
    y1 = torch.zeros_like(x)
    y2 = torch.zeros_like(x)
    checked[(1, )](x, y1, 100, BLOCK=128)
    unchecked[(1, )](x, y2, 100, BLOCK=128, debug=False)
    y3 = torch.zeros_like(x)
    unchecked[(1, )](x - 10**7, y3, 100, BLOCK=128)  # the assertion is off: no failure
    return {"checked": y1, "unchecked": y2, "off": y3}
