"""8.5: maximum/minimum, neg, exp, where, reductions."""
import re

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, ops, poisoned, same_bits, stages


@triton.jit
def maximum_const_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.maximum(tl.load(x + offs), 2.0))


@triton.jit
def minimum_const_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.minimum(tl.load(x + offs), 2.0))


@triton.jit
def int_maximum_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.maximum(tl.load(x + offs), 2))


@triton.jit
def promote_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.maximum(tl.load(x + offs), 2.5))


@triton.jit
def neg_exp_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.exp(-tl.load(x + offs)))


@triton.jit
def int_neg_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, -tl.load(x + offs))


@triton.jit
def exp_int_kernel(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.exp(offs))


@triton.jit
def where_kernel(x, out, flag, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.where(flag, tl.load(x + offs), 0.0))


@triton.jit
def reduce_kernel(x, out, OP: tl.constexpr):
    offs = tl.arange(0, 4)
    values = tl.load(x + offs)
    if OP == "sum":
        r = tl.sum(values, axis=0)
    elif OP == "max":
        r = tl.max(values, axis=0)
    else:
        r = tl.min(values, axis=0)
    tl.store(out, r)


@triton.jit
def reduce_scalar_kernel(x, out):
    tl.store(out, tl.sum(tl.load(x), axis=0))


@triton.jit
def reduce_bool_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out, tl.sum(offs < 2, axis=0))


@triton.jit
def pair_maximum_kernel(x, y, out):
    tl.store(out, tl.maximum(tl.load(x), tl.load(y)))


@triton.jit
def pair_minimum_kernel(x, y, out):
    tl.store(out, tl.minimum(tl.load(x), tl.load(y)))


@triton.jit
def pair_maximum_nan_kernel(x, y, out):
    tl.store(out, tl.maximum(tl.load(x), tl.load(y), propagate_nan=tl.PropagateNan.ALL))


@triton.jit
def pair_minimum_nan_kernel(x, y, out):
    tl.store(out, tl.minimum(tl.load(x), tl.load(y), propagate_nan=tl.PropagateNan.ALL))


@pytest.mark.parametrize("kernel,op", [(maximum_const_kernel, "maximum"),
                                       (minimum_const_kernel, "minimum")])
def test_f32_extremum_codegen(kernel, op):
    asm = stages(kernel, torch.zeros(4), torch.zeros(4), BLOCK=4)
    assert re.search(rf"= {op} %\d+, 2\.0 : vector<4 x f32>", asm["ssa-opt"]), asm["ssa-opt"]
    # maxnumf/minnumf: the runtime's function (max.f32/min.f32 on the GPU)
    assert f"mt_f{op[:3]}numf(" in asm["cuda"], asm["cuda"]


def test_i32_extremum_codegen():
    x = torch.zeros(4, dtype=torch.int32)
    asm = stages(int_maximum_kernel, x, x, BLOCK=4)
    assert re.search(r"= maximum %\d+, 2 : vector<4 x i32>", asm["ssa-opt"]), asm["ssa-opt"]


def test_i32_f32_promotion():
    x = torch.zeros(4, dtype=torch.int32)
    ssa = stages(promote_kernel, x, torch.zeros(4), BLOCK=4)["ssa-opt"]
    assert re.search(r"= maximum %\d+, 2\.5 : vector<4 x f32>", ssa), ssa


def test_neg_exp_codegen():
    asm = stages(neg_exp_kernel, torch.zeros(4), torch.zeros(4), BLOCK=4)
    o = ops(asm["ssa-opt"])
    assert o.index("neg") + 1 == o.index("exp")
    assert "exp" in asm["cuda"]


def test_i32_negation_stays_i32():
    x = torch.zeros(4, dtype=torch.int32)
    ssa = stages(int_neg_kernel, x, x, BLOCK=4)["ssa-opt"]
    assert re.search(r"= neg %\d+ : vector<4 x i32>", ssa), ssa


def test_exp_of_int_rejected():
    assert_compile_error(exp_int_kernel, (torch.zeros(4),), dict(BLOCK=4),
                         needle="tl.exp(offs)", pattern="f32|float|fp32")


def test_where_codegen():
    asm = stages(where_kernel, torch.zeros(4), torch.zeros(4), True, BLOCK=4)
    ssa = asm["ssa-opt"]
    assert re.search(r"= select flag, %\d+, 0\.0 : vector<4 x f32>", ssa), ssa
    assert "?" in asm["cuda"]


@pytest.mark.parametrize("op,ref", [("sum", np.sum), ("max", np.max), ("min", np.min)])
def test_reductions(device, op, ref):
    ssa = stages(reduce_kernel, torch.zeros(4), torch.zeros(1), OP=op)["ssa-opt"]
    assert re.search(rf"= {op} %\d+ \{{axis=0\}} : f32", ssa), ssa
    x = torch.tensor([1.5, -2.0, 7.25, 3.0], device=device)
    out = poisoned(device, 1)
    reduce_kernel[(1,)](x, out, OP=op)
    assert out.item() == ref(x.cpu().numpy())


def test_reduction_rejects_scalar():
    assert_compile_error(reduce_scalar_kernel, (torch.zeros(1), torch.zeros(1)),
                         needle="tl.sum(tl.load(x)", pattern="block|tensor|scalar|vector")


@triton.jit
def bool_sum_minus_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out, tl.sum(offs < 3, axis=0) - 5)


def test_sum_of_bools_counts(device):
    # Triton sums types narrower than 32 bits in 32 bits: a bool sum counts
    out = torch.zeros(1, device=device)
    reduce_bool_kernel[(1,)](out)
    assert out.tolist() == [2.0]


def test_sum_of_bools_is_unsigned(device):
    # Triton's _pick_sum_dtype: a bool is an unsigned integer, so its sum is
    # u32 (tl.static_print shows uint32[] under Triton 3.6) and 3 - 5 wraps
    out = torch.zeros(1, dtype=torch.int64, device=device)
    bool_sum_minus_kernel[(1,)](out)
    assert out.tolist() == [2**32 - 2]


PAIRS = [(float("nan"), 2.0), (2.0, float("nan")), (0.0, -0.0), (-0.0, 0.0), (3.0, 2.0),
         (2.0, 3.0)]


def zeros_ordered(ref, biggest):
    """NumPy's maximum/minimum, with -0.0 ordered below +0.0 as the GPU's
    max/min (and Triton's results, recorded on the H200) order them;
    NumPy gives the first of two equal zeros."""
    def f(a, b):
        if a == 0 and b == 0:
            pa, pb = not np.signbit(a), not np.signbit(b)
            return np.float32(0.0) if ((pa or pb) if biggest else (pa and pb)) \
                else np.float32(-0.0)
        return ref(a, b)
    return f


def ignoring_nan(ref):
    """Triton's default PropagateNan.NONE: a NaN operand gives the other."""
    return lambda a, b: b if np.isnan(a) else a if np.isnan(b) else ref(a, b)


MAX, MIN = zeros_ordered(np.maximum, True), zeros_ordered(np.minimum, False)


@pytest.mark.parametrize("kernel,ref", [(pair_maximum_kernel, ignoring_nan(MAX)),
                                        (pair_minimum_kernel, ignoring_nan(MIN)),
                                        (pair_maximum_nan_kernel, MAX),
                                        (pair_minimum_nan_kernel, MIN)])
@pytest.mark.parametrize("a,b", PAIRS)
def test_extremum_bits_match_numpy(device, kernel, ref, a, b):
    x = torch.tensor([a], device=device)
    y = torch.tensor([b], device=device)
    out = poisoned(device, 1)
    kernel[(1,)](x, y, out)
    same_bits(out, np.asarray(ref(np.float32(a), np.float32(b))).reshape(1))


@triton.jit
def float_rem_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=m) % tl.load(y + offs, mask=m, other=1.0),
             mask=m)


def test_float_remainder_keeps_the_dividends_sign(device):
    # Triton's frem (mt_fremf) equals C's fmod on these operands: exact
    # quotients, no zero results
    x = torch.tensor([5.5, -5.5, 7.0, -7.25, 1e7 + 1, 3.0], device=device)
    y = torch.tensor([2.0, 2.0, -3.0, 2.5, 3.0, 0.7], device=device)
    out = torch.full((6,), float("nan"), device=device)
    float_rem_kernel[(1,)](x, y, out, 6, BLOCK=8)
    assert torch.equal(out.cpu(), torch.fmod(x, y).cpu())


@triton.jit
def bool_arith_kernel(out):
    t = tl.full((), 1, tl.int1)
    z = tl.full((), 0, tl.int1)
    tl.store(out + 0, (t + t).to(tl.int32))
    tl.store(out + 1, (t + z).to(tl.int32))
    tl.store(out + 2, (z - t).to(tl.int32))
    tl.store(out + 3, (t * t).to(tl.int32))
    tl.store(out + 4, (t // t).to(tl.int32))
    tl.store(out + 5, (t % t).to(tl.int32))
    tl.store(out + 6, (t >> z).to(tl.int32))
    tl.store(out + 7, (-t).to(tl.int32))
    tl.store(out + 8, (t / t * 3).to(tl.int32))


def test_bool_arithmetic_wraps_at_one_bit(device):
    # Triton computes bool + bool in int1 (1 + 1 is 0, 0 - 1 is 1, -x is
    # x) and bool / bool in f32; the values are Triton 3.6's folded TTIR
    # constants for this kernel (sm_90, compiled offline)
    out = torch.zeros(9, dtype=torch.int32, device=device)
    bool_arith_kernel[(1,)](out)
    assert out.tolist() == [0, 1, 1, 1, 1, 0, 1, 1, 3]


@triton.jit
def bool_reduce_kernel(x, out):
    r = tl.arange(0, 8)
    m = tl.load(x + r) > 0
    tl.store(out, tl.argmax(m, 0))
    tl.store(out + 1, tl.argmin(m, 0))
    tl.store(out + 2, tl.sum(tl.maximum(m, r < 2).to(tl.int32)))
    tl.store(out + 3, tl.sum(tl.minimum(m, r < 2).to(tl.int32)))
    tl.store(out + 4, tl.sum(tl.abs(m).to(tl.int32)))


def test_bool_blocks_in_argmax_minimum_maximum_abs(device):
    # Triton takes int1 in these (argmax of a mask: its first True; maximum
    # and minimum of two masks: or, and; abs: the mask)
    x = torch.tensor([0, 0, 1, 0, 1, 1, 0, 0], dtype=torch.int32, device=device)
    out = torch.zeros(5, dtype=torch.int32, device=device)
    bool_reduce_kernel[(1,)](x, out)
    assert out.tolist() == [2, 0, 5, 0, 3]
