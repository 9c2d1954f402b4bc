/* cuda_dist.c: the distribution algebra of the CUDA emitter and the
 * element text of every operand.
 *
 * Input: the emitter state Emit (mt.h, "CUDA emitter internals") of a Func
 * after the back-end passes.  Output: C text fragments (arena strings) and
 * Dists; the only lines it emits itself are those that materialise an
 * operand (a conversion through shared memory, a recomputation).
 *
 * Model.  A program runs 32 * num_warps threads.  A scalar is one C
 * variable computed by every thread.  A block value is a per-thread array
 * `T v<id>[E]` whose slots are described by a Dist: layout parameters
 * (spt/tpw/wpc/order, see mt.h), the value's effective size along each
 * parent dim, and the number of slots per dim.  Slots are numbered
 * row-major over the parent dims; a slot's coordinate along dim p is
 *     n >= C:  base_p + (s / spt) * C + s % spt      (C = spt*tpw*wpc)
 *     n <  C:  (base_p + s) & (n - 1), owner iff base_p + s < n
 * where base_p comes from threadIdx.x.  Replicated (non-owner) copies are
 * read like any other but never stored and never counted by reductions.
 *
 * An operand read in another distribution than the one it has comes from
 * a convert_layout op (layout.c inserts one per such use), materialised
 * where its one user reads it: CONVERT_SHARED moves it through the scratch
 * `mt_smem` (the owners store it at its linear index, barrier, every
 * thread reads the slots it needs, barrier), CONVERT_RECOMPUTE recomputes
 * it in place (with, recursively, its operands).  Every use of shared
 * memory ends with a barrier, so scratch reuse is race free inside loops;
 * every shared address comes from the buffers smemplan.c planned. */
#include "mt.h"

#include <string.h>

/* ------------------------------------------------------------ text utils */

void ce_line(Emit *e, const char *fmt, ...) {
    if (!strcmp(fmt, "__syncthreads();"))
        e->load_layout = -2; /* a barrier orders every earlier load (cuda.c) */
    va_list ap;
    va_start(ap, fmt);
    sb_vline(&e->body, 4 * e->indent, fmt, ap);
    va_end(ap);
}

const char *ce_fmt(Emit *e, const char *f, ...) {
    StrBuf sb;
    sb_init(&sb);
    va_list ap;
    va_start(ap, f);
    sb_vprintf(&sb, f, ap);
    va_end(ap);
    const char *s = arena_strdup(e->f->arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

const char *ce_ctype(Emit *e, Type t) {
    if (t.is_ptr)
        return ce_fmt(e, "%s*", dtype_mtype((DType)t.dtype));
    return dtype_ctype((DType)t.dtype);
}

void ce_unroll(Emit *e) { ce_line(e, "#pragma unroll"); }

const char *ce_zero(DType d) {
    switch (d) {
    case DT_I1: return "false";
    case DT_I64: return "0LL";
    case DT_F32: return "0.0f";
    case DT_F64: return "0.0";
    case DT_U32: return "0u";
    case DT_U64: return "0ull";
    default: return "0";
    }
}

void ce_mark_line(Emit *e, Loc loc) {
    if (loc.line <= 0 || loc.line == e->last_line)
        return;
    e->last_line = loc.line;
    sb_printf(&e->body, "#line %d \"", loc.line);
    for (const char *p = e->c->filename ? e->c->filename : "kernel"; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_putc(&e->body, '\\');
        if (*p == '\n')
            sb_puts(&e->body, "\\n");
        else
            sb_putc(&e->body, *p);
    }
    sb_puts(&e->body, "\"\n");
}

/* ------------------------------------------------------- distributions */

static int base_index(Emit *e, const Layout *l) {
    for (int i = 0; i < e->nbases; i++)
        if (layout_same_params(&e->bases[i], l))
            return i;
    VEC_PUSH(e->f->arena, e->bases, e->nbases, e->capbases, *l);
    return e->nbases - 1;
}

int32_t ce_tile(const Layout *l, int p) {
    return l->spt[p] * l->tpw[p] * l->wpc[p];
}

/* Distribution of a value of type t held in layout parameters l; a rank-1
 * value in a rank-2 layout lacks parent dim slice_dim. */
Dist ce_dist(Emit *e, const Layout *l, Type t, int slice_dim) {
    Dist d = ce_dist_unregistered(l, t, slice_dim);
    d.base = base_index(e, l);
    return d;
}

Dist ce_dist_unregistered(const Layout *l, Type t, int slice_dim) {
    Dist d;
    memset(&d, 0, sizeof d);
    d.L = *l;
    d.vrank = t.rank;
    d.n[0] = d.n[1] = 1;
    if (l->rank == t.rank) {
        for (int i = 0; i < t.rank; i++) {
            d.pdim[i] = i;
            d.n[i] = t.shape[i];
        }
    } else { /* rank-1 value, rank-2 layout */
        int s = slice_dim == 0 ? 0 : 1;
        d.pdim[0] = 1 - s;
        d.n[1 - s] = t.shape[0];
    }
    d.nE = 1;
    for (int p = 0; p < l->rank; p++) {
        int32_t C = ce_tile(l, p);
        d.E[p] = d.n[p] >= C ? l->spt[p] * (d.n[p] / C)
                 : (l->spt[p] < d.n[p] ? l->spt[p] : d.n[p]);
        d.nE *= d.E[p];
    }
    if (l->rank < 2)
        d.E[1] = 1;
    d.L.slice_dim = l->rank == t.rank ? -1 : slice_dim;
    d.base = -1;
    return d;
}

Dist ce_dist_of(Emit *e, ValId v) {
    Value *x = val(e->f, v);
    Layout *l = &e->f->layouts[x->layout];
    return ce_dist(e, l, x->type, l->slice_dim);
}

/* Slot index along parent dim p of the slot held in variable sv. */
const char *ce_slot_along(Emit *e, const Dist *d, int p, const char *sv) {
    if (d->E[p] == 1)
        return "0";
    if (d->L.rank == 1)
        return sv;
    if (p == 0)
        return d->E[1] == 1 ? sv : ce_fmt(e, "(%s / %d)", sv, d->E[1]);
    return d->E[0] == 1 ? sv : ce_fmt(e, "(%s %% %d)", sv, d->E[1]);
}

/* The per-thread variables the kernel prologue computes for parameter
 * set `base` and parent dim p: 'l' lane and 'w' warp coordinates along p,
 * 'b' the first coordinate the thread owns.  The prologue and every
 * reader take the names from here. */
const char *ce_prologue_var(Emit *e, char kind, int base, int p) {
    return ce_fmt(e, "mt_%c%d_%d", kind, base, p);
}

static const char *base_var(Emit *e, const Dist *d, int p) {
    return ce_prologue_var(e, 'b', d->base, p);
}

/* Whether a thread's slots along the fastest dim are runs of spt
 * consecutive elements that start at multiples of spt, each owned once
 * (no replication along that dim): what a vector access and a value
 * constant over runs of slots rely on. */
bool ce_fast_runs(const Dist *d) {
    int fd = d->L.rank - 1;
    return fd >= 0 && d->vrank >= 1 && d->L.order[0] == fd && d->pdim[d->vrank - 1] == fd &&
           d->n[fd] >= ce_tile(&d->L, fd);
}

/* Coordinate along parent dim p of slot-along-p text s. */
const char *ce_coord(Emit *e, const Dist *d, int p, const char *s) {
    int32_t n = d->n[p], C = ce_tile(&d->L, p), spt = d->L.spt[p];
    if (n == 1)
        return "0";
    const char *b = base_var(e, d, p);
    if (n >= C) {
        if (strcmp(s, "0") == 0)
            return b;
        if (d->E[p] <= spt) /* one repetition */
            return ce_fmt(e, "(%s + %s)", b, s);
        if (spt == 1)
            return ce_fmt(e, "(%s + %s * %d)", b, s, C);
        return ce_fmt(e, "(%s + (%s / %d) * %d + %s %% %d)", b, s, spt, C, s, spt);
    }
    if (strcmp(s, "0") == 0)
        return ce_fmt(e, "(%s & %d)", b, n - 1);
    return ce_fmt(e, "((%s + %s) & %d)", b, s, n - 1);
}

/* "" when every copy along p is owned, else the ownership test. */
const char *ce_owner_along(Emit *e, const Dist *d, int p, const char *s) {
    int32_t n = d->n[p], C = ce_tile(&d->L, p);
    if (n >= C)
        return "";
    const char *b = base_var(e, d, p);
    if (strcmp(s, "0") == 0)
        return ce_fmt(e, "%s < %d", b, n);
    return ce_fmt(e, "%s + %s < %d", b, s, n);
}

const char *ce_owner(Emit *e, const Dist *d, const char *sv) {
    const char *acc = "";
    for (int p = 0; p < d->L.rank; p++) {
        const char *o = ce_owner_along(e, d, p, ce_slot_along(e, d, p, sv));
        if (!*o)
            continue;
        acc = *acc ? ce_fmt(e, "%s && %s", acc, o) : o;
    }
    return acc;
}

/* Coordinate of value dim i of slot sv. */
const char *ce_value_coord(Emit *e, const Dist *d, int i, const char *sv) {
    int p = d->pdim[i];
    return ce_coord(e, d, p, ce_slot_along(e, d, p, sv));
}

/* Row-major linear index of slot sv within the value's own shape. */
const char *ce_linear_text(Emit *e, const Dist *d, Type t, const char *sv) {
    if (t.rank == 1)
        return ce_value_coord(e, d, 0, sv);
    const char *r = ce_value_coord(e, d, 0, sv), *c = ce_value_coord(e, d, 1, sv);
    if (strcmp(r, "0") == 0)
        return c;
    if (strcmp(c, "0") == 0)
        return ce_fmt(e, "%s * %d", r, t.shape[1]);
    return ce_fmt(e, "%s * %d + %s", r, t.shape[1], c);
}

/* ---------------------------------------------------- shared memory use */

const char *ce_scratch(Emit *e, Type t) {
    return ce_fmt(e, "((%s*)mt_smem)", ce_ctype(e, type_elem(t)));
}

/* The address of (stage, row, column) of a planned buffer, as text. */
const char *ce_smem_text(Emit *e, const SharedBuffer *b, const char *stage,
                             const char *row, const char *column) {
    StrBuf sb;
    sb_init(&sb);
    smem_element_text(&sb, b, stage, row, column);
    const char *s = arena_strdup(e->f->arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

/* ---------------------------------------------------------- operands */

const char *ce_vname(Emit *e, ValId v) {
    Value *x = val(e->f, v);
    if (x->kind == VK_CONST)
        return ctext_literal(e->f->arena, x->type, x);
    return e->name[v];
}

/* Does a value held as src fit target (same parameters, same parent dims)? */
static bool fits(const Dist *src, const Dist *target, Type t) {
    if (!layout_same_params(&src->L, &target->L) || src->vrank != target->vrank)
        return false;
    for (int i = 0; i < t.rank; i++)
        if (t.shape[i] > 1 && src->pdim[i] != target->pdim[i])
            return false;
    return true;
}

static const char *new_tmp(Emit *e, const char *prefix) {
    return ce_fmt(e, "%s%d", prefix, e->tmp++);
}

/* The unsigned type of 4, 8 or 16 bytes: how vector accesses move bits. */
const char *ce_bits_type(int bytes) {
    return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : "unsigned";
}

/* w elements of es < 4 bytes, arr[base + i] (arr[i] without base), as
 * the text of one ce_bits_type(w * es): each 32-bit word ORs its
 * elements' zero-extended bits.  Arithmetic, not a byte array cast, so
 * that halves just split from one word (a f32x2 -> f16x2 conversion)
 * fold back into it instead of costing a shift and a byte permute each. */
const char *ce_pack_text(Emit *e, int w, int es, const char *arr, const char *base) {
    const char *ut = es == 1 ? "unsigned char" : "unsigned short";
    int per = 4 / es, words = w / per;
    StrBuf t;
    sb_init(&t);
    if (words > 1)
        sb_printf(&t, "make_%s(", ce_bits_type(w * es));
    for (int k = 0; k < words; k++) {
        sb_puts(&t, k ? ", (" : "(");
        for (int j = 0; j < per; j++) {
            int i = k * per + j;
            sb_printf(&t, "%s(unsigned)(%s)", j ? " | " : "", ut);
            if (base)
                sb_printf(&t, "%s[%s + %d]", arr, base, i);
            else
                sb_printf(&t, "%s[%d]", arr, i);
            if (j)
                sb_printf(&t, " << %d", j * es * 8);
        }
        sb_putc(&t, ')');
    }
    if (words > 1)
        sb_putc(&t, ')');
    const char *r = ce_fmt(e, "%s", sb_str(&t));
    sb_free(&t);
    return r;
}

/* Elements per shared-memory vector access of d's slots in a [rows]
 * [pitch] scratch: runs of consecutive slots along value dim 1 (a power
 * of two dividing spt, 4 to 16 bytes, the row stride a multiple of it);
 * 1 when d's slots are not such runs (a slice, replicated columns). */
static int scratch_run(const Dist *d, int es, int pitch) {
    if (d->vrank != 2 || d->L.rank != 2 || d->pdim[1] != 1 || d->L.order[0] != 1 ||
        d->n[1] < ce_tile(&d->L, 1))
        return 1;
    int w = d->L.spt[1];
    while (w > 1 && (w * es > 16 || (pitch * es) % (w * es) != 0))
        w /= 2;
    return w * es >= 4 ? w : 1;
}

/* The scratch address of slot CE_SLOT of d (the conversion's buffer). */
static const char *scratch_at(Emit *e, const SharedBuffer *buf, const Dist *d, Type ty) {
    if (buf->rows == 1)
        return ce_smem_text(e, buf, "0", "0", ce_linear_text(e, d, ty, CE_SLOT));
    return ce_smem_text(e, buf, "0", ce_value_coord(e, d, 0, CE_SLOT),
                        ce_value_coord(e, d, 1, CE_SLOT));
}

/* Opens the loop over d's slots in steps of w, with the owners' test
 * when `owners` (replicated copies are not written). */
static void open_runs(Emit *e, const Dist *d, int w, bool owners) {
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; %s += %d) {", CE_SLOT, CE_SLOT, d->nE, CE_SLOT, w);
    e->indent++;
    const char *own = owners ? ce_owner(e, d, CE_SLOT) : "";
    ce_line(e, *own ? "if (%s) {" : "{", own);
    e->indent++;
}

static void close_runs(Emit *e) {
    e->indent -= 2;
    ce_line(e, "    }");
    ce_line(e, "}");
}

/* A CONVERT_SHARED conversion cv of x: the owners of x store it into its
 * scratch buffer (a rank-2 value at (row, column) of a padded [rows]
 * [pitch] buffer, smemplan.c; others at their linear index), a barrier,
 * every thread reads the slots of distribution t, a barrier; returns the
 * new array's name.  Runs of consecutive slots along dim 1 move as one
 * 4- to 16-byte access on either side (scratch_run). */
static const char *convert(Emit *e, const Op *cv, ValId x, const Dist *t) {
    Func *f = e->f;
    Type ty = val_type(f, x);
    const SharedBuffer *buf = smem_buffer_of(f->smem, cv, SMEM_SCRATCH);
    const char *ct = ce_ctype(e, type_elem(ty));
    const char *out = new_tmp(e, "mt_cv");
    const Dist *s = &e->dist[x];
    const char *sm = ce_scratch(e, ty);
    int es = dtype_info[buf->elem].bytes, pitch = smem_row_stride(buf);
    int ws = buf->rows > 1 ? scratch_run(s, es, pitch) : 1;
    int wt = buf->rows > 1 ? scratch_run(t, es, pitch) : 1;
    open_runs(e, s, ws, true);
    if (ws == 1) {
        ce_line(e, "%s[%s] = %s[%s];", sm, scratch_at(e, buf, s, ty), e->name[x], CE_SLOT);
    } else if (es < 4) {
        ce_line(e, "*(%s *)&%s[%s] = %s;", ce_bits_type(ws * es), sm, scratch_at(e, buf, s, ty),
                ce_pack_text(e, ws, es, e->name[x], CE_SLOT));
    } else {
        StrBuf init;
        sb_init(&init);
        for (int i = 0; i < ws; i++)
            sb_printf(&init, "%s%s[%s + %d]", i ? ", " : "", e->name[x], CE_SLOT, i);
        ce_line(e, "__align__(16) %s mt_run[%d] = {%s};", ct, ws, sb_str(&init));
        sb_free(&init);
        ce_line(e, "*(%s *)&%s[%s] = *(const %s *)mt_run;", ce_bits_type(ws * es), sm,
                scratch_at(e, buf, s, ty), ce_bits_type(ws * es));
    }
    close_runs(e);
    ce_line(e, "__syncthreads();");
    ce_line(e, "%s %s[%d];", ct, out, t->nE);
    open_runs(e, t, wt, false);
    if (wt == 1) {
        ce_line(e, "%s[%s] = %s[%s];", out, CE_SLOT, sm, scratch_at(e, buf, t, ty));
    } else {
        ce_line(e, "__align__(16) %s mt_run[%d];", ct, wt);
        ce_line(e, "*(%s *)mt_run = *(const %s *)&%s[%s];", ce_bits_type(wt * es), ce_bits_type(wt * es), sm,
                scratch_at(e, buf, t, ty));
        for (int i = 0; i < wt; i++)
            ce_line(e, "%s[%s + %d] = mt_run[%d];", out, CE_SLOT, i, i);
    }
    close_runs(e);
    ce_line(e, "__syncthreads();");
    return out;
}

/* Values made only of constructors, scalars and pure elementwise or shape
 * ops can be recomputed in any distribution instead of being moved; a
 * reduction or a dot would be recomputed whole, and reads may not move. */
static bool recomputable(Func *f, ValId x, int depth) {
    Value *v = val(f, x);
    if (v->type.rank == 0)
        return true;
    if (v->kind != VK_OP || !v->def || depth > 6)
        return false;
    Op *d = v->def;
    const OpInfo *oi = &op_info[d->code];
    if (oi->kind == K_REDUCE || oi->kind == K_DOT || oi->kind == K_GATHER ||
        !(oi->flags & F_PURE))
        return false;
    for (int i = 0; i < d->nargs; i++)
        if (d->args[i] && !recomputable(f, d->args[i], depth + 1))
            return false;
    return true;
}

bool cuda_recomputable(Func *f, ValId x) { return recomputable(f, x, 0); }

static const char *recompute_text(Emit *e, ValId x, const Dist *t, Loc loc);

/* The convert_layout op that defines v, or NULL. */
static const Op *conversion_of(Func *f, ValId v) {
    const Value *x = val(f, v);
    if (x->kind == VK_OP && x->def && x->def->code == OP_CONVERT_LAYOUT)
        return x->def;
    return NULL;
}

/* x as seen by a result distributed as r: x's value dim i is r's value
 * dim xmap[i] (NULL: right-aligned broadcasting). */
Access ce_operand(Emit *e, ValId x, const Dist *r, const int *xmap,
                         Loc loc) {
    Type t = val_type(e->f, x);
    int map[2];
    for (int i = 0; i < t.rank; i++)
        map[i] = xmap ? xmap[i] : i + r->vrank - t.rank;
    Layout params = r->L;
    int slice = -1;
    if (params.rank == 2 && t.rank == 1)
        slice = 1 - r->pdim[map[0]];
    Dist want = ce_dist(e, &params, t, slice);
    Access a;
    a.d = want;
    if (e->has_dist[x] && fits(&e->dist[x], &want, t)) {
        a.name = e->name[x];
        a.d = e->dist[x];
        return a;
    }
    /* layout.c decided how (one convert_layout per use, materialised
     * here where its user reads it); inside a recomputation the operands
     * of a recomputable value are recomputable too */
    const Op *cv = conversion_of(e->f, x);
    int how = cv ? (int)cv->attr[0] : CONVERT_RECOMPUTE;
    if (cv)
        x = cv->args[0];
    if (cv && how == CONVERT_SHARED) {
        a.name = convert(e, cv, x, &want);
        return a;
    }
    const char *text = NULL;
    if ((cv || e->depth > 0) && e->depth < 8 && recomputable(e->f, x, 0)) {
        e->depth++;
        text = recompute_text(e, x, &want, loc);
        e->depth--;
    }
    if (!text) {
        diag_error(e->c, loc, MT_ERR_INTERNAL,
                   "value %%%d is not where its user needs it and layout "
                   "assignment inserted no conversion", (int)x);
        a.name = "0";
        return a;
    }
    a.name = new_tmp(e, "mt_rc");
    ce_line(e, "%s %s[%d];", ce_ctype(e, type_elem(t)), a.name, want.nE);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, want.nE, CE_SLOT);
    ce_line(e, "    %s[%s] = %s;", a.name, CE_SLOT, text);
    return a;
}

/* Slot of a (fitting r) that holds the element of r's slot CE_SLOT. */
static const char *access_slot(Emit *e, const Access *a, const Dist *r) {
    const char *acc = "";
    int stride = 1;
    for (int p = r->L.rank - 1; p >= 0; p--) {
        if (a->d.n[p] > 1) {
            const char *s = ce_slot_along(e, r, p, CE_SLOT);
            const char *term = stride == 1 ? s : ce_fmt(e, "%s * %d", s, stride);
            acc = *acc ? ce_fmt(e, "%s + %s", term, acc) : term;
        }
        stride *= a->d.E[p];
    }
    return *acc ? acc : "0";
}

/* C text of x's element for slot CE_SLOT of a result distributed as r (r NULL
 * for scalar results). */
static const char *elem_expr_map(Emit *e, ValId x, const Dist *r,
                                 const int *map, Loc loc) {
    Type t = val_type(e->f, x);
    if (t.rank == 0 || !r)
        return ce_vname(e, x);
    Access a = ce_operand(e, x, r, map, loc);
    return ce_fmt(e, "%s[%s]", a.name, access_slot(e, &a, r));
}

const char *ce_elem(Emit *e, ValId x, const Dist *r, Loc loc) {
    return elem_expr_map(e, x, r, NULL, loc);
}

const char *ce_cast(Emit *e, const char *x, Type from, Type to) {
    return ctext_convert(e->f->arena, x, from, to);
}

/* ------------------------------------------------------- op expressions */

/* Element expression of an elementwise op for slot CE_SLOT of r. */
const char *ce_elementwise_expr(Emit *e, Op *op, const Dist *r) {
    return recompute_text(e, op->res[0], r, op->loc);
}

/* Element expression of x's defining op for slot CE_SLOT of t (NULL: a scalar
 * result), its operands located from loc.  An op of kind K_SHAPE inserts a
 * unit dim at attr[0]: its block operand's dims map around it instead of
 * right-aligned. */
static const char *recompute_text(Emit *e, ValId x, const Dist *t, Loc loc) {
    Op *op = val(e->f, x)->def;
    const char *a[MT_ELEM_OPERANDS];
    Type at[MT_ELEM_OPERANDS];
    ce_operand_texts(e, op, t, loc, a, at);
    return ce_op_text(e, op, a, at, t);
}

void ce_operand_texts(Emit *e, Op *op, const Dist *t, Loc loc,
                      const char *a[MT_ELEM_OPERANDS], Type at[MT_ELEM_OPERANDS]) {
    Func *f = e->f;
    bool shape = op_info[op->code].kind == K_SHAPE;
    for (int i = 0; i < MT_ELEM_OPERANDS; i++)
        a[i] = NULL;
    for (int i = 0; i < op->nargs && i < MT_ELEM_OPERANDS; i++) {
        if (!op->args[i])
            continue;
        at[i] = val_type(f, op->args[i]);
        if (shape && at[i].rank > 0) {
            int map[2];
            for (int j = 0; j < at[i].rank; j++)
                map[j] = j < op->attr[0] ? j : j + 1;
            a[i] = elem_expr_map(e, op->args[i], t, map, loc);
        } else {
            a[i] = ce_elem(e, op->args[i], t, loc);
        }
    }
}

/* The C expression of op's element from its operands' texts a (NULL for
 * absent optional operands) of types at: the op's C template from ops.def,
 * or for constructors and loads, which read the program's position, the
 * layout or memory, the text written here; NULL when the op has none. */
/* The CUDA C intrinsic of a load's or store's hints (AS_MEMHINT): the
 * cache operator asked for, else streaming (.cs, PTX's evict-first
 * allocation) for evict_first; NULL for a plain access: evict_last has no
 * CUDA C form, volatile is a volatile access (ce_load_ptr), and a bool in
 * memory has no intrinsic. */
const char *ce_mem_intrinsic(const Op *op, DType d) {
    static const char *const fn[2][MEM_NHINTS] = {
        {[MEM_CA] = "__ldca", [MEM_CG] = "__ldcg", [MEM_CV] = "__ldcv"},
        {[MEM_WB] = "__stwb", [MEM_CG] = "__stcg", [MEM_CS] = "__stcs", [MEM_WT] = "__stwt"},
    };
    bool store = op->code == OP_STORE;
    int64_t c = op->attr[0];
    if (d == DT_I1 || c < 0 || c >= MEM_NHINTS)
        return NULL;
    if (c == MEM_DEFAULT && op->attr[1] == MEM_EVICT_FIRST)
        return store ? "__stcs" : "__ldcs";
    return fn[store][c];
}

/* The pointer text p a load reads through: volatile loads read through a
 * volatile pointer. */
static const char *load_ptr(Emit *e, const Op *op, const char *p, DType d) {
    if (op->attr[0] != MEM_VOLATILE)
        return p;
    return ce_fmt(e, "((const volatile %s*)%s)", dtype_mtype(d), p);
}

const char *ce_op_text(Emit *e, Op *op, const char **a, const Type *at,
                           const Dist *r) {
    Func *f = e->f;
    Type rt = val_type(f, op->res[0]);
    switch (op->code) {
    case OP_PROGRAM_ID:
        return ce_fmt(e, "(int)blockIdx.%c", "xyz"[op->attr[0] % 3]);
    case OP_NUM_PROGRAMS:
        return ce_fmt(e, "(int)gridDim.%c", "xyz"[op->attr[0] % 3]);
    case OP_ARANGE: {
        const char *c = ce_value_coord(e, r, 0, CE_SLOT);
        return op->attr[0] ? ce_fmt(e, "(%lld + %s)", (long long)op->attr[0], c)
                           : c;
    }
    case OP_ZEROS:
    case OP_EMPTY:
        return ce_zero((DType)rt.dtype);
    case OP_LOAD: {
        /* a bool is a byte in memory: nonzero is true */
        Type pt = type_scalar((DType)rt.dtype);
        const char *p = load_ptr(e, op, a[0], (DType)rt.dtype);
        const char *fn = ce_mem_intrinsic(op, (DType)rt.dtype);
        const char *deref = rt.dtype == DT_I1 ? ce_fmt(e, "(*%s != 0)", p)
                            : fn              ? ce_fmt(e, "%s(%s)", fn, p)
                                              : ce_fmt(e, "(*%s)", p);
        const char *other = a[2] ? ce_cast(e, a[2], at[2], pt)
                                 : ce_zero((DType)rt.dtype);
        if (!a[1])
            return deref;
        return ce_fmt(e, "(%s ? %s : %s)", a[1], deref, other);
    }
    default:
        break;
    }
    if (op_info[op->code].kind == K_REDUCE)
        return NULL; /* a reduce's text combines partials, see emit_reduce */
    return ctext_expand_op(f->arena, op, a, at, op->nargs, rt);
}
