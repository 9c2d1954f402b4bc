/* parse.c: module indexing and recursive-descent parsing of kernels.
 *
 * Input: the token array of lex.c.  parse_module indexes the top level
 * without parsing anything: functions (with their decorators), simple
 * constants `NAME = expr` / `NAME: T = expr` and imports, each as a token
 * range; every other top-level statement is skipped by tokens together
 * with its indented block, so a helper class or a `__main__` block may
 * hold any Python the kernel compiler does not understand.
 * parse_function / parse_const_expr then parse one range on demand into
 * the AST of mt.h (arena memory, every node located).
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
 * Recursion is bounded: expressions nested deeper than MAX_NESTING, blocks
 * nested deeper than MAX_BLOCKS, and expression trees taller than MAX_TREE_HEIGHT (a long
 * chain `a + a + ...` builds a tall tree without recursing), are errors,
 * so neither the parser nor any later tree walk can overflow the stack. */
#include "mt.h"

#include <string.h>

#define MAX_NESTING 200
#define MAX_TREE_HEIGHT 1000
#define MAX_BLOCKS 100

typedef struct Parser {
    Ctx *c;
    Token *toks;
    int pos, end; /* tokens [pos, end) remain */
    int depth;    /* expression recursion nesting */
    int blocks;   /* statement block nesting (elif chains count) */
    Token eof;    /* returned past end */
    TokKind eof_real; /* the kind of the token at end, for messages */
} Parser;

typedef struct NodeVec {
    Node **v;
    int n, cap;
} NodeVec;

static const char *const keywords[] = {
    "False", "None",   "True",    "and",      "as",       "assert", "async",
    "await", "break",  "class",   "continue", "def",      "del",    "elif",
    "else",  "except", "finally", "for",      "from",     "global", "if",
    "import", "in",    "is",      "lambda",   "nonlocal", "not",    "or",
    "pass",  "raise",  "return",  "try",      "while",    "with",   "yield",
};

static bool tok_is_keyword(const Token *t) {
    if (t->kind != TK_NAME)
        return false;
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
        if ((int)strlen(keywords[i]) == t->len &&
            memcmp(keywords[i], t->text, (size_t)t->len) == 0)
            return true;
    return false;
}

static bool tok_is_kw(const Token *t, const char *kw) {
    return t->kind == TK_NAME && (int)strlen(kw) == t->len &&
           memcmp(kw, t->text, (size_t)t->len) == 0;
}

static bool tok_is_op(const Token *t, OpTok op) {
    return t->kind == TK_OP && t->op == op && !(op == OT_DOT && t->len != 1);
}

static bool tok_is_ellipsis(const Token *t) {
    return t->kind == TK_OP && t->op == OT_DOT && t->len == 3;
}

static bool tok_is_plain_name(const Token *t) {
    return t->kind == TK_NAME && !tok_is_keyword(t);
}

/* ---- token cursor ---- */

static void parser_init(Parser *p, Ctx *c, Module *m, int begin, int end) {
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

static Token *peek(Parser *p) {
    return p->pos < p->end ? &p->toks[p->pos] : &p->eof;
}

static Token *peek_at(Parser *p, int k) {
    return p->pos + k < p->end ? &p->toks[p->pos + k] : &p->eof;
}

static Token *advance(Parser *p) {
    Token *t = peek(p);
    if (p->pos < p->end)
        p->pos++;
    return t;
}

static bool at_op(Parser *p, OpTok op) { return tok_is_op(peek(p), op); }
static bool at_kw(Parser *p, const char *kw) { return tok_is_kw(peek(p), kw); }

/* ---- errors ---- */

/* A short description of a token for "saw ..." in messages. */
static const char *tok_desc(Parser *p, const Token *t) {
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
static Node *perr(Parser *p, const Token *t, mt_status st, const char *fmt,
                  ...) MT_PRINTF(4, 5);
static Node *perr(Parser *p, const Token *t, mt_status st, const char *fmt,
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

static bool expect_op(Parser *p, OpTok op, const char *after) {
    Token *t = peek(p);
    if (tok_is_op(t, op)) {
        advance(p);
        return true;
    }
    perr(p, t, MT_ERR_SYNTAX, "expected '%s' %s, saw %s", optok_str(op), after,
         tok_desc(p, t));
    return false;
}

static bool enter(Parser *p, const Token *at, const char *what) {
    if (++p->depth > MAX_NESTING) {
        diag_error(p->c, at->loc, MT_ERR_SYNTAX, "%s", what);
        return false;
    }
    return true;
}

static void leave(Parser *p) { p->depth--; }

static bool enter_block(Parser *p, const Token *at) {
    if (++p->blocks > MAX_BLOCKS) {
        diag_error(p->c, at->loc, MT_ERR_SYNTAX, "too many nested blocks");
        return false;
    }
    return true;
}

static void leave_block(Parser *p) { p->blocks--; }

/* ---- nodes ---- */

static Node *new_node(Parser *p, NodeKind k, Loc loc) {
    Node *n = arena_alloc(p->c->arena, sizeof *n);
    if (!n) {
        diag_error(p->c, loc, MT_ERR_NOMEM, "out of memory");
        return NULL;
    }
    n->kind = k;
    n->loc = loc;
    return n;
}

static char *tok_name(Parser *p, const Token *t) {
    return arena_strndup(p->c->arena, t->text, (size_t)t->len);
}

static void vec_push(Parser *p, NodeVec *v, Node *n) {
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

static Node *check_height(Parser *p, Node *n) {
    Loc where;
    if (n && too_tall(n, MAX_TREE_HEIGHT, &where)) {
        diag_error(p->c, where, MT_ERR_SYNTAX, "expression too deeply nested");
        return NULL;
    }
    return n;
}

/* ---- expressions ---- */

static Node *parse_expr(Parser *p);
static Node *parse_star_expr(Parser *p);
static Node *parse_star_exprs(Parser *p);
static Node *parse_bitor(Parser *p);
static Node *parse_factor(Parser *p);

static bool can_start_expr(const Token *t) {
    switch (t->kind) {
    case TK_NAME:
        if (!tok_is_keyword(t))
            return true;
        return tok_is_kw(t, "True") || tok_is_kw(t, "False") ||
               tok_is_kw(t, "None") || tok_is_kw(t, "lambda") ||
               tok_is_kw(t, "await") || tok_is_kw(t, "yield");
    case TK_INT:
    case TK_FLOAT:
    case TK_STRING:
        return true;
    case TK_OP:
        return tok_is_ellipsis(t) || t->op == OT_LPAREN ||
               t->op == OT_LBRACKET || t->op == OT_LBRACE ||
               t->op == OT_MINUS || t->op == OT_PLUS || t->op == OT_TILDE ||
               t->op == OT_STAR || t->op == OT_NOT;
    default:
        return false;
    }
}

static Node *comprehension_error(Parser *p, const Token *t) {
    return perr(p, t, MT_ERR_UNSUPPORTED, "comprehensions are not supported");
}

static bool at_comprehension(Parser *p) {
    return at_kw(p, "for") || (at_kw(p, "async") && tok_is_kw(peek_at(p, 1), "for"));
}

static Node *parse_strings(Parser *p) {
    Token *first = peek(p);
    bool bytes = false;
    size_t total = 0;
    int n = 0;
    for (Token *t = peek_at(p, 0); t->kind == TK_STRING; t = peek_at(p, ++n)) {
        bool f = false, b = false;
        for (int i = 0; i < t->len && t->text[i] != '\'' && t->text[i] != '"'; i++) {
            f |= t->text[i] == 'f' || t->text[i] == 'F';
            b |= t->text[i] == 'b' || t->text[i] == 'B';
        }
        if (f)
            return perr(p, t, MT_ERR_UNSUPPORTED, "f-strings are not supported");
        if (n > 0 && b != bytes)
            return perr(p, t, MT_ERR_SYNTAX,
                        "cannot mix bytes and nonbytes literals");
        bytes = b;
        total += (size_t)t->slen;
    }
    if (bytes)
        return perr(p, first, MT_ERR_UNSUPPORTED,
                    "bytes literals are not supported");
    Node *node = new_node(p, ND_STR, first->loc);
    char *buf = arena_alloc(p->c->arena, total + 1);
    if (!node || !buf)
        return NULL;
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        Token *t = advance(p);
        if (t->slen > 0)
            memcpy(buf + o, t->sval, (size_t)t->slen);
        o += (size_t)t->slen;
    }
    node->sval = buf;
    node->slen = total > 0x7fffffff ? 0x7fffffff : (int)total;
    return node;
}

/* After '(' '[' or '{' and a first element: the rest of a comma list. */
static bool parse_elements(Parser *p, NodeVec *items, OpTok close) {
    while (at_op(p, OT_COMMA)) {
        advance(p);
        if (at_op(p, close))
            break;
        Node *e = parse_star_expr(p);
        if (!e)
            return false;
        vec_push(p, items, e);
    }
    return true;
}

static Node *parse_paren(Parser *p) {
    Token *open = advance(p);
    if (at_op(p, OT_RPAREN)) {
        advance(p);
        return new_node(p, ND_TUPLE, open->loc);
    }
    if (at_kw(p, "yield"))
        return perr(p, peek(p), MT_ERR_UNSUPPORTED,
                    "yield expressions are not supported");
    Node *e = parse_star_expr(p);
    if (!e)
        return NULL;
    if (at_comprehension(p))
        return comprehension_error(p, peek(p));
    if (!at_op(p, OT_COMMA)) {
        if (!expect_op(p, OT_RPAREN, "to close parenthesis"))
            return NULL;
        return e;
    }
    Node *tup = new_node(p, ND_TUPLE, open->loc);
    if (!tup)
        return NULL;
    NodeVec items = {0};
    vec_push(p, &items, e);
    if (!parse_elements(p, &items, OT_RPAREN) ||
        !expect_op(p, OT_RPAREN, "to close tuple"))
        return NULL;
    tup->items = items.v;
    tup->nitems = items.n;
    return tup;
}

static Node *parse_list(Parser *p) {
    Token *open = advance(p);
    Node *list = new_node(p, ND_LIST, open->loc);
    if (!list)
        return NULL;
    if (at_op(p, OT_RBRACKET)) {
        advance(p);
        return list;
    }
    Node *e = parse_star_expr(p);
    if (!e)
        return NULL;
    if (at_comprehension(p))
        return comprehension_error(p, peek(p));
    NodeVec items = {0};
    vec_push(p, &items, e);
    if (!parse_elements(p, &items, OT_RBRACKET) ||
        !expect_op(p, OT_RBRACKET, "to close list"))
        return NULL;
    list->items = items.v;
    list->nitems = items.n;
    return list;
}

static Node *parse_brace(Parser *p) {
    Token *open = advance(p);
    Node *dict = new_node(p, ND_DICT, open->loc);
    if (!dict)
        return NULL;
    if (at_op(p, OT_RBRACE)) {
        advance(p);
        return dict;
    }
    NodeVec items = {0};
    for (;;) {
        if (at_op(p, OT_DSTAR))
            return perr(p, peek(p), MT_ERR_UNSUPPORTED,
                        "dict unpacking is not supported");
        Node *k = parse_star_expr(p);
        if (!k)
            return NULL;
        if (!at_op(p, OT_COLON)) {
            if (at_comprehension(p))
                return comprehension_error(p, peek(p));
            if (at_op(p, OT_COMMA) || at_op(p, OT_RBRACE))
                return perr(p, open, MT_ERR_UNSUPPORTED,
                            "set literals are not supported");
            return perr(p, peek(p), MT_ERR_SYNTAX,
                        "expected ':' after dict key, saw %s",
                        tok_desc(p, peek(p)));
        }
        advance(p);
        Node *v = parse_expr(p);
        if (!v)
            return NULL;
        if (at_comprehension(p))
            return comprehension_error(p, peek(p));
        vec_push(p, &items, k);
        vec_push(p, &items, v);
        if (!at_op(p, OT_COMMA))
            break;
        advance(p);
        if (at_op(p, OT_RBRACE))
            break;
    }
    if (!expect_op(p, OT_RBRACE, "to close dict"))
        return NULL;
    dict->items = items.v;
    dict->nitems = items.n;
    return dict;
}

static Node *parse_atom(Parser *p) {
    Token *t = peek(p);
    Node *n;
    switch (t->kind) {
    case TK_NAME:
        if (tok_is_kw(t, "True") || tok_is_kw(t, "False")) {
            advance(p);
            if ((n = new_node(p, ND_BOOL, t->loc)))
                n->ival = tok_is_kw(t, "True");
            return n;
        }
        if (tok_is_kw(t, "None")) {
            advance(p);
            return new_node(p, ND_NONE, t->loc);
        }
        if (tok_is_kw(t, "yield"))
            return perr(p, t, MT_ERR_UNSUPPORTED,
                        "yield expressions are not supported");
        if (tok_is_keyword(t))
            return perr(p, t, MT_ERR_SYNTAX,
                        "invalid syntax: expected an expression, saw %s",
                        tok_desc(p, t));
        advance(p);
        if ((n = new_node(p, ND_NAME, t->loc)))
            n->name = tok_name(p, t);
        return n;
    case TK_INT:
        advance(p);
        if ((n = new_node(p, ND_INT, t->loc))) {
            n->ival = t->ival;
            n->big = t->big;
        }
        return n;
    case TK_FLOAT:
        advance(p);
        if ((n = new_node(p, ND_FLOAT, t->loc)))
            n->fval = t->fval;
        return n;
    case TK_STRING:
        return parse_strings(p);
    case TK_OP:
        if (tok_is_ellipsis(t)) {
            advance(p);
            return new_node(p, ND_ELLIPSIS, t->loc);
        }
        if (t->op == OT_LPAREN)
            return parse_paren(p);
        if (t->op == OT_LBRACKET)
            return parse_list(p);
        if (t->op == OT_LBRACE)
            return parse_brace(p);
        break;
    default:
        break;
    }
    return perr(p, t, MT_ERR_SYNTAX, "expected an expression, saw %s",
                tok_desc(p, t));
}

static Node *parse_call(Parser *p, Node *fn) {
    advance(p); /* '(' */
    Node *call = new_node(p, ND_CALL, fn->loc);
    if (!call)
        return NULL;
    call->lhs = fn;
    NodeVec args = {0};
    bool seen_keyword = false;
    while (!at_op(p, OT_RPAREN)) {
        Token *t = peek(p);
        Node *a;
        if (tok_is_op(t, OT_DSTAR))
            return perr(p, t, MT_ERR_UNSUPPORTED, "**kwargs are not supported");
        if (tok_is_op(t, OT_STAR)) {
            advance(p);
            if (!(a = new_node(p, ND_STARRED, t->loc)) ||
                !(a->rhs = parse_expr(p)))
                return NULL;
        } else if (tok_is_plain_name(t) && tok_is_op(peek_at(p, 1), OT_ASSIGN)) {
            for (int i = 0; i < args.n; i++)
                if (args.v[i]->kind == ND_KEYWORD &&
                    (int)strlen(args.v[i]->name) == t->len &&
                    memcmp(args.v[i]->name, t->text, (size_t)t->len) == 0)
                    return perr(p, t, MT_ERR_SYNTAX,
                                "keyword argument repeated: '%.*s'",
                                t->len > 40 ? 40 : t->len, t->text);
            advance(p);
            advance(p);
            if (!(a = new_node(p, ND_KEYWORD, t->loc)))
                return NULL;
            a->name = tok_name(p, t);
            if (!(a->rhs = parse_expr(p)))
                return NULL;
            seen_keyword = true;
        } else {
            if (!(a = parse_expr(p)))
                return NULL;
            if (at_comprehension(p))
                return comprehension_error(p, peek(p));
            if (seen_keyword)
                return perr(p, t, MT_ERR_SYNTAX,
                            "positional argument follows keyword argument");
        }
        vec_push(p, &args, a);
        if (at_op(p, OT_COMMA)) {
            advance(p);
            continue;
        }
        if (!at_op(p, OT_RPAREN))
            return perr(p, peek(p), MT_ERR_SYNTAX,
                        "expected ',' or ')' after call argument, saw %s",
                        tok_desc(p, peek(p)));
    }
    advance(p);
    call->items = args.v;
    call->nitems = args.n;
    return call;
}

static bool at_slice_end(Parser *p) {
    return at_op(p, OT_COMMA) || at_op(p, OT_RBRACKET);
}

static Node *parse_slice_item(Parser *p) {
    Token *t = peek(p);
    Node *lower = NULL;
    if (!tok_is_op(t, OT_COLON)) {
        if (!(lower = parse_star_expr(p)))
            return NULL;
        if (!at_op(p, OT_COLON))
            return lower;
    }
    Node *s = new_node(p, ND_SLICE, lower ? lower->loc : t->loc);
    if (!s)
        return NULL;
    s->lhs = lower;
    advance(p); /* ':' */
    if (!at_slice_end(p) && !at_op(p, OT_COLON) && !(s->rhs = parse_expr(p)))
        return NULL;
    if (at_op(p, OT_COLON)) {
        advance(p);
        if (!at_slice_end(p) && !(s->cond = parse_expr(p)))
            return NULL;
    }
    return s;
}

static Node *parse_subscript(Parser *p, Node *value) {
    advance(p); /* '[' */
    Node *sub = new_node(p, ND_SUBSCRIPT, value->loc);
    if (!sub)
        return NULL;
    sub->lhs = value;
    Node *first = parse_slice_item(p);
    if (!first)
        return NULL;
    if (!at_op(p, OT_COMMA)) {
        sub->rhs = first;
    } else {
        Node *tup = new_node(p, ND_TUPLE, first->loc);
        if (!tup)
            return NULL;
        NodeVec items = {0};
        vec_push(p, &items, first);
        while (at_op(p, OT_COMMA)) {
            advance(p);
            if (at_op(p, OT_RBRACKET))
                break;
            Node *e = parse_slice_item(p);
            if (!e)
                return NULL;
            vec_push(p, &items, e);
        }
        tup->items = items.v;
        tup->nitems = items.n;
        sub->rhs = tup;
    }
    if (!expect_op(p, OT_RBRACKET, "to close subscript"))
        return NULL;
    return sub;
}

static Node *parse_primary(Parser *p) {
    Node *e = parse_atom(p);
    while (e) {
        Token *t = peek(p);
        if (tok_is_op(t, OT_DOT)) {
            advance(p);
            Token *name = peek(p);
            if (!tok_is_plain_name(name))
                return perr(p, name, MT_ERR_SYNTAX,
                            "expected attribute name after '.', saw %s",
                            tok_desc(p, name));
            advance(p);
            Node *a = new_node(p, ND_ATTR, e->loc);
            if (!a)
                return NULL;
            a->lhs = e;
            a->name = tok_name(p, name);
            e = a;
        } else if (tok_is_op(t, OT_LPAREN)) {
            e = parse_call(p, e);
        } else if (tok_is_op(t, OT_LBRACKET)) {
            e = parse_subscript(p, e);
        } else {
            break;
        }
    }
    return e;
}

static Node *parse_power(Parser *p) {
    Token *t = peek(p);
    if (tok_is_kw(t, "await"))
        return perr(p, t, MT_ERR_UNSUPPORTED, "await expressions are not supported");
    Node *base = parse_primary(p);
    if (!base || !at_op(p, OT_DSTAR))
        return base;
    advance(p);
    Node *b = new_node(p, ND_BINOP, base->loc);
    if (!b)
        return NULL;
    b->op = OT_DSTAR;
    b->lhs = base;
    b->rhs = parse_factor(p);
    return b->rhs ? b : NULL;
}

static Node *parse_factor(Parser *p) {
    Token *t = peek(p);
    if (!(tok_is_op(t, OT_MINUS) || tok_is_op(t, OT_PLUS) || tok_is_op(t, OT_TILDE)))
        return parse_power(p);
    if (!enter(p, t, "expression too deeply nested"))
        return NULL;
    advance(p);
    Node *u = new_node(p, ND_UNARY, t->loc);
    if (u) {
        u->op = t->op;
        u->rhs = parse_factor(p);
    }
    leave(p);
    return u && u->rhs ? u : NULL;
}

/* Left-associative binary levels, loosest first. */
static const OpTok binary_levels[][5] = {
    {OT_PIPE},
    {OT_CARET},
    {OT_AMP},
    {OT_SHL, OT_SHR},
    {OT_PLUS, OT_MINUS},
    {OT_STAR, OT_SLASH, OT_DSLASH, OT_PERCENT, OT_AT},
};
#define NLEVELS ((int)(sizeof binary_levels / sizeof binary_levels[0]))

static bool at_level_op(Parser *p, int level) {
    Token *t = peek(p);
    if (t->kind != TK_OP)
        return false;
    for (int i = 0; i < 5 && binary_levels[level][i] != OT_NONE; i++)
        if (t->op == binary_levels[level][i])
            return true;
    return false;
}

static Node *parse_binary(Parser *p, int level) {
    if (level >= NLEVELS)
        return parse_factor(p);
    Node *lhs = parse_binary(p, level + 1);
    while (lhs && at_level_op(p, level)) {
        Token *op = advance(p);
        if (op->op == OT_AT)
            return perr(p, op, MT_ERR_UNSUPPORTED,
                        "the matrix multiplication operator '@' is not "
                        "supported; use tl.dot");
        Node *b = new_node(p, ND_BINOP, lhs->loc);
        if (!b)
            return NULL;
        b->op = op->op;
        b->lhs = lhs;
        if (!(b->rhs = parse_binary(p, level + 1)))
            return NULL;
        lhs = b;
    }
    return lhs;
}

static Node *parse_bitor(Parser *p) { return parse_binary(p, 0); }

/* A comparison operator at the cursor; consumes it.  OT_NONE if none. */
static OpTok take_compare_op(Parser *p) {
    Token *t = peek(p);
    if (t->kind != TK_OP)
        return OT_NONE;
    switch (t->op) {
    case OT_LT: case OT_LE: case OT_GT: case OT_GE: case OT_EQ: case OT_NE:
    case OT_IN:
        advance(p);
        return t->op;
    case OT_IS:
        advance(p);
        if (at_op(p, OT_NOT)) {
            advance(p);
            return OT_IS_NOT;
        }
        return OT_IS;
    case OT_NOT:
        if (tok_is_op(peek_at(p, 1), OT_IN)) {
            advance(p);
            advance(p);
            return OT_NOT_IN;
        }
        return OT_NONE;
    default:
        return OT_NONE;
    }
}

static Node *parse_comparison(Parser *p) {
    Node *first = parse_bitor(p);
    if (!first)
        return NULL;
    OpTok op = take_compare_op(p);
    if (op == OT_NONE)
        return first;
    Node *cmp = new_node(p, ND_COMPARE, first->loc);
    if (!cmp)
        return NULL;
    NodeVec items = {0};
    OpTok *ops = NULL;
    int nops = 0, capops = 0;
    vec_push(p, &items, first);
    while (op != OT_NONE) {
        VEC_PUSH(p->c->arena, ops, nops, capops, op);
        Node *rhs = parse_bitor(p);
        if (!rhs)
            return NULL;
        vec_push(p, &items, rhs);
        op = take_compare_op(p);
    }
    cmp->items = items.v;
    cmp->nitems = items.n;
    cmp->ops = ops;
    return cmp;
}

static Node *parse_inversion(Parser *p) {
    Token *t = peek(p);
    if (!tok_is_op(t, OT_NOT))
        return parse_comparison(p);
    if (!enter(p, t, "expression too deeply nested"))
        return NULL;
    advance(p);
    Node *u = new_node(p, ND_UNARY, t->loc);
    if (u) {
        u->op = OT_NOT;
        u->rhs = parse_inversion(p);
    }
    leave(p);
    return u && u->rhs ? u : NULL;
}

static Node *parse_boolop(Parser *p, OpTok op) {
    Node *first = op == OT_OR ? parse_boolop(p, OT_AND) : parse_inversion(p);
    if (!first || !at_op(p, op))
        return first;
    Node *b = new_node(p, ND_BOOLOP, first->loc);
    if (!b)
        return NULL;
    b->op = op;
    NodeVec items = {0};
    vec_push(p, &items, first);
    while (at_op(p, op)) {
        advance(p);
        Node *e = op == OT_OR ? parse_boolop(p, OT_AND) : parse_inversion(p);
        if (!e)
            return NULL;
        vec_push(p, &items, e);
    }
    b->items = items.v;
    b->nitems = items.n;
    return b;
}

/* lambda [params]: body.  The parameters are skipped: a lambda is parsed
 * only so that the elaborator can reject it at its location. */
static Node *parse_lambda(Parser *p) {
    Token *kw = advance(p);
    int need = 1, brackets = 0;
    for (;;) {
        Token *t = peek(p);
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF || t->kind == TK_INDENT ||
            t->kind == TK_DEDENT)
            return perr(p, t, MT_ERR_SYNTAX,
                        "expected ':' after lambda parameters, saw %s",
                        tok_desc(p, t));
        advance(p);
        if (tok_is_kw(t, "lambda"))
            need++;
        else if (tok_is_op(t, OT_LPAREN) || tok_is_op(t, OT_LBRACKET) ||
                 tok_is_op(t, OT_LBRACE))
            brackets++;
        else if ((tok_is_op(t, OT_RPAREN) || tok_is_op(t, OT_RBRACKET) ||
                  tok_is_op(t, OT_RBRACE)) && brackets > 0)
            brackets--;
        else if (tok_is_op(t, OT_COLON) && brackets == 0 && --need == 0)
            break;
    }
    Node *l = new_node(p, ND_LAMBDA, kw->loc);
    if (!l || !(l->rhs = parse_expr(p)))
        return NULL;
    return l;
}

/* expression: lambda, or a disjunction with an optional `if ... else`. */
static Node *parse_expr(Parser *p) {
    Token *t = peek(p);
    if (!enter(p, t, "expression too deeply nested"))
        return NULL;
    Node *e;
    if (tok_is_kw(t, "lambda")) {
        e = parse_lambda(p);
    } else {
        e = parse_boolop(p, OT_OR);
        if (e && at_kw(p, "if")) {
            advance(p);
            Node *ife = new_node(p, ND_IFEXP, e->loc);
            if (ife) {
                ife->then = e;
                ife->cond = parse_boolop(p, OT_OR);
                if (ife->cond && !at_kw(p, "else"))
                    perr(p, peek(p), MT_ERR_SYNTAX,
                         "expected 'else' after 'if' expression, saw %s",
                         tok_desc(p, peek(p)));
                else if (ife->cond) {
                    advance(p);
                    ife->els = parse_expr(p);
                }
            }
            e = ife && ife->cond && ife->els ? ife : NULL;
        }
    }
    if (e && at_op(p, OT_WALRUS))
        e = perr(p, peek(p), MT_ERR_UNSUPPORTED,
                 "assignment expressions (':=') are not supported");
    leave(p);
    return HAS_ERROR(p->c) ? NULL : e;
}

static Node *parse_star_expr(Parser *p) {
    Token *t = peek(p);
    if (!tok_is_op(t, OT_STAR))
        return parse_expr(p);
    advance(p);
    Node *s = new_node(p, ND_STARRED, t->loc);
    if (!s || !(s->rhs = parse_bitor(p)))
        return NULL;
    return s;
}

/* Comma-separated expressions; a tuple when there is a comma. */
static Node *parse_star_exprs(Parser *p) {
    Node *first = parse_star_expr(p);
    if (!first || !at_op(p, OT_COMMA))
        return first;
    Node *tup = new_node(p, ND_TUPLE, first->loc);
    if (!tup)
        return NULL;
    NodeVec items = {0};
    vec_push(p, &items, first);
    while (at_op(p, OT_COMMA)) {
        advance(p);
        if (!can_start_expr(peek(p)))
            break;
        Node *e = parse_star_expr(p);
        if (!e)
            return NULL;
        vec_push(p, &items, e);
    }
    tup->items = items.v;
    tup->nitems = items.n;
    return tup;
}

/* ---- statements ---- */

static bool parse_stmt(Parser *p, NodeVec *out);
static Node *parse_if_rest(Parser *p, const char *what);

static const char *target_desc(const Node *n) {
    switch (n->kind) {
    case ND_CALL: return "function call";
    case ND_INT: case ND_FLOAT: case ND_STR: case ND_ELLIPSIS: return "literal";
    case ND_BOOL: return n->ival ? "True" : "False";
    case ND_NONE: return "None";
    case ND_COMPARE: return "comparison";
    case ND_IFEXP: return "conditional expression";
    case ND_LAMBDA: return "lambda";
    case ND_DICT: return "dict literal";
    case ND_SLICE: return "slice";
    default: return "expression";
    }
}

/* Assignment targets: names, attributes, subscripts, and tuples / lists /
 * starred of those. */
static bool check_target(Parser *p, const Node *n, const char *what) {
    switch (n->kind) {
    case ND_NAME: case ND_ATTR: case ND_SUBSCRIPT:
        return true;
    case ND_STARRED:
        return check_target(p, n->rhs, what);
    case ND_TUPLE: case ND_LIST:
        for (int i = 0; i < n->nitems; i++)
            if (!check_target(p, n->items[i], what))
                return false;
        return true;
    default:
        diag_error(p->c, n->loc, MT_ERR_SYNTAX, "cannot %s %s", what,
                   target_desc(n));
        return false;
    }
}

static bool at_stmt_end(Parser *p) {
    Token *t = peek(p);
    return t->kind == TK_NEWLINE || t->kind == TK_EOF || tok_is_op(t, OT_SEMI);
}

/* Skips to the end of a simple statement (';' or NEWLINE, not eaten). */
static void skip_simple(Parser *p) {
    int brackets = 0;
    for (;;) {
        Token *t = peek(p);
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
        advance(p);
    }
}

/* Skips a logical line and the indented block after it, if any. */
static void skip_line_and_block(Parser *p) {
    while (peek(p)->kind != TK_NEWLINE && peek(p)->kind != TK_EOF)
        advance(p);
    if (peek(p)->kind == TK_NEWLINE)
        advance(p);
    if (peek(p)->kind != TK_INDENT)
        return;
    int level = 0;
    do {
        Token *t = advance(p);
        if (t->kind == TK_INDENT)
            level++;
        else if (t->kind == TK_DEDENT)
            level--;
        else if (t->kind == TK_EOF)
            return;
    } while (level > 0);
}

/* A compound statement we only reject: skip it and its clauses. */
static Node *other_compound(Parser *p, const char *name) {
    Token *t = peek(p);
    Node *n = new_node(p, ND_OTHER_STMT, t->loc);
    if (!n)
        return NULL;
    n->name = name;
    while (peek(p)->kind == TK_OP && peek(p)->op == OT_AT)
        skip_line_and_block(p);
    skip_line_and_block(p);
    while (at_kw(p, "except") || at_kw(p, "else") || at_kw(p, "finally"))
        skip_line_and_block(p);
    return n;
}

/* `match subject:` NEWLINE INDENT -- "match" is a soft keyword. */
static bool at_match_stmt(Parser *p) {
    if (!at_kw(p, "match"))
        return false;
    int i = 1, brackets = 0;
    for (;; i++) {
        Token *t = peek_at(p, i);
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
            break;
        if (tok_is_op(t, OT_LPAREN) || tok_is_op(t, OT_LBRACKET) ||
            tok_is_op(t, OT_LBRACE))
            brackets++;
        else if (tok_is_op(t, OT_RPAREN) || tok_is_op(t, OT_RBRACKET) ||
                 tok_is_op(t, OT_RBRACE))
            brackets--;
    }
    return i > 2 && tok_is_op(peek_at(p, i - 1), OT_COLON) &&
           peek_at(p, i + 1)->kind == TK_INDENT;
}

/* After the ':' of a compound statement header. */
static bool parse_block(Parser *p, const char *what, const Token *header,
                        Node ***body, int *nbody) {
    NodeVec v = {0};
    Token *t = peek(p);
    if (!enter_block(p, t))
        return false;
    bool ok = true;
    if (t->kind != TK_NEWLINE) {
        /* simple statements on the header's line */
        if (!can_start_expr(t) && t->kind != TK_NAME) {
            perr(p, t, MT_ERR_SYNTAX,
                 "expected a statement after %s on line %d, saw %s", what,
                 header->loc.line, tok_desc(p, t));
            ok = false;
        } else {
            ok = parse_stmt(p, &v);
        }
    } else {
        advance(p);
        if (peek(p)->kind != TK_INDENT) {
            perr(p, peek(p), MT_ERR_SYNTAX,
                 "expected an indented block after %s on line %d", what,
                 header->loc.line);
            ok = false;
        } else {
            advance(p);
            while (ok && peek(p)->kind != TK_DEDENT && peek(p)->kind != TK_EOF)
                ok = parse_stmt(p, &v);
            if (ok && peek(p)->kind != TK_DEDENT) {
                perr(p, peek(p), MT_ERR_SYNTAX, "unexpected end of file");
                ok = false;
            }
            if (ok)
                advance(p);
        }
    }
    leave_block(p);
    *body = v.v;
    *nbody = v.n;
    return ok;
}

/* An elif chain nests ND_IFs, so it counts as nesting. */
static Node *parse_if(Parser *p, const char *what) {
    Token *kw = peek(p); /* if / elif */
    if (!enter_block(p, kw))
        return NULL;
    Node *n = parse_if_rest(p, what);
    leave_block(p);
    return n;
}

static Node *parse_if_rest(Parser *p, const char *what) {
    Token *kw = advance(p);
    Node *n = new_node(p, ND_IF, kw->loc);
    if (!n || !(n->cond = parse_expr(p)))
        return NULL;
    if (!expect_op(p, OT_COLON, "after if condition") ||
        !parse_block(p, what, kw, &n->body, &n->nbody))
        return NULL;
    if (at_kw(p, "elif")) {
        Node *elif = parse_if(p, "'elif' statement");
        if (!elif)
            return NULL;
        n->orelse = arena_alloc(p->c->arena, sizeof(Node *));
        if (!n->orelse)
            return NULL;
        n->orelse[0] = elif;
        n->norelse = 1;
    } else if (at_kw(p, "else")) {
        Token *e = advance(p);
        if (!expect_op(p, OT_COLON, "after 'else'") ||
            !parse_block(p, "'else' statement", e, &n->orelse, &n->norelse))
            return NULL;
    }
    return n;
}

static bool parse_else_clause(Parser *p, Node *n) {
    if (!at_kw(p, "else"))
        return true;
    Token *e = advance(p);
    return expect_op(p, OT_COLON, "after 'else'") &&
           parse_block(p, "'else' statement", e, &n->orelse, &n->norelse);
}

static Node *parse_while(Parser *p) {
    Token *kw = advance(p);
    Node *n = new_node(p, ND_WHILE, kw->loc);
    if (!n || !(n->cond = parse_expr(p)))
        return NULL;
    if (!expect_op(p, OT_COLON, "after while condition") ||
        !parse_block(p, "'while' statement", kw, &n->body, &n->nbody) ||
        !parse_else_clause(p, n))
        return NULL;
    return n;
}

/* for-loop targets are parsed at `|` level so that `in` is not taken as a
 * comparison. */
static Node *parse_for_target(Parser *p) {
    NodeVec items = {0};
    Token *first = peek(p);
    for (;;) {
        Token *t = peek(p);
        Node *e;
        if (tok_is_op(t, OT_STAR)) {
            advance(p);
            if (!(e = new_node(p, ND_STARRED, t->loc)) ||
                !(e->rhs = parse_bitor(p)))
                return NULL;
        } else if (!(e = parse_bitor(p))) {
            return NULL;
        }
        vec_push(p, &items, e);
        if (!at_op(p, OT_COMMA))
            break;
        advance(p);
        if (tok_is_op(peek(p), OT_IN))
            break;
    }
    if (items.n == 1 && !tok_is_op(peek_at(p, -1), OT_COMMA))
        return items.v[0];
    Node *tup = new_node(p, ND_TUPLE, first->loc);
    if (tup) {
        tup->items = items.v;
        tup->nitems = items.n;
    }
    return tup;
}

static Node *parse_for(Parser *p) {
    Token *kw = advance(p);
    Node *n = new_node(p, ND_FOR, kw->loc);
    if (!n)
        return NULL;
    Node *target = parse_for_target(p);
    if (!target || !check_target(p, target, "assign to"))
        return NULL;
    if (!tok_is_op(peek(p), OT_IN))
        return perr(p, peek(p), MT_ERR_SYNTAX,
                    "expected 'in' after for-loop target, saw %s",
                    tok_desc(p, peek(p)));
    advance(p);
    n->items = arena_alloc(p->c->arena, sizeof(Node *));
    if (!n->items)
        return NULL;
    n->items[0] = target;
    n->nitems = 1;
    if (!(n->rhs = parse_star_exprs(p)))
        return NULL;
    if (!expect_op(p, OT_COLON, "after for-loop target") ||
        !parse_block(p, "'for' statement", kw, &n->body, &n->nbody) ||
        !parse_else_clause(p, n))
        return NULL;
    return n;
}

static Node *other_simple(Parser *p, const char *name) {
    Node *n = new_node(p, ND_OTHER_STMT, peek(p)->loc);
    if (!n)
        return NULL;
    n->name = name;
    skip_simple(p);
    return n;
}

/* `+=` -> `+`.  Not arithmetic on the enum: OT_TILDE sits between OT_CARET
 * and OT_SHL but has no augmented form. */
static OpTok augassign_base_op(OpTok op) {
    switch (op) {
    case OT_PLUS_EQ: return OT_PLUS;
    case OT_MINUS_EQ: return OT_MINUS;
    case OT_STAR_EQ: return OT_STAR;
    case OT_SLASH_EQ: return OT_SLASH;
    case OT_DSLASH_EQ: return OT_DSLASH;
    case OT_PERCENT_EQ: return OT_PERCENT;
    case OT_DSTAR_EQ: return OT_DSTAR;
    case OT_AMP_EQ: return OT_AMP;
    case OT_PIPE_EQ: return OT_PIPE;
    case OT_CARET_EQ: return OT_CARET;
    case OT_SHL_EQ: return OT_SHL;
    case OT_SHR_EQ: return OT_SHR;
    default: return OT_NONE;
    }
}

static Node *parse_simple_stmt(Parser *p) {
    Token *t = peek(p);
    Node *n;
    if (t->kind == TK_NAME) {
        static const struct {
            const char *kw, *name;
        } others[] = {{"global", "Global"}, {"nonlocal", "Nonlocal"},
                      {"del", "Delete"},    {"import", "Import"},
                      {"from", "ImportFrom"}, {"raise", "Raise"},
                      {"yield", "Yield"}};
        for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
            if (tok_is_kw(t, others[i].kw))
                return other_simple(p, others[i].name);
        if (tok_is_kw(t, "pass") || tok_is_kw(t, "break") ||
            tok_is_kw(t, "continue")) {
            advance(p);
            return new_node(p, tok_is_kw(t, "pass")    ? ND_PASS
                               : tok_is_kw(t, "break") ? ND_BREAK
                                                       : ND_CONTINUE,
                            t->loc);
        }
        if (tok_is_kw(t, "return")) {
            advance(p);
            if (!(n = new_node(p, ND_RETURN, t->loc)))
                return NULL;
            if (!at_stmt_end(p) && !(n->rhs = parse_star_exprs(p)))
                return NULL;
            return n;
        }
        if (tok_is_kw(t, "assert")) {
            advance(p);
            if (!(n = new_node(p, ND_ASSERT, t->loc)) ||
                !(n->cond = parse_expr(p)))
                return NULL;
            if (at_op(p, OT_COMMA)) {
                advance(p);
                if (!(n->rhs = parse_expr(p)))
                    return NULL;
            }
            return n;
        }
    }
    Node *first = parse_star_exprs(p);
    if (!first)
        return NULL;
    Token *op = peek(p);
    if (tok_is_op(op, OT_ASSIGN)) {
        n = new_node(p, ND_ASSIGN, first->loc);
        if (!n)
            return NULL;
        NodeVec targets = {0};
        Node *value = first;
        while (at_op(p, OT_ASSIGN)) {
            if (!check_target(p, value, "assign to"))
                return NULL;
            vec_push(p, &targets, value);
            advance(p);
            if (at_kw(p, "yield"))
                return perr(p, peek(p), MT_ERR_UNSUPPORTED,
                            "yield expressions are not supported");
            if (!(value = parse_star_exprs(p)))
                return NULL;
        }
        n->items = targets.v;
        n->nitems = targets.n;
        n->rhs = value;
        return n;
    }
    if (tok_is_op(op, OT_COLON)) {
        if (first->kind == ND_TUPLE || first->kind == ND_LIST) {
            diag_error(p->c, first->loc, MT_ERR_SYNTAX,
                       "only single target (not %s) can be annotated",
                       first->kind == ND_TUPLE ? "tuple" : "list");
            return NULL;
        }
        if (first->kind != ND_NAME && first->kind != ND_ATTR &&
            first->kind != ND_SUBSCRIPT) {
            diag_error(p->c, first->loc, MT_ERR_SYNTAX,
                       "illegal target for annotation");
            return NULL;
        }
        advance(p);
        if (!(n = new_node(p, ND_ANNASSIGN, first->loc)))
            return NULL;
        n->items = arena_alloc(p->c->arena, sizeof(Node *));
        if (!n->items || !(n->lhs = parse_expr(p)))
            return NULL;
        n->items[0] = first;
        n->nitems = 1;
        if (at_op(p, OT_ASSIGN)) {
            advance(p);
            if (!(n->rhs = parse_star_exprs(p)))
                return NULL;
        }
        return n;
    }
    if (op->kind == TK_OP && op->op >= OT_PLUS_EQ && op->op <= OT_SHR_EQ) {
        if (first->kind != ND_NAME && first->kind != ND_ATTR &&
            first->kind != ND_SUBSCRIPT) {
            diag_error(p->c, first->loc, MT_ERR_SYNTAX,
                       "'%s' is an illegal expression for augmented assignment",
                       first->kind == ND_TUPLE ? "tuple"
                                               : target_desc(first));
            return NULL;
        }
        advance(p);
        if (!(n = new_node(p, ND_AUGASSIGN, first->loc)))
            return NULL;
        n->op = augassign_base_op(op->op);
        n->items = arena_alloc(p->c->arena, sizeof(Node *));
        if (!n->items || !(n->rhs = parse_star_exprs(p)))
            return NULL;
        n->items[0] = first;
        n->nitems = 1;
        return n;
    }
    if (!(n = new_node(p, ND_EXPR_STMT, first->loc)))
        return NULL;
    n->rhs = first;
    return n;
}

/* One statement; simple statements joined by ';' push several nodes. */
static bool parse_stmt(Parser *p, NodeVec *out) {
    Token *t = peek(p);
    Node *n = NULL;
    if (t->kind == TK_INDENT) {
        perr(p, t, MT_ERR_SYNTAX, "unexpected indent");
        return false;
    }
    if (t->kind == TK_NAME || tok_is_op(t, OT_AT)) {
        if (tok_is_kw(t, "if"))
            n = parse_if(p, "'if' statement");
        else if (tok_is_kw(t, "while"))
            n = parse_while(p);
        else if (tok_is_kw(t, "for"))
            n = parse_for(p);
        else if (tok_is_op(t, OT_AT) || tok_is_kw(t, "def"))
            n = other_compound(p, "FunctionDef");
        else if (tok_is_kw(t, "class"))
            n = other_compound(p, "ClassDef");
        else if (tok_is_kw(t, "with"))
            n = other_compound(p, "With");
        else if (tok_is_kw(t, "try"))
            n = other_compound(p, "Try");
        else if (tok_is_kw(t, "async")) {
            Token *nx = peek_at(p, 1);
            n = other_compound(p, tok_is_kw(nx, "for")    ? "AsyncFor"
                                  : tok_is_kw(nx, "with") ? "AsyncWith"
                                                          : "AsyncFunctionDef");
        } else if (at_match_stmt(p))
            n = other_compound(p, "Match");
        else if (tok_is_kw(t, "elif") || tok_is_kw(t, "else") ||
                 tok_is_kw(t, "except") || tok_is_kw(t, "finally")) {
            perr(p, t, MT_ERR_SYNTAX, "invalid syntax: unexpected %s",
                 tok_desc(p, t));
            return false;
        }
        if (n || HAS_ERROR(p->c)) {
            if (!n || !check_height(p, n))
                return false;
            vec_push(p, out, n);
            return true;
        }
    }
    for (;;) {
        n = parse_simple_stmt(p);
        if (!n || !check_height(p, n))
            return false;
        vec_push(p, out, n);
        if (!at_op(p, OT_SEMI))
            break;
        advance(p);
        if (peek(p)->kind == TK_NEWLINE)
            break;
    }
    Token *e = peek(p);
    if (e->kind == TK_NEWLINE) {
        advance(p);
        return true;
    }
    if (e->kind == TK_EOF && p->pos >= p->end)
        return true;
    perr(p, e, MT_ERR_SYNTAX, "expected newline or ';' after statement, saw %s",
         tok_desc(p, e));
    return false;
}

/* ---- functions ---- */

static bool parse_params(Parser *p, Node *fn) {
    Param *params = NULL;
    int n = 0, cap = 0;
    bool seen_default = false;
    while (!at_op(p, OT_RPAREN)) {
        Token *t = peek(p);
        if (tok_is_op(t, OT_STAR) || tok_is_op(t, OT_DSTAR)) {
            perr(p, t, MT_ERR_UNSUPPORTED, "variadic parameters are not supported");
            return false;
        }
        if (tok_is_op(t, OT_SLASH)) {
            perr(p, t, MT_ERR_UNSUPPORTED,
                 "positional-only parameters are not supported");
            return false;
        }
        if (!tok_is_plain_name(t)) {
            perr(p, t, MT_ERR_SYNTAX, "expected parameter name, saw %s",
                 tok_desc(p, t));
            return false;
        }
        advance(p);
        Param prm;
        memset(&prm, 0, sizeof prm);
        prm.name = tok_name(p, t);
        prm.loc = t->loc;
        if (!prm.name)
            return false;
        for (int i = 0; i < n; i++)
            if (strcmp(params[i].name, prm.name) == 0) {
                perr(p, t, MT_ERR_SYNTAX,
                     "duplicate argument '%s' in function definition", prm.name);
                return false;
            }
        if (at_op(p, OT_COLON)) {
            advance(p);
            if (!(prm.annotation = check_height(p, parse_expr(p))))
                return false;
        }
        if (at_op(p, OT_ASSIGN)) {
            advance(p);
            if (!(prm.deflt = check_height(p, parse_expr(p))))
                return false;
            seen_default = true;
        } else if (seen_default) {
            perr(p, t, MT_ERR_SYNTAX,
                 "parameter without a default follows parameter with a "
                 "default");
            return false;
        }
        VEC_PUSH(p->c->arena, params, n, cap, prm);
        if (at_op(p, OT_COMMA)) {
            advance(p);
            continue;
        }
        if (!at_op(p, OT_RPAREN)) {
            perr(p, peek(p), MT_ERR_SYNTAX,
                 "expected ',' or ')' in parameter list, saw %s",
                 tok_desc(p, peek(p)));
            return false;
        }
    }
    advance(p);
    fn->params = params;
    fn->nparams = n;
    return true;
}

static Node *parse_funcdef(Parser *p) {
    NodeVec decorators = {0};
    while (at_op(p, OT_AT)) {
        advance(p);
        Node *d = check_height(p, parse_expr(p));
        if (!d)
            return NULL;
        if (peek(p)->kind != TK_NEWLINE)
            return perr(p, peek(p), MT_ERR_SYNTAX,
                        "expected newline after decorator, saw %s",
                        tok_desc(p, peek(p)));
        advance(p);
        vec_push(p, &decorators, d);
    }
    Token *kw = peek(p);
    if (!tok_is_kw(kw, "def"))
        return perr(p, kw, MT_ERR_SYNTAX, "expected 'def', saw %s",
                    tok_desc(p, kw));
    advance(p);
    Token *name = peek(p);
    if (!tok_is_plain_name(name))
        return perr(p, name, MT_ERR_SYNTAX,
                    "expected function name after 'def', saw %s",
                    tok_desc(p, name));
    advance(p);
    Node *fn = new_node(p, ND_FUNCDEF, kw->loc);
    if (!fn)
        return NULL;
    fn->name = tok_name(p, name);
    fn->decorators = decorators.v;
    fn->ndecorators = decorators.n;
    if (!expect_op(p, OT_LPAREN, "after function name") || !parse_params(p, fn))
        return NULL;
    if (at_op(p, OT_ARROW)) {
        advance(p);
        if (!parse_expr(p)) /* the return annotation means nothing here */
            return NULL;
    }
    if (!expect_op(p, OT_COLON, "after function signature") ||
        !parse_block(p, "function definition", kw, &fn->body, &fn->nbody))
        return NULL;
    return fn;
}

Node *parse_function(Ctx *c, Module *m, TopFunc *f) {
    if (!c || !m || !f)
        return NULL;
    if (f->ast)
        return f->ast;
    Parser p;
    parser_init(&p, c, m, f->tok_begin, f->tok_end);
    Node *fn = parse_funcdef(&p);
    if (!fn)
        return NULL;
    if (p.pos < p.end) {
        perr(&p, peek(&p), MT_ERR_SYNTAX, "invalid syntax: unexpected %s",
             tok_desc(&p, peek(&p)));
        return NULL;
    }
    f->ast = fn;
    return fn;
}

Node *parse_const_expr(Ctx *c, Module *m, TopConst *k) {
    if (!c || !m || !k)
        return NULL;
    Parser p;
    parser_init(&p, c, m, k->tok_begin, k->tok_end);
    if (p.pos >= p.end) {
        diag_error(c, k->loc, MT_ERR_SYNTAX,
                   "expected an expression after '%s ='", k->name);
        return NULL;
    }
    Node *e = check_height(&p, parse_star_exprs(&p));
    if (!e)
        return NULL;
    if (p.pos < p.end) {
        perr(&p, peek(&p), MT_ERR_SYNTAX,
             "expected end of expression, saw %s", tok_desc(&p, peek(&p)));
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
static void index_skip_statement(Parser *p) { skip_line_and_block(p); }

static bool index_is_error(const Token *t, const char *prefix) {
    return t->kind == TK_ERROR && strncmp(t->text, prefix, strlen(prefix)) == 0;
}

/* Reads a dotted name a.b.c at the cursor into an arena string. */
static char *index_dotted(Parser *p) {
    StrBuf sb;
    sb_init(&sb);
    while (peek(p)->kind == TK_OP && peek(p)->op == OT_DOT) { /* relative */
        sb_putn(&sb, ".", 1);
        if (tok_is_ellipsis(peek(p)))
            sb_putn(&sb, "..", 2);
        advance(p);
    }
    bool ok = true;
    for (;;) {
        Token *t = peek(p);
        if (!tok_is_plain_name(t)) {
            ok = sb.len > 0 && sb_str(&sb)[sb.len - 1] == '.' &&
                 tok_is_kw(t, "import"); /* from . import x */
            break;
        }
        advance(p);
        sb_putn(&sb, t->text, (size_t)t->len);
        if (!at_op(p, OT_DOT))
            break;
        advance(p);
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
    advance(p); /* import */
    for (;;) {
        char *path = index_dotted(p);
        if (!path)
            return;
        const char *alias;
        if (at_kw(p, "as")) {
            advance(p);
            if (!tok_is_plain_name(peek(p)))
                return;
            alias = tok_name(p, advance(p));
        } else {
            /* `import a.b` binds `a` to the package a */
            char *dot = strchr(path, '.');
            if (dot)
                *dot = 0;
            alias = path;
        }
        index_add_import(p, m, cap, alias, path);
        if (!at_op(p, OT_COMMA))
            return;
        advance(p);
    }
}

static void index_from_import(Parser *p, Module *m, int *cap) {
    advance(p); /* from */
    char *base = index_dotted(p);
    if (!base || !at_kw(p, "import"))
        return;
    advance(p);
    bool paren = at_op(p, OT_LPAREN);
    if (paren)
        advance(p);
    for (;;) {
        Token *t = peek(p);
        if (!tok_is_plain_name(t))
            return;
        advance(p);
        const char *alias = tok_name(p, t);
        if (at_kw(p, "as")) {
            advance(p);
            if (!tok_is_plain_name(peek(p)))
                return;
            alias = tok_name(p, advance(p));
        }
        size_t bl = strlen(base);
        const char *path = arena_printf(p->c->arena, "%s%s%.*s", base,
                                        bl && base[bl - 1] == '.' ? "" : ".",
                                        t->len, t->text);
        index_add_import(p, m, cap, alias, path);
        if (!at_op(p, OT_COMMA))
            return;
        advance(p);
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
        kc.name = tok_name(p, &p->toks[k]);
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
    while (at_op(p, OT_AT)) {
        is_jit |= index_decorator_is_jit(p);
        while (peek(p)->kind != TK_NEWLINE && peek(p)->kind != TK_EOF)
            advance(p);
        if (peek(p)->kind == TK_NEWLINE)
            advance(p);
    }
    Token *kw = peek(p);
    Token *name = peek_at(p, 1);
    if (!tok_is_kw(kw, "def") || !tok_is_plain_name(name)) {
        index_skip_statement(p);
        return;
    }
    index_skip_statement(p);
    /* a dedent to a column no block started at right after the body belongs
     * to the function, so that compiling it reports the bad indentation */
    if (index_is_error(peek(p), "unindent"))
        index_skip_statement(p);
    TopFunc f;
    memset(&f, 0, sizeof f);
    f.name = tok_name(p, name);
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
    parser_init(&p, c, m, 0, m->ntok);
    int capf = 0, capk = 0, capi = 0;
    while (peek(&p)->kind != TK_EOF) {
        Token *t = peek(&p);
        int start = p.pos;
        if (t->kind == TK_NEWLINE || t->kind == TK_DEDENT) {
            advance(&p);
        } else if (t->kind == TK_INDENT) {
            /* an unexpected indent: the block is no top-level statement */
            int level = 0;
            do {
                Token *u = advance(&p);
                level += u->kind == TK_INDENT ? 1 : u->kind == TK_DEDENT ? -1 : 0;
            } while (level > 0 && peek(&p)->kind != TK_EOF);
        } else if (tok_is_op(t, OT_AT) || tok_is_kw(t, "def")) {
            index_function(&p, m, &capf);
        } else if (tok_is_kw(t, "import") || tok_is_kw(t, "from")) {
            if (tok_is_kw(t, "import"))
                index_import(&p, m, &capi);
            else
                index_from_import(&p, m, &capi);
            /* continue after ';' with the next simple statement */
            skip_simple(&p);
            if (at_op(&p, OT_SEMI))
                advance(&p);
            else
                index_skip_statement(&p);
        } else if (tok_is_plain_name(t) &&
                   (tok_is_op(peek_at(&p, 1), OT_ASSIGN) ||
                    tok_is_op(peek_at(&p, 1), OT_COLON))) {
            index_const(&p, m, &capk);
            skip_simple(&p);
            if (at_op(&p, OT_SEMI))
                advance(&p);
            else
                index_skip_statement(&p);
        } else {
            index_skip_statement(&p);
        }
        if (p.pos == start) /* never loop without progress */
            advance(&p);
    }
    return m;
}
