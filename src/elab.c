/* elab.c: the elaborator's statements and expressions, AST -> typed SSA.
 *
 * Input: a Module (indexed by parse.c), the kernel's name, its signature
 * (one SigEntry per parameter: pointer/scalar types for runtime parameters,
 * literal values for tl.constexpr ones) and caller-given globals.  Output: a
 * Func whose ops are typed with ir_infer_type (typerules.c), so that ir_verify
 * accepts whatever the elaborator builds.
 *
 * The kernel body is interpreted statement by statement, like Triton's code
 * generator: every expression evaluates to a compile-time value (CV, see
 * ctval.c) that is either a Python value or a TENSOR, an SSA value.  Python
 * values stay compile-time until they meet a tensor, where they become
 * "weak" constants taking the tensor's dtype.  Compile-time `if`s and short
 * static loops are resolved here; runtime loops become `for` ops whose
 * carried values are the names the body assigns that exist before the loop.
 * Ops are emitted in program order (loads stay ordered with stores).
 *
 * The elaborator is three files: this one walks statements and
 * expressions and resolves names; ctval.c holds the values, their Python
 * operators and the op emission; builtins.c holds the language's builtins
 * behind one table.  Their shared declarations are the "elaborator
 * internals" section of mt.h.
 *
 * Invariants: the first error is recorded in the Ctx and every function
 * returns -1 (or NULL) up the stack; no input crashes or hangs: recursion
 * (expressions, statements, inlining) and unrolling are bounded, every index
 * is range-checked, int64 arithmetic is overflow-checked. */
#include "mt.h"

#include <ctype.h>
#include <string.h>

#define MAX_INLINE 32         /* @jit helper inlining depth */
#define MAX_WORK 1000000      /* statements and helper calls per kernel */

/* ------------------------------------------------------------------ scopes */

/* Every error of the elaborator: located, and the first one wins. */
int elab_err(Elab *E, Loc loc, mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(E->c, loc, st, fmt, ap);
    va_end(ap);
    return -1;
}

Binding *elab_scope_find(Scope *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->b[i].name, name))
            return &s->b[i];
    return NULL;
}

void elab_scope_set(Elab *E, const char *name, CV v) {
    Binding *b = elab_scope_find(E->scope, name);
    if (b) {
        b->v = v;
        return;
    }
    Binding nb = {name, v};
    VEC_PUSH(E->c->arena, E->scope->b, E->scope->n, E->scope->cap, nb);
}

void elab_scope_remove(Scope *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->b[i].name, name)) {
            memmove(&s->b[i], &s->b[i + 1], sizeof(Binding) * (size_t)(s->n - i - 1));
            s->n--;
            return;
        }
}

/* Source text of the token at loc (digits of a too-big literal). */
static const char *source_word(Elab *E, Loc loc) {
    const char *s = E->c->src;
    if (!s)
        return "?";
    size_t i = 0, n = E->c->srclen;
    int line = 1;
    while (i < n && line < loc.line) {
        if (s[i] == '\n')
            line++;
        i++;
    }
    if (loc.col > 1)
        i += (size_t)(loc.col - 1);
    size_t j = i;
    while (j < n && (isalnum((unsigned char)s[j]) || s[j] == '_'))
        j++;
    if (i >= n || j == i)
        return "?";
    return arena_strndup(E->c->arena, s + i, j - i);
}

/* ---------------------------------------------------------- forward decls */

static int exec_one(Elab *E, Node *s);
static int lookup_name(Elab *E, const char *name, Loc loc, CV *out);
static int call_jit(Elab *E, TopFunc *tf, const Args *a, Loc loc, CV *out);

/* ------------------------------------------------------------ name lookup */

/* The modules a kernel may use under any of the names they are imported
 * by; any other module is kept by name, to be refused when used. */
static CV module_for_path(Elab *E, const char *path) {
    if (!strcmp(path, "triton.language") || !strcmp(path, "mytriton.language") ||
        !strcmp(path, "triton.language.math") || !strcmp(path, "triton.language.core") ||
        !strcmp(path, "triton.language.random"))
        return cv_module(MOD_TL, "triton.language");
    if (!strcmp(path, "triton") || !strcmp(path, "mytriton"))
        return cv_module(MOD_TRITON, "triton");
    if (!strcmp(path, "math"))
        return cv_module(MOD_MATH, "math");
    /* libdevice, under Triton's names for it (tlmath.c) */
    const char *rest = !strncmp(path, "triton.", 7)     ? path + 7
                       : !strncmp(path, "mytriton.", 9) ? path + 9
                                                        : "";
    if (!strcmp(rest, "language.extra") || !strcmp(rest, "language.extra.cuda"))
        return cv_module(MOD_EXTRA, "triton.language.extra");
    if (!strcmp(rest, "language.extra.libdevice") ||
        !strcmp(rest, "language.extra.cuda.libdevice"))
        return cv_module(MOD_LIBDEVICE, "triton.language.extra.libdevice");
    return cv_module(MOD_OTHER, arena_strdup(E->c->arena, path));
}

/* An import path "a.b.c": a module, or an attribute of one
 * (from triton.language import constexpr). */
static int resolve_import(Elab *E, const char *path, Loc loc, CV *out) {
    CV m = module_for_path(E, path);
    if (m.sub != MOD_OTHER) {
        *out = m;
        return 0;
    }
    const char *dot = strrchr(path, '.');
    if (dot) {
        char *head = arena_strndup(E->c->arena, path, (size_t)(dot - path));
        CV base = module_for_path(E, head);
        if (base.sub != MOD_OTHER)
            return builtin_getattr(E, base, dot + 1, loc, out);
    }
    *out = m;
    return 0;
}

/* A module-level constant, evaluated on first use only (most are never
 * used by a kernel) in an empty scope; a cycle is an error, not a hang. */
static int eval_module_const(Elab *E, int k, Loc loc, CV *out) {
    TopConst *tc = &E->m->consts[k];
    if (E->const_state[k] == 2) {
        *out = E->const_vals[k];
        return 0;
    }
    if (E->const_state[k] == 1)
        return elab_err(E, loc, MT_ERR_NAME, "module constant '%s' refers to itself",
                        tc->name);
    Node *expr = parse_const_expr(E->c, E->m, tc);
    if (!expr)
        return -1;
    E->const_state[k] = 1;
    Scope fresh = {0};
    Scope *saved = E->scope;
    E->scope = &fresh;
    E->const_eval++;
    CV v;
    int rc = elab_eval(E, expr, &v);
    E->const_eval--;
    E->scope = saved;
    if (rc < 0)
        return -1;
    if (v.kind == CV_TENSOR)
        return elab_err(E, tc->loc, MT_ERR_TYPE,
                        "module constant '%s' must be a compile-time value", tc->name);
    E->const_vals[k] = v;
    E->const_state[k] = 2;
    *out = v;
    return 0;
}

/* Python's order, innermost first: the local scope, then what the module
 * defines (the caller's globals stand for the module's other globals),
 * then the imports, then the builtins. */
static int lookup_name(Elab *E, const char *name, Loc loc, CV *out) {
    Binding *b = elab_scope_find(E->scope, name);
    if (b) {
        *out = b->v;
        return 0;
    }
    for (int i = 0; i < E->in->nglobals; i++) {
        const mt_global *g = &E->in->globals[i];
        if (g->name && g->value && !strcmp(g->name, name)) {
            ConstVal k;
            if (sig_parse_literal(g->value, &k, E->c->arena) < 0)
                return elab_err(E, loc, MT_ERR_ARG,
                                "global '%s' has an invalid value '%s'", name, g->value);
            return cv_from_const(E, &k, loc, out);
        }
    }
    for (int i = 0; i < E->m->nconsts; i++)
        if (E->m->consts[i].name && !strcmp(E->m->consts[i].name, name))
            return eval_module_const(E, i, loc, out);
    for (int i = 0; i < E->m->nfuncs; i++)
        if (E->m->funcs[i].name && !strcmp(E->m->funcs[i].name, name)) {
            CV v = cv_none();
            v.kind = CV_JITFN;
            v.fn = &E->m->funcs[i];
            *out = v;
            return 0;
        }
    for (int i = 0; i < E->m->nimports; i++) {
        TopImport *im = &E->m->imports[i];
        if (im->alias && im->path && !strcmp(im->alias, name))
            return resolve_import(E, im->path, loc, out);
    }
    if (!strcmp(name, "tl")) {
        *out = cv_module(MOD_TL, "triton.language");
        return 0;
    }
    if (!strcmp(name, "triton") || !strcmp(name, "mytriton") ||
        !strcmp(name, "math")) {
        *out = module_for_path(E, name);
        return 0;
    }
    if (builtin_global(name, out))
        return 0;
    if (!strcmp(name, "True") || !strcmp(name, "False")) {
        *out = cv_bool(name[0] == 'T');
        return 0;
    }
    if (!strcmp(name, "None")) {
        *out = cv_none();
        return 0;
    }
    return elab_err(E, loc, MT_ERR_NAME, "name '%s' is not defined", name);
}

/* ------------------------------------------------------------- expressions */

/* Evaluates a call's arguments left to right, as Python does; binding
 * them to parameters is the callee's business (builtins.c, call_jit). */
int elab_eval_args(Elab *E, Node *call, Args *a) {
    memset(a, 0, sizeof *a);
    int n = call->nitems;
    if (n < 0)
        n = 0;
    a->pos = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(n + 1));
    a->posloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)(n + 1));
    a->kw = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(n + 1));
    a->kwloc = arena_alloc(E->c->arena, sizeof(Loc) * (size_t)(n + 1));
    a->kwname = arena_alloc(E->c->arena, sizeof(char *) * (size_t)(n + 1));
    for (int i = 0; i < n; i++) {
        Node *it = call->items[i];
        if (!it)
            return elab_err(E, call->loc, MT_ERR_SYNTAX, "missing argument");
        if (it->kind == ND_STARRED)
            return elab_err(E, it->loc, MT_ERR_UNSUPPORTED, "'*args' in calls is not supported");
        if (it->kind == ND_KEYWORD) {
            if (!it->name)
                return elab_err(E, it->loc, MT_ERR_UNSUPPORTED, "**kwargs are not supported");
            for (int k = 0; k < a->nkw; k++)
                if (!strcmp(a->kwname[k], it->name))
                    return elab_err(E, it->loc, MT_ERR_SYNTAX, "keyword argument repeated: '%s'",
                                    it->name);
            if (elab_eval(E, it->rhs, &a->kw[a->nkw]) < 0)
                return -1;
            a->kwname[a->nkw] = it->name;
            a->kwloc[a->nkw++] = it->loc;
            continue;
        }
        if (a->nkw)
            return elab_err(E, it->loc, MT_ERR_SYNTAX,
                            "positional argument follows keyword argument");
        if (elab_eval(E, it, &a->pos[a->npos]) < 0)
            return -1;
        a->posloc[a->npos++] = it->loc;
    }
    return 0;
}

static int eval_call(Elab *E, Node *n, CV *out) {
    CV callee;
    Args a;
    if (!n->lhs)
        return elab_err(E, n->loc, MT_ERR_SYNTAX, "missing callee");
    if (elab_eval(E, n->lhs, &callee) < 0 || elab_eval_args(E, n, &a) < 0)
        return -1;
    switch (callee.kind) {
    case CV_JITFN:
        return call_jit(E, callee.fn, &a, n->loc, out);
    case CV_BUILTIN:
    case CV_BOUND:
    case CV_DTYPE:
        return builtin_call(E, callee, &a, n->loc, out);
    default:
        return elab_err(E, n->loc, MT_ERR_TYPE, "'%s' object is not callable",
                        cv_kind_name(E, callee));
    }
}

/* A tensor is indexed only by ':' and None (x[:, None]): a new axis is
 * an expand_dims, a full slice keeps its axis, anything else would be a
 * gather the IR cannot express. */
static int eval_subscript(Elab *E, Node *n, CV *out) {
    CV base, idx;
    if (!n->lhs || !n->rhs)
        return elab_err(E, n->loc, MT_ERR_SYNTAX, "malformed subscript");
    if (elab_eval(E, n->lhs, &base) < 0 || elab_eval(E, n->rhs, &idx) < 0)
        return -1;
    if (base.kind == CV_TUPLE || base.kind == CV_STR)
        return ct_index(E, base, idx, n->loc, out);
    if (base.kind != CV_TENSOR)
        return elab_err(E, n->loc, MT_ERR_TYPE, "'%s' object is not subscriptable",
                        cv_kind_name(E, base));
    const CV *items = &idx;
    int ni = 1;
    if (idx.kind == CV_TUPLE && !idx.is_list) {
        items = idx.items;
        ni = idx.n;
    }
    ValId x = base.v;
    int d = 0;
    for (int i = 0; i < ni; i++) {
        CV it = items[i];
        bool full_slice = it.kind == CV_SLICE && it.items[0].kind == CV_NONE &&
                          it.items[1].kind == CV_NONE && it.items[2].kind == CV_NONE;
        if (!full_slice && it.kind != CV_NONE)
            return elab_err(E, n->loc, MT_ERR_UNSUPPORTED,
                            "unsupported tensor index: only ':' and None are supported "
                            "when indexing a tensor");
    }
    /* a ':' past the last dim is not refused: Triton's __getitem__ passes
     * over every full slice (test_core's keep_dims reductions index a
     * scalar pointer with [None, None, :]) */
    for (int i = 0; i < ni; i++) {
        if (items[i].kind == CV_NONE) {
            if (elab_expand_dims(E, x, d, n->loc, &x) < 0)
                return -1;
        }
        d++;
    }
    *out = cv_tensor(x);
    return 0;
}

/* a < b < c is (a < b) and (b < c) with b evaluated once; on tensors the
 * 'and' would need the truth of a tensor, so only `is` chains there. */
static int eval_compare(Elab *E, Node *n, CV *out) {
    if (n->nitems < 2 || !n->ops)
        return elab_err(E, n->loc, MT_ERR_SYNTAX, "malformed comparison");
    CV left;
    if (elab_eval(E, n->items[0], &left) < 0)
        return -1;
    if (n->nitems == 2) {
        CV right;
        if (elab_eval(E, n->items[1], &right) < 0)
            return -1;
        return cv_compare(E, n->ops[0], left, right, n->loc, out);
    }
    for (int i = 1; i < n->nitems; i++) {
        CV right;
        if (elab_eval(E, n->items[i], &right) < 0)
            return -1;
        if ((left.kind == CV_TENSOR || right.kind == CV_TENSOR) &&
            n->ops[i - 1] != OT_IS && n->ops[i - 1] != OT_IS_NOT)
            return elab_err(E, n->loc, MT_ERR_UNSUPPORTED,
                            "chained comparison on runtime values; when combining "
                            "comparisons with &, wrap each comparison in parentheses");
        CV r;
        if (cv_compare(E, n->ops[i - 1], left, right, n->loc, &r) < 0)
            return -1;
        if (!r.i) {
            *out = cv_bool(false);
            return 0;
        }
        left = right;
    }
    *out = cv_bool(true);
    return 0;
}

/* and, or, not on a tensor: Triton reinterprets it as int1, which only a
 * bool tensor is (other widths are its bitcast error). */
static int need_bool_tensor(Elab *E, CV v, const char *op, Loc loc) {
    Type t = cv_type(E, v);
    if (t.is_ptr || t.dtype != DT_I1)
        return elab_err(E, loc, MT_ERR_TYPE, "'%s' needs bool operands, got %s; compare "
                        "with 0 first", op, elab_type_text(E, t));
    return 0;
}

/* a and b and ...: compile-time operands short-circuit as in Python (a
 * false one under `and`, a true one under `or`, is the value); tensors,
 * all evaluated, combine with & or |, as Triton's logical_and/or do. */
static int eval_boolop(Elab *E, Node *n, CV *out) {
    bool is_and = n->op == OT_AND;
    const char *name = is_and ? "and" : "or";
    CV acc = cv_none(), v = cv_none();
    bool have = false;
    for (int i = 0; i < n->nitems; i++) {
        if (elab_eval(E, n->items[i], &v) < 0)
            return -1;
        if (v.kind != CV_TENSOR) {
            bool t = false;
            if (cv_truth(E, v, n->loc, "", &t) < 0)
                return -1;
            if (t != is_and) { /* decides the result */
                *out = v;
                return 0;
            }
            continue;
        }
        if (need_bool_tensor(E, v, name, n->items[i]->loc) < 0)
            return -1;
        if (have && cv_binop(E, is_and ? OT_AMP : OT_PIPE, acc, v, n->loc, &acc) < 0)
            return -1;
        if (!have)
            acc = v;
        have = true;
    }
    *out = have ? acc : v;
    return 0;
}

static int eval_unary(Elab *E, Node *n, CV *out) {
    CV v;
    if (!n->rhs)
        return elab_err(E, n->loc, MT_ERR_SYNTAX, "missing operand");
    /* -9223372036854775808 is in range although its magnitude is not. */
    if (n->op == OT_MINUS && n->rhs->kind == ND_INT && n->rhs->big &&
        !strcmp(source_word(E, n->rhs->loc), "9223372036854775808")) {
        *out = cv_int(INT64_MIN);
        return 0;
    }
    if (elab_eval(E, n->rhs, &v) < 0)
        return -1;
    if (n->op == OT_NOT) {
        bool t = false;
        if (v.kind == CV_TENSOR) /* Triton's not_: the bool tensor inverted */
            return need_bool_tensor(E, v, "not", n->loc) < 0 ? -1
                                                               : cv_unary(E, OT_TILDE, v, n->loc, out);
        if (cv_truth(E, v, n->loc, "", &t) < 0)
            return -1;
        *out = cv_bool(!t);
        return 0;
    }
    return cv_unary(E, n->op, v, n->loc, out);
}

static int eval_inner(Elab *E, Node *n, CV *out) {
    switch (n->kind) {
    case ND_NAME:
        if (!n->name)
            return elab_err(E, n->loc, MT_ERR_SYNTAX, "missing name");
        return lookup_name(E, n->name, n->loc, out);
    case ND_INT:
        if (n->big)
            return elab_err(E, n->loc, MT_ERR_TYPE, "integer literal %s is out of range",
                            source_word(E, n->loc));
        *out = cv_int(n->ival);
        return 0;
    case ND_FLOAT: *out = cv_float(n->fval); return 0;
    case ND_STR: *out = cv_str(n->sval, n->slen); return 0;
    case ND_BOOL: *out = cv_bool(n->ival != 0); return 0;
    case ND_NONE: *out = cv_none(); return 0;
    case ND_ELLIPSIS:
        *out = cv_none();
        out->kind = CV_ELLIPSIS;
        return 0;
    case ND_ATTR: {
        CV base;
        if (!n->lhs)
            return elab_err(E, n->loc, MT_ERR_SYNTAX, "malformed attribute");
        if (elab_eval(E, n->lhs, &base) < 0)
            return -1;
        return builtin_getattr(E, base, n->name, n->loc, out);
    }
    case ND_CALL: return eval_call(E, n, out);
    case ND_KEYWORD:
        return elab_err(E, n->loc, MT_ERR_SYNTAX, "keyword argument outside a call");
    case ND_BINOP: {
        CV a, b;
        if (!n->lhs || !n->rhs)
            return elab_err(E, n->loc, MT_ERR_SYNTAX, "missing operand");
        if (elab_eval(E, n->lhs, &a) < 0 || elab_eval(E, n->rhs, &b) < 0)
            return -1;
        return cv_binop(E, n->op, a, b, n->loc, out);
    }
    case ND_UNARY: return eval_unary(E, n, out);
    case ND_COMPARE: return eval_compare(E, n, out);
    case ND_BOOLOP: return eval_boolop(E, n, out);
    case ND_IFEXP: {
        CV c;
        bool t = false;
        if (!n->cond || !n->then || !n->els)
            return elab_err(E, n->loc, MT_ERR_SYNTAX, "malformed conditional expression");
        if (elab_eval(E, n->cond, &c) < 0)
            return -1;
        if (c.kind == CV_TENSOR)
            return elab_eval_runtime_ifexp(E, n, c, out);
        if (cv_truth(E, c, n->loc, "", &t) < 0)
            return -1;
        return elab_eval(E, t ? n->then : n->els, out);
    }
    case ND_TUPLE:
    case ND_LIST: {
        CV t = cv_tuple(E, n->nitems > 0 ? n->nitems : 0);
        t.is_list = n->kind == ND_LIST;
        for (int i = 0; i < t.n; i++) {
            if (n->items[i] && n->items[i]->kind == ND_STARRED)
                return elab_err(E, n->items[i]->loc, MT_ERR_UNSUPPORTED,
                                "starred expressions are not supported");
            if (elab_eval(E, n->items[i], &t.items[i]) < 0)
                return -1;
        }
        *out = t;
        return 0;
    }
    case ND_DICT:
        return elab_err(E, n->loc, MT_ERR_UNSUPPORTED, "dictionaries are not supported in kernels");
    case ND_SUBSCRIPT: return eval_subscript(E, n, out);
    case ND_SLICE: {
        CV s = cv_tuple(E, 3);
        s.kind = CV_SLICE;
        Node *parts[3] = {n->lhs, n->rhs, n->cond};
        for (int i = 0; i < 3; i++) {
            s.items[i] = cv_none();
            if (parts[i] && elab_eval(E, parts[i], &s.items[i]) < 0)
                return -1;
        }
        *out = s;
        return 0;
    }
    case ND_STARRED:
        return elab_err(E, n->loc, MT_ERR_UNSUPPORTED, "starred expressions are not supported");
    case ND_LAMBDA:
        return elab_err(E, n->loc, MT_ERR_UNSUPPORTED,
                        "lambda expressions are not supported in kernels");
    default:
        return elab_err(E, n->loc, MT_ERR_UNSUPPORTED, "statement used as an expression");
    }
}

int elab_eval(Elab *E, Node *n, CV *out) {
    *out = cv_none();
    if (!n)
        return elab_err(E, (Loc){0, 0}, MT_ERR_SYNTAX, "missing expression");
    if (HAS_ERROR(E->c))
        return -1;
    if (E->nest >= MAX_NEST)
        return elab_err(E, n->loc, MT_ERR_UNSUPPORTED, "expression is nested too deeply");
    E->nest++;
    int rc = eval_inner(E, n, out);
    E->nest--;
    return rc;
}

/* ------------------------------------------------------------- jit helpers */

/* `tl.constexpr`, `constexpr`, their string forms, or Annotated[..,
 * constexpr]: the annotation is read, never evaluated, so a kernel needs
 * no import for it to work. */
static bool is_constexpr_ann(const Node *a) {
    if (!a)
        return false;
    switch (a->kind) {
    case ND_NAME:
    case ND_ATTR:
        return a->name && !strcmp(a->name, "constexpr");
    case ND_STR:
        return a->sval && (!strcmp(a->sval, "tl.constexpr") ||
                           !strcmp(a->sval, "constexpr") ||
                           !strcmp(a->sval, "triton.language.constexpr"));
    case ND_SUBSCRIPT: {
        const Node *h = a->lhs;
        if (!h || (h->kind != ND_NAME && h->kind != ND_ATTR) || !h->name ||
            strcmp(h->name, "Annotated") || !a->rhs || a->rhs->kind != ND_TUPLE)
            return false;
        for (int i = 1; i < a->rhs->nitems; i++)
            if (is_constexpr_ann(a->rhs->items[i]))
                return true;
        return false;
    }
    default:
        return false;
    }
}

/* `tl.const` (or its string form): a pointer parameter to constant data,
 * Triton's const pointer type. */
static bool is_const_ann(const Node *a) {
    if (!a)
        return false;
    if (a->kind == ND_NAME || a->kind == ND_ATTR)
        return a->name && !strcmp(a->name, "const");
    return a->kind == ND_STR && a->sval &&
           (!strcmp(a->sval, "tl.const") || !strcmp(a->sval, "const") ||
            !strcmp(a->sval, "triton.language.const"));
}

/* @jit(noinline=True) on the helper's definition. */
static bool is_noinline(const Node *fn) {
    for (int i = 0; i < fn->ndecorators; i++) {
        const Node *d = fn->decorators[i];
        if (!d || d->kind != ND_CALL)
            continue;
        for (int k = 0; k < d->nitems; k++) {
            const Node *kw = d->items[k];
            if (kw && kw->kind == ND_KEYWORD && kw->name && !strcmp(kw->name, "noinline") &&
                kw->rhs && kw->rhs->kind == ND_BOOL && kw->rhs->ival)
                return true;
        }
    }
    return false;
}

/* Triton calls a noinline helper as a function of scalars: a block of more
 * than one element is refused, as its code generator refuses it (the
 * helper is still inlined here, which computes what Triton's call would). */
static int check_noinline_arg(Elab *E, TopFunc *tf, const Node *fn, int i, CV v, Loc loc) {
    if (v.kind != CV_TENSOR)
        return 0;
    Type t = val_type(E->f, v.v);
    if (t.rank == 0 || type_numel(t) == 1)
        return 0;
    return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                    "Function %s is marked noinline, but was called with non-scalar argument "
                    "%s:%s", tf->name, fn->params[i].name ? fn->params[i].name : "?",
                    elab_type_text(E, t));
}

/* A @jit helper is inlined: its body runs in a fresh scope with its
 * parameters bound, and its `return` value is the call's value. */
static int call_jit(Elab *E, TopFunc *tf, const Args *a, Loc loc, CV *out) {
    if (!tf->is_jit)
        return elab_err(E, loc, MT_ERR_NAME, "function '%s' is not a @jit function", tf->name);
    if (E->inline_depth >= MAX_INLINE)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "recursion too deep inlining '%s'", tf->name);
    /* depth alone does not bound f(n-1) + f(n-1): count the work too */
    if (++E->work > MAX_WORK)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                        "kernel elaboration too large (more than %d statements and calls) "
                        "inlining '%s'", MAX_WORK, tf->name);
    Node *fn = parse_function(E->c, E->m, tf);
    if (!fn)
        return -1;
    int np = fn->nparams > 0 ? fn->nparams : 0;
    CV *vals = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(np + 1));
    bool *have = arena_alloc(E->c->arena, (size_t)(np + 1));
    if (a->npos > np)
        return elab_err(E, loc, MT_ERR_TYPE, "%s() takes %d arguments but %d were given",
                        tf->name, np, a->npos);
    for (int i = 0; i < a->npos; i++) {
        vals[i] = a->pos[i];
        have[i] = true;
    }
    for (int k = 0; k < a->nkw; k++) {
        int j = -1;
        for (int i = 0; i < np; i++)
            if (fn->params[i].name && !strcmp(fn->params[i].name, a->kwname[k]))
                j = i;
        if (j < 0)
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got an unexpected keyword argument '%s'", tf->name,
                            a->kwname[k]);
        if (have[j])
            return elab_err(E, a->kwloc[k], MT_ERR_TYPE,
                            "%s() got multiple values for argument '%s'", tf->name,
                            a->kwname[k]);
        vals[j] = a->kw[k];
        have[j] = true;
    }
    if (is_noinline(fn))
        for (int i = 0; i < np; i++)
            if (have[i] && check_noinline_arg(E, tf, fn, i, vals[i], loc) < 0)
                return -1;
    Scope fresh = {0};
    Scope *saved_scope = E->scope;
    E->scope = &fresh;
    int rc = 0;
    for (int i = 0; i < np && rc == 0; i++) {
        Param *p = &fn->params[i];
        if (!p->name) {
            rc = elab_err(E, p->loc, MT_ERR_UNSUPPORTED, "unsupported parameter form");
            break;
        }
        if (!have[i]) {
            if (!p->deflt) {
                rc = elab_err(E, loc, MT_ERR_TYPE, "%s() missing required argument '%s'",
                              tf->name, p->name);
                break;
            }
            if (elab_eval(E, p->deflt, &vals[i]) < 0) {
                rc = -1;
                break;
            }
        }
        /* a helper's tl.constexpr annotation binds nothing: Triton
         * passes a tensor through (tutorial 06's offs_m) */
        elab_scope_set(E, p->name, vals[i]);
    }
    bool saved_ret = E->returned;
    CV saved_val = E->retval;
    int saved_loops = E->loop_depth;
    E->returned = false;
    E->retval = cv_none();
    E->loop_depth = 0;
    struct Segment *saved_cont = E->cont;
    E->cont = NULL;
    E->inline_depth++;
    const char *saved_name = E->fn_name;
    E->fn_name = tf->name;
    if (rc == 0)
        rc = elab_exec_block(E, fn->body, fn->nbody);
    E->fn_name = saved_name;
    E->inline_depth--;
    E->cont = saved_cont;
    *out = E->retval;
    E->returned = saved_ret;
    E->retval = saved_val;
    E->loop_depth = saved_loops;
    E->scope = saved_scope;
    return rc;
}

/* tlscan.c inlines a combine function into a reduce or scan region. */
int elab_call_jit(Elab *E, TopFunc *tf, const Args *a, Loc loc, CV *out) {
    return call_jit(E, tf, a, loc, out);
}

/* -------------------------------------------------------------- statements */

static int assign_target(Elab *E, Node *t, CV v) {
    if (!t)
        return elab_err(E, (Loc){0, 0}, MT_ERR_SYNTAX, "missing assignment target");
    if (t->kind == ND_NAME && t->name) {
        elab_scope_set(E, t->name, v);
        return 0;
    }
    if (t->kind == ND_TUPLE || t->kind == ND_LIST) {
        if (v.kind != CV_TUPLE)
            return elab_err(E, t->loc, MT_ERR_TYPE, "cannot unpack %s into %d names",
                            cv_kind_name(E, v), t->nitems);
        if (v.n != t->nitems)
            return elab_err(E, t->loc, MT_ERR_TYPE,
                            "cannot unpack %d values into %d names", v.n, t->nitems);
        for (int i = 0; i < t->nitems; i++)
            if (assign_target(E, t->items[i], v.items[i]) < 0)
                return -1;
        return 0;
    }
    if (t->kind == ND_STARRED)
        return elab_err(E, t->loc, MT_ERR_UNSUPPORTED, "starred assignment is not supported");
    return elab_err(E, t->loc, MT_ERR_UNSUPPORTED,
                    "only assignment to names and tuples of names is supported");
}

static int exec_stmt(Elab *E, Node *s) {
    if (++E->work > MAX_WORK)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED,
                        "kernel elaboration too large (more than %d statements and calls)",
                        MAX_WORK);
    switch (s->kind) {
    case ND_EXPR_STMT: {
        CV v;
        if (!s->rhs || s->rhs->kind == ND_STR)
            return 0;
        return elab_eval(E, s->rhs, &v);
    }
    case ND_ASSIGN: {
        CV v;
        if (elab_eval(E, s->rhs, &v) < 0 || cv_lift(E, v, s->rhs->loc, &v) < 0)
            return -1;
        for (int i = 0; i < s->nitems; i++)
            if (assign_target(E, s->items[i], v) < 0)
                return -1;
        return 0;
    }
    case ND_ANNASSIGN: {
        CV v;
        Node *t = s->nitems > 0 ? s->items[0] : NULL;
        if (!t || t->kind != ND_NAME)
            return elab_err(E, t ? t->loc : s->loc, MT_ERR_UNSUPPORTED,
                            "only assignment to names and tuples of names is supported");
        if (!s->rhs)
            return 0;
        if (elab_eval(E, s->rhs, &v) < 0)
            return -1;
        if (is_constexpr_ann(s->lhs) && v.kind == CV_TENSOR)
            return elab_err(E, s->rhs->loc, MT_ERR_TYPE,
                            "'%s' is annotated tl.constexpr but its value is not a "
                            "compile-time constant",
                            t->name);
        if (!is_constexpr_ann(s->lhs) && cv_lift(E, v, s->rhs->loc, &v) < 0)
            return -1;
        return assign_target(E, t, v);
    }
    case ND_AUGASSIGN: {
        Node *t = s->nitems > 0 ? s->items[0] : NULL;
        CV cur, v, r;
        if (!t || t->kind != ND_NAME || !t->name)
            return elab_err(E, t ? t->loc : s->loc, MT_ERR_UNSUPPORTED,
                            "only assignment to names is supported in augmented assignment");
        if (lookup_name(E, t->name, t->loc, &cur) < 0 || elab_eval(E, s->rhs, &v) < 0 ||
            cv_binop(E, s->op, cur, v, s->loc, &r) < 0 || cv_lift(E, r, s->loc, &r) < 0)
            return -1;
        elab_scope_set(E, t->name, r);
        return 0;
    }
    case ND_FOR: return elab_exec_for(E, s);
    case ND_IF: {
        CV c;
        bool t = false;
        if (elab_eval(E, s->cond, &c) < 0)
            return -1;
        if (c.kind == CV_TENSOR)
            return elab_exec_runtime_if(E, s, c);
        if (cv_truth(E, c, s->cond ? s->cond->loc : s->loc, "", &t) < 0)
            return -1;
        return t ? elab_exec_block(E, s->body, s->nbody) : elab_exec_block(E, s->orelse, s->norelse);
    }
    case ND_PASS: return 0;
    case ND_RETURN: {
        CV v = cv_none();
        if (E->loop_depth > 0)
            return elab_err(E, s->loc, MT_ERR_UNSUPPORTED,
                            "'return' inside a loop is not supported");
        if (s->rhs) {
            if (E->inline_depth == 0)
                return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "a kernel cannot return a value");
            if (elab_eval(E, s->rhs, &v) < 0 || cv_lift(E, v, s->rhs->loc, &v) < 0)
                return -1;
        }
        E->returned = true;
        E->retval = v;
        return 0;
    }
    case ND_ASSERT: {
        CV c, m = cv_none();
        bool t = false;
        if (elab_eval(E, s->cond, &c) < 0)
            return -1;
        if (c.kind == CV_TENSOR) /* a device assertion, as in Triton */
            return (s->rhs && elab_eval(E, s->rhs, &m) < 0) ? -1
                                                             : tldebug_assert_stmt(E, c, m, s->loc);
        if (cv_truth(E, c, s->loc, "'assert' on a runtime value is not supported", &t) < 0)
            return -1;
        if (t)
            return 0;
        if (s->rhs) {
            if (elab_eval(E, s->rhs, &m) < 0)
                return -1;
            if (m.kind == CV_STR)
                return elab_err(E, s->loc, MT_ERR_TYPE, "assertion failed: %s", m.s);
        }
        return elab_err(E, s->loc, MT_ERR_TYPE, "assertion failed");
    }
    case ND_WHILE: return elab_exec_while(E, s);
    case ND_BREAK:
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "'break' is not supported in kernels");
    case ND_CONTINUE:
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "'continue' is not supported in kernels");
    case ND_FUNCDEF:
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED,
                        "nested function definitions are not supported in kernels");
    case ND_OTHER_STMT: {
        static const struct { const char *ast, *msg; } other[] = {
            {"FunctionDef", "nested function definitions are not supported in kernels"},
            {"AsyncFunctionDef", "nested function definitions are not supported in kernels"},
            {"ClassDef", "class definitions are not supported in kernels"},
            {"With", "'with' statements are not supported in kernels"},
            {"AsyncWith", "'with' statements are not supported in kernels"},
            {"AsyncFor", "'async for' loops are not supported in kernels"},
            {"Try", "'try' statements are not supported in kernels"},
            {"Match", "'match' statements are not supported in kernels"},
            {"Global", "'global' statements are not supported in kernels"},
            {"Nonlocal", "'nonlocal' statements are not supported in kernels"},
            {"Delete", "'del' statements are not supported in kernels"},
            {"Import", "'import' statements are not supported in kernels"},
            {"ImportFrom", "'import' statements are not supported in kernels"},
            {"Raise", "'raise' statements are not supported in kernels"},
            {"Yield", "'yield' is not supported in kernels"},
        };
        for (size_t i = 0; s->name && i < sizeof other / sizeof other[0]; i++)
            if (!strcmp(other[i].ast, s->name))
                return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "%s", other[i].msg);
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED,
                        "'%s' statements are not supported in kernels",
                        s->name ? s->name : "this");
    }
    default: {
        /* an expression node in statement position */
        CV v;
        return elab_eval(E, s, &v);
    }
    }
}

/* Runs statements until a `return`; nesting is bounded here and in eval,
 * so a deep input tree fails with a message instead of the C stack. */
int elab_exec_block(Elab *E, Node **stmts, int n) {
    Segment seg = {stmts, n, 0, E->cont};
    E->cont = &seg;
    int rc = 0;
    for (int i = 0; i < n && !E->returned && rc == 0; i++) {
        seg.pos = i;
        rc = exec_one(E, stmts[i]);
    }
    E->cont = seg.next;
    return rc;
}

static int exec_one(Elab *E, Node *s) {
    {
        if (!s)
            return 0;
        if (HAS_ERROR(E->c))
            return -1;
        if (E->nest >= MAX_NEST)
            return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "statements are nested too deeply");
        E->nest++;
        int rc = exec_stmt(E, s);
        E->nest--;
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ----------------------------------------------------------------- driver */

static const char *sig_type_name(DType d) { return dtype_info[d].short_name; }

static bool valid_dtype(DType d) { return d > DT_VOID && d < DT_COUNT; }

/* Binds the signature to the kernel's parameters (constexpr ones by
 * value, the others as SSA parameters with their divisibility hints),
 * then runs the body. */
Func *elaborate(Ctx *c, const ElabInput *in) {
    if (!c || !in || !in->module || !in->kernel) {
        if (c)
            diag_error(c, (Loc){0, 0}, MT_ERR_ARG, "missing elaboration input");
        return NULL;
    }
    TopFunc *tf = module_find_func(in->module, in->kernel);
    if (!tf) {
        diag_error(c, (Loc){0, 0}, MT_ERR_NAME, "kernel '%s' not found in %s", in->kernel,
                   c->filename ? c->filename : "<kernel>");
        return NULL;
    }
    Node *fn = parse_function(c, in->module, tf);
    if (!fn)
        return NULL;
    if (fn->nparams != in->nsig) {
        diag_error(c, fn->loc, MT_ERR_SIGNATURE,
                   "signature has %d entr%s but kernel '%s' has %d parameter%s", in->nsig,
                   in->nsig == 1 ? "y" : "ies", in->kernel, fn->nparams,
                   fn->nparams == 1 ? "" : "s");
        return NULL;
    }
    Elab E;
    memset(&E, 0, sizeof E);
    Scope scope = {0};
    E.c = c;
    E.m = in->module;
    E.in = in;
    E.scope = &scope;
    E.f = func_new(c, in->kernel);
    if (in->num_warps > 0)
        E.f->num_warps = in->num_warps;
    E.region = &E.f->body;
    int nk = in->module->nconsts > 0 ? in->module->nconsts : 0;
    E.const_vals = arena_alloc(c->arena, sizeof(CV) * (size_t)(nk + 1));
    E.const_state = arena_alloc(c->arena, (size_t)(nk + 1));
    for (int i = 0; i < fn->nparams; i++) {
        Param *p = &fn->params[i];
        SigEntry *se = &in->sig[i];
        const char *pname = p->name ? p->name : "?";
        /* None given for a runtime parameter is a constexpr None, as Triton
         * specialises it (the kernel tests `x is None`) */
        if (is_constexpr_ann(p->annotation) ||
            (se->kind == SIG_CONST && se->value.kind == CK_NONE)) {
            if (se->kind != SIG_CONST) {
                diag_error(c, p->loc, MT_ERR_SIGNATURE,
                           "constexpr parameter '%s' needs a value in the signature, got %s%s",
                           pname, se->kind == SIG_PTR ? "*" : "",
                           sig_type_name(se->dtype));
                return NULL;
            }
            CV v;
            if (cv_from_const(&E, &se->value, p->loc, &v) < 0) {
                if (!HAS_ERROR(c))
                    diag_error(c, p->loc, MT_ERR_SIGNATURE, "invalid value for '%s'", pname);
                return NULL;
            }
            elab_scope_set(&E, pname, v);
            continue;
        }
        if (se->kind == SIG_CONST) {
            diag_error(c, p->loc, MT_ERR_SIGNATURE,
                       "parameter '%s' is not a tl.constexpr; give its type, not a value",
                       pname);
            return NULL;
        }
        if (se->kind == SIG_DESC) {
            CV d;
            if (tl_desc_param(&E, pname, se, p->loc, &d) < 0)
                return NULL;
            elab_scope_set(&E, pname, d);
            continue;
        }
        if (!valid_dtype(se->dtype)) {
            diag_error(c, p->loc, MT_ERR_SIGNATURE, "invalid type for parameter '%s'", pname);
            return NULL;
        }
        Type t = se->kind == SIG_PTR ? type_ptr(se->dtype) : type_scalar(se->dtype);
        ValId v = func_add_param(E.f, pname, t);
        val(E.f, v)->divisibility = se->hint;
        /* Triton's ":1" on an integer: the argument is 1 (still passed),
         * and the kernel sees the constexpr 1, Python's int, as Triton's
         * specialisation makes it (`n // -2` is -1, `x_i8 + n` is i8) */
        if (se->kind != SIG_PTR && se->hint == 1 && dtype_is_int(se->dtype)) {
            elab_scope_set(&E, pname, cv_int(1));
            continue;
        }
        CV pv = cv_tensor(v);
        pv.ptr_const = se->kind == SIG_PTR && (se->is_const || is_const_ann(p->annotation));
        elab_scope_set(&E, pname, pv);
    }
    if (elab_exec_block(&E, fn->body, fn->nbody) < 0 || HAS_ERROR(c))
        return NULL;
    return E.f;
}
