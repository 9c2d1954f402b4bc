"""Pointers to constant data (issue 9): a parameter annotated tl.const (or
given as "*k" in a signature) and the pointers computed from it refuse
stores and atomics, and constness is part of the pointer's type where
values join, with Triton's messages (test_core's test_const)."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


@triton.jit
def copy_kernel(src: tl.const, dst, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    p = src + offs
    tl.store(dst + offs, tl.load(p, mask=offs < n) * 2, mask=offs < n)


def test_loads_through_const_pointers(device):
    x = torch.arange(10, dtype=torch.float32).to(device)
    y = torch.zeros(10, device=device)
    copy_kernel[(1,)](x, y, 10, BLOCK=16)
    assert torch.equal(y.cpu(), x.cpu() * 2)


@triton.jit
def pick(a, b, first):
    if first:
        return a
    else:
        return b


@triton.jit
def bad_kernel(src: tl.const, dst, flag, WHICH: tl.constexpr):
    offs = tl.arange(0, 8)
    if WHICH == 0:
        tl.store(src + offs, 1.0)
    elif WHICH == 1:
        tl.atomic_add(src + offs, 1.0)
    elif WHICH == 2:
        tl.atomic_cas(src, 1.0, 2.0)
    elif WHICH == 3:
        out = src if flag > 0 else dst
    elif WHICH == 4:
        if flag > 1:
            out4 = src
        else:
            out4 = dst
    elif WHICH == 5:
        out = pick(src, dst, flag > 0)
    elif WHICH == 6:
        q = src
        for i in range(flag):
            q = dst
    elif WHICH == 7:
        q = src + 1
        tl.store(q, 3.0)
    elif WHICH == 8:
        # a compile-time choice of the const pointer: only storing errs
        out = src if WHICH == 8 else dst
        tl.store(out, 1.0)


ERRORS = [
    (0, "tl.store(src + offs, 1.0)", "Cannot store to a constant pointer"),
    (1, "tl.atomic_add(src + offs", "Cannot store to a constant pointer"),
    (2, "tl.atomic_cas(src", "Cannot store to a constant pointer"),
    (3, "out = src if flag > 0 else dst",
     "Ternary expression with dynamic condition has inconsistent types const ptr<f32> and ptr<f32>"),
    (4, "out4 = src",
     r"Mismatched type for out4 between then block \(const ptr<f32>\) and else block \(ptr<f32>\)"),
    (5, None, "Return type mismatch: const ptr<f32> and ptr<f32>"),
    (6, "for i in range(flag):", "loop-carried variable 'q' changes type from const ptr<f32> to ptr<f32>"),
    (7, "tl.store(q, 3.0)", "Cannot store to a constant pointer"),
    (8, "tl.store(out, 1.0)", "Cannot store to a constant pointer"),
]


@pytest.mark.parametrize("which,needle,pattern", ERRORS)
def test_located_errors(which, needle, pattern):
    x = torch.zeros(8)
    # flag = 2: a runtime i32 (an integer 1 is Triton's constexpr 1)
    err = assert_compile_error(bad_kernel, (x, x, 2), {"WHICH": which}, needle=needle,
                               pattern=pattern)
    if needle is None:  # in the helper, at its runtime if
        assert "if first:" in str(err), str(err)


def test_error_message_and_cause_carry_tritons_words():
    x = torch.zeros(8)
    with pytest.raises(triton.CompilationError) as e:
        bad_kernel.compile(x, x, 1, WHICH=0, stages_only=True)
    assert e.value.error_message == "Cannot store to a constant pointer"
    assert str(e.value.__cause__) == "Cannot store to a constant pointer"
