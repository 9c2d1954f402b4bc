/* cuda.c: the CUDA C emitter.
 *
 * Input: a verified, optimised Func after the back-end passes: layouts
 * and explicit conversions (layout.c), axis facts (axis.c), dot plans
 * (dotplan.c) and the shared-memory plan (smemplan.c).  The emitter
 * decides nothing those passes decide; it turns the annotated IR into
 * text.  Output: deterministic CUDA C text of one kernel, or -1 with a
 * located error (unsupported op) and `out` untouched.
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

typedef struct Dist {
    Layout L;          /* parameters; L.shape is not used */
    int vrank;         /* rank of the value */
    int pdim[2];       /* value dim -> parent dim */
    int32_t n[2];      /* effective size along each parent dim */
    int32_t E[2];      /* slots along each parent dim */
    int nE;            /* total slots */
    int base;          /* index of the parameter set (base variables) */
} Dist;

typedef struct Emit {
    Func *f;
    Ctx *c;
    StrBuf body;
    int indent;
    int last_line;
    const char **name;   /* C name of every value */
    Dist *dist;          /* actual distribution of every block value */
    bool *has_dist;
    Layout *bases;       /* distinct parameter sets in use */
    int nbases, capbases;
    int tmp;             /* counter for temporaries */
    int min_blocks;      /* blocks per SM every tiled dot allows (0: none) */
    bool pipelined;      /* a K loop is software pipelined */
    int depth;           /* nesting of recomputations */
} Emit;

static const char *SLOT = "mt_e";

/* ------------------------------------------------------------ text utils */

static void line(Emit *e, const char *fmt, ...) MT_PRINTF(2, 3);
static void line(Emit *e, const char *fmt, ...) {
    sb_indent(&e->body, 4 * e->indent);
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(&e->body, fmt, ap);
    va_end(ap);
    sb_putc(&e->body, '\n');
}

static const char *fmt(Emit *e, const char *f, ...) MT_PRINTF(2, 3);
static const char *fmt(Emit *e, const char *f, ...) {
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

static const char *ctype_of(Emit *e, Type t) {
    const char *base = dtype_ctype((DType)t.dtype);
    return t.is_ptr ? fmt(e, "%s*", base) : base;
}

static void pragma_unroll(Emit *e) { line(e, "#pragma unroll"); }

static const char *literal(Emit *e, Type t, const Value *v) {
    if (t.is_ptr)
        return "0";
    switch ((DType)t.dtype) {
    case DT_I1:
        return v->c.i ? "true" : "false";
    case DT_I32:
        if (v->c.i == INT32_MIN)
            return "(-2147483647 - 1)";
        return v->c.i < 0 ? fmt(e, "(%lld)", (long long)v->c.i)
                          : fmt(e, "%lld", (long long)v->c.i);
    case DT_I64:
        if (v->c.i == INT64_MIN)
            return "(-9223372036854775807LL - 1LL)";
        return v->c.i < 0 ? fmt(e, "(%lldLL)", (long long)v->c.i)
                          : fmt(e, "%lldLL", (long long)v->c.i);
    case DT_F32: {
        char buf[32];
        format_f32(buf, (float)v->c.f);
        if (strcmp(buf, "nan") == 0)
            return "__int_as_float(0x7fc00000)";
        if (strcmp(buf, "inf") == 0)
            return "__int_as_float(0x7f800000)";
        if (strcmp(buf, "-inf") == 0)
            return "(-__int_as_float(0x7f800000))";
        return buf[0] == '-' ? fmt(e, "(%sf)", buf) : fmt(e, "%sf", buf);
    }
    default:
        return "0";
    }
}

static const char *zero_of(DType d) {
    switch (d) {
    case DT_I1: return "false";
    case DT_I64: return "0LL";
    case DT_F32: return "0.0f";
    default: return "0";
    }
}

static void mark_line(Emit *e, Loc loc) {
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

static int32_t tile_of(const Layout *l, int p) {
    return l->spt[p] * l->tpw[p] * l->wpc[p];
}

/* Distribution of a value of type t held in layout parameters l; a rank-1
 * value in a rank-2 layout lacks parent dim slice_dim. */
static Dist dist_make(Emit *e, const Layout *l, Type t, int slice_dim) {
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
        int32_t C = tile_of(l, p);
        d.E[p] = d.n[p] >= C ? l->spt[p] * (d.n[p] / C)
                 : (l->spt[p] < d.n[p] ? l->spt[p] : d.n[p]);
        d.nE *= d.E[p];
    }
    if (l->rank < 2)
        d.E[1] = 1;
    d.L.slice_dim = l->rank == t.rank ? -1 : slice_dim;
    d.base = base_index(e, l);
    return d;
}

static Dist dist_assigned(Emit *e, ValId v) {
    Value *x = val(e->f, v);
    Layout *l = &e->f->layouts[x->layout];
    return dist_make(e, l, x->type, l->slice_dim);
}

/* Slot index along parent dim p of the slot held in variable sv. */
static const char *slot_along(Emit *e, const Dist *d, int p, const char *sv) {
    if (d->E[p] == 1)
        return "0";
    if (d->L.rank == 1)
        return sv;
    if (p == 0)
        return d->E[1] == 1 ? sv : fmt(e, "(%s / %d)", sv, d->E[1]);
    return d->E[0] == 1 ? sv : fmt(e, "(%s %% %d)", sv, d->E[1]);
}

/* The per-thread variables the kernel prologue computes for parameter
 * set `base` and parent dim p: 'l' lane and 'w' warp coordinates along p,
 * 'b' the first coordinate the thread owns.  The prologue and every
 * reader take the names from here. */
static const char *prologue_var(Emit *e, char kind, int base, int p) {
    return fmt(e, "mt_%c%d_%d", kind, base, p);
}

static const char *base_var(Emit *e, const Dist *d, int p) {
    return prologue_var(e, 'b', d->base, p);
}

/* Coordinate along parent dim p of slot-along-p text s. */
static const char *coord_text(Emit *e, const Dist *d, int p, const char *s) {
    int32_t n = d->n[p], C = tile_of(&d->L, p), spt = d->L.spt[p];
    if (n == 1)
        return "0";
    const char *b = base_var(e, d, p);
    if (n >= C) {
        if (strcmp(s, "0") == 0)
            return b;
        if (d->E[p] <= spt) /* one repetition */
            return fmt(e, "(%s + %s)", b, s);
        if (spt == 1)
            return fmt(e, "(%s + %s * %d)", b, s, C);
        return fmt(e, "(%s + (%s / %d) * %d + %s %% %d)", b, s, spt, C, s, spt);
    }
    if (strcmp(s, "0") == 0)
        return fmt(e, "(%s & %d)", b, n - 1);
    return fmt(e, "((%s + %s) & %d)", b, s, n - 1);
}

/* "" when every copy along p is owned, else the ownership test. */
static const char *owner_along(Emit *e, const Dist *d, int p, const char *s) {
    int32_t n = d->n[p], C = tile_of(&d->L, p);
    if (n >= C)
        return "";
    const char *b = base_var(e, d, p);
    if (strcmp(s, "0") == 0)
        return fmt(e, "%s < %d", b, n);
    return fmt(e, "%s + %s < %d", b, s, n);
}

static const char *owner_text(Emit *e, const Dist *d, const char *sv) {
    const char *acc = "";
    for (int p = 0; p < d->L.rank; p++) {
        const char *o = owner_along(e, d, p, slot_along(e, d, p, sv));
        if (!*o)
            continue;
        acc = *acc ? fmt(e, "%s && %s", acc, o) : o;
    }
    return acc;
}

/* Coordinate of value dim i of slot sv. */
static const char *value_coord(Emit *e, const Dist *d, int i, const char *sv) {
    int p = d->pdim[i];
    return coord_text(e, d, p, slot_along(e, d, p, sv));
}

/* Row-major linear index of slot sv within the value's own shape. */
static const char *linear_text(Emit *e, const Dist *d, Type t, const char *sv) {
    if (t.rank == 1)
        return value_coord(e, d, 0, sv);
    const char *r = value_coord(e, d, 0, sv), *c = value_coord(e, d, 1, sv);
    if (strcmp(r, "0") == 0)
        return c;
    if (strcmp(c, "0") == 0)
        return fmt(e, "%s * %d", r, t.shape[1]);
    return fmt(e, "%s * %d + %s", r, t.shape[1], c);
}

/* ---------------------------------------------------- shared memory use */

static const char *scratch(Emit *e, Type t) {
    return fmt(e, "((%s*)mt_smem)", ctype_of(e, type_elem(t)));
}

/* The address of (stage, row, column) of a planned buffer, as text. */
static const char *smem_text(Emit *e, const SharedBuffer *b, const char *stage,
                             const char *row, const char *column) {
    StrBuf sb;
    sb_init(&sb);
    smem_element_text(&sb, b, stage, row, column);
    const char *s = arena_strdup(e->f->arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

/* ---------------------------------------------------------- operands */

typedef struct Access {
    const char *name;
    Dist d;
} Access;

static const char *vname(Emit *e, ValId v) {
    Value *x = val(e->f, v);
    if (x->kind == VK_CONST)
        return literal(e, x->type, x);
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
    return fmt(e, "%s%d", prefix, e->tmp++);
}

/* A CONVERT_SHARED conversion cv of x: the owners of x store it into
 * its scratch buffer at its linear index, a barrier, every thread reads
 * the slots of distribution t, a barrier; returns the new array's name. */
static const char *convert(Emit *e, const Op *cv, ValId x, const Dist *t) {
    Func *f = e->f;
    Type ty = val_type(f, x);
    const SharedBuffer *buf = smem_buffer_of(f->smem, cv, SMEM_SCRATCH);
    const char *ct = ctype_of(e, type_elem(ty));
    const char *out = new_tmp(e, "mt_cv");
    const Dist *s = &e->dist[x];
    const char *sm = scratch(e, ty);
    const char *wr = smem_text(e, buf, "0", "0", linear_text(e, s, ty, SLOT));
    const char *rd = smem_text(e, buf, "0", "0", linear_text(e, t, ty, SLOT));
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, s->nE, SLOT);
    const char *own = owner_text(e, s, SLOT);
    if (*own)
        line(e, "    if (%s) %s[%s] = %s[%s];", own, sm, wr, e->name[x], SLOT);
    else
        line(e, "    %s[%s] = %s[%s];", sm, wr, e->name[x], SLOT);
    line(e, "__syncthreads();");
    line(e, "%s %s[%d];", ct, out, t->nE);
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, t->nE, SLOT);
    line(e, "    %s[%s] = %s[%s];", out, SLOT, sm, rd);
    line(e, "__syncthreads();");
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
    if (oi->kind == K_REDUCE || oi->kind == K_DOT || !(oi->flags & F_PURE))
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
static Access operand_in(Emit *e, ValId x, const Dist *r, const int *xmap,
                         Loc loc) {
    Type t = val_type(e->f, x);
    int map[2];
    for (int i = 0; i < t.rank; i++)
        map[i] = xmap ? xmap[i] : i + r->vrank - t.rank;
    Layout params = r->L;
    int slice = -1;
    if (params.rank == 2 && t.rank == 1)
        slice = 1 - r->pdim[map[0]];
    Dist want = dist_make(e, &params, t, slice);
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
    line(e, "%s %s[%d];", ctype_of(e, type_elem(t)), a.name, want.nE);
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, want.nE, SLOT);
    line(e, "    %s[%s] = %s;", a.name, SLOT, text);
    return a;
}

/* Slot of a (fitting r) that holds the element of r's slot SLOT. */
static const char *access_slot(Emit *e, const Access *a, const Dist *r) {
    const char *acc = "";
    int stride = 1;
    for (int p = r->L.rank - 1; p >= 0; p--) {
        if (a->d.n[p] > 1) {
            const char *s = slot_along(e, r, p, SLOT);
            const char *term = stride == 1 ? s : fmt(e, "%s * %d", s, stride);
            acc = *acc ? fmt(e, "%s + %s", term, acc) : term;
        }
        stride *= a->d.E[p];
    }
    return *acc ? acc : "0";
}

/* C text of x's element for slot SLOT of a result distributed as r (r NULL
 * for scalar results). */
static const char *elem_expr_map(Emit *e, ValId x, const Dist *r,
                                 const int *map, Loc loc) {
    Type t = val_type(e->f, x);
    if (t.rank == 0 || !r)
        return vname(e, x);
    Access a = operand_in(e, x, r, map, loc);
    return fmt(e, "%s[%s]", a.name, access_slot(e, &a, r));
}

static const char *elem_expr(Emit *e, ValId x, const Dist *r, Loc loc) {
    return elem_expr_map(e, x, r, NULL, loc);
}

static const char *cast_to(Emit *e, const char *x, Type from, Type to) {
    return ctext_convert(e->f->arena, x, from, to);
}

/* ------------------------------------------------------- op expressions */

static const char *op_text(Emit *e, Op *op, const char **a, const Type *at,
                           const Dist *r);

/* Element expression of an elementwise op for slot SLOT of r. */
static const char *elementwise_expr(Emit *e, Op *op, const Dist *r) {
    return recompute_text(e, op->res[0], r, op->loc);
}

/* Element expression of x's defining op for slot SLOT of t (NULL: a scalar
 * result), its operands located from loc.  An op of kind K_SHAPE inserts a
 * unit dim at attr[0]: its block operand's dims map around it instead of
 * right-aligned. */
static const char *recompute_text(Emit *e, ValId x, const Dist *t, Loc loc) {
    Func *f = e->f;
    Op *op = val(f, x)->def;
    bool shape = op_info[op->code].kind == K_SHAPE;
    const char *a[3] = {0, 0, 0};
    Type at[3];
    for (int i = 0; i < op->nargs && i < 3; i++) {
        if (!op->args[i])
            continue;
        at[i] = val_type(f, op->args[i]);
        if (shape && at[i].rank > 0) {
            int map[2];
            for (int j = 0; j < at[i].rank; j++)
                map[j] = j < op->attr[0] ? j : j + 1;
            a[i] = elem_expr_map(e, op->args[i], t, map, loc);
        } else {
            a[i] = elem_expr(e, op->args[i], t, loc);
        }
    }
    return op_text(e, op, a, at, t);
}

/* The C expression of op's element from its operands' texts a (NULL for
 * absent optional operands) of types at: the op's C template from ops.def,
 * or for constructors and loads, which read the program's position, the
 * layout or memory, the text written here; NULL when the op has none. */
static const char *op_text(Emit *e, Op *op, const char **a, const Type *at,
                           const Dist *r) {
    Func *f = e->f;
    Type rt = val_type(f, op->res[0]);
    switch (op->code) {
    case OP_PROGRAM_ID:
        return fmt(e, "(int)blockIdx.%c", "xyz"[op->attr[0] % 3]);
    case OP_NUM_PROGRAMS:
        return fmt(e, "(int)gridDim.%c", "xyz"[op->attr[0] % 3]);
    case OP_ARANGE: {
        const char *c = value_coord(e, r, 0, SLOT);
        return op->attr[0] ? fmt(e, "(%lld + %s)", (long long)op->attr[0], c)
                           : c;
    }
    case OP_ZEROS:
    case OP_EMPTY:
        return zero_of((DType)rt.dtype);
    case OP_LOAD: {
        Type pt = type_scalar((DType)rt.dtype);
        const char *other = a[2] ? cast_to(e, a[2], at[2], pt)
                                 : zero_of((DType)rt.dtype);
        if (!a[1])
            return fmt(e, "(*%s)", a[0]);
        return fmt(e, "(%s ? *%s : %s)", a[1], a[0], other);
    }
    default:
        break;
    }
    int kind = op_info[op->code].kind;
    const char *tmpl = op_ctext(op->code, rt);
    if (!tmpl || kind == K_REDUCE)
        return NULL; /* a reduce's text combines partials, see emit_reduce */
    return ctext_expand(f->arena, tmpl, a, at, op->nargs, rt);
}

/* --------------------------------------------------------- op emitters */

static int emit_region(Emit *e, Region *r);
static int emit_op(Emit *e, Op *op);

static int unsupported(Emit *e, Op *op) {
    return diag_error(e->c, op->loc, MT_ERR_UNSUPPORTED,
                      "the CUDA backend cannot lower '%s'",
                      op_info[op->code].name);
}

/* ------------------------------------------------------ vector accesses */

/* One 64- or 128-bit access per group of `width` slots: the slots of a
 * group are consecutive along the last (fastest) dim, start at a multiple
 * of width (a thread's spt elements are, and width divides spt), and the
 * pointer's axis info says their addresses are consecutive.  The group's
 * start address is known aligned from the signature hint and the offsets'
 * divisibility, or (runtime_align) tested at run time; a group with any
 * mask element unset, or a failed test, takes the scalar path. */
typedef struct VecPlan {
    int width;
    int elem_bytes;
    bool runtime_align;
    const char *vtype;    /* float4, int2, longlong2 ... */
} VecPlan;

static const char *const vec_comp[4] = {"x", "y", "z", "w"};

static bool vector_plan(Emit *e, ValId p, const Dist *r, bool is_store,
                        VecPlan *vp) {
    Type pt = val_type(e->f, p);
    if (pt.rank == 0 || !pt.is_ptr)
        return false;
    const char *base;
    int es;
    switch ((DType)pt.dtype) {
    case DT_F32: base = "float"; es = 4; break;
    case DT_I32: base = "int"; es = 4; break;
    case DT_I64: base = "longlong"; es = 8; break;
    default: return false;
    }
    int fd = r->L.rank - 1;
    if (r->L.order[0] != fd || r->pdim[r->vrank - 1] != fd ||
        r->n[fd] < tile_of(&r->L, fd))
        return false;
    if (is_store && *owner_text(e, r, SLOT))
        return false; /* replicated slots: only owners may store */
    const AxisInfo a = e->f->axis[p];
    if (!a.hinted)
        return false;
    int w = 16 / es;
    while (w > 1 && (r->L.spt[fd] % w != 0 || a.contig < w))
        w /= 2;
    if (w < 2)
        return false;
    vp->width = w;
    vp->elem_bytes = es;
    vp->runtime_align = a.div < (int64_t)w * es;
    vp->vtype = fmt(e, "%s%d", base, w);
    return true;
}

/* Opens the loop over groups; with a mask or a runtime alignment test it
 * also opens `if (mt_all) {` and returns true. */
static bool vector_open(Emit *e, const VecPlan *vp, int nE, const char *mask,
                        const char *ptr) {
    int w = vp->width;
    pragma_unroll(e);
    line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", nE, w);
    e->indent++;
    if (!mask && !vp->runtime_align)
        return false;
    line(e, "bool mt_all = true;");
    if (mask) {
        pragma_unroll(e);
        line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", SLOT, SLOT, w,
             SLOT);
        line(e, "    mt_all = mt_all && %s;", mask);
    }
    if (vp->runtime_align) {
        line(e, "{");
        line(e, "    const int %s = mt_g;", SLOT);
        line(e, "    mt_all = mt_all && (((unsigned long long)%s) & %dull) == 0;",
             ptr, w * vp->elem_bytes - 1);
        line(e, "}");
    }
    line(e, "if (mt_all) {");
    e->indent++;
    return true;
}

/* Vector load of op's result when its pointer allows; 1 when emitted. */
static int emit_vector_load(Emit *e, Op *op) {
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    Dist r = dist_assigned(e, res);
    VecPlan vp;
    if (!vector_plan(e, op->args[0], &r, false, &vp))
        return 0;
    const char *a[3] = {0, 0, 0};
    Type at[3];
    for (int i = 0; i < op->nargs && i < 3; i++) {
        if (!op->args[i])
            continue;
        at[i] = val_type(f, op->args[i]);
        a[i] = elem_expr(e, op->args[i], &r, op->loc);
    }
    const char *scalar = op_text(e, op, a, at, &r);
    if (!scalar)
        return unsupported(e, op);
    const char *ct = ctype_of(e, type_elem(rt));
    int w = vp.width;
    e->name[res] = fmt(e, "v%d", res);
    line(e, "%s v%d[%d];", ct, res, r.nE);
    bool test = vector_open(e, &vp, r.nE, a[1], a[0]);
    line(e, "const int %s = mt_g;", SLOT);
    line(e, "%s mt_q = *(const %s*)(%s);", vp.vtype, vp.vtype, a[0]);
    for (int i = 0; i < w; i++)
        line(e, "v%d[mt_g + %d] = mt_q.%s;", res, i, vec_comp[i]);
    if (test) {
        e->indent--;
        line(e, "} else {");
        e->indent++;
        pragma_unroll(e);
        line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", SLOT, SLOT, w, SLOT);
        line(e, "    v%d[%s] = %s;", res, SLOT, scalar);
        e->indent--;
        line(e, "}");
    }
    e->indent--;
    line(e, "}");
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 1;
}

/* Vector store through p (distributed as r) of value text vx under mask
 * text mx ("" none); 1 when emitted. */
static int emit_vector_store(Emit *e, ValId p, const Dist *r, const char *vx,
                             const char *mx, DType elem) {
    VecPlan vp;
    if (!vector_plan(e, p, r, true, &vp))
        return 0;
    int w = vp.width;
    const char *ptr = e->name[p];
    const char *pa = fmt(e, "%s[%s]", ptr, SLOT);
    bool test = vector_open(e, &vp, r->nE, *mx ? mx : NULL, pa);
    line(e, "%s mt_q[%d];", dtype_ctype(elem), w);
    pragma_unroll(e);
    line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", SLOT, SLOT, w, SLOT);
    line(e, "    mt_q[%s - mt_g] = %s;", SLOT, vx);
    StrBuf mk;
    sb_init(&mk);
    sb_printf(&mk, "make_%s(", vp.vtype);
    for (int i = 0; i < w; i++)
        sb_printf(&mk, "%smt_q[%d]", i ? ", " : "", i);
    sb_putc(&mk, ')');
    line(e, "{");
    line(e, "    const int %s = mt_g;", SLOT);
    line(e, "    *(%s*)(%s) = %s;", vp.vtype, pa, sb_str(&mk));
    line(e, "}");
    sb_free(&mk);
    if (test) {
        e->indent--;
        line(e, "} else {");
        e->indent++;
        pragma_unroll(e);
        line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", SLOT, SLOT, w, SLOT);
        if (*mx)
            line(e, "    if (%s) *%s = %s;", mx, pa, vx);
        else
            line(e, "    *%s = %s;", pa, vx);
        e->indent--;
        line(e, "}");
    }
    e->indent--;
    line(e, "}");
    return 1;
}

static int emit_elementwise(Emit *e, Op *op) {
    if (op->code == OP_LOAD && val_type(e->f, op->res[0]).rank > 0) {
        int done = emit_vector_load(e, op);
        if (done)
            return done < 0 ? -1 : 0;
    }
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    const char *ct = ctype_of(e, type_elem(rt));
    e->name[res] = fmt(e, "v%d", res);
    if (rt.rank == 0) {
        const char *x = elementwise_expr(e, op, NULL);
        if (!x)
            return unsupported(e, op);
        line(e, "%s v%d = %s;", ct, res, x);
        return 0;
    }
    Dist r = dist_assigned(e, res);
    const char *x = elementwise_expr(e, op, &r);
    if (!x)
        return unsupported(e, op);
    line(e, "%s v%d[%d];", ct, res, r.nE);
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, r.nE, SLOT);
    line(e, "    v%d[%s] = %s;", res, SLOT, x);
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 0;
}

static int emit_expand_dims(Emit *e, Op *op) {
    Func *f = e->f;
    ValId x = op->args[0], res = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, res);
    if (xt.rank != 1 || rt.rank != 2)
        return emit_elementwise(e, op);
    Dist r = dist_assigned(e, res);
    int map[1] = {op->attr[0] == 0 ? 1 : 0};
    Access a = operand_in(e, x, &r, map, op->loc);
    e->name[res] = a.name; /* same slots: no code */
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 0;
}

static int emit_store(Emit *e, Op *op) {
    Func *f = e->f;
    ValId p = op->args[0], v = op->args[1], m = op->args[2];
    Type pt = val_type(f, p), vt = val_type(f, v);
    Type elem = type_scalar((DType)pt.dtype);
    if (pt.rank == 0) {
        const char *val_text = cast_to(e, vname(e, v), vt, elem);
        if (m && val_type(f, m).rank > 0) {
            /* A block mask on a scalar pointer: the pointer broadcasts to
             * the mask's shape, so each owner of a set mask element stores
             * the same value to the same address (a benign duplicate). */
            Dist r = e->dist[m];
            const char *mx = elem_expr(e, m, &r, op->loc);
            const char *own = owner_text(e, &r, SLOT);
            const char *cond = *own ? fmt(e, "%s && %s", own, mx) : mx;
            pragma_unroll(e);
            line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, r.nE, SLOT);
            line(e, "    if (%s) *%s = %s;", cond, vname(e, p), val_text);
            return 0;
        }
        if (m)
            line(e, "if (threadIdx.x == 0 && %s) *%s = %s;", vname(e, m),
                 vname(e, p), val_text);
        else
            line(e, "if (threadIdx.x == 0) *%s = %s;", vname(e, p), val_text);
        return 0;
    }
    Dist r = e->dist[p];
    const char *vx = cast_to(e, elem_expr(e, v, &r, op->loc), vt, elem);
    const char *mx = m ? elem_expr(e, m, &r, op->loc) : "";
    const char *own = owner_text(e, &r, SLOT);
    const char *cond = *own && *mx ? fmt(e, "%s && %s", own, mx)
                       : *own      ? own
                                   : mx;
    int done = emit_vector_store(e, p, &r, vx, mx, (DType)pt.dtype);
    if (done)
        return done < 0 ? -1 : 0;
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, r.nE, SLOT);
    if (*cond)
        line(e, "    if (%s) *%s[%s] = %s;", cond, e->name[p], SLOT, vx);
    else
        line(e, "    *%s[%s] = %s;", e->name[p], SLOT, vx);
    return 0;
}

static const char *reduce_identity(int code, Type t) {
    int id = op_info[code].identity;
    if (id == ID_ZERO)
        return zero_of((DType)t.dtype);
    return ctext_limit((DType)t.dtype, id == ID_HIGHEST);
}

/* The reduce row's C text combines two partials of element type t. */
static const char *combine_text(Emit *e, int code, Type t, const char *a,
                                const char *b) {
    const char *args[2] = {a, b};
    Type at[2] = {t, t};
    return ctext_expand(e->f->arena, op_ctext(code, t), args, at, 2, t);
}

static int emit_reduce(Emit *e, Op *op) {
    Func *f = e->f;
    ValId x = op->args[0], res = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, res);
    Type et = type_scalar((DType)xt.dtype);
    if (!type_is_numeric(et))
        return unsupported(e, op);
    const char *ct = ctype_of(e, et);
    const Dist *d = &e->dist[x];
    int axis = (int)op->attr[0];
    int pa = d->pdim[axis];
    int po = d->L.rank == 2 ? 1 - pa : -1;
    int Eo = po >= 0 ? d->E[po] : 1;
    int Ea = d->E[pa];
    const char *acc = fmt(e, "mt_r%d", res);
    const char *part = fmt(e, "v%d", res);
    if (rt.rank == 0)
        part = fmt(e, "mt_p%d", res);
    line(e, "%s %s[%d];", ct, part, Eo);
    pragma_unroll(e);
    line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", Eo);
    e->indent++;
    line(e, "%s %s = %s;", ct, acc, reduce_identity(op->code, et));
    pragma_unroll(e);
    line(e, "for (int mt_s = 0; mt_s < %d; ++mt_s) {", Ea);
    const char *slot;
    if (po < 0)
        slot = "mt_s";
    else if (pa == 0)
        slot = d->E[1] == 1 ? "mt_s" : fmt(e, "mt_s * %d + mt_j", d->E[1]);
    else
        slot = d->E[1] == 1 ? "mt_j" : fmt(e, "mt_j * %d + mt_s", d->E[1]);
    const char *own = owner_along(e, d, pa, "mt_s");
    const char *comb = combine_text(e, op->code, et, acc,
                                    fmt(e, "%s[%s]", e->name[x], slot));
    if (*own)
        line(e, "    if (%s) %s = %s;", own, acc, comb);
    else
        line(e, "    %s = %s;", acc, comb);
    line(e, "}");
    /* lanes that hold other coordinates along the axis */
    int fast = d->L.order[0];
    int stride = pa == fast ? 1 : d->L.tpw[fast];
    /* every lane must reach every shuffle: never inside a ?: */
    for (int m = 1; m < d->L.tpw[pa]; m *= 2) {
        const char *other = fmt(e, "mt_o%d_%d", res, m);
        line(e, "%s %s = __shfl_xor_sync(0xffffffffu, %s, %d);", ct, other,
             acc, m * stride);
        line(e, "%s = %s;", acc, combine_text(e, op->code, et, acc, other));
    }
    line(e, "%s[mt_j] = %s;", part, acc);
    e->indent--;
    line(e, "}");
    int W = d->L.wpc[pa];
    if (W > 1) {
        /* partial of warp w for other-dim coordinate co at (co, w) */
        const SharedBuffer *buf = smem_buffer_of(e->f->smem, op, SMEM_SCRATCH);
        const char *sm = scratch(e, et);
        const char *co = po >= 0 ? coord_text(e, d, po, "mt_j") : "0";
        const char *oo = po >= 0 ? owner_along(e, d, po, "mt_j") : "";
        const char *row = smem_text(e, buf, "0", co, "0");
        row = strcmp(row, "0") == 0 ? "" : fmt(e, "%s + ", row);
        const char *cond = fmt(e, "%s == 0%s%s", prologue_var(e, 'l', d->base, pa),
                               *oo ? " && " : "", oo);
        pragma_unroll(e);
        line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j)", Eo);
        line(e, "    if (%s) %s[%s] = %s[mt_j];", cond, sm,
             smem_text(e, buf, "0", co, prologue_var(e, 'w', d->base, pa)), part);
        line(e, "__syncthreads();");
        pragma_unroll(e);
        line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", Eo);
        e->indent++;
        line(e, "%s %s = %s[%s0];", ct, acc, sm, row);
        for (int w = 1; w < W; w++)
            line(e, "%s = %s;", acc,
                 combine_text(e, op->code, et, acc,
                              fmt(e, "%s[%s%d]", sm, row, w)));
        line(e, "%s[mt_j] = %s;", part, acc);
        e->indent--;
        line(e, "}");
        line(e, "__syncthreads();");
    }
    e->name[res] = fmt(e, "v%d", res);
    if (rt.rank == 0) {
        line(e, "%s v%d = %s[0];", ct, res, part);
        return 0;
    }
    e->dist[res] = dist_make(e, &d->L, rt, pa);
    e->has_dist[res] = true;
    return 0;
}

/* ---------------------------------------------------------------- dot */

/* For each slot the thread owns: sbuf[addr(slot)] = src[slot]. */
static void emit_owned_copy(Emit *e, const Dist *d, const char *own,
                            const SharedBuffer *sbuf, const char *addr,
                            const char *src) {
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, d->nE, SLOT);
    if (*own)
        line(e, "    if (%s) %s[%s] = %s[%s];", own, sbuf->name, addr, src, SLOT);
    else
        line(e, "    %s[%s] = %s[%s];", sbuf->name, addr, src, SLOT);
}

/* Cooperative write of a dot operand x (its values in array `src`, laid
 * out as x's distribution) into shared buffer sbuf, every element once by
 * its owner; `transpose` stores x[i][j] at (j, i).  When x's thread holds
 * 4 consecutive elements along the buffer's columns (B, not transposed,
 * spt % 4 == 0 along its last dim), one float4 store per group. */
static void dot_write(Emit *e, ValId x, const SharedBuffer *sbuf,
                      const char *stage, bool transpose, const char *src) {
    const Dist *d = &e->dist[x];
    const char *own = owner_text(e, d, SLOT);
    const char *r0 = value_coord(e, d, 0, SLOT), *c0 = value_coord(e, d, 1, SLOT);
    StrBuf addr;
    sb_init(&addr);
    smem_element_text(&addr, sbuf, stage, transpose ? c0 : r0,
                      transpose ? r0 : c0);
    int fd = d->L.rank - 1;
    bool vec = !transpose && !*own && d->L.rank == 2 && d->vrank == 2 &&
               d->L.order[0] == 1 && d->L.spt[fd] % 4 == 0 &&
               d->n[fd] >= tile_of(&d->L, fd) &&
               smem_row_stride(sbuf) % 4 == 0;
    if (vec) {
        pragma_unroll(e);
        line(e, "for (int mt_g = 0; mt_g < %d; mt_g += 4) {", d->nE);
        line(e, "    const int %s = mt_g;", SLOT);
        line(e, "    *(float4*)&%s[%s] = make_float4(%s[mt_g], %s[mt_g + 1], "
                "%s[mt_g + 2], %s[mt_g + 3]);",
             sbuf->name, sb_str(&addr), src, src, src, src);
        line(e, "}");
    } else {
        emit_owned_copy(e, d, own, sbuf, sb_str(&addr), src);
    }
    sb_free(&addr);
}

/* Loads E values of one shared row as float4s into array `dst`: the
 * thread's coordinates along dim p of r, 4 consecutive per block. */
static void dot_read_row(Emit *e, const Dist *r, int p, const SharedBuffer *sbuf,
                         const char *stage, const char *dst) {
    StrBuf addr;
    sb_init(&addr);
    smem_element_text(&addr, sbuf, stage, "dot_k", coord_text(e, r, p, "mt_i"));
    pragma_unroll(e);
    line(e, "for (int mt_i = 0; mt_i < %d; mt_i += 4) {", r->E[p]);
    line(e, "    float4 mt_q = *(const float4*)&%s[%s];", sbuf->name,
         sb_str(&addr));
    line(e, "    %s[mt_i] = mt_q.x;", dst);
    line(e, "    %s[mt_i + 1] = mt_q.y;", dst);
    line(e, "    %s[mt_i + 2] = mt_q.z;", dst);
    line(e, "    %s[mt_i + 3] = mt_q.w;", dst);
    line(e, "}");
    sb_free(&addr);
}

/* One dot's lowering, split so that the pipelined loop can place the
 * shared writes and the FMA loop separately: its plan (form, tiles,
 * buffers; dotplan.c) and its result distribution. */
typedef struct DotGen {
    Op *op;
    const DotPlan *plan;
    Dist r;
    bool tiled;          /* the vectorised register-tile form */
    SharedBuffer A, B;
} DotGen;

static void dot_prepare(Emit *e, Op *op, DotGen *g) {
    const DotPlan *p = op->plan;
    g->op = op;
    g->plan = p;
    g->r = dist_assigned(e, op->res[0]);
    g->tiled = p->tiled;
    g->A = p->A;
    g->B = p->B;
    if (p->tiled && (!e->min_blocks || p->min_blocks < e->min_blocks))
        e->min_blocks = p->min_blocks;
}

/* The cooperative writes of both operands, from arrays src_a / src_b
 * (NULL: the operands' own arrays) into `stage`. */
static void dot_writes(Emit *e, const DotGen *g, const char *stage,
                       const char *src_a, const char *src_b) {
    ValId a = g->op->args[0], b = g->op->args[1];
    if (!src_a)
        src_a = e->name[a];
    if (!src_b)
        src_b = e->name[b];
    if (g->tiled) {
        dot_write(e, a, &g->A, stage, true, src_a);
        dot_write(e, b, &g->B, stage, false, src_b);
        return;
    }
    /* every element once, by its owner */
    for (int k = 0; k < 2; k++) {
        ValId x = k ? b : a;
        const char *src = k ? src_b : src_a;
        const SharedBuffer *sbuf = k ? &g->B : &g->A;
        const Dist *d = &e->dist[x];
        StrBuf addr;
        sb_init(&addr);
        smem_element_text(&addr, sbuf, stage, value_coord(e, d, 0, SLOT),
                          value_coord(e, d, 1, SLOT));
        emit_owned_copy(e, d, owner_text(e, d, SLOT), sbuf, sb_str(&addr), src);
        sb_free(&addr);
    }
}

/* The unrolled FMA loop over `stage`.  `into` NULL: the result is a new
 * array v<res> that starts from `init`; else the products are added
 * straight into the existing array `into` (the pipelined loop's carried
 * accumulator), which then names the result. */
static void dot_compute(Emit *e, const DotGen *g, const char *stage,
                        const char *init, const char *into) {
    ValId res = g->op->res[0];
    const Dist *r = &g->r;
    int BK = g->B.rows;
    const char *dst = into ? into : fmt(e, "v%d", res);
    e->name[res] = dst;
    if (!into) {
        line(e, "float v%d[%d];", res, r->nE);
        pragma_unroll(e);
        line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, r->nE, SLOT);
        line(e, "    v%d[%s] = %s;", res, SLOT, init);
    }
    if (g->tiled) {
        pragma_unroll(e);
        line(e, "for (int dot_k = 0; dot_k < %d; ++dot_k) {", BK);
        e->indent++;
        line(e, "float mt_fa[%d], mt_fb[%d];", r->E[0], r->E[1]);
        dot_read_row(e, r, 0, &g->A, stage, "mt_fa");
        dot_read_row(e, r, 1, &g->B, stage, "mt_fb");
        pragma_unroll(e);
        line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, r->nE, SLOT);
        line(e, "    %s[%s] += mt_fa[%s / %d] * mt_fb[%s %% %d];", dst, SLOT,
             SLOT, r->E[1], SLOT, r->E[1]);
        e->indent--;
        line(e, "}");
    } else {
        StrBuf la, lb;
        sb_init(&la);
        sb_init(&lb);
        smem_element_text(&la, &g->A, stage,
                          coord_text(e, r, 0, slot_along(e, r, 0, SLOT)), "dot_k");
        smem_element_text(&lb, &g->B, stage, "dot_k",
                          coord_text(e, r, 1, slot_along(e, r, 1, SLOT)));
        pragma_unroll(e);
        line(e, "for (int dot_k = 0; dot_k < %d; ++dot_k) {", BK);
        pragma_unroll(e);
        line(e, "    for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, r->nE, SLOT);
        line(e, "        %s[%s] += dot_lhs[%s] * dot_rhs[%s];", dst, SLOT,
             sb_str(&la), sb_str(&lb));
        line(e, "}");
        sb_free(&la);
        sb_free(&lb);
    }
    e->dist[res] = *r;
    e->has_dist[res] = true;
}

/* A dot outside a pipelined loop: write, barrier, compute, and (single
 * stage) a barrier before the buffers can be written again. */
static int emit_dot(Emit *e, Op *op) {
    bool staged = op->plan->form == DOT_TWO_STAGE;
    DotGen g;
    dot_prepare(e, op, &g);
    const char *stage = staged ? "dot_stage" : "0";
    ValId acc = op->args[2];
    const char *init = acc ? elem_expr(e, acc, &g.r, op->loc) : "0.0f";
    dot_writes(e, &g, stage, NULL, NULL);
    line(e, "__syncthreads();");
    dot_compute(e, &g, stage, init, NULL);
    if (!staged)
        line(e, "__syncthreads();");
    return 0;
}

/* The body ops that compute the dot's operands (all but the dot and its
 * accumulate, as match_pipeline proved), in program order. */
static int emit_operand_ops(Emit *e, const Op *loop, const DotPlan *plan) {
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op == plan->dot || op == plan->add)
            continue;
        if (emit_op(e, op) < 0 || HAS_ERROR(e->c))
            return -1;
    }
    return 0;
}

/* The software-pipelined K loop (Version 18 stages, used as a real
 * double buffer):
 *
 *     if (0 < K) { operands of tile 0 -> stage 0 }
 *     __syncthreads();
 *     for (k_base = 0; k_base < K; k_base += BK) {
 *         dot_stage = (k_base / BK) & 1;
 *         if (more) operands of tile t + 1 -> registers (global loads)
 *         FMAs on stage dot_stage
 *         if (more) registers -> stage dot_stage ^ 1
 *         __syncthreads();
 *     }
 *
 * The global loads of the next tile are in flight during the FMAs.  One
 * barrier per iteration suffices: stage dot_stage ^ 1 was last read in
 * iteration t - 1, which ended with the barrier, and the barrier at the
 * end of t publishes it to t + 1 and ends t's reads of dot_stage before
 * t + 1 overwrites it.  `more` is the original loop's own condition for
 * t + 1, so tile t + 1's loads run exactly when the original program
 * runs them.  Emits the header and the body up to the barrier; the
 * caller adds the yields and closes the loop. */
static int emit_pipelined_loop(Emit *e, Op *loop, const DotPlan *plan) {
    Func *f = e->f;
    Op *dot = plan->dot;
    ValId a = dot->args[0], b = dot->args[1], acc = loop->iters[0];
    long long BK = val(f, loop->args[2])->c.i;
    const char *lo = vname(e, loop->args[0]), *hi = vname(e, loop->args[1]);
    line(e, "if (%s < %s) {", lo, hi);
    e->indent++;
    line(e, "const int k_base = %s;", lo);
    e->name[loop->index] = "k_base";
    if (emit_operand_ops(e, loop, plan) < 0)
        return -1;
    DotGen g;
    dot_prepare(e, dot, &g);
    dot_writes(e, &g, "0", NULL, NULL);
    e->indent--;
    line(e, "}");
    line(e, "__syncthreads();");
    line(e, "for (int k_base = %s; k_base < %s; k_base += %lld) {", lo, hi, BK);
    e->indent++;
    line(e, "int dot_stage = (k_base / %lld) & 1;", BK);
    line(e, "const bool mt_more = k_base + %lld < %s;", BK, hi);
    const char *ta = ctype_of(e, type_elem(val_type(f, a)));
    const char *tb = ctype_of(e, type_elem(val_type(f, b)));
    line(e, "%s mt_na[%d];", ta, e->dist[a].nE);
    line(e, "%s mt_nb[%d];", tb, e->dist[b].nE);
    line(e, "if (mt_more) {");
    e->indent++;
    line(e, "const int mt_k_next = k_base + %lld;", BK);
    e->name[loop->index] = "mt_k_next";
    if (emit_operand_ops(e, loop, plan) < 0)
        return -1;
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, e->dist[a].nE, SLOT);
    line(e, "    mt_na[%s] = %s[%s];", SLOT, e->name[a], SLOT);
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, e->dist[b].nE, SLOT);
    line(e, "    mt_nb[%s] = %s[%s];", SLOT, e->name[b], SLOT);
    e->indent--;
    line(e, "}");
    e->name[loop->index] = "k_base";
    mark_line(e, dot->loc);
    dot_prepare(e, dot, &g);
    e->pipelined = true;
    /* in place: acc, dot and sum share one layout, so the carried array
     * already has the dot's distribution */
    if (plan->in_place) {
        dot_compute(e, &g, "dot_stage", NULL, e->name[acc]);
        e->name[plan->next] = e->name[acc];
        e->dist[plan->next] = g.r;
        e->has_dist[plan->next] = true;
    } else {
        ValId in = dot->args[2];
        const char *init = in ? elem_expr(e, in, &g.r, dot->loc) : "0.0f";
        dot_compute(e, &g, "dot_stage", init, NULL);
        if (plan->add && emit_op(e, plan->add) < 0)
            return -1;
    }
    line(e, "if (mt_more) {");
    e->indent++;
    dot_writes(e, &g, "dot_stage ^ 1", "mt_na", "mt_nb");
    e->indent--;
    line(e, "}");
    line(e, "__syncthreads();");
    return HAS_ERROR(e->c) ? -1 : 0;
}

/* ---------------------------------------------------------------- for */

static void declare_copy(Emit *e, const char *ct, const char *dst,
                         const Dist *d, const char *src_expr, bool declare) {
    if (!d) {
        if (declare)
            line(e, "%s %s = %s;", ct, dst, src_expr);
        else
            line(e, "%s = %s;", dst, src_expr);
        return;
    }
    if (declare)
        line(e, "%s %s[%d];", ct, dst, d->nE);
    pragma_unroll(e);
    line(e, "for (int %s = 0; %s < %d; ++%s)", SLOT, SLOT, d->nE, SLOT);
    line(e, "    %s[%s] = %s;", dst, SLOT, src_expr);
}

static int emit_for(Emit *e, Op *op) {
    Func *f = e->f;
    const DotPlan *plan = op->plan;
    bool staged = plan != NULL, pipelined = plan && plan->form == DOT_PIPELINED;
    int n = op->nres;
    Dist *cd = arena_alloc(f->arena, sizeof(Dist) * (size_t)(n ? n : 1));
    for (int k = 0; k < n; k++) {
        ValId r = op->res[k];
        Type t = val_type(f, r);
        const char *ct = ctype_of(e, type_elem(t));
        const char *nm = fmt(e, "v%d", r);
        if (t.rank)
            cd[k] = dist_assigned(e, r);
        const char *init = elem_expr(e, op->args[3 + k], t.rank ? &cd[k] : NULL,
                                     op->loc);
        declare_copy(e, ct, nm, t.rank ? &cd[k] : NULL, init, true);
        e->name[r] = e->name[op->iters[k]] = nm;
        if (t.rank) {
            e->dist[r] = e->dist[op->iters[k]] = cd[k];
            e->has_dist[r] = e->has_dist[op->iters[k]] = true;
        }
    }
    const char *iv = staged ? "k_base" : fmt(e, "v%d", op->index);
    e->name[op->index] = iv;
    if (pipelined) {
        if (emit_pipelined_loop(e, op, plan) < 0)
            return -1;
    } else {
        line(e, "for (int %s = %s; %s < %s; %s += %s) {", iv,
             vname(e, op->args[0]), iv, vname(e, op->args[1]), iv,
             vname(e, op->args[2]));
        e->indent++;
        if (staged)
            line(e, "int dot_stage = (k_base / %lld) & 1;",
                 (long long)val(f, op->args[2])->c.i);
        if (emit_region(e, op->body) < 0)
            return -1;
    }
    /* yields: a parallel copy */
    const char **src = arena_alloc(f->arena, sizeof(char *) * (size_t)(n ? n : 1));
    bool clash = false;
    for (int k = 0; k < n; k++) {
        ValId y = op->yields[k];
        Type t = val_type(f, op->res[k]);
        src[k] = elem_expr(e, y, t.rank ? &cd[k] : NULL, op->loc);
        for (int j = 0; j < n; j++)
            if (j != k && y && e->name[y] && strcmp(e->name[y], e->name[op->res[j]]) == 0)
                clash = true;
    }
    for (int k = 0; k < n; k++) {
        ValId y = op->yields[k];
        if (y && e->name[y] && strcmp(e->name[y], e->name[op->res[k]]) == 0 &&
            val(f, y)->kind != VK_CONST)
            continue; /* yields itself */
        Type t = val_type(f, op->res[k]);
        const char *ct = ctype_of(e, type_elem(t));
        if (clash) {
            declare_copy(e, ct, fmt(e, "mt_y%d", op->res[k]),
                         t.rank ? &cd[k] : NULL, src[k], true);
            src[k] = t.rank ? fmt(e, "mt_y%d[%s]", op->res[k], SLOT)
                            : fmt(e, "mt_y%d", op->res[k]);
        }
    }
    for (int k = 0; k < n; k++) {
        ValId y = op->yields[k];
        if (y && e->name[y] && strcmp(e->name[y], e->name[op->res[k]]) == 0 &&
            val(f, y)->kind != VK_CONST)
            continue;
        Type t = val_type(f, op->res[k]);
        declare_copy(e, NULL, fmt(e, "v%d", op->res[k]), t.rank ? &cd[k] : NULL,
                     src[k], false);
    }
    e->indent--;
    line(e, "}");
    /* the last stage may still be read by slower threads (the pipelined
     * loop ends every iteration with its barrier) */
    if (staged && !pipelined)
        line(e, "__syncthreads();");
    return 0;
}

/* ---------------------------------------------------------------- driver */

static int emit_op(Emit *e, Op *op) {
    if (op->code == OP_CONVERT_LAYOUT)
        return 0; /* materialised where its one user reads it */
    mark_line(e, op->loc);
    switch (op->code) {
    case OP_FOR: return emit_for(e, op);
    case OP_STORE: return emit_store(e, op);
    case OP_SUM:
    case OP_MAX:
    case OP_MIN: return emit_reduce(e, op);
    case OP_DOT:
        if (!op->plan)
            return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                              "dot without a plan (plan_dots runs first)");
        return emit_dot(e, op);
    case OP_EXPAND_DIMS: return emit_expand_dims(e, op);
    default:
        if (!op->nres)
            return unsupported(e, op);
        return emit_elementwise(e, op);
    }
}

static int emit_region(Emit *e, Region *r) {
    for (int i = 0; i < r->nops; i++)
        if (emit_op(e, r->ops[i]) < 0 || HAS_ERROR(e->c))
            return -1;
    return 0;
}

/* Parameter names that would collide with C/CUDA words or our own names. */
static bool reserved_name(const char *s) {
    static const char *const words[] = {
        "int", "float", "double", "char", "long", "short", "unsigned",
        "signed", "void", "auto", "const", "static", "struct", "union",
        "enum", "switch", "case", "default", "do", "goto", "register",
        "sizeof", "typedef", "volatile", "extern", "inline", "restrict",
        "bool", "true", "false", "new", "delete", "this", "template",
        "typename", "class", "namespace", "operator", "private", "public",
        "protected", "virtual", "friend", "using", "throw", "catch",
        "explicit", "mutable", "export", "asm", "threadIdx", "blockIdx",
        "blockDim", "gridDim", "INFINITY", "NAN", "expf", "logf", "sqrtf",
        "fabsf", "fmaxf", "fminf", "floorf", "fmodf", "isnan", "isinf", "dot_k",
        "dot_stage", "k_base", "dot_lhs", "dot_rhs", "warpSize", "main",
        "for", "while", "if", "else", "return", "break", "continue"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(s, words[i]) == 0)
            return true;
    if (strncmp(s, "mt_", 3) == 0 || strncmp(s, "__", 2) == 0)
        return true;
    if (s[0] == 'v' && s[1]) {
        const char *p = s + 1;
        while (*p >= '0' && *p <= '9')
            p++;
        if (!*p)
            return true;
    }
    return false;
}

/* The lane, warp and base coordinates of every parameter set in use. */
static void emit_prologue(Emit *e, StrBuf *out) {
    for (int k = 0; k < e->nbases; k++) {
        const Layout *l = &e->bases[k];
        int fast = l->order[0];
        for (int p = 0; p < l->rank; p++) {
            bool is_fast = p == fast || l->rank == 1;
            const char *lv = prologue_var(e, 'l', k, p);
            const char *wv = prologue_var(e, 'w', k, p);
            if (is_fast) {
                sb_printf(out, "    int %s = mt_lane %% %d;\n", lv, l->tpw[p]);
                sb_printf(out, "    int %s = mt_warp %% %d;\n", wv, l->wpc[p]);
            } else {
                sb_printf(out, "    int %s = mt_lane / %d;\n", lv, l->tpw[fast]);
                sb_printf(out, "    int %s = mt_warp / %d;\n", wv, l->wpc[fast]);
            }
            sb_printf(out, "    int %s = (%s * %d + %s) * %d;\n",
                      prologue_var(e, 'b', k, p), wv, l->tpw[p], lv, l->spt[p]);
        }
    }
}

/* The declaration of a dot tile array, as large as its largest use. */
static void declare_tile(StrBuf *out, const SharedBuffer *b) {
    if (b->stage_count > 1)
        sb_printf(out, "    __shared__ __align__(16) float %s[%d * %lld];\n",
                  b->name, b->stage_count, (long long)smem_stage_size(b));
    else
        sb_printf(out, "    __shared__ __align__(16) float %s[%lld];\n",
                  b->name, (long long)smem_size(b));
}

int cuda_emit(Func *f, StrBuf *out) {
    Ctx *c = f->ctx;
    Emit e;
    memset(&e, 0, sizeof e);
    e.f = f;
    e.c = c;
    e.indent = 1;
    sb_init(&e.body);
    e.name = arena_alloc(f->arena, sizeof(char *) * (size_t)f->nvals);
    e.dist = arena_alloc(f->arena, sizeof(Dist) * (size_t)f->nvals);
    e.has_dist = arena_alloc(f->arena, sizeof(bool) * (size_t)f->nvals);
    if (!e.name || !e.dist || !e.has_dist) {
        sb_free(&e.body);
        return diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    }
    if (!f->axis || !f->smem) {
        sb_free(&e.body);
        return diag_error(c, (Loc){0, 0}, MT_ERR_INTERNAL,
                          "cuda_emit runs after the back-end passes");
    }
    for (int v = 1; v < f->nvals; v++) {
        Value *x = &f->vals[v];
        if (x->type.rank && x->layout < 0 &&
            (x->kind == VK_OP || x->kind == VK_LOOP_ARG)) {
            sb_free(&e.body);
            return diag_error(c, (Loc){0, 0}, MT_ERR_INTERNAL,
                              "block value %%%d has no layout", v);
        }
    }
    StrBuf sig;
    sb_init(&sig);
    for (int i = 0; i < f->nparams; i++) {
        ValId p = f->params[i];
        Value *x = val(f, p);
        const char *nm = reserved_name(x->name)
                             ? fmt(&e, "mt_p%d_%s", i, x->name)
                             : x->name;
        e.name[p] = nm;
        if (i)
            sb_puts(&sig, ", ");
        if (x->type.is_ptr)
            sb_printf(&sig, "%s* __restrict__ %s",
                      dtype_ctype((DType)x->type.dtype), nm);
        else
            sb_printf(&sig, "%s %s", dtype_ctype((DType)x->type.dtype), nm);
    }
    int rc = emit_region(&e, &f->body);
    if (rc == 0 && e.body.failed)
        rc = diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    if (rc < 0) {
        sb_free(&sig);
        sb_free(&e.body);
        return -1;
    }
    int threads = 32 * f->num_warps;
    if (e.pipelined && e.min_blocks > 1)
        sb_printf(out,
                  "extern \"C\" __global__ void __launch_bounds__(%d, %d) %s(%s) {\n",
                  threads, e.min_blocks, f->name, sb_str(&sig));
    else
        sb_printf(out,
                  "extern \"C\" __global__ void __launch_bounds__(%d) %s(%s) {\n",
                  threads, f->name, sb_str(&sig));
    const SmemPlan *sp = f->smem;
    if (sp->scratch_bytes)
        sb_printf(out, "    __shared__ long long mt_smem[%lld];\n",
                  (long long)(sp->scratch_bytes + 7) / 8);
    if (smem_size(&sp->lhs) > 0) {
        declare_tile(out, &sp->lhs);
        declare_tile(out, &sp->rhs);
    }
    if (e.nbases) {
        sb_puts(out, "    int mt_lane = (int)threadIdx.x & 31;\n");
        sb_puts(out, "    int mt_warp = (int)threadIdx.x >> 5;\n");
    }
    emit_prologue(&e, out);
    sb_puts(out, sb_str(&e.body));
    sb_puts(out, "}\n");
    sb_free(&sig);
    sb_free(&e.body);
    return 0;
}
