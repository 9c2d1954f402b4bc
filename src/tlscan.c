/* tlscan.c: the handlers of the generic reductions and scans: tl.xor_sum,
 * tl.cumsum, tl.cumprod (ops with a C text, ops.def).
 *
 * Input: a Call bound and checked by builtins.c.  Output: reduce and scan
 * ops in the elaboration's current region (elab_emit types each one by
 * the rules of verify.c), and the builtin's value.
 *
 * Invariants: Triton's dtype rules are applied here, before the op
 * (standard.py: cumsum widens integers narrower than 32 bits, bf16 scans
 * in f32); a reduction over axis=None reduces every axis, innermost
 * first; every bad argument is a located error naming the builtin. */
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

/* xor_sum(input, axis=None, keep_dims=False): integers only, in their own
 * type (Triton widens nothing here). */
int h_xor_sum(Elab *E, Call *c, CV *out) {
    ValId x;
    if (block_arg(E, c, &x) < 0)
        return -1;
    Type t = val_type(E->f, x);
    if (!type_is_int(t))
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "xor_sum only supported for integers, got %s", elab_type_text(E, t));
    return reduce_axes(E, c, x, 1, 2, out);
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
