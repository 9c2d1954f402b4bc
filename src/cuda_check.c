/* cuda_check.c: checked mode's checks in the host text (Func.checked).
 *
 * Input: the Func cuda_emit is writing, checked mode on (api.c allows it
 * for the host backend only; mt_host.h defines the mt_check_* functions
 * the text calls).  Output: text before a memory op and before an
 * elementwise op's result; without checked mode nothing here runs and
 * the text is the unchecked one, byte for byte.
 *
 * Three checks, each failing with a located message that names the
 * kernel and the program (mt_host.h formats it, fiber.c stops the
 * program's threads and fails the launch with MT_ERR_CHECK):
 *   - every element a load, store or atomic touches (masked-off elements
 *     do not count) lies in the extent of the runtime parameter its
 *     pointer derives from.  Provenance is found here, once per kernel:
 *     a pointer parameter is its own base; addptr, select, casts, layout
 *     and shape ops keep their pointer operands' base; loop-carried and
 *     if-joined pointers take the join of what flows in.  A pointer of
 *     several bases (a select between two arguments) is CHECK_ANY: it
 *     must lie in some argument's extent.  A pointer loaded from memory
 *     or made from an integer (tutorial 08's pointer tables) is untraced
 *     and not checked: its tensor is none of the arguments, so no extent
 *     is known (and "inside some argument" would refuse correct
 *     programs).  Block pointers are addptr chains by then
 *     (tlblockptr.c), so they have their base.  All of a block access's
 *     elements are checked by every thread before any thread performs it
 *     (a barrier after the checks), so an access that fails touches no
 *     memory in its program;
 *   - every integer // and % (F_DIVISOR) against a zero divisor, in every
 *     lane: Triton computes masked-off lanes too, so a divisor that a mask
 *     makes zero (a load's other=0) is reported as well;
 *   - i32 + - * (F_WRAP, two operands) whose result flows into a pointer
 *     offset (addptr's operand 1) through such arithmetic, casts,
 *     selects, layout and shape ops and loop carries, against signed
 *     overflow; other integer arithmetic wraps by Triton's rule;
 *   - every index of a tl.gather against its source's dim (the unchecked
 *     text wraps it, where Triton leaves it undefined). */
#include "mt.h"

/* A pointer's base, a lattice: not seen yet < parameter i < one of
 * several parameters < untraced (loaded from memory, made of an integer). */
#define CHECK_UNSET (-2)
#define CHECK_ANY (-1)
#define CHECK_UNTRACED (-3)

/* ---------------------------------------------------------- provenance */

static int join_base(int a, int b) {
    if (a == CHECK_UNSET)
        return b;
    if (b == CHECK_UNSET || a == b)
        return a;
    if (a == CHECK_UNTRACED || b == CHECK_UNTRACED)
        return CHECK_UNTRACED;
    return CHECK_ANY;
}

/* Sets base[v] to its join with b; true when that changed it. */
static bool merge(int *base, ValId v, int b) {
    int j = join_base(base[v], b);
    if (!v || j == base[v])
        return false;
    base[v] = j;
    return true;
}

/* One pass over r's ops (nested regions too); true when a base changed. */
static bool flow_bases(Func *f, Region *r, int *base) {
    bool changed = false;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == OP_FOR || op->code == OP_WHILE) {
            int first = op->code == OP_FOR ? 3 : 0;
            for (int k = 0; k < op->nres; k++) {
                if (!val_type(f, op->res[k]).is_ptr)
                    continue;
                int b = join_base(base[op->args[first + k]], base[op->yields[k]]);
                changed |= merge(base, op->iters[k], b);
                changed |= merge(base, op->res[k], b);
            }
        } else if (op->code == OP_IF) {
            for (int k = 0; k < op->nres; k++)
                if (val_type(f, op->res[k]).is_ptr)
                    changed |= merge(base, op->res[k],
                                     join_base(base[op->yields[k]], base[op->alt_yields[k]]));
        } else if (op->nres >= 1 && val_type(f, op->res[0]).is_ptr) {
            /* a pointer read from memory, or made of no pointer: untraced */
            int b = op_info[op->code].kind == K_MEMORY ? CHECK_UNTRACED : CHECK_UNSET;
            for (int k = 0; k < op->nargs && b != CHECK_UNTRACED; k++)
                if (op->args[k] && val_type(f, op->args[k]).is_ptr)
                    b = join_base(b, base[op->args[k]]);
            bool has_ptr = false;
            for (int k = 0; k < op->nargs; k++)
                has_ptr |= op->args[k] && val_type(f, op->args[k]).is_ptr;
            if (!has_ptr)
                b = CHECK_UNTRACED;
            for (int k = 0; k < op->nres; k++)
                changed |= merge(base, op->res[k], b);
        }
        Region *sub[2];
        int n = op_regions(op, sub);
        for (int k = 0; k < n; k++)
            changed |= flow_bases(f, sub[k], base);
    }
    return changed;
}

/* ----------------------------------------------------- index arithmetic */

/* Per value: the for or while op whose carried argument (iter) it is,
 * and which one, found by a walk of the regions. */
typedef struct Carry {
    Op **iter_op;
    int *iter_k;
} Carry;

static void find_carries(Func *f, Region *r, Carry *c) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == OP_FOR || op->code == OP_WHILE)
            for (int k = 0; k < op->nres; k++) {
                c->iter_op[op->iters[k]] = op;
                c->iter_k[op->iters[k]] = k;
            }
        Region *sub[2];
        int n = op_regions(op, sub);
        for (int k = 0; k < n; k++)
            find_carries(f, sub[k], c);
    }
}

/* Marks what v is computed from as index arithmetic, through the ops the
 * file comment names.  A value enters the stack once (seen), so the stack
 * of f->nvals entries never overflows. */
static void mark_index(Func *f, ValId v, const Carry *c, bool *seen, bool *index_arith,
                       ValId *stack) {
    int n = 0;
    if (v && !seen[v]) {
        seen[v] = true;
        stack[n++] = v;
    }
    while (n > 0) {
        ValId x = stack[--n];
        if (type_is_float(val_type(f, x)) || val_type(f, x).is_ptr)
            continue;
        Value *xv = val(f, x);
        ValId next[3] = {0, 0, 0};
        if (xv->kind == VK_LOOP_ARG && c->iter_op[x]) {
            Op *lp = c->iter_op[x];
            int k = c->iter_k[x];
            next[0] = lp->args[(lp->code == OP_FOR ? 3 : 0) + k];
            next[1] = lp->yields[k];
        } else if (xv->kind == VK_OP && xv->def) {
            Op *op = xv->def;
            const OpInfo *oi = &op_info[op->code];
            if (op->code == OP_FOR || op->code == OP_WHILE || op->code == OP_IF) {
                for (int k = 0; k < op->nres; k++)
                    if (op->res[k] == x) {
                        next[0] = op->yields[k];
                        if (op->code == OP_IF)
                            next[1] = op->alt_yields[k];
                    }
            } else if ((oi->flags & F_WRAP) && op->nargs == 2) {
                if (val_type(f, x).dtype == DT_I32)
                    index_arith[x] = true;
                next[0] = op->args[0];
                next[1] = op->args[1];
            } else if (op->code == OP_SELECT) {
                next[0] = op->args[1];
                next[1] = op->args[2];
            } else if ((oi->flags & F_MOVE) || oi->kind == K_CONVERT) {
                next[0] = op->args[0];
            }
        }
        for (int k = 0; k < 3; k++)
            if (next[k] && !seen[next[k]]) {
                seen[next[k]] = true;
                stack[n++] = next[k];
            }
    }
}

static void mark_offsets(Func *f, Region *r, const Carry *c, bool *seen, bool *index_arith,
                         ValId *stack) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == OP_ADDPTR)
            mark_index(f, op->args[1], c, seen, index_arith, stack);
        Region *sub[2];
        int n = op_regions(op, sub);
        for (int k = 0; k < n; k++)
            mark_offsets(f, sub[k], c, seen, index_arith, stack);
    }
}

int ce_check_init(Emit *e) {
    Func *f = e->f;
    size_t n = (size_t)f->nvals;
    e->ptr_base = arena_alloc(f->arena, sizeof(int) * n);
    e->index_arith = arena_alloc(f->arena, sizeof(bool) * n);
    bool *seen = arena_alloc(f->arena, sizeof(bool) * n);
    ValId *stack = arena_alloc(f->arena, sizeof(ValId) * n);
    Carry c = {arena_alloc(f->arena, sizeof(Op *) * n), arena_alloc(f->arena, sizeof(int) * n)};
    if (!e->ptr_base || !e->index_arith || !seen || !stack || !c.iter_op || !c.iter_k)
        return diag_error(e->c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    for (size_t v = 0; v < n; v++) {
        e->ptr_base[v] = CHECK_UNSET;
        e->index_arith[v] = seen[v] = false;
        c.iter_op[v] = NULL;
    }
    for (int i = 0; i < f->nparams; i++)
        e->ptr_base[f->params[i]] = val(f, f->params[i])->param_index;
    /* each round can only move a base up the lattice unset < param < any */
    for (int round = 0; round < 2 * f->nvals + 2 && flow_bases(f, &f->body, e->ptr_base);
         round++)
        ;
    find_carries(f, &f->body, &c);
    mark_offsets(f, &f->body, &c, seen, e->index_arith, stack);
    return 0;
}

/* ---------------------------------------------------------- the checks */

/* The trailing arguments every check takes: file, line, column, kernel. */
static const char *site(Emit *e, Loc loc) {
    return ce_fmt(e, "\"%s\", %d, %d, \"%s\"", ce_c_literal(e, e->c->filename, false),
                  loc.line, loc.col, ce_c_literal(e, e->f->name, false));
}

static const char *access_kind(const Op *op) {
    return op->code == OP_LOAD ? "load" : op->code == OP_STORE ? "store" : "atomic";
}

int ce_check_access(Emit *e, Op *op) {
    Func *f = e->f;
    ValId p = op->args[0];
    ValId m = op->code == OP_LOAD ? op->args[1]
              : op->code == OP_ATOMIC_CAS ? 0 : op->args[2];
    Type pt = val_type(f, p);
    if (e->ptr_base[p] == CHECK_UNTRACED || e->ptr_base[p] == CHECK_UNSET)
        return 0; /* no extent to check against (file comment) */
    int param = e->ptr_base[p] >= 0 ? e->ptr_base[p] : -1;
    const char *base = "0", *pname = "";
    if (param >= 0) {
        ValId pv = f->params[param];
        base = ce_fmt(e, "(const void *)%s", e->name[pv]);
        pname = ce_c_literal(e, val(f, pv)->name, false);
    }
    const char *tail = ce_fmt(e, "%d, %d, %s, \"%s\", \"%s\", %s", dtype_info[pt.dtype].bytes,
                              param, base, pname, access_kind(op), site(e, op->loc));
    if (pt.rank == 0 && (!m || val_type(f, m).rank == 0)) {
        const char *call = ce_fmt(e, "mt_check_access((const void *)%s, %s);", ce_vname(e, p),
                                  tail);
        if (m)
            ce_line(e, "if (%s) %s", ce_vname(e, m), call);
        else
            ce_line(e, "%s", call);
        return HAS_ERROR(e->c) ? -1 : 0;
    }
    /* a block access, or a scalar pointer under a block mask */
    Dist r = pt.rank ? (op->code == OP_STORE ? e->dist[p] : ce_dist_of(e, op->res[0]))
                     : (e->has_dist[m] ? e->dist[m] : ce_dist_of(e, m));
    const char *pe = pt.rank ? ce_elem(e, p, &r, op->loc) : ce_vname(e, p);
    const char *me = m ? ce_elem(e, m, &r, op->loc) : NULL;
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    if (me)
        ce_line(e, "    if (%s) mt_check_access((const void *)(%s), %s);", me, pe, tail);
    else
        ce_line(e, "    mt_check_access((const void *)(%s), %s);", pe, tail);
    ce_line(e, "__syncthreads(); /* checked: no thread accesses before all checked */");
    return HAS_ERROR(e->c) ? -1 : 0;
}

int ce_check_arith(Emit *e, Op *op) {
    Func *f = e->f;
    const OpInfo *oi = &op_info[op->code];
    ValId res = op->res[0];
    Type rt = val_type(f, res);
    bool divisor = (oi->flags & F_DIVISOR) && !type_is_float(rt);
    bool index = e->index_arith[res];
    if (!divisor && !index)
        return 0;
    const char *a[MT_ELEM_OPERANDS];
    Type at[MT_ELEM_OPERANDS];
    Dist r;
    const char *elem = "-1";
    if (rt.rank) {
        r = ce_dist_of(e, res);
        ce_operand_texts(e, op, &r, op->loc, a, at);
        if (rt.rank <= 2)
            elem = ce_linear_text(e, &r, rt, CE_SLOT);
    } else {
        for (int i = 0; i < 2; i++)
            a[i] = ce_vname(e, op->args[i]);
    }
    const char *call;
    if (divisor)
        call = ce_fmt(e, "mt_check_div(%s, %s, \"%s\", %s);", a[1], elem,
                      op->code == OP_DIV ? "//" : "%", site(e, op->loc));
    else
        call = ce_fmt(e, "mt_check_index((long long)(int)(%s), (long long)(int)(%s), '%c', %s, "
                         "%s);",
                      a[0], a[1], op->code == OP_ADD ? '+' : op->code == OP_SUB ? '-' : '*', elem,
                      site(e, op->loc));
    if (rt.rank) {
        ce_unroll(e);
        ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
        ce_line(e, "    %s", call);
    } else {
        ce_line(e, "%s", call);
    }
    return HAS_ERROR(e->c) ? -1 : 0;
}

int ce_check_gather(Emit *e, Op *op) {
    Func *f = e->f;
    ValId res = op->res[0], index = op->args[1];
    Type rt = val_type(f, res), it = val_type(f, index);
    int n = val_type(f, op->args[0]).shape[op->attr[0]];
    Dist r = ce_dist_of(e, res);
    const char *elem = rt.rank <= 2 ? ce_linear_text(e, &r, rt, CE_SLOT) : "-1";
    ce_unroll(e);
    ce_line(e, "for (int %s = 0; %s < %d; ++%s)", CE_SLOT, CE_SLOT, r.nE, CE_SLOT);
    ce_line(e, "    mt_check_gather((long long)%s[%s], %s, %d, %s, %s);", e->name[index], CE_SLOT,
            dtype_is_unsigned((DType)it.dtype) ? "true" : "false", n, elem, site(e, op->loc));
    return HAS_ERROR(e->c) ? -1 : 0;
}
