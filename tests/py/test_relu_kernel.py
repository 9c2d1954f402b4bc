"""8.6: relu = maximum(x, 0.0), NaN-propagating with the sign of zero kept."""
import re

import numpy as np

import mytriton as triton
import mytriton.language as tl
from mtutil import f32, op_counts, poisoned, same_bits, stages


@triton.jit
def relu_kernel(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    values = tl.load(x + offs, mask=mask, other=0.0)
    tl.store(out + offs, tl.maximum(values, 0.0), mask=mask)


def test_relu_kernel_codegen():
    import torch
    asm = stages(relu_kernel, torch.zeros(4), torch.zeros(4), 1000, BLOCK=256)
    ssa = asm["ssa-opt"]
    assert re.search(r"= maximum %\d+, 0\.0 : vector<256 x f32>", ssa), ssa
    assert op_counts(ssa)["maximum"] == 1
    assert "mt_fmaxnumf(" in asm["cuda"]  # maxnumf: max.f32 on the GPU, NaN loses


def test_relu_kernel_execution(device):
    n = 1000
    x = f32(device, n, seed=4)
    x[0], x[1], x[2] = float("nan"), -0.0, 0.0
    out = poisoned(device, n)
    relu_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256)
    xs = x.cpu().numpy()
    # NaN gives 0.0: Triton's maximum ignores a NaN operand by default
    same_bits(out, np.where(np.isnan(xs), np.float32(0.0), np.maximum(xs, np.float32(0.0))))
