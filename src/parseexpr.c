/* parseexpr.c: expressions, by recursive descent over Python's grammar.
 *
 * Input: a Parser (parse.c) positioned at an expression.  Output: the
 * expression's AST node, with the cursor just past it, or NULL after
 * exactly one diagnostic.  Precedence follows Python: lambda / if-else,
 * or, and, not, comparisons (chained into one ND_COMPARE), | ^ & << >>
 * + - * / // % (parse_binary's levels), unary, **, then primaries (calls,
 * subscripts, attributes) over atoms.  Every recursive step goes through
 * ps_enter / ps_leave, so nesting is bounded; the caller checks the
 * finished tree's height (ps_check_height).  Forms the kernel language
 * never accepts (comprehensions, `@`, f-strings, `**` in calls, ...) are
 * rejected here with MT_ERR_UNSUPPORTED rather than parsed. */
#include "mt.h"

#include <string.h>

/* ---- expressions ---- */

static Node *parse_star_expr(Parser *p);
static Node *parse_factor(Parser *p);

bool can_start_expr(const Token *t) {
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
    return ps_error(p, t, MT_ERR_UNSUPPORTED, "comprehensions are not supported");
}

static bool at_comprehension(Parser *p) {
    return ps_at_kw(p, "for") || (ps_at_kw(p, "async") && tok_is_kw(ps_peek_at(p, 1), "for"));
}

static Node *parse_strings(Parser *p) {
    Token *first = ps_peek(p);
    bool bytes = false;
    size_t total = 0;
    int n = 0;
    for (Token *t = ps_peek_at(p, 0); t->kind == TK_STRING; t = ps_peek_at(p, ++n)) {
        bool f = false, b = false;
        for (int i = 0; i < t->len && t->text[i] != '\'' && t->text[i] != '"'; i++) {
            f |= t->text[i] == 'f' || t->text[i] == 'F';
            b |= t->text[i] == 'b' || t->text[i] == 'B';
        }
        if (f)
            return ps_error(p, t, MT_ERR_UNSUPPORTED, "f-strings are not supported");
        if (n > 0 && b != bytes)
            return ps_error(p, t, MT_ERR_SYNTAX,
                            "cannot mix bytes and nonbytes literals");
        bytes = b;
        total += (size_t)t->slen;
    }
    if (bytes)
        return ps_error(p, first, MT_ERR_UNSUPPORTED,
                        "bytes literals are not supported");
    Node *node = ps_new_node(p, ND_STR, first->loc);
    char *buf = arena_alloc(p->c->arena, total + 1);
    if (!node || !buf)
        return NULL;
    size_t o = 0;
    for (int i = 0; i < n; i++) {
        Token *t = ps_advance(p);
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
    while (ps_at_op(p, OT_COMMA)) {
        ps_advance(p);
        if (ps_at_op(p, close))
            break;
        Node *e = parse_star_expr(p);
        if (!e)
            return false;
        ps_vec_push(p, items, e);
    }
    return true;
}

static Node *parse_paren(Parser *p) {
    Token *open = ps_advance(p);
    if (ps_at_op(p, OT_RPAREN)) {
        ps_advance(p);
        return ps_new_node(p, ND_TUPLE, open->loc);
    }
    if (ps_at_kw(p, "yield"))
        return ps_error(p, ps_peek(p), MT_ERR_UNSUPPORTED,
                        "yield expressions are not supported");
    Node *e = parse_star_expr(p);
    if (!e)
        return NULL;
    if (at_comprehension(p))
        return comprehension_error(p, ps_peek(p));
    if (!ps_at_op(p, OT_COMMA)) {
        if (!ps_expect_op(p, OT_RPAREN, "to close parenthesis"))
            return NULL;
        return e;
    }
    Node *tup = ps_new_node(p, ND_TUPLE, open->loc);
    if (!tup)
        return NULL;
    NodeVec items = {0};
    ps_vec_push(p, &items, e);
    if (!parse_elements(p, &items, OT_RPAREN) ||
        !ps_expect_op(p, OT_RPAREN, "to close tuple"))
        return NULL;
    tup->items = items.v;
    tup->nitems = items.n;
    return tup;
}

static Node *parse_list(Parser *p) {
    Token *open = ps_advance(p);
    Node *list = ps_new_node(p, ND_LIST, open->loc);
    if (!list)
        return NULL;
    if (ps_at_op(p, OT_RBRACKET)) {
        ps_advance(p);
        return list;
    }
    Node *e = parse_star_expr(p);
    if (!e)
        return NULL;
    if (at_comprehension(p))
        return comprehension_error(p, ps_peek(p));
    NodeVec items = {0};
    ps_vec_push(p, &items, e);
    if (!parse_elements(p, &items, OT_RBRACKET) ||
        !ps_expect_op(p, OT_RBRACKET, "to close list"))
        return NULL;
    list->items = items.v;
    list->nitems = items.n;
    return list;
}

static Node *parse_brace(Parser *p) {
    Token *open = ps_advance(p);
    Node *dict = ps_new_node(p, ND_DICT, open->loc);
    if (!dict)
        return NULL;
    if (ps_at_op(p, OT_RBRACE)) {
        ps_advance(p);
        return dict;
    }
    NodeVec items = {0};
    for (;;) {
        if (ps_at_op(p, OT_DSTAR))
            return ps_error(p, ps_peek(p), MT_ERR_UNSUPPORTED,
                            "dict unpacking is not supported");
        Node *k = parse_star_expr(p);
        if (!k)
            return NULL;
        if (!ps_at_op(p, OT_COLON)) {
            if (at_comprehension(p))
                return comprehension_error(p, ps_peek(p));
            if (ps_at_op(p, OT_COMMA) || ps_at_op(p, OT_RBRACE))
                return ps_error(p, open, MT_ERR_UNSUPPORTED,
                                "set literals are not supported");
            return ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                            "expected ':' after dict key, saw %s",
                            ps_tok_desc(p, ps_peek(p)));
        }
        ps_advance(p);
        Node *v = parse_expr(p);
        if (!v)
            return NULL;
        if (at_comprehension(p))
            return comprehension_error(p, ps_peek(p));
        ps_vec_push(p, &items, k);
        ps_vec_push(p, &items, v);
        if (!ps_at_op(p, OT_COMMA))
            break;
        ps_advance(p);
        if (ps_at_op(p, OT_RBRACE))
            break;
    }
    if (!ps_expect_op(p, OT_RBRACE, "to close dict"))
        return NULL;
    dict->items = items.v;
    dict->nitems = items.n;
    return dict;
}

static Node *parse_atom(Parser *p) {
    Token *t = ps_peek(p);
    Node *n;
    switch (t->kind) {
    case TK_NAME:
        if (tok_is_kw(t, "True") || tok_is_kw(t, "False")) {
            ps_advance(p);
            if ((n = ps_new_node(p, ND_BOOL, t->loc)))
                n->ival = tok_is_kw(t, "True");
            return n;
        }
        if (tok_is_kw(t, "None")) {
            ps_advance(p);
            return ps_new_node(p, ND_NONE, t->loc);
        }
        if (tok_is_kw(t, "yield"))
            return ps_error(p, t, MT_ERR_UNSUPPORTED,
                            "yield expressions are not supported");
        if (tok_is_keyword(t))
            return ps_error(p, t, MT_ERR_SYNTAX,
                            "invalid syntax: expected an expression, saw %s",
                            ps_tok_desc(p, t));
        ps_advance(p);
        if ((n = ps_new_node(p, ND_NAME, t->loc)))
            n->name = ps_tok_name(p, t);
        return n;
    case TK_INT:
        ps_advance(p);
        if ((n = ps_new_node(p, ND_INT, t->loc))) {
            n->ival = t->ival;
            n->big = t->big;
        }
        return n;
    case TK_FLOAT:
        ps_advance(p);
        if ((n = ps_new_node(p, ND_FLOAT, t->loc)))
            n->fval = t->fval;
        return n;
    case TK_STRING:
        return parse_strings(p);
    case TK_OP:
        if (tok_is_ellipsis(t)) {
            ps_advance(p);
            return ps_new_node(p, ND_ELLIPSIS, t->loc);
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
    return ps_error(p, t, MT_ERR_SYNTAX, "expected an expression, saw %s",
                    ps_tok_desc(p, t));
}

static Node *parse_call(Parser *p, Node *fn) {
    ps_advance(p); /* '(' */
    Node *call = ps_new_node(p, ND_CALL, fn->loc);
    if (!call)
        return NULL;
    call->lhs = fn;
    NodeVec args = {0};
    bool seen_keyword = false;
    while (!ps_at_op(p, OT_RPAREN)) {
        Token *t = ps_peek(p);
        Node *a;
        if (tok_is_op(t, OT_DSTAR))
            return ps_error(p, t, MT_ERR_UNSUPPORTED, "**kwargs are not supported");
        if (tok_is_op(t, OT_STAR)) {
            ps_advance(p);
            if (!(a = ps_new_node(p, ND_STARRED, t->loc)) ||
                !(a->rhs = parse_expr(p)))
                return NULL;
        } else if (tok_is_plain_name(t) && tok_is_op(ps_peek_at(p, 1), OT_ASSIGN)) {
            for (int i = 0; i < args.n; i++)
                if (args.v[i]->kind == ND_KEYWORD &&
                    (int)strlen(args.v[i]->name) == t->len &&
                    memcmp(args.v[i]->name, t->text, (size_t)t->len) == 0)
                    return ps_error(p, t, MT_ERR_SYNTAX,
                                    "keyword argument repeated: '%.*s'",
                                    t->len > 40 ? 40 : t->len, t->text);
            ps_advance(p);
            ps_advance(p);
            if (!(a = ps_new_node(p, ND_KEYWORD, t->loc)))
                return NULL;
            a->name = ps_tok_name(p, t);
            if (!(a->rhs = parse_expr(p)))
                return NULL;
            seen_keyword = true;
        } else {
            if (!(a = parse_expr(p)))
                return NULL;
            if (at_comprehension(p))
                return comprehension_error(p, ps_peek(p));
            if (seen_keyword)
                return ps_error(p, t, MT_ERR_SYNTAX,
                                "positional argument follows keyword argument");
        }
        ps_vec_push(p, &args, a);
        if (ps_at_op(p, OT_COMMA)) {
            ps_advance(p);
            continue;
        }
        if (!ps_at_op(p, OT_RPAREN))
            return ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                            "expected ',' or ')' after call argument, saw %s",
                            ps_tok_desc(p, ps_peek(p)));
    }
    ps_advance(p);
    call->items = args.v;
    call->nitems = args.n;
    return call;
}

static bool at_slice_end(Parser *p) {
    return ps_at_op(p, OT_COMMA) || ps_at_op(p, OT_RBRACKET);
}

static Node *parse_slice_item(Parser *p) {
    Token *t = ps_peek(p);
    Node *lower = NULL;
    if (!tok_is_op(t, OT_COLON)) {
        if (!(lower = parse_star_expr(p)))
            return NULL;
        if (!ps_at_op(p, OT_COLON))
            return lower;
    }
    Node *s = ps_new_node(p, ND_SLICE, lower ? lower->loc : t->loc);
    if (!s)
        return NULL;
    s->lhs = lower;
    ps_advance(p); /* ':' */
    if (!at_slice_end(p) && !ps_at_op(p, OT_COLON) && !(s->rhs = parse_expr(p)))
        return NULL;
    if (ps_at_op(p, OT_COLON)) {
        ps_advance(p);
        if (!at_slice_end(p) && !(s->cond = parse_expr(p)))
            return NULL;
    }
    return s;
}

static Node *parse_subscript(Parser *p, Node *value) {
    ps_advance(p); /* '[' */
    Node *sub = ps_new_node(p, ND_SUBSCRIPT, value->loc);
    if (!sub)
        return NULL;
    sub->lhs = value;
    Node *first = parse_slice_item(p);
    if (!first)
        return NULL;
    if (!ps_at_op(p, OT_COMMA)) {
        sub->rhs = first;
    } else {
        Node *tup = ps_new_node(p, ND_TUPLE, first->loc);
        if (!tup)
            return NULL;
        NodeVec items = {0};
        ps_vec_push(p, &items, first);
        while (ps_at_op(p, OT_COMMA)) {
            ps_advance(p);
            if (ps_at_op(p, OT_RBRACKET))
                break;
            Node *e = parse_slice_item(p);
            if (!e)
                return NULL;
            ps_vec_push(p, &items, e);
        }
        tup->items = items.v;
        tup->nitems = items.n;
        sub->rhs = tup;
    }
    if (!ps_expect_op(p, OT_RBRACKET, "to close subscript"))
        return NULL;
    return sub;
}

static Node *parse_primary(Parser *p) {
    Node *e = parse_atom(p);
    while (e) {
        Token *t = ps_peek(p);
        if (tok_is_op(t, OT_DOT)) {
            ps_advance(p);
            Token *name = ps_peek(p);
            if (!tok_is_plain_name(name))
                return ps_error(p, name, MT_ERR_SYNTAX,
                                "expected attribute name after '.', saw %s",
                                ps_tok_desc(p, name));
            ps_advance(p);
            Node *a = ps_new_node(p, ND_ATTR, e->loc);
            if (!a)
                return NULL;
            a->lhs = e;
            a->name = ps_tok_name(p, name);
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
    Token *t = ps_peek(p);
    if (tok_is_kw(t, "await"))
        return ps_error(p, t, MT_ERR_UNSUPPORTED, "await expressions are not supported");
    Node *base = parse_primary(p);
    if (!base || !ps_at_op(p, OT_DSTAR))
        return base;
    /* a ** b ** c recurses for its right operand: bounded like nesting */
    if (!ps_enter(p, ps_peek(p), "expression too deeply nested"))
        return NULL;
    ps_advance(p);
    Node *b = ps_new_node(p, ND_BINOP, base->loc);
    if (b) {
        b->op = OT_DSTAR;
        b->lhs = base;
        b->rhs = parse_factor(p);
    }
    ps_leave(p);
    return b && b->rhs ? b : NULL;
}

static Node *parse_factor(Parser *p) {
    Token *t = ps_peek(p);
    if (!(tok_is_op(t, OT_MINUS) || tok_is_op(t, OT_PLUS) || tok_is_op(t, OT_TILDE)))
        return parse_power(p);
    if (!ps_enter(p, t, "expression too deeply nested"))
        return NULL;
    ps_advance(p);
    Node *u = ps_new_node(p, ND_UNARY, t->loc);
    if (u) {
        u->op = t->op;
        u->rhs = parse_factor(p);
    }
    ps_leave(p);
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
    Token *t = ps_peek(p);
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
        Token *op = ps_advance(p);
        if (op->op == OT_AT)
            return ps_error(p, op, MT_ERR_UNSUPPORTED,
                            "the matrix multiplication operator '@' is not "
                            "supported; use tl.dot");
        Node *b = ps_new_node(p, ND_BINOP, lhs->loc);
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

Node *parse_bitor(Parser *p) { return parse_binary(p, 0); }

/* A comparison operator at the cursor; consumes it.  OT_NONE if none. */
static OpTok take_compare_op(Parser *p) {
    Token *t = ps_peek(p);
    if (t->kind != TK_OP)
        return OT_NONE;
    switch (t->op) {
    case OT_LT: case OT_LE: case OT_GT: case OT_GE: case OT_EQ: case OT_NE:
    case OT_IN:
        ps_advance(p);
        return t->op;
    case OT_IS:
        ps_advance(p);
        if (ps_at_op(p, OT_NOT)) {
            ps_advance(p);
            return OT_IS_NOT;
        }
        return OT_IS;
    case OT_NOT:
        if (tok_is_op(ps_peek_at(p, 1), OT_IN)) {
            ps_advance(p);
            ps_advance(p);
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
    Node *cmp = ps_new_node(p, ND_COMPARE, first->loc);
    if (!cmp)
        return NULL;
    NodeVec items = {0};
    OpTok *ops = NULL;
    int nops = 0, capops = 0;
    ps_vec_push(p, &items, first);
    while (op != OT_NONE) {
        VEC_PUSH(p->c->arena, ops, nops, capops, op);
        Node *rhs = parse_bitor(p);
        if (!rhs)
            return NULL;
        ps_vec_push(p, &items, rhs);
        op = take_compare_op(p);
    }
    cmp->items = items.v;
    cmp->nitems = items.n;
    cmp->ops = ops;
    return cmp;
}

static Node *parse_inversion(Parser *p) {
    Token *t = ps_peek(p);
    if (!tok_is_op(t, OT_NOT))
        return parse_comparison(p);
    if (!ps_enter(p, t, "expression too deeply nested"))
        return NULL;
    ps_advance(p);
    Node *u = ps_new_node(p, ND_UNARY, t->loc);
    if (u) {
        u->op = OT_NOT;
        u->rhs = parse_inversion(p);
    }
    ps_leave(p);
    return u && u->rhs ? u : NULL;
}

static Node *parse_boolop(Parser *p, OpTok op) {
    Node *first = op == OT_OR ? parse_boolop(p, OT_AND) : parse_inversion(p);
    if (!first || !ps_at_op(p, op))
        return first;
    Node *b = ps_new_node(p, ND_BOOLOP, first->loc);
    if (!b)
        return NULL;
    b->op = op;
    NodeVec items = {0};
    ps_vec_push(p, &items, first);
    while (ps_at_op(p, op)) {
        ps_advance(p);
        Node *e = op == OT_OR ? parse_boolop(p, OT_AND) : parse_inversion(p);
        if (!e)
            return NULL;
        ps_vec_push(p, &items, e);
    }
    b->items = items.v;
    b->nitems = items.n;
    return b;
}

/* lambda [params]: body.  The parameters are skipped: a lambda is parsed
 * only so that the elaborator can reject it at its location. */
static Node *parse_lambda(Parser *p) {
    Token *kw = ps_advance(p);
    int need = 1, brackets = 0;
    for (;;) {
        Token *t = ps_peek(p);
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF || t->kind == TK_INDENT ||
            t->kind == TK_DEDENT)
            return ps_error(p, t, MT_ERR_SYNTAX,
                            "expected ':' after lambda parameters, saw %s",
                            ps_tok_desc(p, t));
        ps_advance(p);
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
    Node *l = ps_new_node(p, ND_LAMBDA, kw->loc);
    if (!l || !(l->rhs = parse_expr(p)))
        return NULL;
    return l;
}

/* expression: lambda, or a disjunction with an optional `if ... else`. */
Node *parse_expr(Parser *p) {
    Token *t = ps_peek(p);
    if (!ps_enter(p, t, "expression too deeply nested"))
        return NULL;
    Node *e;
    if (tok_is_kw(t, "lambda")) {
        e = parse_lambda(p);
    } else {
        e = parse_boolop(p, OT_OR);
        if (e && ps_at_kw(p, "if")) {
            ps_advance(p);
            Node *ife = ps_new_node(p, ND_IFEXP, e->loc);
            if (ife) {
                ife->then = e;
                ife->cond = parse_boolop(p, OT_OR);
                if (ife->cond && !ps_at_kw(p, "else"))
                    ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                             "expected 'else' after 'if' expression, saw %s",
                             ps_tok_desc(p, ps_peek(p)));
                else if (ife->cond) {
                    ps_advance(p);
                    ife->els = parse_expr(p);
                }
            }
            e = ife && ife->cond && ife->els ? ife : NULL;
        }
    }
    if (e && ps_at_op(p, OT_WALRUS))
        e = ps_error(p, ps_peek(p), MT_ERR_UNSUPPORTED,
                     "assignment expressions (':=') are not supported");
    ps_leave(p);
    return HAS_ERROR(p->c) ? NULL : e;
}

static Node *parse_star_expr(Parser *p) {
    Token *t = ps_peek(p);
    if (!tok_is_op(t, OT_STAR))
        return parse_expr(p);
    ps_advance(p);
    Node *s = ps_new_node(p, ND_STARRED, t->loc);
    if (!s || !(s->rhs = parse_bitor(p)))
        return NULL;
    return s;
}

/* Comma-separated expressions; a tuple when there is a comma. */
Node *parse_star_exprs(Parser *p) {
    Node *first = parse_star_expr(p);
    if (!first || !ps_at_op(p, OT_COMMA))
        return first;
    Node *tup = ps_new_node(p, ND_TUPLE, first->loc);
    if (!tup)
        return NULL;
    NodeVec items = {0};
    ps_vec_push(p, &items, first);
    while (ps_at_op(p, OT_COMMA)) {
        ps_advance(p);
        if (!can_start_expr(ps_peek(p)))
            break;
        Node *e = parse_star_expr(p);
        if (!e)
            return NULL;
        ps_vec_push(p, &items, e);
    }
    tup->items = items.v;
    tup->nitems = items.n;
    return tup;
}

