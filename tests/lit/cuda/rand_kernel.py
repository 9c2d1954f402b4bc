# RUN: %mytriton compile %s --kernel rand_kernel --signature '*fp32,i32,64' --emit ssa-opt | %FileCheck %s --check-prefix=SSA
# RUN: %mytriton compile %s --kernel rand_kernel --signature '*fp32,i32,64' --emit cuda | %FileCheck %s
import mytriton as triton
import mytriton.language as tl


@triton.jit
def rand_kernel(out, seed, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.rand(seed, offs))
# the offset's counter words, the seed's key, one Philox lane (lane 0 after
# 10 rounds: selector 40), then Triton's uint_to_uniform_float
# SSA: {{^}}%2 = cast %0 : vector<64 x u32>
# SSA-NEXT: {{^}}%3 = cast %2 : vector<64 x u64>
# SSA-NEXT: {{^}}%4 = cast seed : u64
# SSA-NEXT: {{^}}%5 = philox %3, %4, 40 : vector<64 x u32>
# SSA-NEXT: {{^}}%6 = cast %5 : vector<64 x i32>
# SSA-NEXT: {{^}}%7 = cmp_lt %6, 0 : vector<64 x bool>
# SSA: {{^}}%11 = mul %10, 4.6566126e-10 : vector<64 x f32>
# CHECK: unsigned long long v[[KEY:[0-9]+]] = ((unsigned long long)seed);
# CHECK: v{{[0-9]+}}[mt_e] = mt_philox(v{{[0-9]+}}[0], v[[KEY]], 40);
