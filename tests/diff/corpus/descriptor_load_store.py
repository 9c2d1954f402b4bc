"""Tensor descriptors made in the kernel (tl.make_tensor_descriptor):
loads of a block hanging over every edge of a ragged 2-D tensor (negative
offsets too) with padding "zero" and "nan", stores clipped at the far edges, a
rank-4 block permuted and stored through a rank-1 descriptor (test_core's
trans_4d), the functional forms, the descriptor's attributes, a K loop of
dots through descriptors (tutorial 08's TMA kernel in small), and a descriptor
chosen in a runtime if (descriptor_atomic.py has the atomics).
Bases, row strides and last-dim offsets are 16-byte aligned, as TMA
requires (Triton's interpreter asserts it; mytriton's descriptors, plain
bounds-checked loads and stores, do not need it)."""
import torch
import triton
import triton.language as tl


@triton.jit
def window_kernel(x, out, M, N, om, on, BM: tl.constexpr, BN: tl.constexpr):
    zero = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN])
    nan = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN], padding_option="nan")
    o = tl.make_tensor_descriptor(out, [2 * BM, BN], [BN, 1], [BM, BN])
    o.store([0, 0], zero.load([om, on]))
    tl.store_tensor_descriptor(o, [BM, 0], tl.load_tensor_descriptor(nan, [om, on]))


@triton.jit
def clip_kernel(y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # stores start inside the tensor and hang over its far edges: compiled
    # Triton's TMA store stops with an illegal instruction at a negative
    # start (sm_90), so only loads start before the tensor here
    d = tl.make_tensor_descriptor(y, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    rows = tl.arange(0, BM)[:, None] + om
    cols = tl.arange(0, BN)[None, :] + on
    # float values stored to an int32 descriptor: cast as Triton casts
    d.store([om, on], (rows * 1000 + cols).to(tl.float32) + 0.75)


@triton.jit
def trans4d_kernel(x, out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, D: tl.constexpr,
                   P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr, P3: tl.constexpr):
    i = tl.make_tensor_descriptor(x, [A, B, C, D], [B * C * D, C * D, D, 1], [A, B, C, D])
    o = tl.make_tensor_descriptor(out, [A * B * C * D], [1], [A * B * C * D])
    v = i.load([0, 0, 0, 0]).permute((P0, P1, P2, P3))
    o.store([0], v.reshape(o.block_shape))


@triton.jit
def attrs_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN])
    tl.static_assert(d.block_shape[0] == BM)
    tl.static_assert(d.dtype == tl.float16)
    k = tl.arange(0, 4)
    v = tl.where(k == 0, d.shape[0], tl.where(k == 1, d.shape[1],
                 tl.where(k == 2, d.strides[0], d.strides[1])))
    tl.store(out + k, v)


@triton.jit
def gemm_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BK)):
        x = a_desc.load([om, kk * BK])
        y = b_desc.load([on, kk * BK])
        acc += tl.dot(x, y.T)
    c_desc.store([om, on], acc.to(tl.float16))


@triton.jit
def pick_kernel(x, y, out, M, N, which, B: tl.constexpr):
    if which > 0:
        d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [B, B])
    else:
        d = tl.make_tensor_descriptor(y, [M, N], [N, 1], [B, B])
    o = tl.make_tensor_descriptor(out, [B, B], [B, 1], [B, B])
    o.store([0, 0], d.load([1, 4]))


def run(device):
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8,
                                                                 device=device))
    x = (torch.arange(37 * 44, dtype=torch.float32).reshape(37, 44) * 0.5 - 300).to(device)
    windows = []
    for om, on in [(-3, -4), (30, 36), (8, 40), (-20, 0)]:
        w = torch.zeros(32, 16, dtype=torch.float32, device=device)
        window_kernel[(1,)](x, w, 37, 44, om, on, BM=16, BN=16)
        windows.append(w)
    y = torch.full((21, 36), -1, dtype=torch.int32).to(device)
    clip_kernel[(3, 3)](y, 21, 36, BM=8, BN=16)
    outs = {"windows": torch.stack(windows), "clipped": y}
    for dt in [torch.int32, torch.int8]:
        for shape, perm in [((2, 2, 8, 64), (3, 1, 0, 2)), ((4, 4, 4, 16), (2, 0, 3, 1))]:
            n = shape[0] * shape[1] * shape[2] * shape[3]
            t = torch.arange(n).to(dt).reshape(shape).to(device)
            o = torch.zeros(n, dtype=dt, device=device)
            trans4d_kernel[(1,)](t, o, *shape, *perm, num_warps=8)
            outs[f"trans4d_{str(dt)[6:]}_{shape[3]}"] = o
    h = torch.zeros(20, 24, dtype=torch.float16).to(device)
    a = torch.zeros(4, dtype=torch.int64, device=device)
    attrs_kernel[(1,)](h, a, 20, 24, BM=8, BN=8)
    outs["attrs"] = a
    g = torch.Generator().manual_seed(3)
    A = torch.randn(70, 96, generator=g).half().to(device)
    Bm = torch.randn(48, 96, generator=g).half().to(device)
    C = torch.empty(70, 48, dtype=torch.float16, device=device)
    gemm_kernel[(3, 2)](A, Bm, C, 70, 48, 96, BM=32, BN=32, BK=32)
    outs["gemm"] = C
    p = torch.arange(24 * 24, dtype=torch.float32).reshape(24, 24).to(device)
    q = -p
    for which in (1, 0):
        r = torch.zeros(16, 16, dtype=torch.float32, device=device)
        pick_kernel[(1,)](p, q, r, 24, 24, which, B=16)
        outs[f"pick{which}"] = r
    return outs


TOLERANCE_FOR = {"gemm": {"rtol": 1e-2, "atol": 2e-2}}
