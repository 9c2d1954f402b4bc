/* cudart.c: the CUDA driver and NVRTC, opened with dlopen.
 *
 * Input: CUDA C text (NVRTC), cubins (driver), launch shapes.  Output:
 * PTX / cubin text, loaded modules, launches.  The library never links
 * against CUDA: it declares the few prototypes it calls (CUresult and
 * CUdevice are int, handles are opaque pointers) and resolves them from
 * libcuda.so.1 and libnvrtc.so* by name.  Where cuda.h maps an API name
 * to a versioned symbol (cuDevicePrimaryCtxRelease, cuMemAlloc, cuMemFree,
 * cuMemcpyHtoD/DtoH -> _v2) the versioned symbol is looked up; the others
 * used here are plain.
 *
 * Invariants:
 *   - the libraries are never dlclose'd (see cuda_driver_close);
 *   - several devices: a device's primary context is retained once per
 *     driver handle, at its first use, and released with the handle; a
 *     launch on device N makes N's primary context current for the launch
 *     and puts the caller's back after it (cuda_scope_enter/exit), so
 *     neither torch's notion of the current device nor a context the
 *     caller made current changes under it;
 *   - a kernel keeps one module per context (CudaModules): looked up and
 *     loaded under the table's mutex, the retained contexts under the
 *     driver's, so threads launching on different devices at once (one
 *     Python thread per GPU) load each module once and never see a
 *     half-filled table;
 *   - no global state: everything lives in the CudaDriver its owner (an
 *     mt_context) holds; the half not asked for when opening (NVRTC for
 *     cuda_driver_open, the driver for cuda_nvrtc_open) is loaded at its
 *     first use, and its absence is reported then;
 *   - every failing call becomes an error naming the call and the CUDA
 *     error ("cuModuleLoadData failed: CUDA_ERROR_INVALID_IMAGE"), status
 *     MT_ERR_CUDA; a missing library is MT_ERR_NO_CUDA; an NVRTC
 *     compilation failure is MT_ERR_NVRTC with NVRTC's log;
 *   - NVRTC compiles with IEEE float semantics (no --use_fast_math) and a
 *     pre-included prelude defining INFINITY and NAN, which NVRTC (having
 *     no <math.h>) lacks.  The generated CUDA C does not depend on it: the
 *     emitter writes infinities and NaN as bit patterns
 *     (__int_as_float(0x7f800000)) and reserves both names so that no
 *     kernel variable takes them; the prelude is for CUDA text that names
 *     them.  The host backend gets them from <cmath>.  The prelude also
 *     includes mt_kernel_rt.h (the conversions generated kernels call),
 *     given to NVRTC as a second in-memory header. */
#include "mt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef unsigned long long CUdeviceptr;
typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;

#define CUDA_SUCCESS 0
#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK 1
#define CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X 5
#define CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y 6
#define CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z 7
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CUDA_ERROR_OUT_OF_MEMORY 2
#define CUDA_ERROR_ASSERT 710
#define CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK 0
#define CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES 3
#define CU_FUNC_ATTRIBUTE_NUM_REGS 4
#define CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES 8
#define CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT 9
#define CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN 97
#define CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL 9
#define NVRTC_SUCCESS 0

/* Devices whose primary contexts one driver handle retains (device
 * indices 0 .. CUDA_MAX_DEVICES - 1); a table of a kernel's modules holds
 * as many contexts. */
#define CUDA_MAX_DEVICES 16

struct CudaDriver {
    void *cuda_dl;
    void *nvrtc_dl;
    bool cuda_tried, nvrtc_tried;
    CUresult init_result;
    int device_count;
    char nvrtc_ver[32];
    pthread_mutex_t lock;                  /* serialises retaining */
    _Atomic(CUcontext) primary[CUDA_MAX_DEVICES]; /* retained primary contexts */
    CUdevice primary_dev[CUDA_MAX_DEVICES]; /* ... and their devices */

    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxGetDevice)(CUdevice *);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
    CUresult (*cuModuleLoadData)(CUmodule *, const void *);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuModuleUnload)(CUmodule);
    CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
    CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                               unsigned, unsigned, unsigned, unsigned,
                               CUstream, void **, void **);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);

    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *,
                                      const char *, int, const char *const *,
                                      const char *const *);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char *);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
    nvrtcResult (*nvrtcVersion)(int *, int *);
    const char *(*nvrtcGetErrorString)(nvrtcResult);
};

struct CudaModule {
    CUmodule module;
    CUfunction function;
    CUcontext context;
    int max_threads;
    int max_grid[3];
    int regs, local_bytes, func_max_threads; /* what ptxas gave the function */
    int max_smem_optin;  /* the device's shared memory a program may opt into */
    atomic_int dynamic_smem; /* the dynamic shared memory the function allows */
};

/* A kernel's modules, one per context it ran in.  m[i] is written before
 * n counts it (release), so a reader that loads n (acquire) may scan the
 * first n without the lock; writers take it. */
struct CudaModules {
    pthread_mutex_t lock;
    atomic_int n;
    CudaModule *m[CUDA_MAX_DEVICES];
};

static const Loc no_loc = {0, 0};

/* mt_kernel_rt_header: src/mt_kernel_rt.h, the dtype conversions the
 * generated code calls, then src/mt_libdevice_rt.h, libdevice's functions;
 * the prelude includes them, so every kernel has them.
 * (A long string: ISO C only promises 4095 characters, every compiler
 * this builds with takes more.) */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverlength-strings"
#endif
#include "mt_kernel_rt_h.inc"
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

static const char nvrtc_prelude_name[] = "mytriton_nvrtc_prelude.h";
static const char nvrtc_prelude[] =
    "#ifndef INFINITY\n#define INFINITY __int_as_float(0x7f800000)\n#endif\n"
    "#ifndef NAN\n#define NAN __int_as_float(0x7fffffff)\n#endif\n"
    "#include \"mt_kernel_rt.h\"\n";

/* ISO C has no object-to-function pointer conversion; POSIX dlsym needs
 * one, done through memcpy of the representation. */
static bool load_sym(void *dl, const char *name, void *fnptr, size_t size) {
    void *sym = dlsym(dl, name);
    if (!sym)
        return false;
    memcpy(fnptr, &sym, size);
    return true;
}
#define LOAD(dl, d, field, name) load_sym((dl), (name), &(d)->field, sizeof((d)->field))

/* ---- loading ---- */

static int load_cuda(Ctx *c, CudaDriver *d) {
    if (d->cuda_dl)
        return 0;
    if (d->cuda_tried)
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "libcuda.so.1 not found: no NVIDIA driver (use the "
                          "host backend)");
    d->cuda_tried = true;
    void *dl = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!dl)
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "libcuda.so.1 not found: no NVIDIA driver (use the "
                          "host backend)");
    const char *missing = NULL;
#define NEED(field, name)                                                      \
    if (!missing && !LOAD(dl, d, field, name))                                 \
        missing = name;
    NEED(cuInit, "cuInit")
    NEED(cuDeviceGetCount, "cuDeviceGetCount")
    NEED(cuDeviceGet, "cuDeviceGet")
    NEED(cuDeviceGetAttribute, "cuDeviceGetAttribute")
    NEED(cuCtxGetCurrent, "cuCtxGetCurrent")
    NEED(cuCtxSetCurrent, "cuCtxSetCurrent")
    NEED(cuCtxGetDevice, "cuCtxGetDevice")
    NEED(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")
    NEED(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")
    NEED(cuModuleLoadData, "cuModuleLoadData")
    NEED(cuModuleGetFunction, "cuModuleGetFunction")
    NEED(cuModuleUnload, "cuModuleUnload")
    NEED(cuFuncGetAttribute, "cuFuncGetAttribute")
    NEED(cuFuncSetAttribute, "cuFuncSetAttribute")
    NEED(cuLaunchKernel, "cuLaunchKernel")
    NEED(cuGetErrorName, "cuGetErrorName")
    NEED(cuMemAlloc, "cuMemAlloc_v2")
    NEED(cuMemFree, "cuMemFree_v2")
    NEED(cuMemcpyHtoD, "cuMemcpyHtoD_v2")
    NEED(cuMemcpyDtoH, "cuMemcpyDtoH_v2")
    NEED(cuCtxSynchronize, "cuCtxSynchronize")
    NEED(cuPointerGetAttribute, "cuPointerGetAttribute")
#undef NEED
    if (missing) {
        dlclose(dl);
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "libcuda.so.1 lacks '%s': the NVIDIA driver is too "
                          "old", missing);
    }
    d->cuda_dl = dl;
    d->init_result = d->cuInit(0);
    d->device_count = 0;
    if (d->init_result == CUDA_SUCCESS &&
        d->cuDeviceGetCount(&d->device_count) != CUDA_SUCCESS)
        d->device_count = 0;
    return 0;
}

static int load_nvrtc(Ctx *c, CudaDriver *d) {
    if (d->nvrtc_dl)
        return 0;
    static const char *const names[] = {
        "libnvrtc.so",
        "libnvrtc.so.13",
        "libnvrtc.so.12",
        "/usr/local/cuda/lib64/libnvrtc.so",
        "/usr/local/cuda/lib64/libnvrtc.so.13",
        "/usr/local/cuda/lib64/libnvrtc.so.12",
    };
    void *dl = NULL;
    if (!d->nvrtc_tried)
        for (size_t i = 0; i < sizeof names / sizeof names[0] && !dl; i++)
            dl = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    d->nvrtc_tried = true;
    if (!dl)
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "libnvrtc not found (tried libnvrtc.so, .so.13, "
                          ".so.12 and /usr/local/cuda/lib64): install the "
                          "CUDA toolkit's NVRTC or use the host backend");
    const char *missing = NULL;
#define NEED(field)                                                            \
    if (!missing && !LOAD(dl, d, field, #field))                               \
        missing = #field;
    NEED(nvrtcCreateProgram)
    NEED(nvrtcCompileProgram)
    NEED(nvrtcGetProgramLogSize)
    NEED(nvrtcGetProgramLog)
    NEED(nvrtcGetPTXSize)
    NEED(nvrtcGetPTX)
    NEED(nvrtcGetCUBINSize)
    NEED(nvrtcGetCUBIN)
    NEED(nvrtcDestroyProgram)
    NEED(nvrtcVersion)
    NEED(nvrtcGetErrorString)
#undef NEED
    if (missing) {
        dlclose(dl);
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "libnvrtc lacks '%s': NVRTC older than CUDA 11.1",
                          missing);
    }
    d->nvrtc_dl = dl;
    int major = 0, minor = 0;
    if (d->nvrtcVersion(&major, &minor) == NVRTC_SUCCESS)
        snprintf(d->nvrtc_ver, sizeof d->nvrtc_ver, "%d.%d", major, minor);
    else
        snprintf(d->nvrtc_ver, sizeof d->nvrtc_ver, "unknown");
    return 0;
}

static CudaDriver *driver_new(Ctx *c, const char *what) {
    CudaDriver *d = calloc(1, sizeof *d);
    if (d && pthread_mutex_init(&d->lock, NULL) != 0) {
        free(d);
        d = NULL;
    }
    if (!d)
        diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for %s", what);
    return d;
}

CudaDriver *cuda_driver_open(Ctx *c) {
    CudaDriver *d = driver_new(c, "the CUDA driver");
    if (d && load_cuda(c, d) != 0) {
        cuda_driver_close(d);
        return NULL;
    }
    return d;
}

CudaDriver *cuda_nvrtc_open(Ctx *c) {
    CudaDriver *d = driver_new(c, "NVRTC");
    if (d && load_nvrtc(c, d) != 0) {
        cuda_driver_close(d);
        return NULL;
    }
    return d;
}

void cuda_driver_close(CudaDriver *d) {
    if (!d)
        return;
    for (int i = 0; i < CUDA_MAX_DEVICES; i++)
        if (atomic_load(&d->primary[i]))
            d->cuDevicePrimaryCtxRelease(d->primary_dev[i]);
    pthread_mutex_destroy(&d->lock);
    /* The libraries stay loaded (dlopen counts references, so reopening
     * is cheap): the driver does not support being unloaded in a live
     * process, and NVRTC's static C++ runtime allocates a pool it never
     * frees, which unloading turns into a leak. */
    free(d);
}

bool cuda_driver_has_device(CudaDriver *d) {
    if (!d)
        return false;
    if (!d->cuda_dl && !d->cuda_tried) {
        Ctx quiet = {0};
        load_cuda(&quiet, d);
        sb_free(&quiet.err);
    }
    return d->cuda_dl && d->init_result == CUDA_SUCCESS && d->device_count > 0;
}

/* ---- driver calls ---- */

static const char *cu_error_name(CudaDriver *d, CUresult r, char buf[48]) {
    const char *name = NULL;
    if (d->cuGetErrorName && d->cuGetErrorName(r, &name) == CUDA_SUCCESS && name)
        return name;
    snprintf(buf, 48, "CUDA error %d", r);
    return buf;
}

static int cu_check(Ctx *c, CudaDriver *d, CUresult r, const char *call) {
    if (r == CUDA_SUCCESS)
        return 0;
    char buf[48];
    /* a kernel's failed tl.device_assert (cuda_debug.c's __assertfail):
     * reported by the launch or sync after it, and by every call on the
     * context after that, which it leaves unusable */
    if (r == CUDA_ERROR_ASSERT)
        return diag_error(c, no_loc, MT_ERR_ASSERT,
                          "%.*s failed: %s: device-side assert triggered (a tl.device_assert "
                          "failed in debug mode; the device printed which one; the CUDA "
                          "context cannot be used any more)",
                          (int)strcspn(call, "("), call, cu_error_name(d, r, buf));
    /* `call` is the call's text; the function name is enough */
    return diag_error(c, no_loc, MT_ERR_CUDA, "%.*s failed: %s",
                      (int)strcspn(call, "("), call, cu_error_name(d, r, buf));
}
#define CU(c, d, call) cu_check((c), (d), (d)->call, #call)

/* The driver is loaded, initialised and has a device. */
static int need_device(Ctx *c, CudaDriver *d) {
    if (load_cuda(c, d) != 0)
        return -1;
    if (d->init_result != CUDA_SUCCESS) {
        char buf[48];
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "no usable CUDA device: cuInit failed: %s",
                          cu_error_name(d, d->init_result, buf));
    }
    if (d->device_count <= 0)
        return diag_error(c, no_loc, MT_ERR_NO_CUDA,
                          "no CUDA device: the driver reports none");
    return 0;
}

static int check_ordinal(Ctx *c, CudaDriver *d, int device) {
    if (device < 0 || device >= d->device_count)
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "CUDA device %d does not exist: the driver reports %d device%s",
                          device, d->device_count, d->device_count == 1 ? "" : "s");
    if (device >= CUDA_MAX_DEVICES)
        return diag_error(c, no_loc, MT_ERR_UNSUPPORTED,
                          "CUDA device %d: mytriton launches on devices 0 to %d only",
                          device, CUDA_MAX_DEVICES - 1);
    return 0;
}

/* The primary context of device `device` (an ordinal), retained at its
 * first use and kept until the handle closes. */
static int primary_context(Ctx *c, CudaDriver *d, int device, CUcontext *out) {
    if (need_device(c, d) != 0)
        return -1;
    if (check_ordinal(c, d, device) != 0)
        return -1;
    if ((*out = atomic_load(&d->primary[device])) != NULL) /* every launch but the first */
        return 0;
    pthread_mutex_lock(&d->lock);
    int rc = 0;
    if (!atomic_load(&d->primary[device])) {
        CUdevice dev;
        CUcontext ctx = NULL;
        rc = CU(c, d, cuDeviceGet(&dev, device));
        if (rc == 0)
            rc = CU(c, d, cuDevicePrimaryCtxRetain(&ctx, dev));
        if (rc == 0) {
            d->primary_dev[device] = dev;
            atomic_store(&d->primary[device], ctx);
        }
    }
    *out = atomic_load(&d->primary[device]);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

/* Makes sure a context is current: the caller's, else device 0's primary
 * context. */
static int ensure_context(Ctx *c, CudaDriver *d, CUcontext *ctx) {
    if (need_device(c, d) != 0)
        return -1;
    if (CU(c, d, cuCtxGetCurrent(ctx)) != 0)
        return -1;
    if (*ctx)
        return 0;
    if (primary_context(c, d, 0, ctx) != 0)
        return -1;
    return CU(c, d, cuCtxSetCurrent(*ctx));
}

static int device_attr(Ctx *c, CudaDriver *d, CUdevice dev, int attr,
                       int *out) {
    return CU(c, d, cuDeviceGetAttribute(out, attr, dev));
}

int cuda_device_arch_at(Ctx *c, CudaDriver *d, int device, char arch[16]) {
    if (need_device(c, d) != 0)
        return -1;
    CUdevice dev;
    CUcontext ctx = NULL;
    int major, minor;
    if (device >= 0) {
        if (check_ordinal(c, d, device) != 0)
            return -1;
        if (CU(c, d, cuDeviceGet(&dev, device)) != 0)
            return -1;
    } else if (CU(c, d, cuCtxGetCurrent(&ctx)) != 0 ||
               (ctx ? CU(c, d, cuCtxGetDevice(&dev)) : CU(c, d, cuDeviceGet(&dev, 0))) != 0) {
        return -1;
    }
    if (device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major) != 0 ||
        device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor) != 0)
        return -1;
    snprintf(arch, 16, "sm_%d%d", major, minor);
    return 0;
}

int cuda_device_arch(Ctx *c, CudaDriver *d, char arch[16]) {
    return cuda_device_arch_at(c, d, -1, arch);
}

int cuda_pointer_device(Ctx *c, CudaDriver *d, const void *p, int *device) {
    if (need_device(c, d) != 0)
        return -1;
    int ordinal = -1;
    CUresult r = d->cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                          (CUdeviceptr)(uintptr_t)p);
    if (r != CUDA_SUCCESS) {
        char buf[48];
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "%p is not memory the CUDA driver knows (cuPointerGetAttribute: %s)",
                          p, cu_error_name(d, r, buf));
    }
    *device = ordinal;
    return 0;
}

int cuda_scope_enter(Ctx *c, CudaDriver *d, int device, CudaScope *s) {
    s->ctx = s->prev = NULL;
    s->switched = false;
    if (device < 0) {
        CUcontext cur;
        if (ensure_context(c, d, &cur) != 0)
            return -1;
        s->ctx = cur;
        return 0;
    }
    CUcontext want, cur = NULL;
    if (primary_context(c, d, device, &want) != 0 || CU(c, d, cuCtxGetCurrent(&cur)) != 0)
        return -1;
    s->ctx = want;
    s->prev = cur;
    if (cur == want)
        return 0;
    if (CU(c, d, cuCtxSetCurrent(want)) != 0)
        return -1;
    s->switched = true;
    return 0;
}

void cuda_scope_exit(CudaDriver *d, CudaScope *s) {
    /* the caller's context back, even none: a thread that had none keeps
     * none, so torch's current device does not move */
    if (s->switched)
        d->cuCtxSetCurrent((CUcontext)s->prev);
    s->switched = false;
}

/* ---- NVRTC ---- */

static bool valid_arch(const char *arch, const char **digits) {
    const char *p;
    if (strncmp(arch, "sm_", 3) == 0)
        p = arch + 3;
    else if (strncmp(arch, "compute_", 8) == 0)
        p = arch + 8;
    else
        return false;
    *digits = p;
    if (!(*p >= '0' && *p <= '9'))
        return false;
    while (*p >= '0' && *p <= '9')
        p++;
    if (*p == 'a' || *p == 'f')
        p++;
    return *p == 0 && strlen(arch) < 24;
}

static int nvrtc_fail(Ctx *c, CudaDriver *d, nvrtcResult r, const char *call) {
    const char *s = d->nvrtcGetErrorString ? d->nvrtcGetErrorString(r) : NULL;
    return diag_error(c, no_loc, MT_ERR_NVRTC, "%s failed: %s", call,
                      s ? s : "unknown NVRTC error");
}

/* What ptxas reported for the kernel (--ptxas-options=--verbose). */
typedef struct PtxasUse {
    bool known;
    int regs;
    int spill_bytes; /* spill stores */
} PtxasUse;

/* Reads "Used N registers" and "N bytes spill stores" from NVRTC's log. */
static PtxasUse ptxas_use(const char *log) {
    PtxasUse u = {false, 0, 0};
    const char *p = log ? strstr(log, "Used ") : NULL;
    if (p && sscanf(p, "Used %d registers", &u.regs) == 1)
        u.known = true;
    const char *q = log ? strstr(log, " bytes spill stores") : NULL;
    if (q) {
        while (q > log && q[-1] >= '0' && q[-1] <= '9')
            q--;
        u.spill_bytes = atoi(q);
    } else
        u.known = false;
    return u;
}

/* The kernel's __launch_bounds__: its threads, and its blocks per SM (0
 * where it names none).  False when the text has none. */
static bool launch_bounds(const char *src, int *threads, int *blocks) {
    const char *p = strstr(src, "__launch_bounds__(");
    *threads = *blocks = 0;
    int used = 0;
    if (p && sscanf(p, "__launch_bounds__(%d, %d)%n", threads, blocks, &used) == 2 && used > 0)
        return true;
    *blocks = 0;
    return p && sscanf(p, "__launch_bounds__(%d)%n", threads, &used) == 1 && used > 0;
}

/* The SM's limits for occupancy, from sm_XY (0 threads: not known). */
typedef struct SmLimits {
    int threads, blocks;
    long smem;
} SmLimits;

static SmLimits sm_limits(const char *arch) {
    SmLimits none = {0, 0, 0};
    const char *digits;
    if (!valid_arch(arch, &digits))
        return none;
    int sm = atoi(digits);
    if (sm == 80 || sm == 90) /* A100, H100/H200: 164 / 228 KiB of shared memory */
        return (SmLimits){2048, 32, sm == 90 ? 233472 : 167936};
    if (sm == 86 || sm == 87 || sm == 89)
        return (SmLimits){1536, sm == 87 ? 16 : sm == 89 ? 24 : 16, 102400};
    return none;
}

int occupancy_register_cap(const char *arch, int threads, size_t shared_bytes, int regs,
                           int *blocks_out) {
    SmLimits L = sm_limits(arch);
    if (L.threads == 0 || threads <= 0 || threads > L.threads || regs <= 0)
        return 0;
    int warps = (threads + 31) / 32;
    int most = L.threads / threads < L.blocks ? L.threads / threads : L.blocks;
    if (shared_bytes > 0) {
        long by_smem = L.smem / ((long)shared_bytes + 1024); /* 1 KiB reserved per block */
        if (by_smem < most)
            most = (int)by_smem;
    }
    /* registers go to warps in units of 256 (8 a thread) */
    int per_warp = (regs * 32 + 255) / 256 * 256;
    int blocks = 65536 / (per_warp * warps);
    if (blocks >= most)
        return 0;
    int cap = 65536 / ((blocks + 1) * warps) / 256 * 256 / 32;
    if (cap > 255)
        cap = 255;
    if (cap < 16 || regs - cap > 8)
        return 0;
    if (blocks_out) { /* what the cap gives, up to the other limits */
        int at_cap = 65536 / (cap * 32 * warps);
        *blocks_out = at_cap < most ? at_cap : most;
    }
    return cap;
}

/* src with its launch bounds rewritten to `__launch_bounds__(threads,
 * blocks)`, or `(threads)` for blocks 0.  ptxas ignores --maxrregcount
 * alone for a kernel whose launch bounds name its threads (.maxntid), but
 * honours .minnctapersm; with both, it spills less (tutorial 02's softmax
 * at N = 2048 with its next row ahead: 4 bytes of spill with the blocks
 * alone, none with the cap too; ptxas 13.0). */
static char *with_blocks(const char *src, int threads, int blocks) {
    const char *p = strstr(src, "__launch_bounds__(");
    const char *close = p ? strchr(p, ')') : NULL;
    if (!close)
        return NULL;
    char bounds[64];
    int n = blocks > 0 ? snprintf(bounds, sizeof bounds, "__launch_bounds__(%d, %d", threads, blocks)
                       : snprintf(bounds, sizeof bounds, "__launch_bounds__(%d", threads);
    size_t head = (size_t)(p - src), tail = strlen(close);
    char *out = malloc(head + (size_t)n + tail + 1);
    if (!out)
        return NULL;
    memcpy(out, src, head);
    memcpy(out + head, bounds, (size_t)n);
    memcpy(out + head + n, close, tail + 1);
    return out;
}

static int nvrtc_build(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                       const char *extra, StrBuf *ptx, StrBuf *cubin, PtxasUse *use);

/* Builds src with its launch bounds at (threads, blocks) and extra
 * options; where ptxas builds it without spilling, with at most cap
 * registers (0: any), the result replaces cubin and *regs.  A build that
 * ptxas refuses outright stands aside for the one in hand: a cap can be
 * too tight for a wgmma, which needs its accumulators and descriptors in
 * registers at once (the fp8 64x64x32 tile: "Insufficient registers
 * (56)", 58 needed).  Returns 1 when taken, 0 when not, -1 on error. */
static int rebuild_bounded(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                           int threads, int blocks, const char *extra, int cap, StrBuf *cubin,
                           int *regs) {
    char *bounded = with_blocks(src, threads, blocks);
    if (!bounded)
        return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for a kernel's text");
    StrBuf built;
    sb_init(&built);
    PtxasUse use;
    int rc = nvrtc_build(c, d, bounded, arch, fmad, extra, NULL, &built, &use);
    free(bounded);
    if (rc != 0) {
        diag_clear(c);
        rc = 0;
    } else if (use.known && use.spill_bytes == 0 && (cap == 0 || use.regs <= cap)) {
        *regs = use.regs;
        sb_clear(cubin);
        sb_putn(cubin, built.data, built.len);
        rc = cubin->failed ? diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for a cubin") : 1;
    }
    sb_free(&built);
    return rc;
}

/* The kernel's cubin, its registers fitted to the SM's occupancy steps.
 *
 * A kernel of one launch bound that ptxas leaves a few registers above a
 * step (tutorial 02's softmax: 34 registers, 6 blocks of 256 threads where
 * 32 fit 8) is built again with that step's blocks per SM in its launch
 * bounds and the step's cap (--maxrregcount), kept only when ptxas builds
 * it without spilling.
 *
 * A pipelined dot names its blocks per SM already (dotplan.c's estimate of
 * the registers its tile needs); where ptxas spills under that ask (the
 * fp32 128x128x32 tile on 8 warps at 3 stages: 40 bytes, at 2 blocks of
 * 128 registers), it is built with one block fewer at a time, down to
 * none named, and the first build without spills is kept: Triton asks for
 * no blocks per SM, and a spilling K loop reads local memory every step. */
static int nvrtc_build_fitted(Ctx *c, CudaDriver *d, const char *src, const char *arch,
                              bool fmad, size_t shared_bytes, StrBuf *cubin, int *regs) {
    PtxasUse first;
    if (nvrtc_build(c, d, src, arch, fmad, NULL, NULL, cubin, &first) != 0)
        return -1;
    *regs = first.known ? first.regs : 0;
    int threads, asked;
    if (!first.known || !launch_bounds(src, &threads, &asked))
        return 0;
    if (first.spill_bytes > 0 && asked > 0) {
        int rc = 0;
        /* one block per SM is no ask at all: the last build names none */
        for (int blocks = asked - 1; blocks >= 1 && rc == 0; blocks--)
            rc = rebuild_bounded(c, d, src, arch, fmad, threads, blocks > 1 ? blocks : 0, NULL,
                                 0, cubin, regs);
        return rc < 0 ? -1 : 0;
    }
    if (first.spill_bytes > 0 || asked > 0)
        return 0;
    int blocks = 0;
    int cap = occupancy_register_cap(arch, threads, shared_bytes, first.regs, &blocks);
    if (cap == 0)
        return 0;
    char opt[40];
    snprintf(opt, sizeof opt, "--maxrregcount=%d", cap);
    return rebuild_bounded(c, d, src, arch, fmad, threads, blocks, opt, cap, cubin, regs) < 0 ? -1
                                                                                            : 0;
}

static int nvrtc_build(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                       const char *extra, StrBuf *ptx, StrBuf *cubin, PtxasUse *use) {
    const char *digits;
    if (!arch || !valid_arch(arch, &digits))
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "bad GPU architecture '%s': expected sm_XY such as "
                          "'sm_90'", arch ? arch : "(null)");
    /* sm_XY gives both PTX and cubin; compute_XY only PTX */
    bool virtual_arch = strncmp(arch, "compute_", 8) == 0;
    if (cubin && virtual_arch)
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "a cubin needs a real architecture (sm_%s), not '%s'",
                          digits, arch);
    char arch_opt[48];
    snprintf(arch_opt, sizeof arch_opt, "--gpu-architecture=%s", arch);
    char include_opt[64];
    snprintf(include_opt, sizeof include_opt, "--pre-include=%s",
             nvrtc_prelude_name);
    const char *opts[8] = {arch_opt, "-std=c++17", "-default-device", include_opt};
    int nopts = 4;
    if (!fmad)
        opts[nopts++] = "--fmad=false";
    if (use)
        opts[nopts++] = "--ptxas-options=--verbose";
    if (extra)
        opts[nopts++] = extra;
    const char *hdr_src[] = {nvrtc_prelude, mt_kernel_rt_header};
    const char *hdr_name[] = {nvrtc_prelude_name, "mt_kernel_rt.h"};

    nvrtcProgram prog = NULL;
    nvrtcResult r = d->nvrtcCreateProgram(&prog, src, "kernel.cu",
                                          (int)(sizeof hdr_src / sizeof hdr_src[0]),
                                          hdr_src, hdr_name);
    if (r != NVRTC_SUCCESS)
        return nvrtc_fail(c, d, r, "nvrtcCreateProgram");
    int rc = 0;
    r = d->nvrtcCompileProgram(prog, nopts, opts);
    if (r != NVRTC_SUCCESS || use) {
        size_t n = 0;
        char *log = NULL;
        if (d->nvrtcGetProgramLogSize(prog, &n) == NVRTC_SUCCESS && n > 0 &&
            (log = malloc(n + 1)) != NULL &&
            d->nvrtcGetProgramLog(prog, log) == NVRTC_SUCCESS)
            log[n] = 0;
        else if (log)
            log[0] = 0;
        if (r == NVRTC_SUCCESS) {
            *use = ptxas_use(log);
            free(log);
        } else {
            const char *s = d->nvrtcGetErrorString(r);
            rc = diag_error(c, no_loc, MT_ERR_NVRTC,
                            "nvrtc failed to compile the generated CUDA C (%s):\n%s",
                            s ? s : "error", log ? log : "");
            free(log);
            goto out;
        }
    }
    if (ptx) {
        size_t n = 0;
        r = d->nvrtcGetPTXSize(prog, &n);
        if (r != NVRTC_SUCCESS) {
            rc = nvrtc_fail(c, d, r, "nvrtcGetPTXSize");
            goto out;
        }
        char *buf = malloc(n ? n : 1);
        if (!buf) {
            rc = diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for PTX");
            goto out;
        }
        r = d->nvrtcGetPTX(prog, buf);
        if (r != NVRTC_SUCCESS) {
            free(buf);
            rc = nvrtc_fail(c, d, r, "nvrtcGetPTX");
            goto out;
        }
        /* the size counts the terminating NUL */
        size_t len = strnlen(buf, n);
        sb_clear(ptx);
        sb_putn(ptx, buf, len);
        free(buf);
    }
    if (cubin) {
        size_t n = 0;
        r = d->nvrtcGetCUBINSize(prog, &n);
        if (r != NVRTC_SUCCESS) {
            rc = nvrtc_fail(c, d, r, "nvrtcGetCUBINSize");
            goto out;
        }
        if (n == 0) {
            rc = diag_error(c, no_loc, MT_ERR_NVRTC,
                            "nvrtc produced no cubin for '%s'", arch);
            goto out;
        }
        char *buf = malloc(n);
        if (!buf) {
            rc = diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for a cubin");
            goto out;
        }
        r = d->nvrtcGetCUBIN(prog, buf);
        if (r != NVRTC_SUCCESS) {
            free(buf);
            rc = nvrtc_fail(c, d, r, "nvrtcGetCUBIN");
            goto out;
        }
        sb_clear(cubin);
        sb_putn(cubin, buf, n);
        free(buf);
    }
    if ((ptx && ptx->failed) || (cubin && cubin->failed))
        rc = diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for NVRTC output");
out:
    d->nvrtcDestroyProgram(&prog);
    return rc;
}

int nvrtc_compile(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                  StrBuf *ptx, StrBuf *cubin) {
    if (!src)
        return diag_error(c, no_loc, MT_ERR_INTERNAL, "nvrtc_compile: no source");
    if (d) {
        if (load_nvrtc(c, d) != 0)
            return -1;
        return nvrtc_build(c, d, src, arch, fmad, NULL, ptx, cubin, NULL);
    }
    /* no handle: NVRTC for this call only */
    CudaDriver *tmp = cuda_nvrtc_open(c);
    if (!tmp)
        return -1;
    int rc = nvrtc_build(c, tmp, src, arch, fmad, NULL, ptx, cubin, NULL);
    cuda_driver_close(tmp);
    return rc;
}

int nvrtc_compile_kernel(Ctx *c, CudaDriver *d, const char *src, const char *arch, bool fmad,
                         size_t shared_bytes, StrBuf *cubin, int *regs) {
    int kept = 0;
    if (regs)
        *regs = 0;
    if (!src)
        return diag_error(c, no_loc, MT_ERR_INTERNAL, "nvrtc_compile_kernel: no source");
    if (load_nvrtc(c, d) != 0)
        return -1;
    int rc = nvrtc_build_fitted(c, d, src, arch, fmad, shared_bytes, cubin, &kept);
    if (regs)
        *regs = kept;
    return rc;
}

const char *nvrtc_version(CudaDriver *d) {
    if (!d)
        return "none";
    if (!d->nvrtc_dl) {
        Ctx quiet = {0};
        int rc = load_nvrtc(&quiet, d);
        sb_free(&quiet.err);
        if (rc != 0)
            return "none";
    }
    return d->nvrtc_ver;
}

/* ---- modules and launches ---- */

static int module_load_in(Ctx *c, CudaDriver *d, CUcontext ctx, const void *cubin,
                          const char *kernel, CudaModule **out);

int cuda_module_load(Ctx *c, CudaDriver *d, const void *cubin, size_t n,
                     const char *kernel, CudaModule **out) {
    *out = NULL;
    if (!cubin || n == 0 || !kernel)
        return diag_error(c, no_loc, MT_ERR_INTERNAL,
                          "cuda_module_load: no cubin or kernel name");
    CUcontext ctx;
    if (ensure_context(c, d, &ctx) != 0)
        return -1;
    return module_load_in(c, d, ctx, cubin, kernel, out);
}

/* Loads the cubin in ctx, which is current. */
static int module_load_in(Ctx *c, CudaDriver *d, CUcontext ctx, const void *cubin,
                          const char *kernel, CudaModule **out) {
    CudaModule *m = calloc(1, sizeof *m);
    if (!m)
        return diag_error(c, no_loc, MT_ERR_NOMEM, "out of memory for a module");
    m->context = ctx;
    CUdevice dev;
    if (CU(c, d, cuCtxGetDevice(&dev)) != 0 ||
        device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                    &m->max_threads) != 0 ||
        device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X,
                    &m->max_grid[0]) != 0 ||
        device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                    &m->max_grid[1]) != 0 ||
        device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z,
                    &m->max_grid[2]) != 0 ||
        device_attr(c, d, dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                    &m->max_smem_optin) != 0) {
        free(m);
        return -1;
    }
    if (CU(c, d, cuModuleLoadData(&m->module, cubin)) != 0) {
        free(m);
        return -1;
    }
    CUresult r = d->cuModuleGetFunction(&m->function, m->module, kernel);
    if (r != CUDA_SUCCESS) {
        char buf[48];
        diag_error(c, no_loc, MT_ERR_CUDA,
                   "cuModuleGetFunction failed for '%s': %s", kernel,
                   cu_error_name(d, r, buf));
        d->cuModuleUnload(m->module);
        free(m);
        return -1;
    }
    if (CU(c, d, cuFuncGetAttribute(&m->regs, CU_FUNC_ATTRIBUTE_NUM_REGS, m->function)) != 0 ||
        CU(c, d, cuFuncGetAttribute(&m->local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                                    m->function)) != 0 ||
        CU(c, d, cuFuncGetAttribute(&m->func_max_threads,
                                    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, m->function)) != 0) {
        d->cuModuleUnload(m->module);
        free(m);
        return -1;
    }
    *out = m;
    return 0;
}

void cuda_module_usage(const CudaModule *m, int *regs, int *local_bytes, int *max_threads) {
    *regs = m->regs;
    *local_bytes = m->local_bytes;
    *max_threads = m->func_max_threads;
}

void cuda_module_unload(CudaDriver *d, CudaModule *m) {
    if (!m)
        return;
    if (d && d->cuda_dl) {
        /* unload in the module's own context, then restore the caller's */
        CUcontext cur = NULL;
        bool switched = false;
        if (d->cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur != m->context &&
            d->cuCtxSetCurrent(m->context) == CUDA_SUCCESS)
            switched = true;
        d->cuModuleUnload(m->module);
        if (switched)
            d->cuCtxSetCurrent(cur);
    }
    free(m);
}

CudaModules *cuda_modules_new(void) {
    CudaModules *t = calloc(1, sizeof *t);
    if (t && pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        t = NULL;
    }
    return t;
}

void cuda_modules_free(CudaDriver *d, CudaModules *t) {
    if (!t)
        return;
    for (int i = 0; i < atomic_load(&t->n); i++)
        cuda_module_unload(d, t->m[i]);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

int cuda_modules_get(Ctx *c, CudaDriver *d, CudaModules *t, const CudaScope *s,
                     const void *cubin, size_t n, const char *kernel, CudaModule **out) {
    *out = NULL;
    if (!cubin || n == 0 || !kernel)
        return diag_error(c, no_loc, MT_ERR_INTERNAL, "cuda_modules_get: no cubin or kernel name");
    /* a hit takes no lock; a miss takes the kernel's, so loading it on
     * one device waits only for loads of the same kernel, and a second
     * thread missing on the same context finds the first one's module */
    int have = atomic_load(&t->n);
    for (int i = 0; i < have; i++)
        if (t->m[i]->context == s->ctx) {
            *out = t->m[i];
            return 0;
        }
    pthread_mutex_lock(&t->lock);
    int rc = 0;
    CudaModule *m = NULL;
    have = atomic_load(&t->n);
    for (int i = 0; i < have && !m; i++)
        if (t->m[i]->context == s->ctx)
            m = t->m[i];
    if (!m && have == CUDA_MAX_DEVICES)
        rc = diag_error(c, no_loc, MT_ERR_RESOURCE,
                        "kernel '%s' is loaded in %d CUDA contexts already", kernel,
                        CUDA_MAX_DEVICES);
    else if (!m && (rc = module_load_in(c, d, (CUcontext)s->ctx, cubin, kernel, &m)) == 0) {
        t->m[have] = m;
        atomic_store(&t->n, have + 1); /* publishes m[have] */
    }
    pthread_mutex_unlock(&t->lock);
    *out = m;
    return rc;
}

int cuda_launch(Ctx *c, CudaDriver *d, CudaModule *m, const uint32_t grid[3],
                int threads, size_t smem, void *stream, void **args) {
    if (!d || !m)
        return diag_error(c, no_loc, MT_ERR_ARG,
                          "launch of a kernel that was not loaded on a GPU");
    if (threads < 1 || threads > m->max_threads)
        return diag_error(c, no_loc, MT_ERR_RESOURCE,
                          "%d threads per program exceed the device limit of %d",
                          threads, m->max_threads);
    static const char axis[3] = {'x', 'y', 'z'};
    for (int i = 0; i < 3; i++)
        if (grid[i] < 1 || grid[i] > (uint32_t)m->max_grid[i])
            return diag_error(c, no_loc, MT_ERR_ARG,
                              "grid %c dimension must be in 1..%d, got %u",
                              axis[i], m->max_grid[i], grid[i]);
    if (smem > (size_t)m->max_smem_optin)
        return diag_error(c, no_loc, MT_ERR_RESOURCE,
                          "the kernel needs %zu bytes of shared memory, more than "
                          "this device's %d", smem, m->max_smem_optin);
    /* past the default 48 KiB a function must opt in, once (two threads
     * may both do it: the calls are idempotent); it then prefers the
     * largest shared-memory carveout, as Triton's launcher sets such
     * kernels (CU_FUNC_CACHE_PREFER_SHARED) */
    if (smem > (size_t)atomic_load(&m->dynamic_smem) && smem > MT_SMEM_BUDGET) {
        if (CU(c, d, cuFuncSetAttribute(m->function,
                                        CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                        (int)smem)) != 0 ||
            CU(c, d, cuFuncSetAttribute(m->function,
                                        CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                        100)) != 0)
            return -1;
        atomic_store(&m->dynamic_smem, (int)smem);
    }
    return CU(c, d, cuLaunchKernel(m->function, grid[0], grid[1], grid[2],
                                   (unsigned)threads, 1, 1, (unsigned)smem,
                                   (CUstream)stream, args, NULL));
}

/* ---- device memory ---- */

int cuda_mem_alloc(Ctx *c, CudaDriver *d, size_t n, void **out) {
    *out = NULL;
    CUcontext ctx;
    if (ensure_context(c, d, &ctx) != 0)
        return -1;
    CUdeviceptr p = 0;
    CUresult r = d->cuMemAlloc(&p, n ? n : 1);
    if (r != CUDA_SUCCESS) {
        char buf[48];
        return diag_error(c, no_loc, r == CUDA_ERROR_OUT_OF_MEMORY ? MT_ERR_NOMEM : MT_ERR_CUDA,
                          "cuMemAlloc of %zu bytes failed: %s", n,
                          cu_error_name(d, r, buf));
    }
    *out = (void *)(uintptr_t)p;
    return 0;
}

int cuda_mem_free(Ctx *c, CudaDriver *d, void *p) {
    if (!p)
        return 0;
    CUcontext ctx;
    if (ensure_context(c, d, &ctx) != 0)
        return -1;
    return CU(c, d, cuMemFree((CUdeviceptr)(uintptr_t)p));
}

int cuda_memcpy(Ctx *c, CudaDriver *d, void *dst, const void *src, size_t n,
                int to_device) {
    if (n == 0)
        return 0;
    CUcontext ctx;
    if (ensure_context(c, d, &ctx) != 0)
        return -1;
    if (to_device)
        return CU(c, d, cuMemcpyHtoD((CUdeviceptr)(uintptr_t)dst, src, n));
    return CU(c, d, cuMemcpyDtoH(dst, (CUdeviceptr)(uintptr_t)src, n));
}

int cuda_synchronize(Ctx *c, CudaDriver *d) {
    CUcontext ctx;
    if (ensure_context(c, d, &ctx) != 0)
        return -1;
    return CU(c, d, cuCtxSynchronize());
}
