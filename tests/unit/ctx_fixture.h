/* ctx_fixture.h: the cmocka fixture the IR-level unit tests share: a
 * compilation context (arena, file name "k.py", error buffer) in *state,
 * freed after each test. */
#ifndef MT_CTX_FIXTURE_H
#define MT_CTX_FIXTURE_H

#include <stdlib.h>

#include "mt.h"

static int setup(void **state) {
    Ctx *c = calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->arena = arena_new();
    c->filename = "k.py";
    sb_init(&c->err);
    *state = c;
    return 0;
}

static int teardown(void **state) {
    Ctx *c = *state;
    arena_free(c->arena);
    sb_free(&c->err);
    free(c);
    return 0;
}

#endif
