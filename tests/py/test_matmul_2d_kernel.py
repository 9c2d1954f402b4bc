"""8.12: 2-D tiles, tl.zeros accumulator, static K loop of outer products."""
import re

import torch

import mytriton as triton
import mytriton.language as tl
from mtutil import close, ops, poisoned, stages


@triton.jit
def matmul_2d_kernel(a, b, c, M, N, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)
    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in tl.static_range(K):
        a_values = tl.load(a + offs_m[:, None] * K + k, mask=offs_m[:, None] < M, other=0.0)
        b_values = tl.load(b + k * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)
        acc += a_values * b_values
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)


def test_matmul_2d_codegen():
    asm = stages(matmul_2d_kernel, torch.zeros(5, 3), torch.zeros(3, 7), torch.zeros(5, 7),
                 5, 7, K=3, BM=4, BN=8)
    ssa = asm["ssa-opt"]
    o = ops(ssa)
    assert o.count("load") == 6 and o.count("store") == 1 and "for" not in o
    assert re.search(r"block<4x8 x f32>", ssa), ssa
    assert re.search(r"= expand_dims %\d+ \{axis=1\} : block<4x1 x i32>", ssa), ssa
    assert re.search(r"= expand_dims %\d+ \{axis=0\} : block<1x8 x i32>", ssa), ssa
    assert re.search(r"= and %\d+, %\d+ : block<4x8 x bool>", ssa), ssa
    assert "&&" in asm["cuda"] or "&" in asm["cuda"]


def test_matmul_2d_execution(device):
    m, k, n = 19, 5, 23
    a = torch.arange(m * k, dtype=torch.float32, device=device).reshape(m, k) / 10
    b = torch.arange(k * n, dtype=torch.float32, device=device).reshape(k, n) / 10
    c = poisoned(device, m, n)
    bm, bn = 8, 16
    matmul_2d_kernel[(triton.cdiv(m, bm), triton.cdiv(n, bn))](a, b, c, m, n, K=k, BM=bm, BN=bn)
    close(c, a @ b, rtol=1e-4, atol=1e-3)
