"""libdevice's functions that run as calls of the runtime's mt_nv_*
(src/libdevice.def, src/mt_libdevice_rt.h), on the host backends.

The differential corpus case math_libdevice_all computes every symbol on
edge-case inputs (signed zeros, subnormals, infinities, NaN, halfway
cases, extreme integers).  Here each result is checked against a Python
reference: exactly for the integer functions, bit casts, conversions and
arithmetic in each rounding mode (computed with fractions and rounded in
that mode), and within a few ulp of mpmath's value for the transcendental
functions.  The corpus case itself compares the same results with
Triton's on a GPU.  Then the dtype tuples Triton refuses, refused with
the tuples each function takes."""
import math
import os
import re
import struct
import sys
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice

from mtutil import assert_compile_error

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
import diffrun  # noqa: E402

CASE = "math_libdevice_all"
FMT = {"f32": (24, -126, 127), "f64": (53, -1022, 1023)}
INT = {"i32": (32, True), "u32": (32, False), "i64": (64, True), "u64": (64, False)}
MODES = ("rn", "rz", "rd", "ru")


# ------------------------------------------------------------ rounding

def round_to(q, fmt, mode, neg_zero=False):
    """The exact value q (a Fraction) rounded to fmt in mode, as a float;
    neg_zero: the sign of a zero result."""
    p, emin, emax = FMT[fmt]
    if q == 0:
        return -0.0 if neg_zero else 0.0
    sign = -1 if q < 0 else 1
    a = abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    quantum = Fraction(2) ** (max(e, emin) - (p - 1))
    n = a / quantum
    lo = n.numerator // n.denominator
    if mode == "rn":
        rem = n - lo
        up = rem > Fraction(1, 2) or (rem == Fraction(1, 2) and lo % 2 == 1)
    elif mode == "rz":
        up = False
    else:  # rd rounds a positive magnitude down, a negative one up
        up = n != lo and ((mode == "ru") == (sign > 0))
    m = (lo + 1 if up else lo) * quantum
    if m >= Fraction(2) ** (emax + 1):
        towards_inf = mode == "rn" or (mode == "ru" and sign > 0) or (mode == "rd" and sign < 0)
        m_f = math.inf if towards_inf else float((2 - Fraction(2) ** (1 - p)) * Fraction(2) ** emax)
        return sign * m_f
    if m == 0:
        return -0.0 if sign < 0 else 0.0
    return sign * float(m)


def is_neg(x):
    return math.copysign(1.0, x) < 0


def exact_op(op, xs, fmt, mode):
    """IEEE op on floats xs, its exact result rounded in mode."""
    if any(not math.isfinite(x) for x in xs) or (op == "div" and xs[1] == 0) or \
            (op == "rcp" and xs[0] == 0) or (op == "sqrt" and xs[0] < 0):
        return special_op(op, xs)
    f = [Fraction(x) for x in xs]
    if op == "sub":
        return exact_op("add", [xs[0], -xs[1]], fmt, mode)
    if op == "sqrt":
        return math.copysign(0.0, xs[0]) if xs[0] == 0 else round_sqrt(f[0], fmt, mode)
    if op in ("add", "fma"):
        # an exact zero: two zeros of one sign keep it; else +0 (-0 rounding down)
        terms = [f[0], f[1]] if op == "add" else [f[0] * f[1], f[2]]
        signs = [is_neg(xs[0]), is_neg(xs[1])] if op == "add" else \
            [is_neg(xs[0]) != is_neg(xs[1]), is_neg(xs[2])]
        q = terms[0] + terms[1]
        zero_neg = signs[0] and signs[1] if terms[0] == 0 and terms[1] == 0 and \
            signs[0] == signs[1] else mode == "rd"
        return round_to(q, fmt, mode, zero_neg)
    q = {"mul": lambda: f[0] * f[1], "div": lambda: f[0] / f[1], "rcp": lambda: 1 / f[0]}[op]()
    return round_to(q, fmt, mode, q < 0 or (q == 0 and (is_neg(xs[0]) != is_neg(xs[-1]))))


def special_op(op, xs):
    """Results with an infinity, a NaN, a zero divisor or a negative square
    root: the same in every rounding mode, as IEEE doubles compute them."""
    a = [np.float64(x) for x in xs]
    with np.errstate(all="ignore"):
        return float({"add": lambda: a[0] + a[1], "sub": lambda: a[0] - a[1],
                      "mul": lambda: a[0] * a[1], "div": lambda: a[0] / a[1],
                      "rcp": lambda: np.float64(1) / a[0], "sqrt": lambda: np.sqrt(a[0]),
                      "fma": lambda: a[0] * a[1] + a[2]}[op]())


def round_sqrt(f, fmt, mode):
    """sqrt of a non-negative Fraction rounded in mode: bracket it by
    integer square roots at twice the precision."""
    if f == 0:
        return 0.0
    p = FMT[fmt][0]
    shift = 2 * (p + 4) - (f.numerator.bit_length() - f.denominator.bit_length())
    shift += shift % 2
    scaled = f * Fraction(2) ** shift
    r = math.isqrt(scaled.numerator // scaled.denominator)
    exact = Fraction(r * r) == scaled
    # r <= sqrt(scaled) < r + 1: round r (plus a sticky half ulp when inexact)
    q = Fraction(r) if exact else Fraction(2 * r + 1, 2)
    return round_to(q / Fraction(2) ** (shift // 2), fmt, mode)


def to_int(x, mode, bits, signed, src):
    """CUDA's cvt of float x to an integer in mode: saturating; NaN as
    mt_kernel_rt.h documents (an f32 source: 0 for 32 bits, the top bit for
    64; an f64 source: the destination's top bit)."""
    if math.isnan(x):
        return -(1 << (bits - 1)) if (src == "f64" or bits == 64) else 0
    if math.isinf(x):
        v = x
    else:
        q = Fraction(x)
        fl = q.numerator // q.denominator
        rem = q - fl
        v = {"rz": int(q), "rd": fl, "ru": fl + (rem != 0),
             "rn": fl + (rem > Fraction(1, 2) or (rem == Fraction(1, 2) and fl % 2 == 1))}[mode]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    return int(min(max(v, lo), hi))


# ---------------------------------------------------------- references

def u(x, bits):
    return x % (1 << bits)


def s(x, bits):
    x = u(x, bits)
    return x - (1 << bits) if x >> (bits - 1) else x


def brev(x, bits):
    return int(format(u(x, bits), f"0{bits}b")[::-1], 2)


def byte_perm(x, y, sel):
    b = u(x, 32) | (u(y, 32) << 32)
    r = 0
    for n in range(4):
        k = (u(sel, 32) >> (4 * n)) & 7
        r |= ((b >> (8 * k)) & 0xFF) << (8 * n)
    return r


def f2bits(x, fmt):
    return struct.unpack("<i" if fmt == "f32" else "<q", struct.pack("<f" if fmt == "f32" else "<d", x))[0]


def bits2f(n, fmt):
    if fmt == "f32":
        return struct.unpack("<f", struct.pack("<I", u(n, 32)))[0]
    return struct.unpack("<d", struct.pack("<Q", u(n, 64)))[0]


def int_ref(name, args, bits, signed):
    """The integer functions, exact."""
    x = args[0]
    if name == "clz":
        return bits - u(x, bits).bit_length()
    if name == "popc":
        return bin(u(x, bits)).count("1")
    if name == "ffs":
        v = u(x, bits)
        return (v & -v).bit_length()
    if name == "brev":
        return brev(x, bits)
    if name == "abs":
        return abs(x)
    if name == "mulhi":
        return (args[0] * args[1]) >> bits
    if name == "mul24":
        a, b = (s(v, 24) if signed else u(v, 24) for v in args)
        return a * b
    if name == "hadd":
        return (args[0] + args[1]) >> 1
    if name == "rhadd":
        return (args[0] + args[1] + 1) >> 1
    if name == "sad":
        return abs(args[0] - args[1]) + args[2]
    if name == "byte_perm":
        return byte_perm(*args)
    raise KeyError(name)


MP = {  # (mpmath function of the operands, or None: exact rule below)
    "exp10": lambda x: mpmath.power(10, x), "fast_exp10f": lambda x: mpmath.power(10, x),
    "acosh": mpmath.acosh, "asinh": mpmath.asinh, "atanh": mpmath.atanh,
    "sinpi": lambda x: mpmath.sinpi(x), "cospi": lambda x: mpmath.cospi(x),
    "rhypot": lambda x, y: 1 / mpmath.hypot(x, y),
    "norm3d": lambda x, y, z: mpmath.sqrt(x * x + y * y + z * z),
    "rnorm3d": lambda x, y, z: 1 / mpmath.sqrt(x * x + y * y + z * z),
    "norm4d": lambda x, y, z, w: mpmath.sqrt(x * x + y * y + z * z + w * w),
    "rnorm4d": lambda x, y, z, w: 1 / mpmath.sqrt(x * x + y * y + z * z + w * w),
    "rcbrt": lambda x: mpmath.sign(x) / mpmath.cbrt(abs(x)),
    "j0": lambda x: mpmath.besselj(0, x), "j1": lambda x: mpmath.besselj(1, x),
    "y0": lambda x: mpmath.bessely(0, x), "y1": lambda x: mpmath.bessely(1, x),
    "jn": lambda n, x: mpmath.besselj(n, x), "yn": lambda n, x: mpmath.bessely(n, x),
    "cyl_bessel_i0": lambda x: mpmath.besseli(0, x), "cyl_bessel_i1": lambda x: mpmath.besseli(1, x),
    "erfinv": mpmath.erfinv, "erfcinv": lambda x: mpmath.erfinv(1 - mpmath.mpf(x)),
    "erfcx": lambda x: mpmath.exp(x * x) * mpmath.erfc(x),
    "normcdf": mpmath.ncdf, "normcdfinv": lambda p: -mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(p)),
    "lgamma": lambda x: mpmath.log(abs(mpmath.gamma(x))), "tgamma": mpmath.gamma,
}
# the ulp error allowed beside mpmath's value (f32, f64): the host computes
# in double and rounds once; where libm is used its own error
ULPS = {"j0": (4, 1e9), "j1": (4, 1e9), "y0": (4, 1e9), "y1": (4, 1e9), "jn": (8, 1e9),
        "yn": (8, 1e9), "lgamma": (2, 8), "tgamma": (2, 8), "erfcinv": (2, 8),
        "normcdfinv": (2, 8)}
BESSEL = {"j0", "j1", "y0", "y1", "jn", "yn", "cyl_bessel_i0", "cyl_bessel_i1"}
ABS_NEAR_ZERO = {"j0": 1e-12, "j1": 1e-12, "y0": 1e-12, "y1": 1e-12, "jn": 1e-12, "yn": 1e-12,
                 "lgamma": 1e-12}


def mp_value(name, args):
    with mpmath.workdps(60):
        try:
            v = MP[name](*[mpmath.mpf(a) if isinstance(a, float) else a for a in args])
        except (ValueError, ZeroDivisionError, OverflowError):
            return math.nan
        if isinstance(v, mpmath.mpc):
            return math.nan if v.imag != 0 else float(v.real)
        return float(v) if abs(v) < mpmath.mpf(10) ** 400 else math.copysign(math.inf, float(v))


def ulps_apart(a, b, fmt):
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else math.inf
    if math.isinf(a) or math.isinf(b):
        return 0 if a == b else math.inf
    ia, ib = f2bits(a, fmt), f2bits(b, fmt)
    wid = 32 if fmt == "f32" else 64
    ia = ia if ia >= 0 else -(ia & ((1 << (wid - 1)) - 1))
    ib = ib if ib >= 0 else -(ib & ((1 << (wid - 1)) - 1))
    return abs(ia - ib)


# ---------------------------------------------------------------- cases

@pytest.fixture(scope="module")
def case():
    return diffrun.load(CASE, "mytriton")


def inputs(mod, args, fns):
    return [[int(v) if not args[i].startswith("f") else float(v)
             for v in mod.operand(args, i, [f[0] for f in fns]).tolist()]
            for i in range(len(args))]


def symbols():
    mod = diffrun.load(CASE, "mytriton")
    return [(sym, name, args, ret) for _, args, fns in mod.GROUPS for name, sym, ret in fns]


def reference(name, sym, args, ret, xs):
    """The expected value for operands xs (Python ints and floats)."""
    fmt = "f64" if "f64" in args else "f32"
    xs = [u(x, INT[a][0]) if a in INT and not INT[a][1] else x for x, a in zip(xs, args)]
    if args[0] in INT and name in ("clz", "popc", "ffs", "brev", "abs", "mulhi", "mul24", "hadd",
                                   "rhadd", "sad", "byte_perm"):
        return int_ref(name, xs, INT[args[0]][0], INT[args[0]][1])
    for op in ("add", "sub", "mul", "div", "fma", "rcp", "sqrt"):
        for m in MODES:
            if name == f"{op}_{m}":
                return exact_op(op, xs, fmt, m)
    x = xs[0]
    if name.startswith(("float2", "double2")) and name.split("_")[-1] in MODES:
        dst, mode = name.split("2", 1)[1].rsplit("_", 1)
        src = "f32" if name.startswith("float") else "f64"
        if dst == "float":
            return x if math.isnan(x) or math.isinf(x) else round_to(Fraction(x), "f32", mode, is_neg(x))
        bits, signed = {"int": (32, True), "uint": (32, False), "ll": (64, True),
                        "ull": (64, False)}[dst]
        return to_int(x, mode, bits, signed, src)
    if name.split("2", 1)[0] in ("int", "uint", "ll", "ull") and "2" in name:
        dst, mode = name.split("2", 1)[1].rsplit("_", 1)
        return round_to(Fraction(x), "f32" if dst == "float" else "f64", mode)
    bitcasts = {"int_as_float": lambda: bits2f(x, "f32"), "uint_as_float": lambda: bits2f(x, "f32"),
                "float_as_int": lambda: f2bits(x, "f32"), "float_as_uint": lambda: f2bits(x, "f32"),
                "longlong_as_double": lambda: bits2f(x, "f64"),
                "double_as_longlong": lambda: f2bits(x, "f64"),
                "double2loint": lambda: s(f2bits(x, "f64"), 32),
                "double2hiint": lambda: f2bits(x, "f64") >> 32,
                "hiloint2double": lambda: bits2f((u(xs[0], 32) << 32) | u(xs[1], 32), "f64")}
    if name in bitcasts:
        return bitcasts[name]()
    if name in ("jn", "yn") and xs[0] < 0:
        return math.nan  # CUDA documents NaN for a negative order
    return None


def ftz_symbols():
    """libdevice.def's Z rows: Triton's flush-to-zero forms."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "src", "libdevice.def")
    return set(re.findall(r"\bZ\((\w+),", open(path).read()))


FTZ = ftz_symbols()


def flush(x):
    """A subnormal f32 as a zero of its sign (FTZ)."""
    return math.copysign(0.0, x) if isinstance(x, float) and 0 < abs(x) < 2.0 ** -126 else x


def check_one(mod, sym, name, args, ret, got_all, ins):
    fmt = "f64" if "f64" in args else "f32"
    bad = []
    for i, got in enumerate(got_all):
        xs = [col[i] for col in ins]
        if sym in FTZ:
            xs = [flush(x) if a == "f32" else x for x, a in zip(xs, args)]
        want = reference(name, sym, args, ret, xs)
        if sym in FTZ and ret == "f32" and want is not None:
            want = flush(want)
        if want is None and name in MP:
            # special values (poles, infinities, NaN) are the GPU
            # comparison's (the corpus case); mpmath's conventions differ
            if name in BESSEL and any(abs(x) > 1e4 for x in xs):
                continue  # CUDA bounds these by absolute error; mpmath is slow there
            want = mp_value(name, xs)
            if not all(math.isfinite(x) for x in xs if isinstance(x, float)) or \
                    not math.isfinite(want):
                continue
            want = round_to(Fraction(want), fmt, "rn") if math.isfinite(want) else want
            want = flush(want) if sym in FTZ and fmt == "f32" else want
            tol = ULPS.get(name, (1, 2))[fmt == "f64"]
            near = ABS_NEAR_ZERO.get(name)
            if ulps_apart(float(got), want, fmt) > tol and not (
                    near and math.isfinite(want) and abs(float(got) - want) < near):
                bad.append(f"{sym}{tuple(xs)} = {got!r}, want {want!r}")
            continue
        if want is None:
            continue
        if ret in INT and not isinstance(want, float):
            want = s(want, INT[ret][0])
            if int(got) != want:
                bad.append(f"{sym}{tuple(xs)} = {got}, want {want}")
        elif ret == "bool":
            pass
        elif not (float(got) == want and is_neg(float(got)) == is_neg(want)) and not (
                math.isnan(want) and math.isnan(float(got))):
            bad.append(f"{sym}{tuple(xs)} = {float(got)!r}, want {want!r}")
    return bad


UNCHECKED = {  # exact functions whose rule test_libdevice_rt.c checks
    "saturatef", "fast_dividef", "signbit", "finitef", "isfinited", "nextafter", "ldexp",
    "scalbn", "remainder", "llrint", "llround", "fdim", "ilogb", "logb", "rsqrt_rn", "fma_rn",
    "abs",
}


def test_every_symbol_matches_reference(case, device):
    results = diffrun.run_case(CASE, "mytriton", device)
    bad, checked = [], set()
    for _, args, fns in case.GROUPS:
        for name, sym, ret in fns:
            batch = [f for f in fns if f[0] == name] if name in case.DOMAIN else \
                [f for f in fns if f[0] not in case.DOMAIN]
            ins = inputs(case, args, batch)
            got = results[sym].cpu()
            got = got.tolist()
            if name in UNCHECKED and not args[0] in INT:
                continue
            bad += check_one(case, sym, name, args, ret, got, ins)
            checked.add(sym)
    assert len(results) == 228
    assert not bad, f"{len(bad)} wrong:\n" + "\n".join(bad[:40])
    assert len(checked) > 190


@triton.jit
def typed_kernel(x_ptr, n_ptr, out_f, out_i, out_b, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    n = tl.load(n_ptr + offs)
    tl.static_assert(libdevice.clz(n).dtype == tl.int32)
    tl.static_assert(libdevice.clz(n.to(tl.int64)).dtype == tl.int32)
    tl.static_assert(libdevice.float2ll_rn(x).dtype == tl.int64)
    tl.static_assert(libdevice.finitef(x).dtype == tl.int1)
    tl.static_assert(libdevice.ldexp(x, 3).dtype == tl.float32)
    tl.store(out_f + offs, libdevice.ldexp(x, n) + libdevice.erfinv(0.5))
    tl.store(out_i + offs, libdevice.popc(n) + libdevice.clz(7))
    tl.store(out_b + offs, libdevice.finitef(x / n))


def test_types_python_numbers_and_broadcast(device):
    x = torch.tensor([1.0, -2.0, 0.5, 3.0], device=device)
    n = torch.tensor([0, 1, -1, 7], dtype=torch.int32, device=device)
    out_f = torch.zeros(4, device=device)
    out_i = torch.zeros(4, dtype=torch.int32, device=device)
    out_b = torch.zeros(4, dtype=torch.bool, device=device)
    typed_kernel[(1,)](x, n, out_f, out_i, out_b, BLOCK=4)
    erfinv_half = 0.4769362762044699
    want = [math.ldexp(a, b) + erfinv_half for a, b in zip(x.tolist(), n.tolist())]
    torch.testing.assert_close(out_f.cpu(), torch.tensor(want, dtype=torch.float32))
    assert out_i.cpu().tolist() == [0 + 29, 1 + 29, 32 + 29, 3 + 29]
    assert out_b.cpu().tolist() == [False, True, True, True]


@triton.jit
def refused_kernel(x_ptr, y_ptr, out, WHICH: tl.constexpr):
    x = tl.load(x_ptr)
    y = tl.load(y_ptr)
    if WHICH == 0:
        tl.store(out, libdevice.clz(x))
    elif WHICH == 1:
        tl.store(out, libdevice.mulhi(y, y.to(tl.uint32, bitcast=True)))
    elif WHICH == 2:
        tl.store(out, libdevice.erfinv(x.to(tl.float16)))
    else:
        tl.store(out, libdevice.finitef(x.to(tl.float64)))


@pytest.mark.parametrize("which,needle,msg", [
    (0, "libdevice.clz(x)", r"libdevice\.clz\(\) has no variant for \(fp32\): it takes \(int32\), \(int64\)"),
    (1, "libdevice.mulhi(y", r"no variant for \(int32, uint32\): it takes \(int32, int32\), "
     r"\(uint32, uint32\), \(int64, int64\), \(uint64, uint64\)"),
    (2, "libdevice.erfinv(", r"libdevice\.erfinv\(\) has no variant for \(fp16\): it takes \(fp32\), \(fp64\)"),
    (3, "libdevice.finitef(", r"libdevice\.finitef\(\) has no variant for \(fp64\): it takes \(fp32\)"),
])
def test_refused_dtype_tuples(which, needle, msg):
    x = torch.zeros(1)
    y = torch.zeros(1, dtype=torch.int32)
    assert_compile_error(refused_kernel, (x, y, torch.zeros(1)), {"WHICH": which},
                         needle=needle, pattern=msg)


@triton.jit
def ftz_kernel(x_ptr, d_ptr, out, out_d, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    d = tl.load(d_ptr + offs)
    tl.store(out + 0 * BLOCK + offs, libdevice.exp(x))
    tl.store(out + 1 * BLOCK + offs, libdevice.sqrt_rn(x))
    tl.store(out + 2 * BLOCK + offs, libdevice.floor(x))
    tl.store(out + 3 * BLOCK + offs, libdevice.trunc(x))
    tl.store(out + 4 * BLOCK + offs, libdevice.fma(x, x, x))
    tl.store(out + 5 * BLOCK + offs, libdevice.add_rz(x, x))
    tl.store(out + 6 * BLOCK + offs, tl.exp(x))
    tl.store(out_d + offs, libdevice.exp(d))


def test_fp32_functions_flush_subnormals(device):
    """Triton links libdevice with __CUDA_FTZ: its fp32 functions take a
    subnormal operand, and give a subnormal result, as a zero of its sign
    (floor(-1e-40) is -0.0, not -1); trunc, rint and the like have no flush
    form, tl.exp is not libdevice, and fp64 is never flushed."""
    sub = 1e-40
    x = torch.tensor([-100.0, sub, -sub, 2.0], device=device)
    d = torch.tensor([-720.0, 1e-310, -1e-310, 2.0], dtype=torch.float64, device=device)
    out = torch.full((7 * 4,), 7.0, device=device)
    out_d = torch.zeros(4, dtype=torch.float64, device=device)
    ftz_kernel[(1,)](x, d, out, out_d, BLOCK=4)
    got = [[float(v) for v in row] for row in out.cpu().view(7, 4)]
    signs = [[is_neg(v) for v in row] for row in got]
    assert got[0][0] == 0.0 and got[0][1:3] == [1.0, 1.0]  # exp(-100) flushed
    assert got[1][1:3] == [0.0, 0.0] and signs[1][1:3] == [False, True]
    assert got[2][:3] == [-100.0, 0.0, 0.0] and signs[2][2]  # floor(-sub) = -0.0
    assert got[3][2] == 0.0 and signs[3][2]
    assert got[4][1:3] == [0.0, 0.0]  # sub * sub + sub: sub flushed first
    assert got[5][1:3] == [0.0, 0.0] and signs[5][1:3] == [False, True]
    assert 0 < got[6][0] < 2.0 ** -126  # tl.exp keeps the subnormal
    dd = out_d.cpu().tolist()
    assert 0 < dd[0] < 2.0 ** -1022 and dd[1:3] == [1.0, 1.0]
