/* elab.c: the elaborator, AST -> typed SSA.
 *
 * Input: a Module (indexed by parse.c), the kernel's name, its signature
 * (one SigEntry per parameter: pointer/scalar types for runtime parameters,
 * literal values for tl.constexpr ones) and caller-given globals.  Output: a
 * Func whose ops are typed with ir_infer_type (verify.c), so that ir_verify
 * accepts whatever this file builds.
 *
 * The kernel body is interpreted statement by statement, like Triton's code
 * generator: every expression evaluates to a compile-time value (CV) that is
 * either a Python value (None, int, float, bool, str, tuple, dtype, module,
 * builtin, jit function, slice) or a TENSOR, an SSA ValId.  Python values
 * stay compile-time until they meet a tensor, where they are materialised
 * as "weak" constants taking the tensor's dtype.  Compile-time `if`s and
 * short static loops are resolved here; runtime loops become `for` ops whose
 * carried values are the names the body assigns that exist before the loop.
 * Ops are emitted in program order (loads stay ordered with stores).
 *
 * Invariants: the first error is recorded in the Ctx and every function
 * returns -1 (or NULL) up the stack; no input crashes or hangs: recursion
 * (expressions, statements, inlining) and unrolling are bounded, every index
 * is range-checked, int64 arithmetic is overflow-checked. */
#include "mt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 1100         /* expression/statement recursion (parse.c allows trees 1000 tall) */
#define MAX_INLINE 32         /* @jit helper inlining depth */
#define MAX_UNROLL 65536      /* total unrolled iterations per kernel */
#define MAX_WORK 1000000      /* statements and helper calls per kernel */
#define MAX_SEQUENCE 1000000  /* elements of a compile-time string or tuple */
#define MAX_AUTO_UNROLL 64    /* range() with constant bounds unrolls up to */
#define MAX_BLOCK_NUMEL (1 << 24)

/* ------------------------------------------------------ compile-time values */

typedef enum CVKind {
    CV_NONE, CV_INT, CV_FLOAT, CV_BOOL, CV_STR, CV_TUPLE, CV_DTYPE, CV_MODULE,
    CV_BUILTIN, CV_BOUND, CV_JITFN, CV_SLICE, CV_ELLIPSIS, CV_TENSOR
} CVKind;

typedef enum ModKind { MOD_TL, MOD_TRITON, MOD_MATH, MOD_OTHER } ModKind;

typedef struct CV CV;
struct CV {
    uint8_t kind;
    uint8_t is_list;  /* CV_TUPLE: a list */
    int16_t sub;      /* dtype, module kind, builtin id */
    int n;            /* tuple length, string length */
    int64_t i;
    double f;
    const char *s;    /* string, module path */
    CV *items;        /* tuple items; slice (3); bound method receiver (1) */
    TopFunc *fn;
    ValId v;
};

/* Builtin functions: tl.*, triton.*, Python builtins, tensor methods. */
enum {
    B_PROGRAM_ID, B_NUM_PROGRAMS, B_ARANGE, B_LOAD, B_STORE, B_EXP, B_LOG,
    B_SQRT, B_TL_ABS, B_MINIMUM, B_MAXIMUM, B_WHERE, B_SUM, B_TL_MAX,
    B_TL_MIN, B_ZEROS, B_FULL, B_EMPTY, B_ZEROS_LIKE, B_FULL_LIKE, B_CDIV,
    B_DOT, B_EXPAND_DIMS, B_BROADCAST_TO, B_CAST, B_TO, B_MULTIPLE_OF,
    B_MAX_CONTIGUOUS, B_MAX_CONSTANCY, B_STATIC_ASSERT, B_STATIC_PRINT,
    B_DEVICE_PRINT, B_CONSTEXPR, B_STATIC_RANGE, B_TL_RANGE, B_JIT,
    /* Python builtins */
    B_RANGE, B_FLOAT, B_INT, B_BOOL, B_STR, B_MIN, B_MAX, B_ABS, B_LEN,
    B_TYPE, B_PRINT, B_NONETYPE,
    B_COUNT
};

/* tl.range has the longest parameter list. */
#define MAX_BUILTIN_PARAMS 9

typedef struct BuiltinInfo {
    const char *display; /* for messages: "tl.load" */
    const char *params[MAX_BUILTIN_PARAMS];
    int nreq;
} BuiltinInfo;

static const BuiltinInfo builtin_info[B_COUNT] = {
    [B_PROGRAM_ID] = {"tl.program_id", {"axis"}, 1},
    [B_NUM_PROGRAMS] = {"tl.num_programs", {"axis"}, 1},
    [B_ARANGE] = {"tl.arange", {"start", "end"}, 2},
    [B_LOAD] = {"tl.load",
                {"pointer", "mask", "other", "boundary_check", "padding_option",
                 "cache_modifier", "eviction_policy", "volatile"},
                1},
    [B_STORE] = {"tl.store",
                 {"pointer", "value", "mask", "boundary_check",
                  "cache_modifier", "eviction_policy"},
                 2},
    [B_EXP] = {"tl.exp", {"x"}, 1},
    [B_LOG] = {"tl.log", {"x"}, 1},
    [B_SQRT] = {"tl.sqrt", {"x"}, 1},
    [B_TL_ABS] = {"tl.abs", {"x"}, 1},
    [B_MINIMUM] = {"tl.minimum", {"x", "y", "propagate_nan"}, 2},
    [B_MAXIMUM] = {"tl.maximum", {"x", "y", "propagate_nan"}, 2},
    [B_WHERE] = {"tl.where", {"condition", "x", "y"}, 3},
    [B_SUM] = {"tl.sum", {"input", "axis", "keep_dims"}, 1},
    [B_TL_MAX] = {"tl.max", {"input", "axis", "keep_dims"}, 1},
    [B_TL_MIN] = {"tl.min", {"input", "axis", "keep_dims"}, 1},
    [B_ZEROS] = {"tl.zeros", {"shape", "dtype"}, 2},
    [B_FULL] = {"tl.full", {"shape", "value", "dtype"}, 3},
    [B_EMPTY] = {"tl.empty", {"shape", "dtype"}, 2},
    [B_ZEROS_LIKE] = {"tl.zeros_like", {"input"}, 1},
    [B_FULL_LIKE] = {"tl.full_like", {"input", "fill_value"}, 2},
    [B_CDIV] = {"tl.cdiv", {"x", "div"}, 2},
    [B_DOT] = {"tl.dot",
               {"input", "other", "acc", "input_precision", "allow_tf32",
                "max_num_imprecise_acc", "out_dtype"},
               2},
    [B_EXPAND_DIMS] = {"tl.expand_dims", {"input", "axis"}, 2},
    [B_BROADCAST_TO] = {"tl.broadcast_to", {"input", "shape"}, 2},
    [B_CAST] = {"tl.cast", {"input", "dtype", "fp_downcast_rounding", "bitcast"}, 2},
    [B_TO] = {"to", {"self", "dtype", "fp_downcast_rounding", "bitcast"}, 2},
    [B_MULTIPLE_OF] = {"tl.multiple_of", {"input", "values"}, 2},
    [B_MAX_CONTIGUOUS] = {"tl.max_contiguous", {"input", "values"}, 2},
    [B_MAX_CONSTANCY] = {"tl.max_constancy", {"input", "values"}, 2},
    [B_STATIC_ASSERT] = {"tl.static_assert", {"cond", "msg"}, 1},
    [B_STATIC_PRINT] = {"tl.static_print", {0}, 0},
    [B_DEVICE_PRINT] = {"tl.device_print", {0}, 0},
    [B_CONSTEXPR] = {"tl.constexpr", {"value"}, 1},
    [B_STATIC_RANGE] = {"tl.static_range", {"arg1", "arg2", "step"}, 1},
    [B_TL_RANGE] = {"tl.range",
                    {"arg1", "arg2", "step", "num_stages", "loop_unroll_factor",
                     "disallow_acc_multi_buffer", "flatten", "warp_specialize",
                     "disable_licm"},
                    1},
    [B_JIT] = {"triton.jit", {0}, 0},
    [B_RANGE] = {"range", {0}, 0},
    [B_FLOAT] = {"float", {"x"}, 0},
    [B_INT] = {"int", {"x"}, 0},
    [B_BOOL] = {"bool", {"x"}, 0},
    [B_STR] = {"str", {"object"}, 0},
    [B_MIN] = {"min", {0}, 0},
    [B_MAX] = {"max", {0}, 0},
    [B_ABS] = {"abs", {"x"}, 1},
    [B_LEN] = {"len", {"obj"}, 1},
    [B_TYPE] = {"type", {"object"}, 1},
    [B_PRINT] = {"print", {0}, 0},
    [B_NONETYPE] = {"NoneType", {0}, 0},
};

typedef struct NameId {
    const char *name;
    int id;
} NameId;

static const NameId tl_funcs[] = {
    {"program_id", B_PROGRAM_ID}, {"num_programs", B_NUM_PROGRAMS},
    {"arange", B_ARANGE}, {"load", B_LOAD}, {"store", B_STORE},
    {"exp", B_EXP}, {"log", B_LOG}, {"sqrt", B_SQRT}, {"abs", B_TL_ABS},
    {"minimum", B_MINIMUM}, {"maximum", B_MAXIMUM}, {"where", B_WHERE},
    {"sum", B_SUM}, {"max", B_TL_MAX}, {"min", B_TL_MIN}, {"zeros", B_ZEROS},
    {"full", B_FULL}, {"empty", B_EMPTY}, {"zeros_like", B_ZEROS_LIKE},
    {"full_like", B_FULL_LIKE}, {"cdiv", B_CDIV}, {"dot", B_DOT},
    {"expand_dims", B_EXPAND_DIMS}, {"broadcast_to", B_BROADCAST_TO},
    {"cast", B_CAST}, {"multiple_of", B_MULTIPLE_OF},
    {"max_contiguous", B_MAX_CONTIGUOUS}, {"max_constancy", B_MAX_CONSTANCY},
    {"static_assert", B_STATIC_ASSERT}, {"static_print", B_STATIC_PRINT},
    {"device_print", B_DEVICE_PRINT}, {"constexpr", B_CONSTEXPR},
    {"static_range", B_STATIC_RANGE}, {"range", B_TL_RANGE},
};

static const NameId py_builtins[] = {
    {"range", B_RANGE}, {"float", B_FLOAT}, {"int", B_INT}, {"bool", B_BOOL},
    {"str", B_STR},     {"min", B_MIN},     {"max", B_MAX}, {"abs", B_ABS},
    {"len", B_LEN},     {"type", B_TYPE},   {"print", B_PRINT},
};

static const NameId tl_dtypes[] = {
    {"int1", DT_I1}, {"int32", DT_I32}, {"int64", DT_I64}, {"float32", DT_F32},
};

static const char *const unsupported_dtypes[] = {
    "float16", "bfloat16", "float64", "float8e4nv", "float8e5", "float8e4b15",
    "int8", "int16", "uint8", "uint16", "uint32", "uint64", "float8e4b8",
    "float8e5b16",
};

static const char *tl_dtype_name(int d) {
    switch (d) {
    case DT_I1: return "int1";
    case DT_I32: return "int32";
    case DT_I64: return "int64";
    case DT_F32: return "float32";
    default: return "void";
    }
}

/* ------------------------------------------------------------------ scopes */

typedef struct Binding {
    const char *name;
    CV v;
} Binding;

typedef struct Scope {
    Binding *b;
    int n, cap;
} Scope;

typedef struct Elab {
    Ctx *c;
    Func *f;
    Module *m;
    const ElabInput *in;
    Region *region;   /* where ops go */
    Scope *scope;
    int nest;         /* recursion depth of eval/stmt */
    long work;        /* statements run + helper calls made: bounds inlining */
    int inline_depth;
    int loop_depth;   /* loops enclosing the current statement (this function) */
    int64_t unrolled;
    int const_eval;   /* > 0: evaluating a module constant, no ops allowed */
    bool returned;
    CV retval;
    CV *const_vals;   /* per TopConst */
    uint8_t *const_state; /* 0 new, 1 evaluating, 2 done */
} Elab;

MT_PRINTF(4, 5)
static int err(Elab *E, Loc loc, mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(E->c, loc, st, fmt, ap);
    va_end(ap);
    return -1;
}

static Binding *scope_find(Scope *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->b[i].name, name))
            return &s->b[i];
    return NULL;
}

static void scope_set(Elab *E, const char *name, CV v) {
    Binding *b = scope_find(E->scope, name);
    if (b) {
        b->v = v;
        return;
    }
    Binding nb = {name, v};
    VEC_PUSH(E->c->arena, E->scope->b, E->scope->n, E->scope->cap, nb);
}

static void scope_remove(Scope *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->b[i].name, name)) {
            memmove(&s->b[i], &s->b[i + 1], sizeof(Binding) * (size_t)(s->n - i - 1));
            s->n--;
            return;
        }
}

/* --------------------------------------------------------- value helpers */

static CV cv_none(void) {
    CV v;
    memset(&v, 0, sizeof v);
    return v;
}
static CV cv_int(int64_t i) {
    CV v = cv_none();
    v.kind = CV_INT;
    v.i = i;
    return v;
}
static CV cv_float(double f) {
    CV v = cv_none();
    v.kind = CV_FLOAT;
    v.f = f;
    return v;
}
static CV cv_bool(bool b) {
    CV v = cv_none();
    v.kind = CV_BOOL;
    v.i = b;
    return v;
}
static CV cv_tensor(ValId id) {
    CV v = cv_none();
    v.kind = CV_TENSOR;
    v.v = id;
    return v;
}
static CV cv_builtin(int b) {
    CV v = cv_none();
    v.kind = CV_BUILTIN;
    v.sub = (int16_t)b;
    return v;
}
static CV cv_module(ModKind k, const char *path) {
    CV v = cv_none();
    v.kind = CV_MODULE;
    v.sub = (int16_t)k;
    v.s = path;
    return v;
}
static CV cv_dtype(int d) {
    CV v = cv_none();
    v.kind = CV_DTYPE;
    v.sub = (int16_t)d;
    return v;
}
static CV cv_str(const char *s, int n) {
    CV v = cv_none();
    v.kind = CV_STR;
    v.s = s ? s : "";
    v.n = s ? n : 0;
    return v;
}
static CV cv_tuple(Elab *E, int n) {
    CV v = cv_none();
    v.kind = CV_TUPLE;
    v.n = n;
    v.items = n ? arena_alloc(E->c->arena, sizeof(CV) * (size_t)n) : NULL;
    return v;
}

static bool is_num(CV v) {
    return v.kind == CV_INT || v.kind == CV_FLOAT || v.kind == CV_BOOL;
}
static bool is_intlike(CV v) { return v.kind == CV_INT || v.kind == CV_BOOL; }
static double num_f(CV v) { return v.kind == CV_FLOAT ? v.f : (double)v.i; }

static const char *type_text(Elab *E, Type t) {
    StrBuf sb;
    sb_init(&sb);
    type_print(&sb, t);
    char *s = arena_strdup(E->c->arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

static Type tty(Elab *E, CV v) { return val_type(E->f, v.v); }

static const char *cv_kind_name(Elab *E, CV v) {
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
    case CV_TENSOR: return type_text(E, tty(E, v));
    default: return "value";
    }
}

static bool fits_i32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

/* Source text of the token at loc (digits of a too-big literal). */
static const char *source_word(Elab *E, Loc loc) {
    const char *s = E->c->src;
    if (!s)
        return "?";
    size_t i = 0, n = E->c->srclen;
    int line = 1;
    while (i < n && line < loc.line) {
        if (s[i] == '\n')
            line++;
        i++;
    }
    if (loc.col > 1)
        i += (size_t)(loc.col - 1);
    size_t j = i;
    while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'))
        j++;
    if (i >= n || j == i)
        return "?";
    return arena_strndup(E->c->arena, s + i, j - i);
}

/* --------------------------------------------------------------- emission */

static int emit_t(Elab *E, OpCode code, Loc loc, const ValId *args, int n,
                  int64_t a0, int64_t a1, Type want, ValId *out) {
    if (E->const_eval)
        return err(E, loc, MT_ERR_TYPE,
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

static int emit(Elab *E, OpCode code, Loc loc, const ValId *args, int n,
                int64_t a0, int64_t a1, ValId *out) {
    return emit_t(E, code, loc, args, n, a0, a1, type_scalar(DT_VOID), out);
}

static int emit1(Elab *E, OpCode code, Loc loc, ValId a, ValId *out) {
    return emit(E, code, loc, &a, 1, 0, 0, out);
}

static int emit2(Elab *E, OpCode code, Loc loc, ValId a, ValId b, ValId *out) {
    ValId args[2] = {a, b};
    return emit(E, code, loc, args, 2, 0, 0, out);
}

/* A Python int as SSA: i32 when it fits, else i64. */
static ValId const_pyint(Elab *E, int64_t v) {
    return const_int(E->f, fits_i32(v) ? DT_I32 : DT_I64, v);
}

/* Default materialisation of a compile-time number. */
static int materialise(Elab *E, CV v, Loc loc, ValId *out) {
    switch (v.kind) {
    case CV_TENSOR: *out = v.v; return 0;
    case CV_INT: *out = const_pyint(E, v.i); return 0;
    case CV_FLOAT: *out = const_f32(E->f, v.f); return 0;
    case CV_BOOL: *out = const_bool(E->f, v.i != 0); return 0;
    default:
        return err(E, loc, MT_ERR_TYPE, "expected a number or a tensor, got %s",
                   cv_kind_name(E, v));
    }
}

/* A compile-time number as a weak constant next to a tensor of dtype `like`
 * (Triton: Python scalars adopt the tensor's dtype). */
static int materialise_like(Elab *E, CV v, Type like, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        *out = v.v;
        return 0;
    }
    DType d = like.is_ptr ? DT_VOID : (DType)like.dtype;
    switch (v.kind) {
    case CV_BOOL:
        if (d == DT_I1 || d == DT_VOID)
            *out = const_bool(E->f, v.i != 0);
        else if (d == DT_F32)
            *out = const_f32(E->f, (double)v.i);
        else
            *out = const_int(E->f, d, v.i);
        return 0;
    case CV_INT:
        if (d == DT_F32)
            *out = const_f32(E->f, (double)v.i);
        else if (d == DT_I64)
            *out = const_int(E->f, DT_I64, v.i);
        else
            *out = const_pyint(E, v.i);
        return 0;
    case CV_FLOAT:
        *out = const_f32(E->f, v.f);
        return 0;
    default:
        return materialise(E, v, loc, out);
    }
}

/* A compile-time value converted to dtype d (cast, full, yields). */
static int const_as(Elab *E, CV v, DType d, Loc loc, ValId *out) {
    if (!is_num(v))
        return materialise(E, v, loc, out);
    switch (d) {
    case DT_I1:
        *out = const_bool(E->f, num_f(v) != 0);
        return 0;
    case DT_I32:
    case DT_I64: {
        int64_t i = v.i;
        if (v.kind == CV_FLOAT) {
            if (!isfinite(v.f) || v.f >= 9.2233720368547758e18 ||
                v.f < -9.2233720368547758e18)
                return err(E, loc, MT_ERR_TYPE, "cannot convert %g to %s", v.f,
                           dtype_name(d));
            i = (int64_t)v.f;
        }
        if (d == DT_I32 && !fits_i32(i))
            return err(E, loc, MT_ERR_TYPE, "value %lld does not fit in i32",
                       (long long)i);
        *out = const_int(E->f, d, i);
        return 0;
    }
    case DT_F32:
        *out = const_f32(E->f, num_f(v));
        return 0;
    default:
        return err(E, loc, MT_ERR_TYPE, "invalid dtype");
    }
}

static int cast_val(Elab *E, ValId x, DType d, Loc loc, ValId *out) {
    Type t = val_type(E->f, x);
    if (!t.is_ptr && t.dtype == d) {
        *out = x;
        return 0;
    }
    if (t.is_ptr)
        return err(E, loc, MT_ERR_TYPE, "cannot cast %s to %s", type_text(E, t),
                   dtype_name(d));
    return emit_t(E, OP_CAST, loc, &x, 1, 0, 0,
                  type_with_elem(t, type_scalar(d)), out);
}

static int expand_dims(Elab *E, ValId x, int axis, Loc loc, ValId *out) {
    return emit(E, OP_EXPAND_DIMS, loc, &x, 1, axis, 0, out);
}

/* ---------------------------------------------------------- forward decls */

static int eval(Elab *E, Node *n, CV *out);
static int exec_block(Elab *E, Node **stmts, int n);
static int lookup_name(Elab *E, const char *name, Loc loc, CV *out);

static int truth(Elab *E, CV v, Loc loc, const char *what, bool *out) {
    switch (v.kind) {
    case CV_NONE: *out = false; return 0;
    case CV_INT: case CV_BOOL: *out = v.i != 0; return 0;
    case CV_FLOAT: *out = v.f != 0; return 0;
    case CV_STR: case CV_TUPLE: *out = v.n != 0; return 0;
    case CV_TENSOR:
        return err(E, loc, MT_ERR_UNSUPPORTED, "%s", what);
    default: *out = true; return 0;
    }
}

/* ------------------------------------------------- compile-time arithmetic */

static int ct_overflow(Elab *E, Loc loc) {
    return err(E, loc, MT_ERR_TYPE,
               "integer overflow in compile-time arithmetic (values are int64)");
}

static int64_t floordiv64(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static bool ct_equal(CV a, CV b) {
    if (is_num(a) && is_num(b)) {
        if (is_intlike(a) && is_intlike(b))
            return a.i == b.i;
        return num_f(a) == num_f(b);
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
    case CV_DTYPE: case CV_BUILTIN: return a.sub == b.sub;
    case CV_MODULE: return a.sub == b.sub && (a.sub != MOD_OTHER || !strcmp(a.s, b.s));
    case CV_JITFN: return a.fn == b.fn;
    case CV_TENSOR: return a.v == b.v;
    default: return false;
    }
}

static bool ct_is(CV a, CV b) {
    if (a.kind != b.kind)
        return false;
    if (a.kind == CV_TUPLE)
        return a.items == b.items && a.n == b.n;
    if (a.kind == CV_FLOAT)
        return a.f == b.f;
    return ct_equal(a, b);
}

static int ct_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    const char *os = optok_str(op);
    /* sequences */
    if (op == OT_PLUS && ((a.kind == CV_STR && b.kind == CV_STR) ||
                          (a.kind == CV_TUPLE && b.kind == CV_TUPLE)) &&
        (int64_t)a.n + b.n > MAX_SEQUENCE)
        return err(E, loc, MT_ERR_UNSUPPORTED,
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
    if (!is_num(a) || !is_num(b))
        return err(E, loc, MT_ERR_TYPE,
                   "unsupported operand types for %s: '%s' and '%s'", os,
                   cv_kind_name(E, a), cv_kind_name(E, b));
    bool both_bool = a.kind == CV_BOOL && b.kind == CV_BOOL;
    if (is_intlike(a) && is_intlike(b)) {
        int64_t x = a.i, y = b.i, r = 0;
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
                return err(E, loc, MT_ERR_TYPE, "division by zero");
            *out = cv_float((double)x / (double)y);
            return 0;
        case OT_DSLASH:
        case OT_PERCENT:
            if (y == 0)
                return err(E, loc, MT_ERR_TYPE, "integer division or modulo by zero");
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
                    return err(E, loc, MT_ERR_TYPE, "0 cannot be raised to a negative power");
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
                return err(E, loc, MT_ERR_TYPE, "negative shift count");
            if (x != 0 && (y >= 63 || (x > 0 ? x > (INT64_MAX >> y) : x < (INT64_MIN >> y))))
                return ct_overflow(E, loc);
            r = (int64_t)((uint64_t)x << (y > 63 ? 0 : y));
            if (x == 0) r = 0;
            break;
        case OT_SHR:
            if (y < 0)
                return err(E, loc, MT_ERR_TYPE, "negative shift count");
            r = y >= 63 ? (x < 0 ? -1 : 0) : (x >> y);
            break;
        default:
            return err(E, loc, MT_ERR_UNSUPPORTED, "unsupported operator '%s'", os);
        }
        *out = cv_int(r);
        return 0;
    }
    double x = num_f(a), y = num_f(b);
    switch (op) {
    case OT_PLUS: *out = cv_float(x + y); return 0;
    case OT_MINUS: *out = cv_float(x - y); return 0;
    case OT_STAR: *out = cv_float(x * y); return 0;
    case OT_SLASH:
        if (y == 0)
            return err(E, loc, MT_ERR_TYPE, "float division by zero");
        *out = cv_float(x / y);
        return 0;
    case OT_DSLASH:
    case OT_PERCENT: {
        if (y == 0)
            return err(E, loc, MT_ERR_TYPE, "float modulo by zero");
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
        return err(E, loc, MT_ERR_TYPE,
                   "unsupported operand types for %s: '%s' and '%s'", os,
                   cv_kind_name(E, a), cv_kind_name(E, b));
    }
}

static int ct_compare(Elab *E, OpTok op, CV a, CV b, Loc loc, bool *out) {
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
            return err(E, loc, MT_ERR_TYPE, "argument of type '%s' is not iterable",
                       cv_kind_name(E, b));
        }
        *out = op == OT_IN ? found : !found;
        return 0;
    }
    default: break;
    }
    int c;
    if (is_num(a) && is_num(b)) {
        if (is_intlike(a) && is_intlike(b))
            c = a.i < b.i ? -1 : a.i > b.i;
        else {
            double x = num_f(a), y = num_f(b);
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
        return err(E, loc, MT_ERR_TYPE, "'%s' not supported between '%s' and '%s'",
                   optok_str(op), cv_kind_name(E, a), cv_kind_name(E, b));
    }
    switch (op) {
    case OT_LT: *out = c < 0; break;
    case OT_LE: *out = c <= 0; break;
    case OT_GT: *out = c > 0; break;
    case OT_GE: *out = c >= 0; break;
    default:
        return err(E, loc, MT_ERR_UNSUPPORTED, "unsupported comparison '%s'",
                   optok_str(op));
    }
    return 0;
}

/* ------------------------------------------------------ tensor arithmetic */

static int tensor_binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    ValId x, y, r;
    Type ta = a.kind == CV_TENSOR ? tty(E, a) : type_scalar(DT_VOID);
    Type tb = b.kind == CV_TENSOR ? tty(E, b) : type_scalar(DT_VOID);
    if ((a.kind != CV_TENSOR && !is_num(a)) || (b.kind != CV_TENSOR && !is_num(b)))
        return err(E, loc, MT_ERR_TYPE,
                   "unsupported operand types for %s: '%s' and '%s'",
                   optok_str(op), cv_kind_name(E, a), cv_kind_name(E, b));
    /* pointer arithmetic */
    if ((a.kind == CV_TENSOR && ta.is_ptr) || (b.kind == CV_TENSOR && tb.is_ptr)) {
        bool aptr = a.kind == CV_TENSOR && ta.is_ptr;
        bool bptr = b.kind == CV_TENSOR && tb.is_ptr;
        if (aptr && bptr)
            return err(E, loc, MT_ERR_TYPE, "cannot apply '%s' to two pointers",
                       optok_str(op));
        if (op == OT_EQ || op == OT_NE)
            goto general;
        if (!(op == OT_PLUS || (op == OT_MINUS && aptr)))
            return err(E, loc, MT_ERR_TYPE,
                       "unsupported operator '%s' on a pointer", optok_str(op));
        CV base = aptr ? a : b, off = aptr ? b : a;
        ValId o;
        if (off.kind != CV_TENSOR) {
            if (off.kind == CV_FLOAT)
                return err(E, loc, MT_ERR_TYPE,
                           "pointer offset must be an integer, got f32");
            int64_t k = off.i;
            if (op == OT_MINUS) {
                if (k == INT64_MIN)
                    return ct_overflow(E, loc);
                k = -k;
            }
            o = const_pyint(E, k);
        } else {
            o = off.v;
            Type to = val_type(E->f, o);
            if (!type_is_int(to))
                return err(E, loc, MT_ERR_TYPE,
                           "pointer offset must be an integer, got %s",
                           type_text(E, to));
            if (op == OT_MINUS && emit1(E, OP_NEG, loc, o, &o) < 0)
                return -1;
        }
        if (emit2(E, OP_ADDPTR, loc, base.v, o, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
general:;
    Type like = a.kind == CV_TENSOR ? ta : tb;
    if (op == OT_DSTAR)
        return err(E, loc, MT_ERR_UNSUPPORTED,
                   "'**' is only supported on compile-time values");
    if (materialise_like(E, a, like, loc, &x) < 0 ||
        materialise_like(E, b, like, loc, &y) < 0)
        return -1;
    Type tx = val_type(E->f, x), ty = val_type(E->f, y);
    OpCode code;
    switch (op) {
    case OT_PLUS: code = OP_ADD; break;
    case OT_MINUS: code = OP_SUB; break;
    case OT_STAR: code = OP_MUL; break;
    case OT_SLASH:
        if (!type_is_numeric(tx) || !type_is_numeric(ty))
            return err(E, loc, MT_ERR_TYPE, "cannot divide %s by %s",
                       type_text(E, tx), type_text(E, ty));
        /* true division: compile-time operands become f32 constants, int
         * tensors are cast */
        if ((a.kind == CV_TENSOR ? cast_val(E, x, DT_F32, loc, &x)
                                 : const_as(E, a, DT_F32, loc, &x)) < 0 ||
            (b.kind == CV_TENSOR ? cast_val(E, y, DT_F32, loc, &y)
                                 : const_as(E, b, DT_F32, loc, &y)) < 0)
            return -1;
        code = OP_DIV;
        break;
    case OT_DSLASH:
        if (type_is_float(tx) || type_is_float(ty))
            return err(E, loc, MT_ERR_TYPE, "'//' on floats is not supported");
        code = OP_DIV;
        break;
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
        return err(E, loc, MT_ERR_UNSUPPORTED,
                   "operator '%s' is not supported on tensors", optok_str(op));
    }
    if (emit2(E, code, loc, x, y, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

static int binop(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    if (a.kind == CV_TENSOR || b.kind == CV_TENSOR)
        return tensor_binop(E, op, a, b, loc, out);
    return ct_binop(E, op, a, b, loc, out);
}

static int compare(Elab *E, OpTok op, CV a, CV b, Loc loc, CV *out) {
    if (op == OT_IS || op == OT_IS_NOT) {
        bool r = ct_is(a, b);
        *out = cv_bool(op == OT_IS ? r : !r);
        return 0;
    }
    if (a.kind == CV_TENSOR || b.kind == CV_TENSOR) {
        if (op == OT_IN || op == OT_NOT_IN)
            return err(E, loc, MT_ERR_UNSUPPORTED,
                       "'in' is not supported on runtime values");
        return tensor_binop(E, op, a, b, loc, out);
    }
    bool r = false;
    if (ct_compare(E, op, a, b, loc, &r) < 0)
        return -1;
    *out = cv_bool(r);
    return 0;
}

/* ------------------------------------------------------------ name lookup */

static int cv_from_const(Elab *E, const ConstVal *k, CV *out) {
    switch (k->kind) {
    case CK_INT: *out = cv_int(k->i); return 0;
    case CK_FLOAT: *out = cv_float(k->f); return 0;
    case CK_BOOL: *out = cv_bool(k->i != 0); return 0;
    case CK_STR: *out = cv_str(k->s, k->s ? (int)strlen(k->s) : 0); return 0;
    case CK_NONE: *out = cv_none(); return 0;
    }
    (void)E;
    return -1;
}

static CV module_for_path(Elab *E, const char *path) {
    if (!strcmp(path, "triton.language") || !strcmp(path, "mytriton.language") ||
        !strcmp(path, "triton.language.math") || !strcmp(path, "triton.language.core"))
        return cv_module(MOD_TL, "triton.language");
    if (!strcmp(path, "triton") || !strcmp(path, "mytriton"))
        return cv_module(MOD_TRITON, "triton");
    if (!strcmp(path, "math"))
        return cv_module(MOD_MATH, "math");
    return cv_module(MOD_OTHER, arena_strdup(E->c->arena, path));
}

static int getattr(Elab *E, CV obj, const char *name, Loc loc, CV *out);

/* An import path "a.b.c": a module, or an attribute of one
 * (from triton.language import constexpr). */
static int resolve_import(Elab *E, const char *path, Loc loc, CV *out) {
    CV m = module_for_path(E, path);
    if (m.sub != MOD_OTHER) {
        *out = m;
        return 0;
    }
    const char *dot = strrchr(path, '.');
    if (dot) {
        char *head = arena_strndup(E->c->arena, path, (size_t)(dot - path));
        CV base = module_for_path(E, head);
        if (base.sub != MOD_OTHER)
            return getattr(E, base, dot + 1, loc, out);
    }
    *out = m;
    return 0;
}

static int eval_module_const(Elab *E, int k, Loc loc, CV *out) {
    TopConst *tc = &E->m->consts[k];
    if (E->const_state[k] == 2) {
        *out = E->const_vals[k];
        return 0;
    }
    if (E->const_state[k] == 1)
        return err(E, loc, MT_ERR_NAME, "module constant '%s' refers to itself",
                   tc->name);
    Node *expr = parse_const_expr(E->c, E->m, tc);
    if (!expr)
        return -1;
    E->const_state[k] = 1;
    Scope fresh = {0};
    Scope *saved = E->scope;
    E->scope = &fresh;
    E->const_eval++;
    CV v;
    int rc = eval(E, expr, &v);
    E->const_eval--;
    E->scope = saved;
    if (rc < 0)
        return -1;
    if (v.kind == CV_TENSOR)
        return err(E, tc->loc, MT_ERR_TYPE,
                   "module constant '%s' must be a compile-time value", tc->name);
    E->const_vals[k] = v;
    E->const_state[k] = 2;
    *out = v;
    return 0;
}

static int lookup_name(Elab *E, const char *name, Loc loc, CV *out) {
    Binding *b = scope_find(E->scope, name);
    if (b) {
        *out = b->v;
        return 0;
    }
    for (int i = 0; i < E->in->nglobals; i++) {
        const mt_global *g = &E->in->globals[i];
        if (g->name && g->value && !strcmp(g->name, name)) {
            ConstVal k;
            if (sig_parse_literal(g->value, &k, E->c->arena) < 0)
                return err(E, loc, MT_ERR_ARG,
                           "global '%s' has an invalid value '%s'", name, g->value);
            return cv_from_const(E, &k, out);
        }
    }
    for (int i = 0; i < E->m->nconsts; i++)
        if (E->m->consts[i].name && !strcmp(E->m->consts[i].name, name))
            return eval_module_const(E, i, loc, out);
    for (int i = 0; i < E->m->nfuncs; i++)
        if (E->m->funcs[i].name && !strcmp(E->m->funcs[i].name, name)) {
            CV v = cv_none();
            v.kind = CV_JITFN;
            v.fn = &E->m->funcs[i];
            *out = v;
            return 0;
        }
    for (int i = 0; i < E->m->nimports; i++) {
        TopImport *im = &E->m->imports[i];
        if (im->alias && im->path && !strcmp(im->alias, name))
            return resolve_import(E, im->path, loc, out);
    }
    if (!strcmp(name, "tl")) {
        *out = cv_module(MOD_TL, "triton.language");
        return 0;
    }
    if (!strcmp(name, "triton") || !strcmp(name, "mytriton") ||
        !strcmp(name, "math")) {
        *out = module_for_path(E, name);
        return 0;
    }
    for (size_t i = 0; i < sizeof py_builtins / sizeof py_builtins[0]; i++)
        if (!strcmp(py_builtins[i].name, name)) {
            *out = cv_builtin(py_builtins[i].id);
            return 0;
        }
    if (!strcmp(name, "True") || !strcmp(name, "False")) {
        *out = cv_bool(name[0] == 'T');
        return 0;
    }
    if (!strcmp(name, "None")) {
        *out = cv_none();
        return 0;
    }
    return err(E, loc, MT_ERR_NAME, "name '%s' is not defined", name);
}

static int getattr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    if (!name)
        return err(E, loc, MT_ERR_SYNTAX, "missing attribute name");
    if (obj.kind == CV_MODULE) {
        if (obj.sub == MOD_TL) {
            for (size_t i = 0; i < sizeof tl_funcs / sizeof tl_funcs[0]; i++)
                if (!strcmp(tl_funcs[i].name, name)) {
                    *out = cv_builtin(tl_funcs[i].id);
                    return 0;
                }
            for (size_t i = 0; i < sizeof tl_dtypes / sizeof tl_dtypes[0]; i++)
                if (!strcmp(tl_dtypes[i].name, name)) {
                    *out = cv_dtype(tl_dtypes[i].id);
                    return 0;
                }
            for (size_t i = 0; i < sizeof unsupported_dtypes / sizeof unsupported_dtypes[0]; i++)
                if (!strcmp(unsupported_dtypes[i], name))
                    return err(E, loc, MT_ERR_UNSUPPORTED,
                               "dtype %s is not supported yet", name);
            if (!strcmp(name, "math") || !strcmp(name, "language")) {
                *out = obj;
                return 0;
            }
            return err(E, loc, MT_ERR_UNSUPPORTED, "tl.%s is not supported", name);
        }
        if (obj.sub == MOD_TRITON) {
            if (!strcmp(name, "language")) {
                *out = cv_module(MOD_TL, "triton.language");
                return 0;
            }
            if (!strcmp(name, "cdiv")) {
                *out = cv_builtin(B_CDIV);
                return 0;
            }
            if (!strcmp(name, "jit")) {
                *out = cv_builtin(B_JIT);
                return 0;
            }
            return err(E, loc, MT_ERR_UNSUPPORTED, "triton.%s is not supported", name);
        }
        if (obj.sub == MOD_MATH) {
            static const struct { const char *n; double v; } mc[] = {
                {"pi", 3.141592653589793}, {"e", 2.718281828459045},
                {"tau", 6.283185307179586}, {"log2e", 1.4426950408889634},
                {"ln2", 0.6931471805599453},
            };
            if (!strcmp(name, "inf")) {
                *out = cv_float(INFINITY);
                return 0;
            }
            if (!strcmp(name, "nan")) {
                *out = cv_float(NAN);
                return 0;
            }
            for (size_t i = 0; i < sizeof mc / sizeof mc[0]; i++)
                if (!strcmp(mc[i].n, name)) {
                    *out = cv_float(mc[i].v);
                    return 0;
                }
            return err(E, loc, MT_ERR_UNSUPPORTED, "math.%s is not supported", name);
        }
        return err(E, loc, MT_ERR_UNSUPPORTED,
                   "module '%s' is not supported in kernels", obj.s ? obj.s : "?");
    }
    if (obj.kind == CV_TENSOR) {
        Type t = tty(E, obj);
        if (!strcmp(name, "dtype")) {
            if (t.is_ptr)
                return err(E, loc, MT_ERR_UNSUPPORTED,
                           "the dtype of a pointer is not supported");
            *out = cv_dtype(t.dtype);
            return 0;
        }
        if (!strcmp(name, "shape")) {
            CV tup = cv_tuple(E, t.rank);
            for (int i = 0; i < t.rank; i++)
                tup.items[i] = cv_int(t.shape[i]);
            *out = tup;
            return 0;
        }
        static const NameId methods[] = {
            {"to", B_TO}, {"sum", B_SUM}, {"max", B_TL_MAX}, {"min", B_TL_MIN},
            {"expand_dims", B_EXPAND_DIMS}, {"broadcast_to", B_BROADCAST_TO},
        };
        for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
            if (!strcmp(methods[i].name, name)) {
                CV m = cv_builtin(methods[i].id);
                m.kind = CV_BOUND;
                m.items = arena_alloc(E->c->arena, sizeof(CV));
                m.items[0] = obj;
                *out = m;
                return 0;
            }
    }
    if (obj.kind == CV_DTYPE && !strcmp(name, "primitive_bitwidth")) {
        static const int bits[] = {0, 1, 32, 64, 32};
        *out = cv_int(obj.sub >= 0 && obj.sub <= DT_F32 ? bits[obj.sub] : 0);
        return 0;
    }
    return err(E, loc, MT_ERR_TYPE, "'%s' object has no attribute '%s'",
               cv_kind_name(E, obj), name);
}

/* ------------------------------------------------------------ call binding */

typedef struct Args {
    int npos;
    CV *pos;
    Loc *posloc;
    int nkw;
    const char **kwname;
    CV *kw;
    Loc *kwloc;
} Args;

/* Binds args to the builtin's named parameters. */
static int bind_builtin(Elab *E, int b, Loc loc, const Args *a,
                        CV out[MAX_BUILTIN_PARAMS], bool have[MAX_BUILTIN_PARAMS],
                        Loc locs[MAX_BUILTIN_PARAMS]) {
    const BuiltinInfo *bi = &builtin_info[b];
    int np = 0;
    while (np < MAX_BUILTIN_PARAMS && bi->params[np])
        np++;
    for (int i = 0; i < MAX_BUILTIN_PARAMS; i++) {
        have[i] = false;
        out[i] = cv_none();
        locs[i] = loc;
    }
    if (a->npos > np)
        return err(E, loc, MT_ERR_TYPE, "%s() takes at most %d arguments, got %d",
                   bi->display, np, a->npos);
    for (int i = 0; i < a->npos; i++) {
        out[i] = a->pos[i];
        have[i] = true;
        locs[i] = a->posloc[i];
    }
    for (int k = 0; k < a->nkw; k++) {
        int j = -1;
        for (int i = 0; i < np; i++)
            if (!strcmp(bi->params[i], a->kwname[k]))
                j = i;
        if (j < 0)
            return err(E, a->kwloc[k], MT_ERR_TYPE,
                       "%s() got an unexpected keyword argument '%s'", bi->display,
                       a->kwname[k]);
        if (have[j])
            return err(E, a->kwloc[k], MT_ERR_TYPE,
                       "%s() got multiple values for argument '%s'", bi->display,
                       a->kwname[k]);
        out[j] = a->kw[k];
        have[j] = true;
        locs[j] = a->kwloc[k];
    }
    for (int i = 0; i < bi->nreq && i < np; i++)
        if (!have[i])
            return err(E, loc, MT_ERR_TYPE, "%s() missing required argument '%s'",
                       bi->display, bi->params[i]);
    return 0;
}

static int need_tensor(Elab *E, CV v, Loc loc, const char *fn, ValId *out) {
    if (v.kind == CV_TENSOR) {
        *out = v.v;
        return 0;
    }
    if (is_num(v))
        return materialise(E, v, loc, out);
    return err(E, loc, MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
               cv_kind_name(E, v));
}

static int need_int(Elab *E, CV v, Loc loc, const char *what, int64_t *out) {
    if (v.kind != CV_INT)
        return err(E, loc, MT_ERR_TYPE, "%s must be a compile-time integer, got %s",
                   what, cv_kind_name(E, v));
    *out = v.i;
    return 0;
}

static int block_shape(Elab *E, CV v, Loc loc, int *rank, int32_t shape[MT_MAX_RANK]) {
    CV one;
    const CV *items;
    int n;
    if (v.kind == CV_TUPLE) {
        items = v.items;
        n = v.n;
    } else {
        one = v;
        items = &one;
        n = 1;
    }
    if (n == 0 || (v.kind != CV_TUPLE && v.kind != CV_INT && v.kind != CV_BOOL))
        return err(E, loc, MT_ERR_TYPE, "block shape must be a non-empty int sequence");
    if (n > MT_MAX_RANK)
        return err(E, loc, MT_ERR_TYPE, "block rank %d exceeds the maximum %d", n,
                   MT_MAX_RANK);
    int64_t numel = 1;
    for (int i = 0; i < n; i++) {
        if (items[i].kind != CV_INT || items[i].i <= 0)
            return err(E, loc, MT_ERR_TYPE, "block dimensions must be positive integers");
        if (items[i].i > MAX_BLOCK_NUMEL || (numel *= items[i].i) > MAX_BLOCK_NUMEL)
            return err(E, loc, MT_ERR_TYPE, "block of more than %d elements is too large",
                       MAX_BLOCK_NUMEL);
        shape[i] = (int32_t)items[i].i;
    }
    *rank = n;
    return 0;
}

static int block_dtype(Elab *E, CV v, Loc loc, DType *out) {
    if (v.kind != CV_DTYPE)
        return err(E, loc, MT_ERR_TYPE, "block dtype must be int1, int32, int64 or float32");
    *out = (DType)v.sub;
    return 0;
}

static int norm_axis(Elab *E, CV v, int rank, int extra, Loc loc, int *out) {
    int64_t ax = 0;
    if (need_int(E, v, loc, "axis", &ax) < 0)
        return -1;
    int64_t lim = rank + extra;
    if (ax < 0)
        ax += lim;
    if (ax < 0 || ax >= lim)
        return err(E, loc, MT_ERR_TYPE, "axis %lld is out of range for a rank-%d value",
                   (long long)v.i, rank);
    *out = (int)ax;
    return 0;
}

static int do_reduce(Elab *E, OpCode code, CV *a, bool *have, Loc *locs, Loc loc,
                     CV *out) {
    ValId x, r;
    if (need_tensor(E, a[0], locs[0], op_info[code].name, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    bool keep = false;
    if (have[2] && a[2].kind != CV_NONE) {
        if (!is_intlike(a[2]))
            return err(E, locs[2], MT_ERR_TYPE, "keep_dims must be a compile-time bool");
        keep = a[2].i != 0;
    }
    if (!have[1] || a[1].kind == CV_NONE) {
        if (t.rank == 0)
            return emit(E, code, loc, &x, 1, 0, 0, &r) < 0 ? -1 : (*out = cv_tensor(r), 0);
        int rank = t.rank;
        r = x;
        for (int ax = rank - 1; ax >= 0; ax--)
            if (emit(E, code, loc, &r, 1, ax, 0, &r) < 0)
                return -1;
        for (int i = 0; keep && i < rank; i++)
            if (expand_dims(E, r, 0, loc, &r) < 0)
                return -1;
        *out = cv_tensor(r);
        return 0;
    }
    int ax = 0;
    if (t.rank == 0)
        return emit(E, code, loc, &x, 1, 0, 0, &r);
    if (norm_axis(E, a[1], t.rank, 0, locs[1], &ax) < 0)
        return -1;
    if (emit(E, code, loc, &x, 1, ax, 0, &r) < 0)
        return -1;
    if (keep && expand_dims(E, r, ax, loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

static int fill_value(Elab *E, CV v, DType d, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = tty(E, v);
        if (t.rank > 0)
            return err(E, loc, MT_ERR_TYPE, "full value must be scalar");
        if (t.is_ptr || ((t.dtype == DT_I1) != (d == DT_I1)))
            return err(E, loc, MT_ERR_TYPE, "full value of type %s cannot fill a %s block",
                       type_text(E, t), dtype_name(d));
        return cast_val(E, v.v, d, loc, out);
    }
    if (!is_num(v))
        return err(E, loc, MT_ERR_TYPE, "full value must be a number, got %s",
                   cv_kind_name(E, v));
    if ((v.kind == CV_BOOL) != (d == DT_I1))
        return err(E, loc, MT_ERR_TYPE, "full value of type %s cannot fill a %s block",
                   cv_kind_name(E, v), dtype_name(d));
    return const_as(E, v, d, loc, out);
}

static int py_min_max(Elab *E, bool is_max, const Args *a, Loc loc, CV *out) {
    const CV *items = a->pos;
    int n = a->npos;
    const char *fn = is_max ? "max" : "min";
    if (a->nkw)
        return err(E, loc, MT_ERR_TYPE, "%s() keyword arguments are not supported", fn);
    if (n == 1 && a->pos[0].kind == CV_TUPLE) {
        items = a->pos[0].items;
        n = a->pos[0].n;
    }
    if (n == 0)
        return err(E, loc, MT_ERR_TYPE, "%s() arg is an empty sequence", fn);
    CV best = items[0];
    for (int i = 0; i < n; i++) {
        if (items[i].kind == CV_TENSOR)
            return err(E, loc, MT_ERR_UNSUPPORTED,
                       "%s() of a runtime value is not supported; use tl.%s", fn,
                       is_max ? "maximum" : "minimum");
        if (i == 0)
            continue;
        bool gt = false;
        if (ct_compare(E, is_max ? OT_GT : OT_LT, items[i], best, loc, &gt) < 0)
            return -1;
        if (gt)
            best = items[i];
    }
    *out = best;
    return 0;
}

static int call_jit(Elab *E, TopFunc *tf, const Args *a, Loc loc, CV *out);

static int call_builtin(Elab *E, int b, const Args *args, Loc loc, CV *out) {
    CV a[MAX_BUILTIN_PARAMS];
    bool have[MAX_BUILTIN_PARAMS];
    Loc locs[MAX_BUILTIN_PARAMS];
    const char *fn = builtin_info[b].display;
    ValId x, y, z, r;
    *out = cv_none();
    switch (b) {
    case B_STATIC_PRINT: case B_DEVICE_PRINT: case B_PRINT:
        return 0;
    case B_MIN: case B_MAX:
        return py_min_max(E, b == B_MAX, args, loc, out);
    case B_RANGE: case B_STATIC_RANGE: case B_TL_RANGE:
        return err(E, loc, MT_ERR_UNSUPPORTED, "%s() can only be used in a for loop", fn);
    case B_JIT:
        return err(E, loc, MT_ERR_UNSUPPORTED, "triton.jit cannot be called in a kernel");
    case B_NONETYPE:
        if (args->npos || args->nkw)
            return err(E, loc, MT_ERR_TYPE, "NoneType takes no arguments");
        return 0;
    default: break;
    }
    if (bind_builtin(E, b, loc, args, a, have, locs) < 0)
        return -1;
    switch (b) {
    case B_PROGRAM_ID:
    case B_NUM_PROGRAMS: {
        int64_t ax = 0;
        if (need_int(E, a[0], locs[0], "axis", &ax) < 0)
            return -1;
        if (ax < 0 || ax > 2)
            return err(E, locs[0], MT_ERR_TYPE, "%s axis must be 0, 1 or 2, got %lld",
                       fn, (long long)ax);
        if (emit(E, b == B_PROGRAM_ID ? OP_PROGRAM_ID : OP_NUM_PROGRAMS, loc, NULL, 0,
                 ax, 0, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_ARANGE: {
        if (a[0].kind != CV_INT || a[1].kind != CV_INT)
            return err(E, loc, MT_ERR_TYPE, "arange bounds must be compile-time integers");
        if (a[1].i <= a[0].i)
            return err(E, loc, MT_ERR_TYPE, "arange requires end > start, got [%lld, %lld)",
                       (long long)a[0].i, (long long)a[1].i);
        if (!fits_i32(a[0].i) || !fits_i32(a[1].i) || a[1].i - a[0].i > MAX_BLOCK_NUMEL)
            return err(E, loc, MT_ERR_TYPE, "arange range [%lld, %lld) is too large",
                       (long long)a[0].i, (long long)a[1].i);
        if (emit(E, OP_ARANGE, loc, NULL, 0, a[0].i, a[1].i, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_LOAD: {
        ValId m = 0, o = 0;
        if (a[0].kind != CV_TENSOR || !tty(E, a[0]).is_ptr)
            return err(E, locs[0], MT_ERR_TYPE, "tl.load() expects a pointer, got %s",
                       cv_kind_name(E, a[0]));
        Type pt = tty(E, a[0]);
        if (a[1].kind != CV_NONE && materialise(E, a[1], locs[1], &m) < 0)
            return -1;
        if (a[2].kind != CV_NONE) {
            if (a[2].kind == CV_TENSOR)
                o = a[2].v;
            else if (is_num(a[2])) {
                if (pt.dtype == DT_I1 || a[2].kind == CV_BOOL) {
                    if (materialise(E, a[2], locs[2], &o) < 0)
                        return -1;
                } else if (const_as(E, a[2], (DType)pt.dtype, locs[2], &o) < 0)
                    return -1;
            } else
                return err(E, locs[2], MT_ERR_TYPE,
                           "tl.load() other must be a number or a tensor, got %s",
                           cv_kind_name(E, a[2]));
        }
        ValId la[3] = {a[0].v, m, o};
        if (emit(E, OP_LOAD, loc, la, 3, 0, 0, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_STORE: {
        ValId m = 0, v;
        if (a[0].kind != CV_TENSOR || !tty(E, a[0]).is_ptr)
            return err(E, locs[0], MT_ERR_TYPE, "tl.store() expects a pointer, got %s",
                       cv_kind_name(E, a[0]));
        Type pt = tty(E, a[0]);
        if (a[1].kind == CV_INT || a[1].kind == CV_FLOAT) {
            if (pt.dtype == DT_I1) {
                if (materialise(E, a[1], locs[1], &v) < 0)
                    return -1;
            } else if (const_as(E, a[1], (DType)pt.dtype, locs[1], &v) < 0)
                return -1;
        } else if (materialise(E, a[1], locs[1], &v) < 0)
            return -1;
        if (a[2].kind != CV_NONE && materialise(E, a[2], locs[2], &m) < 0)
            return -1;
        ValId sa[3] = {a[0].v, v, m};
        return emit(E, OP_STORE, loc, sa, 3, 0, 0, NULL);
    }
    case B_EXP: case B_LOG: case B_SQRT: {
        OpCode code = b == B_EXP ? OP_EXP : b == B_LOG ? OP_LOG : OP_SQRT;
        if (need_tensor(E, a[0], locs[0], fn, &x) < 0)
            return -1;
        /* Like Triton (and the original), no implicit int -> float here:
         * ir_infer_type reports "exp requires f32, got i32". */
        if (emit1(E, code, loc, x, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_TL_ABS:
    case B_ABS:
        if (a[0].kind != CV_TENSOR) {
            if (a[0].kind == CV_INT) {
                if (a[0].i == INT64_MIN)
                    return ct_overflow(E, loc);
                *out = cv_int(a[0].i < 0 ? -a[0].i : a[0].i);
                return 0;
            }
            if (a[0].kind == CV_BOOL) {
                *out = cv_int(a[0].i);
                return 0;
            }
            if (a[0].kind == CV_FLOAT) {
                *out = cv_float(fabs(a[0].f));
                return 0;
            }
            return err(E, locs[0], MT_ERR_TYPE, "bad operand type for abs(): '%s'",
                       cv_kind_name(E, a[0]));
        }
        if (emit1(E, OP_ABS, loc, a[0].v, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    case B_MINIMUM: case B_MAXIMUM: {
        Type like = a[0].kind == CV_TENSOR ? tty(E, a[0])
                    : a[1].kind == CV_TENSOR ? tty(E, a[1]) : type_scalar(DT_VOID);
        if (materialise_like(E, a[0], like, locs[0], &x) < 0 ||
            materialise_like(E, a[1], like, locs[1], &y) < 0)
            return -1;
        if (emit2(E, b == B_MINIMUM ? OP_MINIMUM : OP_MAXIMUM, loc, x, y, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_WHERE: {
        if (a[0].kind == CV_TENSOR)
            x = a[0].v;
        else if (is_num(a[0]) || a[0].kind == CV_NONE) {
            bool t = false;
            if (truth(E, a[0], locs[0], "", &t) < 0)
                return -1;
            x = const_bool(E->f, t);
        } else
            return err(E, locs[0], MT_ERR_TYPE, "where condition must be bool, got %s",
                       cv_kind_name(E, a[0]));
        Type like = a[1].kind == CV_TENSOR ? tty(E, a[1])
                    : a[2].kind == CV_TENSOR ? tty(E, a[2]) : type_scalar(DT_VOID);
        if (materialise_like(E, a[1], like, locs[1], &y) < 0 ||
            materialise_like(E, a[2], like, locs[2], &z) < 0)
            return -1;
        ValId sa[3] = {x, y, z};
        if (emit(E, OP_SELECT, loc, sa, 3, 0, 0, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_SUM: return do_reduce(E, OP_SUM, a, have, locs, loc, out);
    case B_TL_MAX: return do_reduce(E, OP_MAX, a, have, locs, loc, out);
    case B_TL_MIN: return do_reduce(E, OP_MIN, a, have, locs, loc, out);
    case B_ZEROS: case B_EMPTY: case B_FULL: {
        int rank = 0;
        int32_t shape[MT_MAX_RANK];
        DType d = DT_F32;
        CV dt = b == B_FULL ? a[2] : a[1];
        if (block_shape(E, a[0], locs[0], &rank, shape) < 0 ||
            block_dtype(E, dt, b == B_FULL ? locs[2] : locs[1], &d) < 0)
            return -1;
        Type t = type_block(type_scalar(d), rank, shape);
        if (b == B_FULL) {
            if (fill_value(E, a[1], d, locs[1], &x) < 0 ||
                emit_t(E, OP_FULL, loc, &x, 1, 0, 0, t, &r) < 0)
                return -1;
        } else if (emit_t(E, b == B_ZEROS ? OP_ZEROS : OP_EMPTY, loc, NULL, 0, 0, 0, t,
                          &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_ZEROS_LIKE: case B_FULL_LIKE: {
        if (a[0].kind != CV_TENSOR)
            return err(E, locs[0], MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
                       cv_kind_name(E, a[0]));
        Type t = tty(E, a[0]);
        if (t.is_ptr || t.rank == 0)
            return err(E, locs[0], MT_ERR_TYPE, "%s() expects a block, got %s", fn,
                       type_text(E, t));
        if (b == B_FULL_LIKE) {
            if (fill_value(E, a[1], (DType)t.dtype, locs[1], &x) < 0 ||
                emit_t(E, OP_FULL, loc, &x, 1, 0, 0, t, &r) < 0)
                return -1;
        } else if (emit_t(E, OP_ZEROS, loc, NULL, 0, 0, 0, t, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_CDIV: {
        if (a[0].kind != CV_TENSOR && a[1].kind != CV_TENSOR) {
            CV s, t;
            if (!is_intlike(a[0]) || !is_intlike(a[1]))
                return err(E, loc, MT_ERR_TYPE, "cdiv expects integers, got %s and %s",
                           cv_kind_name(E, a[0]), cv_kind_name(E, a[1]));
            return ct_binop(E, OT_PLUS, a[0], a[1], loc, &s) < 0 ||
                           ct_binop(E, OT_MINUS, s, cv_int(1), loc, &t) < 0
                       ? -1
                       : ct_binop(E, OT_DSLASH, t, a[1], loc, out);
        }
        CV s, t;
        if (binop(E, OT_PLUS, a[0], a[1], loc, &s) < 0 ||
            binop(E, OT_MINUS, s, cv_int(1), loc, &t) < 0)
            return -1;
        return binop(E, OT_DSLASH, t, a[1], loc, out);
    }
    case B_DOT: {
        int64_t prec = 0;
        if (a[0].kind != CV_TENSOR || a[1].kind != CV_TENSOR)
            return err(E, loc, MT_ERR_TYPE, "tl.dot() expects two tensors");
        if (have[3] && a[3].kind != CV_NONE) {
            if (a[3].kind != CV_STR)
                return err(E, locs[3], MT_ERR_TYPE,
                           "input_precision must be a string, got %s",
                           cv_kind_name(E, a[3]));
            if (!strcmp(a[3].s, "ieee"))
                prec = 0;
            else if (!strcmp(a[3].s, "tf32"))
                prec = 1;
            else if (!strcmp(a[3].s, "tf32x3"))
                prec = 2;
            else
                return err(E, locs[3], MT_ERR_TYPE,
                           "input_precision must be 'ieee', 'tf32' or 'tf32x3', got '%s'",
                           a[3].s);
        } else if (have[4] && a[4].kind != CV_NONE) {
            if (!is_intlike(a[4]))
                return err(E, locs[4], MT_ERR_TYPE, "allow_tf32 must be a compile-time bool");
            prec = a[4].i ? 1 : 0;
        }
        if (have[6] && !(a[6].kind == CV_DTYPE && a[6].sub == DT_F32) &&
            a[6].kind != CV_NONE)
            return err(E, locs[6], MT_ERR_TYPE, "tl.dot() out_dtype must be tl.float32");
        ValId acc = 0;
        if (have[2] && a[2].kind != CV_NONE) {
            if (a[2].kind != CV_TENSOR)
                return err(E, locs[2], MT_ERR_TYPE, "tl.dot() acc must be a tensor");
            acc = a[2].v;
        }
        ValId da[3] = {a[0].v, a[1].v, acc};
        if (emit(E, OP_DOT, loc, da, 3, prec, 0, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_EXPAND_DIMS: {
        int ax = 0;
        if (need_tensor(E, a[0], locs[0], fn, &x) < 0 ||
            norm_axis(E, a[1], val_type(E->f, x).rank, 1, locs[1], &ax) < 0 ||
            expand_dims(E, x, ax, loc, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_BROADCAST_TO: {
        int rank = 0;
        int32_t shape[MT_MAX_RANK];
        if (need_tensor(E, a[0], locs[0], fn, &x) < 0 ||
            block_shape(E, a[1], locs[1], &rank, shape) < 0)
            return -1;
        Type t = type_block(type_elem(val_type(E->f, x)), rank, shape);
        if (type_eq(t, val_type(E->f, x))) {
            *out = cv_tensor(x);
            return 0;
        }
        if (emit_t(E, OP_BROADCAST, loc, &x, 1, 0, 0, t, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_CAST: case B_TO: {
        DType d = DT_F32;
        if (a[1].kind != CV_DTYPE)
            return err(E, locs[1], MT_ERR_TYPE, "%s() dtype must be a tl dtype, got %s",
                       fn, cv_kind_name(E, a[1]));
        d = (DType)a[1].sub;
        if (have[3] && a[3].kind != CV_NONE && !(is_intlike(a[3]) && a[3].i == 0))
            return err(E, locs[3], MT_ERR_UNSUPPORTED, "bitcast is not supported");
        if (a[0].kind != CV_TENSOR) {
            if (!is_num(a[0]))
                return err(E, locs[0], MT_ERR_TYPE, "cannot cast %s",
                           cv_kind_name(E, a[0]));
            if (const_as(E, a[0], d, locs[0], &r) < 0)
                return -1;
        } else if (cast_val(E, a[0].v, d, loc, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    case B_MULTIPLE_OF: case B_MAX_CONTIGUOUS: case B_MAX_CONSTANCY:
        *out = a[0];
        return 0;
    case B_STATIC_ASSERT: {
        bool t = false;
        if (a[0].kind == CV_TENSOR)
            return err(E, locs[0], MT_ERR_TYPE,
                       "tl.static_assert() needs a compile-time condition");
        if (truth(E, a[0], locs[0], "", &t) < 0)
            return -1;
        if (!t) {
            if (a[1].kind == CV_STR && a[1].n)
                return err(E, loc, MT_ERR_TYPE, "static assertion failed: %s", a[1].s);
            return err(E, loc, MT_ERR_TYPE, "static assertion failed");
        }
        return 0;
    }
    case B_CONSTEXPR:
        *out = a[0];
        return 0;
    case B_FLOAT:
        if (!have[0]) {
            *out = cv_float(0);
            return 0;
        }
        if (is_num(a[0])) {
            *out = cv_float(num_f(a[0]));
            return 0;
        }
        if (a[0].kind == CV_STR) {
            const char *s = a[0].s;
            char *end;
            while (*s == ' ')
                s++;
            errno = 0;
            double v = strtod(s, &end);
            while (*end == ' ')
                end++;
            if (end == s || *end)
                return err(E, locs[0], MT_ERR_TYPE,
                           "could not convert string to float: '%s'", a[0].s);
            *out = cv_float(v);
            return 0;
        }
        if (a[0].kind == CV_TENSOR)
            return err(E, locs[0], MT_ERR_UNSUPPORTED,
                       "float() of a runtime value is not supported; use .to(tl.float32)");
        return err(E, locs[0], MT_ERR_TYPE, "float() argument must be a number or a string, got %s",
                   cv_kind_name(E, a[0]));
    case B_INT:
        if (!have[0]) {
            *out = cv_int(0);
            return 0;
        }
        if (is_intlike(a[0])) {
            *out = cv_int(a[0].i);
            return 0;
        }
        if (a[0].kind == CV_FLOAT) {
            if (!isfinite(a[0].f) || a[0].f >= 9.2233720368547758e18 ||
                a[0].f < -9.2233720368547758e18)
                return err(E, locs[0], MT_ERR_TYPE, "cannot convert float %g to int",
                           a[0].f);
            *out = cv_int((int64_t)a[0].f);
            return 0;
        }
        if (a[0].kind == CV_STR) {
            char *end;
            errno = 0;
            long long v = strtoll(a[0].s, &end, 10);
            if (end == a[0].s || *end || errno)
                return err(E, locs[0], MT_ERR_TYPE,
                           "invalid literal for int(): '%s'", a[0].s);
            *out = cv_int(v);
            return 0;
        }
        if (a[0].kind == CV_TENSOR)
            return err(E, locs[0], MT_ERR_UNSUPPORTED,
                       "int() of a runtime value is not supported; use .to(tl.int32)");
        return err(E, locs[0], MT_ERR_TYPE, "int() argument must be a number or a string, got %s",
                   cv_kind_name(E, a[0]));
    case B_BOOL: {
        bool t = false;
        if (have[0] && truth(E, a[0], locs[0],
                             "bool() of a runtime value is not supported; use '!= 0'",
                             &t) < 0)
            return -1;
        *out = cv_bool(t);
        return 0;
    }
    case B_STR:
        if (a[0].kind == CV_STR) {
            *out = a[0];
            return 0;
        }
        return err(E, locs[0], MT_ERR_UNSUPPORTED, "str() is only supported on strings");
    case B_LEN:
        if (a[0].kind == CV_TUPLE || a[0].kind == CV_STR) {
            *out = cv_int(a[0].n);
            return 0;
        }
        if (a[0].kind == CV_TENSOR && tty(E, a[0]).rank > 0) {
            *out = cv_int(tty(E, a[0]).shape[0]);
            return 0;
        }
        return err(E, locs[0], MT_ERR_TYPE, "object of type '%s' has no len()",
                   cv_kind_name(E, a[0]));
    case B_TYPE:
        switch (a[0].kind) {
        case CV_INT: *out = cv_builtin(B_INT); return 0;
        case CV_FLOAT: *out = cv_builtin(B_FLOAT); return 0;
        case CV_BOOL: *out = cv_builtin(B_BOOL); return 0;
        case CV_STR: *out = cv_builtin(B_STR); return 0;
        case CV_NONE: *out = cv_builtin(B_NONETYPE); return 0;
        default:
            return err(E, locs[0], MT_ERR_UNSUPPORTED,
                       "type() is only supported on compile-time numbers, strings and None");
        }
    default:
        return err(E, loc, MT_ERR_INTERNAL, "builtin %s is not implemented", fn);
    }
}

/* ------------------------------------------------------------- expressions */

static int eval_args(Elab *E, Node *call, Args *a) {
    memset(a, 0, sizeof *a);
    int n = call->nitems;
    if (n < 0)
        n = 0;
    a->pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(n + 1));
    a->posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)(n + 1));
    a->kw = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(n + 1));
    a->kwloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)(n + 1));
    a->kwname = arena_alloc(E->c->arena, sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        Node *it = call->items[i];
        if (!it)
            return err(E, call->loc, MT_ERR_SYNTAX, "missing argument");
        if (it->kind == ND_STARRED)
            return err(E, it->loc, MT_ERR_UNSUPPORTED, "'*args' in calls is not supported");
        if (it->kind == ND_KEYWORD) {
            if (!it->name)
                return err(E, it->loc, MT_ERR_UNSUPPORTED, "**kwargs are not supported");
            for (int k = 0; k < a->nkw; k++)
                if (!strcmp(a->kwname[k], it->name))
                    return err(E, it->loc, MT_ERR_SYNTAX, "keyword argument repeated: '%s'",
                               it->name);
            if (eval(E, it->rhs, &a->kw[a->nkw]) < 0)
                return -1;
            a->kwname[a->nkw] = it->name;
            a->kwloc[a->nkw++] = it->loc;
            continue;
        }
        if (a->nkw)
            return err(E, it->loc, MT_ERR_SYNTAX,
                       "positional argument follows keyword argument");
        if (eval(E, it, &a->pos[a->npos]) < 0)
            return -1;
        a->posloc[a->npos++] = it->loc;
    }
    return 0;
}

static int eval_call(Elab *E, Node *n, CV *out) {
    CV callee;
    Args a;
    if (!n->lhs)
        return err(E, n->loc, MT_ERR_SYNTAX, "missing callee");
    if (eval(E, n->lhs, &callee) < 0 || eval_args(E, n, &a) < 0)
        return -1;
    if (callee.kind == CV_BUILTIN)
        return call_builtin(E, callee.sub, &a, n->loc, out);
    if (callee.kind == CV_BOUND) {
        Args b = a;
        b.npos = a.npos + 1;
        b.pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)b.npos);
        b.posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)b.npos);
        b.pos[0] = callee.items[0];
        b.posloc[0] = n->loc;
        for (int i = 0; i < a.npos; i++) {
            b.pos[i + 1] = a.pos[i];
            b.posloc[i + 1] = a.posloc[i];
        }
        return call_builtin(E, callee.sub, &b, n->loc, out);
    }
    if (callee.kind == CV_JITFN)
        return call_jit(E, callee.fn, &a, n->loc, out);
    if (callee.kind == CV_DTYPE) {
        if (a.npos != 1 || a.nkw)
            return err(E, n->loc, MT_ERR_TYPE, "tl.%s() takes one argument",
                       tl_dtype_name(callee.sub));
        CV cargs[2] = {a.pos[0], callee};
        Args b;
        memset(&b, 0, sizeof b);
        b.npos = 2;
        b.pos = cargs;
        Loc pl[2] = {a.posloc[0], n->loc};
        b.posloc = pl;
        return call_builtin(E, B_CAST, &b, n->loc, out);
    }
    return err(E, n->loc, MT_ERR_TYPE, "'%s' object is not callable",
               cv_kind_name(E, callee));
}

static int index_tuple(Elab *E, CV t, CV idx, Loc loc, CV *out) {
    if (idx.kind == CV_SLICE) {
        int64_t lo = 0, hi = t.n, st = 1;
        if (idx.items[2].kind != CV_NONE && need_int(E, idx.items[2], loc, "slice step", &st) < 0)
            return -1;
        if (st != 1)
            return err(E, loc, MT_ERR_UNSUPPORTED, "slice steps other than 1 are not supported");
        if (idx.items[0].kind != CV_NONE && need_int(E, idx.items[0], loc, "slice start", &lo) < 0)
            return -1;
        if (idx.items[1].kind != CV_NONE && need_int(E, idx.items[1], loc, "slice stop", &hi) < 0)
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
    if (!is_intlike(idx))
        return err(E, loc, MT_ERR_TYPE, "%s indices must be integers, got %s",
                   cv_kind_name(E, t), cv_kind_name(E, idx));
    int64_t i = idx.i;
    if (i < 0)
        i += t.n;
    if (i < 0 || i >= t.n)
        return err(E, loc, MT_ERR_TYPE, "%s index %lld out of range",
                   cv_kind_name(E, t), (long long)idx.i);
    if (t.kind == CV_STR)
        *out = cv_str(arena_strndup(E->c->arena, t.s + i, 1), 1);
    else
        *out = t.items[i];
    return 0;
}

static int eval_subscript(Elab *E, Node *n, CV *out) {
    CV base, idx;
    if (!n->lhs || !n->rhs)
        return err(E, n->loc, MT_ERR_SYNTAX, "malformed subscript");
    if (eval(E, n->lhs, &base) < 0 || eval(E, n->rhs, &idx) < 0)
        return -1;
    if (base.kind == CV_TUPLE || base.kind == CV_STR)
        return index_tuple(E, base, idx, n->loc, out);
    if (base.kind != CV_TENSOR)
        return err(E, n->loc, MT_ERR_TYPE, "'%s' object is not subscriptable",
                   cv_kind_name(E, base));
    const CV *items = &idx;
    int ni = 1;
    if (idx.kind == CV_TUPLE && !idx.is_list) {
        items = idx.items;
        ni = idx.n;
    }
    ValId x = base.v;
    int d = 0, rank = val_type(E->f, x).rank;
    int nslices = 0;
    for (int i = 0; i < ni; i++) {
        CV it = items[i];
        bool full_slice = it.kind == CV_SLICE && it.items[0].kind == CV_NONE &&
                          it.items[1].kind == CV_NONE && it.items[2].kind == CV_NONE;
        if (!full_slice && it.kind != CV_NONE)
            return err(E, n->loc, MT_ERR_UNSUPPORTED,
                       "only ':' and None are supported when indexing a tensor");
        if (full_slice)
            nslices++;
    }
    if (nslices > rank)
        return err(E, n->loc, MT_ERR_TYPE, "too many indices for a rank-%d tensor", rank);
    for (int i = 0; i < ni; i++) {
        if (items[i].kind == CV_NONE) {
            if (expand_dims(E, x, d, n->loc, &x) < 0)
                return -1;
        }
        d++;
    }
    *out = cv_tensor(x);
    return 0;
}

static int eval_compare(Elab *E, Node *n, CV *out) {
    if (n->nitems < 2 || !n->ops)
        return err(E, n->loc, MT_ERR_SYNTAX, "malformed comparison");
    CV left;
    if (eval(E, n->items[0], &left) < 0)
        return -1;
    if (n->nitems == 2) {
        CV right;
        if (eval(E, n->items[1], &right) < 0)
            return -1;
        return compare(E, n->ops[0], left, right, n->loc, out);
    }
    for (int i = 1; i < n->nitems; i++) {
        CV right;
        if (eval(E, n->items[i], &right) < 0)
            return -1;
        if ((left.kind == CV_TENSOR || right.kind == CV_TENSOR) &&
            n->ops[i - 1] != OT_IS && n->ops[i - 1] != OT_IS_NOT)
            return err(E, n->loc, MT_ERR_UNSUPPORTED,
                       "chained comparison on runtime values; when combining "
                       "comparisons with &, wrap each comparison in parentheses");
        CV r;
        if (compare(E, n->ops[i - 1], left, right, n->loc, &r) < 0)
            return -1;
        if (!r.i) {
            *out = cv_bool(false);
            return 0;
        }
        left = right;
    }
    *out = cv_bool(true);
    return 0;
}

static int eval_unary(Elab *E, Node *n, CV *out) {
    CV v;
    if (!n->rhs)
        return err(E, n->loc, MT_ERR_SYNTAX, "missing operand");
    /* -9223372036854775808 is in range although its magnitude is not. */
    if (n->op == OT_MINUS && n->rhs->kind == ND_INT && n->rhs->big &&
        !strcmp(source_word(E, n->rhs->loc), "9223372036854775808")) {
        *out = cv_int(INT64_MIN);
        return 0;
    }
    if (eval(E, n->rhs, &v) < 0)
        return -1;
    if (n->op == OT_NOT) {
        bool t = false;
        if (truth(E, v, n->loc,
                  "'not' on a runtime value is not supported; use '~' on a bool "
                  "tensor or '== 0'",
                  &t) < 0)
            return -1;
        *out = cv_bool(!t);
        return 0;
    }
    if (v.kind == CV_TENSOR) {
        Type t = tty(E, v);
        ValId r;
        switch (n->op) {
        case OT_PLUS:
            *out = v;
            return 0;
        case OT_MINUS:
            if (type_is_bool(t))
                return err(E, n->loc, MT_ERR_TYPE, "cannot negate bool");
            if (emit1(E, OP_NEG, n->loc, v.v, &r) < 0)
                return -1;
            break;
        case OT_TILDE:
            if (emit1(E, OP_NOT, n->loc, v.v, &r) < 0)
                return -1;
            break;
        default:
            return err(E, n->loc, MT_ERR_UNSUPPORTED, "unsupported unary operator '%s'",
                       optok_str(n->op));
        }
        *out = cv_tensor(r);
        return 0;
    }
    if (!is_num(v))
        return err(E, n->loc, MT_ERR_TYPE, "bad operand type for unary %s: '%s'",
                   optok_str(n->op), cv_kind_name(E, v));
    switch (n->op) {
    case OT_PLUS:
        *out = v.kind == CV_BOOL ? cv_int(v.i) : v;
        return 0;
    case OT_MINUS:
        if (v.kind == CV_FLOAT) {
            *out = cv_float(-v.f);
            return 0;
        }
        if (v.i == INT64_MIN)
            return ct_overflow(E, n->loc);
        *out = cv_int(-v.i);
        return 0;
    case OT_TILDE:
        if (v.kind == CV_FLOAT)
            return err(E, n->loc, MT_ERR_TYPE, "bad operand type for unary ~: 'float'");
        *out = cv_int(~v.i);
        return 0;
    default:
        return err(E, n->loc, MT_ERR_UNSUPPORTED, "unsupported unary operator '%s'",
                   optok_str(n->op));
    }
}

static int eval_inner(Elab *E, Node *n, CV *out) {
    switch (n->kind) {
    case ND_NAME:
        if (!n->name)
            return err(E, n->loc, MT_ERR_SYNTAX, "missing name");
        return lookup_name(E, n->name, n->loc, out);
    case ND_INT:
        if (n->big)
            return err(E, n->loc, MT_ERR_TYPE, "integer literal %s is out of range",
                       source_word(E, n->loc));
        *out = cv_int(n->ival);
        return 0;
    case ND_FLOAT: *out = cv_float(n->fval); return 0;
    case ND_STR: *out = cv_str(n->sval, n->slen); return 0;
    case ND_BOOL: *out = cv_bool(n->ival != 0); return 0;
    case ND_NONE: *out = cv_none(); return 0;
    case ND_ELLIPSIS:
        *out = cv_none();
        out->kind = CV_ELLIPSIS;
        return 0;
    case ND_ATTR: {
        CV base;
        if (!n->lhs)
            return err(E, n->loc, MT_ERR_SYNTAX, "malformed attribute");
        if (eval(E, n->lhs, &base) < 0)
            return -1;
        return getattr(E, base, n->name, n->loc, out);
    }
    case ND_CALL: return eval_call(E, n, out);
    case ND_KEYWORD:
        return err(E, n->loc, MT_ERR_SYNTAX, "keyword argument outside a call");
    case ND_BINOP: {
        CV a, b;
        if (!n->lhs || !n->rhs)
            return err(E, n->loc, MT_ERR_SYNTAX, "missing operand");
        if (eval(E, n->lhs, &a) < 0 || eval(E, n->rhs, &b) < 0)
            return -1;
        return binop(E, n->op, a, b, n->loc, out);
    }
    case ND_UNARY: return eval_unary(E, n, out);
    case ND_COMPARE: return eval_compare(E, n, out);
    case ND_BOOLOP: {
        const char *msg = n->op == OT_AND
                              ? "'and' on runtime values is not supported; use '&' "
                                "and wrap each comparison in parentheses"
                              : "'or' on runtime values is not supported; use '|' "
                                "and wrap each comparison in parentheses";
        CV v = cv_none();
        for (int i = 0; i < n->nitems; i++) {
            bool t = false;
            if (eval(E, n->items[i], &v) < 0 || truth(E, v, n->loc, msg, &t) < 0)
                return -1;
            if ((n->op == OT_AND && !t) || (n->op == OT_OR && t))
                break;
        }
        *out = v;
        return 0;
    }
    case ND_IFEXP: {
        CV c;
        bool t = false;
        if (!n->cond || !n->then || !n->els)
            return err(E, n->loc, MT_ERR_SYNTAX, "malformed conditional expression");
        if (eval(E, n->cond, &c) < 0 ||
            truth(E, c, n->loc,
                  "conditional expression on a runtime value is not supported; "
                  "use tl.where",
                  &t) < 0)
            return -1;
        return eval(E, t ? n->then : n->els, out);
    }
    case ND_TUPLE:
    case ND_LIST: {
        CV t = cv_tuple(E, n->nitems > 0 ? n->nitems : 0);
        t.is_list = n->kind == ND_LIST;
        for (int i = 0; i < t.n; i++) {
            if (n->items[i] && n->items[i]->kind == ND_STARRED)
                return err(E, n->items[i]->loc, MT_ERR_UNSUPPORTED,
                           "starred expressions are not supported");
            if (eval(E, n->items[i], &t.items[i]) < 0)
                return -1;
        }
        *out = t;
        return 0;
    }
    case ND_DICT:
        return err(E, n->loc, MT_ERR_UNSUPPORTED, "dictionaries are not supported in kernels");
    case ND_SUBSCRIPT: return eval_subscript(E, n, out);
    case ND_SLICE: {
        CV s = cv_tuple(E, 3);
        s.kind = CV_SLICE;
        Node *parts[3] = {n->lhs, n->rhs, n->cond};
        for (int i = 0; i < 3; i++) {
            s.items[i] = cv_none();
            if (parts[i] && eval(E, parts[i], &s.items[i]) < 0)
                return -1;
        }
        *out = s;
        return 0;
    }
    case ND_STARRED:
        return err(E, n->loc, MT_ERR_UNSUPPORTED, "starred expressions are not supported");
    case ND_LAMBDA:
        return err(E, n->loc, MT_ERR_UNSUPPORTED, "lambda expressions are not supported in kernels");
    default:
        return err(E, n->loc, MT_ERR_UNSUPPORTED, "statement used as an expression");
    }
}

static int eval(Elab *E, Node *n, CV *out) {
    *out = cv_none();
    if (!n)
        return err(E, (Loc){0, 0}, MT_ERR_SYNTAX, "missing expression");
    if (HAS_ERROR(E->c))
        return -1;
    if (E->nest >= MAX_NEST)
        return err(E, n->loc, MT_ERR_UNSUPPORTED, "expression is nested too deeply");
    E->nest++;
    int rc = eval_inner(E, n, out);
    E->nest--;
    return rc;
}

/* ------------------------------------------------------------- jit helpers */

static bool is_constexpr_ann(const Node *a) {
    if (!a)
        return false;
    switch (a->kind) {
    case ND_NAME:
    case ND_ATTR:
        return a->name && !strcmp(a->name, "constexpr");
    case ND_STR:
        return a->sval && (!strcmp(a->sval, "tl.constexpr") ||
                           !strcmp(a->sval, "constexpr") ||
                           !strcmp(a->sval, "triton.language.constexpr"));
    case ND_SUBSCRIPT: {
        const Node *h = a->lhs;
        if (!h || (h->kind != ND_NAME && h->kind != ND_ATTR) || !h->name ||
            strcmp(h->name, "Annotated") || !a->rhs || a->rhs->kind != ND_TUPLE)
            return false;
        for (int i = 1; i < a->rhs->nitems; i++)
            if (is_constexpr_ann(a->rhs->items[i]))
                return true;
        return false;
    }
    default:
        return false;
    }
}

static int call_jit(Elab *E, TopFunc *tf, const Args *a, Loc loc, CV *out) {
    if (!tf->is_jit)
        return err(E, loc, MT_ERR_NAME, "function '%s' is not a @jit function", tf->name);
    if (E->inline_depth >= MAX_INLINE)
        return err(E, loc, MT_ERR_UNSUPPORTED, "recursion too deep inlining '%s'", tf->name);
    /* depth alone does not bound f(n-1) + f(n-1): count the work too */
    if (++E->work > MAX_WORK)
        return err(E, loc, MT_ERR_UNSUPPORTED,
                   "kernel elaboration too large (more than %d statements and calls) "
                   "inlining '%s'", MAX_WORK, tf->name);
    Node *fn = parse_function(E->c, E->m, tf);
    if (!fn)
        return -1;
    int np = fn->nparams > 0 ? fn->nparams : 0;
    CV *vals = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(np + 1));
    bool *have = arena_alloc(E->c->arena, (size_t)(np + 1));
    if (a->npos > np)
        return err(E, loc, MT_ERR_TYPE, "%s() takes %d arguments but %d were given",
                   tf->name, np, a->npos);
    for (int i = 0; i < a->npos; i++) {
        vals[i] = a->pos[i];
        have[i] = true;
    }
    for (int k = 0; k < a->nkw; k++) {
        int j = -1;
        for (int i = 0; i < np; i++)
            if (fn->params[i].name && !strcmp(fn->params[i].name, a->kwname[k]))
                j = i;
        if (j < 0)
            return err(E, a->kwloc[k], MT_ERR_TYPE,
                       "%s() got an unexpected keyword argument '%s'", tf->name,
                       a->kwname[k]);
        if (have[j])
            return err(E, a->kwloc[k], MT_ERR_TYPE,
                       "%s() got multiple values for argument '%s'", tf->name,
                       a->kwname[k]);
        vals[j] = a->kw[k];
        have[j] = true;
    }
    Scope fresh = {0};
    Scope *saved_scope = E->scope;
    E->scope = &fresh;
    int rc = 0;
    for (int i = 0; i < np && rc == 0; i++) {
        Param *p = &fn->params[i];
        if (!p->name) {
            rc = err(E, p->loc, MT_ERR_UNSUPPORTED, "unsupported parameter form");
            break;
        }
        if (!have[i]) {
            if (!p->deflt) {
                rc = err(E, loc, MT_ERR_TYPE, "%s() missing required argument '%s'",
                         tf->name, p->name);
                break;
            }
            if (eval(E, p->deflt, &vals[i]) < 0) {
                rc = -1;
                break;
            }
        }
        if (is_constexpr_ann(p->annotation) && vals[i].kind == CV_TENSOR) {
            rc = err(E, loc, MT_ERR_TYPE,
                     "argument '%s' of '%s' is a tl.constexpr and needs a "
                     "compile-time value",
                     p->name, tf->name);
            break;
        }
        scope_set(E, p->name, vals[i]);
    }
    bool saved_ret = E->returned;
    CV saved_val = E->retval;
    int saved_loops = E->loop_depth;
    E->returned = false;
    E->retval = cv_none();
    E->loop_depth = 0;
    E->inline_depth++;
    if (rc == 0)
        rc = exec_block(E, fn->body, fn->nbody);
    E->inline_depth--;
    *out = E->retval;
    E->returned = saved_ret;
    E->retval = saved_val;
    E->loop_depth = saved_loops;
    E->scope = saved_scope;
    return rc;
}

/* -------------------------------------------------------------- statements */

static int assign_target(Elab *E, Node *t, CV v) {
    if (!t)
        return err(E, (Loc){0, 0}, MT_ERR_SYNTAX, "missing assignment target");
    if (t->kind == ND_NAME && t->name) {
        scope_set(E, t->name, v);
        return 0;
    }
    if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
        if (v.kind != CV_TUPLE)
            return err(E, t->loc, MT_ERR_TYPE, "cannot unpack %s into %d names",
                       cv_kind_name(E, v), t->nitems);
        if (v.n != t->nitems)
            return err(E, t->loc, MT_ERR_TYPE,
                       "cannot unpack %d values into %d names", v.n, t->nitems);
        for (int i = 0; i < t->nitems; i++)
            if (assign_target(E, t->items[i], v.items[i]) < 0)
                return -1;
        return 0;
    }
    if (t->kind == ND_STARRED)
        return err(E, t->loc, MT_ERR_UNSUPPORTED, "starred assignment is not supported");
    return err(E, t->loc, MT_ERR_UNSUPPORTED,
               "only assignment to names and tuples of names is supported");
}

/* Names assigned anywhere in stmts (first-appearance order). */
typedef struct NameList {
    const char **names;
    Loc *locs;
    int n, cap, capl;
} NameList;

static void names_add(Elab *E, NameList *l, const char *name, Loc loc) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name))
            return;
    int n2 = l->n;
    VEC_PUSH(E->c->arena, l->locs, n2, l->capl, loc);
    VEC_PUSH(E->c->arena, l->names, l->n, l->cap, name);
}

static void collect_target(Elab *E, NameList *l, Node *t, int depth) {
    if (!t || depth > MAX_NEST)
        return;
    if (t->kind == ND_NAME && t->name)
        names_add(E, l, t->name, t->loc);
    else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
        for (int i = 0; i < t->nitems; i++)
            collect_target(E, l, t->items[i], depth + 1);
}

static void collect_assigned(Elab *E, NameList *l, Node **stmts, int n, int depth) {
    if (depth > MAX_NEST)
        return;
    for (int i = 0; i < n; i++) {
        Node *s = stmts[i];
        if (!s)
            continue;
        switch (s->kind) {
        case ND_ASSIGN:
            for (int k = 0; k < s->nitems; k++)
                collect_target(E, l, s->items[k], depth);
            break;
        case ND_ANNASSIGN:
            if (s->rhs && s->nitems > 0)
                collect_target(E, l, s->items[0], depth);
            break;
        case ND_AUGASSIGN:
            if (s->nitems > 0)
                collect_target(E, l, s->items[0], depth);
            break;
        case ND_FOR:
        case ND_WHILE:
        case ND_IF:
            collect_assigned(E, l, s->body, s->nbody, depth + 1);
            collect_assigned(E, l, s->orelse, s->norelse, depth + 1);
            break;
        default:
            break;
        }
    }
}

static int carry_init(Elab *E, const char *name, CV v, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR || is_num(v))
        return materialise(E, v, loc, out);
    return err(E, loc, MT_ERR_TYPE,
               "loop-carried variable '%s' must be a number or a tensor before the "
               "loop, got %s",
               name, cv_kind_name(E, v));
}

static int yield_value(Elab *E, const char *name, CV v, Type ct, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = tty(E, v);
        if (type_eq(t, ct)) {
            *out = v.v;
            return 0;
        }
        if (ct.rank == 0 && t.rank > 0)
            return err(E, loc, MT_ERR_TYPE,
                       "loop-carried variable '%s' changes type from %s to %s; "
                       "initialise it with tl.zeros",
                       name, type_text(E, ct), type_text(E, t));
        return err(E, loc, MT_ERR_TYPE, "loop-carried variable '%s' changes type from %s to %s",
                   name, type_text(E, ct), type_text(E, t));
    }
    if (is_num(v) && ct.rank == 0 && !ct.is_ptr) {
        bool ok = (v.kind == CV_BOOL) == (ct.dtype == DT_I1) &&
                  !(v.kind == CV_FLOAT && ct.dtype != DT_F32);
        if (ok) {
            if (v.kind == CV_INT && ct.dtype == DT_I32 && !fits_i32(v.i))
                ok = false;
            else
                return const_as(E, v, (DType)ct.dtype, loc, out);
        }
        ValId m;
        if (materialise(E, v, loc, &m) < 0)
            return -1;
        return err(E, loc, MT_ERR_TYPE, "loop-carried variable '%s' changes type from %s to %s",
                   name, type_text(E, ct), type_text(E, val_type(E->f, m)));
    }
    return err(E, loc, MT_ERR_TYPE, "loop-carried variable '%s' changes type from %s to %s",
               name, type_text(E, ct), cv_kind_name(E, v));
}

static int loop_bound(Elab *E, CV v, Loc loc, const char *what, ValId *out) {
    if (v.kind == CV_INT || v.kind == CV_BOOL) {
        if (!fits_i32(v.i))
            return err(E, loc, MT_ERR_TYPE, "runtime loop %s %lld does not fit in i32", what,
                       (long long)v.i);
        *out = const_int(E->f, DT_I32, v.i);
        return 0;
    }
    if (v.kind == CV_TENSOR) {
        Type t = tty(E, v);
        if (!type_eq(t, type_scalar(DT_I32)))
            return err(E, loc, MT_ERR_TYPE, "runtime loop %s must be a scalar i32, got %s",
                       what, type_text(E, t));
        *out = v.v;
        return 0;
    }
    return err(E, loc, MT_ERR_TYPE, "runtime loop %s must be a scalar i32, got %s", what,
               cv_kind_name(E, v));
}

/* The bounds of a range(), tl.range() or tl.static_range() header, bound
 * as Triton binds them: positionally or by keyword (arg1, arg2, step).
 * Python's range() takes no keywords; tl.range's scheduling hints
 * (num_stages, loop_unroll_factor, ...) never change results in Triton and
 * are checked for type only. */
typedef struct RangeArgs {
    CV start, stop, step;
    Loc start_loc, stop_loc;
} RangeArgs;

static int bind_range(Elab *E, int b, Loc loc, const Args *a, RangeArgs *out) {
    if (b == B_RANGE) {
        if (a->nkw)
            return err(E, a->kwloc[0], MT_ERR_TYPE, "range() takes no keyword arguments");
        if (a->npos < 1 || a->npos > 3)
            return err(E, loc, MT_ERR_TYPE, "range expected 1 to 3 arguments, got %d",
                       a->npos);
    }
    CV v[MAX_BUILTIN_PARAMS];
    bool have[MAX_BUILTIN_PARAMS];
    Loc locs[MAX_BUILTIN_PARAMS];
    if (b == B_RANGE) {
        for (int i = 0; i < MAX_BUILTIN_PARAMS; i++) {
            have[i] = i < a->npos;
            v[i] = have[i] ? a->pos[i] : cv_none();
            locs[i] = have[i] ? a->posloc[i] : loc;
        }
    } else if (bind_builtin(E, b, loc, a, v, have, locs) < 0) {
        return -1;
    }
    for (int i = 3; b == B_TL_RANGE && i < MAX_BUILTIN_PARAMS; i++) {
        bool is_flag = i >= 5; /* disallow_acc_multi_buffer and after */
        if (!have[i] || v[i].kind == CV_NONE)
            continue;
        if (is_flag ? !is_intlike(v[i]) : v[i].kind != CV_INT)
            return err(E, locs[i], MT_ERR_TYPE, "tl.range %s must be a compile-time %s",
                       builtin_info[b].params[i], is_flag ? "bool" : "integer");
    }
    bool two = have[1] && v[1].kind != CV_NONE;
    out->start = two ? v[0] : cv_int(0);
    out->start_loc = two ? locs[0] : loc;
    out->stop = two ? v[1] : v[0];
    out->stop_loc = two ? locs[1] : locs[0];
    out->step = have[2] && v[2].kind != CV_NONE ? v[2] : cv_int(1);
    return 0;
}

static int exec_for(Elab *E, Node *s) {
    Node *tgt = s->nitems > 0 ? s->items[0] : NULL;
    if (s->norelse > 0)
        return err(E, s->loc, MT_ERR_UNSUPPORTED, "for/else is not supported");
    if (!tgt || tgt->kind != ND_NAME || !tgt->name)
        return err(E, tgt ? tgt->loc : s->loc, MT_ERR_UNSUPPORTED,
                   "only for loops with a simple induction variable are supported");
    Node *it = s->rhs;
    CV callee;
    if (!it || it->kind != ND_CALL || !it->lhs)
        return err(E, it ? it->loc : s->loc, MT_ERR_UNSUPPORTED,
                   "only 'for ... in range(...)' and 'for ... in tl.static_range(...)' "
                   "loops are supported");
    if (eval(E, it->lhs, &callee) < 0)
        return -1;
    if (callee.kind != CV_BUILTIN ||
        (callee.sub != B_RANGE && callee.sub != B_STATIC_RANGE && callee.sub != B_TL_RANGE))
        return err(E, it->loc, MT_ERR_UNSUPPORTED,
                   "only 'for ... in range(...)' and 'for ... in tl.static_range(...)' "
                   "loops are supported");
    bool is_static = callee.sub == B_STATIC_RANGE;
    Args a;
    if (eval_args(E, it, &a) < 0)
        return -1;
    RangeArgs ra;
    if (bind_range(E, callee.sub, it->loc, &a, &ra) < 0)
        return -1;
    CV start = ra.start, stop = ra.stop, step = ra.step;
    bool all_ct = is_intlike(start) && is_intlike(stop) && is_intlike(step);
    if (is_static && !all_ct)
        return err(E, it->loc, MT_ERR_TYPE, "tl.static_range bounds must be compile-time integers");
    const char *iname = tgt->name;
    if (all_ct) {
        if (step.i == 0)
            return err(E, it->loc, MT_ERR_TYPE, "range() step must not be zero");
        uint64_t trip = 0;
        if (step.i > 0 && stop.i > start.i)
            trip = ((uint64_t)stop.i - (uint64_t)start.i - 1) / (uint64_t)step.i + 1;
        else if (step.i < 0 && stop.i < start.i)
            trip = ((uint64_t)start.i - (uint64_t)stop.i - 1) / (uint64_t)(-(step.i + 1) + 1ull) + 1;
        if (is_static || trip <= MAX_AUTO_UNROLL) {
            if (trip > (uint64_t)(MAX_UNROLL - E->unrolled))
                return err(E, it->loc, MT_ERR_UNSUPPORTED,
                           "too many unrolled loop iterations (more than %d)", MAX_UNROLL);
            Binding *old = scope_find(E->scope, iname);
            bool had = old != NULL;
            CV oldv = had ? old->v : cv_none();
            int64_t i = start.i;
            E->loop_depth++;
            for (uint64_t k = 0; k < trip; k++) {
                E->unrolled++;
                scope_set(E, iname, cv_int(i));
                if (exec_block(E, s->body, s->nbody) < 0) {
                    E->loop_depth--;
                    return -1;
                }
                if (k + 1 < trip)
                    i += step.i; /* stays within [start, stop) */
            }
            E->loop_depth--;
            if (had)
                scope_set(E, iname, oldv);
            else
                scope_remove(E->scope, iname);
            return 0;
        }
    }
    /* runtime loop */
    if (!is_intlike(step) || step.i <= 0 || !fits_i32(step.i))
        return err(E, it->loc, MT_ERR_TYPE, "runtime loop step must be a positive compile-time integer");
    ValId vstart, vstop, vstep = const_int(E->f, DT_I32, step.i);
    if (loop_bound(E, start, ra.start_loc, "start", &vstart) < 0 ||
        loop_bound(E, stop, ra.stop_loc, "stop", &vstop) < 0)
        return -1;
    NameList assigned = {0};
    collect_assigned(E, &assigned, s->body, s->nbody, 0);
    for (int i = 0; i < assigned.n; i++)
        if (!strcmp(assigned.names[i], iname))
            return err(E, assigned.locs[i], MT_ERR_UNSUPPORTED,
                       "assignment to the runtime loop index '%s' is not supported", iname);
    const char **cnames = arena_alloc(E->c->arena, sizeof(char *) * (size_t)(assigned.n + 1));
    ValId *inits = arena_alloc(E->c->arena, sizeof(ValId) * (size_t)(assigned.n + 1));
    int nc = 0;
    for (int i = 0; i < assigned.n; i++) {
        Binding *b = scope_find(E->scope, assigned.names[i]);
        if (!b)
            continue;
        if (carry_init(E, assigned.names[i], b->v, assigned.locs[i], &inits[nc]) < 0)
            return -1;
        cnames[nc++] = assigned.names[i];
    }
    if (E->const_eval)
        return err(E, s->loc, MT_ERR_TYPE, "module-level constants must be compile-time values");
    Op *op = op_new_for(E->f, E->region, s->loc, vstart, vstop, vstep, inits, nc);
    /* snapshot the scope: names first bound in the body vanish afterwards */
    int n0 = E->scope->n;
    Binding *snap = arena_alloc(E->c->arena, sizeof(Binding) * (size_t)(n0 + 1));
    if (n0)
        memcpy(snap, E->scope->b, sizeof(Binding) * (size_t)n0);
    scope_set(E, iname, cv_tensor(op->index));
    for (int k = 0; k < nc; k++)
        scope_set(E, cnames[k], cv_tensor(op->iters[k]));
    Region *saved = E->region;
    E->region = op->body;
    E->loop_depth++;
    int rc = exec_block(E, s->body, s->nbody);
    E->loop_depth--;
    for (int k = 0; k < nc && rc == 0; k++) {
        Binding *b = scope_find(E->scope, cnames[k]);
        CV v = b ? b->v : cv_tensor(op->iters[k]);
        rc = yield_value(E, cnames[k], v, val_type(E->f, op->iters[k]), s->loc,
                         &op->yields[k]);
    }
    E->region = saved;
    if (rc < 0)
        return -1;
    E->scope->n = 0;
    for (int i = 0; i < n0; i++)
        VEC_PUSH(E->c->arena, E->scope->b, E->scope->n, E->scope->cap, snap[i]);
    for (int k = 0; k < nc; k++)
        scope_set(E, cnames[k], cv_tensor(op->res[k]));
    return 0;
}

static int exec_stmt(Elab *E, Node *s) {
    if (++E->work > MAX_WORK)
        return err(E, s->loc, MT_ERR_UNSUPPORTED,
                   "kernel elaboration too large (more than %d statements and calls)",
                   MAX_WORK);
    switch (s->kind) {
    case ND_EXPR_STMT: {
        CV v;
        if (!s->rhs || s->rhs->kind == ND_STR)
            return 0;
        return eval(E, s->rhs, &v);
    }
    case ND_ASSIGN: {
        CV v;
        if (eval(E, s->rhs, &v) < 0)
            return -1;
        for (int i = 0; i < s->nitems; i++)
            if (assign_target(E, s->items[i], v) < 0)
                return -1;
        return 0;
    }
    case ND_ANNASSIGN: {
        CV v;
        Node *t = s->nitems > 0 ? s->items[0] : NULL;
        if (!t || t->kind != ND_NAME)
            return err(E, t ? t->loc : s->loc, MT_ERR_UNSUPPORTED,
                       "only assignment to names and tuples of names is supported");
        if (!s->rhs)
            return 0;
        if (eval(E, s->rhs, &v) < 0)
            return -1;
        if (is_constexpr_ann(s->lhs) && v.kind == CV_TENSOR)
            return err(E, s->rhs->loc, MT_ERR_TYPE,
                       "'%s' is annotated tl.constexpr but its value is not a "
                       "compile-time constant",
                       t->name);
        return assign_target(E, t, v);
    }
    case ND_AUGASSIGN: {
        Node *t = s->nitems > 0 ? s->items[0] : NULL;
        CV cur, v, r;
        if (!t || t->kind != ND_NAME || !t->name)
            return err(E, t ? t->loc : s->loc, MT_ERR_UNSUPPORTED,
                       "only assignment to names is supported in augmented assignment");
        if (lookup_name(E, t->name, t->loc, &cur) < 0 || eval(E, s->rhs, &v) < 0 ||
            binop(E, s->op, cur, v, s->loc, &r) < 0)
            return -1;
        scope_set(E, t->name, r);
        return 0;
    }
    case ND_FOR: return exec_for(E, s);
    case ND_IF: {
        CV c;
        bool t = false;
        if (eval(E, s->cond, &c) < 0 ||
            truth(E, c, s->cond ? s->cond->loc : s->loc,
                  "'if' on a runtime value is not supported; use tl.where", &t) < 0)
            return -1;
        return t ? exec_block(E, s->body, s->nbody) : exec_block(E, s->orelse, s->norelse);
    }
    case ND_PASS: return 0;
    case ND_RETURN: {
        CV v = cv_none();
        if (E->loop_depth > 0)
            return err(E, s->loc, MT_ERR_UNSUPPORTED, "'return' inside a loop is not supported");
        if (s->rhs) {
            if (E->inline_depth == 0)
                return err(E, s->loc, MT_ERR_UNSUPPORTED, "a kernel cannot return a value");
            if (eval(E, s->rhs, &v) < 0)
                return -1;
        }
        E->returned = true;
        E->retval = v;
        return 0;
    }
    case ND_ASSERT: {
        CV c, m;
        bool t = false;
        if (eval(E, s->cond, &c) < 0 ||
            truth(E, c, s->loc, "'assert' on a runtime value is not supported", &t) < 0)
            return -1;
        if (t)
            return 0;
        if (s->rhs) {
            if (eval(E, s->rhs, &m) < 0)
                return -1;
            if (m.kind == CV_STR)
                return err(E, s->loc, MT_ERR_TYPE, "assertion failed: %s", m.s);
        }
        return err(E, s->loc, MT_ERR_TYPE, "assertion failed");
    }
    case ND_WHILE:
        return err(E, s->loc, MT_ERR_UNSUPPORTED, "'while' loops are not supported in kernels");
    case ND_BREAK:
        return err(E, s->loc, MT_ERR_UNSUPPORTED, "'break' is not supported in kernels");
    case ND_CONTINUE:
        return err(E, s->loc, MT_ERR_UNSUPPORTED, "'continue' is not supported in kernels");
    case ND_FUNCDEF:
        return err(E, s->loc, MT_ERR_UNSUPPORTED,
                   "nested function definitions are not supported in kernels");
    case ND_OTHER_STMT: {
        static const struct { const char *ast, *msg; } other[] = {
            {"FunctionDef", "nested function definitions are not supported in kernels"},
            {"AsyncFunctionDef", "nested function definitions are not supported in kernels"},
            {"ClassDef", "class definitions are not supported in kernels"},
            {"With", "'with' statements are not supported in kernels"},
            {"AsyncWith", "'with' statements are not supported in kernels"},
            {"AsyncFor", "'async for' loops are not supported in kernels"},
            {"Try", "'try' statements are not supported in kernels"},
            {"Match", "'match' statements are not supported in kernels"},
            {"Global", "'global' statements are not supported in kernels"},
            {"Nonlocal", "'nonlocal' statements are not supported in kernels"},
            {"Delete", "'del' statements are not supported in kernels"},
            {"Import", "'import' statements are not supported in kernels"},
            {"ImportFrom", "'import' statements are not supported in kernels"},
            {"Raise", "'raise' statements are not supported in kernels"},
            {"Yield", "'yield' is not supported in kernels"},
        };
        for (size_t i = 0; s->name && i < sizeof other / sizeof other[0]; i++)
            if (!strcmp(other[i].ast, s->name))
                return err(E, s->loc, MT_ERR_UNSUPPORTED, "%s", other[i].msg);
        return err(E, s->loc, MT_ERR_UNSUPPORTED, "'%s' statements are not supported in kernels",
                   s->name ? s->name : "this");
    }
    default: {
        /* an expression node in statement position */
        CV v;
        return eval(E, s, &v);
    }
    }
}

static int exec_block(Elab *E, Node **stmts, int n) {
    for (int i = 0; i < n && !E->returned; i++) {
        Node *s = stmts[i];
        if (!s)
            continue;
        if (HAS_ERROR(E->c))
            return -1;
        if (E->nest >= MAX_NEST)
            return err(E, s->loc, MT_ERR_UNSUPPORTED, "statements are nested too deeply");
        E->nest++;
        int rc = exec_stmt(E, s);
        E->nest--;
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ----------------------------------------------------------------- driver */

static const char *sig_type_name(DType d) {
    switch (d) {
    case DT_I1: return "i1";
    case DT_I32: return "i32";
    case DT_I64: return "i64";
    case DT_F32: return "fp32";
    default: return "void";
    }
}

static bool valid_dtype(DType d) {
    return d == DT_I1 || d == DT_I32 || d == DT_I64 || d == DT_F32;
}

Func *elaborate(Ctx *c, const ElabInput *in) {
    if (!c || !in || !in->module || !in->kernel) {
        if (c)
            diag_error(c, (Loc){0, 0}, MT_ERR_ARG, "missing elaboration input");
        return NULL;
    }
    TopFunc *tf = module_find_func(in->module, in->kernel);
    if (!tf) {
        diag_error(c, (Loc){0, 0}, MT_ERR_NAME, "kernel '%s' not found in %s", in->kernel,
                   c->filename ? c->filename : "<kernel>");
        return NULL;
    }
    Node *fn = parse_function(c, in->module, tf);
    if (!fn)
        return NULL;
    if (fn->nparams != in->nsig) {
        diag_error(c, fn->loc, MT_ERR_SIGNATURE,
                   "signature has %d entr%s but kernel '%s' has %d parameter%s", in->nsig,
                   in->nsig == 1 ? "y" : "ies", in->kernel, fn->nparams,
                   fn->nparams == 1 ? "" : "s");
        return NULL;
    }
    Elab E;
    memset(&E, 0, sizeof E);
    Scope scope = {0};
    E.c = c;
    E.m = in->module;
    E.in = in;
    E.scope = &scope;
    E.f = func_new(c, in->kernel);
    if (in->num_warps > 0)
        E.f->num_warps = in->num_warps;
    E.region = &E.f->body;
    int nk = in->module->nconsts > 0 ? in->module->nconsts : 0;
    E.const_vals = arena_alloc(c->arena, sizeof(CV) * (size_t)(nk + 1));
    E.const_state = arena_alloc(c->arena, (size_t)(nk + 1));
    for (int i = 0; i < fn->nparams; i++) {
        Param *p = &fn->params[i];
        SigEntry *se = &in->sig[i];
        const char *pname = p->name ? p->name : "?";
        if (is_constexpr_ann(p->annotation)) {
            if (se->kind != SIG_CONST) {
                diag_error(c, p->loc, MT_ERR_SIGNATURE,
                           "constexpr parameter '%s' needs a value in the signature, got %s%s",
                           pname, se->kind == SIG_PTR ? "*" : "",
                           sig_type_name(se->dtype));
                return NULL;
            }
            CV v;
            if (cv_from_const(&E, &se->value, &v) < 0) {
                diag_error(c, p->loc, MT_ERR_SIGNATURE, "invalid value for '%s'", pname);
                return NULL;
            }
            scope_set(&E, pname, v);
            continue;
        }
        if (se->kind == SIG_CONST) {
            diag_error(c, p->loc, MT_ERR_SIGNATURE,
                       "parameter '%s' is not a tl.constexpr; give its type, not a value",
                       pname);
            return NULL;
        }
        if (!valid_dtype(se->dtype)) {
            diag_error(c, p->loc, MT_ERR_SIGNATURE, "invalid type for parameter '%s'", pname);
            return NULL;
        }
        Type t = se->kind == SIG_PTR ? type_ptr(se->dtype) : type_scalar(se->dtype);
        ValId v = func_add_param(E.f, pname, t);
        val(E.f, v)->divisibility = se->hint;
        scope_set(&E, pname, cv_tensor(v));
    }
    if (exec_block(&E, fn->body, fn->nbody) < 0 || HAS_ERROR(c))
        return NULL;
    return E.f;
}
