/* vector_add: the original's add kernel (inventory 8.1) compiled and run
 * through the public C API, checked against a C loop. */
#include "example.h"

static const char kernel[] =
    "import mytriton.language as tl\n"
    "\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    a = tl.load(x + offs, mask=mask, other=0.0)\n"
    "    b = tl.load(y + offs, mask=mask, other=0.0)\n"
    "    tl.store(out + offs, a + b, mask=mask)\n";

int main(void) {
    mt_context *ctx;
    CHECK_MT(NULL, mt_context_create(&ctx));
    mt_backend be = pick_backend(ctx);
    enum { N = 100003, BLOCK = 1024 };
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = kernel;
    o.filename = "vector_add.py";
    o.kernel = "add_kernel";
    o.signature = "*fp32, *fp32, *fp32, i32, 1024";
    o.backend = be;
    mt_kernel *k;
    CHECK_MT(ctx, mt_compile(ctx, &o, &k));

    float *x = malloc(N * sizeof *x), *y = malloc(N * sizeof *y), *out = poisoned(N);
    float *want = malloc(N * sizeof *want);
    fill_random(x, N, 1);
    fill_random(y, N, 2);
    for (int i = 0; i < N; i++)
        want[i] = x[i] + y[i];
    void *dx = to_backend(ctx, be, x, N * sizeof *x);
    void *dy = to_backend(ctx, be, y, N * sizeof *y);
    void *dout = to_backend(ctx, be, out, N * sizeof *out);
    int32_t n = N;
    void *args[] = {&dx, &dy, &dout, &n};
    uint32_t grid[3] = {(N + BLOCK - 1) / BLOCK, 1, 1};
    CHECK_MT(ctx, mt_launch(ctx, k, grid, NULL, args));
    CHECK_MT(ctx, mt_synchronize(ctx, be));
    CHECK_MT(ctx, mt_memcpy(ctx, be, out, dout, N * sizeof *out,
                            MT_MEMCPY_DEVICE_TO_HOST));
    int rc = compare("vector_add", out, want, N, 1e-6f, 1e-6f);
    printf("vector_add  [%s] n=%d: %s\n", backend_name(be), N, rc ? "FAILED" : "ok");
    mt_free(ctx, be, dx);
    mt_free(ctx, be, dy);
    mt_free(ctx, be, dout);
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
    free(x);
    free(y);
    free(out);
    free(want);
    return rc;
}
