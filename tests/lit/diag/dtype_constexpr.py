# A dtype given as a constexpr in the signature (tl.int32, as Python spells
# it) is a dtype value in the kernel; one the language does not support
# is a located error at the parameter, and a name that is no dtype too.
# RUN: %mytriton compile %s --kernel scaled --signature '*fp32,*i32,tl.int32,8' --emit ssa-opt | %FileCheck %s
# RUN: %not %mytriton compile %s --kernel scaled --signature '*fp32,*i32,tl.float8e4b15,8' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=F16
# RUN: %not %mytriton compile %s --kernel scaled --signature '*fp32,*i32,tl.arange,8' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=NOTDT
# RUN: %not %mytriton compile %s --kernel scaled --signature '*fp32,*i32,tl.in-t,8' 2>&1 | %FileCheck %s --check-prefix=BAD
import mytriton as triton
import mytriton.language as tl


@triton.jit
def scaled(x, out, DT: tl.constexpr, N: tl.constexpr):
    o = tl.arange(0, N)
    tl.store(out + o, (tl.load(x + o) * 2.5).to(DT))
# CHECK: cast %{{[0-9]+}} : vector<8 x i32>
# F16: dtype_constexpr.py:13:20: error: dtype float8e4b15 is not supported
# F16-NEXT: def scaled(x, out, DT: tl.constexpr, N: tl.constexpr):
# F16-NEXT:                    ^
# NOTDT: dtype_constexpr.py:13:20: error: 'tl.arange' is not a dtype
# BAD: <signature>:1:12: error: unknown type 'tl.in-t'
