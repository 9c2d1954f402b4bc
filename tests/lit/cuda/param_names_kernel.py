# RUN: %mytriton compile %s --kernel param_names_kernel --signature '*fp32,*fp32,*fp32,64' --emit cuda | %FileCheck %s
# A parameter named like a C function that an op template calls (expf for
# tl.exp) or that templates may call (cosf, any name ctext_is_function
# knows) would shadow the function inside the kernel: it is renamed.
import mytriton as triton
import mytriton.language as tl


@triton.jit
def param_names_kernel(expf, cosf, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.exp(tl.load(expf + offs)) + tl.load(cosf + offs))
# CHECK: param_names_kernel(float* mt_p0_expf, float* mt_p1_cosf, float* out)
# CHECK: expf(
# CHECK-NOT: {{[^_]}}cosf
