# The kernel of the dispatcher test (tests/aot/link_test.c): specialised
# on pointer alignment, n divisible by 16, and stride == 1.
import triton
import triton.language as tl


@triton.jit
def strided_add(x, y, out, n, stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(x + offs * stride, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)
    tl.store(out + offs, a + b, mask=mask)
