/* util.c: the arena, growable text buffers, hashing and float formatting
 * every stage uses.
 *
 * The arena is a list of chunks; allocations are zeroed and 16-byte
 * aligned and live until arena_free.  When an allocation fails and the
 * arena has an oom jump buffer (set by the API entry points), it jumps
 * there, so deep compiler code never checks for NULL; without one it
 * returns NULL.  StrBuf lives on the C heap because its text (results,
 * error messages) outlives the compilation arena. */
#include "mt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaChunk {
    ArenaChunk *next;
    size_t used, cap;
    _Alignas(16) unsigned char data[];
};

#define ARENA_CHUNK 65536

Arena *arena_new(void) {
    Arena *a = calloc(1, sizeof *a);
    return a;
}

void arena_free(Arena *a) {
    if (!a)
        return;
    ArenaChunk *c = a->head;
    while (c) {
        ArenaChunk *next = c->next;
        free(c);
        c = next;
    }
    free(a);
}

void *arena_alloc(Arena *a, size_t size) {
    size = (size + 15) & ~(size_t)15;
    ArenaChunk *c = a->head;
    if (!c || c->cap - c->used < size) {
        size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;
        c = malloc(sizeof *c + cap);
        if (!c) {
            if (a->oom)
                longjmp(*a->oom, 1);
            return NULL;
        }
        c->used = 0;
        c->cap = cap;
        c->next = a->head;
        a->head = c;
    }
    void *p = c->data + c->used;
    c->used += size;
    memset(p, 0, size);
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n) {
    char *p = arena_alloc(a, n + 1);
    if (p) {
        memcpy(p, s, n);
        p[n] = 0;
    }
    return p;
}

char *arena_strdup(Arena *a, const char *s) {
    return arena_strndup(a, s, strlen(s));
}

char *arena_printf(Arena *a, const char *fmt, ...) {
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = arena_alloc(a, (size_t)(n < 0 ? 0 : n) + 1);
    if (p && n > 0)
        vsnprintf(p, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    return p;
}

void arena_grow(Arena *a, void **arr, int *cap, int need, size_t esz) {
    if (need <= *cap)
        return;
    int ncap = *cap ? *cap * 2 : 8;
    while (ncap < need)
        ncap *= 2;
    void *p = arena_alloc(a, (size_t)ncap * esz);
    if (!p)
        return;
    if (*arr && *cap)
        memcpy(p, *arr, (size_t)*cap * esz);
    *arr = p;
    *cap = ncap;
}

/* ---- StrBuf ---- */

void sb_init(StrBuf *sb) { memset(sb, 0, sizeof *sb); }

void sb_free(StrBuf *sb) {
    free(sb->data);
    memset(sb, 0, sizeof *sb);
}

void sb_clear(StrBuf *sb) {
    sb->len = 0;
    if (sb->data)
        sb->data[0] = 0;
    sb->failed = false;
}

static bool sb_reserve(StrBuf *sb, size_t extra) {
    if (sb->failed)
        return false;
    if (sb->len + extra + 1 <= sb->cap)
        return true;
    size_t ncap = sb->cap ? sb->cap * 2 : 256;
    while (ncap < sb->len + extra + 1)
        ncap *= 2;
    char *p = realloc(sb->data, ncap);
    if (!p) {
        sb->failed = true;
        return false;
    }
    sb->data = p;
    sb->cap = ncap;
    return true;
}

void sb_putn(StrBuf *sb, const char *s, size_t n) {
    if (!sb_reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = 0;
}

void sb_putc(StrBuf *sb, char c) { sb_putn(sb, &c, 1); }

void sb_puts(StrBuf *sb, const char *s) { sb_putn(sb, s, strlen(s)); }

void sb_vprintf(StrBuf *sb, const char *fmt, va_list ap) {
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    if (n > 0 && sb_reserve(sb, (size_t)n)) {
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap2);
        sb->len += (size_t)n;
    }
    va_end(ap2);
}

void sb_printf(StrBuf *sb, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    sb_vprintf(sb, fmt, ap);
    va_end(ap);
}

void sb_indent(StrBuf *sb, int n) {
    for (int i = 0; i < n; i++)
        sb_putc(sb, ' ');
}

void sb_vline(StrBuf *sb, int indent, const char *fmt, va_list ap) {
    sb_indent(sb, indent);
    sb_vprintf(sb, fmt, ap);
    sb_putc(sb, '\n');
}

const char *sb_str(StrBuf *sb) { return sb->data ? sb->data : ""; }

/* ---- hashing ---- */

uint64_t hash_bytes(uint64_t h, const void *p, size_t n) {
    const unsigned char *s = p;
    for (size_t i = 0; i < n; i++) {
        h ^= s[i];
        h *= 1099511628211ull;
    }
    return h;
}

/* ---- floats ---- */

/* Python's repr(float): the shortest digits that read back to the same
 * value, in exponent form when the decimal exponent is < -4 or >= 16
 * ("1e-05", "1e+20"), else positional with at least one fractional digit.
 * For an f32 constant the digits only have to read back to the same
 * float, so 0.1f prints "0.1", not "0.10000000149011612". */
static void format_repr(char buf[40], double v, bool as_f32) {
    if (isnan(v)) {
        strcpy(buf, "nan");
        return;
    }
    if (isinf(v)) {
        strcpy(buf, v < 0 ? "-inf" : "inf");
        return;
    }
    char digits[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(digits, sizeof digits, "%.*e", prec - 1, v);
        if (as_f32 ? strtof(digits, NULL) == (float)v : strtod(digits, NULL) == v)
            break;
    }
    /* digits = "[-]d.ddde[+-]XX" */
    const char *p = digits;
    bool neg = *p == '-';
    if (neg)
        p++;
    char mant[24];
    int nm = 0;
    for (; *p && *p != 'e' && nm < 23; p++)
        if (*p != '.')
            mant[nm++] = *p;
    while (nm > 1 && mant[nm - 1] == '0')
        nm--;
    mant[nm] = 0;
    int exp = *p == 'e' ? atoi(p + 1) : 0;
    char *o = buf;
    if (neg)
        *o++ = '-';
    if (exp < -4 || exp >= 16) {
        *o++ = mant[0];
        if (nm > 1) {
            *o++ = '.';
            for (int i = 1; i < nm; i++)
                *o++ = mant[i];
        }
        int mag = exp < 0 ? -exp : exp;
        snprintf(o, 8, "e%c%02d", exp < 0 ? '-' : '+', mag % 1000);
        return;
    }
    if (exp < 0) {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -exp - 1; i++)
            *o++ = '0';
        for (int i = 0; i < nm; i++)
            *o++ = mant[i];
    } else {
        for (int i = 0; i <= exp; i++)
            *o++ = i < nm ? mant[i] : '0';
        *o++ = '.';
        if (nm > exp + 1)
            for (int i = exp + 1; i < nm; i++)
                *o++ = mant[i];
        else
            *o++ = '0';
    }
    *o = 0;
}

void format_f32(char buf[32], float v) {
    char tmp[40];
    format_repr(tmp, (double)v, true);
    /* at most 9 digits, a sign, a point and "e-45": well under 32 */
    size_t n = strlen(tmp);
    memcpy(buf, tmp, n < 31 ? n + 1 : 31);
    buf[31] = 0;
}

void format_f64(char buf[40], double v) { format_repr(buf, v, false); }

int hex_value(int c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
