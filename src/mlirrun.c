/* mlirrun.c: the MLIR backend's tools, its PTX cache and its launch ABI.
 *
 * Input: the module text of mlir.c and an arch ("sm_90").  Output: PTX
 * text, which the CUDA driver loads like a cubin (cuModuleLoadData JIT
 * compiles it).  The lowering is three processes, each reading and writing
 * files in a private temporary directory:
 *     mlir-opt        cse, canonicalize; per gpu.module: scf -> cf,
 *                     math -> llvm, gpu -> nvvm, canonicalize, cse
 *     mlir-translate  --mlir-to-llvmir (of the gpu.module's body)
 *     llc             -mtriple=nvptx64 -mcpu=<arch> -O3
 * The tools are found at run time as NVRTC is: MYTRITON_MLIR_BIN (a
 * directory), else the first directory on PATH that holds all three, else
 * /usr/lib/llvm-N/bin, newest first; all three come from one directory
 * (Debian's /usr/bin/llc may be an older LLVM than mlir-translate).  A
 * missing tool is an error naming it.  Each runs in its own process group
 * under MYTRITON_MLIR_TIMEOUT seconds (default 120; host.c's runner).
 *
 * Cache: the PTX is stored in the same disk cache as the CUDA path's
 * cubins, keyed by the backend, the pipeline's version (MLIR_PIPELINE
 * below), the arch and the module text, not by the tools' versions: a
 * machine without the tools (the GPU machine) runs PTX lowered elsewhere.
 *
 * ABI: mlir-opt's GPU lowering passes a memref<?xT> as its descriptor
 * (allocated pointer, aligned pointer, offset, size, stride);
 * mlir_launch_args builds that from the CUDA-style argument array. */
#include "mt.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Part of every cache key: bump it when the pipeline below changes. */
#define MLIR_PIPELINE                                                              \
    "builtin.module(cse,canonicalize,gpu.module(convert-scf-to-cf,"                \
    "convert-math-to-llvm,convert-gpu-to-nvvm,canonicalize,cse,"                   \
    "reconcile-unrealized-casts))"

static const char *const tools[] = {"mlir-opt", "mlir-translate", "llc"};

static bool executable(const char *dir, const char *name, char *buf, size_t n) {
    if (snprintf(buf, n, "%s/%s", dir, name) >= (int)n)
        return false;
    return access(buf, X_OK) == 0;
}

/* The directory holding all three tools, in dir; -1 when none. */
static int tool_dir(char *dir, size_t n) {
    char buf[4200];
    const char *env = getenv("MYTRITON_MLIR_BIN");
    if (env && *env) {
        snprintf(dir, n, "%s", env);
        return 0; /* the user's choice: a missing tool there is named */
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len && len < n) {
            snprintf(dir, n, "%.*s", (int)len, path);
            bool all = true;
            for (size_t i = 0; i < 3 && all; i++)
                all = executable(dir, tools[i], buf, sizeof buf);
            if (all)
                return 0;
        }
        path = end ? end + 1 : NULL;
    }
    for (int v = 30; v >= 17; v--) {
        snprintf(dir, n, "/usr/lib/llvm-%d/bin", v);
        if (executable(dir, tools[0], buf, sizeof buf))
            return 0;
    }
    return -1;
}

int mlir_find_tool(const char *name, char *buf, size_t n) {
    char dir[4096];
    if (tool_dir(dir, sizeof dir) < 0)
        return -1;
    return executable(dir, name, buf, n) ? 0 : -1;
}

static double timeout_seconds(void) {
    const char *s = getenv("MYTRITON_MLIR_TIMEOUT");
    double t = s && *s ? strtod(s, NULL) : 0;
    return t > 0 ? t : 120;
}

/* Runs one tool; on failure the original's "MLIR stage '<name>' failed:"
 * with the tool's output. */
static int run_stage(Ctx *c, const char *stage, char *const argv[]) {
    StrBuf out;
    sb_init(&out);
    int st = host_run_tool(argv, timeout_seconds(), &out);
    int rc = 0;
    if (st != 0) {
        const char *why = st == -3 ? "timed out and was killed" : "";
        rc = diag_error(c, (Loc){0, 0}, MT_ERR_UNSUPPORTED, "MLIR stage '%s' failed: %s%s",
                        stage, why, sb_str(&out));
    }
    sb_free(&out);
    return rc;
}

static int write_file(const char *path, const char *text, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(text, 1, n, f);
    return fclose(f) == 0 && w == n ? 0 : -1;
}

static int read_file(const char *path, StrBuf *out) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char buf[8192];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(out, buf, got);
    fclose(f);
    return out->failed ? -1 : 0;
}

/* mlir-translate reads a builtin module of llvm ops: the body of the
 * lowered gpu.module, whose braces mlir-opt prints on lines of their own
 * at its indentation. */
static int unwrap_gpu_module(const char *text, StrBuf *out) {
    const char *start = strstr(text, "gpu.module @kernels");
    if (!start)
        return -1;
    const char *line_start = start;
    while (line_start > text && line_start[-1] != '\n')
        line_start--;
    int indent = (int)(start - line_start);
    const char *body = strchr(start, '\n');
    if (!body)
        return -1;
    body++;
    char close[64];
    snprintf(close, sizeof close, "\n%*s}\n", indent, "");
    const char *end = strstr(body - 1, close);
    if (!end)
        return -1;
    sb_puts(out, "module {\n");
    sb_putn(out, body, (size_t)(end - body) + 1);
    sb_puts(out, "}\n");
    return 0;
}

static int lower(Ctx *c, const char *dir, const char *module, const char *arch, StrBuf *ptx) {
    char bin[4096], opt[4200], tr[4200], llc[4200];
    if (tool_dir(bin, sizeof bin) < 0)
        return diag_error(c, (Loc){0, 0}, MT_ERR_UNSUPPORTED,
                          "MLIR backend: 'mlir-opt' not found (set MYTRITON_MLIR_BIN to the "
                          "directory of mlir-opt, mlir-translate and llc, or install "
                          "mlir-19-tools and llvm-19)");
    char *paths[3] = {opt, tr, llc};
    for (int i = 0; i < 3; i++)
        if (!executable(bin, tools[i], paths[i], sizeof opt))
            return diag_error(c, (Loc){0, 0}, MT_ERR_UNSUPPORTED,
                              "MLIR backend: '%s' not found in %s (MYTRITON_MLIR_BIN names the "
                              "directory of mlir-opt, mlir-translate and llc)",
                              tools[i], bin);
    char in[4200], low[4200], llmod[4200], ll[4200], out[4200];
    snprintf(in, sizeof in, "%s/kernel.mlir", dir);
    snprintf(low, sizeof low, "%s/nvvm.mlir", dir);
    snprintf(llmod, sizeof llmod, "%s/llvm.mlir", dir);
    snprintf(ll, sizeof ll, "%s/kernel.ll", dir);
    snprintf(out, sizeof out, "%s/kernel.ptx", dir);
    if (write_file(in, module, strlen(module)) < 0)
        return diag_error(c, (Loc){0, 0}, MT_ERR_IO, "cannot write %s: %s", in, strerror(errno));
    char pipe[512], cpu[64];
    snprintf(pipe, sizeof pipe, "--pass-pipeline=%s", MLIR_PIPELINE);
    snprintf(cpu, sizeof cpu, "-mcpu=%s", arch);
    char *a1[] = {opt, pipe, in, "-o", low, NULL};
    if (run_stage(c, "mlir-opt", a1) < 0)
        return -1;
    StrBuf lowered, body;
    sb_init(&lowered);
    sb_init(&body);
    int rc = read_file(low, &lowered);
    if (rc == 0)
        rc = unwrap_gpu_module(sb_str(&lowered), &body);
    if (rc == 0)
        rc = write_file(llmod, body.data, body.len);
    sb_free(&lowered);
    sb_free(&body);
    if (rc < 0)
        return diag_error(c, (Loc){0, 0}, MT_ERR_INTERNAL,
                          "MLIR stage 'mlir-opt' failed: no gpu.module @kernels in its output");
    char *a2[] = {tr, "--mlir-to-llvmir", llmod, "-o", ll, NULL};
    if (run_stage(c, "mlir-translate", a2) < 0)
        return -1;
    char *a3[] = {llc, "-mtriple=nvptx64-nvidia-cuda", cpu, "-O3", ll, "-o", out, NULL};
    if (run_stage(c, "llc", a3) < 0)
        return -1;
    if (read_file(out, ptx) < 0)
        return diag_error(c, (Loc){0, 0}, MT_ERR_IO, "cannot read %s", out);
    return 0;
}

static void remove_dir(const char *dir) {
    static const char *const files[] = {"kernel.mlir", "nvvm.mlir", "llvm.mlir", "kernel.ll",
                                        "kernel.ptx"};
    char path[4200];
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        unlink(path);
    }
    rmdir(dir);
}

int mlir_ptx(Ctx *c, const char *module, const char *arch, StrBuf *ptx) {
    char key[33];
    StrBuf kb;
    sb_init(&kb);
    sb_printf(&kb, "mytriton mlir|%s|%s|%s", MLIR_PIPELINE, arch, module);
    cache_digest(kb.data, kb.len, key);
    sb_free(&kb);
    Arena *a = arena_new();
    char *cdir = a ? cache_dir(a) : NULL;
    void *hit = NULL;
    size_t n = 0;
    if (cdir && cache_get(cdir, key, "ptx", &hit, &n) == 0) {
        sb_putn(ptx, hit, n);
        free(hit);
        arena_free(a);
        return 0;
    }
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/mytriton-mlir-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int rc;
    if (!mkdtemp(dir)) {
        rc = diag_error(c, (Loc){0, 0}, MT_ERR_IO, "cannot make a temporary directory: %s",
                        strerror(errno));
    } else {
        rc = lower(c, dir, module, arch, ptx);
        remove_dir(dir);
    }
    if (rc == 0 && cdir)
        cache_put(cdir, key, "ptx", ptx->data, ptx->len);
    arena_free(a);
    return rc;
}

void mlir_launch_args(const Type *ptypes, int nparams, void **args, void **out,
                      int64_t *store) {
    int k = 0;
    for (int i = 0; i < nparams; i++) {
        if (!ptypes[i].is_ptr) {
            out[k++] = args[i];
            continue;
        }
        /* offset 0, size unknown to the launch (nothing reads it), stride 1 */
        store[3 * i] = 0;
        store[3 * i + 1] = INT64_MAX;
        store[3 * i + 2] = 1;
        out[k++] = args[i];
        out[k++] = args[i];
        out[k++] = &store[3 * i];
        out[k++] = &store[3 * i + 1];
        out[k++] = &store[3 * i + 2];
    }
}
