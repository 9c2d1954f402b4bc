/* test_api.c: the signature parser and the public C API end to end on the
 * host backend: compiling, printing stages, errors with locations, the
 * in-memory cache, launching with checked arguments. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <locale.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

static const char add_src[] =
    "import mytriton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    tl.store(out + offs, tl.load(x + offs, mask=mask) + tl.load(y + offs, mask=mask),\n"
    "             mask=mask)\n";

/* ---- signature parser ---- */

static int parse_sig(const char *sig, SigEntry **e, int *n, Ctx *c) {
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    sb_init(&c->err);
    return sig_parse(c, sig, e, n);
}

static void done(Ctx *c) {
    arena_free(c->arena);
    sb_free(&c->err);
}

static void test_sig_types_and_literals(void **state) {
    (void)state;
    Ctx c;
    SigEntry *e;
    int n;
    assert_int_equal(parse_sig("*fp32, *i32:16,*i1, i32, i64,fp32, i1, 256, -1.5, True, 'ieee', 1e-05",
                               &e, &n, &c), 0);
    assert_int_equal(n, 12);
    assert_int_equal(e[0].kind, SIG_PTR);
    assert_int_equal(e[0].dtype, DT_F32);
    assert_int_equal(e[1].kind, SIG_PTR);
    assert_int_equal(e[1].dtype, DT_I32);
    assert_int_equal(e[2].dtype, DT_I1);
    assert_int_equal(e[3].kind, SIG_SCALAR);
    assert_int_equal(e[4].dtype, DT_I64);
    assert_int_equal(e[5].dtype, DT_F32);
    assert_int_equal(e[7].kind, SIG_CONST);
    assert_int_equal(e[7].value.kind, CK_INT);
    assert_int_equal(e[7].value.i, 256);
    assert_int_equal(e[8].value.kind, CK_FLOAT);
    assert_true(e[8].value.f == -1.5);
    assert_int_equal(e[9].value.kind, CK_BOOL);
    assert_int_equal(e[9].value.i, 1);
    assert_int_equal(e[10].value.kind, CK_STR);
    assert_string_equal(e[10].value.s, "ieee");
    assert_true(e[11].value.f == 1e-05);
    done(&c);
}

/* Tuples of literals (a constexpr shape), nested, of one item, empty; the
 * entry splitter keeps a tuple's commas; "(4)" is a number to Python,
 * and malformed tuples are errors. */
static void test_sig_tuple_literals(void **state) {
    (void)state;
    Ctx c;
    SigEntry *e;
    int n;
    assert_int_equal(parse_sig("*fp32, (4, 8), ((1, 2), 'a,b', True), (3,), (), 7", &e, &n, &c), 0);
    assert_int_equal(n, 6);
    assert_int_equal(e[1].value.kind, CK_TUPLE);
    assert_int_equal(e[1].value.n, 2);
    assert_int_equal(e[1].value.items[1].i, 8);
    const ConstVal *t = &e[2].value;
    assert_int_equal(t->n, 3);
    assert_int_equal(t->items[0].kind, CK_TUPLE);
    assert_int_equal(t->items[0].items[1].i, 2);
    assert_string_equal(t->items[1].s, "a,b");
    assert_int_equal(t->items[2].kind, CK_BOOL);
    assert_int_equal(e[3].value.n, 1);
    assert_int_equal(e[4].value.kind, CK_TUPLE);
    assert_int_equal(e[4].value.n, 0);
    assert_int_equal(e[5].value.i, 7);
    done(&c);
    static const char *const bad[] = {"(4)", "(4,,8)", "(4, 8", "(, )", "(4 8)"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse_sig(bad[i], &e, &n, &c), -1);
        done(&c);
    }
}

/* Every dtype has Triton's signature spelling, as a pointer and a scalar,
 * and the public enum names it the same way. */
static void test_sig_every_dtype(void **state) {
    (void)state;
    static const struct { const char *spelling; DType d; size_t size; } rows[] = {
        {"i1", DT_I1, 1},     {"i8", DT_I8, 1},       {"i16", DT_I16, 2},
        {"i32", DT_I32, 4},   {"i64", DT_I64, 8},     {"u8", DT_U8, 1},
        {"u16", DT_U16, 2},   {"u32", DT_U32, 4},     {"u64", DT_U64, 8},
        {"fp16", DT_F16, 2},  {"bf16", DT_BF16, 2},   {"fp32", DT_F32, 4},
        {"fp64", DT_F64, 8},  {"fp8e4nv", DT_F8E4, 1}, {"fp8e5", DT_F8E5, 1},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        Ctx c;
        SigEntry *e;
        int n;
        char sig[64];
        snprintf(sig, sizeof sig, "*%s:16, %s", rows[i].spelling, rows[i].spelling);
        assert_int_equal(parse_sig(sig, &e, &n, &c), 0);
        assert_int_equal(n, 2);
        assert_int_equal(e[0].kind, SIG_PTR);
        assert_int_equal(e[0].dtype, rows[i].d);
        assert_int_equal(e[0].hint, 16);
        assert_int_equal(e[1].kind, SIG_SCALAR);
        assert_int_equal(e[1].dtype, rows[i].d);
        done(&c);
        mt_dtype pd = (mt_dtype)(rows[i].d - 1);
        assert_string_equal(mt_dtype_name(pd), rows[i].spelling);
        assert_int_equal(mt_dtype_size(pd), rows[i].size);
    }
    assert_null(mt_dtype_name(MT_DTYPE_COUNT));
    assert_null(mt_dtype_name(MT_DTYPE_NONE));
    assert_int_equal(mt_dtype_size(MT_DTYPE_COUNT), 0);
}

/* Triton's descriptor type and "*k", beside the other entries; every
 * malformed descriptor is a located error, never a read past the entry. */
static void test_sig_descriptors_and_const_pointers(void **state) {
    (void)state;
    Ctx c;
    SigEntry *e;
    int n;
    assert_int_equal(parse_sig("tensordesc<fp16[64, 32]>, *kfp32:16, tensordesc<bf16[1,2,4,8,16],nan>, "
                               "tensordesc<i8[16],zero>, 3",
                               &e, &n, &c), 0);
    assert_int_equal(n, 5);
    assert_int_equal(e[0].kind, SIG_DESC);
    assert_int_equal(e[0].dtype, DT_F16);
    assert_int_equal(e[0].desc_rank, 2);
    assert_int_equal(e[0].desc_block[0], 64);
    assert_int_equal(e[0].desc_block[1], 32);
    assert_int_equal(e[0].desc_nan, 0);
    assert_int_equal(e[1].kind, SIG_PTR);
    assert_true(e[1].is_const);
    assert_int_equal(e[1].hint, 16);
    assert_int_equal(e[2].desc_rank, 5);
    assert_int_equal(e[2].desc_block[4], 16);
    assert_int_equal(e[2].desc_nan, 1);
    assert_int_equal(e[3].dtype, DT_I8);
    assert_int_equal(e[4].kind, SIG_CONST);
    done(&c);
    static const char *const bad[] = {
        "tensordesc<fp16[64, 32]", "tensordesc<fp16[64 32]>", "tensordesc<fp17[64]>",
        "tensordesc<fp16[]>", "tensordesc<fp16[64,]>", "tensordesc<fp16[12]>",
        "tensordesc<fp16[1,2,4,8,16,32]>", "tensordesc<fp16[64],inf>", "tensordesc<fp16 64>",
        "tensordesc<fp16[0]>", "tensordesc<fp16[99999999999999]>", "tensordesc<>, i32",
        "tensordesc<fp16[64]>>", "tensordesc<fp16[[64]]>",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse_sig(bad[i], &e, &n, &c), -1);
        assert_int_equal(c.status, MT_ERR_SIGNATURE);
        assert_non_null(strstr(sb_str(&c.err), "tensor descriptor"));
        done(&c);
    }
}

static void test_sig_errors_are_located(void **state) {
    (void)state;
    Ctx c;
    SigEntry *e;
    int n;
    assert_int_equal(parse_sig("*fp32, fp12, 4", &e, &n, &c), -1);
    assert_int_equal(c.status, MT_ERR_SIGNATURE);
    assert_int_equal(c.err_loc.col, 8);
    assert_non_null(strstr(sb_str(&c.err), "<signature>:1:8: error: unknown type 'fp12'"));
    assert_non_null(strstr(sb_str(&c.err), "*fp32, fp12, 4\n       ^"));
    done(&c);
    assert_int_equal(parse_sig("*fp32,,i32", &e, &n, &c), -1);
    assert_non_null(strstr(sb_str(&c.err), "empty signature entry"));
    done(&c);
    assert_int_equal(parse_sig("*bf17", &e, &n, &c), -1);
    assert_non_null(strstr(sb_str(&c.err), "unknown pointer type '*bf17'"));
    done(&c);
    assert_int_equal(parse_sig("'abc", &e, &n, &c), -1);
    assert_non_null(strstr(sb_str(&c.err), "unterminated string"));
    done(&c);
    assert_int_equal(parse_sig("12x", &e, &n, &c), -1);
    assert_non_null(strstr(sb_str(&c.err), "invalid constexpr literal '12x'"));
    done(&c);
    assert_int_equal(parse_sig("*i32:", &e, &n, &c), -1);
    done(&c);
    assert_int_equal(parse_sig("*fp32:12", &e, &n, &c), -1);
    assert_non_null(strstr(sb_str(&c.err), "power of two"));
    done(&c);
    assert_int_equal(parse_sig("*fp32:16, i32:1", &e, &n, &c), 0);
    assert_int_equal(e[0].hint, 16);
    done(&c);
    assert_int_equal(parse_sig("", &e, &n, &c), 0);
    assert_int_equal(n, 0);
    done(&c);
}

/* ---- the pipeline ---- */

typedef struct Seen {
    int order[16]; /* stages in the order the sink saw them */
    int n;
    size_t len[16];
} Seen;

static void see_stage(void *user, mt_stage stage, const char *text, size_t len) {
    Seen *s = user;
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    if (s->n < 16) {
        s->len[s->n] = len;
        s->order[s->n++] = (int)stage;
    }
}

static Func *run_pipeline(Ctx *c, const char *src, const char *kernel, const char *sig,
                          int num_warps, const StageSink *sink) {
    memset(c, 0, sizeof *c);
    c->arena = arena_new();
    c->filename = "k.py";
    c->src = src;
    c->srclen = strlen(src);
    sb_init(&c->err);
    PipelineInput in = {.kernel = kernel, .signature = sig, .num_warps = num_warps};
    return pipeline_run(c, &in, sink);
}

static void test_pipeline_snapshots_in_order(void **state) {
    (void)state;
    Ctx c;
    Seen seen = {0};
    StageSink sink = {see_stage, &seen};
    Func *f = run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,256", 4, &sink);
    assert_non_null(f);
    assert_int_equal(f->nparams, 4);
    assert_int_equal(f->num_warps, 4);
    assert_int_equal(seen.n, 5);
    static const int want[] = {MT_STAGE_AST, MT_STAGE_SSA, MT_STAGE_SSA_OPT,
                               MT_STAGE_SSA_LAYOUT, MT_STAGE_CUDA};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(seen.order[i], want[i]);
        assert_true(seen.len[i] > 0);
    }
    done(&c);
    /* without a sink nothing is printed and the result is the same */
    assert_non_null(run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,256", 4,
                                 NULL));
    done(&c);
    /* a failing pass stops the pipeline: no snapshot after it */
    memset(&seen, 0, sizeof seen);
    assert_null(run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,262144", 4,
                             &sink));
    assert_int_equal(c.status, MT_ERR_RESOURCE);
    assert_int_equal(seen.n, 3);
    assert_int_equal(seen.order[2], MT_STAGE_SSA_OPT);
    done(&c);
}

static void test_resource_pass(void **state) {
    (void)state;
    Ctx c;
    /* elements per thread: located at the op that makes the block */
    assert_null(run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,131072", 2, NULL));
    assert_int_equal(c.status, MT_ERR_RESOURCE);
    assert_int_equal(c.err_loc.line, 5);
    assert_non_null(strstr(sb_str(&c.err),
                           "vector<131072 x i32> gives each of the 64 threads 2048 elements, "
                           "more than 512; use a smaller block or more warps (num_warps=2 now)"));
    done(&c);
    /* the same block fits 32 warps: 128 elements per thread */
    assert_non_null(run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,131072", 32,
                                 NULL));
    done(&c);
    /* the program size: located at the kernel's def */
    static const int bad_warps[] = {0, -4, 3, 6, 64, 1 << 30};
    for (size_t i = 0; i < sizeof bad_warps / sizeof bad_warps[0]; i++) {
        assert_null(run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,256",
                                 bad_warps[i], NULL));
        assert_int_equal(c.status, MT_ERR_ARG);
        assert_int_equal(c.err_loc.line, 4);
        assert_non_null(strstr(sb_str(&c.err), "num_warps must be a power of two from 1 to 32"));
        done(&c);
    }
    static const int good_warps[] = {1, 2, 4, 8, 16, 32};
    for (size_t i = 0; i < sizeof good_warps / sizeof good_warps[0]; i++) {
        Func *f = run_pipeline(&c, add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,256",
                               good_warps[i], NULL);
        assert_non_null(f);
        assert_int_equal(f->num_warps, good_warps[i]);
        done(&c);
    }
}

static void test_stage_names(void **state) {
    (void)state;
    static const struct { mt_stage s; const char *name; } want[] = {
        {MT_STAGE_AST, "ast"},   {MT_STAGE_SSA, "ssa"}, {MT_STAGE_SSA_OPT, "ssa-opt"},
        {MT_STAGE_CUDA, "cuda"}, {MT_STAGE_PTX, "ptx"}, {MT_STAGE_CUBIN, "cubin"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        assert_string_equal(mt_stage_name(want[i].s), want[i].name);
    /* every stage has a distinct name; the first value without one ends them */
    int n = 0;
    while (mt_stage_name((mt_stage)n))
        n++;
    assert_int_equal(n, MT_NSTAGES);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            assert_string_not_equal(mt_stage_name((mt_stage)a), mt_stage_name((mt_stage)b));
    assert_null(mt_stage_name((mt_stage)-1));
    assert_null(mt_stage_name((mt_stage)MT_NSTAGES));
}

/* ---- public API ---- */

static mt_compile_options add_options(const char *sig) {
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = add_src;
    o.filename = "add.py";
    o.kernel = "add_kernel";
    o.signature = sig;
    o.backend = MT_BACKEND_HOST;
    o.stages_only = 1;
    return o;
}

static mt_context *new_context(void) {
    mt_context *ctx = NULL;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    return ctx;
}

static void test_compile_stages(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,256");
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    const char *text;
    size_t len;
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_SSA_OPT, &text, &len), MT_OK);
    assert_non_null(strstr(text, "program_id {axis=0} : i32"));
    assert_non_null(strstr(text, "arange {start=0, end=256} : vector<256 x i32>"));
    assert_non_null(strstr(text, "store "));
    assert_int_equal(strlen(text), len);
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_AST, &text, NULL), MT_OK);
    assert_non_null(strstr(text, "add_kernel"));
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_CUDA, &text, NULL), MT_OK);
    assert_non_null(strstr(text, "extern \"C\" __global__"));
    assert_int_equal(mt_kernel_num_params(k), 4);
    assert_int_equal(mt_kernel_param_type(k, 0), MT_PARAM_PTR_F32);
    assert_int_equal(mt_kernel_param_type(k, 3), MT_PARAM_I32);
    assert_string_equal(mt_kernel_param_name(k, 3), "n");
    assert_int_equal(mt_kernel_num_warps(k), 4);
    /* the same specialisation is a cache hit: the same handle */
    mt_kernel *k2;
    assert_int_equal(mt_compile(ctx, &o, &k2), MT_OK);
    assert_ptr_equal(k, k2);
    /* another constexpr value is another kernel */
    mt_compile_options o2 = add_options("*fp32,*fp32,*fp32,i32,128");
    mt_kernel *k3;
    assert_int_equal(mt_compile(ctx, &o2, &k3), MT_OK);
    assert_ptr_not_equal(k, k3);
    /* stages_only kernels cannot be launched */
    uint32_t grid[3] = {1, 1, 1};
    int32_t n = 4;
    float buf[4];
    void *p = buf;
    void *args[] = {&p, &p, &p, &n};
    assert_int_equal(mt_launch(ctx, k, grid, NULL, args), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "stages_only"));
    mt_kernel_destroy(k);
    mt_kernel_destroy(k2);
    mt_kernel_destroy(k3);
    mt_context_destroy(ctx);
}

/* The options struct carries its size: a caller built against another
 * mytriton.h (or one that forgot MT_COMPILE_OPTIONS_INIT) is refused with
 * a message, before any other field is read. */
static void test_options_size_checked(void **state) {
    (void)state;
    mt_context *ctx = new_context();
    mt_compile_options init = MT_COMPILE_OPTIONS_INIT;
    assert_int_equal(init.size, sizeof(mt_compile_options));
    assert_null(init.source);
    assert_int_equal(init.num_warps, 0);
    const size_t bad[] = {0, sizeof(mt_compile_options) - sizeof(void *),
                          sizeof(mt_compile_options) + sizeof(void *),
                          (size_t)(uintptr_t)add_src /* an old caller's source pointer */};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,256");
        o.size = bad[i];
        mt_kernel *k = (mt_kernel *)1;
        assert_int_equal(mt_compile(ctx, &o, &k), MT_ERR_ARG);
        assert_ptr_equal(k, (mt_kernel *)1); /* nothing written */
        char want[64];
        snprintf(want, sizeof want, "mt_compile_options.size is %zu, this library's is %zu",
                 bad[i], sizeof(mt_compile_options));
        assert_non_null(strstr(mt_errmsg(ctx), want));
        assert_non_null(strstr(mt_errmsg(ctx), "MT_COMPILE_OPTIONS_INIT"));
    }
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,256");
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    assert_int_equal(mt_version(), MT_API_VERSION);
    mt_context_destroy(ctx);
}

/* Option strings are read during mt_compile and copied where kept. */
static void test_option_strings_copied(void **state) {
    (void)state;
    mt_context *ctx = new_context();
    char *src = strdup(add_src), *name = strdup("add_kernel"), *sig = strdup("*fp32,*fp32,*fp32,i32,64");
    char *file = strdup("add.py"), *arch = strdup("sm_80");
    mt_compile_options o = add_options(sig);
    o.source = src;
    o.kernel = name;
    o.filename = file;
    o.backend = MT_BACKEND_CUDA;
    o.arch = arch;
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    memset(src, 'x', strlen(src));
    memset(name, 'x', strlen(name));
    memset(sig, 'x', strlen(sig));
    memset(arch, 'x', strlen(arch));
    free(src);
    free(name);
    free(sig);
    free(file);
    free(arch);
    assert_string_equal(mt_kernel_name(k), "add_kernel");
    assert_string_equal(mt_kernel_param_name(k, 3), "n");
    const char *text;
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_CUDA, &text, NULL), MT_OK);
    assert_non_null(strstr(text, "add_kernel("));
    mt_context_destroy(ctx);
}

/* A bad index is reported, not answered with a plausible type. */
static void test_param_bad_index(void **state) {
    (void)state;
    mt_context *ctx = new_context();
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,256");
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    assert_int_equal(mt_kernel_num_params(k), 4);
    assert_int_equal(mt_kernel_param_type(k, 0), MT_PARAM_PTR_F32);
    const int bad[] = {-1, 4, 5, 1 << 30, -(1 << 30)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(mt_kernel_param_type(k, bad[i]), MT_PARAM_NONE);
        assert_null(mt_kernel_param_name(k, bad[i]));
    }
    assert_int_equal(mt_kernel_param_type(NULL, 0), MT_PARAM_NONE);
    assert_int_equal(mt_kernel_num_params(NULL), 0);
    mt_context_destroy(ctx);
}

static void test_memcpy_kind(void **state) {
    (void)state;
    mt_context *ctx = new_context();
    float host[4] = {1, 2, 3, 4}, back[4] = {0};
    void *dev;
    assert_int_equal(mt_malloc(ctx, MT_BACKEND_HOST, sizeof host, &dev), MT_OK);
    assert_int_equal(mt_memcpy(ctx, MT_BACKEND_HOST, dev, host, sizeof host,
                               MT_MEMCPY_HOST_TO_DEVICE), MT_OK);
    assert_int_equal(mt_memcpy(ctx, MT_BACKEND_HOST, back, dev, sizeof back,
                               MT_MEMCPY_DEVICE_TO_HOST), MT_OK);
    assert_memory_equal(host, back, sizeof host);
    /* 0 was "to host" before the enum: now it, like any other value, is refused */
    const int bad[] = {0, 3, -1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        back[0] = 0;
        assert_int_equal(mt_memcpy(ctx, MT_BACKEND_HOST, back, dev, sizeof back,
                                   (mt_memcpy_kind)bad[i]), MT_ERR_ARG);
        assert_non_null(strstr(mt_errmsg(ctx), "unknown direction"));
        assert_true(back[0] == 0);
    }
    assert_int_equal(mt_free(ctx, MT_BACKEND_HOST, dev), MT_OK);
    mt_context_destroy(ctx);
}

/* What the header says about lifetime: a destroyed handle stays cached
 * (and valid) until its context goes; compiling again returns it. */
static void test_kernel_lifetime(void **state) {
    (void)state;
    mt_context *ctx = new_context();
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,256");
    mt_kernel *k, *again;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    mt_kernel_destroy(k);
    mt_kernel_destroy(k); /* one reference too many: the cache keeps its own */
    assert_string_equal(mt_kernel_name(k), "add_kernel");
    assert_int_equal(mt_compile(ctx, &o, &again), MT_OK);
    assert_ptr_equal(again, k);
    mt_context_destroy(ctx); /* frees k: nothing may touch it after this */
}

static void test_compile_errors(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_kernel *k = (mt_kernel *)1;
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32");
    assert_int_equal(mt_compile(ctx, &o, &k), MT_ERR_SIGNATURE);
    assert_null(k);
    assert_non_null(strstr(mt_errmsg(ctx), "signature has 4 entries"));
    o = add_options("*fp32,*fp32,*fp32,i32,256");
    o.kernel = "nope";
    assert_int_equal(mt_compile(ctx, &o, &k), MT_ERR_NAME);
    assert_non_null(strstr(mt_errmsg(ctx), "'nope'"));
    o = add_options("*fp32,*fp32,*fp32,i32,256");
    o.num_warps = 3;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "num_warps must be a power of two"));
    o = add_options("*fp32,*fp32,*fp32,i32,256");
    o.fp32_default = "fp16"; /* Triton's TRITON_F32_DEFAULT names */
    assert_int_equal(mt_compile(ctx, &o, &k), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "fp32_default must be one of 'tf32', 'tf32x3', "
                                           "'ieee', 'bf16x3', 'bf16x6', got 'fp16'"));
    o = add_options("*fp32,*fp32,*fp32,i32,256");
    o.source = "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n    offs = BLOK\n";
    assert_int_equal(mt_compile(ctx, &o, &k), MT_ERR_NAME);
    const char *file;
    int line, col;
    mt_error_loc(ctx, &file, &line, &col);
    assert_string_equal(file, "add.py");
    assert_int_equal(line, 2);
    assert_int_equal(col, 12);
    assert_non_null(strstr(mt_errmsg(ctx), "add.py:2:12: error: "));
    assert_non_null(strstr(mt_errmsg(ctx), "    offs = BLOK\n           ^\n"));
    assert_int_equal(mt_compile(ctx, NULL, &k), MT_ERR_ARG);
    assert_int_equal(mt_compile(NULL, &o, &k), MT_ERR_ARG);
    mt_context_destroy(ctx);
    mt_context_destroy(NULL);
    mt_kernel_destroy(NULL);
}

/* mt_launch_device (issue 14) with a host kernel of test_host_launch's
 * shape: the host backend ignores the device; bad handles are refused;
 * mt_cuda_pointer_device needs a driver, and host memory is no device's. */
static void check_launch_device(mt_context *ctx, mt_kernel *k, mt_kernel *stages_only) {
    float x[8], y[8], out[8];
    for (int i = 0; i < 8; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
        out[i] = NAN;
    }
    void *px = x, *py = y, *po = out;
    int32_t n = 8;
    void *args[] = {&px, &py, &po, &n};
    uint32_t grid[3] = {1, 1, 1};
    assert_int_equal(mt_launch_device(k, 3, grid, NULL, args), MT_OK);
    for (int i = 0; i < 8; i++)
        assert_true(out[i] == (float)i + 1.0f);
    assert_int_equal(mt_launch_device(NULL, 0, grid, NULL, args), MT_ERR_ARG);
    assert_int_equal(mt_launch_device(stages_only, 0, grid, NULL, args), MT_ERR_ARG);
    int dev = -7;
    assert_int_equal(mt_cuda_pointer_device(NULL, x, &dev), MT_ERR_ARG);
    assert_int_equal(mt_cuda_pointer_device(ctx, x, NULL), MT_ERR_ARG);
    void *probe = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!probe) {
        assert_int_equal(mt_cuda_pointer_device(ctx, x, &dev), MT_ERR_NO_CUDA);
        assert_non_null(strstr(mt_errmsg(ctx), "libcuda.so.1 not found"));
        assert_int_equal(dev, -7);
    } else {
        assert_int_equal(mt_cuda_pointer_device(ctx, x, &dev), MT_ERR_ARG);
        dlclose(probe);
    }
}

/* The cpu backend (issue 18) through the public API: its C is a stage of
 * its own, the same launch and grid checks as the host backend's, and
 * the same results; a kernel of another backend has no cpu stage. */
static void test_cpu_launch(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,64");
    o.stages_only = 0;
    o.backend = MT_BACKEND_CPU;
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    assert_int_equal(mt_kernel_backend(k), MT_BACKEND_CPU);
    const char *text;
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_CPU, &text, NULL), MT_OK);
    assert_non_null(strstr(text, "static void mt_cpu_kernel(mt_host_thread *mt_self"));
    assert_string_equal(mt_stage_name(MT_STAGE_CPU), "cpu");
    enum { N = 1000 };
    float x[N], y[N], out[N + 1];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 0.25f * (float)i;
        out[i] = NAN;
    }
    out[N] = -7.0f; /* past the end: the mask keeps it */
    void *px = x, *py = y, *po = out;
    int32_t n = N;
    void *args[] = {&px, &py, &po, &n};
    uint32_t grid[3] = {(N + 63) / 64, 1, 1};
    assert_int_equal(mt_launch(ctx, k, grid, NULL, args), MT_OK);
    for (int i = 0; i < N; i++)
        assert_true(out[i] == 1.25f * (float)i);
    assert_true(out[N] == -7.0f);
    uint32_t bad[3] = {1, 0, 1};
    assert_int_equal(mt_launch(ctx, k, bad, NULL, args), MT_ERR_ARG);
    char err[256];
    assert_int_equal(mt_launch_host(k, grid, args, NULL, NULL, err, sizeof err), MT_OK);
    /* a host kernel has no cpu stage */
    mt_compile_options h = add_options("*fp32,*fp32,*fp32,i32,64");
    mt_kernel *hk;
    assert_int_equal(mt_compile(ctx, &h, &hk), MT_OK);
    assert_int_equal(mt_kernel_stage(ctx, hk, MT_STAGE_CPU, &text, NULL), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "not compiled for the cpu backend"));
    mt_kernel_destroy(k);
    mt_kernel_destroy(hk);
    mt_context_destroy(ctx);
}

static void test_host_launch(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,64");
    o.stages_only = 0;
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    enum { N = 200 };
    float x[N], y[N], out[N + 1];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i;
        y[i] = 0.5f * (float)i;
        out[i] = NAN;
    }
    out[N] = -7.0f; /* past the end: must stay untouched (masking) */
    void *px = x, *py = y, *po = out;
    int32_t n = N;
    void *args[] = {&px, &py, &po, &n};
    uint32_t grid[3] = {(N + 63) / 64, 1, 1};
    assert_int_equal(mt_launch(ctx, k, grid, NULL, args), MT_OK);
    for (int i = 0; i < N; i++)
        assert_true(out[i] == 1.5f * (float)i);
    assert_true(out[N] == -7.0f);
    /* bad grid and NULL argument are refused before anything runs */
    uint32_t bad[3] = {0, 1, 1};
    out[0] = NAN;
    assert_int_equal(mt_launch(ctx, k, bad, NULL, args), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "invalid launch grid"));
    void *nargs[] = {&px, NULL, &po, &n};
    assert_int_equal(mt_launch(ctx, k, grid, NULL, nargs), MT_ERR_ARG);
    assert_true(isnan(out[0]));
    /* the host has no register file or local memory: zeros, and the
     * host's thread limit */
    int regs = -1, local = -1, threads = -1;
    assert_int_equal(mt_kernel_usage(ctx, k, &regs, &local, &threads), MT_OK);
    assert_int_equal(regs, 0);
    assert_int_equal(local, 0);
    assert_int_equal(threads, 1024);
    assert_int_equal(mt_kernel_usage(ctx, k, NULL, NULL, NULL), MT_OK);
    assert_int_equal(mt_kernel_usage(ctx, NULL, &regs, NULL, NULL), MT_ERR_ARG);
    assert_int_equal(mt_kernel_usage(NULL, k, &regs, NULL, NULL), MT_ERR_ARG);
    mt_compile_options so = add_options("*fp32,*fp32,*fp32,i32,64");
    mt_kernel *sk;
    assert_int_equal(mt_compile(ctx, &so, &sk), MT_OK);
    assert_int_equal(mt_kernel_usage(ctx, sk, &regs, NULL, NULL), MT_ERR_ARG);
    assert_non_null(strstr(mt_errmsg(ctx), "stages_only"));
    check_launch_device(ctx, k, sk);
    mt_kernel_destroy(sk);
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
}

/* A host program under a comma-decimal locale (after setlocale(LC_ALL,
 * "")) must still read 1.5 as 1.5 in kernels and signatures.  It runs in a
 * child process: glibc keeps a locale loaded through LOCPATH for good,
 * which LeakSanitizer would report. */
static int locale_child(const char *dir) {
    setenv("LOCPATH", dir, 1);
    locale_t de = newlocale(LC_ALL_MASK, "de_DE.UTF-8", (locale_t)0);
    if (!de)
        return 77;
    uselocale(de);
    if (strtod("1.5", NULL) != 1.0)
        return 10; /* the trap itself is not armed */
    mt_context *ctx;
    if (mt_context_create(&ctx) != MT_OK)
        return 11;
    mt_compile_options o = add_options("*fp32,*fp32,*fp32,i32,64");
    o.source = "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
               "    tl.store(out, tl.load(x) * 1.5 + BLOCK * 0.25)\n";
    mt_kernel *k;
    const char *ssa, *cuda;
    if (mt_compile(ctx, &o, &k) != MT_OK ||
        mt_kernel_stage(ctx, k, MT_STAGE_SSA_OPT, &ssa, NULL) != MT_OK ||
        mt_kernel_stage(ctx, k, MT_STAGE_CUDA, &cuda, NULL) != MT_OK)
        return 12;
    if (!strstr(ssa, "mul %0, 1.5 : f32") || !strstr(ssa, "add %1, 16.0 : f32"))
        return 13;
    if (!strstr(cuda, "1.5f"))
        return 14;
    if (uselocale((locale_t)0) != de)
        return 15; /* the caller's locale must be back */
    return 0;
}

static void test_locale_independent_numbers(void **state) {
    (void)state;
    char dir[] = "/tmp/mt_locale_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char cmd[256];
    snprintf(cmd, sizeof cmd,
             "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1", dir);
    int made = system(cmd);
    pid_t pid = made == 0 ? fork() : -1;
    if (pid == 0)
        _exit(locale_child(dir));
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    if (made != 0 || (WIFEXITED(status) && WEXITSTATUS(status) == 77))
        skip(); /* no locale sources (Debian package 'locales') */
    assert_true(pid > 0);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* A host application that ignores SIGCHLD has its children reaped for it:
 * waitpid cannot report the compiler's exit status, and the host backend
 * must still build the kernel (never "waitpid failed"). */
static void test_host_build_with_sigchld_ignored(void **state) {
    (void)state;
    char src[256];
    /* a value no other run used, so the compiler really runs */
    snprintf(src, sizeof src,
             "def k(out):\n    tl.store(out, %ld.0)\n", (long)getpid() * 1000 + (long)time(NULL) % 1000);
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = src;
    o.filename = "sig.py";
    o.kernel = "k";
    o.signature = "*fp32";
    o.backend = MT_BACKEND_HOST;
    void (*old)(int) = signal(SIGCHLD, SIG_IGN);
    mt_kernel *k;
    mt_status st = mt_compile(ctx, &o, &k);
    signal(SIGCHLD, old);
    assert_int_equal(st, MT_OK);
    float out = 0;
    void *p = &out;
    void *args[] = {&p};
    uint32_t grid[3] = {1, 1, 1};
    assert_int_equal(mt_launch(ctx, k, grid, NULL, args), MT_OK);
    assert_true(out > 1000.0f);
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
}

/* Points MYTRITON_CACHE_DIR at dir; returns the old value to restore. */
static char *swap_cache_dir(const char *dir) {
    const char *saved = getenv("MYTRITON_CACHE_DIR");
    char *keep = saved ? strdup(saved) : NULL;
    setenv("MYTRITON_CACHE_DIR", dir, 1);
    return keep;
}

static void restore_cache_dir(char *keep) {
    if (keep)
        setenv("MYTRITON_CACHE_DIR", keep, 1);
    else
        unsetenv("MYTRITON_CACHE_DIR");
    free(keep);
}

/* A cache directory others can write to is never used (the host backend
 * loads shared objects from it). */
static void test_untrusted_cache_dir(void **state) {
    (void)state;
    char dir[] = "/tmp/mt_cache_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *keep = swap_cache_dir(dir);
    Arena *a = arena_new();
    assert_non_null(cache_dir(a));
    assert_int_equal(chmod(dir, 0777), 0);
    assert_null(cache_dir(a));
    assert_int_equal(chmod(dir, 0700), 0);
    assert_non_null(cache_dir(a));
    arena_free(a);
    rmdir(dir);
    restore_cache_dir(keep);
}

/* A refused cache is said once per context (mt_cache_warning), and the
 * kernel still builds and runs without it. */
static void test_untrusted_cache_warns_once(void **state) {
    (void)state;
    char dir[] = "/tmp/mt_cache_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *keep = swap_cache_dir(dir);
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.filename = "w.py";
    o.kernel = "k";
    o.signature = "*fp32";
    o.backend = MT_BACKEND_HOST;
    o.source = "def k(out):\n    tl.store(out, 1.0)\n";
    mt_kernel *k;
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    assert_null(mt_cache_warning(ctx)); /* a trusted cache: nothing to say */
    mt_kernel_destroy(k);
    assert_int_equal(chmod(dir, 0777), 0);
    o.source = "def k(out):\n    tl.store(out, 2.0)\n";
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    const char *w = mt_cache_warning(ctx);
    assert_non_null(w);
    assert_non_null(strstr(w, dir));
    assert_null(mt_cache_warning(ctx)); /* once */
    float out = 0;
    void *p = &out;
    void *args[] = {&p};
    uint32_t grid[3] = {1, 1, 1};
    assert_int_equal(mt_launch(ctx, k, grid, NULL, args), MT_OK);
    assert_true(out == 2.0f);
    mt_kernel_destroy(k);
    o.source = "def k(out):\n    tl.store(out, 3.0)\n";
    assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
    assert_null(mt_cache_warning(ctx));
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
    assert_int_equal(chmod(dir, 0700), 0);
    char host[64];
    snprintf(host, sizeof host, "%s/host", dir);
    DIR *d = opendir(host);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') {
            char path[400];
            snprintf(path, sizeof path, "%s/%s", host, e->d_name);
            unlink(path);
        }
    closedir(d);
    rmdir(host);
    rmdir(dir);
    restore_cache_dir(keep);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sig_types_and_literals),
        cmocka_unit_test(test_sig_tuple_literals),
        cmocka_unit_test(test_sig_every_dtype),
        cmocka_unit_test(test_sig_errors_are_located),
        cmocka_unit_test(test_sig_descriptors_and_const_pointers),
        cmocka_unit_test(test_pipeline_snapshots_in_order),
        cmocka_unit_test(test_resource_pass),
        cmocka_unit_test(test_stage_names),
        cmocka_unit_test(test_compile_stages),
        cmocka_unit_test(test_options_size_checked),
        cmocka_unit_test(test_option_strings_copied),
        cmocka_unit_test(test_param_bad_index),
        cmocka_unit_test(test_memcpy_kind),
        cmocka_unit_test(test_kernel_lifetime),
        cmocka_unit_test(test_compile_errors),
        cmocka_unit_test(test_host_launch),
        cmocka_unit_test(test_cpu_launch),
        cmocka_unit_test(test_locale_independent_numbers),
        cmocka_unit_test(test_untrusted_cache_dir),
        cmocka_unit_test(test_untrusted_cache_warns_once),
        cmocka_unit_test(test_host_build_with_sigchld_ignored),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
