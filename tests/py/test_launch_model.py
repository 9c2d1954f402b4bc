"""The program model on the host backend: 3-D grids, non-contiguous tensors
(views compute on the view: the data pointer includes the storage offset,
nothing is made contiguous), None arguments (a constexpr None, as Triton
specialises them), bool/int/float scalars, and grids with a zero
dimension (nothing runs, nothing is raised)."""
import os
import sys

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl


# The kernels of the differential corpus's cases for these features, bound
# to mytriton: here they run on more shapes and inputs than the cases do.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
import diffrun  # noqa: E402

coords_kernel = diffrun.load("launch_grid3d", "mytriton").coords_kernel
affine_kernel = diffrun.load("launch_none_arg", "mytriton").affine_kernel


# ------------------------------------------------------------- 3-D grids

@pytest.mark.parametrize("grid", [(5,), (3, 4), (2, 3, 4), (1, 1, 7), (4, 1, 3)])
def test_program_ids_on_every_axis(grid):
    g = tuple(grid) + (1,) * (3 - len(grid))
    out = torch.full((g[0] * g[1] * g[2], 6), -1, dtype=torch.int32)
    coords_kernel[grid](out)
    want = torch.tensor([[i, j, k, *g] for k in range(g[2]) for j in range(g[1])
                         for i in range(g[0])], dtype=torch.int32)
    assert torch.equal(out, want)


def test_program_id_axis_out_of_range_is_located():
    @triton.jit
    def bad_axis(out):
        tl.store(out, tl.program_id(3))

    with pytest.raises(triton.CompilationError, match="axis") as e:
        bad_axis[(1,)](torch.zeros(1, dtype=torch.int32))
    # Triton's message, on __cause__ where Triton's tests read it
    cause = e.value.__cause__
    assert isinstance(cause, ValueError)
    assert str(cause) == "tl.program_id axis must be 0, 1, or 2 but got 3"


# ------------------------------------------------- non-contiguous tensors

@triton.jit
def scale_2d_kernel(src, dst, M, N, s_m, s_n, d_m, d_n, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)[:, None]
    rn = tl.program_id(1) * BN + tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    v = tl.load(src + rm * s_m + rn * s_n, mask=mask)
    tl.store(dst + rm * d_m + rn * d_n, v * 3, mask=mask)


def scale_2d(src, dst):
    M, N = src.shape
    grid = (triton.cdiv(M, 8), triton.cdiv(N, 8))
    if isinstance(src, np.ndarray):
        strides = [s // src.itemsize for s in src.strides + dst.strides]
    else:
        strides = [*src.stride(), *dst.stride()]
    scale_2d_kernel[grid](src, dst, M, N, *strides, BM=8, BN=8)


@pytest.mark.parametrize("view", ["transposed", "sliced", "stepped", "column", "expanded"])
def test_views_compute_on_the_view(view):
    base = torch.arange(30 * 20, dtype=torch.float32).reshape(30, 20)
    src = {"transposed": base.t(), "sliced": base[5:17, 3:19],
           "stepped": base[1::3, ::2], "column": base[:, 7:8],
           "expanded": base[2].expand(9, 20)}[view]
    assert view == "expanded" or not src.is_contiguous() or src.storage_offset() > 0
    dst = torch.zeros(src.shape[1] + 3, src.shape[0] + 2).t()[:src.shape[0], :src.shape[1]]
    before = base.clone()
    scale_2d(src, dst)
    assert torch.equal(dst, src * 3)
    assert torch.equal(base, before)  # the source is read in place, not copied
    assert dst.data_ptr() != dst.contiguous().data_ptr() or dst.is_contiguous()


def test_numpy_views():
    base = np.arange(12 * 10, dtype=np.float32).reshape(12, 10)
    src = base[2:11:2, 1:].T  # offset, stepped and transposed
    dst = np.zeros((src.shape[1], src.shape[0]), dtype=np.float32).T
    scale_2d(src, dst)
    np.testing.assert_array_equal(dst, src * 3)


def test_offset_pointer_loses_the_alignment_hint():
    base = torch.arange(64, dtype=torch.float32)
    out = torch.zeros(64, 64)
    scale_2d(base[1:].reshape(1, 63), out[:1, :63])
    assert torch.equal(out[0, :63], base[1:] * 3)
    sig = scale_2d_kernel.last_compiled.signature
    assert sig.startswith("*fp32, *fp32:16")  # 4 bytes past an aligned start


# ---------------------------------------------------------- None arguments

def test_none_is_a_constexpr_none():
    n = 10
    x, w, b = torch.arange(n) * 1.0, torch.full((n,), 2.0), torch.full((n,), 0.5)
    want = {(True, True): x * w + b, (True, False): x * w - 1, (False, True): x + b,
            (False, False): x - 1}
    before = affine_kernel.cache_info()["compiles"]
    for (hw, hb), expect in want.items():
        out = torch.zeros(n)
        k = affine_kernel[(1,)](x, w if hw else None, b if hb else None, out, n, BLOCK=16)
        assert torch.equal(out, expect), (hw, hb)
    assert affine_kernel.cache_info()["compiles"] - before == 4  # one each
    k = affine_kernel.warmup(x, None, None, out, n, BLOCK=16)
    assert k.signature == "*fp32:16, None, None, *fp32:16, i32, 16"
    assert [name for name, _ in k.params] == ["x", "out", "n"]  # no slot for None


def test_none_for_a_scalar_and_an_annotated_parameter():
    @triton.jit
    def pick(out, scale, bias: tl.float32):
        v = 1.0
        if scale is not None:
            v = v * scale
        if bias is not None:
            v = v + bias
        tl.store(out, v)

    out = torch.zeros(1)
    for scale, bias, want in ((None, None, 1.0), (4.0, None, 4.0), (None, 2, 3.0),
                              (3.0, 0.5, 3.5)):
        pick[(1,)](out, scale, bias)
        assert out.item() == want


def test_annotated_float_takes_ints_and_bools_by_value():
    @triton.jit
    def put(out, d: tl.float32, n: tl.int64):
        tl.store(out, d + n.to(tl.float32))

    out = torch.zeros(1)
    for d, want in ((2, 5.0), (True, 4.0), (2**40, 2.0**40), (2**64 - 1, 2.0**64),  # fp32 sums
                    (-7, -4.0), (0.25, 3.25)):
        put[(1,)](out, d, 3)
        assert out.item() == want, d
    with pytest.raises(TypeError, match="argument 'n' is annotated int64, got the float 1.5"):
        put[(1,)](out, 1.0, 1.5)


def test_none_where_a_tensor_is_used_is_a_located_error():
    @triton.jit
    def needs_x(x, out):
        tl.store(out, tl.load(x))

    with pytest.raises(triton.CompilationError, match="test_launch_model.py"):
        needs_x[(1,)](None, torch.zeros(1))


# ------------------------------------------------------------------ scalars

@triton.jit
def scalar_kernel(out, flag, i, f):
    r = f * 2.0
    tl.store(out, tl.where(flag, -r, r))
    tl.store(out + 1, (i % 1000).to(tl.float32))
    tl.store(out + 2, flag.to(tl.float32))


def test_scalar_arguments():
    out = torch.zeros(3)
    # i % 1000 with Triton's integer remainder (the dividend's sign; u64
    # unsigned)
    for flag, i, f, rem in ((True, 7, 1.5, 7), (False, 2**31 - 1, -0.25, 647),
                            (True, 2**31 + 1, 3.0, 649), (False, -2**40, 0.1, -776),
                            (True, 2**64 - 1, 1e30, 615)):
        scalar_kernel[(1,)](out, flag, i, f)
        r = float(np.float32(f) * np.float32(2.0))  # f travels as fp32
        assert out.tolist() == [-r if flag else r, rem, float(flag)], (flag, i, f)
    sigs = {k.signature.split(", ", 1)[1] for k in scalar_kernel.cache.values()}
    assert {"i1, i32, fp32", "i1, i64, fp32", "i1, i64:16, fp32", "i1, u64, fp32"} <= sigs


def test_numpy_scalars_are_their_python_values():
    out = torch.zeros(3)
    scalar_kernel[(1,)](out, np.bool_(True), np.int64(12), np.float32(0.5))
    assert out.tolist() == [-1.0, 12.0, 1.0]


# ---------------------------------------------------------------- zero grids

@triton.jit
def mark_kernel(out, value):
    tl.store(out + tl.program_id(0), value)


@pytest.mark.parametrize("grid", [0, (0,), (3, 0), (2, 2, 0), [0, 5, 5], lambda m: (0,)])
def test_a_zero_grid_launches_nothing(grid):
    out = torch.zeros(4, dtype=torch.int32)
    k = mark_kernel[grid](out, 7)
    assert torch.count_nonzero(out) == 0
    assert isinstance(k, triton.CompiledKernel)  # compiled as Triton does, not run
    mark_kernel[(2,)](out, 7)
    assert out.tolist() == [7, 7, 0, 0]


def test_a_zero_grid_still_compiles():
    @triton.jit
    def broken(out):
        tl.store(out, undefined_name)  # noqa: F821

    with pytest.raises(triton.CompilationError, match="undefined_name"):
        broken[(0,)](torch.zeros(1))


@pytest.mark.parametrize("grid", [-1, (2, -1), (1, 2, 3, 4), (), (1.0,), (True,)])
def test_bad_grids_are_refused(grid):
    with pytest.raises(ValueError, match="invalid launch grid"):
        mark_kernel[grid](torch.zeros(4, dtype=torch.int32), 1)
