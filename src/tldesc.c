/* tldesc.c: tensor descriptors (tl.make_tensor_descriptor, desc.load,
 * desc.store, desc.atomic_*, desc.gather, desc.scatter, their functional
 * forms and attributes).
 *
 * Input: a Call bound to its row of builtins.c's table (the descriptor is
 * argument 0 of the methods, unchecked: a descriptor is no tensor).
 * Output: a descriptor is a compile-time value (CV_TENSORDESC) of runtime
 * scalars, never an IR value, as block pointers are (tlblockptr.c): an
 * access through it is lowered here, at elaboration time, to the strided
 * block access tlblockptr.c builds, every dim bounds-checked, so that what
 * TMA leaves out of bounds (zero or NaN on loads, nothing on stores) is
 * what the masks leave.  No TMA unit is used: the same loads and stores
 * run on every target, and the host backends run them as they are.
 *
 * Invariants: a CV_TENSORDESC's items are, for rank r, [base, shape * r,
 * strides * r, block_shape * r, padding] (n = 2 + 3r): the base a scalar
 * pointer tensor; shapes compile-time ints (wrapped to i32) or i32
 * scalars, strides compile-time ints or i64 scalars (Triton's
 * make_scalar types); block_shape compile-time powers of two; padding a
 * compile-time PAD_ZERO or PAD_NAN.  The checks Triton makes at
 * make_tensor_descriptor (rank 1..5, a 16-byte last block dim, a unit last
 * stride, no NaN padding of integers) are made here in its order and with
 * its messages; a rank of 5, which Triton allows, is refused after them
 * since blocks have at most MT_MAX_RANK dims. */
#include "mt.h"

#include <math.h>
#include <string.h>

/* Descriptors are read as [rows, last dim] views of blocks of up to four
 * dims (Triton allows five; a fifth is refused here, clearly). */
#define MAX_DESC_RANK 4

static int desc_rank(CV d) { return (d.n - 2) / 3; }
static const CV *desc_shape(CV d) { return &d.items[1]; }
static const CV *desc_strides(CV d) { return &d.items[1 + desc_rank(d)]; }
static int64_t desc_block(CV d, int k) { return d.items[1 + 2 * desc_rank(d) + k].i; }
static int desc_padding(CV d) { return (int)d.items[d.n - 1].i; }
static DType desc_dtype(Elab *E, CV d) { return (DType)cv_type(E, d.items[0]).dtype; }

static Type desc_block_type(Elab *E, CV d) {
    int32_t shape[MT_MAX_RANK];
    int r = desc_rank(d);
    for (int k = 0; k < r; k++)
        shape[k] = (int32_t)desc_block(d, k);
    return type_block(type_scalar(desc_dtype(E, d)), r, shape);
}

/* A list or tuple argument's items. */
static int seq(Elab *E, Call *c, int i, const CV **items, int *n) {
    CV v = c->a[i];
    if (v.kind != CV_TUPLE)
        return elab_err(E, c->locs[i], MT_ERR_TYPE, "%s() %s must be a list or tuple, got %s",
                        c->b->display, c->b->params[i].name, cv_kind_name(E, v));
    *items = v.items;
    *n = v.n;
    return 0;
}

/* A shape (i32) or stride (i64) as Triton's make_scalar makes it: an int,
 * or an integer scalar cast. */
static int desc_scalar(Elab *E, CV v, Loc loc, DType d, CV *out) {
    if (v.kind == CV_INT || v.kind == CV_BOOL) {
        *out = cv_int(dtype_wrap_int(d, v.i));
        return 0;
    }
    Type t = v.kind == CV_TENSOR ? cv_type(E, v) : type_scalar(DT_VOID);
    if (v.kind != CV_TENSOR || t.is_ptr || type_numel(t) != 1 ||
        !(dtype_is_int((DType)t.dtype) || t.dtype == DT_I1))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "tensor descriptor shapes and strides must be integers or integer "
                        "scalars, got %s", cv_kind_name(E, v));
    ValId x = v.v;
    if (t.rank && elab_emit_typed(E, OP_RESHAPE, loc, &x, 1, 0, 0,
                                  type_scalar((DType)t.dtype), &x) < 0)
        return -1;
    if (elab_cast(E, x, d, loc, &x) < 0)
        return -1;
    *out = cv_tensor(x);
    return 0;
}

/* The last stride: Triton's `last_stride != 1` on the value as given; a
 * runtime stride is refused (Triton cannot compare one either). */
static int unit_last_stride(Elab *E, CV v, Loc loc) {
    if (v.kind == CV_TENSOR && val_is_const(E->f, v.v))
        v = cv_int(val(E->f, v.v)->c.i);
    if (v.kind == CV_INT || v.kind == CV_BOOL) {
        if (v.i != 1)
            return elab_err(E, loc, MT_ERR_TYPE, "Tensor descriptor last dim must be 1 but got %lld",
                            (long long)v.i);
        return 0;
    }
    return elab_err(E, loc, MT_ERR_TYPE,
                    "Tensor descriptor last dim must be 1 but got a runtime %s; the last "
                    "stride must be the compile-time 1", cv_kind_name(E, v));
}

static int desc_block_shape(Elab *E, Call *c, const CV *bl, int n, int64_t *block) {
    int64_t numel = 1;
    for (int k = 0; k < n; k++) {
        if (bl[k].kind != CV_INT)
            return elab_err(E, c->locs[3], MT_ERR_TYPE,
                            "Shape element %d must have type `constexpr[int]`, got %s", k,
                            cv_kind_name(E, bl[k]));
        block[k] = bl[k].i;
        if (block[k] <= 0 || (block[k] & (block[k] - 1)))
            return elab_err(E, c->locs[3], MT_ERR_TYPE, "Shape element %d must be a power of 2",
                            k);
        if ((numel *= block[k]) > MAX_BLOCK_NUMEL)
            return elab_err(E, c->locs[3], MT_ERR_TYPE,
                            "numel (%lld) exceeds the maximum block numel (%d)",
                            (long long)numel, MAX_BLOCK_NUMEL);
    }
    return 0;
}

/* tl.make_tensor_descriptor(base, shape, strides, block_shape,
 * padding_option="zero"), checked in Triton's order. */
int h_make_tensor_descriptor(Elab *E, Call *c, CV *out) {
    const CV *sh, *st, *bl;
    int n, nt, nb;
    if (seq(E, c, 1, &sh, &n) < 0)
        return -1;
    if (n < 1 || n > 5)
        return elab_err(E, c->locs[1], MT_ERR_TYPE, "Expected 1 <= ndim <= 5 but got %d dimensions",
                        n);
    if (seq(E, c, 2, &st, &nt) < 0)
        return -1;
    if (nt != n)
        return elab_err(E, c->locs[2], MT_ERR_TYPE, "Expected %d strides but got %d", n, nt);
    if (seq(E, c, 3, &bl, &nb) < 0)
        return -1;
    if (nb != n)
        return elab_err(E, c->locs[3], MT_ERR_TYPE,
                        "Expected block_shape to have %d dimensions but got %d", n, nb);
    CV base = c->a[0];
    if (base.kind != CV_TENSOR || !cv_type(E, base).is_ptr || cv_type(E, base).rank)
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "tl.make_tensor_descriptor() base must be a scalar pointer, got %s",
                        cv_kind_name(E, base));
    DType d = (DType)cv_type(E, base).dtype;
    int64_t elem = dtype_info[d].bits / 8;
    if (bl[n - 1].kind == CV_INT && bl[n - 1].i * elem < 16)
        return elab_err(E, c->locs[3], MT_ERR_TYPE,
                        "Descriptor block shape must have at least 16 bytes in the last "
                        "dimension, but got %lld * %lld = %lld bytes",
                        (long long)bl[n - 1].i, (long long)elem, (long long)(bl[n - 1].i * elem));
    if (unit_last_stride(E, st[n - 1], c->locs[2]) < 0)
        return -1;
    CV desc = cv_tuple(E, 2 + 3 * n);
    desc.kind = CV_TENSORDESC;
    desc.items[0] = base;
    int64_t block[5];
    for (int k = 0; k < n; k++)
        if (desc_scalar(E, sh[k], c->locs[1], DT_I32, &desc.items[1 + k]) < 0 ||
            desc_scalar(E, st[k], c->locs[2], DT_I64, &desc.items[1 + n + k]) < 0)
            return -1;
    if (desc_block_shape(E, c, bl, n, block) < 0)
        return -1;
    for (int k = 0; k < n; k++)
        desc.items[1 + 2 * n + k] = cv_int(block[k]);
    int padding = PAD_ZERO;
    CV p = c->a[4];
    if (p.kind == CV_STR && !strcmp(p.s, "nan"))
        padding = PAD_NAN;
    else if (p.kind != CV_NONE && !(p.kind == CV_STR && (!strcmp(p.s, "zero") || !p.n)))
        return elab_err(E, c->locs[4], MT_ERR_TYPE, "Padding option %s not supported",
                        p.kind == CV_STR ? p.s : cv_kind_name(E, p));
    if (padding == PAD_NAN && !dtype_is_float(d))
        return elab_err(E, c->locs[4], MT_ERR_TYPE,
                        "Padding option `nan` is not supported for integer blocks");
    if (n > MAX_DESC_RANK)
        return elab_err(E, c->locs[1], MT_ERR_UNSUPPORTED,
                        "tensor descriptors of %d dims are not supported (at most %d)", n,
                        MAX_DESC_RANK);
    desc.items[1 + 3 * n] = cv_int(padding);
    *out = desc;
    return 0;
}

/* A parameter given as "tensordesc<T[b0, ...]>": its runtime parts as
 * parameters (mt.h's SIG_DESC: the base, i32 shapes, i64 strides of all
 * dims but the last, whose stride is 1), bound as one descriptor. */
int tl_desc_param(Elab *E, const char *name, const SigEntry *se, Loc loc, CV *out) {
    int r = se->desc_rank;
    int64_t bytes = (int64_t)se->desc_block[r - 1] * (dtype_info[se->dtype].bits / 8);
    if (bytes < 16)
        return elab_err(E, loc, MT_ERR_SIGNATURE,
                        "Descriptor block shape must have at least 16 bytes in the last "
                        "dimension, but got %d * %d = %lld bytes (parameter '%s')",
                        se->desc_block[r - 1], dtype_info[se->dtype].bits / 8, (long long)bytes,
                        name);
    if (r > MAX_DESC_RANK)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                        "tensor descriptors of %d dims are not supported (at most %d; "
                        "parameter '%s')", r, MAX_DESC_RANK, name);
    if (se->desc_nan && !dtype_is_float(se->dtype))
        return elab_err(E, loc, MT_ERR_SIGNATURE,
                        "Padding option `nan` is not supported for integer blocks (parameter "
                        "'%s')", name);
    CV desc = cv_tuple(E, 2 + 3 * r);
    desc.kind = CV_TENSORDESC;
    ValId base = func_add_param(E->f, name, type_ptr(se->dtype));
    val(E->f, base)->divisibility = 16; /* TensorDescriptor asserts it, the launch checks */
    desc.items[0] = cv_tensor(base);
    for (int k = 0; k < r; k++) {
        const char *sn = arena_printf(E->c->arena, "%s__shape_%d", name, k);
        desc.items[1 + k] = cv_tensor(func_add_param(E->f, sn, type_scalar(DT_I32)));
        if (k + 1 < r) {
            const char *tn = arena_printf(E->c->arena, "%s__stride_%d", name, k);
            desc.items[1 + r + k] = cv_tensor(func_add_param(E->f, tn, type_scalar(DT_I64)));
        }
        desc.items[1 + 2 * r + k] = cv_int(se->desc_block[k]);
    }
    desc.items[2 * r] = cv_int(1);
    desc.items[1 + 3 * r] = cv_int(se->desc_nan ? PAD_NAN : PAD_ZERO);
    *out = desc;
    return 0;
}

/* ------------------------------------------------------ the accesses */

static int need_desc(Elab *E, Call *c) {
    if (c->a[0].kind != CV_TENSORDESC)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "%s() expects a tensor descriptor, got %s",
                        c->b->display, cv_kind_name(E, c->a[0]));
    return 0;
}

/* The block at `offsets` (argument i), every dim checked. */
static int desc_ref(Elab *E, Call *c, int i, CV *offs, BlockRef *b) {
    CV d = c->a[0];
    int r = desc_rank(d), n;
    if (block_scalars(E, c->a[i], c->locs[i], false, "offsets", offs, &n) < 0)
        return -1;
    if (n != r)
        return elab_err(E, c->locs[i], MT_ERR_TYPE, "expected %d offsets, but got %d", r, n);
    memset(b, 0, sizeof *b);
    b->base = d.items[0];
    b->rank = r;
    b->shape = desc_shape(d);
    b->strides = desc_strides(d);
    b->offsets = offs;
    for (int k = 0; k < r; k++)
        b->block[k] = desc_block(d, k);
    b->checked = (1u << r) - 1;
    return 0;
}

/* desc.load(offsets), tl.load_tensor_descriptor(desc, offsets). */
int h_desc_load(Elab *E, Call *c, CV *out) {
    CV offs[MT_MAX_RANK];
    BlockRef b;
    static const int64_t no_hints[2] = {MEM_DEFAULT, MEM_DEFAULT};
    ValId r;
    if (need_desc(E, c) < 0 || desc_ref(E, c, 1, offs, &b) < 0 ||
        block_ref_load(E, &b, desc_padding(c->a[0]), no_hints, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* The value argument i of a store-like access: a tensor of the block's
 * shape (Triton's validate_store_like). */
static int block_value(Elab *E, Call *c, int i, ValId *out) {
    Type bt = desc_block_type(E, c->a[0]);
    CV v = c->a[i];
    Type vt = v.kind == CV_TENSOR ? cv_type(E, v) : type_scalar(DT_VOID);
    if (v.kind != CV_TENSOR || vt.is_ptr ||
        !type_eq(type_with_elem(vt, type_scalar(DT_I32)), type_with_elem(bt, type_scalar(DT_I32))))
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "%s() value must be a block of the descriptor's shape %s, got %s",
                        c->b->display, elab_type_text(E, bt),
                        v.kind == CV_TENSOR ? elab_type_text(E, vt) : cv_kind_name(E, v));
    *out = v.v;
    return 0;
}

/* desc.store(offsets, value), tl.store_tensor_descriptor(desc, offsets,
 * value): the value cast to the descriptor's type, as Triton does. */
int h_desc_store(Elab *E, Call *c, CV *out) {
    CV offs[MT_MAX_RANK];
    BlockRef b;
    static const int64_t no_hints[2] = {MEM_DEFAULT, MEM_DEFAULT};
    ValId v;
    if (need_desc(E, c) < 0 || block_value(E, c, 2, &v) < 0 ||
        desc_ref(E, c, 1, offs, &b) < 0 || elab_cast(E, v, desc_dtype(E, c->a[0]), c->loc, &v) < 0)
        return -1;
    *out = cv_none();
    return block_ref_store(E, &b, v, no_hints, c->loc);
}

/* The element types Triton's descriptor_atomic_* accept, per op. */
static bool desc_atomic_ok(OpCode code, DType d) {
    bool common = d == DT_U32 || d == DT_I32 || d == DT_U64;
    switch (code) {
    case OP_ATOMIC_ADD: return common || d == DT_F32 || d == DT_F16 || d == DT_BF16;
    case OP_ATOMIC_MIN: case OP_ATOMIC_MAX:
        return common || d == DT_I64 || d == DT_F16 || d == DT_BF16;
    default: return common || d == DT_I64;
    }
}

/* desc.atomic_add(offsets, value) & co: an atomic op on every in-bounds
 * element, relaxed as TMA's reductions are; nothing is returned. */
int h_desc_atomic(Elab *E, Call *c, CV *out) {
    CV offs[MT_MAX_RANK];
    BlockRef b;
    ValId v;
    if (need_desc(E, c) < 0 || block_value(E, c, 2, &v) < 0 || desc_ref(E, c, 1, offs, &b) < 0)
        return -1;
    DType d = desc_dtype(E, c->a[0]);
    OpCode code = c->b->op;
    if (!desc_atomic_ok(code, d))
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() does not support %s descriptors",
                        c->b->display, dtype_info[d].tl_name);
    if (!atomic_dtype_ok(code, d))
        return elab_err(E, c->loc, MT_ERR_UNSUPPORTED,
                        "%s() of %s descriptors is not supported (it needs TMA's reduction)",
                        c->b->display, dtype_info[d].tl_name);
    if (val_type(E->f, v).dtype != d)
        return elab_err(E, c->locs[2], MT_ERR_TYPE,
                        "%s() value must have the descriptor's element type %s, got %s",
                        c->b->display, dtype_info[d].tl_name,
                        dtype_info[val_type(E->f, v).dtype].tl_name);
    int32_t view[2];
    int64_t rows = 1;
    for (int k = 0; k + 1 < b.rank; k++)
        rows *= b.block[k];
    view[0] = (int32_t)rows;
    view[1] = (int32_t)b.block[b.rank - 1];
    if (b.rank > 2 && tl_shape_reshape(E, v, 2, view, c->loc, &v) < 0)
        return -1;
    ValId a[3] = {0, v, 0}, r;
    if (block_ref_addresses(E, &b, c->loc, &a[0], &a[2]) < 0 ||
        elab_emit(E, code, c->loc, a, 3, (int64_t)SEM_RELAXED * MEM_NSCOPES + SCOPE_GPU, 0,
                  &r) < 0)
        return -1;
    *out = cv_none();
    return 0;
}

/* ------------------------------------------------- gather and scatter */

/* Triton's checks of a gather or scatter through desc with row offsets
 * x (argument i) and column offset y (argument i + 1), and the positions
 * rows x[:, None], columns y + arange(block[1])[None, :]. */
static int gather_positions(Elab *E, Call *c, int i, CV pos[2]) {
    CV d = c->a[0], x = c->a[i];
    const char *what = c->b->op == OP_LOAD ? "gather" : "scatter";
    if (desc_rank(d) != 2)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "descriptor must be 2D, but got %d dims",
                        desc_rank(d));
    if (desc_block(d, 0) != 1)
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "descriptor block must have 1 row, but got [%lld, %lld]",
                        (long long)desc_block(d, 0), (long long)desc_block(d, 1));
    Type xt = x.kind == CV_TENSOR ? cv_type(E, x) : type_scalar(DT_VOID);
    if (x.kind != CV_TENSOR || xt.rank != 1 || xt.is_ptr || !dtype_is_int((DType)xt.dtype))
        return elab_err(E, c->locs[i], MT_ERR_TYPE, "x offsets must be a 1D integer block, got %s",
                        x.kind == CV_TENSOR ? elab_type_text(E, xt) : cv_kind_name(E, x));
    if (xt.shape[0] < 8)
        return elab_err(E, c->locs[i], MT_ERR_TYPE,
                        "descriptor %s must have at least 8 rows, but got [%d]", what,
                        xt.shape[0]);
    DType dt = desc_dtype(E, d);
    int64_t min_cols = 32 / dtype_info[dt].bits * 8;
    if (desc_block(d, 1) < min_cols)
        return elab_err(E, c->locs[0], MT_ERR_TYPE,
                        "descriptor %s of %s must have at least %lld columns, but got %lld", what,
                        dtype_info[dt].tl_name, (long long)min_cols, (long long)desc_block(d, 1));
    CV y;
    int n;
    if (block_scalars(E, c->a[i + 1], c->locs[i + 1], false, "offsets", &y, &n) < 0)
        return -1;
    ValId rows, ar, cols, yy;
    if (elab_cast(E, x.v, DT_I64, c->locs[i], &rows) < 0 ||
        elab_expand_dims(E, rows, 1, c->locs[i], &rows) < 0 ||
        elab_emit(E, OP_ARANGE, c->loc, NULL, 0, 0, desc_block(d, 1), &ar) < 0 ||
        elab_cast(E, ar, DT_I64, c->loc, &cols) < 0 ||
        elab_expand_dims(E, cols, 0, c->loc, &cols) < 0 ||
        cv_convert(E, y, DT_I64, c->locs[i + 1], &yy) < 0 ||
        cv_binop(E, OT_PLUS, cv_tensor(cols), cv_tensor(yy), c->loc, &pos[1]) < 0)
        return -1;
    pos[0] = cv_tensor(rows);
    return 0;
}

static const unsigned all_dims[2] = {3u, 3u};

/* desc.gather(x_offsets, y_offset): rows x_offsets of the descriptor's
 * tensor, block_shape[1] columns from y_offset, out-of-bounds elements 0
 * (or NaN). */
int h_desc_gather(Elab *E, Call *c, CV *out) {
    CV pos[2], d = c->a[0];
    if (need_desc(E, c) < 0 || gather_positions(E, c, 1, pos) < 0)
        return -1;
    ValId a[3] = {0, 0, 0}, r;
    if (strided_addresses(E, d.items[0], 2, pos, desc_shape(d), desc_strides(d), all_dims, c->loc,
                          &a[0], &a[1]) < 0 ||
        cv_convert(E, desc_padding(d) == PAD_NAN ? cv_float(NAN) : cv_int(0),
                   desc_dtype(E, d), c->loc, &a[2]) < 0 ||
        elab_emit(E, OP_LOAD, c->loc, a, 3, MEM_DEFAULT, MEM_DEFAULT, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* desc.scatter(value, x_offsets, y_offset): the gather's inverse; value
 * must be [len(x_offsets), block_shape[1]] of the descriptor's type. */
int h_desc_scatter(Elab *E, Call *c, CV *out) {
    CV pos[2], d = c->a[0];
    if (need_desc(E, c) < 0 || gather_positions(E, c, 2, pos) < 0)
        return -1;
    ValId a[3] = {0, 0, 0};
    if (strided_addresses(E, d.items[0], 2, pos, desc_shape(d), desc_strides(d), all_dims, c->loc,
                          &a[0], &a[2]) < 0)
        return -1;
    Type want = type_with_elem(val_type(E->f, a[0]), type_scalar(desc_dtype(E, d)));
    CV v = c->a[1];
    if (v.kind != CV_TENSOR || !type_eq(cv_type(E, v), want))
        return elab_err(E, c->locs[1], MT_ERR_TYPE, "%s() value must be %s, got %s",
                        c->b->display, elab_type_text(E, want),
                        v.kind == CV_TENSOR ? elab_type_text(E, cv_type(E, v))
                                            : cv_kind_name(E, v));
    a[1] = v.v;
    *out = cv_none();
    return elab_emit(E, OP_STORE, c->loc, a, 3, MEM_DEFAULT, MEM_DEFAULT, NULL);
}

/* ----------------------------------------------------------- attributes */

static CV tuple_of(Elab *E, const CV *items, int n) {
    CV t = cv_tuple(E, n);
    memcpy(t.items, items, sizeof(CV) * (size_t)n);
    return t;
}

int tl_desc_attr(Elab *E, CV desc, const char *name, Loc loc, CV *out) {
    int r = desc_rank(desc);
    if (!strcmp(name, "block_shape")) {
        *out = tuple_of(E, &desc.items[1 + 2 * r], r);
    } else if (!strcmp(name, "shape") || !strcmp(name, "strides")) {
        /* i32 and i64 scalars, as Triton's descriptor holds them */
        bool shape = name[1] == 'h';
        *out = tuple_of(E, shape ? desc_shape(desc) : desc_strides(desc), r);
        for (int k = 0; k < r; k++) {
            ValId x;
            if (cv_convert(E, out->items[k], shape ? DT_I32 : DT_I64, loc, &x) < 0)
                return -1;
            out->items[k] = cv_tensor(x);
        }
    } else if (!strcmp(name, "dtype")) {
        *out = cv_dtype(desc_dtype(E, desc));
    } else {
        return 1;
    }
    return 0;
}
