/* tlasm.c: tl.inline_asm_elementwise.
 *
 * Input: a call inline_asm_elementwise(asm, constraints, args, dtype,
 * is_pure, pack) in a kernel.  Output: one inline_asm op whose operands
 * are the args made tensors and broadcast to one shape (Triton's rule: no
 * type promotion), with one result of that shape per dtype (a tuple of
 * them when dtype is a sequence, as Triton returns), Op.str the PTX and
 * the constraints, attr pack and purity.  cuda_asm.c writes it.
 *
 * Invariants: every error is located and names the argument; the
 * constraints are parsed as cuda_asm.c parses them (asm_constraints) and
 * their number checked against the registers the operands and results
 * take (asm_registers), so the emitted asm can never read an operand that
 * is not there.  The asm text itself is the user's PTX and
 * is not parsed here. */
#include "mt.h"

#include <string.h>

int asm_registers(DType d, bool is_ptr, int pack) {
    int bits = is_ptr ? 64 : dtype_info[d].bits;
    int per = bits < 32 ? 32 / bits : 1;
    if (per > pack)
        per = pack;
    return pack / per;
}

int asm_letter_bits(char c) {
    return c == 'h' ? 16 : c == 'r' || c == 'f' ? 32 : c == 'l' || c == 'd' ? 64 : 0;
}

static const char *skip_blanks(const char *s) {
    while (*s == ' ' || *s == '\t' || *s == '\n')
        s++;
    return s;
}

int asm_constraints(const char *s, char *letters, bool *outs, int max) {
    int n = 0;
    bool inputs = false;
    for (s = skip_blanks(s); *s;) {
        bool out = *s == '=';
        s += out;
        s += out && *s == '&';
        if (!asm_letter_bits(*s) || n == max || (out && inputs))
            return -1;
        inputs |= !out;
        letters[n] = *s;
        outs[n++] = out;
        s = skip_blanks(s + 1);
        if (*s && *s++ != ',')
            return -1;
        s = skip_blanks(s);
    }
    return n;
}

int asm_constraint_error(Ctx *c, Loc loc, const char *constraints) {
    return diag_error(c, loc, MT_ERR_UNSUPPORTED,
                      "inline_asm_elementwise() constraints must be \"=r\", \"r\" and the "
                      "like (r, h, l, f, d), outputs first, at most %d, got \"%s\"",
                      MT_MAX_ASM_REGS, constraints);
}

static int dtypes_of(Elab *E, Call *c, DType *out, int *n, bool *several) {
    CV d = c->a[3];
    *several = d.kind == CV_TUPLE;
    *n = *several ? d.n : 1;
    if (*n < 1 || *n > MT_MAX_ASM_RESULTS)
        return elab_err(E, c->locs[3], MT_ERR_TYPE,
                        "inline_asm_elementwise() needs 1 to %d result dtypes, got %d",
                        MT_MAX_ASM_RESULTS, *n);
    for (int k = 0; k < *n; k++) {
        CV x = *several ? d.items[k] : d;
        if (x.kind != CV_DTYPE || x.i || x.sub == DT_I1)
            return elab_err(E, c->locs[3], MT_ERR_TYPE,
                            "inline_asm_elementwise() dtype must be a number dtype or a "
                            "tuple of them, got %s", cv_kind_name(E, x));
        out[k] = (DType)x.sub;
    }
    return 0;
}

/* The args as tensors of one (broadcast) shape. */
static int operands_of(Elab *E, Call *c, ValId **vals, int *n, Type *shape) {
    CV a = c->a[2];
    const char *fn = "inline_asm_elementwise";
    if (a.kind != CV_TUPLE)
        return elab_err(E, c->locs[2], MT_ERR_TYPE,
                        "inline_asm_elementwise() args must be a list or tuple, got %s",
                        cv_kind_name(E, a));
    *n = a.n;
    *vals = arena_alloc(E->c->arena, sizeof(ValId) * (size_t)(a.n ? a.n : 1));
    *shape = type_scalar(DT_I32);
    for (int i = 0; i < a.n; i++) {
        if (builtin_need_tensor(E, a.items[i], c->locs[2], fn, &(*vals)[i]) < 0)
            return -1;
        Type t = val_type(E->f, (*vals)[i]);
        if (t.dtype == DT_I1 && !t.is_ptr)
            return elab_err(E, c->locs[2], MT_ERR_TYPE,
                            "inline_asm_elementwise() args cannot be bool (operand %d)", i);
        if (broadcast_shapes(*shape, t, shape) < 0)
            return elab_err(E, c->locs[2], MT_ERR_TYPE,
                            "inline_asm_elementwise() args have incompatible shapes: %s and %s",
                            elab_shape_text(E, *shape), elab_shape_text(E, t));
    }
    for (int i = 0; i < a.n; i++) {
        Type t = val_type(E->f, (*vals)[i]), want = type_with_elem(*shape, type_elem(t));
        if (!type_eq(t, want) &&
            elab_emit_typed(E, OP_BROADCAST, c->loc, &(*vals)[i], 1, 0, 0, want,
                            &(*vals)[i]) < 0)
            return -1;
    }
    return 0;
}

int h_inline_asm(Elab *E, Call *c, CV *out) {
    if (E->const_eval)
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    for (int k = 0; k < 2; k++)
        if (c->a[k].kind != CV_STR)
            return elab_err(E, c->locs[k], MT_ERR_TYPE,
                            "inline_asm_elementwise() %s must be a string, got %s",
                            k ? "constraints" : "asm", cv_kind_name(E, c->a[k]));
    bool pure;
    int64_t pack;
    if (cv_truth(E, c->a[4], c->locs[4], "inline_asm_elementwise() is_pure must be a "
                 "compile-time bool", &pure) < 0 ||
        cv_need_int(E, c->a[5], c->locs[5], "inline_asm_elementwise() pack", &pack) < 0)
        return -1;
    if (pack < 1 || pack > 16 || (pack & (pack - 1)))
        return elab_err(E, c->locs[5], MT_ERR_TYPE,
                        "inline_asm_elementwise() pack must be 1, 2, 4, 8 or 16, got %lld",
                        (long long)pack);
    DType dts[MT_MAX_ASM_RESULTS];
    int ndt = 0, nargs = 0;
    bool several = false;
    ValId *vals = NULL;
    Type shape = type_scalar(DT_I32);
    if (dtypes_of(E, c, dts, &ndt, &several) < 0 ||
        operands_of(E, c, &vals, &nargs, &shape) < 0)
        return -1;
    int regs = 0;
    Type types[MT_MAX_ASM_RESULTS];
    for (int k = 0; k < ndt; k++) {
        types[k] = type_with_elem(shape, type_scalar(dts[k]));
        regs += asm_registers(dts[k], false, (int)pack);
    }
    for (int i = 0; i < nargs; i++) {
        Type t = val_type(E->f, vals[i]);
        regs += asm_registers((DType)t.dtype, t.is_ptr, (int)pack);
    }
    const char *cons = arena_strndup(E->c->arena, c->a[1].s, (size_t)c->a[1].n);
    char letters[MT_MAX_ASM_REGS];
    bool outs[MT_MAX_ASM_REGS];
    int ncons = asm_constraints(cons, letters, outs, MT_MAX_ASM_REGS);
    if (ncons < 0)
        return asm_constraint_error(E->c, c->locs[1], cons);
    if (ncons != regs)
        return elab_err(E, c->locs[1], MT_ERR_TYPE,
                        "inline_asm_elementwise() has %d constraints; its %d results and %d "
                        "operands take %d registers at pack=%lld",
                        ncons, ndt, nargs, regs, (long long)pack);
    Op *op = op_new_results(E->f, E->region, OP_INLINE_ASM, c->loc, vals, nargs, types, ndt);
    op->attr[0] = pack;
    op->attr[1] = pure;
    op->str[0] = arena_strndup(E->c->arena, c->a[0].s, (size_t)c->a[0].n);
    op->str[1] = cons;
    if (!several) {
        *out = cv_tensor(op->res[0]);
        return 0;
    }
    *out = cv_tuple(E, ndt);
    for (int k = 0; k < ndt; k++)
        out->items[k] = cv_tensor(op->res[k]);
    return 0;
}

int asm_only_on_gpu(Ctx *c, Loc loc, const char *backend) {
    return diag_error(c, loc, MT_ERR_UNSUPPORTED,
                      "tl.inline_asm_elementwise runs PTX, which only the CUDA backend runs "
                      "on a GPU; the %s backend cannot", backend);
}
