# RUN: %mytriton compile %s --kernel math_set_kernel --signature '*fp32,*fp32,*i32,64' --emit ssa-opt | %FileCheck %s --check-prefix=SSA
# RUN: %mytriton compile %s --kernel math_set_kernel --signature '*fp32,*fp32,*i32,64' --emit cuda | %FileCheck %s
# RUN: %mytriton compile %s --kernel math_set_kernel --signature '*fp64,*fp64,*i64,64' --emit cuda | %FileCheck %s --check-prefix=F64
import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice


@triton.jit
def math_set_kernel(x, out, iout, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(x + offs)
    tl.store(out + offs, tl.exp2(v))
    tl.store(out + offs, tl.rsqrt(v))
    tl.store(out + offs, tl.fma(v, v, 1.0))
    tl.store(out + offs, tl.maximum(v, 0.0))
    tl.store(out + offs, tl.maximum(v, 0.0, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out + offs, libdevice.pow(v, v))
    tl.store(out + offs, libdevice.isnan(v).to(v.dtype))
    i = tl.load(iout + offs)
    tl.store(iout + offs, tl.umulhi(i, i))
# SSA: {{^}}%2 = load %1, none, none : vector<64 x f32>
# SSA: {{^}}%4 = exp2 %2 : vector<64 x f32>
# SSA: {{^}}%5 = rsqrt %2 : vector<64 x f32>
# SSA: {{^}}%6 = fma %2, %2, 1.0 : vector<64 x f32>
# SSA: {{^}}%7 = maximum %2, 0.0 : vector<64 x f32>
# SSA: {{^}}%8 = maximum_nan %2, 0.0 : vector<64 x f32>
# libdevice's fp32 functions flush subnormal operands and results (Triton
# links libdevice with __CUDA_FTZ); its isnan has no flush, nor does fp64
# SSA: {{^}}%9 = ftz %2 : vector<64 x f32>
# SSA: {{^}}%10 = pow %9, %9 : vector<64 x f32>
# SSA: {{^}}%11 = ftz %10 : vector<64 x f32>
# SSA: {{^}}%12 = isnan %2 : vector<64 x bool>
# SSA: {{^}}%16 = umulhi %15, %15 : vector<64 x i32>
# CHECK: = exp2f(v{{[0-9]+}}[0]);
# CHECK: = mt_rsqrtf(v{{[0-9]+}}[0]);
# CHECK: = fmaf(v{{[0-9]+}}[0], v{{[0-9]+}}[0], 1.0f);
# CHECK: = mt_fmaxnumf(v[[X:[0-9]+]][0], 0.0f);
# CHECK: = (isnan(v[[X]][0]) ? v[[X]][0] : (isnan(0.0f) ? 0.0f : (v[[X]][0] == 0.0f ? (signbit(v[[X]][0]) ? 0.0f : v[[X]][0]) : (v[[X]][0] > 0.0f ? v[[X]][0] : 0.0f))));
# CHECK: v[[F:[0-9]+]][mt_e] = mt_ftzf(v[[X]][0]);
# CHECK: = powf(v[[F]][0], v[[F]][0]);
# CHECK: = isnan(v{{[0-9]+}}[0]);
# CHECK: = mt_umulhi(v{{[0-9]+}}[0], v{{[0-9]+}}[0]);
# F64: = exp2(v{{[0-9]+}}[0]);
# F64: = mt_rsqrt(v{{[0-9]+}}[0]);
# F64: = fma(v{{[0-9]+}}[0], v{{[0-9]+}}[0], __longlong_as_double(4607182418800017408LL));
# F64: = mt_fmaxnum(v{{[0-9]+}}[0], {{.*}});
# F64: = pow(v{{[0-9]+}}[0], v{{[0-9]+}}[0]);
# F64: = mt_umulhi(v{{[0-9]+}}[0], v{{[0-9]+}}[0]);
