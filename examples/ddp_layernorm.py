"""Data-parallel training with mytriton kernels under torch.distributed.

A small model, Linear -> LayerNorm -> ReLU -> Linear, whose forward and
backward passes run mytriton kernels: a fused layer norm (forward, and a
backward in two kernels as in Triton's tutorial 05: dx with per-row
partial dw/db, then a column reduction) and an fp32 matmul through tl.dot,
each wrapped in a torch.autograd.Function.  One process per device trains
it for a few steps under DistributedDataParallel, beside the same model
built from torch's own ops with the same initial weights and the same
data; the example asserts that both give the same losses and weights.

    # one process per GPU, NCCL
    torchrun --standalone --nproc_per_node=<GPUs> examples/ddp_layernorm.py
    # no GPU: gloo, the host backend (CPU tensors), 2 processes started
    # by torch.multiprocessing (Debian's torch 1.13 has a torchrun that
    # fails under Python 3.11); torchrun ... --device cpu works as well
    python3 examples/ddp_layernorm.py --device cpu --spawn 2

Each process launches on its own device (cuda:LOCAL_RANK): mytriton runs
a kernel on its tensor arguments' device and that device's current
stream, so nothing here selects a device for the kernels.
"""
import argparse
import os
import socket

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel as DDP

import mytriton as triton
import mytriton.language as tl

# ------------------------------------------------------------------ kernels


@triton.jit
def matmul_kernel(a, b, c, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """c = a @ b in fp32, any strides (a transposed operand is a view)."""
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k0 in range(0, K, BK):
        kk = k0 + rk
        x = tl.load(a + rm[:, None] * s_am + kk[None, :] * s_ak,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        y = tl.load(b + kk[:, None] * s_bk + rn[None, :] * s_bn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(x, y, input_precision="ieee")
    tl.store(c + rm[:, None] * s_cm + rn[None, :] * s_cn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def layer_norm_fwd(X, Y, W, B, Mean, Rstd, stride, N, eps, BLOCK_N: tl.constexpr):
    """One row per program: y = (x - mean) * rstd * w + b; keeps mean and
    rstd for the backward pass."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0.0)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(m, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(xc * xc, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    w = tl.load(W + cols, mask=m)
    b = tl.load(B + cols, mask=m)
    tl.store(Y + row * stride + cols, xc * rstd * w + b, mask=m)


@triton.jit
def layer_norm_bwd_dx(DX, DY, PDW, PDB, X, W, Mean, Rstd, stride, N, BLOCK_N: tl.constexpr):
    """One row per program: dx, and the row's share of dw (dy * xhat) and
    db (dy), summed over rows by layer_norm_bwd_dwdb."""
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    m = cols < N
    x = tl.load(X + row * stride + cols, mask=m, other=0.0)
    dy = tl.load(DY + row * stride + cols, mask=m, other=0.0)
    w = tl.load(W + cols, mask=m, other=0.0)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(m, (x - mean) * rstd, 0.0)
    wdy = w * dy
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=m)
    tl.store(PDW + row * N + cols, dy * xhat, mask=m)
    tl.store(PDB + row * N + cols, dy, mask=m)


@triton.jit
def layer_norm_bwd_dwdb(PDW, PDB, DW, DB, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    """Column sums of the (M, N) partials: BLOCK_N columns per program."""
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for r0 in range(0, M, BLOCK_M):
        rows = r0 + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(PDW + offs, mask=mask, other=0.0)
        db += tl.load(PDB + offs, mask=mask, other=0.0)
    tl.store(DW + cols, tl.sum(dw, axis=0), mask=cols < N)
    tl.store(DB + cols, tl.sum(db, axis=0), mask=cols < N)


# ------------------------------------------------------- autograd functions


def mm(a, b):
    """a @ b for 2-D fp32 tensors on one device, by matmul_kernel."""
    (M, K), (K2, N) = a.shape, b.shape
    assert K == K2 and a.dtype == b.dtype == torch.float32
    c = torch.empty((M, N), device=a.device, dtype=torch.float32)
    BM, BN, BK = 16, 32, 16
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK)
    return c


class Linear(torch.autograd.Function):
    """y = x @ w.T + b; the matmuls of both passes are mytriton's."""

    @staticmethod
    def forward(ctx, x, w, b):
        ctx.save_for_backward(x, w)
        return mm(x, w.t()) + b

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensors
        dy = dy.contiguous()
        return mm(dy, w), mm(dy.t(), x), dy.sum(0)


class LayerNorm(torch.autograd.Function):
    """Layer norm over the last dimension of a 2-D tensor."""

    @staticmethod
    def forward(ctx, x, w, b, eps):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        mean = torch.empty(M, device=x.device, dtype=torch.float32)
        rstd = torch.empty_like(mean)
        block = triton.next_power_of_2(N)
        layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_N=block)
        ctx.save_for_backward(x, w, mean, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, mean, rstd = ctx.saved_tensors
        dy = dy.contiguous()
        M, N = x.shape
        dx = torch.empty_like(x)
        pdw, pdb = torch.empty_like(x), torch.empty_like(x)
        block = triton.next_power_of_2(N)
        layer_norm_bwd_dx[(M,)](dx, dy, pdw, pdb, x, w, mean, rstd, x.stride(0), N,
                                BLOCK_N=block)
        dw, db = torch.empty_like(w), torch.empty_like(w)
        layer_norm_bwd_dwdb[(triton.cdiv(N, 32),)](pdw, pdb, dw, db, M, N, BLOCK_M=16,
                                                  BLOCK_N=32)
        return dx, dw, db, None


# -------------------------------------------------------------------- model


class Net(torch.nn.Module):
    """Linear -> LayerNorm -> ReLU -> Linear, on mytriton's kernels or on
    torch's own ops (the reference), with the same parameters."""

    def __init__(self, d_in, d_hidden, d_out, use_mytriton):
        super().__init__()
        self.fc1 = torch.nn.Linear(d_in, d_hidden)
        self.norm = torch.nn.LayerNorm(d_hidden)
        self.fc2 = torch.nn.Linear(d_hidden, d_out)
        self.use_mytriton = use_mytriton

    def forward(self, x):
        if self.use_mytriton:
            h = Linear.apply(x, self.fc1.weight, self.fc1.bias)
            h = LayerNorm.apply(h, self.norm.weight, self.norm.bias, self.norm.eps)
            return Linear.apply(F.relu(h), self.fc2.weight, self.fc2.bias)
        h = self.norm(self.fc1(x))
        return self.fc2(F.relu(h))


def batch(step, rank, n, d_in, d_out, device):
    """This rank's share of step's data: a different batch on each rank."""
    g = torch.Generator().manual_seed(1000 * step + rank)
    x = torch.randn(n, d_in, generator=g)
    target = torch.sin(x[:, :d_out] * 2.0) + 0.1 * torch.randn(n, d_out, generator=g)
    return x.to(device), target.to(device)


def train(args):
    rank, world = dist.get_rank(), dist.get_world_size()
    local = int(os.environ.get("LOCAL_RANK", rank))
    device = torch.device("cuda", local) if args.device == "cuda" else torch.device("cpu")
    if device.type == "cuda":
        torch.cuda.set_device(device)
        torch.backends.cuda.matmul.allow_tf32 = False  # the reference in true fp32
    d_in, d_hidden, d_out = 32, 64, 8
    models = []
    for use_mt in (True, False):
        torch.manual_seed(0)  # the same initial weights for both, on every rank
        net = Net(d_in, d_hidden, d_out, use_mt).to(device)
        models.append(DDP(net, device_ids=[local] if device.type == "cuda" else None))
    opts = [torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9) for m in models]
    for step in range(args.steps):
        x, target = batch(step, rank, args.batch, d_in, d_out, device)
        losses = []
        for model, opt in zip(models, opts):
            opt.zero_grad()
            loss = F.mse_loss(model(x), target)
            loss.backward()  # DDP all-reduces the gradients here
            opt.step()
            mean = loss.detach().clone()
            dist.all_reduce(mean)
            losses.append(mean.item() / world)
        if rank == 0:
            print(f"step {step}: loss mytriton {losses[0]:.6f}  torch {losses[1]:.6f}",
                  flush=True)
        assert abs(losses[0] - losses[1]) <= args.tol * max(1.0, abs(losses[1])), \
            f"step {step}: losses differ: mytriton {losses[0]} torch {losses[1]}"
    # the same weights, and DDP kept them equal on every rank
    for (name, p), q in zip(models[0].module.named_parameters(), models[1].module.parameters()):
        torch.testing.assert_close(p, q, rtol=args.tol, atol=args.tol, msg=name)
        copies = [torch.empty_like(p) for _ in range(world)]
        dist.all_gather(copies, p.detach())
        for c in copies:
            torch.testing.assert_close(c, p, rtol=0, atol=0, msg=name)
    if rank == 0:
        print(f"ddp_layernorm: {world} process(es) on {device.type} "
              f"({dist.get_backend()}): losses match torch's over {args.steps} steps")


def run(args):
    if args.device == "cpu":
        torch.set_num_threads(1)  # processes share the cores
    dist.init_process_group("nccl" if args.device == "cuda" else "gloo")
    try:
        train(args)
    finally:
        dist.destroy_process_group()


def spawned(rank, world, port, args):
    """A process started by --spawn: torchrun's environment, by hand."""
    os.environ.update(RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world),
                      MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    run(args)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--device", choices=("cuda", "cpu"),
                    default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--batch", type=int, default=16, help="rows per rank and step")
    ap.add_argument("--tol", type=float, default=1e-4)
    ap.add_argument("--spawn", type=int, metavar="N",
                    help="start N processes here (without torchrun)")
    args = ap.parse_args()
    if not args.spawn:
        run(args)  # one of torchrun's processes
        return
    with socket.socket() as s:  # a free port for the rendezvous
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    torch.multiprocessing.spawn(spawned, args=(args.spawn, port, args), nprocs=args.spawn)


if __name__ == "__main__":
    main()
