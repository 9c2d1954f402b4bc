/* mt_host.h: the CUDA surface of mytriton's host backend, and its
 * contract with the library's scheduler.
 *
 * Input: the CUDA C that cuda.c emits (the text NVRTC compiles for the
 * GPU), included after this header in one C++17 translation unit, plus a
 * trampoline mt_host_entry (host.c writes it) that calls the kernel.
 * Output: a shared object the library's scheduler (fiber.c) runs: a few
 * worker threads, each CUDA thread of a program a fiber.  The scheduler is
 * in the library, once; this header only gives kernels the names they use.
 *
 * The contract (the C part below, which the library includes too):
 *   - mt_host_entry has the type mt_host_entry_fn; it is called once per
 *     CUDA thread of every program, on that thread's fiber, with the
 *     worker's mt_host_thread, which it stores for the kernel to read;
 *   - the scheduler fills in block_idx, block_dim and grid_dim before a
 *     program starts, and thread_idx before it resumes a fiber; kernels
 *     only read them;
 *   - a kernel waits only through ops (__syncthreads, __shfl_xor_sync),
 *     which switch to other fibers of the same worker, never to another
 *     OS thread; a failed atomic compare-and-swap calls `spin`, which lets
 *     the other fibers, threads and programs run.
 * Invariants of the CUDA surface:
 *   - __shared__ is `static thread_local`: a worker runs one program at a
 *     time and its fibers never move to another OS thread, so its copy is
 *     seen by exactly the threads of one program, like shared memory, and
 *     programs of different workers never share;
 *   - the vector types float2, float4, int2, int4, uint2, uint4,
 *     longlong2, ulonglong2, double2 (with their make_ functions) have
 *     CUDA's size and alignment and may alias their
 *     scalar element type, so `*(float4*)p` over a float array (what the
 *     emitter writes for 64/128-bit accesses) means here what it means on
 *     the GPU.
 * CUDA names provided: __global__ __device__ __host__ __forceinline__
 * __noinline__ __launch_bounds__ __shared__ __align__ __restrict__ blockIdx
 * threadIdx blockDim gridDim dim3 __syncthreads __shfl_xor_sync __int_as_float
 * __float_as_int __uint_as_float __float_as_uint __longlong_as_double
 * __double_as_longlong float2 float4 int2 int4 uint2 uint4 longlong2
 * ulonglong2 double2 and their make_ functions, the cache-hinted accesses
 * __ldca __ldcg __ldcs __ldcv __stwb __stcg __stcs __stwt (plain accesses),
 * printf (the C library's) and __assertfail (the scheduler stops the
 * program and fails the launch with the assertion's text), checked mode's
 * mt_check_access, mt_check_div and mt_check_index (cuda_check.c writes
 * the calls; a failure stops the program the same way, with a located
 * message, through mt_host_ops.check),
 * plus <cmath>'s expf logf sqrtf fabsf
 * fmaxf fminf floorf fmodf isnan isinf; for the atomics' helpers
 * (cuda_atomic.c) mt_host_atomic_update and mt_host_atomic_cas.
 * This file is embedded in the library as a string (tools/embed.sh) and
 * written next to each kernel it compiles, so it is self-contained. */
#ifndef MT_HOST_H
#define MT_HOST_H

/* ---- the contract with the scheduler (C and C++) ---- */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mt_uint3 {
    unsigned x, y, z;
} mt_uint3;

/* What a kernel asks of the scheduler; worker is mt_host_thread.worker. */
typedef struct mt_host_ops {
    void (*syncthreads)(void *worker);
    /* value of lane (lane ^ lane_mask) within segments of width lanes */
    unsigned long long (*shfl_xor)(void *worker, unsigned long long value,
                                   int lane_mask, int width);
    /* a compare-and-swap failed: the thread may spin on a lock another
     * thread or program holds, so let the others run */
    void (*spin)(void *worker);
    /* a device assertion failed (tl.device_assert in debug mode): the
     * launch fails with the assertion's text; the program's threads stop
     * here and never run again (it does not return) */
    void (*fail)(void *worker, const char *msg, const char *file, unsigned line,
                 const char *function);
    /* checked mode found an invalid access, a division by zero or an
     * index overflow (msg: the whole located error); like fail, the
     * program's threads stop here and the launch fails with msg */
    void (*check)(void *worker, const char *msg);
    /* the cpu backend (issue 18): the worker's scratch memory of at least
     * bytes (64-byte aligned), where a program keeps its tiles; kept for
     * the worker's next program, NULL when out of memory */
    void *(*scratch)(void *worker, unsigned long long bytes);
} mt_host_ops;

/* The bytes [lo, hi) a pointer argument may access (checked mode); lo ==
 * hi == 0: not known, not checked. */
typedef struct mt_host_extent {
    unsigned long long lo, hi;
} mt_host_extent;

/* One per worker thread: what the kernel reads as blockIdx & co. */
typedef struct mt_host_thread {
    mt_uint3 block_idx, thread_idx, block_dim, grid_dim;
    const mt_host_ops *ops;
    void *worker;
    /* checked mode: one extent per runtime parameter (NULL: the launch
     * gave none, so loads and stores are not bounds-checked) */
    const mt_host_extent *extents;
    unsigned nextents;
} mt_host_thread;

/* The entry point every kernel object defines (host.c writes it), and the
 * type the scheduler calls it by: one declaration for both sides. */
typedef void mt_host_entry_fn(void **args, mt_host_thread *self);
mt_host_entry_fn mt_host_entry;

#ifdef __cplusplus
}
#endif

/* ---- the CUDA surface (C++ only) ---- */

#ifdef __cplusplus

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <math.h>

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

typedef mt_uint3 dim3;

/* the worker running this OS thread's fibers (set by mt_host_entry) */
static thread_local mt_host_thread *mt_host_self;
#define blockIdx (mt_host_self->block_idx)
#define threadIdx (mt_host_self->thread_idx)
#define blockDim (mt_host_self->block_dim)
#define gridDim (mt_host_self->grid_dim)

/* the bits of one type as another (memcpy: no aliasing questions) */
template <typename To, typename From>
static inline To mt_host_bitcast(From v) {
    static_assert(sizeof(To) == sizeof(From), "bit cast between sizes");
    To out;
    std::memcpy(&out, &v, sizeof out);
    return out;
}
static inline float __int_as_float(int v) { return mt_host_bitcast<float>(v); }
static inline int __float_as_int(float f) { return mt_host_bitcast<int>(f); }
static inline float __uint_as_float(unsigned v) { return mt_host_bitcast<float>(v); }
static inline unsigned __float_as_uint(float f) { return mt_host_bitcast<unsigned>(f); }
static inline double __longlong_as_double(long long v) { return mt_host_bitcast<double>(v); }
static inline long long __double_as_longlong(double d) { return mt_host_bitcast<long long>(d); }

/* ---- vector types (layout and alignment as in CUDA's vector_types.h) ---- */

struct __attribute__((may_alias, aligned(8))) float2 { float x, y; };
struct __attribute__((may_alias, aligned(16))) float4 { float x, y, z, w; };
struct __attribute__((may_alias, aligned(8))) int2 { int x, y; };
struct __attribute__((may_alias, aligned(16))) int4 { int x, y, z, w; };
struct __attribute__((may_alias, aligned(16))) longlong2 { long long x, y; };
struct __attribute__((may_alias, aligned(16))) ulonglong2 { unsigned long long x, y; };
struct __attribute__((may_alias, aligned(16))) double2 { double x, y; };
struct __attribute__((may_alias, aligned(8))) uint2 { unsigned x, y; };
struct __attribute__((may_alias, aligned(16))) uint4 { unsigned x, y, z, w; };

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
static inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) {
    return ulonglong2{x, y};
}
static inline double2 make_double2(double x, double y) { return double2{x, y}; }
static inline uint2 make_uint2(unsigned x, unsigned y) { return uint2{x, y}; }
static inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) {
    return uint4{x, y, z, w};
}

/* ---- cache hints (tl.load/tl.store's cache_modifier, eviction_policy):
 * the host has one level of memory, so each is the plain access ---- */

#define MT_HOST_LOAD_HINT(name) \
    template <typename T> static inline T name(const T *p) { return *p; }
MT_HOST_LOAD_HINT(__ldca)
MT_HOST_LOAD_HINT(__ldcg)
MT_HOST_LOAD_HINT(__ldcs)
MT_HOST_LOAD_HINT(__ldcv)
#define MT_HOST_STORE_HINT(name) \
    template <typename T, typename V> static inline void name(T *p, V v) { *p = (T)v; }
MT_HOST_STORE_HINT(__stwb)
MT_HOST_STORE_HINT(__stcg)
MT_HOST_STORE_HINT(__stcs)
MT_HOST_STORE_HINT(__stwt)
#undef MT_HOST_LOAD_HINT
#undef MT_HOST_STORE_HINT

/* ---- waiting: through the scheduler ---- */

#define MT_HOST_WARP 32

static inline void __syncthreads() {
    mt_host_self->ops->syncthreads(mt_host_self->worker);
}

/* tl.device_assert (cuda_debug.c): CUDA's __assertfail, through the
 * scheduler, which stops the program and reports the assertion */
static inline void __assertfail(const char *msg, const char *file, unsigned line,
                                const char *function, size_t charsize) {
    (void)charsize;
    mt_host_self->ops->fail(mt_host_self->worker, msg, file, line, function);
}

template <typename T>
static inline T __shfl_xor_sync(unsigned mask, T value, int lane_mask,
                                int width = MT_HOST_WARP) {
    static_assert(sizeof(T) <= sizeof(unsigned long long), "shuffle of a wide type");
    (void)mask;
    unsigned long long slot = 0;
    std::memcpy(&slot, &value, sizeof(T));
    slot = mt_host_self->ops->shfl_xor(mt_host_self->worker, slot, lane_mask, width);
    T out;
    std::memcpy(&out, &slot, sizeof(T));
    return out;
}

/* ---- checked mode (cuda_check.c emits the calls) ---- */

/* The located error of a failed check: the launch fails with it and the
 * program's threads stop (the op never returns). */
static inline void mt_check_report(const char *file, unsigned line, unsigned col,
                                   const char *kernel, const char *what, const char *detail) {
    const mt_host_thread *t = mt_host_self;
    char msg[768];
    std::snprintf(msg, sizeof msg, "%s:%u:%u: error: %s in kernel '%s', program (%u, %u, %u): %s",
                  file, line, col, what, kernel, t->block_idx.x, t->block_idx.y,
                  t->block_idx.z, detail);
    t->ops->check(t->worker, msg);
}

/* An access of `bytes` at p through a pointer based on runtime parameter
 * `param` (whose value is base; -1: a pointer of unknown origin, which
 * must lie inside some argument's extent). */
static inline void mt_check_access(const void *p, unsigned bytes, int param, const void *base,
                                   const char *pname, const char *kind, const char *file,
                                   unsigned line, unsigned col, const char *kernel) {
    const mt_host_thread *t = mt_host_self;
    if (!t->extents)
        return;
    unsigned long long a = (unsigned long long)(uintptr_t)p;
    char what[32], detail[384];
    std::snprintf(what, sizeof what, "out-of-bounds %s", kind);
    if (param >= 0) {
        if ((unsigned)param >= t->nextents)
            return;
        const mt_host_extent x = t->extents[param];
        if (x.lo == 0 && x.hi == 0)
            return;
        if (a >= x.lo && a <= x.hi && x.hi - a >= bytes)
            return;
        long long b = (long long)(uintptr_t)base, s = (long long)bytes;
        long long off = ((long long)a - b) / s;
        long long first = ((long long)x.lo - b) / s, last = ((long long)x.hi - b) / s - 1;
        std::snprintf(detail, sizeof detail,
                      "element offset %lld of argument '%s' (valid %lld..%lld)", off, pname,
                      first, last);
    } else {
        bool known = false;
        for (unsigned i = 0; i < t->nextents; i++) {
            const mt_host_extent x = t->extents[i];
            if (x.lo == 0 && x.hi == 0)
                continue;
            known = true;
            if (a >= x.lo && a <= x.hi && x.hi - a >= bytes)
                return;
        }
        if (!known)
            return;
        std::snprintf(detail, sizeof detail,
                      "address %p is inside no tensor argument (the pointer derives from "
                      "several)",
                      p);
    }
    mt_check_report(file, line, col, kernel, what, detail);
}

/* An integer // or % by zero, at element `index` of its block (-1: a
 * scalar). */
template <typename T>
static inline void mt_check_div(T divisor, long long index, const char *op, const char *file,
                                unsigned line, unsigned col, const char *kernel) {
    if (divisor != 0)
        return;
    char detail[160];
    if (index < 0)
        std::snprintf(detail, sizeof detail, "'%s' by 0", op);
    else
        std::snprintf(detail, sizeof detail, "'%s' by 0 at element %lld", op, index);
    mt_check_report(file, line, col, kernel, "integer division by zero", detail);
}

/* Signed 32-bit overflow of index arithmetic: a + b, a - b or a * b
 * (op '+', '-', '*') that feeds a pointer offset. */
static inline void mt_check_index(long long a, long long b, char op, long long index,
                                  const char *file, unsigned line, unsigned col,
                                  const char *kernel) {
    long long r = op == '+' ? a + b : op == '-' ? a - b : a * b; /* |a|, |b| < 2^31 */
    if (r >= -2147483647LL - 1 && r <= 2147483647LL)
        return;
    char detail[160];
    int n = std::snprintf(detail, sizeof detail, "%lld %c %lld = %lld", a, op, b, r);
    if (index >= 0 && n > 0 && (size_t)n < sizeof detail)
        std::snprintf(detail + n, sizeof detail - (size_t)n, " at element %lld", index);
    mt_check_report(file, line, col, kernel, "i32 overflow in index arithmetic", detail);
}

/* A tl.gather index outside [0, n) (Triton leaves it undefined; the
 * unchecked text wraps it into the dim), at element `index` of the
 * result. */
static inline void mt_check_gather(long long value, bool is_unsigned, long long n,
                                   long long index, const char *file, unsigned line,
                                   unsigned col, const char *kernel) {
    if (is_unsigned ? (unsigned long long)value < (unsigned long long)n
                    : value >= 0 && value < n)
        return;
    char detail[160];
    if (is_unsigned)
        std::snprintf(detail, sizeof detail, "index %llu at element %lld, valid 0..%lld",
                      (unsigned long long)value, index, n - 1);
    else
        std::snprintf(detail, sizeof detail, "index %lld at element %lld, valid 0..%lld", value,
                      index, n - 1);
    mt_check_report(file, line, col, kernel, "gather index out of range", detail);
}

/* ---- atomics: what cuda_atomic.c's helpers do on the host ---- */

/* The old value at p after *p = f(*p), atomically for every worker
 * thread: a compare-and-swap loop on the element's bytes, sequentially
 * consistent (at least what any sem= and scope= ask). */
template <typename T, typename F>
static inline T mt_host_atomic_update(T *p, F f) {
    T old;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    for (;;) {
        T next = f(old);
        if (__atomic_compare_exchange(p, &old, &next, false, __ATOMIC_SEQ_CST,
                                      __ATOMIC_RELAXED))
            return old;
    }
}

/* Triton's atomic_cas: val replaces *p where its bits equal cmp's; the old
 * value.  A failure may be a spin lock's wait: the scheduler runs others. */
template <typename T>
static inline T mt_host_atomic_cas(T *p, T cmp, T val) {
    T old = cmp;
    if (!__atomic_compare_exchange(p, &old, &val, false, __ATOMIC_SEQ_CST,
                                   __ATOMIC_SEQ_CST))
        mt_host_self->ops->spin(mt_host_self->worker);
    return old;
}

#endif /* __cplusplus */
#endif /* MT_HOST_H */
