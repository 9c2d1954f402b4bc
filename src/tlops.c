/* tlops.c: the handlers of the tl.* builtins that build IR ops.
 *
 * Input: a Call, bound to its row of builtins.c's table and checked there
 * (tensor operands materialised, axes normalised, dtypes resolved).
 * Output: the ops the builtin stands for, emitted into the elaboration's
 * current region through elab_emit (which types and verifies each), and
 * the builtin's value.
 *
 * Invariants: a handler checks only what its row's parameter checks cannot
 * (the first error wins, so the order of its checks is behaviour); generic
 * handlers (elementwise, axis, reduce, fill) read the op from the row, so
 * a builtin that is one op is a row in builtins.c and one in ops.def. */
#include "mt.h"

#include <math.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

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
int h_elementwise(Elab *E, Call *c, CV *out) {
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
int h_axis_op(Elab *E, Call *c, CV *out) {
    return emit_op(E, c, &c->t[0], 1, c->i[1], 0, out);
}

/* A reduction over one axis, or over all of them (innermost first) when
 * axis is None; keep_dims puts the reduced axes back with size 1.  A
 * scalar input goes to ir_infer_type, which names the op in its error, and
 * so does the tensor check here. */
static int reduce_body(Elab *E, Call *c, CV *out, bool *parity);

/* A sum in dtype int1 adds modulo 2, as Triton's i1 add wraps: the sum
 * is taken in i32 and its lowest bit kept. */
int h_reduce(Elab *E, Call *c, CV *out) {
    bool parity = false;
    if (reduce_body(E, c, out, &parity) < 0)
        return -1;
    if (!parity)
        return 0;
    ValId r = out->v, bits[2];
    Type t = val_type(E->f, r);
    bits[0] = r;
    bits[1] = const_int(E->f, (DType)t.dtype, 1);
    if (elab_emit(E, OP_AND, c->loc, bits, 2, 0, 0, &r) < 0 ||
        elab_cast(E, r, DT_I1, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

static int reduce_body(Elab *E, Call *c, CV *out, bool *parity) {
    OpCode code = c->b->op;
    ValId x, r;
    if (builtin_need_tensor(E, c->a[0], c->locs[0], op_info[code].name, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    if (code == OP_SUM) { /* Triton's _pick_sum_dtype */
        DType d = (DType)t.dtype;
        if (c->have[3] && c->a[3].kind != CV_NONE) {
            if (c->a[3].kind != CV_DTYPE || c->a[3].i)
                return elab_err(E, c->locs[3], MT_ERR_TYPE, "sum() dtype must be a tl dtype");
            d = (DType)c->a[3].sub;
            if (d == DT_I1 && !t.is_ptr) {
                *parity = true;
                d = DT_I32;
            }
        } else if (!t.is_ptr && (d == DT_I1 || dtype_is_int(d)) && dtype_info[d].bits < 32) {
            d = d == DT_I1 || dtype_is_unsigned(d) ? DT_U32 : DT_I32; /* a bool is unsigned */
        }
        if (!t.is_ptr && d != t.dtype && elab_cast(E, x, d, c->loc, &x) < 0)
            return -1;
        t = val_type(E->f, x);
    } else { /* max, min: Triton widens types narrower than 32 bits */
        if (c->have[2] && c->a[2].kind != CV_NONE &&
            !(cv_is_intlike(c->a[2]) && c->a[2].i == 0))
            return h_reduce_indices(E, c, out); /* tlscan.c */
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
    if (builtin_norm_axis(E, c->a[1], t.rank, 0, c->locs[1], &ax) < 0 ||
        elab_emit(E, code, c->loc, &x, 1, ax, 0, &r) < 0)
        return -1;
    if (keep && elab_expand_dims(E, r, (int)ax, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* A fill value: a scalar tensor, cast to the block's dtype as Triton's
 * full casts it (an i32 fills a bool block with x != 0), or a number,
 * converted as Triton's get_<dtype>(value) takes it (1 fills a bool block
 * with true, True a float block with 1.0). */
static int fill_value(Elab *E, CV v, DType d, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        if (t.rank > 0)
            return elab_err(E, loc, MT_ERR_TYPE, "full value must be scalar");
        if (t.is_ptr)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "full value of type %s cannot fill a %s block",
                            elab_type_text(E, t), dtype_name(d));
        return elab_cast(E, v.v, d, loc, out);
    }
    if (!cv_is_num(v))
        return elab_err(E, loc, MT_ERR_TYPE, "full value must be a number, got %s",
                        cv_kind_name(E, v));
    return cv_convert(E, v, d, loc, out);
}

/* zeros, empty, full and their _like forms: the row's op, of the checked
 * block type; full's value is parameter 1 in both forms. */
int h_fill(Elab *E, Call *c, CV *out) {
    ValId x = 0, r;
    int n = c->b->op == OP_FULL;
    if (n && fill_value(E, c->a[1], (DType)c->block.dtype, c->locs[1], &x) < 0)
        return -1;
    if (c->block.rank == 0) { /* shape (): a scalar of the dtype */
        DType d = (DType)c->block.dtype;
        if (!n && cv_convert(E, d == DT_I1 ? cv_bool(false) : cv_int(0), d, c->loc, &x) < 0)
            return -1;
        *out = cv_tensor(x);
        return 0;
    }
    if (elab_emit_typed(E, c->b->op, c->loc, &x, n, 0, 0, c->block, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

int h_identity(Elab *E, Call *c, CV *out) {
    *out = c->a[0];
    return 0;
}

/* ------------------------------------------------------ tl.* builtins */

int h_grid_axis(Elab *E, Call *c, CV *out) {
    if (c->i[0] < 0 || c->i[0] > 2)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s axis must be 0, 1, or 2 but got %lld",
                        c->b->display, (long long)c->i[0]);
    return emit_op(E, c, NULL, 0, c->i[0], 0, out);
}

int h_arange(Elab *E, Call *c, CV *out) {
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
    /* Triton: start >> 32 must be 0, so a negative start does not fit */
    if (lo.i < 0)
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "arange's start must be non-negative, got %lld", (long long)lo.i);
    if ((hi.i - lo.i) & (hi.i - lo.i - 1))
        return elab_err(E, c->loc, MT_ERR_TYPE, "arange's range must be a power of 2, got %lld",
                        (long long)(hi.i - lo.i));
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

int h_load(Elab *E, Call *c, CV *out) {
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

int h_store(Elab *E, Call *c, CV *out) {
    ValId m = 0, v;
    CV val = c->a[1];
    Type pt = val_type(E->f, c->t[0]);
    bool number = val.kind == CV_INT || val.kind == CV_FLOAT;
    if ((number ? as_pointee(E, val, pt, c->locs[1], &v)
                : cv_materialise(E, val, c->locs[1], &v)) < 0)
        return -1;
    /* pointers stored as their addresses into int64 / uint64, as Triton's
     * store casts its value to the pointee (test_where's pointer blocks) */
    Type vt = val_type(E->f, v);
    if (vt.is_ptr && (pt.dtype == DT_I64 || pt.dtype == DT_U64)) {
        Type addr = type_with_elem(vt, type_scalar((DType)pt.dtype));
        addr.is_ptr = false;
        if (elab_emit_typed(E, OP_BITCAST, c->locs[1], &v, 1, 0, 0, addr, &v) < 0)
            return -1;
    }
    if (c->a[2].kind != CV_NONE && cv_materialise(E, c->a[2], c->locs[2], &m) < 0)
        return -1;
    ValId sa[3] = {c->t[0], v, m};
    return elab_emit(E, OP_STORE, c->loc, sa, 3, 0, 0, NULL);
}

/* tl.abs and abs: folded on compile-time numbers, the op on tensors. */
int h_abs(Elab *E, Call *c, CV *out) {
    CV x = c->a[0];
    switch (x.kind) {
    case CV_TENSOR:
        if (type_is_bool(cv_type(E, x))) { /* |b| is b (Triton's int1 abs) */
            *out = x;
            return 0;
        }
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
int h_where(Elab *E, Call *c, CV *out) {
    ValId x[3];
    CV cond = c->a[0];
    if (cond.kind == CV_TENSOR) { /* Triton casts the condition to int1 */
        x[0] = cond.v;
        Type ct = cv_type(E, cond);
        if (!ct.is_ptr && ct.dtype != DT_I1 && elab_cast(E, x[0], DT_I1, c->locs[0], &x[0]) < 0)
            return -1;
    }
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
int h_cdiv(Elab *E, Call *c, CV *out) {
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

/* tl.cdiv is a @jit function of Triton's standard library, and what a
 * @jit function returns is a tensor (visit_Return's to_tensor): on two
 * numbers the quotient is Python's, then a tensor (`a_i8 + tl.cdiv(7, 2)`
 * is i32); triton.cdiv, a plain Python function, stays a number. */
int h_tl_cdiv(Elab *E, Call *c, CV *out) {
    return h_cdiv(E, c, out) < 0 ? -1 : cv_lift(E, *out, c->loc, out);
}

/* input_precision, or the older allow_tf32, as the dot's attribute; with
 * neither, "tf32", Triton's default on sm_80 and newer (the host backend
 * rounds the operands exactly as the GPU does).  A default the compile
 * options set (TRITON_F32_DEFAULT) comes before allow_tf32, as in
 * Triton's core.dot. */
static int dot_precision(Elab *E, Call *c, int64_t *prec) {
    *prec = DOT_TF32;
    bool named = c->have[3] && c->a[3].kind != CV_NONE;
    if (!named && E->in->fp32_default > 0) { /* Triton: `fp32_default or ...` */
        *prec = E->in->fp32_default - 1;
        return 0;
    }
    if (named) {
        if (c->a[3].kind != CV_STR)
            return elab_err(E, c->locs[3], MT_ERR_TYPE,
                            "input_precision must be a string, got %s",
                            cv_kind_name(E, c->a[3]));
        int p = dot_precision_of(c->a[3].s);
        if (p >= 0) {
            *prec = p;
            return 0;
        }
        return elab_err(E, c->locs[3], MT_ERR_TYPE,
                        "input_precision must be one of 'tf32', 'tf32x3', 'ieee', 'bf16x3', "
                        "'bf16x6', got '%s'", c->a[3].s);
    }
    if (c->have[4] && c->a[4].kind != CV_NONE) {
        if (!cv_is_intlike(c->a[4]))
            return elab_err(E, c->locs[4], MT_ERR_TYPE,
                            "allow_tf32 must be a compile-time bool");
        *prec = c->a[4].i ? DOT_TF32 : DOT_IEEE;
    }
    return 0;
}

/* x split into n bf16 parts, each the rounding (to nearest even) of what
 * the parts before it leave of x (Triton's splitF32). */
static int split_bf16(Elab *E, ValId x, int n, Loc loc, ValId part[3]) {
    for (int i = 0; i < n; i++) {
        if (elab_cast(E, x, DT_BF16, loc, &part[i]) < 0)
            return -1;
        ValId wide, d[2];
        if (i == n - 1)
            break;
        if (elab_cast(E, part[i], DT_F32, loc, &wide) < 0)
            return -1;
        d[0] = x;
        d[1] = wide;
        if (elab_emit(E, OP_SUB, loc, d, 2, 0, 0, &x) < 0)
            return -1;
    }
    return 0;
}

/* r = dot(a, b, r) on bf16 parts (tensor cores, f32 accumulation). */
static int dot_part(Elab *E, ValId a, ValId b, Loc loc, ValId *r) {
    ValId d[3] = {a, b, *r};
    return elab_emit(E, OP_DOT, loc, d, 3, 0, 0, r);
}

/* input_precision "bf16x3" / "bf16x6" of an f32 dot, as Triton's
 * F32DotTC pass builds it: each operand split into bf16 parts hi, mid
 * (and lo); from zero, the small products first (x6: mid*mid, lo*hi,
 * hi*lo), then mid*hi and hi*mid, NaNs of that sum replaced by 0 (a
 * non-finite part times a zero part), then hi*hi, then + acc (zeros
 * when none). */
static int dot_bf16xn(Elab *E, ValId x, ValId y, ValId acc, int prec, Loc loc, CV *out) {
    enum { HI, MID, LO };
    int n = prec == DOT_BF16X6 ? 3 : 2;
    ValId a[3], b[3], r, zero, isnan_, d[3];
    Type tx = val_type(E->f, x), ty = val_type(E->f, y);
    int32_t mn[3] = {tx.shape[0], tx.shape[tx.rank - 2], ty.shape[ty.rank - 1]};
    Type rt = type_block(type_scalar(DT_F32), tx.rank, mn + (tx.rank == 3 ? 0 : 1));
    if (split_bf16(E, x, n, loc, a) < 0 || split_bf16(E, y, n, loc, b) < 0 ||
        elab_emit_typed(E, OP_ZEROS, loc, NULL, 0, 0, 0, rt, &zero) < 0)
        return -1;
    r = zero;
    if (n == 3 && (dot_part(E, a[MID], b[MID], loc, &r) < 0 ||
                   dot_part(E, a[LO], b[HI], loc, &r) < 0 ||
                   dot_part(E, a[HI], b[LO], loc, &r) < 0))
        return -1;
    if (dot_part(E, a[MID], b[HI], loc, &r) < 0 || dot_part(E, a[HI], b[MID], loc, &r) < 0)
        return -1;
    d[0] = d[1] = r;
    if (elab_emit(E, OP_CMP_NE, loc, d, 2, 0, 0, &isnan_) < 0)
        return -1;
    d[0] = isnan_;
    d[1] = zero;
    d[2] = r;
    if (elab_emit(E, OP_SELECT, loc, d, 3, 0, 0, &r) < 0 ||
        dot_part(E, a[HI], b[HI], loc, &r) < 0)
        return -1;
    d[0] = r;
    d[1] = acc ? acc : zero;
    if (elab_emit(E, OP_ADD, loc, d, 2, 0, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* max_num_imprecise_acc of an fp8 dot (Triton's sm_90 rule): None, the
 * default, sums the whole K tile in wgmma's accumulator (0 in the IR);
 * n adds the partial sum of every n elements of K (at least one k32
 * step, so n = 0 is every step: 1 in the IR) into the f32 accumulator;
 * more than K is Triton's ValueError. */
static int imprecise_acc(Elab *E, Call *c, int K, int64_t *out) {
    CV v = c->a[5];
    *out = 0;
    if (!c->have[5] || v.kind == CV_NONE)
        return 0;
    if (v.kind != CV_INT)
        return elab_err(E, c->locs[5], MT_ERR_TYPE,
                        "tl.dot() max_num_imprecise_acc must be an int or None");
    if (v.i > K)
        return elab_err(E, c->locs[5], MT_ERR_TYPE,
                        "max_num_imprecise_acc (%lld) must be <= K (%d)", (long long)v.i, K);
    *out = v.i < 1 ? 1 : v.i;
    return 0;
}

/* tl.dot: f32, f16 and bf16 operands as they are; fp8 operands as they
 * are for an f32 result (widenfp8.c widens them to f16 where no fp8 unit
 * takes them: exact, and products of their values are exact in f32, so
 * the only rounding is the f32 accumulation Triton's tensor cores do
 * too), widened here for an f16 accumulator;
 * int8 operands as they are, an i32 result (the CUDA-core forms sum
 * each dot in f32, exact while a tile's sums stay below 2^24, so K is
 * at most 1024).  out_dtype
 * is float32, or float16 for f16 operands (an f16 accumulator, as
 * Triton's), or int32 for int8. */
/* Triton 3.6's core.dot checks the shapes before semantic.dot sees the
 * operands (asked on the GPU: a [2, 16, 16] by [16, 16] dot fails with
 * "input and other must have equal ranks >= 2"): ranks, batch shapes, the
 * reduction dims, in that order. */
static int dot_shapes(Elab *E, Call *c) {
    Type tx = val_type(E->f, c->a[0].v), ty = val_type(E->f, c->a[1].v);
    if (tx.rank != ty.rank || tx.rank < 2)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "input and other must have equal ranks >= 2 (%s and %s)",
                        elab_shape_text(E, tx), elab_shape_text(E, ty));
    for (int i = 0; i < tx.rank - 2; i++)
        if (tx.shape[i] != ty.shape[i])
            return elab_err(E, c->loc, MT_ERR_TYPE,
                            "input and other must have equal batch shapes (%s and %s)",
                            elab_shape_text(E, tx), elab_shape_text(E, ty));
    if (tx.shape[tx.rank - 1] != ty.shape[ty.rank - 2])
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "input and other must have equal reduction dimensions (%s and %s)",
                        elab_shape_text(E, tx), elab_shape_text(E, ty));
    return 0;
}

/* A dot of rank 4 and up, as Triton's core.dot does it (at 004d7f5, the
 * commit of its test suite): the batch dims flattened into one (operands
 * and acc reshaped to rank 3), the rank-3 dot, and its result reshaped
 * back.  dot_shapes has checked the shapes. */
static int dot_many_batch_dims(Elab *E, Call *c, CV *out) {
    Type tx = val_type(E->f, c->a[0].v), ty = val_type(E->f, c->a[1].v);
    int rank = tx.rank;
    int32_t batch = 1, cs[MT_MAX_RANK];
    for (int i = 0; i < rank - 2; i++)
        batch *= tx.shape[i];
    memcpy(cs, tx.shape, sizeof(int32_t) * (size_t)(rank - 1));
    cs[rank - 1] = ty.shape[rank - 1];
    Call flat = *c;
    int32_t s3[3] = {batch, 0, 0};
    for (int k = 0; k < 3; k++) {
        if (k == 2 && !(c->have[2] && c->a[2].kind == CV_TENSOR))
            break;
        if (k == 2 && val_type(E->f, c->a[2].v).rank != rank)
            return elab_err(E, c->locs[2], MT_ERR_TYPE, "accumulator shape is incompatible");
        const int32_t *sh = k == 2 ? cs : k ? ty.shape : tx.shape;
        s3[1] = sh[rank - 2];
        s3[2] = sh[rank - 1];
        ValId r;
        if (tl_shape_reshape(E, c->a[k].v, 3, s3, c->loc, &r) < 0)
            return -1;
        flat.a[k] = cv_tensor(r);
    }
    CV res;
    if (h_dot(E, &flat, &res) < 0)
        return -1;
    ValId r;
    if (tl_shape_reshape(E, res.v, rank, cs, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

int h_dot(Elab *E, Call *c, CV *out) {
    int64_t prec = 0;
    if (c->a[0].kind != CV_TENSOR || c->a[1].kind != CV_TENSOR)
        return elab_err(E, c->loc, MT_ERR_TYPE, "tl.dot() expects two tensors");
    if (dot_shapes(E, c) < 0)
        return -1;
    if (val_type(E->f, c->a[0].v).rank >= 4)
        return dot_many_batch_dims(E, c, out);
    if (dot_precision(E, c, &prec) < 0)
        return -1;
    ValId x = c->a[0].v, y = c->a[1].v, acc = 0, r;
    Type tx = val_type(E->f, x), ty = val_type(E->f, y);
    DType dx = (DType)tx.dtype, dy = (DType)ty.dtype;
    bool i8 = dx == DT_I8 && dy == DT_I8;
    bool f64 = dx == DT_F64 && dy == DT_F64;
    bool fl = type_is_float(tx) && type_is_float(ty) && dx != DT_F64 && dy != DT_F64;
    if (!i8 && !f64 && !(fl && (dx == dy || (dtype_info[dx].bits == 8 && dtype_info[dy].bits == 8))))
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "tl.dot() operands must be both float64, float32, float16, bfloat16, "
                        "fp8 or int8, got %s and %s", dtype_info[dx].tl_name, dtype_info[dy].tl_name);
    /* ranks 2 or 3, batch and reduction dims agree (dot_shapes) */
    int kx = tx.shape[tx.rank - 1];
    /* Triton's result type: int32 for int8, float64 for float64 and float32
     * for float32/bfloat16 operands whatever out_dtype says; out_dtype
     * itself for f16 and fp8 */
    DType od = i8 ? DT_I32 : f64 ? DT_F64 : DT_F32;
    CV odv = c->a[6];
    if (c->have[6] && odv.kind != CV_NONE) {
        if (odv.kind != CV_DTYPE || odv.i)
            return elab_err(E, c->locs[6], MT_ERR_TYPE, "tl.dot() out_dtype must be a dtype");
        if (!i8 && odv.sub == DT_BF16)
            return elab_err(E, c->locs[6], MT_ERR_TYPE,
                            "out_dtype=bfloat16 is unsupported. Please use "
                            "out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`");
        if (!i8 && !f64 && dx != DT_F32 && dx != DT_BF16) {
            if (odv.sub != DT_F32 && odv.sub != DT_F16)
                return elab_err(E, c->locs[6], MT_ERR_TYPE,
                                "tl.dot() out_dtype must be float32 or float16");
            od = (DType)odv.sub;
        }
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
    /* f32, f16 and bf16 operands go to the dot as they are (tensor cores
     * take them; the CUDA-core lowering widens them exactly when it stages
     * them in shared memory); the dot adds in f32 */
    if (f64) { /* exact products on CUDA cores, in f64; precision is moot */
        ValId da[3] = {x, y, acc};
        return emit_op(E, c, da, 3, DOT_IEEE, 0, out);
    }
    if (dx == DT_F32 && dy == DT_F32 && (prec == DOT_BF16X3 || prec == DOT_BF16X6))
        return dot_bf16xn(E, x, y, acc, (int)prec, c->loc, out);
    if (type_is_float(tx) && dtype_info[dx].bits == 8 && od == DT_F32) {
        /* fp8 operands as they are, for wgmma's fp8 tiles; widenfp8.c
         * widens them to f16 for every other unit */
        ValId da[3] = {x, y, acc};
        int64_t imprecise = 0;
        if (imprecise_acc(E, c, kx, &imprecise) < 0)
            return -1;
        return emit_op(E, c, da, 3, 0, imprecise, out);
    }
    if (type_is_float(tx) && dtype_info[dx].bits == 8) {
        /* fp8 operands as f16, exactly (e5m2 is f16's top byte, e4m3's
         * range and precision lie inside f16's), for an f16 accumulator */
        if (elab_cast(E, x, DT_F16, c->loc, &x) < 0 || elab_cast(E, y, DT_F16, c->loc, &y) < 0)
            return -1;
        dx = dy = DT_F16;
    }
    if (dx == DT_F16 && dy == DT_F16 && od == DT_F16) {
        /* Triton accumulates in f16 here (mma.f16.f16.f16.f16) */
        ValId facc = acc;
        int32_t mn[3] = {tx.shape[0], tx.shape[tx.rank - 2], ty.shape[ty.rank - 1]};
        Type rt = type_block(type_scalar(DT_F16), tx.rank, mn + (tx.rank == 3 ? 0 : 1));
        if (!facc && elab_emit_typed(E, OP_ZEROS, c->loc, NULL, 0, 0, 0, rt, &facc) < 0)
            return -1;
        ValId da[3] = {x, y, facc};
        return emit_op(E, c, da, 3, 0, 0, out);
    }
    if (dx == dy && (dx == DT_F32 || dx == DT_F16 || dx == DT_BF16)) {
        ValId facc = acc;
        if (facc && od != DT_F32 && elab_cast(E, facc, DT_F32, c->loc, &facc) < 0)
            return -1;
        ValId da[3] = {x, y, facc};
        if (elab_emit(E, OP_DOT, c->loc, da, 3, dx == DT_F32 ? prec : 0, 0, &r) < 0 ||
            (od != DT_F32 && elab_cast(E, r, od, c->loc, &r) < 0))
            return -1;
        *out = cv_tensor(r);
        return 0;
    }
    if (i8 && kx < 32) /* Triton's check */
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "int8 tl.dot() needs an inner dimension K >= 32, got %d", kx);
    if (i8 && (int64_t)kx * 128 * 128 > (1 << 24))
        return elab_err(E, c->loc, MT_ERR_UNSUPPORTED,
                        "int8 tl.dot() with an inner dimension over 1024 is not supported yet");
    /* int8: the dot itself, i8 operands and an i32 result (acc added) */
    ValId da[3] = {x, y, acc};
    return emit_op(E, c, da, 3, 0, 0, out);
}

/* Casts that involve pointers, as Triton's cast does them: an integer to a
 * pointer (through i64), a pointer to i64/u64 (its address) or to bool
 * (address != 0), a pointer to a pointer of another element type. */
static int pointer_cast(Elab *E, Call *c, ValId x, CV *out) {
    Type t = val_type(E->f, x);
    Type want = type_with_elem(t, type_scalar(c->dtype));
    want.is_ptr = c->dtype_ptr;
    ValId r = x;
    if (c->dtype_ptr && !t.is_ptr) {
        if (!type_is_int(t))
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "cannot cast %s to a pointer",
                            elab_type_text(E, t));
        if (t.dtype != DT_I64 && t.dtype != DT_U64 && elab_cast(E, x, DT_I64, c->loc, &r) < 0)
            return -1;
    } else if (!c->dtype_ptr) {
        if (c->dtype == DT_I1) {
            ValId a = 0, zero = const_int(E->f, DT_I64, 0), ne[2];
            Type ti = type_with_elem(t, type_scalar(DT_I64));
            if (elab_emit_typed(E, OP_BITCAST, c->loc, &x, 1, 0, 0, ti, &a) < 0)
                return -1;
            ne[0] = a;
            ne[1] = zero;
            if (elab_emit(E, OP_CMP_NE, c->loc, ne, 2, 0, 0, &r) < 0)
                return -1;
            *out = cv_tensor(r);
            return 0;
        }
        if (c->dtype != DT_I64 && c->dtype != DT_U64)
            return elab_err(E, c->locs[0], MT_ERR_TYPE,
                            "a pointer casts only to int64, uint64 or bool, not %s",
                            dtype_info[c->dtype].tl_name);
    }
    if (type_eq(val_type(E->f, r), want)) {
        *out = cv_tensor(r);
        return 0;
    }
    if (elab_emit_typed(E, OP_BITCAST, c->loc, &r, 1, 0, 0, want, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* tl.cast and x.to: a compile-time number is converted at compile time;
 * bitcast=True reinterprets bits of the same width; fp_downcast_rounding
 * ("rtne", the default, or "rtz") only for a float to a narrower float,
 * as Triton checks it. */
int h_cast(Elab *E, Call *c, CV *out) {
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
    if (c->dtype_ptr || t.is_ptr)
        return pointer_cast(E, c, r, out);
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

int h_static_assert(Elab *E, Call *c, CV *out) {
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

/* tl.pointer_type(dtype): a dtype value with the pointer flag, as
 * x.dtype of a pointer tensor is. */
int h_pointer_type(Elab *E, Call *c, CV *out) {
    CV t = c->a[0];
    if (t.kind != CV_DTYPE || t.i)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "tl.pointer_type() needs a scalar tl dtype (pointers to pointers are "
                        "not supported), got %s",
                        t.kind == CV_DTYPE ? "a pointer type" : cv_kind_name(E, t));
    if (c->have[1] && !(cv_is_intlike(c->a[1]) && c->a[1].i == 1))
        return elab_err(E, c->locs[1], MT_ERR_UNSUPPORTED,
                        "tl.pointer_type() supports only address space 1 (global)");
    *out = cv_dtype(t.sub);
    out->i = 1;
    return 0;
}

/* The row's op: an effect without operands or result (debug_barrier). */
int h_effect(Elab *E, Call *c, CV *out) {
    return elab_emit(E, c->b->op, c->loc, NULL, 0, 0, 0, NULL);
}

/* tl.assume: the condition is evaluated (its errors are reported) and
 * nothing is emitted. */
int h_assume(Elab *E, Call *c, CV *out) {
    CV v = c->a[0];
    if (v.kind != CV_TENSOR && !cv_is_num(v))
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() condition must be a tensor or a "
                        "number, got %s", c->b->display, cv_kind_name(E, v));
    return 0;
}

/* tl.condition(cond, disable_licm=False): a while loop's condition with
 * Triton's scheduling hint, which never changes results: the condition
 * itself (the hint is checked for type only). */
int h_condition(Elab *E, Call *c, CV *out) {
    if (c->have[1] && c->a[1].kind != CV_BOOL && c->a[1].kind != CV_NONE)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "tl.condition() disable_licm must be a compile-time bool, got %s",
                        cv_kind_name(E, c->a[1]));
    *out = c->a[0];
    return 0;
}

/* range headers are bound by bind_range in a for loop, never called. */
int h_loop_only(Elab *E, Call *c, CV *out) {
    return elab_err(E, c->loc, MT_ERR_UNSUPPORTED, "%s() can only be used in a for loop",
                    c->b->display);
}

int h_jit(Elab *E, Call *c, CV *out) {
    return elab_err(E, c->loc, MT_ERR_UNSUPPORTED, "triton.jit cannot be called in a kernel");
}
