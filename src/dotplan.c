/* dotplan.c: how each dot is lowered, decided before any text exists.
 *
 * Input: a Func with layouts assigned (layout.c).  Output: a DotPlan on
 * every dot op, and on every for op that is a dot's K loop the same plan
 * (Op.plan; NULL elsewhere).  The emitter (cuda.c) only reads plans.
 *
 * Three forms.  Single stage: the dot's operands are written to the
 * shared tiles dot_lhs/dot_rhs, a barrier, the FMAs, a barrier.  Two
 * stage (the Version 18 ping-pong, inventory 9.6): a canonical runtime K
 * loop around one dot alternates two copies of the tiles, one barrier per
 * iteration.  Pipelined: a two-stage loop whose body is only the dot, its
 * accumulate and the ops computing its operands; tile t + 1 is loaded
 * into registers while the FMAs of tile t run (see emit_pipelined_loop in
 * cuda.c for the schedule and why one barrier suffices).
 *
 * Each plan also fixes the dot's shared tiles (SharedBuffer A and B:
 * shape, Version 18 padding, stages), whether the result is the register
 * tile of layout.c's dot_layout (its layout's kind, LAYOUT_DOT_TILE), and
 * the blocks per SM that tile's registers allow. */
#include "mt.h"

#include <string.h>

static bool depends_on(Func *f, ValId v, ValId target, uint8_t *seen) {
    if (v == target)
        return true;
    if (!v || seen[v] || val(f, v)->kind != VK_OP)
        return false;
    seen[v] = 1;
    Op *d = val(f, v)->def;
    if (!d || (op_info[d->code].flags & F_REGION))
        return false;
    for (int i = 0; i < d->nargs; i++)
        if (depends_on(f, d->args[i], target, seen))
            return true;
    return false;
}

/* Inventory 9.6: the canonical runtime K loop around one dot, all ten
 * conditions (numbered below); anything else keeps the single-stage
 * lowering.  On top of them, match_pipeline decides whether the loop is
 * also software pipelined. */
static bool match_pipeline(Func *f, const Op *loop, Op *dot, ValId next,
                           DotPlan *plan);

static bool match_dot_loop(Func *f, const Op *loop, DotPlan *plan) {
    ValId start = loop->args[0], step = loop->args[2];
    if (!val_is_const(f, start) || val(f, start)->c.i != 0)
        return false;                                    /* 1 */
    if (!val_is_const(f, step) || val(f, step)->c.i <= 0)
        return false;                                    /* 2 */
    Op *dot = NULL;
    int ndots = 0;
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op_info[op->code].flags & F_REGION)
            return false;                                /* 10 */
        if (op->code == OP_DOT) {
            dot = op;
            ndots++;
        }
    }
    if (ndots != 1)
        return false;                                    /* 4 */
    Type at = val_type(f, dot->args[0]);
    if (val(f, step)->c.i != at.shape[1])
        return false;                                    /* 3 */
    uint8_t *seen = arena_alloc(f->arena, (size_t)f->nvals);
    if (!seen || !depends_on(f, dot->args[0], loop->index, seen))
        return false;                                    /* 5 */
    memset(seen, 0, (size_t)f->nvals);
    if (!depends_on(f, dot->args[1], loop->index, seen))
        return false;                                    /* 6 */
    if (loop->nres != 1)
        return false;                                    /* 7 */
    ValId acc = loop->iters[0], next = 0;
    if (dot->args[2] == acc) {
        next = dot->res[0]; /* dot(a, b, acc) adds in place */
    } else {
        for (int i = 0; i < loop->body->nops; i++) {
            Op *op = loop->body->ops[i];
            if (op->code == OP_ADD &&
                ((op->args[0] == acc && op->args[1] == dot->res[0]) ||
                 (op->args[1] == acc && op->args[0] == dot->res[0])))
                next = op->res[0];
        }
    }
    if (!next)
        return false;                                    /* 8 */
    if (loop->yields[0] != next)
        return false;                                    /* 9 */
    plan->loop = (Op *)loop;
    plan->dot = dot;
    plan->next = next;
    plan->add = next == dot->res[0] ? NULL : val(f, next)->def;
    plan->form = match_pipeline(f, loop, dot, next, plan) ? DOT_PIPELINED
                                                          : DOT_TWO_STAGE;
    return true;
}

/* The software-pipelining proof on a loop match_dot_loop accepted: the
 * body is exactly the dot, its accumulate (next = acc + dot, or the dot
 * itself when it takes acc), and the ops the dot's operands are computed
 * from (pure ops and loads, none reading the accumulator).  Then the
 * operand ops of tile t + 1 can be issued before the dot of tile t (no
 * store, no other carry, nothing else in the body can observe the move),
 * and the dot may accumulate straight into the carried array when the
 * accumulator, the dot and the sum share one layout and nothing else
 * reads them. */
static bool match_pipeline(Func *f, const Op *loop, Op *dot, ValId next,
                           DotPlan *plan) {
    ValId acc = loop->iters[0];
    Op *add = next == dot->res[0] ? NULL : val(f, next)->def;
    if (dot->args[2] && dot->args[2] != acc)
        return false;
    uint8_t *need = arena_alloc(f->arena, (size_t)f->nvals);
    if (!need)
        return false;
    need[dot->args[0]] = need[dot->args[1]] = 1;
    for (int i = loop->body->nops - 1; i >= 0; i--) {
        Op *op = loop->body->ops[i];
        if (op == dot || op == add)
            continue;
        if (!(op_info[op->code].flags & (F_PURE | F_READ)) || op->nres != 1 ||
            !need[op->res[0]])
            return false;
        for (int k = 0; k < op->nargs; k++) {
            if (op->args[k] == acc)
                return false;
            if (op->args[k])
                need[op->args[k]] = 1;
        }
    }
    int la = val(f, acc)->layout;
    plan->in_place = la >= 0 && la == val(f, dot->res[0])->layout &&
                     la == val(f, next)->layout;
    return true;
}

/* Marks in `mark` (bit `bit`) the ops of the loop body that value v
 * needs, through operands inside the body; false when one of them is
 * excluded (bit 4: the accumulator's chain) or not allowed (`pure_only`
 * and it reads memory). */
static bool mark_needed(Func *f, const Op *loop, ValId v, uint8_t *mark, int bit,
                        bool pure_only) {
    if (v && (mark[v] & 4))
        return false;
    if (!v || val(f, v)->kind != VK_OP)
        return true;
    Op *d = val(f, v)->def;
    if (!d || (mark[v] & bit))
        return true;
    bool inside = false;
    for (int i = 0; i < loop->body->nops && !inside; i++)
        inside = loop->body->ops[i] == d;
    if (!inside)
        return true;
    if ((op_info[d->code].flags & F_REGION) || d->nres != 1 ||
        !(op_info[d->code].flags & (pure_only ? F_PURE : F_PURE | F_READ)))
        return false;
    mark[v] |= (uint8_t)bit;
    for (int k = 0; k < d->nargs; k++)
        if (!mark_needed(f, loop, d->args[k], mark, bit, pure_only))
            return false;
    return true;
}

/* The software pipeline on a K loop of the shape Triton's tutorials write:
 *     for k in range(lo, hi, step):    (any start, a positive constant step)
 *         a = load(a_ptrs, ...); b = load(b_ptrs, ...)
 *         acc = dot(a, b, acc)          (or acc += dot(a, b))
 *         a_ptrs += ...; b_ptrs += ...  (other carried values)
 * The body must be exactly: the dot and its accumulate; the ops its
 * operands need (loads and pure ops, reading neither the accumulator nor
 * the dot), which for tile t + 1 run before the dot of tile t with the
 * index and the other carried values of t + 1; and pure ops advancing the
 * other carried values, which run first in each iteration, so those
 * values of t + 1 exist when the prefetch needs them.  No store, no
 * region, one dot: nothing else can observe the reordering. */
static bool match_carried_pipeline(Func *f, Op *loop, DotPlan *plan) {
    ValId step = loop->args[2];
    if (!val_is_const(f, step) || val(f, step)->c.i <= 0)
        return false;
    Op *dot = NULL;
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op_info[op->code].flags & F_REGION)
            return false;
        if (op->code == OP_DOT) {
            if (dot)
                return false;
            dot = op;
        }
    }
    if (!dot)
        return false;
    int ai = -1;
    ValId next = 0;
    for (int k = 0; k < loop->nres && ai < 0; k++) {
        ValId acc = loop->iters[k], y = loop->yields[k];
        if (dot->args[2] == acc && y == dot->res[0])
            ai = k, next = y;
        Op *d = val(f, y)->kind == VK_OP ? val(f, y)->def : NULL;
        if (!dot->args[2] && d && d->code == OP_ADD &&
            ((d->args[0] == acc && d->args[1] == dot->res[0]) ||
             (d->args[1] == acc && d->args[0] == dot->res[0])))
            ai = k, next = y;
    }
    if (ai < 0)
        return false;
    uint8_t *mark = arena_alloc(f->arena, (size_t)f->nvals);
    if (!mark)
        return false;
    /* bit 4: the accumulator's chain, which no other op may read */
    mark[loop->iters[ai]] = mark[dot->res[0]] = mark[next] = 4;
    if (!mark_needed(f, loop, dot->args[0], mark, 1, false) ||
        !mark_needed(f, loop, dot->args[1], mark, 1, false))
        return false;
    for (int k = 0; k < loop->nres; k++)
        if (k != ai && !mark_needed(f, loop, loop->yields[k], mark, 2, true))
            return false;
    /* a new tile each iteration: the operands read the index or a
     * carried value (else there is nothing to prefetch) */
    bool varies = false;
    for (int i = 0; i < loop->body->nops && !varies; i++) {
        Op *op = loop->body->ops[i];
        for (int k = 0; k < op->nargs && op->nres == 1 && (mark[op->res[0]] & 1); k++)
            for (int j = 0; j < loop->nres; j++)
                varies |= op->args[k] == loop->index ||
                          (j != ai && op->args[k] == loop->iters[j]);
    }
    if (!varies)
        return false;
    Op *add = next == dot->res[0] ? NULL : val(f, next)->def;
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op != dot && op != add && (op->nres != 1 || !(mark[op->res[0]] & 3)))
            return false; /* a store, or an op nothing here needs */
        if (op != dot && op != add)
            for (int k = 0; k < op->nargs; k++)
                if (op->args[k] && (mark[op->args[k]] & 4))
                    return false;
    }
    plan->loop = loop;
    plan->dot = dot;
    plan->next = next;
    plan->add = add;
    plan->form = DOT_PIPELINED;
    plan->carried = true;
    plan->acc_iter = ai;
    plan->advance = arena_alloc(f->arena, sizeof(Op *) * (size_t)loop->body->nops);
    plan->prefetch = arena_alloc(f->arena, sizeof(Op *) * (size_t)loop->body->nops);
    if (!plan->advance || !plan->prefetch)
        return false;
    for (int i = 0; i < loop->body->nops; i++) {
        Op *op = loop->body->ops[i];
        if (op == dot || op == add)
            continue;
        if (mark[op->res[0]] & 2)
            plan->advance[plan->nadvance++] = op;
        if (mark[op->res[0]] & 1)
            plan->prefetch[plan->nprefetch++] = op;
    }
    int la = val(f, loop->iters[ai])->layout;
    plan->in_place = la >= 0 && la == val(f, dot->res[0])->layout &&
                     la == val(f, next)->layout;
    return true;
}

/* Blocks per SM to ask ptxas for (the second __launch_bounds__
 * argument) around a pipelined register-tiled dot: a register cap of
 * 65536 / (threads * blocks) that still holds the E accumulators, the
 * prefetched operands, the fragments and the addresses, estimated as
 * max(2E, E + 64) (measured with ptxas -v on sm_90: 128x64 and 64x128 at
 * 4 warps and 128x128 at 8 warps fit 128 registers, 64x64 fits ~100,
 * without spills).  It lifts 128x64 / 4 warps from 3 to 4 blocks per SM.
 * A dot tile has no replication: E = BM * BN / threads.  An ask, not a
 * promise: more stages, or A as loaded, can need more, and where ptxas
 * spills under it the build asks for fewer blocks (cudart.c). */
static int tile_min_blocks(Type rt, int num_warps) {
    int threads = 32 * num_warps;
    int nE = (int)(type_numel(rt) / threads);
    int cap = 2 * nE > nE + 64 ? 2 * nE : nE + 64;
    int blocks = 65536 / (threads * cap);
    if (blocks * threads > 2048)
        blocks = 2048 / threads;
    if (blocks < 1)
        blocks = 1;
    return blocks;
}

/* Hopper's wgmma (sm_90 only: Blackwell has other instructions):
 * warpgroups of 4 warps stacked along M, each its m64 blocks of BM /
 * (num_warps / 4) rows; A's rows of BK elements one swizzle atom (32, 64
 * or 128 bytes) or several of 128, and a k step of 32 bytes.  16-bit B is
 * read N-major in 64-column blocks (the 128-byte swizzle), so BN is a
 * multiple of 64; fp8 B only K-major (the instruction transposes only
 * 16-bit tiles), B's tile [BN][BK] as A's, so BN is a multiple of 8.  BN
 * at most the instruction's 256. */
static bool wgmma_fits(const Func *f, Type at, Type bt) {
    int W = f->num_warps, BM = at.shape[0], BK = at.shape[1], BN = bt.shape[1];
    int es = dtype_is_fp8(at.dtype) ? 1 : 2, atom = 128 / es;
    return f->sm == 90 && W % 4 == 0 && BM % (16 * W) == 0 && BN % (es == 1 ? 8 : 64) == 0 &&
           BN <= 256 && BK % (32 / es) == 0 && (BK <= atom ? (BK & (BK - 1)) == 0 : BK % atom == 0);
}

bool dot_unit_wgmma(DotUnit u) {
    return u == DOT_WGMMA_F16 || u == DOT_WGMMA_BF16 || u == DOT_WGMMA_F8;
}

DotUnit dot_unit(Func *f, const Op *dot) {
    Type at = val_type(f, dot->args[0]), bt = val_type(f, dot->args[1]);
    if (at.rank != 2 || bt.rank != 2)
        return DOT_FMA;
    if (dtype_is_fp8(at.dtype)) /* only wgmma keeps fp8 operands (widenfp8.c) */
        return wgmma_fits(f, at, bt) ? DOT_WGMMA_F8 : DOT_FMA;
    DotUnit u;
    int kstep = 16;
    switch (at.dtype) {
    case DT_I8: u = DOT_MMA_S8; kstep = 32; break;
    case DT_F16: u = DOT_MMA_F16; break;
    case DT_BF16: u = DOT_MMA_BF16; break;
    case DT_F32:
        if (dot->attr[0] == DOT_IEEE)
            return DOT_FMA;
        u = dot->attr[0] == DOT_TF32 ? DOT_MMA_TF32 : DOT_MMA_TF32X3;
        kstep = 8;
        break;
    default: return DOT_FMA;
    }
    if (at.shape[0] % 16 || bt.shape[1] % 8 || at.shape[1] % kstep)
        return DOT_FMA;
    if (val_type(f, dot->res[0]).dtype == DT_F16 || u == DOT_MMA_S8) /* mma.sync only */
        return u;
    return u != DOT_MMA_TF32 && u != DOT_MMA_TF32X3 && wgmma_fits(f, at, bt)
               ? (u == DOT_MMA_F16 ? DOT_WGMMA_F16 : DOT_WGMMA_BF16) : u;
}

/* The tiles of a tensor-core dot, A [BM][BK] and B [BK][BN] in the
 * operands' own element type (TF32 in f32), both read by rows of the
 * warp's fragments (cuda_mma.c).  Padding keeps those reads free of bank
 * conflicts: ldmatrix reads 8 rows of 16 bytes at once, distinct banks
 * when the row stride is an odd number of 16-byte units; TF32 fragments
 * read A at (g, t) and B at (t, g) (g = lane / 4, t = lane % 4), distinct
 * banks when A's stride is 4 mod 8 words and B's 8 mod 16. */
static void plan_mma_tiles(DotPlan *p, int BM, int BK, int BN, DType d, DType db,
                           int stages) {
    if (p->unit == DOT_WGMMA_F8) { /* both K-major, B transposed */
        int atom = BK < 128 ? BK : 128;
        p->A = (SharedBuffer){"dot_lhs_q", BM, BK, d, 0, stages, atom, 0};
        p->B = (SharedBuffer){"dot_rhs_q", BN, BK, db, 0, stages, atom, 0};
        return;
    }
    if (p->unit == DOT_WGMMA_F16 || p->unit == DOT_WGMMA_BF16) {
        int atom = BK * 2 < 128 ? BK * 2 : 128;
        p->A = (SharedBuffer){"dot_lhs_h", BM, BK, d, 0, stages, atom, 0};
        p->B = (SharedBuffer){"dot_rhs_h", BK, BN, d, 0, stages, 128, 0};
        return;
    }
    if (p->unit == DOT_MMA_S8) { /* B transposed: its rows are columns of K */
        p->A = (SharedBuffer){"dot_lhs_b", BM, BK, d, (BK / 16) % 2 ? 0 : 16, stages, 0, 0};
        p->B = (SharedBuffer){"dot_rhs_b", BN, BK, d, (BK / 16) % 2 ? 0 : 16, stages, 0, 0};
        return;
    }
    if (p->unit == DOT_MMA_F16 || p->unit == DOT_MMA_BF16) {
        p->A = (SharedBuffer){"dot_lhs_h", BM, BK, d, (BK / 8) % 2 ? 0 : 8, stages, 0, 0};
        p->B = (SharedBuffer){"dot_rhs_h", BK, BN, d, (BN / 8) % 2 ? 0 : 8, stages, 0, 0};
        return;
    }
    p->A = (SharedBuffer){"dot_lhs", BM, BK, DT_F32, (4 - BK % 8 + 8) % 8, stages, 0, 0};
    p->B = (SharedBuffer){"dot_rhs", BK, BN, DT_F32, (8 - BN % 16 + 16) % 16, stages, 0, 0};
}

/* The dot's form-independent facts: the register tile and the buffers.
 * The tiled form with at most 64 results a thread (a_as_loaded) stores A
 * as loaded, [BM][BK + pad], as Triton's FMA dot does: per 4 k every
 * thread reads 4 consecutive k of each of its E0 rows of A, then E1
 * values of each of 4 rows of B, all as float4; A's tile can then be
 * filled by cp.async like B's (1024^3 fp32 on 64 x 64 tiles: 0.93 of
 * Triton, from 0.92).  Padding: BK + pad is 4 mod 8 floats, so the rows
 * a quarter-warp's float4 reads can meet (4 apart: a thread's rows come
 * in blocks of 4) start in different 16-byte banks, and rows stay
 * 16-byte aligned.  Larger register tiles keep A transposed, [BK][BM +
 * pad], so a thread's rows of A at one k are consecutive: per k every
 * thread reads E0 values of A and E1 of B as float4; 4 k of A's 8 rows
 * as loaded held 96 operand registers beside 128 accumulators, and the
 * 128 x 128 tiles of 4 warps fell from 1.07 to 0.97 of Triton at 4096^3
 * (H100); with 64 results (128 x 64 on 4 warps, 128 x 128 on 8) the
 * as-loaded form takes Triton's registers (168 and 185, no spill) and
 * the old form 175 with A through registers and st.shared.
 * Padding there: a warp reads one k row at a time (no row conflicts), but
 * the transposed write has tpw[1] of A's load layout rows in flight at
 * once; the Version 18 rule on those rows, in units of one float4 so rows
 * stay 16-byte aligned, decides it.  The scalar form keeps A [BM][BK +
 * pad] with the rule on the result's rows per warp. */
static void plan_tiles(Func *f, DotPlan *p) {
    Op *op = p->dot;
    Type at = val_type(f, op->args[0]), bt = val_type(f, op->args[1]);
    Type rt = val_type(f, op->res[0]);
    int BM = at.shape[0], BK = at.shape[1], BN = bt.shape[1];
    const Layout *lr = &f->layouts[val(f, op->res[0])->layout];
    int stages = p->form == DOT_SINGLE_STAGE ? 1 : 2;
    p->unit = DOT_FMA;
    if (lr->kind == LAYOUT_MMA && lr->shape[0] == BM && lr->shape[1] == BN &&
        BM % (16 * lr->wpc[0]) == 0 &&
        (BN % (8 * lr->wpc[1]) == 0 || (8 * lr->wpc[1]) % BN == 0))
        p->unit = dot_unit(f, op);
    if (dot_unit_wgmma(p->unit) &&
        (lr->wpc[0] != f->num_warps || lr->wpc[1] != 1)) /* not the warpgroups' layout */
        p->unit = p->unit == DOT_WGMMA_F16 ? DOT_MMA_F16 : p->unit == DOT_WGMMA_BF16
                                                           ? DOT_MMA_BF16 : DOT_FMA;
    if (p->unit != DOT_FMA) {
        plan_mma_tiles(p, BM, BK, BN, (DType)at.dtype, (DType)bt.dtype, stages);
        if (dot_unit_wgmma(p->unit)) {
            p->A.perm_warps = f->num_warps;
            f->wgmma = true;
        }
        return;
    }
    /* a dot tile made for the result's own shape (a broadcast member of
     * the group would hold 1 row or column, replicated) */
    p->tiled = lr->kind == LAYOUT_DOT_TILE && lr->shape[0] == rt.shape[0] &&
               lr->shape[1] == rt.shape[1] && BK % 4 == 0; /* k read 4 at a time */
    if (p->tiled) {
        int per_thread = (int)((int64_t)rt.shape[0] * rt.shape[1] / (32 * f->num_warps));
        p->a_as_loaded = per_thread <= 64;
        if (p->a_as_loaded) {
            p->A = (SharedBuffer){"dot_lhs", BM, BK, DT_F32, (4 - BK % 8 + 8) % 8, stages, 0, 0};
        } else {
            const Layout *la = &f->layouts[val(f, op->args[0])->layout];
            int rows_in_flight = la->rank == 2 ? la->tpw[la->rank - 1] : 1;
            p->A = (SharedBuffer){"dot_lhs", BK, BM, DT_F32,
                                  4 * smem_bank_padding(BM, rows_in_flight), stages, 0, 0};
        }
        p->min_blocks = tile_min_blocks(rt, f->num_warps);
    } else {
        int rows_per_warp = lr->tpw[0] < BM ? lr->tpw[0] : BM;
        p->A = (SharedBuffer){"dot_lhs", BM, BK, DT_F32,
                              smem_bank_padding(BK, rows_per_warp), stages, 0, 0};
    }
    p->B = (SharedBuffer){"dot_rhs", BK, BN, DT_F32, 0, stages, 0, 0};
    if (at.dtype == DT_F64) { /* the scalar form on double tiles */
        p->A.name = "dot_lhs_d";
        p->A.elem = DT_F64;
        p->B.name = "dot_rhs_d";
        p->B.elem = DT_F64;
    }
}

static int plan_region(Func *f, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == OP_DOT && !op->plan) {
            DotPlan *p = arena_alloc(f->arena, sizeof *p);
            if (!p)
                return -1;
            p->form = DOT_SINGLE_STAGE;
            p->dot = op;
            p->next = op->res[0];
            op->plan = p;
        }
        if (op->code == OP_FOR) {
            DotPlan *p = arena_alloc(f->arena, sizeof *p);
            if (!p)
                return -1;
            if (match_dot_loop(f, op, p) || match_carried_pipeline(f, op, p))
                op->plan = p->dot->plan = p;
        }
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (plan_region(f, rs[k]) < 0)
                return -1;
    }
    return 0;
}

/* Shared-memory stages of a tensor-core dot's general pipeline: Triton's
 * num_stages (3 unless the kernel says), at least the double buffer and
 * at most MT_MAX_STAGES; smem_plan lowers it while the tiles do not fit.
 * Past two stages the loop's other carried values run num_stages - 2
 * iterations ahead of the index (cuda_dot.c), so none of them may be read
 * after the loop. */
static int pipeline_stages(Func *f, const DotPlan *p) {
    int s = f->num_stages ? f->num_stages : 3;
    if (s < 2)
        s = 2;
    if (s > MT_MAX_STAGES)
        s = MT_MAX_STAGES;
    for (int k = 0; k < p->loop->nres && s > 2; k++)
        if (k != p->acc_iter && region_uses(&f->body, p->loop->res[k]))
            s = 2;
    return s;
}

static void tile_region(Func *f, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == OP_DOT) {
            plan_tiles(f, op->plan);
            /* tensor-core tiles take the general pipeline even on Version
             * 18's canonical loop: its prefetch can skip the registers */
            DotPlan *p = op->plan;
            if (p->unit != DOT_FMA && p->form == DOT_PIPELINED && !p->carried)
                match_carried_pipeline(f, p->loop, p);
            /* CUDA-core dots keep Version 18's double buffer only when
             * the kernel asks for two stages or fewer: Triton's default
             * (num_stages 3, 0 here) pipelines them three deep (fp32 ieee
             * 64x64x32 at 1024^3, H100: Triton 35.5 TFLOP/s at 3 stages,
             * 28.9 at 2; mytriton 32.6 at 2, 35.8 at 4) */
            if (p->carried && (p->unit != DOT_FMA || f->num_stages == 0 || f->num_stages > 2))
                p->A.stage_count = p->B.stage_count = pipeline_stages(f, p);
        }
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            tile_region(f, rs[k]);
    }
}

int plan_dots(Func *f) {
    if (plan_region(f, &f->body) < 0)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    tile_region(f, &f->body);
    return 0;
}

const char *dot_form_name(DotForm form) {
    switch (form) {
    case DOT_TWO_STAGE: return "two-stage";
    case DOT_PIPELINED: return "pipelined";
    default: return "single-stage";
    }
}

const char *dot_unit_name(DotUnit u) {
    static const char *const names[] = {"fma",        "mma-f16",    "mma-bf16",
                                        "mma-tf32",   "mma-tf32x3", "wgmma-f16",
                                        "wgmma-bf16", "mma-s8",     "wgmma-f8"};
    return u >= DOT_FMA && u <= DOT_WGMMA_F8 ? names[u] : "?";
}
