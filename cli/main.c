/* mytriton CLI: prints any stage of a kernel's compilation, and writes
 * ahead-of-time C files.
 *
 *   mytriton compile FILE --kernel NAME --signature SIG
 *            [--emit STAGE] [--num-warps N] [--num-stages S] [--backend cuda|mlir|cpu]
 *            [--arch sm_90] [--debug] [--checked] [--no-fp-fusion] [-o OUT]
 *   mytriton aot FILE --kernel NAME --signature SIG [--grid G] [--num-warps N]
 *            [--num-stages S]
 *            [--arch sm_80,sm_90] [--backend cuda|host] [--debug] [--checked]
 *            [--no-fp-fusion] -o OUT
 *   mytriton aot-link A.h B.h ... -o OUT
 *
 * It uses only the public API (include/mytriton.h): the library produces
 * every diagnostic, the CLI prints it.  Exit status: 0 on success, 1 on a
 * compilation error, 2 on bad command-line usage. */
#include "../include/mytriton.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: mytriton compile FILE --kernel NAME --signature SIG\n"
    "                [--emit STAGE] [--num-warps N] [--num-stages S]\n"
    "                [--backend cuda|mlir|cpu] [--arch sm_XY] [--debug] [--checked]\n"
    "                [--no-fp-fusion] [-o OUT]\n"
    "       mytriton aot FILE --kernel NAME --signature SIG [--grid GX,GY,GZ]\n"
    "                [--num-warps N] [--num-stages S] [--arch sm_80,sm_90] [--backend cuda|host]\n"
    "                [--debug] [--checked] [--no-fp-fusion] -o OUT\n"
    "         writes OUT.h and OUT.c (host: OUT.cpp); the functions are named after\n"
    "         OUT's last component\n"
    "       mytriton aot-link A.h B.h ... -o OUT\n"
    "         writes OUT.h and OUT.c, a dispatcher over specialisations of one kernel\n"
    "--backend mlir (implied by --emit mlir): the MLIR backend; its ptx stage runs\n"
    "  mlir-opt, mlir-translate and llc\n"
    "--checked: checked mode, the host backend's text (compile) or files (aot\n"
    "  --backend host): bounds, division by zero, i32 index overflow\n"
    "--no-fp-fusion: Triton's enable_fp_fusion=False: no multiply-add contraction\n"
    "  in the GPU code (NVRTC --fmad=false)\n"
    "--backend cpu (implied by --emit cpu): the cpu backend; its cpu stage is the C\n"
    "  of one program, which the system C compiler builds\n"
    "SIG is Triton's AOT signature: one comma-separated entry per parameter:\n"
    "  *fp32 *i32 *i64 *i1 (pointers), fp32 i32 i64 i1 (scalars), or a literal\n"
    "  (256, -1.5, True, 'ieee', a tuple (4, 8)) for each tl.constexpr parameter\n"
    "STAGE (default ssa-opt) is one of:";

/* The usage text, then the stage names the library knows. */
static void print_usage(FILE *f) {
    fputs(usage, f);
    for (int s = 0; mt_stage_name((mt_stage)s); s++)
        fprintf(f, " %s", mt_stage_name((mt_stage)s));
    fputc('\n', f);
}

static char *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) { /* a directory, an I/O error */
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (cap - len - 1 == 0) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) {
        buf[len] = 0;
        *n = len;
    }
    return buf;
}

static int fail_usage(const char *msg, const char *arg) {
    fprintf(stderr, "mytriton: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    print_usage(stderr);
    return 2;
}

/* Writes n bytes to path; 0, or 1 after saying why not. */
static int write_out(const char *path, const char *text) {
    FILE *f = fopen(path, "wb");
    size_t n = strlen(text);
    if (!f || fwrite(text, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "mytriton: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

/* OUT's last component: the C name of the generated functions. */
static const char *base_name(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Writes OUT.h and OUT.<ext> from a generator's texts; frees them. */
static int write_pair(const char *out, char *h, char *c, const char *ext) {
    size_t n = strlen(out) + 8;
    char *path = malloc(n);
    int rc = 1;
    if (path) {
        snprintf(path, n, "%s.h", out);
        rc = write_out(path, h);
        snprintf(path, n, "%s.%s", out, ext);
        rc = rc || write_out(path, c);
    }
    free(path);
    free(h);
    free(c);
    return rc;
}

/* The options of `compile` and `aot` (each refuses the other's own). */
typedef struct Opts {
    const char *file, *kernel, *sig, *emit, *arch, *out, *grid;
    int num_warps, num_stages, debug, host, mlir, cpu, checked, no_fp_fusion;
} Opts;

/* Parses argv[3..]; 0, or the exit status of a usage error. */
static int parse_opts(int argc, char **argv, bool aot, Opts *o) {
    *o = (Opts){.file = argv[2], .emit = "ssa-opt", .num_warps = 4};
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--debug")) { /* Triton's debug mode: device asserts */
            o->debug = 1;
            continue;
        }
        if (!strcmp(a, "--checked")) { /* checked mode: the host backend's */
            o->checked = 1;
            continue;
        }
        if (!strcmp(a, "--no-fp-fusion")) {
            o->no_fp_fusion = 1;
            continue;
        }
        if (i + 1 >= argc)
            return fail_usage("missing value for option", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--kernel"))
            o->kernel = v;
        else if (!strcmp(a, "--signature"))
            o->sig = v;
        else if (!strcmp(a, "--arch"))
            o->arch = v;
        else if (!strcmp(a, "-o"))
            o->out = v;
        else if (!strcmp(a, "--emit") && !aot)
            o->emit = v;
        else if (!strcmp(a, "--grid") && aot)
            o->grid = v;
        else if (!strcmp(a, "--backend")) {
            if (strcmp(v, "cuda") != 0 && strcmp(v, aot ? "host" : "mlir") != 0 &&
                (aot || strcmp(v, "cpu") != 0))
                return fail_usage(aot ? "--backend must be cuda or host"
                                      : "--backend must be cuda, mlir or cpu", v);
            o->host = v[0] == 'h';
            o->mlir = v[0] == 'm';
            o->cpu = !strcmp(v, "cpu");
        } else if (!strcmp(a, "--num-warps")) {
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            if (*end || errno || n < 1 || n > 32 || (n & (n - 1)))
                return fail_usage("--num-warps must be a power of two from 1 to 32", v);
            o->num_warps = (int)n;
        } else if (!strcmp(a, "--num-stages")) {
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            if (*end || errno || n < 1 || n > 1000)
                return fail_usage("--num-stages must be an integer from 1 to 1000", v);
            o->num_stages = (int)n;
        } else
            return fail_usage("unknown option", a);
    }
    if (!o->kernel)
        return fail_usage("missing --kernel", NULL);
    if (!o->sig)
        return fail_usage("missing --signature", NULL);
    if (aot && !o->out)
        return fail_usage("missing -o", NULL);
    return 0;
}

/* The kernel file's text, or NULL after saying why not. */
static char *read_source(const char *file) {
    size_t n;
    char *src = read_file(file, &n);
    if (!src) {
        fprintf(stderr, "mytriton: cannot read '%s': %s\n", file, strerror(errno));
    } else if (strlen(src) != n) {
        fprintf(stderr, "%s:1:1: error: source contains a NUL byte\n", file);
        free(src);
        src = NULL;
    }
    return src;
}

static mt_compile_options compile_options(const Opts *o, const char *src) {
    mt_compile_options c = MT_COMPILE_OPTIONS_INIT;
    c.source = src;
    c.filename = o->file;
    c.kernel = o->kernel;
    c.signature = o->sig;
    c.num_warps = o->num_warps;
    c.num_stages = o->num_stages;
    c.debug = o->debug;
    c.checked = o->checked;
    c.no_fp_fusion = o->no_fp_fusion;
    return c;
}

static int cmd_aot(int argc, char **argv) {
    Opts o;
    int rc = parse_opts(argc, argv, true, &o);
    if (rc)
        return rc;
    char *src = read_source(o.file);
    mt_context *ctx;
    if (!src || mt_context_create(&ctx) != MT_OK) {
        free(src);
        return 1;
    }
    mt_compile_options c = compile_options(&o, src);
    mt_aot_options aot = MT_AOT_OPTIONS_INIT;
    aot.name = base_name(o.out);
    aot.archs = o.arch;
    aot.grid = o.grid;
    aot.host = o.host;
    char *h, *text;
    rc = 1;
    if (mt_aot_generate(ctx, &c, &aot, &h, &text) != MT_OK)
        fputs(mt_errmsg(ctx), stderr);
    else
        rc = write_pair(o.out, h, text, o.host ? "cpp" : "c");
    mt_context_destroy(ctx);
    free(src);
    return rc;
}

static int cmd_aot_link(int argc, char **argv) {
    const char *out = NULL;
    int n = 0, rc = 1;
    char **texts = calloc((size_t)argc, sizeof *texts);
    const char **names = calloc((size_t)argc, sizeof *names);
    mt_context *ctx = NULL;
    if (!texts || !names || mt_context_create(&ctx) != MT_OK)
        goto done;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (++i >= argc) {
                rc = fail_usage("missing value for option", "-o");
                goto done;
            }
            out = argv[i];
            continue;
        }
        size_t len;
        if (!(texts[n] = read_file(argv[i], &len))) {
            fprintf(stderr, "mytriton: cannot read '%s': %s\n", argv[i], strerror(errno));
            goto done;
        }
        names[n++] = base_name(argv[i]); /* the .c includes it beside itself */
    }
    if (!out || n == 0) {
        rc = fail_usage(!out ? "missing -o" : "aot-link needs at least one header", NULL);
        goto done;
    }
    char *h, *c;
    if (mt_aot_link(ctx, base_name(out), (const char *const *)texts, names, n, &h, &c) != MT_OK)
        fputs(mt_errmsg(ctx), stderr);
    else
        rc = write_pair(out, h, c, "c");
done:
    for (int i = 0; texts && i < n; i++)
        free(texts[i]);
    free(texts);
    free(names);
    mt_context_destroy(ctx);
    return rc;
}

int main(int argc, char **argv) {
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        print_usage(stdout);
        return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "aot"))
        return cmd_aot(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "aot-link"))
        return cmd_aot_link(argc, argv);
    if (argc < 3 || strcmp(argv[1], "compile") != 0)
        return fail_usage("expected 'compile FILE', 'aot FILE' or 'aot-link HEADERS'", NULL);
    Opts opt;
    int usage_rc = parse_opts(argc, argv, false, &opt);
    if (usage_rc)
        return usage_rc;
    const char *file = opt.file, *emit = opt.emit, *outpath = opt.out;
    int stage = -1;
    for (int s = 0; mt_stage_name((mt_stage)s); s++)
        if (!strcmp(emit, mt_stage_name((mt_stage)s)))
            stage = s;
    if (stage < 0)
        return fail_usage("unknown --emit stage", emit);

    char *src = read_source(file);
    if (!src)
        return 1;
    mt_context *ctx;
    if (mt_context_create(&ctx) != MT_OK) {
        fprintf(stderr, "mytriton: out of memory\n");
        free(src);
        return 1;
    }
    mt_compile_options o = compile_options(&opt, src);
    o.backend = opt.mlir || stage == MT_STAGE_MLIR ? MT_BACKEND_MLIR
                : opt.cpu || stage == MT_STAGE_CPU   ? MT_BACKEND_CPU
                                                     : MT_BACKEND_CUDA;
    if (opt.checked && !opt.mlir && !opt.cpu) /* its checks are the host's */
        o.backend = MT_BACKEND_HOST;
    o.arch = opt.arch ? opt.arch : "sm_90";
    o.stages_only = 1;
    mt_kernel *k = NULL;
    int rc = 0;
    const char *text = NULL;
    size_t len = 0;
    if (mt_compile(ctx, &o, &k) != MT_OK ||
        mt_kernel_stage(ctx, k, (mt_stage)stage, &text, &len) != MT_OK) {
        fputs(mt_errmsg(ctx), stderr);
        rc = 1;
    } else {
        FILE *out = outpath ? fopen(outpath, "wb") : stdout;
        if (!out) {
            fprintf(stderr, "mytriton: cannot write '%s': %s\n", outpath, strerror(errno));
            rc = 1;
        } else {
            fwrite(text, 1, len, out);
            if (stage != MT_STAGE_CUBIN && len && text[len - 1] != '\n')
                fputc('\n', out);
            if (fflush(out) != 0 || ferror(out) || (out != stdout && fclose(out) != 0)) {
                fprintf(stderr, "mytriton: cannot write '%s': %s\n",
                        outpath ? outpath : "standard output", strerror(errno));
                rc = 1;
            }
        }
    }
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
    free(src);
    return rc;
}
