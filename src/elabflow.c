/* elabflow.c: runtime control flow of the elaborator: loops and ifs on
 * runtime values.
 *
 * Input: a for, while or if statement (or a conditional expression) whose
 * bounds or condition elab.c found to be runtime values.  Output: a for,
 * while or if op in the current region, its regions filled by running the
 * statements (elab.c's exec_block) with the op's carried arguments bound,
 * and the scope afterwards: carried names bound to the op's results.
 *
 * Invariants: a loop carries the names assigned in its body that are bound
 * before it, part by part (a tuple item by item, a block pointer by its
 * offsets); names first bound inside a loop, or in one branch of an if,
 * are unbound after it.  Both branches of an if start from the same scope
 * and are joined afterwards (join_value).  A return under a runtime if
 * takes the rest of the function into each branch (Elab.cont). */
#include "mt.h"

#include <string.h>

static bool same_ct(CV a, CV b) {
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case CV_NONE: return true;
    case CV_INT: case CV_BOOL: return a.i == b.i;
    case CV_FLOAT: return a.f == b.f || (a.f != a.f && b.f != b.f);
    case CV_STR: return a.n == b.n && !memcmp(a.s, b.s, (size_t)a.n);
    case CV_DTYPE: return a.sub == b.sub && a.i == b.i;
    case CV_TENSOR: return a.v == b.v;
    case CV_BUILTIN: case CV_MODULE: return a.sub == b.sub && a.s == b.s;
    case CV_JITFN: return a.fn == b.fn;
    default: return false;
    }
}

/* Names assigned anywhere in stmts (first-appearance order): the
 * candidates for a runtime loop's carried values, found before the body
 * runs because the for op needs its carries up front. */
typedef struct NameList {
    const char **names;
    Loc *locs;
    int n, cap, capl;
} NameList;

static void names_add(Elab *E, NameList *l, const char *name, Loc loc) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name))
            return;
    int n2 = l->n;
    VEC_PUSH(E->c->arena, l->locs, n2, l->capl, loc);
    VEC_PUSH(E->c->arena, l->names, l->n, l->cap, name);
}

static void collect_target(Elab *E, NameList *l, Node *t, int depth) {
    if (!t || depth > MAX_NEST)
        return;
    if (t->kind == ND_NAME && t->name)
        names_add(E, l, t->name, t->loc);
    else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
        for (int i = 0; i < t->nitems; i++)
            collect_target(E, l, t->items[i], depth + 1);
}

static void collect_assigned(Elab *E, NameList *l, Node **stmts, int n, int depth) {
    if (depth > MAX_NEST)
        return;
    for (int i = 0; i < n; i++) {
        Node *s = stmts[i];
        if (!s)
            continue;
        switch (s->kind) {
        case ND_ASSIGN:
            for (int k = 0; k < s->nitems; k++)
                collect_target(E, l, s->items[k], depth);
            break;
        case ND_ANNASSIGN:
            if (s->rhs && s->nitems > 0)
                collect_target(E, l, s->items[0], depth);
            break;
        case ND_AUGASSIGN:
            if (s->nitems > 0)
                collect_target(E, l, s->items[0], depth);
            break;
        case ND_FOR:
        case ND_WHILE:
        case ND_IF:
            collect_assigned(E, l, s->body, s->nbody, depth + 1);
            collect_assigned(E, l, s->orelse, s->norelse, depth + 1);
            break;
        default:
            break;
        }
    }
}

/* A carried value enters the loop as SSA: a compile-time number before
 * the loop becomes a constant of its default type. */
static int carry_init(Elab *E, const char *name, CV v, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR || cv_is_num(v))
        return cv_materialise(E, v, loc, out);
    return elab_err(E, loc, MT_ERR_TYPE,
                    "loop-carried variable '%s' must be a number or a tensor before the "
                    "loop, got %s",
                    name, cv_kind_name(E, v));
}

/* What the body leaves in a carried name must keep the carry's type: SSA
 * loop arguments have one type; a compile-time number is converted when it
 * fits, the usual mistake (a scalar accumulator that becomes a block) is
 * named with its fix. */
static int yield_value(Elab *E, const char *name, CV v, Type ct, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        if (type_eq(t, ct)) {
            *out = v.v;
            return 0;
        }
        if (ct.rank == 0 && t.rank > 0)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes type from %s to %s; "
                            "initialise it with tl.zeros",
                            name, elab_type_text(E, ct), elab_type_text(E, t));
        return elab_err(E, loc, MT_ERR_TYPE,
                        "loop-carried variable '%s' changes type from %s to %s",
                        name, elab_type_text(E, ct), elab_type_text(E, t));
    }
    if (cv_is_num(v) && ct.rank == 0 && !ct.is_ptr) {
        bool ok = (v.kind == CV_BOOL) == (ct.dtype == DT_I1) &&
                  !(v.kind == CV_FLOAT && ct.dtype != DT_F32);
        if (ok) {
            if (v.kind == CV_INT && ct.dtype == DT_I32 && !fits_i32(v.i))
                ok = false;
            else
                return cv_convert(E, v, (DType)ct.dtype, loc, out);
        }
        ValId m;
        if (cv_materialise(E, v, loc, &m) < 0)
            return -1;
        return elab_err(E, loc, MT_ERR_TYPE,
                        "loop-carried variable '%s' changes type from %s to %s",
                        name, elab_type_text(E, ct), elab_type_text(E, val_type(E->f, m)));
    }
    return elab_err(E, loc, MT_ERR_TYPE, "loop-carried variable '%s' changes type from %s to %s",
                    name, elab_type_text(E, ct), cv_kind_name(E, v));
}

/* A runtime loop bound as Triton's to_tensor makes it: a number becomes a
 * constant of its own type (i32, u32 or i64), a tensor must be a scalar
 * integer. */
static int loop_bound(Elab *E, CV v, Loc loc, const char *what, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        if (t.rank || t.is_ptr || !dtype_is_int((DType)t.dtype))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "for loop %s must be a scalar integer, got %s", what,
                            elab_type_text(E, t));
        *out = v.v;
        return 0;
    }
    if (cv_is_intlike(v))
        return cv_materialise(E, cv_int(v.i), loc, out);
    return elab_err(E, loc, MT_ERR_TYPE, "for loop %s must be an integer, got %s", what,
                    cv_kind_name(E, v));
}

/* The three bounds of a runtime loop in one integer type (Triton promotes
 * start, stop and step together), signed: the index is i32 or i64. */
static int loop_bounds(Elab *E, const CV b[3], const Loc locs[3], ValId out[3]) {
    static const char *const what[3] = {"start", "stop", "step"};
    DType d = DT_VOID;
    for (int i = 0; i < 3; i++) {
        if (loop_bound(E, b[i], locs[i], what[i], &out[i]) < 0)
            return -1;
        DType di = (DType)val_type(E->f, out[i]).dtype;
        d = d == DT_VOID ? di : integer_promote(d, di);
    }
    d = dtype_info[d].bits > 32 ? DT_I64 : DT_I32;
    for (int i = 0; i < 3; i++)
        if (val_type(E->f, out[i]).dtype != d && elab_cast(E, out[i], d, locs[i], &out[i]) < 0)
            return -1;
    return 0;
}

/* The names a loop carries: those assigned in its body (and condition)
 * that are bound before it.  A name's value is carried by its parts: a
 * tensor or number is one SSA carry, a tuple each of its items, and any
 * other compile-time value none (it must stay the same: `shapes` keeps
 * the value before the loop to rebuild and check it). */
typedef struct Carried {
    const char **names;
    CV *shapes;
    int n;
    ValId *inits; /* the flat SSA carries of all names, in order */
    int nflat, capflat;
} Carried;

/* Values whose parts (items) are carried and joined one by one. */
static bool cv_has_parts(CV v) {
    return v.kind == CV_TUPLE || v.kind == CV_BLOCKPTR || v.kind == CV_TENSORDESC;
}

/* Whether part i of such a value is part of its type: a block pointer's
 * block_shape and order, a tensor descriptor's block_shape and padding
 * (items base, shape x r, strides x r, then these); they must be equal
 * wherever the value is joined. */
static bool part_is_type(CV v, int i) {
    if (v.kind == CV_BLOCKPTR)
        return i >= 1 + 3 * ((v.n - 1) / 5);
    if (v.kind == CV_TENSORDESC)
        return i >= 1 + 2 * ((v.n - 2) / 3);
    return false;
}

/* Whether part i of such a value may change in a loop: any item of a
 * tuple; of a block pointer (items base, shape x r, strides x r, offsets x
 * r, block_shape x r, order x r) only the offsets, which tl.advance moves
 * (the rest stays what it was, so a constant stride keeps its axis facts
 * and the block shape stays known); of a tensor descriptor any item but
 * its type's. */
static bool part_may_change(CV v, int i) {
    if (v.kind == CV_TENSORDESC)
        return !part_is_type(v, i);
    if (v.kind != CV_BLOCKPTR)
        return true;
    int r = (v.n - 1) / 5;
    return i >= 1 + 2 * r && i < 1 + 3 * r;
}

static int carry_flatten(Elab *E, Carried *cs, const char *name, CV v, Loc loc, int depth) {
    if (depth > MAX_NEST)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "'%s' is nested too deeply", name);
    if (cv_has_parts(v)) {
        for (int i = 0; i < v.n; i++)
            if (part_may_change(v, i) &&
                carry_flatten(E, cs, name, v.items[i], loc, depth + 1) < 0)
                return -1;
        return 0;
    }
    if (v.kind != CV_TENSOR && !cv_is_num(v))
        return 0; /* stays a compile-time value */
    ValId x;
    if (carry_init(E, name, v, loc, &x) < 0)
        return -1;
    VEC_PUSH(E->c->arena, cs->inits, cs->nflat, cs->capflat, x);
    return 0;
}

/* shape with its carried parts replaced, in order, by vals[*pos...]. */
static CV carry_rebuild(Elab *E, CV shape, const ValId *vals, int *pos) {
    if (cv_has_parts(shape)) {
        CV t = shape;
        t.items = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(shape.n + 1));
        for (int i = 0; i < shape.n; i++)
            t.items[i] = part_may_change(shape, i) ? carry_rebuild(E, shape.items[i], vals, pos)
                                                   : shape.items[i];
        return t;
    }
    if (shape.kind != CV_TENSOR && !cv_is_num(shape))
        return shape;
    CV v = cv_tensor(vals[(*pos)++]);
    v.ptr_const = shape.kind == CV_TENSOR && shape.ptr_const;
    return v;
}


/* What the body leaves in a carried name, part by part, as the yields of
 * the carries from *pos on. */
static int carry_yield(Elab *E, const char *name, CV shape, CV v, const Op *op, int *pos,
                       Loc loc) {
    if (cv_has_parts(shape)) {
        if (v.kind != shape.kind)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes from %s to %s", name,
                            cv_kind_name(E, shape), cv_kind_name(E, v));
        if (v.n != shape.n)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes from %d items to %d", name,
                            shape.n, v.n);
        for (int i = 0; i < shape.n; i++) {
            if (!part_may_change(shape, i)) {
                if (!same_ct(shape.items[i], v.items[i]))
                    return shape.kind == CV_BLOCKPTR
                               ? elab_err(E, loc, MT_ERR_UNSUPPORTED,
                                          "loop-carried block pointer '%s' changes more than "
                                          "its offsets in the loop; only tl.advance may move "
                                          "it", name)
                               : elab_err(E, loc, MT_ERR_TYPE,
                                          "loop-carried %s '%s' changes its block shape or "
                                          "padding in the loop", cv_kind_name(E, shape), name);
                continue;
            }
            if (carry_yield(E, name, shape.items[i], v.items[i], op, pos, loc) < 0)
                return -1;
        }
        return 0;
    }
    if (shape.kind != CV_TENSOR && !cv_is_num(shape)) {
        if (!same_ct(shape, v))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes its compile-time value in "
                            "the loop", name);
        return 0;
    }
    if (shape.kind == CV_TENSOR && v.kind == CV_TENSOR && shape.ptr_const != v.ptr_const)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "loop-carried variable '%s' changes type from %s%s to %s%s", name,
                        shape.ptr_const ? "const " : "", elab_type_text(E, cv_type(E, shape)),
                        v.ptr_const ? "const " : "", elab_type_text(E, cv_type(E, v)));
    int k = (*pos)++;
    return yield_value(E, name, v, val_type(E->f, op->iters[k]), loc, &op->yields[k]);
}

static int find_carries(Elab *E, Node **body, int nbody, const char *skip, Carried *cs) {
    NameList assigned = {0};
    collect_assigned(E, &assigned, body, nbody, 0);
    memset(cs, 0, sizeof *cs);
    cs->names = arena_alloc(E->c->arena, sizeof(char *) * (size_t)(assigned.n + 1));
    cs->shapes = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(assigned.n + 1));
    for (int i = 0; i < assigned.n; i++) {
        /* the index is rebound each iteration: an assignment in the body
         * holds for the rest of that iteration only, as in Python */
        if (skip && !strcmp(assigned.names[i], skip))
            continue;
        Binding *b = elab_scope_find(E->scope, assigned.names[i]);
        if (!b)
            continue;
        if (!cv_has_parts(b->v) && b->v.kind != CV_TENSOR && !cv_is_num(b->v)) {
            ValId unused;
            return carry_init(E, assigned.names[i], b->v, assigned.locs[i], &unused);
        }
        if (carry_flatten(E, cs, assigned.names[i], b->v, assigned.locs[i], 0) < 0)
            return -1;
        cs->shapes[cs->n] = b->v;
        cs->names[cs->n++] = assigned.names[i];
    }
    return 0;
}

/* Binds every carried name to its value rebuilt from vals (the op's iters
 * or results). */
static void bind_carries(Elab *E, const Carried *cs, const ValId *vals) {
    int pos = 0;
    for (int k = 0; k < cs->n; k++)
        elab_scope_set(E, cs->names[k], carry_rebuild(E, cs->shapes[k], vals, &pos));
}

/* A copy of the scope's bindings, to restore when a region ends. */
typedef struct ScopeSnap {
    Binding *b;
    int n;
} ScopeSnap;

static ScopeSnap scope_save(Elab *E) {
    ScopeSnap s = {arena_alloc(E->c->arena, sizeof(Binding) * (size_t)(E->scope->n + 1)),
                   E->scope->n};
    if (s.n)
        memcpy(s.b, E->scope->b, sizeof(Binding) * (size_t)s.n);
    return s;
}

static void scope_restore(Elab *E, ScopeSnap s) {
    E->scope->n = 0;
    for (int i = 0; i < s.n; i++)
        VEC_PUSH(E->c->arena, E->scope->b, E->scope->n, E->scope->cap, s.b[i]);
}

/* The body of a runtime loop (for or while) in op's body region with the
 * carried names bound to the op's iters; afterwards the scope is the one
 * before the loop (names first bound inside vanish: they have no value on
 * the zero-trip path) with the carried names bound to the op's results. */
static int loop_body(Elab *E, Op *op, const Carried *cs, Node **body, int nbody, Loc loc,
                     ScopeSnap before) {
    Region *saved = E->region;
    E->region = op->body;
    E->loop_depth++;
    int rc = elab_exec_block(E, body, nbody);
    E->loop_depth--;
    int pos = 0;
    for (int k = 0; k < cs->n && rc == 0; k++) {
        Binding *b = elab_scope_find(E->scope, cs->names[k]);
        int at = pos;
        CV v = b ? b->v : carry_rebuild(E, cs->shapes[k], op->iters, &at);
        rc = carry_yield(E, cs->names[k], cs->shapes[k], v, op, &pos, loc);
    }
    E->region = saved;
    if (rc < 0)
        return -1;
    scope_restore(E, before);
    bind_carries(E, cs, op->res);
    return 0;
}

/* while on a runtime condition: a while op whose condition region
 * evaluates the test on the carried values.  A compile-time test is false
 * (the loop never runs) or an error: without break a true one never ends. */
int elab_exec_while(Elab *E, Node *s) {
    if (s->norelse > 0)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "while/else is not supported");
    if (E->const_eval)
        return elab_err(E, s->loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    Carried cs;
    if (find_carries(E, s->body, s->nbody, NULL, &cs) < 0)
        return -1;
    ScopeSnap before = scope_save(E);
    Op *op = op_new_while(E->f, NULL, s->loc, cs.inits, cs.nflat);
    bind_carries(E, &cs, op->iters);
    Region *saved = E->region;
    E->region = op->alt;
    CV c;
    int rc = elab_eval(E, s->cond, &c);
    E->region = saved;
    if (rc < 0)
        return -1;
    Loc cl = s->cond ? s->cond->loc : s->loc;
    if (c.kind != CV_TENSOR) {
        bool t = false;
        if (cv_truth(E, c, cl, "", &t) < 0)
            return -1;
        if (t)
            return elab_err(E, cl, MT_ERR_UNSUPPORTED,
                            "'while' on a condition that is always true never ends "
                            "('break' is not supported)");
        scope_restore(E, before);
        return 0;
    }
    Type ct = cv_type(E, c);
    if (ct.rank || ct.is_ptr)
        return elab_err(E, cl, MT_ERR_TYPE, "'while' condition must be a scalar, got %s",
                        elab_type_text(E, ct));
    ValId cv = c.v;
    if (ct.dtype != DT_I1) {
        E->region = op->alt;
        ValId ne[2] = {cv, 0};
        rc = cv_materialise_like(E, cv_int(0), ct, cl, &ne[1]) < 0 ||
                     elab_emit(E, OP_CMP_NE, cl, ne, 2, 0, 0, &cv) < 0
                 ? -1
                 : 0;
        E->region = saved;
        if (rc < 0)
            return -1;
    }
    op->alt_yields[0] = cv;
    region_push(E->f, E->region, op);
    return loop_body(E, op, &cs, s->body, s->nbody, s->loc, before);
}

/* A for loop over range/tl.range/tl.static_range.  tl.static_range and
 * short loops with compile-time bounds are unrolled (the body runs once
 * per index, so compile-time values may change between iterations);
 * others become a for op whose carries are the names assigned in the body
 * that are bound before it.  Names first bound inside a runtime loop are
 * dropped after it: they have no value on the zero-trip path. */
int elab_exec_for(Elab *E, Node *s) {
    Node *tgt = s->nitems > 0 ? s->items[0] : NULL;
    if (s->norelse > 0)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "for/else is not supported");
    if (!tgt || tgt->kind != ND_NAME || !tgt->name)
        return elab_err(E, tgt ? tgt->loc : s->loc, MT_ERR_UNSUPPORTED,
                        "only for loops with a simple induction variable are supported");
    Node *it = s->rhs;
    CV callee;
    if (!it || it->kind != ND_CALL || !it->lhs)
        return elab_err(E, it ? it->loc : s->loc, MT_ERR_UNSUPPORTED,
                        "only 'for ... in range(...)' and 'for ... in tl.static_range(...)' "
                        "loops are supported");
    if (elab_eval(E, it->lhs, &callee) < 0)
        return -1;
    if (callee.kind != CV_BUILTIN ||
        (callee.sub != B_RANGE && callee.sub != B_STATIC_RANGE && callee.sub != B_TL_RANGE))
        return elab_err(E, it->loc, MT_ERR_UNSUPPORTED,
                        "only 'for ... in range(...)' and 'for ... in tl.static_range(...)' "
                        "loops are supported");
    bool is_static = callee.sub == B_STATIC_RANGE;
    Args a;
    if (elab_eval_args(E, it, &a) < 0)
        return -1;
    RangeArgs ra;
    if (bind_range(E, callee.sub, it->loc, &a, &ra) < 0)
        return -1;
    CV start = ra.start, stop = ra.stop, step = ra.step;
    bool all_ct = cv_is_intlike(start) && cv_is_intlike(stop) && cv_is_intlike(step);
    if (is_static && !all_ct)
        return elab_err(E, it->loc, MT_ERR_TYPE,
                        "tl.static_range bounds must be compile-time integers");
    const char *iname = tgt->name;
    if (all_ct) {
        if (step.i == 0)
            return elab_err(E, it->loc, MT_ERR_TYPE, "range() step must not be zero");
        uint64_t trip = 0;
        if (step.i > 0 && stop.i > start.i)
            trip = ((uint64_t)stop.i - (uint64_t)start.i - 1) / (uint64_t)step.i + 1;
        else if (step.i < 0 && stop.i < start.i)
            trip = ((uint64_t)start.i - (uint64_t)stop.i - 1) / (uint64_t)(-(step.i + 1) + 1ull) + 1;
        if (is_static || trip <= MAX_AUTO_UNROLL) {
            if (trip > (uint64_t)(MAX_UNROLL - E->unrolled))
                return elab_err(E, it->loc, MT_ERR_UNSUPPORTED,
                                "too many unrolled loop iterations (more than %d)", MAX_UNROLL);
            Binding *old = elab_scope_find(E->scope, iname);
            bool had = old != NULL;
            CV oldv = had ? old->v : cv_none();
            int64_t i = start.i;
            /* range's index is a tensor, as in Triton's loop (unrolling
             * must not make it a Python int: `i * 2**30 * 2` wraps in i32);
             * only tl.static_range's is a constexpr */
            DType idx = fits_i32(start.i) && fits_i32(stop.i) && fits_i32(step.i) ? DT_I32 : DT_I64;
            E->loop_depth++;
            for (uint64_t k = 0; k < trip; k++) {
                E->unrolled++;
                elab_scope_set(E, iname, is_static ? cv_int(i) : cv_tensor(const_int(E->f, idx, i)));
                if (elab_exec_block(E, s->body, s->nbody) < 0) {
                    E->loop_depth--;
                    return -1;
                }
                if (E->f->nvals > MAX_UNROLLED_VALUES) { /* before the host compiler chokes */
                    E->loop_depth--;
                    return elab_err(E, it->loc, MT_ERR_UNSUPPORTED,
                                    "unrolling this loop makes the kernel too large (more than "
                                    "%d values); use tl.range for a loop at run time",
                                    MAX_UNROLLED_VALUES);
                }
                if (k + 1 < trip)
                    i += step.i; /* stays within [start, stop) */
            }
            E->loop_depth--;
            if (had)
                elab_scope_set(E, iname, oldv);
            else
                elab_scope_remove(E->scope, iname);
            return 0;
        }
    }
    /* runtime loop.  A negative constant step runs the mirrored range
     * upwards, as Triton does: i = start + stop - j for j in
     * range(stop, start, -step), since start - i is a multiple of step. */
    if (E->const_eval)
        return elab_err(E, s->loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    bool negative = cv_is_intlike(step) && step.i < 0;
    if (cv_is_intlike(step) && step.i == 0)
        return elab_err(E, ra.step_loc, MT_ERR_TYPE, "range() step must not be zero");
    CV b[3] = {negative ? stop : start, negative ? start : stop,
               negative ? cv_int(-step.i) : step};
    Loc bl[3] = {ra.start_loc, ra.stop_loc, ra.step_loc};
    if (negative && step.i == INT64_MIN)
        return ct_overflow(E, ra.step_loc);
    ValId bv[3];
    if (loop_bounds(E, b, bl, bv) < 0)
        return -1;
    Carried cs;
    if (find_carries(E, s->body, s->nbody, iname, &cs) < 0)
        return -1;
    ScopeSnap before = scope_save(E);
    Op *op = op_new_for(E->f, E->region, s->loc, bv[0], bv[1], bv[2], cs.inits, cs.nflat);
    op->attr[0] = ra.num_stages;
    bind_carries(E, &cs, op->iters);
    ValId iv = op->index;
    if (negative) {
        Region *saved = E->region;
        E->region = op->body;
        ValId sum[2] = {bv[0], bv[1]}, sub[2] = {0, iv};
        int rc = elab_emit(E, OP_ADD, s->loc, sum, 2, 0, 0, &sub[0]) < 0 ||
                         elab_emit(E, OP_SUB, s->loc, sub, 2, 0, 0, &iv) < 0
                     ? -1
                     : 0;
        E->region = saved;
        if (rc < 0)
            return -1;
    }
    elab_scope_set(E, iname, cv_tensor(iv));
    return loop_body(E, op, &cs, s->body, s->nbody, s->loc, before);
}

/* ------------------------------------------------------------- runtime if */

/* What a runtime if's branches leave: per joined value, its value in each
 * branch (materialised in that branch's region) and the type both share.
 * A joined CV refers to result k as a tensor of ValId -(k + 1) until the
 * if op exists (fix_results). */
typedef struct Joins {
    Region *then_r, *else_r;
    ValId *tv, *ev;
    Type *types;
    int n, cap, capv, cape;
} Joins;

static int join_push(Elab *E, Joins *j, ValId t, ValId e, CV *out) {
    Type ty = val_type(E->f, t);
    int n = j->n, n2 = j->n;
    VEC_PUSH(E->c->arena, j->tv, n, j->capv, t);
    VEC_PUSH(E->c->arena, j->ev, n2, j->cape, e);
    VEC_PUSH(E->c->arena, j->types, j->n, j->cap, ty);
    *out = cv_tensor(-j->n);
    return 0;
}

/* x in region r: a tensor as it is, a number as a constant of type like
 * (or its own type when like has none). */
static int join_materialise(Elab *E, CV x, Type like, Region *r, Loc loc, ValId *out) {
    Region *saved = E->region;
    E->region = r;
    int rc = like.dtype != DT_VOID && x.kind != CV_TENSOR
                 ? cv_materialise_like(E, x, like, loc, out)
                 : cv_materialise(E, x, loc, out);
    E->region = saved;
    return rc;
}

/* Pointers that differ only in constness where they join, in Triton's
 * words for each kind of join. */
static int const_mismatch(Elab *E, const char *name, Type t, bool tc, bool ec, Loc loc) {
    const char *txt = elab_type_text(E, t);
    const char *a = arena_printf(E->c->arena, "%s%s", tc ? "const " : "", txt);
    const char *b = arena_printf(E->c->arena, "%s%s", ec ? "const " : "", txt);
    if (!strcmp(name, "the conditional expression"))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "Ternary expression with dynamic condition has inconsistent types %s "
                        "and %s", a, b);
    if (!strcmp(name, "the returned value"))
        return elab_err(E, loc, MT_ERR_TYPE, "Return type mismatch: %s and %s", a, b);
    return elab_err(E, loc, MT_ERR_TYPE,
                    "Mismatched type for %s between then block (%s) and else block (%s)", name,
                    a, b);
}

/* The value `name` has after a runtime if whose branches left tv and ev:
 * the same value stays; numbers and tensors become one result of the if,
 * of one type (a number takes the type of a tensor on the other side);
 * tuples join item by item.  Triton requires the same types too. */
static int join_value(Elab *E, Joins *j, const char *name, CV tv, CV ev, Loc loc, CV *out) {
    if (same_ct(tv, ev)) {
        *out = tv;
        return 0;
    }
    if (cv_has_parts(tv) && ev.kind == tv.kind && tv.n == ev.n) {
        *out = tv;
        out->items = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(tv.n + 1));
        for (int i = 0; i < tv.n; i++) {
            if (part_is_type(tv, i) && !same_ct(tv.items[i], ev.items[i]))
                return elab_err(E, loc, MT_ERR_TYPE,
                                "'%s' is a %s of another block shape (or order, or padding) "
                                "in each branch of a runtime 'if'", name,
                                cv_kind_name(E, tv));
            if (join_value(E, j, name, tv.items[i], ev.items[i], loc, &out->items[i]) < 0)
                return -1;
        }
        return 0;
    }
    bool tn = tv.kind == CV_TENSOR || cv_is_num(tv), en = ev.kind == CV_TENSOR || cv_is_num(ev);
    if (!tn || !en)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "'%s' is %s in the then branch and %s in the else branch of a "
                        "runtime 'if'; both must be numbers or tensors of one type",
                        name, cv_kind_name(E, tv), cv_kind_name(E, ev));
    Type none = type_scalar(DT_VOID);
    Type tl = tv.kind == CV_TENSOR ? cv_type(E, tv) : none;
    Type el = ev.kind == CV_TENSOR ? cv_type(E, ev) : none;
    ValId t, e;
    if (join_materialise(E, tv, el, j->then_r, loc, &t) < 0 ||
        join_materialise(E, ev, tl, j->else_r, loc, &e) < 0)
        return -1;
    Type a = val_type(E->f, t), b = val_type(E->f, e);
    if (!type_eq(a, b))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "'%s' is %s in the then branch and %s in the else branch of a "
                        "runtime 'if'; both must have one type",
                        name, elab_type_text(E, a), elab_type_text(E, b));
    bool tc = tv.kind == CV_TENSOR && tv.ptr_const, ec = ev.kind == CV_TENSOR && ev.ptr_const;
    if (tc != ec) /* constness is part of Triton's pointer type */
        return const_mismatch(E, name, a, tc, ec, loc);
    if (join_push(E, j, t, e, out) < 0)
        return -1;
    out->ptr_const = tc;
    return 0;
}

/* Placeholders -(k + 1) become the if's results. */
static CV fix_results(Elab *E, CV v, const Op *op) {
    if (v.kind == CV_TENSOR && v.v < 0) {
        v.v = op->res[-v.v - 1];
    } else if (cv_has_parts(v)) {
        CV t = v;
        t.items = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(v.n + 1));
        for (int i = 0; i < v.n; i++)
            t.items[i] = fix_results(E, v.items[i], op);
        return t;
    }
    return v;
}

/* The if op of two elaborated branches and their joined values. */
static Op *joined_if(Elab *E, const Joins *j, ValId cond, Loc loc) {
    Op *op = op_new_if(E->f, E->region, loc, cond, j->types, j->n);
    op->body = j->then_r;
    op->alt = j->else_r;
    for (int k = 0; k < j->n; k++) {
        op->yields[k] = j->tv[k];
        op->alt_yields[k] = j->ev[k];
    }
    return op;
}

static bool has_return(Node **stmts, int n, int depth) {
    for (int i = 0; i < n && depth < MAX_NEST; i++) {
        Node *s = stmts[i];
        if (!s)
            continue;
        if (s->kind == ND_RETURN)
            return true;
        if ((s->kind == ND_IF || s->kind == ND_FOR || s->kind == ND_WHILE) &&
            (has_return(s->body, s->nbody, depth + 1) ||
             has_return(s->orelse, s->norelse, depth + 1)))
            return true;
    }
    return false;
}

/* One branch of a runtime if into region r, from the scope `before`.
 * With a continuation (a return in either branch), the rest of the
 * function runs in the branch too, unless the branch returned. */
static int run_branch(Elab *E, Node **stmts, int n, Region *r, ScopeSnap before,
                      Segment *rest, ScopeSnap *after) {
    Region *saved = E->region;
    Segment *saved_cont = E->cont;
    scope_restore(E, before);
    E->region = r;
    E->returned = false;
    E->retval = cv_none();
    int rc = elab_exec_block(E, stmts, n);
    for (Segment *s = rest; s && rc == 0 && !E->returned; s = s->next) {
        E->cont = s->next;
        rc = elab_exec_block(E, s->stmts + s->pos + 1, s->n - s->pos - 1);
    }
    E->cont = saved_cont;
    E->region = saved;
    *after = scope_save(E);
    return rc;
}

static CV snap_get(ScopeSnap s, const char *name, bool *found) {
    for (int i = 0; i < s.n; i++)
        if (!strcmp(s.b[i].name, name)) {
            *found = true;
            return s.b[i].v;
        }
    *found = false;
    return cv_none();
}

/* if on a runtime scalar: an if op whose branches are elaborated from the
 * same scope.  Names assigned in a branch that exist after it (bound
 * before, or bound in both branches) are joined into the op's results.
 * A branch that contains a return takes the rest of the function with
 * it, as Triton's top-level if does: each branch runs the statements
 * after the if itself, and the function ends with the if (its value
 * joins what the branches return). */
/* The scalar i1 condition of a runtime if (Triton casts it to int1). */
static int if_condition(Elab *E, CV c, Loc cl, const char *what, ValId *out) {
    Type ct = cv_type(E, c);
    if (E->const_eval)
        return elab_err(E, cl, MT_ERR_TYPE, "module-level constants must be compile-time values");
    if (ct.rank && type_numel(ct) != 1)
        return elab_err(E, cl, MT_ERR_TYPE,
                        "the truth value of a block of %lld elements is ambiguous; %s needs "
                        "a scalar",
                        (long long)type_numel(ct), what);
    if (ct.is_ptr)
        return elab_err(E, cl, MT_ERR_TYPE, "%s needs a scalar condition, got %s", what,
                        elab_type_text(E, ct));
    /* a one-element block is its element (Triton's _unsplat) */
    if (tl_unsplat(E, c.v, cl, out) < 0)
        return -1;
    ct = val_type(E->f, *out);
    return ct.dtype == DT_I1 ? 0 : elab_cast(E, *out, DT_I1, cl, out);
}

/* x if c else y on a runtime c: an if op with one expression per branch
 * (both elaborated, as Triton does). */
int elab_eval_runtime_ifexp(Elab *E, Node *n, CV c, CV *out) {
    ValId cv;
    if (if_condition(E, c, n->cond->loc, "a conditional expression", &cv) < 0)
        return -1;
    Joins j = {0};
    j.then_r = arena_alloc(E->c->arena, sizeof(Region));
    j.else_r = arena_alloc(E->c->arena, sizeof(Region));
    Region *saved = E->region;
    CV tv, ev, r;
    E->region = j.then_r;
    int rc = elab_eval(E, n->then, &tv);
    E->region = j.else_r;
    rc = rc < 0 ? -1 : elab_eval(E, n->els, &ev);
    E->region = saved;
    if (rc < 0 || join_value(E, &j, "the conditional expression", tv, ev, n->loc, &r) < 0)
        return -1;
    *out = fix_results(E, r, joined_if(E, &j, cv, n->loc));
    return 0;
}

int elab_exec_runtime_if(Elab *E, Node *s, CV c) {
    Loc cl = s->cond ? s->cond->loc : s->loc;
    ValId cv;
    if (if_condition(E, c, cl, "'if'", &cv) < 0)
        return -1;
    bool with_rest = has_return(s->body, s->nbody, 0) || has_return(s->orelse, s->norelse, 0);
    if (with_rest && E->loop_depth > 0)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED,
                        "'return' inside a loop is not supported");
    Segment *rest = with_rest ? E->cont : NULL;
    Joins j = {0};
    j.then_r = arena_alloc(E->c->arena, sizeof(Region));
    j.else_r = arena_alloc(E->c->arena, sizeof(Region));
    ScopeSnap before = scope_save(E), ts, es;
    bool saved_ret = E->returned;
    if (run_branch(E, s->body, s->nbody, j.then_r, before, rest, &ts) < 0)
        return -1;
    bool t_ret = E->returned;
    CV t_val = E->retval;
    if (run_branch(E, s->orelse, s->norelse, j.else_r, before, rest, &es) < 0)
        return -1;
    bool e_ret = E->returned;
    CV e_val = E->retval;
    scope_restore(E, before);
    E->returned = saved_ret;
    NameList names = {0};
    CV *joined = NULL;
    CV ret = cv_none();
    if (with_rest) {
        /* the function ends in both branches: only its value joins */
        if (E->inline_depth > 0 &&
            join_value(E, &j, "the returned value", t_ret ? t_val : cv_none(),
                       e_ret ? e_val : cv_none(), s->loc, &ret) < 0)
            return -1;
    } else {
        collect_assigned(E, &names, s->body, s->nbody, 0);
        collect_assigned(E, &names, s->orelse, s->norelse, 0);
        joined = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(names.n + 1));
        for (int i = 0; i < names.n; i++) {
            bool in_t, in_e;
            CV tv = snap_get(ts, names.names[i], &in_t), ev = snap_get(es, names.names[i], &in_e);
            joined[i] = cv_none();
            joined[i].kind = CV_ELLIPSIS; /* unbound after the if */
            if (in_t && in_e &&
                join_value(E, &j, names.names[i], tv, ev, names.locs[i], &joined[i]) < 0)
                return -1;
        }
    }
    Op *op = joined_if(E, &j, cv, s->loc);
    if (with_rest) {
        E->returned = true;
        E->retval = fix_results(E, ret, op);
        return 0;
    }
    for (int i = 0; i < names.n; i++) {
        if (joined[i].kind == CV_ELLIPSIS)
            elab_scope_remove(E->scope, names.names[i]);
        else
            elab_scope_set(E, names.names[i], fix_results(E, joined[i], op));
    }
    return 0;
}
