/* matmul: the original's runtime-K rank-2 matmul (inventory 8.14): one
 * BMxBN output tile per program, a runtime loop over K carrying a
 * tl.zeros accumulator, masked edges; checked against a C triple loop. */
#include "example.h"

static const char kernel[] =
    "import mytriton.language as tl\n"
    "\n"
    "def matmul_runtime_k_kernel(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):\n"
    "    pid_m = tl.program_id(0)\n"
    "    pid_n = tl.program_id(1)\n"
    "    offs_m = pid_m * BM + tl.arange(0, BM)\n"
    "    offs_n = pid_n * BN + tl.arange(0, BN)\n"
    "    acc = tl.zeros((BM, BN), tl.float32)\n"
    "    for k in range(0, K):\n"
    "        a_values = tl.load(a + offs_m[:, None] * K + k, mask=offs_m[:, None] < M, other=0.0)\n"
    "        b_values = tl.load(b + k * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)\n"
    "        acc += a_values * b_values\n"
    "    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)\n"
    "    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)\n";

int main(void) {
    mt_context *ctx;
    CHECK_MT(NULL, mt_context_create(&ctx));
    mt_backend be = pick_backend(ctx);
    enum { M = 67, N = 93, K = 45, BM = 16, BN = 32 };
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = kernel;
    o.filename = "matmul.py";
    o.kernel = "matmul_runtime_k_kernel";
    o.signature = "*fp32, *fp32, *fp32, i32, i32, i32, 16, 32";
    o.backend = be;
    mt_kernel *k;
    CHECK_MT(ctx, mt_compile(ctx, &o, &k));
    float *a = malloc(M * K * sizeof *a), *b = malloc(K * N * sizeof *b);
    float *c = poisoned(M * N), *want = calloc(M * N, sizeof *want);
    fill_random(a, M * K, 4);
    fill_random(b, K * N, 5);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int kk = 0; kk < K; kk++)
                s += a[i * K + kk] * b[kk * N + j];
            want[i * N + j] = s;
        }
    void *da = to_backend(ctx, be, a, M * K * sizeof *a);
    void *db = to_backend(ctx, be, b, K * N * sizeof *b);
    void *dc = to_backend(ctx, be, c, M * N * sizeof *c);
    int32_t m = M, n = N, kk = K;
    void *args[] = {&da, &db, &dc, &m, &n, &kk};
    uint32_t grid[3] = {(M + BM - 1) / BM, (N + BN - 1) / BN, 1};
    CHECK_MT(ctx, mt_launch(ctx, k, grid, NULL, args));
    CHECK_MT(ctx, mt_synchronize(ctx, be));
    CHECK_MT(ctx, mt_memcpy(ctx, be, c, dc, M * N * sizeof *c,
                            MT_MEMCPY_DEVICE_TO_HOST));
    int rc = compare("matmul", c, want, M * N, 1e-4f, 1e-4f);
    printf("matmul      [%s] %dx%dx%d tiles %dx%d: %s\n", backend_name(be), M, N, K, BM,
           BN, rc ? "FAILED" : "ok");
    mt_free(ctx, be, da);
    mt_free(ctx, be, db);
    mt_free(ctx, be, dc);
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
    free(a);
    free(b);
    free(c);
    free(want);
    return rc;
}
