"""tl.randint and tl.randint4x (issue 9): Triton's Philox4x32 stream, bit
for bit.  int32 offsets (counter (offset, 0, 0, 0)), int64 offsets past
2**32 (the high word in c1), negative and 64-bit seeds (seed.to(uint64)
sign-extends an int32 seed), a scalar offset tensor, and n_rounds=7.  The
results are uint32 (stored here into int64, which keeps them, and into
int32, which wraps them)."""
import numpy as np
import torch
import triton
import triton.language as tl

BLOCK = 64


@triton.jit
def randint_ops(seed, offs64_ptr, lane0, four, wide, rounds7, scalar, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    r = tl.randint(seed, offs * 3 + 5)
    tl.static_assert(r.dtype == tl.uint32)
    tl.store(lane0 + offs, r)
    a, b, c, d = tl.randint4x(seed, offs)
    tl.store(four + 0 * BLOCK + offs, a)
    tl.store(four + 1 * BLOCK + offs, b)
    tl.store(four + 2 * BLOCK + offs, c)
    tl.store(four + 3 * BLOCK + offs, d)
    o64 = tl.load(offs64_ptr + offs)
    tl.store(wide + offs, tl.randint(seed, o64))
    tl.store(rounds7 + offs, tl.randint(seed, offs, n_rounds=7))
    pid = tl.program_id(0)
    tl.store(scalar, tl.randint(seed, pid + 11))


def run(device):
    out = {}
    offs64 = torch.tensor([(1 << 32) * k + 977 * k - (3 << 40) * (k % 3) for k in range(BLOCK)],
                          dtype=torch.int64)
    for name, seed in (("s0", 0), ("s42", 42), ("neg", -7), ("big", 0x1234_5678_9ABC),
                       ("u32", 0xF00D_BEEF)):
        res = {"lane0": torch.zeros(BLOCK, dtype=torch.int64, device=device),
               "four": torch.zeros(4 * BLOCK, dtype=torch.int64, device=device),
               "wide": torch.zeros(BLOCK, dtype=torch.int32, device=device),
               "rounds7": torch.zeros(BLOCK, dtype=torch.int64, device=device),
               "scalar": torch.zeros(1, dtype=torch.int64, device=device)}
        randint_ops[(1,)](seed, offs64.to(device), *res.values(), BLOCK=BLOCK)
        out.update({f"{name}_{k}": v for k, v in res.items()})
    return out
