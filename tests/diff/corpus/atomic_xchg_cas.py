"""tl.atomic_xchg and tl.atomic_cas: exchanges form one chain (the old
values with the final value are every program's value once), one program
wins a compare-and-swap, block compare-and-swap on every width."""
import torch
import triton
import triton.language as tl


@triton.jit
def xchg_kernel(out, olds, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    old = tl.atomic_xchg(out + offs, offs * 0 + pid + 1)
    tl.store(olds + pid * BLOCK + offs, old)


@triton.jit
def winner_kernel(flag, got):
    pid = tl.program_id(0)
    tl.store(got + pid, tl.atomic_cas(flag, 0, pid + 1))


@triton.jit
def cas_block_kernel(p, cmp, val, old, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(old + offs, tl.atomic_cas(p + offs, tl.load(cmp + offs), tl.load(val + offs)))


def run(device):
    n, block = 64, 16
    out = torch.zeros(block, dtype=torch.int32, device=device)
    olds = torch.zeros(n, block, dtype=torch.int32, device=device)
    xchg_kernel[(n,)](out, olds, BLOCK=block)
    chain = torch.cat([olds, out[None, :]]).sort(dim=0).values
    flag = torch.zeros(1, dtype=torch.int32, device=device)
    got = torch.full((200,), -1, dtype=torch.int32, device=device)
    winner_kernel[(200,)](flag, got)
    res = {"xchg_chain": chain,
           "cas_winners": (got == 0).sum().reshape(1),
           "cas_losers_saw_winner": ((got == 0) | (got == flag)).all().reshape(1)}
    for name, dtype in [("i16", torch.int16), ("f16", torch.float16), ("i32", torch.int32),
                        ("f32", torch.float32), ("i64", torch.int64), ("f64", torch.float64)]:
        p = torch.arange(8).to(dtype).to(device)
        cmp = torch.tensor([0, 9, 2, 9, 4, 9, 6, 9]).to(dtype).to(device)
        val = torch.full((8,), 42).to(dtype).to(device)
        old = torch.zeros(8, dtype=dtype, device=device)
        cas_block_kernel[(1,)](p, cmp, val, old, BLOCK=8)
        res["cas_" + name] = p
        res["cas_old_" + name] = old
    return res
