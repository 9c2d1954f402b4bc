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
 * redefinition) and whatever ir_verify reports at the op's location. */
#include "mt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper loop nests than any kernel writes; bounds the recursion. */
#define MAX_LOOP_DEPTH 256
/* The elaborator's limit on a block's elements (elab.c MAX_BLOCK_NUMEL). */
#define MAX_NUMEL (1 << 24)
#define MAX_NUMBER_TEXT 64

typedef struct Name {
    const char *s;
    int len;
    ValId id;
    Loc loc;       /* definition */
    bool visible;  /* false once its loop body has closed */
} Name;

typedef struct Reader {
    Ctx *c;
    Func *f;
    const char *p, *end;
    const char *line_start;
    int line;
    /* value names: dense array in definition order, hashed by slots */
    Name *names;
    int nnames, capnames;
    int *slots;    /* index into names + 1; 0 = empty */
    int nslots;    /* power of two */
} Reader;

/* An operand as written: a value, or an integer literal whose type the
 * op decides (see resolve_literals). */
typedef struct Operand {
    ValId id;
    bool is_int;
    int64_t i;
    Loc loc;
} Operand;

/* ---------------------------------------------------------------- text */

static Loc here(const Reader *r) {
    return (Loc){r->line, (int32_t)(r->p - r->line_start) + 1};
}

static int peek(const Reader *r) {
    return r->p < r->end ? (unsigned char)*r->p : -1;
}

static int peek_at(const Reader *r, int k) {
    return r->end - r->p > k ? (unsigned char)r->p[k] : -1;
}

static bool is_ident_start(int ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool is_digit(int ch) { return ch >= '0' && ch <= '9'; }

static bool is_ident_char(int ch) { return is_ident_start(ch) || is_digit(ch); }

/* Skips blanks and a comment, never the newline. */
static void skip_space(Reader *r) {
    for (;;) {
        int ch = peek(r);
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

static bool at_eol(Reader *r) {
    skip_space(r);
    return peek(r) == -1 || peek(r) == '\n';
}

static void newline(Reader *r) {
    if (peek(r) == '\n') {
        r->p++;
        r->line++;
        r->line_start = r->p;
    }
}

static void skip_blank_lines(Reader *r) {
    while (at_eol(r) && peek(r) == '\n')
        newline(r);
}

/* What the cursor is at, quoted, for "expected X, got Y" messages. */
static void describe_here(Reader *r, char out[48]) {
    skip_space(r);
    int ch = peek(r);
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
static int rerr(Reader *r, Loc loc, mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    diag_verror(r->c, loc, st, fmt, ap);
    va_end(ap);
    return -1;
}

static int expected(Reader *r, const char *what) {
    char got[48];
    describe_here(r, got);
    return rerr(r, here(r), MT_ERR_SYNTAX, "expected %s, got %s", what, got);
}

static bool accept(Reader *r, char ch) {
    skip_space(r);
    if (peek(r) != (unsigned char)ch)
        return false;
    r->p++;
    return true;
}

static int expect(Reader *r, char ch) {
    if (accept(r, ch))
        return 0;
    char what[8];
    snprintf(what, sizeof what, "'%c'", ch);
    return expected(r, what);
}

static int expect_eol(Reader *r) {
    if (!at_eol(r))
        return expected(r, "end of line");
    newline(r);
    return 0;
}

/* An identifier; *len 0 when there is none (nothing consumed). */
static const char *ident(Reader *r, int *len) {
    skip_space(r);
    *len = 0;
    if (!is_ident_start(peek(r)))
        return NULL;
    const char *s = r->p;
    while (is_ident_char(peek(r)))
        r->p++;
    *len = (int)(r->p - s);
    return s;
}

/* An identifier where one is required: NULL, with "expected what"
 * reported, when there is none. */
static const char *need_ident(Reader *r, const char *what, int *len, Loc *loc) {
    skip_space(r);
    *loc = here(r);
    const char *s = ident(r, len);
    if (!s)
        expected(r, what);
    return s;
}

static bool is_word(const char *s, int len, const char *w) {
    return (int)strlen(w) == len && !memcmp(s, w, (size_t)len);
}

static bool accept_word(Reader *r, const char *w) {
    skip_space(r);
    const char *save = r->p;
    int len;
    const char *s = ident(r, &len);
    if (s && is_word(s, len, w))
        return true;
    r->p = save;
    return false;
}

/* Whether the next word is w, consuming nothing. */
static bool peek_word(Reader *r, const char *w) {
    const char *save = r->p;
    bool yes = accept_word(r, w);
    r->p = save;
    return yes;
}

static int expect_word(Reader *r, const char *w) {
    if (accept_word(r, w))
        return 0;
    char what[32];
    snprintf(what, sizeof what, "'%s'", w);
    return expected(r, what);
}

/* A decimal integer (optionally negative) into *out. */
static int integer(Reader *r, int64_t *out) {
    skip_space(r);
    Loc loc = here(r);
    const char *s = r->p;
    if (peek(r) == '-')
        r->p++;
    if (!is_digit(peek(r))) {
        r->p = s;
        return expected(r, "an integer");
    }
    while (is_digit(peek(r)))
        r->p++;
    char buf[MAX_NUMBER_TEXT];
    if (r->p - s >= MAX_NUMBER_TEXT)
        return rerr(r, loc, MT_ERR_SYNTAX, "integer out of range");
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = 0;
    errno = 0;
    long long v = strtoll(buf, NULL, 10);
    if (errno)
        return rerr(r, loc, MT_ERR_SYNTAX, "integer '%s' out of range", buf);
    *out = v;
    return 0;
}

/* ---------------------------------------------------------------- names */

static uint32_t name_hash(const char *s, int len) {
    return (uint32_t)hash_bytes(HASH_INIT, s, (size_t)len);
}

static int *name_slot(Reader *r, const char *s, int len) {
    uint32_t mask = (uint32_t)r->nslots - 1;
    for (uint32_t i = name_hash(s, len) & mask;; i = (i + 1) & mask) {
        int k = r->slots[i];
        if (!k || (r->names[k - 1].len == len &&
                   !memcmp(r->names[k - 1].s, s, (size_t)len)))
            return &r->slots[i];
    }
}

static Name *name_find(Reader *r, const char *s, int len) {
    if (!r->nslots)
        return NULL;
    int k = *name_slot(r, s, len);
    return k ? &r->names[k - 1] : NULL;
}

static int name_define(Reader *r, const char *s, int len, Loc loc, ValId id) {
    Name *old = name_find(r, s, len);
    if (old)
        return rerr(r, loc, MT_ERR_NAME,
                    "redefinition of '%%%.*s' (first defined at line %d)", len, s,
                    old->loc.line);
    if (2 * (r->nnames + 1) > r->nslots) {
        int n = r->nslots ? 2 * r->nslots : 64;
        r->slots = arena_alloc(r->f->arena, sizeof(int) * (size_t)n);
        if (!r->slots)
            return rerr(r, loc, MT_ERR_NOMEM, "out of memory");
        r->nslots = n;
        for (int k = 0; k < r->nnames; k++)
            *name_slot(r, r->names[k].s, r->names[k].len) = k + 1;
    }
    Name nm = {s, len, id, loc, true};
    VEC_PUSH(r->f->arena, r->names, r->nnames, r->capnames, nm);
    *name_slot(r, s, len) = r->nnames;
    return 0;
}

/* A "%name" (defined or used): s and len give the name without the "%". */
static int def_name(Reader *r, const char **s, int *len, Loc *loc) {
    skip_space(r);
    *loc = here(r);
    if (peek(r) != '%' || !is_ident_char(peek_at(r, 1)))
        return expected(r, "a value name such as '%0'");
    r->p++;
    *s = r->p;
    while (is_ident_char(peek(r)))
        r->p++;
    *len = (int)(r->p - *s);
    return 0;
}

/* Closes a loop body: what it defined is invisible from here on. */
static void close_scope(Reader *r, int mark) {
    for (int k = mark; k < r->nnames; k++)
        r->names[k].visible = false;
}

/* ---------------------------------------------------------------- types */

static bool dtype_named(const char *s, int len, DType *out) {
    for (int d = DT_I1; d < DT_COUNT; d++)
        if (is_word(s, len, dtype_name((DType)d))) {
            *out = (DType)d;
            return true;
        }
    return false;
}

/* i32, bool, ptr<f32> */
static int elem_type(Reader *r, Type *out) {
    int len;
    const char *s = ident(r, &len);
    DType d;
    if (s && dtype_named(s, len, &d)) {
        *out = type_scalar(d);
        return 0;
    }
    if (!s || !is_word(s, len, "ptr")) {
        if (s)
            r->p = s; /* the error quotes the word */
        return expected(r, "a type (i32, f16, u8, bool, ptr<...>, vector<...>, block<...>)");
    }
    if (expect(r, '<') < 0)
        return -1;
    s = ident(r, &len);
    if (!s || !dtype_named(s, len, &d)) {
        if (s)
            r->p = s;
        return expected(r, "a pointee type (i32, f16, u8, bool, ...)");
    }
    *out = type_ptr(d);
    return expect(r, '>');
}

/* "16x32" of a block type. */
static int dims(Reader *r, Type *t) {
    skip_space(r);
    Loc loc = here(r);
    int64_t numel = 1;
    t->rank = 0;
    for (;;) {
        if (!is_digit(peek(r)))
            return expected(r, "a dimension");
        int64_t d = 0;
        while (is_digit(peek(r))) {
            if (d <= MAX_NUMEL)
                d = d * 10 + (*r->p - '0');
            r->p++;
        }
        if (t->rank == MT_MAX_RANK)
            return rerr(r, loc, MT_ERR_SYNTAX, "a block has at most %d dims",
                        MT_MAX_RANK);
        if (d < 1 || d > MAX_NUMEL || (numel *= d) > MAX_NUMEL)
            return rerr(r, loc, MT_ERR_SYNTAX,
                        "a block has 1 to %d elements", MAX_NUMEL);
        t->shape[t->rank++] = (int32_t)d;
        if (peek(r) != 'x' || !is_digit(peek_at(r, 1)))
            return 0;
        r->p++;
    }
}

static int parse_type(Reader *r, Type *out) {
    skip_space(r);
    Loc loc = here(r);
    const char *save = r->p;
    int len;
    const char *s = ident(r, &len);
    bool vector = s && is_word(s, len, "vector");
    if (!vector && !(s && is_word(s, len, "block"))) {
        r->p = save;
        return elem_type(r, out);
    }
    Type shape;
    memset(&shape, 0, sizeof shape);
    Type elem;
    if (expect(r, '<') < 0 || dims(r, &shape) < 0)
        return -1;
    skip_space(r);
    if (peek(r) != 'x')
        return expected(r, "'x' and the element type");
    r->p++;
    if (elem_type(r, &elem) < 0 || expect(r, '>') < 0)
        return -1;
    if (vector && shape.rank != 1)
        return rerr(r, loc, MT_ERR_SYNTAX, "a vector has one dim; write block<...>");
    if (!vector && shape.rank < 2)
        return rerr(r, loc, MT_ERR_SYNTAX, "a block has 2 or more dims; write vector<...>");
    *out = type_block(elem, shape.rank, shape.shape);
    return 0;
}

/* ---------------------------------------------------------------- operands */

/* A float literal: Python repr of an f32 ("2.5", "1e-05", "-inf", "nan"). */
static int float_literal(Reader *r, const char *s, Loc loc, ValId *out) {
    char buf[MAX_NUMBER_TEXT];
    if (r->p - s >= MAX_NUMBER_TEXT)
        return rerr(r, loc, MT_ERR_SYNTAX, "number too long");
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = 0;
    char *end;
    errno = 0;
    float v = strtof(buf, &end);
    bool inf_text = strstr(buf, "inf") != NULL;
    if (*end || (errno == ERANGE && !inf_text && (v > 1.0f || v < -1.0f)))
        return rerr(r, loc, MT_ERR_SYNTAX, "bad f32 literal '%s'", buf);
    *out = const_f32(r->f, (double)v);
    return 0;
}

/* A number: "-12" (integer literal), "2.5", "-0.0", "1e+20". */
static int number(Reader *r, Operand *o) {
    const char *s = r->p;
    if (peek(r) == '-')
        r->p++;
    if (is_ident_start(peek(r))) { /* -inf */
        int len;
        const char *w = ident(r, &len);
        if (!is_word(w, len, "inf"))
            return rerr(r, o->loc, MT_ERR_SYNTAX, "expected a number after '-'");
        return float_literal(r, s, o->loc, &o->id);
    }
    if (!is_digit(peek(r)))
        return rerr(r, o->loc, MT_ERR_SYNTAX, "expected a number after '-'");
    bool is_float = false;
    for (int prev = 0;; prev = *r->p++) {
        int ch = peek(r);
        bool sign = (ch == '+' || ch == '-') && prev == 'e';
        if (!is_digit(ch) && ch != '.' && ch != 'e' && !sign)
            break;
        is_float |= !is_digit(ch);
    }
    if (is_float)
        return float_literal(r, s, o->loc, &o->id);
    r->p = s;
    o->is_int = true;
    return integer(r, &o->i);
}

/* "f16(1.5)", "u8(255)": a constant of a type other than the defaults
 * (i32/i64 integers, f32 floats, bool), as the printer writes it. */
static int typed_literal(Reader *r, DType d, Operand *o) {
    r->p++; /* ( */
    skip_space(r);
    const char *s = r->p;
    while (*r->p && *r->p != ')' && *r->p != '\n')
        r->p++;
    char buf[MAX_NUMBER_TEXT];
    if (r->p - s >= MAX_NUMBER_TEXT || r->p == s)
        return rerr(r, o->loc, MT_ERR_SYNTAX, "bad %s literal", dtype_name(d));
    memcpy(buf, s, (size_t)(r->p - s));
    buf[r->p - s] = 0;
    if (expect(r, ')') < 0)
        return -1;
    char *end;
    errno = 0;
    if (dtype_is_float(d)) {
        double v = strtod(buf, &end);
        if (*end || (errno == ERANGE && !isinf(v) && v != 0))
            return rerr(r, o->loc, MT_ERR_SYNTAX, "bad %s literal '%s'", dtype_name(d), buf);
        o->id = const_float(r->f, d, v);
        if (v == v && val(r->f, o->id)->c.f != v)
            return rerr(r, o->loc, MT_ERR_SYNTAX, "%s cannot represent %s exactly",
                        dtype_name(d), buf);
        return 0;
    }
    bool neg = buf[0] == '-';
    unsigned long long u = neg ? 0 : strtoull(buf, &end, 10);
    long long i = neg ? strtoll(buf, &end, 10) : (long long)u;
    if (*end || errno == ERANGE || buf[0] == '+' ||
        (dtype_is_unsigned(d) ? neg : (!neg && u > (unsigned long long)INT64_MAX)) ||
        dtype_wrap_int(d, i) != i)
        return rerr(r, o->loc, MT_ERR_SYNTAX, "%s literal out of range: %s", dtype_name(d), buf);
    o->id = const_int(r->f, d, i);
    return 0;
}

/* One operand: %name, a parameter, a constant, or none. */
static int operand(Reader *r, Operand *o) {
    skip_space(r);
    memset(o, 0, sizeof *o);
    o->loc = here(r);
    int ch = peek(r);
    if (ch == '%') {
        const char *s;
        int len;
        Loc loc;
        if (def_name(r, &s, &len, &loc) < 0)
            return -1;
        Name *nm = name_find(r, s, len);
        if (!nm)
            return rerr(r, loc, MT_ERR_NAME, "use of undefined value '%%%.*s'",
                        len, s);
        if (!nm->visible)
            return rerr(r, loc, MT_ERR_NAME,
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
        return expected(r, "an operand");
    if (is_word(s, len, "inf") || is_word(s, len, "nan"))
        return float_literal(r, s, o->loc, &o->id);
    if (is_word(s, len, "True") || is_word(s, len, "False")) {
        o->id = const_bool(r->f, s[0] == 'T');
        return 0;
    }
    if (is_word(s, len, "none"))
        return 0;
    DType d;
    if (peek(r) == '(' && dtype_named(s, len, &d))
        return typed_literal(r, d, o);
    for (int i = 0; i < r->f->nparams; i++) {
        const Value *v = val(r->f, r->f->params[i]);
        if (is_word(s, len, v->name)) {
            o->id = r->f->params[i];
            return 0;
        }
    }
    return rerr(r, o->loc, MT_ERR_NAME, "unknown name '%.*s'", len, s);
}

/* Operands up to '{', ':', ')' or the end of the line (none at all is
 * fine). */
static int operand_list(Reader *r, Operand **out, int *n) {
    int cap = 0;
    *out = NULL;
    *n = 0;
    if (at_eol(r) || peek(r) == '{' || peek(r) == ':')
        return 0;
    do {
        Operand o;
        if (operand(r, &o) < 0)
            return -1;
        VEC_PUSH(r->f->arena, *out, *n, cap, o);
    } while (accept(r, ','));
    return 0;
}


/* A literal's ValId when the op does not decide its type. */
static ValId default_const(Reader *r, const Operand *o) {
    if (!o->is_int)
        return o->id;
    return const_int(r->f, fits_i32(o->i) ? DT_I32 : DT_I64, o->i);
}

/* A literal in a place of type t (a carried value, a yield). */
static ValId typed_const(Reader *r, const Operand *o, Type t) {
    if (o->is_int && !t.rank && !t.is_ptr && (t.dtype == DT_I64 || t.dtype == DT_I32) &&
        (t.dtype == DT_I64 || fits_i32(o->i)))
        return const_int(r->f, (DType)t.dtype, o->i);
    return default_const(r, o);
}

/* Does the op type as rt with these operands?  Asked on a scratch Ctx, so
 * that a failed try records nothing. */
static bool types_as(Reader *r, OpCode code, const ValId *args, int n, Type rt) {
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
static void resolve_literals(Reader *r, OpCode code, const Operand *ops, int n,
                             ValId *args, bool has_result, Type rt) {
    bool narrowed = false;
    for (int i = 0; i < n; i++) {
        args[i] = default_const(r, &ops[i]);
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
};

/* A string as ir_print_string writes it: "..." with \\, \" and \xNN. */
static int string_value(Reader *r, const char **out) {
    skip_space(r);
    Loc loc = here(r);
    if (peek(r) != '"')
        return expected(r, "a quoted string");
    r->p++;
    StrBuf sb;
    sb_init(&sb);
    int rc = 0;
    for (;;) {
        int ch = peek(r);
        if (ch == -1 || ch == '\n') {
            rc = rerr(r, loc, MT_ERR_SYNTAX, "unterminated string");
            break;
        }
        r->p++;
        if (ch == '"')
            break;
        if (ch == '\\') {
            int e = peek(r);
            unsigned v = 0;
            if (e == 'x' && sscanf(r->p + 1, "%2x", &v) == 1 && isxdigit(peek_at(r, 1)) &&
                isxdigit(peek_at(r, 2)) && v) {
                r->p += 3;
                ch = (int)v;
            } else if (e == '"' || e == '\\') {
                r->p++;
                ch = e;
            } else {
                rc = rerr(r, here(r), MT_ERR_SYNTAX, "bad escape in a string");
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
static int attr_pair(Reader *r, int64_t attr[2], const char *str[2], StrBuf *canon) {
    Loc loc;
    int len;
    const char *s = need_ident(r, "an attribute name", &len, &loc);
    if (!s)
        return -1;
    const struct AttrKey *k = NULL;
    for (size_t i = 0; i < sizeof attr_keys / sizeof attr_keys[0]; i++)
        if (is_word(s, len, attr_keys[i].name))
            k = &attr_keys[i];
    if (!k)
        return rerr(r, loc, MT_ERR_SYNTAX, "unknown attribute '%.*s'", len, s);
    if (expect(r, '=') < 0)
        return -1;
    sb_printf(canon, "%s=", k->name);
    skip_space(r);
    int64_t v = 0;
    switch (k->kind) {
    case AV_INT:
        if (integer(r, &v) < 0)
            return -1;
        sb_printf(canon, "%lld", (long long)v);
        break;
    case AV_ENUM: {
        const AttrInfo *ai = &attr_info[k->schema];
        s = ident(r, &len);
        if (!s && integer(r, &v) < 0)
            return -1;
        for (int p = 0; s && p < ai->nvalues; p++)
            if (is_word(s, len, ai->values[p])) {
                v = p;
                s = NULL;
            }
        if (s)
            return rerr(r, loc, MT_ERR_SYNTAX, "unknown %s '%.*s'", k->name, len, s);
        if (v >= 0 && v < ai->nvalues)
            sb_puts(canon, ai->values[v]);
        else
            sb_printf(canon, "%lld", (long long)v);
        break;
    }
    case AV_SHAPE: {
        if (expect(r, '(') < 0)
            return -1;
        sb_putc(canon, '(');
        int n = 0;
        while (!accept(r, ')')) {
            if (n == MT_MAX_RANK)
                return rerr(r, loc, MT_ERR_SYNTAX, "a shape has at most %d dims",
                            MT_MAX_RANK);
            if (integer(r, &v) < 0)
                return -1;
            sb_printf(canon, n++ ? ", %lld" : "%lld", (long long)v);
            if (!accept(r, ',') && (skip_space(r), peek(r) != ')'))
                return expected(r, "',' or ')'");
        }
        sb_puts(canon, n == 1 ? ",)" : ")");
        break;
    }
    case AV_DTYPE: {
        DType d;
        s = ident(r, &len);
        if (!s || !dtype_named(s, len, &d))
            return expected(r, "a dtype (bool, i32, i64, f32)");
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
static int attr_dict(Reader *r, int64_t attr[2], const char *str[2], StrBuf *canon) {
    if (!accept(r, '{'))
        return 0;
    sb_puts(canon, " {");
    for (int n = 0; !accept(r, '}'); n++) {
        if (n && expect(r, ',') < 0)
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
static int check_attrs(Reader *r, const Op *op, const StrBuf *canon) {
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
        rc = rerr(r, op->loc, MT_ERR_SYNTAX,
                  "'%s'%s%s has attributes %s, not %s", op_info[op->code].name,
                  op->nres ? " : " : "", sb_str(&ty), *w ? w + 1 : "{}",
                  *g ? g + 1 : "{}");
        sb_free(&ty);
    }
    sb_free(&want);
    return rc;
}

/* ---------------------------------------------------------------- ops */

static int parse_region(Reader *r, Region *body, int depth, bool in_loop);

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
static int result_names(Reader *r, DefNames *rn) {
    memset(rn, 0, sizeof *rn);
    skip_space(r);
    if (peek(r) != '%')
        return 0;
    do {
        DefName d;
        if (def_name(r, &d.s, &d.len, &d.loc) < 0)
            return -1;
        VEC_PUSH(r->f->arena, rn->v, rn->n, rn->cap, d);
    } while (accept(r, ','));
    return expect(r, '=');
}

/* Loop operands (bounds, inits, yields) are values, never none. */
static int not_none(Reader *r, const Operand *o) {
    if (!o->id && !o->is_int)
        return rerr(r, o->loc, MT_ERR_SYNTAX, "'none' is not a value here");
    return 0;
}

static int loop_operand(Reader *r, Operand *o) {
    return operand(r, o) < 0 ? -1 : not_none(r, o);
}

/* "<term> v, ..." then "}", closing a region that gives n values of the
 * given types into out (term: "yield", or a while's "condition"). */
static int parse_terminator(Reader *r, const char *term, ValId *out, const Type *types,
                            int n) {
    Loc loc = here(r);
    Operand *ys;
    int ny;
    if (expect_word(r, term) < 0 || operand_list(r, &ys, &ny) < 0)
        return -1;
    if (ny != n)
        return rerr(r, loc, MT_ERR_SYNTAX, "%s gives %d values, the op expects %d", term,
                    ny, n);
    for (int k = 0; k < n; k++) {
        if (not_none(r, &ys[k]) < 0)
            return -1;
        out[k] = typed_const(r, &ys[k], types[k]);
    }
    if (expect_eol(r) < 0)
        return -1;
    skip_blank_lines(r);
    if (expect(r, '}') < 0)
        return -1;
    /* "} else {" and "} do {" continue the op on the same line */
    skip_space(r);
    if (peek_word(r, "else") || peek_word(r, "do"))
        return 0;
    return expect_eol(r);
}

/* The carried values of a for or while: "(%x = v, ...) : T, ..." when
 * present (for writes "iter_args" before it), their inits typed. */
typedef struct Carries {
    DefNames args;
    ValId *inits;
    Type *types;
    int n;
} Carries;

static int parse_carries(Reader *r, bool present, const DefNames *rn, const char *what,
                         Loc loc, Carries *cs) {
    memset(cs, 0, sizeof *cs);
    Operand *inits = NULL;
    int ninit = 0, capinit = 0, ntypes = 0, captypes = 0;
    if (present) {
        if (expect(r, '(') < 0)
            return -1;
        do {
            DefName d;
            Operand o;
            if (def_name(r, &d.s, &d.len, &d.loc) < 0 || expect(r, '=') < 0 ||
                loop_operand(r, &o) < 0)
                return -1;
            VEC_PUSH(r->f->arena, cs->args.v, cs->args.n, cs->args.cap, d);
            VEC_PUSH(r->f->arena, inits, ninit, capinit, o);
        } while (accept(r, ','));
        if (expect(r, ')') < 0 || expect(r, ':') < 0)
            return -1;
        do {
            Type t;
            if (parse_type(r, &t) < 0)
                return -1;
            VEC_PUSH(r->f->arena, cs->types, ntypes, captypes, t);
        } while (accept(r, ','));
    }
    if (ntypes != ninit)
        return rerr(r, loc, MT_ERR_SYNTAX, "%d carried values but %d types", ninit, ntypes);
    if (rn->n != ninit)
        return rerr(r, loc, MT_ERR_SYNTAX, "'%s' has %d results but carries %d values", what,
                    rn->n, ninit);
    cs->n = ninit;
    cs->inits = arena_alloc(r->f->arena, sizeof(ValId) * (size_t)(ninit + 1));
    for (int k = 0; k < ninit; k++)
        cs->inits[k] = typed_const(r, &inits[k], cs->types[k]);
    return 0;
}

/* The printed carried types are the truth (the verifier compares the
 * inits with them); the carried names are defined in the loop's scope. */
static int define_carries(Reader *r, Op *op, const Carries *cs) {
    for (int k = 0; k < cs->n; k++) {
        val(r->f, op->iters[k])->type = val(r->f, op->res[k])->type = cs->types[k];
        if (name_define(r, cs->args.v[k].s, cs->args.v[k].len, cs->args.v[k].loc,
                        op->iters[k]) < 0)
            return -1;
    }
    return 0;
}

static int define_results(Reader *r, Op *op, const DefNames *rn) {
    for (int k = 0; k < op->nres; k++)
        if (name_define(r, rn->v[k].s, rn->v[k].len, rn->v[k].loc, op->res[k]) < 0)
            return -1;
    return 0;
}

/* for %i [: i64] in range(a, b, c) [iter_args(%x = v, ...) : T, ...] { body } */
static int parse_for(Reader *r, Region *region, const DefNames *rn, Loc loc,
                     int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rerr(r, loc, MT_ERR_SYNTAX, "loops nested deeper than %d",
                    MAX_LOOP_DEPTH);
    const char *is;
    int ilen;
    Loc iloc;
    Operand b[3];
    Type itype = type_scalar(DT_I32);
    if (def_name(r, &is, &ilen, &iloc) < 0 || (accept(r, ':') && parse_type(r, &itype) < 0) ||
        expect_word(r, "in") < 0 || expect_word(r, "range") < 0 || expect(r, '(') < 0)
        return -1;
    for (int i = 0; i < 3; i++)
        if ((i && expect(r, ',') < 0) || loop_operand(r, &b[i]) < 0)
            return -1;
    if (expect(r, ')') < 0)
        return -1;
    Carries cs;
    if (parse_carries(r, accept_word(r, "iter_args"), rn, "for", loc, &cs) < 0 ||
        expect(r, '{') < 0 || expect_eol(r) < 0)
        return -1;
    ValId bound[3];
    for (int i = 0; i < 3; i++)
        bound[i] = typed_const(r, &b[i], itype);
    Op *op = op_new_for(r->f, region, loc, bound[0], bound[1], bound[2], cs.inits, cs.n);
    val(r->f, op->index)->type = itype;
    int mark = r->nnames;
    if (name_define(r, is, ilen, iloc, op->index) < 0 || define_carries(r, op, &cs) < 0 ||
        parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, cs.types, cs.n) < 0)
        return -1;
    close_scope(r, mark);
    return define_results(r, op, rn);
}

/* %r, ... = if %c [-> (T, ...)] { ...; yield ... } else { ...; yield ... } */
static int parse_if(Reader *r, Region *region, const DefNames *rn, Loc loc, int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    Operand c;
    Type *types = NULL;
    int ntypes = 0, captypes = 0;
    if (loop_operand(r, &c) < 0)
        return -1;
    if (accept(r, '-')) {
        if (expect(r, '>') < 0 || expect(r, '(') < 0)
            return -1;
        do {
            Type t;
            if (parse_type(r, &t) < 0)
                return -1;
            VEC_PUSH(r->f->arena, types, ntypes, captypes, t);
        } while (accept(r, ','));
        if (expect(r, ')') < 0)
            return -1;
    }
    if (rn->n != ntypes)
        return rerr(r, loc, MT_ERR_SYNTAX, "'if' has %d results but %d types", rn->n, ntypes);
    if (expect(r, '{') < 0 || expect_eol(r) < 0)
        return -1;
    Op *op = op_new_if(r->f, region, loc, typed_const(r, &c, type_scalar(DT_I1)), types,
                       ntypes);
    int mark = r->nnames;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, types, ntypes) < 0)
        return -1;
    close_scope(r, mark);
    if (expect_word(r, "else") < 0 || expect(r, '{') < 0 || expect_eol(r) < 0)
        return -1;
    /* "} else {" shares a line: parse_terminator consumed "}" and the eol */
    if (parse_region(r, op->alt, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->alt_yields, types, ntypes) < 0)
        return -1;
    close_scope(r, mark);
    return define_results(r, op, rn);
}

/* %r, ... = while [(%x = v, ...) : T, ...] { ...; condition %c } do {
 * ...; yield ... } */
static int parse_while(Reader *r, Region *region, const DefNames *rn, Loc loc, int depth) {
    if (depth >= MAX_LOOP_DEPTH)
        return rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    Carries cs;
    skip_space(r);
    if (parse_carries(r, peek(r) == '(', rn, "while", loc, &cs) < 0 ||
        expect(r, '{') < 0 || expect_eol(r) < 0)
        return -1;
    Op *op = op_new_while(r->f, region, loc, cs.inits, cs.n);
    int mark = r->nnames;
    Type i1 = type_scalar(DT_I1);
    if (define_carries(r, op, &cs) < 0 || parse_region(r, op->alt, depth + 1, true) < 0 ||
        parse_terminator(r, "condition", op->alt_yields, &i1, 1) < 0)
        return -1;
    int inner = r->nnames;
    if (expect_word(r, "do") < 0 || expect(r, '{') < 0 || expect_eol(r) < 0)
        return -1;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, cs.types, cs.n) < 0)
        return -1;
    close_scope(r, inner);
    close_scope(r, mark);
    return define_results(r, op, rn);
}

/* tlscan.c's reduce and scan: "%r, ... = reduce %x, ... {axis=0}
 * combine(%a, ..., %b, ...) : T, ... {" body "yield %y, ..." "}" */
static int parse_combine(Reader *r, Region *region, const DefNames *rn, OpCode code,
                         Loc loc, int depth) {
    const char *name = op_info[code].name;
    if (depth >= MAX_LOOP_DEPTH)
        return rerr(r, loc, MT_ERR_SYNTAX, "regions nested deeper than %d", MAX_LOOP_DEPTH);
    Operand *ops;
    int n;
    int64_t attr[2] = {0, 0};
    StrBuf canon;
    sb_init(&canon);
    DefNames params;
    memset(&params, 0, sizeof params);
    Type types[MT_MAX_COMBINE], elems[MT_MAX_COMBINE];
    int ntypes = 0, rc = -1;
    const char *str[2] = {NULL, NULL};
    if (operand_list(r, &ops, &n) < 0 || attr_dict(r, attr, str, &canon) < 0)
        goto done;
    if (n < 1 || n > MT_MAX_COMBINE || rn->n != n) {
        rerr(r, loc, MT_ERR_SYNTAX, "'%s' takes 1 to %d operands and defines one result "
             "per operand, got %d and %d", name, MT_MAX_COMBINE, n, rn->n);
        goto done;
    }
    if (expect_word(r, "combine") < 0 || expect(r, '(') < 0)
        goto done;
    do {
        DefName d;
        if (def_name(r, &d.s, &d.len, &d.loc) < 0)
            goto done;
        VEC_PUSH(r->f->arena, params.v, params.n, params.cap, d);
    } while (accept(r, ','));
    if (expect(r, ')') < 0 || expect(r, ':') < 0)
        goto done;
    do {
        if (ntypes == n) {
            rerr(r, here(r), MT_ERR_SYNTAX, "'%s' has %d results", name, n);
            goto done;
        }
        if (parse_type(r, &types[ntypes]) < 0)
            goto done;
        ntypes++;
    } while (accept(r, ','));
    if (params.n != 2 * n || ntypes != n) {
        rerr(r, loc, MT_ERR_SYNTAX, "'%s' of %d operands has %d combine parameters and "
             "%d result types, expected %d and %d", name, n, params.n, ntypes, 2 * n, n);
        goto done;
    }
    if (expect(r, '{') < 0 || expect_eol(r) < 0)
        goto done;
    ValId args[MT_MAX_COMBINE];
    for (int k = 0; k < n; k++) {
        if (not_none(r, &ops[k]) < 0)
            goto done;
        args[k] = default_const(r, &ops[k]);
        elems[k] = type_elem(val_type(r->f, args[k]));
    }
    Op *op = op_new_combine(r->f, region, code, loc, args, n, attr[0], attr[1]);
    for (int k = 0; k < n; k++) /* the printed types are the truth */
        val(r->f, op->res[k])->type = types[k];
    if (check_attrs(r, op, &canon) < 0)
        goto done;
    int mark = r->nnames;
    for (int k = 0; k < 2 * n; k++)
        if (name_define(r, params.v[k].s, params.v[k].len, params.v[k].loc, op->iters[k]) < 0)
            goto done;
    if (parse_region(r, op->body, depth + 1, true) < 0 ||
        parse_terminator(r, "yield", op->yields, elems, n) < 0)
        goto done;
    close_scope(r, mark);
    for (int k = 0; k < n; k++)
        if (name_define(r, rn->v[k].s, rn->v[k].len, rn->v[k].loc, op->res[k]) < 0)
            goto done;
    rc = 0;
done:
    sb_free(&canon);
    return rc;
}

static int op_code(Reader *r, const char *s, int len, Loc loc, OpCode *out) {
    for (int c = 0; c < OP_COUNT; c++)
        if (!(op_info[c].flags & F_REGION) && is_word(s, len, op_info[c].name)) {
            *out = (OpCode)c;
            return 0;
        }
    return rerr(r, loc, MT_ERR_NAME, "unknown op '%.*s'", len, s);
}

/* %r = name operands [{attrs}] : type      (store: no result, no type) */
static int parse_op(Reader *r, Region *region, int depth) {
    DefNames rn;
    if (result_names(r, &rn) < 0)
        return -1;
    Loc loc;
    int len;
    const char *s = need_ident(r, "an op name", &len, &loc);
    if (!s)
        return -1;
    if (is_word(s, len, "for"))
        return parse_for(r, region, &rn, loc, depth);
    if (is_word(s, len, "if"))
        return parse_if(r, region, &rn, loc, depth);
    if (is_word(s, len, "while"))
        return parse_while(r, region, &rn, loc, depth);
    OpCode code = OP_COUNT;
    if (is_word(s, len, "yield"))
        return rerr(r, loc, MT_ERR_SYNTAX, "'yield' outside a loop body");
    if (op_code(r, s, len, loc, &code) < 0)
        return -1;
    if (code < OP_COUNT && op_info[code].rule == R_COMBINE)
        return parse_combine(r, region, &rn, code, loc, depth);
    const OpInfo *oi = &op_info[code];
    bool has_result = op_has_result(code);
    if (!has_result && rn.n)
        return rerr(r, loc, MT_ERR_SYNTAX, "'%s' has no result", oi->name);
    if (has_result && rn.n != 1)
        return rerr(r, loc, MT_ERR_SYNTAX, "'%s' defines one result, got %d",
                    oi->name, rn.n);
    Operand *ops;
    int n;
    int64_t attr[2] = {0, 0};
    const char *str[2] = {NULL, NULL};
    StrBuf canon;
    sb_init(&canon);
    if (operand_list(r, &ops, &n) < 0 || attr_dict(r, attr, str, &canon) < 0) {
        sb_free(&canon);
        return -1;
    }
    Type rt = type_scalar(DT_VOID);
    int rc = 0;
    if (has_result && (expect(r, ':') < 0 || parse_type(r, &rt) < 0))
        rc = -1;
    else if (expect_eol(r) < 0)
        rc = -1;
    else if (oi->nargs >= 0 && n != oi->nargs)
        rc = rerr(r, loc, MT_ERR_SYNTAX, "'%s' takes %d operands, got %d", oi->name,
                  oi->nargs, n);
    if (rc == 0) {
        /* a variable count (print): its own operands, literals as printed */
        ValId fixed[3], *args = fixed;
        if (oi->nargs < 0) {
            args = arena_alloc(r->f->arena, sizeof(ValId) * (size_t)(n ? n : 1));
            for (int i = 0; i < n; i++)
                args[i] = default_const(r, &ops[i]);
        } else {
            resolve_literals(r, code, ops, n, args, has_result, rt);
        }
        Op *op = op_new(r->f, region, code, loc, rt, args, n);
        op->attr[0] = attr[0];
        op->attr[1] = attr[1];
        op->str[0] = str[0];
        op->str[1] = str[1];
        rc = check_attrs(r, op, &canon);
        if (rc == 0 && has_result)
            rc = name_define(r, rn.v[0].s, rn.v[0].len, rn.v[0].loc, op->res[0]);
    }
    sb_free(&canon);
    return rc;
}

/* Ops up to the closing '}' (function body) or the terminator ("yield",
 * or "condition" ending a while's condition region), which the caller
 * reads. */
static int parse_region(Reader *r, Region *body, int depth, bool in_loop) {
    for (;;) {
        skip_blank_lines(r);
        int ch = peek(r);
        if (ch == -1)
            return expected(r, in_loop ? "'yield'" : "'}'");
        if (ch == '}') {
            if (in_loop)
                return expected(r, "'yield' before the region's '}'");
            return 0;
        }
        if (in_loop && (peek_word(r, "yield") || peek_word(r, "condition")))
            return 0;
        if (parse_op(r, body, depth) < 0)
            return -1;
    }
}

/* ---------------------------------------------------------------- header */

static bool reserved_name(const char *s, int len) {
    static const char *const words[] = {"none", "True", "False", "inf", "nan"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (is_word(s, len, words[i]))
            return true;
    return false;
}

/* name: type[:hint] */
static int parse_param(Reader *r) {
    Loc loc;
    int len;
    const char *s = need_ident(r, "a parameter name", &len, &loc);
    if (!s)
        return -1;
    if (reserved_name(s, len))
        return rerr(r, loc, MT_ERR_SYNTAX,
                    "parameter name '%.*s' reads as a constant", len, s);
    for (int i = 0; i < r->f->nparams; i++)
        if (is_word(s, len, val(r->f, r->f->params[i])->name))
            return rerr(r, loc, MT_ERR_NAME, "duplicate parameter '%.*s'", len, s);
    Type t;
    if (expect(r, ':') < 0)
        return -1;
    skip_space(r);
    Loc tloc = here(r);
    if (parse_type(r, &t) < 0)
        return -1;
    if (t.rank)
        return rerr(r, tloc, MT_ERR_SYNTAX,
                    "a parameter is a scalar or a pointer, not a block");
    char *name = arena_strndup(r->f->arena, s, (size_t)len);
    ValId v = func_add_param(r->f, name, t);
    if (accept(r, ':')) {
        skip_space(r);
        Loc hloc = here(r);
        int64_t h;
        if (integer(r, &h) < 0)
            return -1;
        /* sig.c's rule: the emitter trusts the hint for alignment */
        if (h < 1 || h > (1 << 30) || (h & (h - 1)))
            return rerr(r, hloc, MT_ERR_SYNTAX,
                        "divisibility hint must be a power of two up to 2^30");
        val(r->f, v)->divisibility = (int32_t)h;
    }
    return 0;
}

/* attributes {num_warps=N[, num_stages=S]} */
static int func_attrs(Reader *r) {
    if (!accept_word(r, "attributes"))
        return 0;
    if (expect(r, '{') < 0)
        return -1;
    for (int n = 0; !accept(r, '}'); n++) {
        if (n && expect(r, ',') < 0)
            return -1;
        Loc loc;
        int len;
        const char *s = need_ident(r, "'num_warps'", &len, &loc);
        if (!s)
            return -1;
        bool stages = is_word(s, len, "num_stages");
        if (!stages && !is_word(s, len, "num_warps"))
            return rerr(r, loc, MT_ERR_SYNTAX, "unknown function attribute '%.*s'",
                        len, s);
        int64_t w;
        if (expect(r, '=') < 0)
            return -1;
        skip_space(r);
        loc = here(r);
        if (integer(r, &w) < 0)
            return -1;
        if (stages) {
            if (w < 1 || w > MT_MAX_STAGES)
                return rerr(r, loc, MT_ERR_SYNTAX, "num_stages must be from 1 to %d",
                            MT_MAX_STAGES);
            r->f->num_stages = (int)w;
            continue;
        }
        if (w < 1 || w > 32 || (w & (w - 1)))
            return rerr(r, loc, MT_ERR_SYNTAX,
                        "num_warps must be a power of two from 1 to 32");
        r->f->num_warps = (int)w;
    }
    return 0;
}

static Func *parse_func(Reader *r) {
    skip_blank_lines(r);
    if (expect_word(r, "func") < 0 || expect(r, '@') < 0)
        return NULL;
    int len;
    Loc loc;
    const char *s = need_ident(r, "the function name", &len, &loc);
    if (!s)
        return NULL;
    char *name = arena_strndup(r->c->arena, s, (size_t)len);
    r->f = func_new(r->c, name);
    if (expect(r, '(') < 0)
        return NULL;
    for (int n = 0; !accept(r, ')'); n++)
        if ((n && expect(r, ',') < 0) || parse_param(r) < 0)
            return NULL;
    if (func_attrs(r) < 0 || expect(r, '{') < 0 || expect_eol(r) < 0 ||
        parse_region(r, &r->f->body, 0, false) < 0 || expect(r, '}') < 0)
        return NULL;
    if (!at_eol(r)) {
        expected(r, "end of line");
        return NULL;
    }
    skip_blank_lines(r);
    if (peek(r) != -1) {
        rerr(r, here(r), MT_ERR_SYNTAX, "unexpected text after the function");
        return NULL;
    }
    return r->f;
}

Func *ir_parse(Ctx *c) {
    Reader r;
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
