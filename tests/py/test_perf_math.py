"""Triton's fp32 instructions (perf9): tl.exp is ex2.approx.f32 of
x * log2(e) and `/` is div.full.f32 on the GPU (mt_expf, mt_divf in
mt_kernel_rt.h; f64 keeps exp and IEEE division), tl.div_rn and
libdevice.exp stay correctly rounded (ops div_rn, exp_rn), and the
tl.max/tl.min reductions combine with maxnum/minnum (max.f32: a NaN loses)
from a NaN identity, so a row of NaN only stays NaN."""
import re

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice
from mtutil import ops, stages


@triton.jit
def math_kernel(x, y, e, d, drn, elib, fd, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    b = tl.load(y + offs)
    tl.store(e + offs, tl.exp(a))
    tl.store(d + offs, a / b)
    tl.store(drn + offs, tl.div_rn(a, b))
    tl.store(elib + offs, libdevice.exp(a))
    tl.store(fd + offs, tl.fdiv(a, b, ieee_rounding=True))


@triton.jit
def half_div_kernel(x, y, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs) / tl.load(y + offs))


@triton.jit
def row_extrema_kernel(x, mx, mn, N: tl.constexpr):
    row = tl.program_id(0)
    v = tl.load(x + row * N + tl.arange(0, N))
    tl.store(mx + row, tl.max(v, axis=0))
    tl.store(mn + row, tl.min(v, axis=0))


def inputs(dtype, device, n=64):
    k = np.arange(n, dtype=np.float64)
    x = np.sin(k * 0.71) * 20.0
    y = np.cos(k * 0.29) * 3.0 + 0.01
    return [torch.tensor(v, dtype=dtype).to(device) for v in (x, y)]


def outs(dtype, device, n=64):
    return [torch.zeros(n, dtype=dtype, device=device) for _ in range(5)]


def test_codegen():
    asm = stages(math_kernel, *inputs(torch.float32, "cpu"), *outs(torch.float32, "cpu"), BLOCK=64)
    o = ops(asm["ssa-opt"])
    # `/` and fdiv(ieee_rounding=True) are one op (Triton ignores the flag)
    assert o.count("div") == 1 and o.count("div_rn") == 1, o
    assert o.count("exp") == 1 and o.count("exp_rn") == 1, o
    cuda = asm["cuda"]
    assert cuda.count("mt_expf(") == 1 and cuda.count("mt_divf(") == 1, cuda
    # the correctly rounded forms: C's own expf and division
    assert re.search(r"= expf\(v\d+\[", cuda), cuda
    assert re.search(r"= \(v\d+\[\w+\] / v\d+\[\w+\]\);", cuda), cuda


@triton.jit
def f64_kernel(x, y, e, d, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    a = tl.load(x + offs)
    tl.store(e + offs, tl.exp(a))
    tl.store(d + offs, a / tl.load(y + offs))


def test_codegen_f64():
    x, y = inputs(torch.float64, "cpu")
    cuda = stages(f64_kernel, x, y, torch.empty_like(x), torch.empty_like(x), BLOCK=64)["cuda"]
    assert "mt_exp(" in cuda and "mt_div(" in cuda, cuda
    assert "mt_expf" not in cuda and "mt_divf" not in cuda, cuda


def test_values_f64(device):
    x, y = inputs(torch.float64, device)
    e, d = torch.zeros_like(x), torch.zeros_like(x)
    f64_kernel[(1,)](x, y, e, d, BLOCK=64)
    xs, ys = x.cpu().numpy(), y.cpu().numpy()
    np.testing.assert_allclose(e.cpu().numpy(), np.exp(xs), rtol=1e-15)
    np.testing.assert_array_equal(d.cpu().numpy(), xs / ys)


def test_half_division_is_the_f32_one():
    x, y = inputs(torch.float16, "cpu", 32)
    cuda = stages(half_div_kernel, x, y, torch.empty_like(x), BLOCK=32)["cuda"]
    assert "mt_divf(" in cuda, cuda  # widened to f32, divided, rounded back


def test_values(device):
    x, y = inputs(torch.float32, device)
    e, d, drn, elib, fd = outs(torch.float32, device)
    math_kernel[(1,)](x, y, e, d, drn, elib, fd, BLOCK=64)
    xs, ys = x.cpu().numpy(), y.cpu().numpy()
    exact_exp = np.exp(xs.astype(np.float64))
    np.testing.assert_allclose(e.cpu().numpy(), exact_exp, rtol=2e-6)
    np.testing.assert_allclose(elib.cpu().numpy(), exact_exp, rtol=3e-7)  # expf: 2 ulp on the GPU
    exact_div = xs.astype(np.float64) / ys
    np.testing.assert_allclose(d.cpu().numpy(), exact_div, rtol=4e-7)  # div.full: 2 ulp
    np.testing.assert_allclose(fd.cpu().numpy(), exact_div, rtol=4e-7)
    # div_rn: IEEE float32 division, bit for bit
    np.testing.assert_array_equal(drn.cpu().numpy(), xs / ys)


def test_reduce_nan(device):
    rows, n = 4, 256
    x = np.sin(np.arange(rows * n) * 0.37).reshape(rows, n).astype(np.float32) * 10
    x[0, 5] = np.nan        # a NaN loses to the rest of the row
    x[1, :] = np.nan        # a row of NaN only stays NaN
    x[2, :] = 0.0           # -0.0 orders below +0.0
    x[2, 10:20] = -0.0
    x[3, ::3] = np.nan
    xt = torch.tensor(x).to(device)
    mx = torch.zeros(rows, device=device)
    mn = torch.zeros(rows, device=device)
    row_extrema_kernel[(rows,)](xt, mx, mn, N=n)
    mx, mn = mx.cpu().numpy(), mn.cpu().numpy()
    np.testing.assert_array_equal(mx[[0, 3]], np.nanmax(x[[0, 3]], axis=1))
    np.testing.assert_array_equal(mn[[0, 3]], np.nanmin(x[[0, 3]], axis=1))
    assert np.isnan(mx[1]) and np.isnan(mn[1])
    assert mx[2] == 0.0 and not np.signbit(mx[2])
    assert mn[2] == 0.0 and np.signbit(mn[2])
