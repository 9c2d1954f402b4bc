/* smemplan.c: every shared-memory buffer of a kernel, planned before any
 * text is emitted.
 *
 * Input: a Func after layout assignment (its convert_layout ops) and dot
 * planning (each dot's tiles).  Output: f->smem, listing one SharedBuffer
 * per user of shared memory with its byte offset, the three arrays the
 * kernel declares, the total, and f->shared_bytes; or -1 with a located
 * MT_ERR_RESOURCE when the total exceeds MT_SMEM_MAX (checked here
 * only).  The emitter takes every shared address from these buffers
 * through smem_element_text.
 *
 * Users, in program order:
 *   - a CONVERT_SHARED convert_layout: a rank-2 value as [rows][columns]
 *     with a row padding that spreads the source's writes over the banks
 *     (convert_padding), others at their row-major index, [1][numel];
 *   - a reduction over warps (wpc > 1 along the axis): one partial per
 *     warp for each coordinate of the other dim, [rows][warps];
 *   - a dot: its A and B tiles (dotplan.c), Version 18 padding and stages;
 *   - a shape op (K_GATHER) that cuda_gather_free does not find free: the
 *     values it reads at their row-major indices, one after the other,
 *     [1][their total size] (cuda_gather_scratch).
 *   - an atomic whose used result goes to every thread (cuda_atomic.c):
 *     the old values at their row-major index, [1][numel].
 * Conversions and reductions share the scratch array mt_smem at offset 0:
 * each use ends with a barrier, so one use never overlaps the next and
 * the scratch is as large as the largest use.  Past the static budget,
 * or with a dot pipelined over three or more stages (one array), the
 * uses after the last top-level op holding a dot (the epilogue of a K
 * loop: its accumulator's conversion for a 16-byte store) also lie over
 * the dot tiles, dead by then, as Triton reuses its pipeline's buffers:
 * the tiles follow only the scratch of the earlier uses, and the emitter
 * puts a barrier after that op (tiles_dead_after).  All dots share
 * dot_lhs and dot_rhs likewise (each dot addresses them through its own
 * buffer);
 * they follow the scratch, which is rounded up to 8 bytes (it is declared
 * as long long).  While the total is over MT_SMEM_MAX, every dot pipelined
 * deeper than two stages (dotplan.c: Triton's num_stages) gives up one
 * and the plan is made again; past that the budget error names the op
 * whose buffer first pushed the running total over it. */
#include "mt.h"

#include <string.h>

/* Element type of a scratch buffer: a pointer is stored as its 8 bytes. */
static DType scratch_elem(Type t) {
    return t.is_ptr ? DT_I64 : (DType)t.dtype;
}

typedef struct Planner {
    Func *f;
    SmemPlan *p;
    int cap;
    Loc over_loc;
    bool over;
    bool after_dots;       /* planning a top-level op past the last dot */
    int64_t before_bytes;  /* the largest scratch use before that */
} Planner;

/* Bytes of a declared array; 0 while no buffer uses it. */
static int64_t array_bytes(const SharedBuffer *b) {
    int64_t n = smem_nbytes(b);
    return n > 0 ? n : 0;
}

static int64_t total_of(const SmemPlan *p) {
    return (p->scratch_bytes + 7) / 8 * 8 + array_bytes(&p->lhs) +
           array_bytes(&p->rhs);
}

static void add(Planner *pl, const Op *op, const SharedBuffer *b, int array) {
    SmemPlan *p = pl->p;
    SmemEntry en = {*b, op, array, 0, array == SMEM_SCRATCH && pl->after_dots};
    VEC_PUSH(pl->f->arena, p->bufs, p->nbufs, pl->cap, en);
    if (array == SMEM_SCRATCH && smem_nbytes(b) > p->scratch_bytes)
        p->scratch_bytes = smem_nbytes(b);
    if (array == SMEM_SCRATCH && !pl->after_dots && smem_nbytes(b) > pl->before_bytes)
        pl->before_bytes = smem_nbytes(b);
    SharedBuffer *decl = array == SMEM_DOT_LHS ? &p->lhs
                         : array == SMEM_DOT_RHS ? &p->rhs : NULL;
    if (decl && smem_nbytes(b) > smem_nbytes(decl))
        *decl = *b;
    if (decl && dtype_info[b->elem].bytes == 2)
        p->narrow_tiles = true;
    if (decl && b->elem == DT_F64)
        p->double_tiles = true;
    if (decl && b->elem == DT_I8)
        p->byte_tiles = true;
    if (decl && (b->elem == DT_F8E4 || b->elem == DT_F8E5))
        p->fp8_tiles = true;
    if (decl && b->swizzle) /* the swizzle reads address bits 7..9 */
        p->tile_align = 1024;
    if (!pl->over && total_of(p) > MT_SMEM_MAX) {
        pl->over = true;
        pl->over_loc = op->loc;
    }
}

/* The partials of a reduction across warps: rows = the size of x along
 * the other parent dim (1 when x has none), columns = warps along the
 * axis.  A scan, or a reduction of several operands (tlscan.c, `slots`):
 * those rows for each operand, one 8-byte slot each, so every operand
 * crosses the warps at once (cuda_scan.c). */
static void plan_reduce(Planner *pl, const Op *op, bool slots) {
    Func *f = pl->f;
    ValId x = op->args[0];
    Type t = val_type(f, x);
    const Layout *l = &f->layouts[val(f, x)->layout];
    int axis = (int)op->attr[0];
    int pa = l->rank == t.rank ? axis : (l->slice_dim == 0 ? 1 : 0);
    if (l->wpc[pa] <= 1)
        return;
    int32_t rows = 1;
    if (l->rank == 2 && t.rank == 2)
        rows = t.shape[1 - axis];
    SharedBuffer b = {"mt_smem", rows, l->wpc[pa],
                      scratch_elem(type_elem(t)), 0, 1, 0, 0};
    if (slots) {
        b.rows *= op->nargs;
        b.elem = DT_I64;
    }
    add(pl, op, &b, SMEM_SCRATCH);
}

/* A shape op (cuda_shape.c) that is not free: the values it reads side by
 * side at their row-major indices, [1][the sum of their sizes]. */
static void plan_gather(Planner *pl, const Op *op) {
    int64_t n = cuda_gather_scratch(pl->f, op);
    if (!n)
        return;
    Type t = val_type(pl->f, op->res[0]);
    SharedBuffer b = {"mt_smem", 1, (int32_t)n, scratch_elem(type_elem(t)), 0, 1, 0, 0};
    add(pl, op, &b, SMEM_SCRATCH);
}

/* Row padding (elements) of a rank-2 conversion's scratch: the rows one
 * warp of the source layout writes at once start `footprint` bytes apart
 * modulo 128 (the 32 banks), footprint being what the warp's lanes along
 * dim 1 write of one row, so those rows fall on distinct banks (an
 * accumulator's 8 x 8-byte pieces per row: 32 bytes, rows padded to 32
 * modulo 128).  Rows stay 16-byte aligned for the vector reads; 0 when
 * one row already takes all banks.  A source held down the columns (a
 * trans's result, order [0, 1]) writes element by element down a column:
 * rows an odd number of words apart put those on distinct banks (a warp's
 * 16 rows 4 apart on 8 banks, the reads 2 to a bank); the reads are then
 * element by element too. */
static int convert_padding(const Layout *src, Type t) {
    int es = dtype_info[scratch_elem(t)].bytes;
    if (src->rank != 2 || t.rank != 2 || src->slice_dim >= 0)
        return 0;
    if (src->order[0] == 0) /* a trans's result: element writes down the
                               columns, rows an odd number of words apart */
        return (int)(t.shape[1] * es / 4) % 2 || es > 4 ? 0 : 4 / es;
    int run = src->spt[1] * es > 16 ? 16 : src->spt[1] * es;
    int footprint = src->tpw[1] * run;
    int row = (int)(t.shape[1] * es % 128);
    if (footprint >= 128 || footprint % 16)
        return 0;
    int pad = ((footprint - row) % 128 + 128) % 128;
    return pad % es ? 0 : pad / es;
}

/* A conversion through shared memory: a rank-2 value as [rows][columns]
 * with the padding above; others at their row-major index, [1][numel]. */
static void plan_convert(Planner *pl, const Op *op) {
    Func *f = pl->f;
    Type t = val_type(f, op->args[0]);
    SharedBuffer b = {"mt_smem", 1, (int32_t)type_numel(t), scratch_elem(t), 0, 1, 0, 0};
    if (t.rank == 2) {
        b.rows = t.shape[0];
        b.columns = t.shape[1];
        b.row_padding = convert_padding(&f->layouts[val(f, op->args[0])->layout], t);
    }
    add(pl, op, &b, SMEM_SCRATCH);
}

static void plan_region(Planner *pl, const Region *r) {
    Func *f = pl->f;
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        switch (op->code) {
        case OP_FOR:
        case OP_IF:
        case OP_WHILE: {
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                plan_region(pl, rs[k]);
            break;
        }
        case OP_CONVERT_LAYOUT:
            if (op->attr[0] == CONVERT_SHARED)
                plan_convert(pl, op);
            break;
        case OP_ATOMIC_ADD: case OP_ATOMIC_MAX: case OP_ATOMIC_MIN: case OP_ATOMIC_AND:
        case OP_ATOMIC_OR: case OP_ATOMIC_XOR: case OP_ATOMIC_XCHG: case OP_ATOMIC_CAS:
            if (atomic_result_shared(f, op)) { /* the old values, row-major */
                Type t = val_type(f, op->res[0]);
                SharedBuffer b = {"mt_smem", 1, (int32_t)type_numel(t), (DType)t.dtype, 0, 1, 0, 0};
                add(pl, op, &b, SMEM_SCRATCH);
            }
            break;
        case OP_DOT:
            add(pl, op, &op->plan->A, SMEM_DOT_LHS);
            add(pl, op, &op->plan->B, SMEM_DOT_RHS);
            break;
        default:
            if (op_info[op->code].kind == K_GATHER)
                plan_gather(pl, op);
            if (op_info[op->code].kind == K_REDUCE || op_info[op->code].kind == K_SCAN)
                plan_reduce(pl, op, op->nres != 1 || op->body ||
                                    op_info[op->code].kind == K_SCAN);
            break;
        }
    }
}

/* One stage fewer for every dot pipelined deeper than the double buffer
 * (dotplan.c asks for Triton's num_stages); false when none is. */
static bool fewer_stages(Region *r) {
    bool any = false;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == OP_DOT && op->plan->A.stage_count > 2) {
            op->plan->A.stage_count--;
            op->plan->B.stage_count--;
            any = true;
        }
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            any |= fewer_stages(rs[k]);
    }
    return any;
}

static int plan_once(Func *f, Loc *over_loc);

/* Whether a dot is pipelined over three or more stages (Triton's
 * num_stages; the Version 18 paths, whose text is a contract, have one or
 * two): such a kernel's epilogue scratch lies over its dead tiles even
 * within the static budget, as Triton's does (tutorial 03's 32 x 64 f16
 * tile on 2 warps at 5 stages: 35.8 KB, not 40.4).  Measured on an H100,
 * the extra block per SM that buys there did not change its speed; the
 * bytes are the point, for kernels that shared memory limits. */
static bool deep_pipeline(const SmemPlan *p) {
    for (int i = 0; i < p->nbufs; i++)
        if (p->bufs[i].array != SMEM_SCRATCH && p->bufs[i].buf.stage_count >= 3)
            return true;
    return false;
}

static bool is_dot(const Op *op) { return op->code == OP_DOT; }

/* Deep dot pipelines give up stages until everything fits. */
int smem_plan(Func *f) {
    Loc over;
    do {
        if (plan_once(f, &over) < 0)
            return -1;
    } while (f->smem->total > MT_SMEM_MAX && fewer_stages(&f->body));
    if (f->smem->total > MT_SMEM_MAX)
        return diag_error(f->ctx, over, MT_ERR_RESOURCE,
                          "kernel needs %lld bytes of shared memory, more than "
                          "the %d bytes a program can have (sm_90)",
                          (long long)f->smem->total, MT_SMEM_MAX);
    return 0;
}

static int plan_once(Func *f, Loc *over_loc) {
    SmemPlan *p = arena_alloc(f->arena, sizeof *p);
    if (!p)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    p->tile_align = 16;
    p->lhs = (SharedBuffer){"dot_lhs", 0, 0, DT_F32, 0, 1, 0, 0};
    p->rhs = (SharedBuffer){"dot_rhs", 0, 0, DT_F32, 0, 1, 0, 0};
    Planner pl = {f, p, 0, {0, 0}, false, false, 0};
    int last_dot = -1;
    for (int i = 0; i < f->body.nops; i++)
        if (op_holds(f->body.ops[i], is_dot))
            last_dot = i;
    for (int i = 0; i < f->body.nops; i++) {
        pl.after_dots = last_dot >= 0 && i > last_dot;
        Region one = f->body;
        one.ops = &f->body.ops[i];
        one.nops = 1;
        plan_region(&pl, &one);
    }
    /* a tile array holds every dot's buffers: f32 words enough for the
     * largest in bytes (16-bit tiles alias it, see cuda.c) */
    SharedBuffer *decl[2] = {&p->lhs, &p->rhs};
    for (int i = 0; i < 2; i++)
        if (decl[i]->elem != DT_F32)
            *decl[i] = (SharedBuffer){i ? "dot_rhs" : "dot_lhs", 1,
                                      (int32_t)((smem_nbytes(decl[i]) + 3) / 4), DT_F32, 0, 1, 0, 0};
    int64_t scratch = (p->scratch_bytes + 7) / 8 * 8;
    int64_t lhs = array_bytes(&p->lhs), rhs = array_bytes(&p->rhs);
    int64_t below = scratch; /* the scratch the tiles follow */
    p->tiles_dead_after = -1;
    /* the epilogue's scratch is larger than what the tiles must follow */
    bool overlap = lhs + rhs > 0 && pl.before_bytes < p->scratch_bytes;
    p->one_array = scratch + lhs + rhs > MT_SMEM_BUDGET || (deep_pipeline(p) && overlap);
    if (p->one_array) {
        /* one array (cuda.c; dynamic past the budget): the tiles start
         * 16-byte aligned, as the separate arrays do (vector and cp.async
         * accesses) */
        int64_t al = p->tile_align;
        if (overlap) {
            below = pl.before_bytes;
            p->tiles_dead_after = last_dot;
        }
        below = (below + 7) / 8 * 8;
        below = (below + al - 1) / al * al;
        lhs = (lhs + al - 1) / al * al;
    }
    p->offset[SMEM_SCRATCH] = 0;
    p->offset[SMEM_DOT_LHS] = below;
    p->offset[SMEM_DOT_RHS] = below + lhs;
    p->total = below + lhs + rhs > scratch ? below + lhs + rhs : scratch;
    for (int i = 0; i < p->nbufs; i++) {
        p->bufs[i].offset = p->offset[p->bufs[i].array];
        p->bufs[i].after_dots &= p->tiles_dead_after >= 0;
    }
    f->smem = p;
    f->shared_bytes = p->total;
    *over_loc = pl.over_loc;
    return 0;
}

const SharedBuffer *smem_buffer_of(const SmemPlan *p, const Op *op, int array) {
    for (int i = 0; p && i < p->nbufs; i++)
        if (p->bufs[i].op == op && p->bufs[i].array == array)
            return &p->bufs[i].buf;
    return NULL;
}

static const char *const array_names[] = {"mt_smem", "dot_lhs", "dot_rhs"};

void smem_plan_print(StrBuf *sb, const SmemPlan *p) {
    if (p->total > MT_SMEM_BUDGET)
        sb_printf(sb, "shared %lld bytes (dynamic, past the %d-byte static budget)",
                  (long long)p->total, MT_SMEM_BUDGET);
    else
        sb_printf(sb, "shared %lld bytes (budget %d)", (long long)p->total,
                  MT_SMEM_BUDGET);
    for (int i = 0; i < p->nbufs; i++) {
        const SmemEntry *en = &p->bufs[i];
        const SharedBuffer *b = &en->buf;
        sb_printf(sb, "\n  %s +%lld: %s [%d x %d] %s", array_names[en->array],
                  (long long)en->offset, op_info[en->op->code].name,
                  (int)b->rows, (int)b->columns, dtype_name(b->elem));
        if (b->row_padding)
            sb_printf(sb, " pad %d", b->row_padding);
        if (b->stage_count > 1)
            sb_printf(sb, " stages %d", b->stage_count);
        sb_printf(sb, " = %lld bytes", (long long)smem_nbytes(b));
        if (en->after_dots)
            sb_puts(sb, " (over the dead dot tiles)");
    }
}
