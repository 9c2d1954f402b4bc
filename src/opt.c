/* opt.c: constant folding, common subexpression elimination and dead code
 * elimination on the SSA IR.
 *
 * Input and output: a verified Func, rewritten in place.  Every pass walks
 * the loop bodies too, never changes the type of a value (a replacement is
 * accepted only when its type equals the replaced result's type exactly,
 * fixing the original's `pid * 1.0 -> pid` bug) and leaves the function
 * verifiable; run_passes re-verifies after each pass.
 *
 * Replacements go through a map ValId -> ValId applied to operands, loop
 * inits and yields before an op is looked at, so a chain of replacements
 * resolves in one forward sweep.  Folding evaluates the op's C template
 * from ops.def (ctext.c), the very text the emitter writes, so it computes
 * exactly what the generated code would compute at run time: f32 in float
 * (not double), i32 and i64 with two's complement wrap-around, integer
 * division by zero, INT_MIN / -1 and shifts by any count as the runtime
 * defines them (Triton's GPU results, mt_kernel_rt.h); what C leaves
 * undefined in a template is left in place.  CSE keys
 * an op by its code, operands, the attributes of its schema and its
 * result type. */
#include "mt.h"

#include <string.h>

typedef struct CseEntry {
    Op *op;
    uint64_t hash;
    int next; /* previous head of the bucket, 0 = end (entries are 1-based) */
} CseEntry;

typedef struct Opt {
    Func *f;
    ValId *repl; /* 0 = not replaced */
    int nrepl;
    /* cse: a scoped hash table; entries form a stack popped at scope exit */
    int *heads;
    uint64_t mask;
    CseEntry *entries;
    int nentries, capentries;
    /* dce */
    uint8_t *live;
    bool changed;
} Opt;

static int opt_init(Opt *o, Func *f) {
    memset(o, 0, sizeof *o);
    o->f = f;
    o->nrepl = f->nvals;
    o->repl = arena_alloc(f->arena, sizeof(ValId) * (size_t)f->nvals);
    if (!o->repl)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    return 0;
}

static ValId resolve(const Opt *o, ValId v) {
    while (v > 0 && v < o->nrepl && o->repl[v])
        v = o->repl[v];
    return v;
}

static void rewrite_args(const Opt *o, Op *op) {
    for (int i = 0; i < op->nargs; i++)
        op->args[i] = resolve(o, op->args[i]);
}

static void rewrite_yields(const Opt *o, Op *op) {
    for (int k = 0; k < op->nres && op->yields; k++)
        op->yields[k] = resolve(o, op->yields[k]);
    int nalt = op->code == OP_IF ? op->nres : op->code == OP_WHILE;
    for (int k = 0; k < nalt && op->alt_yields; k++)
        op->alt_yields[k] = resolve(o, op->alt_yields[k]);
}

static bool is_region_op(const Op *op) {
    return op->code < OP_COUNT && (op_info[op->code].flags & F_REGION);
}

static void replace(Opt *o, ValId from, ValId to) {
    if (from > 0 && from < o->nrepl && from != to)
        o->repl[from] = to;
}

/* ------------------------------------------------------------------ fold */

static ValId accept(Func *f, ValId cand, Type rt) {
    return cand && type_eq(val_type(f, cand), rt) ? cand : 0;
}

/* The C template evaluated on constant operands (ctext.c computes what
 * the generated code would), as an interned constant of dtype d; 0 when
 * C leaves the value undefined, so the op stays. */
static ValId eval_const(Func *f, const char *tmpl, const ValId *args,
                        int nargs, DType d) {
    CScalar a[3];
    for (int i = 0; i < nargs && i < 3; i++) {
        const Value *x = &f->vals[args[i]];
        bool fl = dtype_is_float((DType)x->type.dtype);
        a[i].dtype = x->type.dtype;
        a[i].i = fl ? 0 : x->c.i;
        a[i].f = fl ? x->c.f : 0.0;
    }
    CScalar r;
    if (nargs > 3 || ctext_eval(tmpl, a, nargs, d, &r) < 0)
        return 0;
    return dtype_is_float(d) ? const_float(f, d, r.f) : const_int(f, d, r.i);
}

static ValId fold_select(Func *f, Op *op, Type rt) {
    ValId c = op->args[0], x = op->args[1], y = op->args[2];
    if (val_is_const(f, c)) {
        ValId arm = f->vals[c].c.i ? x : y;
        if (type_eq(val_type(f, arm), rt))
            return arm;
        if (val_is_const(f, arm) && rt.rank == 0 && !rt.is_ptr)
            return eval_const(f, "%r0", &arm, 1, (DType)rt.dtype);
        return 0;
    }
    return x == y ? accept(f, x, rt) : 0;
}

static bool is_const_value(Func *f, ValId v, int64_t iv, double fv) {
    if (!val_is_const(f, v))
        return false;
    const Value *x = &f->vals[v];
    if (dtype_is_float((DType)x->type.dtype))
        return x->c.f == fv;
    return x->type.dtype != DT_I1 && x->c.i == iv;
}

/* x + 0, x - 0 (integers: x + 0.0 would turn -0.0 into 0.0), x * 1, x / 1. */
static ValId fold_identity(Func *f, Op *op, Type rt) {
    ValId x = op->args[0], y = op->args[1];
    switch (op->code) {
    case OP_ADD:
    case OP_SUB:
        if (type_is_int(rt) && is_const_value(f, y, 0, 1.0) &&
            !dtype_is_float((DType)f->vals[y].type.dtype))
            return accept(f, x, rt);
        return 0;
    case OP_MUL:
    case OP_DIV:
        if (is_const_value(f, y, 1, 1.0))
            return accept(f, x, rt);
        return 0;
    default:
        return 0;
    }
}

/* The replacement of op's result, or 0 to keep the op.  Constant operands
 * fold through the op's C template (ops.def); no op is named here except
 * for the algebraic rewrites of select and the identities. */
static ValId fold_op(Func *f, Op *op) {
    if (op->nres != 1 || op->code >= OP_COUNT)
        return 0;
    const OpInfo *oi = &op_info[op->code];
    Type rt = val_type(f, op->res[0]);
    if (op->code == OP_SELECT && op->nargs == 3)
        return fold_select(f, op, rt);
    if (op->nargs == 2 && oi->rule == R_ARITH &&
        !(val_is_const(f, op->args[0]) && val_is_const(f, op->args[1]))) {
        ValId r = fold_identity(f, op, rt);
        if (r)
            return r;
    }
    if (op->nargs == 0 || rt.rank != 0 || rt.is_ptr ||
        oi->kind != K_ELEMENTWISE)
        return 0; /* only scalar constants exist */
    for (int i = 0; i < op->nargs; i++)
        if (!val_is_const(f, op->args[i]))
            return 0;
    const char *tmpl = op_ctext(op->code, rt);
    return tmpl ? eval_const(f, tmpl, op->args, op->nargs, (DType)rt.dtype)
                : 0;
}

static void fold_region(Opt *o, Region *r) {
    int w = 0;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        rewrite_args(o, op);
        if (is_region_op(op)) {
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                fold_region(o, rs[k]);
            rewrite_yields(o, op);
        } else {
            ValId rep = fold_op(o->f, op);
            if (rep && rep != op->res[0] && op->res[0] < o->nrepl) {
                replace(o, op->res[0], rep);
                continue;
            }
        }
        r->ops[w++] = op;
    }
    r->nops = w;
}

int pass_fold(Func *f) {
    Opt o;
    if (opt_init(&o, f) < 0)
        return -1;
    fold_region(&o, &f->body);
    return 0;
}

/* ------------------------------------------------------------------- cse */

/* Operands as a CSE key: commutative ops sorted. */
static void key_args(const Op *op, ValId out[3]) {
    for (int i = 0; i < op->nargs && i < 3; i++)
        out[i] = op->args[i];
    if ((op_info[op->code].flags & F_COMMUTE) && op->nargs == 2 &&
        out[0] > out[1]) {
        ValId t = out[0];
        out[0] = out[1];
        out[1] = t;
    }
}

/* The attributes that mean something for the op (its schema's). */
static int key_nattr(const Op *op) {
    return attr_info[op_info[op->code].attrs].nattr;
}

static uint64_t cse_hash(Func *f, const Op *op) {
    ValId k[3] = {0, 0, 0};
    key_args(op, k);
    Type t = val_type(f, op->res[0]);
    uint64_t h = HASH_INIT;
    h = hash_bytes(h, &op->code, sizeof op->code);
    h = hash_bytes(h, k, sizeof k);
    h = hash_bytes(h, op->attr, sizeof op->attr[0] * (size_t)key_nattr(op));
    h = hash_bytes(h, &t.dtype, 1);
    h = hash_bytes(h, &t.is_ptr, 1);
    h = hash_bytes(h, &t.rank, 1);
    h = hash_bytes(h, t.shape, sizeof(int32_t) * t.rank);
    return h;
}

static bool cse_equal(Func *f, const Op *a, const Op *b) {
    if (a->code != b->code || a->nargs != b->nargs)
        return false;
    for (int i = 0; i < key_nattr(a); i++)
        if (a->attr[i] != b->attr[i])
            return false;
    ValId ka[3] = {0, 0, 0}, kb[3] = {0, 0, 0};
    key_args(a, ka);
    key_args(b, kb);
    return memcmp(ka, kb, sizeof ka) == 0 &&
           type_eq(val_type(f, a->res[0]), val_type(f, b->res[0]));
}

static bool cse_candidate(const Op *op) {
    return op->code < OP_COUNT && !is_region_op(op) &&
           !op->body && /* a combine region is not part of the key */
           (op_info[op->code].flags & F_PURE) && op->nres == 1 &&
           op->nargs <= 3;
}

static int count_ops(const Region *r) {
    int n = r->nops;
    for (int i = 0; i < r->nops; i++) {
        Region *rs[2];
        for (int k = 0, nr = op_regions(r->ops[i], rs); k < nr; k++)
            n += count_ops(rs[k]);
    }
    return n;
}

static void cse_region(Opt *o, Region *r) {
    Func *f = o->f;
    int mark = o->nentries;
    int w = 0;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        rewrite_args(o, op);
        if (is_region_op(op)) {
            /* each region is its own scope: a then branch's values do
             * not dominate the else branch */
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                cse_region(o, rs[k]);
            rewrite_yields(o, op);
        } else if (cse_candidate(op)) {
            uint64_t h = cse_hash(f, op);
            int b = (int)(h & o->mask);
            Op *same = NULL;
            for (int e = o->heads[b]; e && !same; e = o->entries[e - 1].next)
                if (o->entries[e - 1].hash == h &&
                    cse_equal(f, o->entries[e - 1].op, op))
                    same = o->entries[e - 1].op;
            if (same) {
                replace(o, op->res[0], same->res[0]);
                continue;
            }
            CseEntry ent = {op, h, o->heads[b]};
            VEC_PUSH(f->arena, o->entries, o->nentries, o->capentries, ent);
            o->heads[b] = o->nentries;
        }
        r->ops[w++] = op;
    }
    r->nops = w;
    /* leaving the scope: ops of this region no longer dominate */
    while (o->nentries > mark) {
        CseEntry *e = &o->entries[--o->nentries];
        o->heads[e->hash & o->mask] = e->next;
    }
}

int pass_cse(Func *f) {
    Opt o;
    if (opt_init(&o, f) < 0)
        return -1;
    uint64_t nb = 16;
    while (nb < 2 * (uint64_t)count_ops(&f->body))
        nb *= 2;
    o.mask = nb - 1;
    o.heads = arena_alloc(f->arena, sizeof(int) * nb);
    if (!o.heads)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    cse_region(&o, &f->body);
    return 0;
}

/* ------------------------------------------------------------------- dce */

static bool region_has_effect(const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        if (is_region_op(op)) {
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                if (region_has_effect(rs[k]))
                    return true;
        } else if (op->code >= OP_COUNT ||
                   (op_info[op->code].flags & F_EFFECT) ||
                   !(op_info[op->code].flags & (F_PURE | F_READ))) {
            return true;
        }
    }
    return false;
}

static bool is_live(const Opt *o, ValId v) {
    return v > 0 && v < o->f->nvals && o->live[v];
}

static void mark(Opt *o, ValId v) {
    if (v > 0 && v < o->f->nvals && !o->live[v]) {
        o->live[v] = 1;
        o->changed = true;
    }
}

static bool any_result_live(const Opt *o, const Op *op) {
    for (int k = 0; k < op->nres && op->res; k++)
        if (is_live(o, op->res[k]))
            return true;
    return false;
}

static bool op_needed(const Opt *o, const Op *op) {
    if (is_region_op(op)) {
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (region_has_effect(rs[k]))
                return true;
        return any_result_live(o, op);
    }
    if (op->code >= OP_COUNT)
        return true;
    int fl = op_info[op->code].flags;
    if ((fl & F_EFFECT) || !(fl & (F_PURE | F_READ)))
        return true;
    return any_result_live(o, op);
}

/* A carried value matters when the loop's result is used or the body uses
 * the carried argument in something that is itself needed; an if's result
 * when it is used. */
static bool carry_live(const Opt *o, const Op *op, int k) {
    return is_live(o, op->res[k]) || (op->iters && is_live(o, op->iters[k]));
}

/* Where a region op's carried inputs start among its operands (for:
 * after start, stop, step; while: at 0); an if has none. */
static int first_carry(const Op *op) {
    return op->code == OP_FOR ? 3 : op->code == OP_WHILE ? 0 : op->nargs;
}

static void mark_region(Opt *o, const Region *r) {
    for (int i = r->nops - 1; i >= 0; i--) {
        const Op *op = r->ops[i];
        if (!op_needed(o, op))
            continue;
        if (!is_region_op(op)) {
            for (int a = 0; a < op->nargs; a++)
                mark(o, op->args[a]);
            continue;
        }
        int first = first_carry(op);
        for (int a = 0; a < first && a < op->nargs; a++)
            mark(o, op->args[a]);
        if (op->code == OP_WHILE)
            mark(o, op->alt_yields[0]);
        for (int k = 0; k < op->nres; k++) {
            if (carry_live(o, op, k)) {
                mark(o, op->yields[k]);
                if (op->code == OP_IF)
                    mark(o, op->alt_yields[k]);
                else
                    mark(o, op->args[first + k]);
            }
        }
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            mark_region(o, rs[k]);
    }
}

static void sweep_region(Opt *o, Region *r) {
    int w = 0;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (!op_needed(o, op))
            continue;
        if (is_region_op(op)) {
            int n = 0, first = first_carry(op);
            for (int k = 0; k < op->nres; k++) {
                if (!carry_live(o, op, k))
                    continue;
                if (op->iters) {
                    op->args[first + n] = op->args[first + k];
                    op->iters[n] = op->iters[k];
                }
                if (op->code == OP_IF)
                    op->alt_yields[n] = op->alt_yields[k];
                op->yields[n] = op->yields[k];
                op->res[n] = op->res[k];
                n++;
            }
            op->nres = n;
            if (op->iters)
                op->nargs = first + n;
            Region *rs[2];
            for (int k = 0, nr = op_regions(op, rs); k < nr; k++)
                sweep_region(o, rs[k]);
        }
        r->ops[w++] = op;
    }
    r->nops = w;
}

int pass_dce(Func *f) {
    Opt o;
    if (opt_init(&o, f) < 0)
        return -1;
    o.live = arena_alloc(f->arena, (size_t)f->nvals);
    if (!o.live)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    /* loop-carried liveness flows backwards around the loop: iterate */
    do {
        o.changed = false;
        mark_region(&o, &f->body);
    } while (o.changed);
    sweep_region(&o, &f->body);
    return 0;
}

/* ---------------------------------------------------------------- driver */

int run_passes(Func *f) {
    static int (*const passes[])(Func *) = {pass_fold, pass_cse, pass_dce};
    for (size_t i = 0; i < sizeof passes / sizeof passes[0]; i++)
        if (passes[i](f) < 0 || ir_verify(f) < 0)
            return -1;
    return 0;
}
