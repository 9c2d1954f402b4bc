"""8.13: rank-2 tiles, degenerate tiles, the unparenthesised mask error."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, close, ops, poisoned, stages, f32


@triton.jit
def tile_shape_kernel(out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offsets = offs_m[:, None] * N + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(out + offsets, offsets, mask=mask)


@triton.jit
def matrix_add_2d_kernel(x, y, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    offsets = offs_m[:, None] * N + offs_n[None, :]
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    a = tl.load(x + offsets, mask=mask, other=0.0)
    b = tl.load(y + offsets, mask=mask, other=0.0)
    tl.store(out + offsets, a + b, mask=mask)


@triton.jit
def invalid_unparenthesized_mask_kernel(out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    mask = offs_m[:, None] < M & offs_n[None, :] < N
    tl.store(out + offs_m[:, None] * N + offs_n[None, :], 1.0, mask=mask)


def test_tile_shape_stores_i32_offsets_into_f32(device):
    ssa = stages(tile_shape_kernel, torch.zeros(4), 3, 5, BM=4, BN=8)["ssa"]
    assert re.search(r"block<4x8 x i32>", ssa), ssa
    assert ops(ssa)[-1] == "store"
    out = poisoned(device, 3, 5)
    tile_shape_kernel[(1,)](out, 3, 5, BM=4, BN=8)
    expected = torch.arange(15, dtype=torch.float32).reshape(3, 5)
    close(out, expected, rtol=0, atol=0)


def test_matrix_add_2d_codegen():
    asm = stages(matrix_add_2d_kernel, torch.zeros(4), torch.zeros(4), torch.zeros(4), 19, 37,
                 BM=16, BN=32)
    ssa = asm["ssa-opt"]
    assert re.search(r"= load %\d+, %\d+, 0\.0 : block<16x32 x f32>", ssa), ssa
    assert ops(ssa).count("load") == 2


@pytest.mark.parametrize("bm,bn", [(1, 8), (4, 1), (16, 32)])
def test_matrix_add_2d_tiles(device, bm, bn):
    m, n = 19, 37
    x, y = f32(device, m, n, seed=15), f32(device, m, n, seed=16)
    out = poisoned(device, m, n)
    matrix_add_2d_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](x, y, out, m, n, BM=bm, BN=bn)
    close(out, x + y)


def test_unparenthesized_mask_is_rejected():
    assert_compile_error(invalid_unparenthesized_mask_kernel, (torch.zeros(4), 3, 5),
                         dict(BM=4, BN=8), needle="mask = offs_m[:, None] < M &",
                         pattern=r"parenthes|chain|compar|bool|&")
