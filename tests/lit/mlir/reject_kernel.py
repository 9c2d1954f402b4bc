# RUN: %not %mytriton compile %s --kernel cos_kernel --signature '*fp32,*fp32,128' --emit mlir 2>&1 | %FileCheck %s --check-prefix=COS
# RUN: %not %mytriton compile %s --kernel empty_kernel --signature '*fp32,128' --emit mlir 2>&1 | %FileCheck %s --check-prefix=EMPTY
# The original's rejection messages, located at the construct.
# COS: reject_kernel.py:13:26: error: MLIR MVP does not support 'cos'
# EMPTY: reject_kernel.py:18:41: error: MLIR MVP does not support tl.empty
import mytriton as triton
import mytriton.language as tl


@triton.jit
def cos_kernel(x, out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, tl.cos(tl.load(x + offs)))


@triton.jit
def empty_kernel(out, BLOCK: tl.constexpr):
    tl.store(out + tl.arange(0, BLOCK), tl.empty((BLOCK,), tl.float32))
