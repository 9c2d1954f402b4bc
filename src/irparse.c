/* irparse.c: the textual IR reader, the inverse of ir_print_func.
 *
 * Input: a Ctx whose src is an .ir file (docs/ir.md): one function header
 *
 *     func @name(x: ptr<f32>:16, n: i32) attributes {num_warps=4} {
 *
 * then the body in the syntax irprint.c writes, then "}".  "//" starts a
 * comment that runs to the end of the line.  Output: a Func that has
 * passed ir_verify, or NULL with one located error (file:line:col) in the
 * Ctx.  For every function f, print(parse(print(f))) == print(f).
 *
 * Invariants:
 *   - the input may be any bytes (it is fuzzed): every read is bounded by
 *     srclen, NUL is an ordinary bad character, loop nesting and numbers
 *     are range-checked, and the first error stops the reader;
 *   - names resolve as the verifier scopes them: a value is usable after
 *     its definition in its region and in the regions nested in it, loop
 *     results only after the loop, and a name is defined once per function
 *     (the printer numbers values function-wide);
 *   - what the printer leaves implicit comes back from context: an integer
 *     literal is i32 when it fits, i64 when the op's printed result type
 *     needs it (`add %x, 1 : i64` over two literals), and a carried init or
 *     yield takes the carried type;
 *   - attributes are read by key (one row per key in attr_keys) and then
 *     the op must print back exactly what was read, so which op takes which
 *     attributes is said once, by the printer.
 * Errors are MT_ERR_SYNTAX (text), MT_ERR_NAME (unknown op or value,
 * redefinition) and whatever ir_verify reports at the op's location.
 * This file reads ops, regions and the function header; irread.c the
 * layer below them (text, names, types, operands, attributes). */
#include "mt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper loop nests than any kernel writes; bounds the recursion. */
#define MAX_LOOP_DEPTH 256

/* ---------------------------------------------------------------- ops */

static int parse_region(IrReader *r, Region *body, int depth, bool in_loop);

/* A "%name" on the left of '=' (results, carried arguments). */
typedef struct DefName {
    const char *s;
    int len;
    Loc loc;
} DefName;

typedef struct DefNames {
    DefName *v;
    int n, cap;
} DefNames;

/* "%a, %b =" before an op, or nothing. */
static int result_names(IrReader *r, DefNames *rn) {
    memset(rn, 0, sizeof *rn);
    rd_skip_space(r);
    if (rd_peek(r) != '%')
        return 0;
    do {
        DefName d;
        if (rd_def_name(r, &d.s, &d.len, &d.loc) < 0)
            return -1;
        VEC_PUSH(r->f->arena, rn->v, rn->n, rn->cap, d);
    } while (rd_accept(r, ','));
    return rd_expect(r, '=');
}

/* Loop operands (bounds, inits, yields) are values, never none. */
static int not_none(IrReader *r, const IrOperand *o) {
    if (!o->id && !o->is_int)
        return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "'none' is not a value here");
    return 0;
}

static int loop_operand(IrReader *r, IrOperand *o) {
    return rd_operand(r, o) < 0 ? -1 : not_none(r, o);
}

/* "<term> v, ..." then "}", closing a region that gives n values of the
 * given types into out (term: "yield", or a while's "condition"). */
static int parse_terminator(IrReader *r, const char *term, ValId *out, const Type *types,
                            int n) {
    Loc loc = rd_here(r);
    IrOperand *ys;
    int ny;
    if (rd_expect_word(r, term) < 0 || rd_operand_list(r, &ys, &ny) < 0)
        return -1;
    if (ny != n)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "%s gives %d values, the op expects %d", term,
                    ny, n);
    for (int k = 0; k < n; k++) {
        if (not_none(r, &ys[k]) < 0)
            return -1;
        out[k] = rd_typed_const(r, &ys[k], types[k]);
    }
    if (rd_expect_eol(r) < 0)
        return -1;
    rd_skip_blank_lines(r);
    if (rd_expect(r, '}') < 0)
        return -1;
    /* "} else {" and "} do {" continue the op on the same line */
    rd_skip_space(r);
    if (rd_peek_word(r, "else") || rd_peek_word(r, "do"))
        return 0;
    return rd_expect_eol(r);
}

/* The carried values of a for or while: "(%x = v, ...) : T, ..." when
 * present (for writes "iter_args" before it), their inits typed. */
typedef struct Carries {
    DefNames args;
    ValId *inits;
    Type *types;
    int n;
} Carries;

static int parse_carries(IrReader *r, bool present, const DefNames *rn, const char *what,
                         Loc loc, Carries *cs) {
    memset(cs, 0, sizeof *cs);
    IrOperand *inits = NULL;
    int ninit = 0, capinit = 0, ntypes = 0, captypes = 0;
    if (present) {
        if (rd_expect(r, '(') < 0)
            return -1;
        do {
            DefName d;
            IrOperand o;
            if (rd_def_name(r, &d.s, &d.len, &d.loc) < 0 || rd_expect(r, '=') < 0 ||
                loop_operand(r, &o) < 0)
                return -1;
            VEC_PUSH(r->f->arena, cs->args.v, cs->args.n, cs->args.cap, d);
            VEC_PUSH(r->f->arena, inits, ninit, capinit, o);
        } while (rd_accept(r, ','));
        if (rd_expect(r, ')') < 0 || rd_expect(r, ':') < 0)
            return -1;
        do {
            Type t;
            if (rd_parse_type(r, &t) < 0)
                return -1;
            VEC_PUSH(r->f->arena, cs->types, ntypes, captypes, t);
        } while (rd_accept(r, ','));
    }
    if (ntypes != ninit)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "%d carried values but %d types", ninit, ntypes);
    if (rn->n != ninit)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' has %d results but carries %d values", what,
                    rn->n, ninit);
    cs->n = ninit;
    cs->inits = arena_alloc(r->f->arena, sizeof(ValId) * (size_t)(ninit + 1));
    for (int k = 0; k < ninit; k++)
        cs->inits[k] = rd_typed_const(r, &inits[k], cs->types[k]);
    return 0;
}

/* The printed carried types are the truth (the verifier compares the
 * inits with them); the carried names are defined in the loop's scope. */
static int define_carries(IrReader *r, Op *op, const Carries *cs) {
    for (int k = 0; k < cs->n; k++) {
        val(r->f, op->iters[k])->type = val(r->f, op->res[k])->type = cs->types[k];
        if (rd_name_define(r, cs->args.v[k].s, cs->args.v[k].len, cs->args.v[k].loc,
                        op->iters[k]) < 0)
            return -1;
    }
    return 0;
}

static int define_results(IrReader *r, Op *op, const DefNames *rn) {
    for (int k = 0; k < op->nres; k++)
        if (rd_name_define(r, rn->v[k].s, rn->v[k].len, rn->v[k].loc, op->res[k]) < 0)
            return -1;
    return 0;
}

/* for %i [: i64] in range(a, b, c[, num_stages=N]) [iter_args(%x = v, ...) : T, ...]
 * { body } */
static int parse_for(IrReader *r, Region *region, const DefNames *rn, Loc loc,
                     int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "loops nested deeper than %d",
                    MAX_LOOP_DEPTH);
    const char *is;
    int ilen;
    Loc iloc;
    IrOperand b[3];
    Type itype = type_scalar(DT_I32);
    if (rd_def_name(r, &is, &ilen, &iloc) < 0 || (rd_accept(r, ':') && rd_parse_type(r, &itype) < 0) ||
        rd_expect_word(r, "in") < 0 || rd_expect_word(r, "range") < 0 || rd_expect(r, '(') < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if ((i && rd_expect(r, ',') < 0) || loop_operand(r, &b[i]) < 0)
            return -1;
    int64_t stages = 0;
    if (rd_accept(r, ',') && (rd_expect_word(r, "num_stages") < 0 || rd_expect(r, '=') < 0 ||
                              rd_integer(r, &stages) < 0))
        return -1;
    if (rd_expect(r, ')') < 0)
        return -1;
    Carries cs;
    if (parse_carries(r, rd_accept_word(r, "iter_args"), rn, "for", loc, &cs) < 0 ||
        rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        return -1;
    ValId bound[3];
    for (int i = 0; i < 3; i++)
        bound[i] = rd_typed_const(r, &b[i], itype);
    Op *op = op_new_for(r->f, region, loc, bound[0], bound[1], bound[2], cs.inits, cs.n);
    op->attr[0] = stages;
    val(r->f, op->index)->type = itype;
    int mark = r->nnames;
    if (rd_name_define(r, is, ilen, iloc, op->index) < 0 || define_carries(r, op, &cs) < 0 ||
        parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, cs.types, cs.n) < 0)
        return -1;
    rd_close_scope(r, mark);
    return define_results(r, op, rn);
}

/* %r, ... = if %c [-> (T, ...)] { ...; yield ... } else { ...; yield ... } */
static int parse_if(IrReader *r, Region *region, const DefNames *rn, Loc loc, int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    IrOperand c;
    Type *types = NULL;
    int ntypes = 0, captypes = 0;
    if (loop_operand(r, &c) < 0)
        return -1;
    if (rd_accept(r, '-')) {
        if (rd_expect(r, '>') < 0 || rd_expect(r, '(') < 0)
            return -1;
        do {
            Type t;
            if (rd_parse_type(r, &t) < 0)
                return -1;
            VEC_PUSH(r->f->arena, types, ntypes, captypes, t);
        } while (rd_accept(r, ','));
        if (rd_expect(r, ')') < 0)
            return -1;
    }
    if (rn->n != ntypes)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'if' has %d results but %d types", rn->n, ntypes);
    if (rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        return -1;
    Op *op = op_new_if(r->f, region, loc, rd_typed_const(r, &c, type_scalar(DT_I1)), types,
                       ntypes);
    int mark = r->nnames;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, types, ntypes) < 0)
        return -1;
    rd_close_scope(r, mark);
    if (rd_expect_word(r, "else") < 0 || rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        return -1;
    /* "} else {" shares a line: parse_terminator consumed "}" and the eol */
    if (parse_region(r, op->alt, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->alt_yields, types, ntypes) < 0)
        return -1;
    rd_close_scope(r, mark);
    return define_results(r, op, rn);
}

/* %r, ... = while [(%x = v, ...) : T, ...] { ...; condition %c } do {
 * ...; yield ... } */
static int parse_while(IrReader *r, Region *region, const DefNames *rn, Loc loc, int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    Carries cs;
    rd_skip_space(r);
    if (parse_carries(r, rd_peek(r) == '(', rn, "while", loc, &cs) < 0 ||
        rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        return -1;
    Op *op = op_new_while(r->f, region, loc, cs.inits, cs.n);
    int mark = r->nnames;
    Type i1 = type_scalar(DT_I1);
    if (define_carries(r, op, &cs) < 0 || parse_region(r, op->alt, depth + 1, true) < 0 ||
        parse_terminator(r, "condition", op->alt_yields, &i1, 1) < 0)
        return -1;
    int inner = r->nnames;
    if (rd_expect_word(r, "do") < 0 || rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        return -1;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, cs.types, cs.n) < 0)
        return -1;
    rd_close_scope(r, inner);
    rd_close_scope(r, mark);
    return define_results(r, op, rn);
}

/* tlscan.c's reduce and scan: "%r, ... = reduce %x, ... {axis=0}
 * combine(%a, ..., %b, ...) : T, ... {" body "yield %y, ..." "}" */
static int parse_combine(IrReader *r, Region *region, const DefNames *rn, OpCode code,
                         Loc loc, int depth) {
    const char *name = op_info[code].name;
    if (depth >= MAX_LOOP_DEPTH)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    IrOperand *ops;
    int n;
    int64_t attr[2] = {0, 0};
    StrBuf canon;
    sb_init(&canon);
    DefNames params;
    memset(&params, 0, sizeof params);
    Type types[MT_MAX_COMBINE], elems[MT_MAX_COMBINE];
    int ntypes = 0, rc = -1;
    const char *str[2] = {NULL, NULL};
    if (rd_operand_list(r, &ops, &n) < 0 || rd_attr_dict(r, attr, str, &canon) < 0)
        goto done;
    if (n < 1 || n > MT_MAX_COMBINE || rn->n != n) {
        rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' takes 1 to %d operands and defines one result "
             "per operand, got %d and %d", name, MT_MAX_COMBINE, n, rn->n);
        goto done;
    }
    if (rd_expect_word(r, "combine") < 0 || rd_expect(r, '(') < 0)
        goto done;
    do {
        DefName d;
        if (rd_def_name(r, &d.s, &d.len, &d.loc) < 0)
            goto done;
        VEC_PUSH(r->f->arena, params.v, params.n, params.cap, d);
    } while (rd_accept(r, ','));
    if (rd_expect(r, ')') < 0 || rd_expect(r, ':') < 0)
        goto done;
    do {
        if (ntypes == n) {
            rd_rerr(r, rd_here(r), MT_ERR_SYNTAX, "'%s' has %d results", name, n);
            goto done;
        }
        if (rd_parse_type(r, &types[ntypes]) < 0)
            goto done;
        ntypes++;
    } while (rd_accept(r, ','));
    if (params.n != 2 * n || ntypes != n) {
        rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' of %d operands has %d combine parameters and "
             "%d result types, expected %d and %d", name, n, params.n, ntypes, 2 * n, n);
        goto done;
    }
    if (rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        goto done;
    ValId args[MT_MAX_COMBINE];
    for (int k = 0; k < n; k++) {
        if (not_none(r, &ops[k]) < 0)
            goto done;
        args[k] = rd_default_const(r, &ops[k]);
        elems[k] = type_elem(val_type(r->f, args[k]));
    }
    Op *op = op_new_combine(r->f, region, code, loc, args, n, attr[0], attr[1]);
    for (int k = 0; k < n; k++) /* the printed types are the truth */
        val(r->f, op->res[k])->type = types[k];
    if (rd_check_attrs(r, op, &canon) < 0)
        goto done;
    int mark = r->nnames;
    for (int k = 0; k < 2 * n; k++)
        if (rd_name_define(r, params.v[k].s, params.v[k].len, params.v[k].loc, op->iters[k]) < 0)
            goto done;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, elems, n) < 0)
        goto done;
    rd_close_scope(r, mark);
    for (int k = 0; k < n; k++)
        if (rd_name_define(r, rn->v[k].s, rn->v[k].len, rn->v[k].loc, op->res[k]) < 0)
            goto done;
    rc = 0;
done:
    sb_free(&canon);
    return rc;
}

/* %r, ... = map_elementwise operands args(%p, ...) : T, ... { body; yield ... }
 * (one parameter per operand, one type per result) */
static int parse_map(IrReader *r, Region *region, const DefNames *rn, Loc loc, int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    IrOperand *ops;
    int n, ntypes = 0;
    Type types[MT_MAX_MAP], elems[MT_MAX_MAP];
    DefNames params;
    memset(&params, 0, sizeof params);
    if (rd_operand_list(r, &ops, &n) < 0)
        return -1;
    if (n < 1 || n > MT_MAX_MAP || rn->n < 1 || rn->n > MT_MAX_MAP)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'map_elementwise' takes 1 to %d operands and "
                       "results, got %d and %d", MT_MAX_MAP, n, rn->n);
    if (rd_expect_word(r, "args") < 0 || rd_expect(r, '(') < 0)
        return -1;
    do {
        DefName d;
        if (rd_def_name(r, &d.s, &d.len, &d.loc) < 0)
            return -1;
        VEC_PUSH(r->f->arena, params.v, params.n, params.cap, d);
    } while (rd_accept(r, ','));
    if (rd_expect(r, ')') < 0 || rd_expect(r, ':') < 0)
        return -1;
    do {
        if (ntypes == rn->n)
            return rd_rerr(r, rd_here(r), MT_ERR_SYNTAX, "'map_elementwise' has %d results",
                           rn->n);
        if (rd_parse_type(r, &types[ntypes]) < 0)
            return -1;
        elems[ntypes] = type_elem(types[ntypes]);
        ntypes++;
    } while (rd_accept(r, ','));
    if (params.n != n || ntypes != rn->n)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'map_elementwise' of %d operands has %d "
                       "parameters and %d result types, expected %d and %d", n, params.n,
                       ntypes, n, rn->n);
    if (rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0)
        return -1;
    ValId args[MT_MAX_MAP];
    for (int k = 0; k < n; k++) {
        if (not_none(r, &ops[k]) < 0)
            return -1;
        args[k] = rd_default_const(r, &ops[k]);
    }
    Op *op = op_new_map(r->f, region, loc, args, n);
    op_map_results(r->f, op, elems, ntypes);
    for (int k = 0; k < ntypes; k++) /* the printed types are the truth */
        val(r->f, op->res[k])->type = types[k];
    int mark = r->nnames;
    for (int k = 0; k < n; k++)
        if (rd_name_define(r, params.v[k].s, params.v[k].len, params.v[k].loc, op->iters[k]) < 0)
            return -1;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, elems, ntypes) < 0)
        return -1;
    rd_close_scope(r, mark);
    for (int k = 0; k < ntypes; k++)
        if (rd_name_define(r, rn->v[k].s, rn->v[k].len, rn->v[k].loc, op->res[k]) < 0)
            return -1;
    return 0;
}

/* %r, ... = inline_asm operands {attrs} : T, ...   (one type per result) */
static int parse_asm(IrReader *r, Region *region, const DefNames *rn, OpCode code, Loc loc) {
    IrOperand *ops;
    int n, ntypes = 0, rc = -1;
    int64_t attr[2] = {0, 0};
    const char *str[2] = {NULL, NULL};
    Type types[MT_MAX_ASM_RESULTS];
    StrBuf canon;
    sb_init(&canon);
    if (rd_operand_list(r, &ops, &n) < 0 || rd_attr_dict(r, attr, str, &canon) < 0 ||
        rd_expect(r, ':') < 0)
        goto done;
    do {
        if (ntypes == MT_MAX_ASM_RESULTS) {
            rd_rerr(r, rd_here(r), MT_ERR_SYNTAX, "'%s' has at most %d results",
                    op_info[code].name, MT_MAX_ASM_RESULTS);
            goto done;
        }
        if (rd_parse_type(r, &types[ntypes]) < 0)
            goto done;
        ntypes++;
    } while (rd_accept(r, ','));
    if (rd_expect_eol(r) < 0)
        goto done;
    if (rn->n != ntypes) {
        rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' defines %d results and has %d result types",
                op_info[code].name, rn->n, ntypes);
        goto done;
    }
    ValId *args = arena_alloc(r->f->arena, sizeof(ValId) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        if (not_none(r, &ops[i]) < 0)
            goto done;
        args[i] = rd_default_const(r, &ops[i]);
    }
    Op *op = op_new_results(r->f, region, code, loc, args, n, types, ntypes);
    op->attr[0] = attr[0];
    op->attr[1] = attr[1];
    op->str[0] = str[0];
    op->str[1] = str[1];
    if (rd_check_attrs(r, op, &canon) < 0 || define_results(r, op, rn) < 0)
        goto done;
    rc = 0;
done:
    sb_free(&canon);
    return rc;
}

static int op_code(IrReader *r, const char *s, int len, Loc loc, OpCode *out) {
    for (int c = 0; c < OP_COUNT; c++)
        if (!(op_info[c].flags & F_REGION) && rd_is_word(s, len, op_info[c].name)) {
            *out = (OpCode)c;
            return 0;
        }
    return rd_rerr(r, loc, MT_ERR_NAME, "unknown op '%.*s'", len, s);
}

/* %r = name operands [{attrs}] : type      (store: no result, no type) */
static int parse_op(IrReader *r, Region *region, int depth) {
    DefNames rn;
    if (result_names(r, &rn) < 0)
        return -1;
    Loc loc;
    int len;
    const char *s = rd_need_ident(r, "an op name", &len, &loc);
    if (!s)
        return -1;
    if (rd_is_word(s, len, "for"))
        return parse_for(r, region, &rn, loc, depth);
    if (rd_is_word(s, len, "if"))
        return parse_if(r, region, &rn, loc, depth);
    if (rd_is_word(s, len, "while"))
        return parse_while(r, region, &rn, loc, depth);
    OpCode code = OP_COUNT;
    if (rd_is_word(s, len, "yield"))
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'yield' outside a loop body");
    if (op_code(r, s, len, loc, &code) < 0)
        return -1;
    if (code < OP_COUNT && op_info[code].rule == R_COMBINE)
        return parse_combine(r, region, &rn, code, loc, depth);
    if (code < OP_COUNT && op_info[code].rule == R_ASM)
        return parse_asm(r, region, &rn, code, loc);
    if (code == OP_MAP)
        return parse_map(r, region, &rn, loc, depth);
    const OpInfo *oi = &op_info[code];
    bool has_result = op_has_result(code);
    if (!has_result && rn.n)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' has no result", oi->name);
    if (has_result && rn.n != 1)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' defines one result, got %d",
                    oi->name, rn.n);
    IrOperand *ops;
    int n;
    int64_t attr[2] = {0, 0};
    const char *str[2] = {NULL, NULL};
    StrBuf canon;
    sb_init(&canon);
    if (rd_operand_list(r, &ops, &n) < 0 || rd_attr_dict(r, attr, str, &canon) < 0) {
        sb_free(&canon);
        return -1;
    }
    Type rt = type_scalar(DT_VOID);
    int rc = 0;
    if (has_result && (rd_expect(r, ':') < 0 || rd_parse_type(r, &rt) < 0))
        rc = -1;
    else if (rd_expect_eol(r) < 0)
        rc = -1;
    else if (oi->nargs >= 0 && n != oi->nargs)
        rc = rd_rerr(r, loc, MT_ERR_SYNTAX, "'%s' takes %d operands, got %d", oi->name,
                  oi->nargs, n);
    if (rc == 0) {
        /* a variable count (print): its own operands, literals as printed */
        ValId fixed[3], *args = fixed;
        if (oi->nargs < 0) {
            args = arena_alloc(r->f->arena, sizeof(ValId) * (size_t)(n ? n : 1));
            for (int i = 0; i < n; i++)
                args[i] = rd_default_const(r, &ops[i]);
        } else {
            rd_resolve_literals(r, code, ops, n, args, has_result, rt);
        }
        Op *op = op_new(r->f, region, code, loc, rt, args, n);
        op->attr[0] = attr[0];
        op->attr[1] = attr[1];
        op->str[0] = str[0];
        op->str[1] = str[1];
        rc = rd_check_attrs(r, op, &canon);
        if (rc == 0 && has_result)
            rc = rd_name_define(r, rn.v[0].s, rn.v[0].len, rn.v[0].loc, op->res[0]);
    }
    sb_free(&canon);
    return rc;
}

/* Ops up to the closing '}' (function body) or the terminator ("yield",
 * or "condition" ending a while's condition region), which the caller
 * reads. */
static int parse_region(IrReader *r, Region *body, int depth, bool in_loop) {
    for (;;) {
        rd_skip_blank_lines(r);
        int ch = rd_peek(r);
        if (ch == -1)
            return rd_expected(r, in_loop ? "'yield'" : "'}'");
        if (ch == '}') {
            if (in_loop)
                return rd_expected(r, "'yield' before the region's '}'");
            return 0;
        }
        if (in_loop && (rd_peek_word(r, "yield") || rd_peek_word(r, "condition")))
            return 0;
        if (parse_op(r, body, depth) < 0)
            return -1;
    }
}

/* ---------------------------------------------------------------- header */

static bool reserved_name(const char *s, int len) {
    static const char *const words[] = {"none", "True", "False", "inf", "nan"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (rd_is_word(s, len, words[i]))
            return true;
    return false;
}

/* name: type[:hint] */
static int parse_param(IrReader *r) {
    Loc loc;
    int len;
    const char *s = rd_need_ident(r, "a parameter name", &len, &loc);
    if (!s)
        return -1;
    if (reserved_name(s, len))
        return rd_rerr(r, loc, MT_ERR_SYNTAX,
                    "parameter name '%.*s' reads as a constant", len, s);
    for (int i = 0; i < r->f->nparams; i++)
        if (rd_is_word(s, len, val(r->f, r->f->params[i])->name))
            return rd_rerr(r, loc, MT_ERR_NAME, "duplicate parameter '%.*s'", len, s);
    Type t;
    if (rd_expect(r, ':') < 0)
        return -1;
    rd_skip_space(r);
    Loc tloc = rd_here(r);
    if (rd_parse_type(r, &t) < 0)
        return -1;
    if (t.rank)
        return rd_rerr(r, tloc, MT_ERR_SYNTAX,
                    "a parameter is a scalar or a pointer, not a block");
    char *name = arena_strndup(r->f->arena, s, (size_t)len);
    ValId v = func_add_param(r->f, name, t);
    if (rd_accept(r, ':')) {
        rd_skip_space(r);
        Loc hloc = rd_here(r);
        int64_t h;
        if (rd_integer(r, &h) < 0)
            return -1;
        /* sig.c's rule: the emitter trusts the hint for alignment */
        if (h < 1 || h > (1 << 30) || (h & (h - 1)))
            return rd_rerr(r, hloc, MT_ERR_SYNTAX,
                        "divisibility hint must be a power of two up to 2^30");
        val(r->f, v)->divisibility = (int32_t)h;
    }
    return 0;
}

/* attributes {num_warps=N[, num_stages=S]} */
static int func_attrs(IrReader *r) {
    if (!rd_accept_word(r, "attributes"))
        return 0;
    if (rd_expect(r, '{') < 0)
        return -1;
    for (int n = 0; !rd_accept(r, '}'); n++) {
        if (n && rd_expect(r, ',') < 0)
            return -1;
        Loc loc;
        int len;
        const char *s = rd_need_ident(r, "'num_warps'", &len, &loc);
        if (!s)
            return -1;
        bool stages = rd_is_word(s, len, "num_stages");
        if (!stages && !rd_is_word(s, len, "num_warps"))
            return rd_rerr(r, loc, MT_ERR_SYNTAX, "unknown function attribute '%.*s'",
                        len, s);
        int64_t w;
        if (rd_expect(r, '=') < 0)
            return -1;
        rd_skip_space(r);
        loc = rd_here(r);
        if (rd_integer(r, &w) < 0)
            return -1;
        if (stages) {
            if (w < 1 || w > MT_MAX_STAGES)
                return rd_rerr(r, loc, MT_ERR_SYNTAX, "num_stages must be from 1 to %d",
                            MT_MAX_STAGES);
            r->f->num_stages = (int)w;
            continue;
        }
        if (w < 1 || w > 32 || (w & (w - 1)))
            return rd_rerr(r, loc, MT_ERR_SYNTAX,
                        "num_warps must be a power of two from 1 to 32");
        r->f->num_warps = (int)w;
    }
    return 0;
}

static Func *parse_func(IrReader *r) {
    rd_skip_blank_lines(r);
    if (rd_expect_word(r, "func") < 0 || rd_expect(r, '@') < 0)
        return NULL;
    int len;
    Loc loc;
    const char *s = rd_need_ident(r, "the function name", &len, &loc);
    if (!s)
        return NULL;
    char *name = arena_strndup(r->c->arena, s, (size_t)len);
    r->f = func_new(r->c, name);
    if (rd_expect(r, '(') < 0)
        return NULL;
    for (int n = 0; !rd_accept(r, ')'); n++)
        if ((n && rd_expect(r, ',') < 0) || parse_param(r) < 0)
            return NULL;
    if (func_attrs(r) < 0 || rd_expect(r, '{') < 0 || rd_expect_eol(r) < 0 ||
        parse_region(r, &r->f->body, 0, false) < 0 || rd_expect(r, '}') < 0)
        return NULL;
    if (!rd_at_eol(r)) {
        rd_expected(r, "end of line");
        return NULL;
    }
    rd_skip_blank_lines(r);
    if (rd_peek(r) != -1) {
        rd_rerr(r, rd_here(r), MT_ERR_SYNTAX, "unexpected text after the function");
        return NULL;
    }
    return r->f;
}

Func *ir_parse(Ctx *c) {
    IrReader r;
    memset(&r, 0, sizeof r);
    r.c = c;
    r.p = r.line_start = c->src ? c->src : "";
    r.end = r.p + (c->src ? c->srclen : 0);
    r.line = 1;
    Func *f = parse_func(&r);
    if (!f || HAS_ERROR(c) || ir_verify(f) < 0)
        return NULL;
    return f;
}
