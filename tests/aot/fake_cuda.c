/* fake_cuda.c: a stand-in libcuda.so.1 for test-aot (no GPU here): the
 * driver functions the generated GPU files resolve, answering as a device
 * of compute capability $FAKE_CUDA_SM (default 90) would, and writing
 * what they were asked to $FAKE_CUDA_LOG, one line per call that matters:
 *
 *   load cubin sm_90 | load ptx sm_90   the image cuModuleLoadData got
 *                                       (an ELF cubin's e_flags name its
 *                                       arch; a PTX its .target line)
 *   function NAME                       cuModuleGetFunction
 *   launch GX GY GZ block BX smem S p0 P p3 N
 *                                       cuLaunchKernel: grid, block, the
 *                                       first parameter as a pointer and
 *                                       the fourth as an int32
 *   unload | retain | release           modules and the primary context
 *
 * FAKE_CUDA_FAIL=launch makes cuLaunchKernel fail.  Compiled against the
 * real cuda.h when there is one, so every name and prototype here is the
 * driver's own (cuda.h maps cuDevicePrimaryCtxRelease to its _v2). */
#if defined(__has_include)
#if __has_include(<cuda.h>)
#include <cuda.h>
#define HAVE_CUDA_H 1
#endif
#endif
#ifndef HAVE_CUDA_H
typedef int CUresult;
typedef int CUdevice;
typedef int CUdevice_attribute;
typedef int CUfunction_attribute;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
#define cuDevicePrimaryCtxRelease cuDevicePrimaryCtxRelease_v2
#endif

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define OK ((CUresult)0)
#define LAUNCH_FAILED ((CUresult)719)

#define CONTEXT_DESTROYED ((CUresult)709)
static CUcontext current;
static int primary_refs; /* the primary context lives while retained */
static struct CUctx_st *const primary = (struct CUctx_st *)0x1;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
    const char *path = getenv("FAKE_CUDA_LOG");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (!f)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fputc('\n', f);
    fclose(f);
}

static int sm(void) {
    const char *e = getenv("FAKE_CUDA_SM");
    return e ? atoi(e) : 90;
}

CUresult cuInit(unsigned flags) {
    (void)flags;
    return OK;
}
CUresult cuDeviceGet(CUdevice *d, int ordinal) {
    *d = ordinal;
    return OK;
}
CUresult cuCtxGetDevice(CUdevice *d) {
    *d = 0;
    return OK;
}
CUresult cuCtxGetCurrent(CUcontext *c) {
    *c = current;
    return OK;
}
CUresult cuCtxSetCurrent(CUcontext c) {
    current = c;
    return OK;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d) {
    (void)d;
    say("retain");
    primary_refs++;
    *c = primary;
    return OK;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice d) {
    (void)d;
    say("release");
    return primary_refs-- > 0 ? OK : CONTEXT_DESTROYED;
}
CUresult cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d) {
    (void)d;
    *v = a == 75 ? sm() / 10 : a == 76 ? sm() % 10 : a == 97 ? 232448 : 0;
    return OK;
}
CUresult cuModuleLoadData(CUmodule *m, const void *image) {
    const unsigned char *b = image;
    if (!memcmp(b, "\177ELF", 4)) {
        uint32_t flags;
        memcpy(&flags, b + 48, 4); /* ELF64 e_flags: bits 8..15, the SM */
        say("load cubin sm_%u", (flags >> 8) & 0xff);
    } else {
        const char *t = strstr(image, ".target sm_");
        say("load ptx sm_%d", t ? atoi(t + 11) : -1);
    }
    *m = (CUmodule)0x2;
    return OK;
}
CUresult cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
    (void)m;
    say("function %s", name);
    *f = (CUfunction)0x3;
    return OK;
}
CUresult cuModuleUnload(CUmodule m) {
    (void)m;
    say("unload");
    /* a module of a primary context nobody retains any more is gone */
    return current == primary && primary_refs <= 0 ? CONTEXT_DESTROYED : OK;
}
CUresult cuFuncSetAttribute(CUfunction f, CUfunction_attribute a, int v) {
    (void)f;
    say("attribute %d %d", (int)a, v);
    return OK;
}
CUresult cuGetErrorName(CUresult r, const char **s) {
    *s = r == LAUNCH_FAILED       ? "CUDA_ERROR_LAUNCH_FAILED"
         : r == CONTEXT_DESTROYED ? "CUDA_ERROR_CONTEXT_IS_DESTROYED"
                                  : "CUDA_ERROR_UNKNOWN";
    return OK;
}
CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                        unsigned by, unsigned bz, unsigned smem, CUstream s, void **params,
                        void **extra) {
    (void)f, (void)by, (void)bz, (void)s, (void)extra;
    const char *fail = getenv("FAKE_CUDA_FAIL");
    if (fail && !strcmp(fail, "launch"))
        return LAUNCH_FAILED;
    say("launch %u %u %u block %u smem %u p0 %p p3 %d", gx, gy, gz, bx, smem,
        *(void **)params[0], *(int32_t *)params[3]);
    return OK;
}
