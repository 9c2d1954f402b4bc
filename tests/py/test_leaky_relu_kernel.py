"""8.6: leaky relu with a runtime f32 alpha."""
import re

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mtutil import f32, ops, poisoned, same_bits, stages


@triton.jit
def leaky_relu_kernel(x, out, n, alpha, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    values = tl.load(x + offs, mask=mask, other=0.0)
    tl.store(out + offs, tl.where(values < 0.0, alpha * values, values), mask=mask)


def test_leaky_relu_kernel_codegen():
    import torch
    ssa = stages(leaky_relu_kernel, torch.zeros(4), torch.zeros(4), 1000, 0.1, BLOCK=256)["ssa-opt"]
    assert re.search(r"= cmp_lt %\d+, 0\.0 : vector<256 x bool>", ssa), ssa
    assert re.search(r"= mul alpha, %\d+ : vector<256 x f32>", ssa) or \
        re.search(r"= mul %\d+, alpha : vector<256 x f32>", ssa), ssa
    assert re.search(r"= select %\d+, %\d+, %\d+ : vector<256 x f32>", ssa), ssa
    o = ops(ssa)
    assert o.index("cmp_lt") < o.index("select") and o.index("mul", 1) < o.index("select")


def test_leaky_relu_kernel_execution(device):
    n = 1000
    alpha = 0.1
    x = f32(device, n, seed=5)
    x[0], x[1], x[2] = float("nan"), -0.0, 0.0
    out = poisoned(device, n)
    leaky_relu_kernel[(triton.cdiv(n, 256),)](x, out, n, alpha, BLOCK=256)
    xs = x.cpu().numpy()
    expected = np.where(xs < 0, np.float32(alpha) * xs, xs).astype(np.float32)
    same_bits(out, expected)
