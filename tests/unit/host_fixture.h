/* host_fixture.h: a host launch with stacks of its own, for unit tests
 * that hold a HostModule without an mt_context (the library keeps one
 * HostStacks per context), and the Ctx such tests build and launch with. */
#ifndef MT_HOST_FIXTURE_H
#define MT_HOST_FIXTURE_H

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mt.h"

static inline int fixture_remove_entry(const char *path, const struct stat *st, int flag,
                                       struct FTW *ftw) {
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* A fresh directory for a suite under $TMPDIR, with root/cache as
 * MYTRITON_CACHE_DIR; 0, or -1 when it cannot be made. */
static inline int make_test_root(char *root, size_t rootsize, char *cache, size_t cachesize,
                                 const char *suite) {
    const char *tmp = getenv("TMPDIR");
    snprintf(root, rootsize, "%s/mt-test-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", suite);
    if (!mkdtemp(root))
        return -1;
    snprintf(cache, cachesize, "%s/cache", root);
    setenv("MYTRITON_CACHE_DIR", cache, 1);
    unsetenv("MYTRITON_HOST_CXX");
    return 0;
}

static inline void remove_test_root(const char *root) {
    nftw(root, fixture_remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

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
    int rc = host_launch(c, s, m, grid, threads, args, NULL, 0, NULL);
    host_stacks_free(s);
    return rc;
}

#endif
