"""8.10: 2-D grid over rank-1 blocks."""
import re

import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, poisoned, stages, f32


@triton.jit
def matrix_add_kernel(x, y, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    offsets = row * n_cols + cols
    a = tl.load(x + offsets, mask=mask, other=0.0)
    b = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, a + b, mask=mask)


def test_matrix_add_codegen():
    asm = stages(matrix_add_kernel, torch.zeros(4), torch.zeros(4), torch.zeros(4), 513, BLOCK=256)
    ssa = asm["ssa-opt"]
    assert re.search(r"= program_id \{axis=0\} : i32", ssa)
    assert re.search(r"= program_id \{axis=1\} : i32", ssa)
    assert "blockIdx.y" in asm["cuda"]


def test_matrix_add_execution(device):
    rows, cols, block = 127, 513, 256
    x, y = f32(device, rows, cols, seed=11), f32(device, rows, cols, seed=12)
    out = poisoned(device, rows, cols)
    matrix_add_kernel[(rows, triton.cdiv(cols, block))](x, y, out, cols, BLOCK=block)
    close(out, x + y)
