/* type.c: scalar, pointer and block types, NumPy broadcasting and numeric
 * promotion.
 *
 * A Type is a small value (no allocation): an element dtype, a pointer
 * flag and a static shape of rank 0..MT_MAX_RANK.  Printing follows the
 * original's syntax: i32, ptr<f32>, vector<256 x i32> for rank 1,
 * block<16x32 x bool> for higher ranks; tl.int1 prints as bool. */
#include "mt.h"

#include <math.h>
#include <string.h>

Type type_scalar(DType d) {
    Type t;
    memset(&t, 0, sizeof t);
    t.dtype = (uint8_t)d;
    return t;
}

Type type_ptr(DType pointee) {
    Type t = type_scalar(pointee);
    t.is_ptr = 1;
    return t;
}

Type type_block(Type elem, int rank, const int32_t *shape) {
    Type t = type_elem(elem);
    t.rank = (uint8_t)rank;
    for (int i = 0; i < rank; i++)
        t.shape[i] = shape[i];
    return t;
}

Type type_elem(Type t) {
    Type e = type_scalar((DType)t.dtype);
    e.is_ptr = t.is_ptr;
    return e;
}

Type type_with_elem(Type shape_from, Type elem) {
    Type t = shape_from;
    t.dtype = elem.dtype;
    t.is_ptr = elem.is_ptr;
    return t;
}

bool type_eq(Type a, Type b) {
    if (a.dtype != b.dtype || a.is_ptr != b.is_ptr || a.rank != b.rank)
        return false;
    for (int i = 0; i < a.rank; i++)
        if (a.shape[i] != b.shape[i])
            return false;
    return true;
}

/* Names follow Triton: tl.<tl_name>, dtype.name == short_name (which is
 * also the AOT signature spelling); the IR keeps the original's bool, i32,
 * f32.  Narrow floats are bit patterns in registers too (see mt.h). */
const DTypeInfo dtype_info[DT_COUNT] = {
    [DT_VOID] = {"void", "void", "void", "void", "void", DK_VOID, 0, 0, 0},
    [DT_I1] = {"bool", "int1", "i1", "bool", "unsigned char", DK_BOOL, 1, 0, 1},
    [DT_I8] = {"i8", "int8", "i8", "signed char", "signed char", DK_SINT, 8, 0, 1},
    [DT_I16] = {"i16", "int16", "i16", "short", "short", DK_SINT, 16, 0, 2},
    [DT_I32] = {"i32", "int32", "i32", "int", "int", DK_SINT, 32, 0, 4},
    [DT_I64] = {"i64", "int64", "i64", "long long", "long long", DK_SINT, 64, 0, 8},
    [DT_U8] = {"u8", "uint8", "u8", "unsigned char", "unsigned char", DK_UINT, 8, 0, 1},
    [DT_U16] = {"u16", "uint16", "u16", "unsigned short", "unsigned short", DK_UINT,
                16, 0, 2},
    [DT_U32] = {"u32", "uint32", "u32", "unsigned", "unsigned", DK_UINT, 32, 0, 4},
    [DT_U64] = {"u64", "uint64", "u64", "unsigned long long", "unsigned long long",
                DK_UINT, 64, 0, 8},
    [DT_F8E4] = {"f8e4nv", "float8e4nv", "fp8e4nv", "unsigned char", "unsigned char",
                 DK_FLOAT, 8, 3, 1},
    [DT_F8E5] = {"f8e5", "float8e5", "fp8e5", "unsigned char", "unsigned char", DK_FLOAT, 8,
                 2, 1},
    [DT_F16] = {"f16", "float16", "fp16", "unsigned short", "unsigned short", DK_FLOAT, 16, 10,
                2},
    [DT_BF16] = {"bf16", "bfloat16", "bf16", "unsigned short", "unsigned short", DK_FLOAT, 16,
                 7, 2},
    [DT_F32] = {"f32", "float32", "fp32", "float", "float", DK_FLOAT, 32, 23, 4},
    [DT_F64] = {"f64", "float64", "fp64", "double", "double", DK_FLOAT, 64, 52, 8},
};

static const DTypeInfo *info(DType d) {
    return &dtype_info[(unsigned)d < DT_COUNT ? d : DT_VOID];
}

bool dtype_is_float(DType d) { return info(d)->kind == DK_FLOAT; }
bool dtype_is_int(DType d) {
    return info(d)->kind == DK_SINT || info(d)->kind == DK_UINT;
}
bool dtype_is_unsigned(DType d) { return info(d)->kind == DK_UINT; }
bool dtype_is_narrow_float(DType d) {
    return d == DT_F16 || d == DT_BF16 || d == DT_F8E4 || d == DT_F8E5;
}

bool type_is_numeric(Type t) {
    return !t.is_ptr && (dtype_is_int((DType)t.dtype) || dtype_is_float((DType)t.dtype));
}

bool type_is_int(Type t) { return !t.is_ptr && dtype_is_int((DType)t.dtype); }

bool type_is_bool(Type t) { return !t.is_ptr && t.dtype == DT_I1; }

bool type_is_float(Type t) { return !t.is_ptr && dtype_is_float((DType)t.dtype); }

int64_t type_numel(Type t) {
    int64_t n = 1;
    for (int i = 0; i < t.rank; i++)
        n *= t.shape[i];
    return n;
}

const char *dtype_name(DType d) { return info(d)->name; }
const char *dtype_ctype(DType d) { return info(d)->ctype; }
const char *dtype_mtype(DType d) { return info(d)->mtype; }

static void print_elem(StrBuf *sb, Type t) {
    if (t.is_ptr)
        sb_printf(sb, "ptr<%s>", dtype_name((DType)t.dtype));
    else
        sb_puts(sb, dtype_name((DType)t.dtype));
}

void type_print(StrBuf *sb, Type t) {
    if (t.rank == 0) {
        print_elem(sb, t);
        return;
    }
    sb_puts(sb, t.rank == 1 ? "vector<" : "block<");
    for (int i = 0; i < t.rank; i++)
        sb_printf(sb, i ? "x%d" : "%d", t.shape[i]);
    sb_puts(sb, " x ");
    print_elem(sb, t);
    sb_putc(sb, '>');
}

int broadcast_shapes(Type a, Type b, Type *out) {
    int rank = a.rank > b.rank ? a.rank : b.rank;
    Type r = a;
    r.rank = (uint8_t)rank;
    for (int i = 0; i < rank; i++) {
        int ia = i - (rank - a.rank), ib = i - (rank - b.rank);
        int32_t da = ia >= 0 ? a.shape[ia] : 1;
        int32_t db = ib >= 0 ? b.shape[ib] : 1;
        if (da != db && da != 1 && db != 1)
            return -1;
        r.shape[i] = da == 1 ? db : da;
    }
    for (int i = rank; i < MT_MAX_RANK; i++)
        r.shape[i] = 0;
    *out = r;
    return 0;
}

DType integer_promote(DType a, DType b) {
    int ra = info(a)->bits, rb = info(b)->bits;
    bool ua = dtype_is_unsigned(a), ub = dtype_is_unsigned(b);
    if (ua == ub)
        return ra > rb ? a : b;
    if (ua)
        return ra >= rb ? a : b;
    return rb >= ra ? b : a;
}

bool dtype_is_fp8(int d) { return d == DT_F8E4 || d == DT_F8E5; }

DType promote_dtype2(DType a, DType b, bool div_or_mod) {
    if (a == DT_F64 || b == DT_F64)
        return DT_F64;
    if (a == DT_F32 || b == DT_F32)
        return DT_F32;
    if (a == DT_F16 || b == DT_F16)
        return div_or_mod ? DT_F32 : DT_F16;
    if (a == DT_BF16 && b == DT_BF16)
        return div_or_mod ? DT_F32 : DT_BF16;
    if (a == DT_BF16 || b == DT_BF16)
        return DT_F32;
    if (dtype_is_fp8(a) && dtype_is_fp8(b))
        return a == b ? a : DT_F16;
    bool ia = a == DT_I1 || dtype_is_int(a), ib = b == DT_I1 || dtype_is_int(b);
    if (!ia || !ib)
        return DT_VOID;
    if (div_or_mod && dtype_is_unsigned(a) != dtype_is_unsigned(b))
        return DT_VOID;
    return integer_promote(a, b);
}

DType promote_dtype(DType a, DType b) { return promote_dtype2(a, b, false); }

int64_t dtype_wrap_int(DType d, int64_t v) {
    int bits = dtype_info[d].bits;
    if (d == DT_I1)
        return v != 0;
    if (bits >= 64 || !dtype_is_int(d))
        return v;
    uint64_t m = ((uint64_t)1 << bits) - 1, u = (uint64_t)v & m;
    if (dtype_is_unsigned(d) || !(u >> (bits - 1)))
        return (int64_t)u;
    return (int64_t)(u | ~m);
}

/* Exponent range of a narrow float: the smallest normal exponent, the
 * largest finite value, and whether overflow saturates (fp8e4nv has no
 * infinity) rather than giving inf. */
static void narrow_range(DType d, int *emin, double *max, bool *sat) {
    *sat = false;
    switch (d) {
    case DT_F16: *emin = -14; *max = 65504.0; break;
    case DT_BF16: *emin = -126; *max = 0x1.fep127; break;
    case DT_F8E4: *emin = -6; *max = 448.0; *sat = true; break;
    default: /* DT_F8E5 */ *emin = -14; *max = 57344.0; break;
    }
}

double dtype_round_float(DType d, double v) {
    if (d == DT_F32)
        return (double)(float)v;
    if (!dtype_is_narrow_float(d) || v != v || isinf(v) || v == 0)
        return v;
    int emin, e;
    double max;
    bool sat;
    narrow_range(d, &emin, &max, &sat);
    frexp(v, &e); /* v = m * 2^e, 0.5 <= |m| < 1 */
    e -= 1;       /* v = m' * 2^e, 1 <= |m'| < 2 */
    if (e < emin)
        e = emin;
    /* the quantum at v's binade; x / q is exact, and so is rounding it */
    double q = ldexp(1.0, e - dtype_info[d].mantissa);
    double r = nearbyint(v / q) * q;
    if (fabs(r) > max)
        r = sat ? copysign(max, v) : copysign(INFINITY, v);
    return r;
}

uint64_t dtype_float_bits(DType d, double v) {
    if (d == DT_F64) {
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        return b;
    }
    if (d == DT_F32) {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        return b;
    }
    int m = dtype_info[d].mantissa, bits = dtype_info[d].bits;
    int ebits = bits - 1 - m, bias = (1 << (ebits - 1)) - 1;
    uint64_t sign = signbit(v) ? (uint64_t)1 << (bits - 1) : 0;
    uint64_t emax = ((uint64_t)1 << ebits) - 1;
    if (v != v) /* NaN: all exponent and mantissa bits (fp8e4nv's only NaN) */
        return sign | (emax << m) | (((uint64_t)1 << m) - 1);
    double a = fabs(v);
    if (isinf(a))
        return sign | (emax << m);
    if (a == 0)
        return sign;
    int e;
    frexp(a, &e);
    e -= 1;
    if (e < 1 - bias) /* subnormal: a = frac * 2^(1 - bias - m) */
        return sign | (uint64_t)ldexp(a, m - (1 - bias));
    uint64_t frac = (uint64_t)(ldexp(a, m - e)) - ((uint64_t)1 << m);
    return sign | ((uint64_t)(e + bias) << m) | frac;
}
