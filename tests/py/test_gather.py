"""tl.gather(src, index, axis) (Triton's semantic.gather; test_core's
test_gather): the result has index's shape, element c being src's at c
with c[axis] replaced by index[c].  Compared with torch.gather."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, stages


@triton.jit
def gather_2d(src_ptr, idx_ptr, out_ptr, AXIS: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr,
              I0: tl.constexpr, I1: tl.constexpr, METHOD: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
    offs = tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :]
    idx = tl.load(idx_ptr + offs)
    if METHOD:
        out = src.gather(idx, AXIS)
    else:
        out = tl.gather(src, idx, axis=AXIS)
    tl.store(out_ptr + offs, out)


@pytest.mark.parametrize("src_shape,idx_shape,axis", [
    ((4, 4), (8, 4), 0), ((16, 8), (4, 8), 0), ((8, 16), (8, 32), 1), ((32, 1), (32, 4), 1),
    ((1, 8), (4, 8), 0), ((8, 4), (8, 4), -1),
])
@pytest.mark.parametrize("dtype,idx_dtype", [(torch.float32, torch.int32),
                                             (torch.float16, torch.int64),
                                             (torch.int32, torch.int16)])
def test_gather_2d(device, src_shape, idx_shape, axis, dtype, idx_dtype):
    g = torch.Generator().manual_seed(sum(src_shape) + sum(idx_shape))
    src = (torch.randn(src_shape, generator=g) * 100).to(dtype)
    idx = torch.randint(0, src_shape[axis], idx_shape, generator=g).to(idx_dtype)
    out = torch.zeros(idx_shape, dtype=dtype)
    src_d, idx_d, out_d = src.to(device), idx.to(device), out.to(device)
    gather_2d[(1,)](src_d, idx_d, out_d, AXIS=axis, S0=src_shape[0], S1=src_shape[1],
                    I0=idx_shape[0], I1=idx_shape[1], METHOD=axis < 0)
    assert torch.equal(out_d.cpu(), torch.gather(src, axis % 2, idx.long()))


@triton.jit
def gather_1d(src_ptr, idx_ptr, out_ptr, N: tl.constexpr, M: tl.constexpr):
    src = tl.load(src_ptr + tl.arange(0, N))
    idx = tl.load(idx_ptr + tl.arange(0, M))
    tl.store(out_ptr + tl.arange(0, M), tl.gather(src, idx, 0))


@pytest.mark.parametrize("n,m", [(32, 64), (128, 16), (1, 8)])
def test_gather_1d(device, n, m):
    src = torch.arange(n, dtype=torch.float32) * 1.5
    idx = torch.randint(0, n, (m,), generator=torch.Generator().manual_seed(n))
    idx = idx.to(torch.int32)
    out = torch.zeros(m, device=device)
    gather_1d[(1,)](src.to(device), idx.to(device), out, N=n, M=m)
    assert torch.equal(out.cpu(), src[idx.long()])


def test_index_outside_the_dim_wraps(device):
    """Triton leaves an index outside src's dim undefined; mytriton reads
    src at the index modulo the dim (never outside its scratch)."""
    src = torch.arange(8, dtype=torch.float32)
    idx = torch.tensor([-1, 8, 9, 1 << 20, -9, 3, 7, 0], dtype=torch.int32)
    out = torch.zeros(8, device=device)
    gather_1d[(1,)](src.to(device), idx.to(device), out, N=8, M=8)
    assert torch.equal(out.cpu(), src[(idx % 8).long()])


def test_gather_ir():
    x = torch.zeros(16)
    ir = stages(gather_2d, x, torch.zeros(16, dtype=torch.int32), x, AXIS=1, S0=4, S1=4, I0=4,
                I1=4, METHOD=False)["ssa-opt"]
    assert "gather" in ir and "{axis=1}" in ir


@pytest.mark.parametrize("body,needle", [
    ("tl.gather(src, src, 0)", "index must be an integer tensor"),
    ("tl.gather(src, tl.arange(0, 4), 0)", "source and index tensors must have the same rank"),
    ("tl.gather(src, idx, 2)", "gather axis 2 must be < source rank (2)"),
    ("tl.gather(src, tl.zeros((4, 8), tl.int32), 0)",
     "index dim 0 must match the corresponding source dim"),
])
def test_gather_errors(tmp_path, body, needle):
    src = f"""
import mytriton as triton
import mytriton.language as tl

@triton.jit
def bad(x):
    src = tl.load(x + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    idx = tl.zeros((4, 4), tl.int32)
    tl.store(x + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :], {body})
"""
    path = tmp_path / "bad_gather.py"
    path.write_text(src)
    ns = {}
    exec(compile(src, str(path), "exec"), ns)
    assert_compile_error(ns["bad"], (torch.zeros(16),), needle=body, pattern=re.escape(needle))
