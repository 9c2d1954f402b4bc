/* parsestmt.c: statements, blocks and function definitions.
 *
 * Input: a Parser (parse.c) over one top-level function's token range.
 * Output: parse_funcdef's ND_FUNCDEF node (decorators, parameters, body)
 * with every statement located, or NULL after one diagnostic.  Simple
 * statements end at ';' or NEWLINE; a compound statement's body is
 * either the rest of its line or an INDENT ... DEDENT block, and block
 * nesting is bounded by ps_enter_block.  Assignment targets are checked
 * here (check_target), so the elaborator sees only names, attributes,
 * subscripts and tuples of them.  Valid Python statements the kernel
 * language rejects (with, try, class, nested def, global, ...) become
 * ND_OTHER_STMT with their blocks skipped, for the elaborator to report. */
#include "mt.h"

#include <string.h>

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
    Token *t = ps_peek(p);
    return t->kind == TK_NEWLINE || t->kind == TK_EOF || tok_is_op(t, OT_SEMI);
}

/* A compound statement we only reject: skip it and its clauses. */
static Node *other_compound(Parser *p, const char *name) {
    Token *t = ps_peek(p);
    Node *n = ps_new_node(p, ND_OTHER_STMT, t->loc);
    if (!n)
        return NULL;
    n->name = name;
    while (ps_peek(p)->kind == TK_OP && ps_peek(p)->op == OT_AT)
        ps_skip_line_and_block(p);
    ps_skip_line_and_block(p);
    while (ps_at_kw(p, "except") || ps_at_kw(p, "else") || ps_at_kw(p, "finally"))
        ps_skip_line_and_block(p);
    return n;
}

/* `match subject:` NEWLINE INDENT -- "match" is a soft keyword. */
static bool at_match_stmt(Parser *p) {
    if (!ps_at_kw(p, "match"))
        return false;
    int i = 1, brackets = 0;
    for (;; i++) {
        Token *t = ps_peek_at(p, i);
        if (t->kind == TK_NEWLINE || t->kind == TK_EOF)
            break;
        if (tok_is_op(t, OT_LPAREN) || tok_is_op(t, OT_LBRACKET) ||
            tok_is_op(t, OT_LBRACE))
            brackets++;
        else if (tok_is_op(t, OT_RPAREN) || tok_is_op(t, OT_RBRACKET) ||
                 tok_is_op(t, OT_RBRACE))
            brackets--;
    }
    return i > 2 && tok_is_op(ps_peek_at(p, i - 1), OT_COLON) &&
           ps_peek_at(p, i + 1)->kind == TK_INDENT;
}

/* After the ':' of a compound statement header. */
static bool parse_block(Parser *p, const char *what, const Token *header,
                        Node ***body, int *nbody) {
    NodeVec v = {0};
    Token *t = ps_peek(p);
    if (!ps_enter_block(p, t))
        return false;
    bool ok = true;
    if (t->kind != TK_NEWLINE) {
        /* simple statements on the header's line */
        if (!can_start_expr(t) && t->kind != TK_NAME) {
            ps_error(p, t, MT_ERR_SYNTAX,
                     "expected a statement after %s on line %d, saw %s", what,
                     header->loc.line, ps_tok_desc(p, t));
            ok = false;
        } else {
            ok = parse_stmt(p, &v);
        }
    } else {
        ps_advance(p);
        if (ps_peek(p)->kind != TK_INDENT) {
            ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                     "expected an indented block after %s on line %d", what,
                     header->loc.line);
            ok = false;
        } else {
            ps_advance(p);
            while (ok && ps_peek(p)->kind != TK_DEDENT && ps_peek(p)->kind != TK_EOF)
                ok = parse_stmt(p, &v);
            if (ok && ps_peek(p)->kind != TK_DEDENT) {
                ps_error(p, ps_peek(p), MT_ERR_SYNTAX, "unexpected end of file");
                ok = false;
            }
            if (ok)
                ps_advance(p);
        }
    }
    ps_leave_block(p);
    *body = v.v;
    *nbody = v.n;
    return ok;
}

/* An elif chain nests ND_IFs, so it counts as nesting. */
static Node *parse_if(Parser *p, const char *what) {
    Token *kw = ps_peek(p); /* if / elif */
    if (!ps_enter_block(p, kw))
        return NULL;
    Node *n = parse_if_rest(p, what);
    ps_leave_block(p);
    return n;
}

static Node *parse_if_rest(Parser *p, const char *what) {
    Token *kw = ps_advance(p);
    Node *n = ps_new_node(p, ND_IF, kw->loc);
    if (!n || !(n->cond = parse_expr(p)))
        return NULL;
    if (!ps_expect_op(p, OT_COLON, "after if condition") ||
        !parse_block(p, what, kw, &n->body, &n->nbody))
        return NULL;
    if (ps_at_kw(p, "elif")) {
        Node *elif = parse_if(p, "'elif' statement");
        if (!elif)
            return NULL;
        n->orelse = arena_alloc(p->c->arena, sizeof(Node *));
        if (!n->orelse)
            return NULL;
        n->orelse[0] = elif;
        n->norelse = 1;
    } else if (ps_at_kw(p, "else")) {
        Token *e = ps_advance(p);
        if (!ps_expect_op(p, OT_COLON, "after 'else'") ||
            !parse_block(p, "'else' statement", e, &n->orelse, &n->norelse))
            return NULL;
    }
    return n;
}

static bool parse_else_clause(Parser *p, Node *n) {
    if (!ps_at_kw(p, "else"))
        return true;
    Token *e = ps_advance(p);
    return ps_expect_op(p, OT_COLON, "after 'else'") &&
           parse_block(p, "'else' statement", e, &n->orelse, &n->norelse);
}

static Node *parse_while(Parser *p) {
    Token *kw = ps_advance(p);
    Node *n = ps_new_node(p, ND_WHILE, kw->loc);
    if (!n || !(n->cond = parse_expr(p)))
        return NULL;
    if (!ps_expect_op(p, OT_COLON, "after while condition") ||
        !parse_block(p, "'while' statement", kw, &n->body, &n->nbody) ||
        !parse_else_clause(p, n))
        return NULL;
    return n;
}

/* for-loop targets are parsed at `|` level so that `in` is not taken as a
 * comparison. */
static Node *parse_for_target(Parser *p) {
    NodeVec items = {0};
    Token *first = ps_peek(p);
    for (;;) {
        Token *t = ps_peek(p);
        Node *e;
        if (tok_is_op(t, OT_STAR)) {
            ps_advance(p);
            if (!(e = ps_new_node(p, ND_STARRED, t->loc)) ||
                !(e->rhs = parse_bitor(p)))
                return NULL;
        } else if (!(e = parse_bitor(p))) {
            return NULL;
        }
        ps_vec_push(p, &items, e);
        if (!ps_at_op(p, OT_COMMA))
            break;
        ps_advance(p);
        if (tok_is_op(ps_peek(p), OT_IN))
            break;
    }
    if (items.n == 1 && !tok_is_op(ps_peek_at(p, -1), OT_COMMA))
        return items.v[0];
    Node *tup = ps_new_node(p, ND_TUPLE, first->loc);
    if (tup) {
        tup->items = items.v;
        tup->nitems = items.n;
    }
    return tup;
}

static Node *parse_for(Parser *p) {
    Token *kw = ps_advance(p);
    Node *n = ps_new_node(p, ND_FOR, kw->loc);
    if (!n)
        return NULL;
    Node *target = parse_for_target(p);
    if (!target || !check_target(p, target, "assign to"))
        return NULL;
    if (!tok_is_op(ps_peek(p), OT_IN))
        return ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                        "expected 'in' after for-loop target, saw %s",
                        ps_tok_desc(p, ps_peek(p)));
    ps_advance(p);
    n->items = arena_alloc(p->c->arena, sizeof(Node *));
    if (!n->items)
        return NULL;
    n->items[0] = target;
    n->nitems = 1;
    if (!(n->rhs = parse_star_exprs(p)))
        return NULL;
    if (!ps_expect_op(p, OT_COLON, "after for-loop target") ||
        !parse_block(p, "'for' statement", kw, &n->body, &n->nbody) ||
        !parse_else_clause(p, n))
        return NULL;
    return n;
}

static Node *other_simple(Parser *p, const char *name) {
    Node *n = ps_new_node(p, ND_OTHER_STMT, ps_peek(p)->loc);
    if (!n)
        return NULL;
    n->name = name;
    ps_skip_simple(p);
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
    Token *t = ps_peek(p);
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
            ps_advance(p);
            return ps_new_node(p, tok_is_kw(t, "pass")    ? ND_PASS
                               : tok_is_kw(t, "break") ? ND_BREAK
                                                       : ND_CONTINUE,
                            t->loc);
        }
        if (tok_is_kw(t, "return")) {
            ps_advance(p);
            if (!(n = ps_new_node(p, ND_RETURN, t->loc)))
                return NULL;
            if (!at_stmt_end(p) && !(n->rhs = parse_star_exprs(p)))
                return NULL;
            return n;
        }
        if (tok_is_kw(t, "assert")) {
            ps_advance(p);
            if (!(n = ps_new_node(p, ND_ASSERT, t->loc)) ||
                !(n->cond = parse_expr(p)))
                return NULL;
            if (ps_at_op(p, OT_COMMA)) {
                ps_advance(p);
                if (!(n->rhs = parse_expr(p)))
                    return NULL;
            }
            return n;
        }
    }
    Node *first = parse_star_exprs(p);
    if (!first)
        return NULL;
    Token *op = ps_peek(p);
    if (tok_is_op(op, OT_ASSIGN)) {
        n = ps_new_node(p, ND_ASSIGN, first->loc);
        if (!n)
            return NULL;
        NodeVec targets = {0};
        Node *value = first;
        while (ps_at_op(p, OT_ASSIGN)) {
            if (!check_target(p, value, "assign to"))
                return NULL;
            ps_vec_push(p, &targets, value);
            ps_advance(p);
            if (ps_at_kw(p, "yield"))
                return ps_error(p, ps_peek(p), MT_ERR_UNSUPPORTED,
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
        ps_advance(p);
        if (!(n = ps_new_node(p, ND_ANNASSIGN, first->loc)))
            return NULL;
        n->items = arena_alloc(p->c->arena, sizeof(Node *));
        if (!n->items || !(n->lhs = parse_expr(p)))
            return NULL;
        n->items[0] = first;
        n->nitems = 1;
        if (ps_at_op(p, OT_ASSIGN)) {
            ps_advance(p);
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
        ps_advance(p);
        if (!(n = ps_new_node(p, ND_AUGASSIGN, first->loc)))
            return NULL;
        n->op = augassign_base_op(op->op);
        n->items = arena_alloc(p->c->arena, sizeof(Node *));
        if (!n->items || !(n->rhs = parse_star_exprs(p)))
            return NULL;
        n->items[0] = first;
        n->nitems = 1;
        return n;
    }
    if (!(n = ps_new_node(p, ND_EXPR_STMT, first->loc)))
        return NULL;
    n->rhs = first;
    return n;
}

/* One statement; simple statements joined by ';' push several nodes. */
static bool parse_stmt(Parser *p, NodeVec *out) {
    Token *t = ps_peek(p);
    Node *n = NULL;
    if (t->kind == TK_INDENT) {
        ps_error(p, t, MT_ERR_SYNTAX, "unexpected indent");
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
            Token *nx = ps_peek_at(p, 1);
            n = other_compound(p, tok_is_kw(nx, "for")    ? "AsyncFor"
                                  : tok_is_kw(nx, "with") ? "AsyncWith"
                                                          : "AsyncFunctionDef");
        } else if (at_match_stmt(p))
            n = other_compound(p, "Match");
        else if (tok_is_kw(t, "elif") || tok_is_kw(t, "else") ||
                 tok_is_kw(t, "except") || tok_is_kw(t, "finally")) {
            ps_error(p, t, MT_ERR_SYNTAX, "invalid syntax: unexpected %s",
                     ps_tok_desc(p, t));
            return false;
        }
        if (n || HAS_ERROR(p->c)) {
            if (!n || !ps_check_height(p, n))
                return false;
            ps_vec_push(p, out, n);
            return true;
        }
    }
    for (;;) {
        n = parse_simple_stmt(p);
        if (!n || !ps_check_height(p, n))
            return false;
        ps_vec_push(p, out, n);
        if (!ps_at_op(p, OT_SEMI))
            break;
        ps_advance(p);
        if (ps_peek(p)->kind == TK_NEWLINE)
            break;
    }
    Token *e = ps_peek(p);
    if (e->kind == TK_NEWLINE) {
        ps_advance(p);
        return true;
    }
    if (e->kind == TK_EOF && p->pos >= p->end)
        return true;
    ps_error(p, e, MT_ERR_SYNTAX, "expected newline or ';' after statement, saw %s",
             ps_tok_desc(p, e));
    return false;
}

/* ---- functions ---- */

/* Far more than a kernel launch passes (the Python extension takes 128;
 * CUDA's parameter space holds 4 KiB), and bounded: the duplicate check
 * and the elaborator's scope lookups are linear per parameter. */
#define MAX_FUNC_PARAMS 1024

static bool parse_params(Parser *p, Node *fn) {
    Param *params = NULL;
    int n = 0, cap = 0;
    bool seen_default = false;
    while (!ps_at_op(p, OT_RPAREN)) {
        Token *t = ps_peek(p);
        if (tok_is_op(t, OT_STAR) || tok_is_op(t, OT_DSTAR)) {
            ps_error(p, t, MT_ERR_UNSUPPORTED, "variadic parameters are not supported");
            return false;
        }
        if (tok_is_op(t, OT_SLASH)) {
            ps_error(p, t, MT_ERR_UNSUPPORTED,
                     "positional-only parameters are not supported");
            return false;
        }
        if (!tok_is_plain_name(t)) {
            ps_error(p, t, MT_ERR_SYNTAX, "expected parameter name, saw %s",
                     ps_tok_desc(p, t));
            return false;
        }
        if (n >= MAX_FUNC_PARAMS) {
            ps_error(p, t, MT_ERR_UNSUPPORTED, "a function takes at most %d parameters",
                     MAX_FUNC_PARAMS);
            return false;
        }
        ps_advance(p);
        Param prm;
        memset(&prm, 0, sizeof prm);
        prm.name = ps_tok_name(p, t);
        prm.loc = t->loc;
        if (!prm.name)
            return false;
        for (int i = 0; i < n; i++)
            if (strcmp(params[i].name, prm.name) == 0) {
                ps_error(p, t, MT_ERR_SYNTAX,
                         "duplicate argument '%s' in function definition", prm.name);
                return false;
            }
        if (ps_at_op(p, OT_COLON)) {
            ps_advance(p);
            if (!(prm.annotation = ps_check_height(p, parse_expr(p))))
                return false;
        }
        if (ps_at_op(p, OT_ASSIGN)) {
            ps_advance(p);
            if (!(prm.deflt = ps_check_height(p, parse_expr(p))))
                return false;
            seen_default = true;
        } else if (seen_default) {
            ps_error(p, t, MT_ERR_SYNTAX,
                     "parameter without a default follows parameter with a "
                     "default");
            return false;
        }
        VEC_PUSH(p->c->arena, params, n, cap, prm);
        if (ps_at_op(p, OT_COMMA)) {
            ps_advance(p);
            continue;
        }
        if (!ps_at_op(p, OT_RPAREN)) {
            ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                     "expected ',' or ')' in parameter list, saw %s",
                     ps_tok_desc(p, ps_peek(p)));
            return false;
        }
    }
    ps_advance(p);
    fn->params = params;
    fn->nparams = n;
    return true;
}

Node *parse_funcdef(Parser *p) {
    NodeVec decorators = {0};
    while (ps_at_op(p, OT_AT)) {
        ps_advance(p);
        Node *d = ps_check_height(p, parse_expr(p));
        if (!d)
            return NULL;
        if (ps_peek(p)->kind != TK_NEWLINE)
            return ps_error(p, ps_peek(p), MT_ERR_SYNTAX,
                            "expected newline after decorator, saw %s",
                            ps_tok_desc(p, ps_peek(p)));
        ps_advance(p);
        ps_vec_push(p, &decorators, d);
    }
    Token *kw = ps_peek(p);
    if (!tok_is_kw(kw, "def"))
        return ps_error(p, kw, MT_ERR_SYNTAX, "expected 'def', saw %s",
                        ps_tok_desc(p, kw));
    ps_advance(p);
    Token *name = ps_peek(p);
    if (!tok_is_plain_name(name))
        return ps_error(p, name, MT_ERR_SYNTAX,
                        "expected function name after 'def', saw %s",
                        ps_tok_desc(p, name));
    ps_advance(p);
    Node *fn = ps_new_node(p, ND_FUNCDEF, kw->loc);
    if (!fn)
        return NULL;
    fn->name = ps_tok_name(p, name);
    fn->decorators = decorators.v;
    fn->ndecorators = decorators.n;
    if (!ps_expect_op(p, OT_LPAREN, "after function name") || !parse_params(p, fn))
        return NULL;
    if (ps_at_op(p, OT_ARROW)) {
        ps_advance(p);
        if (!parse_expr(p)) /* the return annotation means nothing here */
            return NULL;
    }
    if (!ps_expect_op(p, OT_COLON, "after function signature") ||
        !parse_block(p, "function definition", kw, &fn->body, &fn->nbody))
        return NULL;
    return fn;
}

