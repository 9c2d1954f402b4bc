"""Triton's random numbers (tl.randint, tl.randint4x, tl.rand, tl.rand4x,
tl.randn, tl.randn4x, tl.uint_to_uniform_float, tl.pair_uniform_to_normal,
tl.philox, tl.philox_impl) against a NumPy Philox written here from the
algorithm's description (Salmon et al., "Parallel random numbers: as easy
as 1, 2, 3"; Triton's random.py): bit for bit for the integers and the
uniforms, within a few ulp for the normals (float32 log, sqrt, cos differ
by an ulp between libraries)."""
import numpy as np
import pytest
import torch

import mytriton as triton
import mytriton.language as tl

from mtutil import assert_compile_error, stages

M32 = np.uint64(0xFFFFFFFF)


def philox(c, k, rounds=10, wide=False):
    """Philox4x32 (or 4x64) of counter words c[0..3] and key words k[0..1]
    (uint64 arrays holding 32- or 64-bit words): each round multiplies c0
    and c2 by the round constants, the high halves mix with c1, c3 and the
    key, the low halves become c3 and c1; the key then grows by the Weyl
    constants."""
    if wide:  # 64-bit words: Python ints, 128-bit products
        A, B = 0xD2E7470EE14C6C93, 0xCA5A826395121157
        KA, KB, mask, bits = 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, (1 << 64) - 1, 64
    else:
        A, B, KA, KB = (np.uint64(x) for x in (0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85))
        mask, bits = M32, np.uint64(32)
    c = [np.array(x, dtype=object) for x in c] if wide else [np.asarray(x, np.uint64) for x in c]
    k = [int(x) for x in k] if wide else [np.uint64(x) for x in k]
    for _ in range(rounds):
        p0, p2 = c[0] * A, c[2] * B  # exact: 32 x 32 bits fit uint64
        hi0, lo0 = (p0 >> bits) & mask, p0 & mask
        hi2, lo2 = (p2 >> bits) & mask, p2 & mask
        c = [hi2 ^ c[1] ^ k[0], lo2, hi0 ^ c[3] ^ k[1], lo0]
        k = [(k[0] + KA) & mask, (k[1] + KB) & mask]
    return c


def randint4x(seed, offsets, rounds=10):
    """Triton's randint4x: counter (offset low, offset high, 0, 0), key =
    the seed as uint64 split in two; offsets of 32 bits have no high word
    (offset.to(uint32): a negative one wraps, it is not sign-extended)."""
    o = np.asarray(offsets)
    o = (o.astype(np.uint32).astype(np.uint64) if o.dtype.itemsize <= 4
         else o.astype(np.int64).view(np.uint64))
    s = np.uint64(seed % (1 << 64))
    zero = np.zeros_like(o)
    return philox([o & M32, o >> np.uint64(32), zero, zero], [s & M32, s >> np.uint64(32)], rounds)


def uniform(bits32):
    x = np.asarray(bits32, np.uint64).astype(np.uint32).view(np.int32)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def normal(u1, u2):
    u1 = np.maximum(np.float32(1e-7), u1)
    th = np.float32(6.283185307179586) * u2
    r = np.sqrt(np.float32(-2.0) * np.log(u1))
    return r * np.cos(th), r * np.sin(th)


def test_numpy_philox_known_answer():
    # Random123's kat_vectors: philox4x32_10 of counter 0, key 0
    out = philox([[0], [0], [0], [0]], [0, 0])
    assert [int(x[0]) for x in out] == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]


@triton.jit
def ints_kernel(seed, offs_ptr, out, BLOCK: tl.constexpr, ROUNDS: tl.constexpr):
    i = tl.arange(0, BLOCK)
    o = tl.load(offs_ptr + i)
    a, b, c, d = tl.randint4x(seed, o, n_rounds=ROUNDS)
    tl.store(out + 0 * BLOCK + i, a)
    tl.store(out + 1 * BLOCK + i, b)
    tl.store(out + 2 * BLOCK + i, c)
    tl.store(out + 3 * BLOCK + i, d)
    tl.store(out + 4 * BLOCK + i, tl.randint(seed, o, ROUNDS))


@pytest.mark.parametrize("seed", [0, 1, -1, 2**31 - 1, -2**31, 2**40 + 3, 2**62])
@pytest.mark.parametrize("odtype", [torch.int32, torch.int64])
@pytest.mark.parametrize("rounds", [10, 3])
def test_randint_matches_philox(device, seed, odtype, rounds):
    n = 64
    offs = np.arange(n, dtype=np.int64) * 40503 - 1000
    if odtype == torch.int64:
        offs = offs * (1 << 31) + 7
    out = torch.zeros(5 * n, dtype=torch.int64, device=device)
    ints_kernel[(1,)](seed, torch.tensor(offs, dtype=odtype, device=device), out, BLOCK=n,
                      ROUNDS=rounds)
    want = randint4x(seed, offs.astype(np.int32) if odtype == torch.int32 else offs, rounds)
    got = out.cpu().numpy().reshape(5, n)
    for lane in range(4):
        np.testing.assert_array_equal(got[lane], want[lane].astype(np.int64))
    np.testing.assert_array_equal(got[4], want[0].astype(np.int64))


@triton.jit
def floats_kernel(seed, out, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(out + 0 * BLOCK + i, tl.rand(seed, i))
    a, b, c, d = tl.rand4x(seed, i)
    tl.store(out + 1 * BLOCK + i, a)
    tl.store(out + 2 * BLOCK + i, d)
    tl.store(out + 3 * BLOCK + i, tl.randn(seed, i))
    e, f, g, h = tl.randn4x(seed, i)
    tl.store(out + 4 * BLOCK + i, e)
    tl.store(out + 5 * BLOCK + i, f)
    tl.store(out + 6 * BLOCK + i, g)
    tl.store(out + 7 * BLOCK + i, h)


def ulps(a, b):
    ia = a.astype(np.float32).view(np.int32).astype(np.int64)
    ib = b.astype(np.float32).view(np.int32).astype(np.int64)
    return np.abs(ia - ib)


@pytest.mark.parametrize("seed", [5, -77, 2**35])
def test_uniform_and_normal(device, seed):
    n = 1024
    out = torch.zeros(8 * n, device=device)
    floats_kernel[(1,)](seed, out, BLOCK=n)
    got = out.cpu().numpy().reshape(8, n)
    lanes = randint4x(seed, np.arange(n, dtype=np.int32))
    u = [uniform(x) for x in lanes]
    # the uniforms bit for bit, in [0, 1)
    for row, want in ((0, u[0]), (1, u[0]), (2, u[3])):
        assert got[row].tobytes() == want.tobytes()
    assert got[:3].min() >= 0 and got[:3].max() < 1
    n1, n2 = normal(u[0], u[1])
    n3, n4 = normal(u[2], u[3])
    for row, want in ((3, n1), (4, n1), (5, n2), (6, n3), (7, n4)):
        assert ulps(got[row], want).max() <= 8, (row, ulps(got[row], want).max())
    assert abs(got[3].mean()) < 0.1 and abs(got[3].std() - 1) < 0.1


@triton.jit
def helpers_kernel(x_ptr, out, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i)
    tl.store(out + i, tl.uint_to_uniform_float(x))
    tl.store(out + BLOCK + i, tl.uint_to_uniform_float(x.to(tl.int64) * 0x1_0000_0001))
    p, q = tl.pair_uniform_to_normal(i.to(tl.float32) / BLOCK, 0.25 + i * 0.0)
    tl.store(out + 2 * BLOCK + i, p)
    tl.store(out + 3 * BLOCK + i, q)


def test_uniform_helpers(device):
    n = 16
    x = np.array([0, 1, -1, 2**31 - 1, -2**31, 12345, -12345] + list(range(9)), dtype=np.int32)
    out = torch.zeros(4 * n, device=device)
    helpers_kernel[(1,)](torch.from_numpy(x).to(device), out, BLOCK=n)
    got = out.cpu().numpy().reshape(4, n)
    assert got[0].tobytes() == uniform(x.astype(np.int64) & 0xFFFFFFFF).tobytes()
    w = x.astype(np.int64) * 0x100000001
    w = np.where(w < 0, -w - 1, w)
    assert got[1].tobytes() == (w.astype(np.float32) * np.float32(1.0842020432385337e-19)).tobytes()
    p, q = normal(np.arange(n, dtype=np.float32) / np.float32(n), np.full(n, 0.25, np.float32))
    assert ulps(got[2], p).max() <= 8 and ulps(got[3], q).max() <= 8


def corpus_kernel(case, name):
    """A kernel of the differential corpus (tests/diff/corpus), on mytriton."""
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "diff"))
    import diffrun
    return getattr(diffrun.load(case, "mytriton"), name)


@pytest.mark.parametrize("seed", [3, -100, 2**45 + 1])
def test_philox_of_any_counter(device, seed):
    """rand_philox's kernel: tl.philox on 32-bit and 64-bit counters and
    philox_impl on uint32 words with keys (seed, seed + 1), 6 rounds."""
    n = 32
    res = [torch.zeros(4 * n, dtype=torch.int64, device=device) for _ in range(3)]
    corpus_kernel("rand_philox", "philox_ops")[(1,)](seed, *res, BLOCK=n)
    i = np.arange(n, dtype=np.int64)
    s = seed % (1 << 64)
    u32 = lambda v: np.asarray(v, np.int64).astype(np.uint32).astype(np.uint64)
    want32 = philox([u32(i), u32(i * 7 + 1), u32(i ^ 0x55), u32(-i)], [s & 0xFFFFFFFF, s >> 32])
    assert res[0].cpu().numpy().reshape(4, n).tolist() == [x.astype(np.int64).tolist()
                                                             for x in want32]
    w = i * 0x100000003
    u64 = lambda v: [int(x) % (1 << 64) for x in v]
    want64 = philox([u64(w), u64(w + 1), u64(w * 3), u64(-w)], [s, 0], wide=True)
    wrap = lambda x: int(x) - (1 << 64) if int(x) >= 1 << 63 else int(x)
    assert res[1].cpu().numpy().reshape(4, n).tolist() == [[wrap(x) for x in lane]
                                                             for lane in want64]
    k0 = s & 0xFFFFFFFF
    impl = philox([u32(i), u32(i * 3), u32(i + 9), u32(i ^ 0xF0F0)], [k0, (k0 + 1) & 0xFFFFFFFF],
                  rounds=6)
    assert res[2].cpu().numpy().reshape(4, n).tolist() == [x.astype(np.int64).tolist()
                                                             for x in impl]


@triton.jit
def folded_kernel(out):
    o = tl.cast(5, tl.int32)
    tl.store(out, tl.randint(123, o))
    tl.store(out + 1, tl.randint(-9, o.to(tl.int64) + 2**40, n_rounds=2))


def test_constant_lane_folds(device):
    out = torch.zeros(2, dtype=torch.int64, device=device)
    assert "philox" not in stages(folded_kernel, out)["ssa-opt"]
    folded_kernel[(1,)](out)
    assert out.tolist() == [int(randint4x(123, np.int32([5]))[0][0]),
                            int(randint4x(-9, np.int64([5 + 2**40]), 2)[0][0])]


@triton.jit
def lane_codegen_kernel(seed, out, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(out + i, tl.rand(seed, i))


def test_lane_is_one_runtime_call():
    asm = stages(lane_codegen_kernel, 7, torch.zeros(64), BLOCK=64)
    assert "= philox %" in asm["ssa-opt"] and asm["ssa-opt"].count("philox") == 1
    assert "mt_philox(" in asm["cuda"] and ", 40)" in asm["cuda"]


@triton.jit
def float_seed_kernel(out):
    tl.store(out + tl.arange(0, 4), tl.rand(1.5, tl.arange(0, 4)))


@triton.jit
def int_offset_kernel(out):
    tl.store(out, tl.rand(5, 7))


@triton.jit
def f64_offset_kernel(out):
    i = tl.arange(0, 4)
    tl.store(out + i, tl.randint(5, i.to(tl.float64)))


@triton.jit
def rounds_kernel(out, r):
    i = tl.arange(0, 4)
    tl.store(out + i, tl.randn(5, i, n_rounds=r))


@triton.jit
def impl_dtype_kernel(out):
    i = tl.arange(0, 4)
    a, b, c, d = tl.philox_impl(i, i, i, i, i, i)
    tl.store(out + i, a)


@triton.jit
def philox_width_kernel(out):
    i = tl.arange(0, 4).to(tl.int16)
    a, b, c, d = tl.philox(1, i, i, i, i)
    tl.store(out + i, a)


@triton.jit
def uniform_dtype_kernel(out):
    i = tl.arange(0, 4)
    tl.store(out + i, tl.uint_to_uniform_float(i.to(tl.int16)))


F = torch.zeros(4)


@pytest.mark.parametrize("kernel,args,needle,pattern", [
    (float_seed_kernel, (F,), "tl.rand(1.5",
     r"static assertion failed: the seed of tl.rand\(\) must be an integer, got fp32"),
    (int_offset_kernel, (F,), "tl.rand(5, 7)",
     r"tl.rand\(\) offset must be a tensor \('int' object has no attribute 'to'\)"),
    (f64_offset_kernel, (F,), "tl.randint(5",
     r"offset of type fp64: invalid operands of type fp64 and fp64 for >>"),
    (rounds_kernel, (F, 3), "n_rounds=r", r"n_rounds must be a compile-time integer"),
    (impl_dtype_kernel, (F,), "tl.philox_impl(",
     r"dtype not supported in philox_impl: the counter must be uint32 or uint64, got int32"),
    (philox_width_kernel, (F,), "a, b, c, d = tl.philox(",
     r"bitwidth not supported in philox: c0 is int16"),
    (uniform_dtype_kernel, (F,), "tl.uint_to_uniform_float(",
     r"takes int32, uint32, int64 or uint64, got int16"),
])
def test_errors(kernel, args, needle, pattern):
    assert_compile_error(kernel, args, needle=needle, pattern=pattern)


@triton.jit
def float_offset_kernel(seed, out, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    # Triton takes a float32 offset too (offset.to(tl.uint32) truncates it),
    # and tl.random.* are the same functions
    tl.store(out + i, tl.random.randint(seed, i.to(tl.float32) + 0.75))


def test_float32_offset_truncates(device):
    n = 16
    out = torch.zeros(n, dtype=torch.int64, device=device)
    float_offset_kernel[(1,)](99, out, BLOCK=n)
    assert out.tolist() == randint4x(99, np.arange(n, dtype=np.int32))[0].astype(np.int64).tolist()
