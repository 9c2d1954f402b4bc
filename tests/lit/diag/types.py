# Type-rule and value errors found while building the SSA: the shared type
# rules (ir_infer_type) report at the offending expression, so the verifier's
# own 'ssa-verifier: op #N' messages are never reached from source.
# RUN: %not %mytriton compile %s --kernel k_float_stop --signature '*fp32,fp32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=FSTOP
# RUN: %not %mytriton compile %s --kernel k_reduce_bool --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=RBOOL
# RUN: %not %mytriton compile %s --kernel k_block_scalar_ptr --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=BSPTR
# RUN: %not %mytriton compile %s --kernel k_dot --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=DOT
# RUN: %not %mytriton compile %s --kernel k_div0 --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=DIV0
# RUN: %not %mytriton compile %s --kernel k_rank17 --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=RANK17
# RUN: %not %mytriton compile %s --kernel k_program_id3 --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=PID3
# RUN: %not %mytriton compile %s --kernel k_i64_overflow --signature '*fp32,i32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=OVF
# Triton's "*k": a pointer to constant data refuses stores, like tl.const.
# RUN: %not %mytriton compile %s --kernel k_const_store --signature '*kfp32,*fp32' 2>&1 | %FileCheck --strict-whitespace %s --check-prefix=KSTORE
# RUN: %mytriton compile %s --kernel k_const_store --signature '*fp32,*kfp32' --emit ssa | %FileCheck %s --check-prefix=KLOAD
import mytriton as triton
import mytriton.language as tl


@triton.jit
def k_float_stop(out, x):
    for i in range(x):
        tl.store(out + i, 1.0)
# FSTOP: {{^}}{{.*}}types.py:[[@LINE-2]]:20: error: for loop stop must be a scalar integer, got f32{{$}}
# FSTOP-NEXT: {{^}}    for i in range(x):{{$}}
# FSTOP-NEXT: {{^}}                   ^{{$}}
# FSTOP-NOT: {{[^[:space:]]}}


@triton.jit
def k_reduce_bool(out, n):
    tl.store(out, tl.sum(out + tl.arange(0, 8)))
# RBOOL: {{^}}{{.*}}types.py:[[@LINE-1]]:19: error: cannot reduce elements of type ptr<f32>{{$}}
# RBOOL-NEXT: {{^}}    tl.store(out, tl.sum(out + tl.arange(0, 8))){{$}}
# RBOOL-NEXT: {{^}}                  ^{{$}}
# RBOOL-NOT: {{[^[:space:]]}}


@triton.jit
def k_block_scalar_ptr(out, n):
    tl.store(out, tl.arange(0, 8))
# BSPTR: {{^}}{{.*}}types.py:[[@LINE-1]]:5: error: cannot store a block through a scalar pointer{{$}}
# BSPTR-NEXT: {{^}}    tl.store(out, tl.arange(0, 8)){{$}}
# BSPTR-NEXT: {{^}}    ^{{$}}
# BSPTR-NOT: {{[^[:space:]]}}


@triton.jit
def k_dot(out, n):
    a = tl.zeros((16, 32), tl.float32)
    b = tl.zeros((16, 32), tl.float32)
    c = tl.dot(a, b)
    tl.store(out + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :], c)
# DOT: {{^}}{{.*}}types.py:[[@LINE-2]]:9: error: input and other must have equal reduction dimensions ([16, 32] and [16, 32]){{$}}
# DOT-NEXT: {{^}}    c = tl.dot(a, b){{$}}
# DOT-NEXT: {{^}}        ^{{$}}
# DOT-NOT: {{[^[:space:]]}}


@triton.jit
def k_div0(out, n):
    tl.store(out, 1 / 0)
# DIV0: {{^}}{{.*}}types.py:[[@LINE-1]]:19: error: division by zero{{$}}
# DIV0-NEXT: {{^}}    tl.store(out, 1 / 0){{$}}
# DIV0-NEXT: {{^}}                  ^{{$}}
# DIV0-NOT: {{[^[:space:]]}}


@triton.jit
def k_rank17(out, n):
    tl.store(out, tl.sum(tl.zeros((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), tl.float32)))
# RANK17: {{^}}{{.*}}types.py:[[@LINE-1]]:35: error: block rank 17 exceeds the maximum 16{{$}}
# RANK17-NEXT: {{^}}    tl.store(out, tl.sum(tl.zeros((1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), tl.float32))){{$}}
# RANK17-NEXT: {{^}}                                  ^{{$}}
# RANK17-NOT: {{[^[:space:]]}}


@triton.jit
def k_program_id3(out, n):
    tl.store(out, tl.program_id(3))
# PID3: {{^}}{{.*}}types.py:[[@LINE-1]]:33: error: tl.program_id axis must be 0, 1, or 2 but got 3{{$}}
# PID3-NEXT: {{^}}    tl.store(out, tl.program_id(3)){{$}}
# PID3-NEXT: {{^}}                                ^{{$}}
# PID3-NOT: {{[^[:space:]]}}


@triton.jit
def k_i64_overflow(out, n):
    tl.store(out, n + 9223372036854775807 * 2)
# OVF: {{^}}{{.*}}types.py:[[@LINE-1]]:23: error: integer overflow in compile-time arithmetic (values are int64){{$}}
# OVF-NEXT: {{^}}    tl.store(out, n + 9223372036854775807 * 2){{$}}
# OVF-NEXT: {{^}}                      ^{{$}}
# OVF-NOT: {{[^[:space:]]}}


@triton.jit
def k_const_store(out, src):
    tl.store(out, tl.load(src))
# KSTORE: {{^}}{{.*}}types.py:[[@LINE-1]]:14: error: Cannot store to a constant pointer{{$}}
# KLOAD: load src
