/* ir.c: construction of the SSA IR.
 *
 * A Func owns a dense array of Values (ValId indexes it; 0 is "none") and a
 * Region of ops.  Params, constants, loop indices and loop-carried
 * arguments are Values without an op; constants are interned so that two
 * uses of 2.5f are the same ValId, which makes CSE keys trivial.  A `for`
 * op owns a body Region, its index, one carried argument and one yield per
 * result.  Builders here do no type checking: elab.c and the passes compute
 * result types with ir_infer_type (typerules.c), and ir_verify checks the
 * whole function after every stage. */
#include "mt.h"

#include <math.h>
#include <string.h>
#include <strings.h>

const OpInfo op_info[OP_COUNT] = {
#define OP(e, name, nargs, rule, flags, kind, attrs, optional, identity, \
           text, ftext, btext)                                             \
    {name, nargs, rule, flags, kind, attrs, optional, identity, text, ftext, \
     btext},
#include "ops.def"
#undef OP
};

const char *const dot_precision_names[5] = {"ieee", "tf32", "tf32x3", "bf16x3", "bf16x6"};

int dot_precision_of(const char *name) {
    for (int i = 0; name && i < 5; i++)
        if (!strcasecmp(name, dot_precision_names[i]))
            return i;
    return -1;
}
/* In ConvertHow order. */
static const char *const convert_hows[] = {"shared", "recompute"};
/* An atomic's sem * 3 + scope (MemSem, MemScope). */
static const char *const memory_orders[] = {
    "relaxed_gpu", "relaxed_cta", "relaxed_sys", "acquire_gpu", "acquire_cta", "acquire_sys",
    "release_gpu", "release_cta", "release_sys", "acq_rel_gpu", "acq_rel_cta", "acq_rel_sys"};
/* In MemHint order. */
static const char *const mem_hints[] = {"none", "ca", "cg", "cv", "wb", "cs", "wt",
                                        "volatile", "evict_first", "evict_last"};

const AttrInfo attr_info[AS_COUNT] = {
    [AS_NONE] = {0, {0, 0}, NULL, 0, 0, {0, 0}, 0},
    [AS_AXIS] = {1, {"axis", 0}, NULL, 0, 0, {0, 0}, 0},
    [AS_RANGE] = {2, {"start", "end"}, NULL, 0, 0, {0, 0}, 0},
    [AS_SHAPE] = {0, {0, 0}, NULL, 0, 0, {0, 0}, 0},
    /* a dot's input precision, and (fp8 on wgmma) max_num_imprecise_acc:
     * 0 none, else the K elements summed apart before each f32 add */
    [AS_PRECISION] = {2, {"input_precision", "imprecise_acc"}, dot_precision_names,
                      DOT_IR_PRECISIONS, 2, {0, 0}, 2},
    [AS_CONVERT] = {1, {"via", 0}, convert_hows, 2, 0, {0, 0}, 0},
    [AS_INDEX] = {1, {"index", 0}, NULL, 0, 0, {0, 0}, 0},
    [AS_MEMORY] = {1, {"mem", 0}, memory_orders, 12, 0, {0, 0}, 0},
    [AS_SCAN] = {2, {"axis", "reverse"}, NULL, 0, 0, {0, 0}, 0}, /* tlscan.c */
    [AS_MEMHINT] = {2, {"cache", "evict"}, mem_hints, MEM_NHINTS, 3, {0, 0}, 0},
    [AS_HINT] = {1, {"value", 0}, NULL, 0, 0, {0, 0}, 0},
    /* tldebug.c: print's prefix, assert's message and function */
    [AS_PRINT] = {1, {"hex", 0}, NULL, 0, 1, {"prefix", 0}, 0},
    [AS_ASSERT] = {0, {0, 0}, NULL, 0, 0, {"msg", "func"}, 0},
    [AS_ASM] = {2, {"pack", "pure"}, NULL, 0, 0, {"asm", "constraints"}, 0},
    [AS_STAGES] = {1, {"num_stages", 0}, NULL, 0, 1, {0, 0}, 0},
    [AS_LIBDEVICE] = {1, {"fn", 0}, libdevice_symbol_names, LIBDEVICE_NSYMS, 0, {0, 0}, 0},
};

Func *func_new(Ctx *c, const char *name) {
    Func *f = arena_alloc(c->arena, sizeof *f);
    f->ctx = c;
    f->arena = c->arena;
    f->name = arena_strdup(c->arena, name);
    f->num_warps = 4;
    func_new_value(f, VK_NONE, type_scalar(DT_VOID)); /* ValId 0 */
    return f;
}

ValId func_new_value(Func *f, ValKind kind, Type t) {
    Value v;
    memset(&v, 0, sizeof v);
    v.type = t;
    v.kind = (uint8_t)kind;
    v.layout = -1;
    VEC_PUSH(f->arena, f->vals, f->nvals, f->capvals, v);
    return (ValId)(f->nvals - 1);
}

ValId func_add_param(Func *f, const char *name, Type t) {
    ValId id = func_new_value(f, VK_PARAM, t);
    f->vals[id].name = arena_strdup(f->arena, name);
    f->vals[id].param_index = f->nparams;
    int cap = f->nparams;
    ValId *p = arena_alloc(f->arena, sizeof(ValId) * (size_t)(f->nparams + 1));
    if (f->nparams)
        memcpy(p, f->params, sizeof(ValId) * (size_t)cap);
    p[f->nparams++] = id;
    f->params = p;
    return id;
}

/* Constants are interned through an open-addressing table keyed by
 * (dtype, bits): unrolled loops can create tens of thousands of them. */
static uint64_t const_hash(DType d, uint64_t bits) {
    uint64_t h = hash_bytes(HASH_INIT, &bits, sizeof bits);
    return hash_bytes(h, &d, sizeof d);
}

static bool const_matches(const Value *v, DType d, uint64_t bits) {
    uint64_t vb;
    memcpy(&vb, &v->c, sizeof vb);
    return v->kind == VK_CONST && v->type.dtype == d && !v->type.is_ptr &&
           !v->type.rank && vb == bits;
}

static ValId const_find(Func *f, DType d, uint64_t bits) {
    if (!f->const_slots)
        return 0;
    for (uint64_t i = const_hash(d, bits) & (uint64_t)(f->const_cap - 1);;
         i = (i + 1) & (uint64_t)(f->const_cap - 1)) {
        ValId id = f->const_slots[i];
        if (!id)
            return 0;
        if (const_matches(&f->vals[id], d, bits))
            return id;
    }
}

static void const_insert(Func *f, ValId id, DType d, uint64_t bits) {
    if (2 * (f->nconsts + 1) > f->const_cap) {
        int cap = f->const_cap ? 2 * f->const_cap : 64;
        ValId *slots = arena_alloc(f->arena, sizeof(ValId) * (size_t)cap);
        if (!slots)
            return; /* without an oom handler: interning degrades, stays correct */
        ValId *old = f->const_slots;
        int oldcap = f->const_cap;
        f->const_slots = slots;
        f->const_cap = cap;
        f->nconsts = 0;
        for (int i = 0; i < oldcap; i++)
            if (old[i]) {
                uint64_t ob;
                memcpy(&ob, &f->vals[old[i]].c, sizeof ob);
                const_insert(f, old[i], (DType)f->vals[old[i]].type.dtype, ob);
            }
    }
    uint64_t i = const_hash(d, bits) & (uint64_t)(f->const_cap - 1);
    while (f->const_slots[i])
        i = (i + 1) & (uint64_t)(f->const_cap - 1);
    f->const_slots[i] = id;
    f->nconsts++;
}

static ValId const_new(Func *f, DType d, uint64_t bits) {
    ValId id = func_new_value(f, VK_CONST, type_scalar(d));
    memcpy(&f->vals[id].c, &bits, sizeof bits);
    const_insert(f, id, d, bits);
    return id;
}

ValId const_int(Func *f, DType d, int64_t v) {
    v = dtype_wrap_int(d, v);
    union { int64_t i; double f; } c = {.i = v};
    uint64_t bits;
    memcpy(&bits, &c, sizeof bits);
    ValId id = const_find(f, d, bits);
    return id ? id : const_new(f, d, bits);
}

ValId const_float(Func *f, DType d, double v) {
    double x = dtype_round_float(d, v);
    if (isnan(x))
        x = NAN; /* one canonical NaN */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    ValId id = const_find(f, d, bits);
    return id ? id : const_new(f, d, bits);
}

ValId const_f32(Func *f, double v) { return const_float(f, DT_F32, v); }

ValId const_bool(Func *f, bool v) { return const_int(f, DT_I1, v); }

bool val_is_const(Func *f, ValId v) {
    return v > 0 && v < f->nvals && f->vals[v].kind == VK_CONST;
}

void region_push(Func *f, Region *r, Op *op) {
    VEC_PUSH(f->arena, r->ops, r->nops, r->cap, op);
}

Op *op_new(Func *f, Region *r, OpCode code, Loc loc, Type rtype,
           const ValId *args, int nargs) {
    Op *op = arena_alloc(f->arena, sizeof *op);
    op->code = (uint16_t)code;
    op->loc = loc;
    op->nargs = nargs;
    if (nargs) {
        op->args = arena_alloc(f->arena, sizeof(ValId) * (size_t)nargs);
        memcpy(op->args, args, sizeof(ValId) * (size_t)nargs);
    }
    if (rtype.dtype != DT_VOID) {
        op->nres = 1;
        op->res = arena_alloc(f->arena, sizeof(ValId));
        op->res[0] = func_new_value(f, VK_OP, rtype);
        f->vals[op->res[0]].def = op;
    }
    if (r)
        region_push(f, r, op);
    return op;
}

Op *op_new_for(Func *f, Region *r, Loc loc, ValId start, ValId stop,
               ValId step, const ValId *inits, int ncarry) {
    Op *op = arena_alloc(f->arena, sizeof *op);
    op->code = OP_FOR;
    op->loc = loc;
    op->nargs = 3 + ncarry;
    op->args = arena_alloc(f->arena, sizeof(ValId) * (size_t)op->nargs);
    op->args[0] = start;
    op->args[1] = stop;
    op->args[2] = step;
    for (int i = 0; i < ncarry; i++)
        op->args[3 + i] = inits[i];
    op->body = arena_alloc(f->arena, sizeof(Region));
    op->index = func_new_value(f, VK_LOOP_INDEX, f->vals[start].type);
    op->nres = ncarry;
    if (ncarry) {
        op->iters = arena_alloc(f->arena, sizeof(ValId) * (size_t)ncarry);
        op->yields = arena_alloc(f->arena, sizeof(ValId) * (size_t)ncarry);
        op->res = arena_alloc(f->arena, sizeof(ValId) * (size_t)ncarry);
    }
    for (int i = 0; i < ncarry; i++) {
        Type t = f->vals[inits[i]].type;
        op->iters[i] = func_new_value(f, VK_LOOP_ARG, t);
        op->res[i] = func_new_value(f, VK_OP, t);
        f->vals[op->res[i]].def = op;
    }
    if (r)
        region_push(f, r, op);
    return op;
}

/* nres results of the given types, and room for their yields */
static void region_results(Func *f, Op *op, const Type *types, int nres, bool carried) {
    op->nres = nres;
    if (!nres)
        return;
    op->res = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    op->yields = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    if (carried)
        op->iters = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    for (int i = 0; i < nres; i++) {
        if (carried)
            op->iters[i] = func_new_value(f, VK_LOOP_ARG, types[i]);
        op->res[i] = func_new_value(f, VK_OP, types[i]);
        f->vals[op->res[i]].def = op;
    }
}

Op *op_new_if(Func *f, Region *r, Loc loc, ValId cond, const Type *types, int nres) {
    Op *op = arena_alloc(f->arena, sizeof *op);
    op->code = OP_IF;
    op->loc = loc;
    op->nargs = 1;
    op->args = arena_alloc(f->arena, sizeof(ValId));
    op->args[0] = cond;
    op->body = arena_alloc(f->arena, sizeof(Region));
    op->alt = arena_alloc(f->arena, sizeof(Region));
    region_results(f, op, types, nres, false);
    if (nres)
        op->alt_yields = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    if (r)
        region_push(f, r, op);
    return op;
}

Op *op_new_while(Func *f, Region *r, Loc loc, const ValId *inits, int ncarry) {
    Op *op = arena_alloc(f->arena, sizeof *op);
    op->code = OP_WHILE;
    op->loc = loc;
    op->nargs = ncarry;
    Type *types = arena_alloc(f->arena, sizeof(Type) * (size_t)(ncarry + 1));
    if (ncarry) {
        op->args = arena_alloc(f->arena, sizeof(ValId) * (size_t)ncarry);
        memcpy(op->args, inits, sizeof(ValId) * (size_t)ncarry);
    }
    for (int i = 0; i < ncarry; i++)
        types[i] = f->vals[inits[i]].type;
    op->body = arena_alloc(f->arena, sizeof(Region));
    op->alt = arena_alloc(f->arena, sizeof(Region));
    op->alt_yields = arena_alloc(f->arena, sizeof(ValId));
    region_results(f, op, types, ncarry, true);
    if (r)
        region_push(f, r, op);
    return op;
}

int op_niters(const Op *op) {
    if (!op->iters)
        return 0;
    return op_info[op->code].rule == R_COMBINE ? 2 * op->nres
           : op->code == OP_MAP               ? op->nargs
                                              : op->nres;
}

/* Is v an operand or a yield of an op of r or of a region inside it? */
bool region_uses(const Region *r, ValId v) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        int nalt = op->code == OP_WHILE ? 1 : op->nres; /* while: its condition */
        for (int k = 0; k < op->nargs; k++)
            if (op->args[k] == v)
                return true;
        for (int k = 0; op->yields && k < op->nres; k++)
            if (op->yields[k] == v)
                return true;
        for (int k = 0; op->alt_yields && k < nalt; k++)
            if (op->alt_yields[k] == v)
                return true;
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (region_uses(rs[k], v))
                return true;
    }
    return false;
}

int op_regions(const Op *op, Region *out[2]) {
    int n = 0;
    if (op->code == OP_WHILE && op->alt)
        out[n++] = op->alt;
    if (op->body)
        out[n++] = op->body;
    if (op->code == OP_IF && op->alt)
        out[n++] = op->alt;
    return n;
}

bool op_holds(const Op *op, bool (*is)(const Op *)) {
    if (is(op))
        return true;
    Region *rs[2];
    for (int k = 0, n = op_regions(op, rs); k < n; k++)
        for (int i = 0; i < rs[k]->nops; i++)
            if (op_holds(rs[k]->ops[i], is))
                return true;
    return false;
}

Op *op_new_results(Func *f, Region *r, OpCode code, Loc loc, const ValId *args, int nargs,
                   const Type *types, int nres) {
    Op *op = op_new(f, NULL, code, loc, type_scalar(DT_VOID), args, nargs);
    op->nres = nres;
    op->res = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    for (int k = 0; k < nres; k++) {
        op->res[k] = func_new_value(f, VK_OP, types[k]);
        f->vals[op->res[k]].def = op;
    }
    if (r)
        region_push(f, r, op);
    return op;
}

/* tlscan.c's reduce and scan: results typed from operand 0's shape (a
 * reduce drops the axis), one per operand with its element type; 2n
 * scalar combine parameters (the left partial's n, then the right's),
 * n yields to fill, an empty body. */
Op *op_copy(Func *f, Region *r, const Op *d, const ValId *args) {
    Op *op = op_new(f, r, (OpCode)d->code, d->loc,
                    d->nres ? f->vals[d->res[0]].type : type_scalar(DT_VOID), args, d->nargs);
    op->attr[0] = d->attr[0];
    op->attr[1] = d->attr[1];
    op->str[0] = d->str[0];
    op->str[1] = d->str[1];
    return op;
}

Op *op_new_map(Func *f, Region *r, Loc loc, const ValId *args, int n) {
    Op *op = arena_alloc(f->arena, sizeof *op);
    op->code = OP_MAP;
    op->loc = loc;
    op->nargs = n;
    op->args = arena_alloc(f->arena, sizeof(ValId) * (size_t)n);
    op->iters = arena_alloc(f->arena, sizeof(ValId) * (size_t)n);
    op->body = arena_alloc(f->arena, sizeof(Region));
    for (int k = 0; k < n; k++) {
        op->args[k] = args[k];
        op->iters[k] = func_new_value(f, VK_LOOP_ARG, type_elem(f->vals[args[k]].type));
    }
    if (r)
        region_push(f, r, op);
    return op;
}

void op_map_results(Func *f, Op *op, const Type *elems, int nres) {
    Type shape = f->vals[op->args[0]].type;
    op->nres = nres;
    op->res = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    op->yields = arena_alloc(f->arena, sizeof(ValId) * (size_t)nres);
    for (int k = 0; k < nres; k++) {
        op->res[k] = func_new_value(f, VK_OP, type_with_elem(shape, elems[k]));
        f->vals[op->res[k]].def = op;
        op->yields[k] = 0;
    }
}

Op *op_new_combine(Func *f, Region *r, OpCode code, Loc loc, const ValId *args,
                   int n, int64_t axis, int64_t reverse) {
    Op *op = arena_alloc(f->arena, sizeof *op);
    op->code = (uint16_t)code;
    op->loc = loc;
    op->nargs = op->nres = n;
    op->attr[0] = axis;
    op->attr[1] = reverse;
    op->args = arena_alloc(f->arena, sizeof(ValId) * (size_t)n);
    op->res = arena_alloc(f->arena, sizeof(ValId) * (size_t)n);
    op->iters = arena_alloc(f->arena, sizeof(ValId) * (size_t)(2 * n));
    op->yields = arena_alloc(f->arena, sizeof(ValId) * (size_t)n);
    op->body = arena_alloc(f->arena, sizeof(Region));
    Type t0 = f->vals[args[0]].type, rt = t0;
    if (op_info[code].kind == K_REDUCE && t0.rank > 0 && axis >= 0 && axis < t0.rank) {
        rt.rank = (uint8_t)(t0.rank - 1);
        for (int i = (int)axis; i < rt.rank; i++)
            rt.shape[i] = t0.shape[i + 1];
        rt.shape[rt.rank] = 0;
    }
    for (int k = 0; k < n; k++) {
        Type e = type_elem(f->vals[args[k]].type);
        op->args[k] = args[k];
        op->res[k] = func_new_value(f, VK_OP, type_with_elem(rt, e));
        f->vals[op->res[k]].def = op;
    }
    for (int k = 0; k < 2 * n; k++)
        op->iters[k] = func_new_value(f, VK_LOOP_ARG, type_elem(f->vals[args[k % n]].type));
    if (r)
        region_push(f, r, op);
    return op;
}
