/* test_irparse.c: the textual IR reader (irparse.c) and the whole-function
 * printer (ir_print_func).
 *
 * Round trips: every kernel of every RUN line under tests/lit/ssa is
 * elaborated, printed with its header, read back and printed again (the
 * texts must be equal), before and after the default passes; the passes
 * on the read-back function must print what they print on the original.
 * tests/opt/roundtrip_all_ops.ir must use every op of ops.def.  Then the
 * header (hints, num_warps), literal typing (i32 vs i64), and
 * every reader error with its exact location and message.  Runs from the
 * repository root (make test-unit does). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mt.h"

typedef struct T {
    Ctx c;
} T;

static void t_init(T *t, const char *src) {
    memset(t, 0, sizeof *t);
    t->c.arena = arena_new();
    t->c.filename = "t.ir";
    t->c.src = src;
    t->c.srclen = src ? strlen(src) : 0;
    sb_init(&t->c.err);
}

static void t_free(T *t) {
    arena_free(t->c.arena);
    sb_free(&t->c.err);
}

static char *print_func(Func *f) {
    StrBuf sb;
    sb_init(&sb);
    ir_print_func(&sb, f);
    char *s = strdup(sb_str(&sb));
    sb_free(&sb);
    return s;
}

static char *print_body(Func *f) {
    StrBuf sb;
    sb_init(&sb);
    ir_print(&sb, f);
    char *s = strdup(sb_str(&sb));
    sb_free(&sb);
    return s;
}

/* Reads text; on failure reports the diagnostic and fails the test. */
static Func *must_parse(T *t, const char *text) {
    t_init(t, text);
    Func *f = ir_parse(&t->c);
    if (!f)
        print_error("cannot read back:\n%s\n%s", text, sb_str(&t->c.err));
    assert_non_null(f);
    return f;
}

/* print(parse(print(f))) == print(f), also for the body alone, and the
 * passes act alike on f and on what was read back.  Consumes f's passes:
 * f is optimised afterwards. */
static void check_round_trip(Func *f, const char *what) {
    char *text = print_func(f), *body = print_body(f);
    T t;
    Func *g = must_parse(&t, text);
    char *again = print_func(g), *gbody = print_body(g);
    if (strcmp(text, again))
        print_error("%s: printed\n%s\nread back\n%s\n", what, text, again);
    assert_string_equal(text, again);
    assert_string_equal(body, gbody);
    assert_int_equal(g->num_warps, f->num_warps);
    assert_int_equal(run_passes(f), 0);
    assert_int_equal(run_passes(g), 0);
    char *fo = print_func(f), *go = print_func(g);
    if (strcmp(fo, go))
        print_error("%s: passes differ\n%s\n%s\n", what, fo, go);
    assert_string_equal(fo, go);
    T t2;
    Func *h = must_parse(&t2, fo);
    char *ho = print_func(h);
    assert_string_equal(fo, ho);
    free(ho);
    t_free(&t2);
    free(fo);
    free(go);
    free(again);
    free(gbody);
    free(text);
    free(body);
    t_free(&t);
}

/* ------------------------------------------------------------ lit kernels */

static char *slurp(const char *path) {
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    StrBuf sb;
    sb_init(&sb);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, fp)) > 0)
        sb_putn(&sb, buf, n);
    fclose(fp);
    char *s = strdup(sb_str(&sb));
    sb_free(&sb);
    return s;
}

/* The value of "--opt VALUE" or "--opt 'VALUE'" on one RUN line. */
static bool run_arg(const char *line, const char *opt, char *out, size_t cap) {
    const char *p = strstr(line, opt);
    const char *eol = strchr(line, '\n');
    if (!p || (eol && p > eol))
        return false;
    p += strlen(opt);
    while (*p == ' ')
        p++;
    char stop = ' ';
    if (*p == '\'')
        stop = *p++;
    size_t n = 0;
    while (p[n] && p[n] != stop && p[n] != '\n' && n + 1 < cap)
        n++;
    memcpy(out, p, n);
    out[n] = 0;
    return true;
}

/* Elaborates one kernel of a lit file and round-trips it. */
static void round_trip_kernel(const char *path, const char *src, const char *kernel,
                              const char *sig, int warps) {
    T t;
    t_init(&t, src);
    t.c.filename = path;
    Module *m = parse_module(&t.c);
    SigEntry *se = NULL;
    int ns = 0;
    Func *f = NULL;
    if (m && sig_parse(&t.c, sig, &se, &ns) == 0) {
        ElabInput in = {m, kernel, se, ns, NULL, 0, warps, false, NULL, NULL, 0};
        f = elaborate(&t.c, &in);
    }
    if (!f || ir_verify(f) < 0)
        print_error("%s %s: %s", path, kernel, sb_str(&t.c.err));
    assert_non_null(f);
    char what[256];
    snprintf(what, sizeof what, "%s %s '%s'", path, kernel, sig);
    check_round_trip(f, what);
    t_free(&t);
}

static void test_round_trip_lit_ssa(void **state) {
    (void)state;
    DIR *d = opendir("tests/lit/ssa");
    assert_non_null(d);
    int kernels = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 3, ".py"))
            continue;
        char path[512];
        snprintf(path, sizeof path, "tests/lit/ssa/%s", e->d_name);
        char *src = slurp(path);
        assert_non_null(src);
        for (const char *line = strstr(src, "RUN:"); line; line = strstr(line + 1, "RUN:")) {
            char kernel[128], sig[256], warps[16] = "4";
            const char *eol = strchr(line, '\n'), *refused = strstr(line, "%not");
            if (refused && (!eol || refused < eol))
                continue; /* a diagnostic test: its kernel does not compile */
            if (!run_arg(line, "--kernel", kernel, sizeof kernel) ||
                !run_arg(line, "--signature", sig, sizeof sig))
                continue;
            run_arg(line, "--num-warps", warps, sizeof warps);
            round_trip_kernel(path, src, kernel, sig, atoi(warps));
            kernels++;
        }
        free(src);
    }
    closedir(d);
    assert_true(kernels >= 50); /* every RUN line, not a lucky few */
}

static void mark_ops(const Region *r, bool *seen) {
    for (int i = 0; i < r->nops; i++) {
        seen[r->ops[i]->code] = true;
        Region *rs[2];
        for (int k = 0, n = op_regions(r->ops[i], rs); k < n; k++)
            mark_ops(rs[k], seen);
    }
}

/* tests/opt/roundtrip_all_ops.ir uses every op of ops.def (so an op
 * added there must be added to the file, and read back), and its
 * expected output is itself a fixed point of the reader. */
static void test_round_trip_all_ops(void **state) {
    (void)state;
    char *src = slurp("tests/opt/roundtrip_all_ops.ir");
    char *out = slurp("tests/opt/roundtrip_all_ops.out");
    assert_non_null(src);
    assert_non_null(out);
    T t;
    Func *f = must_parse(&t, src);
    bool seen[OP_COUNT] = {false};
    mark_ops(&f->body, seen);
    for (int c = 0; c < OP_COUNT; c++) {
        if (!seen[c])
            print_error("op '%s' missing from roundtrip_all_ops.ir\n", op_info[c].name);
        assert_true(seen[c]);
    }
    char *s = print_func(f);
    size_t n = strlen(out);
    assert_true(n > 0 && out[n - 1] == '\n');
    out[n - 1] = 0;
    assert_string_equal(s, out);
    free(s);
    t_free(&t);
    f = must_parse(&t, out);
    s = print_func(f);
    assert_string_equal(s, out);
    free(s);
    t_free(&t);
    free(src);
    free(out);
}

/* Hints and num_warps travel in the header; a hinted signature. */
static void test_round_trip_header(void **state) {
    (void)state;
    const char *src = "import mytriton.language as tl\n"
                      "def k(x, y, n, B: tl.constexpr):\n"
                      "    o = tl.program_id(0) * B + tl.arange(0, B)\n"
                      "    tl.store(y + o, tl.load(x + o, mask=o < n), mask=o < n)\n";
    round_trip_kernel("k.py", src, "k", "*fp32:16, *fp32, i32:8, 64", 8);
    const char *text = "func @k(x: ptr<f32>:16, y: ptr<i64>, n: i32:8, b: bool) "
                       "attributes {num_warps=2} {\n"
                       "  store y, 5, b\n"
                       "}";
    T t;
    Func *f = must_parse(&t, text);
    assert_int_equal(f->num_warps, 2);
    assert_int_equal(f->nparams, 4);
    assert_int_equal(val(f, f->params[0])->divisibility, 16);
    assert_int_equal(val(f, f->params[1])->divisibility, 0);
    assert_int_equal(val(f, f->params[2])->divisibility, 8);
    char *s = print_func(f);
    assert_string_equal(s, text);
    free(s);
    t_free(&t);
    /* an empty function; attributes may be left out (num_warps 4) */
    f = must_parse(&t, "// nothing\nfunc @e() {\n}\n\n");
    s = print_func(f);
    assert_string_equal(s, "func @e() attributes {num_warps=4} {\n}");
    free(s);
    t_free(&t);
}

/* An integer literal is i32 unless the printed result type needs i64;
 * carried values and yields take the carried type. */
static void test_literal_types(void **state) {
    (void)state;
    T t;
    Func *f = must_parse(&t, "func @k(p: ptr<i64>, n: i32) {\n"
                             "  %a = add 2147483647, 1 : i64\n"
                             "  %b = add 2147483647, 1 : i32\n"
                             "  %c = add 4294967296, n : i64\n"
                             "  %r = for %i in range(0, n, 1) iter_args(%x = 0) : i64 {\n"
                             "    yield 7\n"
                             "  }\n"
                             "  %s = add %a, %r : i64\n"
                             "  %t = add %s, %c : i64\n"
                             "  store p, %t, none\n"
                             "  store p, %b, none\n"
                             "}");
    Op **ops = f->body.ops;
    assert_int_equal(val_type(f, ops[0]->args[0]).dtype, DT_I64);
    assert_int_equal(val_type(f, ops[0]->args[1]).dtype, DT_I64);
    assert_int_equal(val_type(f, ops[1]->args[0]).dtype, DT_I32);
    assert_int_equal(val_type(f, ops[2]->args[0]).dtype, DT_I64);
    assert_int_equal(val_type(f, ops[3]->args[3]).dtype, DT_I64);
    assert_int_equal(val_type(f, ops[3]->yields[0]).dtype, DT_I64);
    assert_int_equal(val_type(f, ops[3]->args[0]).dtype, DT_I32);
    /* folding computes in the result type: i64 does not wrap, i32 does */
    assert_int_equal(pass_fold(f), 0);
    char *s = print_body(f);
    assert_non_null(strstr(s, "store p, -2147483648, none"));
    assert_non_null(strstr(s, "%4 = add 2147483648, %3 : i64"));
    free(s);
    t_free(&t);
    /* constants of every kind */
    f = must_parse(&t, "func @k(p: ptr<f32>, q: ptr<bool>) {\n"
                       "  %0 = add -inf, 1e-05 : f32\n"
                       "  %1 = maximum %0, nan : f32\n"
                       "  %2 = add %1, -0.0 : f32\n"
                       "  %3 = mul %2, 1e+20 : f32\n"
                       "  store p, %3, True\n"
                       "  store q, False, none\n"
                       "}");
    s = print_func(f);
    assert_non_null(strstr(s, "%0 = add -inf, 1e-05 : f32\n  %1 = maximum %0, nan : f32\n"
                              "  %2 = add %1, -0.0 : f32\n  %3 = mul %2, 1e+20 : f32"));
    free(s);
    t_free(&t);
}

/* Names are any %word, renumbered on printing; comments are skipped. */
static void test_names_and_comments(void **state) {
    (void)state;
    T t;
    Func *f = must_parse(&t, "func @k(out: ptr<f32>, n: i32) {  // header\n"
                             "  %pid = program_id {axis=0} : i32   // the program\n"
                             "\n"
                             "  %acc_2 = for %i in range(0, n, 1) iter_args(%a = 0.0) : f32 {\n"
                             "    %c = cast %i : f32\n"
                             "    %s = add %a, %c : f32\n"
                             "    yield %s\n"
                             "  }\n"
                             "  store out, %acc_2, none\n"
                             "}\n");
    char *s = print_body(f);
    assert_string_equal(s, "%0 = program_id {axis=0} : i32\n"
                           "%5 = for %1 in range(0, n, 1) iter_args(%2 = 0.0) : f32 {\n"
                           "  %3 = cast %1 : f32\n"
                           "  %4 = add %2, %3 : f32\n"
                           "  yield %4\n"
                           "}\n"
                           "store out, %5, none");
    free(s);
    t_free(&t);
}

/* ------------------------------------------------------------ errors */

typedef struct ErrCase {
    const char *body; /* inside "func @k(p: ptr<f32>, n: i32) {\n" ... "}" */
    const char *want; /* the first line of the diagnostic */
    mt_status status;
} ErrCase;

static void expect_error(const char *text, const char *want, mt_status st) {
    T t;
    t_init(&t, text);
    Func *f = ir_parse(&t.c);
    const char *err = sb_str(&t.c.err);
    const char *eol = strchr(err, '\n');
    int n = eol ? (int)(eol - err) : (int)strlen(err);
    if (f || strncmp(err, want, strlen(want)) || n != (int)strlen(want))
        print_error("input:\n%s\nwant: %s\ngot:  %.*s\n", text, want, n, err);
    assert_null(f);
    assert_int_equal(n, (int)strlen(want));
    assert_memory_equal(err, want, strlen(want));
    assert_int_equal(t.c.status, st);
    /* the source line and a caret follow a located error (diag.c shows
     * no line past the end of the text) */
    if (!strstr(want, "end of file"))
        assert_non_null(eol && strchr(eol + 1, '^') ? eol : NULL);
    t_free(&t);
}

static void test_reader_errors(void **state) {
    (void)state;
    static const ErrCase cases[] = {
        /* names */
        {"  %0 = add %1, 1 : i32\n", "t.ir:2:12: error: use of undefined value '%1'", MT_ERR_NAME},
        {"  %0 = add n, 1 : i32\n  %0 = add n, 2 : i32\n",
         "t.ir:3:3: error: redefinition of '%0' (first defined at line 2)", MT_ERR_NAME},
        {"  for %i in range(0, n, 1) {\n    %x = add %i, 1 : i32\n    yield\n  }\n"
         "  %y = add %x, 1 : i32\n",
         "t.ir:6:12: error: '%x' is defined in a loop body (line 3) and not visible here",
         MT_ERR_NAME},
        {"  %r = for %i in range(0, n, 1) iter_args(%a = 0) : i32 {\n"
         "    %x = add %r, 1 : i32\n    yield %x\n  }\n",
         "t.ir:3:14: error: use of undefined value '%r'", MT_ERR_NAME},
        {"  %0 = add q, 1 : i32\n", "t.ir:2:12: error: unknown name 'q'", MT_ERR_NAME},
        {"  %0 = frob n : i32\n", "t.ir:2:8: error: unknown op 'frob'", MT_ERR_NAME},
        /* shape of an op */
        {"  %0 = add n : i32\n", "t.ir:2:8: error: 'add' takes 2 operands, got 1", MT_ERR_SYNTAX},
        {"  %0 = neg n, n, n : i32\n", "t.ir:2:8: error: 'neg' takes 1 operands, got 3",
         MT_ERR_SYNTAX},
        {"  %0 = store p, 1.0, none\n", "t.ir:2:8: error: 'store' has no result", MT_ERR_SYNTAX},
        {"  %0, %1 = add n, n : i32\n", "t.ir:2:12: error: 'add' defines one result, got 2",
         MT_ERR_SYNTAX},
        {"  add n, n : i32\n", "t.ir:2:3: error: 'add' defines one result, got 0", MT_ERR_SYNTAX},
        {"  %0 = add n, n\n", "t.ir:2:16: error: expected ':', got end of line", MT_ERR_SYNTAX},
        {"  %0 = add n, n : i32 i32\n", "t.ir:2:23: error: expected end of line, got 'i32'",
         MT_ERR_SYNTAX},
        {"  %0 = add n n : i32\n", "t.ir:2:14: error: expected ':', got 'n'", MT_ERR_SYNTAX},
        {"  0 = add n, n : i32\n", "t.ir:2:3: error: expected an op name, got '0'",
         MT_ERR_SYNTAX},
        {"  %0 = add n, , : i32\n", "t.ir:2:15: error: expected an operand, got ','",
         MT_ERR_SYNTAX},
        {"  yield\n", "t.ir:2:3: error: 'yield' outside a loop body", MT_ERR_SYNTAX},
        /* types */
        {"  %0 = add n, n : i33\n",
         "t.ir:2:19: error: expected a type (i32, f16, u8, bool, ptr<...>, vector<...>, "
         "block<...>), got 'i33'",
         MT_ERR_SYNTAX},
        {"  %0 = arange {start=0, end=8} : vector<2x4 x i32>\n",
         "t.ir:2:34: error: a vector has one dim; write block<...>", MT_ERR_SYNTAX},
        {"  %0 = zeros {shape=(8,), dtype=f32} : block<8 x f32>\n",
         "t.ir:2:40: error: a block has 2 or more dims; write vector<...>", MT_ERR_SYNTAX},
        {"  %0 = zeros {shape=(8,), dtype=f32} : vector<0 x f32>\n",
         "t.ir:2:47: error: a block has 1 to 16777216 elements", MT_ERR_SYNTAX},
        {"  %0 = zeros {shape=(8,), dtype=f32} : block<4096x8192 x f32>\n",
         "t.ir:2:46: error: a block has 1 to 16777216 elements", MT_ERR_SYNTAX},
        {"  %0 = zeros {shape=(8,), dtype=f32} : block<2x2x2x2x2x2x2x2x2x2x2x2x1x1x1x1x1 x f32>\n",
         "t.ir:2:46: error: a block has at most 16 dims", MT_ERR_SYNTAX},
        {"  %0 = load p, none, none : vector<8 x ptr<ptr>>\n",
         "t.ir:2:44: error: expected a pointee type (i32, f16, u8, bool, ...), got 'ptr'",
         MT_ERR_SYNTAX},
        /* literals */
        {"  %0 = add n, 99999999999999999999 : i64\n",
         "t.ir:2:15: error: integer '99999999999999999999' out of range", MT_ERR_SYNTAX},
        {"  %0 = add 1e39, 1.0 : f32\n", "t.ir:2:12: error: bad f32 literal '1e39'",
         MT_ERR_SYNTAX},
        {"  %0 = add 1.2.3, 1.0 : f32\n", "t.ir:2:12: error: bad f32 literal '1.2.3'",
         MT_ERR_SYNTAX},
        {"  %0 = add -x, 1.0 : f32\n", "t.ir:2:12: error: expected a number after '-'",
         MT_ERR_SYNTAX},
        /* attributes */
        {"  %0 = program_id {axes=0} : i32\n", "t.ir:2:20: error: unknown attribute 'axes'",
         MT_ERR_SYNTAX},
        {"  %0 = program_id : i32\n",
         "t.ir:2:8: error: 'program_id' : i32 has attributes {axis=0}, not {}", MT_ERR_SYNTAX},
        {"  %0 = add n, n {axis=0} : i32\n",
         "t.ir:2:8: error: 'add' : i32 has attributes {}, not {axis=0}", MT_ERR_SYNTAX},
        {"  %0 = zeros {shape=(4,), dtype=f32} : vector<8 x f32>\n",
         "t.ir:2:8: error: 'zeros' : vector<8 x f32> has attributes {shape=(8,), dtype=f32}, "
         "not {shape=(4,), dtype=f32}",
         MT_ERR_SYNTAX},
        {"  %0 = arange {end=8, start=0} : vector<8 x i32>\n",
         "t.ir:2:8: error: 'arange' : vector<8 x i32> has attributes {start=0, end=8}, not "
         "{end=8, start=0}",
         MT_ERR_SYNTAX},
        {"  %0 = zeros {shape=(2, 2), dtype=f32} : block<2x2 x f32>\n"
         "  %1 = dot %0, %0, none {input_precision=fp8} : block<2x2 x f32>\n",
         "t.ir:3:26: error: unknown input_precision 'fp8'", MT_ERR_SYNTAX},
        /* loops */
        {"  %r = for %i in range(0, n, 1) {\n    yield\n  }\n",
         "t.ir:2:8: error: 'for' has 1 results but carries 0 values", MT_ERR_SYNTAX},
        {"  %r = for %i in range(0, n, 1) iter_args(%a = 0) : i32, f32 {\n",
         "t.ir:2:8: error: 1 carried values but 2 types", MT_ERR_SYNTAX},
        {"  %r = for %i in range(0, n, 1) iter_args(%a = 0) : i32 {\n    yield\n  }\n",
         "t.ir:3:5: error: yield gives 0 values, the op expects 1", MT_ERR_SYNTAX},
        {"  for %i in range(0, n, 1) {\n  }\n",
         "t.ir:3:3: error: expected 'yield' before the region's '}', got '}'", MT_ERR_SYNTAX},
        {"  for %i in range(0, none, 1) {\n    yield\n  }\n",
         "t.ir:2:22: error: 'none' is not a value here", MT_ERR_SYNTAX},
        {"  for %i in range(0, n) {\n", "t.ir:2:23: error: expected ',', got ')'",
         MT_ERR_SYNTAX},
        {"  for %i in range(0, n, 1) {\n    yield\n    %0 = add n, n : i32\n  }\n",
         "t.ir:4:5: error: expected '}', got '%0'", MT_ERR_SYNTAX},
        {"  for %i in range(0, n, 1) {\n    %i = add n, n : i32\n    yield\n  }\n",
         "t.ir:3:5: error: redefinition of '%i' (first defined at line 2)", MT_ERR_NAME},
        /* the verifier, at the op's location in the .ir file */
        {"  %0 = add n, 1.5 : i32\n",
         "t.ir:2:8: error: ssa-verifier: op #0 'add': expected f32, got i32", MT_ERR_VERIFY},
        {"  %0 = load p, n, none : f32\n",
         "t.ir:2:8: error: ssa-verifier: op #0 'load': mask must be bool, got i32",
         MT_ERR_VERIFY},
        {"  %0 = exp n : i32\n",
         "t.ir:2:8: error: ssa-verifier: op #0 'exp': exp requires a float operand, got i32", MT_ERR_VERIFY},
        {"  %0 = add n, none : i32\n",
         "t.ir:2:8: error: ssa-verifier: op #0 'add': operand 2 is missing", MT_ERR_VERIFY},
        {"  for %i in range(0, n, 0) {\n    yield\n  }\n",
         "t.ir:2:3: error: ssa-verifier: op #0 'for': loop step must be positive", MT_ERR_VERIFY},
        {"  %r = for %i in range(0, n, 1) iter_args(%a = 0.0) : i32 {\n    yield %a\n  }\n",
         "t.ir:2:8: error: ssa-verifier: op #0 'for': carried arg expected f32, got i32",
         MT_ERR_VERIFY},
        {"  for %i in range(0, n, 1) {\n    %0 = sum n {axis=0} : i32\n    yield\n  }\n",
         "t.ir:3:10: error: ssa-verifier: op #0 'sum': sum expects a block, got i32",
         MT_ERR_VERIFY},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "func @k(p: ptr<f32>, n: i32) {\n%s}\n", cases[i].body);
        expect_error(text, cases[i].want, cases[i].status);
    }
}

static void test_header_errors(void **state) {
    (void)state;
    static const ErrCase cases[] = {
        {"", "t.ir:1:1: error: expected 'func', got end of file", MT_ERR_SYNTAX},
        {"fn @k() {\n}", "t.ir:1:1: error: expected 'func', got 'fn'", MT_ERR_SYNTAX},
        {"func k() {\n}", "t.ir:1:6: error: expected '@', got 'k'", MT_ERR_SYNTAX},
        {"func @k(x ptr<f32>) {\n}", "t.ir:1:11: error: expected ':', got 'ptr'", MT_ERR_SYNTAX},
        {"func @k(x: ptr<f32>, x: i32) {\n}", "t.ir:1:22: error: duplicate parameter 'x'",
         MT_ERR_NAME},
        {"func @k(nan: f32) {\n}",
         "t.ir:1:9: error: parameter name 'nan' reads as a constant", MT_ERR_SYNTAX},
        {"func @k(x: vector<4 x f32>) {\n}",
         "t.ir:1:12: error: a parameter is a scalar or a pointer, not a block", MT_ERR_SYNTAX},
        {"func @k(x: ptr<f32>:12) {\n}",
         "t.ir:1:21: error: divisibility hint must be a power of two up to 2^30", MT_ERR_SYNTAX},
        {"func @k() attributes {num_warps=3} {\n}",
         "t.ir:1:33: error: num_warps must be a power of two from 1 to 32", MT_ERR_SYNTAX},
        {"func @k() attributes {warps=4} {\n}",
         "t.ir:1:23: error: unknown function attribute 'warps'", MT_ERR_SYNTAX},
        {"func @k() {", "t.ir:1:12: error: expected '}', got end of file",
         MT_ERR_SYNTAX},
        {"func @k() {\n", "t.ir:2:1: error: expected '}', got end of file", MT_ERR_SYNTAX},
        {"func @k() {\n} x", "t.ir:2:3: error: expected end of line, got 'x'", MT_ERR_SYNTAX},
        {"func @k() {\n}\nfunc @j() {\n}",
         "t.ir:3:1: error: unexpected text after the function", MT_ERR_SYNTAX},
        {"func @k() {\n  \x01\n}", "t.ir:2:3: error: expected an op name, got byte 0x01",
         MT_ERR_SYNTAX},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_error(cases[i].body, cases[i].want, cases[i].status);
}

/* Loops nested past the reader's bound are an error, not a deep stack. */
static void test_depth_limit(void **state) {
    (void)state;
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, "func @k(n: i32) {\n");
    for (int i = 0; i < 300; i++)
        sb_printf(&sb, "for %%i%d in range(0, n, 1) {\n", i);
    T t;
    t_init(&t, sb_str(&sb));
    assert_null(ir_parse(&t.c));
    assert_non_null(strstr(sb_str(&t.c.err), "t.ir:258:1: error: loops nested deeper than 256"));
    t_free(&t);
    sb_free(&sb);
}

/* Bytes after a NUL are still input (srclen bounds the reader). */
static void test_embedded_nul(void **state) {
    (void)state;
    static const char text[] = "func @k() {\n}\0junk";
    T t;
    t_init(&t, text);
    t.c.srclen = sizeof text - 1;
    assert_null(ir_parse(&t.c));
    assert_non_null(strstr(sb_str(&t.c.err), "t.ir:2:2: error: expected end of line, got byte 0x00"));
    t_free(&t);
}

/* A typed literal ends at srclen or at a NUL, not past them: the text
 * need not be NUL-terminated (found by fuzz_irparse: reads past the
 * buffer).  The text is copied to end where an inaccessible page begins,
 * so a read past it faults in any build. */
static void parse_exact_copy(const char *text, size_t n, const char *want) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    assert_true(n <= page);
    char *two = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(two != MAP_FAILED);
    assert_int_equal(mprotect(two + page, page, PROT_NONE), 0);
    char *copy = two + page - n;
    memcpy(copy, text, n);
    T t;
    t_init(&t, NULL);
    t.c.src = copy;
    t.c.srclen = n;
    assert_null(ir_parse(&t.c));
    assert_non_null(strstr(sb_str(&t.c.err), want));
    t_free(&t);
    munmap(two, 2 * page);
}

static void test_typed_literal_at_the_end(void **state) {
    (void)state;
    static const char text[] = "func @k(n: i32) {\n  %a = add n, i16(12";
    parse_exact_copy(text, sizeof text - 1, "t.ir:2:21: error: expected ')'");
    static const char nul[] = "func @k(n: i32) {\n  %a = add n, i16(12\0)\n}\n";
    parse_exact_copy(nul, sizeof nul - 1, "t.ir:2:21: error: expected ')'");
    /* a string's \xNN escape cut by the end of the text (sscanf read on) */
    static const char esc[] = "func @k() {\n  print {prefix=\"a\\x4";
    parse_exact_copy(esc, sizeof esc - 1, "t.ir:2:20: error: bad escape in a string");
}

/* tldebug.c's ops: their strings and operand counts. */
static void test_debug_op_errors(void **state) {
    (void)state;
    static const ErrCase cases[] = {
        {"  print n {prefix=\"abc}\n", "t.ir:2:19: error: unterminated string", MT_ERR_SYNTAX},
        {"  print n {prefix=\"a\\q\"}\n", "t.ir:2:22: error: bad escape in a string",
         MT_ERR_SYNTAX},
        {"  print n {prefix=abc}\n", "t.ir:2:19: error: expected a quoted string, got 'abc'",
         MT_ERR_SYNTAX},
        {"  print n {hex=1}\n",
         "t.ir:2:3: error: 'print' has attributes {prefix=\"\", hex=1}, not {hex=1}",
         MT_ERR_SYNTAX},
        {"  %0 = print n {prefix=\"\"}\n", "t.ir:2:8: error: 'print' has no result",
         MT_ERR_SYNTAX},
        {"  print n {prefix=\"\", hex=2}\n",
         "t.ir:2:3: error: ssa-verifier: op #0 'print': hex must be 0 or 1, got 2", MT_ERR_VERIFY},
        {"  assert n {msg=\"m\", func=\"f\"}\n",
         "t.ir:2:3: error: ssa-verifier: op #0 'assert': assert expects a bool condition, got i32",
         MT_ERR_VERIFY},
        {"  assert n, n {msg=\"m\", func=\"f\"}\n",
         "t.ir:2:3: error: 'assert' takes 1 operands, got 2", MT_ERR_SYNTAX},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, "func @k(p: ptr<f32>, n: i32) {\n%s}\n", cases[i].body);
        expect_error(text, cases[i].want, cases[i].status);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_lit_ssa),
        cmocka_unit_test(test_round_trip_all_ops),
        cmocka_unit_test(test_round_trip_header),
        cmocka_unit_test(test_literal_types),
        cmocka_unit_test(test_names_and_comments),
        cmocka_unit_test(test_reader_errors),
        cmocka_unit_test(test_header_errors),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_embedded_nul),
        cmocka_unit_test(test_typed_literal_at_the_end),
        cmocka_unit_test(test_debug_op_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
