extern "C" __global__ void __launch_bounds__(128) matmul_kernel(unsigned short* a, unsigned short* b, float* c, int M, int N, int K) {
    __shared__ __align__(1024) long long mt_smem_pool[3072];
    long long *const mt_smem = mt_smem_pool;
    float *const dot_lhs = (float *)((char *)mt_smem_pool + 0);
    float *const dot_rhs = (float *)((char *)mt_smem_pool + 12288);
    unsigned short *const dot_lhs_h = (unsigned short *)dot_lhs;
    unsigned short *const dot_rhs_h = (unsigned short *)dot_rhs;
    int mt_lane = (int)threadIdx.x & 31;
    int mt_warp = (int)threadIdx.x >> 5;
    const unsigned mt_sa_lhs = mt_smem_addr(dot_lhs);
    const unsigned mt_sa_rhs = mt_smem_addr(dot_rhs);
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    const int mt_wg = __shfl_sync(0xffffffffu, (int)threadIdx.x >> 7, 0);
#endif
    int mt_l0_0 = mt_lane / 4;
    int mt_w0_0 = mt_warp / 1;
    int mt_b0_0 = (mt_w0_0 * 8 + mt_l0_0) * 1;
    int mt_l0_1 = mt_lane % 4;
    int mt_w0_1 = mt_warp % 1;
    int mt_b0_1 = (mt_w0_1 * 4 + mt_l0_1) * 8;
    int mt_l1_0 = mt_lane / 4;
    int mt_w1_0 = mt_warp / 1;
    int mt_b1_0 = (mt_w1_0 * 8 + mt_l1_0) * 1;
    int mt_l1_1 = mt_lane % 4;
    int mt_w1_1 = mt_warp % 1;
    int mt_b1_1 = (mt_w1_1 * 4 + mt_l1_1) * 2;
    int mt_l2_0 = mt_lane / 8;
    int mt_w2_0 = mt_warp / 1;
    int mt_b2_0 = (mt_w2_0 * 4 + mt_l2_0) * 1;
    int mt_l2_1 = mt_lane % 8;
    int mt_w2_1 = mt_warp % 1;
    int mt_b2_1 = (mt_w2_1 * 8 + mt_l2_1) * 8;
    int mt_l3_0 = mt_lane / 16;
    int mt_w3_0 = mt_warp / 1;
    int mt_b3_0 = (mt_w3_0 * 2 + mt_l3_0) * 1;
    int mt_l3_1 = mt_lane % 16;
    int mt_w3_1 = mt_warp % 1;
    int mt_b3_1 = (mt_w3_1 * 16 + mt_l3_1) * 4;
#line 11 "tests/golden/cuda/kernels/matmul.py"
    int v7 = (int)blockIdx.x;
#line 12 "tests/golden/cuda/kernels/matmul.py"
    int v8 = (int)blockIdx.y;
#line 13 "tests/golden/cuda/kernels/matmul.py"
    int v10 = ((int)(((unsigned)v7) * ((unsigned)64)));
    int v11[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v11[mt_e] = (mt_b0_0 + mt_e * 32);
    int v12[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v12[mt_e] = ((int)(((unsigned)v10) + ((unsigned)v11[mt_e])));
#line 14 "tests/golden/cuda/kernels/matmul.py"
    int v13 = ((int)(((unsigned)v8) * ((unsigned)64)));
    int v15[2];
    #pragma unroll
    for (int mt_e = 0; mt_e < 2; ++mt_e)
        v15[mt_e] = ((int)(((unsigned)v13) + ((unsigned)v11[mt_e])));
#line 15 "tests/golden/cuda/kernels/matmul.py"
    float v16[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v16[mt_e] = 0.0f;
#line 16 "tests/golden/cuda/kernels/matmul.py"
    float v21[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v21[mt_e] = v16[(mt_e / 16) * 16 + (mt_e % 16)];
    int mt_so0[2];
    #pragma unroll
    for (int mt_g = 0; mt_g < 16; mt_g += 8) {
        const int mt_e = mt_g;
        mt_so0[mt_g / 8] = mt_swz((mt_b0_0 + (mt_e / 8) * 32), (mt_b0_1 + (mt_e % 8)), 64, 32, 2, 4);
    }
    int mt_so1[2];
    #pragma unroll
    for (int mt_g = 0; mt_g < 16; mt_g += 8) {
        const int mt_e = mt_g;
        mt_so1[mt_g / 8] = mt_swz((mt_b2_0 + (mt_e / 8) * 16), (mt_b2_1 + (mt_e % 8)), 32, 64, 2, 0);
    }
    const unsigned mt_trips = 0 < K ? ((unsigned)K - (unsigned)0 - 1u) / (unsigned)32 + 1u : 0u;
    #pragma unroll
    for (int mt_pj = 0; mt_pj < 2; ++mt_pj) {
        if (mt_pj > 0 && (unsigned)mt_pj < mt_trips) {
            const int k_base = (int)((unsigned)0 + (unsigned)(mt_pj - 1) * (unsigned)32);
        }
        if ((unsigned)mt_pj < mt_trips) {
            const int k_base = (int)((unsigned)0 + (unsigned)mt_pj * (unsigned)32);
#line 17 "tests/golden/cuda/kernels/matmul.py"
            int v22[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v22[mt_e] = (mt_b0_1 + mt_e);
            int v23[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v23[mt_e] = ((int)(((unsigned)k_base) + ((unsigned)v22[mt_e])));
#line 18 "tests/golden/cuda/kernels/matmul.py"
            int v25[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v25[mt_e] = ((int)(((unsigned)v12[mt_e]) * ((unsigned)K)));
            unsigned short* v26[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v26[mt_e] = (a + v25[mt_e]);
            unsigned short* v28[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v28[mt_e] = (v26[(mt_e / 8)] + v23[(mt_e % 8)]);
#line 19 "tests/golden/cuda/kernels/matmul.py"
            bool v30[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v30[mt_e] = (v12[mt_e] < M);
            bool v32[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v32[mt_e] = (v23[mt_e] < K);
            bool v33[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v33[mt_e] = (v30[(mt_e / 8)] & v32[(mt_e % 8)]);
#line 20 "tests/golden/cuda/kernels/matmul.py"
            int mt_rc0[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                mt_rc0[mt_e] = (mt_b2_0 + mt_e * 16);
            int mt_rc1[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                mt_rc1[mt_e] = ((int)(((unsigned)k_base) + ((unsigned)mt_rc0[mt_e])));
            int v37[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v37[mt_e] = ((int)(((unsigned)mt_rc1[mt_e]) * ((unsigned)N)));
            unsigned short* v38[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v38[mt_e] = (b + v37[mt_e]);
            int mt_rc2[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                mt_rc2[mt_e] = (mt_b2_1 + mt_e);
            int mt_rc3[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                mt_rc3[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc2[mt_e])));
            unsigned short* v40[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v40[mt_e] = (v38[(mt_e / 8)] + mt_rc3[(mt_e % 8)]);
#line 21 "tests/golden/cuda/kernels/matmul.py"
            bool v42[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v42[mt_e] = (mt_rc1[mt_e] < K);
            bool v44[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v44[mt_e] = (mt_rc3[mt_e] < N);
            bool v45[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v45[mt_e] = (v42[(mt_e / 8)] & v44[(mt_e % 8)]);
            #pragma unroll
            for (int mt_g = 0; mt_g < 16; mt_g += 8) {
                bool mt_all = true;
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                    mt_all = mt_all && v33[(mt_e / 8) * 8 + (mt_e % 8)];
                {
                    const int mt_e = mt_g;
                    mt_all = mt_all && (((unsigned long long)v28[(mt_e / 8) * 8 + (mt_e % 8)]) & 15ull) == 0;
                }
                if (mt_all) {
                    const int mt_e = mt_g;
                    const int mt_s = mt_pj * 2048 + mt_so0[mt_g / 8];
                    mt_cp_async16(&dot_lhs_h[mt_s], mt_sa_lhs + (unsigned)mt_s * 2u, v28[(mt_e / 8) * 8 + (mt_e % 8)], 1);
                } else {
                    const int mt_s = mt_pj * 2048 + mt_so0[mt_g / 8];
                    unsigned short* mt_h;
                    {
                        const int mt_e = mt_g;
                        mt_h = v28[(mt_e / 8) * 8 + (mt_e % 8)];
                    }
                    #pragma unroll
                    for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                        dot_lhs_h[mt_s + (mt_e - mt_g)] = (v33[(mt_e / 8) * 8 + (mt_e % 8)] ? (*(mt_h + (mt_e - mt_g))) : ((unsigned short)0x0));
                }
            }
            #pragma unroll
            for (int mt_g = 0; mt_g < 16; mt_g += 8) {
                bool mt_all = true;
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                    mt_all = mt_all && v45[(mt_e / 8) * 8 + (mt_e % 8)];
                {
                    const int mt_e = mt_g;
                    mt_all = mt_all && (((unsigned long long)v40[(mt_e / 8) * 8 + (mt_e % 8)]) & 15ull) == 0;
                }
                if (mt_all) {
                    const int mt_e = mt_g;
                    const int mt_s = mt_pj * 2048 + mt_so1[mt_g / 8];
                    mt_cp_async16(&dot_rhs_h[mt_s], mt_sa_rhs + (unsigned)mt_s * 2u, v40[(mt_e / 8) * 8 + (mt_e % 8)], 1);
                } else {
                    const int mt_s = mt_pj * 2048 + mt_so1[mt_g / 8];
                    unsigned short* mt_h;
                    {
                        const int mt_e = mt_g;
                        mt_h = v40[(mt_e / 8) * 8 + (mt_e % 8)];
                    }
                    #pragma unroll
                    for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                        dot_rhs_h[mt_s + (mt_e - mt_g)] = (v45[(mt_e / 8) * 8 + (mt_e % 8)] ? (*(mt_h + (mt_e - mt_g))) : ((unsigned short)0x0));
                }
            }
        }
        mt_cp_async_commit();
    }
    int dot_stage = 0;
    for (unsigned mt_t = 0; mt_t < mt_trips; ++mt_t) {
        const int k_base = (int)((unsigned)0 + mt_t * (unsigned)32);
        mt_cp_async_wait_group(1);
        mt_fence_async_smem();
        __syncthreads();
        const bool mt_more = mt_t + 2u < mt_trips;
        const int mt_k_ahead = (int)((unsigned)k_base + 1u * (unsigned)32);
        const int mt_wstage = dot_stage == 0 ? 2 : dot_stage - 1;
#line 25 "tests/golden/cuda/kernels/matmul.py"
        #if defined(__CUDA_ARCH_FEAT_SM90_ALL)
        {
            const unsigned long long mt_da0 = mt_wgmma_desc(mt_sa_lhs + (unsigned)(dot_stage * 2048 + mt_wg * 2048) * 2, 16, 512, 2);
            const unsigned long long mt_db0 = mt_wgmma_desc(mt_sa_rhs + (unsigned)(dot_stage * 2048 + 0) * 2, 4096, 1024, 1);
            mt_wgmma_fence();
            #pragma unroll
            for (int mt_kk = 0; mt_kk < 32; mt_kk += 16) {
                #pragma unroll
                for (int mt_b = 0; mt_b < 1; ++mt_b) {
                    const unsigned long long mt_da = mt_da0 + (unsigned)(((mt_kk / 32) * 2048 + 64 * mt_b * 32 + mt_kk % 32) * 2 / 16);
                    const unsigned long long mt_db = mt_db0 + (unsigned)(mt_kk * 128 / 16);
                    asm volatile("{.reg .pred p; setp.ne.b32 p, %34, 0; wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 1;}"
    : "+f"(v21[(2 * mt_b + 0) * 16 + 0]), "+f"(v21[(2 * mt_b + 0) * 16 + 1]), "+f"(v21[(2 * mt_b + 1) * 16 + 0]), "+f"(v21[(2 * mt_b + 1) * 16 + 1]), "+f"(v21[(2 * mt_b + 0) * 16 + 2]), "+f"(v21[(2 * mt_b + 0) * 16 + 3]), "+f"(v21[(2 * mt_b + 1) * 16 + 2]), "+f"(v21[(2 * mt_b + 1) * 16 + 3]), "+f"(v21[(2 * mt_b + 0) * 16 + 4]), "+f"(v21[(2 * mt_b + 0) * 16 + 5]), "+f"(v21[(2 * mt_b + 1) * 16 + 4]), "+f"(v21[(2 * mt_b + 1) * 16 + 5]), "+f"(v21[(2 * mt_b + 0) * 16 + 6]), "+f"(v21[(2 * mt_b + 0) * 16 + 7]), "+f"(v21[(2 * mt_b + 1) * 16 + 6]), "+f"(v21[(2 * mt_b + 1) * 16 + 7]), "+f"(v21[(2 * mt_b + 0) * 16 + 8]), "+f"(v21[(2 * mt_b + 0) * 16 + 9]), "+f"(v21[(2 * mt_b + 1) * 16 + 8]), "+f"(v21[(2 * mt_b + 1) * 16 + 9]), "+f"(v21[(2 * mt_b + 0) * 16 + 10]), "+f"(v21[(2 * mt_b + 0) * 16 + 11]), "+f"(v21[(2 * mt_b + 1) * 16 + 10]), "+f"(v21[(2 * mt_b + 1) * 16 + 11]), "+f"(v21[(2 * mt_b + 0) * 16 + 12]), "+f"(v21[(2 * mt_b + 0) * 16 + 13]), "+f"(v21[(2 * mt_b + 1) * 16 + 12]), "+f"(v21[(2 * mt_b + 1) * 16 + 13]), "+f"(v21[(2 * mt_b + 0) * 16 + 14]), "+f"(v21[(2 * mt_b + 0) * 16 + 15]), "+f"(v21[(2 * mt_b + 1) * 16 + 14]), "+f"(v21[(2 * mt_b + 1) * 16 + 15])
    : "l"(mt_da), "l"(mt_db), "r"(1));
                }
            }
            mt_wgmma_commit();
            mt_wgmma_wait1();
        }
        #else
        #pragma unroll
        for (int dot_k = 0; dot_k < 32; ++dot_k) {
        #pragma unroll
            for (int mt_e = 0; mt_e < 32; ++mt_e)
                v21[mt_e] += mt_f16_to_f32(dot_lhs_h[dot_stage * 2048 + mt_swz((mt_b1_0 + (mt_e / 16) * 32), dot_k, 64, 32, 2, 4)]) * mt_f16_to_f32(dot_rhs_h[dot_stage * 2048 + mt_swz(dot_k, (mt_b1_1 + ((mt_e % 16) / 2) * 8 + (mt_e % 16) % 2), 32, 64, 2, 0)]);
        }
        #endif
        __syncthreads();
        if (mt_more) {
            const int mt_k_next = (int)((unsigned)k_base + 2u * (unsigned)32);
#line 17 "tests/golden/cuda/kernels/matmul.py"
            int v22[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v22[mt_e] = (mt_b0_1 + mt_e);
            int v23[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v23[mt_e] = ((int)(((unsigned)mt_k_next) + ((unsigned)v22[mt_e])));
#line 18 "tests/golden/cuda/kernels/matmul.py"
            int v25[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v25[mt_e] = ((int)(((unsigned)v12[mt_e]) * ((unsigned)K)));
            unsigned short* v26[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v26[mt_e] = (a + v25[mt_e]);
            unsigned short* v28[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v28[mt_e] = (v26[(mt_e / 8)] + v23[(mt_e % 8)]);
#line 19 "tests/golden/cuda/kernels/matmul.py"
            bool v30[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v30[mt_e] = (v12[mt_e] < M);
            bool v32[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v32[mt_e] = (v23[mt_e] < K);
            bool v33[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v33[mt_e] = (v30[(mt_e / 8)] & v32[(mt_e % 8)]);
#line 20 "tests/golden/cuda/kernels/matmul.py"
            int mt_rc4[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                mt_rc4[mt_e] = (mt_b2_0 + mt_e * 16);
            int mt_rc5[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                mt_rc5[mt_e] = ((int)(((unsigned)mt_k_next) + ((unsigned)mt_rc4[mt_e])));
            int v37[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v37[mt_e] = ((int)(((unsigned)mt_rc5[mt_e]) * ((unsigned)N)));
            unsigned short* v38[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v38[mt_e] = (b + v37[mt_e]);
            int mt_rc6[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                mt_rc6[mt_e] = (mt_b2_1 + mt_e);
            int mt_rc7[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                mt_rc7[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc6[mt_e])));
            unsigned short* v40[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v40[mt_e] = (v38[(mt_e / 8)] + mt_rc7[(mt_e % 8)]);
#line 21 "tests/golden/cuda/kernels/matmul.py"
            bool v42[2];
            #pragma unroll
            for (int mt_e = 0; mt_e < 2; ++mt_e)
                v42[mt_e] = (mt_rc5[mt_e] < K);
            bool v44[8];
            #pragma unroll
            for (int mt_e = 0; mt_e < 8; ++mt_e)
                v44[mt_e] = (mt_rc7[mt_e] < N);
            bool v45[16];
            #pragma unroll
            for (int mt_e = 0; mt_e < 16; ++mt_e)
                v45[mt_e] = (v42[(mt_e / 8)] & v44[(mt_e % 8)]);
            #pragma unroll
            for (int mt_g = 0; mt_g < 16; mt_g += 8) {
                bool mt_all = true;
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                    mt_all = mt_all && v33[(mt_e / 8) * 8 + (mt_e % 8)];
                {
                    const int mt_e = mt_g;
                    mt_all = mt_all && (((unsigned long long)v28[(mt_e / 8) * 8 + (mt_e % 8)]) & 15ull) == 0;
                }
                if (mt_all) {
                    const int mt_e = mt_g;
                    const int mt_s = mt_wstage * 2048 + mt_so0[mt_g / 8];
                    mt_cp_async16(&dot_lhs_h[mt_s], mt_sa_lhs + (unsigned)mt_s * 2u, v28[(mt_e / 8) * 8 + (mt_e % 8)], 1);
                } else {
                    const int mt_s = mt_wstage * 2048 + mt_so0[mt_g / 8];
                    unsigned short* mt_h;
                    {
                        const int mt_e = mt_g;
                        mt_h = v28[(mt_e / 8) * 8 + (mt_e % 8)];
                    }
                    #pragma unroll
                    for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                        dot_lhs_h[mt_s + (mt_e - mt_g)] = (v33[(mt_e / 8) * 8 + (mt_e % 8)] ? (*(mt_h + (mt_e - mt_g))) : ((unsigned short)0x0));
                }
            }
            #pragma unroll
            for (int mt_g = 0; mt_g < 16; mt_g += 8) {
                bool mt_all = true;
                #pragma unroll
                for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                    mt_all = mt_all && v45[(mt_e / 8) * 8 + (mt_e % 8)];
                {
                    const int mt_e = mt_g;
                    mt_all = mt_all && (((unsigned long long)v40[(mt_e / 8) * 8 + (mt_e % 8)]) & 15ull) == 0;
                }
                if (mt_all) {
                    const int mt_e = mt_g;
                    const int mt_s = mt_wstage * 2048 + mt_so1[mt_g / 8];
                    mt_cp_async16(&dot_rhs_h[mt_s], mt_sa_rhs + (unsigned)mt_s * 2u, v40[(mt_e / 8) * 8 + (mt_e % 8)], 1);
                } else {
                    const int mt_s = mt_wstage * 2048 + mt_so1[mt_g / 8];
                    unsigned short* mt_h;
                    {
                        const int mt_e = mt_g;
                        mt_h = v40[(mt_e / 8) * 8 + (mt_e % 8)];
                    }
                    #pragma unroll
                    for (int mt_e = mt_g; mt_e < mt_g + 8; ++mt_e)
                        dot_rhs_h[mt_s + (mt_e - mt_g)] = (v45[(mt_e / 8) * 8 + (mt_e % 8)] ? (*(mt_h + (mt_e - mt_g))) : ((unsigned short)0x0));
                }
            }
        }
        mt_cp_async_commit();
        dot_stage = dot_stage == 2 ? 0 : dot_stage + 1;
    }
    #if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    mt_wgmma_wait0();
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        asm volatile("" : "+f"(v21[mt_e]) :: "memory");
    #endif
    __syncthreads();
    mt_cp_async_wait_group(0);
    __syncthreads(); /* the dot tiles are dead: scratch over them */
#line 28 "tests/golden/cuda/kernels/matmul.py"
    int mt_rc8[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        mt_rc8[mt_e] = (mt_b3_0 + mt_e * 8);
    int mt_rc9[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        mt_rc9[mt_e] = ((int)(((unsigned)v10) + ((unsigned)mt_rc8[mt_e])));
    int v50[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v50[mt_e] = ((int)(((unsigned)mt_rc9[mt_e]) * ((unsigned)N)));
    float* v51[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v51[mt_e] = (c + v50[mt_e]);
    int mt_rc10[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc10[mt_e] = (mt_b3_1 + mt_e);
    int mt_rc11[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        mt_rc11[mt_e] = ((int)(((unsigned)v13) + ((unsigned)mt_rc10[mt_e])));
    float* v53[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v53[mt_e] = (v51[(mt_e / 4)] + mt_rc11[(mt_e % 4)]);
#line 29 "tests/golden/cuda/kernels/matmul.py"
    bool v55[8];
    #pragma unroll
    for (int mt_e = 0; mt_e < 8; ++mt_e)
        v55[mt_e] = (mt_rc9[mt_e] < M);
    bool v57[4];
    #pragma unroll
    for (int mt_e = 0; mt_e < 4; ++mt_e)
        v57[mt_e] = (mt_rc11[mt_e] < N);
    bool v58[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; ++mt_e)
        v58[mt_e] = (v55[(mt_e / 4)] & v57[(mt_e % 4)]);
#line 28 "tests/golden/cuda/kernels/matmul.py"
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; mt_e += 2) {
        {
            __align__(16) float mt_run[2] = {v21[mt_e + 0], v21[mt_e + 1]};
            *(uint2 *)&((float*)mt_smem)[(mt_b1_0 + (mt_e / 16) * 32) * 72 + (mt_b1_1 + ((mt_e % 16) / 2) * 8 + (mt_e % 16) % 2)] = *(const uint2 *)mt_run;
        }
    }
    __syncthreads();
    float mt_cv12[32];
    #pragma unroll
    for (int mt_e = 0; mt_e < 32; mt_e += 4) {
        {
            __align__(16) float mt_run[4];
            *(uint4 *)mt_run = *(const uint4 *)&((float*)mt_smem)[(mt_b3_0 + (mt_e / 4) * 8) * 72 + (mt_b3_1 + (mt_e % 4))];
            mt_cv12[mt_e + 0] = mt_run[0];
            mt_cv12[mt_e + 1] = mt_run[1];
            mt_cv12[mt_e + 2] = mt_run[2];
            mt_cv12[mt_e + 3] = mt_run[3];
        }
    }
    __syncthreads();
    #pragma unroll
    for (int mt_g = 0; mt_g < 32; mt_g += 4) {
        bool mt_all = true;
        #pragma unroll
        for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
            mt_all = mt_all && v58[(mt_e / 4) * 4 + (mt_e % 4)];
        {
            const int mt_e = mt_g;
            mt_all = mt_all && (((unsigned long long)v53[mt_e]) & 15ull) == 0;
        }
        if (mt_all) {
            float mt_q[4];
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                mt_q[mt_e - mt_g] = mt_cv12[(mt_e / 4) * 4 + (mt_e % 4)];
            {
                const int mt_e = mt_g;
                *(float4*)(v53[mt_e]) = make_float4(mt_q[0], mt_q[1], mt_q[2], mt_q[3]);
            }
        } else {
            float* mt_h;
            {
                const int mt_e = mt_g;
                mt_h = v53[mt_e];
            }
            #pragma unroll
            for (int mt_e = mt_g; mt_e < mt_g + 4; ++mt_e)
                if (v58[(mt_e / 4) * 4 + (mt_e % 4)]) *(mt_h + (mt_e - mt_g)) = mt_cv12[(mt_e / 4) * 4 + (mt_e % 4)];
        }
    }
}
