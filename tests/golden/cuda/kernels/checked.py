# The kernel of checked.test (checked mode's host text).
import mytriton as triton
import mytriton.language as tl


@triton.jit
def checked_kernel(x, out, n, d, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask, other=0)
    tl.store(out + offs, v // d, mask=mask)
