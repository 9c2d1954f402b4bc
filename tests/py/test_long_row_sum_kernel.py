"""8.9: rows longer than one block, summed with an unrolled static_range."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, op_counts, poisoned, stages, f32


@triton.jit
def long_row_sum_kernel(x, out, N_COLS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    row_start = row * N_COLS
    partial = 0.0
    for start in tl.static_range(0, N_COLS, BLOCK):
        cols = start + lanes
        partial += tl.load(x + row_start + cols, mask=cols < N_COLS, other=0.0)
    total = tl.sum(partial, axis=0)
    tl.store(out + row, total, mask=lanes < 1)


def long_row_sum(x):
    rows, cols = x.shape
    out = poisoned(x.device.type, rows)
    block = min(256, triton.next_power_of_2(cols))
    long_row_sum_kernel[(rows,)](x, out, N_COLS=cols, BLOCK=block)
    return out


def test_long_row_sum_codegen():
    asm = stages(long_row_sum_kernel, torch.zeros(3, 10), torch.zeros(3), N_COLS=10, BLOCK=4)
    ssa = asm["ssa-opt"]
    counts = op_counts(ssa)
    assert counts["load"] == 3, ssa           # three unrolled chunks
    assert counts["sum"] == 1 and counts["store"] == 1
    assert "for" not in counts                # static_range never reaches the IR
    assert re.search(r"= sum %\d+ \{axis=0\} : f32", ssa)


@pytest.mark.parametrize("shape", [(31, 4097), (31, 1)])
def test_long_row_sum_execution(device, shape):
    x = f32(device, *shape, seed=10)
    close(long_row_sum(x), x.sum(dim=1), rtol=1e-4, atol=1e-3)
