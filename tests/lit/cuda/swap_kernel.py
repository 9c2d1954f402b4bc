# RUN: %mytriton compile %s --kernel swap_kernel --signature '*fp32,i32' --emit cuda | %FileCheck %s
# A swap of carried values is a parallel copy: both yields are read into
# temporaries before either carried variable is written (inventory 10).
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
# CHECK: int v[[A:[0-9]+]] = 1;
# CHECK-NEXT: int v[[B:[0-9]+]] = 2;
# CHECK-NEXT: for (int v[[I:[0-9]+]] = 0; v[[I]] < n; ++v[[I]]) {
# CHECK-NEXT: int [[TA:[a-z_0-9]+]] = v[[B]];
# CHECK-NEXT: int [[TB:[a-z_0-9]+]] = v[[A]];
# CHECK-NEXT: v[[A]] = [[TA]];
# CHECK-NEXT: v[[B]] = [[TB]];
# CHECK-NEXT: }
# CHECK: if (threadIdx.x == 0) *out = ((float)v[[A]]);
# CHECK: if (threadIdx.x == 0) *v{{[0-9]+}} = ((float)v[[B]]);
