"""8.14: runtime range loops with loop-carried values."""
import re

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error, close, ops, poisoned, stages, f32


@triton.jit
def matmul_runtime_k_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K):
        a_values = tl.load(a + offs_m[:, None] * K + k, mask=offs_m[:, None] < M, other=0.0)
        b_values = tl.load(b + k * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)
        acc += a_values * b_values
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)


@triton.jit
def two_carried_values_kernel(out, n):
    first = 0
    second = 0
    for k in range(0, n):
        first += k
        second += first
    tl.store(out, first)
    tl.store(out + 1, second)


@triton.jit
def annotated_carried_value_kernel(out, n):
    acc = 0
    for k in range(0, n):
        acc: tl.int32 = acc + k
    tl.store(out, acc)


@triton.jit
def no_carried_values_kernel(out, n):
    for k in range(0, n):
        tl.store(out + k, k)


@triton.jit
def sequential_runtime_loops_kernel(out, n):
    acc = 0
    for i in range(0, n):
        acc += 1
    for j in range(0, n):
        acc += 2
    tl.store(out, acc)


@triton.jit
def nested_runtime_loops_kernel(out, n):
    pid = tl.program_id(0)
    acc = 0
    for i in range(0, n):
        for j in range(0, n):
            acc += pid + i + j
    tl.store(out + pid, acc)


@triton.jit
def invalid_runtime_step_kernel(out, n, STEP: tl.constexpr):
    for k in range(0, n, STEP):
        tl.store(out + k, 1.0)


@triton.jit
def assigned_induction_variable_kernel(out, n):
    for k in range(0, n):
        k = k + 1
        tl.store(out + k, 1.0)


def test_carried_values_in_source_order():
    ssa = stages(two_carried_values_kernel, torch.zeros(2), 4)["ssa-opt"]
    header = [l for l in ssa.splitlines() if " for " in f" {l.strip()}"][0]
    assert re.search(r"%\d+, %\d+ = for %\d+ in range\(0, n, 1\) iter_args\(%\d+ = 0, %\d+ = 0\) : i32, i32 \{", header), header
    assert re.search(r"^\s+yield %\d+, %\d+$", ssa, re.M), ssa


def test_two_carried_values_execution(device):
    out = poisoned(device, 2)
    two_carried_values_kernel[(1,)](out, 4)
    close(out, torch.tensor([6.0, 10.0]), rtol=0, atol=0)


def test_annotated_carried_value_is_a_loop(device):
    asm = stages(annotated_carried_value_kernel, torch.zeros(1), 4)
    assert "for" in ops(asm["ssa-opt"])
    assert "for (" in asm["cuda"]
    out = poisoned(device, 1)
    annotated_carried_value_kernel[(1,)](out, 4)
    close(out, torch.tensor([6.0]), rtol=0, atol=0)


def test_no_carried_values(device):
    ssa = stages(no_carried_values_kernel, torch.zeros(4), 4)["ssa-opt"]
    assert re.search(r"^for %\d+ in range\(0, n, 1\) \{$", ssa, re.M), ssa
    assert re.search(r"^\s+yield$", ssa, re.M), ssa
    out = poisoned(device, 4)
    no_carried_values_kernel[(1,)](out, 4)
    close(out, torch.arange(4, dtype=torch.float32), rtol=0, atol=0)


def test_sequential_loops(device):
    cuda = stages(sequential_runtime_loops_kernel, torch.zeros(1), 4)["cuda"]
    assert cuda.count("for (") == 2, cuda
    out = poisoned(device, 1)
    sequential_runtime_loops_kernel[(1,)](out, 5)
    close(out, torch.tensor([15.0]), rtol=0, atol=0)


def test_nested_loops_codegen():
    asm = stages(nested_runtime_loops_kernel, torch.zeros(1), 4)
    ssa = asm["ssa-opt"]
    assert ops(ssa).count("for") == 2 and ops(ssa).count("yield") == 2, ssa
    inner = [l for l in ssa.splitlines() if l.startswith("  ") and " for " in l]
    assert inner, ssa                       # the inner loop is nested in the outer body
    assert asm["cuda"].count("for (") == 2


def test_nested_loops_execution(device):
    n = 4
    out = poisoned(device, 2)
    nested_runtime_loops_kernel[(2,)](out, n)
    close(out, torch.tensor([n * n * (n - 1), n * n * (n - 1) + n * n], dtype=torch.float32),
          rtol=0, atol=0)


def test_cached_loop_kernels_are_independent(device):
    out1, out2 = poisoned(device, 1), poisoned(device, 1)
    nested_runtime_loops_kernel[(1,)](out1, 3)
    nested_runtime_loops_kernel[(1,)](out2, 4)
    close(out1, torch.tensor([18.0]), rtol=0, atol=0)
    close(out2, torch.tensor([48.0]), rtol=0, atol=0)


@pytest.mark.parametrize("step", [0])
def test_invalid_runtime_step(step):
    assert_compile_error(invalid_runtime_step_kernel, (torch.zeros(4), 4), dict(STEP=step),
                         needle="for k in range(0, n, STEP)", pattern="step")


def test_errors_do_not_poison_later_compiles(device):
    with pytest.raises(triton.CompilationError):
        invalid_runtime_step_kernel.compile(torch.zeros(4), 4, STEP=0, stages_only=True)
    out = poisoned(device, 2)
    two_carried_values_kernel[(1,)](out, 4)
    close(out, torch.tensor([6.0, 10.0]), rtol=0, atol=0)


def test_assigned_induction_variable_holds_for_the_iteration(device):
    """As in Python and Triton: the assignment holds for the rest of the
    iteration; the next iteration's index comes from the range."""
    out = torch.zeros(5, device=device)
    assigned_induction_variable_kernel[(1,)](out, 4)
    assert out.tolist() == [0.0, 1.0, 1.0, 1.0, 1.0]


def test_runtime_k_matmul_codegen():
    ssa = stages(matmul_runtime_k_kernel, torch.zeros(4), torch.zeros(4), torch.zeros(4),
                 19, 23, 5, BM=8, BN=16)["ssa-opt"]
    assert re.search(r"= for %\d+ in range\(0, K, 1\) iter_args\(%\d+ = %\d+\) : block<8x16 x f32> \{", ssa), ssa
    assert ops(ssa)[0] in ("zeros", "program_id", "arange")


def test_runtime_k_matmul_execution(device):
    m, k, n = 19, 5, 23
    a, b = f32(device, m, k, seed=17), f32(device, k, n, seed=18)
    c = poisoned(device, m, n)
    matmul_runtime_k_kernel[(triton.cdiv(m, 8), triton.cdiv(n, 16))](a, b, c, m, n, k, BM=8, BN=16)
    close(c, a @ b, rtol=1e-4, atol=1e-3)
