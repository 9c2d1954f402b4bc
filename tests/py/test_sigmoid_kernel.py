"""8.6: sigmoid = 1 / (1 + exp(-x))."""
import re

import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, f32, ops, poisoned, stages


@triton.jit
def sigmoid_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    values = tl.load(x + offs, mask=mask, other=0.0)
    tl.store(out + offs, 1.0 / (1.0 + tl.exp(-values)), mask=mask)


def test_sigmoid_kernel_codegen():
    ssa = stages(sigmoid_kernel, torch.zeros(4), torch.zeros(4), 1000, BLOCK=256)["ssa-opt"]
    o = ops(ssa)
    i = o.index("neg")
    assert o[i:i + 4] == ["neg", "exp", "add", "div"], o
    assert re.search(r"= add 1\.0, %\d+ : vector<256 x f32>", ssa), ssa
    assert re.search(r"= div 1\.0, %\d+ : vector<256 x f32>", ssa), ssa


def test_sigmoid_kernel_execution(device):
    n = 1000
    x = f32(device, n, low=-8, high=8, seed=6)
    out = poisoned(device, n)
    sigmoid_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    close(out, torch.sigmoid(x), rtol=1e-5, atol=1e-6)
