/* mt_kernel_rt.h: the dtype conversions generated kernels call, for NVRTC
 * and for the host backend.
 *
 * Input: values as the generated CUDA C holds them: fp16, bf16 and fp8 in
 * `float` registers (always a value the narrow type represents exactly),
 * in memory as their bit patterns (unsigned short, unsigned char); fp32,
 * fp64 and integers as themselves.  Output: the bits Triton 3.6 produces
 * for the same cast on sm_90, for every input: NaN, infinities, -0.0,
 * out-of-range values included.  Every rule below was read off Triton's
 * results on an H200 (tests/gpu/check_conversions.py records them; the
 * unit test test_kernel_rt.c checks this file against that record).
 *
 * Invariants:
 *   - each function has two bodies: under __CUDA_ARCH__ the PTX cvt
 *     instruction Triton itself emits (so fp16/bf16 kernels run at
 *     bandwidth), elsewhere plain integer arithmetic on the bits giving the
 *     same bits; where an instruction needs a newer GPU than the one
 *     compiled for, the device uses the software body too;
 *   - no C undefined behaviour on any input: a float is never converted to
 *     an integer type that cannot hold its truncated value, and signed
 *     results are formed from unsigned ones;
 *   - valid C11 (static inline) as well as C++ (NVRTC, the host C++17
 *     compiler), using no header under CUDA and only <string.h> and
 *     <math.h> elsewhere, so the unit tests and the constant folder can
 *     include it directly; C++ alone gets the overloads (mt_umulhi). */
#ifndef MT_KERNEL_RT_H
#define MT_KERNEL_RT_H

#if defined(__CUDACC__)
#define MT_RT static __device__ __forceinline__
#else
#include <math.h>
#include <string.h>
#define MT_RT static inline
#endif

/* MT_RT_SOFTWARE: the software bodies on the GPU too (what an older GPU
 * gets; tests/gpu/check_conversions.py checks them there) */
#if defined(__CUDA_ARCH__) && !defined(MT_RT_SOFTWARE)
#define MT_RT_SM(n) (__CUDA_ARCH__ >= (n))
#else
#define MT_RT_SM(n) 0
#endif

/* ---- bit access ---- */

#if defined(__CUDA_ARCH__)
MT_RT unsigned mt_rt_fbits(float f) { return __float_as_uint(f); }
MT_RT float mt_rt_ffrom(unsigned u) { return __uint_as_float(u); }
MT_RT long long mt_f64_bits(double d) { return __double_as_longlong(d); }
MT_RT double mt_f64_from_bits(long long v) { return __longlong_as_double(v); }
#else
MT_RT unsigned mt_rt_fbits(float f) {
    unsigned u;
    memcpy(&u, &f, sizeof u);
    return u;
}
MT_RT float mt_rt_ffrom(unsigned u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
MT_RT long long mt_f64_bits(double d) {
    long long v;
    memcpy(&v, &d, sizeof v);
    return v;
}
MT_RT double mt_f64_from_bits(long long v) {
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}
#endif

#define MT_RT_F32_NAN 0x7fffffffu /* the NaN every cvt to f32 produces */

/* ---- the one rounding routine behind every narrowing ----
 * The value m * 2^e2 (m > 0, its top bit at bit msb) rounded to a binary
 * format of M mantissa bits and exponent bias B, with subnormals: the
 * magnitude bits of the result, possibly at or past the format's infinity
 * (the caller saturates or overflows as its instruction does).  Rounding
 * to nearest even, or toward zero when rtz.  Doubles and 64-bit integers
 * go through here directly, so there is one rounding, never two. */
MT_RT unsigned long long mt_rt_round_bits(unsigned long long m, int msb, int e2,
                                          int M, int B, int rtz) {
    int E = msb + e2, emin = 1 - B;
    /* normal: shift the top bit to the implicit-bit position M; a value
     * below the normal range is shifted further, to units of 2^(emin-M) */
    int shift = msb - M + (E < emin ? emin - E : 0);
    unsigned long long q;
    if (shift <= 0)
        q = m << -shift;
    else if (shift > 63)
        q = 0; /* below half the smallest subnormal, as m < 2^63 */
    else {
        q = m >> shift;
        unsigned long long rem = m & ((1ull << shift) - 1), half = 1ull << (shift - 1);
        if (!rtz && (rem > half || (rem == half && (q & 1))))
            q++;
    }
    /* q holds the implicit bit, so adding it carries into the exponent */
    if (E < emin)
        return q;
    return ((unsigned long long)(E + B - 1) << M) + q;
}

/* A finite nonzero double as (m, msb, e2) for mt_rt_round_bits; doubles
 * below 2^-1022 are far below every narrow format and round to zero. */
MT_RT unsigned long long mt_rt_round_f64(unsigned long long abits, int M, int B, int rtz) {
    int e = (int)(abits >> 52);
    if (e == 0)
        return 0;
    return mt_rt_round_bits((abits & 0xfffffffffffffull) | (1ull << 52), 52, e - 1075, M, B,
                            rtz);
}

MT_RT unsigned long long mt_rt_round_u64(unsigned long long u, int M, int B) {
    if (u == 0)
        return 0;
    int msb = 0;
    for (int s = 32; s > 0; s >>= 1)
        if (u >> (msb + s))
            msb += s;
    return mt_rt_round_bits(u, msb, 0, M, B, 0);
}

/* ---- fp16 ---- */

/* cvt.f32.f16: exact; every NaN becomes the canonical 0x7fffffff. */
MT_RT float mt_f16_to_f32(unsigned short h) {
#if MT_RT_SM(530)
    float f;
    asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    unsigned s = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 31)
        return mt_rt_ffrom(m ? MT_RT_F32_NAN : s | 0x7f800000u);
    if (e == 0) { /* subnormal: m * 2^-24, exact in float */
        float v = (float)m * 5.9604644775390625e-8f;
        return mt_rt_ffrom(s | mt_rt_fbits(v));
    }
    return mt_rt_ffrom(s | ((e + 112) << 23) | (m << 13));
#endif
}

/* The bits of a non-NaN double in a narrow IEEE format (M mantissa bits,
 * bias B, infinity `inf`), rounded once; overflow gives infinity (rn) or
 * the largest finite value (rz), as cvt does. */
MT_RT unsigned short mt_rt_narrow(unsigned long long dbits, int rtz, int M, int B,
                                  unsigned inf) {
    unsigned short s = (unsigned short)((dbits >> 48) & 0x8000u);
    unsigned long long a = dbits & 0x7fffffffffffffffull;
    if (a == 0x7ff0000000000000ull)
        return (unsigned short)(s | inf);
    unsigned long long r = mt_rt_round_f64(a, M, B, rtz);
    if (r >= inf)
        r = rtz ? inf - 1 : inf;
    return (unsigned short)(s | r);
}
MT_RT unsigned short mt_rt_to_f16(unsigned long long dbits, int rtz) {
    return mt_rt_narrow(dbits, rtz, 10, 15, 0x7c00u);
}
MT_RT unsigned short mt_rt_to_bf16(unsigned long long dbits, int rtz) {
    return mt_rt_narrow(dbits, rtz, 7, 127, 0x7f80u);
}

/* cvt.rn.f16.f32: round to nearest even; every NaN becomes 0x7fff. */
MT_RT unsigned short mt_f32_to_f16(float f) {
#if MT_RT_SM(530)
    unsigned short h;
    asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    if ((mt_rt_fbits(f) & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return mt_rt_to_f16((unsigned long long)mt_f64_bits((double)f), 0);
#endif
}

/* cvt.rz.f16.f32 (fp_downcast_rounding="rtz"): finite values past 65504
 * give 65504, infinities stay infinite, NaN gives 0x7fff. */
MT_RT unsigned short mt_f32_to_f16_rtz(float f) {
#if MT_RT_SM(530)
    unsigned short h;
    asm("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    if ((mt_rt_fbits(f) & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return mt_rt_to_f16((unsigned long long)mt_f64_bits((double)f), 1);
#endif
}

/* cvt.rn.f16.f64: one rounding straight from double.  Unlike the f32
 * source, a NaN keeps its sign and the top of its payload, made quiet. */
MT_RT unsigned short mt_f64_to_f16(double d) {
#if MT_RT_SM(900)
    unsigned short h;
    asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d));
    return h;
#else
    unsigned long long b = (unsigned long long)mt_f64_bits(d);
    if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        return (unsigned short)(((b >> 48) & 0x8000u) | 0x7e00u | ((b >> 42) & 0x3ffu));
    return mt_rt_to_f16(b, 0);
#endif
}

/* ---- bf16 ---- */

/* cvt.f32.bf16: a shift; NaN payloads (even signalling ones) survive. */
MT_RT float mt_bf16_to_f32(unsigned short h) {
#if MT_RT_SM(900)
    float f;
    asm("cvt.f32.bf16 %0, %1;" : "=f"(f) : "h"(h));
    return f;
#else
    return mt_rt_ffrom((unsigned)h << 16);
#endif
}

/* cvt.rn.bf16.f32: round to nearest even, subnormals kept; NaN -> 0x7fff. */
MT_RT unsigned short mt_f32_to_bf16(float f) {
#if MT_RT_SM(800)
    unsigned short h;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    unsigned u = mt_rt_fbits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
#endif
}

/* Two values rounded at once, lo in the low half: cvt.rn.{f16,bf16}x2.f32
 * (sm_80 on, the form Triton emits; see emit_paired_cast), else the
 * one-value conversions, which round alike. */
MT_RT unsigned mt_f32x2_to_f16x2(float lo, float hi) {
#if MT_RT_SM(800)
    unsigned r;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
#else
    return (unsigned)mt_f32_to_f16(lo) | (unsigned)mt_f32_to_f16(hi) << 16;
#endif
}
MT_RT unsigned mt_f32x2_to_bf16x2(float lo, float hi) {
#if MT_RT_SM(800)
    unsigned r;
    asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
    return r;
#else
    return (unsigned)mt_f32_to_bf16(lo) | (unsigned)mt_f32_to_bf16(hi) << 16;
#endif
}

/* cvt.rz.bf16.f32: truncation of the low 16 bits; NaN -> 0x7fff. */
MT_RT unsigned short mt_f32_to_bf16_rtz(float f) {
#if MT_RT_SM(800)
    unsigned short h;
    asm("cvt.rz.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
    return h;
#else
    unsigned u = mt_rt_fbits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fff;
    return (unsigned short)(u >> 16);
#endif
}

/* cvt.rn.bf16.f64: one rounding; a NaN keeps sign and payload top, quiet. */
MT_RT unsigned short mt_f64_to_bf16(double d) {
#if MT_RT_SM(900)
    unsigned short h;
    asm("cvt.rn.bf16.f64 %0, %1;" : "=h"(h) : "d"(d));
    return h;
#else
    unsigned long long b = (unsigned long long)mt_f64_bits(d);
    if ((b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        return (unsigned short)(((b >> 48) & 0x8000u) | 0x7fc0u | ((b >> 45) & 0x7fu));
    return mt_rt_to_bf16(b, 0);
#endif
}

/* ---- fp8 (storage only; Triton converts them from and to f32/f16/bf16) ---- */

/* e4m3fn through cvt.rn.f16x2.e4m3x2 and cvt.f32.f16, as Triton lowers
 * it: no infinities; 0x7f and 0xff are NaN and give 0x7fffffff. */
MT_RT float mt_f8e4nv_to_f32(unsigned char b) {
#if MT_RT_SM(890)
    unsigned r;
    unsigned short in = b;
    asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(r) : "h"(in));
    return mt_f16_to_f32((unsigned short)(r & 0xffffu));
#else
    unsigned s = (unsigned)(b & 0x80u) << 24, e = (b >> 3) & 0xfu, m = b & 7u;
    if ((b & 0x7fu) == 0x7fu)
        return mt_rt_ffrom(MT_RT_F32_NAN);
    if (e == 0) /* subnormal: m * 2^-9 */
        return mt_rt_ffrom(s | mt_rt_fbits((float)m * 0.001953125f));
    return mt_rt_ffrom(s | ((e + 120) << 23) | (m << 20));
#endif
}

/* cvt.rn.satfinite.e4m3x2.f32: round to nearest even, then magnitudes past
 * 448 (infinities too) saturate to +-448; every NaN gives 0x7f. */
MT_RT unsigned char mt_f32_to_f8e4nv(float f) {
#if MT_RT_SM(890)
    unsigned short r;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f));
    return (unsigned char)(r & 0xffu);
#else
    unsigned u = mt_rt_fbits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7f;
    unsigned long long r = 0x7e; /* saturated */
    if ((u & 0x7fffffffu) < 0x7f800000u)
        r = mt_rt_round_f64((unsigned long long)mt_f64_bits((double)f) & 0x7fffffffffffffffull,
                            3, 7, 0);
    return (unsigned char)(((u >> 24) & 0x80u) | (r > 0x7eu ? 0x7eu : r));
#endif
}

/* e5m2 is the top byte of an fp16; through cvt.rn.f16x2.e5m2x2 every NaN
 * (0x7d-0x7f, 0xfd-0xff) gives 0x7fffffff, 0x7c/0xfc are infinities. */
MT_RT float mt_f8e5_to_f32(unsigned char b) {
#if MT_RT_SM(890)
    unsigned r;
    unsigned short in = b;
    asm("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(r) : "h"(in));
    return mt_f16_to_f32((unsigned short)(r & 0xffffu));
#else
    if ((b & 0x7fu) > 0x7cu)
        return mt_rt_ffrom(MT_RT_F32_NAN);
    return mt_f16_to_f32((unsigned short)(b << 8));
#endif
}

/* cvt.rn.satfinite.e5m2x2.f32: round to nearest even, magnitudes past
 * 57344 (infinities too) saturate to +-57344; every NaN gives 0x7f. */
MT_RT unsigned char mt_f32_to_f8e5(float f) {
#if MT_RT_SM(890)
    unsigned short r;
    asm("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(r) : "f"(0.0f), "f"(f));
    return (unsigned char)(r & 0xffu);
#else
    unsigned u = mt_rt_fbits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7f;
    unsigned long long r = 0x7b;
    if ((u & 0x7fffffffu) < 0x7f800000u)
        r = mt_rt_round_f64((unsigned long long)mt_f64_bits((double)f) & 0x7fffffffffffffffull,
                            2, 15, 0);
    return (unsigned char)(((u >> 24) & 0x80u) | (r > 0x7bu ? 0x7bu : r));
#endif
}

/* fp_downcast_rounding="rtz" to e5m2: Triton truncates to fp16
 * (cvt.rz.f16.f32) and keeps the top byte, so unlike the rn cast it does
 * not saturate infinities (+-inf -> 0x7c/0xfc) and finite values past
 * 57344 give +-57344.  Triton refuses "rtz" for e4m3 (no lowering). */
MT_RT unsigned char mt_f32_to_f8e5_rtz(float f) {
    return (unsigned char)(mt_f32_to_f16_rtz(f) >> 8);
}

/* e5m2 -> bf16 as Triton 3.6 lowers it (a bit manipulation that does not
 * know e5m2's exponent 31): 0x7c (inf) gives 65536 and the NaN codes give
 * finite values, sign kept.  Differs from rounding mt_f8e5_to_f32 only
 * there (ctext.c's conversion of e5m2 to bf16 calls it). */
MT_RT unsigned short mt_f8e5_to_bf16(unsigned char b) {
    unsigned short s = (unsigned short)((b & 0x80u) << 8);
    unsigned e = (b >> 2) & 0x1fu, m = b & 3u;
    if (e == 0) { /* subnormal m * 2^-16 */
        if (m == 0)
            return s;
        return (unsigned short)(s | (m == 1 ? 0x3780u : m == 2 ? 0x3800u : 0x3840u));
    }
    return (unsigned short)(s | ((e + 112) << 7) | (m << 5));
}

/* ---- register rounding: x to the narrow type (RNE) and back ---- */

MT_RT float mt_round_f16(float x) { return mt_f16_to_f32(mt_f32_to_f16(x)); }
MT_RT float mt_round_bf16(float x) { return mt_bf16_to_f32(mt_f32_to_bf16(x)); }
MT_RT float mt_round_f8e4nv(float x) { return mt_f8e4nv_to_f32(mt_f32_to_f8e4nv(x)); }
MT_RT float mt_round_f8e5(float x) { return mt_f8e5_to_f32(mt_f32_to_f8e5(x)); }

/* ---- f32 <-> f64: cvt.f64.f32 and cvt.rn.f32.f64 without .ftz ----
 * Triton keeps subnormals and NaN payloads (made quiet) both ways; a C
 * cast compiled with flush-to-zero (nvcc/NVRTC -ftz=true, fast math)
 * flushes them and makes NaN canonical, so the instruction is spelled out.
 * On the host the C casts do exactly this (x86 SSE, no flushing). */

MT_RT double mt_f32_to_f64(float f) {
#if MT_RT_SM(100)
    double d;
    asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(f));
    return d;
#else
    return (double)f;
#endif
}

MT_RT float mt_f64_to_f32(double d) {
#if MT_RT_SM(100)
    float f;
    asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f) : "d"(d));
    return f;
#else
    return (float)d;
#endif
}

/* fp_downcast_rounding="rtz" from f64 (cvt.rz.f32.f64): the nearest
 * float, stepped one toward zero when it rounded away; past the largest
 * float that is FLT_MAX, not inf. */
MT_RT float mt_f64_to_f32_rtz(double d) {
#if MT_RT_SM(100)
    float f;
    asm("cvt.rz.f32.f64 %0, %1;" : "=f"(f) : "d"(d));
    return f;
#else
    float f = (float)d;
    double back = (double)f;
    if (d == d && (back > d ? back > 0 && d >= 0 : back < d && d < 0 && back < 0)) {
        unsigned u = mt_rt_fbits(f) - 1u; /* one step toward zero */
        f = mt_rt_ffrom(u);
    }
    return f;
#endif
}

/* ---- loads and stores: a narrow value in a float register, bit-exact ----
 * Triton loads and stores fp16/bf16/fp8 without converting them, so a NaN
 * keeps its exact bits from load to store (torch's fp16 NaN is 0x7e00,
 * bf16's 0x7fc0, which the cvt-based conversions above would turn into
 * 0x7fff).  mt_X_load keeps the narrow NaN's sign and payload in the
 * float's NaN payload and mt_X_store puts them back; a NaN produced by
 * arithmetic (0x7fffffff after mt_round_X) stores as Triton's 0x7fff /
 * 0x7f.  mt_X_store takes only values the type holds exactly (or NaN), as
 * registers of that type always do.  A cast of such a register to f32
 * (x.to(tl.float32)) goes through mt_nan_canon where Triton's cvt makes
 * every NaN 0x7fffffff: fp16 and fp8 sources, not bf16 (a shift). */

MT_RT float mt_nan_canon(float x) {
    return (mt_rt_fbits(x) & 0x7fffffffu) > 0x7f800000u ? mt_rt_ffrom(MT_RT_F32_NAN) : x;
}

MT_RT float mt_f16_load(unsigned short h) {
    if ((h & 0x7fffu) > 0x7c00u)
        return mt_rt_ffrom(((unsigned)(h & 0x8000u) << 16) | 0x7f800000u |
                           ((unsigned)(h & 0x3ffu) << 13));
    return mt_f16_to_f32(h);
}

MT_RT unsigned short mt_f16_store(float x) {
    unsigned u = mt_rt_fbits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        unsigned m = (u >> 13) & 0x3ffu;
        return (unsigned short)(m ? ((u >> 16) & 0x8000u) | 0x7c00u | m : 0x7fffu);
    }
    return mt_f32_to_f16(x);
}

MT_RT float mt_bf16_load(unsigned short h) { return mt_rt_ffrom((unsigned)h << 16); }

MT_RT unsigned short mt_bf16_store(float x) { return (unsigned short)(mt_rt_fbits(x) >> 16); }

MT_RT float mt_f8e4nv_load(unsigned char b) {
    if ((b & 0x7fu) == 0x7fu)
        return mt_rt_ffrom(((unsigned)(b & 0x80u) << 24) | MT_RT_F32_NAN);
    return mt_f8e4nv_to_f32(b);
}

MT_RT unsigned char mt_f8e4nv_store(float x) {
    unsigned u = mt_rt_fbits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (unsigned char)(((u >> 24) & 0x80u) | 0x7fu);
    return mt_f32_to_f8e4nv(x);
}

/* e5m2 is the top byte of an fp16, NaN payload included */
MT_RT float mt_f8e5_load(unsigned char b) { return mt_f16_load((unsigned short)(b << 8)); }

MT_RT unsigned char mt_f8e5_store(float x) {
    unsigned u = mt_rt_fbits(x);
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        unsigned m = (u >> 21) & 3u;
        return (unsigned char)(m ? ((u >> 24) & 0x80u) | 0x7cu | m : 0x7fu);
    }
    /* infinities are e5m2 values: exact, where the satfinite cast clamps */
    return (unsigned char)(mt_f32_to_f16(x) >> 8);
}

/* ---- 64-bit integers -> f16/bf16, rounded once (cvt.rn.{f16,bf16}.{s64,u64});
 * i32/u32 sources widen to these exactly (Triton's cvt.rn.bf16.s32 is
 * one rounding too; going through float would round twice). ---- */

MT_RT unsigned long long mt_rt_mag(long long v) {
    return v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
}

MT_RT unsigned short mt_u64_to_bf16(unsigned long long v) {
#if MT_RT_SM(900)
    unsigned short h;
    asm("cvt.rn.bf16.u64 %0, %1;" : "=h"(h) : "l"(v));
    return h;
#else
    unsigned long long r = mt_rt_round_u64(v, 7, 127);
    return (unsigned short)r; /* 2^64 is far from bf16's overflow */
#endif
}

MT_RT unsigned short mt_i64_to_bf16(long long v) {
#if MT_RT_SM(900)
    unsigned short h;
    asm("cvt.rn.bf16.s64 %0, %1;" : "=h"(h) : "l"(v));
    return h;
#else
    return (unsigned short)((v < 0 ? 0x8000u : 0u) | mt_rt_round_u64(mt_rt_mag(v), 7, 127));
#endif
}

MT_RT unsigned short mt_u64_to_f16(unsigned long long v) {
#if MT_RT_SM(900)
    unsigned short h;
    asm("cvt.rn.f16.u64 %0, %1;" : "=h"(h) : "l"(v));
    return h;
#else
    unsigned long long r = mt_rt_round_u64(v, 10, 15);
    return (unsigned short)(r >= 0x7c00u ? 0x7c00u : r);
#endif
}

MT_RT unsigned short mt_i64_to_f16(long long v) {
#if MT_RT_SM(900)
    unsigned short h;
    asm("cvt.rn.f16.s64 %0, %1;" : "=h"(h) : "l"(v));
    return h;
#else
    unsigned long long r = mt_rt_round_u64(mt_rt_mag(v), 10, 15);
    return (unsigned short)((v < 0 ? 0x8000u : 0u) | (r >= 0x7c00u ? 0x7c00u : r));
#endif
}

/* ---- float -> integer, as Triton lowers fptosi/fptoui ----
 * Truncation toward zero, saturating to the range of the instruction's
 * destination: cvt.rzi.{s,u}{16,32,64}; i8/u8 use the 16-bit instruction
 * and keep the low byte (so 300.0 -> i8 44, -1.0 -> u8 0, 1e9 -> u8 255).
 * NaN depends on the source width: from f32 (and fp16/bf16, which Triton
 * converts with the .f16/.bf16 forms, same results) NaN gives 0 for 16/32
 * bits and 0x8000000000000000 for 64; from f64 it gives the top bit of
 * the destination (0x8000, 0x80000000, 0x8000000000000000), i8/u8 then
 * keeping 0.  mt_cvt_X takes an f64 source, mt_cvt_X_f the others. */

/* The saturated, truncated value of a non-NaN x in `width` bits, as the
 * 64-bit pattern (signed results sign-extended); every C conversion here
 * is of a value the target type holds. */
MT_RT unsigned long long mt_rt_sat(double x, int width, int is_signed) {
    if (is_signed) {
        unsigned long long maxv = (1ull << (width - 1)) - 1;
        double lim = (double)(maxv + 1); /* 2^(width-1), exact */
        if (x <= -lim)
            return ~maxv;
        if (x >= lim)
            return maxv;
        return (unsigned long long)(long long)x;
    }
    unsigned long long maxv = width == 64 ? ~0ull : (1ull << width) - 1;
    double lim = width == 64 ? 18446744073709551616.0 : (double)(maxv + 1);
    if (!(x >= 1.0))
        return 0;
    if (x >= lim)
        return maxv;
    return (unsigned long long)x;
}

#if MT_RT_SM(100)
#define MT_RT_CVTI(SRC, CS, FT)                                                        \
    MT_RT unsigned long long mt_rt_cvti_##SRC(FT x, int width, int is_signed) {       \
        if (is_signed && width <= 16) {                                                \
            short r;                                                                   \
            asm("cvt.rzi.s16." #SRC " %0, %1;" : "=h"(r) : CS(x));                     \
            return (unsigned long long)(long long)r;                                   \
        }                                                                              \
        if (is_signed && width == 32) {                                                \
            int r;                                                                     \
            asm("cvt.rzi.s32." #SRC " %0, %1;" : "=r"(r) : CS(x));                     \
            return (unsigned long long)(long long)r;                                   \
        }                                                                              \
        if (is_signed) {                                                               \
            long long r;                                                               \
            asm("cvt.rzi.s64." #SRC " %0, %1;" : "=l"(r) : CS(x));                     \
            return (unsigned long long)r;                                              \
        }                                                                              \
        if (width <= 16) {                                                             \
            unsigned short r;                                                          \
            asm("cvt.rzi.u16." #SRC " %0, %1;" : "=h"(r) : CS(x));                     \
            return r;                                                                  \
        }                                                                              \
        if (width == 32) {                                                             \
            unsigned r;                                                                \
            asm("cvt.rzi.u32." #SRC " %0, %1;" : "=r"(r) : CS(x));                     \
            return r;                                                                  \
        }                                                                              \
        unsigned long long r;                                                          \
        asm("cvt.rzi.u64." #SRC " %0, %1;" : "=l"(r) : CS(x));                         \
        return r;                                                                      \
    }
MT_RT_CVTI(f32, "f", float)
MT_RT_CVTI(f64, "d", double)
#undef MT_RT_CVTI
#else
MT_RT unsigned long long mt_rt_cvti_f64(double x, int width, int is_signed) {
    int w = width < 16 ? 16 : width;
    if (((unsigned long long)mt_f64_bits(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull)
        return 1ull << (w - 1);
    return mt_rt_sat(x, w, is_signed);
}
MT_RT unsigned long long mt_rt_cvti_f32(float x, int width, int is_signed) {
    int w = width < 16 ? 16 : width;
    if ((mt_rt_fbits(x) & 0x7fffffffu) > 0x7f800000u)
        return w == 64 ? 1ull << 63 : 0;
    return mt_rt_sat((double)x, w, is_signed);
}
#endif

/* the integer result is the low `width` bits (a conversion C defines for
 * the unsigned types and every compiler used here wraps for the signed) */
#define MT_RT_CVT(NAME, T, W, S)                                                       \
    MT_RT T mt_cvt_##NAME(double x) { return (T)mt_rt_cvti_f64(x, W, S); }             \
    MT_RT T mt_cvt_##NAME##_f(float x) { return (T)mt_rt_cvti_f32(x, W, S); }
MT_RT_CVT(i8, signed char, 8, 1)
MT_RT_CVT(i16, short, 16, 1)
MT_RT_CVT(i32, int, 32, 1)
MT_RT_CVT(i64, long long, 64, 1)
MT_RT_CVT(u8, unsigned char, 8, 0)
MT_RT_CVT(u16, unsigned short, 16, 0)
MT_RT_CVT(u32, unsigned, 32, 0)
MT_RT_CVT(u64, unsigned long long, 64, 0)
#undef MT_RT_CVT

/* Float x % y as Triton computes it: LLVM lowers frem for NVPTX to
 * x - trunc(x / y) * y (the product and difference fused into one fma, as
 * Triton compiles with fp fusion), and x when y is infinite.  That is not
 * C's fmod: -4.0 % 2.0 is +0.0, and a quotient too large to be exact in
 * the type gives a remainder fmod does not. */
MT_RT float mt_fremf(float x, float y) { return isinf(y) ? x : fmaf(-truncf(x / y), y, x); }
MT_RT double mt_frem(double x, double y) { return isinf(y) ? x : fma(-trunc(x / y), y, x); }

/* ---- integer // % << >> (issue 15): defined for every operand ----
 * The results Triton 3.6 gives on an H200 for blocks, where C leaves the
 * value undefined (measured; tests/diff/corpus/int_div_shift_edges.py):
 *   - x // 0 and x % 0 are all ones (-1 signed, the maximum unsigned) at 8,
 *     16 and 32 bits, which widen to 32 and divide there; at 64 bits
 *     0xffffffff when x (and so x | 0) fits in 32 unsigned bits, the 32-bit
 *     fast path LLVM puts in front of a 64-bit division, else all ones.  A
 *     constant zero divisor is undefined in LLVM and gives garbage under
 *     Triton; it gets the runtime zero's result here;
 *   - MIN // -1 is MIN (the quotient wraps), MIN % -1 is 0;
 *   - a shift count is read as unsigned: x << n and a logical x >> n give
 *     0 when n >= the width (or n < 0), an arithmetic x >> n the sign fill.
 * Triton's own scalar path differs (a scalar x % 0 gives x): the block rule
 * is used for scalars too.  Each function is a compare and a select around
 * the plain operation (a constant divisor or count folds them away); the
 * divisor that reaches C's / and % is never 0 and never -1, so there is
 * no trap on the host.  C names per type for the constant folder and the
 * unit tests; C++ (the kernels) gets overloads mt_div/mt_rem/mt_shl/mt_shr
 * of the operands' type. */
#define MT_RT_DIV_S(N, T, U, ZERO)                                                     \
    MT_RT T mt_div_##N(T a, T b) {                                                     \
        T q = a / (b == 0 || b == -1 ? 1 : b);                                         \
        return b == 0 ? (ZERO) : b == -1 ? (T)(0 - (U)a) : q;                          \
    }                                                                                  \
    MT_RT T mt_rem_##N(T a, T b) {                                                     \
        T r = a % (b == 0 || b == -1 ? 1 : b);                                         \
        return b == 0 ? (ZERO) : r;                                                    \
    }
#define MT_RT_DIV_U(N, T, ZERO)                                                        \
    MT_RT T mt_div_##N(T a, T b) { return b == 0 ? (ZERO) : a / (b == 0 ? 1 : b); }     \
    MT_RT T mt_rem_##N(T a, T b) { return b == 0 ? (ZERO) : a % (b == 0 ? 1 : b); }
MT_RT_DIV_S(i32, int, unsigned, -1)
MT_RT_DIV_S(i64, long long, unsigned long long,
            ((unsigned long long)a >> 32 ? -1LL : 0xffffffffLL))
MT_RT_DIV_U(u32, unsigned, ~0u)
MT_RT_DIV_U(u64, unsigned long long, (a >> 32 ? ~0ull : 0xffffffffull))
#undef MT_RT_DIV_S
#undef MT_RT_DIV_U
/* 8 and 16 bits divide in 32 bits, as on the GPU: -128 // -1 is 128 there,
 * -128 in 8 bits, and 0xffffffff keeps its low bits */
#define MT_RT_DIV_NARROW(N, T, W)                                                      \
    MT_RT T mt_div_##N(T a, T b) { return (T)mt_div_##W(a, b); }                       \
    MT_RT T mt_rem_##N(T a, T b) { return (T)mt_rem_##W(a, b); }
MT_RT_DIV_NARROW(i8, signed char, i32)
MT_RT_DIV_NARROW(i16, short, i32)
MT_RT_DIV_NARROW(u8, unsigned char, u32)
MT_RT_DIV_NARROW(u16, unsigned short, u32)
#undef MT_RT_DIV_NARROW

/* N: name, T: type, U: its unsigned type (the count read as unsigned), C:
 * the unsigned type a left shift computes in, W: width.  x >> n of a
 * signed type shifts by at most W - 1, which is the sign fill. */
#define MT_RT_SHL(N, T, U, C, W)                                                       \
    MT_RT T mt_shl_##N(T a, T n) { return (U)n >= W ? (T)0 : (T)((C)a << (U)n); }
#define MT_RT_SHIFT_S(N, T, U, C, W)                                                   \
    MT_RT_SHL(N, T, U, C, W)                                                           \
    MT_RT T mt_shr_##N(T a, T n) { return (T)(a >> ((U)n >= W ? W - 1 : (U)n)); }
#define MT_RT_SHIFT_U(N, T, C, W)                                                      \
    MT_RT_SHL(N, T, T, C, W)                                                           \
    MT_RT T mt_shr_##N(T a, T n) { return n >= W ? (T)0 : (T)(a >> n); }
MT_RT_SHIFT_S(i8, signed char, unsigned char, unsigned, 8)
MT_RT_SHIFT_S(i16, short, unsigned short, unsigned, 16)
MT_RT_SHIFT_S(i32, int, unsigned, unsigned, 32)
MT_RT_SHIFT_S(i64, long long, unsigned long long, unsigned long long, 64)
MT_RT_SHIFT_U(u8, unsigned char, unsigned, 8)
MT_RT_SHIFT_U(u16, unsigned short, unsigned, 16)
MT_RT_SHIFT_U(u32, unsigned, unsigned, 32)
MT_RT_SHIFT_U(u64, unsigned long long, unsigned long long, 64)
#undef MT_RT_SHL
#undef MT_RT_SHIFT_S
#undef MT_RT_SHIFT_U

#if defined(__cplusplus)
#define MT_RT_INT_OVERLOADS(N, T)                                                      \
    MT_RT T mt_div(T a, T b) { return mt_div_##N(a, b); }                              \
    MT_RT T mt_rem(T a, T b) { return mt_rem_##N(a, b); }                              \
    MT_RT T mt_shl(T a, T b) { return mt_shl_##N(a, b); }                              \
    MT_RT T mt_shr(T a, T b) { return mt_shr_##N(a, b); }
MT_RT_INT_OVERLOADS(i8, signed char)
MT_RT_INT_OVERLOADS(i16, short)
MT_RT_INT_OVERLOADS(i32, int)
MT_RT_INT_OVERLOADS(i64, long long)
MT_RT_INT_OVERLOADS(u8, unsigned char)
MT_RT_INT_OVERLOADS(u16, unsigned short)
MT_RT_INT_OVERLOADS(u32, unsigned)
MT_RT_INT_OVERLOADS(u64, unsigned long long)
#undef MT_RT_INT_OVERLOADS
#endif
/* ---- the math set (issue 9): functions the ops' C texts call ----
 * rsqrt: the device's instruction on the GPU (as Triton's rsqrt), one
 * division by the correctly rounded square root elsewhere (as Triton's
 * interpreter); the constant folder (ctext.c) calls these very bodies.
 * umulhi: the high half of the double-width unsigned product; for signed
 * operands, of their bits (Triton's umulhi is unsigned for every type). */
#if defined(__CUDA_ARCH__)
MT_RT float mt_rsqrtf(float x) { return rsqrtf(x); }
MT_RT double mt_rsqrt(double x) { return rsqrt(x); }
MT_RT unsigned mt_umulhi32(unsigned a, unsigned b) { return __umulhi(a, b); }
MT_RT unsigned long long mt_umulhi64(unsigned long long a, unsigned long long b) {
    return __umul64hi(a, b);
}
#else
MT_RT float mt_rsqrtf(float x) { return 1.0f / sqrtf(x); }
MT_RT double mt_rsqrt(double x) { return 1.0 / sqrt(x); }
MT_RT unsigned mt_umulhi32(unsigned a, unsigned b) {
    return (unsigned)(((unsigned long long)a * b) >> 32);
}
MT_RT unsigned long long mt_umulhi64(unsigned long long a, unsigned long long b) {
    unsigned long long al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
    unsigned long long mid = ((al * bl) >> 32) + (ah * bl & 0xffffffffu) + al * bh;
    return ah * bh + (ah * bl >> 32) + (mid >> 32);
}
#endif
/* ---- flush to zero ----
 * Triton links libdevice with __CUDA_FTZ set: its f32 functions take a
 * subnormal operand or give a subnormal result as a zero of its sign (the
 * ftz op around them, tlmath.c; mt_libdevice_rt.h's _ftz forms).  f64 is
 * never flushed: mt_ftz is the identity, for the template's double name. */
MT_RT float mt_ftzf(float x) {
    unsigned b = mt_rt_fbits(x);
    return (b & 0x7f800000u) ? x : mt_rt_ffrom(b & 0x80000000u);
}
MT_RT double mt_ftz(double x) { return x; }
/* ---- Triton's approximate fp32 exp, division and square root ----
 * tl.exp on fp32 is ex2.approx.f32 of x * log2(e), the product rounded to
 * f32 first; `/` on floats computed in f32 (fp16 and bf16 too, widened) is
 * div.full.f32; tl.sqrt is sqrt.approx.ftz.f32 (subnormals flushed).
 * Those instructions on the GPU, as Triton emits them; the host takes 2**p
 * of the same product, IEEE division and square root (the GPU's results
 * are within 2 ulp of them).  f64 keeps exp, IEEE division and square
 * root (mt_exp, mt_div, mt_sqrt: what the f64 form of a template calls). */
#if defined(__CUDA_ARCH__)
MT_RT float mt_expf(float x) {
    float r;
    asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x * 1.44269504088896341f));
    return r;
}
MT_RT float mt_divf(float x, float y) {
    float r;
    asm("div.full.f32 %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y));
    return r;
}
MT_RT float mt_sqrtf(float x) {
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
#else
MT_RT float mt_expf(float x) { return exp2f(x * 1.44269504088896341f); }
MT_RT float mt_divf(float x, float y) { return x / y; }
MT_RT float mt_sqrtf(float x) { return sqrtf(x); }
#endif
MT_RT double mt_exp(double x) { return exp(x); }
MT_RT double mt_div(double x, double y) { return x / y; }
MT_RT double mt_sqrt(double x) { return sqrt(x); }
/* maxnumf/minnumf, Triton's PropagateNan.NONE (tl.maximum, tl.minimum and
 * the tl.max/tl.min reductions): a NaN operand gives the other, -0.0
 * orders below +0.0.  The GPU's max.f32/min.f32 on fp32, as Triton
 * emits; the same rule in C elsewhere and for fp64. */
#define MT_RT_MAXNUM(NAME, T, CMP, NEG, POS)                                           \
    MT_RT T NAME(T a, T b) {                                                           \
        return isnan(a) ? b : isnan(b) ? a : a == b ? (signbit(a) ? NEG : POS) : a CMP b ? a : b; \
    }
MT_RT_MAXNUM(mt_fmaxnum, double, >, b, a)
MT_RT_MAXNUM(mt_fminnum, double, <, a, b)
#if defined(__CUDA_ARCH__)
MT_RT float mt_fmaxnumf(float a, float b) { return fmaxf(a, b); }
MT_RT float mt_fminnumf(float a, float b) { return fminf(a, b); }
#else
MT_RT_MAXNUM(mt_fmaxnumf, float, >, b, a)
MT_RT_MAXNUM(mt_fminnumf, float, <, a, b)
#endif
#undef MT_RT_MAXNUM
#if defined(__cplusplus)
MT_RT unsigned mt_umulhi(unsigned a, unsigned b) { return mt_umulhi32(a, b); }
MT_RT int mt_umulhi(int a, int b) { return (int)mt_umulhi32((unsigned)a, (unsigned)b); }
MT_RT unsigned long long mt_umulhi(unsigned long long a, unsigned long long b) {
    return mt_umulhi64(a, b);
}
MT_RT long long mt_umulhi(long long a, long long b) {
    return (long long)mt_umulhi64((unsigned long long)a, (unsigned long long)b);
}
#endif

/* ---- Philox4x32 (issue 9): Triton's random stream (random.py) ----
 * `rounds` rounds on the counter c[0..3] with the key (k0, k1): the round
 * multiplies c0 and c2 by the two Philox constants, mixes the halves with
 * c1, c3 and the key, then raises the key by the Weyl constants (wrapping),
 * as philox_impl does for uint32 counters.  mt_philox is what tl.randint4x
 * and the functions built on it call: counter (c0, c1) = the offset's 64
 * bits, (c2, c3) = 0, key (k0, k1) = the seed as uint64, and `sel` = lane
 * (0..3) + 4 * rounds, a constant of each call. */
MT_RT void mt_philox4x32(unsigned c[4], unsigned k0, unsigned k1, int rounds) {
    for (int r = 0; r < rounds; r++) {
        unsigned c0 = c[0], c2 = c[2];
        c[0] = mt_umulhi32(0xCD9E8D57u, c2) ^ c[1] ^ k0;
        c[2] = mt_umulhi32(0xD2511F53u, c0) ^ c[3] ^ k1;
        c[1] = 0xCD9E8D57u * c2;
        c[3] = 0xD2511F53u * c0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}
MT_RT unsigned mt_philox(unsigned long long ctr, unsigned long long key, int sel) {
    unsigned c[4];
    c[0] = (unsigned)ctr;
    c[1] = (unsigned)(ctr >> 32);
    c[2] = 0;
    c[3] = 0;
    mt_philox4x32(c, (unsigned)key, (unsigned)(key >> 32), sel >> 2);
    return c[sel & 3];
}

/* ---- tl.dot (issue 10): TF32 rounding and the tensor-core steps ----
 * mt_tf32: x rounded to TF32 (10 mantissa bits) to nearest, ties away
 * from zero, as the GPU's cvt.rna.tf32.f32 does it (Triton's "tf32"
 * operands); NaN and infinities stay.  The result is a float whose low 13
 * mantissa bits are zero, so the host's f32 FMAs on it are exactly the
 * products the tensor cores form. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
MT_RT float mt_tf32(float x) {
    unsigned u;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(x));
    return __uint_as_float(u);
}
#else
MT_RT float mt_tf32(float x) {
    unsigned u = mt_rt_fbits(x);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0x1000u) & 0xffffe000u;
    return mt_rt_ffrom(u);
}
#endif

/* The warp-wide steps of a tensor-core tile (cuda_mma.c), sm_80 and newer:
 * ldmatrix of four 8x8 16-bit matrices (each lane gives one row's
 * address), plain or transposed, and one mma.sync m16n8k16 (f16, bf16) or
 * m16n8k8 (tf32) adding into four f32 accumulators (or f16 ones). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
MT_RT void mt_ldsm4(const void *p, unsigned r[4]) {
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
MT_RT void mt_ldsm4_t(const void *p, unsigned r[4]) {
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(a));
}
MT_RT void mt_ldsm2(const void *p, unsigned r[2]) {
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(a));
}
MT_RT void mt_ldsm2_t(const void *p, unsigned r[2]) {
    unsigned a = (unsigned)__cvta_generic_to_shared(p);
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];"
                 : "=r"(r[0]), "=r"(r[1]) : "r"(a));
}
#define MT_MMA(name, shape, types)                                                     \
    MT_RT void name(float *c0, float *c1, float *c2, float *c3, const unsigned a[4],  \
                    const unsigned b[2]) {                                            \
        asm volatile("mma.sync.aligned." shape ".row.col.f32." types ".f32 "          \
                     "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"           \
                     : "+f"(*c0), "+f"(*c1), "+f"(*c2), "+f"(*c3)                      \
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1])); \
    }
MT_MMA(mt_mma_f16, "m16n8k16", "f16.f16")
MT_MMA(mt_mma_bf16, "m16n8k16", "bf16.bf16")
MT_MMA(mt_mma_tf32, "m16n8k8", "tf32.tf32")
#undef MT_MMA
/* int8 operands, int32 accumulators, saturating as Triton's
 * (.satfinite): m16n8k32, a0..a3 and b0, b1 four int8 each. */
MT_RT void mt_mma_s8(int *c0, int *c1, int *c2, int *c3, const unsigned a[4],
                     const unsigned b[2]) {
    asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32 "
                 "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                 : "+r"(*c0), "+r"(*c1), "+r"(*c2), "+r"(*c3)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
/* out_dtype=float16: the four accumulators are f16 bits, packed in pairs
 * (c0 in the low half) as the instruction's two f16x2 registers. */
MT_RT void mt_mma_f16_f16acc(unsigned short *c0, unsigned short *c1, unsigned short *c2,
                             unsigned short *c3, const unsigned a[4], const unsigned b[2]) {
    unsigned d0 = (unsigned)*c0 | (unsigned)*c1 << 16, d1 = (unsigned)*c2 | (unsigned)*c3 << 16;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 "
                 "{%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};"
                 : "+r"(d0), "+r"(d1)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    *c0 = (unsigned short)d0;
    *c1 = (unsigned short)(d0 >> 16);
    *c2 = (unsigned short)d1;
    *c3 = (unsigned short)(d1 >> 16);
}
#endif

/* The shared-window address of a shared array, taken once in a kernel's
 * prologue for its dot tiles (mt_sa_lhs, mt_sa_rhs): cp.async and wgmma
 * descriptors then add offsets to it, where converting each generic
 * pointer put an S2UR and its arithmetic on every K-loop iteration.  0
 * where there is no shared window (the host copies through the pointer). */
#if defined(__CUDA_ARCH__)
MT_RT unsigned mt_smem_addr(const void *s) { return (unsigned)__cvta_generic_to_shared(s); }
#else
MT_RT unsigned mt_smem_addr(const void *s) {
    (void)s;
    return 0u;
}
#endif

/* A 16-byte copy from global to shared memory that needs no registers
 * (the pipelined K loop's prefetch, cuda_dot.c): cp.async on sm_80 and
 * newer to shared address sa (the host copies to s), zero-filled and
 * reading nothing when `full` is 0.  The copies of
 * one tile form a group (mt_cp_async_commit); mt_cp_async_wait_group(n)
 * waits until at most the n newest groups are in flight, before the
 * barrier that publishes the tile.  n is a constant in the generated
 * text, so the switch folds.  Elsewhere the copy happens at once and
 * commit and wait are empty. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
MT_RT void mt_cp_async16(void *s, unsigned sa, const void *g, int full) {
    (void)s;
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;"
                 :: "r"(sa), "l"(g), "r"(full ? 16 : 0) : "memory");
}
MT_RT void mt_cp_async_commit(void) { asm volatile("cp.async.commit_group;" ::: "memory"); }
MT_RT void mt_cp_async_wait_group(int n) {
    switch (n) {
    case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
    case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
    case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
    case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
    case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
    case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
    default: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
    }
}
#else
MT_RT void mt_cp_async16(void *s, unsigned sa, const void *g, int full) {
    (void)sa;
    unsigned *dst = (unsigned *)s;
    const unsigned *src = (const unsigned *)g;
    for (int i = 0; i < 4; i++)
        dst[i] = full ? src[i] : 0u;
}
MT_RT void mt_cp_async_commit(void) {}
MT_RT void mt_cp_async_wait_group(int n) { (void)n; }
#endif

/* A scalar pointer offset at run time (a row's base, X + row * stride),
 * opaque to NVVM: it otherwise folds the row's 64-bit offset into every
 * element's address (sign extension, add, shift and add an element,
 * where Triton's GEPs of i32 indices keep one mul.wide and one add from
 * the row's base: tutorial 05's forward, 512 SASS instructions against
 * 488).  The round trip through the global window keeps plain accesses
 * ld.global / st.global (an opaque generic pointer gives generic ones);
 * it assumes nothing, so a null base is no undefined behaviour.
 * Elsewhere the pointer itself. */
#if defined(__cplusplus)
#if defined(__CUDA_ARCH__)
template <class T> MT_RT T *mt_base_ptr(T *p) {
    size_t g = __cvta_generic_to_global(p);
    asm("" : "+l"(g));
    return (T *)__cvta_global_to_generic(g);
}
#else
template <class T> MT_RT T *mt_base_ptr(T *p) { return p; }
#endif
#endif

/* One 4-, 8- or 16-byte vector load (V: unsigned, uint2, float4, double2
 * ...) that reads nothing where pred is 0 and then gives zero bits: on
 * the GPU Triton's predicated load (mov 0, then `@p ld.global`), so that
 * a masked vector load is no branch.  Behind a branch each group's load
 * sat in its own block, and ptxas gave a thread's groups one register
 * set, so they waited on each other (tutorial 05's layer norm: four
 * 16-byte loads a pass, one in flight); predicated, they all are.
 * volatile, as Triton's: it keeps its place among the kernel's other
 * memory accesses.  Elsewhere the plain access. */
#if defined(__cplusplus)
#if defined(__CUDA_ARCH__)
template <class V> MT_RT V mt_ld_pred(const V *g, int pred) {
    static_assert(sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16, "vector size");
    union {
        V v;
        unsigned w[4];
    } u;
    if (sizeof(V) == 16)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %4, 0;\n\tmov.b32 %0, 0;\n\t"
                     "mov.b32 %1, 0;\n\tmov.b32 %2, 0;\n\tmov.b32 %3, 0;\n\t"
                     "@p ld.global.v4.b32 {%0, %1, %2, %3}, [%5];\n\t}"
                     : "=r"(u.w[0]), "=r"(u.w[1]), "=r"(u.w[2]), "=r"(u.w[3])
                     : "r"(pred), "l"(g));
    else if (sizeof(V) == 8)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\tmov.b32 %0, 0;\n\t"
                     "mov.b32 %1, 0;\n\t@p ld.global.v2.b32 {%0, %1}, [%3];\n\t}"
                     : "=r"(u.w[0]), "=r"(u.w[1])
                     : "r"(pred), "l"(g));
    else
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %1, 0;\n\tmov.b32 %0, 0;\n\t"
                     "@p ld.global.b32 %0, [%2];\n\t}"
                     : "=r"(u.w[0])
                     : "r"(pred), "l"(g));
    return u.v;
}
/* Two 8-byte lanes (double2, longlong2): Triton's ld.global.v2.b64 and
 * st.global.v2.b64, which test_core's float64 dots look for in the PTX
 * (CUDA C's own vector access is v2.f64, v2.u64 or v4.b32). */
template <class V> MT_RT V mt_ld_v2b64(const V *g, int pred) {
    static_assert(sizeof(V) == 16, "two 8-byte lanes");
    unsigned long long w[2];
    asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %2, 0;\n\tmov.b64 %0, 0;\n\t"
                 "mov.b64 %1, 0;\n\t@p ld.global.v2.b64 {%0, %1}, [%3];\n\t}"
                 : "=l"(w[0]), "=l"(w[1])
                 : "r"(pred), "l"(g));
    V v;
    memcpy(&v, w, sizeof v);
    return v;
}
template <class V> MT_RT void mt_st_v2b64(V *g, V v) {
    static_assert(sizeof(V) == 16, "two 8-byte lanes");
    unsigned long long w[2];
    memcpy(w, &v, sizeof w);
    asm volatile("st.global.v2.b64 [%0], {%1, %2};" : : "l"(g), "l"(w[0]), "l"(w[1]) : "memory");
}
/* One 4-, 8- or 16-byte vector store that writes nothing where pred is
 * 0: Triton's predicated `@p st.global`, where `if (pred) *g = v` gave a
 * branch around each group's store. */
template <class V> MT_RT void mt_st_pred(V *g, V v, int pred) {
    static_assert(sizeof(V) == 4 || sizeof(V) == 8 || sizeof(V) == 16, "vector size");
    unsigned w[4] = {0, 0, 0, 0};
    memcpy(w, &v, sizeof v);
    if (sizeof(V) == 16)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %0, 0;\n\t"
                     "@p st.global.v4.b32 [%1], {%2, %3, %4, %5};\n\t}"
                     : : "r"(pred), "l"(g), "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3])
                     : "memory");
    else if (sizeof(V) == 8)
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %0, 0;\n\t"
                     "@p st.global.v2.b32 [%1], {%2, %3};\n\t}"
                     : : "r"(pred), "l"(g), "r"(w[0]), "r"(w[1])
                     : "memory");
    else
        asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, %0, 0;\n\t"
                     "@p st.global.b32 [%1], %2;\n\t}"
                     : : "r"(pred), "l"(g), "r"(w[0])
                     : "memory");
}
#else
template <class V> MT_RT V mt_ld_pred(const V *g, int pred) {
    V v;
    if (pred)
        memcpy(&v, g, sizeof v);
    else
        memset(&v, 0, sizeof v);
    return v;
}
template <class V> MT_RT V mt_ld_v2b64(const V *g, int pred) { return mt_ld_pred(g, pred); }
template <class V> MT_RT void mt_st_v2b64(V *g, V v) { memcpy(g, &v, sizeof v); }
template <class V> MT_RT void mt_st_pred(V *g, V v, int pred) {
    if (pred)
        memcpy(g, &v, sizeof v);
}
#endif
#endif

/* The element index of (row, col) in one stage of a Hopper wgmma tile
 * (SharedBuffer.swizzle, smem.c's swizzled_index is the same formula):
 * with `warps`, A's rows permuted so that warpgroup g's m64 block b, half
 * h, lane row i of warp wl holds logical row 8 warps (2b + h) + 8 (4g +
 * wl) + i, the row the accumulator layout gives that thread; then column
 * blocks of cb elements, and in each row the 16-byte chunks XORed with
 * the address bits 7 and up that the swizzle mode takes.  The arguments
 * but row and col are constants, so the divisions are shifts. */
MT_RT int mt_swz(int row, int col, int rows, int cb, int esize, int warps) {
    if (warps) {
        int i = row & 7, w = (row >> 3) % warps, r = (row >> 3) / warps;
        row = (w >> 2) * (rows / (warps >> 2)) + (r >> 1) * 64 + (w & 3) * 16 + (r & 1) * 8 + i;
    }
    int per = 16 / esize, chunks = cb / per;
    int x = ((row * cb * esize) >> 7) & (chunks - 1);
    return col / cb * rows * cb + row * cb + ((col % cb / per) ^ x) * per + col % per;
}

/* wgmma (sm_90a; cuda_mma.c writes the instruction itself, its operand
 * list being the accumulator's slots): a shared-memory matrix descriptor
 * (start address, leading and stride byte offsets, all in 16-byte units,
 * and the swizzle mode: 1 = 128 B, 2 = 64 B, 3 = 32 B), the fence before
 * the first wgmma that touches the accumulator registers, one commit
 * group per tile, and its wait.  mt_fence_async_smem orders this
 * thread's shared-memory writes (st.shared, cp.async) before the async
 * proxy's reads; the barrier after it makes that hold for the tile. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
/* The descriptor of the tile at shared-window address a (a kernel's
 * tiles' addresses are taken once, in its prologue: mt_sa_lhs, mt_sa_rhs;
 * a generic-to-shared conversion in the K loop put an S2UR on every
 * iteration's path to the first wgmma) */
MT_RT unsigned long long mt_wgmma_desc(unsigned a, unsigned lbo, unsigned sbo,
                                       unsigned mode) {
    return (unsigned long long)((a & 0x3FFFF) >> 4) |
           (unsigned long long)((lbo & 0x3FFFF) >> 4) << 16 |
           (unsigned long long)((sbo & 0x3FFFF) >> 4) << 32 | (unsigned long long)mode << 62;
}
MT_RT void mt_wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
MT_RT void mt_wgmma_commit(void) {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
MT_RT void mt_wgmma_wait0(void) { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
MT_RT void mt_wgmma_wait1(void) { asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory"); }
MT_RT void mt_fence_async_smem(void) {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}
#else
MT_RT void mt_fence_async_smem(void) {}
#endif

/* kernel text follows: leave it no macro but the include guard */
#undef MT_RT
#undef MT_RT_SM
#undef MT_RT_F32_NAN

#endif /* MT_KERNEL_RT_H */
