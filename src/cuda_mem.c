/* cuda_mem.c: the CUDA emitter's vector loads and stores, and loads
 * straight into a dot's shared tiles.
 *
 * Input: a load or store whose layout (ce_dist) and pointer axis facts
 * (axis.c) are known.  Output: CUDA C text in e->out that moves each
 * group of `width` consecutive slots of a thread with one 64- or 128-bit
 * access (or one cp.async into a shared tile), or 0 to let cuda.c emit
 * the slot-at-a-time access.  Invariants: a group is vectorised only when
 * its addresses are consecutive and its start aligned, known at compile
 * time or tested at run time; a group with any mask element unset takes
 * the scalar path, so vectorising never changes which bytes are read or
 * written. */
#include "mt.h"

#include <string.h>
/* ------------------------------------------------------ vector accesses */

/* One 64- or 128-bit access per group of `width` slots: the slots of a
 * group are consecutive along the last (fastest) dim, start at a multiple
 * of width (a thread's spt elements are, and width divides spt), and the
 * pointer's axis info says their addresses are consecutive.  The group's
 * start address is known aligned from the signature hint and the offsets'
 * divisibility, or (runtime_align) tested at run time; a group with any
 * mask element unset, or a failed test, takes the scalar path. */
typedef struct VecPlan {
    int width;
    int elem_bytes;
    bool runtime_align;
    bool packed;          /* 1- or 2-byte elements packed into 32-bit words */
    const char *vtype;    /* float4, int2, longlong2, uint4, unsigned ... */
} VecPlan;

static const char *const vec_comp[4] = {"x", "y", "z", "w"};

/* The CUDA vector type of w elements of d: float4, int2, uint4, double2,
 * longlong2; 1- and 2-byte elements travel packed in unsigned words. */
static const char *vector_type(Emit *e, DType d, int w, bool *packed) {
    int es = dtype_info[d].bytes;
    *packed = es < 4;
    if (es < 4)
        return ce_bits_type(w * es);
    const char *base = d == DT_F32 ? "float" : d == DT_I32 ? "int"
                       : d == DT_U32 ? "uint" : d == DT_F64 ? "double"
                       : d == DT_U64 ? "ulonglong" : "longlong";
    return ce_fmt(e, "%s%d", base, w);
}

static bool vector_plan(Emit *e, ValId p, const Dist *r, bool is_store,
                        VecPlan *vp) {
    Type pt = val_type(e->f, p);
    if (pt.rank == 0 || !pt.is_ptr || pt.dtype == DT_I1)
        return false; /* bool: a byte in memory, a bool in registers */
    int es = dtype_info[pt.dtype].bytes;
    int fd = r->L.rank - 1;
    if (!ce_fast_runs(r))
        return false;
    if (is_store && *ce_owner(e, r, CE_SLOT))
        return false; /* replicated slots: only owners may store */
    const AxisInfo a = e->f->axis[p];
    if (!a.hinted)
        return false;
    int w = 16 / es;
    while (w > 1 && (r->L.spt[fd] % w != 0 || a.contig < w))
        w /= 2;
    if (w < 2 || w * es < 4)
        return false;
    vp->width = w;
    vp->elem_bytes = es;
    vp->runtime_align = a.div < (int64_t)w * es;
    vp->vtype = vector_type(e, (DType)pt.dtype, w, &vp->packed);
    return true;
}

/* The 32-bit word of a packed vector mt_q holding element i. */
static const char *packed_word(Emit *e, const VecPlan *vp, int i) {
    int k = i * vp->elem_bytes / 4;
    return vp->width * vp->elem_bytes == 4 ? "mt_q" : ce_fmt(e, "mt_q.%s", vec_comp[k]);
}

/* Whether mask m is one value over each group of vp (its runs of equal
 * elements along the last dim cover a group, as Triton's vector accesses
 * take one predicate): the group then tests one element, and a group that
 * fails with a known alignment is masked off as a whole. */
static bool mask_uniform(Emit *e, ValId m, const VecPlan *vp) {
    return m && e->f->axis[m].constancy >= vp->width;
}

/* Opens the loop over groups; with a mask or a runtime alignment test it
 * also opens `if (mt_all) {` and returns true. */
static bool vector_open(Emit *e, const VecPlan *vp, int nE, const char *mask,
                        bool uniform, const char *ptr) {
    int w = vp->width;
    ce_unroll(e);
    ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", nE, w);
    e->indent++;
    if (!mask && !vp->runtime_align)
        return false;
    ce_line(e, "bool mt_all = true;");
    if (mask && !uniform) {
        ce_unroll(e);
        ce_line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", CE_SLOT, CE_SLOT, w,
             CE_SLOT);
        ce_line(e, "    mt_all = mt_all && %s;", mask);
    }
    if (vp->runtime_align || (mask && uniform)) {
        ce_line(e, "{");
        ce_line(e, "    const int %s = mt_g;", CE_SLOT);
        if (mask && uniform)
            ce_line(e, "    mt_all = mt_all && %s;", mask);
        if (vp->runtime_align)
            ce_line(e, "    mt_all = mt_all && (((unsigned long long)%s) & %dull) == 0;",
                    ptr, w * vp->elem_bytes - 1);
        ce_line(e, "}");
    }
    ce_line(e, "if (mt_all) {");
    e->indent++;
    return true;
}

/* The pointer of slot CE_SLOT in a group's element-by-element fallback,
 * taken from the group's first pointer `ptr` (of block type pt): the
 * group's pointers are consecutive (vector_plan), so the other slots'
 * pointers have no use left and the C compiler drops them, with their
 * loop-carried updates (tutorial 03's pointer tiles: 64 of the 128
 * registers they took at 128 x 32 f16). */
static const char *group_pointer(Emit *e, const char *ptr, Type pt) {
    ce_line(e, "%s mt_h;", ce_ctype(e, type_elem(pt)));
    ce_line(e, "{");
    ce_line(e, "    const int %s = mt_g;", CE_SLOT);
    ce_line(e, "    mt_h = %s;", ptr);
    ce_line(e, "}");
    return ce_fmt(e, "(mt_h + (%s - mt_g))", CE_SLOT);
}

/* op's scalar text with its pointer from the group's first (the
 * fallback of a vector load); NULL when op has none. */
static const char *group_scalar(Emit *e, Op *op, const char **a, const Type *at,
                                const Dist *r) {
    const char *g[MT_ELEM_OPERANDS] = {group_pointer(e, a[0], at[0]), a[1], a[2], a[3]};
    return ce_op_text(e, op, g, at, r);
}

/* Whether a load's `other` (of the load's result type rt) leaves its
 * masked elements zero bits: absent, or a constant of all-zero bits. */
static bool zero_other(Func *f, ValId other, Type rt) {
    if (!other)
        return true;
    if (!val_is_const(f, other))
        return false;
    return type_is_float(rt) ? dtype_float_bits((DType)rt.dtype, val(f, other)->c.f) == 0
                             : val(f, other)->c.i == 0;
}

/* Vector load of op's result when its pointer allows; 1 when emitted. */
int ce_emit_vector_load(Emit *e, Op *op) {
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    Dist r = ce_dist_of(e, res);
    VecPlan vp;
    if (op->attr[0] == MEM_VOLATILE || !vector_plan(e, op->args[0], &r, false, &vp))
        return 0;
    const char *a[MT_ELEM_OPERANDS];
    Type at[MT_ELEM_OPERANDS];
    ce_operand_texts(e, op, &r, op->loc, a, at);
    const char *scalar = ce_op_text(e, op, a, at, &r);
    if (!scalar)
        return ce_unsupported(e, op);
    const char *ct = ce_ctype(e, type_elem(rt));
    int w = vp.width;
    e->name[res] = ce_fmt(e, "v%d", res);
    ce_line(e, "%s v%d[%d];", ct, res, r.nE);
    bool uniform = mask_uniform(e, op->args[1], &vp);
    const char *fn = ce_mem_intrinsic(op, (DType)rt.dtype);
    /* one mask element per group: the predicated load, no branch */
    bool predicated = a[1] && uniform && !vp.runtime_align && !fn;
    bool test = false;
    if (predicated) {
        ce_unroll(e);
        ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", r.nE, w);
        e->indent++;
    } else
        test = vector_open(e, &vp, r.nE, a[1], uniform, a[0]);
    ce_line(e, "const int %s = mt_g;", CE_SLOT);
    bool b64 = vp.elem_bytes == 8 && w == 2 && !fn; /* Triton's ld.global.v2.b64 */
    if (predicated || b64)
        ce_line(e, "%s mt_q = %s((const %s*)(%s), %s);", vp.vtype,
                b64 ? "mt_ld_v2b64" : "mt_ld_pred", vp.vtype, a[0], predicated ? a[1] : "1");
    else if (fn)
        ce_line(e, "%s mt_q = %s((const %s*)(%s));", vp.vtype, fn, vp.vtype, a[0]);
    else
        ce_line(e, "%s mt_q = *(const %s*)(%s);", vp.vtype, vp.vtype, a[0]);
    for (int i = 0; i < w; i++) {
        if (!vp.packed) {
            ce_line(e, "v%d[mt_g + %d] = mt_q.%s;", res, i, vec_comp[i]);
            continue;
        }
        int shift = i * vp.elem_bytes % 4 * 8;
        const char *word = packed_word(e, &vp, i);
        ce_line(e, "v%d[mt_g + %d] = (%s)(%s%s);", res, i, ct, word,
                shift ? ce_fmt(e, " >> %d", shift) : "");
    }
    if (predicated && !zero_other(f, op->args[2], rt)) {
        ce_line(e, "if (!(%s)) {", a[1]);
        e->indent++;
        ce_unroll(e);
        ce_line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", CE_SLOT, CE_SLOT, w, CE_SLOT);
        ce_line(e, "    v%d[%s] = %s;", res, CE_SLOT, ce_cast(e, a[2], at[2], type_elem(rt)));
        e->indent--;
        ce_line(e, "}");
    }
    if (test) {
        e->indent--;
        ce_line(e, "} else {");
        e->indent++;
        bool off = uniform && !vp.runtime_align; /* the whole group is masked off */
        if (!off && !(scalar = group_scalar(e, op, a, at, &r)))
            return ce_unsupported(e, op);
        ce_unroll(e);
        ce_line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", CE_SLOT, CE_SLOT, w, CE_SLOT);
        if (off)
            ce_line(e, "    v%d[%s] = %s;", res, CE_SLOT,
                    a[2] ? ce_cast(e, a[2], at[2], type_elem(rt)) : ce_zero((DType)rt.dtype));
        else
            ce_line(e, "    v%d[%s] = %s;", res, CE_SLOT, scalar);
        e->indent--;
        ce_line(e, "}");
    }
    e->indent--;
    ce_line(e, "}");
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 1;
}

/* The shared address of element mt_s of dot tile sbuf (A's or B's, in
 * either's view: dot_lhs_h is dot_lhs), from the prologue's mt_sa_lhs or
 * mt_sa_rhs. */
static const char *tile_address(Emit *e, const SharedBuffer *sbuf) {
    e->tile_addresses = true;
    return ce_fmt(e, "%s + (unsigned)mt_s * %du",
                  strncmp(sbuf->name, "dot_lhs", 7) == 0 ? "mt_sa_lhs" : "mt_sa_rhs",
                  dtype_info[sbuf->elem].bytes);
}

/* Whether load `ld` can go straight into the 16-byte groups of the shared
 * tile sbuf (ce_emit_load_to_tile): its elements are the tile's, its
 * `other` is zero (the zero fill), its pointer allows 16-byte vectors,
 * every slot is owned, and the tile's rows keep 16-byte groups aligned. */
bool ce_load_to_tile_ok(Emit *e, const Op *ld, const SharedBuffer *sbuf) {
    Func *f = e->f;
    if (ld->code != OP_LOAD || ld->attr[0] == MEM_VOLATILE || e->ptr_base)
        return false; /* checked mode checks loads as ops (cuda_check.c) */
    Type rt = val_type(f, ld->res[0]);
    if (rt.rank != 2 || rt.dtype != sbuf->elem)
        return false;
    if (!zero_other(f, ld->args[2], rt))
        return false;
    Dist r = ce_dist_of(e, ld->res[0]);
    VecPlan vp;
    return vector_plan(e, ld->args[0], &r, false, &vp) && vp.width * vp.elem_bytes == 16 &&
           !*ce_owner(e, &r, CE_SLOT) && smem_row_stride(sbuf) % vp.width == 0;
}

/* ld's tile is written by cp.async alone (ce_emit_load_to_tile takes no
 * per-element fallback through st.shared): no runtime alignment test, and
 * no mask or one constant over each group. */
bool ce_load_to_tile_async_only(Emit *e, const Op *ld) {
    Dist r = ce_dist_of(e, ld->res[0]);
    VecPlan vp;
    return vector_plan(e, ld->args[0], &r, false, &vp) && !vp.runtime_align &&
           (!ld->args[1] || mask_uniform(e, ld->args[1], &vp));
}

/* `int name[groups]`: where in one stage of sbuf each 16-byte group of
 * ld's elements (ce_load_to_tile_ok) starts.  They depend on the thread
 * alone, so a pipelined loop computes them once before it instead of per
 * tile (a swizzled wgmma tile's address is a dozen integer operations). */
void ce_tile_offsets(Emit *e, Op *ld, const SharedBuffer *sbuf, const char *name) {
    Dist r = ce_dist_of(e, ld->res[0]);
    VecPlan vp;
    if (!vector_plan(e, ld->args[0], &r, false, &vp))
        return;
    StrBuf addr;
    sb_init(&addr);
    smem_element_text(&addr, sbuf, "0", ce_value_coord(e, &r, 0, CE_SLOT),
                      ce_value_coord(e, &r, 1, CE_SLOT));
    ce_line(e, "int %s[%d];", name, r.nE / vp.width);
    ce_unroll(e);
    ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", r.nE, vp.width);
    ce_line(e, "    const int %s = mt_g;", CE_SLOT);
    ce_line(e, "    %s[mt_g / %d] = %s;", name, vp.width, sb_str(&addr));
    ce_line(e, "}");
    sb_free(&addr);
}

/* ld (ce_load_to_tile_ok) into sbuf at `stage`, without registers: per
 * group one 16-byte mt_cp_async16 (cp.async on sm_80+, a copy on the
 * host), which the caller completes with mt_cp_async_wait before its
 * barrier; a group the mask cuts (or a run-time alignment test refutes)
 * is written element by element, masked elements as zero.  A group's
 * elements are consecutive in the tile too, so each is addressed from
 * the group's start: offsets[mt_g / width] (ce_tile_offsets) when given. */
int ce_emit_load_to_tile(Emit *e, Op *ld, const SharedBuffer *sbuf, const char *stage,
                         const char *offsets) {
    ValId res = ld->res[0];
    Dist r = ce_dist_of(e, res);
    VecPlan vp;
    if (!vector_plan(e, ld->args[0], &r, false, &vp))
        return ce_unsupported(e, ld);
    const char *a[MT_ELEM_OPERANDS];
    Type at[MT_ELEM_OPERANDS];
    ce_operand_texts(e, ld, &r, ld->loc, a, at);
    StrBuf addr;
    sb_init(&addr);
    if (offsets) {
        smem_stage_text(&addr, sbuf, stage);
        sb_printf(&addr, "%s[mt_g / %d]", offsets, vp.width);
    } else
        smem_element_text(&addr, sbuf, stage, ce_value_coord(e, &r, 0, CE_SLOT),
                          ce_value_coord(e, &r, 1, CE_SLOT));
    bool uniform = mask_uniform(e, ld->args[1], &vp);
    /* one mask element per group, and other is zero (load_to_tile_ok):
     * cp.async's zero fill (src-size 0 reads nothing), no branch, as
     * Triton issues it */
    bool predicated = a[1] && uniform && !vp.runtime_align;
    bool test = predicated ? vector_open(e, &vp, r.nE, NULL, false, a[0])
                           : vector_open(e, &vp, r.nE, a[1], uniform, a[0]);
    ce_line(e, "const int %s = mt_g;", CE_SLOT);
    ce_line(e, "const int mt_s = %s;", sb_str(&addr));
    const char *full = predicated ? a[1] : "1";
    /* a guarded prefetch takes only loads with no element-wise fallback
     * (ce_load_to_tile_async_only), so the guard is the copy's alone */
    if (e->tile_guard)
        full = predicated ? ce_fmt(e, "%s && %s", e->tile_guard, a[1]) : e->tile_guard;
    ce_line(e, "mt_cp_async16(&%s[mt_s], %s, %s, %s);", sbuf->name, tile_address(e, sbuf), a[0],
            full);
    if (test) {
        e->indent--;
        ce_line(e, "} else {");
        e->indent++;
        ce_line(e, "const int mt_s = %s;", sb_str(&addr));
        const char *scalar = group_scalar(e, ld, a, at, &r);
        if (!scalar)
            return ce_unsupported(e, ld);
        ce_unroll(e);
        ce_line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", CE_SLOT, CE_SLOT, vp.width,
                CE_SLOT);
        ce_line(e, "    %s[mt_s + (%s - mt_g)] = %s;", sbuf->name, CE_SLOT, scalar);
        e->indent--;
        ce_line(e, "}");
    }
    e->indent--;
    ce_line(e, "}");
    sb_free(&addr);
    e->dist[res] = r;
    e->has_dist[res] = true;
    return HAS_ERROR(e->c) ? -1 : 0;
}

/* "*p = v", or the store intrinsic of op's memory hints. */
const char *ce_store_text(Emit *e, const Op *op, const char *p, const char *v) {
    const char *fn = ce_mem_intrinsic(op, (DType)val_type(e->f, op->args[0]).dtype);
    return fn ? ce_fmt(e, "%s(%s, %s)", fn, p, v) : ce_fmt(e, "*%s = %s", p, v);
}

/* Vector store of op through p (distributed as r) of value text vx under
 * mask text mx ("" none); 1 when emitted. */
int ce_emit_vector_store(Emit *e, const Op *op, ValId p, const Dist *r, const char *vx,
                             const char *mx, DType elem) {
    VecPlan vp;
    if (!vector_plan(e, p, r, true, &vp))
        return 0;
    int w = vp.width;
    const char *ptr = e->name[p];
    const char *pa = ce_fmt(e, "%s[%s]", ptr, CE_SLOT);
    bool uniform = *mx && mask_uniform(e, op->args[2], &vp);
    /* a mask constant over each group, a known alignment, no hint: one
     * predicated store a group (mt_st_pred), no branch */
    bool predicated = uniform && !vp.runtime_align && !ce_mem_intrinsic(op, elem) &&
                      vp.elem_bytes != 8;
    bool test = predicated ? vector_open(e, &vp, r->nE, NULL, false, pa)
                           : vector_open(e, &vp, r->nE, *mx ? mx : NULL, uniform, pa);
    ce_line(e, "%s mt_q[%d];", dtype_mtype(elem), w);
    ce_unroll(e);
    ce_line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", CE_SLOT, CE_SLOT, w, CE_SLOT);
    ce_line(e, "    mt_q[%s - mt_g] = %s;", CE_SLOT, vx);
    StrBuf mk;
    sb_init(&mk);
    if (vp.packed) {
        sb_puts(&mk, ce_pack_text(e, w, vp.elem_bytes, "mt_q", NULL));
    } else {
        sb_printf(&mk, "make_%s(", vp.vtype);
        for (int i = 0; i < w; i++)
            sb_printf(&mk, "%smt_q[%d]", i ? ", " : "", i);
        sb_putc(&mk, ')');
    }
    ce_line(e, "{");
    ce_line(e, "    const int %s = mt_g;", CE_SLOT);
    const char *vptr = ce_fmt(e, "(%s*)(%s)", vp.vtype, pa);
    if (predicated)
        ce_line(e, "    mt_st_pred(%s, %s, %s);", vptr, sb_str(&mk), mx);
    else if (vp.elem_bytes == 8 && !ce_mem_intrinsic(op, elem)) /* st.global.v2.b64 */
        ce_line(e, "    mt_st_v2b64(%s, %s);", vptr, sb_str(&mk));
    else
        ce_line(e, "    %s;", ce_store_text(e, op, vptr, sb_str(&mk)));
    ce_line(e, "}");
    sb_free(&mk);
    if (test && uniform && !vp.runtime_align) { /* else: masked off */
        e->indent--;
        ce_line(e, "}");
    } else if (test) {
        e->indent--;
        ce_line(e, "} else {");
        e->indent++;
        pa = group_pointer(e, pa, val_type(e->f, p));
        ce_unroll(e);
        ce_line(e, "for (int %s = mt_g; %s < mt_g + %d; ++%s)", CE_SLOT, CE_SLOT, w, CE_SLOT);
        if (*mx)
            ce_line(e, "    if (%s) %s;", mx, ce_store_text(e, op, pa, vx));
        else
            ce_line(e, "    %s;", ce_store_text(e, op, pa, vx));
        e->indent--;
        ce_line(e, "}");
    }
    e->indent--;
    ce_line(e, "}");
    return 1;
}
