/* elab.c: the elaborator's statements and expressions, AST -> typed SSA.
 *
 * Input: a Module (indexed by parse.c), the kernel's name, its signature
 * (one SigEntry per parameter: pointer/scalar types for runtime parameters,
 * literal values for tl.constexpr ones) and caller-given globals.  Output: a
 * Func whose ops are typed with ir_infer_type (verify.c), so that ir_verify
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

#define MAX_NEST 1100         /* expression/statement recursion (parse.c allows trees 1000 tall) */
#define MAX_INLINE 32         /* @jit helper inlining depth */
#define MAX_UNROLL 65536      /* total unrolled iterations per kernel */
#define MAX_WORK 1000000      /* statements and helper calls per kernel */
#define MAX_AUTO_UNROLL 64    /* range() with constant bounds unrolls up to */

/* ------------------------------------------------------------------ scopes */

typedef struct Binding {
    const char *name;
    CV v;
} Binding;

/* A flat list: kernels bind few names, and a helper's call gets a fresh
 * scope, so Python's function scoping needs no chain. */
struct Scope {
    Binding *b;
    int n, cap;
};

/* A block being run: its statements and the one running now.  The chain
 * (Elab.cont) is what is left of the function after the current
 * statement, block by block outwards. */
typedef struct Segment {
    Node **stmts;
    int n, pos;
    struct Segment *next;
} Segment;

/* Every error of the elaborator: located, and the first one wins. */
int elab_err(Elab *E, Loc loc, mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(E->c, loc, st, fmt, ap);
    va_end(ap);
    return -1;
}

static Binding *scope_find(Scope *s, const char *name) {
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->b[i].name, name))
            return &s->b[i];
    return NULL;
}

static void scope_set(Elab *E, const char *name, CV v) {
    Binding *b = scope_find(E->scope, name);
    if (b) {
        b->v = v;
        return;
    }
    Binding nb = {name, v};
    VEC_PUSH(E->c->arena, E->scope->b, E->scope->n, E->scope->cap, nb);
}

static void scope_remove(Scope *s, const char *name) {
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

static int eval(Elab *E, Node *n, CV *out);
static int exec_block(Elab *E, Node **stmts, int n);
static int exec_one(Elab *E, Node *s);
static int eval_runtime_ifexp(Elab *E, Node *n, CV c, CV *out);
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
    int rc = eval(E, expr, &v);
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
    Binding *b = scope_find(E->scope, name);
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
static int eval_args(Elab *E, Node *call, Args *a) {
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
            if (eval(E, it->rhs, &a->kw[a->nkw]) < 0)
                return -1;
            a->kwname[a->nkw] = it->name;
            a->kwloc[a->nkw++] = it->loc;
            continue;
        }
        if (a->nkw)
            return elab_err(E, it->loc, MT_ERR_SYNTAX,
                            "positional argument follows keyword argument");
        if (eval(E, it, &a->pos[a->npos]) < 0)
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
    if (eval(E, n->lhs, &callee) < 0 || eval_args(E, n, &a) < 0)
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
    if (eval(E, n->lhs, &base) < 0 || eval(E, n->rhs, &idx) < 0)
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
    int d = 0, rank = val_type(E->f, x).rank;
    int nslices = 0;
    for (int i = 0; i < ni; i++) {
        CV it = items[i];
        bool full_slice = it.kind == CV_SLICE && it.items[0].kind == CV_NONE &&
                          it.items[1].kind == CV_NONE && it.items[2].kind == CV_NONE;
        if (!full_slice && it.kind != CV_NONE)
            return elab_err(E, n->loc, MT_ERR_UNSUPPORTED,
                            "unsupported tensor index: only ':' and None are supported "
                            "when indexing a tensor");
        if (full_slice)
            nslices++;
    }
    if (nslices > rank)
        return elab_err(E, n->loc, MT_ERR_TYPE, "too many indices for a rank-%d tensor", rank);
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
    if (eval(E, n->items[0], &left) < 0)
        return -1;
    if (n->nitems == 2) {
        CV right;
        if (eval(E, n->items[1], &right) < 0)
            return -1;
        return cv_compare(E, n->ops[0], left, right, n->loc, out);
    }
    for (int i = 1; i < n->nitems; i++) {
        CV right;
        if (eval(E, n->items[i], &right) < 0)
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
        if (eval(E, n->items[i], &v) < 0)
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
    if (eval(E, n->rhs, &v) < 0)
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
        if (eval(E, n->lhs, &base) < 0)
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
        if (eval(E, n->lhs, &a) < 0 || eval(E, n->rhs, &b) < 0)
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
        if (eval(E, n->cond, &c) < 0)
            return -1;
        if (c.kind == CV_TENSOR)
            return eval_runtime_ifexp(E, n, c, out);
        if (cv_truth(E, c, n->loc, "", &t) < 0)
            return -1;
        return eval(E, t ? n->then : n->els, out);
    }
    case ND_TUPLE:
    case ND_LIST: {
        CV t = cv_tuple(E, n->nitems > 0 ? n->nitems : 0);
        t.is_list = n->kind == ND_LIST;
        for (int i = 0; i < t.n; i++) {
            if (n->items[i] && n->items[i]->kind == ND_STARRED)
                return elab_err(E, n->items[i]->loc, MT_ERR_UNSUPPORTED,
                                "starred expressions are not supported");
            if (eval(E, n->items[i], &t.items[i]) < 0)
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
            if (parts[i] && eval(E, parts[i], &s.items[i]) < 0)
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

static int eval(Elab *E, Node *n, CV *out) {
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
            if (eval(E, p->deflt, &vals[i]) < 0) {
                rc = -1;
                break;
            }
        }
        if (is_constexpr_ann(p->annotation) && vals[i].kind == CV_TENSOR) {
            rc = elab_err(E, loc, MT_ERR_TYPE,
                          "argument '%s' of '%s' is a tl.constexpr and needs a "
                          "compile-time value",
                          p->name, tf->name);
            break;
        }
        scope_set(E, p->name, vals[i]);
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
    if (rc == 0)
        rc = exec_block(E, fn->body, fn->nbody);
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
        scope_set(E, t->name, v);
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

/* Names assigned anywhere in stmts (first-appearance order): the
 * candidates for a runtime loop's carried values, found before the body
 * runs because the for op needs its carries up front. */
typedef struct NameList {
    const char **names;
    Loc *locs;
    int n, cap, capl;
} NameList;

static void names_add(Elab *E, NameList *l, const char *name, Loc loc) {
    for (int i = 0; i < l->n; i++)
        if (!strcmp(l->names[i], name))
            return;
    int n2 = l->n;
    VEC_PUSH(E->c->arena, l->locs, n2, l->capl, loc);
    VEC_PUSH(E->c->arena, l->names, l->n, l->cap, name);
}

static void collect_target(Elab *E, NameList *l, Node *t, int depth) {
    if (!t || depth > MAX_NEST)
        return;
    if (t->kind == ND_NAME && t->name)
        names_add(E, l, t->name, t->loc);
    else if (t->kind == ND_TUPLE || t->kind == ND_LIST)
        for (int i = 0; i < t->nitems; i++)
            collect_target(E, l, t->items[i], depth + 1);
}

static void collect_assigned(Elab *E, NameList *l, Node **stmts, int n, int depth) {
    if (depth > MAX_NEST)
        return;
    for (int i = 0; i < n; i++) {
        Node *s = stmts[i];
        if (!s)
            continue;
        switch (s->kind) {
        case ND_ASSIGN:
            for (int k = 0; k < s->nitems; k++)
                collect_target(E, l, s->items[k], depth);
            break;
        case ND_ANNASSIGN:
            if (s->rhs && s->nitems > 0)
                collect_target(E, l, s->items[0], depth);
            break;
        case ND_AUGASSIGN:
            if (s->nitems > 0)
                collect_target(E, l, s->items[0], depth);
            break;
        case ND_FOR:
        case ND_WHILE:
        case ND_IF:
            collect_assigned(E, l, s->body, s->nbody, depth + 1);
            collect_assigned(E, l, s->orelse, s->norelse, depth + 1);
            break;
        default:
            break;
        }
    }
}

/* A carried value enters the loop as SSA: a compile-time number before
 * the loop becomes a constant of its default type. */
static int carry_init(Elab *E, const char *name, CV v, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR || cv_is_num(v))
        return cv_materialise(E, v, loc, out);
    return elab_err(E, loc, MT_ERR_TYPE,
                    "loop-carried variable '%s' must be a number or a tensor before the "
                    "loop, got %s",
                    name, cv_kind_name(E, v));
}

/* What the body leaves in a carried name must keep the carry's type: SSA
 * loop arguments have one type; a compile-time number is converted when it
 * fits, the usual mistake (a scalar accumulator that becomes a block) is
 * named with its fix. */
static int yield_value(Elab *E, const char *name, CV v, Type ct, Loc loc, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        if (type_eq(t, ct)) {
            *out = v.v;
            return 0;
        }
        if (ct.rank == 0 && t.rank > 0)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes type from %s to %s; "
                            "initialise it with tl.zeros",
                            name, elab_type_text(E, ct), elab_type_text(E, t));
        return elab_err(E, loc, MT_ERR_TYPE,
                        "loop-carried variable '%s' changes type from %s to %s",
                        name, elab_type_text(E, ct), elab_type_text(E, t));
    }
    if (cv_is_num(v) && ct.rank == 0 && !ct.is_ptr) {
        bool ok = (v.kind == CV_BOOL) == (ct.dtype == DT_I1) &&
                  !(v.kind == CV_FLOAT && ct.dtype != DT_F32);
        if (ok) {
            if (v.kind == CV_INT && ct.dtype == DT_I32 && !fits_i32(v.i))
                ok = false;
            else
                return cv_convert(E, v, (DType)ct.dtype, loc, out);
        }
        ValId m;
        if (cv_materialise(E, v, loc, &m) < 0)
            return -1;
        return elab_err(E, loc, MT_ERR_TYPE,
                        "loop-carried variable '%s' changes type from %s to %s",
                        name, elab_type_text(E, ct), elab_type_text(E, val_type(E->f, m)));
    }
    return elab_err(E, loc, MT_ERR_TYPE, "loop-carried variable '%s' changes type from %s to %s",
                    name, elab_type_text(E, ct), cv_kind_name(E, v));
}

/* A runtime loop bound as Triton's to_tensor makes it: a number becomes a
 * constant of its own type (i32, u32 or i64), a tensor must be a scalar
 * integer. */
static int loop_bound(Elab *E, CV v, Loc loc, const char *what, ValId *out) {
    if (v.kind == CV_TENSOR) {
        Type t = cv_type(E, v);
        if (t.rank || t.is_ptr || !dtype_is_int((DType)t.dtype))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "for loop %s must be a scalar integer, got %s", what,
                            elab_type_text(E, t));
        *out = v.v;
        return 0;
    }
    if (cv_is_intlike(v))
        return cv_materialise(E, cv_int(v.i), loc, out);
    return elab_err(E, loc, MT_ERR_TYPE, "for loop %s must be an integer, got %s", what,
                    cv_kind_name(E, v));
}

/* The three bounds of a runtime loop in one integer type (Triton promotes
 * start, stop and step together), signed: the index is i32 or i64. */
static int loop_bounds(Elab *E, const CV b[3], const Loc locs[3], ValId out[3]) {
    static const char *const what[3] = {"start", "stop", "step"};
    DType d = DT_VOID;
    for (int i = 0; i < 3; i++) {
        if (loop_bound(E, b[i], locs[i], what[i], &out[i]) < 0)
            return -1;
        DType di = (DType)val_type(E->f, out[i]).dtype;
        d = d == DT_VOID ? di : integer_promote(d, di);
    }
    d = dtype_info[d].bits > 32 ? DT_I64 : DT_I32;
    for (int i = 0; i < 3; i++)
        if (val_type(E->f, out[i]).dtype != d && elab_cast(E, out[i], d, locs[i], &out[i]) < 0)
            return -1;
    return 0;
}

/* The names a loop carries: those assigned in its body (and condition)
 * that are bound before it.  A name's value is carried by its parts: a
 * tensor or number is one SSA carry, a tuple each of its items, and any
 * other compile-time value none (it must stay the same: `shapes` keeps
 * the value before the loop to rebuild and check it). */
typedef struct Carried {
    const char **names;
    CV *shapes;
    int n;
    ValId *inits; /* the flat SSA carries of all names, in order */
    int nflat, capflat;
} Carried;

/* Values whose parts (items) are carried and joined one by one. */
static bool cv_has_parts(CV v) { return v.kind == CV_TUPLE || v.kind == CV_BLOCKPTR; }

/* Whether part i of such a value may change in a loop: any item of a
 * tuple; of a block pointer (items base, shape x r, strides x r, offsets x
 * r, block_shape x r, order x r) only the offsets, which tl.advance moves
 * (the rest stays what it was, so a constant stride keeps its axis facts
 * and the block shape stays known). */
static bool part_may_change(CV v, int i) {
    if (v.kind != CV_BLOCKPTR)
        return true;
    int r = (v.n - 1) / 5;
    return i >= 1 + 2 * r && i < 1 + 3 * r;
}

static int carry_flatten(Elab *E, Carried *cs, const char *name, CV v, Loc loc, int depth) {
    if (depth > MAX_NEST)
        return elab_err(E, loc, MT_ERR_UNSUPPORTED, "'%s' is nested too deeply", name);
    if (cv_has_parts(v)) {
        for (int i = 0; i < v.n; i++)
            if (part_may_change(v, i) &&
                carry_flatten(E, cs, name, v.items[i], loc, depth + 1) < 0)
                return -1;
        return 0;
    }
    if (v.kind != CV_TENSOR && !cv_is_num(v))
        return 0; /* stays a compile-time value */
    ValId x;
    if (carry_init(E, name, v, loc, &x) < 0)
        return -1;
    VEC_PUSH(E->c->arena, cs->inits, cs->nflat, cs->capflat, x);
    return 0;
}

/* shape with its carried parts replaced, in order, by vals[*pos...]. */
static CV carry_rebuild(Elab *E, CV shape, const ValId *vals, int *pos) {
    if (cv_has_parts(shape)) {
        CV t = shape;
        t.items = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(shape.n + 1));
        for (int i = 0; i < shape.n; i++)
            t.items[i] = part_may_change(shape, i) ? carry_rebuild(E, shape.items[i], vals, pos)
                                                   : shape.items[i];
        return t;
    }
    if (shape.kind != CV_TENSOR && !cv_is_num(shape))
        return shape;
    return cv_tensor(vals[(*pos)++]);
}

static bool same_ct(CV a, CV b);

/* What the body leaves in a carried name, part by part, as the yields of
 * the carries from *pos on. */
static int carry_yield(Elab *E, const char *name, CV shape, CV v, const Op *op, int *pos,
                       Loc loc) {
    if (cv_has_parts(shape)) {
        if (v.kind != shape.kind)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes from %s to %s", name,
                            cv_kind_name(E, shape), cv_kind_name(E, v));
        if (v.n != shape.n)
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes from %d items to %d", name,
                            shape.n, v.n);
        for (int i = 0; i < shape.n; i++) {
            if (!part_may_change(shape, i)) {
                if (!same_ct(shape.items[i], v.items[i]))
                    return elab_err(E, loc, MT_ERR_UNSUPPORTED,
                                    "loop-carried block pointer '%s' changes more than its "
                                    "offsets in the loop; only tl.advance may move it", name);
                continue;
            }
            if (carry_yield(E, name, shape.items[i], v.items[i], op, pos, loc) < 0)
                return -1;
        }
        return 0;
    }
    if (shape.kind != CV_TENSOR && !cv_is_num(shape)) {
        if (!same_ct(shape, v))
            return elab_err(E, loc, MT_ERR_TYPE,
                            "loop-carried variable '%s' changes its compile-time value in "
                            "the loop", name);
        return 0;
    }
    int k = (*pos)++;
    return yield_value(E, name, v, val_type(E->f, op->iters[k]), loc, &op->yields[k]);
}

static int find_carries(Elab *E, Node **body, int nbody, const char *skip, Carried *cs) {
    NameList assigned = {0};
    collect_assigned(E, &assigned, body, nbody, 0);
    memset(cs, 0, sizeof *cs);
    cs->names = arena_alloc(E->c->arena, sizeof(char *) * (size_t)(assigned.n + 1));
    cs->shapes = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(assigned.n + 1));
    for (int i = 0; i < assigned.n; i++) {
        if (skip && !strcmp(assigned.names[i], skip))
            return elab_err(E, assigned.locs[i], MT_ERR_UNSUPPORTED,
                            "assignment to the runtime loop index '%s' is not supported", skip);
        Binding *b = scope_find(E->scope, assigned.names[i]);
        if (!b)
            continue;
        if (!cv_has_parts(b->v) && b->v.kind != CV_TENSOR && !cv_is_num(b->v)) {
            ValId unused;
            return carry_init(E, assigned.names[i], b->v, assigned.locs[i], &unused);
        }
        if (carry_flatten(E, cs, assigned.names[i], b->v, assigned.locs[i], 0) < 0)
            return -1;
        cs->shapes[cs->n] = b->v;
        cs->names[cs->n++] = assigned.names[i];
    }
    return 0;
}

/* Binds every carried name to its value rebuilt from vals (the op's iters
 * or results). */
static void bind_carries(Elab *E, const Carried *cs, const ValId *vals) {
    int pos = 0;
    for (int k = 0; k < cs->n; k++)
        scope_set(E, cs->names[k], carry_rebuild(E, cs->shapes[k], vals, &pos));
}

/* A copy of the scope's bindings, to restore when a region ends. */
typedef struct ScopeSnap {
    Binding *b;
    int n;
} ScopeSnap;

static ScopeSnap scope_save(Elab *E) {
    ScopeSnap s = {arena_alloc(E->c->arena, sizeof(Binding) * (size_t)(E->scope->n + 1)),
                   E->scope->n};
    if (s.n)
        memcpy(s.b, E->scope->b, sizeof(Binding) * (size_t)s.n);
    return s;
}

static void scope_restore(Elab *E, ScopeSnap s) {
    E->scope->n = 0;
    for (int i = 0; i < s.n; i++)
        VEC_PUSH(E->c->arena, E->scope->b, E->scope->n, E->scope->cap, s.b[i]);
}

/* The body of a runtime loop (for or while) in op's body region with the
 * carried names bound to the op's iters; afterwards the scope is the one
 * before the loop (names first bound inside vanish: they have no value on
 * the zero-trip path) with the carried names bound to the op's results. */
static int loop_body(Elab *E, Op *op, const Carried *cs, Node **body, int nbody, Loc loc,
                     ScopeSnap before) {
    Region *saved = E->region;
    E->region = op->body;
    E->loop_depth++;
    int rc = exec_block(E, body, nbody);
    E->loop_depth--;
    int pos = 0;
    for (int k = 0; k < cs->n && rc == 0; k++) {
        Binding *b = scope_find(E->scope, cs->names[k]);
        int at = pos;
        CV v = b ? b->v : carry_rebuild(E, cs->shapes[k], op->iters, &at);
        rc = carry_yield(E, cs->names[k], cs->shapes[k], v, op, &pos, loc);
    }
    E->region = saved;
    if (rc < 0)
        return -1;
    scope_restore(E, before);
    bind_carries(E, cs, op->res);
    return 0;
}

/* while on a runtime condition: a while op whose condition region
 * evaluates the test on the carried values.  A compile-time test is false
 * (the loop never runs) or an error: without break a true one never ends. */
static int exec_while(Elab *E, Node *s) {
    if (s->norelse > 0)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "while/else is not supported");
    if (E->const_eval)
        return elab_err(E, s->loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    Carried cs;
    if (find_carries(E, s->body, s->nbody, NULL, &cs) < 0)
        return -1;
    ScopeSnap before = scope_save(E);
    Op *op = op_new_while(E->f, NULL, s->loc, cs.inits, cs.nflat);
    bind_carries(E, &cs, op->iters);
    Region *saved = E->region;
    E->region = op->alt;
    CV c;
    int rc = eval(E, s->cond, &c);
    E->region = saved;
    if (rc < 0)
        return -1;
    Loc cl = s->cond ? s->cond->loc : s->loc;
    if (c.kind != CV_TENSOR) {
        bool t = false;
        if (cv_truth(E, c, cl, "", &t) < 0)
            return -1;
        if (t)
            return elab_err(E, cl, MT_ERR_UNSUPPORTED,
                            "'while' on a condition that is always true never ends "
                            "('break' is not supported)");
        scope_restore(E, before);
        return 0;
    }
    Type ct = cv_type(E, c);
    if (ct.rank || ct.is_ptr)
        return elab_err(E, cl, MT_ERR_TYPE, "'while' condition must be a scalar, got %s",
                        elab_type_text(E, ct));
    ValId cv = c.v;
    if (ct.dtype != DT_I1) {
        E->region = op->alt;
        ValId ne[2] = {cv, 0};
        rc = cv_materialise_like(E, cv_int(0), ct, cl, &ne[1]) < 0 ||
                     elab_emit(E, OP_CMP_NE, cl, ne, 2, 0, 0, &cv) < 0
                 ? -1
                 : 0;
        E->region = saved;
        if (rc < 0)
            return -1;
    }
    op->alt_yields[0] = cv;
    region_push(E->f, E->region, op);
    return loop_body(E, op, &cs, s->body, s->nbody, s->loc, before);
}

/* A for loop over range/tl.range/tl.static_range.  tl.static_range and
 * short loops with compile-time bounds are unrolled (the body runs once
 * per index, so compile-time values may change between iterations);
 * others become a for op whose carries are the names assigned in the body
 * that are bound before it.  Names first bound inside a runtime loop are
 * dropped after it: they have no value on the zero-trip path. */
static int exec_for(Elab *E, Node *s) {
    Node *tgt = s->nitems > 0 ? s->items[0] : NULL;
    if (s->norelse > 0)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED, "for/else is not supported");
    if (!tgt || tgt->kind != ND_NAME || !tgt->name)
        return elab_err(E, tgt ? tgt->loc : s->loc, MT_ERR_UNSUPPORTED,
                        "only for loops with a simple induction variable are supported");
    Node *it = s->rhs;
    CV callee;
    if (!it || it->kind != ND_CALL || !it->lhs)
        return elab_err(E, it ? it->loc : s->loc, MT_ERR_UNSUPPORTED,
                        "only 'for ... in range(...)' and 'for ... in tl.static_range(...)' "
                        "loops are supported");
    if (eval(E, it->lhs, &callee) < 0)
        return -1;
    if (callee.kind != CV_BUILTIN ||
        (callee.sub != B_RANGE && callee.sub != B_STATIC_RANGE && callee.sub != B_TL_RANGE))
        return elab_err(E, it->loc, MT_ERR_UNSUPPORTED,
                        "only 'for ... in range(...)' and 'for ... in tl.static_range(...)' "
                        "loops are supported");
    bool is_static = callee.sub == B_STATIC_RANGE;
    Args a;
    if (eval_args(E, it, &a) < 0)
        return -1;
    RangeArgs ra;
    if (bind_range(E, callee.sub, it->loc, &a, &ra) < 0)
        return -1;
    CV start = ra.start, stop = ra.stop, step = ra.step;
    bool all_ct = cv_is_intlike(start) && cv_is_intlike(stop) && cv_is_intlike(step);
    if (is_static && !all_ct)
        return elab_err(E, it->loc, MT_ERR_TYPE,
                        "tl.static_range bounds must be compile-time integers");
    const char *iname = tgt->name;
    if (all_ct) {
        if (step.i == 0)
            return elab_err(E, it->loc, MT_ERR_TYPE, "range() step must not be zero");
        uint64_t trip = 0;
        if (step.i > 0 && stop.i > start.i)
            trip = ((uint64_t)stop.i - (uint64_t)start.i - 1) / (uint64_t)step.i + 1;
        else if (step.i < 0 && stop.i < start.i)
            trip = ((uint64_t)start.i - (uint64_t)stop.i - 1) / (uint64_t)(-(step.i + 1) + 1ull) + 1;
        if (is_static || trip <= MAX_AUTO_UNROLL) {
            if (trip > (uint64_t)(MAX_UNROLL - E->unrolled))
                return elab_err(E, it->loc, MT_ERR_UNSUPPORTED,
                                "too many unrolled loop iterations (more than %d)", MAX_UNROLL);
            Binding *old = scope_find(E->scope, iname);
            bool had = old != NULL;
            CV oldv = had ? old->v : cv_none();
            int64_t i = start.i;
            E->loop_depth++;
            for (uint64_t k = 0; k < trip; k++) {
                E->unrolled++;
                scope_set(E, iname, cv_int(i));
                if (exec_block(E, s->body, s->nbody) < 0) {
                    E->loop_depth--;
                    return -1;
                }
                if (k + 1 < trip)
                    i += step.i; /* stays within [start, stop) */
            }
            E->loop_depth--;
            if (had)
                scope_set(E, iname, oldv);
            else
                scope_remove(E->scope, iname);
            return 0;
        }
    }
    /* runtime loop.  A negative constant step runs the mirrored range
     * upwards, as Triton does: i = start + stop - j for j in
     * range(stop, start, -step), since start - i is a multiple of step. */
    if (E->const_eval)
        return elab_err(E, s->loc, MT_ERR_TYPE,
                        "module-level constants must be compile-time values");
    bool negative = cv_is_intlike(step) && step.i < 0;
    if (cv_is_intlike(step) && step.i == 0)
        return elab_err(E, ra.step_loc, MT_ERR_TYPE, "range() step must not be zero");
    CV b[3] = {negative ? stop : start, negative ? start : stop,
               negative ? cv_int(-step.i) : step};
    Loc bl[3] = {ra.start_loc, ra.stop_loc, ra.step_loc};
    if (negative && step.i == INT64_MIN)
        return ct_overflow(E, ra.step_loc);
    ValId bv[3];
    if (loop_bounds(E, b, bl, bv) < 0)
        return -1;
    Carried cs;
    if (find_carries(E, s->body, s->nbody, iname, &cs) < 0)
        return -1;
    ScopeSnap before = scope_save(E);
    Op *op = op_new_for(E->f, E->region, s->loc, bv[0], bv[1], bv[2], cs.inits, cs.nflat);
    bind_carries(E, &cs, op->iters);
    ValId iv = op->index;
    if (negative) {
        Region *saved = E->region;
        E->region = op->body;
        ValId sum[2] = {bv[0], bv[1]}, sub[2] = {0, iv};
        int rc = elab_emit(E, OP_ADD, s->loc, sum, 2, 0, 0, &sub[0]) < 0 ||
                         elab_emit(E, OP_SUB, s->loc, sub, 2, 0, 0, &iv) < 0
                     ? -1
                     : 0;
        E->region = saved;
        if (rc < 0)
            return -1;
    }
    scope_set(E, iname, cv_tensor(iv));
    return loop_body(E, op, &cs, s->body, s->nbody, s->loc, before);
}

/* ------------------------------------------------------------- runtime if */

/* What a runtime if's branches leave: per joined value, its value in each
 * branch (materialised in that branch's region) and the type both share.
 * A joined CV refers to result k as a tensor of ValId -(k + 1) until the
 * if op exists (fix_results). */
typedef struct Joins {
    Region *then_r, *else_r;
    ValId *tv, *ev;
    Type *types;
    int n, cap, capv, cape;
} Joins;

static int join_push(Elab *E, Joins *j, ValId t, ValId e, CV *out) {
    Type ty = val_type(E->f, t);
    int n = j->n, n2 = j->n;
    VEC_PUSH(E->c->arena, j->tv, n, j->capv, t);
    VEC_PUSH(E->c->arena, j->ev, n2, j->cape, e);
    VEC_PUSH(E->c->arena, j->types, j->n, j->cap, ty);
    *out = cv_tensor(-j->n);
    return 0;
}

/* x in region r: a tensor as it is, a number as a constant of type like
 * (or its own type when like has none). */
static int join_materialise(Elab *E, CV x, Type like, Region *r, Loc loc, ValId *out) {
    Region *saved = E->region;
    E->region = r;
    int rc = like.dtype != DT_VOID && x.kind != CV_TENSOR
                 ? cv_materialise_like(E, x, like, loc, out)
                 : cv_materialise(E, x, loc, out);
    E->region = saved;
    return rc;
}

static bool same_ct(CV a, CV b) {
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case CV_NONE: return true;
    case CV_INT: case CV_BOOL: return a.i == b.i;
    case CV_FLOAT: return a.f == b.f || (a.f != a.f && b.f != b.f);
    case CV_STR: return a.n == b.n && !memcmp(a.s, b.s, (size_t)a.n);
    case CV_DTYPE: return a.sub == b.sub && a.i == b.i;
    case CV_TENSOR: return a.v == b.v;
    case CV_BUILTIN: case CV_MODULE: return a.sub == b.sub && a.s == b.s;
    case CV_JITFN: return a.fn == b.fn;
    default: return false;
    }
}

/* The value `name` has after a runtime if whose branches left tv and ev:
 * the same value stays; numbers and tensors become one result of the if,
 * of one type (a number takes the type of a tensor on the other side);
 * tuples join item by item.  Triton requires the same types too. */
static int join_value(Elab *E, Joins *j, const char *name, CV tv, CV ev, Loc loc, CV *out) {
    if (same_ct(tv, ev)) {
        *out = tv;
        return 0;
    }
    if (cv_has_parts(tv) && ev.kind == tv.kind && tv.n == ev.n) {
        *out = tv;
        out->items = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(tv.n + 1));
        for (int i = 0; i < tv.n; i++)
            if (join_value(E, j, name, tv.items[i], ev.items[i], loc, &out->items[i]) < 0)
                return -1;
        return 0;
    }
    bool tn = tv.kind == CV_TENSOR || cv_is_num(tv), en = ev.kind == CV_TENSOR || cv_is_num(ev);
    if (!tn || !en)
        return elab_err(E, loc, MT_ERR_TYPE,
                        "'%s' is %s in the then branch and %s in the else branch of a "
                        "runtime 'if'; both must be numbers or tensors of one type",
                        name, cv_kind_name(E, tv), cv_kind_name(E, ev));
    Type none = type_scalar(DT_VOID);
    Type tl = tv.kind == CV_TENSOR ? cv_type(E, tv) : none;
    Type el = ev.kind == CV_TENSOR ? cv_type(E, ev) : none;
    ValId t, e;
    if (join_materialise(E, tv, el, j->then_r, loc, &t) < 0 ||
        join_materialise(E, ev, tl, j->else_r, loc, &e) < 0)
        return -1;
    Type a = val_type(E->f, t), b = val_type(E->f, e);
    if (!type_eq(a, b))
        return elab_err(E, loc, MT_ERR_TYPE,
                        "'%s' is %s in the then branch and %s in the else branch of a "
                        "runtime 'if'; both must have one type",
                        name, elab_type_text(E, a), elab_type_text(E, b));
    return join_push(E, j, t, e, out);
}

/* Placeholders -(k + 1) become the if's results. */
static CV fix_results(Elab *E, CV v, const Op *op) {
    if (v.kind == CV_TENSOR && v.v < 0) {
        v.v = op->res[-v.v - 1];
    } else if (cv_has_parts(v)) {
        CV t = v;
        t.items = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(v.n + 1));
        for (int i = 0; i < v.n; i++)
            t.items[i] = fix_results(E, v.items[i], op);
        return t;
    }
    return v;
}

/* The if op of two elaborated branches and their joined values. */
static Op *joined_if(Elab *E, const Joins *j, ValId cond, Loc loc) {
    Op *op = op_new_if(E->f, E->region, loc, cond, j->types, j->n);
    op->body = j->then_r;
    op->alt = j->else_r;
    for (int k = 0; k < j->n; k++) {
        op->yields[k] = j->tv[k];
        op->alt_yields[k] = j->ev[k];
    }
    return op;
}

static bool has_return(Node **stmts, int n, int depth) {
    for (int i = 0; i < n && depth < MAX_NEST; i++) {
        Node *s = stmts[i];
        if (!s)
            continue;
        if (s->kind == ND_RETURN)
            return true;
        if ((s->kind == ND_IF || s->kind == ND_FOR || s->kind == ND_WHILE) &&
            (has_return(s->body, s->nbody, depth + 1) ||
             has_return(s->orelse, s->norelse, depth + 1)))
            return true;
    }
    return false;
}

/* One branch of a runtime if into region r, from the scope `before`.
 * With a continuation (a return in either branch), the rest of the
 * function runs in the branch too, unless the branch returned. */
static int run_branch(Elab *E, Node **stmts, int n, Region *r, ScopeSnap before,
                      Segment *rest, ScopeSnap *after) {
    Region *saved = E->region;
    Segment *saved_cont = E->cont;
    scope_restore(E, before);
    E->region = r;
    E->returned = false;
    E->retval = cv_none();
    int rc = exec_block(E, stmts, n);
    for (Segment *s = rest; s && rc == 0 && !E->returned; s = s->next) {
        E->cont = s->next;
        rc = exec_block(E, s->stmts + s->pos + 1, s->n - s->pos - 1);
    }
    E->cont = saved_cont;
    E->region = saved;
    *after = scope_save(E);
    return rc;
}

static CV snap_get(ScopeSnap s, const char *name, bool *found) {
    for (int i = 0; i < s.n; i++)
        if (!strcmp(s.b[i].name, name)) {
            *found = true;
            return s.b[i].v;
        }
    *found = false;
    return cv_none();
}

/* if on a runtime scalar: an if op whose branches are elaborated from the
 * same scope.  Names assigned in a branch that exist after it (bound
 * before, or bound in both branches) are joined into the op's results.
 * A branch that contains a return takes the rest of the function with
 * it, as Triton's top-level if does: each branch runs the statements
 * after the if itself, and the function ends with the if (its value
 * joins what the branches return). */
/* The scalar i1 condition of a runtime if (Triton casts it to int1). */
static int if_condition(Elab *E, CV c, Loc cl, const char *what, ValId *out) {
    Type ct = cv_type(E, c);
    if (E->const_eval)
        return elab_err(E, cl, MT_ERR_TYPE, "module-level constants must be compile-time values");
    if (ct.rank && type_numel(ct) != 1)
        return elab_err(E, cl, MT_ERR_TYPE,
                        "the truth value of a block of %lld elements is ambiguous; %s needs "
                        "a scalar",
                        (long long)type_numel(ct), what);
    if (ct.rank || ct.is_ptr)
        return elab_err(E, cl, MT_ERR_TYPE, "%s needs a scalar condition, got %s", what,
                        elab_type_text(E, ct));
    *out = c.v;
    return ct.dtype == DT_I1 ? 0 : elab_cast(E, c.v, DT_I1, cl, out);
}

/* x if c else y on a runtime c: an if op with one expression per branch
 * (both elaborated, as Triton does). */
static int eval_runtime_ifexp(Elab *E, Node *n, CV c, CV *out) {
    ValId cv;
    if (if_condition(E, c, n->cond->loc, "a conditional expression", &cv) < 0)
        return -1;
    Joins j = {0};
    j.then_r = arena_alloc(E->c->arena, sizeof(Region));
    j.else_r = arena_alloc(E->c->arena, sizeof(Region));
    Region *saved = E->region;
    CV tv, ev, r;
    E->region = j.then_r;
    int rc = eval(E, n->then, &tv);
    E->region = j.else_r;
    rc = rc < 0 ? -1 : eval(E, n->els, &ev);
    E->region = saved;
    if (rc < 0 || join_value(E, &j, "the conditional expression", tv, ev, n->loc, &r) < 0)
        return -1;
    *out = fix_results(E, r, joined_if(E, &j, cv, n->loc));
    return 0;
}

static int exec_runtime_if(Elab *E, Node *s, CV c) {
    Loc cl = s->cond ? s->cond->loc : s->loc;
    ValId cv;
    if (if_condition(E, c, cl, "'if'", &cv) < 0)
        return -1;
    bool with_rest = has_return(s->body, s->nbody, 0) || has_return(s->orelse, s->norelse, 0);
    if (with_rest && E->loop_depth > 0)
        return elab_err(E, s->loc, MT_ERR_UNSUPPORTED,
                        "'return' inside a loop is not supported");
    Segment *rest = with_rest ? E->cont : NULL;
    Joins j = {0};
    j.then_r = arena_alloc(E->c->arena, sizeof(Region));
    j.else_r = arena_alloc(E->c->arena, sizeof(Region));
    ScopeSnap before = scope_save(E), ts, es;
    bool saved_ret = E->returned;
    if (run_branch(E, s->body, s->nbody, j.then_r, before, rest, &ts) < 0)
        return -1;
    bool t_ret = E->returned;
    CV t_val = E->retval;
    if (run_branch(E, s->orelse, s->norelse, j.else_r, before, rest, &es) < 0)
        return -1;
    bool e_ret = E->returned;
    CV e_val = E->retval;
    scope_restore(E, before);
    E->returned = saved_ret;
    NameList names = {0};
    CV *joined = NULL;
    CV ret = cv_none();
    if (with_rest) {
        /* the function ends in both branches: only its value joins */
        if (E->inline_depth > 0 &&
            join_value(E, &j, "the returned value", t_ret ? t_val : cv_none(),
                       e_ret ? e_val : cv_none(), s->loc, &ret) < 0)
            return -1;
    } else {
        collect_assigned(E, &names, s->body, s->nbody, 0);
        collect_assigned(E, &names, s->orelse, s->norelse, 0);
        joined = arena_alloc(E->c->arena, sizeof(CV) * (size_t)(names.n + 1));
        for (int i = 0; i < names.n; i++) {
            bool in_t, in_e;
            CV tv = snap_get(ts, names.names[i], &in_t), ev = snap_get(es, names.names[i], &in_e);
            joined[i] = cv_none();
            joined[i].kind = CV_ELLIPSIS; /* unbound after the if */
            if (in_t && in_e &&
                join_value(E, &j, names.names[i], tv, ev, names.locs[i], &joined[i]) < 0)
                return -1;
        }
    }
    Op *op = joined_if(E, &j, cv, s->loc);
    if (with_rest) {
        E->returned = true;
        E->retval = fix_results(E, ret, op);
        return 0;
    }
    for (int i = 0; i < names.n; i++) {
        if (joined[i].kind == CV_ELLIPSIS)
            scope_remove(E->scope, names.names[i]);
        else
            scope_set(E, names.names[i], fix_results(E, joined[i], op));
    }
    return 0;
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
        return eval(E, s->rhs, &v);
    }
    case ND_ASSIGN: {
        CV v;
        if (eval(E, s->rhs, &v) < 0)
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
        if (eval(E, s->rhs, &v) < 0)
            return -1;
        if (is_constexpr_ann(s->lhs) && v.kind == CV_TENSOR)
            return elab_err(E, s->rhs->loc, MT_ERR_TYPE,
                            "'%s' is annotated tl.constexpr but its value is not a "
                            "compile-time constant",
                            t->name);
        return assign_target(E, t, v);
    }
    case ND_AUGASSIGN: {
        Node *t = s->nitems > 0 ? s->items[0] : NULL;
        CV cur, v, r;
        if (!t || t->kind != ND_NAME || !t->name)
            return elab_err(E, t ? t->loc : s->loc, MT_ERR_UNSUPPORTED,
                            "only assignment to names is supported in augmented assignment");
        if (lookup_name(E, t->name, t->loc, &cur) < 0 || eval(E, s->rhs, &v) < 0 ||
            cv_binop(E, s->op, cur, v, s->loc, &r) < 0)
            return -1;
        scope_set(E, t->name, r);
        return 0;
    }
    case ND_FOR: return exec_for(E, s);
    case ND_IF: {
        CV c;
        bool t = false;
        if (eval(E, s->cond, &c) < 0)
            return -1;
        if (c.kind == CV_TENSOR)
            return exec_runtime_if(E, s, c);
        if (cv_truth(E, c, s->cond ? s->cond->loc : s->loc, "", &t) < 0)
            return -1;
        return t ? exec_block(E, s->body, s->nbody) : exec_block(E, s->orelse, s->norelse);
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
            if (eval(E, s->rhs, &v) < 0)
                return -1;
        }
        E->returned = true;
        E->retval = v;
        return 0;
    }
    case ND_ASSERT: {
        CV c, m;
        bool t = false;
        if (eval(E, s->cond, &c) < 0 ||
            cv_truth(E, c, s->loc, "'assert' on a runtime value is not supported", &t) < 0)
            return -1;
        if (t)
            return 0;
        if (s->rhs) {
            if (eval(E, s->rhs, &m) < 0)
                return -1;
            if (m.kind == CV_STR)
                return elab_err(E, s->loc, MT_ERR_TYPE, "assertion failed: %s", m.s);
        }
        return elab_err(E, s->loc, MT_ERR_TYPE, "assertion failed");
    }
    case ND_WHILE: return exec_while(E, s);
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
        return eval(E, s, &v);
    }
    }
}

/* Runs statements until a `return`; nesting is bounded here and in eval,
 * so a deep input tree fails with a message instead of the C stack. */
static int exec_block(Elab *E, Node **stmts, int n) {
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
            scope_set(&E, pname, v);
            continue;
        }
        if (se->kind == SIG_CONST) {
            diag_error(c, p->loc, MT_ERR_SIGNATURE,
                       "parameter '%s' is not a tl.constexpr; give its type, not a value",
                       pname);
            return NULL;
        }
        if (!valid_dtype(se->dtype)) {
            diag_error(c, p->loc, MT_ERR_SIGNATURE, "invalid type for parameter '%s'", pname);
            return NULL;
        }
        Type t = se->kind == SIG_PTR ? type_ptr(se->dtype) : type_scalar(se->dtype);
        ValId v = func_add_param(E.f, pname, t);
        val(E.f, v)->divisibility = se->hint;
        scope_set(&E, pname, cv_tensor(v));
    }
    if (exec_block(&E, fn->body, fn->nbody) < 0 || HAS_ERROR(c))
        return NULL;
    return E.f;
}
