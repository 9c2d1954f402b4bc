"""8.8: row softmax (max, exp(x - max), sum, divide)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, ops, poisoned, stages, f32


@triton.jit
def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    values = tl.load(x + row * n_cols + cols, mask=mask, other=float("-inf"))
    row_max = tl.max(values, axis=0)
    numerator = tl.exp(values - row_max)
    denominator = tl.sum(numerator, axis=0)
    tl.store(out + row * n_cols + cols, numerator / denominator, mask=mask)


def softmax(x):
    rows, cols = x.shape
    out = poisoned(x.device.type, rows, cols)
    softmax_kernel[(rows,)](x, out, cols, BLOCK=triton.next_power_of_2(cols))
    return out


def test_softmax_codegen():
    asm = stages(softmax_kernel, torch.zeros(3, 5), torch.zeros(3, 5), 5, BLOCK=8)
    o = ops(asm["ssa-opt"])
    seq = [op for op in o if op in ("max", "sub", "exp", "sum", "div")]
    assert seq == ["max", "sub", "exp", "sum", "div"], o
    assert asm["cuda"].count("__shared__") >= 1 or asm["cuda"].count("__shfl") >= 1


@pytest.mark.parametrize("shape", [(127, 513), (127, 1)])
def test_softmax_execution(device, shape):
    x = f32(device, *shape, low=-3, high=3, seed=9)
    if shape[1] == 1:
        x = torch.ones(shape, device=device)
    close(softmax(x), torch.softmax(x, dim=1), rtol=1e-4, atol=1e-4)


def test_softmax_is_stable(device):
    x = torch.tensor([[1000.0, 1001.0, 1002.0, 1003.0],
                      [-1000.0, -1001.0, -1002.0, -1003.0],
                      [1234.0, 0.0, -1234.0, 1234.0]], device=device)
    out = softmax(x)
    assert torch.isfinite(out).all()
    close(out, torch.softmax(x, dim=1), rtol=1e-4, atol=1e-4)
