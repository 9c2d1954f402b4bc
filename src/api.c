/* api.c: the public C API: handles, caches and errors.
 *
 * mt_compile checks its options, looks the kernel up in the context's
 * cache, and otherwise runs the compiler (pipeline_run in pipeline.c)
 * and builds it for its backend (host.c, or NVRTC through cudart.c,
 * with the cubin cached on disk by cache.c).
 *
 * An mt_context owns: the last error, the in-memory kernel cache (keyed by
 * a digest of source, kernel name, signature, globals, num_warps, backend
 * and arch) and, once CUDA is first needed, the dlopen'ed driver.  Each
 * compilation has its own Ctx and Arena, freed when mt_compile returns;
 * what a kernel keeps (printed stages, parameter types, the loaded module)
 * is copied to the heap and owned by the mt_kernel.  Out of memory inside
 * the compiler longjmps back here (the arena's oom buffer), never further
 * than this file. */
#include "mt.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mt_kernel {
    char key[33];
    int refs;                 /* the cache's reference + one per mt_compile */
    char *name;
    mt_backend backend;
    int num_warps;
    int nparams;
    Type *ptypes;             /* runtime parameters' types */
    char **pnames;
    char *text[MT_NSTAGES];
    size_t textlen[MT_NSTAGES];
    char *arch;
    size_t shared_bytes;
    bool wgmma;               /* its text uses sm_90a's wgmma */
    bool fmad;                /* NVRTC may contract into FMAs (enable_fp_fusion) */
    bool launchable;          /* built for its backend (not stages_only) */
    char *cuda_refusal;       /* cpu backend: why it has no CUDA stages */
    mt_context *ctx;          /* the context that made it */
    HostModule *host;
    CudaModules *cuda;        /* one module per CUDA context it ran in */
    mt_kernel *next;          /* cache list */
};

struct mt_context {
    StrBuf err;
    mt_status status;
    Loc err_loc;
    char *err_file;
    CudaDriver *cuda;
    CudaDriver *nvrtc;        /* NVRTC alone, for PTX of a given arch */
    bool cuda_tried;
    mt_status cuda_status;
    StrBuf cuda_err;          /* why CUDA could not be opened */
    mt_kernel *kernels;       /* in-memory cache */
    locale_t c_locale;        /* "C": numbers read and print the same anywhere */
    HostStacks *host_stacks;  /* host launches: their lock and kept stacks */
    char *cache_warning;      /* why the disk cache is refused (issue 15) */
    bool cache_reported;      /* mt_cache_warning has handed it over */
};

int mt_version(void) { return MT_API_VERSION; }

/* The backends that run on the CPU, on host pointers: the fiber backend
 * (the CUDA C) and the cpu backend (cpu.c's C); both launch through
 * host_launch on the context's worker pool. */
static bool on_host(mt_backend b) { return b == MT_BACKEND_HOST || b == MT_BACKEND_CPU; }

const char *mt_status_name(mt_status s) {
    static const char *const names[] = {
        "MT_OK", "MT_ERR_SYNTAX", "MT_ERR_NAME", "MT_ERR_TYPE", "MT_ERR_VERIFY",
        "MT_ERR_UNSUPPORTED", "MT_ERR_SIGNATURE", "MT_ERR_ARG", "MT_ERR_RESOURCE",
        "MT_ERR_NOMEM", "MT_ERR_NO_CUDA", "MT_ERR_NVRTC", "MT_ERR_CUDA",
        "MT_ERR_HOST_CC", "MT_ERR_IO", "MT_ERR_INTERNAL", "MT_ERR_ASSERT",
        "MT_ERR_CHECK"};
    if ((unsigned)s < sizeof names / sizeof names[0])
        return names[s];
    return "MT_ERR_UNKNOWN";
}

mt_status mt_context_create(mt_context **out) {
    if (!out)
        return MT_ERR_ARG;
    *out = calloc(1, sizeof **out);
    if (!*out)
        return MT_ERR_NOMEM;
    (*out)->c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    (*out)->host_stacks = host_stacks_new();
    if (!(*out)->host_stacks) {
        if ((*out)->c_locale)
            freelocale((*out)->c_locale);
        free(*out);
        *out = NULL;
        return MT_ERR_NOMEM;
    }
    return MT_OK;
}

static void kernel_free(mt_kernel *k) {
    if (!k)
        return;
    if (k->host)
        host_module_free(k->host);
    cuda_modules_free(k->ctx ? k->ctx->cuda : NULL, k->cuda);
    for (int i = 0; i < k->nparams; i++)
        free(k->pnames[i]);
    free(k->pnames);
    free(k->ptypes);
    for (int s = 0; s < MT_NSTAGES; s++)
        free(k->text[s]);
    free(k->arch);
    free(k->name);
    free(k->cuda_refusal);
    free(k);
}

void mt_context_destroy(mt_context *ctx) {
    if (!ctx)
        return;
    mt_kernel *k = ctx->kernels;
    while (k) {
        mt_kernel *next = k->next;
        kernel_free(k);
        k = next;
    }
    host_stacks_free(ctx->host_stacks);
    if (ctx->cuda)
        cuda_driver_close(ctx->cuda);
    if (ctx->nvrtc)
        cuda_driver_close(ctx->nvrtc);
    sb_free(&ctx->err);
    sb_free(&ctx->cuda_err);
    free(ctx->err_file);
    free(ctx->cache_warning);
    if (ctx->c_locale)
        freelocale(ctx->c_locale);
    free(ctx);
}

const char *mt_errmsg(const mt_context *ctx) {
    if (!ctx)
        return "no context";
    return ctx->err.data ? ctx->err.data : "";
}

void mt_error_loc(const mt_context *ctx, const char **file, int *line, int *col) {
    if (file)
        *file = ctx && ctx->err_file ? ctx->err_file : "";
    if (line)
        *line = ctx ? ctx->err_loc.line : 0;
    if (col)
        *col = ctx ? ctx->err_loc.col : 0;
}

static void clear_error(mt_context *ctx) {
    sb_clear(&ctx->err);
    ctx->status = MT_OK;
    ctx->err_loc = (Loc){0, 0};
    free(ctx->err_file);
    ctx->err_file = NULL;
}

static mt_status set_error(mt_context *ctx, mt_status st, const char *fmt, ...)
    MT_PRINTF(3, 4);
static mt_status set_error(mt_context *ctx, mt_status st, const char *fmt, ...) {
    clear_error(ctx);
    va_list ap;
    va_start(ap, fmt);
    sb_puts(&ctx->err, "error: ");
    sb_vprintf(&ctx->err, fmt, ap);
    sb_putc(&ctx->err, '\n');
    va_end(ap);
    ctx->status = st;
    return st;
}

/* Copies a Ctx's error into the context. */
static mt_status take_error(mt_context *ctx, Ctx *c) {
    clear_error(ctx);
    mt_status st = c->status == MT_OK ? MT_ERR_INTERNAL : c->status;
    sb_puts(&ctx->err, c->err.failed ? "error: out of memory\n" : sb_str(&c->err));
    ctx->status = st;
    ctx->err_loc = c->err_loc;
    if (c->filename)
        ctx->err_file = strdup(c->filename);
    return st;
}

mt_status api_take_error(mt_context *ctx, Ctx *c) { return take_error(ctx, c); }

static void ctx_init(Ctx *c, Arena *a, const char *filename, const char *src) {
    memset(c, 0, sizeof *c);
    c->arena = a;
    c->filename = filename;
    c->src = src;
    c->srclen = src ? strlen(src) : 0;
    sb_init(&c->err);
}

/* Opens the driver once per context; the failure is remembered. */
static CudaDriver *need_cuda(mt_context *ctx) {
    if (!ctx->cuda_tried) {
        ctx->cuda_tried = true;
        Ctx c;
        ctx_init(&c, NULL, NULL, NULL);
        ctx->cuda = cuda_driver_open(&c);
        if (!ctx->cuda) {
            ctx->cuda_status = c.status == MT_OK ? MT_ERR_NO_CUDA : c.status;
            sb_puts(&ctx->cuda_err, sb_str(&c.err));
        }
        sb_free(&c.err);
    }
    if (!ctx->cuda) {
        clear_error(ctx);
        sb_puts(&ctx->err, sb_str(&ctx->cuda_err));
        ctx->status = ctx->cuda_status;
    }
    return ctx->cuda;
}

int mt_cuda_available(mt_context *ctx) {
    if (!ctx)
        return 0;
    CudaDriver *d = need_cuda(ctx);
    if (d)
        clear_error(ctx);
    else
        clear_error(ctx);
    return d && cuda_driver_has_device(d);
}

static const Loc no_loc = {0, 0};

/* Bumped whenever the generated code, the NVRTC options or the runtime
 * NVRTC pre-includes (mt_kernel_rt.h) change, so that on-disk cubins of an
 * older mytriton are never reused.  cg4: every dtype, wrapping signed
 * arithmetic, mt_kernel_rt.h.  cg5: the math set and Philox in
 * mt_kernel_rt.h, maximum/minimum ignoring NaN as Triton's default,
 * float % as Triton's frem.  cg6: tensor-core dots (mma.sync), TF32
 * rounding in mt_kernel_rt.h; integer // % << >> through the runtime's
 * mt_div/mt_rem/mt_shl/mt_shr, wrapping ops on 8/16-bit integers,
 * integer abs and sum in unsigned int (issue 15).  cg7: cp.async tiles,
 * mask groups, Triton's fp32 instructions.  cg8: no __restrict__.  cg14:
 * predicated vector loads.  cg15: registers fitted to an occupancy step.
 * cg16: reductions in Triton's order; tl.reduce along a rank-3 batch dim.
 * cg17: tl.range(num_stages=) loops load one iteration ahead.  cg18:
 * libdevice's functions (mt_libdevice_rt.h).  cg19: libdevice's fp32
 * functions flush subnormals (mt_ftzf). */
#define MT_CODEGEN_VERSION "cg19"


/* Every field is length-prefixed, so no two option sets share a text. */
static void key_field(StrBuf *sb, const char *s) {
    s = s ? s : "";
    sb_printf(sb, "%zu:", strlen(s));
    sb_puts(sb, s);
}

static void make_key(const mt_compile_options *o, int num_warps, const char *arch,
                     char out[33]) {
    StrBuf sb;
    sb_init(&sb);
    sb_printf(&sb, "mytriton %d %s|%d|%d|%d|%d|%d|", MT_API_VERSION, MT_CODEGEN_VERSION,
              num_warps, (int)o->backend, o->stages_only, o->debug != 0,
              o->num_stages ? o->num_stages : 3);
    if (o->checked) /* a separate specialisation; unchecked keys stay as they were */
        sb_puts(&sb, "checked|");
    if (o->no_fp_fusion)
        sb_puts(&sb, "no_fp_fusion|");
    if (o->fp32_default) {
        sb_puts(&sb, "fp32_default|");
        key_field(&sb, o->fp32_default);
    }
    key_field(&sb, o->kernel);
    key_field(&sb, o->signature);
    key_field(&sb, o->filename);
    key_field(&sb, arch);
    for (int i = 0; i < o->nglobals; i++) {
        key_field(&sb, o->globals[i].name);
        key_field(&sb, o->globals[i].value);
    }
    key_field(&sb, o->source);
    cache_digest(sb.data, sb.len, out);
    sb_free(&sb);
}

/* The public enum is the internal one shifted by DT_VOID. */
_Static_assert(DT_I1 == MT_DTYPE_I1 + 1 && DT_F64 == MT_DTYPE_FP64 + 1 &&
                   DT_COUNT == MT_DTYPE_COUNT + 1,
               "mt_dtype and DType must stay in step");

static mt_param_type param_type_of(Type t) {
    static const struct { uint8_t dtype, is_ptr; mt_param_type p; } legacy[] = {
        {DT_F32, 1, MT_PARAM_PTR_F32}, {DT_I32, 1, MT_PARAM_PTR_I32},
        {DT_I1, 1, MT_PARAM_PTR_I1},   {DT_I64, 1, MT_PARAM_PTR_I64},
        {DT_I32, 0, MT_PARAM_I32},     {DT_I64, 0, MT_PARAM_I64},
        {DT_F32, 0, MT_PARAM_F32},     {DT_I1, 0, MT_PARAM_I1},
    };
    for (size_t i = 0; i < sizeof legacy / sizeof *legacy; i++)
        if (legacy[i].dtype == t.dtype && legacy[i].is_ptr == t.is_ptr)
            return legacy[i].p;
    return MT_PARAM_OTHER;
}

/* The C type the host trampoline reads an argument as (the kernel's
 * parameter type, see cuda.c), written into buf. */
static const char *param_ctype(Type t, char buf[32]) {
    const char *m = t.dtype == DT_I1 && !t.is_ptr ? "bool" : dtype_mtype((DType)t.dtype);
    snprintf(buf, 32, "%s%s", m, t.is_ptr ? "*" : "");
    return buf;
}

/* NVRTC's architecture for k: wgmma exists only in sm_90a's
 * architecture-specific set, which runs on sm_90 devices alone. */
static const char *nvrtc_arch(const mt_kernel *k, const char *arch) {
    return k->wgmma && !strcmp(arch, "sm_90") ? "sm_90a" : arch;
}

static char *dup_sb(StrBuf *sb, size_t *len) {
    if (len)
        *len = sb->len;
    char *p = malloc(sb->len + 1);
    if (p) {
        memcpy(p, sb_str(sb), sb->len);
        p[sb->len] = 0;
    }
    return p;
}

/* The pipeline's stage snapshots, copied into the kernel. */
static void keep_stage(void *user, mt_stage stage, const char *text, size_t len) {
    mt_kernel *k = user;
    free(k->text[stage]);
    k->text[stage] = NULL;
    if (!text)
        return;
    k->text[stage] = malloc(len + 1);
    if (k->text[stage]) {
        memcpy(k->text[stage], text, len);
        k->text[stage][len] = 0;
        k->textlen[stage] = len;
    }
}

/* tl.static_print's text when the caller gives no sink: stdout, as
 * Python's print. */
static void print_stdout(void *user, const char *text) {
    (void)user;
    fputs(text, stdout);
    fflush(stdout);
}

/* Runs the compiler front to back into k; returns 0 or -1 with c's error. */
static int compile_stages(Ctx *c, const mt_compile_options *o, int num_warps, int sm,
                          mt_kernel *k) {
    PipelineInput in = {o->kernel, o->signature, o->globals, o->nglobals, num_warps,
                        o->num_stages, sm, o->debug != 0,
                        o->print ? o->print : print_stdout, o->print_user,
                        o->backend == MT_BACKEND_MLIR, o->checked != 0,
                        o->backend == MT_BACKEND_CPU, false,
                        dot_precision_of(o->fp32_default) + 1, o->backend == MT_BACKEND_HOST};
    StageSink sink = {keep_stage, k};
    Func *f = pipeline_run(c, &in, &sink);
    if (!f)
        return -1;
    bool cpu = o->backend == MT_BACKEND_CPU, no_cuda = in.no_cuda || f->cuda_refusal;
    if (f->cuda_refusal && !(k->cuda_refusal = strdup(f->cuda_refusal)))
        return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory");
    for (int s = 0; s < MT_NSTAGES; s++) /* all but NVRTC's, made on demand */
        if (!k->text[s] && s != MT_STAGE_PTX && s != MT_STAGE_CUBIN &&
            (s != MT_STAGE_MLIR || o->backend == MT_BACKEND_MLIR) &&
            (s != MT_STAGE_CPU || cpu) &&
            !(no_cuda && (s == MT_STAGE_CUDA || s == MT_STAGE_SSA_LAYOUT)))
            return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory");
    k->shared_bytes = (size_t)f->shared_bytes;
    k->wgmma = f->wgmma;
    k->fmad = !o->no_fp_fusion;
    k->nparams = f->nparams;
    k->ptypes = calloc((size_t)f->nparams + 1, sizeof *k->ptypes);
    k->pnames = calloc((size_t)f->nparams + 1, sizeof *k->pnames);
    if (!k->ptypes || !k->pnames)
        return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory");
    for (int i = 0; i < f->nparams; i++) {
        Value *v = val(f, f->params[i]);
        k->ptypes[i] = v->type;
        k->pnames[i] = strdup(v->name);
    }
    return 0;
}

/* Notes, once per context, that the disk cache was refused as untrusted:
 * a build then always compiles, which the user should hear about. */
static void note_untrusted_cache(mt_context *ctx, const char *sub) {
    if (ctx->cache_warning)
        return;
    Arena *a = arena_new();
    const char *why = a ? cache_untrusted(a, sub) : NULL;
    if (why)
        ctx->cache_warning = strdup(why);
    arena_free(a);
}

const char *mt_cache_warning(mt_context *ctx) {
    if (!ctx || !ctx->cache_warning || ctx->cache_reported)
        return NULL;
    ctx->cache_reported = true;
    return ctx->cache_warning;
}

/* The MLIR backend's PTX (mlirrun.c: cached, else the tools), for the
 * given arch or the current device's; the driver loads it at launch. */
static int build_mlir(mt_context *ctx, Ctx *c, const mt_compile_options *o, mt_kernel *k) {
    char arch[16];
    if (o->arch) {
        snprintf(arch, sizeof arch, "%s", o->arch);
    } else {
        CudaDriver *d = need_cuda(ctx);
        if (!d)
            return diag_error(c, no_loc, ctx->status, "%s", sb_str(&ctx->cuda_err));
        if (cuda_device_arch_at(c, d, o->device - 1, arch) < 0)
            return -1;
    }
    if (!k->arch)
        k->arch = strdup(arch);
    StrBuf ptx;
    sb_init(&ptx);
    int rc = mlir_ptx(c, k->text[MT_STAGE_MLIR], arch, &ptx);
    if (rc == 0 && !(k->text[MT_STAGE_PTX] = dup_sb(&ptx, &k->textlen[MT_STAGE_PTX])))
        rc = diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory");
    sb_free(&ptx);
    return rc;
}

static mt_status build_backend(mt_context *ctx, const mt_compile_options *o,
                               mt_kernel *k) {
    Ctx c;
    ctx_init(&c, NULL, o->filename, o->source);
    int rc = 0;
    if (on_host(k->backend)) {
        const char **ctypes = calloc((size_t)k->nparams + 1, sizeof *ctypes);
        char (*bufs)[32] = calloc((size_t)k->nparams + 1, sizeof *bufs);
        if (!ctypes || !bufs) {
            free(ctypes);
            free(bufs);
            return set_error(ctx, MT_ERR_NOMEM, "out of memory");
        }
        for (int i = 0; i < k->nparams; i++)
            ctypes[i] = param_ctype(k->ptypes[i], bufs[i]);
        if (k->backend == MT_BACKEND_CPU)
            rc = cpu_build(&c, k->text[MT_STAGE_CPU], k->name, (const char *const *)ctypes,
                           k->nparams, &k->host);
        else
            rc = host_build(&c, k->text[MT_STAGE_CUDA], k->name,
                            (const char *const *)ctypes, k->nparams, &k->host);
        free(ctypes);
        free(bufs);
        note_untrusted_cache(ctx, k->backend == MT_BACKEND_CPU ? "cpu" : "host");
    } else if (k->backend == MT_BACKEND_MLIR) {
        rc = build_mlir(ctx, &c, o, k);
        if (rc == 0 && !(k->cuda = cuda_modules_new())) /* its modules, per device */
            rc = diag_error(&c, no_loc, MT_ERR_NOMEM, "out of memory");
    } else {
        CudaDriver *d = need_cuda(ctx);
        if (!d) {
            sb_free(&c.err);
            return ctx->status;
        }
        char arch[16];
        if (o->arch) {
            snprintf(arch, sizeof arch, "%s", o->arch);
        } else if (cuda_device_arch_at(&c, d, o->device - 1, arch) < 0) {
            rc = -1;
        }
        if (rc == 0 && !(k->cuda = cuda_modules_new()))
            rc = diag_error(&c, no_loc, MT_ERR_NOMEM, "out of memory");
        if (rc == 0) {
            if (!k->arch)
                k->arch = strdup(arch);
            char key[33];
            StrBuf kb;
            sb_init(&kb);
            sb_printf(&kb, "mytriton %d %s|%s|%s|%s", MT_API_VERSION, MT_CODEGEN_VERSION,
                      k->text[MT_STAGE_CUDA], arch, nvrtc_version(d));
            cache_digest(kb.data, kb.len, key);
            sb_free(&kb);
            Arena *a = arena_new();
            char *dir = a ? cache_dir(a) : NULL;
            void *bin = NULL;
            size_t n = 0;
            if (dir && cache_get(dir, key, "cubin", &bin, &n) == 0 &&
                !(n >= 4 && !memcmp(bin, "\177ELF", 4))) {
                free(bin); /* truncated or foreign entry: compile again */
                bin = NULL;
            }
            if (bin) {
                k->text[MT_STAGE_CUBIN] = bin;
                k->textlen[MT_STAGE_CUBIN] = n;
            } else {
                StrBuf cubin;
                sb_init(&cubin);
                rc = nvrtc_compile_kernel(&c, d, k->text[MT_STAGE_CUDA], nvrtc_arch(k, arch),
                                          k->fmad, k->shared_bytes, &cubin, NULL);
                if (rc == 0) {
                    k->text[MT_STAGE_CUBIN] = dup_sb(&cubin, &k->textlen[MT_STAGE_CUBIN]);
                    if (dir)
                        cache_put(dir, key, "cubin", cubin.data, cubin.len);
                }
                sb_free(&cubin);
            }
            arena_free(a);
            if (!dir)
                note_untrusted_cache(ctx, NULL);
        }
    }
    if (rc < 0) {
        mt_status st = take_error(ctx, &c);
        sb_free(&c.err);
        return st;
    }
    sb_free(&c.err);
    k->launchable = true;
    return MT_OK;
}

/* The compute capability an arch names ("sm_90", "sm_90a",
 * "compute_90": 90), 0 for none or "" (the host backend's own text). */
static int arch_sm(const char *arch) {
    const char *p = !strncmp(arch, "sm_", 3) ? arch + 3
                    : !strncmp(arch, "compute_", 8) ? arch + 8 : NULL;
    int sm = 0;
    while (p && *p >= '0' && *p <= '9' && sm < 10000)
        sm = sm * 10 + (*p++ - '0');
    return sm;
}

static mt_status compile_impl(mt_context *ctx, const mt_compile_options *o,
                              mt_kernel **out);

/* Number parsing (strtod) and printing (snprintf %e) follow the thread's
 * locale: under a comma-decimal locale "1.5" would read as 1.0.  The
 * compiler runs in the "C" locale, set for this thread only. */
mt_status mt_compile(mt_context *ctx, const mt_compile_options *o, mt_kernel **out) {
    if (!ctx)
        return MT_ERR_ARG;
    if (o && o->size != sizeof *o)
        return set_error(ctx, MT_ERR_ARG,
                         "mt_compile_options.size is %zu, this library's is %zu: "
                         "start from MT_COMPILE_OPTIONS_INIT and build against the "
                         "mytriton.h of the library you link (API version %d)",
                         o->size, sizeof *o, MT_API_VERSION);
    locale_t old = ctx->c_locale ? uselocale(ctx->c_locale) : (locale_t)0;
    mt_status st = compile_impl(ctx, o, out);
    if (old)
        uselocale(old);
    return st;
}

static mt_status compile_impl(mt_context *ctx, const mt_compile_options *o,
                              mt_kernel **out) {
    if (!out || !o || !o->source || !o->kernel || !o->signature)
        return set_error(ctx, MT_ERR_ARG,
                         "mt_compile needs options with source, kernel and signature");
    *out = NULL;
    int num_warps = o->num_warps ? o->num_warps : 4; /* checked by the resource pass */
    if (o->backend != MT_BACKEND_HOST && o->backend != MT_BACKEND_CUDA &&
        o->backend != MT_BACKEND_MLIR && o->backend != MT_BACKEND_CPU)
        return set_error(ctx, MT_ERR_ARG, "unknown backend %d", (int)o->backend);
    if (o->checked && o->backend != MT_BACKEND_HOST)
        return set_error(ctx, MT_ERR_ARG, "checked mode runs on the host backend only "
                                          "(kernel '%s' was asked for the %s backend)",
                         o->kernel ? o->kernel : "",
                         o->backend == MT_BACKEND_CUDA  ? "CUDA"
                         : o->backend == MT_BACKEND_CPU ? "cpu"
                                                        : "MLIR");
    if (o->no_fp_fusion && o->backend == MT_BACKEND_MLIR)
        return set_error(ctx, MT_ERR_UNSUPPORTED,
                         "enable_fp_fusion=False is not supported by the MLIR backend (kernel "
                         "'%s'): llc may contract multiplies and adds",
                         o->kernel ? o->kernel : "");
    if (o->fp32_default && dot_precision_of(o->fp32_default) < 0)
        return set_error(ctx, MT_ERR_ARG,
                         "fp32_default must be one of 'tf32', 'tf32x3', 'ieee', 'bf16x3', "
                         "'bf16x6', got '%s'",
                         o->fp32_default);
    for (int i = 0; i < o->nglobals; i++)
        if (!o->globals || !o->globals[i].name || !o->globals[i].value)
            return set_error(ctx, MT_ERR_ARG, "global %d has no name or value", i);
    /* The CUDA backend without an explicit arch compiles for the given
     * device (o->device - 1), else the current one: its arch is part of
     * the key, so devices of another architecture do not share a kernel
     * built for the first one (devices of one architecture do: a kernel
     * loads one module per device it runs on). */
    char dev_arch[16] = "";
    if (!on_host(o->backend) && !o->arch && !o->stages_only) {
        CudaDriver *d = need_cuda(ctx);
        if (!d)
            return ctx->status;
        Ctx ac;
        ctx_init(&ac, NULL, NULL, NULL);
        int arc = cuda_device_arch_at(&ac, d, o->device - 1, dev_arch);
        mt_status st = arc < 0 ? take_error(ctx, &ac) : MT_OK;
        sb_free(&ac.err);
        if (arc < 0)
            return st;
    }
    char key[33];
    make_key(o, num_warps, o->arch ? o->arch : dev_arch, key);
    for (mt_kernel *k = ctx->kernels; k; k = k->next)
        if (!strcmp(k->key, key)) {
            k->refs++;
            *out = k;
            clear_error(ctx);
            return MT_OK;
        }

    mt_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return set_error(ctx, MT_ERR_NOMEM, "out of memory");
    memcpy(k->key, key, sizeof key);
    k->name = strdup(o->kernel);
    k->backend = o->backend;
    k->num_warps = num_warps;
    k->ctx = ctx;
    k->arch = o->arch ? strdup(o->arch) : NULL;

    Arena *arena = arena_new();
    if (!arena || !k->name) {
        arena_free(arena);
        kernel_free(k);
        return set_error(ctx, MT_ERR_NOMEM, "out of memory");
    }
    jmp_buf oom;
    Ctx c;
    ctx_init(&c, arena, o->filename ? o->filename : "<kernel>", o->source);
    arena->oom = &oom;
    volatile int rc;
    if (setjmp(oom) == 0)
        rc = compile_stages(&c, o, num_warps, arch_sm(o->arch ? o->arch : dev_arch), k);
    else
        rc = diag_error(&c, no_loc, MT_ERR_NOMEM, "out of memory while compiling");
    arena->oom = NULL;
    if (rc < 0) {
        take_error(ctx, &c);
        sb_free(&c.err);
        arena_free(arena);
        kernel_free(k);
        return ctx->status;
    }
    sb_free(&c.err);
    arena_free(arena);

    if (!o->stages_only) {
        mt_status st = build_backend(ctx, o, k);
        if (st != MT_OK) {
            kernel_free(k);
            return st;
        }
    }
    k->refs = 2;
    k->next = ctx->kernels;
    ctx->kernels = k;
    clear_error(ctx);
    *out = k;
    return MT_OK;
}

void mt_kernel_destroy(mt_kernel *k) {
    /* The context's cache keeps its reference; memory goes with the
     * context, so a destroyed handle that is compiled again is a hit. */
    if (k && k->refs > 1)
        k->refs--;
}

mt_status mt_kernel_stage(mt_context *ctx, mt_kernel *k, mt_stage stage,
                          const char **text, size_t *len) {
    if (!ctx)
        return MT_ERR_ARG;
    if (!k || !text || !mt_stage_name(stage))
        return set_error(ctx, MT_ERR_ARG, "mt_kernel_stage: bad arguments");
    if (k->ctx != ctx)
        return set_error(ctx, MT_ERR_ARG, "kernel '%s' belongs to another context",
                         k->name);
    if (stage == MT_STAGE_CPU && k->backend != MT_BACKEND_CPU)
        return set_error(ctx, MT_ERR_ARG, "kernel '%s' was not compiled for the cpu backend: "
                                          "it has no C of it", k->name);
    if (stage == MT_STAGE_MLIR && k->backend != MT_BACKEND_MLIR)
        return set_error(ctx, MT_ERR_ARG, "kernel '%s' was not compiled for the MLIR backend: "
                                          "it has no MLIR module", k->name);
    if (k->cuda_refusal && (stage == MT_STAGE_CUDA || stage == MT_STAGE_SSA_LAYOUT ||
                            stage == MT_STAGE_PTX || stage == MT_STAGE_CUBIN))
        return set_error(ctx, MT_ERR_UNSUPPORTED,
                         "kernel '%s' runs on the cpu backend only; the CUDA lowering "
                         "refuses it:\n%s", k->name, k->cuda_refusal);
    if (k->backend == MT_BACKEND_MLIR && !k->text[stage] &&
        (stage == MT_STAGE_PTX || stage == MT_STAGE_CUBIN)) {
        if (stage == MT_STAGE_CUBIN)
            return set_error(ctx, MT_ERR_ARG, "the MLIR backend makes PTX, which the CUDA "
                                              "driver compiles when it loads it: no cubin");
        Ctx c;
        ctx_init(&c, NULL, NULL, NULL);
        StrBuf sb;
        sb_init(&sb);
        int rc = mlir_ptx(&c, k->text[MT_STAGE_MLIR], k->arch ? k->arch : "sm_90", &sb);
        mt_status st = rc < 0 ? take_error(ctx, &c) : MT_OK;
        sb_free(&c.err);
        if (rc == 0 && !(k->text[stage] = dup_sb(&sb, &k->textlen[stage])))
            st = set_error(ctx, MT_ERR_NOMEM, "out of memory");
        sb_free(&sb);
        if (st != MT_OK)
            return st;
    }
    if (!k->text[stage] && (stage == MT_STAGE_PTX || stage == MT_STAGE_CUBIN)) {
        Ctx c;
        ctx_init(&c, NULL, NULL, NULL);
        char arch[16];
        int rc = 0;
        CudaDriver *d = NULL;
        if (k->arch) {
            /* An explicit arch needs NVRTC only, not a driver or a GPU. */
            snprintf(arch, sizeof arch, "%s", k->arch);
            if (!ctx->nvrtc && !(ctx->nvrtc = cuda_nvrtc_open(&c)))
                rc = -1;
            d = ctx->nvrtc;
        } else {
            d = need_cuda(ctx);
            if (!d) {
                sb_free(&c.err);
                return ctx->status;
            }
            if (cuda_device_arch(&c, d, arch) < 0)
                rc = -1;
        }
        StrBuf sb;
        sb_init(&sb);
        if (rc == 0 && stage == MT_STAGE_CUBIN)
            rc = nvrtc_compile_kernel(&c, d, k->text[MT_STAGE_CUDA], nvrtc_arch(k, arch),
                                      k->fmad, k->shared_bytes, &sb, NULL);
        else if (rc == 0)
            rc = nvrtc_compile(&c, d, k->text[MT_STAGE_CUDA], nvrtc_arch(k, arch), k->fmad, &sb,
                               NULL);
        if (rc < 0) {
            mt_status st = take_error(ctx, &c);
            sb_free(&c.err);
            sb_free(&sb);
            return st;
        }
        sb_free(&c.err);
        k->text[stage] = dup_sb(&sb, &k->textlen[stage]);
        sb_free(&sb);
        if (!k->text[stage])
            return set_error(ctx, MT_ERR_NOMEM, "out of memory");
    }
    *text = k->text[stage] ? k->text[stage] : "";
    if (len)
        *len = k->text[stage] ? k->textlen[stage] : 0;
    clear_error(ctx);
    return MT_OK;
}

int mt_kernel_num_params(const mt_kernel *k) { return k ? k->nparams : 0; }
mt_param_type mt_kernel_param_type(const mt_kernel *k, int i) {
    return k && i >= 0 && i < k->nparams ? param_type_of(k->ptypes[i]) : MT_PARAM_NONE;
}
mt_dtype mt_kernel_param_dtype(const mt_kernel *k, int i) {
    return k && i >= 0 && i < k->nparams ? (mt_dtype)(k->ptypes[i].dtype - 1)
                                         : MT_DTYPE_NONE;
}
int mt_kernel_param_is_pointer(const mt_kernel *k, int i) {
    return k && i >= 0 && i < k->nparams && k->ptypes[i].is_ptr;
}
const char *mt_dtype_name(mt_dtype d) {
    return d >= 0 && d < MT_DTYPE_COUNT ? dtype_info[d + 1].short_name : NULL;
}
size_t mt_dtype_size(mt_dtype d) {
    return d >= 0 && d < MT_DTYPE_COUNT ? dtype_info[d + 1].bytes : 0;
}
const char *mt_kernel_param_name(const mt_kernel *k, int i) {
    return k && i >= 0 && i < k->nparams ? k->pnames[i] : NULL;
}
const char *mt_kernel_name(const mt_kernel *k) { return k ? k->name : NULL; }
int mt_kernel_num_warps(const mt_kernel *k) { return k ? k->num_warps : 0; }
mt_backend mt_kernel_backend(const mt_kernel *k) {
    return k ? k->backend : MT_BACKEND_HOST;
}
size_t mt_kernel_shared_bytes(const mt_kernel *k) { return k ? k->shared_bytes : 0; }

/* The code a device loads: the cubin, or for the MLIR backend its PTX
 * (JIT-compiled by the driver; its NUL counts). */
static const char *module_image(const mt_kernel *k, size_t *len) {
    mt_stage code = k->backend == MT_BACKEND_MLIR ? MT_STAGE_PTX : MT_STAGE_CUBIN;
    *len = k->textlen[code] + (code == MT_STAGE_PTX);
    return k->text[code];
}

/* An MLIR kernel takes each pointer as a memref descriptor (mlirrun.c);
 * its workgroup memory is static in the PTX. */
static int launch_mlir(Ctx *c, mt_kernel *k, CudaModule *m, const uint32_t grid[3],
                       void *stream, void **args) {
    enum { SMALL = 32 };
    void *small_args[5 * SMALL];
    int64_t small_store[3 * SMALL];
    void **margs = small_args;
    int64_t *store = small_store;
    if (k->nparams > SMALL) {
        margs = malloc(sizeof *margs * 5 * (size_t)k->nparams);
        store = malloc(sizeof *store * 3 * (size_t)k->nparams);
        if (!margs || !store) {
            free(margs);
            free(store);
            return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory");
        }
    }
    mlir_launch_args(k->ptypes, k->nparams, args, margs, store);
    int rc = cuda_launch(c, k->ctx->cuda, m, grid, 32 * k->num_warps, 0, stream, margs);
    if (margs != small_args) {
        free(margs);
        free(store);
    }
    return rc;
}

/* Launches k; a CUDA kernel on device `device` (-1: the current
 * context), its module loaded in that context at the first launch there. */
/* Checked mode's extents of a launch (host.c's form): NULL when there are
 * none; else a malloc'ed array of k->nparams entries (*out_of_memory when
 * that failed). */
static mt_host_extent *launch_extents(const mt_kernel *k, const mt_launch_options *lo,
                                      bool *out_of_memory) {
    *out_of_memory = false;
    if (!lo || !lo->extents || lo->nextents <= 0 || k->nparams == 0)
        return NULL;
    mt_host_extent *x = calloc((size_t)k->nparams, sizeof *x);
    if (!x) {
        *out_of_memory = true;
        return NULL;
    }
    for (int i = 0; i < k->nparams && i < lo->nextents; i++) {
        uintptr_t a = (uintptr_t)lo->extents[i].lo, b = (uintptr_t)lo->extents[i].hi;
        if (k->ptypes[i].is_ptr && a <= b) /* else: not checked */
            x[i] = (mt_host_extent){a, b};
    }
    return x;
}

/* A host launch with lo's extents. */
static int launch_host_with(Ctx *c, mt_kernel *k, const uint32_t grid[3], void **args,
                            const mt_launch_options *lo, const FiberPoll *poll) {
    bool oom;
    mt_host_extent *x = launch_extents(k, lo, &oom);
    if (oom)
        return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory");
    int rc = host_launch(c, k->ctx->host_stacks, k->host, grid, 32 * k->num_warps, args, x,
                         x ? (unsigned)k->nparams : 0, poll);
    free(x);
    return rc;
}

static int launch_on(Ctx *c, mt_kernel *k, int device, const uint32_t grid[3], void *stream,
                     void **args, const mt_launch_options *lo) {
    int threads = 32 * k->num_warps;
    if (on_host(k->backend))
        return launch_host_with(c, k, grid, args, lo, NULL);
    CudaDriver *d = k->ctx->cuda;
    CudaScope s;
    if (cuda_scope_enter(c, d, device, &s) < 0)
        return -1;
    CudaModule *m;
    size_t len;
    const char *image = module_image(k, &len);
    int rc = cuda_modules_get(c, d, k->cuda, &s, image, len, k->name, &m);
    /* shared memory is static (__shared__ arrays) up to the budget, one
     * dynamic array past it (cuda.c): then the launch gives its size */
    size_t dynamic = k->shared_bytes > MT_SMEM_BUDGET ? k->shared_bytes : 0;
    if (rc == 0)
        rc = k->backend == MT_BACKEND_MLIR
                 ? launch_mlir(c, k, m, grid, stream, args)
                 : cuda_launch(c, d, m, grid, threads, dynamic, stream, args);
    cuda_scope_exit(d, &s);
    return rc;
}

static int launch(Ctx *c, mt_kernel *k, const uint32_t grid[3], void *stream,
                  void **args) {
    return launch_on(c, k, -1, grid, stream, args, NULL);
}

mt_status mt_launch(mt_context *ctx, mt_kernel *k, const uint32_t grid[3],
                    void *stream, void **args) {
    return mt_launch_ex(ctx, k, grid, stream, args, NULL);
}

mt_status mt_launch_ex(mt_context *ctx, mt_kernel *k, const uint32_t grid[3], void *stream,
                       void **args, const mt_launch_options *opts) {
    if (!ctx)
        return MT_ERR_ARG;
    if (opts && opts->size != sizeof *opts)
        return set_error(ctx, MT_ERR_ARG,
                         "mt_launch_options.size is %zu, this library's is %zu: "
                         "rebuild against this mytriton.h", opts->size, sizeof *opts);
    if (!k || !grid)
        return set_error(ctx, MT_ERR_ARG, "mt_launch needs a kernel and a grid");
    if (k->ctx != ctx)
        return set_error(ctx, MT_ERR_ARG, "kernel '%s' belongs to another context",
                         k->name);
    if (!k->launchable)
        return set_error(ctx, MT_ERR_ARG,
                         "kernel '%s' was compiled with stages_only and cannot be launched",
                         k->name);
    for (int i = 0; i < 3; i++)
        if (grid[i] < 1)
            return set_error(ctx, MT_ERR_ARG,
                             "invalid launch grid (%u, %u, %u): every entry must be >= 1",
                             grid[0], grid[1], grid[2]);
    if (k->nparams && !args)
        return set_error(ctx, MT_ERR_ARG, "kernel '%s' takes %d arguments, got none",
                         k->name, k->nparams);
    for (int i = 0; i < k->nparams; i++)
        if (!args[i])
            return set_error(ctx, MT_ERR_ARG, "argument %d ('%s') of kernel '%s' is NULL",
                             i, k->pnames[i], k->name);
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    int rc = launch_on(&c, k, -1, grid, stream, args, opts);
    mt_status st = MT_OK;
    if (rc < 0)
        st = take_error(ctx, &c);
    else
        clear_error(ctx);
    sb_free(&c.err);
    return st;
}

mt_status mt_launch_unchecked(mt_kernel *k, const uint32_t grid[3], void *stream,
                              void **args) {
    if (!k || !k->launchable)
        return MT_ERR_ARG;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    int rc = launch(&c, k, grid, stream, args);
    mt_status st = MT_OK;
    if (rc < 0) {
        st = take_error(k->ctx, &c);
    }
    sb_free(&c.err);
    return st;
}

mt_status mt_launch_device(mt_kernel *k, int device, const uint32_t grid[3], void *stream,
                           void **args) {
    if (!k || !k->launchable)
        return MT_ERR_ARG;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    int rc = launch_on(&c, k, device, grid, stream, args, NULL);
    mt_status st = rc < 0 ? take_error(k->ctx, &c) : MT_OK;
    sb_free(&c.err);
    return st;
}

/* Touches no state of the context: only the kernel (read) and the host
 * runtime, which is safe from many threads (fiber.c). */
mt_status mt_launch_host(mt_kernel *k, const uint32_t grid[3], void **args,
                         int (*poll)(void *), void *poll_arg, char *err, size_t errlen) {
    return mt_launch_host_ex(k, grid, args, NULL, poll, poll_arg, err, errlen);
}

mt_status mt_launch_host_ex(mt_kernel *k, const uint32_t grid[3], void **args,
                            const mt_launch_options *opts, int (*poll)(void *), void *poll_arg,
                            char *err, size_t errlen) {
    if (err && errlen)
        err[0] = 0;
    if (opts && opts->size != sizeof *opts) {
        if (err && errlen)
            snprintf(err, errlen, "mt_launch_options.size is %zu, this library's is %zu",
                     opts->size, sizeof *opts);
        return MT_ERR_ARG;
    }
    if (!k || !on_host(k->backend) || !grid) {
        if (err && errlen)
            snprintf(err, errlen, "mt_launch_host needs a host kernel and a grid");
        return MT_ERR_ARG;
    }
    if (!k->launchable) {
        if (err && errlen)
            snprintf(err, errlen, "kernel '%s' was compiled with stages_only and cannot be "
                                  "launched", k->name);
        return MT_ERR_ARG;
    }
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    FiberPoll fp = {poll, poll_arg};
    int rc = launch_host_with(&c, k, grid, args, opts, &fp);
    mt_status st = MT_OK;
    if (rc < 0) {
        st = c.status == MT_OK ? MT_ERR_INTERNAL : c.status;
        if (err && errlen)
            snprintf(err, errlen, "%s", c.err.failed ? "error: out of memory\n" : sb_str(&c.err));
    }
    sb_free(&c.err);
    return st;
}

/* ---- memory helpers for C programs without a CUDA runtime ---- */

static mt_status finish(mt_context *ctx, Ctx *c, int rc) {
    mt_status st = rc < 0 ? take_error(ctx, c) : MT_OK;
    if (rc >= 0)
        clear_error(ctx);
    sb_free(&c->err);
    return st;
}

mt_status mt_cuda_pointer_device(mt_context *ctx, const void *p, int *device) {
    if (!ctx)
        return MT_ERR_ARG;
    if (!device)
        return set_error(ctx, MT_ERR_ARG, "mt_cuda_pointer_device: device is NULL");
    CudaDriver *d = need_cuda(ctx);
    if (!d)
        return ctx->status;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    return finish(ctx, &c, cuda_pointer_device(&c, d, p, device));
}

mt_status mt_kernel_usage(mt_context *ctx, mt_kernel *k, int *regs, int *local_bytes,
                          int *max_threads) {
    if (!ctx)
        return MT_ERR_ARG;
    if (!k || k->ctx != ctx)
        return set_error(ctx, MT_ERR_ARG, "mt_kernel_usage needs a kernel of this context");
    if (!k->launchable)
        return set_error(ctx, MT_ERR_ARG,
                         "kernel '%s' was compiled with stages_only: it has no code", k->name);
    int r = 0, l = 0, t = MT_MAX_THREADS, rc = 0;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    if (!on_host(k->backend)) {
        CudaScope s;
        CudaModule *m;
        size_t len;
        const char *image = module_image(k, &len);
        rc = cuda_scope_enter(&c, k->ctx->cuda, -1, &s);
        if (rc == 0)
            rc = cuda_modules_get(&c, k->ctx->cuda, k->cuda, &s, image, len, k->name, &m);
        if (rc == 0)
            cuda_module_usage(m, &r, &l, &t);
    }
    if (regs)
        *regs = r;
    if (local_bytes)
        *local_bytes = l;
    if (max_threads)
        *max_threads = t;
    return finish(ctx, &c, rc);
}

mt_status mt_malloc(mt_context *ctx, mt_backend backend, size_t bytes, void **out) {
    if (!ctx)
        return MT_ERR_ARG;
    if (!out)
        return set_error(ctx, MT_ERR_ARG, "mt_malloc: out is NULL");
    *out = NULL;
    if (on_host(backend)) {
        *out = malloc(bytes ? bytes : 1);
        return *out ? MT_OK : set_error(ctx, MT_ERR_NOMEM, "out of memory (%zu bytes)", bytes);
    }
    CudaDriver *d = need_cuda(ctx);
    if (!d)
        return ctx->status;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    return finish(ctx, &c, cuda_mem_alloc(&c, d, bytes ? bytes : 1, out));
}

mt_status mt_free(mt_context *ctx, mt_backend backend, void *ptr) {
    if (!ctx)
        return MT_ERR_ARG;
    if (!ptr)
        return MT_OK;
    if (on_host(backend)) {
        free(ptr);
        return MT_OK;
    }
    CudaDriver *d = need_cuda(ctx);
    if (!d)
        return ctx->status;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    return finish(ctx, &c, cuda_mem_free(&c, d, ptr));
}

mt_status mt_memcpy(mt_context *ctx, mt_backend backend, void *dst, const void *src,
                    size_t bytes, mt_memcpy_kind kind) {
    if (!ctx)
        return MT_ERR_ARG;
    if (kind != MT_MEMCPY_HOST_TO_DEVICE && kind != MT_MEMCPY_DEVICE_TO_HOST)
        return set_error(ctx, MT_ERR_ARG, "mt_memcpy: unknown direction %d", (int)kind);
    if ((!dst || !src) && bytes)
        return set_error(ctx, MT_ERR_ARG, "mt_memcpy: NULL pointer");
    if (on_host(backend)) {
        if (bytes)
            memmove(dst, src, bytes);
        return MT_OK;
    }
    CudaDriver *d = need_cuda(ctx);
    if (!d)
        return ctx->status;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    return finish(ctx, &c, cuda_memcpy(&c, d, dst, src, bytes,
                                          kind == MT_MEMCPY_HOST_TO_DEVICE));
}

mt_status mt_synchronize(mt_context *ctx, mt_backend backend) {
    if (!ctx)
        return MT_ERR_ARG;
    if (on_host(backend))
        return MT_OK;
    CudaDriver *d = need_cuda(ctx);
    if (!d)
        return ctx->status;
    Ctx c;
    ctx_init(&c, NULL, NULL, NULL);
    return finish(ctx, &c, cuda_synchronize(&c, d));
}
