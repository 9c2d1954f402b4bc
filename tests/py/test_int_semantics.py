"""Integer // % << >> defined for every operand (issue 15), on the host
backend: a zero divisor, MIN // -1 and shift counts outside [0, width) no
longer kill the process (SIGFPE) or depend on the host's shift masking,
and give what Triton 3.6 gives on the GPU for blocks (measured on an H200;
tests/diff/corpus/int_div_shift_edges.py holds the block results,
tests/unit/test_int_rt.c checks the runtime and the folder against the
whole record).  Here: runtime scalars (Triton's scalar path gives x for
x % 0; we keep the block rule), constant divisors and counts (a constant
zero is garbage under Triton: we give the runtime zero's result), and
values the constant folder computes."""
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import op_counts, ssa_opt

INT_DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]


def ones(dtype):
    """All ones of dtype, as a Python int of the tensor's value."""
    return torch.tensor(-1).to(dtype).item() if dtype.is_signed else 255


@triton.jit
def scalar_ops(out, a, b):
    tl.store(out + 0, a // b)
    tl.store(out + 1, a % b)
    tl.store(out + 2, a << b)
    tl.store(out + 3, a >> b)


@pytest.mark.parametrize("a,b,want", [
    (7, 0, [-1, -1, 7, 7]),   # Triton's scalar kernel gives 7 for 7 % 0
    (-7, 0, [-1, -1, -7, -7]),
    (-2**31, -1, [-2**31, 0, 0, -1]),
    (1, 32, [0, 1, 0, 0]),
    (1, 40, [0, 1, 0, 0]),
    (-8, 33, [0, -8, 0, -1]),
    (5, -1, [-5, 0, 0, 0]),
])
def test_scalar_int32(a, b, want):
    out = torch.zeros(4, dtype=torch.int32)
    scalar_ops[(1,)](out, a, b)
    assert out.tolist() == want


@triton.jit
def scalar_ops_i64(out, a: tl.int64, b: tl.int64):
    tl.store(out + 0, a // b)
    tl.store(out + 1, a % b)
    tl.store(out + 2, a << b)
    tl.store(out + 3, a >> b)


@pytest.mark.parametrize("a,b,want", [
    (7, 0, [0xFFFFFFFF, 0xFFFFFFFF, 7, 7]),  # the 32-bit fast path
    (2**32, 0, [-1, -1, 2**32, 2**32]),
    (-7, 0, [-1, -1, -7, -7]),
    (-2**63, -1, [-2**63, 0, 0, -1]),
    (3, 64, [0, 3, 0, 0]),
    (-3, 200, [0, -3, 0, -1]),
])
def test_scalar_int64(a, b, want):
    out = torch.zeros(4, dtype=torch.int64)
    scalar_ops_i64[(1,)](out, a, b)
    assert out.tolist() == want


@triton.jit
def const_divisor(x_ptr, out, BLOCK: tl.constexpr, D: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out + offs, x // D)
    tl.store(out + BLOCK + offs, x % D)
    tl.store(out + 2 * BLOCK + offs, x << D)
    tl.store(out + 3 * BLOCK + offs, x >> D)


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_constant_zero_is_the_runtime_zero(dtype):
    x = torch.tensor([7, 0, 1, 5, 2, 3, 100, 127], dtype=dtype)
    if dtype.is_signed:
        x[1:3] = torch.tensor([-7, -1], dtype=dtype)
    out = torch.zeros(32, dtype=dtype)
    const_divisor[(1,)](x, out, BLOCK=8, D=0)
    z = out.view(4, 8).tolist()
    if dtype == torch.int64:  # 0xffffffff where x fits in 32 unsigned bits
        want = [0xFFFFFFFF if v >= 0 else -1 for v in x.tolist()]
    else:
        want = [ones(dtype)] * 8
    assert z[0] == want and z[1] == want
    assert z[2] == x.tolist() and z[3] == x.tolist()


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_constant_counts(dtype):
    """Constant counts >= the width: << gives 0, >> 0 or the sign fill."""
    width = 8 * torch.empty(0, dtype=dtype).element_size()
    x = torch.tensor([7, 0, 1, 5, 2, 3, 100, 127], dtype=dtype)
    if dtype.is_signed:
        x[1:3] = torch.tensor([-7, -1], dtype=dtype)
    for count in (width, width + 1, 100):
        if count > torch.iinfo(dtype).max:
            continue
        out = torch.zeros(32, dtype=dtype)
        const_divisor[(1,)](x, out, BLOCK=8, D=count)
        z = out.view(4, 8).tolist()
        assert z[2] == [0] * 8
        assert z[3] == [-1 if v < 0 else 0 for v in x.tolist()]


@triton.jit
def folded_ops(out, A: tl.constexpr, B: tl.constexpr):
    a = tl.full((), A, tl.int32)
    b = tl.full((), B, tl.int32)
    tl.store(out + 0, a // b)
    tl.store(out + 1, a % b)
    tl.store(out + 2, a << b)
    tl.store(out + 3, a >> b)


@pytest.mark.parametrize("a,b,want", [
    (7, 0, [-1, -1, 7, 7]),
    (-2**31, -1, [-2**31, 0, 0, -1]),
    (-8, 33, [0, -8, 0, -1]),
    (5, -1, [-5, 0, 0, 0]),
])
def test_folder_gives_the_runtime_values(a, b, want):
    """Constant operands fold (no div/rem/shl/shr op left) to the values
    the generated code computes at run time."""
    out = torch.zeros(4, dtype=torch.int32)
    counts = op_counts(ssa_opt(folded_ops, out, A=a, B=b))
    assert not {"div", "rem", "shl", "shr"} & set(counts), counts
    folded_ops[(1,)](out, A=a, B=b)
    assert out.tolist() == want


@triton.jit
def block_edges(x_ptr, y_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out + offs, x // y)
    tl.store(out + BLOCK + offs, x % y)


def test_int32_block_no_trap():
    """The issue's SIGFPE: an int32 block divided by a block with zeros and
    INT_MIN // -1 in it, on the host, now gives Triton's values."""
    x = torch.tensor([5, -2**31, -2**31, 9], dtype=torch.int32)
    y = torch.tensor([0, -1, 0, -4], dtype=torch.int32)
    out = torch.zeros(8, dtype=torch.int32)
    block_edges[(1,)](x, y, out, BLOCK=4)
    assert out.tolist() == [-1, -2**31, -1, -2, -1, 0, -1, 1]


@triton.jit
def wrap_ops(x_ptr, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out + offs, x * x)
    tl.store(out + BLOCK + offs, tl.abs(x))
    tl.store(out + 2 * BLOCK + offs, tl.cumsum(x, axis=0))
    tl.store(out + 3 * BLOCK + offs, tl.cumprod(x, axis=0))
    tl.store(out + 4 * BLOCK + offs, tl.sum(x, axis=0) + tl.zeros_like(x))


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_wrapping_without_undefined_behaviour(dtype):
    """Products, abs, sums and scans wrap as Triton's do, computed in
    unsigned C types (a 16-bit -1 * -1 was 0xffff * 0xffff in int, abs(MIN)
    a negation of INT_MIN, an integer sum's combine a signed +: undefined
    in C; `make test-ubsan-host` runs this under UBSan)."""
    info = torch.iinfo(dtype)
    vals = [info.min, info.max, -1 if dtype.is_signed else 1, info.max]
    x = torch.tensor(vals, dtype=dtype)
    sdt = dtype if dtype in (torch.int64,) else torch.int32  # sum's type (Triton promotes)
    out = torch.zeros(20, dtype=dtype)
    wrap_ops[(1,)](x, out, BLOCK=4)
    bits = 8 * x.element_size()

    def wrap(v, width=bits, signed=dtype.is_signed):
        v %= 1 << width
        return v - (1 << width) if signed and v >= 1 << (width - 1) else v

    z = out.view(5, 4).tolist()
    assert z[0] == [wrap(v * v) for v in vals]
    assert z[1] == [wrap(abs(v)) for v in vals]
    assert z[2] == [wrap(sum(vals[:i + 1])) for i in range(4)]
    prods = [1]
    for v in vals:
        prods.append(wrap(prods[-1] * v))
    assert z[3] == prods[1:]
    total = wrap(sum(vals), 8 * torch.empty(0, dtype=sdt).element_size(), True)
    assert z[4] == [wrap(total)] * 4
