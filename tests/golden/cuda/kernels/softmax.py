# The kernel of vector_softmax.test (row softmax, runtime-aligned 128-bit accesses).
import mytriton as triton
import mytriton.language as tl


@triton.jit
def softmax_kernel(out, x, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + row * stride + offs)
    v = v - tl.max(v, axis=0)
    e = tl.exp(v)
    tl.store(out + row * stride + offs, e / tl.sum(e, axis=0))
