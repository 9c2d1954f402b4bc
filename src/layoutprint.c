/* layoutprint.c: the annotated IR after the back-end passes
 * (--emit ssa-layout, MT_STAGE_SSA_LAYOUT).
 *
 * Input: a Func after layout_assign, axis_analyze, plan_dots and
 * smem_plan.  Output: the IR as ir_print writes it (convert_layout ops
 * included), then what the passes decided, in sections keyed by the same
 * %N numbering:
 *
 *   layouts:      #i kind and parameters of every interned layout
 *   values:       %N: #layout, axis facts for integer and pointer values
 *                 (a conversion's method is its op's {via=...} attribute)
 *   dots:         %N: form, register tile, in place, occupancy
 *   shared:       smem_plan's buffers, offsets and total
 *
 * The numbering must match irprint.c's: definition order, a for op's
 * index, then its carried arguments, then its body, then its results. */
#include "mt.h"

typedef struct Numbering {
    Func *f;
    int *num; /* ValId -> printed number, -1 none */
    int next;
} Numbering;

static void number(Numbering *n, ValId v) {
    if (v > 0 && v < n->f->nvals && n->num[v] < 0)
        n->num[v] = n->next++;
}

static void number_region(Numbering *n, const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        if (op->code == OP_FOR)
            number(n, op->index);
        for (int k = 0; k < op_niters(op) && op->iters; k++)
            number(n, op->iters[k]);
        Region *rs[2];
        for (int k = 0, nr = op_regions(op, rs); k < nr; k++)
            number_region(n, rs[k]);
        for (int k = 0; k < op->nres; k++)
            number(n, op->res[k]);
    }
}

static void print_dims(StrBuf *sb, const char *name, const int32_t *d, int rank) {
    sb_printf(sb, " %s=[", name);
    for (int i = 0; i < rank; i++)
        sb_printf(sb, i ? ", %d" : "%d", (int)d[i]);
    sb_putc(sb, ']');
}

void layout_print(StrBuf *sb, const Layout *l) {
    sb_puts(sb, l->kind == LAYOUT_DOT_TILE ? "dot-tile"
                : l->kind == LAYOUT_MMA    ? "mma"
                                           : "blocked");
    print_dims(sb, "shape", l->shape, l->rank);
    print_dims(sb, "spt", l->spt, l->rank);
    print_dims(sb, "tpw", l->tpw, l->rank);
    print_dims(sb, "wpc", l->wpc, l->rank);
    print_dims(sb, "order", l->order, l->rank);
    if (l->slice_dim >= 0)
        sb_printf(sb, " slice=%d", l->slice_dim);
}

static void print_values(StrBuf *sb, Func *f, const Numbering *n) {
    /* in printed order: invert the numbering */
    ValId *by = arena_alloc(f->arena, sizeof *by * ((size_t)n->next + 1));
    if (!by) {
        sb->failed = true;
        return;
    }
    for (ValId v = 1; v < f->nvals; v++)
        if (n->num[v] >= 0)
            by[n->num[v]] = v;
    sb_puts(sb, "\nvalues:");
    for (int i = 0; i < n->next; i++) {
        ValId v = by[i];
        Value *x = val(f, v);
        bool facts = x->type.is_ptr || type_is_int(x->type);
        if (x->layout < 0 && !facts)
            continue;
        sb_printf(sb, "\n  %%%d:", i);
        if (x->layout >= 0)
            sb_printf(sb, " #%d", x->layout);
        if (facts && f->axis) {
            sb_putc(sb, ' ');
            axis_print(sb, &f->axis[v]);
        }
    }
}

static void print_dots(StrBuf *sb, Func *f, const Numbering *n,
                       const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        Region *rs[2];
        for (int k = 0, nr = op_regions(op, rs); k < nr; k++)
            print_dots(sb, f, n, rs[k]);
        const DotPlan *p = op->plan;
        if (op->code != OP_DOT || !p)
            continue;
        sb_printf(sb, "\n  %%%d: %s", n->num[op->res[0]], dot_form_name(p->form));
        if (p->loop)
            sb_printf(sb, " loop %%%d", n->num[p->loop->index]);
        if (p->tiled)
            sb_printf(sb, " tiled%s min-blocks=%d", p->a_as_loaded ? " a-as-loaded" : "",
                      p->min_blocks);
        if (p->unit != DOT_FMA)
            sb_printf(sb, " %s", dot_unit_name(p->unit));
        if (p->in_place)
            sb_puts(sb, " in-place");
    }
}

void layout_ir_print(StrBuf *sb, Func *f) {
    Numbering n = {f, arena_alloc(f->arena, sizeof(int) * (size_t)f->nvals), 0};
    if (!n.num) {
        sb->failed = true;
        return;
    }
    for (int i = 0; i < f->nvals; i++)
        n.num[i] = -1;
    number_region(&n, &f->body);
    ir_print(sb, f);
    sb_puts(sb, "\nlayouts:");
    for (int i = 0; i < f->nlayouts; i++) {
        sb_printf(sb, "\n  #%d ", i);
        layout_print(sb, &f->layouts[i]);
    }
    print_values(sb, f, &n);
    sb_puts(sb, "\ndots:");
    print_dots(sb, f, &n, &f->body);
    if (f->smem) {
        sb_puts(sb, "\n");
        smem_plan_print(sb, f->smem);
    }
}
