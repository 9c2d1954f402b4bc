/* fake_cuda.c: a stand-in CUDA driver and NVRTC, for testing mytriton's
 * multi-device launch path on a machine without GPUs.
 *
 * Built once, as libcuda.so.1, by tests/py/test_multi_device.py, and linked
 * also as libnvrtc.so by tests/py/test_multi_device.py, as libcuda.so.1 and as
 * libnvrtc.so, into a directory put on LD_LIBRARY_PATH of a child
 * process, where cudart.c's dlopen finds them.  It models what the launch
 * path relies on: FAKE_CUDA_DEVICES devices (default 2, at most 8; their
 * compute capabilities FAKE_CUDA_ARCHS, "90,80": sm_90 then sm_80; default
 * all sm_90), one
 * primary context each, a current context per thread, modules that belong
 * to the context they were loaded in.  Its NVRTC "compiles" any source to
 * an image holding the source itself, so cuModuleGetFunction can check
 * the kernel is there.
 *
 * A launch fails, as the real driver would or worse, when no context is
 * current, when the function's module belongs to another context, or when
 * an argument slot holds a fake device pointer of another device: fake
 * device memory of device d is (d + 1) << 40 and up (the tests make their
 * arrays there).  Nothing runs; each launch is counted per device, and the
 * counters are read through ctypes (fake_*). */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXDEV 8
#define ERR_INVALID_VALUE 1
#define ERR_INVALID_DEVICE 101
#define ERR_INVALID_CONTEXT 201
#define ERR_INVALID_HANDLE 400
#define ERR_NOT_FOUND 500
#define ERR_ILLEGAL_ADDRESS 700

struct CUctx_st { int dev; int refs; };
struct CUmod_st { struct CUctx_st *ctx; char *image; };
struct CUfunc_st { struct CUmod_st *mod; int nparams; char is_ptr[128]; };

static struct CUctx_st contexts[MAXDEV];
static __thread struct CUctx_st *current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int launches[MAXDEV], modules[MAXDEV], bad_launches;
static uintptr_t last_stream[MAXDEV];
static int compiles;
static char last_arch[32];

/* the compute capability of device dev, as major * 10 + minor */
static int capability(int dev) {
    const char *e = getenv("FAKE_CUDA_ARCHS");
    int cc = 90;
    for (int i = 0; e && *e && i <= dev; i++) {
        cc = atoi(e);
        const char *comma = strchr(e, ',');
        e = comma ? comma + 1 : NULL;
    }
    return cc;
}

static int ndev(void) {
    const char *e = getenv("FAKE_CUDA_DEVICES");
    int n = e ? atoi(e) : 2;
    return n < 0 ? 0 : n > MAXDEV ? MAXDEV : n;
}

/* ---- what the tests read ---- */

int fake_launches(int dev) { return dev >= 0 && dev < MAXDEV ? launches[dev] : -1; }
int fake_modules(int dev) { return dev >= 0 && dev < MAXDEV ? modules[dev] : -1; }
int fake_bad_launches(void) { return bad_launches; }
int fake_compiles(void) { return compiles; }
const char *fake_last_arch(void) { return last_arch; }
uintptr_t fake_last_stream(int dev) { return dev >= 0 && dev < MAXDEV ? last_stream[dev] : 0; }
/* the device of this thread's current context, -1 when none */
int fake_current_device(void) { return current ? current->dev : -1; }
int fake_set_current_device(int dev) {
    current = dev >= 0 && dev < ndev() ? &contexts[dev] : NULL;
    if (current)
        current->dev = dev;
    return 0;
}

/* ---- the driver ---- */

int cuInit(unsigned flags) { (void)flags; return 0; }
int cuDeviceGetCount(int *n) { *n = ndev(); return 0; }
int cuDeviceGet(int *dev, int ordinal) {
    if (ordinal < 0 || ordinal >= ndev())
        return ERR_INVALID_DEVICE;
    *dev = ordinal;
    return 0;
}
int cuDeviceGetAttribute(int *out, int attr, int dev) {
    if (dev < 0 || dev >= ndev())
        return ERR_INVALID_DEVICE;
    switch (attr) {
    case 1: *out = 1024; break;                       /* threads per block */
    case 5: *out = 2147483647; break;                 /* grid x */
    case 6: case 7: *out = 65535; break;              /* grid y, z */
    case 75: *out = capability(dev) / 10; break;
    case 76: *out = capability(dev) % 10; break;
    case 97: *out = 232448; break;                    /* shared memory opt-in */
    default: *out = 0;
    }
    return 0;
}
int cuCtxGetCurrent(struct CUctx_st **ctx) { *ctx = current; return 0; }
int cuCtxSetCurrent(struct CUctx_st *ctx) { current = ctx; return 0; }
int cuCtxGetDevice(int *dev) {
    if (!current)
        return ERR_INVALID_CONTEXT;
    *dev = current->dev;
    return 0;
}
int cuDevicePrimaryCtxRetain(struct CUctx_st **ctx, int dev) {
    if (dev < 0 || dev >= ndev())
        return ERR_INVALID_DEVICE;
    pthread_mutex_lock(&lock);
    contexts[dev].dev = dev;
    contexts[dev].refs++;
    pthread_mutex_unlock(&lock);
    *ctx = &contexts[dev];
    return 0;
}
int cuDevicePrimaryCtxRelease_v2(int dev) {
    pthread_mutex_lock(&lock);
    contexts[dev].refs--;
    pthread_mutex_unlock(&lock);
    return 0;
}
int cuModuleLoadData(struct CUmod_st **mod, const void *image) {
    if (!current)
        return ERR_INVALID_CONTEXT;
    struct CUmod_st *m = calloc(1, sizeof *m);
    m->ctx = current;
    /* a fake cubin: "\177ELF" then the CUDA C; else PTX (the MLIR backend) */
    const char *text = image;
    m->image = strdup(memcmp(text, "\177ELF", 4) ? text : text + 4);
    pthread_mutex_lock(&lock);
    modules[current->dev]++;
    pthread_mutex_unlock(&lock);
    *mod = m;
    return 0;
}
/* Finds `name(` after "__global__" and notes which parameters are
 * pointers (a '*' in their declaration). */
int cuModuleGetFunction(struct CUfunc_st **f, struct CUmod_st *m, const char *name) {
    const char *g = strstr(m->image, "__global__");
    size_t n = strlen(name);
    if (!g) { /* PTX: an .entry of that name, its parameters unchecked */
        const char *e = strstr(m->image, ".entry ");
        if (!e || strncmp(e + 7, name, n) || e[7 + n] != '(')
            return ERR_NOT_FOUND;
        *f = calloc(1, sizeof **f);
        (*f)->mod = m;
        return 0;
    }
    const char *p = g;
    while (p && (p = strstr(p, name)) && p[n] != '(')
        p += n;
    if (!p)
        return ERR_NOT_FOUND;
    struct CUfunc_st *fn = calloc(1, sizeof *fn);
    fn->mod = m;
    bool star = false, any = false;
    for (p += n + 1; *p && *p != ')' && fn->nparams < 128; p++) {
        if (*p == ',') {
            fn->is_ptr[fn->nparams++] = star;
            star = false;
        } else if (*p == '*') {
            star = true;
        }
        any |= *p != ' ';
    }
    if (any)
        fn->is_ptr[fn->nparams++] = star;
    *f = fn;
    return 0;
}
int cuModuleUnload(struct CUmod_st *m) {
    if (current != m->ctx)
        return ERR_INVALID_CONTEXT;
    pthread_mutex_lock(&lock);
    modules[m->ctx->dev]--;
    pthread_mutex_unlock(&lock);
    free(m->image);
    free(m);
    return 0;
}
int cuFuncGetAttribute(int *out, int attr, struct CUfunc_st *f) {
    (void)f;
    *out = attr == 0 ? 1024 : attr == 4 ? 32 : 0;
    return 0;
}
int cuFuncSetAttribute(struct CUfunc_st *f, int attr, int v) { (void)f; (void)attr; (void)v; return 0; }

/* Every pointer argument must be memory of the current context's device
 * (or no fake device memory at all: a host-side address, NULL). */
int cuLaunchKernel(struct CUfunc_st *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned smem, void *stream, void **args,
                   void **extra) {
    (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)smem; (void)extra;
    int rc = 0;
    if (!current)
        rc = ERR_INVALID_CONTEXT;
    else if (f->mod->ctx != current)
        rc = ERR_INVALID_HANDLE;
    for (int i = 0; !rc && i < f->nparams; i++) {
        uint64_t v;
        if (!f->is_ptr[i])
            continue;
        memcpy(&v, args[i], sizeof v);
        if (v >> 40 >= 1 && v >> 40 <= MAXDEV && (int)(v >> 40) - 1 != current->dev)
            rc = ERR_ILLEGAL_ADDRESS;
    }
    pthread_mutex_lock(&lock);
    if (rc)
        bad_launches++;
    else {
        launches[current->dev]++;
        last_stream[current->dev] = (uintptr_t)stream;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}
int cuGetErrorName(int r, const char **name) {
    switch (r) {
    case ERR_INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; return 0;
    case ERR_INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
    case ERR_INVALID_HANDLE: *name = "CUDA_ERROR_INVALID_HANDLE"; return 0;
    case ERR_NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; return 0;
    case ERR_ILLEGAL_ADDRESS: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
    default: return ERR_INVALID_VALUE;
    }
}
int cuMemAlloc_v2(uint64_t *p, size_t n) { (void)p; (void)n; return ERR_INVALID_VALUE; }
int cuMemFree_v2(uint64_t p) { (void)p; return 0; }
int cuMemcpyHtoD_v2(uint64_t d, const void *s, size_t n) { (void)d; (void)s; (void)n; return 0; }
int cuMemcpyDtoH_v2(void *d, uint64_t s, size_t n) { (void)d; (void)s; (void)n; return 0; }
int cuCtxSynchronize(void) { return current ? 0 : ERR_INVALID_CONTEXT; }
int cuPointerGetAttribute(void *out, int attr, uint64_t p) {
    if (attr != 9 || p >> 40 < 1 || p >> 40 > (uint64_t)ndev())
        return ERR_INVALID_VALUE; /* only device ordinals of fake memory */
    *(int *)out = (int)(p >> 40) - 1;
    return 0;
}

/* ---- NVRTC ---- */

struct prog { char *src; };

int nvrtcCreateProgram(struct prog **p, const char *src, const char *name, int nh,
                       const char *const *h, const char *const *hn) {
    (void)name; (void)nh; (void)h; (void)hn;
    *p = calloc(1, sizeof **p);
    (*p)->src = strdup(src);
    return 0;
}
int nvrtcCompileProgram(struct prog *p, int n, const char *const *o) {
    (void)p;
    pthread_mutex_lock(&lock);
    compiles++;
    for (int i = 0; i < n; i++)
        if (!strncmp(o[i], "--gpu-architecture=", 19))
            snprintf(last_arch, sizeof last_arch, "%s", o[i] + 19);
    pthread_mutex_unlock(&lock);
    return 0;
}
int nvrtcGetProgramLogSize(struct prog *p, size_t *n) { (void)p; *n = 1; return 0; }
int nvrtcGetProgramLog(struct prog *p, char *log) { (void)p; log[0] = 0; return 0; }
int nvrtcGetPTXSize(struct prog *p, size_t *n) { *n = strlen(p->src) + 1; return 0; }
int nvrtcGetPTX(struct prog *p, char *out) { strcpy(out, p->src); return 0; }
int nvrtcGetCUBINSize(struct prog *p, size_t *n) { *n = strlen(p->src) + 5; return 0; }
int nvrtcGetCUBIN(struct prog *p, char *out) {
    memcpy(out, "\177ELF", 4);
    strcpy(out + 4, p->src);
    return 0;
}
int nvrtcDestroyProgram(struct prog **p) {
    free((*p)->src);
    free(*p);
    *p = NULL;
    return 0;
}
int nvrtcVersion(int *major, int *minor) { *major = 0; *minor = 0; return 0; }
const char *nvrtcGetErrorString(int r) { (void)r; return "fake NVRTC error"; }
