"""tl.dot_scaled: the microscaled matrix product, checked against a NumPy
model of Triton's decomposition on GPUs without native microscaling
(DecomposeScaledBlocked): each operand decoded exactly from its format
(e2m1 two per byte, low nibble first; e4m3; e5m2; bf16; fp16), rounded to
the compute type (fp16 when either format is fp16, else bf16), multiplied
in that type by 2^(scale - 127) (scale 0 gives 0, 0xFF infinity, and NaN
unless fast_math), then a float64 product that the kernel's f32
accumulation must match to within its rounding.

Formats arrive as Triton allows: uint8 bits for e2m1/e4m3/e5m2, bf16 and
fp16 tensors, and fp8 or uint16 through triton.reinterpret.  The host
backend runs every case (and CUDA too where there is a GPU); the MLIR
backend's module for fp16 formats runs in tests/py/mlir_interp.py."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error

FORMATS = ["e2m1", "e4m3", "e5m2", "bf16", "fp16"]


# ------------------------------------------------------------ the model

def decode(fmt, bits, triton_e5m2_bf16=False):
    """Exact float64 values of a format's bits (e2m1: one code a byte).
    triton_e5m2_bf16: e5m2's exponent 31 read as a normal exponent, as
    Triton 3.6's e5m2 -> bf16 conversion does (infinity gives 65536)."""
    bits = np.asarray(bits)
    if fmt == "bf16":
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    if fmt == "fp16":
        return bits.astype(np.uint16).view(np.float16).astype(np.float64)
    ebits, mbits = {"e2m1": (2, 1), "e4m3": (4, 3), "e5m2": (5, 2)}[fmt]
    b = bits.astype(np.int64)
    sign = np.where(b >> (ebits + mbits) & 1, -1.0, 1.0)
    e = b >> mbits & ((1 << ebits) - 1)
    m = b & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    val = np.where(e == 0, m / 2.0 ** mbits * 2.0 ** (1 - bias),
                   (1 + m / 2.0 ** mbits) * 2.0 ** (e - bias))
    if fmt == "e4m3":
        val = np.where((e == 15) & (m == 7), np.nan, val)
    if fmt == "e5m2" and not triton_e5m2_bf16:
        val = np.where(e == 31, np.where(m == 0, np.inf, np.nan), val)
    return sign * val


def to_comp(x, comp):
    """float64 values (exact in f32) rounded to bf16 or fp16, nearest even."""
    if comp == "fp16":
        return np.asarray(x, dtype=np.float64).astype(np.float32).astype(np.float16) \
            .astype(np.float64)
    u = np.asarray(x, dtype=np.float64).astype(np.float32).view(np.uint32).astype(np.uint64)
    r = (u + 0x7FFF + ((u >> 16) & 1)) & 0xFFFF0000
    r = np.where(np.isnan(np.asarray(x)), u | 0x400000, r)
    return r.astype(np.uint32).view(np.float32).astype(np.float64)


def scale_values(s, comp):
    """e8m0 codes as Triton's scaleTo16 makes them in the compute type."""
    s = np.asarray(s).astype(np.int64)
    v = np.where(s == 0, 0.0, np.where(s == 255, np.inf, 2.0 ** (s - 127.0)))
    return to_comp(v, comp)


def operand(fmt, data, scale, comp, kdim, k_pack=True, fast_math=False):
    """The dot operand Triton's decomposition builds, as float64."""
    data = np.asarray(data)
    if fmt == "e2m1":
        axis = kdim if k_pack else 1 - kdim
        lo, hi = decode(fmt, data & 15), decode(fmt, data >> 4)
        v = np.stack([lo, hi], axis=axis + 1)
        shape = list(data.shape)
        shape[axis] *= 2
        v = v.reshape(shape)
    else:
        v = decode(fmt, data, triton_e5m2_bf16=comp == "bf16")
    v = to_comp(v, comp)
    if scale is None:
        return v
    s = np.repeat(np.asarray(scale), 32, axis=1)          # [rows, K]
    if kdim == 0:
        s = s.T
    with np.errstate(invalid="ignore", over="ignore"):
        out = to_comp(v * scale_values(s, comp), comp)
    if not fast_math:
        out = np.where(s == 255, np.nan, out)
    return out


def comp_type(fa, fb):
    return "fp16" if "fp16" in (fa, fb) else "bf16"


def check_close(got, a, b, acc=None):
    """got (f32) against the float64 product of the operands: NaN and
    infinities where the model has them, else within f32 accumulation
    error."""
    with np.errstate(invalid="ignore"):
        ref = a @ b + (0 if acc is None else acc)
        mag = np.abs(a) @ np.abs(b) + (0 if acc is None else np.abs(acc))
    got = np.asarray(got, dtype=np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(ref))
    inf = np.isinf(ref)          # fp16 compute overflows as Triton's does
    assert np.array_equal(got[inf], ref[inf])
    ok = np.isfinite(ref)
    tol = 4 * a.shape[1] * 2.0 ** -24 * mag[ok] + 1e-30
    assert (np.abs(got[ok] - ref[ok]) <= tol).all(), np.abs(got[ok] - ref[ok]).max()


# ------------------------------------------------------------ inputs

def make_data(fmt, shape, gen, finite=True):
    """A tensor of the format's storage (uint8 bits, bf16, fp16) with
    finite values; NumPy bits of it for the model."""
    if fmt in ("bf16", "fp16"):
        dt = torch.bfloat16 if fmt == "bf16" else torch.float16
        t = torch.from_numpy(gen.standard_normal(shape).astype(np.float32)).to(dt)
        return t, t.view(torch.int16).numpy().view(np.uint16)
    bits = gen.integers(0, 256, size=shape, dtype=np.uint8)
    if finite and fmt != "e2m1":
        mask = 0x7C if fmt == "e5m2" else 0x7F            # exponent all ones
        bad = (bits & mask) == mask
        bits = np.where(bad, bits & ~np.uint8(0x08), bits).astype(np.uint8)
    return torch.from_numpy(bits.copy()), bits


# ------------------------------------------------------------ kernels

@triton.jit
def scaled_matmul(a_ptr, sam, sak, as_ptr, b_ptr, sbk, sbn, bs_ptr, c_ptr, M, N, K,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  FA: tl.constexpr, FB: tl.constexpr, FAST: tl.constexpr):
    """C = dot_scaled over K in BK steps (acc= carries it), masked on M, N
    and K; packed e2m1 operands hold BK // 2 bytes a step."""
    PA: tl.constexpr = 2 if FA == "e2m1" else 1
    PB: tl.constexpr = 2 if FB == "e2m1" else 1
    SK: tl.constexpr = BK // 32
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 // PA + tl.arange(0, BK // PA)
        kb = k0 // PB + tl.arange(0, BK // PB)
        a = tl.load(a_ptr + rm[:, None] * sam + ka[None, :] * sak,
                    mask=(rm[:, None] < M) & (ka[None, :] < K // PA), other=0)
        b = tl.load(b_ptr + kb[:, None] * sbk + rn[None, :] * sbn,
                    mask=(kb[:, None] < K // PB) & (rn[None, :] < N), other=0)
        ks = k0 // 32 + tl.arange(0, SK)
        a_s = None
        b_s = None
        if as_ptr is not None:
            a_s = tl.load(as_ptr + rm[:, None] * (K // 32) + ks[None, :],
                          mask=(rm[:, None] < M) & (ks[None, :] < K // 32), other=127)
        if bs_ptr is not None:
            b_s = tl.load(bs_ptr + rn[:, None] * (K // 32) + ks[None, :],
                          mask=(rn[:, None] < N) & (ks[None, :] < K // 32), other=127)
        acc = tl.dot_scaled(a, a_s, FA, b, b_s, FB, acc=acc, fast_math=FAST)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def run_matmul(device, fa, fb, M, N, K, BM, BN, BK, scale_a, scale_b, seed,
               fast_math=False, scales=None, a_col=False):
    gen = np.random.default_rng(seed)
    pa, pb = (2 if fa == "e2m1" else 1), (2 if fb == "e2m1" else 1)
    a, abits = make_data(fa, (K // pa, M) if a_col else (M, K // pa), gen)
    if a_col:
        a, abits = a.t(), abits.T
    b, bbits = make_data(fb, (K // pb, N), gen)
    comp = comp_type(fa, fb)
    lo, hi = (124, 131) if comp == "fp16" else (100, 142)
    sa = gen.integers(lo, hi + 1, size=(M, K // 32), dtype=np.uint8) if scale_a else None
    sb = gen.integers(lo, hi + 1, size=(N, K // 32), dtype=np.uint8) if scale_b else None
    if scales is not None:
        scales(sa, sb)
    c = torch.full((M, N), 7.0)
    dev = lambda t: None if t is None else torch.from_numpy(np.ascontiguousarray(t)).to(device)
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    scaled_matmul[grid](ad, ad.stride(0), ad.stride(1), dev(sa), bd, bd.stride(0), bd.stride(1),
                        dev(sb), cd, M, N, K, BM=BM, BN=BN, BK=BK, FA=fa, FB=fb,
                        FAST=fast_math)
    A = operand(fa, abits, sa, comp, kdim=1, fast_math=fast_math)
    B = operand(fb, bbits, sb, comp, kdim=0, fast_math=fast_math)
    return cd.cpu().numpy(), A, B


# Every format pair once, each with the scale on the mx side (as Triton's
# test_scaled_dot does) or on both sides or none.
PAIRS = [(fa, fb) for fa in FORMATS for fb in FORMATS]


@pytest.mark.parametrize("fa,fb", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_format_pairs(device, fa, fb):
    i = PAIRS.index((fa, fb))
    scale_a, scale_b = [(True, False), (False, True), (True, True), (False, False)][i % 4]
    got, A, B = run_matmul(device, fa, fb, 32, 32, 64, 32, 32, 64, scale_a, scale_b, seed=i)
    check_close(got, A, B)


@pytest.mark.parametrize("fa,fb,shape,block", [
    ("e2m1", "bf16", (40, 24, 96), (32, 16, 64)),     # ragged M, N and K
    ("e4m3", "e2m1", (24, 40, 160), (16, 32, 64)),
    ("fp16", "e5m2", (33, 17, 64), (32, 16, 32)),
])
def test_ragged_masked_k_loop(device, fa, fb, shape, block):
    got, A, B = run_matmul(device, fa, fb, *shape, *block, True, True, seed=sum(shape))
    check_close(got, A, B)


def test_column_major_operand_through_strides(device):
    got, A, B = run_matmul(device, "e4m3", "bf16", 32, 32, 64, 32, 32, 64, True, False,
                           seed=5, a_col=True)
    check_close(got, A, B)


def special_scales(sa, sb):
    sa[0, 0] = 255     # NaN scale: row 0 of the result is NaN (unless fast_math)
    sa[1, :] = 0       # scale 0 multiplies by zero
    sb[2, 1] = 255


@pytest.mark.parametrize("fast_math", [False, True])
def test_special_scales(device, fast_math):
    got, A, B = run_matmul(device, "e2m1", "e4m3", 16, 16, 64, 16, 16, 64, True, True,
                           seed=11, fast_math=fast_math, scales=special_scales)
    if fast_math:
        # x * inf: only the infinities and 0 * inf NaNs the model has
        with np.errstate(invalid="ignore"):
            assert np.array_equal(np.isnan(got[0]), np.isnan(A[0] @ B))
        return
    assert np.isnan(got[0]).all() and np.isnan(got[:, 2]).all()
    assert (got[1, 3:] == 0).all()
    check_close(got, A, B)


def test_fp16_scales_outside_fp16_range(device):
    """fp16 compute: the scale is 2^(s-127) rounded to fp16, so 2^-25
    and below give 0 and 2^16 and above infinity (NaN products)."""
    def scales(sa, sb):
        sa[0, :] = 100
        sa[1, :] = 110     # 2^-17: an fp16 subnormal
    got, A, B = run_matmul(device, "fp16", "e4m3", 16, 16, 32, 16, 16, 32, True, False,
                           seed=3, scales=scales)
    assert (got[0] == 0).all()
    check_close(got, A, B)


# ------------------------------------------------ packing along M and N

@triton.jit
def packed_mn(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
              K: tl.constexpr, LKP: tl.constexpr, RKP: tl.constexpr):
    """One block; lhs [M/2, K] when LKP is False (e2m1 packed along M),
    rhs [K, N/2] when RKP is False."""
    AM: tl.constexpr = M if LKP else M // 2
    AK: tl.constexpr = K // 2 if LKP else K
    BK: tl.constexpr = K // 2 if RKP else K
    BN: tl.constexpr = N if RKP else N // 2
    a = tl.load(a_ptr + tl.arange(0, AM)[:, None] * AK + tl.arange(0, AK)[None, :])
    b = tl.load(b_ptr + tl.arange(0, BK)[:, None] * BN + tl.arange(0, BN)[None, :])
    a_s = tl.load(as_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    b_s = tl.load(bs_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    c = tl.dot_scaled(a, a_s, "e2m1", b, b_s, "e2m1", lhs_k_pack=LKP, rhs_k_pack=RKP)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


@pytest.mark.parametrize("lkp,rkp", [(False, True), (True, False), (False, False)])
def test_e2m1_packed_along_m_or_n(device, lkp, rkp):
    M, N, K = 32, 16, 64
    gen = np.random.default_rng(7)
    abits = gen.integers(0, 256, size=(M, K // 2) if lkp else (M // 2, K), dtype=np.uint8)
    bbits = gen.integers(0, 256, size=(K // 2, N) if rkp else (K, N // 2), dtype=np.uint8)
    sa = gen.integers(120, 135, size=(M, K // 32), dtype=np.uint8)
    sb = gen.integers(120, 135, size=(N, K // 32), dtype=np.uint8)
    t = lambda x: torch.from_numpy(x).to(device)
    c = torch.empty((M, N), device=device)
    packed_mn[(1,)](t(abits), t(sa), t(bbits), t(sb), c, M, N, K, lkp, rkp)
    A = operand("e2m1", abits, sa, "bf16", kdim=1, k_pack=lkp)
    B = operand("e2m1", bbits, sb, "bf16", kdim=0, k_pack=rkp)
    check_close(c.cpu().numpy(), A, B)


# ------------------------------------------------ formats' own dtypes

@triton.jit
def typed_operands(a_ptr, b_ptr, c_ptr, FA: tl.constexpr, FB: tl.constexpr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], tl.dot_scaled(a, None, FA, b, None, FB))


@pytest.mark.parametrize("fa,ta,fb,tb", [("e4m3", tl.float8e4nv, "e5m2", tl.float8e5),
                                         ("bf16", tl.uint16, "fp16", tl.uint16)])
def test_formats_as_their_own_dtype_or_bits(fa, ta, fb, tb):
    gen = np.random.default_rng(1)
    a, abits = make_data(fa, (32, 32), gen)
    b, bbits = make_data(fb, (32, 32), gen)
    if a.dtype != torch.uint8:
        a, b = a.view(torch.int16), b.view(torch.int16)
    c = torch.empty((32, 32))
    typed_operands[(1,)](triton.reinterpret(a, ta), triton.reinterpret(b, tb), c, fa, fb)
    comp = comp_type(fa, fb)
    check_close(c.numpy(), operand(fa, abits, None, comp, 1), operand(fb, bbits, None, comp, 0))


@pytest.mark.parametrize("fb", ["bf16", "fp16"])
def test_e5m2_non_finite_codes(device, fb):
    """e5m2's infinity and NaN codes: bf16 compute makes them finite
    (Triton 3.6's conversion ignores exponent 31), fp16 keeps them."""
    gen = np.random.default_rng(9)
    a = np.array([0x7C, 0xFC, 0x7D, 0x7F, 0x7B, 0x3C] * 16, dtype=np.uint8).reshape(16, 6)
    a = np.concatenate([a, np.zeros((16, 26), dtype=np.uint8)], axis=1)
    b, bbits = make_data(fb, (32, 16), gen)
    c = torch.empty((16, 16), device=device)
    t = lambda x: torch.from_numpy(x).to(device)
    typed_16[(1,)](t(a), b.to(device), c, "e5m2", fb)
    comp = comp_type("e5m2", fb)
    A, B = operand("e5m2", a, None, comp, 1), operand(fb, bbits, None, comp, 0)
    check_close(c.cpu().numpy(), A, B)
    assert np.isfinite(A).all() == (fb == "bf16")


@triton.jit
def typed_16(a_ptr, b_ptr, c_ptr, FA: tl.constexpr, FB: tl.constexpr):
    r = tl.arange(0, 16)
    k = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + k[None, :])
    b = tl.load(b_ptr + k[:, None] * 16 + r[None, :])
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], tl.dot_scaled(a, None, FA, b, None, FB))


def test_model_decodes_e2m1_and_fp8():
    """The model itself, on values every reader of the OCP MX spec knows."""
    assert list(decode("e2m1", np.arange(8))) == [0, .5, 1, 1.5, 2, 3, 4, 6]
    assert decode("e2m1", 0xF) == -6
    assert decode("e4m3", 0x7E) == 448 and np.isnan(decode("e4m3", 0x7F))
    assert decode("e4m3", 0x01) == 2.0 ** -9
    assert decode("e5m2", 0x7B) == 57344 and np.isinf(decode("e5m2", 0x7C))
    assert decode("e5m2", 0x7C, triton_e5m2_bf16=True) == 65536
    assert list(scale_values([0, 127, 128, 255], "bf16")) == [0, 1, 2, np.inf]


# ------------------------------------------------------------ MLIR

MLIR_SRC = '''
import mytriton as triton
import mytriton.language as tl

@triton.jit
def mlir_ds(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr):
    r = tl.arange(0, 16)
    k = tl.arange(0, 64)
    a = tl.load(a_ptr + r[:, None] * 64 + k[None, :])
    b = tl.load(b_ptr + k[:, None] * 16 + r[None, :])
    sa = tl.load(as_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    sb = tl.load(bs_ptr + r[:, None] * 2 + tl.arange(0, 2)[None, :])
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], tl.dot_scaled(a, sa, "fp16", b, sb, "fp16"))
'''


def test_mlir_backend_fp16_formats_with_scales():
    """The MLIR backend lowers the decomposition like any other ops: its
    module, run by tests/py/mlir_interp.py, gives the model's result."""
    import mlir_interp
    from mytriton import _C
    from test_mlir import verify
    text = _C.compile(MLIR_SRC, "ds.py", "mlir_ds", "*fp16,*u8,*fp16,*u8,*fp32", (), 4, "mlir",
                      True).stage("mlir")
    verify(text)
    gen = np.random.default_rng(0)
    a = gen.standard_normal((16, 64)).astype(np.float16)
    b = gen.standard_normal((64, 16)).astype(np.float16)
    sa = gen.integers(124, 131, (16, 2)).astype(np.uint8)
    sb = gen.integers(124, 131, (16, 2)).astype(np.uint8)
    sa[3, 1] = 255
    c = np.zeros((16, 16), np.float32)
    # integers as the interpreter holds them: signless, read as signed
    mlir_interp.Module(text).run((1,), [a.reshape(-1), sa.view(np.int8).reshape(-1),
                                        b.reshape(-1), sb.view(np.int8).reshape(-1),
                                        c.reshape(-1)])
    check_close(c, operand("fp16", a.view(np.uint16), sa, "fp16", 1),
                operand("fp16", b.view(np.uint16), sb, "fp16", 0))
    assert np.isnan(c[3]).all()


# ------------------------------------------------------------ errors

@triton.jit
def bad_call(a_ptr, b_ptr, c_ptr, FA: tl.constexpr, FB: tl.constexpr, AK: tl.constexpr,
             LKP: tl.constexpr, OUT: tl.constexpr, SCALE: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, 32)[:, None] * AK + tl.arange(0, AK)[None, :])
    b = tl.load(b_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
    s = None
    if SCALE:
        s = tl.load(a_ptr + tl.arange(0, 32)[:, None] + tl.arange(0, 2)[None, :])
    c = tl.dot_scaled(a, s, FA, b, None, FB, lhs_k_pack=LKP, out_dtype=OUT)
    tl.store(c_ptr + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)


@pytest.mark.parametrize("a_ty,fa,ak,lkp,out,scale,pattern", [
    (torch.uint8, "e9m9", 32, True, tl.float32, False, r"Invalid float format: e9m9\."),
    (torch.uint8, "e2m3", 32, True, tl.float32, False, r"NYI: lhs_format e2m3"),
    (torch.float32, "e2m1", 16, True, tl.float32, False,
     r"e2m1 format must be packed as uint8\. Got fp32"),
    (torch.int16, "bf16", 32, True, tl.float32, False, r"Unexpected dtype for bf16\. Got int16"),
    (torch.uint8, "e4m3", 32, False, tl.float32, False,
     r"only mxfp4 inputs can be packed along a dimension different than K"),
    (torch.uint8, "e2m1", 32, True, tl.float32, False,
     r"Reduction dimension should pack the same number of elements; "
     r"\(lhs: \[32, 32\] vs rhs: \[32, 32\]\)"),
    (torch.uint8, "e4m3", 32, True, tl.float16, False,
     r"Only float32 is supported for out_dtype at the moment"),
    (torch.uint8, "e4m3", 32, True, tl.float32, True,
     r"lhs_scale must be a tensor of shape \[32, 1\]\. Got \[32, 2\]"),
])
def test_errors_are_tritons_and_located(a_ty, fa, ak, lkp, out, scale, pattern, fb="e4m3"):
    args = (torch.zeros(1, dtype=a_ty), torch.zeros(1, dtype=torch.uint8), torch.zeros(1))
    assert_compile_error(bad_call, args, dict(FA=fa, FB=fb, AK=ak, LKP=lkp, OUT=out,
                                              SCALE=scale),
                         needle="tl.dot_scaled(", pattern=pattern)


def test_unknown_formats_are_named_before_unlowered_ones():
    """Triton looks both formats up before it asks for a lowering."""
    test_errors_are_tritons_and_located(torch.uint8, "e2m3", 32, True, tl.float32, False,
                                        r"Invalid float format: bogus\.", fb="bogus")


@triton.jit
def batched(a_ptr, b_ptr, c_ptr):
    r = tl.arange(0, 32)
    a = tl.reshape(tl.load(a_ptr + r[:, None] * 32 + r[None, :]), 1, 32, 32)
    b = tl.reshape(tl.load(b_ptr + r[:, None] * 32 + r[None, :]), 1, 32, 32)
    c = tl.dot_scaled(a, None, "bf16", b, None, "bf16")
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], tl.reshape(c, 32, 32))


def test_batched_operands_are_refused_with_a_located_error():
    t = torch.zeros(1, dtype=torch.bfloat16)
    assert_compile_error(batched, (t, t, torch.zeros(1)), needle="tl.dot_scaled(",
                         pattern=r"3-D \(batched\) blocks is not supported")
