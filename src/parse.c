/* parse.c: module indexing, the parser's entry points, and the core the
 * recursive-descent parser shares (token cursor, errors, nodes, bounds).
 *
 * Input: the token array of lex.c.  parse_module indexes the top level
 * without parsing anything: functions (with their decorators), simple
 * constants `NAME = expr` / `NAME: T = expr` and imports, each as a token
 * range; every other top-level statement is skipped by tokens together
 * with its indented block, so a helper class or a `__main__` block may
 * hold any Python the kernel compiler does not understand.
 * parse_function / parse_const_expr then parse one range on demand into
 * the AST of mt.h (arena memory, every node located): expressions in
 * parseexpr.c, statements and function definitions in parsestmt.c, both
 * reading tokens only through the ps_* cursor here.
 *
 * Errors: the first syntax error is reported at the offending token with
 * MT_ERR_SYNTAX ("expected ':' after if condition, saw newline"); a
 * TK_ERROR token reports its own message.  Valid Python the kernel
 * language will never accept (`@`, `**kwargs`, comprehensions, `*args`
 * parameters, f-strings, ...) is reported with MT_ERR_UNSUPPORTED.  Valid
 * statements the elaborator rejects (with, try, nested def, ...) become
 * ND_OTHER_STMT with their block skipped, so the elaborator can say
 * "unsupported statement" at the right place.
 *
 * Recursion is bounded: expressions nested deeper than MAX_NESTING
 * (ps_enter), blocks nested deeper than MAX_BLOCKS (ps_enter_block), and
 * expression trees taller than MAX_TREE_HEIGHT (ps_check_height: a long
 * chain `a + a + ...` builds a tall tree without recursing), are errors,
 * so neither the parser nor any later tree walk can overflow the stack. */
#include "mt.h"

#include <string.h>

#define MAX_NESTING 200
#define MAX_TREE_HEIGHT 1000
#define MAX_BLOCKS 100

static const char *const keywords[] = {
    "False", "None",   "True",    "and",      "as",       "assert", "async",
    "await", "break",  "class",   "continue", "def",      "del",    "elif",
    "else",  "except", "finally", "for",      "from",     "global", "if",
    "import", "in",    "is",      "lambda",   "nonlocal", "not",    "or",
    "pass",  "raise",  "return",  "try",      "while",    "with",   "yield",
};

bool tok_is_keyword(const Token *t) {
    if (t->kind != TK_NAME)
        return false;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if ((int)strlen(keywords[i]) == t->len &&
            memcmp(keywords[i], t->text, (size_t)t->len) == 0)
            return true;
    return false;
}

bool tok_is_kw(const Token *t, const char *kw) {
    return t->kind == TK_NAME && (int)strlen(kw) == t->len &&
           memcmp(kw, t->text, (size_t)t->len) == 0;
}

bool tok_is_op(const Token *t, OpTok op) {
    return t->kind == TK_OP && t->op == op && !(op == OT_DOT && t->len != 1);
}

bool tok_is_ellipsis(const Token *t) {
    return t->kind == TK_OP && t->op == OT_DOT && t->len == 3;
}

bool tok_is_plain_name(const Token *t) {
    return t->kind == TK_NAME && !tok_is_keyword(t);
}

/* ---- token cursor ---- */

void ps_init(Parser *p, Ctx *c, Module *m, int begin, int end) {
    memset(p, 0, sizeof *p);
    p->c = c;
    p->toks = m->toks;
    if (end > m->ntok)
        end = m->ntok;
    if (begin > end)
        begin = end;
    p->pos = begin;
    p->end = end;
    p->eof.kind = TK_EOF;
    int at = end < m->ntok ? end : m->ntok - 1;
    if (at >= 0) {
        p->eof.loc = m->toks[at].loc;
        p->eof_real = m->toks[at].kind;
        p->eof.text = m->toks[at].text;
    } else {
        p->eof.text = "";
    }
}

Token *ps_peek(Parser *p) {
    return p->pos < p->end ? &p->toks[p->pos] : &p->eof;
}

Token *ps_peek_at(Parser *p, int k) {
    return p->pos + k < p->end ? &p->toks[p->pos + k] : &p->eof;
}

Token *ps_advance(Parser *p) {
    Token *t = ps_peek(p);
    if (p->pos < p->end)
        p->pos++;
    return t;
}

bool ps_at_op(Parser *p, OpTok op) { return tok_is_op(ps_peek(p), op); }
bool ps_at_kw(Parser *p, const char *kw) { return tok_is_kw(ps_peek(p), kw); }

/* ---- errors ---- */

/* A short description of a token for "saw ..." in messages. */
const char *ps_tok_desc(Parser *p, const Token *t) {
    Arena *a = p->c->arena;
    int n = t->len > 40 ? 40 : t->len;
    const char *r = NULL;
    switch (t->kind) {
    case TK_EOF:
        return t == &p->eof && p->eof_real == TK_NEWLINE ? "newline"
                                                         : "end of file";
    case TK_NEWLINE: return "newline";
    case TK_INDENT: return "indent";
    case TK_DEDENT: return "dedent";
    case TK_NAME:
        r = arena_printf(a, "%s '%.*s'", tok_is_keyword(t) ? "keyword" : "name",
                         n, t->text);
        break;
    case TK_INT:
    case TK_FLOAT: r = arena_printf(a, "number '%.*s'", n, t->text); break;
    case TK_STRING: return "string";
    case TK_OP:
        r = tok_is_ellipsis(t) ? "'...'"
                               : arena_printf(a, "'%s'", optok_str(t->op));
        break;
    case TK_ERROR: return t->text;
    }
    return r ? r : "token";
}

/* Reports at token t; a TK_ERROR token reports its own message instead. */
Node *ps_error(Parser *p, const Token *t, mt_status st, const char *fmt,
               ...) {
    if (t->kind == TK_ERROR) {
        diag_error(p->c, t->loc,
                   strstr(t->text, "not supported") ? MT_ERR_UNSUPPORTED
                                                    : MT_ERR_SYNTAX,
                   "%s", t->text);
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    diag_verror(p->c, t->loc, st, fmt, ap);
    va_end(ap);
    return NULL;
}

bool ps_expect_op(Parser *p, OpTok op, const char *after) {
    Token *t = ps_peek(p);
    if (tok_is_op(t, op)) {
        ps_advance(p);
        return true;
    }
    ps_error(p, t, MT_ERR_SYNTAX, "expected '%s' %s, saw %s", optok_str(op), after,
             ps_tok_desc(p, t));
    return false;
}

bool ps_enter(Parser *p, const Token *at, const char *what) {
    if (++p->depth > MAX_NESTING) {
        diag_error(p->c, at->loc, MT_ERR_SYNTAX, "%s", what);
        return false;
    }
    return true;
}

void ps_leave(Parser *p) { p->depth--; }

bool ps_enter_block(Parser *p, const Token *at) {
    if (++p->blocks > MAX_BLOCKS) {
        diag_error(p->c, at->loc, MT_ERR_SYNTAX, "too many nested blocks");
        return false;
    }
    return true;
}

void ps_leave_block(Parser *p) { p->blocks--; }

/* ---- nodes ---- */

Node *ps_new_node(Parser *p, NodeKind k, Loc loc) {
    Node *n = arena_alloc(p->c->arena, sizeof *n);
    if (!n) {
        diag_error(p->c, loc, MT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    n->kind = k;
    n->loc = loc;
    return n;
}

char *ps_tok_name(Parser *p, const Token *t) {
    return arena_strndup(p->c->arena, t->text, (size_t)t->len);
}

void ps_vec_push(Parser *p, NodeVec *v, Node *n) {
    VEC_PUSH(p->c->arena, v->v, v->n, v->cap, n);
}

/* Is the tree under n (not counting statement bodies) taller than
 * budget?  Recursion is bounded by budget itself. */
static bool too_tall(const Node *n, int budget, Loc *where) {
    if (!n)
        return false;
    if (budget <= 0) {
        *where = n->loc;
        return true;
    }
    if (too_tall(n->lhs, budget - 1, where) ||
        too_tall(n->rhs, budget - 1, where) ||
        too_tall(n->cond, budget - 1, where) ||
        too_tall(n->then, budget - 1, where) ||
        too_tall(n->els, budget - 1, where))
        return true;
    for (int i = 0; i < n->nitems; i++)
        if (too_tall(n->items[i], budget - 1, where))
            return true;
    return false;
}

Node *ps_check_height(Parser *p, Node *n) {
    Loc where;
    if (n && too_tall(n, MAX_TREE_HEIGHT, &where)) {
        diag_error(p->c, where, MT_ERR_SYNTAX, "expression too deeply nested");
        return NULL;
    }
    return n;
}


/* ---- skipping (statements the parser rejects, and indexing) ---- */

/* Skips to the end of a simple statement (';' or NEWLINE, not eaten). */
void ps_skip_simple(Parser *p) {
    int brackets = 0;
    for (;;) {
        Token *t = ps_peek(p);
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
            return;
        if (tok_is_op(t, OT_SEMI) && brackets == 0)
            return;
        if (tok_is_op(t, OT_LPAREN) || tok_is_op(t, OT_LBRACKET) ||
            tok_is_op(t, OT_LBRACE))
            brackets++;
        else if (tok_is_op(t, OT_RPAREN) || tok_is_op(t, OT_RBRACKET) ||
                 tok_is_op(t, OT_RBRACE))
            brackets--;
        ps_advance(p);
    }
}

/* Skips a logical line and the indented block after it, if any. */
void ps_skip_line_and_block(Parser *p) {
    while (ps_peek(p)->kind != TK_NEWLINE && ps_peek(p)->kind != TK_EOF)
        ps_advance(p);
    if (ps_peek(p)->kind == TK_NEWLINE)
        ps_advance(p);
    if (ps_peek(p)->kind != TK_INDENT)
        return;
    int level = 0;
    do {
        Token *t = ps_advance(p);
        if (t->kind == TK_INDENT)
            level++;
        else if (t->kind == TK_DEDENT)
            level--;
        else if (t->kind == TK_EOF)
            return;
    } while (level > 0);
}


/* ---- entry points ---- */

Node *parse_function(Ctx *c, Module *m, TopFunc *f) {
    if (!c || !m || !f)
        return NULL;
    if (f->ast)
        return f->ast;
    Parser p;
    ps_init(&p, c, m, f->tok_begin, f->tok_end);
    Node *fn = parse_funcdef(&p);
    if (!fn)
        return NULL;
    if (p.pos < p.end) {
        ps_error(&p, ps_peek(&p), MT_ERR_SYNTAX, "invalid syntax: unexpected %s",
                 ps_tok_desc(&p, ps_peek(&p)));
        return NULL;
    }
    f->ast = fn;
    return fn;
}

Node *parse_const_expr(Ctx *c, Module *m, TopConst *k) {
    if (!c || !m || !k)
        return NULL;
    Parser p;
    ps_init(&p, c, m, k->tok_begin, k->tok_end);
    if (p.pos >= p.end) {
        diag_error(c, k->loc, MT_ERR_SYNTAX,
                   "expected an expression after '%s ='", k->name);
        return NULL;
    }
    Node *e = ps_check_height(&p, parse_star_exprs(&p));
    if (!e)
        return NULL;
    if (p.pos < p.end) {
        ps_error(&p, ps_peek(&p), MT_ERR_SYNTAX,
                 "expected end of expression, saw %s", ps_tok_desc(&p, ps_peek(&p)));
        return NULL;
    }
    return e;
}

TopFunc *module_find_func(Module *m, const char *name) {
    if (!m || !name)
        return NULL;
    for (int i = m->nfuncs - 1; i >= 0; i--) /* a later def rebinds */
        if (m->funcs[i].name && strcmp(m->funcs[i].name, name) == 0)
            return &m->funcs[i];
    return NULL;
}

/* ---- module indexing ---- */

/* Skips one statement at the top level: up to ';' / NEWLINE for simple
 * statements, plus an indented block. */
static void index_skip_statement(Parser *p) { ps_skip_line_and_block(p); }

static bool index_is_error(const Token *t, const char *prefix) {
    return t->kind == TK_ERROR && strncmp(t->text, prefix, strlen(prefix)) == 0;
}

/* Reads a dotted name a.b.c at the cursor into an arena string. */
static char *index_dotted(Parser *p) {
    StrBuf sb;
    sb_init(&sb);
    while (ps_peek(p)->kind == TK_OP && ps_peek(p)->op == OT_DOT) { /* relative */
        sb_putn(&sb, ".", 1);
        if (tok_is_ellipsis(ps_peek(p)))
            sb_putn(&sb, "..", 2);
        ps_advance(p);
    }
    bool ok = true;
    for (;;) {
        Token *t = ps_peek(p);
        if (!tok_is_plain_name(t)) {
            ok = sb.len > 0 && sb_str(&sb)[sb.len - 1] == '.' &&
                 tok_is_kw(t, "import"); /* from . import x */
            break;
        }
        ps_advance(p);
        sb_putn(&sb, t->text, (size_t)t->len);
        if (!ps_at_op(p, OT_DOT))
            break;
        ps_advance(p);
        sb_putn(&sb, ".", 1);
    }
    char *r = ok && !sb.failed ? arena_strdup(p->c->arena, sb_str(&sb)) : NULL;
    sb_free(&sb);
    return r;
}

static void index_add_import(Parser *p, Module *m, int *cap, const char *alias,
                             const char *path) {
    TopImport imp = {alias, path};
    if (alias && path)
        VEC_PUSH(p->c->arena, m->imports, m->nimports, *cap, imp);
}

static void index_import(Parser *p, Module *m, int *cap) {
    ps_advance(p); /* import */
    for (;;) {
        char *path = index_dotted(p);
        if (!path)
            return;
        const char *alias;
        if (ps_at_kw(p, "as")) {
            ps_advance(p);
            if (!tok_is_plain_name(ps_peek(p)))
                return;
            alias = ps_tok_name(p, ps_advance(p));
        } else {
            /* `import a.b` binds `a` to the package a */
            char *dot = strchr(path, '.');
            if (dot)
                *dot = 0;
            alias = path;
        }
        index_add_import(p, m, cap, alias, path);
        if (!ps_at_op(p, OT_COMMA))
            return;
        ps_advance(p);
    }
}

static void index_from_import(Parser *p, Module *m, int *cap) {
    ps_advance(p); /* from */
    char *base = index_dotted(p);
    if (!base || !ps_at_kw(p, "import"))
        return;
    ps_advance(p);
    bool paren = ps_at_op(p, OT_LPAREN);
    if (paren)
        ps_advance(p);
    for (;;) {
        Token *t = ps_peek(p);
        if (!tok_is_plain_name(t))
            return;
        ps_advance(p);
        const char *alias = ps_tok_name(p, t);
        if (ps_at_kw(p, "as")) {
            ps_advance(p);
            if (!tok_is_plain_name(ps_peek(p)))
                return;
            alias = ps_tok_name(p, ps_advance(p));
        }
        size_t bl = strlen(base);
        const char *path = arena_printf(p->c->arena, "%s%s%.*s", base,
                                        bl && base[bl - 1] == '.' ? "" : ".",
                                        t->len, t->text);
        index_add_import(p, m, cap, alias, path);
        if (!ps_at_op(p, OT_COMMA))
            return;
        ps_advance(p);
    }
}

/* NAME [= NAME]* = value  or  NAME : T = value, ending at ';' / NEWLINE. */
static void index_const(Parser *p, Module *m, int *cap) {
    int begin = p->pos;
    int value_begin = -1, brackets = 0;
    bool annotated = tok_is_op(&p->toks[begin + 1], OT_COLON);
    int i = begin;
    for (;; i++) {
        Token *t = &p->toks[i];
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF ||
            (tok_is_op(t, OT_SEMI) && brackets == 0))
            break;
        if (tok_is_op(t, OT_LPAREN) || tok_is_op(t, OT_LBRACKET) ||
            tok_is_op(t, OT_LBRACE))
            brackets++;
        else if (tok_is_op(t, OT_RPAREN) || tok_is_op(t, OT_RBRACKET) ||
                 tok_is_op(t, OT_RBRACE))
            brackets--;
        else if (tok_is_op(t, OT_ASSIGN) && brackets == 0)
            value_begin = i + 1;
    }
    int value_end = i;
    if (value_begin < 0 || value_begin >= value_end)
        return;
    /* targets: NAME (= NAME)* before the value, or NAME : T */
    if (!annotated) {
        for (int k = begin; k < value_begin; k += 2)
            if (!tok_is_plain_name(&p->toks[k]) ||
                !tok_is_op(&p->toks[k + 1], OT_ASSIGN))
                return;
    }
    for (int k = begin; k < value_begin; k += 2) {
        TopConst kc;
        kc.name = ps_tok_name(p, &p->toks[k]);
        kc.loc = p->toks[k].loc;
        kc.tok_begin = value_begin;
        kc.tok_end = value_end;
        if (kc.name)
            VEC_PUSH(p->c->arena, m->consts, m->nconsts, *cap, kc);
        if (annotated)
            break;
    }
}

/* Last dotted name of a decorator before any call: `jit` in
 * `@mytriton.jit(...)`. */
static bool index_decorator_is_jit(Parser *p) {
    const Token *last = NULL;
    for (int i = p->pos + 1; i < p->end; i++) {
        const Token *t = &p->toks[i];
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF || tok_is_op(t, OT_LPAREN))
            break;
        if (t->kind == TK_NAME)
            last = t;
    }
    return last && tok_is_kw(last, "jit");
}

static void index_function(Parser *p, Module *m, int *cap) {
    int begin = p->pos;
    bool is_jit = false;
    while (ps_at_op(p, OT_AT)) {
        is_jit |= index_decorator_is_jit(p);
        while (ps_peek(p)->kind != TK_NEWLINE && ps_peek(p)->kind != TK_EOF)
            ps_advance(p);
        if (ps_peek(p)->kind == TK_NEWLINE)
            ps_advance(p);
    }
    Token *kw = ps_peek(p);
    Token *name = ps_peek_at(p, 1);
    if (!tok_is_kw(kw, "def") || !tok_is_plain_name(name)) {
        index_skip_statement(p);
        return;
    }
    index_skip_statement(p);
    /* a dedent to a column no block started at right after the body belongs
     * to the function, so that compiling it reports the bad indentation */
    if (index_is_error(ps_peek(p), "unindent"))
        index_skip_statement(p);
    TopFunc f;
    memset(&f, 0, sizeof f);
    f.name = ps_tok_name(p, name);
    f.loc = kw->loc;
    f.tok_begin = begin;
    f.tok_end = p->pos;
    f.is_jit = is_jit;
    if (f.name)
        VEC_PUSH(p->c->arena, m->funcs, m->nfuncs, *cap, f);
}

Module *parse_module(Ctx *c) {
    if (!c || !c->arena)
        return NULL;
    Module *m = arena_alloc(c->arena, sizeof *m);
    if (!m) {
        diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    m->toks = lex(c, &m->ntok);
    if (!m->toks || m->ntok <= 0) {
        diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    /* these swallow the rest of the file: nothing after them is indexable */
    for (int i = 0; i < m->ntok; i++) {
        Token *t = &m->toks[i];
        if (index_is_error(t, "unterminated triple-quoted") ||
            (t->kind == TK_ERROR && strstr(t->text, "was never closed"))) {
            diag_error(c, t->loc, MT_ERR_SYNTAX, "%s", t->text);
            return NULL;
        }
    }
    Parser p;
    ps_init(&p, c, m, 0, m->ntok);
    int capf = 0, capk = 0, capi = 0;
    while (ps_peek(&p)->kind != TK_EOF) {
        Token *t = ps_peek(&p);
        int start = p.pos;
        if (t->kind == TK_NEWLINE || t->kind == TK_DEDENT) {
            ps_advance(&p);
        } else if (t->kind == TK_INDENT) {
            /* an unexpected indent: the block is no top-level statement */
            int level = 0;
            do {
                Token *u = ps_advance(&p);
                level += u->kind == TK_INDENT ? 1 : u->kind == TK_DEDENT ? -1 : 0;
            } while (level > 0 && ps_peek(&p)->kind != TK_EOF);
        } else if (tok_is_op(t, OT_AT) || tok_is_kw(t, "def")) {
            index_function(&p, m, &capf);
        } else if (tok_is_kw(t, "import") || tok_is_kw(t, "from")) {
            if (tok_is_kw(t, "import"))
                index_import(&p, m, &capi);
            else
                index_from_import(&p, m, &capi);
            /* continue after ';' with the next simple statement */
            ps_skip_simple(&p);
            if (ps_at_op(&p, OT_SEMI))
                ps_advance(&p);
            else
                index_skip_statement(&p);
        } else if (tok_is_plain_name(t) &&
                   (tok_is_op(ps_peek_at(&p, 1), OT_ASSIGN) ||
                    tok_is_op(ps_peek_at(&p, 1), OT_COLON))) {
            index_const(&p, m, &capk);
            ps_skip_simple(&p);
            if (ps_at_op(&p, OT_SEMI))
                ps_advance(&p);
            else
                index_skip_statement(&p);
        } else {
            index_skip_statement(&p);
        }
        if (p.pos == start) /* never loop without progress */
            ps_advance(&p);
    }
    return m;
}

