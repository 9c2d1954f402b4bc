/* cuda_asm.c: the CUDA text of tl.inline_asm_elementwise.
 *
 * Input: an inline_asm op (tlasm.c): operands and results of one shape in
 * one layout, Op.str[0] the user's PTX with LLVM's operand syntax ($0,
 * $1, ...), Op.str[1] one constraint per register, outputs first.  Output:
 * per thread, for each group of `pack` of its elements, one CUDA asm
 * statement whose registers are, as Triton's lowering makes them, every
 * output's registers and then every operand's; elements narrower than
 * 32 bits share a register (element m of a register at bits m * width,
 * the first element lowest), wider ones take one each.  A thread whose
 * element count is not a multiple of pack repeats its last element to
 * fill the final group and keeps only the results of its own elements.
 *
 * Invariants: registers are C variables of the constraint's type (r:
 * unsigned, h: unsigned short, l: unsigned long long, f: float, d: double)
 * holding the elements' bits, so no value is converted on the way in or
 * out; the register count and each register's width are checked against
 * the constraints (a located error, never a mismatched operand); the
 * host backend refuses the op (its C++ compiler cannot run PTX). */
#include "mt.h"

#include <string.h>

/* One register of the asm statement: of results[value] (value < nres)
 * or of operand value - nres, holding its elements first .. first +
 * elems - 1 of the group (packed, the first lowest, below 32 bits). */
typedef struct AsmReg {
    char letter;   /* r h l f d */
    bool out;      /* a result's ("=r") */
    int value, first, elems;
    Type t;        /* the elements' type */
} AsmReg;

static const char *letter_ctype(char c) {
    switch (c) {
    case 'h': return "unsigned short";
    case 'r': return "unsigned";
    case 'l': return "unsigned long long";
    case 'f': return "float";
    default: return "double";
    }
}

static int elem_bits(Type t) { return t.is_ptr ? 64 : (int)dtype_info[t.dtype].bits; }

/* The unsigned C type of n bits. */
static const char *unsigned_of(int bits) {
    return bits <= 8 ? "unsigned char" : bits <= 16 ? "unsigned short"
           : bits <= 32 ? "unsigned" : "unsigned long long";
}

/* Element text v of type t as its bits, in an unsigned long long. */
static const char *to_bits(Emit *e, Type t, const char *v) {
    if (t.is_ptr)
        return ce_fmt(e, "(unsigned long long)(%s)", v);
    if (t.dtype == DT_F32)
        return ce_fmt(e, "(unsigned long long)__float_as_uint(%s)", v);
    if (t.dtype == DT_F64)
        return ce_fmt(e, "(unsigned long long)__double_as_longlong(%s)", v);
    return ce_fmt(e, "(unsigned long long)(%s)(%s)", unsigned_of(elem_bits(t)), v);
}

/* The element of type t whose bits are the low bits of b. */
static const char *from_bits(Emit *e, Type t, const char *b) {
    if (t.dtype == DT_F32)
        return ce_fmt(e, "__uint_as_float((unsigned)(%s))", b);
    if (t.dtype == DT_F64)
        return ce_fmt(e, "__longlong_as_double((long long)(%s))", b);
    return ce_fmt(e, "(%s)(%s)(%s)", ce_ctype(e, t), unsigned_of(elem_bits(t)), b);
}

/* The registers of the results, then of the operands, for one group of
 * `pack` elements (asm_registers of each), with their constraint letters;
 * -1 with a located error when the constraints do not match them. */
static int plan_registers(Emit *e, const Op *op, int pack, AsmReg *regs) {
    Func *f = e->f;
    char letters[MT_MAX_ASM_REGS];
    bool outs[MT_MAX_ASM_REGS];
    int ncons = asm_constraints(op->str[1], letters, outs, MT_MAX_ASM_REGS), n = 0;
    if (ncons < 0)
        return asm_constraint_error(e->c, op->loc, op->str[1]);
    for (int k = 0; k < op->nres + op->nargs; k++) {
        Type t = val_type(f, k < op->nres ? op->res[k] : op->args[k - op->nres]);
        int nr = asm_registers((DType)t.dtype, t.is_ptr, pack);
        for (int q = 0; q < nr; q++, n++)
            if (n < ncons)
                regs[n] = (AsmReg){letters[n], k < op->nres, k, q * (pack / nr), pack / nr,
                                   type_elem(t)};
    }
    if (n != ncons)
        return diag_error(e->c, op->loc, MT_ERR_TYPE,
                          "inline_asm_elementwise() has %d constraints for %d registers", ncons,
                          n);
    for (int i = 0; i < n; i++) {
        int w = regs[i].elems * elem_bits(regs[i].t), lw = asm_letter_bits(regs[i].letter);
        if (outs[i] != regs[i].out || lw < w || (w >= 32 && lw != w))
            return diag_error(e->c, op->loc, MT_ERR_TYPE,
                              "inline_asm_elementwise() register %d (an %s) holds %d bits of %s; "
                              "constraint \"%s%c\" does not fit it", i,
                              regs[i].out ? "output" : "input", w,
                              dtype_name((DType)regs[i].t.dtype), outs[i] ? "=" : "",
                              regs[i].letter);
    }
    return n;
}

/* The PTX as a C string literal in CUDA's operand syntax: $N is %N, a
 * literal % is %%, $$ is $; every other byte kept. */
static const char *asm_literal(Emit *e, const char *s) {
    StrBuf sb;
    sb_init(&sb);
    sb_putc(&sb, '"');
    for (; *s; s++) {
        if (*s == '$' && s[1] >= '0' && s[1] <= '9') {
            sb_putc(&sb, '%');
        } else if (*s == '$' && s[1] == '$') {
            sb_putc(&sb, '$');
            s++;
        } else if (*s == '%') {
            sb_puts(&sb, "%%");
        } else if (*s == '"' || *s == '\\') {
            sb_putc(&sb, '\\');
            sb_putc(&sb, *s);
        } else if (*s == '\n') {
            sb_puts(&sb, "\\n");
        } else if (*s == '\t') {
            sb_puts(&sb, "\\t");
        } else if ((unsigned char)*s >= 32 && (unsigned char)*s < 127) {
            sb_putc(&sb, *s);
        } else { /* any other byte as it is (three octal digits end the escape) */
            sb_printf(&sb, "\\%03o", (unsigned char)*s);
        }
    }
    sb_putc(&sb, '"');
    const char *out = ce_fmt(e, "%s", sb_str(&sb));
    sb_free(&sb);
    return out;
}

/* The asm statement for the group at mt_g: the operands' elements in
 * mt_a<i>[pack], the results' into mt_r<k>[pack]; register q is mt_q<q>. */
static void emit_statement(Emit *e, const Op *op, const AsmReg *regs, int n) {
    StrBuf outs, ins;
    sb_init(&outs);
    sb_init(&ins);
    for (int q = 0; q < n; q++) {
        const AsmReg *g = &regs[q];
        const char *ct = letter_ctype(g->letter);
        if (g->out) {
            ce_line(e, "%s mt_q%d;", ct, q);
            sb_printf(&outs, "%s\"=%c\"(mt_q%d)", q ? ", " : "", g->letter, q);
            continue;
        }
        StrBuf v;
        sb_init(&v);
        for (int m = 0; m < g->elems; m++)
            sb_printf(&v, "%s(%s << %d)", m ? " | " : "",
                      to_bits(e, g->t, ce_fmt(e, "mt_a%d[%d]", g->value - op->nres, g->first + m)),
                      m * elem_bits(g->t));
        const char *b = sb_str(&v);
        const char *reg = g->letter == 'f' ? ce_fmt(e, "__uint_as_float((unsigned)(%s))", b)
                          : g->letter == 'd'
                              ? ce_fmt(e, "__longlong_as_double((long long)(%s))", b)
                              : ce_fmt(e, "(%s)(%s)", ct, b);
        ce_line(e, "const %s mt_q%d = %s;", ct, q, reg);
        sb_printf(&ins, "%s\"%c\"(mt_q%d)", sb_str(&ins)[0] ? ", " : "", g->letter, q);
        sb_free(&v);
    }
    bool pure = op->attr[1] != 0;
    ce_line(e, "asm%s(%s\n        : %s\n        : %s%s);", pure ? "" : " volatile",
            asm_literal(e, op->str[0]), sb_str(&outs), sb_str(&ins), pure ? "" : " : \"memory\"");
    for (int q = 0; q < n && regs[q].out; q++) {
        const AsmReg *g = &regs[q];
        const char *b = g->letter == 'f'
                            ? ce_fmt(e, "(unsigned long long)__float_as_uint(mt_q%d)", q)
                        : g->letter == 'd'
                            ? ce_fmt(e, "(unsigned long long)__double_as_longlong(mt_q%d)", q)
                            : ce_fmt(e, "(unsigned long long)mt_q%d", q);
        for (int m = 0; m < g->elems; m++)
            ce_line(e, "mt_r%d[%d] = %s;", g->value, g->first + m,
                    from_bits(e, g->t, m ? ce_fmt(e, "%s >> %d", b, m * elem_bits(g->t)) : b));
    }
    sb_free(&outs);
    sb_free(&ins);
}

int ce_emit_asm(Emit *e, Op *op) {
    Func *f = e->f;
    if (f->host)
        return asm_only_on_gpu(e->c, op->loc, "host (fiber)");
    int pack = (int)op->attr[0];
    AsmReg regs[MT_MAX_ASM_REGS];
    int nregs = plan_registers(e, op, pack, regs);
    if (nregs < 0)
        return -1;
    Type rt = val_type(f, op->res[0]);
    bool block = rt.rank > 0;
    Dist r;
    if (block)
        r = ce_dist_of(e, op->res[0]);
    int nE = block ? r.nE : 1;
    for (int k = 0; k < op->nres; k++) {
        ValId res = op->res[k];
        const char *ct = ce_ctype(e, type_elem(val_type(f, res)));
        e->name[res] = ce_fmt(e, "v%d", res);
        if (block)
            ce_line(e, "%s v%d[%d];", ct, res, nE);
        else
            ce_line(e, "%s v%d;", ct, res);
    }
    ce_unroll(e);
    ce_line(e, "for (int mt_g = 0; mt_g < %d; mt_g += %d) {", nE, pack);
    e->indent++;
    for (int i = 0; i < op->nargs; i++) {
        ValId x = op->args[i];
        ce_line(e, "%s mt_a%d[%d];", ce_ctype(e, type_elem(val_type(f, x))), i, pack);
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j) {", pack);
        /* a group past the thread's elements repeats its last one */
        ce_line(e, "    const int %s = mt_g + mt_j < %d ? mt_g + mt_j : %d;", CE_SLOT, nE, nE - 1);
        ce_line(e, "    mt_a%d[mt_j] = %s;", i, block ? ce_elem(e, x, &r, op->loc)
                                                   : ce_elem(e, x, NULL, op->loc));
        ce_line(e, "}");
    }
    for (int k = 0; k < op->nres; k++)
        ce_line(e, "%s mt_r%d[%d];", ce_ctype(e, type_elem(val_type(f, op->res[k]))), k, pack);
    emit_statement(e, op, regs, nregs);
    for (int k = 0; k < op->nres; k++) {
        ce_unroll(e);
        ce_line(e, "for (int mt_j = 0; mt_j < %d; ++mt_j)", pack);
        if (block)
            ce_line(e, "    if (mt_g + mt_j < %d) v%d[mt_g + mt_j] = mt_r%d[mt_j];", nE,
                    op->res[k], k);
        else
            ce_line(e, "    if (mt_j == 0) v%d = mt_r%d[0];", op->res[k], k);
    }
    e->indent--;
    ce_line(e, "}");
    for (int k = 0; k < op->nres && block; k++) {
        e->dist[op->res[k]] = r;
        e->has_dist[op->res[k]] = true;
    }
    return HAS_ERROR(e->c) ? -1 : 0;
}
