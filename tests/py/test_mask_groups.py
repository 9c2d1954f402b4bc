"""Vector accesses under a mask that is one value over each group
(axis.c: `cols < n` with n a multiple of 16 has constancy 16): the group
tests one element, and a group that fails is masked off whole: the load
gives `other`, the store writes nothing (both predicated, Triton's form:
mt_ld_pred, mt_st_pred).  Ragged sizes keep the per-element path; both
must give the same results."""
import re

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import stages


@triton.jit
def row_kernel(out, full, x, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    v = tl.load(x + row * stride + cols, mask=mask, other=-7.0)
    tl.store(full + row * BLOCK + cols, v)
    tl.store(out + row * stride + cols, v * 2.0, mask=mask)


@triton.jit
def tile_kernel(out, x, m, n, BM: tl.constexpr, BN: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < m) & (cols[None, :] < n)
    offs = rows[:, None] * n + cols[None, :]
    v = tl.load(x + offs, mask=mask, other=3.0)
    tl.store(out + offs, v + 1.0, mask=mask)


# one mask test per group: the store predicated on the group's first
# element; a group whose elements may differ tests each (mt_all)
GROUP_STORE = re.compile(r"const int mt_e = mt_g;\n\s*mt_st_pred\(\(\w+\*\)\(v\d+\[[^\]]*\]\), "
                         r"make_\w+\(.*\), v\d+\[[^\]]*\]\);")


@pytest.mark.parametrize("n_cols,uniform", [(48, True), (128, True), (50, False)])
def test_row_groups(device, n_cols, uniform):
    rows, block = 5, 128
    g = torch.Generator().manual_seed(n_cols)
    x = torch.randn(rows, n_cols, generator=g).to(device)
    full = torch.empty(rows, block, device=device)
    out_view = torch.full((rows * n_cols + 64,), 99.0, device=device)
    row_kernel[(rows,)](out_view, full, x, n_cols, n_cols, BLOCK=block, num_warps=1)
    xs = x.cpu().numpy()
    want_full = np.full((rows, block), -7.0, np.float32)
    want_full[:, :n_cols] = xs
    np.testing.assert_array_equal(full.cpu().numpy(), want_full)
    got = out_view.cpu().numpy()
    np.testing.assert_array_equal(got[:rows * n_cols].reshape(rows, n_cols), 2.0 * xs)
    assert (got[rows * n_cols:] == 99.0).all(), "a masked-off group was stored"
    cuda = stages(row_kernel, out_view, full, x, n_cols, n_cols, BLOCK=block, num_warps=1)["cuda"]
    assert bool(GROUP_STORE.search(cuda)) == uniform, cuda
    assert ("mt_all = mt_all && " in cuda) != uniform, cuda


@pytest.mark.parametrize("m,n", [(40, 32), (64, 48)])
def test_tile_groups(device, m, n):
    bm, bn = 32, 64
    g = torch.Generator().manual_seed(m + n)
    x = torch.randn(m, n, generator=g).to(torch.float16).to(device)
    out = torch.full((m * n + 128,), -1.0, dtype=torch.float16, device=device)
    tile_kernel[(triton.cdiv(m, bm),)](out, x, m, n, BM=bm, BN=bn)
    got = out.cpu().float().numpy()
    want = x.cpu().float().numpy() + 1.0
    np.testing.assert_array_equal(got[:m * n].reshape(m, n), want.astype(np.float16).astype(np.float32))
    assert (got[m * n:] == -1.0).all()
    cuda = stages(tile_kernel, out, x, m, n, BM=bm, BN=bn)["cuda"]
    assert GROUP_STORE.search(cuda), cuda
