"""8.11: one output row segment per program, static loop over K."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, op_counts, poisoned, stages, f32


@triton.jit
def naive_matmul_kernel(a, b, c, n_cols, K: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    acc = tl.zeros((BLOCK,), tl.float32)
    for k in tl.static_range(K):
        a_value = tl.load(a + row * K + k)
        b_values = tl.load(b + k * n_cols + cols, mask=mask, other=0.0)
        acc += a_value * b_values
    tl.store(c + row * n_cols + cols, acc, mask=mask)


def naive_matmul(a, b, block=256):
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"incompatible shapes {tuple(a.shape)} @ {tuple(b.shape)}")
    m, k = a.shape
    n = b.shape[1]
    if k == 0:
        raise ValueError("matmul needs at least one reduction column")
    if n == 0:
        raise ValueError("matmul needs at least one output column")
    c = poisoned(a.device.type, m, n)
    naive_matmul_kernel[(m, triton.cdiv(n, block))](a, b, c, n, K=k, BLOCK=block)
    return c


def test_naive_matmul_codegen():
    asm = stages(naive_matmul_kernel, torch.zeros(2, 3), torch.zeros(3, 5), torch.zeros(2, 5),
                 5, K=3, BLOCK=4)
    ssa = asm["ssa-opt"]
    counts = op_counts(ssa)
    assert counts["load"] == 6, ssa          # 3 scalar a loads + 3 masked b loads
    assert "for" not in counts
    assert len(re.findall(r"= load %\d+, none, none : f32", ssa)) == 3, ssa
    assert len(re.findall(r"= load %\d+, %\d+, 0\.0 : vector<4 x f32>", ssa)) == 3, ssa
    assert counts["store"] == 1


@pytest.mark.parametrize("bad", [((2, 3), (4, 5)), ((2, 0), (0, 5)), ((2, 3), (3, 0))])
def test_naive_matmul_rejects_shapes(bad):
    with pytest.raises(ValueError, match="incompatible shapes|at least one"):
        naive_matmul(torch.zeros(*bad[0]), torch.zeros(*bad[1]))


def test_naive_matmul_execution(device):
    a, b = f32(device, 31, 17, seed=13), f32(device, 17, 513, seed=14)
    close(naive_matmul(a, b), a @ b, rtol=1e-4, atol=1e-3)
