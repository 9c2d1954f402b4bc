/* irprint.c: the textual SSA IR in the original's syntax (docs/ir.md).
 *
 * Input: a Func (verified or not: the printer never fails, so it can show
 * broken IR in verifier bug reports).  Output: text appended to a StrBuf,
 * one line per op, lines joined by "\n" with no trailing newline.
 *
 * Values are renumbered %0, %1, ... in definition order over the whole
 * function, independent of ValIds, so that passes that delete ops leave no
 * gaps and the text depends only on the program.  A for op numbers its
 * index, then its carried arguments, then its body, then its results (the
 * order in which the original's lowering allocated ids).  Params print by
 * name, constants inline as Python repr, the absent operand as "none"; a
 * value that has no definition (invalid IR) prints as "%?<ValId>". */
#include "mt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Printer {
    Func *f;
    StrBuf *sb;
    int *num;   /* ValId -> printed number, -1 = not numbered */
    int next;
    bool first_line;
} Printer;

static void number_value(Printer *p, ValId v) {
    if (v > 0 && v < p->f->nvals && p->num[v] < 0)
        p->num[v] = p->next++;
}

static void number_region(Printer *p, const Region *r) {
    for (int i = 0; i < r->nops; i++) {
        const Op *op = r->ops[i];
        if (op->code == OP_FOR)
            number_value(p, op->index);
        for (int k = 0; k < op_niters(op) && op->iters; k++)
            number_value(p, op->iters[k]);
        Region *rs[2];
        for (int k = 0, n = op_regions(op, rs); k < n; k++)
            number_region(p, rs[k]);
        for (int k = 0; k < op->nres && op->res; k++)
            number_value(p, op->res[k]);
    }
}

static void print_value(Printer *p, ValId v) {
    Func *f = p->f;
    if (v == 0) {
        sb_puts(p->sb, "none");
        return;
    }
    if (v < 0 || v >= f->nvals) {
        sb_printf(p->sb, "%%?%d", (int)v);
        return;
    }
    const Value *x = &f->vals[v];
    if (x->kind == VK_PARAM) {
        sb_puts(p->sb, x->name ? x->name : "?");
    } else if (x->kind == VK_CONST) {
        DType d = (DType)x->type.dtype;
        /* i32/i64, f32 and bool print bare; other types as f16(1.5) */
        bool bare = d == DT_F32 || d == DT_I1 || d == DT_I32 || d == DT_I64;
        char buf[40];
        if (d == DT_I1)
            snprintf(buf, sizeof buf, "%s", x->c.i ? "True" : "False");
        else if (d == DT_F32)
            format_f32(buf, (float)x->c.f);
        else if (dtype_is_float(d))
            format_f64(buf, x->c.f);
        else if (dtype_is_unsigned(d))
            snprintf(buf, sizeof buf, "%llu", (unsigned long long)x->c.i);
        else
            snprintf(buf, sizeof buf, "%lld", (long long)x->c.i);
        if (bare)
            sb_puts(p->sb, buf);
        else
            sb_printf(p->sb, "%s(%s)", dtype_name(d), buf);
    } else if (p->num[v] >= 0) {
        sb_printf(p->sb, "%%%d", p->num[v]);
    } else {
        sb_printf(p->sb, "%%?%d", (int)v);
    }
}

static void print_values(Printer *p, const ValId *vs, int n) {
    for (int i = 0; i < n; i++) {
        if (i)
            sb_puts(p->sb, ", ");
        print_value(p, vs[i]);
    }
}

/* Python str() of a shape tuple: (8,) and (4, 8). */
static void print_shape(StrBuf *sb, Type t) {
    sb_putc(sb, '(');
    for (int i = 0; i < t.rank; i++)
        sb_printf(sb, i ? ", %d" : "%d", (int)t.shape[i]);
    if (t.rank == 1)
        sb_putc(sb, ',');
    sb_putc(sb, ')');
}

/* A string attribute: double quotes, with \\, \" and every byte outside
 * printable ASCII escaped as \xNN (irparse.c reads it back). */
void ir_print_string(StrBuf *sb, const char *s) {
    sb_putc(sb, '"');
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_printf(sb, "\\%c", *p);
        else if (*p < 0x20 || *p > 0x7e)
            sb_printf(sb, "\\x%02x", *p);
        else
            sb_putc(sb, (char)*p);
    }
    sb_putc(sb, '"');
}

/* Attributes by the op's schema (ops.def): " {axis=0}", " {start=0,
 * end=8}", " {input_precision=tf32}", or the result's shape and dtype. */
static void print_attrs(Printer *p, const Op *op) {
    StrBuf *sb = p->sb;
    if (op->code >= OP_COUNT)
        return;
    int schema = op_info[op->code].attrs;
    const AttrInfo *ai = &attr_info[schema];
    if (schema == AS_SHAPE) {
        Type t = op->nres ? val_type(p->f, op->res[0]) : type_scalar(DT_VOID);
        sb_puts(sb, " {shape=");
        print_shape(sb, t);
        sb_printf(sb, ", dtype=%s}", dtype_name((DType)t.dtype));
        return;
    }
    int n = 0;
    for (int i = 0; i < 2 && ai->strs[i]; i++) { /* tldebug.c's strings */
        sb_printf(sb, "%s%s=", n++ ? ", " : " {", ai->strs[i]);
        ir_print_string(sb, op->str[i]);
    }
    for (int i = 0; i < ai->nattr; i++) {
        int64_t v = op->attr[i];
        if ((ai->sparse >> i & 1) && v == 0)
            continue;
        sb_printf(sb, "%s%s=", n++ ? ", " : " {", ai->names[i]);
        if (ai->values && !(ai->plain >> i & 1) && v >= 0 && v < ai->nvalues)
            sb_puts(sb, ai->values[v]);
        else
            sb_printf(sb, "%lld", (long long)v);
    }
    if (n)
        sb_putc(sb, '}');
}

static void begin_line(Printer *p, int depth) {
    if (!p->first_line)
        sb_putc(p->sb, '\n');
    p->first_line = false;
    sb_indent(p->sb, 2 * depth);
}

static void print_region(Printer *p, const Region *r, int depth);

/* A region's ops, then its terminator ("yield v, ..." or "condition c")
 * and the closing brace. */
static void print_block(Printer *p, const Region *r, const char *term, const ValId *vs,
                        int n, int depth) {
    StrBuf *sb = p->sb;
    if (r)
        print_region(p, r, depth + 1);
    begin_line(p, depth + 1);
    sb_puts(sb, term);
    if (n && vs) {
        sb_putc(sb, ' ');
        print_values(p, vs, n);
    }
    begin_line(p, depth);
    sb_putc(sb, '}');
}

static void print_for(Printer *p, const Op *op, int depth) {
    StrBuf *sb = p->sb;
    int ncarry = op->nres;
    begin_line(p, depth);
    if (ncarry && op->res) {
        print_values(p, op->res, ncarry);
        sb_puts(sb, " = ");
    }
    sb_puts(sb, "for ");
    print_value(p, op->index);
    if (val_type(p->f, op->index).dtype != DT_I32) {
        sb_puts(sb, " : ");
        type_print(sb, val_type(p->f, op->index));
    }
    sb_puts(sb, " in range(");
    print_values(p, op->args, op->nargs < 3 ? op->nargs : 3);
    if (op->attr[0])
        sb_printf(sb, ", num_stages=%lld", (long long)op->attr[0]);
    sb_putc(sb, ')');
    if (ncarry && op->iters) {
        sb_puts(sb, " iter_args(");
        for (int k = 0; k < ncarry; k++) {
            if (k)
                sb_puts(sb, ", ");
            print_value(p, op->iters[k]);
            sb_puts(sb, " = ");
            print_value(p, 3 + k < op->nargs ? op->args[3 + k] : 0);
        }
        sb_puts(sb, ") : ");
        for (int k = 0; k < ncarry; k++) {
            if (k)
                sb_puts(sb, ", ");
            type_print(sb, val_type(p->f, op->iters[k]));
        }
    }
    sb_puts(sb, " {");
    print_block(p, op->body, "yield", op->yields, ncarry, depth);
}

/* %r, ... = if %c -> (T, ...) { then; yield ... } else { else; yield ... } */
static void print_if(Printer *p, const Op *op, int depth) {
    StrBuf *sb = p->sb;
    begin_line(p, depth);
    if (op->nres) {
        print_values(p, op->res, op->nres);
        sb_puts(sb, " = ");
    }
    sb_puts(sb, "if ");
    print_value(p, op->args[0]);
    if (op->nres) {
        sb_puts(sb, " -> (");
        for (int k = 0; k < op->nres; k++) {
            if (k)
                sb_puts(sb, ", ");
            type_print(sb, val_type(p->f, op->res[k]));
        }
        sb_putc(sb, ')');
    }
    sb_puts(sb, " {");
    print_block(p, op->body, "yield", op->yields, op->nres, depth);
    sb_puts(sb, " else {");
    print_block(p, op->alt, "yield", op->alt_yields, op->nres, depth);
}

/* %r, ... = while (%x = v, ...) : T, ... { cond; condition %c } do {
 * body; yield ... } */
static void print_while(Printer *p, const Op *op, int depth) {
    StrBuf *sb = p->sb;
    begin_line(p, depth);
    if (op->nres) {
        print_values(p, op->res, op->nres);
        sb_puts(sb, " = ");
    }
    sb_puts(sb, "while");
    if (op->nres) {
        sb_puts(sb, " (");
        for (int k = 0; k < op->nres; k++) {
            if (k)
                sb_puts(sb, ", ");
            print_value(p, op->iters[k]);
            sb_puts(sb, " = ");
            print_value(p, op->args[k]);
        }
        sb_puts(sb, ") : ");
        for (int k = 0; k < op->nres; k++) {
            if (k)
                sb_puts(sb, ", ");
            type_print(sb, val_type(p->f, op->iters[k]));
        }
    }
    sb_puts(sb, " {");
    print_block(p, op->alt, "condition", op->alt_yields, 1, depth);
    sb_puts(sb, " do {");
    print_block(p, op->body, "yield", op->yields, op->nres, depth);
}

/* tlscan.c's reduce and scan: "%r, ... = reduce %x, ... {axis=0}
 * combine(%a, ..., %b, ...) : T, ... {" body "yield %y, ..." "}" */
static void print_combine(Printer *p, const Op *op, int depth) {
    StrBuf *sb = p->sb;
    begin_line(p, depth);
    print_values(p, op->res, op->nres);
    sb_printf(sb, " = %s ", op_info[op->code].name);
    print_values(p, op->args, op->nargs);
    print_attrs(p, op);
    sb_puts(sb, op->code == OP_MAP ? " args(" : " combine(");
    if (op->iters)
        print_values(p, op->iters, op_niters(op));
    sb_puts(sb, ") : ");
    for (int k = 0; k < op->nres; k++) {
        if (k)
            sb_puts(sb, ", ");
        type_print(sb, val_type(p->f, op->res[k]));
    }
    sb_puts(sb, " {");
    print_region(p, op->body, depth + 1);
    begin_line(p, depth + 1);
    sb_puts(sb, "yield ");
    if (op->yields)
        print_values(p, op->yields, op->nres);
    begin_line(p, depth);
    sb_putc(sb, '}');
}

static void print_op(Printer *p, const Op *op, int depth) {
    StrBuf *sb = p->sb;
    if (op->code == OP_FOR || op->code == OP_IF || op->code == OP_WHILE) {
        (op->code == OP_FOR  ? print_for
         : op->code == OP_IF ? print_if
                             : print_while)(p, op, depth);
        return;
    }
    if (op->body && op->nres) {
        print_combine(p, op, depth);
        return;
    }
    begin_line(p, depth);
    if (op->nres >= 1) {
        print_values(p, op->res, op->nres);
        sb_puts(sb, " = ");
    }
    sb_puts(sb, op->code < OP_COUNT ? op_info[op->code].name : "unknown");
    if (op->nargs) {
        sb_putc(sb, ' ');
        print_values(p, op->args, op->nargs);
    }
    print_attrs(p, op);
    for (int k = 0; k < op->nres; k++) { /* several only for inline asm */
        sb_puts(sb, k ? ", " : " : ");
        type_print(sb, val_type(p->f, op->res[k]));
    }
}

static void print_region(Printer *p, const Region *r, int depth) {
    for (int i = 0; i < r->nops; i++)
        print_op(p, r->ops[i], depth);
}

/* The body at depth; first: no newline before the first op. */
static void print_body(StrBuf *sb, Func *f, int depth, bool first) {
    if (!f || f->nvals <= 0)
        return;
    int *num = malloc(sizeof(int) * (size_t)f->nvals);
    if (!num) {
        sb->failed = true;
        return;
    }
    for (int i = 0; i < f->nvals; i++)
        num[i] = -1;
    Printer p = {.f = f, .sb = sb, .num = num, .first_line = first};
    number_region(&p, &f->body);
    print_region(&p, &f->body, depth);
    free(num);
}

void ir_print(StrBuf *sb, Func *f) { print_body(sb, f, 0, true); }

/* ---------------------------------------------------- whole functions (.ir) */

/* The header irparse.c reads back: params with their types and
 * divisibility hints, then what a pass may need that the body does not
 * say (num_warps). */
void ir_print_func(StrBuf *sb, Func *f) {
    sb_printf(sb, "func @%s(", f->name ? f->name : "?");
    for (int i = 0; i < f->nparams; i++) {
        const Value *v = &f->vals[f->params[i]];
        sb_printf(sb, "%s%s: ", i ? ", " : "", v->name ? v->name : "?");
        type_print(sb, v->type);
        if (v->divisibility > 1)
            sb_printf(sb, ":%d", (int)v->divisibility);
    }
    sb_printf(sb, ") attributes {num_warps=%d", f->num_warps);
    if (f->num_stages)
        sb_printf(sb, ", num_stages=%d", f->num_stages);
    sb_puts(sb, "} {");
    print_body(sb, f, 1, false);
    sb_puts(sb, "\n}");
}

void ir_print_attrs(StrBuf *sb, Func *f, const Op *op) {
    Printer p = {.f = f, .sb = sb, .first_line = true};
    print_attrs(&p, op);
}
