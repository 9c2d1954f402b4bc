"""fp8 tl.dot in tutorial 03's K loop, at a tile Hopper's wgmma takes as
fp8 (64 x 64 x 64 on 4 warps): e4m3 by e4m3 and e5m2 by e4m3, B given
K-major (b.T, stride 1 along K) and N-major, K a multiple of the tile and
ragged (the K mask), and max_num_imprecise_acc=32 (partial sums of 32
elements added in f32).  Operands arrive as uint8 bits through
triton.reinterpret.  The values are quarters in [-1, 1], so every product
and partial sum is exact in any accumulator and any order: the results
must agree bit for bit."""
import numpy as np
import torch
import triton
import triton.language as tl

TOLERANCE = {"ulp": 0}


@triton.jit
def fp8_matmul(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, LPA: tl.constexpr,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    offs_m = tl.arange(0, BM)
    offs_n = tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    a_ptrs = a_ptr + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b_ptr + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc, max_num_imprecise_acc=LPA)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    tl.store(c_ptr + offs_m[:, None] * N + offs_n[None, :], acc)


# quarters -1 .. 1 as e4m3 and e5m2 bits
E4M3 = np.array([0xB8, 0xB4, 0xB0, 0xA8, 0x00, 0x28, 0x30, 0x34, 0x38], dtype=np.uint8)
E5M2 = np.array([0xBC, 0xBA, 0xB8, 0xB4, 0x00, 0x34, 0x38, 0x3A, 0x3C], dtype=np.uint8)


def bits(table, rows, cols, seed):
    k = np.arange(rows * cols).reshape(rows, cols)
    return torch.from_numpy(table[(k * (5 + seed) + k // 7) % 9])


def run(device):
    out = {}
    kinds = {"e4m3": (E4M3, tl.float8e4nv), "e5m2": (E5M2, tl.float8e5)}
    for name, fa, fb, kmajor, K, lpa in [("e4m3_kmajor", "e4m3", "e4m3", True, 128, None),
                                        ("e5m2_e4m3_kmajor", "e5m2", "e4m3", True, 128, None),
                                        ("e4m3_nmajor", "e4m3", "e4m3", False, 128, None),
                                        ("e4m3_ragged_k", "e4m3", "e4m3", True, 96, None),
                                        ("e4m3_imprecise32", "e4m3", "e4m3", True, 128, 32)]:
        a = bits(kinds[fa][0], 64, K, 0).to(device)
        b = bits(kinds[fb][0], 64, K, 1).to(device).t() if kmajor else \
            bits(kinds[fb][0], K, 64, 1).to(device)
        c = torch.zeros(64, 64, dtype=torch.float32, device=device)
        fp8_matmul[(1,)](triton.reinterpret(a, kinds[fa][1]), triton.reinterpret(b, kinds[fb][1]),
                         c, 64, 64, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         LPA=lpa, BM=64, BN=64, BK=64, num_warps=4)
        out[name] = c
    return out
