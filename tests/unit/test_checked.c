/* test_checked.c: checked mode (issue 15, item 4) through the public C
 * API on the host backend: mt_launch_ex with extents checks loads and
 * stores and touches no memory on a failure; launches without extents
 * still check division by zero and i32 index overflow; the CUDA backend
 * and a foreign mt_launch_options size are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "mt.h"

static const char src[] =
    "import mytriton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def scale(x, out, n, d, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    v = tl.load(x + offs, mask=mask)\n"
    "    tl.store(out + offs, v // d, mask=mask)\n";

static const char strided_src[] =
    "import mytriton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def strided(out, s, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * s * 4 + tl.arange(0, BLOCK)\n"
    "    tl.store(out + offs, offs)\n";

/* Options for kernel `kernel` of text (file name kernel.py, one warp). */
static mt_compile_options options(const char *text, const char *kernel, const char *sig,
                                  int checked, mt_backend backend) {
    static char file[64];
    snprintf(file, sizeof file, "%s.py", kernel);
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = text;
    o.filename = file;
    o.kernel = kernel;
    o.signature = sig;
    o.num_warps = 1;
    o.backend = backend;
    o.checked = checked;
    o.stages_only = backend != MT_BACKEND_HOST;
    o.arch = backend != MT_BACKEND_HOST ? "sm_90" : NULL;
    return o;
}

static mt_kernel *compile_checked(mt_context *ctx, int checked, mt_backend backend) {
    mt_compile_options o = options(src, "scale", "*i32,*i32,i32,i32,16", checked, backend);
    mt_kernel *k = NULL;
    return mt_compile(ctx, &o, &k) == MT_OK ? k : NULL;
}

/* A new context and the checked host kernel `scale` in it. */
static mt_kernel *checked_scale(mt_context **ctx) {
    assert_int_equal(mt_context_create(ctx), MT_OK);
    mt_kernel *k = compile_checked(*ctx, 1, MT_BACKEND_HOST);
    if (!k)
        fail_msg("%s", mt_errmsg(*ctx));
    return k;
}

enum { N = 64, SPARE = 16 };

typedef struct Buffers {
    int32_t x[N];
    int32_t out[N + SPARE]; /* out's extent is its first N elements */
    void *px, *po;
    int32_t n, d;
    void *args[4];
} Buffers;

static void buffers_init(Buffers *b, int32_t n, int32_t d) {
    for (int i = 0; i < N; i++)
        b->x[i] = 10 * i;
    for (int i = 0; i < N + SPARE; i++)
        b->out[i] = -1;
    b->px = b->x;
    b->po = b->out;
    b->n = n;
    b->d = d;
    b->args[0] = &b->px;
    b->args[1] = &b->po;
    b->args[2] = &b->n;
    b->args[3] = &b->d;
}

static void test_bounds_with_extents(void **state) {
    (void)state;
    mt_context *ctx;
    mt_kernel *k = checked_scale(&ctx);
    Buffers b;
    mt_extent ext[4] = {{NULL, NULL}};
    mt_launch_options lo = MT_LAUNCH_OPTIONS_INIT;
    lo.extents = ext;
    lo.nextents = 4;
    uint32_t grid[3] = {N / 16, 1, 1};
    /* in bounds, the last lanes masked off */
    buffers_init(&b, N - 3, 2);
    ext[0] = (mt_extent){b.x, b.x + N};
    ext[1] = (mt_extent){b.out, b.out + N};
    assert_int_equal(mt_launch_ex(ctx, k, grid, NULL, b.args, &lo), MT_OK);
    for (int i = 0; i < N - 3; i++)
        assert_int_equal(b.out[i], 5 * i);
    assert_int_equal(b.out[N - 1], -1);
    /* out's extent shortened to 40 elements: program 2 (elements 32..47)
     * stores past it and fails before any of its stores; 0 and 1 ran */
    buffers_init(&b, N, 2);
    ext[1] = (mt_extent){b.out, b.out + 40};
    uint32_t three[3] = {3, 1, 1};
    assert_int_equal(mt_launch_ex(ctx, k, three, NULL, b.args, &lo), MT_ERR_CHECK);
    /* the first thread to check reports its element, one of 40..47 */
    const char *msg = mt_errmsg(ctx);
    const char *head = "scale.py:8:5: error: out-of-bounds store in kernel 'scale', program "
                       "(2, 0, 0): element offset 4";
    assert_memory_equal(msg, head, strlen(head));
    assert_true(msg[strlen(head)] >= '0' && msg[strlen(head)] <= '7');
    assert_string_equal(msg + strlen(head) + 1, " of argument 'out' (valid 0..39)\n");
    for (int i = 0; i < 32; i++)
        assert_int_equal(b.out[i], 5 * i);
    for (int i = 32; i < N + SPARE; i++)
        assert_int_equal(b.out[i], -1);
    /* a load: x's extent from element 8 on, element 0 is before it */
    ext[0] = (mt_extent){b.x + 8, b.x + N};
    ext[1] = (mt_extent){b.out, b.out + N};
    assert_int_equal(mt_launch_ex(ctx, k, grid, NULL, b.args, &lo), MT_ERR_CHECK);
    assert_non_null(strstr(mt_errmsg(ctx), "out-of-bounds load in kernel 'scale', program "
                                           "(0, 0, 0): element offset "));
    assert_non_null(strstr(mt_errmsg(ctx), "of argument 'x' (valid 8..63)"));
    /* the same through mt_launch_host_ex, which writes err */
    char err[512];
    assert_int_equal(mt_launch_host_ex(k, three, b.args, &lo, NULL, NULL, err, sizeof err),
                     MT_ERR_CHECK);
    assert_non_null(strstr(err, "scale.py:7:9: error: out-of-bounds load"));
    /* after failures the context launches as before */
    ext[0] = (mt_extent){b.x, b.x + N};
    buffers_init(&b, N, 5);
    assert_int_equal(mt_launch_ex(ctx, k, grid, NULL, b.args, &lo), MT_OK);
    assert_int_equal(b.out[N - 1], 2 * (N - 1));
    assert_string_equal(mt_status_name(MT_ERR_CHECK), "MT_ERR_CHECK");
    mt_context_destroy(ctx);
}

static void test_without_extents(void **state) {
    (void)state;
    mt_context *ctx;
    mt_kernel *k = checked_scale(&ctx);
    Buffers b;
    uint32_t grid[3] = {N / 16, 1, 1};
    /* no extents: loads and stores are not bounds-checked */
    buffers_init(&b, N, 3);
    assert_int_equal(mt_launch(ctx, k, grid, NULL, b.args), MT_OK);
    assert_int_equal(b.out[N - 1], 10 * (N - 1) / 3);
    /* division by zero and index overflow are checked all the same */
    buffers_init(&b, N, 0);
    assert_int_equal(mt_launch(ctx, k, grid, NULL, b.args), MT_ERR_CHECK);
    assert_non_null(strstr(mt_errmsg(ctx), "scale.py:8:26: error: integer division by zero "
                                           "in kernel 'scale', program ("));
    for (int i = 0; i < N; i++)
        assert_int_equal(b.out[i], -1); /* the division precedes every store */
    buffers_init(&b, N, 1);
    mt_launch_options lo = MT_LAUNCH_OPTIONS_INIT; /* no extents either */
    assert_int_equal(mt_launch_ex(ctx, k, grid, NULL, b.args, &lo), MT_OK);
    /* program 1's offset 2**30 * 4 wraps to 0, in bounds: the overflow
     * is what catches it */
    mt_compile_options o = options(strided_src, "strided", "*i32,i32,16", 1, MT_BACKEND_HOST);
    mt_kernel *ks;
    if (mt_compile(ctx, &o, &ks) != MT_OK)
        fail_msg("%s", mt_errmsg(ctx));
    int32_t s = 1 << 30;
    void *sargs[] = {&b.po, &s};
    uint32_t two[3] = {2, 1, 1};
    assert_int_equal(mt_launch(ctx, ks, two, NULL, sargs), MT_ERR_CHECK);
    assert_string_equal(mt_errmsg(ctx),
                        "strided.py:5:12: error: i32 overflow in index arithmetic in kernel "
                        "'strided', program (1, 0, 0): 1073741824 * 4 = 4294967296\n");
    lo.size = sizeof lo + 8;
    assert_int_equal(mt_launch_ex(ctx, k, grid, NULL, b.args, &lo), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "mt_launch_options.size"));
    char err[256];
    assert_int_equal(mt_launch_host_ex(k, grid, b.args, &lo, NULL, NULL, err, sizeof err),
                     MT_ERR_ARG);
    mt_context_destroy(ctx);
}

static void test_refused_off_the_host(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    assert_null(compile_checked(ctx, 1, MT_BACKEND_CUDA));
    assert_non_null(strstr(mt_errmsg(ctx), "checked mode runs on the host backend only"));
    assert_null(compile_checked(ctx, 1, MT_BACKEND_MLIR));
    /* the unchecked text has no check, the checked one its three kinds */
    const char *plain, *checked;
    mt_kernel *k0 = compile_checked(ctx, 0, MT_BACKEND_CUDA);
    mt_compile_options o = options(src, "scale", "*i32,*i32,i32,i32,16", 1, MT_BACKEND_HOST);
    o.stages_only = 1;
    mt_kernel *k1;
    assert_non_null(k0);
    assert_int_equal(mt_compile(ctx, &o, &k1), MT_OK);
    assert_int_equal(mt_kernel_stage(ctx, k0, MT_STAGE_CUDA, &plain, NULL), MT_OK);
    assert_int_equal(mt_kernel_stage(ctx, k1, MT_STAGE_CUDA, &checked, NULL), MT_OK);
    assert_null(strstr(plain, "mt_check_"));
    assert_non_null(strstr(checked, "mt_check_access("));
    assert_non_null(strstr(checked, "mt_check_div("));
    assert_non_null(strstr(checked, "mt_check_index("));
    mt_context_destroy(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds_with_extents),
        cmocka_unit_test(test_without_extents),
        cmocka_unit_test(test_refused_off_the_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
