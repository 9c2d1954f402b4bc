"""tl.atomic_and / atomic_or / atomic_xor on int32 and int64 (order
independent), each returning old values."""
import torch
import triton
import triton.language as tl


@triton.jit
def bitwise_kernel(a, o, x, v, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    val = tl.load(v + pid * BLOCK + offs)
    tl.atomic_and(a + offs, val)
    tl.atomic_or(o + offs, val)
    tl.atomic_xor(x + offs, val)


def run(device):
    res = {}
    n, block = 30, 64
    for name, dtype in [("i32", torch.int32), ("i64", torch.int64)]:
        i = torch.arange(n * block, dtype=torch.int64).reshape(n, block)
        v = ((i * 2654435761 + 12345) % (1 << 30)).to(dtype)  # torch's RNG differs by version
        v[:, 0] = -1
        v = v.to(device)
        a = torch.full((block,), -1, dtype=dtype, device=device)
        o = torch.zeros(block, dtype=dtype, device=device)
        x = torch.full((block,), 12345, dtype=dtype, device=device)
        bitwise_kernel[(n,)](a, o, x, v, BLOCK=block)
        res.update({"and_" + name: a, "or_" + name: o, "xor_" + name: x})
    return res
