/* test_libdevice_rt.c: the host bodies of src/mt_libdevice_rt.h, the
 * functions of triton.language.extra.cuda.libdevice as the cpu and fiber
 * backends run them.
 *
 * Checked: the integer functions on their edge cases and against plain
 * reference formulas on pseudo-random operands; the bit casts; every
 * conversion family in its four rounding modes on halfway, out-of-range,
 * NaN, infinite and -0 inputs; the _rn/_rz/_rd/_ru arithmetic, bit for
 * bit, where the modes differ (inexact, subnormal and overflowing results,
 * exact results, x + -x) and against an exact criterion on random f32
 * operands; the approximate-instruction functions' edges; the special
 * functions against reference values and on their special inputs.
 *
 * How the literals were made: a Python script (kept out of the tree)
 * computed each expected result exactly: directed arithmetic and
 * conversions by exact rational arithmetic (fractions.Fraction) rounded to
 * binary32/binary64 with subnormals and overflow in the mode (square roots
 * from mpmath.sqrt at 300 bits, which is never exactly at a rounding
 * boundary); special functions with mpmath 1.2.1 at 300 bits, rounded to
 * nearest (erfcinv by mpmath.findroot on erfc at 300 + log2(1/p) bits,
 * erfcx beyond 1000 by its asymptotic series to 2^-400), printed as hex
 * float literals.  Expected results are exact (bit for bit, -0 included)
 * except the special functions, which must be within the stated ulp: 1
 * for every f32 result (computed in double and rounded once), for f64 1 to
 * 4 by function (what this file's formulas reach with margin), 8 where
 * glibc's j0/j1/y0/y1/jn/yn are used, at points away from their zeros. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fenv.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mt_kernel_rt.h's narrowing shifts are not -Wconversion-clean, which
 * the project's flags do not ask for; this file's own checks are */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#include "mt_kernel_rt.h"
#pragma GCC diagnostic pop
#include "mt_libdevice_rt.h"

static int failures;

static uint32_t fbits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static uint64_t dbits(double d) {
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}
/* the number of representable values between a and b (same sign or not) */
static uint64_t ulps(uint64_t a, uint64_t b, uint64_t sign) {
    uint64_t ma = a & (sign - 1), mb = b & (sign - 1);
    if ((a & sign) != (b & sign))
        return ma + mb;
    return ma > mb ? ma - mb : mb - ma;
}
/* tol 0: the same bits; else within tol ulp, an infinite or zero
 * expectation still exactly; NaN expects any NaN */
static void check_d(double got, double want, int tol, const char *what) {
    int ok = isnan(want)                             ? isnan(got)
             : tol == 0 || isinf(want) || want == 0 ? dbits(got) == dbits(want)
                                                    : !isnan(got) && ulps(dbits(got), dbits(want), 1ull << 63) <= (uint64_t)tol;
    if (!ok) {
        printf("  %s = %a, want %a\n", what, got, want);
        failures++;
    }
}
static void check_f(float got, float want, int tol, const char *what) {
    int ok = isnan(want)                             ? isnan(got)
             : tol == 0 || isinf(want) || want == 0 ? fbits(got) == fbits(want)
                                                    : !isnan(got) && ulps(fbits(got), fbits(want), 1u << 31) <= (uint64_t)tol;
    if (!ok) {
        printf("  %s = %a, want %a\n", what, (double)got, (double)want);
        failures++;
    }
}
static void check_i(long long got, long long want, const char *what) {
    if (got != want) {
        printf("  %s = %lld (%#llx), want %lld\n", what, got, (unsigned long long)got, want);
        failures++;
    }
}
#define EQ(expr, want) check_i((long long)(expr), (long long)(want), #expr)
#define EQF(expr, want) check_f(expr, want, 0, #expr)
#define EQD(expr, want) check_d(expr, want, 0, #expr)
#define CHECK_F(expr, want, tol) check_f(expr, want, tol, #expr)
#define CHECK_D(expr, want, tol) check_d(expr, want, tol, #expr)
#define DONE()                                                                         \
    do {                                                                               \
        int failed = failures;                                                         \
        failures = 0;                                                                  \
        assert_int_equal(failed, 0);                                                   \
    } while (0)

/* the four (or three) modes of one operation, each called with constant
 * operands: a compiler that folded or moved the operation out of its
 * rounding mode would give the nearest result */
#define MODE4(CHK, fn, args, rn, rz, rd, ru)                                           \
    do {                                                                               \
        CHK(mt_nv_##fn##_rn args, rn, 0, #fn "_rn" #args);                             \
        CHK(mt_nv_##fn##_rz args, rz, 0, #fn "_rz" #args);                             \
        CHK(mt_nv_##fn##_rd args, rd, 0, #fn "_rd" #args);                             \
        CHK(mt_nv_##fn##_ru args, ru, 0, #fn "_ru" #args);                             \
    } while (0)
#define MODE3(CHK, fn, args, rz, rd, ru)                                               \
    do {                                                                               \
        CHK(mt_nv_##fn##_rz args, rz, 0, #fn "_rz" #args);                             \
        CHK(mt_nv_##fn##_rd args, rd, 0, #fn "_rd" #args);                             \
        CHK(mt_nv_##fn##_ru args, ru, 0, #fn "_ru" #args);                             \
    } while (0)
#define F4(fn, a, b, rn, rz, rd, ru) MODE4(check_f, fn, (a, b), rn, rz, rd, ru)
#define D4(fn, a, b, rn, rz, rd, ru) MODE4(check_d, fn, (a, b), rn, rz, rd, ru)
#define F2_3(fn, a, b, rz, rd, ru) MODE3(check_f, fn, (a, b), rz, rd, ru)
#define D2_3(fn, a, b, rz, rd, ru) MODE3(check_d, fn, (a, b), rz, rd, ru)
#define F3(fn, a, b, c, rn, rz, rd, ru) MODE4(check_f, fn, (a, b, c), rn, rz, rd, ru)
#define D3(fn, a, b, c, rn, rz, rd, ru) MODE4(check_d, fn, (a, b, c), rn, rz, rd, ru)
#define F1(fn, a, rn, rz, rd, ru) MODE4(check_f, fn, (a), rn, rz, rd, ru)
#define D1(fn, a, rn, rz, rd, ru) MODE4(check_d, fn, (a), rn, rz, rd, ru)
#define F1_3(fn, a, rz, rd, ru) MODE3(check_f, fn, (a), rz, rd, ru)
#define D1_3(fn, a, rz, rd, ru) MODE3(check_d, fn, (a), rz, rd, ru)
#define C4(fn, a, rn, rz, rd, ru) MODE4(check_d, fn, (a), rn, rz, rd, ru)
#define CHECK_INT(got, want, tol, what) check_i(got, want, what)
#define I4(fn, a, rn, rz, rd, ru) MODE4(CHECK_INT, fn, (a), rn, rz, rd, ru)

/* the value, hidden from the compiler: the special functions are checked
 * as kernels run them, with libm at run time, not through GCC's constant
 * folding (MPFR, correctly rounded), which a literal argument would get */
static double rt_d(double x) {
    volatile double v = x;
    return v;
}
static float rt_f(float x) {
    volatile float v = x;
    return v;
}

/* xorshift64: the pseudo-random operands */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_u64(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
/* a finite float of exponent in [lo, hi], either sign */
static float rand_float(int lo, int hi) {
    uint64_t r = next_u64();
    float m = 1.0f + (float)(r & 0x7fffff) * 0x1p-23f;
    int e = lo + (int)((r >> 23) % (uint64_t)(hi - lo + 1));
    return (r >> 40) & 1 ? -ldexpf(m, e) : ldexpf(m, e);
}

/* ---- integer functions ---- */

static int ref_clz64(uint64_t u) {
    int n = 0;
    for (uint64_t bit = 1ull << 63; bit && !(u & bit); bit >>= 1)
        n++;
    return n;
}
static int ref_popc64(uint64_t u) {
    int n = 0;
    for (; u; u >>= 1)
        n += (int)(u & 1);
    return n;
}
static int ref_ffs64(uint64_t u) {
    for (int i = 0; i < 64; i++)
        if (u >> i & 1)
            return i + 1;
    return 0;
}
static uint64_t ref_brev64(uint64_t u) {
    uint64_t r = 0;
    for (int i = 0; i < 64; i++)
        r |= (u >> i & 1) << (63 - i);
    return r;
}
static int64_t floor_div(int64_t p, int64_t d) { return p >= 0 ? p / d : -((-p + d - 1) / d); }
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

static void test_integer_edges(void **state) {
    (void)state;
    EQ(mt_nv_clz(0), 32);
    EQ(mt_nv_clz(1), 31);
    EQ(mt_nv_clz(-1), 0);
    EQ(mt_nv_clz(0x00010000), 15);
    EQ(mt_nv_clzll(0), 64);
    EQ(mt_nv_clzll(1), 63);
    EQ(mt_nv_clzll(LLONG_MIN), 0);
    EQ(mt_nv_clzll(1ll << 32), 31);
    EQ(mt_nv_popc(0), 0);
    EQ(mt_nv_popc(-1), 32);
    EQ(mt_nv_popc(0x55555555), 16);
    EQ(mt_nv_popcll(-1), 64);
    EQ(mt_nv_popcll(LLONG_MIN + 1), 2);
    EQ(mt_nv_ffs(0), 0);
    EQ(mt_nv_ffs(1), 1);
    EQ(mt_nv_ffs(INT_MIN), 32);
    EQ(mt_nv_ffs(0x18), 4);
    EQ(mt_nv_ffs(-1), 1);
    EQ(mt_nv_ffsll(0), 0);
    EQ(mt_nv_ffsll(LLONG_MIN), 64);
    EQ(mt_nv_ffsll(1ll << 40), 41);
    EQ(mt_nv_brev(1), INT_MIN);
    EQ(mt_nv_brev(0x12345678), 0x1e6a2c48);
    EQ(mt_nv_brev(-1), -1);
    EQ(mt_nv_brevll(1), LLONG_MIN);
    EQ(mt_nv_brevll(0x0123456789abcdefll), (long long)0xf7b3d591e6a2c480ull);
    /* bytes 0..7 of {y, x} are 00 11 22 33 44 55 66 77; only the low 3
     * bits of each selector nibble count */
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, 0x3210), 0x33221100);
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, 0x7654), 0x77665544);
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, 0x0123), 0x00112233);
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, 0x89ab), 0x00112233);
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, (int)0xffff0123u), 0x00112233);
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, 0x5140), 0x55114400);
    EQ(mt_nv_byte_perm(0x33221100, 0x77665544, 0x4444), 0x44444444);
    EQ(mt_nv_mulhi(INT_MIN, INT_MIN), 0x40000000);
    EQ(mt_nv_mulhi(-1, 1), -1);
    EQ(mt_nv_mulhi(INT_MAX, INT_MAX), 0x3fffffff);
    EQ(mt_nv_mulhi(INT_MIN, INT_MAX), -0x40000000);
    EQ(mt_nv_umulhi(0xffffffffu, 0xffffffffu), 0xfffffffeu);
    EQ(mt_nv_umulhi(0x80000000u, 2u), 1);
    EQ(mt_nv_mul64hi(LLONG_MIN, LLONG_MIN), 1ll << 62);
    EQ(mt_nv_mul64hi(-1, 1), -1);
    EQ(mt_nv_mul64hi(-1, -1), 0);
    EQ(mt_nv_mul64hi(LLONG_MAX, -2), -1);
    EQ(mt_nv_mul64hi(LLONG_MIN, LLONG_MAX), -(1ll << 62));
    check_i((long long)mt_nv_umul64hi(~0ull, ~0ull), (long long)(~0ull - 1), "umul64hi(~0, ~0)");
    EQ(mt_nv_umul64hi(1ull << 32, 1ull << 32), 1);
    /* mul24 sign-extends the low 24 bits: 0x800000 is -2^23 */
    EQ(mt_nv_mul24(0x800000, 2), -(1 << 24));
    EQ(mt_nv_mul24(0x7fffff, 0x7fffff), -16777215);
    EQ(mt_nv_mul24((int)0xff000003u, 5), 15);
    EQ(mt_nv_mul24(-1, -1), 1);
    EQ(mt_nv_umul24(0xffffffffu, 0xffffffffu), 0xfe000001u);
    EQ(mt_nv_umul24(0x1000003u, 5u), 15);
    EQ(mt_nv_sad(INT_MIN, INT_MAX, 0), -1);
    EQ(mt_nv_sad(5, 3, 10), 12);
    EQ(mt_nv_sad(-3, 5, 0xffffffffu), 7);
    EQ(mt_nv_sad(INT_MAX, INT_MIN, 1), 0);
    EQ(mt_nv_usad(0, 0xffffffffu, 1), 0);
    EQ(mt_nv_usad(10, 3, 5), 12);
    EQ(mt_nv_abs(INT_MIN), INT_MIN);
    EQ(mt_nv_abs(-5), 5);
    EQ(mt_nv_abs(INT_MAX), INT_MAX);
    EQ(mt_nv_llabs(LLONG_MIN), LLONG_MIN);
    EQ(mt_nv_llabs(-5), 5);
    EQ(mt_nv_hadd(INT_MAX, INT_MAX), INT_MAX);
    EQ(mt_nv_hadd(INT_MIN, INT_MIN), INT_MIN);
    EQ(mt_nv_hadd(-1, 0), -1);
    EQ(mt_nv_hadd(-3, 0), -2);
    EQ(mt_nv_hadd(INT_MAX, INT_MIN), -1);
    EQ(mt_nv_rhadd(-1, 0), 0);
    EQ(mt_nv_rhadd(-3, 0), -1);
    EQ(mt_nv_rhadd(INT_MAX, INT_MAX), INT_MAX);
    EQ(mt_nv_rhadd(INT_MIN, INT_MIN), INT_MIN);
    EQ(mt_nv_rhadd(INT_MAX, INT_MIN), 0);
    EQ(mt_nv_uhadd(~0u, ~0u), ~0u);
    EQ(mt_nv_uhadd(~0u, 0), 0x7fffffffu);
    EQ(mt_nv_urhadd(~0u, 0), 0x80000000u);
    EQ(mt_nv_urhadd(~0u, ~0u), ~0u);
    DONE();
}

static void test_integer_random(void **state) {
    (void)state;
    for (int i = 0; i < 20000 && failures < 20; i++) {
        uint64_t r1 = next_u64(), r2 = next_u64(), r3 = next_u64();
        /* sparse bit patterns too, where clz/ffs/popc are interesting */
        if (i & 1)
            r1 &= next_u64() & next_u64(), r2 >>= (r3 & 63);
        int x = (int)(int32_t)(uint32_t)r1, y = (int)(int32_t)(uint32_t)r2;
        unsigned ux = (unsigned)r1, uy = (unsigned)r2, uz = (unsigned)r3;
        long long lx = (long long)r1, ly = (long long)r2;
        EQ(mt_nv_clz(x), ref_clz64(ux) - 32);
        EQ(mt_nv_clzll(lx), ref_clz64(r1));
        EQ(mt_nv_popc(x), ref_popc64(ux));
        EQ(mt_nv_popcll(lx), ref_popc64(r1));
        EQ(mt_nv_ffs(x), ref_ffs64(ux));
        EQ(mt_nv_ffsll(lx), ref_ffs64(r1));
        EQ((unsigned)mt_nv_brev(x), (unsigned)(ref_brev64(ux) >> 32));
        EQ((unsigned long long)mt_nv_brevll(lx), ref_brev64(r1));
        unsigned want = 0;
        uint8_t bytes[8];
        for (int k = 0; k < 4; k++)
            bytes[k] = (uint8_t)(ux >> 8 * k), bytes[k + 4] = (uint8_t)(uy >> 8 * k);
        for (int k = 0; k < 4; k++)
            want |= (unsigned)bytes[(uz >> 4 * k) & 7] << 8 * k;
        EQ((unsigned)mt_nv_byte_perm(x, y, (int)uz), want);
        EQ(mt_nv_mulhi(x, y), floor_div((int64_t)x * y, 4294967296ll));
        EQ(mt_nv_umulhi(ux, uy), (unsigned)(((uint64_t)ux * uy) >> 32));
        EQ((unsigned long long)mt_nv_mul64hi(lx, ly), (uint64_t)((u128)((i128)lx * ly) >> 64));
        check_i((long long)mt_nv_umul64hi(r1, r2), (long long)(uint64_t)(((u128)r1 * r2) >> 64), "umul64hi");
        int64_t s24x = (int64_t)(ux & 0xffffff) - (ux & 0x800000 ? 1 << 24 : 0);
        int64_t s24y = (int64_t)(uy & 0xffffff) - (uy & 0x800000 ? 1 << 24 : 0);
        EQ((unsigned)mt_nv_mul24(x, y), (unsigned)((uint64_t)(s24x * s24y) & 0xffffffffu));
        EQ(mt_nv_umul24(ux, uy), (unsigned)((uint64_t)(ux & 0xffffff) * (uy & 0xffffff) & 0xffffffffu));
        EQ((unsigned)mt_nv_sad(x, y, uz), (unsigned)(((uint64_t)llabs((long long)x - y) + uz) & 0xffffffffu));
        EQ(mt_nv_usad(ux, uy, uz), (unsigned)(((uint64_t)llabs((long long)ux - uy) + uz) & 0xffffffffu));
        EQ(mt_nv_hadd(x, y), (int)floor(((double)x + y) / 2));
        EQ(mt_nv_rhadd(x, y), (int)floor(((double)x + y + 1) / 2));
        EQ(mt_nv_uhadd(ux, uy), (unsigned)(((uint64_t)ux + uy) / 2));
        EQ(mt_nv_urhadd(ux, uy), (unsigned)(((uint64_t)ux + uy + 1) / 2));
        EQ((unsigned)mt_nv_abs(x), x < 0 ? 0u - ux : ux);
    }
    DONE();
}

static void test_bit_casts(void **state) {
    (void)state;
    EQ(mt_nv_float_as_int(-0.0f), INT_MIN);
    EQ(mt_nv_float_as_int(1.0f), 0x3f800000);
    EQ(mt_nv_float_as_uint(-1.0f), (int)0xbf800000u);
    EQ(mt_nv_float_as_uint(-NAN) < 0, 1);
    EQF(mt_nv_int_as_float(0x7f800000), INFINITY);
    EQF(mt_nv_int_as_float(INT_MIN), -0.0f);
    EQF(mt_nv_uint_as_float(0x80000001u), -0x1p-149f);
    EQD(mt_nv_longlong_as_double(LLONG_MIN), -0.0);
    EQD(mt_nv_longlong_as_double(0x3ff0000000000000ll), 1.0);
    EQ(mt_nv_double_as_longlong(-0.0), LLONG_MIN);
    EQ(mt_nv_double_as_longlong(-INFINITY), (long long)0xfff0000000000000ull);
    EQD(mt_nv_hiloint2double(0x3ff00000, 0), 1.0);
    EQD(mt_nv_hiloint2double((int)0x80000000u, 1), -0x0.0000000000001p-1022);
    EQ(mt_nv_double_as_longlong(mt_nv_hiloint2double(-1, -1)), -1);
    EQ(mt_nv_double2hiint(-2.0), (int)0xc0000000u);
    EQ(mt_nv_double2hiint(mt_nv_longlong_as_double(0x0123456789abcdefll)), 0x01234567);
    EQ(mt_nv_double2loint(mt_nv_longlong_as_double(0x0123456789abcdefll)), (int)0x89abcdefu);
    DONE();
}

/* ---- the rounding modes ---- */

static void test_directed_arithmetic(void **state) {
    (void)state;
    F4(fadd, 0x1p+0f, 0x1p-30f, 0x1p+0f, 0x1p+0f, 0x1p+0f, 0x1.000002p+0f);
    F4(fadd, -0x1p+0f, -0x1p-30f, -0x1p+0f, -0x1p+0f, -0x1.000002p+0f, -0x1p+0f);
    F4(fadd, 0x1p+0f, -0x1p-30f, 0x1p+0f, 0x1.fffffep-1f, 0x1.fffffep-1f, 0x1p+0f);
    F4(fadd, 0x1.8p+0f, -0x1.8p+0f, 0x0p+0f, 0x0p+0f, -0x0p+0f, 0x0p+0f);
    F4(fadd, -0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f);
    F4(fadd, 0x0p+0f, -0x0p+0f, 0x0p+0f, 0x0p+0f, -0x0p+0f, 0x0p+0f);
    F4(fadd, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    F4(fadd, -0x1.fffffep+127f, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f);
    F4(fadd, 0x1.555556p-2f, 0x1p+0f, 0x1.555556p+0f, 0x1.555554p+0f, 0x1.555554p+0f, 0x1.555556p+0f);
    F4(fadd, 0x1p-126f, -0x1.8p-148f, 0x1.fffff4p-127f, 0x1.fffff4p-127f, 0x1.fffff4p-127f, 0x1.fffff4p-127f);
    F4(fadd, 0x1.93e594p+99f, -0x1.4484cp-100f, 0x1.93e594p+99f, 0x1.93e592p+99f, 0x1.93e592p+99f, 0x1.93e594p+99f);
    F4(fsub, 0x1p+0f, -0x1p-30f, 0x1p+0f, 0x1p+0f, 0x1p+0f, 0x1.000002p+0f);
    F4(fsub, -0x1p+0f, 0x1p-30f, -0x1p+0f, -0x1p+0f, -0x1.000002p+0f, -0x1p+0f);
    F4(fsub, 0x1p+0f, 0x1p-30f, 0x1p+0f, 0x1.fffffep-1f, 0x1.fffffep-1f, 0x1p+0f);
    F4(fsub, 0x1.8p+0f, 0x1.8p+0f, 0x0p+0f, 0x0p+0f, -0x0p+0f, 0x0p+0f);
    F4(fsub, -0x0p+0f, 0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f);
    F4(fsub, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f, -0x0p+0f, 0x0p+0f);
    F4(fsub, 0x1.fffffep+127f, -0x1.fffffep+127f, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    F4(fsub, -0x1.fffffep+127f, 0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f);
    F4(fsub, 0x1.555556p-2f, -0x1p+0f, 0x1.555556p+0f, 0x1.555554p+0f, 0x1.555554p+0f, 0x1.555556p+0f);
    F4(fsub, 0x1p-126f, 0x1.8p-148f, 0x1.fffff4p-127f, 0x1.fffff4p-127f, 0x1.fffff4p-127f, 0x1.fffff4p-127f);
    F4(fsub, 0x1.93e594p+99f, 0x1.4484cp-100f, 0x1.93e594p+99f, 0x1.93e592p+99f, 0x1.93e592p+99f, 0x1.93e594p+99f);
    F4(fmul, 0x1.000002p+0f, 0x1.000002p+0f, 0x1.000004p+0f, 0x1.000004p+0f, 0x1.000004p+0f, 0x1.000006p+0f);
    F4(fmul, -0x1.000002p+0f, 0x1.000004p+0f, -0x1.000006p+0f, -0x1.000006p+0f, -0x1.000008p+0f, -0x1.000006p+0f);
    F4(fmul, 0x1.fffffep+127f, 0x1p+1f, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    F4(fmul, -0x1.fffffep+127f, 0x1p+1f, -INFINITY, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f);
    F4(fmul, 0x1p-126f, 0x1.8p-1f, 0x1.8p-127f, 0x1.8p-127f, 0x1.8p-127f, 0x1.8p-127f);
    F4(fmul, 0x1.000002p-126f, 0x1p-3f, 0x1p-129f, 0x1p-129f, 0x1p-129f, 0x1.00001p-129f);
    F4(fmul, 0x1p-126f, 0x1p-126f, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p-149f);
    F4(fmul, -0x1p-126f, 0x1p-126f, -0x0p+0f, -0x0p+0f, -0x1p-149f, -0x0p+0f);
    F4(fmul, -0x0p+0f, 0x1.8p+1f, -0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f);
    F4(fmul, 0x1.8p+1f, 0x1.4p+2f, 0x1.ep+3f, 0x1.ep+3f, 0x1.ep+3f, 0x1.ep+3f);
    F2_3(fdiv, 0x1p+0f, 0x1.8p+1f, 0x1.555554p-2f, 0x1.555554p-2f, 0x1.555556p-2f);
    F2_3(fdiv, -0x1p+0f, 0x1.8p+1f, -0x1.555554p-2f, -0x1.555556p-2f, -0x1.555554p-2f);
    F2_3(fdiv, 0x1p+1f, 0x1.8p+1f, 0x1.555554p-1f, 0x1.555554p-1f, 0x1.555556p-1f);
    F2_3(fdiv, 0x1p+0f, 0x1.fffffep+127f, 0x1p-128f, 0x1p-128f, 0x1.000008p-128f);
    F2_3(fdiv, -0x1p+0f, 0x1.fffffep+127f, -0x1p-128f, -0x1.000008p-128f, -0x1p-128f);
    F2_3(fdiv, 0x1.fffffep+127f, 0x1p-1f, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    F2_3(fdiv, -0x1.fffffep+127f, 0x1p-1f, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f);
    F2_3(fdiv, 0x1p-149f, 0x1.8p+1f, 0x0p+0f, 0x0p+0f, 0x1p-149f);
    F2_3(fdiv, 0x1.8p+2f, 0x1.8p+1f, 0x1p+1f, 0x1p+1f, 0x1p+1f);
    F2_3(fdiv, -0x0p+0f, 0x1.4p+2f, -0x0p+0f, -0x0p+0f, -0x0p+0f);
    F3(fmaf, 0x1.000002p+0f, 0x1.fffffcp-1f, -0x1p+0f, -0x1p-46f, -0x1p-46f, -0x1p-46f, -0x1p-46f);
    F3(fmaf, 0x1p+0f, 0x1p+0f, 0x1p-30f, 0x1p+0f, 0x1p+0f, 0x1p+0f, 0x1.000002p+0f);
    F3(fmaf, -0x1p+0f, 0x1p+0f, -0x1p-30f, -0x1p+0f, -0x1p+0f, -0x1.000002p+0f, -0x1p+0f);
    F3(fmaf, 0x1p+0f, -0x1p+0f, 0x1p+0f, 0x0p+0f, 0x0p+0f, -0x0p+0f, 0x0p+0f);
    F3(fmaf, 0x1.000002p-70f, 0x1p-70f, 0x1p-149f, 0x1.008p-140f, 0x1.008p-140f, 0x1.008p-140f, 0x1.01p-140f);
    F3(fmaf, -0x1.000002p-70f, 0x1p-70f, 0x1p-149f, -0x1.ffp-141f, -0x1.ffp-141f, -0x1p-140f, -0x1.ffp-141f);
    F3(fmaf, 0x1.fffffep+127f, 0x1p+1f, -0x1.fffffep+127f, 0x1.fffffep+127f, 0x1.fffffep+127f, 0x1.fffffep+127f, 0x1.fffffep+127f);
    F3(fmaf, 0x1.8p+1f, 0x1.555556p-2f, -0x1p+0f, 0x1p-25f, 0x1p-25f, 0x1p-25f, 0x1p-25f);
    F1(frcp, 0x1.8p+1f, 0x1.555556p-2f, 0x1.555554p-2f, 0x1.555554p-2f, 0x1.555556p-2f);
    F1(frcp, -0x1.8p+1f, -0x1.555556p-2f, -0x1.555554p-2f, -0x1.555556p-2f, -0x1.555554p-2f);
    F1(frcp, 0x1.fffffep+127f, 0x1p-128f, 0x1p-128f, 0x1p-128f, 0x1.000008p-128f);
    F1(frcp, -0x1.fffffep+127f, -0x1p-128f, -0x1p-128f, -0x1.000008p-128f, -0x1p-128f);
    F1(frcp, 0x1p-149f, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    F1(frcp, 0x1p-128f, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    F1(frcp, 0x1.8p-1f, 0x1.555556p+0f, 0x1.555554p+0f, 0x1.555554p+0f, 0x1.555556p+0f);
    F1(frcp, 0x1p+2f, 0x1p-2f, 0x1p-2f, 0x1p-2f, 0x1p-2f);
    F1_3(fsqrt, 0x1p+1f, 0x1.6a09e6p+0f, 0x1.6a09e6p+0f, 0x1.6a09e8p+0f);
    F1_3(fsqrt, 0x1.8p+1f, 0x1.bb67aep+0f, 0x1.bb67aep+0f, 0x1.bb67bp+0f);
    F1_3(fsqrt, 0x1p-1f, 0x1.6a09e6p-1f, 0x1.6a09e6p-1f, 0x1.6a09e8p-1f);
    F1_3(fsqrt, 0x1p-149f, 0x1.6a09e6p-75f, 0x1.6a09e6p-75f, 0x1.6a09e8p-75f);
    F1_3(fsqrt, 0x1.8p-125f, 0x1.bb67aep-63f, 0x1.bb67aep-63f, 0x1.bb67bp-63f);
    F1_3(fsqrt, 0x1p+2f, 0x1p+1f, 0x1p+1f, 0x1p+1f);
    F1_3(fsqrt, 0x1.fffffep+127f, 0x1.fffffep+63f, 0x1.fffffep+63f, 0x1p+64f);
    F1_3(fsqrt, 0x1p-148f, 0x1p-74f, 0x1p-74f, 0x1p-74f);
    D4(dadd, 0x1p+0, 0x1p-60, 0x1p+0, 0x1p+0, 0x1p+0, 0x1.0000000000001p+0);
    D4(dadd, -0x1p+0, -0x1p-60, -0x1p+0, -0x1p+0, -0x1.0000000000001p+0, -0x1p+0);
    D4(dadd, 0x1p+0, -0x1p-60, 0x1p+0, 0x1.fffffffffffffp-1, 0x1.fffffffffffffp-1, 0x1p+0);
    D4(dadd, 0x1.8p+0, -0x1.8p+0, 0x0p+0, 0x0p+0, -0x0p+0, 0x0p+0);
    D4(dadd, -0x0p+0, -0x0p+0, -0x0p+0, -0x0p+0, -0x0p+0, -0x0p+0);
    D4(dadd, 0x0p+0, -0x0p+0, 0x0p+0, 0x0p+0, -0x0p+0, 0x0p+0);
    D4(dadd, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY);
    D4(dadd, -0x1.fffffffffffffp+1023, -0x1.fffffffffffffp+1023, -INFINITY, -0x1.fffffffffffffp+1023, -INFINITY, -0x1.fffffffffffffp+1023);
    D4(dadd, 0x1.5555555555555p-2, 0x1p+0, 0x1.5555555555555p+0, 0x1.5555555555555p+0, 0x1.5555555555555p+0, 0x1.5555555555556p+0);
    D4(dadd, 0x1p-1022, -0x0.0000000000003p-1022, 0x0.ffffffffffffdp-1022, 0x0.ffffffffffffdp-1022, 0x0.ffffffffffffdp-1022, 0x0.ffffffffffffdp-1022);
    D4(dadd, 0x1.7e43c8800759cp+996, -0x1.56e1fc2f8f359p-997, 0x1.7e43c8800759cp+996, 0x1.7e43c8800759bp+996, 0x1.7e43c8800759bp+996, 0x1.7e43c8800759cp+996);
    D4(dsub, 0x1p+0, -0x1p-60, 0x1p+0, 0x1p+0, 0x1p+0, 0x1.0000000000001p+0);
    D4(dsub, -0x1p+0, 0x1p-60, -0x1p+0, -0x1p+0, -0x1.0000000000001p+0, -0x1p+0);
    D4(dsub, 0x1p+0, 0x1p-60, 0x1p+0, 0x1.fffffffffffffp-1, 0x1.fffffffffffffp-1, 0x1p+0);
    D4(dsub, 0x1.8p+0, 0x1.8p+0, 0x0p+0, 0x0p+0, -0x0p+0, 0x0p+0);
    D4(dsub, -0x0p+0, 0x0p+0, -0x0p+0, -0x0p+0, -0x0p+0, -0x0p+0);
    D4(dsub, 0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0, -0x0p+0, 0x0p+0);
    D4(dsub, 0x1.fffffffffffffp+1023, -0x1.fffffffffffffp+1023, INFINITY, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY);
    D4(dsub, -0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, -INFINITY, -0x1.fffffffffffffp+1023, -INFINITY, -0x1.fffffffffffffp+1023);
    D4(dsub, 0x1.5555555555555p-2, -0x1p+0, 0x1.5555555555555p+0, 0x1.5555555555555p+0, 0x1.5555555555555p+0, 0x1.5555555555556p+0);
    D4(dsub, 0x1p-1022, 0x0.0000000000003p-1022, 0x0.ffffffffffffdp-1022, 0x0.ffffffffffffdp-1022, 0x0.ffffffffffffdp-1022, 0x0.ffffffffffffdp-1022);
    D4(dsub, 0x1.7e43c8800759cp+996, 0x1.56e1fc2f8f359p-997, 0x1.7e43c8800759cp+996, 0x1.7e43c8800759bp+996, 0x1.7e43c8800759bp+996, 0x1.7e43c8800759cp+996);
    D4(dmul, 0x1.0000000000001p+0, 0x1.0000000000001p+0, 0x1.0000000000002p+0, 0x1.0000000000002p+0, 0x1.0000000000002p+0, 0x1.0000000000003p+0);
    D4(dmul, -0x1.0000000000001p+0, 0x1.0000000000002p+0, -0x1.0000000000003p+0, -0x1.0000000000003p+0, -0x1.0000000000004p+0, -0x1.0000000000003p+0);
    D4(dmul, 0x1.fffffffffffffp+1023, 0x1p+1, INFINITY, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY);
    D4(dmul, -0x1.fffffffffffffp+1023, 0x1p+1, -INFINITY, -0x1.fffffffffffffp+1023, -INFINITY, -0x1.fffffffffffffp+1023);
    D4(dmul, 0x1p-1022, 0x1.8p-1, 0x0.cp-1022, 0x0.cp-1022, 0x0.cp-1022, 0x0.cp-1022);
    D4(dmul, 0x1.0000000000001p-1022, 0x1p-3, 0x0.2p-1022, 0x0.2p-1022, 0x0.2p-1022, 0x0.2000000000001p-1022);
    D4(dmul, 0x1p-1022, 0x1p-1022, 0x0p+0, 0x0p+0, 0x0p+0, 0x0.0000000000001p-1022);
    D4(dmul, -0x1p-1022, 0x1p-1022, -0x0p+0, -0x0p+0, -0x0.0000000000001p-1022, -0x0p+0);
    D4(dmul, -0x0p+0, 0x1.8p+1, -0x0p+0, -0x0p+0, -0x0p+0, -0x0p+0);
    D4(dmul, 0x1.8p+1, 0x1.4p+2, 0x1.ep+3, 0x1.ep+3, 0x1.ep+3, 0x1.ep+3);
    D2_3(ddiv, 0x1p+0, 0x1.8p+1, 0x1.5555555555555p-2, 0x1.5555555555555p-2, 0x1.5555555555556p-2);
    D2_3(ddiv, -0x1p+0, 0x1.8p+1, -0x1.5555555555555p-2, -0x1.5555555555556p-2, -0x1.5555555555555p-2);
    D2_3(ddiv, 0x1p+1, 0x1.8p+1, 0x1.5555555555555p-1, 0x1.5555555555555p-1, 0x1.5555555555556p-1);
    D2_3(ddiv, 0x1p+0, 0x1.fffffffffffffp+1023, 0x0.4p-1022, 0x0.4p-1022, 0x0.4000000000001p-1022);
    D2_3(ddiv, -0x1p+0, 0x1.fffffffffffffp+1023, -0x0.4p-1022, -0x0.4000000000001p-1022, -0x0.4p-1022);
    D2_3(ddiv, 0x1.fffffffffffffp+1023, 0x1p-1, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY);
    D2_3(ddiv, -0x1.fffffffffffffp+1023, 0x1p-1, -0x1.fffffffffffffp+1023, -INFINITY, -0x1.fffffffffffffp+1023);
    D2_3(ddiv, 0x0.0000000000001p-1022, 0x1.8p+1, 0x0p+0, 0x0p+0, 0x0.0000000000001p-1022);
    D2_3(ddiv, 0x1.8p+2, 0x1.8p+1, 0x1p+1, 0x1p+1, 0x1p+1);
    D2_3(ddiv, -0x0p+0, 0x1.4p+2, -0x0p+0, -0x0p+0, -0x0p+0);
    D3(fma, 0x1.0000000000001p+0, 0x1.ffffffffffffep-1, -0x1p+0, -0x1p-104, -0x1p-104, -0x1p-104, -0x1p-104);
    D3(fma, 0x1p+0, 0x1p+0, 0x1p-60, 0x1p+0, 0x1p+0, 0x1p+0, 0x1.0000000000001p+0);
    D3(fma, -0x1p+0, 0x1p+0, -0x1p-60, -0x1p+0, -0x1p+0, -0x1.0000000000001p+0, -0x1p+0);
    D3(fma, 0x1p+0, -0x1p+0, 0x1p+0, 0x0p+0, 0x0p+0, -0x0p+0, 0x0p+0);
    D3(fma, 0x1p-540, 0x1p-540, 0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x0.0000000000002p-1022);
    D3(fma, -0x1p-540, 0x1p-540, 0x0.0000000000001p-1022, 0x0.0000000000001p-1022, 0x0p+0, 0x0p+0, 0x0.0000000000001p-1022);
    D3(fma, 0x1.fffffffffffffp+1023, 0x1p+1, -0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023);
    D3(fma, 0x1.8p+1, 0x1.5555555555555p-2, -0x1p+0, -0x1p-54, -0x1p-54, -0x1p-54, -0x1p-54);
    D1(drcp, 0x1.8p+1, 0x1.5555555555555p-2, 0x1.5555555555555p-2, 0x1.5555555555555p-2, 0x1.5555555555556p-2);
    D1(drcp, -0x1.8p+1, -0x1.5555555555555p-2, -0x1.5555555555555p-2, -0x1.5555555555556p-2, -0x1.5555555555555p-2);
    D1(drcp, 0x1.fffffffffffffp+1023, 0x0.4p-1022, 0x0.4p-1022, 0x0.4p-1022, 0x0.4000000000001p-1022);
    D1(drcp, -0x1.fffffffffffffp+1023, -0x0.4p-1022, -0x0.4p-1022, -0x0.4000000000001p-1022, -0x0.4p-1022);
    D1(drcp, 0x0.0000000000001p-1022, INFINITY, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY);
    D1(drcp, 0x0.1p-1022, INFINITY, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+1023, INFINITY);
    D1(drcp, 0x1.8p-1, 0x1.5555555555555p+0, 0x1.5555555555555p+0, 0x1.5555555555555p+0, 0x1.5555555555556p+0);
    D1(drcp, 0x1p+2, 0x1p-2, 0x1p-2, 0x1p-2, 0x1p-2);
    D1_3(dsqrt, 0x1p+1, 0x1.6a09e667f3bccp+0, 0x1.6a09e667f3bccp+0, 0x1.6a09e667f3bcdp+0);
    D1_3(dsqrt, 0x1.8p+1, 0x1.bb67ae8584caap+0, 0x1.bb67ae8584caap+0, 0x1.bb67ae8584cabp+0);
    D1_3(dsqrt, 0x1p-1, 0x1.6a09e667f3bccp-1, 0x1.6a09e667f3bccp-1, 0x1.6a09e667f3bcdp-1);
    D1_3(dsqrt, 0x0.0000000000001p-1022, 0x1p-537, 0x1p-537, 0x1p-537);
    D1_3(dsqrt, 0x1.8p-1021, 0x1.bb67ae8584caap-511, 0x1.bb67ae8584caap-511, 0x1.bb67ae8584cabp-511);
    D1_3(dsqrt, 0x1p+2, 0x1p+1, 0x1p+1, 0x1p+1);
    D1_3(dsqrt, 0x1.fffffffffffffp+1023, 0x1.fffffffffffffp+511, 0x1.fffffffffffffp+511, 0x1p+512);
    D1_3(dsqrt, 0x0.0000000000002p-1022, 0x1.6a09e667f3bccp-537, 0x1.6a09e667f3bccp-537, 0x1.6a09e667f3bcdp-537);
    /* NaN, infinities and zeros: the same in every mode */
    F4(fadd, INFINITY, -INFINITY, NAN, NAN, NAN, NAN);
    F4(fadd, NAN, 1.0f, NAN, NAN, NAN, NAN);
    F4(fmul, INFINITY, 0.0f, NAN, NAN, NAN, NAN);
    F4(fmul, -INFINITY, 2.0f, -INFINITY, -INFINITY, -INFINITY, -INFINITY);
    D4(dsub, INFINITY, INFINITY, NAN, NAN, NAN, NAN);
    D4(dmul, -0.0, -0.0, 0.0, 0.0, 0.0, 0.0);
    F2_3(fdiv, 1.0f, 0.0f, INFINITY, INFINITY, INFINITY);
    F2_3(fdiv, 1.0f, -0.0f, -INFINITY, -INFINITY, -INFINITY);
    F2_3(fdiv, 0.0f, 0.0f, NAN, NAN, NAN);
    D2_3(ddiv, -1.0, 0.0, -INFINITY, -INFINITY, -INFINITY);
    D2_3(ddiv, INFINITY, INFINITY, NAN, NAN, NAN);
    F1(frcp, 0.0f, INFINITY, INFINITY, INFINITY, INFINITY);
    F1(frcp, -0.0f, -INFINITY, -INFINITY, -INFINITY, -INFINITY);
    D1(drcp, -INFINITY, -0.0, -0.0, -0.0, -0.0);
    F1_3(fsqrt, -0.0f, -0.0f, -0.0f, -0.0f);
    F1_3(fsqrt, -1.0f, NAN, NAN, NAN);
    F1_3(fsqrt, INFINITY, INFINITY, INFINITY, INFINITY);
    D1_3(dsqrt, -0.0, -0.0, -0.0, -0.0);
    D1_3(dsqrt, -0x1p-1074, NAN, NAN, NAN);
    F3(fmaf, INFINITY, 0.0f, 1.0f, NAN, NAN, NAN, NAN);
    D3(fma, -0.0, 1.0, 0.0, 0.0, 0.0, -0.0, 0.0);
    D3(fma, -0.0, 1.0, -0.0, -0.0, -0.0, -0.0, -0.0);
    DONE();
}

/* the exact criterion for a float r = op rounded in a mode, given the
 * exact result q as a double: the nearest, or the neighbour on the right
 * side of q (q exact in double for the operands drawn below) */
static float round_ref(double q, int mode) {
    float n = (float)q; /* nearest: C's conversion in the default mode */
    if (mode == 0 || (double)n == q || isinf(n))
        return mode == 0 || !isinf(n) ? n : mode == 1 || (mode == 2) == (q > 0) ? copysignf(0x1.fffffep127f, n) : n;
    float lo = (double)n < q ? n : nextafterf(n, -INFINITY), hi = nextafterf(lo, INFINITY);
    return mode == 2 ? lo : mode == 3 ? hi : q > 0 ? lo : hi;
}

static void test_directed_random(void **state) {
    (void)state;
    typedef float (*Op2)(float, float);
    static const Op2 add[4] = {mt_nv_fadd_rn, mt_nv_fadd_rz, mt_nv_fadd_rd, mt_nv_fadd_ru};
    static const Op2 sub[4] = {mt_nv_fsub_rn, mt_nv_fsub_rz, mt_nv_fsub_rd, mt_nv_fsub_ru};
    static const Op2 mul[4] = {mt_nv_fmul_rn, mt_nv_fmul_rz, mt_nv_fmul_rd, mt_nv_fmul_ru};
    static const Op2 div[4] = {NULL, mt_nv_fdiv_rz, mt_nv_fdiv_rd, mt_nv_fdiv_ru};
    static float (*const root[4])(float) = {NULL, mt_nv_fsqrt_rz, mt_nv_fsqrt_rd, mt_nv_fsqrt_ru};
    static float (*const d2f[4])(double) = {mt_nv_double2float_rn, mt_nv_double2float_rz,
                                            mt_nv_double2float_rd, mt_nv_double2float_ru};
    for (int i = 0; i < 20000 && failures < 20; i++) {
        /* exponents within 24 of each other: the sum is exact in double,
         * as every product of two floats is */
        float a = rand_float(-12, 12), b = rand_float(-12, 12);
        float m1 = rand_float(-140, 120), m2 = rand_float(-140, 120), b2 = fabsf(m2);
        double x = ldexp((double)(next_u64() >> 11), 60 - (int)(next_u64() % 300));
        if (a == -b)
            continue;
        for (int m = 0; m < 4; m++) {
            check_f(add[m](a, b), round_ref((double)a + b, m), 0, "random fadd");
            check_f(sub[m](a, b), round_ref((double)a - b, m), 0, "random fsub");
            check_f(mul[m](m1, m2), round_ref((double)m1 * m2, m), 0, "random fmul");
            check_f(d2f[m](x), round_ref(x, m), 0, "random double2float");
            if (m == 0)
                continue;
            /* quotient and root: the result is at or below (down) the exact
             * value, its neighbour beyond it, which exact products tell */
            int down = m == 2 || (m == 1 && m1 > 0);
            float q = div[m](m1, b2), qn = nextafterf(q, down ? INFINITY : -INFINITY);
            double pq = (double)q * b2, pn = (double)qn * b2;
            if (isfinite(q) && isfinite(qn) && !(down ? pq <= m1 && m1 < pn : pn < m1 && m1 <= pq))
                check_f(q, NAN, 0, "random fdiv_r[zdu]");
            float r = root[m](b2), rn = nextafterf(r, m != 3 ? INFINITY : 0.0f);
            if (!(m != 3 ? (double)r * r <= b2 && b2 < (double)rn * rn
                         : (double)rn * rn < b2 && b2 <= (double)r * r))
                check_f(r, NAN, 0, "random fsqrt_r[zdu]");
        }
    }
    DONE();
}

/* inlined into loops the backends vectorise: still one mode per call */
static void test_directed_in_loops(void **state) {
    (void)state;
    enum { N = 64 };
    float a[N], b[N], ru[N], rd[N];
    double x[N], y[N], dz[N];
    long long q[N];
    for (int i = 0; i < N; i++) {
        a[i] = rand_float(-10, 10), b[i] = rand_float(-40, 10);
        x[i] = (double)a[i] / 3, y[i] = (double)b[i] * 7;
    }
    for (int i = 0; i < N; i++) {
        ru[i] = mt_nv_fadd_ru(a[i], b[i]);
        rd[i] = mt_nv_fmul_rd(a[i], b[i]);
        dz[i] = mt_nv_ddiv_rz(x[i], y[i]);
        q[i] = mt_nv_double2ll_ru(x[i] * 1e6);
    }
    for (int i = 0; i < N; i++) {
        float (*const add_ru)(float, float) = mt_nv_fadd_ru, (*const mul_rd)(float, float) = mt_nv_fmul_rd;
        check_f(ru[i], add_ru(a[i], b[i]), 0, "fadd_ru in a loop");
        check_f(rd[i], mul_rd(a[i], b[i]), 0, "fmul_rd in a loop");
        check_f(rd[i], round_ref((double)a[i] * b[i], 2), 0, "fmul_rd in a loop, exact");
        check_d(dz[i], mt_nv_ddiv_rz(x[i], y[i]), 0, "ddiv_rz in a loop");
        check_i(q[i], (long long)ceil(x[i] * 1e6), "double2ll_ru in a loop");
    }
    DONE();
}

/* each call restores the caller's mode, and its result does not depend on it */
static void test_rounding_mode_restored(void **state) {
    (void)state;
    assert_int_equal(fegetround(), FE_TONEAREST);
    EQF(mt_nv_fadd_ru(1.0f, 0x1p-30f), 0x1.000002p0f);
    assert_int_equal(fegetround(), FE_TONEAREST);
    EQD(mt_nv_dmul_rd(-1.0 / 3, 3.0), -1.0);
    assert_int_equal(fegetround(), FE_TONEAREST);
    assert_int_equal(fesetround(FE_UPWARD), 0);
    float r = mt_nv_fadd_rz(1.0f, 0x1p-30f);
    double d = mt_nv_ddiv_rd(1.0, 3.0);
    int mode = fegetround();
    fesetround(FE_TONEAREST);
    assert_int_equal(mode, FE_UPWARD);
    EQF(r, 1.0f);
    EQD(d, 0x1.5555555555555p-2);
    DONE();
}

/* ---- conversions ---- */

static void test_float_to_int(void **state) {
    (void)state;
    I4(double2int, 0x1.4p+1, 2, 2, 2, 3);
    I4(double2int, -0x1.4p+1, -2, -2, -3, -2);
    I4(double2int, 0x1.cp+1, 4, 3, 3, 4);
    I4(double2int, 0x1p-1, 0, 0, 0, 1);
    I4(double2int, -0x1p-1, 0, 0, -1, 0);
    I4(double2int, -0x0p+0, 0, 0, 0, 0);
    I4(double2int, 0x1.8p+0, 2, 1, 1, 2);
    I4(double2int, -0x1.8p+0, -2, -1, -2, -1);
    I4(double2int, 0x1.3333333333333p-2, 0, 0, 0, 1);
    I4(double2int, -0x1.6666666666666p-1, -1, 0, -1, 0);
    I4(double2int, 0x1.2a05f2p+33, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(double2int, -0x1.2a05f2p+33, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(double2int, NAN, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(double2int, INFINITY, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(double2int, -INFINITY, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(double2int, 0x1.fffffffep+30, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(double2int, 0x1.fffffffap+30, 2147483646, 2147483646, 2147483646, 2147483647);
    I4(double2int, -0x1.00000001p+31, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(double2int, -0x1.fffffffeccccdp+30, (-2147483647 - 1), -2147483647, (-2147483647 - 1), -2147483647);
    I4(double2int, 0x1.ffffffffp+31, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(double2int, 0x1.fffffffd33333p+31, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(double2uint, 0x1.4p+1, 2, 2, 2, 3);
    I4(double2uint, -0x1.4p+1, 0, 0, 0, 0);
    I4(double2uint, 0x1.cp+1, 4, 3, 3, 4);
    I4(double2uint, 0x1p-1, 0, 0, 0, 1);
    I4(double2uint, -0x1p-1, 0, 0, 0, 0);
    I4(double2uint, -0x0p+0, 0, 0, 0, 0);
    I4(double2uint, 0x1.8p+0, 2, 1, 1, 2);
    I4(double2uint, -0x1.8p+0, 0, 0, 0, 0);
    I4(double2uint, 0x1.3333333333333p-2, 0, 0, 0, 1);
    I4(double2uint, -0x1.6666666666666p-1, 0, 0, 0, 0);
    I4(double2uint, 0x1.2a05f2p+33, -1, -1, -1, -1);
    I4(double2uint, -0x1.2a05f2p+33, 0, 0, 0, 0);
    I4(double2uint, NAN, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(double2uint, INFINITY, -1, -1, -1, -1);
    I4(double2uint, -INFINITY, 0, 0, 0, 0);
    I4(double2uint, 0x1.fffffffep+30, (-2147483647 - 1), 2147483647, 2147483647, (-2147483647 - 1));
    I4(double2uint, 0x1.fffffffap+30, 2147483646, 2147483646, 2147483646, 2147483647);
    I4(double2uint, -0x1.00000001p+31, 0, 0, 0, 0);
    I4(double2uint, -0x1.fffffffeccccdp+30, 0, 0, 0, 0);
    I4(double2uint, 0x1.ffffffffp+31, -1, -1, -1, -1);
    I4(double2uint, 0x1.fffffffd33333p+31, -1, -2, -2, -1);
    I4(float2int, 0x1.4p+1f, 2, 2, 2, 3);
    I4(float2int, -0x1.4p+1f, -2, -2, -3, -2);
    I4(float2int, 0x1.cp+1f, 4, 3, 3, 4);
    I4(float2int, 0x1p-1f, 0, 0, 0, 1);
    I4(float2int, -0x1p-1f, 0, 0, -1, 0);
    I4(float2int, -0x0p+0f, 0, 0, 0, 0);
    I4(float2int, 0x1.8p+0f, 2, 1, 1, 2);
    I4(float2int, -0x1.8p+0f, -2, -1, -2, -1);
    I4(float2int, 0x1.333334p-2f, 0, 0, 0, 1);
    I4(float2int, -0x1.666666p-1f, -1, 0, -1, 0);
    I4(float2int, 0x1.2a05f2p+33f, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(float2int, -0x1.2a05f2p+33f, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(float2int, NAN, 0, 0, 0, 0);
    I4(float2int, INFINITY, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(float2int, -INFINITY, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(float2int, 0x1p+31f, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(float2int, 0x1p+31f, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(float2int, -0x1p+31f, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(float2int, -0x1p+31f, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(float2int, 0x1p+32f, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(float2int, 0x1p+32f, 2147483647, 2147483647, 2147483647, 2147483647);
    I4(float2uint, 0x1.4p+1f, 2, 2, 2, 3);
    I4(float2uint, -0x1.4p+1f, 0, 0, 0, 0);
    I4(float2uint, 0x1.cp+1f, 4, 3, 3, 4);
    I4(float2uint, 0x1p-1f, 0, 0, 0, 1);
    I4(float2uint, -0x1p-1f, 0, 0, 0, 0);
    I4(float2uint, -0x0p+0f, 0, 0, 0, 0);
    I4(float2uint, 0x1.8p+0f, 2, 1, 1, 2);
    I4(float2uint, -0x1.8p+0f, 0, 0, 0, 0);
    I4(float2uint, 0x1.333334p-2f, 0, 0, 0, 1);
    I4(float2uint, -0x1.666666p-1f, 0, 0, 0, 0);
    I4(float2uint, 0x1.2a05f2p+33f, -1, -1, -1, -1);
    I4(float2uint, -0x1.2a05f2p+33f, 0, 0, 0, 0);
    I4(float2uint, NAN, 0, 0, 0, 0);
    I4(float2uint, INFINITY, -1, -1, -1, -1);
    I4(float2uint, -INFINITY, 0, 0, 0, 0);
    I4(float2uint, 0x1p+31f, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(float2uint, 0x1p+31f, (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1), (-2147483647 - 1));
    I4(float2uint, -0x1p+31f, 0, 0, 0, 0);
    I4(float2uint, -0x1p+31f, 0, 0, 0, 0);
    I4(float2uint, 0x1p+32f, -1, -1, -1, -1);
    I4(float2uint, 0x1p+32f, -1, -1, -1, -1);
    I4(float2ll, 0x1.4p+1f, 2LL, 2LL, 2LL, 3LL);
    I4(float2ll, -0x1.4p+1f, -2LL, -2LL, -3LL, -2LL);
    I4(float2ll, 0x1.cp+1f, 4LL, 3LL, 3LL, 4LL);
    I4(float2ll, 0x1p-1f, 0LL, 0LL, 0LL, 1LL);
    I4(float2ll, -0x1p-1f, 0LL, 0LL, -1LL, 0LL);
    I4(float2ll, -0x0p+0f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ll, 0x1.8p+0f, 2LL, 1LL, 1LL, 2LL);
    I4(float2ll, -0x1.8p+0f, -2LL, -1LL, -2LL, -1LL);
    I4(float2ll, 0x1.333334p-2f, 0LL, 0LL, 0LL, 1LL);
    I4(float2ll, -0x1.666666p-1f, -1LL, 0LL, -1LL, 0LL);
    I4(float2ll, 0x1.2a05f2p+33f, 10000000000LL, 10000000000LL, 10000000000LL, 10000000000LL);
    I4(float2ll, -0x1.2a05f2p+33f, -10000000000LL, -10000000000LL, -10000000000LL, -10000000000LL);
    I4(float2ll, NAN, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(float2ll, INFINITY, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(float2ll, -INFINITY, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(float2ll, 0x1p+63f, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(float2ll, -0x1p+63f, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(float2ll, 0x1.feb3dep+62f, 9200000267938955264LL, 9200000267938955264LL, 9200000267938955264LL, 9200000267938955264LL);
    I4(float2ll, -0x1.02207ap+63f, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(float2ll, 0x1p+64f, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(float2ll, 0x1.f399b2p+63f, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(float2ull, 0x1.4p+1f, 2LL, 2LL, 2LL, 3LL);
    I4(float2ull, -0x1.4p+1f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1.cp+1f, 4LL, 3LL, 3LL, 4LL);
    I4(float2ull, 0x1p-1f, 0LL, 0LL, 0LL, 1LL);
    I4(float2ull, -0x1p-1f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, -0x0p+0f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1.8p+0f, 2LL, 1LL, 1LL, 2LL);
    I4(float2ull, -0x1.8p+0f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1.333334p-2f, 0LL, 0LL, 0LL, 1LL);
    I4(float2ull, -0x1.666666p-1f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1.2a05f2p+33f, 10000000000LL, 10000000000LL, 10000000000LL, 10000000000LL);
    I4(float2ull, -0x1.2a05f2p+33f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, NAN, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(float2ull, INFINITY, -1LL, -1LL, -1LL, -1LL);
    I4(float2ull, -INFINITY, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1p+63f, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(float2ull, -0x1p+63f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1.feb3dep+62f, 9200000267938955264LL, 9200000267938955264LL, 9200000267938955264LL, 9200000267938955264LL);
    I4(float2ull, -0x1.02207ap+63f, 0LL, 0LL, 0LL, 0LL);
    I4(float2ull, 0x1p+64f, -1LL, -1LL, -1LL, -1LL);
    I4(float2ull, 0x1.f399b2p+63f, -446743668993294336LL, -446743668993294336LL, -446743668993294336LL, -446743668993294336LL);
    I4(double2ll, 0x1.4p+1, 2LL, 2LL, 2LL, 3LL);
    I4(double2ll, -0x1.4p+1, -2LL, -2LL, -3LL, -2LL);
    I4(double2ll, 0x1.cp+1, 4LL, 3LL, 3LL, 4LL);
    I4(double2ll, 0x1p-1, 0LL, 0LL, 0LL, 1LL);
    I4(double2ll, -0x1p-1, 0LL, 0LL, -1LL, 0LL);
    I4(double2ll, -0x0p+0, 0LL, 0LL, 0LL, 0LL);
    I4(double2ll, 0x1.8p+0, 2LL, 1LL, 1LL, 2LL);
    I4(double2ll, -0x1.8p+0, -2LL, -1LL, -2LL, -1LL);
    I4(double2ll, 0x1.3333333333333p-2, 0LL, 0LL, 0LL, 1LL);
    I4(double2ll, -0x1.6666666666666p-1, -1LL, 0LL, -1LL, 0LL);
    I4(double2ll, 0x1.2a05f2p+33, 10000000000LL, 10000000000LL, 10000000000LL, 10000000000LL);
    I4(double2ll, -0x1.2a05f2p+33, -10000000000LL, -10000000000LL, -10000000000LL, -10000000000LL);
    I4(double2ll, NAN, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(double2ll, INFINITY, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(double2ll, -INFINITY, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(double2ll, 0x1p+63, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(double2ll, -0x1p+63, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(double2ll, 0x1.feb3dd06766p+62, 9200000000000000000LL, 9200000000000000000LL, 9200000000000000000LL, 9200000000000000000LL);
    I4(double2ll, -0x1.02207973f644p+63, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(double2ll, 0x1p+64, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(double2ll, 0x1.f399b1438a1p+63, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL, 9223372036854775807LL);
    I4(double2ull, 0x1.4p+1, 2LL, 2LL, 2LL, 3LL);
    I4(double2ull, -0x1.4p+1, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1.cp+1, 4LL, 3LL, 3LL, 4LL);
    I4(double2ull, 0x1p-1, 0LL, 0LL, 0LL, 1LL);
    I4(double2ull, -0x1p-1, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, -0x0p+0, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1.8p+0, 2LL, 1LL, 1LL, 2LL);
    I4(double2ull, -0x1.8p+0, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1.3333333333333p-2, 0LL, 0LL, 0LL, 1LL);
    I4(double2ull, -0x1.6666666666666p-1, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1.2a05f2p+33, 10000000000LL, 10000000000LL, 10000000000LL, 10000000000LL);
    I4(double2ull, -0x1.2a05f2p+33, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, NAN, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(double2ull, INFINITY, -1LL, -1LL, -1LL, -1LL);
    I4(double2ull, -INFINITY, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1p+63, (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1), (-9223372036854775807LL - 1));
    I4(double2ull, -0x1p+63, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1.feb3dd06766p+62, 9200000000000000000LL, 9200000000000000000LL, 9200000000000000000LL, 9200000000000000000LL);
    I4(double2ull, -0x1.02207973f644p+63, 0LL, 0LL, 0LL, 0LL);
    I4(double2ull, 0x1p+64, -1LL, -1LL, -1LL, -1LL);
    I4(double2ull, 0x1.f399b1438a1p+63, -446744073709551616LL, -446744073709551616LL, -446744073709551616LL, -446744073709551616LL);
    /* llrint: cvt.rni.s64; llround: half away from zero, then cvt.rzi.s64 */
    EQ(mt_nv_llrintf(2.5f), 2);
    EQ(mt_nv_llrintf(-3.5f), -4);
    EQ(mt_nv_llrintf(NAN), LLONG_MIN);
    EQ(mt_nv_llrintf(1e19f), LLONG_MAX);
    EQ(mt_nv_llrintf(-INFINITY), LLONG_MIN);
    EQ(mt_nv_llrint(-2.5), -2);
    EQ(mt_nv_llrint(NAN), LLONG_MIN);
    EQ(mt_nv_llrint(-1e19), LLONG_MIN);
    EQ(mt_nv_llrint(0x1.fffffffffffffp62), 0x7ffffffffffffc00ll);
    EQ(mt_nv_llround(2.5), 3);
    EQ(mt_nv_llround(-2.5), -3);
    EQ(mt_nv_llround(-0.5), -1);
    EQ(mt_nv_llround(0.49999999999999994), 0);
    EQ(mt_nv_llround(NAN), LLONG_MIN);
    EQ(mt_nv_llround(9.3e18), LLONG_MAX);
    EQ(mt_nv_llround(-INFINITY), LLONG_MIN);
    EQ(mt_nv_llroundf(0.5f), 1);
    EQ(mt_nv_llroundf(-1.5f), -2);
    EQ(mt_nv_llroundf(NAN), LLONG_MIN);
    EQ(mt_nv_llroundf(0x1p63f), LLONG_MAX);
    EQ(mt_nv_llroundf(-0x1p63f), LLONG_MIN);
    for (int i = 0; i < 20000 && failures < 20; i++) {
        float f = rand_float(-3, 30);
        EQ(mt_nv_float2int_rz(f), (int)truncf(f));
        EQ(mt_nv_float2int_rd(f), (int)floorf(f));
        EQ(mt_nv_float2int_ru(f), (int)ceilf(f));
        EQ(mt_nv_float2int_rn(f), (int)nearbyintf(f));
        double d = ldexp(rand_float(-1, 1), (int)(next_u64() % 62));
        EQ(mt_nv_double2ll_rn(d), (long long)nearbyint(d));
        EQ(mt_nv_double2ll_rd(d), (long long)floor(d));
        EQ(mt_nv_double2ull_ru(fabs(d)), (unsigned long long)ceil(fabs(d)));
    }
    DONE();
}

/* an integer rounded to a float in a mode: r on the right side of v,
 * its neighbour beyond it (long double holds both exactly) */
static void check_i2f(long double v, double r, double next_toward_v, int mode, const char *what) {
    int ok = mode == 1 ? fabsl((long double)r) <= fabsl(v) && fabsl((long double)next_toward_v) > fabsl(v)
             : mode == 2 ? (long double)r <= v && (long double)next_toward_v > v
                         : (long double)r >= v && (long double)next_toward_v < v;
    if (!ok && (long double)r != v) {
        printf("  %s(%.0Lf) = %a\n", what, v, r);
        failures++;
    }
}

static void test_int_to_float(void **state) {
    (void)state;
    C4(int2float, 16777217, 0x1p+24f, 0x1p+24f, 0x1p+24f, 0x1.000002p+24f);
    C4(int2float, -16777217, -0x1p+24f, -0x1p+24f, -0x1.000002p+24f, -0x1p+24f);
    C4(int2float, 16777219, 0x1.000004p+24f, 0x1.000002p+24f, 0x1.000002p+24f, 0x1.000004p+24f);
    C4(int2float, 2147483647, 0x1p+31f, 0x1.fffffep+30f, 0x1.fffffep+30f, 0x1p+31f);
    C4(int2float, (-2147483647 - 1), -0x1p+31f, -0x1p+31f, -0x1p+31f, -0x1p+31f);
    C4(int2float, 0, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f);
    C4(int2float, -33554435, -0x1.000002p+25f, -0x1p+25f, -0x1.000002p+25f, -0x1p+25f);
    C4(uint2float, 16777217U, 0x1p+24f, 0x1p+24f, 0x1p+24f, 0x1.000002p+24f);
    C4(uint2float, 4294967295U, 0x1p+32f, 0x1.fffffep+31f, 0x1.fffffep+31f, 0x1p+32f);
    C4(uint2float, 4294967169U, 0x1p+32f, 0x1.fffffep+31f, 0x1.fffffep+31f, 0x1p+32f);
    C4(uint2float, 4294967168U, 0x1p+32f, 0x1.fffffep+31f, 0x1.fffffep+31f, 0x1p+32f);
    C4(uint2float, 0U, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f);
    C4(ll2float, 16777217LL, 0x1p+24f, 0x1p+24f, 0x1p+24f, 0x1.000002p+24f);
    C4(ll2float, -16777217LL, -0x1p+24f, -0x1p+24f, -0x1.000002p+24f, -0x1p+24f);
    C4(ll2float, 9223372036854775807LL, 0x1p+63f, 0x1.fffffep+62f, 0x1.fffffep+62f, 0x1p+63f);
    C4(ll2float, (-9223372036854775807LL - 1), -0x1p+63f, -0x1p+63f, -0x1p+63f, -0x1p+63f);
    C4(ll2float, -1099511627777LL, -0x1p+40f, -0x1p+40f, -0x1.000002p+40f, -0x1p+40f);
    C4(ll2float, 0LL, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f);
    C4(ull2float, 18446744073709551615ULL, 0x1p+64f, 0x1.fffffep+63f, 0x1.fffffep+63f, 0x1p+64f);
    C4(ull2float, 9223372036854775809ULL, 0x1p+63f, 0x1p+63f, 0x1p+63f, 0x1.000002p+63f);
    C4(ull2float, 16777219ULL, 0x1.000004p+24f, 0x1.000002p+24f, 0x1.000002p+24f, 0x1.000004p+24f);
    C4(ull2float, 0ULL, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x0p+0f);
    C4(ll2double, 9007199254740993LL, 0x1p+53, 0x1p+53, 0x1p+53, 0x1.0000000000001p+53);
    C4(ll2double, -9007199254740993LL, -0x1p+53, -0x1p+53, -0x1.0000000000001p+53, -0x1p+53);
    C4(ll2double, 9007199254740995LL, 0x1.0000000000002p+53, 0x1.0000000000001p+53, 0x1.0000000000001p+53, 0x1.0000000000002p+53);
    C4(ll2double, 9223372036854775807LL, 0x1p+63, 0x1.fffffffffffffp+62, 0x1.fffffffffffffp+62, 0x1p+63);
    C4(ll2double, (-9223372036854775807LL - 1), -0x1p+63, -0x1p+63, -0x1p+63, -0x1p+63);
    C4(ll2double, -4611686018427387905LL, -0x1p+62, -0x1p+62, -0x1.0000000000001p+62, -0x1p+62);
    C4(ll2double, 0LL, 0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0);
    C4(ull2double, 18446744073709551615ULL, 0x1p+64, 0x1.fffffffffffffp+63, 0x1.fffffffffffffp+63, 0x1p+64);
    C4(ull2double, 9223372036854775809ULL, 0x1p+63, 0x1p+63, 0x1p+63, 0x1.0000000000001p+63);
    C4(ull2double, 9007199254740993ULL, 0x1p+53, 0x1p+53, 0x1p+53, 0x1.0000000000001p+53);
    C4(ull2double, 0ULL, 0x0p+0, 0x0p+0, 0x0p+0, 0x0p+0);
    C4(double2float, 0x1.5555555555555p-2, 0x1.555556p-2f, 0x1.555554p-2f, 0x1.555554p-2f, 0x1.555556p-2f);
    C4(double2float, -0x1.5555555555555p-2, -0x1.555556p-2f, -0x1.555554p-2f, -0x1.555556p-2f, -0x1.555554p-2f);
    C4(double2float, 0x1.000001p+0, 0x1p+0f, 0x1p+0f, 0x1p+0f, 0x1.000002p+0f);
    C4(double2float, 0x1.0000010000004p+0, 0x1.000002p+0f, 0x1p+0f, 0x1p+0f, 0x1.000002p+0f);
    C4(double2float, -0x1.000001p+0, -0x1p+0f, -0x1p+0f, -0x1.000002p+0f, -0x1p+0f);
    C4(double2float, 0x1.ffffffp+127, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    C4(double2float, -0x1.ffffffp+127, -INFINITY, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f);
    C4(double2float, 0x1.074f8c4d3cd7bp+128, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    C4(double2float, 0x1.7e43c8800759cp+996, INFINITY, 0x1.fffffep+127f, 0x1.fffffep+127f, INFINITY);
    C4(double2float, -0x1.7e43c8800759cp+996, -INFINITY, -0x1.fffffep+127f, -INFINITY, -0x1.fffffep+127f);
    C4(double2float, 0x1p-150, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p-149f);
    C4(double2float, 0x1.8p-150, 0x1p-149f, 0x0p+0f, 0x0p+0f, 0x1p-149f);
    C4(double2float, -0x1p-151, -0x0p+0f, -0x0p+0f, -0x1p-149f, -0x0p+0f);
    C4(double2float, 0x1.4cccccccccccdp-130, 0x1.4ccccp-130f, 0x1.4ccccp-130f, 0x1.4ccccp-130f, 0x1.4cccep-130f);
    C4(double2float, 0x1.56e1fc2f8f359p-997, 0x0p+0f, 0x0p+0f, 0x0p+0f, 0x1p-149f);
    C4(double2float, -0x0p+0, -0x0p+0f, -0x0p+0f, -0x0p+0f, -0x0p+0f);
    for (int i = 0; i < 20000 && failures < 20; i++) {
        uint64_t u = next_u64() >> (next_u64() % 64);
        long long l = (long long)u * (i & 1 ? -1 : 1);
        check_f(mt_nv_ll2float_rn(l), (float)l, 0, "ll2float_rn");
        check_f(mt_nv_ull2float_rn(u), (float)u, 0, "ull2float_rn");
        check_d(mt_nv_ll2double_rn(l), (double)l, 0, "ll2double_rn");
        check_d(mt_nv_ull2double_rn(u), (double)u, 0, "ull2double_rn");
        check_f(mt_nv_int2float_rn((int)l), (float)(int)l, 0, "int2float_rn");
        check_f(mt_nv_uint2float_rn((unsigned)u), (float)(unsigned)u, 0, "uint2float_rn");
        check_d(mt_nv_int2double_rn((int)l), (double)(int)l, 0, "int2double_rn");
        check_d(mt_nv_uint2double_rn((unsigned)u), (double)(unsigned)u, 0, "uint2double_rn");
        float f;
        double d;
        f = mt_nv_ll2float_rz(l), check_i2f(l, f, nextafterf(f, copysignf(INFINITY, (float)l)), 1, "ll2float_rz");
        f = mt_nv_ll2float_rd(l), check_i2f(l, f, nextafterf(f, INFINITY), 2, "ll2float_rd");
        f = mt_nv_ll2float_ru(l), check_i2f(l, f, nextafterf(f, -INFINITY), 3, "ll2float_ru");
        f = mt_nv_ull2float_rz(u), check_i2f(u, f, nextafterf(f, INFINITY), 1, "ull2float_rz");
        f = mt_nv_ull2float_ru(u), check_i2f(u, f, nextafterf(f, -INFINITY), 3, "ull2float_ru");
        f = mt_nv_int2float_rd((int)l), check_i2f((int)l, f, nextafterf(f, INFINITY), 2, "int2float_rd");
        f = mt_nv_uint2float_rz((unsigned)u), check_i2f((unsigned)u, f, nextafterf(f, INFINITY), 1, "uint2float_rz");
        d = mt_nv_ll2double_rd(l), check_i2f(l, d, nextafter(d, INFINITY), 2, "ll2double_rd");
        d = mt_nv_ll2double_ru(l), check_i2f(l, d, nextafter(d, -INFINITY), 3, "ll2double_ru");
        d = mt_nv_ull2double_rz(u), check_i2f(u, d, nextafter(d, INFINITY), 1, "ull2double_rz");
    }
    DONE();
}

/* ---- single-instruction float functions ---- */

/* x m^2 against 1, exactly (-1, 0, 1), for a float x > 0 and a double m
 * of at most 26 significant bits (a midpoint between floats) */
static int cmp_xm2(float x, double m) {
    int ex, em;
    double fx = frexp(x, &ex), fm = frexp(m, &em);
    u128 p = (u128)(uint64_t)ldexp(fx, 24) * (uint64_t)ldexp(fm, 26) * (uint64_t)ldexp(fm, 26);
    int e = ex - 24 + 2 * (em - 26); /* x m^2 = p 2^e, p < 2^76 */
    if (e >= 0)
        return e == 0 && p == 1 ? 0 : 1;
    if (-e >= 127)
        return -1;
    u128 one = (u128)1 << -e;
    return p < one ? -1 : p > one;
}

static void test_float_functions(void **state) {
    (void)state;
    EQF(mt_nv_fabsf(-0.0f), 0.0f);
    EQD(mt_nv_fabs(-INFINITY), INFINITY);
    EQF(mt_nv_saturatef(-0.5f), 0.0f);
    EQF(mt_nv_saturatef(0.25f), 0.25f);
    EQF(mt_nv_saturatef(1.5f), 1.0f);
    EQF(mt_nv_saturatef(NAN), 0.0f);
    EQF(mt_nv_saturatef(INFINITY), 1.0f);
    EQF(mt_nv_saturatef(-INFINITY), 0.0f);
    EQF(mt_nv_saturatef(-0.0f), 0.0f);
    EQF(mt_nv_saturatef(0x1p-149f), 0x1p-149f);
    /* __fdividef's reciprocal is 0 for 2^126 < |y| < 2^128 */
    EQF(mt_nv_fast_fdividef(1.0f, 0x1p127f), 0.0f);
    EQF(mt_nv_fast_fdividef(-3.0f, 0x1.8p126f), -0.0f);
    EQF(mt_nv_fast_fdividef(1.0f, -0x1.fffffep127f), -0.0f);
    EQF(mt_nv_fast_fdividef(INFINITY, 0x1p127f), NAN);
    EQF(mt_nv_fast_fdividef(1.0f, 0x1p126f), 0x1p-126f);
    EQF(mt_nv_fast_fdividef(6.0f, 3.0f), 2.0f);
    EQF(mt_nv_fast_fdividef(1.0f, INFINITY), 0.0f);
    EQF(mt_nv_fast_exp10f(2.0f), 100.0f);
    EQF(mt_nv_fast_exp10f(-INFINITY), 0.0f);
    EQF(mt_nv_frsqrt_rn(4.0f), 0.5f);
    EQF(mt_nv_frsqrt_rn(0x1p-149f), 0x1.6a09e6p74f);
    EQF(mt_nv_frsqrt_rn(0.0f), INFINITY);
    EQF(mt_nv_frsqrt_rn(-0.0f), -INFINITY);
    EQF(mt_nv_frsqrt_rn(INFINITY), 0.0f);
    EQF(mt_nv_frsqrt_rn(-1.0f), NAN);
    EQF(mt_nv_frsqrt_rn(-INFINITY), NAN);
    EQF(mt_nv_frsqrt_rn(NAN), NAN);
    /* rsqrt correctly rounded: the result's midpoints bracket 1/sqrt(x) */
    for (int i = 0; i < 300000 && failures < 20; i++) {
        uint32_t u = (uint32_t)next_u64() & 0x7fffffffu;
        float x;
        if (i < 2 * 254)
            u = (uint32_t)(i / 2 + 1) << 23 | (i & 1 ? 0x7fffffu : 0); /* each binade's ends */
        else if (i < 2 * 254 + 1000)
            u &= 0x7fffff; /* subnormals */
        memcpy(&x, &u, sizeof x);
        if (!isfinite(x) || x == 0)
            continue;
        float r = mt_nv_frsqrt_rn(x);
        double up = ((double)r + nextafterf(r, INFINITY)) / 2, dn = ((double)r + nextafterf(r, 0.0f)) / 2;
        if (!(cmp_xm2(x, up) > 0 && cmp_xm2(x, dn) < 0)) {
            printf("  frsqrt_rn(%a) = %a, not correctly rounded\n", (double)x, (double)r);
            failures++;
        }
    }
    /* signbit's value is libdevice's (shr 31): exactly 1, which the GPU
     * comparison (tests/gpu) is to confirm through Triton */
    EQ(mt_nv_signbitf(-0.0f), 1);
    EQ(mt_nv_signbitf(0.0f), 0);
    EQ(mt_nv_signbitf(-NAN), 1);
    EQ(mt_nv_signbitf(-INFINITY), 1);
    EQ(mt_nv_signbitd(-1e-300), 1);
    EQ(mt_nv_signbitd(NAN), 0);
    EQ(mt_nv_finitef(INFINITY), 0);
    EQ(mt_nv_finitef(NAN), 0);
    EQ(mt_nv_finitef(-0x1.fffffep127f), 1);
    EQ(mt_nv_isfinited(0x1.fffffffffffffp1023), 1);
    EQ(mt_nv_isfinited(-INFINITY), 0);
    EQ(mt_nv_ilogb(0.0), INT_MIN);
    EQ(mt_nv_ilogb(-0.0), INT_MIN);
    EQ(mt_nv_ilogb(NAN), INT_MIN);
    EQ(mt_nv_ilogb(INFINITY), INT_MAX);
    EQ(mt_nv_ilogb(-INFINITY), INT_MAX);
    EQ(mt_nv_ilogb(1.0), 0);
    EQ(mt_nv_ilogb(0.75), -1);
    EQ(mt_nv_ilogb(0x1p-1074), -1074);
    EQ(mt_nv_ilogbf(0x1p-149f), -149);
    EQ(mt_nv_ilogbf(0x1.fffffep127f), 127);
    EQ(mt_nv_ilogbf(0.0f), INT_MIN);
    EQ(mt_nv_ilogbf(NAN), INT_MIN);
    EQ(mt_nv_ilogbf(-INFINITY), INT_MAX);
    EQD(mt_nv_logb(0.0), -INFINITY);
    EQD(mt_nv_logb(-INFINITY), INFINITY);
    EQD(mt_nv_logb(0x1p-1074), -1074.0);
    EQF(mt_nv_logbf(8.5f), 3.0f);
    EQF(mt_nv_logbf(0x1p-149f), -149.0f);
    EQD(mt_nv_ldexp(1.0, -1074), 0x1p-1074);
    EQD(mt_nv_ldexp(1.0, 1024), INFINITY);
    EQF(mt_nv_ldexpf(1.0f, -150), 0.0f);
    EQF(mt_nv_ldexpf(1.5f, -149), 0x1p-148f);
    EQF(mt_nv_scalbnf(1.0f, 128), INFINITY);
    EQD(mt_nv_scalbn(-3.0, 2), -12.0);
    EQD(mt_nv_remainder(5.0, 3.0), -1.0);
    EQD(mt_nv_remainder(-0.0, 1.0), -0.0);
    EQD(mt_nv_remainder(1.0, 0.0), NAN);
    EQF(mt_nv_remainderf(7.5f, 2.0f), -0.5f);
    EQD(mt_nv_fdim(5.0, 3.0), 2.0);
    EQD(mt_nv_fdim(3.0, 5.0), 0.0);
    EQF(mt_nv_fdimf(NAN, 1.0f), NAN);
    EQD(mt_nv_nextafter(1.0, 2.0), 0x1.0000000000001p0);
    EQD(mt_nv_nextafter(0.0, -1.0), -0x1p-1074);
    EQF(mt_nv_nextafterf(1.0f, 0.0f), 0x1.fffffep-1f);
    DONE();
}

/* ---- special functions ---- */

static void test_special_values(void **state) {
    (void)state;
    CHECK_D(mt_nv_sinpi(rt_d(0x1p-2)), 0x1.6a09e667f3bcdp-1, 1);
    CHECK_F(mt_nv_sinpif(rt_f(0x1p-2f)), 0x1.6a09e6p-1f, 1);
    CHECK_D(mt_nv_sinpi(rt_d(0x1.5555555555555p-2)), 0x1.bb67ae8584caap-1, 1);
    CHECK_F(mt_nv_sinpif(rt_f(0x1.555556p-2f)), 0x1.bb67bp-1f, 1);
    CHECK_D(mt_nv_sinpi(rt_d(-0x1.6p+1)), -0x1.6a09e667f3bcdp-1, 1);
    CHECK_F(mt_nv_sinpif(rt_f(-0x1.6p+1f)), -0x1.6a09e6p-1f, 1);
    CHECK_D(mt_nv_sinpi(rt_d(0x1.56e1fc2f8f359p-997)), 0x1.0d4cab14b6bcp-995, 1);
    CHECK_D(mt_nv_sinpi(rt_d(0x1.e240c9fbe76c9p+16)), 0x1.3b13ec1c8e465p-1, 1);
    CHECK_F(mt_nv_sinpif(rt_f(0x1.e240cap+16f)), 0x1.3affa2p-1f, 1);
    CHECK_D(mt_nv_sinpi(rt_d(0x1.6666666666666p-1)), 0x1.9e3779b97f4a8p-1, 1);
    CHECK_F(mt_nv_sinpif(rt_f(0x1.666666p-1f)), 0x1.9e377ap-1f, 1);
    CHECK_D(mt_nv_sinpi(rt_d(0x1.000001ad7f29bp+0)), -0x1.515370fced4f5p-22, 1);
    CHECK_F(mt_nv_sinpif(rt_f(0x1.000002p+0f)), -0x1.921fb6p-22f, 1);
    CHECK_D(mt_nv_sinpi(rt_d(-0x1.c6bf526340004p+49)), -0x1p+0, 1);
    CHECK_D(mt_nv_sinpi(rt_d(0x1.49ba5b153f64p-3)), 0x1.f021e04480325p-2, 1);
    CHECK_F(mt_nv_sinpif(rt_f(0x1.49ba5cp-3f)), 0x1.f021e2p-2f, 1);
    CHECK_D(mt_nv_cospi(rt_d(0x1.3333333333333p-2)), 0x1.2cf2304755a5ep-1, 1);
    CHECK_F(mt_nv_cospif(rt_f(0x1.333334p-2f)), 0x1.2cf23p-1f, 1);
    CHECK_D(mt_nv_cospi(rt_d(0x1.fffd60e94ee39p-2)), 0x1.078930424b7efp-15, 1);
    CHECK_F(mt_nv_cospif(rt_f(0x1.fffd6p-2f)), 0x1.07e4cep-15f, 1);
    CHECK_D(mt_nv_cospi(rt_d(0x1.4p+0)), -0x1.6a09e667f3bcdp-1, 1);
    CHECK_F(mt_nv_cospif(rt_f(0x1.4p+0f)), -0x1.6a09e6p-1f, 1);
    CHECK_D(mt_nv_cospi(rt_d(-0x1.c666666666666p+2)), -0x1.e6f0e13445502p-1, 1);
    CHECK_F(mt_nv_cospif(rt_f(-0x1.c66666p+2f)), -0x1.e6f0e4p-1f, 1);
    CHECK_D(mt_nv_cospi(rt_d(0x1.4f8b588e368f1p-17)), 0x1.fffffffbc2d35p-1, 1);
    CHECK_F(mt_nv_cospif(rt_f(0x1.4f8b58p-17f)), 0x1p+0f, 1);
    CHECK_D(mt_nv_cospi(rt_d(0x1.e240c9fbe76c9p+16)), -0x1.93924eb2ceff4p-1, 1);
    CHECK_F(mt_nv_cospif(rt_f(0x1.e240cap+16f)), -0x1.93a224p-1f, 1);
    CHECK_D(mt_nv_cospi(rt_d(0x1.d53d96beda966p+1)), 0x1.fdfad91ace9bep-2, 1);
    CHECK_F(mt_nv_cospif(rt_f(0x1.d53d96p+1f)), 0x1.fdfac8p-2f, 1);
    CHECK_D(mt_nv_exp10(rt_d(-0x1.2c8p+8)), 0x1.b1b75833790cap-999, 1);
    CHECK_F(mt_nv_exp10f(rt_f(-0x1.2c8p+8f)), 0x0p+0f, 1);
    CHECK_D(mt_nv_exp10(rt_d(-0x1.8p+0)), 0x1.030dc4ea03a72p-5, 1);
    CHECK_F(mt_nv_exp10f(rt_f(-0x1.8p+0f)), 0x1.030dc4p-5f, 1);
    CHECK_D(mt_nv_exp10(rt_d(0x1.999999999999ap-4)), 0x1.4248ef8fc2604p+0, 1);
    CHECK_F(mt_nv_exp10f(rt_f(0x1.99999ap-4f)), 0x1.4248fp+0f, 1);
    CHECK_D(mt_nv_exp10(rt_d(0x1.2666666666666p+1)), 0x1.8f0d6e36fa846p+7, 1);
    CHECK_F(mt_nv_exp10f(rt_f(0x1.266666p+1f)), 0x1.8f0d6cp+7f, 1);
    CHECK_D(mt_nv_exp10(rt_d(0x1.33e6666666666p+8)), 0x1.c476e1b46893fp+1022, 1);
    CHECK_F(mt_nv_exp10f(rt_f(0x1.33e666p+8f)), INFINITY, 1);
    CHECK_D(mt_nv_exp10(rt_d(-0x1.4p+8)), 0x0.00000000007e8p-1022, 1);
    CHECK_F(mt_nv_exp10f(rt_f(-0x1.4p+8f)), 0x0p+0f, 1);
    CHECK_D(mt_nv_acosh(rt_d(0x1.000001ad7f29bp+0)), 0x1.d4effc065cae4p-12, 2);
    CHECK_F(mt_nv_acoshf(rt_f(0x1.000002p+0f)), 0x1p-11f, 1);
    CHECK_D(mt_nv_acosh(rt_d(0x1p+1)), 0x1.5124271980435p+0, 2);
    CHECK_F(mt_nv_acoshf(rt_f(0x1p+1f)), 0x1.512428p+0f, 1);
    CHECK_D(mt_nv_acosh(rt_d(0x1.7e43c8800759cp+996)), 0x1.59bbfd8b83e44p+9, 2);
    CHECK_D(mt_nv_asinh(rt_d(0x1.5798ee2308c3ap-27)), 0x1.5798ee2308c3ap-27, 2);
    CHECK_F(mt_nv_asinhf(rt_f(0x1.5798eep-27f)), 0x1.5798eep-27f, 1);
    CHECK_D(mt_nv_asinh(rt_d(-0x1.6666666666666p-1)), -0x1.4e2a4fe9085ddp-1, 2);
    CHECK_F(mt_nv_asinhf(rt_f(-0x1.666666p-1f)), -0x1.4e2a5p-1f, 1);
    CHECK_D(mt_nv_asinh(rt_d(0x1.4e718d7d7625ap+664)), 0x1.cd35cd6cad20fp+8, 2);
    CHECK_D(mt_nv_atanh(rt_d(0x1.12e0be826d695p-30)), 0x1.12e0be826d695p-30, 2);
    CHECK_F(mt_nv_atanhf(rt_f(0x1.12e0bep-30f)), 0x1.12e0bep-30f, 1);
    CHECK_D(mt_nv_atanh(rt_d(0x1p-1)), 0x1.193ea7aad030bp-1, 2);
    CHECK_F(mt_nv_atanhf(rt_f(0x1p-1f)), 0x1.193ea8p-1f, 1);
    CHECK_D(mt_nv_atanh(rt_d(-0x1.ffffde7210be9p-1)), -0x1.d046eb8b86c1cp+2, 2);
    CHECK_F(mt_nv_atanhf(rt_f(-0x1.ffffdep-1f)), -0x1.cfdadap+2f, 1);
    CHECK_D(mt_nv_rcbrt(rt_d(0x1.8p+1)), 0x1.63003fbb4c375p-1, 1);
    CHECK_F(mt_nv_rcbrtf(rt_f(0x1.8p+1f)), 0x1.63004p-1f, 1);
    CHECK_D(mt_nv_rcbrt(rt_d(-0x1.b8p+4)), -0x1.534081cfd3e85p-2, 1);
    CHECK_F(mt_nv_rcbrtf(rt_f(-0x1.b8p+4f)), -0x1.534082p-2f, 1);
    CHECK_D(mt_nv_rcbrt(rt_d(0x0.012688b70e62bp-1022)), 0x1.33cfbbe460c87p+343, 1);
    CHECK_D(mt_nv_rcbrt(rt_d(0x1.7e43c8800759cp+996)), 0x1.bff2ee48e053p-333, 1);
    CHECK_D(mt_nv_rcbrt(rt_d(-0x0.0000000000001p-1022)), -0x1p+358, 1);
    CHECK_D(mt_nv_rcbrt(rt_d(0x1.82f189b21c55ap-366)), 0x1.be22db99a8c27p+121, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.999999999999ap-4)), 0x1.00a3f142fda6dp+0, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.99999ap-4f)), 0x1.00a3f2p+0f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1p+0)), 0x1.441ce4b386c2dp+0, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1p+0f)), 0x1.441ce4p+0f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.4p+2)), 0x1.b3d683d659cecp+4, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.4p+2f)), 0x1.b3d684p+4f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.ep+3)), 0x1.4bb057e41ceefp+18, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.ep+3f)), 0x1.4bb058p+18f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.3fd70a3d70a3dp+4)), 0x1.49199aef714ddp+25, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.3fd70ap+4f)), 0x1.491996p+25f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.4p+4)), 0x1.4c52c5479f734p+25, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.4p+4f)), 0x1.4c52c6p+25f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.9p+5)), 0x1.fcb78c9d0a578p+67, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.9p+5f)), 0x1.fcb78cp+67f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(-0x1.2cp+8)), 0x1.4a9a6ce9552ffp+427, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(-0x1.2cp+8f)), INFINITY, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.5ep+9)), 0x1.c8cdeeadb5dfp+1003, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.5ep+9f)), INFINITY, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.64cp+9)), 0x1.3abe470bc7144p+1023, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.64cp+9f)), INFINITY, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.18f616970c629p+4)), 0x1.ef182d079be2bp+21, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.18f616p+4f)), 0x1.ef181cp+21f, 1);
    CHECK_D(mt_nv_cyl_bessel_i0(rt_d(0x1.34feebe755a86p+4)), 0x1.541838046780ap+24, 4);
    CHECK_F(mt_nv_cyl_bessel_i0f(rt_f(0x1.34feecp+4f)), 0x1.54183ap+24f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.56e1fc2f8f359p-997)), 0x1.56e1fc2f8f359p-998, 4);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.999999999999ap-4)), 0x1.9a1cba0413c0dp-5, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.99999ap-4f)), 0x1.9a1cbap-5f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(-0x1p+0)), -0x1.215c88b95e67ep-1, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(-0x1p+0f)), -0x1.215c88p-1f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.4p+2)), 0x1.855eca4b8fc01p+4, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.4p+2f)), 0x1.855ecap+4f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.ep+3)), 0x1.406f3b018f531p+18, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.ep+3f)), 0x1.406f3cp+18f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.3fd70a3d70a3dp+4)), 0x1.40c285f6c1ba5p+25, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.3fd70ap+4f)), 0x1.40c282p+25f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.4p+4)), 0x1.43e7deb14bddep+25, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.4p+4f)), 0x1.43e7dep+25f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.9p+5)), 0x1.f79a9674e50dfp+67, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.9p+5f)), 0x1.f79a96p+67f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.2cp+8)), 0x1.4a0d4007baf78p+427, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.2cp+8f)), INFINITY, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(-0x1.64cp+9)), -0x1.3a85cb29cee6p+1023, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(-0x1.64cp+9f)), -INFINITY, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.0d9208e5160dap+4)), 0x1.e13e36b486fdbp+20, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.0d9208p+4f)), 0x1.e13e1cp+20f, 1);
    CHECK_D(mt_nv_cyl_bessel_i1(rt_d(0x1.65238008f45fap+3)), 0x1.fa8cacd0347fp+12, 4);
    CHECK_F(mt_nv_cyl_bessel_i1f(rt_f(0x1.65238p+3f)), 0x1.fa8cacp+12f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(-0x1.ap+4)), 0x1.32f288d4422dap+976, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(-0x1.ap+4f)), INFINITY, 1);
    CHECK_D(mt_nv_erfcx(rt_d(-0x1.8p+1)), 0x1.fa6fe92c4925fp+13, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(-0x1.8p+1f)), 0x1.fa6feap+13f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(-0x1p-1)), 0x1.f3cde5a30aa93p+0, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(-0x1p-1f)), 0x1.f3cde6p+0f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.b7cdfd9d7bdbbp-34)), 0x1.ffffffff07ddep-1, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1.b7cdfep-34f)), 0x1p+0f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1p-1)), 0x1.3b3bc3c98b0f3p-1, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1p-1f)), 0x1.3b3bc4p-1f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.8p+1)), 0x1.6e9827d229d2dp-3, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1.8p+1f)), 0x1.6e9828p-3f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.4p+3)), 0x1.cbe831f997124p-5, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1.4p+3f)), 0x1.cbe832p-5f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.8e66666666666p+4)), 0x1.72eefdc51e449p-6, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1.8e6666p+4f)), 0x1.72eefep-6f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.919999999999ap+4)), 0x1.6ffb8c06f57cap-6, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1.91999ap+4f)), 0x1.6ffb8cp-6f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.86ap+16)), 0x1.7a9f084b432a7p-18, 4);
    CHECK_F(mt_nv_erfcxf(rt_f(0x1.86ap+16f)), 0x1.7a9f08p-18f, 1);
    CHECK_D(mt_nv_erfcx(rt_d(0x1.7e43c8800759cp+996)), 0x1.82e6d98711d39p-998, 4);
    CHECK_D(mt_nv_erfinv(rt_d(0x1.56e1fc2f8f359p-997)), 0x1.2fdf36bf69b9fp-997, 2);
    CHECK_D(mt_nv_erfinv(rt_d(0x1.b7cdfd9d7bdbbp-34)), 0x1.85c4480205e36p-34, 2);
    CHECK_F(mt_nv_erfinvf(rt_f(0x1.b7cdfep-34f)), 0x1.85c448p-34f, 1);
    CHECK_D(mt_nv_erfinv(rt_d(0x1.3333333333333p-2)), 0x1.1700774485ed2p-2, 2);
    CHECK_F(mt_nv_erfinvf(rt_f(0x1.333334p-2f)), 0x1.170078p-2f, 1);
    CHECK_D(mt_nv_erfinv(rt_d(-0x1p-1)), -0x1.e861fbb24c00ap-2, 2);
    CHECK_F(mt_nv_erfinvf(rt_f(-0x1p-1f)), -0x1.e861fcp-2f, 1);
    CHECK_D(mt_nv_erfinv(rt_d(0x1.6666666666666p-1)), 0x1.773a9da42b44fp-1, 2);
    CHECK_F(mt_nv_erfinvf(rt_f(0x1.666666p-1f)), 0x1.773a9ep-1f, 1);
    CHECK_D(mt_nv_erfinv(rt_d(0x1.ffffde7210be9p-1)), 0x1.babd964830d58p+1, 2);
    CHECK_F(mt_nv_erfinvf(rt_f(0x1.ffffdep-1f)), 0x1.ba816cp+1f, 1);
    CHECK_D(mt_nv_erfinv(rt_d(-0x1.fffffffffffffp-1)), -0x1.7744f8f74e94ap+2, 2);
    CHECK_F(mt_nv_erfinvf(rt_f(-0x1p+0f)), -INFINITY, 1);
    CHECK_D(mt_nv_erfcinv(rt_d(0x0.0000000000001p-1022)), 0x1.b369a6244e684p+4, 2);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1.56e1fc2f8f359p-997)), 0x1.a359fd2c5e942p+4, 2);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1p-1000)), 0x1.a41303eeccbdap+4, 2);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1p-1001)), 0x1.a44908242713ep+4, 2);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1.79ca10c924223p-67)), 0x1.a6804c02bb0cfp+2, 2);
    CHECK_F(mt_nv_erfcinvf(rt_f(0x1.79ca1p-67f)), 0x1.a6804cp+2f, 1);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1.47ae147ae147bp-7)), 0x1.d2466082bb20fp+0, 2);
    CHECK_F(mt_nv_erfcinvf(rt_f(0x1.47ae14p-7f)), 0x1.d2466p+0f, 1);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1p-1)), 0x1.e861fbb24c00ap-2, 2);
    CHECK_F(mt_nv_erfcinvf(rt_f(0x1p-1f)), 0x1.e861fcp-2f, 1);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1.3333333333333p+0)), -0x1.6ee2c37720943p-3, 2);
    CHECK_F(mt_nv_erfcinvf(rt_f(0x1.333334p+0f)), -0x1.6ee2cap-3f, 1);
    CHECK_D(mt_nv_erfcinv(rt_d(0x1.fffffe5280d65p+0)), -0x1.e21eb900ee518p+1, 2);
    CHECK_F(mt_nv_erfcinvf(rt_f(0x1.fffffep+0f)), -0x1.df38dp+1f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(-0x1.3p+5)), 0x0.00000037b23b8p-1022, 3);
    CHECK_F(mt_nv_normcdff(rt_f(-0x1.3p+5f)), 0x0p+0f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(-0x1.ep+4)), 0x1.7795ad05ea397p-656, 3);
    CHECK_F(mt_nv_normcdff(rt_f(-0x1.ep+4f)), 0x0p+0f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(-0x1.4p+3)), 0x1.26c75e84fb10dp-77, 3);
    CHECK_F(mt_nv_normcdff(rt_f(-0x1.4p+3f)), 0x1.26c75ep-77f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(-0x1p+0)), 0x1.44ed0bb7cb20bp-3, 3);
    CHECK_F(mt_nv_normcdff(rt_f(-0x1p+0f)), 0x1.44ed0cp-3f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(0x1.3333333333333p-2)), 0x1.3c5ee2cc40b79p-1, 3);
    CHECK_F(mt_nv_normcdff(rt_f(0x1.333334p-2f)), 0x1.3c5ee2p-1f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(0x1.4p+2)), 0x1.fffff661ae86fp-1, 3);
    CHECK_F(mt_nv_normcdff(rt_f(0x1.4p+2f)), 0x1.fffff6p-1f, 1);
    CHECK_D(mt_nv_normcdf(rt_d(0x1p+3)), 0x1.ffffffffffffap-1, 3);
    CHECK_F(mt_nv_normcdff(rt_f(0x1p+3f)), 0x1p+0f, 1);
    CHECK_D(mt_nv_normcdfinv(rt_d(0x1.56e1fc2f8f359p-997)), -0x1.286074064c26ep+5, 3);
    CHECK_D(mt_nv_normcdfinv(rt_d(0x1.b7cdfd9d7bdbbp-34)), -0x1.97203597a2155p+2, 3);
    CHECK_F(mt_nv_normcdfinvf(rt_f(0x1.b7cdfep-34f)), -0x1.972036p+2f, 1);
    CHECK_D(mt_nv_normcdfinv(rt_d(0x1.47ae147ae147bp-6)), -0x1.06e13e8aadfdcp+1, 3);
    CHECK_F(mt_nv_normcdfinvf(rt_f(0x1.47ae14p-6f)), -0x1.06e13ep+1f, 1);
    CHECK_D(mt_nv_normcdfinv(rt_d(0x1.3333333333333p-2)), -0x1.0c7e39582c5fbp-1, 3);
    CHECK_F(mt_nv_normcdfinvf(rt_f(0x1.333334p-2f)), -0x1.0c7e38p-1f, 1);
    CHECK_D(mt_nv_normcdfinv(rt_d(0x1.ccccccccccccdp-1)), 0x1.4813c36e26d33p+0, 3);
    CHECK_F(mt_nv_normcdfinvf(rt_f(0x1.ccccccp-1f)), 0x1.4813c2p+0f, 1);
    CHECK_D(mt_nv_normcdfinv(rt_d(0x1.fffffffffffffp-1)), 0x1.06b48528cea52p+3, 3);
    CHECK_F(mt_nv_normcdfinvf(rt_f(0x1p+0f)), INFINITY, 1);
    CHECK_D(mt_nv_lgamma(rt_d(0x1p-1)), 0x1.250d048e7a1bdp-1, 3);
    CHECK_F(mt_nv_lgammaf(rt_f(0x1p-1f)), 0x1.250d04p-1f, 1);
    CHECK_D(mt_nv_lgamma(rt_d(0x1.d99999999999ap+1)), 0x1.6d9625e359b87p+0, 3);
    CHECK_F(mt_nv_lgammaf(rt_f(0x1.d9999ap+1f)), 0x1.6d9626p+0f, 1);
    CHECK_D(mt_nv_lgamma(rt_d(-0x1.4p+1)), -0x1.ccbf9f5ed0f16p-5, 3);
    CHECK_F(mt_nv_lgammaf(rt_f(-0x1.4p+1f)), -0x1.ccbfap-5f, 1);
    CHECK_D(mt_nv_lgamma(rt_d(0x1.9p+6)), 0x1.67225b4879462p+8, 3);
    CHECK_F(mt_nv_lgammaf(rt_f(0x1.9p+6f)), 0x1.67225cp+8f, 1);
    CHECK_D(mt_nv_lgamma(rt_d(0x1.4f8b588e368f1p-17)), 0x1.7069d68f4ec83p+3, 3);
    CHECK_F(mt_nv_lgammaf(rt_f(0x1.4f8b58p-17f)), 0x1.7069d6p+3f, 1);
    CHECK_D(mt_nv_tgamma(rt_d(0x1p-1)), 0x1.c5bf891b4ef6bp+0, 4);
    CHECK_F(mt_nv_tgammaf(rt_f(0x1p-1f)), 0x1.c5bf8ap+0f, 1);
    CHECK_D(mt_nv_tgamma(rt_d(0x1.6p+2)), 0x1.a2be0247739f2p+5, 4);
    CHECK_F(mt_nv_tgammaf(rt_f(0x1.6p+2f)), 0x1.a2be02p+5f, 1);
    CHECK_D(mt_nv_tgamma(rt_d(-0x1.cp+1)), 0x1.149200acaee94p-2, 4);
    CHECK_F(mt_nv_tgammaf(rt_f(-0x1.cp+1f)), 0x1.1492p-2f, 1);
    CHECK_D(mt_nv_tgamma(rt_d(0x1.55p+7)), 0x1.9589f849167a8p+1015, 4);
    CHECK_F(mt_nv_tgammaf(rt_f(0x1.55p+7f)), INFINITY, 1);
    CHECK_D(mt_nv_tgamma(rt_d(0x1.56e1fc2f8f359p-997)), 0x1.7e43c8800759bp+996, 4);
    CHECK_D(mt_nv_j0(rt_d(0x1p-1)), 0x1.e07f1d54c3f34p-1, 8);
    CHECK_F(mt_nv_j0f(rt_f(0x1p-1f)), 0x1.e07f1ep-1f, 1);
    CHECK_D(mt_nv_j0(rt_d(0x1.8p+0)), 0x1.060e46ce9651bp-1, 8);
    CHECK_F(mt_nv_j0f(rt_f(0x1.8p+0f)), 0x1.060e46p-1f, 1);
    CHECK_D(mt_nv_j0(rt_d(0x1.5p+3)), -0x1.e4a7cefefc5fap-3, 8);
    CHECK_F(mt_nv_j0f(rt_f(0x1.5p+3f)), -0x1.e4a7cep-3f, 1);
    CHECK_D(mt_nv_j0(rt_d(-0x1.9266666666666p+5)), 0x1.5019071d6d31p-4, 8);
    CHECK_F(mt_nv_j0f(rt_f(-0x1.926666p+5f)), 0x1.5018f8p-4f, 1);
    CHECK_D(mt_nv_j1(rt_d(0x1p-1)), 0x1.f02a71f4870d7p-3, 8);
    CHECK_F(mt_nv_j1f(rt_f(0x1p-1f)), 0x1.f02a72p-3f, 1);
    CHECK_D(mt_nv_j1(rt_d(0x1.4p+1)), 0x1.fd063c84795ffp-2, 8);
    CHECK_F(mt_nv_j1f(rt_f(0x1.4p+1f)), 0x1.fd063cp-2f, 1);
    CHECK_D(mt_nv_j1(rt_d(-0x1.5p+3)), 0x1.42f83b8654106p-4, 8);
    CHECK_F(mt_nv_j1f(rt_f(-0x1.5p+3f)), 0x1.42f83cp-4f, 1);
    CHECK_D(mt_nv_j1(rt_d(0x1.9266666666666p+5)), -0x1.37e6d7ec1a8c2p-4, 8);
    CHECK_F(mt_nv_j1f(rt_f(0x1.926666p+5f)), -0x1.37e6eap-4f, 1);
    CHECK_D(mt_nv_y0(rt_d(0x1.4f8b588e368f1p-17)), -0x1.d9cd60ca62f26p+2, 8);
    CHECK_F(mt_nv_y0f(rt_f(0x1.4f8b58p-17f)), -0x1.d9cd6p+2f, 1);
    CHECK_D(mt_nv_y0(rt_d(0x1p-1)), -0x1.c72feb3b7b8a2p-2, 8);
    CHECK_F(mt_nv_y0f(rt_f(0x1p-1f)), -0x1.c72fecp-2f, 1);
    CHECK_D(mt_nv_y0(rt_d(0x1.4p+1)), 0x1.fe0628069e15dp-2, 8);
    CHECK_F(mt_nv_y0f(rt_f(0x1.4p+1f)), 0x1.fe0628p-2f, 1);
    CHECK_D(mt_nv_y0(rt_d(0x1.5p+3)), -0x1.149aba55d75afp-4, 8);
    CHECK_F(mt_nv_y0f(rt_f(0x1.5p+3f)), -0x1.149abap-4f, 1);
    CHECK_D(mt_nv_y0(rt_d(0x1.9266666666666p+5)), -0x1.3b3a0d9dee343p-4, 8);
    CHECK_F(mt_nv_y0f(rt_f(0x1.926666p+5f)), -0x1.3b3a1ep-4f, 1);
    CHECK_D(mt_nv_y1(rt_d(0x1.4f8b588e368f1p-17)), -0x1.f15bf45d6fcbep+15, 8);
    CHECK_F(mt_nv_y1f(rt_f(0x1.4f8b58p-17f)), -0x1.f15bf6p+15f, 1);
    CHECK_D(mt_nv_y1(rt_d(0x1p-1)), -0x1.78b26a2b7c4dfp+0, 8);
    CHECK_F(mt_nv_y1f(rt_f(0x1p-1f)), -0x1.78b26ap+0f, 1);
    CHECK_D(mt_nv_y1(rt_d(0x1.cp+1)), 0x1.a4086ec01970fp-2, 8);
    CHECK_F(mt_nv_y1f(rt_f(0x1.cp+1f)), 0x1.a4086ep-2f, 1);
    CHECK_D(mt_nv_y1(rt_d(0x1.5p+3)), 0x1.dea0528dd9e01p-3, 8);
    CHECK_F(mt_nv_y1f(rt_f(0x1.5p+3f)), 0x1.dea052p-3f, 1);
    CHECK_D(mt_nv_y1(rt_d(0x1.9266666666666p+5)), -0x1.533f5d4b0adc3p-4, 8);
    CHECK_F(mt_nv_y1f(rt_f(0x1.926666p+5f)), -0x1.533f4ep-4f, 1);
    CHECK_D(mt_nv_jn(3, rt_d(0x1.0cccccccccccdp+2)), 0x1.bcd1da6a9c467p-2, 8);
    CHECK_F(mt_nv_jnf(3, rt_f(0x1.0cccccp+2f)), 0x1.bcd1dap-2f, 1);
    CHECK_D(mt_nv_jn(10, rt_d(0x1.9p+4)), -0x1.33efc7b13c958p-4, 8);
    CHECK_F(mt_nv_jnf(10, rt_f(0x1.9p+4f)), -0x1.33efc8p-4f, 1);
    CHECK_D(mt_nv_jn(0, rt_d(0x1.8p+0)), 0x1.060e46ce9651bp-1, 8);
    CHECK_F(mt_nv_jnf(0, rt_f(0x1.8p+0f)), 0x1.060e46p-1f, 1);
    CHECK_D(mt_nv_jn(2, rt_d(-0x1.ep+2)), -0x1.d79995fac5f12p-3, 8);
    CHECK_F(mt_nv_jnf(2, rt_f(-0x1.ep+2f)), -0x1.d79996p-3f, 1);
    CHECK_D(mt_nv_yn(3, rt_d(0x1.0cccccccccccdp+2)), -0x1.ca0acfbc9618cp-4, 8);
    CHECK_F(mt_nv_ynf(3, rt_f(0x1.0cccccp+2f)), -0x1.ca0ae2p-4f, 1);
    CHECK_D(mt_nv_yn(10, rt_d(0x1.9p+4)), -0x1.3093447c155a4p-3, 8);
    CHECK_F(mt_nv_ynf(10, rt_f(0x1.9p+4f)), -0x1.309344p-3f, 1);
    CHECK_D(mt_nv_yn(0, rt_d(0x1.8p+0)), 0x1.87a0b0d068368p-2, 8);
    CHECK_F(mt_nv_ynf(0, rt_f(0x1.8p+0f)), 0x1.87a0bp-2f, 1);
    CHECK_D(mt_nv_yn(1, rt_d(0x1p-2)), -0x1.5a201ec26d052p+1, 8);
    CHECK_F(mt_nv_ynf(1, rt_f(0x1p-2f)), -0x1.5a201ep+1f, 1);
    CHECK_D(mt_nv_rhypot(rt_d(0x1.8p+1), rt_d(0x1p+2)), 0x1.999999999999ap-3, 2);
    CHECK_F(mt_nv_rhypotf(rt_f(0x1.8p+1f), rt_f(0x1p+2f)), 0x1.99999ap-3f, 1);
    CHECK_D(mt_nv_rhypot(rt_d(0x0.00000000007e8p-1022), rt_d(0x0.000000000025fp-1022)), INFINITY, 2);
    CHECK_F(mt_nv_rhypotf(rt_f(0x1.cp-147f), rt_f(0x1p-148f)), INFINITY, 1);
    CHECK_D(mt_nv_rhypot(rt_d(0x1.ab36d48e1acfp+1023), rt_d(0x1.ab36d48e1acfp+1023)), 0x0.363c77cb903aap-1022, 2);
    CHECK_F(mt_nv_rhypotf(rt_f(0x1.c363ccp+127f), rt_f(0x1.c363ccp+127f)), 0x1.9aa6cp-129f, 1);
    CHECK_D(mt_nv_rhypot(rt_d(-0x1.999999999999ap-4), rt_d(0x1.6666666666666p-1)), 0x1.6a09e667f3bcdp+0, 2);
    CHECK_F(mt_nv_rhypotf(rt_f(-0x1.99999ap-4f), rt_f(0x1.666666p-1f)), 0x1.6a09e6p+0f, 1);
    CHECK_D(mt_nv_norm3d(rt_d(0x1p+0), rt_d(0x1p+1), rt_d(0x1p+1)), 0x1.8p+1, 2);
    CHECK_F(mt_nv_norm3df(rt_f(0x1p+0f), rt_f(0x1p+1f), rt_f(0x1p+1f)), 0x1.8p+1f, 1);
    CHECK_D(mt_nv_norm3d(rt_d(0x0.00000000007e8p-1022), rt_d(0x0p+0), rt_d(-0x0.0000000000fdp-1022)), 0x0.00000000011aep-1022, 2);
    CHECK_F(mt_nv_norm3df(rt_f(0x1.cp-147f), rt_f(0x0p+0f), rt_f(-0x1.cp-146f)), 0x1p-145f, 1);
    CHECK_D(mt_nv_norm3d(rt_d(0x1.ab36d48e1acfp+1023), rt_d(-0x1.ab36d48e1acfp+1023), rt_d(0x1.1ccf385ebc8ap+1023)), INFINITY, 2);
    CHECK_F(mt_nv_norm3df(rt_f(0x1.c363ccp+127f), rt_f(-0x1.c363ccp+127f), rt_f(0x1.2ced32p+126f)), INFINITY, 1);
    CHECK_D(mt_nv_norm3d(rt_d(0x1.999999999999ap-4), rt_d(0x1.999999999999ap-3), rt_d(0x1.3333333333333p-2)), 0x1.7f254dab9cc3ap-2, 2);
    CHECK_F(mt_nv_norm3df(rt_f(0x1.99999ap-4f), rt_f(0x1.99999ap-3f), rt_f(0x1.333334p-2f)), 0x1.7f254ep-2f, 1);
    CHECK_D(mt_nv_rnorm3d(rt_d(0x1p+0), rt_d(0x1p+1), rt_d(0x1p+1)), 0x1.5555555555555p-2, 2);
    CHECK_F(mt_nv_rnorm3df(rt_f(0x1p+0f), rt_f(0x1p+1f), rt_f(0x1p+1f)), 0x1.555556p-2f, 1);
    CHECK_D(mt_nv_rnorm3d(rt_d(0x1.87e92154ef7acp-665), rt_d(0x1.87e92154ef7acp-664), rt_d(0x1.25eed8ffb39c1p-663)), 0x1.6589038bc9edap+662, 2);
    CHECK_F(mt_nv_rnorm3df(rt_f(0x1.16c2p-133f), rt_f(0x1.16c28p-132f), rt_f(0x1.a2238p-132f)), INFINITY, 1);
    CHECK_D(mt_nv_rnorm3d(rt_d(0x1.7e43c8800759cp+996), rt_d(0x1.7e43c8800759cp+996), rt_d(0x1.7e43c8800759cp+996)), 0x1.8bed496221c06p-998, 2);
    CHECK_F(mt_nv_rnorm3df(rt_f(0x1.c363ccp+127f), rt_f(0x1.c363ccp+127f), rt_f(0x1.c363ccp+127f)), 0x1.4f4bap-129f, 1);
    CHECK_D(mt_nv_rnorm3d(rt_d(0x1.999999999999ap-4), rt_d(-0x1.999999999999ap-3), rt_d(0x1.3333333333333p-2)), 0x1.561829eb82d34p+1, 2);
    CHECK_F(mt_nv_rnorm3df(rt_f(0x1.99999ap-4f), rt_f(-0x1.99999ap-3f), rt_f(0x1.333334p-2f)), 0x1.56182ap+1f, 1);
    CHECK_D(mt_nv_norm4d(rt_d(0x1p+0), rt_d(0x1p+1), rt_d(0x1p+1), rt_d(0x1p+2)), 0x1.4p+2, 2);
    CHECK_F(mt_nv_norm4df(rt_f(0x1p+0f), rt_f(0x1p+1f), rt_f(0x1p+1f), rt_f(0x1p+2f)), 0x1.4p+2f, 1);
    CHECK_D(mt_nv_norm4d(rt_d(0x0.00000000007e8p-1022), rt_d(0x0.00000000000cap-1022), rt_d(0x0p+0), rt_d(0x0.0000000000fdp-1022)), 0x0.00000000011b2p-1022, 2);
    CHECK_F(mt_nv_norm4df(rt_f(0x1.cp-147f), rt_f(0x1p-149f), rt_f(0x0p+0f), rt_f(0x1.cp-146f)), 0x1p-145f, 1);
    CHECK_D(mt_nv_norm4d(rt_d(0x1.1ccf385ebc8ap+1023), rt_d(0x1.1ccf385ebc8ap+1023), rt_d(0x1.1ccf385ebc8ap+1023), rt_d(0x1.1ccf385ebc8ap+1023)), INFINITY, 2);
    CHECK_F(mt_nv_norm4df(rt_f(0x1.2ced32p+127f), rt_f(0x1.2ced32p+127f), rt_f(0x1.2ced32p+127f), rt_f(0x1.2ced32p+127f)), INFINITY, 1);
    CHECK_D(mt_nv_norm4d(rt_d(0x1.999999999999ap-4), rt_d(0x1.999999999999ap-3), rt_d(0x1.3333333333333p-2), rt_d(0x1.999999999999ap-2)), 0x1.186f174f88472p-1, 2);
    CHECK_F(mt_nv_norm4df(rt_f(0x1.99999ap-4f), rt_f(0x1.99999ap-3f), rt_f(0x1.333334p-2f), rt_f(0x1.99999ap-2f)), 0x1.186f18p-1f, 1);
    CHECK_D(mt_nv_rnorm4d(rt_d(0x1p+0), rt_d(0x1p+1), rt_d(0x1p+1), rt_d(0x1p+2)), 0x1.999999999999ap-3, 2);
    CHECK_F(mt_nv_rnorm4df(rt_f(0x1p+0f), rt_f(0x1p+1f), rt_f(0x1p+1f), rt_f(0x1p+2f)), 0x1.99999ap-3f, 1);
    CHECK_D(mt_nv_rnorm4d(rt_d(0x1.3529ba7d19eafp-565), rt_d(0x1.3529ba7d19eafp-565), rt_d(0x1.3529ba7d19eafp-565), rt_d(0x1.3529ba7d19eafp-565)), 0x1.a7f5245e5a2cfp+563, 2);
    CHECK_F(mt_nv_rnorm4df(rt_f(0x1.16c2p-133f), rt_f(0x1.16c2p-133f), rt_f(0x1.16c2p-133f), rt_f(0x1.16c2p-133f)), INFINITY, 1);
    CHECK_D(mt_nv_rnorm4d(rt_d(0x1.7e43c8800759cp+996), rt_d(0x1.56e1fc2f8f359p-997), rt_d(0x1.7e43c8800759cp+996), rt_d(0x1.7e43c8800759cp+996)), 0x1.8bed496221c06p-998, 2);
    CHECK_F(mt_nv_rnorm4df(rt_f(0x1.c363ccp+127f), rt_f(0x1.4484cp-100f), rt_f(0x1.c363ccp+127f), rt_f(0x1.c363ccp+127f)), 0x1.4f4bap-129f, 1);
    CHECK_D(mt_nv_rnorm4d(rt_d(0x1.999999999999ap-4), rt_d(0x1.999999999999ap-3), rt_d(0x1.3333333333333p-2), rt_d(0x1.999999999999ap-2)), 0x1.d363d1848dcbep+0, 2);
    CHECK_F(mt_nv_rnorm4df(rt_f(0x1.99999ap-4f), rt_f(0x1.99999ap-3f), rt_f(0x1.333334p-2f), rt_f(0x1.99999ap-2f)), 0x1.d363dp+0f, 1);
    DONE();
}

static void test_special_edges(void **state) {
    (void)state;
    /* sinpi/cospi: exact zeros and ones, signed as IEEE 754's sinPi/cosPi */
    EQD(mt_nv_sinpi(rt_d(0.0)), 0.0);
    EQD(mt_nv_sinpi(rt_d(-0.0)), -0.0);
    EQD(mt_nv_sinpi(rt_d(1.0)), 0.0);
    EQD(mt_nv_sinpi(rt_d(-1.0)), -0.0);
    EQD(mt_nv_sinpi(rt_d(3.0)), 0.0);
    EQD(mt_nv_sinpi(rt_d(-3.0)), -0.0);
    EQD(mt_nv_sinpi(rt_d(1e300)), 0.0);
    EQD(mt_nv_sinpi(rt_d(0.5)), 1.0);
    EQD(mt_nv_sinpi(rt_d(1.5)), -1.0);
    EQD(mt_nv_sinpi(rt_d(-0.5)), -1.0);
    EQD(mt_nv_sinpi(rt_d(2.5)), 1.0);
    EQD(mt_nv_sinpi(rt_d(INFINITY)), NAN);
    EQD(mt_nv_sinpi(rt_d(NAN)), NAN);
    EQF(mt_nv_sinpif(rt_f(-0.0f)), -0.0f);
    EQF(mt_nv_sinpif(rt_f(16777215.0f)), 0.0f);
    EQF(mt_nv_sinpif(rt_f(8388607.5f)), -1.0f);
    EQF(mt_nv_sinpif(rt_f(-INFINITY)), NAN);
    EQD(mt_nv_cospi(rt_d(0.0)), 1.0);
    EQD(mt_nv_cospi(rt_d(1.0)), -1.0);
    EQD(mt_nv_cospi(rt_d(0.5)), 0.0);
    EQD(mt_nv_cospi(rt_d(-0.5)), 0.0);
    EQD(mt_nv_cospi(rt_d(1.5)), 0.0);
    EQD(mt_nv_cospi(rt_d(-2.0)), 1.0);
    EQD(mt_nv_cospi(rt_d(1e300)), 1.0);
    EQD(mt_nv_cospi(rt_d(-INFINITY)), NAN);
    EQF(mt_nv_cospif(rt_f(8388607.5f)), 0.0f);
    EQF(mt_nv_cospif(rt_f(16777215.0f)), -1.0f);
    EQD(mt_nv_exp10(rt_d(0.0)), 1.0);
    EQD(mt_nv_exp10(rt_d(2.0)), 100.0);
    EQD(mt_nv_exp10(rt_d(-INFINITY)), 0.0);
    EQD(mt_nv_exp10(rt_d(400.0)), INFINITY);
    EQF(mt_nv_exp10f(rt_f(2.0f)), 100.0f);
    EQF(mt_nv_exp10f(rt_f(39.0f)), INFINITY);
    EQD(mt_nv_acosh(rt_d(1.0)), 0.0);
    EQD(mt_nv_acosh(rt_d(0.5)), NAN);
    EQD(mt_nv_asinh(rt_d(-0.0)), -0.0);
    EQD(mt_nv_atanh(rt_d(1.0)), INFINITY);
    EQF(mt_nv_atanhf(rt_f(-1.0f)), -INFINITY);
    EQD(mt_nv_rcbrt(rt_d(0.0)), INFINITY);
    EQD(mt_nv_rcbrt(rt_d(-0.0)), -INFINITY);
    EQD(mt_nv_rcbrt(rt_d(INFINITY)), 0.0);
    EQD(mt_nv_rcbrt(rt_d(-INFINITY)), -0.0);
    EQD(mt_nv_rcbrt(rt_d(8.0)), 0.5);
    EQD(mt_nv_rcbrt(rt_d(-0.125)), -2.0);
    EQF(mt_nv_rcbrtf(rt_f(-0.0f)), -INFINITY);
    EQF(mt_nv_rcbrtf(rt_f(64.0f)), 0.25f);
    /* erfinv family: poles, domain, the exact 0 */
    EQD(mt_nv_erfinv(rt_d(0.0)), 0.0);
    EQD(mt_nv_erfinv(rt_d(-0.0)), -0.0);
    EQD(mt_nv_erfinv(rt_d(1.0)), INFINITY);
    EQD(mt_nv_erfinv(rt_d(-1.0)), -INFINITY);
    EQD(mt_nv_erfinv(rt_d(1.5)), NAN);
    EQD(mt_nv_erfinv(rt_d(NAN)), NAN);
    EQF(mt_nv_erfinvf(rt_f(-1.0f)), -INFINITY);
    EQD(mt_nv_erfcinv(rt_d(0.0)), INFINITY);
    EQD(mt_nv_erfcinv(rt_d(2.0)), -INFINITY);
    EQD(mt_nv_erfcinv(rt_d(1.0)), 0.0);
    EQD(mt_nv_erfcinv(rt_d(-0.5)), NAN);
    EQD(mt_nv_erfcinv(rt_d(2.5)), NAN);
    EQF(mt_nv_erfcinvf(rt_f(0.0f)), INFINITY);
    EQD(mt_nv_normcdfinv(rt_d(0.0)), -INFINITY);
    EQD(mt_nv_normcdfinv(rt_d(1.0)), INFINITY);
    EQD(mt_nv_normcdfinv(rt_d(0.5)), 0.0);
    EQD(mt_nv_normcdfinv(rt_d(-1.0)), NAN);
    EQF(mt_nv_normcdfinvf(rt_f(0.5f)), 0.0f);
    EQD(mt_nv_erfcx(rt_d(INFINITY)), 0.0);
    EQD(mt_nv_erfcx(rt_d(-INFINITY)), INFINITY);
    EQD(mt_nv_erfcx(rt_d(-27.0)), INFINITY);
    EQD(mt_nv_erfcx(rt_d(0.0)), 1.0);
    EQD(mt_nv_erfcx(rt_d(NAN)), NAN);
    EQF(mt_nv_erfcxf(rt_f(-10.0f)), INFINITY);
    EQD(mt_nv_normcdf(rt_f(-INFINITY)), 0.0);
    EQD(mt_nv_normcdf(rt_f(INFINITY)), 1.0);
    EQD(mt_nv_normcdf(rt_f(0.0)), 0.5);
    EQD(mt_nv_normcdf(rt_f(-40.0)), 0.0);
    EQD(mt_nv_normcdf(rt_f(NAN)), NAN);
    EQD(mt_nv_cyl_bessel_i0(rt_d(0.0)), 1.0);
    EQD(mt_nv_cyl_bessel_i1(rt_d(-0.0)), -0.0);
    EQD(mt_nv_cyl_bessel_i0(rt_d(-INFINITY)), INFINITY);
    EQD(mt_nv_cyl_bessel_i1(rt_d(-INFINITY)), -INFINITY);
    EQD(mt_nv_cyl_bessel_i0(rt_d(714.0)), INFINITY);
    EQD(mt_nv_cyl_bessel_i1(rt_d(-800.0)), -INFINITY);
    EQD(mt_nv_cyl_bessel_i0(rt_d(NAN)), NAN);
    EQF(mt_nv_cyl_bessel_i0f(rt_f(92.0f)), INFINITY);
    EQF(mt_nv_cyl_bessel_i1f(rt_f(NAN)), NAN);
    /* norms: an infinite argument wins over NaN */
    EQD(mt_nv_rhypot(rt_d(INFINITY), rt_d(NAN)), 0.0);
    EQD(mt_nv_rhypot(rt_d(NAN), rt_d(1.0)), NAN);
    EQD(mt_nv_rhypot(rt_d(0.0), rt_d(-0.0)), INFINITY);
    EQF(mt_nv_rhypotf(rt_f(-0.0f), rt_f(0.0f)), INFINITY);
    EQD(mt_nv_norm3d(rt_d(NAN), rt_d(-INFINITY), rt_d(1.0)), INFINITY);
    EQD(mt_nv_norm3d(rt_d(-0.0), rt_d(0.0), rt_d(-0.0)), 0.0);
    EQD(mt_nv_rnorm3d(rt_d(0.0), rt_d(0.0), rt_d(0.0)), INFINITY);
    EQF(mt_nv_rnorm3df(rt_f(1.0f), rt_f(NAN), rt_f(-INFINITY)), 0.0f);
    EQD(mt_nv_norm4d(rt_d(0.0), rt_d(0.0), rt_d(0.0), rt_d(0.0)), 0.0);
    EQD(mt_nv_rnorm4d(rt_d(1.0), rt_d(INFINITY), rt_d(NAN), rt_d(2.0)), 0.0);
    EQF(mt_nv_norm4df(rt_f(NAN), rt_f(1.0f), rt_f(2.0f), rt_f(3.0f)), NAN);
    EQD(mt_nv_norm3d(rt_d(1.0), rt_d(2.0), rt_d(2.0)), 3.0);
    /* Bessel: CUDA gives NaN for a negative order, where C's jn reflects */
    EQD(mt_nv_jn(-1, rt_d(1.0)), NAN);
    EQF(mt_nv_jnf(-2, rt_f(1.0f)), NAN);
    EQD(mt_nv_yn(-1, rt_d(1.0)), NAN);
    EQF(mt_nv_ynf(-3, rt_f(2.0f)), NAN);
    EQD(mt_nv_yn(2, rt_d(0.0)), -INFINITY);
    EQD(mt_nv_yn(1, rt_d(-1.0)), NAN);
    EQD(mt_nv_y0(rt_d(0.0)), -INFINITY);
    EQF(mt_nv_y1f(rt_f(-1.0f)), NAN);
    EQD(mt_nv_j0(rt_d(INFINITY)), 0.0);
    EQD(mt_nv_j1(rt_d(0.0)), 0.0);
    EQD(mt_nv_lgamma(rt_d(1.0)), 0.0);
    EQD(mt_nv_lgamma(rt_d(2.0)), 0.0);
    EQD(mt_nv_lgamma(rt_d(-1.0)), INFINITY);
    EQD(mt_nv_lgamma(rt_d(0.0)), INFINITY);
    EQF(mt_nv_lgammaf(rt_f(-INFINITY)), INFINITY);
    EQD(mt_nv_tgamma(rt_d(-0.0)), -INFINITY);
    EQD(mt_nv_tgamma(rt_d(0.0)), INFINITY);
    EQD(mt_nv_tgamma(rt_d(-2.0)), NAN);
    EQD(mt_nv_tgamma(rt_d(171.7)), INFINITY);
    EQD(mt_nv_tgamma(rt_d(-INFINITY)), NAN);
    EQF(mt_nv_tgammaf(rt_f(-0.0f)), -INFINITY);
    EQF(mt_nv_tgammaf(rt_f(5.0f)), 24.0f);
    DONE();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer_edges),
        cmocka_unit_test(test_integer_random),
        cmocka_unit_test(test_bit_casts),
        cmocka_unit_test(test_directed_arithmetic),
        cmocka_unit_test(test_directed_random),
        cmocka_unit_test(test_directed_in_loops),
        cmocka_unit_test(test_rounding_mode_restored),
        cmocka_unit_test(test_float_to_int),
        cmocka_unit_test(test_int_to_float),
        cmocka_unit_test(test_float_functions),
        cmocka_unit_test(test_special_values),
        cmocka_unit_test(test_special_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
