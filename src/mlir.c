/* mlir.c: the MLIR emitter, the optimised and laid-out SSA as one textual
 * MLIR module (gpu, arith, math, scf, memref and llvm dialects).
 *
 * Input: a verified Func after the back-end passes (layout_assign,
 * axis_analyze, smem_plan): every block value has a layout.  Output: the
 * module text, or a located error for what the MLIR path does not lower
 * (the original's messages: "MLIR MVP does not support 'dot'").
 *
 * Shape (the original's, Version 7): `module attributes
 * {gpu.container_module}`, `gpu.module @kernels`, one `gpu.func @<name>
 * kernel`; pointer parameters are `memref<?xT>` (the launch passes the
 * memref descriptor, mlirrun.c), scalars are plain; a fixed prologue
 * `%bid_x`, `%tid_x`, `%block_id_x`, `%thread_id_x`; constants named
 * `%c_<type>_<value>` ("-" -> "neg_", "." -> "_"), each defined once, at
 * the top of the function so that any region may use it; results `%v<n>`
 * with n the value's number in `--emit ssa-layout`.
 *
 * Threads.  One MLIR thread owns exactly the elements one CUDA thread owns
 * (cuda_dist.c's algebra, through ce_dist_unregistered): a block value is
 * one SSA value per slot, `%v<n>_<slot>` (`%v<n>` when a thread holds one
 * slot), computed by the same per-slot coordinates
 *     n >= C:  base_p + (s / spt) * C + s % spt,
 *     n <  C:  (base_p + s) & (n - 1), owned iff base_p + s < n,
 * so replicated copies are never stored and never counted twice.  A
 * pointer block is an `index` per slot into its parameter's memref: every
 * pointer must come from one parameter (a `where` between two parameters
 * is refused).  Reductions combine a thread's slots, then gpu.shuffle xor
 * within the warp, then the warps' partials through workgroup memory;
 * layout conversions go through workgroup memory (owners store, barrier,
 * every thread reads its slots, barrier).  Runtime loops are scf.for with
 * iter_args (one per slot), runtime ifs scf.if; masked loads and stores
 * are scf.if around the access, yielding `other`.
 *
 * Math: convert-gpu-to-nvvm sends math ops to libdevice, which is not
 * linked, so float math is the PTX instruction itself through
 * llvm.inline_asm: the ones CUDA's sqrtf, floorf, fabsf, fmaf compile to
 * (sqrt.rn, cvt.rmi, abs, fma.rn), and for exp, exp2, log2, log and rsqrt
 * the approximations Triton uses (ex2.approx, lg2.approx, rsqrt.approx).
 * f16 and bf16 compute in f32 and round back, as ops.def's model says. */
#include "mt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct MEmit {
    Func *f;
    StrBuf body, consts, pro, wg;
    int indent;
    const char ***names; /* per ValId: one SSA name per slot */
    int *nslots;
    Dist *dist;          /* block values: how their slots map to threads */
    bool *has_dist;
    ValId *base;         /* pointer values: the parameter they index */
    int *num;            /* printed number of each value (irprint.c's) */
    int next_num;
    const char **cnames; /* interned constants: "type value" -> name */
    int ncnames, capcnames;
    Layout *bases;       /* layout parameter sets whose base vars exist */
    int nbases, capbases;
    bool axis[3], nprog[3];
    int tmp, nwg;
} MEmit;

static const Loc no_loc = {0, 0};
#define MLIR_ERR(m, loc, ...) diag_error((m)->f->ctx, (loc), MT_ERR_UNSUPPORTED, __VA_ARGS__)

static const char *fmt(MEmit *m, const char *f, ...) MT_PRINTF(2, 3);
static const char *fmt(MEmit *m, const char *f, ...) {
    StrBuf sb;
    sb_init(&sb);
    va_list ap;
    va_start(ap, f);
    sb_vprintf(&sb, f, ap);
    va_end(ap);
    const char *s = arena_strdup(m->f->arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

static void line(MEmit *m, const char *f, ...) MT_PRINTF(2, 3);
static void line(MEmit *m, const char *f, ...) {
    sb_indent(&m->body, 2 * m->indent);
    va_list ap;
    va_start(ap, f);
    sb_vprintf(&m->body, f, ap);
    va_end(ap);
    sb_putc(&m->body, '\n');
}

static const char *tmp(MEmit *m) { return fmt(m, "%%mt_t%d", m->tmp++); }

static int unsupported(MEmit *m, const Op *op) {
    if (op->code == OP_EMPTY)
        return MLIR_ERR(m, op->loc, "MLIR MVP does not support tl.empty");
    return MLIR_ERR(m, op->loc, "MLIR MVP does not support '%s'", op_info[op->code].name);
}

/* ------------------------------------------------------------ types */

/* The MLIR type of a register of dtype d; NULL for fp8 (no MLIR path). */
static const char *mtype(DType d) {
    switch (d) {
    case DT_I1: return "i1";
    case DT_I8: case DT_U8: return "i8";
    case DT_I16: case DT_U16: return "i16";
    case DT_I32: case DT_U32: return "i32";
    case DT_I64: case DT_U64: return "i64";
    case DT_F16: return "f16";
    case DT_BF16: return "bf16";
    case DT_F32: return "f32";
    case DT_F64: return "f64";
    default: return NULL;
    }
}

/* In memory a bool is a byte. */
static const char *memtype(DType d) { return d == DT_I1 ? "i8" : mtype(d); }

static int bits(DType d) { return dtype_info[d].bits; }
static bool is_f(DType d) { return dtype_is_float(d); }
static bool is_u(DType d) { return dtype_is_unsigned(d); }
static bool narrow(DType d) { return d == DT_F16 || d == DT_BF16; }

/* ------------------------------------------------------------ constants */

/* The constant's name: %c_<type>_<text>, "-" -> "neg_", "." -> "_",
 * "+" dropped (the original's naming); defined once at the top. */
static const char *constant(MEmit *m, const char *ty, const char *lit, const char *shown) {
    const char *key = fmt(m, "%s %s", ty, lit);
    for (int i = 0; i < m->ncnames; i += 2)
        if (!strcmp(m->cnames[i], key))
            return m->cnames[i + 1];
    StrBuf nm;
    sb_init(&nm);
    sb_printf(&nm, "%%c_%s_", ty);
    for (const char *p = shown; *p; p++) {
        if (*p == '-')
            sb_puts(&nm, "neg_");
        else if (*p == '.')
            sb_putc(&nm, '_');
        else if (*p != '+')
            sb_putc(&nm, *p);
    }
    const char *name = arena_strdup(m->f->arena, sb_str(&nm));
    sb_free(&nm);
    /* two literals may print alike (1e-05 vs its neighbour): keep names apart */
    for (int i = 1; i < m->ncnames; i += 2)
        if (!strcmp(m->cnames[i], name))
            name = fmt(m, "%s_%d", name, i);
    VEC_PUSH(m->f->arena, m->cnames, m->ncnames, m->capcnames, key);
    VEC_PUSH(m->f->arena, m->cnames, m->ncnames, m->capcnames, name);
    if (!strcmp(ty, "i1")) /* true and false carry their type */
        sb_printf(&m->consts, "      %s = arith.constant %s\n", name, lit);
    else
        sb_printf(&m->consts, "      %s = arith.constant %s : %s\n", name, lit, ty);
    return name;
}

static const char *mconst_int(MEmit *m, DType d, int64_t v) {
    if (d == DT_I1)
        return constant(m, "i1", v ? "true" : "false", v ? "true" : "false");
    int64_t w = v;
    if (bits(d) < 64) { /* signless: print the signed value of the bits */
        uint64_t mask = ((uint64_t)1 << bits(d)) - 1, u = (uint64_t)v & mask;
        w = (u >> (bits(d) - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
    }
    const char *t = fmt(m, "%lld", (long long)w);
    return constant(m, mtype(d), t, t);
}

static const char *const_index(MEmit *m, int64_t v) {
    const char *t = fmt(m, "%lld", (long long)v);
    return constant(m, "index", t, t);
}

/* A float constant: %.6e when that reads back exactly (the original's
 * format), else the bits in hex; the name shows the shortest repr. */
static const char *mconst_float(MEmit *m, DType d, double v) {
    char shown[40];
    if (d == DT_F32 || narrow(d))
        format_f32(shown, (float)v);
    else
        snprintf(shown, sizeof shown, "%.17g", v);
    const char *lit = NULL;
    char buf[64];
    if (isfinite(v)) {
        snprintf(buf, sizeof buf, "%.6e", v);
        double back = strtod(buf, NULL);
        if (d == DT_F32 ? (float)back == (float)v : back == v)
            lit = fmt(m, "%s", buf);
        else if (d == DT_F64) {
            snprintf(buf, sizeof buf, "%.17e", v);
            lit = fmt(m, "%s", buf);
        } else if (d == DT_F32) {
            snprintf(buf, sizeof buf, "%.9e", v);
            lit = fmt(m, "%s", buf);
        }
    }
    if (!lit) {
        int w = bits(d);
        lit = fmt(m, "0x%0*llX", w / 4, (unsigned long long)dtype_float_bits(d, v));
    }
    return constant(m, mtype(d), lit, shown);
}

static const char *const_of(MEmit *m, ValId v) {
    Value *x = val(m->f, v);
    DType d = (DType)x->type.dtype;
    return is_f(d) ? mconst_float(m, d, x->c.f) : mconst_int(m, d, x->c.i);
}

/* ------------------------------------------------------------ threads */

static const char *program_id(MEmit *m, int axis) {
    m->axis[axis] = true;
    return fmt(m, "%%block_id_%c", "xyz"[axis]);
}

/* The index of layout parameters l among those whose lane, warp and base
 * coordinates the prologue computes (cuda.c's prologue), made on first
 * use: lane_p, warp_p, and base_p = (warp_p * tpw + lane_p) * spt. */
static int layout_index(MEmit *m, const Layout *l) {
    int k = 0;
    while (k < m->nbases && !layout_same_params(&m->bases[k], l))
        k++;
    if (k < m->nbases)
        return k;
    VEC_PUSH(m->f->arena, m->bases, m->nbases, m->capbases, *l);
    StrBuf *s = &m->pro;
    if (k == 0) {
        const char *c31 = mconst_int(m, DT_I32, 31), *c5 = mconst_int(m, DT_I32, 5);
        sb_printf(s, "      %%mt_lane = arith.andi %%thread_id_x, %s : i32\n", c31);
        sb_printf(s, "      %%mt_warp = arith.shrui %%thread_id_x, %s : i32\n", c5);
    }
    int fast = l->order[0];
    for (int q = 0; q < l->rank; q++) {
        bool is_fast = q == fast || l->rank == 1;
        const char *op = is_fast ? "remui" : "divui";
        sb_printf(s, "      %%mt_l%d_%d = arith.%s %%mt_lane, %s : i32\n", k, q, op,
                  mconst_int(m, DT_I32, is_fast ? l->tpw[q] : l->tpw[fast]));
        sb_printf(s, "      %%mt_w%d_%d = arith.%s %%mt_warp, %s : i32\n", k, q, op,
                  mconst_int(m, DT_I32, is_fast ? l->wpc[q] : l->wpc[fast]));
        sb_printf(s, "      %%mt_x%d_%d = arith.muli %%mt_w%d_%d, %s : i32\n", k, q, k, q,
                  mconst_int(m, DT_I32, l->tpw[q]));
        sb_printf(s, "      %%mt_y%d_%d = arith.addi %%mt_x%d_%d, %%mt_l%d_%d : i32\n", k, q,
                  k, q, k, q);
        sb_printf(s, "      %%mt_b%d_%d = arith.muli %%mt_y%d_%d, %s : i32\n", k, q, k, q,
                  mconst_int(m, DT_I32, l->spt[q]));
    }
    return k;
}

/* The first coordinate a thread owns along parent dim p: %thread_id_x
 * itself for a rank-1 layout of one element per thread (the original's
 * arange). */
static const char *base_var(MEmit *m, const Layout *l, int p) {
    if (l->rank == 1 && l->spt[0] == 1)
        return "%thread_id_x";
    return fmt(m, "%%mt_b%d_%d", layout_index(m, l), p);
}

/* The lane ('l') or warp ('w') coordinate of parent dim p. */
static const char *lane_var(MEmit *m, const Layout *l, char kind, int p) {
    return fmt(m, "%%mt_%c%d_%d", kind, layout_index(m, l), p);
}

static int slot_along(const Dist *d, int p, int s) {
    if (d->E[p] == 1)
        return 0;
    if (d->L.rank == 1)
        return s;
    return p == 0 ? s / d->E[1] : s % d->E[1];
}

/* Coordinate along parent dim p of slot-along-p s, as an i32 value;
 * *own (when not NULL) gets the ownership test ("" when owned). */
static const char *coord(MEmit *m, const Dist *d, int p, int s, const char **own) {
    int32_t n = d->n[p], C = ce_tile(&d->L, p), spt = d->L.spt[p];
    if (own)
        *own = "";
    if (n == 1)
        return mconst_int(m, DT_I32, 0);
    const char *b = base_var(m, &d->L, p);
    if (n >= C) {
        int off = (s / spt) * C + s % spt;
        if (!off)
            return b;
        const char *t = tmp(m);
        line(m, "%s = arith.addi %s, %s : i32", t, b, mconst_int(m, DT_I32, off));
        return t;
    }
    const char *sum = b;
    if (s) {
        sum = tmp(m);
        line(m, "%s = arith.addi %s, %s : i32", sum, b, mconst_int(m, DT_I32, s));
    }
    if (own) {
        const char *o = tmp(m);
        line(m, "%s = arith.cmpi slt, %s, %s : i32", o, sum, mconst_int(m, DT_I32, n));
        *own = o;
    }
    const char *t = tmp(m);
    line(m, "%s = arith.andi %s, %s : i32", t, sum, mconst_int(m, DT_I32, n - 1));
    return t;
}

/* The ownership test of slot s ("" when every thread holding it owns it). */
static const char *owner(MEmit *m, const Dist *d, int s) {
    const char *acc = "";
    for (int p = 0; p < d->L.rank; p++) {
        const char *o;
        coord(m, d, p, slot_along(d, p, s), &o);
        if (!*o)
            continue;
        if (*acc) {
            const char *t = tmp(m);
            line(m, "%s = arith.andi %s, %s : i1", t, acc, o);
            o = t;
        }
        acc = o;
    }
    return acc;
}

/* ------------------------------------------------------------ values */

static Dist dist_of_layout(MEmit *m, ValId v) {
    Value *x = val(m->f, v);
    Layout *l = &m->f->layouts[x->layout];
    return ce_dist_unregistered(l, x->type, l->slice_dim);
}

/* Gives v nslots fresh names %v<n>[_<s>] with distribution d (NULL: scalar). */
static const char **define(MEmit *m, ValId v, const Dist *d) {
    int n = d ? d->nE : 1;
    const char **names = arena_alloc(m->f->arena, sizeof *names * (size_t)n);
    int num = m->num[v] >= 0 ? m->num[v] : (int)v;
    for (int s = 0; s < n; s++)
        names[s] = n == 1 ? fmt(m, "%%v%d", num) : fmt(m, "%%v%d_%d", num, s);
    m->names[v] = names;
    m->nslots[v] = n;
    if (d) {
        m->dist[v] = *d;
        m->has_dist[v] = true;
    }
    return names;
}

static const char *scalar(MEmit *m, ValId v) {
    Value *x = val(m->f, v);
    if (x->kind == VK_CONST)
        return x->type.is_ptr ? const_index(m, 0) : const_of(m, v);
    if (x->kind == VK_PARAM && x->type.is_ptr)
        return const_index(m, 0);
    return m->names[v] ? m->names[v][0] : "%mt_undefined";
}

/* Same thread parameters: x's slots are found by parent dim (a broadcast
 * or expanded operand has size 1 along the dims it lacks). */
static bool fits(const Dist *a, const Dist *r) {
    return layout_same_params(&a->L, &r->L);
}

/* The name of x's element at slot s of a result distributed as r (NULL:
 * scalar result); NULL with an error when x is not held where r needs. */
static const char *elem(MEmit *m, ValId x, const Dist *r, int s, Loc loc) {
    Type t = val_type(m->f, x);
    if (t.rank == 0 || !r)
        return scalar(m, x);
    if (!m->has_dist[x] || !fits(&m->dist[x], r)) {
        MLIR_ERR(m, loc, "MLIR backend: value %%%d is not held in its user's layout", m->num[x]);
        return NULL;
    }
    const Dist *a = &m->dist[x];
    int slot = 0, stride = 1;
    for (int p = r->L.rank - 1; p >= 0; p--) {
        if (a->n[p] > 1)
            slot += slot_along(r, p, s) * stride;
        stride *= a->E[p];
    }
    return m->names[x][slot];
}

/* x's pointer base parameter (ValId), or 0 with an error. */
static ValId ptr_base(MEmit *m, ValId x, Loc loc) {
    Value *v = val(m->f, x);
    if (v->kind == VK_PARAM)
        return x;
    if (m->base[x])
        return m->base[x];
    MLIR_ERR(m, loc, "MLIR backend: a pointer must come from one pointer parameter");
    return 0;
}

/* ------------------------------------------------------------ elementwise */

/* v (type from) as type to, both scalar dtypes. */
static const char *convert(MEmit *m, const char *v, DType from, DType to) {
    if (from == to || (bits(from) == bits(to) && !is_f(from) && !is_f(to) &&
                       from != DT_I1 && to != DT_I1))
        return v;
    const char *t = tmp(m), *ft = mtype(from), *tt = mtype(to);
    if (to == DT_I1) {
        const char *z = is_f(from) ? mconst_float(m, from, 0) : mconst_int(m, from, 0);
        line(m, "%s = arith.%s, %s, %s : %s", t, is_f(from) ? "cmpf une" : "cmpi ne", v, z,
             ft);
    } else if (is_f(from) && is_f(to)) {
        line(m, "%s = arith.%s %s : %s to %s", t, bits(to) > bits(from) ? "extf" : "truncf",
             v, ft, tt);
    } else if (is_f(to)) {
        line(m, "%s = arith.%s %s : %s to %s", t,
             is_u(from) || from == DT_I1 ? "uitofp" : "sitofp", v, ft, tt);
    } else if (is_f(from)) {
        line(m, "%s = arith.%s %s : %s to %s", t, is_u(to) ? "fptoui" : "fptosi", v, ft, tt);
    } else {
        const char *op = bits(to) < bits(from) ? "trunci"
                         : is_u(from) || from == DT_I1 ? "extui" : "extsi";
        line(m, "%s = arith.%s %s : %s to %s", t, op, v, ft, tt);
    }
    return t;
}

/* One PTX instruction on n operands of float type ty (f32 or f64): the
 * NVVM conversion sends math ops to libdevice, which is not linked, so
 * the instructions CUDA's sqrtf, floorf, fabsf, fmaf compile to are
 * written out (sqrt.rn is exact, cvt.rmi is floor, ...). */
static const char *ptx(MEmit *m, const char *ins, const char **a, int n, const char *ty) {
    const char *t = tmp(m), *c = !strcmp(ty, "f64") ? "d" : "f";
    StrBuf args, cons, tys;
    sb_init(&args);
    sb_init(&cons);
    sb_init(&tys);
    sb_printf(&cons, "=%s", c);
    for (int i = 0; i < n; i++) {
        sb_printf(&args, "%s%s", i ? ", " : "", a[i]);
        sb_printf(&cons, ",%s", c);
        sb_printf(&tys, "%s%s", i ? ", " : "", ty);
    }
    static const char *const ops[] = {"$1", "$1, $2", "$1, $2, $3"};
    line(m, "%s = llvm.inline_asm \"%s.%s $0, %s;\", \"%s\" %s : (%s) -> %s", t, ins, ty,
         ops[n - 1], sb_str(&cons), sb_str(&args), sb_str(&tys), ty);
    sb_free(&args);
    sb_free(&cons);
    sb_free(&tys);
    return t;
}

static const char *ptx1(MEmit *m, const char *ins, const char *a) {
    return ptx(m, ins, &a, 1, "f32");
}

static const char *fbin(MEmit *m, const char *op, const char *a, const char *b) {
    const char *t = tmp(m);
    line(m, "%s = arith.%s %s, %s : f32", t, op, a, b);
    return t;
}

/* Float ops on operands a (f32 or f64, type ty). */
static const char *float_op(MEmit *m, int code, const char **a, const char *ty, DType d) {
    static const struct { int code; const char *op; int n; } tab[] = {
        {OP_ADD, "arith.addf", 2}, {OP_SUB, "arith.subf", 2}, {OP_MUL, "arith.mulf", 2},
        {OP_DIV, "arith.divf", 2}, {OP_DIV_RN, "arith.divf", 2}, {OP_REM, "arith.remf", 2},
        {OP_MAXIMUM, "arith.maxnumf", 2}, {OP_MINIMUM, "arith.minnumf", 2},
        {OP_MAXIMUM_NAN, "arith.maximumf", 2}, {OP_MINIMUM_NAN, "arith.minimumf", 2},
        {OP_NEG, "arith.negf", 1},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        if (tab[i].code != code)
            continue;
        const char *t = tmp(m);
        if (tab[i].n == 1)
            line(m, "%s = %s %s : %s", t, tab[i].op, a[0], ty);
        else
            line(m, "%s = %s %s, %s : %s", t, tab[i].op, a[0], a[1], ty);
        return t;
    }
    static const struct { int code; const char *ins; int n; } ins[] = {
        {OP_SQRT, "sqrt.rn", 1}, {OP_ABS, "abs", 1}, {OP_FLOOR, "cvt.rmi", 1},
        {OP_CEIL, "cvt.rpi", 1}, {OP_TRUNC, "cvt.rzi", 1}, {OP_RINT, "cvt.rni", 1},
        {OP_FMA, "fma.rn", 3},
    };
    for (size_t i = 0; i < sizeof ins / sizeof *ins; i++) {
        if (ins[i].code != code)
            continue;
        /* cvt rounds to an integral value of the same type: cvt.rmi.f32.f32 */
        bool cvt = !strncmp(ins[i].ins, "cvt", 3);
        const char *name = cvt ? fmt(m, "%s.%s", ins[i].ins, ty) : ins[i].ins;
        return ptx(m, name, a, ins[i].n, ty);
    }
    if (d != DT_F32)
        return NULL;
    switch (code) { /* the instructions Triton's fp32 math uses */
    case OP_EXP:
        return ptx1(m, "ex2.approx", fbin(m, "mulf", a[0], mconst_float(m, DT_F32, 1.4426950408889634)));
    case OP_EXP2: return ptx1(m, "ex2.approx", a[0]);
    case OP_LOG2: return ptx1(m, "lg2.approx", a[0]);
    case OP_LOG:
        return fbin(m, "mulf", ptx1(m, "lg2.approx", a[0]),
                    mconst_float(m, DT_F32, 0.6931471805599453));
    case OP_RSQRT: return ptx1(m, "rsqrt.approx", a[0]);
    default: return NULL;
    }
}

static const char *int_op(MEmit *m, int code, const char **a, const char *ty, DType d) {
    bool u = is_u(d);
    const char *op = NULL;
    switch (code) {
    case OP_ADD: op = "addi"; break;
    case OP_SUB: op = "subi"; break;
    case OP_MUL: op = "muli"; break;
    case OP_DIV: op = u ? "divui" : "divsi"; break;
    case OP_REM: op = u ? "remui" : "remsi"; break;
    case OP_AND: op = "andi"; break;
    case OP_OR: op = "ori"; break;
    case OP_XOR: op = "xori"; break;
    case OP_SHL: op = "shli"; break;
    case OP_SHR: op = u ? "shrui" : "shrsi"; break;
    case OP_MAXIMUM: op = u ? "maxui" : "maxsi"; break;
    case OP_MINIMUM: op = u ? "minui" : "minsi"; break;
    case OP_NEG: {
        const char *t = tmp(m);
        line(m, "%s = arith.subi %s, %s : %s", t, mconst_int(m, d, 0), a[0], ty);
        return t;
    }
    case OP_NOT: {
        const char *t = tmp(m);
        line(m, "%s = arith.xori %s, %s : %s", t, a[0], mconst_int(m, d, d == DT_I1 ? 1 : -1), ty);
        return t;
    }
    case OP_ABS: { /* abs(MIN) is MIN, as Triton's */
        const char *neg = tmp(m), *lt = tmp(m), *t = tmp(m);
        line(m, "%s = arith.subi %s, %s : %s", neg, mconst_int(m, d, 0), a[0], ty);
        line(m, "%s = arith.cmpi slt, %s, %s : %s", lt, a[0], mconst_int(m, d, 0), ty);
        line(m, "%s = arith.select %s, %s, %s : %s", t, lt, neg, a[0], ty);
        return t;
    }
    default: return NULL;
    }
    const char *t = tmp(m);
    line(m, "%s = arith.%s %s, %s : %s", t, op, a[0], a[1], ty);
    return t;
}

static const char *compare(MEmit *m, int code, const char **a, DType d) {
    static const struct { int code; const char *s, *u, *f; } tab[] = {
        {OP_CMP_LT, "slt", "ult", "olt"}, {OP_CMP_LE, "sle", "ule", "ole"},
        {OP_CMP_GT, "sgt", "ugt", "ogt"}, {OP_CMP_GE, "sge", "uge", "oge"},
        {OP_CMP_EQ, "eq", "eq", "oeq"},   {OP_CMP_NE, "ne", "ne", "une"},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        if (tab[i].code != code)
            continue;
        const char *t = tmp(m);
        if (is_f(d))
            line(m, "%s = arith.cmpf %s, %s, %s : %s", t, tab[i].f, a[0], a[1], mtype(d));
        else
            line(m, "%s = arith.cmpi %s, %s, %s : %s", t,
                 is_u(d) || d == DT_I1 ? tab[i].u : tab[i].s, a[0], a[1], mtype(d));
        return t;
    }
    if (code == OP_ISNAN || code == OP_ISINF) {
        const char *t = tmp(m);
        if (code == OP_ISNAN) {
            line(m, "%s = arith.cmpf uno, %s, %s : %s", t, a[0], a[0], mtype(d));
        } else {
            const char *ab = ptx(m, "abs", a, 1, mtype(d));
            line(m, "%s = arith.cmpf oeq, %s, %s : %s", t, ab, mconst_float(m, d, INFINITY),
                 mtype(d));
        }
        return t;
    }
    return NULL;
}

/* %<prefix><n> or %<prefix><n>_<s>: the name of slot s of v. */
static const char *slot_name(MEmit *m, const char *prefix, ValId v, const Dist *r, int s) {
    int num = m->num[v] >= 0 ? m->num[v] : (int)v;
    if (!r || r->nE == 1)
        return fmt(m, "%%%s%d", prefix, num);
    return fmt(m, "%%%s%d_%d", prefix, num, s);
}

/* Renames the temporary t defined since body offset `from` to name (the
 * last instruction of an op defines its result under the result's name). */
static const char *rename_tail(MEmit *m, size_t from, const char *t, const char *name) {
    if (strncmp(t, "%mt_t", 5) != 0 || m->body.failed)
        return t;
    size_t tl = strlen(t);
    StrBuf out;
    sb_init(&out);
    const char *p = m->body.data + from, *end = m->body.data + m->body.len;
    bool found = false;
    while (p < end) {
        const char *q = strstr(p, t);
        if (!q || q >= end) {
            sb_putn(&out, p, (size_t)(end - p));
            break;
        }
        char after = q[tl];
        bool token = !((after >= '0' && after <= '9') || after == '_' ||
                       (after >= 'a' && after <= 'z'));
        sb_putn(&out, p, (size_t)(q - p));
        sb_puts(&out, token ? name : t);
        found |= token;
        p = q + tl;
    }
    if (found && !out.failed) {
        m->body.len = from;
        sb_putn(&m->body, out.data, out.len);
    }
    sb_free(&out);
    return found ? name : t;
}

/* Element s of an elementwise op with result dist r (NULL: scalar). */
static const char *elementwise(MEmit *m, Op *op, const Dist *r, int s) {
    Func *f = m->f;
    Type rt = val_type(f, op->res[0]);
    DType rd = (DType)rt.dtype;
    const char *a[3] = {NULL, NULL, NULL};
    DType ad[3] = {DT_VOID, DT_VOID, DT_VOID};
    for (int i = 0; i < op->nargs && i < 3; i++) {
        ValId x = op->args[i];
        if (!x)
            continue;
        ad[i] = (DType)val_type(f, x).dtype;
        if (op->code == OP_ADDPTR && i == 0 && val(f, x)->kind == VK_PARAM) {
            a[0] = ""; /* the memref itself: offsets index it */
            continue;
        }
        /* broadcasting and expand_dims alike: slots map by parent dim */
        a[i] = elem(m, x, r, s, op->loc);
        if (!a[i])
            return NULL;
    }
    switch (op->code) {
    case OP_EXPAND_DIMS: case OP_BROADCAST: case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS: case OP_MAX_CONSTANCY:
        return a[0];
    case OP_CAST:
        return convert(m, a[0], ad[0], rd);
    case OP_BITCAST: {
        if (val_type(f, op->args[0]).is_ptr || rt.is_ptr)
            return NULL;
        const char *t = tmp(m);
        line(m, "%s = arith.bitcast %s : %s to %s", t, a[0], mtype(ad[0]), mtype(rd));
        return t;
    }
    case OP_SELECT: {
        const char *t = tmp(m);
        const char *ty = rt.is_ptr ? "index" : mtype(rd);
        line(m, "%s = arith.select %s, %s, %s : %s", t, a[0],
             rt.is_ptr ? a[1] : convert(m, a[1], ad[1], rd),
             rt.is_ptr ? a[2] : convert(m, a[2], ad[2], rd), ty);
        return t;
    }
    case OP_ADDPTR: {
        /* an index into the parameter's memref: offsets sign-extend
         * (index_cast does), unsigned ones zero-extend first */
        const char *off = a[1];
        const char *oty = mtype(ad[1]);
        if (is_u(ad[1]) && bits(ad[1]) < 64) {
            off = convert(m, off, ad[1], DT_U64);
            oty = "i64";
        }
        bool from_param = val(f, op->args[0])->kind == VK_PARAM;
        const char *ix = from_param ? slot_name(m, "idx", op->res[0], r, s) : tmp(m);
        line(m, "%s = arith.index_cast %s : %s to index", ix, off, oty);
        if (from_param)
            return ix;
        const char *t = slot_name(m, "idx", op->res[0], r, s);
        line(m, "%s = arith.addi %s, %s : index", t, a[0], ix);
        return t;
    }
    default:
        break;
    }
    if (op->code >= OP_CMP_LT && op->code <= OP_CMP_NE) {
        DType d = promote_dtype(ad[0], ad[1]);
        if (val_type(f, op->args[0]).is_ptr)
            return NULL;
        const char *b[2] = {convert(m, a[0], ad[0], d), convert(m, a[1], ad[1], d)};
        return compare(m, op->code, b, d);
    }
    if (op->code == OP_ISNAN || op->code == OP_ISINF)
        return compare(m, op->code, a, ad[0]);
    /* arithmetic: operands in the result's type (f16/bf16 computed in f32) */
    DType cd = narrow(rd) ? DT_F32 : rd;
    const char *b[3];
    for (int i = 0; i < 3; i++)
        b[i] = a[i] ? convert(m, a[i], ad[i], cd) : NULL;
    const char *res = is_f(cd) ? float_op(m, op->code, b, mtype(cd), cd)
                               : int_op(m, op->code, b, mtype(cd), cd);
    if (res && cd != rd)
        res = convert(m, res, cd, rd);
    return res;
}

/* ------------------------------------------------------------ ops */

static int emit_region(MEmit *m, Region *r);

static const Dist *res_dist(MEmit *m, ValId v, Dist *buf) {
    if (val_type(m->f, v).rank == 0)
        return NULL;
    *buf = dist_of_layout(m, v);
    return buf;
}

static int emit_elementwise(MEmit *m, Op *op) {
    Dist db;
    const Dist *r = res_dist(m, op->res[0], &db);
    int n = r ? r->nE : 1;
    const char **out = arena_alloc(m->f->arena, sizeof *out * (size_t)n);
    for (int s = 0; s < n; s++) {
        size_t from = m->body.len;
        int first = m->tmp;
        out[s] = elementwise(m, op, r, s);
        if (!out[s])
            return m->f->ctx->status ? -1 : unsupported(m, op);
        /* a temporary made here is the result: give it the result's name */
        if (!strncmp(out[s], "%mt_t", 5) && atoi(out[s] + 5) >= first)
            out[s] = rename_tail(m, from, out[s], slot_name(m, "v", op->res[0], r, s));
    }
    m->names[op->res[0]] = out;
    m->nslots[op->res[0]] = n;
    if (r) {
        m->dist[op->res[0]] = *r;
        m->has_dist[op->res[0]] = true;
    }
    if (val_type(m->f, op->res[0]).is_ptr) {
        ValId b = op->code == OP_SELECT ? ptr_base(m, op->args[1], op->loc)
                                        : ptr_base(m, op->args[0], op->loc);
        if (!b)
            return -1;
        if (op->code == OP_SELECT && ptr_base(m, op->args[2], op->loc) != b)
            return MLIR_ERR(m, op->loc, "MLIR backend: a pointer must come from one "
                                        "pointer parameter");
        m->base[op->res[0]] = b;
    }
    return 0;
}

static int emit_constructor(MEmit *m, Op *op) {
    Dist db;
    ValId res = op->res[0];
    const Dist *r = res_dist(m, res, &db);
    Type rt = val_type(m->f, res);
    int n = r ? r->nE : 1;
    const char **out = arena_alloc(m->f->arena, sizeof *out * (size_t)n);
    for (int s = 0; s < n; s++) {
        switch (op->code) {
        case OP_PROGRAM_ID:
            out[s] = program_id(m, (int)op->attr[0] % 3);
            break;
        case OP_NUM_PROGRAMS:
            m->nprog[op->attr[0] % 3] = true;
            out[s] = fmt(m, "%%num_programs_%c", "xyz"[op->attr[0] % 3]);
            break;
        case OP_ARANGE: {
            const char *c = coord(m, r, r->pdim[0], slot_along(r, r->pdim[0], s), NULL);
            if (op->attr[0]) {
                const char *t = tmp(m);
                line(m, "%s = arith.addi %s, %s : i32", t, c,
                     mconst_int(m, DT_I32, op->attr[0]));
                c = t;
            }
            out[s] = c;
            break;
        }
        case OP_ZEROS:
            out[s] = is_f((DType)rt.dtype) ? mconst_float(m, (DType)rt.dtype, 0)
                                           : mconst_int(m, (DType)rt.dtype, 0);
            break;
        case OP_FULL:
            out[s] = convert(m, scalar(m, op->args[0]),
                             (DType)val_type(m->f, op->args[0]).dtype, (DType)rt.dtype);
            break;
        default:
            return unsupported(m, op);
        }
    }
    m->names[res] = out;
    m->nslots[res] = n;
    if (r) {
        m->dist[res] = *r;
        m->has_dist[res] = true;
    }
    return 0;
}

/* A masked access: "scf.if %mask" when mask is not "" ... */
static int emit_load(MEmit *m, Op *op) {
    Dist db;
    ValId res = op->res[0];
    const Dist *r = res_dist(m, res, &db);
    DType d = (DType)val_type(m->f, res).dtype;
    if (!mtype(d))
        return unsupported(m, op);
    ValId b = ptr_base(m, op->args[0], op->loc);
    if (!b)
        return -1;
    const char *mem = fmt(m, "memref<?x%s>", memtype(d));
    const char **out = define(m, res, r);
    for (int s = 0; s < m->nslots[res]; s++) {
        const char *ix = elem(m, op->args[0], r, s, op->loc);
        const char *mask = op->nargs > 1 && op->args[1] ? elem(m, op->args[1], r, s, op->loc) : "";
        if (!ix || !mask)
            return -1;
        const char *other = NULL;
        if (*mask) {
            ValId o = op->nargs > 2 ? op->args[2] : 0;
            other = o ? convert(m, elem(m, o, r, s, op->loc),
                                (DType)val_type(m->f, o).dtype, d)
                      : is_f(d) ? mconst_float(m, d, 0) : mconst_int(m, d, 0);
            line(m, "%s = scf.if %s -> (%s) {", out[s], mask, mtype(d));
            m->indent++;
        }
        const char *ld = *mask ? slot_name(m, "loaded", res, r, s) : out[s];
        line(m, "%s = memref.load %s[%s] : %s", d == DT_I1 ? fmt(m, "%s_byte", ld) : ld,
             m->names[b][0], ix, mem);
        if (d == DT_I1)
            line(m, "%s = arith.cmpi ne, %s_byte, %s : i8", ld, ld, mconst_int(m, DT_I8, 0));
        if (*mask) {
            line(m, "scf.yield %s : %s", ld, mtype(d));
            m->indent--;
            line(m, "} else {");
            line(m, "  scf.yield %s : %s", other, mtype(d));
            line(m, "}");
        }
    }
    return 0;
}

static int emit_store(MEmit *m, Op *op) {
    ValId p = op->args[0], v = op->args[1];
    ValId mk = op->nargs > 2 ? op->args[2] : 0;
    Type pt = val_type(m->f, p);
    DType d = (DType)pt.dtype;
    ValId b = ptr_base(m, p, op->loc);
    if (!b)
        return -1;
    if (!mtype(d))
        return unsupported(m, op);
    Dist db;
    const Dist *r = res_dist(m, p, &db);
    if (r && m->has_dist[p])
        r = &m->dist[p];
    const char *mem = fmt(m, "memref<?x%s>", memtype(d));
    int n = r ? r->nE : 1;
    for (int s = 0; s < n; s++) {
        const char *ix = elem(m, p, r, s, op->loc);
        const char *x = elem(m, v, r, s, op->loc);
        const char *mask = mk ? elem(m, mk, r, s, op->loc) : "";
        if (!ix || !x || !mask)
            return -1;
        x = convert(m, x, (DType)val_type(m->f, v).dtype, d);
        /* replicated copies are not stored; a scalar store is thread 0's */
        const char *own = r ? owner(m, r, s) : "";
        if (!r) {
            own = tmp(m);
            line(m, "%s = arith.cmpi eq, %%thread_id_x, %s : i32", own, mconst_int(m, DT_I32, 0));
        }
        if (*own && *mask) {
            const char *t = tmp(m);
            line(m, "%s = arith.andi %s, %s : i1", t, own, mask);
            mask = t;
        } else if (*own) {
            mask = own;
        }
        if (d == DT_I1) {
            const char *t = tmp(m);
            line(m, "%s = arith.extui %s : i1 to i8", t, x);
            x = t;
        }
        if (*mask) {
            line(m, "scf.if %s {", mask);
            m->indent++;
        }
        line(m, "memref.store %s, %s[%s] : %s", x, m->names[b][0], ix, mem);
        if (*mask) {
            m->indent--;
            line(m, "}");
        }
    }
    return 0;
}


/* ------------------------------------------------------------ reductions */

/* A workgroup buffer of n elements of MLIR type ty: its name. */
static const char *workgroup(MEmit *m, int64_t n, const char *ty) {
    const char *name = fmt(m, "%%mt_wg%d", m->nwg++);
    sb_printf(&m->wg, "%s%s: memref<%lldx%s, #gpu.address_space<workgroup>>",
              m->wg.len ? ", " : "", name, (long long)n, ty);
    return name;
}

static const char *identity(MEmit *m, int code, DType d) {
    ReduceIdentity id = (ReduceIdentity)op_info[code].identity;
    if (is_f(d)) /* max/min start from NaN, which maxnum drops (design.md) */
        return mconst_float(m, d, id == ID_ZERO ? 0.0 : NAN);
    if (id == ID_ZERO)
        return mconst_int(m, d, 0);
    int w = bits(d);
    bool u = is_u(d);
    int64_t lo = u ? 0 : (w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1)));
    int64_t hi = u ? -1 : (w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1);
    return mconst_int(m, d, id == ID_LOWEST ? lo : hi);
}

static const char *combine(MEmit *m, int code, DType d, const char *a, const char *b) {
    static const struct { int code, op; } tab[] = {
        {OP_SUM, OP_ADD}, {OP_MAX, OP_MAXIMUM}, {OP_MIN, OP_MINIMUM}, {OP_XOR_SUM, OP_XOR},
    };
    const char *x[3] = {a, b, NULL};
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (tab[i].code == code)
            return is_f(d) ? float_op(m, tab[i].op, x, mtype(d), d)
                           : int_op(m, tab[i].op, x, mtype(d), d);
    return NULL;
}

/* cuda.c's reduction: each thread its owned slots along the axis, xor
 * shuffles over the lanes along it, the warps' partials through
 * workgroup memory (one row of W per coordinate of the other dim). */
static int emit_reduce(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId x = op->args[0], res = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, res);
    DType d = (DType)xt.dtype;
    if (op->nargs != 1 || op->nres != 1 || xt.is_ptr || !mtype(d) || narrow(d) ||
        !m->has_dist[x])
        return unsupported(m, op);
    const char *ty = mtype(d);
    const Dist *dx = &m->dist[x];
    int pa = dx->pdim[op->attr[0]];
    int po = dx->L.rank == 2 ? 1 - pa : -1;
    int Eo = po >= 0 ? dx->E[po] : 1, Ea = dx->E[pa];
    Dist rd;
    if (rt.rank)
        rd = ce_dist_unregistered(&dx->L, rt, pa);
    const char **out = define(m, res, rt.rank ? &rd : NULL);
    int fast = dx->L.order[0];
    int stride = pa == fast || dx->L.rank == 1 ? 1 : dx->L.tpw[fast];
    int W = dx->L.wpc[pa];
    const char **part = arena_alloc(f->arena, sizeof *part * (size_t)Eo);
    for (int j = 0; j < Eo; j++) {
        const char *acc = identity(m, op->code, d);
        for (int s = 0; s < Ea; s++) {
            int slot = po < 0 ? s : pa == 0 ? s * dx->E[1] + j : j * dx->E[1] + s;
            const char *own;
            coord(m, dx, pa, s, &own);
            const char *c = combine(m, op->code, d, acc, m->names[x][slot]);
            if (*own) {
                const char *t = tmp(m);
                line(m, "%s = arith.select %s, %s, %s : %s", t, own, c, acc, ty);
                c = t;
            }
            acc = c;
        }
        for (int k = 1; k < dx->L.tpw[pa]; k *= 2) {
            const char *sh = tmp(m);
            line(m, "%s, %s_ok = gpu.shuffle xor %s, %s, %s : %s", sh, sh, acc,
                 mconst_int(m, DT_I32, k * stride), mconst_int(m, DT_I32, 32), ty);
            acc = combine(m, op->code, d, acc, sh);
        }
        part[j] = acc;
    }
    if (W > 1) {
        int rows = po >= 0 ? dx->n[po] : 1;
        const char *buf = workgroup(m, (int64_t)rows * W, ty);
        const char *mem = fmt(m, "memref<%dx%s, #gpu.address_space<workgroup>>", rows * W, ty);
        const char *lz = tmp(m);
        line(m, "%s = arith.cmpi eq, %s, %s : i32", lz, lane_var(m, &dx->L, 'l', pa),
             mconst_int(m, DT_I32, 0));
        const char **row = arena_alloc(f->arena, sizeof *row * (size_t)Eo);
        for (int j = 0; j < Eo; j++) {
            const char *oo = "";
            const char *co = po >= 0 ? coord(m, dx, po, j, &oo) : mconst_int(m, DT_I32, 0);
            row[j] = tmp(m);
            line(m, "%s = arith.muli %s, %s : i32", row[j], co, mconst_int(m, DT_I32, W));
            const char *at = tmp(m), *ix = tmp(m), *cond = lz;
            line(m, "%s = arith.addi %s, %s : i32", at, row[j], lane_var(m, &dx->L, 'w', pa));
            line(m, "%s = arith.index_cast %s : i32 to index", ix, at);
            if (*oo) {
                cond = tmp(m);
                line(m, "%s = arith.andi %s, %s : i1", cond, lz, oo);
            }
            line(m, "scf.if %s {", cond);
            line(m, "  memref.store %s, %s[%s] : %s", part[j], buf, ix, mem);
            line(m, "}");
        }
        line(m, "gpu.barrier");
        for (int j = 0; j < Eo; j++) {
            const char *acc = NULL;
            for (int w = 0; w < W; w++) {
                const char *at = tmp(m), *ix = tmp(m), *v = tmp(m);
                line(m, "%s = arith.addi %s, %s : i32", at, row[j], mconst_int(m, DT_I32, w));
                line(m, "%s = arith.index_cast %s : i32 to index", ix, at);
                line(m, "%s = memref.load %s[%s] : %s", v, buf, ix, mem);
                acc = acc ? combine(m, op->code, d, acc, v) : v;
            }
            part[j] = acc;
        }
        line(m, "gpu.barrier");
    }
    for (int j = 0; j < Eo; j++) /* the result is the combined partials */
        out[j] = part[j];
    return 0;
}

/* ------------------------------------------------------------ conversions */

/* convert_layout through workgroup memory: the owners of x store it at
 * its row-major index, a barrier, every thread reads its slots of the
 * result, a barrier. */
static int emit_convert(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId x = op->args[0], res = op->res[0];
    Type t = val_type(f, x);
    bool ptr = t.is_ptr;
    const char *ty = ptr ? "index" : mtype((DType)t.dtype);
    if (!ty || !m->has_dist[x])
        return unsupported(m, op);
    if (ptr)
        m->base[res] = m->base[x] ? m->base[x] : x;
    Dist rd = dist_of_layout(m, res);
    const Dist *sd = &m->dist[x];
    const char **out = define(m, res, &rd);
    int64_t n = type_numel(t);
    const char *buf = workgroup(m, n, ty);
    const char *mem = fmt(m, "memref<%lldx%s, #gpu.address_space<workgroup>>", (long long)n, ty);
    for (int pass = 0; pass < 2; pass++) {
        const Dist *d = pass ? &rd : sd;
        for (int s = 0; s < d->nE; s++) {
            const char *lin = NULL;
            for (int i = 0; i < t.rank; i++) {
                int p = d->pdim[i];
                const char *c = coord(m, d, p, slot_along(d, p, s), NULL);
                if (!lin) {
                    lin = c;
                } else {
                    const char *mul = tmp(m), *add = tmp(m);
                    line(m, "%s = arith.muli %s, %s : i32", mul, lin,
                         mconst_int(m, DT_I32, t.shape[i]));
                    line(m, "%s = arith.addi %s, %s : i32", add, mul, c);
                    lin = add;
                }
            }
            const char *ix = tmp(m);
            line(m, "%s = arith.index_cast %s : i32 to index", ix, lin);
            if (pass) {
                line(m, "%s = memref.load %s[%s] : %s", out[s], buf, ix, mem);
                continue;
            }
            const char *own2 = owner(m, d, s);
            if (*own2)
                line(m, "scf.if %s {", own2);
            line(m, "%smemref.store %s, %s[%s] : %s", *own2 ? "  " : "", m->names[x][s], buf,
                 ix, mem);
            if (*own2)
                line(m, "}");
        }
        line(m, "gpu.barrier");
    }
    return 0;
}

/* ------------------------------------------------------------ regions */

/* The MLIR types and names of a carried value list (slots flattened). */
static void carried(MEmit *m, ValId v, const Dist *d, StrBuf *types, int *count) {
    Type t = val_type(m->f, v);
    const char *ty = t.is_ptr ? "index" : mtype((DType)t.dtype);
    int n = t.rank && d ? d->nE : 1;
    for (int s = 0; s < n; s++)
        sb_printf(types, "%s%s", (*count)++ ? ", " : "", ty);
}

/* The yields of a region: every slot of every value in the results' dists. */
static int yield(MEmit *m, const ValId *ys, const ValId *res, int n, Loc loc) {
    StrBuf names, types;
    sb_init(&names);
    sb_init(&types);
    int count = 0;
    for (int i = 0; i < n; i++) {
        Type t = val_type(m->f, res[i]);
        const Dist *d = t.rank ? &m->dist[res[i]] : NULL;
        int k = d ? d->nE : 1;
        for (int s = 0; s < k; s++) {
            const char *e = elem(m, ys[i], d, s, loc);
            if (!e) {
                sb_free(&names);
                sb_free(&types);
                return -1;
            }
            if (!t.is_ptr)
                e = convert(m, e, (DType)val_type(m->f, ys[i]).dtype, (DType)t.dtype);
            sb_printf(&names, "%s%s", count ? ", " : "", e);
            sb_printf(&types, "%s%s", count ? ", " : "",
                      t.is_ptr ? "index" : mtype((DType)t.dtype));
            count++;
        }
    }
    if (count)
        line(m, "scf.yield %s : %s", sb_str(&names), sb_str(&types));
    else
        line(m, "scf.yield");
    sb_free(&names);
    sb_free(&types);
    return 0;
}

/* Results (and loop arguments) take their slots from their layouts. */
static void define_list(MEmit *m, const ValId *vs, int n, StrBuf *names,
                        const ValId *bases_from) {
    int count = 0;
    for (int i = 0; i < n; i++) {
        Type t = val_type(m->f, vs[i]);
        Dist d;
        const char **nm = define(m, vs[i], t.rank ? (d = dist_of_layout(m, vs[i]), &d) : NULL);
        for (int s = 0; s < m->nslots[vs[i]]; s++)
            sb_printf(names, "%s%s", count++ ? ", " : "", nm[s]);
        if (t.is_ptr && bases_from)
            m->base[vs[i]] = bases_from[i];
    }
}

static int emit_for(MEmit *m, Op *op) {
    Func *f = m->f;
    int n = op->nres;
    ValId *inb = arena_alloc(f->arena, sizeof(ValId) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        inb[i] = 0;
        if (val_type(f, op->args[3 + i]).is_ptr && !(inb[i] = ptr_base(m, op->args[3 + i], op->loc)))
            return -1;
    }
    /* initial values in the carried layouts */
    StrBuf inits, types, iters, results;
    sb_init(&inits);
    sb_init(&types);
    sb_init(&iters);
    sb_init(&results);
    int count = 0, tc = 0;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        Type t = val_type(f, op->iters[i]);
        Dist d;
        if (t.rank)
            d = dist_of_layout(m, op->iters[i]);
        for (int s = 0; s < (t.rank ? d.nE : 1); s++) {
            const char *e = elem(m, op->args[3 + i], t.rank ? &d : NULL, s, op->loc);
            if (!e) {
                rc = -1;
                break;
            }
            if (!t.is_ptr)
                e = convert(m, e, (DType)val_type(f, op->args[3 + i]).dtype, (DType)t.dtype);
            sb_printf(&inits, "%s%s", count++ ? ", " : "", e);
        }
        carried(m, op->iters[i], t.rank ? &d : NULL, &types, &tc);
    }
    DType it = (DType)val_type(f, op->index).dtype;
    const char *ity = mtype(it);
    const char *lo = rc ? NULL : scalar(m, op->args[0]), *hi = rc ? NULL : scalar(m, op->args[1]),
               *st = rc ? NULL : scalar(m, op->args[2]);
    if (rc == 0) {
        define_list(m, op->iters, n, &iters, inb);
        define_list(m, op->res, n, &results, inb);
        define(m, op->index, NULL);
        lo = convert(m, lo, (DType)val_type(f, op->args[0]).dtype, it);
        hi = convert(m, hi, (DType)val_type(f, op->args[1]).dtype, it);
        st = convert(m, st, (DType)val_type(f, op->args[2]).dtype, it);
        /* the iteration arguments pair with the inits in order */
        StrBuf pairs;
        sb_init(&pairs);
        const char *ip = sb_str(&iters), *vp = sb_str(&inits);
        while (*ip) {
            const char *ie = strchr(ip, ','), *ve = strchr(vp, ',');
            size_t il = ie ? (size_t)(ie - ip) : strlen(ip), vl = ve ? (size_t)(ve - vp) : strlen(vp);
            sb_printf(&pairs, "%s%.*s = %.*s", pairs.len ? ", " : "", (int)il, ip, (int)vl, vp);
            ip += il + (ie ? 2 : 0);
            vp += vl + (ve ? 2 : 0);
        }
        if (n)
            line(m, "%s = scf.for %s = %s to %s step %s iter_args(%s) -> (%s) : %s {",
                 sb_str(&results), m->names[op->index][0], lo, hi, st, sb_str(&pairs),
                 sb_str(&types), ity);
        else
            line(m, "scf.for %s = %s to %s step %s : %s {", m->names[op->index][0], lo, hi, st,
                 ity);
        sb_free(&pairs);
        m->indent++;
        rc = emit_region(m, op->body);
        if (rc == 0)
            rc = yield(m, op->yields, op->iters, n, op->loc);
        m->indent--;
        line(m, "}");
    }
    sb_free(&inits);
    sb_free(&types);
    sb_free(&iters);
    sb_free(&results);
    return rc;
}

static int emit_if(MEmit *m, Op *op) {
    Func *f = m->f;
    int n = op->nres;
    StrBuf types, results;
    sb_init(&types);
    sb_init(&results);
    int tc = 0;
    for (int i = 0; i < n; i++) {
        Type t = val_type(f, op->res[i]);
        Dist d;
        if (t.rank)
            d = dist_of_layout(m, op->res[i]);
        carried(m, op->res[i], t.rank ? &d : NULL, &types, &tc);
    }
    const char *cond = scalar(m, op->args[0]);
    define_list(m, op->res, n, &results, NULL);
    if (n)
        line(m, "%s = scf.if %s -> (%s) {", sb_str(&results), cond, sb_str(&types));
    else
        line(m, "scf.if %s {", cond);
    m->indent++;
    int rc = emit_region(m, op->body);
    if (rc == 0 && n)
        rc = yield(m, op->yields, op->res, n, op->loc);
    m->indent--;
    if (rc == 0) {
        line(m, "} else {");
        m->indent++;
        rc = emit_region(m, op->alt);
        if (rc == 0 && n)
            rc = yield(m, op->alt_yields, op->res, n, op->loc);
        m->indent--;
        line(m, "}");
    }
    for (int i = 0; i < n && rc == 0; i++)
        if (val_type(f, op->res[i]).is_ptr) {
            ValId a = ptr_base(m, op->yields[i], op->loc), b = ptr_base(m, op->alt_yields[i], op->loc);
            if (!a || a != b)
                rc = MLIR_ERR(m, op->loc, "MLIR backend: a pointer must come from one "
                                          "pointer parameter");
            m->base[op->res[i]] = a;
        }
    sb_free(&types);
    sb_free(&results);
    return rc;
}

static int emit_op(MEmit *m, Op *op) {
    for (int i = 0; i < op->nres; i++) {
        Type t = val_type(m->f, op->res[i]);
        if (t.rank > 2)
            return MLIR_ERR(m, op->loc, "MLIR MVP supports only rank-1 and rank-2 blocks");
        if (!t.is_ptr && !mtype((DType)t.dtype))
            return MLIR_ERR(m, op->loc, "MLIR backend does not support %s values",
                            dtype_name((DType)t.dtype));
    }
    switch (op->code) {
    case OP_LOAD: return emit_load(m, op);
    case OP_STORE: return emit_store(m, op);
    case OP_FOR: return emit_for(m, op);
    case OP_IF: return emit_if(m, op);
    case OP_CONVERT_LAYOUT: return emit_convert(m, op);
    case OP_BARRIER: line(m, "gpu.barrier"); return 0;
    case OP_SUM: case OP_MAX: case OP_MIN: case OP_XOR_SUM: return emit_reduce(m, op);
    default: break;
    }
    const OpInfo *oi = &op_info[op->code];
    if (oi->kind == K_CONSTRUCTOR)
        return emit_constructor(m, op);
    if (oi->kind == K_ELEMENTWISE || oi->kind == K_SHAPE)
        return emit_elementwise(m, op);
    return unsupported(m, op);
}

static int emit_region(MEmit *m, Region *r) {
    for (int i = 0; i < r->nops; i++)
        if (emit_op(m, r->ops[i]) < 0)
            return -1;
    return 0;
}

/* ------------------------------------------------------------ driver */

/* Values numbered as irprint.c numbers them (the --emit ssa-layout ids). */
static void number_region(MEmit *m, const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        if (op->code == OP_FOR && m->num[op->index] < 0)
            m->num[op->index] = m->next_num++;
        for (int k = 0; k < op_niters(op) && op->iters; k++)
            if (m->num[op->iters[k]] < 0)
                m->num[op->iters[k]] = m->next_num++;
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            number_region(m, rs[k]);
        for (int k = 0; k < op->nres && op->res; k++)
            if (m->num[op->res[k]] < 0)
                m->num[op->res[k]] = m->next_num++;
    }
}

/* A parameter keeps its name unless it could be taken for one of ours. */
static const char *param_name(MEmit *m, int i, const char *name) {
    static const char *const ours[] = {"v", "c_", "idx", "loaded", "bid_", "tid_", "block_id_",
                                       "thread_id_", "grid_dim_", "num_programs_", "mt_"};
    for (size_t k = 0; k < sizeof ours / sizeof *ours; k++)
        if (!strncmp(name, ours[k], strlen(ours[k])))
            return fmt(m, "%%p%d_%s", i, name);
    return fmt(m, "%%%s", name);
}

int mlir_emit(Func *f, StrBuf *out) {
    MEmit m;
    memset(&m, 0, sizeof m);
    m.f = f;
    m.indent = 3;
    size_t nv = (size_t)f->nvals;
    m.names = arena_alloc(f->arena, sizeof *m.names * nv);
    m.nslots = arena_alloc(f->arena, sizeof *m.nslots * nv);
    m.dist = arena_alloc(f->arena, sizeof *m.dist * nv);
    m.has_dist = arena_alloc(f->arena, sizeof *m.has_dist * nv);
    m.base = arena_alloc(f->arena, sizeof *m.base * nv);
    m.num = arena_alloc(f->arena, sizeof *m.num * nv);
    memset(m.names, 0, sizeof *m.names * nv);
    memset(m.has_dist, 0, sizeof *m.has_dist * nv);
    memset(m.base, 0, sizeof *m.base * nv);
    for (size_t v = 0; v < nv; v++)
        m.num[v] = -1;
    number_region(&m, &f->body);
    sb_init(&m.body);
    sb_init(&m.consts);
    sb_init(&m.pro);
    sb_init(&m.wg);
    StrBuf sig;
    sb_init(&sig);
    int rc = 0;
    for (int i = 0; i < f->nparams && rc == 0; i++) {
        ValId p = f->params[i];
        Value *x = val(f, p);
        const char *nm = param_name(&m, i, x->name);
        const char *ty = x->type.is_ptr ? memtype((DType)x->type.dtype) : mtype((DType)x->type.dtype);
        if (!ty) {
            rc = MLIR_ERR(&m, no_loc, "MLIR backend does not support %s parameters",
                          dtype_name((DType)x->type.dtype));
            break;
        }
        m.names[p] = arena_alloc(f->arena, sizeof(char *));
        m.names[p][0] = nm;
        m.nslots[p] = 1;
        sb_printf(&sig, "%s%s: %s%s%s", i ? ", " : "", nm, x->type.is_ptr ? "memref<?x" : "", ty,
                  x->type.is_ptr ? ">" : "");
    }
    if (rc == 0)
        rc = emit_region(&m, &f->body);
    if (rc == 0 && (m.body.failed || m.consts.failed || m.pro.failed || sig.failed))
        rc = diag_error(f->ctx, no_loc, MT_ERR_NOMEM, "out of memory");
    if (rc == 0) {
        sb_puts(out, "module attributes {gpu.container_module} {\n");
        sb_puts(out, "  gpu.module @kernels {\n");
        sb_printf(out, "    gpu.func @%s(%s)", f->name, sb_str(&sig));
        if (m.wg.len)
            sb_printf(out, " workgroup(%s)", sb_str(&m.wg));
        sb_printf(out, " kernel attributes {gpu.known_block_size = array<i32: %d, 1, 1>} {\n",
                  32 * f->num_warps);
        sb_puts(out, "      %bid_x = gpu.block_id x\n");
        sb_puts(out, "      %tid_x = gpu.thread_id x\n");
        for (int a = 1; a < 3; a++)
            if (m.axis[a])
                sb_printf(out, "      %%bid_%c = gpu.block_id %c\n", "xyz"[a], "xyz"[a]);
        for (int a = 0; a < 3; a++)
            if (m.nprog[a])
                sb_printf(out, "      %%grid_dim_%c = gpu.grid_dim %c\n", "xyz"[a], "xyz"[a]);
        sb_puts(out, "      %block_id_x = arith.index_cast %bid_x : index to i32\n");
        sb_puts(out, "      %thread_id_x = arith.index_cast %tid_x : index to i32\n");
        for (int a = 1; a < 3; a++)
            if (m.axis[a])
                sb_printf(out, "      %%block_id_%c = arith.index_cast %%bid_%c : index to i32\n",
                          "xyz"[a], "xyz"[a]);
        for (int a = 0; a < 3; a++)
            if (m.nprog[a])
                sb_printf(out,
                          "      %%num_programs_%c = arith.index_cast %%grid_dim_%c : index to i32\n",
                          "xyz"[a], "xyz"[a]);
        sb_puts(out, sb_str(&m.consts));
        sb_puts(out, sb_str(&m.pro));
        sb_puts(out, sb_str(&m.body));
        sb_puts(out, "      gpu.return\n    }\n  }\n}\n");
    }
    sb_free(&sig);
    sb_free(&m.body);
    sb_free(&m.consts);
    sb_free(&m.pro);
    sb_free(&m.wg);
    return rc;
}
