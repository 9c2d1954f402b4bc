import mytriton as triton
import mytriton.language as tl


@triton.jit
def wrap_copy_kernel(x, out, n, stride, BLOCK: tl.constexpr):
    # a row of a runtime-strided tensor, read at offsets wrapped modulo n:
    # the remainder hides that they are runs of BLOCK from multiples of BLOCK
    pid = tl.program_id(0)
    row = tl.program_id(1)
    offs = tl.max_contiguous(tl.multiple_of((pid * BLOCK + tl.arange(0, BLOCK)) % n, BLOCK), BLOCK)
    v = tl.load(x + row * stride + offs)
    tl.store(out + row * n + pid * BLOCK + tl.arange(0, BLOCK), v)
