import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def libdevice_kernel(x_ptr, n, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    k = libdevice.clz(n + offs) + libdevice.float2int_ru(x)
    y = libdevice.erfinv(x) + libdevice.norm4d(x, x, 1.0, x) + libdevice.exp(x)
    y = libdevice.fma_rz(y, 0.5, libdevice.ldexp(x, k))
    tl.store(out_ptr + offs, y)
