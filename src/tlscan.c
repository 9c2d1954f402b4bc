/* tlscan.c: the handlers of the generic reductions and scans: tl.xor_sum,
 * tl.cumsum, tl.cumprod (ops with a C text, ops.def), tl.reduce and
 * tl.associative_scan (reduce and scan ops whose combine is a region),
 * tl.argmax, tl.argmin and tl.max/tl.min(return_indices=True) (a reduce of
 * (value, index) pairs with Triton's combine built here), tl.histogram (a
 * sum of comparisons), tl.sort of 1-D blocks (ranks by comparison, then a
 * reduce that places each element at its rank).
 *
 * Input: a Call bound and checked by builtins.c.  Output: reduce and scan
 * ops in the elaboration's current region (elab_emit types each one by
 * the rules of typerules.c; op_new_combine makes a region op), and the
 * builtin's value: a tensor, or a tuple when the input was a tuple.
 *
 * Invariants: Triton's dtype rules are applied here, before the op
 * (standard.py: cumsum widens integers narrower than 32 bits, bf16 scans
 * and arg-reductions in f32); a reduction over axis=None reduces every
 * axis, innermost first; a combine region is built with the elaboration's
 * region switched to the op's body, a @jit combine inlined there by
 * elab_call_jit on the 2n scalar parameters, and holds only scalar ops
 * (the verifier checks it); every bad argument is a located error naming
 * the builtin. */
#include "mt.h"

#include <string.h>

/* A compile-time bool argument (absent: dflt). */
static int flag_arg(Elab *E, Call *c, int i, const char *what, bool dflt, bool *out) {
    *out = dflt;
    if (!c->have[i] || c->a[i].kind == CV_NONE)
        return 0;
    if (!cv_is_intlike(c->a[i]))
        return elab_err(E, c->locs[i], MT_ERR_TYPE, "%s() %s must be a compile-time bool, got %s",
                        c->b->display + 3, what, cv_kind_name(E, c->a[i]));
    *out = c->a[i].i != 0;
    return 0;
}

/* Parameter 0 as a block tensor (a scalar is refused, as in Triton). */
static int block_arg(Elab *E, Call *c, ValId *out) {
    const char *fn = c->b->display + 3;
    if (builtin_need_tensor(E, c->a[0], c->locs[0], fn, out) < 0)
        return -1;
    Type t = val_type(E->f, *out);
    if (t.rank == 0 || t.is_ptr)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects a block, got %s", fn,
                        elab_type_text(E, t));
    return 0;
}

/* ------------------------------------------------------------ reductions */

/* The row's op over the axis of parameter `ai` (None: every axis,
 * innermost first), keep_dims (parameter `ki`) putting the reduced axes
 * back with size 1. */
static int reduce_axes(Elab *E, Call *c, ValId x, int ai, int ki, CV *out) {
    Type t = val_type(E->f, x);
    bool keep;
    if (flag_arg(E, c, ki, "keep_dims", false, &keep) < 0)
        return -1;
    ValId r = x;
    if (!c->have[ai] || c->a[ai].kind == CV_NONE) {
        for (int ax = t.rank - 1; ax >= 0; ax--)
            if (elab_emit(E, c->b->op, c->loc, &r, 1, ax, 0, &r) < 0)
                return -1;
        for (int i = 0; keep && i < t.rank; i++)
            if (elab_expand_dims(E, r, 0, c->loc, &r) < 0)
                return -1;
    } else {
        int64_t ax;
        if (builtin_norm_axis(E, c->a[ai], t.rank, 0, c->locs[ai], &ax) < 0 ||
            elab_emit(E, c->b->op, c->loc, &x, 1, ax, 0, &r) < 0)
            return -1;
        if (keep && elab_expand_dims(E, r, (int)ax, c->loc, &r) < 0)
            return -1;
    }
    *out = cv_tensor(r);
    return 0;
}

/* xor_sum(input, axis=None, keep_dims=False): integers (bool too) only,
 * in their own type (Triton widens nothing here). */
int h_xor_sum(Elab *E, Call *c, CV *out) {
    ValId x;
    if (block_arg(E, c, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    if (!type_is_int(t) && (t.dtype != DT_I1 || t.is_ptr)) /* int1 is an int to Triton */
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "xor_sum only supported for integers, got %s", elab_type_text(E, t));
    if (t.dtype != DT_I1)
        return reduce_axes(E, c, x, 1, 2, out);
    /* bools: the parity of the trues, reduced as int32 and tested != 0 */
    ValId w;
    if (elab_cast(E, x, DT_I32, c->loc, &w) < 0 || reduce_axes(E, c, w, 1, 2, out) < 0)
        return -1;
    if (out->kind != CV_TENSOR)
        return 0;
    ValId b;
    if (elab_cast(E, out->v, DT_I1, c->loc, &b) < 0)
        return -1;
    *out = cv_tensor(b);
    return 0;
}

/* ----------------------------------------------------------------- scans */

/* cumsum(input, axis=0, reverse=False, dtype=None) and cumprod(input,
 * axis=0, reverse=False): bf16 scans in f32; cumsum's integers narrower
 * than 32 bits in int32 (uint32 when unsigned or bool), or in dtype. */
int h_scan(Elab *E, Call *c, CV *out) {
    ValId x;
    if (block_arg(E, c, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    DType d = (DType)t.dtype;
    if (d == DT_BF16)
        d = DT_F32;
    if (c->b->op == OP_CUMSUM) {
        if (c->have[3] && c->a[3].kind != CV_NONE) {
            if (c->a[3].kind != CV_DTYPE || c->a[3].i)
                return elab_err(E, c->locs[3], MT_ERR_TYPE,
                                "cumsum() dtype must be a tl dtype, got %s",
                                cv_kind_name(E, c->a[3]));
            d = (DType)c->a[3].sub;
        } else if ((d == DT_I1 || dtype_is_int(d)) && dtype_info[d].bits < 32) {
            d = d == DT_I1 || dtype_is_unsigned(d) ? DT_U32 : DT_I32;
        }
    }
    if (d != t.dtype && elab_cast(E, x, d, c->loc, &x) < 0)
        return -1;
    t = val_type(E->f, x);
    if (c->have[1] && c->a[1].kind == CV_NONE)
        return elab_err(E, c->locs[1], MT_ERR_TYPE, "%s() axis must be an integer, got None",
                        c->b->display + 3);
    int64_t ax = 0;
    bool rev;
    if ((c->have[1] && builtin_norm_axis(E, c->a[1], t.rank, 0, c->locs[1], &ax) < 0) ||
        flag_arg(E, c, 2, "reverse", false, &rev) < 0)
        return -1;
    ValId r;
    if (elab_emit(E, c->b->op, c->loc, &x, 1, ax, rev, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* ------------------------------------------------------ combine regions */

/* How a reduce or scan gets its combine region: a @jit function inlined,
 * or Triton's argmax/argmin combine built here. */
typedef struct Combiner {
    CV fn;            /* CV_JITFN, or none for arg_max */
    Loc fn_loc;
    bool arg_max;     /* argmax (true) or argmin, on (value, index) */
    bool pick;        /* tl.sort's placement: (flag, value) -> the flagged value */
    bool is_max;
    bool tie_left;
} Combiner;

static int emit2(Elab *E, OpCode code, Loc loc, ValId a, ValId b, ValId *out) {
    ValId args[2] = {a, b};
    return elab_emit(E, code, loc, args, 2, 0, 0, out);
}

/* standard.py's _argmax_combine / _argmin_combine: the left pair wins
 * when its value is greater (less), or, breaking ties to the left, equal
 * with a smaller index.  NaN compares false, so which NaN survives follows
 * the order of the combines, as in Triton. */
static int argmax_body(Elab *E, Op *op, const Combiner *cb, Loc loc) {
    ValId v1 = op->iters[0], i1 = op->iters[1], v2 = op->iters[2], i2 = op->iters[3];
    ValId win, eq, lt, tie, v, i;
    if (emit2(E, cb->is_max ? OP_CMP_GT : OP_CMP_LT, loc, v1, v2, &win) < 0)
        return -1;
    if (cb->tie_left && (emit2(E, OP_CMP_EQ, loc, v1, v2, &eq) < 0 ||
                         emit2(E, OP_CMP_LT, loc, i1, i2, &lt) < 0 ||
                         emit2(E, OP_AND, loc, eq, lt, &tie) < 0 ||
                         emit2(E, OP_OR, loc, win, tie, &win) < 0))
        return -1;
    ValId sv[3] = {win, v1, v2}, si[3] = {win, i1, i2};
    if (elab_emit(E, OP_SELECT, loc, sv, 3, 0, 0, &v) < 0 ||
        elab_emit(E, OP_SELECT, loc, si, 3, 0, 0, &i) < 0)
        return -1;
    op->yields[0] = v;
    op->yields[1] = i;
    return 0;
}

/* (f1 | f2, f1 ? v1 : v2): the value of the one flagged element, bit for
 * bit, whatever the order of the combines. */
static int pick_body(Elab *E, Op *op, Loc loc) {
    ValId f1 = op->iters[0], v1 = op->iters[1], f2 = op->iters[2], v2 = op->iters[3];
    ValId sv[3] = {f1, v1, v2};
    if (emit2(E, OP_OR, loc, f1, f2, &op->yields[0]) < 0 ||
        elab_emit(E, OP_SELECT, loc, sv, 3, 0, 0, &op->yields[1]) < 0)
        return -1;
    return 0;
}

/* The function inlined on the 2n parameters; its n results (a tensor, or
 * a tuple of them; numbers take the operand's dtype) are the yields. */
static int jit_body(Elab *E, Op *op, const Combiner *cb, const char *fn, Loc loc) {
    int n = op->nres;
    Args a;
    memset(&a, 0, sizeof a);
    a.npos = 2 * n;
    a.pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(2 * n));
    a.posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)(2 * n));
    for (int k = 0; k < 2 * n; k++) {
        a.pos[k] = cv_tensor(op->iters[k]);
        a.posloc[k] = loc;
    }
    CV ret;
    if (elab_call_jit(E, cb->fn.fn, &a, loc, &ret) < 0)
        return -1;
    int got = ret.kind == CV_TUPLE ? ret.n : ret.kind == CV_NONE ? 0 : 1;
    if (got != n)
        return elab_err(E, cb->fn_loc, MT_ERR_TYPE,
                        "%s() combine_fn '%s' returned %d values, expected %d", fn,
                        cb->fn.fn->name, got, n);
    for (int k = 0; k < n; k++) {
        CV v = ret.kind == CV_TUPLE ? ret.items[k] : ret;
        Type e = type_elem(val_type(E->f, op->args[k]));
        if (cv_is_num(v)) {
            if (cv_convert(E, v, (DType)e.dtype, loc, &op->yields[k]) < 0)
                return -1;
            continue;
        }
        if (v.kind != CV_TENSOR || !type_eq(cv_type(E, v), e))
            return elab_err(E, cb->fn_loc, MT_ERR_TYPE,
                            "%s() combine_fn '%s' result %d is %s, expected %s", fn,
                            cb->fn.fn->name, k + 1, cv_kind_name(E, v), elab_type_text(E, e));
        op->yields[k] = v.v;
    }
    return 0;
}

/* One reduce or scan op over xs[0..n) along axis, its region built by cb
 * inside it; the results in outs. */
static int combine_op(Elab *E, Call *c, OpCode code, const ValId *xs, int n, int axis,
                      bool rev, const Combiner *cb, ValId *outs) {
    if (E->const_eval)
        return elab_err(E, c->loc, MT_ERR_TYPE, "module-level constants must be compile-time values");
    Op *op = op_new_combine(E->f, E->region, code, c->loc, xs, n, axis, rev);
    Region *saved = E->region;
    E->region = op->body;
    int rc = cb->arg_max ? argmax_body(E, op, cb, c->loc)
             : cb->pick  ? pick_body(E, op, c->loc)
                         : jit_body(E, op, cb, c->b->display + 3, c->loc);
    E->region = saved;
    for (int k = 0; k < n; k++)
        outs[k] = op->res[k];
    return rc;
}

/* Parameter 0 as n blocks of one shape: a tensor, or a tuple of them. */
static int operands(Elab *E, Call *c, ValId *xs, int *n) {
    const char *fn = c->b->display + 3;
    CV in = c->a[0];
    int m = in.kind == CV_TUPLE ? in.n : 1;
    if (m < 1 || m > MT_MAX_COMBINE)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() takes 1 to %d input tensors, got %d",
                        fn, MT_MAX_COMBINE, m);
    for (int k = 0; k < m; k++) {
        CV v = in.kind == CV_TUPLE ? in.items[k] : in;
        if (builtin_need_tensor(E, v, c->locs[0], fn, &xs[k]) < 0)
            return -1;
        Type t = val_type(E->f, xs[k]), t0 = val_type(E->f, xs[0]);
        if (t.rank == 0 || t.is_ptr)
            return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects blocks, got %s", fn,
                            elab_type_text(E, t));
        if (!type_eq(type_with_elem(t0, type_elem(t)), t))
            return elab_err(E, c->locs[0], MT_ERR_TYPE,
                            "%s() inputs must have the same shape, got %s and %s", fn,
                            elab_type_text(E, t0), elab_type_text(E, t));
    }
    *n = m;
    return 0;
}

/* The value of n results: the tensor, or a tuple when the input was one. */
static CV results(Elab *E, const ValId *rs, int n, bool tuple) {
    if (!tuple)
        return cv_tensor(rs[0]);
    CV t = cv_tuple(E, n);
    for (int k = 0; k < n; k++)
        t.items[k] = cv_tensor(rs[k]);
    return t;
}

/* A reduce over the axis of parameter ai (None: every axis, innermost
 * first, as Triton reduces the flattened block), keep_dims (parameter ki)
 * putting the reduced axes back with size 1. */
static int reduce_regions(Elab *E, Call *c, ValId *xs, int n, int ai, int ki,
                          const Combiner *cb, ValId *rs) {
    Type t = val_type(E->f, xs[0]);
    bool keep;
    if (flag_arg(E, c, ki, "keep_dims", false, &keep) < 0)
        return -1;
    bool all = !c->have[ai] || c->a[ai].kind == CV_NONE;
    int64_t ax = 0;
    if (!all && builtin_norm_axis(E, c->a[ai], t.rank, 0, c->locs[ai], &ax) < 0)
        return -1;
    memcpy(rs, xs, sizeof(ValId) * (size_t)n);
    for (int a = all ? t.rank - 1 : (int)ax; a >= (all ? 0 : ax); a--)
        if (combine_op(E, c, OP_REDUCE, rs, n, a, false, cb, rs) < 0)
            return -1;
    for (int k = 0; keep && k < n; k++)
        for (int i = 0; i < (all ? t.rank : 1); i++)
            if (elab_expand_dims(E, rs[k], all ? 0 : (int)ax, c->loc, &rs[k]) < 0)
                return -1;
    return 0;
}

static int jit_combiner(Elab *E, Call *c, int i, Combiner *cb) {
    memset(cb, 0, sizeof *cb);
    cb->fn = c->a[i];
    cb->fn_loc = c->locs[i];
    if (cb->fn.kind != CV_JITFN || !cb->fn.fn->is_jit)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "%s() combine_fn must be a @triton.jit function, got %s",
                        c->b->display + 3,
                        cb->fn.kind == CV_JITFN ? cb->fn.fn->name : cv_kind_name(E, cb->fn));
    return 0;
}

/* ------------------------------------------------------ map_elementwise */

/* x with its last dim d replaced by the dims of `last` (n of them). */
static int reshape_last(Elab *E, ValId x, const int32_t *last, int n, Loc loc, ValId *out) {
    Type t = val_type(E->f, x);
    int32_t shape[MT_MAX_RANK];
    int r = t.rank - 1;
    if (r + n > MT_MAX_RANK)
        return elab_err(E, loc, MT_ERR_TYPE, "map_elementwise() pack needs rank %d, more "
                        "than %d", r + n, MT_MAX_RANK);
    memcpy(shape, t.shape, sizeof(int32_t) * (size_t)r);
    memcpy(shape + r, last, sizeof(int32_t) * (size_t)n);
    return tl_shape_reshape(E, x, r + n, shape, loc, out);
}

/* The q blocks y[..., j] (j < q, a power of two >= 2) of y [..., q], each
 * without the last dim: split halves the last dim by its lowest bit, so
 * the even j come from one half and the odd ones from the other. */
static int unpack_last(Elab *E, ValId y, int q, Loc loc, ValId *out) {
    ValId half[2];
    if (q > 2) {
        int32_t two[2] = {q / 2, 2};
        if (reshape_last(E, y, two, 2, loc, &y) < 0)
            return -1;
    }
    for (int b = 0; b < 2; b++)
        if (elab_emit(E, OP_SPLIT, loc, &y, 1, b, 0, &half[b]) < 0)
            return -1;
    if (q == 2) {
        out[0] = half[0], out[1] = half[1];
        return 0;
    }
    ValId part[2][MT_MAX_MAP];
    for (int b = 0; b < 2; b++)
        if (unpack_last(E, half[b], q / 2, loc, part[b]) < 0)
            return -1;
    for (int u = 0; u < q / 2; u++)
        out[2 * u] = part[0][u], out[2 * u + 1] = part[1][u];
    return 0;
}

/* unpack_last's inverse, with its last two dims merged: q blocks [..., n]
 * (q a power of two >= 2) as one [..., n * q] whose element k * q + j is
 * element k of in[j].  Each level joins two halves and merges the new dim
 * at once, so no value of rank above 2 meets a two-operand join (which the
 * CUDA lowering reads from held blocks only). */
static int pack_last(Elab *E, const ValId *in, int q, Loc loc, ValId *out) {
    ValId half[2];
    if (q == 2) {
        half[0] = in[0], half[1] = in[1];
    } else {
        ValId part[2][MT_MAX_MAP];
        for (int u = 0; u < q / 2; u++)
            part[0][u] = in[2 * u], part[1][u] = in[2 * u + 1];
        for (int b = 0; b < 2; b++)
            if (pack_last(E, part[b], q / 2, loc, &half[b]) < 0)
                return -1;
    }
    ValId joined;
    if (elab_emit(E, OP_JOIN, loc, half, 2, 0, 0, &joined) < 0)
        return -1;
    Type t = val_type(E->f, joined); /* [..., m, 2] -> [..., 2 m] */
    int32_t shape[MT_MAX_RANK];
    memcpy(shape, t.shape, sizeof(int32_t) * (size_t)(t.rank - 1));
    shape[t.rank - 2] *= 2;
    return tl_shape_reshape(E, joined, t.rank - 1, shape, loc, out);
}

/* map_elementwise(scalar_fn, *args, pack=1), as Triton's: the operands
 * broadcast to one shape, the @jit function inlined once on one scalar
 * parameter per operand in the op's region, which the backends run on
 * every element; its results (a tensor, a number, or a tuple of them)
 * give the op's results, one block each, or a tuple. */
int h_map_elementwise(Elab *E, Call *c, CV *out) {
    const Args *a = c->args;
    CV pack = cv_int(1);
    Loc ploc = c->loc;
    for (int k = 0; k < a->nkw; k++) {
        if (strcmp(a->kwname[k], "pack"))
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "map_elementwise() got an unexpected keyword argument '%s'",
                            a->kwname[k]);
        pack = a->kw[k];
        ploc = a->kwloc[k];
    }
    if (a->npos < 2)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "map_elementwise() takes a @triton.jit function and 1 or more tensors");
    CV fn = a->pos[0];
    if (fn.kind != CV_JITFN || !fn.fn->is_jit)
        return elab_err(E, a->posloc[0], MT_ERR_TYPE,
                        "map_elementwise() scalar_fn must be a @triton.jit function, got %s",
                        fn.kind == CV_JITFN ? fn.fn->name : cv_kind_name(E, fn));
    if (pack.kind != CV_INT || pack.i < 1 || pack.i > MT_MAX_MAP || (pack.i & (pack.i - 1)))
        return elab_err(E, ploc, MT_ERR_TYPE, "map_elementwise() pack must be a compile-time "
                        "power of 2 up to %d", MT_MAX_MAP);
    int p = (int)pack.i;
    int n = a->npos - 1;
    if (n > MT_MAX_MAP)
        return elab_err(E, c->loc, MT_ERR_TYPE, "map_elementwise() takes at most %d tensors",
                        MT_MAX_MAP);
    if (E->const_eval)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    ValId xs[MT_MAX_MAP];
    Type shape = type_scalar(DT_I32);
    for (int k = 0; k < n; k++) {
        if (builtin_need_tensor(E, a->pos[k + 1], a->posloc[k + 1], "map_elementwise", &xs[k]) < 0)
            return -1;
        Type t = val_type(E->f, xs[k]);
        if (t.is_ptr)
            return elab_err(E, a->posloc[k + 1], MT_ERR_TYPE,
                            "map_elementwise() maps numbers, got %s", elab_type_text(E, t));
        if (broadcast_shapes(shape, t, &shape) < 0)
            return elab_err(E, a->posloc[k + 1], MT_ERR_TYPE,
                            "cannot broadcast %s and %s to one shape", elab_type_text(E, shape),
                            elab_type_text(E, t));
    }
    if (shape.rank == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE, "map_elementwise() expects a block");
    int last = shape.shape[shape.rank - 1];
    if (n * p > MT_MAX_MAP || last % p)
        return elab_err(E, ploc, MT_ERR_TYPE, "map_elementwise() pack=%d needs a last dim it "
                        "divides (%d) and at most %d scalars a call (%d)", p, last, MT_MAX_MAP,
                        n * p);
    /* with pack, each call takes `p` consecutive elements of the last dim
     * of each operand, as a thread holds them in Triton's layouts: the
     * operands are unpacked into p blocks each, a0 a1 .. b0 b1 .. */
    ValId args[MT_MAX_MAP];
    for (int k = 0; k < n; k++) {
        ValId y;
        int32_t split[2] = {last / p, p};
        if (tl_broadcast_to(E, xs[k], shape, c->loc, &xs[k]) < 0)
            return -1;
        if (p == 1)
            args[k] = xs[k];
        else if (reshape_last(E, xs[k], split, 2, c->loc, &y) < 0 ||
                 unpack_last(E, y, p, c->loc, args + k * p) < 0)
            return -1;
    }
    Op *op = op_new_map(E->f, E->region, c->loc, args, n * p);
    Args fa;
    memset(&fa, 0, sizeof fa);
    fa.npos = n * p;
    fa.pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(n * p));
    fa.posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)(n * p));
    for (int k = 0; k < n * p; k++) {
        fa.pos[k] = cv_tensor(op->iters[k]);
        fa.posloc[k] = a->posloc[k / p + 1];
    }
    Region *saved = E->region;
    E->region = op->body;
    CV ret;
    int rc = elab_call_jit(E, fn.fn, &fa, c->loc, &ret);
    int m = rc < 0 ? 0 : ret.kind == CV_TUPLE ? ret.n : ret.kind == CV_NONE ? 0 : 1;
    ValId ys[MT_MAX_MAP];
    Type elems[MT_MAX_MAP];
    if (rc == 0 && (m < 1 || m > MT_MAX_MAP || m % p))
        rc = elab_err(E, a->posloc[0], MT_ERR_TYPE,
                      "map_elementwise() scalar_fn '%s' returned %d values, expected 1 to %d, "
                      "a multiple of pack=%d", fn.fn->name, m, MT_MAX_MAP, p);
    for (int k = 0; rc == 0 && k < m; k++) {
        CV v = ret.kind == CV_TUPLE ? ret.items[k] : ret;
        if (v.kind != CV_TENSOR && cv_materialise(E, v, c->loc, &ys[k]) < 0)
            rc = -1;
        else if (v.kind == CV_TENSOR)
            ys[k] = v.v;
        if (rc == 0 && (val_type(E->f, ys[k]).rank || val_type(E->f, ys[k]).is_ptr))
            rc = elab_err(E, a->posloc[0], MT_ERR_TYPE,
                          "map_elementwise() scalar_fn '%s' result %d is %s, expected a scalar "
                          "number", fn.fn->name, k + 1,
                          elab_type_text(E, val_type(E->f, ys[k])));
        if (rc == 0)
            elems[k] = val_type(E->f, ys[k]);
    }
    E->region = saved;
    if (rc < 0)
        return -1;
    op_map_results(E->f, op, elems, m);
    memcpy(op->yields, ys, sizeof(ValId) * (size_t)m);
    ValId rs[MT_MAX_MAP];
    for (int r = 0; r < m / p; r++) { /* result r is yields r*p .. r*p + p - 1 */
        if (p == 1) {
            rs[r] = op->res[r];
            continue;
        }
        if (pack_last(E, op->res + r * p, p, c->loc, &rs[r]) < 0)
            return -1;
    }
    *out = results(E, rs, m / p, m / p > 1);
    return 0;
}

/* reduce(input, axis, combine_fn, keep_dims=False) */
int h_reduce_fn(Elab *E, Call *c, CV *out) {
    ValId xs[MT_MAX_COMBINE], rs[MT_MAX_COMBINE];
    int n;
    Combiner cb;
    if (operands(E, c, xs, &n) < 0 || jit_combiner(E, c, 2, &cb) < 0 ||
        reduce_regions(E, c, xs, n, 1, 3, &cb, rs) < 0)
        return -1;
    *out = results(E, rs, n, c->a[0].kind == CV_TUPLE);
    return 0;
}

/* associative_scan(input, axis, combine_fn, reverse=False) */
int h_scan_fn(Elab *E, Call *c, CV *out) {
    ValId xs[MT_MAX_COMBINE], rs[MT_MAX_COMBINE];
    int n;
    Combiner cb;
    int64_t ax;
    bool rev;
    if (operands(E, c, xs, &n) < 0)
        return -1;
    if (c->a[1].kind == CV_NONE)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "associative_scan() axis must be an integer, got None");
    if (builtin_norm_axis(E, c->a[1], val_type(E->f, xs[0]).rank, 0, c->locs[1], &ax) < 0 ||
        jit_combiner(E, c, 2, &cb) < 0 || flag_arg(E, c, 3, "reverse", false, &rev) < 0 ||
        combine_op(E, c, OP_SCAN, xs, n, (int)ax, rev, &cb, rs) < 0)
        return -1;
    *out = results(E, rs, n, c->a[0].kind == CV_TUPLE);
    return 0;
}

/* (values, indices) of Triton's _reduce_with_indices: bf16 compares in
 * f32; the index is arange along the axis, broadcast to the input. */
static int with_indices(Elab *E, Call *c, bool is_max, int ti, int ki, ValId rs[2]) {
    const char *fn = c->b->display + 3;
    ValId xs[2];
    if (builtin_need_tensor(E, c->a[0], c->locs[0], fn, &xs[0]) < 0)
        return -1;
    Type t = val_type(E->f, xs[0]);
    if (t.rank == 0 || t.is_ptr)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects a block, got %s", fn,
                        elab_type_text(E, t));
    if (!c->have[1] || c->a[1].kind == CV_NONE)
        return elab_err(E, c->have[1] ? c->locs[1] : c->loc, MT_ERR_TYPE,
                        "%s() with indices needs an integer axis, got None", fn);
    if (t.dtype == DT_BF16 && elab_cast(E, xs[0], DT_F32, c->loc, &xs[0]) < 0)
        return -1;
    /* bools in i8, which orders them alike (false < true) */
    if (t.dtype == DT_I1 && elab_cast(E, xs[0], DT_I8, c->loc, &xs[0]) < 0)
        return -1;
    t = val_type(E->f, xs[0]);
    int64_t ax;
    Combiner cb;
    memset(&cb, 0, sizeof cb);
    cb.arg_max = true;
    cb.is_max = is_max;
    if (builtin_norm_axis(E, c->a[1], t.rank, 0, c->locs[1], &ax) < 0 ||
        flag_arg(E, c, ti, "tie_break_left", true, &cb.tie_left) < 0)
        return -1;
    ValId idx;
    if (elab_emit_typed(E, OP_ARANGE, c->loc, NULL, 0, 0, t.shape[ax],
                        type_block(type_scalar(DT_I32), 1, &t.shape[ax]), &idx) < 0)
        return -1;
    if (t.rank > 1) { /* the index along ax, broadcast over the other dims */
        for (int d = 0; d < t.rank; d++)
            if (d != ax && elab_expand_dims(E, idx, d, c->loc, &idx) < 0)
                return -1;
        Type bt = type_with_elem(t, type_scalar(DT_I32));
        if (elab_emit_typed(E, OP_BROADCAST, c->loc, &idx, 1, 0, 0, bt, &idx) < 0)
            return -1;
    }
    xs[1] = idx;
    return reduce_regions(E, c, xs, 2, 1, ki, &cb, rs);
}

/* argmax/argmin(input, axis, tie_break_left=True, keep_dims=False) */
int h_argmax(Elab *E, Call *c, CV *out) {
    ValId rs[2];
    if (with_indices(E, c, !strcmp(c->b->display, "tl.argmax"), 2, 3, rs) < 0)
        return -1;
    *out = cv_tensor(rs[1]);
    return 0;
}

/* max/min(input, axis, return_indices=True, return_indices_tie_break_left,
 * keep_dims) */
int h_reduce_indices(Elab *E, Call *c, CV *out) {
    ValId rs[2];
    if (with_indices(E, c, c->b->op == OP_MAX, 3, 4, rs) < 0)
        return -1;
    *out = results(E, rs, 2, true);
    return 0;
}

/* ------------------------------------------------------------- histogram */

/* histogram(input, num_bins, mask=None): int32 counts of the values
 * 0..num_bins-1 of a 1-D integer block; masked-off elements and values
 * outside the bins count nowhere.  Built from existing ops: the sum over
 * the input of (x == bin) & mask, a [num_bins, N] comparison (so the
 * product is bounded by the elements a thread may hold). */
int h_histogram(Elab *E, Call *c, CV *out) {
    ValId x, m = 0, bins, eq, cnt, r;
    if (block_arg(E, c, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    if (t.rank != 1)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "histogram() only supports 1D input, got %s",
                        elab_type_text(E, t));
    if (!type_is_int(t))
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "histogram() only supports integer input, got %s", elab_type_text(E, t));
    int64_t nb;
    if (cv_need_int(E, c->a[1], c->locs[1], "num_bins", &nb) < 0)
        return -1;
    if (nb < 1 || nb > MAX_BLOCK_NUMEL || (nb & (nb - 1)))
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "histogram() num_bins must be a power of two, got %lld", (long long)nb);
    if (c->have[2] && c->a[2].kind != CV_NONE) {
        if (builtin_need_tensor(E, c->a[2], c->locs[2], "histogram", &m) < 0)
            return -1;
        Type mt = val_type(E->f, m);
        if (!type_is_bool(mt) || mt.rank > 1)
            return elab_err(E, c->locs[2], MT_ERR_TYPE,
                            "histogram() mask must be bool of the input's shape, got %s",
                            elab_type_text(E, mt));
        if (mt.rank == 1 && elab_expand_dims(E, m, 0, c->loc, &m) < 0)
            return -1;
    }
    int32_t n = (int32_t)nb;
    if (elab_emit_typed(E, OP_ARANGE, c->loc, NULL, 0, 0, n,
                        type_block(type_scalar(DT_I32), 1, &n), &bins) < 0 ||
        elab_expand_dims(E, bins, 1, c->loc, &bins) < 0 ||
        elab_expand_dims(E, x, 0, c->loc, &x) < 0 || emit2(E, OP_CMP_EQ, c->loc, x, bins, &eq) < 0 ||
        (m && emit2(E, OP_AND, c->loc, eq, m, &eq) < 0) ||
        elab_cast(E, eq, DT_I32, c->loc, &cnt) < 0 ||
        elab_emit(E, OP_SUM, c->loc, &cnt, 1, 1, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* ------------------------------------------------------------------ sort */

/* a before b in the order of tl.sort: a < b (descending: a > b), NaN after
 * every number (descending: before), as torch.sort orders them. */
static int sort_before(Elab *E, ValId a, ValId b, bool desc, bool fl, Loc loc, ValId *out) {
    if (emit2(E, desc ? OP_CMP_GT : OP_CMP_LT, loc, a, b, out) < 0)
        return -1;
    if (!fl)
        return 0;
    ValId an, bn, nan_side;
    if (emit2(E, OP_CMP_NE, loc, a, a, &an) < 0 || emit2(E, OP_CMP_NE, loc, b, b, &bn) < 0)
        return -1;
    ValId num = desc ? bn : an; /* the side that must be the number */
    ValId other = desc ? an : bn;
    ValId nn;
    if (elab_emit(E, OP_NOT, loc, &num, 1, 0, 0, &nn) < 0 ||
        emit2(E, OP_AND, loc, other, nn, &nan_side) < 0)
        return -1;
    return emit2(E, OP_OR, loc, *out, nan_side, out);
}

/* sort(x, dim=None, descending=False) of a 1-D block: element i goes to
 * its rank, the number of elements before it in the order (ties by
 * index), an [N, N] comparison; then each position takes the one element
 * of its rank, through a reduce that moves bits unchanged. */
int h_sort(Elab *E, Call *c, CV *out) {
    ValId x;
    if (block_arg(E, c, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    if (t.rank != 1)
        return elab_err(E, c->locs[0], MT_ERR_UNSUPPORTED,
                        "sort() of a rank-%d block is not supported (only 1-D blocks)", t.rank);
    if (c->have[1] && c->a[1].kind != CV_NONE) {
        int64_t d;
        if (builtin_norm_axis(E, c->a[1], 1, 0, c->locs[1], &d) < 0)
            return -1;
    }
    bool desc;
    if (flag_arg(E, c, 2, "descending", false, &desc) < 0)
        return -1;
    bool fl = type_is_float(t);
    int32_t n = t.shape[0];
    Type sq = t;
    sq.rank = 2;
    sq.shape[0] = sq.shape[1] = n;
    ValId xi, xj, ii, jj, idx, before, eq, lo, tie, cnt, rank, sel, vals, rs[2];
    /* element i along dim 0, the others (j) along dim 1 */
    if (elab_expand_dims(E, x, 1, c->loc, &xi) < 0 || elab_expand_dims(E, x, 0, c->loc, &xj) < 0 ||
        elab_emit_typed(E, OP_ARANGE, c->loc, NULL, 0, 0, n,
                        type_block(type_scalar(DT_I32), 1, &n), &idx) < 0 ||
        elab_expand_dims(E, idx, 1, c->loc, &ii) < 0 || elab_expand_dims(E, idx, 0, c->loc, &jj) < 0 ||
        sort_before(E, xj, xi, desc, fl, c->loc, &before) < 0 ||
        emit2(E, OP_CMP_EQ, c->loc, xj, xi, &eq) < 0)
        return -1;
    if (fl) { /* NaN ties with NaN */
        ValId in, jn, both;
        if (emit2(E, OP_CMP_NE, c->loc, xi, xi, &in) < 0 ||
            emit2(E, OP_CMP_NE, c->loc, xj, xj, &jn) < 0 ||
            emit2(E, OP_AND, c->loc, in, jn, &both) < 0 || emit2(E, OP_OR, c->loc, eq, both, &eq) < 0)
            return -1;
    }
    if (emit2(E, OP_CMP_LT, c->loc, jj, ii, &lo) < 0 || emit2(E, OP_AND, c->loc, eq, lo, &tie) < 0 ||
        emit2(E, OP_OR, c->loc, before, tie, &before) < 0 ||
        elab_cast(E, before, DT_I32, c->loc, &cnt) < 0 ||
        elab_emit(E, OP_SUM, c->loc, &cnt, 1, 1, 0, &rank) < 0 ||
        elab_expand_dims(E, rank, 1, c->loc, &rank) < 0 ||
        emit2(E, OP_CMP_EQ, c->loc, rank, jj, &sel) < 0 ||
        elab_emit_typed(E, OP_BROADCAST, c->loc, &xi, 1, 0, 0, sq, &vals) < 0)
        return -1;
    Combiner cb;
    memset(&cb, 0, sizeof cb);
    cb.pick = true;
    ValId xs[2] = {sel, vals};
    if (combine_op(E, c, OP_REDUCE, xs, 2, 0, false, &cb, rs) < 0)
        return -1;
    *out = cv_tensor(rs[1]);
    return 0;
}
