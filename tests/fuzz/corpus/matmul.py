from mytriton import jit
import mytriton.language as tl

@jit
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

@jit
def runtime_loop(out, n):
    first = 0
    second = 1
    for k in range(n):
        first += k
        second += first
    acc: Any = 0.5 if n > 3 else 1e-5
    x = 0x_ff + 0o17 + 0b1_0 + 1_000 + 99999999999999999999999
    tl.store(out, first if True else second)
