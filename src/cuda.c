/* cuda.c: the CUDA C emitter's driver and its non-dot op emitters.
 *
 * Input: a verified, optimised Func after the back-end passes: layouts
 * and explicit conversions (layout.c), axis facts (axis.c), dot plans
 * (dotplan.c) and the shared-memory plan (smemplan.c).  The emitter
 * decides nothing those passes decide; it turns the annotated IR into
 * text.  Output: deterministic CUDA C text of one kernel, or -1 with a
 * located error (unsupported op) and `out` untouched.
 *
 * This file walks the IR (cuda_emit, the region and op dispatch) and
 * emits elementwise ops, loads and stores (slot at a time; the 64/128-bit
 * vector accesses the axis facts allow are cuda_mem.c's), reductions
 * (warp shuffles, then shared scratch across warps) and for loops (a
 * parallel copy of the yields).  The distribution algebra and operand
 * texts are in cuda_dist.c, dot lowering in cuda_dot.c; the state they
 * share is Emit (mt.h). */
#include "mt.h"

#include <string.h>

/* --------------------------------------------------------- op emitters */

static int emit_region(Emit *e, Region *r);

int ce_unsupported(Emit *e, const Op *op) {
    return diag_error(e->c, op->loc, MT_ERR_UNSUPPORTED,
                      "the CUDA backend cannot lower '%s'",
                      op_info[op->code].name);
}

/* A block cast f32 -> f16/bf16 (round to nearest) two slots at a time,
 * through the paired conversion Triton uses.  Not only faster: ptxas
 * serialises a kernel's wgmmas when their accumulator is read by 16-bit
 * conversions (C7514), and this is the cast of every f16 matmul's
 * epilogue.  The slot order is the one-at-a-time loop's. */
static bool emit_paired_cast(Emit *e, Op *op, const Dist *r) {
    if (op->code != OP_CAST || r->nE % 2)
        return false;
    DType from = (DType)val_type(e->f, op->args[0]).dtype;
    DType to = (DType)val_type(e->f, op->res[0]).dtype;
    if (from != DT_F32 || (to != DT_F16 && to != DT_BF16))
        return false;
    const char *x = ce_elem(e, op->args[0], r, op->loc);
    ValId res = op->res[0];
    ce_line(e, "unsigned short v%d[%d];", res, r->nE);
    ce_unroll(e);
    ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += 2) {", r->nE);
    e->indent++;
    ce_line(e, "float mt_pr[2];");
    ce_unroll(e);
    ce_line(e, "for (int %s = mt_g; %s < mt_g + 2; ++%s)", CE_SLOT, CE_SLOT, CE_SLOT);
    ce_line(e, "    mt_pr[%s - mt_g] = %s;", CE_SLOT, x);
    ce_line(e, "const unsigned mt_p = mt_f32x2_to_%s(mt_pr[0], mt_pr[1]);",
            to == DT_F16 ? "f16x2" : "bf16x2");
    ce_line(e, "v%d[mt_g] = (unsigned short)mt_p;", res);
    ce_line(e, "v%d[mt_g + 1] = (unsigned short)(mt_p >> 16);", res);
    e->indent--;
    ce_line(e, "}");
    return true;
}

/* How many consecutive slots of a thread a pure bool op computes once: a
 * mask whose value axis.c finds constant over aligned runs of `constancy`
 * along the fastest dim (cols < n, n a multiple of 16), where the
 * thread's slots along that dim are runs of spt consecutive elements
 * starting at multiples of spt (ce_fast_runs), so a run of
 * min(constancy, spt) slots holds one value, as Triton's code tests one
 * predicate a group.  1: every slot its own. */
static int constant_run(Emit *e, const Op *op, const Dist *r) {
    Type rt = val_type(e->f, op->res[0]);
    if (rt.dtype != DT_I1 || !(op_info[op->code].flags & F_PURE) || op->nres != 1)
        return 1;
    int fd = r->L.rank - 1;
    if (!ce_fast_runs(r))
        return 1;
    int64_t run = e->f->axis[op->res[0]].constancy;
    if (run > r->L.spt[fd])
        run = r->L.spt[fd];
    return run > 1 && r->nE % run == 0 ? (int)run : 1;
}

static int emit_elementwise(Emit *e, Op *op) {
    if (e->index_arith && ce_check_arith(e, op) < 0)
        return -1;
    if (op->code == OP_LOAD && val_type(e->f, op->res[0]).rank > 0) {
        int done = ce_emit_vector_load(e, op);
        if (done)
            return done < 0 ? -1 : 0;
    }
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    const char *ct = ce_ctype(e, type_elem(rt));
    e->name[res] = ce_fmt(e, "v%d", res);
    if (rt.rank == 0) {
        const char *x = ce_elementwise_expr(e, op, NULL);
        if (!x)
            return ce_unsupported(e, op);
        /* a base offset at run time (X + row * stride): opaque to NVVM,
         * which would fold it into every element's address (mt_base_ptr) */
        if (op->code == OP_ADDPTR && !val_is_const(f, op->args[1]))
            x = ce_fmt(e, "mt_base_ptr%s", x);
        ce_line(e, "%s v%d = %s;", ct, res, x);
        return 0;
    }
    Dist r = ce_dist_of(e, res);
    if (!emit_paired_cast(e, op, &r)) {
        const char *x = ce_elementwise_expr(e, op, &r);
        if (!x)
            return ce_unsupported(e, op);
        ce_line(e, "%s v%d[%d];", ct, res, r.nE);
        int run = constant_run(e, op, &r);
        ce_unroll(e);
        if (run > 1) { /* the run's first slot, copied over the run */
            ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", r.nE, run);
            e->indent++;
            ce_line(e, "const int %s = mt_g;", CE_SLOT);
            ce_line(e, "v%d[mt_g] = %s;", res, x);
            ce_unroll(e);
            ce_line(e, "for (int mt_k = 1; mt_k < %d; ++mt_k)", run);
            ce_line(e, "    v%d[mt_g + mt_k] = v%d[mt_g];", res, res);
            e->indent--;
            ce_line(e, "}");
        } else {
            ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
            ce_line(e, "    v%d[%s] = %s;", res, CE_SLOT, x);
        }
    }
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 0;
}

static int emit_expand_dims(Emit *e, Op *op) {
    Func *f = e->f;
    ValId x = op->args[0], res = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, res);
    if (xt.rank != 1 || rt.rank != 2)
        return emit_elementwise(e, op);
    Dist r = ce_dist_of(e, res);
    int map[1] = {op->attr[0] == 0 ? 1 : 0};
    Access a = ce_operand(e, x, &r, map, op->loc);
    e->name[res] = a.name; /* same slots: no code */
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 0;
}

static int emit_store(Emit *e, Op *op) {
    Func *f = e->f;
    ValId p = op->args[0], v = op->args[1], m = op->args[2];
    Type pt = val_type(f, p), vt = val_type(f, v);
    Type elem = type_scalar((DType)pt.dtype);
    if (pt.rank == 0) {
        const char *val_text = ce_cast(e, ce_vname(e, v), vt, elem);
        if (m && val_type(f, m).rank > 0) {
            /* A block mask on a scalar pointer: the pointer broadcasts to
             * the mask's shape, so each owner of a set mask element stores
             * the same value to the same address (a benign duplicate). */
            Dist r = e->dist[m];
            const char *mx = ce_elem(e, m, &r, op->loc);
            const char *own = ce_owner(e, &r, CE_SLOT);
            const char *cond = *own ? ce_fmt(e, "%s && %s", own, mx) : mx;
            ce_unroll(e);
            ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
            ce_line(e, "    if (%s) %s;", cond, ce_store_text(e, op, ce_vname(e, p), val_text));
            return 0;
        }
        if (m)
            ce_line(e, "if (threadIdx.x == 0 && %s) %s;", ce_vname(e, m),
                 ce_store_text(e, op, ce_vname(e, p), val_text));
        else
            ce_line(e, "if (threadIdx.x == 0) %s;", ce_store_text(e, op, ce_vname(e, p), val_text));
        return 0;
    }
    Dist r = e->dist[p];
    const char *vx = ce_cast(e, ce_elem(e, v, &r, op->loc), vt, elem);
    const char *mx = m ? ce_elem(e, m, &r, op->loc) : "";
    const char *own = ce_owner(e, &r, CE_SLOT);
    const char *cond = *own && *mx ? ce_fmt(e, "%s && %s", own, mx)
                       : *own      ? own
                                   : mx;
    int done = ce_emit_vector_store(e, op, p, &r, vx, mx, (DType)pt.dtype);
    if (done)
        return done < 0 ? -1 : 0;
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    const char *pe = ce_fmt(e, "%s[%s]", e->name[p], CE_SLOT);
    if (*cond)
        ce_line(e, "    if (%s) %s;", cond, ce_store_text(e, op, pe, vx));
    else
        ce_line(e, "    %s;", ce_store_text(e, op, pe, vx));
    return 0;
}

/* The start of a reduction's partials.  The float max/min combine is
 * maxnum/minnum (a NaN operand gives the other), whose identity is NaN,
 * not an infinity: a row of NaN only stays NaN, as Triton's combine of
 * the elements themselves gives (reductions reach here in f32 or f64). */
static const char *reduce_identity(int code, Type t) {
    int id = op_info[code].identity;
    if (id == ID_ZERO)
        return ce_zero((DType)t.dtype);
    if (t.dtype == DT_F32)
        return "__int_as_float(0x7fc00000)";
    if (t.dtype == DT_F64)
        return "__longlong_as_double(0x7ff8000000000000LL)";
    return ctext_limit((DType)t.dtype, id == ID_HIGHEST);
}

/* The reduce row's C text combines two partials of element type t. */
static const char *combine_text(Emit *e, int code, Type t, const char *a,
                                const char *b) {
    const char *args[2] = {a, b};
    Type at[2] = {t, t};
    return ctext_expand(e->f->arena, code, args, at, 2, t);
}

static int emit_reduce(Emit *e, Op *op) {
    Func *f = e->f;
    ValId x = op->args[0], res = op->res[0];
    Type xt = val_type(f, x), rt = val_type(f, res);
    Type et = type_scalar((DType)xt.dtype);
    if (!type_is_numeric(et))
        return ce_unsupported(e, op);
    const char *ct = ce_ctype(e, et);
    const Dist *d = &e->dist[x];
    int axis = (int)op->attr[0];
    int pa = d->pdim[axis];
    int po = d->L.rank == 2 ? 1 - pa : -1;
    int Eo = po >= 0 ? d->E[po] : 1;
    int Ea = d->E[pa];
    const char *acc = ce_fmt(e, "mt_r%d", res);
    const char *part = ce_fmt(e, "v%d", res);
    if (rt.rank == 0)
        part = ce_fmt(e, "mt_p%d", res);
    ce_line(e, "%s %s[%d];", ct, part, Eo);
    ce_unroll(e);
    ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", Eo);
    e->indent++;
    const char *slot;
    if (po < 0)
        slot = "mt_s";
    else if (pa == 0)
        slot = d->E[1] == 1 ? "mt_s" : ce_fmt(e, "mt_s * %d + mt_j", d->E[1]);
    else
        slot = d->E[1] == 1 ? "mt_j" : ce_fmt(e, "mt_j * %d + mt_s", d->E[1]);
    /* Triton's order, so that float results round as its do: a thread's
     * own elements in order from the first (no identity: -0.0 stays),
     * then a butterfly over the lanes from the farthest (16, 8, ... 1),
     * then the warps' partials as a tree of the same shape.  Elements
     * another lane owns as well count once, where the identity stands in. */
    const char *own = ce_owner_along(e, d, pa, "mt_s");
    const char *elem = ce_fmt(e, "%s[%s]", e->name[x], slot);
    const char *comb = combine_text(e, op->code, et, acc, elem);
    if (*own) {
        ce_line(e, "%s %s = %s;", ct, acc, reduce_identity(op->code, et));
        ce_unroll(e);
        ce_line(e, "for (int mt_s = 0; mt_s < %d; ++mt_s)", Ea);
        ce_line(e, "    if (%s) %s = %s;", own, acc, comb);
    } else {
        ce_line(e, "%s %s;", ct, acc);
        ce_unroll(e);
        ce_line(e, "for (int mt_s = 0; mt_s < %d; ++mt_s)", Ea);
        ce_line(e, "    %s = mt_s == 0 ? %s : %s;", acc, elem, comb);
    }
    /* lanes that hold other coordinates along the axis */
    int fast = d->L.order[0];
    int stride = pa == fast ? 1 : d->L.tpw[fast];
    /* every lane must reach every shuffle: never inside a ?: */
    for (int m = d->L.tpw[pa] / 2; m >= 1; m /= 2) {
        const char *other = ce_fmt(e, "mt_o%d_%d", res, m);
        ce_line(e, "%s %s = __shfl_xor_sync(0xffffffffu, %s, %d);", ct, other,
             acc, m * stride);
        ce_line(e, "%s = %s;", acc, combine_text(e, op->code, et, acc, other));
    }
    ce_line(e, "%s[mt_j] = %s;", part, acc);
    e->indent--;
    ce_line(e, "}");
    int W = d->L.wpc[pa];
    if (W > 1) {
        /* partial of warp w for other-dim coordinate co at (co, w) */
        const SharedBuffer *buf = smem_buffer_of(e->f->smem, op, SMEM_SCRATCH);
        const char *sm = ce_scratch(e, et);
        const char *co = po >= 0 ? ce_coord(e, d, po, "mt_j") : "0";
        const char *oo = po >= 0 ? ce_owner_along(e, d, po, "mt_j") : "";
        const char *row = ce_smem_text(e, buf, "0", co, "0");
        row = strcmp(row, "0") == 0 ? "" : ce_fmt(e, "%s + ", row);
        const char *cond = ce_fmt(e, "%s == 0%s%s", ce_prologue_var(e, 'l', d->base, pa),
                               *oo ? " && " : "", oo);
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j)", Eo);
        ce_line(e, "    if (%s) %s[%s] = %s[mt_j];", cond, sm,
             ce_smem_text(e, buf, "0", co, ce_prologue_var(e, 'w', d->base, pa)), part);
        ce_line(e, "__syncthreads();");
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", Eo);
        e->indent++;
        /* t[i] = t[i] op t[i + n] for n = W/2 .. 1: Triton's butterfly
         * over the partials, as lane 0 sees it */
        const char *tree = ce_fmt(e, "mt_t%d", res);
        ce_line(e, "%s %s[%d];", ct, tree, W);
        ce_unroll(e);
        ce_line(e, "for (int mt_w = 0; mt_w < %d; ++mt_w)", W);
        ce_line(e, "    %s[mt_w] = %s[%smt_w];", tree, sm, row);
        for (int n = W / 2; n >= 1; n /= 2)
            for (int i = 0; i < n; i++)
                ce_line(e, "%s[%d] = %s;", tree, i,
                        combine_text(e, op->code, et, ce_fmt(e, "%s[%d]", tree, i),
                                     ce_fmt(e, "%s[%d]", tree, i + n)));
        ce_line(e, "%s[mt_j] = %s[0];", part, tree);
        e->indent--;
        ce_line(e, "}");
        ce_line(e, "__syncthreads();");
    }
    e->name[res] = ce_fmt(e, "v%d", res);
    if (rt.rank == 0) {
        ce_line(e, "%s v%d = %s[0];", ct, res, part);
        return 0;
    }
    e->dist[res] = ce_dist(e, &d->L, rt, pa);
    e->has_dist[res] = true;
    return 0;
}

/* ---------------------------------------------------------------- for */

static void declare_copy(Emit *e, const char *ct, const char *dst,
                         const Dist *d, const char *src_expr, bool declare) {
    if (!d) {
        if (declare)
            ce_line(e, "%s %s = %s;", ct, dst, src_expr);
        else
            ce_line(e, "%s = %s;", dst, src_expr);
        return;
    }
    if (declare)
        ce_line(e, "%s %s[%d];", ct, dst, d->nE);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, d->nE, CE_SLOT);
    ce_line(e, "    %s[%s] = %s;", dst, CE_SLOT, src_expr);
}

/* Declares a region op's results before it (initialised from the carried
 * inputs args[first..] when first >= 0); a loop's carried arguments share
 * their result's variables.  cd receives each block result's distribution. */
static void declare_results(Emit *e, Op *op, Dist *cd, int first) {
    Func *f = e->f;
    for (int k = 0; k < op->nres; k++) {
        ValId r = op->res[k];
        Type t = val_type(f, r);
        const char *ct = ce_ctype(e, type_elem(t));
        const char *nm = ce_fmt(e, "v%d", r);
        if (t.rank)
            cd[k] = ce_dist_of(e, r);
        const Dist *d = t.rank ? &cd[k] : NULL;
        if (first >= 0)
            declare_copy(e, ct, nm, d, ce_elem(e, op->args[first + k], d, op->loc), true);
        else if (d)
            ce_line(e, "%s %s[%d];", ct, nm, d->nE);
        else
            ce_line(e, "%s %s;", ct, nm);
        e->name[r] = nm;
        if (op->iters)
            e->name[op->iters[k]] = nm;
        if (t.rank) {
            e->dist[r] = cd[k];
            e->has_dist[r] = true;
            if (op->iters) {
                e->dist[op->iters[k]] = cd[k];
                e->has_dist[op->iters[k]] = true;
            }
        }
    }
}

/* The values ys of a region's end into the op's result variables: a
 * parallel copy (a loop's yield may read a carried value another yield
 * overwrites). */
static void copy_yields(Emit *e, Op *op, const ValId *ys, const Dist *cd) {
    Func *f = e->f;
    int n = op->nres;
    const char **src = arena_alloc(f->arena, sizeof(char *) * (size_t)(n ? n : 1));
    bool clash = false;
    for (int k = 0; k < n; k++) {
        ValId y = ys[k];
        Type t = val_type(f, op->res[k]);
        src[k] = ce_elem(e, y, t.rank ? &cd[k] : NULL, op->loc);
        for (int j = 0; j < n; j++)
            if (j != k && y && e->name[y] && strcmp(e->name[y], e->name[op->res[j]]) == 0)
                clash = true;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < n; k++) {
            ValId y = ys[k];
            if (y && e->name[y] && strcmp(e->name[y], e->name[op->res[k]]) == 0 &&
                val(f, y)->kind != VK_CONST)
                continue; /* yields itself */
            Type t = val_type(f, op->res[k]);
            const Dist *d = t.rank ? &cd[k] : NULL;
            if (pass == 0 && clash) {
                declare_copy(e, ce_ctype(e, type_elem(t)), ce_fmt(e, "mt_y%d", op->res[k]), d,
                             src[k], true);
                src[k] = t.rank ? ce_fmt(e, "mt_y%d[%s]", op->res[k], CE_SLOT)
                                : ce_fmt(e, "mt_y%d", op->res[k]);
            } else if (pass == 1) {
                declare_copy(e, NULL, ce_fmt(e, "v%d", op->res[k]), d, src[k], false);
            }
        }
    }
}

/* A runtime loop runs a trip count computed in the index's unsigned type,
 * so that no index past the bounds is ever formed: C leaves the signed
 * overflow of `i += step` near the type's maximum undefined, and a step
 * that is not positive (Triton leaves it undefined) runs no iteration
 * instead of forever.  A constant step of 1 cannot overflow and keeps the
 * plain form. */
static void open_for(Emit *e, Op *op, const char *iv) {
    Func *f = e->f;
    const char *lines[3];
    int n = ctext_for_head(f->arena, val_type(f, op->index).dtype == DT_I64,
                           val_is_const(f, op->args[2]) && val(f, op->args[2])->c.i == 1,
                           ce_vname(e, op->args[0]), ce_vname(e, op->args[1]),
                           ce_vname(e, op->args[2]), iv, ce_fmt(e, "mt_trip%d", op->index),
                           ce_fmt(e, "mt_k%d", op->index), lines);
    for (int i = 0; i < n; i++) {
        ce_line(e, "%s", lines[i]);
        if (lines[i][strlen(lines[i]) - 1] == '{')
            e->indent++;
    }
}

static int emit_for(Emit *e, Op *op) {
    Func *f = e->f;
    const DotPlan *plan = op->plan;
    bool staged = plan != NULL, pipelined = plan && plan->form == DOT_PIPELINED;
    int n = op->nres;
    Dist *cd = arena_alloc(f->arena, sizeof(Dist) * (size_t)(n ? n : 1));
    declare_results(e, op, cd, 3);
    const char *iv = staged ? "k_base" : ce_fmt(e, "v%d", op->index);
    e->name[op->index] = iv;
    if (pipelined) {
        if (ce_emit_pipelined_loop(e, op, plan) < 0)
            return -1;
    } else if (staged) {
        ce_line(e, "for (int %s = %s; %s < %s; %s += %s) {", iv,
             ce_vname(e, op->args[0]), iv, ce_vname(e, op->args[1]), iv,
             ce_vname(e, op->args[2]));
        e->indent++;
        ce_line(e, "int dot_stage = (k_base / %lld) & 1;",
                (long long)val(f, op->args[2])->c.i);
        if (emit_region(e, op->body) < 0)
            return -1;
    } else {
        open_for(e, op, iv);
        if (emit_region(e, op->body) < 0)
            return -1;
    }
    copy_yields(e, op, op->yields, cd);
    e->indent--;
    ce_line(e, "}");
    if (pipelined)
        ce_end_pipelined_loop(e);
    /* the last stage may still be read by slower threads (Version 18's
     * pipelined loop ends every iteration with its barrier; the general
     * one begins each with it) */
    if (staged && (!pipelined || plan->carried))
        ce_line(e, "__syncthreads();");
    return 0;
}

/* if on a scalar: every thread of the program computes the same condition,
 * so barriers inside either branch are reached by all threads or none. */
static int emit_if(Emit *e, Op *op) {
    Func *f = e->f;
    Dist *cd = arena_alloc(f->arena, sizeof(Dist) * (size_t)(op->nres ? op->nres : 1));
    declare_results(e, op, cd, -1);
    ce_line(e, "if (%s) {", ce_vname(e, op->args[0]));
    e->indent++;
    if (emit_region(e, op->body) < 0)
        return -1;
    copy_yields(e, op, op->yields, cd);
    e->indent--;
    ce_line(e, "} else {");
    e->indent++;
    if (emit_region(e, op->alt) < 0)
        return -1;
    copy_yields(e, op, op->alt_yields, cd);
    e->indent--;
    ce_line(e, "}");
    return 0;
}

/* while: the condition region, a break when it is false, the body, the
 * carried values' parallel copy.  The condition is a scalar, the same in
 * every thread, as for if. */
static int emit_while(Emit *e, Op *op) {
    Func *f = e->f;
    Dist *cd = arena_alloc(f->arena, sizeof(Dist) * (size_t)(op->nres ? op->nres : 1));
    declare_results(e, op, cd, 0);
    ce_line(e, "for (;;) {");
    e->indent++;
    if (emit_region(e, op->alt) < 0)
        return -1;
    ce_line(e, "if (!%s)", ce_vname(e, op->alt_yields[0]));
    ce_line(e, "    break;");
    if (emit_region(e, op->body) < 0)
        return -1;
    copy_yields(e, op, op->yields, cd);
    e->indent--;
    ce_line(e, "}");
    return 0;
}

/* ---------------------------------------------------------------- driver */

/* The host runs a program's threads one after the other between barriers,
 * so a store could overwrite what another thread has still to load from
 * the same place (Triton's test_dot stores its result over the rows it
 * read a column of): on the host, a store waits for every thread's loads
 * unless each thread loaded only elements of the store's own layout, held
 * once.  Triton's interpreter runs a block op by op, which this keeps; on
 * the GPU the program's own ordering is all there is, as under Triton. */
static void note_load(Emit *e, const Op *op) {
    ValId r = op->res[0];
    int l = val(e->f, r)->layout;
    if (val_type(e->f, r).rank == 0 || l < 0) {
        e->load_layout = -1;
        return;
    }
    Dist d = ce_dist_of(e, r);
    bool shared = *ce_owner(e, &d, CE_SLOT) || d.vrank < d.L.rank;
    e->load_layout = shared || (e->load_layout != -2 && e->load_layout != l) ? -1 : l;
}

static void store_after_loads(Emit *e, const Op *op) {
    int l = val(e->f, op->args[0])->layout;
    if (e->load_layout == -2 || (e->load_layout >= 0 && e->load_layout == l &&
                                 val_type(e->f, op->args[0]).rank > 0))
        return;
    ce_line(e, "#if !defined(__CUDA_ARCH__)");
    ce_line(e, "__syncthreads(); /* every thread's loads before the store (host) */");
    ce_line(e, "#endif");
    e->load_layout = -2;
}

int ce_emit_op(Emit *e, Op *op) {
    if (op->code == OP_CONVERT_LAYOUT)
        return 0; /* materialised where its one user reads it */
    ce_mark_line(e, op->loc);
    if (op->code == OP_LOAD)
        note_load(e, op);
    if (op->code == OP_STORE)
        store_after_loads(e, op);
    if (e->ptr_base && op_info[op->code].kind == K_MEMORY && ce_check_access(e, op) < 0)
        return -1;
    switch (op->code) {
    case OP_FOR: return emit_for(e, op);
    case OP_IF: return emit_if(e, op);
    case OP_BARRIER: ce_line(e, "__syncthreads();"); return 0;
    case OP_WHILE: return emit_while(e, op);
    case OP_STORE: return emit_store(e, op);
    case OP_DOT:
        if (!op->plan)
            return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                              "dot without a plan (plan_dots runs first)");
        return ce_emit_dot(e, op);
    case OP_EXPAND_DIMS: return emit_expand_dims(e, op);
    case OP_ATOMIC_ADD: case OP_ATOMIC_MAX: case OP_ATOMIC_MIN: case OP_ATOMIC_AND:
    case OP_ATOMIC_OR: case OP_ATOMIC_XOR: case OP_ATOMIC_XCHG:
    case OP_ATOMIC_CAS: return ce_emit_atomic(e, op);
    case OP_PRINT: return ce_emit_print(e, op); /* cuda_debug.c */
    case OP_ASSERT: return ce_emit_assert(e, op);
    case OP_INLINE_ASM: return ce_emit_asm(e, op); /* cuda_asm.c */
    default:
        if (op_info[op->code].kind == K_REDUCE && op->nres == 1 && !op->body)
            return emit_reduce(e, op);
        if (op_info[op->code].kind == K_REDUCE || op_info[op->code].kind == K_SCAN)
            return ce_emit_combine(e, op); /* cuda_scan.c */
        if (op_info[op->code].kind == K_MAP)
            return ce_emit_map(e, op); /* cuda_scan.c */
        if (!op->nres)
            return ce_unsupported(e, op);
        if (op_info[op->code].kind == K_GATHER)
            return ce_emit_gather(e, op);
        return emit_elementwise(e, op);
    }
}

static int emit_region(Emit *e, Region *r) {
    for (int i = 0; i < r->nops; i++)
        if (ce_emit_op(e, r->ops[i]) < 0 || HAS_ERROR(e->c))
            return -1;
    return 0;
}

/* The kernel's body; where the scratch after the last dot lies over its
 * tiles (smemplan.c), every thread is done with them (no copy in flight,
 * no warp still reading a stage) before the first such use writes. */
static int emit_body(Emit *e) {
    Region *r = &e->f->body;
    for (int i = 0; i < r->nops; i++) {
        if (ce_emit_op(e, r->ops[i]) < 0 || HAS_ERROR(e->c))
            return -1;
        if (i == e->f->smem->tiles_dead_after) {
            ce_line(e, "mt_cp_async_wait_group(0);");
            ce_line(e, "__syncthreads(); /* the dot tiles are dead: scratch over them */");
        }
    }
    return 0;
}

/* Parameter names that would collide with C/CUDA words, our own names, or
 * a function an op template may call (ctext_is_function: a parameter named
 * expf would shadow the expf of tl.exp); cuda_emit renames them mt_p<i>_. */
static bool reserved_name(const char *s) {
    static const char *const words[] = {
        "int", "float", "double", "char", "long", "short", "unsigned",
        "signed", "void", "auto", "const", "static", "struct", "union",
        "enum", "switch", "case", "default", "do", "goto", "register",
        "sizeof", "typedef", "volatile", "extern", "inline", "restrict",
        "bool", "true", "false", "new", "delete", "this", "template",
        "typename", "class", "namespace", "operator", "private", "public",
        "protected", "virtual", "friend", "using", "throw", "catch",
        "explicit", "mutable", "export", "asm", "threadIdx", "blockIdx",
        "blockDim", "gridDim", "INFINITY", "NAN", "dot_k",
        "dot_stage", "k_base", "dot_lhs", "dot_rhs", "dot_lhs_h", "dot_rhs_h", "dot_lhs_d", "dot_lhs_b", "dot_rhs_b",
        "dot_rhs_d", "mt_dynamic_smem", "warpSize", "main",
        "for", "while", "if", "else", "return", "break", "continue"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcmp(s, words[i]) == 0)
            return true;
    if (ctext_is_function(s))
        return true;
    if (strncmp(s, "mt_", 3) == 0 || strncmp(s, "__", 2) == 0)
        return true;
    if (s[0] == 'v' && s[1]) {
        const char *p = s + 1;
        while (*p >= '0' && *p <= '9')
            p++;
        if (!*p)
            return true;
    }
    return false;
}

/* The lane, warp and base coordinates of every parameter set in use. */
static void emit_prologue(Emit *e, StrBuf *out) {
    for (int k = 0; k < e->nbases; k++) {
        const Layout *l = &e->bases[k];
        int fast = l->order[0];
        for (int p = 0; p < l->rank; p++) {
            bool is_fast = p == fast || l->rank == 1;
            const char *lv = ce_prologue_var(e, 'l', k, p);
            const char *wv = ce_prologue_var(e, 'w', k, p);
            if (is_fast) {
                sb_printf(out, "    int %s = mt_lane %% %d;\n", lv, l->tpw[p]);
                sb_printf(out, "    int %s = mt_warp %% %d;\n", wv, l->wpc[p]);
            } else {
                sb_printf(out, "    int %s = mt_lane / %d;\n", lv, l->tpw[fast]);
                sb_printf(out, "    int %s = mt_warp / %d;\n", wv, l->wpc[fast]);
            }
            sb_printf(out, "    int %s = (%s * %d + %s) * %d;\n",
                      ce_prologue_var(e, 'b', k, p), wv, l->tpw[p], lv, l->spt[p]);
        }
    }
}

/* Shared memory of one sm_90 SM (the most blocks that fit: this over
 * their shared memory plus 1 KiB each). */
#define SM_SMEM_BYTES 233472

/* The declaration of a dot tile array, as large as its largest use. */
static void declare_tile(StrBuf *out, const SharedBuffer *b, int align) {
    if (b->stage_count > 1)
        sb_printf(out, "    __shared__ __align__(%d) float %s[%d * %lld];\n", align,
                  b->name, b->stage_count, (long long)smem_stage_size(b));
    else
        sb_printf(out, "    __shared__ __align__(%d) float %s[%lld];\n", align,
                  b->name, (long long)smem_size(b));
}

/* Shared memory as one array (SmemPlan.one_array: the scratch lies over
 * the dead dot tiles): past the static budget a dynamic array (its size
 * is the launch's, the driver's opt-in attribute allows it, cudart.c) on
 * the GPU and a static one of the same size on the host, within it a
 * static array everywhere; the scratch and the tiles are pointers into it
 * at the planned offsets, so every access reads as with separate
 * arrays. */
static void declare_one_array(StrBuf *out, const SmemPlan *sp) {
    if (sp->total > MT_SMEM_BUDGET)
        sb_printf(out, "#if defined(__CUDA_ARCH__)\n"
                       "    extern __shared__ __align__(%d) long long mt_dynamic_smem[];\n"
                       "#else\n"
                       "    __shared__ __align__(%d) long long mt_dynamic_smem[%lld];\n"
                       "#endif\n",
                  sp->tile_align, sp->tile_align, (long long)(sp->total + 7) / 8);
    else
        sb_printf(out, "    __shared__ __align__(%d) long long mt_smem_pool[%lld];\n",
                  sp->tile_align, (long long)(sp->total + 7) / 8);
    const char *base = sp->total > MT_SMEM_BUDGET ? "mt_dynamic_smem" : "mt_smem_pool";
    if (sp->scratch_bytes)
        sb_printf(out, "    long long *const mt_smem = %s;\n", base);
    if (smem_size(&sp->lhs) > 0)
        sb_printf(out, "    float *const dot_lhs = (float *)((char *)%s + %lld);\n"
                       "    float *const dot_rhs = (float *)((char *)%s + %lld);\n",
                  base, (long long)sp->offset[SMEM_DOT_LHS], base,
                  (long long)sp->offset[SMEM_DOT_RHS]);
}

int cuda_emit(Func *f, StrBuf *out) {
    Ctx *c = f->ctx;
    Emit e;
    memset(&e, 0, sizeof e);
    e.f = f;
    e.c = c;
    e.indent = 1;
    e.load_layout = -2;
    sb_init(&e.body);
    e.name = arena_alloc(f->arena, sizeof(char *) * (size_t)f->nvals);
    e.dist = arena_alloc(f->arena, sizeof(Dist) * (size_t)f->nvals);
    e.has_dist = arena_alloc(f->arena, sizeof(bool) * (size_t)f->nvals);
    if (!e.name || !e.dist || !e.has_dist) {
        sb_free(&e.body);
        return diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    }
    if (!f->axis || !f->smem) {
        sb_free(&e.body);
        return diag_error(c, (Loc){0, 0}, MT_ERR_INTERNAL,
                          "cuda_emit runs after the back-end passes");
    }
    for (int v = 1; v < f->nvals; v++) {
        Value *x = &f->vals[v];
        if (x->type.rank && x->type.rank <= 2 && x->layout < 0 &&
            (x->kind == VK_OP || x->kind == VK_LOOP_ARG)) {
            sb_free(&e.body);
            return diag_error(c, (Loc){0, 0}, MT_ERR_INTERNAL,
                              "block value %%%d has no layout", v);
        }
    }
    StrBuf sig;
    sb_init(&sig);
    for (int i = 0; i < f->nparams; i++) {
        ValId p = f->params[i];
        Value *x = val(f, p);
        const char *nm = reserved_name(x->name)
                             ? ce_fmt(&e, "mt_p%d_%s", i, x->name)
                             : x->name;
        e.name[p] = nm;
        if (i)
            sb_puts(&sig, ", ");
        /* no __restrict__: Triton promises nothing about aliasing (a
         * kernel may get one tensor twice, or read what it stored), and
         * plain loads are what Triton emits (ld.global, not .nc) */
        if (x->type.is_ptr)
            sb_printf(&sig, "%s* %s", dtype_mtype((DType)x->type.dtype), nm);
        else
            sb_printf(&sig, "%s %s", dtype_ctype((DType)x->type.dtype), nm);
    }
    int rc = f->checked ? ce_check_init(&e) : 0;
    if (rc == 0)
        rc = emit_body(&e);
    if (rc == 0 && e.body.failed)
        rc = diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    if (rc < 0) {
        sb_free(&sig);
        sb_free(&e.body);
        return -1;
    }
    int threads = 32 * f->num_warps;
    /* no more blocks than the SM's shared memory holds (228 KiB, 1 KiB of
     * it reserved per block): a register cap for blocks that cannot be
     * resident only makes ptxas spill (4 stages of a 64 x 64 f32 tile) */
    int blocks = e.min_blocks;
    if (f->smem->total > 0 && blocks > (int)(SM_SMEM_BYTES / (f->smem->total + 1024)))
        blocks = (int)(SM_SMEM_BYTES / (f->smem->total + 1024));
    if (e.pre)
        sb_puts(out, e.pre);
    if (e.pipelined && blocks > 1)
        sb_printf(out,
                  "extern \"C\" __global__ void __launch_bounds__(%d, %d) %s(%s) {\n",
                  threads, blocks, f->name, sb_str(&sig));
    else
        sb_printf(out,
                  "extern \"C\" __global__ void __launch_bounds__(%d) %s(%s) {\n",
                  threads, f->name, sb_str(&sig));
    const SmemPlan *sp = f->smem;
    if (sp->one_array) {
        declare_one_array(out, sp);
    } else {
        if (sp->scratch_bytes)
            sb_printf(out, "    __shared__ __align__(16) long long mt_smem[%lld];\n",
                      (long long)(sp->scratch_bytes + 7) / 8);
        if (smem_size(&sp->lhs) > 0) {
            declare_tile(out, &sp->lhs, sp->tile_align);
            declare_tile(out, &sp->rhs, sp->tile_align);
        }
    }
    if (sp->narrow_tiles) /* f16 and bf16 tiles, as their bits */
        sb_puts(out, "    unsigned short *const dot_lhs_h = (unsigned short *)dot_lhs;\n"
                     "    unsigned short *const dot_rhs_h = (unsigned short *)dot_rhs;\n");
    if (sp->byte_tiles) /* int8 tiles */
        sb_puts(out, "    signed char *const dot_lhs_b = (signed char *)dot_lhs;\n"
                     "    signed char *const dot_rhs_b = (signed char *)dot_rhs;\n");
    if (sp->fp8_tiles) /* fp8 tiles, as their bytes (wgmma) */
        sb_puts(out, "    unsigned char *const dot_lhs_q = (unsigned char *)dot_lhs;\n"
                     "    unsigned char *const dot_rhs_q = (unsigned char *)dot_rhs;\n");
    if (sp->double_tiles) /* f64 tiles (the arrays are 16-byte aligned) */
        sb_puts(out, "    double *const dot_lhs_d = (double *)dot_lhs;\n"
                     "    double *const dot_rhs_d = (double *)dot_rhs;\n");
    if (e.nbases) {
        sb_puts(out, "    int mt_lane = (int)threadIdx.x & 31;\n");
        sb_puts(out, "    int mt_warp = (int)threadIdx.x >> 5;\n");
    }
    /* once a kernel, off every K loop's path: the tiles' shared addresses
     * (cp.async, wgmma descriptors) and the warpgroup (cuda_mma.c) */
    if (e.tile_addresses && sp->one_array && sp->total > MT_SMEM_BUDGET)
        /* the dynamic array's own symbol is its shared address, a link-time
         * constant: ptxas rematerialised a generic-to-shared conversion
         * (an S2UR) at the top of every iteration instead of keeping it */
        sb_printf(out, "#if defined(__CUDA_ARCH__)\n"
                       "    unsigned mt_sa_smem;\n"
                       "    asm(\"mov.u32 %%0, mt_dynamic_smem;\" : \"=r\"(mt_sa_smem));\n"
                       "#else\n"
                       "    const unsigned mt_sa_smem = 0u;\n"
                       "#endif\n"
                       "    const unsigned mt_sa_lhs = mt_sa_smem + %lldu;\n"
                       "    const unsigned mt_sa_rhs = mt_sa_smem + %lldu;\n",
                  (long long)sp->offset[SMEM_DOT_LHS], (long long)sp->offset[SMEM_DOT_RHS]);
    else if (e.tile_addresses)
        sb_puts(out, "    const unsigned mt_sa_lhs = mt_smem_addr(dot_lhs);\n"
                     "    const unsigned mt_sa_rhs = mt_smem_addr(dot_rhs);\n");
    if (f->wgmma)
        sb_puts(out, "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)\n"
                     "    const int mt_wg = __shfl_sync(0xffffffffu, (int)threadIdx.x >> 7, 0);\n"
                     "#endif\n");
    emit_prologue(&e, out);
    sb_puts(out, sb_str(&e.body));
    sb_puts(out, "}\n");
    sb_free(&sig);
    sb_free(&e.body);
    return 0;
}
