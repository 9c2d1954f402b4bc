"""tl.rand, tl.rand4x and tl.uint_to_uniform_float (issue 9): Triton's
uniform floats bit for bit: the Philox lane's bits as int32 x,
(x < 0 ? -x - 1 : x) * 4.6566127342e-10 in float32 (int64 bits:
* 1.0842020432385337e-19), with int32 and int64 seeds and offsets."""
import torch
import triton
import triton.language as tl

BLOCK = 128
TOLERANCE = {"ulp": 0}


@triton.jit
def uniform_ops(seed, u, four, wide, bits64, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.rand(seed, offs)
    tl.static_assert(x.dtype == tl.float32)
    tl.store(u + offs, x)
    a, b, c, d = tl.rand4x(seed, offs + 1000)
    tl.store(four + 0 * BLOCK + offs, a)
    tl.store(four + 1 * BLOCK + offs, b)
    tl.store(four + 2 * BLOCK + offs, c)
    tl.store(four + 3 * BLOCK + offs, d)
    tl.store(wide + offs, tl.rand(seed, offs.to(tl.int64) * 1_000_003_000))
    r = tl.randint(seed, offs).to(tl.uint64) * 0x1_0000_0001
    tl.store(bits64 + offs, tl.uint_to_uniform_float(r))


def run(device):
    out = {}
    for name, seed in (("s1", 1), ("s2024", 2024), ("neg", -123456789), ("big", 1 << 40)):
        res = {"u": torch.zeros(BLOCK, device=device),
               "four": torch.zeros(4 * BLOCK, device=device),
               "wide": torch.zeros(BLOCK, device=device),
               "bits64": torch.zeros(BLOCK, device=device)}
        uniform_ops[(1,)](seed, *res.values(), BLOCK=BLOCK)
        out.update({f"{name}_{k}": v for k, v in res.items()})
    return out
