"""Column accesses made row accesses (memorder.c, issue 11): a transpose's
store and a column-major operand's load read or write the transposed block
along its rows, with one conversion through shared memory where the
transposed block meets a row layout; and a tensor-core accumulator's store
converted for 16-byte stores.  Values must not change on either backend."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import stages


@triton.jit
def transpose_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[None, :] * M + rm[:, None], x)


@triton.jit
def masked_transpose_kernel(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    # the load runs down x's columns, the store along y's rows
    m = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] + rn[None, :] * M, mask=m, other=-1.0)
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], x * 2.0, mask=m)


@triton.jit
def column_dot_kernel(a_ptr, b_ptr, c_ptr, sam, sak, sbk, sbn,
                      BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PREC: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :] * sak)
    b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :] * sbn)
    c = tl.dot(a, b, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], c)


@pytest.mark.parametrize("M,N,BM,BN", [(64, 64, 64, 64), (128, 256, 32, 64), (256, 128, 64, 32),
                                       (64, 32, 16, 8)])
def test_transpose(device, M, N, BM, BN):
    x = torch.randn(M, N, device=device)
    y = torch.full((N, M), float("nan"), device=device)
    transpose_kernel[(M // BM, N // BN)](x, y, M, N, BM=BM, BN=BN)
    assert torch.equal(y, x.t())


@pytest.mark.parametrize("M,N", [(64, 64), (50, 70), (3, 129)])
def test_masked_column_load(device, M, N):
    x = torch.randn(N, M, device=device)  # x^T is [M, N] with strides (1, M)
    y = torch.full((M, N), 7.0, device=device)
    masked_transpose_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](x, y, M, N, BM=32, BN=32)
    assert torch.equal(y, x.t() * 2.0)


@pytest.mark.parametrize("dtype,prec", [(torch.float32, "ieee"), (torch.float32, "tf32"),
                                        (torch.float16, "ieee")])
@pytest.mark.parametrize("col_a,col_b", [(True, False), (False, True), (True, True)])
def test_column_major_dot_operands(device, dtype, prec, col_a, col_b):
    BM, BN, BK = 32, 64, 32
    torch.manual_seed(3)
    a = torch.randn(BK, BM).t() if col_a else torch.randn(BM, BK)
    b = torch.randn(BN, BK).t() if col_b else torch.randn(BK, BN)
    if prec == "tf32":  # operands TF32 holds exactly: the sums then agree closely
        a = (a.view(torch.int32) & -8192).view(torch.float32)
        b = (b.view(torch.int32) & -8192).view(torch.float32)
    a, b = a.to(dtype).to(device), b.to(dtype).to(device)
    c = torch.full((BM, BN), float("nan"), device=device)
    column_dot_kernel[(1, )](a, b, c, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                             BM=BM, BN=BN, BK=BK, PREC=prec)
    ref = a.double().cpu() @ b.double().cpu()
    assert torch.allclose(c.double().cpu(), ref, rtol=1e-4, atol=1e-4)


def test_transpose_text():
    asm = stages(transpose_kernel, torch.zeros(4), torch.zeros(4), 64, 64, BM=64, BN=64)
    layout = asm["ssa-layout"]
    # the store writes y along its rows: the loaded tile, transposed for
    # free (the operand's layout with its dims swapped), then one
    # conversion through shared memory (rows 65 words apart)
    assert "= trans " in layout
    assert "convert_layout" in layout and "{via=shared}" in layout
    assert "spt=[4, 1] tpw=[16, 2] wpc=[1, 4] order=[0, 1]" in layout
    assert "convert_layout [64 x 64] f32 pad 1" in layout
    cuda = asm["cuda"]
    assert cuda.count("*(float4*)") == 1 and cuda.count("*(const float4*)") == 1


def test_column_operands_load_rows():
    a = torch.zeros(4)
    asm = stages(column_dot_kernel, a, a, a, 1, 32, 1, 32, BM=32, BN=64, BK=32, PREC="ieee")
    layout = asm["ssa-layout"]
    # both loads read the transposed tile along its rows; trans gives it back
    assert layout.count("= trans ") == 2
    assert asm["cuda"].count("*(const float4*)") >= 2


@triton.jit
def epilogue_kernel(x_ptr, y_ptr, z_ptr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    zs = z_ptr + rm[:, None] * BN + rn[None, :]
    z = tl.dot(tl.load(x_ptr + rm[:, None] * BK + rk[None, :]),
               tl.load(y_ptr + rk[:, None] * BN + rn[None, :]))
    z += tl.load(zs)
    tl.store(zs, z)


@pytest.mark.parametrize("BM,BN,BK", [(64, 64, 32), (128, 128, 16)])
def test_accumulator_store_converts(device, BM, BN, BK):
    torch.manual_seed(5)
    x = torch.randn(BM, BK).half().to(device)
    y = torch.randn(BK, BN).half().to(device)
    z = torch.randn(BM, BN).to(device)
    want = x.double().cpu() @ y.double().cpu() + z.double().cpu()
    epilogue_kernel[(1, )](x, y, z, BM=BM, BN=BN, BK=BK)
    assert torch.allclose(z.double().cpu(), want, rtol=1e-3, atol=1e-3)


def test_accumulator_store_text():
    h, f = torch.zeros(4).half(), torch.zeros(4)
    asm = stages(epilogue_kernel, h, h, f, BM=64, BN=64, BK=32)
    layout = asm["ssa-layout"]
    # the accumulator (mma layout) is added to a load in its own layout, then
    # converted through a padded scratch for the store's 16-byte groups;
    # the store's pointers, shared with the load, keep the row layout
    assert "convert_layout [64 x 64] f32 pad 8" in layout
    cuda = asm["cuda"]
    assert "*(uint2 *)&((float*)mt_smem)" in cuda and "*(const uint4 *)&((float*)mt_smem)" in cuda
    assert "*(float4*)" in cuda
