# Integer literals follow Triton's rule: a Python int next to an integer
# tensor takes the tensor's type and must fit it (an i32 n times 3000000000
# is an error: diag/types.py); next to a compile-time value it is i32 when
# it fits, else i64.  Out-of-i64 literals are errors (diag/rejected.py).
# RUN: %mytriton compile %s --kernel literal_kernel --signature '*fp32,i64' --emit ssa-opt | %FileCheck --strict-whitespace %s
# RUN: %mytriton compile %s --kernel i64_min_kernel --signature '*fp32,i64' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=MIN
# RUN: %mytriton compile %s --kernel i32_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=I32
import mytriton as triton
import mytriton.language as tl


@triton.jit
def literal_kernel(out, n):
    tl.store(out, n * 3000000000)
    tl.store(out + 1, n + 2147483647)
    tl.store(out + 2, n + 2147483648)
    tl.store(out + 3, n + -2147483648)
    tl.store(out + 4, n + -2147483649)
    tl.store(out + 5, n + 9223372036854775807)
# CHECK: {{^}}%0 = mul n, 3000000000 : i64
# CHECK-NEXT: {{^}}store out, %0, none
# CHECK-NEXT: {{^}}%1 = addptr out, 1 : ptr<f32>
# CHECK-NEXT: {{^}}%2 = add n, 2147483647 : i64
# CHECK-NEXT: {{^}}store %1, %2, none
# CHECK-NEXT: {{^}}%3 = addptr out, 2 : ptr<f32>
# CHECK-NEXT: {{^}}%4 = add n, 2147483648 : i64
# CHECK-NEXT: {{^}}store %3, %4, none
# CHECK-NEXT: {{^}}%5 = addptr out, 3 : ptr<f32>
# CHECK-NEXT: {{^}}%6 = add n, -2147483648 : i64
# CHECK-NEXT: {{^}}store %5, %6, none
# CHECK-NEXT: {{^}}%7 = addptr out, 4 : ptr<f32>
# CHECK-NEXT: {{^}}%8 = add n, -2147483649 : i64
# CHECK-NEXT: {{^}}store %7, %8, none
# CHECK-NEXT: {{^}}%9 = addptr out, 5 : ptr<f32>
# CHECK-NEXT: {{^}}%10 = add n, 9223372036854775807 : i64
# CHECK-NEXT: {{^}}store %9, %10, none
# CHECK-NOT: {{[^[:space:]]}}


# -2**63 is in i64 range (as -2**31 is in i32 range above): the negated
# literal must be accepted, not rejected as '9223372036854775808 is out of range'.
@triton.jit
def i64_min_kernel(out, n):
    tl.store(out, n + -9223372036854775808)
# MIN: {{^}}%0 = add n, -9223372036854775808 : i64
# MIN-NEXT: {{^}}store out, %0, none
# MIN-NOT: {{[^[:space:]]}}


# an i32 tensor keeps its type for literals that fit it
@triton.jit
def i32_kernel(out, n):
    tl.store(out, n + 2147483647)
    tl.store(out + 1, n * -2147483648)
# I32: {{^}}%0 = add n, 2147483647 : i32
# I32-NEXT: {{^}}store out, %0, none
# I32-NEXT: {{^}}%1 = addptr out, 1 : ptr<f32>
# I32-NEXT: {{^}}%2 = mul n, -2147483648 : i32
# I32-NEXT: {{^}}store %1, %2, none
# I32-NOT: {{[^[:space:]]}}
