"""Arguments of every Triton dtype from Python (issue 8, "Arguments from
Python"): torch tensors, NumPy arrays, DLPack producers and
__cuda_array_interface__ objects become pointers whose dtype is in the
specialisation key and the signature ("*fp16:16"); Python scalars are
specialised as Triton 3.6 does (bool -> i1, int -> i32/i64/u64 by value,
float -> fp32); dtypes with no kernel-language equivalent are a TypeError
naming the argument before anything compiles; each scalar is packed for
the launch in its memory layout.

The classification tests read the key (``_key``) and spell it through
``_C.ARG_SIGNATURES``, so they compile nothing.  The end-to-end launches at
the bottom run every dtype through the compiler on the host backend."""
import bisect
import ctypes
import fractions
import math
import struct

import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mytriton import _C

def _launch_param(name, *values):
    return pytest.param(*values, id=name)


# signature spelling -> (torch name, NumPy name, DLPack (code, bits), typestr)
DTYPES = {
    "i1": ("bool", "bool_", (6, 8), "|b1"),
    "i8": ("int8", "int8", (0, 8), "|i1"),
    "i16": ("int16", "int16", (0, 16), "<i2"),
    "i32": ("int32", "int32", (0, 32), "<i4"),
    "i64": ("int64", "int64", (0, 64), "<i8"),
    "u8": ("uint8", "uint8", (1, 8), "|u1"),
    "u16": ("uint16", "uint16", (1, 16), "<u2"),
    "u32": ("uint32", "uint32", (1, 32), "<u4"),
    "u64": ("uint64", "uint64", (1, 64), "<u8"),
    "fp8e4nv": ("float8_e4m3fn", None, (10, 8), None),
    "fp8e5": ("float8_e5m2", None, (12, 8), None),
    "fp16": ("float16", "float16", (2, 16), "<f2"),
    "bf16": ("bfloat16", None, (4, 16), None),
    "fp32": ("float32", "float32", (2, 32), "<f4"),
    "fp64": ("float64", "float64", (2, 64), "<f8"),
}
ITEMSIZE = {s: max(1, b // 8) for s, (_, _, (_, b), _) in DTYPES.items()}


@triton.jit
def probe_kernel(p, n, BLOCK: tl.constexpr):
    pass


def _key_of(obj):
    key, bound, _ = probe_kernel._key((obj, 4), {"BLOCK": 4})
    assert bound[0] is obj
    return key


def _sig(obj):
    """The signature entry argument p gets, from the key alone."""
    return _C.ARG_SIGNATURES[_key_of(obj)[0] & _C.ARG_CLASS_MASK]


def _aligned_and_not(base):
    """base (16-byte aligned) and a view one element in."""
    return base, base[1:]


# ------------------------------------------------------------ tensors


@pytest.mark.parametrize("sig", [s for s, r in DTYPES.items() if hasattr(torch, r[0])])
def test_torch_tensor_of_every_dtype(sig):
    t = torch.zeros(64, dtype=getattr(torch, DTYPES[sig][0]))
    aligned, shifted = _aligned_and_not(t)
    assert aligned.data_ptr() % 16 == 0
    assert _sig(aligned) == f"*{sig}:16"
    assert _sig(shifted) == f"*{sig}"


def test_torch_dtypes_this_torch_lacks_are_named_in_the_table():
    # torch 1.x has no uint16..uint64 or float8: the rows still exist, so a
    # newer torch's tensors classify with no change here
    missing = [r[0] for r in DTYPES.values() if not hasattr(torch, r[0])]
    assert set(missing) <= {"uint16", "uint32", "uint64", "float8_e4m3fn", "float8_e5m2"}


@pytest.mark.parametrize("sig", [s for s, r in DTYPES.items() if r[1]])
def test_numpy_array_of_every_dtype(sig):
    a = np.zeros(64, dtype=getattr(np, DTYPES[sig][1]))
    assert a.ctypes.data % 16 == 0
    aligned, shifted = _aligned_and_not(a)
    assert _sig(aligned) == f"*{sig}:16"
    assert _sig(shifted) == f"*{sig}"
    # a dtype object built another way classifies the same
    assert _sig(np.zeros(4, dtype=np.dtype(DTYPES[sig][3]))) == f"*{sig}:16"


class RawDLPack:
    """A CPU DLPack producer of any (code, bits, lanes), built with ctypes
    over a NumPy byte buffer: it reaches element types no installed library
    exports (bfloat16 from NumPy, float8, bool)."""

    class _T(ctypes.Structure):
        _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32),
                    ("device_id", ctypes.c_int32), ("ndim", ctypes.c_int32),
                    ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                    ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                    ("strides", ctypes.POINTER(ctypes.c_int64)),
                    ("byte_offset", ctypes.c_uint64)]

    class _M(ctypes.Structure):
        pass

    _M._fields_ = [("dl_tensor", _T), ("manager_ctx", ctypes.c_void_p),
                   ("deleter", ctypes.c_void_p)]

    def __init__(self, buf, code, bits, lanes=1, byte_offset=0):
        self.buf = buf
        n = buf.nbytes * 8 // (bits * lanes)
        self.shape = (ctypes.c_int64 * 1)(n)
        self.managed = RawDLPack._M()
        t = self.managed.dl_tensor
        t.data, t.device_type, t.device_id, t.ndim = buf.ctypes.data, 1, 0, 1
        t.code, t.bits, t.lanes, t.shape = code, bits, lanes, self.shape
        t.byte_offset = byte_offset

    def __dlpack__(self, stream=None):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self.managed), b"dltensor", None)

    def __dlpack_device__(self):
        return (1, 0)


@pytest.mark.parametrize("sig", list(DTYPES))
def test_dlpack_of_every_dtype(sig):
    code, bits = DTYPES[sig][2]
    buf = np.zeros(64, dtype=np.uint8)
    assert _sig(RawDLPack(buf, code, bits)) == f"*{sig}:16"
    assert _sig(RawDLPack(buf, code, bits, byte_offset=ITEMSIZE[sig])) == f"*{sig}"


@pytest.mark.parametrize("dt", ["float16", "bfloat16", "int8", "int16", "uint8", "float64"])
def test_dlpack_from_torch(dt):
    class Only:  # the tensor seen through DLPack alone
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__()

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    t = torch.zeros(16, dtype=getattr(torch, dt))
    sig = next(s for s, r in DTYPES.items() if r[0] == dt)
    assert _sig(Only(t)) == f"*{sig}:16"


@pytest.mark.parametrize("code,bits,lanes", [
    (5, 64, 1),   # complex64
    (5, 128, 1),  # complex128
    (8, 8, 1),    # float8_e4m3 (not fn): no Triton name
    (13, 8, 1),   # float8_e5m2fnuz
    (2, 32, 4),   # a vector of 4 floats
    (2, 8, 1),    # an 8-bit "float"
    (4, 32, 1),   # a 32-bit bfloat
    (3, 64, 1),   # an opaque handle
])
def test_dlpack_without_a_triton_dtype(code, bits, lanes):
    with pytest.raises(TypeError, match=rf"'p'.*unsupported DLPack dtype \(code {code}, "
                                        rf"bits {bits}, lanes {lanes}\).*no Triton equivalent"):
        _key_of(RawDLPack(np.zeros(64, dtype=np.uint8), code, bits, lanes))


class CudaArray:
    def __init__(self, typestr, ptr):
        self.__cuda_array_interface__ = {"shape": (4,), "typestr": typestr,
                                         "data": (ptr, False), "version": 3}


@pytest.mark.parametrize("sig", [s for s, r in DTYPES.items() if r[3]])
def test_cuda_array_interface_of_every_dtype(sig):
    ts = DTYPES[sig][3]
    assert _sig(CudaArray(ts, 0x7000)) == f"*{sig}:16"
    assert _sig(CudaArray(ts, 0x7000 + ITEMSIZE[sig])) == f"*{sig}"


def test_the_key_holds_the_dtype():
    k = {dt: _key_of(torch.zeros(8, dtype=dt))[0]
         for dt in (torch.float16, torch.bfloat16, torch.int16, torch.float32, torch.float64)}
    assert len(set(k.values())) == len(k)
    assert _key_of(torch.ones(8, dtype=torch.float16))[0] == k[torch.float16]
    # the same dtype from NumPy and torch on the host: the same class
    assert _key_of(np.zeros(8, np.float16))[0] == k[torch.float16]


def test_signature_string_of_a_mixed_call():
    @triton.jit
    def mixed(a, b, c, n, s, f, BLOCK: tl.constexpr):
        pass

    args = (torch.zeros(8, dtype=torch.float16), np.zeros(8, np.uint8)[1:],
            torch.zeros(8, dtype=torch.bfloat16), 2 ** 40, 2 ** 63 + 1, 0.5)
    key, bound, _ = mixed._key(args, {"BLOCK": 64})
    kinds = tuple(0 if i in mixed.constexprs else k for i, k in enumerate(key[:-1]))
    assert mixed.signature(bound, kinds) == "*fp16:16, *u8, *bf16:16, i64:16, u64, fp32, 64"


# ------------------------------------------------------------ scalars


@pytest.mark.parametrize("value,sig", [
    (True, "i1"), (False, "i1"),
    (3, "i32"), (0, "i32:16"), (16, "i32:16"), (-16, "i32:16"),
    (2 ** 31 - 1, "i32"), (-2 ** 31, "i32:16"),
    (2 ** 31, "i64:16"), (-2 ** 31 - 1, "i64"), (2 ** 63 - 1, "i64"), (-2 ** 63, "i64:16"),
    (2 ** 63, "u64:16"), (2 ** 63 + 1, "u64"), (2 ** 64 - 1, "u64"), (2 ** 64 - 16, "u64:16"),
    (1.5, "fp32"), (1e300, "fp32"), (float("nan"), "fp32"),
])
def test_python_scalars_as_triton_specialises_them(value, sig):
    assert _sig(value) == sig


@pytest.mark.parametrize("value,sig", [
    (np.float64(2.5), "fp32"),  # a float subclass: Triton's fp32 too
    (np.float32(2.5), "fp32"), (np.float16(2.5), "fp32"),
    (np.int64(3), "i32"), (np.int8(-32), "i32:16"), (np.int64(2 ** 40 + 1), "i64"),
    (np.uint64(2 ** 64 - 1), "u64"), (np.uint64(2 ** 63), "u64:16"),
    (np.True_, "i1"), (np.False_, "i1"),
])
def test_numpy_scalars(value, sig):
    # Triton refuses NumPy scalars other than np.float64; mytriton takes
    # each as the Python value it converts to, so the class is that value's
    assert _sig(value) == sig


@pytest.mark.parametrize("value", [2 ** 64, 2 ** 200, -2 ** 63 - 1, -2 ** 100])
def test_integers_out_of_range(value):
    with pytest.raises(OverflowError, match=r"integer argument 'p' out of range"):
        _key_of(value)


# ---------------------------------------------------- unsupported dtypes


def _quint8():
    return torch.quantize_per_tensor(torch.zeros(4), 0.5, 0, torch.quint8)


@pytest.mark.parametrize("make,name", [
    (lambda: torch.zeros(4, dtype=torch.complex64), "torch.complex64"),
    (lambda: torch.zeros(4, dtype=torch.complex128), "torch.complex128"),
    (_quint8, "torch.quint8"),
    (lambda: np.zeros(4, dtype=np.complex64), "complex64"),
    (lambda: np.zeros(4, dtype=object), "object"),
    (lambda: np.array(["abc"]), "<U3"),
    (lambda: np.zeros(4, dtype=">f4"), ">f4"),  # big-endian: not the kernel's layout
])
def test_dtype_without_a_kernel_equivalent(make, name):
    probe_kernel.clear_cache()
    with pytest.raises(TypeError, match=rf"'p'.*dtype {name}: it has no Triton equivalent"):
        probe_kernel[(1,)](make(), 4, BLOCK=4)
    assert probe_kernel.cache_info()["compiles"] == 0


@pytest.mark.parametrize("value", [1j, np.complex64(1), np.complex128(2)])
def test_complex_scalars(value):
    with pytest.raises(TypeError, match=r"'p'.*complex scalar has no Triton equivalent"):
        _key_of(value)


# ------------------------------------------------------------ packing


def _decode(bits, ebits, mbits, fn):
    """The value of a minifloat bit pattern (IEEE layout)."""
    sign = -1.0 if bits >> (ebits + mbits) & 1 else 1.0
    e = bits >> mbits & ((1 << ebits) - 1)
    m = bits & ((1 << mbits) - 1)
    bias = (1 << (ebits - 1)) - 1
    if e == (1 << ebits) - 1 and (not fn or m == (1 << mbits) - 1):
        return math.nan if (m or fn) else sign * math.inf
    if e == 0:
        return sign * m * 2.0 ** (1 - bias - mbits)
    return sign * (1 + m / 2 ** mbits) * 2.0 ** (e - bias)


def _nearest_even(v, ebits, mbits, fn):
    """Reference rounding, from the table of every non-negative finite
    code: the code of v rounded to nearest, ties to the even code, or None
    when v rounds past the largest finite value."""
    table = sorted((_decode(c, ebits, mbits, fn), c) for c in range(1 << (ebits + mbits))
                   if math.isfinite(_decode(c, ebits, mbits, fn)))
    sign = (1 << (ebits + mbits)) if math.copysign(1, v) < 0 else 0
    a = fractions.Fraction(abs(v))
    top, top_code = table[-1]
    ulp = fractions.Fraction(2) ** (math.floor(math.log2(top)) - mbits)
    half_past = fractions.Fraction(top) + ulp / 2
    if a > half_past or (a == half_past and top_code & 1):
        return None
    i = bisect.bisect_left([x for x, _ in table], a)
    if i == len(table):
        return sign | top_code
    hi, hi_code = table[i]
    if i == 0 or hi == a:
        return sign | hi_code
    lo, lo_code = table[i - 1]
    d_lo, d_hi = a - fractions.Fraction(lo), fractions.Fraction(hi) - a
    if d_lo != d_hi:
        return sign | (lo_code if d_lo < d_hi else hi_code)
    return sign | (lo_code if lo_code % 2 == 0 else hi_code)


FORMATS = {"fp16": (5, 10, False), "bf16": (8, 7, False), "fp8e4nv": (4, 3, True),
           "fp8e5": (5, 2, False)}
PACK_VALUES = [0.0, -0.0, 1.0, -1.0, 0.1, 1 / 3, 2.5, 448.0, 464.0, 465.0, 480.0, 57344.0,
               61440.0, 65504.0, 65519.0, 65520.0, 1e-3, 2 ** -10, 2 ** -14, 2 ** -17,
               2 ** -24, 2 ** -25, 3 * 2 ** -26, 2 ** -126, 2 ** -133, 1e38, 3.4e38, 1e300,
               1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -11, 1 + 2 ** -11 + 2 ** -40]


@pytest.mark.parametrize("fmt", list(FORMATS))
def test_narrow_float_scalars_round_to_nearest_even(fmt):
    ebits, mbits, fn = FORMATS[fmt]
    width = (1 + ebits + mbits) // 8
    for v in PACK_VALUES + [-x for x in PACK_VALUES[2:]]:
        got = int.from_bytes(_C._pack_scalar(fmt, v), "little")
        want = _nearest_even(v, ebits, mbits, fn)
        if want is None:  # overflow: inf, or NaN where the format has no inf
            expect = _decode(got, ebits, mbits, fn)
            assert (math.isnan(expect) if fn else expect == math.copysign(math.inf, v)), (fmt, v)
        else:
            assert got == want, (fmt, v, hex(got), hex(want))
        assert len(_C._pack_scalar(fmt, v)) == width
    for special in (math.inf, -math.inf, math.nan):
        assert _decode(int.from_bytes(_C._pack_scalar(fmt, special), "little"), ebits, mbits,
                       fn) != 0


def test_fp16_scalars_match_numpy():
    rs = np.random.RandomState(0)
    values = np.concatenate([rs.standard_normal(2000) * 10.0 ** rs.randint(-9, 6, 2000),
                             [65504.0, 65519.99, 6e-8, 3e-8, 2.98e-8]])
    with np.errstate(over="ignore"):  # past 65520: inf, in both
        for v in values:
            assert _C._pack_scalar("fp16", float(v)) == np.float16(v).tobytes(), v


def test_bf16_scalars_match_torch():
    # float32 inputs: torch rounds float -> bf16 once, so it is a reference
    rs = np.random.RandomState(1)
    values = (rs.standard_normal(2000) * 10.0 ** rs.randint(-30, 30, 2000)).astype(np.float32)
    ref = torch.from_numpy(values).to(torch.bfloat16).view(torch.int16).numpy().astype(np.uint16)
    for v, r in zip(values, ref):
        assert _C._pack_scalar("bf16", float(v)) == int(r).to_bytes(2, "little"), v


@pytest.mark.parametrize("sig,value,raw", [
    ("i1", True, b"\x01"), ("i1", 2, b"\x01"), ("i1", 0, b"\x00"),
    ("i8", -1, b"\xff"), ("i8", 127, b"\x7f"), ("u8", 200, b"\xc8"),
    ("i16", -2, struct.pack("<h", -2)), ("u16", 65535, b"\xff\xff"),
    ("i32", -7, struct.pack("<i", -7)), ("u32", 2 ** 32 - 1, b"\xff" * 4),
    ("i64", -2 ** 63, struct.pack("<q", -2 ** 63)), ("u64", 2 ** 64 - 1, b"\xff" * 8),
    ("u64", 2 ** 63 + 5, struct.pack("<Q", 2 ** 63 + 5)),
    ("fp32", 0.1, struct.pack("<f", 0.1)), ("fp64", 0.1, struct.pack("<d", 0.1)),
])
def test_scalars_packed_in_memory_layout(sig, value, raw):
    assert _C._pack_scalar(sig, value) == raw


@pytest.mark.parametrize("sig,value", [
    ("i8", 128), ("i8", -129), ("u8", 256), ("u8", -1), ("i16", 2 ** 15), ("u16", 2 ** 16),
    ("i32", 2 ** 31), ("i32", -2 ** 31 - 1), ("u32", 2 ** 32), ("u32", -1),
    ("i64", 2 ** 63), ("u64", 2 ** 64), ("u64", -1)])
def test_checked_packing_refuses_values_out_of_range(sig, value):
    with pytest.raises(OverflowError):
        _C._pack_scalar(sig, value)


def test_pack_hook_refuses_unknown_types():
    with pytest.raises(ValueError, match="unknown scalar type"):
        _C._pack_scalar("fp128", 1.0)


# ------------------------------------------------------ end to end (host)


PASS_SRC = "import mytriton.language as tl\ndef k(out, v):\n    pass\n"


@pytest.mark.parametrize("sig", list(DTYPES))
def test_params_spell_every_dtype(sig):
    k = _C.compile(PASS_SRC, "k.py", "k", f"*{sig}:16, {sig}", stages_only=True)
    assert k.params == [("out", f"*{sig}"), ("v", sig)]
    assert k.signature == f"*{sig}:16, {sig}"


@pytest.mark.parametrize("sig,value", [
    ("i1", True), ("i8", -3), ("i16", 1000), ("i32", -7), ("i64", -2 ** 40), ("u8", 255),
    ("u16", 65535), ("u32", 2 ** 32 - 1), ("u64", 2 ** 64 - 1), ("fp8e4nv", 0.5),
    ("fp8e5", -2.0), ("fp16", 1.5), ("bf16", 3.0), ("fp32", 0.1), ("fp64", 0.1)])
def test_every_scalar_type_launches(sig, value):
    # the checked launch packs each value by the parameter's dtype
    k = _C.compile(PASS_SRC, "k.py", "k", f"*fp32, {sig}")
    k.launch((1,), [np.zeros(1, np.float32).ctypes.data, value])


@pytest.mark.parametrize("sig", [_launch_param(f"launch-{s}", s) for s in DTYPES])
def test_every_pointer_dtype_launches(sig):
    code, bits = DTYPES[sig][2]
    probe_kernel[(1,)](RawDLPack(np.zeros(64, np.uint8), code, bits), 2 ** 63 + 16, BLOCK=4)
    assert probe_kernel.last_compiled.signature == f"*{sig}:16, u64:16, 4"
    assert probe_kernel.last_compiled.params == [("p", f"*{sig}"), ("n", "u64")]


@triton.jit
def copy_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)


def _bytes_of(sig, n, seed):
    rs = np.random.RandomState(seed)
    raw = rs.randint(0, 256, n * ITEMSIZE[sig]).astype(np.uint8)
    if sig == "i1":
        raw = raw & 1
    return raw


@pytest.mark.parametrize("sig", [_launch_param(f"copy-{s}", s) for s in DTYPES])
def test_copy_every_dtype(sig):
    # moved as bytes: the memory of the input is the memory of the output
    n = 100
    raw = _bytes_of(sig, n, 7)
    torch_name, np_name = DTYPES[sig][:2]
    if np_name:
        x = raw.view(np.dtype(getattr(np, np_name)))
        if sig.startswith("fp"):  # NaN payloads need not survive a float move
            x = np.where(np.isnan(x), 0, x).astype(x.dtype)
        out = np.zeros_like(x)
        copy_kernel[(4,)](x, out, n, BLOCK=32)
        assert out.tobytes() == x.tobytes()
    else:
        x = RawDLPack(raw & 0x3f, *DTYPES[sig][2])  # small finite values only
        out_buf = np.zeros_like(raw)
        copy_kernel[(4,)](x, RawDLPack(out_buf, *DTYPES[sig][2]), n, BLOCK=32)
        assert out_buf.tobytes() == (raw & 0x3f).tobytes()
    assert copy_kernel.last_compiled.signature.startswith(f"*{sig}:16, *{sig}:16, ")


@triton.jit
def store_scalar_kernel(out, value):
    tl.store(out, value)


@pytest.mark.parametrize("value,np_dtype,sig", [
    _launch_param("scalar-i32", -5, np.int32, "i32"),
    _launch_param("scalar-i64", -2 ** 40 - 3, np.int64, "i64"),
    _launch_param("scalar-u64", 2 ** 64 - 3, np.uint64, "u64"),
])
def test_scalar_parameters_reach_the_kernel(value, np_dtype, sig):
    out = np.zeros(1, dtype=np_dtype)
    store_scalar_kernel[(1,)](out, value)
    assert int(out[0]) == value
    assert store_scalar_kernel.last_compiled.signature.split(", ")[1] == sig


@pytest.mark.parametrize("value", [_launch_param("scalar-fp16-launch", 1.0009765625)])
def test_fp16_scalar_through_the_checked_launch(value):
    src = ("import mytriton.language as tl\n"
           "def k(out, v):\n"
           "    tl.store(out, v)\n")
    k = _C.compile(src, "k.py", "k", "*fp16, fp16")
    assert k.params == [("out", "*fp16"), ("v", "fp16")]
    out = np.zeros(1, dtype=np.float16)
    k.launch((1,), [out.ctypes.data, value])
    assert out[0] == np.float16(value)
