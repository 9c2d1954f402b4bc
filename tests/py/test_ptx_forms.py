"""The PTX forms that Triton emits and its own tests look for, checked in
mytriton's PTX (on the host: NVRTC's, for MYTRITON_HOST_ARCH) beside the
values: tl.sqrt as sqrt.approx.ftz.f32 (Triton 3.6's
tl.sqrt on fp32; the tutorials' layer norm), tl.sqrt_rn and float64
sqrt correctly rounded."""
import re

import pytest
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
    want = torch.sqrt(x.cpu())
    if mode == 0 and dtype == torch.float32 and y.is_cuda:
        torch.testing.assert_close(y.cpu(), want, rtol=2.5e-7, atol=0)  # the approximation
    else:
        assert torch.equal(y.cpu(), want)
    ptx = ptx_of(h)
    assert re.search(form, ptx), form
    assert not re.search(r"sqrt\.approx", ptx) or mode == 0
