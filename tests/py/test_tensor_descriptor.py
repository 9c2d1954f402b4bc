"""Tensor descriptors made in the kernel (issue 9): tl.make_tensor_descriptor
and desc.load / desc.store / desc.atomic_* / desc.gather / desc.scatter,
their functional forms and attributes, as Triton 3.6 defines them.  Every
kernel runs against a torch model: out-of-bounds elements read the
padding (zero or NaN) and are never written, on every dim.  Ranks 3 and 4
go through the [rows, last dim] view of the block (block pointers too).
Located errors carry Triton's messages for what Triton refuses."""
import itertools
import math

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import assert_compile_error


def window_model(x, om, on, bm, bn, pad):
    m, n = x.shape
    out = torch.full((bm, bn), float("nan") if pad == "nan" else 0.0, dtype=x.dtype)
    for i in range(bm):
        for j in range(bn):
            if 0 <= om + i < m and 0 <= on + j < n:
                out[i, j] = x[om + i, on + j]
    return out


@triton.jit
def window_kernel(x, out, M, N, om, on, BM: tl.constexpr, BN: tl.constexpr,
                  PAD: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN], padding_option=PAD)
    o = tl.make_tensor_descriptor(out, [BM, BN], [BN, 1], [BM, BN])
    o.store([0, 0], d.load([om, on]))


@pytest.mark.parametrize("pad", ["zero", "nan"])
@pytest.mark.parametrize("om,on", [(-3, -5), (30, 40), (8, 41), (-20, 0), (5, 7)])
def test_load_pads_every_edge(device, pad, om, on):
    x = (torch.arange(37 * 45, dtype=torch.float32).reshape(37, 45) - 500).to(device)
    out = torch.full((16, 8), -1.0, device=device)
    window_kernel[(1,)](x, out, 37, 45, om, on, BM=16, BN=8, PAD=pad)
    torch.testing.assert_close(out.cpu(), window_model(x.cpu(), om, on, 16, 8, pad),
                               equal_nan=True, rtol=0, atol=0)


@triton.jit
def abs_kernel(p, M, N, MB: tl.constexpr, NB: tl.constexpr):
    desc = tl.make_tensor_descriptor(p, shape=[M, N], strides=[N, 1], block_shape=[MB, NB])
    mo = tl.program_id(0) * MB
    no = tl.program_id(1) * NB
    desc.store([mo, no], tl.abs(desc.load([mo, no])))


def test_docstring_example_in_place(device):
    """make_tensor_descriptor's own example, on a ragged tensor: stores
    past the edges are dropped."""
    x = torch.randn(37, 45).to(device)
    y = x.clone()
    abs_kernel[(3, 2)](y, 37, 45, 16, 32)
    assert torch.equal(y.cpu(), x.abs().cpu())


@triton.jit
def clip_kernel(y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(y, [M, N], [N, 1], [BM, BN])
    om = tl.program_id(0) * BM - 3
    on = tl.program_id(1) * BN - 5
    v = (tl.arange(0, BM)[:, None] + om) * 1000 + tl.arange(0, BN)[None, :] + on
    tl.store_tensor_descriptor(d, [om, on], v.to(tl.float32) - 0.75)


def test_store_casts_and_clips(device):
    y = torch.full((21, 36), -1, dtype=torch.int32).to(device)
    clip_kernel[(3, 3)](y, 21, 36, BM=8, BN=16)
    want = torch.full((21, 36), -1, dtype=torch.int32)
    for pm in range(3):
        for pn in range(3):
            for i in range(8):
                for j in range(16):
                    r, c = pm * 8 - 3 + i, pn * 16 - 5 + j
                    if 0 <= r < 21 and 0 <= c < 36:
                        want[r, c] = int(r * 1000 + c - 0.75)  # fp -> int truncates
    assert torch.equal(y.cpu(), want)


@triton.jit
def trans4d_kernel(In, Out, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr,
                   D: tl.constexpr, P0: tl.constexpr, P1: tl.constexpr, P2: tl.constexpr,
                   P3: tl.constexpr):
    i = tl.make_tensor_descriptor(In, [A, B, C, D], [B * C * D, C * D, D, 1], [A, B, C, D])
    o = tl.make_tensor_descriptor(Out, [A * B * C * D], [1], [A * B * C * D])
    v = tl.load_tensor_descriptor(i, [0, 0, 0, 0]).permute((P0, P1, P2, P3))
    o.store([0], v.reshape(o.block_shape))


PERMS = list(itertools.permutations(range(4)))


@pytest.mark.parametrize("dtype", [torch.int32, torch.int8])
@pytest.mark.parametrize("shape", [(2, 2, 8, 64), (4, 4, 4, 16)])
@pytest.mark.parametrize("perm", PERMS[::5])
def test_rank4_block_permuted(device, dtype, shape, perm):
    """test_core's test_trans_4d: a rank-4 load through its [rows, last]
    view, reshaped, permuted and stored flat."""
    x = torch.arange(math.prod(shape), dtype=dtype).reshape(shape).to(device)
    out = torch.zeros(math.prod(shape), dtype=dtype, device=device)
    trans4d_kernel[(1,)](x, out, *shape, *perm, num_warps=8)
    assert torch.equal(out.cpu(), x.cpu().permute(perm).reshape(-1))


@triton.jit
def window3d_kernel(x, out, A, B, C, oa, ob, oc, BA: tl.constexpr, BB: tl.constexpr,
                    BC: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [A, B, C], [B * C, C, 1], [BA, BB, BC])
    o = tl.make_tensor_descriptor(out, [BA, BB, BC], [BB * BC, BC, 1], [BA, BB, BC])
    o.store([0, 0, 0], d.load([oa, ob, oc]))


def test_rank3_window_and_store(device):
    x = (torch.arange(5 * 6 * 20, dtype=torch.float32).reshape(5, 6, 20) + 0.5).to(device)
    out = torch.full((4, 8, 16), -1.0, device=device)
    window3d_kernel[(1,)](x, out, 5, 6, 20, 3, -2, 8, BA=4, BB=8, BC=16)
    want = torch.zeros(4, 8, 16)
    xc = x.cpu()
    for a in range(4):
        for b in range(8):
            for c in range(16):
                i, j, k = 3 + a, -2 + b, 8 + c
                if 0 <= i < 5 and 0 <= j < 6 and 0 <= k < 20:
                    want[a, b, c] = xc[i, j, k]
    assert torch.equal(out.cpu(), want)


@triton.jit
def blockptr3d_kernel(x, out, A, B, C, oa, BA: tl.constexpr, BB: tl.constexpr,
                      BC: tl.constexpr):
    p = tl.make_block_ptr(x, (A, B, C), (B * C, C, 1), (oa, 0, 0), (BA, BB, BC), (2, 1, 0))
    q = tl.make_block_ptr(out, (BA, BB, BC), (BB * BC, BC, 1), (0, 0, 0), (BA, BB, BC),
                          (2, 1, 0))
    tl.store(q, tl.load(p, boundary_check=(0, 2), padding_option="zero"))


def test_rank3_block_pointer(device):
    """Block pointers share the [rows, last] view: rank 3 loads and
    stores, boundary checks on some dims."""
    x = (torch.arange(5 * 4 * 12, dtype=torch.float32).reshape(5, 4, 12) - 7).to(device)
    out = torch.full((4, 4, 16), -1.0, device=device)
    blockptr3d_kernel[(1,)](x, out, 5, 4, 12, 2, BA=4, BB=4, BC=16)
    want = torch.zeros(4, 4, 16)
    want[:3, :, :12] = x.cpu()[2:5]
    assert torch.equal(out.cpu(), want)


@triton.jit
def gemm_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1], block_shape=[BM, BK])
    b_desc = tl.make_tensor_descriptor(b, shape=[N, K], strides=[K, 1], block_shape=[BN, BK])
    c_desc = tl.make_tensor_descriptor(c, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    om = tl.program_id(0) * BM
    on = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a_desc.load([om, kk * BK]), b_desc.load([on, kk * BK]).T)
    c_desc.store([om, on], acc.to(tl.float16))


def test_gemm_through_descriptors(device):
    """Tutorial 08's TMA kernel in small: ragged M, N and K, the K tail
    zero-padded by the descriptor."""
    g = torch.Generator().manual_seed(0)
    a = torch.randn(70, 90, generator=g).half().to(device)
    b = torch.randn(50, 90, generator=g).half().to(device)
    c = torch.empty(70, 50, dtype=torch.float16, device=device)
    gemm_kernel[(3, 2)](a, b, c, 70, 50, 90, 32, 32, 32)
    torch.testing.assert_close(c.float().cpu(), a.float().cpu() @ b.float().cpu().T,
                               rtol=1e-2, atol=2e-2)


@triton.jit
def load_at(desc, r, c):
    return desc.load([r, c])


@triton.jit
def flow_kernel(x, y, out, M, N, which, steps, B: tl.constexpr):
    if which > 0:
        d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [B, B])
    else:
        d = tl.make_tensor_descriptor(y, [M, N], [N, 1], [B, B])
    acc = tl.zeros((B, B), dtype=tl.float32)
    e = d
    for i in range(steps):
        acc += load_at(e, i, 0)
        e = tl.make_tensor_descriptor(x if i % 2 == 0 else y, [M, N], [N, 1], [B, B])
    o = tl.make_tensor_descriptor(out, [B, B], [B, 1], [B, B])
    o.store([0, 0], acc)


def test_descriptors_through_ifs_loops_and_calls(device):
    x = torch.arange(24 * 24, dtype=torch.float32).reshape(24, 24).to(device)
    y = -x
    for which in (1, 0):
        out = torch.zeros(16, 16, device=device)
        flow_kernel[(1,)](x, y, out, 24, 24, which, 3, B=16)
        first = x if which else y
        want = torch.zeros(16, 16)
        for i, src in enumerate([first, x, y]):
            want += window_model(src.cpu(), i, 0, 16, 16, "zero")
        assert torch.equal(out.cpu(), want), which


@triton.jit
def attrs_kernel(x, out, M, N, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [BM, BN])
    tl.static_assert(d.block_shape[0] == BM)
    tl.static_assert(d.block_shape[1] == BN)
    tl.static_assert(d.dtype == tl.float16)
    tl.static_assert(d.shape[0].dtype == tl.int32)
    tl.static_assert(d.strides[0].dtype == tl.int64)
    k = tl.arange(0, 4)
    v = tl.where(k == 0, d.shape[0], tl.where(k == 1, d.shape[1],
                 tl.where(k == 2, d.strides[0], d.strides[1])))
    tl.store(out + k, v)


def test_attributes(device):
    x = torch.zeros(20, 24, dtype=torch.float16).to(device)
    out = torch.zeros(4, dtype=torch.int64, device=device)
    attrs_kernel[(1,)](x, out, 20, 24, BM=8, BN=8)
    assert out.cpu().tolist() == [20, 24, 24, 1]


@triton.jit
def atomic_kernel(p, vals, M, N, r0, c0, B: tl.constexpr, OP: tl.constexpr):
    d = tl.make_tensor_descriptor(p, [M, N], [N, 1], [B, B])
    v = tl.load(vals + tl.arange(0, B)[:, None] * B + tl.arange(0, B)[None, :])
    pid = tl.program_id(0)
    if OP == "add":
        d.atomic_add([r0 + pid * 4, c0], v)
    elif OP == "max":
        d.atomic_max([r0, c0], v - pid * 7)
    elif OP == "min":
        d.atomic_min([r0, c0], v - pid * 7)
    elif OP == "and":
        d.atomic_and([r0, c0], v + pid)
    elif OP == "or":
        d.atomic_or([r0, c0], v << pid)
    else:
        d.atomic_xor([r0, c0], v * (pid + 1))


ATOMIC_MODELS = {
    "add": lambda old, v, pid: old + v, "max": lambda old, v, pid: max(old, v - pid * 7),
    "min": lambda old, v, pid: min(old, v - pid * 7), "and": lambda old, v, pid: old & (v + pid),
    "or": lambda old, v, pid: old | (v << pid), "xor": lambda old, v, pid: old ^ (v * (pid + 1)),
}


@pytest.mark.parametrize("op", sorted(ATOMIC_MODELS))
def test_atomics_skip_out_of_bounds(device, op):
    start = 0x5A5A if op == "and" else 0
    p = torch.full((20, 16), start, dtype=torch.int32).to(device)
    vals = torch.arange(64, dtype=torch.int32).reshape(8, 8).to(device)
    r0, c0 = (-2, 11)
    atomic_kernel[(3,)](p, vals, 20, 16, r0, c0, B=8, OP=op)
    want = torch.full((20, 16), start, dtype=torch.int32)
    for pid in range(3):
        for i in range(8):
            for j in range(8):
                r = r0 + (pid * 4 if op == "add" else 0) + i
                c = c0 + j
                if 0 <= r < 20 and 0 <= c < 16:
                    want[r, c] = ATOMIC_MODELS[op](int(want[r, c]), int(vals[i, j]), pid)
    assert torch.equal(p.cpu(), want)


@triton.jit
def gather_kernel(x, idx, out, M, N, y0, R: tl.constexpr, C: tl.constexpr):
    d = tl.make_tensor_descriptor(x, [M, N], [N, 1], [1, C], padding_option="nan")
    rows = tl.load(idx + tl.arange(0, R))
    g = d.gather(rows, y0)
    tl.store(out + tl.arange(0, R)[:, None] * C + tl.arange(0, C)[None, :], g)
    d.scatter(g * 2, rows, y0)


def test_gather_and_scatter(device):
    x = (torch.arange(12 * 20, dtype=torch.float32).reshape(12, 20) + 0.5).to(device)
    idx = torch.tensor([0, 3, 11, 12, -1, 5, 7, 2], dtype=torch.int32).to(device)
    out = torch.zeros(8, 8, device=device)
    before = x.cpu().clone()
    gather_kernel[(1,)](x, idx, out, 12, 20, 15, R=8, C=8)
    want = torch.full((8, 8), float("nan"))
    after = before.clone()
    for i, r in enumerate(idx.tolist()):
        for j in range(8):
            c = 15 + j
            if 0 <= r < 12 and c < 20:
                want[i, j] = before[r, c]
                after[r, c] = 2 * before[r, c]
    torch.testing.assert_close(out.cpu(), want, equal_nan=True, rtol=0, atol=0)
    assert torch.equal(x.cpu(), after)


# ------------------------------------------------------------- errors

@triton.jit
def err_kernel(x, h, n, WHICH: tl.constexpr):
    if WHICH == 0:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [1, 2])
    elif WHICH == 1:
        d = tl.make_tensor_descriptor(h, [n, n], [n, 1], [8, 4])
    elif WHICH == 2:
        d = tl.make_tensor_descriptor(x, [n, n], [1, n], [8, 8])
    elif WHICH == 3:
        d = tl.make_tensor_descriptor(x, [n, n], [n, n], [8, 8])
    elif WHICH == 4:
        d = tl.make_tensor_descriptor(x, [n, n, n, n, n, n], [1, 1, 1, 1, 1, 1], [4] * 6)
    elif WHICH == 5:
        d = tl.make_tensor_descriptor(x, [n, n], [n], [8, 8])
    elif WHICH == 6:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8, 8])
    elif WHICH == 7:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 12])
    elif WHICH == 8:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8], padding_option="nan")
    elif WHICH == 9:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8], padding_option="inf")
    elif WHICH == 10:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8])
        d.load([0])
    elif WHICH == 11:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8])
        d.store([0, 0], tl.zeros([8, 4], dtype=tl.int32))
    elif WHICH == 12:
        d = tl.make_tensor_descriptor(h, [n, n], [n, 1], [8, 8])
        d.atomic_and([0, 0], tl.zeros([8, 8], dtype=tl.int16))
    elif WHICH == 13:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8])
        d.gather(tl.arange(0, 8), 0)
    elif WHICH == 14:
        d = tl.make_tensor_descriptor(x + tl.arange(0, 4), [n], [1], [8])
    elif WHICH == 15:
        d = tl.make_tensor_descriptor(x, [n, n], [n, 1], [8, 8])
        tl.load(d)
    elif WHICH == 16:
        d = tl.make_tensor_descriptor(x, [n, n, n, n, n], [1, 1, 1, 1, 1], [4] * 5)


DESC_ERRORS = [
    (0, "[1, 2])", r"at least 16 bytes in the last dimension, but got 2 \* 4 = 8 bytes"),
    (1, "[8, 4])", r"but got 4 \* 2 = 8 bytes"),
    (2, "[1, n], [8, 8])", "last dim must be 1 but got a runtime"),
    (3, "[n, n], [8, 8])", "last dim must be 1 but got"),
    (4, "[n, n, n, n, n, n]", "Expected 1 <= ndim <= 5 but got 6 dimensions"),
    (5, "[n], [8, 8])", "Expected 2 strides but got 1"),
    (6, "[8, 8, 8])", "Expected block_shape to have 2 dimensions but got 3"),
    (7, "[8, 12])", "Shape element 1 must be a power of 2"),
    (8, 'padding_option="nan")', "Padding option `nan` is not supported for integer blocks"),
    (9, 'padding_option="inf")', "Padding option inf not supported"),
    (10, "[0])", "expected 2 offsets, but got 1"),
    (11, "tl.zeros([8, 4], dtype=tl.int32))", r"value must be a block of the descriptor's shape"),
    (12, "d.atomic_and", "does not support int16 descriptors"),
    (13, "d.gather", "descriptor block must have 1 row"),
    (14, "x + tl.arange(0, 4), [n]", "base must be a scalar pointer"),
    (15, "tl.load(d)", "expects a pointer, got tensor descriptor"),
    (16, "[n, n, n, n, n]", "descriptors of 5 dims are not supported"),
]


@pytest.mark.parametrize("which,needle,pattern", DESC_ERRORS)
def test_located_errors(which, needle, pattern):
    x = torch.zeros(64, dtype=torch.int32)
    h = torch.zeros(64, dtype=torch.int16)
    assert_compile_error(err_kernel, (x, h, 8), {"WHICH": which}, needle=needle, pattern=pattern)


def test_error_cause_carries_tritons_message():
    """test_core reads CompilationError.__cause__ for the message."""
    x = torch.zeros(64, dtype=torch.int32)
    with pytest.raises(triton.CompilationError) as e:
        err_kernel.compile(x, torch.zeros(64, dtype=torch.int16), 8, WHICH=0, stages_only=True)
    assert "Descriptor block shape must have at least 16 bytes" in str(e.value.__cause__)
    assert "error:" not in str(e.value.__cause__)


# ------------------------------------------------- descriptors from the host

from mytriton.tools.tensor_descriptor import TensorDescriptor  # noqa: E402


@triton.jit
def host_copy_kernel(src, dst, BM: tl.constexpr, BN: tl.constexpr):
    om = tl.program_id(0) * BM - 8
    on = tl.program_id(1) * BN - 8
    dst.store([om, on], src.load([om, on]))


@triton.jit
def host_window_kernel(src, dst, om, on):
    dst.store([0, 0], src.load([om, on]))


@pytest.mark.parametrize("pad", ["zero", "nan"])
def test_host_descriptor_pads_and_clips(device, pad):
    x = (torch.arange(37 * 44, dtype=torch.float32).reshape(37, 44) - 100).to(device)
    y = torch.full((37, 44), -1.0, device=device)
    src = TensorDescriptor(x, x.shape, x.stride(), [16, 16], pad)
    host_copy_kernel[(4, 4)](src, TensorDescriptor.from_tensor(y, [16, 16]), BM=16, BN=16)
    assert torch.equal(y.cpu(), x.cpu())  # every in-bounds element once, no more
    for om, on in [(-8, -12), (30, 40)]:
        edge = torch.full((16, 16), -1.0, device=device)
        host_window_kernel[(1,)](src, TensorDescriptor.from_tensor(edge, [16, 16]), om, on)
        torch.testing.assert_close(edge.cpu(), window_model(x.cpu(), om, on, 16, 16, pad),
                                   equal_nan=True, rtol=0, atol=0)


def test_host_descriptor_signature_and_key(device):
    """Triton's type spelling, NaN padding on top; one compile per block
    shape and padding, none for another tensor of the same kind."""
    @triton.jit
    def key_kernel(src, dst, BM: tl.constexpr, BN: tl.constexpr):
        dst.store([0, 0], src.load([0, 0]))

    x = torch.zeros(32, 32, device=device)
    y = torch.zeros(32, 32, device=device)
    key_kernel[(1,)](TensorDescriptor.from_tensor(x, [16, 16]),
                     TensorDescriptor.from_tensor(y, [16, 16]), BM=16, BN=16)
    first = key_kernel.last_compiled
    assert first.signature == "tensordesc<fp32[16, 16]>, tensordesc<fp32[16, 16]>, 16, 16"
    z = torch.zeros(48, 64, device=device)
    key_kernel[(1,)](TensorDescriptor.from_tensor(z, [16, 16]),
                     TensorDescriptor.from_tensor(y, [16, 16]), BM=16, BN=16)
    assert key_kernel.last_compiled is first
    key_kernel[(1,)](TensorDescriptor(x, x.shape, x.stride(), [16, 16], "nan"),
                     TensorDescriptor.from_tensor(y, [16, 16]), BM=16, BN=16)
    assert key_kernel.last_compiled.signature.startswith("tensordesc<fp32[16, 16],nan>,")
    key_kernel[(1,)](TensorDescriptor.from_tensor(x, [8, 32]),
                     TensorDescriptor.from_tensor(y, [8, 32]), BM=8, BN=32)
    assert key_kernel.last_compiled.signature.startswith("tensordesc<fp32[8, 32]>,")


@triton.jit
def host_cube_kernel(src, dst):
    dst.store([0, 0, 0], src.load([1, 0, 4]))


def test_host_descriptor_rank3_and_views(device):
    c = torch.arange(5 * 6 * 20, dtype=torch.int32).reshape(5, 6, 20).to(device)
    out = torch.full((4, 8, 16), -1, dtype=torch.int32, device=device)
    host_cube_kernel[(1,)](TensorDescriptor.from_tensor(c, [4, 8, 16]),
                           TensorDescriptor.from_tensor(out, [4, 8, 16]))
    want = torch.zeros(4, 8, 16, dtype=torch.int32)
    want[:4, :6, :16] = c.cpu()[1:5, :, 4:20]
    assert torch.equal(out.cpu(), want)


@triton.jit
def host_meta_kernel(d, out):
    k = tl.arange(0, 4)
    v = tl.where(k == 0, d.shape[0], tl.where(k == 1, d.shape[1],
                 tl.where(k == 2, d.strides[0], d.strides[1])))
    tl.store(out + k, v)


def test_host_descriptor_attributes(device):
    wide = torch.zeros(40, 64, dtype=torch.float16, device=device)
    view = wide[3:30, 8:40]
    out = torch.zeros(4, dtype=torch.int64, device=device)
    host_meta_kernel[(1,)](TensorDescriptor(view, list(view.shape), list(view.stride()), [8, 8]),
                           out)
    assert out.cpu().tolist() == [27, 32, 64, 1]


def test_host_descriptor_errors():
    x = torch.zeros(32, 32)
    y = torch.zeros(32, 32)
    good = TensorDescriptor.from_tensor(y, [16, 16])
    with pytest.raises(AssertionError, match="base must be 16-byte aligned"):
        TensorDescriptor.from_tensor(x.view(-1)[1:].view(31, 33)[:, :32], [16, 16])
    with pytest.raises(ValueError, match="Shape element 1 must be a power of 2"):
        TensorDescriptor.from_tensor(x, [16, 12])
    with pytest.raises(AssertionError, match="Last dimension must be contiguous"):
        TensorDescriptor(x, [32, 32], [16, 2], [16, 16])
    # fields reassigned after the checks: the launch checks what it relies on
    d = TensorDescriptor.from_tensor(x, [16, 16])
    d.base = x.view(-1)[1:]
    with pytest.raises(ValueError, match="16-byte aligned"):
        host_copy_kernel[(1, 1)](d, good, BM=16, BN=16)
    d = TensorDescriptor.from_tensor(x, [16, 16])
    d.strides = [1, 32]
    with pytest.raises(ValueError, match="last stride must be 1"):
        host_copy_kernel[(1, 1)](d, good, BM=16, BN=16)
    d = TensorDescriptor.from_tensor(x, [16, 16])
    d.shape = [32, 2**31]
    with pytest.raises(ValueError, match="must fit int32"):
        host_copy_kernel[(1, 1)](d, good, BM=16, BN=16)
    d = TensorDescriptor.from_tensor(x, [16, 16])
    d.base = x.numpy()
    with pytest.raises(TypeError, match="base must be a torch tensor"):
        host_copy_kernel[(1, 1)](d, good, BM=16, BN=16)
    # Triton's 16-byte rule for the block's last dim, at compile time
    with pytest.raises(triton.CompilationError, match="at least 16 bytes in the last dimension"):
        host_copy_kernel[(1, 1)](TensorDescriptor.from_tensor(x, [16, 2]), good, BM=16, BN=16)


class _NoRepr(torch.Tensor):
    def __repr__(self):
        raise AssertionError("the tensor was formatted")


def test_host_descriptor_does_not_format_its_tensor():
    """Tutorial 06 makes four descriptors per call: a check message that
    formatted the tensor (a device-to-host copy on a GPU) made each call
    cost milliseconds.  It is formatted only for an error."""
    x = torch.zeros(64, 64).as_subclass(_NoRepr)
    TensorDescriptor(x, [64, 64], [64, 1], [16, 16])
    TensorDescriptor.from_tensor(x, [16, 16])
