"""Matrix product through block pointers advanced in a runtime K loop (the
block-pointer shape of Triton's matmul tutorials), with ragged M, N and K
handled by boundary_check and zero padding."""
import torch
import triton
import triton.language as tl

TOLERANCE = {"rtol": 1e-4, "atol": 1e-4}


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    a_bp = tl.make_block_ptr(a_ptr, (M, K), (sam, sak), (pid_m * BM, 0), (BM, BK), (1, 0))
    b_bp = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pid_n * BN), (BK, BN), (1, 0))
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_bp, boundary_check=(0, 1), padding_option="zero")
        b = tl.load(b_bp, boundary_check=(0, 1), padding_option="zero")
        acc += tl.dot(a, b, input_precision="ieee")
        a_bp = tl.advance(a_bp, (0, BK))
        b_bp = tl.advance(b_bp, (BK, 0))
    c_bp = tl.make_block_ptr(c_ptr, (M, N), (scm, scn), (pid_m * BM, pid_n * BN), (BM, BN),
                             (1, 0))
    tl.store(c_bp, acc, boundary_check=(0, 1))


def run(device):
    M, N, K = 37, 29, 45
    a = ((torch.arange(M * K, dtype=torch.float32).reshape(M, K) % 7) - 3).to(device)
    b = ((torch.arange(K * N, dtype=torch.float32).reshape(K, N) % 5) - 2).to(device)
    c = torch.zeros(M, N, dtype=torch.float32, device=device)
    grid = (triton.cdiv(M, 16), triton.cdiv(N, 16))
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1), BM=16, BN=16, BK=16)
    return {"c": c}
