# The tiled transpose of issue 11 (bench/mb_kernels.py's): a tile loaded
# along x's rows, stored through swapped indices along y's rows.
import mytriton as triton
import mytriton.language as tl


@triton.jit
def transpose(x_ptr, y_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    x = tl.load(x_ptr + rm[:, None] * N + rn[None, :])
    tl.store(y_ptr + rn[None, :] * M + rm[:, None], x)
