/* mytriton CLI: prints any stage of a kernel's compilation.
 *
 *   mytriton compile FILE --kernel NAME --signature SIG
 *            [--emit STAGE] [--num-warps N] [--backend cuda|mlir]
 *            [--arch sm_90] [--debug] [-o OUT]
 *
 * It uses only the public API (include/mytriton.h): the library produces
 * every diagnostic, the CLI prints it.  Exit status: 0 on success, 1 on a
 * compilation error, 2 on bad command-line usage. */
#include "../include/mytriton.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: mytriton compile FILE --kernel NAME --signature SIG\n"
    "                [--emit STAGE] [--num-warps N] [--backend cuda|mlir]\n"
    "                [--arch sm_XY] [--debug] [-o OUT]\n"
    "--backend mlir (implied by --emit mlir): the MLIR backend; its ptx stage runs\n"
    "  mlir-opt, mlir-translate and llc\n"
    "SIG is Triton's AOT signature: one comma-separated entry per parameter:\n"
    "  *fp32 *i32 *i64 *i1 (pointers), fp32 i32 i64 i1 (scalars), or a literal\n"
    "  (256, -1.5, True, 'ieee') for each tl.constexpr parameter\n"
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

int main(int argc, char **argv) {
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        print_usage(stdout);
        return 0;
    }
    if (argc < 3 || strcmp(argv[1], "compile") != 0)
        return fail_usage("expected 'compile FILE'", NULL);
    const char *file = argv[2], *kernel = NULL, *sig = NULL, *emit = "ssa-opt";
    const char *arch = NULL, *outpath = NULL, *backend = "cuda";
    int num_warps = 4, debug = 0;
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--debug")) { /* Triton's debug mode: device asserts */
            debug = 1;
            continue;
        }
        if (i + 1 >= argc)
            return fail_usage("missing value for option", a);
        const char *v = argv[++i];
        if (!strcmp(a, "--kernel"))
            kernel = v;
        else if (!strcmp(a, "--signature"))
            sig = v;
        else if (!strcmp(a, "--emit"))
            emit = v;
        else if (!strcmp(a, "--arch"))
            arch = v;
        else if (!strcmp(a, "-o"))
            outpath = v;
        else if (!strcmp(a, "--backend")) {
            if (strcmp(v, "cuda") && strcmp(v, "mlir"))
                return fail_usage("--backend must be cuda or mlir", v);
            backend = v;
        }
        else if (!strcmp(a, "--num-warps")) {
            char *end;
            errno = 0;
            long n = strtol(v, &end, 10);
            if (*end || errno || n < 1 || n > 32 || (n & (n - 1)))
                return fail_usage("--num-warps must be a power of two from 1 to 32", v);
            num_warps = (int)n;
        } else
            return fail_usage("unknown option", a);
    }
    if (!kernel)
        return fail_usage("missing --kernel", NULL);
    if (!sig)
        return fail_usage("missing --signature", NULL);
    int stage = -1;
    for (int s = 0; mt_stage_name((mt_stage)s); s++)
        if (!strcmp(emit, mt_stage_name((mt_stage)s)))
            stage = s;
    if (stage < 0)
        return fail_usage("unknown --emit stage", emit);

    size_t n;
    char *src = read_file(file, &n);
    if (!src) {
        fprintf(stderr, "mytriton: cannot read '%s': %s\n", file, strerror(errno));
        return 1;
    }
    if (strlen(src) != n) {
        fprintf(stderr, "%s:1:1: error: source contains a NUL byte\n", file);
        free(src);
        return 1;
    }
    mt_context *ctx;
    if (mt_context_create(&ctx) != MT_OK) {
        fprintf(stderr, "mytriton: out of memory\n");
        free(src);
        return 1;
    }
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = src;
    o.filename = file;
    o.kernel = kernel;
    o.signature = sig;
    o.num_warps = num_warps;
    o.debug = debug;
    o.backend = !strcmp(backend, "mlir") || stage == MT_STAGE_MLIR ? MT_BACKEND_MLIR
                                                                   : MT_BACKEND_CUDA;
    o.arch = arch ? arch : "sm_90";
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
