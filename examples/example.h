/* example.h: what the example programs share: choosing the backend (the
 * GPU when one is present, the host backend otherwise), moving buffers,
 * and checking results against a C reference.  Uses only mytriton.h. */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../include/mytriton.h"

#define CHECK_MT(ctx, call)                                                    \
    do {                                                                       \
        if ((call) != MT_OK) {                                                 \
            fprintf(stderr, "%s:%d: %s failed:\n%s", __FILE__, __LINE__, #call, \
                    mt_errmsg(ctx));                                           \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static mt_backend pick_backend(mt_context *ctx) {
    const char *env = getenv("MYTRITON_BACKEND");
    if (env && !strcmp(env, "host"))
        return MT_BACKEND_HOST;
    if (env && !strcmp(env, "cuda"))
        return MT_BACKEND_CUDA;
    return mt_cuda_available(ctx) ? MT_BACKEND_CUDA : MT_BACKEND_HOST;
}

static const char *backend_name(mt_backend b) {
    return b == MT_BACKEND_CUDA ? "cuda" : "host";
}

/* A buffer on the backend filled from host data (or poisoned with NaN). */
static void *to_backend(mt_context *ctx, mt_backend b, const void *host, size_t bytes) {
    void *p;
    CHECK_MT(ctx, mt_malloc(ctx, b, bytes, &p));
    CHECK_MT(ctx, mt_memcpy(ctx, b, p, host, bytes, MT_MEMCPY_HOST_TO_DEVICE));
    return p;
}

static float *poisoned(size_t n) {
    float *p = malloc(n * sizeof *p);
    for (size_t i = 0; i < n; i++)
        p[i] = NAN;
    return p;
}

/* Deterministic pseudo-random floats in [-1, 1). */
static void fill_random(float *p, size_t n, unsigned seed) {
    unsigned s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        p[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
}

static int compare(const char *what, const float *got, const float *want, size_t n,
                   float rtol, float atol) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        float d = fabsf(got[i] - want[i]);
        if (!(d <= atol + rtol * fabsf(want[i]))) {
            if (bad < 5)
                fprintf(stderr, "%s: element %zu: got %g, want %g\n", what, i,
                        (double)got[i], (double)want[i]);
            bad++;
        }
    }
    if (bad)
        fprintf(stderr, "%s: %zu of %zu elements differ\n", what, bad, n);
    return bad ? 1 : 0;
}

#endif
