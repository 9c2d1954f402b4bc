/* fuzz_deep.c: libFuzzer target for deep and long structures (issue 15,
 * item 5): random bytes find few of them, since a crash of a recursive
 * descent needs tens of thousands of nested or chained constructs.
 *
 * Input: a recipe, not text.  Byte 0 picks a shape (below), byte 1 a
 * variant (which operator, keyword or bracket), bytes 2-4 a size up to
 * MAX_DEPTH nestings or MAX_LEN bytes, and the rest is spliced in as a
 * leaf (an operand, or junk).  The generated text, a kernel module or an
 * .ir function, goes through the whole compiler behind the public API
 * (stages_only: elaboration, verifier, passes, layouts, CUDA emission) or
 * through the IR reader, printer and default passes.  Any outcome but a
 * crash, leak, hang or sanitizer report is fine, and a failure must be a
 * located diagnostic.  Seeds (tests/fuzz/deep/) hold every shape at its
 * largest size; `make fuzz-deep` runs them and then fuzzes for
 * FUZZ_DEEP_SECONDS.  Prints nothing. */
#include "mt.h"

#include "fuzz_util.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_DEPTH 100000
#define MAX_LEN 1000000

enum {
    SHAPE_PARENS,     /* ((((a)))) and [[[a]]], f(f(f(a))), t[t[t[0]]] */
    SHAPE_UNARY,      /* - - - a, not not a, ~~~a */
    SHAPE_BINARY,     /* a + a + a ..., a ** a ** a, a < a < a, a and a */
    SHAPE_TERNARY,    /* a if c else a if c else ... (right-nested) */
    SHAPE_POSTFIX,    /* a.T.T.T, a[None][None], x.to(t).to(t) */
    SHAPE_ARGS,       /* f(a, a, ...): long argument and element lists */
    SHAPE_BLOCKS,     /* nested if / for / while / with, as deep as fits */
    SHAPE_ELIF,       /* if .. elif .. elif ...: an elif chain nests */
    SHAPE_STMTS,      /* a long body of statements */
    SHAPE_PARAMS,     /* a kernel of many parameters */
    SHAPE_IR_NEST,    /* .ir: nested for / if regions */
    SHAPE_IR_CHAIN,   /* .ir: a long chain of ops */
    SHAPE_COUNT
};

typedef struct Gen {
    StrBuf sb;
    const char *leaf; /* from the input; may be empty */
    size_t leaflen;
} Gen;

static void put_leaf(Gen *g, const char *fallback) {
    if (g->leaflen)
        sb_putn(&g->sb, g->leaf, g->leaflen);
    else
        sb_puts(&g->sb, fallback);
}

static void kernel_head(Gen *g, int nparams) {
    sb_puts(&g->sb, "import triton\nimport triton.language as tl\n\n@triton.jit\ndef k(X");
    for (int i = 1; i < nparams; i++)
        sb_printf(&g->sb, ", p%d", i);
    sb_puts(&g->sb, "):\n    a = tl.load(X + tl.arange(0, 16))\n    c = a > 0\n");
}

/* Repeats pre .. (leaf) .. post n times around the leaf: x = pre^n leaf post^n */
static void nest(Gen *g, const char *pre, const char *post, long n) {
    sb_puts(&g->sb, "    x = ");
    for (long i = 0; i < n; i++)
        sb_puts(&g->sb, pre);
    put_leaf(g, "a");
    for (long i = 0; i < n; i++)
        sb_puts(&g->sb, post);
    sb_puts(&g->sb, "\n    tl.store(X + tl.arange(0, 16), x)\n");
}

static void chain(Gen *g, const char *op, long n) {
    sb_puts(&g->sb, "    x = a");
    for (long i = 0; i < n; i++) {
        sb_puts(&g->sb, op);
        if (i == n / 2)
            put_leaf(g, "a");
        else
            sb_puts(&g->sb, "a");
    }
    sb_puts(&g->sb, "\n    tl.store(X + tl.arange(0, 16), x)\n");
}

/* Blocks nested as deep as len bytes of indentation allow (depth d costs
 * d*(d+1)/2 spaces). */
static void blocks(Gen *g, int variant, long depth, long len) {
    static const char *const heads[] = {"if c0:", "for i in range(0, 4):",
                                        "while a0 < 2:", "if a0 > 1:\n%*spass\n%*selse:"};
    long d = 1;
    while (d < depth && (d + 1) * (d + 2) / 2 + 24 * (d + 1) < len)
        d++;
    sb_puts(&g->sb, "    c0 = tl.sum(a, axis=0) > 0\n    a0 = tl.sum(a, axis=0)\n");
    for (long i = 0; i < d; i++) {
        int ind = (int)(4 + i);
        if (variant % 4 == 3)
            sb_printf(&g->sb, "%*sif a0 > 1:\n%*spass\n%*selse:\n", ind, "", ind + 1, "", ind,
                      "");
        else
            sb_printf(&g->sb, "%*s%s\n", ind, "", heads[variant % 4]);
        if (variant % 4 == 2)
            sb_printf(&g->sb, "%*sa0 = a0 + 1\n", ind + 1, "");
    }
    sb_printf(&g->sb, "%*s", (int)(4 + d), "");
    put_leaf(g, "a0 = a0 + 1");
    sb_puts(&g->sb, "\n    tl.store(X, a0)\n");
}

static long kernel_params(int shape, long depth) {
    return shape == SHAPE_PARAMS && depth > 2 ? depth : 2;
}

static void gen_kernel(Gen *g, int shape, int variant, long depth, long len) {
    if (shape == SHAPE_PARAMS) {
        kernel_head(g, (int)kernel_params(shape, depth));
        sb_puts(&g->sb, "    tl.store(X + tl.arange(0, 16), a)\n");
        return;
    }
    kernel_head(g, 2);
    switch (shape) {
    case SHAPE_PARENS: {
        static const char *const pre[] = {"(", "[", "f(", "tl.abs(", "a[", "(a, "};
        static const char *const post[] = {")", "]", ")", ")", "]", ")[0]"};
        nest(g, pre[variant % 6], post[variant % 6], depth);
        break;
    }
    case SHAPE_UNARY: {
        static const char *const pre[] = {"-", "not ", "~", "+", "- -", "-(", "tl.exp("};
        static const char *const post[] = {"", "", "", "", "", ")", ")"};
        nest(g, pre[variant % 7], post[variant % 7], depth);
        break;
    }
    case SHAPE_BINARY: {
        static const char *const ops[] = {" + ", " * ", " - ", " ** ", " < ", " and ",
                                          " or ", " | ", " << ", " // ", " == ", " if c else "};
        chain(g, ops[variant % 12], len / 5);
        break;
    }
    case SHAPE_TERNARY:
        chain(g, variant % 2 ? " if c else " : " if a > 0 else ", len / 14);
        break;
    case SHAPE_POSTFIX: {
        static const char *const post[] = {".T", "[None]", ".to(tl.float32)", "[:, None][0]",
                                           "()", ".shape[0]"};
        nest(g, "", post[variant % 6], len / 16);
        break;
    }
    case SHAPE_ARGS: {
        static const char *const call[] = {"tl.maximum(", "(", "[", "f(", "tl.zeros(("};
        sb_printf(&g->sb, "    x = %s", call[variant % 5]);
        for (long i = 0; i < len / 3; i++)
            sb_puts(&g->sb, i ? ", a" : "a");
        sb_puts(&g->sb, variant % 5 == 2 ? "]\n" : variant % 5 == 4 ? "), tl.float32)\n" : ")\n");
        sb_puts(&g->sb, "    tl.store(X, x)\n");
        break;
    }
    case SHAPE_BLOCKS:
        blocks(g, variant, depth, len);
        break;
    case SHAPE_ELIF:
        sb_puts(&g->sb, "    s = tl.sum(a, axis=0)\n    if s < 0:\n        s = s + 1\n");
        for (long i = 0; i < len / 32; i++)
            sb_printf(&g->sb, "    elif s < %ld:\n        s = s + 1\n", i);
        sb_puts(&g->sb, "    tl.store(X, s)\n");
        break;
    case SHAPE_STMTS:
        for (long i = 0; i < len / 16; i++)
            sb_puts(&g->sb, variant % 2 ? "    a = a + 1.0\n" : "    a = a * a\n");
        sb_puts(&g->sb, "    tl.store(X + tl.arange(0, 16), a)\n");
        break;
    default:
        break;
    }
}

static void gen_ir(Gen *g, int shape, int variant, long depth, long len) {
    sb_puts(&g->sb, "func @deep(out: ptr<i32>, n: i32) attributes {num_warps=1} {\n"
                    "  %p = program_id {axis=0} : i32\n");
    if (shape == SHAPE_IR_NEST) {
        if (depth * 64 > len)
            depth = len / 64;
        for (long i = 0; i < depth; i++) {
            if (variant % 2)
                sb_printf(&g->sb, "%%c%ld = cmp slt, %%p, n : i1\nif %%c%ld {\n", i, i);
            else
                sb_printf(&g->sb, "for %%i%ld in range(0, n, 1) {\n", i);
        }
        sb_puts(&g->sb, "store out, %p, none\n");
        for (long i = 0; i < depth; i++)
            sb_puts(&g->sb, "}\n");
    } else {
        sb_puts(&g->sb, "  %v0 = add %p, 1 : i32\n");
        long n = len / 32;
        for (long i = 1; i < n; i++)
            sb_printf(&g->sb, "  %%v%ld = %s %%v%ld, %%p : i32\n", i,
                      variant % 2 ? "mul" : "add", i - 1);
        sb_printf(&g->sb, "  store out, %%v%ld, none\n", n - 1);
    }
    if (g->leaflen)
        sb_putn(&g->sb, g->leaf, g->leaflen);
    sb_puts(&g->sb, "}\n");
}

/* Every failure must say why, and where. */
static void compile_kernel(const char *src, long nparams) {
    mt_context *ctx = NULL;
    StrBuf sig;
    sb_init(&sig);
    sb_puts(&sig, "*fp32");
    for (long i = 1; i < nparams; i++)
        sb_puts(&sig, ",i32");
    if (sig.failed || mt_context_create(&ctx) != MT_OK) {
        sb_free(&sig);
        return;
    }
    fuzz_compile_stages(ctx, src, "deep.py", "k", sb_str(&sig));
    mt_context_destroy(ctx);
    sb_free(&sig);
}

static void read_ir(const char *text, size_t n) {
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = arena_new();
    if (!c.arena)
        return;
    c.src = text;
    c.srclen = n;
    c.filename = "deep.ir";
    sb_init(&c.err);
    Func *f = ir_parse(&c);
    if (!f && (c.status == MT_OK || !c.err.len))
        abort();
    if (f) {
        StrBuf out;
        sb_init(&out);
        ir_print(&out, f);
        sb_free(&out);
    }
    arena_free(c.arena);
    sb_free(&c.err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 5)
        return 0;
    int shape = data[0] % SHAPE_COUNT, variant = data[1];
    unsigned long scale = ((unsigned long)data[2] << 16) | ((unsigned long)data[3] << 8) | data[4];
    long depth = scale > MAX_DEPTH ? MAX_DEPTH : (long)scale;
    long len = (long)(scale * (unsigned long long)MAX_LEN / 0xffffffUL);
    if (len < 64)
        len = 64;
    Gen g = {.leaf = (const char *)data + 5, .leaflen = size - 5};
    /* the API takes NUL-terminated text: a leaf is cut at its first NUL */
    const char *nul = memchr(g.leaf, 0, g.leaflen);
    if (nul)
        g.leaflen = (size_t)(nul - g.leaf);
    sb_init(&g.sb);
    if (shape == SHAPE_IR_NEST || shape == SHAPE_IR_CHAIN) {
        gen_ir(&g, shape, variant, depth, len);
        if (!g.sb.failed)
            read_ir(sb_str(&g.sb), g.sb.len);
    } else {
        gen_kernel(&g, shape, variant, depth, len);
        if (!g.sb.failed)
            compile_kernel(sb_str(&g.sb), kernel_params(shape, depth));
    }
    sb_free(&g.sb);
    return 0;
}
