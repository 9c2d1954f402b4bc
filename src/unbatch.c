/* unbatch.c: blocks of rank 3 as slices of rank 2, for the CUDA lowering.
 *
 * Input: a verified Func after the SSA optimisations.  Output: the same
 * Func where every value of rank 3, [B, M, N], is replaced by its B
 * slices [M, N] (one slice when B is 1: a broadcast dim), each op on such
 * values by one op per slice, so layouts, dot plans and the emitter see
 * blocks of rank 2 only: a batched tl.dot becomes B dots (each on tensor
 * cores when its slices fit), a load of [B, M, N] pointers B loads.
 *
 * What is sliced: elementwise and memory ops (implicit broadcasts keep
 * working slice by slice: an operand of rank < 3 broadcasts from the
 * left, so it is every slice's operand), zeros/full/empty, dot,
 * expand_dims of a rank-2 value into rank 3; reductions along dim 1 or 2,
 * sum/max/min/xor_sum and tl.reduce (its combine region copied), one per
 * slice, each slice's result one row of the rank-2 result, assembled by
 * cat and reshape where something else reads it; sum/max/min/xor_sum
 * along dim 0 as the elementwise fold of the slices, tl.reduce (argmax,
 * argmin, a user's combine) along dim 0 as the fold of the slices through
 * copies of its combine region; scans along dim 1
 * or 2 one per slice (tl.associative_scan's region copied), cumsum and
 * cumprod along dim 0 the running add or multiply of the slices.
 * expand_dims at dims 1 and 2 needs row b of its rank-2 operand: taken
 * through the operand's own ops (row b of x + y is row b of x + row b of
 * y; of expand_dims(y, 1), y's element b; of an arange, a constant; of a
 * load, a load of row b of its pointers where nothing since has written
 * memory).  A for loop carrying rank-3 values (a batched dot's
 * accumulator) becomes a for loop carrying their slices, over the same
 * body sliced.
 *
 * Shape ops (reshape, join, ...) are left whole: the values of rank 3
 * or more they make and read between themselves are cuda_shape.c's
 * (interleave is a join and a reshape).  One reading a sliced value reads
 * it joined again (join_slices); a sliced op reading one of theirs reads
 * it split (split_whole), through shape ops of rank 1 to 3.  That also
 * takes a dot, or an elementwise or memory op, of any rank R > 3 (test_core's
 * dots of reshaped rank-R blocks): its operands and result as the
 * product of the leading R - 2 dims slices, each operand of rank 3 or
 * more reading the slice its leading dims give (right-aligned, a dim of
 * one at slice 0: broadcasts); sum/max/min/xor_sum of rank R along any
 * dim (slice_reduce); expand_dims into rank 4 or more as a whole reshape
 * (expand_whole), so that x[:, None, None, None] offsets work.
 *
 * Invariants: all or nothing.  The new op lists of every region are
 * built aside and swapped in only when the whole function was sliced;
 * anything else of rank 3 or more (tl.reduce and scans of rank 4 and up, a tl.associative_scan along the batch dim, values a
 * while loop or an if carries, more than MAX_SLICES slices) leaves the
 * Func untouched, and layout.c's located error stands.  The results are the same values
 * computed by other ops: each slice op is the original op on the slice's
 * elements. */
#include "mt.h"

#include <string.h>

#define MAX_SLICES 64

typedef struct OpList {
    Op **ops;
    int n, cap;
    int id; /* which walk of a region builds it (Unbatch.nwalks) */
} OpList;

typedef struct Swap {
    Region *r;
    OpList list;
} Swap;

typedef struct Unbatch {
    Func *f;
    int nvals;       /* values of the Func before the pass (the tables' size) */
    ValId **slices;  /* a rank-3 value's slices (B, or 1 for a broadcast dim) */
    ValId **rows;    /* a rank-2 value's rows as rank-1 values, made on demand */
    ValId *repl;     /* a sliced reduction's result assembled as rank 2 */
    ValId *clone;    /* a tl.reduce combine's values in the copy being made */
    int *split_in;   /* a whole value's slices: the OpList.id that made them */
    const Op *failed; /* the first op not sliced (Func.unsliced) */
    Swap *swaps;
    int nswaps, capswaps;
    int nwalks;
} Unbatch;

static int rank_of(Func *f, ValId v) { return v ? val_type(f, v).rank : 0; }

/* How many [M, N] slices a block of rank 3 or more holds: the product of
 * its dims before the last two. */
static int64_t lead_count(Type t) {
    int64_t n = 1;
    for (int i = 0; i + 2 < t.rank; i++)
        n *= t.shape[i];
    return n;
}

/* One slice of t: its last two dims. */
static Type last_two(Type t) {
    return type_block(type_elem(t), 2, t.shape + t.rank - 2);
}

/* t without its first dim. */
static Type drop_first(Type t) {
    Type r = t;
    r.rank = t.rank - 1;
    memmove(r.shape, t.shape + 1, sizeof(t.shape[0]) * (size_t)r.rank);
    return r;
}

/* An op like `like` (its attributes and strings) on args, typed t, at the
 * end of out; its result (0 for none). */
static ValId emit(Unbatch *u, OpList *out, const Op *like, OpCode code, Type t,
                  const ValId *args, int n) {
    Func *f = u->f;
    Op *op = op_new(f, NULL, code, like->loc, t, args, n);
    if (like->code == code) {
        op->attr[0] = like->attr[0];
        op->attr[1] = like->attr[1];
        op->str[0] = like->str[0];
        op->str[1] = like->str[1];
    }
    VEC_PUSH(f->arena, out->ops, out->n, out->cap, op);
    return op->nres ? op->res[0] : 0;
}

static bool set_slices(Unbatch *u, ValId v, const ValId *s, int n);

static ValId replaced(Unbatch *u, ValId v) {
    return v && v < u->nvals && u->repl[v] ? u->repl[v] : v;
}

/* A shape op (reshape, trans, join, split half `index`) at the end of
 * out. */
static ValId shape_op(Unbatch *u, OpList *out, Loc loc, OpCode code, Type t, ValId *args, int n,
                      int64_t index) {
    Op like = {.code = code, .loc = loc};
    like.attr[0] = index;
    return emit(u, out, &like, code, t, args, n);
}

/* The slices of whole value x (a shape op's result, rank 3 or more: its
 * ops keep it whole) through shape ops at the end of out: x as [B, M N],
 * transposed to [M N, B], the last dim halved by splits (reshaped to
 * [M N, c / 2, 2], split half s holds the slices whose next bit is s)
 * down to single slices, each reshaped to [M, N]. */
static bool split_whole(Unbatch *u, OpList *out, ValId x) {
    Func *f = u->f;
    Type t = val_type(f, x), elem = type_elem(t);
    Loc loc = val(f, x)->def ? val(f, x)->def->loc : (Loc){0, 0};
    int64_t nb = lead_count(t);
    int32_t m = t.shape[t.rank - 2], n = t.shape[t.rank - 1];
    if (nb < 1 || nb > MAX_SLICES || (nb & (nb - 1)) != 0)
        return false;
    ValId items[MAX_SLICES], next[MAX_SLICES];
    items[0] = replaced(u, x);
    int32_t flat[3] = {(int32_t)nb, m * n, 0};
    if (nb > 1) {
        items[0] = shape_op(u, out, loc, OP_RESHAPE, type_block(elem, 2, flat), items, 1, 0);
        flat[0] = m * n;
        flat[1] = (int32_t)nb;
        items[0] = shape_op(u, out, loc, OP_TRANS, type_block(elem, 2, flat), items, 1, 0);
    }
    for (int32_t c = (int32_t)nb, have = 1; c > 1; c /= 2, have *= 2) {
        for (int p = 0; p < have; p++) {
            ValId src = items[p];
            int32_t half[3] = {m * n, c / 2, 2};
            if (c > 2)
                src = shape_op(u, out, loc, OP_RESHAPE, type_block(elem, 3, half), &src, 1, 0);
            for (int h = 0; h < 2; h++)
                next[p + h * have] = shape_op(u, out, loc, OP_SPLIT,
                                              type_block(elem, c > 2 ? 2 : 1, half), &src, 1, h);
        }
        memcpy(items, next, sizeof(ValId) * (size_t)have * 2);
    }
    for (int b = 0; b < nb; b++)
        items[b] = shape_op(u, out, loc, OP_RESHAPE, last_two(t), &items[b], 1, 0);
    if (!set_slices(u, x, items, (int)nb))
        return false;
    u->split_in[x] = out->id;
    return true;
}

/* Operand x of a rank-3 op as slice b sees it; 0 when x has no slices.
 * A whole value is split into slices where it is first read in out's
 * region (and again in another region, which the first may not
 * dominate); without out (a loop's yields) it is not. */
static ValId slice_of(Unbatch *u, OpList *out, ValId x, int b) {
    if (rank_of(u->f, x) < 3)
        return replaced(u, x);
    if (x >= u->nvals)
        return 0;
    bool whole = !u->slices[x] || u->split_in[x];
    if (whole && (!u->slices[x] || u->split_in[x] != (out ? out->id : 0)) &&
        (!out || !split_whole(u, out, x)))
        return 0;
    return lead_count(val_type(u->f, x)) == 1 ? u->slices[x][0] : u->slices[x][b];
}

/* Sliced value x whole again, for a shape op that reads it: each slice
 * flattened to [M N], joined pairwise (slice i with slice i + B/2, then
 * on) and flattened again, so that b's bits follow each element from the
 * highest; the last join reshaped to [M N, B], transposed and reshaped to
 * x's type.  (Joins of rank 1 only: the layouts give two-operand shape ops
 * operands of rank 2 at most.) */
static ValId join_slices(Unbatch *u, OpList *out, Loc loc, ValId x) {
    Func *f = u->f;
    Type t = val_type(f, x), elem = type_elem(t);
    int64_t nb = lead_count(t);
    int32_t mn = t.shape[t.rank - 2] * t.shape[t.rank - 1];
    if (nb < 1 || nb > MAX_SLICES || (nb & (nb - 1)) != 0)
        return 0;
    ValId items[MAX_SLICES];
    int32_t len = mn;
    for (int b = 0; b < nb; b++)
        items[b] = shape_op(u, out, loc, OP_RESHAPE, type_block(elem, 1, &len), &u->slices[x][b],
                            1, 0);
    for (int64_t half = nb / 2; half >= 1; half /= 2, len *= 2) {
        int32_t pairs[2] = {len, 2}, flat = len * 2;
        for (int i = 0; i < half; i++) {
            ValId pair[2] = {items[i], items[i + half]};
            items[i] = shape_op(u, out, loc, OP_JOIN, type_block(elem, 2, pairs), pair, 2, 0);
            if (half > 1)
                items[i] = shape_op(u, out, loc, OP_RESHAPE, type_block(elem, 1, &flat),
                                    &items[i], 1, 0);
        }
    }
    ValId r = items[0];
    if (nb > 1) {
        int32_t two[2] = {mn, (int32_t)nb};
        if (nb > 2)
            r = shape_op(u, out, loc, OP_RESHAPE, type_block(elem, 2, two), &r, 1, 0);
        two[0] = (int32_t)nb;
        two[1] = mn;
        r = shape_op(u, out, loc, OP_TRANS, type_block(elem, 2, two), &r, 1, 0);
    }
    return shape_op(u, out, loc, OP_RESHAPE, t, &r, 1, 0);
}

/* Whether v was sliced by an op of its own (not split off a whole value). */
static bool is_sliced(const Unbatch *u, ValId v) {
    return v && v < u->nvals && u->slices[v] && !u->split_in[v];
}

/* v whole, for an op that reads it so: its slices joined, or itself. */
static ValId whole_of(Unbatch *u, OpList *out, Loc loc, ValId v) {
    return is_sliced(u, v) ? join_slices(u, out, loc, v) : replaced(u, v);
}

static bool is_sliceable(int code) {
    int k = op_info[code].kind;
    return k == K_ELEMENTWISE || k == K_MEMORY ||
           code == OP_ZEROS || code == OP_FULL || code == OP_EMPTY;
}

/* Ops a row or an element may be computed again from: pure ones.  A load
 * read again later could see a store in between; an atomic would act
 * twice. */
static bool recomputable(const Op *d) {
    return d->nres == 1 && d->nargs <= 8 && (op_info[d->code].flags & F_PURE) &&
           (op_info[d->code].kind == K_ELEMENTWISE || d->code == OP_ZEROS ||
            d->code == OP_FULL);
}

/* Element b of rank-1 y as a block [1]; 0 when y's ops do not say. */
static ValId element_of(Unbatch *u, OpList *out, ValId y, int b) {
    Func *f = u->f;
    Type t = val_type(f, y);
    if (t.rank == 0 || t.shape[0] == 1)
        return y;
    Value *v = val(f, y);
    if (y >= u->nvals || v->kind != VK_OP || !v->def)
        return 0;
    Op *d = v->def;
    Type one = t;
    one.shape[0] = 1;
    if (d->code == OP_ARANGE) {
        ValId c = const_int(f, (DType)t.dtype, d->attr[0] + b);
        return emit(u, out, d, OP_FULL, one, &c, 1);
    }
    if (!recomputable(d))
        return 0;
    ValId args[8];
    for (int i = 0; i < d->nargs; i++)
        if (!(args[i] = d->args[i] ? element_of(u, out, d->args[i], b) : 0) && d->args[i])
            return 0;
    return emit(u, out, d, (OpCode)d->code, one, args, d->nargs);
}

/* Whether load d is in out with nothing after it that writes memory or
 * waits (a store, an atomic, a barrier, a debug op, a region): a load of
 * one of its rows issued now reads what d read. */
static bool reload_ok(const OpList *out, const Op *d) {
    for (int i = out->n - 1; i >= 0; i--) {
        if (out->ops[i] == d)
            return true;
        if (op_info[out->ops[i]->code].flags & (F_EFFECT | F_REGION))
            return false;
    }
    return false;
}

/* Row b of rank-2 x as a rank-1 block; 0 when x's ops do not say. */
static ValId row_of(Unbatch *u, OpList *out, ValId x, int b) {
    Func *f = u->f;
    Type t = val_type(f, x);
    if (x >= u->nvals)
        return 0;
    if (!u->rows[x]) {
        u->rows[x] = arena_alloc(f->arena, sizeof(ValId) * (size_t)t.shape[0]);
        if (!u->rows[x])
            return 0;
        memset(u->rows[x], 0, sizeof(ValId) * (size_t)t.shape[0]);
    }
    if (u->rows[x][b])
        return u->rows[x][b];
    Value *v = val(f, x);
    Op *d = v->kind == VK_OP ? v->def : NULL;
    Type rt = drop_first(t);
    ValId r = 0;
    if (d && d->code == OP_EXPAND_DIMS && d->attr[0] == 0) {
        r = d->args[0];
    } else if (d && d->code == OP_EXPAND_DIMS && d->attr[0] == 1) {
        r = element_of(u, out, d->args[0], b);
    } else if (d && (recomputable(d) || (d->code == OP_LOAD && reload_ok(out, d)))) {
        ValId args[8];
        for (int i = 0; i < d->nargs; i++) {
            ValId a = replaced(u, d->args[i]);
            args[i] = rank_of(f, a) < 2 ? a
                      : row_of(u, out, d->args[i], val_type(f, a).shape[0] == 1 ? 0 : b);
            if (a && !args[i])
                return 0;
        }
        r = emit(u, out, d, (OpCode)d->code, rt, args, d->nargs);
    } else if (t.shape[0] == 1) {
        r = emit(u, out, &(Op){.code = OP_RESHAPE, .loc = d ? d->loc : (Loc){0, 0}},
                 OP_RESHAPE, rt, &x, 1);
    }
    u->rows[x][b] = r;
    return r;
}

/* Whether n rows can be stacked: a power of two (cat pairs them), at most
 * MAX_SLICES. */
static bool stackable(int n) { return n >= 1 && n <= MAX_SLICES && (n & (n - 1)) == 0; }

/* Rows r[0..n) of one rank-1 shape stacked as a rank-2 value: a tree of
 * cats, then a reshape (n stackable). */
static ValId stack_rows(Unbatch *u, OpList *out, const Op *at, const ValId *r, int n) {
    Func *f = u->f;
    Type t = val_type(f, r[0]);
    ValId level[MAX_SLICES];
    memcpy(level, r, sizeof(ValId) * (size_t)n);
    Op like = {.code = OP_CAT, .loc = at->loc};
    for (int m = n; m > 1; m /= 2)
        for (int i = 0; i < m / 2; i++) {
            ValId pair[2] = {level[2 * i], level[2 * i + 1]};
            Type c = val_type(f, pair[0]);
            c.shape[0] *= 2;
            level[i] = emit(u, out, &like, OP_CAT, c, pair, 2);
        }
    int32_t shape[2] = {n, t.shape[0]};
    Type st = type_block(type_elem(t), 2, shape);
    like.code = OP_RESHAPE;
    return emit(u, out, &like, OP_RESHAPE, st, level, 1);
}

static bool touches_rank3(Func *f, const Op *op) {
    for (int i = 0; i < op->nres; i++)
        if (rank_of(f, op->res[i]) >= 3)
            return true;
    for (int i = 0; i < op->nargs; i++)
        if (rank_of(f, op->args[i]) >= 3)
            return true;
    int n = op_niters(op);
    for (int i = 0; i < n; i++)
        if (rank_of(f, op->iters[i]) >= 3)
            return true;
    for (int i = 0; op->yields && i < op->nres; i++)
        if (rank_of(f, op->yields[i]) >= 3 || (op->alt_yields && rank_of(f, op->alt_yields[i]) >= 3))
            return true;
    return false;
}

static bool set_slices(Unbatch *u, ValId v, const ValId *s, int n) {
    u->slices[v] = arena_alloc(u->f->arena, sizeof(ValId) * (size_t)n);
    if (!u->slices[v])
        return false;
    memcpy(u->slices[v], s, sizeof(ValId) * (size_t)n);
    return true;
}

/* The slice of the input that slice c of a reduction's result folds as
 * its j-th: c's coordinates over the result's leading dims, j put back
 * at the reduced axis, recomposed row-major over the input's. */
static int fold_source(const Type *at, int axis, int64_t c, int j) {
    int nl = at->rank - 2;
    int64_t b = 0, stride = 1;
    for (int d = nl - 1; d >= 0; d--) {
        int64_t coord = j;
        if (d != axis) {
            coord = c % at->shape[d];
            c /= at->shape[d];
        }
        b += coord * stride;
        stride *= at->shape[d];
    }
    return (int)b;
}

/* sum/max/min/xor_sum of a block of rank R >= 3.  Along a dim of the
 * slices: one reduction per slice, a row each; the rows are the result
 * (stacked by cat and reshape where a rank-2 op reads it) for R = 3, or
 * stacked in runs of the last leading dim into the result's slices.
 * Along a leading dim: the elementwise op that combines the same way
 * (ops.def's texts: sum is add, max is maximum and min minimum, NaN rules
 * included, xor_sum is xor) folded over the slices that dim runs across,
 * in order; the result itself for R = 3, else its slices. */
static bool slice_reduce(Unbatch *u, OpList *out, Op *op) {
    Func *f = u->f;
    ValId x = op->args[0], res = op->res[0];
    Type at = val_type(f, x), rt = val_type(f, res);
    int nl = at.rank - 2, axis = (int)op->attr[0];
    int64_t nb = lead_count(at);
    if (at.rank < 3 || rt.rank != at.rank - 1 || axis < 0 || axis >= at.rank || nb > MAX_SLICES)
        return false;
    ValId s[MAX_SLICES];
    if (axis >= nl) {
        int32_t last = at.shape[nl - 1];
        if (!stackable(last))
            return false;
        Type row = type_block(type_elem(rt), 1, &rt.shape[rt.rank - 1]);
        for (int b = 0; b < nb; b++) {
            ValId xb = slice_of(u, out, x, b);
            if (!xb)
                return false;
            s[b] = emit(u, out, op, (OpCode)op->code, row, &xb, 1);
            out->ops[out->n - 1]->attr[0] = axis - nl;
        }
        if (at.rank > 3) {
            for (int c = 0; c < nb / last; c++)
                s[c] = stack_rows(u, out, op, s + c * last, last);
            return set_slices(u, res, s, (int)(nb / last));
        }
        u->rows[res] = arena_alloc(f->arena, sizeof(ValId) * (size_t)nb);
        if (!u->rows[res])
            return false;
        memcpy(u->rows[res], s, sizeof(ValId) * (size_t)nb);
        u->repl[res] = stack_rows(u, out, op, s, (int)nb);
        return true;
    }
    if (at.dtype != rt.dtype)
        return false;
    OpCode code = op->code == OP_SUM ? OP_ADD : op->code == OP_MAX ? OP_MAXIMUM
                  : op->code == OP_MIN ? OP_MINIMUM : OP_XOR;
    Op like = {.code = code, .loc = op->loc};
    int64_t nc = nb / at.shape[axis];
    for (int64_t c = 0; c < nc; c++) {
        ValId acc = slice_of(u, out, x, fold_source(&at, axis, c, 0));
        for (int j = 1; acc && j < at.shape[axis]; j++) {
            ValId pair[2] = {acc, slice_of(u, out, x, fold_source(&at, axis, c, j))};
            acc = pair[1] ? emit(u, out, &like, code, last_two(at), pair, 2) : 0;
        }
        if (!(s[c] = acc))
            return false;
    }
    if (at.rank > 3)
        return set_slices(u, res, s, (int)nc);
    u->repl[res] = s[0];
    return true;
}

/* v as the combine region's copy being made sees it. */
static ValId cloned(const Unbatch *u, ValId v) {
    return v < u->nvals && u->clone[v] ? u->clone[v] : v;
}

/* Op d of a combine region copied into region r (clone maps its values). */
static bool clone_into(Unbatch *u, Region *r, const Op *d) {
    Func *f = u->f;
    if (d->nres > 1 || d->body || d->alt || d->nargs > 8)
        return false;
    ValId args[8];
    for (int i = 0; i < d->nargs; i++)
        args[i] = cloned(u, d->args[i]);
    Op *op = op_copy(f, r, d, args);
    if (d->nres)
        u->clone[d->res[0]] = op->res[0];
    return true;
}

/* A tl.reduce (argmax, a user's combine) or tl.associative_scan along
 * dim 1 or 2: per slice a copy of the op and its combine region; each
 * reduction result's rows stacked, each scan result's slices its own. */
static bool slice_combine(Unbatch *u, OpList *out, Op *op) {
    Func *f = u->f;
    int n = op->nres;
    bool scan = op->code == OP_SCAN;
    Type at = val_type(f, op->args[0]);
    if (at.rank != 3 || op->attr[0] < 1 || op->attr[0] > 2 || n > 8 || !stackable(at.shape[0]))
        return false;
    ValId rows[8][MAX_SLICES];
    for (int b = 0; b < at.shape[0]; b++) {
        ValId args[8];
        for (int k = 0; k < n; k++)
            if (!(args[k] = slice_of(u, out, op->args[k], b)))
                return false;
        Op *c = op_new_combine(f, NULL, (OpCode)op->code, op->loc, args, n, op->attr[0] - 1,
                               op->attr[1]);
        for (int k = 0; k < 2 * n; k++)
            u->clone[op->iters[k]] = c->iters[k];
        for (int i = 0; i < op->body->nops; i++)
            if (!clone_into(u, c->body, op->body->ops[i]))
                return false;
        for (int k = 0; k < n; k++) {
            c->yields[k] = cloned(u, op->yields[k]);
            rows[k][b] = c->res[k];
        }
        VEC_PUSH(f->arena, out->ops, out->n, out->cap, c);
    }
    for (int k = 0; k < n && scan; k++)
        if (!set_slices(u, op->res[k], rows[k], at.shape[0]))
            return false;
    for (int k = 0; k < n && !scan; k++) {
        ValId res = op->res[k];
        u->rows[res] = arena_alloc(f->arena, sizeof(ValId) * (size_t)at.shape[0]);
        if (!u->rows[res])
            return false;
        memcpy(u->rows[res], rows[k], sizeof(ValId) * (size_t)at.shape[0]);
        u->repl[res] = stack_rows(u, out, op, rows[k], at.shape[0]);
    }
    return true;
}

/* A tl.reduce (argmax, a user's combine) along dim 0: the slices folded
 * in order, acc = combine(acc, slice b), the combine region's ops copied
 * once per fold as elementwise ops on whole slices (a region op on
 * scalars only, a constant's arithmetic, stays scalar). */
static bool fold_combine(Unbatch *u, OpList *out, Op *op) {
    Func *f = u->f;
    int n = op->nres;
    Type at = val_type(f, op->args[0]), rt = val_type(f, op->res[0]);
    if (at.rank != 3 || rt.rank != 2 || n > 8 || op->code != OP_REDUCE || !op->body)
        return false;
    ValId acc[8];
    for (int k = 0; k < n; k++)
        if (!(acc[k] = slice_of(u, out, op->args[k], 0)))
            return false;
    for (int b = 1; b < at.shape[0]; b++) {
        for (int k = 0; k < n; k++) {
            u->clone[op->iters[k]] = acc[k];
            if (!(u->clone[op->iters[n + k]] = slice_of(u, out, op->args[k], b)))
                return false;
        }
        for (int i = 0; i < op->body->nops; i++) {
            const Op *d = op->body->ops[i];
            if (d->nres != 1 || d->body || d->alt || d->nargs > 8 ||
                op_info[d->code].kind != K_ELEMENTWISE)
                return false;
            ValId args[8];
            bool block = false;
            for (int j = 0; j < d->nargs; j++) {
                args[j] = cloned(u, d->args[j]);
                block |= rank_of(f, args[j]) > 0;
            }
            Type t = val_type(f, d->res[0]);
            if (block)
                t = type_with_elem(rt, type_scalar((DType)t.dtype));
            u->clone[d->res[0]] = emit(u, out, d, (OpCode)d->code, t, args, d->nargs);
        }
        for (int k = 0; k < n; k++) {
            acc[k] = cloned(u, op->yields[k]);
            if (rank_of(f, acc[k]) != 2)
                return false;
        }
    }
    for (int k = 0; k < n; k++)
        u->repl[op->res[k]] = acc[k];
    return true;
}

/* tl.cumsum / tl.cumprod of a rank-3 block: along dim 1 or 2 one scan
 * per slice; along dim 0 the running add (multiply) of the slices, from
 * the last one when reversed. */
static bool slice_cum(Unbatch *u, OpList *out, Op *op) {
    Func *f = u->f;
    ValId x = op->args[0], res = op->res[0];
    Type at = val_type(f, x), rt = val_type(f, res);
    int n = at.shape[0];
    ValId s[MAX_SLICES];
    if (at.rank != 3 || rt.rank != 3 || n > MAX_SLICES || at.dtype != rt.dtype)
        return false;
    for (int i = 0; i < n; i++) {
        int b = op->attr[0] == 0 && op->attr[1] ? n - 1 - i : i;
        ValId xb = slice_of(u, out, x, b);
        if (!xb)
            return false;
        if (op->attr[0] != 0) {
            s[b] = emit(u, out, op, (OpCode)op->code, drop_first(rt), &xb, 1);
            out->ops[out->n - 1]->attr[0] = op->attr[0] - 1;
        } else if (i == 0) {
            s[b] = xb;
        } else {
            OpCode code = op->code == OP_CUMSUM ? OP_ADD : OP_MUL;
            ValId pair[2] = {s[op->attr[1] ? b + 1 : b - 1], xb};
            Op like = {.code = code, .loc = op->loc};
            s[b] = emit(u, out, &like, code, drop_first(rt), pair, 2);
        }
    }
    return set_slices(u, res, s, n);
}

/* Whether each operand of op of rank 3 or more has, right-aligned, the
 * leading dims lead[0..nl) or ones there. */
static bool broadcasts_to(Func *f, const Op *op, const int32_t *lead, int nl) {
    for (int i = 0; i < op->nargs; i++) {
        Type at = val_type(f, op->args[i]);
        int al = at.rank - 2;
        if (!op->args[i] || at.rank < 3)
            continue;
        if (al > nl)
            return false;
        for (int k = 0; k < al; k++)
            if (at.shape[k] != 1 && at.shape[k] != lead[k + nl - al])
                return false;
    }
    return true;
}

/* The slice of operand type at (rank >= 3) that slice b of an op over
 * the leading dims lead[0..nl) reads: b's coordinates right-aligned to
 * at's leading dims, 0 along a dim of one (a broadcast). */
static int operand_slice(const int32_t *lead, int nl, Type at, int64_t b) {
    int al = at.rank - 2;
    int64_t r = 0, stride = 1;
    for (int d = nl - 1, k = al - 1; d >= 0 && k >= 0; d--, k--) {
        int64_t coord = b % lead[d];
        b /= lead[d];
        if (at.shape[k] != 1)
            r += coord * stride;
        stride *= at.shape[k];
    }
    return (int)r;
}

/* expand_dims into rank 4 or more: the same elements reshaped, a whole
 * value (its operand joined first when sliced) whose readers split it. */
static bool expand_whole(Unbatch *u, OpList *out, Op *op) {
    ValId a = whole_of(u, out, op->loc, op->args[0]);
    if (!a)
        return false;
    u->repl[op->res[0]] = shape_op(u, out, op->loc, OP_RESHAPE, val_type(u->f, op->res[0]), &a, 1, 0);
    return true;
}

/* One op on rank-3 values as ops on slices, at the end of out. */
static bool slice_op(Unbatch *u, OpList *out, Op *op) {
    Func *f = u->f;
    if (op->code == OP_REDUCE && op->attr[0] == 0)
        return fold_combine(u, out, op);
    if (op->code == OP_REDUCE || op->code == OP_SCAN)
        return slice_combine(u, out, op);
    if (op->code == OP_CUMSUM || op->code == OP_CUMPROD)
        return slice_cum(u, out, op);
    if (op->nres > 1 || (op_info[op->code].flags & F_REGION) || op->body)
        return false;
    ValId res = op->nres ? op->res[0] : 0;
    Type rt = res ? val_type(f, res) : (Type){0};
    ValId s[MAX_SLICES];
    if (op->code == OP_EXPAND_DIMS && rt.rank > 3)
        return expand_whole(u, out, op);
    if (op->code == OP_EXPAND_DIMS && rt.rank == 3) {
        ValId x = replaced(u, op->args[0]);
        if (op->attr[0] == 0)
            return set_slices(u, res, &x, 1);
        int n = val_type(f, x).shape[0];
        if (n > MAX_SLICES)
            return false;
        for (int b = 0; b < n; b++) {
            ValId r = row_of(u, out, op->args[0], b);
            if (!r)
                return false;
            s[b] = emit(u, out, op, OP_EXPAND_DIMS, drop_first(rt), &r, 1);
            out->ops[out->n - 1]->attr[0] = op->attr[0] - 1;
        }
        return set_slices(u, res, s, n);
    }
    if (op->code == OP_SUM || op->code == OP_MAX || op->code == OP_MIN || op->code == OP_XOR_SUM)
        return slice_reduce(u, out, op);
    if (!is_sliceable(op->code) && op->code != OP_DOT)
        return false;
    if (res && rt.rank < 3)
        return false;
    /* the leading dims the op runs over: its result's, or its operands'
     * broadcast (right-aligned, as the op broadcasts them) */
    int32_t lead[MT_MAX_RANK];
    int nl = res ? rt.rank - 2 : 0;
    for (int i = 0; !res && i < op->nargs; i++)
        if (op->args[i] && val_type(f, op->args[i]).rank - 2 > nl)
            nl = val_type(f, op->args[i]).rank - 2;
    for (int d = 0; d < nl; d++)
        lead[d] = res ? rt.shape[d] : 1;
    for (int i = 0; !res && i < op->nargs; i++) {
        Type at = val_type(f, op->args[i]);
        for (int k = 0, al = at.rank - 2; op->args[i] && k < al; k++)
            if (at.shape[k] > lead[k + nl - al])
                lead[k + nl - al] = at.shape[k];
    }
    int64_t n = 1;
    for (int d = 0; d < nl; d++)
        n *= lead[d];
    if (n > MAX_SLICES || op->nargs > 8 || !broadcasts_to(f, op, lead, nl))
        return false;
    for (int b = 0; b < n; b++) {
        ValId args[8];
        for (int i = 0; i < op->nargs; i++) {
            Type at = val_type(f, op->args[i]);
            int ab = at.rank >= 3 ? operand_slice(lead, nl, at, b) : 0;
            if (op->args[i] && !(args[i] = slice_of(u, out, op->args[i], ab)))
                return false;
            else if (!op->args[i])
                args[i] = 0;
        }
        s[b] = emit(u, out, op, (OpCode)op->code, res ? last_two(rt) : (Type){0}, args,
                    op->nargs);
    }
    return !res || set_slices(u, res, s, (int)n);
}

static bool walk(Unbatch *u, Region *r);

/* A for loop carrying rank-3 values: a new for op carrying their slices
 * (and the rest as they were), over the same body region, sliced. */
static bool slice_for(Unbatch *u, OpList *out, Op *op) {
    Func *f = u->f;
    int nc = op->nres, m = 0;
    ValId inits[MAX_SLICES];
    int first[MAX_SLICES], count[MAX_SLICES];
    if (nc > MAX_SLICES)
        return false;
    for (int k = 0; k < nc; k++) {
        ValId x = op->args[3 + k];
        if (rank_of(f, x) > 3)
            return false;
        count[k] = rank_of(f, x) == 3 ? val_type(f, x).shape[0] : 1;
        first[k] = m;
        if (m + count[k] > MAX_SLICES)
            return false;
        for (int b = 0; b < count[k]; b++)
            if (!(inits[m++] = rank_of(f, x) == 3 ? slice_of(u, out, x, b) : replaced(u, x)))
                return false;
    }
    Op *nf = op_new_for(f, NULL, op->loc, replaced(u, op->args[0]), replaced(u, op->args[1]),
                        replaced(u, op->args[2]), inits, m);
    nf->attr[0] = op->attr[0];
    nf->attr[1] = op->attr[1];
    nf->str[0] = op->str[0];
    nf->str[1] = op->str[1];
    u->repl[op->index] = nf->index;
    for (int k = 0; k < nc; k++) {
        if (rank_of(f, op->iters[k]) == 3) {
            u->slices[op->iters[k]] = nf->iters + first[k];
            u->slices[op->res[k]] = nf->res + first[k];
        } else {
            u->repl[op->iters[k]] = nf->iters[first[k]];
            u->repl[op->res[k]] = nf->res[first[k]];
        }
    }
    nf->body = op->body; /* its new op list is swapped in with the rest */
    if (!walk(u, op->body))
        return false;
    for (int k = 0; k < nc; k++)
        for (int b = 0; b < count[k]; b++)
            if (!(nf->yields[first[k] + b] = rank_of(f, op->yields[k]) == 3
                                                 ? slice_of(u, NULL, op->yields[k], b)
                                                 : op->yields[k]))
                return false;
    VEC_PUSH(f->arena, out->ops, out->n, out->cap, nf);
    return true;
}

static void remap(Unbatch *u, ValId *v, int n) {
    for (int i = 0; v && i < n; i++)
        v[i] = replaced(u, v[i]);
}

/* Shape op `op` reading sliced values: a copy of it reading them whole
 * again (join_slices), its result the original's. */
static bool join_for(Unbatch *u, OpList *out, Op *op) {
    ValId args[2];
    if (op->nres != 1 || op->nargs > 2)
        return false;
    for (int k = 0; k < op->nargs; k++)
        if (!(args[k] = whole_of(u, out, op->loc, op->args[k])))
            return false;
    Op *c = op_copy(u->f, NULL, op, args);
    VEC_PUSH(u->f->arena, out->ops, out->n, out->cap, c);
    u->repl[op->res[0]] = c->res[0];
    return true;
}

/* false, with op as the reason when none is known yet. */
static bool fail_at(Unbatch *u, const Op *op) {
    if (!u->failed)
        u->failed = op;
    return false;
}

static bool walk(Unbatch *u, Region *r) {
    Func *f = u->f;
    OpList out = {NULL, 0, 0, ++u->nwalks};
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op_info[op->code].flags & F_REGION) {
            if (touches_rank3(f, op)) {
                if (op->code != OP_FOR || !slice_for(u, &out, op))
                    return fail_at(u, op);
                continue;
            }
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                if (!walk(u, rs[k]))
                    return false;
        } else if (op_info[op->code].kind == K_GATHER) {
            /* shape ops keep their values of rank 3 or more whole
             * (cuda_shape.c reads through them): sliced ones are joined */
            bool sliced = false;
            for (int k = 0; k < op->nargs; k++)
                sliced |= is_sliced(u, op->args[k]);
            if (sliced) {
                if (!join_for(u, &out, op))
                    return fail_at(u, op);
                continue;
            }
        } else if (touches_rank3(f, op)) {
            if (!slice_op(u, &out, op))
                return fail_at(u, op);
            continue;
        }
        VEC_PUSH(f->arena, out.ops, out.n, out.cap, op);
    }
    Swap sw = {r, out};
    VEC_PUSH(f->arena, u->swaps, u->nswaps, u->capswaps, sw);
    return true;
}

/* The operands and yields of every op kept, with assembled reductions. */
static void remap_region(Unbatch *u, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        remap(u, op->args, op->nargs);
        if (op_info[op->code].flags & F_REGION) {
            remap(u, op->yields, op->yields ? op->nres : 0);
            remap(u, op->alt_yields, op->alt_yields ? (op->code == OP_WHILE ? 1 : op->nres) : 0);
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                remap_region(u, rs[k]);
        }
    }
}

static bool any_rank3(Func *f) {
    for (int v = 1; v < f->nvals; v++)
        if (val_type(f, v).rank >= 3)
            return true;
    return false;
}

int pass_unbatch(Func *f) {
    if (!any_rank3(f))
        return 0;
    Unbatch u = {.f = f, .nvals = f->nvals};
    size_t n = (size_t)f->nvals;
    u.slices = arena_alloc(f->arena, sizeof(ValId *) * n);
    u.rows = arena_alloc(f->arena, sizeof(ValId *) * n);
    u.repl = arena_alloc(f->arena, sizeof(ValId) * n);
    u.clone = arena_alloc(f->arena, sizeof(ValId) * n);
    u.split_in = arena_alloc(f->arena, sizeof(int) * n);
    if (!u.slices || !u.rows || !u.repl || !u.clone || !u.split_in)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    memset(u.slices, 0, sizeof(ValId *) * n);
    memset(u.rows, 0, sizeof(ValId *) * n);
    memset(u.repl, 0, sizeof(ValId) * n);
    memset(u.clone, 0, sizeof(ValId) * n);
    memset(u.split_in, 0, sizeof(int) * n);
    if (!walk(&u, &f->body)) {
        f->unsliced = u.failed; /* not every op can be sliced: layout.c says which */
        return 0;
    }
    for (int i = 0; i < u.nswaps; i++) {
        u.swaps[i].r->ops = u.swaps[i].list.ops;
        u.swaps[i].r->nops = u.swaps[i].list.n;
        u.swaps[i].r->cap = u.swaps[i].list.cap;
    }
    remap_region(&u, &f->body);
    return 0;
}
