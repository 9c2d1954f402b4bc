"""tl.map_elementwise(scalar_fn, *args) (Triton 3.6; test_core's
test_map_elementwise): scalar_fn's runtime control flow on each element's
scalars, several results, operands broadcast to one shape; the errors a
user meets, located."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


@triton.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@triton.jit
def compare_kernel(X, Y, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    tl.store(Z + tl.arange(0, BLOCK), tl.map_elementwise(compare, x, y))


@pytest.mark.parametrize("block,num_warps", [(128, 4), (512, 4), (16, 1)])
def test_branches_per_element(device, block, num_warps):
    g = torch.Generator().manual_seed(block)
    x = torch.randint(-4, 4, (block,), generator=g, dtype=torch.int32)
    y = torch.randint(-4, 4, (block,), generator=g, dtype=torch.int32)
    z = torch.full((block,), 9, dtype=torch.int32).to(device)
    compare_kernel[(1,)](x.to(device), y.to(device), z, BLOCK=block, num_warps=num_warps)
    assert torch.equal(z.cpu(), (x > y).int() - (y > x).int())


@triton.jit
def divmod_(a, b):
    return a // b, a % b


@triton.jit
def clamp_loop(x, lo):
    # a while loop per element: halve until below lo
    while x > lo:
        x = x * 0.5
    return x


@triton.jit
def several_kernel(A, B, C, D, E, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, 4)[None, :]
    a = tl.load(A + rows * 4 + cols)
    b = tl.load(B + tl.arange(0, 4))[None, :]  # broadcast along rows
    c, d = tl.map_elementwise(divmod_, a, b)
    tl.store(C + rows * 4 + cols, c)
    tl.store(D + rows * 4 + cols, d)
    f = tl.map_elementwise(clamp_loop, a.to(tl.float32), 3.0)
    tl.store(E + rows * 4 + cols, f)


def test_several_results_broadcast_and_while(device):
    a = torch.arange(32 * 4, dtype=torch.int32).reshape(32, 4) + 1
    b = torch.tensor([1, 3, 7, 10], dtype=torch.int32)
    c, d = torch.zeros_like(a).to(device), torch.zeros_like(a).to(device)
    e = torch.zeros(32, 4).to(device)
    several_kernel[(1,)](a.to(device), b.to(device), c, d, e, BLOCK=32)
    assert torch.equal(c.cpu(), a // b) and torch.equal(d.cpu(), a % b)
    want = a.float()
    while (want > 3.0).any():
        want = torch.where(want > 3.0, want * 0.5, want)
    assert torch.equal(e.cpu(), want)


@triton.jit
def group_of_four(a0, a1, a2, a3):
    s = a0 + a1 + a2 + a3
    return s, s, s, s, a3, a2, a1, a0


@triton.jit
def pack_kernel(A, C, D, M: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    c, d = tl.map_elementwise(group_of_four, tl.load(A + offs), pack=4)
    tl.store(C + offs, c)
    tl.store(D + offs, d)


@triton.jit
def pairs(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@triton.jit
def pack2_kernel(A, B, C, D, N: tl.constexpr):
    a = tl.load(A + tl.arange(0, N))
    b = tl.load(B + tl.arange(0, N))
    c, d = tl.map_elementwise(pairs, a, b, pack=2)
    tl.store(C + tl.arange(0, N), c)
    tl.store(D + tl.arange(0, N), d)


@pytest.mark.parametrize("m,n", [(8, 16), (1, 64), (16, 4)])
def test_pack_takes_consecutive_elements(device, m, n):
    """pack=4: each call sees 4 consecutive elements of the last dim (as a
    thread holds them in Triton's layouts) and returns 4 per result."""
    a = torch.arange(m * n, dtype=torch.int32).reshape(m, n)
    c, d = torch.zeros_like(a).to(device), torch.zeros_like(a).to(device)
    pack_kernel[(1,)](a.to(device), c, d, M=m, N=n)
    g = a.reshape(m, n // 4, 4)
    assert torch.equal(c.cpu(), g.sum(-1, keepdim=True).expand(m, n // 4, 4).reshape(m, n).int())
    assert torch.equal(d.cpu(), g.flip(-1).reshape(m, n))


def test_pack2_as_test_core(device):
    g = torch.Generator().manual_seed(3)
    a = torch.randint(0, 1 << 20, (512,), generator=g, dtype=torch.int32)
    b = torch.randint(1, 1000, (512,), generator=g, dtype=torch.int32)
    c, d = torch.zeros_like(a).to(device), torch.zeros_like(a).to(device)
    pack2_kernel[(1,)](a.to(device), b.to(device), c, d, N=512)
    assert torch.equal(c.cpu(), a // b) and torch.equal(d.cpu(), a % b)


@pytest.mark.parametrize("call,message", [
    ("tl.map_elementwise(compare, x, x, pack=3)",
     "map_elementwise() pack must be a compile-time power of 2 up to 16"),
    ("tl.map_elementwise(first, x, x, pack=2)",
     "map_elementwise() scalar_fn 'first' returned 1 values, expected 1 to 16, a multiple "
     "of pack=2"),
    ("tl.map_elementwise(compare, x, x, bogus=1)",
     "map_elementwise() got an unexpected keyword argument 'bogus'"),
    ("tl.map_elementwise(compare)",
     "map_elementwise() takes a @triton.jit function and 1 or more tensors"),
    ("tl.map_elementwise(5, x)", "map_elementwise() scalar_fn must be a @triton.jit function"),
    ("tl.map_elementwise(compare, x, tl.arange(0, 8))", "cannot broadcast"),
])
def test_errors(tmp_path, call, message):
    src = f"""
import mytriton as triton
import mytriton.language as tl


@triton.jit
def compare(x, y):
    return x < y


@triton.jit
def first(a0, a1, b0, b1):
    return a0


@triton.jit
def bad(X):
    x = tl.load(X + tl.arange(0, 16))
    tl.store(X + tl.arange(0, 16), {call})
"""
    path = tmp_path / "bad_map.py"
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    assert_compile_error(ns["bad"], (torch.zeros(16),), needle=call, pattern=re.escape(message))
