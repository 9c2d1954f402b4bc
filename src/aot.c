/* aot.c: ahead-of-time C files for one kernel specialisation, and the
 * host scheduler's public entry that host-variant files call.
 *
 * Input: compile options (source, kernel, signature, warps) and
 * mt_aot_options (the C name, the GPU architectures, a grid, the
 * variant).  Output: the text of NAME.h and of NAME.c (CUDA: the cubin of
 * every architecture and its PTX as byte arrays, plus mt_aot_rt.h's
 * driver code) or of a C++ file (host: the kernel's CUDA C in the host
 * backend's translation unit, mt_host.h pasted in, launched through
 * mt_host_run).  Both variants declare the same functions:
 *
 *     mt_status NAME(CUstream, unsigned gx, unsigned gy, unsigned gz, args...);
 *     mt_status NAME_load(void), NAME_unload(void);
 *     const char *NAME_errmsg(void);
 *
 * Invariants:
 *   - the launch function takes the kernel's runtime parameters in order
 *     (tl.constexpr ones are compiled in and left out) with C types from
 *     one table (api_type); it checks every argument the signature says
 *     something about before launching: a NULL pointer, a pointer not
 *     aligned as its ":16" hint says, an integer not a multiple of its
 *     hint or, for ":1", not 1, and a grid entry of 0 are an MT_ERR_ARG
 *     and a message, never a launch;
 *   - the header carries one machine-readable line ("mytriton-aot-link:")
 *     with the kernel, warps, constexprs and the parameters with their
 *     hints, which is all aotlink.c reads;
 *   - the generated text depends only on the inputs (no dates, no paths
 *     beyond what the caller gave), so regenerating gives the same files;
 *   - nothing here launches or needs a GPU: cubins come from NVRTC for an
 *     explicit architecture (mt_kernel_stage). */
#include "mt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mt_aot_rt_header: src/mt_aot_rt.h, pasted into every generated file */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif
#include "mt_aot_rt_h.inc"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#define AOT_MAX_ARCHS 8

/* The C types of the generated API: scalars by value in their memory
 * layout (fp16/bf16 as their bits), i1 as an int (nonzero: true). */
static const char *api_type(mt_dtype d, bool is_ptr) {
    static const char *const names[MT_DTYPE_COUNT] = {
        [MT_DTYPE_I1] = "uint8_t",     [MT_DTYPE_I8] = "int8_t",
        [MT_DTYPE_I16] = "int16_t",    [MT_DTYPE_I32] = "int32_t",
        [MT_DTYPE_I64] = "int64_t",    [MT_DTYPE_U8] = "uint8_t",
        [MT_DTYPE_U16] = "uint16_t",   [MT_DTYPE_U32] = "uint32_t",
        [MT_DTYPE_U64] = "uint64_t",   [MT_DTYPE_FP8E4NV] = "uint8_t",
        [MT_DTYPE_FP8E5] = "uint8_t",  [MT_DTYPE_FP16] = "uint16_t",
        [MT_DTYPE_BF16] = "uint16_t",  [MT_DTYPE_FP32] = "float",
        [MT_DTYPE_FP64] = "double"};
    if (!is_ptr && d == MT_DTYPE_I1)
        return "int";
    return d >= 0 && d < MT_DTYPE_COUNT ? names[d] : "void";
}

/* "float *x" or "int32_t n" */
static void put_param_decl(StrBuf *sb, const AotParam *p) {
    sb_printf(sb, "%s %s%s", api_type(p->dtype, p->is_ptr), p->is_ptr ? "*" : "", p->name);
}

void aot_put_params(StrBuf *sb, const AotParam *ps, int n) {
    for (int i = 0; i < n; i++) {
        sb_puts(sb, ", ");
        put_param_decl(sb, &ps[i]);
    }
}

void aot_put_runtime(StrBuf *sb, bool driver) {
    const char *text = mt_aot_rt_header;
    const char *cut = driver ? NULL : strstr(text, "\n#ifndef MT_AOT_NO_DRIVER\n");
    sb_puts(sb, "#line 1 \"mt_aot_rt.h\"\n");
    sb_putn(sb, text, cut ? (size_t)(cut - text) : strlen(text));
}

bool aot_is_identifier(const char *s) {
    if (!s || !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_'))
            return false;
    return true;
}

/* ---- shared pieces of every generated header ---- */

/* The status enum, under mytriton.h's guard, written from the library's
 * own names so the values cannot drift. */
static void put_status_enum(StrBuf *sb) {
    sb_puts(sb, "#ifndef MT_STATUS_DEFINED /* the same enum as mytriton.h's */\n"
                "#define MT_STATUS_DEFINED\ntypedef enum mt_status {\n");
    for (int s = 0; strcmp(mt_status_name((mt_status)s), "MT_ERR_UNKNOWN") != 0; s++)
        sb_printf(sb, "    %s = %d,\n", mt_status_name((mt_status)s), s);
    sb_puts(sb, "} mt_status;\n#endif\n");
}

void aot_header_open(StrBuf *sb, const char *name) {
    sb_printf(sb, "#ifndef MT_AOT_%s_H\n#define MT_AOT_%s_H\n\n#include <stdint.h>\n\n", name, name);
    put_status_enum(sb);
    sb_puts(sb, "/* the driver's stream type, as cuda.h declares it (no CUDA header is\n"
                " * needed); the host variant ignores the stream */\n"
                "#if !defined(__cuda_cuda_h__) && !defined(MT_AOT_CUSTREAM)\n"
                "#define MT_AOT_CUSTREAM\ntypedef struct CUstream_st *CUstream;\n#endif\n\n"
                "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
}

void aot_header_close(StrBuf *sb, const char *name) {
    sb_printf(sb, "/* loads the code into the current CUDA context (device 0's primary\n"
                  " * context when none is current); call it once before launches */\n"
                  "mt_status %s_load(void);\n"
                  "/* unloads it (and releases the context %s_load retained) */\n"
                  "mt_status %s_unload(void);\n"
                  "/* the message of this thread's last failed call, \"\" after a success */\n"
                  "const char *%s_errmsg(void);\n\n"
                  "#ifdef __cplusplus\n}\n#endif\n#endif\n",
              name, name, name, name);
}

/* ---- one specialisation ---- */

typedef struct AotKernel {
    const char *name;   /* the C name */
    const char *kernel; /* the kernel's symbol */
    AotParam *params;
    int nparams;
    int num_warps;
    size_t shared_bytes;
    const char *consts; /* the signature's constexpr entries: "1024 'ieee'" */
} AotKernel;

/* A kernel parameter name the generated C cannot use: the launch
 * function's own parameters, the generated code's mt_ prefix, C keywords. */
static bool reserved_name(const char *n) {
    static const char *const words[] = {
        "stream", "gx", "gy", "gz", "auto", "break", "case", "char", "const", "continue",
        "default", "do", "double", "else", "enum", "extern", "float", "for", "goto", "if",
        "inline", "int", "long", "register", "restrict", "return", "short", "signed", "sizeof",
        "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile",
        "while", "bool", "true", "false", "this", "new", "delete", "class", "template",
        "namespace", "operator", "private", "public", "protected", "virtual", "friend",
        "typename", "using", "catch", "throw", "try", "explicit", "mutable"};
    if (!strncmp(n, "mt_", 3) || n[0] == '_')
        return true;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(n, words[i]))
            return true;
    return false;
}

/* A constexpr value as the signature spells it, for the link line. */
static void put_const(StrBuf *sb, const ConstVal *v) {
    switch (v->kind) {
    case CK_INT: sb_printf(sb, "%lld", (long long)v->i); break;
    case CK_FLOAT: sb_printf(sb, "%.17g", v->f); break;
    case CK_BOOL: sb_puts(sb, v->i ? "True" : "False"); break;
    case CK_STR: sb_printf(sb, "'%s'", v->s); break;
    case CK_NONE: sb_puts(sb, "None"); break;
    case CK_DTYPE: sb_printf(sb, "tl.%s", v->s); break;
    case CK_TUPLE:
        sb_puts(sb, "(");
        for (int i = 0; i < v->n; i++) {
            if (i)
                sb_puts(sb, ", ");
            put_const(sb, &v->items[i]);
        }
        sb_puts(sb, v->n == 1 ? ",)" : ")");
        break;
    }
}

/* Text from the user inside a generated comment: a star-slash or a line
 * break cannot end it, a ']' cannot end the link line's constexpr list. */
void aot_put_comment_text(StrBuf *sb, const char *s) {
    for (; *s; s++) {
        if (*s == '*' && s[1] == '/')
            sb_puts(sb, "* ");
        else if (*s == '\n' || *s == '\r' || *s == ']')
            sb_putc(sb, '?');
        else
            sb_putc(sb, *s);
    }
}

/* Reads the hints of the signature into k's parameters and its constexpr
 * entries, space-separated, into k->consts. */
static int read_signature(Ctx *c, const char *sig, AotKernel *k) {
    SigEntry *es;
    int n, p = 0;
    if (sig_parse(c, sig, &es, &n) < 0)
        return -1;
    StrBuf consts, text;
    sb_init(&consts);
    sb_init(&text);
    for (int i = 0; i < n; i++) {
        if (es[i].kind == SIG_DESC) {
            sb_free(&consts);
            sb_free(&text);
            return diag_error(c, (Loc){0, 0}, MT_ERR_UNSUPPORTED,
                              "tensor descriptor parameters (entry %d of the signature) are "
                              "not supported ahead of time; pass a pointer, shapes and strides "
                              "and make the descriptor in the kernel", i + 1);
        }
        if (es[i].kind == SIG_CONST) {
            sb_clear(&text);
            put_const(&text, &es[i].value);
            if (consts.len)
                sb_putc(&consts, ' ');
            aot_put_comment_text(&consts, sb_str(&text));
            continue;
        }
        if (p >= k->nparams)
            break;
        AotParam *q = &k->params[p++];
        if (reserved_name(q->name)) {
            sb_free(&consts);
            sb_free(&text);
            return diag_error(c, (Loc){0, 0}, MT_ERR_UNSUPPORTED,
                              "parameter '%s' cannot be a parameter of a C function beside "
                              "the launch's own (stream, gx, gy, gz, mt_*) or is a C keyword: "
                              "rename it for ahead-of-time code", q->name);
        }
        q->hint = es[i].hint;
        bool is_int = dtype_is_int((DType)(q->dtype + 1));
        if (q->hint && !q->is_ptr && !is_int) {
            sb_free(&consts);
            sb_free(&text);
            return diag_error(c, (Loc){0, 0}, MT_ERR_SIGNATURE,
                              "a hint on parameter '%s' of type %s says nothing ahead-of-time "
                              "code can check (hints go on pointers and integers)",
                              q->name, mt_dtype_name(q->dtype));
        }
    }
    k->consts = arena_strdup(c->arena, sb_str(&consts));
    sb_free(&consts);
    sb_free(&text);
    if (p != k->nparams)
        return diag_error(c, (Loc){0, 0}, MT_ERR_INTERNAL,
                          "the signature has %d runtime entries, the kernel %d parameters", p,
                          k->nparams);
    return 0;
}

/* The signature spelling of a parameter's type and hint: "*fp32:16". */
static void put_sig_type(StrBuf *sb, const AotParam *p) {
    sb_printf(sb, "%s%s", p->is_ptr ? "*" : "", mt_dtype_name(p->dtype));
    if (p->hint)
        sb_printf(sb, ":%d", p->hint);
}

static void put_header(StrBuf *sb, const AotKernel *k, const mt_compile_options *o,
                       const mt_aot_options *aot, const char *archs) {
    bool host = aot->host;
    sb_printf(sb, "/* %s.h: generated by `mytriton aot` from ", k->name);
    aot_put_comment_text(sb, o->filename ? o->filename : "<kernel>");
    sb_printf(sb, ", kernel %s; do not edit.\n *\n * signature \"", k->kernel);
    aot_put_comment_text(sb, o->signature);
    sb_printf(sb, "\", num_warps %d, %s.\n", k->num_warps,
              host ? "host variant (CPU, the library's scheduler)" : archs);
    sb_printf(sb, " *\n * mt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz, ...)\n"
                  " *   launches gx*gy*gz programs of %d threads on stream (%s); the\n"
                  " *   arguments follow the kernel's runtime parameters in order\n"
                  " *   (constexpr ones are compiled in):\n",
              k->name, 32 * k->num_warps,
              host ? "ignored: the host variant runs the grid before it returns"
                   : "asynchronous, as cuLaunchKernel");
    for (int i = 0; i < k->nparams; i++) {
        const AotParam *p = &k->params[i];
        sb_puts(sb, " *     ");
        put_param_decl(sb, p);
        sb_puts(sb, "  (");
        put_sig_type(sb, p);
        if (p->is_ptr)
            sb_puts(sb, "; not NULL");
        if (p->is_ptr && p->hint > 1)
            sb_printf(sb, "; %d-byte aligned", p->hint);
        else if (p->hint == 1 && !p->is_ptr)
            sb_puts(sb, "; must be 1");
        else if (p->hint > 1)
            sb_printf(sb, "; a multiple of %d", p->hint);
        sb_puts(sb, ")");
        sb_puts(sb, "\n");
    }
    sb_puts(sb, " *   A bad argument or a grid entry of 0 returns MT_ERR_ARG, and the\n"
                " *   reason in the function's errmsg; nothing exits or aborts.\n");
    sb_printf(sb, " * mytriton-aot-link: name=%s kernel=%s warps=%d consts=[%s] params=", k->name,
              k->kernel, k->num_warps, k->consts);
    for (int i = 0; i < k->nparams; i++) {
        sb_puts(sb, i ? "," : "");
        put_sig_type(sb, &k->params[i]);
        sb_printf(sb, " %s", k->params[i].name);
    }
    sb_puts(sb, "\n */\n");
    aot_header_open(sb, k->name);
    sb_printf(sb, "mt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz", k->name);
    aot_put_params(sb, k->params, k->nparams);
    sb_puts(sb, ");\n");
    if (aot->grid) {
        sb_printf(sb, "/* %s on the grid (", k->name);
        aot_put_comment_text(sb, aot->grid);
        sb_printf(sb, ") */\nmt_status %s_grid(CUstream stream", k->name);
        aot_put_params(sb, k->params, k->nparams);
        sb_puts(sb, ");\n");
    }
    aot_header_close(sb, k->name);
}

/* The argument checks the signature asks for, then the argument array
 * (an i1 scalar goes to the kernel as one byte). */
static void put_checks_and_args(StrBuf *sb, const AotKernel *k) {
    sb_printf(sb, "    mt_status mt_st;\n    if ((mt_st = mt_aot_check_grid(\"%s\", gx, gy, gz)) != MT_OK)\n"
                  "        return mt_st;\n",
              k->name);
    for (int i = 0; i < k->nparams; i++) {
        const AotParam *p = &k->params[i];
        if (p->is_ptr)
            sb_printf(sb, "    if ((mt_st = mt_aot_check_ptr(\"%s\", \"%s\", %s, %d)) != MT_OK)\n"
                          "        return mt_st;\n",
                      k->name, p->name, p->name, p->hint);
        else if (p->hint)
            sb_printf(sb, "    if ((mt_st = mt_aot_check_int(\"%s\", \"%s\", (long long)%s, %d)) != MT_OK)\n"
                          "        return mt_st;\n",
                      k->name, p->name, p->name, p->hint);
        if (!p->is_ptr && p->dtype == MT_DTYPE_I1)
            sb_printf(sb, "    unsigned char mt_%s_byte = %s != 0;\n", p->name, p->name);
    }
    if (k->nparams == 0) {
        sb_puts(sb, "    void **mt_args = NULL;\n");
        return;
    }
    sb_puts(sb, "    void *mt_args[] = {");
    for (int i = 0; i < k->nparams; i++) {
        const AotParam *p = &k->params[i];
        bool byte = !p->is_ptr && p->dtype == MT_DTYPE_I1;
        sb_printf(sb, "%s(void *)&%s%s%s", i ? ", " : "", byte ? "mt_" : "", p->name,
                  byte ? "_byte" : "");
    }
    sb_puts(sb, "};\n");
}

/* NAME_grid: the launch on the grid the generator was given. */
static void put_grid_function(StrBuf *sb, const AotKernel *k, char *const exprs[3]) {
    sb_printf(sb, "\nmt_status %s_grid(CUstream stream", k->name);
    aot_put_params(sb, k->params, k->nparams);
    sb_puts(sb, ") {\n");
    for (int i = 0; i < 3; i++)
        sb_printf(sb, "    long long mt_g%c = (long long)(%s);\n", "xyz"[i], exprs[i]);
    sb_printf(sb, "    if (mt_gx < 1 || mt_gy < 1 || mt_gz < 1 || mt_gx > 0x7fffffffLL || mt_gy > 65535 ||\n"
                  "        mt_gz > 65535)\n"
                  "        return mt_aot_fail(MT_ERR_ARG, \"%s_grid: the grid (%%lld, %%lld, %%lld) is "
                  "out of range\", mt_gx, mt_gy, mt_gz);\n"
                  "    return %s(stream, (unsigned)mt_gx, (unsigned)mt_gy, (unsigned)mt_gz",
              k->name, k->name);
    for (int i = 0; i < k->nparams; i++)
        sb_printf(sb, ", %s", k->params[i].name);
    sb_puts(sb, ");\n}\n");
}

/* C expressions of the grid: only operators, numbers and names, so the
 * text cannot end the function it is pasted into. */
static int split_grid(Ctx *c, Arena *a, const char *grid, char *exprs[3]) {
    for (const char *p = grid; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ +-*/%()<>?:=!&|^~,", *p))
            return diag_error(c, (Loc){0, 0}, MT_ERR_ARG,
                              "--grid '%s': unexpected character '%c' (expected three C "
                              "expressions over the parameters, separated by commas)",
                              grid, *p);
    const char *p = grid;
    for (int i = 0; i < 3; i++) {
        const char *comma = strchr(p, ',');
        if ((i < 2) != (comma != NULL))
            return diag_error(c, (Loc){0, 0}, MT_ERR_ARG,
                              "--grid '%s': expected three comma-separated expressions", grid);
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        exprs[i] = arena_strndup(a, p, len);
        if (strspn(exprs[i], " ") == len)
            return diag_error(c, (Loc){0, 0}, MT_ERR_ARG, "--grid '%s': empty expression", grid);
        p = comma ? comma + 1 : p + len;
    }
    return 0;
}

static void put_bytes(StrBuf *sb, const char *name, const unsigned char *b, size_t n, bool nul) {
    sb_printf(sb, "static const unsigned char %s[%zu] = {", name, n + (nul ? 1 : 0));
    for (size_t i = 0; i < n; i++)
        sb_printf(sb, "%s%u,", i % 24 ? "" : "\n    ", b[i]);
    sb_puts(sb, nul ? "0};\n" : "\n};\n");
}

typedef struct AotImage {
    int sm;
    const char *cubin, *ptx;
    size_t cubin_len, ptx_len;
} AotImage;

static void put_cuda_source(StrBuf *sb, const AotKernel *k, const AotImage *imgs, int nimg,
                            char *const grid[3]) {
    sb_printf(sb, "/* %s.c: generated by `mytriton aot`; do not edit.  Plain C: compile it\n"
                  " * with any C11 compiler, no CUDA headers, no link-time CUDA library. */\n"
                  "#include \"%s.h\"\n\n",
              k->name, k->name);
    aot_put_runtime(sb, true);
    sb_printf(sb, "#line 1 \"%s.c (images)\"\n", k->name);
    for (int i = 0; i < nimg; i++) {
        char nm[160];
        snprintf(nm, sizeof nm, "%s_cubin_sm_%d", k->name, imgs[i].sm);
        put_bytes(sb, nm, (const unsigned char *)imgs[i].cubin, imgs[i].cubin_len, false);
        snprintf(nm, sizeof nm, "%s_ptx_sm_%d", k->name, imgs[i].sm);
        put_bytes(sb, nm, (const unsigned char *)imgs[i].ptx, imgs[i].ptx_len, true);
    }
    sb_printf(sb, "\nstatic const mt_aot_image %s_images[] = {\n", k->name);
    for (int i = 0; i < nimg; i++)
        sb_printf(sb, "    {%d, %s_cubin_sm_%d, %s_ptx_sm_%d},\n", imgs[i].sm, k->name, imgs[i].sm,
                  k->name, imgs[i].sm);
    /* static __shared__ arrays up to the budget, one dynamic one past it
     * (the library's launch does the same) */
    size_t dyn = k->shared_bytes > MT_SMEM_BUDGET ? k->shared_bytes : 0;
    sb_printf(sb, "};\n\nstatic mt_aot_kernel %s_kernel = {\n"
                  "    .name = \"%s\", .symbol = \"%s\", .images = %s_images, .nimages = %d,\n"
                  "    .threads = %d, .dyn_smem = %zu};\n",
              k->name, k->name, k->kernel, k->name, nimg, 32 * k->num_warps, dyn);
    sb_printf(sb, "\nmt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz", k->name);
    aot_put_params(sb, k->params, k->nparams);
    sb_puts(sb, ") {\n");
    put_checks_and_args(sb, k);
    sb_printf(sb, "    return mt_aot_launch(&%s_kernel, stream, gx, gy, gz, mt_args);\n}\n", k->name);
    if (grid[0])
        put_grid_function(sb, k, grid);
    sb_printf(sb, "\nmt_status %s_load(void) { return mt_aot_load(&%s_kernel); }\n"
                  "mt_status %s_unload(void) { return mt_aot_unload(&%s_kernel); }\n"
                  "const char *%s_errmsg(void) { return mt_aot_msg; }\n",
              k->name, k->name, k->name, k->name, k->name);
}

static void put_host_source(StrBuf *sb, const AotKernel *k, const char *cuda,
                            char *const grid[3]) {
    sb_printf(sb, "/* %s.cpp: generated by `mytriton aot --backend host`; do not edit.\n"
                  " * The host variant of %s.h: the kernel's CUDA C compiled for the CPU\n"
                  " * (C++17, the host backend's mt_host.h pasted in), run by the\n"
                  " * library's scheduler:\n"
                  " *   c++ -std=c++17 -O1 -fno-strict-aliasing -c %s.cpp $(pkg-config --cflags mytriton)\n"
                  " *   cc prog.c %s.o $(pkg-config --libs mytriton) */\n"
                  "#if defined(__GNUC__)\n#pragma GCC diagnostic ignored \"-Wunknown-pragmas\"\n#endif\n"
                  "/* the kernel and its trampoline get names of this file's own */\n"
                  "#define mt_host_entry %s_host_entry\n#define %s %s_kernel\n",
              k->name, k->name, k->name, k->name, k->name, k->kernel, k->name);
    const char **ctypes = calloc((size_t)k->nparams + 1, sizeof *ctypes);
    char(*bufs)[40] = calloc((size_t)k->nparams + 1, sizeof *bufs);
    if (!ctypes || !bufs) {
        sb->failed = true;
        free(ctypes);
        free(bufs);
        return;
    }
    for (int i = 0; i < k->nparams; i++) {
        const AotParam *p = &k->params[i];
        DType d = (DType)(p->dtype + 1);
        snprintf(bufs[i], sizeof bufs[i], "%s%s",
                 !p->is_ptr && d == DT_I1 ? "bool" : dtype_mtype(d), p->is_ptr ? "*" : "");
        ctypes[i] = bufs[i];
    }
    host_unit(sb, cuda, k->kernel, ctypes, k->nparams, true);
    free(ctypes);
    free(bufs);
    sb_printf(sb, "#undef mt_host_entry\n#undef %s\n\n#line 1 \"%s.cpp (launch)\"\n#include \"%s.h\"\n"
                  "#include <mytriton.h>\n",
              k->kernel, k->name, k->name);
    aot_put_runtime(sb, false);
    sb_printf(sb, "#line 1 \"%s.cpp (launch)\"\n", k->name);
    sb_printf(sb, "\nextern \"C\" mt_status %s(CUstream stream, unsigned gx, unsigned gy, unsigned gz",
              k->name);
    aot_put_params(sb, k->params, k->nparams);
    sb_puts(sb, ") {\n    (void)stream;\n");
    put_checks_and_args(sb, k);
    sb_printf(sb, "    const uint32_t mt_grid[3] = {gx, gy, gz};\n    char mt_err[400];\n"
                  "    mt_st = mt_host_run(%s_host_entry, mt_args, mt_grid, %d, %uu, mt_err, sizeof mt_err);\n"
                  "    return mt_st != MT_OK ? mt_aot_fail(mt_st, \"%s: %%s\", mt_err) : mt_aot_ok();\n}\n",
              k->name, 32 * k->num_warps, host_kernel_flags(cuda), k->name);
    if (grid[0]) {
        sb_puts(sb, "\nextern \"C\"");
        put_grid_function(sb, k, grid);
    }
    /* the scheduler's contract (mt_host.h, pasted above) is this
     * library version's: refuse another at build time and at load */
    sb_printf(sb, "\n#if MT_API_VERSION != %d\n#error \"%s.cpp was generated for mytriton API %d\"\n#endif\n"
                  "extern \"C\" mt_status %s_load(void) {\n"
                  "    if (mt_version() != MT_API_VERSION)\n"
                  "        return mt_aot_fail(MT_ERR_ARG, \"%s: generated for mytriton API %%d, the "
                  "library is %%d\", MT_API_VERSION, mt_version());\n    return mt_aot_ok();\n}\n",
              MT_API_VERSION, k->name, MT_API_VERSION, k->name, k->name);
    sb_printf(sb, "extern \"C\" mt_status %s_unload(void) { return mt_aot_ok(); }\n"
                  "extern \"C\" const char *%s_errmsg(void) { return mt_aot_msg; }\n",
              k->name, k->name);
}

/* "sm_80,sm_90" into numbers; 0 or -1 with an error. */
static int parse_archs(Ctx *c, const char *archs, int sms[AOT_MAX_ARCHS], int *n) {
    *n = 0;
    const char *p = archs;
    while (*p) {
        int sm = 0, digits = 0;
        if (strncmp(p, "sm_", 3) != 0)
            goto bad;
        for (p += 3; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
            sm = sm * 10 + (*p - '0');
        if (digits < 2 || (*p && *p != ','))
            goto bad;
        for (int i = 0; i < *n; i++)
            if (sms[i] == sm)
                return diag_error(c, (Loc){0, 0}, MT_ERR_ARG, "--arch '%s': sm_%d given twice",
                                  archs, sm);
        if (*n == AOT_MAX_ARCHS)
            return diag_error(c, (Loc){0, 0}, MT_ERR_ARG, "--arch '%s': at most %d architectures",
                              archs, AOT_MAX_ARCHS);
        sms[(*n)++] = sm;
        if (*p == ',')
            p++;
    }
    if (*n > 0)
        return 0;
bad:
    return diag_error(c, (Loc){0, 0}, MT_ERR_ARG,
                      "--arch '%s': expected a comma-separated list such as 'sm_80,sm_90'", archs);
}

/* Compiles for one architecture and keeps its cubin and PTX. */
static mt_status compile_arch(mt_context *ctx, const mt_compile_options *o, int sm,
                              mt_kernel **k, AotImage *img) {
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", sm);
    mt_compile_options oo = *o;
    oo.arch = arch;
    oo.backend = MT_BACKEND_CUDA;
    oo.stages_only = 1;
    mt_status st = mt_compile(ctx, &oo, k);
    if (st == MT_OK)
        st = mt_kernel_stage(ctx, *k, MT_STAGE_CUBIN, &img->cubin, &img->cubin_len);
    if (st == MT_OK)
        st = mt_kernel_stage(ctx, *k, MT_STAGE_PTX, &img->ptx, &img->ptx_len);
    img->sm = sm;
    return st;
}

static char *take_text(StrBuf *sb) {
    char *s = sb->failed ? NULL : strdup(sb_str(sb));
    sb_free(sb);
    return s;
}

mt_status aot_finish(StrBuf *h, StrBuf *s, char **header, char **source) {
    *header = take_text(h);
    *source = take_text(s);
    if (*header && *source)
        return MT_OK;
    free(*header);
    free(*source);
    *header = *source = NULL;
    return MT_ERR_NOMEM;
}

static mt_status aot_fail(mt_context *ctx, Ctx *c, Arena *a) {
    mt_status st = api_take_error(ctx, c);
    sb_free(&c->err);
    arena_free(a);
    return st;
}

mt_status mt_aot_generate(mt_context *ctx, const mt_compile_options *opts,
                          const mt_aot_options *aot, char **header, char **source) {
    if (!ctx)
        return MT_ERR_ARG;
    Arena *a = arena_new();
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = a;
    if (!a)
        return MT_ERR_NOMEM;
    if (!opts || !aot || !header || !source || aot->size != sizeof *aot ||
        opts->size != sizeof *opts) {
        diag_error(&c, (Loc){0, 0}, MT_ERR_ARG,
                   "mt_aot_generate: bad arguments (the sizes of the option structs must be "
                   "sizeof(mt_compile_options) and sizeof(mt_aot_options))");
        return aot_fail(ctx, &c, a);
    }
    *header = *source = NULL;
    if (!aot_is_identifier(aot->name)) {
        diag_error(&c, (Loc){0, 0}, MT_ERR_ARG, "the name '%s' of the generated functions is "
                                                "not a C identifier",
                   aot->name ? aot->name : "(null)");
        return aot_fail(ctx, &c, a);
    }
    bool host = aot->host;
    const char *archs = aot->archs ? aot->archs : "sm_90";
    int sms[AOT_MAX_ARCHS], nsm = 1;
    sms[0] = 0;
    char *grid[3] = {NULL, NULL, NULL};
    if ((!host && parse_archs(&c, archs, sms, &nsm) < 0) ||
        (aot->grid && split_grid(&c, a, aot->grid, grid) < 0))
        return aot_fail(ctx, &c, a);

    AotImage imgs[AOT_MAX_ARCHS];
    mt_kernel *k = NULL;
    for (int i = 0; i < nsm; i++) {
        mt_status st;
        if (host) {
            mt_compile_options oo = *opts;
            oo.backend = MT_BACKEND_HOST;
            oo.arch = NULL;
            oo.stages_only = 1;
            st = mt_compile(ctx, &oo, &k);
        } else {
            st = compile_arch(ctx, opts, sms[i], &k, &imgs[i]);
        }
        if (st != MT_OK) {
            arena_free(a);
            return st;
        }
    }
    AotKernel ak = {aot->name, mt_kernel_name(k), NULL, mt_kernel_num_params(k),
                    mt_kernel_num_warps(k), mt_kernel_shared_bytes(k), NULL};
    ak.params = arena_alloc(a, ((size_t)ak.nparams + 1) * sizeof *ak.params);
    for (int i = 0; i < ak.nparams; i++)
        ak.params[i] = (AotParam){mt_kernel_param_name(k, i), mt_kernel_param_dtype(k, i),
                                  mt_kernel_param_is_pointer(k, i) != 0, 0};
    c.filename = "<signature>";
    if (read_signature(&c, opts->signature, &ak) < 0)
        return aot_fail(ctx, &c, a);
    const char *cuda;
    mt_kernel_stage(ctx, k, MT_STAGE_CUDA, &cuda, NULL);

    StrBuf h, s;
    sb_init(&h);
    sb_init(&s);
    put_header(&h, &ak, opts, aot, archs);
    if (host)
        put_host_source(&s, &ak, cuda, grid);
    else
        put_cuda_source(&s, &ak, imgs, nsm, grid);
    arena_free(a);
    return aot_finish(&h, &s, header, source);
}

mt_status mt_host_run(mt_host_kernel_fn *entry, void **args, const uint32_t grid[3],
                      int threads, unsigned flags, char *err, size_t errlen) {
    if (err && errlen)
        err[0] = 0;
    if (!entry || !grid || threads < 1 || threads > MT_MAX_THREADS || grid[0] < 1 ||
        grid[1] < 1 || grid[2] < 1 || grid[0] > 2147483647u || grid[1] > 65535 ||
        grid[2] > 65535) {
        if (err && errlen)
            snprintf(err, errlen, "bad launch: grid (%u, %u, %u), %d threads per program",
                     grid ? grid[0] : 0, grid ? grid[1] : 0, grid ? grid[2] : 0, threads);
        return MT_ERR_ARG;
    }
    /* a runtime (worker pool, fiber stacks) for this launch alone: a
     * generated file has no context to keep one in */
    FiberRuntime *rt = fiber_runtime_new();
    if (!rt) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory");
        return MT_ERR_NOMEM;
    }
    int rc = fiber_run(rt, entry, args, grid,
                       flags & MT_HOST_RUN_ONE_THREAD ? 1u : (unsigned)threads,
                       (flags & MT_HOST_RUN_WAITS) != 0, NULL, 0, NULL, err, errlen);
    fiber_runtime_free(rt);
    if (flags & MT_HOST_RUN_PRINTS)
        fflush(stdout);
    return rc == 0 ? MT_OK : rc == -2 ? MT_ERR_ASSERT : rc == -3 ? MT_ERR_CHECK : MT_ERR_RESOURCE;
}
