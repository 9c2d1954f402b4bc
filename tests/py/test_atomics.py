"""tl.atomic_* on every device: true atomicity across the programs that run
in parallel, each element's atomic exactly once (scalars, replicated and
sliced layouts), masks, the old values returned, every op and dtype
Triton allows, sem= and scope=, Triton's errors, and a spinning program
that must not stall the host's workers."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl

from mtutil import assert_compile_error, ssa_opt, stages

# ------------------------------------------------------------ counters


@triton.jit
def ticket_kernel(counter, tickets):
    pid = tl.program_id(0)
    t = tl.atomic_add(counter, 1)
    tl.store(tickets + pid, t)


def test_scalar_counter_hammered(device):
    """Every program takes one ticket: the old values are 0..n-1, once each
    (one atomic per program, its result seen by every thread)."""
    n = 3000
    counter = torch.zeros(1, dtype=torch.int32, device=device)
    tickets = torch.full((n,), -1, dtype=torch.int32, device=device)
    ticket_kernel[(n,)](counter, tickets, num_warps=4)
    assert counter.item() == n
    assert sorted(tickets.cpu().tolist()) == list(range(n))


@triton.jit
def block_add_kernel(out, olds, x, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_add(out + offs, tl.load(x + offs))
    tl.store(olds + pid * BLOCK + offs, old)


@pytest.mark.parametrize("block,warps", [(16, 4), (64, 1), (512, 2)])
def test_block_add_once_per_element(device, block, warps):
    """A block smaller than the program (16 elements, 128 threads) is held
    by several threads: each element is still added once, and every copy
    sees the old value."""
    n = 200
    x = torch.arange(1, block + 1, dtype=torch.int32, device=device)
    out = torch.zeros(block, dtype=torch.int32, device=device)
    olds = torch.full((n, block), -1, dtype=torch.int32, device=device)
    block_add_kernel[(n,)](out, olds, x, BLOCK=block, num_warps=warps)
    assert torch.equal(out.cpu(), x.cpu() * n)
    got = olds.cpu().sort(dim=0).values
    want = torch.arange(n, dtype=torch.int32)[:, None] * x.cpu()[None, :]
    assert torch.equal(got, want)


@triton.jit
def row_sum_kernel(x, out, olds, R: tl.constexpr, C: tl.constexpr):
    pid = tl.program_id(0)
    rows = tl.arange(0, R)
    cols = tl.arange(0, C)
    v = tl.load(x + rows[:, None] * C + cols[None, :])
    s = tl.sum(v, axis=1)  # held as a slice: replicated along the columns
    old = tl.atomic_add(out + rows, s)
    tl.store(olds + pid * R + rows, old)


def test_sliced_layout_once_per_element(device):
    n = 50
    x = torch.arange(8 * 32, dtype=torch.int32, device=device).reshape(8, 32) % 7
    out = torch.zeros(8, dtype=torch.int32, device=device)
    olds = torch.zeros(n, 8, dtype=torch.int32, device=device)
    row_sum_kernel[(n,)](x, out, olds, R=8, C=32, num_warps=4)
    s = x.cpu().sum(dim=1).to(torch.int32)
    assert torch.equal(out.cpu(), s * n)
    assert torch.equal(olds.cpu().sort(dim=0).values,
                       torch.arange(n, dtype=torch.int32)[:, None] * s[None, :])


@triton.jit
def broadcast_dim_kernel(out, C: tl.constexpr):
    cols = tl.arange(0, C)
    one = tl.arange(0, 1)
    tl.atomic_add(out + one[:, None] * 0 + cols[None, :], 1)


def test_unit_dim_once_per_element(device):
    out = torch.zeros(16, dtype=torch.int32, device=device)
    broadcast_dim_kernel[(30,)](out, C=16, num_warps=4)
    assert out.cpu().tolist() == [30] * 16


@triton.jit
def block_2d_kernel(out, olds, R: tl.constexpr, C: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :]
    old = tl.atomic_add(out + idx, idx + 1, mask=idx % 5 != 0)
    tl.store(olds + pid * R * C + idx, old)


@pytest.mark.parametrize("r,c,warps", [(8, 32, 4), (2, 8, 2)])
def test_2d_block(device, r, c, warps):
    n = 40
    out = torch.zeros(r * c, dtype=torch.int64, device=device)
    olds = torch.zeros(n, r * c, dtype=torch.int64, device=device)
    block_2d_kernel[(n,)](out, olds, R=r, C=c, num_warps=warps)
    idx = torch.arange(r * c)
    step = torch.where(idx % 5 != 0, idx + 1, torch.zeros_like(idx))
    assert torch.equal(out.cpu(), n * step)
    masked = olds.cpu()[:, idx % 5 == 0]
    assert (masked == 0).all()  # masked off: 0 here (Triton: undefined)
    assert torch.equal(olds.cpu().sort(dim=0).values,
                       torch.arange(n)[:, None] * step[None, :])


# ---------------------------------------------------------- masks


@triton.jit
def masked_kernel(out, olds, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_xchg(out + offs, offs + 100, mask=offs < n)
    tl.store(olds + offs, old, mask=offs < n)
    tl.atomic_add(out + BLOCK, 1, mask=False)


def test_masked_lanes_do_nothing(device):
    out = torch.arange(33, dtype=torch.int32, device=device) - 50
    olds = torch.full((32,), 7, dtype=torch.int32, device=device)
    masked_kernel[(1,)](out, olds, 10, BLOCK=32)
    want = list(range(100, 110)) + list(range(-40, -17))
    assert out.cpu().tolist() == want
    assert olds.cpu().tolist() == list(range(-50, -40)) + [7] * 22


# ------------------------------------------------ every op and dtype

OPS = ["add", "max", "min", "and", "or", "xor"]
INT_DTYPES = [torch.int32, torch.int64]


@triton.jit
def rmw_kernel(out, vals, olds, OP: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    v = tl.load(vals + pid * BLOCK + offs)
    if OP == "add":
        old = tl.atomic_add(out + offs, v)
    elif OP == "max":
        old = tl.atomic_max(out + offs, v)
    elif OP == "min":
        old = tl.atomic_min(out + offs, v)
    elif OP == "and":
        old = tl.atomic_and(out + offs, v)
    elif OP == "or":
        old = tl.atomic_or(out + offs, v)
    else:
        old = tl.atomic_xor(out + offs, v)
    tl.store(olds + pid * BLOCK + offs, old)


def reference(op, init, vals):
    acc = init.clone()
    for row in vals:
        if op == "add":
            acc = acc + row
        elif op == "max":
            acc = torch.maximum(acc, row)
        elif op == "min":
            acc = torch.minimum(acc, row)
        elif op == "and":
            acc = acc & row
        elif op == "or":
            acc = acc | row
        else:
            acc = acc ^ row
    return acc


@pytest.mark.parametrize("dtype", INT_DTYPES)
@pytest.mark.parametrize("op", OPS)
def test_int_ops(device, op, dtype):
    n, block = 40, 32
    g = torch.Generator().manual_seed(3)
    vals = torch.randint(-1000, 1000, (n, block), generator=g).to(dtype)
    if op == "add":  # positive: the running sums increase
        vals = torch.randint(1, 1000, (n, block), generator=g).to(dtype)
    if op in ("and", "or", "xor"):
        vals = torch.randint(0, 1 << 30, (n, block), generator=g).to(dtype)
    init = torch.randint(-500, 500, (block,), generator=g).to(dtype)
    out = init.clone().to(device)
    olds = torch.zeros(n, block, dtype=dtype, device=device)
    rmw_kernel[(n,)](out, vals.to(device), olds, OP=op, BLOCK=block)
    final = reference(op, init, vals)
    assert torch.equal(out.cpu(), final)
    olds = olds.cpu()
    if op == "add":  # one chain: sorted olds step by the values, once each
        for j in range(block):
            s = olds[:, j].sort().values
            assert s[0] == init[j]
            steps = torch.cat([s[1:] - s[:-1], final[j:j + 1] - s[-1:]])
            assert torch.equal(steps.sort().values, vals[:, j].sort().values)
    elif op != "xor":
        assert torch.equal(reference(op, reference(op, init, olds), vals), final)


NP_OPS = {"add": np.add, "max": np.maximum, "min": np.minimum, "and": np.bitwise_and,
          "or": np.bitwise_or, "xor": np.bitwise_xor}


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("op", OPS)
def test_unsigned_ops_host(op, dtype):
    """uint32/uint64 (NumPy arrays: CI's torch has no such tensors): max and
    min compare unsigned, add wraps."""
    n, block = 24, 16
    i = np.arange(n * block, dtype=np.uint64).reshape(n, block)
    vals = (i * 2654435761 % (1 << 32) << (32 if dtype == np.uint64 else 0)).astype(dtype)
    vals |= dtype(i.astype(dtype) * 7 % 5)
    init = np.full(block, 1 << 31, dtype=dtype)
    out, olds = init.copy(), np.zeros((n, block), dtype=dtype)
    rmw_kernel[(n,)](out, vals, olds, OP=op, BLOCK=block)
    want = init.copy()
    for row in vals:
        want = NP_OPS[op](want, row)
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("op", ["max", "min"])
def test_float_max_min_signs(device, op, dtype):
    """Triton's float max/min (signed order of the bits for v >= 0, unsigned
    for v < 0) gives the true extremum over mixed signs."""
    n, block = 30, 16
    g = torch.Generator().manual_seed(5)
    vals = (torch.rand(n, block, generator=g) * 200 - 100).to(dtype)
    init = (torch.rand(block, generator=g) * 200 - 100).to(dtype)
    out = init.clone().to(device)
    olds = torch.zeros(n, block, dtype=dtype, device=device)
    rmw_kernel[(n,)](out, vals.to(device), olds, OP=op, BLOCK=block)
    assert torch.equal(out.cpu(), reference(op, init, vals))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32,
                                   torch.float64])
def test_float_add_exact_sums(device, dtype):
    n, block = 16, 16  # every running sum exact in bf16
    vals = torch.ones(n, block, dtype=dtype) * torch.arange(block, dtype=dtype)
    out = torch.full((block,), 1.0, dtype=dtype, device=device)
    olds = torch.zeros(n, block, dtype=dtype, device=device)
    rmw_kernel[(n,)](out, vals.to(device), olds, OP="add", BLOCK=block)
    assert torch.equal(out.cpu(), 1.0 + n * torch.arange(block, dtype=dtype))
    # the old values are the running sums 1 + k * j for k = 0..n-1
    want = 1.0 + torch.arange(n, dtype=dtype)[:, None] * torch.arange(block, dtype=dtype)
    assert torch.equal(olds.cpu().sort(dim=0).values, want)


@triton.jit
def f16_round_kernel(out, v):
    tl.atomic_add(out, tl.load(v))


def test_fp16_add_rounds_once(device):
    # 2048 + 1 is a tie in fp16: round to even gives 2048
    out = torch.tensor([2048.0], dtype=torch.float16, device=device)
    f16_round_kernel[(1,)](out, torch.tensor([1.0], dtype=torch.float16, device=device))
    assert out.item() == 2048.0
    out = torch.tensor([2050.0], dtype=torch.float16, device=device)
    f16_round_kernel[(1,)](out, torch.tensor([1.0], dtype=torch.float16, device=device))
    assert out.item() == 2052.0


@triton.jit
def xchg_kernel(out, olds, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_xchg(out + offs, (pid + 1).to(out.dtype.element_ty) + offs * 0)
    tl.store(olds + pid * BLOCK + offs, old)


@pytest.mark.parametrize("dtype", [torch.int32, torch.int64, torch.float32, torch.float64])
def test_xchg_chain(device, dtype):
    """Exchanges form one chain: the old values and the final value are the
    initial value and every program's value, each exactly once."""
    n, block = 100, 8
    out = torch.zeros(block, dtype=dtype, device=device)
    olds = torch.full((n, block), -1, dtype=dtype, device=device)
    xchg_kernel[(n,)](out, olds, BLOCK=block)
    for j in range(block):
        seen = sorted(olds[:, j].cpu().tolist() + [out[j].item()])
        assert seen == list(range(0, n + 1))


# ---------------------------------------------------------------- cas


@triton.jit
def cas_winner_kernel(flag, got):
    pid = tl.program_id(0)
    old = tl.atomic_cas(flag, 0, pid + 1)
    tl.store(got + pid, old)


def test_cas_one_winner(device):
    n = 500
    flag = torch.zeros(1, dtype=torch.int32, device=device)
    got = torch.full((n,), -1, dtype=torch.int32, device=device)
    cas_winner_kernel[(n,)](flag, got)
    got = got.cpu()
    winners = (got == 0).nonzero().flatten().tolist()
    assert len(winners) == 1
    assert flag.item() == winners[0] + 1
    assert (got[got != 0] == flag.item()).all()


@triton.jit
def cas_block_kernel(p, cmp, val, old, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    r = tl.atomic_cas(p + offs, tl.load(cmp + offs), tl.load(val + offs))
    tl.store(old + offs, r)


@pytest.mark.parametrize("dtype", [torch.int16, torch.float16, torch.bfloat16, torch.int32,
                                   torch.float32, torch.int64, torch.float64])
def test_cas_block_every_width(device, dtype):
    p = torch.arange(8, dtype=dtype)
    cmp = torch.tensor([0, 9, 2, 9, 4, 9, 6, 9], dtype=dtype)
    val = torch.full((8,), 42, dtype=dtype)
    old = torch.zeros(8, dtype=dtype, device=device)
    pd = p.clone().to(device)
    cas_block_kernel[(1,)](pd, cmp.to(device), val.to(device), old, BLOCK=8)
    assert torch.equal(old.cpu(), p)
    assert torch.equal(pd.cpu(), torch.where(p == cmp, val, p))


def test_cas_compares_bits(device):
    """-0.0 and 0.0 are different bits: no swap."""
    p = torch.tensor([-0.0] * 8, device=device)
    old = torch.zeros(8, device=device)
    cas_block_kernel[(1,)](p, torch.zeros(8, device=device),
                           torch.ones(8, device=device), old, BLOCK=8)
    assert torch.signbit(p.cpu()).all()


# ------------------------------------------------------ sem and scope

SEMS = [None, "relaxed", "acquire", "release", "acq_rel"]
SCOPES = [None, "gpu", "cta", "sys"]


@triton.jit
def order_kernel(c, SEM: tl.constexpr, SCOPE: tl.constexpr):
    tl.atomic_add(c, 1, sem=SEM, scope=SCOPE)
    c.atomic_or(2, sem=SEM, scope=SCOPE)
    tl.atomic_cas(c + 1, 0, 0, sem=SEM, scope=SCOPE)


@pytest.mark.parametrize("scope", SCOPES)
@pytest.mark.parametrize("sem", SEMS)
def test_sem_scope_accepted(device, sem, scope):
    c = torch.zeros(2, dtype=torch.int32, device=device)
    order_kernel[(7,)](c, SEM=sem, SCOPE=scope)
    assert c.cpu().tolist()[1] == 0 and c.cpu().tolist()[0] >= 7


def test_sem_scope_in_ir_and_ptx_text():
    c = torch.zeros(2, dtype=torch.int32)
    asm = stages(order_kernel, c, SEM="release", SCOPE="cta")
    assert "atomic_add c, 1, none {mem=release_cta}" in asm["ssa-opt"]
    assert "atom.global.cta.release.add.u32" in asm["cuda"]
    assert "atom.global.release.cta.cas.b32" in asm["cuda"]
    default = stages(order_kernel, c, SEM=None, SCOPE=None)
    assert "{mem=acq_rel_gpu}" in default["ssa-opt"]
    assert "atom.global.gpu.acq_rel.or.b32" in default["cuda"]


def test_unused_scalar_result_needs_no_barrier():
    """Like Triton: a scalar atomic whose value nobody reads is predicated on
    thread 0 and never broadcast; the one barrier in the text is the host's
    (mt_atomic_host_sync, empty on the GPU)."""
    c = torch.zeros(2, dtype=torch.int32)
    cuda = stages(order_kernel, c, SEM=None, SCOPE=None)["cuda"]
    assert cuda.count("__syncthreads") == 1
    assert "#if !defined(__CUDA_ARCH__)\n    __syncthreads();\n#endif" in cuda
    assert "if (threadIdx.x == 0) mt_atomic_add_i32_acq_rel_gpu(" in cuda


# ---------------------------------------------------------------- errors


@triton.jit
def bad_kernel(p, WHICH: tl.constexpr):
    if WHICH == 0:
        tl.atomic_max(p, 1.0)  # bad0
    elif WHICH == 1:
        tl.atomic_add(p, 1, sem="seq_cst")  # bad1
    elif WHICH == 2:
        tl.atomic_add(p, 1, scope="grid")  # bad2
    elif WHICH == 3:
        tl.atomic_add(p, 1, mask=tl.program_id(0))  # bad3
    elif WHICH == 4:
        tl.atomic_add(p, "one")  # bad4
    elif WHICH == 5:
        tl.atomic_cas(p, 0, 1)  # bad5
    elif WHICH == 6:
        tl.atomic_add(p, tl.arange(0, 8))  # bad6
    else:
        tl.atomic_and(p, 1)  # bad7


@pytest.mark.parametrize("dtype,which,pattern", [
    (torch.float16, 0, r"atomic_max does not support fp16"),
    (torch.bfloat16, 0, r"atomic_max does not support bf16"),
    (torch.int16, 0, r"atomic_max does not support int16"),
    (torch.int8, 7, r"atomic_and does not support int8"),
    (torch.uint8, 7, r"atomic_and does not support uint8"),
    (torch.bool, 7, r"atomic_and does not support int1"),
    (torch.float32, 7, r"atomic_and does not support fp32"),
    (torch.int32, 1, r"sem must be 'acquire', 'release', 'acq_rel' or 'relaxed', got 'seq_cst'"),
    (torch.int32, 2, r"scope must be 'gpu', 'cta' or 'sys', got 'grid'"),
    (torch.int32, 3, r"mask must be bool, got i32"),
    (torch.int32, 4, r"val must be a number or a tensor, got str"),
    (torch.int8, 5, r"atomic_cas only supports elements with width \{16, 32, 64\}"),
    (torch.int32, 6, r"cannot broadcast shape 8 to \(\)"),
])
def test_errors(dtype, which, pattern):
    p = torch.zeros(8, dtype=dtype)
    assert_compile_error(bad_kernel, (p,), {"WHICH": which},
                         needle=f"# bad{which}", pattern=pattern)


def test_pointer_required():
    @triton.jit
    def k(x):
        tl.atomic_add(x, 1)
    with pytest.raises(triton.CompilationError, match="expects a pointer"):
        k.compile(3, stages_only=True)


# ----------------------------------------------- spinning on the host


@triton.jit
def wait_for_next_kernel(flags, seen, ITERS: tl.constexpr):
    """Program i waits (a bounded runtime loop of failed compare-and-swaps)
    for program i + 1 to start, which it cannot while one worker runs
    programs in order; the last program's flag is raised by the host."""
    pid = tl.program_id(0)
    got = tl.atomic_xchg(flags + pid, 1)
    for _ in range(0, ITERS):
        got = tl.maximum(got, tl.atomic_cas(flags + pid + 1, 1, 1))
    tl.store(seen + pid, got)


def test_spinning_program_lets_later_programs_run(monkeypatch):
    monkeypatch.setenv("MYTRITON_HOST_WORKERS", "1")
    n = 6
    flags = torch.zeros(n + 1, dtype=torch.int32)
    flags[n] = 1
    seen = torch.zeros(n, dtype=torch.int32)
    wait_for_next_kernel[(n,)](flags, seen, ITERS=5000, num_warps=1)
    assert seen.tolist() == [1] * n


@triton.jit
def spin_lock_kernel(lock, total, x):
    """Tutorial 05's lock around a read-modify-write of plain loads and
    stores (its tl.debug_barrier is left out: thread 0 does all here)."""
    pid = tl.program_id(0)
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    tl.store(total, tl.load(total) + tl.load(x + pid))
    tl.atomic_xchg(lock, 0)


def test_spin_lock_tutorial_style(device):
    n = 300
    lock = torch.zeros(1, dtype=torch.int32, device=device)
    total = torch.zeros(1, dtype=torch.int32, device=device)
    x = torch.arange(n, dtype=torch.int32, device=device)
    spin_lock_kernel[(n,)](lock, total, x)
    assert total.item() == n * (n - 1) // 2
    assert lock.item() == 0


@triton.jit
def grouped_partial_sums_kernel(x, dw, lock, n_rows, N: tl.constexpr, GROUP: tl.constexpr):
    """Tutorial 05's backward pass pattern: each row adds its partial sums
    into one of GROUP buffers under that buffer's lock, the first writer
    storing instead of adding (its count)."""
    row = tl.program_id(0)
    cols = tl.arange(0, N)
    partial = tl.load(x + row * N + cols)
    lock_id = row % GROUP
    lock += lock_id
    count = lock + GROUP
    dw = dw + lock_id * N + cols
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        partial += tl.load(dw)
    tl.store(dw, partial)
    tl.debug_barrier()
    tl.atomic_xchg(lock, 0)


def test_grouped_partial_sums_under_locks(device):
    rows, n, group = 120, 64, 4
    x = (torch.arange(rows * n, dtype=torch.int32).reshape(rows, n) % 11).to(device)
    dw = torch.full((group, n), -99, dtype=torch.int32, device=device)
    locks = torch.zeros(2 * group, dtype=torch.int32, device=device)
    grouped_partial_sums_kernel[(rows,)](x, dw, locks, rows, N=n, GROUP=group, num_warps=2)
    want = torch.stack([x.cpu()[g::group].sum(0) for g in range(group)]).to(torch.int32)
    assert torch.equal(dw.cpu(), want)
    assert locks.cpu().tolist() == [0] * group + [1] * group
