/* mt_libdevice_rt.h: the functions of Triton's
 * triton.language.extra.cuda.libdevice that generated kernels call, for
 * NVRTC and for the host backends.  Include it after mt_kernel_rt.h
 * (the bit access, mt_rt_sat, mt_rt_mag, mt_umulhi32/64).
 *
 * Input: the operands of one __nv_<sym> call in the C types of Triton's
 * dtypes (int32 int, uint32 unsigned, int64 long long, uint64 unsigned
 * long long, fp32 float, fp64 double).  Output: mt_nv_<sym> returns what
 * __nv_<sym> returns on an sm_90 GPU, in the type Triton gives the result;
 * where CUDA's is unsigned and Triton's signed (__nv_float2uint_*,
 * __nv_float2ull_*, __nv_float_as_uint, ...) the same bits, as a signed
 * value.
 *
 * Invariants:
 *   - under CUDA each function is the public intrinsic or Math API
 *     function that is that libdevice symbol;
 *   - elsewhere (the cpu and fiber backends, the unit test) a portable
 *     body gives the GPU's result: integer functions, bit casts and
 *     conversions exactly, saturating as PTX cvt does; the _rz/_rd/_ru
 *     arithmetic is the host's own IEEE operation run in that rounding
 *     mode, so correctly rounded for every input; the special functions
 *     are evaluated in double and, for f32, rounded once (correctly
 *     rounded but for rare near-ties), within a few ulp for f64.  CUDA's
 *     approximations (__nv_fast_*, the documented ulp errors of its special
 *     functions) are not imitated: the host gives the accurate value;
 *   - subnormals are kept, as IEEE 754 and NVRTC without -ftz do.  Triton
 *     links libdevice with nvvm-reflect-ftz set, which sends most f32
 *     symbols down libdevice's flush-to-zero paths (nvcc -ftz=true changes
 *     105 of the 228), so Triton may differ where an f32 operand or result
 *     is subnormal;
 *   - no C undefined behaviour on any input: no signed overflow, no shift
 *     past the width, no out-of-range float -> integer conversion; signed
 *     results are made from unsigned bits by mt_lr_s32/s64;
 *   - valid C11 and C++17; no header under CUDA, elsewhere only <math.h>,
 *     <string.h>, <fenv.h> and <limits.h> (j0, jn, lgamma_r and the like
 *     need _GNU_SOURCE or _DEFAULT_SOURCE, which every build defines). */
#ifndef MT_LIBDEVICE_RT_H
#define MT_LIBDEVICE_RT_H

/* mt_kernel_rt.h undefines its MT_RT at its end */
#ifndef MT_RT
#define MT_LR_OWN_RT
#if defined(__CUDACC__)
#define MT_RT static __device__ __forceinline__
#else
#define MT_RT static inline
#endif
#endif

/* rounding directions, spelled as the symbols' suffixes */
#define MT_LR_rn 0
#define MT_LR_rz 1
#define MT_LR_rd 2
#define MT_LR_ru 3
/* G(mode, args) for each mode of a family: the families are listed once,
 * after both bodies' generators G */
#define MT_LR_MODES3(G, ...) G(rz, __VA_ARGS__) G(rd, __VA_ARGS__) G(ru, __VA_ARGS__)
#define MT_LR_MODES(G, ...) G(rn, __VA_ARGS__) MT_LR_MODES3(G, __VA_ARGS__)

/* __CUDACC__ rather than __CUDA_ARCH__: nvcc's host pass parses these
 * __device__ functions too (never running them), and the host bodies use
 * <fenv.h>, which does not exist there. */
#if defined(__CUDACC__)

#define MT_LR_GEN_BIN(M, T, N, OP)                                                     \
    MT_RT T mt_nv_##N##_##M(T a, T b) { return __##N##_##M(a, b); }
#define MT_LR_GEN_UN(M, T, N, OP, A, B)                                                \
    MT_RT T mt_nv_##N##_##M(T a) { return __##N##_##M(a); }
#define MT_LR_GEN_FMA(M, T, N)                                                         \
    MT_RT T mt_nv_##N##_##M(T a, T b, T c) { return __##N##_##M(a, b, c); }
#define MT_LR_GEN_D2F(M, R, N, T)                                                      \
    MT_RT R mt_nv_##N##_##M(T x) { return __##N##_##M(x); }
#define MT_LR_GEN_F2I(M, R, N, T, W, S)                                                \
    MT_RT R mt_nv_##N##_##M(T x) { return (R)__##N##_##M(x); }
#define MT_LR_GEN_I2F(M, R, N, T, P, SG)                                               \
    MT_RT R mt_nv_##N##_##M(T x) { return __##N##_##M(x); }
/* a special function's f32 and f64 forms */
#define MT_LR_F1(N)                                                                    \
    MT_RT float mt_nv_##N##f(float x) { return N##f(x); }                              \
    MT_RT double mt_nv_##N(double x) { return N(x); }

MT_RT int mt_nv_clz(int x) { return __clz(x); }
MT_RT int mt_nv_clzll(long long x) { return __clzll(x); }
MT_RT int mt_nv_popc(int x) { return __popc((unsigned)x); }
MT_RT int mt_nv_popcll(long long x) { return __popcll((unsigned long long)x); }
MT_RT int mt_nv_ffs(int x) { return __ffs(x); }
MT_RT int mt_nv_ffsll(long long x) { return __ffsll(x); }
MT_RT int mt_nv_brev(int x) { return (int)__brev((unsigned)x); }
MT_RT long long mt_nv_brevll(long long x) { return (long long)__brevll((unsigned long long)x); }
MT_RT int mt_nv_byte_perm(int x, int y, int s) {
    return (int)__byte_perm((unsigned)x, (unsigned)y, (unsigned)s);
}
MT_RT int mt_nv_mulhi(int x, int y) { return __mulhi(x, y); }
MT_RT unsigned mt_nv_umulhi(unsigned x, unsigned y) { return __umulhi(x, y); }
MT_RT long long mt_nv_mul64hi(long long x, long long y) { return __mul64hi(x, y); }
MT_RT unsigned long long mt_nv_umul64hi(unsigned long long x, unsigned long long y) {
    return __umul64hi(x, y);
}
MT_RT int mt_nv_mul24(int x, int y) { return __mul24(x, y); }
MT_RT unsigned mt_nv_umul24(unsigned x, unsigned y) { return __umul24(x, y); }
MT_RT int mt_nv_sad(int x, int y, unsigned z) { return (int)__sad(x, y, z); }
MT_RT unsigned mt_nv_usad(unsigned x, unsigned y, unsigned z) { return __usad(x, y, z); }
MT_RT int mt_nv_abs(int x) { return abs(x); }
MT_RT long long mt_nv_llabs(long long x) { return llabs(x); }
MT_RT int mt_nv_hadd(int x, int y) { return __hadd(x, y); }
MT_RT int mt_nv_rhadd(int x, int y) { return __rhadd(x, y); }
MT_RT unsigned mt_nv_uhadd(unsigned x, unsigned y) { return __uhadd(x, y); }
MT_RT unsigned mt_nv_urhadd(unsigned x, unsigned y) { return __urhadd(x, y); }

MT_RT float mt_nv_int_as_float(int x) { return __int_as_float(x); }
MT_RT int mt_nv_float_as_int(float x) { return __float_as_int(x); }
MT_RT float mt_nv_uint_as_float(unsigned x) { return __uint_as_float(x); }
MT_RT int mt_nv_float_as_uint(float x) { return (int)__float_as_uint(x); }
MT_RT double mt_nv_longlong_as_double(long long x) { return __longlong_as_double(x); }
MT_RT long long mt_nv_double_as_longlong(double x) { return __double_as_longlong(x); }
MT_RT double mt_nv_hiloint2double(int hi, int lo) { return __hiloint2double(hi, lo); }
MT_RT int mt_nv_double2loint(double x) { return __double2loint(x); }
MT_RT int mt_nv_double2hiint(double x) { return __double2hiint(x); }

MT_RT float mt_nv_fabsf(float x) { return fabsf(x); }
MT_RT double mt_nv_fabs(double x) { return fabs(x); }
MT_RT float mt_nv_saturatef(float x) { return __saturatef(x); }
MT_RT float mt_nv_fast_fdividef(float x, float y) { return __fdividef(x, y); }
MT_RT float mt_nv_fast_exp10f(float x) { return __exp10f(x); }
MT_RT float mt_nv_frsqrt_rn(float x) { return __frsqrt_rn(x); }
MT_RT long long mt_nv_llrintf(float x) { return llrintf(x); }
MT_RT long long mt_nv_llrint(double x) { return llrint(x); }
MT_RT long long mt_nv_llroundf(float x) { return llroundf(x); }
MT_RT long long mt_nv_llround(double x) { return llround(x); }
/* NVRTC's names for libdevice's __nv_signbitd and __nv_isfinited */
MT_RT int mt_nv_signbitf(float x) { return __signbitf(x); }
MT_RT int mt_nv_signbitd(double x) { return __signbit(x); }
MT_RT int mt_nv_finitef(float x) { return __finitef(x); }
MT_RT int mt_nv_isfinited(double x) { return __finite(x); }
MT_RT int mt_nv_ilogbf(float x) { return ilogbf(x); }
MT_RT int mt_nv_ilogb(double x) { return ilogb(x); }

MT_RT float mt_nv_jnf(int n, float x) { return jnf(n, x); }
MT_RT double mt_nv_jn(int n, double x) { return jn(n, x); }
MT_RT float mt_nv_ynf(int n, float x) { return ynf(n, x); }
MT_RT double mt_nv_yn(int n, double x) { return yn(n, x); }
MT_RT float mt_nv_rhypotf(float x, float y) { return rhypotf(x, y); }
MT_RT double mt_nv_rhypot(double x, double y) { return rhypot(x, y); }
MT_RT float mt_nv_norm3df(float a, float b, float c) { return norm3df(a, b, c); }
MT_RT double mt_nv_norm3d(double a, double b, double c) { return norm3d(a, b, c); }
MT_RT float mt_nv_rnorm3df(float a, float b, float c) { return rnorm3df(a, b, c); }
MT_RT double mt_nv_rnorm3d(double a, double b, double c) { return rnorm3d(a, b, c); }
MT_RT float mt_nv_norm4df(float a, float b, float c, float d) { return norm4df(a, b, c, d); }
MT_RT double mt_nv_norm4d(double a, double b, double c, double d) { return norm4d(a, b, c, d); }
MT_RT float mt_nv_rnorm4df(float a, float b, float c, float d) { return rnorm4df(a, b, c, d); }
MT_RT double mt_nv_rnorm4d(double a, double b, double c, double d) {
    return rnorm4d(a, b, c, d);
}

#else /* the host */

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <string.h>

/* the signed value with u's bits: C's conversion of an out-of-range value
 * is implementation-defined, this is not (and compiles to nothing) */
MT_RT int mt_lr_s32(unsigned u) {
    return u <= (unsigned)INT_MAX ? (int)u : (int)(u - 0x80000000u) + INT_MIN;
}
MT_RT long long mt_lr_s64(unsigned long long u) {
    return u <= (unsigned long long)LLONG_MAX
               ? (long long)u
               : (long long)(u - 0x8000000000000000ull) + LLONG_MIN;
}
#define MT_LR_S32(v) mt_lr_s32((unsigned)(v))
#define MT_LR_S64(v) mt_lr_s64(v)

/* ---- integer functions ---- */

/* the number of significant bits of u: 0 for 0, 64 with the top bit set */
MT_RT int mt_lr_width(unsigned long long u) {
    int n = 0;
    for (int s = 32; s > 0; s >>= 1)
        if (u >> s) {
            u >>= s;
            n += s;
        }
    return n + (int)u;
}
MT_RT int mt_lr_popc(unsigned long long u) {
    u -= (u >> 1) & 0x5555555555555555ull;
    u = (u & 0x3333333333333333ull) + ((u >> 2) & 0x3333333333333333ull);
    u = (u + (u >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((u * 0x0101010101010101ull) >> 56);
}
MT_RT unsigned long long mt_lr_brev(unsigned long long u) {
    static const unsigned long long m[5] = {0x5555555555555555ull, 0x3333333333333333ull,
                                            0x0f0f0f0f0f0f0f0full, 0x00ff00ff00ff00ffull,
                                            0x0000ffff0000ffffull};
    for (int i = 0; i < 5; i++)
        u = ((u >> (1 << i)) & m[i]) | ((u & m[i]) << (1 << i));
    return (u >> 32) | (u << 32);
}

MT_RT int mt_nv_clz(int x) { return 32 - mt_lr_width((unsigned)x); }
MT_RT int mt_nv_clzll(long long x) { return 64 - mt_lr_width((unsigned long long)x); }
MT_RT int mt_nv_popc(int x) { return mt_lr_popc((unsigned)x); }
MT_RT int mt_nv_popcll(long long x) { return mt_lr_popc((unsigned long long)x); }
/* the 1-based index of the lowest set bit is the width of that bit alone */
MT_RT int mt_nv_ffs(int x) { return mt_lr_width((unsigned)x & (0u - (unsigned)x)); }
MT_RT int mt_nv_ffsll(long long x) {
    unsigned long long u = (unsigned long long)x;
    return mt_lr_width(u & (0ull - u));
}
MT_RT int mt_nv_brev(int x) { return MT_LR_S32(mt_lr_brev((unsigned)x) >> 32); }
MT_RT long long mt_nv_brevll(long long x) { return mt_lr_s64(mt_lr_brev((unsigned long long)x)); }
/* result byte n is byte (s >> 4n) & 7 of the 8 bytes y:x (libdevice masks
 * the selector with 0x7777, so prmt's sign-replicate bit never acts) */
MT_RT int mt_nv_byte_perm(int x, int y, int s) {
    unsigned long long v = (unsigned long long)(unsigned)y << 32 | (unsigned)x;
    unsigned r = 0;
    for (int n = 0; n < 4; n++)
        r |= (unsigned)(v >> (8u * (((unsigned)s >> (4 * n)) & 7u)) & 0xffu) << (8 * n);
    return mt_lr_s32(r);
}
MT_RT int mt_nv_mulhi(int x, int y) {
    return MT_LR_S32((unsigned long long)((long long)x * y) >> 32);
}
MT_RT unsigned mt_nv_umulhi(unsigned x, unsigned y) { return mt_umulhi32(x, y); }
/* two's complement: a negative operand's bits are its value plus 2^64, so
 * the unsigned product's high half exceeds the signed one by the other's */
MT_RT long long mt_nv_mul64hi(long long x, long long y) {
    unsigned long long ux = (unsigned long long)x, uy = (unsigned long long)y;
    return mt_lr_s64(mt_umulhi64(ux, uy) - (x < 0 ? uy : 0) - (y < 0 ? ux : 0));
}
MT_RT unsigned long long mt_nv_umul64hi(unsigned long long x, unsigned long long y) {
    return mt_umulhi64(x, y);
}
/* mul24.lo.s32 reads the low 24 bits as signed */
MT_RT long long mt_lr_sext24(int x) {
    return (long long)(((unsigned)x & 0xffffffu) ^ 0x800000u) - 0x800000;
}
MT_RT int mt_nv_mul24(int x, int y) { return MT_LR_S32(mt_lr_sext24(x) * mt_lr_sext24(y)); }
MT_RT unsigned mt_nv_umul24(unsigned x, unsigned y) { return (x & 0xffffffu) * (y & 0xffffffu); }
/* |x - y| + z in 32 bits, as sad.s32 wraps */
MT_RT int mt_nv_sad(int x, int y, unsigned z) {
    return mt_lr_s32((x > y ? (unsigned)x - (unsigned)y : (unsigned)y - (unsigned)x) + z);
}
MT_RT unsigned mt_nv_usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
MT_RT int mt_nv_abs(int x) { return mt_lr_s32(x < 0 ? 0u - (unsigned)x : (unsigned)x); }
MT_RT long long mt_nv_llabs(long long x) { return mt_lr_s64(mt_rt_mag(x)); }
/* floor(s / 2), s the 33-bit sum: the GPU's (x & y) + ((x ^ y) >> 1) */
MT_RT int mt_lr_half(long long s) { return (int)(s >= 0 ? s / 2 : -((1 - s) / 2)); }
MT_RT int mt_nv_hadd(int x, int y) { return mt_lr_half((long long)x + y); }
MT_RT int mt_nv_rhadd(int x, int y) { return mt_lr_half((long long)x + y + 1); }
MT_RT unsigned mt_nv_uhadd(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x + y) >> 1);
}
MT_RT unsigned mt_nv_urhadd(unsigned x, unsigned y) {
    return (unsigned)(((unsigned long long)x + y + 1) >> 1);
}

/* ---- bit casts ---- */

MT_RT float mt_nv_int_as_float(int x) { return mt_rt_ffrom((unsigned)x); }
MT_RT int mt_nv_float_as_int(float x) { return mt_lr_s32(mt_rt_fbits(x)); }
MT_RT float mt_nv_uint_as_float(unsigned x) { return mt_rt_ffrom(x); }
MT_RT int mt_nv_float_as_uint(float x) { return mt_lr_s32(mt_rt_fbits(x)); }
MT_RT double mt_nv_longlong_as_double(long long x) { return mt_f64_from_bits(x); }
MT_RT long long mt_nv_double_as_longlong(double x) { return mt_f64_bits(x); }
MT_RT double mt_nv_hiloint2double(int hi, int lo) {
    return mt_f64_from_bits(mt_lr_s64((unsigned long long)(unsigned)hi << 32 | (unsigned)lo));
}
MT_RT int mt_nv_double2loint(double x) { return MT_LR_S32(mt_f64_bits(x) & 0xffffffff); }
MT_RT int mt_nv_double2hiint(double x) {
    return MT_LR_S32((unsigned long long)mt_f64_bits(x) >> 32);
}

/* ---- rounding modes ----
 * The operation itself under fesetround: the host's IEEE arithmetic then
 * rounds every case (subnormal, overflow, signed zero) as the GPU does.
 * Builds use no -frounding-math, so compilers take the mode to be nearest
 * throughout: the empty asm statements make the operands unknown after the
 * mode is set, and the result needed before it is restored, so the
 * operation can neither move across the switch nor be folded.  rn keeps
 * the ambient mode (nearest: host code changes it nowhere but here) and
 * the barriers, which stop a C++ compiler (contracting by default) from
 * fusing a rounded product or sum into a neighbouring fma.  FLT_EVAL_METHOD
 * must be 0 (SSE, AArch64): float operations are done in float. */
enum { MT_LR_ADD, MT_LR_SUB, MT_LR_MUL, MT_LR_DIV, MT_LR_FMA, MT_LR_SQRT, MT_LR_F32 };
#define MT_LR_OPAQUE(v) __asm__ volatile("" : "+m"(v) : : "memory")
MT_RT int mt_lr_fe(int rm) {
    return rm == MT_LR_rz   ? FE_TOWARDZERO
           : rm == MT_LR_rd ? FE_DOWNWARD
           : rm == MT_LR_ru ? FE_UPWARD
                            : FE_TONEAREST;
}
#define MT_LR_ROUNDED(NAME, T, FMA, SQRT)                                              \
    MT_RT T NAME(int op, int rm, T a, T b, T c) {                                      \
        int old = rm == MT_LR_rn ? 0 : fegetround();                                   \
        if (rm != MT_LR_rn)                                                            \
            fesetround(mt_lr_fe(rm));                                                  \
        MT_LR_OPAQUE(a);                                                               \
        MT_LR_OPAQUE(b);                                                               \
        MT_LR_OPAQUE(c);                                                               \
        T r = op == MT_LR_ADD    ? a + b                                               \
              : op == MT_LR_SUB  ? a - b                                               \
              : op == MT_LR_MUL  ? a * b                                               \
              : op == MT_LR_DIV  ? a / b                                               \
              : op == MT_LR_FMA  ? FMA(a, b, c)                                        \
              : op == MT_LR_SQRT ? SQRT(a)                                             \
                                 : (T)(float)a;                                        \
        MT_LR_OPAQUE(r);                                                               \
        if (rm != MT_LR_rn)                                                            \
            fesetround(old);                                                           \
        return r;                                                                      \
    }
MT_LR_ROUNDED(mt_lr_opf, float, fmaf, sqrtf)
MT_LR_ROUNDED(mt_lr_opd, double, fma, sqrt)
#undef MT_LR_ROUNDED
#define MT_LR_OP_float mt_lr_opf
#define MT_LR_OP_double mt_lr_opd

#define MT_LR_GEN_BIN(M, T, N, OP)                                                     \
    MT_RT T mt_nv_##N##_##M(T a, T b) { return MT_LR_OP_##T(OP, MT_LR_##M, a, b, 0); }
#define MT_LR_GEN_UN(M, T, N, OP, A, B)                                                \
    MT_RT T mt_nv_##N##_##M(T a) { return MT_LR_OP_##T(OP, MT_LR_##M, A, B, 0); }
#define MT_LR_GEN_FMA(M, T, N)                                                         \
    MT_RT T mt_nv_##N##_##M(T a, T b, T c) {                                           \
        return MT_LR_OP_##T(MT_LR_FMA, MT_LR_##M, a, b, c);                            \
    }
/* (float) of the double rounded to float in the mode is exact */
#define MT_LR_GEN_D2F(M, R, N, T)                                                      \
    MT_RT R mt_nv_##N##_##M(T x) { return (R)mt_lr_opd(MT_LR_F32, MT_LR_##M, x, 0, 0); }

/* ---- float -> integer: cvt.r<m>i.{s,u}{32,64}.{f32,f64} ----
 * Round to an integral value in the mode, then saturate (mt_rt_sat: out of
 * range gives the destination's min or max, negatives 0 when unsigned).
 * NaN follows mt_kernel_rt.h's measured cvt rule: from f32, 0 for 32-bit
 * destinations and 0x8000000000000000 for 64-bit ones; from f64, the
 * destination's top bit. */

/* x (not NaN) rounded to an integral value in direction rm; exact, as
 * x - trunc(x) is the fraction bits themselves and |x| < 2^52 */
MT_RT double mt_lr_rint(double x, int rm) {
    if (!(fabs(x) < 4503599627370496.0))
        return x;
    double t = trunc(x), f = x - t;
    int away = rm == MT_LR_rn   ? fabs(f) > 0.5 || (fabs(f) == 0.5 && fmod(t, 2.0) != 0)
               : rm == MT_LR_ru ? f > 0
               : rm == MT_LR_rd ? f < 0
                                : 0;
    return away ? t + (f > 0 ? 1.0 : -1.0) : t;
}
/* the w-bit result (sign-extended when s), of an f32 source when f32 */
MT_RT unsigned long long mt_lr_cvt(double x, int rm, int w, int s, int f32) {
    if (isnan(x))
        return f32 && w == 32 ? 0 : 1ull << (w - 1);
    return mt_rt_sat(mt_lr_rint(x, rm), w, s);
}
#define MT_LR_GEN_F2I(M, R, N, T, W, S)                                                \
    MT_RT R mt_nv_##N##_##M(T x) {                                                     \
        return MT_LR_S##W(mt_lr_cvt(x, MT_LR_##M, W, S, sizeof(T) == 4));              \
    }

/* ---- integer -> float ----
 * The magnitude u rounded to p significant bits in direction rm, with the
 * sign (neg) applied: exact integer arithmetic, and the result (at most p
 * bits) is exact in a double, and in a float when p is 24. */
MT_RT double mt_lr_i2f(unsigned long long u, int neg, int p, int rm) {
    int sh = mt_lr_width(u) > p ? mt_lr_width(u) - p : 0;
    unsigned long long q = u >> sh, rem = u - (q << sh), half = sh ? 1ull << (sh - 1) : 0;
    int up = rm == MT_LR_rn   ? rem > half || (rem == half && rem && (q & 1))
             : rm == MT_LR_rz ? 0
                              : rem && (rm == MT_LR_ru) != neg;
    double r = ldexp((double)(q + (unsigned)up), sh);
    return neg ? -r : r;
}
#define MT_LR_SIGNED(x) mt_rt_mag(x), (x) < 0
#define MT_LR_UNSIGNED(x) (x), 0
#define MT_LR_GEN_I2F(M, R, N, T, P, SG)                                               \
    MT_RT R mt_nv_##N##_##M(T x) { return (R)mt_lr_i2f(SG(x), P, MT_LR_##M); }

MT_RT long long mt_nv_llrintf(float x) { return mt_lr_s64(mt_lr_cvt(x, MT_LR_rn, 64, 1, 1)); }
MT_RT long long mt_nv_llrint(double x) { return mt_lr_s64(mt_lr_cvt(x, MT_LR_rn, 64, 1, 0)); }
/* libdevice rounds half away from zero, then converts as cvt.rzi.s64 */
MT_RT long long mt_nv_llroundf(float x) {
    return mt_lr_s64(mt_lr_cvt(round((double)x), MT_LR_rz, 64, 1, 1));
}
MT_RT long long mt_nv_llround(double x) {
    return mt_lr_s64(mt_lr_cvt(round(x), MT_LR_rz, 64, 1, 0));
}

/* ---- single-instruction float functions ---- */

MT_RT float mt_nv_fabsf(float x) { return fabsf(x); }
MT_RT double mt_nv_fabs(double x) { return fabs(x); }
/* cvt.sat.f32.f32: NaN gives +0; -0.0 is taken to give +0 too */
MT_RT float mt_nv_saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }
/* __fdividef is x * rcp.approx(y), within 2 ulp of x / y, which the host
 * returns; kept is its documented edge: for 2^126 < |y| < 2^128 the
 * reciprocal is 0, so the result is a signed 0 (NaN when x is infinite) */
MT_RT float mt_nv_fast_fdividef(float x, float y) {
    float ay = fabsf(y);
    return ay > 0x1p126f && ay < INFINITY ? x * copysignf(0.0f, y) : x / y;
}
/* __exp10f is ex2.approx of x log2(10); the host gives exp10f's value */
MT_RT float mt_nv_fast_exp10f(float x) { return (float)pow(10.0, (double)x); }
/* 1/sqrt(x) rounded to nearest: the double quotient rounded once is the
 * correctly rounded float for every float x (checked exhaustively with an
 * exact integer midpoint test: no 1/sqrt of a float lies near enough to a
 * midpoint for the double's error to matter); +-0 give +-inf */
MT_RT float mt_nv_frsqrt_rn(float x) { return (float)(1.0 / sqrt((double)x)); }
/* 1 for a set sign bit: libdevice's value (its code is bits >> 31, as
 * nvcc 13.0's PTX shows), which the GPU check against Triton is to confirm */
MT_RT int mt_nv_signbitf(float x) { return signbit(x) ? 1 : 0; }
MT_RT int mt_nv_signbitd(double x) { return signbit(x) ? 1 : 0; }
MT_RT int mt_nv_finitef(float x) { return isfinite(x) ? 1 : 0; }
MT_RT int mt_nv_isfinited(double x) { return isfinite(x) ? 1 : 0; }
/* CUDA documents (and libdevice computes) INT_MIN for 0 and NaN, INT_MAX
 * for infinities; C leaves 0 and NaN to FP_ILOGB0/FP_ILOGBNAN */
MT_RT int mt_nv_ilogb(double x) {
    return x == 0 || isnan(x) ? INT_MIN : isinf(x) ? INT_MAX : ilogb(x);
}
MT_RT int mt_nv_ilogbf(float x) { return mt_nv_ilogb(x); }

/* ---- special functions ----
 * f32 forms (MT_LR_F1) are the f64 function of the widened argument,
 * rounded once: double's error is far below float's half ulp. */
#define MT_LR_F1(N)                                                                    \
    MT_RT float mt_nv_##N##f(float x) { return (float)mt_nv_##N((double)x); }
#define MT_LR_PI 3.141592653589793
#define MT_LR_PI_LO 1.2246467991473532e-16 /* pi - MT_LR_PI */
#define MT_LR_SQRTPI_2 0.886226925452758   /* sqrt(pi) / 2 */
#define MT_LR_1_SQRTPI 0.5641895835477563
#define MT_LR_SQRT2 1.4142135623730951
#define MT_LR_SQRT1_2 0.7071067811865476
#define MT_LR_SQRT1_2_LO (-4.833646656726457e-17) /* 1/sqrt(2) - MT_LR_SQRT1_2 */

/* sin(pi a), or cos(pi a) when c, for 0 <= a <= 1/4: pi a as the
 * double-double h + l, so that pi's rounding costs nothing */
MT_RT double mt_lr_sinpi_red(double a, int c) {
    double h = MT_LR_PI * a, l = fma(MT_LR_PI, a, -h) + MT_LR_PI_LO * a;
    return c ? cos(h) - l * sin(h) : sin(h) + l * cos(h);
}
/* remainder(x, 2) is exact: |r| <= 1, and the quadrant's reflection
 * (0.5 - a, 1 - a) is exact too, so whole and half-integers give exact 0
 * and 1.  Zeros are signed as IEEE 754's sinPi/cosPi: sinpi(n) has the
 * sign of n, cospi(n + 1/2) is +0. */
MT_RT double mt_nv_sinpi(double x) {
    double r = remainder(fabs(x), 2.0), a = fabs(r);
    double s = a <= 0.25   ? mt_lr_sinpi_red(a, 0)
               : a <= 0.75 ? mt_lr_sinpi_red(fabs(0.5 - a), 1)
                           : mt_lr_sinpi_red(1.0 - a, 0);
    if (s == 0)
        return copysign(0.0, x);
    return (r < 0) != (x < 0) ? -s : s;
}
MT_RT double mt_nv_cospi(double x) {
    double a = fabs(remainder(x, 2.0));
    if (a <= 0.25)
        return mt_lr_sinpi_red(a, 1);
    if (a <= 0.75) {
        double s = mt_lr_sinpi_red(fabs(0.5 - a), 0);
        return a > 0.5 ? -s : s;
    }
    return -mt_lr_sinpi_red(1.0 - a, 1);
}
/* 10 is exact, and pow is accurate to within an ulp */
MT_RT double mt_nv_exp10(double x) { return pow(10.0, x); }
MT_RT double mt_nv_acosh(double x) { return acosh(x); }
MT_RT double mt_nv_asinh(double x) { return asinh(x); }
MT_RT double mt_nv_atanh(double x) { return atanh(x); }
/* 1/cbrt(x) is within 3 ulp; one Newton step r - r (x r^3 - 1) / 3, with
 * x r^3 - 1 from exact products (x r = th + tl, r^2 = h + l), brings it
 * within one */
MT_RT double mt_nv_rcbrt(double x) {
    double r = 1.0 / cbrt(x);
    if (x == 0 || !isfinite(x))
        return r;
    double h = r * r, l = fma(r, r, -h), th = x * r, tl = fma(x, r, -th);
    return r - r * ((fma(th, h, -1.0) + th * l + tl * h) / 3);
}
MT_RT double mt_nv_logb(double x) { return logb(x); }
/* lgamma_r: plain lgamma writes the global signgam, a data race between
 * the host backend's threads */
MT_RT double mt_nv_lgamma(double x) {
    int sign;
    return lgamma_r(x, &sign);
}
MT_RT double mt_nv_tgamma(double x) { return tgamma(x); }
MT_RT double mt_nv_j0(double x) { return j0(x); }
MT_RT double mt_nv_j1(double x) { return j1(x); }
MT_RT double mt_nv_y0(double x) { return y0(x); }
MT_RT double mt_nv_y1(double x) { return y1(x); }
/* CUDA: NaN for a negative order (C's jn and yn reflect it) */
MT_RT double mt_nv_jn(int n, double x) { return n < 0 ? NAN : jn(n, x); }
MT_RT double mt_nv_yn(int n, double x) { return n < 0 ? NAN : yn(n, x); }
MT_RT float mt_nv_jnf(int n, float x) { return (float)mt_nv_jn(n, (double)x); }
MT_RT float mt_nv_ynf(int n, float x) { return (float)mt_nv_yn(n, (double)x); }

/* I_nu(x), nu 0 or 1.  Below 20, the power series
 * (x/2)^nu sum_k q^k / (k! (k+nu)!), q = x^2/4: its terms are positive
 * and summed with their rounding errors (c); the rounding d of q scales
 * term k by (1 + d)^k, which d sum_k k t_k undoes.  From 20 on, the
 * asymptotic series e^x / sqrt(2 pi x) (1 + sum_k c_k / x^k),
 * c_k = c_(k-1) ((2k-1)^2 - 4nu^2) / 8k, whose terms fall below 2^-56
 * before they would grow; e^x is taken in halves past exp's overflow
 * (709.78), up to I0's (713.98). */
MT_RT double mt_lr_bessel_i(double x, int nu) {
    double ax = fabs(x), r;
    if (isnan(x))
        return x;
    if (!(ax < 714.0))
        return nu ? copysign(INFINITY, x) : INFINITY;
    if (ax < 20) {
        double h = 0.5 * ax, q = h * h, d = q > 0 ? fma(h, h, -q) / q : 0;
        double t = nu ? h : 1.0, s = t, c = 0, sk = 0;
        for (int k = 1; k < 100 && t > s * 0x1p-56; k++) {
            t *= q / ((double)k * (k + nu));
            double y = s + t;
            c += s >= t ? (s - y) + t : (t - y) + s;
            s = y;
            sk += k * t;
        }
        r = s + (c + d * sk);
    } else {
        double t = 1.0, tail = 0, e = exp(ax < 709 ? ax : 0.5 * ax);
        for (int k = 1; k < 60 && fabs(t) > 0x1p-56; k++) {
            t *= ((2.0 * k - 1) * (2.0 * k - 1) - 4 * nu) / (8.0 * k * ax);
            tail += t;
        }
        r = (1.0 + tail) / sqrt(2 * MT_LR_PI * ax);
        r = ax < 709 ? e * r : e * (e * r);
    }
    return nu ? copysign(r, x) : r;
}
MT_RT double mt_nv_cyl_bessel_i0(double x) { return mt_lr_bessel_i(x, 0); }
MT_RT double mt_nv_cyl_bessel_i1(double x) { return mt_lr_bessel_i(x, 1); }

/* exp(x^2) with x^2 = h + l exactly: rounding x^2 first would cost up to
 * x^2 ulp (700 near overflow) */
MT_RT double mt_lr_expsq(double x) {
    double h = x * x, l = fma(x, x, -h), e = exp(h);
    return isinf(e) ? e : e + e * l;
}
/* erfcx(x) = exp(x^2) erfc(x).  Below 25 erfc is normal and the product
 * is accurate; above, the asymptotic series
 * (1 / (x sqrt(pi))) sum_k (-1)^k (2k-1)!! / (2x^2)^k converges to double
 * precision in under 10 terms (and never overflows); for x < 0,
 * erfcx(x) = 2 exp(x^2) - erfcx(-x), without cancellation (> 1). */
MT_RT double mt_nv_erfcx(double x) {
    double a = fabs(x), y;
    if (isnan(x))
        return x;
    if (a < 25)
        y = mt_lr_expsq(a) * erfc(a);
    else {
        double r = 1.0 / a, t2 = 0.5 * r * r, term = 1.0, sum = 1.0;
        for (int k = 1; k < 20 && fabs(term) > 0x1p-56; k++) {
            term *= -(2 * k - 1) * t2;
            sum += term;
        }
        y = MT_LR_1_SQRTPI * sum / a;
    }
    return x < 0 ? 2.0 * mt_lr_expsq(x) - y : y;
}
/* 0.5 erfc(t), t = -x/sqrt(2) = h + l as a double-double: erfc's relative
 * slope is 2t, so rounding t to h alone would cost 2t^2 ulp (3000 near
 * the subnormal end); erfc(h + l) = erfc(h) - l (2/sqrt(pi)) exp(-h^2) */
MT_RT double mt_nv_normcdf(double x) {
    if (isinf(x))
        return x > 0 ? 1.0 : 0.0;
    double h = -MT_LR_SQRT1_2 * x, l = fma(-MT_LR_SQRT1_2, x, -h) - MT_LR_SQRT1_2_LO * x;
    return 0.5 * (erfc(h) - l * (2 * MT_LR_1_SQRTPI) * exp(-h * h));
}
/* erfinv(x) for |x| <= 1/2: Newton on erf from the series' first two
 * terms, sqrt(pi)/2 (x + pi x^3 / 12); below 2^-26 the cubic term is under
 * half an ulp, and erf's subnormal results would spoil the iteration */
MT_RT double mt_lr_erfinv_mid(double x) {
    double y = MT_LR_SQRTPI_2 * x;
    if (fabs(x) < 0x1p-26)
        return y;
    y *= 1.0 + 0.26179938779914946 * x * x;
    for (int i = 0; i < 8; i++) {
        double d = (erf(y) - x) * MT_LR_SQRTPI_2 * exp(y * y);
        y -= d;
        if (fabs(d) < 0x1p-60 * fabs(y))
            break;
    }
    return y;
}
/* erfcinv(p) for 0 < p <= 1/2: Newton on erfc from the asymptote
 * p ~ exp(-y^2) / (y sqrt(pi)); the step is (erfc(y) - p) sqrt(pi)/2
 * exp(y^2).  Below 2^-1000 erfc(y) and exp(-y^2) near the subnormals, and
 * the step is taken as sqrt(pi)/2 (erfcx(y) - exp(y^2 + log p)), whose
 * terms stay normal down to the smallest subnormal p. */
MT_RT double mt_lr_erfcinv_tail(double p) {
    double lp = log(p), y = sqrt(-lp);
    y = sqrt(-lp - log(y * 1.772453850905516)); /* y sqrt(pi) */
    for (int i = 0; i < 12; i++) {
        double d = p > 0x1p-1000 ? (erfc(y) - p) * exp(y * y)
                                 : mt_nv_erfcx(y) - exp(fma(y, y, lp));
        y += d * MT_LR_SQRTPI_2;
        if (fabs(d) < 0x1p-60 * y)
            break;
    }
    return y;
}
/* 1 - |x| and 2 - p are exact where they are taken (Sterbenz) */
MT_RT double mt_nv_erfinv(double x) {
    double a = fabs(x);
    if (a <= 0.5)
        return mt_lr_erfinv_mid(x);
    if (a < 1)
        return copysign(mt_lr_erfcinv_tail(1.0 - a), x);
    return a == 1 ? copysign(INFINITY, x) : isnan(x) ? x : NAN;
}
MT_RT double mt_nv_erfcinv(double p) {
    if (p > 0 && p <= 0.5)
        return mt_lr_erfcinv_tail(p);
    if (p > 0.5 && p < 1.5)
        return mt_lr_erfinv_mid(1.0 - p);
    if (p >= 1.5 && p < 2)
        return -mt_lr_erfcinv_tail(2.0 - p);
    return p == 0 ? INFINITY : p == 2 ? -INFINITY : isnan(p) ? p : NAN;
}
/* -sqrt(2) erfcinv(2p); normcdfinv(0.5) is taken to be +0 */
MT_RT double mt_nv_normcdfinv(double p) {
    double y = -MT_LR_SQRT2 * mt_nv_erfcinv(2.0 * p);
    return y == 0 ? 0.0 : y;
}

/* ---- norms ----
 * sqrt of the sum of squares (its reciprocal when recip), scaled by the
 * largest magnitude's power of 2 so that nothing overflows or underflows;
 * an infinite argument wins over NaN, as in hypot. */
MT_RT double mt_lr_norm(double a, double b, double c, double d, int recip) {
    if (isinf(a) || isinf(b) || isinf(c) || isinf(d))
        return recip ? 0.0 : INFINITY;
    if (isnan(a + b + c + d))
        return a + b + c + d;
    double m = fmax(fmax(fabs(a), fabs(b)), fmax(fabs(c), fabs(d)));
    if (m == 0)
        return recip ? INFINITY : 0.0;
    int e;
    (void)frexp(m, &e);
    a = ldexp(a, -e), b = ldexp(b, -e), c = ldexp(c, -e), d = ldexp(d, -e);
    double s = sqrt(fma(a, a, fma(b, b, fma(c, c, d * d))));
    return recip ? ldexp(1.0 / s, -e) : ldexp(s, e);
}
MT_RT double mt_nv_rhypot(double x, double y) { return mt_lr_norm(x, y, 0, 0, 1); }
MT_RT double mt_nv_norm3d(double a, double b, double c) { return mt_lr_norm(a, b, c, 0, 0); }
MT_RT double mt_nv_rnorm3d(double a, double b, double c) { return mt_lr_norm(a, b, c, 0, 1); }
MT_RT double mt_nv_norm4d(double a, double b, double c, double d) {
    return mt_lr_norm(a, b, c, d, 0);
}
MT_RT double mt_nv_rnorm4d(double a, double b, double c, double d) {
    return mt_lr_norm(a, b, c, d, 1);
}
MT_RT float mt_nv_rhypotf(float x, float y) { return (float)mt_lr_norm(x, y, 0, 0, 1); }
MT_RT float mt_nv_norm3df(float a, float b, float c) { return (float)mt_lr_norm(a, b, c, 0, 0); }
MT_RT float mt_nv_rnorm3df(float a, float b, float c) {
    return (float)mt_lr_norm(a, b, c, 0, 1);
}
MT_RT float mt_nv_norm4df(float a, float b, float c, float d) {
    return (float)mt_lr_norm(a, b, c, d, 0);
}
MT_RT float mt_nv_rnorm4df(float a, float b, float c, float d) {
    return (float)mt_lr_norm(a, b, c, d, 1);
}

#endif /* the host */

/* CUDA's and C's functions of these names agree (both IEEE) */
MT_RT float mt_nv_nextafterf(float x, float y) { return nextafterf(x, y); }
MT_RT double mt_nv_nextafter(double x, double y) { return nextafter(x, y); }
MT_RT float mt_nv_remainderf(float x, float y) { return remainderf(x, y); }
MT_RT double mt_nv_remainder(double x, double y) { return remainder(x, y); }
MT_RT float mt_nv_fdimf(float x, float y) { return fdimf(x, y); }
MT_RT double mt_nv_fdim(double x, double y) { return fdim(x, y); }
MT_RT float mt_nv_ldexpf(float x, int n) { return ldexpf(x, n); }
MT_RT double mt_nv_ldexp(double x, int n) { return ldexp(x, n); }
MT_RT float mt_nv_scalbnf(float x, int n) { return scalbnf(x, n); }
MT_RT double mt_nv_scalbn(double x, int n) { return scalbn(x, n); }

/* ---- the families, through the generators above ---- */
MT_LR_MODES(MT_LR_GEN_BIN, float, fadd, MT_LR_ADD)
MT_LR_MODES(MT_LR_GEN_BIN, double, dadd, MT_LR_ADD)
MT_LR_MODES(MT_LR_GEN_BIN, float, fsub, MT_LR_SUB)
MT_LR_MODES(MT_LR_GEN_BIN, double, dsub, MT_LR_SUB)
MT_LR_MODES(MT_LR_GEN_BIN, float, fmul, MT_LR_MUL)
MT_LR_MODES(MT_LR_GEN_BIN, double, dmul, MT_LR_MUL)
MT_LR_MODES3(MT_LR_GEN_BIN, float, fdiv, MT_LR_DIV)
MT_LR_MODES3(MT_LR_GEN_BIN, double, ddiv, MT_LR_DIV)
MT_LR_MODES(MT_LR_GEN_FMA, float, fmaf)
MT_LR_MODES(MT_LR_GEN_FMA, double, fma)
MT_LR_MODES(MT_LR_GEN_UN, float, frcp, MT_LR_DIV, 1, a)
MT_LR_MODES(MT_LR_GEN_UN, double, drcp, MT_LR_DIV, 1, a)
MT_LR_MODES3(MT_LR_GEN_UN, float, fsqrt, MT_LR_SQRT, a, 0)
MT_LR_MODES3(MT_LR_GEN_UN, double, dsqrt, MT_LR_SQRT, a, 0)

MT_LR_MODES(MT_LR_GEN_D2F, float, double2float, double)
MT_LR_MODES(MT_LR_GEN_F2I, int, double2int, double, 32, 1)
MT_LR_MODES(MT_LR_GEN_F2I, int, double2uint, double, 32, 0)
MT_LR_MODES(MT_LR_GEN_F2I, int, float2int, float, 32, 1)
MT_LR_MODES(MT_LR_GEN_F2I, int, float2uint, float, 32, 0)
MT_LR_MODES(MT_LR_GEN_F2I, long long, float2ll, float, 64, 1)
MT_LR_MODES(MT_LR_GEN_F2I, long long, float2ull, float, 64, 0)
MT_LR_MODES(MT_LR_GEN_F2I, long long, double2ll, double, 64, 1)
MT_LR_MODES(MT_LR_GEN_F2I, long long, double2ull, double, 64, 0)
MT_LR_GEN_I2F(rn, double, int2double, int, 53, MT_LR_SIGNED)
MT_LR_GEN_I2F(rn, double, uint2double, unsigned, 53, MT_LR_UNSIGNED)
MT_LR_MODES(MT_LR_GEN_I2F, float, int2float, int, 24, MT_LR_SIGNED)
MT_LR_MODES(MT_LR_GEN_I2F, float, uint2float, unsigned, 24, MT_LR_UNSIGNED)
MT_LR_MODES(MT_LR_GEN_I2F, float, ll2float, long long, 24, MT_LR_SIGNED)
MT_LR_MODES(MT_LR_GEN_I2F, float, ull2float, unsigned long long, 24, MT_LR_UNSIGNED)
MT_LR_MODES(MT_LR_GEN_I2F, double, ll2double, long long, 53, MT_LR_SIGNED)
MT_LR_MODES(MT_LR_GEN_I2F, double, ull2double, unsigned long long, 53, MT_LR_UNSIGNED)

MT_LR_F1(sinpi)
MT_LR_F1(cospi)
MT_LR_F1(exp10)
MT_LR_F1(acosh)
MT_LR_F1(asinh)
MT_LR_F1(atanh)
MT_LR_F1(rcbrt)
MT_LR_F1(logb)
MT_LR_F1(lgamma)
MT_LR_F1(tgamma)
MT_LR_F1(j0)
MT_LR_F1(j1)
MT_LR_F1(y0)
MT_LR_F1(y1)
MT_LR_F1(cyl_bessel_i0)
MT_LR_F1(cyl_bessel_i1)
MT_LR_F1(erfcx)
MT_LR_F1(erfinv)
MT_LR_F1(erfcinv)
MT_LR_F1(normcdf)
MT_LR_F1(normcdfinv)

/* ---- the flush-to-zero forms Triton calls ----
 * Triton links libdevice with nvvm-reflect's __CUDA_FTZ set, so its f32
 * functions take their flush-to-zero paths (add.rz.ftz.f32,
 * cvt.rpi.ftz.s32.f32, ...): an f32 operand or result that is subnormal
 * is a zero of its sign.  mt_nv_<sym>_ftz is that: the function above on
 * flushed operands, its f32 result flushed.  For one instruction this is
 * the .ftz instruction exactly; for a special function it flushes what
 * enters and leaves, not its inner steps.  libdevice.def's Z rows are the
 * symbols whose PTX -ftz=true changes (nvcc 13.0, sm_90). */
#define MT_LR_Z1(N)                                                                    \
    MT_RT float mt_nv_##N##_ftz(float a) { return mt_ftzf(mt_nv_##N(mt_ftzf(a))); }
#define MT_LR_Z2(N)                                                                    \
    MT_RT float mt_nv_##N##_ftz(float a, float b) {                                    \
        return mt_ftzf(mt_nv_##N(mt_ftzf(a), mt_ftzf(b)));                       \
    }
#define MT_LR_Z3(N)                                                                    \
    MT_RT float mt_nv_##N##_ftz(float a, float b, float c) {                           \
        return mt_ftzf(mt_nv_##N(mt_ftzf(a), mt_ftzf(b), mt_ftzf(c)));         \
    }
#define MT_LR_Z4(N)                                                                    \
    MT_RT float mt_nv_##N##_ftz(float a, float b, float c, float d) {                  \
        return mt_ftzf(mt_nv_##N(mt_ftzf(a), mt_ftzf(b), mt_ftzf(c), mt_ftzf(d))); \
    }
#define MT_LR_ZD(N)                                                                    \
    MT_RT float mt_nv_##N##_ftz(double a) { return mt_ftzf(mt_nv_##N(a)); }
#define MT_LR_ZI(N)                                                                    \
    MT_RT int mt_nv_##N##_ftz(float a) { return mt_nv_##N(mt_ftzf(a)); }
#define MT_LR_ZL(N)                                                                    \
    MT_RT long long mt_nv_##N##_ftz(float a) { return mt_nv_##N(mt_ftzf(a)); }
#define MT_LR_ZNF(N)                                                                   \
    MT_RT float mt_nv_##N##_ftz(int n, float a) { return mt_ftzf(mt_nv_##N(n, mt_ftzf(a))); }
#define MT_LR_ZFN(N)                                                                   \
    MT_RT float mt_nv_##N##_ftz(float a, int n) { return mt_ftzf(mt_nv_##N(mt_ftzf(a), n)); }
MT_LR_Z1(fabsf) MT_LR_Z1(saturatef) MT_LR_Z1(frcp_rn) MT_LR_Z1(frcp_rz) MT_LR_Z1(frcp_rd)
MT_LR_Z1(frcp_ru) MT_LR_Z1(fsqrt_rz) MT_LR_Z1(fsqrt_rd) MT_LR_Z1(fsqrt_ru)
MT_LR_Z1(fast_exp10f) MT_LR_Z1(frsqrt_rn) MT_LR_Z1(sinpif) MT_LR_Z1(cospif)
MT_LR_Z1(exp10f) MT_LR_Z1(acoshf) MT_LR_Z1(asinhf) MT_LR_Z1(atanhf) MT_LR_Z1(rcbrtf)
MT_LR_Z1(j0f) MT_LR_Z1(j1f) MT_LR_Z1(y0f) MT_LR_Z1(y1f) MT_LR_Z1(cyl_bessel_i0f)
MT_LR_Z1(cyl_bessel_i1f) MT_LR_Z1(erfinvf) MT_LR_Z1(erfcxf) MT_LR_Z1(erfcinvf)
MT_LR_Z1(normcdfinvf) MT_LR_Z1(normcdff) MT_LR_Z1(lgammaf) MT_LR_Z1(tgammaf)
MT_LR_Z1(logbf)
MT_LR_Z3(fmaf_rn) MT_LR_Z3(fmaf_rz) MT_LR_Z3(fmaf_rd) MT_LR_Z3(fmaf_ru) MT_LR_Z3(norm3df)
MT_LR_Z3(rnorm3df)
MT_LR_Z2(fast_fdividef) MT_LR_Z2(fdiv_rz) MT_LR_Z2(fdiv_rd) MT_LR_Z2(fdiv_ru)
MT_LR_Z2(fadd_rn) MT_LR_Z2(fadd_rz) MT_LR_Z2(fadd_rd) MT_LR_Z2(fadd_ru) MT_LR_Z2(fmul_rn)
MT_LR_Z2(fmul_rz) MT_LR_Z2(fmul_rd) MT_LR_Z2(fmul_ru) MT_LR_Z2(fsub_rn) MT_LR_Z2(fsub_rz)
MT_LR_Z2(fsub_rd) MT_LR_Z2(fsub_ru) MT_LR_Z2(nextafterf) MT_LR_Z2(rhypotf)
MT_LR_Z2(remainderf) MT_LR_Z2(fdimf)
MT_LR_ZD(double2float_rn) MT_LR_ZD(double2float_rz) MT_LR_ZD(double2float_rd)
MT_LR_ZD(double2float_ru)
MT_LR_ZI(float2int_rn) MT_LR_ZI(float2int_rz) MT_LR_ZI(float2int_rd) MT_LR_ZI(float2int_ru)
MT_LR_ZI(float2uint_rn) MT_LR_ZI(float2uint_rz) MT_LR_ZI(float2uint_rd)
MT_LR_ZI(float2uint_ru) MT_LR_ZI(finitef) MT_LR_ZI(ilogbf)
MT_LR_ZL(float2ll_rn) MT_LR_ZL(float2ll_rz) MT_LR_ZL(float2ll_rd) MT_LR_ZL(float2ll_ru)
MT_LR_ZL(float2ull_rn) MT_LR_ZL(float2ull_rz) MT_LR_ZL(float2ull_rd) MT_LR_ZL(float2ull_ru)
MT_LR_ZL(llrintf) MT_LR_ZL(llroundf)
MT_LR_Z4(norm4df) MT_LR_Z4(rnorm4df)
MT_LR_ZNF(ynf) MT_LR_ZNF(jnf)
MT_LR_ZFN(ldexpf) MT_LR_ZFN(scalbnf)
#undef MT_LR_Z1
#undef MT_LR_Z2
#undef MT_LR_Z3
#undef MT_LR_Z4
#undef MT_LR_ZD
#undef MT_LR_ZI
#undef MT_LR_ZL
#undef MT_LR_ZNF
#undef MT_LR_ZFN

#undef MT_LR_MODES3
#undef MT_LR_MODES
#undef MT_LR_GEN_BIN
#undef MT_LR_GEN_UN
#undef MT_LR_GEN_FMA
#undef MT_LR_GEN_D2F
#undef MT_LR_GEN_F2I
#undef MT_LR_GEN_I2F
#undef MT_LR_F1
#ifdef MT_LR_OWN_RT
#undef MT_RT
#undef MT_LR_OWN_RT
#endif

#endif /* MT_LIBDEVICE_RT_H */
