# The K-loop matmul of the dot goldens; MODE picks the lowering the loop
# gets (see dot_*.test): 0 the canonical acc += dot, 1 the same with a
# store in the body (masked off at run time), 2 acc -= dot.
import mytriton as triton
import mytriton.language as tl


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                  MODE: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        rk = k + tl.arange(0, BK)
        a_tile = tl.load(a + rm[:, None] * K + rk[None, :],
                         mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b_tile = tl.load(b + rk[:, None] * N + rn[None, :],
                         mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        if MODE == 2:
            acc -= tl.dot(a_tile, b_tile, input_precision="ieee")
        else:
            acc += tl.dot(a_tile, b_tile, input_precision="ieee")
        if MODE == 1:
            tl.store(c + pid_m, 0.0, mask=K < 0)
    tl.store(c + rm[:, None] * N + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))
