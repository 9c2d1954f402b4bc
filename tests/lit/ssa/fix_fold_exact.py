# Constant folding is exact in the op's result type (f32 with expf/logf/
# sqrtf, i32 wrapping) and never changes a value's type: identities such as
# 'x * 1' apply only when x already has the result type, and a select with a
# constant condition folds only to an arm of the result type.
# The unoptimised SSA (RAW) shows each op that folding removes.
# RUN: %mytriton compile %s --kernel float_fold_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=FLOAT
# RUN: %mytriton compile %s --kernel float_fold_kernel --signature '*fp32,i32' --emit ssa | %FileCheck --strict-whitespace %s --check-prefix=FLOATRAW
# RUN: %mytriton compile %s --kernel int_fold_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=INT
# RUN: %mytriton compile %s --kernel keep_type_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=TYPE
import mytriton as triton
import mytriton.language as tl


@triton.jit
def float_fold_kernel(out, n):
    tl.store(out, tl.exp(1.0))
    tl.store(out + 1, tl.sqrt(2.0))
    tl.store(out + 2, tl.log(2.0))
    tl.store(out + 3, tl.maximum(0.0, -0.0))
    tl.store(out + 4, tl.maximum(-0.0, 0.0))
    tl.store(out + 5, tl.where(False, 1, 2.5))
    tl.store(out + 6, tl.where(n < 3, 1.5, 1.5))
# f32 results: expf(1) = 2.7182817 (not the double 2.718281828459045);
# maximum orders -0.0 below +0.0 (Triton's maxnumf on the GPU), so both
# are +0.0.
# FLOAT: {{^}}store out, 2.7182817, none
# FLOAT-NEXT: {{^}}%0 = addptr out, 1 : ptr<f32>
# FLOAT-NEXT: {{^}}store %0, 1.4142135, none
# FLOAT-NEXT: {{^}}%1 = addptr out, 2 : ptr<f32>
# FLOAT-NEXT: {{^}}store %1, 0.6931472, none
# FLOAT-NEXT: {{^}}%2 = addptr out, 3 : ptr<f32>
# FLOAT-NEXT: {{^}}store %2, 0.0, none
# FLOAT-NEXT: {{^}}%3 = addptr out, 4 : ptr<f32>
# FLOAT-NEXT: {{^}}store %3, 0.0, none
# FLOAT-NEXT: {{^}}%4 = addptr out, 5 : ptr<f32>
# FLOAT-NEXT: {{^}}store %4, 2.5, none
# FLOAT-NEXT: {{^}}%5 = addptr out, 6 : ptr<f32>
# FLOAT-NEXT: {{^}}store %5, 1.5, none
# FLOAT-NOT: {{[^[:space:]]}}
# FLOATRAW: {{^}}%0 = exp 1.0 : f32
# FLOATRAW-NEXT: {{^}}store out, %0, none
# FLOATRAW-NEXT: {{^}}%1 = addptr out, 1 : ptr<f32>
# FLOATRAW-NEXT: {{^}}%2 = sqrt 2.0 : f32
# FLOATRAW-NEXT: {{^}}store %1, %2, none
# FLOATRAW-NEXT: {{^}}%3 = addptr out, 2 : ptr<f32>
# FLOATRAW-NEXT: {{^}}%4 = log 2.0 : f32
# FLOATRAW-NEXT: {{^}}store %3, %4, none
# FLOATRAW-NEXT: {{^}}%5 = addptr out, 3 : ptr<f32>
# FLOATRAW-NEXT: {{^}}%6 = maximum 0.0, -0.0 : f32
# FLOATRAW-NEXT: {{^}}store %5, %6, none
# FLOATRAW-NEXT: {{^}}%7 = addptr out, 4 : ptr<f32>
# FLOATRAW-NEXT: {{^}}%8 = maximum -0.0, 0.0 : f32
# FLOATRAW-NEXT: {{^}}store %7, %8, none
# FLOATRAW-NEXT: {{^}}%9 = addptr out, 5 : ptr<f32>
# FLOATRAW-NEXT: {{^}}%10 = select False, 1, 2.5 : f32
# FLOATRAW-NEXT: {{^}}store %9, %10, none
# FLOATRAW-NEXT: {{^}}%11 = addptr out, 6 : ptr<f32>
# FLOATRAW-NEXT: {{^}}%12 = cmp_lt n, 3 : bool
# FLOATRAW-NEXT: {{^}}%13 = select %12, 1.5, 1.5 : f32
# FLOATRAW-NEXT: {{^}}store %11, %13, none
# FLOATRAW-NOT: {{[^[:space:]]}}


@triton.jit
def int_fold_kernel(out, n):
    big = tl.maximum(2147483647, 0)
    tl.store(out, big + 1)
    tl.store(out + 1, tl.minimum(-7, 0) / 2)
    tl.store(out + 2, tl.minimum(-7, 0) / 0)
    tl.store(out + 3, tl.maximum(2147483648, 0) + 1)
# i32 arithmetic wraps; '/' is true division (cast to f32, then div);
# division by zero is left in place (after its operands fold).  A number
# in [2**31, 2**32) on its own is u32, as Triton's to_tensor makes it.
# INT: {{^}}store out, -2147483648, none
# INT-NEXT: {{^}}%0 = addptr out, 1 : ptr<f32>
# INT-NEXT: {{^}}store %0, -3.5, none
# INT-NEXT: {{^}}%1 = addptr out, 2 : ptr<f32>
# INT-NEXT: {{^}}%2 = div -7.0, 0.0 : f32
# INT-NEXT: {{^}}store %1, %2, none
# INT-NEXT: {{^}}%3 = addptr out, 3 : ptr<f32>
# INT-NEXT: {{^}}store %3, u32(2147483649), none
# INT-NOT: {{[^[:space:]]}}


@triton.jit
def keep_type_kernel(out, n):
    pid = tl.program_id(0)
    x = pid * 1.0
    tl.store(out, x / 2)
    tl.store(out + 1, tl.where(True, n, 2.0))
    tl.store(out + 2, pid * 1)
    tl.store(out + 3, pid + 0)
    tl.store(out + 4, x + 0.0)
# 'pid * 1.0' is an f32 op and stays (replacing it by the i32 pid would change
# the type); so does the select of an i32 arm with an f32 result, and the
# float 'x + 0.0' (-0.0 + 0.0 is 0.0).  Same-type identities do fold.
# TYPE: {{^}}%0 = program_id {axis=0} : i32
# TYPE-NEXT: {{^}}%1 = mul %0, 1.0 : f32
# TYPE-NEXT: {{^}}%2 = div %1, 2.0 : f32
# TYPE-NEXT: {{^}}store out, %2, none
# TYPE-NEXT: {{^}}%3 = addptr out, 1 : ptr<f32>
# TYPE-NEXT: {{^}}%4 = select True, n, 2.0 : f32
# TYPE-NEXT: {{^}}store %3, %4, none
# TYPE-NEXT: {{^}}%5 = addptr out, 2 : ptr<f32>
# TYPE-NEXT: {{^}}store %5, %0, none
# TYPE-NEXT: {{^}}%6 = addptr out, 3 : ptr<f32>
# TYPE-NEXT: {{^}}store %6, %0, none
# TYPE-NEXT: {{^}}%7 = addptr out, 4 : ptr<f32>
# TYPE-NEXT: {{^}}%8 = add %1, 0.0 : f32
# TYPE-NEXT: {{^}}store %7, %8, none
# TYPE-NOT: {{[^[:space:]]}}
