"""The PTX forms that Triton emits and its own tests look for, checked in
mytriton's PTX (on the host: NVRTC's, for MYTRITON_HOST_ARCH) beside the
values: 16-byte float64 accesses as ld/st.global.v2.b64 (test_core's
test_dot asserts them), tl.sqrt as sqrt.approx.ftz.f32 (Triton 3.6's
tl.sqrt on fp32; the tutorials' layer norm), tl.sqrt_rn and float64
sqrt correctly rounded."""
import re

import pytest
import numpy as np
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice


@pytest.fixture(autouse=True)
def ptx_on_the_host(device, monkeypatch):
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")


def ptx_of(handle):
    try:
        return handle.asm["ptx"]
    except RuntimeError as e:  # no NVRTC on this machine
        pytest.skip(str(e))


@triton.jit
def scale_f64(X, Y, n, BLOCK: tl.constexpr, MASKED: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if MASKED:
        tl.store(Y + i, tl.load(X + i, mask=i < n) * 2.0, mask=i < n)
    else:
        tl.store(Y + i, tl.load(X + i) * 2.0)


@pytest.mark.parametrize("masked", [False, True])
def test_float64_vectors_are_v2_b64(device, masked):
    n = 1000 if masked else 1024
    x = torch.randn(1024, dtype=torch.float64, device=device)
    y = torch.full_like(x, -7.0)
    h = scale_f64[(4,)](x, y, n, BLOCK=256, MASKED=masked)
    assert torch.equal(y[:n].cpu(), x[:n].cpu() * 2)
    assert torch.equal(y[n:].cpu(), torch.full((1024 - n,), -7.0, dtype=torch.float64))
    ptx = ptx_of(h)
    assert "ld.global.v2.b64" in ptx and "st.global.v2.b64" in ptx


@triton.jit
def roots(X, Y, MODE: tl.constexpr):
    i = tl.arange(0, 128)
    x = tl.load(X + i)
    if MODE == 0:
        y = tl.sqrt(x)
    elif MODE == 1:
        y = tl.sqrt_rn(x)
    else:
        y = libdevice.sqrt_rn(x)
    tl.store(Y + i, y)


@pytest.mark.parametrize("mode, dtype, form", [
    (0, torch.float32, r"sqrt\.approx\.ftz\.f32"),
    (1, torch.float32, r"sqrt\.rn\.f32"),
    (2, torch.float32, r"sqrt\.rn\.f32"),
    (0, torch.float64, r"sqrt\.rn\.f64"),
])
def test_sqrt_forms(device, mode, dtype, form):
    x = torch.rand(128, dtype=dtype, device=device) * 100
    y = torch.empty_like(x)
    h = roots[(1,)](x, y, MODE=mode)
    # correctly rounded: NumPy's float64 sqrt is the machine's IEEE square
    # root (torch's CPU sqrt is SLEEF's in some builds, within 0.5001 ulp and
    # not always rounded right: on the GPU machine's torch 2.11 its float64
    # result differed from sqrt.rn.f64, which is exact); float32 goes through
    # float64, whose 53 bits round a float32 square root exactly
    want = torch.from_numpy(np.sqrt(x.cpu().double().numpy())).to(dtype)
    if mode == 0 and dtype == torch.float32 and y.is_cuda:
        torch.testing.assert_close(y.cpu(), want, rtol=2.5e-7, atol=0)  # the approximation
    else:
        assert torch.equal(y.cpu(), want)
    ptx = ptx_of(h)
    assert re.search(form, ptx), form
    assert not re.search(r"sqrt\.approx", ptx) or mode == 0


@triton.jit
def masked_rows(X, Y, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    m = cols < n
    tl.store(Y + row * n + cols, tl.load(X + row * n + cols, mask=m, other=0.0) + 1.0, mask=m)


@pytest.mark.parametrize("dtype, width", [(torch.float32, "v4.b32"), (torch.float16, "v4.b32")])
def test_masked_vectors_are_predicated(device, dtype, width):
    # n a multiple of 16 (the hint): the mask is one value over each group,
    # so a group's load and store are each one predicated instruction, as
    # in Triton's PTX, with no branch around them
    n, rows = 48, 3
    x = torch.randn(rows * n + 256, device=device).to(dtype)
    y = torch.full_like(x, -7.0)
    h = masked_rows[(rows,)](x, y, n, BLOCK=256, num_warps=1)  # 8 a thread
    assert torch.equal(y[:rows * n].cpu(), (x[:rows * n].cpu().float() + 1.0).to(dtype))
    assert (y[rows * n:].cpu() == -7.0).all()
    ptx = ptx_of(h)
    assert re.search(r"@%?p\d* ld\.global\.v4\.b32", ptx), "predicated load"
    assert re.search(r"@%?p\d* st\.global\." + re.escape(width), ptx), "predicated store"
    assert not re.search(r"@%?p\d* bra", ptx), "a branch around an access"


@triton.jit
def row_scale(X, Y, stride, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    for off in range(0, n, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < n, other=0.0)
        tl.store(Y + cols, x * 3.0, mask=cols < n)
    tl.store(Y + n, tl.load(X + n) + 1.0)


def test_row_base_is_kept(device):
    """A row's base (X += row * stride, tutorial 05's form) is computed
    once: each access adds its column to it (mul.wide.s32 and add.s64, as
    Triton's PTX has it), where NVVM folded the row's 64-bit offset into
    every access's address (cvt.s64, add.s64, shl.b64, add.s64); the plain
    scalar accesses through it stay ld.global / st.global."""
    rows, stride, n = 3, 1040, 1000
    x = torch.randn(rows * stride + 8, device=device)
    y = torch.full_like(x, -7.0)
    h = row_scale[(rows,)](x, y, stride, n, BLOCK=256)
    xc, yc = x.cpu(), y.cpu()
    for r in range(rows):
        b = r * stride
        assert torch.equal(yc[b:b + n], xc[b:b + n] * 3.0)
        assert torch.equal(yc[b + n], xc[b + n] + 1.0)
    ptx = ptx_of(h)
    defs = dict((m.group(2), m.group(1)) for m in re.finditer(r"\t(\S+)\s+(%rd\d+),", ptx))
    scaled = re.findall(r"\tshl\.b64\s+%rd\d+, (%rd\d+), 2;", ptx)
    assert scaled or "mul.wide.s32" in ptx
    assert all(defs.get(r) != "add.s64" for r in scaled)  # no (row + col) << 2
    assert not re.search(r"\tld\.f32|\tst\.f32", ptx)
    assert re.search(r"ld\.global(\.nc)?\.f32", ptx) and re.search(r"st\.global\.f32", ptx)
