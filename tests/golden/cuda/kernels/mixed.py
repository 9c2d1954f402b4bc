import triton
import triton.language as tl


@triton.jit
def mixed_kernel(x_ptr, y_ptr, out_ptr, n, scale, BLOCK: tl.constexpr):
    # fp16 and bf16 loads, arithmetic in Triton's promoted types, an fp32
    # scale, a cast back to the output's element type
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    y = tl.load(y_ptr + offs, mask=m, other=0.0)
    z = (x * 2.0 + y) * scale
    tl.store(out_ptr + offs, z.to(out_ptr.dtype.element_ty), mask=m)
