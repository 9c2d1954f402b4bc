"""tl.atomic_add: a counter hammered by many programs (each takes one
ticket), block adds of integers and of floats whose running sums are
exact (so the order of the programs does not matter), masks."""
import torch
import triton
import triton.language as tl


@triton.jit
def ticket_kernel(counter, tickets):
    pid = tl.program_id(0)
    tl.store(tickets + pid, tl.atomic_add(counter, 1))


@triton.jit
def block_add_kernel(out, x, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.atomic_add(out + offs, tl.load(x + offs), mask=offs < n)


def run(device):
    n = 1000
    counter = torch.zeros(1, dtype=torch.int32, device=device)
    tickets = torch.full((n,), -1, dtype=torch.int32, device=device)
    ticket_kernel[(n,)](counter, tickets)
    res = {"counter": counter, "tickets_sorted": tickets.sort().values}
    for name, dtype in [("i32", torch.int32), ("i64", torch.int64), ("f32", torch.float32),
                        ("f64", torch.float64), ("f16", torch.float16)]:
        x = (torch.arange(64) % 9 - 4).to(dtype).to(device)
        out = torch.full((64,), 3, dtype=dtype, device=device)
        block_add_kernel[(50,)](out, x, 60, BLOCK=64)
        res["add_" + name] = out
    return res
