/* tlmath.c: the handlers of Triton's math set and of libdevice.
 *
 * Input: a Call bound to its row of builtins.c's table (tl.exp2, tl.fma,
 * tl.clamp, libdevice.pow, ...).  Output: the ops, emitted through
 * elab_emit, and the builtin's value.
 *
 * Each builtin takes the dtypes Triton 3.6 gives it, and refuses the others
 * with Triton's own words: the tl.* functions check the dtypes of their
 * tensor arguments (math.py's _check_dtype: fp32/fp64 for the float
 * functions, fp32 for the _rn ones, 32/64-bit integers for umulhi) and
 * then promote as arithmetic does; libdevice functions take exactly the
 * dtype tuples of their table (libdevice.py's dictionaries: no promotion,
 * Python numbers as fp32 or int32 tensors).  maximum, minimum and clamp
 * widen bf16 to fp32 (Triton's _promote_bfloat16_to_float32) and read
 * propagate_nan: PropagateNan.NONE, the default, lets a NaN operand lose
 * (maxnumf); ALL lets it win (maximumf).  sigmoid and softmax are
 * Triton's @jit definitions, built from the same builtins they call.
 *
 * Invariants: every check is located at the argument it rejects; the ops
 * are ops.def rows, so the folder computes what the emitted code does. */
#include "mt.h"

#include <stdio.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

enum { PROPAGATE_NONE = 0, PROPAGATE_ALL = 0xFFFF }; /* ir.PROPAGATE_NAN */

/* ------------------------------------------------------------- checks */

/* Triton's dtype.name: int1, int32, uint8, fp16, bf16, fp32 ... */
static const char *triton_name(DType d) {
    return dtype_is_float(d) ? dtype_info[d].short_name : dtype_info[d].tl_name;
}

/* Triton's _check_dtype: every tensor argument's dtype among `ok`. */
static int check_dtypes(Elab *E, Call *c, int n, const DType *ok, int nok) {
    for (int i = 0; i < n; i++) {
        if (c->a[i].kind != CV_TENSOR)
            continue;
        Type t = cv_type(E, c->a[i]);
        bool found = false;
        for (int k = 0; k < nok; k++)
            found |= !t.is_ptr && t.dtype == ok[k];
        if (found)
            continue;
        char list[96] = "";
        for (int k = 0; k < nok; k++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s'%s'", k ? ", " : "",
                     triton_name(ok[k]));
        }
        return elab_err(E, c->locs[i], MT_ERR_TYPE, "Expected dtype [%s] but got %s", list,
                        t.is_ptr ? "pointer" : triton_name((DType)t.dtype));
    }
    return 0;
}

static const DType f32_f64[] = {DT_F32, DT_F64};
static const DType f32_only[] = {DT_F32};
static const DType wide_ints[] = {DT_I32, DT_I64, DT_U32, DT_U64};

/* Python numbers become tensors of their own type (Triton's to_tensor). */
static int to_tensors(Elab *E, Call *c, int n, ValId *x) {
    for (int i = 0; i < n; i++)
        if (cv_materialise(E, c->a[i], c->locs[i], &x[i]) < 0)
            return -1;
    return 0;
}

static int emit(Elab *E, OpCode code, Loc loc, const ValId *x, int n, CV *out) {
    ValId r;
    if (elab_emit(E, code, loc, x, n, 0, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* ----------------------------------------------------------- tl.* math */

/* exp2, log2, rsqrt, erf, floor, ceil, and exp, log, sqrt, sin, cos. */
int h_math_f32_f64(Elab *E, Call *c, CV *out) {
    if (check_dtypes(E, c, op_info[c->b->op].nargs, f32_f64, COUNT(f32_f64)) < 0)
        return -1;
    return h_elementwise(E, c, out);
}

/* sqrt_rn and div_rn (op div_rn, not `/`'s div.full): float32 only;
 * NVRTC's default IEEE division and square root (no fast math) are the
 * correctly rounded ones. */
int h_math_f32(Elab *E, Call *c, CV *out) {
    if (check_dtypes(E, c, op_info[c->b->op].nargs, f32_only, COUNT(f32_only)) < 0)
        return -1;
    return h_elementwise(E, c, out);
}

int h_umulhi(Elab *E, Call *c, CV *out) {
    ValId x[2];
    if (check_dtypes(E, c, 2, wide_ints, COUNT(wide_ints)) < 0 || to_tensors(E, c, 2, x) < 0)
        return -1;
    return emit(E, OP_UMULHI, c->loc, x, 2, out);
}

/* fma(x, y, z): the three in their common type first (Triton's
 * binary_op_type_legalization, pairwise), which must be a float one. */
int h_fma(Elab *E, Call *c, CV *out) {
    ValId x[3];
    if (to_tensors(E, c, 3, x) < 0)
        return -1;
    DType d = DT_VOID;
    for (int i = 0; i < 3; i++) {
        Type t = val_type(E->f, x[i]);
        DType di = t.is_ptr ? DT_VOID : (DType)t.dtype;
        d = i == 0 ? di : d == DT_VOID || di == DT_VOID ? DT_VOID : promote_dtype(d, di);
    }
    for (int i = 0; d != DT_VOID && dtype_is_float(d) && i < 3; i++)
        if (elab_cast(E, x[i], d, c->locs[i], &x[i]) < 0)
            return -1;
    return emit(E, OP_FMA, c->loc, x, 3, out);
}

/* fdiv(x, y, ieee_rounding=False): x / y on floats; Triton 3.6 ignores
 * ieee_rounding (semantic.fdiv), so both are `/`: div.full.f32. */
int h_fdiv(Elab *E, Call *c, CV *out) {
    ValId x[2];
    if (to_tensors(E, c, 2, x) < 0)
        return -1;
    if (!type_is_float(val_type(E->f, x[0])) || !type_is_float(val_type(E->f, x[1])))
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "both operands of fdiv must have floating scalar type");
    return emit(E, OP_DIV, c->loc, x, 2, out);
}

/* propagate_nan: tl.PropagateNan.NONE (the default) or ALL. */
static int propagate_nan(Elab *E, Call *c, int i, bool *all) {
    CV v = c->a[i];
    *all = false;
    if (!c->have[i] || v.kind == CV_NONE)
        return 0;
    if (v.kind == CV_INT && (v.i == PROPAGATE_NONE || v.i == PROPAGATE_ALL)) {
        *all = v.i == PROPAGATE_ALL;
        return 0;
    }
    return elab_err(E, c->locs[i], MT_ERR_TYPE,
                    "Unexpected propagate_nan %s: expected tl.PropagateNan.NONE or ALL",
                    cv_kind_name(E, v));
}

/* An operand of maximum, minimum or clamp: bf16 computes in fp32. */
static int widened(Elab *E, ValId x, Loc loc, ValId *out) {
    *out = x;
    if (val_type(E->f, x).dtype == DT_BF16 && !val_type(E->f, x).is_ptr)
        return elab_cast(E, x, DT_F32, loc, out);
    return 0;
}

/* maximum(x, y) or minimum(x, y): numbers become tensors of their own
 * type first (Triton's to_tensor, not a weak constant: maximum(x, 0.0) of
 * an fp16 x is fp32, minimum of an int8 x and 1 is int32). */
static int min_max(Elab *E, Call *c, bool is_max, bool all, ValId *x, CV *out) {
    if (to_tensors(E, c, 2, x) < 0)
        return -1;
    /* of two bools (Triton's maxui/minui on int1): or, and */
    if (type_is_bool(val_type(E->f, x[0])) && type_is_bool(val_type(E->f, x[1])))
        return emit(E, is_max ? OP_OR : OP_AND, c->loc, x, 2, out);
    for (int i = 0; i < 2; i++)
        if (widened(E, x[i], c->locs[i], &x[i]) < 0)
            return -1;
    OpCode code = is_max ? (all ? OP_MAXIMUM_NAN : OP_MAXIMUM)
                         : (all ? OP_MINIMUM_NAN : OP_MINIMUM);
    return emit(E, code, c->loc, x, 2, out);
}

int h_maximum(Elab *E, Call *c, CV *out) {
    bool all;
    ValId x[2];
    if (propagate_nan(E, c, 2, &all) < 0)
        return -1;
    return min_max(E, c, c->b->op == OP_MAXIMUM, all, x, out);
}

/* clamp(x, min, max) = minimum(maximum(x, min), max), floats only. */
int h_clamp(Elab *E, Call *c, CV *out) {
    bool all;
    ValId x[3], r;
    if (propagate_nan(E, c, 3, &all) < 0 || to_tensors(E, c, 3, x) < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if (widened(E, x[i], c->locs[i], &x[i]) < 0)
            return -1;
    Type t = val_type(E->f, x[0]);
    DType d = promote_dtype(promote_dtype((DType)t.dtype, (DType)val_type(E->f, x[1]).dtype),
                            (DType)val_type(E->f, x[2]).dtype);
    if (t.is_ptr || !dtype_is_float(d))
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "Unexpected dtype %s. Only floating point clamp is supported",
                        d == DT_VOID || t.is_ptr ? "pointer" : triton_name(d));
    ValId lo[2] = {x[0], x[1]};
    if (elab_emit(E, all ? OP_MAXIMUM_NAN : OP_MAXIMUM, c->loc, lo, 2, 0, 0, &r) < 0)
        return -1;
    ValId hi[2] = {r, x[2]};
    return emit(E, all ? OP_MINIMUM_NAN : OP_MINIMUM, c->loc, hi, 2, out);
}

/* ---------------------------------------------- Triton's @jit functions */

/* tl.<name>(pos..., kw=kwv) through the builtin table, as Triton's
 * definitions call them (their checks and messages included). */
int tl_call(Elab *E, const char *name, CV *pos, int npos, const char *kw, CV kwv, Loc loc,
            CV *out) {
    CV fn;
    Loc locs[MAX_BUILTIN_PARAMS] = {loc, loc, loc, loc, loc, loc, loc, loc, loc};
    Args a;
    memset(&a, 0, sizeof a);
    a.npos = npos;
    a.pos = pos;
    a.posloc = locs;
    if (kw) {
        a.nkw = 1;
        a.kwname = &kw;
        a.kw = &kwv;
        a.kwloc = locs;
    }
    if (builtin_getattr(E, cv_module(MOD_TL, "triton.language"), name, loc, &fn) < 0)
        return -1;
    return builtin_call(E, fn, &a, loc, out);
}

/* sigmoid(x) = 1 / (1 + exp(-x)) */
int h_sigmoid(Elab *E, Call *c, CV *out) {
    CV t, e, d;
    if (cv_unary(E, OT_MINUS, c->a[0], c->loc, &t) < 0 ||
        tl_call(E, "exp", &t, 1, NULL, cv_none(), c->loc, &e) < 0 ||
        cv_binop(E, OT_PLUS, cv_int(1), e, c->loc, &d) < 0)
        return -1;
    return cv_binop(E, OT_SLASH, cv_int(1), d, c->loc, out);
}

/* softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
 * z = x - max(x, dim); num = exp(z); fdiv(num, sum(num, dim)), dim 0
 * when None, as Triton's definition reads. */
int h_softmax(Elab *E, Call *c, CV *out) {
    CV dim = c->have[1] && c->a[1].kind != CV_NONE ? c->a[1] : cv_int(0);
    CV keep = c->have[2] ? c->a[2] : cv_bool(false);
    CV args[3] = {c->a[0], dim}, m, z, num, den;
    if (tl_call(E, "max", args, 2, "keep_dims", keep, c->loc, &m) < 0 ||
        cv_binop(E, OT_MINUS, c->a[0], m, c->loc, &z) < 0 ||
        tl_call(E, "exp", &z, 1, NULL, cv_none(), c->loc, &num) < 0)
        return -1;
    args[0] = num;
    if (tl_call(E, "sum", args, 2, "keep_dims", keep, c->loc, &den) < 0)
        return -1;
    args[0] = num;
    args[1] = den;
    args[2] = c->have[3] ? c->a[3] : cv_bool(false);
    return tl_call(E, "fdiv", args, 3, NULL, cv_none(), c->loc, out);
}

/* ------------------------------------------------------------ libdevice */

/* An f32 value flushed to zero (a subnormal is a zero of its sign); any
 * other value as it is. */
static ValId flush_f32(Elab *E, ValId x, Loc loc) {
    Type t = val_type(E->f, x);
    ValId r;
    if (t.is_ptr || t.dtype != DT_F32 || elab_emit(E, OP_FTZ, loc, &x, 1, 0, 0, &r) < 0)
        return x;
    return r;
}

/* The operands' dtypes as Triton names them, "fp32, int32" (a pointer:
 * "pointer"), for a libdevice function's refusal. */
static void put_dtypes(Elab *E, StrBuf *sb, const ValId *x, int n) {
    for (int i = 0; i < n; i++) {
        Type t = val_type(E->f, x[i]);
        sb_printf(sb, "%s%s", i ? ", " : "", t.is_ptr ? "pointer" : triton_name((DType)t.dtype));
    }
}

/* A libdevice function: the argument dtypes must be one of its table's
 * tuples, (fp32, ...) or (fp64, ...) with every argument alike, fp32 only
 * for the fast_ ones; pow also takes an int32 exponent (powi), computed
 * here as the float power of its exact float value.  ftz: on fp32, its
 * operands and result flushed to zero, as Triton's libdevice (linked with
 * __CUDA_FTZ) computes every fp32 function but trunc, rint, nearbyint,
 * copysign and the predicates (their PTX has no .ftz form: checked on
 * Triton 3.6's sm_90 PTX). */
static int libdevice(Elab *E, Call *c, bool f64, bool powi, bool ftz, CV *out) {
    int n = op_info[c->b->op].nargs;
    ValId x[3];
    DType d[3] = {DT_VOID, DT_VOID, DT_VOID};
    if (to_tensors(E, c, n, x) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        Type t = val_type(E->f, x[i]);
        d[i] = t.is_ptr ? DT_VOID : (DType)t.dtype;
    }
    bool ok = d[0] == DT_F32 || (f64 && d[0] == DT_F64);
    for (int i = 1; i < n; i++)
        ok &= d[i] == d[0] || (powi && i == 1 && d[i] == DT_I32);
    if (!ok) {
        StrBuf got;
        sb_init(&got);
        put_dtypes(E, &got, x, n);
        int rc = elab_err(E, c->loc, MT_ERR_TYPE,
                          "%s() has no variant for (%s): it takes %s%s", c->b->display,
                          sb_str(&got), f64 ? "fp32 or fp64" : "fp32",
                          powi ? " (and an int32 exponent)"
                          : n > 1 ? " operands of one dtype" : "");
        sb_free(&got);
        return rc;
    }
    if (powi && d[1] == DT_I32 && elab_cast(E, x[1], d[0], c->loc, &x[1]) < 0)
        return -1;
    ftz &= d[0] == DT_F32;
    for (int i = 0; ftz && i < n; i++)
        x[i] = flush_f32(E, x[i], c->loc);
    ValId r;
    if (elab_emit(E, c->b->op, c->loc, x, n, 0, 0, &r) < 0)
        return -1;
    *out = cv_tensor(ftz ? flush_f32(E, r, c->loc) : r);
    return 0;
}

/* A libdevice function of libdevice.def: the symbol whose argument dtypes
 * are the arguments' (Python numbers as to_tensor types them), as
 * Triton's extern_elementwise picks it; the operands broadcast. */
int h_libdevice_call(Elab *E, Call *c, CV *out) {
    const char *name = strrchr(c->b->display, '.') + 1;
    int first = 0, n = c->b->nreq;
    bool to_bool = false;
    int nsyms = libdevice_fn(name, &first, &to_bool);
    ValId x[LIBDEVICE_MAX_ARGS];
    if (to_tensors(E, c, n, x) < 0)
        return -1;
    for (int k = first; k < first + nsyms; k++) {
        const LibdeviceSym *s = libdevice_sym(k);
        bool ok = true;
        for (int i = 0; i < n; i++) {
            Type t = val_type(E->f, x[i]);
            ok &= !t.is_ptr && t.dtype == s->args[i];
        }
        if (!ok)
            continue;
        ValId r;
        if (elab_emit(E, OP_LIBDEVICE, c->loc, x, n, k, 0, &r) < 0)
            return -1;
        if (to_bool && elab_cast(E, r, DT_I1, c->loc, &r) < 0)
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    StrBuf got, want;
    sb_init(&got);
    sb_init(&want);
    put_dtypes(E, &got, x, n);
    for (int k = first; k < first + nsyms; k++) {
        const LibdeviceSym *s = libdevice_sym(k);
        sb_puts(&want, k > first ? ", (" : "(");
        for (int i = 0; i < n; i++)
            sb_printf(&want, "%s%s", i ? ", " : "", triton_name(s->args[i]));
        sb_puts(&want, ")");
    }
    int rc = elab_err(E, c->loc, MT_ERR_TYPE, "%s() has no variant for (%s): it takes %s",
                      c->b->display, sb_str(&got), sb_str(&want));
    sb_free(&got);
    sb_free(&want);
    return rc;
}

int h_libdevice(Elab *E, Call *c, CV *out) { return libdevice(E, c, true, false, true, out); }
int h_libdevice_exact(Elab *E, Call *c, CV *out) {
    return libdevice(E, c, true, false, false, out);
}
int h_libdevice_f32(Elab *E, Call *c, CV *out) { return libdevice(E, c, false, false, true, out); }
int h_libdevice_pow(Elab *E, Call *c, CV *out) { return libdevice(E, c, true, true, true, out); }

/* The attributes of tl.PropagateNan, the tl.extra packages and libdevice
 * modules: 1 when `name` is none of them. */
int tlmath_module_attr(Elab *E, CV obj, const char *name, CV *out) {
    if (obj.sub == MOD_PROPAGATE_NAN) {
        if (strcmp(name, "NONE") && strcmp(name, "ALL"))
            return 1;
        *out = cv_int(strcmp(name, "ALL") ? PROPAGATE_NONE : PROPAGATE_ALL);
        return 0;
    }
    if (obj.sub == MOD_EXTRA && !strcmp(name, "cuda")) {
        *out = cv_module(MOD_EXTRA, "triton.language.extra.cuda");
        return 0;
    }
    if (obj.sub == MOD_EXTRA && !strcmp(name, "libdevice")) {
        *out = cv_module(MOD_LIBDEVICE, "triton.language.extra.libdevice");
        return 0;
    }
    return 1;
}
