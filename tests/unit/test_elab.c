/* test_elab.c: the elaborator end to end (parse_module + elaborate +
 * ir_verify + ir_print) on kernel source strings: the conformance kernels
 * of the inventory (add, softmax, row sums, static and runtime-K matmul),
 * loop carries (two values, swaps, nested and sequential loops), block
 * constructors, helpers, module constants, constexpr values, literal
 * ranges, memory ordering, and every rejected construct with its message
 * and location. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

typedef struct Result {
    mt_status status;
    char *text; /* IR text, or the diagnostic */
} Result;

static Result compile_with(const char *src, const char *kernel, const char *sig,
                           const mt_global *globals, int nglobals) {
    Result r = {MT_OK, NULL};
    Arena *a = arena_new();
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = a;
    c.filename = "k.py";
    c.src = src;
    c.srclen = strlen(src);
    sb_init(&c.err);
    Func *f = NULL;
    Module *m = parse_module(&c);
    SigEntry *se = NULL;
    int ns = 0;
    if (m && sig_parse(&c, sig, &se, &ns) == 0) {
        ElabInput in = {m, kernel, se, ns, globals, nglobals, 4, false, NULL, NULL, 0};
        f = elaborate(&c, &in);
        if (f && ir_verify(f) < 0)
            f = NULL;
    }
    StrBuf sb;
    sb_init(&sb);
    if (f)
        ir_print(&sb, f);
    r.status = c.status;
    r.text = strdup(f ? sb_str(&sb) : sb_str(&c.err));
    sb_free(&sb);
    sb_free(&c.err);
    arena_free(a);
    return r;
}

static Result compile(const char *src, const char *kernel, const char *sig) {
    return compile_with(src, kernel, sig, NULL, 0);
}

static void expect_ir(const char *src, const char *kernel, const char *sig,
                      const char *want) {
    Result r = compile(src, kernel, sig);
    if (r.status != MT_OK || strcmp(r.text, want) != 0)
        print_error("got:\n%s\nwant:\n%s\n", r.text, want);
    assert_int_equal(r.status, MT_OK);
    assert_string_equal(r.text, want);
    free(r.text);
}

/* Every line of `lines` (separated by '\n') occurs in the IR. */
static void expect_lines(const char *src, const char *kernel, const char *sig,
                         const char *const *lines) {
    Result r = compile(src, kernel, sig);
    if (r.status != MT_OK)
        print_error("unexpected error:\n%s\n", r.text);
    assert_int_equal(r.status, MT_OK);
    for (int i = 0; lines[i]; i++) {
        if (!strstr(r.text, lines[i]))
            print_error("missing line '%s' in:\n%s\n", lines[i], r.text);
        assert_non_null(strstr(r.text, lines[i]));
    }
    free(r.text);
}

static int count(const char *hay, const char *needle) {
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ------------------------------------------------------------ kernels */

static const char add_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
    "    mask = offs < n\n"
    "    x = tl.load(x_ptr + offs, mask=mask, other=0.0)\n"
    "    y = tl.load(y_ptr + offs, mask=mask, other=0.0)\n"
    "    tl.store(out_ptr + offs, x + y, mask=mask)\n";

static void test_add_kernel(void **state) {
    (void)state;
    expect_ir(add_src, "add_kernel", "*fp32,*fp32,*fp32,i32,256",
              "%0 = program_id {axis=0} : i32\n"
              "%1 = mul %0, 256 : i32\n"
              "%2 = arange {start=0, end=256} : vector<256 x i32>\n"
              "%3 = add %1, %2 : vector<256 x i32>\n"
              "%4 = cmp_lt %3, n : vector<256 x bool>\n"
              "%5 = addptr x_ptr, %3 : vector<256 x ptr<f32>>\n"
              "%6 = load %5, %4, 0.0 : vector<256 x f32>\n"
              "%7 = addptr y_ptr, %3 : vector<256 x ptr<f32>>\n"
              "%8 = load %7, %4, 0.0 : vector<256 x f32>\n"
              "%9 = addptr out_ptr, %3 : vector<256 x ptr<f32>>\n"
              "%10 = add %6, %8 : vector<256 x f32>\n"
              "store %9, %10, %4");
}

static void test_add_kernel_params(void **state) {
    (void)state;
    /* the signature entries built by hand, num_warps carried through */
    Arena *a = arena_new();
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = a;
    c.filename = "k.py";
    c.src = add_src;
    c.srclen = strlen(add_src);
    sb_init(&c.err);
    Module *m = parse_module(&c);
    assert_non_null(m);
    SigEntry se[5];
    memset(se, 0, sizeof se);
    se[0].kind = se[1].kind = se[2].kind = SIG_PTR;
    se[0].dtype = se[1].dtype = se[2].dtype = DT_F32;
    se[3].kind = SIG_SCALAR;
    se[3].dtype = DT_I32;
    se[4].kind = SIG_CONST;
    se[4].value.kind = CK_INT;
    se[4].value.i = 128;
    ElabInput in = {m, "add_kernel", se, 5, NULL, 0, 8, false, NULL, NULL, 0};
    Func *f = elaborate(&c, &in);
    assert_non_null(f);
    assert_int_equal(f->num_warps, 8);
    assert_int_equal(f->nparams, 4);
    assert_string_equal(f->vals[f->params[3]].name, "n");
    assert_true(type_eq(val_type(f, f->params[0]), type_ptr(DT_F32)));
    assert_true(type_eq(val_type(f, f->params[3]), type_scalar(DT_I32)));
    assert_int_equal(ir_verify(f), 0);
    sb_free(&c.err);
    arena_free(a);
}

static const char softmax_src[] =
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):\n"
    "    row = tl.program_id(0)\n"
    "    cols = tl.arange(0, BLOCK)\n"
    "    mask = cols < n_cols\n"
    "    values = tl.load(x + row * n_cols + cols, mask=mask, other=float(\"-inf\"))\n"
    "    m = tl.max(values, axis=0)\n"
    "    e = tl.exp(values - m)\n"
    "    s = tl.sum(e, axis=0)\n"
    "    tl.store(out + row * n_cols + cols, e / s, mask=mask)\n";

static void test_softmax(void **state) {
    (void)state;
    static const char *const lines[] = {
        "%6 = load %5, %2, -inf : vector<8 x f32>",
        "%7 = max %6 {axis=0} : f32",
        "%8 = sub %6, %7 : vector<8 x f32>",
        "%9 = exp %8 : vector<8 x f32>",
        "%10 = sum %9 {axis=0} : f32",
        "%14 = div %9, %10 : vector<8 x f32>",
        "store %13, %14, %2",
        NULL};
    expect_lines(softmax_src, "softmax_kernel", "*fp32,*fp32,i32,8", lines);
}

static const char rowsum_src[] =
    "import triton\n"
    "import triton.language as lang\n"
    "from typing import Annotated\n"
    "\n"
    "COLS = 4\n"
    "HALF = COLS // 2\n"
    "\n"
    "@triton.jit\n"
    "def row_sum(x, out, R: lang.constexpr, C: Annotated[int, lang.constexpr]):\n"
    "    rows = lang.arange(0, R)\n"
    "    cols = lang.arange(0, C)\n"
    "    v = lang.load(x + rows[:, None] * C + cols[None, :])\n"
    "    s = lang.sum(v, axis=1)\n"
    "    lang.store(out + rows, s)\n"
    "    t = lang.sum(v)\n"
    "    k = v.sum(axis=0, keep_dims=True)\n"
    "    lang.store(out, t + lang.max(k, axis=-1)[0:1] if False else t + HALF)\n";

static void test_row_sum_axis(void **state) {
    (void)state;
    static const char *const lines[] = {
        "%7 = load %6, none, none : block<2x4 x f32>",
        "%8 = sum %7 {axis=1} : vector<2 x f32>",
        "store %9, %8, none",
        "%10 = sum %7 {axis=1} : vector<2 x f32>",
        "%11 = sum %10 {axis=0} : f32",
        "%12 = sum %7 {axis=0} : vector<4 x f32>",
        "%13 = expand_dims %12 {axis=0} : block<1x4 x f32>",
        "%14 = add %11, 2.0 : f32",
        "store out, %14, none",
        NULL};
    expect_lines(rowsum_src, "row_sum", "*fp32,*fp32,2,4", lines);
}

static const char matmul_src[] =
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def matmul_2d_kernel(a, b, c, M, N, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):\n"
    "    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)\n"
    "    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)\n"
    "    acc = tl.zeros((BM, BN), tl.float32)\n"
    "    for k in range(K):\n"
    "        a_values = tl.load(a + offs_m[:, None] * K + k, mask=offs_m[:, None] < M, other=0.0)\n"
    "        b_values = tl.load(b + k * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)\n"
    "        acc += a_values * b_values\n"
    "    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)\n"
    "    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)\n"
    "\n"
    "@triton.jit\n"
    "def matmul_runtime_k(a, b, c, M, N, K, BM: tl.constexpr, BN: tl.constexpr):\n"
    "    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)\n"
    "    offs_n = tl.program_id(1) * BN + tl.arange(0, BN)\n"
    "    acc = tl.zeros((BM, BN), tl.float32)\n"
    "    for k in range(0, K):\n"
    "        a_values = tl.load(a + offs_m[:, None] * K + k, mask=offs_m[:, None] < M, other=0.0)\n"
    "        b_values = tl.load(b + k * N + offs_n[None, :], mask=offs_n[None, :] < N, other=0.0)\n"
    "        acc += a_values * b_values\n"
    "    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)\n"
    "    tl.store(c + offs_m[:, None] * N + offs_n[None, :], acc, mask=mask)\n";

static void test_matmul_static_k(void **state) {
    (void)state;
    Result r = compile(matmul_src, "matmul_2d_kernel", "*fp32,*fp32,*fp32,i32,i32,3,4,8");
    assert_int_equal(r.status, MT_OK);
    assert_null(strstr(r.text, "for "));
    assert_int_equal(count(r.text, " = load "), 6);
    assert_non_null(strstr(r.text, "%8 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>"));
    assert_non_null(strstr(r.text, "%12 = addptr %11, 0 : block<4x1 x ptr<f32>>"));
    assert_non_null(strstr(r.text, "%48 = mul 2, N : i32"));
    assert_non_null(strstr(r.text, "%56 = add %40, %55 : block<4x8 x f32>"));
    assert_non_null(strstr(r.text, "%61 = and %58, %60 : block<4x8 x bool>"));
    assert_non_null(strstr(r.text, "store %66, %56, %61"));
    free(r.text);
}

static void test_matmul_runtime_k(void **state) {
    (void)state;
    static const char *const lines[] = {
        "%8 = zeros {shape=(4, 8), dtype=f32} : block<4x8 x f32>\n"
        "%27 = for %9 in range(0, K, 1) iter_args(%10 = %8) : block<4x8 x f32> {\n"
        "  %11 = expand_dims %3 {axis=1} : block<4x1 x i32>\n"
        "  %12 = mul %11, K : block<4x1 x i32>\n",
        "  %14 = addptr %13, %9 : block<4x1 x ptr<f32>>\n",
        "  %18 = mul %9, N : i32\n",
        "  %26 = add %10, %25 : block<4x8 x f32>\n"
        "  yield %26\n"
        "}\n",
        "store %37, %27, %32",
        NULL};
    expect_lines(matmul_src, "matmul_runtime_k", "*fp32,*fp32,*fp32,i32,i32,i32,4,8", lines);
}

static const char loops_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def two_carried(out, n):\n"
    "    first = 0\n"
    "    second = 1\n"
    "    for k in range(n):\n"
    "        first += k\n"
    "        second += first\n"
    "    tl.store(out, first)\n"
    "    tl.store(out + 1, second)\n"
    "\n"
    "@triton.jit\n"
    "def swap_kernel(out, n):\n"
    "    a = 1.0\n"
    "    b = 2.0\n"
    "    for k in range(n):\n"
    "        a, b = b, a\n"
    "    tl.store(out, a)\n"
    "    tl.store(out + 1, b)\n"
    "\n"
    "@triton.jit\n"
    "def swap_temp(out, n):\n"
    "    a = tl.program_id(0)\n"
    "    b = n\n"
    "    for k in range(n):\n"
    "        t = a\n"
    "        a = b\n"
    "        b = t\n"
    "    tl.store(out, a - b)\n"
    "\n"
    "@triton.jit\n"
    "def nested(out, n):\n"
    "    pid = tl.program_id(0)\n"
    "    acc = 0\n"
    "    for i in range(n):\n"
    "        for j in range(n):\n"
    "            acc += pid + i + j\n"
    "    tl.store(out + pid, acc)\n"
    "\n"
    "@triton.jit\n"
    "def sequential(out, n):\n"
    "    acc = 0\n"
    "    for i in range(n):\n"
    "        acc += i\n"
    "    for j in range(0, n, 2):\n"
    "        acc += j\n"
    "    tl.store(out, acc)\n"
    "\n"
    "@triton.jit\n"
    "def no_carry(out, n):\n"
    "    SCALE = 2\n"
    "    for k in range(n):\n"
    "        tmp = k * SCALE\n"
    "        tl.store(out + k, tmp)\n"
    "    tl.store(out, SCALE)\n"
    "\n"
    "@triton.jit\n"
    "def ptr_carry(out, n):\n"
    "    p = out\n"
    "    for k in range(n):\n"
    "        tl.store(p, 1.0)\n"
    "        p += 1\n"
    "\n"
    "@triton.jit\n"
    "def annotated(out, n):\n"
    "    acc = 0.0\n"
    "    for k in range(n):\n"
    "        acc: float = acc + k\n"
    "    tl.store(out, acc)\n"
    "\n"
    "@triton.jit\n"
    "def long_range(out):\n"
    "    acc = 0\n"
    "    for k in range(100):\n"
    "        acc += k\n"
    "    tl.store(out, acc)\n"
    "\n"
    "@triton.jit\n"
    "def short_range(out, N: tl.constexpr):\n"
    "    acc = 0.0\n"
    "    for k in range(N):\n"
    "        acc += k\n"
    "    for k in tl.static_range(1, 7, 2):\n"
    "        acc += k * 10\n"
    "    tl.store(out, acc)\n";

static void test_two_carried(void **state) {
    (void)state;
    expect_ir(loops_src, "two_carried", "*fp32,i32",
              "%5, %6 = for %0 in range(0, n, 1) iter_args(%1 = 0, %2 = 1) : i32, i32 {\n"
              "  %3 = add %1, %0 : i32\n"
              "  %4 = add %2, %3 : i32\n"
              "  yield %3, %4\n"
              "}\n"
              "store out, %5, none\n"
              "%7 = addptr out, 1 : ptr<f32>\n"
              "store %7, %6, none");
}

static void test_swap(void **state) {
    (void)state;
    expect_ir(loops_src, "swap_kernel", "*fp32,i32",
              "%3, %4 = for %0 in range(0, n, 1) iter_args(%1 = 1.0, %2 = 2.0) : f32, f32 {\n"
              "  yield %2, %1\n"
              "}\n"
              "store out, %3, none\n"
              "%5 = addptr out, 1 : ptr<f32>\n"
              "store %5, %4, none");
    /* t is first bound in the body: not carried, gone after the loop */
    expect_ir(loops_src, "swap_temp", "*i32,i32",
              "%0 = program_id {axis=0} : i32\n"
              "%4, %5 = for %1 in range(0, n, 1) iter_args(%2 = %0, %3 = n) : i32, i32 {\n"
              "  yield %3, %2\n"
              "}\n"
              "%6 = sub %4, %5 : i32\n"
              "store out, %6, none");
}

static void test_nested_loops(void **state) {
    (void)state;
    expect_ir(loops_src, "nested", "*i32,i32",
              "%0 = program_id {axis=0} : i32\n"
              "%9 = for %1 in range(0, n, 1) iter_args(%2 = 0) : i32 {\n"
              "  %8 = for %3 in range(0, n, 1) iter_args(%4 = %2) : i32 {\n"
              "    %5 = add %0, %1 : i32\n"
              "    %6 = add %5, %3 : i32\n"
              "    %7 = add %4, %6 : i32\n"
              "    yield %7\n"
              "  }\n"
              "  yield %8\n"
              "}\n"
              "%10 = addptr out, %0 : ptr<i32>\n"
              "store %10, %9, none");
}

static void test_sequential_loops(void **state) {
    (void)state;
    expect_ir(loops_src, "sequential", "*i32,i32",
              "%3 = for %0 in range(0, n, 1) iter_args(%1 = 0) : i32 {\n"
              "  %2 = add %1, %0 : i32\n"
              "  yield %2\n"
              "}\n"
              "%7 = for %4 in range(0, n, 2) iter_args(%5 = %3) : i32 {\n"
              "  %6 = add %5, %4 : i32\n"
              "  yield %6\n"
              "}\n"
              "store out, %7, none");
}

static void test_loop_variants(void **state) {
    (void)state;
    /* a compile-time value read in the body stays compile-time */
    expect_ir(loops_src, "no_carry", "*i32,i32",
              "for %0 in range(0, n, 1) {\n"
              "  %1 = mul %0, 2 : i32\n"
              "  %2 = addptr out, %0 : ptr<i32>\n"
              "  store %2, %1, none\n"
              "  yield\n"
              "}\n"
              "store out, 2, none");
    static const char *const ptr_lines[] = {
        "%3 = for %0 in range(0, n, 1) iter_args(%1 = out) : ptr<f32> {",
        "  store %1, 1.0, none\n  %2 = addptr %1, 1 : ptr<f32>\n  yield %2",
        NULL};
    expect_lines(loops_src, "ptr_carry", "*fp32,i32", ptr_lines);
    static const char *const ann_lines[] = {
        "iter_args(%1 = 0.0) : f32 {", "  %2 = add %1, %0 : f32", NULL};
    expect_lines(loops_src, "annotated", "*fp32,i32", ann_lines);
    /* constant bounds with more than 64 iterations stay a runtime loop */
    static const char *const long_lines[] = {
        "for %0 in range(0, 100, 1) iter_args(%1 = 0) : i32 {", NULL};
    expect_lines(loops_src, "long_range", "*i32", long_lines);
    /* short constant ranges and static_range unroll; `acc = 0.0` binds an
     * f32 tensor (Triton's visit_Assign), so the sum is ops the optimizer
     * folds, not a number the elaborator computes.  range's index is an
     * i32 tensor (the adds of 0, 1, 2 promote it), static_range's a
     * constexpr (10, 30, 50 adopt f32) */
    expect_ir(loops_src, "short_range", "*fp32,3",
              "%0 = add 0.0, 0 : f32\n"
              "%1 = add %0, 1 : f32\n"
              "%2 = add %1, 2 : f32\n"
              "%3 = add %2, 10.0 : f32\n"
              "%4 = add %3, 30.0 : f32\n"
              "%5 = add %4, 50.0 : f32\n"
              "store out, %5, none");
}

static const char misc_src[] =
    "import triton\n"
    "import triton.language as tl\n"
    "import math\n"
    "\n"
    "SCALE = 2.5\n"
    "NEG = -SCALE\n"
    "MODE = 'fast'\n"
    "\n"
    "@triton.jit\n"
    "def helper(x, y, FACTOR: tl.constexpr = 2):\n"
    "    return x * FACTOR + y, x - y\n"
    "\n"
    "@triton.jit\n"
    "def pick(x, USE: tl.constexpr):\n"
    "    if USE:\n"
    "        return x + 1\n"
    "    return x\n"
    "\n"
    "@triton.jit\n"
    "def ctors(out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    z = tl.zeros((BLOCK,), tl.float32)\n"
    "    f = tl.full((BLOCK,), 2.5, tl.float32)\n"
    "    e = tl.empty([BLOCK], dtype=tl.float32)\n"
    "    tl.store(out + offs, z + f + e, mask=offs < n)\n"
    "\n"
    "@triton.jit\n"
    "def where_max(x, out, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    v = tl.load(x + offs, mask=offs < n, other=0.0)\n"
    "    r = tl.where(v < 0, 0.0, v)\n"
    "    r = tl.maximum(r, 1.0)\n"
    "    nb = tl.cdiv(n, BLOCK)\n"
    "    tl.store(out + offs, r + nb + tl.cdiv(10, BLOCK), mask=offs < n)\n"
    "\n"
    "@triton.jit\n"
    "def inline_kernel(x, out, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "    v = tl.load(x + offs)\n"
    "    s, d = helper(v, 1.0, FACTOR=3)\n"
    "    tl.store(out + offs, s + d * SCALE + NEG)\n"
    "    tl.store(out + offs, pick(v, True) + pick(v, USE=False))\n"
    "\n"
    "@triton.jit\n"
    "def consts(out):\n"
    "    if MODE == 'fast':\n"
    "        tl.store(out, SCALE * 2)\n"
    "    else:\n"
    "        tl.store(out, math.pi)\n"
    "\n"
    "@triton.jit\n"
    "def type_kernel(out, VALUE: tl.constexpr):\n"
    "    tl.store(out, 1.0 if type(VALUE) is bool else 2.0)\n"
    "\n"
    "@triton.jit\n"
    "def order_kernel(buf, out2):\n"
    "    v = tl.load(buf)\n"
    "    tl.store(buf, 2.0)\n"
    "    tl.store(out2, v)\n"
    "\n"
    "@triton.jit\n"
    "def big_literal(out, n):\n"
    "    tl.store(out, n * 3000000000)\n"
    "    tl.store(out, n + 7)\n"
    "\n"
    "@triton.jit\n"
    "def pyvals(out, N: tl.constexpr):\n"
    "    a = 7 / 2\n"
    "    b = -7 // 2\n"
    "    c = -7 % 3\n"
    "    d = 2 ** 10\n"
    "    e = min(N, 3) + max(1, 2, N) + abs(-4) + len((1, 2, 3))\n"
    "    f = (1, 2, 3)[-1] + int(2.9) + int(True)\n"
    "    g = 1 if (N > 2 and N < 10) else 0\n"
    "    h = 5 if 2 in (1, 2) else 0\n"
    "    tl.store(out, a + b + c + d + e + f + g + h)\n"
    "\n"
    "@triton.jit\n"
    "def weak(x, out):\n"
    "    i = tl.arange(0, 4)\n"
    "    v = tl.load(x + i)\n"
    "    w = i / 2\n"
    "    tl.store(out + i, v * 2 + w + i.to(tl.float32) + (i * 2.0))\n";

static void test_block_constructors(void **state) {
    (void)state;
    expect_ir(misc_src, "ctors", "*fp32,i32,8",
              "%0 = arange {start=0, end=8} : vector<8 x i32>\n"
              "%1 = zeros {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%2 = full 2.5 {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%3 = empty {shape=(8,), dtype=f32} : vector<8 x f32>\n"
              "%4 = addptr out, %0 : vector<8 x ptr<f32>>\n"
              "%5 = add %1, %2 : vector<8 x f32>\n"
              "%6 = add %5, %3 : vector<8 x f32>\n"
              "%7 = cmp_lt %0, n : vector<8 x bool>\n"
              "store %4, %6, %7");
}

static void test_where_maximum_cdiv(void **state) {
    (void)state;
    static const char *const lines[] = {
        "%4 = cmp_lt %3, 0 : vector<8 x bool>", /* 0 is an i32 tensor here: Triton compares in the promoted f32 */
        "%5 = select %4, 0.0, %3 : vector<8 x f32>",
        "%6 = maximum %5, 1.0 : vector<8 x f32>",
        "%7 = add n, 8 : i32\n%8 = sub %7, 1 : i32\n%9 = div %8, 8 : i32",
        /* tl.cdiv(10, BLOCK) returns an i32 tensor (a @jit function in Triton) */
        "%11 = add %6, %9 : vector<8 x f32>\n%12 = add %11, 2 : vector<8 x f32>",
        NULL};
    expect_lines(misc_src, "where_max", "*fp32,*fp32,i32,8", lines);
}

static void test_helper_inlining(void **state) {
    (void)state;
    expect_ir(misc_src, "inline_kernel", "*fp32,*fp32,4",
              "%0 = arange {start=0, end=4} : vector<4 x i32>\n"
              "%1 = addptr x, %0 : vector<4 x ptr<f32>>\n"
              "%2 = load %1, none, none : vector<4 x f32>\n"
              "%3 = mul %2, 3.0 : vector<4 x f32>\n"
              "%4 = add %3, 1.0 : vector<4 x f32>\n"
              "%5 = sub %2, 1.0 : vector<4 x f32>\n"
              "%6 = addptr out, %0 : vector<4 x ptr<f32>>\n"
              "%7 = mul %5, 2.5 : vector<4 x f32>\n"
              "%8 = add %4, %7 : vector<4 x f32>\n"
              "%9 = add %8, -2.5 : vector<4 x f32>\n"
              "store %6, %9, none\n"
              "%10 = addptr out, %0 : vector<4 x ptr<f32>>\n"
              "%11 = add %2, 1.0 : vector<4 x f32>\n"
              "%12 = add %11, %2 : vector<4 x f32>\n"
              "store %10, %12, none");
}

static void test_module_constants(void **state) {
    (void)state;
    expect_ir(misc_src, "consts", "*fp32", "store out, 5.0, none");
    /* caller globals override module-level assignments */
    mt_global g[2] = {{"MODE", "'slow'"}, {"SCALE", "4"}};
    Result r = compile_with(misc_src, "consts", "*fp32", g, 2);
    assert_int_equal(r.status, MT_OK);
    assert_string_equal(r.text, "store out, 3.1415927, none");
    free(r.text);
    Result r2 = compile_with(misc_src, "consts", "*fp32", g + 1, 1);
    assert_int_equal(r2.status, MT_OK);
    assert_string_equal(r2.text, "store out, 8.0, none");
    free(r2.text);
}

static void test_constexpr_bool_vs_int(void **state) {
    (void)state;
    expect_ir(misc_src, "type_kernel", "*fp32,True", "store out, 1.0, none");
    expect_ir(misc_src, "type_kernel", "*fp32,1", "store out, 2.0, none");
}

static void test_float_neg_inf(void **state) {
    (void)state;
    static const char *const lines[] = {"load %5, %2, -inf", NULL};
    expect_lines(softmax_src, "softmax_kernel", "*fp32,*fp32,i32,8", lines);
}

static void test_integer_literal_range(void **state) {
    (void)state;
    /* Triton: a Python int takes the type of the tensor beside it, and
     * must fit it (n is i64 here; with an i32 n it is an error, below) */
    expect_ir(misc_src, "big_literal", "*i64,i64",
              "%0 = mul n, 3000000000 : i64\n"
              "store out, %0, none\n"
              "%1 = add n, 7 : i64\n"
              "store out, %1, none");
}

static void test_loads_ordered_with_stores(void **state) {
    (void)state;
    expect_ir(misc_src, "order_kernel", "*fp32,*fp32",
              "%0 = load buf, none, none : f32\n"
              "store buf, 2.0, none\n"
              "store out2, %0, none");
}

static void test_python_semantics(void **state) {
    (void)state;
    /* 3.5 + -4 + 2 + 1024 + (3 + 5 + 4 + 3) + (3 + 2 + 1) + 1 + 5: each
     * name's value is Python's, computed here; binding it made a scalar
     * tensor (a = 3.5 an f32, b = -4 an i32), so the sum is f32 adds */
    expect_ir(misc_src, "pyvals", "*fp32,5",
              "%0 = add 3.5, -4 : f32\n"
              "%1 = add %0, 2 : f32\n"
              "%2 = add %1, 1024 : f32\n"
              "%3 = add %2, 15 : f32\n"
              "%4 = add %3, 6 : f32\n"
              "%5 = add %4, 1 : f32\n"
              "%6 = add %5, 5 : f32\n"
              "store out, %6, none");
}

static void test_weak_scalars(void **state) {
    (void)state;
    static const char *const lines[] = {
        "%3 = cast %0 : vector<4 x f32>\n%4 = div %3, 2.0 : vector<4 x f32>",
        "%6 = mul %2, 2.0 : vector<4 x f32>",
        "%10 = mul %0, 2.0 : vector<4 x f32>",
        NULL};
    expect_lines(misc_src, "weak", "*fp32,*fp32", lines);
}

static const char dot_src[] =
    "import triton.language as tl\n"
    "\n"
    "@triton.jit\n"
    "def dotk(a, c, PREC: tl.constexpr):\n"
    "    i = tl.arange(0, 16)\n"
    "    x = tl.load(a + i[:, None] * 16 + i[None, :])\n"
    "    acc = tl.zeros((16, 16), dtype=tl.float32)\n"
    "    acc = tl.dot(x, x, acc, input_precision=PREC)\n"
    "    acc = tl.dot(x, x, acc=acc, allow_tf32=False)\n"
    "    y = tl.dot(x, x)\n"
    "    tl.store(c + i[:, None] * 16 + i[None, :], acc + y)\n";

static void test_dot(void **state) {
    (void)state;
    static const char *const lines[] = {
        "%8 = dot %6, %6, %7 {input_precision=tf32x3} : block<16x16 x f32>",
        "%9 = dot %6, %6, %8 {input_precision=ieee} : block<16x16 x f32>",
        "%10 = dot %6, %6, none {input_precision=tf32} : block<16x16 x f32>", /* the default */
        NULL};
    expect_lines(dot_src, "dotk", "*fp32,*fp32,'tf32x3'", lines);
}

/* ----------------------------------------------------------- rejections */

typedef struct BadCase {
    const char *params, *sig, *body;
    mt_status status;
    const char *where; /* "k.py:L:C: error: message" */
} BadCase;

/* Each body follows this prelude; the kernel's def is on line 12. */
static const char bad_prelude[] =
    "import triton\n"
    "import triton.language as tl\n"
    "\n"
    "def plain(x):\n"
    "    return x\n"
    "\n"
    "@triton.jit\n"
    "def rec(x):\n"
    "    return rec(x)\n"
    "\n"
    "@triton.jit\n";

static const BadCase bad_cases[] = {
    {"out, n", "*fp32,i32", "    while True:\n        pass\n", MT_ERR_UNSUPPORTED,
     "k.py:13:11: error: 'while' on a condition that is always true never ends ('break' is "
     "not supported)"},
    {"out, n", "*fp32,i32", "    if tl.arange(0, 4) < n:\n        tl.store(out, 1.0)\n",
     MT_ERR_TYPE,
     "k.py:13:8: error: the truth value of a block of 4 elements is ambiguous; 'if' needs a "
     "scalar"},
    {"out, n", "*fp32,i32", "    m = not n\n", MT_ERR_TYPE,
     "k.py:13:9: error: 'not' needs bool operands, got i32; compare with 0 first"},
    {"out, n", "*fp32,i32", "    m = n and (n < 5)\n", MT_ERR_TYPE,
     "k.py:13:9: error: 'and' needs bool operands, got i32; compare with 0 first"},
    {"out, n", "*fp32,i32", "    m = (n < 5) or n\n", MT_ERR_TYPE,
     "k.py:13:20: error: 'or' needs bool operands, got i32; compare with 0 first"},
    {"out, n", "*fp32,i32", "    m = 1.0 if tl.arange(0, 4) < n else 2.0\n", MT_ERR_TYPE,
     "k.py:13:16: error: the truth value of a block of 4 elements is ambiguous; a "
     "conditional expression needs a scalar"},
    {"out, M, N", "*fp32,i32,i32", "    a = tl.arange(0, 4)\n    mask = a < M & a < N\n",
     MT_ERR_UNSUPPORTED,
     "k.py:14:12: error: chained comparison on runtime values; when combining comparisons "
     "with &, wrap each comparison in parentheses"},
    {"out, n", "*fp32,i32", "    for i in range(n):\n        break\n", MT_ERR_UNSUPPORTED,
     "k.py:14:9: error: 'break' is not supported in kernels"},
    {"out, n", "*fp32,i32", "    for i in range(n):\n        continue\n", MT_ERR_UNSUPPORTED,
     "k.py:14:9: error: 'continue' is not supported in kernels"},
    {"out, n", "*fp32,i32", "    with foo:\n        pass\n", MT_ERR_UNSUPPORTED,
     "k.py:13:5: error: 'with' statements are not supported in kernels"},
    {"out, n", "*fp32,i32", "    try:\n        pass\n    except Exception:\n        pass\n",
     MT_ERR_UNSUPPORTED, "k.py:13:5: error: 'try' statements are not supported in kernels"},
    {"out, n", "*fp32,i32", "    f = lambda x: x\n", MT_ERR_UNSUPPORTED,
     "k.py:13:9: error: lambda expressions are not supported in kernels"},
    {"out, n", "*fp32,i32", "    def g(x):\n        return x\n", MT_ERR_UNSUPPORTED,
     "k.py:13:5: error: nested function definitions are not supported in kernels"},
    {"out", "*fp32", "    global x\n", MT_ERR_UNSUPPORTED,
     "k.py:13:5: error: 'global' statements are not supported in kernels"},
    {"out, n", "*fp32,i32", "    return n\n", MT_ERR_UNSUPPORTED,
     "k.py:13:5: error: a kernel cannot return a value"},
    {"out, n", "*fp32,i32", "    for i in range(n):\n        return\n", MT_ERR_UNSUPPORTED,
     "k.py:14:9: error: 'return' inside a loop is not supported"},
    {"out, n", "*fp32,i32", "    for i in range(0, n, 0):\n        pass\n", MT_ERR_TYPE,
     "k.py:13:26: error: range() step must not be zero"},
    {"out, n", "*fp32,i32", "    for i in range(0, n, 1.5):\n        pass\n", MT_ERR_TYPE,
     "k.py:13:26: error: for loop step must be an integer, got float"},
    {"out, n", "*fp32,i32", "    for i in tl.static_range(n):\n        pass\n", MT_ERR_TYPE,
     "k.py:13:14: error: tl.static_range bounds must be compile-time integers"},
    {"out, x", "*fp32,fp32", "    for i in range(x):\n        pass\n", MT_ERR_TYPE,
     "k.py:13:20: error: for loop stop must be a scalar integer, got f32"},
    {"out, n", "*fp32,i32",
     "    acc = 0.0\n    for i in range(n):\n"
     "        acc = acc + tl.arange(0, 8).to(tl.float32)\n    tl.store(out, acc)\n",
     MT_ERR_TYPE,
     "k.py:14:5: error: loop-carried variable 'acc' changes type from f32 to "
     "vector<8 x f32>; initialise it with tl.zeros"},
    {"out, n", "*fp32,i32", "    a = 0\n    for i in range(n):\n        a = 1.5\n", MT_ERR_TYPE,
     "k.py:14:5: error: loop-carried variable 'a' changes type from i32 to f32"},
    {"out, n", "*fp32,i32", "    t = tl.float32\n    for i in range(n):\n        t = tl.int32\n",
     MT_ERR_TYPE, "k.py:15:9: error: loop-carried variable 't' must be a number or a tensor"},
    {"out, n", "*fp32,i32", "    t = (1, 2)\n    for i in range(n):\n        t = (3, 4, 5)\n",
     MT_ERR_TYPE, "k.py:14:5: error: loop-carried variable 't' changes from 2 items to 3"},
    {"out", "*fp32", "    for i in tl.static_range(100000):\n        pass\n", MT_ERR_UNSUPPORTED,
     "k.py:13:14: error: too many unrolled loop iterations (more than 65536)"},
    {"out", "*fp32",
     "    for i in tl.static_range(1000):\n        for j in tl.static_range(1000):\n"
     "            pass\n",
     MT_ERR_UNSUPPORTED, "k.py:14:18: error: too many unrolled loop iterations"},
    /* issue 15: refused before the host compiler sees 200k values */
    {"out", "*fp32",
     "    acc = 0.0\n    for i in tl.static_range(65536):\n"
     "        acc += tl.load(out + i)\n    tl.store(out, acc)\n",
     MT_ERR_UNSUPPORTED,
     "k.py:14:14: error: unrolling this loop makes the kernel too large (more than 32768 "
     "values); use tl.range for a loop at run time"},
    {"out", "*fp32", "    tl.store(out, 3000000000000000000000)\n", MT_ERR_TYPE,
     "k.py:13:19: error: integer literal 3000000000000000000000 is out of range"},
    {"out", "*fp32", "    x = 9223372036854775807 + 1\n", MT_ERR_TYPE,
     "k.py:13:9: error: integer overflow in compile-time arithmetic"},
    {"out", "*fp32", "    tl.store(out, foo)\n", MT_ERR_NAME,
     "k.py:13:19: error: name 'foo' is not defined"},
    {"out", "*fp32", "    tl.store(out, plain(1.0))\n", MT_ERR_NAME,
     "k.py:13:19: error: function 'plain' is not a @jit function"},
    {"out", "*fp32", "    tl.store(out, rec(1.0))\n", MT_ERR_UNSUPPORTED,
     "k.py:9:12: error: recursion too deep inlining 'rec'"},
    {"out", "*fp32", "    x = tl.load(out, foo=1)\n", MT_ERR_TYPE,
     "k.py:13:22: error: tl.load() got an unexpected keyword argument 'foo'"},
    {"out", "*fp32", "    x = tl.zeros((4,), tl.float8e4b15)\n", MT_ERR_UNSUPPORTED,
     "k.py:13:24: error: dtype float8e4b15 is not supported"},
    {"out, n", "*i32,i32", "    tl.store(out, n * 3000000000)\n", MT_ERR_TYPE,
     "k.py:13:19: error: scalar 3000000000 is out of range for type int32"},
    {"out", "*fp32", "    x = tl.arange(4, 4)\n", MT_ERR_TYPE,
     "k.py:13:9: error: arange requires end > start, got [4, 4)"},
    {"out", "*fp32", "    x = tl.zeros((4, 0), tl.float32)\n", MT_ERR_TYPE,
     "k.py:13:18: error: block dimensions must be positive integers"},
    {"out", "*fp32", "    x = tl.zeros((4, True), tl.float32)\n", MT_ERR_TYPE,
     "k.py:13:18: error: block dimensions must be positive integers"},
    {"out", "*fp32", "    x = tl.zeros(\"a\", tl.float32)\n", MT_ERR_TYPE,
     "k.py:13:18: error: block shape must be an int or a sequence of ints"},
    {"out", "*fp32", "    x = tl.zeros((4,), 3)\n", MT_ERR_TYPE,
     "k.py:13:24: error: block dtype must be a scalar tl dtype, got int"},
    {"out", "*fp32", "    x = tl.full((4,), tl.arange(0, 4), tl.int32)\n", MT_ERR_TYPE,
     "k.py:13:23: error: full value must be scalar"},
    {"out", "*fp32", "    a = tl.arange(0, 4)\n    b = a[1]\n", MT_ERR_UNSUPPORTED,
     "k.py:14:9: error: unsupported tensor index: only ':' and None are supported when indexing a tensor"},
    {"out, x", "*fp32,fp32", "    y = x // 2\n", MT_ERR_TYPE,
     "k.py:13:9: error: '//' on floats is not supported"},
    {"out", "*fp32", "    p = out + 1.5\n", MT_ERR_TYPE,
     "k.py:13:9: error: pointer offset must be an integer, got f32"},
    {"out, x", "*fp32,fp32", "    p = out + x\n", MT_ERR_TYPE,
     "k.py:13:9: error: pointer offset must be an integer, got f32"},
    {"out, n", "*fp32,i32", "    X: tl.constexpr = n + 1\n", MT_ERR_TYPE,
     "k.py:13:23: error: 'X' is annotated tl.constexpr but its value is not a compile-time"},
    {"out, B: tl.constexpr", "*fp32,3", "    assert B % 2 == 0, \"B must be even\"\n",
     MT_ERR_TYPE, "k.py:13:5: error: assertion failed: B must be even"},
    {"out, B: tl.constexpr", "*fp32,3",
     "    tl.static_assert(B % 2 == 0, \"B must be even\")\n", MT_ERR_TYPE,
     "k.py:13:5: error: static assertion failed: B must be even"},
    {"out, B: tl.constexpr", "*fp32,i32", "    pass\n", MT_ERR_SIGNATURE,
     "k.py:12:12: error: constexpr parameter 'B' needs a value in the signature, got i32"},
    {"out, n", "*fp32,5", "    pass\n", MT_ERR_SIGNATURE,
     "k.py:12:12: error: parameter 'n' is not a tl.constexpr; give its type, not a value"},
    {"out, n", "*fp32", "    pass\n", MT_ERR_SIGNATURE,
     "k.py:12:1: error: signature has 1 entry but kernel 'k' has 2 parameters"},
    {"out", "*fp32",
     "    a = tl.zeros((16, 16), tl.float32)\n"
     "    c = tl.dot(a, a, input_precision=\"bf16\")\n",
     MT_ERR_TYPE,
     "k.py:14:22: error: input_precision must be one of 'tf32', 'tf32x3', 'ieee', 'bf16x3', "
     "'bf16x6', got 'bf16'"},
    {"out", "*fp32", "    r = range(4)\n", MT_ERR_UNSUPPORTED,
     "k.py:13:9: error: range() can only be used in a for loop"},
    {"out, n", "*fp32,i32", "    x = n ** 2\n", MT_ERR_UNSUPPORTED,
     "k.py:13:9: error: '**' is only supported on compile-time values"},
    {"out, n", "*fp32,i32", "    out.x = 1\n", MT_ERR_UNSUPPORTED,
     "k.py:13:5: error: only assignment to names and tuples of names is supported"},
    {"out, n", "*fp32,i32", "    x = tl.load(n)\n", MT_ERR_TYPE,
     "k.py:13:17: error: tl.load() expects a pointer, got i32"},
    {"out, n", "*fp32,i32", "    a, b = n\n", MT_ERR_TYPE,
     "k.py:13:5: error: cannot unpack i32 into 2 names"},
    {"out, n", "*fp32,i32", "    tl.store(out, n - out)\n", MT_ERR_TYPE,
     "k.py:13:19: error: unsupported operator '-' on a pointer"},
    {"out", "*fp32", "    x = tl.program_id(3)\n", MT_ERR_TYPE,
     "k.py:13:23: error: tl.program_id axis must be 0, 1, or 2 but got 3"},
    {"out", "*fp32", "    x = tl.arange(0, 4)\n    y = tl.arange(0, 8)\n    z = x + y\n",
     MT_ERR_TYPE, "k.py:15:9: error: cannot broadcast shapes 4 and 8"},
    {"out", "*fp32", "    x = tl.foo(1)\n", MT_ERR_UNSUPPORTED,
     "k.py:13:9: error: tl.foo is not supported"},
};

static void run_bad_cases(const BadCase *cases, size_t ncases) {
    for (size_t i = 0; i < ncases; i++) {
        const BadCase *b = &cases[i];
        size_t n = strlen(bad_prelude) + strlen(b->params) + strlen(b->body) + 32;
        char *src = malloc(n);
        assert_non_null(src);
        snprintf(src, n, "%sdef k(%s):\n%s", bad_prelude, b->params, b->body);
        Result r = compile(src, "k", b->sig);
        if (r.status != b->status || !strstr(r.text, b->where))
            print_error("case %zu: status %d, want %d; got:\n%s\nwant: %s\n", i,
                        (int)r.status, (int)b->status, r.text, b->where);
        assert_int_equal(r.status, b->status);
        assert_non_null(strstr(r.text, b->where));
        free(r.text);
        free(src);
    }
}

static void test_rejections(void **state) {
    (void)state;
    run_bad_cases(bad_cases, sizeof bad_cases / sizeof bad_cases[0]);
}

/* The builtin table's binding and per-parameter checks, one case each,
 * in the forms a call can take (function, method, dtype call). */
static const BadCase builtin_cases[] = {
    /* binding */
    {"out, n", "*fp32,i32", "    x = tl.exp(1.0, 2.0)\n", MT_ERR_TYPE,
     "k.py:13:9: error: tl.exp() takes at most 1 arguments, got 2"},
    {"out, n", "*fp32,i32", "    x = tl.exp(y=1.0)\n", MT_ERR_TYPE,
     "k.py:13:16: error: tl.exp() got an unexpected keyword argument 'y'"},
    {"out, n", "*fp32,i32", "    x = tl.exp(1.0, x=1.0)\n", MT_ERR_TYPE,
     "k.py:13:21: error: tl.exp() got multiple values for argument 'x'"},
    {"out, n", "*fp32,i32", "    tl.store(out)\n", MT_ERR_TYPE,
     "k.py:13:5: error: tl.store() missing required argument 'value'"},
    {"out, n", "*fp32,i32", "    x = tl.arange(0, 4).sum(dim=0)\n", MT_ERR_TYPE,
     "k.py:13:29: error: tl.sum() got an unexpected keyword argument 'dim'"},
    /* one case per parameter check */
    {"out, n", "*fp32,i32", "    x = tl.exp(\"a\")\n", MT_ERR_TYPE,
     "k.py:13:16: error: tl.exp() expects a tensor, got str"},
    {"out, n", "*fp32,i32", "    x = tl.load(n)\n", MT_ERR_TYPE,
     "k.py:13:17: error: tl.load() expects a pointer, got i32"},
    {"out, n", "*fp32,i32", "    x = tl.zeros_like(n)\n", MT_ERR_TYPE,
     "k.py:13:23: error: tl.zeros_like() expects a block, got i32"},
    {"out, n", "*fp32,i32", "    x = tl.zeros_like(2)\n", MT_ERR_TYPE,
     "k.py:13:23: error: tl.zeros_like() expects a tensor, got int"},
    {"out, n", "*fp32,i32", "    x = tl.program_id(1.0)\n", MT_ERR_TYPE,
     "k.py:13:23: error: axis must be a compile-time integer, got float"},
    {"out, n", "*fp32,i32", "    x = tl.expand_dims(tl.arange(0, 4), -3)\n", MT_ERR_TYPE,
     "k.py:13:41: error: invalid axis -3. Expected -2 <= axis < 2"},
    {"out, n", "*fp32,i32", "    x = tl.zeros((4, 0), tl.float32)\n", MT_ERR_TYPE,
     "k.py:13:18: error: block dimensions must be positive integers"},
    {"out, n", "*fp32,i32", "    x = tl.full((4,), 1.0, 3)\n", MT_ERR_TYPE,
     "k.py:13:28: error: block dtype must be a scalar tl dtype, got int"},
    {"out, n", "*fp32,i32", "    x = n.to(\"f\")\n", MT_ERR_TYPE,
     "k.py:13:14: error: to() dtype must be a tl dtype, got str"},
    /* checks run in parameter order: the tensor before the axis */
    {"out, n", "*fp32,i32", "    x = tl.expand_dims(\"a\", \"b\")\n", MT_ERR_TYPE,
     "k.py:13:24: error: tl.expand_dims() expects a tensor, got str"},
    /* handlers: range outside a for, a dtype called, a reduction's own name */
    {"out, n", "*fp32,i32", "    x = tl.range(3)\n", MT_ERR_UNSUPPORTED,
     "k.py:13:9: error: tl.range() can only be used in a for loop"},
    {"out, n", "*fp32,i32", "    x = tl.int32(1, 2)\n", MT_ERR_TYPE,
     "k.py:13:9: error: tl.int32() takes one argument"},
    {"out, n", "*fp32,i32", "    x = tl.max(\"s\")\n", MT_ERR_TYPE,
     "k.py:13:16: error: max() expects a tensor, got str"},
    {"out, n", "*fp32,i32", "    x = tl.sqrt(n)\n", MT_ERR_TYPE,
     "k.py:13:17: error: Expected dtype ['fp32', 'fp64'] but got int32"},
};

static void test_builtin_checks(void **state) {
    (void)state;
    run_bad_cases(builtin_cases, sizeof builtin_cases / sizeof builtin_cases[0]);
}

/* Compiles "x = <fmt with name>" as the body of k(out, n), expecting want. */
static void expect_line(const char *fmt, const char *name, mt_status want) {
    char src[512], line[256];
    snprintf(line, sizeof line, fmt, name);
    snprintf(src, sizeof src,
             "import triton\nimport triton.language as tl\n\n@triton.jit\n"
             "def k(out, n):\n    x = %s\n",
             line);
    Result r = compile(src, "k", "*fp32,i32");
    if (r.status != want)
        print_error("%s:\n%s\n", line, r.text);
    assert_int_equal(r.status, want);
    free(r.text);
}

/* Every name mt_language_name lists is one the compiler resolves, in its
 * namespace; the lists hold what mytriton.language must offer. */
static void test_language_names(void **state) {
    (void)state;
    static const struct {
        mt_name_group g;
        const char *form;
    } groups[] = {
        {MT_NAMES_TL, "tl.%s"},
        {MT_NAMES_DTYPE, "tl.%s"},
        {MT_NAMES_METHOD, "tl.arange(0, 4).%s"},
        {MT_NAMES_BUILTIN, "%s"},
        {MT_NAMES_TRITON, "triton.%s"},
        {MT_NAMES_LIBDEVICE, "tl.extra.cuda.libdevice.%s"},
    };
    int total[6] = {0};
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        const char *name, *doc;
        for (int i = 0; (name = mt_language_name(groups[g].g, i, &doc)); i++) {
            expect_line(groups[g].form, name, MT_OK);
            assert_non_null(doc);
            /* a usage line names the function it documents ("name(");
             * a class kernels only name (isinstance) reads "name: " */
            if (groups[g].g == MT_NAMES_TL || groups[g].g == MT_NAMES_METHOD ||
                groups[g].g == MT_NAMES_LIBDEVICE) {
                size_t n = strlen(name);
                bool ok = !strncmp(doc, name, n) && (doc[n] == '(' || !strncmp(doc + n, ": ", 2));
                if (!ok)
                    print_error("%s: doc '%s'\n", name, doc);
                assert_true(ok);
            }
            total[g]++;
        }
    }
    assert_int_equal(total[MT_NAMES_DTYPE], DT_COUNT - 1);
    assert_int_equal(total[MT_NAMES_METHOD], 27 + 8 + 9 + 2 + 1 + 1 + 1); /* + atomics, tlscan.c, cast/store, abs, item, gather */
    assert_int_equal(total[MT_NAMES_BUILTIN], 14); /* ... getattr, hasattr, isinstance */
    assert_int_equal(total[MT_NAMES_TRITON], 2);
    /* the tl list has what language.py once lacked, and no method-only name */
    bool constancy = false, to = false;
    const char *name;
    for (int i = 0; (name = mt_language_name(MT_NAMES_TL, i, NULL)); i++) {
        constancy |= !strcmp(name, "max_constancy");
        to |= !strcmp(name, "to");
    }
    assert_true(constancy);
    assert_false(to);
    assert_null(mt_language_name(MT_NAMES_TL, -1, NULL));
    assert_null(mt_language_name((mt_name_group)99, 0, NULL));
    assert_null(mt_language_name(MT_NAMES_DTYPE, DT_COUNT - 1, NULL));
    /* what is not listed is refused */
    expect_line("tl.%s", "float8e4b15", MT_ERR_UNSUPPORTED);
    expect_line("tl.%s", "no_such_builtin", MT_ERR_UNSUPPORTED);
}

static void test_missing_kernel(void **state) {
    (void)state;
    Result r = compile(add_src, "nope", "*fp32");
    assert_int_equal(r.status, MT_ERR_NAME);
    assert_non_null(strstr(r.text, "kernel 'nope' not found in k.py"));
    free(r.text);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_add_kernel),
        cmocka_unit_test(test_add_kernel_params),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_row_sum_axis),
        cmocka_unit_test(test_matmul_static_k),
        cmocka_unit_test(test_matmul_runtime_k),
        cmocka_unit_test(test_two_carried),
        cmocka_unit_test(test_swap),
        cmocka_unit_test(test_nested_loops),
        cmocka_unit_test(test_sequential_loops),
        cmocka_unit_test(test_loop_variants),
        cmocka_unit_test(test_block_constructors),
        cmocka_unit_test(test_where_maximum_cdiv),
        cmocka_unit_test(test_helper_inlining),
        cmocka_unit_test(test_module_constants),
        cmocka_unit_test(test_constexpr_bool_vs_int),
        cmocka_unit_test(test_float_neg_inf),
        cmocka_unit_test(test_integer_literal_range),
        cmocka_unit_test(test_loads_ordered_with_stores),
        cmocka_unit_test(test_python_semantics),
        cmocka_unit_test(test_weak_scalars),
        cmocka_unit_test(test_dot),
        cmocka_unit_test(test_rejections),
        cmocka_unit_test(test_builtin_checks),
        cmocka_unit_test(test_language_names),
        cmocka_unit_test(test_missing_kernel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
