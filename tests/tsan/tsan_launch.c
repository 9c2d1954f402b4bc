/* tsan_launch.c: host launches on one shared context from many threads,
 * under ThreadSanitizer (issue 15: the context is shared by Python
 * threads that launch without the GIL).  Four threads launch a 64-program
 * grid 200 times each through the context's worker pool, one at a time on
 * the pool and the rest on their own threads.  Every element must end at
 * the launch count, and TSan must report nothing.  Threads that exit
 * after launching (their records freed by a thread-exit destructor) are
 * left out: with them TSan's own runtime faulted in __tsan_func_entry
 * about one run in three (a write to an unmapped shadow page as the
 * thread ends), before reporting anything; test_host_runtime.py covers
 * 200 such threads without TSan.  The kernel never waits, so no fiber switch
 * runs: TSan does not follow the scheduler's own stack switches.
 * `make test-tsan` builds it with clang -fsanitize=thread and runs it with
 * address randomisation off (TSan's shadow layout needs it on new
 * kernels). */
#include "mytriton.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
    "import triton\nimport triton.language as tl\n\n@triton.jit\n"
    "def add1(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    m = offs < n\n"
    "    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=m) + 1.0, mask=m)\n";
static mt_kernel *k;
/* the poll runs on the launching thread only: a plain counter is enough */
static int poll_count(void *p) {
    (*(int *)p)++;
    return 0;
}

static void *work(void *arg) {
    float *x = calloc(64 * 16, sizeof *x);
    int n = 64 * 16, polls = 0;
    void *args[] = {&x, &n};
    uint32_t grid[3] = {64, 1, 1};
    char err[256];
    for (int r = 0; r < 200; r++)
        if (mt_launch_host(k, grid, args, poll_count, &polls, err, sizeof err) != MT_OK) {
            fprintf(stderr, "launch: %s\n", err);
            exit(1);
        }
    for (int i = 0; i < n; i++)
        if (x[i] != 200.0f) {
            fprintf(stderr, "x[%d] = %g after 200 launches\n", i, x[i]);
            exit(1);
        }
    if (polls < 1) { /* asked after every program this thread ran */
        fprintf(stderr, "polled %d times\n", polls);
        exit(1);
    }
    free(x);
    (void)arg;
    return NULL;
}

int main(void) {
    mt_context *ctx;
    if (mt_context_create(&ctx) != MT_OK)
        return 1;
    mt_compile_options o = MT_COMPILE_OPTIONS_INIT;
    o.source = src;
    o.filename = "k.py";
    o.kernel = "add1";
    o.signature = "*fp32,i32,16";
    o.backend = MT_BACKEND_HOST;
    o.num_warps = 1;
    if (mt_compile(ctx, &o, &k) != MT_OK) {
        fprintf(stderr, "%s", mt_errmsg(ctx));
        return 1;
    }
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    mt_kernel_destroy(k);
    mt_context_destroy(ctx);
    puts("ok");
    return 0;
}
