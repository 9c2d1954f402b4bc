# RUN: %mytriton compile %s --kernel cos_kernel --signature '*fp32,*fp32,64' --emit ssa-opt | %FileCheck %s --check-prefix=SSA
# RUN: %mytriton compile %s --kernel cos_kernel --signature '*fp32,*fp32,64' --emit cuda | %FileCheck %s
import mytriton as triton
import mytriton.language as tl


@triton.jit
def cos_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.cos(tl.load(x + offs)))
# SSA: {{^}}%4 = cos %3 : vector<64 x f32>
# CHECK: v{{[0-9]+}}[mt_e] = cosf(v{{[0-9]+}}[0]);
