/* ctval.c: the values of the elaborator and their operators.
 *
 * Input: CVs, what an expression of the kernel language evaluates to: a
 * Python value (None, int, float, bool, str, tuple/list, dtype, module,
 * builtin, bound method, jit function, slice, ellipsis) or a TENSOR, an SSA
 * value.  Output: new CVs, from Python's operators, comparison, equality,
 * truth and indexing on compile-time values; and SSA values, from ops on
 * tensors (every op the elaborator emits goes through elab_emit here) and
 * from numbers materialised where they meet a tensor.
 *
 * Python semantics are kept exactly where a kernel can observe them: int
 * arithmetic is floor division and modulo with the divisor's sign, bool op
 * bool stays bool for & | ^, and a list equals a tuple with the same items
 * (Triton makes every list in a kernel a tuple).  Where Python would grow a
 * big integer, int64 overflow is an error instead of a wrong value.  A
 * number next to a tensor is a "weak" constant that takes the tensor's
 * dtype, as in Triton, so x + 1 keeps x's type.
 *
 * Invariants: every function either succeeds or records the first error
 * in the Ctx and returns -1; strings and tuples are bounded by MAX_SEQUENCE
 * elements, so no input allocates without limit. */
#include "mt.h"

#include <stdio.h>

#include <math.h>
#include <string.h>

#define MAX_SEQUENCE 1000000 /* elements of a compile-time string or tuple */

/* ------------------------------------------------------------ constructors */

/* Fields a kind does not use stay zero. */
CV cv_none(void) { return (CV){.kind = CV_NONE}; }
CV cv_int(int64_t i) { return (CV){.kind = CV_INT, .i = i}; }
CV cv_float(double f) { return (CV){.kind = CV_FLOAT, .f = f}; }
CV cv_bool(bool b) { return (CV){.kind = CV_BOOL, .i = b}; }
CV cv_tensor(ValId id) { return (CV){.kind = CV_TENSOR, .v = id}; }
CV cv_builtin(int b) { return (CV){.kind = CV_BUILTIN, .sub = (int16_t)b}; }
CV cv_dtype(int d) { return (CV){.kind = CV_DTYPE, .sub = (int16_t)d}; }

CV cv_module(ModKind k, const char *path) {
    return (CV){.kind = CV_MODULE, .sub = (int16_t)k, .s = path};
}

CV cv_str(const char *s, int n) {
    return (CV){.kind = CV_STR, .s = s ? s : "", .n = s ? n : 0};
}

CV cv_tuple(Elab *E, int n) {
    CV *items = n ? arena_alloc(E->c->arena, sizeof(CV) * (size_t)n) : NULL;
    return (CV){.kind = CV_TUPLE, .n = n, .items = items};
}

/* A literal from the signature or the caller's globals, as a CV. */
int cv_from_const(Elab *E, const ConstVal *k, Loc loc, CV *out) {
    switch (k->kind) {
    case CK_DTYPE: return builtin_dtype(E, k->s, loc, out);
    case CK_INT: *out = cv_int(k->i); return 0;
    case CK_FLOAT: *out = cv_float(k->f); return 0;
    case CK_BOOL: *out = cv_bool(k->i != 0); return 0;
    case CK_STR: *out = cv_str(k->s, k->s ? (int)strlen(k->s) : 0); return 0;
    case CK_NONE: *out = cv_none(); return 0;
    case CK_TUPLE: {
        CV t = cv_tuple(E, k->n);
        if (k->n && !t.items)
            return elab_err(E, loc, MT_ERR_NOMEM, "out of memory");
        for (int i = 0; i < k->n; i++)
            if (cv_from_const(E, &k->items[i], loc, &t.items[i]) < 0)
                return -1;
        *out = t;
        return 0;
    }
    }
    return -1;
}

/* A block's shape as Triton's messages print it: "[64, 32]". */
const char *elab_shape_text(Elab *E, Type t) {
    char buf[64];
    int n = snprintf(buf, sizeof buf, "[");
    for (int i = 0; i < t.rank && n < (int)sizeof buf; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "%s%d", i ? ", " : "", (int)t.shape[i]);
    if (n < (int)sizeof buf)
        snprintf(buf + n, sizeof buf - (size_t)n, "]");
    return arena_strdup(E->c->arena, buf);
}

const char *elab_type_text(Elab *E, Type t) {
    StrBuf sb;
    sb_init(&sb);
    type_print(&sb, t);
    char *s = arena_strdup(E->c->arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

const char *cv_kind_name(Elab *E, CV v) {
    switch (v.kind) {
    case CV_NONE: return "NoneType";
    case CV_INT: return "int";
    case CV_FLOAT: return "float";
    case CV_BOOL: return "bool";
    case CV_STR: return "str";
    case CV_TUPLE: return v.is_list ? "list" : "tuple";
    case CV_DTYPE: return "dtype";
    case CV_MODULE: return "module";
    case CV_BUILTIN: return "builtin function";
    case CV_BOUND: return "method";
    case CV_JITFN: return "function";
    case CV_SLICE: return "slice";
    case CV_ELLIPSIS: return "ellipsis";
    case CV_TENSOR: return elab_type_text(E, cv_type(E, v));
    case CV_BLOCKPTR: return "block pointer";
    case CV_TENSORDESC: return "tensor descriptor";
    default: return "value";
    }
}

/* ---------------------------------------------------------------- emission */

/* Every op the elaborator makes is typed here by the verifier's own rules,
 * so ir_verify accepts what elaboration builds; a module constant must stay
 * compile-time, so it may make no op. */

int elab_emit_typed(Elab *E, OpCode code, Loc loc, const ValId *args, int n,
                    int64_t a0, int64_t a1, Type want, ValId *out) {
    if (E->const_eval)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    int64_t attr[2] = {a0, a1};
    Type t = want;
    if (ir_infer_type(E->f, code, loc, args, n, attr, &t) < 0)
        return -1;
    if (code == OP_STORE)
        t = type_scalar(DT_VOID);
    Op *op = op_new(E->f, E->region, code, loc, t, args, n);
    op->attr[0] = a0;
    op->attr[1] = a1;
    if (out)
        *out = op->nres ? op->res[0] : 0;
    return 0;
}

int elab_emit(Elab *E, OpCode code, Loc loc, const ValId *args, int n, int64_t a0,
              int64_t a1, ValId *out) {
    return elab_emit_typed(E, code, loc, args, n, a0, a1, type_scalar(DT_VOID), out);
}

int elab_cast(Elab *E, ValId x, DType d, Loc loc, ValId *out) {
    Type t = val_type(E->f, x);
    if (!t.is_ptr && t.dtype == d) {
        *out = x;
        return 0;
    }
    if (t.is_ptr)
        return elab_err(E, loc, MT_ERR_TYPE, "cannot cast %s to %s", elab_type_text(E, t),
                        dtype_name(d));
    /* a scalar integer constant to a float: the converted constant */
    if (val_is_const(E->f, x) && t.rank == 0 && dtype_is_int((DType)t.dtype) &&
        dtype_is_float(d) && !dtype_is_narrow_float(d)) {
        double v = dtype_is_unsigned((DType)t.dtype) ? (double)(uint64_t)val(E->f, x)->c.i
                                                    : (double)val(E->f, x)->c.i;
        *out = const_float(E->f, d, v);
        return 0;
    }
    return elab_emit_typed(E, OP_CAST, loc, &x, 1, 0, 0,
                           type_with_elem(t, type_scalar(d)), out);
}

int elab_expand_dims(Elab *E, ValId x, int axis, Loc loc, ValId *out) {
    return elab_emit(E, OP_EXPAND_DIMS, loc, &x, 1, axis, 0, out);
}

/* ---------------------------------------------------------- materialisation */

/* A Python int as SSA: i32 when it fits, else i64. */
static ValId cv_pyint(Elab *E, int64_t v) {
    return const_int(E->f, fits_i32(v) ? DT_I32 : DT_I64, v);
}

/* Triton's type of a Python number next to a tensor (to_tensor_type). */
static DType pynum_dtype(CV v) {
    if (v.kind == CV_BOOL)
        return DT_I1;
    if (v.kind == CV_INT) {
        if (fits_i32(v.i))
            return DT_I32;
        return v.i >= 0 && v.i < ((int64_t)1 << 32) ? DT_U32 : DT_I64;
    }
    double a = fabs(v.f);
    bool f32 = isinf(a) || a == 0 || v.f != v.f ||
               (a >= 0x1p-126 && a <= 0x1.fffffep127);
    return f32 ? DT_F32 : DT_F64;
}

/* bool < integer < float, as Triton's dtype.kind() orders them */
static int dtype_kind_rank(DType d) {
    return d == DT_I1 ? 0 : dtype_is_float(d) ? 2 : 1;
}

/* Triton's computation_type_impl: a Python number of a lower or equal
 * kind than the tensor beside it takes the tensor's type. */
static DType computation_type(DType a, bool a_num, DType b, bool b_num, bool div_or_mod) {
    if (a_num != b_num) {
        DType num = a_num ? a : b, ten = a_num ? b : a;
        if (dtype_kind_rank(num) <= dtype_kind_rank(ten))
            return div_or_mod && (ten == DT_F16 || ten == DT_BF16) ? DT_F32 : ten;
    }
    return promote_dtype2(a, b, div_or_mod);
}

/* A Python number as a constant of dtype d (its range already checked). */
static ValId number_const(Elab *E, CV v, DType d) {
    if (dtype_is_float(d))
        return const_float(E->f, d, cv_num_f(v));
    if (d == DT_I1)
        return const_bool(E->f, cv_num_f(v) != 0);
    return const_int(E->f, d, v.i);
}

/* A compile-time number made a tensor on its own, as Triton's to_tensor
 * does (a store's value, an operand with no tensor beside it): an integer
 * is i32, u32 or i64 by its range, a float f32 unless only f64 holds it. */
int cv_materialise(Elab *E, CV v, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        *out = v.v;
        return 0;
    }
    if (!cv_is_num(v))
        return elab_err(E, loc, MT_ERR_TYPE, "expected a number or a tensor, got %s",
                        cv_kind_name(E, v));
    *out = number_const(E, v, pynum_dtype(v));
    return 0;
}

/* Triton binds a Python number to a name as a tensor (code_generator's
 * visit_Assign and visit_Return apply to_tensor): after `a = 2147483647`,
 * `a + 1` wraps in i32, `x_f16 * s` with `s = 0.5` is f32, and a shape or
 * a static_range needs a `: tl.constexpr` name.  Tuples and lists lift
 * item by item; None, dtypes, tensors and the other compile-time objects
 * (which Triton refuses to bind or passes through) stay as they are. */
int cv_lift(Elab *E, CV v, Loc loc, CV *out) {
    if (cv_is_num(v)) {
        ValId t;
        if (cv_materialise(E, v, loc, &t) < 0)
            return -1;
        *out = cv_tensor(t);
        return 0;
    }
    *out = v;
    if (v.kind != CV_TUPLE || !v.n)
        return 0;
    CV t = cv_tuple(E, v.n);
    if (!t.items)
        return elab_err(E, loc, MT_ERR_NOMEM, "out of memory");
    t.is_list = v.is_list;
    for (int i = 0; i < v.n; i++)
        if (cv_lift(E, v.items[i], loc, &t.items[i]) < 0)
            return -1;
    *out = t;
    return 0;
}

/* A compile-time number as a weak constant next to a tensor of dtype `like`
 * (Triton: a Python number of a lower or equal kind adopts the tensor's
 * dtype; a float next to an integer tensor is f32). */
int cv_materialise_like(Elab *E, CV v, Type like, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        *out = v.v;
        return 0;
    }
    if (!cv_is_num(v) || like.is_ptr)
        return cv_materialise(E, v, loc, out);
    DType d = computation_type(pynum_dtype(v), true, (DType)like.dtype, false, false);
    if (d == DT_VOID || (dtype_is_int(d) && v.kind == CV_INT && dtype_wrap_int(d, v.i) != v.i))
        return cv_materialise(E, v, loc, out);
    *out = number_const(E, v, d);
    return 0;
}

/* A compile-time value converted to dtype d (cast, full, yields). */
int cv_convert(Elab *E, CV v, DType d, Loc loc, ValId *out) {
    if (!cv_is_num(v))
        return cv_materialise(E, v, loc, out);
    if (d == DT_I1) {
        *out = const_bool(E->f, cv_num_f(v) != 0);
        return 0;
    }
    if (dtype_is_float(d)) {
        *out = const_float(E->f, d, cv_num_f(v));
        return 0;
    }
    if (!dtype_is_int(d))
        return elab_err(E, loc, MT_ERR_TYPE, "invalid dtype");
    int64_t i = v.i;
    if (v.kind == CV_FLOAT) {
        if (!isfinite(v.f) || v.f >= 9.2233720368547758e18 || v.f < -9.2233720368547758e18)
            return elab_err(E, loc, MT_ERR_TYPE, "cannot convert %g to %s", v.f,
                            dtype_name(d));
        i = (int64_t)v.f;
    }
    if (dtype_wrap_int(d, i) != i)
        return elab_err(E, loc, MT_ERR_TYPE, "value %lld does not fit in %s", (long long)i,
                        dtype_name(d));
    *out = const_int(E->f, d, i);
    return 0;
}

/* ------------------------------------------------------------------ truth */

int cv_need_int(Elab *E, CV v, Loc loc, const char *what, int64_t *out) {
    if (v.kind != CV_INT)
        return elab_err(E, loc, MT_ERR_TYPE, "%s must be a compile-time integer, got %s",
                        what, cv_kind_name(E, v));
    *out = v.i;
    return 0;
}

int cv_truth(Elab *E, CV v, Loc loc, const char *what, bool *out) {
    switch (v.kind) {
    case CV_NONE: *out = false; return 0;
    case CV_INT: case CV_BOOL: *out = v.i != 0; return 0;
    case CV_FLOAT: *out = v.f != 0; return 0;
    case CV_STR: case CV_TUPLE: *out = v.n != 0; return 0;
    case CV_TENSOR:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "%s", what);
    default: *out = true; return 0;
    }
}

/* ------------------------------------------------- compile-time arithmetic */

int ct_overflow(Elab *E, Loc loc) {
    return elab_err(E, loc, MT_ERR_TYPE,
                    "integer overflow in compile-time arithmetic (values are int64)");
}

static int64_t floordiv64(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

/* Python ==: numbers by value across int/float/bool, others by kind. */
static bool ct_equal(CV a, CV b) {
    if (cv_is_num(a) && cv_is_num(b)) {
        if (cv_is_intlike(a) && cv_is_intlike(b))
            return a.i == b.i;
        return cv_num_f(a) == cv_num_f(b);
    }
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case CV_NONE: case CV_ELLIPSIS: return true;
    case CV_STR: return a.n == b.n && !memcmp(a.s, b.s, (size_t)a.n);
    case CV_TUPLE:
        /* Inside a kernel Triton makes every list a tl.tuple, so a list and
         * a tuple (x.shape == [BLOCK]) are equal when their items are. */
        if (a.n != b.n)
            return false;
        for (int i = 0; i < a.n; i++)
            if (!ct_equal(a.items[i], b.items[i]))
                return false;
        return true;
    case CV_DTYPE: return a.sub == b.sub && a.i == b.i; /* i: a pointer type */
    case CV_BUILTIN: return a.sub == b.sub;
    case CV_MODULE: return a.sub == b.sub && (a.sub != MOD_OTHER || !strcmp(a.s, b.s));
    case CV_JITFN: return a.fn == b.fn;
    case CV_TENSOR: return a.v == b.v;
    default: return false;
    }
}

/* Python `is`: tuples by identity (the same items array), the immutable
 * rest by value, which is what CPython's caching makes `is` observe. */
static bool ct_is(CV a, CV b) {
    if (a.kind != b.kind)
        return false;
    if (a.kind == CV_TUPLE)
        return a.items == b.items && a.n == b.n;
    if (a.kind == CV_FLOAT)
        return a.f == b.f;
    return ct_equal(a, b);
}

/* int op int with Python's results: / is true division, // and % floor
 * toward -inf, & | ^ of two bools stay bool; what would grow a big int is
 * an overflow error. */
static int int_binop(Elab *E, OpTok op, int64_t x, int64_t y, bool both_bool, Loc loc,
                     CV *out) {
    int64_t r = 0;
    switch (op) {
    case OT_PLUS:
        if (__builtin_add_overflow(x, y, &r)) return ct_overflow(E, loc);
        break;
    case OT_MINUS:
        if (__builtin_sub_overflow(x, y, &r)) return ct_overflow(E, loc);
        break;
    case OT_STAR:
        if (__builtin_mul_overflow(x, y, &r)) return ct_overflow(E, loc);
        break;
    case OT_SLASH:
        if (y == 0)
            return elab_err(E, loc, MT_ERR_TYPE, "division by zero");
        *out = cv_float((double)x / (double)y);
        return 0;
    case OT_DSLASH:
    case OT_PERCENT:
        if (y == 0)
            return elab_err(E, loc, MT_ERR_TYPE, "integer division or modulo by zero");
        if (x == INT64_MIN && y == -1) {
            if (op == OT_DSLASH)
                return ct_overflow(E, loc);
            r = 0;
            break;
        }
        r = floordiv64(x, y);
        if (op == OT_PERCENT)
            r = x - r * y;
        break;
    case OT_DSTAR:
        if (y < 0) {
            if (x == 0)
                return elab_err(E, loc, MT_ERR_TYPE, "0 cannot be raised to a negative power");
            *out = cv_float(pow((double)x, (double)y));
            return 0;
        }
        if (x == 0 || x == 1) {
            r = (y == 0) ? 1 : x;
        } else if (x == -1) {
            r = (y % 2) ? -1 : 1;
        } else {
            if (y > 64)
                return ct_overflow(E, loc);
            r = 1;
            for (int64_t k = 0; k < y; k++)
                if (__builtin_mul_overflow(r, x, &r))
                    return ct_overflow(E, loc);
        }
        break;
    case OT_AMP: r = x & y; if (both_bool) { *out = cv_bool(r); return 0; } break;
    case OT_PIPE: r = x | y; if (both_bool) { *out = cv_bool(r); return 0; } break;
    case OT_CARET: r = x ^ y; if (both_bool) { *out = cv_bool(r); return 0; } break;
    case OT_SHL:
        if (y < 0)
            return elab_err(E, loc, MT_ERR_TYPE, "negative shift count");
        if (x != 0 && (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))))
            return ct_overflow(E, loc);
        r = (int64_t)((uint64_t)x << (y > 63 ? 0 : y));
        if (x == 0) r = 0;
        break;
    case OT_SHR:
        if (y < 0)
            return elab_err(E, loc, MT_ERR_TYPE, "negative shift count");
        r = y >= 63 ? (x < 0 ? -1 : 0) : (x >> y);
        break;
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "unsupported operator '%s'",
                        optok_str(op));
    }
    *out = cv_int(r);
    return 0;
}

/* float op number, Python's way: // and % follow the divisor's sign. */
static int float_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    double x = cv_num_f(a), y = cv_num_f(b);
    switch (op) {
    case OT_PLUS: *out = cv_float(x + y); return 0;
    case OT_MINUS: *out = cv_float(x - y); return 0;
    case OT_STAR: *out = cv_float(x * y); return 0;
    case OT_SLASH:
        if (y == 0)
            return elab_err(E, loc, MT_ERR_TYPE, "float division by zero");
        *out = cv_float(x / y);
        return 0;
    case OT_DSLASH:
    case OT_PERCENT: {
        if (y == 0)
            return elab_err(E, loc, MT_ERR_TYPE, "float modulo by zero");
        double m = fmod(x, y);
        if (m != 0 && ((m < 0) != (y < 0)))
            m += y;
        if (op == OT_PERCENT) {
            *out = cv_float(m);
            return 0;
        }
        *out = cv_float(floor((x - m) / y + 0.5) == (x - m) / y ? (x - m) / y
                                                                 : floor(x / y));
        return 0;
    }
    case OT_DSTAR: *out = cv_float(pow(x, y)); return 0;
    default:
        return elab_err(E, loc, MT_ERR_TYPE,
                        "unsupported operand types for %s: '%s' and '%s'", optok_str(op),
                        cv_kind_name(E, a), cv_kind_name(E, b));
    }
}

/* seq * n and n * seq: the sequence repeated (empty for n <= 0). */
static int repeat_seq(Elab *E, CV seq, int64_t n, Loc loc, CV *out) {
    if (n < 0)
        n = 0;
    if (n && (int64_t)seq.n * n > MAX_SEQUENCE)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                        "compile-time sequence of %lld elements is longer than %d",
                        (long long)seq.n * n, MAX_SEQUENCE);
    CV t = cv_tuple(E, (int)(seq.n * n));
    t.is_list = seq.is_list;
    for (int64_t i = 0; i < t.n; i++)
        t.items[i] = seq.items[i % seq.n];
    *out = t;
    return 0;
}

/* A Python binary operator on two compile-time values: + concatenates
 * strings and same-kind sequences, * repeats a sequence, the rest is
 * arithmetic. */
int ct_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    const char *os = optok_str(op);
    if (op == OT_STAR && a.kind == CV_TUPLE && cv_is_intlike(b))
        return repeat_seq(E, a, b.i, loc, out);
    if (op == OT_STAR && b.kind == CV_TUPLE && cv_is_intlike(a))
        return repeat_seq(E, b, a.i, loc, out);
    /* sequences */
    if (op == OT_PLUS && ((a.kind == CV_STR && b.kind == CV_STR) ||
                          (a.kind == CV_TUPLE && b.kind == CV_TUPLE)) &&
        (int64_t)a.n + b.n > MAX_SEQUENCE)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                        "compile-time %s of %lld elements is longer than %d",
                        a.kind == CV_STR ? "string" : "sequence",
                        (long long)a.n + b.n, MAX_SEQUENCE);
    if (op == OT_PLUS && a.kind == CV_STR && b.kind == CV_STR) {
        char *s = arena_alloc(E->c->arena, (size_t)a.n + (size_t)b.n + 1);
        memcpy(s, a.s, (size_t)a.n);
        memcpy(s + a.n, b.s, (size_t)b.n);
        *out = cv_str(s, a.n + b.n);
        return 0;
    }
    if (op == OT_PLUS && a.kind == CV_TUPLE && b.kind == CV_TUPLE &&
        a.is_list == b.is_list) {
        CV t = cv_tuple(E, a.n + b.n);
        t.is_list = a.is_list;
        for (int i = 0; i < a.n; i++)
            t.items[i] = a.items[i];
        for (int i = 0; i < b.n; i++)
            t.items[a.n + i] = b.items[i];
        *out = t;
        return 0;
    }
    if (!cv_is_num(a) || !cv_is_num(b))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "unsupported operand types for %s: '%s' and '%s'", os,
                        cv_kind_name(E, a), cv_kind_name(E, b));
    if (cv_is_intlike(a) && cv_is_intlike(b))
        return int_binop(E, op, a.i, b.i, a.kind == CV_BOOL && b.kind == CV_BOOL, loc, out);
    return float_binop(E, op, a, b, loc, out);
}

/* Python comparison of compile-time values; NaN compares false. */
int ct_compare(Elab *E, OpTok op, CV a, CV b, Loc loc, bool *out) {
    switch (op) {
    case OT_EQ: *out = ct_equal(a, b); return 0;
    case OT_NE: *out = !ct_equal(a, b); return 0;
    case OT_IS: *out = ct_is(a, b); return 0;
    case OT_IS_NOT: *out = !ct_is(a, b); return 0;
    case OT_IN:
    case OT_NOT_IN: {
        bool found = false;
        if (b.kind == CV_TUPLE) {
            for (int i = 0; i < b.n && !found; i++)
                found = ct_equal(a, b.items[i]);
        } else if (b.kind == CV_STR && a.kind == CV_STR) {
            if (a.n == 0)
                found = true;
            for (int i = 0; i + a.n <= b.n && !found; i++)
                found = !memcmp(b.s + i, a.s, (size_t)a.n);
        } else {
            return elab_err(E, loc, MT_ERR_TYPE, "argument of type '%s' is not iterable",
                            cv_kind_name(E, b));
        }
        *out = op == OT_IN ? found : !found;
        return 0;
    }
    default: break;
    }
    int c;
    if (cv_is_num(a) && cv_is_num(b)) {
        if (cv_is_intlike(a) && cv_is_intlike(b))
            c = a.i < b.i ? -1 : a.i > b.i;
        else {
            double x = cv_num_f(a), y = cv_num_f(b);
            if (isnan(x) || isnan(y)) {
                *out = false;
                return 0;
            }
            c = x < y ? -1 : x > y;
        }
    } else if (a.kind == CV_STR && b.kind == CV_STR) {
        int m = a.n < b.n ? a.n : b.n;
        c = memcmp(a.s, b.s, (size_t)m);
        if (c == 0)
            c = a.n < b.n ? -1 : a.n > b.n;
    } else {
        return elab_err(E, loc, MT_ERR_TYPE, "'%s' not supported between '%s' and '%s'",
                        optok_str(op), cv_kind_name(E, a), cv_kind_name(E, b));
    }
    switch (op) {
    case OT_LT: *out = c < 0; break;
    case OT_LE: *out = c <= 0; break;
    case OT_GT: *out = c > 0; break;
    case OT_GE: *out = c >= 0; break;
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "unsupported comparison '%s'",
                        optok_str(op));
    }
    return 0;
}

/* Python indexing and slicing (step 1) of a compile-time tuple or string. */
int ct_index(Elab *E, CV t, CV idx, Loc loc, CV *out) {
    if (idx.kind == CV_SLICE) {
        int64_t lo = 0, hi = t.n, st = 1;
        if (idx.items[2].kind != CV_NONE &&
            cv_need_int(E, idx.items[2], loc, "slice step", &st) < 0)
            return -1;
        if (st != 1)
            return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                            "slice steps other than 1 are not supported");
        if (idx.items[0].kind != CV_NONE &&
            cv_need_int(E, idx.items[0], loc, "slice start", &lo) < 0)
            return -1;
        if (idx.items[1].kind != CV_NONE &&
            cv_need_int(E, idx.items[1], loc, "slice stop", &hi) < 0)
            return -1;
        if (lo < 0) lo += t.n;
        if (hi < 0) hi += t.n;
        if (lo < 0) lo = 0;
        if (hi > t.n) hi = t.n;
        if (hi < lo) hi = lo;
        if (t.kind == CV_STR) {
            *out = cv_str(arena_strndup(E->c->arena, t.s + lo, (size_t)(hi - lo)),
                          (int)(hi - lo));
            return 0;
        }
        CV r = cv_tuple(E, (int)(hi - lo));
        r.is_list = t.is_list;
        for (int64_t i = lo; i < hi; i++)
            r.items[i - lo] = t.items[i];
        *out = r;
        return 0;
    }
    if (!cv_is_intlike(idx))
        return elab_err(E, loc, MT_ERR_TYPE, "%s indices must be integers, got %s",
                        cv_kind_name(E, t), cv_kind_name(E, idx));
    int64_t i = idx.i;
    if (i < 0)
        i += t.n;
    if (i < 0 || i >= t.n)
        return elab_err(E, loc, MT_ERR_TYPE, "%s index %lld out of range",
                        cv_kind_name(E, t), (long long)idx.i);
    if (t.kind == CV_STR)
        *out = cv_str(arena_strndup(E->c->arena, t.s + i, 1), 1);
    else
        *out = t.items[i];
    return 0;
}

/* ------------------------------------------------------------- operators */

/* Triton's binary_op_type_checking_impl: both operands (tensors or Python
 * numbers) converted to their computation type.  A tensor is cast
 * explicitly only where the verifier's implicit promotion of the pair
 * would give another type (f16 / f16 computes in f32, say). */
static int binary_operands(Elab *E, CV a, CV b, bool div_or_mod, const char *opname,
                           Loc loc, ValId *x, ValId *y) {
    bool an = a.kind != CV_TENSOR, bn = b.kind != CV_TENSOR;
    Type ta = an ? type_scalar(pynum_dtype(a)) : cv_type(E, a);
    Type tb = bn ? type_scalar(pynum_dtype(b)) : cv_type(E, b);
    if (ta.is_ptr || tb.is_ptr || ta.dtype == DT_VOID || tb.dtype == DT_VOID)
        return elab_err(E, loc, MT_ERR_TYPE, "unsupported operand types for %s: %s and %s",
                        opname, elab_type_text(E, ta), elab_type_text(E, tb));
    DType d = computation_type((DType)ta.dtype, an, (DType)tb.dtype, bn, div_or_mod);
    if (d == DT_VOID) {
        if (div_or_mod && dtype_is_int((DType)ta.dtype) && dtype_is_int((DType)tb.dtype))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "Cannot use %s with triton.language.%s and triton.language.%s "
                            "because they have different signedness; cast them to the same "
                            "signedness (Triton's words)",
                            opname, dtype_info[ta.dtype].tl_name, dtype_info[tb.dtype].tl_name);
        return elab_err(E, loc, MT_ERR_TYPE, "unsupported operand types for %s: %s and %s",
                        opname, dtype_info[ta.dtype].tl_name, dtype_info[tb.dtype].tl_name);
    }
    const CV *nums[2] = {an ? &a : NULL, bn ? &b : NULL};
    for (int i = 0; i < 2; i++) {
        const CV *n = nums[i];
        if (!n || !dtype_is_int(d))
            continue;
        if (dtype_is_unsigned(d) && n->kind == CV_INT && n->i < 0)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "cannot combine an unsigned tensor and a negative scalar; "
                            "cast one of them explicitly");
        if (n->kind == CV_INT && dtype_wrap_int(d, n->i) != n->i)
            return elab_err(E, loc, MT_ERR_TYPE, "scalar %lld is out of range for type %s",
                            (long long)n->i, dtype_info[d].tl_name);
    }
    *x = an ? number_const(E, a, d) : a.v;
    *y = bn ? number_const(E, b, d) : b.v;
    Type tx = val_type(E->f, *x), ty = val_type(E->f, *y);
    if (promote_dtype((DType)tx.dtype, (DType)ty.dtype) == d)
        return 0;
    if (elab_cast(E, *x, d, loc, x) < 0 || elab_cast(E, *y, d, loc, y) < 0)
        return -1;
    return 0;
}

/* A Python operator with a tensor operand, as an IR op: pointer + int is
 * addptr, / is true division (int tensors are cast to f32, as in Triton),
 * // on floats and ** have no IR op and are refused. */
/* Triton's tensor.__eq__ and the other comparisons call to_tensor on a
 * number first: it is not weak there, so `h_f16 == 0.1` compares in f32
 * and `u8 == -1` in i32. */
static bool is_comparison(OpTok op) {
    return op == OT_LT || op == OT_LE || op == OT_GT || op == OT_GE || op == OT_EQ ||
           op == OT_NE;
}

/* The operators Triton applies to two bools in int1, wrapping at one bit
 * (1 + 1 is 0); `/` divides them in f32 like integers. */
static bool wraps_in_int1(OpTok op) {
    return op == OT_PLUS || op == OT_MINUS || op == OT_STAR || op == OT_DSLASH ||
           op == OT_PERCENT || op == OT_SHL || op == OT_SHR;
}

static int tensor_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out);

/* x op y on two bools: the IR has no bool arithmetic, so in i32, then its
 * bit 0. */
static int bool_binop(Elab *E, OpTok op, ValId x, ValId y, Loc loc, CV *out) {
    CV wide;
    ValId one = const_int(E->f, DT_I32, 1), r;
    if (elab_cast(E, x, DT_I32, loc, &x) < 0 || elab_cast(E, y, DT_I32, loc, &y) < 0 ||
        tensor_binop(E, op, cv_tensor(x), cv_tensor(y), loc, &wide) < 0 ||
        tensor_binop(E, OT_AMP, wide, cv_tensor(one), loc, &wide) < 0 ||
        elab_cast(E, wide.v, DT_I1, loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* pointer + integer, integer + pointer, pointer - integer: 1 when a and b
 * are no such pair (none is a pointer, or the operator is == or !=). */
static int pointer_binop(Elab *E, OpTok op, CV a, CV b, Type ta, Type tb, Loc loc, CV *out) {
    bool aptr = a.kind == CV_TENSOR && ta.is_ptr;
    bool bptr = b.kind == CV_TENSOR && tb.is_ptr;
    if (!aptr && !bptr)
        return 1;
    if (aptr && bptr)
        return elab_err(E, loc, MT_ERR_TYPE, "cannot apply '%s' to two pointers",
                        optok_str(op));
    if (op == OT_EQ || op == OT_NE)
        return 1;
    if (!(op == OT_PLUS || (op == OT_MINUS && aptr)))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "unsupported operator '%s' on a pointer", optok_str(op));
    CV base = aptr ? a : b, off = aptr ? b : a;
    ValId o;
    if (off.kind != CV_TENSOR) {
        if (off.kind == CV_FLOAT)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "pointer offset must be an integer, got f32");
        int64_t k = off.i;
        if (op == OT_MINUS) {
            if (k == INT64_MIN)
                return ct_overflow(E, loc);
            k = -k;
        }
        o = cv_pyint(E, k);
    } else {
        o = off.v;
        Type to = val_type(E->f, o);
        if (!type_is_int(to))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "pointer offset must be an integer, got %s",
                            elab_type_text(E, to));
        if (op == OT_MINUS && elab_emit(E, OP_NEG, loc, &o, 1, 0, 0, &o) < 0)
            return -1;
    }
    ValId pa[2] = {base.v, o}, r;
    if (elab_emit(E, OP_ADDPTR, loc, pa, 2, 0, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    out->ptr_const = base.ptr_const;
    return 0;
}

static int tensor_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    ValId x, y, r;
    Type ta = a.kind == CV_TENSOR ? cv_type(E, a) : type_scalar(DT_VOID);
    Type tb = b.kind == CV_TENSOR ? cv_type(E, b) : type_scalar(DT_VOID);
    if ((a.kind != CV_TENSOR && !cv_is_num(a)) || (b.kind != CV_TENSOR && !cv_is_num(b)))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "unsupported operand types for %s: '%s' and '%s'",
                        optok_str(op), cv_kind_name(E, a), cv_kind_name(E, b));
    /* pointer arithmetic; == and != on pointers go on below */
    int pr = pointer_binop(E, op, a, b, ta, tb, loc, out);
    if (pr <= 0)
        return pr;
    if (op == OT_DSTAR)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                        "'**' is only supported on compile-time values");
    OpCode code;
    switch (op) {
    case OT_PLUS: code = OP_ADD; break;
    case OT_MINUS: code = OP_SUB; break;
    case OT_STAR: code = OP_MUL; break;
    case OT_SLASH: code = OP_DIV; break;
    case OT_DSLASH: code = OP_DIV; break;
    case OT_PERCENT: code = OP_REM; break;
    case OT_AMP: code = OP_AND; break;
    case OT_PIPE: code = OP_OR; break;
    case OT_CARET: code = OP_XOR; break;
    case OT_SHL: code = OP_SHL; break;
    case OT_SHR: code = OP_SHR; break;
    case OT_LT: code = OP_CMP_LT; break;
    case OT_LE: code = OP_CMP_LE; break;
    case OT_GT: code = OP_CMP_GT; break;
    case OT_GE: code = OP_CMP_GE; break;
    case OT_EQ: code = OP_CMP_EQ; break;
    case OT_NE: code = OP_CMP_NE; break;
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                        "operator '%s' is not supported on tensors", optok_str(op));
    }
    bool div_or_mod = op == OT_SLASH || op == OT_DSLASH || op == OT_PERCENT;
    bool ptr_eq = (a.kind == CV_TENSOR && ta.is_ptr) || (b.kind == CV_TENSOR && tb.is_ptr);
    if (!ptr_eq && is_comparison(op) &&
        (cv_lift(E, a, loc, &a) < 0 || cv_lift(E, b, loc, &b) < 0))
        return -1;
    if (ptr_eq) { /* pointer == pointer: no promotion */
        if (cv_materialise(E, a, loc, &x) < 0 || cv_materialise(E, b, loc, &y) < 0)
            return -1;
    } else if (binary_operands(E, a, b, div_or_mod, optok_str(op), loc, &x, &y) < 0) {
        return -1;
    }
    Type tx = val_type(E->f, x), ty = val_type(E->f, y);
    bool bitwise = op == OT_AMP || op == OT_PIPE || op == OT_CARET || op == OT_SHL ||
                   op == OT_SHR;
    if (bitwise && (tx.is_ptr || ty.is_ptr || type_is_float(tx) || type_is_float(ty)))
        return elab_err(E, loc, MT_ERR_TYPE, /* Triton's IncompatibleTypeErrorImpl */
                        "invalid operands of type %s and %s", elab_type_text(E, tx),
                        elab_type_text(E, ty));
    /* the pair's type: the operands may still differ where the verifier's
     * implicit promotion gives the computation type */
    DType d = ptr_eq ? (DType)tx.dtype : promote_dtype((DType)tx.dtype, (DType)ty.dtype);
    /* a bool beside a number computes in the number's type (Triton's
     * integer_promote_impl ranks int1 lowest): `i + (j == k)` adds 0 or 1 */
    if (!ptr_eq && d != DT_I1 && d != DT_VOID) {
        if (type_is_bool(tx) && elab_cast(E, x, d, loc, &x) < 0)
            return -1;
        if (type_is_bool(ty) && elab_cast(E, y, d, loc, &y) < 0)
            return -1;
        tx = val_type(E->f, x);
        ty = val_type(E->f, y);
    }
    if (!ptr_eq && type_is_bool(tx) && type_is_bool(ty) && wraps_in_int1(op))
        return bool_binop(E, op, x, y, loc, out);
    if (op == OT_SLASH) { /* true division: ints and bools become f32 */
        if ((!type_is_numeric(tx) && !type_is_bool(tx)) ||
            (!type_is_numeric(ty) && !type_is_bool(ty)))
            return elab_err(E, loc, MT_ERR_TYPE, "cannot divide %s by %s",
                            elab_type_text(E, tx), elab_type_text(E, ty));
        DType fd = dtype_is_float(d) ? d : DT_F32;
        if (elab_cast(E, x, fd, loc, &x) < 0 || elab_cast(E, y, fd, loc, &y) < 0)
            return -1;
    } else if (op == OT_DSLASH && (type_is_float(tx) || type_is_float(ty))) {
        return elab_err(E, loc, MT_ERR_TYPE, "'//' on floats is not supported");
    }
    /* Triton picks ashr by the left operand's own signedness (tensor
     * __rshift__), before promotion: int32 >> uint64 shifts the
     * sign-extended value arithmetically, in the unsigned promoted type */
    if (op == OT_SHR && !ptr_eq && dtype_is_int((DType)tx.dtype) &&
        !dtype_is_unsigned((DType)tx.dtype) && dtype_is_unsigned(d)) {
        DType sd = d == DT_U8 ? DT_I8 : d == DT_U16 ? DT_I16 : d == DT_U32 ? DT_I32 : DT_I64;
        if (elab_cast(E, x, d, loc, &x) < 0 || elab_cast(E, y, d, loc, &y) < 0)
            return -1;
        Type st = type_with_elem(val_type(E->f, x), type_scalar(sd));
        Type yt = type_with_elem(val_type(E->f, y), type_scalar(sd));
        if (elab_emit_typed(E, OP_BITCAST, loc, &x, 1, 0, 0, st, &x) < 0 ||
            elab_emit_typed(E, OP_BITCAST, loc, &y, 1, 0, 0, yt, &y) < 0)
            return -1;
        ValId sh[2] = {x, y};
        if (elab_emit(E, OP_SHR, loc, sh, 2, 0, 0, &r) < 0)
            return -1;
        Type ut = type_with_elem(val_type(E->f, r), type_scalar(d));
        if (elab_emit_typed(E, OP_BITCAST, loc, &r, 1, 0, 0, ut, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    ValId xy[2] = {x, y};
    if ((code == OP_ADD || code == OP_SUB || code == OP_MUL) && !ptr_eq &&
        tldebug_overflow_check(E, code, x, y, loc) < 0)
        return -1;
    if (elab_emit(E, code, loc, xy, 2, 0, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

int cv_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    if (a.kind == CV_TENSOR || b.kind == CV_TENSOR)
        return tensor_binop(E, op, a, b, loc, out);
    return ct_binop(E, op, a, b, loc, out);
}

/* `is` never looks into a tensor; `in` needs a compile-time container. */
int cv_compare(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    if (op == OT_IS || op == OT_IS_NOT) {
        bool r = ct_is(a, b);
        *out = cv_bool(op == OT_IS ? r : !r);
        return 0;
    }
    if (a.kind == CV_TENSOR || b.kind == CV_TENSOR) {
        if (op == OT_IN || op == OT_NOT_IN)
            return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                            "'in' is not supported on runtime values");
        return tensor_binop(E, op, a, b, loc, out);
    }
    bool r = false;
    if (ct_compare(E, op, a, b, loc, &r) < 0)
        return -1;
    *out = cv_bool(r);
    return 0;
}

/* Unary +, - and ~ ('not' is truth, in elab.c). */
int cv_unary(Elab *E, OpTok op, CV v, Loc loc, CV *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        ValId r;
        switch (op) {
        case OT_PLUS:
            *out = v;
            return 0;
        case OT_MINUS:
            if (type_is_bool(t)) { /* Triton's 0 - x in int1: x itself */
                *out = v;
                return 0;
            }
            if (elab_emit(E, OP_NEG, loc, &v.v, 1, 0, 0, &r) < 0)
                return -1;
            break;
        case OT_TILDE:
            if (elab_emit(E, OP_NOT, loc, &v.v, 1, 0, 0, &r) < 0)
                return -1;
            break;
        default:
            return elab_err(E, loc, MT_ERR_UNSUPPORTED, "unsupported unary operator '%s'",
                            optok_str(op));
        }
        *out = cv_tensor(r);
        return 0;
    }
    if (!cv_is_num(v))
        return elab_err(E, loc, MT_ERR_TYPE, "bad operand type for unary %s: '%s'",
                        optok_str(op), cv_kind_name(E, v));
    switch (op) {
    case OT_PLUS:
        *out = v.kind == CV_BOOL ? cv_int(v.i) : v;
        return 0;
    case OT_MINUS:
        if (v.kind == CV_FLOAT) {
            *out = cv_float(-v.f);
            return 0;
        }
        if (v.i == INT64_MIN)
            return ct_overflow(E, loc);
        *out = cv_int(-v.i);
        return 0;
    case OT_TILDE:
        if (v.kind == CV_FLOAT)
            return elab_err(E, loc, MT_ERR_TYPE, "bad operand type for unary ~: 'float'");
        *out = cv_int(~v.i);
        return 0;
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "unsupported unary operator '%s'",
                        optok_str(op));
    }
}
