/* fiber.c: the host backend's scheduler: a grid of programs on a few
 * worker threads, each CUDA thread of a program a fiber.
 *
 * Input: a host kernel's entry point (the trampoline host.c adds to the
 * kernel's CUDA text, compiled against mt_host.h), its arguments, a grid
 * and the threads per program.  Output: the grid has run, or an error
 * (a deadlock, no memory for stacks).
 *
 * How a grid runs: workers, one per CPU at most (the launching thread and
 * the context's persistent pool, started at its first grid of two or more
 * programs), take program ids from a shared counter, x fastest.  A worker
 * runs one whole program at a time, each CUDA thread of it as a fiber (its
 * own stack, switched by a few instructions), so a __syncthreads or a warp
 * shuffle is a switch to the next fiber rather than a sleep and wake-up of
 * an OS thread.  (One OS thread per CUDA thread, the first design, needed
 * ~8 s for 2000 programs x 128 threads of a warp reduction on two cores;
 * this needs a few milliseconds.)  A launch posts its run to the pool and
 * works on it at once: a pool worker that wakes after the last program was
 * taken finds nothing to do, so a small grid costs one wake-up, not a
 * thread (926 launches/s of a 4-program grid when every launch started and
 * joined a thread).
 *
 * The kernel object sees the scheduler only through mt_host.h's contract
 * (its C part, which mt.h includes): each worker's
 * mt_host_thread holds the blockIdx, threadIdx, blockDim and gridDim the
 * kernel reads, and a table of the two operations a kernel needs from the
 * scheduler, __syncthreads and the warp shuffle.  The scheduler lives here
 * once, not in every kernel object.
 *
 * Invariants:
 *   - a worker's fibers all run the same program: its blockIdx is theirs;
 *     threadIdx is written before a fiber is resumed;
 *   - __syncthreads waits for every thread of the program that has not
 *     returned yet (returned threads no longer count, as on the GPU);
 *     a shuffle writes the lane's value into a per-warp exchange buffer,
 *     waits at the warp's barrier and reads the partner's slot; the buffer
 *     alternates between two copies with the barrier's generation, so a
 *     lane that runs ahead cannot overwrite a value its partner has not
 *     read yet;
 *   - fibers never move between OS threads, so the thread_local __shared__
 *     arrays of the kernel object are seen by exactly one program's
 *     threads, and addresses a fiber computed stay valid;
 *   - threads waiting at different barriers with nobody left to release
 *     them is reported as an error, not a hang;
 *   - a kernel that never waits (no __syncthreads, no shuffle: host.c
 *     reads that off its CUDA text) needs no fibers: its threads run one
 *     after the other as plain calls on the worker's stack, which is what
 *     makes a one-element program at 32 warps cost 1024 calls rather than
 *     1024 stack switches; the wait operations then only report misuse;
 *   - a failed atomic compare-and-swap (a spin lock's wait) yields: its
 *     fiber lets the others of its program run, its OS thread lets the
 *     other workers run, and a program that keeps spinning may wait for a
 *     program not started yet (on the GPU every program of a small grid
 *     runs at once), so after SPIN_LIMIT failures in one program another
 *     worker is started for the programs left (at most MAX_WORKERS);
 *   - a thread that fails a device assertion (mt_host.h's __assertfail)
 *     ends its program there: the worker leaves the program's fibers
 *     unresumed, the run fails with the assertion's text and no program
 *     starts after it; programs already running on other workers finish;
 *     a failed check of checked mode (mt_host_ops.check) ends its program
 *     and the run the same way, with the check's own located text, and
 *     the run's extents (one per parameter) are what mt_host_thread
 *     shows the kernel's checks;
 *   - resources are bounded per thread, not per kernel or launch: every
 *     thread that runs programs (a pool worker, or a launching thread) has
 *     one Worker record whose stacks grow to the largest program it ran
 *     and are kept for the next launch of any kernel; a launching thread's
 *     record is freed when it exits (a pthread key of the runtime), the
 *     pool's with the runtime; nothing is global: all of it hangs off the
 *     context's FiberRuntime;
 *   - the launching thread calls the caller's poll between programs and
 *     while it waits for pool workers; a nonzero answer stops the run
 *     ("interrupted"), so a Ctrl-C is seen within one program.  Workers
 *     run with the asynchronous signals blocked, so such a signal reaches
 *     a thread that can act on it;
 *   - one run uses the pool at a time; another launch, from another
 *     thread, runs meanwhile on its own thread alone: launches of one
 *     context are safe from many threads without a lock around them;
 *   - on Linux, a pool of one worker per CPU but one is pinned, a worker
 *     to a CPU, and a launch moves the worker off the launching thread's
 *     CPU first.  Left to the scheduler, a woken worker was often placed
 *     on the launcher's busy CPU (in a virtual machine an idle vCPU the
 *     hypervisor has descheduled does not count as idle), and the two
 *     then shared one CPU launch after launch: half the speed, measured
 *     as a sticky 2x on a 2-CPU machine after any idle pause. */
#include "mt.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#if !defined(__x86_64__)
#include <ucontext.h>
#endif

#define WARP 32
#define MAX_WARPS (MT_MAX_THREADS / WARP)
#define FIBER_STACK (1024 * 1024) /* mapped lazily (MAP_NORESERVE) */
#define MAX_WORKERS 256
#define SPIN_LIMIT 256 /* failed compare-and-swaps of one program before
                          another worker starts */

#if defined(__x86_64__)
/* fiber_switch(save, to): pushes the callee-saved registers, stores the
 * stack pointer in *save, loads `to` and pops the registers saved there.
 * fiber_start is where a new fiber's first switch returns to: it calls
 * r13(r12), the fiber's main function and its worker. */
void mt_fiber_switch(void **save, void *to);
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
        ".size mt_fiber_switch, .-mt_fiber_switch\n"
        ".p2align 4\n"
        ".globl mt_fiber_start\n"
        ".hidden mt_fiber_start\n"
        ".type mt_fiber_start,@function\n"
        "mt_fiber_start:\n"
        "  movq %r12, %rdi\n"
        "  andq $-16, %rsp\n"
        "  call *%r13\n"
        "  ud2\n"
        ".size mt_fiber_start, .-mt_fiber_start\n");
void mt_fiber_start(void);
#endif

typedef struct Barrier {
    unsigned arrived;
    unsigned generation;
} Barrier;

enum { FIBER_READY, FIBER_WAIT, FIBER_DONE };

typedef struct Fiber {
#if defined(__x86_64__)
    void *sp;
#else
    ucontext_t uc;
#endif
    unsigned tid;
    int state;
    const Barrier *wait_bar;
    unsigned wait_gen;
} Fiber;

typedef struct Run Run;
typedef struct Worker Worker;

/* A thread's worker record: the fibers' scheduling state, and its fiber
 * stacks and Fiber array, kept from one launch to the next and grown to
 * the largest program the thread has run (never shrunk until it exits). */
struct Worker {
    mt_host_thread view; /* what the kernel reads */
    Run *run;
    Fiber *fibers;
    unsigned nfibers;     /* threads of the current run's programs */
    unsigned fiber_cap;   /* entries of fibers */
    unsigned done;
    unsigned warp_done[MAX_WARPS];
    Barrier block_bar;
    Barrier warp_bar[MAX_WARPS];
    unsigned long long exchange[2][MT_MAX_THREADS];
    Fiber *current;
#if defined(__x86_64__)
    void *sched_sp;
#else
    ucontext_t sched_uc;
#endif
    char *stacks;         /* stack_cap stacks, each under a guard page */
    size_t stacks_bytes;
    unsigned stack_cap;
    pthread_t tid;
    bool is_caller;       /* the launching thread's: it polls for interrupts */
    const FiberPoll *poll;
    unsigned spins;       /* failed compare-and-swaps of the current program */
    unsigned long long chunk_next, chunk_end; /* programs taken, not yet run */
    bool aborted;         /* a thread of the current program failed an assertion */
    FiberRuntime *rt;
    Worker *prev, *next;  /* rt->callers: launching threads' records */
    void *scratch;        /* the cpu backend's tiles (op_scratch) */
    size_t scratch_bytes;
};

struct Run {
    mt_host_entry_fn *entry;
    bool waits;
    void **args;
    unsigned long long nprograms;
    unsigned long long chunk; /* programs taken at once (fiber_run_chunked) */
    atomic_ullong next_program;
    atomic_int failed;
    int kind;       /* RUN_FAIL_* of the failure (under err_lock) */
    const mt_host_extent *extents; /* checked mode's, per parameter */
    unsigned nextents;
    pthread_mutex_t err_lock;
    char err[1024];
    /* pool workers that joined this run, and how many may (under rt->lock) */
    unsigned members, max_members;
    /* workers started by spinning programs (spin_wait), under grow_lock */
    pthread_mutex_t grow_lock;
    unsigned nworkers, threads;
    mt_uint3 grid;
    Worker *extra[MAX_WORKERS];
    unsigned nextra;
};

/* The persistent workers of a context and the launching threads' records.
 * One launch at a time uses the pool (job); a launch that finds it taken
 * runs on its own thread alone, as many launching threads may. */
struct FiberRuntime {
    pthread_mutex_t lock;
    pthread_cond_t work_cv; /* a job was posted, or stopping */
    pthread_cond_t done_cv; /* a member left its job */
    pthread_key_t key;      /* this runtime's Worker of each launching thread */
    Worker *callers;        /* every launching thread's Worker, for freeing */
    Run *job;
    unsigned long long job_seq;
    bool stopping;
    bool pool_started;
    unsigned npool;
    Worker *pool[MAX_WORKERS];
    /* Placement (Linux): with one pool worker per CPU but the launcher's,
     * pool[i] is pinned to cpu_of[i] and free_cpu is the one left for the
     * launching thread; placed is false when the pool was not pinned. */
    bool placed;
    int free_cpu;
    int cpu_of[MAX_WORKERS];
};
static void to_scheduler(Worker *w, Fiber *f) {
#if defined(__x86_64__)
    mt_fiber_switch(&f->sp, w->sched_sp);
#else
    swapcontext(&f->uc, &w->sched_uc);
#endif
}

static void to_fiber(Worker *w, Fiber *f) {
    w->current = f;
    w->view.thread_idx.x = f->tid;
#if defined(__x86_64__)
    mt_fiber_switch(&w->sched_sp, f->sp);
#else
    swapcontext(&w->sched_uc, &f->uc);
#endif
}

static inline void release_if_complete(Barrier *b, unsigned live) {
    if (b->arrived > 0 && b->arrived >= live) {
        b->arrived = 0;
        b->generation++;
    }
}

/* Arrives at b, which waits for `live` fibers; the last one goes on
 * without a switch. */
static void barrier_wait(Worker *w, Barrier *b, unsigned live) {
    if (++b->arrived >= live) {
        b->arrived = 0;
        b->generation++;
        return;
    }
    Fiber *f = w->current;
    f->state = FIBER_WAIT;
    f->wait_bar = b;
    f->wait_gen = b->generation;
    to_scheduler(w, f);
}

static inline unsigned warp_size(unsigned threads, unsigned warp) {
    unsigned first = warp * WARP;
    return threads - first < WARP ? threads - first : WARP;
}

static void op_syncthreads(void *p) {
    Worker *w = p;
    barrier_wait(w, &w->block_bar, w->nfibers - w->done);
}

static unsigned long long op_shfl_xor(void *p, unsigned long long value, int lane_mask,
                                      int width) {
    Worker *w = p;
    unsigned tid = w->current->tid;
    unsigned warp = tid / WARP, lane = tid % WARP, base = warp * WARP;
    Barrier *b = &w->warp_bar[warp];
    unsigned long long *slots = w->exchange[b->generation & 1];
    slots[tid] = value;
    barrier_wait(w, b, warp_size(w->nfibers, warp) - w->warp_done[warp]);
    /* CUDA's width: lanes exchange within segments of `width` lanes */
    unsigned seg = width > 0 && width <= WARP ? (unsigned)width : WARP;
    unsigned partner = lane ^ (unsigned)lane_mask;
    if (partner / seg != lane / seg || partner >= WARP || base + partner >= w->nfibers)
        partner = lane; /* outside the segment or the program: own value */
    return slots[base + partner];
}

static void spin_wait(Worker *w);

/* A failed compare-and-swap: the other fibers of the program run first. */
static void op_spin(void *p) {
    Worker *w = p;
    spin_wait(w);
    Fiber *f = w->current;
    f->state = FIBER_READY;
    to_scheduler(w, f);
}

/* What failed a run: fiber_run's result is minus it. */
enum { RUN_FAIL_OTHER = 1, RUN_FAIL_ASSERT = 2, RUN_FAIL_CHECK = 3 };
static void run_record(Run *run, const char *msg, int kind);
static void run_fail(Run *run, const char *msg) { run_record(run, msg, RUN_FAIL_OTHER); }

/* A failed device assertion: the launch fails with CUDA's text of it. */
static void assert_failed(Worker *w, const char *msg, const char *file, unsigned line,
                          const char *function) {
    const mt_uint3 *b = &w->view.block_idx, *t = &w->view.thread_idx;
    char text[sizeof w->run->err];
    snprintf(text, sizeof text,
             "device-side assert triggered: %s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] "
             "Assertion `%s` failed.",
             file, line, function, b->x, b->y, b->z, t->x, t->y, t->z, msg);
    run_record(w->run, text, RUN_FAIL_ASSERT);
}

/* The failing thread's program ends: its fibers are never resumed (their
 * stacks are dropped with the failed run), no program starts after it. */
static void op_fail(void *p, const char *msg, const char *file, unsigned line,
                    const char *function) {
    Worker *w = p;
    assert_failed(w, msg, file, line, function);
    w->aborted = true;
    Fiber *f = w->current;
    f->state = FIBER_DONE;
    to_scheduler(w, f);
}

/* A failed check of checked mode (mt_host.h): like an assertion, the
 * program's threads stop before the access, with the check's text. */
static void op_check(void *p, const char *msg) {
    Worker *w = p;
    run_record(w->run, msg, RUN_FAIL_CHECK);
    w->aborted = true;
    Fiber *f = w->current;
    f->state = FIBER_DONE;
    to_scheduler(w, f);
}

/* The cpu backend's tiles (mt_host.h): one buffer per worker, grown to the
 * largest frame asked for and freed with the worker's other memory. */
static void *op_scratch(void *p, unsigned long long bytes) {
    Worker *w = p;
    if (bytes > w->scratch_bytes) {
        size_t n = ((size_t)bytes + 63) & ~(size_t)63;
        void *mem = aligned_alloc(64, n ? n : 64);
        if (!mem)
            return NULL;
        free(w->scratch);
        w->scratch = mem;
        w->scratch_bytes = n;
    }
    return w->scratch;
}

static const mt_host_ops scheduler_ops = {op_syncthreads, op_shfl_xor, op_spin, op_fail,
                                          op_check, op_scratch};

/* A kernel run without fibers never waits; were one to, the launch fails
 * (its threads cannot be suspended) instead of computing a wrong result. */
static void straight_misuse(void *p) {
    run_fail(((Worker *)p)->run, "internal error: a kernel run without fibers waited at a "
                                 "barrier or shuffle");
}
static void op_straight_sync(void *p) { straight_misuse(p); }
static unsigned long long op_straight_shfl(void *p, unsigned long long value, int lane_mask,
                                           int width) {
    (void)lane_mask;
    (void)width;
    straight_misuse(p);
    return value;
}
static void op_straight_spin(void *p) { spin_wait(p); }
/* host.c runs every kernel that can fail an assertion on fibers; without
 * them the failure is still reported, but the thread cannot stop */
static void op_straight_fail(void *p, const char *msg, const char *file, unsigned line,
                             const char *function) {
    assert_failed(p, msg, file, line, function);
}
/* host.c runs checked kernels on fibers too; as above */
static void op_straight_check(void *p, const char *msg) {
    run_record(((Worker *)p)->run, msg, RUN_FAIL_CHECK);
}
static const mt_host_ops straight_ops = {op_straight_sync, op_straight_shfl,
                                         op_straight_spin, op_straight_fail,
                                         op_straight_check, op_scratch};

/* Runs the threads of one program of a kernel that never waits. */
static void straight_program(Worker *w) {
    for (unsigned i = 0; i < w->nfibers; i++) {
        w->view.thread_idx.x = i;
        w->run->entry(w->run->args, &w->view);
    }
}

/* Every fiber runs this: one program per resumption after it finished. */
static void fiber_main(Worker *w) {
    for (;;) {
        Fiber *f = w->current;
        w->run->entry(w->run->args, &w->view);
        f->state = FIBER_DONE;
        w->done++;
        unsigned warp = f->tid / WARP;
        w->warp_done[warp]++;
        /* a barrier the others wait at may now be complete without us */
        release_if_complete(&w->block_bar, w->nfibers - w->done);
        release_if_complete(&w->warp_bar[warp],
                            warp_size(w->nfibers, warp) - w->warp_done[warp]);
        to_scheduler(w, f);
    }
}

#if !defined(__x86_64__)
/* makecontext passes int arguments: the worker's address in two halves */
static void fiber_start_uc(unsigned lo, unsigned hi) {
    fiber_main((Worker *)(((uintptr_t)hi << 16 << 16) | (uintptr_t)lo));
}
#endif

/* The first failure of a run wins: its text, and what kind it is. */
static void run_record(Run *run, const char *msg, int kind) {
    pthread_mutex_lock(&run->err_lock);
    if (!atomic_load(&run->failed)) {
        snprintf(run->err, sizeof run->err, "%s", msg);
        run->kind = kind;
        atomic_store(&run->failed, 1);
    }
    pthread_mutex_unlock(&run->err_lock);
}

static void init_fiber(Worker *w, unsigned i, char *base, size_t psz, size_t per) {
    Fiber *f = &w->fibers[i];
    f->tid = i;
    f->state = FIBER_READY;
#if defined(__x86_64__)
    /* the first switch pops six registers and returns into fiber_start
     * with rsp = 8 mod 16, as after a call; stagger the tops: stacks a
     * multiple of the page size apart would put every fiber's hot frames
     * in the same cache sets */
    uintptr_t top = ((uintptr_t)(base + per - (i % 61) * 64)) & ~(uintptr_t)15;
    void **sp = (void **)(top - 16);
    void (*start)(void) = mt_fiber_start;
    void (*main_fn)(Worker *) = fiber_main;
    sp[1] = NULL;
    memcpy(&sp[0], &start, sizeof start);
    sp -= 6;
    memset(sp, 0, 6 * sizeof *sp);
    sp[3] = w;                               /* r12 */
    memcpy(&sp[2], &main_fn, sizeof main_fn); /* r13 */
    f->sp = sp;
#else
    (void)per;
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = base + psz;
    f->uc.uc_stack.ss_size = FIBER_STACK;
    f->uc.uc_link = NULL;
    uintptr_t a = (uintptr_t)w;
    makecontext(&f->uc, (void (*)(void))fiber_start_uc, 2, (unsigned)(a & 0xffffffffu),
                (unsigned)(a >> 16 >> 16));
#endif
}

/* Gives w room for `threads` fibers: the Fiber array and the stacks grow
 * to the largest program seen and are kept (a new mapping, its guard
 * pages and first touched pages cost about a millisecond per launch of a
 * small kernel); every fiber starts afresh, so a stack left mid-kernel by
 * a failed or deadlocked program is simply reused. */
static int worker_setup(Worker *w, unsigned threads) {
    long page = sysconf(_SC_PAGESIZE);
    size_t psz = page > 0 ? (size_t)page : 4096;
    size_t per = FIBER_STACK + psz; /* a guard page below each stack */
    if (w->fiber_cap < threads) {
        Fiber *f = realloc(w->fibers, threads * sizeof *f);
        if (!f)
            return -1;
        w->fibers = f;
        w->fiber_cap = threads;
    }
    if (w->stack_cap < threads) {
        void *mem = mmap(NULL, per * threads, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (mem == MAP_FAILED)
            return -1;
        if (w->stacks)
            munmap(w->stacks, w->stacks_bytes);
        w->stacks = mem;
        w->stacks_bytes = per * threads;
        w->stack_cap = threads;
        for (unsigned i = 0; i < threads; i++)
            mprotect(w->stacks + per * i, psz, PROT_NONE);
    }
    for (unsigned i = 0; i < threads; i++)
        init_fiber(w, i, w->stacks + per * i, psz, per);
    return 0;
}

static void worker_release(Worker *w) {
    if (w->stacks)
        munmap(w->stacks, w->stacks_bytes);
    free(w->fibers);
    free(w->scratch);
    w->stacks = NULL;
    w->fibers = NULL;
    w->scratch = NULL;
    w->scratch_bytes = 0;
    w->stack_cap = w->fiber_cap = 0;
}

/* Runs the threads of one program until all returned; -1 on deadlock, 1
 * when a thread failed an assertion (run_fail has the text). */
static int worker_program(Worker *w) {
    w->done = 0;
    memset(w->warp_done, 0, sizeof w->warp_done);
    w->block_bar.arrived = 0;
    for (unsigned i = 0; i < MAX_WARPS; i++)
        w->warp_bar[i].arrived = 0;
    for (unsigned i = 0; i < w->nfibers; i++)
        w->fibers[i].state = FIBER_READY;
    while (w->done < w->nfibers) {
        bool progress = false;
        for (unsigned i = 0; i < w->nfibers; i++) {
            Fiber *f = &w->fibers[i];
            if (f->state == FIBER_DONE ||
                (f->state == FIBER_WAIT && f->wait_bar->generation == f->wait_gen))
                continue;
            f->state = FIBER_READY;
            to_fiber(w, f);
            if (w->aborted)
                return 1;
            progress = true;
        }
        if (!progress)
            return -1;
    }
    return 0;
}

/* The launching thread asks its caller between programs whether to stop
 * (a pending Ctrl-C): the run fails and no program starts after it. */
static void poll_caller(Worker *w) {
    if (w->is_caller && w->poll && w->poll->fn && w->poll->fn(w->poll->arg))
        run_fail(w->run, "interrupted");
}

/* Takes the next program of the grid for w (blockIdx set, x fastest);
 * false when none is left or the run failed. */
static bool next_program(Worker *w) {
    Run *run = w->run;
    if (atomic_load_explicit(&run->failed, memory_order_relaxed))
        return false;
    unsigned long long pid = w->chunk_next;
    if (pid >= w->chunk_end) {
        pid = atomic_fetch_add(&run->next_program, run->chunk);
        if (pid >= run->nprograms)
            return false;
        w->chunk_end = pid + run->chunk < run->nprograms ? pid + run->chunk : run->nprograms;
    }
    w->chunk_next = pid + 1;
    w->spins = 0;
    w->aborted = false;
    unsigned long long gx = w->view.grid_dim.x, gy = w->view.grid_dim.y;
    w->view.block_idx.x = (unsigned)(pid % gx);
    w->view.block_idx.y = (unsigned)((pid / gx) % gy);
    w->view.block_idx.z = (unsigned)(pid / (gx * gy));
    return true;
}

/* w's share of run: programs until none is left or the run failed. */
static void worker_work(Worker *w, Run *run) {
    w->run = run;
    w->view.block_dim = (mt_uint3){run->threads, 1, 1};
    w->view.grid_dim = run->grid;
    w->view.ops = run->waits ? &scheduler_ops : &straight_ops;
    w->view.worker = w;
    w->view.extents = run->extents;
    w->view.nextents = run->nextents;
    w->nfibers = run->threads;
    w->chunk_next = w->chunk_end = 0;
    char msg[256];
    if (!run->waits) {
        while (next_program(w)) {
            straight_program(w);
            poll_caller(w);
        }
        return;
    }
    if (worker_setup(w, run->threads) != 0) {
        snprintf(msg, sizeof msg, "cannot map %u fiber stacks of %u KiB", run->threads,
                 FIBER_STACK / 1024);
        run_fail(run, msg);
        return;
    }
    mt_uint3 *bi = &w->view.block_idx;
    while (next_program(w)) {
        int rc = worker_program(w);
        if (rc > 0)
            break;
        if (rc != 0) {
            snprintf(msg, sizeof msg,
                     "deadlock in program (%u, %u, %u): threads wait at different "
                     "barriers (a __syncthreads or warp shuffle not reached by every "
                     "thread)",
                     bi->x, bi->y, bi->z);
            run_fail(run, msg);
            break;
        }
        poll_caller(w);
    }
}

static unsigned worker_count(unsigned long long nprograms) {
    unsigned n = 1;
#if defined(__linux__)
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = (unsigned)CPU_COUNT(&set);
#else
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    n = c > 0 ? (unsigned)c : 1;
#endif
    const char *env = getenv("MYTRITON_HOST_WORKERS");
    if (env && *env) {
        long v = strtol(env, NULL, 10);
        if (v >= 1 && v <= 1024)
            n = (unsigned)v;
    }
    if (n < 1)
        n = 1;
    if (n > MAX_WORKERS)
        n = MAX_WORKERS;
    if ((unsigned long long)n > nprograms)
        n = (unsigned)nprograms;
    return n;
}

/* Starts a thread with the asynchronous signals blocked: a Ctrl-C goes to
 * a thread that can act on it (Python's main thread), never to a worker. */
static bool start_thread(pthread_t *tid, void *(*fn)(void *), void *arg) {
    sigset_t all, old;
    sigfillset(&all);
    static const int sync_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT};
    for (size_t i = 0; i < sizeof sync_signals / sizeof sync_signals[0]; i++)
        sigdelset(&all, sync_signals[i]);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_t attr;
    bool ok = pthread_attr_init(&attr) == 0;
    if (ok && pthread_attr_setstacksize(&attr, 256 * 1024) == 0)
        ok = pthread_create(tid, &attr, fn, arg) == 0;
    else
        ok = false;
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return ok;
}

/* A worker started for one run by spinning programs: it ends with it. */
static void *extra_main(void *p) {
    Worker *w = p;
    worker_work(w, w->run);
    worker_release(w);
    return NULL;
}

/* One more worker for the programs not started yet, when there are any;
 * without one a program spinning for a later program would wait forever.
 * (A failure to start one only leaves the spinning as it is.) */
static void add_worker(Run *run) {
    pthread_mutex_lock(&run->grow_lock);
    if (run->nworkers + run->nextra < MAX_WORKERS &&
        atomic_load(&run->next_program) < run->nprograms) {
        Worker *w = calloc(1, sizeof *w);
        if (w) {
            w->run = run;
            if (start_thread(&w->tid, extra_main, w)) {
                run->extra[run->nextra++] = w;
                w = NULL;
            }
        }
        free(w);
    }
    pthread_mutex_unlock(&run->grow_lock);
}

static void spin_wait(Worker *w) {
    sched_yield();
    if (++w->spins % SPIN_LIMIT == 0)
        add_worker(w->run);
}

/* Joins the workers spinning programs started; one may start another until
 * it is joined, so the count is read again after every join. */
static void join_extra(Run *run) {
    for (unsigned i = 0;; i++) {
        pthread_mutex_lock(&run->grow_lock);
        Worker *w = i < run->nextra ? run->extra[i] : NULL;
        pthread_mutex_unlock(&run->grow_lock);
        if (!w)
            return;
        pthread_join(w->tid, NULL);
        free(w);
    }
}

/* ---- the persistent pool ---- */

/* A pool worker: sleeps until a job is posted, joins it while it is open
 * and has room, works its share, leaves.  The job's Run lives on the
 * launching thread's stack: it is reached only under rt->lock and only
 * while posted, and the launcher waits for every member to leave. */
static void *pool_main(void *p) {
    Worker *w = p;
    FiberRuntime *rt = w->rt;
    unsigned long long seen = 0;
    pthread_mutex_lock(&rt->lock);
    for (;;) {
        while (!rt->stopping &&
               (!rt->job || rt->job_seq == seen || rt->job->members >= rt->job->max_members))
            pthread_cond_wait(&rt->work_cv, &rt->lock);
        if (rt->stopping)
            break;
        seen = rt->job_seq;
        Run *run = rt->job;
        run->members++;
        pthread_mutex_unlock(&rt->lock);
        worker_work(w, run);
        pthread_mutex_lock(&rt->lock);
        if (--run->members == 0)
            pthread_cond_broadcast(&rt->done_cv);
    }
    pthread_mutex_unlock(&rt->lock);
    worker_release(w);
    return NULL;
}

#if defined(__linux__)
static bool pin_worker(Worker *w, int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return pthread_setaffinity_np(w->tid, sizeof one, &one) == 0;
}

/* Pins pool[i] to the (i+1)-th CPU this process may use when the pool has
 * exactly one worker per CPU but one; otherwise (workers asked for by
 * MYTRITON_HOST_WORKERS, a failed call) the pool stays unpinned. */
static void pool_pin(FiberRuntime *rt) {
    cpu_set_t set;
    if (rt->npool == 0 || sched_getaffinity(0, sizeof set, &set) != 0 ||
        (unsigned)CPU_COUNT(&set) != rt->npool + 1)
        return;
    int cpus[MAX_WORKERS + 1], ncpus = 0;
    for (int c = 0; c < CPU_SETSIZE && ncpus <= (int)rt->npool; c++)
        if (CPU_ISSET(c, &set))
            cpus[ncpus++] = c;
    for (unsigned i = 0; i < rt->npool; i++) {
        if (!pin_worker(rt->pool[i], cpus[i + 1])) {
            for (unsigned j = 0; j < i; j++)
                pthread_setaffinity_np(rt->pool[j]->tid, sizeof set, &set);
            return;
        }
        rt->cpu_of[i] = cpus[i + 1];
    }
    rt->free_cpu = cpus[0];
    rt->placed = true;
}

/* Before a job is posted (under rt->lock): the worker pinned to the
 * launching thread's CPU, if any, moves to the free one. */
static void pool_place(FiberRuntime *rt) {
    int here = rt->placed ? sched_getcpu() : -1;
    if (here < 0 || here == rt->free_cpu)
        return;
    for (unsigned i = 0; i < rt->npool; i++)
        if (rt->cpu_of[i] == here) {
            if (pin_worker(rt->pool[i], rt->free_cpu)) {
                rt->cpu_of[i] = rt->free_cpu;
                rt->free_cpu = here;
            }
            return;
        }
}
#else
static void pool_pin(FiberRuntime *rt) { (void)rt; }
static void pool_place(FiberRuntime *rt) { (void)rt; }
#endif

/* Starts the pool once, with one worker fewer than the CPUs (the
 * launching thread is the other); under rt->lock.  A thread that cannot
 * be started only makes the pool smaller. */
static void pool_start(FiberRuntime *rt) {
    rt->pool_started = true;
    unsigned n = worker_count(~0ull);
    for (unsigned i = 0; i + 1 < n; i++) {
        Worker *w = calloc(1, sizeof *w);
        if (!w)
            break;
        w->rt = rt;
        if (!start_thread(&w->tid, pool_main, w)) {
            free(w);
            break;
        }
        rt->pool[rt->npool++] = w;
    }
    pool_pin(rt);
}

/* Offers run to the pool when it is free; true when posted. */
static bool pool_post(FiberRuntime *rt, Run *run, unsigned helpers) {
    if (helpers == 0)
        return false;
    pthread_mutex_lock(&rt->lock);
    if (!rt->pool_started)
        pool_start(rt);
    bool posted = !rt->job && rt->npool > 0;
    if (posted) {
        pool_place(rt);
        run->members = 0;
        run->max_members = helpers;
        rt->job = run;
        rt->job_seq++;
        pthread_cond_broadcast(&rt->work_cv);
    }
    pthread_mutex_unlock(&rt->lock);
    return posted;
}

/* Closes the posted run to newcomers and waits for its members to leave,
 * polling the caller meanwhile (a member may run a long program). */
static void pool_retire(FiberRuntime *rt, Worker *caller, Run *run) {
    pthread_mutex_lock(&rt->lock);
    rt->job = NULL;
    while (run->members > 0) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 10 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&rt->done_cv, &rt->lock, &until);
        if (run->members > 0 && !atomic_load(&run->failed)) {
            pthread_mutex_unlock(&rt->lock);
            poll_caller(caller);
            pthread_mutex_lock(&rt->lock);
        }
    }
    pthread_mutex_unlock(&rt->lock);
}

/* ---- the runtime ---- */

/* A launching thread's Worker, freed when the thread exits. */
static void caller_exit(void *p) {
    Worker *w = p;
    FiberRuntime *rt = w->rt;
    pthread_mutex_lock(&rt->lock);
    if (w->prev)
        w->prev->next = w->next;
    else
        rt->callers = w->next;
    if (w->next)
        w->next->prev = w->prev;
    pthread_mutex_unlock(&rt->lock);
    worker_release(w);
    free(w);
}

static Worker *caller_worker(FiberRuntime *rt) {
    Worker *w = pthread_getspecific(rt->key);
    if (w)
        return w;
    w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->rt = rt;
    w->is_caller = true;
    if (pthread_setspecific(rt->key, w) != 0) {
        free(w);
        return NULL;
    }
    pthread_mutex_lock(&rt->lock);
    w->next = rt->callers;
    if (w->next)
        w->next->prev = w;
    rt->callers = w;
    pthread_mutex_unlock(&rt->lock);
    return w;
}

FiberRuntime *fiber_runtime_new(void) {
    FiberRuntime *rt = calloc(1, sizeof *rt);
    if (!rt)
        return NULL;
    if (pthread_key_create(&rt->key, caller_exit) != 0) {
        free(rt);
        return NULL;
    }
    pthread_mutex_init(&rt->lock, NULL);
    pthread_cond_init(&rt->work_cv, NULL);
    pthread_cond_init(&rt->done_cv, NULL);
    return rt;
}

/* Stops and joins the pool and frees every thread's stacks.  The caller
 * promises no launch is running on rt; a launching thread still alive
 * loses its record here (the key is deleted, so its exit does not free it
 * again). */
void fiber_runtime_free(FiberRuntime *rt) {
    if (!rt)
        return;
    pthread_mutex_lock(&rt->lock);
    rt->stopping = true;
    pthread_cond_broadcast(&rt->work_cv);
    pthread_mutex_unlock(&rt->lock);
    for (unsigned i = 0; i < rt->npool; i++) {
        pthread_join(rt->pool[i]->tid, NULL);
        free(rt->pool[i]);
    }
    pthread_key_delete(rt->key);
    for (Worker *w = rt->callers, *next; w; w = next) {
        next = w->next;
        worker_release(w);
        free(w);
    }
    pthread_cond_destroy(&rt->work_cv);
    pthread_cond_destroy(&rt->done_cv);
    pthread_mutex_destroy(&rt->lock);
    free(rt);
}

unsigned fiber_thread_stacks(FiberRuntime *rt) {
    Worker *w = rt ? pthread_getspecific(rt->key) : NULL;
    return w ? w->stack_cap : 0;
}

int fiber_run(FiberRuntime *rt, mt_host_entry_fn *entry, void **args, const uint32_t grid[3],
              unsigned threads, bool waits, const mt_host_extent *extents, unsigned nextents,
              const FiberPoll *poll, char *err, size_t errlen) {
    return fiber_run_chunked(rt, entry, args, grid, threads, waits, false, extents, nextents,
                             poll, err, errlen);
}

int fiber_run_chunked(FiberRuntime *rt, mt_host_entry_fn *entry, void **args,
                      const uint32_t grid[3], unsigned threads, bool waits, bool chunked,
                      const mt_host_extent *extents, unsigned nextents,
                      const FiberPoll *poll, char *err, size_t errlen) {
    if (err && errlen)
        err[0] = 0;
    if (threads < 1 || threads > MT_MAX_THREADS || grid[0] < 1 || grid[1] < 1 ||
        grid[2] < 1) {
        if (err && errlen)
            snprintf(err, errlen, "bad launch shape: grid (%u, %u, %u), %u threads", grid[0],
                     grid[1], grid[2], threads);
        return -1;
    }
    Worker *caller = rt ? caller_worker(rt) : NULL;
    if (!caller) {
        if (err && errlen)
            snprintf(err, errlen, "out of memory for the host worker");
        return -1;
    }
    Run run;
    memset(&run, 0, sizeof run);
    run.entry = entry;
    run.waits = waits;
    run.args = args;
    run.extents = extents;
    run.nextents = extents ? nextents : 0;
    run.nprograms = (unsigned long long)grid[0] * grid[1] * grid[2];
    atomic_init(&run.next_program, 0);
    atomic_init(&run.failed, 0);
    pthread_mutex_init(&run.err_lock, NULL);
    pthread_mutex_init(&run.grow_lock, NULL);
    run.threads = threads;
    run.grid = (mt_uint3){grid[0], grid[1], grid[2]};
    unsigned helpers = worker_count(run.nprograms) - 1;
    /* a few chunks per worker: one atomic per chunk, and the last chunks
     * small enough that the workers end together */
    run.chunk = 1;
    if (chunked && !waits) {
        unsigned long long c = run.nprograms / (8ull * (helpers + 1));
        run.chunk = c < 1 ? 1 : c > 64 ? 64 : c;
    }
    bool posted = pool_post(rt, &run, helpers);
    run.nworkers = 1 + (posted ? helpers : 0);
    caller->poll = poll;
    worker_work(caller, &run);
    if (posted)
        pool_retire(rt, caller, &run);
    join_extra(&run);
    caller->poll = NULL;
    int result = atomic_load(&run.failed) ? -run.kind : 0;
    if (result != 0 && err && errlen)
        snprintf(err, errlen, "%s", run.err);
    pthread_mutex_destroy(&run.err_lock);
    pthread_mutex_destroy(&run.grow_lock);
    return result;
}
