# RUN: %mytriton compile %s --kernel libdevice_kernel --signature '*fp32,*i32,*fp32,*i32,64' --emit ssa | %FileCheck %s --check-prefix=SSA
# RUN: %mytriton compile %s --kernel libdevice_kernel --signature '*fp32,*i32,*fp32,*i32,64' --emit cuda | %FileCheck %s
# RUN: %mytriton compile %s --kernel libdevice_kernel --signature '*fp32,*i32,*fp32,*i32,64' --emit cpu | %FileCheck %s --check-prefix=CPU
# libdevice's functions beyond the math set are one op naming the symbol
# its operand dtypes pick (int32 -> __nv_clz, int64 -> __nv_popcll); a
# Python number is an fp32 or int32 operand as it is; the emitters call
# the runtime's mt_nv_<symbol>, the same text on the GPU and on the host
# (its flush-to-zero form _ftz for the f32 symbols Triton calls that way);
# finitef's int32 result is converted to bool as Triton converts it.
import mytriton as triton
import mytriton.language as tl
from mytriton.language.extra import libdevice


@triton.jit
def libdevice_kernel(x_ptr, n_ptr, out, iout, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    n = tl.load(n_ptr + offs)
    tl.store(iout + offs, libdevice.clz(n) + libdevice.popc(n.to(tl.int64)))
    tl.store(out + offs, libdevice.norm4d(x, x, 1.0, x) + libdevice.ldexp(x, 2))
    tl.store(iout + offs, libdevice.finitef(x).to(tl.int32))
# SSA: = libdevice %{{[0-9]+}} {fn=__nv_clz} : vector<64 x i32>
# SSA: = libdevice %{{[0-9]+}} {fn=__nv_popcll} : vector<64 x i32>
# SSA: = libdevice %[[X:[0-9]+]], %[[X]], 1.0, %[[X]] {fn=__nv_norm4df} : vector<64 x f32>
# SSA: = libdevice %[[X]], 2 {fn=__nv_ldexpf} : vector<64 x f32>
# SSA: = libdevice %[[X]] {fn=__nv_finitef} : vector<64 x i32>
# SSA: = cast %{{[0-9]+}} : vector<64 x bool>
# CHECK: = mt_nv_clz(v{{[0-9]+}}[0]);
# CHECK: = mt_nv_popcll(v{{[0-9]+}}[0]);
# CHECK: = mt_nv_norm4df_ftz(v[[V:[0-9]+]][0], v[[V]][0], 1.0f, v[[V]][0]);
# CHECK: = mt_nv_ldexpf_ftz(v[[V]][0], 2);
# CHECK: = mt_nv_finitef_ftz(v[[V]][0]);
# CPU: mt_nv_clz(
# CPU: mt_nv_norm4df_ftz(v[[W:[0-9]+]][mt_i0], v[[W]][mt_i0], 1.0f, v[[W]][mt_i0])
# CPU: ((mt_nv_finitef_ftz(v[[W]][mt_i0])) != 0)
