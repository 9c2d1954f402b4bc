"""Integer // % << >> where C leaves the value undefined (issue 15), on
blocks of every integer dtype torch 1.13 has: x // 0 and x % 0, MIN // -1
and MIN % -1, shifts by the width or more and by a negative count.

The expected results were measured on an H200 under Triton 3.6 (the lead's
run of this kernel, tests/unit/data/triton_int_edges.txt) and written into
expected/int_div_shift_edges.json from that record, not recorded with the
interpreter (which computes these with NumPy and warns).  What they show:
x // 0 and x % 0 are all ones at 8, 16 and 32 bits; at 64 bits 0xffffffff
when x fits in 32 unsigned bits (the 32-bit fast path of LLVM's 64-bit
division), else all ones; MIN // -1 wraps to MIN, MIN % -1 is 0; << and an
unsigned >> give 0 for a count >= the width or negative (read as
unsigned), a signed >> the sign fill.  A constant zero divisor is left
out: Triton gives garbage for it (LLVM's undefined value)."""
import torch
import triton
import triton.language as tl

BLOCK = 64

# (dtype, width, the x values, as measured)
CASES = [
    (torch.int8, 8, [7, -7, -128, 127, 0, 1, -1, 5]),
    (torch.int16, 16, [7, -7, -32768, 32767, 0, 1, -1, 5]),
    (torch.int32, 32, [7, -7, -2**31, 2**31 - 1, 0, 1, -1, 5]),
    (torch.int64, 64, [7, -7, -2**63, 2**63 - 1, 0, 1, -1, 5]),
    (torch.uint8, 8, [7, 0, 255, 1, 5, 254, 2, 3]),
]
OPS = ["floordiv", "mod", "shl", "shr"]


@triton.jit
def edge(x_ptr, y_ptr, z_ptr, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    y = tl.load(y_ptr + offs, mask=m)
    if OP == 0:
        z = x // y
    elif OP == 1:
        z = x % y
    elif OP == 2:
        z = x << y
    else:
        z = x >> y
    tl.store(z_ptr + offs, z, mask=m)


def operands(dtype, width, xs, op):
    """Every x with each divisor (0 and -1, or 0 and 1 unsigned) or each
    count (width - 1, width, width + 1, 2 * width, 100, and -1 signed)."""
    signed = dtype.is_signed
    if op < 2:
        ys = [0, -1] if signed else [0, 1]
    else:
        ys = [width - 1, width, width + 1, 2 * width, 100] + ([-1] if signed else [])
    pairs = [(x, y) for x in xs for y in ys]
    x = torch.tensor([p[0] for p in pairs], dtype=dtype)
    y = torch.tensor([p[1] for p in pairs], dtype=dtype)
    return x, y


def run(device):
    out = {}
    for dtype, width, xs in CASES:
        for op, name in enumerate(OPS):
            x, y = (t.to(device) for t in operands(dtype, width, xs, op))
            z = torch.zeros_like(x)
            edge[(1,)](x, y, z, x.numel(), OP=op, BLOCK=BLOCK)
            out[str(dtype).replace("torch.", "") + "_" + name] = z
    return out
