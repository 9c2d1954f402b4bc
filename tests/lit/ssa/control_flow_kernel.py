# Runtime control flow in the typed SSA: an early return (the rest of the
# kernel in the else branch), a while with its condition region, an if
# joining a value, and a negative-step loop run upwards (i = n + 0 - j).
# RUN: %mytriton compile %s --kernel control_flow_kernel --signature '*fp32,*fp32,i32,fp32' --emit ssa-opt | %FileCheck --strict-whitespace %s
import mytriton as triton
import mytriton.language as tl


@triton.jit
def control_flow_kernel(x_ptr, out, n, limit):
    pid = tl.program_id(0)
    if pid >= n:
        return
    v = tl.load(x_ptr + pid)
    steps = 0
    while v < limit:
        v = v * 2.0
        steps += 1
    if steps > 3:
        r = v
    else:
        r = -v
    for i in range(n, 0, -2):
        r += i
    tl.store(out + pid, r)
# CHECK: {{^}}%0 = program_id {axis=0} : i32{{$}}
# CHECK-NEXT: {{^}}%1 = cmp_ge %0, n : bool{{$}}
# CHECK-NEXT: {{^}}if %1 {{{$}}
# CHECK-NEXT: {{^}}  yield{{$}}
# CHECK-NEXT: {{^}}} else {{{$}}
# CHECK-NEXT: {{^}}  %2 = addptr x_ptr, %0 : ptr<f32>{{$}}
# CHECK-NEXT: {{^}}  %3 = load %2, none, none : f32{{$}}
# CHECK-NEXT: {{^}}  %9, %10 = while (%4 = %3, %5 = 0) : f32, i32 {{{$}}
# CHECK-NEXT: {{^}}    %6 = cmp_lt %4, limit : bool{{$}}
# CHECK-NEXT: {{^}}    condition %6{{$}}
# CHECK-NEXT: {{^}}  } do {{{$}}
# CHECK-NEXT: {{^}}    %7 = mul %4, 2.0 : f32{{$}}
# CHECK-NEXT: {{^}}    %8 = add %5, 1 : i32{{$}}
# CHECK-NEXT: {{^}}    yield %7, %8{{$}}
# CHECK-NEXT: {{^}}  }{{$}}
# CHECK-NEXT: {{^}}  %11 = cmp_gt %10, 3 : bool{{$}}
# CHECK-NEXT: {{^}}  %13 = if %11 -> (f32) {{{$}}
# CHECK-NEXT: {{^}}    yield %9{{$}}
# CHECK-NEXT: {{^}}  } else {{{$}}
# CHECK-NEXT: {{^}}    %12 = neg %9 : f32{{$}}
# CHECK-NEXT: {{^}}    yield %12{{$}}
# CHECK-NEXT: {{^}}  }{{$}}
# CHECK-NEXT: {{^}}  %19 = for %14 in range(0, n, 2) iter_args(%15 = %13) : f32 {{{$}}
# CHECK-NEXT: {{^}}    %16 = add 0, n : i32{{$}}
# CHECK-NEXT: {{^}}    %17 = sub %16, %14 : i32{{$}}
# CHECK-NEXT: {{^}}    %18 = add %15, %17 : f32{{$}}
# CHECK-NEXT: {{^}}    yield %18{{$}}
# CHECK-NEXT: {{^}}  }{{$}}
# CHECK-NEXT: {{^}}  %20 = addptr out, %0 : ptr<f32>{{$}}
# CHECK-NEXT: {{^}}  store %20, %19, none{{$}}
# CHECK-NEXT: {{^}}  yield{{$}}
# CHECK-NEXT: {{^}}}{{$}}
