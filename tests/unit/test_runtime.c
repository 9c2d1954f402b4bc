/* test_runtime.c: the host backend (hand-written CUDA C compiled by the
 * system C++ compiler and run on fibers), its scheduler driven directly
 * through the kernel contract, the on-disk cache, NVRTC (when libnvrtc is
 * installed) and the CUDA driver loader. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <ftw.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mt.h"
#include "host_fixture.h"

static char test_root[256];   /* everything the tests write lives here */
static char cache_root[300];  /* MYTRITON_CACHE_DIR */
static char tmp_root[300];    /* TMPDIR: must stay empty */

static int group_setup(void **state) {
    (void)state;
    if (make_test_root(test_root, sizeof test_root, cache_root, sizeof cache_root,
                       "runtime") != 0)
        return -1;
    snprintf(tmp_root, sizeof tmp_root, "%s/tmp", test_root);
    if (mkdir(tmp_root, 0700) != 0)
        return -1;
    setenv("TMPDIR", tmp_root, 1);
    return 0;
}

static int group_teardown(void **state) {
    (void)state;
    remove_test_root(test_root);
    return 0;
}

static int count_entries(const char *dir, const char *suffix) {
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len >= sl && strcmp(e->d_name + len - sl, suffix) == 0)
            n++;
    }
    closedir(d);
    return n;
}

static HostModule *build_ok(const char *src, const char *kernel,
                            const char *const *ctypes, int n) {
    Ctx c;
    ctx_init(&c);
    HostModule *m = NULL;
    int rc = host_build(&c, src, kernel, ctypes, n, &m);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c.err));
    assert_int_equal(rc, 0);
    assert_non_null(m);
    ctx_fini(&c);
    return m;
}

static void launch_ok(HostModule *m, uint32_t gx, uint32_t gy, uint32_t gz,
                      int threads, void **args) {
    Ctx c;
    ctx_init(&c);
    const uint32_t grid[3] = {gx, gy, gz};
    int rc = launch_host(&c, m, grid, threads, args);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c.err));
    assert_int_equal(rc, 0);
    ctx_fini(&c);
}

/* ---- host backend ---- */

static const char vadd_src[] =
    "#line 1 \"vadd.py\"\n"
    "extern \"C\" __global__ void __launch_bounds__(128)\n"
    "vadd(float *__restrict__ x, float *__restrict__ y, float *out, int n) {\n"
    "    int i = (int)blockIdx.x * 128 + (int)threadIdx.x;\n"
    "    bool mask = i < n;\n"
    "    if (mask) out[i] = x[i] + y[i];\n"
    "}\n";
static const char *const vadd_types[] = {"float*", "float*", "float*", "int"};

static void test_vector_add(void **state) {
    (void)state;
    HostModule *m = build_ok(vadd_src, "vadd", vadd_types, 4);
    enum { N = 1000, CAP = 1024 };
    float x[CAP], y[CAP], out[CAP];
    for (int i = 0; i < CAP; i++) {
        x[i] = (float)i;
        y[i] = 0.5f * (float)i;
        out[i] = -1.0f;
    }
    float *px = x, *py = y, *po = out;
    int n = N;
    void *args[] = {&px, &py, &po, &n};
    launch_ok(m, (N + 127) / 128, 1, 1, 128, args);
    for (int i = 0; i < N; i++)
        assert_true(out[i] == x[i] + y[i]);
    for (int i = N; i < CAP; i++)
        assert_true(out[i] == -1.0f); /* masked off */
    host_module_free(m);
}

static const char reverse_src[] =
    "extern \"C\" __global__ void __launch_bounds__(128)\n"
    "block_reverse(const int *__restrict__ in, int *__restrict__ out) {\n"
    "    __shared__ int tile[128];\n"
    "    int base = (int)blockIdx.x * 128;\n"
    "    tile[threadIdx.x] = in[base + threadIdx.x];\n"
    "    __syncthreads();\n"
    "    int v = tile[127 - threadIdx.x];\n"
    "    __syncthreads();\n"
    "    tile[threadIdx.x] = v * 2;\n"
    "    __syncthreads();\n"
    "    out[base + threadIdx.x] = tile[threadIdx.x] + tile[(threadIdx.x + 1) % 128];\n"
    "}\n";

static void test_shared_reverse(void **state) {
    (void)state;
    const char *types[] = {"const int*", "int*"};
    HostModule *m = build_ok(reverse_src, "block_reverse", types, 2);
    enum { P = 6, N = P * 128 };
    int in[N], out[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 3 + 1;
        out[i] = 0;
    }
    const int *pi = in;
    int *po = out;
    void *args[] = {&pi, &po};
    launch_ok(m, P, 1, 1, 128, args);
    for (int b = 0; b < P; b++)
        for (int t = 0; t < 128; t++) {
            int v0 = 2 * in[b * 128 + 127 - t];
            int v1 = 2 * in[b * 128 + 127 - (t + 1) % 128];
            assert_int_equal(out[b * 128 + t], v0 + v1);
        }
    host_module_free(m);
}

static const char reduce_src[] =
    "extern \"C\" __global__ void __launch_bounds__(128)\n"
    "reduce(const float *__restrict__ x, float *__restrict__ sums, int *imax,\n"
    "       long long *lsum, int *any, unsigned *uxor, int n) {\n"
    "    __shared__ float partial[4];\n"
    "    __shared__ int partial_max[4];\n"
    "    int i = (int)blockIdx.x * 128 + (int)threadIdx.x;\n"
    "    float v = i < n ? x[i] : 0.0f;\n"
    "    int m = i < n ? (int)x[i] : -2147483647;\n"
    "    long long l = i < n ? (long long)i * 1000000000LL : 0LL;\n"
    "    bool b = i == 37;\n"
    "    unsigned u = (unsigned)i * 2654435761u;\n"
    "#pragma unroll\n"
    "    for (int off = 16; off > 0; off >>= 1) {\n"
    "        v += __shfl_xor_sync(0xffffffffu, v, off);\n"
    "        m = max(m, __shfl_xor_sync(0xffffffffu, m, off));\n"
    "        l += __shfl_xor_sync(0xffffffffu, l, off);\n"
    "        b = __shfl_xor_sync(0xffffffffu, b, off) || b;\n"
    "        u ^= __shfl_xor_sync(0xffffffffu, u, off);\n"
    "    }\n"
    "    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;\n"
    "    if (lane == 0) { partial[warp] = v; partial_max[warp] = m; }\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x < 32) {\n"
    "        float s = threadIdx.x < 4 ? partial[threadIdx.x] : 0.0f;\n"
    "        int mm = threadIdx.x < 4 ? partial_max[threadIdx.x] : -2147483647;\n"
    "        for (int off = 2; off > 0; off >>= 1) {\n"
    "            s += __shfl_xor_sync(0xffffffffu, s, off);\n"
    "            mm = max(mm, __shfl_xor_sync(0xffffffffu, mm, off));\n"
    "        }\n"
    "        if (threadIdx.x == 0) { sums[blockIdx.x] = s; imax[blockIdx.x] = mm; }\n"
    "    }\n"
    "    int w = (int)blockIdx.x * 4 + warp;\n"
    "    if (lane == 5) { lsum[w] = l; any[w] = b; uxor[w] = u; }\n"
    "}\n";
static const char *const reduce_types[] = {"const float*", "float*", "int*",
                                           "long long*", "int*", "unsigned*",
                                           "int"};
/* max() as CUDA has it; the generated code defines what it needs itself */
static const char reduce_prelude[] =
    "static inline int max(int a, int b) { return a > b ? a : b; }\n";

static void run_reduce(HostModule *m, int programs, double *seconds) {
    int n = programs * 128 - 50;
    float *x = malloc(sizeof(float) * (size_t)programs * 128);
    float *sums = calloc((size_t)programs, sizeof(float));
    int *imax = calloc((size_t)programs, sizeof(int));
    long long *lsum = calloc((size_t)programs * 4, sizeof(long long));
    int *any = calloc((size_t)programs * 4, sizeof(int));
    unsigned *uxor = calloc((size_t)programs * 4, sizeof(unsigned));
    assert_true(x && sums && imax && lsum && any && uxor);
    for (int i = 0; i < programs * 128; i++)
        x[i] = (float)((i * 7) % 101);
    const float *px = x;
    void *args[] = {&px, &sums, &imax, &lsum, &any, &uxor, &n};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    launch_ok(m, (uint32_t)programs, 1, 1, 128, args);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (seconds)
        *seconds = (double)(t1.tv_sec - t0.tv_sec) +
                   (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    for (int p = 0; p < programs; p++) {
        float s = 0.0f;
        int mx = -2147483647;
        for (int t = 0; t < 128; t++) {
            int i = p * 128 + t;
            if (i < n) {
                s += x[i];
                if ((int)x[i] > mx)
                    mx = (int)x[i];
            }
        }
        /* integers up to 12800: exact in float in any order */
        assert_true(sums[p] == s);
        assert_int_equal(imax[p], mx);
        for (int w = 0; w < 4; w++) {
            long long ls = 0;
            unsigned ux = 0;
            int an = 0;
            for (int t = w * 32; t < w * 32 + 32; t++) {
                int i = p * 128 + t;
                if (i < n)
                    ls += (long long)i * 1000000000LL;
                ux ^= (unsigned)i * 2654435761u;
                an |= i == 37;
            }
            assert_true(lsum[p * 4 + w] == ls);
            assert_int_equal(uxor[p * 4 + w], ux);
            assert_int_equal(any[p * 4 + w], an);
        }
    }
    free(x);
    free(sums);
    free(imax);
    free(lsum);
    free(any);
    free(uxor);
}

static char *reduce_text(void) {
    size_t n = strlen(reduce_prelude) + strlen(reduce_src) + 1;
    char *s = malloc(n);
    assert_non_null(s);
    snprintf(s, n, "%s%s", reduce_prelude, reduce_src);
    return s;
}

static void test_warp_shuffle_reduce(void **state) {
    (void)state;
    char *src = reduce_text();
    HostModule *m = build_ok(src, "reduce", reduce_types, 7);
    run_reduce(m, 3, NULL);
    host_module_free(m);
    free(src);
}

static void test_many_programs(void **state) {
    (void)state;
    char *src = reduce_text();
    HostModule *m = build_ok(src, "reduce", reduce_types, 7);
    /* ~27 barriers per program over 2000 programs: every result checked.
     * (One OS thread per CUDA thread took ~8 s on two cores; fibers take a
     * few hundred ms.  The time is printed, not asserted: speed is for
     * benchmarks, not tests.) */
    double secs = 0;
    run_reduce(m, 2000, &secs);
    print_message("2000 programs x 128 threads: %.3f s\n", secs);
    host_module_free(m);
    free(src);
}

static const char grid3d_src[] =
    "extern \"C\" __global__ void __launch_bounds__(32)\n"
    "grid3d(int *out) {\n"
    "    if (threadIdx.x != 0 || threadIdx.y != 0 || threadIdx.z != 0) return;\n"
    "    unsigned id = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;\n"
    "    out[4 * id + 0] = (int)blockIdx.x + 100 * (int)blockIdx.y + 10000 * (int)blockIdx.z;\n"
    "    out[4 * id + 1] = (int)(gridDim.x * 10000 + gridDim.y * 100 + gridDim.z);\n"
    "    out[4 * id + 2] = (int)blockDim.x;\n"
    "    out[4 * id + 3] += 1;\n"
    "}\n";

static void test_grid_3d(void **state) {
    (void)state;
    const char *types[] = {"int*"};
    HostModule *m = build_ok(grid3d_src, "grid3d", types, 1);
    enum { GX = 5, GY = 3, GZ = 4, NP = GX * GY * GZ };
    int out[4 * NP];
    memset(out, 0, sizeof out);
    int *po = out;
    void *args[] = {&po};
    launch_ok(m, GX, GY, GZ, 32, args);
    for (int z = 0; z < GZ; z++)
        for (int y = 0; y < GY; y++)
            for (int x = 0; x < GX; x++) {
                int id = (z * GY + y) * GX + x;
                assert_int_equal(out[4 * id], x + 100 * y + 10000 * z);
                assert_int_equal(out[4 * id + 1], GX * 10000 + GY * 100 + GZ);
                assert_int_equal(out[4 * id + 2], 32);
                assert_int_equal(out[4 * id + 3], 1); /* each program once */
            }
    host_module_free(m);
}

static const char one_thread_src[] =
    "extern \"C\" __global__ void __launch_bounds__(1)\n"
    "serial(const float *x, float *out, int n, bool negate, long long scale) {\n"
    "    __shared__ float acc[1];\n"
    "    float s = 0.0f;\n"
    "    for (int i = 0; i < n; i++) s += x[i];\n"
    "    acc[0] = s;\n"
    "    __syncthreads();\n"
    "    float t = __shfl_xor_sync(0xffffffffu, acc[0], 1);\n"
    "    out[blockIdx.x] = (negate ? -t : t) * (float)scale + (float)blockIdx.x;\n"
    "}\n";

static void test_one_thread(void **state) {
    (void)state;
    const char *types[] = {"const float*", "float*", "int", "bool",
                           "long long"};
    HostModule *m = build_ok(one_thread_src, "serial", types, 5);
    float x[10], out[3] = {0, 0, 0};
    for (int i = 0; i < 10; i++)
        x[i] = (float)i;
    const float *px = x;
    float *po = out;
    int n = 10;
    uint8_t negate = 1;
    long long scale = 2;
    void *args[] = {&px, &po, &n, &negate, &scale};
    launch_ok(m, 3, 1, 1, 1, args);
    for (int p = 0; p < 3; p++)
        assert_true(out[p] == -90.0f + (float)p);
    host_module_free(m);
}

static const char early_return_src[] =
    "extern \"C\" __global__ void __launch_bounds__(128)\n"
    "early(int *out) {\n"
    "    __shared__ int s[128];\n"
    "    if (threadIdx.x >= 64) return;\n"
    "    s[threadIdx.x] = (int)threadIdx.x;\n"
    "    __syncthreads();\n"
    "    out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];\n"
    "}\n";

static void test_early_return_and_deadlock(void **state) {
    (void)state;
    const char *types[] = {"int*"};
    HostModule *m = build_ok(early_return_src, "early", types, 1);
    int out[2 * 64];
    int *po = out;
    void *args[] = {&po};
    launch_ok(m, 2, 1, 1, 128, args);
    for (int i = 0; i < 128; i++)
        assert_int_equal(out[i], 63 - i % 64);
    host_module_free(m);

    static const char deadlock_src[] =
        "extern \"C\" __global__ void __launch_bounds__(64)\n"
        "stuck(int *out) {\n"
        "    int v = (int)threadIdx.x;\n"
        "    if (threadIdx.x == 0) __syncthreads();\n"
        "    else v = __shfl_xor_sync(0xffffffffu, v, 1);\n"
        "    out[threadIdx.x] = v;\n"
        "}\n";
    m = build_ok(deadlock_src, "stuck", types, 1);
    Ctx c;
    ctx_init(&c);
    const uint32_t grid[3] = {1, 1, 1};
    assert_int_equal(launch_host(&c, m, grid, 64, args), -1);
    assert_non_null(strstr(sb_str(&c.err), "deadlock"));
    ctx_fini(&c);
    host_module_free(m);
}

/* ---- the scheduler through its contract, with C entry points ---- */

typedef struct SchedArgs {
    int *out;     /* one slot per (program, thread) */
    int threads;
} SchedArgs;

/* out[p][t] = the value of thread (t ^ 1) after a barrier: every thread
 * stores its id, waits for the block, reads its neighbour's slot, then
 * exchanges through a warp shuffle as well (their sum is checked). */
static void sched_entry(void **args, mt_host_thread *self) {
    SchedArgs *a = args[0];
    unsigned t = self->thread_idx.x;
    unsigned p = self->block_idx.x + self->grid_dim.x *
                 (self->block_idx.y + self->grid_dim.y * self->block_idx.z);
    int *row = a->out + (size_t)p * (unsigned)a->threads;
    row[t] = (int)t;
    self->ops->syncthreads(self->worker);
    int neighbour = row[t ^ 1u];
    unsigned long long v = self->ops->shfl_xor(self->worker, t, 1, 32);
    self->ops->syncthreads(self->worker);
    row[t] = neighbour + (int)v; /* 2 * (t ^ 1) */
}

static void test_scheduler_contract(void **state) {
    (void)state;
    enum { THREADS = 64, GX = 7, GY = 2, GZ = 3, NP = GX * GY * GZ };
    int *out = calloc((size_t)NP * THREADS, sizeof *out);
    assert_non_null(out);
    SchedArgs a = {out, THREADS};
    void *args[] = {&a};
    const uint32_t grid[3] = {GX, GY, GZ};
    FiberRuntime *rt = fiber_runtime_new();
    assert_non_null(rt);
    char err[256];
    assert_int_equal(fiber_run(rt, sched_entry, args, grid, THREADS, true, NULL, 0, NULL, err,
                               sizeof err),
                     0);
    assert_string_equal(err, "");
    for (int i = 0; i < NP * THREADS; i++)
        assert_int_equal(out[i], 2 * ((i % THREADS) ^ 1));
    /* the launching thread's stacks are kept for its next launch, and a
     * smaller program reuses them: the pool is sized by the largest */
    assert_int_equal(fiber_thread_stacks(rt), THREADS);
    memset(out, 0, (size_t)NP * THREADS * sizeof *out);
    a.threads = 32;
    assert_int_equal(fiber_run(rt, sched_entry, args, grid, 32, true, NULL, 0, NULL, err,
                               sizeof err), 0);
    assert_int_equal(fiber_thread_stacks(rt), THREADS);
    assert_int_equal(out[NP * 32 - 1], 2 * (31 ^ 1));
    /* a larger one grows them */
    a.threads = 2 * THREADS;
    free(out);
    out = calloc((size_t)NP * 2 * THREADS, sizeof *out);
    assert_non_null(out);
    a.out = out;
    assert_int_equal(fiber_run(rt, sched_entry, args, grid, 2 * THREADS, true, NULL, 0, NULL, err,
                               sizeof err), 0);
    assert_int_equal(fiber_thread_stacks(rt), 2 * THREADS);
    assert_int_equal(out[NP * 2 * THREADS - 1], 2 * ((2 * THREADS - 1) ^ 1));
    fiber_runtime_free(rt);
    free(out);
}

/* Even threads wait at the block barrier, odd ones at the warp's. */
static void stuck_entry(void **args, mt_host_thread *self) {
    (void)args;
    if (self->thread_idx.x % 2 == 0)
        self->ops->syncthreads(self->worker);
    else
        self->ops->shfl_xor(self->worker, 0, 1, 32);
}

static void bad_shape_entry(void **args, mt_host_thread *self) {
    (void)args;
    (void)self;
    fail_msg("a bad launch shape must run nothing");
}

static void test_scheduler_errors(void **state) {
    (void)state;
    char err[256];
    const uint32_t grid[3] = {3, 1, 1};
    FiberRuntime *rt = fiber_runtime_new();
    assert_non_null(rt);
    assert_int_equal(fiber_run(rt, stuck_entry, NULL, grid, 64, true, NULL, 0, NULL, err,
                               sizeof err),
                     -1);
    assert_non_null(strstr(err, "deadlock in program ("));
    static const struct { uint32_t g[3]; unsigned threads; } bad[] = {
        {{0, 1, 1}, 32}, {{1, 0, 1}, 32}, {{1, 1, 0}, 32}, {{1, 1, 1}, 0},
        {{1, 1, 1}, MT_MAX_THREADS + 1}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(fiber_run(rt, bad_shape_entry, NULL, bad[i].g, bad[i].threads, i % 2,
                                   NULL, 0, NULL, err, sizeof err), -1);
        assert_non_null(strstr(err, "bad launch shape"));
    }
    /* the stuck fibers' stacks are reused: a later run starts them afresh */
    int out[64 * 3];
    SchedArgs a = {out, 64};
    void *args[] = {&a};
    assert_int_equal(fiber_run(rt, sched_entry, args, grid, 64, true, NULL, 0, NULL, err,
                               sizeof err), 0);
    assert_int_equal(out[64 * 3 - 1], 2 * (63 ^ 1));
    fiber_runtime_free(rt);
}

/* Checked mode's contract (mt_host.h): the run's extents reach every
 * thread, and a failed check stops its program there.  Thread 5 of
 * program 1 fails; every other thread counts itself before and after. */
static void check_entry(void **args, mt_host_thread *self) {
    SchedArgs *a = args[0];
    unsigned slot = self->block_idx.x * (unsigned)a->threads + self->thread_idx.x;
    assert_int_equal(self->nextents, 2);
    assert_true(self->extents[1].lo == 16 && self->extents[1].hi == 32);
    a->out[slot] += 1;
    if (self->block_idx.x == 1 && self->thread_idx.x == 5)
        self->ops->check(self->worker, "k.py:3:4: error: out-of-bounds load in kernel 'k'");
    a->out[slot] += 10;
}

static void test_scheduler_check_failure(void **state) {
    (void)state;
    int out[2 * 8] = {0};
    SchedArgs a = {out, 8};
    void *args[] = {&a};
    const mt_host_extent ext[2] = {{0, 0}, {16, 32}};
    const uint32_t grid[3] = {2, 1, 1};
    FiberRuntime *rt = fiber_runtime_new();
    assert_non_null(rt);
    char err[256];
    /* one worker: program 0 runs whole before program 1 */
    setenv("MYTRITON_HOST_WORKERS", "1", 1);
    assert_int_equal(fiber_run(rt, check_entry, args, grid, 8, true, ext, 2, NULL, err,
                               sizeof err), -3);
    unsetenv("MYTRITON_HOST_WORKERS");
    assert_string_equal(err, "k.py:3:4: error: out-of-bounds load in kernel 'k'");
    for (int t = 0; t < 8; t++)
        assert_int_equal(out[t], 11);
    assert_int_equal(out[8 + 5], 1); /* stopped at the check */
    fiber_runtime_free(rt);
}

/* A kernel that never waits runs without fibers: every (program, thread)
 * is called exactly once, with its own indices. */
static void count_entry(void **args, mt_host_thread *self) {
    SchedArgs *a = args[0];
    unsigned p = self->block_idx.x + self->grid_dim.x *
                 (self->block_idx.y + self->grid_dim.y * self->block_idx.z);
    a->out[(size_t)p * (unsigned)a->threads + self->thread_idx.x] += 1;
}

static void waits_anyway_entry(void **args, mt_host_thread *self) {
    (void)args;
    self->ops->syncthreads(self->worker);
}

static void test_scheduler_without_fibers(void **state) {
    (void)state;
    enum { THREADS = 1024, GX = 33, GY = 2, GZ = 2, NP = GX * GY * GZ };
    int *out = calloc((size_t)NP * THREADS, sizeof *out);
    assert_non_null(out);
    SchedArgs a = {out, THREADS};
    void *args[] = {&a};
    const uint32_t grid[3] = {GX, GY, GZ};
    FiberRuntime *rt = fiber_runtime_new();
    assert_non_null(rt);
    char err[256];
    assert_int_equal(fiber_run(rt, count_entry, args, grid, THREADS, false, NULL, 0, NULL, err,
                               sizeof err), 0);
    for (int i = 0; i < NP * THREADS; i++)
        assert_int_equal(out[i], 1);
    assert_int_equal(fiber_thread_stacks(rt), 0); /* no stacks were mapped */
    /* a kernel misjudged as never waiting fails the launch, never runs on */
    assert_int_equal(fiber_run(rt, waits_anyway_entry, NULL, grid, 64, false, NULL, 0, NULL, err,
                               sizeof err), -1);
    assert_non_null(strstr(err, "run without fibers waited"));
    fiber_runtime_free(rt);
    free(out);
}

#if defined(__linux__)
/* Each program of the placement test: busy ~200 us, then notes, when a
 * pool worker (not the launching thread) ran it, the CPU it ran on and
 * how many CPUs the worker may use. */
typedef struct {
    pthread_t launcher;
    int cpu[256], allowed[256];
} PlaceArgs;

static void place_entry(void **args, mt_host_thread *self) {
    PlaceArgs *a = args[0];
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 200000L);
    unsigned p = self->block_idx.x;
    a->cpu[p] = a->allowed[p] = -1;
    if (!pthread_equal(pthread_self(), a->launcher)) {
        cpu_set_t set;
        a->allowed[p] = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
        a->cpu[p] = sched_getcpu();
    }
}

/* With one pool worker per CPU but one, each worker is held to one CPU
 * (fiber.c says why), different workers to different CPUs, and the pool
 * takes part in a launch long enough to need it. */
static void test_pool_pinned(void **state) {
    (void)state;
    cpu_set_t all;
    assert_int_equal(sched_getaffinity(0, sizeof all, &all), 0);
    if (CPU_COUNT(&all) < 2 || getenv("MYTRITON_HOST_WORKERS")) {
        print_message("one CPU (or a set worker count): no pool to place\n");
        return;
    }
    FiberRuntime *rt = fiber_runtime_new();
    assert_non_null(rt);
    PlaceArgs a = {.launcher = pthread_self()};
    void *args[] = {&a};
    const uint32_t grid[3] = {256, 1, 1};
    char err[256];
    for (int launch = 0; launch < 2; launch++) {
        assert_int_equal(fiber_run(rt, place_entry, args, grid, 1, false, NULL, 0, NULL, err,
                                   sizeof err), 0);
        int by_pool = 0;
        for (int p = 0; p < 256; p++) {
            if (a.cpu[p] < 0)
                continue;
            by_pool++;
            assert_int_equal(a.allowed[p], 1);
            assert_true(CPU_ISSET(a.cpu[p], &all));
        }
        assert_true(by_pool > 0);
    }
    fiber_runtime_free(rt);
}
#endif

/* A kernel of scalars runs thread 0 of each program alone; a kernel whose
 * threads own different elements, or that waits, runs them all. */
static void test_scalar_kernel_runs_one_thread(void **state) {
    (void)state;
    static const char scalar_src[] =
        "extern \"C\" __global__ void __launch_bounds__(1024) twice(float *p) {\n"
        "    int v2 = (int)blockIdx.x;\n"
        "    float v4 = p[v2];\n"
        "    if (threadIdx.x == 0) p[v2] = v4 * 2.0f;\n"
        "}\n";
    static const char *const types[] = {"float*"};
    HostModule *m = build_ok(scalar_src, "twice", types, 1);
    assert_true(host_module_one_thread(m));
    float x[4096];
    for (int i = 0; i < 4096; i++)
        x[i] = (float)i;
    float *px = x;
    void *args[] = {&px};
    launch_ok(m, 4096, 1, 1, 1024, args);
    for (int i = 0; i < 4096; i++)
        assert_true(x[i] == 2.0f * (float)i); /* doubled once, not 1024 times */
    host_module_free(m);
    static const char owned_src[] =
        "extern \"C\" __global__ void __launch_bounds__(64) own(float *p) {\n"
        "    p[blockIdx.x * 64 + threadIdx.x] += 1.0f;\n"
        "}\n";
    m = build_ok(owned_src, "own", types, 1);
    assert_false(host_module_one_thread(m));
    host_module_free(m);
    static const char waits_src[] =
        "extern \"C\" __global__ void __launch_bounds__(64) w(float *p) {\n"
        "    __syncthreads();\n"
        "    if (threadIdx.x == 0) p[0] = 1.0f;\n"
        "}\n";
    m = build_ok(waits_src, "w", types, 1);
    assert_false(host_module_one_thread(m));
    host_module_free(m);
}

static void test_max_threads(void **state) {
    (void)state;
    static const char src[] =
        "extern \"C\" __global__ void __launch_bounds__(1024) big(int *x) {\n"
        "    __shared__ int s[1024];\n"
        "    s[threadIdx.x] = (int)(blockIdx.x * 1024 + threadIdx.x);\n"
        "    __syncthreads();\n"
        "    int v = s[1023 - threadIdx.x];\n"
        "    v += __shfl_xor_sync(0xffffffffu, v, 31) - __shfl_xor_sync(0xffffffffu, v, 31);\n"
        "    x[blockIdx.x * 1024 + threadIdx.x] = v;\n"
        "}\n";
    const char *types[] = {"int*"};
    HostModule *m = build_ok(src, "big", types, 1);
    static int out[5 * 1024];
    int *po = out;
    void *args[] = {&po};
    launch_ok(m, 5, 1, 1, 1024, args);
    for (int i = 0; i < 5 * 1024; i++)
        assert_int_equal(out[i], (i / 1024) * 1024 + 1023 - i % 1024);
    host_module_free(m);
}

static void test_compile_error(void **state) {
    (void)state;
    static const char bad_src[] =
        "#line 7 \"broken.py\"\n"
        "extern \"C\" __global__ void __launch_bounds__(32) broken(float *x) {\n"
        "    x[threadIdx.x] = undeclared_name_q;\n"
        "}\n";
    const char *types[] = {"float*"};
    Ctx c;
    ctx_init(&c);
    HostModule *m = NULL;
    assert_int_equal(host_build(&c, bad_src, "broken", types, 1, &m), -1);
    assert_null(m);
    assert_int_equal(c.status, MT_ERR_HOST_CC);
    const char *err = sb_str(&c.err);
    assert_non_null(strstr(err, "host compiler failed:\n"));
    assert_non_null(strstr(err, "undeclared_name_q"));
    assert_non_null(strstr(err, "broken.py:8")); /* #line reaches the user */
    ctx_fini(&c);
    /* a kernel name that is not an identifier never reaches the compiler */
    ctx_init(&c);
    assert_int_equal(host_build(&c, bad_src, "x; rm -rf", types, 1, &m), -1);
    assert_int_equal(c.status, MT_ERR_INTERNAL);
    ctx_fini(&c);
    /* failures leave nothing behind */
    assert_int_equal(count_entries(tmp_root, ""), 0);
}

static void test_bad_launch_shape(void **state) {
    (void)state;
    HostModule *m = build_ok(vadd_src, "vadd", vadd_types, 4);
    float buf[4] = {0};
    float *p = buf;
    int n = 0;
    void *args[] = {&p, &p, &p, &n};
    static const struct {
        uint32_t g[3];
        int threads;
        mt_status st;
        const char *text;
    } cases[] = {
        {{0, 1, 1}, 128, MT_ERR_ARG, "grid x dimension"},
        {{1, 0, 1}, 128, MT_ERR_ARG, "grid y dimension"},
        {{1, 1, 65536}, 128, MT_ERR_ARG, "grid z dimension"},
        {{2147483648u, 1, 1}, 128, MT_ERR_ARG, "grid x dimension"},
        {{1, 1, 1}, 0, MT_ERR_RESOURCE, "threads per program"},
        {{1, 1, 1}, 1025, MT_ERR_RESOURCE, "threads per program"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        Ctx c;
        ctx_init(&c);
        assert_int_equal(launch_host(&c, m, cases[i].g, cases[i].threads, args),
                         -1);
        assert_int_equal(c.status, cases[i].st);
        assert_non_null(strstr(sb_str(&c.err), cases[i].text));
        ctx_fini(&c);
    }
    host_module_free(m);
}

/* A compiler wrapper that logs each call, to see the disk cache skip it. */
static void test_disk_cache_hit(void **state) {
    (void)state;
    char wrapper[400], log[400];
    snprintf(wrapper, sizeof wrapper, "%s/cxx-wrapper.sh", test_root);
    snprintf(log, sizeof log, "%s/cxx.log", test_root);
    FILE *f = fopen(wrapper, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\necho called >> '%s'\nexec c++ \"$@\"\n", log);
    fclose(f);
    assert_int_equal(chmod(wrapper, 0700), 0);
    setenv("MYTRITON_HOST_CXX", wrapper, 1);

    static const char src[] =
        "extern \"C\" __global__ void __launch_bounds__(32) cached(int *x) {\n"
        "    x[threadIdx.x] = 4242 + (int)threadIdx.x;\n"
        "}\n";
    const char *types[] = {"int*"};
    HostModule *m1 = build_ok(src, "cached", types, 1);
    HostModule *m2 = build_ok(src, "cached", types, 1);
    unsetenv("MYTRITON_HOST_CXX");

    int calls = 0;
    char line[64];
    f = fopen(log, "r");
    assert_non_null(f);
    while (fgets(line, sizeof line, f))
        calls++;
    fclose(f);
    assert_int_equal(calls, 1);

    char host_dir[400];
    snprintf(host_dir, sizeof host_dir, "%s/host", cache_root);
    assert_true(count_entries(host_dir, ".so") >= 1);
    assert_int_equal(count_entries(host_dir, ".tmp"), 0);
    assert_int_equal(count_entries(tmp_root, ""), 0);

    int out[32];
    int *po = out;
    void *args[] = {&po};
    launch_ok(m2, 1, 1, 1, 32, args);
    assert_int_equal(out[31], 4242 + 31);
    host_module_free(m1);
    host_module_free(m2);
}

struct concurrent_job {
    HostModule *m;
    int *out;
    int rc;
};

static void *concurrent_launch(void *p) {
    struct concurrent_job *job = p;
    for (int r = 0; r < 20 && job->rc == 0; r++) {
        int *po = job->out;
        void *args[] = {&po};
        Ctx c;
        ctx_init(&c);
        const uint32_t grid[3] = {4, 1, 1};
        job->rc = launch_host(&c, job->m, grid, 128, args);
        ctx_fini(&c);
    }
    return NULL;
}

static void test_concurrent_launches(void **state) {
    (void)state;
    /* two modules of one kernel share one loaded object and its statics;
     * launches from two threads must still not interleave programs */
    static int out_a[512], out_b[512];
    struct concurrent_job ja = {NULL, out_a, 0}, jb = {NULL, out_b, 0};
    HostModule *a, *b;
    static const char src[] =
        "extern \"C\" __global__ void __launch_bounds__(128) twice(int *x) {\n"
        "    __shared__ int s[128];\n"
        "    s[threadIdx.x] = (int)(blockIdx.x * 128 + threadIdx.x);\n"
        "    __syncthreads();\n"
        "    x[blockIdx.x * 128 + threadIdx.x] = s[127 - threadIdx.x];\n"
        "}\n";
    const char *t1[] = {"int*"};
    a = build_ok(src, "twice", t1, 1);
    b = build_ok(src, "twice", t1, 1);
    ja.m = a;
    jb.m = b;
    pthread_t ta, tb;
    assert_int_equal(pthread_create(&ta, NULL, concurrent_launch, &ja), 0);
    assert_int_equal(pthread_create(&tb, NULL, concurrent_launch, &jb), 0);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    assert_int_equal(ja.rc, 0);
    assert_int_equal(jb.rc, 0);
    for (int i = 0; i < 512; i++) {
        int expect = (i / 128) * 128 + 127 - i % 128;
        assert_int_equal(out_a[i], expect);
        assert_int_equal(out_b[i], expect);
    }
    host_module_free(a);
    host_module_free(b);
}

/* ---- cache ---- */

static void test_cache_roundtrip(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *dir = cache_dir(a);
    assert_non_null(dir);
    assert_string_equal(dir, cache_root);
    static const unsigned char data[] = {0, 1, 2, 255, 'x', 0, 7};
    assert_int_equal(cache_put(dir, "k1", "bin", data, sizeof data), 0);
    void *got = NULL;
    size_t n = 0;
    assert_int_equal(cache_get(dir, "k1", "bin", &got, &n), 0);
    assert_int_equal(n, sizeof data);
    assert_memory_equal(got, data, sizeof data);
    free(got);
    /* overwrite, empty entry, missing entry, other kind */
    assert_int_equal(cache_put(dir, "k1", "bin", "", 0), 0);
    assert_int_equal(cache_get(dir, "k1", "bin", &got, &n), 0);
    assert_int_equal(n, 0);
    free(got);
    assert_int_equal(cache_get(dir, "k1", "ptx", &got, &n), -1);
    assert_null(got);
    assert_int_equal(cache_get(dir, "nope", "bin", &got, &n), -1);
    /* names that would escape the directory */
    assert_int_equal(cache_put(dir, "../evil", "bin", data, 1), -1);
    assert_int_equal(cache_put(dir, "k", "a/b", data, 1), -1);
    assert_int_equal(cache_put(dir, ".hidden", "bin", data, 1), -1);
    assert_int_equal(count_entries(dir, ".tmp"), 0);
    arena_free(a);
}

static void test_cache_dir_created(void **state) {
    (void)state;
    char nested[400];
    snprintf(nested, sizeof nested, "%s/deep/er/cache/", test_root);
    setenv("MYTRITON_CACHE_DIR", nested, 1);
    Arena *a = arena_new();
    char *dir = cache_dir(a);
    setenv("MYTRITON_CACHE_DIR", cache_root, 1);
    assert_non_null(dir);
    struct stat st;
    assert_int_equal(stat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(dir[strlen(dir) - 1] != '/', 1);
    arena_free(a);
    /* a path under a regular file cannot be made */
    char bad[400], file[400];
    snprintf(file, sizeof file, "%s/plainfile", test_root);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(bad, sizeof bad, "%s/plainfile/sub", test_root);
    setenv("MYTRITON_CACHE_DIR", bad, 1);
    a = arena_new();
    assert_null(cache_dir(a));
    arena_free(a);
    setenv("MYTRITON_CACHE_DIR", cache_root, 1);
}

enum { BIG = 1 << 20 };

static void writer_child(const char *dir, char fill) {
    unsigned char *buf = malloc(BIG);
    if (!buf)
        _exit(2);
    memset(buf, fill, BIG);
    for (int r = 0; r < 40; r++)
        if (cache_put(dir, "shared", "bin", buf, BIG) != 0)
            _exit(1);
    free(buf);
    _exit(0);
}

static void test_cache_concurrent_writers(void **state) {
    (void)state;
    Arena *a = arena_new();
    char *dir = cache_dir(a);
    assert_non_null(dir);
    pid_t p1 = fork();
    assert_true(p1 >= 0);
    if (p1 == 0)
        writer_child(dir, 'A');
    pid_t p2 = fork();
    assert_true(p2 >= 0);
    if (p2 == 0)
        writer_child(dir, 'B');
    /* read while they write: every entry seen is whole and of one writer */
    int seen = 0;
    for (int r = 0; r < 200; r++) {
        void *got;
        size_t n;
        if (cache_get(dir, "shared", "bin", &got, &n) != 0)
            continue;
        seen++;
        assert_int_equal(n, BIG);
        const unsigned char *g = got;
        assert_true(g[0] == 'A' || g[0] == 'B');
        for (size_t i = 0; i < n; i++)
            if (g[i] != g[0])
                fail_msg("torn entry at byte %zu", i);
        free(got);
    }
    int st1, st2;
    assert_int_equal(waitpid(p1, &st1, 0), p1);
    assert_int_equal(waitpid(p2, &st2, 0), p2);
    assert_true(WIFEXITED(st1) && WEXITSTATUS(st1) == 0);
    assert_true(WIFEXITED(st2) && WEXITSTATUS(st2) == 0);
    void *got;
    size_t n;
    assert_int_equal(cache_get(dir, "shared", "bin", &got, &n), 0);
    assert_int_equal(n, BIG);
    free(got);
    assert_int_equal(count_entries(dir, ".tmp"), 0);
    (void)seen;
    arena_free(a);
}

static void test_digest(void **state) {
    (void)state;
    char out[33];
    cache_digest("", 0, out);
    assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb924");
    cache_digest("abc", 3, out);
    assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223");
    const char *two =
        "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    cache_digest(two, strlen(two), out);
    assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039");
    /* one million 'a' (many blocks) */
    char *million = malloc(1000000);
    assert_non_null(million);
    memset(million, 'a', 1000000);
    cache_digest(million, 1000000, out);
    assert_string_equal(out, "cdc76e5c9914fb9281a1c7e284d73e67");
    free(million);
}

/* ---- NVRTC and the driver ---- */

static const char nvrtc_ok_src[] =
    "extern \"C\" __global__ void __launch_bounds__(128)\n"
    "k(float *__restrict__ x, int n) {\n"
    "    __shared__ float s[128];\n"
    "    int i = (int)blockIdx.x * 128 + (int)threadIdx.x;\n"
    "    float v = i < n ? x[i] : -INFINITY;\n"
    "    if (isnan(v) || isinf(v)) v = NAN;\n"
    "    v += __shfl_xor_sync(0xffffffffu, v, 1);\n"
    "    s[threadIdx.x] = v;\n"
    "    __syncthreads();\n"
    "    if (i < n) x[i] = expf(fmaxf(s[127 - threadIdx.x], floorf(v)));\n"
    "}\n";

/* The register cap that buys one more block per SM, and where it is not
 * worth it: 256 threads at 34 or 38 registers hold 6 blocks, at 32 all 8
 * (tutorial 02's softmax); at 64, 4, where 5 would cost 16 registers. */
static void test_occupancy_register_cap(void **state) {
    (void)state;
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 34, NULL), 32);
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 38, NULL), 32);
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 40, NULL), 32);
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 41, NULL), 40);
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 49, NULL), 48);
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 32, NULL), 0);
    int blocks = 0;
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 40, &blocks), 32);
    assert_int_equal(blocks, 8); /* 32 registers hold 8 blocks of 256 */
    assert_int_equal(occupancy_register_cap("sm_90", 128, 0, 72, &blocks), 64);
    assert_int_equal(blocks, 8);
    assert_int_equal(occupancy_register_cap("sm_90", 256, 32, 64, NULL), 0);
    assert_int_equal(occupancy_register_cap("sm_90", 128, 0, 40, NULL), 32);
    assert_int_equal(occupancy_register_cap("sm_90", 128, 0, 72, NULL), 64);
    /* shared memory holds only 2 blocks: registers are not the limit */
    assert_int_equal(occupancy_register_cap("sm_90", 256, 100000, 40, NULL), 0);
    /* 1536 threads an SM on sm_86: 6 blocks of 256 at 40 registers */
    assert_int_equal(occupancy_register_cap("sm_86", 256, 0, 40, NULL), 0);
    assert_int_equal(occupancy_register_cap("sm_86", 256, 0, 48, NULL), 40);
    assert_int_equal(occupancy_register_cap("sm_75", 256, 0, 34, NULL), 0);
    assert_int_equal(occupancy_register_cap("gfx90a", 256, 0, 34, NULL), 0);
    assert_int_equal(occupancy_register_cap("sm_90", 4096, 0, 34, NULL), 0);
}

/* Tutorial 02's persistent softmax kernel, as published (num_stages 1:
 * plain; 2 and 4: the next row loaded ahead, pipeload.c). */
static const char softmax_src[] =
    "@triton.jit\n"
    "def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows,\n"
    "                   n_cols, BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):\n"
    "    row_start = tl.program_id(0)\n"
    "    row_step = tl.num_programs(0)\n"
    "    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):\n"
    "        row_start_ptr = input_ptr + row_idx * input_row_stride\n"
    "        col_offsets = tl.arange(0, BLOCK_SIZE)\n"
    "        input_ptrs = row_start_ptr + col_offsets\n"
    "        mask = col_offsets < n_cols\n"
    "        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))\n"
    "        row_minus_max = row - tl.max(row, axis=0)\n"
    "        numerator = tl.exp(row_minus_max)\n"
    "        denominator = tl.sum(numerator, axis=0)\n"
    "        softmax_output = numerator / denominator\n"
    "        output_row_start_ptr = output_ptr + row_idx * output_row_stride\n"
    "        output_ptrs = output_row_start_ptr + col_offsets\n"
    "        tl.store(output_ptrs, softmax_output, mask=mask)\n";

/* Registers fitted to an occupancy step through the launch bounds' blocks
 * per SM and the cap (ptxas ignores --maxrregcount alone for a kernel with
 * .maxntid, which made the first fitting a no-op; the blocks alone spill
 * 4 bytes here): the softmax at N = 2048 on 8 warps, which ptxas builds
 * with 34 and 40 registers where 32 hold 8 blocks an SM, comes back at
 * that step. */
static void test_registers_fitted(void **state) {
    (void)state;
    Ctx c;
    ctx_init(&c);
    CudaDriver *d = cuda_nvrtc_open(&c);
    if (!d) {
        ctx_fini(&c);
        skip();
    }
    mt_context *ctx = NULL;
    assert_int_equal(mt_context_create(&ctx), MT_OK);
    for (int stages = 1; stages <= 4; stages *= 2) {
        mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
        o.source = softmax_src;
        o.filename = "softmax.py";
        o.kernel = "softmax_kernel";
        char sig[80];
        snprintf(sig, sizeof sig, "*fp32:16,*fp32:16,i32:16,i32:16,i32:16,i32:16,2048,%d",
                 stages);
        o.signature = sig;
        o.num_warps = 8;
        o.backend = MT_BACKEND_CUDA;
        o.arch = "sm_90";
        o.stages_only = 1;
        mt_kernel *k = NULL;
        const char *cuda = NULL;
        assert_int_equal(mt_compile(ctx, &o, &k), MT_OK);
        assert_int_equal(mt_kernel_stage(ctx, k, MT_STAGE_CUDA, &cuda, NULL), MT_OK);
        /* as ptxas builds it: blocks per SM named (1), so no fitting */
        const char *lb = strstr(cuda, "__launch_bounds__(256)");
        assert_non_null(lb);
        size_t head = (size_t)(lb - cuda) + strlen("__launch_bounds__(256");
        char *plain = malloc(strlen(cuda) + 8);
        assert_non_null(plain);
        memcpy(plain, cuda, head);
        strcpy(plain + head, ", 1");
        strcat(plain, cuda + head);
        StrBuf cubin;
        sb_init(&cubin);
        int natural = 0, fitted = 0;
        assert_int_equal(nvrtc_compile_kernel(&c, d, plain, "sm_90", true, 32, &cubin, &natural),
                         0);
        sb_clear(&cubin);
        assert_int_equal(nvrtc_compile_kernel(&c, d, cuda, "sm_90", true, 32, &cubin, &fitted), 0);
        assert_memory_equal(cubin.data, "\177ELF", 4);
        int cap = occupancy_register_cap("sm_90", 256, 32, natural, NULL);
        if (cap)
            assert_in_range(fitted, 1, cap);
        else
            assert_int_equal(fitted, natural);
        sb_free(&cubin);
        free(plain);
        mt_kernel_destroy(k);
    }
    mt_context_destroy(ctx);
    cuda_driver_close(d);
    ctx_fini(&c);
}

static void test_nvrtc(void **state) {
    (void)state;
    Ctx c;
    ctx_init(&c);
    CudaDriver *d = cuda_nvrtc_open(&c);
    if (!d) {
        assert_int_equal(c.status, MT_ERR_NO_CUDA);
        assert_non_null(strstr(sb_str(&c.err), "libnvrtc not found"));
        ctx_fini(&c);
        skip();
    }
    const char *ver = nvrtc_version(d);
    assert_true(ver[0] >= '0' && ver[0] <= '9' && strchr(ver, '.'));

    StrBuf ptx, cubin;
    sb_init(&ptx);
    sb_init(&cubin);
    int rc = nvrtc_compile(&c, d, nvrtc_ok_src, "sm_90", true, &ptx, &cubin);
    if (rc != 0)
        fprintf(stderr, "%s", sb_str(&c.err));
    assert_int_equal(rc, 0);
    assert_non_null(strstr(sb_str(&ptx), ".entry k"));
    assert_non_null(strstr(sb_str(&ptx), ".target sm_90"));
    assert_true(cubin.len > 4);
    assert_memory_equal(cubin.data, "\177ELF", 4);

    /* a kernel's cubin, its registers fitted to an occupancy step */
    sb_clear(&cubin);
    rc = nvrtc_compile_kernel(&c, d, nvrtc_ok_src, "sm_90", true, 0, &cubin, NULL);
    assert_int_equal(rc, 0);
    assert_true(cubin.len > 4);
    assert_memory_equal(cubin.data, "\177ELF", 4);

    /* enable_fp_fusion: a multiply and an add contract into an fma unless
     * fmad is false, where both round (.rn), so ptxas cannot fuse them */
    static const char mul_add_src[] =
        "extern \"C\" __global__ void f(float *p) { p[0] = p[1] * p[2] + p[3]; }\n";
    sb_clear(&ptx);
    assert_int_equal(nvrtc_compile(&c, d, mul_add_src, "sm_90", true, &ptx, NULL), 0);
    assert_non_null(strstr(sb_str(&ptx), "fma.rn.f32"));
    sb_clear(&ptx);
    assert_int_equal(nvrtc_compile(&c, d, mul_add_src, "sm_90", false, &ptx, NULL), 0);
    assert_null(strstr(sb_str(&ptx), "fma."));
    assert_non_null(strstr(sb_str(&ptx), "mul.rn.f32"));
    assert_non_null(strstr(sb_str(&ptx), "add.rn.f32"));

    /* PTX only, and without a handle */
    sb_clear(&ptx);
    assert_int_equal(nvrtc_compile(&c, NULL, nvrtc_ok_src, "sm_80", true, &ptx, NULL),
                     0);
    assert_non_null(strstr(sb_str(&ptx), ".entry k"));

    /* a broken kernel: NVRTC's log in the error */
    static const char broken[] =
        "extern \"C\" __global__ void k(float *x) { x[0] = no_such_thing; }\n";
    assert_int_equal(nvrtc_compile(&c, d, broken, "sm_90", true, &ptx, NULL), -1);
    assert_int_equal(c.status, MT_ERR_NVRTC);
    assert_non_null(strstr(sb_str(&c.err), "no_such_thing"));
    assert_non_null(strstr(sb_str(&c.err), "undefined"));
    ctx_fini(&c);

    ctx_init(&c);
    assert_int_equal(nvrtc_compile(&c, d, nvrtc_ok_src, "gfx90a", true, &ptx, NULL), -1);
    assert_int_equal(c.status, MT_ERR_ARG);
    ctx_fini(&c);

    /* without a driver, a module cannot load: clear error, no crash */
    void *probe = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!probe) {
        ctx_init(&c);
        CudaModule *mod = NULL;
        assert_int_equal(cuda_module_load(&c, d, cubin.data, cubin.len, "k", &mod),
                         -1);
        assert_int_equal(c.status, MT_ERR_NO_CUDA);
        assert_false(cuda_driver_has_device(d));
        ctx_fini(&c);
    } else {
        dlclose(probe);
    }
    sb_free(&ptx);
    sb_free(&cubin);
    cuda_driver_close(d);
}

static void test_cuda_driver_open(void **state) {
    (void)state;
    void *probe = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    Ctx c;
    ctx_init(&c);
    CudaDriver *d = cuda_driver_open(&c);
    if (!probe) {
        assert_null(d);
        assert_int_equal(c.status, MT_ERR_NO_CUDA);
        assert_non_null(strstr(sb_str(&c.err),
                               "libcuda.so.1 not found: no NVIDIA driver "
                               "(use the host backend)"));
    } else {
        dlclose(probe);
        assert_non_null(d);
        char arch[16];
        if (cuda_driver_has_device(d)) {
            assert_int_equal(cuda_device_arch(&c, d, arch), 0);
            assert_memory_equal(arch, "sm_", 3);
        }
        cuda_driver_close(d);
    }
    ctx_fini(&c);
}

/* MYTRITON_HOST_SANITIZE=undefined builds kernels with UBSan, stopping at
 * the first report: a kernel with signed overflow dies (in a child, so the
 * test survives) with UBSan's message, and the same kernel runs silently
 * without it.  Any other value is a located error before the compiler. */
static const char overflow_src[] =
    "#line 3 \"ovf.py\"\n"
    "extern \"C\" __global__ void __launch_bounds__(32) ovf(int *out, int n) {\n"
    "    if (threadIdx.x == 0) out[0] = n + 1;\n"
    "}\n";

static int run_overflow_child(const char *sanitize, char *report, size_t cap) {
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        if (sanitize)
            setenv("MYTRITON_HOST_SANITIZE", sanitize, 1);
        const char *types[] = {"int*", "int"};
        Ctx c;
        ctx_init(&c);
        HostModule *m = NULL;
        if (host_build(&c, overflow_src, "ovf", types, 2, &m) != 0)
            _exit(3);
        int out = 0, n = 2147483647, *po = &out;
        void *args[] = {&po, &n};
        const uint32_t grid[3] = {1, 1, 1};
        _exit(launch_host(&c, m, grid, 32, args) == 0 && out == (-2147483647 - 1) ? 0 : 4);
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t r;
    while (n + 1 < cap && (r = read(fds[0], report + n, cap - 1 - n)) > 0)
        n += (size_t)r;
    report[n] = 0;
    close(fds[0]);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void test_host_ubsan_mode(void **state) {
    (void)state;
    char report[8192];
    assert_int_equal(run_overflow_child(NULL, report, sizeof report), 0);
    assert_int_not_equal(run_overflow_child("undefined", report, sizeof report), 0);
    assert_non_null(strstr(report, "ovf.py:4"));
    assert_non_null(strstr(report, "signed integer overflow"));
    setenv("MYTRITON_HOST_SANITIZE", "address", 1);
    const char *types[] = {"int*", "int"};
    Ctx c;
    ctx_init(&c);
    HostModule *m = NULL;
    assert_int_equal(host_build(&c, overflow_src, "ovf", types, 2, &m), -1);
    unsetenv("MYTRITON_HOST_SANITIZE");
    assert_int_equal(c.status, MT_ERR_HOST_CC);
    assert_non_null(strstr(sb_str(&c.err), "MYTRITON_HOST_SANITIZE='address'"));
    ctx_fini(&c);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vector_add),
        cmocka_unit_test(test_shared_reverse),
        cmocka_unit_test(test_warp_shuffle_reduce),
        cmocka_unit_test(test_many_programs),
        cmocka_unit_test(test_grid_3d),
        cmocka_unit_test(test_one_thread),
        cmocka_unit_test(test_early_return_and_deadlock),
        cmocka_unit_test(test_scheduler_contract),
        cmocka_unit_test(test_scheduler_errors),
        cmocka_unit_test(test_scheduler_without_fibers),
#if defined(__linux__)
        cmocka_unit_test(test_pool_pinned),
#endif
        cmocka_unit_test(test_scalar_kernel_runs_one_thread),
        cmocka_unit_test(test_max_threads),
        cmocka_unit_test(test_compile_error),
        cmocka_unit_test(test_bad_launch_shape),
        cmocka_unit_test(test_disk_cache_hit),
        cmocka_unit_test(test_concurrent_launches),
        cmocka_unit_test(test_cache_roundtrip),
        cmocka_unit_test(test_cache_dir_created),
        cmocka_unit_test(test_cache_concurrent_writers),
        cmocka_unit_test(test_digest),
        cmocka_unit_test(test_occupancy_register_cap),
        cmocka_unit_test(test_registers_fitted),
        cmocka_unit_test(test_nvrtc),
        cmocka_unit_test(test_cuda_driver_open),
        cmocka_unit_test(test_host_ubsan_mode),
        cmocka_unit_test(test_scheduler_check_failure),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
