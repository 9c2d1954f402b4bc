/* test_aot.c: the ahead-of-time generator and linker through the public
 * API (mt_aot_generate, mt_aot_link, mt_host_run): the text of the
 * generated launch functions and checks, every refusal with its status
 * and message, the dispatcher's order.  tests/aot/run.sh compiles and
 * runs the generated files themselves. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

static const char src[] =
    "import triton.language as tl\n"
    "@triton.jit\n"
    "def k(x, y, n, flag, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = (offs < n) & flag\n"
    "    tl.store(y + offs, tl.load(x + offs, mask=mask), mask=mask)\n";

typedef struct Out {
    mt_context *ctx;
    char *h, *c;
} Out;

static mt_status gen(Out *o, const char *sig, const char *name, int host, const char *archs,
                     const char *grid) {
    if (!o->ctx)
        assert_int_equal(mt_context_create(&o->ctx), MT_OK);
    mt_compile_options opts = MT_COMPILE_OPTIONS_INIT;
    opts.source = src;
    opts.filename = "k.py";
    opts.kernel = "k";
    opts.signature = sig;
    mt_aot_options aot = MT_AOT_OPTIONS_INIT;
    aot.name = name;
    aot.host = host;
    aot.archs = archs;
    aot.grid = grid;
    return mt_aot_generate(o->ctx, &opts, &aot, &o->h, &o->c);
}

static void out_free(Out *o) {
    free(o->h);
    free(o->c);
    o->h = o->c = NULL;
}

static void test_host_files(void **state) {
    (void)state;
    Out o = {0};
    assert_int_equal(gen(&o, "*fp32:16, *fp32, i32:16, i1, 128", "kf", 1, NULL, "n / 128, 1, 1"),
                     MT_OK);
    /* the API: runtime parameters in order, i1 as int, constexpr left out */
    assert_non_null(strstr(o.h, "mt_status kf(CUstream stream, unsigned gx, unsigned gy, "
                                "unsigned gz, float *x, float *y, int32_t n, int flag);"));
    assert_non_null(strstr(o.h, "mt_status kf_grid(CUstream stream, float *x, float *y, "
                                "int32_t n, int flag);"));
    assert_non_null(strstr(o.h, "mt_status kf_load(void);"));
    assert_non_null(strstr(o.h, "const char *kf_errmsg(void);"));
    assert_non_null(strstr(o.h, "mytriton-aot-link: name=kf kernel=k warps=4 consts=[128] "
                                "params=*fp32:16 x,*fp32 y,i32:16 n,i1 flag\n"));
    assert_non_null(strstr(o.h, "MT_ERR_ASSERT = 16,"));
    /* the checks the hints ask for, the bool as a byte, the scheduler */
    assert_non_null(strstr(o.c, "mt_aot_check_ptr(\"kf\", \"x\", x, 16)"));
    assert_non_null(strstr(o.c, "mt_aot_check_ptr(\"kf\", \"y\", y, 0)"));
    assert_non_null(strstr(o.c, "mt_aot_check_int(\"kf\", \"n\", (long long)n, 16)"));
    assert_null(strstr(o.c, "mt_aot_check_int(\"kf\", \"flag\""));
    assert_non_null(strstr(o.c, "unsigned char mt_flag_byte = flag != 0;"));
    assert_non_null(strstr(o.c, "(void *)&mt_flag_byte"));
    assert_non_null(strstr(o.c, "mt_host_run(kf_host_entry, mt_args, mt_grid, 128,"));
    assert_non_null(strstr(o.c, "#define k kf_kernel"));
    assert_non_null(strstr(o.c, "long long mt_gx = (long long)(n / 128);"));
    assert_null(strstr(o.c, "= dlopen("));
    assert_null(strstr(o.c, "mt_aot_load"));
    /* the same inputs give the same text */
    char *h = o.h, *c = o.c;
    o.h = o.c = NULL;
    assert_int_equal(gen(&o, "*fp32:16, *fp32, i32:16, i1, 128", "kf", 1, NULL, "n / 128, 1, 1"),
                     MT_OK);
    assert_string_equal(h, o.h);
    assert_string_equal(c, o.c);
    free(h);
    free(c);
    out_free(&o);
    mt_context_destroy(o.ctx);
}

static void test_cuda_files(void **state) {
    (void)state;
    Out o = {0};
    assert_int_equal(gen(&o, "*fp32, *fp32, i32:1, i1, 128", "kg", 0, "sm_80,sm_90", NULL), MT_OK);
    assert_non_null(strstr(o.c, "static const unsigned char kg_cubin_sm_80["));
    assert_non_null(strstr(o.c, "static const unsigned char kg_ptx_sm_90["));
    assert_non_null(strstr(o.c, "{80, kg_cubin_sm_80, kg_ptx_sm_80},"));
    assert_non_null(strstr(o.c, ".symbol = \"k\""));
    assert_non_null(strstr(o.c, ".threads = 128"));
    assert_non_null(strstr(o.c, "dlopen(\"libcuda.so.1\""));
    assert_non_null(strstr(o.c, "mt_aot_check_int(\"kg\", \"n\", (long long)n, 1)"));
    assert_null(strstr(o.c, "nvrtc"));
    assert_null(strstr(o.h, "kg_grid"));
    /* a cubin is an ELF image: its first bytes are 0x7f 'E' 'L' 'F' */
    assert_non_null(strstr(o.c, "kg_cubin_sm_90[") );
    assert_non_null(strstr(strstr(o.c, "kg_cubin_sm_90["), "{\n    127,69,76,70,"));
    out_free(&o);
    mt_context_destroy(o.ctx);
}

/* User text cannot end a generated comment; a parameter named like the
 * launch function's own is refused. */
static void test_names_and_comments(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_compile_options opts = MT_COMPILE_OPTIONS_INIT;
    opts.source = src;
    opts.filename = "odd*/name.py";
    opts.kernel = "k";
    opts.signature = "*fp32, *fp32, i32, i1, 128";
    mt_aot_options aot = MT_AOT_OPTIONS_INIT;
    aot.name = "kc";
    aot.host = 1;
    char *h, *c;
    assert_int_equal(mt_aot_generate(ctx, &opts, &aot, &h, &c), MT_OK);
    assert_non_null(strstr(h, "from odd* /name.py, kernel k"));
    free(h);
    free(c);
    opts.source = "import triton.language as tl\n"
                  "@triton.jit\n"
                  "def k(stream, n):\n"
                  "    tl.store(stream, n)\n";
    opts.filename = "k.py";
    opts.signature = "*i32, i32";
    assert_int_equal(mt_aot_generate(ctx, &opts, &aot, &h, &c), MT_ERR_UNSUPPORTED);
    assert_non_null(strstr(mt_errmsg(ctx), "parameter 'stream'"));
    mt_context_destroy(ctx);
}

static void expect_fail(Out *o, mt_status st, mt_status want, const char *words) {
    assert_int_equal(st, want);
    if (!strstr(mt_errmsg(o->ctx), words))
        fail_msg("message '%s' lacks '%s'", mt_errmsg(o->ctx), words);
    assert_null(o->h);
    assert_null(o->c);
}

static void test_refusals(void **state) {
    (void)state;
    Out o = {0};
    const char *sig = "*fp32, *fp32, i32, i1, 128";
    expect_fail(&o, gen(&o, sig, "9x", 1, NULL, NULL), MT_ERR_ARG, "not a C identifier");
    expect_fail(&o, gen(&o, sig, "x", 0, "sm90", NULL), MT_ERR_ARG, "such as 'sm_80,sm_90'");
    expect_fail(&o, gen(&o, sig, "x", 0, "sm_90,sm_90", NULL), MT_ERR_ARG, "given twice");
    expect_fail(&o, gen(&o, sig, "x", 1, NULL, "1; }, 1, 1"), MT_ERR_ARG, "unexpected character ';'");
    expect_fail(&o, gen(&o, sig, "x", 1, NULL, "1, 1"), MT_ERR_ARG, "three comma-separated");
    expect_fail(&o, gen(&o, "*fp32, *fp32, i32, i1:16, 128", "x", 1, NULL, NULL),
                MT_ERR_SIGNATURE, "hints go on pointers and integers");
    expect_fail(&o, gen(&o, "*fp32, *fp32, i32, 128", "x", 1, NULL, NULL), MT_ERR_SIGNATURE,
                "");
    /* a mismatched options size is refused, not misread */
    mt_compile_options opts = MT_COMPILE_OPTIONS_INIT;
    mt_aot_options aot = MT_AOT_OPTIONS_INIT;
    aot.size--;
    aot.name = "x";
    opts.kernel = "k";
    opts.source = src;
    opts.signature = sig;
    expect_fail(&o, mt_aot_generate(o.ctx, &opts, &aot, &o.h, &o.c), MT_ERR_ARG,
                "sizeof(mt_aot_options)");
    aot.size++;
    opts.size--;
    expect_fail(&o, mt_aot_generate(o.ctx, &opts, &aot, &o.h, &o.c), MT_ERR_ARG,
                "sizeof(mt_compile_options)");
    mt_context_destroy(o.ctx);
}

static char *header_of(const char *sig, const char *name) {
    Out o = {0};
    assert_int_equal(gen(&o, sig, name, 1, NULL, NULL), MT_OK);
    free(o.c);
    mt_context_destroy(o.ctx);
    return o.h;
}

static void test_link(void **state) {
    (void)state;
    char *any = header_of("*fp32, *fp32, i32, i1, 128", "k_any");
    char *al = header_of("*fp32:16, *fp32:16, i32, i1, 128", "k_al");
    char *all = header_of("*fp32:16, *fp32:16, i32:16, i1, 128", "k_all");
    char *other = header_of("*fp32, *fp32, i32, i1, 256", "k_256");
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    const char *texts[] = {any, al, all};
    const char *names[] = {"k_any.h", "k_al.h", "k_all.h"};
    char *h, *c;
    assert_int_equal(mt_aot_link(ctx, "k", texts, names, 3, &h, &c), MT_OK);
    /* most hints first, whatever the order given */
    const char *p0 = strstr(c, "(uintptr_t)x % 16 == 0 && (uintptr_t)y % 16 == 0 && n % 16 == 0)\n"
                               "        return 0;");
    const char *p1 = strstr(c, "(uintptr_t)x % 16 == 0 && (uintptr_t)y % 16 == 0)\n        return 1;");
    const char *p2 = strstr(c, "if (1)\n        return 2;");
    assert_true(p0 && p1 && p2 && p0 < p1 && p1 < p2);
    assert_non_null(strstr(c, "case 0:\n        return k_all(stream, gx, gy, gz, x, y, n, flag);"));
    assert_non_null(strstr(c, "#include \"k_any.h\""));
    assert_non_null(strstr(h, "int k_select(float *x, float *y, int32_t n, int flag);"));
    free(h);
    free(c);

    const char *dup[] = {al, al};
    assert_int_equal(mt_aot_link(ctx, "k", dup, names, 2, &h, &c), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "the same hints"));
    const char *mixed[] = {any, other};
    assert_int_equal(mt_aot_link(ctx, "k", mixed, names, 2, &h, &c), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "their constexpr values differ"));
    const char *junk[] = {"/* mytriton-aot-link: name=k kernel */"};
    assert_int_equal(mt_aot_link(ctx, "k2", junk, names, 1, &h, &c), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "malformed"));
    const char *self[] = {any};
    assert_int_equal(mt_aot_link(ctx, "k_any", self, names, 1, &h, &c), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "already defines 'k_any'"));
    assert_int_equal(mt_aot_link(ctx, "k", texts, names, 0, &h, &c), MT_ERR_ARG);
    mt_context_destroy(ctx);
    free(any);
    free(al);
    free(all);
    free(other);
}

static void entry_never_called(void **args, struct mt_host_thread *self) {
    (void)args;
    (void)self;
    fail_msg("a refused launch ran");
}

static void test_host_run_refuses(void **state) {
    (void)state;
    char err[128];
    uint32_t grid[3] = {1, 0, 1};
    assert_int_equal(mt_host_run(entry_never_called, NULL, grid, 32, 0, err, sizeof err),
                     MT_ERR_ARG);
    assert_non_null(strstr(err, "grid (1, 0, 1)"));
    grid[1] = 1;
    assert_int_equal(mt_host_run(entry_never_called, NULL, grid, 2048, 0, err, sizeof err),
                     MT_ERR_ARG);
    assert_int_equal(mt_host_run(NULL, NULL, grid, 32, 0, err, sizeof err), MT_ERR_ARG);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_files),
        cmocka_unit_test(test_cuda_files),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_names_and_comments),
        cmocka_unit_test(test_link),
        cmocka_unit_test(test_host_run_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
