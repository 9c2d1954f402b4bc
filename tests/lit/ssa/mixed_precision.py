# The typed SSA of a mixed-precision kernel: Triton's promotion (a float
# literal takes the half tensor's type, f16 with bf16 is f16, an fp32
# scalar makes f32) and the cast to the pointer's element type.
# RUN: %mytriton compile %s --kernel mixed_kernel --signature '*fp16:16,*bf16:16,*fp16:16,i32,fp32,1024' --emit ssa-opt | %FileCheck --strict-whitespace %s
import mytriton as triton
import mytriton.language as tl


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
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, f16(0.0) : vector<1024 x f16>
# CHECK: load %{{[0-9]+}}, %{{[0-9]+}}, bf16(0.0) : vector<1024 x bf16>
# CHECK: mul %{{[0-9]+}}, f16(2.0) : vector<1024 x f16>
# CHECK: add %{{[0-9]+}}, %{{[0-9]+}} : vector<1024 x f16>
# CHECK: mul %{{[0-9]+}}, scale : vector<1024 x f32>
# CHECK: cast %{{[0-9]+}} : vector<1024 x f16>
