/* memorder.c: memory accesses along rows.
 *
 * Input: a verified, optimised Func, before layout assignment.  Output:
 * the same function where each rank-2 load or store at the function's top
 * level whose pointers run consecutively down the columns (dim 0) and not
 * along the rows (dim 1) reads or writes the transposed block instead:
 *     %r = load %p, %m, %o    ->  %rt = load T(%p), T(%m), T(%o);
 *                                 %r = trans %rt
 *     store %p, %v, %m        ->  store T(%p), trans %v, T(%m)
 * where T rebuilds index math transposed (expand_dims on the other axis,
 * the same elementwise ops over transposed operands; a trans op for
 * anything else).  The values are the same; what changes is that every layout (layout.c)
 * and vector access (cuda.c) runs along the last dim, so the transposed
 * access gets 16-byte groups where the original took one element at a
 * time (a transpose's store, a column-major operand's load).  layout.c
 * gives a trans the transposed layout of its operand (no data moves);
 * where the transposed block meets a row layout, the one conversion goes
 * through shared memory, as Triton's convert_layout does.
 *
 * Contiguity comes from the pointer's expression: an arange broadcast
 * along a dim, plus values constant along it, times the constant 1.
 * Accesses inside loops stay as written, but for a dot's K-major operand
 * (Triton's tutorial with b given as b.T): a top-level for loop's
 * carried pointers that start down the columns, advance by an addptr and
 * are only loaded for dots become carried pointers of the transposed
 * block, so each iteration loads rows (a wgmma fp8 B tile, K-major,
 * takes that load straight by cp.async) and a trans gives the dot its
 * operand.  Invariant afterwards: ir_verify holds; only the rewritten
 * accesses, the retyped carries and their new trans ops differ. */
#include "mt.h"

#include <string.h>

static Op *def_of(Func *f, ValId v) {
    Value *x = val(f, v);
    return x->kind == VK_OP ? x->def : NULL;
}

static bool is_one(Func *f, ValId v) {
    Value *x = val(f, v);
    return x->kind == VK_CONST && x->type.rank == 0 && !type_is_float(x->type) && x->c.i == 1;
}

/* Is v one value along dim d (a scalar, length 1 there, or made only of
 * such values)? */
static bool constant_along(Func *f, ValId v, int d, int depth) {
    Type t = val_type(f, v);
    if (t.rank == 0 || (t.rank == 2 && t.shape[d] == 1))
        return true;
    Op *op = def_of(f, v);
    if (!op || t.rank != 2 || depth > 8)
        return false;
    switch (op->code) {
    case OP_ZEROS: case OP_FULL:
        return true;
    case OP_EXPAND_DIMS:
        return op->attr[0] == d;
    case OP_BROADCAST: case OP_CAST:
        return constant_along(f, op->args[0], d, depth + 1);
    case OP_ADD: case OP_SUB: case OP_MUL: case OP_ADDPTR:
        return constant_along(f, op->args[0], d, depth + 1) &&
               constant_along(f, op->args[1], d, depth + 1);
    default:
        return false;
    }
}

/* Does v step by exactly one element along dim d (rank 2), or along its
 * one dim (rank 1)? */
static bool unit_along(Func *f, ValId v, int d, int depth) {
    Type t = val_type(f, v);
    Op *op = def_of(f, v);
    if (!op || t.rank == 0 || depth > 8 || (t.rank == 2 && t.shape[d] == 1))
        return false;
    switch (op->code) {
    case OP_ARANGE:
        return t.rank == 1;
    case OP_EXPAND_DIMS:
        return op->attr[0] != d && unit_along(f, op->args[0], 0, depth + 1);
    case OP_BROADCAST:
        return unit_along(f, op->args[0], d, depth + 1);
    case OP_CAST: /* to a wider integer keeps every value */
        return type_is_int(t) && type_is_int(val_type(f, op->args[0])) &&
               dtype_info[t.dtype].bits >= dtype_info[val_type(f, op->args[0]).dtype].bits &&
               unit_along(f, op->args[0], d, depth + 1);
    case OP_ADD: case OP_ADDPTR:
        return (unit_along(f, op->args[0], d, depth + 1) &&
                constant_along(f, op->args[1], d, depth + 1)) ||
               (unit_along(f, op->args[1], d, depth + 1) &&
                constant_along(f, op->args[0], d, depth + 1));
    case OP_SUB:
        return unit_along(f, op->args[0], d, depth + 1) &&
               constant_along(f, op->args[1], d, depth + 1);
    case OP_MUL:
        return (is_one(f, op->args[1]) && unit_along(f, op->args[0], d, depth + 1)) ||
               (is_one(f, op->args[0]) && unit_along(f, op->args[1], d, depth + 1));
    default:
        return false;
    }
}

/* A rank-2 access whose pointers run down the columns only, with every
 * block operand of the pointers' shape (trans can take them all). */
static bool column_access(Func *f, const Op *op) {
    if (op->code != OP_LOAD && op->code != OP_STORE)
        return false;
    Type pt = val_type(f, op->args[0]);
    if (pt.rank != 2 || pt.shape[0] < 4 || pt.shape[1] < 2)
        return false;
    for (int k = 1; k < op->nargs; k++) {
        Type t = op->args[k] ? val_type(f, op->args[k]) : type_scalar(DT_I32);
        if (t.rank != 0 && (t.rank != 2 || memcmp(t.shape, pt.shape, sizeof(int32_t) * 2)))
            return false;
    }
    return unit_along(f, op->args[0], 0, 0) && !unit_along(f, op->args[0], 1, 0);
}

typedef struct Rebuild {
    Func *f;
    Op **ops;
    int n, cap;
    ValId *memo; /* a value's transposed value, once made */
} Rebuild;

static void push(Rebuild *rb, Op *op) { VEC_PUSH(rb->f->arena, rb->ops, rb->n, rb->cap, op); }

/* A pure elementwise op (or broadcast, zeros, full) whose operands are
 * all scalars or rank-2 blocks: transposing its operands transposes it
 * (a rank-1 operand would broadcast along the other dim). */
static bool rebuildable(Func *f, const Op *d) {
    if (d->nres != 1 || !(op_info[d->code].flags & F_PURE) || d->nargs > 4 ||
        (op_info[d->code].kind != K_ELEMENTWISE && d->code != OP_BROADCAST &&
         d->code != OP_ZEROS && d->code != OP_FULL))
        return false;
    for (int k = 0; k < d->nargs; k++)
        if (d->args[k] && val_type(f, d->args[k]).rank == 1)
            return false;
    return true;
}

static Type swapped(Type t) {
    int32_t s0 = t.shape[0];
    t.shape[0] = t.shape[1];
    t.shape[1] = s0;
    return t;
}

/* x transposed, as a new op (or ops) before the access; scalars and none
 * stay.  Index math (an expand_dims, a broadcast, a pure elementwise op of
 * such values) is rebuilt transposed, expand_dims on the other axis, so
 * the pointers of the transposed access are computed where its layout
 * needs them; anything else (the data) gets a trans op. */
static ValId transposed(Rebuild *rb, ValId x, Loc loc, int depth) {
    Func *f = rb->f;
    if (!x || val_type(f, x).rank != 2)
        return x;
    if (rb->memo[x])
        return rb->memo[x];
    Type t = swapped(val_type(f, x));
    Op *d = def_of(f, x), *nw = NULL;
    if (d && depth < 8 && d->code == OP_EXPAND_DIMS && val_type(f, d->args[0]).rank == 1) {
        nw = op_new(f, NULL, OP_EXPAND_DIMS, loc, t, d->args, 1);
        nw->attr[0] = 1 - d->attr[0];
    } else if (d && depth < 8 && rebuildable(f, d)) {
        ValId args[4];
        for (int k = 0; k < d->nargs; k++)
            args[k] = transposed(rb, d->args[k], loc, depth + 1);
        nw = op_new(f, NULL, (OpCode)d->code, loc, t, args, d->nargs);
        memcpy(nw->attr, d->attr, sizeof d->attr);
        memcpy(nw->str, d->str, sizeof d->str);
    } else {
        nw = op_new(f, NULL, OP_TRANS, loc, t, &x, 1);
    }
    push(rb, nw);
    return rb->memo[x] = nw->res[0];
}

static void rewrite(Rebuild *rb, Op *op) {
    Func *f = rb->f;
    ValId args[8];
    int n = op->nargs < 8 ? op->nargs : 8;
    for (int k = 0; k < n; k++)
        args[k] = transposed(rb, op->args[k], op->loc, 0);
    if (op->code == OP_STORE) {
        memcpy(op->args, args, sizeof(ValId) * (size_t)n);
        push(rb, op);
        return;
    }
    /* the load reads the transposed block; op becomes the trans back, so
     * its result keeps its ValId and every user */
    Op *ld = op_new(f, NULL, OP_LOAD, op->loc, swapped(val_type(f, op->res[0])), args, n);
    memcpy(ld->attr, op->attr, sizeof op->attr);
    memcpy(ld->str, op->str, sizeof op->str);
    push(rb, ld);
    op->code = OP_TRANS;
    op->args[0] = ld->res[0];
    op->nargs = 1;
    memset(op->attr, 0, sizeof op->attr);
    memset(op->str, 0, sizeof op->str);
    push(rb, op);
}

/* A memo for rb's transposed values: new values get ids past nvals, the
 * memo covers the old ones. */
static int start_memo(Rebuild *rb, Loc loc) {
    Func *f = rb->f;
    if (rb->memo)
        return 0;
    rb->memo = arena_alloc(f->arena, sizeof(ValId) * (size_t)f->nvals);
    if (!rb->memo)
        return diag_error(f->ctx, loc, MT_ERR_NOMEM, "out of memory");
    memset(rb->memo, 0, sizeof(ValId) * (size_t)f->nvals);
    return 0;
}

static int count_arg(const Op *op, ValId v) {
    int n = 0;
    for (int k = 0; k < op->nargs; k++)
        n += op->args[k] == v;
    return n;
}

/* Is the load's value read by dots only, as an operand? */
static bool only_dot_operand(const Region *body, ValId v) {
    bool used = false;
    for (int i = 0; i < body->nops; i++) {
        const Op *op = body->ops[i];
        int n = count_arg(op, v);
        if (n && (op->code != OP_DOT || op->args[2] == v))
            return false;
        used |= n > 0;
    }
    return used;
}

/* Can carry k of the for loop be held transposed?  Its pointers start
 * running down the columns (column_access's test on the init); in the
 * body it is read only as the pointer of loads whose values only dots
 * read (a K-major operand), and by one addptr advancing it, whose result
 * only the yield takes; nothing reads it after the loop. */
static bool transposable_carry(Func *f, const Op *loop, int k) {
    ValId p = loop->iters[k], init = loop->args[3 + k], y = loop->yields[k];
    Type pt = val_type(f, p);
    if (!pt.is_ptr || pt.rank != 2 || pt.shape[0] < 4 || pt.shape[1] < 2 ||
        !unit_along(f, init, 0, 0) || unit_along(f, init, 1, 0) ||
        region_uses(&f->body, loop->res[k]) || val(f, y)->kind != VK_OP)
        return false;
    Op *adv = val(f, y)->def;
    if (adv->code != OP_ADDPTR || adv->args[0] != p || adv->args[1] == p)
        return false;
    for (int j = 0; j < loop->nres; j++)
        if ((j != k && loop->yields[j] == y) || loop->yields[j] == p)
            return false;
    bool loads = false;
    Region *body = loop->body;
    for (int i = 0; i < body->nops; i++) {
        Op *op = body->ops[i];
        Region *rs[2];
        for (int j = 0, n = op_regions(op, rs); j < n; j++)
            if (region_uses(rs[j], p) || region_uses(rs[j], y))
                return false;
        if (count_arg(op, y))
            return false;
        int n = count_arg(op, p);
        if (!n || op == adv)
            continue;
        if (op->code != OP_LOAD || n != 1 || op->args[0] != p ||
            !only_dot_operand(body, op->res[0]))
            return false;
        for (int a = 1; a < op->nargs; a++) { /* scalars, or blocks that broadcast */
            Type t = op->args[a] ? val_type(f, op->args[a]) : type_scalar(DT_I32);
            if (t.rank != 0 && (t.rank != 2 || (t.shape[0] != 1 && t.shape[0] != pt.shape[0]) ||
                                (t.shape[1] != 1 && t.shape[1] != pt.shape[1])))
                return false;
        }
        loads = true;
    }
    return loads;
}

/* Carry k held transposed: its init rebuilt transposed before the loop
 * (into rb), the carry, its advance and the loop's result retyped, and
 * each load of it in the body a load of the transposed block and a trans
 * back, its mask and other rebuilt transposed in the body. */
static int transpose_carry(Rebuild *rb, Op *loop, int k) {
    Func *f = rb->f;
    ValId p = loop->iters[k];
    loop->args[3 + k] = transposed(rb, loop->args[3 + k], loop->loc, 0);
    Type t = swapped(val_type(f, p));
    f->vals[p].type = t;
    f->vals[loop->res[k]].type = t;
    Op *adv = val(f, loop->yields[k])->def;
    Rebuild in = {f, NULL, 0, 0, NULL};
    if (start_memo(&in, loop->loc) < 0)
        return -1;
    in.memo[p] = p; /* it holds the transposed pointers now */
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op == adv) {
            op->args[1] = transposed(&in, op->args[1], op->loc, 0);
            f->vals[op->res[0]].type = t;
            push(&in, op);
        } else if (op->code == OP_LOAD && op->args[0] == p) {
            rewrite(&in, op);
        } else {
            push(&in, op);
        }
    }
    loop->body->ops = in.ops;
    loop->body->nops = in.n;
    loop->body->cap = in.cap;
    return 0;
}

int pass_mem_order(Func *f) {
    Region *r = &f->body;
    Rebuild rb = {f, NULL, 0, 0, NULL};
    bool changed = false;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (column_access(f, op)) {
            if (start_memo(&rb, op->loc) < 0)
                return -1;
            rewrite(&rb, op);
            changed = true;
            continue;
        }
        for (int k = 0; op->code == OP_FOR && k < op->nres; k++)
            if (transposable_carry(f, op, k)) {
                if (start_memo(&rb, op->loc) < 0 || transpose_carry(&rb, op, k) < 0)
                    return -1;
                changed = true;
            }
        push(&rb, op);
    }
    if (changed) {
        r->ops = rb.ops;
        r->nops = rb.n;
        r->cap = rb.cap;
    }
    return 0;
}
