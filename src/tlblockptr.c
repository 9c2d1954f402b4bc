/* tlblockptr.c: block pointers (tl.make_block_ptr, tl.advance, tl.load and
 * tl.store through them) and the memory hints of tl.load / tl.store.
 *
 * Input: a Call bound to its row of builtins.c's table (tl.load, tl.store,
 * tl.make_block_ptr, tl.advance, and the compiler hints tl.multiple_of,
 * tl.max_contiguous, tl.max_constancy); its arguments are unchecked
 * (P_ANY) where a block pointer may appear, since a block pointer is no
 * tensor.
 * Output: a block pointer is a compile-time value (CV_BLOCKPTR) of runtime
 * scalars, never an IR value: a load or store through it is lowered here,
 * at elaboration time, to the pointer arithmetic Triton's
 * RewriteTensorPointer pass makes (base + sum over dims of
 * (offset_d + arange(0, block_d)) * stride_d, in i64), the boundary masks
 * (0 <= offset_d + i < shape_d on the checked dims) and the padding value
 * as the masked load's `other`.  The strided block access (BlockRef) is
 * shared with tensor descriptors (tldesc.c); a block of rank 3 or 4 is
 * accessed in its [rows, last dim] view and reshaped to and from the
 * block, so that it lives between shape ops only, as blocks of those ranks
 * do.  Loads and stores through tensors of
 * pointers go on to tlops.c's handlers after the checks Triton makes on
 * their block-pointer-only arguments.  Memory hints (cache modifier,
 * eviction policy, volatile) become the load and store ops' AS_MEMHINT
 * attributes; compiler hints become ops whose promise axis.c reads.
 *
 * Invariants: a CV_BLOCKPTR's items are, for rank r, [base, shape * r,
 * strides * r, offsets * r, block_shape * r, order * r] (n = 1 + 5r): the
 * base a scalar pointer tensor; shapes and strides compile-time ints or
 * scalar i64 tensors; offsets compile-time ints in i32 range or scalar
 * i32 tensors; block_shape and order compile-time ints.  Code that carries
 * values through runtime loops and ifs may rebuild the items one by one
 * (compile-time ints may come back as constant tensors), so the readers
 * here accept a constant tensor wherever they accept an int. */
#include "mt.h"

#include <math.h>
#include <string.h>

/* ------------------------------------------------------------- the parts */

enum { BP_SHAPE = 1, BP_STRIDE, BP_OFFSET, BP_BLOCK, BP_ORDER };

static int bp_rank(CV bp) { return (bp.n - 1) / 5; }

/* Item `part` (BP_*) of dim d. */
static CV *bp_item(CV bp, int part, int d) {
    return &bp.items[1 + (part - 1) * bp_rank(bp) + d];
}

/* A compile-time int part, also when it came back as a constant tensor. */
static int64_t bp_int(Elab *E, CV v) {
    if (v.kind == CV_TENSOR && val_is_const(E->f, v.v))
        return val(E->f, v.v)->c.i;
    return v.i;
}

static CV bp_new(Elab *E, int rank) {
    CV bp = cv_tuple(E, 1 + 5 * rank);
    bp.kind = CV_BLOCKPTR;
    return bp;
}

/* The items of a list-like argument: a tuple or list, or one value. */
static int list_like(Elab *E, CV v, Loc loc, const char *what, const CV **items, int *n) {
    if (v.kind == CV_TUPLE) {
        *items = v.items;
        *n = v.n;
    } else {
        *items = NULL;
        *n = 1;
    }
    if (*n > MT_MAX_RANK)
        return elab_err(E, loc, MT_ERR_TYPE, "%s has %d dims; block pointers have at most %d",
                        what, *n, MT_MAX_RANK);
    return 0;
}

/* One shape, stride or offset as Triton's _convert_elem_to_ir_value makes
 * it: shapes and strides i64, offsets i32 (a compile-time int must fit
 * it; a runtime one must not be i64). */
static int bp_scalar(Elab *E, CV v, Loc loc, bool i64, CV *out) {
    if (v.kind == CV_INT) {
        if (!i64 && !fits_i32(v.i))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "block pointers only support 32-bit offsets and block shapes, "
                            "got %lld", (long long)v.i);
        *out = v;
        return 0;
    }
    if (v.kind != CV_TENSOR)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "shape, strides and offsets must be integers or integer scalars, got %s",
                        cv_kind_name(E, v));
    Type t = cv_type(E, v);
    if (t.rank && type_numel(t) != 1)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "expected a scalar in shape/strides/offsets, got %s",
                        elab_type_text(E, t));
    if (t.rank || t.is_ptr || !dtype_is_int((DType)t.dtype))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "expected an integer scalar in shape/strides/offsets, got %s",
                        elab_type_text(E, t));
    if (!i64 && t.dtype == DT_I64)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "block pointers only support 32-bit offsets; add a .to(tl.int32) "
                        "or use regular indexing for 64-bit offsets");
    ValId x;
    if (elab_cast(E, v.v, i64 ? DT_I64 : DT_I32, loc, &x) < 0)
        return -1;
    *out = cv_tensor(x);
    return 0;
}

/* A list of shapes, strides or offsets into parts[0 .. *n). */
int block_scalars(Elab *E, CV v, Loc loc, bool i64, const char *what, CV *parts, int *n) {
    const CV *items;
    if (list_like(E, v, loc, what, &items, n) < 0)
        return -1;
    for (int i = 0; i < *n; i++)
        if (bp_scalar(E, items ? items[i] : v, loc, i64, &parts[i]) < 0)
            return -1;
    return 0;
}

/* block_shape and order: compile-time ints. */
static int bp_ints(Elab *E, CV v, Loc loc, const char *what, int64_t *vals, int *n) {
    const CV *items;
    if (list_like(E, v, loc, what, &items, n) < 0)
        return -1;
    for (int i = 0; i < *n; i++) {
        CV x = items ? items[i] : v;
        if (x.kind != CV_INT)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "%s must be compile-time integers, got %s", what,
                            cv_kind_name(E, x));
        vals[i] = x.i;
    }
    return 0;
}

/* ------------------------------------------------ make_block_ptr, advance */

/* tl.make_block_ptr(base, shape, strides, offsets, block_shape, order),
 * checked in Triton's order. */
int h_make_block_ptr(Elab *E, Call *c, CV *out) {
    CV shape[MT_MAX_RANK], strides[MT_MAX_RANK], offs[MT_MAX_RANK];
    int64_t block[MT_MAX_RANK], order[MT_MAX_RANK];
    int ns, nt, no, nb, nr;
    if (block_scalars(E, c->a[1], c->locs[1], true, "shape", shape, &ns) < 0 ||
        block_scalars(E, c->a[2], c->locs[2], true, "strides", strides, &nt) < 0 ||
        block_scalars(E, c->a[3], c->locs[3], false, "offsets", offs, &no) < 0)
        return -1;
    CV base = c->a[0];
    if (base.kind != CV_TENSOR || !cv_type(E, base).is_ptr || cv_type(E, base).rank)
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "tl.make_block_ptr() base must be a scalar pointer (not a block "
                        "pointer or a block of pointers), got %s", cv_kind_name(E, base));
    if (bp_ints(E, c->a[4], c->locs[4], "block_shape", block, &nb) < 0)
        return -1;
    int64_t numel = 1;
    for (int i = 0; i < nb; i++) {
        if (block[i] <= 0 || block[i] > MAX_BLOCK_NUMEL || (numel *= block[i]) > MAX_BLOCK_NUMEL)
            return elab_err(E, c->locs[4], MT_ERR_TYPE,
                            "block_shape must be positive integers of at most %d elements in "
                            "all, got %lld", MAX_BLOCK_NUMEL, (long long)block[i]);
    }
    if (bp_ints(E, c->a[5], c->locs[5], "order", order, &nr) < 0)
        return -1;
    bool seen[MT_MAX_RANK] = {false};
    for (int i = 0; i < nr; i++) {
        if (order[i] < 0 || order[i] >= nr || seen[order[i]])
            return elab_err(E, c->locs[5], MT_ERR_TYPE,
                            "order must be a permutation of (0, 1, ..., %d)", nr - 1);
        seen[order[i]] = true;
    }
    if (ns != nb || nt != nb || no != nb || nr != nb)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "shape, strides, offsets, block_shape and order must have the same "
                        "length, got %d, %d, %d, %d and %d", ns, nt, no, nb, nr);
    CV bp = bp_new(E, nb);
    bp.items[0] = base;
    for (int d = 0; d < nb; d++) {
        *bp_item(bp, BP_SHAPE, d) = shape[d];
        *bp_item(bp, BP_STRIDE, d) = strides[d];
        *bp_item(bp, BP_OFFSET, d) = offs[d];
        *bp_item(bp, BP_BLOCK, d) = cv_int(block[d]);
        *bp_item(bp, BP_ORDER, d) = cv_int(order[d]);
    }
    *out = bp;
    return 0;
}

static int need_blockptr(Elab *E, CV v, Loc loc, const char *fn) {
    if (v.kind != CV_BLOCKPTR)
        return elab_err(E, loc, MT_ERR_TYPE, "%s() expects a block pointer, got %s", fn,
                        cv_kind_name(E, v));
    return 0;
}

/* tl.advance(base, offsets): the offsets move in i32, as Triton adds
 * them (wrapping); compile-time offsets stay compile-time. */
int h_advance(Elab *E, Call *c, CV *out) {
    CV bp = c->a[0];
    CV delta[MT_MAX_RANK];
    int n;
    if (need_blockptr(E, bp, c->locs[0], c->b->display) < 0 ||
        block_scalars(E, c->a[1], c->locs[1], false, "offsets", delta, &n) < 0)
        return -1;
    int r = bp_rank(bp);
    if (n != r)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "tl.advance() of a rank-%d block pointer needs %d offsets, got %d", r,
                        r, n);
    CV nb = bp_new(E, r);
    memcpy(nb.items, bp.items, sizeof(CV) * (size_t)bp.n);
    for (int d = 0; d < r; d++) {
        CV *o = bp_item(nb, BP_OFFSET, d);
        if (o->kind == CV_INT && delta[d].kind == CV_INT) {
            *o = cv_int(dtype_wrap_int(DT_I32, (int64_t)((uint64_t)o->i + (uint64_t)delta[d].i)));
            continue;
        }
        ValId x[2], s;
        if (cv_convert(E, *o, DT_I32, c->loc, &x[0]) < 0 ||
            cv_convert(E, delta[d], DT_I32, c->locs[1], &x[1]) < 0 ||
            elab_emit(E, OP_ADD, c->loc, x, 2, 0, 0, &s) < 0)
            return -1;
        *o = cv_tensor(s);
    }
    *out = nb;
    return 0;
}

/* ------------------------------------------------------ memory arguments */

/* `if boundary_check:` as Triton tests it (0, None, () and [] are false). */
static bool given(CV v) {
    switch (v.kind) {
    case CV_NONE: return false;
    case CV_INT: case CV_BOOL: return v.i != 0;
    case CV_STR: case CV_TUPLE: return v.n != 0;
    default: return true;
    }
}

/* The checked dims of boundary_check as a bit set (Triton's
 * _canonicalize_boundary_check). */
static int boundary_dims(Elab *E, Call *c, int i, int rank, unsigned *dims) {
    CV v = c->a[i];
    *dims = 0;
    if (!given(v))
        return 0;
    const CV *items = v.kind == CV_TUPLE ? v.items : &v;
    int n = v.kind == CV_TUPLE ? v.n : 1;
    for (int k = 0; k < n; k++) {
        CV d = items[k];
        if (d.kind != CV_INT || d.i < 0 || d.i >= rank)
            return elab_err(E, c->locs[i], MT_ERR_TYPE,
                            "boundary_check dims must be integers in [0, %d), got %s", rank,
                            d.kind == CV_INT ? arena_printf(E->c->arena, "%lld", (long long)d.i)
                                             : cv_kind_name(E, d));
        if (*dims & (1u << d.i))
            return elab_err(E, c->locs[i], MT_ERR_TYPE,
                            "duplicate dimension %lld in boundary_check", (long long)d.i);
        *dims |= 1u << d.i;
    }
    return 0;
}

/* A string option: its index in `names` ("" first), or -1 with an error. */
static int str_option(Elab *E, Call *c, int i, const char *what, const char *const *names,
                      int n, int *out) {
    CV v = c->a[i];
    *out = 0;
    if (!c->have[i] || v.kind == CV_NONE || (v.kind == CV_STR && v.n == 0))
        return 0;
    for (int k = 1; v.kind == CV_STR && k < n; k++)
        if (!strcmp(v.s, names[k])) {
            *out = k;
            return 0;
        }
    StrBuf sb;
    sb_init(&sb);
    for (int k = 1; k < n; k++)
        sb_printf(&sb, "%s'%s'", k == 1 ? "" : k + 1 == n ? " or " : ", ", names[k]);
    const char *allowed = arena_strdup(E->c->arena, sb_str(&sb));
    sb_free(&sb);
    return elab_err(E, c->locs[i], MT_ERR_TYPE, "%s %s is not supported; use '', %s", what,
                    v.kind == CV_STR ? arena_printf(E->c->arena, "'%s'", v.s)
                                     : cv_kind_name(E, v),
                    allowed);
}

static const char *const paddings[] = {"", "zero", "nan"};

/* cache_modifier=, eviction_policy= and (loads) volatile= as the op's
 * AS_MEMHINT attributes, checked in Triton's order. */
static int mem_hints(Elab *E, Call *c, bool store, int64_t h[2]) {
    static const char *const load_caches[] = {"", ".ca", ".cg", ".cv"};
    static const char *const store_caches[] = {"", ".wb", ".cg", ".cs", ".wt"};
    static const int64_t load_hint[] = {MEM_DEFAULT, MEM_CA, MEM_CG, MEM_CV};
    static const int64_t store_hint[] = {MEM_DEFAULT, MEM_WB, MEM_CG, MEM_CS, MEM_WT};
    static const char *const evictions[] = {"", "evict_first", "evict_last"};
    static const int64_t evict_hint[] = {MEM_DEFAULT, MEM_EVICT_FIRST, MEM_EVICT_LAST};
    int ci = store ? 4 : 5, k;
    if (str_option(E, c, ci, "cache_modifier", store ? store_caches : load_caches,
                   store ? 5 : 4, &k) < 0)
        return -1;
    h[0] = store ? store_hint[k] : load_hint[k];
    if (str_option(E, c, ci + 1, "eviction_policy", evictions, 3, &k) < 0)
        return -1;
    h[1] = evict_hint[k];
    CV v = c->a[7];
    if (store || !c->have[7] || v.kind == CV_NONE)
        return 0;
    if (!cv_is_intlike(v))
        return elab_err(E, c->locs[7], MT_ERR_TYPE, "volatile must be a compile-time bool, got %s",
                        cv_kind_name(E, v));
    if (v.i) /* PTX's ld.volatile takes no cache operator */
        h[0] = MEM_VOLATILE;
    return 0;
}

/* The hints on the op that made a load's result or is a store (the last
 * op of the region), which tlops.c's handlers emit without them. */
static void set_hints(Elab *E, Op *op, const int64_t h[2]) {
    if (op && (op->code == OP_LOAD || op->code == OP_STORE)) {
        op->attr[0] = h[0];
        op->attr[1] = h[1];
    }
}

/* --------------------------------------------------- addresses and masks */

/* The shape a strided block is accessed in: the block itself up to rank
 * 2; from rank 3 on the [rows, last dim] view of it (rows enumerate the
 * leading dims in row-major order), since blocks of rank > 2 live only
 * between shape ops and the access is reshaped to and from the block. */
static int access_view(const int64_t *block, int r, int32_t view[2]) {
    if (r <= 2) {
        for (int d = 0; d < r; d++)
            view[d] = (int32_t)block[d];
        return r;
    }
    int64_t rows = 1;
    for (int d = 0; d + 1 < r; d++)
        rows *= block[d];
    view[0] = (int32_t)rows;
    view[1] = (int32_t)block[r - 1];
    return 2;
}

/* The i64 positions offset + 0 .. block[d] - 1 along dim d, shaped for
 * the access view: an arange expanded into the other dims, or at rank > 2
 * for a leading dim offset + (row / inner) % block[d] of the view's rows.
 * The offset is added before the expansion, on the vector. */
static int dim_positions(Elab *E, const int64_t *block, int r, int d, CV off, Loc loc,
                         CV *out) {
    int32_t view[2];
    int vr = access_view(block, r, view);
    bool leading = r > 2 && d + 1 < r;
    ValId ar, x;
    if (elab_emit(E, OP_ARANGE, loc, NULL, 0, 0, leading ? view[0] : block[d], &ar) < 0 ||
        elab_cast(E, ar, DT_I64, loc, &x) < 0)
        return -1;
    CV p = cv_tensor(x);
    if (leading) {
        int64_t inner = 1;
        for (int k = d + 1; k + 1 < r; k++)
            inner *= block[k];
        if ((inner > 1 && cv_binop(E, OT_DSLASH, p, cv_int(inner), loc, &p) < 0) ||
            (d > 0 && cv_binop(E, OT_PERCENT, p, cv_int(block[d]), loc, &p) < 0))
            return -1;
    }
    if (off.kind == CV_TENSOR && !val_is_const(E->f, off.v)) {
        ValId o;
        if (elab_cast(E, off.v, DT_I64, loc, &o) < 0 ||
            cv_binop(E, OT_PLUS, p, cv_tensor(o), loc, &p) < 0)
            return -1;
    } else if (bp_int(E, off) != 0 &&
               cv_binop(E, OT_PLUS, p, cv_int(bp_int(E, off)), loc, &p) < 0) {
        return -1;
    }
    int at = r > 2 ? (leading ? 0 : 1) : d; /* the view dim the positions run along */
    for (int k = 0; k < vr; k++)
        if (k != at && elab_expand_dims(E, p.v, k, loc, &p.v) < 0)
            return -1;
    *out = p;
    return 0;
}

int strided_addresses(Elab *E, CV base, int r, const CV *pos, const CV *shape,
                      const CV *strides, const unsigned checked[2], Loc loc, ValId *ptr,
                      ValId *mask) {
    CV sum = cv_none(), m = cv_none();
    for (int d = 0; d < r; d++) {
        CV term;
        if (cv_binop(E, OT_STAR, pos[d], strides[d], loc, &term) < 0 ||
            (sum.kind != CV_NONE && cv_binop(E, OT_PLUS, sum, term, loc, &term) < 0))
            return -1;
        sum = term;
        for (int side = 0; side < 2; side++) {
            CV in;
            if (!(checked[side] & (1u << d)))
                continue;
            if ((side ? cv_compare(E, OT_LT, pos[d], shape[d], loc, &in)
                      : cv_compare(E, OT_GE, pos[d], cv_int(0), loc, &in)) < 0 ||
                (m.kind != CV_NONE && cv_binop(E, OT_AMP, m, in, loc, &in) < 0))
                return -1;
            m = in;
        }
    }
    CV p;
    if (cv_binop(E, OT_PLUS, base, sum, loc, &p) < 0)
        return -1;
    *ptr = p.v;
    *mask = 0;
    if (m.kind == CV_NONE)
        return 0;
    /* a mask of only some dims spans the block as the pointers do */
    Type mt = type_with_elem(cv_type(E, p), type_scalar(DT_I1));
    if (type_eq(cv_type(E, m), mt)) {
        *mask = m.v;
        return 0;
    }
    return elab_emit_typed(E, OP_BROADCAST, loc, &m.v, 1, 0, 0, mt, mask);
}

/* The pointers of a strided block and the mask of its checked dims (0:
 * none), in the access view, as RewriteTensorPointer builds them: per dim
 * the i64 positions offset + index, times the stride, summed onto the
 * base.  A bound a compile-time offset already meets is not tested. */
int block_ref_addresses(Elab *E, const BlockRef *b, Loc loc, ValId *ptr, ValId *mask) {
    CV pos[MT_MAX_RANK];
    unsigned checked[2] = {b->checked, b->checked}; /* the low and the high bound */
    for (int d = 0; d < b->rank; d++) {
        if (dim_positions(E, b->block, b->rank, d, b->offsets[d], loc, &pos[d]) < 0)
            return -1;
        /* a compile-time offset (and shape) decides a bound here */
        CV off = b->offsets[d], shape = b->shape[d];
        bool ct_off = off.kind == CV_INT || (off.kind == CV_TENSOR && val_is_const(E->f, off.v));
        if (ct_off && bp_int(E, off) >= 0)
            checked[0] &= ~(1u << d);
        if (ct_off && shape.kind == CV_INT && bp_int(E, off) + b->block[d] <= shape.i)
            checked[1] &= ~(1u << d);
    }
    return strided_addresses(E, b->base, b->rank, pos, b->shape, b->strides, checked, loc, ptr,
                             mask);
}

/* The block as a value of its own shape, the access view's load reshaped
 * (rank > 2); masked-off elements are 0 or NaN by padding (PAD_NONE:
 * undefined, as Triton leaves them). */
int block_ref_load(Elab *E, const BlockRef *b, int padding, const int64_t h[2], Loc loc,
                   ValId *out) {
    DType d = (DType)cv_type(E, b->base).dtype;
    ValId a[3] = {0, 0, 0};
    if (block_ref_addresses(E, b, loc, &a[0], &a[1]) < 0)
        return -1;
    if (a[1] && padding != PAD_NONE &&
        cv_convert(E, padding == PAD_NAN ? cv_float(NAN) : cv_int(0), d == DT_I1 ? DT_I8 : d,
                   loc, &a[2]) < 0)
        return -1;
    if (elab_emit(E, OP_LOAD, loc, a, 3, h[0], h[1], out) < 0)
        return -1;
    if (b->rank <= 2)
        return 0;
    int32_t shape[MT_MAX_RANK];
    for (int k = 0; k < b->rank; k++)
        shape[k] = (int32_t)b->block[k];
    return tl_shape_reshape(E, *out, b->rank, shape, loc, out);
}

/* v, of the block's shape and the pointee type, stored through the block
 * (reshaped to the access view first at rank > 2). */
int block_ref_store(Elab *E, const BlockRef *b, ValId v, const int64_t h[2], Loc loc) {
    int32_t view[2];
    int vr = access_view(b->block, b->rank, view);
    if (b->rank > 2 && tl_shape_reshape(E, v, vr, view, loc, &v) < 0)
        return -1;
    ValId a[3] = {0, v, 0};
    if (block_ref_addresses(E, b, loc, &a[0], &a[2]) < 0)
        return -1;
    return elab_emit(E, OP_STORE, loc, a, 3, h[0], h[1], NULL);
}

/* A block pointer's parts as a BlockRef checked on `checked`. */
static BlockRef bp_ref(Elab *E, CV bp, unsigned checked) {
    BlockRef b = {.base = bp.items[0], .rank = bp_rank(bp), .checked = checked};
    b.shape = bp_item(bp, BP_SHAPE, 0);
    b.strides = bp_item(bp, BP_STRIDE, 0);
    b.offsets = bp_item(bp, BP_OFFSET, 0);
    for (int d = 0; d < b.rank; d++)
        b.block[d] = bp_int(E, *bp_item(bp, BP_BLOCK, d));
    return b;
}

/* -------------------------------------------------- loads and stores */

static int bp_load(Elab *E, Call *c, int padding, const int64_t h[2], CV *out) {
    CV bp = c->a[0];
    if ((c->have[1] && c->a[1].kind != CV_NONE) || (c->have[2] && c->a[2].kind != CV_NONE))
        return elab_err(E, c->locs[c->have[1] && c->a[1].kind != CV_NONE ? 1 : 2],
                        MT_ERR_TYPE,
                        "mask and other cannot be given for a load through a block pointer; "
                        "use boundary_check and padding_option");
    DType d = (DType)cv_type(E, bp.items[0]).dtype;
    if (padding == PAD_NAN && !dtype_is_float(d))
        return elab_err(E, c->locs[4], MT_ERR_TYPE,
                        "padding_option 'nan' is not supported for integer block pointers");
    unsigned dims;
    if (boundary_dims(E, c, 3, bp_rank(bp), &dims) < 0)
        return -1;
    BlockRef b = bp_ref(E, bp, dims);
    ValId r;
    if (block_ref_load(E, &b, padding, h, c->loc, &r) < 0)
        return -1;
    /* Triton loads a block pointer to bool as int8 */
    if (d == DT_I1 && elab_cast(E, r, DT_I8, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

static int bp_store(Elab *E, Call *c, const int64_t h[2], CV *out) {
    CV bp = c->a[0];
    if (c->have[2] && c->a[2].kind != CV_NONE)
        return elab_err(E, c->locs[2], MT_ERR_TYPE,
                        "mask cannot be given for a store through a block pointer; use "
                        "boundary_check");
    int rank = bp_rank(bp);
    ValId v;
    if (cv_materialise(E, c->a[1], c->locs[1], &v) < 0)
        return -1;
    Type pt = cv_type(E, bp.items[0]), vt = val_type(E->f, v);
    int32_t shape[MT_MAX_RANK];
    for (int d = 0; d < rank; d++)
        shape[d] = (int32_t)bp_int(E, *bp_item(bp, BP_BLOCK, d));
    Type bt = type_block(type_scalar(vt.dtype), rank, shape);
    if (vt.rank == 0 && !vt.is_ptr &&
        elab_emit_typed(E, OP_BROADCAST, c->locs[1], &v, 1, 0, 0, bt, &v) < 0)
        return -1;
    vt = val_type(E->f, v);
    if (vt.is_ptr || !type_eq(type_with_elem(vt, type_scalar(DT_I32)),
                              type_with_elem(bt, type_scalar(DT_I32))))
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "the block pointer's block is %s but the value is %s",
                        elab_type_text(E, type_with_elem(bt, type_scalar((DType)pt.dtype))),
                        elab_type_text(E, vt));
    DType want = pt.dtype == DT_I1 ? DT_I8 : (DType)pt.dtype;
    if (vt.dtype != want)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "the block pointer's element type is %s but the value's is %s",
                        dtype_info[want].tl_name, dtype_info[vt.dtype].tl_name);
    unsigned dims;
    if (boundary_dims(E, c, 3, rank, &dims) < 0)
        return -1;
    BlockRef b = bp_ref(E, bp, dims);
    *out = cv_none();
    return block_ref_store(E, &b, v, h, c->loc);
}

/* tl.load: through a block pointer here, else tlops.c's h_load once the
 * block-pointer-only arguments are known to be absent. */
int h_mem_load(Elab *E, Call *c, CV *out) {
    int padding;
    int64_t h[2];
    if (mem_hints(E, c, false, h) < 0 ||
        str_option(E, c, 4, "padding_option", paddings, 3, &padding) < 0)
        return -1;
    CV p = c->a[0];
    if (p.kind == CV_BLOCKPTR)
        return bp_load(E, c, padding, h, out);
    if (p.kind != CV_TENSOR || !cv_type(E, p).is_ptr)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects a pointer, got %s",
                        c->b->display, cv_kind_name(E, p));
    if (padding != PAD_NONE || given(c->a[3]))
        return elab_err(E, c->locs[padding != PAD_NONE ? 4 : 3], MT_ERR_TYPE,
                        "padding_option and boundary_check need a block pointer (from "
                        "tl.make_block_ptr); a tensor of pointers has no known bounds");
    c->t[0] = p.v;
    if (h_load(E, c, out) < 0)
        return -1;
    set_hints(E, out->kind == CV_TENSOR ? val(E->f, out->v)->def : NULL, h);
    return 0;
}

int h_mem_store(Elab *E, Call *c, CV *out) {
    int64_t h[2];
    if (mem_hints(E, c, true, h) < 0)
        return -1;
    if (c->a[0].kind == CV_TENSOR && c->a[0].ptr_const)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "Cannot store to a constant pointer");
    CV p = c->a[0];
    if (p.kind == CV_BLOCKPTR)
        return bp_store(E, c, h, out);
    if (p.kind != CV_TENSOR || !cv_type(E, p).is_ptr)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects a pointer, got %s",
                        c->b->display, cv_kind_name(E, p));
    if (given(c->a[3]))
        return elab_err(E, c->locs[3], MT_ERR_TYPE,
                        "boundary_check needs a block pointer (from tl.make_block_ptr); a "
                        "tensor of pointers has no known bounds");
    c->t[0] = p.v;
    Region *r = E->region;
    if (h_store(E, c, out) < 0)
        return -1;
    set_hints(E, r->nops ? r->ops[r->nops - 1] : NULL, h);
    return 0;
}

/* ---------------------------------------------------------- compiler hints */

/* tl.multiple_of(input, values) and its kin: values is an int or a
 * sequence of ints, one per dim (multiple_of of a scalar takes one), as
 * Triton checks them; the op keeps the last dim's value, the one axis.c
 * tracks. */
int h_hint(Elab *E, Call *c, CV *out) {
    const char *fn = c->b->display;
    CV x = c->a[0], v = c->a[1];
    if (x.kind != CV_TENSOR)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects a tensor, got %s", fn,
                        cv_kind_name(E, x));
    const CV *items = v.kind == CV_TUPLE ? v.items : &v;
    int n = v.kind == CV_TUPLE ? v.n : 1;
    for (int i = 0; i < n; i++) {
        if (items[i].kind != CV_INT)
            return elab_err(E, c->locs[1], MT_ERR_TYPE,
                            "%s() values must be compile-time integers, got %s", fn,
                            cv_kind_name(E, items[i]));
        if (items[i].i < 1)
            return elab_err(E, c->locs[1], MT_ERR_TYPE, "%s() values must be positive, got %lld",
                            fn, (long long)items[i].i);
    }
    int rank = cv_type(E, x).rank;
    int want = c->b->op == OP_MULTIPLE_OF && rank == 0 ? 1 : rank;
    if (n != want)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "%s() of a rank-%d value takes %d value%s, got %d", fn, rank, want,
                        want == 1 ? "" : "s", n);
    if (n == 0) { /* max_contiguous of a scalar: nothing to promise */
        *out = x;
        return 0;
    }
    ValId r;
    if (elab_emit(E, c->b->op, c->loc, &x.v, 1, items[n - 1].i, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}
