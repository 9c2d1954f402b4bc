/* builtins.c: the names of the kernel language and the builtins behind them.
 *
 * Input: a call of a builtin (tl.*, triton.*, a Python builtin, a tensor
 * method such as x.to(...), or a dtype such as tl.float32(x)) with its
 * evaluated arguments; or an attribute of a module, tensor or dtype.
 * Output: a CV, after emitting the ops the builtin stands for into the
 * elaboration's current region.
 *
 * One table, `builtins`, has a row per builtin: the name messages use, the
 * namespaces that name it (tl, triton, Python, tensor method), its
 * parameters and the check each one gets, its handler, the IR op it maps
 * to, and a one-line usage.  A call is bound to the parameters the way
 * Python binds them, then every parameter's check runs once, in parameter
 * order (tensor operand, pointer, block, compile-time int, new axis, block
 * shape, dtype), and the handler reads the checked values from the Call.
 * Builtins that are one IR op share a generic handler and differ only in
 * their row, so a unary math function such as tl.cos is one row here plus
 * its row in ops.def.  The same table lists the names for the Python
 * bindings (mt_language_name), so mytriton.language and the compiler
 * cannot disagree about what a kernel may call.
 *
 * Invariants: checks a handler could reorder stay in the handler (the
 * first error wins, so the order of checks is part of the behaviour);
 * messages name a builtin as its row's display name; nothing here keeps
 * state between calls. */
#include "mt.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BLOCK_NUMEL (1 << 24)

/* ------------------------------------------------------------- the table */

/* What a parameter must be; the checked value lands in the Call. */
typedef enum ParamCheck {
    P_ANY,         /* the handler looks at it */
    P_TENSOR,      /* a tensor; a number becomes a constant (Call.t) */
    P_POINTER,     /* a pointer tensor (Call.t) */
    P_BLOCK,       /* a block tensor, numbers refused (Call.t, Call.block) */
    P_INT,         /* a compile-time int (Call.i) */
    P_NEW_AXIS,    /* an axis of parameter 0's rank + 1, normalised (Call.i) */
    P_SHAPE,       /* a block shape: int or tuple of ints (Call.rank, shape) */
    P_BLOCK_DTYPE, /* the dtype of a new block (Call.dtype, Call.block) */
    P_DTYPE        /* a target dtype (Call.dtype) */
} ParamCheck;

typedef struct BuiltinParam {
    const char *name;
    uint8_t check; /* ParamCheck */
} BuiltinParam;

/* Where a name is visible; UNBOUND builtins take any arguments and their
 * handler reads Call.args (print, min/max, the loop ranges, ...). */
enum { IN_TL = 1, IN_TRITON = 2, IN_PY = 4, IN_METHOD = 8, UNBOUND = 16, IN_DTYPE = 32 };

typedef struct Call Call;
typedef int (*BuiltinFn)(Elab *E, Call *c, CV *out);

typedef struct Builtin {
    const char *display; /* in messages; the part after the last '.' is
                            the name in each namespace of `flags` */
    uint8_t flags;
    BuiltinFn fn;
    OpCode op;           /* what the generic handlers emit; OP_COUNT: none */
    int nreq;            /* leading parameters that are required */
    BuiltinParam params[MAX_BUILTIN_PARAMS];
    const char *doc;     /* usage for the Python bindings */
} Builtin;

/* A call bound to a builtin's parameters, and the checked values. */
struct Call {
    const Builtin *b;
    Loc loc;
    const Args *args;               /* as written (UNBOUND builtins) */
    CV a[MAX_BUILTIN_PARAMS];       /* bound arguments; None when absent */
    bool have[MAX_BUILTIN_PARAMS];
    Loc locs[MAX_BUILTIN_PARAMS];   /* the call's location when absent */
    ValId t[MAX_BUILTIN_PARAMS];    /* P_TENSOR, P_POINTER, P_BLOCK */
    int64_t i[MAX_BUILTIN_PARAMS];  /* P_INT, P_NEW_AXIS */
    int rank;                       /* P_SHAPE */
    int32_t shape[MT_MAX_RANK];
    DType dtype;                    /* P_BLOCK_DTYPE, P_DTYPE */
    Type block;                     /* P_BLOCK, or P_SHAPE with P_BLOCK_DTYPE */
};

static int h_grid_axis(Elab *E, Call *c, CV *out);
static int h_arange(Elab *E, Call *c, CV *out);
static int h_load(Elab *E, Call *c, CV *out);
static int h_store(Elab *E, Call *c, CV *out);
static int h_elementwise(Elab *E, Call *c, CV *out);
static int h_abs(Elab *E, Call *c, CV *out);
static int h_where(Elab *E, Call *c, CV *out);
static int h_reduce(Elab *E, Call *c, CV *out);
static int h_fill(Elab *E, Call *c, CV *out);
static int h_cdiv(Elab *E, Call *c, CV *out);
static int h_dot(Elab *E, Call *c, CV *out);
static int h_axis_op(Elab *E, Call *c, CV *out);
static int h_broadcast_to(Elab *E, Call *c, CV *out);
static int h_cast(Elab *E, Call *c, CV *out);
static int h_identity(Elab *E, Call *c, CV *out);
static int h_static_assert(Elab *E, Call *c, CV *out);
static int h_ignore(Elab *E, Call *c, CV *out);
static int h_loop_only(Elab *E, Call *c, CV *out);
static int h_jit(Elab *E, Call *c, CV *out);
static int h_py_min_max(Elab *E, Call *c, CV *out);
static int h_nonetype(Elab *E, Call *c, CV *out);
static int h_float(Elab *E, Call *c, CV *out);
static int h_int(Elab *E, Call *c, CV *out);
static int h_bool(Elab *E, Call *c, CV *out);
static int h_str(Elab *E, Call *c, CV *out);
static int h_len(Elab *E, Call *c, CV *out);
static int h_type(Elab *E, Call *c, CV *out);
static int h_dtype_method(Elab *E, Call *c, CV *out);

/* The methods of a dtype value (x.dtype.is_floating()), each a predicate
 * on the dtype, as Triton's tl.dtype defines them. */
#define DTYPE_METHODS(X)                                                           \
    X(is_floating) X(is_int) X(is_int_signed) X(is_int_unsigned) X(is_bool)       \
    X(is_fp8) X(is_fp16) X(is_bf16) X(is_fp32) X(is_fp64) X(is_int1) X(is_int8)  \
    X(is_int16) X(is_int32) X(is_int64) X(is_uint8) X(is_uint16) X(is_uint32)    \
    X(is_uint64) X(is_ptr) X(is_standard_floating) X(is_void) X(is_block)         \
    X(is_fp8e4nv) X(is_fp8e5)

#define TL_ (IN_TL)
#define TLM (IN_TL | IN_METHOD)
#define ANY(n) {n, P_ANY}

static const Builtin builtins[] = {
    /* the rows code refers to (BuiltinId) */
    [B_RANGE] = {"range", IN_PY | UNBOUND, h_loop_only, OP_COUNT, 0, {{0}}, NULL},
    [B_STATIC_RANGE] = {"tl.static_range", TL_ | UNBOUND, h_loop_only, OP_COUNT, 1,
        {ANY("arg1"), ANY("arg2"), ANY("step")},
        "static_range(arg1, arg2=None, step=None): a loop unrolled at compile time"},
    [B_TL_RANGE] = {"tl.range", TL_ | UNBOUND, h_loop_only, OP_COUNT, 1,
        {ANY("arg1"), ANY("arg2"), ANY("step"), ANY("num_stages"),
         ANY("loop_unroll_factor"), ANY("disallow_acc_multi_buffer"), ANY("flatten"),
         ANY("warp_specialize"), ANY("disable_licm")},
        "range(arg1, arg2=None, step=None, num_stages=None, ...): a runtime loop"},
    [B_CAST] = {"tl.cast", TL_, h_cast, OP_CAST, 2,
        {ANY("input"), {"dtype", P_DTYPE}, ANY("fp_downcast_rounding"), ANY("bitcast")},
        "cast(input, dtype)"},
    [B_FLOAT] = {"float", IN_PY, h_float, OP_COUNT, 0, {ANY("x")}, NULL},
    [B_INT] = {"int", IN_PY, h_int, OP_COUNT, 0, {ANY("x")}, NULL},
    [B_BOOL] = {"bool", IN_PY, h_bool, OP_COUNT, 0, {ANY("x")}, NULL},
    [B_STR] = {"str", IN_PY, h_str, OP_COUNT, 0, {ANY("object")}, NULL},
    /* only as type(None), so in no namespace */
    [B_NONETYPE] = {"NoneType", UNBOUND, h_nonetype, OP_COUNT, 0, {{0}}, NULL},

    /* the others, found by their names only: a new builtin is one row */
    [B_NAMED] = {"tl.program_id", TL_, h_grid_axis, OP_PROGRAM_ID, 1, {{"axis", P_INT}},
        "program_id(axis) -> i32: index of this program along axis 0, 1 or 2"},
    {"tl.num_programs", TL_, h_grid_axis, OP_NUM_PROGRAMS, 1, {{"axis", P_INT}},
        "num_programs(axis) -> i32: grid size along axis"},
    {"tl.arange", TL_, h_arange, OP_ARANGE, 2, {ANY("start"), ANY("end")},
        "arange(start, end) -> block of i32 [start, end)"},
    {"tl.load", TL_, h_load, OP_LOAD, 1,
        {{"pointer", P_POINTER}, ANY("mask"), ANY("other"), ANY("boundary_check"),
         ANY("padding_option"), ANY("cache_modifier"), ANY("eviction_policy"),
         ANY("volatile")},
        "load(pointer, mask=None, other=None) -> block"},
    {"tl.store", TL_, h_store, OP_STORE, 2,
        {{"pointer", P_POINTER}, ANY("value"), ANY("mask"), ANY("boundary_check"),
         ANY("cache_modifier"), ANY("eviction_policy")},
        "store(pointer, value, mask=None)"},
    {"tl.exp", TL_, h_elementwise, OP_EXP, 1, {{"x", P_TENSOR}},
        "exp(x): elementwise e**x (f32)"},
    {"tl.log", TL_, h_elementwise, OP_LOG, 1, {{"x", P_TENSOR}},
        "log(x): elementwise natural logarithm (f32)"},
    {"tl.cos", TL_, h_elementwise, OP_COS, 1, {{"x", P_TENSOR}},
        "cos(x): elementwise cosine (f32)"},
    {"tl.sin", TL_, h_elementwise, OP_SIN, 1, {{"x", P_TENSOR}},
        "sin(x): elementwise sine (f32, f64)"},
    {"tl.sqrt", TL_, h_elementwise, OP_SQRT, 1, {{"x", P_TENSOR}},
        "sqrt(x): elementwise square root (f32)"},
    {"tl.abs", TL_, h_abs, OP_ABS, 1, {ANY("x")}, "abs(x): elementwise absolute value"},
    {"tl.minimum", TL_, h_elementwise, OP_MINIMUM, 2,
        {ANY("x"), ANY("y"), ANY("propagate_nan")},
        "minimum(x, y): elementwise minimum (NaN propagating)"},
    {"tl.maximum", TL_, h_elementwise, OP_MAXIMUM, 2,
        {ANY("x"), ANY("y"), ANY("propagate_nan")},
        "maximum(x, y): elementwise maximum (NaN propagating)"},
    {"tl.where", TL_, h_where, OP_SELECT, 3, {ANY("condition"), ANY("x"), ANY("y")},
        "where(condition, x, y): elementwise select"},
    {"tl.sum", TLM, h_reduce, OP_SUM, 1,
        {ANY("input"), ANY("axis"), ANY("keep_dims"), ANY("dtype")},
        "sum(input, axis=None, keep_dims=False, dtype=None): reduction (integers "
        "narrower than 32 bits sum in int32/uint32)"},
    {"tl.max", TLM, h_reduce, OP_MAX, 1,
        {ANY("input"), ANY("axis"), ANY("return_indices"),
         ANY("return_indices_tie_break_left"), ANY("keep_dims")},
        "max(input, axis=None, return_indices=False, return_indices_tie_break_left=True, "
        "keep_dims=False): reduction (types narrower than 32 bits in int32/float32)"},
    {"tl.min", TLM, h_reduce, OP_MIN, 1,
        {ANY("input"), ANY("axis"), ANY("return_indices"),
         ANY("return_indices_tie_break_left"), ANY("keep_dims")},
        "min(input, axis=None, return_indices=False, return_indices_tie_break_left=True, "
        "keep_dims=False): reduction (types narrower than 32 bits in int32/float32)"},
    {"tl.zeros", TL_, h_fill, OP_ZEROS, 2, {{"shape", P_SHAPE}, {"dtype", P_BLOCK_DTYPE}},
        "zeros(shape, dtype) -> block of zeros"},
    {"tl.full", TL_, h_fill, OP_FULL, 3,
        {{"shape", P_SHAPE}, ANY("value"), {"dtype", P_BLOCK_DTYPE}},
        "full(shape, value, dtype) -> block filled with value"},
    {"tl.empty", TL_, h_fill, OP_EMPTY, 2, {{"shape", P_SHAPE}, {"dtype", P_BLOCK_DTYPE}},
        "empty(shape, dtype) -> block with undefined contents"},
    {"tl.zeros_like", TL_, h_fill, OP_ZEROS, 1, {{"input", P_BLOCK}},
        "zeros_like(input) -> zeros of input's shape and dtype"},
    {"tl.full_like", TL_, h_fill, OP_FULL, 2, {{"input", P_BLOCK}, ANY("fill_value")},
        "full_like(input, fill_value) -> block of input's shape filled with fill_value"},
    {"tl.cdiv", IN_TL | IN_TRITON, h_cdiv, OP_COUNT, 2, {ANY("x"), ANY("div")},
        "cdiv(x, div) = (x + div - 1) // div"},
    {"tl.dot", TL_, h_dot, OP_DOT, 2,
        {ANY("input"), ANY("other"), ANY("acc"), ANY("input_precision"),
         ANY("allow_tf32"), ANY("max_num_imprecise_acc"), ANY("out_dtype")},
        "dot(input, other, acc=None, input_precision=None) -> matrix product"},
    {"tl.expand_dims", TLM, h_axis_op, OP_EXPAND_DIMS, 2,
        {{"input", P_TENSOR}, {"axis", P_NEW_AXIS}},
        "expand_dims(input, axis): a new axis of size 1"},
    {"tl.broadcast_to", TLM, h_broadcast_to, OP_BROADCAST, 2,
        {{"input", P_TENSOR}, {"shape", P_SHAPE}}, "broadcast_to(input, shape)"},
    {"to", IN_METHOD, h_cast, OP_CAST, 2,
        {ANY("self"), {"dtype", P_DTYPE}, ANY("fp_downcast_rounding"), ANY("bitcast")},
        "to(dtype): x cast to dtype"},
    {"tl.multiple_of", TL_, h_identity, OP_COUNT, 2, {ANY("input"), ANY("values")},
        "multiple_of(input, values): a compiler hint"},
    {"tl.max_contiguous", TL_, h_identity, OP_COUNT, 2, {ANY("input"), ANY("values")},
        "max_contiguous(input, values): a compiler hint"},
    {"tl.max_constancy", TL_, h_identity, OP_COUNT, 2, {ANY("input"), ANY("values")},
        "max_constancy(input, values): a compiler hint"},
    {"tl.static_assert", TL_, h_static_assert, OP_COUNT, 1, {ANY("cond"), ANY("msg")},
        "static_assert(cond, msg=''): checked at compile time"},
    {"tl.static_print", TL_ | UNBOUND, h_ignore, OP_COUNT, 0, {{0}},
        "static_print(*values): printed at compile time"},
    {"tl.device_print", TL_ | UNBOUND, h_ignore, OP_COUNT, 0, {{0}},
        "device_print(prefix, *values): printed by the kernel"},
    {"tl.constexpr", TL_, h_identity, OP_COUNT, 1, {ANY("value")},
        "constexpr(value): a compile-time value"},
    {"triton.jit", IN_TRITON | UNBOUND, h_jit, OP_COUNT, 0, {{0}}, NULL},
    {"min", IN_PY | UNBOUND, h_py_min_max, OP_COUNT, 0, {{0}}, NULL},
    {"max", IN_PY | UNBOUND, h_py_min_max, OP_COUNT, 0, {{0}}, NULL},
    {"abs", IN_PY, h_abs, OP_ABS, 1, {ANY("x")}, NULL},
    {"len", IN_PY, h_len, OP_COUNT, 1, {ANY("obj")}, NULL},
    {"type", IN_PY, h_type, OP_COUNT, 1, {ANY("object")}, NULL},
    {"print", IN_PY | UNBOUND, h_ignore, OP_COUNT, 0, {{0}}, NULL},
#define DTYPE_ROW(name) {"dtype." #name, IN_DTYPE, h_dtype_method, OP_COUNT, 1, {ANY("self")}, NULL},
    DTYPE_METHODS(DTYPE_ROW)
#undef DTYPE_ROW
};

#undef TL_
#undef TLM
#undef ANY

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define NBUILTINS COUNT(builtins)

/* The name of a row in its namespaces: "tl.load" -> "load". */
static const char *short_name(const Builtin *b) {
    const char *dot = strrchr(b->display, '.');
    return dot ? dot + 1 : b->display;
}

/* The builtin a namespace (IN_*) calls `name`; -1 when none. */
static int find_builtin(int where, const char *name) {
    for (int i = 0; i < NBUILTINS; i++)
        if ((builtins[i].flags & where) && !strcmp(short_name(&builtins[i]), name))
            return i;
    return -1;
}

static int nparams(const Builtin *b) {
    int n = 0;
    while (n < MAX_BUILTIN_PARAMS && b->params[n].name)
        n++;
    return n;
}

/* ---------------------------------------------------- binding and checks */

/* Binds a call's arguments to the builtin's parameters (Python's rules
 * for positional and keyword arguments). */
static int bind_builtin(Elab *E, int id, Loc loc, const Args *a, Call *c) {
    const Builtin *bi = &builtins[id];
    int np = nparams(bi);
    c->b = bi;
    c->loc = loc;
    c->args = a;
    for (int i = 0; i < MAX_BUILTIN_PARAMS; i++) {
        c->have[i] = false;
        c->a[i] = cv_none();
        c->locs[i] = loc;
    }
    if (a->npos > np)
        return elab_err(E, loc, MT_ERR_TYPE, "%s() takes at most %d arguments, got %d",
                        bi->display, np, a->npos);
    for (int i = 0; i < a->npos; i++) {
        c->a[i] = a->pos[i];
        c->have[i] = true;
        c->locs[i] = a->posloc[i];
    }
    for (int k = 0; k < a->nkw; k++) {
        int j = -1;
        for (int i = 0; i < np; i++)
            if (!strcmp(bi->params[i].name, a->kwname[k]))
                j = i;
        if (j < 0)
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got an unexpected keyword argument '%s'", bi->display,
                            a->kwname[k]);
        if (c->have[j])
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got multiple values for argument '%s'", bi->display,
                            a->kwname[k]);
        c->a[j] = a->kw[k];
        c->have[j] = true;
        c->locs[j] = a->kwloc[k];
    }
    for (int i = 0; i < bi->nreq && i < np; i++)
        if (!c->have[i])
            return elab_err(E, loc, MT_ERR_TYPE, "%s() missing required argument '%s'",
                            bi->display, bi->params[i].name);
    return 0;
}

/* A tensor operand; a compile-time number becomes a constant. */
static int need_tensor(Elab *E, CV v, Loc loc, const char *fn, ValId *out) {
    if (v.kind == CV_TENSOR) {
        *out = v.v;
        return 0;
    }
    if (cv_is_num(v))
        return cv_materialise(E, v, loc, out);
    return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
                    cv_kind_name(E, v));
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
        return elab_err(E, loc, MT_ERR_TYPE, "block shape must be a non-empty int sequence");
    if (n > MT_MAX_RANK)
        return elab_err(E, loc, MT_ERR_TYPE, "block rank %d exceeds the maximum %d", n,
                        MT_MAX_RANK);
    int64_t numel = 1;
    for (int i = 0; i < n; i++) {
        if (items[i].kind != CV_INT || items[i].i <= 0)
            return elab_err(E, loc, MT_ERR_TYPE, "block dimensions must be positive integers");
        if (items[i].i > MAX_BLOCK_NUMEL || (numel *= items[i].i) > MAX_BLOCK_NUMEL)
            return elab_err(E, loc, MT_ERR_TYPE, "block of more than %d elements is too large",
                            MAX_BLOCK_NUMEL);
        shape[i] = (int32_t)items[i].i;
    }
    *rank = n;
    return 0;
}

/* An axis in [-lim, lim) with lim = rank + extra, made non-negative. */
static int norm_axis(Elab *E, CV v, int rank, int extra, Loc loc, int64_t *out) {
    int64_t ax = 0;
    if (cv_need_int(E, v, loc, "axis", &ax) < 0)
        return -1;
    int64_t lim = rank + extra;
    if (ax < 0)
        ax += lim;
    if (ax < 0 || ax >= lim)
        return elab_err(E, loc, MT_ERR_TYPE, "axis %lld is out of range for a rank-%d value",
                        (long long)v.i, rank);
    *out = ax;
    return 0;
}

/* Runs one parameter's check, keeping the checked value in c. */
static int check_param(Elab *E, Call *c, int i) {
    const char *fn = c->b->display;
    CV v = c->a[i];
    Loc loc = c->locs[i];
    switch ((ParamCheck)c->b->params[i].check) {
    case P_ANY:
        return 0;
    case P_TENSOR:
        if (need_tensor(E, v, loc, fn, &c->t[i]) < 0)
            return -1;
        c->a[i] = cv_tensor(c->t[i]); /* the generic handlers see a tensor */
        return 0;
    case P_POINTER:
        if (v.kind != CV_TENSOR || !cv_type(E, v).is_ptr)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a pointer, got %s", fn,
                            cv_kind_name(E, v));
        c->t[i] = v.v;
        return 0;
    case P_BLOCK:
        if (v.kind != CV_TENSOR)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
                            cv_kind_name(E, v));
        c->block = cv_type(E, v);
        if (c->block.is_ptr || c->block.rank == 0)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a block, got %s", fn,
                            elab_type_text(E, c->block));
        c->t[i] = v.v;
        return 0;
    case P_INT:
        return cv_need_int(E, v, loc, c->b->params[i].name, &c->i[i]);
    case P_NEW_AXIS:
        return norm_axis(E, v, val_type(E->f, c->t[0]).rank, 1, loc, &c->i[i]);
    case P_SHAPE:
        return block_shape(E, v, loc, &c->rank, c->shape);
    case P_BLOCK_DTYPE:
        if (v.kind != CV_DTYPE || v.i)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "block dtype must be a scalar tl dtype, got %s",
                            v.kind == CV_DTYPE ? "a pointer type" : cv_kind_name(E, v));
        c->dtype = (DType)v.sub;
        c->block = type_block(type_scalar(c->dtype), c->rank, c->shape);
        return 0;
    case P_DTYPE:
        if (v.kind != CV_DTYPE || v.i)
            return elab_err(E, loc, MT_ERR_TYPE, "%s() dtype must be a scalar tl dtype, got %s",
                            fn, v.kind == CV_DTYPE ? "a pointer type" : cv_kind_name(E, v));
        c->dtype = (DType)v.sub;
        return 0;
    }
    return 0;
}

/* Required parameters are always checked, optional ones when given. */
static int check_params(Elab *E, Call *c) {
    int np = nparams(c->b);
    for (int i = 0; i < np; i++)
        if ((i < c->b->nreq || (c->have[i] && c->a[i].kind != CV_NONE)) &&
            check_param(E, c, i) < 0)
            return -1;
    return 0;
}

static int call_builtin(Elab *E, int id, const Args *args, Loc loc, CV *out) {
    Call c;
    *out = cv_none();
    if (builtins[id].flags & UNBOUND) {
        memset(&c, 0, sizeof c);
        c.b = &builtins[id];
        c.loc = loc;
        c.args = args;
    } else if (bind_builtin(E, id, loc, args, &c) < 0 || check_params(E, &c) < 0) {
        return -1;
    }
    return builtins[id].fn(E, &c, out);
}

int builtin_call(Elab *E, CV callee, const Args *a, Loc loc, CV *out) {
    if (callee.kind == CV_BUILTIN)
        return call_builtin(E, callee.sub, a, loc, out);
    if (callee.kind == CV_BOUND) {
        /* x.sum(axis) is tl.sum(x, axis): the receiver is argument 0 */
        Args b = *a;
        b.npos = a->npos + 1;
        b.pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)b.npos);
        b.posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)b.npos);
        b.pos[0] = callee.items[0];
        b.posloc[0] = loc;
        for (int i = 0; i < a->npos; i++) {
            b.pos[i + 1] = a->pos[i];
            b.posloc[i + 1] = a->posloc[i];
        }
        return call_builtin(E, callee.sub, &b, loc, out);
    }
    /* tl.float32(x) is tl.cast(x, tl.float32) */
    if (a->npos != 1 || a->nkw)
        return elab_err(E, loc, MT_ERR_TYPE, "tl.%s() takes one argument",
                        dtype_info[callee.sub].tl_name);
    CV cargs[2] = {a->pos[0], callee};
    Loc pl[2] = {a->posloc[0], loc};
    Args b;
    memset(&b, 0, sizeof b);
    b.npos = 2;
    b.pos = cargs;
    b.posloc = pl;
    return call_builtin(E, B_CAST, &b, loc, out);
}

/* ------------------------------------------------------- generic handlers */

/* Emits the row's op on args and gives its result. */
static int emit_op(Elab *E, Call *c, const ValId *args, int n, int64_t a0, int64_t a1,
                   CV *out) {
    ValId r;
    if (elab_emit(E, c->b->op, c->loc, args, n, a0, a1, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* An elementwise op on the row's leading parameters: compile-time numbers
 * take the dtype of the first tensor operand.  Like Triton, no implicit
 * int -> float for the math functions: ir_infer_type reports "exp requires
 * f32, got i32". */
static int h_elementwise(Elab *E, Call *c, CV *out) {
    int n = op_info[c->b->op].nargs;
    ValId x[MAX_BUILTIN_PARAMS];
    Type like = type_scalar(DT_VOID);
    for (int i = n - 1; i >= 0; i--)
        if (c->a[i].kind == CV_TENSOR)
            like = cv_type(E, c->a[i]);
    for (int i = 0; i < n; i++)
        if (cv_materialise_like(E, c->a[i], like, c->locs[i], &x[i]) < 0)
            return -1;
    return emit_op(E, c, x, n, 0, 0, out);
}

/* The row's op on parameter 0 with the checked axis of parameter 1. */
static int h_axis_op(Elab *E, Call *c, CV *out) {
    return emit_op(E, c, &c->t[0], 1, c->i[1], 0, out);
}

/* A reduction over one axis, or over all of them (innermost first) when
 * axis is None; keep_dims puts the reduced axes back with size 1.  A
 * scalar input goes to ir_infer_type, which names the op in its error, and
 * so does the tensor check here. */
static int h_reduce(Elab *E, Call *c, CV *out) {
    OpCode code = c->b->op;
    ValId x, r;
    if (need_tensor(E, c->a[0], c->locs[0], op_info[code].name, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    if (code == OP_SUM) { /* Triton's _pick_sum_dtype */
        DType d = (DType)t.dtype;
        if (c->have[3] && c->a[3].kind != CV_NONE) {
            if (c->a[3].kind != CV_DTYPE || c->a[3].i)
                return elab_err(E, c->locs[3], MT_ERR_TYPE, "sum() dtype must be a tl dtype");
            d = (DType)c->a[3].sub;
        } else if (!t.is_ptr && (d == DT_I1 || dtype_is_int(d)) && dtype_info[d].bits < 32) {
            d = dtype_is_unsigned(d) ? DT_U32 : DT_I32;
        }
        if (!t.is_ptr && d != t.dtype && elab_cast(E, x, d, c->loc, &x) < 0)
            return -1;
        t = val_type(E->f, x);
    } else { /* max, min: Triton widens types narrower than 32 bits */
        if (c->have[2] && c->a[2].kind != CV_NONE &&
            !(cv_is_intlike(c->a[2]) && c->a[2].i == 0))
            return elab_err(E, c->locs[2], MT_ERR_UNSUPPORTED,
                            "%s() with return_indices is not supported yet",
                            op_info[code].name);
        DType d = (DType)t.dtype;
        if (!t.is_ptr && dtype_info[d].bits < 32) {
            d = dtype_is_float(d) ? DT_F32 : DT_I32;
            if (elab_cast(E, x, d, c->loc, &x) < 0)
                return -1;
            t = val_type(E->f, x);
        }
    }
    int kd = code == OP_SUM ? 2 : 4; /* where keep_dims is */
    bool keep = false;
    if (c->have[kd] && c->a[kd].kind != CV_NONE) {
        if (!cv_is_intlike(c->a[kd]))
            return elab_err(E, c->locs[kd], MT_ERR_TYPE,
                            "keep_dims must be a compile-time bool");
        keep = c->a[kd].i != 0;
    }
    if (t.rank == 0)
        return emit_op(E, c, &x, 1, 0, 0, out);
    if (!c->have[1] || c->a[1].kind == CV_NONE) {
        r = x;
        for (int ax = t.rank - 1; ax >= 0; ax--)
            if (elab_emit(E, code, c->loc, &r, 1, ax, 0, &r) < 0)
                return -1;
        for (int i = 0; keep && i < t.rank; i++)
            if (elab_expand_dims(E, r, 0, c->loc, &r) < 0)
                return -1;
        *out = cv_tensor(r);
        return 0;
    }
    int64_t ax = 0;
    if (norm_axis(E, c->a[1], t.rank, 0, c->locs[1], &ax) < 0 ||
        elab_emit(E, code, c->loc, &x, 1, ax, 0, &r) < 0)
        return -1;
    if (keep && elab_expand_dims(E, r, (int)ax, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* A fill value: a number or a scalar tensor, bool only for a bool block. */
static int fill_value(Elab *E, CV v, DType d, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        if (t.rank > 0)
            return elab_err(E, loc, MT_ERR_TYPE, "full value must be scalar");
        if (t.is_ptr || ((t.dtype == DT_I1) != (d == DT_I1)))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "full value of type %s cannot fill a %s block",
                            elab_type_text(E, t), dtype_name(d));
        return elab_cast(E, v.v, d, loc, out);
    }
    if (!cv_is_num(v))
        return elab_err(E, loc, MT_ERR_TYPE, "full value must be a number, got %s",
                        cv_kind_name(E, v));
    if ((v.kind == CV_BOOL) != (d == DT_I1))
        return elab_err(E, loc, MT_ERR_TYPE, "full value of type %s cannot fill a %s block",
                        cv_kind_name(E, v), dtype_name(d));
    return cv_convert(E, v, d, loc, out);
}

/* zeros, empty, full and their _like forms: the row's op, of the checked
 * block type; full's value is parameter 1 in both forms. */
static int h_fill(Elab *E, Call *c, CV *out) {
    ValId x = 0, r;
    int n = c->b->op == OP_FULL;
    if (n && fill_value(E, c->a[1], (DType)c->block.dtype, c->locs[1], &x) < 0)
        return -1;
    if (elab_emit_typed(E, c->b->op, c->loc, &x, n, 0, 0, c->block, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

static int h_identity(Elab *E, Call *c, CV *out) {
    *out = c->a[0];
    return 0;
}

/* print and its kin: kernels print nothing. */
static int h_ignore(Elab *E, Call *c, CV *out) { return 0; }

/* ------------------------------------------------------ tl.* builtins */

static int h_grid_axis(Elab *E, Call *c, CV *out) {
    if (c->i[0] < 0 || c->i[0] > 2)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s axis must be 0, 1 or 2, got %lld",
                        c->b->display, (long long)c->i[0]);
    return emit_op(E, c, NULL, 0, c->i[0], 0, out);
}

static int h_arange(Elab *E, Call *c, CV *out) {
    CV lo = c->a[0], hi = c->a[1];
    if (lo.kind != CV_INT || hi.kind != CV_INT)
        return elab_err(E, c->loc, MT_ERR_TYPE, "arange bounds must be compile-time integers");
    if (hi.i <= lo.i)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "arange requires end > start, got [%lld, %lld)", (long long)lo.i,
                        (long long)hi.i);
    if (!fits_i32(lo.i) || !fits_i32(hi.i) || hi.i - lo.i > MAX_BLOCK_NUMEL)
        return elab_err(E, c->loc, MT_ERR_TYPE, "arange range [%lld, %lld) is too large",
                        (long long)lo.i, (long long)hi.i);
    return emit_op(E, c, NULL, 0, lo.i, hi.i, out);
}

/* A number stored or loaded as `other` takes the pointee's dtype (a bool
 * stays bool, so that the type rules can refuse it where it does not fit). */
/* A Python number given as `other` or stored: Triton makes it a tensor of
 * its own type and casts that to the pointee, so -3 into a u8 pointer is
 * 253; a number the pointee holds exactly is that constant directly. */
static int as_pointee(Elab *E, CV v, Type pt, Loc loc, ValId *out) {
    DType d = (DType)pt.dtype;
    if (d == DT_I1 || v.kind == CV_BOOL)
        return cv_materialise(E, v, loc, out);
    bool exact = v.kind != CV_INT || !dtype_is_int(d) || dtype_wrap_int(d, v.i) == v.i;
    if (exact && !(v.kind == CV_FLOAT && dtype_is_int(d)))
        return cv_convert(E, v, d, loc, out);
    ValId x;
    if (cv_materialise(E, v, loc, &x) < 0)
        return -1;
    return elab_cast(E, x, d, loc, out);
}

static int h_load(Elab *E, Call *c, CV *out) {
    ValId m = 0, o = 0;
    Type pt = val_type(E->f, c->t[0]);
    if (c->a[1].kind != CV_NONE && cv_materialise(E, c->a[1], c->locs[1], &m) < 0)
        return -1;
    if (c->a[2].kind == CV_TENSOR)
        o = c->a[2].v;
    else if (cv_is_num(c->a[2])) {
        if (as_pointee(E, c->a[2], pt, c->locs[2], &o) < 0)
            return -1;
    } else if (c->a[2].kind != CV_NONE)
        return elab_err(E, c->locs[2], MT_ERR_TYPE,
                        "tl.load() other must be a number or a tensor, got %s",
                        cv_kind_name(E, c->a[2]));
    ValId la[3] = {c->t[0], m, o};
    return emit_op(E, c, la, 3, 0, 0, out);
}

static int h_store(Elab *E, Call *c, CV *out) {
    ValId m = 0, v;
    CV val = c->a[1];
    Type pt = val_type(E->f, c->t[0]);
    bool number = val.kind == CV_INT || val.kind == CV_FLOAT;
    if ((number ? as_pointee(E, val, pt, c->locs[1], &v)
                : cv_materialise(E, val, c->locs[1], &v)) < 0)
        return -1;
    if (c->a[2].kind != CV_NONE && cv_materialise(E, c->a[2], c->locs[2], &m) < 0)
        return -1;
    ValId sa[3] = {c->t[0], v, m};
    return elab_emit(E, OP_STORE, c->loc, sa, 3, 0, 0, NULL);
}

/* tl.abs and abs: folded on compile-time numbers, the op on tensors. */
static int h_abs(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    switch (x.kind) {
    case CV_TENSOR:
        return h_elementwise(E, c, out);
    case CV_INT:
        if (x.i == INT64_MIN)
            return ct_overflow(E, c->loc);
        *out = cv_int(x.i < 0 ? -x.i : x.i);
        return 0;
    case CV_BOOL:
        *out = cv_int(x.i);
        return 0;
    case CV_FLOAT:
        *out = cv_float(fabs(x.f));
        return 0;
    default:
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "bad operand type for abs(): '%s'",
                        cv_kind_name(E, x));
    }
}

/* A compile-time condition (a number or None) becomes a bool constant. */
static int h_where(Elab *E, Call *c, CV *out) {
    ValId x[3];
    CV cond = c->a[0];
    if (cond.kind == CV_TENSOR)
        x[0] = cond.v;
    else if (cv_is_num(cond) || cond.kind == CV_NONE) {
        bool t = false;
        if (cv_truth(E, cond, c->locs[0], "", &t) < 0)
            return -1;
        x[0] = const_bool(E->f, t);
    } else
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "where condition must be bool, got %s",
                        cv_kind_name(E, cond));
    Type like = c->a[1].kind == CV_TENSOR   ? cv_type(E, c->a[1])
                : c->a[2].kind == CV_TENSOR ? cv_type(E, c->a[2])
                                            : type_scalar(DT_VOID);
    if (cv_materialise_like(E, c->a[1], like, c->locs[1], &x[1]) < 0 ||
        cv_materialise_like(E, c->a[2], like, c->locs[2], &x[2]) < 0)
        return -1;
    return emit_op(E, c, x, 3, 0, 0, out);
}

/* (x + div - 1) // div, at compile time when both are, else as ops. */
static int h_cdiv(Elab *E, Call *c, CV *out) {
    CV x = c->a[0], d = c->a[1], s, t;
    if (x.kind != CV_TENSOR && d.kind != CV_TENSOR) {
        if (!cv_is_intlike(x) || !cv_is_intlike(d))
            return elab_err(E, c->loc, MT_ERR_TYPE, "cdiv expects integers, got %s and %s",
                            cv_kind_name(E, x), cv_kind_name(E, d));
        return ct_binop(E, OT_PLUS, x, d, c->loc, &s) < 0 ||
                       ct_binop(E, OT_MINUS, s, cv_int(1), c->loc, &t) < 0
                   ? -1
                   : ct_binop(E, OT_DSLASH, t, d, c->loc, out);
    }
    if (cv_binop(E, OT_PLUS, x, d, c->loc, &s) < 0 ||
        cv_binop(E, OT_MINUS, s, cv_int(1), c->loc, &t) < 0)
        return -1;
    return cv_binop(E, OT_DSLASH, t, d, c->loc, out);
}

/* input_precision, or the older allow_tf32, as the dot's attribute. */
static int dot_precision(Elab *E, Call *c, int64_t *prec) {
    static const char *const names[] = {"ieee", "tf32", "tf32x3"};
    *prec = 0;
    if (c->have[3] && c->a[3].kind != CV_NONE) {
        if (c->a[3].kind != CV_STR)
            return elab_err(E, c->locs[3], MT_ERR_TYPE,
                            "input_precision must be a string, got %s",
                            cv_kind_name(E, c->a[3]));
        for (int i = 0; i < COUNT(names); i++)
            if (!strcmp(c->a[3].s, names[i])) {
                *prec = i;
                return 0;
            }
        return elab_err(E, c->locs[3], MT_ERR_TYPE,
                        "input_precision must be 'ieee', 'tf32' or 'tf32x3', got '%s'",
                        c->a[3].s);
    }
    if (c->have[4] && c->a[4].kind != CV_NONE) {
        if (!cv_is_intlike(c->a[4]))
            return elab_err(E, c->locs[4], MT_ERR_TYPE,
                            "allow_tf32 must be a compile-time bool");
        *prec = c->a[4].i ? 1 : 0;
    }
    return 0;
}

/* tl.dot on CUDA cores: f32 operands as they are; f16, bf16 and fp8
 * operands widened to f32 (exact, and products of their values are exact
 * in f32, so the only rounding is the f32 accumulation Triton's tensor
 * cores do too); int8 operands likewise, exact while a tile's sums stay
 * below 2^24, and the int32 result is added to acc in int32.  out_dtype
 * is float32, or float16 for f16 operands (rounded once at the end), or
 * int32 for int8. */
static int h_dot(Elab *E, Call *c, CV *out) {
    int64_t prec = 0;
    if (c->a[0].kind != CV_TENSOR || c->a[1].kind != CV_TENSOR)
        return elab_err(E, c->loc, MT_ERR_TYPE, "tl.dot() expects two tensors");
    if (dot_precision(E, c, &prec) < 0)
        return -1;
    ValId x = c->a[0].v, y = c->a[1].v, acc = 0, r;
    Type tx = val_type(E->f, x), ty = val_type(E->f, y);
    DType dx = (DType)tx.dtype, dy = (DType)ty.dtype;
    bool i8 = dx == DT_I8 && dy == DT_I8;
    bool fl = type_is_float(tx) && type_is_float(ty) && dx != DT_F64 && dy != DT_F64;
    if (!i8 && !(fl && (dx == dy || (dtype_info[dx].bits == 8 && dtype_info[dy].bits == 8))))
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "tl.dot() operands must be both float32, float16, bfloat16, fp8 or "
                        "int8, got %s and %s", dtype_info[dx].tl_name, dtype_info[dy].tl_name);
    DType od = i8 ? DT_I32 : DT_F32;
    CV odv = c->a[6];
    if (c->have[6] && odv.kind != CV_NONE) {
        bool ok = odv.kind == CV_DTYPE && !odv.i &&
                  ((DType)odv.sub == od || (odv.sub == DT_F16 && dx == DT_F16));
        if (!ok)
            return elab_err(E, c->locs[6], MT_ERR_TYPE, "tl.dot() out_dtype must be %s%s",
                            dtype_info[od].tl_name, dx == DT_F16 ? " or float16" : "");
        od = (DType)odv.sub;
    }
    if (c->have[2] && c->a[2].kind != CV_NONE) {
        if (c->a[2].kind != CV_TENSOR)
            return elab_err(E, c->locs[2], MT_ERR_TYPE, "tl.dot() acc must be a tensor");
        acc = c->a[2].v;
        if (val_type(E->f, acc).dtype != od)
            return elab_err(E, c->locs[2], MT_ERR_TYPE, "tl.dot() acc must be %s, got %s",
                            dtype_info[od].tl_name,
                            elab_type_text(E, val_type(E->f, acc)));
    }
    if (dx == DT_F32 && dy == DT_F32) {
        ValId da[3] = {x, y, acc};
        return emit_op(E, c, da, 3, prec, 0, out);
    }
    if (i8 && tx.rank == 2 && tx.shape[1] < 32) /* Triton's check */
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "int8 tl.dot() needs an inner dimension K >= 32, got %d",
                        (int)tx.shape[1]);
    if (i8 && tx.rank == 2 && (int64_t)tx.shape[1] * 128 * 128 > (1 << 24))
        return elab_err(E, c->loc, MT_ERR_UNSUPPORTED,
                        "int8 tl.dot() with an inner dimension over 1024 is not supported yet");
    if (elab_cast(E, x, DT_F32, c->loc, &x) < 0 || elab_cast(E, y, DT_F32, c->loc, &y) < 0)
        return -1;
    ValId facc = i8 ? 0 : acc; /* int8: acc is added in int32 below */
    if (facc && elab_cast(E, facc, DT_F32, c->loc, &facc) < 0)
        return -1;
    ValId da[3] = {x, y, facc};
    if (elab_emit(E, OP_DOT, c->loc, da, 3, 0, 0, &r) < 0 ||
        elab_cast(E, r, od, c->loc, &r) < 0)
        return -1;
    if (i8 && acc) {
        ValId sum[2] = {r, acc};
        if (elab_emit(E, OP_ADD, c->loc, sum, 2, 0, 0, &r) < 0)
            return -1;
    }
    *out = cv_tensor(r);
    return 0;
}

static int h_broadcast_to(Elab *E, Call *c, CV *out) {
    Type from = val_type(E->f, c->t[0]);
    Type t = type_block(type_elem(from), c->rank, c->shape);
    if (type_eq(t, from)) {
        *out = cv_tensor(c->t[0]);
        return 0;
    }
    ValId r;
    if (elab_emit_typed(E, OP_BROADCAST, c->loc, &c->t[0], 1, 0, 0, t, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* tl.cast and x.to: a compile-time number is converted at compile time;
 * bitcast=True reinterprets bits of the same width; fp_downcast_rounding
 * ("rtne", the default, or "rtz") only for a float to a narrower float,
 * as Triton checks it. */
static int h_cast(Elab *E, Call *c, CV *out) {
    ValId r;
    CV x = c->a[0], bitcast = c->a[3], rounding = c->a[2];
    bool bits = false, rtz = false;
    if (c->have[3] && bitcast.kind != CV_NONE) {
        if (!cv_is_intlike(bitcast))
            return elab_err(E, c->locs[3], MT_ERR_TYPE, "bitcast must be a compile-time bool");
        bits = bitcast.i != 0;
    }
    if (c->have[2] && rounding.kind != CV_NONE) {
        bool rtne = rounding.kind == CV_STR && rounding.n == 4 && !strncmp(rounding.s, "rtne", 4);
        rtz = rounding.kind == CV_STR && rounding.n == 3 && !strncmp(rounding.s, "rtz", 3);
        if (!rtne && !rtz)
            return elab_err(E, c->locs[2], MT_ERR_TYPE,
                            "invalid rounding mode: 'rtne' and 'rtz' are supported");
    }
    if (x.kind != CV_TENSOR && !bits && !c->have[2]) {
        if (!cv_is_num(x))
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "cannot cast %s", cv_kind_name(E, x));
        if (cv_convert(E, x, c->dtype, c->locs[0], &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    if (cv_materialise(E, x, c->locs[0], &r) < 0)
        return -1;
    Type t = val_type(E->f, r);
    if (bits) {
        if (!t.is_ptr && t.dtype == c->dtype) {
            *out = cv_tensor(r);
            return 0;
        }
        if (elab_emit_typed(E, OP_BITCAST, c->loc, &r, 1, 0, 0,
                            type_with_elem(t, type_scalar(c->dtype)), &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    if (c->have[2] && rounding.kind != CV_NONE &&
        !(type_is_float(t) && dtype_is_float(c->dtype) &&
          dtype_info[c->dtype].bits < dtype_info[t.dtype].bits))
        return elab_err(E, c->locs[2], MT_ERR_TYPE,
                        "fp_downcast_rounding should be set only for truncating fp "
                        "conversions; the source is %s and the destination %s",
                        dtype_info[t.dtype].tl_name, dtype_info[c->dtype].tl_name);
    if (rtz) {
        if (elab_emit_typed(E, OP_CAST_RTZ, c->loc, &r, 1, 0, 0,
                            type_with_elem(t, type_scalar(c->dtype)), &r) < 0)
            return -1;
    } else if (elab_cast(E, r, c->dtype, c->loc, &r) < 0) {
        return -1;
    }
    *out = cv_tensor(r);
    return 0;
}

static int h_static_assert(Elab *E, Call *c, CV *out) {
    bool t = false;
    CV msg = c->a[1];
    if (c->a[0].kind == CV_TENSOR)
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "tl.static_assert() needs a compile-time condition");
    if (cv_truth(E, c->a[0], c->locs[0], "", &t) < 0)
        return -1;
    if (t)
        return 0;
    if (msg.kind == CV_STR && msg.n)
        return elab_err(E, c->loc, MT_ERR_TYPE, "static assertion failed: %s", msg.s);
    return elab_err(E, c->loc, MT_ERR_TYPE, "static assertion failed");
}

/* range headers are bound by bind_range in a for loop, never called. */
static int h_loop_only(Elab *E, Call *c, CV *out) {
    return elab_err(E, c->loc, MT_ERR_UNSUPPORTED, "%s() can only be used in a for loop",
                    c->b->display);
}

static int h_jit(Elab *E, Call *c, CV *out) {
    return elab_err(E, c->loc, MT_ERR_UNSUPPORTED, "triton.jit cannot be called in a kernel");
}

/* ------------------------------------------------------ Python builtins */

/* min/max of compile-time values, as arguments or one sequence. */
static int h_py_min_max(Elab *E, Call *c, CV *out) {
    const Args *a = c->args;
    bool is_max = !strcmp(c->b->display, "max");
    const CV *items = a->pos;
    int n = a->npos;
    const char *fn = c->b->display;
    if (a->nkw)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() keyword arguments are not supported",
                        fn);
    if (n == 1 && a->pos[0].kind == CV_TUPLE) {
        items = a->pos[0].items;
        n = a->pos[0].n;
    }
    if (n == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() arg is an empty sequence", fn);
    CV best = items[0];
    for (int i = 0; i < n; i++) {
        if (items[i].kind == CV_TENSOR)
            return elab_err(E, c->loc, MT_ERR_UNSUPPORTED,
                            "%s() of a runtime value is not supported; use tl.%s", fn,
                            is_max ? "maximum" : "minimum");
        if (i == 0)
            continue;
        bool better = false;
        if (ct_compare(E, is_max ? OT_GT : OT_LT, items[i], best, c->loc, &better) < 0)
            return -1;
        if (better)
            best = items[i];
    }
    *out = best;
    return 0;
}

/* NoneType, reached as type(None): NoneType() is None. */
static int h_nonetype(Elab *E, Call *c, CV *out) {
    if (c->args->npos || c->args->nkw)
        return elab_err(E, c->loc, MT_ERR_TYPE, "NoneType takes no arguments");
    return 0;
}

static int h_float(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    if (!c->have[0]) {
        *out = cv_float(0);
        return 0;
    }
    if (cv_is_num(x)) {
        *out = cv_float(cv_num_f(x));
        return 0;
    }
    if (x.kind == CV_STR) {
        const char *s = x.s;
        char *end;
        while (*s == ' ')
            s++;
        errno = 0;
        double v = strtod(s, &end);
        while (*end == ' ')
            end++;
        if (end == s || *end)
            return elab_err(E, c->locs[0], MT_ERR_TYPE,
                            "could not convert string to float: '%s'", x.s);
        *out = cv_float(v);
        return 0;
    }
    if (x.kind == CV_TENSOR)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "float() of a runtime value is not supported; use .to(tl.float32)");
    return elab_err(E, c->locs[0], MT_ERR_TYPE,
                    "float() argument must be a number or a string, got %s",
                    cv_kind_name(E, x));
}

static int h_int(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    if (!c->have[0]) {
        *out = cv_int(0);
        return 0;
    }
    if (cv_is_intlike(x)) {
        *out = cv_int(x.i);
        return 0;
    }
    if (x.kind == CV_FLOAT) {
        if (!isfinite(x.f) || x.f >= 9.2233720368547758e18 || x.f < -9.2233720368547758e18)
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "cannot convert float %g to int",
                            x.f);
        *out = cv_int((int64_t)x.f);
        return 0;
    }
    if (x.kind == CV_STR) {
        char *end;
        errno = 0;
        long long v = strtoll(x.s, &end, 10);
        if (end == x.s || *end || errno)
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "invalid literal for int(): '%s'",
                            x.s);
        *out = cv_int(v);
        return 0;
    }
    if (x.kind == CV_TENSOR)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "int() of a runtime value is not supported; use .to(tl.int32)");
    return elab_err(E, c->locs[0], MT_ERR_TYPE,
                    "int() argument must be a number or a string, got %s",
                    cv_kind_name(E, x));
}

static int h_bool(Elab *E, Call *c, CV *out) {
    bool t = false;
    if (c->have[0] &&
        cv_truth(E, c->a[0], c->locs[0],
                 "bool() of a runtime value is not supported; use '!= 0'", &t) < 0)
        return -1;
    *out = cv_bool(t);
    return 0;
}

static int h_str(Elab *E, Call *c, CV *out) {
    if (c->a[0].kind != CV_STR)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "str() is only supported on strings");
    *out = c->a[0];
    return 0;
}

static int h_len(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    if (x.kind == CV_TUPLE || x.kind == CV_STR) {
        *out = cv_int(x.n);
        return 0;
    }
    if (x.kind == CV_TENSOR && cv_type(E, x).rank > 0) {
        *out = cv_int(cv_type(E, x).shape[0]);
        return 0;
    }
    return elab_err(E, c->locs[0], MT_ERR_TYPE, "object of type '%s' has no len()",
                    cv_kind_name(E, x));
}

/* type(x) is the builtin that converts to x's type, so type(x)(y) works. */
static int h_type(Elab *E, Call *c, CV *out) {
    switch (c->a[0].kind) {
    case CV_INT: *out = cv_builtin(B_INT); return 0;
    case CV_FLOAT: *out = cv_builtin(B_FLOAT); return 0;
    case CV_BOOL: *out = cv_builtin(B_BOOL); return 0;
    case CV_STR: *out = cv_builtin(B_STR); return 0;
    case CV_NONE: *out = cv_builtin(B_NONETYPE); return 0;
    default:
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "type() is only supported on compile-time numbers, strings and None");
    }
}

/* ------------------------------------------------------------ loop headers */

/* The bounds of a range(), tl.range() or tl.static_range() header, bound
 * as Triton binds them: positionally or by keyword (arg1, arg2, step).
 * Python's range() takes no keywords; tl.range's scheduling hints
 * (num_stages, loop_unroll_factor, ...) never change results in Triton and
 * are checked for type only. */
int bind_range(Elab *E, int b, Loc loc, const Args *a, RangeArgs *out) {
    Call c;
    if (b == B_RANGE) {
        if (a->nkw)
            return elab_err(E, a->kwloc[0], MT_ERR_TYPE, "range() takes no keyword arguments");
        if (a->npos < 1 || a->npos > 3)
            return elab_err(E, loc, MT_ERR_TYPE, "range expected 1 to 3 arguments, got %d",
                            a->npos);
        for (int i = 0; i < MAX_BUILTIN_PARAMS; i++) {
            c.have[i] = i < a->npos;
            c.a[i] = c.have[i] ? a->pos[i] : cv_none();
            c.locs[i] = c.have[i] ? a->posloc[i] : loc;
        }
    } else if (bind_builtin(E, b, loc, a, &c) < 0) {
        return -1;
    }
    for (int i = 3; b == B_TL_RANGE && i < MAX_BUILTIN_PARAMS; i++) {
        bool is_flag = i >= 5; /* disallow_acc_multi_buffer and after */
        if (!c.have[i] || c.a[i].kind == CV_NONE)
            continue;
        if (is_flag ? !cv_is_intlike(c.a[i]) : c.a[i].kind != CV_INT)
            return elab_err(E, c.locs[i], MT_ERR_TYPE, "tl.range %s must be a compile-time %s",
                            builtins[b].params[i].name, is_flag ? "bool" : "integer");
    }
    bool two = c.have[1] && c.a[1].kind != CV_NONE;
    out->start = two ? c.a[0] : cv_int(0);
    out->start_loc = two ? c.locs[0] : loc;
    out->stop = two ? c.a[1] : c.a[0];
    out->stop_loc = two ? c.locs[1] : c.locs[0];
    out->step = c.have[2] && c.a[2].kind != CV_NONE ? c.a[2] : cv_int(1);
    return 0;
}

/* -------------------------------------------------------------- attributes */

static int module_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    int b;
    switch (obj.sub) {
    case MOD_TL:
        if ((b = find_builtin(IN_TL, name)) >= 0) {
            *out = cv_builtin(b);
            return 0;
        }
        if ((b = dtype_by_name(E, name, loc, out)) <= 0)
            return b;
        /* tl.math.exp and triton.language.language.exp are tl.exp */
        if (!strcmp(name, "math") || !strcmp(name, "language")) {
            *out = obj;
            return 0;
        }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "tl.%s is not supported", name);
    case MOD_TRITON:
        if (!strcmp(name, "language")) {
            *out = cv_module(MOD_TL, "triton.language");
            return 0;
        }
        if ((b = find_builtin(IN_TRITON, name)) >= 0) {
            *out = cv_builtin(b);
            return 0;
        }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "triton.%s is not supported", name);
    case MOD_MATH: {
        static const struct {
            const char *n;
            double v;
        } mc[] = {
            {"pi", 3.141592653589793},   {"e", 2.718281828459045},
            {"tau", 6.283185307179586},  {"log2e", 1.4426950408889634},
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
        for (int i = 0; i < COUNT(mc); i++)
            if (!strcmp(mc[i].n, name)) {
                *out = cv_float(mc[i].v);
                return 0;
            }
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "math.%s is not supported", name);
    }
    default:
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "module '%s' is not supported in kernels",
                        obj.s ? obj.s : "?");
    }
}

/* obj.<row's name> as a method bound to obj (a tensor or a dtype). */
static CV bind_method(Elab *E, int b, CV obj) {
    CV m = cv_builtin(b);
    m.kind = CV_BOUND;
    m.items = arena_alloc(E->c->arena, sizeof(CV));
    m.items[0] = obj;
    return m;
}

/* A dtype's attribute (dtypeval.c) or one of its methods. */
static int dtype_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    int rc = dtype_value_attr(E, obj, name, loc, out);
    if (rc <= 0)
        return rc;
    for (int b = 0; b < NBUILTINS; b++)
        if ((builtins[b].flags & IN_DTYPE) && !strcmp(short_name(&builtins[b]), name)) {
            *out = bind_method(E, b, obj);
            return 0;
        }
    return 1;
}

/* x.dtype, x.shape, or a method bound to x. */
static int tensor_attr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    Type t = cv_type(E, obj);
    if (!strcmp(name, "dtype")) {
        *out = cv_dtype(t.dtype);
        out->i = t.is_ptr; /* a pointer type: its element_ty is t.dtype */
        return 0;
    }
    if (!strcmp(name, "shape")) {
        CV tup = cv_tuple(E, t.rank);
        for (int i = 0; i < t.rank; i++)
            tup.items[i] = cv_int(t.shape[i]);
        *out = tup;
        return 0;
    }
    int b = find_builtin(IN_METHOD, name);
    if (b < 0)
        return 1;
    *out = bind_method(E, b, obj);
    return 0;
}

static int h_dtype_method(Elab *E, Call *c, CV *out) {
    CV self = c->a[0];
    *out = cv_bool(dtype_predicate(short_name(c->b), (DType)self.sub, self.i != 0));
    return 0;
}

int builtin_getattr(Elab *E, CV obj, const char *name, Loc loc, CV *out) {
    if (!name)
        return elab_err(E, loc, MT_ERR_SYNTAX, "missing attribute name");
    if (obj.kind == CV_MODULE)
        return module_attr(E, obj, name, loc, out);
    if (obj.kind == CV_TENSOR) {
        int rc = tensor_attr(E, obj, name, loc, out);
        if (rc <= 0)
            return rc;
    }
    if (obj.kind == CV_DTYPE) {
        int rc = dtype_attr(E, obj, name, loc, out);
        if (rc <= 0)
            return rc;
    }
    return elab_err(E, loc, MT_ERR_TYPE, "'%s' object has no attribute '%s'",
                    cv_kind_name(E, obj), name);
}

bool builtin_global(const char *name, CV *out) {
    int b = find_builtin(IN_PY, name);
    if (b < 0)
        return false;
    *out = cv_builtin(b);
    return true;
}

/* ------------------------------------------------------- the public list */

const char *mt_language_name(mt_name_group group, int i, const char **doc) {
    static const int where[] = {
        [MT_NAMES_TL] = IN_TL, [MT_NAMES_METHOD] = IN_METHOD,
        [MT_NAMES_BUILTIN] = IN_PY, [MT_NAMES_TRITON] = IN_TRITON,
    };
    if (doc)
        *doc = "";
    if (i < 0)
        return NULL;
    if (group == MT_NAMES_DTYPE)
        return i + DT_I1 < DT_COUNT ? dtype_info[i + DT_I1].tl_name : NULL;
    if ((int)group < 0 || (int)group >= COUNT(where) || !where[group])
        return NULL;
    for (int b = 0; b < NBUILTINS; b++)
        if ((builtins[b].flags & where[group]) && i-- == 0) {
            if (doc && builtins[b].doc)
                *doc = builtins[b].doc;
            return short_name(&builtins[b]);
        }
    return NULL;
}
