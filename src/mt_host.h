/* mt_host.h: the CUDA emulation header of mytriton's host backend.
 *
 * Input: the CUDA C that cuda.c emits (the text NVRTC compiles for the
 * GPU), included after this header in one C++17 translation unit, plus a
 * trampoline mt_host_entry(void **args) that calls the kernel.  Output: a
 * shared object whose mt_host_run() runs a grid of programs on the CPU.
 *
 * How a grid runs: a few POSIX worker threads (at most one per CPU) take
 * program ids from a shared counter, x fastest.  A worker runs one whole
 * program at a time, each CUDA thread of it as a fiber (its own stack,
 * switched by a few instructions), so a __syncthreads or a warp shuffle
 * is a switch to the next fiber rather than a sleep and wake-up of an OS
 * thread.  One OS thread per CUDA thread, the first design, needed ~8 s
 * for 2000 programs x 128 threads of a warp reduction on two cores; this
 * needs a few milliseconds.
 *
 * Invariants:
 *   - blockIdx is per worker (all its fibers run the same program);
 *     threadIdx is set by the worker's scheduler before it resumes a fiber;
 *     blockDim and gridDim are set before the workers start and are only
 *     read during a run;
 *   - __shared__ is `static thread_local`: each worker runs one program at
 *     a time, so its copy is seen by exactly the threads of one program,
 *     like shared memory, and programs of different workers never share;
 *   - __syncthreads waits for every thread of the program that has not
 *     returned yet (returned threads no longer count, as on the GPU);
 *     __shfl_xor_sync writes the lane's value into a per-warp exchange
 *     buffer, waits at the warp's barrier and reads the partner's slot;
 *     the buffer alternates between two copies with the barrier's
 *     generation, so a lane that runs ahead cannot overwrite a value its
 *     partner has not read yet;
 *   - fibers never move between OS threads, so thread_local addresses a
 *     fiber computed stay valid;
 *   - threads waiting at different barriers with nobody left to release
 *     them is reported as an error, not a hang;
 *   - one grid at a time per loaded object (a lock): blockDim/gridDim are
 *     per object and the same file dlopen'ed twice is one object;
 *   - the vector types float2, float4, int2, int4, longlong2 (with their
 *     make_ functions) have CUDA's size and alignment and may alias their
 *     scalar element type, so `*(float4*)p` over a float array (what the
 *     emitter writes for 64/128-bit accesses) means here what it means on
 *     the GPU.
 * CUDA names provided: __global__ __device__ __host__ __forceinline__
 * __noinline__ __launch_bounds__ __shared__ __align__ __restrict__ blockIdx
 * threadIdx blockDim gridDim dim3 __syncthreads __shfl_xor_sync __int_as_float
 * __float_as_int float2 float4 int2 int4 longlong2 make_float2 make_float4
 * make_int2 make_int4 make_longlong2, plus <cmath>'s expf logf sqrtf fabsf
 * fmaxf fminf floorf fmodf isnan isinf.
 * This file is embedded in the library as a string (tools/embed.sh) and
 * written next to each kernel it compiles, so it is self-contained. */
#ifndef MT_HOST_H
#define MT_HOST_H

#include <atomic>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __shared__ static thread_local
#define __align__(n) __attribute__((aligned(n)))

using std::isinf;
using std::isnan;

struct mt_uint3 {
    unsigned x, y, z;
};
typedef mt_uint3 dim3;

static thread_local mt_uint3 blockIdx;
static thread_local mt_uint3 threadIdx;
static mt_uint3 blockDim;
static mt_uint3 gridDim;

static inline float __int_as_float(int v) {
    float f;
    std::memcpy(&f, &v, sizeof f);
    return f;
}
static inline int __float_as_int(float f) {
    int v;
    std::memcpy(&v, &f, sizeof v);
    return v;
}

/* ---- vector types (layout and alignment as in CUDA's vector_types.h) ---- */

struct __attribute__((may_alias, aligned(8))) float2 { float x, y; };
struct __attribute__((may_alias, aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((may_alias, aligned(8))) int2 { int x, y; };
struct __attribute__((may_alias, aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((may_alias, aligned(16))) longlong2 { long long x, y; };

static inline float2 make_float2(float x, float y) { return float2{x, y}; }
static inline float4 make_float4(float x, float y, float z, float w) {
    return float4{x, y, z, w};
}
static inline int2 make_int2(int x, int y) { return int2{x, y}; }
static inline int4 make_int4(int x, int y, int z, int w) {
    return int4{x, y, z, w};
}
static inline longlong2 make_longlong2(long long x, long long y) {
    return longlong2{x, y};
}

/* ---- fibers ---- */

#define MT_HOST_MAX_THREADS 1024
#define MT_HOST_WARP 32
#define MT_HOST_FIBER_STACK (1024 * 1024) /* mapped lazily (MAP_NORESERVE) */

#if defined(__x86_64__)
/* mt_fiber_switch(save, to): pushes the callee-saved registers, stores the
 * stack pointer in *save, loads `to` and pops the registers saved there. */
extern "C" void mt_fiber_switch(void **save, void *to);
__asm__(".text\n"
        ".p2align 4\n"
        ".globl mt_fiber_switch\n"
        ".hidden mt_fiber_switch\n"
        ".type mt_fiber_switch,@function\n"
        "mt_fiber_switch:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size mt_fiber_switch, .-mt_fiber_switch\n");
#endif

struct mt_barrier {
    unsigned arrived;
    unsigned generation;
};

enum { MT_FIBER_READY, MT_FIBER_WAIT, MT_FIBER_DONE };

struct mt_fiber {
#if defined(__x86_64__)
    void *sp;
#else
    ucontext_t uc;
#endif
    unsigned tid;
    int state;
    const mt_barrier *wait_bar;
    unsigned wait_gen;
};

struct mt_run_state;

struct mt_worker {
    mt_run_state *run;
    mt_fiber *fibers;
    unsigned nfibers;
    unsigned done;
    unsigned warp_done[MT_HOST_MAX_THREADS / MT_HOST_WARP];
    mt_barrier block_bar;
    mt_barrier warp_bar[MT_HOST_MAX_THREADS / MT_HOST_WARP];
    unsigned long long exchange[2][MT_HOST_MAX_THREADS];
    mt_fiber *current;
#if defined(__x86_64__)
    void *sched_sp;
#else
    ucontext_t sched_uc;
#endif
    char *stacks;
    size_t stacks_bytes;
    pthread_t tid;
    bool started;
    bool is_caller; /* worker 0 runs on the launching thread */
};

struct mt_run_state {
    void (*entry)(void **);
    void **args;
    unsigned long long nprograms;
    unsigned threads;
    std::atomic<unsigned long long> next_program;
    std::atomic<int> failed;
    pthread_mutex_t err_lock;
    char err[256];
};

static thread_local mt_worker *mt_tls_worker;

static void mt_to_scheduler(mt_worker *w, mt_fiber *f) {
#if defined(__x86_64__)
    mt_fiber_switch(&f->sp, w->sched_sp);
#else
    swapcontext(&f->uc, &w->sched_uc);
#endif
}

static void mt_to_fiber(mt_worker *w, mt_fiber *f) {
    w->current = f;
    threadIdx.x = f->tid;
#if defined(__x86_64__)
    mt_fiber_switch(&w->sched_sp, f->sp);
#else
    swapcontext(&w->sched_uc, &f->uc);
#endif
}

static inline void mt_release_if_complete(mt_barrier *b, unsigned live) {
    if (b->arrived > 0 && b->arrived >= live) {
        b->arrived = 0;
        b->generation++;
    }
}

/* Arrives at b, which waits for `live` fibers; the last one goes on
 * without a switch. */
static void mt_barrier_wait(mt_barrier *b, unsigned live) {
    mt_worker *w = mt_tls_worker;
    if (++b->arrived >= live) {
        b->arrived = 0;
        b->generation++;
        return;
    }
    mt_fiber *f = w->current;
    f->state = MT_FIBER_WAIT;
    f->wait_bar = b;
    f->wait_gen = b->generation;
    mt_to_scheduler(w, f);
}

static inline unsigned mt_warp_size(unsigned threads, unsigned warp) {
    unsigned first = warp * MT_HOST_WARP;
    return threads - first < MT_HOST_WARP ? threads - first : MT_HOST_WARP;
}

static inline void __syncthreads() {
    mt_worker *w = mt_tls_worker;
    mt_barrier_wait(&w->block_bar, w->nfibers - w->done);
}

template <typename T>
static inline T __shfl_xor_sync(unsigned mask, T value, int lane_mask,
                                int width = MT_HOST_WARP) {
    static_assert(sizeof(T) <= sizeof(unsigned long long), "shuffle of a wide type");
    (void)mask;
    mt_worker *w = mt_tls_worker;
    unsigned tid = threadIdx.x;
    unsigned warp = tid / MT_HOST_WARP;
    unsigned lane = tid % MT_HOST_WARP;
    unsigned base = warp * MT_HOST_WARP;
    mt_barrier *b = &w->warp_bar[warp];
    unsigned long long *slots = w->exchange[b->generation & 1];
    unsigned long long slot = 0;
    std::memcpy(&slot, &value, sizeof(T));
    slots[tid] = slot;
    mt_barrier_wait(b, mt_warp_size(w->nfibers, warp) - w->warp_done[warp]);
    /* CUDA's width: lanes exchange within segments of `width` lanes */
    unsigned seg = width > 0 && width <= MT_HOST_WARP ? (unsigned)width : MT_HOST_WARP;
    unsigned partner = lane ^ (unsigned)lane_mask;
    if (partner / seg != lane / seg || partner >= MT_HOST_WARP ||
        base + partner >= w->nfibers)
        partner = lane; /* outside the segment or the program: own value */
    slot = slots[base + partner];
    T out;
    std::memcpy(&out, &slot, sizeof(T));
    return out;
}

/* Every fiber runs this: one program per resumption after it finished. */
static void mt_fiber_main() {
    mt_worker *w = mt_tls_worker;
    mt_fiber *f = w->current;
    for (;;) {
        w->run->entry(w->run->args);
        f->state = MT_FIBER_DONE;
        w->done++;
        unsigned warp = f->tid / MT_HOST_WARP;
        w->warp_done[warp]++;
        /* a barrier the others wait at may now be complete without us */
        mt_release_if_complete(&w->block_bar, w->nfibers - w->done);
        mt_release_if_complete(&w->warp_bar[warp],
                               mt_warp_size(w->nfibers, warp) - w->warp_done[warp]);
        mt_to_scheduler(w, f);
    }
}

static void mt_run_fail(mt_run_state *run, const char *msg) {
    pthread_mutex_lock(&run->err_lock);
    if (!run->failed.load()) {
        std::snprintf(run->err, sizeof run->err, "%s", msg);
        run->failed.store(1);
    }
    pthread_mutex_unlock(&run->err_lock);
}

/* The calling thread's fiber stacks, kept from one launch to the next:
 * mapping them, setting the guard pages and faulting the first pages in
 * again cost about a millisecond per launch of a small kernel. */
static thread_local char *mt_cached_stacks;
static thread_local size_t mt_cached_bytes;

static int mt_worker_setup(mt_worker *w, bool reuse) {
    long page = sysconf(_SC_PAGESIZE);
    size_t psz = page > 0 ? (size_t)page : 4096;
    size_t per = MT_HOST_FIBER_STACK + psz; /* a guard page below each stack */
    w->stacks_bytes = per * w->nfibers;
    bool fresh = true;
    if (reuse && mt_cached_stacks && mt_cached_bytes == w->stacks_bytes) {
        w->stacks = mt_cached_stacks; /* guard pages already in place */
        mt_cached_stacks = nullptr;
        fresh = false;
    } else {
        void *mem = mmap(nullptr, w->stacks_bytes, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED) {
            w->stacks = nullptr;
            return -1;
        }
        w->stacks = static_cast<char *>(mem);
    }
    for (unsigned i = 0; i < w->nfibers; i++) {
        char *base = w->stacks + per * i;
        if (fresh)
            mprotect(base, psz, PROT_NONE);
        mt_fiber *f = &w->fibers[i];
        f->tid = i;
        f->state = MT_FIBER_READY;
#if defined(__x86_64__)
        /* ret into mt_fiber_main with rsp = 8 mod 16, as after a call */
        /* stagger the tops: stacks a multiple of the page size apart
         * would put every fiber's hot frames in the same cache sets */
        uintptr_t top = ((uintptr_t)(base + per - (i % 61) * 64)) & ~(uintptr_t)15;
        void **sp = reinterpret_cast<void **>(top - 16);
        sp[1] = nullptr;
        sp[0] = reinterpret_cast<void *>(&mt_fiber_main);
        sp -= 6;
        for (int r = 0; r < 6; r++)
            sp[r] = nullptr;
        f->sp = sp;
#else
        getcontext(&f->uc);
        f->uc.uc_stack.ss_sp = base + psz;
        f->uc.uc_stack.ss_size = MT_HOST_FIBER_STACK;
        f->uc.uc_link = nullptr;
        makecontext(&f->uc, mt_fiber_main, 0);
#endif
    }
    return 0;
}

/* Runs the threads of one program until all returned; -1 on deadlock. */
static int mt_worker_program(mt_worker *w) {
    w->done = 0;
    std::memset(w->warp_done, 0, sizeof w->warp_done);
    w->block_bar.arrived = 0;
    for (unsigned i = 0; i < MT_HOST_MAX_THREADS / MT_HOST_WARP; i++)
        w->warp_bar[i].arrived = 0;
    for (unsigned i = 0; i < w->nfibers; i++)
        w->fibers[i].state = MT_FIBER_READY;
    while (w->done < w->nfibers) {
        bool progress = false;
        for (unsigned i = 0; i < w->nfibers; i++) {
            mt_fiber *f = &w->fibers[i];
            if (f->state == MT_FIBER_DONE ||
                (f->state == MT_FIBER_WAIT &&
                 f->wait_bar->generation == f->wait_gen))
                continue;
            f->state = MT_FIBER_READY;
            mt_to_fiber(w, f);
            progress = true;
        }
        if (!progress)
            return -1;
    }
    return 0;
}

static void *mt_worker_main(void *p) {
    mt_worker *w = static_cast<mt_worker *>(p);
    mt_run_state *run = w->run;
    mt_tls_worker = w;
    char msg[256];
    if (mt_worker_setup(w, w->is_caller) != 0) {
        std::snprintf(msg, sizeof msg, "cannot map %u fiber stacks of %u KiB",
                      w->nfibers, MT_HOST_FIBER_STACK / 1024);
        mt_run_fail(run, msg);
        return nullptr;
    }
    unsigned long long gx = gridDim.x, gy = gridDim.y;
    while (!run->failed.load(std::memory_order_relaxed)) {
        unsigned long long pid = run->next_program.fetch_add(1);
        if (pid >= run->nprograms)
            break;
        blockIdx.x = (unsigned)(pid % gx);
        blockIdx.y = (unsigned)((pid / gx) % gy);
        blockIdx.z = (unsigned)(pid / (gx * gy));
        if (mt_worker_program(w) != 0) {
            /* the fibers are stuck mid-kernel; their stacks are dropped */
            std::snprintf(msg, sizeof msg,
                          "deadlock in program (%u, %u, %u): threads wait at "
                          "different barriers (a __syncthreads or warp shuffle "
                          "not reached by every thread)",
                          blockIdx.x, blockIdx.y, blockIdx.z);
            mt_run_fail(run, msg);
            break;
        }
    }
    if (w->is_caller && !run->failed.load()) {
        /* keep them for this thread's next launch (a deadlocked program's
         * fibers are stuck mid-kernel: those stacks are dropped) */
        if (mt_cached_stacks)
            munmap(mt_cached_stacks, mt_cached_bytes);
        mt_cached_stacks = w->stacks;
        mt_cached_bytes = w->stacks_bytes;
    } else {
        munmap(w->stacks, w->stacks_bytes);
    }
    w->stacks = nullptr;
    mt_tls_worker = nullptr;
    return nullptr;
}

static unsigned mt_worker_count(unsigned long long nprograms) {
    unsigned n = 1;
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = (unsigned)CPU_COUNT(&set);
#else
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c > 0 ? (unsigned)c : 1;
#endif
    const char *env = std::getenv("MYTRITON_HOST_WORKERS");
    if (env && *env) {
        long v = std::strtol(env, nullptr, 10);
        if (v >= 1 && v <= 1024)
            n = (unsigned)v;
    }
    if (n < 1)
        n = 1;
    if (n > 256)
        n = 256;
    if ((unsigned long long)n > nprograms)
        n = (unsigned)nprograms;
    return n;
}

static pthread_mutex_t mt_host_run_lock = PTHREAD_MUTEX_INITIALIZER;

extern "C" int mt_host_run(void (*entry)(void **), void **args, unsigned gx,
                           unsigned gy, unsigned gz, unsigned threads,
                           char *err, unsigned errlen) {
    if (err && errlen)
        err[0] = 0;
    if (threads < 1 || threads > MT_HOST_MAX_THREADS || gx < 1 || gy < 1 ||
        gz < 1) {
        if (err && errlen)
            std::snprintf(err, errlen, "bad launch shape: grid (%u, %u, %u), %u threads",
                          gx, gy, gz, threads);
        return -1;
    }
    unsigned long long nprograms = (unsigned long long)gx * gy * gz;
    unsigned nworkers = mt_worker_count(nprograms);
    /* calloc, not new: the object must not need libstdc++ (see host.c) */
    mt_run_state *run = static_cast<mt_run_state *>(std::calloc(1, sizeof(mt_run_state)));
    mt_worker *workers = static_cast<mt_worker *>(std::calloc(nworkers, sizeof(mt_worker)));
    mt_fiber *fibers = static_cast<mt_fiber *>(
        std::calloc((size_t)nworkers * threads, sizeof(mt_fiber)));
    if (!run || !workers || !fibers) {
        std::free(run);
        std::free(workers);
        std::free(fibers);
        if (err && errlen)
            std::snprintf(err, errlen, "out of memory for %u host workers", nworkers);
        return -1;
    }
    run->entry = entry;
    run->args = args;
    run->nprograms = nprograms;
    run->threads = threads;
    run->next_program.store(0);
    run->failed.store(0);
    pthread_mutex_init(&run->err_lock, nullptr);
    run->err[0] = 0;
    for (unsigned i = 0; i < nworkers; i++) {
        mt_worker *w = &workers[i];
        w->run = run;
        w->fibers = &fibers[(size_t)i * threads];
        w->nfibers = threads;
    }

    pthread_mutex_lock(&mt_host_run_lock);
    blockDim.x = threads;
    blockDim.y = 1;
    blockDim.z = 1;
    gridDim.x = gx;
    gridDim.y = gy;
    gridDim.z = gz;

    /* Worker 0 is the calling thread; extra workers only add speed, so a
     * failed pthread_create means fewer of them, not a failed launch. */
    pthread_attr_t attr;
    bool attr_ok = pthread_attr_init(&attr) == 0;
    if (attr_ok && pthread_attr_setstacksize(&attr, 256 * 1024) != 0)
        attr_ok = false;
    for (unsigned i = 1; i < nworkers && attr_ok; i++) {
        if (pthread_create(&workers[i].tid, &attr, mt_worker_main, &workers[i]) != 0)
            break;
        workers[i].started = true;
    }
    if (attr_ok)
        pthread_attr_destroy(&attr);
    workers[0].is_caller = true;
    mt_worker_main(&workers[0]);
    for (unsigned i = 1; i < nworkers; i++)
        if (workers[i].started)
            pthread_join(workers[i].tid, nullptr);
    pthread_mutex_unlock(&mt_host_run_lock);

    int result = run->failed.load() ? -1 : 0;
    if (result != 0 && err && errlen)
        std::snprintf(err, errlen, "%s", run->err);
    pthread_mutex_destroy(&run->err_lock);
    std::free(run);
    std::free(workers);
    std::free(fibers);
    return result;
}

#endif /* MT_HOST_H */
