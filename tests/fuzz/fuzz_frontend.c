/* fuzz_frontend.c: libFuzzer target for lex.c / parse.c / ast.c.
 *
 * Input: arbitrary bytes taken as kernel source (no NUL terminator, may
 * contain NULs).  Indexes the module, then parses every top-level function
 * and constant and prints every AST into a buffer, clearing the recorded
 * error between items so that one failure does not hide later code.
 * Prints nothing; must be free of crashes, leaks, hangs and UB.
 *
 *   clang -std=c11 -g -O1 -D_GNU_SOURCE -Iinclude -Isrc \
 *     -fsanitize=fuzzer,address,undefined tests/fuzz/fuzz_frontend.c \
 *     src/util.c src/diag.c src/lex.c src/parse.c src/ast.c -o /tmp/fuzz_fe
 *   /tmp/fuzz_fe -max_total_time=60 -max_len=4096 CORPUS_COPY */
#include "mt.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void reset_error(Ctx *c) {
    c->status = MT_OK;
    c->err_loc.line = c->err_loc.col = 0;
    sb_clear(&c->err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* a private copy, so that reading past srclen is an ASan error */
    char *src = malloc(size ? size : 1);
    if (!src)
        return 0;
    if (size)
        memcpy(src, data, size);
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = arena_new();
    if (!c.arena) {
        free(src);
        return 0;
    }
    c.src = src;
    c.srclen = size;
    c.filename = "fuzz.py";
    sb_init(&c.err);
    Module *m = parse_module(&c);
    if (m) {
        StrBuf out;
        sb_init(&out);
        for (int i = 0; i < m->nfuncs; i++) {
            reset_error(&c);
            Node *fn = parse_function(&c, m, &m->funcs[i]);
            if (fn)
                ast_print(&out, fn);
            sb_clear(&out);
            /* a second call must return the cached tree */
            if (fn && parse_function(&c, m, &m->funcs[i]) != fn)
                abort();
        }
        for (int i = 0; i < m->nconsts; i++) {
            reset_error(&c);
            (void)parse_const_expr(&c, m, &m->consts[i]);
        }
        for (int i = 0; i < m->nfuncs; i++)
            (void)module_find_func(m, m->funcs[i].name);
        sb_free(&out);
    }
    arena_free(c.arena);
    sb_free(&c.err);
    free(src);
    return 0;
}
