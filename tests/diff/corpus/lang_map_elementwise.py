"""tl.map_elementwise (test_core's three tests and more): runtime if/elif
on each element's scalars, several results, a while loop per element,
operands broadcast, pack=2 and pack=4 (a call sees consecutive elements of
the last dim)."""
import torch
import triton
import triton.language as tl


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def divmod_(a, b):
    return a // b, a % b


@triton.jit
def halve_until(x, lo):
    while x > lo:
        x = x * 0.5
    return x


@triton.jit
def pairs(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def group_of_four(a0, a1, a2, a3):
    s = a0 + a1 + a2 + a3
    return s, s, s, s, a3, a2, a1, a0


@triton.jit
def kernel(X, Y, B, O, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    tl.store(O + offs, tl.map_elementwise(compare, x, y))
    q, r = tl.map_elementwise(divmod_, x + 100, tl.load(B + offs))
    tl.store(O + N + offs, q)
    tl.store(O + 2 * N + offs, r)
    # a block, not the constant 3.0: Triton 3.6 fails on a constexpr operand
    # ("'constexpr_type' object has no attribute 'scalar'")
    h = tl.map_elementwise(halve_until, (x + 50).to(tl.float32), tl.full([N], 3.0, tl.float32))
    tl.store(O + 3 * N + offs, (h * 1000).to(tl.int32))
    q2, r2 = tl.map_elementwise(pairs, x + 100, tl.load(B + offs), pack=2)
    tl.store(O + 4 * N + offs, q2)
    tl.store(O + 5 * N + offs, r2)


@triton.jit
def kernel4(A, C, D, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    c, d = tl.map_elementwise(group_of_four, tl.load(A + offs), pack=4)
    tl.store(C + offs, c)
    tl.store(D + offs, d)


def run(device):
    g = torch.Generator().manual_seed(7)
    x = torch.randint(-20, 20, (256,), generator=g, dtype=torch.int32).to(device)
    y = torch.randint(-20, 20, (256,), generator=g, dtype=torch.int32).to(device)
    b = torch.randint(1, 9, (256,), generator=g, dtype=torch.int32).to(device)
    o = torch.zeros(6 * 256, dtype=torch.int32).to(device)
    kernel[(1,)](x, y, b, o, N=256)
    a = torch.randint(-100, 100, (16, 32), generator=g, dtype=torch.int32).to(device)
    c, d = torch.zeros_like(a), torch.zeros_like(a)
    kernel4[(1,)](a, c, d, M=16, N=32)
    return {"out": o, "pack4_sum": c, "pack4_flip": d}
