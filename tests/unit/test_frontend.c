/* test_frontend.c: unit tests of lex.c, parse.c and ast.c.
 *
 * Lexing is checked through a compact kind string ("NAME OP( ... NEWLINE
 * EOF"), parsing through ast_print substrings, errors through the exact
 * message, location and rendered diagnostic.  Every source is copied into
 * a malloc'ed buffer of exactly srclen bytes, so a read past the end is an
 * ASan error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mt.h"

typedef struct Fx {
    Ctx c;
    char *buf;
    StrBuf out;
} Fx;

static Fx *fx_new(const char *src, size_t len) {
    Fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->buf = malloc(len ? len : 1);
    assert_non_null(f->buf);
    memcpy(f->buf, src, len);
    f->c.arena = arena_new();
    f->c.src = f->buf;
    f->c.srclen = len;
    f->c.filename = "k.py";
    sb_init(&f->c.err);
    sb_init(&f->out);
    return f;
}

static Fx *fx(const char *src) { return fx_new(src, strlen(src)); }

static void fx_free(Fx *f) {
    arena_free(f->c.arena);
    sb_free(&f->c.err);
    sb_free(&f->out);
    free(f->buf);
    free(f);
}

static const char *kind_name(const Token *t) {
    static const char *const names[] = {"EOF",   "NEWLINE", "INDENT",
                                        "DEDENT", "NAME",   "INT",
                                        "FLOAT", "STRING",  "OP",
                                        "ERROR"};
    return names[t->kind];
}

/* "NAME OP= INT NEWLINE EOF" */
static const char *kinds(Fx *f, Token **toks_out, int *n_out) {
    int n = 0;
    Token *t = lex(&f->c, &n);
    sb_clear(&f->out);
    for (int i = 0; i < n; i++) {
        if (i)
            sb_putc(&f->out, ' ');
        sb_puts(&f->out, kind_name(&t[i]));
        if (t[i].kind == TK_OP)
            sb_puts(&f->out, t[i].len == 3 && t[i].op == OT_DOT ? "..."
                                                                : optok_str(t[i].op));
    }
    if (toks_out)
        *toks_out = t;
    if (n_out)
        *n_out = n;
    return sb_str(&f->out);
}

/* ---- lexer ---- */

static void test_lex_indentation(void **state) {
    (void)state;
    Fx *f = fx("if x:\n    y = 1\n\n  # comment\n    z\nw\n");
    Token *t;
    assert_string_equal(kinds(f, &t, NULL),
                        "NAME NAME OP: NEWLINE INDENT NAME OP= INT NEWLINE "
                        "NAME NEWLINE DEDENT NAME NEWLINE EOF");
    assert_int_equal(t[5].loc.line, 2);
    assert_int_equal(t[5].loc.col, 5);
    assert_int_equal(t[9].loc.line, 5); /* z: blank + comment lines skipped */
    assert_int_equal(t[12].loc.line, 6);
    assert_int_equal(t[12].loc.col, 1);
    fx_free(f);
}

static void test_lex_nested_dedent_and_tabs(void **state) {
    (void)state;
    /* a tab is 8 columns: "\t" and 8 spaces are the same level */
    Fx *f = fx("def f():\n\tif a:\n\t\tb\n        c\nd");
    assert_string_equal(kinds(f, NULL, NULL),
                        "NAME NAME OP( OP) OP: NEWLINE INDENT NAME NAME OP: "
                        "NEWLINE INDENT NAME NEWLINE DEDENT NAME NEWLINE DEDENT "
                        "NAME NEWLINE EOF");
    fx_free(f);
}

static void test_lex_bad_dedent(void **state) {
    (void)state;
    Fx *f = fx("if a:\n        b\n    c\n");
    Token *t;
    int n;
    assert_string_equal(kinds(f, &t, &n),
                        "NAME NAME OP: NEWLINE INDENT NAME NEWLINE DEDENT ERROR "
                        "NAME NEWLINE EOF");
    assert_string_equal(t[8].text,
                        "unindent does not match any outer indentation level");
    assert_int_equal(t[8].loc.line, 3);
    assert_int_equal(t[8].loc.col, 5);
    fx_free(f);
}

static void test_lex_line_joining(void **state) {
    (void)state;
    Fx *f = fx("x = (1,\n     2)  # c\ny = 1 + \\\n  2\nz = [\n\n]\n");
    Token *t;
    assert_string_equal(kinds(f, &t, NULL),
                        "NAME OP= OP( INT OP, INT OP) NEWLINE NAME OP= INT OP+ "
                        "INT NEWLINE NAME OP= OP[ OP] NEWLINE EOF");
    assert_int_equal(t[5].loc.line, 2);
    assert_int_equal(t[5].loc.col, 6);
    assert_int_equal(t[12].loc.line, 4);
    assert_int_equal(t[12].loc.col, 3);
    fx_free(f);
}

static void test_lex_operators(void **state) {
    (void)state;
    Fx *f = fx("a -> b := c **= d //= e >>= f <<= g != h ** i // j << k >> l "
               "<= m >= n == o += p -= q *= r /= s %= t &= u |= v ^= w ~ x @ "
               "y ... z . not and or in is\n");
    assert_string_equal(
        kinds(f, NULL, NULL),
        "NAME OP-> NAME OP:= NAME OP**= NAME OP//= NAME OP>>= NAME OP<<= NAME "
        "OP!= NAME OP** NAME OP// NAME OP<< NAME OP>> NAME OP<= NAME OP>= NAME "
        "OP== NAME OP+= NAME OP-= NAME OP*= NAME OP/= NAME OP%= NAME OP&= NAME "
        "OP|= NAME OP^= NAME OP~ NAME OP@ NAME OP... NAME OP. OPnot OPand OPor "
        "OPin OPis NEWLINE EOF");
    fx_free(f);
}

static void test_lex_numbers(void **state) {
    (void)state;
    Fx *f = fx("0 42 1_000 0x_Ff 0o17 0b1_01 9223372036854775807 "
               "9223372036854775808 1.0 .5 1e-5 1_000.5 5. 2E3\n");
    Token *t;
    assert_string_equal(kinds(f, &t, NULL),
                        "INT INT INT INT INT INT INT INT FLOAT FLOAT FLOAT FLOAT "
                        "FLOAT FLOAT NEWLINE EOF");
    assert_int_equal(t[0].ival, 0);
    assert_int_equal(t[1].ival, 42);
    assert_int_equal(t[2].ival, 1000);
    assert_int_equal(t[3].ival, 255);
    assert_int_equal(t[4].ival, 15);
    assert_int_equal(t[5].ival, 5);
    assert_true(t[6].ival == INT64_MAX && !t[6].big);
    assert_true(t[7].ival == INT64_MAX && t[7].big);
    assert_true(t[8].fval == 1.0);
    assert_true(t[9].fval == 0.5);
    assert_true(t[10].fval == 1e-5);
    assert_true(t[11].fval == 1000.5);
    assert_true(t[12].fval == 5.0);
    assert_true(t[13].fval == 2000.0);
    fx_free(f);
}

static void test_lex_bad_numbers(void **state) {
    (void)state;
    Fx *f = fx("1j 0x 1__0 012 1abc 1e\n");
    Token *t;
    assert_string_equal(kinds(f, &t, NULL),
                        "ERROR ERROR ERROR ERROR ERROR ERROR NEWLINE EOF");
    assert_string_equal(t[0].text, "complex literals are not supported");
    assert_string_equal(t[1].text, "invalid hexadecimal literal");
    assert_string_equal(t[2].text, "invalid decimal literal");
    assert_non_null(strstr(t[3].text, "leading zeros"));
    assert_string_equal(t[4].text, "invalid decimal literal");
    fx_free(f);
}

static void test_lex_strings(void **state) {
    (void)state;
    Fx *f = fx("'a\\n\\t\\x41\\u00e9\\101' \"q\\\"\" r'\\n' b'\\xff' "
               "'''x\ny''' Rb\"z\" f'{a}' u'u' '\\q'\n");
    Token *t;
    assert_string_equal(kinds(f, &t, NULL),
                        "STRING STRING STRING STRING STRING STRING STRING "
                        "STRING STRING NEWLINE EOF");
    assert_int_equal(t[0].slen, 7);
    assert_memory_equal(t[0].sval, "a\n\tA\xc3\xa9" "A", 7);
    assert_string_equal(t[1].sval, "q\"");
    assert_string_equal(t[2].sval, "\\n");
    assert_int_equal(t[3].slen, 1);
    assert_int_equal((unsigned char)t[3].sval[0], 0xff);
    assert_string_equal(t[4].sval, "x\ny");
    assert_string_equal(t[5].sval, "z");
    assert_string_equal(t[6].sval, "{a}");
    assert_string_equal(t[7].sval, "u");
    assert_string_equal(t[8].sval, "\\q");
    assert_int_equal(t[9].loc.line, 2); /* the triple string spans lines */
    fx_free(f);
}

static void test_lex_error_tokens(void **state) {
    (void)state;
    Fx *f = fx("a $ b ? ! c\nx = 'abc\ny = 1\n");
    Token *t;
    assert_string_equal(kinds(f, &t, NULL),
                        "NAME ERROR NAME ERROR ERROR NAME NEWLINE NAME OP= ERROR "
                        "NEWLINE NAME OP= INT NEWLINE EOF");
    assert_string_equal(t[1].text, "invalid character '$'");
    assert_string_equal(t[4].text, "invalid character '!'");
    assert_string_equal(t[9].text, "unterminated string literal");
    assert_int_equal(t[9].len, 4);
    fx_free(f);

    f = fx("x = '''abc\n\ny = 1\n");
    assert_string_equal(kinds(f, &t, NULL), "NAME OP= ERROR NEWLINE EOF");
    assert_string_equal(t[2].text, "unterminated triple-quoted string literal");
    fx_free(f);
}

static void test_lex_edge_sources(void **state) {
    (void)state;
    Fx *f = fx("");
    assert_string_equal(kinds(f, NULL, NULL), "EOF");
    fx_free(f);
    f = fx("\n\n   \n# only a comment");
    assert_string_equal(kinds(f, NULL, NULL), "EOF");
    fx_free(f);
    f = fx("def f():\n    return x"); /* no final newline */
    assert_string_equal(kinds(f, NULL, NULL),
                        "NAME NAME OP( OP) OP: NEWLINE INDENT NAME NAME NEWLINE "
                        "DEDENT EOF");
    fx_free(f);
    f = fx_new("a\0b\n", 4);
    Token *t;
    assert_string_equal(kinds(f, &t, NULL), "NAME ERROR NAME NEWLINE EOF");
    assert_string_equal(t[1].text, "source code cannot contain null bytes");
    fx_free(f);
    f = fx("x = (1,\n"); /* unclosed at EOF */
    assert_string_equal(kinds(f, &t, NULL), "NAME OP= OP( INT OP, ERROR NEWLINE EOF");
    assert_string_equal(t[5].text, "'(' was never closed");
    assert_int_equal(t[5].loc.col, 5);
    fx_free(f);
    f = fx("x = 'abc\\"); /* backslash at the very end */
    assert_string_equal(kinds(f, NULL, NULL), "NAME OP= ERROR NEWLINE EOF");
    fx_free(f);
    f = fx("a\r\nb \\\r\n c\r\n");
    assert_string_equal(kinds(f, NULL, NULL), "NAME NEWLINE NAME NAME NEWLINE EOF");
    fx_free(f);
}

/* ---- module indexing ---- */

static const char *module_src =
    "import triton\n"
    "import triton.language as tl\n"
    "from triton import language as tl2, jit\n"
    "import os.path\n"
    "BLOCK = 128\n"
    "EPS: float = 1e-5\n"
    "A = B = (1, 2)\n"
    "x.y = 3\n"
    "\n"
    "class Weird(object):\n"
    "    def f(self): return $ ?\n"
    "    z = 'unterminated\n"
    "\n"
    "@triton.jit\n"
    "def add(x, y):\n"
    "    return x + y\n"
    "\n"
    "@some.other(jit)\n"
    "@mytriton.jit(num_warps=4)\n"
    "def scaled(x):\n"
    "    pass\n"
    "\n"
    "def plain(x): return x\n"
    "\n"
    "if __name__ == '__main__':\n"
    "    def not_top(): pass\n"
    "    run(!)\n"
    "else:\n"
    "    pass\n"
    "@jit\n"
    "def last(): pass\n";

static void test_module_index(void **state) {
    (void)state;
    Fx *f = fx(module_src);
    Module *m = parse_module(&f->c);
    assert_non_null(m);
    assert_int_equal(f->c.status, MT_OK);
    assert_int_equal(m->nfuncs, 4);
    assert_string_equal(m->funcs[0].name, "add");
    assert_true(m->funcs[0].is_jit);
    assert_int_equal(m->funcs[0].loc.line, 15);
    assert_int_equal(m->toks[m->funcs[0].tok_begin].op, OT_AT);
    assert_string_equal(m->funcs[1].name, "scaled");
    assert_true(m->funcs[1].is_jit);
    assert_string_equal(m->funcs[2].name, "plain");
    assert_false(m->funcs[2].is_jit);
    assert_string_equal(m->funcs[3].name, "last");
    assert_true(m->funcs[3].is_jit);
    assert_null(module_find_func(m, "not_top"));
    assert_null(module_find_func(m, "f"));
    assert_ptr_equal(module_find_func(m, "plain"), &m->funcs[2]);

    assert_int_equal(m->nconsts, 4);
    assert_string_equal(m->consts[0].name, "BLOCK");
    assert_string_equal(m->consts[1].name, "EPS");
    assert_string_equal(m->consts[2].name, "A");
    assert_string_equal(m->consts[3].name, "B");
    Node *e = parse_const_expr(&f->c, m, &m->consts[0]);
    assert_non_null(e);
    assert_int_equal(e->kind, ND_INT);
    assert_int_equal(e->ival, 128);
    e = parse_const_expr(&f->c, m, &m->consts[1]);
    assert_true(e && e->kind == ND_FLOAT && e->fval == 1e-5);
    e = parse_const_expr(&f->c, m, &m->consts[3]);
    assert_true(e && e->kind == ND_TUPLE && e->nitems == 2);

    assert_int_equal(m->nimports, 5);
    assert_string_equal(m->imports[0].alias, "triton");
    assert_string_equal(m->imports[0].path, "triton");
    assert_string_equal(m->imports[1].alias, "tl");
    assert_string_equal(m->imports[1].path, "triton.language");
    assert_string_equal(m->imports[2].alias, "tl2");
    assert_string_equal(m->imports[2].path, "triton.language");
    assert_string_equal(m->imports[3].alias, "jit");
    assert_string_equal(m->imports[3].path, "triton.jit");
    assert_string_equal(m->imports[4].alias, "os");
    assert_string_equal(m->imports[4].path, "os");

    for (int i = 0; i < m->nfuncs; i++)
        assert_non_null(parse_function(&f->c, m, &m->funcs[i]));
    assert_int_equal(f->c.status, MT_OK);
    fx_free(f);
}

static void test_module_fails_on_unterminated_triple(void **state) {
    (void)state;
    Fx *f = fx("def f():\n    pass\nx = \"\"\"never\nclosed\n");
    assert_null(parse_module(&f->c));
    assert_int_equal(f->c.status, MT_ERR_SYNTAX);
    assert_int_equal(f->c.err_loc.line, 3);
    assert_int_equal(f->c.err_loc.col, 5);
    assert_non_null(strstr(sb_str(&f->c.err),
                           "k.py:3:5: error: unterminated triple-quoted string"));
    fx_free(f);
}

/* ---- parsing ---- */

/* Parses function `name` of src and returns its printed AST (or the
 * error text when parsing fails). */
static const char *ast_of(Fx *f, const char *name) {
    Module *m = parse_module(&f->c);
    if (!m)
        return sb_str(&f->c.err);
    TopFunc *fn = module_find_func(m, name);
    assert_non_null(fn);
    Node *n = parse_function(&f->c, m, fn);
    if (!n)
        return sb_str(&f->c.err);
    assert_ptr_equal(parse_function(&f->c, m, fn), n); /* cached */
    sb_clear(&f->out);
    ast_print(&f->out, n);
    return sb_str(&f->out);
}

static void assert_contains(const char *hay, const char *needle) {
    if (!strstr(hay, needle)) {
        fprintf(stderr, "--- expected to find:\n%s\n--- in:\n%s\n", needle, hay);
        fail();
    }
}

static void test_parse_add_kernel(void **state) {
    (void)state;
    Fx *f = fx("import triton\nimport triton.language as tl\n\n"
               "@triton.jit\n"
               "def add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
               "    \"\"\"Adds.\"\"\"\n"
               "    pid = tl.program_id(0)\n"
               "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
               "    mask = offs < n\n"
               "    a = tl.load(x + offs, mask=mask, other=0.0)\n"
               "    tl.store(out + offs, a + tl.load(y + offs, mask=mask), mask=mask)\n");
    const char *a = ast_of(f, "add_kernel");
    assert_contains(a, "FunctionDef add_kernel\n"
                       "  decorator Attribute jit\n"
                       "    Name triton\n"
                       "  param x\n"
                       "  param y\n"
                       "  param out\n"
                       "  param n\n"
                       "  param BLOCK : Attribute constexpr\n"
                       "    Name tl\n"
                       "  Expr\n"
                       "    Str 'Adds.'\n"
                       "  Assign\n"
                       "    target Name pid\n"
                       "    Call\n"
                       "      Attribute program_id\n"
                       "        Name tl\n"
                       "      arg Int 0\n");
    assert_contains(a, "    BinOp +\n"
                       "      BinOp *\n"
                       "        Name pid\n"
                       "        Name BLOCK\n"
                       "      Call\n");
    assert_contains(a, "    Compare <\n      Name offs\n      Name n\n");
    assert_contains(a, "      keyword mask=Name mask\n"
                       "      keyword other=Float 0.0\n");
    fx_free(f);
}

static void test_parse_softmax(void **state) {
    (void)state;
    Fx *f = fx("@jit\n"
               "def softmax_kernel(x, out, n_cols, BLOCK: tl.constexpr):\n"
               "    row = tl.program_id(0)\n"
               "    cols = tl.arange(0, BLOCK)\n"
               "    values = tl.load(x + row * n_cols + cols, mask=cols < n_cols,\n"
               "                     other=-float(\"inf\"))\n"
               "    e = tl.exp(values - tl.max(values))\n"
               "    tl.store(out + row * n_cols + cols, e / tl.sum(e), mask=cols < n_cols)\n");
    const char *a = ast_of(f, "softmax_kernel");
    assert_contains(a, "      keyword other=UnaryOp -\n"
                       "        Call\n"
                       "          Name float\n"
                       "          arg Str 'inf'\n");
    assert_contains(a, "      arg BinOp /\n        Name e\n        Call\n");
    fx_free(f);
}

static void test_parse_matmul_slices(void **state) {
    (void)state;
    Fx *f = fx("@jit\n"
               "def mm(a, b, c, M, N, K: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr = 8):\n"
               "    offs_m = tl.program_id(0) * BM + tl.arange(0, BM)\n"
               "    acc = tl.zeros((BM, BN), tl.float32)\n"
               "    for k in tl.static_range(K):\n"
               "        av = tl.load(a + offs_m[:, None] * K + k, mask=offs_m[:, None] < M)\n"
               "        acc += av * b[None, :]\n"
               "    mask = (offs_m[:, None] < M) & (offs_m[None, :] < N)\n"
               "    w = x[1:2, ::2, -1:]\n");
    const char *a = ast_of(f, "mm");
    assert_contains(a, "  param BN : Attribute constexpr\n"
                       "    Name tl\n"
                       "    default Int 8\n");
    assert_contains(a, "      arg Tuple\n        Name BM\n        Name BN\n");
    assert_contains(a, "  For\n"
                       "    target Name k\n"
                       "    iter Call\n"
                       "      Attribute static_range\n"
                       "        Name tl\n"
                       "      arg Name K\n"
                       "    body\n"
                       "      Assign\n");
    assert_contains(a, "Subscript\n"
                       "                  Name offs_m\n"
                       "                  index Tuple\n"
                       "                    Slice\n"
                       "                    None\n");
    assert_contains(a, "      AugAssign +=\n"
                       "        target Name acc\n"
                       "        BinOp *\n");
    assert_contains(a, "    BinOp &\n      Compare <\n");
    assert_contains(a, "      index Tuple\n"
                       "        Slice\n"
                       "          lower Int 1\n"
                       "          upper Int 2\n"
                       "        Slice\n"
                       "          step Int 2\n"
                       "        Slice\n"
                       "          lower UnaryOp -\n"
                       "            Int 1\n");
    fx_free(f);
}

static void test_parse_statements(void **state) {
    (void)state;
    Fx *f = fx("def k(out, n):\n"
               "    first = 0\n"
               "    for i in range(n):\n"
               "        first += i\n"
               "        first //= 2; first <<= 1\n"
               "    else:\n"
               "        pass\n"
               "    acc: Any = acc + 1\n"
               "    b: int\n"
               "    a = b = c\n"
               "    x, (y, *z) = t\n"
               "    while n:\n"
               "        if a: break\n"
               "        elif b:\n"
               "            continue\n"
               "        else:\n"
               "            return\n"
               "    v = 1.0 if ENABLED else 0.0\n"
               "    c = 0 < x <= 3\n"
               "    d = a not in b and c is not None or not e\n"
               "    assert x, 'msg'\n"
               "    with ctx() as g:\n"
               "        weird $ stuff\n"
               "    try:\n"
               "        pass\n"
               "    except E:\n"
               "        pass\n"
               "    finally:\n"
               "        pass\n"
               "    def inner(): pass\n"
               "    global q; del q\n"
               "    lam = lambda p, q=1: p + q\n"
               "    dd = {1: 2, 'a': [3, 4]}\n"
               "    e = -x ** 2 + ~y\n"
               "    f(*args)\n"
               "    return x, y\n");
    const char *a = ast_of(f, "k");
    assert_contains(a, "  For\n    target Name i\n");
    assert_contains(a, "      AugAssign +=\n        target Name first\n        Name i\n"
                       "      AugAssign //=\n        target Name first\n        Int 2\n"
                       "      AugAssign <<=\n");
    assert_contains(a, "    orelse\n      Pass\n");
    assert_contains(a, "  AnnAssign\n"
                       "    target Name acc\n"
                       "    annotation Name Any\n"
                       "    BinOp +\n");
    assert_contains(a, "  AnnAssign\n    target Name b\n    annotation Name int\n  Assign\n");
    assert_contains(a, "  Assign\n    target Name a\n    target Name b\n    Name c\n");
    assert_contains(a, "    target Tuple\n"
                       "      Name x\n"
                       "      Tuple\n"
                       "        Name y\n"
                       "        Starred\n"
                       "          Name z\n");
    assert_contains(a, "  While\n"
                       "    test Name n\n"
                       "    body\n"
                       "      If\n"
                       "        test Name a\n"
                       "        body\n"
                       "          Break\n"
                       "        orelse\n"
                       "          If\n"
                       "            test Name b\n"
                       "            body\n"
                       "              Continue\n"
                       "            orelse\n"
                       "              Return\n");
    assert_contains(a, "    IfExp\n"
                       "      test Name ENABLED\n"
                       "      body Float 1.0\n"
                       "      orelse Float 0.0\n");
    assert_contains(a, "    Compare < <=\n      Int 0\n      Name x\n      Int 3\n");
    assert_contains(a, "    BoolOp or\n"
                       "      BoolOp and\n"
                       "        Compare not in\n"
                       "          Name a\n"
                       "          Name b\n"
                       "        Compare is not\n"
                       "          Name c\n"
                       "          None\n"
                       "      UnaryOp not\n"
                       "        Name e\n");
    assert_contains(a, "  Assert\n    test Name x\n    msg Str 'msg'\n");
    assert_contains(a, "  With\n  Try\n  FunctionDef\n  Global\n  Delete\n");
    assert_contains(a, "    Lambda\n      BinOp +\n");
    assert_contains(a, "    Dict\n"
                       "      key Int 1\n"
                       "      value Int 2\n"
                       "      key Str 'a'\n"
                       "      value List\n");
    assert_contains(a, "    BinOp +\n"
                       "      UnaryOp -\n"
                       "        BinOp **\n"
                       "          Name x\n"
                       "          Int 2\n"
                       "      UnaryOp ~\n");
    assert_contains(a, "      arg Starred\n        Name args\n");
    assert_contains(a, "  Return\n    Tuple\n      Name x\n      Name y\n");
    assert_int_equal(f->c.status, MT_OK);
    fx_free(f);
}

static void test_parse_nodes_fields(void **state) {
    (void)state;
    Fx *f = fx("def k(x):\n    y = x[:, None]\n    x += 1\n    a < b < c\n");
    Module *m = parse_module(&f->c);
    Node *fn = parse_function(&f->c, m, &m->funcs[0]);
    assert_non_null(fn);
    assert_int_equal(fn->kind, ND_FUNCDEF);
    assert_int_equal(fn->loc.line, 1);
    assert_int_equal(fn->nparams, 1);
    assert_int_equal(fn->nbody, 3);
    Node *sub = fn->body[0]->rhs;
    assert_int_equal(sub->kind, ND_SUBSCRIPT);
    assert_int_equal(sub->rhs->kind, ND_TUPLE);
    assert_int_equal(sub->rhs->items[0]->kind, ND_SLICE);
    assert_null(sub->rhs->items[0]->lhs);
    assert_int_equal(sub->rhs->items[1]->kind, ND_NONE);
    assert_int_equal(sub->loc.line, 2);
    assert_int_equal(sub->loc.col, 9);
    Node *aug = fn->body[1];
    assert_int_equal(aug->kind, ND_AUGASSIGN);
    assert_int_equal(aug->op, OT_PLUS);
    Node *cmp = fn->body[2]->rhs;
    assert_int_equal(cmp->kind, ND_COMPARE);
    assert_int_equal(cmp->nitems, 3);
    assert_int_equal(cmp->ops[0], OT_LT);
    assert_int_equal(cmp->ops[1], OT_LT);
    fx_free(f);
}

/* Parses src's function `k`, expects an error at line:col with msg. */
static void check_error(const char *src, mt_status st, int line, int col,
                        const char *msg) {
    Fx *f = fx(src);
    Module *m = parse_module(&f->c);
    Node *fn = NULL;
    if (m) {
        TopFunc *k = module_find_func(m, "k");
        assert_non_null(k);
        fn = parse_function(&f->c, m, k);
    }
    if (fn || f->c.status != st || f->c.err_loc.line != line ||
        f->c.err_loc.col != col) {
        fprintf(stderr, "source:\n%s\nexpected %d:%d %s (status %d), got:\n%s",
                src, line, col, msg, (int)st, sb_str(&f->c.err));
        fail();
    }
    char first[512];
    snprintf(first, sizeof first, "k.py:%d:%d: error: %s\n", line, col, msg);
    if (strncmp(sb_str(&f->c.err), first, strlen(first)) != 0) {
        fprintf(stderr, "expected first line:\n%sgot:\n%s", first,
                sb_str(&f->c.err));
        fail();
    }
    fx_free(f);
}

static void test_parse_errors(void **state) {
    (void)state;
    check_error("def k(x):\n    for i in range(4)\n        pass\n", MT_ERR_SYNTAX, 2,
                22, "expected ':' after for-loop target, saw newline");
    check_error("def k(x):\n    for i range(4):\n        pass\n", MT_ERR_SYNTAX, 2,
                11, "expected 'in' after for-loop target, saw name 'range'");
    check_error("def k(x):\n    if x\n        pass\n", MT_ERR_SYNTAX, 2, 9,
                "expected ':' after if condition, saw newline");
    check_error("def k(x):\n    if x:\n    pass\n", MT_ERR_SYNTAX, 3, 5,
                "expected an indented block after 'if' statement on line 2");
    check_error("def k(x):\n    y = x $ 2\n", MT_ERR_SYNTAX, 2, 11,
                "invalid character '$'");
    check_error("def k(x):\n    y = (x +\n", MT_ERR_SYNTAX, 2, 9,
                "'(' was never closed");
    check_error("def k(x):\n    y = 'abc\n", MT_ERR_SYNTAX, 2, 9,
                "unterminated string literal");
    check_error("def k(x):\n    if x:\n            a = 1\n        b = 2\n",
                MT_ERR_SYNTAX, 4, 9,
                "unindent does not match any outer indentation level");
    check_error("def k(x):\n        a = 1\n    b = 2\n", MT_ERR_SYNTAX, 3, 5,
                "unindent does not match any outer indentation level");
    check_error("def k(x):\n    a = 1\n        b = 2\n", MT_ERR_SYNTAX, 3, 9,
                "unexpected indent");
    check_error("def k(x, *args):\n    pass\n", MT_ERR_UNSUPPORTED, 1, 10,
                "variadic parameters are not supported");
    check_error("def k(x, **kw):\n    pass\n", MT_ERR_UNSUPPORTED, 1, 10,
                "variadic parameters are not supported");
    check_error("def k(x):\n    f(**kw)\n", MT_ERR_UNSUPPORTED, 2, 7,
                "**kwargs are not supported");
    check_error("def k(x):\n    y = [i for i in x]\n", MT_ERR_UNSUPPORTED, 2, 12,
                "comprehensions are not supported");
    check_error("def k(x):\n    y = f(i for i in x)\n", MT_ERR_UNSUPPORTED, 2, 13,
                "comprehensions are not supported");
    check_error("def k(x):\n    y = a @ b\n", MT_ERR_UNSUPPORTED, 2, 11,
                "the matrix multiplication operator '@' is not supported; use "
                "tl.dot");
    check_error("def k(x):\n    y = await z\n", MT_ERR_UNSUPPORTED, 2, 9,
                "await expressions are not supported");
    check_error("def k(x):\n    y = 2j\n", MT_ERR_UNSUPPORTED, 2, 9,
                "complex literals are not supported");
    check_error("def k(x):\n    y = f'{x}'\n", MT_ERR_UNSUPPORTED, 2, 9,
                "f-strings are not supported");
    check_error("def k(x):\n    f(a=1, b)\n", MT_ERR_SYNTAX, 2, 12,
                "positional argument follows keyword argument");
    check_error("def k(x):\n    f(x) = 1\n", MT_ERR_SYNTAX, 2, 5,
                "cannot assign to function call");
    check_error("def k(x):\n    x + 1 += 1\n", MT_ERR_SYNTAX, 2, 5,
                "'expression' is an illegal expression for augmented assignment");
    check_error("def k(x):\n    y = x +\n", MT_ERR_SYNTAX, 2, 12,
                "expected an expression, saw newline");
    check_error("def k(x):\n    y = 1 2\n", MT_ERR_SYNTAX, 2, 11,
                "expected newline or ';' after statement, saw number '2'");
    check_error("def k(x, x):\n    pass\n", MT_ERR_SYNTAX, 1, 10,
                "duplicate argument 'x' in function definition");
    check_error("def k(x):\n    y = x if c\n", MT_ERR_SYNTAX, 2, 15,
                "expected 'else' after 'if' expression, saw newline");
    check_error("def k(x):\n    y = (z := 1)\n", MT_ERR_UNSUPPORTED, 2, 12,
                "assignment expressions (':=') are not supported");
    check_error("def k(x):\n    y = x.\n", MT_ERR_SYNTAX, 2, 11,
                "expected attribute name after '.', saw newline");
    check_error("def k(x):\n    else:\n        pass\n", MT_ERR_SYNTAX, 2, 5,
                "invalid syntax: unexpected keyword 'else'");
}

static void test_error_rendering(void **state) {
    (void)state;
    Fx *f = fx("def k(x):\n\ty = x $ 2\n");
    Module *m = parse_module(&f->c);
    assert_null(parse_function(&f->c, m, &m->funcs[0]));
    assert_string_equal(sb_str(&f->c.err), "k.py:2:8: error: invalid character '$'\n"
                                           "        y = x $ 2\n"
                                           "              ^\n");
    fx_free(f);
}

static void test_deep_nesting(void **state) {
    (void)state;
    StrBuf sb;
    sb_init(&sb);
    sb_puts(&sb, "def k(x):\n    y = ");
    for (int i = 0; i < 5000; i++)
        sb_putc(&sb, '(');
    sb_putc(&sb, 'x');
    for (int i = 0; i < 5000; i++)
        sb_putc(&sb, ')');
    sb_putc(&sb, '\n');
    Fx *f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "expression too deeply nested"));
    assert_int_equal(f->c.status, MT_ERR_SYNTAX);
    fx_free(f);

    /* 95 levels of unary minus and parentheses (190 nestings) are fine */
    sb_clear(&sb);
    sb_puts(&sb, "def k(x):\n    y = ");
    for (int i = 0; i < 95; i++)
        sb_puts(&sb, "-(");
    sb_putc(&sb, 'x');
    for (int i = 0; i < 95; i++)
        sb_putc(&sb, ')');
    sb_putc(&sb, '\n');
    f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "FunctionDef k"));
    fx_free(f);

    /* long flat chains build tall trees without recursion */
    sb_clear(&sb);
    sb_puts(&sb, "def k(x):\n    y = x");
    for (int i = 0; i < 20000; i++)
        sb_puts(&sb, "+x");
    sb_puts(&sb, "\n    z = x");
    sb_putc(&sb, '\n');
    f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "expression too deeply nested"));
    fx_free(f);

    sb_clear(&sb);
    sb_puts(&sb, "def k(x):\n    y = x");
    for (int i = 0; i < 20000; i++)
        sb_puts(&sb, ".a");
    sb_putc(&sb, '\n');
    f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "expression too deeply nested"));
    fx_free(f);

    /* deeply nested blocks */
    sb_clear(&sb);
    sb_puts(&sb, "def k(x):\n");
    for (int i = 1; i < 400; i++) {
        sb_indent(&sb, i);
        sb_puts(&sb, "if x:\n");
    }
    sb_indent(&sb, 400);
    sb_puts(&sb, "pass\n");
    f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "too many nested blocks"));
    fx_free(f);
    sb_free(&sb);
}

/* Depth 10^5 in every recursive-descent path (issue 15): each is a
 * located error, never a stack overflow.  The ** chain recursed without
 * a bound (70,000 terms crashed the CLI). */
static void test_depth_1e5(void **state) {
    (void)state;
    static const struct {
        const char *open, *core, *close;
    } shapes[] = {
        {"x**", "x", ""},     {"(", "x", ")"},        {"f(", "x", ")"},
        {"x[", "0", "]"},     {"[", "x", "]"},        {"-", "x", ""},
        {"not ", "x", ""},    {"x if x else ", "x", ""}, {"-x**", "x", ""},
    };
    StrBuf sb;
    sb_init(&sb);
    for (size_t k = 0; k < sizeof shapes / sizeof *shapes; k++) {
        sb_clear(&sb);
        sb_puts(&sb, "def k(x):\n    y = ");
        for (int i = 0; i < 100000; i++)
            sb_puts(&sb, shapes[k].open);
        sb_puts(&sb, shapes[k].core);
        for (int i = 0; i < 100000; i++)
            sb_puts(&sb, shapes[k].close);
        sb_putc(&sb, '\n');
        Fx *f = fx(sb_str(&sb));
        const char *err = ast_of(f, "k");
        if (!strstr(err, "expression too deeply nested") || strncmp(err, "k.py:2:", 7) != 0)
            fail_msg("shape %zu: %.200s", k, err);
        assert_int_equal(f->c.status, MT_ERR_SYNTAX);
        fx_free(f);
    }
    /* 190 terms of ** are fine, and right-associative */
    sb_clear(&sb);
    sb_puts(&sb, "def k(x):\n    y = x");
    for (int i = 0; i < 190; i++)
        sb_puts(&sb, "**x");
    sb_putc(&sb, '\n');
    Fx *f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "FunctionDef k"));
    fx_free(f);
    f = fx("def k(x):\n    y = x ** -x ** x\n");
    assert_non_null(strstr(ast_of(f, "k"), "    BinOp **\n      Name x\n      UnaryOp -\n"
                                           "        BinOp **\n          Name x\n"));
    fx_free(f);
    /* blocks 1000 deep (10^5 would need 10^10 bytes of indentation) */
    sb_clear(&sb);
    sb_puts(&sb, "def k(x):\n");
    for (int i = 1; i < 1000; i++) {
        sb_indent(&sb, i);
        sb_puts(&sb, "if x:\n");
    }
    f = fx(sb_str(&sb));
    assert_non_null(strstr(ast_of(f, "k"), "too many nested blocks"));
    fx_free(f);
    sb_free(&sb);
}

/* A lone CR ends a line, as in Python (old Mac files): the kernel is
 * found and its errors are located on the right line. */
static void test_cr_only_source(void **state) {
    (void)state;
    Fx *f = fx("import triton\r@triton.jit\rdef k(x):\r    y = x +\r    return y\r");
    const char *err = ast_of(f, "k");
    assert_string_equal(err, "k.py:4:12: error: expected an expression, saw newline\n"
                             "    y = x +\n"
                             "           ^\n");
    fx_free(f);
    f = fx("def k(x):\r    y = x\r\n    z = y\r");
    assert_non_null(strstr(ast_of(f, "k"), "FunctionDef k"));
    fx_free(f);
}

static void test_empty_and_odd_sources(void **state) {
    (void)state;
    Fx *f = fx("");
    Module *m = parse_module(&f->c);
    assert_non_null(m);
    assert_int_equal(m->nfuncs + m->nconsts + m->nimports, 0);
    fx_free(f);

    f = fx("@jit\ndef k(x):\n    return x"); /* no final newline */
    assert_contains(ast_of(f, "k"), "  Return\n    Name x\n");
    fx_free(f);

    f = fx_new("def k(x):\n    pass\n\0\0garbage\n", 29);
    assert_contains(ast_of(f, "k"), "FunctionDef k\n  param x\n  Pass\n");
    fx_free(f);

    f = fx("def k(x):\n\tif x:\n\t\ty = 1\n\treturn y\n");
    assert_contains(ast_of(f, "k"), "  If\n    test Name x\n    body\n      Assign\n");
    fx_free(f);

    f = fx("def k(x): return x; pass\n");
    assert_contains(ast_of(f, "k"), "  Return\n    Name x\n  Pass\n");
    fx_free(f);

    f = fx("def k(x) -> None:\n    '''doc'''\n    s = 'a' \"b\"\n    e = ...\n");
    assert_contains(ast_of(f, "k"), "  Expr\n    Str 'doc'\n");
    assert_contains(f->out.data, "    Str 'ab'\n");
    assert_contains(f->out.data, "    Ellipsis\n");
    fx_free(f);

    f = fx("def k():\n    a = 1e100\n    b = 12345678901234567890\n    c = 0.1\n");
    const char *a = ast_of(f, "k");
    assert_contains(a, "Float 1e+100\n");
    assert_contains(a, "Int 9223372036854775807 (big)\n");
    assert_contains(a, "Float 0.1\n");
    fx_free(f);
}

static void test_parse_inventory_idioms(void **state) {
    (void)state;
    Fx *f = fx("@mt.jit\n"
               "def k(out, VALUE: tl.constexpr, M, N):\n"
               "    tl.store(out, 1.0 if type(VALUE) is bool else 2.0)\n"
               "    mask = offs_m < M & offs_n < N\n");
    const char *a = ast_of(f, "k");
    assert_contains(a, "      arg IfExp\n"
                       "        test Compare is\n"
                       "          Call\n"
                       "            Name type\n"
                       "            arg Name VALUE\n"
                       "          Name bool\n"
                       "        body Float 1.0\n"
                       "        orelse Float 2.0\n");
    /* what Python makes of the unparenthesised mask: a chained compare */
    assert_contains(a, "    Compare < <\n"
                       "      Name offs_m\n"
                       "      BinOp &\n"
                       "        Name M\n"
                       "        Name offs_n\n"
                       "      Name N\n");
    fx_free(f);
}

static void test_const_expr_error(void **state) {
    (void)state;
    Fx *f = fx("X = 1 +\nY = (2, 3)\n");
    Module *m = parse_module(&f->c);
    assert_non_null(m);
    assert_int_equal(m->nconsts, 2);
    assert_null(parse_const_expr(&f->c, m, &m->consts[0]));
    assert_int_equal(f->c.status, MT_ERR_SYNTAX);
    assert_int_equal(f->c.err_loc.line, 1);
    assert_int_equal(f->c.err_loc.col, 8);
    assert_non_null(strstr(sb_str(&f->c.err),
                           "k.py:1:8: error: expected an expression, saw newline"));
    fx_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lex_indentation),
        cmocka_unit_test(test_lex_nested_dedent_and_tabs),
        cmocka_unit_test(test_lex_bad_dedent),
        cmocka_unit_test(test_lex_line_joining),
        cmocka_unit_test(test_lex_operators),
        cmocka_unit_test(test_lex_numbers),
        cmocka_unit_test(test_lex_bad_numbers),
        cmocka_unit_test(test_lex_strings),
        cmocka_unit_test(test_lex_error_tokens),
        cmocka_unit_test(test_lex_edge_sources),
        cmocka_unit_test(test_module_index),
        cmocka_unit_test(test_module_fails_on_unterminated_triple),
        cmocka_unit_test(test_parse_add_kernel),
        cmocka_unit_test(test_parse_softmax),
        cmocka_unit_test(test_parse_matmul_slices),
        cmocka_unit_test(test_parse_statements),
        cmocka_unit_test(test_parse_nodes_fields),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_error_rendering),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_depth_1e5),
        cmocka_unit_test(test_cr_only_source),
        cmocka_unit_test(test_empty_and_odd_sources),
        cmocka_unit_test(test_parse_inventory_idioms),
        cmocka_unit_test(test_const_expr_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
