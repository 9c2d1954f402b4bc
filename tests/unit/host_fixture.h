/* host_fixture.h: a host launch with stacks of its own, for unit tests
 * that hold a HostModule without an mt_context (the library keeps one
 * HostStacks per context). */
#ifndef MT_HOST_FIXTURE_H
#define MT_HOST_FIXTURE_H

#include "mt.h"

static inline int launch_host(Ctx *c, HostModule *m, const uint32_t grid[3], int threads,
                              void **args) {
    HostStacks *s = host_stacks_new();
    int rc = host_launch(c, s, m, grid, threads, args);
    host_stacks_free(s);
    return rc;
}

#endif
