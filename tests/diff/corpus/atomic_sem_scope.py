"""sem= and scope= on every atomic: accepted, and the counters come out
the same under each memory order."""
import torch
import triton
import triton.language as tl


@triton.jit
def order_kernel(c, SEM: tl.constexpr, SCOPE: tl.constexpr):
    pid = tl.program_id(0)
    tl.atomic_add(c, 1, sem=SEM, scope=SCOPE)
    tl.atomic_max(c + 1, pid, sem=SEM, scope=SCOPE)
    tl.atomic_min(c + 2, pid, sem=SEM, scope=SCOPE)
    tl.atomic_or(c + 3, 1 << (pid % 31), sem=SEM, scope=SCOPE)
    tl.atomic_xor(c + 4, pid, sem=SEM, scope=SCOPE)
    tl.atomic_and(c + 5, ~(1 << (pid % 31)), sem=SEM, scope=SCOPE)
    tl.atomic_xchg(c + 6, 7, sem=SEM, scope=SCOPE)
    tl.atomic_cas(c + 7, 0, 5, sem=SEM, scope=SCOPE)


def run(device):
    res = {}
    for sem in ["relaxed", "acquire", "release", "acq_rel"]:
        for scope in ["gpu", "cta", "sys"]:
            c = torch.tensor([0, -1, 1000, 0, 0, -1, 0, 0], dtype=torch.int32, device=device)
            order_kernel[(100,)](c, SEM=sem, SCOPE=scope)
            res[sem + "_" + scope] = c
    return res
