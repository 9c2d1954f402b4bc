# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32:16,*fp32:16,*fp32:16,i32,1024' --emit cuda | %FileCheck %s
# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32:16,*fp32,i32,1024' --emit cuda | %FileCheck %s --check-prefix=MIXED
# The ":16" pointer hint turns each thread's group of 4 consecutive
# elements into one 128-bit access when the group's whole mask is set, with
# the per-element masked access as the fallback for a partial group,
# addressed from the group's first pointer (the others then go unused).
# CHECK: for (int mt_g = 0; mt_g < 8; mt_g += 4) {
# CHECK: mt_all = mt_all && v[[MASK:[0-9]+]][mt_e];
# CHECK: float4 mt_q = *(const float4*)(v{{[0-9]+}}[mt_e]);
# CHECK: } else {
# CHECK: mt_h = v{{[0-9]+}}[mt_e];
# CHECK: = (v[[MASK]][mt_e] ? (*(mt_h + (mt_e - mt_g))) : 0.0f);
# CHECK: float4 mt_q = *(const float4*)(v{{[0-9]+}}[mt_e]);
# CHECK: *(float4*)(v{{[0-9]+}}[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
# CHECK: if (v[[MASK]][mt_e]) *(mt_h + (mt_e - mt_g)) = v{{[0-9]+}}[mt_e];
# Only the hinted pointer (y) is accessed as float4.
# MIXED-COUNT-1: float4
import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask), mask=mask)
