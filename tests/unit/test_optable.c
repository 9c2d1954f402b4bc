/* test_optable.c: the op table (src/ops.def) and its C templates
 * (src/ctext.c): every row is self-consistent, the optional-operand mask
 * drives the verifier, reduce identities are neutral, and the constant
 * folder computes exactly what the emitted C computes, checked against
 * the system C++ compiler through the host backend. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mt.h"
#include "host_fixture.h"

#include "ctx_fixture.h"

static const Loc L1 = {3, 5};

static Type sc(DType d) { return type_scalar(d); }

static Func *new_func(Ctx *c) {
    c->status = MT_OK;
    sb_clear(&c->err);
    return func_new(c, "k");
}

static void expect_ok(Ctx *c, Func *f) {
    if (ir_verify(f) != 0)
        fail_msg("verifier: %s", sb_str(&c->err));
}

static Op *store(Func *f, Region *r, ValId p, ValId v, ValId m) {
    ValId args[3] = {p, v, m};
    return op_new(f, r, OP_STORE, L1, sc(DT_VOID), args, 3);
}

/* Every row of ops.def is self-consistent: its columns agree with each
 * other, and each of its C templates is one the evaluator understands and
 * the expander expands completely (so the folder and the emitter read the
 * same text the same way). */
static void check_template(int code, const char *tmpl, DType d, int nops) {
    const OpInfo *oi = &op_info[code];
    CScalar args[3];
    const char *texts[3] = {"A", "B", "C"};
    Type at[3];
    for (int i = 0; i < 3; i++) {
        args[i] = (CScalar){(uint8_t)d, d == DT_F32 ? 0 : 3 - i,
                            (float)(3 - i)};
        at[i] = sc(d);
    }
    CScalar out;
    /* bit casts and rounding modes (%b, %z) are left to run time */
    bool evaluated = !strstr(tmpl, "%b") && !strstr(tmpl, "%z");
    if (evaluated && ctext_eval(tmpl, args, nops, d, &out) != 0)
        fail_msg("'%s': template \"%s\" does not evaluate", oi->name, tmpl);
    if (!evaluated && ctext_eval(tmpl, args, nops, d, &out) == 0)
        fail_msg("'%s': template \"%s\" folds", oi->name, tmpl);
    Arena *a = arena_new();
    assert_non_null(a);
    const char *x = ctext_expand(a, code, texts, at, nops, sc(d));
    if ((strchr(x, '?') && !strchr(tmpl, '?')) ||
        (strchr(x, '%') && !strstr(tmpl, "%%")))
        fail_msg("'%s': template \"%s\" expands to \"%s\"", oi->name, tmpl, x);
    arena_free(a);
}

static void test_table_rows_consistent(void **state) {
    (void)state;
    for (int code = 0; code < OP_COUNT; code++) {
        const OpInfo *oi = &op_info[code];
        assert_non_null(oi->name);
        for (int k = 0; k < code; k++)
            assert_string_not_equal(op_info[k].name, oi->name);
        assert_true(oi->rule < R_COUNT && oi->attrs < AS_COUNT &&
                    oi->kind < K_COUNT && oi->identity <= ID_HIGHEST);
        int n = oi->nargs < 0 ? 0 : oi->nargs;
        if (oi->optional >> n)
            fail_msg("'%s': optional operand beyond its %d", oi->name, n);
        /* reduce and scan rows of a region (tlscan.c) have no text */
        bool reduce = oi->kind == K_REDUCE && oi->nargs > 0;
        if (reduce != (oi->identity != ID_NONE))
            fail_msg("'%s': an identity belongs to reductions", oi->name);
        if ((reduce || oi->kind == K_SHAPE) && oi->attrs != AS_AXIS)
            fail_msg("'%s': reductions and shapes take an axis", oi->name);
        /* libdevice's text is its symbol's (test_libdevice_templates) */
        if ((oi->kind == K_ELEMENTWISE || reduce) && !oi->text && code != OP_LIBDEVICE)
            fail_msg("'%s': elementwise and reduce rows need a C text",
                     oi->name);
        if ((oi->kind == K_REGION) != ((oi->flags & F_REGION) != 0))
            fail_msg("'%s': regions are F_REGION", oi->name);
        int nops = reduce || oi->kind == K_SCAN ? 2 : n;
        /* the float functions' text is only ever used on floats */
        bool on_floats = oi->rule == R_FLOAT1 || oi->rule == R_FLOAT2 ||
                         oi->rule == R_FLOAT3 || oi->rule == R_FPRED;
        if (oi->text)
            check_template(code, oi->text, on_floats ? DT_F32 : DT_I32, nops);
        if (oi->ftext)
            check_template(code, oi->ftext, DT_F32, nops);
        if (oi->btext)
            check_template(code, oi->btext, DT_I1, nops);
    }
    for (int a = 0; a < AS_COUNT; a++)
        for (int i = 0; i < attr_info[a].nattr; i++)
            assert_non_null(attr_info[a].names[i]);
}

/* Every libdevice symbol's template calls its runtime function on each
 * operand once and expands completely; the folder never evaluates one. */
static void test_libdevice_templates(void **state) {
    (void)state;
    const char *texts[LIBDEVICE_MAX_ARGS] = {"A", "B", "C", "D"};
    Arena *a = arena_new();
    assert_non_null(a);
    for (int k = 0; k < LIBDEVICE_NSYMS; k++) {
        const LibdeviceSym *s = libdevice_sym(k);
        assert_non_null(s);
        assert_string_equal(s->symbol, libdevice_symbol_names[k]);
        Type at[LIBDEVICE_MAX_ARGS];
        CScalar args[LIBDEVICE_MAX_ARGS];
        for (int i = 0; i < s->nargs; i++) {
            at[i] = sc(s->args[i]);
            args[i] = (CScalar){(uint8_t)s->args[i], 1, 1.0};
        }
        Op op = {.code = OP_LIBDEVICE, .attr = {k, 0}};
        const char *x = ctext_expand_op(a, &op, texts, at, s->nargs, sc(s->ret));
        char want[128];
        int n = snprintf(want, sizeof want, "mt_nv_%s", s->symbol + 5);
        if (!x || strncmp(x, want, (size_t)n) || strchr(x, '%'))
            fail_msg("%s: template \"%s\" expands to \"%s\"", s->symbol, s->tmpl,
                     x ? x : "(null)");
        for (int i = 0; i < s->nargs; i++)
            if (!strchr(x, texts[i][0]))
                fail_msg("%s: operand %d missing from \"%s\"", s->symbol, i, x);
        CScalar out;
        if (ctext_eval(s->tmpl, args, s->nargs, s->ret, &out) == 0)
            fail_msg("%s: template folds", s->symbol);
    }
    assert_null(libdevice_sym(LIBDEVICE_NSYMS));
    assert_null(libdevice_sym(-1));
    arena_free(a);
}

/* A missing operand is an error exactly where the optional mask says it
 * is not allowed: the first non-optional operand is the one reported. */
static void test_table_optional_operands(void **state) {
    Ctx *c = *state;
    Func *f = new_func(c);
    for (int code = 0; code < OP_COUNT; code++) {
        const OpInfo *oi = &op_info[code];
        if (oi->nargs <= 0 || oi->optional == (1 << oi->nargs) - 1)
            continue;
        int first = 0;
        while (oi->optional >> first & 1)
            first++;
        ValId none[3] = {0, 0, 0};
        Type t = sc(DT_F32);
        c->status = MT_OK;
        sb_clear(&c->err);
        assert_int_equal(ir_infer_type(f, (OpCode)code, L1, none, oi->nargs,
                                       NULL, &t),
                         -1);
        char want[160];
        snprintf(want, sizeof want, "operand %d of '%s' is missing", first + 1,
                 oi->name);
        if (!strstr(sb_str(&c->err), want))
            fail_msg("'%s': got %s", oi->name, sb_str(&c->err));
    }
}

/* Each reduce identity (as C text) is neutral for the row's combine. */
static void test_table_reduce_identity(void **state) {
    (void)state;
    static const DType ds[] = {DT_I32, DT_I64, DT_F32};
    static const double xs[] = {0.0, -3.0, 5.0, 2147483647.0};
    for (int code = 0; code < OP_COUNT; code++) {
        const OpInfo *oi = &op_info[code];
        if (oi->kind != K_REDUCE || !oi->text) /* tlscan.c's reduce: a region */
            continue;
        for (size_t k = 0; k < sizeof ds / sizeof *ds; k++) {
            DType d = ds[k];
            if (code == OP_XOR_SUM && d == DT_F32) /* integers only */
                continue;
            const char *idt = oi->identity == ID_ZERO
                                  ? "0"
                                  : ctext_limit(d, oi->identity == ID_HIGHEST);
            CScalar id;
            assert_int_equal(ctext_eval(idt, NULL, 0, d, &id), 0);
            for (size_t j = 0; j < sizeof xs / sizeof *xs; j++) {
                CScalar args[2] = {id, {(uint8_t)d, (int64_t)xs[j], (float)xs[j]}};
                CScalar r;
                assert_int_equal(
                    ctext_eval(op_ctext(code, sc(d)), args, 2, d, &r), 0);
                if (d == DT_F32 ? r.f != args[1].f : r.i != args[1].i)
                    fail_msg("'%s' %s: identity %s is not neutral for %g",
                             oi->name, dtype_name(d), idt, xs[j]);
            }
        }
    }
}

/* The folder computes what the generated code computes.  For every row
 * with a C text and every operand typing its rule accepts, sample
 * constants are folded by pass_fold, and the same template, expanded by
 * ctext_expand as the emitter expands it, is compiled by the host backend
 * (the system C++ compiler with mt_host.h) over the same values read at
 * run time; every folded constant must equal the run-time result bit for
 * bit (NaN: any NaN).  A value C leaves undefined must stay unfolded, and
 * is then not run. */
enum { NSAMPLE = 6 };
static const bool smp_b[NSAMPLE] = {false, true, true, false, true, false};
static const int32_t smp_i[NSAMPLE] = {0, 1, -7, 31, INT32_MAX, INT32_MIN};
static const int64_t smp_l[NSAMPLE] = {0, -1, 7, 63, INT64_MAX, INT64_MIN};
static const float smp_f[NSAMPLE] = {0.0f, -0.0f, 2.5f, -7.0f, NAN, 3e38f};
static const DType smp_types[4] = {DT_I1, DT_I32, DT_I64, DT_F32};

typedef struct FoldCase {
    DType d;          /* result dtype */
    CScalar want;     /* the folded constant */
    const char *text; /* the emitted expression */
} FoldCase;

typedef struct FoldRun {
    Ctx *c;
    StrBuf src;
    FoldCase *cases;
    int ncases, cap;
    int outs[4];    /* next output slot per result dtype */
    int unfolded;
} FoldRun;

static int dt_index(DType d) {
    return d == DT_I1 ? 0 : d == DT_I32 ? 1 : d == DT_I64 ? 2 : 3;
}

static ValId sample_const(Func *f, DType d, int j) {
    switch (d) {
    case DT_I1: return const_bool(f, smp_b[j]);
    case DT_I32: return const_int(f, DT_I32, smp_i[j]);
    case DT_I64: return const_int(f, DT_I64, smp_l[j]);
    default: return const_f32(f, smp_f[j]);
    }
}

/* One case: fold `code` over samples js of types ds with result type rt. */
static void fold_case(FoldRun *fr, int code, const DType *ds, const int *js,
                      int n, Type rt) {
    Func *f = new_func(fr->c);
    ValId args[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        args[i] = sample_const(f, ds[i], js[i]);
    Op *op = op_new(f, &f->body, (OpCode)code, L1, rt, args, n);
    ValId out = func_add_param(f, "out", type_ptr((DType)rt.dtype));
    Op *st = store(f, &f->body, out, op->res[0], 0);
    expect_ok(fr->c, f);
    assert_int_equal(pass_fold(f), 0);
    ValId v = st->args[1];
    if (!val_is_const(f, v)) {
        fr->unfolded++;
        return;
    }
    static const char *const arr[4] = {"B", "I", "L", "F"};
    static const char *const outarr[4] = {"OB", "OI", "OL", "OF"};
    const char *texts[3];
    char buf[3][16];
    Type at[3];
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "%s[%d]", arr[dt_index(ds[i])], js[i]);
        texts[i] = buf[i];
        at[i] = sc(ds[i]);
    }
    int di = dt_index((DType)rt.dtype);
    const char *text =
        ctext_expand(fr->c->arena, code, texts, at, n, rt);
    sb_printf(&fr->src, "    %s[%d] = %s;\n", outarr[di], fr->outs[di]++,
              text);
    const Value *x = &f->vals[v];
    FoldCase fc = {(DType)rt.dtype,
                   {x->type.dtype, rt.dtype == DT_F32 ? 0 : x->c.i,
                    rt.dtype == DT_F32 ? (float)x->c.f : 0.0f},
                   text};
    VEC_PUSH(fr->c->arena, fr->cases, fr->ncases, fr->cap, fc);
}

/* The result type of code over scalar operands ds (the requested type
 * `want` for rules that take one), or void when the rule rejects them. */
static Type case_type(Ctx *c, int code, const DType *ds, int n, DType want) {
    Func *f = new_func(c);
    ValId args[3] = {0, 0, 0};
    for (int i = 0; i < n; i++)
        args[i] = sample_const(f, ds[i], 0);
    Type t = sc(want);
    int rc = ir_infer_type(f, (OpCode)code, L1, args, n, NULL, &t);
    c->status = MT_OK;
    sb_clear(&c->err);
    return rc == 0 && t.rank == 0 && !t.is_ptr ? t : sc(DT_VOID);
}

static void fold_cases_of(FoldRun *fr, int code) {
    int n = op_info[code].nargs;
    int ntypes = 1;
    for (int i = 0; i < n; i++)
        ntypes *= 4;
    for (int tc = 0; tc < ntypes; tc++) {
        DType ds[3];
        for (int i = 0, k = tc; i < n; i++, k /= 4)
            ds[i] = smp_types[k % 4];
        for (int w = 0; w < 4; w++) {
            Type rt = case_type(fr->c, code, ds, n, smp_types[w]);
            if (rt.dtype == DT_VOID)
                continue;
            /* every pair of samples, or every sample for one operand; a
             * select's arms take the samples, its condition both truths */
            int ncomb = n == 1 ? NSAMPLE : NSAMPLE * NSAMPLE;
            for (int k = 0; k < ncomb; k++) {
                int js[3] = {k % NSAMPLE, k / NSAMPLE, (k + 1) % NSAMPLE};
                if (n == 3)
                    js[0] = k % 2, js[1] = k % NSAMPLE, js[2] = k / NSAMPLE;
                fold_case(fr, code, ds, js, n, rt);
            }
            if (rt.dtype == smp_types[w] || w == 3)
                break; /* the rule ignores the request: one typing */
        }
    }
}

/* Builds fold_check with the host backend and runs it once over the
 * samples, writing into outs (shared with the parent), in a child process:
 * the kernel's threads leave thread-local state that LeakSanitizer's exit
 * scan cannot walk (the Makefile's note on test_cuda), and the child ends
 * with _exit, so this test binary keeps its leak check. */
static int run_in_child(Ctx *c, const char *src, void *outs[4]) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        static const char *const ctypes[8] = {
            "const bool*", "const int*", "const long long*", "const float*",
            "bool*", "int*", "long long*", "float*"};
        HostModule *m = NULL;
        const void *pin[4] = {smp_b, smp_i, smp_l, smp_f};
        void *args[8] = {&pin[0], &pin[1], &pin[2], &pin[3],
                         &outs[0], &outs[1], &outs[2], &outs[3]};
        const uint32_t grid[3] = {1, 1, 1};
        int rc = host_build(c, src, "fold_check", ctypes, 8, &m) == 0 &&
                 launch_host(c, m, grid, 1, args) == 0;
        if (!rc)
            fprintf(stderr, "%s", sb_str(&c->err));
        if (m)
            host_module_free(m);
        fflush(NULL);
        _exit(rc ? 0 : 1);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid)
        return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void test_fold_equals_emitted_code(void **state) {
    Ctx *c = *state;
    FoldRun fr;
    memset(&fr, 0, sizeof fr);
    fr.c = c;
    sb_init(&fr.src);
    sb_puts(&fr.src,
            "extern \"C\" __global__ void fold_check(const bool* B, "
            "const int* I, const long long* L, const float* F, bool* OB, "
            "int* OI, long long* OL, float* OF) {\n");
    for (int code = 0; code < OP_COUNT; code++)
        if (op_info[code].kind == K_ELEMENTWISE && op_info[code].nargs > 0)
            fold_cases_of(&fr, code);
    sb_puts(&fr.src, "}\n");
    assert_true(fr.ncases > 1000 && fr.unfolded > 10); /* both paths taken */
    int64_t n[4];
    for (int i = 0; i < 4; i++)
        n[i] = fr.outs[i] + 1;
    size_t bytes = (size_t)(n[0] * 1 + n[1] * 4 + n[2] * 8 + n[3] * 4) + 32;
    char *shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    assert_true(shared != MAP_FAILED);
    int64_t *ol = (int64_t *)shared;
    int32_t *oi = (int32_t *)(ol + n[2]);
    float *of = (float *)(oi + n[1]);
    bool *ob = (bool *)(of + n[3]);
    void *pout[4] = {ob, oi, ol, of};
    assert_int_equal(run_in_child(c, sb_str(&fr.src), pout), 0);
    int next[4] = {0, 0, 0, 0};
    for (int k = 0; k < fr.ncases; k++) {
        const FoldCase *fc = &fr.cases[k];
        int di = dt_index(fc->d), slot = next[di]++;
        bool same;
        double ran;
        switch (fc->d) {
        case DT_I1: same = ob[slot] == (fc->want.i != 0); ran = ob[slot]; break;
        case DT_I32: same = oi[slot] == fc->want.i; ran = oi[slot]; break;
        case DT_I64: same = ol[slot] == fc->want.i; ran = (double)ol[slot]; break;
        default: {
            float w = (float)fc->want.f;
            same = (isnan(of[slot]) && isnan(w)) || memcmp(&of[slot], &w, sizeof w) == 0;
            ran = of[slot];
            break;
        }
        }
        if (!same)
            fail_msg("%s %s: folded %g, ran %g", dtype_name(fc->d), fc->text,
                     fc->d == DT_F32 ? (double)fc->want.f
                                     : (double)fc->want.i,
                     ran);
    }
    munmap(shared, bytes);
    sb_free(&fr.src);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_rows_consistent),
        cmocka_unit_test(test_libdevice_templates),
        cmocka_unit_test_setup_teardown(test_table_optional_operands, setup,
                                        teardown),
        cmocka_unit_test(test_table_reduce_identity),
        cmocka_unit_test_setup_teardown(test_fold_equals_emitted_code, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
