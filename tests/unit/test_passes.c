/* test_passes.c: the back-end passes between layout assignment and the
 * CUDA emitter, each checked on its own result: axis analysis (axis.c),
 * dot planning (dotplan.c), explicit layout conversions (layout.c) and
 * shared-memory planning (smemplan.c).
 *
 * Kernels are written as source text and taken through the real front
 * end (parse, elaborate, verify, fold/CSE/DCE), then through the passes in
 * compile_stages' order; the tests read the annotations the passes leave
 * on the Func, its values and its ops. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

typedef struct P {
    Ctx c;
    Func *f;
} P;

/* Compiles `kernel` of src for sig up to and including the back-end
 * passes; returns 0, or -1 with the error in p->c. */
static int compile(P *p, const char *src, const char *kernel, const char *sig,
                   int num_warps) {
    memset(p, 0, sizeof *p);
    p->c.arena = arena_new();
    p->c.filename = "k.py";
    p->c.src = src;
    p->c.srclen = strlen(src);
    sb_init(&p->c.err);
    Module *m = parse_module(&p->c);
    SigEntry *se;
    int nsig;
    if (!m || sig_parse(&p->c, sig, &se, &nsig) < 0)
        return -1;
    ElabInput in = {m, kernel, se, nsig, NULL, 0, num_warps, false, NULL, NULL, 0};
    p->f = elaborate(&p->c, &in);
    if (!p->f || ir_verify(p->f) < 0 || run_passes(p->f) < 0)
        return -1;
    if (layout_assign(p->f) < 0 || axis_analyze(p->f) < 0 ||
        plan_dots(p->f) < 0 || smem_plan(p->f) < 0)
        return -1;
    return 0;
}

/* The same through the public API (host backend; stages_only: no C++
 * build). */
static mt_kernel *api_compile(mt_context *ctx, const char *src,
                              const char *kernel, const char *sig,
                              int stages_only) {
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = src;
    o.filename = "k.py";
    o.kernel = kernel;
    o.signature = sig;
    o.backend = MT_BACKEND_HOST;
    o.stages_only = stages_only;
    mt_kernel *k = NULL;
    if (mt_compile(ctx, &o, &k) != MT_OK)
        fail_msg("%s", mt_errmsg(ctx));
    return k;
}

static void done(P *p) {
    sb_free(&p->c.err);
    arena_free(p->c.arena);
}

/* The op of region r (recursively) with code `code`, the n-th one. */
static Op *find_op(Region *r, int code, int *n) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == code && (*n)-- == 0)
            return op;
        if (op->body) {
            Op *in = find_op(op->body, code, n);
            if (in)
                return in;
        }
    }
    return NULL;
}

static Op *nth_op(Func *f, int code, int n) { return find_op(&f->body, code, &n); }

static const char *add_src =
    "import mytriton as triton\n"
    "import mytriton.language as tl\n"
    "@triton.jit\n"
    "def add(X, Y, N, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    x = tl.load(X + offs, mask=offs < N)\n"
    "    tl.store(Y + offs[:, None] + tl.zeros((BLOCK, 4), tl.int32), x[:, None] + 0.0 * tl.zeros((BLOCK, 4), tl.float32))\n";

/* ---------------------------------------------------------------- axis.c */

static void test_axis_facts(void **state) {
    (void)state;
    P p;
    assert_int_equal(compile(&p, add_src, "add", "*fp32:16,*fp32,i32,256", 4), 0);
    Func *f = p.f;
    /* X + offs: 256 consecutive floats, 16-byte aligned start, hinted */
    Op *ptr = nth_op(f, OP_ADDPTR, 0);
    assert_non_null(ptr);
    const AxisInfo *a = &f->axis[ptr->res[0]];
    assert_int_equal(a->contig, 256);
    assert_int_equal(a->div, 16);
    assert_int_equal(a->constancy, 1);
    assert_true(a->hinted);
    /* the arange itself, and pid * BLOCK: a scalar multiple of 256 */
    const AxisInfo *r = &f->axis[nth_op(f, OP_ARANGE, 0)->res[0]];
    assert_int_equal(r->contig, 256);
    assert_int_equal(r->div, AXIS_BIG);
    Op *mul = nth_op(f, OP_MUL, 0);
    assert_int_equal(f->axis[mul->res[0]].div, 256);
    assert_int_equal(f->axis[mul->res[0]].constancy, AXIS_BIG);
    /* Y is not hinted; offs[:, None] is constant along the last dim */
    Op *ptr2 = nth_op(f, OP_ADDPTR, 1);
    assert_false(f->axis[ptr2->res[0]].hinted);
    Op *ex = nth_op(f, OP_EXPAND_DIMS, 0);
    assert_int_equal(f->axis[ex->res[0]].contig, 1);
    assert_int_equal(f->axis[ex->res[0]].constancy, AXIS_BIG);
    /* f32 values promise nothing */
    Op *load = nth_op(f, OP_LOAD, 0);
    assert_int_equal(f->axis[load->res[0]].contig, 1);
    assert_int_equal(f->axis[load->res[0]].div, 1);
    StrBuf sb;
    sb_init(&sb);
    axis_print(&sb, a);
    assert_string_equal(sb_str(&sb), "axis contig=256 div=16 const=1 hinted");
    sb_free(&sb);
    done(&p);
}

/* A loop index is as divisible as its start and step. */
static void test_axis_loop_index(void **state) {
    (void)state;
    static const char *src =
        "import mytriton as triton\n"
        "import mytriton.language as tl\n"
        "@triton.jit\n"
        "def k(X, N, S):\n"
        "    for i in range(64, N, 32):\n"
        "        tl.store(X + i + tl.arange(0, 32), 1.0)\n"
        "    for j in range(S, N, 4):\n"
        "        tl.store(X + j, 2.0)\n";
    P p;
    if (compile(&p, src, "k", "*fp32,i32,i32", 4) < 0)
        fail_msg("%s", sb_str(&p.c.err));
    Op *l0 = nth_op(p.f, OP_FOR, 0), *l1 = nth_op(p.f, OP_FOR, 1);
    assert_int_equal(p.f->axis[l0->index].div, 32);
    assert_int_equal(p.f->axis[l1->index].div, 1);
    done(&p);
    /* every constant is analysed, INT64_MIN too (2^63 does not fit) */
    static const char *big =
        "import mytriton as triton\n"
        "import mytriton.language as tl\n"
        "@triton.jit\n"
        "def k(X):\n"
        "    tl.store(X, (-9223372036854775807 - 1) + tl.program_id(0).to(tl.int64))\n";
    assert_int_equal(compile(&p, big, "k", "*i64", 4), 0);
    ValId m = const_int(p.f, DT_I64, INT64_MIN);
    assert_int_equal(p.f->axis[m].div, AXIS_BIG);
    done(&p);
}

/* x % N (Triton's RemOp rule): contiguous in runs of N's divisibility,
 * nothing with N unhinted; and a for loop's carried pointer advanced by a
 * multiple of 16 keeps its facts (the fixed point of fill_for). */
static void test_axis_rem_and_carried(void **state) {
    (void)state;
    static const char *src =
        "import mytriton as triton\n"
        "import mytriton.language as tl\n"
        "@triton.jit\n"
        "def k(X, M, N, S, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    a = offs % N\n"
        "    b = offs % M\n"
        "    p = X + a\n"
        "    q = X + offs\n"
        "    for i in range(0, M):\n"
        "        tl.store(p, 1.0)\n"
        "        tl.store(q, 2.0)\n"
        "        p += N\n"
        "        q += S\n"
        "    tl.store(X + b, 3.0)\n";
    P p;
    if (compile(&p, src, "k", "*fp32:16,i32,i32:16,i32,256", 4) < 0)
        fail_msg("%s", sb_str(&p.c.err));
    Func *f = p.f;
    const AxisInfo *a = &f->axis[nth_op(f, OP_REM, 0)->res[0]];
    assert_int_equal(a->contig, 16);
    assert_int_equal(a->div, 16);
    assert_int_equal(f->axis[nth_op(f, OP_REM, 1)->res[0]].contig, 1);
    Op *loop = nth_op(f, OP_FOR, 0);
    assert_non_null(loop);
    /* p advances by N (a multiple of 16 elements): contiguous and aligned
     * in every iteration; q by S (unknown): contiguous, alignment lost */
    const AxisInfo *pi = &f->axis[loop->iters[0]], *qi = &f->axis[loop->iters[1]];
    assert_int_equal(pi->contig, 16);
    assert_true(pi->hinted);
    assert_true(pi->div >= 16);
    assert_int_equal(qi->contig, 256);
    assert_int_equal(qi->div, 4);
    done(&p);
}

/* A mask's constancy: Triton's comparison rule and `&` of two masks. */
static void test_axis_mask_constancy(void **state) {
    (void)state;
    static const char *src =
        "import mytriton as triton\n"
        "import mytriton.language as tl\n"
        "@triton.jit\n"
        "def k(X, M, N, BLOCK: tl.constexpr):\n"
        "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
        "    rows = tl.arange(0, 4)\n"
        "    a = offs < N\n"
        "    b = N > offs\n"
        "    c = offs >= N\n"
        "    d = offs > N\n"
        "    e = offs + 1 < N\n"
        "    f = offs < M\n"
        "    g = (rows[:, None] < M) & (offs[None, :] < N)\n"
        "    h = offs == N\n"
        "    tl.store(X + offs, 1.0, mask=a & b & c & d & e & f & h)\n"
        "    tl.store(X + rows[:, None] + offs[None, :], 1.0, mask=g)\n";
    P p;
    if (compile(&p, src, "k", "*fp32:16,i32,i32:16,256", 4) < 0)
        fail_msg("%s", sb_str(&p.c.err));
    Func *f = p.f;
    /* a run of 16 consecutive offsets from a multiple of 16 against a
     * multiple of 16: one answer, for <, mirrored >, and >= */
    assert_int_equal(f->axis[nth_op(f, OP_CMP_LT, 0)->res[0]].constancy, 16);
    assert_int_equal(f->axis[nth_op(f, OP_CMP_GT, 0)->res[0]].constancy, 16);
    assert_int_equal(f->axis[nth_op(f, OP_CMP_GE, 0)->res[0]].constancy, 16);
    /* offs > N flips inside a run (at offs == N), so do offs + 1 < N (the
     * run starts off a multiple), offs < M (M unhinted) and offs == N */
    assert_int_equal(f->axis[nth_op(f, OP_CMP_GT, 1)->res[0]].constancy, 1);
    assert_int_equal(f->axis[nth_op(f, OP_CMP_LT, 1)->res[0]].constancy, 1);
    assert_int_equal(f->axis[nth_op(f, OP_CMP_LT, 2)->res[0]].constancy, 1);
    assert_int_equal(f->axis[nth_op(f, OP_CMP_EQ, 0)->res[0]].constancy, 1);
    /* the row test is constant along the last dim; & keeps the columns' 16 */
    assert_int_equal(f->axis[nth_op(f, OP_CMP_LT, 3)->res[0]].constancy, AXIS_BIG);
    Op *g = nth_op(f, OP_AND, 0);
    assert_non_null(g);
    assert_int_equal(f->axis[g->res[0]].constancy, 16);
    /* a & b & ... & h: as constant as its least constant operand */
    assert_int_equal(f->axis[nth_op(f, OP_AND, 1)->res[0]].constancy, 16);
    assert_int_equal(f->axis[nth_op(f, OP_AND, 6)->res[0]].constancy, 1);
    done(&p);
}

/* ------------------------------------------------------------ dotplan.c */

/* The matmul K loop; `extra` is one more body line, start the loop's. */
static char *matmul_src(const char *start, const char *extra) {
    static const char *fmt_ =
        "import mytriton as triton\n"
        "import mytriton.language as tl\n"
        "@triton.jit\n"
        "def mm(A, B, C, T, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):\n"
        "    rm = tl.program_id(0) * BM + tl.arange(0, BM)\n"
        "    rn = tl.program_id(1) * BN + tl.arange(0, BN)\n"
        "    rk = tl.arange(0, BK)\n"
        "    acc = tl.zeros((BM, BN), tl.float32)\n"
        "    for k in range(%s, K, BK):\n"
        "        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])\n"
        "        b = tl.load(B + (k + rk)[:, None] * N + rn[None, :])\n"
        "        acc += tl.dot(a, b, input_precision=%s)\n"
        "%s"
        "    tl.store(C + rm[:, None] * N + rn[None, :], acc)\n";
    const char *prec = strstr(extra, "tf32") ? "'tf32'" : "'ieee'";
    if (strstr(extra, "tf32"))
        extra = "";
    size_t n = strlen(fmt_) + strlen(start) + strlen(prec) + strlen(extra) + 1;
    char *s = malloc(n);
    snprintf(s, n, fmt_, start, prec, extra);
    return s;
}

static const DotPlan *plan_of(P *p, const char *start, const char *extra,
                              const char *sig, int warps) {
    char *src = matmul_src(start, extra);
    int rc = compile(p, src, "mm", sig, warps);
    free(src);
    if (rc < 0)
        fail_msg("%s", sb_str(&p->c.err));
    Op *dot = nth_op(p->f, OP_DOT, 0);
    assert_non_null(dot);
    assert_non_null(dot->plan);
    return dot->plan;
}

static const char *mm_sig = "*fp32,*fp32,*fp32,*i32,i32,i32,i32,64,64,16";

static void test_dot_forms(void **state) {
    (void)state;
    P p;
    /* canonical loop: pipelined, register tile, in place */
    const DotPlan *d = plan_of(&p, "0", "", mm_sig, 4);
    Op *loop = nth_op(p.f, OP_FOR, 0);
    assert_int_equal(d->form, DOT_PIPELINED);
    assert_ptr_equal(loop->plan, d);
    assert_ptr_equal(d->loop, loop);
    assert_non_null(d->add);
    assert_int_equal(d->add->code, OP_ADD);
    assert_int_equal(d->next, loop->yields[0]);
    assert_true(d->in_place);
    assert_true(d->tiled);
    assert_int_equal(p.f->layouts[val(p.f, d->dot->res[0])->layout].kind,
                     LAYOUT_DOT_TILE);
    /* 32 accumulators, 128 threads: cap 96 registers -> 5 blocks */
    assert_int_equal(d->min_blocks, 5);
    /* 32 results a thread: A as loaded [BM][BK + 4], two stages; B [BK][BN] */
    assert_true(d->a_as_loaded);
    assert_int_equal(d->A.rows, 64);
    assert_int_equal(d->A.columns, 16);
    assert_int_equal(d->A.row_padding, 4);
    assert_int_equal(d->A.stage_count, 2);
    assert_int_equal(d->B.rows, 16);
    assert_int_equal(d->B.columns, 64);
    assert_int_equal(d->B.stage_count, 2);
    assert_string_equal(dot_form_name(d->form), "pipelined");
    done(&p);
    /* a store in the body: two stages, not pipelined */
    d = plan_of(&p, "0", "        tl.store(T, k)\n", mm_sig, 4);
    assert_int_equal(d->form, DOT_TWO_STAGE);
    assert_int_equal(d->A.stage_count, 2);
    assert_ptr_equal(nth_op(p.f, OP_FOR, 0)->plan, d);
    done(&p);
    /* a loop that does not start at 0: not Version 18's canonical loop,
     * the general pipeline (match_carried_pipeline), Triton's three stages
     * by default */
    d = plan_of(&p, "BK", "", mm_sig, 4);
    assert_int_equal(d->form, DOT_PIPELINED);
    assert_true(d->carried);
    assert_int_equal(d->acc_iter, 0);
    assert_int_equal(d->nadvance, 0);
    assert_true(d->nprefetch > 0);
    assert_int_equal(d->A.stage_count, 3);
    assert_ptr_equal(nth_op(p.f, OP_FOR, 0)->plan, d);
    done(&p);
    /* "tf32": TF32 tensor-core tiles and the mma accumulator layout */
    d = plan_of(&p, "0", "tf32", mm_sig, 4);
    assert_int_equal(d->unit, DOT_MMA_TF32);
    assert_int_equal(p.f->layouts[val(p.f, d->dot->res[0])->layout].kind, LAYOUT_MMA);
    assert_false(d->tiled);
    assert_int_equal(d->A.row_padding, 4);
    assert_int_equal(d->B.row_padding, 8);
    done(&p);
    /* 16 x 16 on one warp: 8 outputs per thread, no register tile; the
     * scalar form keeps A [BM][BK + pad] */
    d = plan_of(&p, "0", "", "*fp32,*fp32,*fp32,*i32,i32,i32,i32,16,16,16", 1);
    assert_int_equal(d->form, DOT_PIPELINED);
    assert_false(d->tiled);
    assert_int_equal(p.f->layouts[val(p.f, d->dot->res[0])->layout].kind,
                     LAYOUT_BLOCKED);
    assert_int_equal(d->A.rows, 16);
    assert_int_equal(d->A.columns, 16);
    assert_int_equal(d->min_blocks, 0);
    done(&p);
}

/* ------------------------------------------------- explicit conversions */

static int count_ops(Region *r, int code, int how) {
    int n = 0;
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->code == code && (how < 0 || op->attr[0] == how))
            n++;
        if (op->body)
            n += count_ops(op->body, code, how);
    }
    return n;
}

/* Every block operand is where its user reads it, or comes from a
 * convert_layout with exactly that operand's layout. */
static void check_users(Func *f, Region *r) {
    for (int i = 0; i < r->nops; i++) {
        Op *op = r->ops[i];
        if (op->body)
            check_users(f, op->body);
        if (op->code == OP_CONVERT_LAYOUT) {
            ValId x = op->args[0], c = op->res[0];
            assert_true(type_eq(val_type(f, x), val_type(f, c)));
            assert_int_not_equal(val(f, x)->layout, val(f, c)->layout);
        }
    }
}

static const char *outer_src =
    "import mytriton as triton\n"
    "import mytriton.language as tl\n"
    "@triton.jit\n"
    "def outer(X, OUT, B: tl.constexpr):\n"
    "    o = tl.arange(0, B)\n"
    "    v = tl.load(X + o)\n"
    "    tl.store(OUT + o[:, None] * B + o[None, :], v[:, None] * v[None, :])\n";

static void test_conversions(void **state) {
    (void)state;
    P p;
    assert_int_equal(compile(&p, outer_src, "outer", "*fp32,*fp32,32", 4), 0);
    Func *f = p.f;
    /* v is loaded in a rank-1 layout and read as both a row and a column
     * slice of the product's layout: a trip through shared memory for the
     * expand_dims that does not fit; o is an arange, recomputed instead */
    assert_int_equal(count_ops(&f->body, OP_CONVERT_LAYOUT, CONVERT_SHARED), 1);
    assert_int_equal(count_ops(&f->body, OP_CONVERT_LAYOUT, CONVERT_RECOMPUTE), 1);
    check_users(f, &f->body);
    /* each conversion sits right before its one user */
    for (int i = 0; i < f->body.nops; i++) {
        Op *op = f->body.ops[i];
        if (op->code != OP_CONVERT_LAYOUT)
            continue;
        Op *user = f->body.ops[i + 1];
        bool uses = false;
        for (int k = 0; k < user->nargs; k++)
            uses = uses || user->args[k] == op->res[0];
        assert_true(uses);
    }
    done(&p);
    /* the add kernel needs none */
    assert_int_equal(compile(&p, add_src, "add", "*fp32,*fp32,i32,256", 4), 0);
    assert_int_equal(count_ops(&p.f->body, OP_CONVERT_LAYOUT, -1), 0);
    done(&p);
}

/* A reduction's result is a slice of its operand's layout.  Here the
 * carry was first linked to another block (the store before the loop), so
 * the yielded sum reaches it through a conversion at the end of the body;
 * the kernel then runs on the host backend and must sum the last tile. */
static const char *carry_src =
    "import mytriton as triton\n"
    "import mytriton.language as tl\n"
    "@triton.jit\n"
    "def k(X, Y, Z, N):\n"
    "    acc = tl.zeros((32,), tl.float32)\n"
    "    tl.store(Z + tl.arange(0, 32)[:, None] * 8 + tl.arange(0, 8)[None, :], acc[:, None] + tl.zeros((32, 8), tl.float32))\n"
    "    for i in range(0, N, 1):\n"
    "        x = tl.load(X + i * 512 + tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :])\n"
    "        acc = tl.sum(x, axis=0)\n"
    "    tl.store(Y + tl.arange(0, 32), acc)\n";

static void test_reduce_layout_and_yield(void **state) {
    (void)state;
    P p;
    if (compile(&p, carry_src, "k", "*fp32,*fp32,*fp32,i32", 4) < 0)
        fail_msg("%s", sb_str(&p.c.err));
    Func *f = p.f;
    Op *red = nth_op(f, OP_SUM, 0);
    const Layout *lx = &f->layouts[val(f, red->args[0])->layout];
    const Layout *lr = &f->layouts[val(f, red->res[0])->layout];
    assert_int_equal(lr->slice_dim, 0);
    assert_true(layout_same_params(lr, lx));
    Op *loop = nth_op(f, OP_FOR, 0);
    Op *last = loop->body->ops[loop->body->nops - 1];
    assert_int_equal(last->code, OP_CONVERT_LAYOUT);
    assert_int_equal(last->attr[0], CONVERT_SHARED);
    assert_int_equal(last->args[0], red->res[0]);
    assert_int_equal(loop->yields[0], last->res[0]);
    assert_int_equal(val(f, last->res[0])->layout, val(f, loop->res[0])->layout);
    check_users(f, &f->body);
    done(&p);
    if (system("c++ --version >/dev/null 2>&1") != 0)
        return;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_kernel *k = api_compile(ctx, carry_src, "k", "*fp32,*fp32,*fp32,i32", 0);
    static float xs[3 * 512], ys[32], zs[256];
    for (int i = 0; i < 3 * 512; i++)
        xs[i] = (float)(i % 7) - 2.0f;
    float *xp = xs, *yp = ys, *zp = zs;
    int n = 3;
    void *args[4] = {&xp, &yp, &zp, &n};
    uint32_t grid[3] = {1, 1, 1};
    if (mt_launch(ctx, k, grid, NULL, args) != MT_OK)
        fail_msg("%s", mt_errmsg(ctx));
    for (int j = 0; j < 32; j++) {
        float want = 0.0f;
        for (int r = 0; r < 16; r++)
            want += xs[2 * 512 + r * 32 + j];
        assert_true(ys[j] == want);
    }
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
}

/* ----------------------------------------------------------- smemplan.c */

static void test_smem_plan(void **state) {
    (void)state;
    P p;
    /* one conversion through shared memory: 32 floats of scratch */
    assert_int_equal(compile(&p, outer_src, "outer", "*fp32,*fp32,32", 4), 0);
    const SmemPlan *sp = p.f->smem;
    assert_non_null(sp);
    assert_int_equal(sp->nbufs, 1);
    assert_int_equal(sp->bufs[0].array, SMEM_SCRATCH);
    assert_int_equal(sp->bufs[0].op->code, OP_CONVERT_LAYOUT);
    assert_int_equal(sp->bufs[0].buf.columns, 32);
    assert_int_equal(sp->scratch_bytes, 128);
    assert_int_equal(sp->total, 128);
    assert_int_equal(p.f->shared_bytes, 128);
    assert_ptr_equal(smem_buffer_of(sp, sp->bufs[0].op, SMEM_SCRATCH),
                     &sp->bufs[0].buf);
    assert_null(smem_buffer_of(sp, sp->bufs[0].op, SMEM_DOT_LHS));
    done(&p);
    /* the pipelined dot: both tiles double-buffered after an empty scratch */
    const DotPlan *d = plan_of(&p, "0", "", mm_sig, 4);
    sp = p.f->smem;
    assert_int_equal(sp->nbufs, 2);
    assert_int_equal(sp->scratch_bytes, 0);
    assert_int_equal(sp->offset[SMEM_DOT_LHS], 0);
    assert_int_equal(sp->offset[SMEM_DOT_RHS], 2 * 64 * 20 * 4);
    assert_int_equal(sp->total, (2 * 64 * 20 + 2 * 16 * 64) * 4);
    assert_int_equal(smem_buffer_of(sp, d->dot, SMEM_DOT_LHS)->row_padding, 4);
    StrBuf sb;
    sb_init(&sb);
    smem_plan_print(&sb, sp);
    assert_string_equal(sb_str(&sb),
                        "shared 18432 bytes (budget 49152)\n"
                        "  dot_lhs +0: dot [64 x 16] f32 pad 4 stages 2 = 10240 bytes\n"
                        "  dot_rhs +10240: dot [16 x 64] f32 stages 2 = 8192 bytes");
    sb_free(&sb);
    done(&p);
    /* a column sum over 8 warps along the axis: one partial per warp for
     * each of the 64 columns, 8-byte aligned before the next array */
    static const char *col =
        "import mytriton as triton\n"
        "import mytriton.language as tl\n"
        "@triton.jit\n"
        "def k(X, Y):\n"
        "    x = tl.load(X + tl.arange(0, 64)[:, None] * 64 + tl.arange(0, 64)[None, :])\n"
        "    tl.store(Y + tl.arange(0, 64), tl.sum(x, axis=0))\n";
    assert_int_equal(compile(&p, col, "k", "*fp32,*fp32", 8), 0);
    sp = p.f->smem;
    const SharedBuffer *rb = smem_buffer_of(sp, nth_op(p.f, OP_SUM, 0), SMEM_SCRATCH);
    assert_non_null(rb);
    assert_int_equal(rb->rows, 64);
    const Layout *lx = &p.f->layouts[val(p.f, nth_op(p.f, OP_SUM, 0)->args[0])->layout];
    assert_int_equal(rb->columns, lx->wpc[0]);
    assert_true(lx->wpc[0] > 1);
    assert_true(sp->scratch_bytes >= 64 * lx->wpc[0] * 4);
    done(&p);
    /* past the static budget: 2 * (32 * (128 + 4) + 32 * 128) floats in
     * one dynamic array (128 results a thread: A transposed), the tiles
     * at 16-byte aligned offsets */
    char *src = matmul_src("0", "");
    assert_int_equal(compile(&p, src, "mm", "*fp32,*fp32,*fp32,*i32,i32,i32,i32,128,128,32", 4), 0);
    free(src);
    sp = p.f->smem;
    assert_int_equal(sp->total, 66560);
    assert_int_equal(sp->offset[SMEM_DOT_LHS] % 16, 0);
    assert_int_equal(sp->offset[SMEM_DOT_RHS] % 16, 0);
    done(&p);
    /* past what a program can have: one error, at the dot that first
     * crosses it: 2 * (32 * (512 + 4) + 32 * 512) floats */
    src = matmul_src("0", "");
    assert_int_equal(compile(&p, src, "mm", "*fp32,*fp32,*fp32,*i32,i32,i32,i32,512,512,32", 4), -1);
    free(src);
    assert_int_equal(p.c.status, MT_ERR_RESOURCE);
    assert_int_equal(p.c.err_loc.line, 12);
    assert_non_null(strstr(sb_str(&p.c.err), "kernel needs 263168 bytes of shared "
                                             "memory, more than the 232448 bytes"));
    done(&p);
}

/* ------------------------------------------------------- layoutprint.c */

/* The annotated IR through the public API: the stage exists, shows every
 * section, and the conversion of the outer product. */
static void test_stage_ssa_layout(void **state) {
    (void)state;
    mt_context *ctx;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    mt_kernel *k = api_compile(ctx, outer_src, "outer", "*fp32,*fp32,32", 1);
    const char *text = NULL;
    size_t len = 0;
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_SSA_LAYOUT, &text, &len),
                     MT_OK);
    assert_int_equal(strlen(text), len);
    const char *sections[] = {"convert_layout", "{via=recompute}", "{via=shared}",
                              "\nlayouts:\n  #0 blocked", "\nvalues:\n",
                              "\ndots:\n", "\nshared 128 bytes"};
    const char *at = text;
    for (size_t i = 0; i < sizeof sections / sizeof *sections; i++) {
        const char *hit = strstr(at, sections[i]);
        if (!hit)
            fail_msg("missing '%s' in:\n%s", sections[i], text);
        at = hit;
    }
    /* the earlier stages keep their numbers and their text */
    assert_int_equal(MT_STAGE_CUBIN, 5);
    assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_SSA_OPT, &text, &len), MT_OK);
    assert_null(strstr(text, "convert_layout"));
    assert_int_not_equal(mt_kernel_stage(ctx, k, (mt_stage)(MT_STAGE_MLIR + 1),
                                         &text, &len),
                         MT_OK);
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_axis_facts),
        cmocka_unit_test(test_axis_loop_index),
        cmocka_unit_test(test_axis_mask_constancy),
        cmocka_unit_test(test_axis_rem_and_carried),
        cmocka_unit_test(test_dot_forms),
        cmocka_unit_test(test_conversions),
        cmocka_unit_test(test_reduce_layout_and_yield),
        cmocka_unit_test(test_smem_plan),
        cmocka_unit_test(test_stage_ssa_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
