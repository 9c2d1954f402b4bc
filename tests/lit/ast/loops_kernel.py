# RUN: %mytriton compile %s --kernel loops_kernel --signature '*fp32,i32,4' --emit ast | %FileCheck --strict-whitespace %s
# AST of runtime and static loops, annotated and augmented assignments,
# subscripts with None/slices, a conditional expression and a docstring.
import mytriton as triton
import mytriton.language as tl


@triton.jit
def loops_kernel(out, n, BLOCK: tl.constexpr):
    """Sums a few things."""
    acc: tl.float32 = 0.0
    offs = tl.arange(0, BLOCK)[:, None]
    for i in range(n):
        acc += i * 2.5
    for j in tl.static_range(0, BLOCK, 2):
        acc = acc - j if BLOCK > 2 else acc
    tl.store(out + offs, -acc)

# CHECK: {{^}}FunctionDef loops_kernel
# CHECK-NEXT: {{^}}  decorator Attribute jit
# CHECK-NEXT: {{^}}    Name triton
# CHECK-NEXT: {{^}}  param out
# CHECK-NEXT: {{^}}  param n
# CHECK-NEXT: {{^}}  param BLOCK : Attribute constexpr
# CHECK-NEXT: {{^}}    Name tl
# CHECK-NEXT: {{^}}  Expr
# CHECK-NEXT: {{^}}    Str 'Sums a few things.'
# CHECK-NEXT: {{^}}  AnnAssign
# CHECK-NEXT: {{^}}    target Name acc
# CHECK-NEXT: {{^}}    annotation Attribute float32
# CHECK-NEXT: {{^}}      Name tl
# CHECK-NEXT: {{^}}    Float 0.0
# CHECK-NEXT: {{^}}  Assign
# CHECK-NEXT: {{^}}    target Name offs
# CHECK-NEXT: {{^}}    Subscript
# CHECK-NEXT: {{^}}      Call
# CHECK-NEXT: {{^}}        Attribute arange
# CHECK-NEXT: {{^}}          Name tl
# CHECK-NEXT: {{^}}        arg Int 0
# CHECK-NEXT: {{^}}        arg Name BLOCK
# CHECK-NEXT: {{^}}      index Tuple
# CHECK-NEXT: {{^}}        Slice
# CHECK-NEXT: {{^}}        None
# CHECK-NEXT: {{^}}  For
# CHECK-NEXT: {{^}}    target Name i
# CHECK-NEXT: {{^}}    iter Call
# CHECK-NEXT: {{^}}      Name range
# CHECK-NEXT: {{^}}      arg Name n
# CHECK-NEXT: {{^}}    body
# CHECK-NEXT: {{^}}      AugAssign +=
# CHECK-NEXT: {{^}}        target Name acc
# CHECK-NEXT: {{^}}        BinOp *
# CHECK-NEXT: {{^}}          Name i
# CHECK-NEXT: {{^}}          Float 2.5
# CHECK-NEXT: {{^}}  For
# CHECK-NEXT: {{^}}    target Name j
# CHECK-NEXT: {{^}}    iter Call
# CHECK-NEXT: {{^}}      Attribute static_range
# CHECK-NEXT: {{^}}        Name tl
# CHECK-NEXT: {{^}}      arg Int 0
# CHECK-NEXT: {{^}}      arg Name BLOCK
# CHECK-NEXT: {{^}}      arg Int 2
# CHECK-NEXT: {{^}}    body
# CHECK-NEXT: {{^}}      Assign
# CHECK-NEXT: {{^}}        target Name acc
# CHECK-NEXT: {{^}}        IfExp
# CHECK-NEXT: {{^}}          test Compare >
# CHECK-NEXT: {{^}}            Name BLOCK
# CHECK-NEXT: {{^}}            Int 2
# CHECK-NEXT: {{^}}          body BinOp -
# CHECK-NEXT: {{^}}            Name acc
# CHECK-NEXT: {{^}}            Name j
# CHECK-NEXT: {{^}}          orelse Name acc
# CHECK-NEXT: {{^}}  Expr
# CHECK-NEXT: {{^}}    Call
# CHECK-NEXT: {{^}}      Attribute store
# CHECK-NEXT: {{^}}        Name tl
# CHECK-NEXT: {{^}}      arg BinOp +
# CHECK-NEXT: {{^}}        Name out
# CHECK-NEXT: {{^}}        Name offs
# CHECK-NEXT: {{^}}      arg UnaryOp -
# CHECK-NEXT: {{^}}        Name acc
# CHECK-NOT: {{[^[:space:]]}}
