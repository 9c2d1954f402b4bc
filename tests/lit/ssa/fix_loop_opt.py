# fold, CSE and DCE work inside loop bodies (inventory 10: the original skipped
# every pass when a kernel had a loop).  A body may reuse values of the
# enclosing scope, never of a sibling loop, and nothing defined in a body is
# reused after the loop.
# RUN: %mytriton compile %s --kernel loop_body_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s
# RUN: %mytriton compile %s --kernel loop_body_kernel --signature '*fp32,i32' --emit ssa | %FileCheck --strict-whitespace %s --check-prefix=RAW
# RUN: %mytriton compile %s --kernel sibling_loops_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=SIB
# RUN: %mytriton compile %s --kernel dead_loop_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=DEAD
# RUN: %mytriton compile %s --kernel dead_loop_kernel --signature '*fp32,i32' --emit ssa | %FileCheck --strict-whitespace %s --check-prefix=DEADRAW
import mytriton as triton
import mytriton.language as tl


@triton.jit
def loop_body_kernel(out, n):
    acc = 0
    for i in range(n):
        unused = i * 7
        a = i + 0
        b = i * 1
        c = a + b
        d = i + i
        acc = acc + c + d + 3 * 4
    tl.store(out, acc)
# 'i + 0' and 'i * 1' fold to i, so 'a + b' and 'i + i' are one op; the
# unused 'i * 7' is gone; '3 * 4' is a compile-time 12.
# CHECK: {{^}}%6 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {
# CHECK-NEXT: {{^}}  %2 = add %0, %0 : i32
# CHECK-NEXT: {{^}}  %3 = add %1, %2 : i32
# CHECK-NEXT: {{^}}  %4 = add %3, %2 : i32
# CHECK-NEXT: {{^}}  %5 = add %4, 12 : i32
# CHECK-NEXT: {{^}}  yield %5
# CHECK-NEXT: {{^}}}
# CHECK-NEXT: {{^}}store out, %6, none
# CHECK-NOT: {{[^[:space:]]}}
# RAW: {{^}}%10 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {
# RAW-NEXT: {{^}}  %2 = mul %0, 7 : i32
# RAW-NEXT: {{^}}  %3 = add %0, 0 : i32
# RAW-NEXT: {{^}}  %4 = mul %0, 1 : i32
# RAW-NEXT: {{^}}  %5 = add %3, %4 : i32
# RAW-NEXT: {{^}}  %6 = add %0, %0 : i32
# RAW-NEXT: {{^}}  %7 = add %1, %5 : i32
# RAW-NEXT: {{^}}  %8 = add %7, %6 : i32
# RAW-NEXT: {{^}}  %9 = add %8, 12 : i32
# RAW-NEXT: {{^}}  yield %9
# RAW-NEXT: {{^}}}
# RAW-NEXT: {{^}}store out, %10, none
# RAW-NOT: {{[^[:space:]]}}


@triton.jit
def sibling_loops_kernel(out, n):
    p = tl.program_id(0)
    q = p * 5
    acc = 0
    for i in range(n):
        acc = acc + p * 3 + p * 5
    for j in range(n):
        acc = acc + p * 3
    tl.store(out, acc + p * 3 + q)
# 'p * 5' in the first body reuses the outer q (%1); each body computes its own
# 'p * 3'; the one after the loops is computed again at top level.
# SIB: {{^}}%0 = program_id {axis=0} : i32
# SIB-NEXT: {{^}}%1 = mul %0, 5 : i32
# SIB-NEXT: {{^}}%7 = for %2 in range(0, n, 1) iter_args(%3 = 0) : i32 {
# SIB-NEXT: {{^}}  %4 = mul %0, 3 : i32
# SIB-NEXT: {{^}}  %5 = add %3, %4 : i32
# SIB-NEXT: {{^}}  %6 = add %5, %1 : i32
# SIB-NEXT: {{^}}  yield %6
# SIB-NEXT: {{^}}}
# SIB-NEXT: {{^}}%12 = for %8 in range(0, n, 1) iter_args(%9 = %7) : i32 {
# SIB-NEXT: {{^}}  %10 = mul %0, 3 : i32
# SIB-NEXT: {{^}}  %11 = add %9, %10 : i32
# SIB-NEXT: {{^}}  yield %11
# SIB-NEXT: {{^}}}
# SIB-NEXT: {{^}}%13 = mul %0, 3 : i32
# SIB-NEXT: {{^}}%14 = add %12, %13 : i32
# SIB-NEXT: {{^}}%15 = add %14, %1 : i32
# SIB-NEXT: {{^}}store out, %15, none
# SIB-NOT: {{[^[:space:]]}}


@triton.jit
def dead_loop_kernel(out, n):
    acc = 0
    dead = 0.0
    for i in range(n):
        acc = acc + i
        dead = dead + 1.5
    for j in range(n):
        waste = j * 2
    tl.store(out, acc)
# The carried 'dead' feeds nothing live and goes; the second loop has no
# effect and no used result, so it goes entirely.
# DEAD: {{^}}%3 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {
# DEAD-NEXT: {{^}}  %2 = add %1, %0 : i32
# DEAD-NEXT: {{^}}  yield %2
# DEAD-NEXT: {{^}}}
# DEAD-NEXT: {{^}}store out, %3, none
# DEAD-NOT: {{[^[:space:]]}}
# DEADRAW: {{^}}%5, %6 = for %0 in range(0, n, 1) iter_args(%1 = 0, %2 = 0.0) : i32, f32 {
# DEADRAW-NEXT: {{^}}  %3 = add %1, %0 : i32
# DEADRAW-NEXT: {{^}}  %4 = add %2, 1.5 : f32
# DEADRAW-NEXT: {{^}}  yield %3, %4
# DEADRAW-NEXT: {{^}}}
# DEADRAW-NEXT: {{^}}for %7 in range(0, n, 1) {
# DEADRAW-NEXT: {{^}}  %8 = mul %7, 2 : i32
# DEADRAW-NEXT: {{^}}  yield
# DEADRAW-NEXT: {{^}}}
# DEADRAW-NEXT: {{^}}store out, %5, none
# DEADRAW-NOT: {{[^[:space:]]}}
