"""Triton's JITFunction surface (issue 17): .src from the def line,
_unsafe_update_src (Triton's test suite stamps ops and dtypes into kernel
templates with it), JITFunction(fn), .params, .cache_key."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import line_of


@triton.jit
def template_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, GENERATE_TEST_HERE)  # noqa: F821


def test_src_starts_at_def():
    k = triton.JITFunction(template_kernel.fn)
    assert k.src.startswith("def template_kernel(x, out, BLOCK: tl.constexpr):")
    assert "@triton.jit" not in k.src


def test_unsafe_update_src_recompiles(device):
    k = triton.JITFunction(template_kernel.fn)
    key0 = k.cache_key
    k._unsafe_update_src(k.src.replace("GENERATE_TEST_HERE", "tl.exp(v) + 1"))
    assert k.cache_key != key0
    x = torch.linspace(-2, 2, 16, device=device)
    out = torch.empty_like(x)
    k[(1,)](x, out, BLOCK=16)
    torch.testing.assert_close(out, x.exp() + 1)
    # a second update forgets the compiled specialization of the first
    k._unsafe_update_src(k.src.replace("tl.exp(v) + 1", "v * 3.0"))
    k[(1,)](x, out, BLOCK=16)
    torch.testing.assert_close(out, x * 3.0)


def test_unsafe_update_src_errors_point_into_the_file():
    k = triton.JITFunction(template_kernel.fn)
    k._unsafe_update_src(k.src.replace("GENERATE_TEST_HERE", "v * NOT_DEFINED"))
    with pytest.raises(triton.CompilationError) as info:
        k.compile(torch.zeros(4), torch.zeros(4), BLOCK=4, stages_only=True)
    assert info.value.lineno == line_of(template_kernel, "GENERATE_TEST_HERE")
    assert "'NOT_DEFINED' is not defined" in str(info.value)


def test_unsafe_update_src_must_define_the_kernel():
    k = triton.JITFunction(template_kernel.fn)
    with pytest.raises(ValueError, match="def template_kernel"):
        k._unsafe_update_src("def other(x):\n    pass\n")


def test_params():
    p = template_kernel.params
    assert [(q.num, q.name, q.is_constexpr) for q in p] == [
        (0, "x", False), (1, "out", False), (2, "BLOCK", True)]


@triton.jit
def cast_kernel(x, out, DT: tl.constexpr, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(out + o, (tl.load(x + o) * 2.5).to(DT))


def test_dtype_constexpr(device):
    x = torch.arange(8.0, device=device)
    as_int = torch.zeros(8, dtype=torch.int32, device=device)
    cast_kernel[(1,)](x, as_int, DT=tl.int32, N=8)
    assert as_int.tolist() == [int(v * 2.5) for v in range(8)]
    as_float = torch.zeros(8, device=device)
    cast_kernel[(1,)](x, as_float, tl.constexpr(tl.float32), N=8)
    assert as_float.tolist() == [v * 2.5 for v in range(8)]
    # f32 -> f16 rounds to nearest even, then the store widens it back
    cast_kernel[(1,)](x, as_float, DT=tl.float16, N=8)
    assert as_float.tolist() == [float(np.float16(v * 2.5)) for v in range(8)]
    with pytest.raises(triton.CompilationError, match="dtype float8e4b15 is not supported"):
        cast_kernel[(1,)](x, as_float, DT=tl.float8e4b15, N=8)
