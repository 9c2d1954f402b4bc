"""Every dtype through load, arithmetic, math, reduce, cast and store on the
host backend (and CUDA when there is one), against NumPy/torch computed
the way Triton defines the operation (issue 8).  The differential corpus
(tests/diff) checks the same against Triton's recorded GPU results."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl


@triton.jit
def binop(x, y, out, n, OP: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x + offs, mask=m)
    b = tl.load(y + offs, mask=m)
    if OP == "add":
        r = a + b
    elif OP == "mul":
        r = a * b
    elif OP == "sub":
        r = a - b
    elif OP == "floordiv":
        r = a // b
    else:
        r = a % b
    tl.static_assert(r.dtype == out.dtype.element_ty)
    tl.store(out + offs, r, mask=m)


INT_TYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8]


@pytest.mark.parametrize("dt", INT_TYPES)
@pytest.mark.parametrize("op", ["add", "mul", "sub"])
def test_integer_ops_wrap(device, dt, op):
    info = torch.iinfo(dt)
    vals = [info.max, info.min, info.max - 1, 7, -3 if info.min < 0 else 3, 0, 1, info.max]
    x = torch.tensor(vals, dtype=dt)
    y = torch.tensor(vals[::-1], dtype=dt)
    out = torch.empty_like(x)
    binop[(1,)](x.to(device), y.to(device), o := out.to(device), 8, OP=op, BLOCK=8)
    bits = 8 * x.element_size()
    mask = (1 << bits) - 1
    want = []
    for a, b in zip(vals, vals[::-1]):
        r = {"add": a + b, "mul": a * b, "sub": a - b}[op] & mask
        if info.min < 0 and r >> (bits - 1):
            r -= 1 << bits
        want.append(r)
    assert o.cpu().tolist() == want


@pytest.mark.parametrize("dt", [torch.int8, torch.int32, torch.int64])
def test_signed_div_mod_truncate_like_c(device, dt):
    a = torch.tensor([7, -7, 7, -7, 0, 5, -1, 3], dtype=dt)
    b = torch.tensor([2, 2, -2, -2, 3, 5, 3, -4], dtype=dt)
    q, r = torch.empty_like(a), torch.empty_like(a)
    binop[(1,)](a.to(device), b.to(device), qd := q.to(device), 8, OP="floordiv", BLOCK=8)
    binop[(1,)](a.to(device), b.to(device), rd := r.to(device), 8, OP="mod", BLOCK=8)
    assert qd.cpu().tolist() == [int(x / y) for x, y in zip(a.tolist(), b.tolist())]
    assert rd.cpu().tolist() == [int(np.fmod(x, y)) for x, y in zip(a.tolist(), b.tolist())]


@pytest.mark.parametrize("dt", [torch.float16, torch.bfloat16])
@pytest.mark.parametrize("op", ["add", "mul", "sub"])
def test_half_ops_round_each_result(device, dt, op):
    g = torch.Generator().manual_seed(1)
    x = (torch.randn(256, generator=g) * 100).to(dt)
    y = (torch.randn(256, generator=g) * 100).to(dt)
    out = torch.empty_like(x)
    binop[(1,)](x.to(device), y.to(device), o := out.to(device), 256, OP=op, BLOCK=256)
    fx, fy = x.float(), y.float()
    want = {"add": fx + fy, "mul": fx * fy, "sub": fx - fy}[op].to(dt)
    assert torch.equal(o.cpu().view(torch.int16), want.view(torch.int16))


@triton.jit
def convert(x, out, n, BLOCK: tl.constexpr, RTZ: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x + offs, mask=m)
    if RTZ:
        r = v.to(out.dtype.element_ty, fp_downcast_rounding="rtz")
    else:
        r = v.to(out.dtype.element_ty)
    tl.store(out + offs, r, mask=m)


def test_f32_to_f16_rounds_to_nearest_even(device):
    # halfway cases between f16 neighbours, and values past the largest f16
    x = torch.tensor([1 + 2**-11, 1 + 3 * 2**-11, -(1 + 2**-11), 65520.0, 65519.0,
                      6e-8, 2**-25, float("inf")], dtype=torch.float32)
    out = torch.empty(8, dtype=torch.float16)
    convert[(1,)](x.to(device), o := out.to(device), 8, BLOCK=8, RTZ=False)
    assert torch.equal(o.cpu().view(torch.int16), x.to(torch.float16).view(torch.int16))


def test_f32_to_f16_rtz(device):
    x = torch.tensor([1 + 3 * 2**-11, -(1 + 3 * 2**-11), 65520.0, 1e6, -1e6, 0.1, 2.0, -0.0],
                     dtype=torch.float32)
    out = torch.empty(8, dtype=torch.float16)
    convert[(1,)](x.to(device), o := out.to(device), 8, BLOCK=8, RTZ=True)
    want = np.array([1 + 2 * 2**-11, -(1 + 2 * 2**-11), 65504.0, 65504.0, -65504.0,
                     0.0999755859375, 2.0, -0.0], dtype=np.float16)
    assert o.cpu().numpy().view(np.int16).tolist() == want.view(np.int16).tolist()


def test_float_to_int_saturates_like_the_gpu(device):
    x = torch.tensor([1e10, -1e10, float("nan"), 3.9, -3.9, 2147483520.0, float("inf"),
                      -float("inf")], dtype=torch.float32)
    out = torch.empty(8, dtype=torch.int32)
    convert[(1,)](x.to(device), o := out.to(device), 8, BLOCK=8, RTZ=False)
    assert o.cpu().tolist() == [2**31 - 1, -2**31, 0, 3, -3, 2147483520, 2**31 - 1, -2**31]


def test_copy_keeps_nan_payloads(device):
    bits = torch.tensor([0x7E01, -0x0200, 0x7C01, 0x0001, -0x8000, 0x7BFF, 0, -1],
                        dtype=torch.int16)
    x = bits.view(torch.float16)
    out = torch.empty_like(x)
    convert[(1,)](x.to(device), o := out.to(device), 8, BLOCK=8, RTZ=False)
    assert torch.equal(o.cpu().view(torch.int16), bits)


@triton.jit
def bitcast_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, v.to(out.dtype.element_ty, bitcast=True))


@pytest.mark.parametrize("src,dst", [(torch.float32, torch.int32), (torch.float16, torch.int16),
                                     (torch.float64, torch.int64), (torch.int16, torch.bfloat16)])
def test_bitcast_keeps_bits(device, src, dst):
    x = torch.tensor([1.5, -2.25, 0.0, 3.0, 1000.0, -0.5, 7.0, 0.125]).to(src)
    out = torch.empty(8, dtype=dst)
    bitcast_kernel[(1,)](x.to(device), o := out.to(device), BLOCK=8)
    assert torch.equal(o.cpu().view(torch.uint8), x.view(torch.uint8))


@triton.jit
def literal_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    r = v * 3.1 + 1
    tl.static_assert(r.dtype == tl.float16)
    tl.store(out + offs, r)


def test_float_literal_takes_the_half_type(device):
    x = torch.arange(8, dtype=torch.float16)
    out = torch.empty_like(x)
    literal_kernel[(1,)](x.to(device), o := out.to(device), BLOCK=8)
    lit = torch.tensor(3.1, dtype=torch.float16)
    want = ((x.float() * lit.float()).half().float() + 1).half()
    assert torch.equal(o.cpu(), want)


@triton.jit
def sums(x, out, BLOCK: tl.constexpr):
    v = tl.load(x + tl.arange(0, BLOCK))
    s = tl.sum(v)
    tl.static_assert(s.dtype == tl.int32)
    tl.store(out, s)
    tl.store(out + 1, tl.max(v))


def test_int8_sum_widens_to_int32(device):
    x = torch.full((64,), 100, dtype=torch.int8)
    out = torch.zeros(2, dtype=torch.int32)
    sums[(1,)](x.to(device), o := out.to(device), BLOCK=64)
    assert o.cpu().tolist() == [6400, 100]


@triton.jit
def dot16(a, b, c, N: tl.constexpr):
    r = tl.arange(0, N)
    x = tl.load(a + r[:, None] * N + r[None, :])
    y = tl.load(b + r[:, None] * N + r[None, :])
    tl.store(c + r[:, None] * N + r[None, :], tl.dot(x, y))


@pytest.mark.parametrize("dt", [torch.float16, torch.bfloat16, torch.int8])
def test_dot_narrow_operands(device, dt):
    g = torch.Generator().manual_seed(2)
    if dt == torch.int8:
        a = torch.randint(-128, 128, (32, 32), generator=g, dtype=torch.int8)
        b = torch.randint(-128, 128, (32, 32), generator=g, dtype=torch.int8)
        want = a.int() @ b.int()
        out = torch.empty(32, 32, dtype=torch.int32)
    else:
        a = torch.randn(16, 16, generator=g).to(dt)
        b = torch.randn(16, 16, generator=g).to(dt)
        want = a.double() @ b.double()
        out = torch.empty(16, 16, dtype=torch.float32)
    dot16[(1,)](a.to(device), b.to(device), o := out.to(device), N=a.shape[0])
    if dt == torch.int8:
        assert torch.equal(o.cpu(), want)
    else:
        torch.testing.assert_close(o.cpu().double(), want, rtol=1e-5, atol=1e-5)


def test_negative_literal_with_unsigned_tensor_is_an_error(device):
    @triton.jit
    def k(x):
        tl.store(x, tl.load(x) + -1)

    with pytest.raises(triton.CompilationError, match="unsigned tensor and a negative scalar"):
        k[(1,)](torch.zeros(1, dtype=torch.uint8, device=device))


@triton.jit
def annotated(x_ptr, out, n: tl.int64, d: tl.float64):
    offs = tl.arange(0, 4)
    x = tl.load(x_ptr + offs)
    z = x + n
    tl.static_assert(z.dtype == tl.int64)
    tl.static_assert((x + d).dtype == tl.float64)
    tl.store(out + offs, z)


def test_annotated_scalar_parameters_take_their_dtype(device):
    # `n: tl.int64` is i64 even for a value that fits i32, as in Triton
    x = torch.arange(4, dtype=torch.int8)
    out = torch.zeros(4, dtype=torch.int64)
    annotated[(1,)](x.to(device), o := out.to(device), 5, 0.5)
    assert o.cpu().tolist() == [5, 6, 7, 8]


def test_int8_dot_needs_k_32(device):
    a = torch.zeros(16, 16, dtype=torch.int8, device=device)
    with pytest.raises(triton.CompilationError, match="K >= 32"):
        dot16[(1,)](a, a, torch.empty(16, 16, dtype=torch.int32, device=device), N=16)


@triton.jit
def float_rem_kernel(x, y, o, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o + r, tl.load(x + r) % tl.load(y + r))


def test_float_remainder_is_tritons_frem(device):
    """x - trunc(x / y) * y fused into an fma, x for an infinite y (LLVM's
    NVPTX frem): +0.0 for -4 % 2 where C's fmod gives -0.0, and 256 for
    1e10 % 3 in f32, whose quotient is not exact."""
    x = torch.tensor([-4.0, 1e10, 5.5, -5.5, 3.0, 7.0, -0.0, 9.0], device=device)
    y = torch.tensor([2.0, 3.0, 2.0, 2.0, float("inf"), -2.0, 1.0, 4.5], device=device)
    o = torch.zeros(8, device=device)
    float_rem_kernel[(1,)](x, y, o, N=8)
    assert o.tolist() == [0.0, 256.0, 1.5, -1.5, 3.0, 1.0, 0.0, 0.0]
    assert not torch.signbit(o[0])


@triton.jit
def negate_kernel(x, o, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o + r, -tl.load(x + r))


def test_integer_negation_wraps(device):
    """-INT_MIN wraps to INT_MIN (two's complement, as Triton); the C text
    negates in the unsigned type, so no signed overflow is ever formed."""
    x = torch.tensor([-2**31, 5, -7, 2**31 - 1], dtype=torch.int32, device=device)
    o = torch.zeros(4, dtype=torch.int32, device=device)
    negate_kernel[(1,)](x, o, N=4)
    assert o.tolist() == [-2**31, -5, 7, -2**31 + 1]
    assert "(-((unsigned)" in negate_kernel.compile(x, o, N=4).asm["cuda"]


@triton.jit
def signed_shift_kernel(x, y, o, N: tl.constexpr):
    r = tl.arange(0, N)
    tl.store(o + r, tl.load(x + r) >> tl.load(y + r))


def test_right_shift_follows_the_left_operands_signedness(device):
    """int32 >> uint64 computes in uint64 (Triton's promotion) but shifts
    arithmetically, as Triton picks ashr by the left operand's own type."""
    x = torch.tensor([-8, -1, 100, -2**31], dtype=torch.int32, device=device)
    y = torch.tensor([1, 63, 2, 4], dtype=torch.int64, device=device)
    o = torch.zeros(4, dtype=torch.int64, device=device)
    signed_shift_kernel[(1,)](x, triton.reinterpret(y, tl.uint64),
                              triton.reinterpret(o, tl.uint64), N=4)
    assert o.tolist() == (x.long() >> y).tolist()


@triton.jit
def bitwise_float_kernel(x, y, o):
    tl.store(o, tl.load(x) & tl.load(y))


@triton.jit
def mixed_sign_div_kernel(x, y, o):
    tl.store(o, tl.load(x) // tl.load(y))


def test_type_errors_in_tritons_words():
    """The messages Triton's own tests match (test_bitwise_op, test_bin_op)."""
    f32 = torch.zeros(1)
    with pytest.raises(triton.CompilationError, match="invalid operands of type"):
        bitwise_float_kernel.compile(f32, f32, f32, stages_only=True)
    i16 = torch.zeros(1, dtype=torch.int16)
    u8 = torch.zeros(1, dtype=torch.uint8)
    with pytest.raises(triton.CompilationError,
                       match="Cannot use .* because they have different signedness"):
        mixed_sign_div_kernel.compile(i16, u8, i16, stages_only=True)
