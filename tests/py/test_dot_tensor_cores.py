"""tl.dot on tensor-core tiles (issue 10): f16, bf16 and fp32 operands as
Triton's input precisions (tf32, tf32x3, ieee), on square and ragged
shapes (masks on M, N and K), with transposed operands given by strides.

On the host backend the same tiles run through FMAs (the #else branch of
the generated CUDA C): f16/bf16 products are exact in f32, "tf32" rounds
each operand to TF32 first exactly as cvt.rna.tf32.f32 does, "tf32x3" and
"ieee" multiply the f32 values.  So the host result equals a float64
product of the (rounded) operands up to f32 accumulation, which is what
these tests check; the GPU run of bench/matmul_tc.py checks mma.sync
against torch and Triton."""
import os

import pytest
import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import ssa_opt


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PREC: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak,
                    mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn,
                    mask=((k + rk)[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, input_precision=PREC)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(c_ptr.dtype.element_ty),
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def tf32(x):
    """cvt.rna.tf32.f32 on a float32 tensor: ties away from zero."""
    u = x.view(torch.int32)
    r = (u + 0x1000) & ~0x1fff
    return torch.where((u & 0x7f800000) == 0x7f800000, u, r).view(torch.float32)


def run(device, dt, prec, M, N, K, cfg, ta=False, tb=False, with_kernel=False):
    BM, BN, BK, W = cfg
    torch.manual_seed(M + 3 * N + 7 * K)
    a = torch.randn((K, M) if ta else (M, K)).to(dt)
    b = torch.randn((N, K) if tb else (K, N)).to(dt)
    a, b = (a.t() if ta else a), (b.t() if tb else b)
    c = torch.full((M, N), float("nan"), dtype=dt)
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    k = matmul_kernel[grid](ad, bd, cd, M, N, K, ad.stride(0), ad.stride(1), bd.stride(0),
                            bd.stride(1), cd.stride(0), cd.stride(1), BM=BM, BN=BN, BK=BK,
                            PREC=prec, num_warps=W)
    return (a, b, cd.cpu(), k) if with_kernel else (a, b, cd.cpu())


CASES = [(torch.float16, "tf32"), (torch.bfloat16, "tf32"), (torch.float32, "tf32"),
         (torch.float32, "tf32x3"), (torch.float32, "ieee")]


@pytest.mark.parametrize("dt,prec", CASES, ids=lambda v: str(v).replace("torch.", ""))
@pytest.mark.parametrize("shape,cfg", [((64, 64, 64), (64, 64, 32, 4)),
                                       ((40, 24, 40), (32, 32, 16, 1)),
                                       ((48, 80, 48), (32, 16, 16, 2)),
                                       # more warps than the tile's n8 groups:
                                       # the extra warps compute copies
                                       ((16, 16, 32), (16, 16, 16, 4)),
                                       ((32, 32, 64), (32, 32, 32, 16))])
def test_matmul_matches_float64(device, monkeypatch, dt, prec, shape, cfg):
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_80")
    a, b, c, k = run(device, dt, prec, *shape, cfg, with_kernel=True)
    if prec != "ieee" or dt != torch.float32:  # a tensor-core unit, copies or not
        assert "mma-" in k.asm["ssa-layout"].split("dots:")[1]
    if dt == torch.float32 and prec == "tf32":
        a, b = tf32(a), tf32(b)
    ref = a.double() @ b.double()
    want = ref.to(dt).double() if dt != torch.float32 else ref
    # f16/bf16: the result is rounded once to the output type
    tol = {torch.float16: 2e-3, torch.bfloat16: 1e-2, torch.float32: 1e-5}[dt]
    assert (c.double() - want).abs().max().item() <= tol * ref.abs().max().item()


@pytest.mark.parametrize("ta,tb", [(True, False), (False, True), (True, True)])
def test_transposed_operands_through_strides(device, ta, tb):
    a, b, c = run(device, torch.float16, "tf32", 48, 40, 64, (32, 32, 32, 4), ta, tb)
    ref = a.double() @ b.double()
    assert (c.double() - ref.half().double()).abs().max().item() <= 2e-3 * ref.abs().max().item()


def test_tf32_is_the_rounding_of_the_operands(device):
    """"tf32" differs from "ieee" by exactly the operands' rounding: the
    host result matches the product of the TF32-rounded operands to f32
    accumulation, and is measurably apart from the f32 product."""
    a, b, c = run(device, torch.float32, "tf32", 64, 64, 64, (64, 64, 32, 4))
    exact = a.double() @ b.double()
    rounded = tf32(a).double() @ tf32(b).double()
    scale = exact.abs().max().item()
    assert (c.double() - rounded).abs().max().item() <= 1e-5 * scale
    assert (c.double() - exact).abs().max().item() >= 1e-4 * scale


def test_tensor_core_tiles_in_the_plan():
    """The f16 dot gets the mma accumulator layout and its CUDA C both the
    mma.sync steps and the FMA form of the same tiles for other targets."""
    x = torch.zeros((64, 64), dtype=torch.float16)
    k = matmul_kernel.warmup(x, x, x, 64, 64, 64, 64, 1, 64, 1, 64, 1, BM=64, BN=64, BK=32,
                             PREC="tf32", num_warps=4, grid=(1, 1))
    assert " mma shape=[64, 64] spt=[1, 2] tpw=[8, 4] wpc=[2, 2]" in k.asm["ssa-layout"]
    assert "pipelined loop" in k.asm["ssa-layout"] and "mma-f16" in k.asm["ssa-layout"]
    cuda = k.asm["cuda"]
    assert "mt_ldsm4(" in cuda and "mt_mma_f16(" in cuda and "#else" in cuda
    y = torch.zeros((64, 64), dtype=torch.float32)
    k = matmul_kernel.warmup(y, y, y, 64, 64, 64, 64, 1, 64, 1, 64, 1, BM=64, BN=64, BK=32,
                             PREC="ieee", num_warps=4, grid=(1, 1))
    assert "mt_mma" not in k.asm["cuda"] and "mma-" not in k.asm["ssa-layout"]


@triton.jit
def tutorial_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                           BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                           FIRST: tl.constexpr):
    """Tutorial 03's loop: step 1, pointers carried and advanced, masks
    from the index; FIRST > 0 starts at a later tile (skipping its start)."""
    offs_am = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
    offs_bn = (tl.program_id(1) * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * sam + (offs_k[None, :] + FIRST * BK) * sak
    b_ptrs = b_ptr + (offs_k[:, None] + FIRST * BK) * sbk + offs_bn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(FIRST, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    offs_cm = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_cn = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + scm * offs_cm[:, None] + scn * offs_cn[None, :], acc.to(tl.float16),
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@pytest.mark.parametrize("first", [0, 1])
def test_tutorial_loop_is_pipelined(device, first):
    """The loop with carried pointers is software pipelined (the prefetch of
    tile t + 1 reads the pointers advanced for t + 1) and gives the product
    of the tiles it visits."""
    M, N, K, BK = 48, 40, 72, 16
    torch.manual_seed(5)
    a = torch.randn(M, K).half()
    b = torch.randn(K, N).half()
    c = torch.full((M, N), float("nan")).half()
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    k = tutorial_matmul_kernel[(2, 2)](ad, bd, cd, M, N, K, K, 1, N, 1, N, 1, BM=32, BN=32,
                                        BK=BK, FIRST=first, num_warps=4)
    ref = a[:, first * BK:].double() @ b[first * BK:, :].double()
    got = cd.cpu().double()
    assert (got - ref.half().double()).abs().max().item() <= 2e-3 * ref.abs().max().item()
    plan = tutorial_matmul_kernel.warmup(ad, bd, cd, M, N, K, K, 1, N, 1, N, 1, BM=32, BN=32,
                                         BK=BK, FIRST=first, num_warps=4, grid=(2, 2))
    assert "pipelined loop" in plan.asm["ssa-layout"] and "mma-f16" in plan.asm["ssa-layout"]


@pytest.mark.parametrize("dt,cfg", [(torch.float16, (128, 128, 64, 4)),
                                    (torch.float32, (64, 64, 128, 4))])
def test_tiles_past_the_static_budget(device, dt, cfg):
    """Tiles over 48 KiB (71680 bytes for f16 128 x 128 x 64 in two stages,
    135168 for the f32 case) live in one dynamic shared array: the kernel
    compiles, reports its shared size and computes the product."""
    a, b, c = run(device, dt, "ieee" if dt == torch.float32 else "tf32", 136, 72, 200, cfg)
    ref = a.double() @ b.double()
    tol = 2e-3 if dt == torch.float16 else 1e-5
    assert (c.double() - ref.to(dt).double()).abs().max().item() <= tol * ref.abs().max().item()
    x = torch.zeros((8, 8), dtype=dt)
    k = matmul_kernel.warmup(x, x, x, 8, 8, 8, 8, 1, 8, 1, 8, 1, BM=cfg[0], BN=cfg[1],
                             BK=cfg[2], PREC="ieee", num_warps=cfg[3], grid=(1, 1))
    assert k.metadata.shared > 49152
    assert "extern __shared__ __align__(16) long long mt_dynamic_smem[];" in k.asm["cuda"]


@pytest.mark.parametrize("stages", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("K,first", [(0, 0), (32, 0), (40, 0), (72, 1), (200, 0)])
def test_num_stages_pipelines(device, stages, K, first):
    """Triton's num_stages: S shared stages, S - 1 tiles in flight (cp.async
    groups on the GPU), the carried pointers running S - 2 tiles ahead.
    Every trip count from none to many gives the product of the tiles the
    loop visits; fewer than two stages means the double buffer."""
    M, N, BK = 48, 40, 32
    torch.manual_seed(K + stages)
    a = torch.randn(M, max(K, 1)).half()
    b = torch.randn(max(K, 1), N).half()
    c = torch.full((M, N), float("nan")).half()
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    args = (ad, bd, cd, M, N, K, a.stride(0), 1, N, 1, N, 1)
    tutorial_matmul_kernel[(2, 2)](*args, BM=32, BN=32, BK=BK, FIRST=first, num_warps=4,
                                   num_stages=stages)
    ref = a[:, first * BK:K].double() @ b[first * BK:K, :].double()
    got = cd.cpu().double()
    assert (got - ref.half().double()).abs().max().item() <= 2e-3 * max(ref.abs().max().item(), 1)
    k = tutorial_matmul_kernel.warmup(*args, BM=32, BN=32, BK=BK, FIRST=first, num_warps=4,
                                      num_stages=stages, grid=(2, 2))
    s = max(stages, 2)
    assert f"stages {s}" in k.asm["ssa-layout"]
    if K:  # rows 16-byte aligned: the tiles travel by cp.async
        assert f"mt_cp_async_wait_group({s - 2});" in k.asm["cuda"]


@triton.jit
def counted_matmul_kernel(a_ptr, b_ptr, c_ptr, n_ptr, K, BM: tl.constexpr, BK: tl.constexpr):
    """A carried counter read after the loop: the pipeline may not run it
    ahead, so it keeps the double buffer."""
    r = tl.arange(0, BM)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BM), dtype=tl.float32)
    n = 0
    for k in range(0, K, BK):
        a = tl.load(a_ptr + r[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BM + r[None, :])
        acc += tl.dot(a, b)
        n += 1
    tl.store(c_ptr + r[:, None] * BM + r[None, :], acc)
    tl.store(n_ptr, n)


def test_values_read_after_the_loop_keep_two_stages(device):
    BM, BK, K = 32, 16, 64
    torch.manual_seed(3)
    a = torch.randn(BM, K).half()
    b = torch.randn(K, BM).half()
    c = torch.zeros(BM, BM).to(device)
    n = torch.zeros(1, dtype=torch.int32).to(device)
    k = counted_matmul_kernel[(1,)](a.to(device), b.to(device), c, n, K, BM=BM, BK=BK,
                                    num_stages=4)
    assert n.cpu().item() == K // BK
    ref = a.double() @ b.double()
    assert (c.cpu().double() - ref).abs().max().item() <= 1e-3 * ref.abs().max().item()
    assert "stages 2" in k.asm["ssa-layout"] and "stages 4" not in k.asm["ssa-layout"]


def test_stages_give_way_to_the_shared_memory_limit():
    """128 x 256 x 64 f16 tiles take 52224 bytes a stage: num_stages=8 would
    need 417792, so the planner keeps the 4 that fit in 227 KiB."""
    x = torch.zeros((8, 8), dtype=torch.float16)
    k = tutorial_matmul_kernel.warmup(x, x, x, 8, 8, 8, 8, 1, 8, 1, 8, 1, BM=128, BN=256, BK=64,
                                      FIRST=0, num_warps=8, num_stages=8, grid=(1, 1))
    assert "stages 4" in k.asm["ssa-layout"]
    assert 4 * 52224 <= k.metadata.shared <= 232448


def test_epilogue_scratch_over_the_dead_tiles(device, monkeypatch):
    """The accumulator's conversion after the K loop (to a layout of 16-byte
    stores, as Triton's epilogue) lies over the loop's dead tiles: 128 x 256
    x 64 f16 in 4 stages takes its 196608 bytes of tiles and no more, and
    the product is right on ragged M, N and K (every program converts)."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    M, N, K = 136, 264, 200
    torch.manual_seed(5)
    a = torch.randn(M, K).half()
    b = torch.randn(K, N).half()
    c = torch.full((M, N), float("nan")).half()
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    args = (ad, bd, cd, M, N, K, K, 1, N, 1, N, 1)
    cfg = dict(BM=128, BN=256, BK=64, FIRST=0, num_warps=8, num_stages=4)
    tutorial_matmul_kernel[(2, 2)](*args, **cfg)
    ref = a.double() @ b.double()
    assert (cd.cpu().double() - ref).abs().max().item() <= 2e-3 * ref.abs().max().item()
    k = tutorial_matmul_kernel.warmup(*args, **cfg, grid=(2, 2))
    layout = k.asm["ssa-layout"]
    assert "mt_smem +0: convert_layout [128 x 256] f16" in layout
    assert "(over the dead dot tiles)" in layout and "stages 4" in layout
    assert k.metadata.shared == 4 * (128 * 64 + 64 * 256) * 2
    assert "scratch over them */" in k.asm["cuda"]


@triton.jit
def ieee_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sbk, scm,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    """Tutorial 03's loop in fp32 "ieee": a CUDA-core dot, pipelined."""
    offs_am = (tl.program_id(0) * BM + tl.arange(0, BM)) % M
    offs_bn = (tl.program_id(1) * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_am[:, None] * sam + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_bn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
        a_ptrs += BK
        b_ptrs += BK * sbk
    offs_cm = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_cn = tl.program_id(1) * BN + tl.arange(0, BN)
    tl.store(c_ptr + scm * offs_cm[:, None] + offs_cn[None, :], acc,
             mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))


@pytest.mark.parametrize("K", [288, 64, 150], ids=["K288", "K64", "K150"])
@pytest.mark.parametrize("cfg", [(64, 64, 32, 4, 2), (64, 64, 32, 4, 4), (64, 64, 16, 4, 5)],
                         ids=["s2", "s4", "s5"])
def test_fma_pipeline_stages(device, monkeypatch, K, cfg):
    """A CUDA-core dot's pipelined loop at 2, 4 and 5 stages: with 3 or more
    its dot runs before the prefetch (as Triton orders them), and when K is
    a multiple of 16 (every mask one value a 16-byte group) the prefetch is
    predicated past the last tile, not branched around (zero-filled copies
    into a stage no one reads, drained after the loop).  Fewer tiles than
    stages (K32) and a ragged last tile (K150, the branch) too."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    BM, BN, BK, W, S = cfg
    M, N = 2 * BM + 8, 2 * BN
    torch.manual_seed(K + S)
    a = torch.randn(M, K)
    b = torch.randn(K, N)
    c = torch.full((M, N), float("nan"))
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    args = (ad, bd, cd, M, N, K, K, N, N)
    ieee_matmul_kernel[grid](*args, BM=BM, BN=BN, BK=BK, num_warps=W, num_stages=S)
    ref = a.double() @ b.double()
    assert (cd.cpu().double() - ref).abs().max().item() <= 1e-4 * ref.abs().max().item()
    src = ieee_matmul_kernel.warmup(*args, BM=BM, BN=BN, BK=BK, num_warps=W, num_stages=S,
                                    grid=grid).asm["cuda"]
    assert f"const bool mt_more = mt_t + {S - 1}u < mt_trips;" in src
    guarded = K % 16 == 0
    assert ("mt_more && v" in src) == guarded
    assert ("if (mt_more) {" in src) == (not guarded)
    if S >= 3:
        assert src.index("for (int dot_k") < src.index("mt_cp_async16(&dot_lhs[mt_s], "
                                                       "mt_sa_lhs + (unsigned)mt_s * 4u, mt_n")


def test_num_stages_is_checked():
    x = torch.zeros((8, 8), dtype=torch.float16)
    with pytest.raises(ValueError, match="num_stages must be a non-negative integer"):
        tutorial_matmul_kernel.warmup(x, x, x, 8, 8, 8, 8, 1, 8, 1, 8, 1, BM=16, BN=16, BK=16,
                                      FIRST=0, num_stages=-1, grid=(1, 1))


WGMMA_CASES = [((128, 128, 64), (64, 64, 32, 4, 3)), ((200, 136, 72), (128, 128, 64, 4, 3)),
               ((130, 200, 100), (128, 128, 32, 8, 2)), ((64, 256, 48), (64, 256, 16, 4, 4))]


@pytest.mark.parametrize("dt", [torch.float16, torch.bfloat16], ids=["f16", "bf16"])
@pytest.mark.parametrize("shape,cfg", WGMMA_CASES)
def test_wgmma_tiles(device, monkeypatch, dt, shape, cfg):
    """sm_90's wgmma tiles: A and B swizzled as the instruction reads them
    (32-, 64- and 128-byte atoms), A's rows permuted for the warpgroups'
    m64 blocks, one and two warpgroups, ragged M, N and K.  On the host
    the CUDA C an sm_90 gets (MYTRITON_HOST_ARCH) runs its FMA form over
    the same addresses; on an H200 the wgmma instructions."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    M, N, K = shape
    BM, BN, BK, W, S = cfg
    torch.manual_seed(M + N + K)
    a = torch.randn(M, K).to(dt)
    b = torch.randn(K, N).to(dt)
    c = torch.full((M, N), float("nan")).to(dt)
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    args = (ad, bd, cd, M, N, K, K, 1, N, 1, N, 1)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    tutorial_matmul_kernel[grid](*args, BM=BM, BN=BN, BK=BK, FIRST=0, num_warps=W,
                                 num_stages=S)
    ref = a.double() @ b.double()
    tol = 2e-3 if dt == torch.float16 else 1.6e-2
    assert (cd.cpu().double() - ref).abs().max().item() <= tol * ref.abs().max().item()
    k = tutorial_matmul_kernel.warmup(*args, BM=BM, BN=BN, BK=BK, FIRST=0, num_warps=W,
                                      num_stages=S, grid=grid)
    if device == "cpu" or torch.cuda.get_device_capability(device) == (9, 0):
        unit = "wgmma-f16" if dt == torch.float16 else "wgmma-bf16"
        assert unit in k.asm["ssa-layout"] and "wgmma.mma_async" in k.asm["cuda"]
        assert f" mma shape=[{BM}, {BN}] spt=[1, 2] tpw=[8, 4] wpc=[{W}, 1]" in k.asm["ssa-layout"]


def test_wgmma_needs_sm_90(monkeypatch):
    """Elsewhere the same tiles take mma.sync (sm_80 has no wgmma; nor has
    Blackwell), and shapes wgmma cannot take (BN not a multiple of 64)
    keep mma.sync on sm_90 too."""
    x = torch.zeros((8, 8), dtype=torch.float16)
    args = (x, x, x, 8, 8, 8, 8, 1, 8, 1, 8, 1)
    for arch, bn, want in (("sm_80", 64, "mma-f16"), ("sm_100", 64, "mma-f16"),
                           ("sm_90", 32, "mma-f16"), ("sm_90", 64, "wgmma-f16")):
        monkeypatch.setenv("MYTRITON_HOST_ARCH", arch)
        k = tutorial_matmul_kernel.warmup(*args, BM=64, BN=bn, BK=32, FIRST=0, num_warps=4,
                                          grid=(1, 1))
        layout = k.asm["ssa-layout"]
        assert want in layout and (want == "wgmma-f16" or "wgmma" not in layout), (arch, bn)


def _ptxas():
    import shutil
    for p in (os.environ.get("PTXAS"), shutil.which("ptxas"), "/usr/local/cuda/bin/ptxas"):
        if p and os.path.exists(p):
            return p
    return None


@pytest.mark.parametrize("dt", ["fp16", "bf16"])
def test_wgmma_group_stays_in_flight(tmp_path, dt):
    """The pipelined loop keeps one wgmma group in flight (wait_group 1,
    the last one retired after the loop), and ptxas keeps the wgmmas
    asynchronous: no C7514 serialisation, which a 16-bit cvt of the
    accumulator in the f16 epilogue used to cause (the cast now converts
    pairs)."""
    src, fn = tutorial_matmul_kernel._source()
    sig = f"*{dt}:16,*{dt}:16,*{dt}:16,i32:16,i32:16,i32:16,i32:16,i32:1,i32:16,i32:1," \
          "i32:16,i32:1,128,128,64,0"
    from mytriton import _C
    k = _C.compile(src, fn, "tutorial_matmul_kernel", sig, tutorial_matmul_kernel._globals(),
                   8, "cuda", True, arch="sm_90")
    cuda = k.stage("cuda")
    loop = cuda[cuda.index("for (unsigned mt_t"):]
    assert "mt_wgmma_wait1();" in loop and "mt_wgmma_wait0();" in loop
    assert loop.index("mt_wgmma_wait1();") < loop.index("mt_wgmma_wait0();")
    assert "mt_f32x2_to_f16x2(" in cuda  # the kernel stores acc.to(tl.float16)
    # the K mask is constant per 8 elements (K is a multiple of 16) and
    # other is 0: one zero-filling cp.async per group, no fallback branch
    copies = [ln for ln in loop.splitlines() if "mt_cp_async16(" in ln]
    assert len(copies) == 2 and all(not ln.rstrip().endswith(", 1);") for ln in copies)
    ptxas = _ptxas()
    if ptxas is None:
        return  # the text checks above stand; the cubin check needs ptxas
    try:
        ptx = k.stage("ptx")
    except Exception as err:  # no NVRTC on this machine
        assert "nvrtc" in str(err).lower() and "failed to compile" not in str(err), err
        return
    (tmp_path / "k.ptx").write_text(ptx)
    import subprocess
    out = subprocess.run([ptxas, "-arch=sm_90a", str(tmp_path / "k.ptx"), "-o",
                          str(tmp_path / "k.cubin")], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "C7514" not in out.stderr + out.stdout


@triton.jit
def shared_index_dot_kernel(X, Y, Z, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    m = tl.arange(0, BM)
    n = tl.arange(0, BN)
    k = tl.arange(0, BK)
    z = tl.dot(tl.load(X + m[:, None] * BK + k[None, :]), tl.load(Y + k[:, None] * BN + n[None, :]))
    tl.store(Z + m[:, None] * BN + n[None, :], z)


@pytest.mark.parametrize("cfg", [(64, 64, 128), (32, 32, 64)])
def test_index_vectors_shared_by_two_shapes_keep_tensor_cores(device, monkeypatch, cfg):
    """m[:, None] reaches both the [BM, BK] load's pointers and the [BM, BN]
    store's: the layout groups stay apart (one [128, 128] group would fit
    no dot tile), so the dot keeps its tensor-core tile; values as torch's."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    BM, BN, BK = cfg
    torch.manual_seed(BM + BK)
    x = torch.randn(BM, BK).to(torch.bfloat16)
    y = torch.randn(BK, BN).to(torch.bfloat16)
    z = torch.full((BM, BN), float("nan"))
    xd, yd, zd = x.to(device), y.to(device), z.to(device)
    shared_index_dot_kernel[(1,)](xd, yd, zd, BM=BM, BN=BN, BK=BK, num_warps=4)
    ref = x.double() @ y.double()
    assert (zd.cpu().double() - ref).abs().max().item() <= 1e-3 * ref.abs().max().item()
    k = shared_index_dot_kernel.warmup(xd, yd, zd, BM=BM, BN=BN, BK=BK, num_warps=4, grid=(1,))
    if device == "cpu" or torch.cuda.get_device_capability(device) == (9, 0):
        unit = "wgmma-bf16" if BM % 64 == 0 else "mma-bf16"
        assert unit in k.asm["ssa-layout"]


@triton.jit
def f32_dot_kernel(a, b, out, N: tl.constexpr, ALLOW: tl.constexpr):
    i = tl.arange(0, N)
    offs = i[:, None] * N + i[None, :]
    if ALLOW is None:
        z = tl.dot(tl.load(a + offs), tl.load(b + offs))
    else:
        z = tl.dot(tl.load(a + offs), tl.load(b + offs), allow_tf32=ALLOW)
    tl.store(out + offs, z)


@pytest.mark.parametrize("setting, allow, want", [
    (None, None, "tf32"), (None, False, "ieee"), ("ieee", None, "ieee"),
    ("tf32x3", None, "tf32x3"), ("tf32", False, "tf32")])
def test_fp32_default_knob(monkeypatch, setting, allow, want):
    """Triton's TRITON_F32_DEFAULT / knobs.language.fp32_default: the
    precision of an fp32 dot that names none, before allow_tf32 (Triton's
    `fp32_default or ...`); part of the specialisation."""
    from mytriton import knobs
    monkeypatch.delenv("TRITON_F32_DEFAULT", raising=False)
    if setting is not None:
        knobs.language.fp32_default = setting
    assert os.environ.get("TRITON_F32_DEFAULT") == setting
    torch.manual_seed(3)
    a, b = torch.randn(16, 16), torch.randn(16, 16)
    out = torch.full((16, 16), float("nan"))
    k = f32_dot_kernel[(1,)](a, b, out, N=16, ALLOW=allow)
    assert f"{{input_precision={want}}}" in k.asm["ssa"] or f"precision={want}" in k.asm["ssa"], \
        k.asm["ssa"]
    ref = a.double() @ b.double()
    tol = 1e-5 if want != "tf32" else 2e-2
    assert (out.double() - ref).abs().max().item() <= tol * ref.abs().max().item()


def test_fp32_default_is_checked(monkeypatch):
    monkeypatch.setenv("TRITON_F32_DEFAULT", "fp16")
    x = torch.zeros(16, 16)
    with pytest.raises(Exception, match="fp32_default must be one of 'tf32', 'tf32x3', "
                                        "'ieee', 'bf16x3', 'bf16x6', got 'fp16'"):
        f32_dot_kernel[(1,)](x, x, x, N=16, ALLOW=None)


@triton.jit
def bf16xn_kernel(a_ptr, b_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                  PREC: tl.constexpr):
    m = tl.arange(0, M)
    n = tl.arange(0, N)
    k = tl.arange(0, K)
    a = tl.load(a_ptr + m[:, None] * K + k[None, :])
    b = tl.load(b_ptr + k[:, None] * N + n[None, :])
    tl.store(out_ptr + m[:, None] * N + n[None, :], tl.dot(a, b, input_precision=PREC))


def _bf16_parts(x, n):
    parts = []
    for i in range(n):
        p = x.to(torch.bfloat16)
        parts.append(p.double())
        x = x - p.float()
    return parts


@pytest.mark.parametrize("prec,n,pairs", [
    ("bf16x3", 2, [(1, 0), (0, 1), (0, 0)]),
    ("bf16x6", 3, [(1, 1), (2, 0), (0, 2), (1, 0), (0, 1), (0, 0)]),
    ("BF16x6", 3, [(1, 1), (2, 0), (0, 2), (1, 0), (0, 1), (0, 0)])])
def test_bf16xn_is_tritons_decomposition(device, prec, n, pairs):
    # Triton's F32DotTC: the f32 operands split into bf16 parts; the dot is
    # the sum of the listed part products (exact in f64 here), so it is
    # within f32 rounding of that sum, and bf16x6 within 1e-6 of the f32 dot
    M, N, K = 32, 32, 32
    torch.manual_seed(7)
    a, b = torch.randn(M, K), torch.randn(K, N)
    pa, pb = _bf16_parts(a, n), _bf16_parts(b, n)
    want = sum(pa[i] @ pb[j] for i, j in pairs)
    out = torch.empty(M, N, device=device)
    bf16xn_kernel[(1,)](a.to(device), b.to(device), out, M, N, K, prec)
    got = out.double().cpu()
    scale = (a.double().abs() @ b.double().abs())
    assert ((got - want).abs() <= 4e-6 * scale).all()
    if n == 3:
        assert ((got - a.double() @ b.double()).abs() <= 2e-6 * scale).all()


def test_bf16x3_text():
    x = torch.zeros(4)
    ssa = ssa_opt(bf16xn_kernel, x, x, x, 32, 32, 32, "bf16x3")
    # three bf16 dots (mid*hi, hi*mid, hi*hi) and the NaN guard between
    assert ssa.count("= dot ") == 3
    assert "select" in ssa and "cmp_ne" in ssa
    assert "input_precision=bf16" not in ssa


@triton.jit
def f16_acc_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                   BK: tl.constexpr, LOOP: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    if LOOP:  # the accumulator carried in f16 through a K loop
        acc = tl.zeros((BM, BN), dtype=tl.float16)
        for k in range(0, K, BK):
            a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
            b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
            acc = tl.dot(a, b, acc, out_dtype=tl.float16)
    else:
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
        b = tl.load(b_ptr + rk[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, out_dtype=tl.float16)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@pytest.mark.parametrize("loop", [False, True], ids=["one-dot", "k-loop"])
@pytest.mark.parametrize("cfg", [(64, 64, 64, 4), (128, 128, 32, 8), (32, 32, 32, 4)])
def test_f16_accumulator(device, monkeypatch, loop, cfg):
    """out_dtype=float16 of f16 operands accumulates in f16, as Triton's
    mma.sync .f16.f16.f16.f16 does (never wgmma): the dot's result and
    accumulator are f16 blocks.  The host adds each dot in f32 and rounds
    into the f16 accumulator once; the GPU rounds once per instruction; both
    stay within f16 accumulation's error of the float64 product."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    BM, BN, BK, W = cfg
    K = 2 * BK if loop else BK
    torch.manual_seed(BM + BK)
    a = torch.randn(BM, K).to(torch.float16)
    b = torch.randn(K, BN).to(torch.float16)
    c = torch.full((BM, BN), float("nan"), dtype=torch.float16)
    ad, bd, cd = a.to(device), b.to(device), c.to(device)
    k = f16_acc_kernel[(1,)](ad, bd, cd, K, BM=BM, BN=BN, BK=BK, LOOP=loop, num_warps=W)
    ref = a.double() @ b.double()
    err = (cd.cpu().double() - ref).abs().max().item()
    assert err <= 4e-3 * ref.abs().max().item(), err
    assert "mma-f16" in k.asm["ssa-layout"] and "wgmma" not in k.asm["ssa-layout"]
    assert "mt_mma_f16_f16acc(" in k.asm["cuda"]
    assert f"block<{BM}x{BN} x f16>" in [ln for ln in k.asm["ssa"].splitlines()
                                         if " = dot " in ln][0]


@triton.jit
def int8_dot_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                    BK: tl.constexpr, ACC: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.int32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        if ACC:
            acc = tl.dot(a, b, acc)
        else:
            acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@pytest.mark.parametrize("cfg", [(64, 64, 64, 4, 128, True), (32, 64, 32, 4, 96, False),
                                 (128, 128, 32, 8, 64, True), (16, 8, 32, 1, 32, False),
                                 (64, 32, 64, 2, 64, True)])
def test_int8_tensor_cores(device, monkeypatch, cfg):
    """int8 operands on tensor cores (mma.sync m16n8k32 .satfinite.s32,
    as Triton's): A's tile as loaded, B's transposed ([BN][BK]) so that
    ldmatrix gives each lane four k values of one column.  The host runs
    the same tiles through integer FMAs (B read transposed too); the sums
    are exact, so the result equals an int64 product."""
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    BM, BN, BK, W, K, acc_arg = cfg
    g = torch.Generator().manual_seed(BM + K)
    a = torch.randint(-128, 128, (BM, K), generator=g, dtype=torch.int8)
    b = torch.randint(-128, 128, (K, BN), generator=g, dtype=torch.int8)
    c = torch.zeros(BM, BN, dtype=torch.int32, device=device)
    k = int8_dot_kernel[(1,)](a.to(device), b.to(device), c, K, BM=BM, BN=BN, BK=BK,
                              ACC=acc_arg, num_warps=W)
    assert torch.equal(c.cpu(), (a.long() @ b.long()).int())
    assert "mma-s8" in k.asm["ssa-layout"] and "mt_mma_s8(" in k.asm["cuda"]


def cpu_backend():
    """Whether CPU tensors launch on the cpu backend (conftest.py: unless
    MYTRITON_BACKEND names the fiber backend)."""
    return os.environ.get("MYTRITON_BACKEND") not in ("fiber", "host")


def fp8_bits(fmt, shape, gen):
    """Random finite fp8 codes of magnitude 2^-3 .. 2^2 (so that K-long
    sums stay far inside f16) as uint8, and their values as float64."""
    import numpy as np
    mb, bias = (3, 7) if fmt == "e4m3" else (2, 15)
    e = gen.integers(bias - 3, bias + 2, size=shape)
    m = gen.integers(0, 1 << mb, size=shape)
    s = gen.integers(0, 2, size=shape)
    bits = (s << 7 | e << mb | m).astype(np.uint8)
    vals = np.where(s == 1, -1.0, 1.0) * (1 + m / (1 << mb)) * 2.0 ** (e - bias)
    return torch.from_numpy(bits), torch.from_numpy(vals)


FP8_TL = {"e4m3": tl.float8e4nv, "e5m2": tl.float8e5}


@pytest.mark.parametrize("fa,fb", [("e4m3", "e4m3"), ("e5m2", "e4m3")])
@pytest.mark.parametrize("shape,cfg,kmajor", [((128, 128, 128), (64, 64, 64, 4, 3), True),
                                              ((200, 136, 96), (128, 128, 32, 8, 3), True),
                                              ((64, 72, 64), (64, 16, 128, 4, 2), True),
                                              ((128, 64, 64), (64, 64, 32, 4, 2), False)])
def test_fp8_wgmma(device, monkeypatch, fa, fb, shape, cfg, kmajor):
    """fp8 operands stay fp8 for Hopper's wgmma (k32, both tiles K-major,
    e4m3 and e5m2 mixed as the instruction allows): A's tile as loaded,
    B's transposed ([BN][BK]).  Tutorial 03's K-major B (b given as b.T)
    is loaded by rows of the transposed block (memorder.c) straight into
    that tile by cp.async; an N-major B is written transposed from
    registers.  On the host the same tiles run through FMAs; products of
    fp8 values are exact in f32, so the f16 result is the float64 product
    rounded."""
    import numpy as np
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    M, N, K = shape
    BM, BN, BK, W, S = cfg
    gen = np.random.default_rng(M + N + K)
    a, av = fp8_bits(fa, (M, K), gen)
    b, bv = fp8_bits(fb, (N, K) if kmajor else (K, N), gen)
    if kmajor:
        b, bv = b.t(), bv.t()
    c = torch.full((M, N), float("nan"), dtype=torch.float16, device=device)
    ad = triton.reinterpret(a.to(device), FP8_TL[fa])
    bd = triton.reinterpret(b.to(device), FP8_TL[fb])
    args = (ad, bd, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), N, 1)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    tutorial_matmul_kernel[grid](*args, BM=BM, BN=BN, BK=BK, FIRST=0, num_warps=W,
                                 num_stages=S)
    ref = av @ bv
    assert (c.cpu().double() - ref).abs().max().item() <= 1e-3 * ref.abs().max().item()
    k = tutorial_matmul_kernel.warmup(*args, BM=BM, BN=BN, BK=BK, FIRST=0, num_warps=W,
                                      num_stages=S, grid=grid)
    if device == "cpu" and cpu_backend():
        return  # the cpu backend widens fp8 to f16 (its own loops)
    if device == "cpu" or torch.cuda.get_device_capability(device) == (9, 0):
        want = f"k32.f32.{fa}.{fb}"
        assert "wgmma-f8" in k.asm["ssa-layout"] and want in k.asm["cuda"]
        assert ("mt_cp_async16(&dot_rhs_q" in k.asm["cuda"]) == kmajor


def test_fp8_dot_widens_without_wgmma(monkeypatch):
    """Where wgmma cannot take the fp8 tiles (sm_80, or a tile it does not
    fit) the operands are widened to f16, exactly, for mma.sync; the cpu
    backend widens them everywhere (its CUDA stages come from that IR)."""
    x = torch.zeros((64, 64), dtype=torch.uint8)
    f8 = triton.reinterpret(x, tl.float8e4nv)
    h = torch.zeros((64, 64), dtype=torch.float16)
    args = (f8, f8, h, 64, 64, 64, 64, 1, 64, 1, 64, 1)
    for arch, warps, want in (("sm_80", 4, "mma-f16"), ("sm_90", 2, "mma-f16"),
                              ("sm_90", 4, "wgmma-f8")):
        monkeypatch.setenv("MYTRITON_HOST_ARCH", arch)
        k = tutorial_matmul_kernel.warmup(*args, BM=64, BN=64, BK=32, FIRST=0,
                                          num_warps=warps, grid=(1, 1))
        if cpu_backend():
            want = "mma-f16"
        layout = k.asm["ssa-layout"]
        assert want in layout.split("dots:")[1], (arch, warps)


@triton.jit
def imprecise_acc_kernel(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr,
                         BK: tl.constexpr, LPA: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * K + rk[None, :]
    b_ptrs = b_ptr + rk[:, None] * BN + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BK), num_stages=3):
        acc = tl.dot(tl.load(a_ptrs), tl.load(b_ptrs), acc=acc, max_num_imprecise_acc=LPA)
        a_ptrs += BK
        b_ptrs += BK * BN
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


@pytest.mark.parametrize("lpa", [None, 0, 32, 64])
def test_fp8_max_num_imprecise_acc(device, monkeypatch, lpa):
    """max_num_imprecise_acc on fp8 wgmma, as Triton lowers it on sm_90:
    each lpa elements of K (at least one k32 step) summed apart from zero
    and then added into the f32 accumulator, nE add.f32 per partial sum in
    the PTX (Triton's test_dot_max_num_imprecise_acc counts them); None
    keeps the whole tile in wgmma's accumulator.  On the host the FMA form
    sums exactly, so the result is the float64 product up to f32 rounding."""
    import numpy as np
    if device == "cpu":
        monkeypatch.setenv("MYTRITON_HOST_ARCH", "sm_90")
    BM, BN, BK, K = 128, 64, 64, 128
    gen = np.random.default_rng(5)
    a, av = fp8_bits("e4m3", (BM, K), gen)
    b, bv = fp8_bits("e4m3", (K, BN), gen)
    c = torch.zeros((BM, BN), dtype=torch.float32, device=device)
    ad = triton.reinterpret(a.to(device), tl.float8e4nv)
    bd = triton.reinterpret(b.to(device), tl.float8e4nv)
    k = imprecise_acc_kernel[(1,)](ad, bd, c, K, BM=BM, BN=BN, BK=BK, LPA=lpa, num_warps=8)
    ref = av @ bv
    # the tensor cores' fp8 accumulation is not f32's (4.8e-4 of the
    # largest value measured on an H100; Triton's own test allows 1e-2)
    tol = 1e-5 if device == "cpu" else 2e-3
    assert (c.cpu().double() - ref).abs().max().item() <= tol * ref.abs().max().item()
    if device == "cpu" and cpu_backend():
        return
    cuda = k.asm["cuda"]
    assert ("mt_pacc" in cuda) == (lpa is not None)
    if lpa is not None:
        chunk = max(32, lpa)
        assert f"for (int mt_c = 0; mt_c < {BK}; mt_c += {chunk}) {{" in cuda
        assert "mt_wgmma_wait1();" not in cuda  # each partial sum waits for its wgmmas


def test_fp8_max_num_imprecise_acc_is_checked():
    x = triton.reinterpret(torch.zeros((128, 64), dtype=torch.uint8), tl.float8e4nv)
    c = torch.zeros((128, 64))
    with pytest.raises(triton.CompilationError, match=r"max_num_imprecise_acc \(128\) must be "
                                                      r"<= K \(64\)"):
        imprecise_acc_kernel.warmup(x, x, c, 128, BM=128, BN=64, BK=64, LPA=128, num_warps=8,
                                    grid=(1,))
