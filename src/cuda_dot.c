/* cuda_dot.c: the CUDA text of tl.dot.
 *
 * Input: a dot op and, for a K loop, the DotPlan that plan_dots recorded
 * on it (form single-stage / two-stage / pipelined, tiled or not, the
 * shared tiles A and B that smemplan.c sized).  Output: the cooperative
 * writes of both operands into their shared tiles, the barriers, and the
 * unrolled FMA loop that reads them back, appended to the Emit body.
 *
 * Invariants: every tile address comes from smem_element_text on the
 * planned buffer, so writers and readers agree by construction; every
 * element is written once, by its owner; a stage is never rewritten
 * before a barrier has ended every read of it (see the pipelined loop's
 * comment for the one-barrier argument). */
#include "mt.h"

#include <string.h>

/* ---------------------------------------------------------------- dot */

/* For each slot the thread owns: sbuf[addr(slot)] = value (a text of the
 * slot). */
static void emit_owned_copy(Emit *e, const Dist *d, const char *own,
                            const SharedBuffer *sbuf, const char *addr,
                            const char *value) {
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, d->nE, CE_SLOT);
    if (*own)
        ce_line(e, "    if (%s) %s[%s] = %s;", own, sbuf->name, addr, value);
    else
        ce_line(e, "    %s[%s] = %s;", sbuf->name, addr, value);
}

/* Element text v of operand x as its tile holds it: the bits when the
 * tile has x's 16-bit type (tensor cores), else an f32, widened exactly
 * from f16/bf16, and rounded to TF32 when the dot's input precision is
 * "tf32" and CUDA cores multiply (so they compute exactly what a tensor
 * core would).  Tensor-core tiles hold the f32 as loaded (cp.async can
 * fill them): their readers round (cuda_mma.c, fma_by_slot). */
static const char *staged(Emit *e, const Op *dot, ValId x, const SharedBuffer *sbuf,
                          const char *v) {
    Type t = type_elem(val_type(e->f, x));
    if (sbuf->elem != DT_F32)
        return v;
    if (t.dtype != DT_F32)
        return ce_cast(e, v, t, type_scalar(DT_F32));
    return dot->attr[0] == DOT_TF32 && dot->plan->unit == DOT_FMA
               ? ce_fmt(e, "mt_tf32(%s)", v)
               : v;
}

/* Cooperative write of a dot operand x (its values in array `src`, laid
 * out as x's distribution) into shared buffer sbuf, every element once by
 * its owner; `transpose` stores x[i][j] at (j, i).  When x's thread holds
 * 16 bytes' worth of consecutive elements along the buffer's columns (not
 * transposed), one 16-byte store per group: a float4, or a uint4 of eight
 * 16-bit elements. */
static void dot_write(Emit *e, const Op *dot, ValId x, const SharedBuffer *sbuf,
                      const char *stage, bool transpose, const char *src) {
    const Dist *d = &e->dist[x];
    const char *own = ce_owner(e, d, CE_SLOT);
    const char *r0 = ce_value_coord(e, d, 0, CE_SLOT), *c0 = ce_value_coord(e, d, 1, CE_SLOT);
    StrBuf addr;
    sb_init(&addr);
    smem_element_text(&addr, sbuf, stage, transpose ? c0 : r0,
                      transpose ? r0 : c0);
    int fd = d->L.rank - 1, W = 16 / dtype_info[sbuf->elem].bytes;
    bool vec = (W == 4 || W == 8) && !transpose && !*own && d->L.rank == 2 && d->vrank == 2 &&
               d->L.order[0] == 1 && d->L.spt[fd] % W == 0 &&
               d->n[fd] >= ce_tile(&d->L, fd) &&
               smem_row_stride(sbuf) % W == 0;
    const char *el[8];
    for (int i = 0; i < W && vec; i++)
        el[i] = staged(e, dot, x, sbuf, i ? ce_fmt(e, "%s[mt_g + %d]", src, i)
                                          : ce_fmt(e, "%s[mt_g]", src));
    if (vec) {
        ce_unroll(e);
        ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", d->nE, W);
        ce_line(e, "    const int %s = mt_g;", CE_SLOT);
        if (W == 4)
            ce_line(e, "    *(float4*)&%s[%s] = make_float4(%s, %s, %s, %s);",
                    sbuf->name, sb_str(&addr), el[0], el[1], el[2], el[3]);
        else
            ce_line(e, "    *(uint4*)&%s[%s] = make_uint4(%s[mt_g] | (unsigned)%s[mt_g + 1] << 16, "
                    "%s[mt_g + 2] | (unsigned)%s[mt_g + 3] << 16, %s[mt_g + 4] | (unsigned)%s[mt_g + 5] << 16, "
                    "%s[mt_g + 6] | (unsigned)%s[mt_g + 7] << 16);",
                    sbuf->name, sb_str(&addr), src, src, src, src, src, src, src, src);
        ce_line(e, "}");
    } else {
        emit_owned_copy(e, d, own, sbuf, sb_str(&addr),
                        staged(e, dot, x, sbuf, ce_fmt(e, "%s[%s]", src, CE_SLOT)));
    }
    sb_free(&addr);
}

/* The unrolled loop for (mt_i = 0; mt_i < n; mt_i += step) that reads one
 * float4 of sbuf at addr (a text of mt_i) into dst[at .. at + 3]. */
static void float4_reads(Emit *e, int n, int step, const SharedBuffer *sbuf, const char *addr,
                         const char *dst, const char *at) {
    ce_unroll(e);
    ce_line(e, "for (int mt_i = 0; mt_i < %d; mt_i += %d) {", n, step);
    ce_line(e, "    float4 mt_q = *(const float4*)&%s[%s];", sbuf->name, addr);
    ce_line(e, "    %s[%s] = mt_q.x;", dst, at);
    ce_line(e, "    %s[%s + 1] = mt_q.y;", dst, at);
    ce_line(e, "    %s[%s + 2] = mt_q.z;", dst, at);
    ce_line(e, "    %s[%s + 3] = mt_q.w;", dst, at);
    ce_line(e, "}");
}

/* Loads E values of shared row `row` as float4s into array `dst`: the
 * thread's coordinates along dim p of r, 4 consecutive per block. */
static void dot_read_row(Emit *e, const Dist *r, int p, const SharedBuffer *sbuf,
                         const char *stage, const char *row, const char *dst) {
    StrBuf addr;
    sb_init(&addr);
    smem_element_text(&addr, sbuf, stage, row, ce_coord(e, r, p, "mt_i"));
    float4_reads(e, r->E[p], 4, sbuf, sb_str(&addr), dst, "mt_i");
    sb_free(&addr);
}

/* Loads k = dot_k .. dot_k + 3 of each of the thread's E0 rows of A (its
 * coordinates along dim 0 of r) as one float4 into dst[4 * i ...]. */
static void dot_read_rows_of_a(Emit *e, const Dist *r, const SharedBuffer *sbuf,
                               const char *stage, const char *dst) {
    StrBuf addr;
    sb_init(&addr);
    smem_element_text(&addr, sbuf, stage, ce_coord(e, r, 0, "mt_i"), "dot_k");
    float4_reads(e, r->E[0], 1, sbuf, sb_str(&addr), dst, "4 * mt_i");
    sb_free(&addr);
}

/* One dot's lowering, split so that the pipelined loop can place the
 * shared writes and the FMA loop separately: its plan (form, tiles,
 * buffers; dotplan.c) and its result distribution. */
typedef struct DotGen {
    Op *op;
    const DotPlan *plan;
    Dist r;
    bool tiled;          /* the vectorised register-tile form */
    SharedBuffer A, B;
} DotGen;

static void dot_prepare(Emit *e, Op *op, DotGen *g) {
    const DotPlan *p = op->plan;
    g->op = op;
    g->plan = p;
    g->r = ce_dist_of(e, op->res[0]);
    g->tiled = p->tiled;
    g->A = p->A;
    g->B = p->B;
    if (p->tiled && (!e->min_blocks || p->min_blocks < e->min_blocks))
        e->min_blocks = p->min_blocks;
}

/* Whether B's tile holds B transposed, [BN][BK]: the int8 tensor cores'
 * (cuda_mma.c's ldmatrix wants each column's k values in a row) and fp8
 * wgmma's (K-major only). */
static bool rhs_transposed(const DotPlan *p) {
    return p->unit == DOT_MMA_S8 || p->unit == DOT_WGMMA_F8;
}

/* The cooperative writes of both operands, from arrays src_a / src_b
 * (NULL: the operands' own arrays; "": none, the operand is there) into
 * `stage`. */
static void dot_writes(Emit *e, const DotGen *g, const char *stage,
                       const char *src_a, const char *src_b) {
    ValId a = g->op->args[0], b = g->op->args[1];
    if (!src_a)
        src_a = e->name[a];
    if (!src_b)
        src_b = e->name[b];
    if (g->tiled || g->plan->unit != DOT_FMA) {
        if (*src_a)
            dot_write(e, g->op, a, &g->A, stage, g->tiled && !g->plan->a_as_loaded, src_a);
        if (*src_b)
            dot_write(e, g->op, b, &g->B, stage, rhs_transposed(g->plan), src_b);
        return;
    }
    /* every element once, by its owner */
    for (int k = 0; k < 2; k++) {
        ValId x = k ? b : a;
        const char *src = k ? src_b : src_a;
        if (!*src)
            continue; /* already in its tile (cp.async) */
        const SharedBuffer *sbuf = k ? &g->B : &g->A;
        const Dist *d = &e->dist[x];
        StrBuf addr;
        sb_init(&addr);
        smem_element_text(&addr, sbuf, stage, ce_value_coord(e, d, 0, CE_SLOT),
                          ce_value_coord(e, d, 1, CE_SLOT));
        emit_owned_copy(e, d, ce_owner(e, d, CE_SLOT), sbuf, sb_str(&addr),
                        staged(e, g->op, x, sbuf, ce_fmt(e, "%s[%s]", src, CE_SLOT)));
        sb_free(&addr);
    }
}

/* The dot's inner dimension K: B's rows, or its columns where its tile is
 * transposed (rhs_transposed). */
static int dot_depth(const DotGen *g) {
    return rhs_transposed(g->plan) ? g->B.columns : g->B.rows;
}

/* Every result slot's products, one k at a time, the tile elements read
 * as f32 (the scalar form; also what tensor-core tiles become where the
 * device has no tensor cores); an int32 result (int8 operands) adds
 * integer products modulo 2^32, as unsigned, so no C overflow. */
static void fma_by_slot(Emit *e, const DotGen *g, const char *stage, const char *dst) {
    const Dist *r = &g->r;
    StrBuf la, lb;
    sb_init(&la);
    sb_init(&lb);
    const char *col = ce_coord(e, r, 1, ce_slot_along(e, r, 1, CE_SLOT));
    smem_element_text(&la, &g->A, stage,
                      ce_coord(e, r, 0, ce_slot_along(e, r, 0, CE_SLOT)), "dot_k");
    if (rhs_transposed(g->plan))
        smem_element_text(&lb, &g->B, stage, col, "dot_k");
    else
        smem_element_text(&lb, &g->B, stage, "dot_k", col);
    Type ta = type_scalar(g->A.elem), tb = type_scalar(g->B.elem);
    Type tf = type_elem(val_type(e->f, g->op->res[0]));
    if (tf.dtype == DT_F16) /* an f16 accumulator adds in f32 (fma_into) */
        tf = type_scalar(DT_F32);
    const char *xa = ce_cast(e, ce_fmt(e, "%s[%s]", g->A.name, sb_str(&la)), ta, tf);
    const char *xb = ce_cast(e, ce_fmt(e, "%s[%s]", g->B.name, sb_str(&lb)), tb, tf);
    if (g->plan->unit == DOT_MMA_TF32) { /* what the tensor cores would take */
        xa = ce_fmt(e, "mt_tf32(%s)", xa);
        xb = ce_fmt(e, "mt_tf32(%s)", xb);
    }
    ce_unroll(e);
    ce_line(e, "for (int dot_k = 0; dot_k < %d; ++dot_k) {", dot_depth(g));
    ce_unroll(e);
    ce_line(e, "    for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r->nE, CE_SLOT);
    if (tf.dtype == DT_I32)
        ce_line(e, "        %s[%s] = (int)((unsigned)%s[%s] + (unsigned)(%s * %s));", dst,
                CE_SLOT, dst, CE_SLOT, xa, xb);
    else
        ce_line(e, "        %s[%s] += %s * %s;", dst, CE_SLOT, xa, xb);
    ce_line(e, "}");
    sb_free(&la);
    sb_free(&lb);
}

/* fma_by_slot into `dst`; an f16 accumulator (out_dtype=float16) adds
 * the step in f32 and is rounded once after it, as a tensor core rounds
 * its f16 accumulator once per instruction. */
static void fma_into(Emit *e, const DotGen *g, const char *stage, const char *dst) {
    if (val_type(e->f, g->op->res[0]).dtype != DT_F16) {
        fma_by_slot(e, g, stage, dst);
        return;
    }
    int n = g->r.nE;
    ce_line(e, "{");
    e->indent++;
    ce_line(e, "float mt_w[%d];", n);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, n, CE_SLOT);
    ce_line(e, "    mt_w[%s] = mt_f16_to_f32(%s[%s]);", CE_SLOT, dst, CE_SLOT);
    fma_by_slot(e, g, stage, "mt_w");
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, n, CE_SLOT);
    ce_line(e, "    %s[%s] = mt_f32_to_f16(mt_w[%s]);", dst, CE_SLOT, CE_SLOT);
    e->indent--;
    ce_line(e, "}");
}

/* The unrolled FMA loop over `stage`.  `into` NULL: the result is a new
 * array v<res> that starts from `init`; else the products are added
 * straight into the existing array `into` (the pipelined loop's carried
 * accumulator), which then names the result. */
static void dot_compute(Emit *e, const DotGen *g, const char *stage,
                        const char *init, const char *into) {
    ValId res = g->op->res[0];
    const Dist *r = &g->r;
    int BK = dot_depth(g);
    const char *dst = into ? into : ce_fmt(e, "v%d", res);
    e->name[res] = dst;
    if (!into) {
        ce_line(e, "%s v%d[%d];", ce_ctype(e, type_elem(val_type(e->f, res))), res, r->nE);
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r->nE, CE_SLOT);
        ce_line(e, "    v%d[%s] = %s;", res, CE_SLOT, init);
    }
    if (g->tiled && !g->plan->a_as_loaded) { /* A transposed: one k at a time */
        ce_unroll(e);
        ce_line(e, "for (int dot_k = 0; dot_k < %d; ++dot_k) {", BK);
        e->indent++;
        ce_line(e, "float mt_fa[%d], mt_fb[%d];", r->E[0], r->E[1]);
        dot_read_row(e, r, 0, &g->A, stage, "dot_k", "mt_fa");
        dot_read_row(e, r, 1, &g->B, stage, "dot_k", "mt_fb");
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r->nE, CE_SLOT);
        ce_line(e, "    %s[%s] += mt_fa[%s / %d] * mt_fb[%s %% %d];", dst, CE_SLOT, CE_SLOT,
                r->E[1], CE_SLOT, r->E[1]);
        e->indent--;
        ce_line(e, "}");
    } else if (g->tiled) { /* f32 results only (layout.c's dot_layout) */
        int E0 = r->E[0], E1 = r->E[1];
        ce_unroll(e);
        ce_line(e, "for (int dot_k = 0; dot_k < %d; dot_k += 4) {", BK);
        e->indent++;
        ce_line(e, "float mt_fa[%d];", 4 * E0);
        dot_read_rows_of_a(e, r, &g->A, stage, "mt_fa");
        /* then one row of B at a time, so that only E1 of its values are
         * live beside A's; k ascending for every slot: the sums of the
         * one-k-at-a-time loop exactly */
        for (int kk = 0; kk < 4; kk++) {
            ce_line(e, "{");
            e->indent++;
            ce_line(e, "float mt_fb[%d];", E1);
            dot_read_row(e, r, 1, &g->B, stage, ce_fmt(e, "dot_k + %d", kk), "mt_fb");
            ce_unroll(e);
            ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r->nE, CE_SLOT);
            ce_line(e, "    %s[%s] += mt_fa[(%s / %d) * 4 + %d] * mt_fb[%s %% %d];", dst, CE_SLOT,
                    CE_SLOT, E1, kk, CE_SLOT, E1);
            e->indent--;
            ce_line(e, "}");
        }
        e->indent--;
        ce_line(e, "}");
    } else if (g->plan->unit != DOT_FMA) {
        /* tensor cores where the device has them, the same tiles through
         * FMAs elsewhere (the host, older GPUs) */
        bool wg = dot_unit_wgmma(g->plan->unit);
        ce_line(e, wg ? "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)"
                      : "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800");
        ce_mma_compute(e, g->plan, r, stage, dst);
        ce_line(e, "#else");
        fma_into(e, g, stage, dst);
        ce_line(e, "#endif");
    } else {
        fma_into(e, g, stage, dst);
    }
    e->dist[res] = *r;
    e->has_dist[res] = true;
}

/* The barrier that makes the tiles' writes visible to the dot; wgmma
 * reads through the async proxy, so each thread first fences its own
 * st.shared writes for it.  Tiles that cp.async alone writes go without
 * the fence, as in Triton's code: its MEMBAR would also wait for the
 * later stages' copies still in flight. */
static void publish_tiles(Emit *e, const DotGen *g, bool cp_async_only) {
    if (dot_unit_wgmma(g->plan->unit) && !cp_async_only)
        ce_line(e, "mt_fence_async_smem();");
    ce_line(e, "__syncthreads();");
}

/* A dot outside a pipelined loop: write, barrier, compute, and (single
 * stage) a barrier before the buffers can be written again. */
int ce_emit_dot(Emit *e, Op *op) {
    bool staged = op->plan->form == DOT_TWO_STAGE;
    DotGen g;
    dot_prepare(e, op, &g);
    const char *stage = staged ? "dot_stage" : "0";
    ValId acc = op->args[2];
    const char *init = acc ? ce_elem(e, acc, &g.r, op->loc)
                           : ce_zero((DType)val_type(e->f, op->res[0]).dtype);
    dot_writes(e, &g, stage, NULL, NULL);
    publish_tiles(e, &g, false);
    dot_compute(e, &g, stage, init, NULL);
    if (!staged)
        ce_line(e, "__syncthreads();");
    return 0;
}

/* The body ops that compute the dot's operands (all but the dot and its
 * accumulate, as match_pipeline proved), in program order. */
static int emit_operand_ops(Emit *e, const Op *loop, const DotPlan *plan) {
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op == plan->dot || op == plan->add)
            continue;
        if (ce_emit_op(e, op) < 0 || HAS_ERROR(e->c))
            return -1;
    }
    return 0;
}

/* The software-pipelined K loop (Version 18 stages, used as a real
 * double buffer):
 *
 *     if (0 < K) { operands of tile 0 -> stage 0 }
 *     __syncthreads();
 *     for (k_base = 0; k_base < K; k_base += BK) {
 *         dot_stage = (k_base / BK) & 1;
 *         if (more) operands of tile t + 1 -> registers (global loads)
 *         FMAs on stage dot_stage
 *         if (more) registers -> stage dot_stage ^ 1
 *         __syncthreads();
 *     }
 *
 * The global loads of the next tile are in flight during the FMAs.  One
 * barrier per iteration suffices: stage dot_stage ^ 1 was last read in
 * iteration t - 1, which ended with the barrier, and the barrier at the
 * end of t publishes it to t + 1 and ends t's reads of dot_stage before
 * t + 1 overwrites it.  `more` is the original loop's own condition for
 * t + 1, so tile t + 1's loads run exactly when the original program
 * runs them.  Emits the header and the body up to the barrier; the
 * caller adds the yields and closes the loop. */
/* A pipelined loop's dot on stage dot_stage: in place (acc, dot and sum
 * share one layout, so the carried array already has the dot's
 * distribution), or into a new array and then the accumulate. */
static int pipelined_step(Emit *e, const DotPlan *plan, ValId acc, DotGen *g) {
    Op *dot = plan->dot;
    ce_mark_line(e, dot->loc);
    dot_prepare(e, dot, g);
    e->pipelined = true;
    if (plan->in_place) {
        dot_compute(e, g, "dot_stage", NULL, e->name[acc]);
        e->name[plan->next] = e->name[acc];
        e->dist[plan->next] = g->r;
        e->has_dist[plan->next] = true;
        return 0;
    }
    ValId in = dot->args[2];
    const char *init = in ? ce_elem(e, in, &g->r, dot->loc)
                          : ce_zero((DType)val_type(e->f, dot->res[0]).dtype);
    dot_compute(e, g, "dot_stage", init, NULL);
    return plan->add && ce_emit_op(e, plan->add) < 0 ? -1 : 0;
}

/* Ops in program order but the (up to four) ops in skip; -1 on an
 * error. */
static int emit_ops(Emit *e, Op *const *ops, int n, Op *const skip[4]) {
    for (int i = 0; i < n; i++)
        if (ops[i] != skip[0] && ops[i] != skip[1] && ops[i] != skip[2] &&
            ops[i] != skip[3] && (ce_emit_op(e, ops[i]) < 0 || HAS_ERROR(e->c)))
            return -1;
    return 0;
}

static bool prefetched(const DotPlan *p, const Op *op) {
    for (int i = 0; i < p->nprefetch; i++)
        if (p->prefetch[i] == op)
            return true;
    return false;
}

/* Whether the dot is the one reader of x in the loop (a trans the fetch
 * leaves out must have no other). */
static bool only_the_dot_reads(const DotPlan *p, ValId x) {
    const Region *body = p->loop->body;
    int n = 0;
    for (int i = 0; i < body->nops; i++)
        for (int k = 0; k < body->ops[i]->nargs; k++)
            n += body->ops[i]->args[k] == x && body->ops[i] != p->dot;
    for (int k = 0; k < p->loop->nres; k++)
        n += p->loop->yields[k] == x;
    return n == 0;
}

/* The load an operand x of the prefetch comes from when it can go
 * straight into its tile (ce_load_to_tile_ok), else NULL.  Not for the
 * larger FMA register tiles' transposed A, for one that rounds on the way
 * in, or for int8 tiles yet.  A tile holding its operand transposed (fp8 wgmma's
 * B) takes the load under a trans: x = trans(y) with y, [BN][BK], a row
 * of the tile per row (memorder.c makes a K-major B such a y); *via is
 * then that trans, which the fetch must not emit. */
static Op *async_load(Emit *e, const DotPlan *p, ValId x, const SharedBuffer *sbuf,
                      bool transposed, Op **via) {
    Value *v = val(e->f, x);
    *via = NULL;
    if (v->kind != VK_OP || p->unit == DOT_MMA_S8 /* byte tiles: not yet */ ||
        (p->unit == DOT_FMA && p->dot->attr[0] == DOT_TF32))
        return NULL;
    if (transposed) {
        if (p->unit != DOT_WGMMA_F8 || v->def->code != OP_TRANS || !prefetched(p, v->def) ||
            !only_the_dot_reads(p, x))
            return NULL;
        *via = v->def;
        v = val(e->f, v->def->args[0]);
        if (v->kind != VK_OP)
            return *via = NULL;
    }
    if (prefetched(p, v->def) && ce_load_to_tile_ok(e, v->def, sbuf))
        return v->def;
    *via = NULL;
    return NULL;
}

/* The other carried values one iteration on, from their yields: mt_n<r>,
 * a scalar or an array in the carried value's distribution. */
static void emit_next_values(Emit *e, Op *loop, const DotPlan *plan) {
    for (int k = 0; k < loop->nres; k++) {
        if (k == plan->acc_iter)
            continue;
        ValId r = loop->res[k], y = loop->yields[k];
        Type t = val_type(e->f, r);
        const char *ct = ce_ctype(e, type_elem(t));
        if (!t.rank) {
            ce_line(e, "const %s mt_n%d = %s;", ct, r, ce_elem(e, y, NULL, loop->loc));
            continue;
        }
        const Dist *d = &e->dist[loop->iters[k]];
        ce_line(e, "%s mt_n%d[%d];", ct, r, d->nE);
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, d->nE, CE_SLOT);
        ce_line(e, "    mt_n%d[%s] = %s;", r, CE_SLOT, ce_elem(e, y, d, loop->loc));
    }
}

/* The carried values (but the accumulator) become their mt_n<r>. */
static void take_next_values(Emit *e, Op *loop, const DotPlan *plan) {
    for (int k = 0; k < loop->nres; k++) {
        if (k == plan->acc_iter)
            continue;
        ValId r = loop->res[k];
        const char *v = e->name[loop->iters[k]];
        if (!val_type(e->f, r).rank) {
            ce_line(e, "%s = mt_n%d;", v, r);
            continue;
        }
        int n = e->dist[loop->iters[k]].nE;
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, n, CE_SLOT);
        ce_line(e, "    %s[%s] = mt_n%d[%s];", v, CE_SLOT, r, CE_SLOT);
    }
}

/* Names the prefetch redefined in its own block are the advance block's
 * again. */
static void rename_advance(Emit *e, const DotPlan *plan) {
    for (int i = 0; i < plan->nadvance; i++)
        e->name[plan->advance[i]->res[0]] = ce_fmt(e, "v%d", plan->advance[i]->res[0]);
}

/* One tile's operands into `stage`: the prefetch ops but the direct
 * loads (direct[0..1]) and the trans ops they come through (direct[2..3],
 * async_load), then the direct loads by cp.async straight into the tile,
 * and the rest through registers, written at once (`now`) or kept in
 * mt_na / mt_nb for the caller to write after the dot. */
static int fetch_tile(Emit *e, const DotPlan *plan, DotGen *g, Op *const direct[4],
                      const char *stage, bool now) {
    ValId ab[2] = {plan->dot->args[0], plan->dot->args[1]};
    if (emit_ops(e, plan->prefetch, plan->nprefetch, direct) < 0)
        return -1;
    for (int k = 0; k < 2; k++) {
        if (direct[k]) {
            if (ce_emit_load_to_tile(e, direct[k], k ? &g->B : &g->A, stage,
                                     k ? "mt_so1" : "mt_so0") < 0)
                return -1;
        } else if (!now) {
            int n = e->dist[ab[k]].nE;
            ce_unroll(e);
            ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, n, CE_SLOT);
            ce_line(e, "    %s[%s] = %s[%s];", k ? "mt_nb" : "mt_na", CE_SLOT, e->name[ab[k]],
                    CE_SLOT);
        }
    }
    if (now)
        dot_writes(e, g, stage, direct[0] ? "" : NULL, direct[1] ? "" : NULL);
    return HAS_ERROR(e->c) ? -1 : 0;
}

/* Whether the prefetch of tile t + S - 1 may run past the last tile, its
 * copies predicated off (e->tile_guard) rather than branched around, as
 * Triton issues them: the branch kept ptxas from moving the prefetch's
 * address arithmetic among the dot's instructions.  Only its direct loads
 * read memory, and nothing else in it divides (an index past the last
 * tile may make a divisor zero). */
static bool prefetch_cannot_fault(Emit *e, const DotPlan *plan, Op *const direct[4]) {
    for (int i = 0; i < plan->nprefetch; i++) {
        const Op *op = plan->prefetch[i];
        if (op == direct[0] || op == direct[1] || op == direct[2] || op == direct[3])
            continue;
        unsigned fl = op_info[op->code].flags;
        if (!(fl & F_PURE) || (fl & F_DIVISOR))
            return false;
    }
    return true;
}

/* The pipelined loop of match_carried_pipeline's general shape with S
 * shared stages (the plan's stage_count, Triton's num_stages), t the
 * trip, k_base = lo + t * step:
 *
 *     for (j = 0; j < S - 1; ++j) {        tiles 0 .. S - 2 -> stages
 *         if (j < trips) { advance the carried values to tile j's;
 *                          operands of tile j -> stage j }
 *         commit
 *     }
 *     for (t = 0; t < trips; ++t) {
 *         wait until tile t has landed; __syncthreads();
 *         advance the other carried values (to tile t + S - 1's)
 *         if (more) operands of tile t + S - 1 -> stage (t - 1) mod S
 *         commit
 *         the dot on stage t mod S
 *         if (more) registers -> stage (t - 1) mod S
 *     }
 *     __syncthreads();                      (emit_for)
 *
 * Operands that can go straight into their tile (async_load) travel by
 * cp.async, one commit group per tile, S - 1 tiles in flight; the rest
 * through registers, loaded before the dot and written after it.  The one
 * barrier per iteration both publishes tile t and ends every thread's
 * reads of tile t - 1, whose stage the iteration then refills.  The
 * carried values other than the accumulator run S - 2 iterations ahead
 * (dotplan.c allows S > 2 only when nothing reads them after the loop);
 * the prefetch re-emits the operand ops with the index and those values
 * of tile t + S - 1 (its variables shadow any of the same name outside
 * it).  The trip count is unsigned, so no index past the bounds is formed
 * by signed overflow.  Emits the body; the caller adds the yields and
 * closes the loop. */
/* The C text of a pipelined loop's index: its type, the unsigned type of
 * its trip count, its start and step, and the stage count. */
typedef struct LoopText {
    const char *it, *ut, *lo, *step;
    int S;
} LoopText;

/* The prologue: tiles 0 .. S - 2 into stages 0 .. S - 2, the other
 * carried values advanced to each tile's before it. */
static int emit_pipeline_prologue(Emit *e, Op *loop, const DotPlan *plan, DotGen *g,
                                  Op *const direct[4], const LoopText *x, bool async) {
    ce_unroll(e);
    ce_line(e, "for (int mt_pj = 0; mt_pj < %d; ++mt_pj) {", x->S - 1);
    e->indent++;
    e->name[loop->index] = "k_base";
    if (x->S > 2) {
        ce_line(e, "if (mt_pj > 0 && (%s)mt_pj < mt_trips) {", x->ut);
        e->indent++;
        ce_line(e, "const %s k_base = (%s)((%s)%s + (%s)(mt_pj - 1) * (%s)%s);", x->it, x->it,
                x->ut, x->lo, x->ut, x->ut, x->step);
        Op *none[4] = {NULL, NULL, NULL, NULL};
        if (emit_ops(e, plan->advance, plan->nadvance, none) < 0)
            return -1;
        emit_next_values(e, loop, plan);
        take_next_values(e, loop, plan);
        e->indent--;
        ce_line(e, "}");
    }
    ce_line(e, "if ((%s)mt_pj < mt_trips) {", x->ut);
    e->indent++;
    ce_line(e, "const %s k_base = (%s)((%s)%s + (%s)mt_pj * (%s)%s);", x->it, x->it, x->ut,
            x->lo, x->ut, x->ut, x->step);
    if (fetch_tile(e, plan, g, direct, "mt_pj", true) < 0)
        return -1;
    e->indent--;
    ce_line(e, "}");
    if (async)
        ce_line(e, "mt_cp_async_commit();");
    e->indent--;
    ce_line(e, "}");
    return 0;
}

/* The prefetch of tile t + S - 1 into stage mt_wstage, in a block of its
 * own (its names shadow the loop's): behind `if (mt_more)`, or, guarded,
 * issued by every thread with mt_more in each copy's predicate. */
static int emit_prefetch(Emit *e, Op *loop, const DotPlan *plan, DotGen *g,
                         Op *const direct[4], const LoopText *x, bool guarded) {
    Func *f = e->f;
    ce_line(e, guarded ? "{" : "if (mt_more) {");
    e->indent++;
    ce_line(e, "const %s mt_k_next = (%s)((%s)k_base + %du * (%s)%s);", x->it, x->it, x->ut,
            x->S - 1, x->ut, x->step);
    const char **saved = arena_alloc(f->arena, sizeof(char *) * (size_t)(loop->nres + 1));
    if (!saved)
        return diag_error(e->c, loop->loc, MT_ERR_NOMEM, "out of memory");
    e->name[loop->index] = "mt_k_next";
    for (int k = 0; k < loop->nres; k++) {
        saved[k] = e->name[loop->iters[k]];
        if (k != plan->acc_iter)
            e->name[loop->iters[k]] = ce_fmt(e, "mt_n%d", loop->res[k]);
    }
    e->tile_guard = guarded ? "mt_more" : NULL;
    e->drain_cp_async |= guarded;
    int fetched = fetch_tile(e, plan, g, direct, "mt_wstage", false);
    e->tile_guard = NULL;
    if (fetched < 0)
        return -1;
    for (int k = 0; k < loop->nres; k++)
        e->name[loop->iters[k]] = saved[k];
    e->indent--;
    ce_line(e, "}");
    return 0;
}

static int emit_carried_pipeline(Emit *e, Op *loop, const DotPlan *plan) {
    Func *f = e->f;
    Op *dot = plan->dot;
    ValId acc = loop->iters[plan->acc_iter];
    Type xt = val_type(f, loop->index);
    LoopText x = {ce_ctype(e, xt), dtype_ctype(xt.dtype == DT_I64 ? DT_U64 : DT_U32),
                  ce_vname(e, loop->args[0]), ce_vname(e, loop->args[2]),
                  plan->A.stage_count /* S - 1 tiles in flight */};
    int S = x.S;
    const char *it = x.it, *ut = x.ut, *lo = x.lo, *step = x.step;
    const char *hi = ce_vname(e, loop->args[1]);
    DotGen g;
    dot_prepare(e, dot, &g);
    Op *direct[4];
    direct[0] = async_load(e, plan, dot->args[0], &g.A, g.tiled && !plan->a_as_loaded,
                           &direct[2]);
    direct[1] = async_load(e, plan, dot->args[1], &g.B, rhs_transposed(plan), &direct[3]);
    bool async = direct[0] || direct[1];
    bool inflight = dot_unit_wgmma(plan->unit) && !dot->attr[1] /* partial sums wait */ &&
                    plan->in_place && direct[0] && direct[1];
    bool cp_async_only = direct[0] && direct[1] && ce_load_to_tile_async_only(e, direct[0]) &&
                         ce_load_to_tile_async_only(e, direct[1]);
    for (int k = 0; k < 2; k++)
        if (direct[k])
            ce_tile_offsets(e, direct[k], k ? &g.B : &g.A, k ? "mt_so1" : "mt_so0");
    ce_line(e, "const %s mt_trips = %s < %s ? ((%s)%s - (%s)%s - 1u) / (%s)%s + 1u : 0u;", ut,
            lo, hi, ut, hi, ut, lo, ut, step);
    if (emit_pipeline_prologue(e, loop, plan, &g, direct, &x, async) < 0)
        return -1;

    ce_line(e, "int dot_stage = 0;");
    ce_line(e, "for (%s mt_t = 0; mt_t < mt_trips; ++mt_t) {", ut);
    e->indent++;
    ce_line(e, "const %s k_base = (%s)((%s)%s + mt_t * (%s)%s);", it, it, ut, lo, ut, step);
    if (async)
        ce_line(e, "mt_cp_async_wait_group(%d);", S - 2);
    publish_tiles(e, &g, cp_async_only);
    ce_line(e, "const bool mt_more = mt_t + %du < mt_trips;", S - 1);
    if (S > 2) {
        ce_line(e, "const %s mt_k_ahead = (%s)((%s)k_base + %du * (%s)%s);", it, it, ut, S - 2,
                ut, step);
        e->name[loop->index] = "mt_k_ahead";
    }
    Op *none[4] = {NULL, NULL, NULL, NULL};
    if (emit_ops(e, plan->advance, plan->nadvance, none) < 0)
        return -1;
    emit_next_values(e, loop, plan);
    for (int k = 0; k < 2; k++)
        if (!direct[k]) {
            ValId v = dot->args[k];
            ce_line(e, "%s %s[%d];", ce_ctype(e, type_elem(val_type(f, v))),
                    k ? "mt_nb" : "mt_na", e->dist[v].nE);
        }
    if (S == 2)
        ce_line(e, "const int mt_wstage = dot_stage ^ 1;");
    else
        ce_line(e, "const int mt_wstage = dot_stage == 0 ? %d : dot_stage - 1;", S - 1);
    if (inflight) {
        e->wgmma_inflight = true;
        e->inflight_acc = e->name[acc];
        e->inflight_n = g.r.nE;
        if (pipelined_step(e, plan, acc, &g) < 0)
            return -1;
        ce_line(e, "__syncthreads();"); /* every warpgroup's tile t - 1 retired */
    }
    /* A CUDA-core dot with tiles in flight beside this one runs before
     * the prefetch, as Triton orders it: its shared loads start right
     * after the barrier, where the prefetch's address arithmetic and
     * copies held them back, and tile t + S - 1 still has S - 2
     * iterations to land. */
    bool late = !inflight && plan->unit == DOT_FMA && S >= 3 && direct[0] && direct[1];
    if (late && pipelined_step(e, plan, acc, &g) < 0)
        return -1;
    bool guarded = cp_async_only && prefetch_cannot_fault(e, plan, direct);
    if (emit_prefetch(e, loop, plan, &g, direct, &x, guarded) < 0)
        return -1;
    if (async)
        ce_line(e, "mt_cp_async_commit();");
    e->name[loop->index] = "k_base";
    rename_advance(e, plan);
    if (!inflight && !late && pipelined_step(e, plan, acc, &g) < 0)
        return -1;
    if (!direct[0] || !direct[1]) {
        ce_line(e, "if (mt_more) {");
        e->indent++;
        dot_writes(e, &g, "mt_wstage", direct[0] ? "" : "mt_na", direct[1] ? "" : "mt_nb");
        e->indent--;
        ce_line(e, "}");
    }
    if (S == 2)
        ce_line(e, "dot_stage ^= 1;");
    else
        ce_line(e, "dot_stage = dot_stage == %d ? 0 : dot_stage + 1;", S - 1);
    return HAS_ERROR(e->c) ? -1 : 0;
}

int ce_emit_pipelined_loop(Emit *e, Op *loop, const DotPlan *plan) {
    Func *f = e->f;
    if (plan->carried)
        return emit_carried_pipeline(e, loop, plan);
    Op *dot = plan->dot;
    ValId a = dot->args[0], b = dot->args[1], acc = loop->iters[0];
    long long BK = val(f, loop->args[2])->c.i;
    const char *lo = ce_vname(e, loop->args[0]), *hi = ce_vname(e, loop->args[1]);
    ce_line(e, "if (%s < %s) {", lo, hi);
    e->indent++;
    ce_line(e, "const int k_base = %s;", lo);
    e->name[loop->index] = "k_base";
    if (emit_operand_ops(e, loop, plan) < 0)
        return -1;
    DotGen g;
    dot_prepare(e, dot, &g);
    dot_writes(e, &g, "0", NULL, NULL);
    e->indent--;
    ce_line(e, "}");
    ce_line(e, "__syncthreads();");
    ce_line(e, "for (int k_base = %s; k_base < %s; k_base += %lld) {", lo, hi, BK);
    e->indent++;
    ce_line(e, "int dot_stage = (k_base / %lld) & 1;", BK);
    ce_line(e, "const bool mt_more = k_base + %lld < %s;", BK, hi);
    const char *ta = ce_ctype(e, type_elem(val_type(f, a)));
    const char *tb = ce_ctype(e, type_elem(val_type(f, b)));
    ce_line(e, "%s mt_na[%d];", ta, e->dist[a].nE);
    ce_line(e, "%s mt_nb[%d];", tb, e->dist[b].nE);
    ce_line(e, "if (mt_more) {");
    e->indent++;
    ce_line(e, "const int mt_k_next = k_base + %lld;", BK);
    e->name[loop->index] = "mt_k_next";
    if (emit_operand_ops(e, loop, plan) < 0)
        return -1;
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, e->dist[a].nE, CE_SLOT);
    ce_line(e, "    mt_na[%s] = %s[%s];", CE_SLOT, e->name[a], CE_SLOT);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, e->dist[b].nE, CE_SLOT);
    ce_line(e, "    mt_nb[%s] = %s[%s];", CE_SLOT, e->name[b], CE_SLOT);
    e->indent--;
    ce_line(e, "}");
    e->name[loop->index] = "k_base";
    if (pipelined_step(e, plan, acc, &g) < 0)
        return -1;
    ce_line(e, "if (mt_more) {");
    e->indent++;
    dot_writes(e, &g, "dot_stage ^ 1", "mt_na", "mt_nb");
    e->indent--;
    ce_line(e, "}");
    ce_line(e, "__syncthreads();");
    return HAS_ERROR(e->c) ? -1 : 0;
}
