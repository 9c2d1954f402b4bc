/* fuzz_irparse.c: libFuzzer target for irparse.c (and, through it, the
 * verifier, the passes and the printer).
 *
 * Input: arbitrary bytes taken as an .ir file (no NUL terminator, may
 * contain NULs).  When the reader accepts them, the printed function must
 * read back and print the same text, and so must the function after the
 * default passes.  A rejected input must leave a located diagnostic.
 * Prints nothing; must be free of crashes, leaks, hangs and UB.  Seeds:
 * the .ir files of tests/opt (make fuzz). */
#include "mt.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads text into a fresh context; the Func lives in *arena. */
static Func *read_text(const char *text, size_t n, Arena **arena, StrBuf *err) {
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = *arena = arena_new();
    if (!c.arena)
        return NULL;
    c.src = text;
    c.srclen = n;
    c.filename = "fuzz.ir";
    c.err = *err;
    Func *f = ir_parse(&c);
    *err = c.err;
    if (!f && (c.status == MT_OK || !err->len))
        abort(); /* a rejection without a diagnostic */
    if (f)
        f->ctx = NULL; /* c is gone; nothing below reports through it */
    return f;
}

/* print(parse(print(f))) == print(f); returns the text (malloc'ed). */
static char *check_fixed_point(Func *f) {
    StrBuf a, err;
    sb_init(&a);
    sb_init(&err);
    ir_print_func(&a, f);
    Arena *arena;
    Func *g = read_text(sb_str(&a), a.len, &arena, &err);
    if (!g)
        abort(); /* printed text the reader rejects */
    StrBuf b;
    sb_init(&b);
    ir_print_func(&b, g);
    if (strcmp(sb_str(&a), sb_str(&b)) != 0)
        abort();
    arena_free(arena);
    sb_free(&b);
    sb_free(&err);
    char *s = strdup(sb_str(&a));
    sb_free(&a);
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* a private copy, so that reading past srclen is an ASan error */
    char *src = malloc(size ? size : 1);
    if (!src)
        return 0;
    if (size)
        memcpy(src, data, size);
    StrBuf err;
    sb_init(&err);
    Arena *arena;
    Func *f = read_text(src, size, &arena, &err);
    if (f) {
        free(check_fixed_point(f));
        Ctx c;
        memset(&c, 0, sizeof c);
        c.arena = arena;
        sb_init(&c.err);
        f->ctx = &c;
        if (run_passes(f) == 0)
            free(check_fixed_point(f));
        sb_free(&c.err);
    }
    arena_free(arena);
    sb_free(&err);
    free(src);
    return 0;
}
