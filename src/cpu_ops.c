/* cpu_ops.c: the cpu backend's tile ops that are not elementwise:
 * reductions, scans, tl.dot, the shape ops and the atomics.
 *
 * Input: an op of the Func cpu.c is emitting, its operands already C text
 * (tiles, scalars, or fused element texts through cpu_elem).  Output: the
 * loops that compute its result into a new tile (or scalar).
 *
 * Invariants:
 *   - a reduction along the contiguous last dim keeps MT_LANES partials
 *     (MT_LANES_MIN for short rows and for a loop's result; the elements
 *     k, k + L, k + 2L, ... in partial k mod L), combined
 *     pairwise at the end: a fixed order the C compiler can vectorise
 *     without reassociating (a float sum differs from the fiber backend's
 *     tree only by reassociation, as Triton allows); along another dim the
 *     rows combine in order, the inner loop vectorising across columns;
 *   - tl.reduce and tl.associative_scan run their combine region as
 *     scalar code, folding the elements in index order (reversed for a
 *     reverse scan), which is a valid order for an associative combine;
 *   - tl.dot multiplies in f32 (f64 for f64) from the accumulator, k = 0,
 *     1, ... in order, one FMA per step:
 *     mt_cpu_dot_f32 on f32 tiles (f16/bf16 operands widened, f32 ones
 *     rounded to TF32 first when the dot asks for tf32);
 *   - every atomic element is one read-modify-write of mt_cpu_rt.h, in
 *     row-major order, a masked-off element never touching memory (its
 *     result 0, as the fiber backend's). */
#include "mt.h"

#include <string.h>

/* Partials of a contiguous reduction: four AVX-512 vectors of f32, four
 * independent chains of adds (one vector's chain waited on each add's
 * latency: row softmax 1.62 -> 1.28 ms, 128 partials no better).  One
 * vector's 16 for rows shorter than 2 x 64, and for the reduction of a
 * loop's result (a running sum reduced once after its loop: the latency
 * is spread over the loop's passes, and four vectors cost GCC some 8 ms
 * per reduction). */
#define MT_LANES 64
#define MT_LANES_MIN 16

/* The result of op as a tile, or a scalar local of its type. */
static const char *new_result(CpuEmit *e, ValId v) {
    Type t = val_type(e->f, v);
    if (t.rank) {
        cpu_new_tile(e, v);
        return e->name[v];
    }
    e->name[v] = cpu_fmt(e, "v%d", v);
    cpu_line(e, "%s %s;", dtype_ctype((DType)t.dtype), e->name[v]);
    return e->name[v];
}

static const char *elem_at(CpuEmit *e, ValId v, const char *const *c) {
    return cpu_elem(e, v, c);
}

/* -------------------------------------------------------- reductions */

/* The start of a reduction's partials: the identity of the op's combine
 * (NaN for float max/min: maxnum's identity, as cuda.c's). */
static const char *identity(CpuEmit *e, int code, DType d) {
    int id = op_info[code].identity;
    if (id == ID_ZERO)
        return ce_zero(d);
    if (d == DT_F32)
        return "__int_as_float(0x7fc00000)";
    if (d == DT_F64)
        return "__longlong_as_double(0x7ff8000000000000LL)";
    return ctext_limit(d, id == ID_HIGHEST);
}

static const char *combine(CpuEmit *e, int code, Type t, const char *a, const char *b) {
    const char *args[2] = {a, b};
    Type at[2] = {t, t};
    return ctext_expand(e->f->arena, code, args, at, 2, t);
}

/* Coordinates of x for an outer position c (x's coordinates without the
 * axis) and the axis coordinate k. */
static void with_axis(const char *const *c, int rank, int axis, const char *k, const char **out) {
    for (int d = 0, j = 0; d < rank; d++)
        out[d] = d == axis ? k : c[j++];
}

int cpu_emit_reduce(CpuEmit *e, Op *op) {
    Func *f = e->f;
    ValId x = op->args[0], v = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, v);
    Type et = type_scalar((DType)rt.dtype);
    int axis = (int)op->attr[0], n = xt.shape[axis];
    const char *ct = dtype_ctype((DType)rt.dtype);
    const char *id = identity(e, op->code, (DType)rt.dtype);
    const char *res = new_result(e, v);
    const char *c[CPU_MAX_RANK], *xc[CPU_MAX_RANK];
    if (axis == xt.rank - 1) {
        /* per outer position: lanes of partials over the contiguous dim */
        int loops = cpu_open_loops(e, rt, c);
        const char *dst = rt.rank ? cpu_fmt(e, "%s[%s]", res, cpu_index(e, rt, c)) : res;
        bool once = val(f, x)->kind == VK_OP && op_info[val(f, x)->def->code].kind == K_REGION;
        int lanes = n >= 2 * MT_LANES && !once ? MT_LANES : n >= 2 * MT_LANES_MIN ? MT_LANES_MIN : 1;
        cpu_line(e, "{");
        e->indent++;
        cpu_line(e, "%s mt_acc[%d];", ct, lanes);
        cpu_line(e, "for (int mt_l = 0; mt_l < %d; mt_l++) mt_acc[mt_l] = %s;", lanes, id);
        int full = n / lanes * lanes;
        with_axis(c, xt.rank, axis, "(mt_k + mt_l)", xc);
        cpu_line(e, "for (int mt_k = 0; mt_k < %d; mt_k += %d)", full, lanes);
        cpu_line(e, "    for (int mt_l = 0; mt_l < %d; mt_l++)", lanes);
        cpu_line(e, "        mt_acc[mt_l] = %s;",
                 combine(e, op->code, et, "mt_acc[mt_l]", elem_at(e, x, xc)));
        if (full < n) {
            with_axis(c, xt.rank, axis, "mt_k", xc);
            cpu_line(e, "for (int mt_k = %d; mt_k < %d; mt_k++)", full, n);
            cpu_line(e, "    mt_acc[0] = %s;",
                     combine(e, op->code, et, "mt_acc[0]", elem_at(e, x, xc)));
        }
        for (int w = lanes / 2; w >= 1; w /= 2)
            cpu_line(e, "for (int mt_l = 0; mt_l < %d; mt_l++) mt_acc[mt_l] = %s;", w,
                     combine(e, op->code, et, "mt_acc[mt_l]", cpu_fmt(e, "mt_acc[mt_l + %d]", w)));
        cpu_line(e, "%s = mt_acc[0];", dst);
        e->indent--;
        cpu_line(e, "}");
        cpu_close_loops(e, loops);
        return 0;
    }
    /* along an outer dim: the result tile starts at the identity and every
     * row of the axis combines into it, the inner dims innermost */
    int loops = cpu_open_loops(e, rt, c);
    cpu_line(e, "%s[%s] = %s;", res, cpu_index(e, rt, c), id);
    cpu_close_loops(e, loops);
    cpu_line(e, "for (int mt_k = 0; mt_k < %d; mt_k++) {", n);
    e->indent++;
    loops = cpu_open_loops(e, rt, c);
    with_axis(c, xt.rank, axis, "mt_k", xc);
    const char *dst = cpu_fmt(e, "%s[%s]", res, cpu_index(e, rt, c));
    cpu_line(e, "%s = %s;", dst, combine(e, op->code, et, dst, elem_at(e, x, xc)));
    cpu_close_loops(e, loops);
    e->indent--;
    cpu_line(e, "}");
    return 0;
}

/* ------------------------------------------------- combine regions, scans */

/* Runs op's combine region on the partials acc[] and the elements el[]
 * (C texts), the new partials assigned back to acc[]; a scan's text
 * combine (cumsum) when the op has no region. */
static int combine_step(CpuEmit *e, Op *op, const char *const *acc, const char *const *el) {
    Func *f = e->f;
    int n = op->nres;
    if (!op->body) {
        Type t = type_scalar((DType)val_type(f, op->res[0]).dtype);
        cpu_line(e, "%s = %s;", acc[0], combine(e, op->code, t, acc[0], el[0]));
        return 0;
    }
    cpu_line(e, "{");
    e->indent++;
    for (int j = 0; j < n; j++) {
        e->name[op->iters[j]] = acc[j];
        e->name[op->iters[n + j]] = el[j];
    }
    for (int i = 0; i < op->body->nops; i++) {
        Op *b = op->body->ops[i];
        for (int k = 0; k < b->nres; k++)
            if (val_type(f, b->res[k]).rank)
                return cpu_unsupported(e, b, "on a block inside a combine function");
    }
    if (cpu_emit_region(e, op->body) < 0)
        return -1;
    const char *none[1] = {NULL};
    /* through temporaries: a yield may read a partial another overwrites */
    for (int j = 0; j < n; j++)
        cpu_line(e, "%s mt_n%d = %s;", dtype_ctype((DType)val_type(f, op->res[j]).dtype), j,
                 cpu_elem(e, op->yields[j], none));
    for (int j = 0; j < n; j++)
        cpu_line(e, "%s = mt_n%d;", acc[j], j);
    e->indent--;
    cpu_line(e, "}");
    return 0;
}

/* tl.reduce (any operands, a combine region) and the scans: each line
 * along the axis folded in order from its first element. */
int cpu_emit_combine(CpuEmit *e, Op *op) {
    Func *f = e->f;
    bool scan = op_info[op->code].kind == K_SCAN;
    int n = op->nres;
    if (n > 8)
        return cpu_unsupported(e, op, "of more than 8 operands");
    Type xt = val_type(f, op->args[0]);
    int axis = (int)op->attr[0], len = xt.shape[axis];
    bool reverse = scan && op->attr[1];
    const char *res[8];
    for (int j = 0; j < n; j++)
        res[j] = new_result(e, op->res[j]);
    /* one line per position of the other dims */
    Type outer = xt;
    outer.shape[axis] = 1;
    const char *c[CPU_MAX_RANK], *xc[CPU_MAX_RANK];
    int loops = cpu_open_loops(e, outer, c);
    cpu_line(e, "{");
    e->indent++;
    const char *acc[8], *el[8];
    const char *k0 = reverse ? cpu_fmt(e, "%d", len - 1) : "0";
    for (int j = 0; j < n; j++) {
        Type t = val_type(f, op->res[j]);
        acc[j] = cpu_fmt(e, "mt_a%d", j);
        for (int d = 0; d < xt.rank; d++)
            xc[d] = d == axis ? k0 : c[d];
        cpu_line(e, "%s %s = %s;", dtype_ctype((DType)t.dtype), acc[j], elem_at(e, op->args[j], xc));
    }
    Type rt0 = val_type(f, op->res[0]);
    const char *rc[CPU_MAX_RANK];
    for (int d = 0, k = 0; d < xt.rank; d++)
        if (scan || d != axis)
            rc[k++] = scan && d == axis ? "mt_k" : c[d];
    if (scan) {
        for (int d = 0; d < xt.rank; d++)
            xc[d] = d == axis ? k0 : c[d];
        for (int j = 0; j < n; j++)
            cpu_line(e, "%s[%s] = %s;", res[j], cpu_index(e, xt, xc), acc[j]);
    }
    if (reverse)
        cpu_line(e, "for (int mt_k = %d; mt_k >= 0; mt_k--) {", len - 2);
    else
        cpu_line(e, "for (int mt_k = 1; mt_k < %d; mt_k++) {", len);
    e->indent++;
    for (int d = 0; d < xt.rank; d++)
        xc[d] = d == axis ? "mt_k" : c[d];
    for (int j = 0; j < n; j++) {
        el[j] = cpu_fmt(e, "mt_e%d", j);
        cpu_line(e, "%s %s = %s;", dtype_ctype((DType)val_type(f, op->res[j]).dtype), el[j],
                 elem_at(e, op->args[j], xc));
    }
    if (combine_step(e, op, acc, el) < 0)
        return -1;
    if (scan)
        for (int j = 0; j < n; j++)
            cpu_line(e, "%s[%s] = %s;", res[j], cpu_index(e, xt, xc), acc[j]);
    e->indent--;
    cpu_line(e, "}");
    if (!scan)
        for (int j = 0; j < n; j++) {
            if (rt0.rank)
                cpu_line(e, "%s[%s] = %s;", res[j], cpu_index(e, val_type(f, op->res[j]), rc),
                         acc[j]);
            else
                cpu_line(e, "%s = %s;", res[j], acc[j]);
        }
    e->indent--;
    cpu_line(e, "}");
    cpu_close_loops(e, loops);
    return 0;
}

/* tl.map_elementwise: the region once per element, in row-major order,
 * its parameters the operands' elements there. */
int cpu_emit_map(CpuEmit *e, Op *op) {
    Func *f = e->f;
    int n = op->nargs, m = op->nres;
    if (n > MT_MAX_MAP || m > MT_MAX_MAP || !op->body)
        return cpu_unsupported(e, op, NULL);
    for (int i = 0; i < op->body->nops; i++) {
        Op *b = op->body->ops[i];
        for (int k = 0; k < b->nres; k++)
            if (val_type(f, b->res[k]).rank)
                return cpu_unsupported(e, b, "on a block inside a mapped function");
    }
    Type rt = val_type(f, op->res[0]);
    const char *res[MT_MAX_MAP], *c[CPU_MAX_RANK], *oc[CPU_MAX_RANK];
    for (int k = 0; k < m; k++)
        res[k] = new_result(e, op->res[k]);
    int loops = cpu_open_loops(e, rt, c);
    cpu_line(e, "{");
    e->indent++;
    for (int k = 0; k < n; k++) {
        ValId it = op->iters[k];
        cpu_map_coords(rt, c, val_type(f, op->args[k]), oc);
        const char *name = cpu_fmt(e, "mt_m%d", k);
        cpu_line(e, "%s %s = %s;", dtype_ctype((DType)val_type(f, it).dtype), name,
                 cpu_elem(e, op->args[k], oc));
        e->name[it] = name;
    }
    if (cpu_emit_region(e, op->body) < 0)
        return -1;
    const char *none[1] = {NULL};
    for (int k = 0; k < m; k++)
        cpu_line(e, "%s[%s] = %s;", res[k], cpu_index(e, val_type(f, op->res[k]), c),
                 cpu_elem(e, op->yields[k], none));
    e->indent--;
    cpu_line(e, "}");
    cpu_close_loops(e, loops);
    return 0;
}

/* ---------------------------------------------------------------- dot */

/* A dot operand as an f32 tile: its own when it is one, else a copy
 * widened from f16/bf16, or rounded to TF32 (input_precision="tf32", as
 * the GPU's tensor cores and the fiber backend read f32 operands; tf32x3
 * recovers f32's precision, which plain f32 products have already). */
static const char *f32_operand(CpuEmit *e, ValId x, bool tf32) {
    Type t = val_type(e->f, x);
    if (t.dtype == DT_F32 && !tf32 && e->how[x] == CPU_TILE)
        return e->name[x];
    const char *nm = cpu_tmp(e, "mt_dot");
    sb_printf(&e->decl, "    float *const %s = (float *)(mt_frame + %lld);\n", nm,
              (long long)e->frame);
    e->frame += (type_numel(t) * 4 + 63) & ~(int64_t)63;
    const char *c[CPU_MAX_RANK];
    int loops = cpu_open_loops(e, t, c);
    const char *x32 = ctext_convert(e->f->arena, cpu_elem(e, x, c), type_elem(t),
                                    type_scalar(DT_F32));
    cpu_line(e, "%s[%s] = %s;", nm, cpu_index(e, t, c),
             tf32 && t.dtype == DT_F32 ? cpu_fmt(e, "mt_tf32(%s)", x32) : x32);
    cpu_close_loops(e, loops);
    return nm;
}

int cpu_emit_dot(CpuEmit *e, Op *op) {
    Func *f = e->f;
    ValId a = op->args[0], b = op->args[1], acc = op->args[2], v = op->res[0];
    Type at = val_type(f, a), rt = val_type(f, v);
    /* rank 3: a batch of B dots over consecutive [M, K], [K, N] and
     * [M, N] tiles (the operands as contiguous tiles) */
    int r0 = rt.rank - 2, B = r0 ? rt.shape[0] : 1;
    int M = rt.shape[r0], N = rt.shape[r0 + 1], K = at.shape[r0 + 1];
    /* the accumulator's tile becomes the result's when nothing else reads
     * it (acc = tl.dot(a, b, acc) in a K loop: no copy at all) */
    if (acc && e->how[acc] == CPU_TILE && e->uses[acc] == 1 && type_eq(val_type(f, acc), rt) &&
        (val(f, acc)->kind == VK_LOOP_ARG || strcmp(e->name[acc], cpu_fmt(e, "v%d", acc)) == 0)) {
        /* (not a reshape's or expand_dims' view of a tile others read) */
        e->name[v] = e->name[acc];
        e->how[v] = CPU_TILE;
    } else {
        cpu_new_tile(e, v);
        const char *c[CPU_MAX_RANK], *cc[CPU_MAX_RANK];
        int loops = cpu_open_loops(e, rt, c);
        const char *x = ce_zero((DType)rt.dtype);
        if (acc) {
            cpu_map_coords(rt, c, val_type(f, acc), cc);
            x = ctext_convert(f->arena, cpu_elem(e, acc, cc), type_elem(val_type(f, acc)),
                              type_elem(rt));
        }
        cpu_line(e, "%s[%s] = %s;", e->name[v], cpu_index(e, rt, c), x);
        cpu_close_loops(e, loops);
    }
    if (rt.dtype == DT_F32) {
        const char *pa = f32_operand(e, a, op->attr[0] == DOT_TF32);
        const char *pb = f32_operand(e, b, op->attr[0] == DOT_TF32);
        if (r0) {
            cpu_line(e, "for (int mt_b = 0; mt_b < %d; mt_b++)", B);
            cpu_line(e, "    mt_cpu_dot_f32(%d, %d, %d, %s + mt_b * %d, %d, %s + mt_b * %d, %d, "
                        "%s + mt_b * %d, %d);", M, N, K, pa, M * K, K, pb, K * N, N, e->name[v],
                     M * N, N);
        } else {
            cpu_line(e, "mt_cpu_dot_f32(%d, %d, %d, %s, %d, %s, %d, %s, %d);", M, N, K, pa, K,
                     pb, N, e->name[v], N);
        }
        return 0;
    }
    const char *ia[3] = {"mt_b", "mt_m", "mt_k"}, *ib[3] = {"mt_b", "mt_k", "mt_n"},
               *ir[3] = {"mt_b", "mt_m", "mt_n"};
    const char *dst = cpu_fmt(e, "%s[%s]", e->name[v], cpu_index(e, rt, ir + 1 - r0));
    if (r0)
        cpu_line(e, "for (int mt_b = 0; mt_b < %d; mt_b++)", B);
    if (rt.dtype == DT_I32 || rt.dtype == DT_F16) {
        /* int8 operands: an integer sum added to the accumulator modulo
         * 2^32 (unsigned: no signed overflow in the C); an f16 accumulator
         * (out_dtype=float16): the dot's sum in f32, rounded into it once */
        bool ints = rt.dtype == DT_I32;
        Type h = type_scalar(DT_F16), s = type_scalar(DT_F32);
        const char *x = cpu_elem(e, a, ia + 1 - r0), *y = cpu_elem(e, b, ib + 1 - r0);
        cpu_line(e, "for (int mt_m = 0; mt_m < %d; mt_m++)", M);
        cpu_line(e, "    for (int mt_n = 0; mt_n < %d; mt_n++) {", N);
        cpu_line(e, "        %s mt_s = %s;", ints ? "unsigned" : "float",
                 ints ? cpu_fmt(e, "(unsigned)%s", dst) : ctext_convert(f->arena, dst, h, s));
        cpu_line(e, "        for (int mt_k = 0; mt_k < %d; mt_k++)", K);
        if (ints)
            cpu_line(e, "            mt_s += (unsigned)((int)%s * (int)%s);", x, y);
        else
            cpu_line(e, "            mt_s = fmaf(%s, %s, mt_s);", ctext_convert(f->arena, x, h, s),
                     ctext_convert(f->arena, y, h, s));
        cpu_line(e, "        %s = %s;", dst,
                 ints ? "(int)mt_s" : ctext_convert(f->arena, "mt_s", s, h));
        cpu_line(e, "    }");
        return 0;
    }
    /* f64: one FMA per step, k in order, the inner loop across N */
    cpu_line(e, "for (int mt_m = 0; mt_m < %d; mt_m++)", M);
    cpu_line(e, "    for (int mt_k = 0; mt_k < %d; mt_k++)", K);
    cpu_line(e, "        for (int mt_n = 0; mt_n < %d; mt_n++)", N);
    cpu_line(e, "            %s = fma(%s, %s, %s);", dst, cpu_elem(e, a, ia + 1 - r0),
             cpu_elem(e, b, ib + 1 - r0), dst);
    return 0;
}

/* --------------------------------------------------------- shape ops */

/* The coordinates in operand `which` of the element a shape op's result
 * has at c; NULL when that operand does not hold it (join, cat: the
 * other one does). */
static bool gather_coords(CpuEmit *e, const Op *op, const char *const *c, int which,
                          const char **out, const char **cond) {
    Func *f = e->f;
    Type rt = val_type(f, op->res[0]), xt = val_type(f, op->args[which]);
    *cond = NULL;
    switch (op->code) {
    case OP_TRANS:
        for (int d = 0; d < rt.rank; d++)
            out[d] = c[d];
        out[rt.rank - 2] = c[rt.rank - 1];
        out[rt.rank - 1] = c[rt.rank - 2];
        return true;
    case OP_JOIN:
        for (int d = 0; d < xt.rank; d++)
            out[d] = c[d];
        *cond = cpu_fmt(e, "%s == %d", c[rt.rank - 1], which);
        return true;
    case OP_SPLIT:
        for (int d = 0; d < rt.rank; d++)
            out[d] = c[d];
        out[rt.rank] = cpu_fmt(e, "%lld", (long long)op->attr[0]);
        return true;
    case OP_CAT: {
        int n0 = val_type(f, op->args[0]).shape[0];
        out[0] = which ? cpu_fmt(e, "(%s - %d)", c[0], n0) : c[0];
        *cond = which ? cpu_fmt(e, "%s >= %d", c[0], n0) : cpu_fmt(e, "%s < %d", c[0], n0);
        return true;
    }
    case OP_FLIP:
        for (int d = 0; d < rt.rank; d++)
            out[d] = d == op->attr[0] && rt.shape[d] > 1
                         ? cpu_fmt(e, "(%d - %s)", rt.shape[d] - 1, c[d])
                         : c[d];
        return true;
    case OP_GATHER: {
        /* index's element at c, wrapped into the dim (cuda_shape.c) */
        int d = (int)op->attr[0], n = xt.shape[d];
        const char *ix = cpu_elem(e, op->args[1], c);
        for (int k = 0; k < rt.rank; k++)
            out[k] = c[k];
        out[d] = n == 1 ? "0"
                 : (n & (n - 1)) == 0 ? cpu_fmt(e, "(int)(%s & %d)", ix, n - 1)
                                      : cpu_fmt(e, "(int)((unsigned long long)%s %% %d)", ix, n);
        return true;
    }
    case OP_RESHAPE: {
        /* the same row-major index, split by the operand's shape */
        const char *flat = cpu_index(e, rt, c);
        int64_t stride = 1;
        for (int d = xt.rank - 1; d >= 0; d--) {
            out[d] = xt.shape[d] == 1 ? "0"
                     : cpu_fmt(e, "((%s) / %lld %% %d)", flat, (long long)stride, xt.shape[d]);
            stride *= xt.shape[d];
        }
        return true;
    }
    default:
        return false;
    }
}

int cpu_emit_gather(CpuEmit *e, Op *op) {
    Func *f = e->f;
    ValId v = op->res[0], x = op->args[0];
    if (op->code == OP_RESHAPE && e->how[x] == CPU_TILE && val_type(f, v).rank) {
        e->name[v] = e->name[x]; /* row-major order is kept: the same tile */
        e->how[v] = CPU_TILE;
        return 0;
    }
    Type rt = val_type(f, v);
    const char *c[CPU_MAX_RANK], *xc[CPU_MAX_RANK + 1];
    const char *res = new_result(e, v);
    int loops = cpu_open_loops(e, rt, c);
    const char *dst = rt.rank ? cpu_fmt(e, "%s[%s]", res, cpu_index(e, rt, c)) : res;
    const char *cond;
    if (!gather_coords(e, op, c, 0, xc, &cond)) {
        cpu_close_loops(e, loops);
        return cpu_unsupported(e, op, NULL);
    }
    const char *x0 = cpu_elem(e, x, xc);
    if (op->nargs > 1 && cond) { /* join, cat: the other operand elsewhere */
        const char *c0 = cond;
        gather_coords(e, op, c, 1, xc, &cond);
        cpu_line(e, "%s = %s ? %s : %s;", dst, c0, x0, cpu_elem(e, op->args[1], xc));
    } else {
        cpu_line(e, "%s = %s;", dst, x0);
    }
    cpu_close_loops(e, loops);
    return 0;
}

/* ------------------------------------------------------------ atomics */

static const char *bits_type(DType d) {
    int n = dtype_info[d].bytes;
    return n == 2 ? "unsigned short" : n == 4 ? "unsigned" : "unsigned long long";
}

int cpu_emit_atomic(CpuEmit *e, Op *op) {
    Func *f = e->f;
    ValId v = op->res[0];
    Type pt = val_type(f, op->args[0]);
    DType d = (DType)pt.dtype;
    if (dtype_info[d].bytes < 2)
        return cpu_unsupported(e, op, "on 8-bit elements");
    Type s = val_type(f, v);
    const char *res = new_result(e, v);
    const char *c[CPU_MAX_RANK], *oc[CPU_MAX_RANK];
    int loops = cpu_open_loops(e, s, c);
    const char *dst = s.rank ? cpu_fmt(e, "%s[%s]", res, cpu_index(e, s, c)) : res;
    const char *a[3];
    for (int i = 0; i < 3; i++) {
        a[i] = NULL;
        if (i < op->nargs && op->args[i]) {
            cpu_map_coords(s, c, val_type(f, op->args[i]), oc);
            a[i] = cpu_elem(e, op->args[i], oc);
        }
    }
    const char *T = dtype_ctype(d), *U = bits_type(d);
    if (op->code == OP_ATOMIC_CAS) {
        cpu_line(e, "MT_CPU_CAS(%s, %s, %s, %s, %s, %s);", T, U, a[0], a[1], a[2], dst);
    } else {
        const char *rmw = cpu_fmt(e, "MT_CPU_RMW(%s, %s, %s, %s, %s, %s);", T, U, a[0], a[1],
                                  atomic_update_text(f->arena, op->code, d), dst);
        if (a[2])
            cpu_line(e, "if (%s) %s else %s = %s;", a[2], rmw, dst, ce_zero(d));
        else
            cpu_line(e, "%s", rmw);
    }
    cpu_close_loops(e, loops);
    return 0;
}

/* -------------------------------------------------------------- debug */

/* print: every element of each operand once, in row-major order, in the
 * fiber backend's line format (cuda_debug.c), the program's one thread
 * holding them all; assert (debug mode): the first false element fails
 * the launch with the assertion's text and ends the program. */
int cpu_emit_debug(CpuEmit *e, Op *op) {
    Func *f = e->f;
    Arena *ar = f->arena;
    if (op->code == OP_ASSERT) {
        ValId x = op->args[0];
        Type t = val_type(f, x);
        const char *c[CPU_MAX_RANK];
        int loops = cpu_open_loops(e, t, c);
        cpu_line(e, "if (!%s) {", cpu_elem(e, x, c));
        cpu_line(e, "    mt_self->ops->fail(mt_self->worker, \"%s\", \"%s\", %d, \"%s\");",
                 debug_c_literal(ar, op->str[0], false), debug_c_literal(ar, e->c->filename, false),
                 (int)op->loc.line, debug_c_literal(ar, op->str[1], false));
        cpu_line(e, "    return;");
        cpu_line(e, "}");
        cpu_close_loops(e, loops);
        return 0;
    }
    const char *prefix = debug_c_literal(ar, op->str[0], true);
    const char *pid = "mt_self->block_idx.x, mt_self->block_idx.y, mt_self->block_idx.z";
    if (op->nargs == 0) {
        cpu_line(e, "printf(\"pid (%%u, %%u, %%u)%s\\n\", %s);", prefix, pid);
        return 0;
    }
    for (int i = 0; i < op->nargs; i++) {
        ValId x = op->args[i];
        Type t = val_type(f, x);
        const char *c[CPU_MAX_RANK];
        int loops = cpu_open_loops(e, t, c);
        StrBuf fm, a;
        sb_init(&fm);
        sb_init(&a);
        sb_puts(&fm, "pid (%u, %u, %u) idx (");
        sb_puts(&a, pid);
        for (int k = 0; k < t.rank; k++) {
            sb_printf(&fm, "%s%%%du", k ? ", " : "", debug_index_width(t.shape[k]));
            sb_printf(&a, ", (unsigned)(%s)", c[k]);
        }
        sb_printf(&fm, ")%s", prefix);
        if (op->nargs > 1)
            sb_printf(&fm, "(operand %d) ", i);
        const char *vf, *va;
        debug_value_format(ar, t, cpu_elem(e, x, c), op->attr[0] != 0, &vf, &va);
        cpu_line(e, "printf(\"%s%s\\n\", %s, %s);", sb_str(&fm), vf, sb_str(&a), va);
        sb_free(&fm);
        sb_free(&a);
        cpu_close_loops(e, loops);
    }
    return 0;
}
