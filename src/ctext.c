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
 *     this table existed), isnan/isinf, and __int_as_float;
 *   - ?:, && and || evaluate only the branch C would.
 * A value C leaves undefined -- integer division or remainder by zero,
 * INT_MIN / -1, a shift count outside [0, width), a float converted to an
 * integer type that cannot hold it -- makes ctext_eval fail, and so does a
 * float division or remainder by zero (defined in IEEE, but kept in the
 * IR so the division stays visible), so the folder keeps the op.  So does
 * any text outside the subset: a template that cannot be evaluated is
 * never folded, and test_optable.c checks that every row's template
 * evaluates. */
#include "mt.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- selection */

const char *op_ctext(int code, Type rt) {
    if (code < 0 || code >= OP_COUNT)
        return NULL;
    const OpInfo *oi = &op_info[code];
    if (!rt.is_ptr && rt.dtype == DT_F32 && oi->ftext)
        return oi->ftext;
    if (!rt.is_ptr && rt.dtype == DT_I1 && oi->btext)
        return oi->btext;
    return oi->text;
}

/* The type comparisons compute in: bool for two bools, else promoted. */
static DType common_dtype(Type a, Type b) {
    if (a.dtype == DT_I1 && b.dtype == DT_I1 && !a.is_ptr && !b.is_ptr)
        return DT_I1;
    return promote_dtype((DType)a.dtype, (DType)b.dtype);
}

/* ----------------------------------------------------------------- text */

const char *ctext_convert(Arena *a, const char *x, Type from, Type to) {
    if (from.dtype == to.dtype && from.is_ptr == to.is_ptr)
        return x;
    if (to.dtype == DT_I1 && !to.is_ptr)
        return arena_printf(a, "(%s != 0)", x);
    return arena_printf(a, "((%s%s)%s)", dtype_ctype((DType)to.dtype),
                        to.is_ptr ? "*" : "", x);
}

const char *ctext_expand(Arena *a, const char *tmpl, const char *const *args,
                         const Type *at, int nargs, Type rt) {
    StrBuf sb;
    sb_init(&sb);
    for (const char *p = tmpl; *p; p++) {
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
        if (how == 'r' || how == 'c')
            p++;
        else
            how = 0;
        int i = p[1] - '0';
        p++;
        if (i < 0 || i >= nargs || !args[i]) {
            sb_puts(&sb, "?");
            continue;
        }
        const char *x = args[i];
        if (how == 'r')
            x = ctext_convert(a, x, at[i], rt);
        else if (how == 'c' && nargs >= 2)
            x = ctext_convert(a, x, at[i],
                              type_scalar(common_dtype(at[0], at[1])));
        sb_puts(&sb, x);
    }
    const char *s = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return s;
}

const char *ctext_limit(DType d, bool highest) {
    switch (d) {
    case DT_F32:
        return highest ? "__int_as_float(0x7f800000)"
                       : "(-__int_as_float(0x7f800000))";
    case DT_I64:
        return highest ? "9223372036854775807LL"
                       : "(-9223372036854775807LL - 1LL)";
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
    CScalar r = {(uint8_t)d, 0, 0.0f};
    if (d == DT_I1)
        r.i = v != 0;
    else if (d == DT_I32)
        r.i = (int32_t)(uint32_t)(uint64_t)v;
    else
        r.i = v;
    return r;
}

static CScalar mk_float(float f) {
    CScalar r = {DT_F32, 0, f};
    return r;
}

static bool truth(CScalar v) { return v.dtype == DT_F32 ? v.f != 0 : v.i != 0; }

/* C's conversion of v to d; float to an integer type must fit. */
static CScalar convert(Eval *ev, CScalar v, DType d, bool live) {
    if (v.dtype == d)
        return v;
    if (d == DT_F32)
        return mk_float(v.dtype == DT_F32 ? v.f : (float)v.i);
    if (d == DT_I1)
        return mk_int(DT_I1, truth(v));
    if (v.dtype != DT_F32)
        return mk_int(d, v.i);
    double x = v.f;
    bool ok = d == DT_I32 ? x > -2147483649.0 && x < 2147483648.0
                          : x >= -9223372036854775808.0 &&
                                x < 9223372036854775808.0;
    if (!ok) {
        ev->undefined |= live;
        return mk_int(d, 0);
    }
    return mk_int(d, (int64_t)x);
}

/* Integer promotion: bool becomes int. */
static DType promoted(DType d) { return d == DT_I1 ? DT_I32 : d; }

static DType arith_type(CScalar a, CScalar b) {
    if (a.dtype == DT_F32 || b.dtype == DT_F32)
        return DT_F32;
    return promoted(a.dtype) == DT_I64 || promoted(b.dtype) == DT_I64 ? DT_I64
                                                                      : DT_I32;
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
 * a predicate on a float (bool result), or __int_as_float (a bit cast). */
typedef enum FnForm { FN_F1, FN_F2, FN_PRED, FN_BITS } FnForm;

typedef struct CFunc {
    const char *name;
    uint8_t form;       /* FnForm */
    bool divides;       /* a zero second argument is kept, as x / 0 is */
    float (*f1)(float);
    float (*f2)(float, float);
} CFunc;

static float is_nan(float x) { return isnan(x) ? 1.0f : 0.0f; }
static float is_inf(float x) { return isinf(x) ? 1.0f : 0.0f; }

#define F1(name) {#name, FN_F1, false, name, 0}
#define F2(name) {#name, FN_F2, false, 0, name}
/* Float functions of C99 <math.h> that CUDA provides by the same name. */
static const CFunc funcs[] = {
    F1(expf),  F1(exp2f),  F1(expm1f), F1(logf),   F1(log2f),  F1(log10f),
    F1(log1pf), F1(sqrtf), F1(cbrtf),  F1(fabsf),  F1(floorf), F1(ceilf),
    F1(truncf), F1(roundf), F1(rintf), F1(sinf),   F1(cosf),   F1(tanf),
    F1(asinf), F1(acosf),  F1(atanf),  F1(sinhf),  F1(coshf),  F1(tanhf),
    F1(erff),  F1(erfcf),  F2(powf),   F2(atan2f), F2(fmaxf),  F2(fminf),
    F2(hypotf), F2(copysignf),
    {"fmodf", FN_F2, true, 0, fmodf},
    {"isnan", FN_PRED, false, is_nan, 0},
    {"isinf", FN_PRED, false, is_inf, 0},
    {"__int_as_float", FN_BITS, false, 0, 0},
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

bool ctext_is_function(const char *name) {
    return find_func(name, strlen(name)) != NULL;
}

static CScalar eval_call(Eval *ev, const char *name, size_t len, bool live) {
    const CFunc *fn = find_func(name, len);
    CScalar a[2] = {mk_int(DT_I32, 0), mk_int(DT_I32, 0)};
    int n = 0;
    ev->p++; /* ( */
    skip_space(ev);
    while (*ev->p != ')' && n < 2 && !ev->bad) {
        a[n++] = eval_cond(ev, live);
        skip_space(ev);
        if (*ev->p == ',')
            ev->p++;
    }
    if (!fn || *ev->p != ')' || n != (fn->form == FN_F2 ? 2 : 1)) {
        ev->bad = true;
        return mk_int(DT_I32, 0);
    }
    ev->p++;
    if (fn->form == FN_BITS) {
        uint32_t bits = (uint32_t)convert(ev, a[0], DT_I32, live).i;
        float f;
        memcpy(&f, &bits, sizeof f);
        return mk_float(f);
    }
    /* arguments convert to the float parameters, as in C */
    float x = convert(ev, a[0], DT_F32, live).f;
    if (fn->form == FN_PRED)
        return mk_int(DT_I1, fn->f1(x) != 0);
    if (fn->form == FN_F1)
        return mk_float(fn->f1(x));
    float y = convert(ev, a[1], DT_F32, live).f;
    if (fn->divides && y == 0)
        ev->undefined |= live;
    return mk_float(fn->f2(x, y));
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
        return mk_float(f);
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
        if (v.dtype == DT_F32) {
            if (ch == '~')
                ev->bad = true;
            return ch == '-' ? mk_float(-v.f) : v;
        }
        DType d = promoted(v.dtype);
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
    int bits = d == DT_I32 ? 32 : 64;
    int64_t min = d == DT_I32 ? INT32_MIN : INT64_MIN;
    switch (op[0]) {
    case '+': return mk_int(d, (int64_t)(ux + uy));
    case '-': return mk_int(d, (int64_t)(ux - uy));
    case '*': return mk_int(d, (int64_t)(ux * uy));
    case '/':
    case '%':
        if (y == 0 || (x == min && y == -1)) {
            ev->undefined |= live;
            return mk_int(d, 0);
        }
        return mk_int(d, op[0] == '/' ? x / y : x % y);
    case '&': return mk_int(d, (int64_t)(ux & uy));
    case '|': return mk_int(d, (int64_t)(ux | uy));
    case '^': return mk_int(d, (int64_t)(ux ^ uy));
    default: /* << >> */
        if (y < 0 || y >= bits) {
            ev->undefined |= live;
            return mk_int(d, 0);
        }
        if (op[0] == '<')
            return mk_int(d, (int64_t)(ux << y));
        return mk_int(d, (int64_t)(x < 0 ? ~(~ux >> y) : ux >> y));
    }
}

static CScalar compare(const char *op, CScalar a, CScalar b) {
    DType d = arith_type(a, b);
    int c;
    if (d == DT_F32) {
        float x = a.dtype == DT_F32 ? a.f : (float)a.i;
        float y = b.dtype == DT_F32 ? b.f : (float)b.i;
        if (isnan(x) || isnan(y))
            return mk_int(DT_I1, strcmp(op, "!=") == 0);
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
    DType d = shift ? promoted(a.dtype) : arith_type(a, b);
    if (d == DT_F32) {
        float x = convert(ev, a, DT_F32, live).f;
        float y = convert(ev, b, DT_F32, live).f;
        switch (op[0]) {
        case '+': return mk_float(x + y);
        case '-': return mk_float(x - y);
        case '*': return mk_float(x * y);
        case '/':
            if (y == 0)
                ev->undefined |= live; /* kept in the IR, see above */
            return mk_float(y == 0 ? 0.0f : x / y);
        default: ev->bad = true; return mk_float(0); /* no float % & | ^ */
        }
    }
    if (shift && b.dtype == DT_F32) {
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
