"""tl.dot_scaled, Triton's microscaled dot: e2m1 (two codes a byte, low
nibble first), e4m3, e5m2, bf16 and fp16 operands, e8m0 scales (uint8, one
per 32 elements of K) on either side or none, acc= through a K loop, the
NaN scale 0xFF and scale 0, fast_math.

The "exact" outputs use values and scales whose products are multiples of
one power of two and whose sums stay below 2^24 of it, so every order of
accumulation gives the same f32 bits.  The "codes" outputs multiply every
code of a format by an identity matrix (each result is one scaled operand
value), so each code's decoding shows, NaN codes too (e5m2's infinity and
NaN codes become finite in bf16, as Triton 3.6 converts them)."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}


@triton.jit
def ds_kernel(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr,
              K: tl.constexpr, BK: tl.constexpr, FA: tl.constexpr, FB: tl.constexpr,
              FAST: tl.constexpr):
    PA: tl.constexpr = 2 if FA == "e2m1" else 1
    PB: tl.constexpr = 2 if FB == "e2m1" else 1
    SK: tl.constexpr = BK // 32
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    acc = tl.zeros((M, N), dtype=tl.float32)
    for k0 in range(0, K, BK):
        ka = k0 // PA + tl.arange(0, BK // PA)
        kb = k0 // PB + tl.arange(0, BK // PB)
        a = tl.load(a_ptr + m[:, None] * (K // PA) + ka[None, :])
        b = tl.load(b_ptr + kb[:, None] * N + n[None, :])
        ks = k0 // 32 + tl.arange(0, SK)
        a_s = None
        b_s = None
        if as_ptr is not None:
            a_s = tl.load(as_ptr + m[:, None] * (K // 32) + ks[None, :])
        if bs_ptr is not None:
            b_s = tl.load(bs_ptr + n[:, None] * (K // 32) + ks[None, :])
        acc = tl.dot_scaled(a, a_s, FA, b, b_s, FB, acc=acc, fast_math=FAST)
    tl.store(c_ptr + m[:, None] * N + n[None, :], acc)


def cycle(values, shape, step):
    """values[(i * step) % len] over an array of shape: deterministic."""
    k = np.arange(int(np.prod(shape))).reshape(shape)
    return np.asarray(values)[(k * step) % len(values)]


def quarters(dtype, shape, step):
    """bf16 or fp16 multiples of 1/4 in [-2, 2]."""
    v = cycle(np.arange(-8, 9) * 0.25, shape, step).astype(np.float32)
    return torch.from_numpy(v).to(dtype)


def fp8_codes(fmt, shape, step):
    """e4m3 codes of [0.5, 3.75] (exponent 6..8) or e5m2 codes of
    [0.5, 3.5] (exponent 14..16), both signs: four significant bits."""
    mbits, exps = (3, range(6, 9)) if fmt == "e4m3" else (2, range(14, 17))
    codes = [s << 7 | e << mbits | m for s in (0, 1) for e in exps for m in range(1 << mbits)]
    return torch.from_numpy(cycle(codes, shape, step).astype(np.uint8))


def u8(values, shape, step):
    return torch.from_numpy(cycle(values, shape, step).astype(np.uint8))


def identity(K, N):
    """B[k, n] = 1 where k == n: out[m, n] = the scaled a[m, n] alone."""
    return (np.arange(K)[:, None] == np.arange(N)[None, :]).astype(np.float32)


def all_codes(M, width, used, special=()):
    """Bytes whose first `used` columns run through 0..255 row after row;
    the rest 0 (the identity multiplies them by 0, and NaN * 0 is NaN).
    A NaN makes its whole row NaN, so the codes in `special` are 0 but in
    the last 256 codes."""
    k = np.arange(M)[:, None] * used + np.arange(width)[None, :]
    codes = np.where(np.arange(width)[None, :] < used, k % 256, 0)
    early = (k < M * used - 256) & np.isin(codes, list(special))
    return torch.from_numpy(np.where(early, 0, codes).astype(np.uint8))


def launch(device, a, sa, fa, b, sb, fb, M, N, K, BK, fast=False):
    dev = lambda t: None if t is None else t.to(device)
    c = torch.zeros((M, N), dtype=torch.float32, device=device)
    ds_kernel[(1,)](dev(a), dev(sa), dev(b), dev(sb), c, M, N, K, BK, fa, fb, fast)
    return c


def run(device):
    out = {}
    M, N, K = 32, 32, 64
    scales = [126, 127, 128]
    # mxfp4 weights times bf16 activations, scale on the lhs
    a = u8(range(256), (M, K // 2), 37)
    sa = u8(scales, (M, K // 32), 5)
    b = quarters(torch.bfloat16, (K, N), 7)
    out["e2m1_bf16_exact"] = launch(device, a, sa, "e2m1", b, None, "bf16", M, N, K, 64)
    # fp16 compute: fp16 lhs, e2m1 rhs with its scale ([N, K/32], not transposed)
    a = quarters(torch.float16, (M, K), 11)
    b = u8(range(256), (K // 2, N), 53)
    sb = u8(scales, (N, K // 32), 3)
    out["fp16_e2m1_exact"] = launch(device, a, None, "fp16", b, sb, "e2m1", M, N, K, 64)
    # fp8 both sides, both scaled, K = 128 in two steps through acc=
    K2 = 128
    a = fp8_codes("e4m3", (M, K2), 29)
    b = fp8_codes("e5m2", (K2, N), 31)
    sa = u8(scales, (M, K2 // 32), 2)
    sb = u8(scales, (N, K2 // 32), 1)
    out["e4m3_e5m2_kloop_exact"] = launch(device, a, sa, "e4m3", b, sb, "e5m2", M, N, K2, 64)
    # no scales at all
    a = fp8_codes("e5m2", (M, K), 13)
    b = quarters(torch.bfloat16, (K, N), 3)
    out["e5m2_bf16_unscaled_exact"] = launch(device, a, None, "e5m2", b, None, "bf16", M, N, K, 64)
    # every code of each format through an identity rhs, one scale per row
    # from 2^-3 to 2^3 (each result is one scaled value: exact)
    ones = torch.from_numpy(identity(K, N)).to(torch.bfloat16)
    rows = u8(np.repeat(np.arange(124, 131), 2), (M, K // 32), 1)
    e5m2_special = [s | c for s in (0, 0x80) for c in range(0x7C, 0x80)]
    for fmt, width, used, special in (("e2m1", K // 2, N // 2, ()),
                                      ("e4m3", K, N, (0x7F, 0xFF)),
                                      ("e5m2", K, N, e5m2_special)):
        a = all_codes(M, width, used, special)
        out[f"{fmt}_codes"] = launch(device, a, rows, fmt, ones, None, "bf16", M, N, K, 64)
    # the NaN scale and scale 0, then the same with fast_math (x * inf)
    sa = u8(scales, (M, K // 32), 5).clone()
    sa[0, 0] = 255
    sa[1, :] = 0
    sa[2, 1] = 255
    a = u8(range(256), (M, K // 2), 37)
    b = quarters(torch.bfloat16, (K, N), 7)
    out["nan_and_zero_scales"] = launch(device, a, sa, "e2m1", b, None, "bf16", M, N, K, 64)
    out["nan_and_zero_scales_fast_math"] = launch(device, a, sa, "e2m1", b, None, "bf16",
                                                  M, N, K, 64, fast=True)
    return out
