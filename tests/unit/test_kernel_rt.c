/* test_kernel_rt.c: src/mt_kernel_rt.h, the dtype conversions generated
 * kernels call, on its host (software) path.
 *
 * Two kinds of check: against references written here with double
 * arithmetic (every fp16, bf16 and fp8 pattern; f32 -> fp16/bf16 on every
 * exponent with the rounding-critical low bits; the integer rules on
 * special values), and against Triton's own results on an H200, recorded
 * by tests/gpu/check_conversions.py into tests/unit/data/triton_casts.json
 * (MT_CASTS_FILE names another record, e.g. a full one).  The header is C11
 * as well as C++, so it is included here directly; a kernel calling every
 * function then runs on the host backend (where the library pastes the
 * header into the C++ unit) and must give the same bits, and NVRTC (when
 * installed) must compile it for sm_90 with Triton's cvt instructions and
 * for sm_80 with the software bodies. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx_fixture.h"
#include "host_fixture.h"
#include "mt_kernel_rt.h"

/* the header's own bit access (memcpy; trivially right) */
#define fbits mt_rt_fbits
#define ffrom mt_rt_ffrom
#define dbits(d) ((uint64_t)mt_f64_bits(d))
#define dfrom(u) mt_f64_from_bits((long long)(u))

/* ---- references ---- */

/* The value of a binary format's bits: M mantissa bits, bias B; `inf`
 * says whether the top exponent holds infinities and NaN (IEEE) or, as
 * in e4m3fn, only the all-ones pattern is NaN. */
static double ref_decode(unsigned bits, int M, int E, int B, int ieee) {
    unsigned sign = bits >> (M + E) & 1, e = bits >> M & ((1u << E) - 1),
             m = bits & ((1u << M) - 1);
    double v;
    if (ieee && e == (1u << E) - 1)
        v = m ? NAN : INFINITY;
    else if (!ieee && e == (1u << E) - 1 && m == (1u << M) - 1)
        v = NAN;
    else if (e == 0)
        v = ldexp((double)m, 1 - B - M);
    else
        v = ldexp((double)(m | 1u << M), (int)e - B - M);
    return sign ? -v : v;
}

/* x rounded to a format of M mantissa bits and minimum exponent 1-B, by
 * scaling to the quantum and rint (nearest even) or trunc; no overflow. */
static double ref_round(double x, int M, int B, int rtz) {
    if (x == 0 || isinf(x))
        return x;
    int e;
    frexp(x, &e); /* |x| in [2^(e-1), 2^e) */
    int qexp = (e - 1 < 1 - B ? 1 - B : e - 1) - M;
    double r = ldexp(x, -qexp);
    return ldexp(rtz ? trunc(r) : rint(r), qexp);
}

/* ---- fp16 and bf16 ---- */

static void test_f16_patterns(void **state) {
    (void)state;
    for (unsigned h = 0; h < 0x10000; h++) {
        float f = mt_f16_to_f32((unsigned short)h);
        double want = ref_decode(h, 10, 5, 15, 1);
        if (isnan(want)) {
            assert_int_equal(fbits(f), 0x7fffffff);
            assert_int_equal(mt_f32_to_f16(f), 0x7fff);
            continue;
        }
        assert_true((double)f == want && !!signbit(f) == !!signbit(want));
        assert_int_equal(mt_f32_to_f16(f), h);     /* round trip */
        assert_int_equal(mt_f32_to_f16_rtz(f), h); /* exact: no rounding */
        assert_int_equal(mt_f64_to_f16((double)f), h);
        assert_int_equal(fbits(mt_round_f16(f)), fbits(f));
    }
}

static void test_bf16_patterns(void **state) {
    (void)state;
    for (unsigned h = 0; h < 0x10000; h++) {
        float f = mt_bf16_to_f32((unsigned short)h);
        assert_int_equal(fbits(f), h << 16); /* NaN payloads survive */
        if (isnan(f)) {
            assert_int_equal(mt_f32_to_bf16(f), 0x7fff);
            assert_int_equal(mt_f32_to_bf16_rtz(f), 0x7fff);
            continue;
        }
        assert_true((double)f == ref_decode(h, 7, 8, 127, 1));
        assert_int_equal(mt_f32_to_bf16(f), h);
        assert_int_equal(mt_f32_to_bf16_rtz(f), h);
        assert_int_equal(mt_f64_to_bf16((double)f), h);
    }
}

/* The fp16 value of f rounded by the reference, with cvt's overflow. */
static double ref_f16(float f, int rtz) {
    double r = ref_round((double)f, 10, 15, rtz);
    if (fabs(r) > 65504)
        r = rtz && !isinf(f) ? copysign(65504, r) : copysign(INFINITY, r);
    return r;
}

static double ref_bf16(float f, int rtz) {
    double r = ref_round((double)f, 7, 127, rtz);
    double max = ldexp(255.0, 120);
    if (fabs(r) > max)
        r = rtz && !isinf(f) ? copysign(max, r) : copysign(INFINITY, r);
    return r;
}

/* Every sign, exponent and top mantissa bit pattern of f32, with the low
 * bits that decide rounding: exact, just above/below half, half, odd. */
static void test_f32_narrowing(void **state) {
    (void)state;
    static const uint32_t low16[] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff, 0x1000, 0x1001,
                                     0x0fff, 0x2000, 0x3000, 0x5a5a};
    for (uint32_t hi = 0; hi < 0x10000; hi++) {
        for (size_t i = 0; i < sizeof low16 / sizeof low16[0]; i++) {
            /* the low 16 bits, and the same with the f16 rounding bit
             * (bit 12) region shifted for f16: vary bits 0-15 both ways */
            uint32_t u = hi << 16 | low16[i];
            float f = ffrom(u);
            assert_int_equal(mt_f8e4nv_store(mt_round_f8e4nv(f)), mt_f32_to_f8e4nv(f));
            assert_int_equal(mt_f8e5_store(mt_round_f8e5(f)), mt_f32_to_f8e5(f));
            if (isnan(f)) {
                assert_int_equal(mt_f32_to_f16(f), 0x7fff);
                assert_int_equal(mt_f32_to_bf16(f), 0x7fff);
                assert_int_equal(mt_f16_store(mt_round_f16(f)), 0x7fff);
                assert_int_equal(mt_bf16_store(mt_round_bf16(f)), 0x7fff);
                continue;
            }
            for (int rtz = 0; rtz < 2; rtz++) {
                unsigned short h = rtz ? mt_f32_to_f16_rtz(f) : mt_f32_to_f16(f);
                double want = ref_f16(f, rtz);
                double got = (double)mt_f16_to_f32(h);
                if (got != want || !!signbit(got) != !!signbit(want))
                    fail_msg("f32 %08x -> f16%s: got %04x (%g), want %g", u,
                             rtz ? " rtz" : "", h, got, want);
                if (!rtz) /* a register rounded, then stored */
                    assert_int_equal(mt_f16_store(mt_round_f16(f)), h);
                unsigned short b = rtz ? mt_f32_to_bf16_rtz(f) : mt_f32_to_bf16(f);
                if (!rtz)
                    assert_int_equal(mt_bf16_store(mt_round_bf16(f)), b);
                want = ref_bf16(f, rtz);
                got = (double)mt_bf16_to_f32(b);
                if (got != want || !!signbit(got) != !!signbit(want))
                    fail_msg("f32 %08x -> bf16%s: got %04x, want %g", u, rtz ? " rtz" : "",
                             b, want);
            }
        }
    }
}

/* f64 -> fp16/bf16 is one rounding: values that round differently
 * through f32 (a tie there, not a tie in double). */
static void test_f64_single_rounding(void **state) {
    (void)state;
    /* 1 + 2^-11 + 2^-40: above the f16 tie; through f32 it is the tie
     * 1 + 2^-11, which rounds to even (1.0) */
    double d = 1.0 + ldexp(1, -11) + ldexp(1, -40);
    assert_int_equal(mt_f64_to_f16(d), 0x3c01);
    assert_int_equal(mt_f32_to_f16((float)d), 0x3c00);
    d = 1.0 + ldexp(1, -8) + ldexp(1, -40);
    assert_int_equal(mt_f64_to_bf16(d), 0x3f81);
    assert_int_equal(mt_f32_to_bf16((float)d), 0x3f80);
    for (int i = 0; i < 200000; i++) {
        /* a deterministic spread of doubles over f16's range */
        uint64_t u = (uint64_t)0x3e00000000000000ull + (uint64_t)i * 0x000000fb7e3c9f1bull;
        double x = dfrom(u);
        double want = ref_round(x, 10, 15, 0);
        if (fabs(want) > 65504)
            want = copysign(INFINITY, x);
        assert_true((double)mt_f16_to_f32(mt_f64_to_f16(x)) == want);
        want = ref_round(x, 7, 127, 0);
        assert_true((double)mt_bf16_to_f32(mt_f64_to_bf16(x)) == want);
    }
    /* NaN: sign and payload top kept, quiet */
    assert_int_equal(mt_f64_to_f16(dfrom(0x7ff4000000000000ull)), 0x7f00);
    assert_int_equal(mt_f64_to_f16(dfrom(0xfff8000000000000ull)), 0xfe00);
    assert_int_equal(mt_f64_to_bf16(dfrom(0x7ff4000000000000ull)), 0x7fe0);
}

/* ---- fp8 ---- */

static void test_fp8_patterns(void **state) {
    (void)state;
    for (unsigned b = 0; b < 256; b++) {
        double want4 = ref_decode(b, 3, 4, 7, 0);
        float f4 = mt_f8e4nv_to_f32((unsigned char)b);
        double want5 = ref_decode(b, 2, 5, 15, 1);
        float f5 = mt_f8e5_to_f32((unsigned char)b);
        if (isnan(want4)) {
            assert_int_equal(fbits(f4), 0x7fffffff);
            assert_int_equal(mt_f32_to_f8e4nv(f4), 0x7f);
        } else {
            assert_true((double)f4 == want4 && !!signbit(f4) == !!signbit(want4));
            assert_int_equal(mt_f32_to_f8e4nv(f4), b);
            assert_int_equal(fbits(mt_round_f8e4nv(f4)), fbits(f4));
        }
        if (isnan(want5)) {
            assert_int_equal(fbits(f5), 0x7fffffff);
            assert_int_equal(mt_f32_to_f8e5(f5), 0x7f);
            assert_int_equal(mt_f32_to_f8e5_rtz(f5), 0x7f);
        } else {
            assert_true((double)f5 == want5 && !!signbit(f5) == !!signbit(want5));
            if (!isinf(want5)) {
                assert_int_equal(mt_f32_to_f8e5(f5), b);
                assert_int_equal(fbits(mt_round_f8e5(f5)), fbits(f5));
            }
            assert_int_equal(mt_f32_to_f8e5_rtz(f5), b); /* rtz keeps infinities */
        }
    }
}

/* Between each pair of neighbouring fp8 values: the midpoint goes to the
 * even one, a hair either side to the nearer; past the largest finite
 * value everything saturates (the rn casts are satfinite). */
static void test_fp8_rounding(void **state) {
    (void)state;
    for (int fmt = 0; fmt < 2; fmt++) {
        unsigned top = fmt ? 0x7b : 0x7e;
        for (unsigned b = 0; b < top; b++) {
            float lo = fmt ? mt_f8e5_to_f32((unsigned char)b) : mt_f8e4nv_to_f32((unsigned char)b);
            float hi = fmt ? mt_f8e5_to_f32((unsigned char)(b + 1))
                           : mt_f8e4nv_to_f32((unsigned char)(b + 1));
            float mid = (float)(((double)lo + hi) / 2);
            unsigned char (*cvt)(float) = fmt ? mt_f32_to_f8e5 : mt_f32_to_f8e4nv;
            assert_int_equal(cvt(mid), (b & 1) ? b + 1 : b);
            assert_int_equal(cvt(nextafterf(mid, 0)), b);
            assert_int_equal(cvt(nextafterf(mid, INFINITY)), b + 1);
            assert_int_equal(cvt(-nextafterf(mid, INFINITY)), (b + 1) | 0x80);
        }
    }
    assert_int_equal(mt_f32_to_f8e4nv(464.0f), 0x7e); /* tie below 480: even */
    assert_int_equal(mt_f32_to_f8e4nv(464.5f), 0x7e); /* past: saturates */
    assert_int_equal(mt_f32_to_f8e4nv(INFINITY), 0x7e);
    assert_int_equal(mt_f32_to_f8e4nv(-INFINITY), 0xfe);
    assert_int_equal(mt_f32_to_f8e4nv(-NAN), 0x7f);
    assert_int_equal(mt_f32_to_f8e5(1e30f), 0x7b);
    assert_int_equal(mt_f32_to_f8e5(-INFINITY), 0xfb);
    assert_int_equal(mt_f32_to_f8e5_rtz(-INFINITY), 0xfc);
    assert_int_equal(mt_f32_to_f8e5_rtz(1e30f), 0x7b);
    assert_int_equal(mt_f32_to_f8e5_rtz(1.74f), 0x3e); /* 1.5: truncated */
    assert_int_equal(mt_f32_to_f8e4nv(-0.0f), 0x80);
    /* Triton's e5m2 -> bf16 treats exponent 31 as finite */
    assert_int_equal(mt_f8e5_to_bf16(0x7c), 0x4780);
    assert_int_equal(mt_f8e5_to_bf16(0xff), 0xc7e0);
    assert_int_equal(mt_f8e5_to_bf16(0x01), 0x3780);
    assert_int_equal(mt_f8e5_to_bf16(0x3c), mt_f32_to_bf16(1.0f));
}

/* ---- loads and stores ---- */

/* Every pattern survives a load and a store (NaN payloads too), and the
 * loaded register cast to f32 is what Triton's cvt gives. */
static void test_load_store(void **state) {
    (void)state;
    for (unsigned h = 0; h < 0x10000; h++) {
        assert_int_equal(mt_f16_store(mt_f16_load((unsigned short)h)), h);
        assert_int_equal(fbits(mt_nan_canon(mt_f16_load((unsigned short)h))),
                         fbits(mt_f16_to_f32((unsigned short)h)));
        assert_int_equal(mt_bf16_store(mt_bf16_load((unsigned short)h)), h);
        assert_int_equal(fbits(mt_bf16_load((unsigned short)h)),
                         fbits(mt_bf16_to_f32((unsigned short)h)));
    }
    for (unsigned b = 0; b < 256; b++) {
        assert_int_equal(mt_f8e4nv_store(mt_f8e4nv_load((unsigned char)b)), b);
        assert_int_equal(mt_f8e5_store(mt_f8e5_load((unsigned char)b)), b);
        assert_int_equal(fbits(mt_nan_canon(mt_f8e4nv_load((unsigned char)b))),
                         fbits(mt_f8e4nv_to_f32((unsigned char)b)));
        assert_int_equal(fbits(mt_nan_canon(mt_f8e5_load((unsigned char)b))),
                         fbits(mt_f8e5_to_f32((unsigned char)b)));
        /* Triton's e5m2 -> bf16 from a register */
        assert_int_equal(mt_f8e5_to_bf16(mt_f8e5_store(mt_f8e5_load((unsigned char)b))),
                         mt_f8e5_to_bf16((unsigned char)b));
    }
    /* torch's NaNs: a copy keeps them, a cast canonicalises */
    assert_int_equal(mt_f16_store(mt_f16_load(0x7e00)), 0x7e00);
    assert_int_equal(mt_f16_store(mt_round_f16(mt_f16_load(0x7e00))), 0x7fff);
    assert_int_equal(mt_bf16_store(mt_bf16_load(0x7fc0)), 0x7fc0);
    assert_int_equal(mt_f16_store(ffrom(0x7f800001)), 0x7fff); /* payload below fp16's */
    assert_int_equal(mt_f8e5_store(INFINITY), 0x7c);
}

/* ---- integers ---- */

static void test_int_to_narrow_float(void **state) {
    (void)state;
    /* 2^31 + 2^23 + 1: just above a bf16 tie; through f32 it is the tie */
    long long v = (1ll << 31) + (1ll << 23) + 1;
    assert_int_equal(mt_i64_to_bf16(v), 0x4f01);
    assert_int_equal(mt_f32_to_bf16((float)v), 0x4f00);
    assert_int_equal(mt_i64_to_bf16(-v), 0xcf01);
    assert_int_equal(mt_u64_to_bf16(~0ull), 0x5f80);         /* 2^64 */
    assert_int_equal(mt_i64_to_bf16(INT64_MIN), 0xdf00);     /* -2^63 */
    assert_int_equal(mt_i64_to_bf16(0), 0);
    assert_int_equal(mt_u64_to_f16(65519), 0x7bff);
    assert_int_equal(mt_u64_to_f16(65520), 0x7c00);          /* tie to even: inf */
    assert_int_equal(mt_i64_to_f16(-70000), 0xfc00);
    assert_int_equal(mt_i64_to_f16(INT64_MIN), 0xfc00);
    assert_int_equal(mt_i64_to_f16(2049), 0x6800);           /* tie: even */
    assert_int_equal(mt_i64_to_f16(2051), 0x6802);
    for (long long i = -70000; i <= 70000; i += 7) {
        double want = ref_round((double)i, 10, 15, 0);
        if (fabs(want) > 65504)
            want = copysign(INFINITY, want);
        assert_true((double)mt_f16_to_f32(mt_i64_to_f16(i)) == want);
        assert_true((double)mt_bf16_to_f32(mt_i64_to_bf16(i)) == ref_round((double)i, 7, 127, 0));
    }
}

static void test_float_to_int(void **state) {
    (void)state;
    /* i8/u8 saturate to 16 bits, then keep the low byte */
    assert_int_equal(mt_cvt_i8(300.0), 44);
    assert_int_equal(mt_cvt_i8(-129.9), 127);
    assert_int_equal(mt_cvt_i8(1e9), -1);  /* 32767 -> 0xff */
    assert_int_equal(mt_cvt_i8(-1e9), 0);  /* -32768 -> 0x00 */
    assert_int_equal(mt_cvt_u8(-1.0), 0);
    assert_int_equal(mt_cvt_u8(256.5), 0);
    assert_int_equal(mt_cvt_u8(1e9), 255);
    assert_int_equal(mt_cvt_u8_f(-0.0f), 0);
    assert_int_equal(mt_cvt_i16(1e6), 32767);
    assert_int_equal(mt_cvt_i16_f(-1e6f), -32768);
    assert_int_equal(mt_cvt_u16(-5.0), 0);
    assert_int_equal(mt_cvt_i32(2147483647.9), 2147483647);
    assert_int_equal(mt_cvt_i32(-2147483649.0), INT32_MIN);
    assert_int_equal(mt_cvt_i32_f(INFINITY), INT32_MAX);
    assert_int_equal(mt_cvt_i32(-2.9), -2);
    assert_int_equal(mt_cvt_u32(4294967296.0), UINT32_MAX);
    assert_int_equal(mt_cvt_u32(4294967295.5), UINT32_MAX);
    assert_true(mt_cvt_i64(1e300) == INT64_MAX);
    assert_true(mt_cvt_i64(-INFINITY) == INT64_MIN);
    assert_true(mt_cvt_i64_f(-9.3e18f) == INT64_MIN);
    assert_true(mt_cvt_u64(1.8446744073709552e19) == UINT64_MAX);
    assert_true(mt_cvt_u64(1.8446744073709550e19) == 18446744073709549568ull);
    assert_true(mt_cvt_u64_f(-1e30f) == 0);
    /* NaN: from f64 the destination's top bit, from f32 0 below 64 bits */
    assert_int_equal(mt_cvt_i32(NAN), INT32_MIN);
    assert_int_equal(mt_cvt_u32(-NAN), 0x80000000u);
    assert_int_equal(mt_cvt_i16(NAN), -32768);
    assert_int_equal(mt_cvt_u16(NAN), 0x8000);
    assert_int_equal(mt_cvt_i8(NAN), 0);
    assert_int_equal(mt_cvt_u8(NAN), 0);
    assert_true(mt_cvt_u64(NAN) == 1ull << 63);
    assert_int_equal(mt_cvt_i32_f(NAN), 0);
    assert_int_equal(mt_cvt_u16_f(NAN), 0);
    assert_int_equal(mt_cvt_i8_f(NAN), 0);
    assert_true(mt_cvt_i64_f(NAN) == INT64_MIN);
    assert_true(mt_cvt_u64_f(NAN) == 1ull << 63);
    assert_true(mt_f64_from_bits(mt_f64_bits(-2.5)) == -2.5);
    assert_true((uint64_t)mt_f64_bits(1.0) == 0x3ff0000000000000ull);
}

/* ---- Triton's own results ---- */

/* The bits the generated code would produce for Triton's x.to(dst),
 * computed the way the emitter does (narrow floats in float registers). */
static int emulate(const char *src, const char *dst, int rtz, uint64_t in, uint64_t *out) {
    double d = 0;
    float f = 0;
    int is_f64 = 0, is_float = 1;
    long long si = 0;
    unsigned long long ui = 0;
    int is_signed = src[0] == 'i';
    if (!strcmp(src, dst)) { /* Triton's x.to(x.dtype) is x */
        *out = in;
        return 0;
    }
    if (!strcmp(src, "f64")) {
        d = dfrom(in);
        is_f64 = 1;
    } else if (!strcmp(src, "f32"))
        f = ffrom((uint32_t)in);
    else if (!strcmp(src, "f16"))
        f = mt_f16_to_f32((unsigned short)in);
    else if (!strcmp(src, "bf16"))
        f = mt_bf16_to_f32((unsigned short)in);
    else if (!strcmp(src, "f8e4nv"))
        f = mt_f8e4nv_to_f32((unsigned char)in);
    else if (!strcmp(src, "f8e5"))
        f = mt_f8e5_to_f32((unsigned char)in);
    else {
        int w = atoi(src + 1);
        is_float = 0;
        ui = w == 64 ? in : in & ((1ull << w) - 1);
        si = w == 64 ? (long long)in : (long long)(ui ^ 1ull << (w - 1)) - (1ll << (w - 1));
        if (!is_signed)
            si = (long long)ui; /* not used for 64-bit unsigned */
    }
    if (!is_f64 && is_float)
        d = mt_f32_to_f64(f);
    if (!strcmp(dst, "i1"))
        *out = is_float ? (is_f64 ? d != 0 : f != 0) || (is_f64 ? isnan(d) : isnan(f))
                        : ui != 0;
    else if (dst[0] == 'i' || dst[0] == 'u') {
        if (!is_float)
            return -1; /* integer to integer: not this header's */
        int w = atoi(dst + 1);
        uint64_t r;
#define PICK(N) (is_f64 ? (uint64_t)mt_cvt_##N(d) : (uint64_t)mt_cvt_##N##_f(f))
        if (!strcmp(dst, "i8")) r = PICK(i8);
        else if (!strcmp(dst, "i16")) r = PICK(i16);
        else if (!strcmp(dst, "i32")) r = PICK(i32);
        else if (!strcmp(dst, "i64")) r = PICK(i64);
        else if (!strcmp(dst, "u8")) r = PICK(u8);
        else if (!strcmp(dst, "u16")) r = PICK(u16);
        else if (!strcmp(dst, "u32")) r = PICK(u32);
        else r = PICK(u64);
#undef PICK
        *out = w == 64 ? r : r & ((1ull << w) - 1);
    } else if (!is_float) {
        if (!strcmp(dst, "f16"))
            *out = is_signed ? mt_i64_to_f16(si) : mt_u64_to_f16(ui);
        else if (!strcmp(dst, "bf16"))
            *out = is_signed ? mt_i64_to_bf16(si) : mt_u64_to_bf16(ui);
        else if (!strcmp(dst, "f32"))
            *out = fbits(is_signed ? (float)si : (float)ui);
        else if (!strcmp(dst, "f64"))
            *out = dbits(is_signed ? (double)si : (double)ui);
        else
            return -1;
    } else if (!strcmp(dst, "f16"))
        *out = is_f64 ? mt_f64_to_f16(d) : rtz ? mt_f32_to_f16_rtz(f) : mt_f32_to_f16(f);
    else if (!strcmp(dst, "bf16")) {
        if (!strcmp(src, "f8e5"))
            *out = mt_f8e5_to_bf16((unsigned char)in);
        else
            *out = is_f64 ? mt_f64_to_bf16(d) : rtz ? mt_f32_to_bf16_rtz(f) : mt_f32_to_bf16(f);
    } else if (!strcmp(dst, "f32"))
        *out = fbits(is_f64 ? mt_f64_to_f32(d) : f);
    else if (!strcmp(dst, "f64"))
        *out = dbits(is_f64 ? d : mt_f32_to_f64(f));
    else if (!strcmp(dst, "f8e4nv") && !is_f64)
        *out = mt_f32_to_f8e4nv(f);
    else if (!strcmp(dst, "f8e5") && !is_f64)
        *out = rtz ? mt_f32_to_f8e5_rtz(f) : mt_f32_to_f8e5(f);
    else
        return -1;
    return 0;
}

/* The record: one cast per line,
 *   ["SRC", "DST", "rtne"|"rtz", "IN:OUT IN:OUT ..."],
 * bits in hex. */
/* TF32 (cvt.rna.tf32.f32): 10 mantissa bits, ties away from zero, NaN
 * and infinities kept, overflow to infinity. */
static void test_tf32_rounding(void **state) {
    (void)state;
    const float tie = 1.0f + 0x1p-11f, below = 1.0f + 0x1p-12f;
    assert_true(mt_tf32(tie) == 1.0f + 0x1p-10f);
    assert_true(mt_tf32(-tie) == -(1.0f + 0x1p-10f));
    assert_true(mt_tf32(below) == 1.0f);
    assert_true(mt_tf32(1.0f + 0x1p-10f + 0x1p-11f) == 1.0f + 0x1p-9f); /* away, not even */
    assert_true(mt_tf32(3.0f) == 3.0f);
    assert_true(isinf(mt_tf32(INFINITY)) && mt_tf32(-INFINITY) < 0);
    assert_true(isnan(mt_tf32(NAN)));
    assert_true(isinf(mt_tf32(0x1.fffffep127f)));
    for (unsigned u = 0x00800000u; u < 0x7f7fe000u; u += 0x1235u) { /* normal range */
        float x = mt_rt_ffrom(u), r = mt_tf32(x);
        assert_int_equal(mt_rt_fbits(r) & 0x1fffu, 0);
        assert_true(fabs((double)r - (double)x) <= ldexp(fabs((double)x), -11));
    }
}

static void test_triton_record(void **state) {
    (void)state;
    char path[512];
    const char *env = getenv("MT_CASTS_FILE");
    if (env && *env)
        snprintf(path, sizeof path, "%s", env);
    else {
        const char *slash = strrchr(__FILE__, '/');
        snprintf(path, sizeof path, "%.*sdata/triton_casts.json",
                 slash ? (int)(slash - __FILE__ + 1) : 0, __FILE__);
    }
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    size_t cap = 1 << 20, casts = 0, values = 0, mismatches = 0;
    char *line = malloc(cap);
    assert_non_null(line);
    int ch;
    for (;;) {
        size_t n = 0;
        while ((ch = fgetc(fp)) != EOF && ch != '\n') {
            if (n + 1 >= cap) {
                cap *= 2;
                line = realloc(line, cap);
                assert_non_null(line);
            }
            line[n++] = (char)ch;
        }
        line[n] = 0;
        char src[8], dst[8], rnd[8];
        int used = 0;
        if (sscanf(line, " [\"%7[^\"]\", \"%7[^\"]\", \"%7[^\"]\", \"%n", src, dst, rnd,
                   &used) == 3 && used > 0) {
            int rtz = !strcmp(rnd, "rtz");
            char *p = line + used;
            casts++;
            while (*p && *p != '"') {
                char *end;
                uint64_t in = strtoull(p, &end, 16), out = strtoull(end + 1, &p, 16), got = 0;
                assert_true(*end == ':');
                while (*p == ' ')
                    p++;
                if (emulate(src, dst, rtz, in, &got) != 0)
                    fail_msg("no emulation of %s -> %s", src, dst);
                values++;
                if (got != out && mismatches++ < 20)
                    print_error("%s -> %s %s: in %llx: Triton %llx, header %llx\n", src, dst,
                                rnd, (unsigned long long)in, (unsigned long long)out,
                                (unsigned long long)got);
            }
        }
        if (ch == EOF)
            break;
    }
    fclose(fp);
    free(line);
    print_message("%zu casts, %zu values checked against Triton\n", casts, values);
    assert_true(casts > 90 && values > 30000);
    assert_int_equal(mismatches, 0);
}

/* ---- the header inside both backends ---- */

/* One thread per input; each writes NOUT results, every function of the
 * header on x (float), d (double) and v (long long). */
enum { NOUT = 40 };
static const char kernel_src[] =
    "extern \"C\" __global__ void __launch_bounds__(128)\n"
    "conv(const float *xs, const double *ds, const long long *vs,\n"
    "     unsigned long long *o, int n) {\n"
    "    int i = (int)blockIdx.x * 128 + (int)threadIdx.x;\n"
    "    if (i >= n) return;\n"
    "    float x = xs[i]; double d = ds[i]; long long v = vs[i];\n"
    "    unsigned long long *r = o + (long long)i * 40;\n"
    "    r[0] = mt_f32_to_f16(x); r[1] = mt_f32_to_f16_rtz(x); r[2] = mt_f64_to_f16(d);\n"
    "    r[3] = mt_f32_to_bf16(x); r[4] = mt_f32_to_bf16_rtz(x); r[5] = mt_f64_to_bf16(d);\n"
    "    r[6] = mt_f32_to_f8e4nv(x); r[7] = mt_f32_to_f8e5(x); r[8] = mt_f32_to_f8e5_rtz(x);\n"
    "    r[9] = __float_as_uint(mt_f16_to_f32((unsigned short)v));\n"
    "    r[10] = __float_as_uint(mt_bf16_to_f32((unsigned short)v));\n"
    "    r[11] = __float_as_uint(mt_f8e4nv_to_f32((unsigned char)v));\n"
    "    r[12] = __float_as_uint(mt_f8e5_to_f32((unsigned char)v));\n"
    "    r[13] = mt_f8e5_to_bf16((unsigned char)v);\n"
    "    r[14] = __float_as_uint(mt_round_f16(x)); r[15] = __float_as_uint(mt_round_bf16(x));\n"
    "    r[16] = __float_as_uint(mt_round_f8e4nv(x)); r[17] = __float_as_uint(mt_round_f8e5(x));\n"
    "    r[18] = mt_i64_to_bf16(v); r[19] = mt_u64_to_bf16((unsigned long long)v);\n"
    "    r[20] = mt_i64_to_f16(v); r[21] = mt_u64_to_f16((unsigned long long)v);\n"
    "    r[22] = (unsigned long long)mt_cvt_i8(d); r[23] = (unsigned long long)mt_cvt_i16(d);\n"
    "    r[24] = (unsigned long long)mt_cvt_i32(d); r[25] = (unsigned long long)mt_cvt_i64(d);\n"
    "    r[26] = mt_cvt_u8(d); r[27] = mt_cvt_u16(d); r[28] = mt_cvt_u32(d); r[29] = mt_cvt_u64(d);\n"
    "    r[30] = (unsigned long long)mt_cvt_i8_f(x); r[31] = (unsigned long long)mt_cvt_i32_f(x);\n"
    "    r[32] = (unsigned long long)mt_cvt_i64_f(x); r[33] = mt_cvt_u16_f(x);\n"
    "    r[34] = mt_cvt_u64_f(x);\n"
    "    r[35] = (unsigned long long)mt_f64_bits(mt_f64_from_bits(__double_as_longlong(d))) ^\n"
    "            (unsigned long long)__double_as_longlong(mt_f32_to_f64(x)) ^ __float_as_uint(mt_f64_to_f32(d));\n"
    "    r[36] = mt_f16_store(mt_f16_load((unsigned short)v));\n"
    "    r[37] = mt_bf16_store(mt_bf16_load((unsigned short)v)) | (unsigned long long)mt_f8e5_store(x) << 16;\n"
    "    r[38] = mt_f8e4nv_store(mt_f8e4nv_load((unsigned char)v)) | (unsigned long long)mt_f8e4nv_store(x) << 8;\n"
    "    r[39] = __float_as_uint(mt_nan_canon(mt_f16_load((unsigned short)v)));\n"
    "}\n";

/* The same, in C. */
static void expect(float x, double d, long long v, unsigned long long *r) {
    r[0] = mt_f32_to_f16(x), r[1] = mt_f32_to_f16_rtz(x), r[2] = mt_f64_to_f16(d);
    r[3] = mt_f32_to_bf16(x), r[4] = mt_f32_to_bf16_rtz(x), r[5] = mt_f64_to_bf16(d);
    r[6] = mt_f32_to_f8e4nv(x), r[7] = mt_f32_to_f8e5(x), r[8] = mt_f32_to_f8e5_rtz(x);
    r[9] = fbits(mt_f16_to_f32((unsigned short)v));
    r[10] = fbits(mt_bf16_to_f32((unsigned short)v));
    r[11] = fbits(mt_f8e4nv_to_f32((unsigned char)v));
    r[12] = fbits(mt_f8e5_to_f32((unsigned char)v));
    r[13] = mt_f8e5_to_bf16((unsigned char)v);
    r[14] = fbits(mt_round_f16(x)), r[15] = fbits(mt_round_bf16(x));
    r[16] = fbits(mt_round_f8e4nv(x)), r[17] = fbits(mt_round_f8e5(x));
    r[18] = mt_i64_to_bf16(v), r[19] = mt_u64_to_bf16((unsigned long long)v);
    r[20] = mt_i64_to_f16(v), r[21] = mt_u64_to_f16((unsigned long long)v);
    r[22] = (unsigned long long)mt_cvt_i8(d), r[23] = (unsigned long long)mt_cvt_i16(d);
    r[24] = (unsigned long long)mt_cvt_i32(d), r[25] = (unsigned long long)mt_cvt_i64(d);
    r[26] = mt_cvt_u8(d), r[27] = mt_cvt_u16(d), r[28] = mt_cvt_u32(d), r[29] = mt_cvt_u64(d);
    r[30] = (unsigned long long)mt_cvt_i8_f(x), r[31] = (unsigned long long)mt_cvt_i32_f(x);
    r[32] = (unsigned long long)mt_cvt_i64_f(x), r[33] = mt_cvt_u16_f(x);
    r[34] = mt_cvt_u64_f(x);
    r[35] = dbits(d) ^ dbits(mt_f32_to_f64(x)) ^ fbits(mt_f64_to_f32(d));
    r[36] = mt_f16_store(mt_f16_load((unsigned short)v));
    r[37] = mt_bf16_store(mt_bf16_load((unsigned short)v)) | (unsigned long long)mt_f8e5_store(x) << 16;
    r[38] = mt_f8e4nv_store(mt_f8e4nv_load((unsigned char)v)) | (unsigned long long)mt_f8e4nv_store(x) << 8;
    r[39] = fbits(mt_nan_canon(mt_f16_load((unsigned short)v)));
}

static void test_host_backend(void **state) {
    Ctx *c = *state;
    enum { N = 300 };
    static const uint32_t specials[] = {0x7fc00000, 0xff800001, 0x7f800000, 0xff800000,
                                        0x80000000, 0x477ff000, 0x43e80000, 0x4f000000,
                                        0xdf000000, 0x3f801000, 0x3f803000, 0x00000001};
    float xs[N];
    double ds[N];
    long long vs[N];
    for (int i = 0; i < N; i++) {
        uint32_t u = i < 12 ? specials[i] : (uint32_t)i * 0x9e3779b9u;
        xs[i] = ffrom(u);
        ds[i] = i < 12 ? (double)xs[i] : dfrom((uint64_t)i * 0x9e3779b97f4a7c15ull);
        vs[i] = (long long)((uint64_t)i * 0xbf58476d1ce4e5b9ull >> (i % 64));
    }
    unsigned long long *got = calloc((size_t)N * NOUT, sizeof *got);
    assert_non_null(got);
    HostModule *m = NULL;
    const char *types[] = {"const float*", "const double*", "const long long*",
                           "unsigned long long*", "int"};
    int rc = host_build(c, kernel_src, "conv", types, 5, &m);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c->err));
    assert_int_equal(rc, 0);
    const float *px = xs;
    const double *pd = ds;
    const long long *pv = vs;
    unsigned long long *po = got;
    int n = N;
    void *args[] = {&px, &pd, &pv, &po, &n};
    const uint32_t grid[3] = {(N + 127) / 128, 1, 1};
    rc = launch_host(c, m, grid, 128, args);
    assert_int_equal(rc, 0);
    host_module_free(m);
    for (int i = 0; i < N; i++) {
        unsigned long long want[NOUT];
        expect(xs[i], ds[i], vs[i], want);
        for (int k = 0; k < NOUT; k++)
            if (got[i * NOUT + k] != want[k])
                fail_msg("input %d result %d: host backend %llx, C %llx", i, k,
                         got[i * NOUT + k], want[k]);
    }
    free(got);
}

static void test_nvrtc(void **state) {
    Ctx *c = *state;
    CudaDriver *d = cuda_nvrtc_open(c);
    if (!d) { /* no NVRTC here: nothing to compile with */
        assert_int_equal(c->status, MT_ERR_NO_CUDA);
        skip();
    }
    StrBuf ptx, cubin; /* the cubin: ptxas checks the inline PTX */
    sb_init(&ptx);
    sb_init(&cubin);
    int rc = nvrtc_compile(c, d, kernel_src, "sm_90", true, &ptx, &cubin);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c->err));
    assert_int_equal(rc, 0);
    /* Triton's own instructions */
    static const char *const want[] = {
        "cvt.rn.f16.f32", "cvt.rz.f16.f32", "cvt.rn.f16.f64", "cvt.rn.bf16.f32",
        "cvt.rz.bf16.f32", "cvt.rn.bf16.f64", "cvt.rn.satfinite.e4m3x2.f32",
        "cvt.rn.satfinite.e5m2x2.f32", "cvt.f32.f16", "cvt.f32.bf16", "cvt.rn.f16x2.e4m3x2",
        "cvt.rn.f16x2.e5m2x2", "cvt.rn.bf16.s64", "cvt.rn.bf16.u64", "cvt.rn.f16.s64",
        "cvt.rn.f16.u64", "cvt.rzi.s16.f64", "cvt.rzi.s32.f64", "cvt.rzi.s64.f64",
        "cvt.rzi.u16.f64", "cvt.rzi.u32.f64", "cvt.rzi.u64.f64", "cvt.rzi.s16.f32",
        "cvt.rzi.s32.f32", "cvt.rzi.s64.f32", "cvt.rzi.u16.f32", "cvt.rzi.u64.f32",
        "cvt.f64.f32", "cvt.rn.f32.f64"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(sb_str(&ptx), want[i]))
            fail_msg("no %s in the sm_90 PTX", want[i]);
    /* an older GPU: the software bodies, which need none of them */
    sb_clear(&ptx);
    rc = nvrtc_compile(c, d, kernel_src, "sm_80", true, &ptx, NULL);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c->err));
    assert_int_equal(rc, 0);
    assert_null(strstr(sb_str(&ptx), "e4m3x2"));
    assert_null(strstr(sb_str(&ptx), "cvt.rn.bf16.s64"));
    sb_clear(&cubin);
    assert_int_equal(nvrtc_compile(c, d, kernel_src, "sm_80", true, &ptx, &cubin), 0);
    sb_free(&ptx);
    sb_free(&cubin);
    cuda_driver_close(d);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_patterns),
        cmocka_unit_test(test_bf16_patterns),
        cmocka_unit_test(test_f32_narrowing),
        cmocka_unit_test(test_f64_single_rounding),
        cmocka_unit_test(test_fp8_patterns),
        cmocka_unit_test(test_fp8_rounding),
        cmocka_unit_test(test_load_store),
        cmocka_unit_test(test_int_to_narrow_float),
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_tf32_rounding),
        cmocka_unit_test(test_triton_record),
        cmocka_unit_test_setup_teardown(test_host_backend, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nvrtc, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
