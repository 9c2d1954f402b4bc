/* mt-opt: runs IR passes on an .ir file, like mlir-opt.
 *
 *   mt-opt [--pass NAME]... [-o OUT] FILE.ir
 *   mt-opt --list-passes
 *
 * Input: an .ir file (docs/ir.md: a function header and the body
 * irprint.c writes), read by ir_parse, which verifies it.  Each --pass
 * runs in order and is followed by ir_verify.  Output: the resulting
 * function as ir_print_func writes it, plus a newline.  Errors are the
 * library's located diagnostics on stderr.  Exit status: 0 on success, 1
 * on an error in the input or a pass, 2 on bad usage.
 *
 * It links the library's internals (-Isrc) as the unit tests do: passes
 * are internal interfaces, not public API.  A new pass is one row in
 * pass_table. */
#include "mt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct PassRow {
    const char *name;
    int (*run)(Func *);
    const char *what;
} pass_table[] = {
    {"verify", ir_verify, "check the SSA rules (the reader already has)"},
    {"fold", pass_fold, "constant folding and identities"},
    {"cse", pass_cse, "scoped common subexpression elimination"},
    {"dce", pass_dce, "dead ops, dead loops, dead carried values"},
    {"mem-order", pass_mem_order, "column loads and stores made row accesses of the transposed block"},
    {"pipeline-loads", pass_pipeline_loads, "a tl.range(num_stages >= 2) loop's loads one iteration ahead"},
    {"widen-fp8", pass_widen_fp8_dots, "fp8 dot operands as f16 but where wgmma takes fp8"},
    {"unbatch", pass_unbatch, "rank-3 values as their rank-2 slices (the CUDA lowering's)"},
    {"default", run_passes, "the compiler's list: fold, cse, dce"},
};
#define NPASSES (int)(sizeof pass_table / sizeof pass_table[0])

#define MAX_PASSES 64

static const char usage[] =
    "usage: mt-opt [--pass NAME]... [-o OUT] FILE.ir\n"
    "       mt-opt --list-passes\n";

static int fail_usage(const char *msg, const char *arg) {
    fprintf(stderr, "mt-opt: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", usage);
    return 2;
}

static const struct PassRow *find_pass(const char *name) {
    for (int i = 0; i < NPASSES; i++)
        if (!strcmp(pass_table[i].name, name))
            return &pass_table[i];
    return NULL;
}

static char *read_all(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    StrBuf sb;
    sb_init(&sb);
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&sb, buf, got);
    bool bad = ferror(f) || sb.failed;
    fclose(f);
    if (bad) {
        sb_free(&sb);
        errno = errno ? errno : EIO;
        return NULL;
    }
    *n = sb.len;
    if (!sb.data)
        return calloc(1, 1);
    return sb.data;
}

/* Parses, runs the passes, prints into out; 0 or -1 with c's error. */
static int run(Ctx *c, const struct PassRow **passes, int npasses, StrBuf *out) {
    Func *f = ir_parse(c);
    if (!f)
        return -1;
    for (int i = 0; i < npasses; i++)
        if (passes[i]->run(f) < 0 || ir_verify(f) < 0)
            return -1;
    ir_print_func(out, f);
    sb_putc(out, '\n');
    return out->failed ? diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory") : 0;
}

/* run() with the arena's out-of-memory jump landing here. */
static int run_guarded(Ctx *c, const struct PassRow **passes, int npasses,
                       StrBuf *out) {
    jmp_buf oom;
    c->arena->oom = &oom;
    int rc;
    if (setjmp(oom) == 0)
        rc = run(c, passes, npasses, out);
    else
        rc = diag_error(c, (Loc){0, 0}, MT_ERR_NOMEM, "out of memory");
    c->arena->oom = NULL;
    return rc;
}

int main(int argc, char **argv) {
    const struct PassRow *passes[MAX_PASSES];
    int npasses = 0;
    const char *file = NULL, *outpath = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(a, "--list-passes")) {
            for (int k = 0; k < NPASSES; k++)
                printf("%-10s %s\n", pass_table[k].name, pass_table[k].what);
            return 0;
        }
        if (!strcmp(a, "--pass") || !strcmp(a, "-o")) {
            if (i + 1 >= argc)
                return fail_usage("missing value for option", a);
            const char *v = argv[++i];
            if (a[1] == 'o') {
                outpath = v;
                continue;
            }
            if (!find_pass(v))
                return fail_usage("unknown pass (see --list-passes)", v);
            if (npasses == MAX_PASSES)
                return fail_usage("too many passes", v);
            passes[npasses++] = find_pass(v);
        } else if (a[0] == '-' && a[1]) {
            return fail_usage("unknown option", a);
        } else if (file) {
            return fail_usage("more than one input file", a);
        } else {
            file = a;
        }
    }
    if (!file)
        return fail_usage("missing input file", NULL);
    size_t n = 0;
    char *src = read_all(file, &n);
    if (!src) {
        fprintf(stderr, "mt-opt: cannot read '%s': %s\n", file, strerror(errno));
        return 1;
    }
    Ctx c;
    memset(&c, 0, sizeof c);
    c.arena = arena_new();
    c.filename = file;
    c.src = src;
    c.srclen = n;
    sb_init(&c.err);
    StrBuf out;
    sb_init(&out);
    int rc = c.arena ? run_guarded(&c, passes, npasses, &out) : -1;
    int status = 0;
    if (rc < 0) {
        fputs(c.arena ? sb_str(&c.err) : "mt-opt: out of memory\n", stderr);
        status = 1;
    } else {
        FILE *o = outpath ? fopen(outpath, "wb") : stdout;
        if (!o || fwrite(out.data, 1, out.len, o) != out.len ||
            (outpath ? fclose(o) : fflush(o)) != 0) {
            fprintf(stderr, "mt-opt: cannot write '%s': %s\n",
                    outpath ? outpath : "<stdout>", strerror(errno));
            status = 1;
        }
    }
    sb_free(&out);
    sb_free(&c.err);
    arena_free(c.arena);
    free(src);
    return status;
}
