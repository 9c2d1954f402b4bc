/* aot_demo: vector add, softmax and matmul through the files
 * `mytriton aot` wrote (vadd.h, softmax.h, matmul.h), checked against C
 * references.  No compiler, no Python, no NVRTC at run time.
 *
 * Built two ways (examples/aot/Makefile):
 *   - GPU (-DAOT_GPU): with `cc` alone; device memory through the driver,
 *     opened with dlopen like the generated code; at the end the program
 *     checks its own memory map: no NVRTC and no libmytriton are loaded;
 *   - host: the host variant's objects and the library (its scheduler);
 *     "device" memory is host memory.
 * It also checks that bad arguments come back as MT_ERR_ARG with a
 * message.  Exit status 0 when everything matched. */
#include "vadd.h"
#include "softmax.h"
#include "matmul.h"

#include "demo.h"

#ifdef AOT_GPU
#include <dlfcn.h>

typedef unsigned long long devptr;
static int (*cuMemAlloc)(devptr *, size_t);
static int (*cuMemFree)(devptr);
static int (*cuMemcpyHtoD)(devptr, const void *, size_t);
static int (*cuMemcpyDtoH)(void *, devptr, size_t);
static int (*cuCtxSynchronize)(void);

static void *sym(void *dl, const char *name) {
    void *p = dlsym(dl, name);
    if (!p) {
        fprintf(stderr, "libcuda.so.1 lacks %s\n", name);
        exit(1);
    }
    return p;
}

/* after the kernels' _load calls: their context is current */
static void mem_init(void) {
    void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        fprintf(stderr, "cannot load libcuda.so.1\n");
        exit(1);
    }
    void *p;
    p = sym(dl, "cuMemAlloc_v2"), memcpy(&cuMemAlloc, &p, sizeof p);
    p = sym(dl, "cuMemFree_v2"), memcpy(&cuMemFree, &p, sizeof p);
    p = sym(dl, "cuMemcpyHtoD_v2"), memcpy(&cuMemcpyHtoD, &p, sizeof p);
    p = sym(dl, "cuMemcpyDtoH_v2"), memcpy(&cuMemcpyDtoH, &p, sizeof p);
    p = sym(dl, "cuCtxSynchronize"), memcpy(&cuCtxSynchronize, &p, sizeof p);
}

static float *to_dev(const float *h, size_t n) {
    devptr d;
    if (cuMemAlloc(&d, n * sizeof *h) || cuMemcpyHtoD(d, h, n * sizeof *h)) {
        fprintf(stderr, "device memory failed\n");
        exit(1);
    }
    return (float *)(uintptr_t)d;
}

static void from_dev(float *h, const float *d, size_t n) {
    if (cuCtxSynchronize() || cuMemcpyDtoH(h, (devptr)(uintptr_t)d, n * sizeof *h)) {
        fprintf(stderr, "copy back failed (a kernel fault?)\n");
        exit(1);
    }
}

static void dev_free(float *d) { cuMemFree((devptr)(uintptr_t)d); }

/* No NVRTC (nor the compiler library) may be in this process. */
static int check_maps(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    char line[4096];
    int bad = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "nvrtc") || strstr(line, "libmytriton")) {
            fprintf(stderr, "loaded at run time: %s", line);
            bad = 1;
        }
    if (f)
        fclose(f);
    printf("%-8s %s\n", "no-nvrtc", bad ? "FAILED" : "ok (no NVRTC or libmytriton mapped)");
    return bad || !f;
}
#define ROUTE "aot-gpu"
#else
static void mem_init(void) {}
static float *to_dev(const float *h, size_t n) {
    float *d = malloc(n * sizeof *h);
    if (!d)
        exit(1);
    return memcpy(d, h, n * sizeof *h);
}
static void from_dev(float *h, const float *d, size_t n) { memcpy(h, d, n * sizeof *h); }
static void dev_free(float *d) { free(d); }
static int check_maps(void) { return 0; }
#define ROUTE "aot-host"
#endif

#define TRY(call, errmsg)                                                                 \
    do {                                                                                   \
        mt_status st_ = (call);                                                            \
        if (st_ != MT_OK) {                                                                \
            fprintf(stderr, "%s failed (status %d): %s\n", #call, (int)st_, errmsg());     \
            return 1;                                                                      \
        }                                                                                  \
    } while (0)

/* A bad argument must come back as MT_ERR_ARG and a message that says so. */
static int expect_arg_error(const char *what, mt_status st, const char *msg, const char *word) {
    int ok = st == MT_ERR_ARG && strstr(msg, word) != NULL;
    printf("%-8s %s: %s\n", "bad-arg", what, ok ? "ok" : "FAILED");
    if (!ok)
        fprintf(stderr, "  status %d, message '%s'\n", (int)st, msg);
    return !ok;
}

int main(void) {
    Demo d;
    demo_init(&d);
    TRY(vadd_load(), vadd_errmsg);
    TRY(softmax_load(), softmax_errmsg);
    TRY(matmul_load(), matmul_errmsg);
    mem_init();

    float *dx = to_dev(d.x, ADD_N), *dy = to_dev(d.y, ADD_N), *dout = to_dev(d.add_got, ADD_N);
    TRY(vadd_grid(NULL, dx, dy, dout, ADD_N), vadd_errmsg); /* the grid --grid gave */
    from_dev(d.add_got, dout, ADD_N);

    size_t sn = (size_t)SM_ROWS * SM_COLS;
    float *ds = to_dev(d.s_in, sn), *dso = to_dev(d.sm_got, sn);
    TRY(softmax(NULL, SM_ROWS, 1, 1, ds, dso, SM_COLS), softmax_errmsg);
    from_dev(d.sm_got, dso, sn);

    float *da = to_dev(d.a, (size_t)MM_M * MM_K), *db = to_dev(d.b, (size_t)MM_K * MM_N);
    float *dc = to_dev(d.mm_got, (size_t)MM_M * MM_N);
    TRY(matmul(NULL, (MM_M + MM_BM - 1) / MM_BM, (MM_N + MM_BN - 1) / MM_BN, 1, da, db, dc, MM_M,
               MM_N, MM_K),
        matmul_errmsg);
    from_dev(d.mm_got, dc, (size_t)MM_M * MM_N);

    int rc = demo_check(&d);
    rc |= expect_arg_error("NULL pointer", vadd(NULL, 1, 1, 1, NULL, dy, dout, ADD_N),
                           vadd_errmsg(), "NULL");
    rc |= expect_arg_error("grid 0", softmax(NULL, 0, 1, 1, ds, dso, SM_COLS), softmax_errmsg(),
                           "grid");
    rc |= expect_arg_error("unaligned", matmul(NULL, 1, 1, 1, da + 1, db, dc, 1, 1, 1),
                           matmul_errmsg(), "aligned");
    rc |= check_maps();
    rc |= demo_dump(&d, ROUTE);

    float *bufs[] = {dx, dy, dout, ds, dso, da, db, dc};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++)
        dev_free(bufs[i]);
    TRY(vadd_unload(), vadd_errmsg);
    TRY(softmax_unload(), softmax_errmsg);
    TRY(matmul_unload(), matmul_errmsg);
    demo_free(&d);
    printf("aot_demo [%s]: %s\n", ROUTE, rc ? "FAILED" : "all ok");
    return rc;
}
