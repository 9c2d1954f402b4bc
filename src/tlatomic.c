/* tlatomic.c: the tl.atomic_* builtins (add, max, min, and, or, xor, xchg,
 * cas), as functions and as tensor methods.
 *
 * Input: a Call bound to its row of builtins.c's table (the pointer
 * checked); the other operands as written.  Output: one atomic op
 * (ops.def: OP_ATOMIC_*) whose result is the old value of every element,
 * typed like Triton's: a number or tensor value is cast to the pointee
 * type, a mask is a bool, `sem` and `scope` become the op's memory order.
 *
 * Invariants: the pointee checks are Triton's (semantic.py's
 * atom_red_typechecking_impl and atomic_cas), in its order and with its
 * messages, so that what Triton refuses is refused here at the call;
 * atomic_dtype_ok is the one list of what each op supports, and the
 * verifier asks it too, so the emitter (cuda_atomic.c) never sees another
 * type.  Triton's float max/min (a signed max for non-negative values, an
 * unsigned min for negative ones) is one op here: the emitter writes both
 * halves. */
#include "mt.h"

#include <string.h>

bool atomic_dtype_ok(int code, DType d) {
    bool i32_64 = d == DT_I32 || d == DT_I64 || d == DT_U32 || d == DT_U64;
    bool f32_64 = d == DT_F32 || d == DT_F64;
    switch (code) {
    case OP_ATOMIC_ADD:
        return i32_64 || f32_64 || d == DT_F16 || d == DT_BF16;
    case OP_ATOMIC_MAX:
    case OP_ATOMIC_MIN:
    case OP_ATOMIC_XCHG:
        return i32_64 || f32_64;
    case OP_ATOMIC_AND:
    case OP_ATOMIC_OR:
    case OP_ATOMIC_XOR:
        return i32_64;
    case OP_ATOMIC_CAS:
        return d != DT_I1 && dtype_info[d].bits >= 16;
    default:
        return false;
    }
}

/* Triton's str(dtype): int16, uint8, fp16, bf16, fp8e5 */
static const char *triton_dtype_str(DType d) {
    return dtype_is_float(d) ? dtype_info[d].short_name : dtype_info[d].tl_name;
}

/* The op's name without "atomic_", as Triton's messages spell it. */
static const char *short_op(OpCode code) {
    return op_info[code].name + strlen("atomic_");
}

/* Parameter i, None or one of the n strings of names (its index in *out),
 * else an error listing `choices`. */
static int pick(Elab *E, Call *c, int i, const char *const *names, int n, const char *choices,
                int *out) {
    CV v = c->a[i];
    if (v.kind == CV_NONE)
        return 0;
    for (int k = 0; v.kind == CV_STR && k < n; k++)
        if (!strcmp(v.s, names[k])) {
            *out = k;
            return 0;
        }
    return elab_err(E, c->locs[i], MT_ERR_TYPE, "%s %s must be %s, got %s", c->b->display,
                    c->b->params[i].name, choices,
                    v.kind == CV_STR ? arena_printf(E->c->arena, "'%s'", v.s)
                                     : cv_kind_name(E, v));
}

/* sem= and scope= (parameters 3 and 4; None: acq_rel and gpu, Triton's
 * defaults) as the op's memory order. */
static int memory_order(Elab *E, Call *c, int64_t *out) {
    static const char *const sems[MEM_NSEMS] = {"relaxed", "acquire", "release", "acq_rel"};
    static const char *const scopes[MEM_NSCOPES] = {"gpu", "cta", "sys"};
    int sem = SEM_ACQ_REL, scope = SCOPE_GPU;
    if (pick(E, c, 3, sems, MEM_NSEMS, "'acquire', 'release', 'acq_rel' or 'relaxed'",
             &sem) < 0 ||
        pick(E, c, 4, scopes, MEM_NSCOPES, "'gpu', 'cta' or 'sys'", &scope) < 0)
        return -1;
    *out = (int64_t)sem * MEM_NSCOPES + scope;
    return 0;
}

/* A number or tensor operand cast to the pointee type d, as Triton's
 * to_tensor and cast make it. */
static int operand(Elab *E, Call *c, int i, DType d, ValId *out) {
    ValId x;
    CV v = c->a[i];
    Loc loc = c->locs[i];
    if (v.kind != CV_TENSOR && !cv_is_num(v))
        return elab_err(E, loc, MT_ERR_TYPE, "%s() %s must be a number or a tensor, got %s",
                        c->b->display, c->b->params[i].name, cv_kind_name(E, v));
    if (cv_materialise(E, v, loc, &x) < 0)
        return -1;
    if (val_type(E->f, x).is_ptr)
        return elab_err(E, loc, MT_ERR_TYPE, "%s() %s must be a number or a tensor of "
                        "numbers, got %s", c->b->display, c->b->params[i].name,
                        elab_type_text(E, val_type(E->f, x)));
    return elab_cast(E, x, d, loc, out);
}

/* tl.atomic_add & co: pointer, val, mask=None, sem=None, scope=None. */
/* Triton refuses every atomic through a pointer to constant data. */
static int writable(Elab *E, Call *c) {
    if (c->a[0].kind == CV_TENSOR && c->a[0].ptr_const)
        return elab_err(E, c->locs[0], MT_ERR_TYPE, "Cannot store to a constant pointer");
    return 0;
}

int h_atomic_rmw(Elab *E, Call *c, CV *out) {
    OpCode code = c->b->op;
    ValId p = c->t[0], v, m = 0, r;
    DType d = (DType)val_type(E->f, p).dtype;
    const char *op = short_op(code);
    if (writable(E, c) < 0)
        return -1;
    if (d == DT_F16 && code != OP_ATOMIC_ADD)
        return elab_err(E, c->loc, MT_ERR_TYPE, "atomic_%s does not support fp16", op);
    if (d == DT_BF16 && code != OP_ATOMIC_ADD)
        return elab_err(E, c->loc, MT_ERR_TYPE, "atomic_%s does not support bf16", op);
    if (!atomic_dtype_ok(code, d))
        return elab_err(E, c->loc, MT_ERR_TYPE, "atomic_%s does not support %s", op,
                        triton_dtype_str(d));
    if (operand(E, c, 1, d, &v) < 0)
        return -1;
    CV mask = c->a[2];
    if (mask.kind == CV_TENSOR) {
        if (!type_is_bool(cv_type(E, mask)))
            return elab_err(E, c->locs[2], MT_ERR_TYPE, "%s mask must be bool, got %s",
                            c->b->display, cv_kind_name(E, mask));
        m = mask.v;
    } else if (mask.kind == CV_BOOL) {
        m = mask.i ? 0 : const_bool(E->f, false);
    } else if (mask.kind != CV_NONE) {
        return elab_err(E, c->locs[2], MT_ERR_TYPE, "%s mask must be bool, got %s",
                        c->b->display, cv_kind_name(E, mask));
    }
    int64_t order;
    if (memory_order(E, c, &order) < 0)
        return -1;
    ValId args[3] = {p, v, m};
    if (elab_emit(E, code, c->loc, args, 3, order, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}

/* tl.atomic_cas: pointer, cmp, val, sem=None, scope=None; the element is
 * replaced by val where its bits equal cmp's. */
int h_atomic_cas(Elab *E, Call *c, CV *out) {
    ValId p = c->t[0], cmp, v, r;
    DType d = (DType)val_type(E->f, p).dtype;
    if (writable(E, c) < 0)
        return -1;
    if (!atomic_dtype_ok(OP_ATOMIC_CAS, d))
        return elab_err(E, c->loc, MT_ERR_TYPE,
                        "atomic_cas only supports elements with width {16, 32, 64}, got %s",
                        triton_dtype_str(d));
    int64_t order;
    if (operand(E, c, 1, d, &cmp) < 0 || operand(E, c, 2, d, &v) < 0 ||
        memory_order(E, c, &order) < 0)
        return -1;
    ValId args[3] = {p, cmp, v};
    if (elab_emit(E, OP_ATOMIC_CAS, c->loc, args, 3, order, 0, &r) < 0)
        return -1;
    *out = cv_tensor(r);
    return 0;
}
