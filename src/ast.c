/* ast.c: the AST as an indented tree (--emit ast, and test goldens).
 *
 * Input: a function node from parse_function.  Output: one node per line,
 * two spaces per level, Python's ast class names (Name, Int, Float, Str,
 * Bool, None, BinOp +, Compare <, Call, Subscript, Slice, For, If,
 * AugAssign +=, ...).  A child's role is a prefix on its line where it is
 * not obvious ("target Name x", "arg Int 0", "keyword axis=Int 1",
 * "decorator ...", "param ..."); statement lists of compound statements
 * sit under "body" / "orelse" lines.  Locations are left out so that
 * goldens survive edits that only move code.  Output is deterministic:
 * floats print as Python's repr, strings as a single-quoted repr. */
#include "mt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_str_repr(StrBuf *sb, const char *s, int n) {
    sb_putc(sb, '\'');
    for (int i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '\\': sb_puts(sb, "\\\\"); break;
        case '\'': sb_puts(sb, "\\'"); break;
        case '\n': sb_puts(sb, "\\n"); break;
        case '\t': sb_puts(sb, "\\t"); break;
        case '\r': sb_puts(sb, "\\r"); break;
        default:
            if (c < 0x20 || c == 0x7f)
                sb_printf(sb, "\\x%02x", c);
            else
                sb_putc(sb, (char)c);
        }
    }
    sb_putc(sb, '\'');
}

static void print_node(StrBuf *sb, const Node *n, int indent, const char *label);

static void print_stmts(StrBuf *sb, Node **stmts, int n, int indent) {
    for (int i = 0; i < n; i++)
        print_node(sb, stmts[i], indent, NULL);
}

static void print_group(StrBuf *sb, const char *name, Node **stmts, int n,
                        int indent) {
    sb_indent(sb, indent);
    sb_puts(sb, name);
    sb_putc(sb, '\n');
    print_stmts(sb, stmts, n, indent + 2);
}

static void print_header(StrBuf *sb, const Node *n) {
    char num[40];
    switch (n->kind) {
    case ND_NAME: sb_printf(sb, "Name %s", n->name); break;
    case ND_INT:
        sb_printf(sb, "Int %lld%s", (long long)n->ival, n->big ? " (big)" : "");
        break;
    case ND_FLOAT:
        format_f64(num, n->fval);
        sb_printf(sb, "Float %s", num);
        break;
    case ND_STR:
        sb_puts(sb, "Str ");
        put_str_repr(sb, n->sval ? n->sval : "", n->sval ? n->slen : 0);
        break;
    case ND_BOOL: sb_puts(sb, n->ival ? "Bool True" : "Bool False"); break;
    case ND_NONE: sb_puts(sb, "None"); break;
    case ND_ELLIPSIS: sb_puts(sb, "Ellipsis"); break;
    case ND_ATTR: sb_printf(sb, "Attribute %s", n->name); break;
    case ND_CALL: sb_puts(sb, "Call"); break;
    case ND_KEYWORD: sb_printf(sb, "keyword %s", n->name); break;
    case ND_BINOP: sb_printf(sb, "BinOp %s", optok_str(n->op)); break;
    case ND_UNARY: sb_printf(sb, "UnaryOp %s", optok_str(n->op)); break;
    case ND_COMPARE:
        sb_puts(sb, "Compare");
        for (int i = 0; n->ops && i < n->nitems - 1; i++)
            sb_printf(sb, " %s", optok_str(n->ops[i]));
        break;
    case ND_BOOLOP: sb_printf(sb, "BoolOp %s", optok_str(n->op)); break;
    case ND_IFEXP: sb_puts(sb, "IfExp"); break;
    case ND_TUPLE: sb_puts(sb, "Tuple"); break;
    case ND_LIST: sb_puts(sb, "List"); break;
    case ND_DICT: sb_puts(sb, "Dict"); break;
    case ND_SUBSCRIPT: sb_puts(sb, "Subscript"); break;
    case ND_SLICE: sb_puts(sb, "Slice"); break;
    case ND_STARRED: sb_puts(sb, "Starred"); break;
    case ND_LAMBDA: sb_puts(sb, "Lambda"); break;
    case ND_EXPR_STMT: sb_puts(sb, "Expr"); break;
    case ND_ASSIGN: sb_puts(sb, "Assign"); break;
    case ND_ANNASSIGN: sb_puts(sb, "AnnAssign"); break;
    case ND_AUGASSIGN: sb_printf(sb, "AugAssign %s=", optok_str(n->op)); break;
    case ND_FOR: sb_puts(sb, "For"); break;
    case ND_WHILE: sb_puts(sb, "While"); break;
    case ND_IF: sb_puts(sb, "If"); break;
    case ND_PASS: sb_puts(sb, "Pass"); break;
    case ND_BREAK: sb_puts(sb, "Break"); break;
    case ND_CONTINUE: sb_puts(sb, "Continue"); break;
    case ND_RETURN: sb_puts(sb, "Return"); break;
    case ND_ASSERT: sb_puts(sb, "Assert"); break;
    case ND_FUNCDEF: sb_printf(sb, "FunctionDef %s", n->name ? n->name : ""); break;
    case ND_OTHER_STMT: sb_puts(sb, n->name ? n->name : "Unknown"); break;
    default: sb_printf(sb, "Node%d", (int)n->kind); break;
    }
}

static void print_child(StrBuf *sb, const Node *n, int indent, const char *label) {
    if (n)
        print_node(sb, n, indent, label);
}

static void print_items(StrBuf *sb, const Node *n, int indent, const char *label) {
    for (int i = 0; i < n->nitems; i++)
        print_node(sb, n->items[i], indent, label);
}

static void print_node(StrBuf *sb, const Node *n, int indent, const char *label) {
    if (!n)
        return;
    int in = indent + 2;
    sb_indent(sb, indent);
    if (label) {
        sb_puts(sb, label);
        sb_putc(sb, ' ');
    }
    if (n->kind == ND_KEYWORD) {
        /* keyword axis=Int 0: the value shares the line */
        sb_printf(sb, "keyword %s=", n->name);
        if (!n->rhs) {
            sb_putc(sb, '\n');
            return;
        }
        n = n->rhs;
    }
    print_header(sb, n);
    sb_putc(sb, '\n');
    switch (n->kind) {
    case ND_ATTR:
    case ND_UNARY:
    case ND_STARRED:
    case ND_LAMBDA:
    case ND_EXPR_STMT:
    case ND_RETURN:
        print_child(sb, n->lhs, in, NULL);
        print_child(sb, n->rhs, in, NULL);
        break;
    case ND_CALL:
        print_child(sb, n->lhs, in, NULL);
        for (int i = 0; i < n->nitems; i++)
            print_node(sb, n->items[i], in,
                       n->items[i] && n->items[i]->kind == ND_KEYWORD ? NULL
                                                                      : "arg");
        break;
    case ND_BINOP:
        print_child(sb, n->lhs, in, NULL);
        print_child(sb, n->rhs, in, NULL);
        break;
    case ND_COMPARE:
    case ND_BOOLOP:
    case ND_TUPLE:
    case ND_LIST:
        print_items(sb, n, in, NULL);
        break;
    case ND_DICT:
        for (int i = 0; i < n->nitems; i++)
            print_node(sb, n->items[i], in, i % 2 ? "value" : "key");
        break;
    case ND_IFEXP:
        print_child(sb, n->cond, in, "test");
        print_child(sb, n->then, in, "body");
        print_child(sb, n->els, in, "orelse");
        break;
    case ND_SUBSCRIPT:
        print_child(sb, n->lhs, in, NULL);
        print_child(sb, n->rhs, in, "index");
        break;
    case ND_SLICE:
        print_child(sb, n->lhs, in, "lower");
        print_child(sb, n->rhs, in, "upper");
        print_child(sb, n->cond, in, "step");
        break;
    case ND_ASSIGN:
        print_items(sb, n, in, "target");
        print_child(sb, n->rhs, in, NULL);
        break;
    case ND_ANNASSIGN:
        print_items(sb, n, in, "target");
        print_child(sb, n->lhs, in, "annotation");
        print_child(sb, n->rhs, in, NULL);
        break;
    case ND_AUGASSIGN:
        print_items(sb, n, in, "target");
        print_child(sb, n->rhs, in, NULL);
        break;
    case ND_FOR:
        print_items(sb, n, in, "target");
        print_child(sb, n->rhs, in, "iter");
        print_group(sb, "body", n->body, n->nbody, in);
        if (n->norelse)
            print_group(sb, "orelse", n->orelse, n->norelse, in);
        break;
    case ND_WHILE:
    case ND_IF:
        print_child(sb, n->cond, in, "test");
        print_group(sb, "body", n->body, n->nbody, in);
        if (n->norelse)
            print_group(sb, "orelse", n->orelse, n->norelse, in);
        break;
    case ND_ASSERT:
        print_child(sb, n->cond, in, "test");
        print_child(sb, n->rhs, in, "msg");
        break;
    case ND_FUNCDEF:
        for (int i = 0; i < n->ndecorators; i++)
            print_node(sb, n->decorators[i], in, "decorator");
        for (int i = 0; i < n->nparams; i++) {
            const Param *prm = &n->params[i];
            sb_indent(sb, in);
            sb_printf(sb, "param %s", prm->name ? prm->name : "");
            if (prm->annotation) {
                sb_puts(sb, " : ");
                print_header(sb, prm->annotation);
                sb_putc(sb, '\n');
                /* the annotation's children, as print_node would */
                const Node *a = prm->annotation;
                StrBuf tmp;
                sb_init(&tmp);
                print_node(&tmp, a, in, NULL);
                const char *t = sb_str(&tmp);
                const char *nl = strchr(t, '\n');
                if (nl)
                    sb_puts(sb, nl + 1);
                sb_free(&tmp);
            } else {
                sb_putc(sb, '\n');
            }
            print_child(sb, prm->deflt, in + 2, "default");
        }
        print_stmts(sb, n->body, n->nbody, in);
        break;
    default:
        break;
    }
}

void ast_print(StrBuf *sb, const Node *fn) {
    if (!sb || !fn)
        return;
    print_node(sb, fn, 0, NULL);
}
