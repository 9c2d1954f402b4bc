"""enable_fp_fusion (a launch option) and knobs.language.default_fp_fusion,
as in Triton's test_enable_fp_fusion: with fusion off no multiply and add
is contracted into an fma (NVRTC --fmad=false); the host backends never
contract, so their values are the unfused ones either way.  The option is
part of the specialization: the two compile apart."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import knobs


@triton.jit
def mul_add(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)


@pytest.fixture(autouse=True)
def ptx_on_the_host(device, monkeypatch):
    """On the host the PTX is NVRTC's for the arch MYTRITON_HOST_ARCH names
    (without it, the arch of a GPU this machine may not have)."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")


def has_fma(kernel):
    try:
        ptx = kernel.asm["ptx"]
    except RuntimeError as e:  # no NVRTC on this machine
        pytest.skip(str(e))
    return re.search(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32", ptx) is not None


@pytest.mark.parametrize("enable", [False, True])
def test_enable_fp_fusion_launch_option(device, enable):
    data = torch.linspace(-3, 3, 128, device=device)
    want = data.cpu() * 1.5 + 1.0
    mul_add[(1,)](data, enable_fp_fusion=enable)
    if not data.is_cuda or not enable:  # unfused: exactly torch's two roundings
        assert torch.equal(data.cpu(), want)
    else:
        torch.testing.assert_close(data.cpu(), want)
    h = mul_add.warmup(data, grid=(1,), enable_fp_fusion=enable)
    assert has_fma(h) == enable


def test_fusion_is_part_of_the_key(device):
    data = torch.zeros(128, device=device)
    a = mul_add.warmup(data, grid=(1,))
    b = mul_add.warmup(data, grid=(1,), enable_fp_fusion=False)
    c = mul_add.warmup(data, grid=(1,), enable_fp_fusion=True)
    assert a is c and a is not b


@pytest.mark.parametrize("default", [False, True])
def test_default_fp_fusion_knob(device, default):
    data = torch.zeros(128, device=device)
    with knobs.language.scope():
        knobs.language.default_fp_fusion = default
        assert knobs.language.default_fp_fusion is default
        h = mul_add.warmup(data, grid=(1,))
        assert has_fma(h) == default
        # a launch that says so wins over the knob
        assert has_fma(mul_add.warmup(data, grid=(1,), enable_fp_fusion=not default)) != default
    assert knobs.language.default_fp_fusion is True


def test_mlir_backend_refuses_no_fusion():
    from mytriton import _C
    src = "import triton\nimport triton.language as tl\n@triton.jit\ndef k(x):\n    tl.store(x, 1.0)\n"
    with pytest.raises(triton.CompilationError, match="enable_fp_fusion=False is not supported "
                                                      "by the MLIR backend"):
        _C.compile(src, "k.py", "k", "*fp32", None, 4, "mlir", True, fp_fusion=False)
