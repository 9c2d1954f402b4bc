/* tlshape.c: the handlers of Triton's shape builtins (reshape, view,
 * ravel, trans, permute, x.T, join, split, cat, interleave, flip,
 * expand_dims with several axes, broadcast).
 *
 * Input: a Call bound to its row of builtins.c's table; the rows that take
 * Triton's `*shape` or `*dims` varargs are UNBOUND and read Call.args
 * (argument 0 is the tensor, also for a method call x.reshape(...)).
 * Output: the shape ops of ops.def (K_GATHER: reshape, trans, join, split,
 * cat, flip) and expand_dims/broadcast, emitted through elab_emit, and the
 * builtin's value (a tuple for split and broadcast).
 *
 * Semantics and messages follow Triton 3.6's core.py and semantic.py:
 * shapes are powers of two, reshape keeps row-major order (can_reorder
 * is accepted and ignored: keeping the order is one of the orders it
 * allows), join broadcasts its operands and adds a last dim of 2, split
 * needs a last dim of 2 (a 2-vector splits into scalars), trans without
 * dims swaps the last two, cat needs can_reorder=True and vectors.  The
 * IR's trans is that swap; any other permutation is built from it: each
 * dim in turn moves to the end, as the swap of a [before, dim, after]
 * view's last two dims between row-major reshapes.  flip with dim=None
 * flips the last dim (its documented meaning; Triton 3.6 itself fails on
 * None). */
#include "mt.h"

#include <string.h>

static bool pow2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

/* The tensor of argument 0 (a number is a constant). */
static int self_tensor(Elab *E, Call *c, ValId *out) {
    const Args *a = c->args;
    if (a->npos < 1)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() missing required argument 'input'",
                        c->b->display);
    return builtin_need_tensor(E, a->pos[0], a->posloc[0], c->b->display, out);
}

/* The keyword arguments an UNBOUND row allows: `allowed` (NULL: none);
 * *value gets its value (None when absent). */
static int keyword(Elab *E, Call *c, const char *allowed, CV *value, Loc *loc) {
    const Args *a = c->args;
    *value = cv_none();
    *loc = c->loc;
    for (int k = 0; k < a->nkw; k++) {
        if (!allowed || strcmp(a->kwname[k], allowed))
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got an unexpected keyword argument '%s'", c->b->display,
                            a->kwname[k]);
        *value = a->kw[k];
        *loc = a->kwloc[k];
    }
    return 0;
}

/* The integers after argument 0, given one by one or as one tuple or
 * list (Triton's _unwrap_iterable): f(x, 4, 8) or f(x, (4, 8)). */
static int int_varargs(Elab *E, Call *c, const char *what, int *n,
                       int64_t v[MT_MAX_RANK]) {
    const Args *a = c->args;
    const CV *items = a->pos + 1;
    int count = a->npos - 1;
    Loc loc = a->npos > 1 ? a->posloc[1] : c->loc;
    if (count == 1 && a->pos[1].kind == CV_TUPLE) {
        items = a->pos[1].items;
        count = a->pos[1].n;
    }
    if (count > MT_MAX_RANK)
        return elab_err(E, loc, MT_ERR_TYPE, "%s of %d dims exceeds the maximum rank %d",
                        what, count, MT_MAX_RANK);
    for (int i = 0; i < count; i++) {
        if (items[i].kind != CV_INT)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "%s element %d must be a compile-time integer, got %s", what, i,
                            cv_kind_name(E, items[i]));
        v[i] = items[i].i;
    }
    *n = count;
    return 0;
}

/* Triton's validate_block_shape: v[0..n) as a block shape, each a power
 * of 2, numel at most MAX_BLOCK_NUMEL. */
static int block_shape(Elab *E, Call *c, int n, const int64_t *v, int32_t *shape,
                       int64_t *numel) {
    *numel = 1;
    for (int i = 0; i < n; i++) {
        if (!pow2(v[i]))
            return elab_err(E, c->loc, MT_ERR_TYPE,
                            "shape element %d must be a power of 2, got %lld", i,
                            (long long)v[i]);
        if ((*numel *= v[i]) > MAX_BLOCK_NUMEL)
            return elab_err(E, c->loc, MT_ERR_TYPE,
                            "numel exceeds the maximum tensor numel %d", MAX_BLOCK_NUMEL);
        shape[i] = (int32_t)v[i];
    }
    return 0;
}

int tl_shape_reshape(Elab *E, ValId x, int rank, const int32_t *shape, Loc loc,
                     ValId *out) {
    Type t = val_type(E->f, x);
    Type want = type_block(type_elem(t), rank, shape);
    if (type_eq(t, want)) {
        *out = x;
        return 0;
    }
    return elab_emit_typed(E, OP_RESHAPE, loc, &x, 1, 0, 0, want, out);
}

/* reshape(input, *shape, can_reorder=False), view(input, *shape): an
 * empty shape makes the one element a scalar, as Triton's _unsplat. */
int h_reshape(Elab *E, Call *c, CV *out) {
    ValId x, r;
    CV reorder;
    Loc rloc;
    int n = 0;
    int64_t v[MT_MAX_RANK];
    bool view = !strcmp(c->b->display, "tl.view");
    if (self_tensor(E, c, &x) < 0 || keyword(E, c, view ? NULL : "can_reorder", &reorder,
                                              &rloc) < 0 ||
        int_varargs(E, c, "shape", &n, v) < 0)
        return -1;
    if (reorder.kind != CV_NONE && !cv_is_intlike(reorder))
        return elab_err(E, rloc, MT_ERR_TYPE, "can_reorder must be a compile-time bool");
    Type t = val_type(E->f, x);
    int32_t shape[MT_MAX_RANK];
    int64_t numel = 1;
    if (block_shape(E, c, n, v, shape, &numel) < 0)
        return -1;
    if (t.rank == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE, "%s() expects a block, got %s",
                        c->b->display, elab_type_text(E, t));
    if (numel != type_numel(t))
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "%s() cannot change the number of elements: %lld to %lld",
                        c->b->display, (long long)type_numel(t), (long long)numel);
    if (tl_shape_reshape(E, x, n, shape, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* The scalar of a one-element block x (Triton's _unsplat: x.item(), and
 * the condition of an if or while); a scalar x is itself. */
int tl_unsplat(Elab *E, ValId x, Loc loc, ValId *out) {
    Type t = val_type(E->f, x);
    if (t.rank == 0) {
        *out = x;
        return 0;
    }
    if (type_numel(t) != 1)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "item() needs a block of one element, got %s", elab_type_text(E, t));
    return tl_shape_reshape(E, x, 0, NULL, loc, out);
}

/* x.item() */
int h_item(Elab *E, Call *c, CV *out) {
    ValId r;
    if (tl_unsplat(E, c->t[0], c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* ravel(x, can_reorder=False): x as one vector. */
int h_ravel(Elab *E, Call *c, CV *out) {
    Type t = val_type(E->f, c->t[0]);
    if (t.rank == 0)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "ravel() expects a block, got %s",
                        elab_type_text(E, t));
    int32_t n = (int32_t)type_numel(t);
    ValId r;
    if (tl_shape_reshape(E, c->t[0], 1, &n, c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* x with dim j moved to the end: the swap of the last two dims of x seen
 * as [before j, j, after j] (no before: [j, after]); only reshapes when
 * the dim or what follows it has one element. */
static int move_to_end(Elab *E, ValId x, int j, Loc loc, ValId *out) {
    Type t = val_type(E->f, x);
    int32_t moved[MT_MAX_RANK], view[3];
    int64_t before = 1, after = 1;
    int n = 0;
    for (int i = 0; i < t.rank; i++) {
        if (i != j)
            moved[n++] = t.shape[i];
        if (i < j)
            before *= t.shape[i];
        if (i > j)
            after *= t.shape[i];
    }
    moved[n] = t.shape[j];
    ValId r = x;
    if (after > 1 && t.shape[j] > 1) {
        int nv = 0;
        if (before > 1)
            view[nv++] = (int32_t)before;
        view[nv++] = t.shape[j];
        view[nv++] = (int32_t)after;
        if (tl_shape_reshape(E, x, nv, view, loc, &r) < 0 ||
            elab_emit(E, OP_TRANS, loc, &r, 1, 0, 0, &r) < 0)
            return -1;
    }
    return tl_shape_reshape(E, r, t.rank, moved, loc, out);
}

/* x with its dims in the order dims[0..n) (Triton's semantic.permute). */
static int permute(Elab *E, ValId x, int n, const int64_t *dims, Loc loc, CV *out) {
    Type t = val_type(E->f, x);
    if (n != t.rank)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "permute dims must have the same length as the input shape: "
                        "%d dims for a rank-%d tensor", n, t.rank);
    bool seen[MT_MAX_RANK] = {false};
    bool identity = true, swap = n >= 2;
    for (int i = 0; i < n; i++) {
        if (dims[i] < 0 || dims[i] >= n || seen[dims[i]])
            return elab_err(E, loc, MT_ERR_TYPE,
                            "permute dims must be a permutation of 0, 1, ..., %d", n - 1);
        seen[dims[i]] = true;
        identity = identity && dims[i] == i;
        swap = swap && dims[i] == (i < n - 2 ? i : 2 * n - 3 - i);
    }
    ValId r = x;
    if (swap && !identity && elab_emit(E, OP_TRANS, loc, &x, 1, 0, 0, &r) < 0)
        return -1;
    /* each dim in the wanted order moves to the end in turn; where[k] is
     * the input dim now at position k */
    int where[MT_MAX_RANK];
    for (int i = 0; i < n; i++)
        where[i] = i;
    for (int i = 0; !swap && i < n; i++) {
        int j = 0;
        while (where[j] != dims[i])
            j++;
        if (move_to_end(E, r, j, loc, &r) < 0)
            return -1;
        for (int k = j; k + 1 < n; k++)
            where[k] = where[k + 1];
        where[n - 1] = (int)dims[i];
    }
    *out = cv_tensor(r);
    return 0;
}

/* permute(input, *dims) and trans(input, *dims); trans without dims swaps
 * the last two. */
int h_permute(Elab *E, Call *c, CV *out) {
    ValId x;
    CV none;
    Loc nloc;
    int n = 0;
    int64_t dims[MT_MAX_RANK];
    if (self_tensor(E, c, &x) < 0 || keyword(E, c, NULL, &none, &nloc) < 0 ||
        int_varargs(E, c, "dims", &n, dims) < 0)
        return -1;
    int rank = val_type(E->f, x).rank;
    if (n == 0 && !strcmp(c->b->display, "tl.trans")) {
        if (rank < 2)
            return elab_err(E, c->loc, MT_ERR_TYPE,
                            "tl.trans invoked with a %d-dimensional tensor (needs 2 or more)",
                            rank);
        for (int i = 0; i < rank; i++)
            dims[i] = i < rank - 2 ? i : 2 * rank - 3 - i;
        n = rank;
    }
    return permute(E, x, n, dims, c->loc, out);
}

/* x.T: permute(x, (1, 0)), as Triton's code generator writes it. */
int tl_shape_transpose(Elab *E, ValId x, Loc loc, CV *out) {
    static const int64_t swap[2] = {1, 0};
    return permute(E, x, 2, swap, loc, out);
}

/* x broadcast to type `to`'s shape: leading unit dims, then broadcast. */
int tl_broadcast_to(Elab *E, ValId x, Type to, Loc loc, ValId *out) {
    Type t = val_type(E->f, x);
    while (t.rank > 0 && t.rank < to.rank) {
        if (elab_expand_dims(E, x, 0, loc, &x) < 0)
            return -1;
        t = val_type(E->f, x);
    }
    Type want = type_with_elem(to, type_elem(t));
    if (type_eq(t, want)) {
        *out = x;
        return 0;
    }
    return elab_emit_typed(E, OP_BROADCAST, loc, &x, 1, 0, 0, want, out);
}

/* Triton's broadcast_impl_value: both operands in their common shape. */
static int broadcast_pair(Elab *E, ValId *a, ValId *b, Loc loc) {
    Type shape;
    Type ta = val_type(E->f, *a), tb = val_type(E->f, *b);
    if (broadcast_shapes(ta, tb, &shape) < 0)
        return elab_err(E, loc, MT_ERR_TYPE, "cannot broadcast %s and %s to one shape",
                        elab_type_text(E, ta), elab_type_text(E, tb));
    return tl_broadcast_to(E, *a, shape, loc, a) < 0 ? -1 : tl_broadcast_to(E, *b, shape, loc, b);
}

/* broadcast_to(input, *shape) */
int h_broadcast_to(Elab *E, Call *c, CV *out) {
    ValId x;
    CV none;
    Loc nloc;
    int n = 0;
    int64_t v[MT_MAX_RANK], numel;
    int32_t shape[MT_MAX_RANK];
    if (self_tensor(E, c, &x) < 0 || keyword(E, c, NULL, &none, &nloc) < 0 ||
        int_varargs(E, c, "shape", &n, v) < 0 || block_shape(E, c, n, v, shape, &numel) < 0)
        return -1;
    if (n == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE, "broadcast_to() needs a shape");
    Type from = val_type(E->f, x), t = type_block(type_elem(from), n, shape);
    if (!type_eq(t, from) && elab_emit_typed(E, OP_BROADCAST, c->loc, &x, 1, 0, 0, t, &x) < 0)
        return -1;
    *out = cv_tensor(x);
    return 0;
}

/* broadcast(input, other): the pair in their common shape. */
int h_broadcast(Elab *E, Call *c, CV *out) {
    ValId a = c->t[0], b = c->t[1];
    if (broadcast_pair(E, &a, &b, c->loc) < 0)
        return -1;
    *out = cv_tuple(E, 2);
    out->items[0] = cv_tensor(a);
    out->items[1] = cv_tensor(b);
    return 0;
}

/* join(a, b): the operands, broadcast to one shape, on a new last dim. */
static int join(Elab *E, ValId a, ValId b, Loc loc, ValId *out) {
    if (broadcast_pair(E, &a, &b, loc) < 0)
        return -1;
    ValId ab[2] = {a, b};
    return elab_emit(E, OP_JOIN, loc, ab, 2, 0, 0, out);
}

int h_join(Elab *E, Call *c, CV *out) {
    ValId r;
    if (join(E, c->t[0], c->t[1], c->loc, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* split(a) -> (a[..., 0], a[..., 1]). */
int h_split(Elab *E, Call *c, CV *out) {
    ValId x = c->t[0], lo, hi;
    Type t = val_type(E->f, x);
    if (t.rank == 0 || t.shape[t.rank - 1] != 2)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "split() needs a tensor whose last dim is 2, got %s",
                        elab_type_text(E, t));
    if (elab_emit(E, OP_SPLIT, c->loc, &x, 1, 0, 0, &lo) < 0 ||
        elab_emit(E, OP_SPLIT, c->loc, &x, 1, 1, 0, &hi) < 0)
        return -1;
    *out = cv_tuple(E, 2);
    out->items[0] = cv_tensor(lo);
    out->items[1] = cv_tensor(hi);
    return 0;
}

/* interleave(a, b): join(a, b) with its last two dims merged. */
int h_interleave(Elab *E, Call *c, CV *out) {
    ValId r;
    if (join(E, c->t[0], c->t[1], c->loc, &r) < 0)
        return -1;
    Type t = val_type(E->f, r);
    if (t.rank > 1) {
        int32_t shape[MT_MAX_RANK];
        for (int i = 0; i < t.rank - 1; i++)
            shape[i] = t.shape[i];
        shape[t.rank - 2] *= 2;
        if (tl_shape_reshape(E, r, t.rank - 1, shape, c->loc, &r) < 0)
            return -1;
    }
    *out = cv_tensor(r);
    return 0;
}

/* cat(input, other, can_reorder=False): Triton's cat requires
 * can_reorder=True and vectors; ours keeps the order. */
int h_cat(Elab *E, Call *c, CV *out) {
    CV reorder = c->a[2];
    if (!c->have[2] || !cv_is_intlike(reorder) || !reorder.i)
        return elab_err(E, c->have[2] ? c->locs[2] : c->loc, MT_ERR_TYPE,
                        "cat() needs can_reorder=True (Triton's cat may reorder elements)");
    ValId r, ab[2] = {c->t[0], c->t[1]};
    for (int i = 0; i < 2; i++)
        if (val_type(E->f, ab[i]).rank != 1)
            return elab_err(E, c->locs[i], MT_ERR_TYPE, "cat() expects rank-1 tensors, got %s",
                            elab_type_text(E, val_type(E->f, ab[i])));
    if (elab_emit(E, OP_CAT, c->loc, ab, 2, 0, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* flip(x, dim=None): dim None is the last dim. */
int h_flip(Elab *E, Call *c, CV *out) {
    ValId x = c->t[0], r;
    Type t = val_type(E->f, x);
    int64_t dim = t.rank - 1;
    if (t.rank == 0)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "flip() expects a block, got %s",
                        elab_type_text(E, t));
    if (c->have[1] && c->a[1].kind != CV_NONE &&
        builtin_norm_axis(E, c->a[1], t.rank, 0, c->locs[1], &dim) < 0)
        return -1;
    if (!pow2(t.shape[dim]))
        return elab_err(E, c->loc, MT_ERR_TYPE, "flip() dim %lld of size %d is not a power of 2",
                        (long long)dim, (int)t.shape[dim]);
    if (elab_emit(E, OP_FLIP, c->loc, &x, 1, dim, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* gather(src, index, axis), with Triton's checks (semantic.gather). */
int h_gather(Elab *E, Call *c, CV *out) {
    ValId src = c->t[0], index = c->t[1], r;
    Type st = val_type(E->f, src), it = val_type(E->f, index);
    int64_t axis;
    if (!type_is_int(it))
        return elab_err(E, c->locs[1], MT_ERR_TYPE, "index must be an integer tensor");
    if (st.rank != it.rank || st.rank == 0)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "source and index tensors must have the same rank");
    if (cv_need_int(E, c->a[2], c->locs[2], "axis", &axis) < 0)
        return -1;
    if (axis < -st.rank || axis >= st.rank)
        return elab_err(E, c->locs[2], MT_ERR_TYPE, "gather axis %lld must be < source rank (%d)",
                        (long long)axis, st.rank);
    if (axis < 0)
        axis += st.rank;
    for (int d = 0; d < st.rank; d++)
        if (d != axis && st.shape[d] != it.shape[d])
            return elab_err(E, c->loc, MT_ERR_TYPE,
                            "index dim %lld must match the corresponding source dim",
                            (long long)axis);
    if (elab_emit(E, OP_GATHER, c->loc, (ValId[2]){src, index}, 2, axis, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* expand_dims(input, axis): axis an int or a sequence of them, each an
 * index into the result; inserted in increasing order. */
int h_expand_dims(Elab *E, Call *c, CV *out) {
    ValId x = c->t[0];
    CV axis = c->a[1];
    const CV *items = &axis;
    int n = 1;
    if (axis.kind == CV_TUPLE) {
        items = axis.items;
        n = axis.n;
    }
    int rank = val_type(E->f, x).rank, new_rank = rank + n;
    if (new_rank > MT_MAX_RANK)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "expand_dims to rank %d exceeds the maximum rank %d", new_rank,
                        MT_MAX_RANK);
    bool at[MT_MAX_RANK] = {false}, dup = false;
    int64_t axes[MT_MAX_RANK];
    for (int i = 0; i < n; i++) {
        int64_t ax;
        if (cv_need_int(E, items[i], c->locs[1], "axis", &ax) < 0)
            return -1;
        if (ax < -new_rank || ax >= new_rank) /* Triton's _wrap_axis */
            return elab_err(E, c->locs[1], MT_ERR_TYPE,
                            "invalid axis %lld. Expected %d <= axis < %d", (long long)ax,
                            -new_rank, new_rank);
        axes[i] = ax < 0 ? ax + new_rank : ax;
        dup = dup || at[axes[i]];
        at[axes[i]] = true;
    }
    if (dup) {
        StrBuf sb;
        sb_init(&sb);
        for (int i = 0; i < n; i++)
            sb_printf(&sb, i ? ", %lld" : "%lld", (long long)axes[i]);
        int rc = elab_err(E, c->locs[1], MT_ERR_TYPE,
                          "expand_dims received duplicate axes, normalized axes = [%s]",
                          sb_str(&sb));
        sb_free(&sb);
        return rc;
    }
    for (int ax = 0; ax < new_rank; ax++)
        if (at[ax] && elab_expand_dims(E, x, ax, c->loc, &x) < 0)
            return -1;
    *out = cv_tensor(x);
    return 0;
}
