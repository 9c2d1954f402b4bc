/* fake_test: the generated GPU file vadd.c (examples/aot: add_kernel for
 * sm_80 and sm_90) against fake_cuda.c's driver (run.sh sets
 * FAKE_CUDA_SM and reads the driver's log).  Argument: the statuses the
 * run should see, "ok" or "noimage" (a device no image fits) or
 * "launchfail", or "shared": another user (another generated file, torch)
 * made the primary context current and lets go of it while vadd's module
 * lives. */
#include "vadd.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void expect(int cond, const char *what, const char *msg) {
    if (!cond) {
        fprintf(stderr, "FAILED: %s (message '%s')\n", what, msg);
        failures++;
    }
}

/* The primary context retained and made current, then released after
 * vadd_load, as another library would: vadd must hold its own reference. */
static int shared_primary(void) {
    void *dl = dlopen("libcuda.so.1", RTLD_NOW);
    int (*retain)(void **, int), (*set)(void *), (*release)(int);
    if (!dl || !(*(void **)&retain = dlsym(dl, "cuDevicePrimaryCtxRetain")) ||
        !(*(void **)&set = dlsym(dl, "cuCtxSetCurrent")) ||
        !(*(void **)&release = dlsym(dl, "cuDevicePrimaryCtxRelease_v2")))
        return 1;
    void *ctx = NULL;
    retain(&ctx, 0);
    set(ctx);
    expect(vadd_load() == MT_OK, "vadd_load in a current primary context", vadd_errmsg());
    release(0);
    expect(vadd_unload() == MT_OK, "vadd_unload after the other user let go",
           vadd_errmsg());
    return failures != 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (!strcmp(mode, "shared"))
        return shared_primary();
    float *x = (float *)0x1000, *y = (float *)0x2000, *out = (float *)0x3000;
    mt_status st = vadd(NULL, 3, 1, 1, x, y, out, 77);
    expect(st == MT_ERR_ARG && strstr(vadd_errmsg(), "call vadd_load first"),
           "a launch before vadd_load", vadd_errmsg());
    st = vadd_load();
    if (!strcmp(mode, "noimage")) {
        expect(st == MT_ERR_CUDA && strstr(vadd_errmsg(), "holds code for sm_80, sm_90 only"),
               "no image for the device", vadd_errmsg());
        return failures != 0;
    }
    expect(st == MT_OK && !*vadd_errmsg(), "vadd_load", vadd_errmsg());
    st = vadd(NULL, 3, 1, 1, x, y, out, 77);
    if (!strcmp(mode, "launchfail"))
        expect(st == MT_ERR_CUDA &&
                   strstr(vadd_errmsg(), "cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED"),
               "a failed launch", vadd_errmsg());
    else
        expect(st == MT_OK, "vadd", vadd_errmsg());
    st = vadd(NULL, 3, 1, 1, x, NULL, out, 77);
    expect(st == MT_ERR_ARG && strstr(vadd_errmsg(), "'y' is NULL"), "NULL y", vadd_errmsg());
    st = vadd(NULL, 3, 0, 1, x, y, out, 77);
    expect(st == MT_ERR_ARG && strstr(vadd_errmsg(), "grid"), "grid 0", vadd_errmsg());
    st = vadd_grid(NULL, x, y, out, 2049); /* (2049 + 1023) / 1024 = 3 programs */
    expect(st == MT_OK || !strcmp(mode, "launchfail"), "vadd_grid", vadd_errmsg());
    expect(vadd_unload() == MT_OK, "vadd_unload", vadd_errmsg());
    return failures != 0;
}
