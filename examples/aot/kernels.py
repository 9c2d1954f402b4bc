# The kernels of the AOT example (examples/aot/README in ../../README.md's
# C section): vector add, row softmax, matmul.  Plain Triton source:
# `mytriton aot` compiles them ahead of time; `python -c "import kernels"`
# with Triton installed would compile the same functions with Triton.
import triton
import triton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, a + b, mask=mask)


@triton.jit
def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    offsets = row * n_cols + cols
    values = tl.load(x + offsets, mask=mask, other=-float('inf'))
    shifted = values - tl.max(values, axis=0)
    numerator = tl.exp(shifted)
    denominator = tl.sum(numerator, axis=0)
    tl.store(out + offsets, numerator / denominator, mask=mask)


@triton.jit
def matmul_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a_mask = (offs_m[:, None] < M) & (offs_k[None, :] + k < K)
        b_mask = (offs_k[:, None] + k < K) & (offs_n[None, :] < N)
        av = tl.load(a + offs_m[:, None] * K + (offs_k[None, :] + k), mask=a_mask, other=0.0)
        bv = tl.load(b + (offs_k[:, None] + k) * N + offs_n[None, :], mask=b_mask, other=0.0)
        acc += tl.dot(av, bv, input_precision="ieee")
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)
