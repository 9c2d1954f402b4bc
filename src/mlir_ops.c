/* mlir_ops.c: the MLIR emitter's ops (see mlir.c for the module, its
 * threads and its values): elementwise arithmetic, comparisons, casts and
 * math, constructors, loads and stores, reductions, and the ops that move
 * elements between threads (shape ops, layout conversions) through
 * workgroup memory.
 *
 * Input: one op of the laid-out Func whose operands are already emitted
 * (MEmit's names and distributions).  Output: lines of the function body
 * and the result's slot names; NULL or -1 with a located error for what
 * it does not lower.  Every op is written per slot, in the slot order of
 * cuda_dist.c, so an MLIR thread holds what its CUDA thread holds. */
#include "mt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MLIR_ERR(m, loc, ...) diag_error((m)->f->ctx, (loc), MT_ERR_UNSUPPORTED, __VA_ARGS__)

/* ------------------------------------------------------------ elementwise */

/* v (type from) as type to, both scalar dtypes. */
const char *ml_convert(MEmit *m, const char *v, DType from, DType to) {
    if (from == to || (ml_bits(from) == ml_bits(to) && !ml_is_f(from) && !ml_is_f(to) &&
                       from != DT_I1 && to != DT_I1))
        return v;
    const char *t = ml_tmp(m), *ft = ml_mtype(from), *tt = ml_mtype(to);
    if (to == DT_I1) {
        const char *z = ml_is_f(from) ? ml_const_float(m, from, 0) : ml_const_int(m, from, 0);
        ml_line(m, "%s = arith.%s, %s, %s : %s", t, ml_is_f(from) ? "cmpf une" : "cmpi ne", v, z,
             ft);
    } else if (ml_is_f(from) && ml_is_f(to) && ml_bits(from) == ml_bits(to)) { /* f16 <-> bf16 */
        return ml_convert(m, ml_convert(m, v, from, DT_F32), DT_F32, to);
    } else if (ml_is_f(from) && ml_is_f(to)) {
        ml_line(m, "%s = arith.%s %s : %s to %s", t, ml_bits(to) > ml_bits(from) ? "extf" : "truncf",
             v, ft, tt);
    } else if (ml_is_f(to)) {
        ml_line(m, "%s = arith.%s %s : %s to %s", t,
             ml_is_u(from) || from == DT_I1 ? "uitofp" : "sitofp", v, ft, tt);
    } else if (ml_is_f(from)) {
        ml_line(m, "%s = arith.%s %s : %s to %s", t, ml_is_u(to) ? "fptoui" : "fptosi", v, ft, tt);
    } else {
        const char *op = ml_bits(to) < ml_bits(from) ? "trunci"
                         : ml_is_u(from) || from == DT_I1 ? "extui" : "extsi";
        ml_line(m, "%s = arith.%s %s : %s to %s", t, op, v, ft, tt);
    }
    return t;
}

/* One PTX instruction on n operands of float type ty (f32 or f64): the
 * NVVM conversion sends math ops to libdevice, which is not linked, so
 * the instructions CUDA's sqrtf, floorf, fabsf, fmaf compile to are
 * written out (sqrt.rn is exact, cvt.rmi is floor, ...). */
static const char *ptx(MEmit *m, const char *ins, const char **a, int n, const char *ty) {
    const char *t = ml_tmp(m), *c = !strcmp(ty, "f64") ? "d" : "f";
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
    ml_line(m, "%s = llvm.inline_asm \"%s.%s $0, %s;\", \"%s\" %s : (%s) -> %s", t, ins, ty,
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
    const char *t = ml_tmp(m);
    ml_line(m, "%s = arith.%s %s, %s : f32", t, op, a, b);
    return t;
}

/* Float ops on operands a (f32 or f64, type ty). */
static const char *float_op(MEmit *m, int code, const char **a, const char *ty, DType d) {
    static const struct { int code; const char *op; int n; } tab[] = {
        {OP_ADD, "arith.addf", 2}, {OP_SUB, "arith.subf", 2}, {OP_MUL, "arith.mulf", 2},
        {OP_DIV_RN, "arith.divf", 2}, {OP_REM, "arith.remf", 2},
        {OP_MAXIMUM, "arith.maxnumf", 2}, {OP_MINIMUM, "arith.minnumf", 2},
        {OP_MAXIMUM_NAN, "arith.maximumf", 2}, {OP_MINIMUM_NAN, "arith.minimumf", 2},
        {OP_NEG, "arith.negf", 1},
    };
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++) {
        if (tab[i].code != code)
            continue;
        const char *t = ml_tmp(m);
        if (tab[i].n == 1)
            ml_line(m, "%s = %s %s : %s", t, tab[i].op, a[0], ty);
        else
            ml_line(m, "%s = %s %s, %s : %s", t, tab[i].op, a[0], a[1], ty);
        return t;
    }
    if (code == OP_SQRT) /* Triton's tl.sqrt: approximate on f32 only */
        return ptx(m, d == DT_F32 ? "sqrt.approx.ftz" : "sqrt.rn", a, 1, ty);
    static const struct { int code; const char *ins; int n; } ins[] = {
        {OP_SQRT_RN, "sqrt.rn", 1}, {OP_ABS, "abs", 1}, {OP_FLOOR, "cvt.rmi", 1},
        {OP_CEIL, "cvt.rpi", 1}, {OP_TRUNC, "cvt.rzi", 1}, {OP_RINT, "cvt.rni", 1},
        {OP_FMA, "fma.rn", 3},
    };
    for (size_t i = 0; i < sizeof ins / sizeof *ins; i++) {
        if (ins[i].code != code)
            continue;
        /* cvt rounds to an integral value of the same type: cvt.rmi.f32.f32 */
        bool cvt = !strncmp(ins[i].ins, "cvt", 3);
        const char *name = cvt ? ml_fmt(m, "%s.%s", ins[i].ins, ty) : ins[i].ins;
        return ptx(m, name, a, ins[i].n, ty);
    }
    if (code == OP_DIV && d != DT_F32) {
        const char *t = ml_tmp(m);
        ml_line(m, "%s = arith.divf %s, %s : %s", t, a[0], a[1], ty);
        return t;
    }
    if (d != DT_F32)
        return NULL;
    switch (code) { /* the instructions Triton's fp32 math uses */
    case OP_DIV: return ptx(m, "div.full", a, 2, "f32");
    case OP_EXP:
        return ptx1(m, "ex2.approx", fbin(m, "mulf", a[0], ml_const_float(m, DT_F32, 1.4426950408889634)));
    case OP_EXP2: return ptx1(m, "ex2.approx", a[0]);
    case OP_LOG2: return ptx1(m, "lg2.approx", a[0]);
    case OP_LOG:
        return fbin(m, "mulf", ptx1(m, "lg2.approx", a[0]),
                    ml_const_float(m, DT_F32, 0.6931471805599453));
    case OP_RSQRT: return ptx1(m, "rsqrt.approx", a[0]);
    default: return NULL;
    }
}

static const char *int_op(MEmit *m, int code, const char **a, const char *ty, DType d) {
    bool u = ml_is_u(d);
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
        const char *t = ml_tmp(m);
        ml_line(m, "%s = arith.subi %s, %s : %s", t, ml_const_int(m, d, 0), a[0], ty);
        return t;
    }
    case OP_NOT: {
        const char *t = ml_tmp(m);
        ml_line(m, "%s = arith.xori %s, %s : %s", t, a[0], ml_const_int(m, d, d == DT_I1 ? 1 : -1), ty);
        return t;
    }
    case OP_UMULHI: { /* the high half of the unsigned product */
        const char *t = ml_tmp(m), *c = ml_bits(d) == 64 ? "l" : "r";
        if (ml_bits(d) < 32)
            return NULL;
        ml_line(m, "%s = llvm.inline_asm \"mul.hi.u%d $0, $1, $2;\", \"=%s,%s,%s\" %s, %s : (%s, %s) -> %s",
             t, ml_bits(d), c, c, c, a[0], a[1], ty, ty, ty);
        return t;
    }
    case OP_ABS: { /* abs(MIN) is MIN, as Triton's */
        const char *neg = ml_tmp(m), *lt = ml_tmp(m), *t = ml_tmp(m);
        ml_line(m, "%s = arith.subi %s, %s : %s", neg, ml_const_int(m, d, 0), a[0], ty);
        ml_line(m, "%s = arith.cmpi slt, %s, %s : %s", lt, a[0], ml_const_int(m, d, 0), ty);
        ml_line(m, "%s = arith.select %s, %s, %s : %s", t, lt, neg, a[0], ty);
        return t;
    }
    default: return NULL;
    }
    const char *t = ml_tmp(m);
    ml_line(m, "%s = arith.%s %s, %s : %s", t, op, a[0], a[1], ty);
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
        const char *t = ml_tmp(m);
        if (ml_is_f(d))
            ml_line(m, "%s = arith.cmpf %s, %s, %s : %s", t, tab[i].f, a[0], a[1], ml_mtype(d));
        else
            ml_line(m, "%s = arith.cmpi %s, %s, %s : %s", t,
                 ml_is_u(d) || d == DT_I1 ? tab[i].u : tab[i].s, a[0], a[1], ml_mtype(d));
        return t;
    }
    if (code == OP_ISNAN || code == OP_ISINF) {
        const char *t = ml_tmp(m);
        if (code == OP_ISNAN) {
            ml_line(m, "%s = arith.cmpf uno, %s, %s : %s", t, a[0], a[0], ml_mtype(d));
        } else {
            const char *ab = ptx(m, "abs", a, 1, ml_mtype(d));
            ml_line(m, "%s = arith.cmpf oeq, %s, %s : %s", t, ab, ml_const_float(m, d, INFINITY),
                 ml_mtype(d));
        }
        return t;
    }
    return NULL;
}

/* %<prefix><n> or %<prefix><n>_<s>: the name of slot s of v. */
static const char *slot_name(MEmit *m, const char *prefix, ValId v, const Dist *r, int s) {
    int num = m->num[v] >= 0 ? m->num[v] : (int)v;
    if (!r || r->nE == 1)
        return ml_fmt(m, "%%%s%d", prefix, num);
    return ml_fmt(m, "%%%s%d_%d", prefix, num, s);
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
        a[i] = ml_elem(m, x, r, s, op->loc);
        if (!a[i])
            return NULL;
    }
    switch (op->code) {
    case OP_EXPAND_DIMS: case OP_BROADCAST: case OP_MULTIPLE_OF:
    case OP_MAX_CONTIGUOUS: case OP_MAX_CONSTANCY:
        return a[0];
    case OP_CAST:
        if (val_type(f, op->args[0]).is_ptr || rt.is_ptr)
            return NULL; /* a pointer is an index into its memref here */
        return ml_convert(m, a[0], ad[0], rd);
    case OP_BITCAST: {
        if (val_type(f, op->args[0]).is_ptr || rt.is_ptr)
            return NULL;
        const char *t = ml_tmp(m);
        ml_line(m, "%s = arith.bitcast %s : %s to %s", t, a[0], ml_mtype(ad[0]), ml_mtype(rd));
        return t;
    }
    case OP_SELECT: {
        const char *t = ml_tmp(m);
        const char *ty = rt.is_ptr ? "index" : ml_mtype(rd);
        ml_line(m, "%s = arith.select %s, %s, %s : %s", t, a[0],
             rt.is_ptr ? a[1] : ml_convert(m, a[1], ad[1], rd),
             rt.is_ptr ? a[2] : ml_convert(m, a[2], ad[2], rd), ty);
        return t;
    }
    case OP_ADDPTR: {
        /* an index into the parameter's memref: offsets sign-extend
         * (index_cast does), unsigned ones zero-extend first */
        const char *off = a[1];
        const char *oty = ml_mtype(ad[1]);
        if (ml_is_u(ad[1]) && ml_bits(ad[1]) < 64) {
            off = ml_convert(m, off, ad[1], DT_U64);
            oty = "i64";
        }
        bool from_param = val(f, op->args[0])->kind == VK_PARAM;
        const char *ix = from_param ? slot_name(m, "idx", op->res[0], r, s) : ml_tmp(m);
        ml_line(m, "%s = arith.index_cast %s : %s to index", ix, off, oty);
        if (from_param)
            return ix;
        const char *t = slot_name(m, "idx", op->res[0], r, s);
        ml_line(m, "%s = arith.addi %s, %s : index", t, a[0], ix);
        return t;
    }
    default:
        break;
    }
    if (op->code >= OP_CMP_LT && op->code <= OP_CMP_NE) {
        DType d = promote_dtype(ad[0], ad[1]);
        if (val_type(f, op->args[0]).is_ptr)
            return NULL;
        const char *b[2] = {ml_convert(m, a[0], ad[0], d), ml_convert(m, a[1], ad[1], d)};
        return compare(m, op->code, b, d);
    }
    if (op->code == OP_ISNAN || op->code == OP_ISINF)
        return compare(m, op->code, a, ad[0]);
    /* arithmetic: operands in the result's type (f16/bf16 computed in f32) */
    DType cd = ml_narrow(rd) ? DT_F32 : rd;
    const char *b[3];
    for (int i = 0; i < 3; i++)
        b[i] = a[i] ? ml_convert(m, a[i], ad[i], cd) : NULL;
    const char *res = ml_is_f(cd) ? float_op(m, op->code, b, ml_mtype(cd), cd)
                               : int_op(m, op->code, b, ml_mtype(cd), cd);
    if (res && cd != rd)
        res = ml_convert(m, res, cd, rd);
    return res;
}

/* ------------------------------------------------------------ ops */

static const Dist *res_dist(MEmit *m, ValId v, Dist *buf) {
    if (val_type(m->f, v).rank == 0)
        return NULL;
    *buf = ml_dist_of_layout(m, v);
    return buf;
}

int ml_emit_elementwise(MEmit *m, Op *op) {
    Dist db;
    const Dist *r = res_dist(m, op->res[0], &db);
    int n = r ? r->nE : 1;
    const char **out = arena_alloc(m->f->arena, sizeof *out * (size_t)n);
    for (int s = 0; s < n; s++) {
        size_t from = m->body.len;
        int first = m->tmp;
        out[s] = elementwise(m, op, r, s);
        if (!out[s])
            return m->f->ctx->status ? -1 : ml_unsupported(m, op);
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
        ValId b = op->code == OP_SELECT ? ml_ptr_base(m, op->args[1], op->loc)
                                        : ml_ptr_base(m, op->args[0], op->loc);
        if (!b)
            return -1;
        if (op->code == OP_SELECT && ml_ptr_base(m, op->args[2], op->loc) != b)
            return MLIR_ERR(m, op->loc, "MLIR backend: a pointer must come from one "
                                        "pointer parameter");
        m->base[op->res[0]] = b;
    }
    return 0;
}

int ml_emit_constructor(MEmit *m, Op *op) {
    Dist db;
    ValId res = op->res[0];
    const Dist *r = res_dist(m, res, &db);
    Type rt = val_type(m->f, res);
    int n = r ? r->nE : 1;
    const char **out = arena_alloc(m->f->arena, sizeof *out * (size_t)n);
    for (int s = 0; s < n; s++) {
        switch (op->code) {
        case OP_PROGRAM_ID:
            out[s] = ml_program_id(m, (int)op->attr[0] % 3);
            break;
        case OP_NUM_PROGRAMS:
            m->nprog[op->attr[0] % 3] = true;
            out[s] = ml_fmt(m, "%%num_programs_%c", "xyz"[op->attr[0] % 3]);
            break;
        case OP_ARANGE: {
            const char *c = ml_coord(m, r, r->pdim[0], ml_slot_along(r, r->pdim[0], s), NULL);
            if (op->attr[0]) {
                const char *t = ml_tmp(m);
                ml_line(m, "%s = arith.addi %s, %s : i32", t, c,
                     ml_const_int(m, DT_I32, op->attr[0]));
                c = t;
            }
            out[s] = c;
            break;
        }
        case OP_ZEROS:
            out[s] = ml_is_f((DType)rt.dtype) ? ml_const_float(m, (DType)rt.dtype, 0)
                                           : ml_const_int(m, (DType)rt.dtype, 0);
            break;
        case OP_FULL:
            out[s] = ml_convert(m, ml_scalar(m, op->args[0]),
                             (DType)val_type(m->f, op->args[0]).dtype, (DType)rt.dtype);
            break;
        default:
            return ml_unsupported(m, op);
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
int ml_emit_load(MEmit *m, Op *op) {
    Dist db;
    ValId res = op->res[0];
    const Dist *r = res_dist(m, res, &db);
    DType d = (DType)val_type(m->f, res).dtype;
    if (!ml_mtype(d))
        return ml_unsupported(m, op);
    ValId b = ml_ptr_base(m, op->args[0], op->loc);
    if (!b)
        return -1;
    const char *mem = ml_fmt(m, "memref<?x%s>", ml_memtype(d));
    const char **out = ml_define(m, res, r);
    for (int s = 0; s < m->nslots[res]; s++) {
        const char *ix = ml_elem(m, op->args[0], r, s, op->loc);
        const char *mask = op->nargs > 1 && op->args[1] ? ml_elem(m, op->args[1], r, s, op->loc) : "";
        if (!ix || !mask)
            return -1;
        const char *other = NULL;
        if (*mask) {
            ValId o = op->nargs > 2 ? op->args[2] : 0;
            other = o ? ml_convert(m, ml_elem(m, o, r, s, op->loc),
                                (DType)val_type(m->f, o).dtype, d)
                      : ml_is_f(d) ? ml_const_float(m, d, 0) : ml_const_int(m, d, 0);
            ml_line(m, "%s = scf.if %s -> (%s) {", out[s], mask, ml_mtype(d));
            m->indent++;
        }
        const char *ld = *mask ? slot_name(m, "loaded", res, r, s) : out[s];
        ml_line(m, "%s = memref.load %s[%s] : %s", d == DT_I1 ? ml_fmt(m, "%s_byte", ld) : ld,
             m->names[b][0], ix, mem);
        if (d == DT_I1)
            ml_line(m, "%s = arith.cmpi ne, %s_byte, %s : i8", ld, ld, ml_const_int(m, DT_I8, 0));
        if (*mask) {
            ml_line(m, "scf.yield %s : %s", ld, ml_mtype(d));
            m->indent--;
            ml_line(m, "} else {");
            ml_line(m, "  scf.yield %s : %s", other, ml_mtype(d));
            ml_line(m, "}");
        }
    }
    return 0;
}

/* The condition under which slot s of an access distributed as r (NULL:
 * a scalar) acts, so that each element acts once: its owner, or thread 0
 * for a scalar, and mask when not "". */
static const char *once(MEmit *m, const Dist *r, int s, const char *mask) {
    const char *own = r ? ml_owner(m, r, s) : ml_tmp(m);
    if (!r)
        ml_line(m, "%s = arith.cmpi eq, %%thread_id_x, %s : i32", own,
                ml_const_int(m, DT_I32, 0));
    if (!*own)
        return mask;
    if (!*mask)
        return own;
    const char *t = ml_tmp(m);
    ml_line(m, "%s = arith.andi %s, %s : i1", t, own, mask);
    return t;
}

/* cuda.c's stores: a block store by the owners of each slot; a scalar
 * store by thread 0; a scalar pointer under a block mask by the owner of
 * every set mask element (the same value to the same address). */
int ml_emit_store(MEmit *m, Op *op) {
    ValId p = op->args[0], v = op->args[1];
    ValId mk = op->nargs > 2 ? op->args[2] : 0;
    Type pt = val_type(m->f, p);
    DType d = (DType)pt.dtype;
    ValId b = ml_ptr_base(m, p, op->loc);
    if (!b)
        return -1;
    if (!ml_mtype(d))
        return ml_unsupported(m, op);
    const Dist *r = pt.rank ? &m->dist[p] : mk && val_type(m->f, mk).rank ? &m->dist[mk] : NULL;
    if ((pt.rank && !m->has_dist[p]) || (!pt.rank && r && !m->has_dist[mk]))
        return ml_unsupported(m, op);
    const char *mem = ml_fmt(m, "memref<?x%s>", ml_memtype(d));
    int n = r ? r->nE : 1;
    for (int s = 0; s < n; s++) {
        const char *ix = pt.rank ? ml_elem(m, p, r, s, op->loc) : ml_scalar(m, p);
        const char *x = pt.rank ? ml_elem(m, v, r, s, op->loc) : ml_scalar(m, v);
        const char *mask = mk ? ml_elem(m, mk, r, s, op->loc) : "";
        if (!ix || !x || !mask)
            return -1;
        x = ml_convert(m, x, (DType)val_type(m->f, v).dtype, d);
        mask = once(m, r, s, mask);
        if (d == DT_I1) {
            const char *t = ml_tmp(m);
            ml_line(m, "%s = arith.extui %s : i1 to i8", t, x);
            x = t;
        }
        if (*mask) {
            ml_line(m, "scf.if %s {", mask);
            m->indent++;
        }
        ml_line(m, "memref.store %s, %s[%s] : %s", x, m->names[b][0], ix, mem);
        if (*mask) {
            m->indent--;
            ml_line(m, "}");
        }
    }
    return 0;
}

/* ------------------------------------------------------------ reductions */

/* A workgroup buffer of n elements of MLIR type ty: its name. */
static const char *ml_workgroup(MEmit *m, int64_t n, const char *ty) {
    const char *name = ml_fmt(m, "%%mt_wg%d", m->nwg++);
    m->wg_bytes += n * (strcmp(ty, "f64") && strcmp(ty, "i64") && strcmp(ty, "index") ? 4 : 8);
    sb_printf(&m->wg, "%s%s: memref<%lldx%s, #gpu.address_space<workgroup>>",
              m->wg.len ? ", " : "", name, (long long)n, ty);
    return name;
}

static const char *identity(MEmit *m, int code, DType d) {
    ReduceIdentity id = (ReduceIdentity)op_info[code].identity;
    if (ml_is_f(d)) /* max/min start from NaN, which maxnum drops (design.md) */
        return ml_const_float(m, d, id == ID_ZERO ? 0.0 : NAN);
    if (id == ID_ZERO)
        return ml_const_int(m, d, 0);
    int w = ml_bits(d);
    bool u = ml_is_u(d);
    int64_t lo = u ? 0 : (w == 64 ? INT64_MIN : -((int64_t)1 << (w - 1)));
    int64_t hi = u ? -1 : (w == 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1);
    return ml_const_int(m, d, id == ID_LOWEST ? lo : hi);
}

static const char *combine(MEmit *m, int code, DType d, const char *a, const char *b) {
    static const struct { int code, op; } tab[] = {
        {OP_SUM, OP_ADD}, {OP_MAX, OP_MAXIMUM}, {OP_MIN, OP_MINIMUM}, {OP_XOR_SUM, OP_XOR},
    };
    const char *x[3] = {a, b, NULL};
    for (size_t i = 0; i < sizeof tab / sizeof *tab; i++)
        if (tab[i].code == code)
            return ml_is_f(d) ? float_op(m, tab[i].op, x, ml_mtype(d), d)
                           : int_op(m, tab[i].op, x, ml_mtype(d), d);
    return NULL;
}

/* cuda.c's reduction: each thread its owned slots along the axis, xor
 * shuffles over the lanes along it, the warps' partials through
 * workgroup memory (one row of W per coordinate of the other dim). */
int ml_emit_reduce(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId x = op->args[0], res = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, res);
    DType d = (DType)xt.dtype;
    if (op->nargs != 1 || op->nres != 1 || xt.is_ptr || !ml_mtype(d) || ml_narrow(d) ||
        !m->has_dist[x])
        return ml_unsupported(m, op);
    const char *ty = ml_mtype(d);
    const Dist *dx = &m->dist[x];
    int pa = dx->pdim[op->attr[0]];
    int po = dx->L.rank == 2 ? 1 - pa : -1;
    int Eo = po >= 0 ? dx->E[po] : 1, Ea = dx->E[pa];
    Dist rd;
    if (rt.rank)
        rd = ce_dist_unregistered(&dx->L, rt, pa);
    const char **out = ml_define(m, res, rt.rank ? &rd : NULL);
    int fast = dx->L.order[0];
    int stride = pa == fast || dx->L.rank == 1 ? 1 : dx->L.tpw[fast];
    int W = dx->L.wpc[pa];
    const char **part = arena_alloc(f->arena, sizeof *part * (size_t)Eo);
    for (int j = 0; j < Eo; j++) {
        const char *acc = identity(m, op->code, d);
        for (int s = 0; s < Ea; s++) {
            int slot = po < 0 ? s : pa == 0 ? s * dx->E[1] + j : j * dx->E[1] + s;
            const char *own;
            ml_coord(m, dx, pa, s, &own);
            const char *c = combine(m, op->code, d, acc, m->names[x][slot]);
            if (*own) {
                const char *t = ml_tmp(m);
                ml_line(m, "%s = arith.select %s, %s, %s : %s", t, own, c, acc, ty);
                c = t;
            }
            acc = c;
        }
        for (int k = 1; k < dx->L.tpw[pa]; k *= 2) {
            const char *sh = ml_tmp(m);
            ml_line(m, "%s, %s_ok = gpu.shuffle xor %s, %s, %s : %s", sh, sh, acc,
                 ml_const_int(m, DT_I32, k * stride), ml_const_int(m, DT_I32, 32), ty);
            acc = combine(m, op->code, d, acc, sh);
        }
        part[j] = acc;
    }
    if (W > 1) {
        int rows = po >= 0 ? dx->n[po] : 1;
        const char *buf = ml_workgroup(m, (int64_t)rows * W, ty);
        const char *mem = ml_fmt(m, "memref<%dx%s, #gpu.address_space<workgroup>>", rows * W, ty);
        const char *lz = ml_tmp(m);
        ml_line(m, "%s = arith.cmpi eq, %s, %s : i32", lz, ml_lane_var(m, &dx->L, 'l', pa),
             ml_const_int(m, DT_I32, 0));
        const char **row = arena_alloc(f->arena, sizeof *row * (size_t)Eo);
        for (int j = 0; j < Eo; j++) {
            const char *oo = "";
            const char *co = po >= 0 ? ml_coord(m, dx, po, j, &oo) : ml_const_int(m, DT_I32, 0);
            row[j] = ml_tmp(m);
            ml_line(m, "%s = arith.muli %s, %s : i32", row[j], co, ml_const_int(m, DT_I32, W));
            const char *at = ml_tmp(m), *ix = ml_tmp(m), *cond = lz;
            ml_line(m, "%s = arith.addi %s, %s : i32", at, row[j], ml_lane_var(m, &dx->L, 'w', pa));
            ml_line(m, "%s = arith.index_cast %s : i32 to index", ix, at);
            if (*oo) {
                cond = ml_tmp(m);
                ml_line(m, "%s = arith.andi %s, %s : i1", cond, lz, oo);
            }
            ml_line(m, "scf.if %s {", cond);
            ml_line(m, "  memref.store %s, %s[%s] : %s", part[j], buf, ix, mem);
            ml_line(m, "}");
        }
        ml_line(m, "gpu.barrier");
        for (int j = 0; j < Eo; j++) {
            const char *acc = NULL;
            for (int w = 0; w < W; w++) {
                const char *at = ml_tmp(m), *ix = ml_tmp(m), *v = ml_tmp(m);
                ml_line(m, "%s = arith.addi %s, %s : i32", at, row[j], ml_const_int(m, DT_I32, w));
                ml_line(m, "%s = arith.index_cast %s : i32 to index", ix, at);
                ml_line(m, "%s = memref.load %s[%s] : %s", v, buf, ix, mem);
                acc = acc ? combine(m, op->code, d, acc, v) : v;
            }
            part[j] = acc;
        }
        ml_line(m, "gpu.barrier");
    }
    for (int j = 0; j < Eo; j++) /* the result is the combined partials */
        out[j] = part[j];
    return 0;
}

/* ------------------------------------------------------------ conversions */

static const char *iop(MEmit *m, const char *op, const char *a, const char *b) {
    const char *t = ml_tmp(m);
    ml_line(m, "%s = arith.%s %s, %s : i32", t, op, a, b);
    return t;
}

/* Row-major index (i32) of coordinates c of shape `shape`. */
static const char *row_major(MEmit *m, const char **c, const int32_t *shape, int rank) {
    const char *lin = c[0];
    for (int i = 1; i < rank; i++)
        lin = iop(m, "addi", iop(m, "muli", lin, ml_const_int(m, DT_I32, shape[i])), c[i]);
    return lin;
}

/* The coordinates (i32 values) of slot s of a value of type t held as d. */
static void coords(MEmit *m, const Dist *d, Type t, int s, const char **c) {
    for (int i = 0; i < t.rank; i++) {
        int p = d->pdim[i];
        c[i] = ml_coord(m, d, p, ml_slot_along(d, p, s), NULL);
    }
}

/* The owners of x's slots store them at offset + their row-major index
 * into buf (a workgroup memref of type mem), then a barrier. */
static void store_owned(MEmit *m, ValId x, int64_t offset, const char *buf, const char *mem) {
    Type t = val_type(m->f, x);
    const Dist *d = &m->dist[x];
    for (int s = 0; s < d->nE; s++) {
        const char *c[MT_MAX_RANK];
        coords(m, d, t, s, c);
        const char *lin = row_major(m, c, t.shape, t.rank);
        if (offset)
            lin = iop(m, "addi", lin, ml_const_int(m, DT_I32, offset));
        const char *ix = ml_tmp(m);
        ml_line(m, "%s = arith.index_cast %s : i32 to index", ix, lin);
        const char *own = ml_owner(m, d, s);
        if (*own)
            ml_line(m, "scf.if %s {", own);
        ml_line(m, "%smemref.store %s, %s[%s] : %s", *own ? "  " : "", m->names[x][s], buf, ix, mem);
        if (*own)
            ml_line(m, "}");
    }
}

/* The index each result slot reads (cuda_shape.c's source_index): the
 * result coordinates c mapped back to the operands' row-major order. */
static const char *gather_source(MEmit *m, const Op *op, const char **c) {
    Type rt = val_type(m->f, op->res[0]), at = val_type(m->f, op->args[0]);
    const char *src[MT_MAX_RANK + 1];
    int n = at.rank;
    for (int i = 0; i < rt.rank; i++)
        src[i] = c[i];
    switch (op->code) {
    case OP_RESHAPE:
        return row_major(m, c, rt.shape, rt.rank);
    case OP_TRANS:
        src[n - 2] = c[n - 1];
        src[n - 1] = c[n - 2];
        return row_major(m, src, at.shape, n);
    case OP_FLIP: {
        int d = (int)op->attr[0];
        src[d] = iop(m, "subi", ml_const_int(m, DT_I32, at.shape[d] - 1), c[d]);
        return row_major(m, src, at.shape, n);
    }
    case OP_JOIN:
        return iop(m, "addi", iop(m, "muli", c[n], ml_const_int(m, DT_I32, type_numel(at))),
                   row_major(m, c, at.shape, n));
    case OP_SPLIT:
        src[n - 1] = ml_const_int(m, DT_I32, op->attr[0]);
        return row_major(m, src, at.shape, n);
    default: /* cat: the operands one after the other */
        return c[0];
    }
}

/* Shape ops (K_GATHER) through workgroup memory: the operands' owners
 * store every element, a barrier, each result slot reads its source, a
 * barrier. */
int ml_emit_gather(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res), at = val_type(f, op->args[0]);
    int nops = op->code == OP_JOIN || op->code == OP_CAT ? 2 : 1;
    const char *ty = ml_mtype((DType)at.dtype);
    if (at.rank > 2 || at.is_ptr || !ty || op->nres != 1)
        return ml_unsupported(m, op);
    for (int k = 0; k < nops; k++)
        if (!m->has_dist[op->args[k]])
            return ml_unsupported(m, op);
    int64_t numel = type_numel(at);
    const char *buf = ml_workgroup(m, numel * nops, ty);
    const char *mem = ml_fmt(m, "memref<%lldx%s, #gpu.address_space<workgroup>>",
                          (long long)(numel * nops), ty);
    for (int k = 0; k < nops; k++)
        store_owned(m, op->args[k], k * numel, buf, mem);
    ml_line(m, "gpu.barrier");
    Dist rd = ml_dist_of_layout(m, res);
    const char **out = ml_define(m, res, &rd);
    for (int s = 0; s < rd.nE; s++) {
        const char *c[MT_MAX_RANK];
        coords(m, &rd, rt, s, c);
        const char *ix = ml_tmp(m);
        ml_line(m, "%s = arith.index_cast %s : i32 to index", ix, gather_source(m, op, c));
        ml_line(m, "%s = memref.load %s[%s] : %s", out[s], buf, ix, mem);
    }
    ml_line(m, "gpu.barrier");
    return 0;
}

/* convert_layout through workgroup memory: the owners of x store it at
 * its row-major index, a barrier, every thread reads its slots of the
 * result, a barrier. */
int ml_emit_convert(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId x = op->args[0], res = op->res[0];
    Type t = val_type(f, x);
    const char *ty = t.is_ptr ? "index" : ml_mtype((DType)t.dtype);
    if (!ty || !m->has_dist[x])
        return ml_unsupported(m, op);
    if (t.is_ptr)
        m->base[res] = m->base[x] ? m->base[x] : x;
    int64_t n = type_numel(t);
    const char *buf = ml_workgroup(m, n, ty);
    const char *mem = ml_fmt(m, "memref<%lldx%s, #gpu.address_space<workgroup>>", (long long)n, ty);
    store_owned(m, x, 0, buf, mem);
    ml_line(m, "gpu.barrier");
    Dist rd = ml_dist_of_layout(m, res);
    const char **out = ml_define(m, res, &rd);
    for (int s = 0; s < rd.nE; s++) {
        const char *c[MT_MAX_RANK];
        coords(m, &rd, t, s, c);
        const char *ix = ml_tmp(m);
        ml_line(m, "%s = arith.index_cast %s : i32 to index", ix, row_major(m, c, t.shape, t.rank));
        ml_line(m, "%s = memref.load %s[%s] : %s", out[s], buf, ix, mem);
    }
    ml_line(m, "gpu.barrier");
    return 0;
}


/* ------------------------------------------------------------ dot */

/* A tf32 operand: cvt.rna.tf32.f32 (round to nearest, ties away, 10
 * mantissa bits; the bits of an f32), as the CUDA path's mt_tf32. */
static const char *tf32(MEmit *m, const char *x) {
    const char *bitsv = ml_tmp(m), *t = ml_tmp(m);
    ml_line(m, "%s = llvm.inline_asm \"cvt.rna.tf32.f32 $0, $1;\", \"=r,f\" %s : (f32) -> i32",
            bitsv, x);
    ml_line(m, "%s = arith.bitcast %s : i32 to f32", t, bitsv);
    return t;
}

/* tl.dot on the FMA units: both operands through workgroup memory, then
 * each result slot an scf.for over K of fma.rn into its accumulator (f16
 * and bf16 operands widened: their products are exact in f32; tf32 and
 * tf32x3 round the operands as Triton's input precisions do). */
int ml_emit_dot(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId a = op->args[0], b = op->args[1], acc = op->nargs > 2 ? op->args[2] : 0;
    ValId res = op->res[0];
    Type at = val_type(f, a), bt = val_type(f, b), rt = val_type(f, res);
    DType ed = (DType)at.dtype, cd = (DType)rt.dtype;
    if (!m->has_dist[a] || !m->has_dist[b] || (acc && !m->has_dist[acc]) || !ml_mtype(ed) ||
        (op->attr[0] != DOT_IEEE && ed != DT_F32 && ed != DT_F16 && ed != DT_BF16))
        return ml_unsupported(m, op);
    int M = at.shape[0], K = at.shape[1], N = bt.shape[1];
    /* an f16 accumulator (out_dtype=float16) sums in f32, rounded once;
     * int8 operands sum in f32 too (exact: tl.dot limits K to 1024), the
     * i32 sum then added to the accumulator */
    bool ints = ed == DT_I8;
    DType sd = cd == DT_F16 || ints ? DT_F32 : cd;
    const char *ty = ml_mtype(ed), *cty = ml_mtype(sd);
    const char *ba = ml_workgroup(m, (int64_t)M * K, ty), *bb = ml_workgroup(m, (int64_t)K * N, ty);
    const char *ma = ml_fmt(m, "memref<%dx%s, #gpu.address_space<workgroup>>", M * K, ty);
    const char *mb = ml_fmt(m, "memref<%dx%s, #gpu.address_space<workgroup>>", K * N, ty);
    store_owned(m, a, 0, ba, ma);
    store_owned(m, b, 0, bb, mb);
    ml_line(m, "gpu.barrier");
    Dist rd = ml_dist_of_layout(m, res);
    const char **out = ml_define(m, res, &rd);
    bool tf = ed == DT_F32 && op->attr[0] != DOT_IEEE, x3 = op->attr[0] == DOT_TF32X3;
    for (int s = 0; s < rd.nE; s++) {
        const char *c[2];
        coords(m, &rd, rt, s, c);
        const char *init = acc && !ints ? ml_elem(m, acc, &rd, s, op->loc)
                                        : ml_const_float(m, ints ? DT_F32 : cd, 0);
        if (!init)
            return -1;
        init = ints ? init : ml_convert(m, init, cd, sd);
        const char *result = sd == cd ? out[s] : ml_tmp(m);
        const char *row = iop(m, "muli", c[0], ml_const_int(m, DT_I32, K));
        const char *k = ml_tmp(m), *sum = ml_tmp(m);
        ml_line(m, "%s = scf.for %s = %s to %s step %s iter_args(%s = %s) -> (%s) : i32 {",
                result, k, ml_const_int(m, DT_I32, 0), ml_const_int(m, DT_I32, K),
                ml_const_int(m, DT_I32, 1), sum, init, cty);
        m->indent++;
        const char *ia = ml_tmp(m), *ib = ml_tmp(m), *x = ml_tmp(m), *y = ml_tmp(m);
        ml_line(m, "%s = arith.index_cast %s : i32 to index", ia, iop(m, "addi", row, k));
        ml_line(m, "%s = arith.index_cast %s : i32 to index", ib,
                iop(m, "addi", iop(m, "muli", k, ml_const_int(m, DT_I32, N)), c[1]));
        ml_line(m, "%s = memref.load %s[%s] : %s", x, ba, ia, ma);
        ml_line(m, "%s = memref.load %s[%s] : %s", y, bb, ib, mb);
        x = ml_convert(m, x, ed, sd);
        y = ml_convert(m, y, ed, sd);
        const char *r;
        if (tf) {
            const char *xb = tf32(m, x), *yb = tf32(m, y);
            const char *fx[3] = {xb, yb, sum};
            if (x3) { /* the small parts' products first, then the big one */
                const char *dx = ml_tmp(m), *dy = ml_tmp(m);
                ml_line(m, "%s = arith.subf %s, %s : f32", dx, x, xb);
                ml_line(m, "%s = arith.subf %s, %s : f32", dy, y, yb);
                const char *ys = tf32(m, dy);
                const char *p1[3] = {tf32(m, dx), yb, sum};
                const char *s1 = ptx(m, "fma.rn", p1, 3, "f32");
                const char *p2[3] = {xb, ys, s1};
                fx[2] = ptx(m, "fma.rn", p2, 3, "f32");
            }
            r = ptx(m, "fma.rn", fx, 3, "f32");
        } else {
            const char *fx[3] = {x, y, sum};
            r = ptx(m, "fma.rn", fx, 3, cty);
        }
        ml_line(m, "scf.yield %s : %s", r, cty);
        m->indent--;
        ml_line(m, "}");
        if (ints) { /* the exact f32 sum as i32, plus the accumulator */
            const char *si = ml_convert(m, result, DT_F32, DT_I32);
            const char *a0 = acc ? ml_elem(m, acc, &rd, s, op->loc) : NULL;
            if (acc && !a0)
                return -1;
            ml_line(m, "%s = arith.addi %s, %s : i32", out[s], si,
                    a0 ? a0 : ml_const_int(m, DT_I32, 0));
        } else if (sd != cd) {
            ml_line(m, "%s = arith.truncf %s : f32 to f16", out[s], result);
        }
    }
    ml_line(m, "gpu.barrier");
    return 0;
}

/* ------------------------------------------------------------ atomics */

/* memref.atomic_rmw's kind for an atomic op on dtype d; NULL: none (xor,
 * cas and float max/min, which Triton lowers through integer tricks). */
static const char *rmw_kind(int code, DType d) {
    bool f = ml_is_f(d), u = ml_is_u(d);
    switch (code) {
    case OP_ATOMIC_ADD: return f ? "addf" : "addi";
    case OP_ATOMIC_MAX: return f ? NULL : u ? "maxu" : "maxs";
    case OP_ATOMIC_MIN: return f ? NULL : u ? "minu" : "mins";
    case OP_ATOMIC_AND: return f ? NULL : "andi";
    case OP_ATOMIC_OR: return f ? NULL : "ori";
    case OP_ATOMIC_XCHG: return "assign";
    default: return NULL;
    }
}

/* An atomic per element, once (cuda_atomic.c's rule): by the owner of a
 * block slot, by thread 0 for a scalar, under its mask; the old value is
 * the result.  A used result that other threads hold copies of (a scalar,
 * a replicated block) is refused: it would need its copies shared. */
int ml_emit_atomic(MEmit *m, Op *op) {
    Func *f = m->f;
    ValId p = op->args[0], v = op->args[1], mk = op->nargs > 2 ? op->args[2] : 0;
    Type pt = val_type(f, p);
    DType d = (DType)pt.dtype;
    const char *kind = rmw_kind(op->code, d);
    ValId b = ml_ptr_base(m, p, op->loc);
    if (!b)
        return -1;
    if (!kind || ml_narrow(d) || d == DT_I1 || (pt.rank && !m->has_dist[p]))
        return ml_unsupported(m, op);
    if (atomic_result_shared(f, op))
        return MLIR_ERR(m, op->loc, "MLIR backend: the result of an atomic on a scalar or on "
                                    "a block whose elements several threads hold is not "
                                    "supported");
    const Dist *r = pt.rank ? &m->dist[p] : NULL;
    const char *ty = ml_mtype(d), *mem = ml_fmt(m, "memref<?x%s>", ml_memtype(d));
    const char **out = ml_define(m, op->res[0], r);
    for (int s = 0; s < m->nslots[op->res[0]]; s++) {
        const char *ix = ml_elem(m, p, r, s, op->loc), *x = ml_elem(m, v, r, s, op->loc);
        const char *mask = mk ? ml_elem(m, mk, r, s, op->loc) : "";
        if (!ix || !x || !mask)
            return -1;
        x = ml_convert(m, x, (DType)val_type(f, v).dtype, d);
        mask = once(m, r, s, mask);
        const char *old = *mask ? ml_tmp(m) : out[s];
        if (*mask) {
            ml_line(m, "%s = scf.if %s -> (%s) {", out[s], mask, ty);
            m->indent++;
        }
        ml_line(m, "%s = memref.atomic_rmw %s %s, %s[%s] : (%s, %s) -> %s", old, kind, x,
                m->names[b][0], ix, ty, mem, ty);
        if (*mask) {
            ml_line(m, "scf.yield %s : %s", old, ty);
            m->indent--;
            ml_line(m, "} else {");
            ml_line(m, "  scf.yield %s : %s", ml_is_f(d) ? ml_const_float(m, d, 0)
                                                      : ml_const_int(m, d, 0), ty);
            ml_line(m, "}");
        }
    }
    return 0;
}
