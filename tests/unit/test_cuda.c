/* test_cuda.c: layouts (layout.c), the shared-buffer contract (smem.c) and
 * the CUDA C emitter (cuda.c).
 *
 * IR is built by hand, layouts are assigned, CUDA C is emitted; tests check
 * text properties and, most importantly, run the emitted kernels: the text
 * is compiled by the system C++ compiler with the host backend's emulation
 * header (src/mt_host.h, one POSIX thread per CUDA thread) and the results
 * are compared with C references.  Without a C++ compiler the execution
 * tests are skipped. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mt.h"
#include "host_fixture.h"

/* ------------------------------------------------------------ builder */

typedef struct K {
    Ctx c;
    Func *f;
    Region *r;
    int line;
} K;

static void k_init(K *k, const char *name, int num_warps) {
    memset(k, 0, sizeof *k);
    k->c.arena = arena_new();
    k->c.filename = "k.py";
    sb_init(&k->c.err);
    k->f = func_new(&k->c, name);
    k->f->num_warps = num_warps;
    k->r = &k->f->body;
    k->line = 1;
}

static void k_free(K *k) {
    sb_free(&k->c.err);
    arena_free(k->c.arena);
}

static Loc L(K *k) { return (Loc){k->line++, 5}; }

static Type ty(Func *f, ValId v) { return val_type(f, v); }

static ValId mk(K *k, OpCode code, Type t, ValId a, ValId b, ValId c,
                int nargs) {
    ValId args[3] = {a, b, c};
    return op_new(k->f, k->r, code, L(k), t, args, nargs)->res[0];
}

static ValId bin(K *k, OpCode code, ValId a, ValId b) {
    Type ta = ty(k->f, a), tb = ty(k->f, b), s;
    assert_int_equal(broadcast_shapes(ta, tb, &s), 0);
    DType d;
    if (code >= OP_CMP_LT && code <= OP_CMP_NE)
        d = DT_I1;
    else if (code == OP_ADDPTR)
        d = (DType)ta.dtype;
    else
        d = promote_dtype((DType)ta.dtype, (DType)tb.dtype);
    Type r = type_with_elem(s, type_scalar(d));
    if (code == OP_ADDPTR)
        r = type_with_elem(s, type_ptr(d));
    return mk(k, code, r, a, b, 0, 2);
}

static ValId un(K *k, OpCode code, ValId a) {
    return mk(k, code, ty(k->f, a), a, 0, 0, 1);
}

static ValId arange(K *k, int start, int end) {
    int32_t w = end - start;
    Op *op = op_new(k->f, k->r, OP_ARANGE, L(k),
                    type_block(type_scalar(DT_I32), 1, &w), NULL, 0);
    op->attr[0] = start;
    op->attr[1] = end;
    return op->res[0];
}

static ValId pid(K *k, int axis) {
    Op *op = op_new(k->f, k->r, OP_PROGRAM_ID, L(k), type_scalar(DT_I32),
                    NULL, 0);
    op->attr[0] = axis;
    return op->res[0];
}

static ValId expand(K *k, ValId a, int axis) {
    Type t = ty(k->f, a), r = t;
    r.rank = (uint8_t)(t.rank + 1);
    for (int i = 0, j = 0; i < r.rank; i++)
        r.shape[i] = i == axis ? 1 : t.shape[j++];
    Op *op = op_new(k->f, k->r, OP_EXPAND_DIMS, L(k), r, &a, 1);
    op->attr[0] = axis;
    return op->res[0];
}

static ValId reduce(K *k, OpCode code, ValId a, int axis) {
    Type t = ty(k->f, a), r = type_elem(t);
    if (t.rank == 2) {
        int32_t w = t.shape[1 - axis];
        r = type_block(type_elem(t), 1, &w);
    }
    Op *op = op_new(k->f, k->r, code, L(k), r, &a, 1);
    op->attr[0] = axis;
    return op->res[0];
}

static ValId load(K *k, ValId p, ValId m, ValId other) {
    Type t = ty(k->f, p), s = t;
    if (m)
        broadcast_shapes(s, ty(k->f, m), &s);
    Type r = type_with_elem(s, type_scalar((DType)t.dtype));
    return mk(k, OP_LOAD, r, p, m, other, 3);
}

static void store(K *k, ValId p, ValId v, ValId m) {
    ValId args[3] = {p, v, m};
    op_new(k->f, k->r, OP_STORE, L(k), type_scalar(DT_VOID), args, 3);
}

static ValId zeros(K *k, DType d, int rank, int32_t s0, int32_t s1) {
    int32_t sh[2] = {s0, s1};
    return mk(k, OP_ZEROS, type_block(type_scalar(d), rank, sh), 0, 0, 0, 0);
}

static ValId dot(K *k, ValId a, ValId b, ValId acc) {
    int32_t sh[2] = {ty(k->f, a).shape[0], ty(k->f, b).shape[1]};
    return mk(k, OP_DOT, type_block(type_scalar(DT_F32), 2, sh), a, b, acc, 3);
}

static ValId ci(K *k, int v) { return const_int(k->f, DT_I32, v); }

/* Runs the back-end passes (as compile_stages does) + cuda_emit;
 * returns malloc'ed text or NULL. */
static int back_passes(Func *f) {
    if (layout_assign(f) < 0 || axis_analyze(f) < 0 || plan_dots(f) < 0 ||
        smem_plan(f) < 0)
        return -1;
    return 0;
}

static char *emit(K *k) {
    if (back_passes(k->f) < 0)
        return NULL;
    StrBuf sb;
    sb_init(&sb);
    if (cuda_emit(k->f, &sb) < 0) {
        assert_int_equal(sb.len, 0); /* nothing written on failure */
        sb_free(&sb);
        return NULL;
    }
    char *s = strdup(sb_str(&sb));
    sb_free(&sb);
    return s;
}

static int count(const char *s, const char *needle) {
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ------------------------------------------------ host execution harness */

/* Kernels run through the real host backend (host.c + mt_host.h). */
typedef struct Runner {
    Ctx c;
    HostModule *m;
} Runner;

static bool have_cxx(void) { return system("c++ --version >/dev/null 2>&1") == 0; }

static int runner_build(Runner *rn, Func *f, const char *src) {
    memset(rn, 0, sizeof *rn);
    sb_init(&rn->c.err);
    char types[32][24];
    const char *ctypes[32];
    if (f->nparams > 32)
        return -1;
    for (int i = 0; i < f->nparams; i++) {
        Type t = val_type(f, f->params[i]);
        snprintf(types[i], sizeof types[i], "%s%s", dtype_ctype((DType)t.dtype),
                 t.is_ptr ? "*" : "");
        ctypes[i] = types[i];
    }
    int rc = host_build(&rn->c, src, f->name, ctypes, f->nparams, &rn->m);
    if (rc != 0)
        fprintf(stderr, "---- host build failed:\n%s\n%s\n", sb_str(&rn->c.err), src);
    return rc;
}

static void runner_free(Runner *rn) {
    host_module_free(rn->m);
    sb_free(&rn->c.err);
}

static void launch(Runner *rn, void **args, unsigned gx, unsigned gy,
                   unsigned threads) {
    uint32_t grid[3] = {gx, gy, 1};
    if (launch_host(&rn->c, rn->m, grid, (int)threads, args) != 0)
        fail_msg("host launch failed: %s", sb_str(&rn->c.err));
}

/* Emits k's kernel, builds it; the caller launches. */
static bool build_or_skip(K *k, Runner *rn, char **text) {
    *text = emit(k);
    if (!*text)
        fprintf(stderr, "%s", sb_str(&k->c.err));
    assert_non_null(*text);
    if (!have_cxx())
        return false;
    assert_int_equal(runner_build(rn, k->f, *text), 0);
    return true;
}

/* 16-byte aligned floats (what a ":16" hint promises), size rounded up
 * as aligned_alloc requires. */
static float *alloc16(size_t nfloats) {
    return aligned_alloc(16, (nfloats * sizeof(float) + 15) / 16 * 16);
}

static bool close_to(float a, float b) {
    if (isnan(a) || isnan(b))
        return isnan(a) && isnan(b);
    return fabsf(a - b) <= 1e-4f * (1.0f + fabsf(b));
}

/* --------------------------------------------------------------- smem.c */

static void test_smem_padding_rule(void **state) {
    (void)state;
    assert_int_equal(smem_bank_padding(16, 4), 1);
    assert_int_equal(smem_bank_padding(16, 2), 0);
    assert_int_equal(smem_bank_padding(8, 4), 0);
    assert_int_equal(smem_bank_padding(8, 8), 1);
    assert_int_equal(smem_bank_padding(32, 2), 1);
    assert_int_equal(smem_bank_padding(7, 4), 0);
}

static void test_smem_banks(void **state) {
    (void)state;
    SharedBuffer a = {"A", 4, 16, DT_F32, 0, 1, 0, 0};
    SharedBuffer b = {"A", 4, 16, DT_F32, 1, 1, 0, 0};
    int want_a[4] = {0, 16, 0, 16}, want_b[4] = {0, 17, 2, 19};
    for (int r = 0; r < 4; r++) {
        assert_int_equal(smem_bank(smem_element(&a, 0, r, 0)), want_a[r]);
        assert_int_equal(smem_bank(smem_element(&b, 0, r, 0)), want_b[r]);
    }
}

static void test_smem_buffer(void **state) {
    (void)state;
    SharedBuffer b = {"dot_lhs", 16, 16, DT_F32, 1, 2, 0, 0};
    assert_int_equal(smem_row_stride(&b), 17);
    assert_int_equal(smem_stage_size(&b), 272);
    assert_int_equal(smem_size(&b), 544);
    assert_int_equal(smem_nbytes(&b), 2176);
    assert_int_equal(smem_element(&b, 0, 0, 0), 0);
    assert_int_equal(smem_element(&b, 1, 2, 3), 272 + 34 + 3);
    assert_int_equal(smem_element(&b, 1, 15, 15), 543 - 1);
    StrBuf sb;
    sb_init(&sb);
    smem_element_text(&sb, &b, "dot_stage", "tile_i", "dot_k");
    assert_string_equal(sb_str(&sb), "dot_stage * 272 + tile_i * 17 + dot_k");
    sb_clear(&sb);
    SharedBuffer one = {"dot_rhs", 8, 32, DT_F32, 0, 1, 0, 0};
    smem_element_text(&sb, &one, "dot_stage", "dot_k", "(j + 1)");
    assert_string_equal(sb_str(&sb), "dot_k * 32 + (j + 1)");
    sb_clear(&sb);
    smem_element_text(&sb, &one, "0", "0", "0");
    assert_string_equal(sb_str(&sb), "0");
    sb_free(&sb);
    assert_int_equal(smem_nbytes(&one), 8 * 32 * 4);
    /* invalid coordinates, padding, stages */
    assert_int_equal(smem_element(&b, 2, 0, 0), -1);
    assert_int_equal(smem_element(&b, -1, 0, 0), -1);
    assert_int_equal(smem_element(&b, 0, 16, 0), -1);
    assert_int_equal(smem_element(&b, 0, 0, 16), -1); /* padding is no data */
    assert_int_equal(smem_element(&b, 0, -1, 0), -1);
    SharedBuffer badpad = {"x", 4, 4, DT_F32, -1, 1, 0, 0};
    SharedBuffer badstage = {"x", 4, 4, DT_F32, 0, 0, 0, 0};
    assert_int_equal(smem_element(&badpad, 0, 0, 0), -1);
    assert_int_equal(smem_size(&badpad), -1);
    assert_int_equal(smem_element(&badstage, 0, 0, 0), -1);
    assert_int_equal(smem_nbytes(&badstage), -1);
}

/* A wgmma tile's layout (smem.c's swizzled_index, mt_swz in the kernel
 * runtime): a bijection of the tile; the 8 elements of a 16-byte group
 * stay together; the 128-byte swizzle XORs the chunk with row % 8; A's
 * rows (perm_warps) go where the warpgroup's m64 block reads the rows
 * the accumulator layout gives each warp. */
static void test_smem_wgmma_tiles(void **state) {
    (void)state;
    static const int shapes[][5] = {/* rows, cols, swizzle, warps, stages */
                                    {128, 64, 128, 4, 2}, {128, 64, 128, 8, 1},
                                    {64, 32, 64, 4, 1},   {64, 16, 32, 4, 1},
                                    {64, 256, 128, 0, 2}, {128, 128, 128, 4, 1}};
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
        SharedBuffer b = {"dot_lhs_h", shapes[s][0], shapes[s][1], DT_F16, 0, shapes[s][4],
                          shapes[s][2], shapes[s][3]};
        int64_t n = smem_stage_size(&b);
        char *seen = calloc((size_t)n, 1);
        assert_non_null(seen);
        for (int r = 0; r < b.rows; r++)
            for (int c = 0; c < b.columns; c++) {
                int64_t i = smem_element(&b, 0, r, c);
                assert_true(i >= 0 && i < n);
                assert_false(seen[i]);
                seen[i] = 1;
                if (c % 8) /* a group's elements are consecutive */
                    assert_int_equal(i, smem_element(&b, 0, r, c - 1) + 1);
            }
        free(seen);
        if (b.stage_count > 1)
            assert_int_equal(smem_element(&b, 1, 3, 5), n + smem_element(&b, 0, 3, 5));
    }
    SharedBuffer bt = {"dot_rhs_h", 64, 128, DT_F16, 0, 1, 128, 0};
    /* row 3, chunk 1 -> chunk 1 ^ 3 = 2; column block 1 starts 64 rows on */
    assert_int_equal(smem_element(&bt, 0, 3, 8), 3 * 64 + 2 * 8);
    assert_int_equal(smem_element(&bt, 0, 0, 64), 64 * 64);
    /* 4 warps: logical row 8 (warp 1, lane row 0) is m64 row 16; row 32
     * (repetition 1 of warp 0) is row 8 */
    SharedBuffer at = {"dot_lhs_h", 64, 64, DT_F16, 0, 1, 128, 4};
    assert_int_equal(smem_element(&at, 0, 8, 0), 16 * 64);
    assert_int_equal(smem_element(&at, 0, 32, 0), 8 * 64);
    StrBuf sb;
    sb_init(&sb);
    smem_element_text(&sb, &at, "dot_stage", "r", "c");
    assert_string_equal(sb_str(&sb), "mt_swz(r, c, 64, 64, 2, 4)");
    sb_free(&sb);
}

/* ------------------------------------------------------------- kernels */

/* out[i] = x[i] + y[i] for i < n, BLOCK per program. */
static void build_add(K *k, int block, int warps) {
    k_init(k, "add_kernel", warps);
    Func *f = k->f;
    ValId x = func_add_param(f, "x", type_ptr(DT_F32));
    ValId y = func_add_param(f, "y", type_ptr(DT_F32));
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId n = func_add_param(f, "n", type_scalar(DT_I32));
    ValId base = bin(k, OP_MUL, pid(k, 0), ci(k, block));
    ValId offs = bin(k, OP_ADD, base, arange(k, 0, block));
    ValId mask = bin(k, OP_CMP_LT, offs, n);
    ValId a = load(k, bin(k, OP_ADDPTR, x, offs), mask, 0);
    ValId b = load(k, bin(k, OP_ADDPTR, y, offs), mask, 0);
    store(k, bin(k, OP_ADDPTR, out, offs), bin(k, OP_ADD, a, b), mask);
}

static void test_emit_add_text(void **state) {
    (void)state;
    K k;
    build_add(&k, 256, 4);
    char *s = emit(&k);
    assert_non_null(s);
    const char *head = "extern \"C\" __global__ void __launch_bounds__(128) "
                       "add_kernel(float* x, float* "
                       "y, float* out, int n) {\n";
    assert_true(strncmp(s, head, strlen(head)) == 0);
    assert_non_null(strstr(s, "#line 1 \"k.py\"\n"));
    assert_non_null(strstr(s, "#line 7 \"k.py\"\n"));
    assert_non_null(strstr(s, "(int)blockIdx.x"));
    assert_non_null(strstr(s, "? (*v"));          /* masked load */
    assert_non_null(strstr(s, "#pragma unroll"));
    assert_int_equal(count(s, "__syncthreads"), 0);
    assert_true(s[strlen(s) - 1] == '\n' && s[strlen(s) - 2] == '}');
    /* deterministic */
    K k2;
    build_add(&k2, 256, 4);
    char *s2 = emit(&k2);
    assert_string_equal(s, s2);
    free(s);
    free(s2);
    k_free(&k);
    k_free(&k2);
}

static void test_run_add(void **state) {
    (void)state;
    int blocks[3] = {1024, 128, 8}, warps[3] = {4, 1, 8};
    for (int t = 0; t < 3; t++) {
        K k;
        Runner rn;
        char *s;
        build_add(&k, blocks[t], warps[t]);
        if (!build_or_skip(&k, &rn, &s)) {
            free(s);
            k_free(&k);
            skip();
        }
        int n = 3 * blocks[t] - 5;
        float *x = malloc(sizeof(float) * 4096), *y = malloc(sizeof(float) * 4096),
              *o = malloc(sizeof(float) * 4096);
        for (int i = 0; i < 4096; i++) {
            x[i] = (float)i * 0.5f;
            y[i] = 1.0f - (float)i;
            o[i] = -7.0f;
        }
        void *args[4] = {&x, &y, &o, &n};
        launch(&rn, args, 3, 1, 32 * warps[t]);
        for (int i = 0; i < 3 * blocks[t]; i++)
            assert_true(o[i] == (i < n ? x[i] + y[i] : -7.0f));
        free(x);
        free(y);
        free(o);
        free(s);
        runner_free(&rn);
        k_free(&k);
    }
}

/* out[i] = load(x + i, i < n, other=-1.5); the store is unmasked. */
static void test_run_masked_other(void **state) {
    (void)state;
    K k;
    k_init(&k, "masked", 4);
    ValId x = func_add_param(k.f, "x", type_ptr(DT_F32));
    ValId out = func_add_param(k.f, "out", type_ptr(DT_F32));
    ValId n = func_add_param(k.f, "n", type_scalar(DT_I32));
    ValId offs = arange(&k, 0, 64);
    ValId v = load(&k, bin(&k, OP_ADDPTR, x, offs), bin(&k, OP_CMP_LT, offs, n),
                   const_f32(k.f, -1.5));
    store(&k, bin(&k, OP_ADDPTR, out, offs), v, 0);
    Runner rn;
    char *s;
    if (!build_or_skip(&k, &rn, &s)) {
        free(s);
        k_free(&k);
        skip();
    }
    assert_non_null(strstr(s, "(-1.5f)"));
    float xs[64], o[64];
    for (int i = 0; i < 64; i++) {
        xs[i] = (float)i;
        o[i] = 0;
    }
    int nn = 40;
    float *xp = xs, *op = o;
    void *args[3] = {&xp, &op, &nn};
    launch(&rn, args, 1, 1, 128);
    for (int i = 0; i < 64; i++)
        assert_true(o[i] == (i < 40 ? (float)i : -1.5f));
    free(s);
    runner_free(&rn);
    k_free(&k);
}

/* Row softmax: one program per row of n_cols <= BLOCK. */
static void build_softmax(K *k, int block, int warps) {
    k_init(k, "softmax", warps);
    Func *f = k->f;
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId in = func_add_param(f, "inp", type_ptr(DT_F32));
    ValId stride = func_add_param(f, "stride", type_scalar(DT_I32));
    ValId ncols = func_add_param(f, "n_cols", type_scalar(DT_I32));
    ValId row = pid(k, 0);
    ValId offs = arange(k, 0, block);
    ValId mask = bin(k, OP_CMP_LT, offs, ncols);
    ValId rowoff = bin(k, OP_MUL, row, stride);
    ValId p = bin(k, OP_ADDPTR, bin(k, OP_ADDPTR, in, rowoff), offs);
    ValId x = load(k, p, mask, const_f32(f, -INFINITY));
    ValId m = reduce(k, OP_MAX, x, 0);
    ValId z = bin(k, OP_SUB, x, m);
    ValId num = un(k, OP_EXP, z);
    ValId den = reduce(k, OP_SUM, num, 0);
    ValId y = bin(k, OP_DIV, num, den);
    store(k, bin(k, OP_ADDPTR, bin(k, OP_ADDPTR, out, rowoff), offs), y, mask);
}

static void test_emit_softmax_text(void **state) {
    (void)state;
    K k;
    build_softmax(&k, 4096, 8);
    char *s = emit(&k);
    assert_non_null(s);
    assert_non_null(strstr(s, "__shfl_xor_sync(0xffffffffu, "));
    assert_non_null(strstr(s, "__shared__ __align__(16) long long mt_smem["));
    assert_non_null(strstr(s, "(-__int_as_float(0x7f800000))"));
    /* Triton's instructions: max.f32 (from a thread's first element, in
     * Triton's order: lanes from the farthest, warps as a butterfly),
     * ex2.approx and div.full (mt_kernel_rt.h) */
    assert_non_null(strstr(s, "mt_s == 0 ? "));
    assert_non_null(strstr(s, "__shfl_xor_sync(0xffffffffu, mt_r"));
    assert_null(strstr(s, "= __int_as_float(0x7fc00000);"));
    assert_non_null(strstr(s, "mt_fmaxnumf("));
    assert_non_null(strstr(s, "mt_expf("));
    assert_non_null(strstr(s, "mt_divf("));
    /* two cross-warp reductions, each with a barrier after reading */
    assert_int_equal(count(s, "__syncthreads();"), 4);
    free(s);
    k_free(&k);
}

static void test_run_softmax(void **state) {
    (void)state;
    int blocks[] = {8, 256, 4096};
    int warps[] = {1, 4, 8};
    /* hv: hinted pointers (vector accesses, runtime alignment test: rows
     * of stride block + 3 are misaligned and take the scalar path) */
    for (int hv = 0; hv < 2; hv++)
    for (int bi = 0; bi < 3; bi++)
        for (int wi = 0; wi < 3; wi++) {
            int block = blocks[bi];
            K k;
            Runner rn;
            char *s;
            build_softmax(&k, block, warps[wi]);
            if (hv)
                val(k.f, k.f->params[0])->divisibility =
                    val(k.f, k.f->params[1])->divisibility = 16;
            if (!build_or_skip(&k, &rn, &s)) {
                free(s);
                k_free(&k);
                skip();
            }
            int rows = 3, ncols = block - block / 4 + 1;
            if (ncols > block)
                ncols = block;
            int stride = hv && wi == 1 ? block : block + 3;
            if (hv && block >= 64 * warps[wi])
                assert_non_null(strstr(s, "mt_all"));
            float *in = alloc16((size_t)(rows * stride));
            float *o = alloc16((size_t)(rows * stride));
            memset(o, 0, sizeof(float) * (size_t)(rows * stride));
            for (int i = 0; i < rows * stride; i++)
                in[i] = (float)((i * 37) % 101) / 17.0f - 2.0f;
            void *args[4] = {&o, &in, &stride, &ncols};
            launch(&rn, args, (unsigned)rows, 1, 32u * (unsigned)warps[wi]);
            for (int r = 0; r < rows; r++) {
                float mx = -INFINITY, sum = 0;
                for (int c = 0; c < ncols; c++)
                    mx = fmaxf(mx, in[r * stride + c]);
                for (int c = 0; c < ncols; c++)
                    sum += expf(in[r * stride + c] - mx);
                for (int c = 0; c < stride; c++) {
                    float want = c < ncols ? expf(in[r * stride + c] - mx) / sum : 0;
                    assert_true(close_to(o[r * stride + c], want));
                }
            }
            free(in);
            free(o);
            free(s);
            runner_free(&rn);
            k_free(&k);
        }
}

/* A [BM, BN] tile of ints, reduced along axis; result stored at out. */
static void build_reduce2(K *k, OpCode code, int axis, int bm, int bn,
                          int warps, DType dt) {
    k_init(k, "reduce2", warps);
    Func *f = k->f;
    ValId x = func_add_param(f, "x", type_ptr(dt));
    ValId out = func_add_param(f, "out", type_ptr(dt));
    ValId om = arange(k, 0, bm), on = arange(k, 0, bn);
    ValId idx = bin(k, OP_ADD, bin(k, OP_MUL, expand(k, om, 1), ci(k, bn)),
                    expand(k, on, 0));
    ValId v = load(k, bin(k, OP_ADDPTR, x, idx), 0, 0);
    ValId r = reduce(k, code, v, axis);
    store(k, bin(k, OP_ADDPTR, out, axis == 0 ? on : om), r, 0);
}

static void test_run_reduce_rank2(void **state) {
    (void)state;
    OpCode codes[3] = {OP_SUM, OP_MAX, OP_MIN};
    int shapes[3][2] = {{16, 32}, {64, 8}, {4, 4}};
    for (int ci_ = 0; ci_ < 3; ci_++)
        for (int axis = 0; axis < 2; axis++)
            for (int si = 0; si < 3; si++)
                for (int dti = 0; dti < 2; dti++) {
                    DType dt = dti ? DT_I32 : DT_F32;
                    int bm = shapes[si][0], bn = shapes[si][1];
                    int warps = si == 2 ? 2 : 4;
                    K k;
                    Runner rn;
                    char *s;
                    build_reduce2(&k, codes[ci_], axis, bm, bn, warps, dt);
                    if (!build_or_skip(&k, &rn, &s)) {
                        free(s);
                        k_free(&k);
                        skip();
                    }
                    int n = bm * bn;
                    float *xf = malloc(sizeof(float) * (size_t)n);
                    int *xi = malloc(sizeof(int) * (size_t)n);
                    float of[64];
                    int oi[64];
                    for (int i = 0; i < n; i++) {
                        xi[i] = (i * 7919) % 97 - 40;
                        xf[i] = (float)xi[i] * 0.25f;
                    }
                    void *xp = dti ? (void *)xi : (void *)xf;
                    void *op = dti ? (void *)oi : (void *)of;
                    void *args[2] = {&xp, &op};
                    launch(&rn, args, 1, 1, 32u * (unsigned)warps);
                    int outer = axis == 0 ? bn : bm, inner = axis == 0 ? bm : bn;
                    for (int o = 0; o < outer; o++) {
                        double acc = codes[ci_] == OP_SUM ? 0
                                     : codes[ci_] == OP_MAX ? -1e30
                                                            : 1e30;
                        for (int i = 0; i < inner; i++) {
                            int idx = axis == 0 ? i * bn + o : o * bn + i;
                            double v = dti ? xi[idx] : xf[idx];
                            if (codes[ci_] == OP_SUM)
                                acc += v;
                            else if (codes[ci_] == OP_MAX)
                                acc = v > acc ? v : acc;
                            else
                                acc = v < acc ? v : acc;
                        }
                        double got = dti ? oi[o] : of[o];
                        if (fabs(got - acc) > 1e-3)
                            fail_msg("reduce code %d axis %d shape %dx%d dt %d: "
                                     "out[%d] = %g, want %g\n%s",
                                     codes[ci_], axis, bm, bn, dti, o, got, acc,
                                     s);
                    }
                    free(xf);
                    free(xi);
                    free(s);
                    runner_free(&rn);
                    k_free(&k);
                }
}

/* total = sum over i < rows of sum(x[i*BLOCK : (i+1)*BLOCK]) in a runtime
 * loop, stored by thread 0. */
static void test_run_loop_reduction(void **state) {
    (void)state;
    K k;
    k_init(&k, "loop_sum", 4);
    Func *f = k.f;
    ValId x = func_add_param(f, "x", type_ptr(DT_F32));
    ValId out = func_add_param(f, "out", type_ptr(DT_F32));
    ValId rows = func_add_param(f, "rows", type_scalar(DT_I32));
    ValId offs = arange(&k, 0, 512);
    ValId init = const_f32(f, 0.0);
    Op *loop = op_new_for(f, k.r, L(&k), ci(&k, 0), rows, ci(&k, 1), &init, 1);
    Region *outer = k.r;
    k.r = loop->body;
    ValId p = bin(&k, OP_ADDPTR, bin(&k, OP_ADDPTR, x,
                                     bin(&k, OP_MUL, loop->index, ci(&k, 512))),
                  offs);
    ValId s1 = reduce(&k, OP_SUM, load(&k, p, 0, 0), 0);
    loop->yields[0] = bin(&k, OP_ADD, loop->iters[0], s1);
    k.r = outer;
    store(&k, out, loop->res[0], 0);
    Runner rn;
    char *s;
    if (!build_or_skip(&k, &rn, &s)) {
        free(s);
        k_free(&k);
        skip();
    }
    assert_non_null(strstr(s, "if (threadIdx.x == 0) *out = "));
    int nrows = 9;
    float *xs = malloc(sizeof(float) * 512 * 9), o = 0;
    double want = 0;
    for (int i = 0; i < 512 * 9; i++) {
        xs[i] = (float)(i % 13) - 6.0f;
        want += xs[i];
    }
    float *op = &o;
    void *args[3] = {&xs, &op, &nrows};
    launch(&rn, args, 1, 1, 128);
    assert_true(fabs(o - want) < 1e-3);
    free(xs);
    free(s);
    runner_free(&rn);
    k_free(&k);
}

/* a, b = b, a + b in a runtime loop (and a plain swap): parallel copy. */
static void test_run_swap(void **state) {
    (void)state;
    K k;
    k_init(&k, "swap", 1);
    Func *f = k.f;
    ValId out = func_add_param(f, "out", type_ptr(DT_I32));
    ValId n = func_add_param(f, "n", type_scalar(DT_I32));
    ValId inits[3] = {ci(&k, 0), ci(&k, 1), ci(&k, 7)};
    Op *loop = op_new_for(f, k.r, L(&k), ci(&k, 0), n, ci(&k, 1), inits, 3);
    Region *outer = k.r;
    k.r = loop->body;
    loop->yields[0] = loop->iters[1];
    loop->yields[1] = bin(&k, OP_ADD, loop->iters[0], loop->iters[1]);
    loop->yields[2] = loop->iters[2];
    k.r = outer;
    store(&k, out, loop->res[0], 0);
    store(&k, bin(&k, OP_ADDPTR, out, ci(&k, 1)), loop->res[1], 0);
    store(&k, bin(&k, OP_ADDPTR, out, ci(&k, 2)), loop->res[2], 0);
    Runner rn;
    char *s;
    if (!build_or_skip(&k, &rn, &s)) {
        free(s);
        k_free(&k);
        skip();
    }
    assert_non_null(strstr(s, "mt_y"));
    int o[3] = {0, 0, 0}, nn = 10;
    int *op = o;
    void *args[2] = {&op, &nn};
    launch(&rn, args, 1, 1, 32);
    assert_int_equal(o[0], 55);
    assert_int_equal(o[1], 89);
    assert_int_equal(o[2], 7);
    free(s);
    runner_free(&rn);
    k_free(&k);
}

/* C[M,N] = A[M,K] @ B[K,N] with a runtime K loop; acc += a[:, None] *
 * b[None, :] (use_dot false) or acc + dot(a_tile, b_tile). */
typedef struct MMOpts {
    bool use_dot;
    int bm, bn, bk, warps;
    int start;        /* loop start (0 canonical) */
    int step_div;     /* step = bk / step_div (1 canonical) */
    bool sub;         /* accumulator op: acc - dot instead of acc + dot */
    bool yield_dot;   /* yield the dot, not the sum */
    bool nested;      /* wrap the dot in a one-trip inner loop */
    bool fused;       /* dot(a, b, acc) */
    bool hint;        /* pointers carry the 16-byte alignment hint */
    bool body_store;  /* a store in the K loop body (not pipelinable) */
} MMOpts;

static void build_matmul(K *k, const MMOpts *o) {
    k_init(k, "matmul", o->warps);
    Func *f = k->f;
    ValId A = func_add_param(f, "a", type_ptr(DT_F32));
    ValId B = func_add_param(f, "b", type_ptr(DT_F32));
    ValId C = func_add_param(f, "c", type_ptr(DT_F32));
    ValId M = func_add_param(f, "M", type_scalar(DT_I32));
    ValId N = func_add_param(f, "N", type_scalar(DT_I32));
    ValId Kp = func_add_param(f, "K", type_scalar(DT_I32));
    if (o->hint)
        val(f, A)->divisibility = val(f, B)->divisibility =
            val(f, C)->divisibility = 16;
    ValId rm = bin(k, OP_ADD, bin(k, OP_MUL, pid(k, 0), ci(k, o->bm)),
                   arange(k, 0, o->bm));
    ValId rn = bin(k, OP_ADD, bin(k, OP_MUL, pid(k, 1), ci(k, o->bn)),
                   arange(k, 0, o->bn));
    ValId acc0 = zeros(k, DT_F32, 2, o->bm, o->bn);
    int step = o->use_dot ? o->bk / o->step_div : 1;
    Op *loop = op_new_for(f, k->r, L(k), ci(k, o->start), Kp, ci(k, step),
                          &acc0, 1);
    Region *outer = k->r;
    k->r = loop->body;
    ValId kk = loop->index, acc = loop->iters[0], next;
    if (!o->use_dot) {
        ValId a = load(k, bin(k, OP_ADDPTR, A,
                              bin(k, OP_ADD, bin(k, OP_MUL, rm, Kp), kk)),
                       bin(k, OP_CMP_LT, rm, M), 0);
        ValId b = load(k, bin(k, OP_ADDPTR, B,
                              bin(k, OP_ADD, bin(k, OP_MUL, kk, N), rn)),
                       bin(k, OP_CMP_LT, rn, N), 0);
        next = bin(k, OP_ADD, acc,
                   bin(k, OP_MUL, expand(k, a, 1), expand(k, b, 0)));
    } else {
        ValId rk = bin(k, OP_ADD, kk, arange(k, 0, o->bk));
        ValId rm2 = expand(k, rm, 1), rk0 = expand(k, rk, 0);
        ValId amask = bin(k, OP_AND, bin(k, OP_CMP_LT, rm2, M),
                          bin(k, OP_CMP_LT, rk0, Kp));
        ValId a = load(k, bin(k, OP_ADDPTR, A,
                              bin(k, OP_ADD, bin(k, OP_MUL, rm2, Kp), rk0)),
                       amask, 0);
        ValId rk1 = expand(k, rk, 1), rn0 = expand(k, rn, 0);
        ValId bmask = bin(k, OP_AND, bin(k, OP_CMP_LT, rk1, Kp),
                          bin(k, OP_CMP_LT, rn0, N));
        ValId b = load(k, bin(k, OP_ADDPTR, B,
                              bin(k, OP_ADD, bin(k, OP_MUL, rk1, N), rn0)),
                       bmask, 0);
        if (o->nested) {
            Op *inner = op_new_for(f, k->r, L(k), ci(k, 0), ci(k, 1), ci(k, 1),
                                   &acc, 1);
            Region *mid = k->r;
            k->r = inner->body;
            inner->yields[0] = bin(k, OP_ADD, inner->iters[0], dot(k, a, b, 0));
            k->r = mid;
            next = inner->res[0];
        } else if (o->fused) {
            next = dot(k, a, b, acc);
        } else {
            ValId d = dot(k, a, b, 0);
            next = bin(k, o->sub ? OP_SUB : OP_ADD, acc, d);
            if (o->yield_dot)
                next = d;
        }
    }
    if (o->body_store) /* masked off at run time (K >= 0): other programs
                          would race with c[0] otherwise */
        store(k, bin(k, OP_ADDPTR, C, ci(k, 0)), const_f32(f, 0.0),
              bin(k, OP_CMP_LT, Kp, ci(k, 0)));
    loop->yields[0] = next;
    k->r = outer;
    ValId rm2 = expand(k, rm, 1), rn0 = expand(k, rn, 0);
    ValId cmask = bin(k, OP_AND, bin(k, OP_CMP_LT, rm2, M),
                      bin(k, OP_CMP_LT, rn0, N));
    store(k, bin(k, OP_ADDPTR, C, bin(k, OP_ADD, bin(k, OP_MUL, rm2, N), rn0)),
          loop->res[0], cmask);
}

static void run_matmul(const MMOpts *o, int M, int N, int Kd, char **text_out) {
    K k;
    Runner rn;
    char *s;
    build_matmul(&k, o);
    if (!build_or_skip(&k, &rn, &s)) {
        *text_out = s;
        k_free(&k);
        return;
    }
    float *a = alloc16((size_t)(M * Kd));
    float *b = alloc16((size_t)(Kd * N));
    float *c = alloc16((size_t)(M * N));
    for (int i = 0; i < M * Kd; i++)
        a[i] = (float)((i * 31) % 17) / 8.0f - 1.0f;
    for (int i = 0; i < Kd * N; i++)
        b[i] = (float)((i * 13) % 11) / 4.0f - 1.25f;
    for (int i = 0; i < M * N; i++)
        c[i] = 12345.0f;
    void *args[6] = {&a, &b, &c, &M, &N, &Kd};
    unsigned gx = (unsigned)((M + o->bm - 1) / o->bm);
    unsigned gy = (unsigned)((N + o->bn - 1) / o->bn);
    launch(&rn, args, gx, gy, 32u * (unsigned)o->warps);
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            float want = 0;
            for (int kk = 0; kk < Kd; kk++)
                want += a[i * Kd + kk] * b[kk * N + j];
            if (!close_to(c[i * N + j], want))
                fail_msg("matmul c[%d][%d] = %g, want %g", i, j,
                         (double)c[i * N + j], (double)want);
        }
    free(a);
    free(b);
    free(c);
    *text_out = s;
    runner_free(&rn);
    k_free(&k);
}

static void test_run_matmul_broadcast(void **state) {
    (void)state;
    MMOpts o = {false, 16, 32, 1, 4, 0, 1, false, false, false, false, false, false};
    char *s = NULL;
    run_matmul(&o, 37, 45, 19, &s);
    free(s);
    MMOpts o2 = {false, 32, 32, 1, 8, 0, 1, false, false, false, false, false, false};
    run_matmul(&o2, 33, 64, 7, &s);
    free(s);
}

static void test_run_dot(void **state) {
    (void)state;
    MMOpts o = {true, 32, 32, 16, 4, 0, 1, false, false, false, false, false, false};
    char *s = NULL;
    run_matmul(&o, 50, 70, 45, &s); /* partial edge tiles, 3 K tiles */
    assert_non_null(s);
    assert_non_null(strstr(s, "int dot_stage = (k_base / 16) & 1;"));
    assert_non_null(strstr(s, "__shared__ __align__(16) float dot_lhs[2 * "));
    assert_non_null(strstr(s, "#pragma unroll\n        for (int dot_k = 0; dot_k < 16; ++dot_k) {"));
    free(s);
    MMOpts o2 = {true, 64, 64, 8, 4, 0, 1, false, false, false, true, false, false};
    run_matmul(&o2, 70, 65, 30, &s);
    assert_non_null(strstr(s, "dot_stage"));
    free(s);
    MMOpts o3 = {true, 16, 16, 16, 1, 0, 1, false, false, false, false, false, false};
    run_matmul(&o3, 20, 17, 40, &s);
    free(s);
    /* fallback forms still compute the same product */
    MMOpts o4 = {true, 32, 16, 8, 2, 0, 1, false, false, true, false, false, false};
    run_matmul(&o4, 33, 20, 17, &s);
    assert_null(strstr(s, "dot_stage"));
    free(s);
}

/* Barriers inside the runtime K loop body (between its header, the one
 * line with the condition "< K; ", and the closing brace at the loop's
 * indentation). */
static int loop_barriers(const char *s) {
    const char *start = strstr(s, " < K; "); /* step 1 or a staged loop */
    if (!start)
        start = strstr(s, "for (unsigned mt_k"); /* a trip-counted loop */
    if (!start)
        start = strstr(s, "for (unsigned mt_t"); /* the general pipeline */
    if (!start)
        return -1;
    const char *body = strchr(start, '\n');
    const char *end = strstr(body, "\n    }\n");
    int n = 0;
    for (const char *q = strstr(body, "__syncthreads();"); q && q < end;
         q = strstr(q + 1, "__syncthreads();"))
        n++;
    return n;
}

/* out[i, j] = x[i] * x[j]: the loaded x is needed as both slices, so one
 * of them goes through shared memory. */
static void test_run_outer_conversion(void **state) {
    (void)state;
    K k;
    k_init(&k, "outer", 4);
    ValId x = func_add_param(k.f, "x", type_ptr(DT_F32));
    ValId out = func_add_param(k.f, "out", type_ptr(DT_F32));
    ValId o = arange(&k, 0, 32);
    ValId v = load(&k, bin(&k, OP_ADDPTR, x, o), 0, 0);
    ValId prod = bin(&k, OP_MUL, expand(&k, v, 1), expand(&k, v, 0));
    ValId idx = bin(&k, OP_ADD, bin(&k, OP_MUL, expand(&k, o, 1), ci(&k, 32)),
                    expand(&k, o, 0));
    store(&k, bin(&k, OP_ADDPTR, out, idx), prod, 0);
    Runner rn;
    char *s;
    if (!build_or_skip(&k, &rn, &s)) {
        free(s);
        k_free(&k);
        skip();
    }
    assert_non_null(strstr(s, "mt_smem"));
    float xs[32], os[1024];
    for (int i = 0; i < 32; i++)
        xs[i] = (float)i - 3.0f;
    float *xp = xs, *op = os;
    void *args[2] = {&xp, &op};
    launch(&rn, args, 1, 1, 128);
    for (int i = 0; i < 32; i++)
        for (int j = 0; j < 32; j++)
            assert_true(os[i * 32 + j] == xs[i] * xs[j]);
    free(s);
    runner_free(&rn);
    k_free(&k);
}

/* The 16-byte hint on every pointer of the add kernel. */
static void build_add_hinted(K *k, int block, int warps) {
    build_add(k, block, warps);
    for (int i = 0; i < 3; i++)
        val(k->f, k->f->params[i])->divisibility = 16;
}

static void test_emit_vector_text(void **state) {
    (void)state;
    K k;
    build_add_hinted(&k, 1024, 4);
    char *s = emit(&k);
    assert_non_null(s);
    /* two loads and a store of 128 bits per group of 4 slots ... */
    assert_int_equal(count(s, "float4 mt_q = *(const float4*)(v"), 2);
    assert_int_equal(count(s, "*(float4*)(v"), 1);
    assert_non_null(strstr(s, "for (int mt_g = 0; mt_g < 8; mt_g += 4) {"));
    /* ... when the group's whole mask is set, else per element */
    assert_int_equal(count(s, "mt_all = mt_all && v"), 3);
    assert_int_equal(count(s, "} else {"), 3);
    assert_non_null(strstr(s, "? (*(mt_h + (mt_e - mt_g)))"));
    /* offsets pid * 1024 + arange: alignment is known, no runtime test */
    assert_null(strstr(s, "15ull"));
    free(s);
    k_free(&k);
    /* no hint: scalar accesses only */
    build_add(&k, 1024, 4);
    s = emit(&k);
    assert_null(strstr(s, "float4"));
    assert_null(strstr(s, "mt_g"));
    free(s);
    k_free(&k);
    /* 2 per thread: 64-bit accesses */
    build_add_hinted(&k, 256, 4);
    s = emit(&k);
    assert_non_null(strstr(s, "float2 mt_q = *(const float2*)(v"));
    free(s);
    k_free(&k);
    /* softmax: row * stride has unknown divisibility, so the group's
     * address is tested at run time; a hinted stride removes the test */
    build_softmax(&k, 1024, 4);
    val(k.f, k.f->params[0])->divisibility = 16;
    val(k.f, k.f->params[1])->divisibility = 16;
    s = emit(&k);
    assert_int_equal(count(s, "(((unsigned long long)v"), 2);
    assert_non_null(strstr(s, "& 15ull) == 0;"));
    free(s);
    k_free(&k);
    build_softmax(&k, 1024, 4);
    for (int i = 0; i < 3; i++)
        val(k.f, k.f->params[i])->divisibility = 16;
    s = emit(&k);
    assert_int_equal(count(s, "*(const float4*)(v"), 1);
    assert_null(strstr(s, "15ull"));
    free(s);
    k_free(&k);
}

/* Hinted add with n not a multiple of 4: the last group is partial. */
static void test_run_vector_add(void **state) {
    (void)state;
    int blocks[3] = {1024, 256, 2048}, warps[3] = {4, 4, 8};
    int tails[3] = {5, 3, 1};
    for (int t = 0; t < 3; t++) {
        K k;
        Runner rn;
        char *s;
        build_add_hinted(&k, blocks[t], warps[t]);
        if (!build_or_skip(&k, &rn, &s)) {
            free(s);
            k_free(&k);
            skip();
        }
        assert_non_null(strstr(s, "mt_g"));
        int n = 3 * blocks[t] - tails[t];
        float *x = alloc16(3 * 2048), *y = alloc16(3 * 2048),
              *o = alloc16(3 * 2048);
        for (int i = 0; i < 3 * 2048; i++) {
            x[i] = (float)i * 0.5f;
            y[i] = 1.0f - (float)i;
            o[i] = -7.0f;
        }
        void *args[4] = {&x, &y, &o, &n};
        launch(&rn, args, 3, 1, 32 * warps[t]);
        for (int i = 0; i < 3 * blocks[t]; i++)
            assert_true(o[i] == (i < n ? x[i] + y[i] : -7.0f));
        free(x);
        free(y);
        free(o);
        free(s);
        runner_free(&rn);
        k_free(&k);
    }
}

/* The register-tiled dot (layout.c's dot_layout, float4 reads of A's rows
 * along k and of B's along n) on ragged shapes, matched and fallback
 * loops. */
static void test_run_dot_tiled(void **state) {
    (void)state;
    MMOpts o = {true, 64, 64, 16, 4, 0, 1, false, false, false, false, false, false};
    char *s = NULL;
    run_matmul(&o, 70, 65, 45, &s);
    assert_non_null(s);
    assert_non_null(strstr(s, "float4 mt_q = *(const float4*)&dot_lhs[dot_stage * "));
    assert_non_null(strstr(s, "float4 mt_q = *(const float4*)&dot_rhs[dot_stage * "));
    assert_non_null(strstr(s, "#pragma unroll\n        for (int dot_k = 0; dot_k < 16; dot_k += 4) {"));
    assert_int_equal(loop_barriers(s), 1);
    /* A as loaded: [64][16 + 4], rows 16-byte aligned, 4 mod 8 floats */
    assert_non_null(strstr(s, "__shared__ __align__(16) float dot_lhs[2 * 1280];"));
    assert_non_null(strstr(s, "__shared__ __align__(16) float dot_rhs[2 * 1024];"));
    assert_null(strstr(s, "LDG")); /* no hint: scalar global accesses */
    assert_null(strstr(s, "*(const float4*)(v"));
    free(s);
    /* 8 x 8 outputs per thread, and hinted pointers: vector global loads
     * with masked fallback on the ragged edges */
    MMOpts o2 = {true, 128, 128, 8, 8, 0, 1, false, false, false, false, true, false};
    run_matmul(&o2, 131, 130, 21, &s);
    assert_non_null(strstr(s, "*(const float4*)(v"));
    /* 64 results a thread: A as loaded too, 4 k of its 8 rows at a time */
    assert_non_null(strstr(s, "float mt_fa[32];"));
    assert_null(strstr(s, "mt_fa[8], mt_fb[8]"));
    free(s);
    /* 128 results a thread: A stays transposed, read one k at a time */
    MMOpts o4 = {true, 128, 128, 8, 4, 0, 1, false, false, false, false, true, false};
    run_matmul(&o4, 131, 130, 21, &s);
    assert_non_null(strstr(s, "float mt_fa[8], mt_fb[16];"));
    free(s);
    MMOpts o3 = {true, 64, 128, 8, 4, 0, 1, false, false, true, false, true, false};
    run_matmul(&o3, 64, 128, 16, &s); /* single-stage fallback loop */
    assert_null(strstr(s, "dot_stage"));
    assert_non_null(strstr(s, "mt_fa["));
    free(s);
}

static void test_dot_matcher(void **state) {
    (void)state;
    MMOpts canon = {true, 32, 32, 16, 4, 0, 1, false, false, false, false, false, false};
    K k;
    build_matmul(&k, &canon);
    char *s = emit(&k);
    assert_non_null(s);
    assert_non_null(strstr(s, "for (int k_base = 0; k_base < K; k_base += 16) {\n"
                              "        int dot_stage = (k_base / 16) & 1;\n"));
    assert_int_equal(loop_barriers(s), 1);
    /* writers and readers use the same stage and padded stride */
    assert_non_null(strstr(s, "dot_lhs[dot_stage * "));
    assert_non_null(strstr(s, "dot_rhs[dot_stage * "));
    free(s);
    k_free(&k);
    MMOpts muts[5] = {canon, canon, canon, canon, canon};
    muts[0].start = 16;     /* start */
    muts[1].step_div = 2;   /* step != BK */
    muts[2].sub = true;     /* accumulator op */
    muts[3].yield_dot = true;
    muts[4].nested = true;
    /* another start or step: the general software pipeline (a stage
     * counter, one barrier per iteration) rather than Version 18's; two
     * stages when the kernel asks for two, Triton's three by default */
    for (int i = 0; i < 4; i++) {
        build_matmul(&k, &muts[i / 2]);
        k.f->num_stages = i % 2 ? 0 : 2;
        s = emit(&k);
        assert_non_null(s);
        if (i % 2) {
            assert_non_null(strstr(s, "dot_stage = dot_stage == 2 ? 0 : dot_stage + 1;"));
        } else {
            assert_non_null(strstr(s, "dot_stage ^= 1;"));
        }
        assert_null(strstr(s, "(k_base / 16) & 1"));
        assert_int_equal(loop_barriers(s), 1);
        free(s);
        k_free(&k);
    }
    for (int i = 2; i < 5; i++) {
        build_matmul(&k, &muts[i]);
        s = emit(&k);
        assert_non_null(s);
        assert_null(strstr(s, "dot_stage"));
        assert_null(strstr(s, "k_base"));
        assert_non_null(strstr(s, "#pragma unroll"));
        if (i != 4)
            assert_int_equal(loop_barriers(s), 2);
        else
            assert_int_equal(count(s, "__syncthreads();"), 2);
        free(s);
        k_free(&k);
    }
}

/* The array the dot's FMAs add into must be the loop-carried one, declared
 * before the K loop (no separate dot result, no add after the loop). */
static void assert_in_place(const char *s) {
    const char *fma = strstr(s, "] += mt_fa[");
    assert_non_null(fma);
    const char *start = fma;
    while (start > s && start[-1] != ' ')
        start--;
    char decl[64];
    snprintf(decl, sizeof decl, "float %.*s[", (int)(strchr(start, '[') - start),
             start);
    const char *d = strstr(s, decl), *loop = strstr(s, "for (int k_base");
    assert_non_null(d);
    assert_non_null(loop);
    assert_true(d < loop);
}

/* The software-pipelined K loop: the prologue fills stage 0, each
 * iteration loads tile t + 1 into registers before the FMAs on stage
 * dot_stage, stores them into dot_stage ^ 1 after, then one barrier. */
static void test_dot_pipeline_text(void **state) {
    (void)state;
    MMOpts canon = {true, 64, 64, 16, 4, 0, 1, false, false, false, false, false, false};
    K k;
    build_matmul(&k, &canon);
    char *s = emit(&k);
    assert_non_null(s);
    const char *pro = strstr(s, "    if (0 < K) {\n        const int k_base = 0;\n");
    const char *head = strstr(s, "for (int k_base = 0; k_base < K; k_base += 16) {\n"
                                 "        int dot_stage = (k_base / 16) & 1;\n"
                                 "        const bool mt_more = k_base + 16 < K;\n");
    assert_non_null(pro);
    assert_non_null(head);
    assert_true(pro < head);
    /* prologue: stage 0, then the one barrier before the loop */
    assert_non_null(strstr(pro, "    }\n    __syncthreads();\n    for (int k_base"));
    const char *next = strstr(head, "const int mt_k_next = k_base + 16;");
    const char *fma = strstr(head, "for (int dot_k = 0; dot_k < 16; dot_k += 4)");
    const char *wr = strstr(head, "*(float4*)&dot_lhs[(dot_stage ^ 1) * 1280 + ");
    const char *wrb = strstr(head, "*(float4*)&dot_rhs[(dot_stage ^ 1) * 1024 + ");
    assert_non_null(next);
    assert_non_null(fma);
    assert_non_null(wr);
    assert_non_null(wrb);
    assert_true(next < fma && fma < wr && wr < wrb);
    /* the loads of the next tile use mt_k_next, the reads dot_stage */
    assert_non_null(strstr(s, "((unsigned)mt_k_next) + ((unsigned)v"));
    /* A as loaded, [64][16 + 4]: 4 consecutive k of a row per float4 */
    assert_non_null(strstr(s, "*(const float4*)&dot_lhs[dot_stage * 1280 + (mt_b2_0 + mt_i) * 20 + dot_k];"));
    assert_int_equal(loop_barriers(s), 1);
    assert_int_equal(count(s, "__syncthreads();"), 2); /* none after the loop */
    assert_non_null(strstr(s, "__shared__ __align__(16) float dot_lhs[2 * 1280];"));
    assert_in_place(s);
    /* 32 accumulators, 128 threads: cap 96 registers -> 5 blocks */
    assert_non_null(strstr(s, "__launch_bounds__(128, 5) matmul("));
    free(s);
    k_free(&k);
    /* 128 x 64, 4 warps: 64 accumulators -> 128 registers, 4 blocks */
    MMOpts big = canon;
    big.bm = 128;
    build_matmul(&k, &big);
    s = emit(&k);
    assert_non_null(strstr(s, "__launch_bounds__(128, 4) matmul("));
    free(s);
    k_free(&k);
    /* dot(a, b, acc) is pipelined the same way */
    MMOpts fused = canon;
    fused.fused = true;
    build_matmul(&k, &fused);
    s = emit(&k);
    assert_non_null(strstr(s, "const bool mt_more = k_base + 16 < K;"));
    assert_in_place(s);
    free(s);
    k_free(&k);
    /* a store in the body: the Version 18 two-stage form, not pipelined */
    MMOpts st = canon;
    st.body_store = true;
    build_matmul(&k, &st);
    s = emit(&k);
    assert_non_null(strstr(s, "int dot_stage = (k_base / 16) & 1;"));
    assert_null(strstr(s, "mt_more"));
    assert_null(strstr(s, "if (0 < K)"));
    assert_int_equal(loop_barriers(s), 1);
    assert_non_null(strstr(s, "    }\n    __syncthreads();\n"));
    assert_non_null(strstr(s, "__launch_bounds__(128) matmul("));
    free(s);
    k_free(&k);
}

/* Execution on the host backend: ragged M and N, K not a multiple of BK,
 * K < BK, K == BK (one tile: prologue only, mt_more never set), two exact
 * tiles, and the forms around the pipelined one. */
static void test_run_dot_pipeline(void **state) {
    (void)state;
    MMOpts o = {true, 64, 64, 16, 4, 0, 1, false, false, false, false, false, false};
    static const int shapes[][3] = {
        {70, 65, 45}, {20, 30, 5}, {64, 64, 16}, {33, 64, 32}, {1, 1, 1},
        {130, 7, 17}};
    char *s = NULL;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        run_matmul(&o, shapes[i][0], shapes[i][1], shapes[i][2], &s);
        assert_non_null(s);
        assert_non_null(strstr(s, "mt_more"));
        free(s);
    }
    /* hinted 128 x 64: vector global loads of the next tile */
    MMOpts h = {true, 128, 64, 16, 4, 0, 1, false, false, false, false, true, false};
    run_matmul(&h, 131, 67, 21, &s);
    assert_non_null(strstr(s, "mt_more"));
    assert_non_null(strstr(s, "*(const float4*)(v"));
    free(s);
    run_matmul(&h, 128, 64, 64, &s);
    free(s);
    /* BK 32, and dot(a, b, acc) */
    MMOpts b32 = {true, 64, 64, 32, 4, 0, 1, false, false, false, true, true, false};
    run_matmul(&b32, 65, 70, 100, &s);
    assert_non_null(strstr(s, "mt_more"));
    free(s);
    run_matmul(&b32, 64, 64, 31, &s);
    free(s);
    /* the scalar (untiled) dot, pipelined too */
    MMOpts small = {true, 16, 16, 16, 1, 0, 1, false, false, false, false, false, false};
    run_matmul(&small, 20, 17, 40, &s);
    assert_non_null(strstr(s, "mt_more"));
    assert_null(strstr(s, "mt_fa"));
    free(s);
    /* not pipelined: a store in the body (two stages), a nested loop
     * (one stage) */
    MMOpts st = o;
    st.body_store = true;
    run_matmul(&st, 70, 65, 45, &s);
    assert_non_null(strstr(s, "dot_stage"));
    assert_null(strstr(s, "mt_more"));
    free(s);
    MMOpts nest = o;
    nest.nested = true;
    run_matmul(&nest, 70, 65, 45, &s);
    assert_null(strstr(s, "dot_stage"));
    assert_null(strstr(s, "mt_more"));
    free(s);
}

static void test_smem_budget(void **state) {
    (void)state;
    /* 2 * (128 * (32 + pad) + 32 * 128) * 4 bytes > 49152: past the
     * static budget, one dynamic array holds the tiles */
    MMOpts big = {true, 128, 128, 32, 4, 0, 1, false, false, false, false, false, false};
    K k;
    build_matmul(&k, &big);
    char *s = emit(&k);
    assert_non_null(s);
    assert_non_null(strstr(s, "extern __shared__ __align__(16) long long mt_dynamic_smem[];"));
    assert_non_null(strstr(s, "float *const dot_lhs = (float *)((char *)mt_dynamic_smem + 0);"));
    assert_null(strstr(s, "__shared__ __align__(16) float dot_lhs["));
    assert_true(k.f->shared_bytes > MT_SMEM_BUDGET);
    free(s);
    k_free(&k);
    /* 2 * (256 * (256 + pad) + 256 * 256) * 4 bytes > 232448: refused */
    MMOpts huge = {true, 256, 256, 256, 4, 0, 1, false, false, false, false, false, false};
    build_matmul(&k, &huge);
    s = emit(&k);
    assert_null(s);
    assert_int_equal(k.c.status, MT_ERR_RESOURCE);
    assert_non_null(strstr(sb_str(&k.c.err), "bytes of shared memory, more than "
                                             "the 232448 bytes a program can have"));
    k_free(&k);
}

static void test_layout_errors(void **state) {
    (void)state;
    K k;
    k_init(&k, "bad", 4);
    ValId a = arange(&k, 0, 6);
    (void)a;
    assert_int_equal(layout_assign(k.f), -1);
    assert_int_equal(k.c.status, MT_ERR_UNSUPPORTED);
    assert_non_null(strstr(sb_str(&k.c.err),
                           "block dimension 6 is not a power of two"));
    k_free(&k);
    k_init(&k, "bad3", 4);
    int32_t sh[3] = {2, 2, 2};
    mk(&k, OP_ZEROS, type_block(type_scalar(DT_F32), 3, sh), 0, 0, 0, 0);
    assert_int_equal(layout_assign(k.f), -1);
    assert_int_equal(k.c.status, MT_ERR_UNSUPPORTED);
    k_free(&k);
}

static void test_layout_slices(void **state) {
    (void)state;
    K k;
    k_init(&k, "sl", 4);
    ValId om = arange(&k, 0, 64), on = arange(&k, 0, 32);
    ValId t = bin(&k, OP_ADD, expand(&k, om, 1), expand(&k, on, 0));
    assert_int_equal(layout_assign(k.f), 0);
    Layout *lt = &k.f->layouts[val(k.f, t)->layout];
    Layout *lm = &k.f->layouts[val(k.f, om)->layout];
    Layout *ln = &k.f->layouts[val(k.f, on)->layout];
    assert_int_equal(lt->slice_dim, -1);
    assert_int_equal(lm->slice_dim, 1);
    assert_int_equal(ln->slice_dim, 0);
    /* 2048 elements, 128 threads: 4 per thread along the last dim */
    assert_int_equal(lt->spt[1], 4);
    assert_int_equal(lt->tpw[1], 8);
    assert_int_equal(lt->tpw[0], 4);
    assert_int_equal(lt->wpc[0], 4);
    k_free(&k);
}

static void test_scalar_store_and_literals(void **state) {
    (void)state;
    K k;
    k_init(&k, "lit", 4);
    ValId o = func_add_param(k.f, "o", type_ptr(DT_F32));
    ValId oi = func_add_param(k.f, "oi", type_ptr(DT_I32));
    ValId ol = func_add_param(k.f, "ol", type_ptr(DT_I64));
    store(&k, o, const_f32(k.f, NAN), 0);
    store(&k, o, const_f32(k.f, 1e-5), 0);
    store(&k, oi, const_int(k.f, DT_I32, INT32_MIN), 0);
    store(&k, ol, const_int(k.f, DT_I64, 5), 0);
    char *s = emit(&k);
    assert_non_null(s);
    assert_non_null(strstr(s, "long long* ol"));
    assert_non_null(strstr(s, "if (threadIdx.x == 0) *o = __int_as_float(0x7fc00000);"));
    assert_non_null(strstr(s, "*o = 1e-05f;"));
    assert_non_null(strstr(s, "*oi = (-2147483647 - 1);"));
    assert_non_null(strstr(s, "*ol = 5LL;"));
    free(s);
    k_free(&k);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_smem_padding_rule),
        cmocka_unit_test(test_smem_banks),
        cmocka_unit_test(test_smem_buffer),
        cmocka_unit_test(test_smem_wgmma_tiles),
        cmocka_unit_test(test_layout_errors),
        cmocka_unit_test(test_layout_slices),
        cmocka_unit_test(test_emit_add_text),
        cmocka_unit_test(test_scalar_store_and_literals),
        cmocka_unit_test(test_emit_softmax_text),
        cmocka_unit_test(test_dot_matcher),
        cmocka_unit_test(test_dot_pipeline_text),
        cmocka_unit_test(test_smem_budget),
        cmocka_unit_test(test_run_add),
        cmocka_unit_test(test_run_masked_other),
        cmocka_unit_test(test_run_softmax),
        cmocka_unit_test(test_run_reduce_rank2),
        cmocka_unit_test(test_run_loop_reduction),
        cmocka_unit_test(test_run_swap),
        cmocka_unit_test(test_run_outer_conversion),
        cmocka_unit_test(test_run_matmul_broadcast),
        cmocka_unit_test(test_run_dot),
        cmocka_unit_test(test_run_dot_tiled),
        cmocka_unit_test(test_run_dot_pipeline),
        cmocka_unit_test(test_emit_vector_text),
        cmocka_unit_test(test_run_vector_add),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
