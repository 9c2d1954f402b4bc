# Loads stay at their program point: a load is emitted before any later store
# to the same buffer, in straight-line code, for blocks and inside loop
# bodies; two loads of one address around a store are never merged
# (inventory 10: the original emitted loads on demand, after such stores).
# RUN: %mytriton compile %s --kernel scalar_order_kernel --signature '*fp32,*fp32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=SCALAR
# RUN: %mytriton compile %s --kernel block_order_kernel --signature '*fp32,*fp32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=BLOCK
# RUN: %mytriton compile %s --kernel loop_order_kernel --signature '*fp32,i32' --emit ssa-opt | %FileCheck --strict-whitespace %s --check-prefix=LOOP
import mytriton as triton
import mytriton.language as tl


@triton.jit
def scalar_order_kernel(buf, out):
    v = tl.load(buf)
    tl.store(buf, 2.0)
    tl.store(out, v)
# SCALAR: {{^}}%0 = load buf, none, none : f32
# SCALAR-NEXT: {{^}}store buf, 2.0, none
# SCALAR-NEXT: {{^}}store out, %0, none
# SCALAR-NOT: {{[^[:space:]]}}


@triton.jit
def block_order_kernel(buf, out):
    offs = tl.arange(0, 8)
    v = tl.load(buf + offs)
    tl.store(buf + offs, v * 2.0)
    w = tl.load(buf + offs)
    tl.store(out + offs, v + w)
# BLOCK: {{^}}%0 = arange {start=0, end=8} : vector<8 x i32>
# BLOCK-NEXT: {{^}}%1 = addptr buf, %0 : vector<8 x ptr<f32>>
# BLOCK-NEXT: {{^}}%2 = load %1, none, none : vector<8 x f32>
# BLOCK-NEXT: {{^}}%3 = mul %2, 2.0 : vector<8 x f32>
# BLOCK-NEXT: {{^}}store %1, %3, none
# BLOCK-NEXT: {{^}}%4 = load %1, none, none : vector<8 x f32>
# BLOCK-NEXT: {{^}}%5 = addptr out, %0 : vector<8 x ptr<f32>>
# BLOCK-NEXT: {{^}}%6 = add %2, %4 : vector<8 x f32>
# BLOCK-NEXT: {{^}}store %5, %6, none
# BLOCK-NOT: {{[^[:space:]]}}


@triton.jit
def loop_order_kernel(buf, n):
    for i in range(n):
        v = tl.load(buf + i)
        tl.store(buf + i, 0.0)
        tl.store(buf + i + 1, v)
# LOOP: {{^}}for %0 in range(0, n, 1) {
# LOOP-NEXT: {{^}}  %1 = addptr buf, %0 : ptr<f32>
# LOOP-NEXT: {{^}}  %2 = load %1, none, none : f32
# LOOP-NEXT: {{^}}  store %1, 0.0, none
# LOOP-NEXT: {{^}}  %3 = addptr %1, 1 : ptr<f32>
# LOOP-NEXT: {{^}}  store %3, %2, none
# LOOP-NEXT: {{^}}  yield
# LOOP-NEXT: {{^}}}
# LOOP-NOT: {{[^[:space:]]}}
