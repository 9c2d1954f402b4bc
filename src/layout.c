/* layout.c: which thread holds which element of every block value.
 *
 * Input: a verified, optimised Func.  Output: f->layouts and Value.layout
 * for every block value (scalars keep -1).  A layout is a Triton "blocked"
 * layout (see mt.h) made for a parent shape; a rank-1 value may instead be
 * a slice (slice_dim) of a rank-2 layout, so that offs[:, None] or a row
 * reduction costs no data movement.
 *
 * The assignment is a heuristic and nothing depends on it for
 * correctness: after it, every use whose operand sits in another
 * distribution than the op reads it in gets an explicit convert_layout op
 * (one per use, right before the user; a yield's at the end of the loop
 * body), marked CONVERT_RECOMPUTE when the value is made only of aranges,
 * fills, scalars and pure elementwise ops (cuda.c recomputes it in place)
 * and CONVERT_SHARED otherwise (a trip through shared memory).  Invariant
 * afterwards: Value.layout is exactly where the emitter holds the value,
 * a reduction's result included.  The heuristic: values that meet in an
 * elementwise op (same rank) or through a loop carry form one group,
 * except that layouts follow the data, not the index math: cheap index
 * math broadcast into an op, and a rank-2 load's pointers, mask and other,
 * are loose (held as their first user's group, recomputed elsewhere); an
 * accumulator's store keeps its pointers' layout and converts its value
 * (the epilogue); a rank-2 trans is held as its operand's layout with the
 * dims swapped (no data moves).  A group gets the canonical layout of the
 * broadcast of its members' shapes (a dot's accumulator group: the dot's
 * register tile, see dot_layout); a rank-1 group that feeds expand_dims,
 * comes out of a rank-2 reduction, or is broadcast into a rank-2 op becomes
 * a slice of that rank-2 group's layout (first link in program order wins).
 *
 * Limits checked here: block rank <= 2 and power-of-two dims
 * (MT_ERR_UNSUPPORTED at the op that makes or reads the value); a shape
 * op may make a block of rank > 2 for shape ops of one operand to read
 * (no layout: cuda_shape.c composes their index maps). */
#include "mt.h"

#include <string.h>

typedef struct Link {
    ValId one;  /* a member of the rank-1 group */
    ValId two;  /* a member of the rank-2 group */
    int axis;   /* parent dim the rank-1 value lacks */
} Link;

typedef struct Assign {
    Func *f;
    int *parent;   /* union-find over ValIds */
    int32_t (*shape)[2]; /* a root's group: the broadcast of its rank-2 shapes */
    bool *acc;     /* holds a tensor-core accumulator (mark_accumulators) */
    bool *acc_loop; /* ... one a loop carries (a pipelined K loop's) */
    ValId *trans_of; /* a rank-2 trans's result: its operand (else 0) */
    bool *epilogue_ptr; /* the pointers of an accumulator's store */
    Link *links;
    int nlinks, caplinks;
    Link *loose;   /* loose broadcasts (one) and their first users (two) */
    int nloose, caploose;
} Assign;

static int find(Assign *a, int v) {
    while (a->parent[v] != v) {
        a->parent[v] = a->parent[a->parent[v]];
        v = a->parent[v];
    }
    return v;
}

static void unite(Assign *a, ValId x, ValId y) {
    int rx = find(a, x), ry = find(a, y);
    if (rx == ry)
        return;
    int root = ry < rx ? ry : rx, other = ry < rx ? rx : ry;
    a->parent[other] = root;
    for (int d = 0; d < 2; d++)
        if (a->shape[other][d] > a->shape[root][d])
            a->shape[root][d] = a->shape[other][d];
}

/* May a rank-2 operand x broadcast into the group of anchor?  Not when
 * their groups hold different sizes of one dim: offs[:, None] shared by
 * a [64, 128] load's and a [64, 64] store's pointers would otherwise make
 * one [128, 128] group of both (no dot's register tile fits it); apart,
 * the operand is converted where it is read (mostly recomputed). */
static bool shapes_agree(Assign *a, ValId x, ValId anchor) {
    int rx = find(a, x), ra = find(a, anchor);
    for (int d = 0; d < 2; d++) {
        int32_t sx = a->shape[rx][d], sa = a->shape[ra][d];
        if (sx != sa && sx > 1 && sa > 1)
            return false;
    }
    return true;
}

static int rank_of(Func *f, ValId v) { return v ? val_type(f, v).rank : 0; }

static bool is_region_op(const Op *op) { return op_info[op->code].flags & F_REGION; }

/* Is rank-2 operand x of op anchored at `anchor` cheap index math that
 * the op broadcasts (length 1 where the anchor is longer)?  Such a value
 * (offs[:, None] * stride) joins no group: it takes the layout of its
 * first user's group (Assign.loose) and is recomputed where other users
 * read it, so the row indices a load's pointers and a store's pointers
 * share do not force the load and the store into one layout. */
static bool loose_broadcast(Func *f, ValId x, ValId anchor) {
    Type t = val_type(f, x), at = val_type(f, anchor);
    bool broadcast = false;
    for (int d = 0; d < 2; d++)
        broadcast |= t.shape[d] == 1 && at.shape[d] > 1;
    return broadcast && cuda_recomputable(f, x);
}

/* The largest tensor-core accumulator (in bytes) a store converts
 * through shared memory to a layout of 16-byte accesses, as Triton's
 * epilogue does; past it the store writes from the accumulator's own
 * layout (8-byte pieces).  After a K loop whose tiles take the dynamic
 * shared memory the scratch lies over them (smemplan.c), as Triton
 * reuses its pipeline's buffers. */
#define EPILOGUE_SCRATCH_MAX 131072
#define EPILOGUE_LOOP_SCRATCH_MAX 131072

/* a->acc of every value that holds a tensor-core dot's accumulator, or an
 * elementwise function of one of its shape (bias, activation, cast), in
 * definition order; a loop's or if's result holds one when its yield
 * does.  A store of such a value gets a layout of its own (walk). */
static void mark_accumulators(Assign *a, Region *r) {
    Func *f = a->f;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            mark_accumulators(a, rs[k]);
        if (is_region_op(op)) {
            for (int k = 0; k < op->nres; k++) {
                a->acc[op->res[k]] = (op->yields && op->yields[k] && a->acc[op->yields[k]]) ||
                                     (op->code == OP_IF && op->alt_yields[k] &&
                                      a->acc[op->alt_yields[k]]);
                a->acc_loop[op->res[k]] = a->acc[op->res[k]] && op->code != OP_IF;
            }
            continue;
        }
        if (!op->nres || rank_of(f, op->res[0]) != 2)
            continue;
        if (op->code == OP_DOT) {
            a->acc[op->res[0]] = dot_unit(f, op) != DOT_FMA;
            continue;
        }
        if (op_info[op->code].kind != K_ELEMENTWISE)
            continue;
        Type rt = val_type(f, op->res[0]);
        for (int k = 0; k < op->nargs; k++) {
            ValId x = op->args[k];
            if (x && a->acc[x] && !memcmp(val_type(f, x).shape, rt.shape, sizeof(int32_t) * 2)) {
                a->acc[op->res[0]] = true;
                a->acc_loop[op->res[0]] |= a->acc_loop[x];
            }
        }
    }
}

/* A store of an accumulator small enough to convert: its pointers keep a
 * layout of their own (16-byte groups) and its value is converted. */
static bool epilogue_store(Assign *a, const Op *op) {
    if (op->code != OP_STORE || rank_of(a->f, op->args[1]) != 2 || !a->acc[op->args[1]])
        return false;
    Type t = val_type(a->f, op->args[1]);
    return type_numel(t) * dtype_info[t.dtype].bytes <=
           (a->acc_loop[op->args[1]] ? EPILOGUE_LOOP_SCRATCH_MAX : EPILOGUE_SCRATCH_MAX);
}

static void add_link(Assign *a, ValId one, ValId two, int axis) {
    Link l = {one, two, axis};
    VEC_PUSH(a->f->arena, a->links, a->nlinks, a->caplinks, l);
}

static int check_value(Func *f, ValId v, Loc loc, bool wide) {
    Type t = val_type(f, v);
    if (t.rank > 2 && !wide && f->unsliced)
        return diag_error(f->ctx, f->unsliced->loc, MT_ERR_UNSUPPORTED,
                          "blocks of rank %d are not supported (at most 2): the CUDA "
                          "lowering cannot slice this %s into blocks of rank 2",
                          t.rank, op_info[f->unsliced->code].name);
    if (t.rank > 2 && !wide)
        return diag_error(f->ctx, loc, MT_ERR_UNSUPPORTED,
                          "blocks of rank %d are not supported (at most 2)",
                          t.rank);
    for (int d = 0; d < t.rank; d++) {
        int32_t n = t.shape[d];
        if (n <= 0 || (n & (n - 1)) != 0)
            return diag_error(f->ctx, loc, MT_ERR_UNSUPPORTED,
                              "block dimension %d is not a power of two", n);
    }
    return 0;
}

/* Ops whose result element i goes with operand element i (ops.def kinds). */
static bool is_elementwise(int code) {
    int k = op_info[code].kind;
    return k == K_ELEMENTWISE || k == K_CONSTRUCTOR || k == K_MEMORY;
}

/* Where a region op's carried inputs start among its operands (for: after
 * start, stop and step; while: at 0); -1 for an if, which has none. */
static int first_carry(const Op *op) {
    return op->code == OP_FOR ? 3 : op->code == OP_WHILE ? 0 : -1;
}

static int walk(Assign *a, Region *r) {
    Func *f = a->f;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        /* shape ops make and read blocks of rank > 2 that no layout
         * holds (cuda_shape.c reads through them); a two-operand one
         * reads held blocks only */
        bool gather = op_info[op->code].kind == K_GATHER;
        for (int k = 0; k < op->nres; k++)
            if (check_value(f, op->res[k], op->loc, gather && op->code != OP_GATHER) < 0)
                return -1;
        for (int k = 0; k < op->nargs; k++)
            if (op->args[k] &&
                check_value(f, op->args[k], op->loc, gather && op->nargs == 1) < 0)
                return -1;
        if (is_region_op(op)) {
            /* a result, its carried argument, its input and what every
             * region yields for it share one layout */
            int first = first_carry(op);
            for (int k = 0; k < op->nres; k++) {
                if (!val_type(f, op->res[k]).rank)
                    continue;
                if (op->iters)
                    unite(a, op->res[k], op->iters[k]);
                if (first >= 0)
                    unite(a, op->res[k], op->args[first + k]);
                if (op->yields[k])
                    unite(a, op->res[k], op->yields[k]);
                if (op->code == OP_IF && op->alt_yields[k])
                    unite(a, op->res[k], op->alt_yields[k]);
            }
            Region *rs[2];
            for (int k = 0, n = op_regions(op, rs); k < n; k++)
                if (walk(a, rs[k]) < 0)
                    return -1;
            continue;
        }
        if (op->code == OP_GATHER) { /* the index is read where the result is */
            unite(a, op->res[0], op->args[1]);
            continue;
        }
        if (op->code == OP_TRANS && rank_of(f, op->args[0]) == 2 && rank_of(f, op->res[0]) == 2) {
            a->trans_of[op->res[0]] = op->args[0];
            continue;
        }
        if (op->code == OP_EXPAND_DIMS) {
            if (rank_of(f, op->args[0]) == 1 && rank_of(f, op->res[0]) == 2)
                add_link(a, op->args[0], op->res[0], (int)op->attr[0]);
            continue;
        }
        if (op_info[op->code].kind == K_REDUCE) {
            for (int k = 0; k < op->nres; k++) {
                unite(a, op->args[0], op->args[k]);
                if (rank_of(f, op->args[0]) == 2)
                    add_link(a, op->res[k], op->args[0], (int)op->attr[0]);
            }
            continue;
        }
        if (op_info[op->code].kind == K_SCAN) { /* results where operands are */
            for (int k = 0; k < op->nres; k++) {
                unite(a, op->args[0], op->args[k]);
                unite(a, op->args[0], op->res[k]);
            }
            continue;
        }
        if (op->code == OP_DOT) {
            if (op->args[2])
                unite(a, op->res[0], op->args[2]);
            continue;
        }
        if (op_info[op->code].kind == K_ASM || op_info[op->code].kind == K_MAP) {
            /* one shape, one layout */
            for (int k = 0; k < op->nargs && rank_of(f, op->res[0]); k++)
                unite(a, op->res[0], op->args[k]);
            for (int k = 1; k < op->nres && rank_of(f, op->res[0]); k++)
                unite(a, op->res[0], op->res[k]);
            continue;
        }
        if (!is_elementwise(op->code))
            continue;
        /* the widest block among result and operands anchors the group */
        ValId anchor = op->nres ? op->res[0] : 0;
        for (int k = 0; k < op->nargs; k++)
            if (rank_of(f, op->args[k]) > rank_of(f, anchor))
                anchor = op->args[k];
        int ar = rank_of(f, anchor);
        if (!ar)
            continue;
        /* a rank-2 load takes its consumers' layout, its index math
         * loose (held as the load's unless an earlier user took it); an
         * accumulator's store takes its pointers' layout */
        bool load2 = op->code == OP_LOAD && ar == 2;
        bool epilogue = epilogue_store(a, op);
        if (epilogue)
            a->epilogue_ptr[op->args[0]] = true;
        for (int k = 0; k < op->nargs; k++) {
            ValId x = op->args[k];
            int xr = rank_of(f, x);
            if (xr == 2 && ar == 2 &&
                (loose_broadcast(f, x, anchor) || (load2 && cuda_recomputable(f, x)))) {
                Link l = {x, anchor, -1};
                VEC_PUSH(f->arena, a->loose, a->nloose, a->caploose, l);
                continue;
            }
            if (xr == 2 && ar == 2 && epilogue && k == 1)
                continue; /* the accumulator is converted to the pointers' layout */
            if (xr == 2 && ar == 2 && (a->trans_of[x] || a->trans_of[anchor]))
                continue; /* a trans keeps its operand's layout, transposed */
            if (xr == ar && (ar != 2 || shapes_agree(a, x, anchor)))
                unite(a, anchor, x);
            else if (xr == 1 && ar == 2)
                add_link(a, x, anchor, 0); /* right-aligned broadcast */
        }
        if (op->nres && rank_of(f, op->res[0]) == ar && !(ar == 2 && a->trans_of[anchor]))
            unite(a, anchor, op->res[0]);
    }
    return 0;
}

static int32_t clamp32(int64_t v, int32_t lo, int32_t hi) {
    return v < lo ? lo : v > hi ? hi : (int32_t)v;
}

/* The canonical layout of a shape for T = 32 * num_warps threads, with at
 * most `vec` consecutive elements per thread along the fastest dim (four,
 * or 16 bytes of the group's narrowest memory type: eight halves, as
 * Triton's 128-bit accesses). */
static Layout canonical(int rank, const int32_t *shape, int num_warps, int vec) {
    Layout l;
    memset(&l, 0, sizeof l);
    l.rank = rank;
    l.slice_dim = -1;
    int64_t threads = 32LL * num_warps;
    if (rank == 1) {
        l.shape[0] = shape[0];
        l.spt[0] = clamp32(shape[0] / threads, 1, vec);
        if (l.spt[0] > shape[0])
            l.spt[0] = shape[0];
        l.tpw[0] = 32;
        l.wpc[0] = num_warps;
        l.order[0] = 0;
        return l;
    }
    l.shape[0] = shape[0];
    l.shape[1] = shape[1];
    int64_t numel = (int64_t)shape[0] * shape[1];
    l.spt[1] = clamp32(numel / threads, 1, vec);
    if (l.spt[1] > shape[1])
        l.spt[1] = shape[1];
    l.tpw[1] = clamp32(shape[1] / l.spt[1], 1, 32);
    l.tpw[0] = 32 / l.tpw[1];
    l.spt[0] = 1;
    int32_t fit = shape[0] / (l.spt[0] * l.tpw[0]);
    int32_t w0 = 1;
    while (w0 * 2 <= num_warps && w0 * 2 <= fit)
        w0 *= 2;
    l.wpc[0] = w0;
    l.wpc[1] = num_warps / w0;
    l.order[0] = 1;
    l.order[1] = 0;
    return l;
}

/* The accumulator of a tensor-core dot (dot_unit): blocked parameters
 * spt [1, 2], tpw [8, 4] make each warp's 8 x 8 piece the rows g and
 * columns 2t, 2t + 1 that lane 4g + t holds of an m16n8 accumulator, and
 * the tile's repetitions 2i and 2i + 1 along M (8 * wpc[0] rows apart)
 * are the two halves of the warp's i-th m16 tile (cuda_mma.c gathers the
 * A rows to match through ldmatrix's per-lane addresses).  Warps split M
 * and N as evenly as the 16 x 8 granules allow; for wgmma's warpgroups
 * (`warpgroups`) every warp is along M, and A's rows are permuted in
 * shared memory to match (SharedBuffer.perm_warps).  False when no split
 * fits. */
static bool mma_layout(const int32_t *shape, int num_warps, bool warpgroups, Layout *out) {
    int best = 0;
    int64_t best_gap = -1;
    for (int wm = warpgroups ? num_warps : 1; wm <= num_warps; wm *= 2) {
        int wn = num_warps / wm;
        /* more warps along N than n8 groups: the extra warps hold copies
         * (the columns wrap, as any layout wider than its block), which
         * costs them, so only where no exact split fits */
        bool copies = 8 * wn > shape[1];
        if (shape[0] % (16 * wm) || shape[1] % 8 || (!copies && shape[1] % (8 * wn)) ||
            (copies && (8 * wn) % shape[1]))
            continue;
        int64_t gap = shape[0] / wm - (copies ? 8 : shape[1] / wn);
        gap = (gap < 0 ? -gap : gap) + (copies ? (int64_t)1 << 40 : 0);
        if (best_gap < 0 || gap < best_gap) {
            best = wm;
            best_gap = gap;
        }
    }
    if (!best)
        return false;
    Layout l;
    memset(&l, 0, sizeof l);
    l.rank = 2;
    l.kind = LAYOUT_MMA;
    l.slice_dim = -1;
    l.shape[0] = shape[0];
    l.shape[1] = shape[1];
    l.spt[0] = 1;
    l.spt[1] = 2;
    l.tpw[0] = 8;
    l.tpw[1] = 4;
    l.wpc[0] = best;
    l.wpc[1] = num_warps / best;
    l.order[0] = 1;
    l.order[1] = 0;
    *out = l;
    return true;
}

/* The register tile of a dot result: each thread owns E0 x E1 outputs
 * (E0 * E1 = BM * BN / threads, both multiples of 4, as square as
 * possible) in 4 x 4 blocks (spt = [4, 4]) that repeat with the tile, so
 * cuda.c can read A (stored transposed) and B from shared memory as float4
 * and reuse each value E1 or E0 times.  Returns false when the tile is too
 * small for that (fewer than 16 outputs per thread), leaving the canonical
 * layout. */
static bool dot_layout(const int32_t *shape, int num_warps, Layout *out) {
    int64_t threads = 32LL * num_warps;
    int64_t total = (int64_t)shape[0] * shape[1] / threads;
    if (total < 16 || shape[0] % 4 || shape[1] % 4)
        return false;
    int64_t e0 = 4, e1 = 4;
    while (e0 * e1 < total) {
        if (e1 <= e0)
            e1 *= 2;
        else
            e0 *= 2;
    }
    if (e0 * e1 != total || shape[0] % e0 || shape[1] % e1)
        return false;
    int64_t rows = shape[0] / e0, cols = shape[1] / e1; /* threads per dim */
    if (rows * cols != threads)
        return false;
    Layout l;
    memset(&l, 0, sizeof l);
    l.rank = 2;
    l.kind = LAYOUT_DOT_TILE;
    l.slice_dim = -1;
    l.shape[0] = shape[0];
    l.shape[1] = shape[1];
    l.spt[0] = l.spt[1] = 4;
    l.tpw[1] = (int32_t)(cols < 32 ? cols : 32);
    l.tpw[0] = 32 / l.tpw[1];
    if (rows < l.tpw[0] || rows % l.tpw[0] || cols % l.tpw[1])
        return false;
    l.wpc[0] = (int32_t)(rows / l.tpw[0]);
    l.wpc[1] = (int32_t)(cols / l.tpw[1]);
    if (l.wpc[0] * l.wpc[1] != num_warps)
        return false;
    l.order[0] = 1;
    l.order[1] = 0;
    *out = l;
    return true;
}

static int intern_layout(Func *f, const Layout *l) {
    for (int i = 0; i < f->nlayouts; i++)
        if (memcmp(&f->layouts[i], l, sizeof *l) == 0)
            return i;
    int n = f->nlayouts;
    if ((n & (n - 1)) == 0) { /* capacity is the next power of two */
        Layout *grown = arena_alloc(f->arena, sizeof(Layout) *
                                                  (size_t)(n ? 2 * n : 4));
        if (!grown)
            return -1;
        if (n)
            memcpy(grown, f->layouts, sizeof(Layout) * (size_t)n);
        f->layouts = grown;
    }
    f->layouts[n] = *l;
    f->nlayouts = n + 1;
    return n;
}

/* ------------------------------------------------ explicit conversions */

/* Value dim i of a value of rank `rank` held in layout l -> parent dim. */
static void parent_dims(const Layout *l, int rank, int pdim[2]) {
    pdim[0] = 0;
    pdim[1] = 1;
    if (l->rank != rank) /* rank-1 value in a rank-2 layout */
        pdim[0] = l->slice_dim == 0 ? 1 : 0;
}

bool layout_same_params(const Layout *a, const Layout *b) {
    if (a->rank != b->rank)
        return false;
    for (int d = 0; d < a->rank; d++)
        if (a->spt[d] != b->spt[d] || a->tpw[d] != b->tpw[d] ||
            a->wpc[d] != b->wpc[d] || a->order[d] != b->order[d])
            return false;
    return true;
}

/* The layout an op whose result (or reference value) `ref` is held in
 * needs for operand x, whose value dim i is ref's dim map[i] (NULL:
 * right-aligned broadcasting): ref's parameters, x sliced where it lacks
 * one of ref's parent dims. */
static Layout wanted(Func *f, ValId ref, ValId x, const int *xmap) {
    const Layout *rl = &f->layouts[val(f, ref)->layout];
    Type rt = val_type(f, ref), t = val_type(f, x);
    int rp[2], map0 = xmap ? xmap[0] : rt.rank - t.rank;
    parent_dims(rl, rt.rank, rp);
    Layout w = *rl;
    w.slice_dim = rl->rank == 2 && t.rank == 1 ? 1 - rp[map0] : -1;
    return w;
}

/* Does x, held as its layout says, already sit where `want` needs it
 * (same parameters, same parent dim for every dim longer than 1)? */
static bool fits(Func *f, ValId x, const Layout *want) {
    const Layout *have = &f->layouts[val(f, x)->layout];
    Type t = val_type(f, x);
    if (!layout_same_params(have, want))
        return false;
    int hp[2], wp[2];
    parent_dims(have, t.rank, hp);
    parent_dims(want, t.rank, wp);
    for (int i = 0; i < t.rank; i++)
        if (t.shape[i] > 1 && hp[i] != wp[i])
            return false;
    return true;
}

typedef struct Conv {
    Func *f;
    Op **out;        /* the region being rebuilt */
    int nout, capout;
} Conv;

/* x as operand of an op reading it against ref (map as in wanted): x
 * itself when it fits, else the result of a new convert_layout op
 * appended to the region being rebuilt. */
static ValId converted(Conv *cv, ValId x, ValId ref, const int *map, Loc loc) {
    Func *f = cv->f;
    if (!x || !val_type(f, x).rank)
        return x;
    Layout w = wanted(f, ref, x, map);
    if (fits(f, x, &w))
        return x;
    int li = intern_layout(f, &w);
    if (li < 0)
        return 0;
    Op *op = op_new(f, NULL, OP_CONVERT_LAYOUT, loc, val_type(f, x), &x, 1);
    op->attr[0] = cuda_recomputable(f, x) ? CONVERT_RECOMPUTE : CONVERT_SHARED;
    val(f, op->res[0])->layout = li;
    VEC_PUSH(f->arena, cv->out, cv->nout, cv->capout, op);
    return op->res[0];
}

/* The reference value an op reads its block operands against (0: none,
 * the op reads its operands where they are). */
static ValId reference(Func *f, const Op *op) {
    if (op_info[op->code].kind == K_GATHER) /* cuda_shape.c reads them */
        return 0;
    switch (op->code) {
    case OP_STORE:
        return val_type(f, op->args[0]).rank ? op->args[0] : 0;
    case OP_FOR: case OP_IF: case OP_WHILE: case OP_CONVERT_LAYOUT:
        return 0;
    default:
        if (op_info[op->code].kind == K_REDUCE)
            return 0;
        return op->nres && val_type(f, op->res[0]).rank ? op->res[0] : 0;
    }
}

static int convert_region(Func *f, Region *r);

/* The n yields ys of region r, converted at its end to the layouts of
 * the op's results (the carried values, for a loop). */
static void convert_yields(Func *f, Op *op, Region *r, ValId *ys, int n) {
    Conv in = {f, r->ops, r->nops, r->cap};
    for (int k = 0; k < n; k++)
        ys[k] = converted(&in, ys[k], op->res[k], NULL, op->loc);
    r->ops = in.out;
    r->nops = in.nout;
    r->cap = in.capout;
}

static int convert_op(Conv *cv, Op *op) {
    Func *f = cv->f;
    if (is_region_op(op)) {
        int first = first_carry(op);
        for (int k = 0; first >= 0 && k < op->nres; k++)
            op->args[first + k] = converted(cv, op->args[first + k], op->res[k], NULL,
                                            op->loc);
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (convert_region(f, rs[k]) < 0)
                return -1;
        convert_yields(f, op, op->body, op->yields, op->nres);
        if (op->code == OP_IF)
            convert_yields(f, op, op->alt, op->alt_yields, op->nres);
        return 0;
    }
    ValId ref = reference(f, op);
    if (op->code == OP_GATHER) /* the index where the result is (cuda_shape.c) */
        op->args[1] = converted(cv, op->args[1], op->res[0], NULL, op->loc);
    if (op_info[op->code].kind == K_REDUCE) /* operands where the first is */
        for (int k = 1; k < op->nargs; k++)
            op->args[k] = converted(cv, op->args[k], op->args[0], NULL, op->loc);
    if (!ref)
        return 0;
    if (op->code == OP_DOT) { /* only the accumulator; A and B go to
                                 shared memory from where they are */
        op->args[2] = converted(cv, op->args[2], ref, NULL, op->loc);
        return 0;
    }
    int map[1] = {op->attr[0] == 0 ? 1 : 0};
    bool expand = op->code == OP_EXPAND_DIMS &&
                  val_type(f, op->args[0]).rank == 1 &&
                  val_type(f, op->res[0]).rank == 2;
    for (int i = op->code == OP_STORE ? 1 : 0; i < op->nargs; i++)
        op->args[i] = converted(cv, op->args[i], ref, expand ? map : NULL,
                                op->loc);
    return 0;
}

/* Rebuilds r with a convert_layout op before each use that needs its
 * operand in another distribution.  Every conversion has exactly one
 * user, so the emitter materialises it where that user reads it. */
static int convert_region(Func *f, Region *r) {
    Conv cv = {f, NULL, 0, 0};
    for (int i = 0; i < r->nops; i++) {
        if (convert_op(&cv, r->ops[i]) < 0)
            return -1;
        VEC_PUSH(f->arena, cv.out, cv.nout, cv.capout, r->ops[i]);
    }
    r->ops = cv.out;
    r->nops = cv.nout;
    r->cap = cv.capout;
    return 0;
}

/* A reduction's result is held as a slice of its operand's own layout
 * (no data moves); its group's layout, when different, is reached
 * through a conversion like any other. */
static int reduce_layouts(Func *f, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            if (reduce_layouts(f, rs[k]) < 0)
                return -1;
        if (op_info[op->code].kind != K_REDUCE ||
            val_type(f, op->args[0]).rank != 2)
            continue;
        Layout l = f->layouts[val(f, op->args[0])->layout];
        int pd[2];
        parent_dims(&l, 2, pd);
        l.slice_dim = pd[op->attr[0]];
        int li = intern_layout(f, &l);
        if (li < 0)
            return -1;
        for (int k = 0; k < op->nres; k++)
            val(f, op->res[k])->layout = li;
    }
    return 0;
}

static bool is_mma(Func *f, int layout) {
    return layout >= 0 && f->layouts[layout].kind == LAYOUT_MMA;
}

/* The group layouts being chosen (layout_assign). */
typedef struct Groups {
    Func *f;
    Assign *a;
    int32_t (*shape)[2];
    int *vec, *layout;
    int *first_user; /* a loose group's first user's group, or -1 */
    ValId *trans_of; /* a group holding a trans's result: the operand */
} Groups;

/* l with its two dims swapped: a trans of a value held as l moves no
 * data when its result is held so (cuda_shape.c finds it free). */
static Layout transposed_layout(const Layout *l) {
    Layout t = *l;
    t.kind = LAYOUT_BLOCKED;
    t.slice_dim = -1;
    for (int d = 0; d < 2; d++) {
        t.shape[d] = l->shape[1 - d];
        t.spt[d] = l->spt[1 - d];
        t.tpw[d] = l->tpw[1 - d];
        t.wpc[d] = l->wpc[1 - d];
        t.order[d] = 1 - l->order[d];
    }
    return t;
}

/* Gives rank-2 group g its layout: a trans's group its operand's,
 * transposed; a loose group its first user's, found first (a chain of
 * loose groups, the mask pieces of a load's mask); any other the
 * canonical one. */
static void hold_group(Groups *gs, int g, int depth) {
    if (gs->layout[g] >= 0)
        return;
    ValId src = gs->trans_of[g];
    if (src && depth < 64) {
        int gsrc = find(gs->a, src);
        hold_group(gs, gsrc, depth + 1);
        Layout l = transposed_layout(&gs->f->layouts[gs->layout[gsrc]]);
        gs->layout[g] = intern_layout(gs->f, &l);
        return;
    }
    int u = gs->first_user[g];
    if (u >= 0 && depth < 64) {
        hold_group(gs, u, depth + 1);
        gs->layout[g] = gs->layout[u];
        return;
    }
    Layout l = canonical(2, gs->shape[g], gs->f->num_warps, gs->vec[g]);
    gs->layout[g] = intern_layout(gs->f, &l);
}

/* n zeroed bytes of the compilation's arena, or NULL. */
static void *zeroed(Func *f, size_t n) {
    void *p = arena_alloc(f->arena, n);
    if (p)
        memset(p, 0, n);
    return p;
}

/* The union-find and the per-value facts walk reads and writes. */
static int assign_init(Assign *a, Func *f) {
    size_t n = (size_t)f->nvals;
    a->f = f;
    a->parent = arena_alloc(f->arena, sizeof(int) * n);
    a->shape = arena_alloc(f->arena, sizeof(*a->shape) * n);
    a->acc = zeroed(f, sizeof(bool) * n);
    a->acc_loop = zeroed(f, sizeof(bool) * n);
    a->epilogue_ptr = zeroed(f, sizeof(bool) * n);
    a->trans_of = zeroed(f, sizeof(ValId) * n);
    if (!a->parent || !a->shape || !a->acc || !a->acc_loop || !a->epilogue_ptr || !a->trans_of)
        return -1;
    for (int v = 0; v < f->nvals; v++) {
        a->parent[v] = v;
        Type t = v ? val_type(f, v) : type_scalar(DT_I32);
        a->shape[v][0] = t.rank == 2 ? t.shape[0] : 0;
        a->shape[v][1] = t.rank == 2 ? t.shape[1] : 0;
    }
    mark_accumulators(a, &f->body);
    return 0;
}

/* Each group's parent shape (the broadcast of its members' shapes) and
 * vector width (16 bytes of its narrowest memory type, at least 4). */
static void group_shapes(Assign *a, int32_t (*gshape)[2], int *gvec) {
    Func *f = a->f;
    for (int v = 0; v < f->nvals; v++)
        gvec[v] = 4;
    for (int v = 1; v < f->nvals; v++) {
        Type t = val_type(f, v);
        if (!t.rank)
            continue;
        int g = find(a, v);
        for (int d = 0; d < t.rank && d < 2; d++)
            if (t.shape[d] > gshape[g][d])
                gshape[g][d] = t.shape[d];
        bool loaded = f->vals[v].kind == VK_OP && f->vals[v].def &&
                      f->vals[v].def->code == OP_LOAD;
        if ((t.is_ptr || loaded) && 16 / dtype_info[t.dtype].bytes > gvec[g])
            gvec[g] = 16 / dtype_info[t.dtype].bytes;
    }
}

/* A dot's accumulator group gets the dot's register tile (mma, wgmma or
 * the FMA tile) when its parent shape is the dot's. */
static void dot_groups(Assign *a, int32_t (*gshape)[2], int *glayout) {
    Func *f = a->f;
    for (int v = 1; v < f->nvals; v++) {
        Value *x = &f->vals[v];
        int g = find(a, v);
        if (x->kind != VK_OP || !x->def || x->def->code != OP_DOT ||
            glayout[g] >= 0 || x->type.rank != 2 ||
            gshape[g][0] != x->type.shape[0] || gshape[g][1] != x->type.shape[1])
            continue;
        Layout l;
        DotUnit u = dot_unit(f, x->def);
        if ((u != DOT_FMA && mma_layout(gshape[g], f->num_warps, dot_unit_wgmma(u), &l)) ||
            (x->type.dtype == DT_F32 && dot_layout(gshape[g], f->num_warps, &l)))
            glayout[g] = intern_layout(f, &l);
    }
}

/* Each loose group's first user's group (-1: none): the first, or the
 * first not holding a tensor-core accumulator; never an accumulator's
 * for the pointers of its store (those a load into the epilogue shares
 * with the store stay in 16-byte groups for the store).  Also each group
 * holding a trans's result: the trans's operand. */
static int user_groups(Assign *a, const int *glayout, Groups *gs) {
    Func *f = a->f;
    int *first_user = arena_alloc(f->arena, sizeof(int) * (size_t)f->nvals);
    bool *keep = zeroed(f, sizeof(bool) * (size_t)f->nvals);
    ValId *gtrans = zeroed(f, sizeof(ValId) * (size_t)f->nvals);
    if (!first_user || !keep || !gtrans)
        return -1;
    for (int v = 0; v < f->nvals; v++)
        first_user[v] = -1;
    for (int v = 1; v < f->nvals; v++) {
        if (a->epilogue_ptr[v])
            keep[find(a, v)] = true;
        if (a->trans_of[v] && !gtrans[find(a, v)])
            gtrans[find(a, v)] = a->trans_of[v];
    }
    for (int i = 0; i < a->nloose; i++) {
        int gx = find(a, a->loose[i].one), gu = find(a, a->loose[i].two);
        int cur = first_user[gx];
        if (gx != gu && !(keep[gx] && is_mma(f, glayout[gu])) &&
            (cur < 0 || (is_mma(f, glayout[cur]) && !is_mma(f, glayout[gu]))))
            first_user[gx] = gu;
    }
    gs->first_user = first_user;
    gs->trans_of = gtrans;
    return 0;
}

/* Rank-1 groups linked to a rank-2 group become its slices; the others
 * are canonical. */
static void rank1_groups(Assign *a, int32_t (*gshape)[2], const int *gvec, int *glayout) {
    Func *f = a->f;
    for (int i = 0; i < a->nlinks; i++) {
        int g1 = find(a, a->links[i].one), g2 = find(a, a->links[i].two);
        int axis = a->links[i].axis;
        if (glayout[g1] >= 0 || glayout[g2] < 0 || axis < 0 || axis > 1)
            continue;
        Layout l = f->layouts[glayout[g2]];
        if (gshape[g1][0] != l.shape[1 - axis])
            continue;
        l.slice_dim = axis;
        glayout[g1] = intern_layout(f, &l);
    }
    for (int v = 1; v < f->nvals; v++) {
        Type t = val_type(f, v);
        int g = find(a, v);
        if (t.rank != 1 || glayout[g] >= 0)
            continue;
        Layout l = canonical(1, gshape[g], f->num_warps, gvec[g]);
        glayout[g] = intern_layout(f, &l);
    }
}

int layout_assign(Func *f) {
    Assign a;
    memset(&a, 0, sizeof a);
    if (f->num_warps < 1)
        f->num_warps = 4;
    if (assign_init(&a, f) < 0)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    f->layouts = NULL;
    f->nlayouts = 0;
    if (walk(&a, &f->body) < 0)
        return -1;
    int32_t(*gshape)[2] = zeroed(f, sizeof(*gshape) * (size_t)f->nvals);
    int *glayout = arena_alloc(f->arena, sizeof(int) * (size_t)f->nvals);
    int *gvec = arena_alloc(f->arena, sizeof(int) * (size_t)f->nvals);
    if (!gshape || !glayout || !gvec)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    for (int v = 0; v < f->nvals; v++)
        glayout[v] = -1;
    group_shapes(&a, gshape, gvec);
    /* rank-2 groups first: dots' accumulators, then the rest (a loose
     * group as its first user, a trans's as its operand transposed,
     * others canonical), then rank 1 */
    dot_groups(&a, gshape, glayout);
    Groups gs = {f, &a, gshape, gvec, glayout, NULL, NULL};
    if (user_groups(&a, glayout, &gs) < 0)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    for (int v = 1; v < f->nvals; v++)
        if (val_type(f, v).rank == 2)
            hold_group(&gs, find(&a, v), 0);
    rank1_groups(&a, gshape, gvec, glayout);
    for (int v = 1; v < f->nvals; v++) {
        Type t = val_type(f, v);
        f->vals[v].layout = t.rank ? glayout[find(&a, v)] : -1;
    }
    if (reduce_layouts(f, &f->body) < 0 || convert_region(f, &f->body) < 0)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    return 0;
}
