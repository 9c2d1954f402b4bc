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
 * iter_args (one per slot), runtime ifs scf.if, while loops scf.while;
 * masked loads and stores are scf.if around the access, yielding `other`;
 * shape ops (reshape, trans, flip, join, split, cat) go through workgroup
 * memory like conversions.
 *
 * This file writes the module, the threads' coordinates, the values and
 * the regions (scf.for, scf.if, scf.while); mlir_ops.c the ops.
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

static const Loc no_loc = {0, 0};

/* Where the kernel first reads value v (a parameter the backend refuses),
 * or no location when nothing reads it. */
static Loc first_use(const Region *r, ValId v) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        for (int k = 0; k < op->nargs; k++)
            if (op->args[k] == v)
                return op->loc;
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++) {
            Loc at = first_use(rs[k], v);
            if (at.line)
                return at;
        }
    }
    return no_loc;
}

void ml_line(MEmit *m, const char *f, ...) {
    sb_indent(&m->body, 2 * m->indent);
    va_list ap;
    va_start(ap, f);
    sb_vprintf(&m->body, f, ap);
    va_end(ap);
    sb_putc(&m->body, '\n');
}

const char *ml_tmp(MEmit *m) { return ml_fmt(m, "%%mt_t%d", m->tmp++); }

int ml_unsupported(MEmit *m, const Op *op) {
    if (op->code == OP_EMPTY)
        return MLIR_ERR(m, op->loc, "MLIR MVP does not support tl.empty");
    return MLIR_ERR(m, op->loc, "MLIR MVP does not support '%s'", op_info[op->code].name);
}

/* ------------------------------------------------------------ types */

/* The MLIR type of a register of dtype d; NULL for fp8 (no MLIR path). */
const char *ml_mtype(DType d) {
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
const char *ml_memtype(DType d) { return d == DT_I1 ? "i8" : ml_mtype(d); }

int ml_bits(DType d) { return dtype_info[d].bits; }
bool ml_is_f(DType d) { return dtype_is_float(d); }
bool ml_is_u(DType d) { return dtype_is_unsigned(d); }
bool ml_narrow(DType d) { return d == DT_F16 || d == DT_BF16; }

/* ------------------------------------------------------------ constants */

/* The constant's name: %c_<type>_<text>, "-" -> "neg_", "." -> "_",
 * "+" dropped (the original's naming); defined once at the top. */
static const char *constant(MEmit *m, const char *ty, const char *lit, const char *shown) {
    const char *key = ml_fmt(m, "%s %s", ty, lit);
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
            name = ml_fmt(m, "%s_%d", name, i);
    VEC_PUSH(m->f->arena, m->cnames, m->ncnames, m->capcnames, key);
    VEC_PUSH(m->f->arena, m->cnames, m->ncnames, m->capcnames, name);
    if (!strcmp(ty, "i1")) /* true and false carry their type */
        sb_printf(&m->consts, "      %s = arith.constant %s\n", name, lit);
    else
        sb_printf(&m->consts, "      %s = arith.constant %s : %s\n", name, lit, ty);
    return name;
}

const char *ml_const_int(MEmit *m, DType d, int64_t v) {
    if (d == DT_I1)
        return constant(m, "i1", v ? "true" : "false", v ? "true" : "false");
    int64_t w = v;
    if (ml_bits(d) < 64) { /* signless: print the signed value of the bits */
        uint64_t mask = ((uint64_t)1 << ml_bits(d)) - 1, u = (uint64_t)v & mask;
        w = (u >> (ml_bits(d) - 1)) ? (int64_t)(u | ~mask) : (int64_t)u;
    }
    const char *t = ml_fmt(m, "%lld", (long long)w);
    return constant(m, ml_mtype(d), t, t);
}

const char *ml_const_index(MEmit *m, int64_t v) {
    const char *t = ml_fmt(m, "%lld", (long long)v);
    return constant(m, "index", t, t);
}

/* A float constant: %.6e when that reads back exactly (the original's
 * format), else the bits in hex; the name shows the shortest repr. */
const char *ml_const_float(MEmit *m, DType d, double v) {
    char shown[40];
    if (d == DT_F32 || ml_narrow(d))
        format_f32(shown, (float)v);
    else
        snprintf(shown, sizeof shown, "%.17g", v);
    const char *lit = NULL;
    char buf[64];
    if (isfinite(v)) {
        snprintf(buf, sizeof buf, "%.6e", v);
        double back = strtod(buf, NULL);
        if (d == DT_F32 ? (float)back == (float)v : back == v)
            lit = ml_fmt(m, "%s", buf);
        else if (d == DT_F64) {
            snprintf(buf, sizeof buf, "%.17e", v);
            lit = ml_fmt(m, "%s", buf);
        } else if (d == DT_F32) {
            snprintf(buf, sizeof buf, "%.9e", v);
            lit = ml_fmt(m, "%s", buf);
        }
    }
    if (!lit) {
        int w = ml_bits(d);
        lit = ml_fmt(m, "0x%0*llX", w / 4, (unsigned long long)dtype_float_bits(d, v));
    }
    return constant(m, ml_mtype(d), lit, shown);
}

static const char *const_of(MEmit *m, ValId v) {
    Value *x = val(m->f, v);
    DType d = (DType)x->type.dtype;
    return ml_is_f(d) ? ml_const_float(m, d, x->c.f) : ml_const_int(m, d, x->c.i);
}

/* ------------------------------------------------------------ threads */

const char *ml_program_id(MEmit *m, int axis) {
    m->axis[axis] = true;
    return ml_fmt(m, "%%block_id_%c", "xyz"[axis]);
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
        const char *c31 = ml_const_int(m, DT_I32, 31), *c5 = ml_const_int(m, DT_I32, 5);
        sb_printf(s, "      %%mt_lane = arith.andi %%thread_id_x, %s : i32\n", c31);
        sb_printf(s, "      %%mt_warp = arith.shrui %%thread_id_x, %s : i32\n", c5);
    }
    int fast = l->order[0];
    for (int q = 0; q < l->rank; q++) {
        bool is_fast = q == fast || l->rank == 1;
        const char *op = is_fast ? "remui" : "divui";
        sb_printf(s, "      %%mt_l%d_%d = arith.%s %%mt_lane, %s : i32\n", k, q, op,
                  ml_const_int(m, DT_I32, is_fast ? l->tpw[q] : l->tpw[fast]));
        sb_printf(s, "      %%mt_w%d_%d = arith.%s %%mt_warp, %s : i32\n", k, q, op,
                  ml_const_int(m, DT_I32, is_fast ? l->wpc[q] : l->wpc[fast]));
        sb_printf(s, "      %%mt_x%d_%d = arith.muli %%mt_w%d_%d, %s : i32\n", k, q, k, q,
                  ml_const_int(m, DT_I32, l->tpw[q]));
        sb_printf(s, "      %%mt_y%d_%d = arith.addi %%mt_x%d_%d, %%mt_l%d_%d : i32\n", k, q,
                  k, q, k, q);
        sb_printf(s, "      %%mt_b%d_%d = arith.muli %%mt_y%d_%d, %s : i32\n", k, q, k, q,
                  ml_const_int(m, DT_I32, l->spt[q]));
    }
    return k;
}

/* The first coordinate a thread owns along parent dim p: %thread_id_x
 * itself for a rank-1 layout of one element per thread (the original's
 * arange). */
static const char *base_var(MEmit *m, const Layout *l, int p) {
    if (l->rank == 1 && l->spt[0] == 1)
        return "%thread_id_x";
    return ml_fmt(m, "%%mt_b%d_%d", layout_index(m, l), p);
}

/* The lane ('l') or warp ('w') coordinate of parent dim p. */
const char *ml_lane_var(MEmit *m, const Layout *l, char kind, int p) {
    return ml_fmt(m, "%%mt_%c%d_%d", kind, layout_index(m, l), p);
}

int ml_slot_along(const Dist *d, int p, int s) {
    if (d->E[p] == 1)
        return 0;
    if (d->L.rank == 1)
        return s;
    return p == 0 ? s / d->E[1] : s % d->E[1];
}

/* Coordinate along parent dim p of slot-along-p s, as an i32 value;
 * *own (when not NULL) gets the ownership test ("" when owned). */
const char *ml_coord(MEmit *m, const Dist *d, int p, int s, const char **own) {
    int32_t n = d->n[p], C = ce_tile(&d->L, p), spt = d->L.spt[p];
    if (own)
        *own = "";
    if (n == 1)
        return ml_const_int(m, DT_I32, 0);
    const char *b = base_var(m, &d->L, p);
    if (n >= C) {
        int off = (s / spt) * C + s % spt;
        if (!off)
            return b;
        const char *t = ml_tmp(m);
        ml_line(m, "%s = arith.addi %s, %s : i32", t, b, ml_const_int(m, DT_I32, off));
        return t;
    }
    const char *sum = b;
    if (s) {
        sum = ml_tmp(m);
        ml_line(m, "%s = arith.addi %s, %s : i32", sum, b, ml_const_int(m, DT_I32, s));
    }
    if (own) {
        const char *o = ml_tmp(m);
        ml_line(m, "%s = arith.cmpi slt, %s, %s : i32", o, sum, ml_const_int(m, DT_I32, n));
        *own = o;
    }
    const char *t = ml_tmp(m);
    ml_line(m, "%s = arith.andi %s, %s : i32", t, sum, ml_const_int(m, DT_I32, n - 1));
    return t;
}

/* The ownership test of slot s ("" when every thread holding it owns it). */
const char *ml_owner(MEmit *m, const Dist *d, int s) {
    const char *acc = "";
    for (int p = 0; p < d->L.rank; p++) {
        const char *o;
        ml_coord(m, d, p, ml_slot_along(d, p, s), &o);
        if (!*o)
            continue;
        if (*acc) {
            const char *t = ml_tmp(m);
            ml_line(m, "%s = arith.andi %s, %s : i1", t, acc, o);
            o = t;
        }
        acc = o;
    }
    return acc;
}

/* ------------------------------------------------------------ values */

Dist ml_dist_of_layout(MEmit *m, ValId v) {
    Value *x = val(m->f, v);
    Layout *l = &m->f->layouts[x->layout];
    return ce_dist_unregistered(l, x->type, l->slice_dim);
}

/* Gives v nslots fresh names %v<n>[_<s>] with distribution d (NULL: scalar). */
const char **ml_define(MEmit *m, ValId v, const Dist *d) {
    int n = d ? d->nE : 1;
    const char **names = arena_alloc(m->f->arena, sizeof *names * (size_t)n);
    int num = m->num[v] >= 0 ? m->num[v] : (int)v;
    for (int s = 0; s < n; s++)
        names[s] = n == 1 ? ml_fmt(m, "%%v%d", num) : ml_fmt(m, "%%v%d_%d", num, s);
    m->names[v] = names;
    m->nslots[v] = n;
    if (d) {
        m->dist[v] = *d;
        m->has_dist[v] = true;
    }
    return names;
}

const char *ml_scalar(MEmit *m, ValId v) {
    Value *x = val(m->f, v);
    if (x->kind == VK_CONST)
        return x->type.is_ptr ? ml_const_index(m, 0) : const_of(m, v);
    if (x->kind == VK_PARAM && x->type.is_ptr)
        return ml_const_index(m, 0);
    return m->names[v] ? m->names[v][0] : "%mt_undefined";
}

/* Same thread parameters: x's slots are found by parent dim (a broadcast
 * or expanded operand has size 1 along the dims it lacks). */
static bool fits(const Dist *a, const Dist *r) {
    return layout_same_params(&a->L, &r->L);
}

/* The name of x's element at slot s of a result distributed as r (NULL:
 * scalar result); NULL with an error when x is not held where r needs. */
const char *ml_elem(MEmit *m, ValId x, const Dist *r, int s, Loc loc) {
    Type t = val_type(m->f, x);
    if (t.rank == 0 || !r)
        return ml_scalar(m, x);
    if (!m->has_dist[x] || !fits(&m->dist[x], r)) {
        MLIR_ERR(m, loc, "MLIR backend: value %%%d is not held in its user's layout", m->num[x]);
        return NULL;
    }
    const Dist *a = &m->dist[x];
    int slot = 0, stride = 1;
    for (int p = r->L.rank - 1; p >= 0; p--) {
        if (a->n[p] > 1)
            slot += ml_slot_along(r, p, s) * stride;
        stride *= a->E[p];
    }
    return m->names[x][slot];
}

/* x's pointer base parameter (ValId), or 0 with an error. */
ValId ml_ptr_base(MEmit *m, ValId x, Loc loc) {
    Value *v = val(m->f, x);
    if (v->kind == VK_PARAM)
        return x;
    if (m->base[x])
        return m->base[x];
    MLIR_ERR(m, loc, "MLIR backend: a pointer must come from one pointer parameter");
    return 0;
}

/* ------------------------------------------------------------ regions */

/* The MLIR types and names of a carried value list (slots flattened). */
static int emit_region(MEmit *m, Region *r);

static void carried(MEmit *m, ValId v, const Dist *d, StrBuf *types, int *count) {
    Type t = val_type(m->f, v);
    const char *ty = t.is_ptr ? "index" : ml_mtype((DType)t.dtype);
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
            const char *e = ml_elem(m, ys[i], d, s, loc);
            if (!e) {
                sb_free(&names);
                sb_free(&types);
                return -1;
            }
            if (!t.is_ptr)
                e = ml_convert(m, e, (DType)val_type(m->f, ys[i]).dtype, (DType)t.dtype);
            sb_printf(&names, "%s%s", count ? ", " : "", e);
            sb_printf(&types, "%s%s", count ? ", " : "",
                      t.is_ptr ? "index" : ml_mtype((DType)t.dtype));
            count++;
        }
    }
    if (count)
        ml_line(m, "scf.yield %s : %s", sb_str(&names), sb_str(&types));
    else
        ml_line(m, "scf.yield");
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
        const char **nm = ml_define(m, vs[i], t.rank ? (d = ml_dist_of_layout(m, vs[i]), &d) : NULL);
        for (int s = 0; s < m->nslots[vs[i]]; s++)
            sb_printf(names, "%s%s", count++ ? ", " : "", nm[s]);
        if (t.is_ptr && bases_from)
            m->base[vs[i]] = bases_from[i];
    }
}

/* The carried values' initial slots in the iters' distributions, and
 * their types, comma separated; -1 with an error. */
static int carry_inits(MEmit *m, Op *op, const ValId *inits, StrBuf *vals, StrBuf *types) {
    Func *f = m->f;
    int count = 0, tc = 0;
    for (int i = 0; i < op->nres; i++) {
        Type t = val_type(f, op->iters[i]);
        Dist d;
        if (t.rank)
            d = ml_dist_of_layout(m, op->iters[i]);
        for (int s = 0; s < (t.rank ? d.nE : 1); s++) {
            const char *e = ml_elem(m, inits[i], t.rank ? &d : NULL, s, op->loc);
            if (!e)
                return -1;
            if (!t.is_ptr)
                e = ml_convert(m, e, (DType)val_type(f, inits[i]).dtype, (DType)t.dtype);
            sb_printf(vals, "%s%s", count++ ? ", " : "", e);
        }
        carried(m, op->iters[i], t.rank ? &d : NULL, types, &tc);
    }
    return 0;
}

/* "a = x, b = y" (sep " = ") of two comma-separated lists. */
static void pair_lists(StrBuf *out, const char *names, const char *vals, const char *sep) {
    while (*names) {
        const char *ne = strchr(names, ','), *ve = strchr(vals, ',');
        size_t nl = ne ? (size_t)(ne - names) : strlen(names);
        size_t vl = ve ? (size_t)(ve - vals) : strlen(vals);
        sb_printf(out, "%s%.*s%s%.*s", out->len ? ", " : "", (int)nl, names, sep, (int)vl, vals);
        names += nl + (ne ? 2 : 0);
        vals += vl + (ve ? 2 : 0);
    }
}

/* The parameter each carried pointer indexes (0 for other values), or
 * NULL with an error. */
static ValId *carry_bases(MEmit *m, Op *op, const ValId *inits) {
    ValId *inb = arena_alloc(m->f->arena, sizeof(ValId) * (size_t)(op->nres + 1));
    for (int i = 0; i < op->nres; i++) {
        inb[i] = 0;
        if (val_type(m->f, inits[i]).is_ptr && !(inb[i] = ml_ptr_base(m, inits[i], op->loc)))
            return NULL;
    }
    return inb;
}

/* A loop's body, each carried pointer still indexing its parameter, the
 * yield and the closing brace. */
static int loop_body(MEmit *m, Op *op, const ValId *inb) {
    m->indent++;
    int rc = emit_region(m, op->body);
    for (int i = 0; i < op->nres && rc == 0; i++)
        if (inb[i] && ml_ptr_base(m, op->yields[i], op->loc) != inb[i])
            rc = MLIR_ERR(m, op->loc, "MLIR backend: a pointer must come from one "
                                      "pointer parameter");
    if (rc == 0)
        rc = yield(m, op->yields, op->iters, op->nres, op->loc);
    m->indent--;
    ml_line(m, "}");
    return rc;
}

/* scf.while: the condition region on the carried values (the "before"
 * arguments, the iters' own names), scf.condition passing them on, the
 * body on the "after" block's arguments (the iters renamed %..._do). */
static int emit_while(MEmit *m, Op *op) {
    int n = op->nres;
    ValId *inb = carry_bases(m, op, op->args);
    if (!inb)
        return -1;
    StrBuf inits, types, iters, results, pairs, after;
    sb_init(&inits);
    sb_init(&types);
    sb_init(&iters);
    sb_init(&results);
    sb_init(&pairs);
    sb_init(&after);
    int rc = carry_inits(m, op, op->args, &inits, &types);
    if (rc == 0) {
        define_list(m, op->iters, n, &iters, inb);
        define_list(m, op->res, n, &results, inb);
        pair_lists(&pairs, sb_str(&iters), sb_str(&inits), " = ");
        ml_line(m, "%s%sscf.while (%s) : (%s) -> (%s) {", sb_str(&results), n ? " = " : "",
             sb_str(&pairs), sb_str(&types), sb_str(&types));
        m->indent++;
        rc = emit_region(m, op->alt);
        const char *c = rc == 0 ? ml_scalar(m, op->alt_yields[0]) : NULL;
        if (rc == 0)
            ml_line(m, "scf.condition(%s)%s%s%s%s", c, n ? " " : "", sb_str(&iters), n ? " : " : "",
                 sb_str(&types));
        m->indent--;
    }
    if (rc == 0) {
        ml_line(m, "} do {");
        int count = 0;
        for (int i = 0; i < n; i++)
            for (int s = 0; s < m->nslots[op->iters[i]]; s++) {
                const char *nm = ml_fmt(m, "%s_do", m->names[op->iters[i]][s]);
                m->names[op->iters[i]][s] = nm;
                sb_printf(&after, "%s%s", count++ ? ", " : "", nm);
            }
        /* the block's arguments with their types */
        StrBuf args;
        sb_init(&args);
        pair_lists(&args, sb_str(&after), sb_str(&types), ": ");
        ml_line(m, "^bb0(%s):", sb_str(&args));
        sb_free(&args);
        rc = loop_body(m, op, inb);
    }
    sb_free(&inits);
    sb_free(&types);
    sb_free(&iters);
    sb_free(&results);
    sb_free(&pairs);
    sb_free(&after);
    return rc;
}

static int emit_for(MEmit *m, Op *op) {
    Func *f = m->f;
    int n = op->nres;
    ValId *inb = carry_bases(m, op, op->args + 3);
    if (!inb)
        return -1;
    StrBuf inits, types, iters, results, pairs;
    sb_init(&inits);
    sb_init(&types);
    sb_init(&iters);
    sb_init(&results);
    sb_init(&pairs);
    int rc = carry_inits(m, op, op->args + 3, &inits, &types);
    if (rc == 0) {
        DType it = (DType)val_type(f, op->index).dtype;
        const char *b[3];
        for (int i = 0; i < 3; i++)
            b[i] = ml_convert(m, ml_scalar(m, op->args[i]), (DType)val_type(f, op->args[i]).dtype, it);
        define_list(m, op->iters, n, &iters, inb);
        define_list(m, op->res, n, &results, inb);
        ml_define(m, op->index, NULL);
        pair_lists(&pairs, sb_str(&iters), sb_str(&inits), " = ");
        if (n)
            ml_line(m, "%s = scf.for %s = %s to %s step %s iter_args(%s) -> (%s) : %s {",
                 sb_str(&results), m->names[op->index][0], b[0], b[1], b[2], sb_str(&pairs),
                 sb_str(&types), ml_mtype(it));
        else
            ml_line(m, "scf.for %s = %s to %s step %s : %s {", m->names[op->index][0], b[0], b[1],
                 b[2], ml_mtype(it));
        rc = loop_body(m, op, inb);
    }
    sb_free(&inits);
    sb_free(&types);
    sb_free(&iters);
    sb_free(&results);
    sb_free(&pairs);
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
            d = ml_dist_of_layout(m, op->res[i]);
        carried(m, op->res[i], t.rank ? &d : NULL, &types, &tc);
    }
    const char *cond = ml_scalar(m, op->args[0]);
    define_list(m, op->res, n, &results, NULL);
    if (n)
        ml_line(m, "%s = scf.if %s -> (%s) {", sb_str(&results), cond, sb_str(&types));
    else
        ml_line(m, "scf.if %s {", cond);
    m->indent++;
    int rc = emit_region(m, op->body);
    if (rc == 0 && n)
        rc = yield(m, op->yields, op->res, n, op->loc);
    m->indent--;
    if (rc == 0) {
        ml_line(m, "} else {");
        m->indent++;
        rc = emit_region(m, op->alt);
        if (rc == 0 && n)
            rc = yield(m, op->alt_yields, op->res, n, op->loc);
        m->indent--;
        ml_line(m, "}");
    }
    for (int i = 0; i < n && rc == 0; i++)
        if (val_type(f, op->res[i]).is_ptr) {
            ValId a = ml_ptr_base(m, op->yields[i], op->loc), b = ml_ptr_base(m, op->alt_yields[i], op->loc);
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
        if (!t.is_ptr && !ml_mtype((DType)t.dtype))
            return MLIR_ERR(m, op->loc, "MLIR backend does not support %s values",
                            dtype_name((DType)t.dtype));
    }
    switch (op->code) {
    case OP_LOAD: return ml_emit_load(m, op);
    case OP_STORE: return ml_emit_store(m, op);
    case OP_FOR: return emit_for(m, op);
    case OP_IF: return emit_if(m, op);
    case OP_WHILE: return emit_while(m, op);
    case OP_DOT: return ml_emit_dot(m, op);
    case OP_ATOMIC_ADD: case OP_ATOMIC_MAX: case OP_ATOMIC_MIN: case OP_ATOMIC_AND:
    case OP_ATOMIC_OR: case OP_ATOMIC_XCHG: return ml_emit_atomic(m, op);
    case OP_CONVERT_LAYOUT: return ml_emit_convert(m, op);
    case OP_BARRIER: ml_line(m, "gpu.barrier"); return 0;
    case OP_SUM: case OP_MAX: case OP_MIN: case OP_XOR_SUM: return ml_emit_reduce(m, op);
    default: break;
    }
    const OpInfo *oi = &op_info[op->code];
    if (oi->kind == K_ASM)
        return MLIR_ERR(m, op->loc, "MLIR backend does not run tl.inline_asm_elementwise");
    if (op->code == OP_GATHER)
        return MLIR_ERR(m, op->loc, "MLIR backend does not run tl.gather");
    if (op->code == OP_LIBDEVICE)
        return MLIR_ERR(m, op->loc, "MLIR backend does not run libdevice's %s",
                        libdevice_sym(op->attr[0]) ? libdevice_sym(op->attr[0])->symbol : "?");
    if (oi->kind == K_MAP)
        return MLIR_ERR(m, op->loc, "MLIR backend does not run tl.map_elementwise");
    if (oi->kind == K_GATHER)
        return ml_emit_gather(m, op);
    if (oi->kind == K_CONSTRUCTOR)
        return ml_emit_constructor(m, op);
    if (oi->kind == K_ELEMENTWISE || oi->kind == K_SHAPE)
        return ml_emit_elementwise(m, op);
    return ml_unsupported(m, op);
}

static int emit_region(MEmit *m, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (emit_op(m, op) < 0)
            return -1;
        if (m->wg_bytes > MT_SMEM_BUDGET) /* workgroup memory is static */
            return MLIR_ERR(m, op->loc, "MLIR backend: %lld bytes of workgroup memory, more "
                                        "than the %d a kernel may declare statically",
                            (long long)m->wg_bytes, MT_SMEM_BUDGET);
    }
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
            return ml_fmt(m, "%%p%d_%s", i, name);
    return ml_fmt(m, "%%%s", name);
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
        const char *ty = x->type.is_ptr ? ml_memtype((DType)x->type.dtype) : ml_mtype((DType)x->type.dtype);
        if (!ty) {
            rc = MLIR_ERR(&m, first_use(&f->body, p), "MLIR backend does not support %s "
                          "parameters", dtype_name((DType)x->type.dtype));
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
