"""Scalars from one-element blocks and bools in arithmetic (issue 9, found
by the full test_core.py run on the host): `x.item()` and `if` / `while`
on a one-element block (Triton's _unsplat), a bool beside a number
computing in the number's type, tl.full casting its value to the block's
dtype, and tl.sum of bools in int1 adding modulo 2.  Each kernel runs on
the host backend against a Python model of the same program."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


@triton.jit
def unsplat_kernel(x, explicit: tl.constexpr):
    condition = tl.load(x + tl.arange(0, 1)) > 42
    if explicit:
        condition = condition.item()
    if condition:
        tl.store(x, 42)


@pytest.mark.parametrize("explicit", [False, True])
@pytest.mark.parametrize("y", [41, 43])
def test_if_on_one_element_block(y, explicit):
    x = torch.full((1,), y, dtype=torch.int32)
    unsplat_kernel[(1,)](x, explicit, num_warps=1)
    assert x.item() == (42 if y > 42 else y)


@triton.jit
def cas_kernel(lock, dtype: tl.constexpr):
    zero = tl.full((1,), 0, dtype=dtype).item()
    one = tl.full((1,), 1, dtype=dtype).item()
    tl.atomic_cas(lock, zero, one)


@pytest.mark.parametrize("dtype", [tl.int32, tl.int64])
def test_item_gives_a_scalar(dtype):
    lock = torch.zeros((1,), dtype=torch.int32 if dtype == tl.int32 else torch.int64)
    cas_kernel[(1,)](lock, dtype)
    assert lock.item() == 1


@triton.jit
def item_of_two(x):
    tl.store(x, tl.load(x + tl.arange(0, 2)).item())


def test_item_needs_one_element():
    assert_compile_error(item_of_two, (torch.zeros(2),), needle="tl.store(x, tl.load",
                         pattern=r"item\(\) needs a block of one element, got vector<2 x f32>")


@triton.jit
def bool_count_kernel(init_ptr, bound_ptr, cut_ptr, out):
    i = tl.load(init_ptr)
    j = 0
    while j < tl.load(bound_ptr):
        i = i + (j == tl.load(cut_ptr))  # bool + i32: i32
        j += 1
    x = tl.load(init_ptr + tl.arange(0, 4))
    f = (x > 2) * 2.5  # bool * float: f32
    tl.store(out, i)
    tl.store(out + 1, j)
    tl.store(out + 2 + tl.arange(0, 4), (x + (x > 2)) * 10 + f.to(tl.int32))


def test_bool_beside_a_number():
    init = torch.tensor([1, 2, 3, 4], dtype=torch.int32)
    out = torch.zeros(6, dtype=torch.int32)
    bool_count_kernel[(1,)](init, torch.tensor([10], dtype=torch.int32),
                            torch.tensor([5], dtype=torch.int32), out)
    assert out.tolist() == [2, 10, 10, 20, 42, 52]


@triton.jit
def full_sum_kernel(out, init):
    a = tl.full((16,), init, dtype=tl.int1)     # an i32 tensor: init != 0
    b = tl.full((16,), 3, dtype=tl.int1)        # a number: true
    c = tl.full((16,), True, dtype=tl.float32)  # 1.0
    m = tl.arange(0, 16) < init
    g = tl.reshape(m, (4, 4))
    tl.store(out + tl.arange(0, 16), a.to(tl.int32) * 100 + b.to(tl.int32) * 10 + c.to(tl.int32))
    tl.store(out + 16, tl.sum(m))
    tl.store(out + 17, tl.sum(m, dtype=tl.int1).to(tl.int32))
    tl.store(out + 18 + tl.arange(0, 4), tl.sum(g, axis=1, dtype=tl.int1).to(tl.int32))


@pytest.mark.parametrize("init", [0, 7, 11])
def test_full_casts_and_bool_sums(init):
    out = torch.full((22,), -1, dtype=torch.int32)
    full_sum_kernel[(1,)](out, init)
    flags = (100 if init else 0) + 11
    rows = [sum(1 for k in range(4 * r, 4 * r + 4) if k < init) % 2 for r in range(4)]
    assert out.tolist() == [flags] * 16 + [init, init % 2] + rows
