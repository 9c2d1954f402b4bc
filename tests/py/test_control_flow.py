"""Runtime control flow (issue 9): `if`/`elif`/`else` and `while` on runtime
scalars, `for` with runtime bounds and step, negative constant steps,
early `return` in kernels and helpers.  Every kernel runs on the host
backend against a Python model of the same program."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, close, poisoned


@triton.jit
def while_sum_kernel(out, n):
    i = 0
    acc = 0
    while i < n:
        acc += i * i
        i += 1
    tl.store(out, acc)
    tl.store(out + 1, i)


@triton.jit
def while_block_kernel(x_ptr, out, limit, BLOCK: tl.constexpr):
    # doubles a block until its sum passes a runtime limit
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    steps = 0
    while tl.sum(x, axis=0) < limit:
        x = x * 2.0
        steps += 1
    tl.store(out + tl.arange(0, BLOCK), x)
    tl.store(out + BLOCK, steps.to(tl.float32))


@triton.jit
def runtime_range_kernel(out, lo, hi, step, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.int32)
    count = 0
    for i in range(lo, hi, step):
        acc += i
        count += 1
    tl.store(out + tl.arange(0, BLOCK), acc)
    tl.store(out + BLOCK, count)


@triton.jit
def negative_step_kernel(out, n, STEP: tl.constexpr):
    acc = 0
    for i in range(n, 0, STEP):
        acc = acc * 3 + i
    tl.store(out, acc)


@triton.jit
def wide_range_kernel(out, lo, hi):
    acc = 0
    count = 0
    for i in range(lo, hi, 1 << 33):
        acc += (i >> 20).to(tl.int32)
        count += 1
    tl.store(out, acc)
    tl.store(out + 1, count)


@triton.jit
def branchy_kernel(x_ptr, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + pid * BLOCK + offs)
    s = tl.sum(x, axis=0)
    if s > 0:
        y = x * 2
        c = 1
    elif s < -10:
        y = x - 1
        c = 2
    else:
        y = x
        c = 3
    tl.store(out + pid * BLOCK + offs, y + c)


@triton.jit
def store_in_branch_kernel(x_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    pid = tl.program_id(0)
    first = tl.load(x_ptr + pid * BLOCK)
    if first > 0.5:
        tl.store(out + pid * BLOCK + offs, tl.full([BLOCK], 1.0, tl.float32))
    else:
        tl.store(out + pid * BLOCK + offs, tl.full([BLOCK], -1.0, tl.float32))


@triton.jit
def if_in_loop_kernel(x_ptr, out, n):
    # counts positives and sums negatives: branches change carried values
    pos = 0
    neg = 0.0
    for i in range(n):
        v = tl.load(x_ptr + i)
        if v > 0:
            pos += 1
        else:
            neg += v
    tl.store(out, pos.to(tl.float32))
    tl.store(out + 1, neg)


@triton.jit
def clamp_helper(a, lo, hi):
    if a < lo:
        return lo, -1
    if a > hi:
        return hi, 1
    return a, 0


@triton.jit
def helper_return_kernel(x_ptr, out, n):
    for i in range(n):
        v, side = clamp_helper(tl.load(x_ptr + i), -1.0, 1.0)
        tl.store(out + 2 * i, v)
        tl.store(out + 2 * i + 1, side.to(tl.float32))


@triton.jit
def scalar_min_max_kernel(out, a, b, c):
    tl.store(out, min(a, b))
    tl.store(out + 1, max(a, b, c))
    tl.store(out + 2, abs(a - b))
    both = (a > 0) and (b > 0)
    either = (a > 0) or (b > 0)
    tl.store(out + 3, both.to(tl.int32))
    tl.store(out + 4, either.to(tl.int32))
    tl.store(out + 5, (not (a > b)).to(tl.int32))


def test_while_on_runtime_scalars(device):
    out = torch.zeros(2, dtype=torch.int32, device=device)
    for n in (0, 1, 17):
        while_sum_kernel[(1,)](out, n)
        assert out.tolist() == [sum(i * i for i in range(n)), n]


def test_while_carries_a_block(device):
    x = torch.arange(1, 9, dtype=torch.float32, device=device)
    out = poisoned(device, 9)
    while_block_kernel[(1,)](x, out, 1000.0, BLOCK=8)
    ref = x.clone().cpu()
    steps = 0
    while ref.sum() < 1000:
        ref *= 2
        steps += 1
    close(out[:8], ref, rtol=0, atol=0)
    assert out[8].item() == steps


@pytest.mark.parametrize("lo,hi,step", [(3, 100, 7), (0, 5, 1), (10, 3, 2), (5, 5, 3),
                                        (-20, 20, 3), (2**31 - 10, 2**31 - 1, 4)])
def test_runtime_bounds_and_step(device, lo, hi, step):
    out = torch.zeros(5, dtype=torch.int32, device=device)
    runtime_range_kernel[(1,)](out, lo, hi, step, BLOCK=4)
    r = range(lo, hi, step)
    want = (sum(r) + 2**31) % 2**32 - 2**31
    assert out.tolist() == [want] * 4 + [len(r)]


def test_runtime_step_that_is_not_positive_runs_no_iteration(device):
    # Triton leaves it undefined; we neither hang nor overflow
    out = torch.zeros(5, dtype=torch.int32, device=device)
    runtime_range_kernel[(1,)](out, 0, 10, 0, BLOCK=4)
    assert out.tolist() == [0, 0, 0, 0, 0]
    runtime_range_kernel[(1,)](out, 0, 10, -1, BLOCK=4)
    assert out.tolist() == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("n,step", [(100, -1), (100, -3), (99, -7), (0, -2)])
def test_negative_constant_step(device, n, step):
    out = torch.zeros(1, dtype=torch.int32, device=device)
    negative_step_kernel[(1,)](out, n, STEP=step)
    acc = 0
    for i in range(n, 0, step):
        acc = (acc * 3 + i) % 2**32
    assert out.item() % 2**32 == acc


def test_i64_bounds_give_an_i64_index(device):
    out = torch.zeros(2, dtype=torch.int32, device=device)
    lo, hi = 2**40, 2**40 + 5 * 2**33 + 1
    wide_range_kernel[(1,)](out, lo, hi)
    r = range(lo, hi, 1 << 33)
    assert out.tolist() == [sum(i >> 20 for i in r) % 2**32 - (2**32 if sum(i >> 20 for i in r) % 2**32 >= 2**31 else 0), len(r)]
    src = wide_range_kernel.compile(out, lo, hi).asm["ssa"]
    assert "for %" in src and ": i64 in range(" in src


def test_if_elif_else_and_early_return(device):
    x = torch.randn(8, 16)
    x[2] = -5.0
    out = poisoned(device, 8 * 16)
    branchy_kernel[(10,)](x.to(device), out, 8, BLOCK=16)
    ref = torch.zeros(8, 16)
    for p in range(8):
        s = x[p].sum()
        ref[p] = x[p] * 2 + 1 if s > 0 else (x[p] - 1 + 2 if s < -10 else x[p] + 3)
    close(out.view(8, 16), ref, rtol=1e-6, atol=1e-6)


def test_stores_inside_branches(device):
    x = torch.tensor([0.9, 0.1, 0.7, 0.2], device=device).repeat_interleave(8)
    out = poisoned(device, 32)
    store_in_branch_kernel[(4,)](x, out, BLOCK=8)
    want = torch.tensor([1.0, -1.0, 1.0, -1.0]).repeat_interleave(8)
    close(out, want, rtol=0, atol=0)


def test_branches_change_loop_carried_values(device):
    x = torch.tensor([1.5, -2.0, 0.0, 3.0, -0.5], device=device)
    out = poisoned(device, 2)
    if_in_loop_kernel[(1,)](x, out, 5)
    close(out, torch.tensor([2.0, -2.5]), rtol=0, atol=0)


def test_helper_returns_from_branches(device):
    x = torch.tensor([-3.0, 0.25, 2.0, -0.5], device=device)
    out = poisoned(device, 8)
    helper_return_kernel[(1,)](x, out, 4)
    close(out, torch.tensor([-1.0, -1.0, 0.25, 0.0, 1.0, 1.0, -0.5, 0.0]), rtol=0, atol=0)


def test_builtins_on_runtime_scalars(device):
    out = torch.zeros(6, dtype=torch.int32, device=device)
    scalar_min_max_kernel[(1,)](out, 7, -3, 5)
    assert out.tolist() == [-3, 7, 10, 0, 1, 0]
    scalar_min_max_kernel[(1,)](out, 2, 9, 4)
    assert out.tolist() == [2, 9, 7, 1, 1, 1]


def test_if_and_while_print_and_reparse():
    src = branchy_kernel.compile(torch.zeros(4), torch.zeros(4), 1, BLOCK=4,
                                 stages_only=True).asm["ssa"]
    assert " = if %" in src and "} else {" in src
    src = while_sum_kernel.compile(torch.zeros(2, dtype=torch.int32), 3,
                                   stages_only=True).asm["ssa"]
    assert "while (" in src and "condition %" in src and "} do {" in src


@triton.jit
def mismatched_branch_types_kernel(out, n):
    if n > 0:
        x = 1.0
    else:
        x = tl.full([4], 1, tl.int32)
    tl.store(out + tl.arange(0, 4), x)


@triton.jit
def block_condition_kernel(out, n):
    if tl.arange(0, 4) < n:
        tl.store(out, 1.0)


@triton.jit
def return_in_loop_kernel(out, n):
    for i in range(n):
        if i > 3:
            return
        tl.store(out + i, 1.0)


@triton.jit
def endless_while_kernel(out, n):
    while True:
        tl.store(out, 1.0)


@triton.jit
def and_on_ints_kernel(out, a, b):
    tl.store(out, (a and b).to(tl.int32))


def test_errors():
    zeros = torch.zeros(4)  # runtime integers: an integer 1 is Triton's constexpr 1
    assert_compile_error(mismatched_branch_types_kernel, (zeros, 2), needle="x = 1.0",
                         pattern="'x' is .* in the then branch and .* in the else branch")
    assert_compile_error(block_condition_kernel, (zeros, 2), needle="if tl.arange(0, 4) < n",
                         pattern="ambiguous")
    assert_compile_error(return_in_loop_kernel, (zeros, 2), needle="if i > 3",
                         pattern="'return' inside a loop")
    assert_compile_error(endless_while_kernel, (zeros, 2), needle="while True",
                         pattern="never ends")
    assert_compile_error(and_on_ints_kernel, (zeros, 3, 2), needle="(a and b)",
                         pattern="'and' needs bool")


@triton.jit
def ifexp_kernel(out, n, BLOCK: tl.constexpr):
    x = tl.arange(0, BLOCK)
    y = x * 2 if n > 3 else x - 1
    s = 1.5 if n % 2 == 0 else 2.5
    tl.store(out + x, y.to(tl.float32) * s)


def test_conditional_expression_on_runtime_scalar(device):
    out = poisoned(device, 4)
    ifexp_kernel[(1,)](out, 4, BLOCK=4)
    close(out, torch.tensor([0.0, 3.0, 6.0, 9.0]), rtol=0, atol=0)
    ifexp_kernel[(1,)](out, 3, BLOCK=4)
    close(out, torch.tensor([-2.5, 0.0, 2.5, 5.0]), rtol=0, atol=0)


@triton.jit
def tuple_carry_kernel(out, n):
    pair = (0, 1)
    for i in range(n):
        pair = (pair[1], pair[0] + pair[1])
    k = 0
    state = (1.0, k)
    while state[1] < n:
        state = (state[0] * 2.0, state[1] + 1)
    tl.store(out, pair[0].to(tl.float32))
    tl.store(out + 1, state[0])


def test_tuples_carried_through_loops(device):
    out = poisoned(device, 2)
    tuple_carry_kernel[(1,)](out, 10)
    close(out, torch.tensor([55.0, 1024.0]), rtol=0, atol=0)


@triton.jit
def barrier_kernel(buf, out, BLOCK: tl.constexpr):
    # each element written by one thread is read back by another after the
    # barrier (the reversed order crosses threads and warps)
    offs = tl.arange(0, BLOCK)
    tl.store(buf + offs, offs * 3)
    tl.debug_barrier()
    tl.assume(BLOCK > 0)
    tl.device_assert(offs < BLOCK, "in range")
    tl.store(out + offs, tl.load(buf + BLOCK - 1 - offs))


def test_debug_barrier_orders_global_memory(device):
    buf = torch.zeros(256, dtype=torch.int32, device=device)
    out = torch.zeros(256, dtype=torch.int32, device=device)
    barrier_kernel[(1,)](buf, out, BLOCK=256, num_warps=4)
    assert out.tolist() == [3 * (255 - i) for i in range(256)]
    src = barrier_kernel.compile(buf, out, BLOCK=256).asm["cuda"]
    assert src.count("__syncthreads();") == 1


@triton.jit
def condition_while_kernel(out, n, LICM: tl.constexpr):
    i = 0
    total = 0
    while tl.condition(i < n, disable_licm=LICM):
        i = i + 1
        total += i
    tl.store(out, total)


@pytest.mark.parametrize("licm", [False, True])
def test_tl_condition_is_the_while_condition(device, licm):
    # Triton's test_disable_licm: the hint never changes the loop
    out = torch.zeros(1, dtype=torch.int32, device=device)
    condition_while_kernel[(1,)](out, 10, LICM=licm)
    assert out.item() == 55


def test_tl_condition_hint_must_be_a_bool():
    @triton.jit
    def bad(out, n):
        i = 0
        while tl.condition(i < n, disable_licm=n):
            i += 1
        tl.store(out, i)

    with pytest.raises(triton.CompilationError, match="disable_licm must be a compile-time bool"):
        bad[(1,)](torch.zeros(1, dtype=torch.int32), 3)
