"""8.3: codegen properties, launch validation and the specialization cache."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, poisoned, same_bits, stages

ENABLED = True


@triton.jit
def two_width_kernel(out, n):
    small = tl.arange(0, 128)
    large = tl.arange(0, 256)
    tl.store(out + small, 1.0, mask=small < n)
    tl.store(out + 256 + large, 2.0, mask=large < n)


@triton.jit
def tile_kernel(out, n, TILE_SIZE: tl.constexpr):
    offs = tl.program_id(0) * TILE_SIZE + tl.arange(0, TILE_SIZE)
    tl.store(out + offs, 1.0, mask=offs < n)


@triton.jit
def scalar_copy_kernel(source, out):
    tl.store(out, tl.load(source))


@triton.jit
def nested_pointer_kernel(out):
    tl.store(out + 1 + 2, 1.0)


@triton.jit
def nonzero_range_kernel(out):
    r = tl.arange(4, 8)
    tl.store(out + r - 4, r)


@triton.jit
def literal_kernel(out):
    tl.store(out, float("nan"))
    tl.store(out + 1, float("inf"))
    tl.store(out + 2, float("-inf"))


@triton.jit
def compile_only_kernel(x, y, out, n, TILE: tl.constexpr):
    offs = tl.program_id(0) * TILE + tl.arange(0, TILE)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)


@triton.jit
def constexpr_type_kernel(out, VALUE: tl.constexpr):
    tl.store(out, 1.0 if type(VALUE) is bool else 2.0)


@triton.jit
def constexpr_value_kernel(out, VALUE: tl.constexpr):
    tl.store(out, VALUE)


@triton.jit
def global_flag_kernel(out):
    tl.store(out, 1.0 if ENABLED else 0.0)


@triton.jit
def scaled_kernel(x, out, n, scale, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs, mask=offs < n) * scale, mask=offs < n)


@triton.jit
def strided_kernel(x, out, n, stride, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.load(x + offs * stride, mask=offs < n), mask=offs < n)


def test_two_widths_in_one_kernel(device):
    out = poisoned(device, 512)
    two_width_kernel[(1,)](out, 100)
    o = out.cpu()
    assert (o[:100] == 1.0).all() and (o[256:356] == 2.0).all()


def test_tile_kernel_uses_thread_index():
    assert "threadIdx.x" in stages(tile_kernel, torch.zeros(64), 64, TILE_SIZE=32)["cuda"]


def test_scalar_copy(device):
    src = torch.tensor([3.5], device=device)
    out = poisoned(device, 1)
    scalar_copy_kernel[(1,)](src, out)
    assert out.item() == 3.5


def test_nested_pointer(device):
    out = torch.zeros(4, device=device)
    nested_pointer_kernel[(1,)](out)
    close(out, torch.tensor([0.0, 0.0, 0.0, 1.0]), rtol=0, atol=0)


def test_nonzero_arange_start(device):
    out = poisoned(device, 4)
    nonzero_range_kernel[(1,)](out)
    close(out, torch.tensor([4.0, 5.0, 6.0, 7.0]), rtol=0, atol=0)


def test_special_float_literals(device):
    out = torch.zeros(3, device=device)
    literal_kernel[(1,)](out)
    same_bits(out, np.array([np.nan, np.inf, -np.inf], dtype=np.float32))


# (a 0 is a valid grid with no programs: tests/py/test_launch_model.py)
@pytest.mark.parametrize("grid", [(True,), (1, 2, 3, 4), (), (1.0,), "x", -1, (2 ** 40,)])
def test_invalid_grid(grid):
    x = np.zeros(8, np.float32)
    before = compile_only_kernel.cache_info()["compiles"]
    with pytest.raises(ValueError, match="invalid launch grid"):
        compile_only_kernel[grid](x, x, x, 8, TILE=8)
    assert compile_only_kernel.cache_info()["compiles"] == before


def test_numpy_call_runs_on_host():
    x = np.arange(8, dtype=np.float32)
    out = np.full(8, np.nan, dtype=np.float32)
    compile_only_kernel[(1,)](x, x, out, 8, TILE=8)
    np.testing.assert_array_equal(out, 2 * x)


def test_cache_hit_and_misses():
    x = np.zeros(64, np.float32)  # large enough for every launch below
    compile_only_kernel.clear_cache()
    base = compile_only_kernel.cache_info()["compiles"]
    compile_only_kernel[(1,)](x, x, x, 16, TILE=16)
    compile_only_kernel[(1,)](x, x, x, 16, TILE=16)
    compile_only_kernel[(2,)](x, x, x, 32, TILE=16)         # other grid, same key
    assert compile_only_kernel.cache_info()["compiles"] == base + 1
    assert compile_only_kernel.cache_info()["hits"] >= 2
    compile_only_kernel[(1,)](x, x, x, 16, TILE=8)           # other constexpr
    assert compile_only_kernel.cache_info()["compiles"] == base + 2
    compile_only_kernel[(1,)](x, x, x, 16, TILE=8, num_warps=2)  # other num_warps
    assert compile_only_kernel.cache_info()["compiles"] == base + 3
    xi = np.zeros(64, np.int32)
    compile_only_kernel[(1,)](xi, xi, xi, 16, TILE=8)       # other dtypes
    assert compile_only_kernel.cache_info()["compiles"] == base + 4
    compile_only_kernel[(1,)](x, x, x, 2 ** 33, TILE=8)     # i64 instead of i32
    assert compile_only_kernel.cache_info()["compiles"] == base + 5
    compile_only_kernel.clear_cache()
    compile_only_kernel[(1,)](x, x, x, 16, TILE=16)
    assert compile_only_kernel.cache_info()["compiles"] == base + 6
    # like Triton, an int that is a multiple of 16 is its own specialisation
    # (the compiler may use it to prove 16-byte alignment); others share one
    compile_only_kernel[(1,)](x, x, x, 7, TILE=16)
    compile_only_kernel[(1,)](x, x, x, 9, TILE=16)
    assert compile_only_kernel.cache_info()["compiles"] == base + 7


def test_int_divisibility_in_signature():
    x = np.zeros(16, np.float32)
    assert "i32:16" in compile_only_kernel.warmup(x, x, x, 32, TILE=16, grid=(1,)).signature
    sig = compile_only_kernel.warmup(x, x, x, 33, TILE=16, grid=(1,)).signature
    assert "i32:16" not in sig and "i32" in sig


def test_int_vs_float_runtime_arg_miss():
    out = np.zeros(4, np.float32)
    before = scaled_kernel.cache_info()["compiles"]
    sigs = set()
    for stride in (1, 1.0):
        k = scaled_kernel.warmup(out, out, 4, stride, BLOCK=4, grid=(1,))
        sigs.add(tuple(k.params))
    assert scaled_kernel.cache_info()["compiles"] == before + 2
    assert len(sigs) == 2


def test_constexpr_true_vs_one(device):
    out = poisoned(device, 1)
    constexpr_type_kernel[(1,)](out, VALUE=True)
    assert out.item() == 1.0
    constexpr_type_kernel[(1,)](out, VALUE=1)
    assert out.item() == 2.0


def test_constexpr_zero_signs(device):
    out = poisoned(device, 1)
    constexpr_value_kernel[(1,)](out, VALUE=0.0)
    same_bits(out, np.array([0.0], np.float32))
    constexpr_value_kernel[(1,)](out, VALUE=-0.0)
    same_bits(out, np.array([-0.0], np.float32))


def test_constexpr_wrapper_and_list():
    out = torch.zeros(1)
    constexpr_value_kernel[(1,)](out, VALUE=tl.constexpr(3))
    assert out.item() == 3.0
    with pytest.raises(TypeError, match="constexpr value must be bool, int, float, str, a tl.dtype or a tuple"):
        constexpr_value_kernel[(1,)](out, VALUE=[1, 2])


def test_global_flag(device):
    out = poisoned(device, 1)
    global_flag_kernel[(1,)](out)
    assert out.item() == 1.0


def test_non_contiguous_tensor_passes_data_pointer(device):
    base = torch.arange(24, dtype=torch.float32, device=device).reshape(6, 4)
    column = base[:, 1]
    assert not column.is_contiguous()
    out = poisoned(device, 6)
    strided_kernel[(1,)](column, out, 6, column.stride(0), BLOCK=8)
    close(out, column, rtol=0, atol=0)


@triton.jit
def reshape_to_kernel(x, z, SHAPE: tl.constexpr, N: tl.constexpr):
    offs = tl.arange(0, N)
    v = tl.reshape(tl.load(x + offs), SHAPE)
    r = tl.arange(0, SHAPE[0])[:, None] * SHAPE[1] + tl.arange(0, SHAPE[1])[None, :]
    tl.store(z + r, v * len(SHAPE))


def test_tuple_constexprs(device):
    """A tuple constexpr (test_core's test_reshape passes its shape so):
    each tuple is its own specialization, as Triton keys it by value."""
    x = torch.arange(32, dtype=torch.float32, device=device)
    for shape in ((4, 8), (8, 4), (2, 16)):
        z = torch.zeros(32, device=device)
        reshape_to_kernel[(1,)](x, z, SHAPE=shape, N=32)
        assert torch.equal(z.cpu(), x.cpu() * 2), shape
    assert len([k for k in reshape_to_kernel.cache]) >= 3
    with pytest.raises(TypeError, match="'SHAPE'.*or a tuple of them, got"):
        reshape_to_kernel[(1,)](x, x, SHAPE=(4, object()), N=32)
