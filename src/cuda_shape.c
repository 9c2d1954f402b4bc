/* cuda_shape.c: the CUDA C of the shape ops (ops.def kind K_GATHER:
 * reshape, trans, join, split, cat, flip).
 *
 * Input: one such op of a Func after the back-end passes.  layout.c gave
 * its result a layout of its own and left its operands where they are;
 * smemplan.c planned one scratch buffer for it, [1][total operand size].
 * Output: the op's text.  Every shape op is one gather: the owners of each
 * operand's elements store them at their row-major index within the
 * operand (operand k after operands 0..k-1; a scalar operand is stored by
 * thread 0), a barrier, then every thread reads each slot of the result
 * from the index the op's map gives for that slot's coordinates, and a
 * barrier, so the scratch is free for the next use (inside loops too).
 * Replicated result slots read like owned ones.  The maps are the whole
 * difference between the ops; each is written as C text over the result
 * slot's coordinates. */
#include "mt.h"

#include <string.h>

/* Row-major index text of coordinate texts c[0..rank) in shape. */
static const char *linear(Emit *e, const char *const *c, const int32_t *shape, int rank) {
    const char *acc = "0";
    bool sum = false; /* acc is a sum this function built */
    for (int i = 0; i < rank; i++) {
        if (shape[i] == 1)
            continue;
        if (!strcmp(acc, "0")) {
            acc = c[i];
            continue;
        }
        acc = ce_fmt(e, sum ? "(%s) * %d + %s" : "%s * %d + %s", acc, shape[i], c[i]);
        sum = true;
    }
    return acc;
}

/* Stores operand x at offset `off` of the scratch sm. */
static int store_operand(Emit *e, Op *op, const SharedBuffer *buf, const char *sm,
                         ValId x, int64_t off) {
    Type t = val_type(e->f, x);
    const char *offt = ce_fmt(e, "%lld", (long long)off);
    if (t.rank == 0) {
        ce_line(e, "if (threadIdx.x == 0) %s[%s] = %s;", sm,
                ce_smem_text(e, buf, "0", "0", offt), ce_vname(e, x));
        return 0;
    }
    if (!e->has_dist[x])
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                          "operand %%%d of '%s' has no distribution", (int)x,
                          op_info[op->code].name);
    const Dist *s = &e->dist[x];
    const char *idx = ce_linear(e, s, t, CE_SLOT);
    if (off)
        idx = ce_fmt(e, "%s + %s", offt, idx);
    const char *own = ce_owner(e, s, CE_SLOT);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, s->nE, CE_SLOT);
    ce_line(e, "    %s%s[%s] = %s[%s];", *own ? ce_fmt(e, "if (%s) ", own) : "", sm,
            ce_smem_text(e, buf, "0", "0", idx), e->name[x], CE_SLOT);
    return 0;
}

/* The scratch index the result element at coordinates c reads. */
static const char *source_index(Emit *e, Op *op, const char *const *c) {
    Func *f = e->f;
    Type rt = val_type(f, op->res[0]), at = val_type(f, op->args[0]);
    const char *src[MT_MAX_RANK + 1];
    int n = at.rank;
    switch (op->code) {
    case OP_RESHAPE:
        return linear(e, c, rt.shape, rt.rank);
    case OP_TRANS:
        memcpy(src, c, sizeof(char *) * (size_t)n);
        src[n - 2] = c[n - 1];
        src[n - 1] = c[n - 2];
        return linear(e, src, at.shape, n);
    case OP_FLIP: {
        int d = (int)op->attr[0];
        memcpy(src, c, sizeof(char *) * (size_t)n);
        if (at.shape[d] > 1)
            src[d] = ce_fmt(e, "(%d - %s)", at.shape[d] - 1, c[d]);
        return linear(e, src, at.shape, n);
    }
    case OP_JOIN: {
        const char *in = linear(e, c, at.shape, n);
        int64_t numel = type_numel(at);
        if (!strcmp(in, "0"))
            return numel == 1 ? c[n] : ce_fmt(e, "%s * %lld", c[n], (long long)numel);
        return ce_fmt(e, "%s * %lld + %s", c[n], (long long)numel, in);
    }
    case OP_SPLIT:
        memcpy(src, c, sizeof(char *) * (size_t)(n - 1));
        src[n - 1] = op->attr[0] ? "1" : "0";
        return linear(e, src, at.shape, n);
    case OP_CAT:
        return c[0];
    default:
        return NULL;
    }
}

int ce_emit_gather(Emit *e, Op *op) {
    Func *f = e->f;
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    const SharedBuffer *buf = smem_buffer_of(f->smem, op, SMEM_SCRATCH);
    if (!buf)
        return diag_error(e->c, op->loc, MT_ERR_INTERNAL,
                          "'%s' has no shared buffer (smem_plan runs first)",
                          op_info[op->code].name);
    const char *sm = ce_scratch(e, type_elem(rt));
    int64_t off = 0;
    for (int k = 0; k < op->nargs; k++) {
        if (store_operand(e, op, buf, sm, op->args[k], off) < 0)
            return -1;
        off += type_numel(val_type(f, op->args[k]));
    }
    ce_line(e, "__syncthreads();");
    const char *ct = ce_ctype(e, type_elem(rt));
    const char *c[MT_MAX_RANK];
    e->name[res] = ce_fmt(e, "v%d", res);
    if (rt.rank == 0) {
        const char *idx = source_index(e, op, c);
        if (!idx)
            return diag_error(e->c, op->loc, MT_ERR_UNSUPPORTED,
                              "the CUDA backend cannot lower '%s'", op_info[op->code].name);
        ce_line(e, "%s v%d = %s[%s];", ct, res, sm, ce_smem_text(e, buf, "0", "0", idx));
        ce_line(e, "__syncthreads();");
        return 0;
    }
    Dist r = ce_dist_of(e, res);
    for (int i = 0; i < rt.rank; i++)
        c[i] = ce_value_coord(e, &r, i, CE_SLOT);
    const char *idx = source_index(e, op, c);
    if (!idx)
        return diag_error(e->c, op->loc, MT_ERR_UNSUPPORTED,
                          "the CUDA backend cannot lower '%s'", op_info[op->code].name);
    ce_line(e, "%s v%d[%d];", ct, res, r.nE);
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    ce_line(e, "    v%d[%s] = %s[%s];", res, CE_SLOT, sm, ce_smem_text(e, buf, "0", "0", idx));
    ce_line(e, "__syncthreads();");
    e->dist[res] = r;
    e->has_dist[res] = true;
    return 0;
}
