/* ctext.c: the C expression templates of ops.def, as text and as values.
 *
 * An op's template ("(%r0 + %r1)", "expf(%0)") is the one definition of
 * what the op computes.  The emitter expands it into CUDA C with
 * ctext_expand; the constant folder evaluates the same string with
 * ctext_eval.  Because both read the same text, a folded constant is what
 * the generated code would have computed, and a new unary function is one
 * row in ops.def: nothing here or in any pass names an op.
 *
 * Template syntax: C text with placeholders %N (operand N as it is), %rN
 * (operand N converted to the result's element type), %cN (operand N
 * converted to the common type of operands 0 and 1: bool when both are
 * bool, else their promoted dtype), and %% (a percent sign).  Conversions
 * are written as ctext_convert writes them: "((float)x)", "(x != 0)".
 *
 * Evaluation interprets the subset of C that templates use, with C's
 * rules where the generated code would follow them:
 *   - types: bool, int (i32), long long (i64), float (f32); the usual
 *     arithmetic conversions (bool promotes to int; a float operand makes
 *     the operation float), shifts typed by their promoted left operand,
 *     comparisons and ! yield bool, ?: converts to the arms' common type;
 *   - f32 arithmetic in float, never double; integer arithmetic wraps in
 *     two's complement at the width of its type (the emitted code relies on
 *     the same wrap-around, as the folder always has), >> of a negative
 *     value is arithmetic;
 *   - literals: decimal and hex integers (suffix L/LL: long long; an
 *     unsuffixed literal is int when it fits), floats with suffix f;
 *   - calls: the libm float functions in `funcs` below (evaluated by the
 *     host's libm, the one the host backend's kernels link; CUDA's device
 *     versions may differ by their documented ulp error, exactly as before
 *     this table existed), isnan/isinf, __int_as_float, and the
 *     runtime's mt_rsqrtf, mt_expf, mt_divf, mt_sqrtf, mt_fmaxnumf, mt_fminnumf, mt_umulhi
 *     and mt_philox (mt_kernel_rt.h,
 *     included here so that the folder calls the host backend's very
 *     functions);
 *   - ?:, && and || evaluate only the branch C would.
 * The ops' integer // % << >> call the runtime's mt_div, mt_rem, mt_shl
 * and mt_shr, which define every case as Triton does (issue 15), and
 * evaluate to what those functions return.  Where a template uses C's own
 * operators, a value C leaves undefined -- integer division or remainder
 * by zero, INT_MIN / -1, a shift count outside [0, width), a float converted to an
 * integer type that cannot hold it -- makes ctext_eval fail, and so does a
 * float division or remainder by zero (defined in IEEE, but kept in the
 * IR so the division stays visible), so the folder keeps the op.  So does
 * any text outside the subset: a template that cannot be evaluated is
 * never folded, and test_optable.c checks that every row's template
 * evaluates. */
#include "mt.h"
#include "mt_kernel_rt.h"

#include <ctype.h>
#include <math.h>

#include "mt_kernel_rt.h" /* the runtime functions templates call (mt_fremf) */
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- selection */

const char *op_ctext(int code, Type rt) {
    if (code < 0 || code >= OP_COUNT)
        return NULL;
    const OpInfo *oi = &op_info[code];
    if (!rt.is_ptr && dtype_is_float((DType)rt.dtype) && oi->ftext)
        return oi->ftext;
    if (!rt.is_ptr && rt.dtype == DT_I1 && oi->btext)
        return oi->btext;
    return oi->text;
}

const char *op_template(const Op *op, Type rt) {
    if (op->code == OP_LIBDEVICE) {
        const LibdeviceSym *s = libdevice_sym(op->attr[0]);
        return s ? s->tmpl : NULL;
    }
    return op_ctext(op->code, rt);
}

bool op_has_text(const Op *op) {
    return op->code == OP_LIBDEVICE || (op->code < OP_COUNT && op_info[op->code].text);
}

/* The type comparisons compute in: bool for two bools, else promoted. */
static DType common_dtype(Type a, Type b) {
    if (a.dtype == DT_I1 && b.dtype == DT_I1 && !a.is_ptr && !b.is_ptr)
        return DT_I1;
    return promote_dtype((DType)a.dtype, (DType)b.dtype);
}

/* ----------------------------------------------------------------- text */

/* The runtime's name of a narrow float type (mt_kernel_rt.h). */
static const char *rt_name(DType d) {
    switch (d) {
    case DT_F16: return "f16";
    case DT_BF16: return "bf16";
    case DT_F8E4: return "f8e4nv";
    default: return "f8e5";
    }
}

/* A narrow float's bits as a float value, and a float rounded to one. */
static const char *widen(Arena *a, const char *x, DType d) {
    return arena_printf(a, "mt_%s_to_f32(%s)", rt_name(d), x);
}
static const char *narrow(Arena *a, const char *x, DType d) {
    return arena_printf(a, "mt_f32_to_%s(%s)", rt_name(d), x);
}

/* Conversions follow Triton's casts (semantic.py cast): one rounding from
 * the source to the target, float to int as the GPU's saturating cvt
 * (mt_cvt_*), int to bf16 from the integer itself (through float would
 * round twice).  Narrow floats are bit patterns: they widen to f32 first,
 * which is exact. */
static const char *convert_scalar(Arena *a, const char *x, DType from, DType to) {
    const char *ct = dtype_ctype(to);
    bool fn = dtype_is_narrow_float(from), tn = dtype_is_narrow_float(to);
    if (to == DT_I1)
        return arena_printf(a, "(%s != 0)", fn ? widen(a, x, from) : x);
    if (tn) {
        if (from == DT_F64 && (to == DT_F16 || to == DT_BF16))
            return arena_printf(a, "mt_f64_to_%s(%s)", rt_name(to), x);
        if (dtype_is_int(from) && to == DT_BF16 && dtype_info[from].bits > 16)
            return arena_printf(a, "mt_%s_to_bf16(%s)",
                                dtype_is_unsigned(from) ? "u64" : "i64", x);
        if (from == DT_F8E5 && to == DT_BF16) /* Triton's own rebias */
            return arena_printf(a, "mt_f8e5_to_bf16(%s)", x);
        if (fn)
            return narrow(a, widen(a, x, from), to);
        if (from == DT_F32)
            return narrow(a, x, to);
        return narrow(a, arena_printf(a, "((float)%s)", x), to);
    }
    if (fn)
        x = widen(a, x, from);
    if (dtype_is_int(to) && dtype_is_float(from)) /* Triton's f32 and f64 rules differ */
        return arena_printf(a, "mt_cvt_%s%s(%s)", dtype_name(to), from == DT_F64 ? "" : "_f", x);
    if (fn && to == DT_F32)
        return x;
    return arena_printf(a, "((%s)%s)", ct, x);
}

const char *ctext_convert(Arena *a, const char *x, Type from, Type to) {
    if (from.dtype == to.dtype && from.is_ptr == to.is_ptr)
        return x;
    if (to.is_ptr || from.is_ptr)
        return arena_printf(a, "((%s*)%s)", dtype_mtype((DType)to.dtype), x);
    return convert_scalar(a, x, (DType)from.dtype, (DType)to.dtype);
}

/* fp_downcast_rounding="rtz": truncating float conversions compose, so
 * f64 to f16 goes through f32 toward zero twice. */
static const char *convert_rtz(Arena *a, const char *x, Type from, Type to) {
    DType f = (DType)from.dtype, t = (DType)to.dtype;
    if (f == t || !dtype_is_float(f) || !dtype_is_float(t) ||
        dtype_info[t].bits >= dtype_info[f].bits)
        return ctext_convert(a, x, from, to);
    if (f == DT_F64)
        x = arena_printf(a, "mt_f64_to_f32_rtz(%s)", x);
    else if (f != DT_F32)
        x = widen(a, x, f);
    if (t == DT_F32)
        return x;
    return arena_printf(a, "mt_f32_to_%s_rtz(%s)", rt_name(t), x);
}

/* The bits of x (type from) as an unsigned integer of its width. */
static const char *bits_of(Arena *a, const char *x, DType d) {
    static const char *const ut[] = {"unsigned char", "unsigned char", "unsigned short",
                                     "unsigned", "unsigned long long"};
    int w = dtype_info[d].bits;
    const char *u = ut[w <= 1 ? 0 : w == 8 ? 1 : w == 16 ? 2 : w == 32 ? 3 : 4];
    if (d == DT_F32)
        return arena_printf(a, "((unsigned)__float_as_int(%s))", x);
    if (d == DT_F64)
        return arena_printf(a, "((unsigned long long)__double_as_longlong(%s))", x);
    return arena_printf(a, "((%s)%s)", u, x);
}

static const char *bitcast(Arena *a, const char *x, Type from, Type to) {
    DType f = (DType)from.dtype, t = (DType)to.dtype;
    if (to.is_ptr) /* an address (typerules.c's rule_bitcast) */
        return arena_printf(a, "((%s*)(%s))", dtype_mtype(t), x);
    if (from.is_ptr)
        return arena_printf(a, "((%s)(%s))", dtype_ctype(t), x);
    if (f == t)
        return x;
    const char *b = bits_of(a, x, f);
    if (t == DT_F32)
        return arena_printf(a, "__int_as_float((int)%s)", b);
    if (t == DT_F64)
        return arena_printf(a, "__longlong_as_double((long long)%s)", b);
    return arena_printf(a, "((%s)%s)", dtype_ctype(t), b);
}

/* The type an F_WRAP op on integers computes in: unsigned, and at least
 * unsigned int, since C promotes narrower types to int, where a 16-bit
 * 0xffff * 0xffff overflows.  d itself for u32, u64 and the rest. */
static DType wrap_dtype(DType d) {
    if (!dtype_is_int(d) || d == DT_I1)
        return d;
    if (dtype_info[d].bits < 32 || d == DT_I32)
        return DT_U32;
    return DT_U64;
}

/* For f64 results a template's float functions (expf) are their double
 * versions (exp): the name without its final f. */
typedef struct CFunc CFunc;
static const CFunc *find_func(const char *name, size_t len);

static void put_name(StrBuf *sb, const char *name, size_t len, bool dbl) {
    if (dbl && len > 1 && name[len - 1] == 'f') {
        char buf[32];
        if (len < sizeof buf) {
            memcpy(buf, name, len);
            buf[len] = 0;
            if (find_func(buf, len)) {
                sb_putn(sb, name, len - 1);
                return;
            }
        }
    }
    sb_putn(sb, name, len);
}

/* Template expansion.  Where the op computes on narrow floats (not
 * F_MOVE), every operand reaches the template as an f32 value (after its
 * %r/%c conversion, done on bits) and the result is rounded back; where
 * it wraps (F_WRAP) on an integer, operands and result go through the
 * unsigned type wrap_dtype gives. */
typedef struct Expand {
    Arena *a;
    const char *const *args;
    const Type *at;
    int nargs;
    Type rt;
    bool f32_mode, wrap, dbl;
} Expand;

static const char *placeholder(const Expand *x, char how, int i) {
    Arena *a = x->a;
    const char *s = x->args[i];
    Type t = x->at[i];
    Type to = type_elem(x->rt);
    if (how == 'r' || how == 'z' || how == 'b') {
        if (x->wrap)
            to = type_scalar(wrap_dtype((DType)to.dtype));
        s = how == 'z' ? convert_rtz(a, s, t, to)
            : how == 'b' ? bitcast(a, s, t, to)
                         : ctext_convert(a, s, t, to);
        t = to;
    } else if (how == 'c' && x->nargs >= 2) {
        to = type_scalar(common_dtype(x->at[0], x->at[1]));
        s = ctext_convert(a, s, t, to);
        t = to;
    }
    if (x->f32_mode && !t.is_ptr && dtype_is_narrow_float((DType)t.dtype))
        s = widen(a, s, (DType)t.dtype);
    return s;
}

static const char *expand(Arena *a, const char *tmpl, int code, const char *const *args,
                          const Type *at, int nargs, Type rt);

const char *ctext_expand(Arena *a, int code, const char *const *args, const Type *at,
                         int nargs, Type rt) {
    return expand(a, op_ctext(code, rt), code, args, at, nargs, rt);
}

const char *ctext_expand_op(Arena *a, const Op *op, const char *const *args,
                            const Type *at, int nargs, Type rt) {
    return expand(a, op_template(op, rt), op->code, args, at, nargs, rt);
}

/* tmpl expanded for op `code` (whose flags say how operands convert) */
static const char *expand(Arena *a, const char *tmpl, int code, const char *const *args,
                          const Type *at, int nargs, Type rt) {
    if (!tmpl)
        return NULL;
    Expand x = {a, args, at, nargs, rt, false, false, rt.dtype == DT_F64 && !rt.is_ptr};
    if (!(op_info[code].flags & F_MOVE)) {
        x.f32_mode = dtype_is_narrow_float((DType)rt.dtype) && !rt.is_ptr;
        for (int i = 0; i < nargs; i++)
            x.f32_mode |= args[i] && !at[i].is_ptr && dtype_is_narrow_float((DType)at[i].dtype);
    }
    x.wrap = (op_info[code].flags & F_WRAP) && !rt.is_ptr &&
             wrap_dtype((DType)rt.dtype) != rt.dtype;
    StrBuf sb;
    sb_init(&sb);
    for (const char *p = tmpl; *p; p++) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *q = p;
            while (isalnum((unsigned char)*q) || *q == '_')
                q++;
            put_name(&sb, p, (size_t)(q - p), x.dbl);
            p = q - 1;
            continue;
        }
        if (*p != '%') {
            sb_putc(&sb, *p);
            continue;
        }
        char how = p[1];
        if (how == '%') {
            sb_putc(&sb, '%');
            p++;
            continue;
        }
        if (strchr("rczb", how))
            p++;
        else
            how = 0;
        int i = p[1] - '0';
        p++;
        if (i < 0 || i >= nargs || !args[i]) {
            sb_puts(&sb, "?");
            continue;
        }
        sb_puts(&sb, placeholder(&x, how, i));
    }
    const char *r = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    if (x.wrap)
        r = arena_printf(a, "((%s)%s)", dtype_ctype((DType)rt.dtype), r);
    else if (x.f32_mode && dtype_is_narrow_float((DType)rt.dtype))
        r = narrow(a, r, (DType)rt.dtype);
    return r;
}

/* Bit patterns of the limits of the narrow floats: -inf/+inf, or for
 * fp8e4nv (no infinity) -448/448. */
const char *ctext_limit(DType d, bool highest) {
    switch (d) {
    case DT_F32:
        return highest ? "__int_as_float(0x7f800000)"
                       : "(-__int_as_float(0x7f800000))";
    case DT_F64:
        return highest ? "__longlong_as_double(0x7ff0000000000000LL)"
                       : "__longlong_as_double((long long)0xfff0000000000000ULL)";
    case DT_F16: return highest ? "((unsigned short)0x7c00)" : "((unsigned short)0xfc00)";
    case DT_BF16: return highest ? "((unsigned short)0x7f80)" : "((unsigned short)0xff80)";
    case DT_F8E4: return highest ? "((unsigned char)0x7e)" : "((unsigned char)0xfe)";
    case DT_F8E5: return highest ? "((unsigned char)0x7c)" : "((unsigned char)0xfc)";
    case DT_I64:
        return highest ? "9223372036854775807LL"
                       : "(-9223372036854775807LL - 1LL)";
    case DT_I8: return highest ? "((signed char)127)" : "((signed char)-128)";
    case DT_I16: return highest ? "((short)32767)" : "((short)-32768)";
    case DT_U8: return highest ? "((unsigned char)255)" : "((unsigned char)0)";
    case DT_U16: return highest ? "((unsigned short)65535)" : "((unsigned short)0)";
    case DT_U32: return highest ? "4294967295u" : "0u";
    case DT_U64: return highest ? "18446744073709551615ull" : "0ull";
    default:
        return highest ? "2147483647" : "(-2147483647 - 1)";
    }
}

/* ----------------------------------------------------------- evaluation */

typedef struct Eval {
    const char *p;
    const CScalar *args;
    int nargs;
    DType rd;       /* the result's element type, for %r */
    DType common;   /* common type of operands 0 and 1, for %c */
    bool undefined; /* a live subexpression has no defined value */
    bool bad;       /* the text is outside the subset */
} Eval;

static CScalar mk_int(DType d, int64_t v) {
    CScalar r = {(uint8_t)d, dtype_wrap_int(d, v), 0.0};
    return r;
}

static CScalar mk_float(DType d, double f) {
    CScalar r = {(uint8_t)d, 0, d == DT_F32 ? (double)(float)f : f};
    return r;
}

static bool is_flt(CScalar v) { return dtype_is_float((DType)v.dtype); }

static bool truth(CScalar v) { return is_flt(v) ? v.f != 0 : v.i != 0; }

/* The value of v as an unsigned 64-bit pattern / a double. */
static double as_double(CScalar v) {
    if (is_flt(v))
        return v.f;
    return dtype_is_unsigned((DType)v.dtype) ? (double)(uint64_t)v.i : (double)v.i;
}

/* C's conversion of v to d; float to an integer type must fit. */
static CScalar convert(Eval *ev, CScalar v, DType d, bool live) {
    if (v.dtype == d)
        return v;
    if (dtype_is_float(d))
        return mk_float(d, as_double(v));
    if (d == DT_I1)
        return mk_int(DT_I1, truth(v));
    if (!is_flt(v))
        return mk_int(d, v.i);
    double x = v.f, lo, hi; /* the open interval of values that fit */
    int bits = dtype_info[d].bits;
    if (dtype_is_unsigned(d)) {
        lo = -1.0;
        hi = ldexp(1.0, bits);
    } else {
        lo = -ldexp(1.0, bits - 1) - 1.0;
        hi = ldexp(1.0, bits - 1);
    }
    if (bits == 64 && !dtype_is_unsigned(d))
        lo = -ldexp(1.0, 63) - 2048.0; /* -2^63 itself fits */
    if (!(x > lo && x < hi)) {
        ev->undefined |= live;
        return mk_int(d, 0);
    }
    if (dtype_is_unsigned(d))
        return mk_int(d, (int64_t)(uint64_t)x);
    return mk_int(d, (int64_t)x);
}

/* Integer promotion: types narrower than int become int. */
static DType promoted(DType d) {
    return dtype_info[d].bits < 32 && !dtype_is_float(d) ? DT_I32 : d;
}

/* C's usual arithmetic conversions over the evaluated types. */
static DType arith_type(CScalar a, CScalar b) {
    DType x = promoted((DType)a.dtype), y = promoted((DType)b.dtype);
    if (x == DT_F64 || y == DT_F64)
        return DT_F64;
    if (dtype_is_float(x) || dtype_is_float(y))
        return DT_F32;
    int bx = dtype_info[x].bits, by = dtype_info[y].bits;
    bool ux = dtype_is_unsigned(x), uy = dtype_is_unsigned(y);
    if (ux == uy)
        return bx >= by ? x : y;
    DType u = ux ? x : y, sgn = ux ? y : x;
    if (dtype_info[u].bits >= dtype_info[sgn].bits)
        return u;
    return sgn; /* long long holds every unsigned int */
}

static void skip_space(Eval *ev) {
    while (*ev->p == ' ')
        ev->p++;
}

/* The operator at the cursor (longest match), or NULL. */
static const char *peek_op(Eval *ev, int *len) {
    static const char *const ops[] = {
        "%%", "||", "&&", "==", "!=", "<=", ">=", "<<", ">>", "|", "^", "&",
        "<",  ">",  "+",  "-",  "*",  "/",  "?",  ":",  "!",  "~"};
    skip_space(ev);
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t n = strlen(ops[i]);
        if (strncmp(ev->p, ops[i], n) == 0) {
            *len = (int)n;
            return i == 0 ? "%" : ops[i];
        }
    }
    return NULL;
}

static CScalar eval_cond(Eval *ev, bool live);

/* A function templates may call: a float function of one or two floats,
 * a predicate on a float (bool result), or __int_as_float (a bit cast).
 * For f64 results the emitter writes the double function (put_name), and
 * evaluation uses it too. */
typedef enum FnForm { FN_F1, FN_F2, FN_PRED, FN_BITS, FN_F3, FN_UMULHI, FN_PHILOX, FN_INTOP } FnForm;

struct CFunc {
    const char *name;
    uint8_t form;       /* FnForm */
    bool divides;       /* a zero second argument is kept, as x / 0 is */
    float (*f1)(float);
    float (*f2)(float, float);
    double (*d1)(double);
    double (*d2)(double, double);
    float (*f3)(float, float, float);
    double (*d3)(double, double, double);
};

static double is_nan(double x) { return isnan(x) ? 1.0 : 0.0; }
static double is_inf(double x) { return isinf(x) ? 1.0 : 0.0; }
static double sign_bit(double x) { return signbit(x) ? 1.0 : 0.0; }

#define F1(name) {#name "f", FN_F1, false, name##f, 0, name, 0, 0, 0}
#define F2(name) {#name "f", FN_F2, false, 0, name##f, 0, name, 0, 0}
/* Float functions of C99 <math.h> that CUDA provides by the same name. */
static const CFunc funcs[] = {
    F1(exp),  F1(exp2),  F1(expm1), F1(log),   F1(log2),  F1(log10),
    F1(log1p), F1(sqrt), F1(cbrt),  F1(fabs),  F1(floor), F1(ceil),
    F1(trunc), F1(round), F1(rint), F1(sin),   F1(cos),   F1(tan),
    F1(asin), F1(acos),  F1(atan),  F1(sinh),  F1(cosh),  F1(tanh),
    F1(erf),  F1(erfc),  F2(pow),   F2(atan2), F2(fmax),  F2(fmin),
    F2(hypot), F2(copysign), F2(mt_frem),
    {"fmodf", FN_F2, true, 0, fmodf, 0, fmod, 0, 0},
    {"isnan", FN_PRED, false, 0, 0, is_nan, 0, 0, 0},
    {"signbit", FN_PRED, false, 0, 0, sign_bit, 0, 0, 0},
    {"isinf", FN_PRED, false, 0, 0, is_inf, 0, 0, 0},
    {"__int_as_float", FN_BITS, false, 0, 0, 0, 0, 0, 0},
    /* the math set (issue 9): fma rounds once; the runtime's functions
     * (mt_kernel_rt.h) are called here as the host backend calls them */
    {"fmaf", FN_F3, false, 0, 0, 0, 0, fmaf, fma},
    {"mt_rsqrtf", FN_F1, false, mt_rsqrtf, 0, mt_rsqrt, 0, 0, 0},
    {"mt_expf", FN_F1, false, mt_expf, 0, mt_exp, 0, 0, 0},
    {"mt_divf", FN_F2, true, 0, mt_divf, 0, mt_div, 0, 0},
    {"mt_sqrtf", FN_F1, false, mt_sqrtf, 0, mt_sqrt, 0, 0, 0},
    {"mt_ftzf", FN_F1, false, mt_ftzf, 0, mt_ftz, 0, 0, 0},
    {"mt_fmaxnumf", FN_F2, false, 0, mt_fmaxnumf, 0, mt_fmaxnum, 0, 0},
    {"mt_fminnumf", FN_F2, false, 0, mt_fminnumf, 0, mt_fminnum, 0, 0},
    {"mt_umulhi", FN_UMULHI, false, 0, 0, 0, 0, 0, 0},
    {"mt_philox", FN_PHILOX, false, 0, 0, 0, 0, 0, 0},
    /* integer // % << >> (issue 15), defined for every operand */
    {"mt_div", FN_INTOP, false, 0, 0, 0, 0, 0, 0},
    {"mt_rem", FN_INTOP, false, 0, 0, 0, 0, 0, 0},
    {"mt_shl", FN_INTOP, false, 0, 0, 0, 0, 0, 0},
    {"mt_shr", FN_INTOP, false, 0, 0, 0, 0, 0, 0},
};
#undef F1
#undef F2

static const CFunc *find_func(const char *name, size_t len) {
    for (size_t i = 0; i < sizeof funcs / sizeof *funcs; i++)
        if (strlen(funcs[i].name) == len &&
            strncmp(funcs[i].name, name, len) == 0)
            return &funcs[i];
    return NULL;
}

/* A function templates call, under its float or its double name (exp for
 * expf): a kernel parameter must not shadow either. */
bool ctext_is_function(const char *name) {
    size_t n = strlen(name);
    char buf[32];
    if (find_func(name, n))
        return true;
    if (n + 2 > sizeof buf)
        return false;
    memcpy(buf, name, n);
    buf[n] = 'f';
    buf[n + 1] = 0;
    const CFunc *fn = find_func(buf, n + 1);
    return fn && (fn->form == FN_F1 || fn->form == FN_F2 || fn->form == FN_F3);
}

/* The high half of the unsigned product at the width of d, as the
 * runtime's mt_umulhi overloads compute it. */
static CScalar umulhi(DType d, CScalar x, CScalar y) {
    if (dtype_info[d].bits == 64)
        return mk_int(d, (int64_t)mt_umulhi64((unsigned long long)x.i, (unsigned long long)y.i));
    return mk_int(d, (int64_t)mt_umulhi32((unsigned)x.i, (unsigned)y.i));
}

/* The runtime's mt_div/mt_rem/mt_shl/mt_shr (selected by the name's
 * fourth letter) at type d, on operands already of that type: the very
 * functions the host backend's kernels call through their overloads. */
#define INTOP_AT(OP, x, y)                                                             \
    switch (d) {                                                                       \
    case DT_I8: return mt_##OP##_i8((signed char)x, (signed char)y);                   \
    case DT_I16: return mt_##OP##_i16((short)x, (short)y);                             \
    case DT_I64: return mt_##OP##_i64((long long)x, (long long)y);                     \
    case DT_U8: return mt_##OP##_u8((unsigned char)x, (unsigned char)y);               \
    case DT_U16: return mt_##OP##_u16((unsigned short)x, (unsigned short)y);           \
    case DT_U32: return mt_##OP##_u32((unsigned)x, (unsigned)y);                       \
    case DT_U64: return (int64_t)mt_##OP##_u64((unsigned long long)x, (unsigned long long)y); \
    default: return mt_##OP##_i32((int)x, (int)y);                                     \
    }
static int64_t int_op(char which, DType d, int64_t x, int64_t y) {
    switch (which) {
    case 'd': INTOP_AT(div, x, y)
    case 'r': INTOP_AT(rem, x, y)
    case 'l': INTOP_AT(shl, x, y)
    default: INTOP_AT(shr, x, y)
    }
}
#undef INTOP_AT

static int func_arity(const CFunc *fn) {
    return fn->form == FN_F3 || fn->form == FN_PHILOX                      ? 3
           : fn->form == FN_F2 || fn->form == FN_UMULHI || fn->form == FN_INTOP ? 2
                                                                            : 1;
}

static CScalar eval_call(Eval *ev, const char *name, size_t len, bool live) {
    const CFunc *fn = find_func(name, len);
    CScalar a[3] = {mk_int(DT_I32, 0), mk_int(DT_I32, 0), mk_int(DT_I32, 0)};
    int n = 0;
    ev->p++; /* ( */
    skip_space(ev);
    while (*ev->p != ')' && n < 3 && !ev->bad) {
        a[n++] = eval_cond(ev, live);
        skip_space(ev);
        if (*ev->p == ',')
            ev->p++;
    }
    if (!fn || *ev->p != ')' || n != func_arity(fn)) {
        ev->bad = true;
        return mk_int(DT_I32, 0);
    }
    ev->p++;
    if (fn->form == FN_UMULHI) { /* integer operands of the result type */
        if (is_flt(a[0]) || is_flt(a[1]) || !dtype_is_int(ev->rd)) {
            ev->bad = true;
            return mk_int(DT_I32, 0);
        }
        return umulhi(ev->rd, a[0], a[1]);
    }
    if (fn->form == FN_INTOP) { /* integer operands of the result type */
        if (is_flt(a[0]) || is_flt(a[1]) || !dtype_is_int(ev->rd) || ev->rd == DT_I1) {
            ev->bad = true;
            return mk_int(DT_I32, 0);
        }
        char which = fn->name[3] != 's' ? fn->name[3] : fn->name[5] == 'l' ? 'l' : 's';
        return mk_int(ev->rd, int_op(which, ev->rd, a[0].i, a[1].i));
    }
    if (fn->form == FN_PHILOX) { /* integer counter, key and selector */
        if (is_flt(a[0]) || is_flt(a[1]) || is_flt(a[2]) || a[2].i < 0 || a[2].i > INT32_MAX) {
            ev->bad = true;
            return mk_int(DT_I32, 0);
        }
        return mk_int(DT_U32, (int64_t)mt_philox((unsigned long long)a[0].i,
                                                 (unsigned long long)a[1].i, (int)a[2].i));
    }
    if (fn->form == FN_BITS) {
        uint32_t bits = (uint32_t)convert(ev, a[0], DT_I32, live).i;
        float f;
        memcpy(&f, &bits, sizeof f);
        return mk_float(DT_F32, f);
    }
    /* arguments convert to the parameters, as in C */
    DType d = ev->rd == DT_F64 || fn->form == FN_PRED ? DT_F64 : DT_F32;
    double x = convert(ev, a[0], d, live).f;
    if (fn->form == FN_PRED)
        return mk_int(DT_I1, fn->d1(x) != 0);
    if (fn->form == FN_F1)
        return mk_float(d, d == DT_F64 ? fn->d1(x) : fn->f1((float)x));
    double y = convert(ev, a[1], d, live).f;
    if (fn->form == FN_F3) {
        double z = convert(ev, a[2], d, live).f;
        return mk_float(d, d == DT_F64 ? fn->d3(x, y, z) : fn->f3((float)x, (float)y, (float)z));
    }
    if (fn->divides && y == 0)
        ev->undefined |= live;
    return mk_float(d, d == DT_F64 ? fn->d2(x, y) : fn->f2((float)x, (float)y));
}

static CScalar eval_number(Eval *ev) {
    const char *s = ev->p;
    char *end;
    bool is_float = false;
    for (const char *q = s; isalnum((unsigned char)*q) || *q == '.'; q++)
        if ((*q == '.' || *q == 'e') && strncmp(s, "0x", 2) != 0)
            is_float = true;
    if (is_float) {
        float f = strtof(s, &end);
        if (*end == 'f')
            end++;
        ev->p = end;
        return mk_float(DT_F32, f);
    }
    unsigned long long v = strtoull(s, &end, 0);
    bool ll = false;
    while (*end == 'L') {
        ll = true;
        end++;
    }
    ev->p = end;
    bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (isalnum((unsigned char)*end) || v > (unsigned long long)INT64_MAX ||
        (hex && !ll && v > INT32_MAX)) { /* unsigned in C: not in the subset */
        ev->bad = true;
        return mk_int(DT_I32, 0);
    }
    return mk_int(ll || v > INT32_MAX ? DT_I64 : DT_I32, (int64_t)v);
}

static CScalar eval_placeholder(Eval *ev, bool live) {
    char how = ev->p[1];
    if (how == 'z' || how == 'b') { /* rounding modes and bits: not folded */
        ev->bad = true;
        return mk_int(DT_I32, 0);
    }
    ev->p += how == 'r' || how == 'c' ? 2 : 1;
    int i = *ev->p - '0';
    ev->p++;
    if (i < 0 || i >= ev->nargs) {
        ev->bad = true;
        return mk_int(DT_I32, 0);
    }
    CScalar v = ev->args[i];
    if (how == 'r')
        return convert(ev, v, ev->rd, live);
    if (how == 'c')
        return convert(ev, v, ev->common, live);
    return v;
}

static CScalar eval_unary(Eval *ev, bool live) {
    skip_space(ev);
    char ch = *ev->p;
    if (ch == '-' || ch == '+' || ch == '!' || ch == '~') {
        ev->p++;
        CScalar v = eval_unary(ev, live);
        if (ch == '!')
            return mk_int(DT_I1, !truth(v));
        if (is_flt(v)) {
            if (ch == '~')
                ev->bad = true;
            return ch == '-' ? mk_float((DType)v.dtype, -v.f) : v;
        }
        DType d = promoted((DType)v.dtype);
        uint64_t u = (uint64_t)v.i;
        return mk_int(d, (int64_t)(ch == '-' ? 0 - u : ch == '~' ? ~u : u));
    }
    if (ch == '(') {
        ev->p++;
        CScalar v = eval_cond(ev, live);
        skip_space(ev);
        if (*ev->p != ')')
            ev->bad = true;
        else
            ev->p++;
        return v;
    }
    if (ch == '%')
        return eval_placeholder(ev, live);
    if (isdigit((unsigned char)ch) || ch == '.')
        return eval_number(ev);
    if (isalpha((unsigned char)ch) || ch == '_') {
        const char *name = ev->p;
        while (isalnum((unsigned char)*ev->p) || *ev->p == '_')
            ev->p++;
        size_t len = (size_t)(ev->p - name);
        skip_space(ev);
        if (*ev->p == '(')
            return eval_call(ev, name, len, live);
    }
    ev->bad = true;
    return mk_int(DT_I32, 0);
}

static CScalar int_binary(Eval *ev, const char *op, DType d, int64_t x,
                          int64_t y, bool live) {
    uint64_t ux = (uint64_t)x, uy = (uint64_t)y;
    int bits = dtype_info[d].bits;
    bool uns = dtype_is_unsigned(d);
    int64_t min = bits == 32 ? INT32_MIN : INT64_MIN;
    switch (op[0]) {
    case '+': return mk_int(d, (int64_t)(ux + uy));
    case '-': return mk_int(d, (int64_t)(ux - uy));
    case '*': return mk_int(d, (int64_t)(ux * uy));
    case '/':
    case '%':
        if (y == 0 || (!uns && x == min && y == -1)) {
            ev->undefined |= live;
            return mk_int(d, 0);
        }
        if (uns)
            return mk_int(d, (int64_t)(op[0] == '/' ? ux / uy : ux % uy));
        return mk_int(d, op[0] == '/' ? x / y : x % y);
    case '&': return mk_int(d, (int64_t)(ux & uy));
    case '|': return mk_int(d, (int64_t)(ux | uy));
    case '^': return mk_int(d, (int64_t)(ux ^ uy));
    default: /* << >> */
        if ((!uns && y < 0) || uy >= (uint64_t)bits) {
            ev->undefined |= live;
            return mk_int(d, 0);
        }
        if (op[0] == '<')
            return mk_int(d, (int64_t)(ux << y));
        return mk_int(d, (int64_t)(!uns && x < 0 ? ~(~ux >> y) : ux >> y));
    }
}

static CScalar compare(const char *op, CScalar a, CScalar b) {
    DType d = arith_type(a, b);
    int c;
    if (dtype_is_float(d)) {
        CScalar fa = mk_float(d, as_double(a)), fb = mk_float(d, as_double(b));
        double x = fa.f, y = fb.f;
        if (isnan(x) || isnan(y))
            return mk_int(DT_I1, strcmp(op, "!=") == 0);
        c = x < y ? -1 : x > y;
    } else if (dtype_is_unsigned(d)) {
        uint64_t x = (uint64_t)mk_int(d, a.i).i, y = (uint64_t)mk_int(d, b.i).i;
        c = x < y ? -1 : x > y;
    } else {
        c = a.i < b.i ? -1 : a.i > b.i;
    }
    bool r = strcmp(op, "<") == 0    ? c < 0
             : strcmp(op, "<=") == 0 ? c <= 0
             : strcmp(op, ">") == 0  ? c > 0
             : strcmp(op, ">=") == 0 ? c >= 0
             : strcmp(op, "==") == 0 ? c == 0
                                     : c != 0;
    return mk_int(DT_I1, r);
}

static CScalar apply(Eval *ev, const char *op, CScalar a, CScalar b,
                     bool live) {
    if (strchr("<>=!", op[0]) && strcmp(op, "<<") && strcmp(op, ">>"))
        return compare(op, a, b);
    bool shift = strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0;
    DType d = shift ? promoted((DType)a.dtype) : arith_type(a, b);
    if (dtype_is_float(d)) {
        /* f32 arithmetic rounds each result to float, as C does */
        double x = convert(ev, a, d, live).f;
        double y = convert(ev, b, d, live).f;
        switch (op[0]) {
        case '+': return mk_float(d, x + y);
        case '-': return mk_float(d, x - y);
        case '*': return mk_float(d, x * y);
        case '/':
            if (y == 0)
                ev->undefined |= live; /* kept in the IR, see above */
            return mk_float(d, y == 0 ? 0.0 : x / y);
        default: ev->bad = true; return mk_float(d, 0); /* no float % & | ^ */
        }
    }
    if (shift && is_flt(b)) {
        ev->bad = true;
        return mk_int(d, 0);
    }
    return int_binary(ev, op, d, convert(ev, a, d, live).i, b.i, live);
}

/* Binary operators by precedence, loosest first. */
static const char *const levels[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="},
    {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"}, {"*", "/", "%"},
};
#define NLEVELS ((int)(sizeof levels / sizeof *levels))

static bool at_level(const char *op, int level) {
    for (int i = 0; i < 4 && levels[level][i]; i++)
        if (strcmp(op, levels[level][i]) == 0)
            return true;
    return false;
}

static CScalar eval_binary(Eval *ev, int level, bool live) {
    if (level == NLEVELS)
        return eval_unary(ev, live);
    CScalar a = eval_binary(ev, level + 1, live);
    int len;
    const char *op;
    while (!ev->bad && (op = peek_op(ev, &len)) && at_level(op, level)) {
        ev->p += len;
        bool t = truth(a);
        if (op[0] == '|' && op[1] == '|') { /* the rhs runs only when a is 0 */
            bool u = truth(eval_binary(ev, level + 1, live && !t));
            a = mk_int(DT_I1, t || u);
        } else if (op[0] == '&' && op[1] == '&') {
            bool u = truth(eval_binary(ev, level + 1, live && t));
            a = mk_int(DT_I1, t && u);
        } else {
            a = apply(ev, op, a, eval_binary(ev, level + 1, live), live);
        }
    }
    return a;
}

static CScalar eval_cond(Eval *ev, bool live) {
    CScalar c = eval_binary(ev, 0, live);
    int len;
    const char *op = peek_op(ev, &len);
    if (ev->bad || !op || op[0] != '?')
        return c;
    ev->p += len;
    bool t = truth(c);
    CScalar x = eval_cond(ev, live && t);
    op = peek_op(ev, &len);
    if (!op || op[0] != ':') {
        ev->bad = true;
        return c;
    }
    ev->p += len;
    CScalar y = eval_cond(ev, live && !t);
    /* the arms' common type, as C converts them */
    DType d = x.dtype == DT_I1 && y.dtype == DT_I1 ? DT_I1 : arith_type(x, y);
    return convert(ev, t ? x : y, d, live);
}

int ctext_eval(const char *tmpl, const CScalar *args, int nargs, DType rd,
               CScalar *out) {
    /* narrow floats compute through the runtime's conversions, which the
     * folder does not model: their ops stay */
    bool narrow_float = dtype_is_narrow_float(rd) || !tmpl;
    for (int i = 0; i < nargs; i++)
        narrow_float |= dtype_is_narrow_float((DType)args[i].dtype);
    if (narrow_float)
        return -1;
    Eval ev;
    memset(&ev, 0, sizeof ev);
    ev.p = tmpl;
    ev.args = args;
    ev.nargs = nargs;
    ev.rd = rd;
    ev.common = DT_I32;
    if (nargs >= 2) {
        Type a = type_scalar((DType)args[0].dtype);
        Type b = type_scalar((DType)args[1].dtype);
        ev.common = common_dtype(a, b);
    }
    CScalar r = eval_cond(&ev, true);
    skip_space(&ev);
    if (*ev.p)
        ev.bad = true;
    r = convert(&ev, r, rd, true); /* the assignment to the result */
    if (ev.bad || ev.undefined)
        return -1;
    *out = r;
    return 0;
}

/* The C literal of a constant value v of type t: exact (floats other than
 * f32 as their bits), and what the CUDA C and the cpu backend's C both
 * read (ints of 32 bits and less as int, i64 with LL). */
const char *ctext_literal(Arena *a, Type t, const Value *v) {
    if (t.is_ptr)
        return "0";
    DType d = (DType)t.dtype;
    switch (d) {
    case DT_I1:
        return v->c.i ? "true" : "false";
    case DT_I32:
        if (v->c.i == INT32_MIN)
            return "(-2147483647 - 1)";
        return v->c.i < 0 ? arena_printf(a, "(%lld)", (long long)v->c.i)
                          : arena_printf(a, "%lld", (long long)v->c.i);
    case DT_I64:
        if (v->c.i == INT64_MIN)
            return "(-9223372036854775807LL - 1LL)";
        return v->c.i < 0 ? arena_printf(a, "(%lldLL)", (long long)v->c.i)
                          : arena_printf(a, "%lldLL", (long long)v->c.i);
    case DT_F32: {
        char buf[32];
        format_f32(buf, (float)v->c.f);
        if (strcmp(buf, "nan") == 0)
            return "__int_as_float(0x7fc00000)";
        if (strcmp(buf, "inf") == 0)
            return "__int_as_float(0x7f800000)";
        if (strcmp(buf, "-inf") == 0)
            return "(-__int_as_float(0x7f800000))";
        return buf[0] == '-' ? arena_printf(a, "(%sf)", buf) : arena_printf(a, "%sf", buf);
    }
    case DT_U32:
        return arena_printf(a, "%lluu", (unsigned long long)v->c.i);
    case DT_U64:
        return arena_printf(a, "%lluull", (unsigned long long)v->c.i);
    default:
        break;
    }
    if (dtype_is_float(d)) /* the bits: exact, and no float text to parse */
        return d == DT_F64
                   ? arena_printf(a, "__longlong_as_double(%lldLL)",
                            (long long)dtype_float_bits(d, v->c.f))
                   : arena_printf(a, "((%s)0x%llx)", dtype_ctype(d),
                            (unsigned long long)dtype_float_bits(d, v->c.f));
    /* i8 i16 u8 u16: an int literal converted */
    return arena_printf(a, "((%s)%lld)", dtype_ctype(d), (long long)v->c.i);
}

int ctext_for_head(Arena *a, bool wide, bool unit_step, const char *lo, const char *hi,
                   const char *st, const char *iv, const char *trip, const char *k,
                   const char *lines[3]) {
    const char *it = dtype_ctype(wide ? DT_I64 : DT_I32);
    const char *ut = dtype_ctype(wide ? DT_U64 : DT_U32);
    if (unit_step) {
        lines[0] = arena_printf(a, "for (%s %s = %s; %s < %s; ++%s) {", it, iv, lo, iv, hi, iv);
        return 1;
    }
    lines[0] = arena_printf(a, "%s %s = %s < %s && %s > 0 ? ((%s)%s - (%s)%s - 1u) / (%s)%s + "
                               "1u : 0u;", ut, trip, lo, hi, st, ut, hi, ut, lo, ut, st);
    lines[1] = arena_printf(a, "for (%s %s = 0; %s < %s; ++%s) {", ut, k, k, trip, k);
    lines[2] = arena_printf(a, "%s %s = (%s)((%s)%s + %s * (%s)%s);", it, iv, it, ut, lo, k, ut,
                            st);
    return 3;
}
