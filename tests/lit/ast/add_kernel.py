# RUN: %mytriton compile %s --kernel add_kernel --signature '*fp32,*fp32,*fp32,i32,256' --emit ast | %FileCheck --strict-whitespace %s
# The parsed kernel as an indented tree: decorator, parameters with their
# annotations, then one node per statement; call keywords keep their names.
from typing import Any

import mytriton as triton
import mytriton.language as tl


@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)

    mask = offs < n

    a = tl.load(x + offs, mask=mask, other=0.0)
    b = tl.load(y + offs, mask=mask, other=0.0)

    tl.store(out + offs, a + b, mask=mask)

# CHECK: {{^}}FunctionDef add_kernel
# CHECK-NEXT: {{^}}  decorator Attribute jit
# CHECK-NEXT: {{^}}    Name triton
# CHECK-NEXT: {{^}}  param x
# CHECK-NEXT: {{^}}  param y
# CHECK-NEXT: {{^}}  param out
# CHECK-NEXT: {{^}}  param n
# CHECK-NEXT: {{^}}  param BLOCK : Attribute constexpr
# CHECK-NEXT: {{^}}    Name tl
# CHECK-NEXT: {{^}}  Assign
# CHECK-NEXT: {{^}}    target Name pid
# CHECK-NEXT: {{^}}    Call
# CHECK-NEXT: {{^}}      Attribute program_id
# CHECK-NEXT: {{^}}        Name tl
# CHECK-NEXT: {{^}}      arg Int 0
# CHECK-NEXT: {{^}}  Assign
# CHECK-NEXT: {{^}}    target Name offs
# CHECK-NEXT: {{^}}    BinOp +
# CHECK-NEXT: {{^}}      BinOp *
# CHECK-NEXT: {{^}}        Name pid
# CHECK-NEXT: {{^}}        Name BLOCK
# CHECK-NEXT: {{^}}      Call
# CHECK-NEXT: {{^}}        Attribute arange
# CHECK-NEXT: {{^}}          Name tl
# CHECK-NEXT: {{^}}        arg Int 0
# CHECK-NEXT: {{^}}        arg Name BLOCK
# CHECK-NEXT: {{^}}  Assign
# CHECK-NEXT: {{^}}    target Name mask
# CHECK-NEXT: {{^}}    Compare <
# CHECK-NEXT: {{^}}      Name offs
# CHECK-NEXT: {{^}}      Name n
# CHECK-NEXT: {{^}}  Assign
# CHECK-NEXT: {{^}}    target Name a
# CHECK-NEXT: {{^}}    Call
# CHECK-NEXT: {{^}}      Attribute load
# CHECK-NEXT: {{^}}        Name tl
# CHECK-NEXT: {{^}}      arg BinOp +
# CHECK-NEXT: {{^}}        Name x
# CHECK-NEXT: {{^}}        Name offs
# CHECK-NEXT: {{^}}      keyword mask=Name mask
# CHECK-NEXT: {{^}}      keyword other=Float 0.0
# CHECK-NEXT: {{^}}  Assign
# CHECK-NEXT: {{^}}    target Name b
# CHECK-NEXT: {{^}}    Call
# CHECK-NEXT: {{^}}      Attribute load
# CHECK-NEXT: {{^}}        Name tl
# CHECK-NEXT: {{^}}      arg BinOp +
# CHECK-NEXT: {{^}}        Name y
# CHECK-NEXT: {{^}}        Name offs
# CHECK-NEXT: {{^}}      keyword mask=Name mask
# CHECK-NEXT: {{^}}      keyword other=Float 0.0
# CHECK-NEXT: {{^}}  Expr
# CHECK-NEXT: {{^}}    Call
# CHECK-NEXT: {{^}}      Attribute store
# CHECK-NEXT: {{^}}        Name tl
# CHECK-NEXT: {{^}}      arg BinOp +
# CHECK-NEXT: {{^}}        Name out
# CHECK-NEXT: {{^}}        Name offs
# CHECK-NEXT: {{^}}      arg BinOp +
# CHECK-NEXT: {{^}}        Name a
# CHECK-NEXT: {{^}}        Name b
# CHECK-NEXT: {{^}}      keyword mask=Name mask
# CHECK-NOT: {{[^[:space:]]}}
