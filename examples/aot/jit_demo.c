/* jit_demo: the same three kernels as aot_demo.c, compiled at run time
 * through the library (the JIT route: mytriton.h and
 * `pkg-config --cflags --libs mytriton`), from the kernel file given on
 * the command line (kernels.py).  The GPU when one is present, else the
 * host backend (MYTRITON_BACKEND=host|cuda forces one). */
#include <mytriton.h>

#include "demo.h"

static mt_context *ctx;
static mt_backend be;

#define CHECK(call)                                                                     \
    do {                                                                                \
        if ((call) != MT_OK) {                                                          \
            fprintf(stderr, "%s failed:\n%s", #call, mt_errmsg(ctx));                    \
            exit(1);                                                                    \
        }                                                                               \
    } while (0)

static char *read_text(const char *path) {
    FILE *f = fopen(path, "rb");
    static char buf[1 << 16];
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (!f || n == 0) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    buf[n] = 0;
    return buf;
}

static mt_kernel *compile(const char *src, const char *file, const char *name, const char *sig) {
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = src;
    o.filename = file;
    o.kernel = name;
    o.signature = sig;
    o.backend = be;
    mt_kernel *k;
    CHECK(mt_compile(ctx, &o, &k));
    return k;
}

static void *dev(const float *h, size_t n) {
    void *p;
    CHECK(mt_malloc(ctx, be, n * sizeof *h, &p));
    CHECK(mt_memcpy(ctx, be, p, h, n * sizeof *h, MT_MEMCPY_HOST_TO_DEVICE));
    return p;
}

static void back(float *h, void *d, size_t n) {
    CHECK(mt_synchronize(ctx, be));
    CHECK(mt_memcpy(ctx, be, h, d, n * sizeof *h, MT_MEMCPY_DEVICE_TO_HOST));
    CHECK(mt_free(ctx, be, d));
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: jit_demo path/to/kernels.py\n");
        return 2;
    }
    const char *src = read_text(argv[1]);
    CHECK(mt_context_create(&ctx));
    const char *env = getenv("MYTRITON_BACKEND");
    be = env && !strcmp(env, "host")   ? MT_BACKEND_HOST
         : env && !strcmp(env, "cuda") ? MT_BACKEND_CUDA
         : mt_cuda_available(ctx)      ? MT_BACKEND_CUDA
                                       : MT_BACKEND_HOST;
    Demo d;
    demo_init(&d);
    size_t sn = (size_t)SM_ROWS * SM_COLS;

    mt_kernel *add = compile(src, argv[1], "add_kernel", SIG_ADD);
    void *x = dev(d.x, ADD_N), *y = dev(d.y, ADD_N), *o = dev(d.add_got, ADD_N);
    int32_t n = ADD_N;
    void *add_args[] = {&x, &y, &o, &n};
    uint32_t add_grid[3] = {(ADD_N + ADD_BLOCK - 1) / ADD_BLOCK, 1, 1};
    CHECK(mt_launch(ctx, add, add_grid, NULL, add_args));
    back(d.add_got, o, ADD_N);

    mt_kernel *sm = compile(src, argv[1], "softmax_kernel", SIG_SOFTMAX);
    void *si = dev(d.s_in, sn), *so = dev(d.sm_got, sn);
    int32_t cols = SM_COLS;
    void *sm_args[] = {&si, &so, &cols};
    uint32_t sm_grid[3] = {SM_ROWS, 1, 1};
    CHECK(mt_launch(ctx, sm, sm_grid, NULL, sm_args));
    back(d.sm_got, so, sn);

    mt_kernel *mm = compile(src, argv[1], "matmul_kernel", SIG_MATMUL);
    void *a = dev(d.a, (size_t)MM_M * MM_K), *b = dev(d.b, (size_t)MM_K * MM_N);
    void *c = dev(d.mm_got, (size_t)MM_M * MM_N);
    int32_t M = MM_M, N = MM_N, K = MM_K;
    void *mm_args[] = {&a, &b, &c, &M, &N, &K};
    uint32_t mm_grid[3] = {(MM_M + MM_BM - 1) / MM_BM, (MM_N + MM_BN - 1) / MM_BN, 1};
    CHECK(mt_launch(ctx, mm, mm_grid, NULL, mm_args));
    back(d.mm_got, c, (size_t)MM_M * MM_N);

    int rc = demo_check(&d);
    rc |= demo_dump(&d, be == MT_BACKEND_CUDA ? "jit-gpu" : "jit-host");
    mt_free(ctx, be, x);
    mt_free(ctx, be, y);
    mt_free(ctx, be, si);
    mt_free(ctx, be, a);
    mt_free(ctx, be, b);
    mt_context_destroy(ctx);
    demo_free(&d);
    printf("jit_demo [%s]: %s\n", be == MT_BACKEND_CUDA ? "cuda" : "host", rc ? "FAILED" : "all ok");
    return rc;
}
