"""cache_modifier=, eviction_policy= and volatile= on tl.load and tl.store,
every value Triton accepts, on blocks, scalars and block pointers: hints
never change the values.  (Triton's ptxas refuses .cg and .wt combined
with an eviction policy, so each of those appears alone.)"""
import torch
import triton
import triton.language as tl


@triton.jit
def hints_kernel(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0, cache_modifier=".ca")
    b = tl.load(x + offs, mask=mask, other=0.0, cache_modifier=".cg")
    b += tl.load(x + offs, mask=mask, other=0.0, eviction_policy="evict_first")
    c = tl.load(x + offs, mask=mask, other=0.0, cache_modifier=".cv",
                eviction_policy="evict_last")
    d = tl.load(x + offs, mask=mask, other=0.0, volatile=True)
    tl.store(out + offs, a, mask=mask, cache_modifier=".wb")
    tl.store(out + n + offs, b * 2, mask=mask, cache_modifier=".cg")
    tl.store(out + 2 * n + offs, c * 3, mask=mask, cache_modifier=".cs")
    tl.store(out + 3 * n + offs, d * 4, mask=mask, cache_modifier=".wt")
    s = tl.load(x + n - 1, cache_modifier=".cg", volatile=False)
    tl.store(out + 4 * n, s, eviction_policy="evict_first")
    p = tl.make_block_ptr(x, (n,), (1,), (0,), (BLOCK,), (0,))
    q = tl.make_block_ptr(out + 4 * n + 1, (n,), (1,), (0,), (BLOCK,), (0,))
    v = tl.load(p, boundary_check=(0,), padding_option="zero", eviction_policy="evict_last")
    tl.store(q, v + 1, boundary_check=(0,), cache_modifier=".cs")


def run(device):
    x = torch.linspace(-3, 3, 100, dtype=torch.float32).to(device)
    out = torch.zeros(5 * 100 + 1, dtype=torch.float32, device=device)
    hints_kernel[(1,)](x, out, 100, BLOCK=128)
    return {"out": out}
