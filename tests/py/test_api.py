"""The package surface: decorator, launch argument checks, errors, asm."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, poisoned


@triton.jit
def fill_kernel(out, n, value, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, value, mask=offs < n)


@triton.jit(do_not_specialize=["n"], debug=False)
def fill_kernel2(out, n, value, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, value, mask=offs < n)


@triton.jit
def broken_kernel(out):
    tl.store(out, undefined_name)


def test_helpers():
    assert triton.cdiv(10, 4) == 3 and triton.cdiv(8, 4) == 2
    assert [triton.next_power_of_2(v) for v in (1, 2, 3, 5, 1024, 1025)] == [1, 2, 4, 8, 1024, 2048]
    for bad in (0, -3):
        with pytest.raises(ValueError, match="value must be positive"):
            triton.next_power_of_2(bad)
    assert isinstance(triton.cuda_available(), bool)


def test_language_names_and_outside_calls():
    for name in ("program_id", "num_programs", "arange", "load", "store", "exp", "log", "sqrt",
                 "abs", "minimum", "maximum", "where", "sum", "max", "min", "zeros", "full",
                 "empty", "zeros_like", "cdiv", "dot", "expand_dims", "broadcast_to", "cast",
                 "multiple_of", "max_contiguous", "static_range", "static_assert",
                 "static_print", "constexpr", "int1", "int32", "int64", "float32"):
        assert hasattr(tl, name), name
    assert tl.float32.name == "fp32" and tl.int1.name == "int1"
    assert tl.constexpr(3).value == 3
    with pytest.raises(RuntimeError, match="inside a @mytriton.jit kernel"):
        tl.load(None)
    with pytest.raises(RuntimeError):
        tl.static_range(4)
    with pytest.raises(RuntimeError, match="launch it with"):
        fill_kernel(None, 1, 1.0)


def test_decoration_compiles_nothing():
    def kernel(out):
        tl.store(out, this_name_does_not_exist)
    k = triton.jit(kernel)
    assert k.cache_info() == {"compiles": 0, "hits": 0, "size": 0}


def test_defaults_and_keywords(device):
    out = poisoned(device, 100)
    fill_kernel[(2,)](out, n=100, value=1.5)
    close(out, torch.full((100,), 1.5), rtol=0, atol=0)
    fill_kernel2[lambda m: (triton.cdiv(100, m["BLOCK"]),)](out, 100, 2.5, BLOCK=32)
    close(out, torch.full((100,), 2.5), rtol=0, atol=0)


def test_argument_errors():
    out = torch.zeros(8)
    with pytest.raises(TypeError, match="missing required argument 'value'"):
        fill_kernel[(1,)](out, 8)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        fill_kernel[(1,)](out, 8, 1.0, bogus=1)
    with pytest.raises(TypeError, match="takes 4 arguments but 5 were given"):
        fill_kernel[(1,)](out, 8, 1.0, 64, 5)
    with pytest.raises(TypeError, match="multiple values"):
        fill_kernel[(1,)](out, 8, 1.0, value=2.0)
    with pytest.raises(TypeError, match=r"'out'.*complex64.*no Triton equivalent"):
        fill_kernel[(1,)](torch.zeros(8, dtype=torch.complex64), 8, 1.0)
    with pytest.raises(TypeError, match=r"'out'.*complex128.*no Triton equivalent"):
        fill_kernel[(1,)](np.zeros(8, dtype=np.complex128), 8, 1.0)
    with pytest.raises(TypeError, match="'value'"):
        fill_kernel[(1,)](out, 8, "x")
    with pytest.raises(OverflowError, match="'n'"):
        fill_kernel[(1,)](out, 2 ** 64, 1.0)
    for nw in (0, 3, 64, True):
        with pytest.raises(ValueError, match="num_warps"):
            fill_kernel[(1,)](out, 8, 1.0, num_warps=nw)


def test_mixed_devices(cuda_device):
    with pytest.raises(TypeError, match="all tensors must be on the same device"):
        _mixed_add(torch.zeros(8), torch.zeros(8, device="cuda"))


@triton.jit
def copy2_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n), mask=offs < n)


def _mixed_add(a, b):
    copy2_kernel[(1,)](a, b, 8, BLOCK=8)


def test_dtypes(device):
    for dt in (torch.float32, torch.int32, torch.int64, torch.bool):
        x = (torch.arange(8) % 2).to(dt).to(device)
        out = torch.zeros(8, dtype=dt, device=device)
        copy2_kernel[(1,)](x, out, 8, BLOCK=8)
        assert torch.equal(out.cpu(), x.cpu()), dt


def test_compilation_error_location():
    with pytest.raises(triton.CompilationError) as info:
        broken_kernel[(1,)](torch.zeros(1))
    err = info.value
    assert isinstance(err, Exception)
    from mtutil import line_of
    line = line_of(broken_kernel, "undefined_name")
    assert err.filename.endswith("test_api.py") and err.lineno == line and err.col > 0
    first = str(err).splitlines()[0]
    assert first.endswith(first.split(": error: ")[1])
    assert f"test_api.py:{line}:{err.col}: error:" in first and "undefined_name" in first
    assert "^" in str(err).splitlines()[-1]


def test_compiled_kernel_asm():
    out = torch.zeros(8)
    c = fill_kernel.warmup(out, 8, 1.0, BLOCK=8, grid=(1,))
    cpu = {"cpu"} if c.backend == "cpu" else set()  # its C (MYTRITON_BACKEND=cpu)
    assert set(c.asm) == {"ast", "ssa", "ssa-opt", "ssa-layout", "cuda", "ptx"} | cpu
    if cpu:
        assert "mt_cpu_kernel" in c.asm["cpu"]
    for key in ("ast", "ssa", "ssa-opt", "ssa-layout", "cuda"):
        assert isinstance(c.asm[key], str) and c.asm[key]
    assert c.num_warps == 4 and c.shared >= 0
    assert c.params == [("out", "*fp32"), ("n", "i32"), ("value", "fp32")]
    assert fill_kernel.cache and all(isinstance(k, tuple) for k in fill_kernel.cache)
    c8 = fill_kernel.compile(out, 8, 1.0, BLOCK=8, num_warps=8, stages_only=True)
    assert c8.num_warps == 8


def test_ptx_needs_nvrtc():
    c = fill_kernel.compile(torch.zeros(8), 8, 1.0, BLOCK=8, stages_only=True)
    try:
        ptx = c.asm["ptx"]
    except RuntimeError as e:
        assert "nvrtc" in str(e).lower() or "cuda" in str(e).lower()
    else:
        assert ".entry" in ptx or ".visible" in ptx


def test_stage_names_come_from_the_library():
    from mytriton import _C
    # mt_stage order; a stage appended to the enum appears here by itself
    assert _C.STAGES[:6] == ("ast", "ssa", "ssa-opt", "cuda", "ptx", "cubin")
    assert len(set(_C.STAGES)) == len(_C.STAGES)
    c = fill_kernel.compile(torch.zeros(8), 8, 1.0, BLOCK=8, stages_only=True)
    # the MLIR module and the cpu backend's C belong to their backends'
    # kernels alone
    other = {"cubin", "mlir", "cpu"} - ({"cpu"} if c.backend == "cpu" else set())
    assert list(c.asm) == [s for s in _C.STAGES if s not in other]
    with pytest.raises(KeyError):
        c.asm["bogus"]
    k = _C.compile("def k(x):\n    pass\n", "k.py", "k", "*fp32", stages_only=True)
    assert "extern \"C\" __global__" in k.stage("cuda")
    assert k.stage(_C.STAGES.index("cuda")) == k.stage("cuda")
    for bad in ("bogus", 99, -1, len(_C.STAGES)):
        with pytest.raises(KeyError, match="expected one of"):
            k.stage(bad)
