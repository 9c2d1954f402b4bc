/* cuda_shape.c: the CUDA C of the shape ops (ops.def kind K_GATHER:
 * reshape, trans, join, split, cat, flip, and tl.gather, whose map reads
 * its index operand, held in the result's layout).
 *
 * Input: one such op of a Func after the back-end passes.  layout.c gave
 * its result a layout of its own and left its operands where they are.
 * Output: the op's text.  Every shape op is one gather: each result
 * element is one element of the op's *roots*, the values it reads: its
 * operands, or, for an operand of rank > 2 (which layout.c lets only
 * shape ops make and read, and no layout holds), that operand's own
 * roots, so join + reshape (interleave) and reshape + split of 2-D blocks
 * need no rank-3 block.  Such a virtual value's op emits nothing; its
 * user composes the index maps (resolve).
 *
 * When every thread already holds what its result slots need, at slots
 * the same in every thread, the op is free (cuda_gather_free, which runs
 * the distributions on numbers for every thread): the result is its
 * root's array or register copies.  Otherwise smemplan.c planned a
 * scratch of the roots' total size: the owners of each root's elements
 * store them at its row-major index after the roots before it (a scalar
 * root is stored by thread 0), a barrier, every thread reads each slot of
 * the result from the index the maps give for its coordinates, and a
 * barrier, so the scratch is free for the next use (inside loops too).
 * The maps are the whole difference between the ops; each is written once
 * as C text over coordinates (source_index) and once on numbers
 * (source_at). */
#include "mt.h"

#include <string.h>

/* Row-major index text of coordinate texts c[0..rank) in shape. */
static const char *linear(Emit *e, const char *const *c, const int32_t *shape, int rank) {
    const char *acc = "0";
    bool sum = false; /* acc is a sum this function built */
    for (int i = 0; i < rank; i++) {
        if (shape[i] == 1)
            continue;
        if (!strcmp(acc, "0")) {
            acc = c[i];
            continue;
        }
        acc = ce_fmt(e, sum ? "(%s) * %d + %s" : "%s * %d + %s", acc, shape[i], c[i]);
        sum = true;
    }
    return acc;
}

/* The values a shape op reads, in scratch order, and where each starts. */
#define MAX_ROOTS 4
typedef struct Roots {
    ValId v[MAX_ROOTS];
    int64_t base[MAX_ROOTS];
    int n;
    int64_t total;
} Roots;

/* A value no layout holds: only shape ops make and read it (layout.c). */
static bool is_virtual(Func *f, ValId v) { return val_type(f, v).rank > 2; }

static bool find_roots(Func *f, const Op *op, Roots *r) {
    /* a gather's index is read in registers, in the result's layout */
    int n = op->code == OP_GATHER ? 1 : op->nargs;
    for (int k = 0; k < n; k++) {
        ValId x = op->args[k];
        if (is_virtual(f, x)) {
            if (n > 1 || op->code == OP_GATHER || !find_roots(f, val(f, x)->def, r))
                return false;
            continue;
        }
        if (r->n == MAX_ROOTS)
            return false;
        r->v[r->n] = x;
        r->base[r->n++] = r->total;
        r->total += type_numel(val_type(f, x));
    }
    return true;
}

/* Where x's element 0 is in the scratch: an op with two operands has two
 * real ones, stored one after the other, so their space starts at the
 * first. */
static int64_t root_base(const Roots *r, ValId x) {
    for (int i = 0; i < r->n; i++)
        if (r->v[i] == x)
            return r->base[i];
    return 0;
}

/* Stores operand x at offset `off` of the scratch sm. */
static int store_operand(Emit *e, Op *op, const SharedBuffer *buf, const char *sm,
                         ValId x, int64_t off) {
    Type t = val_type(e->f, x);
    const char *offt = ce_fmt(e, "%lld", (long long)off);
    if (t.rank == 0) {
        ce_line(e, "if (threadIdx.x == 0) %s[%s] = %s;", sm,
                ce_smem_text(e, buf, "0", "0", offt), ce_vname(e, x));
        return 0;
    }
    if (!e->has_dist[x])
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                          "operand %%%d of '%s' has no distribution", (int)x,
                          op_info[op->code].name);
    const Dist *s = &e->dist[x];
    const char *idx = ce_linear_text(e, s, t, CE_SLOT);
    if (off)
        idx = ce_fmt(e, "%s + %s", offt, idx);
    const char *own = ce_owner(e, s, CE_SLOT);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, s->nE, CE_SLOT);
    ce_line(e, "    %s%s[%s] = %s[%s];", *own ? ce_fmt(e, "if (%s) ", own) : "", sm,
            ce_smem_text(e, buf, "0", "0", idx), e->name[x], CE_SLOT);
    return 0;
}

/* The scratch index the result element at coordinates c reads. */
static const char *source_index(Emit *e, const Op *op, const char *const *c) {
    Func *f = e->f;
    Type rt = val_type(f, op->res[0]), at = val_type(f, op->args[0]);
    const char *src[MT_MAX_RANK + 1];
    int n = at.rank;
    switch (op->code) {
    case OP_RESHAPE:
        return linear(e, c, rt.shape, rt.rank);
    case OP_TRANS:
        memcpy(src, c, sizeof(char *) * (size_t)n);
        src[n - 2] = c[n - 1];
        src[n - 1] = c[n - 2];
        return linear(e, src, at.shape, n);
    case OP_FLIP: {
        int d = (int)op->attr[0];
        memcpy(src, c, sizeof(char *) * (size_t)n);
        if (at.shape[d] > 1)
            src[d] = ce_fmt(e, "(%d - %s)", at.shape[d] - 1, c[d]);
        return linear(e, src, at.shape, n);
    }
    case OP_JOIN: {
        const char *in = linear(e, c, at.shape, n);
        int64_t numel = type_numel(at);
        if (!strcmp(in, "0"))
            return numel == 1 ? c[n] : ce_fmt(e, "%s * %lld", c[n], (long long)numel);
        return ce_fmt(e, "%s * %lld + %s", c[n], (long long)numel, in);
    }
    case OP_SPLIT:
        memcpy(src, c, sizeof(char *) * (size_t)(n - 1));
        src[n - 1] = op->attr[0] ? "1" : "0";
        return linear(e, src, at.shape, n);
    case OP_CAT:
        return c[0];
    case OP_GATHER: {
        /* the index of this slot, wrapped into the dim (no read outside
         * the scratch, whatever the index) */
        int d = (int)op->attr[0];
        memcpy(src, c, sizeof(char *) * (size_t)n);
        const char *ix = ce_fmt(e, "%s[%s]", e->name[op->args[1]], CE_SLOT);
        src[d] = at.shape[d] == 1 ? "0"
                 : (at.shape[d] & (at.shape[d] - 1)) == 0
                     ? ce_fmt(e, "(int)(%s & %d)", ix, at.shape[d] - 1)
                     : ce_fmt(e, "(int)((unsigned long long)%s %% %d)", ix, at.shape[d]);
        return linear(e, src, at.shape, n);
    }
    default:
        return NULL;
    }
}

/* The composition of the maps down to the roots.  Each virtual value's
 * flat index is read once per dim, so substituting its text would grow
 * the index exponentially with the chain (a rank-4 permute is eight shape
 * ops): a flat index that is not a plain name is bound to a local of the
 * element loop's body (lets) and the maps read the name. */
typedef struct Chain {
    const Roots *r;
    const char *lets; /* declarations the index needs, in order */
} Chain;

static const char *resolve(Emit *e, Chain *ch, ValId x, const char *flat);

/* The scratch index of the element op d's map gives for coordinates c. */
static const char *resolve_op(Emit *e, Chain *ch, const Op *d, const char *const *c) {
    const char *g = source_index(e, d, c);
    if (!g || d->nargs == 1)
        return g ? resolve(e, ch, d->args[0], g) : NULL;
    int64_t b = root_base(ch->r, d->args[0]);
    return b ? ce_fmt(e, "%lld + %s", (long long)b, g) : g;
}

static bool plain_name(const char *s) {
    for (; *s; s++)
        if (!(*s == '_' || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* The scratch index of element `flat` (row-major) of x. */
static const char *resolve(Emit *e, Chain *ch, ValId x, const char *flat) {
    int64_t b = root_base(ch->r, x);
    if (!is_virtual(e->f, x))
        return b ? ce_fmt(e, "%lld + %s", (long long)b, flat) : flat;
    if (!plain_name(flat)) {
        const char *name = ce_fmt(e, "mt_f%d", e->tmp++);
        ch->lets = ce_fmt(e, "%sint %s = %s; ", ch->lets, name, flat);
        flat = name;
    }
    Type t = val_type(e->f, x);
    const char *c[MT_MAX_RANK];
    int64_t stride = 1;
    for (int i = t.rank - 1; i >= 0; i--) {
        const char *q = stride == 1 ? flat : ce_fmt(e, "%s / %lld", flat, (long long)stride);
        c[i] = t.shape[i] == 1 ? "0" : i == 0 ? q : ce_fmt(e, stride == 1 ? "%s %% %d" : "(%s) %% %d", q, t.shape[i]);
        stride *= t.shape[i];
    }
    return resolve_op(e, ch, val(e->f, x)->def, c);
}

/* ------------------------------------------------ free shape ops
 * A shape op is free when every thread already holds, in its operands'
 * registers, every element its result slots need, each slot of the
 * result at the same operand slot in every thread (so the copy is the
 * same unrolled text for all threads).  cuda_gather_free decides it by
 * running the distributions (cuda_dist.c's formulas, on numbers) for
 * every thread; a reshape that only splits or merges dims a thread walks
 * in order is the common case. */

static Dist dist_of(Func *f, ValId v) {
    const Layout *l = &f->layouts[val(f, v)->layout];
    return ce_dist_unregistered(l, val_type(f, v), l->slice_dim);
}

/* Value coordinates of slot s of d in thread tid (the prologue's base
 * variables, ce_slot_along and ce_coord on numbers). */
static void coords_at(const Dist *d, int tid, int s, int64_t *c) {
    const Layout *l = &d->L;
    int lane = tid & 31, warp = tid >> 5, fast = l->order[0];
    for (int i = 0; i < d->vrank; i++) {
        int p = d->pdim[i];
        bool is_fast = p == fast || l->rank == 1;
        int lp = is_fast ? lane % l->tpw[p] : lane / l->tpw[fast];
        int wp = is_fast ? warp % l->wpc[p] : warp / l->wpc[fast];
        int64_t b = ((int64_t)wp * l->tpw[p] + lp) * l->spt[p];
        int sp = d->E[p] == 1 ? 0 : l->rank == 1 ? s : p == 0 ? s / d->E[1] : s % d->E[1];
        int32_t n = d->n[p], C = ce_tile(l, p);
        c[i] = n == 1 ? 0 : n >= C ? b + (sp / l->spt[p]) * C + sp % l->spt[p]
                                   : (b + sp) & (n - 1);
    }
}

static int64_t row_major(const int64_t *c, const int32_t *shape, int rank) {
    int64_t x = 0;
    for (int i = 0; i < rank; i++)
        x = x * shape[i] + c[i];
    return x;
}

/* The scratch index source_index writes as text, on numbers. */
static int64_t source_at(Func *f, const Op *op, const int64_t *c) {
    Type rt = val_type(f, op->res[0]), at = val_type(f, op->args[0]);
    int64_t src[MT_MAX_RANK + 1];
    int n = at.rank;
    memcpy(src, c, sizeof(int64_t) * (size_t)(n < rt.rank ? rt.rank : n));
    switch (op->code) {
    case OP_RESHAPE: return row_major(c, rt.shape, rt.rank);
    case OP_TRANS:
        src[n - 2] = c[n - 1];
        src[n - 1] = c[n - 2];
        return row_major(src, at.shape, n);
    case OP_FLIP:
        src[op->attr[0]] = at.shape[op->attr[0]] - 1 - c[op->attr[0]];
        return row_major(src, at.shape, n);
    case OP_JOIN: return c[n] * type_numel(at) + row_major(c, at.shape, n);
    case OP_SPLIT:
        src[n - 1] = op->attr[0];
        return row_major(src, at.shape, n);
    default: return c[0]; /* cat */
    }
}

static int64_t resolve_at(Func *f, const Roots *r, ValId x, int64_t flat);

/* resolve_op and resolve on numbers. */
static int64_t resolve_op_at(Func *f, const Roots *r, const Op *d, const int64_t *c) {
    int64_t g = source_at(f, d, c);
    return d->nargs == 1 ? resolve_at(f, r, d->args[0], g) : root_base(r, d->args[0]) + g;
}

static int64_t resolve_at(Func *f, const Roots *r, ValId x, int64_t flat) {
    if (!is_virtual(f, x))
        return root_base(r, x) + flat;
    Type t = val_type(f, x);
    int64_t c[MT_MAX_RANK + 1] = {0};
    for (int i = t.rank - 1; i >= 0; i--) {
        c[i] = flat % t.shape[i];
        flat /= t.shape[i];
    }
    return resolve_op_at(f, r, val(f, x)->def, c);
}

#define FREE_MAX_SLOTS 64        /* copies between registers, one line each */
#define FREE_MAX_ELEMS (1 << 14) /* bounds the compile-time simulation */

/* Is map (n result slots) slot s of the one root for every s, the root
 * having n slots too?  Then the result is the root's array. */
static bool identity(const Roots *r, const int32_t *map, int n, int root_slots) {
    bool same = r->n == 1 && root_slots == n;
    for (int s = 0; s < n && same; s++)
        same = map[s] == s;
    return same;
}

bool cuda_gather_free(Func *f, const Op *op, int32_t *map) {
    Type rt = val_type(f, op->res[0]);
    Roots r = {{0}, {0}, 0, 0};
    if (op->code == OP_GATHER) /* where each slot reads is data */
        return false;
    if (rt.rank == 0 || is_virtual(f, op->res[0]) || !find_roots(f, op, &r) ||
        r.total > FREE_MAX_ELEMS)
        return false;
    Dist res = dist_of(f, op->res[0]), d[MAX_ROOTS];
    if (res.nE > MT_MAX_ELEMS_PER_THREAD)
        return false;
    for (int i = 0; i < r.n; i++) {
        if (val_type(f, r.v[i]).rank == 0)
            return false;
        d[i] = dist_of(f, r.v[i]);
    }
    int32_t own[MT_MAX_ELEMS_PER_THREAD];
    int32_t *where = arena_alloc(f->arena, sizeof(int32_t) * (size_t)r.total);
    if (!where)
        return false;
    int64_t c[MT_MAX_RANK + 1] = {0};
    for (int tid = 0; tid < 32 * f->num_warps; tid++) {
        for (int64_t i = 0; i < r.total; i++)
            where[i] = -1;
        for (int i = 0; i < r.n; i++)
            for (int s = d[i].nE - 1; s >= 0; s--) { /* the first copy wins */
                coords_at(&d[i], tid, s, c);
                Type t = val_type(f, r.v[i]);
                where[r.base[i] + row_major(c, t.shape, t.rank)] = i << 16 | s;
            }
        for (int s = 0; s < res.nE; s++) {
            coords_at(&res, tid, s, c);
            int32_t w = where[resolve_op_at(f, &r, op, c)];
            if (w < 0 || (tid && own[s] != w))
                return false;
            own[s] = w;
        }
    }
    if (!identity(&r, own, res.nE, d[0].nE) && res.nE > FREE_MAX_SLOTS)
        return false; /* too many copies to unroll */
    if (map)
        memcpy(map, own, sizeof(int32_t) * (size_t)res.nE);
    return true;
}

int64_t cuda_gather_scratch(Func *f, const Op *op) {
    Roots r = {{0}, {0}, 0, 0};
    if (is_virtual(f, op->res[0]) || cuda_gather_free(f, op, NULL) || !find_roots(f, op, &r))
        return 0;
    return r.total;
}

/* A free shape op: its result is its root's array when every slot stays
 * where it is, else copies between registers. */
static int emit_free(Emit *e, Op *op, const Roots *roots, const int32_t *map) {
    Func *f = e->f;
    ValId res = op->res[0];
    Dist r = dist_of(f, res);
    for (int i = 0; i < roots->n; i++) {
        ValId x = roots->v[i];
        Dist want = dist_of(f, x);
        const Dist *have = &e->dist[x];
        if (!e->has_dist[x] || !layout_same_params(&have->L, &want.L) ||
            have->nE != want.nE || memcmp(have->pdim, want.pdim, sizeof want.pdim))
            return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                              "operand of '%s' is not where its layout says",
                              op_info[op->code].name);
    }
    bool same = identity(roots, map, r.nE, e->dist[roots->v[0]].nE);
    r = ce_dist_of(e, res); /* registers the parameter set */
    if (same) {
        e->name[res] = e->name[roots->v[0]];
    } else {
        e->name[res] = ce_fmt(e, "v%d", res);
        ce_line(e, "%s v%d[%d];", ce_ctype(e, type_elem(val_type(f, res))), res, r.nE);
        for (int s = 0; s < r.nE; s++)
            ce_line(e, "v%d[%d] = %s[%d];", res, s, e->name[roots->v[map[s] >> 16]],
                    map[s] & 0xffff);
    }
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 0;
}

int ce_emit_gather(Emit *e, Op *op) {
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    Roots roots = {{0}, {0}, 0, 0};
    if (is_virtual(f, res))
        return 0; /* its users read through it */
    if (!find_roots(f, op, &roots))
        return diag_error(e->c, op->loc, MT_ERR_UNSUPPORTED,
                          "the CUDA backend cannot lower this '%s' of blocks of rank > 2",
                          op_info[op->code].name);
    int32_t map[MT_MAX_ELEMS_PER_THREAD];
    if (cuda_gather_free(f, op, map))
        return emit_free(e, op, &roots, map);
    if (op->code == OP_GATHER && (!e->has_dist[op->args[1]] ||
                                  !layout_same_params(&e->dist[op->args[1]].L,
                                                      &f->layouts[val(f, res)->layout])))
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                          "gather index is not in its result's layout");
    if (op->code == OP_GATHER && f->checked && ce_check_gather(e, op) < 0)
        return -1;
    const SharedBuffer *buf = smem_buffer_of(f->smem, op, SMEM_SCRATCH);
    if (!buf)
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                          "'%s' has no shared buffer (smem_plan runs first)",
                          op_info[op->code].name);
    const char *sm = ce_scratch(e, type_elem(rt));
    for (int i = 0; i < roots.n; i++)
        if (store_operand(e, op, buf, sm, roots.v[i], roots.base[i]) < 0)
            return -1;
    ce_line(e, "__syncthreads();");
    const char *ct = ce_ctype(e, type_elem(rt));
    const char *c[MT_MAX_RANK + 1];
    Dist r;
    if (rt.rank)
        r = ce_dist_of(e, res);
    for (int i = 0; i < rt.rank; i++)
        c[i] = ce_value_coord(e, &r, i, CE_SLOT);
    Chain ch = {&roots, ""};
    const char *idx = resolve_op(e, &ch, op, c);
    if (!idx)
        return ce_unsupported(e, op);
    idx = ce_smem_text(e, buf, "0", "0", idx);
    e->name[res] = ce_fmt(e, "v%d", res);
    if (rt.rank == 0) {
        if (*ch.lets)
            ce_line(e, "%s", ch.lets);
        ce_line(e, "%s v%d = %s[%s];", ct, res, sm, idx);
    } else {
        ce_line(e, "%s v%d[%d];", ct, res, r.nE);
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
        if (*ch.lets)
            ce_line(e, "    { %sv%d[%s] = %s[%s]; }", ch.lets, res, CE_SLOT, sm, idx);
        else
            ce_line(e, "    v%d[%s] = %s[%s];", res, CE_SLOT, sm, idx);
        e->dist[res] = r;
        e->has_dist[res] = true;
    }
    ce_line(e, "__syncthreads();");
    return 0;
}
