"""8.4: type and shape rules, observed in the SSA types and compile errors."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, stages


@triton.jit
def promote_kernel(out):
    tl.store(out + tl.arange(0, 4), tl.arange(0, 4) + 1.0)


@triton.jit
def broadcast_mismatch_kernel(out):
    tl.store(out + tl.arange(0, 4), tl.arange(0, 4) + tl.arange(0, 8))


@triton.jit
def compare_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(offs < 2, 1.0, 0.0))


@triton.jit
def load_from_scalar_kernel(out, alpha):
    tl.store(out, tl.load(alpha))


@triton.jit
def non_pointer_base_kernel(out, n):
    tl.store(out, tl.load(n + tl.arange(0, 4)))


@triton.jit
def float_offset_kernel(out):
    tl.store(out + 1.5, 1.0)


@triton.jit
def store_int_into_f32_kernel(out):
    tl.store(out + tl.arange(0, 4), 1)


@triton.jit
def store_bool_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, offs < 2)


@triton.jit
def non_bool_mask_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, 1.0, mask=offs)


@triton.jit
def store_to_scalar_kernel(out, n):
    tl.store(n, 1.0)


@triton.jit
def store_shape_mismatch_kernel(out):
    tl.store(out + tl.arange(0, 4), tl.zeros((8,), tl.float32))


@triton.jit
def empty_arange_kernel(out):
    tl.store(out + tl.arange(4, 4), 1.0)


@triton.jit
def int_product_kernel(out):
    tl.store(out + tl.arange(0, 4), tl.arange(0, 4) * (2 * 3))


@triton.jit
def where_vector_cond_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(offs < 2, 1.0, 2.0))


@triton.jit
def where_scalar_cond_kernel(out, flag):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(flag, offs, 7))


@triton.jit
def where_mixed_arms_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(offs < 2, offs, 0.5))


@triton.jit
def where_non_bool_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(offs, 1.0, 2.0))


@triton.jit
def where_shape_kernel(out):
    offs = tl.arange(0, 4)
    tl.store(out + offs, tl.where(offs < 2, tl.arange(0, 8), 1))


OUT = torch.zeros(8)


def test_scalar_vector_promotion():
    ssa = stages(promote_kernel, OUT)["ssa"]
    assert re.search(r"= add %\d+, 1\.0 : vector<4 x f32>", ssa), ssa


def test_broadcast_mismatch():
    assert_compile_error(broadcast_mismatch_kernel, (OUT,), needle="tl.arange(0, 4) + tl.arange(0, 8)",
                         pattern="broadcast|shape")


def test_comparison_gives_bool_vector():
    assert re.search(r"= cmp_lt %\d+, 2 : vector<4 x bool>", stages(compare_kernel, OUT)["ssa"])


def test_load_from_scalar():
    assert_compile_error(load_from_scalar_kernel, (OUT, 1.0), needle="tl.load(alpha)",
                         pattern="pointer|load")


def test_non_pointer_base():
    assert_compile_error(non_pointer_base_kernel, (OUT, 3), needle="tl.load(n +",
                         pattern="pointer")


def test_float_offset():
    assert_compile_error(float_offset_kernel, (OUT,), needle="out + 1.5", pattern="offset|integer")


def test_store_conversions_accepted():
    assert stages(store_int_into_f32_kernel, OUT)["ssa-opt"]
    assert stages(store_bool_kernel, torch.zeros(4, dtype=torch.bool))["ssa-opt"]


def test_non_bool_mask():
    assert_compile_error(non_bool_mask_kernel, (OUT,), needle="mask=offs", pattern="mask|bool")


def test_store_to_scalar():
    assert_compile_error(store_to_scalar_kernel, (OUT, 3), needle="tl.store(n, 1.0)",
                         pattern="pointer|store")


def test_store_shape_mismatch():
    assert_compile_error(store_shape_mismatch_kernel, (OUT,), needle="tl.zeros((8,)",
                         pattern="shape|broadcast")


def test_empty_arange():
    assert_compile_error(empty_arange_kernel, (OUT,), needle="tl.arange(4, 4)",
                         pattern="arange|range")


def test_int_constants_stay_i32():
    ssa = stages(int_product_kernel, OUT)["ssa"]
    assert re.search(r"= mul %\d+, 6 : vector<4 x i32>", ssa), ssa


def test_where_rules():
    assert re.search(r"= select %\d+, 1\.0, 2\.0 : vector<4 x f32>",
                     stages(where_vector_cond_kernel, OUT)["ssa"])
    assert re.search(r"= select flag, %\d+, 7 : vector<4 x i32>",
                     stages(where_scalar_cond_kernel, OUT, True)["ssa"])
    assert re.search(r"= select %\d+, %\d+, 0\.5 : vector<4 x f32>",
                     stages(where_mixed_arms_kernel, OUT)["ssa"])
    # a non-bool condition is cast to int1 (!= 0), as Triton's where does
    assert re.search(r"= cast %\d+ : vector<\d+ x bool>\n.*= select ",
                     stages(where_non_bool_kernel, OUT)["ssa"])
    assert_compile_error(where_shape_kernel, (OUT,), needle="tl.arange(0, 8), 1)",
                         pattern="shape|broadcast")
