/* tldotscaled.c: tl.dot_scaled, the microscaled matrix product, as the
 * ops of an ordinary tl.dot.
 *
 * Input: a call of tl.dot_scaled bound to its row of builtins.c's table:
 * lhs [M, K] and rhs [K, N] with their formats (e2m1: two 4-bit values a
 * uint8, the first in the low bits, packed along K or, with k_pack=False,
 * along M or N; e4m3 and e5m2: fp8 or their uint8 bits; bf16 and fp16:
 * those or their uint16 bits), e8m0 scales (uint8 [M, K/32] and [N, K/32],
 * one per 32 elements along K, or None), acc, fast_math, out_dtype.
 * Output: the ops Triton's DecomposeScaledBlocked pass rewrites the op
 * into on GPUs without native microscaling (the H200 among them): each
 * operand upcast exactly to the compute type (fp16 if either format is
 * fp16, else bf16; a bf16 operand beside an fp16 one is rounded to fp16),
 * multiplied in that type by its scale broadcast along K (2^(s - 127);
 * s = 0 gives 0 and s = 0xFF infinity, as Triton's bit shift makes them;
 * for fp16 through f32, so scales outside fp16's range give 0 or inf),
 * NaN where s == 0xFF unless fast_math, then tl.dot of the two with an
 * f32 accumulator.  These are all existing ops (integer ops unpack e2m1,
 * the fp8 casts convert e4m3/e5m2, shape ops broadcast the scales), so
 * every backend lowers tl.dot_scaled as it lowers those, and the host and
 * the GPU multiply the same bf16/fp16 operands.
 *
 * Invariants: every check Triton's language makes comes first, in its
 * order and with its message (the first error wins); only then what
 * mytriton cannot do yet (3-D batched operands, fp8 scales) is refused,
 * with a located error. */
#include "mt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* The row's parameters, in order. */
enum { LHS, LHS_SCALE, LHS_FORMAT, RHS, RHS_SCALE, RHS_FORMAT, ACC, FAST_MATH, LHS_K_PACK,
       RHS_K_PACK, OUT_DTYPE };

/* The formats Triton accepts (rows of formats[]): the element type each
 * names, and the integer type whose bits it may arrive as (e2m1 arrives
 * packed only). */
enum { F_E2M1, F_E4M3, F_E5M2, F_BF16, F_FP16 };
static const struct {
    const char *name;
    DType dtype, bits;
} formats[] = {
    [F_E2M1] = {"e2m1", DT_U8, DT_U8},   [F_E4M3] = {"e4m3", DT_F8E4, DT_U8},
    [F_E5M2] = {"e5m2", DT_F8E5, DT_U8}, [F_BF16] = {"bf16", DT_BF16, DT_U16},
    [F_FP16] = {"fp16", DT_F16, DT_U16},
};

/* Triton's ScaleDotElemType names a format must be one of (upper-cased
 * as its _str_to_fp_type looks it up); E2M3 and E3M2 have no lowering. */
static const char *const known_formats[] = {"E4M3", "E5M2", "E2M3", "E3M2",
                                            "E2M1", "BF16", "FP16"};

/* One operand: where it is in the call, and what the checks found. */
typedef struct Operand {
    const char *side;   /* "lhs", "rhs": messages */
    int kdim;           /* the axis of K: 1 for lhs, 0 for rhs */
    ValId v;
    Loc loc;
    int fmt;            /* row of formats[] */
    bool k_pack;
    bool has_scale;
    ValId scale;
} Operand;

/* A dtype as Triton's str() writes it: fp32, bf16, fp8e4nv; int16, uint8. */
static const char *triton_dtype_name(DType d) {
    return dtype_is_float(d) ? dtype_info[d].short_name : dtype_info[d].tl_name;
}

/* The format string at parameter i as Triton's _str_to_fp_type reads
 * it: a ScaleDotElemType name in any case. */
static int known_format(Elab *E, Call *c, int i, const char *side) {
    if (c->a[i].kind != CV_STR)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "%s_format must be a compile-time string, got %s", side,
                        cv_kind_name(E, c->a[i]));
    for (int k = 0; k < COUNT(known_formats); k++)
        if (!strcasecmp(c->a[i].s, known_formats[k]))
            return 0;
    return elab_err(E, c->locs[i], MT_ERR_TYPE, "Invalid float format: %s.", c->a[i].s);
}

/* A known format's row of formats[], the ones with a lowering. */
static int lowered_format(Elab *E, Call *c, int i, const char *side, int *fmt) {
    for (int k = 0; k < COUNT(formats); k++)
        if (!strcmp(c->a[i].s, formats[k].name)) {
            *fmt = k;
            return 0;
        }
    return elab_err(E, c->locs[i], MT_ERR_UNSUPPORTED, "NYI: %s_format %s", side, c->a[i].s);
}

/* x's bits as d (same width), and x converted to d: single ops on
 * tensors, which the checks below need too. */
static int bitcast(Elab *E, CV x, DType d, Loc loc, CV *out) {
    Type t = cv_type(E, x);
    ValId r;
    if (elab_emit_typed(E, OP_BITCAST, loc, &x.v, 1, 0, 0, type_with_elem(t, type_scalar(d)),
                        &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

static int cast(Elab *E, CV x, DType d, Loc loc, CV *out) {
    ValId r;
    if (elab_cast(E, x.v, d, loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* Triton's _bitcast_to_fp_type: e2m1 stays packed uint8; the others are
 * their own type, or the unsigned integer of their width bitcast to it. */
static int bitcast_to_format(Elab *E, Operand *o) {
    Type t = val_type(E->f, o->v);
    DType want = formats[o->fmt].dtype, bits = formats[o->fmt].bits;
    const char *got = t.is_ptr ? "a pointer" : triton_dtype_name((DType)t.dtype);
    if (o->fmt == F_E2M1) {
        if (t.is_ptr || t.dtype != DT_U8)
            return elab_err(E, o->loc, MT_ERR_TYPE,
                            "e2m1 format must be packed as uint8. Got %s", got);
        return 0;
    }
    if (!t.is_ptr && t.dtype == want)
        return 0;
    if (t.is_ptr || t.dtype != bits)
        return elab_err(E, o->loc, MT_ERR_TYPE, "Unexpected dtype for %s. Got %s",
                        formats[o->fmt].name, got);
    CV r;
    if (bitcast(E, cv_tensor(o->v), want, o->loc, &r) < 0)
        return -1;
    o->v = r.v;
    return 0;
}

/* A scale argument: None, or a uint8 block of shape [rows, K / 32]. */
static int check_scale(Elab *E, Call *c, int i, Operand *o, int rows, int k) {
    CV s = c->a[i];
    o->has_scale = s.kind != CV_NONE;
    if (!o->has_scale)
        return 0;
    Type t = s.kind == CV_TENSOR ? cv_type(E, s) : type_scalar(DT_VOID);
    if (s.kind != CV_TENSOR || t.is_ptr || t.rank == 0)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "%s_scale must be a block of e8m0 scales (uint8) or None, got %s",
                        o->side, cv_kind_name(E, s));
    int factor = t.dtype == DT_F8E4 ? 16 : 32;
    if (t.rank != 2 || t.shape[0] != rows || t.shape[1] != k / factor)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "%s_scale must be a tensor of shape [%d, %d]. Got %s", o->side, rows,
                        k / factor, elab_shape_text(E, t));
    if (t.dtype == DT_F8E4)
        return elab_err(E, c->locs[i], MT_ERR_UNSUPPORTED,
                        "tl.dot_scaled() with float8e4nv scales (one per 16 elements) is not "
                        "supported; scales must be e8m0 (uint8)");
    if (t.dtype != DT_U8)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "%s_scale must be e8m0 scales as uint8, got %s", o->side,
                        triton_dtype_name((DType)t.dtype));
    o->scale = s.v;
    return 0;
}

static int need_bool(Elab *E, Call *c, int i, bool dflt, bool *out) {
    *out = dflt;
    if (!c->have[i] || c->a[i].kind == CV_NONE)
        return 0;
    if (!cv_is_intlike(c->a[i]))
        return elab_err(E, c->locs[i], MT_ERR_TYPE, "%s must be a compile-time bool",
                        c->b->params[i].name);
    *out = c->a[i].i != 0;
    return 0;
}

/* ------------------------------------------------------------ the ops */

static int where(Elab *E, CV cond, CV x, CV y, Loc loc, CV *out) {
    CV a[3] = {cond, x, y};
    return tl_call(E, "where", a, 3, NULL, cv_none(), loc, out);
}

static int reshape2(Elab *E, CV x, int rows, int cols, Loc loc, CV *out) {
    CV a[3] = {x, cv_int(rows), cv_int(cols)};
    return tl_call(E, "reshape", a, 3, NULL, cv_none(), loc, out);
}

/* Two blocks of one shape, b's elements after a's along axis (a's
 * element i goes to 2i, b's to 2i + 1): e2m1's two halves of a byte. */
static int interleave_along(Elab *E, CV a, CV b, int axis, Loc loc, CV *out) {
    CV ab[2] = {a, b}, j;
    if (axis == 1)
        return tl_call(E, "interleave", ab, 2, NULL, cv_none(), loc, out);
    Type t = cv_type(E, a);
    CV perm[4] = {cv_none(), cv_int(0), cv_int(2), cv_int(1)};
    if (tl_call(E, "join", ab, 2, NULL, cv_none(), loc, &j) < 0)
        return -1;
    perm[0] = j; /* [R, C, 2] -> [R, 2, C] -> [2R, C] */
    if (tl_call(E, "permute", perm, 4, NULL, cv_none(), loc, &j) < 0)
        return -1;
    return reshape2(E, j, 2 * t.shape[0], t.shape[1], loc, out);
}

/* e2m1 values (4-bit codes in a uint8 block) as bf16 or fp16, exactly,
 * by integer ops as Triton's Fp4ToFp: the 2-bit exponent (bias 1) and
 * 1-bit mantissa moved into place and rebiased, then the sign.  Codes 0
 * and 1 (zero and the one subnormal, 0.5) are their code times 0.5's
 * bits. */
static int fp4_to(Elab *E, CV code, DType d, Loc loc, CV *out) {
    int mbits = d == DT_BF16 ? 7 : 10;
    int64_t half = (int64_t)(d == DT_BF16 ? 126 : 14) << mbits; /* 0.5: exponent bias - 1 */
    CV c, em, normal, small, sub, sign, r;
    if (cast(E, code, DT_U16, loc, &c) < 0 || cv_binop(E, OT_AMP, c, cv_int(7), loc, &em) < 0 ||
        cv_binop(E, OT_SHL, em, cv_int(mbits - 1), loc, &normal) < 0 ||
        cv_binop(E, OT_PLUS, normal, cv_int(half), loc, &normal) < 0 ||
        cv_binop(E, OT_STAR, em, cv_int(half), loc, &sub) < 0 ||
        cv_compare(E, OT_LT, em, cv_tensor(const_int(E->f, DT_U16, 2)), loc, &small) < 0 ||
        where(E, small, sub, normal, loc, &r) < 0 ||
        cv_binop(E, OT_AMP, c, cv_int(8), loc, &sign) < 0 ||
        cv_binop(E, OT_SHL, sign, cv_int(12), loc, &sign) < 0 ||
        cv_binop(E, OT_PIPE, r, sign, loc, &r) < 0)
        return -1;
    return bitcast(E, r, d, loc, out);
}

/* The operand in the compute type d, unscaled: e2m1 unpacked along its
 * packing axis, the others converted (exact but for bf16 to fp16). */
static int upcast(Elab *E, Operand *o, DType d, Loc loc, CV *out) {
    CV x = cv_tensor(o->v);
    if (o->fmt != F_E2M1)
        return cast(E, x, d, loc, out);
    CV lo, hi, codes;
    int axis = o->k_pack ? o->kdim : 1 - o->kdim;
    if (cv_binop(E, OT_AMP, x, cv_int(15), loc, &lo) < 0 ||
        cv_binop(E, OT_SHR, x, cv_int(4), loc, &hi) < 0 ||
        interleave_along(E, lo, hi, axis, loc, &codes) < 0)
        return -1;
    return fp4_to(E, codes, d, loc, out);
}

/* The scales [rows, K/32] repeated 32 times along K, in the operand's
 * orientation ([rows, K] for lhs, [K, rows] for rhs), as rank-2 shape
 * ops: [rows * K/32, 1] broadcast to 32 columns, read back as [rows, K]. */
static int broadcast_scale(Elab *E, Operand *o, Loc loc, CV *out) {
    Type t = val_type(E->f, o->scale);
    int rows = t.shape[0], groups = t.shape[1];
    CV s = cv_tensor(o->scale), b;
    CV to[3] = {cv_none(), cv_int((int64_t)rows * groups), cv_int(32)};
    if (reshape2(E, s, rows * groups, 1, loc, &b) < 0)
        return -1;
    to[0] = b;
    if (tl_call(E, "broadcast_to", to, 3, NULL, cv_none(), loc, &b) < 0 ||
        reshape2(E, b, rows, groups * 32, loc, &b) < 0)
        return -1;
    if (o->kdim == 1) {
        *out = b;
        return 0;
    }
    return tl_call(E, "trans", &b, 1, NULL, cv_none(), loc, out);
}

/* e8m0 scale codes as the compute type d, as Triton's scaleTo16 makes
 * them: the code shifted into a float's exponent (bf16 directly; fp16
 * through f32, rounded), so 0 is 0 and 0xFF infinity. */
static int scale_value(Elab *E, CV s, DType d, Loc loc, CV *out) {
    CV w;
    if (d == DT_BF16)
        return cast(E, s, DT_U16, loc, &w) < 0 ||
                       cv_binop(E, OT_SHL, w, cv_int(7), loc, &w) < 0
                   ? -1
                   : bitcast(E, w, DT_BF16, loc, out);
    if (cast(E, s, DT_U32, loc, &w) < 0 || cv_binop(E, OT_SHL, w, cv_int(23), loc, &w) < 0 ||
        bitcast(E, w, DT_F32, loc, &w) < 0)
        return -1;
    return cast(E, w, d, loc, out);
}

/* The operand ready for the dot: upcast, times its scale, NaN where the
 * scale is 0xFF (Triton's maskNan) unless fast_math. */
static int scaled_operand(Elab *E, Operand *o, DType d, bool fast_math, Loc loc, CV *out) {
    CV v, s, f, nan_here;
    if (upcast(E, o, d, loc, &v) < 0)
        return -1;
    if (!o->has_scale) {
        *out = v;
        return 0;
    }
    if (broadcast_scale(E, o, loc, &s) < 0 || scale_value(E, s, d, loc, &f) < 0 ||
        cv_binop(E, OT_STAR, v, f, loc, &v) < 0)
        return -1;
    if (fast_math) {
        *out = v;
        return 0;
    }
    /* in the scale's u8 (a plain 0xFF would compare in i32, Triton's rule
     * for a number in a comparison) */
    if (cv_compare(E, OT_EQ, s, cv_tensor(const_int(E->f, DT_U8, 0xFF)), loc, &nan_here) < 0)
        return -1;
    return where(E, nan_here, cv_float(NAN), v, loc, out);
}

/* ------------------------------------------------------------- handler */

/* tl.dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format,
 * acc=None, fast_math=False, lhs_k_pack=True, rhs_k_pack=True,
 * out_dtype=tl.float32): Triton's checks (core.py, semantic.py) in
 * order, then the decomposition. */
int h_dot_scaled(Elab *E, Call *c, CV *out) {
    CV od = c->a[OUT_DTYPE];
    if (c->have[OUT_DTYPE] && od.kind != CV_NONE && !(od.kind == CV_DTYPE && !od.i &&
                                                      od.sub == DT_F32))
        return elab_err(E, c->locs[OUT_DTYPE], MT_ERR_TYPE,
                        "Only float32 is supported for out_dtype at the moment");
    Operand l = {.side = "lhs", .kdim = 1, .loc = c->locs[LHS]};
    Operand r = {.side = "rhs", .kdim = 0, .loc = c->locs[RHS]};
    Type tlhs = c->a[LHS].kind == CV_TENSOR ? cv_type(E, c->a[LHS]) : type_scalar(DT_VOID);
    Type trhs = c->a[RHS].kind == CV_TENSOR ? cv_type(E, c->a[RHS]) : type_scalar(DT_VOID);
    if (tlhs.rank == 0 || trhs.rank == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE, "tl.dot_scaled() expects two blocks, got %s and %s",
                        cv_kind_name(E, c->a[LHS]), cv_kind_name(E, c->a[RHS]));
    if (!(tlhs.rank == trhs.rank && (tlhs.rank == 2 || tlhs.rank == 3)))
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "Both inputs must be either 2D or 3D; (lhs: %s vs rhs: %s)",
                        elab_shape_text(E, tlhs), elab_shape_text(E, trhs));
    l.v = c->a[LHS].v;
    r.v = c->a[RHS].v;
    if (known_format(E, c, LHS_FORMAT, "lhs") < 0 || known_format(E, c, RHS_FORMAT, "rhs") < 0 ||
        lowered_format(E, c, LHS_FORMAT, "lhs", &l.fmt) < 0 ||
        lowered_format(E, c, RHS_FORMAT, "rhs", &r.fmt) < 0 || bitcast_to_format(E, &l) < 0 ||
        bitcast_to_format(E, &r) < 0)
        return -1;
    bool fast_math;
    if (need_bool(E, c, FAST_MATH, false, &fast_math) < 0 ||
        need_bool(E, c, LHS_K_PACK, true, &l.k_pack) < 0 ||
        need_bool(E, c, RHS_K_PACK, true, &r.k_pack) < 0)
        return -1;
    bool lfp4 = l.fmt == F_E2M1, rfp4 = r.fmt == F_E2M1;
    if (!l.k_pack && !lfp4)
        return elab_err(E, c->locs[LHS_K_PACK], MT_ERR_TYPE,
                        "only mxfp4 inputs can be packed along a dimension different than K");
    if (!r.k_pack && !rfp4)
        return elab_err(E, c->locs[RHS_K_PACK], MT_ERR_TYPE,
                        "only mxfp4 inputs can be packed along a dimension different than K");
    int rk = tlhs.rank;
    int m = tlhs.shape[rk - 2], kl = tlhs.shape[rk - 1], kr = trhs.shape[rk - 2], n = trhs.shape[rk - 1];
    int ka = lfp4 && l.k_pack ? 2 * kl : kl, kb = rfp4 && r.k_pack ? 2 * kr : kr;
    if (ka != kb)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "Reduction dimension should pack the same number of elements; "
                        "(lhs: %s vs rhs: %s)", elab_shape_text(E, tlhs), elab_shape_text(E, trhs));
    int k = ka;
    if (lfp4 && !l.k_pack)
        m *= 2;
    if (rfp4 && !r.k_pack)
        n *= 2;
    CV acc = c->a[ACC];
    if (acc.kind != CV_NONE) {
        Type ta = acc.kind == CV_TENSOR ? cv_type(E, acc) : type_scalar(DT_VOID);
        if (acc.kind != CV_TENSOR || ta.is_ptr || ta.dtype != DT_F32 || ta.rank != rk ||
            ta.shape[rk - 2] != m || ta.shape[rk - 1] != n ||
            (rk == 3 && ta.shape[0] != tlhs.shape[0]))
            return elab_err(E, c->locs[ACC], MT_ERR_TYPE,
                            "acc must be a float32 block of the result's shape [%d, %d], got %s",
                            m, n, cv_kind_name(E, acc));
    }
    if (check_scale(E, c, LHS_SCALE, &l, m, k) < 0 || check_scale(E, c, RHS_SCALE, &r, n, k) < 0)
        return -1;
    if (rk == 3)
        return elab_err(E, c->loc, MT_ERR_UNSUPPORTED,
                        "tl.dot_scaled() of 3-D (batched) blocks is not supported yet");
    DType d = l.fmt == F_FP16 || r.fmt == F_FP16 ? DT_F16 : DT_BF16;
    CV a[3];
    if (scaled_operand(E, &l, d, fast_math, c->loc, &a[0]) < 0 ||
        scaled_operand(E, &r, d, fast_math, c->loc, &a[1]) < 0)
        return -1;
    a[2] = acc;
    return tl_call(E, "dot", a, 3, NULL, cv_none(), c->loc, out);
}
