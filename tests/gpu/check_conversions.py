"""check_conversions.py: src/mt_kernel_rt.h against Triton, bit for bit, on a GPU.

Input: a CUDA GPU with Triton and torch (cupy for the `check` step).
Output: under OUTDIR, triton_casts.npz (every cast Triton made: source
bits -> destination bits, per source dtype, destination dtype and rounding
mode, plus the error text of casts Triton refuses), triton_ptx.json (the
cvt instructions Triton chose per kernel), and for `check` a report of
every mismatch between Triton and the header's device functions.

    python3 tests/gpu/check_conversions.py record OUTDIR
    python3 tests/gpu/check_conversions.py check OUTDIR   # record + compare
    python3 tests/gpu/check_conversions.py export NPZ JSON [--full]

Every value travels as raw bits in an integer tensor of its width and is
bitcast inside the kernel, so that torch's own conversions (which differ
from Triton's for NaN and out-of-range values) never touch the data.
"""
import importlib.util
import json
import math
import os
import re
import struct
import sys
import tempfile

import numpy as np

# name, Triton dtype, bit width, signed integer?
TYPES = [
    ("i1", "tl.int1", 8), ("i8", "tl.int8", 8), ("i16", "tl.int16", 16),
    ("i32", "tl.int32", 32), ("i64", "tl.int64", 64), ("u8", "tl.uint8", 8),
    ("u16", "tl.uint16", 16), ("u32", "tl.uint32", 32), ("u64", "tl.uint64", 64),
    ("f16", "tl.float16", 16), ("bf16", "tl.bfloat16", 16), ("f32", "tl.float32", 32),
    ("f64", "tl.float64", 64), ("f8e4nv", "tl.float8e4nv", 8), ("f8e5", "tl.float8e5", 8),
]
TY = {n: (t, w) for n, t, w in TYPES}
FLOATS = ["f32", "f64", "f16", "bf16", "f8e4nv", "f8e5"]
INTS = ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
NP_INT = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def kernel_source():
    """One kernel casting its input to all 15 types; EN (a constexpr
    bitmask) picks the destinations compiled in, RTZ the rounding."""
    outs = ", ".join("o%d" % i for i in range(len(TYPES)))
    lines = [
        "import triton", "import triton.language as tl", "",
        "@triton.jit",
        "def cast_all(xp, %s, n, SRC: tl.constexpr, EN: tl.constexpr, RTZ: tl.constexpr, BLOCK: tl.constexpr):" % outs,
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)",
        "    m = offs < n",
        "    x = tl.load(xp + offs, mask=m).to(SRC, bitcast=True)",
    ]
    for i, (name, t, w) in enumerate(TYPES):
        store = ".to(tl.int8)" if name == "i1" else ".to(tl.int%d, bitcast=True)" % w
        lines += [
            "    if (EN >> %d) & 1:" % i,
            "        if RTZ:",
            "            y = x.to(%s, fp_downcast_rounding='rtz')" % t,
            "        else:",
            "            y = x.to(%s)" % t,
            "        tl.store(o%d + offs, y%s, mask=m)" % (i, store),
        ]
    return "\n".join(lines) + "\n"


def load_kernel(tmpdir):
    path = os.path.join(tmpdir, "mt_cast_kernels.py")
    with open(path, "w") as f:
        f.write(kernel_source())
    spec = importlib.util.spec_from_file_location("mt_cast_kernels", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.cast_all


# ---- inputs: raw bit patterns per source type ----

def f64_values():
    v = [0.0, -0.0, math.inf, -math.inf, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5,
         0.49999997, 0.9999999, -0.9999999, 0.999999999999, -0.999999999999,
         65504.0, 65519.0, 65519.99, 65520.0, 65535.0, 65535.9, 65536.0, -65520.0,
         448.0, 464.0, 464.1, 480.0, 57344.0, 61439.0, 61440.0, 61441.0, 1e-8, 2.0 ** -24,
         2.0 ** -25, 2.0 ** -25 * 1.0001, 2.0 ** -14, 2.0 ** -6, 2.0 ** -9, 2.0 ** -10, 2.0 ** -16,
         2.0 ** -17, 2.0 ** -126, 2.0 ** -133, 2.0 ** -149, 2.0 ** -150, 1e-300, 5e-324,
         1e10, -1e10, 1e19, -1e19, 1.8e19, 1e20, -1e20, 1e30, 3e38, 3.4028234663852886e38,
         3.4028235677973366e38, 3.5e38, 1e300, 1.7976931348623157e308, -1.7976931348623157e308,
         1.0 + 2.0 ** -11, 1.0 + 2.0 ** -11 + 2.0 ** -40, 1.0 + 2.0 ** -8 + 2.0 ** -40,
         1.0 + 3 * 2.0 ** -11, 1.0 + 2.0 ** -24 + 2.0 ** -60, 0.1, -0.1, 3.14159]
    for w in (8, 16, 32, 64):
        for base in (2.0 ** (w - 1), 2.0 ** w):
            for d in (-1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5):
                v += [base + d, -(base + d)]
            for s in (1 - 2.0 ** -30, 1 - 2.0 ** -20, 1 - 2.0 ** -10, 1 + 2.0 ** -20, 1 + 2.0 ** -10):
                v += [base * s, -base * s]
    for k in range(0, 72):
        for frac in (1.0, 1.25, 1.5, 1.75):
            v += [2.0 ** k * frac, -(2.0 ** k * frac)]
    for i in range(-1100, 1101):
        v.append(i / 4.0)
    return v


def f32_bits():
    vals = np.array(f64_values(), dtype=np.float64)
    with np.errstate(over="ignore"):
        b = vals.astype(np.float32).view(np.uint32).tolist()
    b += [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0xffffffff, 0x7fa00000,
          0x7fc00001, 0x7f802000, 0x7fe00000, 0x7f810000, 0x00000001, 0x80000001, 0x007fffff,
          0x7f7fffff, 0xff7fffff, 0x33000000, 0x33000001, 0x387fe000, 0x387fc000, 0x38800000]
    # f32 -> f16/bf16/fp8 halfway and near-halfway cases around every exponent
    for e in range(100, 160):
        for m in (0x001000, 0x001001, 0x000fff, 0x003000, 0x002000, 0x008000, 0x018000,
                  0x010000, 0x0fffff, 0x100000, 0x300000, 0x080000, 0x17ffff, 0x7fffff):
            b += [(e << 23) | m, 0x80000000 | (e << 23) | m]
    return np.array(sorted(set(b)), dtype=np.uint32).view(np.int32)


def f64_bits():
    b = np.array(f64_values(), dtype=np.float64).view(np.uint64).tolist()
    b += [0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0xfff0000000000001,
          0x7fffffffffffffff, 0x7ff4000000000000, 0x7ff8000020000000, 0x7ff0000020000000,
          0x7ff8040000000000, 0x0000000000000001]
    # doubles that round differently through f32 than directly (one rounding)
    for e in range(1000, 1060, 3):
        for m in (0x0000020000000, 0x0000020000001, 0x00000fffffff, 0x0040000000001,
                  0x0010000000001, 0x0020000000000, 0x0100000000001, 0x0080000000000):
            b += [(e << 52) | m, (1 << 63) | (e << 52) | m]
    return np.array(sorted(set(b)), dtype=np.uint64).view(np.int64)


def int_values(name):
    w = TY[name][1]
    if w <= 16:
        return np.arange(0, 1 << w, dtype=np.int64).astype(np.uint64).astype(
            {8: np.uint8, 16: np.uint16}[w]).view(NP_INT[w])
    rng = np.random.default_rng(8)
    v = [0, 1, 2, 3, (1 << 24) + 1, (1 << 24) + 3, (1 << 25) + 3, (1 << 31) - 1, 1 << 31,
         (1 << 31) + (1 << 23) + 1, (1 << 31) + (1 << 23), (1 << 31) + (1 << 24) + (1 << 23),
         (1 << 31) + (1 << 15) + 1, (1 << 31) + (1 << 20) + 1, 65504, 65519, 65520, 65535,
         (1 << 32) - 1, 448, 449, 464, 57344, 61440, 16777217, 0x7fffff80, 0x7fffffc0]
    v += [(1 << 53) + 1, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, (1 << 63) + (1 << 39) + 1,
          (1 << 62) + (1 << 54) + 1, (1 << 40) + (1 << 32) + 1, (1 << 55) + (1 << 31) + 1]
    for k in range(0, 64):
        v += [1 << k, (1 << k) + (1 << max(k - 8, 0)) + 1, (1 << k) + (1 << max(k - 11, 0)) + 1,
              (1 << k) + (1 << max(k - 24, 0)) + 1, (1 << k) - 1]
    v += rng.integers(0, 1 << 63, 400, dtype=np.int64).tolist()
    v += (rng.integers(0, 1 << 62, 300, dtype=np.int64) >> rng.integers(0, 60, 300)).tolist()
    mask = (1 << w) - 1
    v = sorted(set(x & mask for x in v) | set((-x) & mask for x in v))
    return np.array(v, dtype=np.uint64).astype({32: np.uint32, 64: np.uint64}[w]).view(NP_INT[w])


def source_bits(name):
    if name == "f32":
        return f32_bits()
    if name == "f64":
        return f64_bits()
    if name in ("f16", "bf16"):
        return np.arange(0, 1 << 16, dtype=np.int64).astype(np.uint16).view(np.int16)
    if name in ("f8e4nv", "f8e5"):
        return np.arange(0, 256, dtype=np.int64).astype(np.uint8).view(np.int8)
    return int_values(name)


# ---- running Triton ----

def run_cast(kern, torch, src, x, en, rtz):
    """Outputs of one launch (None where EN leaves a type out) and the
    cvt instructions in its PTX."""
    n = x.numel()
    outs = []
    for i, (name, t, w) in enumerate(TYPES):
        outs.append(torch.zeros(n if (en >> i) & 1 else 1, dtype=getattr(torch, "int%d" % w),
                                device=x.device))
    ck = kern[(triton_cdiv(n, 1024),)](x, *outs, n, SRC=eval_dtype(TY[src][0]), EN=en,
                                       RTZ=rtz, BLOCK=1024)
    cvts = []
    asm = getattr(ck, "asm", None)
    if asm and "ptx" in asm:
        cvts = sorted(set(re.findall(r"\b(cvt[.\w]*)", asm["ptx"])))
    return [o if (en >> i) & 1 else None for i, o in enumerate(outs)], cvts


def cast_set(kern, torch, src, x, en, rtz, outs, errors, ptx):
    """Runs the casts in EN, splitting the set in halves where Triton
    refuses one, so that each refused cast gets its own error."""
    key = "%s%s" % (src, "/rtz" if rtz else "")
    try:
        got, cvts = run_cast(kern, torch, src, x, en, rtz)
        for i, o in enumerate(got):
            if o is not None:
                outs[i] = o
        ptx["%s en=%#x" % (key, en)] = cvts
        return
    except Exception as e:
        bits = [i for i in range(len(TYPES)) if (en >> i) & 1]
        if len(bits) == 1:
            msg = [l for l in str(e).strip().splitlines() if l.strip()]
            pick = [l for l in msg if "Error" in l or "error" in l] or msg[-1:]
            errors["%s->%s%s" % (src, TYPES[bits[0]][0], "/rtz" if rtz else "")] = \
                " | ".join(pick)[-400:]
            return
    half = bits[: len(bits) // 2]
    a = sum(1 << i for i in half)
    cast_set(kern, torch, src, x, a, rtz, outs, errors, ptx)
    cast_set(kern, torch, src, x, en & ~a, rtz, outs, errors, ptx)


# single casts whose PTX we want to read (which instruction Triton picks)
PTX_PROBES = [("f32", "f8e4nv", 0), ("f32", "f8e5", 0), ("f16", "f8e4nv", 0), ("f16", "f8e5", 0),
              ("bf16", "f8e4nv", 0), ("bf16", "f8e5", 0), ("f32", "f8e4nv", 1), ("f32", "f8e5", 1),
              ("f8e4nv", "f32", 0), ("f8e5", "f32", 0), ("f8e4nv", "f16", 0), ("f8e4nv", "bf16", 0),
              ("f64", "bf16", 0), ("f64", "f16", 0), ("i64", "bf16", 0), ("i32", "bf16", 0),
              ("u64", "f16", 0), ("f32", "i8", 0), ("f32", "u8", 0), ("f32", "u16", 0),
              ("f16", "i8", 0), ("f16", "i32", 0), ("bf16", "i32", 0), ("f32", "bf16", 1),
              ("f32", "f16", 1), ("f32", "bf16", 0), ("f16", "bf16", 0), ("bf16", "f16", 0)]


def triton_cdiv(a, b):
    return (a + b - 1) // b


def eval_dtype(text):
    import triton.language as tl
    return getattr(tl, text.split(".")[1])


def record(outdir, device):
    import torch
    import triton
    tmp = tempfile.mkdtemp()
    kern = load_kernel(tmp)
    results = {}
    errors = {}
    ptx = {}
    jobs = [(s, 0) for s in FLOATS + INTS] + [(s, 1) for s in ["f32", "f64", "f16", "bf16"]]
    for src, rtz in jobs:
        bits = source_bits(src)
        results["in/%s" % src] = bits
        x = torch.from_numpy(bits.copy()).to(device)
        full = (1 << len(TYPES)) - 1
        if rtz:  # rounding modes only apply to float narrowing
            full = sum(1 << i for i, (n, _, _) in enumerate(TYPES) if n in FLOATS)
        outs = [None] * len(TYPES)
        cast_set(kern, torch, src, x, full, rtz, outs, errors, ptx)
        ok = [i for i in range(len(TYPES)) if outs[i] is not None]
        for i in ok:
            results["%s->%s%s" % (src, TYPES[i][0], "/rtz" if rtz else "")] = outs[i].cpu().numpy()
        print("cast from %s%s: %d ok, %d refused" % (src, "/rtz" if rtz else "", len(ok),
              sum(1 for k in errors if k.startswith(src + "->") and k.endswith("/rtz") == bool(rtz))),
              flush=True)
    for src, dst, rtz in PTX_PROBES:
        i = [t[0] for t in TYPES].index(dst)
        x = torch.from_numpy(source_bits(src)[:1024].copy()).to(device)
        try:
            ptx["single %s->%s%s" % (src, dst, "/rtz" if rtz else "")] = \
                run_cast(kern, torch, src, x, 1 << i, rtz)[1]
        except Exception as e:
            ptx["single %s->%s%s" % (src, dst, "/rtz" if rtz else "")] = repr(e)[-200:]
    np.savez_compressed(os.path.join(outdir, "triton_casts.npz"), **results)
    with open(os.path.join(outdir, "triton_meta.json"), "w") as f:
        json.dump({"triton": triton.__version__, "torch": torch.__version__,
                   "errors": errors, "ptx_cvt": ptx}, f, indent=1, sort_keys=True)
    return results, errors


# ---- the record the unit test reads ----

def _subset(src, bits):
    """Indices of a source's inputs kept in the committed record: every
    special value and a thinned sweep (the full record is many MB)."""
    u = bits.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[bits.itemsize])
    n = len(u)
    if src in ("f8e4nv", "f8e5", "i8", "u8"):
        return np.arange(n)
    if src in ("f16", "bf16", "i16", "u16"):
        lo = u & 0xff
        keep = (lo == 0) | (lo == 0xff) | (lo == 0x81) & (u < 0x200)
        if src in ("f16", "bf16"):  # every NaN and infinity class
            keep |= np.isin(u & 0x7fff, [0x7c00, 0x7c01, 0x7e00, 0x7f80, 0x7f81, 0x7fc0, 0x7fff])
        return np.nonzero(keep)[0]
    step = {"f32": 12, "f64": 12}.get(src, 6)
    return np.arange(0, n, step)


def export(npz_path, json_path, full):
    d = np.load(npz_path)
    meta_path = os.path.join(os.path.dirname(npz_path), "triton_meta.json")
    meta = json.load(open(meta_path)) if os.path.exists(meta_path) else {}
    lines = []
    for key in sorted(k for k in d.files if "->" in k):
        src, rest = key.split("->")
        dst, _, rnd = rest.partition("/")
        if src in INTS and dst not in ("f16", "bf16", "f32", "f64") or src == dst:
            continue  # integer -> integer/bool and x.to(x.dtype) are not the header's
        bits = d["in/" + src]
        out = d[key]
        idx = np.arange(len(bits)) if full else _subset(src, bits)
        iw, ow = bits.itemsize * 2, out.itemsize * 2
        iu = bits.view("u%d" % bits.itemsize)
        ou = out.view("u%d" % out.itemsize)
        pairs = " ".join("%x:%x" % (int(iu[i]), int(ou[i])) for i in idx)
        lines.append('  ["%s", "%s", "%s", "%s"]' % (src, dst, rnd or "rtne", pairs))
    with open(json_path, "w") as f:
        f.write('{"triton": "%s", "torch": "%s", "gpu": "NVIDIA H200 (sm_90)",\n'
                % (meta.get("triton", "?"), meta.get("torch", "?")))
        f.write(' "note": "x.to(dst) in Triton: source bits -> result bits, hex; made by '
                'tests/gpu/check_conversions.py export",\n')
        f.write(' "refused": %s,\n' % json.dumps(meta.get("errors", {}), sort_keys=True))
        f.write(' "casts": [\n' + ",\n".join(lines) + "\n ]}\n")


# ---- the header's device path against Triton ----

# What the generated code computes for Triton's x.to(dst): narrow floats
# live in float registers; the type codes are indices into TYPES.
EMULATE_CU = r"""
__device__ unsigned long long emulate(int src, int dst, int rtz, unsigned long long in) {
    const int width[15] = {8, 8, 16, 32, 64, 8, 16, 32, 64, 16, 16, 32, 64, 8, 8};
    if (src == dst) return in;
    bool sf = src >= 9, f64 = src == 12, sg = src >= 1 && src <= 4;
    float f = 0; double d = 0; long long si = 0; unsigned long long ui = 0;
    switch (src) {
    case 9: f = mt_f16_to_f32((unsigned short)in); break;
    case 10: f = mt_bf16_to_f32((unsigned short)in); break;
    case 11: f = __uint_as_float((unsigned)in); break;
    case 12: d = __longlong_as_double((long long)in); break;
    case 13: f = mt_f8e4nv_to_f32((unsigned char)in); break;
    case 14: f = mt_f8e5_to_f32((unsigned char)in); break;
    default: {
        int w = width[src];
        ui = w == 64 ? in : in & ((1ull << w) - 1);
        si = w == 64 || !(ui >> (w - 1)) ? (long long)ui : (long long)(ui | ~((1ull << w) - 1));
    }
    }
    if (sf && !f64) d = mt_f32_to_f64(f);
    if (dst == 0)
        return sf ? (f64 ? (d != 0 || d != d) : (f != 0 || f != f)) : ui != 0;
    if (dst <= 8) {
        if (!sf) return ~0ull; /* integer -> integer: not the header's */
        unsigned long long r;
        switch (dst) {
        case 1: r = f64 ? (unsigned long long)mt_cvt_i8(d) : (unsigned long long)mt_cvt_i8_f(f); break;
        case 2: r = f64 ? (unsigned long long)mt_cvt_i16(d) : (unsigned long long)mt_cvt_i16_f(f); break;
        case 3: r = f64 ? (unsigned long long)mt_cvt_i32(d) : (unsigned long long)mt_cvt_i32_f(f); break;
        case 4: r = f64 ? (unsigned long long)mt_cvt_i64(d) : (unsigned long long)mt_cvt_i64_f(f); break;
        case 5: r = f64 ? mt_cvt_u8(d) : mt_cvt_u8_f(f); break;
        case 6: r = f64 ? mt_cvt_u16(d) : mt_cvt_u16_f(f); break;
        case 7: r = f64 ? mt_cvt_u32(d) : mt_cvt_u32_f(f); break;
        default: r = f64 ? mt_cvt_u64(d) : mt_cvt_u64_f(f); break;
        }
        return width[dst] == 64 ? r : r & ((1ull << width[dst]) - 1);
    }
    if (!sf) {
        switch (dst) {
        case 9: return sg ? mt_i64_to_f16(si) : mt_u64_to_f16(ui);
        case 10: return sg ? mt_i64_to_bf16(si) : mt_u64_to_bf16(ui);
        case 11: return __float_as_uint(sg ? (float)si : (float)ui);
        case 12: return (unsigned long long)__double_as_longlong(sg ? (double)si : (double)ui);
        default: return ~0ull;
        }
    }
    switch (dst) {
    case 9: return f64 ? mt_f64_to_f16(d) : rtz ? mt_f32_to_f16_rtz(f) : mt_f32_to_f16(f);
    case 10:
        if (src == 14) return mt_f8e5_to_bf16((unsigned char)in);
        return f64 ? mt_f64_to_bf16(d) : rtz ? mt_f32_to_bf16_rtz(f) : mt_f32_to_bf16(f);
    case 11: return __float_as_uint(f64 ? mt_f64_to_f32(d) : f);
    case 12: return (unsigned long long)__double_as_longlong(f64 ? d : mt_f32_to_f64(f));
    case 13: return mt_f32_to_f8e4nv(f);
    default: return rtz ? mt_f32_to_f8e5_rtz(f) : mt_f32_to_f8e5(f);
    }
}

extern "C" __global__ void emu(const unsigned long long *in, unsigned long long *out, long long n,
                               int src, int dst, int rtz) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = emulate(src, dst, rtz, in[i]);
}

/* loads and stores: every fp16/bf16/fp8 pattern survives them, and a
 * loaded register cast to f32 is what the cvt gives; counts failures */
extern "C" __global__ void roundtrip(unsigned *bad) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= 65536) return;
    unsigned short h = (unsigned short)i;
    unsigned n = 0;
    n += mt_f16_store(mt_f16_load(h)) != h;
    n += mt_bf16_store(mt_bf16_load(h)) != h;
    n += __float_as_uint(mt_nan_canon(mt_f16_load(h))) != __float_as_uint(mt_f16_to_f32(h));
    n += __float_as_uint(mt_bf16_load(h)) != __float_as_uint(mt_bf16_to_f32(h));
    if (i < 256) {
        unsigned char b = (unsigned char)i;
        n += mt_f8e4nv_store(mt_f8e4nv_load(b)) != b;
        n += mt_f8e5_store(mt_f8e5_load(b)) != b;
        n += __float_as_uint(mt_nan_canon(mt_f8e4nv_load(b))) != __float_as_uint(mt_f8e4nv_to_f32(b));
        n += __float_as_uint(mt_nan_canon(mt_f8e5_load(b))) != __float_as_uint(mt_f8e5_to_f32(b));
    }
    if (n) atomicAdd(bad, n);
}

/* every f32 pattern base + i to the narrow types, as the record's kernels do */
extern "C" __global__ void narrow_all(unsigned base, long long n, unsigned short *f16,
        unsigned short *bf16, unsigned char *e4, unsigned char *e5, unsigned short *f16z,
        unsigned short *bf16z, unsigned char *e5z) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = __uint_as_float(base + (unsigned)i);
    f16[i] = mt_f32_to_f16(x); bf16[i] = mt_f32_to_bf16(x);
    e4[i] = mt_f32_to_f8e4nv(x); e5[i] = mt_f32_to_f8e5(x);
    f16z[i] = mt_f32_to_f16_rtz(x); bf16z[i] = mt_f32_to_bf16_rtz(x); e5z[i] = mt_f32_to_f8e5_rtz(x);
}
"""


def header_module(cupy, root, software):
    """The header and EMULATE_CU, with the PTX bodies (as sm_90 gets them)
    or, with software, the bodies older GPUs and the host get."""
    with open(os.path.join(root, "src", "mt_kernel_rt.h")) as f:
        header = f.read()
    # IEEE subnormals, as mytriton's NVRTC and Triton compile (a run without
    # it flushed this harness's own f32 compares and casts)
    opts = ("-std=c++17", "--ftz=false") + (("-DMT_RT_SOFTWARE",) if software else ())
    return cupy.RawModule(code=header + EMULATE_CU, options=opts)


def check(outdir, results, root):
    """Every recorded cast through the header's device functions, then
    every f32 pattern to fp16/bf16/fp8 through Triton and the header."""
    import cupy
    import torch
    mod = header_module(cupy, root, False)
    names = [t[0] for t in TYPES]
    report = {}
    total = bad = 0
    for software in (False, True):
        m = header_module(cupy, root, software)
        t, b = check_record(cupy, m, results, names, report, "software " if software else "")
        total += t
        bad += b
        count = cupy.zeros(1, dtype=cupy.uint32)
        m.get_function("roundtrip")((256,), (256,), (count,))
        rt = int(count.get()[0])
        report["%sload/store round trips: failures" % ("software " if software else "")] = rt
        print("%sload/store round trips: %d failures" % ("software " if software else "", rt))
        bad += rt
    print("recorded casts: %d values, %d mismatches" % (total, bad), flush=True)
    sweep_f32(cupy, mod, report)
    for k, v in report["all_f32"].items():
        print("all f32 patterns %s: %d mismatches of %d %s" % (k, v["mismatches"], v["n"],
              v["first"][:3]), flush=True)
        bad += v["mismatches"]
    with open(os.path.join(outdir, "check_report.json"), "w") as f:
        json.dump(report, f, indent=1, sort_keys=True)
    print("RESULT: %s" % ("all bits equal" if bad == 0 else "%d mismatches" % bad))
    return 1 if bad else 0


def check_record(cupy, mod, results, names, report, tag):
    emu = mod.get_function("emu")
    total = bad = 0
    for key in sorted(k for k in results if "->" in k):
        src, rest = key.split("->")
        dst, _, rnd = rest.partition("/")
        if src == dst or (src in INTS and dst not in ("f16", "bf16", "f32", "f64")):
            continue
        bits = results["in/" + src]
        iu = bits.view("u%d" % bits.itemsize).astype(np.uint64)
        want = results[key].view("u%d" % results[key].itemsize).astype(np.uint64)
        n = len(iu)
        din = cupy.asarray(iu)
        dout = cupy.zeros(n, dtype=cupy.uint64)
        emu(((n + 255) // 256,), (256,), (din, dout, np.int64(n), np.int32(names.index(src)),
                                         np.int32(names.index(dst)), np.int32(rnd == "rtz")))
        got = cupy.asnumpy(dout)
        wrong = np.nonzero(got != want)[0]
        total += n
        bad += len(wrong)
        report[tag + key] = {"n": n, "mismatches": len(wrong),
                       "first": [[hex(int(iu[i])), hex(int(want[i])), hex(int(got[i]))]
                                 for i in wrong[:8]]}
        if len(wrong):
            print("MISMATCH %s%s: %d of %d, e.g. %s" % (tag, key, len(wrong), n,
                                                       report[tag + key]["first"][:3]))
    return total, bad


def sweep_f32(cupy, mod, report):
    """Every f32 pattern, in chunks, through Triton's casts to fp16, bf16
    and fp8 (both roundings) and through the header's."""
    import torch
    names = [t[0] for t in TYPES]
    tmp = tempfile.mkdtemp()
    kern = load_kernel(tmp)
    narrow = mod.get_function("narrow_all")
    idx = {n: i for i, n in enumerate(names)}
    sweep = {}
    chunk = 1 << 29
    for base in range(0, 1 << 32, chunk):
        x = torch.arange(base, base + chunk, dtype=torch.int64, device="cuda")
        x = x.to(torch.int32) if base < (1 << 31) else (x - (1 << 32)).to(torch.int32)
        rn = (1 << idx["f16"]) | (1 << idx["bf16"]) | (1 << idx["f8e4nv"]) | (1 << idx["f8e5"])
        rz = (1 << idx["f16"]) | (1 << idx["bf16"]) | (1 << idx["f8e5"])
        t_rn, _ = run_cast(kern, torch, "f32", x, rn, 0)
        t_rz, _ = run_cast(kern, torch, "f32", x, rz, 1)
        del x
        h = [torch.empty(chunk, dtype=dt, device="cuda") for dt in
             (torch.int16, torch.int16, torch.int8, torch.int8, torch.int16, torch.int16, torch.int8)]
        narrow(((chunk + 255) // 256,), (256,),
               (np.uint32(base), np.int64(chunk), *[cupy.asarray(t) for t in h]))
        pairs = [("f16", t_rn[idx["f16"]], h[0]), ("bf16", t_rn[idx["bf16"]], h[1]),
                 ("f8e4nv", t_rn[idx["f8e4nv"]], h[2]), ("f8e5", t_rn[idx["f8e5"]], h[3]),
                 ("f16/rtz", t_rz[idx["f16"]], h[4]), ("bf16/rtz", t_rz[idx["bf16"]], h[5]),
                 ("f8e5/rtz", t_rz[idx["f8e5"]], h[6])]
        for name, t, hh in pairs:
            ne = torch.nonzero(t != hh).flatten()
            ent = sweep.setdefault("f32->" + name, {"n": 0, "mismatches": 0, "first": []})
            ent["n"] += chunk
            ent["mismatches"] += int(ne.numel())
            for i in ne[:4].tolist():
                ent["first"].append([hex(base + i), int(t[i]), int(hh[i])])
        del t_rn, t_rz, h
        torch.cuda.empty_cache()
    report["all_f32"] = sweep


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "export":
        export(sys.argv[2], sys.argv[3], "--full" in sys.argv[4:])
        return 0
    if len(sys.argv) != 3 or sys.argv[1] not in ("record", "check"):
        print(__doc__)
        return 2
    outdir = sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    device = os.environ.get("MT_CHECK_DEVICE", "cuda")
    results, _ = record(outdir, device)
    if sys.argv[1] == "check":
        root = os.environ.get("MT_ROOT", os.path.join(os.path.dirname(__file__), "..", ".."))
        return check(outdir, results, root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
