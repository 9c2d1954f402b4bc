# A swap or rotation of loop-carried values yields them permuted: the yield
# names the other carried arguments directly, with no intermediate copy that
# would make them equal (inventory 10: the original emitted sequential
# assignments, so both ended up equal).  The body needs no ops at all.
# RUN: %mytriton compile %s --kernel swap_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=SWAP
# RUN: %mytriton compile %s --kernel swap_kernel --signature '*fp32,i32' --emit ssa | %FileCheck --strict-whitespace %s --check-prefix=SWAP
# RUN: %mytriton compile %s --kernel rotate_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=ROT
import mytriton as triton
import mytriton.language as tl


@triton.jit
def swap_kernel(out, n):
    a = 1
    b = 2
    for i in range(n):
        t = a
        a = b
        b = t
    tl.store(out, a)
    tl.store(out + 1, b)
# SWAP: {{^}}%3, %4 = for %0 in range(0, n, 1) iter_args(%1 = 1, %2 = 2) : i32, i32 {
# SWAP-NEXT: {{^}}  yield %2, %1
# SWAP-NOT: yield %1, %2
# SWAP-NOT: yield %2, %2
# SWAP-NOT: yield %1, %1
# SWAP-NEXT: {{^}}}
# SWAP-NEXT: {{^}}store out, %3, none
# SWAP-NEXT: {{^}}%5 = addptr out, 1 : ptr<f32>
# SWAP-NEXT: {{^}}store %5, %4, none
# SWAP-NOT: {{[^[:space:]]}}


@triton.jit
def rotate_kernel(out, n):
    a = 1
    b = 2
    c = 3
    for i in range(n):
        t = a
        a = b
        b = c
        c = t
    tl.store(out, a)
    tl.store(out + 1, b)
    tl.store(out + 2, c)
# ROT: {{^}}%4, %5, %6 = for %0 in range(0, n, 1) iter_args(%1 = 1, %2 = 2, %3 = 3) : i32, i32, i32 {
# ROT-NEXT: {{^}}  yield %2, %3, %1
# ROT-NEXT: {{^}}}
# ROT-NEXT: {{^}}store out, %4, none
# ROT-NEXT: {{^}}%7 = addptr out, 1 : ptr<f32>
# ROT-NEXT: {{^}}store %7, %5, none
# ROT-NEXT: {{^}}%8 = addptr out, 2 : ptr<f32>
# ROT-NEXT: {{^}}store %8, %6, none
# ROT-NOT: {{[^[:space:]]}}
