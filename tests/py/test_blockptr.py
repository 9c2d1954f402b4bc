"""Block pointers (issue 9): tl.make_block_ptr, tl.advance, and tl.load /
tl.store through them with boundary_check= and padding_option=, as Triton
3.6 defines them.  Every kernel runs on the host backend against a torch
model; out-of-bounds elements of checked dims read the padding (zero or
NaN; "" leaves them undefined, so those are not compared), unchecked dims
are kept in bounds."""
import os
import sys

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, stages

# boundary_check per code (constexpr tuples are not launch arguments)
CHECKS = {0: (), 1: (0,), 2: (1,), 3: (0, 1)}


@triton.jit
def load2d_kernel(x, y, M, N, sxm, sxn, om, on, BM: tl.constexpr, BN: tl.constexpr,
                  BC: tl.constexpr, PAD: tl.constexpr):
    src = tl.make_block_ptr(x, (M, N), (sxm, sxn), (om, on), (BM, BN), (1, 0))
    if BC == 0:
        v = tl.load(src, padding_option=PAD)
    elif BC == 1:
        v = tl.load(src, boundary_check=(0,), padding_option=PAD)
    elif BC == 2:
        v = tl.load(src, boundary_check=(1,), padding_option=PAD)
    else:
        v = tl.load(src, boundary_check=(0, 1), padding_option=PAD)
    rows = tl.arange(0, BM)[:, None]
    cols = tl.arange(0, BN)[None, :]
    tl.store(y + rows * BN + cols, v)


def block_model(x, om, on, bm, bn, checks, pad):
    """The block at (om, on) of x: (values, which elements are defined)."""
    m, n = x.shape
    out = torch.zeros(bm, bn, dtype=x.dtype)
    defined = torch.ones(bm, bn, dtype=torch.bool)
    for i in range(bm):
        for j in range(bn):
            r, c = om + i, on + j
            inside = (0 <= r < m or 0 not in checks) and (0 <= c < n or 1 not in checks)
            if inside:
                out[i, j] = x[r, c]
            elif pad == "zero":
                out[i, j] = 0
            elif pad == "nan":
                out[i, j] = float("nan")
            else:
                defined[i, j] = False
    return out, defined


@pytest.mark.parametrize("code", sorted(CHECKS))
@pytest.mark.parametrize("pad", ["", "zero", "nan"])
def test_every_boundary_check_and_padding(code, pad):
    checks = CHECKS[code]
    x = torch.arange(6 * 8, dtype=torch.float32).reshape(6, 8) + 0.5
    bm, bn = 4, 8
    # out of bounds (both ends) only along the checked dims
    om = 4 if 0 in checks else 2
    on = -3 if 1 in checks else 0
    y = torch.full((bm, bn), -7.0)
    load2d_kernel[(1,)](x, y, 6, 8, x.stride(0), x.stride(1), om, on, BM=bm, BN=bn, BC=code,
                        PAD=pad)
    want, defined = block_model(x, om, on, bm, bn, checks, pad)
    torch.testing.assert_close(y[defined], want[defined], equal_nan=True, rtol=0, atol=0)


@triton.jit
def load1d_int_kernel(x, y, n, off, B: tl.constexpr):
    src = tl.make_block_ptr(base=x, shape=(n,), strides=(1,), offsets=(off,),
                            block_shape=(B,), order=(0,))
    tl.store(y + tl.arange(0, B), tl.load(src, boundary_check=(0,), padding_option="zero"))


def test_int_block_zero_padding():
    x = torch.arange(1, 11, dtype=torch.int32)
    y = torch.full((16,), -1, dtype=torch.int32)
    load1d_int_kernel[(1,)](x, y, 10, 3, B=16)
    want = torch.zeros(16, dtype=torch.int32)
    want[:7] = x[3:]
    assert torch.equal(y, want)


@triton.jit
def transposed_kernel(x, y, M, N, sm, sn, BM: tl.constexpr, BN: tl.constexpr):
    # x is a transposed view: column-major, order (0, 1)
    src = tl.make_block_ptr(x, (M, N), (sm, sn), (0, 0), (BM, BN), (0, 1))
    v = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    dst = tl.make_block_ptr(y, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    tl.store(dst, v)


def test_transposed_order():
    base = torch.arange(5 * 3, dtype=torch.float32).reshape(5, 3)
    x = base.t()  # (3, 5), strides (1, 3)
    y = torch.full((4, 8), -1.0)
    transposed_kernel[(1,)](x, y, 3, 5, x.stride(0), x.stride(1), BM=4, BN=8)
    want = torch.zeros(4, 8)
    want[:3, :5] = x
    assert torch.equal(y, want)


@triton.jit
def store_advance_kernel(x, y, M, N, om, on, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_block_ptr(x, (BM, BN), (BN, 1), (0, 0), (BM, BN), (1, 0))
    dst = tl.make_block_ptr(y, (M, N), (N, 1), (om, on), (BM, BN), (1, 0))
    v = tl.load(src)
    for i in range(3):  # unrolled: the block pointer changes at compile time
        tl.store(dst, v + i * 100, boundary_check=(0, 1))
        dst = dst.advance((BM, -1))


def test_store_with_boundary_check_and_advance():
    x = torch.arange(8, dtype=torch.float32).reshape(2, 4)
    y = torch.full((5, 6), -1.0)
    store_advance_kernel[(1,)](x, y, 5, 6, 0, 3, BM=2, BN=4)
    want = torch.full((5, 6), -1.0)
    for i in range(3):
        r0, c0 = 2 * i, 3 - i
        for a in range(2):
            for b in range(4):
                if r0 + a < 5 and c0 + b < 6:
                    want[r0 + a, c0 + b] = x[a, b] + i * 100
    assert torch.equal(y, want)


@triton.jit
def runtime_parts_kernel(x, y, M, N, sm, BM: tl.constexpr, BN: tl.constexpr):
    # runtime offsets, shape and stride (an i64 stride argument)
    pid = tl.program_id(0)
    src = tl.make_block_ptr(x, (M, N), (sm, 1), (pid * BM, 0), (BM, BN), (1, 0))
    v = tl.load(src, boundary_check=(0, 1), padding_option="nan")
    dst = tl.make_block_ptr(y, (M, N), (N, 1), (pid * BM, 0), (BM, BN), (1, 0))
    tl.store(dst, v * 2, boundary_check=(0, 1))


def test_runtime_offsets_shape_strides():
    x = torch.randn(13, 20)[:, :7]  # a sliced view: row stride 20
    y = torch.full((13, 7), -1.0)
    runtime_parts_kernel[(triton.cdiv(13, 4),)](x, y, 13, 7, x.stride(0), BM=4, BN=8)
    assert torch.equal(y, x * 2)


def test_matmul_block_pointers_runtime_loop():
    """The corpus's matmul through block pointers advanced in a runtime K
    loop (tests/diff/corpus/blockptr_matmul.py) against Triton's result."""
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
    import diffrun
    assert diffrun.compare("blockptr_matmul", "cpu") is None


@triton.jit
def bool_kernel(x, y, n, B: tl.constexpr):
    src = tl.make_block_ptr(x, (n,), (1,), (0,), (B,), (0,))
    v = tl.load(src, boundary_check=(0,), padding_option="zero")
    tl.store(y + tl.arange(0, B), v.to(tl.int32) + (v.dtype == tl.int8))


def test_bool_block_pointer_loads_int8():
    x = torch.tensor([True, False, True, True, False])
    y = torch.full((8,), -1, dtype=torch.int32)
    bool_kernel[(1,)](x, y, 5, B=8)
    assert y.tolist() == [2, 1, 2, 2, 1, 1, 1, 1]


def test_ssa_is_pointer_arithmetic():
    """A load through a block pointer is i64 address arithmetic and a masked
    load whose other is the padding."""
    x = torch.zeros(6, 8)
    y = torch.zeros(4, 8)
    ssa = stages(load2d_kernel, x, y, 6, 8, 8, 1, 0, 0, BM=4, BN=8, BC=2, PAD="nan")["ssa"]
    assert "vector<8 x i64>" in ssa or "block<1x8 x i64>" in ssa, ssa
    load = [l for l in ssa.splitlines() if "= load " in l]
    assert len(load) == 1 and ", nan :" in load[0], load


# ------------------------------------------------------------- errors

@triton.jit
def err_kernel(x, y, off64, WHICH: tl.constexpr):
    if WHICH == 0:
        p = tl.make_block_ptr(x, (4,), (1,), (off64,), (4,), (0,))
    elif WHICH == 1:
        p = tl.make_block_ptr(x, (4, 4), (4, 1), (0, 0), (4, 4), (0, 0))
    elif WHICH == 2:
        p = tl.make_block_ptr(x, (4, 4), (4, 1), (0,), (4, 4), (1, 0))
    elif WHICH == 3:
        p = tl.make_block_ptr(x + tl.arange(0, 4), (4,), (1,), (0,), (4,), (0,))
    elif WHICH == 4:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        tl.load(p, mask=tl.arange(0, 4) < 2)
    elif WHICH == 5:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        tl.load(p, boundary_check=(1,))
    elif WHICH == 6:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        tl.load(p, padding_option="inf")
    elif WHICH == 7:
        tl.load(x + tl.arange(0, 4), boundary_check=(0,))
    elif WHICH == 8:
        p = tl.make_block_ptr(y, (4,), (1,), (0,), (4,), (0,))
        tl.load(p, boundary_check=(0,), padding_option="nan")
    elif WHICH == 9:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        tl.store(p, tl.zeros((8,), dtype=tl.float32))
    elif WHICH == 10:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        tl.store(p, tl.zeros((4,), dtype=tl.float16))
    elif WHICH == 11:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        p = tl.advance(p, (1, 2))
    elif WHICH == 12:
        p = tl.make_block_ptr(x, (4,), (1,), (0,), (4,), (0,))
        tl.load(p, boundary_check=(0, 0))
    elif WHICH == 13:
        tl.advance(x, (1,))


ERRORS = [
    (0, "(off64,)", "32-bit offsets"),
    (1, "(0, 0))", "permutation"),
    (2, "p = tl.make_block_ptr(x, (4, 4), (4, 1), (0,)", "same length"),
    (3, "x + tl.arange(0, 4), (4,)", "scalar pointer"),
    (4, "mask=tl.arange(0, 4) < 2", "mask and other cannot"),
    (5, "boundary_check=(1,))", r"dims must be integers in \[0, 1\)"),
    (6, 'padding_option="inf"', "'inf' is not supported"),
    (7, "boundary_check=(0,))", "need a block pointer"),
    (8, 'padding_option="nan")', "integer block pointers"),
    (9, "tl.zeros((8,), dtype=tl.float32))", r"block is vector<4 x f32> but the value is vector<8 x f32>"),
    (10, "tl.zeros((4,), dtype=tl.float16))", "element type is float32"),
    (11, "(1, 2))", "needs 1 offsets, got 2"),
    (12, "boundary_check=(0, 0))", "duplicate dimension 0"),
    (13, "tl.advance(x, (1,))", "expects a block pointer"),
]


@pytest.mark.parametrize("which,needle,pattern", ERRORS)
def test_located_errors(which, needle, pattern):
    x = torch.zeros(16)
    y = torch.zeros(16, dtype=torch.int32)
    off64 = torch.tensor(0, dtype=torch.int64)
    assert_compile_error(err_kernel, (x, y, 2**40), {"WHICH": which}, needle=needle,
                         pattern=pattern)
