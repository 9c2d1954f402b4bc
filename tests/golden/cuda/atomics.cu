static __device__ __forceinline__ int mt_atomic_add_i32_acq_rel_gpu(int *p, int v) {
#if defined(__CUDA_ARCH__)
    unsigned mt_v = (unsigned)v, mt_r;
    asm volatile("atom.global.gpu.acq_rel.add.u32 %0, [%1], %2;" : "=r"(mt_r) : "l"(p), "r"(mt_v) : "memory");
    return (int)mt_r;
#else
    return mt_host_atomic_update(p, [v](int x) -> int { return (int)((unsigned)x + (unsigned)v); });
#endif
}
static __device__ __forceinline__ void mt_atomic_host_sync() {
#if !defined(__CUDA_ARCH__)
    __syncthreads();
#endif
}
static __device__ __forceinline__ unsigned short mt_atomic_add_f16_acq_rel_gpu(unsigned short *p, unsigned short v) {
#if defined(__CUDA_ARCH__)
    unsigned short mt_v = (unsigned short)v, mt_r;
    asm volatile("atom.global.gpu.acq_rel.add.noftz.f16 %0, [%1], %2;" : "=h"(mt_r) : "l"(p), "h"(mt_v) : "memory");
    return mt_r;
#else
    return mt_host_atomic_update(p, [v](unsigned short x) -> unsigned short { return mt_f64_to_f16((double)mt_f16_to_f32(x) + (double)mt_f16_to_f32(v)); });
#endif
}
static __device__ __forceinline__ unsigned short mt_atomic_add_bf16_relaxed_gpu(unsigned short *p, unsigned short v) {
#if defined(__CUDA_ARCH__)
    unsigned short mt_v = (unsigned short)v, mt_r;
    asm volatile("atom.global.gpu.relaxed.add.noftz.bf16 %0, [%1], %2;" : "=h"(mt_r) : "l"(p), "h"(mt_v) : "memory");
    return mt_r;
#else
    return mt_host_atomic_update(p, [v](unsigned short x) -> unsigned short { return mt_f64_to_bf16((double)mt_bf16_to_f32(x) + (double)mt_bf16_to_f32(v)); });
#endif
}
static __device__ __forceinline__ float mt_atomic_max_f32_acq_rel_gpu(float *p, float v) {
#if defined(__CUDA_ARCH__)
    unsigned mt_v = __float_as_uint(v), mt_r;
    if (mt_v >> 31)
        asm volatile("atom.global.gpu.acq_rel.min.u32 %0, [%1], %2;" : "=r"(mt_r) : "l"(p), "r"(mt_v) : "memory");
    else
        asm volatile("atom.global.gpu.acq_rel.max.s32 %0, [%1], %2;" : "=r"(mt_r) : "l"(p), "r"(mt_v) : "memory");
    return __uint_as_float(mt_r);
#else
    return mt_host_atomic_update(p, [v](float x) -> float { return (__float_as_uint(v) >> 31 ? (__float_as_uint(v) < __float_as_uint(x) ? v : x) : ((int)__float_as_uint(v) > (int)__float_as_uint(x) ? v : x)); });
#endif
}
static __device__ __forceinline__ unsigned mt_atomic_min_u32_acq_rel_cta(unsigned *p, unsigned v) {
#if defined(__CUDA_ARCH__)
    unsigned mt_v = (unsigned)v, mt_r;
    asm volatile("atom.global.cta.acq_rel.min.u32 %0, [%1], %2;" : "=r"(mt_r) : "l"(p), "r"(mt_v) : "memory");
    return mt_r;
#else
    return mt_host_atomic_update(p, [v](unsigned x) -> unsigned { return (v < x ? v : x); });
#endif
}
static __device__ __forceinline__ long long mt_atomic_and_i64_acquire_sys(long long *p, long long v) {
#if defined(__CUDA_ARCH__)
    unsigned long long mt_v = (unsigned long long)v, mt_r;
    asm volatile("atom.global.sys.acquire.and.b64 %0, [%1], %2;" : "=l"(mt_r) : "l"(p), "l"(mt_v) : "memory");
    return (long long)mt_r;
#else
    return mt_host_atomic_update(p, [v](long long x) -> long long { return x & v; });
#endif
}
static __device__ __forceinline__ long long mt_atomic_or_i64_release_gpu(long long *p, long long v) {
#if defined(__CUDA_ARCH__)
    unsigned long long mt_v = (unsigned long long)v, mt_r;
    asm volatile("atom.global.gpu.release.or.b64 %0, [%1], %2;" : "=l"(mt_r) : "l"(p), "l"(mt_v) : "memory");
    return (long long)mt_r;
#else
    return mt_host_atomic_update(p, [v](long long x) -> long long { return x | v; });
#endif
}
static __device__ __forceinline__ long long mt_atomic_xor_i64_acq_rel_gpu(long long *p, long long v) {
#if defined(__CUDA_ARCH__)
    unsigned long long mt_v = (unsigned long long)v, mt_r;
    asm volatile("atom.global.gpu.acq_rel.xor.b64 %0, [%1], %2;" : "=l"(mt_r) : "l"(p), "l"(mt_v) : "memory");
    return (long long)mt_r;
#else
    return mt_host_atomic_update(p, [v](long long x) -> long long { return x ^ v; });
#endif
}
static __device__ __forceinline__ double mt_atomic_xchg_f64_acq_rel_gpu(double *p, double v) {
#if defined(__CUDA_ARCH__)
    unsigned long long mt_v = (unsigned long long)__double_as_longlong(v), mt_r;
    asm volatile("atom.global.gpu.acq_rel.exch.b64 %0, [%1], %2;" : "=l"(mt_r) : "l"(p), "l"(mt_v) : "memory");
    return __longlong_as_double((long long)mt_r);
#else
    return mt_host_atomic_update(p, [v](double x) -> double { return v; });
#endif
}
static __device__ __forceinline__ short mt_atomic_cas_i16_acq_rel_gpu(short *p, short cmp, short v) {
#if defined(__CUDA_ARCH__)
    unsigned short mt_c = (unsigned short)cmp, mt_v = (unsigned short)v, mt_r;
    asm volatile("atom.global.acq_rel.gpu.cas.b16 %0, [%1], %2, %3;" : "=h"(mt_r) : "l"(p), "h"(mt_c), "h"(mt_v) : "memory");
    return (short)mt_r;
#else
    return mt_host_atomic_cas(p, cmp, v);
#endif
}
static __device__ __forceinline__ float mt_atomic_cas_f32_acq_rel_gpu(float *p, float cmp, float v) {
#if defined(__CUDA_ARCH__)
    unsigned mt_c = __float_as_uint(cmp), mt_v = __float_as_uint(v), mt_r;
    asm volatile("atom.global.acq_rel.gpu.cas.b32 %0, [%1], %2, %3;" : "=r"(mt_r) : "l"(p), "r"(mt_c), "r"(mt_v) : "memory");
    return __uint_as_float(mt_r);
#else
    return mt_host_atomic_cas(p, cmp, v);
#endif
}
extern "C" __global__ void __launch_bounds__(128) atomics_kernel(int* counter, unsigned short* h, unsigned short* b, float* f, unsigned* u, long long* q, double* d, short* s, float* c) {
    __shared__ __align__(16) long long mt_smem[16];
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    int mt_l0_0 = mt_lane % 32;
    int mt_w0_0 = mt_warp % 4;
    int mt_b0_0 = (mt_w0_0 * 32 + mt_l0_0) * 1;
#line 7 "tests/golden/cuda/kernels/atomics.py"
    int v10[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v10[mt_e] = (mt_b0_0 & 15);
#line 8 "tests/golden/cuda/kernels/atomics.py"
    mt_atomic_host_sync();
    if (threadIdx.x == 0) ((int*)mt_smem)[0] = mt_atomic_add_i32_acq_rel_gpu(counter, 1);
    __syncthreads();
    int v12 = ((int*)mt_smem)[0];
    __syncthreads();
#line 9 "tests/golden/cuda/kernels/atomics.py"
    unsigned short* v13[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v13[mt_e] = (h + v10[0]);
    unsigned short v15[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v15[mt_e] = (*v13[0]);
    bool v16[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v16[mt_e] = (v10[0] < v12);
    mt_atomic_host_sync();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16 && v16[0]) mt_atomic_add_f16_acq_rel_gpu(v13[0], v15[0]);
    mt_atomic_host_sync();
#line 10 "tests/golden/cuda/kernels/atomics.py"
    unsigned short* v18[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v18[mt_e] = (b + v10[0]);
    unsigned short v20[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v20[mt_e] = (*v18[0]);
    mt_atomic_host_sync();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) mt_atomic_add_bf16_relaxed_gpu(v18[0], v20[0]);
    mt_atomic_host_sync();
#line 11 "tests/golden/cuda/kernels/atomics.py"
    float* v22[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v22[mt_e] = (f + v10[0]);
    float v25[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v25[mt_e] = (*v22[0]);
    mt_atomic_host_sync();
    float v26[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v26[mt_e] = (mt_b0_0 < 16) ? mt_atomic_max_f32_acq_rel_gpu(v22[0], v25[0]) : 0.0f;
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) ((float*)mt_smem)[(mt_b0_0 & 15)] = v26[mt_e];
    __syncthreads();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v26[mt_e] = ((float*)mt_smem)[(mt_b0_0 & 15)];
    __syncthreads();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) *v22[mt_e] = v26[0];
#line 12 "tests/golden/cuda/kernels/atomics.py"
    unsigned* v27[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v27[mt_e] = (u + v10[0]);
    unsigned v29[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v29[mt_e] = (*v27[0]);
    mt_atomic_host_sync();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) mt_atomic_min_u32_acq_rel_cta(v27[0], v29[0]);
    mt_atomic_host_sync();
#line 13 "tests/golden/cuda/kernels/atomics.py"
    long long* v31[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v31[mt_e] = (q + v10[0]);
    mt_atomic_host_sync();
    long long v34[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v34[mt_e] = (mt_b0_0 < 16) ? mt_atomic_and_i64_acquire_sys(v31[0], 12LL) : 0LL;
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) ((long long*)mt_smem)[(mt_b0_0 & 15)] = v34[mt_e];
    __syncthreads();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v34[mt_e] = ((long long*)mt_smem)[(mt_b0_0 & 15)];
    __syncthreads();
#line 14 "tests/golden/cuda/kernels/atomics.py"
    mt_atomic_host_sync();
    long long v36[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v36[mt_e] = (mt_b0_0 < 16) ? mt_atomic_or_i64_release_gpu(v31[0], v34[0]) : 0LL;
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) ((long long*)mt_smem)[(mt_b0_0 & 15)] = v36[mt_e];
    __syncthreads();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v36[mt_e] = ((long long*)mt_smem)[(mt_b0_0 & 15)];
    __syncthreads();
#line 15 "tests/golden/cuda/kernels/atomics.py"
    mt_atomic_host_sync();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) mt_atomic_xor_i64_acq_rel_gpu(v31[0], v36[0]);
    mt_atomic_host_sync();
#line 16 "tests/golden/cuda/kernels/atomics.py"
    double* v39[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v39[mt_e] = (d + v10[0]);
    mt_atomic_host_sync();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) mt_atomic_xchg_f64_acq_rel_gpu(v39[0], __longlong_as_double(4609434218613702656LL));
    mt_atomic_host_sync();
#line 17 "tests/golden/cuda/kernels/atomics.py"
    short* v43[1];
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        v43[mt_e] = (s + v10[0]);
    mt_atomic_host_sync();
    #pragma unroll
    for (int mt_e = 0; mt_e < 1; ++mt_e)
        if (mt_b0_0 < 16) mt_atomic_cas_i16_acq_rel_gpu(v43[0], ((short)0), ((short)1));
    mt_atomic_host_sync();
#line 18 "tests/golden/cuda/kernels/atomics.py"
    float* v48 = (c + 1);
    mt_atomic_host_sync();
    if (threadIdx.x == 0) ((float*)mt_smem)[0] = mt_atomic_cas_f32_acq_rel_gpu(v48, 2.0f, 3.0f);
    __syncthreads();
    float v51 = ((float*)mt_smem)[0];
    __syncthreads();
    if (threadIdx.x == 0) *c = v51;
}
