/* cuda_mma.c: the CUDA text of a tensor-core tile step (issue 10).
 *
 * Input: a dot whose plan (dotplan.c) has a tensor-core unit, its result
 * distribution r (a LAYOUT_MMA accumulator: blocked spt [1, 2], tpw
 * [8, 4], wpc [wm, wn]), and the shared tiles A [BM][BK] and B [BK][BN]
 * already written for this step (cuda_dot.c).  Output: the warp-wide loop
 * over BK that loads fragments from the tiles and adds their products into
 * the accumulator array `dst`, slot for slot.  It runs only under
 * __CUDA_ARCH__ >= 800; the caller writes the FMA form of the same tiles
 * beside it for every other target.
 *
 * Fragments.  Lane l = 4g + t holds slots (s0, s1) at row base0 + s0 * C0
 * and column base1 + (s1 / 2) * C1 + s1 % 2 (C0 = 8 wm, C1 = 8 wn, base0
 * = 8 w0 + g, base1 = 8 w1 + 2t): accumulator registers c0..c3 of the
 * warp's m16 tile i and n8 group j are slots (2i, 2j), (2i, 2j + 1),
 * (2i + 1, 2j), (2i + 1, 2j + 1), because the m16n8 accumulator's rows g
 * and g + 8 are repetitions 2i and 2i + 1 of the layout.  The A fragment
 * of tile i must then hold exactly those rows: ldmatrix takes one row
 * address per lane, so lanes 8q..8q+7 give rows 0..7 of repetition
 * 2i + (q & 1) at k offset 8 (q >> 1) (f16/bf16), and the TF32 fragment
 * loads a0..a3 = A(g | g + 8, t | t + 4) of the same rows directly.  B's
 * n8 group j is the 8 columns from mt_wc + j * C1, read transposed
 * (ldmatrix .trans: lane l receives B(2t, 2t + 1; g)) two groups per
 * instruction.
 *
 * Invariants: only shared addresses from smem_element_text on the
 * planned buffers; every lane of the warp executes every ldmatrix and mma
 * (the loop bounds are constants); the accumulator slots are the ones the
 * layout gives the thread, so the epilogue reads them as any block. */
#include "mt.h"

/* Address text &buf[stage, row, col]. */
static const char *tile_addr(Emit *e, const SharedBuffer *b, const char *stage,
                             const char *row, const char *col) {
    StrBuf sb;
    sb_init(&sb);
    smem_element_text(&sb, b, stage, row, col);
    const char *s = ce_fmt(e, "&%s[%s]", b->name, sb_str(&sb));
    sb_free(&sb);
    return s;
}

/* The four accumulator slots of tile mt_i, group mt_j, as mma operands. */
static const char *acc_slots(Emit *e, const char *dst, int E1) {
    return ce_fmt(e, "&%s[2 * mt_i * %d + 2 * mt_j], &%s[2 * mt_i * %d + 2 * mt_j + 1], "
                     "&%s[(2 * mt_i + 1) * %d + 2 * mt_j], &%s[(2 * mt_i + 1) * %d + 2 * mt_j + 1]",
                  dst, E1, dst, E1, dst, E1, dst, E1);
}

/* Fragments through ldmatrix: mt_ra[MI][4], mt_rb[NJ][2].  f16/bf16
 * tiles: A's rows as above, B's n8 groups read transposed (.trans).  int8
 * tiles (`s8`, m16n8k32), read as b16 pairs of 16-byte rows: A's the
 * same with k offsets of 16 bytes, so a0..a3 are rows g, g + 8 at k 4t
 * and 16 + 4t; B's tile is B transposed, [BN][BK], so a plain ldmatrix
 * gives lane 4g + t the four k values 4t..4t + 3 (and 16 + 4t..) of
 * column g: b0, b1. */
static void load_ldmatrix(Emit *e, const DotPlan *p, const char *stage, int C0, int C1,
                          int MI, int NJ, bool s8) {
    ce_line(e, "unsigned mt_ra[%d][4], mt_rb[%d][2];", MI, NJ);
    ce_unroll(e);
    ce_line(e, "for (int mt_i = 0; mt_i < %d; ++mt_i)", MI);
    ce_line(e, "    mt_ldsm4(%s, mt_ra[mt_i]);",
            tile_addr(e, &p->A, stage,
                      ce_fmt(e, "mt_wr + (2 * mt_i + ((mt_lane >> 3) & 1)) * %d + (mt_lane & 7)", C0),
                      s8 ? "mt_kk + (mt_lane >> 4) * 16" : "mt_kk + (mt_lane >> 4) * 8"));
    const char *krow = "mt_kk + ((mt_lane >> 3) & 1) * 8 + (mt_lane & 7)";
    const char *kcol = "mt_kk + ((mt_lane >> 3) & 1) * 16";
    if (NJ >= 2) {
        const char *g = ce_fmt(e, "mt_wc + (mt_j + (mt_lane >> 4)) * %d", C1);
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j + 1 < %d; mt_j += 2) {", NJ);
        ce_line(e, "    unsigned mt_q[4];");
        ce_line(e, "    %s(%s, mt_q);", s8 ? "mt_ldsm4" : "mt_ldsm4_t",
                s8 ? tile_addr(e, &p->B, stage, ce_fmt(e, "%s + (mt_lane & 7)", g), kcol)
                   : tile_addr(e, &p->B, stage, krow, g));
        ce_line(e, "    mt_rb[mt_j][0] = mt_q[0];");
        ce_line(e, "    mt_rb[mt_j][1] = mt_q[1];");
        ce_line(e, "    mt_rb[mt_j + 1][0] = mt_q[2];");
        ce_line(e, "    mt_rb[mt_j + 1][1] = mt_q[3];");
        ce_line(e, "}");
    }
    if (NJ % 2) { /* the last group alone: lanes 0..15 give its rows */
        const char *g = ce_fmt(e, "mt_wc + %d", (NJ - 1) * C1);
        ce_line(e, "%s(%s, mt_rb[%d]);", s8 ? "mt_ldsm2" : "mt_ldsm2_t",
                s8 ? tile_addr(e, &p->B, stage, ce_fmt(e, "%s + (mt_lane & 7)", g), kcol)
                   : tile_addr(e, &p->B, stage, krow, g),
                NJ - 1);
    }
}

/* Fragments of f32 tiles for TF32: mt_fa[MI][4], mt_fb[NJ][2] as floats. */
static void load_32bit(Emit *e, const DotPlan *p, const char *stage, int C0, int C1,
                       int MI, int NJ) {
    ce_line(e, "float mt_fa[%d][4], mt_fb[%d][2];", MI, NJ);
    ce_unroll(e);
    ce_line(e, "for (int mt_i = 0; mt_i < %d; ++mt_i) {", MI);
    for (int q = 0; q < 4; q++)
        ce_line(e, "    mt_fa[mt_i][%d] = *%s;", q,
                tile_addr(e, &p->A, stage,
                          ce_fmt(e, "mt_wr + (2 * mt_i + %d) * %d + (mt_lane >> 2)", q & 1, C0),
                          ce_fmt(e, "mt_kk + (mt_lane & 3) + %d", (q >> 1) * 4)));
    ce_line(e, "}");
    ce_unroll(e);
    ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", NJ);
    for (int q = 0; q < 2; q++)
        ce_line(e, "    mt_fb[mt_j][%d] = *%s;", q,
                tile_addr(e, &p->B, stage, ce_fmt(e, "mt_kk + (mt_lane & 3) + %d", q * 4),
                          ce_fmt(e, "mt_wc + mt_j * %d + (mt_lane >> 2)", C1)));
    ce_line(e, "}");
}

/* TF32 operand registers from the f32 fragments (the tiles hold the f32
 * as loaded): the value rounded to TF32 ("tf32", and the big part of
 * tf32x3), or with `rest` the TF32 of what that big part leaves (tf32x3). */
static void tf32_regs(Emit *e, const char *reg, const char *src, int n, int rows, bool rest) {
    ce_line(e, "unsigned %s[%d][%d];", reg, rows, n);
    ce_unroll(e);
    ce_line(e, "for (int mt_x = 0; mt_x < %d; ++mt_x)", rows * n);
    const char *v = ce_fmt(e, "%s[mt_x / %d][mt_x %% %d]", src, n, n);
    if (rest)
        v = ce_fmt(e, "%s - mt_tf32(%s)", v, v);
    ce_line(e, "    %s[mt_x / %d][mt_x %% %d] = __float_as_uint(mt_tf32(%s));", reg, n, n, v);
}

/* One mma per (tile, group) pair: fn(acc, a[mt_i], b[mt_j]). */
static void mma_all(Emit *e, const char *fn, const char *a, const char *b,
                    const char *dst, int E1, int MI, int NJ) {
    ce_unroll(e);
    ce_line(e, "for (int mt_i = 0; mt_i < %d; ++mt_i)", MI);
    ce_unroll(e);
    ce_line(e, "    for (int mt_j = 0; mt_j < %d; ++mt_j)", NJ);
    ce_line(e, "        %s(%s, %s[mt_i], %s[mt_j]);", fn, acc_slots(e, dst, E1), a, b);
}

/* smem_stage_text as a string of e's. */
static const char *stage_base(Emit *e, const SharedBuffer *b, const char *stage) {
    StrBuf sb;
    sb_init(&sb);
    smem_stage_text(&sb, b, stage);
    const char *s = ce_fmt(e, "%s", sb_str(&sb));
    sb_free(&sb);
    return s;
}

/* The wgmma instruction on block mt_b: d = the N / 2 accumulator slots in
 * the instruction's register order, A and B from descriptors, scale-d 1
 * (accumulate); 16-bit tiles A K-major and B N-major (imm-trans-b 1),
 * fp8 tiles both K-major (k32, no transpose operands). */
static void wgmma_asm(Emit *e, const DotPlan *p, int BN, int E1, const char *dst) {
    StrBuf sb;
    sb_init(&sb);
    int n = BN / 2;
    bool f8 = p->unit == DOT_WGMMA_F8;
    const char *types = p->unit == DOT_WGMMA_F16    ? "k16.f32.f16.f16"
                        : p->unit == DOT_WGMMA_BF16 ? "k16.f32.bf16.bf16"
                        : p->A.elem == DT_F8E4      ? (p->B.elem == DT_F8E4 ? "k32.f32.e4m3.e4m3"
                                                                            : "k32.f32.e4m3.e5m2")
                        : p->B.elem == DT_F8E4 ? "k32.f32.e5m2.e4m3" : "k32.f32.e5m2.e5m2";
    sb_printf(&sb, "asm volatile(\"{.reg .pred p; setp.ne.b32 p, %%%d, 0; "
                   "wgmma.mma_async.sync.aligned.m64n%d%s {", n + 2, BN, types);
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%s%%%d", i ? ", " : "", i);
    sb_printf(&sb, "}, %%%d, %%%d, p, 1, 1%s;}\"\n    : ", n, n + 1, f8 ? "" : ", 0, 1");
    for (int i = 0; i < n; i++) { /* register 4j + 2h + q: row half h, column 8j + 2t + q */
        int j = i / 4, h = i / 2 % 2, q = i % 2;
        sb_printf(&sb, "%s\"+f\"(%s[(2 * mt_b + %d) * %d + %d])", i ? ", " : "", dst, h, E1,
                  2 * j + q);
    }
    sb_puts(&sb, "\n    : \"l\"(mt_da), \"l\"(mt_db), \"r\"(1));");
    ce_line(e, "%s", sb_str(&sb));
    sb_free(&sb);
}

/* An empty asm that reads and writes every accumulator register: the C
 * compiler may not move or copy them across it, so nothing but wgmma
 * touches them while one is in flight. */
static void pin_accumulator(Emit *e, const char *dst, int n) {
    ce_unroll(e);
    ce_line(e, "for (int mt_e = 0; mt_e < %d; ++mt_e)", n);
    ce_line(e, "    asm volatile(\"\" : \"+f\"(%s[mt_e]) :: \"memory\");", dst);
}

/* The wgmmas of K steps [k0, k1) of the tile into accumulator `dst`
 * (mt_da0 and mt_db0 are the step's first descriptors, wgmma_compute). */
static void wgmma_steps(Emit *e, const DotPlan *p, const Dist *r, const char *k0,
                        const char *k1, const char *dst) {
    int G = e->f->num_warps / 4, BM = p->A.rows;
    bool f8 = p->unit == DOT_WGMMA_F8;
    int BN = f8 ? p->B.rows : p->B.columns;
    int cb = p->A.swizzle / (f8 ? 1 : 2);
    ce_unroll(e);
    ce_line(e, "for (int mt_kk = %s; mt_kk < %s; mt_kk += %d) {", k0, k1, f8 ? 32 : 16);
    e->indent++;
    ce_unroll(e);
    ce_line(e, "for (int mt_b = 0; mt_b < %d; ++mt_b) {", BM / G / 64);
    e->indent++;
    ce_line(e, "const unsigned long long mt_da = mt_da0 + (unsigned)(((mt_kk / %d) * %d + "
               "64 * mt_b * %d + mt_kk %% %d) * %d / 16);",
            cb, BM * cb, cb, cb, f8 ? 1 : 2);
    if (f8)
        ce_line(e, "const unsigned long long mt_db = mt_db0 + (unsigned)(((mt_kk / %d) * %d + "
                   "mt_kk %% %d) / 16);", cb, BN * cb, cb);
    else
        ce_line(e, "const unsigned long long mt_db = mt_db0 + (unsigned)(mt_kk * 128 / 16);");
    wgmma_asm(e, p, BN, r->E[1], dst);
    e->indent--;
    ce_line(e, "}");
    e->indent--;
    ce_line(e, "}");
}

/* The tile step through Hopper's wgmma (sm_90a).  Warpgroup mt_wg (warps
 * 4 mt_wg .. 4 mt_wg + 3) owns rows [mt_wg BM / G, (mt_wg + 1) BM / G) of
 * A's permuted rows, its MB m64 blocks; per 32 bytes of K (16 elements
 * of 16 bits, 32 of fp8) one wgmma m64nBN per block.  A is K-major in
 * its swizzle atom (SBO: the next 8 rows; a k step inside the atom moves
 * the start address, the swizzle being on address bits); a 16-bit B is
 * N-major in 128-byte blocks (LBO: the next 64 columns, BK rows of 128
 * bytes on; SBO: the next 8 rows), an fp8 B K-major as A, its BN rows
 * unpermuted.  One descriptor of each tile's first element per step: the
 * others differ only in their start address, by a constant number of
 * 16-byte units (the field cannot carry: shared addresses stay below
 * 2^18), so each is an add.  The accumulator's repetition 2b + h along M
 * is block b's row half h, so its registers are the layout's slots
 * (wgmma_asm).  Outside a loop that keeps a group in flight the group is
 * waited for at once, and the accumulator pinned on both sides.  Inside
 * one (e->wgmma_inflight) the wait leaves this group running and retires
 * the previous one, and nothing but wgmma may touch the accumulator until
 * the loop's final wait (ce_end_pipelined_loop): even an empty asm naming
 * it makes ptxas serialise every wgmma of the kernel (C7514).
 *
 * An fp8 dot with max_num_imprecise_acc (the dot's imprecise_acc, n > 0)
 * sums each n elements of K (at least one k32 step) apart, from zero, and
 * adds that partial sum into the f32 accumulator, as Triton's lowering
 * does: the tensor cores' fp8 accumulation is not f32's. */
static void wgmma_compute(Emit *e, const DotPlan *p, const Dist *r, const char *stage,
                          const char *dst) {
    int G = e->f->num_warps / 4, BM = p->A.rows, BK = p->A.columns;
    bool f8 = p->unit == DOT_WGMMA_F8;
    int atom = p->A.swizzle, cb = atom / (f8 ? 1 : 2);
    int mode = atom == 128 ? 1 : atom == 64 ? 2 : 3;
    int64_t partial = f8 ? p->dot->attr[1] : 0;
    ce_line(e, "{");
    e->indent++;
    /* mt_wg (warp-uniform: the descriptors are computed in uniform
     * registers, as Triton's) and the tiles' shared addresses mt_sa_lhs
     * and mt_sa_rhs come from the kernel's prologue (cuda.c) */
    if (!e->wgmma_inflight)
        pin_accumulator(e, dst, r->nE);
    int eb = f8 ? 1 : 2;
    e->tile_addresses = true;
    ce_line(e, "const unsigned long long mt_da0 = mt_wgmma_desc(mt_sa_lhs + "
               "(unsigned)(%smt_wg * %d) * %d, 16, %d, %d);",
            stage_base(e, &p->A, stage), BM / G * cb, eb, 8 * atom, mode);
    if (f8)
        ce_line(e, "const unsigned long long mt_db0 = mt_wgmma_desc(mt_sa_rhs + "
                   "(unsigned)(%s0) * %d, 16, %d, %d);",
                stage_base(e, &p->B, stage), eb, 8 * atom, mode);
    else
        ce_line(e, "const unsigned long long mt_db0 = mt_wgmma_desc(mt_sa_rhs + "
                   "(unsigned)(%s0) * %d, %d, 1024, 1);",
                stage_base(e, &p->B, stage), eb, p->A.columns * 128);
    if (partial) {
        int chunk = (int)((partial + 31) / 32) * 32;
        ce_unroll(e);
        ce_line(e, "for (int mt_c = 0; mt_c < %d; mt_c += %d) {", BK, chunk);
        e->indent++;
        ce_line(e, "float mt_pacc[%d];", r->nE);
        ce_unroll(e);
        ce_line(e, "for (int mt_e = 0; mt_e < %d; ++mt_e)", r->nE);
        ce_line(e, "    mt_pacc[mt_e] = 0.0f;");
        ce_line(e, "mt_wgmma_fence();");
        wgmma_steps(e, p, r, "mt_c", ce_fmt(e, "mt_c + %d && mt_kk < %d", chunk, BK), "mt_pacc");
        ce_line(e, "mt_wgmma_commit();");
        ce_line(e, "mt_wgmma_wait0();");
        pin_accumulator(e, "mt_pacc", r->nE);
        ce_unroll(e);
        ce_line(e, "for (int mt_e = 0; mt_e < %d; ++mt_e)", r->nE);
        ce_line(e, "    %s[mt_e] += mt_pacc[mt_e];", dst);
        e->indent--;
        ce_line(e, "}");
        pin_accumulator(e, dst, r->nE);
        e->indent--;
        ce_line(e, "}");
        return;
    }
    ce_line(e, "mt_wgmma_fence();");
    wgmma_steps(e, p, r, "0", ce_fmt(e, "%d", BK), dst);
    ce_line(e, "mt_wgmma_commit();");
    if (e->wgmma_inflight) {
        ce_line(e, "mt_wgmma_wait1();");
    } else {
        ce_line(e, "mt_wgmma_wait0();");
        pin_accumulator(e, dst, r->nE);
    }
    e->indent--;
    ce_line(e, "}");
}

/* After a pipelined loop: the zero-filled copies of a predicated
 * prefetch drained (Emit.drain_cp_async); after one that kept a wgmma
 * group in flight, its last group retired and the accumulator pinned,
 * before anything reads it. */
void ce_end_pipelined_loop(Emit *e) {
    if (e->drain_cp_async) /* the zero fills past the last tile */
        ce_line(e, "mt_cp_async_wait_group(0);");
    e->drain_cp_async = false;
    if (!e->wgmma_inflight)
        return;
    e->wgmma_inflight = false;
    ce_line(e, "#if defined(__CUDA_ARCH_FEAT_SM90_ALL)");
    ce_line(e, "mt_wgmma_wait0();");
    pin_accumulator(e, e->inflight_acc, e->inflight_n);
    ce_line(e, "#endif");
}

void ce_mma_compute(Emit *e, const DotPlan *p, const Dist *r, const char *stage,
                    const char *dst) {
    if (dot_unit_wgmma(p->unit)) {
        wgmma_compute(e, p, r, stage, dst);
        return;
    }
    int C0 = ce_tile(&r->L, 0), C1 = ce_tile(&r->L, 1);
    int MI = r->E[0] / 2, NJ = r->E[1] / 2, E1 = r->E[1], BK = p->A.columns;
    bool tf32 = p->unit == DOT_MMA_TF32 || p->unit == DOT_MMA_TF32X3;
    bool s8 = p->unit == DOT_MMA_S8;
    ce_line(e, "{");
    e->indent++;
    ce_line(e, "const int mt_wr = %s & ~7, mt_wc = %s & ~7;", ce_coord(e, r, 0, "0"),
            ce_coord(e, r, 1, "0"));
    ce_unroll(e);
    ce_line(e, "for (int mt_kk = 0; mt_kk < %d; mt_kk += %d) {", BK, tf32 ? 8 : s8 ? 32 : 16);
    e->indent++;
    if (s8) {
        load_ldmatrix(e, p, stage, C0, C1, MI, NJ, true);
        mma_all(e, "mt_mma_s8", "mt_ra", "mt_rb", dst, E1, MI, NJ);
    } else if (!tf32) {
        load_ldmatrix(e, p, stage, C0, C1, MI, NJ, false);
        bool f16_acc = val_type(e->f, p->dot->res[0]).dtype == DT_F16;
        mma_all(e, p->unit == DOT_MMA_BF16 ? "mt_mma_bf16" : f16_acc ? "mt_mma_f16_f16acc"
                                                                  : "mt_mma_f16",
                "mt_ra", "mt_rb", dst, E1, MI, NJ);
    } else if (p->unit == DOT_MMA_TF32) {
        load_32bit(e, p, stage, C0, C1, MI, NJ);
        tf32_regs(e, "mt_ra", "mt_fa", 4, MI, false);
        tf32_regs(e, "mt_rb", "mt_fb", 2, NJ, false);
        mma_all(e, "mt_mma_tf32", "mt_ra", "mt_rb", dst, E1, MI, NJ);
    } else { /* small x big, big x small, then big x big: the largest last */
        load_32bit(e, p, stage, C0, C1, MI, NJ);
        tf32_regs(e, "mt_ra", "mt_fa", 4, MI, false);
        tf32_regs(e, "mt_rb", "mt_fb", 2, NJ, false);
        tf32_regs(e, "mt_sa", "mt_fa", 4, MI, true);
        tf32_regs(e, "mt_sb", "mt_fb", 2, NJ, true);
        mma_all(e, "mt_mma_tf32", "mt_sa", "mt_rb", dst, E1, MI, NJ);
        mma_all(e, "mt_mma_tf32", "mt_ra", "mt_sb", dst, E1, MI, NJ);
        mma_all(e, "mt_mma_tf32", "mt_ra", "mt_rb", dst, E1, MI, NJ);
    }
    e->indent--;
    ce_line(e, "}");
    e->indent--;
    ce_line(e, "}");
}
