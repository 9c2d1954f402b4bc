"""Triton's launch API on a JIT function: a launch returns the compiled
kernel, kernel.run(..., grid=, warmup=), kernel.warmup(...) (torch dtypes
standing for tensors), and what the compiled kernel tells: n_regs,
n_spills, n_max_threads, metadata (shared bytes of the plan, num_warps),
the asm dict, and compiled[grid](*args)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import _C


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit
def row_max_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs, mask=offs < n, other=-float("inf"))
    tl.store(out, tl.max(v, axis=0))


def _inputs(device, n=100):
    x = torch.rand(n, device=device)
    y = torch.rand(n, device=device)
    return x, y, torch.zeros(n, device=device)


def test_launch_returns_the_compiled_kernel(device):
    x, y, out = _inputs(device)
    k = add_kernel[(4,)](x, y, out, 100, BLOCK=32)
    assert isinstance(k, triton.CompiledKernel) and k.name == "add_kernel"
    assert torch.equal(out, x + y)
    assert add_kernel[(4,)](x, y, out, 100, BLOCK=32) is k  # the cached one
    assert add_kernel[(2,)](x, y, out, 100, BLOCK=64) is not k


def test_run_launches_or_only_compiles(device):
    x, y, out = _inputs(device)
    k = add_kernel.run(x, y, out, 100, BLOCK=32, grid=(4,))
    assert torch.equal(out, x + y)
    out.zero_()
    w = add_kernel.run(x, y, out, 100, BLOCK=16, grid=(7,), warmup=True)
    assert w is not k and w.name == "add_kernel"
    assert torch.count_nonzero(out) == 0  # compiled, not launched
    assert add_kernel.run(x, y, out, 100, BLOCK=16, grid=lambda m: (7,)) is w
    assert torch.equal(out, x + y)
    with pytest.raises(TypeError, match="grid"):
        add_kernel.run(x, y, out, 100, BLOCK=16)


def test_warmup_takes_dtypes_for_tensors(device):
    """A dtype stands for a tensor on the active device (the GPU when there
    is one): the launch with real tensors there finds the same kernel."""
    x, y, out = _inputs(device)
    block = 128 if device == "cpu" else 256  # a fresh specialization per device
    calls = add_kernel.cache_info()["compiles"]
    w = add_kernel.warmup(torch.float32, torch.float32, torch.float32, 100, BLOCK=block,
                          num_warps=2, num_stages=3, grid=(1,))
    assert add_kernel.cache_info()["compiles"] == calls + 1
    assert torch.count_nonzero(out) == 0
    assert w.num_warps == 2 and w.metadata.num_warps == 2
    assert w.signature.startswith("*fp32:16, *fp32:16, *fp32:16, i32")
    active = "cuda" if torch.cuda.is_available() else "cpu"
    launched = add_kernel[(1,)](x, y, out, 100, BLOCK=block, num_warps=2)
    assert torch.equal(out, x + y)
    # the same specialization as real (aligned) tensors on the active device
    assert (launched is w) == (torch.device(device).type == active)
    assert add_kernel.warmup(torch.int32, torch.int32, torch.int32, 100,
                             BLOCK=block).signature.startswith("*i32:16")


def test_usage_and_metadata(device):
    x, _, out = _inputs(device)
    k = row_max_kernel.warmup(x, out, 100, BLOCK=128, num_warps=8)
    k._init_handles()
    if device == "cpu":
        assert (k.n_regs, k.n_spills, k.n_max_threads) == (32, 0, 1024)  # nominal
        assert k.metadata.target.backend == "cpu"
    else:
        assert 0 < k.n_regs <= 255 and k.n_spills >= 0
        assert k.n_max_threads >= 8 * 32
        assert k.metadata.target.backend == "cuda"
    # a cross-warp reduction keeps one partial per warp in shared memory
    assert k.metadata.shared == k.shared and k.shared >= 8 * 4
    assert add_kernel.warmup(x, x, out, 100, BLOCK=32).metadata.shared == 0
    md = k.metadata
    assert (md.name, md.num_warps, md.num_ctas) == ("row_max_kernel", 8, 1)
    assert md.signature == k.signature


def test_asm_dict(device):
    x, y, out = _inputs(device)
    k = add_kernel[(4,)](x, y, out, 100, BLOCK=32)
    assert "cuda" in k.asm and "ssa-opt" in k.asm
    assert 'extern "C" __global__' in k.asm["cuda"]
    assert k.asm["cuda"] is k.asm["cuda"]  # fetched once
    with pytest.raises(KeyError):
        k.asm["ttgir"]


def test_compiled_kernel_launches_by_grid(device):
    x, y, out = _inputs(device)
    k = add_kernel.warmup(x, y, out, 100, BLOCK=32, grid=(1,))
    assert torch.count_nonzero(out) == 0
    k[(4, 1, 1)](x, y, out, 100, 32)  # every argument, constexprs included
    assert torch.equal(out, x + y)
    with pytest.raises(NotImplementedError, match="stream"):
        k[(4, 1, 1)](x, y, out, 100, 32, stream=1234)


def test_compiled_kernel_errors():
    x, y, out = _inputs("cpu")
    k = add_kernel.compile(x, y, out, 100, BLOCK=4, stages_only=True)
    assert "add_kernel" in k.asm["cuda"]
    with pytest.raises(ValueError, match="stages_only"):
        k.n_regs
    with pytest.raises(TypeError, match="subclass of Kernel"):
        _C.compile("", "f.py", "k", "", None, 4, "host", True, int)
    source, filename = add_kernel._source()
    bare = _C.compile(source, filename, "add_kernel", "*fp32, *fp32, *fp32, i32, 32",
                      None, 4, "host", False, triton.CompiledKernel)
    with pytest.raises(RuntimeError, match="outside a JIT function"):
        bare[(1,)]
    assert bare.n_regs == 32


def test_launch_options_of_triton_are_accepted():
    x, y, out = _inputs("cpu")
    k = add_kernel[(4,)](x, y, out, 100, BLOCK=32, num_stages=2, num_ctas=1, maxnreg=128)
    assert torch.equal(out, x + y) and k.num_warps == 4
    # the HIP options of tutorial 03's configs (taken off CUDA)
    out.zero_()
    add_kernel[(4,)](x, y, out, 100, BLOCK=32, matrix_instr_nonkdim=16, waves_per_eu=2, kpack=1)
    assert torch.equal(out, x + y)
    with pytest.raises(TypeError, match="unexpected keyword argument 'BLOKC'"):
        add_kernel[(4,)](x, y, out, 100, BLOKC=32)
