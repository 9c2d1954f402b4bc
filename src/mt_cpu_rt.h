/* mt_cpu_rt.h: the run-time support of the cpu backend's generated C.
 *
 * Input: included in one C translation unit after mt_host.h (its C part:
 * mt_host_thread, the scheduler's operations) and mt_kernel_rt.h (the
 * conversions and math the ops' C texts call), before the kernel cpu.c
 * wrote.  Output: what that kernel calls besides them: the CUDA names the
 * shared C texts use (__int_as_float and friends), C11 _Generic forms of
 * the runtime functions C++ overloads (mt_div, mt_rem, mt_shl, mt_shr,
 * mt_umulhi), the fp32 dot micro-kernel, and the atomics.
 *
 * Invariants:
 *   - plain C11 with GCC's vector extension and __atomic builtins (GCC and
 *     Clang); nothing here keeps state: a program's tiles live in the
 *     worker's scratch memory (mt_host_ops.scratch);
 *   - mt_cpu_dot_f32 computes every element as c = fma(a[k], b[k], c)
 *     for k = 0, 1, ... from the accumulator, whatever the blocking;
 *   - an atomic is one __atomic read-modify-write (or a compare-and-swap
 *     loop for what the builtins lack: float add, max and min) at
 *     sequential consistency, which is at least every order Triton asks
 *     for, across the workers of a grid. */
#ifndef MT_CPU_RT_H
#define MT_CPU_RT_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- vector math ----
 * glibc's libmvec (2.35 and later, x86-64) has vector forms of these; a
 * simd declaration lets the tile loops call them 8 or 16 elements at a
 * time (the unit links -lmvec, host.c).  Only the ones whose results
 * matched libm's (what the constant folder and the fiber backend call)
 * bit for bit on the suite's samples: its sinf and cosf do not. */
#if defined(MT_CPU_LIBMVEC)
#define MT_CPU_SIMD __attribute__((simd("notinbranch")))
extern float expf(float) MT_CPU_SIMD;
extern float exp2f(float) MT_CPU_SIMD;
extern float logf(float) MT_CPU_SIMD;
extern float log2f(float) MT_CPU_SIMD;
#undef MT_CPU_SIMD
#endif

/* ---- the CUDA names of the shared C texts (ctext.c) ---- */

static inline float __int_as_float(int v) { float f; memcpy(&f, &v, 4); return f; }
static inline int __float_as_int(float f) { int v; memcpy(&v, &f, 4); return v; }
static inline double __longlong_as_double(long long v) { double d; memcpy(&d, &v, 8); return d; }
static inline long long __double_as_longlong(double d) { long long v; memcpy(&v, &d, 8); return v; }
static inline float __uint_as_float(unsigned v) { float f; memcpy(&f, &v, 4); return f; }
static inline unsigned __float_as_uint(float f) { unsigned v; memcpy(&v, &f, 4); return v; }

/* C's isinf may be -1 for -inf (glibc): the ops' texts want 0 or 1, as
 * C++'s std::isinf the fiber backend calls */
#undef isinf
#define isinf(x) (__builtin_isinf(x) != 0)
#undef isnan
#define isnan(x) (__builtin_isnan(x) != 0)

/* ---- the overloads of mt_kernel_rt.h, by _Generic ---- */

#define MT_CPU_INT_GENERIC(a, fn)                                                      \
    _Generic((a), signed char: fn##_i8, short: fn##_i16, int: fn##_i32,                \
             long long: fn##_i64, long: fn##_i64, unsigned char: fn##_u8,              \
             unsigned short: fn##_u16, unsigned: fn##_u32, unsigned long long: fn##_u64, \
             unsigned long: fn##_u64
#define mt_div(a, b) MT_CPU_INT_GENERIC(a, mt_div), float: mt_divf, double: mt_div)(a, b)
#define mt_rem(a, b) MT_CPU_INT_GENERIC(a, mt_rem), float: mt_fremf, double: mt_frem)(a, b)
#define mt_shl(a, b) MT_CPU_INT_GENERIC(a, mt_shl))(a, b)
#define mt_shr(a, b) MT_CPU_INT_GENERIC(a, mt_shr))(a, b)
static inline int mt_umulhi_i32(int a, int b) {
    return (int)mt_umulhi32((unsigned)a, (unsigned)b);
}
static inline long long mt_umulhi_i64(long long a, long long b) {
    return (long long)mt_umulhi64((unsigned long long)a, (unsigned long long)b);
}
#define mt_umulhi(a, b)                                                                \
    _Generic((a), int: mt_umulhi_i32, unsigned: mt_umulhi32, long long: mt_umulhi_i64, \
             long: mt_umulhi_i64, unsigned long long: mt_umulhi64,                     \
             unsigned long: mt_umulhi64)(a, b)

/* ---- tl.dot on fp32: a register-blocked micro-kernel ----
 * C[M x N] (row stride ldc) += A[M x K] (lda) * B[K x N] (ldb).  Blocks of
 * MT_DOT_MR rows by 2 vectors of 16 columns stay in registers over the
 * whole K loop (one B row read per k, one broadcast of A per row); the
 * columns left over take one vector, the rest plain FMAs.  B's rows are
 * contiguous in a tile, so no packing is needed at tile sizes. */
typedef float mt_v16 __attribute__((vector_size(64)));
typedef float mt_v16u __attribute__((vector_size(64), aligned(4)));
#define MT_DOT_MR 4

/* the FMA of the GPU's dot (fmaf's single rounding) on 16 lanes; the
 * compiler turns the lanes' fmaf into one vector FMA where the CPU has it
 * (the unit's -ffp-contract=off leaves other a * b + c alone) */
typedef float mt_v8 __attribute__((vector_size(32)));
static inline mt_v16 mt_vfma(mt_v16 a, mt_v16 b, mt_v16 c) {
#if defined(__AVX512F__) && defined(__GNUC__) && !defined(__clang__)
    return __builtin_ia32_vfmaddps512_mask(a, b, c, (unsigned short)0xffff, 4);
#elif defined(__FMA__) && defined(__GNUC__) && !defined(__clang__)
    mt_v8 lo = __builtin_ia32_vfmaddps256(__builtin_shufflevector(a, a, 0, 1, 2, 3, 4, 5, 6, 7),
                                          __builtin_shufflevector(b, b, 0, 1, 2, 3, 4, 5, 6, 7),
                                          __builtin_shufflevector(c, c, 0, 1, 2, 3, 4, 5, 6, 7));
    mt_v8 hi = __builtin_ia32_vfmaddps256(
        __builtin_shufflevector(a, a, 8, 9, 10, 11, 12, 13, 14, 15),
        __builtin_shufflevector(b, b, 8, 9, 10, 11, 12, 13, 14, 15),
        __builtin_shufflevector(c, c, 8, 9, 10, 11, 12, 13, 14, 15));
    return __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
#else
    mt_v16 r;
    for (int i = 0; i < 16; i++)
        r[i] = __builtin_fmaf(a[i], b[i], c[i]);
    return r;
#endif
}

#define MT_DOT_BLOCK(MR, NV)                                                           \
    static inline void mt_dot_block_##MR##_##NV(int K, const float *A, int lda,        \
                                                const float *B, int ldb, float *C,     \
                                                int ldc) {                             \
        mt_v16 c[MR][NV];                                                              \
        for (int i = 0; i < MR; i++)                                                   \
            for (int v = 0; v < NV; v++)                                               \
                c[i][v] = *(const mt_v16u *)(C + (size_t)i * ldc + 16 * v);            \
        for (int k = 0; k < K; k++) {                                                  \
            mt_v16 b[NV];                                                              \
            for (int v = 0; v < NV; v++)                                               \
                b[v] = *(const mt_v16u *)(B + (size_t)k * ldb + 16 * v);               \
            for (int i = 0; i < MR; i++) {                                             \
                mt_v16 a = (mt_v16){0} + A[(size_t)i * lda + k];                       \
                for (int v = 0; v < NV; v++)                                           \
                    c[i][v] = mt_vfma(a, b[v], c[i][v]);                               \
            }                                                                          \
        }                                                                              \
        for (int i = 0; i < MR; i++)                                                   \
            for (int v = 0; v < NV; v++)                                               \
                *(mt_v16u *)(C + (size_t)i * ldc + 16 * v) = c[i][v];                  \
    }
MT_DOT_BLOCK(4, 2)
MT_DOT_BLOCK(4, 1)
MT_DOT_BLOCK(1, 2)
MT_DOT_BLOCK(1, 1)
#undef MT_DOT_BLOCK

static inline void mt_cpu_dot_f32(int M, int N, int K, const float *A, int lda,
                                  const float *B, int ldb, float *C, int ldc) {
    int i = 0;
    for (; i + MT_DOT_MR <= M; i += MT_DOT_MR) {
        int j = 0;
        for (; j + 32 <= N; j += 32)
            mt_dot_block_4_2(K, A + (size_t)i * lda, lda, B + j, ldb, C + (size_t)i * ldc + j,
                             ldc);
        for (; j + 16 <= N; j += 16)
            mt_dot_block_4_1(K, A + (size_t)i * lda, lda, B + j, ldb, C + (size_t)i * ldc + j,
                             ldc);
        for (int ii = i; ii < i + MT_DOT_MR; ii++)
            for (int jj = j; jj < N; jj++) {
                float c = C[(size_t)ii * ldc + jj];
                for (int k = 0; k < K; k++)
                    c = fmaf(A[(size_t)ii * lda + k], B[(size_t)k * ldb + jj], c);
                C[(size_t)ii * ldc + jj] = c;
            }
    }
    for (; i < M; i++) {
        int j = 0;
        for (; j + 32 <= N; j += 32)
            mt_dot_block_1_2(K, A + (size_t)i * lda, lda, B + j, ldb, C + (size_t)i * ldc + j,
                             ldc);
        for (; j + 16 <= N; j += 16)
            mt_dot_block_1_1(K, A + (size_t)i * lda, lda, B + j, ldb, C + (size_t)i * ldc + j,
                             ldc);
        for (; j < N; j++) {
            float c = C[(size_t)i * ldc + j];
            for (int k = 0; k < K; k++)
                c = fmaf(A[(size_t)i * lda + k], B[(size_t)k * ldb + j], c);
            C[(size_t)i * ldc + j] = c;
        }
    }
}

/* ---- atomics ----
 * One element's read-modify-write: T the element's register type, U the
 * unsigned type of its bits, EXPR the new value from the old x and the
 * operand v (atomic_update_text, shared with the fiber backend); the old
 * value lands in OUT.  A compare-and-swap loop on the bits serves every
 * op and type alike (float add, max and min have no __atomic builtin). */
#define MT_CPU_RMW(T, U, P, V, EXPR, OUT)                                              \
    do {                                                                               \
        U *mt_p_ = (U *)(P);                                                           \
        T v = (V), x;                                                                  \
        U mt_o_ = __atomic_load_n(mt_p_, __ATOMIC_SEQ_CST), mt_n_;                     \
        do {                                                                           \
            memcpy(&x, &mt_o_, sizeof x);                                              \
            T mt_r_ = (EXPR);                                                          \
            memcpy(&mt_n_, &mt_r_, sizeof mt_n_);                                      \
        } while (!__atomic_compare_exchange_n(mt_p_, &mt_o_, mt_n_, false,             \
                                              __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));    \
        OUT = x;                                                                       \
    } while (0)

/* tl.atomic_cas on bits: the old value; a failed exchange lets the other
 * workers run (the program may spin on a lock a program not started yet
 * holds: the scheduler then starts another worker for it). */
#define MT_CPU_CAS(T, U, P, CMP, V, OUT)                                               \
    do {                                                                               \
        T mt_c_ = (CMP), mt_v_ = (V);                                                  \
        U mt_cb_, mt_vb_;                                                              \
        memcpy(&mt_cb_, &mt_c_, sizeof mt_cb_);                                        \
        memcpy(&mt_vb_, &mt_v_, sizeof mt_vb_);                                        \
        if (!__atomic_compare_exchange_n((U *)(P), &mt_cb_, mt_vb_, false,             \
                                         __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))          \
            mt_self->ops->spin(mt_self->worker);                                       \
        memcpy(&OUT, &mt_cb_, sizeof mt_cb_);                                          \
    } while (0)

#endif
