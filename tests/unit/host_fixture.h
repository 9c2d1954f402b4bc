/* host_fixture.h: a host launch with stacks of its own, for unit tests
 * that hold a HostModule without an mt_context (the library keeps one
 * HostStacks per context), and the Ctx such tests build and launch with. */
#ifndef MT_HOST_FIXTURE_H
#define MT_HOST_FIXTURE_H

#include <string.h>

#include "mt.h"

static inline void ctx_init(Ctx *c) {
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    c->filename = "kernel.py";
}

static inline void ctx_fini(Ctx *c) {
    arena_free(c->arena);
    sb_free(&c->err);
}

static inline int launch_host(Ctx *c, HostModule *m, const uint32_t grid[3], int threads,
                              void **args) {
    HostStacks *s = host_stacks_new();
    int rc = host_launch(c, s, m, grid, threads, args);
    host_stacks_free(s);
    return rc;
}

#endif
