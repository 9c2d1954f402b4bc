/* sig.c: Triton's ahead-of-time signature syntax.
 *
 * Input: "*fp32, *fp32:16, i32, 256, -1.5, True, 'ieee'": one entry per
 * kernel parameter, in order.  A type (optionally with a ":16"/":1"
 * hint, recorded in SigEntry.hint: the pointer's address in bytes, or the
 * integer's value, is a multiple of it; as in Triton, ":1" on an integer
 * says more, the value is 1, and the compiler folds it) is a runtime parameter; a
 * literal is the value of a tl.constexpr parameter.  Output: an arena array
 * of SigEntry; "tensordesc<fp16[64, 64]>" is a tensor descriptor made on
 * the host (SigEntry's SIG_DESC), as Triton spells its type.  Errors point
 * into the signature string itself: while
 * parsing, the Ctx's file and source are swapped for "<signature>" and the
 * signature text so the caret lands under the bad entry. */
#include "mt.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Triton's spellings (dtype_info's short names: fp16, bf16, u8, fp8e4nv)
 * plus the IR's names for the float types and int1, which the first API
 * accepted. */
static bool lookup_type(const char *s, size_t n, DType *out) {
    for (int d = DT_I1; d < DT_COUNT; d++) {
        const char *a = dtype_info[d].short_name, *b = dtype_info[d].name;
        if ((strlen(a) == n && !strncmp(a, s, n)) ||
            (dtype_is_float((DType)d) && strlen(b) == n && !strncmp(b, s, n))) {
            *out = (DType)d;
            return true;
        }
    }
    if (n == 4 && !strncmp(s, "int1", 4)) {
        *out = DT_I1;
        return true;
    }
    return false;
}

/* The end of the literal that starts at p: the next ',' or ')' outside
 * quotes and parentheses (the end of text if none). */
static const char *literal_end(const char *p) {
    int depth = 0;
    char quote = 0;
    for (; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == quote)
                quote = 0;
        } else if (*p == '\'' || *p == '"') {
            quote = *p;
        } else if (*p == '(') {
            depth++;
        } else if ((*p == ')' || *p == ',') && depth == 0) {
            break;
        } else if (*p == ')') {
            depth--;
        }
    }
    return p;
}

/* "(4, 8)", "(2,)", "()": a tuple of literals, as Python writes one. */
static int parse_tuple_literal(const char *text, size_t n, ConstVal *out, Arena *a) {
    out->kind = CK_TUPLE;
    const char *p = text + 1, *close = text + n - 1;
    ConstVal *items = NULL;
    int count = 0, cap = 0;
    while (p < close) {
        while (p < close && (*p == ' ' || *p == '\t'))
            p++;
        if (p == close)
            break;
        const char *e = literal_end(p);
        if (e > close)
            return -1;
        const char *t = e;
        while (t > p && (t[-1] == ' ' || t[-1] == '\t'))
            t--;
        if (t == p)
            return -1;
        ConstVal item;
        if (sig_parse_literal(arena_strndup(a, p, (size_t)(t - p)), &item, a) < 0)
            return -1;
        VEC_PUSH(a, items, count, cap, item);
        p = e < close ? e + 1 : e;
    }
    /* "(4)" is a number in parentheses to Python, not a tuple */
    if (count == 1 && !memchr(text, ',', n))
        return -1;
    out->items = items;
    out->n = count;
    return 0;
}

/* Parses one literal (the whole of text).  Returns 0 or -1. */
int sig_parse_literal(const char *text, ConstVal *out, Arena *a) {
    memset(out, 0, sizeof *out);
    size_t n = strlen(text);
    if (n == 0)
        return -1;
    if (text[0] == '(' && text[n - 1] == ')' && literal_end(text + 1) <= text + n - 1)
        return parse_tuple_literal(text, n, out, a);
    if (!strcmp(text, "True") || !strcmp(text, "False")) {
        out->kind = CK_BOOL;
        out->i = text[0] == 'T';
        return 0;
    }
    if (!strcmp(text, "None")) {
        out->kind = CK_NONE;
        return 0;
    }
    if (!strncmp(text, "tl.", 3) && n > 3) { /* a dtype: tl.float32 */
        for (const char *q = text + 3; *q; q++)
            if (!isalnum((unsigned char)*q) && *q != '_')
                return -1;
        out->kind = CK_DTYPE;
        out->s = arena_strdup(a, text + 3);
        return 0;
    }
    if ((text[0] == '\'' || text[0] == '"') && n >= 2 && text[n - 1] == text[0]) {
        out->kind = CK_STR;
        out->s = arena_strndup(a, text + 1, n - 2);
        return 0;
    }
    const char *p = text;
    if (*p == '-' || *p == '+')
        p++;
    if (!strcmp(p, "inf") || !strcmp(p, "nan")) {
        out->kind = CK_FLOAT;
        out->f = p[0] == 'i' ? INFINITY : NAN;
        if (text[0] == '-')
            out->f = -out->f;
        return 0;
    }
    if (!*p || !(isdigit((unsigned char)*p) || *p == '.'))
        return -1;
    bool is_float = strpbrk(p, ".eE") != NULL;
    char *end;
    errno = 0;
    if (is_float) {
        out->kind = CK_FLOAT;
        out->f = strtod(text, &end);
    } else {
        out->kind = CK_INT;
        out->i = strtoll(text, &end, 10);
    }
    if (*end || errno == ERANGE)
        return -1;
    return 0;
}

static int sig_error(Ctx *c, const char *sig, const char *at, const char *fmt,
                     const char *arg, int len) {
    const char *file = c->filename, *src = c->src;
    size_t srclen = c->srclen;
    c->filename = "<signature>";
    c->src = sig;
    c->srclen = strlen(sig);
    Loc loc = {1, (int32_t)(at - sig) + 1};
    diag_error(c, loc, MT_ERR_SIGNATURE, fmt, len, arg);
    c->filename = file;
    c->src = src;
    c->srclen = srclen;
    return -1;
}

/* "tensordesc<fp16[64, 64]>" or "tensordesc<fp32[8, 32],nan>" in
 * [start, end): a descriptor of 1 to 5 dims of powers of two. */
static int parse_desc(Ctx *c, const char *sig, const char *start, const char *end,
                      SigEntry *e) {
    const char *t = start + strlen("tensordesc<"), *lb = memchr(t, '[', (size_t)(end - t));
    const char *bad = "malformed tensor descriptor '%.*s' (expected tensordesc<fp16[64, 64]>)";
    if (!lb || end[-1] != '>' || !lookup_type(t, (size_t)(lb - t), (DType *)&e->dtype))
        return sig_error(c, sig, start, bad, start, (int)(end - start));
    const char *q = lb + 1;
    int r = 0;
    for (;;) {
        while (*q == ' ')
            q++;
        if (!isdigit((unsigned char)*q) || r == 5)
            return sig_error(c, sig, start, bad, start, (int)(end - start));
        int64_t d = 0;
        while (isdigit((unsigned char)*q) && d <= (1 << 30))
            d = d * 10 + (*q++ - '0');
        if (d < 1 || d > (1 << 30) || (d & (d - 1)))
            return sig_error(c, sig, start,
                             "tensor descriptor block dims must be powers of two in '%.*s'",
                             start, (int)(end - start));
        e->desc_block[r++] = (int32_t)d;
        while (*q == ' ')
            q++;
        if (*q == ']')
            break;
        if (*q++ != ',')
            return sig_error(c, sig, start, bad, start, (int)(end - start));
    }
    const char *rest = q + 1;
    size_t nrest = (size_t)(end - 1 - rest);
    if (nrest == 4 && !strncmp(rest, ",nan", 4))
        e->desc_nan = 1;
    else if (nrest && !(nrest == 5 && !strncmp(rest, ",zero", 5)))
        return sig_error(c, sig, start, bad, start, (int)(end - start));
    e->kind = SIG_DESC;
    e->desc_rank = (uint8_t)r;
    return 0;
}

int sig_parse(Ctx *c, const char *sig, SigEntry **out, int *n) {
    SigEntry *v = NULL;
    int nv = 0, cap = 0;
    const char *p = sig;
    *out = NULL;
    *n = 0;
    if (!sig)
        return diag_error(c, (Loc){0, 0}, MT_ERR_SIGNATURE, "no signature given");
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        const char *start = p;
        char quote = 0;
        int depth = 0; /* inside tensordesc<...[...]> */
        while (*p && (quote || depth || *p != ',')) {
            if (quote && *p == quote)
                quote = 0;
            else if (!quote && (*p == '\'' || *p == '"'))
                quote = *p;
            else if (!quote && (*p == '<' || *p == '[' || *p == '('))
                depth++;
            else if (!quote && (*p == '>' || *p == ']' || *p == ')') && depth)
                depth--;
            p++;
        }
        if (quote)
            return sig_error(c, sig, start, "unterminated string in signature entry '%.*s'",
                             start, (int)(p - start));
        const char *end = p;
        while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
            end--;
        if (end == start) {
            if (!*p && nv == 0)
                break; /* empty signature: a kernel without parameters */
            return sig_error(c, sig, start, "empty signature entry%.*s", "", 0);
        }
        SigEntry e;
        memset(&e, 0, sizeof e);
        if ((size_t)(end - start) > strlen("tensordesc<") &&
            !strncmp(start, "tensordesc<", strlen("tensordesc<"))) {
            if (parse_desc(c, sig, start, end, &e) < 0)
                return -1;
            VEC_PUSH(c->arena, v, nv, cap, e);
            if (!*p)
                break;
            p++;
            continue;
        }
        const char *t = start;
        bool is_ptr = *t == '*';
        if (is_ptr)
            t++;
        /* Triton's "*kfp32": a pointer to constant data ("*k" before a type
         * name: no dtype starts with k) */
        if (is_ptr && *t == 'k') {
            e.is_const = true;
            t++;
        }
        const char *colon = memchr(t, ':', (size_t)(end - t));
        const char *tend = colon ? colon : end;
        DType d;
        if (lookup_type(t, (size_t)(tend - t), &d)) {
            if (colon) {
                const char *h = colon + 1;
                if (h == end)
                    return sig_error(c, sig, colon, "missing hint after ':' in '%.*s'",
                                     start, (int)(end - start));
                int64_t hv = 0;
                for (; h < end; h++) {
                    if (!isdigit((unsigned char)*h))
                        return sig_error(c, sig, colon,
                                         "specialisation hint must be a number in '%.*s'",
                                         start, (int)(end - start));
                    if (hv < (1 << 30))
                        hv = hv * 10 + (*h - '0');
                }
                /* the emitter trusts the hint for alignment: only powers
                 * of two up to 2^30 mean what they say */
                if (hv < 1 || hv > (1 << 30) || (hv & (hv - 1)))
                    return sig_error(c, sig, colon,
                                     "specialisation hint must be a power of two up to "
                                     "2^30 in '%.*s'",
                                     start, (int)(end - start));
                e.hint = (int32_t)hv;
            }
            e.kind = is_ptr ? SIG_PTR : SIG_SCALAR;
            e.dtype = d;
        } else if (is_ptr) {
            return sig_error(c, sig, start,
                             "unknown pointer type '%.*s' (expected *fp16, *fp32, *i32, *u8, *bf16, ...)",
                             start, (int)(end - start));
        } else {
            char *lit = arena_strndup(c->arena, start, (size_t)(end - start));
            if (sig_parse_literal(lit, &e.value, c->arena) < 0) {
                bool looks_type = isalpha((unsigned char)*start) && *start != 'T' &&
                                  *start != 'F' && *start != 'N';
                return sig_error(c, sig, start,
                                 looks_type ? "unknown type '%.*s' (expected fp32, i32, i64, i1, "
                                              "fp16, u8, ... or a pointer such as *fp32)"
                                            : "invalid constexpr literal '%.*s'",
                                 start, (int)(end - start));
            }
            e.kind = SIG_CONST;
        }
        VEC_PUSH(c->arena, v, nv, cap, e);
        if (!*p)
            break;
        p++; /* ',' */
    }
    *out = v;
    *n = nv;
    return 0;
}
