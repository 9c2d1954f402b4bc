/* demo.h: what the two routes of the AOT example share: the kernels'
 * signatures (examples/aot/Makefile reads them from here), the problem
 * sizes, the inputs, the C references and the comparison.  Both programs
 * compute the same three results: aot_demo.c through the files
 * `mytriton aot` wrote, jit_demo.c through the library at run time. */
#ifndef AOT_DEMO_H
#define AOT_DEMO_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The signatures, one line each (the Makefile greps them). */
#define SIG_ADD "*fp32:16, *fp32:16, *fp32:16, i32, 1024"
#define SIG_SOFTMAX "*fp32:16, *fp32:16, i32, 1024"
#define SIG_MATMUL "*fp32:16, *fp32:16, *fp32:16, i32, i32, i32, 32, 32, 16"

enum { ADD_N = 100003, ADD_BLOCK = 1024 };
enum { SM_ROWS = 37, SM_COLS = 781 };
enum { MM_M = 67, MM_N = 93, MM_K = 45, MM_BM = 32, MM_BN = 32 };

/* The demo's buffers on the host: inputs, C references, results. */
typedef struct Demo {
    float *x, *y, *add_want, *add_got;
    float *s_in, *sm_want, *sm_got;
    float *a, *b, *mm_want, *mm_got;
} Demo;

/* Deterministic pseudo-random floats in [-1, 1). */
static void demo_fill(float *p, size_t n, unsigned seed) {
    unsigned s = seed * 2654435761u + 1;
    for (size_t i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        p[i] = (float)((s >> 8) & 0xffff) / 32768.0f - 1.0f;
    }
}

static float *demo_buf(size_t n) {
    float *p = malloc(n * sizeof *p);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(1);
    }
    for (size_t i = 0; i < n; i++)
        p[i] = NAN; /* a result never written shows */
    return p;
}

static void demo_init(Demo *d) {
    d->x = demo_buf(ADD_N), d->y = demo_buf(ADD_N);
    d->add_want = demo_buf(ADD_N), d->add_got = demo_buf(ADD_N);
    demo_fill(d->x, ADD_N, 1);
    demo_fill(d->y, ADD_N, 2);
    for (int i = 0; i < ADD_N; i++)
        d->add_want[i] = d->x[i] + d->y[i];

    size_t sn = (size_t)SM_ROWS * SM_COLS;
    d->s_in = demo_buf(sn), d->sm_want = demo_buf(sn), d->sm_got = demo_buf(sn);
    demo_fill(d->s_in, sn, 3);
    for (int r = 0; r < SM_ROWS; r++) {
        const float *xr = d->s_in + (size_t)r * SM_COLS;
        float m = -INFINITY, s = 0;
        for (int c = 0; c < SM_COLS; c++)
            m = fmaxf(m, xr[c]);
        for (int c = 0; c < SM_COLS; c++)
            s += expf(xr[c] - m);
        for (int c = 0; c < SM_COLS; c++)
            d->sm_want[(size_t)r * SM_COLS + c] = expf(xr[c] - m) / s;
    }

    d->a = demo_buf((size_t)MM_M * MM_K), d->b = demo_buf((size_t)MM_K * MM_N);
    d->mm_want = demo_buf((size_t)MM_M * MM_N), d->mm_got = demo_buf((size_t)MM_M * MM_N);
    demo_fill(d->a, (size_t)MM_M * MM_K, 4);
    demo_fill(d->b, (size_t)MM_K * MM_N, 5);
    for (int i = 0; i < MM_M; i++)
        for (int j = 0; j < MM_N; j++) {
            double acc = 0;
            for (int k = 0; k < MM_K; k++)
                acc += (double)d->a[i * MM_K + k] * d->b[k * MM_N + j];
            d->mm_want[i * MM_N + j] = (float)acc;
        }
}

static void demo_free(Demo *d) {
    float *all[] = {d->x, d->y, d->add_want, d->add_got, d->s_in, d->sm_want,
                    d->sm_got, d->a, d->b, d->mm_want, d->mm_got};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        free(all[i]);
}

static int demo_compare(const char *what, const float *got, const float *want, size_t n,
                        float tol) {
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= tol + tol * fabsf(want[i]))) {
            if (bad++ < 5)
                fprintf(stderr, "%s: element %zu: got %g, want %g\n", what, i, (double)got[i],
                        (double)want[i]);
        }
    printf("%-8s %s (%zu elements)\n", what, bad ? "FAILED" : "ok", n);
    return bad != 0;
}

/* Writes the results under $AOT_DUMP (when set), for the GPU check to
 * compare the two routes byte for byte. */
static int demo_dump(const Demo *d, const char *route) {
    const char *dir = getenv("AOT_DUMP");
    if (!dir)
        return 0;
    const struct { const char *name; const float *p; size_t n; } out[] = {
        {"add", d->add_got, ADD_N},
        {"softmax", d->sm_got, (size_t)SM_ROWS * SM_COLS},
        {"matmul", d->mm_got, (size_t)MM_M * MM_N}};
    for (int i = 0; i < 3; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s.%s.bin", dir, route, out[i].name);
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(out[i].p, sizeof(float), out[i].n, f) != out[i].n || fclose(f) != 0) {
            fprintf(stderr, "cannot write %s\n", path);
            return 1;
        }
    }
    return 0;
}

static int demo_check(const Demo *d) {
    int rc = demo_compare("add", d->add_got, d->add_want, ADD_N, 1e-6f);
    rc |= demo_compare("softmax", d->sm_got, d->sm_want, (size_t)SM_ROWS * SM_COLS, 1e-5f);
    rc |= demo_compare("matmul", d->mm_got, d->mm_want, (size_t)MM_M * MM_N, 1e-4f);
    return rc;
}

#endif
