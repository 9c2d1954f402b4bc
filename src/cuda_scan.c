/* cuda_scan.c: the CUDA C of scans and of reductions of several operands
 * or with a combine region (tlscan.c builds them).
 *
 * Input: a reduce or scan op (ops.def kinds K_REDUCE and K_SCAN) of a
 * Func after the back-end passes: its operands share one distribution
 * (layout.c), its cross-warp scratch is planned (smemplan.c's
 * plan_combine: one 8-byte slot per operand, other-dim coordinate and
 * warp).  Output: text in the emitter's body; the results' arrays.
 *
 * The combine of two partials is either the row's C text (n = 1; cumsum,
 * cumprod) or the op's region (Op.iters: the 2n scalar parameters, left
 * partial first; Op.yields: the n results), written inline in its own C
 * block each time it is needed.  No identity is assumed: a partial that
 * may be absent carries a flag instead.
 *
 * Along the axis a thread owns S consecutive positions per repetition (R
 * repetitions when the axis is at least the layout's tile, else one), and
 * an axis shorter than the tile is replicated in aligned segments of segT
 * threads (cuda_dist.c's coordinate formula): every segment holds the
 * whole axis, so combining within segments only, copies compute the same
 * values as the owners and no ownership test is needed.  The order of
 * operands of every combine follows the positions (the earlier partial on
 * the left; with reverse, the later one), as Triton's flip-scan-flip
 * defines reverse scans.  Scans: a sequential scan of each thread's
 * positions, a butterfly over the lanes of a segment (xor shuffles only,
 * which the host backend has) giving each lane the combine of the lanes
 * before it and the segment's total, the warp totals through shared
 * memory, then a carry from one repetition to the next.  Reductions: the
 * same without prefixes (the butterfly's total). */
#include "mt.h"

#include <string.h>

typedef struct Comb {
    Emit *e;
    Op *op;
    int n;                         /* operands = results */
    Type et[MT_MAX_COMBINE];       /* element types */
    const char *ct[MT_MAX_COMBINE];
    int rc;                        /* -1 once a region op failed to emit */
} Comb;

/* n names "mt_<tag><res0>_<k>" for one op's temporaries. */
static const char **names(Comb *cb, const char *tag) {
    Emit *e = cb->e;
    const char **v = arena_alloc(e->f->arena, sizeof(char *) * MT_MAX_COMBINE);
    for (int k = 0; k < cb->n; k++)
        v[k] = ce_fmt(e, "mt_%s%d_%d", tag, cb->op->res[0], k);
    return v;
}

/* n texts "<arr[k]>[<index>]" */
static const char **at(Comb *cb, const char *const *arr, const char *index) {
    Emit *e = cb->e;
    const char **v = arena_alloc(e->f->arena, sizeof(char *) * MT_MAX_COMBINE);
    for (int k = 0; k < cb->n; k++)
        v[k] = ce_fmt(e, "%s[%s]", arr[k], index);
    return v;
}

static void declare(Comb *cb, const char *const *v, const char *init_fmt_index) {
    for (int k = 0; k < cb->n; k++)
        if (init_fmt_index)
            ce_line(cb->e, "%s %s = %s;", cb->ct[k], v[k],
                    ce_fmt(cb->e, init_fmt_index, k));
        else
            ce_line(cb->e, "%s %s;", cb->ct[k], v[k]);
}

static void assign(Comb *cb, const char *const *dst, const char *const *src) {
    for (int k = 0; k < cb->n; k++)
        ce_line(cb->e, "%s = %s;", dst[k], src[k]);
}

/* dst = combine(a, b), every operand at once; dst may be a or b. */
static void combine(Comb *cb, const char *const *dst, const char *const *a,
                    const char *const *b) {
    Emit *e = cb->e;
    Op *op = cb->op;
    if (!op->body) {
        const char *args[2] = {a[0], b[0]};
        Type ts[2] = {cb->et[0], cb->et[0]};
        ce_line(e, "%s = %s;", dst[0],
                ctext_expand(e->f->arena, op->code, args, ts, 2, cb->et[0]));
        return;
    }
    ce_line(e, "{");
    e->indent++;
    for (int k = 0; k < cb->n; k++) {
        e->name[op->iters[k]] = a[k];
        e->name[op->iters[cb->n + k]] = b[k];
    }
    for (int i = 0; i < op->body->nops; i++)
        if (ce_emit_op(e, op->body->ops[i]) < 0)
            cb->rc = -1;
    for (int k = 0; k < cb->n; k++)
        ce_line(e, "%s mt_y%d = %s;", cb->ct[k], k, ce_vname(e, op->yields[k]));
    for (int k = 0; k < cb->n; k++)
        ce_line(e, "%s = mt_y%d;", dst[k], k);
    e->indent--;
    ce_line(e, "}");
}

/* p = cond ? combine(p, x) : x (x_left: combine(x, p)); with `flag`, cond
 * is a flag variable, set once p holds a value. */
static void combine_or_set(Comb *cb, const char *cond, const char *const *p,
                           const char *const *x, bool x_left, bool flag) {
    Emit *e = cb->e;
    ce_line(e, "if (%s) {", cond);
    e->indent++;
    combine(cb, p, x_left ? x : p, x_left ? p : x);
    e->indent--;
    ce_line(e, "} else {");
    e->indent++;
    assign(cb, p, x);
    if (flag)
        ce_line(e, "%s = true;", cond);
    e->indent--;
    ce_line(e, "}");
}

/* combine_or_set on the flag `have`, under `cond` when not "". */
static void accumulate(Comb *cb, const char *have, const char *const *p,
                       const char *const *x, const char *cond, bool x_left) {
    Emit *e = cb->e;
    if (*cond) {
        ce_line(e, "if (%s) {", cond);
        e->indent++;
    }
    combine_or_set(cb, have, p, x, x_left, true);
    if (*cond) {
        e->indent--;
        ce_line(e, "}");
    }
}

/* The shape of the work along the axis (see the file comment). */
typedef struct Along {
    int pa, po;        /* parent dims: the axis, the other (-1: none) */
    int Eo;            /* slots along the other dim */
    int R, S;          /* repetitions, slots per repetition */
    int segL, segW;    /* lanes and warps of a segment */
    int stride;        /* lanes between neighbours along the axis */
    const char *lane, *warp; /* this thread's lane and warp along the axis */
    const char *co, *oo;     /* other-dim coordinate and owner test of mt_j */
    const SharedBuffer *buf; /* the cross-warp scratch (segW > 1) */
    int rows;          /* scratch rows per operand */
} Along;

static Along along(Comb *cb, const Dist *d) {
    Emit *e = cb->e;
    Op *op = cb->op;
    Along a;
    memset(&a, 0, sizeof a);
    a.pa = d->pdim[op->attr[0]];
    a.po = d->L.rank == 2 ? 1 - a.pa : -1;
    a.Eo = a.po >= 0 ? d->E[a.po] : 1;
    int32_t n = d->n[a.pa], spt = d->L.spt[a.pa], tpw = d->L.tpw[a.pa],
            W = d->L.wpc[a.pa], C = ce_tile(&d->L, a.pa);
    a.R = n >= C ? n / C : 1;
    a.S = n >= C ? spt : d->E[a.pa];
    int segT = n >= C ? tpw * W : (n >= spt ? n / spt : 1);
    a.segL = segT < tpw ? segT : tpw;
    a.segW = segT > tpw ? segT / tpw : 1;
    int fast = d->L.order[0];
    a.stride = a.pa == fast ? 1 : d->L.tpw[fast];
    a.lane = ce_prologue_var(e, 'l', d->base, a.pa);
    a.warp = ce_prologue_var(e, 'w', d->base, a.pa);
    a.co = a.po >= 0 ? ce_coord(e, d, a.po, "mt_j") : "0";
    a.oo = a.po >= 0 ? ce_owner_along(e, d, a.po, "mt_j") : "";
    Type xt = val_type(e->f, op->args[0]);
    a.rows = d->L.rank == 2 && xt.rank == 2 ? xt.shape[1 - op->attr[0]] : 1;
    if (a.segW > 1)
        a.buf = smem_buffer_of(e->f->smem, op, SMEM_SCRATCH);
    return a;
}

/* Slot of the value for other-dim slot mt_j and axis slot text s. */
static const char *slot(Emit *e, const Dist *d, const Along *a, const char *s) {
    if (a->po < 0)
        return s;
    int E1 = d->E[1];
    if (a->pa == 0)
        return E1 == 1 ? s : ce_fmt(e, "(%s) * %d + mt_j", s, E1);
    return E1 == 1 ? "mt_j" : ce_fmt(e, "mt_j * %d + %s", E1, s);
}

/* Operand k's scratch slot for coordinate co and warp column w. */
static const char *scratch(Comb *cb, const Along *a, int k, const char *w) {
    Emit *e = cb->e;
    const char *row = k ? ce_fmt(e, "%d + %s", k * a->rows, a->co) : a->co;
    return ce_fmt(e, "(*(%s*)&mt_smem[%s])", cb->ct[k],
                  ce_smem_text(e, a->buf, "0", row, w));
}

/* t = the combine over the lanes of the segment (butterfly); with `x`,
 * also x = the combine over the lanes before this one in scan order,
 * flagged by hl. */
static void lanes(Comb *cb, const Along *a, const char *const *t,
                  const char *const *x, const char *hl, bool rev) {
    Emit *e = cb->e;
    for (int m = 1; m < a->segL; m *= 2) {
        const char **o = names(cb, ce_fmt(e, "o%d_", m));
        for (int k = 0; k < cb->n; k++)
            ce_line(e, "%s %s = __shfl_xor_sync(0xffffffffu, %s, %d);", cb->ct[k],
                    o[k], t[k], m * a->stride);
        if (!x) {
            combine(cb, t, t, o);
            continue;
        }
        /* a later lane: the partner's lanes come before every lane that
         * x and t hold so far */
        ce_line(e, "if ((%s & %d) %s 0) {", a->lane, m, rev ? "==" : "!=");
        e->indent++;
        accumulate(cb, hl, x, o, "", true);
        combine(cb, t, o, t);
        e->indent--;
        ce_line(e, "} else {");
        e->indent++;
        combine(cb, t, t, o);
        e->indent--;
        ce_line(e, "}");
    }
}

/* -------------------------------------------------------------- scans */

static int emit_scan(Comb *cb) {
    Emit *e = cb->e;
    Op *op = cb->op;
    bool rev = op->attr[1] != 0;
    Dist d = ce_dist_of(e, op->res[0]);
    Along a = along(cb, &d);
    const char **v = arena_alloc(e->f->arena, sizeof(char *) * MT_MAX_COMBINE);
    for (int k = 0; k < cb->n; k++) {
        ValId r = op->res[k];
        /* the operand's text first: it may materialise a conversion */
        const char *x = ce_elem(e, op->args[k], &d, op->loc);
        v[k] = e->name[r] = ce_fmt(e, "v%d", r);
        ce_line(e, "%s v%d[%d];", cb->ct[k], r, d.nE);
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, d.nE, CE_SLOT);
        ce_line(e, "    v%d[%s] = %s;", r, CE_SLOT, x);
        e->dist[r] = d;
        e->has_dist[r] = true;
    }
    const char **cy = names(cb, "cy"), **t = names(cb, "t"), **x = names(cb, "x"),
               **w = names(cb, "w"), **all = names(cb, "a"), **p = names(cb, "p"),
               **wv = names(cb, "wv");
    if (a.R > 1)
        declare(cb, cy, NULL);
    int spt = d.L.spt[a.pa];
    ce_unroll(e);
    ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", a.Eo);
    e->indent++;
    ce_line(e, "for (int mt_q = 0; mt_q < %d; ++mt_q) {", a.R);
    e->indent++;
    ce_line(e, "const int mt_r = %s;", rev ? ce_fmt(e, "%d - mt_q", a.R - 1) : "mt_q");
    const char *cur = slot(e, &d, &a, ce_fmt(e, "mt_r * %d + mt_s", spt));
    const char *prev = slot(e, &d, &a, ce_fmt(e, "mt_r * %d + mt_s %s 1", spt, rev ? "+" : "-"));
    if (a.S > 1) {
        if (rev)
            ce_line(e, "for (int mt_s = %d; mt_s >= 0; --mt_s) {", a.S - 2);
        else
            ce_line(e, "for (int mt_s = 1; mt_s < %d; ++mt_s) {", a.S);
        e->indent++;
        combine(cb, at(cb, v, cur), at(cb, v, prev), at(cb, v, cur));
        e->indent--;
        ce_line(e, "}");
    }
    const char *last = slot(e, &d, &a, ce_fmt(e, "mt_r * %d + %d", spt, rev ? 0 : a.S - 1));
    declare(cb, t, NULL);
    assign(cb, t, at(cb, v, last));
    const char *hl = ce_fmt(e, "mt_hl%d", op->res[0]);
    const char *hw = ce_fmt(e, "mt_hw%d", op->res[0]);
    const char *h = ce_fmt(e, "mt_h%d", op->res[0]);
    if (a.segL > 1) {
        ce_line(e, "bool %s = false;", hl);
        declare(cb, x, NULL);
        lanes(cb, &a, t, x, hl, rev);
    }
    if (a.R > 1)
        declare(cb, all, NULL);
    if (a.segW > 1) {
        ce_line(e, "if (%s == 0%s%s) {", a.lane, *a.oo ? " && " : "", a.oo);
        for (int k = 0; k < cb->n; k++)
            ce_line(e, "    %s = %s;", scratch(cb, &a, k, a.warp), t[k]);
        ce_line(e, "}");
        ce_line(e, "__syncthreads();");
        ce_line(e, "bool %s = false;", hw);
        declare(cb, w, NULL);
        ce_line(e, "for (int mt_i = 0; mt_i < %d; ++mt_i) {", a.segW);
        e->indent++;
        ce_line(e, "const int mt_wi = (%s & %d) + %s;", a.warp, ~(a.segW - 1),
                rev ? ce_fmt(e, "%d - mt_i", a.segW - 1) : "mt_i");
        const char **rd = arena_alloc(e->f->arena, sizeof(char *) * MT_MAX_COMBINE);
        for (int k = 0; k < cb->n; k++)
            rd[k] = scratch(cb, &a, k, "mt_wi");
        declare(cb, wv, NULL);
        assign(cb, wv, rd);
        accumulate(cb, hw, w, wv, ce_fmt(e, "mt_wi %s %s", rev ? ">" : "<", a.warp), false);
        if (a.R > 1)
            combine_or_set(cb, "mt_i", all, wv, false, false);
        e->indent--;
        ce_line(e, "}");
        ce_line(e, "__syncthreads();");
    } else if (a.R > 1) {
        assign(cb, all, t);
    }
    /* this thread's prefix: earlier repetitions, warps, lanes */
    ce_line(e, "bool %s = false;", h);
    declare(cb, p, NULL);
    if (a.R > 1)
        accumulate(cb, h, p, cy, "mt_q > 0", false);
    if (a.segW > 1)
        accumulate(cb, h, p, w, hw, false);
    if (a.segL > 1)
        accumulate(cb, h, p, x, hl, false);
    ce_line(e, "if (%s) {", h);
    e->indent++;
    ce_line(e, "for (int mt_s = 0; mt_s < %d; ++mt_s) {", a.S);
    e->indent++;
    combine(cb, at(cb, v, cur), p, at(cb, v, cur));
    e->indent--;
    ce_line(e, "}");
    e->indent--;
    ce_line(e, "}");
    if (a.R > 1)
        combine_or_set(cb, "mt_q > 0", cy, all, false, false);
    e->indent--;
    ce_line(e, "}");
    e->indent--;
    ce_line(e, "}");
    return cb->rc;
}

/* --------------------------------------------------------- reductions */

static int emit_reduce_combine(Comb *cb) {
    Emit *e = cb->e;
    Func *f = e->f;
    Op *op = cb->op;
    Dist d = ce_dist_of(e, op->args[0]);
    Along a = along(cb, &d);
    Type rt = val_type(f, op->res[0]);
    const char **in = names(cb, "in"), **part = names(cb, "pt"), **t = names(cb, "t");
    for (int k = 0; k < cb->n && rt.rank; k++)
        part[k] = ce_fmt(e, "v%d", op->res[k]);
    for (int k = 0; k < cb->n; k++) {
        const char *x = ce_elem(e, op->args[k], &d, op->loc); /* may emit */
        ce_line(e, "%s %s[%d];", cb->ct[k], in[k], d.nE);
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, d.nE, CE_SLOT);
        ce_line(e, "    %s[%s] = %s;", in[k], CE_SLOT, x);
        ce_line(e, "%s %s[%d];", cb->ct[k], part[k], a.Eo);
    }
    int Ea = d.E[a.pa];
    ce_unroll(e);
    ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", a.Eo);
    e->indent++;
    declare(cb, t, NULL);
    assign(cb, t, at(cb, in, slot(e, &d, &a, "0")));
    if (Ea > 1) {
        ce_line(e, "for (int mt_s = 1; mt_s < %d; ++mt_s) {", Ea);
        e->indent++;
        combine(cb, t, t, at(cb, in, slot(e, &d, &a, "mt_s")));
        e->indent--;
        ce_line(e, "}");
    }
    lanes(cb, &a, t, NULL, NULL, false);
    assign(cb, at(cb, part, "mt_j"), t);
    e->indent--;
    ce_line(e, "}");
    if (a.segW > 1) {
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j)", a.Eo);
        ce_line(e, "    if (%s == 0%s%s) {", a.lane, *a.oo ? " && " : "", a.oo);
        for (int k = 0; k < cb->n; k++)
            ce_line(e, "        %s = %s[mt_j];", scratch(cb, &a, k, a.warp), part[k]);
        ce_line(e, "    }");
        ce_line(e, "__syncthreads();");
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", a.Eo);
        e->indent++;
        const char **rd = arena_alloc(f->arena, sizeof(char *) * MT_MAX_COMBINE);
        for (int k = 0; k < cb->n; k++)
            rd[k] = scratch(cb, &a, k, "0");
        declare(cb, t, NULL);
        assign(cb, t, rd);
        ce_line(e, "for (int mt_i = 1; mt_i < %d; ++mt_i) {", a.segW);
        e->indent++;
        for (int k = 0; k < cb->n; k++)
            rd[k] = scratch(cb, &a, k, "mt_i");
        combine(cb, t, t, rd);
        e->indent--;
        ce_line(e, "}");
        assign(cb, at(cb, part, "mt_j"), t);
        e->indent--;
        ce_line(e, "}");
        ce_line(e, "__syncthreads();");
    }
    for (int k = 0; k < cb->n; k++) {
        ValId r = op->res[k];
        e->name[r] = ce_fmt(e, "v%d", r);
        if (rt.rank == 0) {
            ce_line(e, "%s v%d = %s[0];", cb->ct[k], r, part[k]);
            continue;
        }
        e->dist[r] = ce_dist(e, &d.L, val_type(f, r), a.pa);
        e->has_dist[r] = true;
    }
    return cb->rc;
}

int ce_emit_combine(Emit *e, Op *op) {
    Comb cb;
    memset(&cb, 0, sizeof cb);
    cb.e = e;
    cb.op = op;
    cb.n = op->nargs;
    if (cb.n < 1 || cb.n > MT_MAX_COMBINE || cb.n != op->nres)
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL, "'%s' with %d operands",
                          op_info[op->code].name, op->nargs);
    for (int k = 0; k < cb.n; k++) {
        cb.et[k] = type_elem(val_type(e->f, op->args[k]));
        cb.ct[k] = ce_ctype(e, cb.et[k]);
    }
    return op_info[op->code].kind == K_SCAN ? emit_scan(&cb) : emit_reduce_combine(&cb);
}

/* tl.map_elementwise: the region once per slot of the result's
 * distribution (the operands share it, layout.c), unrolled so that every
 * array index is a constant, its parameters the operands' elements at the
 * slot; the region's scalar control flow diverges per thread, which it
 * may: it holds no barrier. */
int ce_emit_map(Emit *e, Op *op) {
    Func *f = e->f;
    int n = op->nargs, m = op->nres;
    if (n < 1 || n > MT_MAX_MAP || m < 1 || m > MT_MAX_MAP || !op->body)
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL, "'%s' with %d operands, %d results",
                          op_info[op->code].name, n, m);
    Dist r = ce_dist_of(e, op->res[0]);
    const char *el[MT_MAX_MAP];
    for (int k = 0; k < n; k++)
        if (!(el[k] = ce_elem(e, op->args[k], &r, op->loc)))
            return -1;
    for (int k = 0; k < m; k++) {
        ValId res = op->res[k];
        ce_line(e, "%s v%d[%d];", ce_ctype(e, type_elem(val_type(f, res))), res, r.nE);
        e->name[res] = ce_fmt(e, "v%d", res);
    }
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s) {", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    e->indent++;
    for (int k = 0; k < n; k++) {
        ValId it = op->iters[k];
        ce_line(e, "%s mt_m%d_%d = %s;", ce_ctype(e, val_type(f, it)), op->res[0], k, el[k]);
        e->name[it] = ce_fmt(e, "mt_m%d_%d", op->res[0], k);
    }
    for (int i = 0; i < op->body->nops; i++)
        if (ce_emit_op(e, op->body->ops[i]) < 0)
            return -1;
    for (int k = 0; k < m; k++)
        ce_line(e, "v%d[%s] = %s;", op->res[k], CE_SLOT, ce_vname(e, op->yields[k]));
    e->indent--;
    ce_line(e, "}");
    for (int k = 0; k < m; k++) {
        e->dist[op->res[k]] = r;
        e->has_dist[op->res[k]] = true;
    }
    return HAS_ERROR(e->c) ? -1 : 0;
}
