/* axis.c: axis analysis, after Triton's AxisInfo.
 *
 * Input: a Func after layout assignment (layout.c, conversions included).
 * Output: f->axis, one AxisInfo per ValId, filled once in definition order
 * (QBE's fill* style): an op's operands are always defined before it, so
 * one walk over the regions sees every operand's facts before its users.
 * The emitter only reads the result (vector loads and stores).
 *
 * What it says about an integer or pointer value along its last dim (the
 * fastest-varying one of every layout): elements come in runs of `contig`
 * consecutive values (+1 each) starting at multiples of `contig`, the
 * first element of each run is a multiple of `div` (pointers: the address
 * in bytes), and runs of `constancy` equal values start at multiples of
 * `constancy`.  All three are powers of two; a scalar, or a block whose
 * last dim is 1, is constant along it (AXIS_BIG).  `hinted`: a pointer
 * derived from a parameter whose signature promises 16-byte alignment;
 * only those get vector accesses.  tl.multiple_of, tl.max_contiguous and
 * tl.max_constancy raise div, contig and constancy to what they promise.
 * Masks (comparisons, and/or/xor/not of bools) get their constancy, so a
 * vector access tests one mask element per group.  A for loop's carried
 * values get what holds of every iteration (fill_for).  Float values,
 * other loop-carried values and anything not modelled get the facts that
 * promise nothing. */
#include "mt.h"

static int64_t pow2_factor(int64_t v) {
    if (v == 0)
        return AXIS_BIG;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v; /* |v| without UB */
    int64_t p = 1;
    while (!(u & 1) && p < AXIS_BIG) {
        u >>= 1;
        p <<= 1;
    }
    return p;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* div of the element at every multiple of c (c a power of two <= contig
 * or 1): inside a run of consecutive values it drops to c's factor. */
static int64_t div_at(const AxisInfo *a, int64_t c) {
    return a->contig > c ? min64(a->div, c) : a->div;
}

static AxisInfo axis_unknown(Type t) {
    AxisInfo a = {1, t.rank == 0 ? AXIS_BIG : 1, 1, false};
    return a;
}

/* Along the last dim, a value whose last dim is 1 (or a scalar operand of
 * a block op) is one constant run. */
static AxisInfo constant_along(AxisInfo a) {
    a.div = div_at(&a, 1);
    a.contig = 1;
    a.constancy = AXIS_BIG;
    return a;
}

/* An operand as seen along the last dim of a result. */
static AxisInfo operand(Func *f, ValId v) {
    if (!v)
        return axis_unknown(type_scalar(DT_I32));
    AxisInfo a = f->axis[v];
    Type t = val_type(f, v);
    if (t.rank == 0 || t.shape[t.rank - 1] == 1)
        a = constant_along(a);
    return a;
}

static AxisInfo add_like(Func *f, const Op *op, Type t) {
    AxisInfo r = axis_unknown(t);
    AxisInfo a = operand(f, op->args[0]), b = operand(f, op->args[1]);
    int64_t scale = 1;
    if (op->code == OP_ADDPTR)
        scale = dtype_info[t.dtype].bytes;
    int64_t c = min64(a.contig, b.constancy);
    if (op->code == OP_ADD || op->code == OP_ADDPTR)
        c = max64(c, min64(b.contig, a.constancy));
    r.contig = c;
    r.constancy = min64(a.constancy, b.constancy);
    if (r.constancy > 1)
        c = 1; /* a constant run: every element's factor */
    r.div = min64(div_at(&a, c), min64(div_at(&b, c) * scale, AXIS_BIG));
    r.hinted = op->code == OP_ADDPTR && a.hinted;
    return r;
}

static AxisInfo mul_like(Func *f, const Op *op, Type t) {
    AxisInfo r = axis_unknown(t);
    AxisInfo a = operand(f, op->args[0]), b = operand(f, op->args[1]);
    Value *bv = val(f, op->args[1]);
    if (op->code == OP_SHL) {
        if (bv->kind != VK_CONST || bv->c.i < 0 || bv->c.i > 30)
            return r;
        b.div = (int64_t)1 << bv->c.i;
    }
    r.constancy = min64(a.constancy, b.constancy);
    r.div = min64(div_at(&a, 1) * div_at(&b, 1), AXIS_BIG);
    /* times the constant 1 (a stride specialised to 1, Triton's `i32:1`):
     * the other operand's facts, as Triton's MulIOp rule keeps them */
    Value *av = val(f, op->args[0]);
    if (op->code == OP_MUL && bv->kind == VK_CONST && bv->c.i == 1 && !type_is_float(t))
        return a;
    if (op->code == OP_MUL && av->kind == VK_CONST && av->c.i == 1 && !type_is_float(t))
        return b;
    return r;
}

/* x % y with y one value along the dim (Triton's RemOp rule): a run of
 * c consecutive x from a multiple of c, c dividing y, meets no multiple of
 * y but at its start, so x % y runs on consecutively from a multiple of c
 * (also for a negative x: the remainder truncates, and zero can only be a
 * run's start).  `(pid * BLOCK + arange) % N` with N a multiple of 16 stays
 * contiguous in 16s. */
static AxisInfo rem_like(Func *f, const Op *op, Type t) {
    AxisInfo r = axis_unknown(t);
    AxisInfo a = operand(f, op->args[0]), b = operand(f, op->args[1]);
    int64_t last = t.rank ? t.shape[t.rank - 1] : 1;
    if (b.constancy < last)
        return r;
    int64_t c = min64(a.contig, b.div);
    r.contig = c;
    r.constancy = a.constancy;
    r.div = min64(div_at(&a, c), b.div);
    return r;
}

/* A comparison or a logical op on masks is constant where its operands
 * both are.  A comparison also is (Triton's CmpOpAxisInfoVisitor) where
 * one side runs through k consecutive integers from a multiple of k and
 * the other is one multiple of k along the whole dim, under a predicate
 * that cannot flip inside the run (x < n, x >= n, n > x, n <= x): the
 * mask `offs < n` of a vector group is then one test. */
static AxisInfo mask_like(Func *f, const Op *op, Type t) {
    AxisInfo r = axis_unknown(t);
    AxisInfo a = operand(f, op->args[0]);
    AxisInfo b = op->nargs > 1 ? operand(f, op->args[1]) : a;
    r.constancy = min64(a.constancy, b.constancy);
    if (op->nargs < 2 || val_type(f, op->args[0]).is_ptr || val_type(f, op->args[1]).is_ptr)
        return r; /* a pointer's div counts bytes, its contig elements */
    int64_t last = t.rank ? t.shape[t.rank - 1] : 1;
    int64_t k = 1;
    if ((op->code == OP_CMP_LT || op->code == OP_CMP_GE) && b.constancy >= last)
        k = min64(a.contig, min64(a.div, b.div));
    else if ((op->code == OP_CMP_GT || op->code == OP_CMP_LE) && a.constancy >= last)
        k = min64(b.contig, min64(b.div, a.div));
    r.constancy = max64(r.constancy, k);
    return r;
}

/* The facts of v from its kind or defining op; operands are filled. */
static AxisInfo compute(Func *f, ValId v, const Op *loop) {
    Value *x = val(f, v);
    Type t = x->type;
    AxisInfo r = axis_unknown(t);
    if (type_is_float(t))
        return r;
    if (x->kind == VK_CONST) {
        r.div = pow2_factor(x->c.i);
        return r;
    }
    if (x->kind == VK_PARAM) {
        r.div = x->divisibility > 1 ? pow2_factor(x->divisibility) : 1;
        r.hinted = t.is_ptr && x->divisibility >= 16;
        return r;
    }
    if (x->kind == VK_LOOP_INDEX) {
        if (loop)
            r.div = min64(operand(f, loop->args[0]).div,
                          operand(f, loop->args[2]).div);
        return r;
    }
    if (x->kind != VK_OP || !x->def)
        return r;
    Op *op = x->def;
    int64_t last = t.rank ? t.shape[t.rank - 1] : 1;
    switch (op->code) {
    case OP_ARANGE:
        r.contig = last;
        r.constancy = 1;
        r.div = pow2_factor(op->attr[0]);
        return r;
    case OP_ZEROS:
        r.constancy = AXIS_BIG;
        r.div = AXIS_BIG;
        return r;
    case OP_CONVERT_LAYOUT: /* same values, other threads */
        return f->axis[op->args[0]];
    case OP_FULL:
    case OP_BROADCAST:
    case OP_EXPAND_DIMS:
    case OP_CAST: {
        /* a cast keeps the facts only where it keeps every value: to a
         * wider or equal integer type */
        Type st = val_type(f, op->args[0]);
        if (op->code == OP_CAST && (!type_is_int(st) || !type_is_int(t) ||
                                    dtype_info[t.dtype].bits < dtype_info[st.dtype].bits))
            return r;
        AxisInfo a = operand(f, op->args[0]);
        a.hinted = a.hinted && t.is_ptr;
        return a;
    }
    case OP_ADD:
    case OP_SUB:
    case OP_ADDPTR:
        return add_like(f, op, t);
    case OP_MUL:
    case OP_SHL:
        return mul_like(f, op, t);
    case OP_REM:
        return rem_like(f, op, t);
    case OP_CMP_LT:
    case OP_CMP_LE:
    case OP_CMP_GT:
    case OP_CMP_GE:
    case OP_CMP_EQ:
    case OP_CMP_NE:
        return mask_like(f, op, t);
    case OP_AND:
    case OP_OR:
    case OP_XOR:
    case OP_NOT:
        if (t.dtype == DT_I1)
            return mask_like(f, op, t);
        return r;
    case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS:
    case OP_MAX_CONSTANCY: {
        /* the program's promise (Triton's tt.divisibility, tt.contiguity,
         * tt.constancy) on top of what is known: the power of two that
         * divides the promised count holds too */
        AxisInfo a = operand(f, op->args[0]);
        int64_t h = pow2_factor(op->attr[0]);
        if (op->code == OP_MULTIPLE_OF)
            a.div = max64(a.div, h);
        else if (op->code == OP_MAX_CONTIGUOUS)
            a.contig = max64(a.contig, min64(h, last));
        else
            a.constancy = max64(a.constancy, min64(h, last));
        return a;
    }
    default:
        return r;
    }
}

static void fill(Func *f, ValId v, const Op *loop) {
    AxisInfo a = compute(f, v, loop);
    Type t = val_type(f, v);
    if (a.contig < 1)
        a.contig = 1;
    if (t.rank && t.shape[t.rank - 1] == 1)
        a = constant_along(a);
    f->axis[v] = a;
}

static AxisInfo meet(AxisInfo a, AxisInfo b) {
    a.contig = min64(a.contig, b.contig);
    a.div = min64(a.div, b.div);
    a.constancy = min64(a.constancy, b.constancy);
    a.hinted = a.hinted && b.hinted;
    return a;
}

static bool same_facts(AxisInfo a, AxisInfo b) {
    return a.contig == b.contig && a.div == b.div && a.constancy == b.constancy &&
           a.hinted == b.hinted;
}

static void fill_region(Func *f, const Region *r);

/* A for loop's carried values hold what holds of their initial values and
 * of their yields given that it holds of them (an induction): start from
 * the initial values' facts and meet with the yields' until nothing
 * changes.  Facts only shrink (powers of two), so this settles within a
 * few rounds; past the bound the carried values promise nothing.  So a
 * pointer block advanced by a scalar each iteration (Triton's tutorials)
 * keeps its contiguity and what of its alignment the step keeps. */
static void fill_for(Func *f, const Op *op) {
    fill(f, op->index, op);
    for (int k = 0; k < op->nres; k++)
        f->axis[op->iters[k]] = f->axis[op->args[3 + k]];
    for (int round = 0; round < 8; round++) {
        fill_region(f, op->body);
        bool changed = false;
        for (int k = 0; k < op->nres; k++) {
            AxisInfo m = meet(f->axis[op->iters[k]], f->axis[op->yields[k]]);
            if (!same_facts(m, f->axis[op->iters[k]])) {
                f->axis[op->iters[k]] = m;
                changed = true;
            }
        }
        if (!changed)
            return;
    }
    for (int k = 0; k < op->nres; k++)
        fill(f, op->iters[k], NULL);
    fill_region(f, op->body);
}

static void fill_region(Func *f, const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        if (op->code == OP_FOR) {
            fill_for(f, op);
            for (int k = 0; k < op->nres; k++)
                fill(f, op->res[k], NULL);
            continue;
        }
        for (int k = 0; op->iters && k < op_niters(op); k++)
            fill(f, op->iters[k], NULL);
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            fill_region(f, rs[k]);
        for (int k = 0; k < op->nres; k++)
            fill(f, op->res[k], NULL);
    }
}

int axis_analyze(Func *f) {
    f->axis = arena_alloc(f->arena, sizeof(AxisInfo) * (size_t)f->nvals);
    if (!f->axis)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    f->axis[0] = axis_unknown(type_scalar(DT_I32));
    for (ValId v = 1; v < f->nvals; v++) /* params and constants; op results
                                            wait for their operands */
        if (val(f, v)->kind == VK_OP)
            f->axis[v] = axis_unknown(val_type(f, v));
        else
            fill(f, v, NULL);
    fill_region(f, &f->body);
    return 0;
}

static void put_fact(StrBuf *sb, const char *name, int64_t v) {
    if (v >= AXIS_BIG)
        sb_printf(sb, " %s=inf", name);
    else
        sb_printf(sb, " %s=%lld", name, (long long)v);
}

void axis_print(StrBuf *sb, const AxisInfo *a) {
    sb_puts(sb, "axis");
    put_fact(sb, "contig", a->contig);
    put_fact(sb, "div", a->div);
    put_fact(sb, "const", a->constancy);
    if (a->hinted)
        sb_puts(sb, " hinted");
}
