/* pipeload.c: the loads of a tl.range(..., num_stages=N) loop issued one
 * iteration ahead.
 *
 * Input: a verified, optimised Func before layout assignment (the CUDA
 * lowering's IR).  Output: the same function where, in every for loop that
 * asked for num_stages >= 2 (Op.attr[0], AS_STAGES) and holds no dot (the
 * dot planner stages those loops' operands itself, dotplan.c), each block
 * load at the top of the body whose pointer, mask and other are computed
 * from the loop index and values defined before the loop alone (by pure
 * ops that cannot trap) is carried:
 *
 *     for i in range(a, b, s) {            x0 = if a < b && s > 0 {
 *       ...                                       load P(a) } else { zeros }
 *       %x = load P(i), M(i), O(i)   ->    for i in range(a, b, s) iter_args(x = x0) {
 *       ... %x ...                           xn = if (b - i) >u s {
 *     }                                            load P(i + s) } else { zeros }
 *                                            ... x ...
 *                                            yield xn }
 *
 * P, M and O are copies of the load's operand slice with i replaced, made
 * inside the if, so no index past the loop's last is ever formed (the
 * comparison is exact in the unsigned type: b - i is in (0, 2^w) within the
 * loop).  The next iteration's load is in flight while this iteration
 * computes: Triton's pipeliner does the same for such loops
 * (AssignLatencies: a loop with the num_stages attribute pipelines its
 * loads without a dot), through shared memory and num_stages - 1 ahead;
 * here the registers hold one iteration ahead.  As in Triton, a store in
 * the body is not ordered before the next iteration's load: asking for
 * num_stages says the loop's loads do not read its own stores.
 *
 * The registers a prefetched block takes are live across the body, so a
 * loop prefetches at most MAX_PREFETCH_BYTES per thread; the loads that
 * come first in the body are taken first.  Volatile loads, scalar loads
 * and loads of pointers are left as they are.
 *
 * Invariant afterwards: ir_verify holds; a pipelined load is dead (DCE
 * removes it) and its uses read the loop's new carried value. */
#include "mt.h"

#include <string.h>

/* Registers a thread may spend on blocks one iteration ahead (16 words:
 * a 4096-wide f32 row over 8 warps; tutorial 02's rows up to 4096 go
 * ahead, its 8192-wide ones do not). */
#define MAX_PREFETCH_BYTES 64
/* A load's operand slice deeper than this is not copied. */
#define MAX_SLICE_DEPTH 64

enum { UNSEEN, SLICE_OK, SLICE_BAD };

/* Which iteration a copy of a value is for, seen from the top of the
 * body of iteration i: the first (before the loop), i + 1, or i itself
 * (a carried value's next one is its yield, computed from iteration i's). */
typedef enum Iteration { FIRST, NEXT, CURRENT, NITERATIONS } Iteration;

typedef struct Pipe {
    Func *f;
    Op *loop;
    int nvals;        /* values that existed when the loop was looked at */
    Op **top_def;     /* per value: its defining op at the top of the body */
    bool *inside;     /* per value: defined in the loop (index, carries, any depth) */
    int *carry;       /* per value: 1 + which carried value it is, or 0 */
    uint8_t *state[2];      /* per value, NEXT and CURRENT: SLICE_OK / SLICE_BAD */
    ValId *clone[NITERATIONS]; /* per value: its copy for that iteration */
    ValId next_index;       /* i + step, in the prefetch being built */
} Pipe;

static void mark_inside(Pipe *p, const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        for (int k = 0; k < op->nres; k++)
            p->inside[op->res[k]] = true;
        for (int k = 0; op->iters && k < op_niters(op); k++)
            p->inside[op->iters[k]] = true;
        if (op->code == OP_FOR)
            p->inside[op->index] = true;
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            mark_inside(p, rs[k]);
    }
}

/* An op a prefetch may run early and on the next iteration's index: pure,
 * no region, one result, and never trapping (no integer divisor). */
static bool copyable(const Op *op) {
    const OpInfo *oi = &op_info[op->code];
    return (oi->flags & F_PURE) && !(oi->flags & (F_DIVISOR | F_REGION)) && !op->body &&
           !op->alt && op->nres == 1 && op->nargs <= 8;
}

/* Whether v's value in iteration `it` (NEXT or CURRENT) can be computed at
 * the top of iteration i's body: from the loop index, values from before
 * the loop, and carried values whose yields can (for NEXT), through ops
 * copyable() takes at the top of the body. */
static bool in_slice(Pipe *p, ValId v, Iteration it, int depth) {
    if (!v || !p->inside[v] || v == p->loop->index)
        return true;
    uint8_t *st = &p->state[it == NEXT ? 0 : 1][v];
    if (*st != UNSEEN)
        return *st == SLICE_OK;
    *st = SLICE_BAD; /* a cycle through carries is not followed */
    bool ok;
    if (p->carry[v])
        ok = it == CURRENT ||
             in_slice(p, p->loop->yields[p->carry[v] - 1], CURRENT, depth + 1);
    else {
        const Op *d = p->top_def[v];
        ok = d && depth < MAX_SLICE_DEPTH && copyable(d);
        for (int k = 0; ok && k < d->nargs; k++)
            ok = in_slice(p, d->args[k], it, depth + 1);
    }
    *st = ok ? SLICE_OK : SLICE_BAD;
    return ok;
}

static int64_t bytes_per_thread(Func *f, Type t) {
    int64_t threads = 32 * (int64_t)(f->num_warps > 0 ? f->num_warps : 4);
    return (type_numel(t) + threads - 1) / threads * dtype_info[t.dtype].bytes;
}

static bool pipelinable(Pipe *p, const Op *op) {
    if (op->code != OP_LOAD || op->nres != 1 || op->attr[0] == MEM_VOLATILE)
        return false;
    Type t = val_type(p->f, op->res[0]);
    if (!t.rank || t.is_ptr)
        return false;
    for (int k = 0; k < op->nargs; k++)
        if (!in_slice(p, op->args[k], NEXT, 0))
            return false;
    return true;
}

/* A new op of r typed by the rules of typerules.c. */
static ValId build(Func *f, Region *r, OpCode code, Loc loc, ValId a, ValId b, Type t) {
    ValId args[2] = {a, b};
    int n = b ? 2 : 1;
    if (code != OP_BITCAST && ir_infer_type(f, code, loc, args, n, NULL, &t) < 0)
        return 0;
    Op *op = op_new(f, r, code, loc, t, args, n);
    return op->res[0];
}

/* v's copy in region r for iteration `it`. */
static ValId copy_slice(Pipe *p, Region *r, ValId v, Iteration it) {
    Op *lp = p->loop;
    if (v == lp->index)
        return it == FIRST ? lp->args[0] : it == NEXT ? p->next_index : v;
    if (!v || v >= p->nvals || !p->inside[v])
        return v;
    if (p->clone[it][v])
        return p->clone[it][v];
    int k = p->carry[v] - 1;
    if (k >= 0)
        return p->clone[it][v] = it == FIRST  ? lp->args[3 + k]
                                 : it == NEXT ? copy_slice(p, r, lp->yields[k], CURRENT)
                                              : v;
    const Op *d = p->top_def[v];
    ValId args[8];
    for (int j = 0; j < d->nargs; j++)
        args[j] = copy_slice(p, r, d->args[j], it);
    return p->clone[it][v] = op_copy(p->f, r, d, args)->res[0];
}

/* `if cond { the loads for iteration it } else { zeros }`, appended to r:
 * one result per load of lds. */
static Op *prefetch(Pipe *p, Region *r, ValId cond, Op **lds, int n, Iteration it) {
    Func *f = p->f;
    Type *types = arena_alloc(f->arena, sizeof(Type) * (size_t)n);
    for (int k = 0; k < n; k++)
        types[k] = val_type(f, lds[k]->res[0]);
    Op *br = op_new_if(f, r, p->loop->loc, cond, types, n);
    for (int m = 0; m < NITERATIONS; m++)
        memset(p->clone[m], 0, sizeof(ValId) * (size_t)p->nvals);
    if (it == NEXT) /* i + s: formed only where it is a loop index */
        p->next_index = build(f, br->body, OP_ADD, p->loop->loc, p->loop->index,
                              p->loop->args[2], (Type){0});
    for (int k = 0; k < n; k++) {
        br->yields[k] = copy_slice(p, br->body, lds[k]->res[0], it);
        Op *z = op_new(f, br->alt, OP_ZEROS, lds[k]->loc, types[k], NULL, 0);
        br->alt_yields[k] = z->res[0];
    }
    return br;
}

/* Appends one carried value (init) to the loop; returns its iter. */
static ValId add_carry(Func *f, Op *lp, ValId init, ValId yield) {
    int n = lp->nres, m = lp->nargs;
    ValId *args = arena_alloc(f->arena, sizeof(ValId) * (size_t)(m + 1));
    ValId *iters = arena_alloc(f->arena, sizeof(ValId) * (size_t)(n + 1));
    ValId *yields = arena_alloc(f->arena, sizeof(ValId) * (size_t)(n + 1));
    ValId *res = arena_alloc(f->arena, sizeof(ValId) * (size_t)(n + 1));
    memcpy(args, lp->args, sizeof(ValId) * (size_t)m);
    if (n) {
        memcpy(iters, lp->iters, sizeof(ValId) * (size_t)n);
        memcpy(yields, lp->yields, sizeof(ValId) * (size_t)n);
        memcpy(res, lp->res, sizeof(ValId) * (size_t)n);
    }
    Type t = val_type(f, init);
    args[m] = init;
    iters[n] = func_new_value(f, VK_LOOP_ARG, t);
    yields[n] = yield;
    res[n] = func_new_value(f, VK_OP, t);
    f->vals[res[n]].def = lp;
    lp->args = args, lp->nargs = m + 1;
    lp->iters = iters, lp->yields = yields, lp->res = res, lp->nres = n + 1;
    return iters[n];
}

static void replace_uses(Region *r, ValId from, ValId to) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        int nalt = op->code == OP_WHILE ? 1 : op->nres;
        for (int k = 0; k < op->nargs; k++)
            if (op->args[k] == from)
                op->args[k] = to;
        for (int k = 0; op->yields && k < op->nres; k++)
            if (op->yields[k] == from)
                op->yields[k] = to;
        for (int k = 0; op->alt_yields && k < nalt; k++)
            if (op->alt_yields[k] == from)
                op->alt_yields[k] = to;
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            replace_uses(rs[k], from, to);
    }
}

/* Moves the ops appended to r after its first `keep` to just before
 * position `at`. */
static int hoist_tail(Func *f, Region *r, int keep, int at) {
    int n = r->nops - keep;
    Op **tail = arena_alloc(f->arena, sizeof(Op *) * (size_t)(n ? n : 1));
    if (!tail)
        return -1;
    memcpy(tail, r->ops + keep, sizeof(Op *) * (size_t)n);
    memmove(r->ops + at + n, r->ops + at, sizeof(Op *) * (size_t)(keep - at));
    memcpy(r->ops + at, tail, sizeof(Op *) * (size_t)n);
    return 0;
}

/* Pipelines loop lp (at position `at` of region parent). */
static int pipeline_loop(Func *f, Region *parent, int at, Op *lp) {
    Pipe p = {.f = f, .loop = lp, .nvals = f->nvals};
    size_t nv = (size_t)p.nvals;
    p.top_def = arena_alloc(f->arena, sizeof(Op *) * nv);
    p.inside = arena_alloc(f->arena, nv);
    p.carry = arena_alloc(f->arena, sizeof(int) * nv);
    bool ok = p.top_def && p.inside && p.carry;
    for (int m = 0; m < 2; m++)
        ok = ok && (p.state[m] = arena_alloc(f->arena, nv)) != NULL;
    for (int m = 0; m < NITERATIONS; m++)
        ok = ok && (p.clone[m] = arena_alloc(f->arena, sizeof(ValId) * nv)) != NULL;
    if (!ok)
        return diag_error(f->ctx, lp->loc, MT_ERR_NOMEM, "out of memory");
    memset(p.top_def, 0, sizeof(Op *) * nv);
    memset(p.inside, 0, nv);
    memset(p.carry, 0, sizeof(int) * nv);
    for (int m = 0; m < 2; m++)
        memset(p.state[m], 0, nv);
    p.inside[lp->index] = true;
    for (int k = 0; k < lp->nres; k++) {
        p.inside[lp->iters[k]] = true;
        p.carry[lp->iters[k]] = k + 1;
    }
    mark_inside(&p, lp->body);
    for (int i = 0; i < lp->body->nops; i++) {
        Op *op = lp->body->ops[i];
        for (int k = 0; k < op->nres; k++)
            p.top_def[op->res[k]] = op;
    }
    Op **lds = arena_alloc(f->arena, sizeof(Op *) * (size_t)(lp->body->nops + 1));
    int n = 0;
    int64_t budget = MAX_PREFETCH_BYTES;
    for (int i = 0; i < lp->body->nops; i++) {
        Op *op = lp->body->ops[i];
        if (!pipelinable(&p, op))
            continue;
        int64_t b = bytes_per_thread(f, val_type(f, op->res[0]));
        if (b > budget)
            continue;
        budget -= b;
        lds[n++] = op;
    }
    if (!n)
        return 0;
    Loc loc = lp->loc;
    ValId lo = lp->args[0], hi = lp->args[1], step = lp->args[2];
    Type it = val_type(f, lp->index);
    Type ut = type_scalar(it.dtype == DT_I64 ? DT_U64 : DT_U32);

    /* before the loop: the first iteration's blocks, when there is one */
    int keep = parent->nops;
    ValId runs = build(f, parent, OP_CMP_LT, loc, lo, hi, (Type){0});
    ValId up = build(f, parent, OP_CMP_GT, loc, step, const_int(f, (DType)it.dtype, 0),
                     (Type){0});
    ValId first = build(f, parent, OP_AND, loc, runs, up, (Type){0});
    if (!runs || !up || !first)
        return -1;
    Op *pre = prefetch(&p, parent, first, lds, n, FIRST);
    if (hoist_tail(f, parent, keep, at) < 0)
        return diag_error(f->ctx, loc, MT_ERR_NOMEM, "out of memory");

    /* in the body, first: the next iteration's, when there is one */
    Region *body = lp->body;
    keep = body->nops;
    ValId left = build(f, body, OP_SUB, loc, hi, lp->index, (Type){0});
    ValId uleft = build(f, body, OP_BITCAST, loc, left, 0, ut);
    ValId ustep = build(f, body, OP_BITCAST, loc, step, 0, ut);
    ValId more = build(f, body, OP_CMP_GT, loc, uleft, ustep, (Type){0});
    if (!left || !more)
        return -1;
    Op *next = prefetch(&p, body, more, lds, n, NEXT);
    if (hoist_tail(f, body, keep, 0) < 0)
        return diag_error(f->ctx, loc, MT_ERR_NOMEM, "out of memory");
    for (int k = 0; k < n; k++) {
        ValId was = lds[k]->res[0];
        ValId cur = add_carry(f, lp, pre->res[k], next->res[k]);
        replace_uses(body, was, cur);
        for (int j = 0; j + 1 < lp->nres; j++)
            if (lp->yields[j] == was)
                lp->yields[j] = cur;
    }
    return 0;
}

static bool is_dot(const Op *op) { return op->code == OP_DOT; }

static int pipeline_region(Func *f, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (pipeline_region(f, rs[k]) < 0)
                return -1;
        if (op->code != OP_FOR || op->attr[0] < 2 || op_holds(op, is_dot))
            continue;
        int before = r->nops;
        if (pipeline_loop(f, r, i, op) < 0)
            return -1;
        i += r->nops - before; /* past the prologue, to the loop again */
    }
    return 0;
}

int pass_pipeline_loads(Func *f) {
    return pipeline_region(f, &f->body);
}
