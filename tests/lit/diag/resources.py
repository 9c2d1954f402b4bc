# Resource limits are located errors, never crashes: a block that gives each
# thread more than 512 elements, a shape whose element count overflows, and
# a dot whose shared-memory tiles exceed what a program can have (227 KiB
# on sm_90; past the 48 KiB static budget shared memory is dynamic).
# RUN: %not %mytriton compile %s --kernel big_block --signature '*fp32,262144' 2>&1 | %FileCheck %s --check-prefix=BIG
# RUN: %mytriton compile %s --kernel big_block --signature '*fp32,262144' --num-warps 32 --emit ssa-opt | %FileCheck %s --check-prefix=WARPS
# RUN: %not %mytriton compile %s --kernel huge_zeros --signature '*fp32' 2>&1 | %FileCheck %s --check-prefix=HUGE
# RUN: %not %mytriton compile %s --kernel big_dot --signature '*fp32,*fp32,*fp32,i32,256,256,128' 2>&1 | %FileCheck %s --check-prefix=SMEM
# RUN: %mytriton compile %s --kernel big_dot --signature '*fp32,*fp32,*fp32,i32,128,128,64' --emit ssa-layout | %FileCheck %s --check-prefix=DYN
# RUN: %mytriton compile %s --kernel big_dot --signature '*fp32,*fp32,*fp32,i32,128,128,64' --emit cuda | %FileCheck %s --check-prefix=DYNCU
# Elaboration work is bounded too: exponential helper recursion and
# doubling strings end in errors, not in minutes of work and gigabytes.
# RUN: %not %mytriton compile %s --kernel recursive --signature '*fp32,24' 2>&1 | %FileCheck %s --check-prefix=WORK
# RUN: %mytriton compile %s --kernel recursive --signature '*fp32,5' | %FileCheck %s --check-prefix=SMALL
# RUN: %not %mytriton compile %s --kernel doubling --signature '*fp32' 2>&1 | %FileCheck %s --check-prefix=STR
# RUN: %not %mytriton compile %s --kernel repeating --signature '*fp32' 2>&1 | %FileCheck %s --check-prefix=SEQ
# RUN: %mytriton compile %s --kernel repeated --signature '*fp32' | %FileCheck %s --check-prefix=REP
import mytriton as triton
import mytriton.language as tl


@triton.jit
def big_block(out, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out + offs, offs * 1.0)
# BIG: resources.py:[[@LINE-2]]:12: error: vector<262144 x i32> gives each of the 128 threads 2048 elements, more than 512; use a smaller block or more warps (num_warps=4 now)
# WARPS: arange {start=0, end=262144} : vector<262144 x i32>


@triton.jit
def huge_zeros(out):
    tl.store(out + tl.arange(0, 4)[:, None], tl.zeros((65536, 65536, 65536), tl.float32))
# HUGE: resources.py:[[@LINE-1]]:{{[0-9]+}}: error: {{.*}}


@triton.jit
def big_dot(a, b, c, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), tl.float32)
    for k in range(0, K, BK):
        av = tl.load(a + rm[:, None] * K + (k + rk)[None, :])
        bv = tl.load(b + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(av, bv)
    tl.store(c + rm[:, None] * BN + rn[None, :], acc)
# SMEM: resources.py:[[@LINE-2]]:{{[0-9]+}}: error: kernel needs {{[0-9]+}} bytes of shared memory, more than the 232448 bytes a program can have (sm_90)
# DYN: shared 208896 bytes (dynamic, past the 49152-byte static budget)
# DYNCU: extern __shared__ __align__(16) long long mt_dynamic_smem[];
# DYNCU: __shared__ __align__(16) long long mt_dynamic_smem[26112];
# DYNCU: float *const dot_lhs = (float *)((char *)mt_dynamic_smem + 0);
# DYNCU-NEXT: float *const dot_rhs = (float *)((char *)mt_dynamic_smem + 104448);


@triton.jit
def tree(n: tl.constexpr):
    if n == 0:
        return 1
    return tree(n - 1) + tree(n - 1)
# WORK: resources.py:[[@LINE-1]]:{{[0-9]+}}: error: kernel elaboration too large (more than 1000000 statements and calls) inlining 'tree'


@triton.jit
def recursive(out, N: tl.constexpr):
    tl.store(out, tree(N) * 1.0)
# SMALL: store out, 32.0, none


@triton.jit
def doubling(out):
    t = "ab"
    for i in tl.static_range(30):
        t = t + t
    tl.store(out, len(t) * 1.0)
# STR: resources.py:[[@LINE-2]]:13: error: compile-time string of 1048576 elements is longer than 1000000


@triton.jit
def repeating(out):
    t = [0] * 1000 * 1001
# SEQ: resources.py:[[@LINE-1]]:9: error: compile-time sequence of 1001000 elements is longer than 1000000
    tl.store(out, len(t) * 1.0)


@triton.jit
def repeated(out):
    t = [1, 2] * 3 + [5] * -1
    u = 2 * (4,) * 2
    tl.store(out, len(t) * 100.0 + t[5] * 10.0 + len(u))
# REP: store out, 624.0, none
