/* irread.c: the lower layer of the textual IR reader (irparse.c): the
 * text (spaces, comments, words, integers, located errors), the value
 * names with their scopes, types, operands with their literals, and
 * attribute dictionaries.
 *
 * Input: a IrReader over bytes that may be anything (the reader is fuzzed):
 * every read is bounded by `end`, NUL is an ordinary bad character,
 * numbers and shapes are range-checked.  Output: the pieces irparse.c
 * puts together into ops; each function either consumes what it read or
 * reports one located error (rd_rerr), and the first error stops the
 * reader.  Names resolve as the verifier scopes them: defined once per
 * function, visible after their definition until their loop body closes
 * (rd_close_scope). */
#include "mt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The elaborator's limit on a block's elements (elab.c MAX_BLOCK_NUMEL). */
#define MAX_NUMEL (1 << 24)
#define MAX_NUMBER_TEXT 64

/* ---------------------------------------------------------------- text */

Loc rd_here(const IrReader *r) {
    return (Loc){r->line, (int32_t)(r->p - r->line_start) + 1};
}

int rd_peek(const IrReader *r) {
    return r->p < r->end ? (unsigned char)*r->p : -1;
}

static int peek_at(const IrReader *r, int k) {
    return r->end - r->p > k ? (unsigned char)r->p[k] : -1;
}

static bool is_ident_start(int ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }

static bool is_ident_char(int ch) { return is_ident_start(ch) || is_digit(ch); }

/* Skips blanks and a comment, never the newline. */
void rd_skip_space(IrReader *r) {
    for (;;) {
        int ch = rd_peek(r);
        if (ch == ' ' || ch == '\t' || ch == '\r') {
            r->p++;
        } else if (ch == '/' && peek_at(r, 1) == '/') {
            while (r->p < r->end && *r->p != '\n')
                r->p++;
        } else {
            return;
        }
    }
}

bool rd_at_eol(IrReader *r) {
    rd_skip_space(r);
    return rd_peek(r) == -1 || rd_peek(r) == '\n';
}

static void newline(IrReader *r) {
    if (rd_peek(r) == '\n') {
        r->p++;
        r->line++;
        r->line_start = r->p;
    }
}

void rd_skip_blank_lines(IrReader *r) {
    while (rd_at_eol(r) && rd_peek(r) == '\n')
        newline(r);
}

/* What the cursor is at, quoted, for "expected X, got Y" messages. */
static void describe_here(IrReader *r, char out[48]) {
    rd_skip_space(r);
    int ch = rd_peek(r);
    if (ch == -1) {
        snprintf(out, 48, "end of file");
    } else if (ch == '\n') {
        snprintf(out, 48, "end of line");
    } else if (is_ident_char(ch) || ch == '%') {
        int n = 1;
        while (n < 24 && is_ident_char(peek_at(r, n)))
            n++;
        snprintf(out, 48, "'%.*s'", n, r->p);
    } else if (ch >= 0x20 && ch < 0x7f) {
        snprintf(out, 48, "'%c'", ch);
    } else {
        snprintf(out, 48, "byte 0x%02x", (unsigned)ch);
    }
}

MT_PRINTF(4, 5)
int rd_rerr(IrReader *r, Loc loc, mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(r->c, loc, st, fmt, ap);
    va_end(ap);
    return -1;
}

int rd_expected(IrReader *r, const char *what) {
    char got[48];
    describe_here(r, got);
    return rd_rerr(r, rd_here(r), MT_ERR_SYNTAX, "expected %s, got %s", what, got);
}

bool rd_accept(IrReader *r, char ch) {
    rd_skip_space(r);
    if (rd_peek(r) != (unsigned char)ch)
        return false;
    r->p++;
    return true;
}

int rd_expect(IrReader *r, char ch) {
    if (rd_accept(r, ch))
        return 0;
    char what[8];
    snprintf(what, sizeof what, "'%c'", ch);
    return rd_expected(r, what);
}

int rd_expect_eol(IrReader *r) {
    if (!rd_at_eol(r))
        return rd_expected(r, "end of line");
    newline(r);
    return 0;
}

/* An identifier; *len 0 when there is none (nothing consumed). */
static const char *ident(IrReader *r, int *len) {
    rd_skip_space(r);
    *len = 0;
    if (!is_ident_start(rd_peek(r)))
        return NULL;
    const char *s = r->p;
    while (is_ident_char(rd_peek(r)))
        r->p++;
    *len = (int)(r->p - s);
    return s;
}

/* An identifier where one is required: NULL, with "expected what"
 * reported, when there is none. */
const char *rd_need_ident(IrReader *r, const char *what, int *len, Loc *loc) {
    rd_skip_space(r);
    *loc = rd_here(r);
    const char *s = ident(r, len);
    if (!s)
        rd_expected(r, what);
    return s;
}

bool rd_is_word(const char *s, int len, const char *w) {
    return (int)strlen(w) == len && !memcmp(s, w, (size_t)len);
}

bool rd_accept_word(IrReader *r, const char *w) {
    rd_skip_space(r);
    const char *save = r->p;
    int len;
    const char *s = ident(r, &len);
    if (s && rd_is_word(s, len, w))
        return true;
    r->p = save;
    return false;
}

/* Whether the next word is w, consuming nothing. */
bool rd_peek_word(IrReader *r, const char *w) {
    const char *save = r->p;
    bool yes = rd_accept_word(r, w);
    r->p = save;
    return yes;
}

int rd_expect_word(IrReader *r, const char *w) {
    if (rd_accept_word(r, w))
        return 0;
    char what[32];
    snprintf(what, sizeof what, "'%s'", w);
    return rd_expected(r, what);
}

/* A decimal integer (optionally negative) into *out. */
int rd_integer(IrReader *r, int64_t *out) {
    rd_skip_space(r);
    Loc loc = rd_here(r);
    const char *s = r->p;
    if (rd_peek(r) == '-')
        r->p++;
    if (!is_digit(rd_peek(r))) {
        r->p = s;
        return rd_expected(r, "an integer");
    }
    while (is_digit(rd_peek(r)))
        r->p++;
    char buf[MAX_NUMBER_TEXT];
    if (r->p - s >= MAX_NUMBER_TEXT)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "integer out of range");
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = 0;
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "integer '%s' out of range", buf);
    *out = v;
    return 0;
}

/* ---------------------------------------------------------------- names */

static uint32_t name_hash(const char *s, int len) {
    return (uint32_t)hash_bytes(HASH_INIT, s, (size_t)len);
}

static int *name_slot(IrReader *r, const char *s, int len) {
    uint32_t mask = (uint32_t)r->nslots - 1;
    for (uint32_t i = name_hash(s, len) & mask;; i = (i + 1) & mask) {
        int k = r->slots[i];
        if (!k || (r->names[k - 1].len == len &&
                   !memcmp(r->names[k - 1].s, s, (size_t)len)))
            return &r->slots[i];
    }
}

static IrName *name_find(IrReader *r, const char *s, int len) {
    if (!r->nslots)
        return NULL;
    int k = *name_slot(r, s, len);
    return k ? &r->names[k - 1] : NULL;
}

int rd_name_define(IrReader *r, const char *s, int len, Loc loc, ValId id) {
    IrName *old = name_find(r, s, len);
    if (old)
        return rd_rerr(r, loc, MT_ERR_NAME,
                    "redefinition of '%%%.*s' (first defined at line %d)", len, s,
                    old->loc.line);
    if (2 * (r->nnames + 1) > r->nslots) {
        int n = r->nslots ? 2 * r->nslots : 64;
        r->slots = arena_alloc(r->f->arena, sizeof(int) * (size_t)n);
        if (!r->slots)
            return rd_rerr(r, loc, MT_ERR_NOMEM, "out of memory");
        r->nslots = n;
        for (int k = 0; k < r->nnames; k++)
            *name_slot(r, r->names[k].s, r->names[k].len) = k + 1;
    }
    IrName nm = {s, len, id, loc, true};
    VEC_PUSH(r->f->arena, r->names, r->nnames, r->capnames, nm);
    *name_slot(r, s, len) = r->nnames;
    return 0;
}

/* A "%name" (defined or used): s and len give the name without the "%". */
int rd_def_name(IrReader *r, const char **s, int *len, Loc *loc) {
    rd_skip_space(r);
    *loc = rd_here(r);
    if (rd_peek(r) != '%' || !is_ident_char(peek_at(r, 1)))
        return rd_expected(r, "a value name such as '%0'");
    r->p++;
    *s = r->p;
    while (is_ident_char(rd_peek(r)))
        r->p++;
    *len = (int)(r->p - *s);
    return 0;
}

/* Closes a loop body: what it defined is invisible from here on. */
void rd_close_scope(IrReader *r, int mark) {
    for (int k = mark; k < r->nnames; k++)
        r->names[k].visible = false;
}

/* ---------------------------------------------------------------- types */

static bool dtype_named(const char *s, int len, DType *out) {
    for (int d = DT_I1; d < DT_COUNT; d++)
        if (rd_is_word(s, len, dtype_name((DType)d))) {
            *out = (DType)d;
            return true;
        }
    return false;
}

/* i32, bool, ptr<f32> */
static int elem_type(IrReader *r, Type *out) {
    int len;
    const char *s = ident(r, &len);
    DType d;
    if (s && dtype_named(s, len, &d)) {
        *out = type_scalar(d);
        return 0;
    }
    if (!s || !rd_is_word(s, len, "ptr")) {
        if (s)
            r->p = s; /* the error quotes the word */
        return rd_expected(r, "a type (i32, f16, u8, bool, ptr<...>, vector<...>, block<...>)");
    }
    if (rd_expect(r, '<') < 0)
        return -1;
    s = ident(r, &len);
    if (!s || !dtype_named(s, len, &d)) {
        if (s)
            r->p = s;
        return rd_expected(r, "a pointee type (i32, f16, u8, bool, ...)");
    }
    *out = type_ptr(d);
    return rd_expect(r, '>');
}

/* "16x32" of a block type. */
static int dims(IrReader *r, Type *t) {
    rd_skip_space(r);
    Loc loc = rd_here(r);
    int64_t numel = 1;
    t->rank = 0;
    for (;;) {
        if (!is_digit(rd_peek(r)))
            return rd_expected(r, "a dimension");
        int64_t d = 0;
        while (is_digit(rd_peek(r))) {
            if (d <= MAX_NUMEL)
                d = d * 10 + (*r->p - '0');
            r->p++;
        }
        if (t->rank == MT_MAX_RANK)
            return rd_rerr(r, loc, MT_ERR_SYNTAX, "a block has at most %d dims",
                        MT_MAX_RANK);
        if (d < 1 || d > MAX_NUMEL || (numel *= d) > MAX_NUMEL)
            return rd_rerr(r, loc, MT_ERR_SYNTAX,
                        "a block has 1 to %d elements", MAX_NUMEL);
        t->shape[t->rank++] = (int32_t)d;
        if (rd_peek(r) != 'x' || !is_digit(peek_at(r, 1)))
            return 0;
        r->p++;
    }
}

int rd_parse_type(IrReader *r, Type *out) {
    rd_skip_space(r);
    Loc loc = rd_here(r);
    const char *save = r->p;
    int len;
    const char *s = ident(r, &len);
    bool vector = s && rd_is_word(s, len, "vector");
    if (!vector && !(s && rd_is_word(s, len, "block"))) {
        r->p = save;
        return elem_type(r, out);
    }
    Type shape;
    memset(&shape, 0, sizeof shape);
    Type elem;
    if (rd_expect(r, '<') < 0 || dims(r, &shape) < 0)
        return -1;
    rd_skip_space(r);
    if (rd_peek(r) != 'x')
        return rd_expected(r, "'x' and the element type");
    r->p++;
    if (elem_type(r, &elem) < 0 || rd_expect(r, '>') < 0)
        return -1;
    if (vector && shape.rank != 1)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "a vector has one dim; write block<...>");
    if (!vector && shape.rank < 2)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "a block has 2 or more dims; write vector<...>");
    *out = type_block(elem, shape.rank, shape.shape);
    return 0;
}

/* ---------------------------------------------------------------- operands */

/* A float literal: Python repr of an f32 ("2.5", "1e-05", "-inf", "nan"). */
static int float_literal(IrReader *r, const char *s, Loc loc, ValId *out) {
    char buf[MAX_NUMBER_TEXT];
    if (r->p - s >= MAX_NUMBER_TEXT)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "number too long");
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = 0;
    char *end;
    errno = 0;
    float v = strtof(buf, &end);
    bool inf_text = strstr(buf, "inf") != NULL;
    if (*end || (errno == ERANGE && !inf_text && (v > 1.0f || v < -1.0f)))
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "bad f32 literal '%s'", buf);
    *out = const_f32(r->f, (double)v);
    return 0;
}

/* A number: "-12" (integer literal), "2.5", "-0.0", "1e+20". */
static int number(IrReader *r, IrOperand *o) {
    const char *s = r->p;
    if (rd_peek(r) == '-')
        r->p++;
    if (is_ident_start(rd_peek(r))) { /* -inf */
        int len;
        const char *w = ident(r, &len);
        if (!rd_is_word(w, len, "inf"))
            return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "expected a number after '-'");
        return float_literal(r, s, o->loc, &o->id);
    }
    if (!is_digit(rd_peek(r)))
        return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "expected a number after '-'");
    bool is_float = false;
    for (int prev = 0;; prev = *r->p++) {
        int ch = rd_peek(r);
        bool sign = (ch == '+' || ch == '-') && prev == 'e';
        if (!is_digit(ch) && ch != '.' && ch != 'e' && !sign)
            break;
        is_float |= !is_digit(ch);
    }
    if (is_float)
        return float_literal(r, s, o->loc, &o->id);
    r->p = s;
    o->is_int = true;
    return rd_integer(r, &o->i);
}

/* "f16(1.5)", "u8(255)": a constant of a type other than the defaults
 * (i32/i64 integers, f32 floats, bool), as the printer writes it. */
static int typed_literal(IrReader *r, DType d, IrOperand *o) {
    r->p++; /* ( */
    rd_skip_space(r);
    const char *s = r->p;
    while (rd_peek(r) > 0 && *r->p != ')' && *r->p != '\n') /* the text need not end in NUL */
        r->p++;
    char buf[MAX_NUMBER_TEXT];
    if (r->p - s >= MAX_NUMBER_TEXT || r->p == s)
        return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "bad %s literal", dtype_name(d));
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = 0;
    if (rd_expect(r, ')') < 0)
        return -1;
    char *end;
    errno = 0;
    if (dtype_is_float(d)) {
        double v = strtod(buf, &end);
        if (*end || (errno == ERANGE && !isinf(v) && v != 0))
            return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "bad %s literal '%s'", dtype_name(d), buf);
        o->id = const_float(r->f, d, v);
        if (v == v && val(r->f, o->id)->c.f != v)
            return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "%s cannot represent %s exactly",
                        dtype_name(d), buf);
        return 0;
    }
    bool neg = buf[0] == '-';
    unsigned long long u = neg ? 0 : strtoull(buf, &end, 10);
    long long i = neg ? strtoll(buf, &end, 10) : (long long)u;
    if (*end || errno == ERANGE || buf[0] == '+' ||
        (dtype_is_unsigned(d) ? neg : (!neg && u > (unsigned long long)INT64_MAX)) ||
        dtype_wrap_int(d, i) != i)
        return rd_rerr(r, o->loc, MT_ERR_SYNTAX, "%s literal out of range: %s", dtype_name(d), buf);
    o->id = const_int(r->f, d, i);
    return 0;
}

/* One operand: %name, a parameter, a constant, or none. */
int rd_operand(IrReader *r, IrOperand *o) {
    rd_skip_space(r);
    memset(o, 0, sizeof *o);
    o->loc = rd_here(r);
    int ch = rd_peek(r);
    if (ch == '%') {
        const char *s;
        int len;
        Loc loc;
        if (rd_def_name(r, &s, &len, &loc) < 0)
            return -1;
        IrName *nm = name_find(r, s, len);
        if (!nm)
            return rd_rerr(r, loc, MT_ERR_NAME, "use of undefined value '%%%.*s'",
                        len, s);
        if (!nm->visible)
            return rd_rerr(r, loc, MT_ERR_NAME,
                        "'%%%.*s' is defined in a loop body (line %d) and not "
                        "visible here",
                        len, s, nm->loc.line);
        o->id = nm->id;
        return 0;
    }
    if (ch == '-' || is_digit(ch))
        return number(r, o);
    int len;
    const char *s = ident(r, &len);
    if (!s)
        return rd_expected(r, "an operand");
    if (rd_is_word(s, len, "inf") || rd_is_word(s, len, "nan"))
        return float_literal(r, s, o->loc, &o->id);
    if (rd_is_word(s, len, "True") || rd_is_word(s, len, "False")) {
        o->id = const_bool(r->f, s[0] == 'T');
        return 0;
    }
    if (rd_is_word(s, len, "none"))
        return 0;
    DType d;
    if (rd_peek(r) == '(' && dtype_named(s, len, &d))
        return typed_literal(r, d, o);
    for (int i = 0; i < r->f->nparams; i++) {
        const Value *v = val(r->f, r->f->params[i]);
        if (rd_is_word(s, len, v->name)) {
            o->id = r->f->params[i];
            return 0;
        }
    }
    return rd_rerr(r, o->loc, MT_ERR_NAME, "unknown name '%.*s'", len, s);
}

/* Operands up to '{', ':', ')' or the end of the line (none at all is
 * fine). */
int rd_operand_list(IrReader *r, IrOperand **out, int *n) {
    int cap = 0;
    *out = NULL;
    *n = 0;
    if (rd_at_eol(r) || rd_peek(r) == '{' || rd_peek(r) == ':')
        return 0;
    do {
        IrOperand o;
        if (rd_operand(r, &o) < 0)
            return -1;
        VEC_PUSH(r->f->arena, *out, *n, cap, o);
    } while (rd_accept(r, ','));
    return 0;
}


/* A literal's ValId when the op does not decide its type. */
ValId rd_default_const(IrReader *r, const IrOperand *o) {
    if (!o->is_int)
        return o->id;
    return const_int(r->f, fits_i32(o->i) ? DT_I32 : DT_I64, o->i);
}

/* A literal in a place of type t (a carried value, a yield). */
ValId rd_typed_const(IrReader *r, const IrOperand *o, Type t) {
    if (o->is_int && !t.rank && !t.is_ptr && (t.dtype == DT_I64 || t.dtype == DT_I32) &&
        (t.dtype == DT_I64 || fits_i32(o->i)))
        return const_int(r->f, (DType)t.dtype, o->i);
    return rd_default_const(r, o);
}

/* Does the op type as rt with these operands?  Asked on a scratch Ctx, so
 * that a failed try records nothing. */
static bool types_as(IrReader *r, OpCode code, const ValId *args, int n, Type rt) {
    Ctx scratch = *r->c;
    scratch.status = MT_OK;
    sb_init(&scratch.err);
    r->f->ctx = &scratch;
    Type t = rt;
    int rc = ir_infer_type(r->f, code, (Loc){0, 0}, args, n, NULL, &t);
    r->f->ctx = r->c;
    sb_free(&scratch.err);
    return rc == 0 && type_eq(t, rt);
}

/* Integer literals become i32 where they fit; when the op then does not
 * give its printed result type rt, i64 (a folded i64 value prints as a
 * bare number too).  Whatever still does not type is the verifier's to
 * report. */
void rd_resolve_literals(IrReader *r, OpCode code, const IrOperand *ops, int n,
                             ValId *args, bool has_result, Type rt) {
    bool narrowed = false;
    for (int i = 0; i < n; i++) {
        args[i] = rd_default_const(r, &ops[i]);
        narrowed |= ops[i].is_int && fits_i32(ops[i].i);
    }
    if (!narrowed || !has_result || types_as(r, code, args, n, rt))
        return;
    ValId wide[3];
    for (int i = 0; i < n; i++)
        wide[i] = ops[i].is_int ? const_int(r->f, DT_I64, ops[i].i) : args[i];
    if (types_as(r, code, wide, n, rt))
        memcpy(args, wide, sizeof(ValId) * (size_t)n);
}

/* ---------------------------------------------------------------- attributes */

/* Every attribute key the printer writes, and where its value goes.
 * shape and dtype restate the result type: they only need to print back. */
enum { AV_INT, AV_ENUM, AV_SHAPE, AV_DTYPE, AV_STR /* slot: Op.str[slot] */ };
static const struct AttrKey {
    const char *name;
    int kind;
    int slot;
    int schema; /* AV_ENUM: the AttrSchema whose value names it takes */
} attr_keys[] = {
    {"axis", AV_INT, 0, AS_NONE},
    {"start", AV_INT, 0, AS_NONE},
    {"end", AV_INT, 1, AS_NONE},
    {"input_precision", AV_ENUM, 0, AS_PRECISION},
    {"imprecise_acc", AV_INT, 1, AS_NONE},
    {"via", AV_ENUM, 0, AS_CONVERT},
    {"index", AV_INT, 0, AS_NONE},
    {"mem", AV_ENUM, 0, AS_MEMORY},
    {"cache", AV_ENUM, 0, AS_MEMHINT},
    {"evict", AV_ENUM, 1, AS_MEMHINT},
    {"value", AV_INT, 0, AS_NONE},
    {"shape", AV_SHAPE, -1, AS_NONE},
    {"dtype", AV_DTYPE, -1, AS_NONE},
    {"reverse", AV_INT, 1, AS_NONE}, /* scans (tlscan.c) */
    {"prefix", AV_STR, 0, AS_NONE}, /* print and assert (tldebug.c) */
    {"hex", AV_INT, 0, AS_NONE},
    {"msg", AV_STR, 0, AS_NONE},
    {"func", AV_STR, 1, AS_NONE},
    {"asm", AV_STR, 0, AS_NONE}, /* inline asm (tlasm.c) */
    {"constraints", AV_STR, 1, AS_NONE},
    {"pack", AV_INT, 0, AS_NONE},
    {"pure", AV_INT, 1, AS_NONE},
    {"fn", AV_ENUM, 0, AS_LIBDEVICE}, /* libdevice's symbol (libdevice.c) */
};

/* A string as ir_print_string writes it: "..." with \\, \" and \xNN. */
static int string_value(IrReader *r, const char **out) {
    rd_skip_space(r);
    Loc loc = rd_here(r);
    if (rd_peek(r) != '"')
        return rd_expected(r, "a quoted string");
    r->p++;
    StrBuf sb;
    sb_init(&sb);
    int rc = 0;
    for (;;) {
        int ch = rd_peek(r);
        if (ch == -1 || ch == '\n') {
            rc = rd_rerr(r, loc, MT_ERR_SYNTAX, "unterminated string");
            break;
        }
        r->p++;
        if (ch == '"')
            break;
        if (ch == '\\') {
            int e = rd_peek(r);
            /* the digits read through peek_at: the text need not end in NUL */
            int hi = hex_value(peek_at(r, 1)), lo = hex_value(peek_at(r, 2));
            unsigned v = e == 'x' && hi >= 0 && lo >= 0 ? (unsigned)(hi * 16 + lo) : 0;
            if (v) {
                r->p += 3;
                ch = (int)v;
            } else if (e == '"' || e == '\\') {
                r->p++;
                ch = e;
            } else {
                rc = rd_rerr(r, rd_here(r), MT_ERR_SYNTAX, "bad escape in a string");
                break;
            }
        }
        sb_putc(&sb, (char)ch);
    }
    if (rc == 0)
        *out = arena_strdup(r->f->arena, sb_str(&sb));
    sb_free(&sb);
    return rc;
}

/* One "key=value"; appends it to canon as the printer would write it. */
static int attr_pair(IrReader *r, int64_t attr[2], const char *str[2], StrBuf *canon) {
    Loc loc;
    int len;
    const char *s = rd_need_ident(r, "an attribute name", &len, &loc);
    if (!s)
        return -1;
    const struct AttrKey *k = NULL;
    for (size_t i = 0; i < sizeof attr_keys / sizeof attr_keys[0]; i++)
        if (rd_is_word(s, len, attr_keys[i].name))
            k = &attr_keys[i];
    if (!k)
        return rd_rerr(r, loc, MT_ERR_SYNTAX, "unknown attribute '%.*s'", len, s);
    if (rd_expect(r, '=') < 0)
        return -1;
    sb_printf(canon, "%s=", k->name);
    rd_skip_space(r);
    int64_t v = 0;
    switch (k->kind) {
    case AV_INT:
        if (rd_integer(r, &v) < 0)
            return -1;
        sb_printf(canon, "%lld", (long long)v);
        break;
    case AV_ENUM: {
        const AttrInfo *ai = &attr_info[k->schema];
        s = ident(r, &len);
        if (!s && rd_integer(r, &v) < 0)
            return -1;
        for (int p = 0; s && p < ai->nvalues; p++)
            if (rd_is_word(s, len, ai->values[p])) {
                v = p;
                s = NULL;
            }
        if (s)
            return rd_rerr(r, loc, MT_ERR_SYNTAX, "unknown %s '%.*s'", k->name, len, s);
        if (v >= 0 && v < ai->nvalues)
            sb_puts(canon, ai->values[v]);
        else
            sb_printf(canon, "%lld", (long long)v);
        break;
    }
    case AV_SHAPE: {
        if (rd_expect(r, '(') < 0)
            return -1;
        sb_putc(canon, '(');
        int n = 0;
        while (!rd_accept(r, ')')) {
            if (n == MT_MAX_RANK)
                return rd_rerr(r, loc, MT_ERR_SYNTAX, "a shape has at most %d dims",
                            MT_MAX_RANK);
            if (rd_integer(r, &v) < 0)
                return -1;
            sb_printf(canon, n++ ? ", %lld" : "%lld", (long long)v);
            if (!rd_accept(r, ',') && (rd_skip_space(r), rd_peek(r) != ')'))
                return rd_expected(r, "',' or ')'");
        }
        sb_puts(canon, n == 1 ? ",)" : ")");
        break;
    }
    case AV_DTYPE: {
        DType d;
        s = ident(r, &len);
        if (!s || !dtype_named(s, len, &d))
            return rd_expected(r, "a dtype (bool, i32, i64, f32)");
        sb_putn(canon, s, (size_t)len);
        break;
    }
    case AV_STR:
        if (string_value(r, &str[k->slot]) < 0)
            return -1;
        ir_print_string(canon, str[k->slot]);
        return 0;
    }
    if (k->slot >= 0)
        attr[k->slot] = v;
    return 0;
}

/* "{k=v, ...}" if present; canon gets " {k=v, ...}" in the printer's
 * spelling, or stays empty. */
int rd_attr_dict(IrReader *r, int64_t attr[2], const char *str[2], StrBuf *canon) {
    if (!rd_accept(r, '{'))
        return 0;
    sb_puts(canon, " {");
    for (int n = 0; !rd_accept(r, '}'); n++) {
        if (n && rd_expect(r, ',') < 0)
            return -1;
        if (n)
            sb_puts(canon, ", ");
        if (attr_pair(r, attr, str, canon) < 0)
            return -1;
    }
    sb_putc(canon, '}');
    return 0;
}

/* The op must print back the attributes that were read. */
int rd_check_attrs(IrReader *r, const Op *op, const StrBuf *canon) {
    StrBuf want;
    sb_init(&want);
    ir_print_attrs(&want, r->f, op);
    int rc = 0;
    if (strcmp(sb_str(&want), canon->data ? canon->data : "") != 0) {
        StrBuf ty;
        sb_init(&ty);
        if (op->nres)
            type_print(&ty, val_type(r->f, op->res[0]));
        const char *w = sb_str(&want), *g = canon->data ? canon->data : "";
        rc = rd_rerr(r, op->loc, MT_ERR_SYNTAX,
                  "'%s'%s%s has attributes %s, not %s", op_info[op->code].name,
                  op->nres ? " : " : "", sb_str(&ty), *w ? w + 1 : "{}",
                  *g ? g + 1 : "{}");
        sb_free(&ty);
    }
    sb_free(&want);
    return rc;
}

