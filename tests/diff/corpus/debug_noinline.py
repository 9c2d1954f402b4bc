"""@triton.jit(noinline=True) helpers (Triton's test_noinline): a call
graph, runtime ifs around calls, tuple results and a helper that stores,
called with scalars as Triton requires; Triton calls them as functions,
mytriton inlines them, the values agree.
@triton.jit(repr=...) only names the compiled kernel."""
import torch
import triton
import triton.language as tl


@triton.jit(noinline=True)
def add_one(x):
    return x + 1


@triton.jit(noinline=True)
def add_two(y):
    return y + 2


@triton.jit(noinline=True)
def pair(x, y):
    return add_one(x) * 3, add_two(y) - x


@triton.jit(noinline=True)
def dynamic_store(x, y, Z):
    if x >= 1:
        x = add_one(x)
    else:
        x = add_two(x)
    if y >= 2:
        y = add_two(y)
    else:
        y = add_one(y)
    tl.store(Z, x + y)


def _name(spec):
    # compiled Triton takes the name as the function's symbol: an
    # identifier ("calls_*fp32" is refused)
    return "calls_" + spec.signature["X"].replace("*", "p")


@triton.jit(repr=_name)
def calls(X, Y, Z, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    y = tl.load(Y + offs)
    # Triton calls a noinline helper with scalars: a block of more than one
    # element is a compile error there, and Triton 3.6 accepts a one-element
    # block but fails to lower it (make_ttgir, on the H100), so none here
    a, b = pair(tl.load(X + 3), tl.load(Y + 5))
    tl.store(Z + offs, x * a + y * b)
    dynamic_store(tl.load(X), tl.load(Y), Z + BLOCK)


def run(device):
    res = {}
    for k, (x0, y0) in enumerate([(2.0, 3.0), (0.5, 1.0)]):
        x = (torch.arange(16, dtype=torch.float32) * 0.25 + x0).to(device)
        y = (torch.arange(16, dtype=torch.float32) * -0.5 + y0).to(device)
        z = torch.zeros(17, device=device)
        calls[(1, )](x, y, z, BLOCK=16)
        res[f"z{k}"] = z
    return res
