# Every construct the kernel language rejects gets one located error and
# exit status 1 (inventory 4.4, plus the constructs Triton rejects).
# RUN: %not %mytriton compile %s --kernel k_while --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=WHILE
# RUN: %not %mytriton compile %s --kernel k_if_tensor --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=IFT
# RUN: %not %mytriton compile %s --kernel k_lambda --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=LAMBDA
# RUN: %not %mytriton compile %s --kernel k_chained --signature '*fp32,i32,i32,4' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=CHAIN
# RUN: %not %mytriton compile %s --kernel k_undefined --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=UNDEF
# RUN: %not %mytriton compile %s --kernel k_step0 --signature '*fp32,i32,0' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=STEP0
# RUN: %not %mytriton compile %s --kernel k_carry_type --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=CARRY
# RUN: %not %mytriton compile %s --kernel k_big_literal --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=BIG
# RUN: %not %mytriton compile %s --kernel k_exp_bool --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=EXPB
# RUN: %not %mytriton compile %s --kernel k_broadcast --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=BCAST
# RUN: %not %mytriton compile %s --kernel k_arange_empty --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=ARANGE
# RUN: %not %mytriton compile %s --kernel k_slice --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=SLICE
# RUN: %not %mytriton compile %s --kernel k_zeros_shape --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=ZSHAPE
# RUN: %not %mytriton compile %s --kernel k_mask_type --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=MASK
# RUN: %not %mytriton compile %s --kernel k_store_bool --signature '*fp8e4nv,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=STOREB
# RUN: %not %mytriton compile %s --kernel k_with --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=WITH
# RUN: %not %mytriton compile %s --kernel k_return_value --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=RET
# RUN: %not %mytriton compile %s --kernel k_kwargs --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=KWARGS
# RUN: %not %mytriton compile %s --kernel k_not_jit_call --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=NOTJIT
# RUN: %not %mytriton compile %s --kernel k_unknown_kw --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=UNKKW
# RUN: %not %mytriton compile %s --kernel k_static_range_runtime --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=SRANGE
# Exit status is exactly 1 for a compilation error (2 is kept for bad usage).
# RUN: %mytriton compile %s --kernel k_while --signature '*fp32,i32' >/dev/null 2>&1; test $? -eq 1
# RUN: %mytriton compile %s --kernel k_big_literal --signature '*fp32,i32' >/dev/null 2>&1; test $? -eq 1
import mytriton as triton
import mytriton.language as tl


@triton.jit
def k_while(out, n):
    while True:
        tl.store(out, 1.0)
# WHILE: {{^}}{{.*}}rejected.py:[[@LINE-2]]:11: error: 'while' on a condition that is always true never ends ('break' is not supported){{$}}
# WHILE-NEXT: {{^}}    while True:{{$}}
# WHILE-NEXT: {{^}}          ^{{$}}
# WHILE-NOT: {{[^[:space:]]}}


@triton.jit
def k_if_tensor(out, n):
    if tl.arange(0, 4) < 3:
        tl.store(out, 1.0)
# IFT: {{^}}{{.*}}rejected.py:[[@LINE-2]]:8: error: the truth value of a block of 4 elements is ambiguous; 'if' needs a scalar{{$}}
# IFT-NEXT: {{^}}    if tl.arange(0, 4) < 3:{{$}}
# IFT-NEXT: {{^}}       ^{{$}}
# IFT-NOT: {{[^[:space:]]}}


@triton.jit
def k_lambda(out, n):
    f = lambda v: v
    tl.store(out, f(1.0))
# LAMBDA: {{^}}{{.*}}rejected.py:[[@LINE-2]]:9: error: lambda expressions are not supported in kernels{{$}}
# LAMBDA-NEXT: {{^}}    f = lambda v: v{{$}}
# LAMBDA-NEXT: {{^}}        ^{{$}}
# LAMBDA-NOT: {{[^[:space:]]}}


@triton.jit
def k_chained(out, M, N, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    mask = offs < M & offs < N
    tl.store(out + offs, 1.0, mask=mask)
# CHAIN: {{^}}{{.*}}rejected.py:[[@LINE-2]]:12: error: chained comparison on runtime values; when combining comparisons with &, wrap each comparison in parentheses{{$}}
# CHAIN-NEXT: {{^}}    mask = offs < M & offs < N{{$}}
# CHAIN-NEXT: {{^}}           ^{{$}}
# CHAIN-NOT: {{[^[:space:]]}}


@triton.jit
def k_undefined(out, n):
    tl.store(out, undefined_name)
# UNDEF: {{^}}{{.*}}rejected.py:[[@LINE-1]]:19: error: name 'undefined_name' is not defined{{$}}
# UNDEF-NEXT: {{^}}    tl.store(out, undefined_name){{$}}
# UNDEF-NEXT: {{^}}                  ^{{$}}
# UNDEF-NOT: {{[^[:space:]]}}


@triton.jit
def k_step0(out, n, STEP: tl.constexpr):
    for i in range(0, n, STEP):
        tl.store(out + i, 1.0)
# STEP0: {{^}}{{.*}}rejected.py:[[@LINE-2]]:26: error: range() step must not be zero{{$}}
# STEP0-NEXT: {{^}}    for i in range(0, n, STEP):{{$}}
# STEP0-NEXT: {{^}}                         ^{{$}}
# STEP0-NOT: {{[^[:space:]]}}


@triton.jit
def k_carry_type(out, n):
    acc = 0.0
    for i in range(n):
        acc = acc + tl.arange(0, 8).to(tl.float32)
    tl.store(out + tl.arange(0, 8), acc)
# CARRY: {{^}}{{.*}}rejected.py:[[@LINE-3]]:5: error: loop-carried variable 'acc' changes type from f32 to vector<8 x f32>; initialise it with tl.zeros{{$}}
# CARRY-NEXT: {{^}}    for i in range(n):{{$}}
# CARRY-NEXT: {{^}}    ^{{$}}
# CARRY-NOT: {{[^[:space:]]}}


@triton.jit
def k_big_literal(out, n):
    tl.store(out, n * 100000000000000000000)
# BIG: {{^}}{{.*}}rejected.py:[[@LINE-1]]:23: error: integer literal 100000000000000000000 is out of range{{$}}
# BIG-NEXT: {{^}}    tl.store(out, n * 100000000000000000000){{$}}
# BIG-NEXT: {{^}}                      ^{{$}}
# BIG-NOT: {{[^[:space:]]}}


@triton.jit
def k_exp_bool(out, n):
    tl.store(out, tl.exp(n < 3))
# EXPB: {{^}}{{.*}}rejected.py:[[@LINE-1]]:26: error: Expected dtype ['fp32', 'fp64'] but got int1{{$}}
# EXPB-NEXT: {{^}}    tl.store(out, tl.exp(n < 3)){{$}}
# EXPB-NEXT: {{^}}                         ^{{$}}
# EXPB-NOT: {{[^[:space:]]}}


@triton.jit
def k_broadcast(out, n):
    tl.store(out + tl.arange(0, 4), tl.arange(0, 4) + tl.arange(0, 8))
# BCAST: {{^}}{{.*}}rejected.py:[[@LINE-1]]:37: error: cannot broadcast shapes 4 and 8{{$}}
# BCAST-NEXT: {{^}}    tl.store(out + tl.arange(0, 4), tl.arange(0, 4) + tl.arange(0, 8)){{$}}
# BCAST-NEXT: {{^}}                                    ^{{$}}
# BCAST-NOT: {{[^[:space:]]}}


@triton.jit
def k_arange_empty(out, n):
    tl.store(out + tl.arange(4, 4), 1.0)
# ARANGE: {{^}}{{.*}}rejected.py:[[@LINE-1]]:20: error: arange requires end > start, got [4, 4){{$}}
# ARANGE-NEXT: {{^}}    tl.store(out + tl.arange(4, 4), 1.0){{$}}
# ARANGE-NEXT: {{^}}                   ^{{$}}
# ARANGE-NOT: {{[^[:space:]]}}


@triton.jit
def k_slice(out, n):
    offs = tl.arange(0, 8)
    tl.store(out + offs[1:3], 1.0)
# SLICE: {{^}}{{.*}}rejected.py:[[@LINE-1]]:20: error: unsupported tensor index: only ':' and None are supported when indexing a tensor{{$}}
# SLICE-NEXT: {{^}}    tl.store(out + offs[1:3], 1.0){{$}}
# SLICE-NEXT: {{^}}                   ^{{$}}
# SLICE-NOT: {{[^[:space:]]}}


@triton.jit
def k_zeros_shape(out, n):
    tl.store(out + tl.arange(0, 4), tl.zeros((4, 0), tl.float32))
# ZSHAPE: {{^}}{{.*}}rejected.py:[[@LINE-1]]:46: error: block dimensions must be positive integers{{$}}
# ZSHAPE-NEXT: {{^}}    tl.store(out + tl.arange(0, 4), tl.zeros((4, 0), tl.float32)){{$}}
# ZSHAPE-NEXT: {{^}}                                             ^{{$}}
# ZSHAPE-NOT: {{[^[:space:]]}}


@triton.jit
def k_mask_type(out, n):
    offs = tl.arange(0, 8)
    tl.store(out + offs, tl.load(out + offs, mask=offs))
# MASK: {{^}}{{.*}}rejected.py:[[@LINE-1]]:26: error: mask must be bool, got vector<8 x i32>{{$}}
# MASK-NEXT: {{^}}    tl.store(out + offs, tl.load(out + offs, mask=offs)){{$}}
# MASK-NEXT: {{^}}                         ^{{$}}
# MASK-NOT: {{[^[:space:]]}}


@triton.jit
def k_store_bool(out, n):
    tl.store(out, n < 3)
# STOREB: {{^}}{{.*}}rejected.py:[[@LINE-1]]:5: error: stored value must be convertible to f8e4nv, got bool{{$}}
# STOREB-NEXT: {{^}}    tl.store(out, n < 3){{$}}
# STOREB-NEXT: {{^}}    ^{{$}}
# STOREB-NOT: {{[^[:space:]]}}


@triton.jit
def k_with(out, n):
    with open("x"):
        pass
# WITH: {{^}}{{.*}}rejected.py:[[@LINE-2]]:5: error: 'with' statements are not supported in kernels{{$}}
# WITH-NEXT: {{^}}    with open("x"):{{$}}
# WITH-NEXT: {{^}}    ^{{$}}
# WITH-NOT: {{[^[:space:]]}}


@triton.jit
def k_return_value(out, n):
    tl.store(out, 1.0)
    return n
# RET: {{^}}{{.*}}rejected.py:[[@LINE-1]]:5: error: a kernel cannot return a value{{$}}
# RET-NEXT: {{^}}    return n{{$}}
# RET-NEXT: {{^}}    ^{{$}}
# RET-NOT: {{[^[:space:]]}}


@triton.jit
def k_kwargs(out, n):
    args = {}
    tl.store(out, **args)
# KWARGS: {{^}}{{.*}}rejected.py:[[@LINE-1]]:19: error: **kwargs are not supported{{$}}
# KWARGS-NEXT: {{^}}    tl.store(out, **args){{$}}
# KWARGS-NEXT: {{^}}                  ^{{$}}
# KWARGS-NOT: {{[^[:space:]]}}


def plain_helper(x):
    return x


@triton.jit
def k_not_jit_call(out, n):
    tl.store(out, plain_helper(1.0))
# NOTJIT: {{^}}{{.*}}rejected.py:[[@LINE-1]]:19: error: function 'plain_helper' is not a @jit function{{$}}
# NOTJIT-NEXT: {{^}}    tl.store(out, plain_helper(1.0)){{$}}
# NOTJIT-NEXT: {{^}}                  ^{{$}}
# NOTJIT-NOT: {{[^[:space:]]}}


@triton.jit
def k_unknown_kw(out, n):
    tl.store(out, 1.0, foo=3)
# UNKKW: {{^}}{{.*}}rejected.py:[[@LINE-1]]:24: error: tl.store() got an unexpected keyword argument 'foo'{{$}}
# UNKKW-NEXT: {{^}}    tl.store(out, 1.0, foo=3){{$}}
# UNKKW-NEXT: {{^}}                       ^{{$}}
# UNKKW-NOT: {{[^[:space:]]}}


@triton.jit
def k_static_range_runtime(out, n):
    for i in tl.static_range(n):
        tl.store(out + i, 1.0)
# SRANGE: {{^}}{{.*}}rejected.py:[[@LINE-2]]:14: error: tl.static_range bounds must be compile-time integers{{$}}
# SRANGE-NEXT: {{^}}    for i in tl.static_range(n):{{$}}
# SRANGE-NEXT: {{^}}             ^{{$}}
# SRANGE-NOT: {{[^[:space:]]}}
