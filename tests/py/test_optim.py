"""8.16: fold, CSE and DCE, observed on 'ssa' vs 'ssa-opt' and in results."""
import re

import numpy as np
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import op_counts, same_bits, stages


@triton.jit
def select_true_kernel(x, out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(True, tl.load(x + offs), 0.0))


@triton.jit
def select_same_arms_kernel(x, out):
    offs = tl.arange(0, 4)
    v = tl.load(x + offs)
    tl.store(out + offs, tl.where(offs < 2, v, v))


@triton.jit
def float_add_zero_kernel(x, out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.load(x + offs) + 0.0)


@triton.jit
def int_add_zero_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs + 0, 1.0)


@triton.jit
def folded_extrema_kernel(out):
    tl.store(out + 0, tl.maximum(float("nan"), 2.0))
    tl.store(out + 1, tl.maximum(2.0, float("nan")))
    tl.store(out + 2, tl.maximum(0.0, -0.0))
    tl.store(out + 3, tl.maximum(-0.0, 0.0))
    tl.store(out + 4, tl.minimum(0.0, -0.0))
    tl.store(out + 5, tl.minimum(-0.0, 0.0))


@triton.jit
def cse_kernel(x, out):
    offs = tl.arange(0, 4)
    a = tl.load(x + offs)
    b = tl.load(x + offs)
    tl.store(out + offs, a * b)


@triton.jit
def signed_zero_cse_kernel(x, out):
    offs = tl.arange(0, 4)
    v = tl.load(x + offs)
    tl.store(out + offs, v * 0.0 + v * -0.0)


@triton.jit
def dce_kernel(x, out):
    offs = tl.arange(0, 4)
    v = tl.load(x + offs)
    unused = tl.exp(v)
    tl.store(out + offs, v)


X = torch.zeros(4)


def test_select_with_constant_condition_folds():
    assert "select" not in op_counts(stages(select_true_kernel, X, X)["ssa-opt"])


def test_select_with_equal_arms_folds():
    assert "select" not in op_counts(stages(select_same_arms_kernel, X, X)["ssa-opt"])


def test_float_add_zero_kept():
    ssa = stages(float_add_zero_kernel, X, X)["ssa-opt"]
    assert re.search(r"= add %\d+, 0\.0 : vector<4 x f32>", ssa), ssa


def test_int_add_zero_removed():
    ssa = stages(int_add_zero_kernel, X)["ssa-opt"]
    assert not re.search(r"= add %\d+, 0 : ", ssa), ssa


def test_extrema_fold(device):
    asm = stages(folded_extrema_kernel, torch.zeros(6))
    counts = op_counts(asm["ssa-opt"])
    assert "maximum" not in counts and "minimum" not in counts, asm["ssa-opt"]
    out = torch.full((6,), 7.0, device=device)
    folded_extrema_kernel[(1,)](out)
    f = np.float32
    # a NaN operand gives the other (Triton's default PropagateNan.NONE);
    # -0.0 orders below +0.0, as the GPU's max and min order them
    same_bits(out, np.array([f(2), f(2), f(0.0), f(0.0), f(-0.0), f(-0.0)]))


def test_cse_merges_address_but_not_loads():
    before = op_counts(stages(cse_kernel, X, X)["ssa"])
    after = op_counts(stages(cse_kernel, X, X)["ssa-opt"])
    assert before["addptr"] == 3 and after["addptr"] == 2
    assert after["load"] == 2


def test_cse_keeps_signed_zeros_apart():
    ssa = stages(signed_zero_cse_kernel, X, X)["ssa-opt"]
    assert re.search(r"= mul %\d+, 0\.0 :", ssa) and re.search(r"= mul %\d+, -0\.0 :", ssa), ssa


def test_dce_drops_unused():
    asm = stages(dce_kernel, X, X)
    assert "exp" in op_counts(asm["ssa"]) and "exp" not in op_counts(asm["ssa-opt"])
