"""Non-contiguous tensors: a transposed view and a sliced view (with a
storage offset) passed with their strides compute on the view, as Triton
computes: the data pointer includes the offset, nothing is made
contiguous."""
import torch
import triton
import triton.language as tl


@triton.jit
def copy_2d_kernel(src, dst, M, N, s_m, s_n, d_m, d_n, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.arange(0, BM)[:, None]
    rn = tl.arange(0, BN)[None, :]
    mask = (rm < M) & (rn < N)
    v = tl.load(src + rm * s_m + rn * s_n, mask=mask, other=0.0)
    tl.store(dst + rm * d_m + rn * d_n, v * 2.0, mask=mask)


def launch(src, dst):
    M, N = src.shape
    copy_2d_kernel[(1,)](src, dst, M, N, src.stride(0), src.stride(1), dst.stride(0),
                         dst.stride(1), BM=16, BN=16)


def run(device):
    base = torch.arange(12 * 10, dtype=torch.float32).reshape(12, 10).to(device)
    transposed = base.t()                    # 10 x 12, strides (1, 10)
    out_t = torch.zeros(10, 12, device=device)
    launch(transposed, out_t)
    sliced = base[3:9:2, 2:9]                # 3 x 7, storage offset 32
    out_s = torch.zeros(3, 7, device=device)
    launch(sliced, out_s)
    dst_big = torch.zeros(8, 16, device=device)
    dst_view = dst_big[1:4, 5:12]            # written through a view
    launch(sliced, dst_view)
    return {"transposed": out_t, "sliced": out_s, "into_view": dst_big}
