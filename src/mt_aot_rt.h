/* mt_aot_rt.h: the run-time support pasted into every file `mytriton aot`
 * writes (src/aot.c embeds this text; it is never included by name).
 *
 * Input: a kernel's description (mt_aot_kernel: symbol, images, threads,
 * shared memory), filled in by the generated code.  Output: a loaded
 * module and launches through the CUDA driver, opened with
 * dlopen("libcuda.so.1") and resolved by dlsym, so a program that uses
 * the generated files links with a C compiler alone, needs no CUDA
 * headers, and never loads NVRTC: the cubin (or, for a newer GPU, the
 * PTX, which the driver compiles itself) is embedded.
 *
 * Invariants:
 *   - everything here is static: two generated files in one program each
 *     have their own copy and share no symbol; the helpers a file may not
 *     call are marked so, so that no compiler warns about them;
 *   - no call exits or aborts: every failure is an mt_status and a
 *     message in a thread-local buffer (mt_aot_msg), which the generated
 *     NAME_errmsg returns; a successful call empties it;
 *   - the driver library is never dlclose'd (other code in the process
 *     may hold its handles, as in the library's cudart.c);
 *   - the host variant and the dispatcher get only the part before the
 *     driver's (aot.c cuts the text at "#ifndef MT_AOT_NO_DRIVER"): host
 *     files launch through the library's scheduler, mt_host_run. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#if defined(__cplusplus)
#define MT_AOT_TLS thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define MT_AOT_TLS _Thread_local
#else
#define MT_AOT_TLS __thread /* C99 with GNU extensions */
#endif
/* helpers a file may not call (clang warns even about static inline ones) */
#if defined(__GNUC__)
#define MT_AOT_MAYBE_UNUSED __attribute__((unused))
#else
#define MT_AOT_MAYBE_UNUSED
#endif

/* the last call's message on this thread ("" after a success) */
static MT_AOT_TLS char mt_aot_msg[512];

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
MT_AOT_MAYBE_UNUSED static inline mt_status mt_aot_fail(mt_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(mt_aot_msg, sizeof mt_aot_msg, fmt, ap);
    va_end(ap);
    return st;
}

MT_AOT_MAYBE_UNUSED static inline mt_status mt_aot_ok(void) {
    mt_aot_msg[0] = 0;
    return MT_OK;
}

/* A launch grid entry must be at least 1 (the driver's limits are checked
 * by the driver itself). */
MT_AOT_MAYBE_UNUSED static inline mt_status mt_aot_check_grid(const char *name, unsigned gx, unsigned gy, unsigned gz) {
    if (gx < 1 || gy < 1 || gz < 1)
        return mt_aot_fail(MT_ERR_ARG, "%s: invalid launch grid (%u, %u, %u): every entry must be >= 1",
                           name, gx, gy, gz);
    return MT_OK;
}

MT_AOT_MAYBE_UNUSED static inline mt_status mt_aot_check_ptr(const char *name, const char *arg, const void *p, unsigned align) {
    if (!p)
        return mt_aot_fail(MT_ERR_ARG, "%s: pointer argument '%s' is NULL", name, arg);
    if (align > 1 && (uintptr_t)p % align != 0)
        return mt_aot_fail(MT_ERR_ARG,
                           "%s: pointer argument '%s' (%p) is not %u-byte aligned, as this "
                           "specialisation assumes",
                           name, arg, p, align);
    return MT_OK;
}

/* hint 1: the value must be 1 (folded into the code); else a multiple */
MT_AOT_MAYBE_UNUSED static inline mt_status mt_aot_check_int(const char *name, const char *arg, long long v, unsigned hint) {
    if (hint == 1 && v != 1)
        return mt_aot_fail(MT_ERR_ARG, "%s: argument '%s' is %lld, but this specialisation "
                                       "was compiled for the value 1", name, arg, v);
    if (hint > 1 && v % (long long)hint != 0)
        return mt_aot_fail(MT_ERR_ARG, "%s: argument '%s' is %lld, not a multiple of %u as "
                                       "this specialisation assumes", name, arg, v, hint);
    return MT_OK;
}

#ifndef MT_AOT_NO_DRIVER
#include <dlfcn.h>

typedef int mt_aot_res;
typedef int mt_aot_dev;
typedef struct CUctx_st *mt_aot_ctx;
typedef struct CUmod_st *mt_aot_mod;
typedef struct CUfunc_st *mt_aot_func;

/* One embedded compilation: a cubin for sm_<sm>, and its PTX. */
typedef struct mt_aot_image {
    int sm; /* 90 for sm_90 */
    const unsigned char *cubin;
    const unsigned char *ptx; /* NUL-terminated */
} mt_aot_image;

typedef struct mt_aot_kernel {
    const char *name;   /* the generated function's name, for messages */
    const char *symbol; /* the kernel's name in the module */
    const mt_aot_image *images;
    int nimages;
    unsigned threads;   /* 32 * num_warps */
    unsigned dyn_smem;  /* dynamic shared memory per program, 0 when static */
    /* filled in by mt_aot_load */
    int loaded, retained;
    mt_aot_dev dev;
    mt_aot_ctx ctx;
    mt_aot_mod mod;
    mt_aot_func func;
    mt_aot_res (*cuGetErrorName)(mt_aot_res, const char **);
    mt_aot_res (*cuCtxGetCurrent)(mt_aot_ctx *);
    mt_aot_res (*cuCtxSetCurrent)(mt_aot_ctx);
    mt_aot_res (*cuModuleUnload)(mt_aot_mod);
    mt_aot_res (*cuDevicePrimaryCtxRelease)(mt_aot_dev);
    mt_aot_res (*cuLaunchKernel)(mt_aot_func, unsigned, unsigned, unsigned, unsigned, unsigned,
                                 unsigned, unsigned, CUstream, void **, void **);
} mt_aot_kernel;

/* ISO C has no object-to-function pointer conversion; POSIX dlsym needs
 * one, done through memcpy of the representation. */
static int mt_aot_sym(void *dl, const char *sym, void *fnptr, size_t size) {
    void *p = dlsym(dl, sym);
    if (p)
        memcpy(fnptr, &p, size);
    return p != NULL;
}
#define MT_AOT_SYM(dl, var, sym) mt_aot_sym(dl, sym, &(var), sizeof(var))

static mt_status mt_aot_cu(mt_aot_kernel *k, mt_aot_res r, const char *call) {
    const char *e = NULL;
    if (r == 0)
        return MT_OK;
    if (!k->cuGetErrorName || k->cuGetErrorName(r, &e) != 0 || !e)
        e = "unknown CUDA error";
    return mt_aot_fail(MT_ERR_CUDA, "%s: %s failed: %s (%d)", k->name, call, e, r);
}

/* The image for a device of compute capability sm: a cubin of the same
 * major version and the highest minor not above the device's, else the
 * PTX of the highest version not above it (JIT-compiled by the driver). */
static const unsigned char *mt_aot_pick(const mt_aot_kernel *k, int sm) {
    const unsigned char *best = NULL;
    int best_sm = -1;
    for (int i = 0; i < k->nimages; i++) {
        int s = k->images[i].sm;
        if (s / 10 == sm / 10 && s <= sm && s > best_sm) {
            best = k->images[i].cubin;
            best_sm = s;
        }
    }
    for (int i = 0; !best && i < k->nimages; i++)
        if (k->images[i].sm <= sm && k->images[i].sm > best_sm)
            best_sm = k->images[i].sm;
    for (int i = 0; !best && i < k->nimages; i++)
        if (k->images[i].sm == best_sm)
            best = k->images[i].ptx;
    return best;
}

/* Loads the module into the current context (device 0's primary context,
 * retained, when none is current).  Loading twice is a no-op. */
static mt_status mt_aot_load(mt_aot_kernel *k) {
    if (k->loaded)
        return mt_aot_ok();
    void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        const char *e = dlerror();
        return mt_aot_fail(MT_ERR_NO_CUDA, "%s: cannot load the CUDA driver libcuda.so.1: %s",
                           k->name, e ? e : "not found");
    }
    mt_aot_res (*cuInit)(unsigned);
    mt_aot_res (*cuDeviceGet)(mt_aot_dev *, int);
    mt_aot_res (*cuCtxGetDevice)(mt_aot_dev *);
    mt_aot_res (*cuDevicePrimaryCtxRetain)(mt_aot_ctx *, mt_aot_dev);
    mt_aot_res (*cuDeviceGetAttribute)(int *, int, mt_aot_dev);
    mt_aot_res (*cuModuleLoadData)(mt_aot_mod *, const void *);
    mt_aot_res (*cuModuleGetFunction)(mt_aot_func *, mt_aot_mod, const char *);
    mt_aot_res (*cuFuncSetAttribute)(mt_aot_func, int, int);
    if (!MT_AOT_SYM(dl, cuInit, "cuInit") || !MT_AOT_SYM(dl, cuDeviceGet, "cuDeviceGet") ||
        !MT_AOT_SYM(dl, cuCtxGetDevice, "cuCtxGetDevice") ||
        !MT_AOT_SYM(dl, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain") ||
        !MT_AOT_SYM(dl, cuDeviceGetAttribute, "cuDeviceGetAttribute") ||
        !MT_AOT_SYM(dl, cuModuleLoadData, "cuModuleLoadData") ||
        !MT_AOT_SYM(dl, cuModuleGetFunction, "cuModuleGetFunction") ||
        !MT_AOT_SYM(dl, cuFuncSetAttribute, "cuFuncSetAttribute") ||
        !MT_AOT_SYM(dl, k->cuGetErrorName, "cuGetErrorName") ||
        !MT_AOT_SYM(dl, k->cuCtxGetCurrent, "cuCtxGetCurrent") ||
        !MT_AOT_SYM(dl, k->cuCtxSetCurrent, "cuCtxSetCurrent") ||
        !MT_AOT_SYM(dl, k->cuModuleUnload, "cuModuleUnload") ||
        !MT_AOT_SYM(dl, k->cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2") ||
        !MT_AOT_SYM(dl, k->cuLaunchKernel, "cuLaunchKernel"))
        return mt_aot_fail(MT_ERR_NO_CUDA, "%s: libcuda.so.1 lacks a driver function this "
                                           "code needs", k->name);
    mt_aot_res r = cuInit(0);
    if (r != 0) {
        mt_aot_cu(k, r, "cuInit");
        return mt_aot_fail(MT_ERR_NO_CUDA, "%s", mt_aot_msg);
    }
    mt_status st;
    k->retained = 0;
    if ((st = mt_aot_cu(k, k->cuCtxGetCurrent(&k->ctx), "cuCtxGetCurrent")) != MT_OK)
        return st;
    /* the module lives in a device's primary context: hold a reference
     * for it, so another file's unload releasing its own cannot destroy
     * the context under this module (a context the program made itself
     * is the program's to keep) */
    mt_aot_ctx primary = NULL, cur = k->ctx;
    if ((st = mt_aot_cu(k, cur ? cuCtxGetDevice(&k->dev) : cuDeviceGet(&k->dev, 0),
                        cur ? "cuCtxGetDevice" : "cuDeviceGet")) != MT_OK ||
        (st = mt_aot_cu(k, cuDevicePrimaryCtxRetain(&primary, k->dev),
                        "cuDevicePrimaryCtxRetain")) != MT_OK)
        return st;
    k->retained = 1;
    if (!cur) {
        k->ctx = primary;
        if ((st = mt_aot_cu(k, k->cuCtxSetCurrent(k->ctx), "cuCtxSetCurrent")) != MT_OK)
            goto release;
    } else if (cur != primary) {
        k->cuDevicePrimaryCtxRelease(k->dev);
        k->retained = 0;
    }
    int major = 0, minor = 0, optin = 0;
    if ((st = mt_aot_cu(k, cuDeviceGetAttribute(&major, 75, k->dev), "cuDeviceGetAttribute")) ||
        (st = mt_aot_cu(k, cuDeviceGetAttribute(&minor, 76, k->dev), "cuDeviceGetAttribute")) ||
        (st = mt_aot_cu(k, cuDeviceGetAttribute(&optin, 97, k->dev), "cuDeviceGetAttribute")))
        goto release;
    const unsigned char *image = mt_aot_pick(k, major * 10 + minor);
    if (!image) {
        char have[128] = "";
        for (int i = 0; i < k->nimages; i++)
            snprintf(have + strlen(have), sizeof have - strlen(have), "%ssm_%d", i ? ", " : "",
                     k->images[i].sm);
        st = mt_aot_fail(MT_ERR_CUDA, "%s: the device is sm_%d%d, but this file holds code for "
                                      "%s only", k->name, major, minor, have);
        goto release;
    }
    if (k->dyn_smem > (unsigned)optin) {
        st = mt_aot_fail(MT_ERR_RESOURCE, "%s: the kernel needs %u bytes of shared memory, more "
                                          "than this device's %d", k->name, k->dyn_smem, optin);
        goto release;
    }
    if ((st = mt_aot_cu(k, cuModuleLoadData(&k->mod, image), "cuModuleLoadData")) != MT_OK)
        goto release;
    if ((st = mt_aot_cu(k, cuModuleGetFunction(&k->func, k->mod, k->symbol),
                        "cuModuleGetFunction")) != MT_OK ||
        (k->dyn_smem && (st = mt_aot_cu(k, cuFuncSetAttribute(k->func, 8, (int)k->dyn_smem),
                                        "cuFuncSetAttribute")) != MT_OK) ||
        /* past 48 KiB, the largest shared-memory carveout (attribute 9),
         * as the JIT launch and Triton's launcher set such kernels */
        (k->dyn_smem > 49152 && (st = mt_aot_cu(k, cuFuncSetAttribute(k->func, 9, 100),
                                                "cuFuncSetAttribute")) != MT_OK)) {
        k->cuModuleUnload(k->mod);
        goto release;
    }
    k->loaded = 1;
    return mt_aot_ok();
release:
    if (k->retained)
        k->cuDevicePrimaryCtxRelease(k->dev);
    k->retained = 0;
    return st;
}

/* Unloads the module in the context it was loaded in, then releases the
 * primary context if mt_aot_load retained it. */
static mt_status mt_aot_unload(mt_aot_kernel *k) {
    if (!k->loaded)
        return mt_aot_ok();
    mt_aot_ctx cur = NULL;
    int switched = k->cuCtxGetCurrent(&cur) == 0 && cur != k->ctx &&
                   k->cuCtxSetCurrent(k->ctx) == 0;
    mt_aot_res r = k->cuModuleUnload(k->mod);
    if (switched)
        k->cuCtxSetCurrent(cur);
    if (k->retained)
        k->cuDevicePrimaryCtxRelease(k->dev);
    k->loaded = k->retained = 0;
    mt_status st = mt_aot_cu(k, r, "cuModuleUnload");
    return st != MT_OK ? st : mt_aot_ok();
}

static mt_status mt_aot_launch(mt_aot_kernel *k, CUstream stream, unsigned gx, unsigned gy,
                               unsigned gz, void **args) {
    if (!k->loaded)
        return mt_aot_fail(MT_ERR_ARG, "%s: the kernel is not loaded: call %s_load first",
                           k->name, k->name);
    /* a thread with no current context uses the one the module is in */
    mt_aot_ctx cur = NULL;
    mt_status st = mt_aot_cu(k, k->cuCtxGetCurrent(&cur), "cuCtxGetCurrent");
    if (st == MT_OK && !cur)
        st = mt_aot_cu(k, k->cuCtxSetCurrent(k->ctx), "cuCtxSetCurrent");
    if (st == MT_OK)
        st = mt_aot_cu(k, k->cuLaunchKernel(k->func, gx, gy, gz, k->threads, 1, 1, k->dyn_smem,
                                            stream, args, NULL),
                       "cuLaunchKernel");
    return st != MT_OK ? st : mt_aot_ok();
}
#endif /* MT_AOT_NO_DRIVER */
