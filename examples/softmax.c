/* softmax: the original's row softmax (inventory 8.8), one program per row,
 * checked against a C reference; rows wider than the thread count (4096
 * columns on 4 warps) exercise multi-element thread layouts. */
#include "example.h"

static const char kernel[] =
    "import mytriton.language as tl\n"
    "\n"
    "def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    mask = cols < n_cols\n"
    "    offsets = row * n_cols + cols\n"
    "    values = tl.load(x + offsets, mask=mask, other=-float('inf'))\n"
    "    shifted = values - tl.max(values, axis=0)\n"
    "    numerator = tl.exp(shifted)\n"
    "    denominator = tl.sum(numerator, axis=0)\n"
    "    tl.store(out + offsets, numerator / denominator, mask=mask)\n";

static int run(mt_context *ctx, mt_backend be, int rows, int cols, int block) {
    char sig[64];
    snprintf(sig, sizeof sig, "*fp32, *fp32, i32, %d", block);
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = kernel;
    o.filename = "softmax.py";
    o.kernel = "softmax_kernel";
    o.signature = sig;
    o.backend = be;
    mt_kernel *k;
    CHECK_MT(ctx, mt_compile(ctx, &o, &k));
    size_t n = (size_t)rows * cols;
    float *x = malloc(n * sizeof *x), *out = poisoned(n), *want = malloc(n * sizeof *want);
    fill_random(x, n, 3);
    for (size_t i = 0; i < n; i++)
        x[i] *= 10.0f;
    for (int r = 0; r < rows; r++) {
        const float *xr = x + (size_t)r * cols;
        float m = -INFINITY, s = 0;
        for (int c = 0; c < cols; c++)
            m = fmaxf(m, xr[c]);
        for (int c = 0; c < cols; c++)
            s += expf(xr[c] - m);
        for (int c = 0; c < cols; c++)
            want[(size_t)r * cols + c] = expf(xr[c] - m) / s;
    }
    void *dx = to_backend(ctx, be, x, n * sizeof *x);
    void *dout = to_backend(ctx, be, out, n * sizeof *out);
    int32_t ncols = cols;
    void *args[] = {&dx, &dout, &ncols};
    uint32_t grid[3] = {(uint32_t)rows, 1, 1};
    CHECK_MT(ctx, mt_launch(ctx, k, grid, NULL, args));
    CHECK_MT(ctx, mt_synchronize(ctx, be));
    CHECK_MT(ctx, mt_memcpy(ctx, be, out, dout, n * sizeof *out,
                            MT_MEMCPY_DEVICE_TO_HOST));
    int rc = compare("softmax", out, want, n, 1e-4f, 1e-6f);
    printf("softmax     [%s] %dx%d BLOCK=%d: %s\n", backend_name(be), rows, cols, block,
           rc ? "FAILED" : "ok");
    mt_free(ctx, be, dx);
    mt_free(ctx, be, dout);
    mt_kernel_destroy(k);
    free(x);
    free(out);
    free(want);
    return rc;
}

int main(void) {
    mt_context *ctx;
    CHECK_MT(NULL, mt_context_create(&ctx));
    mt_backend be = pick_backend(ctx);
    int rc = run(ctx, be, 127, 513, 1024);
    rc |= run(ctx, be, 33, 4096, 4096);
    rc |= run(ctx, be, 7, 5, 8);
    mt_context_destroy(ctx);
    return rc;
}
