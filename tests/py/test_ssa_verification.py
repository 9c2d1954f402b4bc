"""8.16: verifier rules reachable from kernel source.  Rules about
malformed IR (use before definition, duplicate ids, wrong arity) cannot be
written in Python and are covered by the C unit tests."""
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, ops, stages


@triton.jit
def float_loop_bound_kernel(out, stop):
    for k in range(0, stop):
        tl.store(out, 1.0)


@triton.jit
def carried_type_change_kernel(out, n):
    acc = 0.0
    for k in range(0, n):
        acc += tl.arange(0, 8) * 1.0
    tl.store(out + tl.arange(0, 8), acc)


@triton.jit
def bad_axis_kernel(out):
    tl.store(out, tl.program_id(3))


@triton.jit
def width_six_kernel(out):
    tl.store(out, tl.sum(tl.arange(0, 6), axis=0))


@triton.jit
def valid_scalar_loop_kernel(out, n):
    acc = 0
    for k in range(0, n):
        acc += k
    tl.store(out, acc)


@triton.jit
def valid_reductions_kernel(x, out):
    v = tl.load(x + tl.arange(0, 8))
    tl.store(out, tl.sum(v, axis=0) + tl.max(v, axis=0) + tl.min(v, axis=0))


def test_float_loop_bound():
    assert_compile_error(float_loop_bound_kernel, (torch.zeros(1), 2.0),
                         needle="range(0, stop)", pattern="i32|int")


def test_carried_type_change():
    assert_compile_error(carried_type_change_kernel, (torch.zeros(8), 4),
                         needle="for k in range(0, n):", pattern="'acc' changes type")


def test_program_id_axis():
    assert_compile_error(bad_axis_kernel, (torch.zeros(1),), needle="tl.program_id(3)",
                         pattern="axis")


def test_non_power_of_two_width():
    assert_compile_error(width_six_kernel, (torch.zeros(1),), needle="tl.arange(0, 6)",
                         pattern="power of two|power of 2")


def test_valid_scalar_loop_verifies():
    assert "for" in ops(stages(valid_scalar_loop_kernel, torch.zeros(1), 4)["ssa-opt"])


def test_valid_reductions_verify():
    o = ops(stages(valid_reductions_kernel, torch.zeros(8), torch.zeros(1))["ssa-opt"])
    assert {"sum", "max", "min"} <= set(o)
