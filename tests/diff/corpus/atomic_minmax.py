"""tl.atomic_max / atomic_min on integers and on floats of both signs
(Triton's float max/min through the bits), with masks; the final values
(the old values depend on the order the programs run in)."""
import torch
import triton
import triton.language as tl


@triton.jit
def minmax_kernel(mx, mn, x, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + pid * BLOCK + offs)
    tl.atomic_max(mx + offs, v, mask=offs % 3 != 0)
    tl.atomic_min(mn + offs, v)
    tl.atomic_max(mx + BLOCK + offs, v * 0 + pid.to(v.dtype))


def run(device):
    res = {}
    n, block = 40, 32
    for name, dtype in [("i32", torch.int32), ("i64", torch.int64), ("f32", torch.float32),
                        ("f64", torch.float64)]:
        i = torch.arange(n * block, dtype=torch.int64).reshape(n, block)
        x = ((i * 7919 + 13) % 2001 - 1000).to(dtype) * 3 / 4  # exact, both signs
        x = x.to(dtype).to(device)
        mx = torch.full((2 * block,), -2000, dtype=dtype).to(device)
        mn = torch.full((block,), 2000, dtype=dtype).to(device)
        minmax_kernel[(n,)](mx, mn, x, BLOCK=block)
        res["max_" + name] = mx
        res["min_" + name] = mn
    return res
