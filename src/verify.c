/* verify.c: the SSA verifier.
 *
 * Input: a finished Func.  Output: 0, or the first failure as a located
 * error "ssa-verifier: op #N 'name': text", N being the op's position in
 * its own region, operands as %<ValId> (the verifier renumbers nothing).
 * ir_verify walks the regions with a scope of visible ValIds (a loop body
 * sees a copy of the enclosing scope plus its index and carried arguments;
 * nothing defined in a body is visible after the loop) and a function-wide
 * record of every definition, so that a ValId defined twice anywhere is
 * caught.  Which operands may be none and which attributes an op has come
 * from ops.def (an attribute outside the op's schema must be 0).  Each op
 * is typed again by its rule (typerules.c's ir_rule_check), and the
 * structures the rules leave to it (loops, ifs, whiles, combine regions,
 * inline asm) are checked here.  It checks the rules of inventory section
 * 5.4 in that order. */
#include "mt.h"

#include <stdio.h>
#include <string.h>

/* ---------------------------------------------------------------- verifier */

typedef struct Verifier {
    Func *f;
    uint8_t *ever; /* ValId defined somewhere already (function-wide) */
} Verifier;

MT_PRINTF(4, 5)
static int vfail(Verifier *v, const Op *op, int index, const char *fmt, ...) {
    char msg[MT_RULE_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *name = op->code < OP_COUNT ? op_info[op->code].name : "unknown";
    return diag_error(v->f->ctx, op->loc, MT_ERR_VERIFY,
                      "ssa-verifier: op #%d '%s': %s", index, name, msg);
}

static bool in_range(Verifier *v, ValId id) {
    return id > 0 && id < v->f->nvals;
}

static bool defined(Verifier *v, const uint8_t *scope, ValId id) {
    if (!in_range(v, id))
        return false;
    int k = v->f->vals[id].kind;
    return k == VK_PARAM || k == VK_CONST || scope[id];
}

/* A fresh definition: a valid id never defined before anywhere. */
static bool fresh(Verifier *v, ValId id) {
    if (!in_range(v, id))
        return false;
    int k = v->f->vals[id].kind;
    return k != VK_PARAM && k != VK_CONST && k != VK_NONE && !v->ever[id];
}

static void define(Verifier *v, uint8_t *scope, ValId id) {
    v->ever[id] = 1;
    scope[id] = 1;
}

static int verify_region(Verifier *v, const Region *r, uint8_t *scope);

/* A copy of scope for a nested region: what the region defines is not
 * visible after it. */
static uint8_t *inner_scope(Verifier *v, const uint8_t *scope) {
    uint8_t *inner = arena_alloc(v->f->arena, (size_t)v->f->nvals);
    if (inner)
        memcpy(inner, scope, (size_t)v->f->nvals);
    return inner;
}

/* Region r checked in `inner`, then its n yields against the types of
 * `like` (the op's carried args or results). */
static int verify_yields(Verifier *v, const Op *op, int idx, const Region *r,
                         uint8_t *inner, const ValId *ys, const ValId *like, int n) {
    Func *f = v->f;
    if (n > 0 && !ys)
        return vfail(v, op, idx, "mismatched yields/results");
    if (verify_region(v, r, inner) < 0)
        return -1;
    for (int k = 0; k < n; k++) {
        ValId y = ys[k];
        if (!defined(v, inner, y))
            return vfail(v, op, idx, "yield %%%d used before definition", (int)y);
        Type ty = val_type(f, y), ti = val_type(f, like[k]);
        if (!type_eq(ty, ti))
            return vfail(v, op, idx, "yield expected %s, got %s", type_text(ti).s, type_text(ty).s);
    }
    return 0;
}

/* The op's n results, of the types of `like`, defined in scope. */
static int define_results(Verifier *v, const Op *op, int idx, uint8_t *scope,
                          const ValId *like, int n) {
    Func *f = v->f;
    if (n > 0 && !op->res)
        return vfail(v, op, idx, "mismatched yields/results");
    for (int k = 0; k < n; k++) {
        ValId res = op->res[k];
        Type ty = val_type(f, like[k]);
        if (!in_range(v, res) || !type_eq(val_type(f, res), ty))
            return vfail(v, op, idx, "result expected %s, got %s", type_text(ty).s,
                         in_range(v, res) ? type_text(val_type(f, res)).s : "none");
        if (!fresh(v, res))
            return vfail(v, op, idx, "duplicate definition of result %%%d", (int)res);
        define(v, scope, res);
    }
    return 0;
}

/* Carried inputs args[first..] and the op's iters, defined in inner. */
static int define_carries(Verifier *v, const Op *op, int idx, const uint8_t *scope,
                          uint8_t *inner, int first) {
    Func *f = v->f;
    int n = op->nres;
    if (n < 0 || (n > 0 && !op->iters))
        return vfail(v, op, idx, "mismatched carried inputs/args");
    if (op->nargs - first != n)
        return vfail(v, op, idx, "mismatched carried inputs/results");
    for (int k = 0; k < n; k++) {
        ValId init = op->args[first + k], it = op->iters[k];
        if (!defined(v, scope, init))
            return vfail(v, op, idx, "carried input %%%d used before definition", (int)init);
        if (!in_range(v, it) || !type_eq(val_type(f, it), val_type(f, init)))
            return vfail(v, op, idx, "carried arg expected %s, got %s",
                         type_text(val_type(f, init)).s,
                         in_range(v, it) ? type_text(val_type(f, it)).s : "none");
        if (!fresh(v, it))
            return vfail(v, op, idx, "duplicate definition of carried argument %%%d", (int)it);
        define(v, inner, it);
    }
    return 0;
}

/* for: start, stop and step of one integer type (i32 or i64, Triton's
 * promotion of the three), the index of that type, a constant step
 * positive (the elaborator turns a negative one around). */
static int verify_for(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    static const char *const what[3] = {"start", "stop", "step"};
    if (op->nargs < 3)
        return vfail(v, op, idx, "expected at least 3 operands, got %d", op->nargs);
    Type it = in_range(v, op->index) ? val_type(f, op->index) : type_scalar(DT_VOID);
    if (!type_eq(it, type_scalar(DT_I32)) && !type_eq(it, type_scalar(DT_I64)))
        return vfail(v, op, idx, "loop index must be i32 or i64, got %s",
                     in_range(v, op->index) ? type_text(it).s : "none");
    for (int i = 0; i < 3; i++) {
        ValId a = op->args[i];
        if (!defined(v, scope, a))
            return vfail(v, op, idx, "loop %s %%%d used before definition", what[i], (int)a);
        Type t = val_type(f, a);
        if (!type_eq(t, it))
            return vfail(v, op, idx, "loop %s must be scalar %s, got %s", what[i], type_text(it).s,
                         type_text(t).s);
    }
    if (val_is_const(f, op->args[2]) && f->vals[op->args[2]].c.i <= 0)
        return vfail(v, op, idx, "loop step must be positive");
    if (op->attr[0] < 0)
        return vfail(v, op, idx, "num_stages must not be negative, got %lld",
                     (long long)op->attr[0]);
    if (!op->body)
        return vfail(v, op, idx, "loop has no body");
    if (!fresh(v, op->index))
        return vfail(v, op, idx, "duplicate definition of loop index %%%d", (int)op->index);
    uint8_t *inner = inner_scope(v, scope);
    if (!inner)
        return diag_error(f->ctx, op->loc, MT_ERR_NOMEM, "out of memory");
    define(v, inner, op->index);
    if (define_carries(v, op, idx, scope, inner, 3) < 0 ||
        verify_yields(v, op, idx, op->body, inner, op->yields, op->iters, op->nres) < 0)
        return -1;
    return define_results(v, op, idx, scope, op->iters, op->nres);
}

/* if: a scalar i1 condition; each branch sees the enclosing scope only
 * and yields one value per result, of the result's type. */
static int verify_if(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    if (op->nargs != 1)
        return vfail(v, op, idx, "expected 1 operand, got %d", op->nargs);
    if (!defined(v, scope, op->args[0]))
        return vfail(v, op, idx, "%%%d used before definition", (int)op->args[0]);
    if (!type_eq(val_type(f, op->args[0]), type_scalar(DT_I1)))
        return vfail(v, op, idx, "if condition must be scalar bool, got %s",
                     type_text(val_type(f, op->args[0])).s);
    if (!op->body || !op->alt || (op->nres > 0 && !op->res))
        return vfail(v, op, idx, "if needs a then and an else region");
    for (int k = 0; k < op->nres; k++)
        if (!in_range(v, op->res[k]))
            return vfail(v, op, idx, "invalid result %%%d", (int)op->res[k]);
    uint8_t *then_scope = inner_scope(v, scope), *else_scope = inner_scope(v, scope);
    if (!then_scope || !else_scope)
        return diag_error(f->ctx, op->loc, MT_ERR_NOMEM, "out of memory");
    if (verify_yields(v, op, idx, op->body, then_scope, op->yields, op->res, op->nres) < 0 ||
        verify_yields(v, op, idx, op->alt, else_scope, op->alt_yields, op->res, op->nres) < 0)
        return -1;
    return define_results(v, op, idx, scope, op->res, op->nres);
}

/* while: the condition region (alt) and the body both see the carried
 * args; alt yields the scalar i1 condition, body the next carried values. */
static int verify_while(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    if (!op->body || !op->alt || !op->alt_yields)
        return vfail(v, op, idx, "while needs a condition and a body region");
    uint8_t *inner = inner_scope(v, scope);
    if (!inner)
        return diag_error(f->ctx, op->loc, MT_ERR_NOMEM, "out of memory");
    if (define_carries(v, op, idx, scope, inner, 0) < 0)
        return -1;
    uint8_t *body_scope = inner_scope(v, inner);
    if (!body_scope)
        return diag_error(f->ctx, op->loc, MT_ERR_NOMEM, "out of memory");
    if (verify_region(v, op->alt, inner) < 0)
        return -1;
    ValId c = op->alt_yields[0];
    if (!defined(v, inner, c))
        return vfail(v, op, idx, "while condition %%%d used before definition", (int)c);
    if (!type_eq(val_type(f, c), type_scalar(DT_I1)))
        return vfail(v, op, idx, "while condition must be scalar bool, got %s",
                     type_text(val_type(f, c)).s);
    if (verify_yields(v, op, idx, op->body, body_scope, op->yields, op->iters, op->nres) < 0)
        return -1;
    return define_results(v, op, idx, scope, op->iters, op->nres);
}

/* The region of a combine or map, under the scope its parameters extend:
 * its ops well formed, and every value they make a scalar. */
static int verify_scalar_region(Verifier *v, const Op *op, int idx, uint8_t *inner,
                                const char *what) {
    if (verify_region(v, op->body, inner) < 0)
        return -1;
    for (int i = 0; i < op->body->nops; i++)
        for (int k = 0; k < op->body->ops[i]->nres; k++)
            if (val_type(v->f, op->body->ops[i]->res[k]).rank)
                return vfail(v, op, idx, "%s computes on scalars only", what);
    return 0;
}

/* Result k of a region-holding op (a combine or map), of type rt, defined
 * in scope once. */
static int define_result(Verifier *v, const Op *op, int idx, uint8_t *scope, int k, Type rt) {
    ValId res = op->res[k];
    if (!in_range(v, res) || !type_eq(val_type(v->f, res), rt))
        return vfail(v, op, idx, "result %d expected %s, got %s", k + 1, type_text(rt).s,
                     in_range(v, res) ? type_text(val_type(v->f, res)).s : "none");
    if (!fresh(v, res))
        return vfail(v, op, idx, "duplicate definition of %%%d", (int)res);
    define(v, scope, res);
    return 0;
}

/* tlscan.c's reduce and scan: n operands of one block shape, n results
 * (reduce: the axis dropped), 2n scalar combine parameters (the operands'
 * element types, twice), a body of scalar ops, n yields of those types. */
static int verify_combine(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    int n = op->nargs;
    bool scan = op_info[op->code].kind == K_SCAN;
    if (n < 1 || n > MT_MAX_COMBINE || op->nres != n || !op->body || !op->iters ||
        !op->yields || !op->res)
        return vfail(v, op, idx, "expected 1 to %d operands, as many results and a "
                     "combine region", MT_MAX_COMBINE);
    for (int k = 0; k < n; k++)
        if (!defined(v, scope, op->args[k]))
            return vfail(v, op, idx, "%%%d used before definition", (int)op->args[k]);
    Type t0 = val_type(f, op->args[0]);
    if (t0.rank == 0 || op->attr[0] < 0 || op->attr[0] >= t0.rank)
        return vfail(v, op, idx, "invalid axis %lld for %s", (long long)op->attr[0],
                     type_text(t0).s);
    if (op->attr[1] != 0 && !(scan && op->attr[1] == 1))
        return vfail(v, op, idx, "unexpected attribute 1 = %lld", (long long)op->attr[1]);
    uint8_t *inner = inner_scope(v, scope);
    if (!inner)
        return diag_error(f->ctx, op->loc, MT_ERR_NOMEM, "out of memory");
    for (int k = 0; k < 2 * n; k++) {
        Type t = val_type(f, op->args[k % n]), e = type_elem(t);
        if (t.is_ptr || !type_eq(type_with_elem(t0, e), t))
            return vfail(v, op, idx, "operand %d is %s, not a block of the shape of %s",
                         k % n + 1, type_text(t).s, type_text(t0).s);
        ValId it = op->iters[k];
        if (!fresh(v, it) || !type_eq(val_type(f, it), e))
            return vfail(v, op, idx, "combine parameter %d must be a new value of type %s",
                         k + 1, type_text(e).s);
        define(v, inner, it);
    }
    if (verify_scalar_region(v, op, idx, inner, "the combine region") < 0)
        return -1;
    for (int k = 0; k < n; k++) {
        ValId y = op->yields[k];
        Type e = type_elem(val_type(f, op->args[k])), rt = type_with_elem(t0, e);
        if (!defined(v, inner, y) || !type_eq(val_type(f, y), e))
            return vfail(v, op, idx, "combine result %d must be %s, got %s", k + 1, type_text(e).s,
                         in_range(v, y) ? type_text(val_type(f, y)).s : "none");
        if (!scan) {
            rt.rank--;
            for (int i = (int)op->attr[0]; i < rt.rank; i++)
                rt.shape[i] = t0.shape[i + 1];
            rt.shape[rt.rank] = 0;
        }
        if (define_result(v, op, idx, scope, k, rt) < 0)
            return -1;
    }
    return 0;
}

/* tl.map_elementwise: 1 to MT_MAX_MAP operands, blocks of one shape (no
 * pointers); one scalar parameter per operand of its element type; a body
 * of scalar ops; 1 to MT_MAX_MAP results of that shape, each the element
 * type of its scalar yield. */
static int verify_map(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    int n = op->nargs;
    if (n < 1 || n > MT_MAX_MAP || op->nres < 1 || op->nres > MT_MAX_MAP || !op->body ||
        !op->iters || !op->yields || !op->res)
        return vfail(v, op, idx, "expected 1 to %d operands and results and a region", MT_MAX_MAP);
    Type t0 = in_range(v, op->args[0]) ? val_type(f, op->args[0]) : type_scalar(DT_VOID);
    uint8_t *inner = inner_scope(v, scope);
    if (!inner)
        return diag_error(f->ctx, op->loc, MT_ERR_NOMEM, "out of memory");
    for (int k = 0; k < n; k++) {
        ValId a = op->args[k];
        if (!defined(v, scope, a))
            return vfail(v, op, idx, "%%%d used before definition", (int)a);
        Type t = val_type(f, a), e = type_elem(t);
        if (t.rank == 0 || t.is_ptr || !type_eq(type_with_elem(t0, e), t))
            return vfail(v, op, idx, "operand %d is %s, not a block of numbers of the shape of %s",
                         k + 1, type_text(t).s, type_text(t0).s);
        ValId it = op->iters[k];
        if (!fresh(v, it) || !type_eq(val_type(f, it), e))
            return vfail(v, op, idx, "parameter %d must be a new value of type %s", k + 1,
                         type_text(e).s);
        define(v, inner, it);
    }
    if (verify_scalar_region(v, op, idx, inner, "the region") < 0)
        return -1;
    for (int k = 0; k < op->nres; k++) {
        ValId y = op->yields[k];
        if (!defined(v, inner, y) || val_type(f, y).rank || val_type(f, y).is_ptr)
            return vfail(v, op, idx, "result %d must be a scalar the region defines", k + 1);
        Type rt = type_with_elem(t0, val_type(f, y));
        if (define_result(v, op, idx, scope, k, rt) < 0)
            return -1;
    }
    return 0;
}

/* tlasm.c's inline asm: operands defined, none missing, scalars or blocks
 * of one shape (pointers too: an "l" register); 1 to MT_MAX_ASM_RESULTS
 * results of that shape, numbers (fp16/bf16/fp8 as their bits) but not
 * bool; its PTX and constraints present, pack >= 1, pure 0 or 1. */
static int verify_asm(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    if (op->nres < 1 || op->nres > MT_MAX_ASM_RESULTS || !op->res)
        return vfail(v, op, idx, "expected 1 to %d results, got %d", MT_MAX_ASM_RESULTS,
                     op->nres);
    if (!op->str[0] || !op->str[1])
        return vfail(v, op, idx, "missing asm or constraints");
    if (op->attr[0] < 1 || op->attr[0] > 16 || (op->attr[0] & (op->attr[0] - 1)) ||
        (op->attr[1] != 0 && op->attr[1] != 1))
        return vfail(v, op, idx, "pack must be a power of two from 1 to 16 and pure 0 or 1, "
                     "got %lld and %lld", (long long)op->attr[0], (long long)op->attr[1]);
    Type shape = val_type(f, op->res[0]);
    for (int k = 0; k < op->nargs; k++) {
        ValId a = op->args[k];
        if (!a || !defined(v, scope, a))
            return vfail(v, op, idx, "operand %d is missing or used before definition", k + 1);
        Type t = val_type(f, a);
        if (t.dtype == DT_I1 || !type_eq(type_with_elem(shape, type_elem(t)), t))
            return vfail(v, op, idx, "operand %d is %s, not a number or pointer of shape %s",
                         k + 1, type_text(t).s, type_text(shape).s);
    }
    for (int k = 0; k < op->nres; k++) {
        ValId res = op->res[k];
        Type t = in_range(v, res) ? val_type(f, res) : type_scalar(DT_VOID);
        if (!in_range(v, res) || t.is_ptr || !type_is_numeric(t) ||
            !type_eq(type_with_elem(shape, type_elem(t)), t))
            return vfail(v, op, idx, "result %d must be a number of shape %s", k + 1,
                         type_text(shape).s);
        if (!fresh(v, res))
            return vfail(v, op, idx, "duplicate definition of %%%d", (int)res);
        define(v, scope, res);
    }
    return 0;
}

static int verify_op(Verifier *v, const Op *op, int idx, uint8_t *scope) {
    Func *f = v->f;
    if (op->code >= OP_COUNT)
        return vfail(v, op, idx, "unsupported operation");
    const OpInfo *oi = &op_info[op->code];
    if (oi->flags & F_REGION)
        return oi->rule == R_IF      ? verify_if(v, op, idx, scope)
               : oi->rule == R_WHILE ? verify_while(v, op, idx, scope)
                                     : verify_for(v, op, idx, scope);
    if (oi->rule == R_COMBINE)
        return verify_combine(v, op, idx, scope);
    if (oi->rule == R_ASM)
        return verify_asm(v, op, idx, scope);
    if (oi->rule == R_MAP)
        return verify_map(v, op, idx, scope);
    if (oi->nargs >= 0 && op->nargs != oi->nargs)
        return vfail(v, op, idx, "expected %d operands, got %d", oi->nargs,
                     op->nargs);
    for (int i = 0; i < 2; i++)
        if (!attr_info[oi->attrs].strs[i] != !op->str[i])
            return vfail(v, op, idx, op->str[i] ? "unexpected string attribute %d"
                                                : "missing string attribute %d", i);
    if (!op_has_result(op->code)) {
        if (op->nres != 0)
            return vfail(v, op, idx, "unexpected result");
    } else if (op->nres == 0) {
        return vfail(v, op, idx, "missing result");
    } else if (op->nres != 1) {
        return vfail(v, op, idx, "expected one result, got %d", op->nres);
    }
    for (int i = 0; i < op->nargs; i++) {
        ValId a = op->args[i];
        if (a == 0 && !(i < 8 && (oi->optional >> i & 1)))
            return vfail(v, op, idx, "operand %d is missing", i + 1);
        if (a != 0 && !defined(v, scope, a))
            return vfail(v, op, idx, "%%%d used before definition", (int)a);
    }
    for (int i = attr_info[oi->attrs].nattr; i < 2; i++)
        if (op->attr[i] != 0)
            return vfail(v, op, idx, "unexpected attribute %d = %lld", i,
                         (long long)op->attr[i]);
    ValId res = op->nres ? op->res[0] : 0;
    if (op->nres && !in_range(v, res))
        return vfail(v, op, idx, "invalid result %%%d", (int)res);
    Type rt = op->nres ? val_type(f, res) : type_scalar(DT_VOID);
    Type t = ir_rule_rtype_in(op->code) ? rt : type_scalar(DT_VOID);
    char msg[MT_RULE_MSG_MAX];
    if (ir_rule_check(f, op->code, op->args, op->nargs, op->attr, &t, msg) < 0)
        return vfail(v, op, idx, "%s", msg);
    if (!type_eq(t, rt))
        return vfail(v, op, idx, "expected %s, got %s", type_text(t).s, type_text(rt).s);
    if (op->nres) {
        if (!fresh(v, res))
            return vfail(v, op, idx, "duplicate definition of %%%d", (int)res);
        define(v, scope, res);
    }
    return 0;
}

static int verify_region(Verifier *v, const Region *r, uint8_t *scope) {
    for (int i = 0; i < r->nops; i++)
        if (verify_op(v, r->ops[i], i, scope) < 0)
            return -1;
    return 0;
}

int ir_verify(Func *f) {
    Verifier v;
    v.f = f;
    v.ever = arena_alloc(f->arena, (size_t)f->nvals);
    uint8_t *scope = arena_alloc(f->arena, (size_t)f->nvals);
    if (!v.ever || !scope)
        return diag_error(f->ctx, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    return verify_region(&v, &f->body, scope);
}
